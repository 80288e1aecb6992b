//! Legal move generation without playing each move to test it.
//!
//! Once per position the generator finds what the side to move may not do: the pieces that
//! shield their general (from a chariot or the other general on a line, from a cannon as one of
//! its two screens, or on the leg of a horse that would otherwise give check), each with the
//! points it may still go to, and the points where a new piece would become the screen of a
//! cannon aimed at the general. A move of any other piece is then legal as generated. Only
//! general moves, and every move when in check, are tried on a scratch board.

use super::attacks::general_attacked;
use super::position::{code_of, color_of_code, piece_of_code, MoveList, Position, EMPTY, OFF};
use super::tables::{
    ADVISOR_MOVES, ELEPHANT_MOVES, GENERAL_MOVES, HORSE_ATTACKERS, HORSE_MOVES, RAYS,
    SOLDIER_MOVES, SOUTH,
};
use super::types::{Color, Move, Role, Square};

/// Every point of the board.
const ALL: u128 = (1u128 << 90) - 1;

#[inline]
const fn bit(sq: usize) -> u128 {
    1u128 << sq
}

/// The shields of the general of the side to move and the points no piece may enter.
struct Shields {
    /// Points between the general and a cannon with nothing in between.
    no_entry: u128,
    /// Squares of shielding pieces.
    pinned: u128,
    /// `(square, points it may go to)` of each shielding piece.
    pins: [(u8, u128); 12],
    len: usize,
}

impl Shields {
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

    /// Where the piece on `sq` may go (every point unless it shields).
    #[inline]
    fn allowed(&self, sq: usize) -> u128 {
        let mut a = !self.no_entry & ALL;
        if self.pinned & bit(sq) != 0 {
            for p in &self.pins[..self.len] {
                if p.0 as usize == sq {
                    a &= p.1;
                }
            }
        }
        a
    }
}

