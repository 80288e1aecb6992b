//! Ratings on PostgreSQL: the key space of [`crate::rating::keys`] as rows of the `ratings`
//! table (`k bytea` → `v bytea`), read with range scans in key order, as the sled storage
//! reads its tree. A game's rating update runs in the transaction that stores its end, after
//! checking its end record, so it happens once per game; the leaderboard bands are kept in
//! step as in sled (`src/storage/sled/ratings.rs`), so pages and ranks are found the same way.

use deadpool_postgres::Transaction;

use super::{err, exec, params, rows, PgStorage};
use crate::game::StorageError;
use crate::rating::board::Band;
use crate::rating::{
    self, apply, history_point, keys, Before, Ending, Entry, Family, GameEnd, HistoryPoint,
    PairRecord, Profile, Write,
};
use crate::storage::copy::KeyValues;
use crate::storage::ranking::KeyRange;

/// Rows read at a time when walking a leaderboard (small, so paging is tested).
const PAGE: i64 = 64;

/// The first key after every key starting with `prefix` (none when there is no such key).
fn prefix_end(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < u8::MAX {
            end.push(last + 1);
            return Some(end);
        }
    }
    None
}

/// Rows with `from <= k < end`, in key order (`desc` reverses it), at most `limit`.
fn range(
    s: &PgStorage,
    from: Vec<u8>,
    end: Option<Vec<u8>>,
    desc: bool,
    limit: i64,
) -> Result<KeyValues, StorageError> {
    let rows = match (end, desc) {
        (Some(end), false) => s.bridge.query(
            "SELECT k, v FROM ratings WHERE k >= $1 AND k < $2 ORDER BY k LIMIT $3",
            params![from, end, limit],
        ),
        (Some(end), true) => s.bridge.query(
            "SELECT k, v FROM ratings WHERE k >= $1 AND k < $2 ORDER BY k DESC LIMIT $3",
            params![from, end, limit],
        ),
        (None, false) => s.bridge.query(
            "SELECT k, v FROM ratings WHERE k >= $1 ORDER BY k LIMIT $2",
            params![from, limit],
        ),
        (None, true) => s.bridge.query(
            "SELECT k, v FROM ratings WHERE k >= $1 ORDER BY k DESC LIMIT $2",
            params![from, limit],
        ),
    }?;
    rows.iter()
        .map(|r| Ok((r.try_get(0).map_err(err)?, r.try_get(1).map_err(err)?)))
        .collect()
}

fn value(s: &PgStorage, key: Vec<u8>) -> Result<Option<Vec<u8>>, StorageError> {
    s.one("SELECT v FROM ratings WHERE k = $1", params![key])
}

fn get<T: serde::de::DeserializeOwned>(
    s: &PgStorage,
    key: Vec<u8>,
) -> Result<Option<T>, StorageError> {
    value(s, key)?
        .map(|v| rating::decode(&v).map_err(err))
        .transpose()
}

pub(super) fn game_end(s: &PgStorage, id: u64) -> Result<Option<GameEnd>, StorageError> {
    get(s, keys::end(id))
}

pub(super) fn profile(s: &PgStorage, player: &str) -> Result<Option<Profile>, StorageError> {
    get(s, keys::profile(player))
}

pub(super) fn pair(s: &PgStorage, a: &str, b: &str) -> Result<Option<PairRecord>, StorageError> {
    get(s, keys::pair(a, b))
}

pub(super) fn history(
    s: &PgStorage,
    player: &str,
    family: Family,
    limit: usize,
) -> Result<Vec<HistoryPoint>, StorageError> {
    let prefix = keys::history_prefix(player, family);
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let mut points: Vec<HistoryPoint> = range(s, prefix.clone(), prefix_end(&prefix), true, limit)?
        .iter()
        .filter_map(|(k, v)| history_point(k.get(prefix.len()..)?, v))
        .collect();
    points.reverse();
    Ok(points)
}

/// The `ratings` table read in key order, a page at a time, for leaderboard pages and ranks
/// (`src/storage/ranking.rs`).
impl KeyRange for PgStorage {
    fn scan(
        &self,
        prefix: &[u8],
        from: &[u8],
        each: &mut dyn FnMut(&[u8], &[u8]) -> bool,
    ) -> Result<(), StorageError> {
        let end = prefix_end(prefix);
        let mut start = from.to_vec();
        loop {
            let page = range(self, start, end.clone(), false, PAGE)?;
            let Some(last) = page.last().map(|(k, _)| k.clone()) else {
                return Ok(());
            };
            for (k, v) in &page {
                if !each(k, v) {
                    return Ok(());
                }
            }
            if page.len() < usize::try_from(PAGE).unwrap_or(usize::MAX) {
                return Ok(());
            }
            // The first key after `last`.
            start = last;
            start.push(0);
        }
    }
}

