//! The static evaluation, from the side to move's view: material and piece-square tables
//! tapered by phase ([`super::pst`]), plus the terms Xiangqi engines rely on — mobility of
//! chariots, horses (legs blocked or free) and cannons (screens), king safety around the palace
//! (missing advisors and elephants against the attackers left, cannons aimed at the general
//! with or without screens, attackers inside the palace), crossed soldiers that stand together,
//! and scaling when the stronger side has nothing left that can mate.

use crate::core::lines::LineMask;
use crate::core::tables::HORSE_LEGS;
use crate::core::{code_of, Color, Move, Position, Role};

use super::pst::{PHASE, PHASE_MAX, PSQ};

const EMPTY: u8 = 0;
const OFF: u8 = 0xFF;

// Role indices (as in `core::Role`).
const ADVISOR: usize = 1;
const ELEPHANT: usize = 2;
const HORSE: usize = 3;
const CHARIOT: usize = 4;
const CANNON: usize = 5;
const SOLDIER: usize = 6;

/// The weights of the dynamic terms (middlegame, endgame), kept together for tuning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Weights {
    pub chariot_mob: (i32, i32),
    pub horse_mob: (i32, i32),
    pub horse_trapped: (i32, i32),
    pub cannon_mob: (i32, i32),
    pub cannon_target: (i32, i32),
    pub empty_cannon: (i32, i32),
    pub central_cannon: (i32, i32),
    pub bottom_cannon: (i32, i32),
    pub missing_advisor: i32,
    pub missing_elephant: i32,
    pub palace_intruder: (i32, i32),
    pub chariot_on_king_file: (i32, i32),
    pub soldier_pair: (i32, i32),
    pub tempo: i32,
}

pub(crate) const W: Weights = Weights {
    chariot_mob: (4, 6),
    horse_mob: (7, 8),
    horse_trapped: (20, 20),
    cannon_mob: (2, 2),
    cannon_target: (6, 4),
    empty_cannon: (90, 40),
    central_cannon: (18, 6),
    bottom_cannon: (20, 10),
    missing_advisor: 7,
    missing_elephant: 5,
    palace_intruder: (14, 10),
    chariot_on_king_file: (14, 10),
    soldier_pair: (12, 16),
    tempo: 12,
};

impl Weights {
    /// The weight called `name` (`tempo`, `missing_advisor`, or `NAME.mg` / `NAME.eg`).
    pub(crate) fn slot(&mut self, name: &str) -> Option<&mut i32> {
        let (base, phase) = match name.rsplit_once('.') {
            Some((b, p)) => (b, Some(p)),
            None => (name, None),
        };
        let pair = match base {
            "chariot_mob" => &mut self.chariot_mob,
            "horse_mob" => &mut self.horse_mob,
            "horse_trapped" => &mut self.horse_trapped,
            "cannon_mob" => &mut self.cannon_mob,
            "cannon_target" => &mut self.cannon_target,
            "empty_cannon" => &mut self.empty_cannon,
            "central_cannon" => &mut self.central_cannon,
            "bottom_cannon" => &mut self.bottom_cannon,
            "palace_intruder" => &mut self.palace_intruder,
            "chariot_on_king_file" => &mut self.chariot_on_king_file,
            "soldier_pair" => &mut self.soldier_pair,
            "missing_advisor" if phase.is_none() => return Some(&mut self.missing_advisor),
            "missing_elephant" if phase.is_none() => return Some(&mut self.missing_elephant),
            "tempo" if phase.is_none() => return Some(&mut self.tempo),
            _ => return None,
        };
        match phase {
            Some("mg") => Some(&mut pair.0),
            Some("eg") => Some(&mut pair.1),
            _ => None,
        }
    }
}

#[inline]
fn color_of(code: u8) -> usize {
    usize::from(code > 7)
}

/// Role index of each cell code (0 for an empty cell).
pub(crate) const ROLE_OF: [u8; 15] = [0, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6];

#[inline]
pub(crate) fn role_of(code: u8) -> usize {
    ROLE_OF[code as usize] as usize
}

/// Whether a point is inside or on the ring just outside each colour's palace (the ranks of
/// the palace and the one in front of it, files c–g), by colour and point.
const NEAR_PALACE: [[bool; 90]; 2] = {
    let mut t = [[false; 90]; 2];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = (sq % 9, sq / 9);
        if f >= 2 && f <= 6 {
            t[0][sq] = r <= 3;
            t[1][sq] = r >= 6;
        }
        sq += 1;
    }
    t
};

