//! Leaderboard pages and ranks read through the bands agree with a board built by hand from
//! every player's profile, at several dates (as deviations grow back and the month passes),
//! and after the bands are lost and rebuilt at open.

use xiangqi_bot::game::Storage;
use xiangqi_bot::rating::board::Entry;
use xiangqi_bot::rating::Family;
use xiangqi_bot::storage::SledStorage;

use super::rated::{league, store};
use super::DAY;

const SCOPE: &str = "dc:g:7";
const PLAYERS: usize = 240;

/// Rounds of rated games, each player against two others a day; players stop at different
/// rounds so that their deviations and last games differ.
async fn play(storage: &SledStorage, start: u64) {
    let games = league(PLAYERS, |i| 8 + i % 7, start, SCOPE);
    store(storage, &games, 400).await;
}

/// The listed players in board order, from their profiles alone.
fn by_hand(storage: &SledStorage, now: u64) -> Vec<(String, f64)> {
    let mut all: Vec<(Vec<u8>, String, f64)> = (0..PLAYERS)
        .filter_map(|i| {
            let id = format!("dc:{i}");
            let fr = storage
                .profile(&id)
                .expect("read")?
                .ratings
                .get(&Family::Rapid)?
                .clone();
            let e = Entry {
                player: id.clone(),
                name: String::new(),
                glicko: fr.glicko,
                games: fr.games,
                last_ms: fr.last_ms,
            };
            e.listed(now).then(|| {
                let key =
                    xiangqi_bot::rating::keys::board(SCOPE, Family::Rapid, fr.glicko.rating, &id);
                (key, id, fr.glicko.rating)
            })
        })
        .collect();
    all.sort_by(|a, b| a.0.cmp(&b.0));
    all.into_iter().map(|(_, id, r)| (id, r)).collect()
}

fn check(storage: &SledStorage, now: u64) -> usize {
    let want = by_hand(storage, now);
    for first in (1..=want.len() + 2).step_by(7).chain([1, 2, want.len()]) {
        let mut got = Vec::new();
        storage
            .leaderboard(SCOPE, Family::Rapid, now, first, &mut |rank, e| {
                got.push((rank, e.player));
                got.len() < 12
            })
            .expect("board");
        let expected: Vec<(usize, String)> = want
            .iter()
            .enumerate()
            .skip(first.max(1) - 1)
            .take(12)
            .map(|(i, (id, _))| (i + 1, id.clone()))
            .collect();
        assert_eq!(got, expected, "from rank {first} at {now}");
    }
    for (i, (id, rating)) in want.iter().enumerate() {
        let rank = storage
            .rank(SCOPE, Family::Rapid, id, *rating, now)
            .expect("rank");
        assert_eq!(rank, Some(i + 1), "{id} at {now}");
    }
    // Someone not listed has no rank.
    for i in 0..PLAYERS {
        let id = format!("dc:{i}");
        if want.iter().all(|(w, _)| *w != id) {
            if let Some(fr) = storage
                .profile(&id)
                .expect("read")
                .and_then(|p| p.ratings.get(&Family::Rapid).cloned())
            {
                let rank = storage.rank(SCOPE, Family::Rapid, &id, fr.glicko.rating, now);
                assert_eq!(rank.expect("rank"), None, "{id}");
            }
        }
    }
    want.len()
}

#[tokio::test]
async fn pages_and_ranks_read_through_bands_match_the_board_by_hand() {
    let dir = tempfile::tempdir().expect("tempdir");
    let start = 1_700_000_000_000u64;
    let end = start + 14 * DAY;
    {
        let storage = SledStorage::open(dir.path()).expect("sled");
        play(&storage, start).await;
        let mut listed = Vec::new();
        for now in [
            end,
            end + 5 * DAY,
            end + 20 * DAY,
            end + 26 * DAY,
            end + 40 * DAY,
        ] {
            listed.push(check(&storage, now));
        }
        // The dates matter: many listed at first, fewer as deviations grow, none at the end.
        assert!(listed[0] > 100 && listed[0] > listed[3], "{listed:?}");
        assert_eq!(listed[4], 0);
    }
    // Lose the bands (a database from before they existed), then open again: rebuilt.
    {
        // The storage's writer thread lets go of the files a moment after the handle is dropped.
        let mut tries = 0;
        let db = loop {
            match sled::open(dir.path()) {
                Ok(db) => break db,
                Err(e) if tries < 100 => {
                    tries += 1;
                    let _ = e;
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                Err(e) => panic!("raw sled: {e}"),
            }
        };
        let meta = db.open_tree("meta").expect("meta");
        meta.remove("ratings.bands.v1").expect("remove");
        let ratings = db.open_tree("ratings").expect("ratings");
        for k in ratings.scan_prefix([b'n']).keys() {
            ratings.remove(k.expect("key")).expect("remove");
        }
        db.flush().expect("flush");
    }
    let storage = SledStorage::open(dir.path()).expect("sled");
    assert!(check(&storage, end) > 100);
    check(&storage, end + 20 * DAY);
}
