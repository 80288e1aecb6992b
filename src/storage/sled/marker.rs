//! The database's marker: who the database is and how far it got, kept twice, so that a
//! database file that lost writes, was emptied or was swapped is refused at open instead of
//! being used as if nothing happened (see `docs/sled-damage.md`).
//!
//! - The **record** sits inside the database (the `meta` tree, key [`RECORD_KEY`]) and is
//!   rewritten in every transaction that changes state: the database's id, how many such
//!   transactions were committed, how many games there are.
//! - The **file** `db.marker` sits beside sled's own `db` file in the database directory and is
//!   rewritten (atomically: a temporary file, synced, then renamed) after the writes it counts
//!   were flushed — at most once a second, and at every explicit flush (the bot's last act
//!   before exiting). It holds the same fields plus the game-number counter and the highest id
//!   handed out, so it may lag behind the database (after a `kill -9`) but never run ahead.
//!
//! At open, every counter of the database must be at least the file's: one that went back
//! means the database lost writes it had acknowledged.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The name of the marker file, beside sled's `db` file.
pub const FILE: &str = "db.marker";
/// The key of the record in the `meta` tree.
pub const RECORD_KEY: &str = "marker";
/// The version of both forms.
const VERSION: u32 = 1;

/// The record inside the database.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The form's version.
    pub v: u32,
    /// The database's id, made when it was created (or adopted).
    pub id: String,
    /// When it was created or adopted (ms since the epoch).
    pub created_ms: u64,
    /// Transactions committed that changed state.
    pub commits: u64,
    /// Game records stored.
    pub games: u64,
}

/// The marker file: the record as of the last flush, with the counters numbering depends on.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Marker {
    /// The record when the file was written.
    #[serde(flatten)]
    pub record: Record,
    /// The game-number counter.
    pub game_number: u64,
    /// The highest id handed out (challenges, outbox numbers).
    pub ids: u64,
}

impl Record {
    /// A new record for a database holding `games` games.
    #[must_use]
    pub fn new(games: u64) -> Record {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        // Unique enough to tell two databases apart: the time, the process, a count.
        static MADE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let seed = format!(
            "{}.{}.{}.{}",
            now.as_secs(),
            now.subsec_nanos(),
            std::process::id(),
            MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        );
        Record {
            v: VERSION,
            id: format!("{:032x}", xxhash_rust::xxh3::xxh3_128(seed.as_bytes())),
            created_ms: u64::try_from(now.as_millis()).unwrap_or(u64::MAX),
            commits: 0,
            games,
        }
    }

    /// The stored form.
    #[must_use]
    pub fn encode(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// Read the stored form.
    ///
    /// # Errors
    /// When it does not read.
    pub fn decode(bytes: &[u8]) -> Result<Record, String> {
        serde_json::from_slice(bytes)
            .map_err(|e| format!("the database's record does not read: {e}"))
    }
}

/// Where the marker file of the database in `dir` is.
#[must_use]
pub fn path(dir: &Path) -> PathBuf {
    dir.join(FILE)
}

/// Read the marker file: `None` when there is none.
///
/// # Errors
/// When it is there but cannot be read or does not read.
pub fn read(dir: &Path) -> Result<Option<Marker>, String> {
    let p = path(dir);
    match std::fs::read(&p) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| format!("{} does not read ({e})", p.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{} cannot be read ({e})", p.display())),
    }
}

/// Write the marker file atomically: a temporary file, synced, renamed over the old one, and
/// the directory synced, so a crash leaves either the old file or the new one.
///
/// # Errors
/// On a file-system failure.
pub fn write(dir: &Path, marker: &Marker) -> std::io::Result<()> {
    let tmp = dir.join(format!("{FILE}.tmp"));
    let mut bytes = serde_json::to_vec_pretty(marker).map_err(std::io::Error::other)?;
    bytes.push(b'\n');
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(&bytes)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path(dir))?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// What the database itself says, for comparing with the marker file.
#[derive(Clone, Debug)]
pub struct Found {
    /// The record inside it, if any.
    pub record: Option<Record>,
    /// Game records counted.
    pub games: u64,
    /// The stored game-number counter.
    pub game_number: u64,
    /// The next id the database would hand out.
    pub next_id: u64,
    /// Whether it holds anything at all.
    pub has_data: bool,
}

/// How the marker file and the database agree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Both are there and agree.
    Agree,
    /// Neither is there: a new database, or one written before markers (adopt it).
    Unmarked,
    /// They disagree: what went wrong, in words for an operator.
    Damaged(Vec<String>),
}

