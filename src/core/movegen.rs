//! Legal move generation without playing each move to test it.
//!
//! Once per position the generator finds what the side to move may not do: the pieces that
//! shield their general (from a chariot or the other general on a line, from a cannon as one of
//! its two screens, or on the leg of a horse that would otherwise give check), each with the
//! points it may still go to, and the points where a new piece would become the screen of a
//! cannon aimed at the general. A move of any other piece is then legal as generated. Only
//! general moves, and every move when in check, are tested one by one, on the occupancy the
//! move leaves (the attack test finds the enemy's pieces on their own masks, so no board is
//! copied).

use super::attacks::NO_POINT;
use super::lines::{for_file_bits, for_rank_bits};
use super::position::{code_of, color_of_code, piece_of_code, MoveList, Position, EMPTY, OFF};
use super::tables::{
    ADVISOR_MOVES, ATTACK_FROM, EAST, ELEPHANT_MOVES, GENERAL_MOVES, GENERAL_ZONES,
    HORSE_ATTACKERS, HORSE_MOVES, NORTH, RAYS, SOLDIER_MOVES, SOUTH, SQ_BITS, WEST,
};
use super::types::{Color, Move, Role, Square};

/// Every point of the board.
const ALL: u128 = (1u128 << 90) - 1;

/// Generation modes (the `MODE` parameter): every move, captures only, or non-captures only.
pub(crate) const GEN_ALL: u8 = 0;
/// Captures only.
pub(crate) const GEN_CAPTURES: u8 = 1;
/// Non-captures only.
pub(crate) const GEN_QUIETS: u8 = 2;

#[inline]
fn bit(sq: usize) -> u128 {
    SQ_BITS[sq]
}

/// The shields of the general of the side to move and the points no piece may enter: what
/// makes a move of a piece other than the general illegal when the side is not in check.
/// Found once per position and used for every generation stage and legality test there.
#[derive(Clone)]
pub(crate) struct Shields {
    /// Points between the general and a cannon with nothing in between.
    no_entry: u128,
    /// Squares of shielding pieces.
    pinned: u128,
    /// `(square, points it may go to)` of each shielding piece.
    pins: [(u8, u128); 12],
    len: usize,
}

impl Shields {
    /// Nothing shielded yet (the pins array is filled as pins are found; only its first
    /// `len` entries are ever read).
    pub(crate) fn none() -> Shields {
        Shields {
            no_entry: 0,
            pinned: 0,
            pins: [(0, 0); 12],
            len: 0,
        }
    }

    fn pin(&mut self, sq: usize, allowed: u128) {
        if self.pinned & bit(sq) != 0 {
            for p in &mut self.pins[..self.len] {
                if p.0 as usize == sq {
                    p.1 &= allowed;
                }
            }
        } else if self.len < self.pins.len() {
            self.pinned |= bit(sq);
            self.pins[self.len] = (sq as u8, allowed);
            self.len += 1;
        }
    }

    /// Where the piece on `sq` may go: `None` for anywhere (it shields nothing and no point
    /// is closed), else the points.
    #[inline]
    fn allowed(&self, sq: usize) -> Option<u128> {
        if self.len == 0 && self.no_entry == 0 {
            return None;
        }
        let mut a = !self.no_entry & ALL;
        for p in &self.pins[..self.len] {
            if p.0 as usize == sq {
                a &= p.1;
            }
        }
        (a != ALL).then_some(a)
    }
}

/// Cell codes of the pieces of one side that can attack a general.
struct Attackers {
    chariot: u8,
    cannon: u8,
    general: u8,
    horse: u8,
    soldier: u8,
}

impl Attackers {
    #[inline(always)]
    fn of(them: Color) -> Attackers {
        Attackers {
            chariot: code_of(them, Role::Chariot),
            cannon: code_of(them, Role::Cannon),
            general: code_of(them, Role::General),
            horse: code_of(them, Role::Horse),
            soldier: code_of(them, Role::Soldier),
        }
    }
}

/// The points of `k`'s file (for `NORTH` and `SOUTH`, bit = rank) or rank (for `EAST` and
/// `WEST`, bit = file) beyond `k` in the direction `d`, as a line mask.
#[inline(always)]
fn way(d: usize, k: usize) -> u32 {
    let (kf, kr) = (k % 9, k / 9);
    match d {
        NORTH => !((2u32 << kr) - 1),
        SOUTH => (1u32 << kr) - 1,
        EAST => !((2u32 << kf) - 1),
        _ => (1u32 << kf) - 1,
    }
}

