//! Several games at once in one chat: each player's moves and commands go to their own game,
//! a spectator names the one to show, a player plays one game at a time there, the bot plays
//! several games in a chat beside people's, and a restart brings every game back. On sled, and
//! again on PostgreSQL when one can be had.

use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::Duration;

use xiangqi_bot::app::bot::ThinkingPool;
use xiangqi_bot::app::{Action, Incoming, Service, ServiceConfig};
use xiangqi_bot::game::Storage;
use xiangqi_bot::render::Renderer;
use xiangqi_bot::storage::{PgStorage, SledStorage};
use xiangqi_bot::uci::player::Player;
use xiangqi_bot::uci::EngineConfig;

use crate::pg;
use crate::said::{joined, said};

fn config() -> ServiceConfig {
    ServiceConfig {
        images: false,
        rate_burst: 100_000,
        ..ServiceConfig::default()
    }
}

fn service(storage: Arc<dyn Storage>, config: ServiceConfig) -> Arc<Service> {
    service_at(storage, config, Arc::new(AtomicU64::new(1_000_000)))
}

fn service_at(
    storage: Arc<dyn Storage>,
    config: ServiceConfig,
    clock: Arc<AtomicU64>,
) -> Arc<Service> {
    Arc::new(Service::new(
        storage,
        Arc::new(Renderer::new()),
        Arc::new(move || clock.load(std::sync::atomic::Ordering::SeqCst)),
        config,
    ))
}

async fn ask(svc: &Service, user: &str, text: &str) -> String {
    joined(&svc.handle(said(user, "#group", text)).await)
}

async fn two_games(svc: &Service) {
    let r = ask(svc, "alice", "/play @bob red").await;
    assert!(r.contains("challenges bob"), "{r}");
    let r = ask(svc, "bob", "/accept").await;
    assert!(r.contains("Game #1 begins"), "{r}");
    // A second pair starts beside the first.
    let r = ask(svc, "carol", "/play @dave red").await;
    assert!(r.contains("challenges dave"), "{r}");
    let r = ask(svc, "dave", "/accept").await;
    assert!(r.contains("Game #2 begins"), "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_pairs_play_side_by_side_in_one_chat() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut stores: Vec<Arc<dyn Storage>> = vec![Arc::new(
        SledStorage::open(&dir.path().join("db")).expect("sled"),
    )];
    let db = pg::database("several_games");
    if let Some(db) = &db {
        stores.push(Arc::new(PgStorage::connect(&db.url).expect("postgres")));
    }
    for storage in stores {
        side_by_side(&service(storage, config())).await;
    }
}

async fn side_by_side(svc: &Service) {
    two_games(svc).await;
    // Each typed move goes to its author's game; each board says which game it is.
    let r = ask(svc, "alice", "h2e2").await;
    assert!(r.contains("Game #1 · 1. alice"), "{r}");
    let r = ask(svc, "carol", "b2e2").await;
    assert!(r.contains("Game #2 · 1. carol"), "{r}");
    let r = ask(svc, "bob", "h9g7").await;
    assert!(r.contains("Game #1 · 2. bob"), "{r}");
    // Out of turn in one's own game is refused there, not played in the other game.
    let r = ask(svc, "carol", "h2e2").await;
    assert!(r.contains("dave"), "{r}");
    let r = ask(svc, "dave", "h9g7").await;
    assert!(r.contains("Game #2 · 2. dave"), "{r}");
    // A spectator is asked which game, and names one.
    let r = ask(svc, "eve", "/board").await;
    assert!(
        r.contains("#1: alice – bob") && r.contains("#2: carol – dave"),
        "{r}"
    );
    let r = ask(svc, "eve", "/board 2").await;
    assert!(r.contains("Game #2") && !r.contains("Game #1"), "{r}");
    // Buttons carry their game: dave offers a draw with game 2's button after a move was
    // played in game 1.
    let board = svc.handle(said("dave", "#group", "/board")).await;
    let draw = board
        .iter()
        .flat_map(|r| r.buttons.iter().flatten())
        .find(|b| matches!(b.action, Action::Draw { game: 2, .. }))
        .expect("game 2's draw button")
        .action;
    let r = ask(svc, "alice", "c3c4").await;
    assert!(r.contains("Game #1 · 3. alice"), "{r}");
    let press = Incoming {
        action: Some(draw),
        ..said("dave", "#group", "")
    };
    let r = joined(&svc.handle(press).await);
    assert!(r.contains("dave") && r.contains("draw"), "{r}");
    let r = ask(svc, "carol", "/decline").await;
    assert!(!r.contains("alice"), "{r}");
    // A player's own /board is their game.
    let r = ask(svc, "bob", "/board").await;
    assert!(r.contains("Game #1") && !r.contains("Game #2"), "{r}");
    // A player plays one game at a time here; nobody may be drawn into a second.
    let r = ask(svc, "alice", "/play @eve").await;
    assert!(r.contains("already playing here"), "{r}");
    let r = ask(svc, "eve", "/play @dave").await;
    assert!(r.contains("dave is playing game #2 here"), "{r}");
    // A draw offer and a resignation stay in their game.
    let r = ask(svc, "dave", "/draw").await;
    assert!(!r.contains("alice"), "{r}");
    let r = ask(svc, "alice", "/resign").await;
    assert!(r.contains("resigned") && r.contains("alice"), "{r}");
    // One game left: the spectator's /board is it again, without asking.
    let r = ask(svc, "eve", "/board").await;
    assert!(r.contains("carol") && !r.contains("#1:"), "{r}");
    let r = ask(svc, "carol", "/accept").await;
    assert!(r.contains("Draw"), "{r}");
    let r = ask(svc, "eve", "/board").await;
    assert!(!r.contains("Game #"), "{r}");
}

