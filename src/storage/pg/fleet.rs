//! Several bot processes on one database.
//!
//! - **Channels** are held with a session advisory lock per channel
//!   ([`PgStorage::take_lease`]),
//!   on a connection of a pool of their own, from before a command reads the channel until
//!   its changes are committed; PostgreSQL lets the lock go when the connection drops, so a
//!   process killed mid-command holds nothing. Every write bumps the channel's stamp
//!   (`channel_stamps`), so a process that finds the stamp where it left it keeps what it
//!   holds in memory, and reads the channel again otherwise.
//! - **Deadlines** due are claimed with `FOR UPDATE SKIP LOCKED` ([`PgStorage::claim`]):
//!   each is settled by one process; a claim lapses after [`CLAIM_MS`] if its process died.
//! - **Heartbeats**: each process has a row in `processes` with the database's time of its
//!   last heartbeat; it is alive while that is less than 10 s old (the view `live_processes`,
//!   which every question of who is alive reads). A process stopped cleanly removes its row.
//! - **Outbox**: each entry is delivered by the process that wrote it; entries of a dead
//!   process are adopted by a live one.
//! - **Engine work** (the bot's search in a channel, a hint, a review) is claimed with a row
//!   in `work_claims` ([`PgStorage::claim_work_row`]), void once its process is dead.
//! - **Game numbers**: handed out under a lock, above every number stored or handed out to a
//!   live process; a number handed out by a process that died before storing it is handed
//!   out again (no gap), as on sled.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::{Arc, Mutex, PoisonError};

use deadpool_postgres::Object;

use super::{big, err, exec, rows, small, PgStorage, GAME_NUMBER};
use crate::game::{BoxFuture, Claim, Deadline, Lease, OutboxKey, StorageError, ALIVE};

/// How long a claimed deadline is left to the process that claimed it (service time, ms).
const CLAIM_MS: u64 = 60_000;

/// Deadlines claimed at once.
const CLAIM_BATCH: i64 = 256;

/// The advisory lock that hands out game numbers one at a time.
const NUMBERS_LOCK: i64 = 0x5851_4e55_4d42_4552; // "XQNUMBER"

/// The advisory lock key of a channel (or another name): FNV-1a of its bytes. Two keys that
/// collide only wait on each other.
pub(super) fn lock_of(key: &str) -> i64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in b"xq-channel:".iter().chain(key.as_bytes()) {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    i64::from_ne_bytes(h.to_ne_bytes())
}

/// A fresh name for this process: its pid and a random part.
pub(super) fn process_name() -> String {
    let random = std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish();
    format!("{}-{random:016x}", std::process::id())
}

/// The stamps this process last saw or wrote, by channel.
#[derive(Default)]
pub(super) struct Stamps(Mutex<HashMap<String, i64>>);

/// Channels remembered before the map is cleared (a cleared map only costs one reread each).
const STAMPS_KEPT: usize = 100_000;

impl Stamps {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, i64>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Remember `stamp` for `channel`; whether it was the stamp remembered before.
    fn see(&self, channel: &str, stamp: i64) -> bool {
        let mut map = self.lock();
        if map.len() > STAMPS_KEPT {
            map.clear();
        }
        map.insert(channel.to_string(), stamp) == Some(stamp)
    }

    /// Remember the stamps this process's own write left.
    pub(super) fn wrote(&self, stamps: &[(String, i64)]) {
        for (channel, stamp) in stamps {
            self.see(channel, *stamp);
        }
    }
}

/// A held advisory lock and its connection: dropping it unlocks and returns the connection,
/// or closes the connection (which lets the lock go) if unlocking fails.
struct Held {
    client: Option<Object>,
    lock: i64,
    handle: tokio::runtime::Handle,
}

impl Drop for Held {
    fn drop(&mut self) {
        let Some(client) = self.client.take() else {
            return;
        };
        let lock = self.lock;
        self.handle.spawn(async move {
            let unlocked = rows(&client, "SELECT pg_advisory_unlock($1)", &[&lock])
                .await
                .ok()
                .and_then(|r| r.first().and_then(|row| row.try_get::<_, bool>(0).ok()));
            if unlocked != Some(true) {
                tracing::warn!("a channel lock was not released cleanly; its connection is closed");
                drop(Object::take(client));
            }
        });
    }
}

/// A claimed piece of work: dropping it removes the claim.
struct Claimed {
    bridge: Arc<super::Bridge>,
    key: String,
    me: String,
}

