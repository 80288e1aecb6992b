//! The openings generator: balanced match openings grown from the named openings, chosen and
//! checked by our own engine.
//!
//! From each named opening the engine takes its best few moves (MultiPV at a fixed depth) that
//! stay within `margin` of its best and within `max_eval` of equal, and from each of those the
//! best few replies the same way, so every generated opening is its named opening and two more
//! plies (the same side to move, the name kept with the two plies added). Each result is then
//! searched once more from scratch, and kept only if its score for the side to move is within
//! `max_eval` centipawns of equal (no mate), and its position is new (no two openings reach
//! the same position). The openings are taken in turns, one of each named opening per round,
//! so that a match that plays the first N uses as many families as it can.
//!
//! Everything is a fixed-depth search of a fresh engine, so the same inputs give the same file.

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use crate::arbiter::Ruleset;
use crate::core::{Move, Position};
use crate::engine::{Engine, Limits, Score};

use super::matches::Opening;

/// How openings are generated.
#[derive(Clone, Debug)]
pub struct BookSettings {
    /// Openings wanted (fewer come out when the named ones do not give enough).
    pub count: usize,
    /// Search depth of every choice and check.
    pub depth: u32,
    /// Moves considered at each of the two plies (MultiPV).
    pub width: usize,
    /// A move is considered only within this many centipawns of the best.
    pub margin: i32,
    /// A generated opening is kept only within this many centipawns of equal.
    pub max_eval: i32,
    /// Transposition table of the engine, in megabytes.
    pub hash_mb: usize,
}

impl Default for BookSettings {
    fn default() -> BookSettings {
        BookSettings {
            count: 200,
            depth: 8,
            width: 4,
            margin: 60,
            max_eval: 80,
            hash_mb: 16,
        }
    }
}

/// One generated opening: the moves, the name, and its check's score for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookLine {
    /// The opening with its moves (its name: the named opening's, with the two plies added).
    pub opening: Opening,
    /// The checking search's score, in centipawns for the side to move.
    pub eval: i32,
}

impl BookLine {
    /// The line of an openings file: `moves | English name (+m1 m2) | 中文名 (+m1 m2)`.
    #[must_use]
    pub fn to_line(&self) -> String {
        let moves: Vec<String> = self.opening.moves.iter().map(Move::to_string).collect();
        let n = moves.len();
        let added = moves[n.saturating_sub(2)..].join(" ");
        let names: Vec<String> = self
            .opening
            .name
            .split(" / ")
            .map(|part| format!("{part} (+{added})"))
            .collect();
        format!("{} | {}", moves.join(" "), names.join(" | "))
    }
}

struct Searcher {
    engine: Engine,
    limits: Limits,
    stop: AtomicBool,
    rules: Ruleset,
}

impl Searcher {
    /// The lines (move, score for the side to move) of up to `width` moves after `moves`.
    fn lines(&mut self, moves: &[Move], width: usize) -> Vec<(Move, Score)> {
        self.engine.new_game();
        let limits = Limits {
            multipv: width,
            ..self.limits.clone()
        };
        let r = self.engine.search(
            &Position::startpos(),
            moves,
            &self.rules,
            &limits,
            &self.stop,
            &mut |_| {},
        );
        r.lines
            .iter()
            .filter_map(|l| Some((*l.pv.first()?, l.score)))
            .collect()
    }
}

fn cp(score: Score) -> Option<i32> {
    match score {
        Score::Cp(c) => Some(c),
        Score::Mate(_) => None,
    }
}

/// The moves among `lines` worth playing: within `margin` of the best and `max_eval` of equal.
fn good(lines: &[(Move, Score)], s: &BookSettings) -> Vec<Move> {
    let Some(best) = lines.first().and_then(|l| cp(l.1)) else {
        return Vec::new();
    };
    lines
        .iter()
        .filter(|(_, score)| {
            cp(*score).is_some_and(|c| best - c <= s.margin && c.abs() <= s.max_eval)
        })
        .map(|(m, _)| *m)
        .collect()
}

