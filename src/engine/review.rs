//! A game review: every position of a game searched within a fixed budget, each move's
//! winning chances lost and accuracy, inaccuracies, mistakes and blunders with the better move,
//! and each player's accuracy, the way lichess reviews a chess game ([`super::accuracy`]).
//!
//! [`review`] runs the searches; [`assess`] is the arithmetic on their results, so that any
//! analyser (or a test) can supply the evaluations.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::arbiter::{Arbiter, Outcome, Ruleset};
use crate::core::{Color, Move, Position};

use super::accuracy::{
    game_accuracy, judge_loss, judge_mate_created, judge_mate_lost, move_accuracy, win_percent,
    winning_chances, Judgement, CP_CEILING,
};
use super::{Engine, Limits, Score};

/// Longest best line kept for a move.
pub const LINE_PLIES: usize = 6;

/// An evaluation from **Red's** side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns (positive: Red is better).
    Cp(i32),
    /// A forced mate in this many moves (positive: Red mates; negative: Black mates; never 0).
    Mate(i32),
    /// The game is over in this position.
    Over(Outcome),
}

impl Eval {
    /// The evaluation of a search score taken with `turn` to move.
    #[must_use]
    pub fn from_score(score: Score, turn: Color) -> Eval {
        let sign = if turn == Color::Red { 1 } else { -1 };
        match score {
            Score::Cp(c) => Eval::Cp(c * sign),
            Score::Mate(0) => Eval::Over(Outcome::loss_for(turn)),
            Score::Mate(n) => Eval::Mate(n * sign),
        }
    }

    /// Centipawns from Red's side with mates and won games at ±[`CP_CEILING`] (lichess's way
    /// of putting every evaluation on one scale).
    #[must_use]
    pub fn capped_cp(self) -> i32 {
        match self {
            Eval::Cp(c) => c.clamp(-CP_CEILING, CP_CEILING),
            Eval::Mate(n) if n > 0 => CP_CEILING,
            Eval::Mate(_) => -CP_CEILING,
            Eval::Over(Outcome::RedWins) => CP_CEILING,
            Eval::Over(Outcome::BlackWins) => -CP_CEILING,
            Eval::Over(Outcome::Draw) => 0,
        }
    }

    /// Red's win percentage (0..=100).
    #[must_use]
    pub fn red_win_percent(self) -> f64 {
        win_percent(self.capped_cp())
    }

    /// The same evaluation from `side`'s view, as lichess's advice reads it.
    fn view(self, side: Color) -> View {
        let sign = if side == Color::Red { 1 } else { -1 };
        match self {
            Eval::Cp(c) => View::Cp(c * sign),
            Eval::Mate(n) => View::Mate((n * sign).signum()),
            Eval::Over(Outcome::Draw) => View::Cp(0),
            Eval::Over(o) if o.loser() == Some(side) => View::Mate(-1),
            Eval::Over(_) => View::Mate(1),
        }
    }

    /// The lichess PGN comment command, `[%eval 0.35]` or `[%eval #-3]` (none once the game
    /// is over).
    #[must_use]
    pub fn pgn_command(self) -> Option<String> {
        match self {
            Eval::Cp(c) => Some(format!("[%eval {}]", pawns(c))),
            Eval::Mate(n) => Some(format!("[%eval #{n}]")),
            Eval::Over(_) => None,
        }
    }
}

/// Centipawns as pawns with two decimals (`0.35`, `-1.20`).
fn pawns(c: i32) -> String {
    let sign = if c < 0 { "-" } else { "" };
    let a = c.unsigned_abs();
    format!("{sign}{}.{:02}", a / 100, a % 100)
}

impl fmt::Display for Eval {
    /// `+0.35`, `-1.20`, `#3`, `#-3`, or the result (`1-0`, `0-1`, `1/2-1/2`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Eval::Cp(c) if c >= 0 => write!(f, "+{}", pawns(c)),
            Eval::Cp(c) => f.write_str(&pawns(c)),
            Eval::Mate(n) => write!(f, "#{n}"),
            Eval::Over(o) => f.write_str(o.pgn()),
        }
    }
}

