//! The sled implementation of [`crate::game::Storage`] (the only module that names sled).
//!
//! Trees: `games` (id → JSON record), `channels`, `users`, `deadlines` (time ‖ id ‖ kind →
//! channel, so the earliest is the first key), `active` (ids of games in progress),
//! `user_games` (user ‖ 0 ‖ !id, newest first), `outbox` (channel ‖ 0 ‖ sequence → the
//! replies to deliver, so each channel's entries are together and in order), `seen` (ids of
//! handled platform events → time), `meta`, `ratings` (ratings, statistics and leaderboards:
//! see `ratings.rs`). Every command's writes — its replies included — are one multi-tree
//! transaction, made durable before anything is sent; a game's rating update is part of the
//! transaction that ends it.
//!
//! All transactions and flushes run on one writer thread (group commit: the transactions
//! waiting at a time are applied one after another, then one flush makes them all durable).
//! Besides batching fsyncs under load, this avoids a sled 0.34 deadlock: a transaction takes
//! sled's global write lock, and if it queues while two flushes run, one flush holds the read
//! lock waiting for the other, which waits for the lock behind the transaction.
//!
//! sled's own flusher thread runs beside it every `CLEAN_EVERY_MS`: sled reclaims its log
//! (rewrites the pages left in a segment that is half garbage, so the segment can be reused)
//! almost only there (a page's consolidation cleans one more page); without it the files grew
//! with everything ever written, about 20 KB a game of 20 plies where 600 bytes are live
//! (docs/service-cost.md). It is the one other thread that flushes; what it does under sled's
//! read lock (seal the current buffer, rewrite one page at a time) does not wait for a flush of
//! ours, and the deadlock above needs two flushes waiting on each other behind a transaction,
//! which the writer thread still rules out.

mod dump;
pub mod guard;
pub mod marker;
mod pack;
mod ratings;
pub mod survey;
pub mod transfer;

pub use guard::{Inspection, OpenError};

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use sled::transaction::{ConflictableTransactionError, TransactionError, Transactional};

use crate::game::{
    BoxFuture, Changes, ChannelRecord, Deadline, DeadlineKind, GameRecord, GameStatus, OutboxKey,
    Storage, StorageError, UserPrefs,
};
use crate::platform::{ChannelKey, UserKey};
use crate::storage::ranking;

/// Storage in a sled database directory.
#[derive(Clone)]
pub struct SledStorage {
    trees: Arc<Trees>,
    writer: mpsc::Sender<WriteJob>,
    /// The last game number handed out (read from storage on first use).
    game_numbers: Arc<Mutex<Option<u64>>>,
}

/// The meta key of the game-number counter.
const GAME_NUMBER: &str = "game_number";
/// The meta key of the number added to sled's ids: set by an import to the highest id the
/// exported database had handed out (sled's own id counter starts again in a new database).
const IDS_OFFSET: &str = "ids_offset";
/// How often, at most, the marker file is rewritten while writes go on.
const MARKER_EVERY: Duration = Duration::from_secs(1);

struct WriteJob {
    changes: Changes,
    done: tokio::sync::oneshot::Sender<Result<(), StorageError>>,
}

struct Trees {
    db: sled::Db,
    games: sled::Tree,
    channels: sled::Tree,
    users: sled::Tree,
    deadlines: sled::Tree,
    active: sled::Tree,
    user_games: sled::Tree,
    outbox: sled::Tree,
    seen: sled::Tree,
    /// Incoming events kept until handled (see [`Changes::inbox`]).
    inbox: sled::Tree,
    meta: sled::Tree,
    ratings: sled::Tree,
    /// Game reviews by game id.
    reviews: sled::Tree,
    /// Puzzle records: solvers under `p` + NUL + player id, puzzles' ratings under `z` + NUL +
    /// puzzle id.
    puzzles: sled::Tree,
    /// The lowest outbox sequence number still free: one more than the highest stored at
    /// opening, then one more than the last given (see [`Storage::next_outbox_seq`]).
    outbox_seq: Mutex<u64>,
    /// The database directory, where the marker file is written.
    dir: PathBuf,
    /// The database's record and what the marker file needs (see `marker.rs`); changed by the
    /// writer thread only.
    marks: Mutex<Marks>,
    /// Added to sled's ids (see [`IDS_OFFSET`]).
    ids_offset: u64,
    /// The highest id handed out.
    ids_high: AtomicU64,
}

/// The writer's view of the marker.
struct Marks {
    /// The record as committed.
    record: marker::Record,
    /// The game-number counter as committed.
    game_number: u64,
    /// The record and the counter as flushed: what the marker file may say.
    flushed: (marker::Record, u64),
    /// Whether the marker file is behind `flushed`.
    dirty: bool,
    /// When the marker file was last written.
    written: Instant,
}

