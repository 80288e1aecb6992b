//! Why a move is illegal, in terms a player can act on (which rule, which point blocks it).

use std::fmt;

use super::position::{color_of_code, piece_of_code, Position, EMPTY};
use super::tables::{
    advisor_point, ADVISOR_MOVES, ELEPHANT_MOVES, GENERAL_MOVES, HORSE_MOVES, SOLDIER_MOVES,
};
use super::types::{Color, Move, Piece, Role, Square};

/// A move that cannot be played, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move tried.
    pub mv: Move,
    /// The piece on its from-point, if any.
    pub piece: Option<Piece>,
    /// The rule it breaks.
    pub reason: IllegalReason,
}

/// The rule an illegal move breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalReason {
    /// From and to are the same point.
    SameSquare,
    /// No piece on the from-point.
    NoPiece,
    /// The piece belongs to the side not to move.
    NotYourPiece,
    /// The target holds one of the mover's own pieces.
    OwnPieceOnTarget {
        /// That piece.
        target: Piece,
    },
    /// Generals and advisors stay inside their palace.
    LeavesPalace,
    /// A general moves one point orthogonally.
    GeneralStep,
    /// An advisor moves one point diagonally along the palace lines.
    AdvisorStep,
    /// Elephants never cross the river.
    ElephantCrossesRiver,
    /// An elephant moves exactly two points diagonally.
    ElephantStep,
    /// The elephant's eye (the midpoint) is occupied.
    ElephantEyeBlocked {
        /// The blocking point.
        eye: Square,
    },
    /// A horse moves one point orthogonally then one diagonally outward.
    HorseStep,
    /// The horse's leg (the first orthogonal point) is occupied.
    HorseLegBlocked {
        /// The blocking point.
        leg: Square,
    },
    /// Chariots and cannons move along a file or rank.
    NotStraight,
    /// A piece stands in the way.
    PathBlocked {
        /// The first blocking point.
        at: Square,
    },
    /// A cannon captures only by jumping exactly one piece; there were `screens` between.
    CannonScreen {
        /// Pieces between cannon and target.
        screens: usize,
    },
    /// Soldiers never move backward.
    SoldierBackward,
    /// Before crossing the river a soldier only steps forward.
    SoldierSidewaysBeforeRiver,
    /// A soldier moves one point at a time.
    SoldierStep,
    /// After the move the mover's general would be attacked by the piece on `by`.
    LeavesGeneralInCheck {
        /// The attacker.
        by: Square,
        /// Its kind.
        attacker: Piece,
    },
    /// After the move the two generals would face each other on an open file.
    GeneralsFace,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self
            .piece
            .map_or_else(|| "piece".to_string(), |p| p.role.name().to_string());
        let m = self.mv;
        match &self.reason {
            IllegalReason::SameSquare => write!(f, "{m}: the move must change point"),
            IllegalReason::NoPiece => write!(f, "{m}: there is no piece on {}", m.from),
            IllegalReason::NotYourPiece => {
                write!(f, "{m}: the {name} on {} belongs to your opponent", m.from)
            }
            IllegalReason::OwnPieceOnTarget { target } => write!(
                f,
                "{m}: {} is occupied by your own {}",
                m.to,
                target.role.name()
            ),
            IllegalReason::LeavesPalace => {
                write!(f, "{m}: the {name} may not leave the palace")
            }
            IllegalReason::GeneralStep => write!(
                f,
                "{m}: the general moves one point along a line, inside the palace"
            ),
            IllegalReason::AdvisorStep => write!(
                f,
                "{m}: the advisor moves one point diagonally along the palace lines"
            ),
            IllegalReason::ElephantCrossesRiver => {
                write!(f, "{m}: the elephant may not cross the river")
            }
            IllegalReason::ElephantStep => {
                write!(f, "{m}: the elephant moves exactly two points diagonally")
            }
            IllegalReason::ElephantEyeBlocked { eye } => {
                write!(f, "{m}: the elephant's eye is blocked at {eye}")
            }
            IllegalReason::HorseStep => write!(
                f,
                "{m}: the horse moves one point straight then one diagonally outward"
            ),
            IllegalReason::HorseLegBlocked { leg } => {
                write!(f, "{m}: the horse's leg is blocked at {leg}")
            }
            IllegalReason::NotStraight => {
                write!(f, "{m}: the {name} moves along a file or a rank")
            }
            IllegalReason::PathBlocked { at } => {
                write!(f, "{m}: the path is blocked at {at}")
            }
            IllegalReason::CannonScreen { screens: 0 } => write!(
                f,
                "{m}: a cannon captures by jumping exactly one piece; there is no piece in between"
            ),
            IllegalReason::CannonScreen { screens } => write!(
                f,
                "{m}: a cannon captures by jumping exactly one piece; there are {screens} in between"
            ),
            IllegalReason::SoldierBackward => write!(f, "{m}: a soldier never moves backward"),
            IllegalReason::SoldierSidewaysBeforeRiver => write!(
                f,
                "{m}: a soldier moves sideways only after crossing the river"
            ),
            IllegalReason::SoldierStep => write!(f, "{m}: a soldier moves one point at a time"),
            IllegalReason::LeavesGeneralInCheck { by, attacker } => write!(
                f,
                "{m}: it would leave your general in check from the {} on {by}",
                attacker.role.name()
            ),
            IllegalReason::GeneralsFace => {
                write!(f, "{m}: the two generals would face each other")
            }
        }
    }
}

