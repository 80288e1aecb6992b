//! A puzzle try as a rated game: the solver against the puzzle, as Glicko-2 rates it, with two
//! limits so that one try cannot say more than it knows.
//!
//! * **Bounded.** A try moves the solver's rating by at most [`MAX_TRY_CHANGE`] points. A
//!   newcomer (deviation 500) who misses a 600-rated puzzle would otherwise fall from 1500 to
//!   about 480 on one try. When Glicko-2 would move the rating further, the try counts as the
//!   fraction of a game that moves it exactly that far: the rating, deviation and volatility
//!   of both sides move that fraction of the way (as [`rate`]'s weight does for farmed games),
//!   so a clipped try also settles the deviation less.
//! * **Provisional solvers do not rate puzzles.** While the solver's rating is provisional
//!   (deviation of [`PROVISIONAL_DEVIATION`] or more, shown with `?`), the try moves the
//!   solver but leaves the puzzle's rating as it was: a newcomer's result says little about the
//!   puzzle.

use super::glicko::{rate, Glicko, Score, PROVISIONAL_DEVIATION};

/// The most a single try moves a solver's puzzle rating (rating points).
pub const MAX_TRY_CHANGE: f64 = 100.0;

/// Rate a try: `solver` (grown to now with [`Glicko::after_idle`]) scored `score` against
/// `puzzle`. Gives the solver's new rating and the puzzle's.
#[must_use]
pub fn rate_try(solver: Glicko, puzzle: Glicko, score: Score) -> (Glicko, Glicko) {
    let (full, _) = rate(solver, puzzle, score, 1.0);
    let change = (full.rating - solver.rating).abs();
    let weight = if change > MAX_TRY_CHANGE {
        MAX_TRY_CHANGE / change
    } else {
        1.0
    };
    let (mine, its) = rate(solver, puzzle, score, weight);
    if solver.deviation >= PROVISIONAL_DEVIATION {
        (mine, puzzle)
    } else {
        (mine, its)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rating::glicko::START_VOLATILITY;

    fn puzzle(rating: f64) -> Glicko {
        Glicko {
            rating,
            deviation: 250.0,
            volatility: START_VOLATILITY,
        }
    }

    fn established(rating: f64) -> Glicko {
        Glicko {
            rating,
            deviation: 60.0,
            volatility: 0.06,
        }
    }

    #[test]
    fn a_newcomers_first_miss_costs_at_most_the_bound() {
        let me = Glicko::default();
        for rating in [600.0, 1100.0, 1500.0, 2400.0] {
            for score in [Score::Loss, Score::Win] {
                let (full, _) = rate(me, puzzle(rating), score, 1.0);
                let (mine, _) = rate_try(me, puzzle(rating), score);
                let change = mine.rating - me.rating;
                assert!(
                    change.abs() <= MAX_TRY_CHANGE + 1e-9,
                    "{rating} {score:?} {change}"
                );
                // The same direction as Glicko-2, never more than it.
                assert!(change * (full.rating - me.rating) >= 0.0);
                assert!(change.abs() <= (full.rating - me.rating).abs() + 1e-9);
            }
        }
        // The one players met: a miss of a 600-rated puzzle took 1500 to about 480.
        let (full, _) = rate(me, puzzle(600.0), Score::Loss, 1.0);
        assert!(full.rating < 600.0, "{full:?}");
        let (mine, _) = rate_try(me, puzzle(600.0), Score::Loss);
        assert!((mine.rating - 1400.0).abs() < 1e-6, "{mine:?}");
        // Clipped, the try settles the deviation less than a full one, but still some.
        assert!(mine.deviation > full.deviation && mine.deviation < me.deviation);
    }

    #[test]
    fn an_ordinary_try_is_glicko_unchanged() {
        let me = established(1520.0);
        for score in [Score::Loss, Score::Win] {
            let expected = rate(me, puzzle(1500.0), score, 1.0);
            assert_eq!(rate_try(me, puzzle(1500.0), score), expected);
            assert!((expected.0.rating - me.rating).abs() < MAX_TRY_CHANGE);
        }
    }

    #[test]
    fn only_established_solvers_move_the_puzzle() {
        let p = puzzle(1500.0);
        let (mine, its) = rate_try(Glicko::default(), p, Score::Win);
        assert!(mine.rating > 1500.0);
        assert_eq!(its, p);
        let (_, its) = rate_try(established(1500.0), p, Score::Win);
        assert!(its.rating < p.rating, "{its:?}");
    }
}