impl Position {
    /// The pieces of `them` that act along lines (chariots and cannons, and on the file its
    /// general) on the file and the rank of `k`, as line masks `(file, rank)`: every check
    /// along a line, every shield and every closed point needs one of them beyond it.
    #[inline(always)]
    fn line_pieces(&self, them: Color, k: usize) -> (u32, u32) {
        let lines = &self.code_lines;
        let ch = &lines[code_of(them, Role::Chariot) as usize];
        let cn = &lines[code_of(them, Role::Cannon) as usize];
        let g = &lines[code_of(them, Role::General) as usize];
        let (kf, kr) = (k % 9, k / 9);
        (
            u32::from(ch.files[kf] | cn.files[kf] | g.files[kf]),
            u32::from(ch.ranks[kr] | cn.ranks[kr]),
        )
    }

    /// The shields and closed points of `us`'s general on `k` in the direction `D`, given
    /// the enemy's line pieces on its file and rank (see [`Position::line_pieces`]).
    #[inline(always)]
    fn shields_way<const D: usize>(
        &self,
        k: usize,
        us: Color,
        (enemy_file, enemy_rank): (u32, u32),
        s: &mut Shields,
    ) {
        let b = &self.board;
        let Attackers {
            chariot,
            cannon,
            general,
            ..
        } = Attackers::of(us.other());
        let own = |x: u8| x != EMPTY && color_of_code(x) == us;
        let (kf, kr) = (k % 9, k / 9);
        // The first three pieces this way, from the occupancy bits.
        let way = way(D, k);
        let step_up = D == NORTH || D == EAST;
        let on_file = D <= SOUTH;
        let (all, enemy) = if on_file {
            (u32::from(self.occ.files[kf]), enemy_file)
        } else {
            (u32::from(self.occ.ranks[kr]), enemy_rank)
        };
        if enemy & way == 0 {
            return;
        }
        let mut m = all & way;
        let mut occ = [0usize; 3];
        let mut n = 0;
        while m != 0 && n < 3 {
            let i = if step_up {
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                i
            } else {
                let i = 31 - m.leading_zeros() as usize;
                m &= !(1 << i);
                i
            };
            occ[n] = if on_file { i * 9 + kf } else { kr * 9 + i };
            n += 1;
        }
        if n == 0 {
            return;
        }
        let ray = &RAYS.squares[k][D][..RAYS.len[k][D] as usize];
        let segment = |end: usize| {
            let mut mask = 0u128;
            for &q in ray {
                mask |= bit(q as usize);
                if q as usize == end {
                    break;
                }
            }
            mask
        };
        let s1 = occ[0];
        if b[s1] == cannon {
            // Nothing may come between; the cannon may also be the first screen of another.
            s.no_entry |= segment(s1) & !bit(s1);
        }
        if n < 2 {
            return;
        }
        let s2 = occ[1];
        if own(b[s1]) && (b[s2] == chariot || (b[s2] == general && on_file)) {
            s.pin(s1, segment(s2) & !bit(s1));
        }
        if n == 3 && b[occ[2]] == cannon {
            // Either screen may slide along the line or take the cannon, but not take the
            // other screen (one screen would remain).
            let seg = segment(occ[2]) & !bit(s1) & !bit(s2);
            if own(b[s1]) {
                s.pin(s1, seg);
            }
            if own(b[s2]) {
                s.pin(s2, seg);
            }
        }
    }

    /// The shields of `us`'s general on `k` (the side is not in check), written over `s`.
    #[inline(always)]
    fn shields_into(&self, k: usize, us: Color, s: &mut Shields) {
        let b = &self.board;
        let horse = code_of(us.other(), Role::Horse);
        let own = |x: u8| x != EMPTY && color_of_code(x) == us;
        s.no_entry = 0;
        s.pinned = 0;
        s.len = 0;
        // A way with no enemy line piece beyond the general is passed over unread. The four
        // ways are written out, so that each one's direction is a constant.
        let lines = self.line_pieces(us.other(), k);
        self.shields_way::<NORTH>(k, us, lines, s);
        self.shields_way::<SOUTH>(k, us, lines, s);
        self.shields_way::<EAST>(k, us, lines, s);
        self.shields_way::<WEST>(k, us, lines, s);
        if self.code_bits[horse as usize] & ATTACK_FROM.horse[k] != 0 {
            let ha = &HORSE_ATTACKERS;
            for j in 0..ha.len[k] as usize {
                let (from, leg) = ha.moves[k][j];
                if b[from as usize] == horse && own(b[leg as usize]) {
                    s.pin(leg as usize, bit(from as usize));
                }
            }
        }
    }