impl std::error::Error for IllegalMove {}

fn between(a: Square, b: Square) -> Option<Vec<Square>> {
    let (af, ar, bf, br) = (
        a.file() as i8,
        a.rank() as i8,
        b.file() as i8,
        b.rank() as i8,
    );
    if af != bf && ar != br {
        return None;
    }
    let (df, dr) = ((bf - af).signum(), (br - ar).signum());
    let mut out = Vec::new();
    let mut cur = a.offset(df, dr)?;
    while cur != b {
        out.push(cur);
        cur = cur.offset(df, dr)?;
    }
    Some(out)
}

impl Position {
    /// `Ok` when `m` is legal for the side to move, otherwise the precise reason.
    ///
    /// # Errors
    /// [`IllegalMove`] naming the rule broken and the blocking point where there is one.
    pub fn explain_illegal(&self, m: Move) -> Result<(), IllegalMove> {
        let piece = self.piece_at(m.from);
        let fail = |reason| {
            Err(IllegalMove {
                mv: m,
                piece,
                reason,
            })
        };
        if m.from == m.to {
            return fail(IllegalReason::SameSquare);
        }
        let Some(p) = piece else {
            return fail(IllegalReason::NoPiece);
        };
        if p.color != self.turn() {
            return fail(IllegalReason::NotYourPiece);
        }
        let target = self.piece_at(m.to);
        if let Some(t) = target.filter(|t| t.color == p.color) {
            return fail(IllegalReason::OwnPieceOnTarget { target: t });
        }
        let df = m.to.file() as i8 - m.from.file() as i8;
        let dr = m.to.rank() as i8 - m.from.rank() as i8;
        let occupied = |s: Square| self.piece_at(s).is_some();
        match p.role {
            Role::General => {
                if df.abs() + dr.abs() != 1 {
                    return fail(IllegalReason::GeneralStep);
                }
                if !m.to.in_palace_of(p.color) {
                    return fail(IllegalReason::LeavesPalace);
                }
            }
            Role::Advisor => {
                if df.abs() != 1 || dr.abs() != 1 {
                    return fail(IllegalReason::AdvisorStep);
                }
                if !m.to.in_palace_of(p.color) {
                    return fail(IllegalReason::LeavesPalace);
                }
                if !advisor_point(m.to.index()) {
                    return fail(IllegalReason::AdvisorStep);
                }
            }
            Role::Elephant => {
                if df.abs() != 2 || dr.abs() != 2 {
                    return fail(IllegalReason::ElephantStep);
                }
                if !p.color.owns_rank(m.to.rank()) {
                    return fail(IllegalReason::ElephantCrossesRiver);
                }
                if let Some(eye) = m.from.offset(df / 2, dr / 2).filter(|&e| occupied(e)) {
                    return fail(IllegalReason::ElephantEyeBlocked { eye });
                }
            }
            Role::Horse => {
                let leg = match (df.abs(), dr.abs()) {
                    (1, 2) => m.from.offset(0, dr / 2),
                    (2, 1) => m.from.offset(df / 2, 0),
                    _ => return fail(IllegalReason::HorseStep),
                };
                if let Some(leg) = leg.filter(|&l| occupied(l)) {
                    return fail(IllegalReason::HorseLegBlocked { leg });
                }
            }
            Role::Chariot | Role::Cannon => {
                let Some(path) = between(m.from, m.to) else {
                    return fail(IllegalReason::NotStraight);
                };
                let blockers: Vec<Square> = path.into_iter().filter(|&s| occupied(s)).collect();
                let capture = target.is_some();
                if p.role == Role::Cannon && capture {
                    if blockers.len() != 1 {
                        return fail(IllegalReason::CannonScreen {
                            screens: blockers.len(),
                        });
                    }
                } else if let Some(&at) = blockers.first() {
                    return fail(IllegalReason::PathBlocked { at });
                }
            }
            Role::Soldier => {
                let fwd = p.color.forward();
                if dr == -fwd && df == 0 {
                    return fail(IllegalReason::SoldierBackward);
                }
                if df.abs() + dr.abs() != 1 {
                    return fail(IllegalReason::SoldierStep);
                }
                if dr == 0 && p.color.owns_rank(m.from.rank()) {
                    return fail(IllegalReason::SoldierSidewaysBeforeRiver);
                }
            }
        }
        if !self.safe_after(m) {
            let after = self.after(m);
            let us = p.color;
            let k = after.general_square(us);
            let them = us.other();
            let attackers = after.attackers(k, them, true);
            let real = attackers
                .iter()
                .copied()
                .find(|&s| after.piece_at(s).is_some_and(|a| a.role != Role::General));
            return match real {
                Some(by) => fail(IllegalReason::LeavesGeneralInCheck {
                    by,
                    attacker: after
                        .piece_at(by)
                        .unwrap_or(Piece::new(them, Role::Chariot)),
                }),
                None => fail(IllegalReason::GeneralsFace),
            };
        }
        Ok(())
    }
}

