//! Memory for the engine's transposition tables on large pages.
//!
//! A table is read at scattered points, one cache line per probe; with ordinary 4 KB pages
//! nearly every probe of a 16 MB table also misses the processor's address-translation cache.
//! On Linux the process maps each table anonymously and asks the kernel for transparent huge
//! pages on it (`madvise`), so that a table of 16 MB spans eight 2 MB pages. Where the kernel
//! declines (huge pages disabled) the mapping still works with small pages; where mapping
//! fails, and on other systems, the engine keeps the table on the heap.

#[cfg(target_os = "linux")]
use crate::engine::set_table_memory;
use crate::engine::TableMemory;

/// The size of a large page on x86-64 and AArch64 Linux; the mapping starts its table on such
/// a boundary so that every 2 MB of it can be one page.
#[cfg(target_os = "linux")]
const LARGE_PAGE: usize = 2 << 20;

/// A table's memory inside an anonymous mapping.
#[cfg(target_os = "linux")]
struct Mapped {
    map: memmap2::MmapMut,
    offset: usize,
    len: usize,
}

#[cfg(target_os = "linux")]
impl TableMemory for Mapped {
    fn bytes(&mut self) -> &mut [u8] {
        &mut self.map[self.offset..self.offset + self.len]
    }
}

/// `len` zeroed bytes on a large-page boundary, or `None` when the system gives no mapping.
#[cfg(target_os = "linux")]
pub fn large_pages(len: usize) -> Option<Box<dyn TableMemory>> {
    // One large page more than asked, so that an aligned start fits; the part before it and
    // after the table is never touched and so never takes memory.
    let map = memmap2::MmapOptions::new()
        .len(len.checked_add(LARGE_PAGE)?)
        .map_anon()
        .ok()?;
    // Only a hint: without transparent huge pages the table works on small pages.
    let _ = map.advise(memmap2::Advice::HugePage);
    let start = map.as_ptr() as usize;
    let offset = start.next_multiple_of(LARGE_PAGE) - start;
    Some(Box::new(Mapped { map, offset, len }))
}

/// No large pages here: the tables stay on the heap.
#[cfg(not(target_os = "linux"))]
pub fn large_pages(_len: usize) -> Option<Box<dyn TableMemory>> {
    None
}

/// Back every transposition table this process makes with [`large_pages`] (on Linux; other
/// systems keep the tables on the heap).
pub fn use_large_pages() {
    #[cfg(target_os = "linux")]
    set_table_memory(large_pages);
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn mapped_tables_are_zeroed_aligned_and_long_enough() {
        let len = 3 << 20;
        let mut m = large_pages(len).expect("an anonymous mapping");
        let bytes = m.bytes();
        assert_eq!(bytes.len(), len);
        assert_eq!(bytes.as_ptr() as usize % LARGE_PAGE, 0);
        assert!(bytes.iter().all(|&b| b == 0));
        bytes[len - 1] = 7;
        assert_eq!(m.bytes()[len - 1], 7);
    }
}
