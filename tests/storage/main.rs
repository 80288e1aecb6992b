//! The storage conformance suite: the same checks against sled and against PostgreSQL (a
//! throwaway cluster, or `TEST_DATABASE_URL`; see `tests/support/pg.rs`). Each check runs on
//! every backend that can be had, reopening the storage where a restart matters. Beside it:
//! `compat`, databases written by an earlier binary, and `damage` (was `tests/sled_damage.rs`),
//! a damaged sled database refused, `check`, `export` and `import`.

#[path = "../support/console.rs"]
mod console;
#[path = "../support/pg.rs"]
mod pg;
#[path = "../support/rated.rs"]
mod rated;

mod boards;
mod compat;
mod damage;
mod growth;
mod migrate;
mod secrets;

use std::sync::Arc;

use xiangqi_bot::game::{
    Changes, ChannelRecord, Deadline, DeadlineKind, GameRecord, OutboxKey, PlayerRef, PuzzlePlayer,
    PuzzleStanding, ReviewRecord, Storage, UserPrefs, REVIEW_VERSION,
};
use xiangqi_bot::storage::{PgStorage, SledStorage};

/// Where a backend keeps its data between opens.
pub enum Place {
    Sled(tempfile::TempDir),
    Pg(pg::TestDb),
}

impl Place {
    pub fn name(&self) -> &'static str {
        match self {
            Place::Sled(_) => "sled",
            Place::Pg(_) => "postgres",
        }
    }

    /// Open (or reopen) the storage.
    pub fn open(&self) -> Arc<dyn Storage> {
        match self {
            Place::Sled(dir) => Arc::new(SledStorage::open(dir.path()).expect("open sled")),
            Place::Pg(db) => Arc::new(PgStorage::connect(&db.url).expect("connect to postgres")),
        }
    }
}

/// Every backend this machine has, each empty: sled, and PostgreSQL when it can be had.
pub fn places(test: &str) -> Vec<Place> {
    let mut out = vec![Place::Sled(tempfile::tempdir().expect("tempdir"))];
    out.extend(pg::database(test).map(Place::Pg));
    out
}

fn game(id: u64, active: bool, red: &str, black: &str) -> GameRecord {
    let mut g = rated::rated(
        id,
        (PlayerRef::new(red, red), PlayerRef::new(black, black)),
        "draw",
        "agreement",
        1_000,
        "dc:g:1",
    );
    g.rated = false;
    if active {
        g.status = xiangqi_bot::game::GameStatus::Active;
    }
    g
}

fn review(game: u64) -> ReviewRecord {
    ReviewRecord {
        v: REVIEW_VERSION,
        game,
        channel: "dc:5".into(),
        notation: "wxf".into(),
        asked_ms: 7,
        done: None,
        posted_ms: None,
    }
}

/// A solver's puzzle record and a puzzle's rating.
pub fn puzzle_records() -> (PuzzlePlayer, PuzzleStanding) {
    let rating = xiangqi_bot::rating::Glicko {
        rating: 1612.5,
        deviation: 88.0,
        volatility: 0.06,
    };
    let player = PuzzlePlayer {
        v: 1,
        name: "Bình".into(),
        rating,
        rated_ms: 99,
        streak: 3,
        best_streak: 7,
        solved: 12,
        missed: 4,
    };
    (player, PuzzleStanding { rating, plays: 16 })
}

fn deadline(at_ms: u64, id: u64, kind: DeadlineKind) -> Deadline {
    Deadline {
        at_ms,
        id,
        kind,
        channel: format!("dc:{id}").into(),
    }
}

