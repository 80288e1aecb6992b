//! The threat to mate ("kill", 杀; Vietnamese "dọa chiếu bí", "hăm bí"), RULES.md §4.
//!
//! Reading: a ply *threatens mate* when, were it the mover's turn again at once (the opponent
//! passing), the mover could force mate by a series of checks: a mating move, or a check
//! every answer to which leaves a mate by checks again, in at most [`SERIES`] moves of the
//! mover. The rulebook's perpetual-kill examples need the one-move threat (a rook that keeps
//! threatening the back-rank mate, a cannon that keeps threatening the mate down an open
//! file: AXF/WXF diagrams 6–8); its diagram 9 counts an *implied* threat as well, a mate
//! reached by a series of soldier checks, and calls one threat and one implied threat a
//! draw. The series is bounded in moves and in positions visited ([`BUDGET`]), so every ply
//! can afford it; a longer or wider threat than that is not seen, and such a ply is classed
//! idle, which the verdict tables treat alike (a kill, like an idle move, may be repeated
//! forever). Quiet threats inside the series (a mate prepared by a non-checking move) are not
//! threats by this reading: the rulebook's implied threat is a run of checks.

use crate::core::{Move, Position, Role, Square};

/// Moves of the mover in the longest series of checks looked for (the mate included).
pub const SERIES: u32 = 3;

/// Positions the series search may visit for one ply before it gives up (and the ply is not
/// a kill). Counted, not timed, so the classification stays deterministic.
pub const BUDGET: u32 = 600;

/// The first move of a mate by checks that the side that has just moved would have if it
/// could move again in `after` (the position after its ply, the opponent to move and not in
/// check), or `None`: a mating move if there is one, else the first check of a forced series
/// of at most [`SERIES`] checks.
///
/// Only moves that can check at all ([`may_check`]) are tested for legality and played, and a
/// check is known not to mate as soon as one answer is found, so a ply costs a few
/// microseconds (see the arbiter bench).
#[must_use]
pub fn mate_threat(after: &Position) -> Option<Move> {
    let mover = after.turn().other();
    let pos = after.with_turn(mover);
    // A mate in one first; the other checks are kept (as moves: few, and played again only
    // if no check mates at once) for the series.
    let mut series = Vec::new();
    let mate = find_check(&pos, |m, next| {
        if can_move(next) {
            series.push(m);
            None
        } else {
            Some(m)
        }
    });
    if mate.is_some() {
        return mate;
    }
    let mut budget = BUDGET;
    series
        .into_iter()
        .find(|&m| forced(&pos.after(m), SERIES - 1, &mut budget) == Some(true))
}

/// The checks the side to move in `pos` can give, each with the position it leads to, in
/// the order of the pieces and their moves, handed to `visit` until it returns something.
fn find_check<T>(pos: &Position, mut visit: impl FnMut(Move, &Position) -> Option<T>) -> Option<T> {
    let mover = pos.turn();
    let general = pos.general_square(mover.other());
    for (from, piece, _) in pos.pieces() {
        if piece.color != mover {
            continue;
        }
        for &m in pos.piece_moves(from).iter() {
            if !may_check(m, piece.role, general) {
                continue;
            }
            let next = pos.after(m);
            if next.is_check() && !next.in_check_color(mover) {
                if let Some(found) = visit(m, &next) {
                    return Some(found);
                }
            }
        }
    }
    None
}

/// How one check of the series ended, for [`forced`].
enum Ends {
    /// It mates, or forces mate by checks.
    Mate,
    /// The budget ran out.
    Spent,
}

/// Whether every answer to the check in `pos` (the checked side to move, with a legal move)
/// leaves the checking side a mate by checks within `left` more moves. `None` when the
/// budget ran out: the search gives up rather than guess. Checks are tried as they are
/// found, none collected.
fn forced(pos: &Position, left: u32, budget: &mut u32) -> Option<bool> {
    if left == 0 {
        return Some(false);
    }
    for &answer in pos.legal_moves().iter() {
        *budget = budget.checked_sub(1)?;
        let reply = pos.after(answer);
        let ended = find_check(&reply, |_, next| {
            let Some(b) = budget.checked_sub(1) else {
                return Some(Ends::Spent);
            };
            *budget = b;
            if !can_move(next) {
                return Some(Ends::Mate);
            }
            match forced(next, left - 1, budget) {
                Some(true) => Some(Ends::Mate),
                Some(false) => None,
                None => Some(Ends::Spent),
            }
        });
        match ended {
            Some(Ends::Mate) => {}
            Some(Ends::Spent) => return None,
            None => return Some(false),
        }
    }
    Some(true)
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
    fn a_mate_by_a_series_of_checks_is_a_threat() {
        // AXF/WXF rulebook, diagram 6 after R3=2: no mate in one (the elephant on i7 can
        // block on g9), but R2+3, and after the block the chariot takes the elephant with
        // mate (Fairy-Stockfish agrees: mate in 2).
        let t = threat("3ak4/4a4/4b3b/r3C2R1/p8/9/P8/4p4/4p4/5K3 b");
        assert_eq!(t.as_deref(), Some("h6h9"));
    }

    /// Every threat found along a long walk from the start is a legal check of the side that
    /// has just moved.
    #[test]
    fn every_threat_found_starts_with_a_legal_check() {
        let mut pos = Position::startpos();
        for i in 0..300usize {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            if !pos.is_check() {
                if let Some(m) = mate_threat(&pos) {
                    let mover = pos.with_turn(pos.turn().other());
                    assert!(
                        mover.is_legal(m) && mover.after(m).is_check(),
                        "{}",
                        pos.to_fen()
                    );
                }
            }
            pos = pos.after(moves.as_slice()[(i * 17 + 1) % moves.len()]);
        }
    }

    #[test]
    fn no_threat_where_every_check_can_be_answered() {
        // The lone chariot can check, but the general always has a way out.
        assert_eq!(threat("4k4/9/9/9/9/9/9/9/9/R2K5 b"), None);
        assert_eq!(mate_threat(&Position::startpos()), None);
    }
}
