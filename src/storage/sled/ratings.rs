//! The ratings store on sled: one tree (`ratings`) holding the key space of
//! [`crate::rating::keys`]. A game's rating update is applied inside the transaction that
//! writes its end, after checking its end record, so it happens exactly once however often
//! the end is written (a restart, a timer and a command racing, a retried write).

use sled::transaction::{
    ConflictableTransactionError, ConflictableTransactionResult, TransactionalTree,
};

use super::err;
use crate::game::StorageError;
use crate::rating::board::Band;
use crate::rating::{
    self, apply, history_point, keys, Before, Ending, Entry, Family, GameEnd, HistoryPoint,
    PairRecord, Profile, Write,
};
use crate::storage::ranking::KeyRange;

/// The meta key set once every leaderboard band is built (see [`rebuild_bands`]).
pub(super) const BANDS_BUILT: &str = "ratings.bands.v1";

/// When a stored leaderboard entry leaves the board.
fn until(v: &[u8]) -> Option<u64> {
    Entry::decode(String::new(), v).map(|e| e.until_ms())
}

/// Add (or take away) a leaderboard entry's moment in its band.
fn band_change(
    tx: &TransactionalTree,
    board_key: &[u8],
    until: u64,
    add: bool,
) -> ConflictableTransactionResult<(), ()> {
    let Some(key) = keys::band_of(board_key) else {
        return Ok(());
    };
    let mut band = tx.get(&key)?.map(|v| Band::decode(&v)).unwrap_or_default();
    if add {
        band.add(until);
    } else {
        band.remove(until);
    }
    if band.is_empty() {
        tx.remove(key)?;
    } else {
        tx.insert(key, band.encode())?;
    }
    Ok(())
}

/// Write one change of a rating update, keeping the leaderboard bands in step.
fn write(tx: &TransactionalTree, w: Write) -> ConflictableTransactionResult<(), ()> {
    let (key, new) = match w {
        Write::Put(k, v) => (k, Some(v)),
        Write::Remove(k) => (k, None),
    };
    if key.first() == Some(&keys::BOARD) {
        if let Some(old) = tx.get(&key)?.and_then(|v| until(&v)) {
            band_change(tx, &key, old, false)?;
        }
        if let Some(u) = new.as_deref().and_then(until) {
            band_change(tx, &key, u, true)?;
        }
    }
    match new {
        Some(v) => tx.insert(key, v)?,
        None => tx.remove(key)?,
    };
    Ok(())
}

/// Build every leaderboard band from the entries (a database written before bands existed,
/// or a build cut short), then mark them built. Runs at open, before any write.
pub(super) fn rebuild_bands(tree: &sled::Tree, meta: &sled::Tree) -> Result<(), StorageError> {
    if meta.get(BANDS_BUILT).map_err(err)?.is_some() {
        return Ok(());
    }
    for k in tree.scan_prefix([keys::BAND]).keys() {
        tree.remove(k.map_err(err)?).map_err(err)?;
    }
    let mut bands: std::collections::BTreeMap<Vec<u8>, Band> = std::collections::BTreeMap::new();
    for kv in tree.scan_prefix([keys::BOARD]) {
        let (k, v) = kv.map_err(err)?;
        if let (Some(band), Some(u)) = (keys::band_of(&k), until(&v)) {
            bands.entry(band).or_default().add(u);
        }
    }
    if !bands.is_empty() {
        tracing::info!(bands = bands.len(), "leaderboard bands built");
    }
    for (k, band) in bands {
        tree.insert(k, band.encode()).map_err(err)?;
    }
    meta.insert(BANDS_BUILT, &1u64.to_be_bytes()).map_err(err)?;
    tree.flush().map_err(err)?;
    meta.flush().map_err(err)?;
    Ok(())
}

