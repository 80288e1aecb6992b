//! The player's fallback: with `ENGINE_COMMAND` pointing at a missing engine, one that crashes
//! mid-search, one that hangs, or one that answers an illegal move, the built-in engine plays
//! and the reason is reported; with Fairy-Stockfish, the external engine plays.

use crate::engines;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use xiangqi_bot::arbiter::{Arbiter, Ruleset};
use xiangqi_bot::core::Position;
use xiangqi_bot::engine::Limits;
use xiangqi_bot::uci::player::{Player, Source};
use xiangqi_bot::uci::EngineConfig;
use xiangqi_bot::uci::{check_move, EngineSpec};

fn player(command: &str) -> Player {
    with_spec(engines::spec(command))
}

fn with_spec(spec: EngineSpec) -> Player {
    Player::new(&EngineConfig {
        external: Some(spec),
        hash_mb: 4,
    })
}

fn game() -> Arbiter {
    let mut g = Arbiter::new(Position::startpos(), Ruleset::default());
    g.submit(xiangqi_bot::core::Move::parse_iccs("h2e2").expect("move"))
        .expect("legal");
    g
}

/// The top level (20) through `p`: the move must be legal whoever played it.
fn play(p: &Player) -> (Source, Option<String>) {
    let g = game();
    let stop = AtomicBool::new(false);
    let played = p.play(&g, xiangqi_bot::engine::TOP_LEVEL, None, 1, &stop);
    let best = played.result.best.expect("a move");
    assert!(check_move(&g, best).is_ok(), "{best}");
    (played.source, played.fallback)
}

#[test]
fn a_missing_engine_falls_back_and_waits_before_trying_again() {
    let p = player("/nonexistent/engine");
    let (source, why) = play(&p);
    assert_eq!(source, Source::Builtin);
    let why = why.expect("a reason");
    assert!(why.contains("/nonexistent/engine"), "{why}");
    let (source, why) = play(&p);
    assert_eq!(source, Source::Builtin);
    assert!(why.expect("a reason").contains("retry in"));
}

#[test]
fn a_crash_mid_search_falls_back() {
    let dir = tempfile::tempdir().expect("tempdir");
    let crash = engines::script(dir.path(), "crasher", "exit 3");
    let (source, why) = play(&player(crash.to_str().expect("path")));
    assert_eq!(source, Source::Builtin);
    assert!(why.expect("a reason").contains("exited"));
}

#[test]
fn a_hang_falls_back_in_bounded_time() {
    let dir = tempfile::tempdir().expect("tempdir");
    let hang = engines::script(dir.path(), "hanger", ":");
    let t = Instant::now();
    let (source, why) = play(&player(hang.to_str().expect("path")));
    assert_eq!(source, Source::Builtin);
    assert!(why.expect("a reason").contains("no bestmove"));
    // The top level's second, the engine's grace twice, and the built-in engine's second.
    assert!(t.elapsed() < Duration::from_secs(8), "{:?}", t.elapsed());
}

#[test]
fn an_illegal_answer_is_refused_by_the_arbiter() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Black to move after h2e2; this engine moves Red's chariot.
    let cheat = engines::script(dir.path(), "cheater", "echo 'bestmove a0a5'");
    let (source, why) = play(&player(cheat.to_str().expect("path")));
    assert_eq!(source, Source::Builtin);
    assert!(why.expect("a reason").contains("a0a5"));
}

#[test]
fn fairy_stockfish_plays_and_analyses_when_it_works() {
    let p = with_spec(engines::healthy(engines::fairy_stockfish()));
    let (source, why) = play(&p);
    assert!(why.is_none(), "{why:?}");
    assert!(
        matches!(&source, Source::External(n) if n.contains("Fairy-Stockfish")),
        "{source:?}"
    );
    let g = game();
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(8),
        multipv: 2,
        ..Limits::default()
    };
    let a = p.analyse(&g, &limits, &stop, &mut |_| {});
    assert!(matches!(a.source, Source::External(_)));
    assert_eq!(a.result.lines.len(), 2);
    // Without an external engine, the built-in engine analyses.
    let builtin = Player::new(&EngineConfig::default());
    assert!(!builtin.has_external());
    let a = builtin.analyse(&g, &limits, &stop, &mut |_| {});
    assert_eq!(a.source, Source::Builtin);
    assert_eq!(a.result.lines.len(), 2);
}
