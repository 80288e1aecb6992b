//! PNG encoding by horizontal strips, with a shared cache of compressed strips.
//!
//! Deflate is most of the cost of a picture, and a move changes only a few of its rows: the
//! ranks the piece left and reached, the ranks the previous move's marks leave, and the band
//! whose clock ticked. So the picture is cut into strips (a player band, one rank of the board
//! each, see [`super::Layout::strip_ends`]), and each strip is deflated on its own: a fresh
//! compressor, ended by a sync flush, so it is byte-aligned and refers to nothing before it.
//! Such pieces concatenate into one valid deflate stream (as `pigz` builds its output), which a
//! zlib header, a final empty block and the Adler-32 of all rows make a PNG's image data.
//!
//! A strip that was deflated before, in this game or any other, is taken from the cache by the
//! 128-bit hash of its raw rows (filter bytes included) and their length. The cache is two
//! generations of a hash map: hits in the old one move to the young one, and when the young one
//! passes half the byte budget the old one is dropped. That is a least-recently-used cache to
//! within a factor of two, with O(1) work and one short lock per strip.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use flate2::{Compress, Compression, FlushCompress};

use super::paint::Canvas;
use super::theme::Palette;
use super::RenderError;

/// The zlib level of each strip. Measured with `cargo bench --bench render` (cold: no cache, a
/// mid-game board; in play: the boards of a 100-ply game one by one, 36% of strips cached):
/// level 3: 1.36 ms cold, 0.94 ms in play, 42.4 KB; 4: 1.62 / 1.08 ms, 41.6 KB;
/// 5: 1.92 / 1.27 ms, 38.3 KB; 6: 2.55 / 1.69 ms, 36.6 KB. Level 5 keeps the size of the
/// whole-picture encoder this replaced (37.4 KB at 2.0 ms) and is a third faster in play.
/// Under the service bench (2,000 games, 64 MB cache) level 3 delivered 1,048 moves/s against
/// level 5's 1,044, within the noise, for pictures 10% larger: level 5 stays.
const LEVEL: u32 = 5;

/// The default byte budget of the strip cache: a strip deflates to 0.3–5 KB, so this holds
/// over ten thousand, enough for every board of a couple of thousand games in play at once.
/// Measured with `GAMES=2000 cargo bench --bench service_load` (2 cores): 16 MB found 48% of
/// strips cached and delivered 854 moves/s; 48 MB 57% and 981; 64 MB 61% and 1,044 (holding
/// 41 MB), for about 40 MB more resident memory.
pub const DEFAULT_CACHE_BYTES: usize = 64 << 20;

type Key = (u128, u32);

/// Counters of the strip cache since the renderer was built.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Strips found in the cache.
    pub hits: u64,
    /// Strips deflated.
    pub misses: u64,
    /// Strips held now.
    pub entries: usize,
    /// Bytes held now (compressed strips).
    pub bytes: usize,
}

#[derive(Default)]
struct Generations {
    young: HashMap<Key, Arc<[u8]>>,
    old: HashMap<Key, Arc<[u8]>>,
    young_bytes: usize,
    old_bytes: usize,
}

/// Compressed strips shared by every picture of a renderer.
pub(crate) struct StripCache {
    budget: usize,
    gens: Mutex<Generations>,
    hits: AtomicU64,
    misses: AtomicU64,
}

