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

/// The named openings, read from assets/openings.txt.
fn named() -> Vec<xiangqi_bot::uci::matches::Opening> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/openings.txt"))
        .expect("assets/openings.txt");
    parse_openings(&text).expect("every line plays")
}

/// Every generated opening is a named one (by name) and two more plies, and no two reach the
/// same position.
fn check_grown(text: &str, at_least: usize) -> Vec<xiangqi_bot::uci::matches::Opening> {
    let named = named();
    let grown = parse_openings(text).expect("every generated line plays");
    assert!(grown.len() >= at_least, "{} openings", grown.len());
    let mut positions = HashSet::new();
    for g in &grown {
        let (en, zh) = g.name.split_once(" / ").expect("English / Chinese");
        let base = named
            .iter()
            .find(|n| {
                let (e, z) = n.name.split_once(" / ").expect("names");
                en.strip_prefix(e).is_some_and(|r| r.starts_with(" (+"))
                    && zh.strip_prefix(z).is_some_and(|r| r.starts_with(" (+"))
            })
            .unwrap_or_else(|| panic!("{}: no named opening", g.name));
        assert_eq!(g.moves.len(), base.moves.len() + 2, "{}", g.name);
        assert_eq!(g.moves[..base.moves.len()], base.moves[..], "{}", g.name);
        let mut p = Position::startpos();
        g.moves.iter().for_each(|&m| p.play(m).expect("legal"));
        assert!(positions.insert(p.hash()), "{}: a position twice", g.name);
    }
    grown
}

#[test]
fn the_openings_command_grows_balanced_openings() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("grown.txt");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_xiangqi-bot"))
        .args([
            "openings",
            "--count",
            "12",
            "--depth",
            "4",
            "--max-eval",
            "100",
        ])
        .arg("--from")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/openings.txt"))
        .arg("--out")
        .arg(&out)
        .output()
        .expect("run openings");
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{err}");
    assert!(err.contains("openings: 12 of 12 wanted"), "{err}");
    let text = std::fs::read_to_string(&out).expect("written");
    assert!(
        text.starts_with("# 12 openings grown from the 62"),
        "{text}"
    );
    let grown = check_grown(&text, 12);
    assert_eq!(grown.len(), 12);
    // Taken in turns: the first twelve come from twelve named openings.
    let names: HashSet<&str> = grown
        .iter()
        .map(|g| g.name.split(" (+").next().expect("name"))
        .collect();
    assert_eq!(names.len(), 12, "{names:?}");
}

#[test]
fn the_grown_openings_file_is_balanced() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/openings-200.txt"
    ))
    .expect("assets/openings-200.txt");
    let grown = check_grown(&text, 200);
    // Balanced by a shallower, independent search of ours too (the file's own check is depth 8).
    let mut engine = Engine::new(8);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    for g in &grown {
        engine.new_game();
        let r = engine.search(
            &Position::startpos(),
            &g.moves,
            &Ruleset::default(),
            &limits,
            &stop,
            &mut |_| {},
        );
        let score = r.lines.first().map(|l| l.score).expect("a line");
        let balanced = matches!(score, Score::Cp(c) if c.abs() <= 200);
        assert!(balanced, "{}: {score:?} for the side to move", g.name);
    }
}
