//! Puzzles through the chat service, on sled and a clock the test drives: a group race for the
//! first solver (a wrong move refuted and its author's try over, the solver credited, puzzle
//! ratings and streaks stored), a wrong move in a private chat answered with the solution,
//! the picker, the hint (unrated), the solution and the next puzzle, a puzzle beside a game,
//! and a daily puzzle that falls due while the bot is down and is posted at the restart. The race
//! and the daily puzzle run on sled and again on PostgreSQL (see `support/pg.rs`).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use xiangqi_bot::app::{Action, Incoming, Reply, Service, ServiceConfig};
use xiangqi_bot::core::Move;
use xiangqi_bot::game::{DeadlineKind, PlayerRef, Storage};
use xiangqi_bot::notation::{format_move, Notation};
use xiangqi_bot::rating::puzzle::MAX_TRY_CHANGE;
use xiangqi_bot::render::Renderer;
use xiangqi_bot::storage::{PgStorage, SledStorage};

use crate::pg;
use crate::puzzles;
use crate::said;
use puzzles::{mate_in_two, NODES};
use said::{joined, said};

const DAY_MS: u64 = 86_400_000;

fn config() -> ServiceConfig {
    ServiceConfig {
        images: false,
        rate_burst: 100_000,
        puzzle_nodes: NODES,
        ..ServiceConfig::default()
    }
}

/// Where the service stores: sled in a directory, or a PostgreSQL database.
enum Backend {
    Sled(std::path::PathBuf),
    Pg(pg::TestDb),
}

impl Backend {
    /// Sled in a new temporary directory (kept while the returned directory lives).
    fn sled() -> (tempfile::TempDir, Backend) {
        let dir = tempfile::tempdir().expect("tempdir");
        let b = Backend::Sled(dir.path().join("db"));
        (dir, b)
    }
}

fn service(at: &Backend, clock: &Arc<AtomicU64>) -> Service {
    let storage: Arc<dyn Storage> = match at {
        Backend::Sled(path) => Arc::new(SledStorage::open(path).expect("sled")),
        Backend::Pg(db) => Arc::new(PgStorage::connect(&db.url).expect("postgres")),
    };
    let c = Arc::clone(clock);
    Service::new(
        storage,
        Arc::new(Renderer::new()),
        Arc::new(move || c.load(Ordering::SeqCst)),
        config(),
    )
}

/// A solver's stored puzzle record.
fn solver(svc: &Service, id: &str) -> xiangqi_bot::game::PuzzlePlayer {
    svc.storage()
        .puzzle_player(&id.into())
        .expect("read")
        .unwrap_or_else(|| panic!("no record of {id}"))
}

/// A service on a new database, its clock at 1,000 s.
fn fresh() -> (tempfile::TempDir, Arc<AtomicU64>, Service) {
    let (dir, at) = Backend::sled();
    let clock = Arc::new(AtomicU64::new(1_000_000));
    let svc = service(&at, &clock);
    (dir, clock, svc)
}

/// `user` says `text` in a group (a community), not a private chat.
fn in_group(user: &str, text: &str) -> Incoming {
    Incoming {
        community: Some("console:#g".into()),
        ..said(user, "#g", text)
    }
}

fn iccs(moves: &[Move]) -> Vec<String> {
    moves.iter().map(Move::to_string).collect()
}

/// The puzzle shown in replies: its showing number, from the first puzzle button.
fn number(replies: &[Reply]) -> u64 {
    replies
        .iter()
        .flat_map(|r| r.buttons.iter().flatten())
        .find_map(|b| match b.action {
            Action::PuzzleHint { puzzle } | Action::PuzzleNext { puzzle } => Some(puzzle),
            _ => None,
        })
        .expect("puzzle buttons")
}

#[tokio::test]
async fn a_group_races_and_the_first_solver_is_credited() {
    let (_dir, at) = Backend::sled();
    group_race(&at).await;
}

#[tokio::test]
async fn a_group_races_and_the_first_solver_is_credited_on_postgres() {
    if let Some(db) = pg::database("puzzle_race") {
        group_race(&Backend::Pg(db)).await;
    }
}