impl Marks {
    fn new(record: marker::Record, game_number: u64) -> Marks {
        Marks {
            flushed: (record.clone(), game_number),
            record,
            game_number,
            dirty: false,
            written: Instant::now(),
        }
    }
}

fn err(e: impl std::fmt::Display) -> StorageError {
    StorageError(e.to_string())
}

fn deadline_key(d: &Deadline) -> [u8; 17] {
    let mut k = [0u8; 17];
    k[..8].copy_from_slice(&d.at_ms.to_be_bytes());
    k[8..16].copy_from_slice(&d.id.to_be_bytes());
    k[16] = d.kind as u8;
    k
}

fn deadline_from(k: &[u8], v: &[u8]) -> Option<Deadline> {
    if k.len() != 17 {
        return None;
    }
    let at_ms = u64::from_be_bytes(k[..8].try_into().ok()?);
    let id = u64::from_be_bytes(k[8..16].try_into().ok()?);
    let kind = DeadlineKind::from_code(k[16])?;
    Some(Deadline {
        at_ms,
        id,
        kind,
        channel: String::from_utf8_lossy(v).into_owned().into(),
    })
}

fn outbox_key(k: &OutboxKey) -> Vec<u8> {
    let mut out = Vec::with_capacity(k.channel.len() + 9);
    out.extend_from_slice(k.channel.as_bytes());
    out.push(0);
    out.extend_from_slice(&k.seq.to_be_bytes());
    out
}

fn outbox_key_from(k: &[u8]) -> Option<OutboxKey> {
    let split = k.len().checked_sub(9)?;
    if k[split] != 0 {
        return None;
    }
    Some(OutboxKey {
        channel: String::from_utf8(k[..split].to_vec()).ok()?.into(),
        seq: u64::from_be_bytes(k[split + 1..].try_into().ok()?),
    })
}

fn user_game_key(user: &str, id: u64) -> Vec<u8> {
    let mut k = user.as_bytes().to_vec();
    k.push(0);
    k.extend_from_slice(&(!id).to_be_bytes());
    k
}

/// A stored record read back (packed or not: see `pack.rs`).
fn decode<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, StorageError> {
    serde_json::from_slice(&pack::unpack(bytes).map_err(err)?).map_err(err)
}

/// How often sled's flusher thread wakes to seal its buffer and reclaim its log. At 500 ms
/// (sled's default) it fell behind the load bench's 2,000 moves a second (21.5 KB a game on
/// disk); at 100 ms 2.4 KB, and 50 ms gave little more.
const CLEAN_EVERY_MS: u64 = 100;

/// A record as stored: its JSON, packed (see `pack.rs`).
fn encode<T: serde::Serialize>(value: &T) -> Result<Vec<u8>, StorageError> {
    Ok(pack::pack(serde_json::to_vec(value).map_err(err)?))
}

/// A waiting reply as the service stored it (see `pack.rs`).
fn outbox_value(stored: &[u8]) -> Result<Vec<u8>, StorageError> {
    pack::unpack(stored)
        .map(std::borrow::Cow::into_owned)
        .map_err(err)
}

impl SledStorage {
    /// Open (or create) the database in `dir`.
    ///
    /// # Errors
    /// When the directory cannot be used (permissions, another process holds the lock).
    pub fn open(dir: &Path) -> Result<SledStorage, OpenError> {
        let (trees, found) = Trees::open(dir)?;
        let record = guard::settle(&found, &trees.meta, found.next_id)?;
        ratings::rebuild_bands(&trees.ratings, &trees.meta)?;
        let mut highest = 0;
        for k in trees.outbox.iter().keys() {
            if let Some(key) = outbox_key_from(&k.map_err(err)?) {
                highest = highest.max(key.seq);
            }
        }
        let trees = Arc::new(Trees {
            outbox_seq: Mutex::new(highest + 1),
            marks: Mutex::new(Marks::new(record, found.survey.game_number)),
            ..trees
        });
        let (tx, rx) = mpsc::channel::<WriteJob>();
        let w = Arc::clone(&trees);
        std::thread::Builder::new()
            .name("sled-writer".into())
            .spawn(move || w.write_loop(&rx))
            .map_err(err)?;
        Ok(SledStorage {
            trees,
            writer: tx,
            game_numbers: Arc::new(Mutex::new(None)),
        })
    }

    /// Read everything in the database in `dir` and compare it with its marker, writing
    /// nothing of ours (`xiangqi-bot check`).
    ///
    /// # Errors
    /// When there is no database there, or sled cannot open it at all.
    pub fn inspect(dir: &Path) -> Result<Inspection, OpenError> {
        if !guard::exists(dir) {
            return Err(OpenError::Unusable(format!(
                "there is no database in {}",
                dir.display()
            )));
        }
        Trees::open(dir).map(|(_, found)| found)
    }

