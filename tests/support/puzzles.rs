//! A shipped puzzle to solve in tests: a mate in two with its listed line, and moves that the
//! solver refuses, found with the same node budget the tests give the service.

#![allow(dead_code)]

use xiangqi_bot::core::Move;
use xiangqi_bot::engine::Engine;
use xiangqi_bot::puzzle::{check_move, shipped, Goal, Progress, Puzzle, Verdict};

/// Nodes a judgement gets in the tests (a debug build searches slowly).
pub const NODES: u64 = 20_000;

/// A mate in two and two moves that do not win.
pub struct Example {
    /// The puzzle (its solution has three plies).
    pub puzzle: Puzzle,
    /// A legal first move that does not mate in time.
    pub wrong_first: Move,
    /// A legal second move of the solver (after the listed first two plies) that does not mate.
    pub wrong_second: Move,
}

/// The first move the solver refuses at `progress`.
fn refused(p: &Puzzle, progress: &Progress, engine: &mut Engine) -> Option<Move> {
    let mut pos = p.position.clone();
    for &m in &progress.played {
        pos.play_unchecked(m);
    }
    pos.legal_moves().iter().copied().find(|&m| {
        matches!(
            check_move(p, progress, m, engine, NODES),
            Verdict::Wrong { .. }
        )
    })
}

/// The first shipped mate in two with both kinds of wrong move.
pub fn mate_in_two() -> Example {
    let mut engine = Engine::new(4);
    shipped()
        .into_iter()
        .filter(|p| p.goal == Goal::Mate(2) && p.solution.len() == 3)
        .find_map(|p| {
            let wrong_first = refused(&p, &Progress::start(), &mut engine)?;
            let second = Progress {
                played: p.solution[..2].to_vec(),
                on_line: true,
            };
            let wrong_second = refused(&p, &second, &mut engine)?;
            Some(Example {
                puzzle: p,
                wrong_first,
                wrong_second,
            })
        })
        .expect("a mate in two")
}
