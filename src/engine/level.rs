//! Playing levels 1–8 for people, after lichess's ladder: each level searches with a time per
//! move and a depth cap, then picks among its best lines those within a level-dependent margin
//! of the best, weighted toward the better ones, reproducibly from a seed. Low levels thus make
//! the mistakes of a weaker player (a slightly worse plan, a missed tactic) but never a random
//! move, and never one that walks into a mate the best line avoids. Below level 1 stand the
//! anchors of [`super::anchor`]; a match can also play any other settings (`level:` players),
//! such as a node budget, to calibrate the ladder (docs/engine.md, "Calibrating the ladder").

use std::sync::atomic::AtomicBool;

use crate::arbiter::Ruleset;
use crate::core::{next_random, Position};

use super::{Clock, Engine, Limits, Score, SearchResult};

/// One level's search settings and noise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelSpec {
    /// The level (1..=8; 0 for settings typed on the command line, not a level of the ladder).
    pub level: u8,
    /// Nodes per move (`None`: only the time and depth limits, as every level of the ladder).
    pub nodes: Option<u64>,
    /// Time per move (with a node budget, a cap).
    pub movetime_ms: u64,
    /// Depth cap (`None`: only the other limits).
    pub depth: Option<u32>,
    /// Lines within this many centipawns of the best may be chosen.
    pub margin_cp: i32,
    /// Lines searched to choose from.
    pub multipv: usize,
}

/// The ladder: (time per move, depth cap, margin, lines).
const LADDER: [(u64, Option<u32>, i32, usize); 8] = [
    (50, Some(1), 300, 8),
    (100, Some(2), 200, 7),
    (150, Some(3), 140, 6),
    (200, Some(4), 90, 5),
    (300, Some(6), 55, 4),
    (400, Some(8), 30, 3),
    (500, Some(12), 12, 2),
    (1000, None, 0, 1),
];

/// The settings of `level` (clamped to 1..=8).
#[must_use]
pub fn level_spec(level: u8) -> LevelSpec {
    let level = level.clamp(1, 8);
    let (movetime_ms, depth, margin_cp, multipv) = LADDER[usize::from(level - 1)];
    LevelSpec {
        level,
        nodes: None,
        movetime_ms,
        depth,
        margin_cp,
        multipv,
    }
}

/// A score on one scale for comparing lines (mates beyond every centipawn score).
fn comparable(s: Score) -> i32 {
    match s {
        Score::Cp(c) => c,
        Score::Mate(n) if n > 0 => 100_000 - n,
        Score::Mate(n) => -100_000 - n,
    }
}

/// Which of `scores` (best first) a level with `margin` plays, drawn with `seed`: a line within
/// the margin, with weight falling with the square of what it gives away.
pub(crate) fn choose(scores: &[Score], margin: i32, seed: u64) -> usize {
    let Some(&best) = scores.first() else {
        return 0;
    };
    let best = comparable(best);
    let mated = |s: i32| s <= -100_000 + 1000;
    let mut weights = Vec::with_capacity(scores.len());
    for &s in scores {
        let s = comparable(s);
        let loss = best - s;
        let ok = margin > 0 && loss <= margin && (mated(best) || !mated(s));
        let w = if ok {
            let x = f64::from(margin - loss + 1) / f64::from(margin + 1);
            x * x
        } else {
            0.0
        };
        weights.push(w);
    }
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return 0;
    }
    let mut state = seed;
    let r = (next_random(&mut state) >> 11) as f64 / (1u64 << 53) as f64 * total;
    let mut acc = 0.0;
    for (i, w) in weights.iter().enumerate() {
        acc += w;
        if r < acc {
            return i;
        }
    }
    0
}

/// Play a move at `level`: search with the level's limits (the clock, when given, caps the
/// time further), then choose among the lines with the level's noise, reproducibly from `seed`.
#[allow(clippy::too_many_arguments)] // the shared engine API: a game, a level, a clock, a seed
pub fn play_level(
    engine: &mut Engine,
    start: &Position,
    moves: &[crate::core::Move],
    rules: &Ruleset,
    level: u8,
    clock: Option<Clock>,
    seed: u64,
    stop: &AtomicBool,
) -> SearchResult {
    let spec = level_spec(level);
    play_spec(engine, start, moves, rules, &spec, clock, seed, stop)
}

/// Play a move with `spec`'s limits and noise: [`play_level`] for any settings, such as those
/// a match tries before they become a level.
#[allow(clippy::too_many_arguments)] // as play_level, with the settings instead of the level
pub fn play_spec(
    engine: &mut Engine,
    start: &Position,
    moves: &[crate::core::Move],
    rules: &Ruleset,
    spec: &LevelSpec,
    clock: Option<Clock>,
    seed: u64,
    stop: &AtomicBool,
) -> SearchResult {
    let limits = Limits {
        depth: spec.depth,
        nodes: spec.nodes,
        movetime_ms: Some(spec.movetime_ms),
        clock,
        multipv: spec.multipv,
        ..Limits::default()
    };
    let mut result = engine.search(start, moves, rules, &limits, stop, &mut |_| {});
    let scores: Vec<Score> = result.lines.iter().map(|l| l.score).collect();
    let pick = choose(&scores, spec.margin_cp, seed);
    if let Some(line) = result.lines.get(pick) {
        result.best = line.pv.first().copied();
        result.ponder = line.pv.get(1).copied();
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ladder_gets_stronger() {
        for l in 1..8u8 {
            let (a, b) = (level_spec(l), level_spec(l + 1));
            assert!(a.movetime_ms < b.movetime_ms);
            assert!(a.margin_cp > b.margin_cp);
            assert!(a.multipv >= b.multipv);
            assert!(b.depth.is_none() || a.depth < b.depth);
        }
        assert_eq!(level_spec(0).level, 1);
        assert_eq!(level_spec(200).level, 8);
        assert_eq!(level_spec(8).margin_cp, 0);
        // Level 8 is the full engine on its time.
        assert!((1..=8).all(|l| level_spec(l).nodes.is_none()));
        assert_eq!(level_spec(8).depth, None);
        assert_eq!(level_spec(8).movetime_ms, 1000);
    }

    #[test]
    fn choices_stay_within_the_margin_and_follow_the_seed() {
        let scores = [
            Score::Cp(50),
            Score::Cp(30),
            Score::Cp(-100),
            Score::Mate(-3),
        ];
        let mut seen = [0; 4];
        for seed in 0..400 {
            seen[choose(&scores, 60, seed)] += 1;
        }
        assert!(seen[0] > seen[1] && seen[1] > 0, "{seen:?}");
        assert_eq!((seen[2], seen[3]), (0, 0), "{seen:?}");
        assert_eq!(choose(&scores, 60, 7), choose(&scores, 60, 7));
        // Level 8 has no margin: always the best line.
        assert!((0..50).all(|s| choose(&scores, 0, s) == 0));
        // A line that gets mated is never chosen while the best is not mated.
        assert!((0..200).all(|s| choose(&scores, 100_000, s) != 3));
    }
}
