//! `xiangqi-bot bench`: a fixed set of positions searched to a fixed depth with a fresh table.
//! The total node count is the search's signature: it changes only when the search does.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::arbiter::Ruleset;
use crate::core::{Move, Position};

use super::{Engine, Limits};

/// Depth the bench searches by default.
pub const BENCH_DEPTH: u32 = 10;

/// The bench positions: a FEN and moves played from it (openings are given as moves from the
/// start, so the game history is real).
const POSITIONS: [(&str, &str); 10] = [
    (crate::core::START_FEN, ""),
    (crate::core::START_FEN, "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7"),
    (crate::core::START_FEN, "c3c4 b9c7 b0c2 g6g5 h2i2 h9g7"),
    (
        crate::core::START_FEN,
        "b2e2 b7e7 b0c2 b9c7 a0b0 a9b9 h0g2 h9g7",
    ),
    (
        "r1ea1a3/4kh3/2h1e4/pHp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2EAKAE2 w - - 0 1",
        "",
    ),
    (
        "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
        "",
    ),
    (
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        "",
    ),
    (
        "1ceak4/9/h2a5/2p1p3p/5cp2/2h2H3/6PCP/3AE4/2C6/3A1K1H1 w - - 0 1",
        "",
    ),
    ("5a3/3k5/3aR4/9/5r3/5h3/9/3A1A3/5K3/2EC2E2 w - - 0 1", ""),
    ("2e1ka3/9/e3H4/4h4/9/9/9/4C4/2p6/2EK5 w - - 0 1", ""),
];

/// What a bench run measured.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Total nodes: the signature.
    pub nodes: u64,
    /// Total time.
    pub time_ms: u64,
    /// Nodes per second.
    pub nps: u64,
}

/// Search every bench position to `depth` (one thread, 16 MB, a fresh table for each).
#[must_use]
pub fn bench(depth: u32) -> BenchReport {
    bench_with(&mut Engine::new(16), depth)
}

/// [`bench`] with a given engine (its settings; its tables are cleared for each position).
#[doc(hidden)]
#[must_use]
pub fn bench_with(engine: &mut Engine, depth: u32) -> BenchReport {
    let stop = AtomicBool::new(false);
    let rules = Ruleset::default();
    let limits = Limits {
        depth: Some(depth.max(1)),
        ..Limits::default()
    };
    let mut nodes = 0;
    // Only the searches are timed: clearing the tables between positions is not search.
    let mut elapsed = Duration::ZERO;
    for (fen, moves) in POSITIONS {
        let Ok(start) = Position::from_fen(fen) else {
            continue;
        };
        let moves: Vec<Move> = moves
            .split_whitespace()
            .filter_map(Move::parse_iccs)
            .collect();
        engine.new_game();
        let t0 = Instant::now();
        let r = engine.search(&start, &moves, &rules, &limits, &stop, &mut |_| {});
        elapsed += t0.elapsed();
        nodes += r.nodes;
    }
    let time_ms = u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX);
    let micros = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX);
    BenchReport {
        nodes,
        time_ms,
        nps: nodes.saturating_mul(1_000_000) / micros.max(1),
    }
}
