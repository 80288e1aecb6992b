//! A damaged sled database is refused, never silently used (issue 31, item 3): the real
//! binary on real sled files — bytes flipped, the file zeroed or truncated, the marker deleted,
//! the files rolled back to an older copy — exits with the damage code and says what to do;
//! a database written before markers is adopted; `check` reports; `export` then `import`
//! gives back the same database.

use crate::console;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use console::Console;
use xiangqi_bot::game::Storage;
use xiangqi_bot::storage::SledStorage;

/// The exit code of a damaged database.
const DAMAGED: i32 = 3;

/// What a run of the binary gave.
struct Run {
    code: Option<i32>,
    out: String,
    err: String,
}

/// Run `xiangqi-bot ARGS` with DATA_DIR=`data`, standard input closed at once.
fn run(data: &Path, args: &[&str]) -> Run {
    let out = console::binary(data)
        .args(args)
        .env("BOARD_IMAGES", "off")
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::null())
        .output()
        .expect("run the binary");
    Run {
        code: out.status.code(),
        out: String::from_utf8_lossy(&out.stdout).into_owned(),
        err: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The console session that fills a data directory: a finished game of four moves and a
/// game in progress of three.
fn play_two_games(data: &Path) {
    let mut c = Console::start(data, &[("BOARD_IMAGES", "off")]);
    c.ask("@alice /play @bob red", "challenges bob");
    c.ask("@bob /accept", "begins");
    c.ask("@alice h2e2", "1. alice");
    c.ask("@bob h9g7", "2. bob");
    c.ask("@alice h0g2", "3. alice");
    c.ask("@bob i9h9", "4. bob");
    c.ask("@alice /resign", "Game over");
    play_third_game(c);
}

fn play_third_game(mut c: Console) {
    c.ask("@alice /play @bob red", "challenges bob");
    c.ask("@bob /accept", "begins");
    c.ask("@alice b2e2", "1. alice");
    c.ask("@bob b9c7", "2. bob");
    c.ask("@alice b0c2", "3. alice");
    c.finish();
}

/// A data directory with two games, made once and copied for each test.
fn healthy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    play_two_games(dir.path());
    dir
}

/// A copy of `from` (a data directory or a database) at `to`.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir") {
        let e = e.expect("entry");
        let target = to.join(e.file_name());
        if e.file_type().expect("type").is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).expect("copy");
        }
    }
}

/// sled's main file in a data directory.
fn db_file(data: &Path) -> PathBuf {
    data.join("db").join("db")
}

/// The refusal: the damage exit code, the explanation and the advice, and no panic.
fn assert_refused(r: &Run, why: &str) {
    assert_eq!(
        r.code,
        Some(DAMAGED),
        "{why}: not refused; stdout:\n{}\nstderr:\n{}",
        r.out,
        r.err
    );
    for needle in [
        "is damaged",
        "xiangqi-bot check --data",
        "xiangqi-bot import",
    ] {
        assert!(r.err.contains(needle), "{why}: no {needle:?} in\n{}", r.err);
    }
    assert!(
        !r.err.contains("panicked") && !r.err.contains("RUST_BACKTRACE"),
        "{why}: a panic reached the operator:\n{}",
        r.err
    );
    assert!(
        !r.out.contains("no games"),
        "{why}: the bot answered on a damaged database:\n{}",
        r.out
    );
}

/// The bot itself (the console) and `check` both refuse the data directory.
fn assert_both_refuse(data: &Path, why: &str) {
    assert_refused(&run(data, &["console"]), why);
    let check = run(data, &["check", "--data", data.to_str().expect("utf-8")]);
    assert_eq!(
        check.code,
        Some(DAMAGED),
        "{why}: check passed:\n{}",
        check.out
    );
}

