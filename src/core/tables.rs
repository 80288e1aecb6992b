//! Move tables built at compile time: rays, horse legs, elephant eyes, palace steps, soldier steps.
//!
//! Every table is indexed by the dense square index (`rank * 9 + file`). Entries that carry a
//! second square give the point that must be empty for the move (the horse's leg, the elephant's eye).

/// Direction indices for [`RAYS`]: towards Black (+rank), towards Red (-rank), +file, -file.
pub const NORTH: usize = 0;
/// Towards Red's back rank.
pub const SOUTH: usize = 1;
/// Towards file i.
pub const EAST: usize = 2;
/// Towards file a.
pub const WEST: usize = 3;

const DIRS: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

/// Whether `s` is another point of `k`'s file or rank.
const fn on_lines(s: usize, k: usize) -> bool {
    s != k && (s % 9 == k % 9 || s / 9 == k / 9)
}

const fn offset(sq: usize, df: i8, dr: i8) -> Option<usize> {
    let f = (sq % 9) as i8 + df;
    let r = (sq / 9) as i8 + dr;
    if f < 0 || f > 8 || r < 0 || r > 9 {
        None
    } else {
        Some((r * 9 + f) as usize)
    }
}

/// Squares along each of the four orthogonal rays, nearest first.
pub struct Rays {
    /// `squares[sq][dir][k]`: the k-th point from `sq` in direction `dir`.
    pub squares: [[[u8; 9]; 4]; 90],
    /// How many points each ray has.
    pub len: [[u8; 4]; 90],
}

const fn build_rays() -> Rays {
    let mut r = Rays {
        squares: [[[0; 9]; 4]; 90],
        len: [[0; 4]; 90],
    };
    let mut sq = 0;
    while sq < 90 {
        let mut d = 0;
        while d < 4 {
            let mut cur = sq;
            let mut n = 0;
            while let Some(next) = offset(cur, DIRS[d].0, DIRS[d].1) {
                r.squares[sq][d][n] = next as u8;
                n += 1;
                cur = next;
            }
            r.len[sq][d] = n as u8;
            d += 1;
        }
        sq += 1;
    }
    r
}

/// The rays of every point.
pub static RAYS: Rays = build_rays();

/// Up to 8 (target, blocking point) pairs per square, plus a count.
pub struct Steps8 {
    /// `(to, block)` pairs.
    pub moves: [[(u8, u8); 8]; 90],
    /// How many pairs are valid.
    pub len: [u8; 90],
}

/// Horse jumps: `(dest, leg)`. The leg is the orthogonal neighbour in the jump's long direction.
const HORSE_DELTAS: [(i8, i8, i8, i8); 8] = [
    (1, 2, 0, 1),
    (-1, 2, 0, 1),
    (1, -2, 0, -1),
    (-1, -2, 0, -1),
    (2, 1, 1, 0),
    (2, -1, 1, 0),
    (-2, 1, -1, 0),
    (-2, -1, -1, 0),
];

const fn build_horse_moves() -> Steps8 {
    let mut t = Steps8 {
        moves: [[(0, 0); 8]; 90],
        len: [0; 90],
    };
    let mut sq = 0;
    while sq < 90 {
        let mut n = 0;
        let mut i = 0;
        while i < 8 {
            let (df, dr, lf, lr) = HORSE_DELTAS[i];
            if let (Some(to), Some(leg)) = (offset(sq, df, dr), offset(sq, lf, lr)) {
                t.moves[sq][n] = (to as u8, leg as u8);
                n += 1;
            }
            i += 1;
        }
        t.len[sq] = n as u8;
        sq += 1;
    }
    t
}

