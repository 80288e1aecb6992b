//! The game's rules inside the search, in agreement with the arbiter.
//!
//! Every position of the game so far and of the current search path has an index. At each
//! node the search asks [`GameRules::tree_score`] whether the position ends the game by a rule
//! the arbiter applies:
//! - a repetition (the position already stood, same side to move, with no capture since): the
//!   plies of the cycle are classified with [`crate::arbiter::classify`] (the game's own plies
//!   as the arbiter recorded them) and judged by the arbiter's `conduct` and `verdict` for the
//!   ruleset's table: a draw, or a loss for the side whose conduct the ruleset forfeits
//!   (perpetual check, perpetual chase, table O's attacking side). A ruleset without a
//!   repetition ruling scores it as a draw (nothing is gained by going round);
//! - a run of consecutive checks beyond the ruleset's count rule: a loss for the checker;
//! - the no-progress count and the game-length cap: a draw.
//!
//! Classifying is costly, but repetitions are rare and each classified ply is cached by
//! (position, move).

use std::collections::HashMap;

use crate::arbiter::{classify, conduct, verdict, Arbiter, Outcome, PlyClass, Ruleset};
use crate::core::{Color, Move, PieceId, Position, Undo};

use super::eval::Base;
use super::score::{mate_in, mated_in, DRAW};
use super::tt::pack;

/// What the search keeps per ply.
#[derive(Copy, Clone, Default)]
pub(crate) struct Frame {
    /// The ply that led here (`None` at the root and after a null move).
    pub path: PathPly,
    /// Cell code of the piece that moved there.
    pub moved: u8,
    /// Whether the side to move is in check here.
    pub in_check: bool,
    /// Static evaluation here (meaningless when in check).
    pub eval: i32,
    /// Material and placement sums here.
    pub base: Base,
}

/// One ply of the search path: the move and what undoes it (`None` for a null move).
pub(crate) type PathPly = Option<(Move, Undo)>;

/// Classified plies kept between searches, bounded.
pub(crate) type ClassCache = HashMap<(u64, u16), PlyClass>;
const CACHE_LIMIT: usize = 50_000;

/// What the rules need of one position of the game or the search path.
#[derive(Copy, Clone)]
struct Reached {
    /// The position's hash.
    key: u64,
    /// Index of the latest position at or before this one reached by a capture or a null
    /// move: no repetition reaches back past it.
    irreversible: u32,
    /// Plies counted toward the no-progress draw here.
    quiet_plies: u32,
    /// Whether the ply leading here gave check.
    check: bool,
}

/// What the search knows of the game's rules and history.
pub(crate) struct GameRules {
    rules: Ruleset,
    /// Each position of the game and the path (index 0: the game's start), one record each so
    /// that a ply of the search writes one.
    plies: Vec<Reached>,
    /// The arbiter's classes of the game's plies (ply `i` leads from position `i`).
    history: Vec<PlyClass>,
    /// Index of the root position.
    root: usize,
    /// Smallest run of checks any piece count may reach before a count rule forfeits.
    check_limit: Option<u32>,
    cache: ClassCache,
}

impl GameRules {
    /// The rules context of the game the arbiter holds (its current position is the root).
    pub(crate) fn new(arb: &Arbiter, cache: ClassCache) -> GameRules {
        let rules = *arb.rules();
        let plies = arb.plies();
        let mut g = GameRules {
            rules,
            plies: Vec::with_capacity(plies.len() + 160),
            history: plies.iter().map(|p| p.class.clone()).collect(),
            root: plies.len(),
            check_limit: (1..=3).filter_map(|n| rules.checks.allowed(n)).min(),
            cache,
        };
        g.plies.push(Reached {
            key: arb.start().hash(),
            irreversible: 0,
            quiet_plies: arb.start().halfmoves(),
            check: arb.start().is_check(),
        });
        for (i, p) in plies.iter().enumerate() {
            let key = arb.position_before(i + 1).map_or(0, Position::hash);
            g.push(
                key,
                p.facts.capture,
                p.class.is_check(),
                p.facts.soldier_advance,
            );
        }
        g
    }

    /// Give back the classification cache (bounded) for the next search.
    pub(crate) fn into_cache(mut self) -> ClassCache {
        if self.cache.len() > CACHE_LIMIT {
            self.cache.clear();
        }
        self.cache
    }

    /// Record a ply of the search path (or of the game).
    #[inline]
    pub(crate) fn push(&mut self, key: u64, capture: bool, check: bool, soldier_advance: bool) {
        let n = self.plies.len() as u32;
        let progress = capture
            || (soldier_advance
                && self
                    .rules
                    .no_progress
                    .is_some_and(|r| r.soldier_advance_is_progress));
        let last = self.plies.last().copied();
        let prev_quiet = last.map_or(0, |r| r.quiet_plies);
        self.plies.push(Reached {
            key,
            irreversible: if capture {
                n
            } else {
                last.map_or(0, |r| r.irreversible)
            },
            quiet_plies: if progress { 0 } else { prev_quiet + 1 },
            check,
        });
    }

    /// Record a null move (it breaks every cycle and every run of checks).
    #[inline]
    pub(crate) fn push_null(&mut self, key: u64) {
        let n = self.plies.len() as u32;
        let q = self.plies.last().map_or(0, |r| r.quiet_plies);
        self.plies.push(Reached {
            key,
            irreversible: n,
            quiet_plies: q,
            check: false,
        });
    }

