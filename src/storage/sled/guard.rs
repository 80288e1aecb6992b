//! Opening a sled database safely: sled's own panics and errors on a damaged file become a
//! refusal, every record is read and decoded (`survey.rs`), and the database's counters are
//! compared with its marker (`marker.rs`). A database without a marker (new, or written before
//! markers) is adopted once it reads; one that is damaged is refused with what was found.

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Once;

use super::marker::{self, Marker, Record, Verdict};
use super::survey::Survey;
use crate::game::StorageError;

/// Why a database was not opened.
#[derive(Debug)]
pub enum OpenError {
    /// It cannot be used at all (permissions, another process holds it).
    Unusable(String),
    /// It is damaged: what was found, one line each. Nothing was written to it.
    Damaged(Vec<String>),
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::Unusable(e) => write!(f, "{e}"),
            OpenError::Damaged(what) => write!(f, "the database is damaged: {}", what.join("; ")),
        }
    }
}

impl std::error::Error for OpenError {}

impl From<OpenError> for StorageError {
    fn from(e: OpenError) -> StorageError {
        StorageError(e.to_string())
    }
}

impl From<StorageError> for OpenError {
    fn from(e: StorageError) -> OpenError {
        OpenError::Unusable(e.0)
    }
}

thread_local! {
    static QUIET: Cell<bool> = const { Cell::new(false) };
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Run `f`, turning a panic into its message, without printing it (sled panics on some
/// damaged files; the operator gets the refusal, not a backtrace). Panics elsewhere print as
/// usual.
pub(super) fn quietly<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if QUIET.with(Cell::get) {
                let text = info
                    .payload()
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_string())
                    .or_else(|| info.payload().downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".into());
                let at = info
                    .location()
                    .map(|l| format!(" (at {}:{})", l.file(), l.line()))
                    .unwrap_or_default();
                LAST_PANIC.with(|p| *p.borrow_mut() = Some(format!("{text}{at}")));
            } else {
                previous(info);
            }
        }));
    });
    let was = QUIET.with(|q| q.replace(true));
    let r = panic::catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(was));
    r.map_err(|_| {
        LAST_PANIC
            .with(|p| p.borrow_mut().take())
            .unwrap_or_else(|| "a panic".into())
    })
}

/// Whether `dir` holds a sled database (sled writes `conf` first).
#[must_use]
pub fn exists(dir: &Path) -> bool {
    dir.join("conf").exists()
}

/// What `xiangqi-bot check` found.
#[derive(Debug)]
pub struct Inspection {
    /// The database directory.
    pub dir: PathBuf,
    /// What it holds.
    pub survey: Survey,
    /// The marker file, if it reads.
    pub marker: Option<Marker>,
    /// How the marker and the database agree (a marker file that does not read is damage).
    pub verdict: Verdict,
    /// The next id the database would hand out.
    pub next_id: u64,
}

impl Inspection {
    /// Everything found wrong: records that do not read, and marker disagreements.
    #[must_use]
    pub fn damage(&self) -> Vec<String> {
        let mut out = self.survey.damaged.clone();
        let unnamed = self.survey.damaged_total - self.survey.damaged.len() as u64;
        if unnamed > 0 {
            out.push(format!("and {unnamed} more records that do not read"));
        }
        if let Verdict::Damaged(w) = &self.verdict {
            out.extend(w.iter().cloned());
        }
        out
    }
}

/// Compare what `survey` found with the marker file of `dir`.
pub(super) fn judge(dir: &Path, survey: Survey, next_id: u64) -> Inspection {
    let (marker, verdict) = match marker::read(dir) {
        Ok(m) => {
            let v = marker::compare(m.as_ref(), &survey.found(next_id));
            (m, v)
        }
        Err(e) => (None, Verdict::Damaged(vec![e])),
    };
    Inspection {
        dir: dir.to_path_buf(),
        survey,
        marker,
        verdict,
        next_id,
    }
}

/// Refuse a damaged database, adopt an unmarked one (writing its record, then the file), and
/// give the record to go on from.
pub(super) fn settle(found: &Inspection, meta: &sled::Tree, ids: u64) -> Result<Record, OpenError> {
    let damage = found.damage();
    if !damage.is_empty() {
        return Err(OpenError::Damaged(damage));
    }
    let record = match (&found.verdict, &found.survey.record) {
        (Verdict::Agree, Some(r)) => r.clone(),
        _ => {
            let r = Record::new(found.survey.games);
            if found.survey.has_data() {
                tracing::warn!(
                    dir = %found.dir.display(),
                    games = found.survey.games,
                    "a database written before markers: every record reads; marking it"
                );
            }
            meta.insert(marker::RECORD_KEY, r.encode())
                .map_err(|e| OpenError::Unusable(e.to_string()))?;
            meta.flush()
                .map_err(|e| OpenError::Unusable(e.to_string()))?;
            r
        }
    };
    let file = Marker {
        record: record.clone(),
        game_number: found.survey.game_number,
        ids,
    };
    marker::write(&found.dir, &file).map_err(|e| {
        OpenError::Unusable(format!(
            "cannot write {}: {e}",
            marker::path(&found.dir).display()
        ))
    })?;
    Ok(record)
}
