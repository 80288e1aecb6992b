//! Attacks: which pieces hit a point, and the fast "is this general attacked" test.

use super::lines::{for_file_bits, for_rank_bits, Occupancy};
use super::position::{code_of, color_of_code, piece_of_code, Position, EMPTY};
use super::tables::{
    advisor_point, ADVISOR_MOVES, ELEPHANT_MOVES, GENERAL_MOVES, HORSE_ATTACKERS, NORTH, RAYS,
    SOLDIER_MOVES, SOUTH,
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
        let (kf, kr) = (k % 9, k / 9);
        let gap = |s: usize| ((s % 9).abs_diff(kf), (s / 9).abs_diff(kr));
        let near = matches!(gap(from), (0, _) | (_, 0) | (1, 1))
            || matches!(gap(to), (0, _) | (_, 0) | (1, 2) | (2, 1));
        near && self.is_check()
    }
}

#[inline]
pub(crate) fn is_step(to: [u8; 4], len: u8, t: usize) -> bool {
    to[..len as usize].contains(&(t as u8))
}

/// Whether the general of `us` on `k` is attacked on board `b` with occupancy `occ` (the
/// facing general counts).
#[inline]
pub(crate) fn general_attacked(b: &[u8; 90], occ: &Occupancy, k: usize, us: Color) -> bool {
    hit_by_movers(b, occ, k, us.other(), true)
}

/// Whether any piece of `by` attacks point `t` on board `b` (occupancy `occ`) by its movement
/// rules (pins and the facing general not counted): the test of an exchange on `t`.
pub(crate) fn square_attacked(b: &[u8; 90], occ: &Occupancy, t: usize, by: Color) -> bool {
    if hit_by_movers(b, occ, t, by, false) {
        return true;
    }
    let general = code_of(by, Role::General);
    let advisor = code_of(by, Role::Advisor);
    let elephant = code_of(by, Role::Elephant);
    (0..GENERAL_MOVES.len[t] as usize).any(|k| b[GENERAL_MOVES.to[t][k] as usize] == general)
        || (0..ADVISOR_MOVES.len[t] as usize).any(|k| b[ADVISOR_MOVES.to[t][k] as usize] == advisor)
        || (0..ELEPHANT_MOVES.len[t] as usize).any(|k| {
            let (s, eye) = ELEPHANT_MOVES.moves[t][k];
            b[s as usize] == elephant && b[eye as usize] == EMPTY
        })
}

/// Whether a chariot, cannon, horse or soldier of `them` attacks `k` on board `b` (and, with
/// `facing`, `them`'s general along an open file).
#[inline]
fn hit_by_movers(b: &[u8; 90], occ: &Occupancy, k: usize, them: Color, facing: bool) -> bool {
    let chariot = code_of(them, Role::Chariot);
    let cannon = code_of(them, Role::Cannon);
    let general = if facing {
        code_of(them, Role::General)
    } else {
        0xFF // never on the board
    };
    let horse = code_of(them, Role::Horse);
    let soldier = code_of(them, Role::Soldier);
    let (kf, kr) = (k % 9, k / 9);
    // The first piece each way along the rank and the file, and the piece behind a screen.
    let (rs, fs) = occ.slides(k);
    let mut line = false;
    for_rank_bits(rs & occ.ranks[kr], kr, |s| line |= b[s] == chariot);
    for_file_bits(fs & occ.files[kf], kf, |s| {
        line |= b[s] == chariot || b[s] == general
    });
    let (rc, fc) = occ.cannon_hits(k);
    for_rank_bits(rc, kr, |s| line |= b[s] == cannon);
    for_file_bits(fc, kf, |s| line |= b[s] == cannon);
    if line {
        return true;
    }
    let ha = &HORSE_ATTACKERS;
    for j in 0..ha.len[k] as usize {
        let (from, leg) = ha.moves[k][j];
        if b[from as usize] == horse && b[leg as usize] == EMPTY {
            return true;
        }
    }
    // Enemy soldiers: one step behind the point (from the enemy's point of view, in front of
    // it) or beside it once they have crossed the river.
    let fwd = them.forward();
    let kf = kf as i8;
    let kr = kr as i8;
    let behind = kr - fwd;
    if (0..10).contains(&behind) && b[(behind * 9 + kf) as usize] == soldier {
        return true;
    }
    if !them.owns_rank(kr as u8) {
        if kf > 0 && b[k - 1] == soldier {
            return true;
        }
        if kf < 8 && b[k + 1] == soldier {
            return true;
        }
    }
    false
}
