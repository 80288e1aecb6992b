//! Reading a whole sled database into a [`Dump`] (for `xiangqi-bot migrate`, see
//! [`crate::storage::copy`]).

use super::{deadline_from, decode, err, outbox_key_from, SledStorage, GAME_NUMBER, IDS_OFFSET};
use crate::game::StorageError;
use crate::rating::keys;
use crate::storage::copy::Dump;

fn u64_of(v: &[u8]) -> u64 {
    v.try_into().map(u64::from_be_bytes).unwrap_or(0)
}

fn text(v: &[u8]) -> String {
    String::from_utf8_lossy(v).into_owned()
}

impl SledStorage {
    /// Read everything.
    ///
    /// # Errors
    /// On a storage failure or a record that does not read.
    pub fn dump(&self) -> Result<Dump, StorageError> {
        let t = &self.trees;
        let mut d = Dump::default();
        for kv in t.games.iter() {
            d.changes.games.push(decode(&kv.map_err(err)?.1)?);
        }
        for kv in t.channels.iter() {
            let (k, v) = kv.map_err(err)?;
            d.changes.channels.push((text(&k).into(), decode(&v)?));
        }
        for kv in t.users.iter() {
            let (k, v) = kv.map_err(err)?;
            d.changes.users.push((text(&k).into(), decode(&v)?));
        }
        for kv in t.deadlines.iter() {
            let (k, v) = kv.map_err(err)?;
            d.changes.add_deadlines.extend(deadline_from(&k, &v));
        }
        for kv in t.outbox.iter() {
            let (k, v) = kv.map_err(err)?;
            if let Some(key) = outbox_key_from(&k) {
                d.changes.outbox.push((key, super::outbox_value(&v)?));
            }
        }
        for kv in t.inbox.iter() {
            let (k, v) = kv.map_err(err)?;
            d.changes.inbox.push((text(&k), v.to_vec()));
        }
        for kv in t.seen.iter() {
            let (k, v) = kv.map_err(err)?;
            d.changes.seen.push((text(&k), u64_of(&v)));
        }
        for kv in t.reviews.iter() {
            d.changes.reviews.push(decode(&kv.map_err(err)?.1)?);
        }
        for kv in t.puzzles.iter() {
            let (k, v) = kv.map_err(err)?;
            let id = text(k.get(2..).unwrap_or_default());
            match k.first() {
                Some(b'p') => d.changes.puzzle_players.push((id.into(), decode(&v)?)),
                Some(b'z') => d.changes.puzzle_standings.push((id, decode(&v)?)),
                _ => {}
            }
        }
        for kv in t.meta.iter() {
            let (k, v) = kv.map_err(err)?;
            if k == super::marker::RECORD_KEY.as_bytes() || k == IDS_OFFSET.as_bytes() {
                // The sled database's own (see marker.rs); ids_above carries the offset.
                continue;
            }
            d.meta.push((text(&k), u64_of(&v)));
        }
        for kv in t.ratings.iter() {
            let (k, v) = kv.map_err(err)?;
            if k.first() == Some(&keys::ALIAS) {
                d.changes.aliases.push((text(&k[1..]), text(&v).into()));
            } else {
                d.ratings.push((k.to_vec(), v.to_vec()));
            }
        }
        d.changes.game_number = d
            .meta
            .iter()
            .find(|(k, _)| k == GAME_NUMBER)
            .map(|(_, n)| *n);
        // sled's id generator hands out challenge ids and outbox numbers alike.
        d.ids_above = t.generate()?;
        Ok(d)
    }
}
