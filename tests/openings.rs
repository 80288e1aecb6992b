//! The openings file: at least 50 lines, each 4 to 10 legal plies from the initial position,
//! named in English and Chinese, no two alike, and neither side lost after a shallow search.

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use xiangqi_bot::arbiter::Ruleset;
use xiangqi_bot::core::Position;
use xiangqi_bot::engine::{Engine, Limits, Score};
use xiangqi_bot::uci::matches::parse_openings;

#[test]
fn every_opening_is_legal_named_and_balanced() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/openings.txt"))
        .expect("assets/openings.txt");
    let openings = parse_openings(&text).expect("every line plays");
    assert!(openings.len() >= 50, "{} openings", openings.len());
    let mut seen = HashSet::new();
    let mut engine = Engine::new(8);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(5),
        ..Limits::default()
    };
    for o in &openings {
        assert!(
            (4..=10).contains(&o.moves.len()),
            "{}: {} plies",
            o.name,
            o.moves.len()
        );
        assert!(seen.insert(o.moves.clone()), "{} twice", o.name);
        let (en, zh) = o.name.split_once(" / ").expect("English / Chinese");
        assert!(en.is_ascii() && !en.is_empty(), "{}", o.name);
        assert!(
            zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "{}",
            o.name
        );
        engine.new_game();
        let r = engine.search(
            &Position::startpos(),
            &o.moves,
            &Ruleset::default(),
            &limits,
            &stop,
            &mut |_| {},
        );
        let score = r.lines.first().map(|l| l.score).expect("a line");
        let balanced = matches!(score, Score::Cp(c) if c.abs() <= 300);
        assert!(balanced, "{}: {score:?} for the side to move", o.name);
    }
}