fn read<T: serde::de::DeserializeOwned>(
    tx: &TransactionalTree,
    key: &[u8],
) -> ConflictableTransactionResult<Option<T>, ()> {
    match tx.get(key)? {
        None => Ok(None),
        Some(v) => rating::decode(&v).map(Some).map_err(|e| {
            tracing::error!(error = %e, "a rating record does not read; the game's end is not stored");
            ConflictableTransactionError::Abort(())
        }),
    }
}

/// Apply the rating update of each game in `endings` that has none yet.
pub(super) fn apply_ends(
    tx: &TransactionalTree,
    endings: &[Ending],
) -> ConflictableTransactionResult<(), ()> {
    for e in endings {
        if tx.get(keys::end(e.game))?.is_some() {
            continue;
        }
        let before = Before {
            red: read(tx, &keys::profile(&e.red.id))?,
            black: read(tx, &keys::profile(&e.black.id))?,
            pair: read(tx, &keys::pair(&e.red.id, &e.black.id))?,
        };
        for w in apply(e, before).writes {
            write(tx, w)?;
        }
    }
    Ok(())
}

/// Remember handles.
pub(super) fn put_aliases(
    tx: &TransactionalTree,
    aliases: &[(String, crate::platform::UserKey)],
) -> ConflictableTransactionResult<(), ()> {
    for (handle, id) in aliases {
        tx.insert(keys::alias(handle), id.as_bytes())?;
    }
    Ok(())
}

fn get<T: serde::de::DeserializeOwned>(
    tree: &sled::Tree,
    key: &[u8],
) -> Result<Option<T>, StorageError> {
    match tree.get(key).map_err(err)? {
        Some(v) => rating::decode(&v).map(Some).map_err(err),
        None => Ok(None),
    }
}

pub(super) fn game_end(tree: &sled::Tree, id: u64) -> Result<Option<GameEnd>, StorageError> {
    get(tree, &keys::end(id))
}

pub(super) fn profile(tree: &sled::Tree, player: &str) -> Result<Option<Profile>, StorageError> {
    get(tree, &keys::profile(player))
}

pub(super) fn pair(
    tree: &sled::Tree,
    a: &str,
    b: &str,
) -> Result<Option<PairRecord>, StorageError> {
    get(tree, &keys::pair(a, b))
}

pub(super) fn history(
    tree: &sled::Tree,
    player: &str,
    family: Family,
    limit: usize,
) -> Result<Vec<HistoryPoint>, StorageError> {
    let prefix = keys::history_prefix(player, family);
    let mut points = Vec::new();
    for kv in tree.scan_prefix(&prefix).rev().take(limit) {
        let (k, v) = kv.map_err(err)?;
        if let Some(p) = k
            .get(prefix.len()..)
            .and_then(|tail| history_point(tail, &v))
        {
            points.push(p);
        }
    }
    points.reverse();
    Ok(points)
}

/// The ratings tree read in key order, for leaderboard pages and ranks (`ranking.rs`).
impl KeyRange for sled::Tree {
    fn scan(
        &self,
        prefix: &[u8],
        from: &[u8],
        each: &mut dyn FnMut(&[u8], &[u8]) -> bool,
    ) -> Result<(), StorageError> {
        for kv in self.range(from..) {
            let (k, v) = kv.map_err(err)?;
            if !k.starts_with(prefix) || !each(&k, &v) {
                break;
            }
        }
        Ok(())
    }
}

pub(super) fn last_family(
    tree: &sled::Tree,
    scope: &str,
) -> Result<Option<(Family, u64)>, StorageError> {
    Ok(tree
        .get(keys::community(scope))
        .map_err(err)?
        .and_then(|v| {
            let family = Family::from_index(*v.first()?)?;
            let at = u64::from_be_bytes(v.get(1..9)?.try_into().ok()?);
            Some((family, at))
        }))
}

pub(super) fn alias(tree: &sled::Tree, handle: &str) -> Result<Option<String>, StorageError> {
    Ok(tree
        .get(keys::alias(handle))
        .map_err(err)?
        .map(|v| String::from_utf8_lossy(&v).into_owned()))
}