#[inline]
fn near_palace(sq: usize, color: usize) -> bool {
    NEAR_PALACE[color][sq]
}

/// The number of points in each line mask (10 bits at most), looked up: a build for any
/// x86-64 cannot assume the processor's population-count instruction, and counting bit by bit
/// costs a dozen instructions where this costs one load from a table that stays in cache.
static POP: [u8; 1024] = {
    let mut t = [0u8; 1024];
    let mut i = 0;
    while i < 1024 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// Points in the line mask `x`.
#[inline(always)]
fn pop(x: LineMask) -> i32 {
    i32::from(POP[usize::from(x) & 1023])
}

/// Material and piece-square sums (Red positive), the game phase and the number of pieces of
/// each kind: the part of the evaluation a move changes by a few table lookups, kept up to
/// date by the search.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Base {
    pub mg: i32,
    pub eg: i32,
    pub phase: i32,
    /// Four bits per cell code: bits `4·(code − 1)` count the pieces of that code.
    pub counts: u64,
}

/// The [`Base::counts`] unit of a cell code.
#[inline]
fn count_unit(code: u8) -> u64 {
    1 << (4 * (u32::from(code) - 1))
}

impl Base {
    /// The sums of `pos`, counted.
    pub(crate) fn of(pos: &Position) -> Base {
        let mut b = Base::default();
        for id in 0..32 {
            let s = pos.squares[id];
            if s != OFF {
                let code = pos.kinds[id];
                let (m, e) = PSQ[code as usize][s as usize];
                b.mg += i32::from(m);
                b.eg += i32::from(e);
                b.phase += PHASE[role_of(code)];
                b.counts += count_unit(code);
            }
        }
        b
    }

    /// The number of `color`'s pieces of `role`.
    #[inline(always)]
    pub(crate) fn n(self, color: usize, role: usize) -> i32 {
        ((self.counts >> (4 * (7 * color + role))) & 15) as i32
    }

    /// The sums after `m` (not yet played) in `pos`.
    #[inline]
    pub(crate) fn after(self, pos: &Position, m: Move) -> Base {
        let (from, to) = (m.from.index(), m.to.index());
        let code = pos.board[from] as usize;
        let (fm, fe) = PSQ[code][from];
        let (tm, te) = PSQ[code][to];
        let mut b = Base {
            mg: self.mg + i32::from(tm) - i32::from(fm),
            eg: self.eg + i32::from(te) - i32::from(fe),
            phase: self.phase,
            counts: self.counts,
        };
        let cap = pos.board[to];
        if cap != EMPTY {
            let (cm, ce) = PSQ[cap as usize][to];
            b.mg -= i32::from(cm);
            b.eg -= i32::from(ce);
            b.phase -= PHASE[role_of(cap)];
            b.counts -= count_unit(cap);
        }
        b
    }

    /// Material and placement alone, tapered, for the side to move (with the tempo): a
    /// cheap estimate of [`evaluate`] when the position is far outside the window.
    #[inline]
    pub(crate) fn score(self, turn: Color, w: &Weights) -> i32 {
        let phase = self.phase.min(PHASE_MAX);
        let s = (self.mg * phase + self.eg * (PHASE_MAX - phase)) / PHASE_MAX;
        (if turn == Color::Red { s } else { -s }) + w.tempo
    }
}

/// The identities of each side's chariots, horses and cannons (the pieces the evaluation
/// walks one by one), found once per search: at most two of each (positions with more are
/// refused when they are read), [`NONE`] where there are fewer.
#[derive(Clone, Debug)]
pub(crate) struct Roster {
    ids: [[[u8; 2]; 3]; 2],
}

/// No piece, in a [`Roster`] slot.
const NONE: u8 = u8::MAX;

/// The roster slot of each walked role.
const WALKED: [usize; 3] = [CHARIOT, HORSE, CANNON];

impl Roster {
    pub(crate) fn of(pos: &Position) -> Roster {
        let mut r = Roster {
            ids: [[[NONE; 2]; 3]; 2],
        };
        for id in 0..32u8 {
            let code = pos.kinds[id as usize];
            if code == EMPTY {
                continue;
            }
            let (c, role) = (color_of(code), role_of(code));
            if let Some(k) = WALKED.iter().position(|&w| w == role) {
                if let Some(slot) = r.ids[c][k].iter_mut().find(|x| **x == NONE) {
                    *slot = id;
                }
            }
        }
        r
    }

