//! The threat to mate ("kill", 杀; Vietnamese "dọa chiếu bí", "hăm bí"), RULES.md §4.
//!
//! Reading: a ply *threatens mate* when, were it the mover's turn again at once (the opponent
//! passing), the mover would have a move that checkmates. This is the test the AXF/WXF
//! rulebook's perpetual-kill examples need (a rook that keeps threatening the back-rank mate,
//! a cannon that keeps threatening the mate down an open file); it is a bounded search of
//! one ply plus the mate test, so every ply can afford it. Longer threats (mate by a series of
//! checks) are not looked for: such a ply is classed idle, which the verdict tables treat
//! alike (a kill, like an idle move, may be repeated forever).

use crate::core::{Move, Position, Role, Square};

/// A mating move the side that has just moved would have if it could move again in `after`
/// (the position after its ply, the opponent to move and not in check), or `None`.
///
/// Only moves that can check at all ([`may_check`]) are tested for legality and played, and a
/// check is known not to mate as soon as one answer is found, so a ply costs a few
/// microseconds (see the arbiter bench).
#[must_use]
pub fn mate_threat(after: &Position) -> Option<Move> {
    let mover = after.turn().other();
    let general = after.general_square(mover.other());
    let pos = after.with_turn(mover);
    for (from, piece, _) in pos.pieces() {
        if piece.color != mover {
            continue;
        }
        for &m in pos.piece_moves(from).iter() {
            if !may_check(m, piece.role, general) {
                continue;
            }
            let next = pos.after(m);
            if next.is_check() && !next.in_check_color(mover) && !can_move(&next) {
                return Some(m);
            }
        }
    }
    None
}

/// Whether the side to move has a legal move, stopping at the first one found; the general's
/// own steps are tried first, as they are the usual answer to a check.
fn can_move(pos: &Position) -> bool {
    let side = pos.turn();
    let general = pos.general_square(side);
    let from_here = |from: Square| pos.piece_moves(from).iter().any(|&m| pos.safe_after(m));
    from_here(general)
        || pos
            .pieces()
            .any(|(from, p, _)| p.color == side && from != general && from_here(from))
}

/// Whether `m`, a move of a `role`, can give check to the general on `g` at all, judged by
/// where it starts and ends: a piece arriving on the general's file or rank (a chariot, a
/// cannon, a cannon's new screen, the facing general; a soldier's step beside it is on them
/// too), a piece leaving them (a line opened), a horse landing a horse's move away, or a piece
/// leaving a point diagonally next to the general (a horse leg freed). Advisors and elephants
/// never attack the other general. Most moves fail this and need not be played.
fn may_check(m: Move, role: Role, g: Square) -> bool {
    let line = |s: Square| s.file() == g.file() || s.rank() == g.rank();
    let (df, dr) = (
        m.to.file().abs_diff(g.file()),
        m.to.rank().abs_diff(g.rank()),
    );
    let leg = m.from.file().abs_diff(g.file()) == 1 && m.from.rank().abs_diff(g.rank()) == 1;
    line(m.to) || line(m.from) || leg || (role == Role::Horse && df.max(dr) == 2 && df.min(dr) == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn threat(fen: &str) -> Option<String> {
        let pos = Position::from_fen(fen).expect("test FEN");
        mate_threat(&pos).map(|m| m.to_string())
    }

    #[test]
    fn a_back_rank_mate_is_threatened() {
        // AXF/WXF rulebook, diagram 6 after R2=3: Black to move; the chariot on g6 would mate
        // by taking the elephant on g9 (the general is walled in by its advisors, and the
        // cannon on e6 pins the elephant and the advisor on the e-file).
        let t = threat("3ak1b2/4a4/4b4/r3C1R2/p8/9/P8/4p4/4p4/5K3 b");
        assert_eq!(t.as_deref(), Some("g6g9"));
        // Before R2=3 the elephant on g9 shuts the back rank: no threat.
        assert_eq!(threat("3ak1b2/4a4/4b4/r3C2R1/p8/9/P8/4p4/4p4/5K3 b"), None);
    }

    /// The filter never drops a checking move: every legal move that gives check, in the
    /// positions of several long walks from the start, passes it.
    #[test]
    fn the_geometric_filter_keeps_every_check() {
        let mut seen_checks = 0;
        for stride in [7usize, 13, 29] {
            let mut pos = Position::startpos();
            for i in 0..400usize {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let g = pos.general_square(pos.turn().other());
                for &m in moves.iter() {
                    if pos.after(m).is_check() {
                        seen_checks += 1;
                        let role = pos.piece_at(m.from).map(|p| p.role);
                        assert!(
                            role.is_some_and(|r| may_check(m, r, g)),
                            "{} {m}",
                            pos.to_fen()
                        );
                    }
                }
                pos = pos.after(moves.as_slice()[(i * stride + 3) % moves.len()]);
            }
        }
        assert!(seen_checks > 100, "only {seen_checks} checks seen");
    }

    #[test]
    fn can_move_agrees_with_the_move_generator() {
        let mut pos = Position::startpos();
        for i in 0..300usize {
            assert_eq!(can_move(&pos), pos.has_legal_move(), "{}", pos.to_fen());
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.after(moves.as_slice()[(i * 11 + 5) % moves.len()]);
        }
        // A mated side: AXF/WXF diagram 6 after the threatened mate.
        let mated = Position::from_fen("3ak1R2/4a4/4b4/r3C4/p8/9/P8/4p4/4p4/5K3 b").unwrap();
        assert!(mated.is_check() && !can_move(&mated));
    }

    #[test]
    fn no_threat_where_every_check_can_be_answered() {
        // The lone chariot can check, but the general always has a way out.
        assert_eq!(threat("4k4/9/9/9/9/9/9/9/9/R2K5 b"), None);
        assert_eq!(mate_threat(&Position::startpos()), None);
    }
}