impl StripCache {
    /// A cache holding about `budget` bytes; 0 turns caching off.
    pub fn new(budget: usize) -> StripCache {
        StripCache {
            budget,
            gens: Mutex::new(Generations::default()),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    fn get(&self, key: &Key) -> Option<Arc<[u8]>> {
        if self.budget == 0 {
            return None;
        }
        let mut g = self.gens.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(v) = g.young.get(key) {
            return Some(Arc::clone(v));
        }
        let v = g.old.remove(key)?;
        g.old_bytes -= v.len();
        self.insert(&mut g, *key, Arc::clone(&v));
        Some(v)
    }

    fn put(&self, key: Key, value: Arc<[u8]>) {
        if self.budget == 0 {
            return;
        }
        let mut g = self.gens.lock().unwrap_or_else(PoisonError::into_inner);
        self.insert(&mut g, key, value);
    }

    fn insert(&self, g: &mut Generations, key: Key, value: Arc<[u8]>) {
        let len = value.len();
        if let Some(old) = g.young.insert(key, value) {
            g.young_bytes -= old.len();
        }
        g.young_bytes += len;
        if g.young_bytes > self.budget / 2 {
            g.old = std::mem::take(&mut g.young);
            g.old_bytes = std::mem::take(&mut g.young_bytes);
        }
    }

    pub fn stats(&self) -> CacheStats {
        let g = self.gens.lock().unwrap_or_else(PoisonError::into_inner);
        CacheStats {
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
            entries: g.young.len() + g.old.len(),
            bytes: g.young_bytes + g.old_bytes,
        }
    }
}

/// Encode an indexed PNG of `canvas`, cut into strips ending at the rows `ends` (increasing, the
/// last one the canvas height). Rows are unfiltered: filters only hurt palette art (they turn
/// runs of one index into noise).
pub(crate) fn png(
    canvas: &Canvas,
    pal: &Palette,
    ends: &[i32],
    cache: &StripCache,
) -> Result<Vec<u8>, RenderError> {
    let (w, h) = (canvas.w as usize, canvas.h as usize);
    let mut idat = Vec::with_capacity(48 * 1024);
    // CMF: deflate with a 32 KB window; FLG: check bits (0x789C is the usual pair).
    idat.extend_from_slice(&[0x78, 0x9C]);
    let mut adler = simd_adler32::Adler32::new();
    let mut raw = Vec::with_capacity((w + 1) * 128);
    let mut y0 = 0usize;
    for &end in ends {
        let y1 = (end.max(0) as usize).min(h);
        if y1 <= y0 {
            continue;
        }
        raw.clear();
        for row in canvas.px[y0 * w..y1 * w].chunks_exact(w) {
            raw.push(0); // filter type None
            raw.extend_from_slice(row);
        }
        adler.write(&raw);
        let key = (xxhash_rust::xxh3::xxh3_128(&raw), raw.len() as u32);
        let strip = match cache.get(&key) {
            Some(strip) => {
                cache.hits.fetch_add(1, Ordering::Relaxed);
                strip
            }
            None => {
                cache.misses.fetch_add(1, Ordering::Relaxed);
                let strip: Arc<[u8]> = deflate_strip(&raw)?.into();
                cache.put(key, Arc::clone(&strip));
                strip
            }
        };
        idat.extend_from_slice(&strip);
        y0 = y1;
    }
    if y0 != h {
        return Err(RenderError::Encode(format!(
            "strips end at row {y0}, the picture has {h}"
        )));
    }
    // The last block: final, fixed Huffman codes, nothing but the end-of-block code.
    idat.extend_from_slice(&[0x03, 0x00]);
    idat.extend_from_slice(&adler.finish().to_be_bytes());

    let mut out = Vec::with_capacity(idat.len() + 1024);
    out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    let mut ihdr = Vec::with_capacity(13);
    ihdr.extend_from_slice(&(w as u32).to_be_bytes());
    ihdr.extend_from_slice(&(h as u32).to_be_bytes());
    // Bit depth 8, colour type 3 (indexed), deflate, adaptive filtering, no interlace.
    ihdr.extend_from_slice(&[8, 3, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    let palette: Vec<u8> = pal.rgb.iter().flatten().copied().collect();
    chunk(&mut out, b"PLTE", &palette);
    chunk(&mut out, b"IDAT", &idat);
    chunk(&mut out, b"IEND", &[]);
    Ok(out)
}

/// One strip as raw deflate blocks ending on a byte boundary (sync flush), not final.
fn deflate_strip(raw: &[u8]) -> Result<Vec<u8>, RenderError> {
    let mut c = Compress::new(Compression::new(LEVEL), false);
    let mut out = Vec::with_capacity(raw.len() / 8 + 256);
    loop {
        let done = c.total_in() as usize;
        c.compress_vec(&raw[done..], &mut out, FlushCompress::Sync)
            .map_err(|e| RenderError::Encode(e.to_string()))?;
        // The flush is complete once all input is taken and the output did not fill up.
        if c.total_in() as usize == raw.len() && out.len() < out.capacity() {
            return Ok(out);
        }
        out.reserve(out.capacity().max(4096));
    }
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(&crc.finalize().to_be_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canvas(w: i32, h: i32, seed: u8) -> Canvas {
        let px = (0..w * h)
            .map(|i| {
                // Runs and noise, like a board: mostly flat with some detail.
                let (x, y) = (i % w, i / w);
                if (x / 7 + y / 5) % 3 == 0 {
                    ((x * 31 + y * 17) as u8).wrapping_add(seed) % 16
                } else {
                    seed % 16
                }
            })
            .collect();
        Canvas { w, h, px }
    }

    fn palette() -> Palette {
        Palette::new(crate::render::Theme::Wood.colors())
    }

    fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
        let mut dec = png::Decoder::new(std::io::Cursor::new(bytes));
        dec.set_transformations(png::Transformations::IDENTITY);
        let mut reader = dec.read_info().expect("png header");
        let mut buf = vec![0; reader.output_buffer_size().expect("size")];
        let info = reader.next_frame(&mut buf).expect("png frame");
        buf.truncate(info.buffer_size());
        (info.width, info.height, buf)
    }

    #[test]
    fn strips_decode_to_the_canvas_with_and_without_the_cache() {
        let c = canvas(97, 61, 3);
        let ends = [5, 20, 21, 40, 61];
        for budget in [0, 1 << 20] {
            let cache = StripCache::new(budget);
            let a = png(&c, &palette(), &ends, &cache).expect("encode");
            let b = png(&c, &palette(), &ends, &cache).expect("encode again");
            assert_eq!(a, b, "a cached strip must give the same bytes");
            let (w, h, px) = decode(&a);
            assert_eq!((w, h), (97, 61));
            assert_eq!(px, c.px);
        }
    }

    #[test]
    fn a_changed_row_is_seen_and_the_others_come_from_the_cache() {
        let cache = StripCache::new(1 << 20);
        let ends = [10, 20, 30, 40];
        let first = canvas(64, 40, 1);
        png(&first, &palette(), &ends, &cache).expect("encode");
        assert_eq!(cache.stats().misses, 4);
        let mut second = first.clone();
        second.px[64 * 25 + 3] ^= 1;
        let bytes = png(&second, &palette(), &ends, &cache).expect("encode");
        let s = cache.stats();
        assert_eq!((s.hits, s.misses), (3, 5));
        assert_eq!(decode(&bytes).2, second.px);
    }

    #[test]
    fn the_cache_stays_within_its_budget() {
        let cache = StripCache::new(4096);
        for seed in 0..200u8 {
            let c = canvas(64, 16, seed);
            let bytes = png(&c, &palette(), &[8, 16], &cache).expect("encode");
            assert_eq!(decode(&bytes).2, c.px);
        }
        let s = cache.stats();
        assert!(s.bytes <= 4096 + 2048, "{s:?}");
        assert!(s.entries > 0);
    }

    #[test]
    fn ends_that_miss_the_last_row_are_an_error() {
        let c = canvas(8, 8, 0);
        let cache = StripCache::new(0);
        assert!(png(&c, &palette(), &[4], &cache).is_err());
    }
}
