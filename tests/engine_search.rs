//! The built-in engine on positions with known answers: mates, hanging pieces, determinism,
//! and the arbiter's rulings honoured at the root and inside the search.

use std::sync::atomic::AtomicBool;

use xiangqi_bot::arbiter::{Ruleset, RulesetName};
use xiangqi_bot::core::{Move, Position};
use xiangqi_bot::engine::{Engine, Limits, Score, SearchResult};

fn mv(s: &str) -> Move {
    Move::parse_iccs(s).unwrap_or_else(|| panic!("bad move {s}"))
}

fn moves(s: &str) -> Vec<Move> {
    s.split_whitespace().map(mv).collect()
}

fn search(fen: &str, played: &str, rules: RulesetName, limits: Limits) -> SearchResult {
    let start = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let stop = AtomicBool::new(false);
    Engine::new(4).search(
        &start,
        &moves(played),
        &Ruleset::preset(rules),
        &limits,
        &stop,
        &mut |_| {},
    )
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn mate_in_one_is_found_and_scored_as_mate() {
    let r = search(
        "4k4/R8/9/9/9/9/9/9/9/R2K5 w",
        "",
        RulesetName::Official,
        depth(3),
    );
    // a0a9 checkmates; a8f8 stalemates, which wins as well in Xiangqi.
    let best = r.best.unwrap();
    assert!([mv("a0a9"), mv("a8f8")].contains(&best), "{best}");
    assert_eq!(r.lines[0].score, Score::Mate(1));
    let mut after = Position::from_fen("4k4/R8/9/9/9/9/9/9/9/R2K5 w").unwrap();
    after.play(best).unwrap();
    assert!(after.legal_moves().is_empty());
}

#[test]
fn a_hanging_chariot_is_taken() {
    let r = search(
        "3k5/9/9/9/3r5/9/2N6/9/9/4K4 w",
        "",
        RulesetName::Official,
        depth(4),
    );
    assert_eq!(r.best, Some(mv("c3d5")));
}

#[test]
fn a_fixed_node_budget_gives_the_same_result_every_time() {
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let fen = "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w";
    let a = search(fen, "", RulesetName::Official, limits.clone());
    let b = search(fen, "", RulesetName::Official, limits);
    assert_eq!(a.best, b.best);
    assert_eq!(a.lines, b.lines);
    assert_eq!(a.nodes, b.nodes);
}

/// Red checks with its chariot on h8/h9 and Black's general steps f9/f8 in answer: after these
/// plies, h8h9 would bring the position about a third time, a perpetual check that the
/// arbiter forfeits under every ruleset with a repetition rule.
const PERPETUAL_FEN: &str = "c2a1k1R1/2c1a4/b6P1/8p/9/9/9/9/4K4/9 b";
const PERPETUAL_MOVES: &str = "f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 f8f9";

#[test]
fn a_perpetual_check_that_would_lose_is_not_repeated() {
    for rules in [
        RulesetName::Official,
        RulesetName::Asian,
        RulesetName::Vietnam,
        RulesetName::Casual,
    ] {
        let r = search(PERPETUAL_FEN, PERPETUAL_MOVES, rules, depth(4));
        assert_ne!(r.best, Some(mv("h8h9")), "{rules:?}");
        assert!(r.best.is_some());
    }
}

#[test]
fn the_opponents_foul_is_taken_as_a_win() {
    // Black to move: stepping back to f9 completes the third occurrence of Red's perpetual check.
    let r = search(
        PERPETUAL_FEN,
        "f9f8 h9h8 f8f9 h8h9 f9f8 h9h8",
        RulesetName::Asian,
        depth(3),
    );
    assert_eq!(r.best, Some(mv("f8f9")));
    assert_eq!(r.lines[0].score, Score::Mate(1));
}
