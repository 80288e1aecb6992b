//! The threat to mate ("kill", 杀; Vietnamese "dọa chiếu bí", "hăm bí"), RULES.md §4.
//!
//! Reading: a ply *threatens mate* when, were it the mover's turn again at once (the opponent
//! passing), the mover would have a move that checkmates. This is the test the AXF/WXF
//! rulebook's perpetual-kill examples need (a rook that keeps threatening the back-rank mate,
//! a cannon that keeps threatening the mate down an open file); it is a bounded search of
//! one ply plus the mate test, so every ply can afford it. Longer threats (mate by a series of
//! checks) are not looked for: such a ply is classed idle, which the verdict tables treat
//! alike (a kill, like an idle move, may be repeated forever).

use crate::core::{Move, Position};

/// A mating move the side that has just moved would have if it could move again in `after`
/// (the position after its ply, the opponent to move and not in check), or `None`.
#[must_use]
pub fn mate_threat(after: &Position) -> Option<Move> {
    let mover = after.turn().other();
    let pos = after.with_turn(mover);
    pos.legal_moves().iter().copied().find(|&m| {
        let next = pos.after(m);
        next.is_check() && !next.has_legal_move()
    })
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

    #[test]
    fn no_threat_where_every_check_can_be_answered() {
        // The lone chariot can check, but the general always has a way out.
        assert_eq!(threat("4k4/9/9/9/9/9/9/9/9/R2K5 b"), None);
        assert_eq!(mate_threat(&Position::startpos()), None);
    }
}
