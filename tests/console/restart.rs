//! `kill -9` at any moment loses no acknowledged move and corrupts no game; a restart resumes
//! every game and its clock. Each runs on sled and again on PostgreSQL (`DATABASE_URL`, on the
//! test cluster of `support/pg.rs`).

use crate::console;
use crate::games;
use crate::pg;

use console::{acked_plies, Console};
use std::time::Duration;
use xiangqi_bot::arbiter::RulesetName;
use xiangqi_bot::core::START_FEN;

/// The bot's settings on `backend`: sled (no settings), or PostgreSQL at a URL.
fn settings(backend: Option<&pg::TestDb>) -> Vec<(&str, &str)> {
    let mut env = vec![("BOARD_IMAGES", "off")];
    env.extend(backend.map(|db| ("DATABASE_URL", db.url.as_str())));
    env
}

/// Run `check` on sled, and on PostgreSQL when it can be had (see `support/pg.rs`).
fn on_each_backend(test: &str, check: fn(&[(&str, &str)])) {
    check(&settings(None));
    if let Some(db) = pg::database(test) {
        check(&settings(Some(&db)));
    }
}

#[test]
fn kill_nine_mid_game_loses_no_acknowledged_move() {
    on_each_backend("kill_nine", kill_nine_mid_game);
}

fn kill_nine_mid_game(env: &[(&str, &str)]) {
    let dir = tempfile::tempdir().expect("tempdir");
    let moves: Vec<String> = games::quiet_game(START_FEN, RulesetName::Asian, 0, 60)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(moves.len() >= 40);
    let mut c = Console::start(dir.path(), env);
    c.ask("@alice /play @bob red 1d", "challenges bob");
    c.ask("@bob /accept", "begins");
    let mut next = 0usize;
    for round in 0..6 {
        // Fire a burst of moves without waiting, wait for a few acknowledgements, then kill
        // the process while the rest of the burst is still being read, applied or flushed.
        let burst = 3 + round % 3;
        let end = (next + burst + 3).min(moves.len());
        for (i, m) in moves.iter().enumerate().take(end).skip(next) {
            let who = if i % 2 == 0 { "alice" } else { "bob" };
            c.send(&format!("@{who} {m}"));
        }
        c.expect(&format!("{}. ", next + burst.min(end - next)));
        let seen_acks = acked_plies(&c.seen).max().unwrap_or(0);
        c.kill();
        let mut r = Console::start(dir.path(), env);
        let stored = r.stored_plies();
        assert!(
            stored >= seen_acks,
            "round {round}: {seen_acks} moves were acknowledged but only {stored} survived"
        );
        assert!(stored <= end, "more moves stored than were sent");
        // The stored game is exactly the moves sent, in order: replaying it works and the
        // position is the one those moves lead to.
        let fen_line = r.ask("/fen", " - - ");
        assert!(
            fen_line.contains(&games::board_after(&moves, stored)),
            "round {round}: {fen_line} is not the position after {stored} plies"
        );
        next = stored;
        c = r;
    }
    // The clock survived too.
    c.ask("/time", "⏱ Red");
    c.finish();
}

#[test]
fn a_restart_resumes_games_and_deadlines() {
    on_each_backend("restart", restart_resumes);
}

fn restart_resumes(env: &[(&str, &str)]) {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut c = Console::start(dir.path(), env);
    c.ask("@alice /play @bob red 4s", "challenges bob");
    c.ask("@bob /accept", "begins");
    c.ask("@alice h2e2", "1. alice");
    c.finish();
    // The process is down for a while: Black's clock does not run meanwhile.
    std::thread::sleep(Duration::from_secs(5));
    let mut r = Console::start(dir.path(), env);
    let t = r.ask("/time", "⏱ Red");
    assert!(
        !t.contains("Black 0:00"),
        "the clock ran while the bot was down: {t}"
    );
    // The deadline was rebuilt from storage: the flag falls without any command.
    r.expect("bob ran out of time");
    r.finish();
}

#[test]
fn game_numbers_go_on_one_by_one_after_kill_nine() {
    on_each_backend("numbers", numbers_after_kill);
}

fn numbers_after_kill(env: &[(&str, &str)]) {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut c = Console::start(dir.path(), env);
    for n in 1..=5 {
        if n == 3 || n == 5 {
            // Killed between games: the next number is still the next one.
            c.kill();
            c = Console::start(dir.path(), env);
        }
        c.ask("@alice /play @bob red", "challenges bob");
        c.ask("@bob /accept", &format!("Game #{n} begins"));
        c.ask("@alice /abort", "aborted");
    }
    c.finish();
}
