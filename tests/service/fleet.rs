//! Two bot processes on one PostgreSQL database (see `support/pg.rs`; skipped loudly without
//! one, a failure under `REQUIRE_POSTGRES=1`).
//!
//! With the real binary (two console processes serving the same channel): moves alternating
//! between the processes stay in order; `kill -9` of one mid-burst loses no acknowledged move,
//! the other keeps serving and says what the dead one had decided and not yet said; a flag
//! falls once in the whole fleet. As a library (two services, each with its own connections,
//! as two processes are to the database): the same event delivered to both is applied once;
//! games in many channels, each played alternately through both, all end up exactly as sent;
//! game numbers never clash.

use crate::console;
use crate::games;
use crate::pg;
use crate::said;

use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use console::{acked_plies, Console};
use said::{joined, said};
use xiangqi_bot::app::{Origin, Service, ServiceConfig};
use xiangqi_bot::arbiter::RulesetName;
use xiangqi_bot::core::START_FEN;
use xiangqi_bot::game::Storage;
use xiangqi_bot::render::Renderer;
use xiangqi_bot::storage::{PgPools, PgStorage};

/// The moves of a quiet game from the start, as typed (ICCS).
fn moves(n: usize) -> Vec<String> {
    let m: Vec<String> = games::quiet_game(START_FEN, RulesetName::Asian, 0, n)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(m.len() >= n.min(40), "a long enough game");
    m
}

fn mover(ply: usize) -> &'static str {
    if ply.is_multiple_of(2) {
        "alice"
    } else {
        "bob"
    }
}

fn env(db: &pg::TestDb) -> Vec<(&str, &str)> {
    vec![("BOARD_IMAGES", "off"), ("DATABASE_URL", db.url.as_str())]
}

/// Two bot processes (console mode) on `db`, each with a data directory of its own (kept
/// while the returned directories live); the second with `b_env` added.
fn two_processes(
    db: &pg::TestDb,
    b_env: &[(&str, &str)],
) -> ([tempfile::TempDir; 2], Console, Console) {
    let dirs = [(); 2].map(|()| tempfile::tempdir().expect("dir"));
    let a = Console::start(dirs[0].path(), &env(db));
    let b = Console::start(dirs[1].path(), &[env(db), b_env.to_vec()].concat());
    (dirs, a, b)
}

#[test]
fn two_processes_alternate_in_one_channel_and_survive_kill_nine() {
    let Some(db) = pg::database("fleet_kill") else {
        return;
    };
    let moves = moves(60);
    let (_dirs, mut a, mut b) = two_processes(&db, &[]);
    a.ask("@alice /play @bob red 1d", "challenges bob");
    // The other process finds the challenge the first one stored.
    b.ask("@bob /accept", "begins");
    // Moves alternate between the processes, each waiting for the last to be acknowledged.
    for (i, m) in moves.iter().enumerate().take(12) {
        let who = mover(i);
        let p = if i % 2 == 0 { &mut a } else { &mut b };
        p.ask(&format!("@{who} {m}"), &format!("{}. {who}: ", i + 1));
    }
    assert_eq!(b.stored_plies(), 12);
    // A burst into the first process, killed while the burst is being applied.
    for (i, m) in moves.iter().enumerate().take(20).skip(12) {
        a.send(&format!("@{} {m}", mover(i)));
    }
    a.expect("13. alice: ");
    let acked_by_a: HashSet<usize> = acked_plies(&a.seen).collect();
    a.kill();
    let stored = b.stored_plies();
    let highest = acked_by_a.iter().copied().max().unwrap_or(0);
    assert!(
        stored >= highest,
        "{highest} moves were acknowledged but only {stored} are stored"
    );
    assert!(stored <= 20, "more moves stored than were sent");
    let fen = b.ask("/fen", " - - ");
    assert!(
        fen.contains(&games::board_after(&moves, stored)),
        "{fen} is not the position after {stored} plies"
    );
    // The survivor keeps serving...
    for (i, m) in moves.iter().enumerate().take(stored + 4).skip(stored) {
        let who = mover(i);
        b.ask(&format!("@{who} {m}"), &format!("{}. {who}: ", i + 1));
    }
    // ...and says what the killed process had stored and not yet said, once its heartbeat
    // is old enough for it to count as dead.
    let deadline = Instant::now() + Duration::from_secs(40);
    loop {
        let said: HashSet<usize> = acked_plies(&b.seen)
            .chain(acked_by_a.iter().copied())
            .collect();
        if (13..=stored).all(|n| said.contains(&n)) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "plies 13..={stored} were stored but not all said: {said:?}"
        );
        let _ = b.expect_within("\u{0}never", Duration::from_millis(500));
    }
    b.finish();
}

