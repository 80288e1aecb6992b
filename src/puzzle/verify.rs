//! Checking a puzzle: its line is legal under the arbiter and wins as listed, and the engine
//! agrees at a fixed node budget.

use std::fmt;
use std::sync::atomic::AtomicBool;

use crate::arbiter::{Arbiter, Ruleset};
use crate::core::{Move, Position, Status};
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

/// Why a puzzle has more than one good move (or another answer than its own) at a turn of the
/// solver; the index is the turn's in the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unique {
    /// The engine's best move is another one (that move, its score).
    OtherBest(usize, Move, Score),
    /// The listed move mates, but not in the moves the line lists (the engine's mate).
    MateLength(usize, i32),
    /// The listed move does not mate as far as the engine sees (its score).
    NoMateSeen(usize, Score),
    /// Another move also mates (that move, in how many).
    OtherMate(usize, Move, i32),
    /// Another move is not clearly worse (that move, how much worse in centipawns).
    SmallGap(usize, Move, i32),
    /// The line itself does not hold.
    Line(VerifyError),
}

impl fmt::Display for Unique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let turn = |i: &usize| i / 2 + 1;
        match self {
            Unique::OtherBest(i, m, s) => {
                write!(
                    f,
                    "turn {}: best move {m} ({s:?}), not the listed one",
                    turn(i)
                )
            }
            Unique::MateLength(i, k) => write!(
                f,
                "turn {}: mate in {k}, not in the moves the line lists",
                turn(i)
            ),
            Unique::NoMateSeen(i, s) => write!(f, "turn {}: no mate seen ({s:?})", turn(i)),
            Unique::OtherMate(i, m, k) => write!(f, "turn {}: {m} also mates (in {k})", turn(i)),
            Unique::SmallGap(i, m, gap) => {
                write!(f, "turn {}: {m} only {gap} cp worse", turn(i))
            }
            Unique::Line(e) => e.fmt(f),
        }
    }
}

/// A score on one scale from the side to move's view (mates beyond every centipawn score).
fn scale(s: Score) -> i32 {
    match s {
        Score::Cp(c) => c,
        Score::Mate(n) if n > 0 => 100_000 - n,
        Score::Mate(n) => -100_000 - n,
    }
}

/// Check that `puzzle` has one good move at every turn of the solver, as lichess's puzzles do:
/// the line holds ([`verify`] without the engine), and a fresh two-line search of `nodes` nodes
/// at each of the solver's turns finds the listed move best; in a mate puzzle it mates in
/// exactly the moves left and no other move mates at all (a second mate, sooner or later, is a
/// second answer); in a material puzzle no other move mates and the second-best is at least
/// `margin` centipawns worse (unless the listed move mates).
///
/// # Errors
/// The first turn that has another good move, or what does not hold in the line.
pub fn verify_unique(
    puzzle: &Puzzle,
    engine: &mut Engine,
    nodes: u64,
    margin: i32,
) -> Result<(), Unique> {
    verify(puzzle, engine, 0).map_err(Unique::Line)?;
    let total = puzzle.solver_moves();
    for (j, i) in (0..puzzle.solution.len()).step_by(2).enumerate() {
        engine.new_game();
        let limits = Limits {
            nodes: Some(nodes),
            multipv: 2,
            ..Limits::default()
        };
        let stop = AtomicBool::new(false);
        let r = engine.search(
            &puzzle.position,
            &puzzle.solution[..i],
            &Ruleset::default(),
            &limits,
            &stop,
            &mut |_| {},
        );
        let Some((best, score)) = r
            .lines
            .first()
            .and_then(|l| Some((*l.pv.first()?, l.score)))
        else {
            return Err(Unique::Line(VerifyError::Engine(i, None)));
        };
        if best != puzzle.solution[i] {
            return Err(Unique::OtherBest(i, best, score));
        }
        let second = r.lines.get(1).and_then(|l| Some((*l.pv.first()?, l.score)));
        if let Some((m, Score::Mate(k))) = second {
            if k > 0 {
                return Err(Unique::OtherMate(i, m, k));
            }
        }
        match (puzzle.goal, score) {
            (Goal::Mate(_), Score::Mate(k)) if k > 0 => {
                if usize::try_from(k).ok() != Some(total - j) {
                    return Err(Unique::MateLength(i, k));
                }
            }
            (Goal::Mate(_), s) => return Err(Unique::NoMateSeen(i, s)),
            (Goal::Material(_), Score::Mate(k)) if k > 0 => {}
            (Goal::Material(_), s) => {
                if let Some((m, s2)) = second {
                    let gap = scale(s) - scale(s2);
                    if gap < margin {
                        return Err(Unique::SmallGap(i, m, gap));
                    }
                }
            }
        }
    }
    Ok(())
}