/// An evaluation from one side's view: centipawns, or the sign of a mate (1: that side mates).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum View {
    Cp(i32),
    Mate(i32),
}

/// Why a move was judged.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flaw {
    /// It gave away winning chances.
    Chances,
    /// It let a forced mate against its mover in.
    MateCreated,
    /// It let its mover's forced mate slip.
    MateLost,
}

/// What an analyser found in one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionEval {
    /// The evaluation (Red's side).
    pub eval: Eval,
    /// The best line from here (empty when the game is over).
    pub pv: Vec<Move>,
}

/// The better move in a position where a worse one was played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Better {
    /// The line, its first move the better move.
    pub pv: Vec<Move>,
    /// The evaluation with it (Red's side).
    pub eval: Eval,
}

/// One move of the game, reviewed.
#[derive(Clone, Debug, PartialEq)]
pub struct PlyReview {
    /// The move.
    pub mv: Move,
    /// Who played it.
    pub mover: Color,
    /// The evaluation before it (Red's side).
    pub before: Eval,
    /// The evaluation after it (Red's side).
    pub after: Eval,
    /// Winning chances (−1..1 scale) the mover gave away (negative: gained).
    pub loss: f64,
    /// Its accuracy, 0..=100.
    pub accuracy: f64,
    /// How bad it was, if it was.
    pub judgement: Option<(Judgement, Flaw)>,
    /// For a judged move, the engine's move instead.
    pub better: Option<Better>,
}

/// A reviewed game.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// The evaluation of every position, from the start to the end (Red's side).
    pub evals: Vec<Eval>,
    /// Every move.
    pub plies: Vec<PlyReview>,
    /// Each side's accuracy over the game, indexed by [`Color::index`] (`None`: no move).
    pub accuracy: [Option<f64>; 2],
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time_ms: u64,
}

impl Review {
    /// The judged moves: `(ply index, move review)`.
    pub fn flaws(&self) -> impl Iterator<Item = (usize, &PlyReview)> {
        self.plies
            .iter()
            .enumerate()
            .filter(|(_, p)| p.judgement.is_some())
    }

    /// How many moves of `side` got `judgement`.
    #[must_use]
    pub fn count(&self, side: Color, judgement: Judgement) -> usize {
        self.plies
            .iter()
            .filter(|p| p.mover == side && p.judgement.is_some_and(|(j, _)| j == judgement))
            .count()
    }
}

/// The budget of a review.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ReviewLimits {
    /// Nodes searched in each position (deterministic).
    pub nodes: u64,
    /// The whole review's time: each position gets at most its share of what is left, so a
    /// slow machine gives shallower answers rather than a late review.
    pub total_ms: u64,
}

impl Default for ReviewLimits {
    /// 150,000 nodes a position within 15 s: a 100-ply game is never reviewed in more than
    /// 15 s (docs/internals.md, "Reviews in chat: figures and tests", says how deep it gets there).
    fn default() -> Self {
        ReviewLimits {
            nodes: 150_000,
            total_ms: 15_000,
        }
    }
}

/// Judge a move from the evaluations before and after it, from its mover's side (lichess's
/// advice: winning chances when both are centipawns, else the mate sequences).
fn judge(before: Eval, after: Eval, mover: Color) -> Option<(Judgement, Flaw)> {
    match (before.view(mover), after.view(mover)) {
        (View::Cp(b), View::Cp(a)) => {
            judge_loss(winning_chances(b) - winning_chances(a)).map(|j| (j, Flaw::Chances))
        }
        (View::Cp(b), View::Mate(a)) if a < 0 => Some((judge_mate_created(b), Flaw::MateCreated)),
        (View::Mate(b), View::Cp(a)) if b > 0 => Some((judge_mate_lost(a), Flaw::MateLost)),
        (View::Mate(b), View::Mate(a)) if b > 0 && a < 0 => {
            Some((judge_mate_lost(0), Flaw::MateLost))
        }
        _ => None,
    }
}