    /// Call `f` with the point of each of `color`'s pieces of the `k`-th walked role still on
    /// the board (two slots, unrolled).
    #[inline(always)]
    fn each(&self, pos: &Position, color: usize, k: usize, mut f: impl FnMut(usize)) {
        for &id in &self.ids[color][k] {
            if id != NONE {
                let s = pos.squares[usize::from(id) & 31];
                if s != OFF {
                    f(usize::from(s));
                }
            }
        }
    }
}

/// A middlegame and an endgame value in one integer, `eg · 2¹⁶ + mg`: sums of packed values
/// are the packed sums, exactly, while each part stays within ±2¹⁵ (which bounding the
/// weights by [`super::params::EVAL_WEIGHT_MAX`] ensures), so one addition does the work of
/// two.
type Packed = i32;

#[inline(always)]
const fn pack((mg, eg): (i32, i32)) -> Packed {
    eg * (1 << 16) + mg
}

/// The middlegame part of a packed value.
#[inline(always)]
fn mg_of(p: Packed) -> i32 {
    i32::from(p as i16)
}

/// The endgame part of a packed value.
#[inline(always)]
fn eg_of(p: Packed) -> i32 {
    (p - mg_of(p)) >> 16
}

/// A term for Red and for Black (whose pieces count against Red), packed.
fn both((mg, eg): (i32, i32)) -> [Packed; 2] {
    [pack((mg, eg)), -pack((mg, eg))]
}

/// A term by the number of points a piece reaches (0 to `N − 1`), for Red and for Black.
fn by_count<const N: usize>(f: impl Fn(i32) -> (i32, i32)) -> [[Packed; N]; 2] {
    let red: [Packed; N] = std::array::from_fn(|n| pack(f(n as i32)));
    [red, red.map(|v| -v)]
}

/// [`Weights`] prepared for the evaluation: each term packed, with its sign for each side,
/// and the mobility terms tabled by the number of points reached (each table a power of two
/// long and indexed through a mask, so a lookup needs no bounds test; only the counts a piece
/// can reach are read). An engine keeps them beside its weights, made again only when a
/// weight changes.
#[derive(Clone, Debug)]
pub(crate) struct Terms {
    chariot_mob: [[Packed; 32]; 2],
    /// Mobility, with the trapped horse's penalty folded in.
    horse_mob: [[Packed; 16]; 2],
    cannon_mob: [[Packed; 32]; 2],
    cannon_target: [[Packed; 8]; 2],
    intruder: [Packed; 2],
    soldier_intruder: [Packed; 2],
    chariot_on_king_file: [Packed; 2],
    empty_cannon: [Packed; 2],
    central_cannon: [Packed; 2],
    bottom_cannon: [Packed; 2],
    soldier_pair: [Packed; 2],
    missing_advisor: i32,
    missing_elephant: i32,
    tempo: i32,
}

impl Terms {
    pub(crate) fn of(w: &Weights) -> Terms {
        let times = |(mg, eg): (i32, i32), n: i32| (mg * n, eg * n);
        Terms {
            chariot_mob: by_count(|n| times(w.chariot_mob, n - 7)),
            horse_mob: by_count(|n| {
                let (mg, eg) = times(w.horse_mob, n - 4);
                if n <= 1 {
                    (mg - w.horse_trapped.0, eg - w.horse_trapped.1)
                } else {
                    (mg, eg)
                }
            }),
            cannon_mob: by_count(|n| times(w.cannon_mob, n - 6)),
            cannon_target: by_count(|n| times(w.cannon_target, n)),
            intruder: both(w.palace_intruder),
            soldier_intruder: both((w.palace_intruder.0 / 2, w.palace_intruder.1 / 2)),
            chariot_on_king_file: both(w.chariot_on_king_file),
            empty_cannon: both(w.empty_cannon),
            central_cannon: both(w.central_cannon),
            bottom_cannon: both(w.bottom_cannon),
            soldier_pair: both(w.soldier_pair),
            missing_advisor: w.missing_advisor,
            missing_elephant: w.missing_elephant,
            tempo: w.tempo,
        }
    }
}