#[tokio::test]
async fn every_record_kind_reads_back_also_after_a_reopen() {
    for place in places("records") {
        let name = place.name();
        let s = place.open();
        let channel = ChannelRecord {
            last_game: Some(3),
            puzzle: Some(xiangqi_bot::game::LivePuzzle {
                number: 8,
                id: "sqyq-015".into(),
                played: vec!["h2e2".into(), "h9g7".into()],
                on_line: true,
                started_ms: 5,
                solvers: vec![("dc:a".into(), "Anna".into())],
                missed: vec!["dc:b".into()],
                hinted: false,
                daily: true,
            }),
            recent_puzzles: vec!["t1-00001".into(), "sqyq-015".into()],
            ..ChannelRecord::default()
        };
        let (solver, standing) = puzzle_records();
        let prefs = UserPrefs {
            v: 1,
            notation: Some("wxf".into()),
            name: Some("Bình".into()),
        };
        let mut done = review(2);
        done.done = Some(xiangqi_bot::game::ReviewData {
            evals: vec!["+0.35".into()],
            plies: Vec::new(),
            accuracy: [Some(91.5), None],
            nodes: 42,
            time_ms: 9,
        });
        s.persist(Changes {
            games: vec![
                game(1, false, "dc:a", "dc:b"),
                game(3, true, "dc:a", "dc:c"),
                game(2, false, "dc:b", "dc:c"),
            ],
            channels: vec![("dc:5".into(), channel.clone())],
            users: vec![("dc:a".into(), prefs.clone())],
            aliases: vec![("dc:@anna".into(), "dc:a".into())],
            reviews: vec![review(1), done.clone()],
            puzzle_players: vec![("dc:a".into(), solver.clone())],
            puzzle_standings: vec![("sqyq-015".into(), standing)],
            ..Changes::default()
        })
        .await
        .expect("persist");
        s.set_meta("alive", 12_345).expect("set meta");
        let mut s = Some(s);
        for _ in 0..2 {
            // Read, then reopen and read again.
            let s = s.take().unwrap_or_else(|| place.open());
            assert_eq!(
                s.game(3).expect("read"),
                Some(game(3, true, "dc:a", "dc:c")),
                "{name}"
            );
            assert_eq!(s.game(9).expect("read"), None, "{name}");
            assert_eq!(s.game_count(), 3, "{name}");
            assert_eq!(s.active_games().expect("active"), vec![3], "{name}");
            assert_eq!(
                s.games_of(&"dc:a".into(), 10).expect("of"),
                vec![3, 1],
                "{name}"
            );
            assert_eq!(
                s.games_of(&"dc:c".into(), 1).expect("of"),
                vec![3],
                "{name}"
            );
            assert_eq!(
                s.games_of(&"dc:".into(), 10).expect("of"),
                Vec::<u64>::new()
            );
            assert_eq!(
                s.channel(&"dc:5".into()).expect("read"),
                Some(channel.clone())
            );
            assert_eq!(s.user(&"dc:a".into()).expect("read"), Some(prefs.clone()));
            assert_eq!(s.user(&"dc:z".into()).expect("read"), None, "{name}");
            assert_eq!(s.alias("dc:@anna").expect("read").as_deref(), Some("dc:a"));
            assert_eq!(s.review(2).expect("read"), Some(done.clone()), "{name}");
            assert_eq!(s.pending_reviews().expect("read"), vec![review(1)]);
            assert_eq!(s.meta("alive").expect("meta"), Some(12_345), "{name}");
            assert_eq!(s.meta("never").expect("meta"), None, "{name}");
            assert_eq!(
                s.puzzle_player(&"dc:a".into()).expect("read"),
                Some(solver.clone())
            );
            assert_eq!(
                s.puzzle_player(&"dc:b".into()).expect("read"),
                None,
                "{name}"
            );
            assert_eq!(s.puzzle_standing("sqyq-015").expect("read"), Some(standing));
            assert_eq!(s.puzzle_standing("t1-00001").expect("read"), None, "{name}");
        }
    }
}

#[tokio::test]
async fn deadlines_come_out_in_time_order_and_due_ones_up_to_now() {
    for place in places("deadlines") {
        let name = place.name();
        let s = place.open();
        assert_eq!(s.next_deadline().expect("next"), None, "{name}");
        let all = [
            deadline(500, 2, DeadlineKind::IdleClaim),
            deadline(100, 9, DeadlineKind::Warn),
            deadline(100, 9, DeadlineKind::Flag),
            deadline(300, 1, DeadlineKind::ChallengeExpiry),
            deadline(300, 4, DeadlineKind::IdleWarn),
            deadline(500, 0, DeadlineKind::PuzzleDaily),
        ];
        s.persist(Changes {
            add_deadlines: all.to_vec(),
            ..Changes::default()
        })
        .await
        .expect("persist");
        let mut sorted = all.to_vec();
        sorted.sort_by_key(|d| (d.at_ms, d.id, d.kind as u8));
        assert_eq!(s.all_deadlines().expect("all"), sorted, "{name}");
        assert_eq!(s.next_deadline().expect("next"), Some(sorted[0].clone()));
        assert_eq!(s.due_deadlines(99).expect("due"), vec![], "{name}");
        assert_eq!(s.due_deadlines(300).expect("due"), sorted[..4].to_vec());
        // Removed and added in one change: the removal goes first.
        s.persist(Changes {
            remove_deadlines: vec![sorted[0].clone(), sorted[1].clone()],
            add_deadlines: vec![deadline(700, 9, DeadlineKind::Flag)],
            ..Changes::default()
        })
        .await
        .expect("persist");
        let s = {
            drop(s);
            place.open()
        };
        let left: Vec<u64> = s
            .all_deadlines()
            .expect("all")
            .iter()
            .map(|d| d.at_ms)
            .collect();
        assert_eq!(left, vec![300, 300, 500, 500, 700], "{name}");
        assert_eq!(s.due_deadlines(u64::MAX).expect("due").len(), 5, "{name}");
    }
}

