//! Puzzle ratings and streaks: each try is a Glicko-2 game between the solver and the
//! puzzle, whose own rating moves the other way (as on lichess), bounded as
//! [`crate::rating::puzzle`] says; a solved puzzle adds to the solver's streak, a missed one
//! ends it. `/puzzle stats [@user]` tells them.

use super::super::ctx::Ctx;
use crate::app::chat::{AppResult, Reply};
use crate::game::{Changes, LivePuzzle, PuzzlePlayer, PuzzleStanding, SCHEMA_VERSION};
use crate::i18n::puzzle::{text, PuzzleMsg};
use crate::platform::UserKey;
use crate::puzzle::Puzzle;
use crate::rating::glicko::START_VOLATILITY;
use crate::rating::puzzle::rate_try;
use crate::rating::{Glicko, Score};

/// How sure a puzzle's first rating (the set's estimate) is taken to be.
pub(super) const PUZZLE_DEVIATION: f64 = 250.0;

/// A puzzle's rating before anyone tried it: the set's estimate.
fn first_standing(p: &Puzzle) -> PuzzleStanding {
    PuzzleStanding {
        rating: Glicko {
            rating: f64::from(p.rating),
            deviation: PUZZLE_DEVIATION,
            volatility: START_VOLATILITY,
        },
        plays: 0,
    }
}

/// Rate the tries of `results` (player id, name, result) on `p`, in order: the changes to
/// store and a line per solver to show. Nothing moves once a hint was shown.
pub(super) fn rate(
    ctx: &Ctx<'_>,
    p: &Puzzle,
    live: &LivePuzzle,
    results: &[(UserKey, String, Score)],
) -> AppResult<(Changes, Vec<String>)> {
    let mut changes = Changes::default();
    if results.is_empty() {
        return Ok((changes, Vec::new()));
    }
    if live.hinted {
        // Streaks still count what was solved or missed.
        for (id, name, score) in results {
            let mut player = ctx.svc.storage().puzzle_player(id)?.unwrap_or_default();
            tally(&mut player, name, *score);
            changes.puzzle_players.push((id.clone(), player));
        }
        return Ok((changes, vec![text(&PuzzleMsg::Unrated, ctx.lang)]));
    }
    let storage = ctx.svc.storage();
    let mut standing = storage
        .puzzle_standing(&p.id)?
        .unwrap_or_else(|| first_standing(p));
    let mut lines = Vec::new();
    for (id, name, score) in results {
        let mut player = storage.puzzle_player(id)?.unwrap_or_default();
        let grown = player.rating_at(ctx.now);
        let (mine, its) = rate_try(grown, standing.rating, *score);
        let before = grown.shown();
        player.rating = mine;
        player.rated_ms = ctx.now;
        tally(&mut player, name, *score);
        standing.rating = its;
        standing.plays = standing.plays.saturating_add(1);
        lines.push(text(
            &PuzzleMsg::RatingChange {
                player: name.clone(),
                before,
                after: mine.shown(),
                streak: player.streak,
            },
            ctx.lang,
        ));
        changes.puzzle_players.push((id.clone(), player));
    }
    changes.puzzle_standings.push((p.id.clone(), standing));
    Ok((changes, lines))
}

/// Count a try in the solver's record (streak, totals, name).
fn tally(player: &mut PuzzlePlayer, name: &str, score: Score) {
    player.v = SCHEMA_VERSION;
    player.name = name.to_string();
    if score == Score::Win {
        player.solved = player.solved.saturating_add(1);
        player.streak = player.streak.saturating_add(1);
        player.best_streak = player.best_streak.max(player.streak);
    } else {
        player.missed = player.missed.saturating_add(1);
        player.streak = 0;
    }
}

/// `/puzzle stats [@user]`.
pub(super) fn stats(ctx: &Ctx<'_>) -> AppResult<Vec<Reply>> {
    let who = ctx
        .mentions()
        .first()
        .map_or_else(|| ctx.user.clone(), |(_, p)| p.clone());
    let Some(p) = ctx.svc.storage().puzzle_player(&who.id)? else {
        return Ok(vec![
            ctx.say_puzzle(&PuzzleMsg::NoStats { player: who.name })
        ]);
    };
    let rating = p.rating_at(ctx.now);
    Ok(vec![ctx.say_puzzle(&PuzzleMsg::Stats {
        player: who.name,
        rating: rating.shown(),
        provisional: rating.provisional(),
        solved: p.solved,
        missed: p.missed,
        streak: p.streak,
        best: p.best_streak,
    })])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rating::glicko::rate as glicko_rate;

    #[test]
    fn a_streak_grows_with_solves_and_ends_with_a_miss() {
        let mut p = PuzzlePlayer::default();
        for _ in 0..3 {
            tally(&mut p, "An", Score::Win);
        }
        assert_eq!((p.streak, p.best_streak, p.solved), (3, 3, 3));
        tally(&mut p, "An", Score::Loss);
        assert_eq!((p.streak, p.best_streak, p.missed), (0, 3, 1));
        tally(&mut p, "An", Score::Win);
        assert_eq!((p.streak, p.best_streak), (1, 3));
    }

    #[test]
    fn solving_raises_the_solver_and_lowers_the_puzzle() {
        let me = Glicko::default();
        let puzzle = Glicko {
            rating: 1500.0,
            deviation: PUZZLE_DEVIATION,
            volatility: START_VOLATILITY,
        };
        let (mine, its) = glicko_rate(me, puzzle, Score::Win, 1.0);
        assert!(mine.rating > me.rating);
        assert!(its.rating < puzzle.rating);
        let (mine, its) = glicko_rate(me, puzzle, Score::Loss, 1.0);
        assert!(mine.rating < me.rating);
        assert!(its.rating > puzzle.rating);
    }
}