/// The points where a soldier of each colour has crossed the river (ranks its side does not
/// own), and those of them near the enemy palace, as board masks by colour: a soldier that has
/// not crossed scores nothing beyond its material and placement.
const CROSSED: [(u128, u128); 2] = {
    let mut t = [(0u128, 0u128); 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 90 {
            if !Color::ALL[c].owns_rank((sq / 9) as u8) {
                t[c].0 |= 1 << sq;
                if NEAR_PALACE[c ^ 1][sq] {
                    t[c].1 |= 1 << sq;
                }
            }
            sq += 1;
        }
        c += 1;
    }
    t
};

/// Every point but those of the last file (i): a point whose right-hand neighbour is on its
/// rank.
const NOT_LAST_FILE: u128 = {
    let mut m = 0u128;
    let mut sq = 0;
    while sq < 90 {
        if sq % 9 < 8 {
            m |= 1 << sq;
        }
        sq += 1;
    }
    m
};

/// The number of points of a mask with few of them (a loop per point: the portable build has
/// no population-count instruction).
#[inline(always)]
fn few(mut m: u128) -> i32 {
    let mut n = 0;
    while m != 0 {
        m &= m - 1;
        n += 1;
    }
    n
}

/// The points strictly between two points of one line, as a line mask (bits `lo + 1 .. hi`).
#[inline(always)]
fn between_mask(x: usize, y: usize) -> u32 {
    let (lo, hi) = if x < y { (x, y) } else { (y, x) };
    ((1u32 << hi) - 1) & !((2u32 << lo) - 1)
}

/// A chariot of `us` on `sq`: mobility, the enemy general's file, the enemy palace.
#[inline(always)]
fn chariot_term(pos: &Position, t: &Terms, sq: usize, us: usize, king: usize) -> Packed {
    let (f, r) = (sq % 9, sq / 9);
    let (rs, fs) = pos.occ.slides(sq);
    // Empty points, plus the blockers that are the enemy's: all but our own pieces.
    let (own_r, own_f) = pos.side_lines(us, r, f);
    let mut v = t.chariot_mob[us][(pop(rs & !own_r) + pop(fs & !own_f)) as usize & 31];
    // On the enemy general's file with nothing of ours in the way.
    if f == king % 9 && u32::from(own_f) & between_mask(r, king / 9) == 0 {
        v += t.chariot_on_king_file[us];
    }
    if near_palace(sq, us ^ 1) {
        v += t.intruder[us];
    }
    v
}

/// A horse of `us` on `sq`: mobility (or trapped), the enemy palace.
#[inline(always)]
fn horse_term(pos: &Position, t: &Terms, sq: usize, us: usize) -> Packed {
    let b = &pos.board;
    // Own codes run from our general's 7 up.
    let own_lo = code_of(Color::ALL[us], Role::General);
    let not_own = |x: u8| usize::from(b[x as usize].wrapping_sub(own_lo) >= 7);
    // Counted leg by leg: a free leg opens its two points unless our own pieces stand there.
    // All four slots, without branches (a missing leg is the horse's own point, never free).
    let (legs, _) = &HORSE_LEGS[sq];
    let mut mob = 0;
    for &[leg, to1, to2] in legs {
        let free = 0usize.wrapping_sub(usize::from(b[leg as usize] == EMPTY));
        mob += (not_own(to1) + not_own(to2)) & free;
    }
    let mut v = t.horse_mob[us][mob & 15];
    if near_palace(sq, us ^ 1) {
        v += t.intruder[us];
    }
    v
}

/// A cannon of `us` on `sq`: mobility, targets, aimed at the enemy general on `king`.
#[inline(always)]
fn cannon_term(pos: &Position, t: &Terms, sq: usize, us: usize, king: usize) -> Packed {
    let occ = &pos.occ;
    let (f, r) = (sq % 9, sq / 9);
    let (kf, kr) = (king % 9, king / 9);
    let (rank, file) = occ.lines(sq);
    let mob = pop(rank.slide & !occ.ranks[r]) + pop(file.slide & !occ.files[f]);
    // The pieces it hits (all occupied points) that are not our own.
    let (own_r, own_f) = pos.side_lines(us, r, f);
    let targets = pop(rank.cannon & !own_r) + pop(file.cannon & !own_f);
    let mut v = t.cannon_mob[us][mob as usize & 31] + t.cannon_target[us][targets as usize & 7];
    if f == kf {
        match pop(occ.files[f] & between_mask(r, kr) as LineMask) {
            0 => v += t.empty_cannon[us],
            2 => v += t.central_cannon[us],
            _ => {}
        }
    } else if r == kr && pop(occ.ranks[r] & between_mask(f, kf) as LineMask) == 2 {
        v += t.bottom_cannon[us];
    }
    v
}

