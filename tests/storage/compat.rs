//! Databases written by an earlier binary open and play on: a sled directory and a
//! PostgreSQL dump, both made on 2026-12-03 by main at `ac9fbd4` running the console script
//! `tests/data/sled-2026-12-03.script` (the same script for both; the dump by `pg_dump
//! --schema=public --no-owner --no-privileges --no-comments --inserts`, its `\restrict` lines
//! taken out: they are for psql). They hold six
//! channels: a casual game in progress with a draw offer standing (#casual), a rated game
//! lost by resignation with its ratings (#rated), a draw by agreement with its review
//! (#drawn), a Vietnamese channel under the Asian rules with a game in progress (#vi), a game
//! against the bot (#bot) and a puzzle (#puz).
//!
//! Records are read field by field by today's code, so a change to how a record is written
//! (a string become an enum, a field renamed) that loses the old form fails here.

use std::path::Path;

use crate::console::{binary, Console};
use crate::pg;

/// Copy the sled fixture into `data/db`.
fn sled_fixture(data: &Path) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sled-2026-12-03");
    let to = data.join("db");
    std::fs::create_dir_all(&to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read the fixture") {
        let e = e.expect("entry");
        std::fs::copy(e.path(), to.join(e.file_name())).expect("copy");
    }
}

/// The dump, moved from `public` into the test's own schema.
fn pg_fixture(db: &pg::TestDb) {
    let dump = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pg-2026-12-03.sql"),
    )
    .expect("read the dump");
    let sql: String = dump
        .lines()
        .filter(|l| {
            !l.starts_with("CREATE SCHEMA public")
                && !l.starts_with("SELECT pg_catalog.set_config('search_path'")
        })
        .map(|l| l.replace("public.", &format!("{}.", db.schema())) + "\n")
        .collect();
    db.execute(&sql).expect("load the dump");
}

/// What the old database's players do next, and what they must see.
fn play_on(env: &[(&str, &str)], data: &Path) {
    let mut c = Console::start(data, env);
    // #casual: bob offered a draw and is to move; he plays on, and alice answers.
    c.send("#casual");
    let board = c.ask("@alice /board", "after ");
    assert!(board.contains("after 3 plies"), "{board}");
    c.ask("@bob c6c5", "4. bob: c6c5");
    c.ask("@alice c3c4", "5. alice: c3c4");
    // #vi: the channel keeps its language and ruleset.
    c.send("#vi");
    c.ask("@hoa h9g7", "2. hoa: h9g7");
    c.expect("Đến lượt gia (Đỏ)");
    // #bot: the bot (Red) has played its first move; it answers ivan's.
    c.send("#bot");
    c.ask("@ivan h7e7", "2. ivan: h7e7");
    c.expect("3. Bot level 1:");
    // #rated: the ratings the finished game gave.
    c.send("#rated");
    let line = c.ask("@carol /rating", "1258");
    assert!(line.contains("1258"), "{line}");
    // #drawn: the stored review is shown again, not made again.
    c.send("#drawn");
    c.ask("@frank /review 3", "Review of game #3");
    // Game numbers go on above the old ones.
    c.send("#new");
    c.ask("@alice /play @bob red", "challenges bob");
    c.ask("@bob /accept", "Game #6 begins");
    let lines = c.finish();
    assert!(
        !lines.iter().any(|l| l.contains("storage")),
        "{}",
        lines.join("\n")
    );
}

#[test]
fn a_sled_database_from_ac9fbd4_opens_and_plays_on() {
    let data = tempfile::tempdir().expect("tempdir");
    sled_fixture(data.path());
    let check = binary(data.path()).arg("check").output().expect("check");
    let out = String::from_utf8_lossy(&check.stdout);
    assert!(check.status.success(), "{out}");
    assert!(
        out.contains("games: 5 (3 in progress), 11 moves, highest game number 5"),
        "{out}"
    );
    assert!(out.contains("reviews: 1"), "{out}");
    play_on(&[("BOARD_IMAGES", "off")], data.path());
}

#[test]
fn a_postgres_database_from_ac9fbd4_opens_and_plays_on() {
    let Some(db) = pg::database("compat_ac9fbd4") else {
        return;
    };
    pg_fixture(&db);
    let data = tempfile::tempdir().expect("tempdir");
    play_on(
        &[("BOARD_IMAGES", "off"), ("DATABASE_URL", db.url.as_str())],
        data.path(),
    );
}
