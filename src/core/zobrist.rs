//! Zobrist keys, generated at compile time from a fixed seed so hashes are stable across runs
//! (stored games and tests can rely on them).

use super::random::splitmix;

const fn build_piece_keys() -> [[u64; 90]; 14] {
    let mut keys = [[0u64; 90]; 14];
    let mut state = 0x5851_F42D_4C95_7F2D_u64;
    let mut p = 0;
    while p < 14 {
        let mut sq = 0;
        while sq < 90 {
            let (s, k) = splitmix(state);
            state = s;
            keys[p][sq] = k;
            sq += 1;
        }
        p += 1;
    }
    keys
}

/// `PIECE_KEYS[piece.index()][square.index()]`.
pub static PIECE_KEYS: [[u64; 90]; 14] = build_piece_keys();

/// Xored in when Black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix(0x1234_5678_9ABC_DEF0).1;
