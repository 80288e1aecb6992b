//! The transposition table: buckets of five 12-byte entries in one 64-byte cache line, sized
//! from a megabyte budget that it never exceeds.
//!
//! Replacement: an entry for the same position is refreshed (keeping its move when the new
//! result has none) unless it holds a much deeper result of the current search; otherwise the
//! entry of least worth is replaced, where worth is depth minus eight plies for every search
//! generation it has aged. Results of old searches therefore give way even when deep.

use std::sync::OnceLock;

use bytemuck::{Pod, Zeroable};

use crate::core::{Move, Square};

/// What a stored score bounds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true score is at most the stored one (no move raised alpha).
    Upper = 1,
    /// The true score is at least the stored one (a move reached beta).
    Lower = 2,
    /// The stored score is exact.
    Exact = 3,
}

/// One stored search result.
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq, Pod, Zeroable)]
#[repr(C)]
pub(crate) struct Entry {
    key: u32,
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    /// Bound in the low two bits (0 = empty), generation in the high six.
    gen_bound: u8,
}

const ENTRIES: usize = 5;

#[derive(Copy, Clone, Default, Pod, Zeroable)]
#[repr(C, align(64))]
struct Bucket {
    entries: [Entry; ENTRIES],
    /// The rest of the cache line, spelt out so that a bucket is plain bytes (all zeros is an
    /// empty bucket), which lets the table live in memory the process supplies.
    _pad: [u8; 4],
}

/// Zeroed memory for a transposition table, supplied by the process rather than the engine:
/// the engine stays free of the operating system, while a process can back its tables with
/// large pages (fewer address translations on the table's scattered reads). See
/// [`set_table_memory`].
pub trait TableMemory: Send {
    /// The memory: zeroed when handed over, at least as long as asked for, and starting on
    /// a 64-byte boundary.
    fn bytes(&mut self) -> &mut [u8];
}

/// What supplies a table's memory: asked for a length in bytes, it answers memory of at
/// least that length, or `None` (then the table lives on the heap).
pub type MemorySource = fn(usize) -> Option<Box<dyn TableMemory>>;

static SOURCE: OnceLock<MemorySource> = OnceLock::new();

/// Let every transposition table made from now on take its memory from `source` (once per
/// process; a later call changes nothing). Tables take heap memory until then, and whenever
/// the source declines or answers memory that is short or not on a 64-byte boundary.
pub fn set_table_memory(source: MemorySource) {
    let _ = SOURCE.set(source);
}

/// Heap memory, the default.
struct Heap(Vec<Bucket>);

impl TableMemory for Heap {
    fn bytes(&mut self) -> &mut [u8] {
        bytemuck::cast_slice_mut(&mut self.0)
    }
}

/// What a probe found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Hit {
    pub mv: Option<Move>,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// Ask the processor to bring the cache line of `x` closer, without waiting for it. On x86-64
/// this is the `prefetcht0` instruction (through `safe_arch`, which keeps the crate free of
/// `unsafe`); elsewhere it does nothing.
#[inline(always)]
pub(crate) fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    safe_arch::prefetch_t0(x);
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// Encode a move in 14 bits (0 means none: a move never starts and ends on one point).
#[inline]
pub(crate) fn pack(m: Move) -> u16 {
    m.from.index() as u16 | (m.to.index() as u16) << 7
}

/// Decode [`pack`].
#[inline]
pub(crate) fn unpack(v: u16) -> Option<Move> {
    if v == 0 {
        return None;
    }
    let from = Square::from_index((v & 0x7F) as usize)?;
    let to = Square::from_index((v >> 7) as usize)?;
    Some(Move::new(from, to))
}

/// The table: its memory and the current search's generation. A search works through a
/// [`View`].
pub(crate) struct Table {
    memory: Box<dyn TableMemory>,
    len: usize,
    generation: u8,
}

impl Table {
    /// A table of at most `mb` megabytes (at least one bucket).
    pub(crate) fn new(mb: usize) -> Table {
        let bytes = mb.saturating_mul(1 << 20);
        Table::with_buckets((bytes / std::mem::size_of::<Bucket>()).max(1))
    }