/// Compare the marker file with what the database holds.
#[must_use]
pub fn compare(file: Option<&Marker>, found: &Found) -> Verdict {
    let mut wrong = Vec::new();
    match (file, &found.record) {
        (None, None) => return Verdict::Unmarked,
        (None, Some(r)) => wrong.push(format!(
            "the marker file {FILE} is missing, but the database says it was marked \
             (database {}, {} commits): the file was deleted, or the directory was copied \
             without it",
            r.id, r.commits
        )),
        (Some(m), None) => wrong.push(format!(
            "the database has lost its own record while {FILE} says it held {} games after \
             {} commits: the database file was emptied, replaced or damaged{}",
            m.record.games,
            m.record.commits,
            if found.has_data {
                ""
            } else {
                " (it is now empty)"
            }
        )),
        (Some(m), Some(r)) => {
            if m.record.id != r.id {
                wrong.push(format!(
                    "the database ({}) is not the one {FILE} belongs to ({}): its files were \
                     replaced by another database's",
                    r.id, m.record.id
                ));
            } else {
                let back = |what: &str, now: u64, was: u64| {
                    (now < was).then(|| format!("the {what} went back from {was} to {now}"))
                };
                wrong.extend(back("commit counter", r.commits, m.record.commits));
                wrong.extend(back("game count", found.games, m.record.games));
                wrong.extend(back(
                    "game-number counter",
                    found.game_number,
                    m.game_number,
                ));
                if found.next_id < m.ids {
                    wrong.push(format!(
                        "the id counter went back: {} was handed out, the next would be {}",
                        m.ids, found.next_id
                    ));
                }
            }
        }
    }
    if let Some(r) = &found.record {
        if r.games != found.games {
            wrong.push(format!(
                "{} games are stored but the database's record counts {}: games were lost \
                 or damaged",
                found.games, r.games
            ));
        }
    }
    if wrong.is_empty() {
        Verdict::Agree
    } else {
        Verdict::Damaged(wrong)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(record: Option<Record>, games: u64) -> Found {
        Found {
            record,
            games,
            game_number: games,
            next_id: 10,
            has_data: games > 0,
        }
    }

    fn marker(r: &Record) -> Marker {
        Marker {
            record: r.clone(),
            game_number: r.games,
            ids: 5,
        }
    }

    #[test]
    fn agreeing_counters_pass_and_any_that_went_back_is_named() {
        let mut r = Record::new(3);
        r.commits = 7;
        let m = marker(&r);
        assert_eq!(
            compare(Some(&m), &found(Some(r.clone()), 3)),
            Verdict::Agree
        );
        let mut older = r.clone();
        older.commits = 6;
        older.games = 2;
        let Verdict::Damaged(why) = compare(Some(&m), &found(Some(older), 2)) else {
            panic!("a database behind its marker passed");
        };
        assert!(why
            .iter()
            .any(|w| w.contains("commit counter went back from 7 to 6")));
        assert!(why
            .iter()
            .any(|w| w.contains("game count went back from 3 to 2")));
        assert!(why
            .iter()
            .any(|w| w.contains("game-number counter went back")));
    }

    #[test]
    fn a_missing_half_or_another_database_is_damage() {
        let r = Record::new(1);
        let m = marker(&r);
        assert!(matches!(
            compare(None, &found(Some(r.clone()), 1)),
            Verdict::Damaged(_)
        ));
        assert!(matches!(
            compare(Some(&m), &found(None, 0)),
            Verdict::Damaged(_)
        ));
        let other = Record::new(1);
        assert_ne!(other.id, r.id, "two databases get two ids");
        assert!(matches!(
            compare(Some(&m), &found(Some(other), 1)),
            Verdict::Damaged(_)
        ));
        assert_eq!(compare(None, &found(None, 4)), Verdict::Unmarked);
    }

    #[test]
    fn the_file_round_trips() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert_eq!(read(dir.path()), Ok(None));
        let m = marker(&Record::new(2));
        write(dir.path(), &m).expect("write");
        assert_eq!(read(dir.path()), Ok(Some(m)));
        std::fs::write(path(dir.path()), b"\0\0\0").expect("spoil");
        assert!(read(dir.path()).is_err());
    }
}
