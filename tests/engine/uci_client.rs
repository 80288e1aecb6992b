//! The UCI client against real processes: Fairy-Stockfish (its 1–10 rank dialect detected and
//! its moves read back as ICCS), and engines that are missing, crash mid-search or hang.

use crate::engines;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use xiangqi_bot::arbiter::Ruleset;
use xiangqi_bot::core::{Move, Position};
use xiangqi_bot::engine::uci::Dialect;
use xiangqi_bot::engine::Limits;
use xiangqi_bot::uci::{check_move, replay, EngineError, ExternalEngine};

fn mv(s: &str) -> Move {
    Move::parse_iccs(s).expect("ICCS")
}

#[test]
fn fairy_stockfish_is_driven_in_its_own_dialect() {
    let spec = engines::healthy(engines::fairy_stockfish());
    let mut e = ExternalEngine::spawn(&spec).expect("fairy-stockfish starts");
    assert!(e.name().contains("Fairy-Stockfish"), "{}", e.name());
    assert_eq!(e.dialect(), Dialect::Fairy);
    e.new_game().expect("ucinewgame");
    let start = Position::startpos();
    let moves = [mv("h2e2"), mv("h9g7")];
    let stop = AtomicBool::new(false);
    let mut infos = 0;
    let limits = Limits {
        depth: Some(6),
        multipv: 3,
        ..Limits::default()
    };
    let r = e
        .search(&start, &moves, &limits, &stop, &mut |_| infos += 1)
        .expect("search");
    assert!(infos > 0);
    let best = r.best.expect("a move");
    let game = replay(&start, &moves, &Ruleset::default()).expect("replay");
    assert!(
        check_move(&game, best).is_ok(),
        "{best} must be legal for Red"
    );
    assert_eq!(r.lines.len(), 3, "{:?}", r.lines);
    assert_eq!(r.lines[0].pv[0], best);
    for l in &r.lines {
        assert!(check_move(&game, l.pv[0]).is_ok(), "{:?}", l.pv);
    }
    assert!(r.depth >= 6);
    // Black to move from a FEN: a capture of the hanging chariot is found.
    let fen = "4k4/9/9/9/9/4r4/9/9/4R4/3K5 b - - 0 1";
    let pos = Position::from_fen(fen).expect("fen");
    let limits = Limits {
        movetime_ms: Some(100),
        ..Limits::default()
    };
    let r = e
        .search(&pos, &[], &limits, &stop, &mut |_| {})
        .expect("search");
    assert_eq!(r.best, Some(mv("e4e1")));
    e.quit();
}

#[test]
fn a_missing_engine_is_a_spawn_error() {
    let err = ExternalEngine::spawn(&engines::spec("/nonexistent/engine --flag")).unwrap_err();
    assert!(matches!(err, EngineError::Spawn { .. }), "{err}");
    assert!(err.to_string().contains("/nonexistent/engine"), "{err}");
    assert!(matches!(
        ExternalEngine::spawn(&engines::spec("   ")),
        Err(EngineError::NoCommand)
    ));
}

#[test]
fn a_crash_mid_search_and_a_hang_are_errors_in_bounded_time() {
    let dir = tempfile::tempdir().expect("tempdir");
    let stop = AtomicBool::new(false);
    let limits = Limits {
        movetime_ms: Some(100),
        ..Limits::default()
    };
    let start = Position::startpos();

    let crash = engines::script(dir.path(), "crasher", "exit 3");
    let mut e =
        ExternalEngine::spawn(&engines::spec(crash.to_str().expect("path"))).expect("spawn");
    let err = e
        .search(&start, &[], &limits, &stop, &mut |_| {})
        .unwrap_err();
    assert!(matches!(err, EngineError::Exited { .. }), "{err}");
    assert!(e.is_broken());

    let hang = engines::script(dir.path(), "hanger", ":");
    let mut e = ExternalEngine::spawn(&engines::spec(hang.to_str().expect("path"))).expect("spawn");
    let t = Instant::now();
    let err = e
        .search(&start, &[], &limits, &stop, &mut |_| {})
        .unwrap_err();
    assert!(
        matches!(
            err,
            EngineError::Timeout {
                waiting_for: "bestmove",
                ..
            }
        ),
        "{err}"
    );
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    drop(e); // killed

    // One that chatters after `go` but never answers is hung all the same.
    let chatter = engines::script(
        dir.path(),
        "chatterer",
        "while :; do echo 'info string thinking'; sleep 0.01; done",
    );
    let mut e =
        ExternalEngine::spawn(&engines::spec(chatter.to_str().expect("path"))).expect("spawn");
    let t = Instant::now();
    let err = e
        .search(&start, &[], &limits, &stop, &mut |_| {})
        .unwrap_err();
    assert!(matches!(err, EngineError::Timeout { .. }), "{err}");
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    drop(e);

    let silent = engines::silent_script(dir.path());
    let t = Instant::now();
    let mut spec = engines::spec(silent.to_str().expect("path"));
    spec.timeouts.handshake = Duration::from_millis(1000);
    let err = ExternalEngine::spawn(&spec).unwrap_err();
    assert!(
        matches!(
            err,
            EngineError::Timeout {
                waiting_for: "uciok",
                ..
            }
        ),
        "{err}"
    );
    assert!(t.elapsed() < Duration::from_secs(5));
}
