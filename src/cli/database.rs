//! The sled database for operators: `xiangqi-bot check` (what is there, and whether any of it
//! is damaged), `xiangqi-bot export FILE` and `xiangqi-bot import FILE` (a backup in sled's
//! own export form, and its restore into a new database). The bot must not be running on the
//! database meanwhile (sled's lock refuses a second opener anyway). See `docs/sled-damage.md`.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::storage::marker::Verdict;
use crate::storage::{Inspection, OpenError, SledStorage};

/// The exit code of a damaged database (the bot's too).
pub const DAMAGED: u8 = 3;

/// Where the data directory is: `--data`, else `DATA_DIR`, else `./data`.
#[derive(Args, Debug, Clone)]
pub struct DataArgs {
    /// The bot's data directory (default: `DATA_DIR`, else `./data`); the database is its `db`.
    #[arg(long)]
    data: Option<PathBuf>,
}

impl DataArgs {
    fn data_dir(&self) -> PathBuf {
        self.data.clone().unwrap_or_else(|| {
            PathBuf::from(std::env::var("DATA_DIR").unwrap_or_else(|_| "./data".into()))
        })
    }
}

/// `export` and `import` options.
#[derive(Args, Debug)]
pub struct TransferArgs {
    /// The export file.
    file: PathBuf,
    #[command(flatten)]
    data: DataArgs,
}

/// What an operator reads when the database is refused: what was found and what to do.
#[must_use]
pub fn refusal(data_dir: &Path, what: &[String]) -> String {
    let db = data_dir.join("db");
    let mut out = format!(
        "error: the database in {} is damaged, so it was not opened (nothing was written to it):\n",
        db.display()
    );
    for w in what {
        out.push_str(&format!("  - {w}\n"));
    }
    out.push_str(&format!(
        "What to do:\n  \
         - see what is there: xiangqi-bot check --data {data}\n  \
         - restore a backup made with `xiangqi-bot export`: xiangqi-bot import FILE --data NEW_DIR \
         (an empty directory), then run the bot with DATA_DIR=NEW_DIR\n  \
         - or start afresh: move {db} away (its files stay as they are); the bot then makes a \
         new database and numbers games from 1 again",
        data = data_dir.display(),
        db = db.display()
    ));
    out
}

/// Print why the database could not be opened; the exit code.
fn refused(data_dir: &Path, e: &OpenError) -> i32 {
    match e {
        OpenError::Damaged(what) => {
            eprintln!("{}", refusal(data_dir, what));
            i32::from(DAMAGED)
        }
        OpenError::Unusable(e) => {
            eprintln!(
                "error: cannot open the database in {}: {e}",
                data_dir.join("db").display()
            );
            1
        }
    }
}

/// `check`: print what the database holds; exit 0 when healthy, [`DAMAGED`] when not.
#[must_use]
pub fn check(args: &DataArgs) -> i32 {
    let data_dir = args.data_dir();
    match SledStorage::inspect(&data_dir.join("db")) {
        Ok(found) => {
            for line in report(&found) {
                super::emit(&line);
            }
            if found.damage().is_empty() {
                0
            } else {
                i32::from(DAMAGED)
            }
        }
        Err(e) => refused(&data_dir, &e),
    }
}

/// The lines of `check`'s report.
fn report(found: &Inspection) -> Vec<String> {
    let s = &found.survey;
    let mut out = vec![format!("database: {}", found.dir.display())];
    out.push(format!(
        "games: {} ({} in progress), {} moves, highest game number {}",
        s.games, s.active, s.moves, s.highest_game
    ));
    for (what, n) in s.counts.iter().filter(|(what, _)| *what != "games") {
        out.push(format!("{what}: {n}"));
    }
    let commits = s
        .record
        .as_ref()
        .map_or_else(|| "none".into(), |r| r.commits.to_string());
    out.push(format!(
        "counters: game number {}, commits {commits}, next id {}",
        s.game_number, found.next_id
    ));
    out.push(match (&found.verdict, &s.record) {
        (Verdict::Agree, Some(r)) => format!(
            "marker: database {} (marked {} ms after the epoch); db.marker agrees",
            r.id, r.created_ms
        ),
        (Verdict::Unmarked, _) => {
            "marker: none yet (a new database, or one written before markers): the bot marks it \
             at its next start"
                .into()
        }
        _ => "marker: does not agree (see below)".into(),
    });
    let damage = found.damage();
    if damage.is_empty() {
        out.push("healthy: every record reads and no counter went back".into());
    } else {
        out.push(format!("DAMAGED: {} problems", damage.len()));
        out.extend(damage.iter().map(|d| format!("  - {d}")));
    }
    out
}

/// `export FILE`: write the whole database to FILE.
#[must_use]
pub fn export(args: &TransferArgs) -> i32 {
    let data_dir = args.data.data_dir();
    let db = data_dir.join("db");
    if !crate::storage::guard::exists(&db) {
        eprintln!("error: there is no database in {}", db.display());
        return 1;
    }
    let storage = match SledStorage::open(&db) {
        Ok(s) => s,
        Err(e) => return refused(&data_dir, &e),
    };
    match storage.export(&args.file) {
        Ok(s) => {
            super::emit(&format!(
                "exported {} records of {} trees to {} (checksum {:08x})",
                s.records,
                s.trees,
                args.file.display(),
                s.checksum
            ));
            0
        }
        Err(e) => {
            eprintln!("error: {}", e.0);
            1
        }
    }
}

/// `import FILE`: load FILE into the data directory's database, which must not exist yet.
#[must_use]
pub fn import(args: &TransferArgs) -> i32 {
    let db = args.data.data_dir().join("db");
    match SledStorage::import(&db, &args.file) {
        Ok(s) => {
            super::emit(&format!(
                "imported {} records of {} trees into {}; the copy matches the export \
                 (checksum {:08x})",
                s.records,
                s.trees,
                db.display(),
                s.checksum
            ));
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}
