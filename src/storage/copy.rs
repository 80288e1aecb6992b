//! Copying a sled database into PostgreSQL (`xiangqi-bot migrate`): everything sled holds is
//! read into a [`Dump`], written to an empty PostgreSQL database in one transaction, and the
//! copy is then read back through the storage trait and compared, record by record.

use crate::game::{Changes, Storage, StorageError};

/// Rows of the ratings key space: key, value.
pub type KeyValues = Vec<(Vec<u8>, Vec<u8>)>;

/// Everything a sled database holds.
#[derive(Debug, Default)]
pub struct Dump {
    /// Games, channels, users, deadlines, handles, the outbox, the inbox, handled events,
    /// reviews, puzzle records and the game-number counter, as one set of changes.
    pub changes: Changes,
    /// Metadata values.
    pub meta: Vec<(String, u64)>,
    /// The ratings key space (handles aside), as stored.
    pub ratings: KeyValues,
    /// A number above every challenge id and outbox number handed out.
    pub ids_above: u64,
}

impl Dump {
    /// A line saying how much there is.
    #[must_use]
    pub fn summary(&self) -> String {
        let c = &self.changes;
        format!(
            "{} games, {} channels, {} users, {} deadlines, {} handles, {} replies waiting, \
             {} events waiting, {} handled events, {} reviews, {} rating records, {} puzzle \
             solvers, {} rated puzzles, {} metadata values",
            c.games.len(),
            c.channels.len(),
            c.users.len(),
            c.add_deadlines.len(),
            c.aliases.len(),
            c.outbox.len(),
            c.inbox.len(),
            c.seen.len(),
            c.reviews.len(),
            self.ratings.len(),
            c.puzzle_players.len(),
            c.puzzle_standings.len(),
            self.meta.len()
        )
    }
}

/// Read every record of `dump` back from `copy` and compare; the first difference is the error.
///
/// # Errors
/// A message naming the first record that differs, or a storage failure.
pub fn verify(dump: &Dump, copy: &super::PgStorage) -> Result<(), String> {
    let differs = |what: String| Err(format!("the copy differs: {what}"));
    let e = |e: StorageError| e.to_string();
    let c = &dump.changes;
    for g in &c.games {
        if copy.game(g.id).map_err(e)?.as_ref() != Some(g) {
            return differs(format!("game {}", g.id));
        }
    }
    if copy.game_count() != c.games.len() {
        return differs("the number of games".into());
    }
    for (k, v) in &c.channels {
        if copy.channel(k).map_err(e)?.as_ref() != Some(v) {
            return differs(format!("channel {k}"));
        }
    }
    for (k, v) in &c.users {
        if copy.user(k).map_err(e)?.as_ref() != Some(v) {
            return differs(format!("user {k}"));
        }
    }
    for r in &c.reviews {
        if copy.review(r.game).map_err(e)?.as_ref() != Some(r) {
            return differs(format!("the review of game {}", r.game));
        }
    }
    for (k, v) in &c.puzzle_players {
        if copy.puzzle_player(k).map_err(e)?.as_ref() != Some(v) {
            return differs(format!("puzzle solver {k}"));
        }
    }
    for (k, v) in &c.puzzle_standings {
        if copy.puzzle_standing(k).map_err(e)?.as_ref() != Some(v) {
            return differs(format!("the rating of puzzle {k}"));
        }
    }
    for (handle, player) in &c.aliases {
        if copy.alias(handle).map_err(e)?.as_ref() != Some(player) {
            return differs(format!("handle {handle}"));
        }
    }
    let mut deadlines = c.add_deadlines.clone();
    deadlines.sort_by_key(|d| (d.at_ms, d.id, d.kind as u8));
    if copy.all_deadlines().map_err(e)? != deadlines {
        return differs("the deadlines".into());
    }
    if copy.outbox("").map_err(e)? != c.outbox {
        return differs("the outbox".into());
    }
    if copy.inbox("").map_err(e)? != c.inbox {
        return differs("the inbox".into());
    }
    for (id, _) in &c.seen {
        if !copy.seen(id).map_err(e)? {
            return differs(format!("handled event {id}"));
        }
    }
    for (k, v) in &dump.meta {
        if copy.meta(k).map_err(e)? != Some(*v) {
            return differs(format!("metadata {k}"));
        }
    }
    let mut ratings = dump.ratings.clone();
    ratings.sort();
    if copy.rating_rows().map_err(e)? != ratings {
        return differs("the ratings".into());
    }
    Ok(())
}
