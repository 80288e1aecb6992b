//! A hint overtaken by a move: the service as a library on sled, the engine's pool with one
//! thread kept busy by another channel's hint, so that the move is certainly made while this
//! channel's hint waits. The hint comes back stale and is dropped, never posted.

use std::sync::Arc;
use std::time::{Duration, Instant};

use xiangqi_bot::app::bot::ThinkingPool;
use xiangqi_bot::app::{Service, ServiceConfig};
use xiangqi_bot::config::EngineConfig;
use xiangqi_bot::render::Renderer;
use xiangqi_bot::storage::SledStorage;

#[path = "support/said.rs"]
mod said;
use said::said;
use xiangqi_bot::uci::player::Player;

async fn ask(svc: &Service, user: &str, channel: &str, text: &str) -> String {
    svc.handle(said(user, channel, text))
        .await
        .iter()
        .map(|r| r.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A game between alice and bob in `channel`, hints allowed.
async fn game(svc: &Service, channel: &str) {
    ask(svc, "alice", channel, "/hints on").await;
    ask(svc, "alice", channel, "/play @bob red").await;
    let started = ask(svc, "bob", channel, "/accept").await;
    assert!(started.contains("begins"), "{started}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_overtaken_by_a_move_is_dropped() {
    let dir = tempfile::tempdir().expect("tempdir");
    let svc = Arc::new(Service::new(
        Arc::new(SledStorage::open(dir.path()).expect("sled")),
        Arc::new(Renderer::new()),
        xiangqi_bot::app::system_now(),
        ServiceConfig {
            images: false,
            rate_burst: 100_000,
            ..ServiceConfig::default()
        },
    ));
    let mut out = svc.subscribe("console:");
    let pool = Arc::new(ThinkingPool::new(
        1,
        Arc::new(Player::new(&EngineConfig::default())),
    ));
    svc.attach_bot(pool, None);
    let engine = tokio::spawn(Arc::clone(&svc).run_bot());
    game(&svc, "busy").await;
    game(&svc, "here").await;
    // The one engine thread thinks about "busy" first (a full hint: up to 2 s).
    let thinking = ask(&svc, "alice", "busy", "/hint").await;
    assert!(thinking.contains("Looking for the best move"), "{thinking}");
    tokio::time::sleep(Duration::from_millis(200)).await;
    ask(&svc, "alice", "here", "/hint").await;
    let moved = ask(&svc, "alice", "here", "h2e2").await;
    assert!(moved.contains("1. alice"), "{moved}");
    // Both hints come back; only "busy"'s is posted, and "here" forgets its question.
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut posted = Vec::new();
    loop {
        let pending = svc
            .storage()
            .channel("console:here")
            .expect("read")
            .and_then(|c| c.hint);
        if pending.is_none()
            && posted
                .iter()
                .any(|(c, _): &(String, String)| c.ends_with("busy"))
        {
            break;
        }
        assert!(Instant::now() < deadline, "hints still pending: {posted:?}");
        if let Ok(Some(o)) = tokio::time::timeout(Duration::from_millis(200), out.recv()).await {
            for r in o.replies {
                posted.push((o.channel.clone(), r.text));
            }
        }
    }
    let hints: Vec<&(String, String)> = posted
        .iter()
        .filter(|(_, t)| t.contains("Hint for"))
        .collect();
    assert_eq!(hints.len(), 1, "{posted:?}");
    assert_eq!(hints[0].0, "console:busy");
    // The next hint in "here" is for bob, at the new position.
    let next = ask(&svc, "bob", "here", "/hint").await;
    assert!(next.contains("Looking for the best move"), "{next}");
    engine.abort();
}
