//! Attacks: which pieces hit a point, and the fast "is this general attacked" test.

use super::lines::Occupancy;
use super::position::{code_of, color_of_code, piece_of_code, Position, EMPTY};
use super::tables::{
    advisor_point, ADVISOR_MOVES, ATTACK_FROM, ELEPHANT_MOVES, GENERAL_MOVES, GENERAL_ZONES,
    HORSE_ATTACKERS, NORTH, RAYS, SOLDIER_MOVES, SOUTH, SQ_BITS,
};
use super::types::{Color, Role, Square};

impl Position {
    /// Pieces of `by` that attack `target` by their movement rules (pins ignored). With
    /// `flying` (use it when `target` holds a general), a general facing `target` along an open
    /// file counts too.
    #[must_use]
    pub fn attackers(&self, target: Square, by: Color, flying: bool) -> Vec<Square> {
        let mut out = Vec::new();
        let t = target.index();
        let b = &self.board;
        for d in 0..4 {
            let len = RAYS.len[t][d] as usize;
            let ray = &RAYS.squares[t][d];
            let mut screens = 0;
            for &s in &ray[..len] {
                let c = b[s as usize];
                if c == EMPTY {
                    continue;
                }
                if color_of_code(c) == by {
                    let role = piece_of_code(c).role;
                    let hit = match screens {
                        0 => {
                            role == Role::Chariot
                                || (role == Role::General
                                    && (flying && (d == NORTH || d == SOUTH)
                                        || is_step(
                                            GENERAL_MOVES.to[s as usize],
                                            GENERAL_MOVES.len[s as usize],
                                            t,
                                        )))
                                || (role == Role::Soldier
                                    && is_step(
                                        SOLDIER_MOVES[by.index()].to[s as usize],
                                        SOLDIER_MOVES[by.index()].len[s as usize],
                                        t,
                                    ))
                        }
                        _ => role == Role::Cannon,
                    };
                    if hit {
                        out.push(Square::from_u8(s));
                    }
                }
                screens += 1;
                if screens == 2 {
                    break;
                }
            }
        }
        for k in 0..HORSE_ATTACKERS.len[t] as usize {
            let (from, leg) = HORSE_ATTACKERS.moves[t][k];
            if b[from as usize] == code_of(by, Role::Horse) && b[leg as usize] == EMPTY {
                out.push(Square::from_u8(from));
            }
        }
        for k in 0..ADVISOR_MOVES.len[t] as usize {
            let s = ADVISOR_MOVES.to[t][k] as usize;
            if b[s] == code_of(by, Role::Advisor) && advisor_point(t) {
                out.push(Square::from_u8(s as u8));
            }
        }
        for k in 0..ELEPHANT_MOVES.len[t] as usize {
            let (s, eye) = ELEPHANT_MOVES.moves[t][k];
            if b[s as usize] == code_of(by, Role::Elephant) && b[eye as usize] == EMPTY {
                out.push(Square::from_u8(s));
            }
        }
        out.sort();
        out.dedup();
        out
    }
}

impl Position {
    /// [`Position::is_check`] right after the move `from` → `to` was made, given that the side
    /// now to move was not attacked before it (true of every legal position: the side not to
    /// move is never in check). The move changed the board on two points only, so a check can
    /// only come along a line through one of them, from a horse that now stands on `to` or
    /// whose leg was `from`; elsewhere the full test is skipped.
    #[inline]
    pub(crate) fn is_check_after(&self, from: usize, to: usize) -> bool {
        let k = self.squares[self.general[self.turn.index()] as usize] as usize;
        // A check is uncovered only from a shielding point, or given by the piece arriving.
        let (shield, arrival) = GENERAL_ZONES[k];
        (shield & SQ_BITS[from]) | (arrival & SQ_BITS[to]) != 0 && self.is_check()
    }
}

#[inline]
pub(crate) fn is_step(to: [u8; 4], len: u8, t: usize) -> bool {
    to[..len as usize].contains(&(t as u8))
}

/// The `taken` argument of [`Position::movers_hit`] when no piece was taken.
pub(crate) const NO_POINT: usize = 90;

