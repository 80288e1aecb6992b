//! The transposition table: buckets of five 12-byte entries in one 64-byte cache line, sized
//! from a megabyte budget that it never exceeds.
//!
//! Replacement: an entry for the same position is refreshed (keeping its move when the new
//! result has none) unless it holds a much deeper result of the current search; otherwise the
//! entry of least worth is replaced, where worth is depth minus eight plies for every search
//! generation it has aged. Results of old searches therefore give way even when deep.

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
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq)]
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

#[derive(Copy, Clone, Default)]
#[repr(C, align(64))]
struct Bucket {
    entries: [Entry; ENTRIES],
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

/// The table.
pub(crate) struct Table {
    buckets: Vec<Bucket>,
    generation: u8,
}

impl Table {
    /// A table of at most `mb` megabytes (at least one bucket).
    pub(crate) fn new(mb: usize) -> Table {
        let bytes = mb.saturating_mul(1 << 20);
        let n = (bytes / std::mem::size_of::<Bucket>()).max(1);
        Table {
            buckets: vec![Bucket::default(); n],
            generation: 0,
        }
    }

    /// Bytes held (the bound the setting promises).
    pub(crate) fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Forget everything.
    pub(crate) fn clear(&mut self) {
        self.buckets.fill(Bucket::default());
        self.generation = 0;
    }

    /// Start a new search: older entries age.
    pub(crate) fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

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
    #[inline]
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
        let mut t = Table::new(1);
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
        let mut t = Table {
            buckets: vec![Bucket::default()],
            generation: 0,
        };
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
        t.new_search();
        t.new_search();
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
        let mut t = Table::new(1);
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