/// The soldiers of `us`: each crossed one with a crossed soldier of its own on its right, and
/// each one near the enemy palace.
#[inline(always)]
fn soldiers_term(pos: &Position, t: &Terms, us: usize) -> Packed {
    let (crossed, near) = CROSSED[us];
    let s = pos.code_bits[code_of(Color::ALL[us], Role::Soldier) as usize] & crossed;
    if s == 0 {
        return 0;
    }
    // A neighbour on the same rank has crossed as well.
    let pairs = s & (s >> 1) & NOT_LAST_FILE;
    few(pairs) * t.soldier_pair[us] + few(s & near) * t.soldier_intruder[us]
}

/// The evaluation of `pos` for the side to move, in centipawns.
#[must_use]
#[cfg(test)]
pub(crate) fn evaluate(pos: &Position, w: &Weights) -> i32 {
    evaluate_from(
        pos,
        &Terms::of(w),
        Base::of(pos),
        &Roster::of(pos),
        &mut Material::none(),
    )
}

/// What the evaluation draws from the piece counts alone, kept for the last counts seen (a
/// capture changes them; most evaluations in a row share them): the missing defenders' terms
/// and how much each side's lead is scaled down.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Material {
    /// The [`Base::counts`] these were found for.
    counts: u64,
    /// Red's missing-defender terms less Black's, subtracted (middlegame, endgame).
    mg: i32,
    eg: i32,
    /// What a lead of each side is divided by (see [`scale_divisor`]).
    div: [i32; 2],
}

impl Material {
    /// Nothing found yet (no position has these counts).
    pub(crate) fn none() -> Material {
        Material {
            counts: u64::MAX,
            mg: 0,
            eg: 0,
            div: [1; 2],
        }
    }

    /// Brought up to `base`'s counts.
    #[inline]
    fn update(&mut self, t: &Terms, base: Base) {
        if self.counts == base.counts {
            return;
        }
        // Defenders missing, weighed by what the other side can still attack with.
        let (mut mg, mut eg) = ([0; 2], [0; 2]);
        for us in 0..2 {
            let them = us ^ 1;
            let attack = 2 * base.n(them, CHARIOT) + base.n(them, HORSE) + base.n(them, CANNON);
            let (advisors, elephants) = (base.n(us, ADVISOR), base.n(us, ELEPHANT));
            mg[us] -= attack
                * (t.missing_advisor * (2 - advisors) + t.missing_elephant * (2 - elephants));
            eg[us] -= attack * t.missing_advisor / 2 * (2 - advisors);
        }
        *self = Material {
            counts: base.counts,
            mg: mg[0] - mg[1],
            eg: eg[0] - eg[1],
            div: [scale_divisor(0, base), scale_divisor(1, base)],
        };
    }
}

/// [`evaluate`] given the position's [`Base`] sums and [`Roster`], and the [`Material`] terms
/// of the last counts (brought up to date here).
#[must_use]
pub(crate) fn evaluate_from(
    pos: &Position,
    t: &Terms,
    base: Base,
    roster: &Roster,
    material: &mut Material,
) -> i32 {
    // Red's dynamic terms less Black's, packed.
    let mut acc: Packed = 0;
    let king = Color::ALL.map(|c| pos.general_square(c).index());
    for us in 0..2 {
        let kt = king[us ^ 1];
        roster.each(pos, us, 0, |sq| acc += chariot_term(pos, t, sq, us, kt));
        roster.each(pos, us, 1, |sq| acc += horse_term(pos, t, sq, us));
        roster.each(pos, us, 2, |sq| acc += cannon_term(pos, t, sq, us, kt));
        acc += soldiers_term(pos, t, us);
    }
    material.update(t, base);
    let phase = base.phase.min(PHASE_MAX);
    let mg_total = base.mg + mg_of(acc) + material.mg;
    let eg_total = base.eg + eg_of(acc) + material.eg;
    let mut score = (mg_total * phase + eg_total * (PHASE_MAX - phase)) / PHASE_MAX;
    // Pull the score towards a draw when the side ahead cannot mate.
    let div = material.div[usize::from(score <= 0)];
    if div != 1 {
        score /= div;
    }
    let stm = if pos.turn == Color::Red {
        score
    } else {
        -score
    };
    stm + t.tempo
}