    /// Bytes used on disk.
    #[must_use]
    pub fn size_on_disk(&self) -> u64 {
        self.trees.db.size_on_disk().unwrap_or(0)
    }
}

/// The next game number after `last` (the last handed out), which `stored` reads on first use
/// (the highest number stored): see [`Storage::next_game_number`]. Shared by both backends.
pub(crate) fn next_number(
    last: &Mutex<Option<u64>>,
    stored: impl FnOnce() -> Result<u64, StorageError>,
) -> Result<u64, StorageError> {
    let mut last = last.lock().unwrap_or_else(PoisonError::into_inner);
    let current = match *last {
        Some(n) => n,
        None => stored()?,
    };
    let next = current.saturating_add(1);
    *last = Some(next);
    Ok(next)
}

/// Whether `changes` only forgets delivered outbox entries.
fn only_delivered(changes: &Changes) -> bool {
    !changes.delivered.is_empty()
        && !changes.changes_state()
        && changes.outbox.is_empty()
        && changes.seen.is_empty()
}

impl Trees {
    /// Open sled in `dir` with our trees, read every record and compare with the marker; a
    /// panic of sled's on a damaged file is an error like any other.
    fn open(dir: &Path) -> Result<(Trees, Inspection), OpenError> {
        let opened = guard::quietly(|| -> Result<(Trees, Inspection), OpenError> {
            let trees = Trees::open_sled(dir)?;
            let next_id = trees.generate()?;
            let found = guard::judge(dir, survey::survey(&trees), next_id);
            Ok((trees, found))
        });
        match opened {
            Ok(r) => r,
            Err(panic) => Err(OpenError::Damaged(vec![format!(
                "sled could not read its files: {panic}"
            )])),
        }
    }

    fn open_sled(dir: &Path) -> Result<Trees, OpenError> {
        let config = sled::Config::new()
            .path(dir)
            .mode(sled::Mode::HighThroughput)
            // sled's own flusher thread: a flush that makes nothing durable for us (the writer
            // thread's flush does), and where sled reclaims its log (see the module comment).
            .flush_every_ms(Some(CLEAN_EVERY_MS))
            .cache_capacity(64 * 1024 * 1024);
        // A previous handle in this process may still be closing (its writer thread drops
        // the database last): wait a little for the file lock rather than fail.
        let mut tries = 0;
        let db = loop {
            match config.open() {
                Ok(db) => break db,
                Err(sled::Error::Io(e))
                    if tries < 50 && e.to_string().contains("could not acquire lock") =>
                {
                    tries += 1;
                    std::thread::sleep(std::time::Duration::from_millis(40));
                }
                // A file cut short or garbled reads as an I/O error too; permissions and
                // the lock do not make the database damaged.
                Err(sled::Error::Io(e))
                    if !matches!(
                        e.kind(),
                        std::io::ErrorKind::UnexpectedEof | std::io::ErrorKind::InvalidData
                    ) =>
                {
                    return Err(OpenError::Unusable(e.to_string()))
                }
                Err(e) => {
                    return Err(OpenError::Damaged(vec![format!(
                        "sled could not read its files: {e}"
                    )]))
                }
            }
        };
        let t = |name: &str| db.open_tree(name).map_err(err);
        let meta = t("meta")?;
        let ids_offset = meta
            .get(IDS_OFFSET)
            .map_err(err)?
            .and_then(|v| v.as_ref().try_into().ok().map(u64::from_be_bytes))
            .unwrap_or(0);
        Ok(Trees {
            games: t("games")?,
            channels: t("channels")?,
            users: t("users")?,
            deadlines: t("deadlines")?,
            active: t("active")?,
            user_games: t("user_games")?,
            outbox: t("outbox")?,
            seen: t("seen")?,
            inbox: t("inbox")?,
            meta,
            ratings: t("ratings")?,
            reviews: t("reviews")?,
            puzzles: t("puzzles")?,
            outbox_seq: Mutex::new(1),
            dir: dir.to_path_buf(),
            marks: Mutex::new(Marks::new(marker::Record::new(0), 0)),
            ids_offset,
            ids_high: AtomicU64::new(0),
            db,
        })
    }

    /// A new id (challenges, outbox numbers): sled's, above every id an imported database
    /// handed out.
    fn generate(&self) -> Result<u64, StorageError> {
        let id = self
            .db
            .generate_id()
            .map_err(err)?
            .saturating_add(1)
            .saturating_add(self.ids_offset);
        self.ids_high.fetch_max(id, Ordering::Relaxed);
        Ok(id)
    }

    /// Everything committed so far was flushed: the marker file may say so.
    fn flushed(&self) {
        let mut marks = self.marks.lock().unwrap_or_else(PoisonError::into_inner);
        if marks.flushed.0 != marks.record || marks.flushed.1 != marks.game_number {
            marks.flushed = (marks.record.clone(), marks.game_number);
            marks.dirty = true;
        }
    }

