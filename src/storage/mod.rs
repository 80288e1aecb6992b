//! The sled implementation of [`crate::game::Storage`] (the only module that names sled).
//!
//! Trees: `games` (id → JSON record), `channels`, `users`, `deadlines` (time ‖ id ‖ kind →
//! channel, so the earliest is the first key), `active` (ids of games in progress),
//! `user_games` (user ‖ 0 ‖ !id, newest first), `meta`. Every command's writes go through one
//! multi-tree transaction; `flush` makes them durable before the reply is sent.

use std::path::Path;

use sled::transaction::{ConflictableTransactionError, TransactionError, Transactional};

use crate::game::{
    BoxFuture, Changes, ChannelRecord, Deadline, DeadlineKind, GameRecord, GameStatus, Storage,
    StorageError, UserPrefs,
};

/// Storage in a sled database directory.
#[derive(Clone)]
pub struct SledStorage {
    db: sled::Db,
    games: sled::Tree,
    channels: sled::Tree,
    users: sled::Tree,
    deadlines: sled::Tree,
    active: sled::Tree,
    user_games: sled::Tree,
    meta: sled::Tree,
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
    let kind = match k[16] {
        0 => DeadlineKind::Flag,
        1 => DeadlineKind::Warn,
        2 => DeadlineKind::ChallengeExpiry,
        _ => return None,
    };
    Some(Deadline {
        at_ms,
        id,
        kind,
        channel: String::from_utf8_lossy(v).into_owned(),
    })
}

fn user_game_key(user: &str, id: u64) -> Vec<u8> {
    let mut k = user.as_bytes().to_vec();
    k.push(0);
    k.extend_from_slice(&(!id).to_be_bytes());
    k
}

fn decode<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, StorageError> {
    serde_json::from_slice(bytes).map_err(err)
}

impl SledStorage {
    /// Open (or create) the database in `dir`.
    ///
    /// # Errors
    /// When the directory cannot be used (permissions, another process holds the lock).
    pub fn open(dir: &Path) -> Result<SledStorage, StorageError> {
        let db = sled::Config::new()
            .path(dir)
            .mode(sled::Mode::HighThroughput)
            .open()
            .map_err(err)?;
        let t = |name: &str| db.open_tree(name).map_err(err);
        Ok(SledStorage {
            games: t("games")?,
            channels: t("channels")?,
            users: t("users")?,
            deadlines: t("deadlines")?,
            active: t("active")?,
            user_games: t("user_games")?,
            meta: t("meta")?,
            db,
        })
    }

    /// Bytes used on disk.
    #[must_use]
    pub fn size_on_disk(&self) -> u64 {
        self.db.size_on_disk().unwrap_or(0)
    }
}

impl Storage for SledStorage {
    fn game(&self, id: u64) -> Result<Option<GameRecord>, StorageError> {
        match self.games.get(id.to_be_bytes()).map_err(err)? {
            Some(v) => decode(&v).map(Some),
            None => Ok(None),
        }
    }

    fn channel(&self, key: &str) -> Result<Option<ChannelRecord>, StorageError> {
        match self.channels.get(key.as_bytes()).map_err(err)? {
            Some(v) => decode(&v).map(Some),
            None => Ok(None),
        }
    }

    fn user(&self, key: &str) -> Result<Option<UserPrefs>, StorageError> {
        match self.users.get(key.as_bytes()).map_err(err)? {
            Some(v) => decode(&v).map(Some),
            None => Ok(None),
        }
    }

    fn next_id(&self) -> Result<u64, StorageError> {
        // sled's generate_id is monotonic and survives restarts; start ids at 1.
        self.db.generate_id().map(|i| i + 1).map_err(err)
    }