impl Position {
    /// The shields of `us`'s general on `k` (the side is not in check).
    fn shields(&self, k: usize, us: Color) -> Shields {
        let b = &self.board;
        let them = us.other();
        let chariot = code_of(them, Role::Chariot);
        let cannon = code_of(them, Role::Cannon);
        let general = code_of(them, Role::General);
        let horse = code_of(them, Role::Horse);
        let own = |x: u8| x != EMPTY && color_of_code(x) == us;
        let mut s = Shields {
            no_entry: 0,
            pinned: 0,
            pins: [(0, 0); 12],
            len: 0,
        };
        for d in 0..4 {
            let len = RAYS.len[k][d] as usize;
            let ray = &RAYS.squares[k][d][..len];
            let mut occ = [0usize; 3];
            let mut n = 0;
            let mut i = 0;
            while i < len && n < 3 {
                if b[ray[i] as usize] != EMPTY {
                    occ[n] = i;
                    n += 1;
                }
                i += 1;
            }
            if n == 0 {
                continue;
            }
            let segment = |end: usize| ray[..=end].iter().fold(0u128, |m, &q| m | bit(q as usize));
            let s1 = ray[occ[0]] as usize;
            if b[s1] == cannon {
                // Nothing may come between; the cannon may also be the first screen of another.
                s.no_entry |= segment(occ[0]) & !bit(s1);
            }
            if n < 2 {
                continue;
            }
            let s2 = ray[occ[1]] as usize;
            if own(b[s1]) && (b[s2] == chariot || (b[s2] == general && d <= SOUTH)) {
                s.pin(s1, segment(occ[1]) & !bit(s1));
            }
            if n == 3 && b[ray[occ[2]] as usize] == cannon {
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
        let ha = &HORSE_ATTACKERS;
        for j in 0..ha.len[k] as usize {
            let (from, leg) = ha.moves[k][j];
            if b[from as usize] == horse && own(b[leg as usize]) {
                s.pin(leg as usize, bit(from as usize));
            }
        }
        s
    }

    /// Legal moves of the side to move into `list` (captures only with `CAPTURES`).
    pub(crate) fn gen_legal<const CAPTURES: bool>(&self, list: &mut MoveList) {
        let us = self.turn;
        let k = self.squares[self.general[us.index()] as usize] as usize;
        let mut scratch = self.board;
        let base = us.index() * 16;
        if general_attacked(&self.board, k, us) {
            // In check: generate everything and try each move on the scratch board.
            let mut pseudo = MoveList::new();
            for id in base..base + 16 {
                let s = self.squares[id];
                if s != OFF {
                    self.gen_piece_into::<CAPTURES>(s as usize, self.kinds[id], ALL, &mut pseudo);
                }
            }
            for &m in pseudo.iter() {
                let (from, to) = (m.from.index(), m.to.index());
                let kk = if from == k { to } else { k };
                let saved = scratch[to];
                scratch[to] = scratch[from];
                scratch[from] = EMPTY;
                let safe = !general_attacked(&scratch, kk, us);
                scratch[from] = scratch[to];
                scratch[to] = saved;
                if safe {
                    list.push(m);
                }
            }
            return;
        }
        let shields = self.shields(k, us);
        for id in base..base + 16 {
            let s = self.squares[id];
            if s == OFF {
                continue;
            }
            let from = s as usize;
            let c = self.kinds[id];
            if from == k {
                let gen = scratch[k];
                scratch[k] = EMPTY;
                let fs = Square::from_u8(k as u8);
                for j in 0..GENERAL_MOVES.len[k] as usize {
                    let to = GENERAL_MOVES.to[k][j] as usize;
                    let x = scratch[to];
                    if (x != EMPTY && color_of_code(x) == us) || (CAPTURES && x == EMPTY) {
                        continue;
                    }
                    scratch[to] = gen;
                    if !general_attacked(&scratch, to, us) {
                        list.push(Move::new(fs, Square::from_u8(to as u8)));
                    }
                    scratch[to] = x;
                }
                scratch[k] = gen;
            } else {
                self.gen_piece_into::<CAPTURES>(from, c, shields.allowed(from), list);
            }
        }
    }

    /// Number of legal moves of the side to move.
    pub(crate) fn count_legal(&self) -> usize {
        let mut list = MoveList::new();
        self.gen_legal::<false>(&mut list);
        list.len()
    }

    /// Moves of the piece with cell code `c` on `from` by its movement rules, to points in
    /// `allowed` (captures only with `CAPTURES`).
    #[inline]
    pub(crate) fn gen_piece_into<const CAPTURES: bool>(
        &self,
        from: usize,
        c: u8,
        allowed: u128,
        list: &mut MoveList,
    ) {
        let b = &self.board;
        let us = color_of_code(c);
        // Enemy codes are 8..=14 for Red, 1..=7 for Black.
        let enemy_lo: u8 = if us == Color::Red { 8 } else { 1 };
        let enemy = |x: u8| x.wrapping_sub(enemy_lo) < 7;
        let fs = Square::from_u8(from as u8);
        let mut add = |to: u8| {
            if allowed & bit(to as usize) != 0 {
                list.push(Move::new(fs, Square::from_u8(to)));
            }
        };
        let mut steps = |to: u8| {
            let x = b[to as usize];
            if (x == EMPTY && !CAPTURES) || enemy(x) {
                add(to);
            }
        };
        match piece_of_code(c).role {
            Role::Chariot => {
                for d in 0..4 {
                    let len = RAYS.len[from][d] as usize;
                    for &s in &RAYS.squares[from][d][..len] {
                        let x = b[s as usize];
                        if x == EMPTY {
                            if !CAPTURES {
                                steps(s);
                            }
                        } else {
                            if enemy(x) {
                                steps(s);
                            }
                            break;
                        }
                    }
                }
            }
            Role::Cannon => {
                for d in 0..4 {
                    let len = RAYS.len[from][d] as usize;
                    let ray = &RAYS.squares[from][d][..len];
                    let mut i = 0;
                    while i < len && b[ray[i] as usize] == EMPTY {
                        if !CAPTURES {
                            steps(ray[i]);
                        }
                        i += 1;
                    }
                    i += 1; // the screen
                    while i < len {
                        let x = b[ray[i] as usize];
                        if x != EMPTY {
                            if enemy(x) {
                                steps(ray[i]);
                            }
                            break;
                        }
                        i += 1;
                    }
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
                p.gen_piece_into::<false>(
                    sq.index(),
                    code_of(piece.color, piece.role),
                    ALL,
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
            p.gen_legal::<true>(&mut list);
        } else {
            p.gen_legal::<false>(&mut list);
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
        if depth == 0 {
            return;
        }
        for m in by_testing(p, false) {
            let u = p.make(m);
            walk(p, depth - 1);
            p.unmake(m, u);
        }
    }

    #[test]
    fn the_generator_agrees_over_whole_trees() {
        for fen in [
            "rnbakabnr/9/4c2c1/p1p3p1p/4p4/4P4/P1P3P1P/1C5C1/R8/1NBAKABNR w",
            "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w",
        ] {
            walk(&mut Position::from_fen(fen).unwrap(), 2);
        }
    }
}
