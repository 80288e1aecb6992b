//! UCI with processes: the server behind `xiangqi-bot uci`, the client that drives an external
//! engine (Pikafish, Fairy-Stockfish), the player that falls back to the built-in engine, and the
//! match runner. The protocol itself (parsing and writing lines) is pure and lives in
//! [`crate::engine::uci`].

pub mod book;
pub mod client;
pub mod contestant;
pub mod matches;
pub mod player;
pub mod server;
pub mod sprt;
pub mod stats;

use std::time::Duration;

use crate::arbiter::{Accepted, Arbiter, Ruleset, Ruling, SubmitError};
use crate::core::{Color, IllegalMove, Move, Position};
use crate::engine::uci::Go;
use crate::engine::Limits;

pub use client::{EngineError, EngineSpec, ExternalEngine, Timeouts};
pub use player::EngineConfig;

/// The `go` command for `limits` when `turn` is to move. A clock is given to both sides (UCI has
/// no way to say "only mine"); byo-yomi, which UCI lacks, becomes the increment, or the move
/// time once the main time is spent.
#[must_use]
pub fn go_for(limits: &Limits, turn: Color) -> Go {
    let mut go = Go {
        depth: limits.depth,
        nodes: limits.nodes,
        movetime: limits.movetime_ms,
        ..Go::default()
    };
    if let Some(c) = limits.clock {
        if c.remaining_ms == 0 && c.byoyomi_ms > 0 {
            go.movetime = Some(go.movetime.map_or(c.byoyomi_ms, |t| t.min(c.byoyomi_ms)));
        } else {
            let inc = c.increment_ms.max(c.byoyomi_ms);
            let (mine, theirs) = (Some(c.remaining_ms), Some(c.remaining_ms));
            (go.wtime, go.btime) = match turn {
                Color::Red => (mine, theirs),
                Color::Black => (theirs, mine),
            };
            (go.winc, go.binc) = (Some(inc), Some(inc));
            go.movestogo = c.moves_to_go;
        }
    }
    if go.depth.is_none() && go.nodes.is_none() && go.movetime.is_none() && limits.clock.is_none() {
        go.infinite = limits.move_cap_ms.is_some();
    }
    go
}

/// The most time a search under `limits` may take, if it has a time limit at all: its move time,
/// its clock (time left plus a byo-yomi period), or its cap, whichever is least.
#[must_use]
pub fn time_budget(limits: &Limits, _turn: Color) -> Option<Duration> {
    let clock = limits
        .clock
        .map(|c| c.remaining_ms.saturating_add(c.byoyomi_ms));
    [limits.movetime_ms, clock, limits.move_cap_ms]
        .into_iter()
        .flatten()
        .min()
        .map(Duration::from_millis)
}

/// Why a move from an engine was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rejection {
    /// The game is over: there is nothing to play.
    GameOver,
    /// The move breaks the rules of movement.
    Illegal(IllegalMove),
    /// The move is a foul under the ruleset (the mover would lose by it, or it is refused).
    Foul(Box<Ruling>),
}

impl std::fmt::Display for Rejection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Rejection::GameOver => f.write_str("the game is over"),
            Rejection::Illegal(e) => write!(f, "illegal move: {e}"),
            Rejection::Foul(r) => write!(
                f,
                "foul ({}, ruleset {})",
                r.reason.as_str(),
                r.ruleset.as_str()
            ),
        }
    }
}

/// Play `m` on a copy of `arbiter` and accept it only if it is legal and not a foul: an engine's
/// move goes through the same referee as a person's.
///
/// # Errors
/// [`Rejection`] saying why.
pub fn check_move(arbiter: &Arbiter, m: Move) -> Result<Accepted, Rejection> {
    let mover = arbiter.position().turn();
    match arbiter.clone().submit(m) {
        Ok(a) => match &a.ruling {
            Some(r) if r.outcome.loser() == Some(mover) => {
                Err(Rejection::Foul(Box::new(r.clone())))
            }
            _ => Ok(a),
        },
        Err(SubmitError::GameOver) => Err(Rejection::GameOver),
        Err(SubmitError::Illegal(e)) => Err(Rejection::Illegal(e)),
        Err(SubmitError::Refused(r)) => Err(Rejection::Foul(r)),
    }
}