#[tokio::test]
async fn the_outbox_keeps_each_channels_order_and_numbers_are_never_reused() {
    for place in places("outbox") {
        let name = place.name();
        let mut given = Vec::new();
        for round in 0..2 {
            let s = place.open();
            let mut keys = Vec::new();
            for channel in ["dc:7", "tg:7", "dc:7", "dc:70"] {
                let seq = s.next_outbox_seq().expect("seq");
                given.push(seq);
                keys.push(OutboxKey {
                    channel: channel.into(),
                    seq,
                });
            }
            // Stored in another order than given.
            let entries: Vec<(OutboxKey, Vec<u8>)> = keys
                .iter()
                .rev()
                .map(|k| (k.clone(), format!("{round}:{}", k.seq).into_bytes()))
                .collect();
            s.persist(Changes {
                outbox: entries,
                ..Changes::default()
            })
            .await
            .expect("persist");
            let discord = s.outbox("dc:").expect("outbox");
            let order: Vec<&OutboxKey> = discord.iter().map(|(k, _)| k).collect();
            assert_eq!(order, vec![&keys[0], &keys[2], &keys[3]], "{name}");
            assert_eq!(
                discord[0].1,
                format!("{round}:{}", keys[0].seq).into_bytes()
            );
            assert_eq!(s.outbox("tg:").expect("outbox").len(), 1, "{name}");
            s.persist(Changes {
                delivered: keys.clone(),
                ..Changes::default()
            })
            .await
            .expect("deliver");
            assert!(s.outbox("").expect("outbox").is_empty(), "{name}");
        }
        assert!(
            given.windows(2).all(|w| w[0] < w[1]),
            "{name}: numbers grow across reopens: {given:?}"
        );
    }
}

#[tokio::test]
async fn handled_events_are_remembered_until_forgotten() {
    for place in places("seen") {
        let name = place.name();
        let s = place.open();
        s.persist(Changes {
            seen: vec![("tg:u:1".into(), 100), ("tg:u:2".into(), 200)],
            ..Changes::default()
        })
        .await
        .expect("persist");
        assert!(s.seen("tg:u:1").expect("seen") && s.seen("tg:u:2").expect("seen"));
        assert!(!s.seen("tg:u:3").expect("seen"), "{name}");
        assert_eq!(s.forget_seen(150).expect("forget"), 1, "{name}");
        assert!(!s.seen("tg:u:1").expect("seen") && s.seen("tg:u:2").expect("seen"));
        assert_eq!(s.forget_seen(150).expect("forget"), 0, "{name}");
    }
}

