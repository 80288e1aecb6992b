//! The built-in engine: search, evaluation, transposition table, time control, levels, and
//! the UCI protocol as pure functions ([`uci`]).
//!
//! Standard library only, like the rules core and the arbiter. One [`Engine`] runs one search
//! at a time and owns its transposition table (bounded by its size setting) and its move
//! ordering tables; several engines may search at once on different threads.
//!
//! The search agrees with the arbiter: every root move is tried on a copy of the game's real
//! [`Arbiter`](crate::arbiter::Arbiter) (a refused move or one that loses by a foul is never
//! played; one that ends the game is scored by the ruling), and inside the tree a repeated
//! position is judged with the arbiter's classification and verdict table for the ruleset.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use xiangqi_bot::arbiter::Ruleset;
//! use xiangqi_bot::core::Position;
//! use xiangqi_bot::engine::{Engine, Limits};
//!
//! let mut engine = Engine::new(16);
//! let limits = Limits { depth: Some(4), ..Limits::default() };
//! let stop = AtomicBool::new(false);
//! let result = engine.search(&Position::startpos(), &[], &Ruleset::default(), &limits, &stop, &mut |_| {});
//! assert!(result.best.is_some());
//! ```

pub mod accuracy;
mod anchor;
mod bench;
mod eval;
mod level;
mod ordering;
mod params;
mod pst;
pub mod review;
mod root;
mod rules;
mod score;
mod search;
mod see;
mod time;
mod tt;
pub mod uci;

use std::sync::atomic::AtomicBool;

use crate::arbiter::{Arbiter, Ruleset};
use crate::core::{Move, Position};

pub use accuracy::Judgement;
pub use anchor::Anchor;
pub use bench::{bench, bench_with, BenchReport, BENCH_DEPTH};
pub use level::{
    level_rating, level_spec, play_level, play_spec, rung_of, LevelSpec, Rung, GREEDY_RATING,
    LADDER, TOP_LEVEL,
};
pub use review::{review, Eval, Review, ReviewLimits};
pub use tt::{set_table_memory, MemorySource, TableMemory};

use rules::{ClassCache, GameRules};
use search::{Kit, PlyLists, Reductions, Searcher};
use time::TimeControl;

/// Hash table size of a new engine, in megabytes.
pub const DEFAULT_HASH_MB: usize = 16;
/// Deepest iteration the search runs.
pub const MAX_DEPTH: u32 = 100;

/// A score from the side to move's view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (`n > 0`: the side to move mates; `n < 0`: it is mated), as UCI
    /// counts them.
    Mate(i32),
}

/// A game clock for one side (milliseconds).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the main clock.
    pub remaining_ms: u64,
    /// Added after each move.
    pub increment_ms: u64,
    /// Byo-yomi period available for each move once the main time is spent.
    pub byoyomi_ms: u64,
    /// Moves until the next time control, if the clock has one.
    pub moves_to_go: Option<u32>,
}

/// When a search stops: the first limit reached (none given: it runs until `stop` is set or
/// [`MAX_DEPTH`] is reached).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Iterations to complete.
    pub depth: Option<u32>,
    /// Nodes to search (deterministic).
    pub nodes: Option<u64>,
    /// Time for this move.
    pub movetime_ms: Option<u64>,
    /// The side to move's clock.
    pub clock: Option<Clock>,
    /// A cap on the time of this move whatever the clock says.
    pub move_cap_ms: Option<u64>,
    /// Lines to search (0 or 1: one).
    pub multipv: usize,
}