/// Why the arbiter did not take a move, in words.
#[must_use]
pub fn submit_error_text(e: &SubmitError) -> String {
    match e {
        SubmitError::GameOver => "the game is already over".into(),
        SubmitError::Illegal(i) => i.to_string(),
        SubmitError::Refused(r) => format!(
            "refused by the ruleset ({}, {})",
            r.reason.as_str(),
            r.ruleset.as_str()
        ),
    }
}

/// The arbiter of the game from `start` after `moves` under `rules`.
///
/// # Errors
/// The index of the first move that cannot be played, and why.
pub fn replay(
    start: &Position,
    moves: &[Move],
    rules: &Ruleset,
) -> Result<Arbiter, (usize, SubmitError)> {
    let mut a = Arbiter::new(start.clone(), *rules);
    for (i, &m) in moves.iter().enumerate() {
        a.submit(m).map_err(|e| (i, e))?;
    }
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Clock;

    #[test]
    fn go_lines_for_each_limit() {
        let l = Limits {
            movetime_ms: Some(200),
            ..Limits::default()
        };
        assert_eq!(go_for(&l, Color::Red).movetime, Some(200));
        assert_eq!(
            time_budget(&l, Color::Red),
            Some(Duration::from_millis(200))
        );
        let l = Limits {
            clock: Some(Clock {
                remaining_ms: 60_000,
                increment_ms: 2_000,
                byoyomi_ms: 0,
                moves_to_go: None,
            }),
            move_cap_ms: Some(5_000),
            ..Limits::default()
        };
        let go = go_for(&l, Color::Black);
        assert_eq!((go.btime, go.binc), (Some(60_000), Some(2_000)));
        assert_eq!(time_budget(&l, Color::Black), Some(Duration::from_secs(5)));
        let l = Limits {
            clock: Some(Clock {
                remaining_ms: 0,
                increment_ms: 0,
                byoyomi_ms: 30_000,
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        assert_eq!(go_for(&l, Color::Red).movetime, Some(30_000));
        let l = Limits {
            depth: Some(7),
            ..Limits::default()
        };
        assert_eq!(time_budget(&l, Color::Red), None);
        assert_eq!(
            go_for(&l, Color::Red).to_line(crate::engine::uci::Dialect::Iccs),
            "go depth 7"
        );
    }

    #[test]
    fn engine_moves_meet_the_referee() {
        let start = Position::startpos();
        let a = Arbiter::new(start, Ruleset::default());
        let m = |s| Move::parse_iccs(s).unwrap_or_else(|| unreachable!());
        assert!(check_move(&a, m("h2e2")).is_ok());
        assert!(matches!(
            check_move(&a, m("h2h8")),
            Err(Rejection::Illegal(_))
        ));
        assert!(matches!(
            check_move(&a, m("a9a8")),
            Err(Rejection::Illegal(_))
        ));
        // Perpetual check by Red (the `judge` example of docs/operations.md), seen from after Red's first check:
        // Red's 8th ply would bring the position a third time with every Red ply a check.
        let fen = "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w";
        let mut start = Position::from_fen(fen).unwrap_or_else(|_| unreachable!());
        start.play_unchecked(m("h8h9"));
        let cycle = ["f9f8", "h9h8", "f8f9", "h8h9"];
        let plies: Vec<Move> = cycle.iter().chain(&cycle).map(|s| m(s)).collect();
        let rules = Ruleset::preset(crate::arbiter::RulesetName::Asian);
        let a = replay(&start, &plies[..7], &rules).unwrap_or_else(|_| unreachable!());
        assert!(matches!(check_move(&a, plies[7]), Err(Rejection::Foul(_))));
        // Black, the defender, may repeat: its own completion of a cycle is no foul.
        let a = replay(&start, &plies[..6], &rules).unwrap_or_else(|_| unreachable!());
        assert!(check_move(&a, plies[6]).is_ok());
    }
}