#[tokio::test]
async fn the_inbox_keeps_events_until_they_are_handled() {
    for place in places("inbox") {
        let name = place.name();
        let s = place.open();
        let event = |n: u32| format!(r#"{{"update_id":{n}}}"#).into_bytes();
        s.persist(Changes {
            inbox: vec![
                ("tg:7:0000000012".into(), event(12)),
                ("tg:7:0000000009".into(), event(9)),
                ("tg:8:0000000001".into(), event(1)),
            ],
            ..Changes::default()
        })
        .await
        .expect("persist");
        let keys = |s: &dyn Storage, prefix: &str| -> Vec<String> {
            s.inbox(prefix)
                .expect("inbox")
                .into_iter()
                .map(|(k, _)| k)
                .collect()
        };
        assert_eq!(
            keys(&*s, "tg:7:"),
            ["tg:7:0000000009", "tg:7:0000000012"],
            "{name}: in key order, this bot's only"
        );
        assert_eq!(s.inbox("tg:7:").expect("inbox")[0].1, event(9), "{name}");
        // Handled: taken out, together with a change of state or alone.
        s.persist(Changes {
            inbox_done: vec!["tg:7:0000000009".into()],
            channels: vec![("tg:1".into(), ChannelRecord::default())],
            ..Changes::default()
        })
        .await
        .expect("persist");
        s.persist(Changes {
            inbox_done: vec!["tg:8:0000000001".into()],
            ..Changes::default()
        })
        .await
        .expect("persist");
        assert_eq!(keys(&*s, "tg:"), ["tg:7:0000000012"], "{name}");
        // Kept across a reopen.
        drop(s);
        let s = place.open();
        assert_eq!(keys(&*s, "tg:"), ["tg:7:0000000012"], "{name}");
    }
}

#[tokio::test]
async fn game_numbers_count_up_without_gaps_and_ids_never_repeat() {
    for place in places("numbers") {
        let name = place.name();
        let mut ids = Vec::new();
        {
            let s = place.open();
            assert_eq!(s.next_game_number().expect("n"), 1, "{name}");
            assert_eq!(s.next_game_number().expect("n"), 2, "{name}");
            s.persist(Changes {
                games: vec![game(2, true, "dc:a", "dc:b")],
                game_number: Some(2),
                ..Changes::default()
            })
            .await
            .expect("persist");
            s.persist(Changes {
                game_number: Some(1),
                ..Changes::default()
            })
            .await
            .expect("persist");
            ids.extend((0..3).map(|_| s.next_id().expect("id")));
        }
        let s = place.open();
        assert_eq!(s.next_game_number().expect("n"), 3, "{name}");
        ids.extend((0..3).map(|_| s.next_id().expect("id")));
        assert!(ids.windows(2).all(|w| w[0] < w[1]), "{name}: {ids:?}");
        // A game stored without its number (a database from before the counter was kept):
        // numbering goes on after the highest game id.
        s.persist(Changes {
            games: vec![game(2_000_001, false, "dc:a", "dc:b")],
            ..Changes::default()
        })
        .await
        .expect("persist");
        drop(s);
        let s = place.open();
        assert_eq!(s.next_game_number().expect("n"), 2_000_002, "{name}");
    }
}

#[tokio::test]
async fn a_write_is_all_or_nothing() {
    for place in places("atomic") {
        let name = place.name();
        let s = place.open();
        // PostgreSQL refuses a NUL in text, in the middle of the transaction (after the game
        // is written); sled takes it. Either everything is there afterwards, or nothing.
        let result = s
            .persist(Changes {
                games: vec![game(5, true, "dc:a", "dc:b")],
                add_deadlines: vec![deadline(10, 5, DeadlineKind::Flag)],
                seen: vec![("tg:u:\0".into(), 1)],
                game_number: Some(5),
                ..Changes::default()
            })
            .await;
        let stored = [
            s.game(5).expect("read").is_some(),
            !s.all_deadlines().expect("read").is_empty(),
            !s.active_games().expect("read").is_empty(),
            s.next_game_number().expect("n") == 6,
        ];
        match result {
            Ok(()) => assert_eq!(stored, [true; 4], "{name}: a write that succeeded is whole"),
            Err(_) => assert_eq!(stored, [false; 4], "{name}: a failed write leaves nothing"),
        }
        if name == "postgres" {
            assert!(result.is_err(), "the NUL is refused on PostgreSQL");
        }
    }
}

#[test]
fn an_unreachable_database_stops_the_bot_at_start_without_showing_the_password() {
    // Port 1 on this machine: nothing listens there, so the connection is refused at once.
    let url = "postgres://bot:hunter2@127.0.0.1:1/xq";
    assert!(PgStorage::connect(url).is_err());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_xiangqi-bot"))
        .arg("console")
        .env("DATABASE_URL", url)
        .env("RUST_LOG", "info")
        .env_remove("TELEGRAM_BOT_TOKEN")
        .env_remove("DISCORD_TOKEN")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run the bot");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{said}");
    assert!(
        said.contains("the database \"xq\" on 127.0.0.1:1 as user \"bot\""),
        "{said}"
    );
    assert!(!said.contains("hunter2"), "{said}");
}