    /// Rewrite the marker file from what was flushed.
    fn write_marker(&self) {
        let mut marks = self.marks.lock().unwrap_or_else(PoisonError::into_inner);
        let file = marker::Marker {
            record: marks.flushed.0.clone(),
            game_number: marks.flushed.1,
            ids: self.ids_high.load(Ordering::Relaxed),
        };
        match marker::write(&self.dir, &file) {
            Ok(()) => {
                marks.dirty = false;
                marks.written = Instant::now();
            }
            Err(e) => tracing::error!(error = %e, "cannot write the marker file"),
        }
    }

    /// When the marker file is next due: `None` when it is up to date.
    fn marker_due(&self) -> Option<Duration> {
        let marks = self.marks.lock().unwrap_or_else(PoisonError::into_inner);
        marks
            .dirty
            .then(|| MARKER_EVERY.saturating_sub(marks.written.elapsed()))
    }

    /// Apply jobs as they come, a group at a time: each group's transactions, then one
    /// flush, then every job in the group is answered. Ends when every sender is gone.
    ///
    /// The marker file follows the flushes: at once after an explicit flush (an empty set of
    /// changes, as at shutdown), otherwise at most once every [`MARKER_EVERY`], and last when
    /// the storage is dropped.
    fn write_loop(&self, rx: &mpsc::Receiver<WriteJob>) {
        loop {
            let first = match self.marker_due() {
                None => match rx.recv() {
                    Ok(job) => job,
                    Err(_) => break,
                },
                Some(wait) => match rx.recv_timeout(wait) {
                    Ok(job) => job,
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        self.write_marker();
                        continue;
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                },
            };
            let mut group = vec![first];
            while group.len() < 512 {
                match rx.try_recv() {
                    Ok(job) => group.push(job),
                    Err(_) => break,
                }
            }
            let asked = group.iter().any(|j| j.changes.is_empty());
            let results: Vec<Result<(), StorageError>> = group
                .iter_mut()
                .map(|j| self.commit(std::mem::take(&mut j.changes)))
                .collect();
            let flushed = self.db.flush().map(|_| ()).map_err(err);
            if flushed.is_ok() {
                self.flushed();
                if asked || self.marker_due() == Some(Duration::ZERO) {
                    self.write_marker();
                }
            }
            for (job, result) in group.into_iter().zip(results) {
                let outcome = match (result, &flushed) {
                    (Err(e), _) => Err(e),
                    (Ok(()), Err(e)) => Err(StorageError(e.0.clone())),
                    (Ok(()), Ok(())) => Ok(()),
                };
                let _ = job.done.send(outcome);
            }
        }
        if self.db.flush().is_ok() {
            self.flushed();
        }
        if self.marker_due().is_some() {
            self.write_marker();
        }
    }

