//! The bot's memory of a game (its evaluations, on which it resigns and answers draw offers)
//! is stored with each of its moves, in the same write, and survives a restart: the service as
//! a library on sled, the bot thinking with the built-in engine.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::task::JoinHandle;
use xiangqi_bot::app::bot::{Job, ThinkingPool};
use xiangqi_bot::app::{system_now, Incoming, Reply, Service, ServiceConfig};
use xiangqi_bot::arbiter::{Arbiter, Ruleset};
use xiangqi_bot::core::{Color, Move, Position};
use xiangqi_bot::engine::Limits;
use xiangqi_bot::game::{Game, GameRecord, GameStatus, PlayerRef, Storage};
use xiangqi_bot::render::{text_board, Renderer};
use xiangqi_bot::storage::SledStorage;
use xiangqi_bot::uci::player::Player;
use xiangqi_bot::uci::EngineConfig;

use crate::faulty;

const CHANNEL: &str = "console:#bot";

async fn start(dir: &Path) -> (Arc<Service>, JoinHandle<()>) {
    start_on(Arc::new(SledStorage::open(dir).expect("sled"))).await
}

async fn start_on(storage: Arc<dyn Storage>) -> (Arc<Service>, JoinHandle<()>) {
    let config = ServiceConfig {
        images: false,
        rate_burst: 100_000,
        ..ServiceConfig::default()
    };
    let svc = Arc::new(Service::new(
        storage,
        Arc::new(Renderer::new()),
        system_now(),
        config,
    ));
    svc.recover().await.expect("recover");
    let pool = Arc::new(ThinkingPool::new(
        1,
        Arc::new(Player::new(&EngineConfig::default())),
    ));
    svc.attach_bot(pool, Some(30));
    let bot = tokio::spawn(Arc::clone(&svc).run_bot());
    (svc, bot)
}

/// What the service answers alice's `text` in `channel`.
async fn tell_in(svc: &Service, channel: &str, text: &str) -> Vec<Reply> {
    svc.handle(Incoming {
        channel: channel.into(),
        user: PlayerRef::new("console:alice", "alice"),
        handle: Some("alice".into()),
        text: text.into(),
        ..Incoming::default()
    })
    .await
}

async fn tell(svc: &Service, text: &str) -> Vec<Reply> {
    tell_in(svc, CHANNEL, text).await
}

async fn say(svc: &Service, text: &str) -> String {
    say_in(svc, CHANNEL, text).await
}