async fn group_race(at: &Backend) {
    let clock = Arc::new(AtomicU64::new(1_000_000));
    let svc = service(at, &clock);
    let example = mate_in_two();
    let (p, bad) = (&example.puzzle, example.wrong_second);
    let line = iccs(&p.solution);
    let r = joined(
        &svc.handle(in_group("alice", &format!("/puzzle {}", p.id)))
            .await,
    );
    assert!(r.contains(&format!("Puzzle {}", p.id)), "{r}");
    assert!(r.contains("mate in 2"), "{r}");
    let r = joined(&svc.handle(in_group("alice", &line[0])).await);
    assert!(r.contains("is right, alice"), "{r}");
    assert!(r.contains("1 more move"), "{r}");
    // Moves are echoed as games echo them: in the notation typed, with ICCS beside it unless
    // it is ICCS already (as here: once, not "i3i0 (i3i0)").
    assert!(r.contains(&format!("✅ {} is right", line[0])), "{r}");
    let answer = line[1].clone();
    assert!(r.contains(&format!("The answer: {answer}.")), "{r}");
    // Bob's wrong second move (a legal move of the solver that does not mate in time), typed in
    // WXF.
    let before_second = p.position.after(p.solution[0]).after(p.solution[1]);
    let bad_wxf = format_move(&before_second, bad, Notation::Wxf);
    let r = joined(&svc.handle(in_group("bob", &bad_wxf)).await);
    assert!(r.contains("is not it, bob"), "{r}");
    assert!(r.contains(&format!("{bad_wxf} ({bad})")), "{r}");
    assert!(r.contains("Others may still try"), "{r}");
    assert!(!r.contains("The solution"), "no solution in a group: {r}");
    let r = joined(&svc.handle(in_group("bob", &line[2])).await);
    assert!(r.contains("already missed"), "{r}");
    clock.fetch_add(12_000, Ordering::SeqCst);
    let r = joined(&svc.handle(in_group("carol", &line[2])).await);
    assert!(r.contains("solved by carol in 12 s"), "{r}");
    assert!(r.contains("alice: puzzle rating 1500 →"), "{r}");
    assert!(r.contains("carol: puzzle rating 1500 →"), "{r}");
    let store = svc.storage();
    let carol = store
        .puzzle_player(&"console:carol".into())
        .expect("read")
        .expect("carol");
    assert_eq!((carol.solved, carol.streak), (1, 1));
    assert!(carol.rating.rating > 1500.0);
    let bob = store
        .puzzle_player(&"console:bob".into())
        .expect("read")
        .expect("bob");
    assert_eq!((bob.missed, bob.streak), (1, 0));
    assert!(bob.rating.rating < 1500.0);
    // One try moves a rating by at most the bound, even a newcomer's.
    assert!(
        bob.rating.rating >= 1500.0 - MAX_TRY_CHANGE,
        "{:?}",
        bob.rating
    );
    assert!(
        carol.rating.rating <= 1500.0 + MAX_TRY_CHANGE,
        "{:?}",
        carol.rating
    );
    let standing = store.puzzle_standing(&p.id).expect("read").expect("rated");
    assert_eq!(standing.plays, 3);
    // Newcomers all three: their tries leave the puzzle's rating as the set had it.
    assert_eq!(standing.rating.rating, f64::from(p.rating));
    let r = joined(&svc.handle(in_group("bob", "/puzzle stats")).await);
    assert!(r.contains("bob: puzzle rating"), "{r}");
    assert!(r.contains("missed 1, streak 0"), "{r}");
    let about_carol = Incoming {
        mentions: vec![("@carol".into(), PlayerRef::new("console:carol", "carol"))],
        ..in_group("bob", "/puzzle stats @carol")
    };
    let about_carol_alone = Incoming {
        text: "/puzzle @carol".into(),
        ..about_carol.clone()
    };
    let r = joined(&svc.handle(about_carol_alone).await);
    assert!(r.contains("carol: puzzle rating"), "{r}");
    let r = joined(&svc.handle(about_carol).await);
    assert!(r.contains("carol: puzzle rating"), "{r}");
    assert!(r.contains("solved 1, missed 0, streak 1 (best 1)"), "{r}");
    let r = joined(&svc.handle(in_group("bob", "/puzzle solution")).await);
    assert!(r.contains("no puzzle here"), "{r}");
}

