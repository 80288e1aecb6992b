//! Reading every record of a sled database and decoding it: at every open (a record that does
//! not read refuses the database) and for `xiangqi-bot check` (which reports what is there).
//! sled checks its own pages; this checks that what they hold is ours and whole.

use serde::de::IgnoredAny;

use super::marker::{Found, Record, RECORD_KEY};
use super::{deadline_from, outbox_key_from, Trees, GAME_NUMBER};
use crate::game::{
    ChannelRecord, GameRecord, PuzzlePlayer, PuzzleStanding, ReviewRecord, UserPrefs,
};
use crate::rating::{self, keys, Entry, Family, GameEnd, PairRecord, Profile};

/// How many damaged records are named (the rest are counted).
const NAMED: usize = 20;

/// What a database holds, and what of it does not read.
#[derive(Clone, Debug, Default)]
pub struct Survey {
    /// Records per tree, in the order they are reported: (what, how many).
    pub counts: Vec<(&'static str, u64)>,
    /// Games stored.
    pub games: u64,
    /// Games in progress.
    pub active: u64,
    /// Moves in all games.
    pub moves: u64,
    /// The highest game number stored.
    pub highest_game: u64,
    /// The game-number counter.
    pub game_number: u64,
    /// The database's record (see `marker.rs`), if it has one that reads.
    pub record: Option<Record>,
    /// The first damaged records, described.
    pub damaged: Vec<String>,
    /// How many records are damaged.
    pub damaged_total: u64,
}

impl Survey {
    fn damage(&mut self, what: String) {
        self.damaged_total += 1;
        if self.damaged.len() < NAMED {
            self.damaged.push(what);
        }
    }

    /// Whether anything is stored apart from metadata.
    #[must_use]
    pub fn has_data(&self) -> bool {
        self.counts
            .iter()
            .any(|(what, n)| *what != "metadata values" && *n > 0)
    }