/// Progress of a search, reported after each completed iteration for each line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Line number, 1-based.
    pub multipv: usize,
    /// The line's score.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time so far.
    pub time_ms: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Permille of the hash table written by this search.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// One line of a result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Its score.
    pub score: Score,
    /// Its moves; `pv[0]` is the move.
    pub pv: Vec<Move>,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` when there is no legal move, no acceptable one (every move
    /// is refused or loses by a foul), the game is already over, or `moves` do not replay.
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
    /// The lines, best first.
    pub lines: Vec<Line>,
    /// Last completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time_ms: u64,
}

/// A search engine: its transposition table and move-ordering tables.
pub struct Engine {
    tt: tt::Table,
    ord: Box<ordering::Ordering>,
    classes: ClassCache,
    params: params::Params,
    reductions: Box<Reductions>,
    terms: Box<eval::Terms>,
    eval_cache: Vec<(u64, i32)>,
    lists: Box<PlyLists>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(DEFAULT_HASH_MB)
    }
}

impl Engine {
    /// An engine whose transposition table takes at most `hash_mb` megabytes (at least 1).
    #[must_use]
    pub fn new(hash_mb: usize) -> Engine {
        Engine {
            tt: tt::Table::new(hash_mb.max(1)),
            ord: Box::new(ordering::Ordering::new()),
            classes: ClassCache::new(),
            params: params::Params::default(),
            reductions: Box::new(Reductions::new(&params::DEFAULT)),
            terms: Box::new(eval::Terms::of(&params::DEFAULT.eval)),
            eval_cache: vec![(0, 0); search::EVAL_CACHE],
            lists: Box::new(PlyLists::new()),
        }
    }

    /// Change a search or evaluation parameter by name, for tuning experiments (the
    /// defaults are the engine as shipped). Returns whether the name exists.
    #[doc(hidden)]
    pub fn set_param(&mut self, name: &str, value: i32) -> bool {
        let ok = self.params.set(name, value);
        *self.reductions = Reductions::new(&self.params);
        *self.terms = eval::Terms::of(&self.params.eval);
        self.eval_cache.fill((0, 0));
        ok
    }

    /// Resize the transposition table (its content is lost).
    pub fn set_hash(&mut self, mb: usize) {
        self.tt = tt::Table::new(mb.max(1));
    }

    /// Bytes the transposition table holds.
    #[must_use]
    pub fn hash_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// Forget everything learnt (a new game).
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.ord.clear();
        self.classes.clear();
        self.eval_cache.fill((0, 0));
    }

    /// Search the position reached from `start` by `moves` (the game so far, used for
    /// repetition rulings) under `rules`. Stops at the first limit reached or when `stop` is
    /// set; `on_info` hears each completed iteration. Deterministic for a fixed `nodes` or
    /// `depth` limit (same inputs and a fresh engine give the same result).
    pub fn search(
        &mut self,
        start: &Position,
        moves: &[Move],
        rules: &Ruleset,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let tc = TimeControl::new(limits, MAX_DEPTH);
        let mut arb = Arbiter::new(start.clone(), *rules);
        let empty = |tc: &TimeControl| SearchResult {
            best: None,
            ponder: None,
            lines: Vec::new(),
            depth: 0,
            nodes: 0,
            time_ms: tc.elapsed_ms(),
        };
        for &m in moves {
            if arb.submit(m).is_err() {
                return empty(&tc);
            }
        }
        if arb.ruling().is_some() {
            return empty(&tc);
        }
        let mut root = root::root_moves(&arb);
        if root.is_empty() {
            return empty(&tc);
        }
        let lines = limits.multipv.max(1);
        self.tt.new_search();
        self.ord.age();
        let game = GameRules::new(&arb, std::mem::take(&mut self.classes));
        let kit = Kit {
            tt: self.tt.view(),
            ord: &mut self.ord,
            reductions: &self.reductions,
            terms: &self.terms,
            params: &self.params,
            eval_cache: &mut self.eval_cache,
            lists: &mut self.lists,
        };
        let mut s = Searcher::new(arb.position().clone(), kit, game, tc, stop);
        let depth = s.iterate(&mut root, lines, on_info);
        let nodes = s.nodes;
        let time_ms = s.tc.elapsed_ms();
        self.classes = s.rules.into_cache();
        SearchResult {
            best: root.first().map(|r| r.mv),
            ponder: root.first().and_then(|r| r.pv.get(1).copied()),
            lines: root::lines_of(&root, lines),
            depth,
            nodes,
            time_ms,
        }
    }
}