    /// Legal moves of the side to move into `list` (all, captures or quiet moves by `MODE`).
    pub(crate) fn gen_legal<const MODE: u8>(&self, list: &mut MoveList) {
        let us = self.turn;
        let k = self.squares[self.general[us.index()] as usize] as usize;
        self.gen_legal_known::<MODE>(self.general_hit(&self.occ, k, us, NO_POINT), list);
    }

    /// The shields of the side to move's general (the side must not be in check).
    #[inline]
    pub(crate) fn shields_of(&self) -> Shields {
        let mut s = Shields::none();
        self.shields_of_into(&mut s);
        s
    }

    /// [`Position::shields_of`], written over `s` (a caller that keeps one [`Shields`] from
    /// node to node neither clears nor copies it).
    #[inline]
    pub(crate) fn shields_of_into(&self, s: &mut Shields) {
        let us = self.turn;
        let k = self.squares[self.general[us.index()] as usize] as usize;
        self.shields_into(k, us, s);
    }

    /// Whether the pseudo-legal move `m` of the side to move, which is not in check, is legal,
    /// given the position's [`Shields`]: the same answer as [`Position::safe_after`].
    #[inline]
    pub(crate) fn legal_shielded(&self, m: Move, shields: &Shields) -> bool {
        let from = m.from.index();
        if from == self.squares[self.general[self.turn.index()] as usize] as usize {
            return self.safe_after(m);
        }
        shields
            .allowed(from)
            .is_none_or(|a| a & bit(m.to.index()) != 0)
    }

    /// [`Position::gen_legal`] when the caller already knows whether the side to move is in
    /// check.
    pub(crate) fn gen_legal_known<const MODE: u8>(&self, in_check: bool, list: &mut MoveList) {
        if in_check {
            self.gen_evasions::<MODE>(list);
        } else {
            self.gen_legal_shielded::<MODE>(&self.shields_of(), list);
        }
    }

    /// Legal captures of the side to move, which is not in check: the same moves in the same
    /// order as [`Position::gen_legal_known`], but generated by the movement rules first, so
    /// that the shields are found (into `shields`, which a caller may keep from node to node)
    /// only when there is a capture to test. Returns whether `shields` now holds the
    /// position's shields (else it is left as it was).
    pub(crate) fn gen_captures_unchecked_side(
        &self,
        list: &mut MoveList,
        shields: &mut Shields,
    ) -> bool {
        let start = list.len();
        let base = self.turn.index() * 16;
        let enemy = self.side_bits(self.turn.other());
        for id in base..base + 16 {
            // A piece with no enemy piece within its steps (a captured one reaches nothing) is
            // passed over.
            if self.reach[id] & enemy != 0 {
                let (s, c) = (self.squares[id], self.kinds[id]);
                self.gen_piece_into::<GEN_CAPTURES>(s as usize, c, None, list);
            }
        }
        if list.len() > start {
            // Every shield and closed point lies on the general's file or rank or on a horse's
            // leg beside it: captures that neither start nor end there (a general's step always
            // ends there) are legal as generated, and the shields are not needed.
            let k = self.squares[self.general[self.turn.index()] as usize] as usize;
            let zone = GENERAL_ZONES[k].0;
            if list.as_slice()[start..]
                .iter()
                .all(|m| (bit(m.from.index()) | bit(m.to.index())) & zone == 0)
            {
                return false;
            }
            self.shields_of_into(shields);
            let mut i = 0;
            list.retain(|m| {
                i += 1;
                i <= start || self.legal_shielded(m, shields)
            });
            return true;
        }
        false
    }