/// Waits until game 1 has `plies` moves; returns its record.
async fn at_ply(svc: &Service, plies: usize) -> GameRecord {
    for _ in 0..600 {
        if let Ok(Some(r)) = svc.storage().game(1) {
            if r.moves.len() >= plies {
                return r;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("game 1 never reached ply {plies}");
}

/// Alice (Red) plays the first legal move; the bot answers. Returns the record after it.
async fn exchange(svc: &Service, plies: usize) -> GameRecord {
    let record = at_ply(svc, plies).await;
    let game = Game::from_record(record).expect("a stored game replays");
    let m = game
        .position()
        .legal_moves()
        .iter()
        .copied()
        .next()
        .expect("a legal move");
    let said = say(svc, &m.to_string()).await;
    assert!(said.contains(&format!("{}. alice", plies + 1)), "{said}");
    at_ply(svc, plies + 2).await
}

async fn stop(svc: Arc<Service>, bot: JoinHandle<()>) {
    bot.abort();
    let _ = bot.await;
    let_go(svc).await;
}

/// Flush and drop a service once nothing else holds it, so sled can be opened again.
pub(crate) async fn let_go(svc: Arc<Service>) {
    svc.storage().flush().await.expect("flush");
    // Let the last move's task let go of the service, so sled can be opened again.
    for _ in 0..100 {
        if Arc::strong_count(&svc) == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    drop(svc);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bots_memory_is_stored_with_its_moves_and_survives_a_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (svc, bot) = start(dir.path()).await;
    let started = say(&svc, "/play bot 2 red").await;
    assert!(started.contains("Game #1 begins"), "{started}");
    for k in 1..=3 {
        let r = exchange(&svc, 2 * (k - 1)).await;
        assert_eq!(r.moves.len(), 2 * k);
        // Written with the move itself: one evaluation per bot move, never behind.
        let memory = r.bot_memory.expect("the bot's memory is stored");
        assert_eq!(memory.evals.len(), k, "{memory:?}");
    }
    stop(svc, bot).await;

    // After a restart the bot goes on from what it remembered.
    let (svc, bot) = start(dir.path()).await;
    let r = exchange(&svc, 6).await;
    let memory = r.bot_memory.expect("the bot's memory is stored");
    assert_eq!(
        memory.evals.len(),
        4,
        "the evaluations before the restart are kept: {memory:?}"
    );
    stop(svc, bot).await;
}

/// A service on a clock the test drives, the bot thinking on `pool`, and the bot's loop.
async fn driven(
    dir: &Path,
    clock: &Arc<AtomicU64>,
    pool: &Arc<ThinkingPool>,
) -> (Arc<Service>, JoinHandle<()>) {
    let storage = Arc::new(SledStorage::open(dir).expect("sled"));
    let c = Arc::clone(clock);
    let svc = Arc::new(Service::new(
        storage,
        Arc::new(Renderer::new()),
        Arc::new(move || c.load(Ordering::SeqCst)),
        ServiceConfig {
            images: false,
            rate_burst: 100_000,
            ..ServiceConfig::default()
        },
    ));
    svc.attach_bot(Arc::clone(pool), Some(30));
    let bot = tokio::spawn(Arc::clone(&svc).run_bot());
    (svc, bot)
}

async fn say_in(svc: &Service, channel: &str, text: &str) -> String {
    tell_in(svc, channel, text)
        .await
        .iter()
        .map(|r| r.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Waits until `pool` has `running` jobs running and `waiting` waiting.
async fn pool_at(pool: &ThinkingPool, running: usize, waiting: usize) {
    for _ in 0..1_000 {
        if (pool.running(), pool.waiting()) == (running, waiting) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!(
        "the pool never had {running} running and {waiting} waiting: {} and {}",
        pool.running(),
        pool.waiting()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bots_clock_is_charged_with_its_search_not_its_wait_for_a_thread() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clock = Arc::new(AtomicU64::new(1_000_000));
    let pool = Arc::new(ThinkingPool::new(
        1,
        Arc::new(Player::new(&EngineConfig::default())),
    ));
    let (svc, bot) = driven(dir.path(), &clock, &pool).await;
    // Someone else's search holds the pool's one thread until it is stopped.
    let start = Arbiter::new(Position::startpos(), Ruleset::default());
    let blocker = pool.submit(
        "console:zed",
        "console:#elsewhere",
        Job::Hint {
            game: start,
            limits: Limits::default(),
        },
    );
    pool_at(&pool, 1, 0).await;
    // A one-minute game: the bot (Black) would be out of time after the wait below.
    let started = say_in(&svc, CHANNEL, "/play bot 1 red 1+0").await;
    assert!(started.contains("Game #1 begins"), "{started}");
    let said = say_in(&svc, CHANNEL, "h2e2").await;
    assert!(said.contains("1. alice"), "{said}");
    pool_at(&pool, 1, 1).await; // the bot's move waits for the thread
    clock.fetch_add(90_000, Ordering::SeqCst); // it waits a minute and a half
    pool.cancel("console:#elsewhere");
    assert!(blocker.result().await.is_none());
    let r = at_ply(&svc, 2).await;
    assert_eq!(
        r.status,
        GameStatus::Active,
        "its flag did not fall while it waited"
    );
    let black = r.clock.expect("a timed game").black.remaining_ms;
    let charged = 60_000 - black;
    assert!(
        charged < 90_000 && black > 0,
        "charged {charged} ms: its search only, not the 90 s it waited"
    );
    bot.abort();
    let _ = bot.await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_person_plays_the_bot_in_at_most_three_games_at_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (svc, bot) = start(dir.path()).await;
    for ch in 1..=3 {
        let r = say_in(&svc, &format!("console:#t{ch}"), "/play bot 1 black").await;
        assert!(r.contains("begins"), "{r}");
    }
    let r = say_in(&svc, "console:#t4", "/play bot 1 black").await;
    assert!(
        r.contains("already playing the bot in 3 games") && !r.contains("begins"),
        "{r}"
    );
    // One game ended frees a place.
    let r = say_in(&svc, "console:#t1", "/resign").await;
    assert!(!r.is_empty(), "{r}");
    let r = say_in(&svc, "console:#t4", "/play bot 1 black").await;
    assert!(r.contains("begins"), "{r}");
    bot.abort();
    let _ = bot.await;
}

/// The text board of the replies, as drawn.
fn drawn(replies: &[Reply]) -> String {
    replies
        .iter()
        .find_map(|r| r.image.as_ref()?.text_board.clone())
        .expect("a board")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_humans_side_stays_at_the_bottom_against_the_bot() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (svc, bot) = start(dir.path()).await;
    let started = tell(&svc, "/play bot 1 black").await;
    let start_board = xiangqi_bot::core::Position::startpos();
    assert_eq!(
        drawn(&started),
        text_board(&start_board, None, Color::Black),
        "the first board, the bot to move, is drawn from alice's side"
    );
    let game = Game::from_record(at_ply(&svc, 1).await).expect("a stored game replays");
    let m: Move = game
        .position()
        .legal_moves()
        .iter()
        .copied()
        .next()
        .expect("a move");
    // After alice's own move, the bot to move, the board is still drawn from her side.
    let moved = tell(&svc, &m.to_string()).await;
    let after = game.position().after(m);
    assert_eq!(
        drawn(&moved),
        text_board(&after, Some(m), Color::Black),
        "{:?}",
        moved.iter().map(|r| &r.text).collect::<Vec<_>>()
    );
    at_ply(&svc, 3).await;
    stop(svc, bot).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_move_whose_storing_failed_is_played_again_on_the_timer() {
    let dir = tempfile::tempdir().expect("tempdir");
    let storage = faulty::Faulty::open(dir.path());
    let (svc, bot) = start_on(Arc::clone(&storage) as Arc<dyn Storage>).await;
    let timer = tokio::spawn(Arc::clone(&svc).run_timer());
    let started = say(&svc, "/play bot 1 red").await;
    assert!(started.contains("Game #1 begins"), "{started}");
    // The write of the bot's first move fails, once: the bot moves all the same, with no
    // command from alice to wake it.
    storage.fail_once(|c| c.games.iter().any(|g| g.moves.len() == 2));
    let said = say(&svc, "h2e2").await;
    assert!(said.contains("1. alice"), "{said}");
    let record = at_ply(&svc, 2).await;
    assert_eq!(record.moves.len(), 2);
    assert_eq!(storage.failures(), 1, "the write was made to fail");
    timer.abort();
    stop(svc, bot).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_level_outside_the_ladder_is_refused_with_its_range_and_a_game_names_its_rating() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (svc, bot) = start(dir.path()).await;
    let top = xiangqi_bot::engine::TOP_LEVEL;
    for bad in [0, top + 1, 99] {
        let r = say(&svc, &format!("/play bot {bad} red")).await;
        assert!(
            r.contains(&format!("levels 1 to {top}, not \"{bad}\"")),
            "{r}"
        );
    }
    assert!(svc.storage().game(1).expect("storage").is_none(), "no game");
    // A level in range starts at once, and the first board says how strong it is.
    let started = say(&svc, "/play bot 12 black").await;
    assert!(started.contains("Game #1 begins"), "{started}");
    let rating = xiangqi_bot::engine::level_rating(12);
    assert!(
        started.contains(&format!(
            "level 12 of {top}: about {rating} on our players' rating"
        )),
        "{started}"
    );
    stop(svc, bot).await;
}
