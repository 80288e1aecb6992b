//! Solving a puzzle move by move: each move of the solver is judged, a correct one is answered
//! by the defender's reply, a wrong one by its refutation and the solution.
//!
//! Any move that also wins is accepted, not only the listed one: in a mate puzzle a move after
//! which the engine still finds a mate within the moves left; in a material puzzle a move
//! whose score is within [`MATERIAL_SLACK`] of the best one and still clearly winning. Once
//! the solver leaves the listed line, the defender's replies come from the engine.

use std::sync::atomic::AtomicBool;

use crate::arbiter::Ruleset;
use crate::core::{Move, Position, Status};
use crate::engine::{Engine, Limits, Score, SearchResult};

use super::{Goal, Puzzle};

/// How far below the best move's score an alternative may be and still count as the same
/// material win (centipawns).
pub const MATERIAL_SLACK: i32 = 120;
/// The least score an alternative in a material puzzle must keep (centipawns).
pub const MATERIAL_FLOOR: i32 = 150;

/// Where a solve stands: the moves played so far (both sides) and whether they are still the
/// listed line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Moves played from the puzzle's start, solver first.
    pub played: Vec<Move>,
    /// Whether `played` is a prefix of the listed solution.
    pub on_line: bool,
}

impl Progress {
    /// A solve that has not started.
    #[must_use]
    pub fn start() -> Progress {
        Progress {
            played: Vec::new(),
            on_line: true,
        }
    }

    /// The solver's moves played so far.
    #[must_use]
    pub fn solver_moves(&self) -> usize {
        self.played.len().div_ceil(2)
    }
}

/// The judgement of one move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Not a legal move here (nothing is played).
    Illegal,
    /// Right; the defender answers with `reply` and the solve goes on from `progress`.
    Correct {
        /// The defender's reply (already in `progress`).
        reply: Move,
        /// The solve after the move and the reply.
        progress: Progress,
    },
    /// Right, and the puzzle is done.
    Solved,
    /// Wrong: `refutation` is the defender's best answer to it (none when the move ends the
    /// game otherwise), `solution` a winning line from the position before it.
    Wrong {
        /// The defender's answer.
        refutation: Option<Move>,
        /// A winning line from where the solver stood.
        solution: Vec<Move>,
    },
}

/// A score on one scale from the side to move's view (mates beyond every centipawn score).
fn scale(s: Score) -> i32 {
    match s {
        Score::Cp(c) => c,
        Score::Mate(n) if n > 0 => 100_000 - n,
        Score::Mate(n) => -100_000 - n,
    }
}

/// A fresh, deterministic search of the position after `moves` from the puzzle's start.
fn search(engine: &mut Engine, start: &Position, moves: &[Move], nodes: u64) -> SearchResult {
    engine.new_game();
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    engine.search(
        start,
        moves,
        &Ruleset::default(),
        &limits,
        &stop,
        &mut |_| {},
    )
}

/// The best line's score and moves of a search.
fn best_line(r: &SearchResult) -> (Option<Score>, Vec<Move>) {
    r.lines
        .first()
        .map_or((None, Vec::new()), |l| (Some(l.score), l.pv.clone()))
}

