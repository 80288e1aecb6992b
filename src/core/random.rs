//! SplitMix64, the one small reproducible generator of the crate: the Zobrist keys (at compile
//! time), the levels' choice among near-best moves, the puzzle miner's openings, the puzzle
//! picker and the match's node jitter all draw from it, so a seed replays everywhere.

/// The increment of each SplitMix64 step (the golden ratio in 64 bits).
pub const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's finaliser: a well-spread mix of `z`.
#[must_use]
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One SplitMix64 step from `state`: the next state and its number.
#[must_use]
pub const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(GOLDEN);
    (s, mix64(s))
}

/// The next number drawn from `state`, which moves on.
pub fn next_random(state: &mut u64) -> u64 {
    let (s, n) = splitmix(*state);
    *state = s;
    n
}