    /// Take back the last [`push`](Self::push) or [`push_null`](Self::push_null).
    #[inline]
    pub(crate) fn pop(&mut self) {
        self.plies.pop();
    }

    /// The score of the current position (`pos`, `ply` plies below the root, reached by
    /// `path`) when a rule ends the game there, from the side to move's view.
    pub(crate) fn tree_score(&mut self, pos: &Position, ply: usize, path: &[Frame]) -> Option<i32> {
        let n = self.plies.len() - 1;
        let stm = pos.turn();
        let score_for = |outcome: Outcome| match outcome.loser() {
            None => DRAW,
            Some(c) if c == stm => mated_in(ply),
            Some(_) => mate_in(ply),
        };
        // A repetition.
        let floor = self.plies[n].irreversible as usize;
        if n >= floor + 4 {
            let key = self.plies[n].key;
            let mut i = n - 4;
            loop {
                if self.plies[i].key == key {
                    return Some(self.repetition(pos, i, n, path).map_or(DRAW, score_for));
                }
                if i < floor + 2 {
                    break;
                }
                i -= 2;
            }
        }
        // A run of checks beyond the count rule (only the side that just moved can break it).
        if let Some(limit) = self.check_limit {
            let mut run = 0;
            let mut i = n;
            while i > 0 && self.plies[i].check {
                run += 1;
                if i < 2 {
                    break;
                }
                i -= 2;
            }
            if run > limit && self.check_foul(pos, n, run, path) {
                return Some(mate_in(ply)); // the checker (not the side to move) loses
            }
        }
        if let Some(rule) = self.rules.no_progress {
            if self.plies[n].quiet_plies >= rule.plies {
                return Some(DRAW);
            }
        }
        if self.rules.move_cap.is_some_and(|cap| n >= cap as usize) {
            return Some(DRAW);
        }
        None
    }

    /// The positions before each path ply from index `from` to the current `n` (inclusive),
    /// rebuilt by taking the path's moves back from `pos`.
    fn rebuild(&self, pos: &Position, from: usize, n: usize, path: &[Frame]) -> Vec<Position> {
        let from = from.max(self.root);
        let mut out = Vec::with_capacity(n - from + 1);
        let mut p = pos.clone();
        out.push(p.clone());
        for k in (from..n).rev() {
            if let Some(Some((m, u))) = path.get(k - self.root).map(|f| f.path) {
                p.unmake(m, u);
            }
            out.push(p.clone());
        }
        out.reverse();
        out
    }

    /// The class of ply `j` (from position `j`), for a game ply or a path ply.
    fn class_of(
        &mut self,
        j: usize,
        positions: &[Position],
        base: usize,
        path: &[Frame],
    ) -> PlyClass {
        if j < self.root {
            return self.history[j].clone();
        }
        let Some(Some((m, _))) = path.get(j - self.root).map(|f| f.path) else {
            return PlyClass::Idle;
        };
        let before = &positions[j - base];
        let key = (before.hash(), pack(m));
        if let Some(c) = self.cache.get(&key) {
            return c.clone();
        }
        let after = &positions[j + 1 - base];
        let c = classify(before, m, after, self.rules.soldier_chases);
        self.cache.insert(key, c.clone());
        c
    }

    /// The arbiter's outcome for the cycle of plies `start..n` (`None`: no repetition ruling in
    /// this ruleset, which the search scores as a draw).
    fn repetition(
        &mut self,
        pos: &Position,
        start: usize,
        n: usize,
        path: &[Frame],
    ) -> Option<Outcome> {
        let table = self.rules.repetition?;
        let positions = self.rebuild(pos, start, n, path);
        let base = start.max(self.root);
        let stm = pos.turn();
        let mut cycle: Vec<(Color, PlyClass)> = Vec::with_capacity(n - start);
        for j in start..n {
            let side = if (n - j).is_multiple_of(2) {
                stm
            } else {
                stm.other()
            };
            cycle.push((side, self.class_of(j, &positions, base, path)));
        }
        let red = conduct(cycle.iter().map(|(c, k)| (*c, k)), Color::Red);
        let black = conduct(cycle.iter().map(|(c, k)| (*c, k)), Color::Black);
        Some(verdict(table, &red, &black).0)
    }

    /// Whether the run of `run` checks ending at position `n` breaks the count rule, given the
    /// distinct pieces that gave them.
    fn check_foul(&mut self, pos: &Position, n: usize, run: u32, path: &[Frame]) -> bool {
        let first = n + 2 - 2 * run as usize; // index of the position after the run's first check
        let positions = self.rebuild(pos, first - 1, n, path);
        let base = (first - 1).max(self.root);
        let mut pieces: Vec<PieceId> = Vec::new();
        let mut i = first;
        while i <= n {
            let ids: Vec<PieceId> = if i - 1 < self.root {
                match &self.history[i - 1] {
                    PlyClass::Check { checkers, .. } => checkers.clone(),
                    _ => Vec::new(),
                }
            } else {
                let after = &positions[i - base];
                after
                    .checkers()
                    .into_iter()
                    .filter_map(|s| after.id_at(s))
                    .collect()
            };
            for id in ids {
                if !pieces.contains(&id) {
                    pieces.push(id);
                }
            }
            i += 2;
        }
        self.rules
            .checks
            .allowed(pieces.len())
            .is_some_and(|limit| run > limit)
    }
}
