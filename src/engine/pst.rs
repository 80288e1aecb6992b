//! Material and piece-square values, middlegame and endgame, built into one table at compile
//! time: `PSQ[code][square]` is signed (Red positive), so a position's base score is a sum.
//!
//! The tables below are drawn from Red's side, as a FEN is read: the first row is the far rank
//! (rank 9), the last row Red's own back rank. Black uses the same tables mirrored. Values are
//! this project's own, set by hand from common Xiangqi principles and then tuned by matches.

/// Material, middlegame and endgame, by role (general, advisor, elephant, horse, chariot,
/// cannon, soldier).
pub(crate) const MATERIAL_MG: [i32; 7] = [0, 200, 200, 400, 920, 450, 80];
pub(crate) const MATERIAL_EG: [i32; 7] = [0, 180, 180, 440, 1000, 420, 120];

/// Game phase weight of each role; the start position has [`PHASE_MAX`].
pub(crate) const PHASE: [i32; 7] = [0, 0, 0, 3, 6, 3, 0];
pub(crate) const PHASE_MAX: i32 = 48;

#[rustfmt::skip]
const GENERAL_MG: [i32; 90] = [
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0, -20, -25, -20, 0, 0, 0,
    0, 0, 0,  -8, -10,  -8, 0, 0, 0,
    0, 0, 0,   2,   6,   2, 0, 0, 0,
];

#[rustfmt::skip]
const GENERAL_EG: [i32; 90] = [
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0, -10,  -6, -10, 0, 0, 0,
    0, 0, 0,  -4,   4,  -4, 0, 0, 0,
    0, 0, 0,  -2,   6,  -2, 0, 0, 0,
];

#[rustfmt::skip]
const ADVISOR: [i32; 90] = [
    0, 0, 0, 0,  0, 0, 0, 0, 0,
    0, 0, 0, 0,  0, 0, 0, 0, 0,
    0, 0, 0, 0,  0, 0, 0, 0, 0,
    0, 0, 0, 0,  0, 0, 0, 0, 0,
    0, 0, 0, 0,  0, 0, 0, 0, 0,
    0, 0, 0, 0,  0, 0, 0, 0, 0,
    0, 0, 0, 0,  0, 0, 0, 0, 0,
    0, 0, 0, -4, 0,-4, 0, 0, 0,
    0, 0, 0, 0,  6, 0, 0, 0, 0,
    0, 0, 0, 2,  0, 2, 0, 0, 0,
];

#[rustfmt::skip]
const ELEPHANT: [i32; 90] = [
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0,-2, 0, 0, 0,-2, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
   -4, 0, 0, 0, 8, 0, 0, 0,-4,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 2, 0, 0, 0, 2, 0, 0,
];

#[rustfmt::skip]
const HORSE: [i32; 90] = [
    0, -4,  0,  0,  0,  0,  0, -4,  0,
    0,  8, 18, 12,  4, 12, 18,  8,  0,
    4, 10, 28, 18,  8, 18, 28, 10,  4,
   10, 16, 18, 22, 20, 22, 18, 16, 10,
    4, 18, 16, 20, 22, 20, 16, 18,  4,
    2,  8, 12, 14, 14, 14, 12,  8,  2,
    0,  4,  8,  6, 10,  6,  8,  4,  0,
    2,  0,  8,  6,  4,  6,  8,  0,  2,
   -2,  0,  2,  2,-10,  2,  2,  0, -2,
   -6, -8, -2,  0, -4,  0, -2, -8, -6,
];

#[rustfmt::skip]
const CHARIOT: [i32; 90] = [
   14, 14, 12, 18, 16, 18, 12, 14, 14,
   16, 20, 18, 24, 26, 24, 18, 20, 16,
   12, 12, 12, 18, 18, 18, 12, 12, 12,
   12, 18, 16, 22, 22, 22, 16, 18, 12,
   12, 14, 12, 18, 18, 18, 12, 14, 12,
   12, 16, 14, 20, 20, 20, 14, 16, 12,
    6, 10,  8, 14, 14, 14,  8, 10,  6,
    4,  8,  6, 14, 12, 14,  6,  8,  4,
    6,  4,  8, 16,  8, 16,  8,  4,  6,
   -4,  8,  4, 12, 10, 12,  4,  8, -4,
];

#[rustfmt::skip]
const CANNON: [i32; 90] = [
    6,  4,  0,-10,-12,-10,  0,  4,  6,
    2,  2,  0, -4,-14, -4,  0,  2,  2,
    2,  2,  0,-10, -8,-10,  0,  2,  2,
    0,  0, -2,  4, 10,  4, -2,  0,  0,
    0,  0,  0,  2,  8,  2,  0,  0,  0,
   -2,  0,  4,  2,  6,  2,  4,  0, -2,
    0,  0,  0,  2,  4,  2,  0,  0,  0,
    4,  0,  8,  6, 10,  6,  8,  0,  4,
    0,  2,  4,  6,  6,  6,  4,  2,  0,
    0,  0,  2,  6,  6,  6,  2,  0,  0,
];

