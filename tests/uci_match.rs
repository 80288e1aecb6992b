//! The match runner: a tiny match of our engine against the real Fairy-Stockfish through the
//! command line (W/D/L, Elo, PGN), and the adjudication of an engine's illegal move, a crash and
//! the ply limit.

#[path = "support/engines.rs"]
mod engines;

use std::process::Command;

use xiangqi_bot::arbiter::{Outcome, Ruleset};
use xiangqi_bot::engine::Limits;
use xiangqi_bot::uci::contestant::PlayerSpec;
use xiangqi_bot::uci::matches::{parse_openings, run_match, GameReport, MatchSettings};
use xiangqi_bot::uci::stats::GameScore;

const BIN: &str = env!("CARGO_BIN_EXE_xiangqi-bot");

#[test]
fn builtin_against_fairy_stockfish_from_the_command_line() {
    let fsf = engines::fairy_stockfish();
    let dir = tempfile::tempdir().expect("tempdir");
    let pgn = dir.path().join("games.pgn");
    let out = Command::new(BIN)
        .args([
            "match",
            "builtin:8",
            &format!("uci:{fsf}"),
            "--games",
            "2",
            "--nodes",
            "3000",
        ])
        .args(["--max-plies", "60", "--concurrency", "2", "--openings"])
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/openings.txt"))
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .expect("run match");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games: Vec<&str> = text.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 2, "{text}");
    assert!(text.contains("Fairy-Stockfish"), "{text}");
    let summary = text.lines().find(|l| l.contains(" Elo ")).expect("summary");
    assert!(
        summary.contains("(2 games)") && summary.contains("pentanomial"),
        "{summary}"
    );
    let pgn = std::fs::read_to_string(&pgn).expect("pgn written");
    assert_eq!(pgn.matches("[Game \"Chinese Chess\"]").count(), 2, "{pgn}");
    assert!(
        pgn.contains("[Red \"builtin:8\"]") && pgn.contains("[Black \"builtin:8\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("1. "), "{pgn}");
}

fn settings(games: usize, max_plies: usize) -> MatchSettings {
    let openings = parse_openings("h2e2 h9g7 h0g2 b9c7 | Central cannon | 中炮").expect("opening");
    MatchSettings {
        games,
        concurrency: 1,
        rules: Ruleset::default(),
        max_plies,
        openings,
        seed: 7,
    }
}

fn play(a: &PlayerSpec, b: &PlayerSpec, s: &MatchSettings) -> Vec<GameReport> {
    let limits = Limits {
        nodes: Some(500),
        ..Limits::default()
    };
    let make = |is_a: bool| Ok((if is_a { a } else { b }).contestant(Some(&limits), 4));
    run_match(s, make, &|_| {}).expect("match runs")
}

#[test]
fn illegal_moves_and_crashes_lose_and_long_games_are_drawn() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cheat = engines::script(dir.path(), "cheater", "echo 'bestmove a0a5'");
    let crash = engines::script(dir.path(), "crasher", "exit 3");
    let builtin: PlayerSpec = "builtin:8".parse().expect("spec");
    for (script, why) in [(cheat, "a0a5"), (crash, "failed")] {
        let bad: PlayerSpec = format!("uci:{}", script.display()).parse().expect("spec");
        let games = play(&bad, &builtin, &settings(2, 300));
        assert_eq!(games.len(), 2);
        for g in &games {
            assert_eq!(g.score_for_a(), GameScore::Loss, "{g:?}");
            assert!(g.reason.contains(why), "{}", g.reason);
            assert_eq!(g.opening, "Central cannon / 中炮");
        }
        assert!(games[0].a_red && !games[1].a_red);
        assert_eq!(games[0].outcome, Outcome::BlackWins);
    }
    let games = play(&builtin, &builtin, &settings(1, 8));
    assert_eq!(games[0].outcome, Outcome::Draw);
    assert!(games[0].reason.contains("8-ply"), "{}", games[0].reason);
    assert_eq!(games[0].moves.len(), 8);
    assert!("builtin:9".parse::<PlayerSpec>().is_err());
    assert!("uci:".parse::<PlayerSpec>().is_err());
    assert!("stockfish".parse::<PlayerSpec>().is_err());
}
