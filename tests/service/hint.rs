//! A hint overtaken by a move: the service as a library on sled, the engine's pool with one
//! thread kept busy by another channel's hint, so that the move is certainly made while this
//! channel's hint waits. The hint comes back stale and is dropped, never posted. And a hint
//! whose storing fails once (sled with one write made to fail) is tried again on the timer.
//! A review asked for again and again is made and posted once; the repeats are pointed to it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::mpsc::UnboundedReceiver as Receiver;
use tokio::task::JoinHandle;
use xiangqi_bot::app::bot::ThinkingPool;
use xiangqi_bot::app::{Outgoing, Service, ServiceConfig};
use xiangqi_bot::game::Storage;
use xiangqi_bot::render::Renderer;
use xiangqi_bot::storage::SledStorage;
use xiangqi_bot::uci::EngineConfig;

use crate::faulty;
use crate::said;
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

/// The service on `storage`, the bot thinking on one thread (its moves capped at `cap` ms):
/// the service, what it sends on its own, and the thinking task.
fn start(
    storage: Arc<dyn Storage>,
    cap: Option<u64>,
) -> (Arc<Service>, Receiver<Outgoing>, JoinHandle<()>) {
    start_at(storage, cap, xiangqi_bot::app::system_now())
}

/// [`start`] on the clock `now`.
fn start_at(
    storage: Arc<dyn Storage>,
    cap: Option<u64>,
    now: xiangqi_bot::app::Now,
) -> (Arc<Service>, Receiver<Outgoing>, JoinHandle<()>) {
    let svc = Arc::new(Service::new(
        storage,
        Arc::new(Renderer::new()),
        now,
        ServiceConfig {
            images: false,
            rate_burst: 100_000,
            ..ServiceConfig::default()
        },
    ));
    let out = svc.subscribe(xiangqi_bot::platform::Platform::Console);
    let pool = Arc::new(ThinkingPool::new(
        1,
        Arc::new(Player::new(&EngineConfig::default())),
    ));
    svc.attach_bot(pool, cap);
    let engine = tokio::spawn(Arc::clone(&svc).run_bot());
    (svc, out, engine)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_overtaken_by_a_move_is_dropped() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (svc, mut out, engine) =
        start(Arc::new(SledStorage::open(dir.path()).expect("sled")), None);
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
            .channel(&"console:here".into())
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
                posted.push((o.channel.to_string(), r.text));
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_whose_storing_failed_is_tried_again_not_left_busy() {
    let dir = tempfile::tempdir().expect("tempdir");
    let storage = faulty::Faulty::open(dir.path());
    let (svc, mut out, engine) = start(Arc::clone(&storage) as Arc<dyn Storage>, Some(50));
    let timer = tokio::spawn(Arc::clone(&svc).run_timer());
    game(&svc, "here").await;
    // The write that posts the hint and forgets the question fails, once.
    storage.fail_once(|c| c.channels.iter().any(|(_, r)| r.hint.is_none()));
    let thinking = ask(&svc, "alice", "here", "/hint").await;
    assert!(thinking.contains("Looking for the best move"), "{thinking}");
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut posted = Vec::new();
    while !posted.iter().any(|t: &String| t.contains("Hint for alice")) {
        assert!(Instant::now() < deadline, "the hint never came: {posted:?}");
        if let Ok(Some(o)) = tokio::time::timeout(Duration::from_millis(200), out.recv()).await {
            posted.extend(o.replies.into_iter().map(|r| r.text));
        }
    }
    assert_eq!(storage.failures(), 1, "the write was made to fail");
    let pending = svc.storage().channel(&"console:here".into()).expect("read");
    assert!(
        pending.and_then(|c| c.hint).is_none(),
        "the question is forgotten"
    );
    // Asked again, the hint is looked for anew, not "already being looked for".
    let again = ask(&svc, "alice", "here", "/hint").await;
    assert!(again.contains("Looking for the best move"), "{again}");
    engine.abort();
    timer.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_reviews_of_one_game_give_one_review_and_pointers_to_it() {
    use std::sync::atomic::{AtomicU64, Ordering};
    let dir = tempfile::tempdir().expect("tempdir");
    let storage: Arc<dyn Storage> = Arc::new(SledStorage::open(dir.path()).expect("sled"));
    let clock = Arc::new(AtomicU64::new(1_700_000_000_000));
    let c2 = Arc::clone(&clock);
    let (svc, mut out, engine) = start_at(
        storage,
        Some(20),
        Arc::new(move || c2.load(Ordering::SeqCst)),
    );
    let ch = "#reviews";
    ask(&svc, "alice", ch, "/play @bob red").await;
    ask(&svc, "bob", ch, "/accept").await;
    ask(&svc, "alice", ch, "h2e2").await;
    let over = ask(&svc, "bob", ch, "/resign").await;
    assert!(over.contains("Game over"), "{over}");
    let mut public = Vec::new();
    let mut private = Vec::new();
    for n in 0..10 {
        let who = if n % 2 == 0 { "alice" } else { "bob" };
        for r in svc.handle(said(who, ch, "/review 1")).await {
            if r.private {
                private.push(r.text);
            } else {
                public.push(r.text);
            }
        }
    }
    assert_eq!(public.len(), 1, "one public line: {public:?}");
    assert!(public[0].contains("Reviewing game #1"), "{public:?}");
    assert_eq!(private.len(), 9, "{private:?}");
    assert!(
        private
            .iter()
            .all(|t| t.contains("Game #1 is being reviewed")),
        "{private:?}"
    );
    // The review comes once.
    let posted = tokio::time::timeout(Duration::from_secs(120), async {
        loop {
            let o = out.recv().await.expect("the service is running");
            if o.replies
                .iter()
                .any(|r| r.text.contains("Review of game #1"))
            {
                return o;
            }
        }
    })
    .await
    .expect("the review came");
    assert!(posted.replies.iter().all(|r| !r.private));
    // Asked again at once: a private pointer, not the review again.
    let again = svc.handle(said("bob", ch, "/review 1")).await;
    assert_eq!(again.len(), 1, "{again:?}");
    assert!(again[0].private);
    assert!(
        again[0]
            .text
            .contains("The review of game #1 was posted just above"),
        "{again:?}"
    );
    clock.fetch_add(3 * 60_000, Ordering::SeqCst);
    let again = svc.handle(said("alice", ch, "/review")).await;
    assert!(
        again[0].text.contains("posted above 3 min ago"),
        "{again:?}"
    );
    // Long after, it has scrolled away: posted again, from storage, at once.
    clock.fetch_add(20 * 60_000, Ordering::SeqCst);
    let again = svc.handle(said("alice", ch, "/review 1")).await;
    assert!(
        again
            .iter()
            .any(|r| !r.private && r.text.contains("Review of game #1")),
        "{again:?}"
    );
    let soon = svc.handle(said("alice", ch, "/review 1")).await;
    assert!(
        soon[0].private && soon[0].text.contains("just above"),
        "{soon:?}"
    );
    let more = tokio::time::timeout(Duration::from_millis(300), async {
        while let Some(o) = out.recv().await {
            if o.replies
                .iter()
                .any(|r| r.text.contains("Review of game #1"))
            {
                return true;
            }
        }
        false
    })
    .await;
    assert!(!matches!(more, Ok(true)), "the review was posted twice");
    engine.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_game_of_a_chat_has_its_hint_searched() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (svc, mut out, engine) = start(
        Arc::new(SledStorage::open(dir.path()).expect("sled")),
        Some(300),
    );
    game(&svc, "club").await;
    ask(&svc, "carol", "club", "/play @dave red").await;
    let started = ask(&svc, "dave", "club", "/accept").await;
    assert!(started.contains("Game #2 begins"), "{started}");
    // Two players of two games ask at once; a second ask in the same game waits for the first.
    let a = ask(&svc, "alice", "club", "/hint").await;
    assert!(a.contains("Looking for the best move"), "{a}");
    let c = ask(&svc, "carol", "club", "/hint").await;
    assert!(c.contains("Looking for the best move"), "{c}");
    let again = ask(&svc, "alice", "club", "/hint").await;
    assert!(again.contains("already being looked for"), "{again}");
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut hints = Vec::new();
    while hints.len() < 2 {
        assert!(Instant::now() < deadline, "hints posted: {hints:?}");
        if let Ok(Some(o)) = tokio::time::timeout(Duration::from_millis(200), out.recv()).await {
            hints.extend(
                o.replies
                    .into_iter()
                    .map(|r| r.text)
                    .filter(|t| t.contains("Hint for")),
            );
        }
    }
    assert!(
        hints
            .iter()
            .any(|h| h.starts_with("Game #1 · 💡 Hint for alice")),
        "{hints:?}"
    );
    assert!(
        hints
            .iter()
            .any(|h| h.starts_with("Game #2 · 💡 Hint for carol")),
        "{hints:?}"
    );
    let record = svc
        .storage()
        .channel(&"console:club".into())
        .expect("read")
        .expect("channel");
    assert!(record.hint.is_none() && record.other_hints.is_empty());
    engine.abort();
}