impl Position {
    /// Whether a chariot, cannon, horse or soldier of `them` attacks `k` (and, with `facing`,
    /// `them`'s general along an open file).
    ///
    /// `them`'s pieces stand where this position has them, except on `taken` (a point whose
    /// piece was just captured, or [`NO_POINT`]); what blocks lines and legs is `occ`, which
    /// may differ from the position's by a move of the other side. So a move can be tested
    /// without being played: the enemy's pieces are found by mask tests on their own lines
    /// and points, never by reading the board.
    ///
    /// Written out in place at every call: the test runs at nearly every search node (the
    /// check test after a move, the general's steps, the exchange test), and a call with its
    /// saved registers cost about a fifth of it.
    #[inline(always)]
    pub(crate) fn movers_hit(
        &self,
        occ: &Occupancy,
        k: usize,
        them: Color,
        facing: bool,
        taken: usize,
    ) -> bool {
        let base = code_of(them, Role::General) as usize;
        let lines = &self.code_lines;
        let chariots = &lines[code_of(them, Role::Chariot) as usize];
        let cannons = &lines[code_of(them, Role::Cannon) as usize];
        let (kf, kr) = (k % 9, k / 9);
        // The taken point's bit along the rank or the file of `k`, when it is on one (with
        // `NO_POINT`, the file test may set bit 10, which no file has).
        let (taken_r, taken_f) = if taken / 9 == kr {
            (1u16 << (taken % 9), 0)
        } else if taken % 9 == kf {
            (0, 1u16 << (taken / 9))
        } else {
            (0, 0)
        };
        let (rank, file) = occ.lines(k);
        let generals = if facing { lines[base].files[kf] } else { 0 };
        let on_rank = (rank.slide & chariots.ranks[kr]) | (rank.cannon & cannons.ranks[kr]);
        let on_file =
            (file.slide & (chariots.files[kf] | generals)) | (file.cannon & cannons.files[kf]);
        if (on_rank & !taken_r) | (on_file & !taken_f) != 0 {
            return true;
        }
        let taken_bit = if taken < 90 { SQ_BITS[taken] } else { 0 };
        let bits = &self.code_bits;
        let soldiers = bits[code_of(them, Role::Soldier) as usize]
            & ATTACK_FROM.soldier[them.index()][k]
            & !taken_bit;
        if soldiers != 0 {
            return true;
        }
        let horses = bits[code_of(them, Role::Horse) as usize] & ATTACK_FROM.horse[k] & !taken_bit;
        if horses != 0 {
            let ha = &HORSE_ATTACKERS;
            for j in 0..ha.len[k] as usize {
                let (from, leg) = ha.moves[k][j];
                if horses & SQ_BITS[from as usize] != 0 && !occ.has(leg as usize) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the general of `us` on `k` is attacked (the facing general counts), as
    /// [`Position::movers_hit`] sees the board.
    #[inline]
    pub(crate) fn general_hit(&self, occ: &Occupancy, k: usize, us: Color, taken: usize) -> bool {
        self.movers_hit(occ, k, us.other(), true, taken)
    }

    /// Whether any piece of `by` attacks point `t` by its movement rules (pins and the facing
    /// general not counted), as [`Position::movers_hit`] sees the board: the test of an
    /// exchange on `t`.
    pub(crate) fn square_hit(&self, occ: &Occupancy, t: usize, by: Color, taken: usize) -> bool {
        if self.movers_hit(occ, t, by, false, taken) {
            return true;
        }
        let taken_bit = if taken < 90 { SQ_BITS[taken] } else { 0 };
        let bits = &self.code_bits;
        let steppers = (bits[code_of(by, Role::General) as usize] & ATTACK_FROM.general[t])
            | (bits[code_of(by, Role::Advisor) as usize] & ATTACK_FROM.advisor[t]);
        if steppers & !taken_bit != 0 {
            return true;
        }
        let elephants = bits[code_of(by, Role::Elephant) as usize] & !taken_bit;
        elephants != 0
            && (0..ELEPHANT_MOVES.len[t] as usize).any(|k| {
                let (s, eye) = ELEPHANT_MOVES.moves[t][k];
                elephants & SQ_BITS[s as usize] != 0 && !occ.has(eye as usize)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Square;

    /// Every pseudo-legal move of both sides along a game that takes when it can: the attack
    /// tests that read the move's occupancy and the pieces' own masks (without playing the
    /// move) agree with the board walk of [`Position::attackers`] on the position after it.
    #[test]
    fn mask_tests_agree_with_the_board_walk_after_every_move() {
        let mut p =
            Position::from_fen("r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R b")
                .unwrap();
        let mut tested = 0;
        for ply in 0..60 {
            for color in [Color::Red, Color::Black] {
                let q = p.with_turn(color);
                for from in Square::all() {
                    if q.piece_at(from).is_none_or(|x| x.color != color) {
                        continue;
                    }
                    for &m in q.piece_moves(from).iter() {
                        let after = q.after(m);
                        let k = after.general_square(color);
                        let checked = !after.attackers(k, color.other(), true).is_empty();
                        assert_eq!(q.safe_after(m), !checked, "{m} in {q:?}");
                        let mut occ = q.occ;
                        occ.clear(m.from.index());
                        occ.set(m.to.index());
                        let hit = !after.attackers(m.to, color.other(), false).is_empty();
                        let to = m.to.index();
                        assert_eq!(
                            q.square_hit(&occ, to, color.other(), to),
                            hit,
                            "{m} in {q:?}"
                        );
                        tested += 1;
                    }
                }
            }
            let moves = p.legal_moves();
            let Some(&m) = moves
                .iter()
                .find(|m| p.board[m.to.index()] != EMPTY)
                .or_else(|| moves.iter().nth((ply * 7) % moves.len().max(1)))
            else {
                break;
            };
            p.play(m).unwrap();
        }
        assert!(tested > 2000, "{tested}");
    }
}
