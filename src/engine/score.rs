//! Internal scores (centipawns from the side to move's view, with mate scores near the ends of
//! the range), their conversion to [`Score`], and the adjustment of mate scores for storage in
//! the transposition table (stored relative to the node, read back relative to the root).

use super::Score;

/// Deepest ply the search ever reaches (stack sizes, mate-distance range).
pub(crate) const MAX_PLY: usize = 128;
/// Score of giving mate now (the side to move is mated: `-MATE`).
pub(crate) const MATE: i32 = 32_000;
/// Scores at or beyond this (in absolute value) are mate scores.
pub(crate) const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Larger than any score.
pub(crate) const INFINITE: i32 = MATE + 1;
/// The score of a draw.
pub(crate) const DRAW: i32 = 0;

/// Mated at `ply` plies from the root.
#[inline]
pub(crate) const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// Mating at `ply` plies from the root.
#[inline]
pub(crate) const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// Whether `s` is a mate score (either side).
#[inline]
pub(crate) const fn is_mate(s: i32) -> bool {
    s >= MATE_BOUND || s <= -MATE_BOUND
}

/// A root-relative score as stored in the table at `ply`: mate scores become distances from
/// the node, so the entry stays true wherever the position is met again.
#[inline]
pub(crate) const fn to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

/// The inverse of [`to_tt`]: a stored score read at `ply`.
#[inline]
pub(crate) const fn from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// The public form of an internal score: centipawns, or mate in moves as UCI counts them.
#[must_use]
pub(crate) fn to_score(s: i32) -> Score {
    if s >= MATE_BOUND {
        Score::Mate((MATE - s + 1) / 2)
    } else if s <= -MATE_BOUND {
        Score::Mate(-(MATE + s) / 2)
    } else {
        Score::Cp(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_count_moves_as_uci_does() {
        assert_eq!(to_score(mate_in(1)), Score::Mate(1));
        assert_eq!(to_score(mate_in(3)), Score::Mate(2));
        assert_eq!(to_score(mated_in(2)), Score::Mate(-1));
        assert_eq!(to_score(mated_in(0)), Score::Mate(0));
        assert_eq!(to_score(123), Score::Cp(123));
        assert!(is_mate(mate_in(40)) && is_mate(mated_in(40)) && !is_mate(3000));
    }

    #[test]
    fn stored_mate_scores_are_relative_to_the_node() {
        // A mate found 5 plies below a node 7 plies from the root: mate in 12 from the root.
        let at_root = mate_in(12);
        let stored = to_tt(at_root, 7);
        assert_eq!(stored, mate_in(5), "stored as mate in 5 from the node");
        // Met again 3 plies from the root, the same entry means mate in 8 from there.
        assert_eq!(from_tt(stored, 3), mate_in(8));
        let lost = mated_in(10);
        assert_eq!(from_tt(to_tt(lost, 4), 4), lost);
        assert_eq!(from_tt(to_tt(lost, 4), 2), mated_in(8));
        // Ordinary scores pass through unchanged.
        assert_eq!(to_tt(-250, 9), -250);
        assert_eq!(from_tt(-250, 9), -250);
    }
}