    fn commit(&self, mut changes: Changes) -> Result<(), StorageError> {
        let (inbox, inbox_done) = (
            std::mem::take(&mut changes.inbox),
            std::mem::take(&mut changes.inbox_done),
        );
        if !inbox.is_empty() || !inbox_done.is_empty() {
            // The inbox is a tree of its own that nothing else refers to: a batch there, made
            // durable by the group's flush like the rest.
            let mut batch = sled::Batch::default();
            for (k, v) in inbox {
                batch.insert(k.as_bytes(), v);
            }
            for k in inbox_done {
                batch.remove(k.as_bytes());
            }
            self.inbox.apply_batch(batch).map_err(err)?;
        }
        if changes.is_empty() {
            return Ok(());
        }
        if only_delivered(&changes) {
            // Forgetting delivered entries touches one tree: a batch is as atomic there as a
            // transaction over every tree, at a fraction of its cost (one per reply sent).
            let mut batch = sled::Batch::default();
            for k in &changes.delivered {
                batch.remove(outbox_key(k));
            }
            return self.outbox.apply_batch(batch).map_err(err);
        }
        // Serialise outside the transaction closure (which may run more than once).
        let games: Vec<(u64, Vec<u8>, bool, [String; 2])> = changes
            .games
            .iter()
            .map(|g| {
                Ok((
                    g.id,
                    encode(g)?,
                    g.status == GameStatus::Active,
                    [g.red.id.to_string(), g.black.id.to_string()],
                ))
            })
            .collect::<Result<_, StorageError>>()?;
        let channels: Vec<(String, Vec<u8>)> = changes
            .channels
            .iter()
            .map(|(k, c)| Ok((k.to_string(), encode(c)?)))
            .collect::<Result<_, StorageError>>()?;
        let users: Vec<(String, Vec<u8>)> = changes
            .users
            .iter()
            .map(|(k, u)| Ok((k.to_string(), encode(u)?)))
            .collect::<Result<_, StorageError>>()?;
        let endings: Vec<crate::rating::Ending> = changes
            .games
            .iter()
            .filter_map(GameRecord::ending)
            .collect();
        let outbox: Vec<(Vec<u8>, Vec<u8>)> = std::mem::take(&mut changes.outbox)
            .into_iter()
            .map(|(k, v)| (outbox_key(&k), pack::pack(v)))
            .collect();
        let delivered: Vec<Vec<u8>> = changes.delivered.iter().map(outbox_key).collect();
        let reviews: Vec<(u64, Vec<u8>)> = changes
            .reviews
            .iter()
            .map(|r| Ok((r.game, encode(r)?)))
            .collect::<Result<_, StorageError>>()?;
        let puzzles: Vec<(Vec<u8>, Vec<u8>)> = changes
            .puzzle_players
            .iter()
            .map(|(k, p)| Ok((puzzle_key(b'p', k), encode(p)?)))
            .chain(
                changes
                    .puzzle_standings
                    .iter()
                    .map(|(k, p)| Ok((puzzle_key(b'z', k), encode(p)?))),
            )
            .collect::<Result<_, StorageError>>()?;
        let mut marks = self.marks.lock().unwrap_or_else(PoisonError::into_inner);
        let before = marks.record.clone();
        let result: Result<marker::Record, TransactionError<()>> = (
            &self.games,
            &self.channels,
            &self.users,
            &self.deadlines,
            &self.active,
            &self.user_games,
            &self.outbox,
            &self.seen,
            &self.meta,
            &self.ratings,
            &self.reviews,
            &self.puzzles,
        )
            .transaction(|(tg, tc, tu, td, ta, tug, tob, ts, tm, tr, trv, tp)| {
                if let Some(n) = changes.game_number {
                    let stored = tm
                        .get(GAME_NUMBER.as_bytes())?
                        .and_then(|v| v.as_ref().try_into().ok().map(u64::from_be_bytes))
                        .unwrap_or(0);
                    if n > stored {
                        tm.insert(GAME_NUMBER.as_bytes(), &n.to_be_bytes())?;
                    }
                }
                let mut record = before.clone();
                record.commits += 1;
                for (id, bytes, active, players) in &games {
                    // A game's players never change and it is active from its first record
                    // until it ends: its indexes are written when it is new and when it ends,
                    // not again at every move.
                    let new = tg.insert(&id.to_be_bytes(), bytes.as_slice())?.is_none();
                    if new {
                        record.games += 1;
                        for p in players {
                            tug.insert(user_game_key(p, *id), &[])?;
                        }
                    }
                    if !*active {
                        ta.remove(&id.to_be_bytes())?;
                    } else if new || ta.get(id.to_be_bytes())?.is_none() {
                        ta.insert(&id.to_be_bytes(), &[])?;
                    }
                }
                for (k, bytes) in &channels {
                    tc.insert(k.as_bytes(), bytes.as_slice())?;
                }
                for (k, bytes) in &users {
                    tu.insert(k.as_bytes(), bytes.as_slice())?;
                }
                for d in &changes.remove_deadlines {
                    td.remove(&deadline_key(d))?;
                }
                for d in &changes.add_deadlines {
                    td.insert(&deadline_key(d), d.channel.as_bytes())?;
                }
                ratings::apply_ends(tr, &endings)?;
                ratings::put_aliases(tr, &changes.aliases)?;
                for (k, v) in &outbox {
                    tob.insert(k.as_slice(), v.as_slice())?;
                }
                for k in &delivered {
                    tob.remove(k.as_slice())?;
                }
                for (id, at) in &changes.seen {
                    ts.insert(id.as_bytes(), &at.to_be_bytes())?;
                }
                for (id, bytes) in &reviews {
                    trv.insert(&id.to_be_bytes(), bytes.as_slice())?;
                }
                for (k, bytes) in &puzzles {
                    tp.insert(k.as_slice(), bytes.as_slice())?;
                }
                tm.insert(marker::RECORD_KEY.as_bytes(), record.encode())?;
                Ok::<marker::Record, ConflictableTransactionError<()>>(record)
            });
        let record = result.map_err(|e| err(format!("{e:?}")))?;
        marks.record = record;
        marks.game_number = marks.game_number.max(changes.game_number.unwrap_or(0));
        Ok(())
    }
}

/// A key of the puzzles tree: the kind's byte, NUL, the id.
fn puzzle_key(kind: u8, id: &str) -> Vec<u8> {
    let mut k = Vec::with_capacity(id.len() + 2);
    k.push(kind);
    k.push(0);
    k.extend_from_slice(id.as_bytes());
    k
}

