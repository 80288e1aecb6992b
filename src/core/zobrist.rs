//! Zobrist keys, generated at compile time from a fixed seed so hashes are stable across runs
//! (stored games and tests can rely on them).

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

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