/// Wait until game `id` has `plies` moves.
async fn at_ply(svc: &Service, id: u64, plies: usize) {
    for _ in 0..600 {
        if svc
            .storage()
            .game(id)
            .ok()
            .flatten()
            .is_some_and(|r| r.moves.len() >= plies)
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("game {id} never reached ply {plies}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_game_of_a_chat_comes_back_after_a_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db");
    let svc = service(Arc::new(SledStorage::open(&path).expect("sled")), config());
    two_games(&svc).await;
    assert!(ask(&svc, "alice", "h2e2").await.contains("Game #1 · 1."));
    assert!(ask(&svc, "carol", "c3c4").await.contains("Game #2 · 1."));
    crate::bot::let_go(svc).await;
    let svc = service(Arc::new(SledStorage::open(&path).expect("sled")), config());
    let r = ask(&svc, "bob", "h9g7").await;
    assert!(r.contains("Game #1 · 2. bob"), "{r}");
    let r = ask(&svc, "dave", "c6c5").await;
    assert!(r.contains("Game #2 · 2. dave"), "{r}");
    let r = ask(&svc, "eve", "/board").await;
    assert!(r.contains("#1: alice – bob"), "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_bot_plays_several_games_in_one_chat_beside_people() {
    let dir = tempfile::tempdir().expect("tempdir");
    let storage = Arc::new(SledStorage::open(&dir.path().join("db")).expect("sled"));
    let svc = service(storage, config());
    let pool = Arc::new(ThinkingPool::new(
        1,
        Arc::new(Player::new(&EngineConfig::default())),
    ));
    svc.attach_bot(pool, Some(30));
    let bot = tokio::spawn(Arc::clone(&svc).run_bot());
    let r = ask(&svc, "alice", "/play @bob red").await;
    assert!(r.contains("challenges bob"), "{r}");
    let r = ask(&svc, "bob", "/accept").await;
    assert!(r.contains("begins"), "{r}");
    // Two players each play the bot in the same chat, beside the people's game.
    let r = ask(&svc, "carol", "/play bot 1 red").await;
    assert!(r.contains("Game #2 begins"), "{r}");
    let r = ask(&svc, "dave", "/play bot 1 red").await;
    assert!(r.contains("Game #3 begins"), "{r}");
    // A player still plays one game at a time here.
    let r = ask(&svc, "dave", "/play bot").await;
    assert!(r.contains("You are already playing here"), "{r}");
    let r = ask(&svc, "carol", "h2e2").await;
    assert!(r.contains("Game #2 · 1. carol"), "{r}");
    let r = ask(&svc, "dave", "c3c4").await;
    assert!(r.contains("Game #3 · 1. dave"), "{r}");
    let r = ask(&svc, "alice", "h2e2").await;
    assert!(r.contains("Game #1 · 1. alice"), "{r}");
    let r = ask(&svc, "bob", "h9g7").await;
    assert!(r.contains("Game #1 · 2. bob"), "{r}");
    // The bot answers in each of its games.
    at_ply(&svc, 2, 2).await;
    at_ply(&svc, 3, 2).await;
    let r = ask(&svc, "carol", "/board").await;
    assert!(r.contains("Game #2"), "{r}");
    // One of its games ends; the other goes on.
    let r = ask(&svc, "carol", "/resign").await;
    assert!(r.contains("resigned"), "{r}");
    let moved = svc.storage().game(3).ok().flatten().expect("game 3").moves;
    let next =
        xiangqi_bot::game::Game::from_record(svc.storage().game(3).ok().flatten().expect("game 3"))
            .expect("replays")
            .position()
            .legal_moves()
            .iter()
            .next()
            .copied()
            .expect("a move");
    let r = ask(&svc, "dave", &next.to_string()).await;
    assert!(
        r.contains(&format!("Game #3 · {}. dave", moved.len() + 1)),
        "{r}"
    );
    at_ply(&svc, 3, moved.len() + 2).await;
    bot.abort();
    let _ = bot.await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn several_challenges_wait_at_once_and_each_is_answered_or_lapses() {
    let dir = tempfile::tempdir().expect("tempdir");
    let storage = Arc::new(SledStorage::open(&dir.path().join("db")).expect("sled"));
    let clock = Arc::new(AtomicU64::new(1_000_000));
    let svc = service_at(storage, config(), Arc::clone(&clock));
    let mut outbox = svc.subscribe(xiangqi_bot::platform::Platform::Console);
    // Three challenges wait side by side: two addressed, one open.
    let first = svc.handle(said("alice", "#group", "/play @bob red")).await;
    assert!(
        joined(&first).contains("alice challenges bob"),
        "{}",
        joined(&first)
    );
    let r = ask(&svc, "carol", "/play @dave red").await;
    assert!(r.contains("carol challenges dave"), "{r}");
    let r = ask(&svc, "erin", "/play").await;
    assert!(r.contains("erin"), "{r}");
    // Each challenger has one waiting at a time.
    let r = ask(&svc, "alice", "/play @frank").await;
    assert!(r.contains("alice's challenge is waiting"), "{r}");
    // Dave's /accept answers the challenge addressed to him; Bob's button the one to him.
    let r = ask(&svc, "dave", "/accept").await;
    assert!(
        r.contains("Game #1 begins: carol (Red) vs dave (Black)"),
        "{r}"
    );
    let accept = first
        .iter()
        .flat_map(|r| r.buttons.iter().flatten())
        .find(|b| matches!(b.action, Action::Accept { .. }))
        .expect("the accept button")
        .action;
    // Nobody else's press answers it.
    let press = |who: &str| Incoming {
        action: Some(accept),
        ..said(who, "#group", "")
    };
    let r = joined(&svc.handle(press("frank")).await);
    assert!(r.contains("bob"), "{r}");
    let r = joined(&svc.handle(press("bob")).await);
    assert!(
        r.contains("Game #2 begins: alice (Red) vs bob (Black)"),
        "{r}"
    );
    // A player in a game cannot take the open one; someone free can.
    let r = ask(&svc, "bob", "/accept").await;
    assert!(!r.contains("begins"), "{r}");
    // The open challenge lapses on its own, the games go on.
    clock.fetch_add(10 * 60 * 1000 + 1, std::sync::atomic::Ordering::SeqCst);
    let now = clock.load(std::sync::atomic::Ordering::SeqCst);
    assert_eq!(svc.process_due(now).await.expect("due"), 1);
    let out = outbox.recv().await.expect("expiry");
    assert!(
        joined(&out.replies).contains("erin"),
        "{}",
        joined(&out.replies)
    );
    assert!(joined(&out.replies).contains("has lapsed"));
    let r = ask(&svc, "frank", "/accept").await;
    assert!(r.contains("no challenge"), "{r}");
    let r = ask(&svc, "carol", "h2e2").await;
    assert!(r.contains("Game #1 · 1. carol"), "{r}");
    let r = ask(&svc, "alice", "h2e2").await;
    assert!(r.contains("Game #2 · 1. alice"), "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_chat_is_in_use_and_keeps_its_language_while_any_challenge_waits() {
    let dir = tempfile::tempdir().expect("tempdir");
    let storage = Arc::new(SledStorage::open(&dir.path().join("db")).expect("sled"));
    let svc = service(storage, config());
    // Alice, whose app speaks Vietnamese, challenges first: the chat reads in Vietnamese.
    let inc = Incoming {
        lang_hint: Some(xiangqi_bot::i18n::Lang::Vi),
        ..said("alice", "#group", "/play @bob red")
    };
    let r = joined(&svc.handle(inc).await);
    assert!(r.contains("alice thách đấu bob"), "{r}");
    // Carol's challenge, made while Alice's waits, is posted in the chat's language too.
    let r = ask(&svc, "carol", "/play @dave red").await;
    assert!(r.contains("carol thách đấu dave"), "{r}");
    // Dave declines Carol's; Alice's still waits, so the chat is still in use (a Discord
    // thread opened for it is kept) and still reads in Vietnamese.
    let r = ask(&svc, "dave", "/decline").await;
    assert!(r.contains("dave đã từ chối"), "{r}");
    assert!(svc.channel_in_use(&"console:#group".into()).await);
    let r = ask(&svc, "erin", "/play @frank").await;
    assert!(r.contains("erin thách đấu frank"), "{r}");
    let r = ask(&svc, "bob", "/accept").await;
    assert!(
        r.contains("Ván #1 bắt đầu: alice (Đỏ) gặp bob (Đen)"),
        "{r}"
    );
}
