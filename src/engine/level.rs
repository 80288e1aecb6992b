//! Playing levels for people, after lichess's ladder: each level searches with a node budget
//! (and, at the lowest, a depth cap), then picks among its best lines those within a
//! level-dependent margin of the best, weighted toward the better ones, reproducibly from a
//! seed. Low levels thus make the mistakes of a weaker player (a slightly worse plan, a missed
//! tactic) but never a random move, and never one that walks into a mate the best line avoids.
//! The top level is the full engine on its time. Below level 1 stand the anchors of
//! [`super::anchor`]; a match can also play any other settings (`level:` players) to try them
//! before they become a level.
//!
//! The levels are the members of a chain of matches, each member measured against the one
//! below it (docs/engine.md, "Calibrating the ladder"), and each carries its estimated rating:
//! [`GREEDY_RATING`] plus the chain's sum of Elo steps above `builtin:greedy`, rounded to 10.

use std::sync::atomic::AtomicBool;

use crate::arbiter::Ruleset;
use crate::core::{next_random, Position};

use super::{Clock, Engine, Limits, Score, SearchResult};

/// One level's search settings and noise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelSpec {
    /// The level (1..=[`TOP_LEVEL`]; 0 for settings typed on the command line, not a level of
    /// the ladder).
    pub level: u8,
    /// Nodes per move (`None`: only the time and depth limits, as the top level).
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

/// One level of the ladder: its settings and its estimated rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rung {
    /// Nodes per move (`None`: the top level, the full engine on [`TOP_MOVETIME_MS`]).
    pub nodes: Option<u64>,
    /// Depth cap, for the members the chain measured with one.
    pub depth: Option<u32>,
    /// Margin in centipawns (0: always the best line).
    pub margin_cp: i32,
    /// Lines compared.
    pub lines: usize,
    /// The Elo this member measured above the one below it (level 1: above `builtin:greedy`);
    /// the ratings ([`level_rating`]) add these up.
    pub step_elo: u16,
}

/// Where `builtin:greedy` (the move-picker that takes the biggest capture; a beginner beats
/// it) is pinned on our Glicko-2 scale. An assumption, not a measurement: games against the bot
/// are never rated, so nothing links the engines' Elo to the players' ratings. Every level's
/// rating ([`level_rating`]) is this plus the chain's sum of steps above greedy.
pub const GREEDY_RATING: u16 = 600;

/// The top level's time per move (no node or depth cap: the full engine).
pub const TOP_MOVETIME_MS: u64 = 1000;

/// The lower levels' time cap. They play by node budget, as they were measured; the cap only
/// keeps a loaded machine from making a level think long (the chain was played under it).
pub const LEVEL_CAP_MS: u64 = 1000;

/// The number of levels; the top one is the full engine.
pub const TOP_LEVEL: u8 = 20;

const fn rung(nodes: u64, depth: Option<u32>, margin_cp: i32, lines: usize, step_elo: u16) -> Rung {
    Rung {
        nodes: Some(nodes),
        depth,
        margin_cp,
        lines,
        step_elo,
    }
}

/// The ladder, level 1 first: the chain's members a..s, then the full engine
/// (docs/engine.md, "Calibrating the ladder", has each member's match).
pub const LADDER: [Rung; TOP_LEVEL as usize] = [
    rung(1_000, Some(1), 900, 30, 98),  // a, over greedy
    rung(1_000, Some(1), 700, 22, 176), // b, over a
    rung(1_000, Some(2), 550, 18, 207), // c
    rung(2_000, Some(3), 450, 15, 241), // d
    rung(4_000, None, 400, 14, 199),    // e
    rung(6_000, None, 355, 12, 199),    // f
    rung(8_000, None, 320, 11, 215),    // g
    rung(11_000, None, 305, 10, 215),   // h
    rung(15_000, None, 282, 9, 205),    // i
    rung(20_000, None, 252, 8, 205),    // j
    rung(28_000, None, 230, 7, 230),    // k
    rung(40_000, None, 195, 6, 196),    // l
    rung(55_000, None, 165, 5, 210),    // m
    rung(65_000, None, 160, 4, 191),    // n
    rung(90_000, None, 135, 3, 235),    // o
    rung(120_000, None, 120, 2, 183),   // p
    rung(180_000, None, 75, 2, 176),    // q
    rung(300_000, None, 30, 2, 207),    // r
    rung(500_000, None, 0, 1, 199),     // s
    Rung {
        nodes: None,
        depth: None,
        margin_cp: 0,
        lines: 1,
        step_elo: 285, // the full engine over s (a stand-in at 2,500,000 nodes)
    },
];