/// `check`'s report without the lines that name the directory or the next id.
fn contents(data: &Path) -> Vec<String> {
    let r = run(data, &["check"]);
    assert_eq!(r.code, Some(0), "check failed:\n{}\n{}", r.out, r.err);
    r.out
        .lines()
        // The counters and the metadata differ by design: an import records the offset of
        // sled's id counter, which starts again in a new database, as one more value.
        .filter(|l| {
            !l.starts_with("database:")
                && !l.starts_with("counters:")
                && !l.starts_with("metadata values:")
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn a_healthy_database_is_reported_healthy() {
    let data = healthy();
    let r = run(data.path(), &["check"]);
    assert_eq!(r.code, Some(0), "{}\n{}", r.out, r.err);
    for needle in [
        "games: 2 (1 in progress), 7 moves, highest game number 2",
        "channels: 1",
        "counters: game number 2, commits ",
        "db.marker agrees",
        "healthy: every record reads",
    ] {
        assert!(r.out.contains(needle), "no {needle:?} in\n{}", r.out);
    }
    assert!(data.path().join("db").join("db.marker").exists());
}

#[test]
fn flipped_bytes_are_refused_or_change_nothing() {
    let data = healthy();
    let pristine = contents(data.path());
    let bytes = std::fs::read(db_file(data.path())).expect("read db");
    // Where the game in progress is written (sled keeps a value's bytes as they are; the bot
    // stores a record packed): damage there must be seen.
    let stored = {
        let copy = tempfile::tempdir().expect("tempdir");
        copy_dir(&data.path().join("db"), copy.path());
        let db = sled::open(copy.path()).expect("sled opens a copy");
        let games = db.open_tree("games").expect("games");
        games
            .get(2u64.to_be_bytes())
            .expect("read")
            .expect("game 2")
            .to_vec()
    };
    let at = bytes
        .windows(stored.len())
        .rposition(|w| w == stored.as_slice())
        .expect("the game in progress is in the file")
        + stored.len() / 2;
    let mut offsets = vec![at];
    // And anywhere else in the written part of the file: either refused, or nothing lost.
    let written = bytes.iter().rposition(|&b| b != 0).unwrap_or(0);
    offsets.extend((1..12).map(|i| written * i / 12));
    let mut refused = 0;
    for (n, &at) in offsets.iter().enumerate() {
        let copy = tempfile::tempdir().expect("tempdir");
        copy_dir(data.path(), copy.path());
        let mut spoilt = bytes.clone();
        for b in spoilt.iter_mut().skip(at).take(8) {
            *b ^= 0xA5;
        }
        std::fs::write(db_file(copy.path()), &spoilt).expect("write");
        let r = run(copy.path(), &["check"]);
        if n == 0 || r.code != Some(0) {
            assert_both_refuse(copy.path(), &format!("8 bytes flipped at {at}"));
            refused += 1;
        } else {
            assert_eq!(
                contents(copy.path()),
                pristine,
                "8 bytes flipped at {at} were let through and changed the database"
            );
        }
    }
    assert!(refused >= 1);
}

#[test]
fn a_zeroed_file_is_refused() {
    let data = healthy();
    let len = std::fs::metadata(db_file(data.path())).expect("meta").len();
    std::fs::write(db_file(data.path()), vec![0u8; len as usize]).expect("zero");
    assert_both_refuse(data.path(), "a zeroed database file");
}

#[test]
fn a_truncated_file_is_refused() {
    for quarters in [0u64, 2, 3] {
        let data = healthy();
        let len = std::fs::metadata(db_file(data.path())).expect("meta").len();
        let keep = len * quarters / 4;
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(db_file(data.path()))
            .expect("open");
        f.set_len(keep).expect("truncate");
        drop(f);
        assert_both_refuse(
            data.path(),
            &format!("the database file cut to {keep} bytes"),
        );
    }
}

#[test]
fn a_deleted_marker_is_refused() {
    let data = healthy();
    std::fs::remove_file(data.path().join("db").join("db.marker")).expect("rm");
    let r = run(data.path(), &["console"]);
    assert_refused(&r, "no db.marker");
    assert!(r.err.contains("db.marker is missing"), "{}", r.err);
}

#[test]
fn database_files_rolled_back_to_an_older_copy_are_refused() {
    let data = tempfile::tempdir().expect("tempdir");
    let mut c = Console::start(data.path(), &[("BOARD_IMAGES", "off")]);
    c.ask("@alice /play @bob red", "challenges bob");
    c.ask("@bob /accept", "begins");
    c.ask("@alice h2e2", "1. alice");
    c.finish();
    let older = tempfile::tempdir().expect("tempdir");
    copy_dir(&data.path().join("db"), older.path());
    play_third_game({
        let mut c = Console::start(data.path(), &[("BOARD_IMAGES", "off")]);
        c.ask("@alice /resign", "Game over");
        c
    });
    // sled's files go back to the older copy; the marker beside them stays as it is.
    let db = data.path().join("db");
    for e in std::fs::read_dir(&db).expect("read_dir") {
        let p = e.expect("entry").path();
        if p.file_name().is_some_and(|n| n != "db.marker") {
            if p.is_dir() {
                std::fs::remove_dir_all(&p).expect("rm");
            } else {
                std::fs::remove_file(&p).expect("rm");
            }
        }
    }
    for e in std::fs::read_dir(older.path()).expect("read_dir") {
        let e = e.expect("entry");
        if e.file_name() != "db.marker" && e.file_type().expect("type").is_file() {
            std::fs::copy(e.path(), db.join(e.file_name())).expect("copy");
        }
    }
    let r = run(data.path(), &["console"]);
    assert_refused(&r, "older database files");
    assert!(r.err.contains("went back"), "{}", r.err);
}

#[test]
fn a_database_from_before_markers_is_adopted() {
    let data = tempfile::tempdir().expect("tempdir");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sled-before-markers");
    copy_dir(&fixture, &data.path().join("db"));
    assert!(!data.path().join("db").join("db.marker").exists());
    let r = run(data.path(), &["check"]);
    assert_eq!(r.code, Some(0), "{}\n{}", r.out, r.err);
    assert!(r.out.contains("marker: none yet"), "{}", r.out);
    assert!(
        r.out.contains("games: 2 (1 in progress), 7 moves"),
        "{}",
        r.out
    );
    // The bot opens it, marks it, and its games are there.
    let mut c = Console::start(data.path(), &[("BOARD_IMAGES", "off")]);
    assert_eq!(c.stored_plies(), 3);
    c.ask("@alice /games", "#2");
    c.finish();
    assert!(data.path().join("db").join("db.marker").exists());
    let r = run(data.path(), &["check"]);
    assert!(r.out.contains("db.marker agrees"), "{}", r.out);
}

/// `xiangqi-bot export` of the data directory `data`, then `import` into a new one: that one,
/// and what the import said.
fn export_and_import(data: &Path) -> (tempfile::TempDir, Run) {
    let file = data.join("backup.xqdb");
    let r = run(data, &["export", file.to_str().expect("utf-8")]);
    assert_eq!(r.code, Some(0), "{}\n{}", r.out, r.err);
    let restored = tempfile::tempdir().expect("tempdir");
    let r = run(restored.path(), &["import", file.to_str().expect("utf-8")]);
    assert_eq!(r.code, Some(0), "{}\n{}", r.out, r.err);
    (restored, r)
}

#[test]
fn export_then_import_gives_back_the_same_database() {
    let data = healthy();
    let (restored, r) = export_and_import(data.path());
    assert!(r.out.contains("the copy matches the export"), "{}", r.out);
    assert_eq!(contents(restored.path()), contents(data.path()));
    // Every game reads back exactly, field by field.
    let (a, b) = (
        SledStorage::open(&data.path().join("db")).expect("open"),
        SledStorage::open(&restored.path().join("db")).expect("open"),
    );
    for id in 1..=2 {
        let game = a.game(id).expect("read").expect("game");
        assert_eq!(b.game(id).expect("read").as_ref(), Some(&game));
    }
    let ids = (a.next_id().expect("id"), b.next_id().expect("id"));
    assert!(
        ids.1 > ids.0,
        "ids go on above the exported database's: {ids:?}"
    );
    drop((a, b));
    // The restored bot goes on with the next game number, and the old one is refused.
    let mut c = Console::start(restored.path(), &[("BOARD_IMAGES", "off")]);
    c.ask("@alice /resign", "Game over");
    c.ask("@alice /play @bob red", "challenges bob");
    c.ask("@bob /accept", "Game #3");
    c.finish();
    // An import into a database that exists is refused, and so is a damaged export.
    let file = data.path().join("backup.xqdb");
    let r = run(restored.path(), &["import", file.to_str().expect("utf-8")]);
    assert_eq!(r.code, Some(1));
    assert!(r.err.contains("is not empty"), "{}", r.err);
    let mut bytes = std::fs::read(&file).expect("read");
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x40;
    let spoilt = data.path().join("spoilt.xqdb");
    std::fs::File::create(&spoilt)
        .and_then(|mut f| f.write_all(&bytes))
        .expect("write");
    let fresh = tempfile::tempdir().expect("tempdir");
    let r = run(fresh.path(), &["import", spoilt.to_str().expect("utf-8")]);
    assert_eq!(r.code, Some(1), "{}", r.out);
    assert!(r.err.contains("damaged"), "{}", r.err);
    assert!(!fresh.path().join("db").exists(), "nothing was written");
}