impl Storage for SledStorage {
    fn puzzle_player(
        &self,
        player: &UserKey,
    ) -> Result<Option<crate::game::PuzzlePlayer>, StorageError> {
        match self
            .trees
            .puzzles
            .get(puzzle_key(b'p', player))
            .map_err(err)?
        {
            Some(v) => decode(&v).map(Some),
            None => Ok(None),
        }
    }

    fn puzzle_standing(
        &self,
        id: &str,
    ) -> Result<Option<crate::game::PuzzleStanding>, StorageError> {
        match self.trees.puzzles.get(puzzle_key(b'z', id)).map_err(err)? {
            Some(v) => decode(&v).map(Some),
            None => Ok(None),
        }
    }
    fn review(&self, id: u64) -> Result<Option<crate::game::ReviewRecord>, StorageError> {
        match self.trees.reviews.get(id.to_be_bytes()).map_err(err)? {
            Some(v) => decode(&v).map(Some),
            None => Ok(None),
        }
    }

    fn pending_reviews(&self) -> Result<Vec<crate::game::ReviewRecord>, StorageError> {
        let mut out = Vec::new();
        for r in self.trees.reviews.iter().values() {
            let r: crate::game::ReviewRecord = decode(&r.map_err(err)?)?;
            if r.done.is_none() {
                out.push(r);
            }
        }
        Ok(out)
    }

    fn game(&self, id: u64) -> Result<Option<GameRecord>, StorageError> {
        match self.trees.games.get(id.to_be_bytes()).map_err(err)? {
            Some(v) => decode(&v).map(Some),
            None => Ok(None),
        }
    }

    fn channel(&self, key: &ChannelKey) -> Result<Option<ChannelRecord>, StorageError> {
        match self.trees.channels.get(key.as_bytes()).map_err(err)? {
            Some(v) => decode(&v).map(Some),
            None => Ok(None),
        }
    }

    fn user(&self, key: &UserKey) -> Result<Option<UserPrefs>, StorageError> {
        match self.trees.users.get(key.as_bytes()).map_err(err)? {
            Some(v) => decode(&v).map(Some),
            None => Ok(None),
        }
    }

    fn next_game_number(&self) -> Result<u64, StorageError> {
        next_number(&self.game_numbers, || {
            // The stored counter; a database from before it was kept goes on after its
            // highest game id.
            let stored = self.meta(GAME_NUMBER)?.unwrap_or(0);
            let highest = self
                .trees
                .games
                .last()
                .map_err(err)?
                .and_then(|(k, _)| k.as_ref().try_into().ok().map(u64::from_be_bytes))
                .unwrap_or(0);
            Ok(stored.max(highest))
        })
    }

    fn next_id(&self) -> Result<u64, StorageError> {
        // sled's generate_id is monotonic and survives restarts; start ids at 1.
        self.trees.generate()
    }