#[test]
fn a_flag_falls_once_in_a_fleet() {
    let Some(db) = pg::database("fleet_flag") else {
        return;
    };
    let (_dirs, mut a, mut b) = two_processes(&db, &[]);
    a.ask("@alice /play @bob red 4s", "challenges bob");
    b.ask("@bob /accept", "begins");
    a.ask("@alice h2e2", "1. alice");
    // Both processes' timers watch the deadline; one settles it and says so.
    let flag = "bob ran out of time";
    let deadline = Instant::now() + console::PATIENCE;
    while !a.seen.iter().chain(&b.seen).any(|l| l.contains(flag)) {
        assert!(Instant::now() < deadline, "the flag never fell");
        let _ = a.expect_within(flag, Duration::from_millis(300));
        let _ = b.expect_within(flag, Duration::from_millis(300));
    }
    // Time for a second (wrong) settling to show.
    let _ = a.expect_within("\u{0}never", Duration::from_secs(5));
    let _ = b.expect_within("\u{0}never", Duration::from_secs(1));
    let times = a
        .seen
        .iter()
        .chain(&b.seen)
        .filter(|l| l.contains(flag))
        .count();
    assert_eq!(times, 1, "the flag fell {times} times");
    b.finish();
    a.finish();
}

fn config() -> ServiceConfig {
    ServiceConfig {
        images: false,
        rate_burst: 100_000,
        ..ServiceConfig::default()
    }
}