#[tokio::test]
async fn alone_a_wrong_move_is_answered_with_the_solution() {
    let (_dir, _clock, svc) = fresh();
    let example = mate_in_two();
    let (p, wrong) = (&example.puzzle, example.wrong_first);
    svc.handle(said("dan", "#dm", &format!("/puzzle {}", p.id)))
        .await;
    let r = joined(
        &svc.handle(said("dan", "#dm", &format!("/puzzle {wrong}")))
            .await,
    );
    assert!(r.contains("is not it, dan"), "{r}");
    assert!(r.contains("The solution: 1."), "{r}");
    let record = svc
        .storage()
        .channel(&"console:#dm".into())
        .expect("read")
        .expect("channel");
    assert!(record.puzzle.is_none(), "the puzzle ended");
    let dan = solver(&svc, "console:dan");
    assert_eq!(dan.missed, 1);
}

#[tokio::test]
async fn picker_hint_solution_and_next() {
    let (_dir, _clock, svc) = fresh();
    let p = &mate_in_two().puzzle;
    let shown = svc
        .handle(in_group("erin", &format!("/puzzle {}", p.id)))
        .await;
    let n = number(&shown);
    let press = |action: Action| Incoming {
        action: Some(action),
        ..in_group("erin", "")
    };
    let menu = svc
        .handle(press(Action::PuzzlePick { puzzle: n, ply: 0 }))
        .await;
    assert!(menu[0].menu, "a picker");
    let from = p.solution[0].from;
    assert!(menu[0].buttons.iter().flatten().any(|b| b.action
        == Action::PuzzlePickFrom {
            puzzle: n,
            ply: 0,
            from
        }));
    let menu = svc
        .handle(press(Action::PuzzlePickFrom {
            puzzle: n,
            ply: 0,
            from,
        }))
        .await;
    let first = Action::PuzzlePickTo {
        puzzle: n,
        ply: 0,
        mv: p.solution[0],
    };
    assert!(menu[0].buttons.iter().flatten().any(|b| b.action == first));
    let r = joined(&svc.handle(press(first)).await);
    assert!(r.contains("is right, erin"), "{r}");
    // A stale step of the picker (made before the move) is refused.
    let r = joined(&svc.handle(press(first)).await);
    assert!(r.contains("earlier position"), "{r}");
    let r = joined(&svc.handle(press(Action::PuzzleHint { puzzle: n })).await);
    assert!(r.contains("Hint: move the"), "{r}");
    assert!(r.contains(&p.solution[2].from.to_string()), "{r}");
    let r = joined(
        &svc.handle(in_group("erin", &p.solution[2].to_string()))
            .await,
    );
    assert!(r.contains("solved by erin"), "{r}");
    assert!(r.contains("does not change ratings"), "{r}");
    let erin = solver(&svc, "console:erin");
    assert!(
        (erin.rating.rating - 1500.0).abs() < 1e-9,
        "unrated after a hint"
    );
    assert_eq!(erin.streak, 1);
    // Next: a new puzzle (not the same one); Show solution ends it.
    let shown = svc.handle(press(Action::PuzzleNext { puzzle: n })).await;
    let r = joined(&shown);
    assert!(r.contains("🧩"), "{r}");
    assert!(!r.contains(&format!("Puzzle {}:", p.id)), "{r}");
    let m = number(&shown);
    assert_ne!(m, n);
    let r = joined(
        &svc.handle(press(Action::PuzzleSolution { puzzle: m }))
            .await,
    );
    assert!(r.contains("The solution: 1."), "{r}");
    let r = joined(&svc.handle(press(Action::PuzzleHint { puzzle: m })).await);
    assert!(r.contains("That puzzle is over"), "{r}");
}

