//! A cheap exchange test for ordering and pruning: whether a capture by a piece worth more
//! than its victim lands on a point the opponent attacks (after the capture, so lines the
//! capturing piece opens or closes, and cannon screens it makes or removes, count).

use crate::core::{Color, Move, Position};

/// Whether the capture `m` puts a piece on a point the opponent attacks afterwards.
pub(crate) fn capture_loses(pos: &Position, m: Move) -> bool {
    let c = pos.board[m.from.index()];
    let mut occ = pos.occ;
    occ.clear(m.from.index());
    occ.set(m.to.index());
    let them = if c <= 7 { Color::Black } else { Color::Red };
    // The victim on the destination is taken; the capturing piece stands there now.
    pos.square_hit(&occ, m.to.index(), them, m.to.index())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::NO_POINT;

    #[test]
    fn attacks_by_every_kind_of_piece() {
        let p = Position::from_fen("3k5/4a4/9/9/2n6/9/9/1c2p4/9/4K4 w").unwrap();
        let at = |s: &str, by: usize| {
            let by = if by == 0 { Color::Red } else { Color::Black };
            p.square_hit(
                &p.occ,
                crate::core::Square::parse(s).unwrap().index(),
                by,
                NO_POINT,
            )
        };
        assert!(
            !at("b5", 1),
            "the horse c5 does not reach b5, the cannon b2 has no screen"
        );
        assert!(at("d3", 1), "horse c5 over its free leg c4");
        assert!(at("e1", 1), "the soldier e2 steps forward to e1");
        assert!(at("d2", 1), "a crossed soldier steps sideways");
        assert!(!at("b0", 1), "the cannon b2 needs a screen");
        assert!(at("g2", 1), "the cannon b2 over the screen e2");
        assert!(at("f9", 1), "the advisor e8");
        assert!(at("e9", 1), "the general d9");
        assert!(!at("a9", 1));
    }
}