/// What a lead of `strong` is divided by, to pull it towards a draw when that side cannot
/// mate: with nothing that attacks (only general, advisors, elephants) it cannot win at all
/// (16); a lone cannon or a lone soldier rarely mates a general with two defenders (4).
fn scale_divisor(strong: usize, base: Base) -> i32 {
    let n = |role| base.n(strong, role);
    let attackers = n(CHARIOT) + n(HORSE) + n(CANNON) + n(SOLDIER);
    if attackers == 0 {
        return 16;
    }
    if n(CHARIOT) + n(HORSE) == 0 && attackers == 1 {
        let weak = strong ^ 1;
        if base.n(weak, ADVISOR) + base.n(weak, ELEPHANT) >= 2 {
            return 4;
        }
    }
    1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> i32 {
        evaluate(&Position::from_fen(fen).unwrap(), &W)
    }

    /// The soldiers' term point by point over the board: each crossed soldier with a soldier
    /// of its side on its right, and each crossed soldier near the enemy palace.
    fn soldiers_by_walk(pos: &Position, t: &Terms, us: usize) -> Packed {
        let soldier = code_of(Color::ALL[us], Role::Soldier);
        let mut v = 0;
        for sq in 0..90 {
            let crossed = !Color::ALL[us].owns_rank((sq / 9) as u8);
            if pos.board[sq] != soldier || !crossed {
                continue;
            }
            if sq % 9 < 8 && pos.board[sq + 1] == soldier {
                v += t.soldier_pair[us];
            }
            if near_palace(sq, us ^ 1) {
                v += t.soldier_intruder[us];
            }
        }
        v
    }

    #[test]
    fn the_soldiers_masks_agree_with_walking_the_board() {
        let t = Terms::of(&W);
        let fens = [
            // Pairs across the river, near the palace, at the board's edge, and uncrossed.
            "4k4/9/2PP5/PP5P1/9/p1p1p1p1p/9/9/9/4K4 w - - 0 1",
            "4k4/9/9/9/9/9/pp5p1/3pp4/9/4K4 b - - 0 1",
            "3k5/4P4/3P1P3/9/8P/p8/9/3p1p3/4p4/5K3 w - - 0 1",
            crate::core::START_FEN,
        ];
        let mut pairs_seen = 0;
        for fen in fens {
            let mut pos = Position::from_fen(fen).unwrap();
            // Walk a line of play (the first legal move, 40 times) so soldiers cross and meet.
            for _ in 0..40 {
                for us in 0..2 {
                    assert_eq!(
                        soldiers_term(&pos, &t, us),
                        soldiers_by_walk(&pos, &t, us),
                        "{fen}"
                    );
                    if soldiers_by_walk(&pos, &t, us) != 0 {
                        pairs_seen += 1;
                    }
                }
                let moves = pos.legal_moves();
                let Some(m) = moves.iter().rev().find(|m| pos.piece_at(m.to).is_none()) else {
                    break;
                };
                pos.make(*m);
            }
        }
        assert!(pairs_seen > 20, "the walk must meet crossed soldiers");
    }

    #[test]
    fn the_material_terms_kept_from_position_to_position_agree_with_fresh_ones() {
        let t = Terms::of(&W);
        let mut kept = Material::none();
        let mut pos = Position::from_fen(
            "2bakab2/9/2n1c1n2/p1p1p1p1p/9/2P1P4/P5P1P/1CN4C1/4A4/2BAK1B2 w - - 0 1",
        )
        .unwrap();
        let mut captures = 0;
        for ply in 0..80 {
            let (base, roster) = (Base::of(&pos), Roster::of(&pos));
            assert_eq!(
                evaluate_from(&pos, &t, base, &roster, &mut kept),
                evaluate_from(&pos, &t, base, &roster, &mut Material::none()),
                "{}",
                pos.to_fen()
            );
            let moves = pos.legal_moves();
            // Take when possible, so the counts change along the way.
            let Some(&m) = moves
                .iter()
                .find(|m| pos.piece_at(m.to).is_some())
                .or_else(|| moves.iter().nth(ply * 5 % moves.len().max(1)))
            else {
                break;
            };
            captures += usize::from(pos.piece_at(m.to).is_some());
            pos.make(m);
        }
        assert!(captures >= 8, "{captures}");
    }

    #[test]
    fn the_start_position_scores_the_tempo_for_both_sides() {
        let red = eval(crate::core::START_FEN);
        let black = eval("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
        assert_eq!(red, W.tempo);
        assert_eq!(black, W.tempo);
    }

    /// The same position with the colours swapped (ranks reversed, cases swapped).
    fn mirror(fen: &str) -> String {
        let mut parts = fen.split(' ');
        let board = parts.next().unwrap();
        let side = parts.next().unwrap_or("w");
        let ranks: Vec<String> = board
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let side = if side == "w" { "b" } else { "w" };
        format!("{} {side}", ranks.join("/"))
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        for fen in [
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R b",
            "2bak4/4a4/4b1n2/p3p3p/2p3R2/2P6/P3c3P/4B1N2/4A4/2BAK4 w",
            "4k4/4a4/3P5/9/9/9/9/9/9/3K5 w",
        ] {
            assert_eq!(eval(fen), eval(&mirror(fen)), "{fen}");
        }
    }

    #[test]
    fn the_base_sums_follow_the_moves() {
        let mut p =
            Position::from_fen("r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R b")
                .unwrap();
        let mut base = Base::of(&p);
        for m in ["b7b0", "a0b0", "a9a8", "b2b9"] {
            let m = Move::parse_iccs(m).unwrap();
            base = base.after(&p, m);
            p.play(m).unwrap();
            assert_eq!(base, Base::of(&p), "{m}");
        }
    }

    #[test]
    fn packed_values_add_up_as_their_two_parts() {
        let parts = [
            (-300, 250),
            (17, -4),
            (0, 0),
            (-1, -1),
            (90, 40),
            (-2000, 3000),
        ];
        let (mut sum, mut mg, mut eg) = (0, 0, 0);
        for p in parts {
            sum += pack(p);
            mg += p.0;
            eg += p.1;
            assert_eq!((mg_of(sum), eg_of(sum)), (mg, eg), "{p:?}");
            assert_eq!((mg_of(-sum), eg_of(-sum)), (-mg, -eg), "{p:?}");
        }
    }

    #[test]
    fn the_prepared_terms_follow_the_weights() {
        let t = Terms::of(&W);
        let unpack = |p: Packed| (mg_of(p), eg_of(p));
        assert_eq!(
            unpack(t.chariot_mob[0][10]),
            (3 * W.chariot_mob.0, 3 * W.chariot_mob.1)
        );
        assert_eq!(
            unpack(t.chariot_mob[1][10]),
            (-3 * W.chariot_mob.0, -3 * W.chariot_mob.1)
        );
        // A horse reaching one point is also trapped.
        assert_eq!(
            unpack(t.horse_mob[0][1]),
            (
                -3 * W.horse_mob.0 - W.horse_trapped.0,
                -3 * W.horse_mob.1 - W.horse_trapped.1
            )
        );
        assert_eq!(
            unpack(t.horse_mob[0][2]),
            (-2 * W.horse_mob.0, -2 * W.horse_mob.1)
        );
        assert_eq!(
            unpack(t.soldier_intruder[1]),
            (-(W.palace_intruder.0 / 2), -(W.palace_intruder.1 / 2))
        );
    }

    #[test]
    fn material_counts() {
        // Red is a chariot up.
        assert!(eval("3k5/9/9/9/9/9/9/9/9/R3K4 w") > 500);
        assert!(eval("3k5/9/9/9/9/9/9/9/9/R3K4 b") < -500);
        // Advisors alone cannot win.
        assert!(eval("4k4/9/9/9/9/9/9/9/4A4/3AK4 w").abs() < 40);
    }

    #[test]
    fn an_empty_cannon_on_the_general_file_is_a_threat() {
        let empty = eval("3akab2/9/9/9/9/4C4/4P4/9/9/3AKAB2 w");
        let aside = eval("3akab2/9/9/9/9/3C5/4P4/9/9/3AKAB2 w");
        assert!(empty > aside + 20, "{empty} vs {aside}");
    }
}
