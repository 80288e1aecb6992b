//! The built-in engine on positions with known answers: mates, hanging pieces, determinism,
//! and the arbiter's rulings honoured at the root and inside the search.

use std::sync::atomic::AtomicBool;

use xiangqi_bot::arbiter::{Arbiter, Ruleset, RulesetName};
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

/// A search of the start position under the official rules.
fn from_start(limits: Limits) -> SearchResult {
    search(
        xiangqi_bot::core::START_FEN,
        "",
        RulesetName::Official,
        limits,
    )
}

#[test]
fn a_node_budget_stops_the_search_at_the_budget() {
    // Budgets on, just after and between the points where the clock and the stop flag are
    // looked at (every 1,024 nodes): the search neither stops early nor runs on.
    for budget in [3_000, 10_240, 10_241, 20_479] {
        let limits = Limits {
            nodes: Some(budget),
            ..Limits::default()
        };
        let r = from_start(limits);
        assert!(
            (budget..=budget + 4).contains(&r.nodes),
            "{} nodes for a budget of {budget}",
            r.nodes
        );
    }
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

/// Replays `played` and the engine's `best` in a real arbiter: the move must be accepted and
/// must not lose the game for the side that plays it.
fn assert_not_a_foul(fen: &str, played: &str, rules: RulesetName, best: Move) {
    let mut arb = Arbiter::new(Position::from_fen(fen).unwrap(), Ruleset::preset(rules));
    for m in moves(played) {
        arb.submit(m).unwrap();
    }
    let mover = arb.position().turn();
    let acc = arb
        .submit(best)
        .unwrap_or_else(|e| panic!("{rules:?}: {best} refused: {e:?}"));
    if let Some(r) = acc.ruling {
        assert_ne!(
            r.outcome.loser(),
            Some(mover),
            "{rules:?}: {best} loses: {r:?}"
        );
    }
}

#[test]
fn the_check_count_is_respected_without_a_repetition_rule() {
    // Under the club rules (no repetition ruling, six checks in a row by one piece at most),
    // Red has checked six times with its chariot: a seventh check would lose.
    let played = "f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 f8f9 h8h9 f9f8";
    let r = search(PERPETUAL_FEN, played, RulesetName::Cxq, depth(4));
    let best = r.best.expect("a move");
    let mut pos = Position::from_fen(PERPETUAL_FEN).unwrap();
    for m in moves(played) {
        pos.play(m).unwrap();
    }
    pos.play(best).unwrap();
    assert!(!pos.is_check(), "{best} checks a seventh time");
    assert_not_a_foul(PERPETUAL_FEN, played, RulesetName::Cxq, best);
}

#[test]
fn no_ruleset_sees_a_foul_from_the_engine() {
    for rules in RulesetName::ALL {
        let played = if rules == RulesetName::Cxq {
            "f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 f8f9 h8h9 f9f8"
        } else {
            PERPETUAL_MOVES
        };
        let r = search(PERPETUAL_FEN, played, rules, depth(5));
        assert_not_a_foul(PERPETUAL_FEN, played, rules, r.best.expect("a move"));
    }
}

#[test]
fn hanging_pieces_are_taken() {
    for (fen, best) in [
        // A black horse no one guards, in reach of the red chariot.
        ("2bakab2/9/9/9/9/2n6/9/9/9/2RK5 w", "c0c4"),
        // A black chariot on the cannon's line, over a screen.
        ("5k3/9/9/9/9/4r4/4p4/9/4C4/3K5 w", "e1e4"),
        // Black to move: a red cannon left alone on the chariot's file.
        ("rnbak4/9/1c7/9/9/9/9/C8/9/3K5 b", "a9a2"),
    ] {
        let r = search(fen, "", RulesetName::Official, depth(4));
        assert_eq!(r.best, Some(mv(best)), "{fen}");
    }
}

#[test]
fn several_lines_come_best_first_and_distinct() {
    let limits = Limits {
        depth: Some(4),
        multipv: 4,
        ..Limits::default()
    };
    let r = from_start(limits);
    assert_eq!(r.lines.len(), 4);
    let firsts: Vec<Move> = r.lines.iter().map(|l| l.pv[0]).collect();
    for (i, a) in firsts.iter().enumerate() {
        assert!(!firsts[i + 1..].contains(a), "{firsts:?}");
    }
    let value = |s: Score| match s {
        Score::Cp(c) => c,
        Score::Mate(n) => 100_000 * n.signum() - n,
    };
    for w in r.lines.windows(2) {
        assert!(value(w[0].score) >= value(w[1].score), "{:?}", r.lines);
    }
    assert_eq!(r.best, Some(firsts[0]));
}

#[test]
fn a_stopped_search_still_answers_and_a_finished_game_does_not() {
    let stop = AtomicBool::new(true);
    let r = Engine::new(1).search(
        &Position::startpos(),
        &[],
        &Ruleset::default(),
        &Limits::default(),
        &stop,
        &mut |_| {},
    );
    assert!(r.best.is_some(), "the first iteration always completes");
    // Checkmated: nothing to play.
    let mated = search(
        "3k5/3R5/3R5/9/9/9/9/9/9/4K4 b",
        "",
        RulesetName::Official,
        depth(3),
    );
    assert_eq!((mated.best, mated.lines.len()), (None, 0));
    // Moves that do not replay from the start give no move either.
    let r = search(
        xiangqi_bot::core::START_FEN,
        "h2e2 h2e2",
        RulesetName::Official,
        depth(2),
    );
    assert_eq!(r.best, None);
}

#[test]
fn the_table_stays_within_its_setting() {
    for mb in [1, 16, 32] {
        let e = Engine::new(mb);
        assert!(e.hash_bytes() <= mb << 20);
    }
    let mut e = Engine::new(16);
    e.set_hash(2);
    assert!(e.hash_bytes() <= 2 << 20);
}