    /// A table of `n` buckets, in memory from the process's source when it gives usable
    /// memory, else on the heap.
    fn with_buckets(n: usize) -> Table {
        let size = n * std::mem::size_of::<Bucket>();
        let memory = SOURCE
            .get()
            .and_then(|source| source(size))
            .and_then(|mut m| usable(m.bytes(), size).then_some(m))
            .unwrap_or_else(|| Box::new(Heap(vec![Bucket::default(); n])));
        Table {
            memory,
            len: n,
            generation: 0,
        }
    }

    /// Bytes held (the bound the setting promises).
    pub(crate) fn bytes(&self) -> usize {
        self.len * std::mem::size_of::<Bucket>()
    }

    /// Forget everything.
    pub(crate) fn clear(&mut self) {
        self.view().buckets.fill(Bucket::default());
        self.generation = 0;
    }

    /// Start a new search: older entries age.
    pub(crate) fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    /// The buckets, for a search.
    pub(crate) fn view(&mut self) -> View<'_> {
        let size = self.bytes();
        View {
            buckets: bytemuck::cast_slice_mut(&mut self.memory.bytes()[..size]),
            generation: self.generation,
        }
    }
}

/// Whether supplied memory can hold `size` bytes of buckets.
fn usable(bytes: &[u8], size: usize) -> bool {
    bytes.len() >= size && bytemuck::try_cast_slice::<u8, Bucket>(&bytes[..size]).is_ok()
}

/// A table's buckets, borrowed for one search (the memory is looked up once, not at every
/// probe).
pub(crate) struct View<'a> {
    buckets: &'a mut [Bucket],
    generation: u8,
}