    /// What the database says, for [`super::marker::compare`].
    #[must_use]
    pub fn found(&self, next_id: u64) -> Found {
        Found {
            record: self.record.clone(),
            games: self.games,
            game_number: self.game_number,
            next_id,
            has_data: self.has_data(),
        }
    }
}

/// A key as an operator can read it: text when it is text, bounded.
fn shown(k: &[u8]) -> String {
    let text: String = String::from_utf8_lossy(k)
        .chars()
        .map(|c| if c.is_control() { '·' } else { c })
        .take(60)
        .collect();
    format!("{text:?}")
}

/// A record as sled stores it (packed or not: see `pack.rs`), decoded.
fn json<T: serde::de::DeserializeOwned>(v: &[u8]) -> Result<T, String> {
    serde_json::from_slice(&super::pack::unpack(v)?).map_err(|e| e.to_string())
}

fn ok(yes: bool, what: &str) -> Result<(), String> {
    if yes {
        Ok(())
    } else {
        Err(what.to_string())
    }
}

fn u64_key(k: &[u8]) -> Result<u64, String> {
    k.try_into()
        .map(u64::from_be_bytes)
        .map_err(|_| "the key is not a number".to_string())
}

/// Visit every record of `tree`, checking each with `each`; returns how many there are.
fn walk(
    s: &mut Survey,
    tree: &sled::Tree,
    what: &'static str,
    mut each: impl FnMut(&mut Survey, &[u8], &[u8]) -> Result<(), String>,
) {
    let mut n = 0u64;
    for kv in tree.iter() {
        match kv {
            Ok((k, v)) => {
                n += 1;
                if let Err(e) = each(s, k.as_ref(), v.as_ref()) {
                    s.damage(format!("{what}: record {}: {e}", shown(&k)));
                }
            }
            Err(e) => {
                s.damage(format!("{what}: cannot be read after {n} records: {e}"));
                break;
            }
        }
    }
    s.counts.push((what, n));
}

fn game(s: &mut Survey, k: &[u8], v: &[u8]) -> Result<(), String> {
    let id = u64_key(k)?;
    let g: GameRecord = json(v)?;
    ok(g.id == id, "the record is another game's")?;
    s.games += 1;
    s.moves += g.moves.len() as u64;
    if g.status == crate::game::GameStatus::Active {
        s.active += 1;
    }
    s.highest_game = s.highest_game.max(id);
    Ok(())
}

fn meta(s: &mut Survey, k: &[u8], v: &[u8]) -> Result<(), String> {
    if k == RECORD_KEY.as_bytes() {
        s.record = Some(Record::decode(v)?);
        return Ok(());
    }
    let n = u64_key(v).map_err(|_| "the value is not a number".to_string())?;
    if k == GAME_NUMBER.as_bytes() {
        s.game_number = n;
    }
    Ok(())
}

/// A record of the ratings key space (see [`crate::rating::keys`]).
fn rating_record(k: &[u8], v: &[u8]) -> Result<(), String> {
    let decoded = |r: Result<(), rating::DecodeError>| r.map_err(|e| e.to_string());
    match k.first().copied() {
        Some(keys::END) => decoded(rating::decode::<GameEnd>(v).map(|_| ())),
        Some(keys::PROFILE) => decoded(rating::decode::<Profile>(v).map(|_| ())),
        Some(keys::PAIR) => decoded(rating::decode::<PairRecord>(v).map(|_| ())),
        Some(keys::BOARD) => ok(
            Entry::decode(String::new(), v).is_some(),
            "a leaderboard entry that does not read",
        ),
        Some(keys::BAND) => ok(
            v.len().is_multiple_of(8),
            "a leaderboard band that does not read",
        ),
        Some(keys::COMMUNITY) => ok(
            v.len() >= 9 && v.first().and_then(|&f| Family::from_index(f)).is_some(),
            "a community record that does not read",
        ),
        Some(keys::ALIAS) => ok(std::str::from_utf8(v).is_ok(), "a handle that is not text"),
        Some(keys::HISTORY) => {
            // player ‖ 0 ‖ family ‖ time ‖ game
            let tail = k
                .iter()
                .position(|&b| b == 0)
                .and_then(|i| k.get(i + 2..))
                .unwrap_or_default();
            ok(
                rating::history_point(tail, v).is_some(),
                "a rating history point that does not read",
            )
        }
        _ => Err("an unknown kind of rating record".into()),
    }
}

/// Read and decode everything in `t`.
pub(super) fn survey(t: &Trees) -> Survey {
    let mut s = Survey::default();
    walk(&mut s, &t.games, "games", game);
    walk(&mut s, &t.active, "games in progress (index)", |_, k, _| {
        u64_key(k).map(|_| ())
    });
    walk(
        &mut s,
        &t.user_games,
        "players' games (index)",
        |_, k, _| {
            ok(
                k.len() > 9 && k[k.len() - 9] == 0,
                "a key that does not read",
            )
        },
    );
    walk(&mut s, &t.channels, "channels", |_, _, v| {
        json::<ChannelRecord>(v).map(|_| ())
    });
    walk(&mut s, &t.users, "users", |_, _, v| {
        json::<UserPrefs>(v).map(|_| ())
    });
    walk(&mut s, &t.ratings, "rating records", |_, k, v| {
        rating_record(k, v)
    });
    walk(&mut s, &t.reviews, "reviews", |_, k, v| {
        let id = u64_key(k)?;
        let r: ReviewRecord = json(v)?;
        ok(r.game == id, "the review is another game's")
    });
    walk(&mut s, &t.puzzles, "puzzle records", |_, k, v| {
        match k.get(..2) {
            Some([b'p', 0]) => json::<PuzzlePlayer>(v).map(|_| ()),
            Some([b'z', 0]) => json::<PuzzleStanding>(v).map(|_| ()),
            _ => Err("an unknown kind of puzzle record".into()),
        }
    });
    walk(&mut s, &t.outbox, "replies waiting (outbox)", |_, k, v| {
        ok(outbox_key_from(k).is_some(), "a key that does not read")?;
        json::<IgnoredAny>(v).map(|_| ())
    });
    walk(&mut s, &t.deadlines, "deadlines", |_, k, v| {
        ok(
            deadline_from(k, v).is_some(),
            "a deadline that does not read",
        )
    });
    walk(&mut s, &t.seen, "handled events", |_, _, v| {
        ok(v.len() == 8, "a time that does not read")
    });
    walk(&mut s, &t.inbox, "events waiting (inbox)", |_, k, v| {
        ok(std::str::from_utf8(k).is_ok(), "a key that does not read")?;
        json::<IgnoredAny>(v).map(|_| ())
    });
    walk(&mut s, &t.meta, "metadata values", meta);
    s
}