#[rustfmt::skip]
const SOLDIER_MG: [i32; 90] = [
    0,  3,  6,  9,  12,  9,  6,  3,  0,
   18, 36, 56, 80, 120, 80, 56, 36, 18,
   14, 26, 42, 60,  80, 60, 42, 26, 14,
   10, 20, 30, 34,  40, 34, 30, 20, 10,
    6, 12, 18, 18,  20, 18, 18, 12,  6,
    2,  0,  8,  0,   8,  0,  8,  0,  2,
    0,  0, -2,  0,   4,  0, -2,  0,  0,
    0,  0,  0,  0,   0,  0,  0,  0,  0,
    0,  0,  0,  0,   0,  0,  0,  0,  0,
    0,  0,  0,  0,   0,  0,  0,  0,  0,
];

#[rustfmt::skip]
const SOLDIER_EG: [i32; 90] = [
    0, 10, 20, 30,  30, 30, 20, 10,  0,
   30, 50, 70, 90, 100, 90, 70, 50, 30,
   30, 50, 65, 80,  90, 80, 65, 50, 30,
   25, 40, 50, 60,  60, 60, 50, 40, 25,
   20, 30, 40, 45,  45, 45, 40, 30, 20,
    0,  0,  0,  0,   0,  0,  0,  0,  0,
    0,  0,  0,  0,   0,  0,  0,  0,  0,
    0,  0,  0,  0,   0,  0,  0,  0,  0,
    0,  0,  0,  0,   0,  0,  0,  0,  0,
    0,  0,  0,  0,   0,  0,  0,  0,  0,
];

const fn table(role: usize, eg: bool) -> &'static [i32; 90] {
    match role {
        0 => {
            if eg {
                &GENERAL_EG
            } else {
                &GENERAL_MG
            }
        }
        1 => &ADVISOR,
        2 => &ELEPHANT,
        3 => &HORSE,
        4 => &CHARIOT,
        5 => &CANNON,
        _ => {
            if eg {
                &SOLDIER_EG
            } else {
                &SOLDIER_MG
            }
        }
    }
}

/// `(mg, eg)` of the piece with cell code `code` (1..=14) on `sq`, signed for Red.
const fn build() -> [[(i16, i16); 90]; 15] {
    let mut t = [[(0i16, 0i16); 90]; 15];
    let mut code = 1;
    while code <= 14 {
        let red = code <= 7;
        let role = (code - 1) % 7;
        let mut sq = 0;
        while sq < 90 {
            let rank = sq / 9;
            let file = sq % 9;
            let row = if red { 9 - rank } else { rank };
            let i = row * 9 + file;
            let mg = MATERIAL_MG[role] + table(role, false)[i];
            // Away from generals and soldiers, the endgame uses half the positional value.
            let eg_pos = if role == 0 || role == 6 {
                table(role, true)[i]
            } else {
                table(role, true)[i] / 2
            };
            let eg = MATERIAL_EG[role] + eg_pos;
            let sign = if red { 1 } else { -1 };
            t[code][sq] = ((sign * mg) as i16, (sign * eg) as i16);
            sq += 1;
        }
        code += 1;
    }
    t
}

/// Signed `(mg, eg)` values by cell code and square.
pub(crate) static PSQ: [[(i16, i16); 90]; 15] = build();

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Color, Piece, Position, Role, Square};

    #[test]
    fn the_start_position_is_balanced() {
        let p = Position::startpos();
        let (mut mg, mut eg) = (0, 0);
        for (sq, piece, _) in p.pieces() {
            let (a, b) = PSQ[piece.index() + 1][sq.index()];
            mg += i32::from(a);
            eg += i32::from(b);
        }
        assert_eq!((mg, eg), (0, 0));
    }

    #[test]
    fn tables_mirror_between_the_colours() {
        let sq = Square::parse("c7").unwrap();
        let mirror = Square::parse("c2").unwrap();
        let red = Piece::new(Color::Red, Role::Horse).index() + 1;
        let black = Piece::new(Color::Black, Role::Horse).index() + 1;
        assert_eq!(PSQ[red][sq.index()].0, -PSQ[black][mirror.index()].0);
        // A crossed soldier near the palace is worth more than one at home.
        let s = Piece::new(Color::Red, Role::Soldier).index() + 1;
        let at = |n: &str| PSQ[s][Square::parse(n).unwrap().index()].0;
        assert!(at("e7") > at("e5") && at("e5") > at("e3"));
    }
}
