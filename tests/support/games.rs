//! Long scripted games, generated with the arbiter so scripts stay short: quiet moves that
//! never bring a position about a third time, and a soldier step every so often.

#![allow(dead_code)]

use std::collections::HashMap;

use xiangqi_bot::arbiter::{Arbiter, Ruleset, RulesetName};
use xiangqi_bot::core::{Move, Position, Role};

/// Both sides can shuffle for hundreds of plies; each has two crossed soldiers.
pub const LONG: &str = "3ak4/4a4/4b1n2/P7P/9/9/p7p/4B4/4A4/3AK1N2 w";

/// Moves from `fen` under `rules` until the arbiter rules (included) or `max` plies: quiet
/// moves to positions seen least, and a crossed soldier's step every `every` plies.
pub fn quiet_game(fen: &str, rules: RulesetName, every: usize, max: usize) -> Vec<Move> {
    let mut a = Arbiter::new(
        Position::from_fen(fen).expect("fen"),
        Ruleset::preset(rules),
    );
    let mut seen: HashMap<u64, u32> = HashMap::new();
    seen.insert(a.position().hash(), 1);
    let mut out = Vec::new();
    while out.len() < max && a.ruling().is_none() {
        let pos = a.position().clone();
        let mut cands: Vec<(u32, Move)> = pos
            .legal_moves()
            .iter()
            .map(|&m| (seen.get(&pos.after(m).hash()).copied().unwrap_or(0), m))
            .filter(|&(n, _)| n < 2)
            .collect();
        cands.sort_by_key(|&(n, _)| n);
        let quiet = |m: &Move| {
            pos.piece_at(m.to).is_none()
                && !pos.after(*m).is_check()
                && pos
                    .piece_at(m.from)
                    .is_some_and(|p| p.role != Role::Soldier)
        };
        let step = |m: &Move| {
            pos.piece_at(m.from)
                .is_some_and(|p| p.role == Role::Soldier)
                && m.from.file() == m.to.file()
                && pos.piece_at(m.to).is_none()
                && !pos.after(*m).is_check()
        };
        let want_step = every > 0 && out.len() % every >= every.saturating_sub(2);
        let pick = cands
            .iter()
            .map(|&(_, m)| m)
            .find(|m| want_step && step(m))
            .or_else(|| cands.iter().map(|&(_, m)| m).find(quiet));
        let Some(m) = pick else { break };
        a.submit(m).expect("policy moves are legal");
        *seen.entry(a.position().hash()).or_insert(0) += 1;
        out.push(m);
    }
    out
}

/// The board part of the FEN after the first `n` of `moves` (ICCS) from the start.
pub fn board_after(moves: &[String], n: usize) -> String {
    let mut p = Position::startpos();
    for m in &moves[..n] {
        p.play(Move::parse_iccs(m).expect("iccs")).expect("legal");
    }
    p.board_fen()
}