/// `(from, leg)`: a horse on `from` attacks this square when `leg` is empty.
const fn build_horse_attackers() -> Steps8 {
    let mut t = Steps8 {
        moves: [[(0, 0); 8]; 90],
        len: [0; 90],
    };
    let mut sq = 0;
    while sq < 90 {
        let mut n = 0;
        let mut i = 0;
        while i < 8 {
            let (df, dr, lf, lr) = HORSE_DELTAS[i];
            // A horse at sq - (df, dr) jumping by (df, dr) lands on sq; its leg is from + (lf, lr).
            if let Some(from) = offset(sq, -df, -dr) {
                if let Some(leg) = offset(from, lf, lr) {
                    t.moves[sq][n] = (from as u8, leg as u8);
                    n += 1;
                }
            }
            i += 1;
        }
        t.len[sq] = n as u8;
        sq += 1;
    }
    t
}

/// A horse's legs on one point, each as `[leg, a, b]` with the two points the leg leads to,
/// and how many legs there are.
pub type HorseLegs = ([[u8; 3]; 4], u8);

/// The legs of a horse standing on each point: its orthogonal neighbours, each leading to the
/// two points beyond it (a point off the board is given as the horse's own point, which holds
/// the horse itself, so it never reads as a move). The slots past the last leg are
/// `[own point; 3]`: a leg that is never free, so all four slots can be read without a count.
const fn build_horse_legs() -> [HorseLegs; 90] {
    // (file, rank) steps: the leg, then the two points it leads to.
    const STEPS: [[(i8, i8); 3]; 4] = [
        [(0, 1), (-1, 2), (1, 2)],
        [(0, -1), (-1, -2), (1, -2)],
        [(1, 0), (2, -1), (2, 1)],
        [(-1, 0), (-2, -1), (-2, 1)],
    ];
    let mut t = [([[0u8; 3]; 4], 0u8); 90];
    let mut sq = 0;
    while sq < 90 {
        t[sq].0 = [[sq as u8; 3]; 4];
        let mut n = 0;
        let mut i = 0;
        while i < 4 {
            let [(lf, lr), a, b] = STEPS[i];
            if let Some(leg) = offset(sq, lf, lr) {
                let a = match offset(sq, a.0, a.1) {
                    Some(x) => x,
                    None => sq,
                };
                let b = match offset(sq, b.0, b.1) {
                    Some(x) => x,
                    None => sq,
                };
                t[sq].0[n] = [leg as u8, a as u8, b as u8];
                n += 1;
            }
            i += 1;
        }
        t[sq].1 = n as u8;
        sq += 1;
    }
    t
}

/// Horse jumps from each point.
pub static HORSE_MOVES: Steps8 = build_horse_moves();
/// A horse's legs on each point and the points each leads to (see [`build_horse_legs`]).
pub static HORSE_LEGS: [HorseLegs; 90] = build_horse_legs();
/// Horses that could attack each point.
pub static HORSE_ATTACKERS: Steps8 = build_horse_attackers();

const fn same_half(a: usize, b: usize) -> bool {
    (a / 9 <= 4) == (b / 9 <= 4)
}

/// Elephant steps `(dest, eye)`, never across the river.
const fn build_elephant_moves() -> Steps8 {
    let mut t = Steps8 {
        moves: [[(0, 0); 8]; 90],
        len: [0; 90],
    };
    let deltas: [(i8, i8); 4] = [(2, 2), (2, -2), (-2, 2), (-2, -2)];
    let mut sq = 0;
    while sq < 90 {
        let mut n = 0;
        let mut i = 0;
        while i < 4 {
            let (df, dr) = deltas[i];
            if let Some(to) = offset(sq, df, dr) {
                if same_half(sq, to) {
                    if let Some(eye) = offset(sq, df / 2, dr / 2) {
                        t.moves[sq][n] = (to as u8, eye as u8);
                        n += 1;
                    }
                }
            }
            i += 1;
        }
        t.len[sq] = n as u8;
        sq += 1;
    }
    t
}

/// Elephant steps from each point.
pub static ELEPHANT_MOVES: Steps8 = build_elephant_moves();

const fn in_palace(sq: usize) -> bool {
    let f = sq % 9;
    let r = sq / 9;
    f >= 3 && f <= 5 && (r <= 2 || r >= 7)
}