pub(super) fn last_family(
    s: &PgStorage,
    scope: &str,
) -> Result<Option<(Family, u64)>, StorageError> {
    Ok(value(s, keys::community(scope))?.and_then(|v| {
        let family = Family::from_index(*v.first()?)?;
        let at = u64::from_be_bytes(v.get(1..9)?.try_into().ok()?);
        Some((family, at))
    }))
}

/// A value in the transaction.
async fn tx_value(tx: &Transaction<'_>, key: &[u8]) -> Result<Option<Vec<u8>>, StorageError> {
    match rows(tx, "SELECT v FROM ratings WHERE k = $1", &[&key])
        .await
        .map_err(err)?
        .first()
    {
        Some(row) => row.try_get(0).map(Some).map_err(err),
        None => Ok(None),
    }
}

async fn tx_put(tx: &Transaction<'_>, key: &[u8], v: Option<&[u8]>) -> Result<(), StorageError> {
    match v {
        Some(v) => exec(
            tx,
            "INSERT INTO ratings (k, v) VALUES ($1, $2) ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v",
            &[&key, &v],
        )
        .await,
        None => exec(tx, "DELETE FROM ratings WHERE k = $1", &[&key]).await,
    }
    .map(|_| ())
    .map_err(err)
}

async fn tx_record<T: serde::de::DeserializeOwned>(
    tx: &Transaction<'_>,
    key: &[u8],
) -> Result<Option<T>, StorageError> {
    tx_value(tx, key)
        .await?
        .map(|v| {
            rating::decode(&v).map_err(|e| {
                err(format!(
                    "a rating record does not read; the game's end is not stored: {e}"
                ))
            })
        })
        .transpose()
}

/// When a stored leaderboard entry leaves the board.
fn until(v: &[u8]) -> Option<u64> {
    Entry::decode(String::new(), v).map(|e| e.until_ms())
}

/// Add (or take away) a leaderboard entry's moment in its band.
async fn band_change(
    tx: &Transaction<'_>,
    board_key: &[u8],
    until: u64,
    add: bool,
) -> Result<(), StorageError> {
    let Some(key) = keys::band_of(board_key) else {
        return Ok(());
    };
    let mut band = tx_value(tx, &key)
        .await?
        .map(|v| Band::decode(&v))
        .unwrap_or_default();
    if add {
        band.add(until);
    } else {
        band.remove(until);
    }
    let encoded = (!band.is_empty()).then(|| band.encode());
    tx_put(tx, &key, encoded.as_deref()).await
}

/// Write one change of a rating update, keeping the leaderboard bands in step.
async fn write(tx: &Transaction<'_>, w: Write) -> Result<(), StorageError> {
    let (key, new) = match w {
        Write::Put(k, v) => (k, Some(v)),
        Write::Remove(k) => (k, None),
    };
    if key.first() == Some(&keys::BOARD) {
        if let Some(old) = tx_value(tx, &key).await?.and_then(|v| until(&v)) {
            band_change(tx, &key, old, false).await?;
        }
        if let Some(u) = new.as_deref().and_then(until) {
            band_change(tx, &key, u, true).await?;
        }
    }
    tx_put(tx, &key, new.as_deref()).await
}

/// Apply the rating update of each game in `endings` that has none yet.
pub(super) async fn apply_ends(
    tx: &Transaction<'_>,
    endings: &[Ending],
) -> Result<(), StorageError> {
    for e in endings {
        if tx_value(tx, &keys::end(e.game)).await?.is_some() {
            continue;
        }
        let before = Before {
            red: tx_record(tx, &keys::profile(&e.red.id)).await?,
            black: tx_record(tx, &keys::profile(&e.black.id)).await?,
            pair: tx_record(tx, &keys::pair(&e.red.id, &e.black.id)).await?,
        };
        for w in apply(e, before).writes {
            write(tx, w).await?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::prefix_end;

    #[test]
    fn a_prefix_ends_after_its_last_byte_that_can_grow() {
        assert_eq!(prefix_end(b"ab"), Some(b"ac".to_vec()));
        assert_eq!(prefix_end(&[1, 0xff]), Some(vec![2]));
        assert_eq!(prefix_end(&[0xff, 0xff]), None);
    }
}