    fn commit(&self, changes: Changes) -> Result<(), StorageError> {
        if changes.is_empty() {
            return Ok(());
        }
        // Serialise outside the transaction closure (which may run more than once).
        let games: Vec<(u64, Vec<u8>, bool, [String; 2])> = changes
            .games
            .iter()
            .map(|g| {
                Ok((
                    g.id,
                    serde_json::to_vec(g).map_err(err)?,
                    g.status == GameStatus::Active,
                    [g.red.id.clone(), g.black.id.clone()],
                ))
            })
            .collect::<Result<_, StorageError>>()?;
        let channels: Vec<(String, Vec<u8>)> = changes
            .channels
            .iter()
            .map(|(k, c)| Ok((k.clone(), serde_json::to_vec(c).map_err(err)?)))
            .collect::<Result<_, StorageError>>()?;
        let users: Vec<(String, Vec<u8>)> = changes
            .users
            .iter()
            .map(|(k, u)| Ok((k.clone(), serde_json::to_vec(u).map_err(err)?)))
            .collect::<Result<_, StorageError>>()?;
        let result: Result<(), TransactionError<()>> = (
            &self.games,
            &self.channels,
            &self.users,
            &self.deadlines,
            &self.active,
            &self.user_games,
        )
            .transaction(|(tg, tc, tu, td, ta, tug)| {
                for (id, bytes, active, players) in &games {
                    tg.insert(&id.to_be_bytes(), bytes.as_slice())?;
                    if *active {
                        ta.insert(&id.to_be_bytes(), &[])?;
                    } else {
                        ta.remove(&id.to_be_bytes())?;
                    }
                    for p in players {
                        tug.insert(user_game_key(p, *id), &[])?;
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
                Ok::<(), ConflictableTransactionError<()>>(())
            });
        result.map_err(|e| err(format!("{e:?}")))
    }

    fn flush(&self) -> BoxFuture<'_, Result<(), StorageError>> {
        Box::pin(async move { self.db.flush_async().await.map(|_| ()).map_err(err) })
    }

    fn next_deadline(&self) -> Result<Option<Deadline>, StorageError> {
        match self.deadlines.first().map_err(err)? {
            Some((k, v)) => Ok(deadline_from(&k, &v)),
            None => Ok(None),
        }
    }

    fn due_deadlines(&self, now_ms: u64) -> Result<Vec<Deadline>, StorageError> {
        let end = (now_ms.saturating_add(1)).to_be_bytes();
        self.deadlines
            .range(..end.as_slice())
            .map(|r| {
                let (k, v) = r.map_err(err)?;
                Ok(deadline_from(&k, &v))
            })
            .filter_map(Result::transpose)
            .collect()
    }

    fn all_deadlines(&self) -> Result<Vec<Deadline>, StorageError> {
        self.deadlines
            .iter()
            .map(|r| {
                let (k, v) = r.map_err(err)?;
                Ok(deadline_from(&k, &v))
            })
            .filter_map(Result::transpose)
            .collect()
    }

    fn active_games(&self) -> Result<Vec<u64>, StorageError> {
        self.active
            .iter()
            .keys()
            .map(|k| {
                let k = k.map_err(err)?;
                Ok(k.as_ref().try_into().map(u64::from_be_bytes).unwrap_or(0))
            })
            .collect()
    }

    fn games_of(&self, user: &str, limit: usize) -> Result<Vec<u64>, StorageError> {
        let mut prefix = user.as_bytes().to_vec();
        prefix.push(0);
        self.user_games
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
            .meta
            .get(key.as_bytes())
            .map_err(err)?
            .and_then(|v| v.as_ref().try_into().ok().map(u64::from_be_bytes)))
    }

    fn set_meta(&self, key: &str, value: u64) -> Result<(), StorageError> {
        self.meta
            .insert(key.as_bytes(), &value.to_be_bytes())
            .map(|_| ())
            .map_err(err)
    }

    fn game_count(&self) -> usize {
        self.games.len()
    }
}

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
            ruleset: "official".into(),
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
            s.commit(Changes {
                games: vec![game(id, true), game(id + 100, false)],
                channels: vec![("console:#local".into(), ChannelRecord::default())],
                add_deadlines: vec![d.clone()],
                ..Changes::default()
            })
            .expect("commit");
            s.flush().await.expect("flush");
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
        assert_eq!(s.games_of("console:alice", 10).expect("games").len(), 2);
        assert!(
            s.next_id().expect("id") > ids[0],
            "ids keep growing after a restart"
        );
        assert_eq!(
            s.next_deadline().expect("next").map(|d| d.at_ms),
            Some(5_000)
        );
        assert!(s.channel("console:#local").expect("channel").is_some());
    }
}
