//! The binary in console mode, killed with SIGKILL around the ends of rated games: every game
//! is rated exactly once (never twice, never lost), and the stored ratings are exactly what
//! replaying the stored game ends gives. Also the console's view of ratings, `/top`, `/stats`
//! and the graph.

use crate::console;

use std::collections::BTreeMap;
use std::time::Duration;

use console::Console;
use xiangqi_bot::game::{GameStatus, Storage};
use xiangqi_bot::rating::{self, keys, Before, RatedOutcome, Write};
use xiangqi_bot::storage::SledStorage;

const OPENING: [&str; 4] = ["h2e2", "h9g7", "h0g2", "i9h9"];

fn get<T: serde::de::DeserializeOwned>(m: &BTreeMap<Vec<u8>, Vec<u8>>, k: Vec<u8>) -> Option<T> {
    m.get(&k).map(|v| rating::decode(v).expect("decode"))
}

fn play_opening(c: &mut Console, red: &str, black: &str) {
    for (i, m) in OPENING.iter().enumerate() {
        let who = if i % 2 == 0 { red } else { black };
        c.ask(&format!("@{who} {m}"), &format!("{}. {who}", i + 1));
    }
}

#[test]
fn kill_nine_around_game_ends_rates_every_game_exactly_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let env = [("BOARD_IMAGES", "off")];
    let opponents = [
        "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon",
    ];
    for (round, opp) in opponents.iter().enumerate() {
        let mut c = Console::start(dir.path(), &env);
        c.ask(&format!("@alice /play @{opp} red 10+5 rated"), "Rated game");
        c.ask(&format!("@{opp} /accept"), "begins");
        play_opening(&mut c, "alice", opp);
        // The game ends and the process dies: before it reads the line, while it writes,
        // or just after it answered.
        if round % 2 == 0 {
            c.send("@alice /resign");
        } else {
            c.send("@alice /draw");
            c.send(&format!("@{opp} /draw"));
        }
        match round % 3 {
            0 => {}
            1 => std::thread::sleep(Duration::from_millis(2 + round as u64)),
            _ => {
                c.expect("Game over");
            }
        }
        c.kill();
        // After the restart the game is over, exactly once: ending it again either ends a
        // game that had not ended, or finds none. (The ratings below are the proof that it
        // was rated once.)
        let mut r = Console::start(dir.path(), &env);
        r.send("@alice /resign");
        r.ask("@alice /rating", "Ratings of alice");
        let seen = r.finish();
        let over = seen.iter().filter(|l| l.contains("Game over")).count();
        let none = seen
            .iter()
            .filter(|l| l.contains("There is no game"))
            .count();
        // Either the game had ended (and its result may be shown again: a reply printed just
        // before the kill is delivered again, at least once) or this ends it.
        assert!(over <= 1 && none <= 1, "round {round}: {seen:#?}");
        assert!(over == 1 || none == 1, "round {round}: {seen:#?}");
    }

    // Every game is finished and has exactly one end record; the ratings are what replaying
    // those records in order gives, so none was applied twice or lost.
    let storage = SledStorage::open(&dir.path().join("db")).expect("open");
    let ids = storage
        .games_of(&"console:alice".into(), 100)
        .expect("games");
    assert_eq!(ids.len(), opponents.len());
    let mut endings = Vec::new();
    for id in ids {
        let g = storage.game(id).expect("read").expect("game");
        assert!(matches!(g.status, GameStatus::Finished { .. }), "{g:?}");
        let stored = storage.game_end(id).expect("read").expect("an end record");
        assert!(
            matches!(stored.outcome, RatedOutcome::Rated { .. }),
            "{stored:?}"
        );
        endings.push(g.ending().expect("ended"));
    }
    endings.sort_by_key(|e| (e.ended_ms, e.game));
    let mut replay: BTreeMap<Vec<u8>, Vec<u8>> = BTreeMap::new();
    for e in &endings {
        let before = Before {
            red: get(&replay, keys::profile(&e.red.id)),
            black: get(&replay, keys::profile(&e.black.id)),
            pair: get(&replay, keys::pair(&e.red.id, &e.black.id)),
        };
        for w in rating::apply(e, before).writes {
            match w {
                Write::Put(k, v) => {
                    replay.insert(k, v);
                }
                Write::Remove(k) => {
                    replay.remove(&k);
                }
            }
        }
    }
    for who in std::iter::once("alice").chain(opponents) {
        let id = format!("console:{who}");
        let stored = storage.profile(&id).expect("read").expect("profile");
        let replayed: rating::Profile = get(&replay, keys::profile(&id)).expect("replayed");
        assert_eq!(stored, replayed, "{who}");
    }
    let alice = storage
        .profile("console:alice")
        .expect("read")
        .expect("profile");
    assert_eq!(alice.stats.all.games() as usize, opponents.len());
    assert_eq!(
        alice.ratings[&rating::Family::Rapid].games as usize,
        opponents.len()
    );
}

#[test]
fn the_console_shows_ratings_leaderboards_statistics_and_the_graph() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut c = Console::start(dir.path(), &[]);
    c.ask("@alice /play @bob red 10+5 rated", "Rated game (Rapid)");
    c.ask("@bob /accept", "begins");
    play_opening(&mut c, "alice", "bob");
    c.send("@bob /resign");
    let line = c.expect("Ratings (Rapid): alice 1500? → ");
    assert!(line.contains("(+") && line.contains("(−"), "{line}");
    c.ask("@alice /top", "Nobody is on the Rapid leaderboard here yet");
    c.ask("@alice /stats", "alice: 1 games — 1 won, 0 drawn, 0 lost");
    c.ask("@carol /stats @alice @bob", "alice vs bob: 1 game(s)");
    c.send("@alice /rating");
    let pic = c.expect("picture: ");
    c.expect("Rapid: ");
    let path = pic
        .split("picture: ")
        .nth(1)
        .expect("a path")
        .trim()
        .to_string();
    assert!(path.starts_with(&*dir.path().to_string_lossy()), "{path}");
    let bytes = std::fs::read(&path).expect("the graph file");
    let dec = png::Decoder::new(std::io::Cursor::new(bytes));
    let info = dec.read_info().expect("a PNG").info().clone();
    assert_eq!((info.width, info.height), (720, 360));
    c.finish();
}