/// A "process": a service with its own connections to the database.
fn process(db: &pg::TestDb, clock: &Arc<AtomicU64>) -> Arc<Service> {
    let storage: Arc<dyn Storage> = Arc::new(PgStorage::connect(&db.url).expect("postgres"));
    let c = Arc::clone(clock);
    Arc::new(Service::new(
        storage,
        Arc::new(Renderer::new()),
        Arc::new(move || c.load(Ordering::SeqCst)),
        config(),
    ))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_event_sent_to_two_processes_is_applied_once() {
    let Some(db) = pg::database("fleet_same_event") else {
        return;
    };
    let clock = Arc::new(AtomicU64::new(1_000_000));
    let (a, b) = (process(&db, &clock), process(&db, &clock));
    a.handle(said("alice", "#t", "/play @bob red")).await;
    b.handle(said("bob", "#t", "/accept")).await;
    for (i, m) in moves(16).iter().enumerate() {
        let event = Origin {
            event: Some(format!("console:e:{i}")),
            context: None,
        };
        let inc = said(mover(i), "#t", m);
        let (x, y) = tokio::join!(
            a.handle_from(inc.clone(), event.clone()),
            b.handle_from(inc, event)
        );
        assert!(
            x.duplicate != y.duplicate,
            "ply {}: exactly one process applies it ({} / {})",
            i + 1,
            joined(&x.replies),
            joined(&y.replies)
        );
        let applied = if x.duplicate { &y } else { &x };
        assert!(
            joined(&applied.replies).contains(&format!("{}. {}", i + 1, mover(i))),
            "{}",
            joined(&applied.replies)
        );
    }
    let record = a
        .storage()
        .channel(&"console:#t".into())
        .expect("read")
        .expect("channel");
    let game = a
        .storage()
        .game(record.active_game.expect("a game"))
        .expect("read");
    assert_eq!(game.expect("game").moves, moves(16));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_played_through_both_processes_at_once_end_up_as_sent() {
    let Some(db) = pg::database("fleet_many") else {
        return;
    };
    let clock = Arc::new(AtomicU64::new(1_000_000));
    let procs = [process(&db, &clock), process(&db, &clock)];
    let moves = moves(30);
    let channels: Vec<String> = (0..8).map(|c| format!("#c{c}")).collect();
    // Every channel starts a game through one process or the other, all at once.
    let starts = channels.iter().enumerate().map(|(c, ch)| {
        let (p, q) = (Arc::clone(&procs[c % 2]), Arc::clone(&procs[(c + 1) % 2]));
        let ch = ch.clone();
        async move {
            p.handle(said("alice", &ch, "/play @bob red")).await;
            q.handle(said("bob", &ch, "/accept")).await;
        }
    });
    futures_join_all(starts).await;
    // Each channel's moves alternate between the processes; channels run side by side.
    let games = channels.iter().enumerate().map(|(c, ch)| {
        let procs = procs.clone();
        let ch = ch.clone();
        let moves = moves.clone();
        tokio::spawn(async move {
            for (i, m) in moves.iter().enumerate() {
                let p = &procs[(i + c) % 2];
                let r = p.handle(said(mover(i), &ch, m)).await;
                assert!(
                    joined(&r).contains(&format!("{}. {}", i + 1, mover(i))),
                    "{ch} ply {}: {}",
                    i + 1,
                    joined(&r)
                );
            }
        })
    });
    for g in games.collect::<Vec<_>>() {
        g.await.expect("a channel's game");
    }
    let mut numbers = HashSet::new();
    for ch in &channels {
        let record = procs[0]
            .storage()
            .channel(&format!("console:{ch}").into())
            .expect("read")
            .expect("channel");
        let id = record.active_game.expect("a game");
        assert!(numbers.insert(id), "game number {id} given twice");
        let game = procs[1].storage().game(id).expect("read").expect("game");
        assert_eq!(game.moves, moves, "{ch}");
    }
    assert_eq!(numbers.len(), channels.len());
}

/// Wait for every future (a small `join_all`, without another dependency).
async fn futures_join_all<F: std::future::Future<Output = ()> + Send + 'static>(
    futures: impl Iterator<Item = F>,
) {
    let handles: Vec<_> = futures.map(tokio::spawn).collect();
    for h in handles {
        h.await.expect("joined");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_are_shifted_only_when_every_process_was_down() {
    let Some(db) = pg::database("fleet_downtime") else {
        return;
    };
    let clock = Arc::new(AtomicU64::new(1_000_000));
    let a = process(&db, &clock);
    assert_eq!(a.recover().await.expect("recover"), 0, "a first start");
    a.handle(said("alice", "#t", "/play @bob red 5+0")).await;
    a.handle(said("bob", "#t", "/accept")).await;
    // A second process starts a minute later while the first is alive: the clocks ran on.
    clock.fetch_add(60_000, Ordering::SeqCst);
    let b = process(&db, &clock);
    assert_eq!(b.recover().await.expect("recover"), 0, "the fleet was up");
    // Both stop; the fleet is down for two minutes; the next start shifts the clocks.
    b.storage()
        .beat(clock.load(Ordering::SeqCst))
        .expect("beat");
    drop((a, b));
    clock.fetch_add(120_000, Ordering::SeqCst);
    let c = process(&db, &clock);
    assert_eq!(
        c.recover().await.expect("recover"),
        120_000,
        "every process was down"
    );
}

#[test]
fn the_bots_search_goes_on_in_the_other_process_after_kill_nine() {
    let Some(db) = pg::database("fleet_bot") else {
        return;
    };
    let (_dirs, mut a, mut b) = two_processes(&db, &[("BOT_MOVE_CAP_MS", "200")]);
    a.ask("@alice /play bot 20 red", "Game #1 begins");
    // The top level (20) thinks for a second: the process is killed while it thinks.
    a.ask("@alice h2e2", "1. alice");
    let bot = ". Bot level 20: ";
    assert!(
        !a.seen.iter().any(|l| l.contains(bot)),
        "the bot answered before the kill"
    );
    a.kill();
    // Once the killed process counts as dead (its heartbeat is 10 s old), the survivor
    // searches and plays the bot's move.
    let line = b
        .expect_within(bot, Duration::from_secs(40))
        .unwrap_or_else(|| panic!("the bot never moved:\n{}", b.seen.join("\n")));
    assert!(line.contains("2. Bot"), "{line}");
    b.ask("/fen", " - - ");
    b.finish();
}

/// With a single connection for channel locks, commands that draw for a long while (replays
/// of long games, in four channels at once) do not make the commands of other channels fail
/// for want of it: a channel's lock is held while its command reads, decides and commits,
/// never while its pictures are drawn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_drawings_do_not_hold_the_channel_locks() {
    let Some(db) = pg::database("fleet_slow_drawings") else {
        return;
    };
    let clock = Arc::new(AtomicU64::new(1_000_000));
    let long = moves(40);
    let channels: Vec<String> = (0..4).map(|c| format!("#long{c}")).collect();
    {
        let setup = process(&db, &clock);
        let games = channels.iter().map(|ch| {
            let (setup, ch, long) = (Arc::clone(&setup), ch.clone(), long.clone());
            async move {
                setup.handle(said("alice", &ch, "/play @bob red")).await;
                setup.handle(said("bob", &ch, "/accept")).await;
                for (i, m) in long.iter().enumerate() {
                    setup.handle(said(mover(i), &ch, m)).await;
                }
            }
        });
        futures_join_all(games).await;
    }
    let pools = PgPools {
        lock_connections: 1,
        wait: Duration::from_secs(1),
        ..PgPools::default()
    };
    let storage: Arc<dyn Storage> =
        Arc::new(PgStorage::connect_with(&db.url, pools).expect("postgres"));
    let c = Arc::clone(&clock);
    let service = Arc::new(Service::new(
        storage,
        Arc::new(Renderer::new()),
        Arc::new(move || c.load(Ordering::SeqCst)),
        ServiceConfig {
            images: true,
            ..config()
        },
    ));
    let started = Instant::now();
    let replays: Vec<_> = channels
        .iter()
        .map(|ch| {
            let (service, ch) = (Arc::clone(&service), ch.clone());
            tokio::spawn(async move { service.handle(said("carol", &ch, "/gif")).await })
        })
        .collect();
    // Meanwhile, in other channels: a challenge, a game started, moves (each one a commit).
    let others: Vec<_> = (0..3)
        .map(|c| {
            let service = Arc::clone(&service);
            tokio::spawn(async move {
                let ch = format!("#quick{c}");
                let mut all = vec![
                    service.handle(said("dave", &ch, "/play @erin red")).await,
                    service.handle(said("erin", &ch, "/accept")).await,
                ];
                for (i, m) in moves(4).iter().enumerate() {
                    let who = if i % 2 == 0 { "dave" } else { "erin" };
                    all.push(service.handle(said(who, &ch, m)).await);
                }
                all
            })
        })
        .collect();
    for other in others {
        for replies in other.await.expect("a quick channel") {
            let text = joined(&replies);
            assert!(!text.contains("could not save"), "{text}");
        }
    }
    for replay in replays {
        let replies = replay.await.expect("a replay");
        let text = joined(&replies);
        assert!(!text.contains("could not save"), "{text}");
        let gif = replies
            .iter()
            .find_map(|r| r.image.as_ref())
            .expect("the replay");
        assert!(gif.bytes.starts_with(b"GIF8"), "{text}");
    }
    eprintln!(
        "four replays of {} plies and the other channels' commands: {:.1} s",
        long.len(),
        started.elapsed().as_secs_f64()
    );
}