/// Judge the solver's move `mv` at `progress`, asking `engine` (a fresh search of `nodes`
/// nodes per question) about moves off the listed line.
#[must_use]
pub fn check_move(
    puzzle: &Puzzle,
    progress: &Progress,
    mv: Move,
    engine: &mut Engine,
    nodes: u64,
) -> Verdict {
    let mut pos = puzzle.position.clone();
    for &m in &progress.played {
        pos.play_unchecked(m);
    }
    if pos.turn() != puzzle.solver() || !pos.is_legal(mv) {
        return Verdict::Illegal;
    }
    let ply = progress.played.len();
    let listed = progress.on_line && puzzle.solution.get(ply) == Some(&mv);
    let mut moves = progress.played.clone();
    moves.push(mv);
    let done = progress.solver_moves() + 1;
    let total = puzzle.moves_to_find();
    if pos.after(mv).status() != Status::Ongoing {
        // The defender is mated or stalemated: a loss for it either way.
        return Verdict::Solved;
    }
    if listed && done >= puzzle.solver_moves() {
        return Verdict::Solved;
    }
    if listed {
        // The listed line: its reply is the engine's, found when the puzzle was made.
        let Some(&reply) = puzzle.solution.get(ply + 1) else {
            return Verdict::Solved;
        };
        moves.push(reply);
        return Verdict::Correct {
            reply,
            progress: Progress {
                played: moves,
                on_line: true,
            },
        };
    }
    let reply_search = search(engine, &puzzle.position, &moves, nodes);
    let (reply_score, _) = best_line(&reply_search);
    let accepted = match (puzzle.goal, reply_score) {
        (Goal::Mate(_), Some(Score::Mate(k))) => k < 0 && k.unsigned_abs() as usize + done <= total,
        (Goal::Mate(_), _) => false,
        (Goal::Material(_), Some(s)) => {
            let mine = -scale(s);
            // The best the solver could do here: the listed move while on the line, else
            // the engine's own best.
            let reference = if progress.on_line {
                let mut listed_moves = progress.played.clone();
                listed_moves.extend(puzzle.solution.get(ply).copied());
                best_line(&search(engine, &puzzle.position, &listed_moves, nodes))
                    .0
                    .map(|s| -scale(s))
            } else {
                best_line(&search(engine, &puzzle.position, &progress.played, nodes))
                    .0
                    .map(scale)
            };
            let reference = reference.unwrap_or(mine);
            mine >= MATERIAL_FLOOR && mine >= reference - MATERIAL_SLACK
        }
        (Goal::Material(_), None) => false,
    };
    if !accepted {
        return Verdict::Wrong {
            refutation: reply_search.best,
            solution: solution_from(puzzle, progress, engine, nodes),
        };
    }
    if done >= total {
        return Verdict::Solved;
    }
    let Some(reply) = reply_search.best else {
        // No reply although the game goes on: the defender has no acceptable move.
        return Verdict::Solved;
    };
    moves.push(reply);
    Verdict::Correct {
        reply,
        progress: Progress {
            played: moves,
            on_line: false,
        },
    }
}

/// A winning line from `progress`: the rest of the listed one while on it, else the engine's
/// (a fresh search of `nodes` nodes).
#[must_use]
pub fn solution_from(
    puzzle: &Puzzle,
    progress: &Progress,
    engine: &mut Engine,
    nodes: u64,
) -> Vec<Move> {
    if progress.on_line {
        return puzzle.solution[progress.played.len().min(puzzle.solution.len())..].to_vec();
    }
    best_line(&search(engine, &puzzle.position, &progress.played, nodes)).1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Theme;

    fn moves(s: &str) -> Vec<Move> {
        s.split_whitespace().filter_map(Move::parse_iccs).collect()
    }

    /// Red mates in two with either chariot lift first; the listed line is one of them.
    fn two_chariots() -> Puzzle {
        Puzzle {
            id: "test-1".into(),
            position: Position::from_fen("4k4/9/9/9/9/9/9/9/R8/1R1K5 w - - 0 1").expect("test FEN"),
            solution: moves("a1a8 e9f9 b0b9"),
            goal: Goal::Mate(2),
            theme: Theme::MateIn(2),
            rating: 800,
            source: "test".into(),
        }
    }

    #[test]
    fn the_listed_line_solves() {
        let p = two_chariots();
        let mut e = Engine::new(4);
        let v = check_move(&p, &Progress::start(), p.solution[0], &mut e, 20_000);
        let Verdict::Correct { reply, progress } = v else {
            panic!("{v:?}");
        };
        assert_eq!(reply, p.solution[1]);
        assert!(progress.on_line);
        assert_eq!(
            check_move(&p, &progress, p.solution[2], &mut e, 20_000),
            Verdict::Solved
        );
    }

    #[test]
    fn another_winning_move_is_accepted_and_a_slow_one_refused() {
        let p = two_chariots();
        let mut e = Engine::new(4);
        // The other chariot first also mates in two.
        let v = check_move(&p, &Progress::start(), moves("b0b8")[0], &mut e, 20_000);
        let Verdict::Correct { progress, .. } = v else {
            panic!("{v:?}");
        };
        assert!(!progress.on_line);
        // A general's step wins nothing in time.
        let v = check_move(&p, &Progress::start(), moves("d0d1")[0], &mut e, 20_000);
        let Verdict::Wrong { solution, .. } = v else {
            panic!("{v:?}");
        };
        assert_eq!(solution, p.solution);
        // And an illegal move is not judged.
        let v = check_move(&p, &Progress::start(), moves("a1c2")[0], &mut e, 20_000);
        assert_eq!(v, Verdict::Illegal);
    }
}