/// The review of `moves` from `start` given every position's evaluation (`evals[i]` is the
/// position before move `i`; one more than the moves). Moves without an evaluation after them
/// are left out.
#[must_use]
pub fn assess(start: &Position, moves: &[Move], evals: &[PositionEval]) -> Review {
    let n = moves.len().min(evals.len().saturating_sub(1));
    let mut turn = start.turn();
    let mut plies = Vec::with_capacity(n);
    for (i, &mv) in moves.iter().take(n).enumerate() {
        let (before, after) = (evals[i].eval, evals[i + 1].eval);
        let mover = turn;
        let (wb, wa) = (before.red_win_percent(), after.red_win_percent());
        let (wb, wa) = match mover {
            Color::Red => (wb, wa),
            Color::Black => (100.0 - wb, 100.0 - wa),
        };
        let best = evals[i].pv.first().copied();
        // The engine's own choice is never its mistake, whatever the deeper look after it says.
        let judgement = if best == Some(mv) {
            None
        } else {
            judge(before, after, mover)
        };
        let better = judgement.and(best).map(|_| Better {
            pv: evals[i].pv.iter().take(LINE_PLIES).copied().collect(),
            eval: before,
        });
        plies.push(PlyReview {
            mv,
            mover,
            before,
            after,
            loss: (wb - wa) / 50.0,
            accuracy: move_accuracy(wb, wa),
            judgement,
            better,
        });
        turn = turn.other();
    }
    let evals: Vec<Eval> = evals.iter().take(n + 1).map(|e| e.eval).collect();
    let cps: Vec<i32> = evals.iter().map(|e| e.capped_cp()).collect();
    let accuracy = game_accuracy(&cps, start.turn() == Color::Red);
    Review {
        evals,
        plies,
        accuracy,
        nodes: 0,
        time_ms: 0,
    }
}

/// Review the game of `moves` from `start` under `rules` with `engine` (its tables are cleared
/// first, so a review with a node budget that its time budget does not cut short is
/// reproducible). Positions are searched from the last to the first, so what the search learns
/// about the end informs the earlier positions. Moves after one the arbiter does not accept
/// are left out. `None` if `stop` was set.
pub fn review(
    engine: &mut Engine,
    start: &Position,
    moves: &[Move],
    rules: &Ruleset,
    limits: ReviewLimits,
    stop: &AtomicBool,
) -> Option<Review> {
    let began = Instant::now();
    let mut arb = Arbiter::new(start.clone(), *rules);
    let mut played = Vec::with_capacity(moves.len());
    for &m in moves {
        if arb.submit(m).is_err() {
            break;
        }
        played.push(m);
    }
    engine.new_game();
    let n = played.len();
    let mut evals = vec![
        PositionEval {
            eval: Eval::Cp(0),
            pv: Vec::new(),
        };
        n + 1
    ];
    let mut nodes = 0;
    if let Some(r) = arb.ruling() {
        evals[n].eval = Eval::Over(r.outcome);
    }
    let last = if arb.ruling().is_some() { n } else { n + 1 };
    for i in (0..last).rev() {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let spent = u64::try_from(began.elapsed().as_millis()).unwrap_or(u64::MAX);
        let share = limits.total_ms.saturating_sub(spent) / (i as u64 + 1);
        let search = Limits {
            nodes: Some(limits.nodes),
            movetime_ms: Some(share.max(1)),
            ..Limits::default()
        };
        let r = engine.search(start, &played[..i], rules, &search, stop, &mut |_| {});
        nodes += r.nodes;
        let turn = arb.position_before(i).map_or(Color::Red, Position::turn);
        evals[i] = match r.lines.first() {
            Some(line) => PositionEval {
                eval: Eval::from_score(line.score, turn),
                pv: line.pv.clone(),
            },
            // No acceptable move: the side to move has lost.
            None => PositionEval {
                eval: Eval::Over(Outcome::loss_for(turn)),
                pv: Vec::new(),
            },
        };
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut out = assess(start, &played, &evals);
    out.nodes = nodes;
    out.time_ms = u64::try_from(began.elapsed().as_millis()).unwrap_or(u64::MAX);
    Some(out)
}

#[cfg(test)]
#[path = "review_tests.rs"]
mod tests;