/// Up to four destinations per point.
pub struct Steps4 {
    /// Destinations.
    pub to: [[u8; 4]; 90],
    /// How many are valid.
    pub len: [u8; 90],
}

const fn build_palace_steps(deltas: [(i8, i8); 4]) -> Steps4 {
    let mut t = Steps4 {
        to: [[0; 4]; 90],
        len: [0; 90],
    };
    let mut sq = 0;
    while sq < 90 {
        if in_palace(sq) {
            let mut n = 0;
            let mut i = 0;
            while i < 4 {
                if let Some(to) = offset(sq, deltas[i].0, deltas[i].1) {
                    if in_palace(to) && same_half(sq, to) {
                        t.to[sq][n] = to as u8;
                        n += 1;
                    }
                }
                i += 1;
            }
            t.len[sq] = n as u8;
        }
        sq += 1;
    }
    t
}

/// General steps: one point orthogonally, inside the palace.
pub static GENERAL_MOVES: Steps4 = build_palace_steps([(0, 1), (0, -1), (1, 0), (-1, 0)]);
/// Advisor steps: one point diagonally, inside the palace (only the five marked points connect).
pub static ADVISOR_MOVES: Steps4 = build_palace_steps([(1, 1), (1, -1), (-1, 1), (-1, -1)]);

const fn build_soldier_moves(forward: i8) -> Steps4 {
    let mut t = Steps4 {
        to: [[0; 4]; 90],
        len: [0; 90],
    };
    let mut sq = 0;
    while sq < 90 {
        let rank = sq / 9;
        let crossed = if forward > 0 { rank >= 5 } else { rank <= 4 };
        let mut n = 0;
        if let Some(to) = offset(sq, 0, forward) {
            t.to[sq][n] = to as u8;
            n += 1;
        }
        if crossed {
            if let Some(to) = offset(sq, 1, 0) {
                t.to[sq][n] = to as u8;
                n += 1;
            }
            if let Some(to) = offset(sq, -1, 0) {
                t.to[sq][n] = to as u8;
                n += 1;
            }
        }
        t.len[sq] = n as u8;
        sq += 1;
    }
    t
}

/// Soldier steps per colour (index 0 Red, 1 Black).
pub static SOLDIER_MOVES: [Steps4; 2] = [build_soldier_moves(1), build_soldier_moves(-1)];

/// Points an advisor of either colour can ever stand on.
#[must_use]
pub const fn advisor_point(sq: usize) -> bool {
    let f = sq % 9;
    let r = sq / 9;
    in_palace(sq) && ((f == 4 && (r == 1 || r == 8)) || (f != 4 && r != 1 && r != 8))
}

/// Points an elephant can ever stand on (seven per side).
#[must_use]
pub const fn elephant_point(sq: usize) -> bool {
    let f = sq % 9;
    let r = sq / 9;
    let r = if r >= 5 { 9 - r } else { r };
    (r == 0 || r == 4) && (f == 2 || f == 6) || r == 2 && (f == 0 || f == 4 || f == 8)
}

/// `1 << sq` for every point, looked up (a 128-bit shift costs several instructions).
pub static SQ_BITS: [u128; 90] = {
    let mut t = [0u128; 90];
    let mut i = 0;
    while i < 90 {
        t[i] = 1u128 << i;
        i += 1;
    }
    t
};

/// The points of each point's attackers of one kind, as board masks (bit = point): for a
/// horse, where it would stand to hit the point (its leg not considered); for a general,
/// an advisor or a soldier, where its step onto the point starts.
pub struct AttackFrom {
    /// Horses.
    pub horse: [u128; 90],
    /// Generals (inside the palace).
    pub general: [u128; 90],
    /// Advisors (onto the marked points of the palace only).
    pub advisor: [u128; 90],
    /// Soldiers of each colour (index 0 Red, 1 Black).
    pub soldier: [[u128; 90]; 2],
}