impl Position {
    /// Whether `m` moves a piece of the side to move by its movement rules onto an empty point
    /// or an enemy piece (self-check not tested): the same answer as finding `m` among the
    /// piece's generated moves, without generating them.
    pub(crate) fn is_pseudo_legal(&self, m: Move) -> bool {
        let (from, to) = (m.from.index(), m.to.index());
        let c = self.board[from];
        let us = self.turn;
        if c == EMPTY || color_of_code(c) != us {
            return false;
        }
        let x = self.board[to];
        if x != EMPTY && color_of_code(x) == us {
            return false;
        }
        let on_line = |(rank_mask, file_mask): (u16, u16)| {
            if from / 9 == to / 9 {
                rank_mask & (1 << (to % 9)) != 0
            } else if from % 9 == to % 9 {
                file_mask & (1 << (to / 9)) != 0
            } else {
                false
            }
        };
        match piece_of_code(c).role {
            Role::Chariot => on_line(self.occ.slides(from)),
            Role::Cannon if x == EMPTY => on_line(self.occ.slides(from)),
            Role::Cannon => on_line(self.occ.cannon_hits(from)),
            Role::Horse => HORSE_MOVES.moves[from][..HORSE_MOVES.len[from] as usize]
                .iter()
                .any(|&(t, leg)| t as usize == to && self.board[leg as usize] == EMPTY),
            Role::Elephant => ELEPHANT_MOVES.moves[from][..ELEPHANT_MOVES.len[from] as usize]
                .iter()
                .any(|&(t, eye)| t as usize == to && self.board[eye as usize] == EMPTY),
            Role::Advisor => {
                ADVISOR_MOVES.to[from][..ADVISOR_MOVES.len[from] as usize].contains(&(to as u8))
            }
            Role::General => {
                GENERAL_MOVES.to[from][..GENERAL_MOVES.len[from] as usize].contains(&(to as u8))
            }
            Role::Soldier => {
                let t = &SOLDIER_MOVES[us.index()];
                t.to[from][..t.len[from] as usize].contains(&(to as u8))
            }
        }
    }