/// Each level's rating: [`GREEDY_RATING`] plus the steps up to it, rounded to 10.
const RATINGS: [u16; TOP_LEVEL as usize] = {
    let mut out = [0; TOP_LEVEL as usize];
    let mut sum = GREEDY_RATING as u32;
    let mut i = 0;
    while i < out.len() {
        sum += LADDER[i].step_elo as u32;
        out[i] = ((sum + 5) / 10 * 10) as u16;
        i += 1;
    }
    out
};

/// The level `level` clamped to the ladder.
fn clamped(level: u8) -> u8 {
    level.clamp(1, TOP_LEVEL)
}

/// The rung of `level` (clamped to 1..=[`TOP_LEVEL`]).
#[must_use]
pub fn rung_of(level: u8) -> Rung {
    LADDER[usize::from(clamped(level) - 1)]
}

/// The estimated rating of `level` (clamped), on our players' Glicko-2 scale.
#[must_use]
pub fn level_rating(level: u8) -> u16 {
    RATINGS[usize::from(clamped(level) - 1)]
}

/// The settings of `level` (clamped to 1..=[`TOP_LEVEL`]).
#[must_use]
pub fn level_spec(level: u8) -> LevelSpec {
    let level = clamped(level);
    let r = rung_of(level);
    LevelSpec {
        level,
        nodes: r.nodes,
        movetime_ms: if r.nodes.is_some() {
            LEVEL_CAP_MS
        } else {
            TOP_MOVETIME_MS
        },
        depth: r.depth,
        margin_cp: r.margin_cp,
        multipv: r.lines,
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
        for l in 1..TOP_LEVEL {
            let (a, b) = (level_spec(l), level_spec(l + 1));
            assert!(a.margin_cp >= b.margin_cp, "{l}");
            assert!(a.multipv >= b.multipv, "{l}");
            match (a.nodes, b.nodes) {
                (Some(x), Some(y)) => assert!(x <= y, "{l}"),
                (Some(_), None) => assert_eq!(l + 1, TOP_LEVEL),
                _ => panic!("only the top level has no node budget ({l})"),
            }
            // Depth caps only at the bottom, never shrinking upward.
            if b.depth.is_some() {
                assert!(a.depth.is_some() && a.depth <= b.depth, "{l}");
            }
            assert!(a != b, "two levels with the same settings ({l})");
        }
        assert_eq!(level_spec(0).level, 1);
        assert_eq!(level_spec(200).level, TOP_LEVEL);
        // The top level is the full engine on its time.
        let top = level_spec(TOP_LEVEL);
        assert_eq!((top.nodes, top.depth), (None, None));
        assert_eq!((top.margin_cp, top.multipv), (0, 1));
        assert_eq!(top.movetime_ms, 1000);
        // Every lower level keeps a time cap, so a loaded machine cannot make it hang.
        assert!((1..TOP_LEVEL).all(|l| level_spec(l).movetime_ms <= LEVEL_CAP_MS));
    }

    #[test]
    fn ratings_rise_by_the_steps_the_chain_measured() {
        // Level 1 sits above greedy (pinned at GREEDY_RATING) by member a's +98; each rating
        // rises by a step of the chain, listed here so that a change of the ladder shows.
        assert_eq!(level_rating(1), 700);
        assert!(level_rating(1) > GREEDY_RATING);
        let steps: Vec<u16> = (1..TOP_LEVEL)
            .map(|l| level_rating(l + 1) - level_rating(l))
            .collect();
        assert_eq!(
            steps,
            [
                170, 210, 240, 200, 200, 220, 210, 210, 200, 230, 200, 210, 190, 230, 190, 170,
                210, 200, 280
            ]
        );
        for l in 1..TOP_LEVEL {
            assert!(
                level_rating(l) < level_rating(l + 1),
                "level {l} to {}",
                l + 1
            );
        }
        assert!((1..=TOP_LEVEL).all(|l| level_rating(l).is_multiple_of(10)));
        assert_eq!(level_rating(0), level_rating(1));
        assert_eq!(level_rating(99), level_rating(TOP_LEVEL));
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
        // The top level has no margin: always the best line.
        assert!((0..50).all(|s| choose(&scores, 0, s) == 0));
        // A line that gets mated is never chosen while the best is not mated.
        assert!((0..200).all(|s| choose(&scores, 100_000, s) != 3));
    }
}