const fn build_attack_from() -> AttackFrom {
    let horses = build_horse_attackers();
    let generals = build_palace_steps([(0, 1), (0, -1), (1, 0), (-1, 0)]);
    let advisors = build_palace_steps([(1, 1), (1, -1), (-1, 1), (-1, -1)]);
    let soldiers = [build_soldier_moves(1), build_soldier_moves(-1)];
    let mut t = AttackFrom {
        horse: [0; 90],
        general: [0; 90],
        advisor: [0; 90],
        soldier: [[0; 90]; 2],
    };
    let mut sq = 0;
    while sq < 90 {
        let mut i = 0;
        while i < horses.len[sq] as usize {
            t.horse[sq] |= 1u128 << horses.moves[sq][i].0;
            i += 1;
        }
        // Palace steps go both ways, so the points a step reaches are the points it starts from.
        let mut i = 0;
        while i < generals.len[sq] as usize {
            t.general[sq] |= 1u128 << generals.to[sq][i];
            i += 1;
        }
        let mut i = 0;
        while advisor_point(sq) && i < advisors.len[sq] as usize {
            t.advisor[sq] |= 1u128 << advisors.to[sq][i];
            i += 1;
        }
        // Soldier steps go one way: mark the start of every step that lands here.
        let mut c = 0;
        while c < 2 {
            let mut i = 0;
            while i < soldiers[c].len[sq] as usize {
                t.soldier[c][soldiers[c].to[sq][i] as usize] |= 1u128 << sq;
                i += 1;
            }
            c += 1;
        }
        sq += 1;
    }
    t
}

/// Every point a piece of each cell code could move to from each point, its legs, eyes and
/// blockers not considered (for chariots and cannons, the other points of its rank and file).
/// A piece whose reach holds no enemy piece has no capture; one whose reach holds no point
/// that answers a check has no evasion.
static STEP_REACH: [[u128; 90]; 15] = build_step_reach();

/// The step reach of a piece of cell code `code` on `sq` (see [`STEP_REACH`]).
#[inline(always)]
pub(crate) fn step_reach(code: u8, sq: usize) -> u128 {
    STEP_REACH[usize::from(code)][sq]
}

const fn build_step_reach() -> [[u128; 90]; 15] {
    let horses = build_horse_moves();
    let elephants = build_elephant_moves();
    let generals = build_palace_steps([(0, 1), (0, -1), (1, 0), (-1, 0)]);
    let advisors = build_palace_steps([(1, 1), (1, -1), (-1, 1), (-1, -1)]);
    let soldiers = [build_soldier_moves(1), build_soldier_moves(-1)];
    let mut t = [[0u128; 90]; 15];
    let mut code = 1;
    while code < 15 {
        // Cell codes: Red 1–7, Black 8–14, each general, advisor, elephant, horse, chariot,
        // cannon, soldier.
        let (color, role) = ((code - 1) / 7, (code - 1) % 7);
        let mut sq = 0;
        while sq < 90 {
            let mut m = 0u128;
            let mut i = 0;
            match role {
                0 => {
                    while i < generals.len[sq] as usize {
                        m |= 1u128 << generals.to[sq][i];
                        i += 1;
                    }
                }
                1 => {
                    while i < advisors.len[sq] as usize {
                        m |= 1u128 << advisors.to[sq][i];
                        i += 1;
                    }
                }
                2 => {
                    while i < elephants.len[sq] as usize {
                        m |= 1u128 << elephants.moves[sq][i].0;
                        i += 1;
                    }
                }
                3 => {
                    while i < horses.len[sq] as usize {
                        m |= 1u128 << horses.moves[sq][i].0;
                        i += 1;
                    }
                }
                4 | 5 => {
                    while i < 90 {
                        if on_lines(i, sq) {
                            m |= 1u128 << i;
                        }
                        i += 1;
                    }
                }
                _ => {
                    while i < soldiers[color].len[sq] as usize {
                        m |= 1u128 << soldiers[color].to[sq][i];
                        i += 1;
                    }
                }
            }
            t[code][sq] = m;
            sq += 1;
        }
        code += 1;
    }
    t
}