    /// [`Position::is_legal`] when the caller knows whether the side to move is in check.
    /// Out of check, a move of a piece other than the general can only expose its own general
    /// by leaving a point on the general's lines or a horse leg next to it, or by coming
    /// between the general and a cannon; any other such move is legal as soon as it follows
    /// the movement rules.
    #[inline]
    pub(crate) fn is_legal_known(&self, m: Move, in_check: bool) -> bool {
        if !self.is_pseudo_legal(m) {
            return false;
        }
        let k = self.squares[self.general[self.turn.index()] as usize] as usize;
        let (from, to) = (m.from.index(), m.to.index());
        if !in_check && from != k {
            let (kf, kr) = (k % 9, k / 9);
            let gap = |s: usize| ((s % 9).abs_diff(kf), (s / 9).abs_diff(kr));
            let exposes =
                matches!(gap(from), (0, _) | (_, 0) | (1, 1)) || matches!(gap(to), (0, _) | (_, 0));
            if !exposes {
                return true;
            }
        }
        self.safe_after(m)
    }
}

/// Convenience: which side a soldier on `sq` has crossed into, for callers outside the core.
#[must_use]
pub fn soldier_crossed(color: Color, sq: Square) -> bool {
    !color.owns_rank(sq.rank())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn why(fen: &str, mv: &str) -> String {
        let p = Position::from_fen(fen).unwrap();
        p.explain_illegal(Move::parse_iccs(mv).unwrap())
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn every_legal_move_is_explained_as_legal_and_others_are_not() {
        let p = Position::startpos();
        let legal = p.legal_moves();
        for from in Square::all() {
            for to in Square::all() {
                let m = Move::new(from, to);
                assert_eq!(p.explain_illegal(m).is_ok(), legal.contains(m), "{m}");
            }
        }
    }

    #[test]
    fn reasons_name_the_blocking_point() {
        let start = super::super::fen::START_FEN;
        assert_eq!(why(start, "b0d1"), "b0d1: the horse's leg is blocked at c0");
        assert!(why(start, "b0d2").contains("the horse moves one point straight"));
        assert!(why(start, "c0e4").contains("exactly two points diagonally"));
        assert_eq!(
            why(start, "h2h7"),
            "h2h7: a cannon captures by jumping exactly one piece; there is no piece in between"
        );
        assert_eq!(why(start, "a0a5"), "a0a5: the path is blocked at a3");
        assert!(why(start, "a3b3").contains("only after crossing the river"));
        assert!(why(start, "d0d1").contains("diagonally along the palace lines"));
        assert!(why(start, "a9a8").contains("belongs to your opponent"));
        assert!(why(start, "e4e5").contains("no piece"));
        assert!(why(start, "e0f0").contains("occupied by your own advisor"));
    }

    #[test]
    fn self_check_and_facing_generals() {
        // The red chariot on e1 shields its general from the black chariot on e9.
        assert_eq!(
            why("3kr4/9/9/9/9/9/9/9/4R4/4K4 w", "e1d1"),
            "e1d1: it would leave your general in check from the chariot on e9"
        );
        assert_eq!(
            why("4k4/9/9/9/9/9/9/9/4N4/4K4 w", "e1c2"),
            "e1c2: the two generals would face each other"
        );
    }
}