impl Drop for Claimed {
    fn drop(&mut self) {
        let (key, me) = (std::mem::take(&mut self.key), std::mem::take(&mut self.me));
        let pool = self.bridge.pool.clone();
        self.bridge.handle.spawn(async move {
            if let Ok(client) = pool.get().await {
                let _ = exec(
                    &client,
                    "DELETE FROM work_claims WHERE key = $1 AND process = $2",
                    &[&key, &me],
                )
                .await;
            }
        });
    }
}

impl PgStorage {
    /// See [`crate::game::Storage::lease`].
    pub(super) fn take_lease<'a>(
        &'a self,
        key: &'a str,
    ) -> BoxFuture<'a, Result<Option<Lease>, StorageError>> {
        let pool = self.bridge.leases.clone();
        let handle = self.bridge.handle.clone();
        let key = key.to_string();
        let stamps = Arc::clone(&self.stamps);
        Box::pin(async move {
            let lock = lock_of(&key);
            let (tx, rx) = tokio::sync::oneshot::channel();
            let task_handle = handle.clone();
            handle.spawn(async move {
                let got = async {
                    let client = pool
                        .get()
                        .await
                        .map_err(|e| err(format!("no database connection: {e}")))?;
                    rows(&client, "SELECT pg_advisory_lock($1)", &[&lock])
                        .await
                        .map_err(err)?;
                    // Read after the lock is held (a statement of its own: its snapshot is
                    // taken once the lock is).
                    let stamp = rows(
                        &client,
                        "SELECT stamp FROM channel_stamps WHERE channel = $1",
                        &[&key],
                    )
                    .await
                    .map_err(err)?
                    .first()
                    .map(|row| row.try_get::<_, i64>(0))
                    .transpose()
                    .map_err(err)?
                    .unwrap_or(0);
                    Ok::<_, StorageError>(Some((client, stamp)))
                }
                .await;
                // The held lock goes with `Held`: if the asker gave up waiting, it is released
                // here at once.
                let _ = tx.send(got.map(|got| {
                    got.map(|(client, stamp)| {
                        let held = Held {
                            client: Some(client),
                            lock,
                            handle: task_handle,
                        };
                        (held, key, stamp)
                    })
                }));
            });
            let Some((held, key, stamp)) = rx
                .await
                .map_err(|_| err("the PostgreSQL runtime has stopped"))??
            else {
                return Ok(None);
            };
            // Only the asker remembers the stamp: it reads the channel again when not fresh.
            let fresh = stamps.see(&key, stamp);
            Ok(Some(Lease {
                fresh,
                hold: Box::new(held),
            }))
        })
    }

    /// See [`crate::game::Storage::claim_work`]: a row in `work_claims` (no connection is
    /// held meanwhile), taken over from a process no longer alive, removed when dropped.
    pub(super) fn claim_work_row<'a>(
        &'a self,
        key: &'a str,
    ) -> BoxFuture<'a, Result<Option<Claim>, StorageError>> {
        let me = self.me();
        let key = key.to_string();
        let bridge = Arc::clone(&self.bridge);
        Box::pin(async move {
            let (k, m) = (key.clone(), me.clone());
            let got = bridge
                .run(move |client| async move {
                    rows(
                        &client,
                        "INSERT INTO work_claims (key, process) VALUES ($1, $2)
                         ON CONFLICT (key) DO UPDATE SET process = EXCLUDED.process
                         WHERE work_claims.process = EXCLUDED.process
                            OR work_claims.process NOT IN (SELECT id FROM live_processes)
                         RETURNING 1",
                        &[&k, &m],
                    )
                    .await
                    .map(|r| !r.is_empty())
                    .map_err(err)
                })
                .await?;
            Ok(got.then(|| Box::new(Claimed { bridge, key, me }) as Claim))
        })
    }

    /// See [`crate::game::Storage::claim_due`].
    pub(super) fn claim(&self, now_ms: u64) -> Result<Vec<Deadline>, StorageError> {
        let now = big(now_ms)?;
        let until = big(now_ms.saturating_add(CLAIM_MS))?;
        self.deadlines(
            "WITH claimed AS (
                 UPDATE deadlines d SET claimed_until = $2
                 FROM (SELECT at_ms, id, kind FROM deadlines
                       WHERE at_ms <= $1 AND claimed_until <= $1
                       ORDER BY at_ms, id, kind LIMIT $3
                       FOR UPDATE SKIP LOCKED) c
                 WHERE d.at_ms = c.at_ms AND d.id = c.id AND d.kind = c.kind
                 RETURNING d.at_ms, d.id, d.kind, d.channel)
             SELECT at_ms, id, kind, channel FROM claimed ORDER BY at_ms, id, kind",
            super::params![now, until, CLAIM_BATCH],
        )
    }

    /// See [`crate::game::Storage::beat`].
    pub(super) fn heartbeat(&self, now_ms: u64) -> Result<(), StorageError> {
        let me = self.me();
        let now = big(now_ms)?;
        self.bridge.wait(move |client| async move {
            exec(
                &client,
                "INSERT INTO processes (id) VALUES ($1)
                 ON CONFLICT (id) DO UPDATE SET alive_at = now()",
                &[&me],
            )
            .await
            .map_err(err)?;
            exec(
                &client,
                "INSERT INTO meta (key, value) VALUES ($1, $2)
                 ON CONFLICT (key) DO UPDATE SET value = greatest(meta.value, EXCLUDED.value)",
                &[&ALIVE, &now],
            )
            .await
            .map_err(err)
            .map(|_| ())
        })
    }

    /// See [`crate::game::Storage::others_alive`].
    pub(super) fn live_others(&self) -> Result<Vec<String>, StorageError> {
        self.bridge
            .query(
                "SELECT id FROM live_processes WHERE id <> $1 ORDER BY id",
                super::params![self.me()],
            )?
            .iter()
            .map(|row| row.try_get(0).map_err(err))
            .collect()
    }

    /// See [`crate::game::Storage::adopt_outbox`].
    pub(super) fn adopt(&self, prefix: &str) -> Result<Vec<(OutboxKey, Vec<u8>)>, StorageError> {
        self.outbox_rows(
            "WITH adopted AS (
                 UPDATE outbox SET owner = $2
                 WHERE starts_with(channel, $1) AND owner <> $2
                   AND owner NOT IN (SELECT id FROM live_processes)
                 RETURNING channel, seq, reply)
             SELECT channel, seq, reply FROM adopted ORDER BY channel, seq",
            super::params![prefix.to_string(), self.me()],
        )
    }

    /// See [`crate::game::Storage::next_game_number`]: one more than every number stored
    /// and every number a live process (or this one) holds, claimed for this process; claims
    /// of stored numbers are forgotten on the way (the deletion does not change the maximum:
    /// they are below the stored one).
    pub(super) fn number(&self) -> Result<u64, StorageError> {
        let me = self.me();
        self.bridge.wait(move |mut client| async move {
            let tx = client.transaction().await.map_err(err)?;
            exec(&tx, "SELECT pg_advisory_xact_lock($1)", &[&NUMBERS_LOCK])
                .await
                .map_err(err)?;
            let next: i64 = rows(
                &tx,
                "WITH stored AS (
                     SELECT greatest(
                         (SELECT coalesce(max(value), 0) FROM meta WHERE key = $1),
                         (SELECT coalesce(max(id), 0) FROM games)) AS n),
                 done AS (DELETE FROM number_claims WHERE number <= (SELECT n FROM stored))
                 INSERT INTO number_claims (number, process)
                 SELECT greatest(
                     (SELECT n FROM stored),
                     (SELECT coalesce(max(number), 0) FROM number_claims
                      WHERE process = $2 OR process IN (SELECT id FROM live_processes))) + 1,
                     $2
                 ON CONFLICT (number) DO UPDATE SET process = EXCLUDED.process
                 RETURNING number",
                &[&GAME_NUMBER, &me],
            )
            .await
            .map_err(err)?
            .first()
            .ok_or_else(|| err("no game number handed out"))?
            .try_get(0)
            .map_err(err)?;
            tx.commit().await.map_err(err)?;
            Ok(small(next))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lock_keys_are_stable_and_spread() {
        assert_eq!(lock_of("tg:1"), lock_of("tg:1"));
        assert_ne!(lock_of("tg:1"), lock_of("tg:2"));
        assert_ne!(lock_of("dc:1"), lock_of("tg:1"));
        assert_ne!(process_name(), process_name());
    }

    #[test]
    fn stamps_say_whether_memory_is_current() {
        let s = Stamps::default();
        assert!(!s.see("c", 0), "never seen: read it");
        assert!(s.see("c", 0));
        s.wrote(&[("c".into(), 1)]);
        assert!(s.see("c", 1), "our own write leaves memory current");
        assert!(!s.see("c", 3), "another process wrote");
    }
}