    fn persist(&self, changes: Changes) -> BoxFuture<'_, Result<(), StorageError>> {
        Box::pin(async move {
            let (done, wait) = tokio::sync::oneshot::channel();
            self.writer
                .send(WriteJob { changes, done })
                .map_err(|_| err("the writer thread has stopped"))?;
            wait.await
                .map_err(|_| err("the writer thread dropped a write"))?
        })
    }

    fn next_deadline(&self) -> Result<Option<Deadline>, StorageError> {
        match self.trees.deadlines.first().map_err(err)? {
            Some((k, v)) => Ok(deadline_from(&k, &v)),
            None => Ok(None),
        }
    }

    fn due_deadlines(&self, now_ms: u64) -> Result<Vec<Deadline>, StorageError> {
        let end = (now_ms.saturating_add(1)).to_be_bytes();
        self.trees
            .deadlines
            .range(..end.as_slice())
            .map(|r| {
                let (k, v) = r.map_err(err)?;
                Ok(deadline_from(&k, &v))
            })
            .filter_map(Result::transpose)
            .collect()
    }

    fn all_deadlines(&self) -> Result<Vec<Deadline>, StorageError> {
        self.trees
            .deadlines
            .iter()
            .map(|r| {
                let (k, v) = r.map_err(err)?;
                Ok(deadline_from(&k, &v))
            })
            .filter_map(Result::transpose)
            .collect()
    }

    fn active_games(&self) -> Result<Vec<u64>, StorageError> {
        self.trees
            .active
            .iter()
            .keys()
            .map(|k| {
                let k = k.map_err(err)?;
                Ok(k.as_ref().try_into().map(u64::from_be_bytes).unwrap_or(0))
            })
            .collect()
    }

    fn games_of(&self, user: &UserKey, limit: usize) -> Result<Vec<u64>, StorageError> {
        let mut prefix = user.as_bytes().to_vec();
        prefix.push(0);
        self.trees
            .user_games
            .scan_prefix(&prefix)
            .keys()
            .take(limit)
            .map(|k| {
                let k = k.map_err(err)?;
                let tail: [u8; 8] = k[k.len().saturating_sub(8)..].try_into().unwrap_or([0; 8]);
                Ok(!u64::from_be_bytes(tail))
            })
            .collect()
    }

    fn meta(&self, key: &str) -> Result<Option<u64>, StorageError> {
        Ok(self
            .trees
            .meta
            .get(key.as_bytes())
            .map_err(err)?
            .and_then(|v| v.as_ref().try_into().ok().map(u64::from_be_bytes)))
    }

    fn set_meta(&self, key: &str, value: u64) -> Result<(), StorageError> {
        self.trees
            .meta
            .insert(key.as_bytes(), &value.to_be_bytes())
            .map(|_| ())
            .map_err(err)
    }

    fn game_count(&self) -> usize {
        self.trees.games.len()
    }

    fn game_end(&self, id: u64) -> Result<Option<crate::rating::GameEnd>, StorageError> {
        ratings::game_end(&self.trees.ratings, id)
    }

    fn profile(&self, player: &str) -> Result<Option<crate::rating::Profile>, StorageError> {
        ratings::profile(&self.trees.ratings, player)
    }

    fn pair(&self, a: &str, b: &str) -> Result<Option<crate::rating::PairRecord>, StorageError> {
        ratings::pair(&self.trees.ratings, a, b)
    }

    fn rating_history(
        &self,
        player: &str,
        family: crate::rating::Family,
        limit: usize,
    ) -> Result<Vec<crate::rating::HistoryPoint>, StorageError> {
        ratings::history(&self.trees.ratings, player, family, limit)
    }

    fn leaderboard(
        &self,
        scope: &str,
        family: crate::rating::Family,
        now_ms: u64,
        first: usize,
        visit: &mut dyn FnMut(usize, crate::rating::Entry) -> bool,
    ) -> Result<(), StorageError> {
        ranking::leaderboard(&self.trees.ratings, scope, family, now_ms, first, visit)
    }

    fn rank(
        &self,
        scope: &str,
        family: crate::rating::Family,
        player: &str,
        rating: f64,
        now_ms: u64,
    ) -> Result<Option<usize>, StorageError> {
        ranking::rank(&self.trees.ratings, scope, family, player, rating, now_ms)
    }

    fn last_family(
        &self,
        scope: &str,
    ) -> Result<Option<(crate::rating::Family, u64)>, StorageError> {
        ratings::last_family(&self.trees.ratings, scope)
    }

    fn alias(&self, handle: &str) -> Result<Option<UserKey>, StorageError> {
        Ok(ratings::alias(&self.trees.ratings, handle)?.map(UserKey::from))
    }

    fn next_outbox_seq(&self) -> Result<u64, StorageError> {
        // Never given twice, also across restarts: a delivered entry leaves no key behind, so
        // the stored keys alone would hand its number out again once the outbox is empty, and
        // Discord answers a channel message whose nonce (made from the number) it saw in the
        // last minutes with that earlier message instead of posting the new one. sled's
        // generator survives restarts; the floor keeps entries stored by an older version
        // (numbered from their keys) before the new ones.
        let mut free = self
            .trees
            .outbox_seq
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let generated = self.trees.generate()?;
        let seq = generated.max(*free);
        *free = seq.saturating_add(1);
        self.trees.ids_high.fetch_max(seq, Ordering::Relaxed);
        Ok(seq)
    }

    fn outbox(&self, prefix: &str) -> Result<Vec<(OutboxKey, Vec<u8>)>, StorageError> {
        let mut out = Vec::new();
        for r in self.trees.outbox.scan_prefix(prefix.as_bytes()) {
            let (k, v) = r.map_err(err)?;
            match outbox_key_from(&k) {
                Some(key) => out.push((key, outbox_value(&v)?)),
                None => tracing::error!(key = ?k, "an outbox key that cannot be read; skipped"),
            }
        }
        Ok(out)
    }

    fn outbox_of(
        &self,
        channel: &ChannelKey,
        after: u64,
        limit: usize,
    ) -> Result<Vec<(OutboxKey, Vec<u8>)>, StorageError> {
        let key = |seq| {
            outbox_key(&OutboxKey {
                channel: channel.clone(),
                seq,
            })
        };
        let Some(first) = after.checked_add(1) else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for r in self
            .trees
            .outbox
            .range(key(first)..=key(u64::MAX))
            .take(limit)
        {
            let (k, v) = r.map_err(err)?;
            if let Some(key) = outbox_key_from(&k) {
                out.push((key, outbox_value(&v)?));
            }
        }
        Ok(out)
    }

    fn inbox(&self, prefix: &str) -> Result<Vec<(String, Vec<u8>)>, StorageError> {
        let mut out = Vec::new();
        for r in self.trees.inbox.scan_prefix(prefix.as_bytes()) {
            let (k, v) = r.map_err(err)?;
            match String::from_utf8(k.to_vec()) {
                Ok(key) => out.push((key, v.to_vec())),
                Err(_) => tracing::error!(key = ?k, "an inbox key that cannot be read; skipped"),
            }
        }
        Ok(out)
    }

    fn seen(&self, id: &str) -> Result<bool, StorageError> {
        self.trees.seen.contains_key(id.as_bytes()).map_err(err)
    }

    fn forget_seen(&self, before_ms: u64) -> Result<usize, StorageError> {
        let mut old = Vec::new();
        for r in self.trees.seen.iter() {
            let (k, v) = r.map_err(err)?;
            let at = v.as_ref().try_into().map(u64::from_be_bytes).unwrap_or(0);
            if at < before_ms {
                old.push(k);
            }
        }
        for k in &old {
            self.trees.seen.remove(k).map_err(err)?;
        }
        Ok(old.len())
    }
}