/// Generate openings from `named` (see the module's description); `progress` hears each
/// named opening as it is expanded (its index) and may print.
#[must_use]
pub fn generate(
    named: &[Opening],
    settings: &BookSettings,
    progress: &mut dyn FnMut(usize),
) -> Vec<BookLine> {
    let mut searcher = Searcher {
        engine: Engine::new(settings.hash_mb.max(1)),
        limits: Limits {
            depth: Some(settings.depth.max(1)),
            ..Limits::default()
        },
        stop: AtomicBool::new(false),
        rules: Ruleset::default(),
    };
    // Each named opening's candidates, in the engine's order of preference.
    let mut families: Vec<Vec<Vec<Move>>> = Vec::new();
    for (i, o) in named.iter().enumerate() {
        progress(i);
        let mut family = Vec::new();
        for m1 in good(&searcher.lines(&o.moves, settings.width), settings) {
            let mut after = o.moves.clone();
            after.push(m1);
            for m2 in good(&searcher.lines(&after, settings.width), settings) {
                let mut line = after.clone();
                line.push(m2);
                family.push(line);
            }
        }
        families.push(family);
    }
    // Round-robin over the families, checking each candidate once more.
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let longest = families.iter().map(Vec::len).max().unwrap_or(0);
    'rounds: for round in 0..longest {
        for (f, family) in families.iter().enumerate() {
            if out.len() >= settings.count {
                break 'rounds;
            }
            let Some(moves) = family.get(round) else {
                continue;
            };
            let mut pos = Position::startpos();
            if moves.iter().any(|&m| pos.play(m).is_err()) || !seen.insert(pos.hash()) {
                continue;
            }
            let Some(eval) = searcher.lines(moves, 1).first().and_then(|l| cp(l.1)) else {
                continue;
            };
            if eval.abs() <= settings.max_eval {
                out.push(BookLine {
                    opening: Opening {
                        moves: moves.clone(),
                        name: named[f].name.clone(),
                    },
                    eval,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uci::matches::parse_openings;

    #[test]
    fn generated_openings_extend_a_named_one_and_are_balanced() {
        let named = parse_openings(
            "h2e2 h9g7 h0g2 b9c7 i0h0 i9h9 | Central cannon vs screen horses | 中炮对屏风马\n\
             c3c4 | Pawn opening | 仙人指路",
        )
        .expect("openings");
        let settings = BookSettings {
            count: 6,
            depth: 3,
            width: 3,
            margin: 200,
            max_eval: 150,
            hash_mb: 1,
        };
        let mut seen = Vec::new();
        let book = generate(&named, &settings, &mut |i| seen.push(i));
        assert_eq!(seen, [0, 1]);
        assert!(!book.is_empty() && book.len() <= 6, "{book:?}");
        // Taken in turns: the first two come from the two families.
        assert_eq!(book[0].opening.name, named[0].name);
        assert_eq!(book[1].opening.name, named[1].name);
        let mut positions = HashSet::new();
        for b in &book {
            let base = named
                .iter()
                .find(|n| n.name == b.opening.name)
                .expect("family");
            assert_eq!(b.opening.moves.len(), base.moves.len() + 2, "{b:?}");
            assert_eq!(b.opening.moves[..base.moves.len()], base.moves[..]);
            assert!(b.eval.abs() <= 150, "{b:?}");
            let mut p = Position::startpos();
            b.opening
                .moves
                .iter()
                .for_each(|&m| p.play(m).expect("legal"));
            assert!(positions.insert(p.hash()), "a position twice: {b:?}");
            // The line reads back as the same opening.
            let back = parse_openings(&b.to_line()).expect("reads back");
            assert_eq!(back[0].moves, b.opening.moves);
            assert!(back[0].name.starts_with("Central cannon") || back[0].name.starts_with("Pawn"));
            assert!(back[0].name.contains(" (+"), "{}", back[0].name);
        }
    }
}