impl View<'_> {
    #[inline]
    fn index(&self, key: u64) -> usize {
        ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize
    }

    /// Start loading the bucket of `key` into the cache without waiting for it, so that the
    /// probe of the position a moment later finds it there (a prefetch hint: it never faults
    /// and changes nothing the search can observe).
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        prefetch(&self.buckets[self.index(key)]);
    }

    /// The entry for `key`, if stored.
    #[inline(always)]
    pub(crate) fn probe(&self, key: u64) -> Option<Hit> {
        let b = &self.buckets[self.index(key)];
        let k = key as u32;
        b.entries
            .iter()
            .find(|e| e.key == k && e.gen_bound & 3 != 0)
            .map(|e| Hit {
                mv: unpack(e.mv),
                score: i32::from(e.score),
                eval: i32::from(e.eval),
                depth: i32::from(e.depth),
                bound: match e.gen_bound & 3 {
                    1 => Bound::Upper,
                    2 => Bound::Lower,
                    _ => Bound::Exact,
                },
            })
    }

    /// Store a result. `score` must already be node-relative ([`super::score::to_tt`]).
    pub(crate) fn store(
        &mut self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let gen = self.generation;
        let i = self.index(key);
        let b = &mut self.buckets[i];
        let k = key as u32;
        let age = |e: &Entry| i32::from((gen.wrapping_sub(e.gen_bound >> 2)) & 63);
        let worth = |e: &Entry| {
            if e.gen_bound & 3 == 0 {
                i32::MIN
            } else {
                i32::from(e.depth) - 8 * age(e)
            }
        };
        let slot = match b
            .entries
            .iter()
            .position(|e| e.key == k && e.gen_bound & 3 != 0)
        {
            Some(j) => {
                let e = &b.entries[j];
                // Keep a much deeper exact-or-bound result of this same search.
                if bound != Bound::Exact && age(e) == 0 && i32::from(e.depth) > depth + 3 {
                    return;
                }
                j
            }
            None => {
                let mut best = 0;
                for j in 1..ENTRIES {
                    if worth(&b.entries[j]) < worth(&b.entries[best]) {
                        best = j;
                    }
                }
                best
            }
        };
        let e = &mut b.entries[slot];
        let packed = match mv {
            Some(m) => pack(m),
            None if e.key == k => e.mv,
            None => 0,
        };
        *e = Entry {
            key: k,
            mv: packed,
            score: score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            eval: eval.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            depth: depth.clamp(0, 255) as u8,
            gen_bound: gen << 2 | bound as u8,
        };
    }

    /// Permille of sampled entries written by the current search (UCI `hashfull`).
    pub(crate) fn hashfull(&self) -> u32 {
        let n = self.buckets.len().min(200);
        let mut used = 0;
        for b in &self.buckets[..n] {
            used += b
                .entries
                .iter()
                .filter(|e| e.gen_bound & 3 != 0 && e.gen_bound >> 2 == self.generation)
                .count();
        }
        (used * 1000 / (n * ENTRIES)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        Move::parse_iccs(s).unwrap()
    }

    /// Keys that all land in bucket 0 of a one-bucket table.
    fn keys(n: u64) -> Vec<u64> {
        (1..=n)
            .map(|i: u64| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect()
    }

    #[test]
    fn buckets_are_one_cache_line_and_the_budget_holds() {
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        for mb in [1, 16, 64] {
            let t = Table::new(mb);
            assert!(t.bytes() <= mb << 20);
            assert!(t.bytes() > (mb << 20) - 64);
        }
    }

    #[test]
    fn moves_pack_and_unpack() {
        for s in ["a0a1", "i9i0", "h2e2", "a9i9"] {
            assert_eq!(unpack(pack(mv(s))), Some(mv(s)));
        }
        assert_eq!(unpack(0), None);
    }

    #[test]
    fn store_then_probe_round_trips() {
        let mut table = Table::new(1);
        let mut t = table.view();
        let k = 0xDEAD_BEEF_1234_5678;
        t.store(k, Some(mv("h2e2")), -345, 17, 9, Bound::Lower);
        let h = t.probe(k).unwrap();
        assert_eq!(
            (h.mv, h.score, h.eval, h.depth, h.bound),
            (Some(mv("h2e2")), -345, 17, 9, Bound::Lower)
        );
        assert_eq!(
            t.probe(k ^ 1),
            None,
            "another key of the same bucket misses"
        );
    }

    #[test]
    fn replacement_prefers_shallow_and_old_entries() {
        let mut table = Table::with_buckets(1);
        let mut t = table.view();
        let ks = keys(7);
        // Fill the bucket with depths 10, 2, 8, 6, 4.
        for (k, d) in ks.iter().zip([10, 2, 8, 6, 4]) {
            t.store(*k, None, 0, 0, d, Bound::Exact);
        }
        // A sixth position evicts the shallowest (depth 2).
        t.store(ks[5], None, 0, 0, 5, Bound::Exact);
        assert!(t.probe(ks[1]).is_none());
        for k in [ks[0], ks[2], ks[3], ks[4], ks[5]] {
            assert!(t.probe(k).is_some());
        }
        // Two searches later the deep entries have aged (worth 10 - 16 < 1): once the other
        // four are refreshed by this search, even shallowly, the old depth-10 entry goes.
        table.new_search();
        table.new_search();
        let mut t = table.view();
        for k in [ks[2], ks[3], ks[4], ks[5]] {
            t.store(k, None, 0, 0, 1, Bound::Exact);
        }
        t.store(ks[6], None, 0, 0, 1, Bound::Exact);
        assert!(t.probe(ks[0]).is_none(), "the old deep entry was replaced");
        for k in [ks[2], ks[3], ks[4], ks[5], ks[6]] {
            assert!(t.probe(k).is_some());
        }
    }

    #[test]
    fn a_shallow_bound_does_not_overwrite_a_deep_result_of_the_same_search() {
        let mut table = Table::new(1);
        let mut t = table.view();
        let k = 42;
        t.store(k, Some(mv("b0c2")), 100, 0, 12, Bound::Exact);
        t.store(k, None, 50, 0, 3, Bound::Upper);
        assert_eq!(t.probe(k).unwrap().depth, 12);
        // An exact result always lands, and keeps the stored move when it has none.
        t.store(k, None, 60, 0, 3, Bound::Exact);
        let h = t.probe(k).unwrap();
        assert_eq!((h.depth, h.mv), (3, Some(mv("b0c2"))));
    }
}