// Records, deadlines, the outbox, handled events and game numbers are checked on sled and
// PostgreSQL alike in tests/storage/; the tests here are sled's own.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{ClockState, PlayerRef, TimeControl, SCHEMA_VERSION};

    fn game(id: u64, active: bool) -> GameRecord {
        GameRecord {
            v: SCHEMA_VERSION,
            id,
            channel: "console:#local".into(),
            red: PlayerRef::new("console:alice", "alice"),
            black: PlayerRef::new("console:bob", "bob"),
            ruleset: crate::arbiter::RulesetName::Official,
            start_fen: None,
            moves: vec!["h2e2".into()],
            time_control: TimeControl::None,
            clock: ClockState::start(TimeControl::None, 0),
            status: if active {
                GameStatus::Active
            } else {
                GameStatus::Aborted
            },
            draw_offer: None,
            takeback_request: None,
            last_refusal: None,
            takebacks: false,
            created_ms: 0,
            updated_ms: 0,
            rated: false,
            community: None,
            lang: None,
            idle_after_ms: None,
            turn_since_ms: None,
            bot_memory: None,
            hints: None,
            tournament: None,
            first_move_ms: None,
            venue: None,
        }
    }

    #[tokio::test]
    async fn records_indexes_and_deadlines_round_trip_through_a_reopen() {
        let dir = tempfile::tempdir().expect("tempdir");
        {
            let s = SledStorage::open(dir.path()).expect("open");
            let id = s.next_id().expect("id");
            let d = Deadline {
                at_ms: 5_000,
                id,
                kind: DeadlineKind::Flag,
                channel: "console:#local".into(),
            };
            s.persist(Changes {
                games: vec![game(id, true), game(id + 100, false)],
                channels: vec![("console:#local".into(), ChannelRecord::default())],
                add_deadlines: vec![d.clone()],
                ..Changes::default()
            })
            .await
            .expect("persist");
            assert_eq!(s.due_deadlines(4_999).expect("due"), vec![]);
            assert_eq!(s.due_deadlines(5_000).expect("due"), vec![d]);
        }
        let s = SledStorage::open(dir.path()).expect("reopen");
        let ids = s.active_games().expect("active");
        assert_eq!(ids.len(), 1);
        assert_eq!(
            s.game(ids[0]).expect("read").expect("some").moves,
            vec!["h2e2"]
        );
        assert_eq!(
            s.games_of(&"console:alice".into(), 10)
                .expect("games")
                .len(),
            2
        );
        assert!(
            s.next_id().expect("id") > ids[0],
            "ids keep growing after a restart"
        );
        assert_eq!(
            s.next_deadline().expect("next").map(|d| d.at_ms),
            Some(5_000)
        );
        assert!(s
            .channel(&"console:#local".into())
            .expect("channel")
            .is_some());
    }
}

#[cfg(test)]
mod outbox_tests {
    use super::*;

    #[tokio::test]
    async fn entries_stored_before_keep_their_place_before_new_ones() {
        let dir = tempfile::tempdir().expect("tempdir");
        let old = OutboxKey {
            channel: "dc:7".into(),
            seq: 1_000,
        };
        {
            let s = SledStorage::open(dir.path()).expect("open");
            s.persist(Changes {
                outbox: vec![(old.clone(), b"{}".to_vec())],
                ..Changes::default()
            })
            .await
            .expect("store");
        }
        let s = SledStorage::open(dir.path()).expect("reopen");
        assert!(s.next_outbox_seq().expect("seq") > old.seq);
    }
}

#[cfg(test)]
mod reopen_tests {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_dropped_handle_releases_the_database() {
        let dir = tempfile::tempdir().expect("tempdir");
        for _ in 0..3 {
            let s = Arc::new(SledStorage::open(dir.path()).expect("open"));
            let dynamic: Arc<dyn Storage> = s.clone();
            dynamic.persist(Changes::default()).await.expect("persist");
            drop(dynamic);
            drop(s);
        }
    }
}
