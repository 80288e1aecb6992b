//! Leaderboard pages and ranks read off the ordered key space of [`crate::rating::keys`], for
//! both storages: each gives a [`KeyRange`] (sled's tree, PostgreSQL's `ratings` table read
//! in key order), and pages and ranks are found the same way on both. Whole bands
//! ([`BAND_WIDTH`] wide, each holding when its entries leave the board) are counted without
//! reading their entries, so a page or a rank deep in a large board reads few rows.

use crate::game::StorageError;
use crate::rating::board::{Band, BAND_WIDTH};
use crate::rating::{keys, Entry, Family};

/// Rows of an ordered key space.
pub(crate) trait KeyRange {
    /// Call `each` with the rows whose keys start with `prefix`, from key `from` on, in key
    /// order, until it returns `false`.
    ///
    /// # Errors
    /// On a storage failure.
    fn scan(
        &self,
        prefix: &[u8],
        from: &[u8],
        each: &mut dyn FnMut(&[u8], &[u8]) -> bool,
    ) -> Result<(), StorageError>;
}

/// Whole bands passed before reaching the band where `stop` says to look (given the band's
/// number, the listed players before it and in it): the listed players passed, and the first
/// inverted rating to read entries from.
fn skip_bands(
    rows: &dyn KeyRange,
    scope: &str,
    family: Family,
    now_ms: u64,
    stop: impl Fn(u32, usize, usize) -> bool,
) -> Result<(usize, u32), StorageError> {
    let prefix = keys::band_prefix(scope, family);
    let (mut before, mut from) = (0, 0);
    rows.scan(&prefix, &prefix, &mut |k, v| {
        let Some(number) = keys::band_number(k, prefix.len()) else {
            return true;
        };
        let listed = Band::decode(v).listed(now_ms);
        if stop(number, before, listed) {
            from = number.saturating_mul(BAND_WIDTH);
            return false;
        }
        before += listed;
        from = number.saturating_add(1).saturating_mul(BAND_WIDTH);
        true
    })?;
    Ok((before, from))
}

/// Walk the leaderboard entries from inverted rating `from` on, in order, until `each`
/// returns `false`.
fn walk_entries(
    rows: &dyn KeyRange,
    scope: &str,
    family: Family,
    from: u32,
    each: &mut dyn FnMut(&[u8], Entry) -> bool,
) -> Result<(), StorageError> {
    let prefix = keys::board_prefix(scope, family);
    let start = keys::board_from(scope, family, from);
    rows.scan(
        &prefix,
        &start,
        &mut |k, v| match keys::board_player(k, prefix.len()).and_then(|p| Entry::decode(p, v)) {
            Some(entry) => each(k, entry),
            None => true,
        },
    )
}

/// See [`crate::game::Storage::leaderboard`].
pub(crate) fn leaderboard(
    rows: &dyn KeyRange,
    scope: &str,
    family: Family,
    now_ms: u64,
    first: usize,
    visit: &mut dyn FnMut(usize, Entry) -> bool,
) -> Result<(), StorageError> {
    let first = first.max(1);
    let (mut rank, from) = skip_bands(rows, scope, family, now_ms, |_, before, listed| {
        before + listed >= first
    })?;
    walk_entries(rows, scope, family, from, &mut |_, entry| {
        if !entry.listed(now_ms) {
            return true;
        }
        rank += 1;
        rank < first || visit(rank, entry)
    })
}

/// See [`crate::game::Storage::rank`].
pub(crate) fn rank(
    rows: &dyn KeyRange,
    scope: &str,
    family: Family,
    player: &str,
    rating: f64,
    now_ms: u64,
) -> Result<Option<usize>, StorageError> {
    let key = keys::board(scope, family, rating, player);
    let prefix = keys::board_prefix(scope, family);
    let Some(band) = keys::board_rating(&key, prefix.len()).map(|r| r / BAND_WIDTH) else {
        return Ok(None);
    };
    let (mut above, from) = skip_bands(rows, scope, family, now_ms, |n, _, _| n >= band)?;
    let mut found = None;
    walk_entries(rows, scope, family, from, &mut |k, entry| {
        if k == key.as_slice() {
            found = entry.listed(now_ms).then_some(above + 1);
            return false;
        }
        if k > key.as_slice() {
            return false;
        }
        above += usize::from(entry.listed(now_ms));
        true
    })?;
    Ok(found)
}