    /// What can answer the checks on `us`'s general on `k`: `(resolve, vacate)`, where a move
    /// of a piece other than the general can be legal only if it goes to a point of `resolve`
    /// (taking a checker, or standing between it and the general or on its horse's leg) or
    /// leaves a point of `vacate` (a cannon's screen). `None` when no checker is found (then
    /// nothing is ruled out). Ruling out is only a shortcut: every remaining move is still
    /// tested.
    fn check_masks(&self, k: usize, us: Color) -> Option<(u128, u128)> {
        let b = &self.board;
        let them = us.other();
        let Attackers {
            chariot,
            cannon,
            general,
            horse,
            soldier,
        } = Attackers::of(them);
        let mut resolve = ALL;
        let mut vacate = 0u128;
        let mut found = false;
        // A way with no enemy line piece beyond the general gives no check and is not walked.
        let (on_file, on_rank) = self.line_pieces(them, k);
        for d in [NORTH, SOUTH, EAST, WEST] {
            let on_line = if d <= SOUTH { on_file } else { on_rank };
            if on_line & way(d, k) == 0 {
                continue;
            }
            let ray = &RAYS.squares[k][d][..RAYS.len[k][d] as usize];
            // The points out to the first and the second piece this way.
            let mut seg = 0u128;
            let mut first = None;
            for &q in ray {
                let q = q as usize;
                seg |= bit(q);
                if b[q] == EMPTY {
                    continue;
                }
                match first {
                    None => {
                        if b[q] == chariot || (b[q] == general && d <= SOUTH) {
                            resolve &= seg;
                            found = true;
                        }
                        first = Some(q);
                    }
                    Some(screen) => {
                        if b[q] == cannon {
                            resolve &= seg;
                            vacate |= bit(screen);
                            found = true;
                        }
                        break;
                    }
                }
            }
        }
        if self.code_bits[horse as usize] & ATTACK_FROM.horse[k] != 0 {
            let ha = &HORSE_ATTACKERS;
            for j in 0..ha.len[k] as usize {
                let (from, leg) = ha.moves[k][j];
                if b[from as usize] == horse && b[leg as usize] == EMPTY {
                    resolve &= bit(from as usize) | bit(leg as usize);
                    found = true;
                }
            }
        }
        let mut soldiers = self.code_bits[soldier as usize] & ATTACK_FROM.soldier[them.index()][k];
        while soldiers != 0 {
            let q = soldiers.trailing_zeros() as usize;
            soldiers &= soldiers - 1;
            resolve &= bit(q);
            found = true;
        }
        found.then_some((resolve, vacate))
    }

    /// Legal moves when in check: the moves that can answer every check, each tested on the
    /// occupancy it leaves.
    fn gen_evasions<const MODE: u8>(&self, list: &mut MoveList) {
        let us = self.turn;
        let k = self.squares[self.general[us.index()] as usize] as usize;
        let mut socc = self.occ;
        let base = us.index() * 16;
        let masks = self.check_masks(k, us);
        let mut pseudo = MoveList::new();
        for id in base..base + 16 {
            let s = self.squares[id];
            if s != OFF {
                let allowed = match masks {
                    Some((resolve, vacate)) if s as usize != k && vacate & bit(s as usize) == 0 => {
                        Some(resolve)
                    }
                    _ => None,
                };
                let c = self.kinds[id];
                // A piece that cannot reach an answering point at all is passed over without
                // generating its moves.
                if allowed.is_some_and(|resolve| self.reach[id] & resolve == 0) {
                    continue;
                }
                self.gen_piece_into::<MODE>(s as usize, c, allowed, &mut pseudo);
            }
        }
        let (kf, kr) = (k % 9, k / 9);
        // Whether a change on `s` can alter what attacks the general: on its file or rank
        // (lines, cannon screens, soldiers), or within two points (horses and their legs).
        let touches = |s: usize| {
            let (df, dr) = ((s % 9).abs_diff(kf), (s / 9).abs_diff(kr));
            df == 0 || dr == 0 || (df <= 2 && dr <= 2)
        };
        for &m in pseudo.iter() {
            let (from, to) = (m.from.index(), m.to.index());
            if from != k && !touches(from) && !touches(to) {
                continue; // the general stays attacked as it is
            }
            let kk = if from == k { to } else { k };
            let was_empty = self.board[to] == EMPTY;
            socc.clear(from);
            socc.set(to);
            let safe = !self.general_hit(&socc, kk, us, to);
            socc.set(from);
            if was_empty {
                socc.clear(to);
            }
            if safe {
                list.push(m);
            }
        }
    }

