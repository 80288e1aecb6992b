//! The engine: search, evaluation, levels, and the UCI protocol as pure functions.
//!
//! Standard library only, like the rules core.
//!
//! (On the `uci` branch this file holds only the types of the shared engine contract, so the
//! protocol, the client and the match runner can be built before the search lands; the `engine`
//! branch replaces it.)

pub mod uci;

use crate::core::Move;

/// A search score from the side to move's view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in `n` moves (`n > 0`: the side to move mates; `n < 0`: it is mated).
    Mate(i32),
}

/// A player's clock for one search.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left.
    pub remaining_ms: u64,
    /// Added after each move.
    pub increment_ms: u64,
    /// Byo-yomi period.
    pub byoyomi_ms: u64,
    /// Moves to the next time control.
    pub moves_to_go: Option<u32>,
}

/// What ends a search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Depth in plies.
    pub depth: Option<u32>,
    /// Nodes.
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub movetime_ms: Option<u64>,
    /// The side to move's clock.
    pub clock: Option<Clock>,
    /// A cap on this move's time.
    pub move_cap_ms: Option<u64>,
    /// Lines wanted (0 or 1: one).
    pub multipv: usize,
}

/// Progress of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Depth.
    pub depth: u32,
    /// Selective depth.
    pub seldepth: u32,
    /// Line number, 1-based.
    pub multipv: usize,
    /// Score.
    pub score: Score,
    /// Nodes.
    pub nodes: u64,
    /// Time.
    pub time_ms: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Table use, per mille.
    pub hashfull: u32,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// One line of a search's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Score.
    pub score: Score,
    /// The line; `pv[0]` is the move.
    pub pv: Vec<Move>,
}

/// The result of a search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchResult {
    /// The move, `None` when there is none.
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
    /// Lines, best first.
    pub lines: Vec<Line>,
    /// Depth reached.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time used.
    pub time_ms: u64,
}
