//! The ratings store on sled: one tree (`ratings`) holding the key space of
//! [`crate::rating::keys`]. A game's rating update is applied inside the transaction that
//! writes its end, after checking its end record, so it happens exactly once however often
//! the end is written (a restart, a timer and a command racing, a retried write).

use sled::transaction::{
    ConflictableTransactionError, ConflictableTransactionResult, TransactionalTree,
};

use super::err;
use crate::game::StorageError;
use crate::rating::{
    self, apply, history_point, keys, Before, Ending, Entry, Family, GameEnd, HistoryPoint,
    PairRecord, Profile, Write,
};

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
            match w {
                Write::Put(k, v) => {
                    tx.insert(k, v)?;
                }
                Write::Remove(k) => {
                    tx.remove(k)?;
                }
            }
        }
    }
    Ok(())
}

/// Remember handles.
pub(super) fn put_aliases(
    tx: &TransactionalTree,
    aliases: &[(String, String)],
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

pub(super) fn leaderboard(
    tree: &sled::Tree,
    scope: &str,
    family: Family,
    visit: &mut dyn FnMut(Entry) -> bool,
) -> Result<(), StorageError> {
    let prefix = keys::board_prefix(scope, family);
    for kv in tree.scan_prefix(&prefix) {
        let (k, v) = kv.map_err(err)?;
        let Some(entry) = keys::board_player(&k, prefix.len()).and_then(|p| Entry::decode(p, &v))
        else {
            continue;
        };
        if !visit(entry) {
            break;
        }
    }
    Ok(())
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