    /// Legal moves of the side to move, which is not in check, given its [`Shields`].
    pub(crate) fn gen_legal_shielded<const MODE: u8>(
        &self,
        shields: &Shields,
        list: &mut MoveList,
    ) {
        let us = self.turn;
        let k = self.squares[self.general[us.index()] as usize] as usize;
        let mut socc = self.occ;
        let base = us.index() * 16;
        for id in base..base + 16 {
            let s = self.squares[id];
            if s == OFF {
                continue;
            }
            let from = s as usize;
            let c = self.kinds[id];
            if from == k {
                // The general's steps are tested on the occupancy alone: the attack test reads
                // the board only where the occupancy says a piece stands, and never at the
                // general's old point (orthogonally next to the new one: no horse leg there,
                // and no soldier) or at the new one.
                socc.clear(k);
                let fs = Square::from_u8(k as u8);
                for j in 0..GENERAL_MOVES.len[k] as usize {
                    let to = GENERAL_MOVES.to[k][j] as usize;
                    let x = self.board[to];
                    let skip = if x == EMPTY {
                        MODE == GEN_CAPTURES
                    } else {
                        color_of_code(x) == us || MODE == GEN_QUIETS
                    };
                    if skip {
                        continue;
                    }
                    socc.set(to);
                    if !self.general_hit(&socc, to, us, to) {
                        list.push(Move::new(fs, Square::from_u8(to as u8)));
                    }
                    if x == EMPTY {
                        socc.clear(to);
                    }
                }
                socc.set(k);
            } else {
                self.gen_piece_into::<MODE>(from, c, shields.allowed(from), list);
            }
        }
    }

    /// Number of legal moves of the side to move.
    pub(crate) fn count_legal(&self) -> usize {
        let mut list = MoveList::new();
        self.gen_legal::<GEN_ALL>(&mut list);
        list.len()
    }

