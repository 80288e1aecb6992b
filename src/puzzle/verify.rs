//! Checking a puzzle: its line is legal under the arbiter and wins as listed, and the engine
//! agrees at a fixed node budget.

use std::fmt;
use std::sync::atomic::AtomicBool;

use crate::arbiter::{Arbiter, Ruleset};
use crate::core::{Position, Status};
use crate::engine::{Engine, Limits, Score};

use super::material::balance;
use super::solve::MATERIAL_FLOOR;
use super::{Goal, Puzzle};

/// Why a puzzle does not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyError {
    /// A move of the line cannot be played (its index in the line).
    Illegal(usize),
    /// The line's length does not match its goal.
    Length,
    /// The line of a mate puzzle does not end in mate.
    NoMate,
    /// The line of a material puzzle wins less than its goal (what it wins).
    TooLittle(i32),
    /// The engine does not see the solver's move at this index of the line as winning (its
    /// score after the move, from the defender's view).
    Engine(usize, Option<Score>),
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Illegal(i) => write!(f, "move {} of the line cannot be played", i + 1),
            VerifyError::Length => f.write_str("the line's length does not match its goal"),
            VerifyError::NoMate => f.write_str("the line does not end in mate"),
            VerifyError::TooLittle(cp) => write!(f, "the line wins only {cp} centipawns"),
            VerifyError::Engine(i, s) => {
                write!(
                    f,
                    "the engine does not see move {} as winning ({s:?})",
                    i + 1
                )
            }
        }
    }
}

/// Check `puzzle`: the line replays under the arbiter, a mate line ends in mate after exactly
/// its number of moves, a material line wins at least its goal; then, when `nodes > 0`, a
/// fresh search of `nodes` nodes after each of the solver's moves must still see the win (a
/// mate within the moves left, or a score of at least [`MATERIAL_FLOOR`]).
///
/// # Errors
/// The first thing that does not hold.
pub fn verify(puzzle: &Puzzle, engine: &mut Engine, nodes: u64) -> Result<(), VerifyError> {
    let solver = puzzle.solver();
    let mut arb = Arbiter::new(puzzle.position.clone(), Ruleset::default());
    for (i, &m) in puzzle.solution.iter().enumerate() {
        if arb.ruling().is_some() || arb.submit(m).is_err() {
            return Err(VerifyError::Illegal(i));
        }
    }
    let end: &Position = arb.position();
    match puzzle.goal {
        Goal::Mate(n) => {
            if n as usize != puzzle.solver_moves() {
                return Err(VerifyError::Length);
            }
            if end.status() == Status::Ongoing || end.turn() == solver {
                return Err(VerifyError::NoMate);
            }
        }
        Goal::Material(goal) => {
            let won = balance(end, solver) - balance(&puzzle.position, solver);
            if won < i32::try_from(goal).unwrap_or(i32::MAX) {
                return Err(VerifyError::TooLittle(won));
            }
        }
    }
    if nodes == 0 {
        return Ok(());
    }
    let total = puzzle.solver_moves();
    for (j, i) in (0..puzzle.solution.len()).step_by(2).enumerate() {
        let line = &puzzle.solution[..=i];
        if i + 1 == puzzle.solution.len() && matches!(puzzle.goal, Goal::Mate(_)) {
            break; // the mate itself was checked above
        }
        engine.new_game();
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let stop = AtomicBool::new(false);
        let r = engine.search(
            &puzzle.position,
            line,
            &Ruleset::default(),
            &limits,
            &stop,
            &mut |_| {},
        );
        let score = r.lines.first().map(|l| l.score);
        let ok = match (puzzle.goal, score) {
            (Goal::Mate(_), Some(Score::Mate(k))) => k < 0 && (-k) as usize + j < total,
            (Goal::Material(_), Some(Score::Mate(k))) => k < 0,
            (Goal::Material(_), Some(Score::Cp(cp))) => -cp >= MATERIAL_FLOOR,
            _ => false,
        };
        if !ok {
            return Err(VerifyError::Engine(i, score));
        }
    }
    Ok(())
}