#[tokio::test]
async fn a_puzzle_beside_a_game_takes_the_onlookers_moves() {
    let (_dir, _clock, svc) = fresh();
    let p = &mate_in_two().puzzle;
    let ask = |u: &str, t: &str| svc.handle(in_group(u, t));
    assert!(joined(&ask("alice", "/play @bob red").await).contains("challenges bob"));
    assert!(joined(&ask("bob", "/accept").await).contains("begins"));
    joined(&ask("carol", &format!("/puzzle {}", p.id)).await);
    let r = joined(&ask("alice", "h2e2").await);
    assert!(!r.contains("is right") && !r.contains("is not it"), "{r}");
    let r = joined(&ask("carol", &p.solution[0].to_string()).await);
    assert!(r.contains("is right, carol"), "{r}");
    let r = joined(&ask("carol", "/puzzle mate").await);
    assert!(r.contains("already being solved"), "{r}");
    let r = joined(&ask("carol", "/puzzle banana").await);
    assert!(r.contains("banana"), "{r}");
    let r = joined(&ask("dave", "/puzzle").await);
    assert!(r.contains("already being solved"), "{r}");
    let r = joined(
        &svc.handle(said("erin", "#alone", "/puzzle mate8 easy"))
            .await,
    );
    assert!(r.contains("No puzzle matches “mate8 easy”"), "{r}");
    let r = joined(&ask("carol", "/puzzle next sunflower").await);
    assert!(r.contains("No puzzle matches “sunflower”"), "{r}");
}

#[tokio::test]
async fn a_daily_puzzle_due_while_down_is_posted_at_the_restart() {
    let (_dir, at) = Backend::sled();
    daily_after_downtime(&at).await;
}

#[tokio::test]
async fn a_daily_puzzle_due_while_down_is_posted_at_the_restart_on_postgres() {
    if let Some(db) = pg::database("puzzle_daily") {
        daily_after_downtime(&Backend::Pg(db)).await;
    }
}

async fn daily_after_downtime(at: &Backend) {
    let start = 20_000 * DAY_MS + 6 * 3_600_000; // 06:00 UTC
    let clock = Arc::new(AtomicU64::new(start));
    {
        let svc = service(at, &clock);
        svc.recover().await.expect("recover");
        let r = joined(&svc.handle(in_group("alice", "/puzzle daily on 9")).await);
        assert!(r.contains("every day at 09:00 UTC"), "{r}");
        let r = joined(&svc.handle(in_group("alice", "/puzzle daily at noon")).await);
        assert!(r.contains("/puzzle daily on"), "{r}");
        svc.storage()
            .set_meta("alive_ms", start)
            .expect("heartbeat");
        svc.storage().flush().await.expect("flush");
    }
    // Down from 06:00 to 10:00: the 09:00 puzzle is posted once the bot is back.
    clock.store(start + 4 * 3_600_000, Ordering::SeqCst);
    let svc = service(at, &clock);
    svc.recover().await.expect("recover");
    let now = clock.load(Ordering::SeqCst);
    assert_eq!(svc.process_due(now).await.expect("due"), 1);
    let record = svc
        .storage()
        .channel(&"console:#g".into())
        .expect("read")
        .expect("channel");
    let live = record.puzzle.expect("a daily puzzle");
    assert!(live.daily);
    let daily = record.settings.puzzle_daily.expect("still daily");
    assert_eq!(
        daily.next_ms,
        20_001 * DAY_MS + 9 * 3_600_000,
        "tomorrow 09:00"
    );
    let deadlines = svc.storage().all_deadlines().expect("deadlines");
    assert!(deadlines
        .iter()
        .any(|d| d.kind == DeadlineKind::PuzzleDaily && d.at_ms == daily.next_ms));
    assert_eq!(svc.process_due(now).await.expect("due"), 0, "once");
    // Everyone gets the same puzzle that day; off stops it.
    let r = joined(&svc.handle(in_group("alice", "/puzzle")).await);
    assert!(r.contains(&live.id), "{r}");
    let r = joined(&svc.handle(in_group("alice", "/puzzle daily off")).await);
    assert!(r.contains("No more daily puzzles"), "{r}");
    assert!(!svc
        .storage()
        .all_deadlines()
        .expect("deadlines")
        .iter()
        .any(|d| d.kind == DeadlineKind::PuzzleDaily));
}