    /// Moves of the piece with cell code `c` on `from` by its movement rules, to points in
    /// `allowed` (all, captures or quiet moves by `MODE`).
    #[inline(always)]
    pub(crate) fn gen_piece_into<const MODE: u8>(
        &self,
        from: usize,
        c: u8,
        allowed: Option<u128>,
        list: &mut MoveList,
    ) {
        let (restricted, mask) = match allowed {
            Some(m) => (true, m),
            None => (false, 0),
        };
        let b = &self.board;
        let us = color_of_code(c);
        // Enemy codes are 8..=14 for Red, 1..=7 for Black.
        let enemy_lo: u8 = if us == Color::Red { 8 } else { 1 };
        let enemy = |x: u8| x.wrapping_sub(enemy_lo) < 7;
        let from_sq = Square::from_u8(from as u8);
        // A move to a point the caller allows.
        let mut push = |to: usize| {
            if !restricted || mask & bit(to) != 0 {
                list.push(Move::new(from_sq, Square::from_u8(to as u8)));
            }
        };
        // A step to a point whose content the mode wants.
        let mut steps = |to: u8| {
            let x = b[to as usize];
            let wanted = if x == EMPTY {
                MODE != GEN_CAPTURES
            } else {
                enemy(x) && MODE != GEN_QUIETS
            };
            if wanted {
                push(to as usize);
            }
        };
        match piece_of_code(c).role {
            Role::Chariot => {
                let (f, r) = (from % 9, from / 9);
                let (rs, fs) = self.occ.slides(from);
                // The slide's points minus our own pieces (captures: also minus the empty ones;
                // quiet moves: the empty ones alone).
                let (own_r, own_f) = self.side_lines(us.index(), r, f);
                let (keep_r, keep_f) = match MODE {
                    GEN_CAPTURES => (self.occ.ranks[r] & !own_r, self.occ.files[f] & !own_f),
                    GEN_QUIETS => (!self.occ.ranks[r], !self.occ.files[f]),
                    _ => (!own_r, !own_f),
                };
                for_rank_bits(rs & keep_r, r, &mut push);
                for_file_bits(fs & keep_f, f, &mut push);
            }
            Role::Cannon => {
                let (f, r) = (from % 9, from / 9);
                if MODE != GEN_CAPTURES {
                    let (rs, fs) = self.occ.slides(from);
                    for_rank_bits(rs & !self.occ.ranks[r], r, &mut push);
                    for_file_bits(fs & !self.occ.files[f], f, &mut push);
                }
                if MODE != GEN_QUIETS {
                    // The pieces it hits that are not our own.
                    let (rc, fc) = self.occ.cannon_hits(from);
                    let (own_r, own_f) = self.side_lines(us.index(), r, f);
                    for_rank_bits(rc & !own_r, r, &mut push);
                    for_file_bits(fc & !own_f, f, &mut push);
                }
            }
            Role::Horse => {
                for j in 0..HORSE_MOVES.len[from] as usize {
                    let (to, leg) = HORSE_MOVES.moves[from][j];
                    if b[leg as usize] == EMPTY {
                        steps(to);
                    }
                }
            }
            Role::Elephant => {
                for j in 0..ELEPHANT_MOVES.len[from] as usize {
                    let (to, eye) = ELEPHANT_MOVES.moves[from][j];
                    if b[eye as usize] == EMPTY {
                        steps(to);
                    }
                }
            }
            Role::Advisor => {
                for j in 0..ADVISOR_MOVES.len[from] as usize {
                    steps(ADVISOR_MOVES.to[from][j]);
                }
            }
            Role::General => {
                for j in 0..GENERAL_MOVES.len[from] as usize {
                    steps(GENERAL_MOVES.to[from][j]);
                }
            }
            Role::Soldier => {
                let t = &SOLDIER_MOVES[us.index()];
                for j in 0..t.len[from] as usize {
                    steps(t.to[from][j]);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The old way: every pseudo-legal move played on a copy and tested.
    fn by_testing(p: &Position, captures: bool) -> Vec<Move> {
        let mut pseudo = MoveList::new();
        for (sq, piece, _) in p.pieces() {
            if piece.color == p.turn() {
                p.gen_piece_into::<GEN_ALL>(
                    sq.index(),
                    code_of(piece.color, piece.role),
                    None,
                    &mut pseudo,
                );
            }
        }
        let mut v: Vec<Move> = pseudo
            .iter()
            .copied()
            .filter(|&m| p.safe_after(m) && (!captures || p.piece_at(m.to).is_some()))
            .collect();
        v.sort();
        v
    }

    fn by_generator(p: &Position, captures: bool) -> Vec<Move> {
        let mut list = MoveList::new();
        if captures {
            p.gen_legal::<GEN_CAPTURES>(&mut list);
        } else {
            p.gen_legal::<GEN_ALL>(&mut list);
            // Captures then quiet moves make up the same set.
            let mut parts = MoveList::new();
            p.gen_legal::<GEN_CAPTURES>(&mut parts);
            p.gen_legal::<GEN_QUIETS>(&mut parts);
            let mut a: Vec<Move> = parts.iter().copied().collect();
            let mut b: Vec<Move> = list.iter().copied().collect();
            a.sort();
            b.sort();
            assert_eq!(a, b, "{}", p.to_fen());
        }
        let mut v: Vec<Move> = list.iter().copied().collect();
        v.sort();
        v
    }

    #[test]
    fn shields_agree_with_testing_every_move() {
        // Pins by chariot, flying general, cannon (both screens), horse legs, and points that
        // would screen a cannon; plus positions in check.
        for fen in [
            "3k5/9/9/9/4r4/9/4R4/9/4A4/4K4 w",
            "4k4/9/9/9/9/9/4N4/9/9/4K4 w",
            "4k4/9/4c4/9/4P4/9/4N4/9/9/4K4 w",
            "4k4/9/4c4/9/4p4/9/4N4/9/9/4K4 w",
            "rnbakabnr/9/4c2c1/p1p3p1p/4p4/4P4/P1P3P1P/1C5C1/R8/1NBAKABNR w",
            "4k4/9/4c4/9/4R4/4p4/9/9/9/4K4 w",
            "rCbCkabnr/9/3c3c1/2p1p1p1p/p8/9/P1P1P1P1P/9/9/RNBAKABNR b",
            "4k4/9/9/9/9/4c4/9/9/9/4K4 w",
            "3k5/9/9/9/9/9/9/3n5/4A4/4K4 w",
            "3k5/9/9/9/9/9/9/3n1n3/4A4/4K4 w",
            "3k5/9/9/9/9/9/9/3n5/3R5/4K4 w",
            "3k5/9/9/9/9/9/9/9/3r5/4K4 w",
            "r3k4/9/9/9/9/9/9/9/R3C3c/4K4 w",
            "4k4/4c4/9/9/9/9/4R4/9/9/3K5 w",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "r1ea1a3/4kh3/2h1e4/pHp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2EAKAE2 w",
            "1ceak4/9/h2a5/2p1p3p/5cp2/2h2H3/6PCP/3AE4/2C6/3A1K1H1 w",
            "5a3/3k5/3aR4/9/5r3/5h3/9/3A1A3/5K3/2EC2E2 w",
            "CRH1k1e2/3ca4/4ea3/9/2hr5/9/9/4E4/4A4/4KA3 w",
            "C1hHk4/9/9/9/9/9/h1pp5/E3C4/9/3A1K3 w",
            "4ka3/4a4/9/9/4H4/p8/9/4C3c/7h1/2EK5 w",
            "1C2ka3/9/C1Hae1h2/p3p3p/6p2/9/P3P3P/3AE4/3p2c2/c1EAK4 w",
            "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w",
        ] {
            let p = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            for side in [Color::Red, Color::Black] {
                let q = p.with_turn(side);
                if q.in_check_color(side.other()) {
                    continue; // not a position the side could have to move in
                }
                for captures in [false, true] {
                    assert_eq!(
                        by_generator(&q, captures),
                        by_testing(&q, captures),
                        "{fen} {side:?} {captures}"
                    );
                }
                let legal = by_testing(&q, false);
                for from in Square::all() {
                    for to in Square::all() {
                        let m = Move::new(from, to);
                        assert_eq!(
                            q.is_legal_known(m, q.is_check()),
                            legal.contains(&m),
                            "{m} in {fen} {side:?}"
                        );
                    }
                }
            }
        }
    }

    /// Every node of a small tree: the generator agrees with testing every move.
    fn walk(p: &mut Position, depth: u32) {
        assert_eq!(
            by_generator(p, false),
            by_testing(p, false),
            "{}",
            p.to_fen()
        );
        if !p.is_check() {
            // The captures found before the shields: the same list in the same order.
            let (mut eager, mut late) = (MoveList::new(), MoveList::new());
            p.gen_legal_known::<GEN_CAPTURES>(false, &mut eager);
            p.gen_captures_unchecked_side(&mut late, &mut Shields::none());
            assert_eq!(eager.as_slice(), late.as_slice(), "{}", p.to_fen());
        }
        if depth == 0 {
            return;
        }
        if depth >= 1 {
            // Legality of every from-to pair, tested without generating, agrees too.
            let legal = p.legal_moves();
            for from in Square::all() {
                for to in Square::all() {
                    let m = Move::new(from, to);
                    assert_eq!(p.is_legal(m), legal.contains(m), "{m} in {}", p.to_fen());
                    assert_eq!(
                        p.is_legal_known(m, p.is_check()),
                        legal.contains(m),
                        "{m} in {}",
                        p.to_fen()
                    );
                }
            }
        }
        for m in by_testing(p, false) {
            let u = p.make(m);
            assert_eq!(
                p.is_check_after(m.from.index(), m.to.index()),
                p.is_check(),
                "{m} in {}",
                p.to_fen()
            );
            walk(p, depth - 1);
            p.unmake(m, u);
        }
    }

    #[test]
    fn the_generator_agrees_over_whole_trees() {
        for fen in [
            "rnbakabnr/9/4c2c1/p1p3p1p/4p4/4P4/P1P3P1P/1C5C1/R8/1NBAKABNR w",
            "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w",
            "r1ea1a3/4kh3/2h1e4/pHp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2EAKAE2 w",
            "1ceak4/9/h2a5/2p1p3p/5cp2/2h2H3/6PCP/3AE4/2C6/3A1K1H1 w",
            "2e1ka3/9/e3H4/4h4/9/9/9/4C4/2p6/2EK5 w",
        ] {
            walk(&mut Position::from_fen(fen).unwrap(), 2);
        }
    }
}