/// Where the attackers of each point stand, by kind (see [`AttackFrom`]).
pub static ATTACK_FROM: AttackFrom = build_attack_from();

/// For a general on each point, `(shield, arrival)`: where a piece can stand to shield it or
/// be closed to its side's pieces (the other points of its file and rank, and the four
/// points diagonally beside it, the legs of the horses that could hit it), so that a move
/// that neither starts nor ends there cannot uncover a check on it; and where a piece arriving
/// can give it check (its file and rank, and the points a horse's jump away).
pub static GENERAL_ZONES: [(u128, u128); 90] = {
    let mut t = [(0u128, 0u128); 90];
    let mut k = 0usize;
    while k < 90 {
        let mut s = 0usize;
        while s < 90 {
            let (df, dr) = ((s % 9).abs_diff(k % 9), (s / 9).abs_diff(k / 9));
            let line = on_lines(s, k);
            if line || (df == 1 && dr == 1) {
                t[k].0 |= 1 << s;
            }
            if line || (df == 1 && dr == 2) || (df == 2 && dr == 1) {
                t[k].1 |= 1 << s;
            }
            s += 1;
        }
        k += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn horse_legs_agree_with_the_jump_table() {
        for (sq, (legs, n)) in HORSE_LEGS.iter().enumerate() {
            // The slots past the last leg hold the horse's own point, never a free leg.
            assert!(legs[*n as usize..].iter().all(|l| *l == [sq as u8; 3]));
            let mut by_legs: Vec<(u8, u8)> = legs[..*n as usize]
                .iter()
                .flat_map(|&[leg, a, b]| [(a, leg), (b, leg)])
                .filter(|&(to, _)| to as usize != sq)
                .collect();
            by_legs.sort_unstable();
            let mut moves = HORSE_MOVES.moves[sq][..HORSE_MOVES.len[sq] as usize].to_vec();
            moves.sort_unstable();
            assert_eq!(by_legs, moves, "moves from {sq}");
        }
    }

    #[test]
    fn corner_horse_has_two_jumps() {
        assert_eq!(HORSE_MOVES.len[0], 2);
        assert_eq!(HORSE_ATTACKERS.len[0], 2);
    }

    #[test]
    fn elephants_and_advisors_have_seven_and_five_points_a_side() {
        assert_eq!((0..45).filter(|&s| elephant_point(s)).count(), 7);
        assert_eq!((45..90).filter(|&s| elephant_point(s)).count(), 7);
        assert_eq!((0..45).filter(|&s| advisor_point(s)).count(), 5);
        assert_eq!((45..90).filter(|&s| advisor_point(s)).count(), 5);
    }

    #[test]
    fn advisor_steps_stay_on_the_marked_points() {
        for sq in 0..90 {
            for k in 0..ADVISOR_MOVES.len[sq] as usize {
                let to = ADVISOR_MOVES.to[sq][k] as usize;
                assert!(advisor_point(to) || !advisor_point(sq));
            }
        }
        // e1 (index 13) reaches the four corners of Red's palace.
        assert_eq!(ADVISOR_MOVES.len[13], 4);
    }

    #[test]
    fn soldiers_step_sideways_only_after_the_river() {
        assert_eq!(SOLDIER_MOVES[0].len[4 * 9 + 4], 1);
        assert_eq!(SOLDIER_MOVES[0].len[5 * 9 + 4], 3);
        assert_eq!(SOLDIER_MOVES[1].len[5 * 9 + 4], 1);
        assert_eq!(SOLDIER_MOVES[1].len[4 * 9 + 4], 3);
        assert_eq!(SOLDIER_MOVES[0].len[9 * 9 + 4], 2);
    }
}
