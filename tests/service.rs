//! The chat service as a library, on sled in a temporary directory and a clock the test
//! drives: concurrent moves, flags, warnings, lapsing challenges, downtime, rate limits,
//! permissions, and arbitrary input.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use proptest::prelude::*;
use xiangqi_bot::app::{Service, ServiceConfig};
use xiangqi_bot::render::Renderer;
use xiangqi_bot::storage::SledStorage;

#[path = "support/said.rs"]
mod said;
use said::{joined, said};

struct Fixture {
    _dir: tempfile::TempDir,
    clock: Arc<AtomicU64>,
    svc: Arc<Service>,
}

fn fixture_in(dir: tempfile::TempDir, start_ms: u64, config: ServiceConfig) -> Fixture {
    let storage = Arc::new(SledStorage::open(dir.path()).expect("sled"));
    let clock = Arc::new(AtomicU64::new(start_ms));
    let c = Arc::clone(&clock);
    let svc = Arc::new(Service::new(
        storage,
        Arc::new(Renderer::new()),
        Arc::new(move || c.load(Ordering::SeqCst)),
        config,
    ));
    Fixture {
        _dir: dir,
        clock,
        svc,
    }
}

fn quiet_config() -> ServiceConfig {
    ServiceConfig {
        images: false,
        rate_burst: 100_000,
        ..ServiceConfig::default()
    }
}

fn fixture() -> Fixture {
    fixture_in(
        tempfile::tempdir().expect("tempdir"),
        1_000_000,
        quiet_config(),
    )
}

async fn ask(f: &Fixture, user: &str, text: &str) -> String {
    joined(&f.svc.handle(said(user, "#t", text)).await)
}

async fn start_game(f: &Fixture, args: &str) {
    let r = ask(f, "alice", &format!("/play @bob red {args}")).await;
    assert!(r.contains("challenges bob"), "{r}");
    let r = ask(f, "bob", "/accept").await;
    assert!(r.contains("begins"), "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_moves_in_one_channel_are_never_applied_twice() {
    let f = fixture();
    start_game(&f, "").await;
    let mut tasks = Vec::new();
    for _ in 0..32 {
        let svc = Arc::clone(&f.svc);
        tasks.push(tokio::spawn(async move {
            joined(&svc.handle(said("alice", "#t", "h2e2")).await)
        }));
    }
    let mut applied = 0;
    let mut refused = 0;
    for t in tasks {
        let r = t.await.expect("task");
        if r.contains("1. alice: ") {
            applied += 1;
        } else if r.contains("It is bob's turn") {
            refused += 1;
        }
    }
    assert_eq!((applied, refused), (1, 31));
    // Both players racing: moves interleave but each ply is applied once, in turn.
    let mut tasks = Vec::new();
    for (who, m) in [("bob", "h9g7"), ("bob", "h9g7"), ("alice", "h0g2")] {
        let svc = Arc::clone(&f.svc);
        tasks.push(tokio::spawn(
            async move { svc.handle(said(who, "#t", m)).await },
        ));
    }
    for t in tasks {
        t.await.expect("task");
    }
    let fen = ask(&f, "carol", "/fen").await;
    let plies: usize = f
        .svc
        .storage()
        .active_games()
        .expect("active")
        .iter()
        .map(|&id| {
            f.svc
                .storage()
                .game(id)
                .expect("game")
                .expect("some")
                .moves
                .len()
        })
        .sum();
    assert!((2..=3).contains(&plies), "{plies} plies: {fen}");
}

#[tokio::test]
async fn a_flag_falls_exactly_once_with_the_result_posted() {
    let f = fixture();
    let mut outbox = f.svc.subscribe("console:");
    start_game(&f, "1+0").await;
    ask(&f, "alice", "h2e2").await;
    // 54 s into Black's minute: the 10% warning, once.
    f.clock.fetch_add(54_500, Ordering::SeqCst);
    let now = f.clock.load(Ordering::SeqCst);
    assert_eq!(f.svc.process_due(now).await.expect("due"), 1);
    assert_eq!(f.svc.process_due(now).await.expect("due"), 0);
    let warn = outbox.recv().await.expect("warning");
    assert!(
        joined(&warn.replies).contains("bob, only 0:06 left"),
        "{:?}",
        warn.replies
    );
    // Past the minute: the flag falls, once.
    f.clock.fetch_add(6_000, Ordering::SeqCst);
    let now = f.clock.load(Ordering::SeqCst);
    assert_eq!(f.svc.process_due(now).await.expect("due"), 1);
    assert_eq!(f.svc.process_due(now + 10_000).await.expect("due"), 0);
    let out = outbox.recv().await.expect("result");
    let text = joined(&out.replies);
    assert!(text.contains("bob ran out of time"), "{text}");
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    // A move after the flag finds no game; the channel is free for a new one.
    assert!(ask(&f, "bob", "/move h9g7")
        .await
        .contains("There is no game"));
}

#[tokio::test]
async fn a_late_move_loses_on_time_even_before_the_timer_runs() {
    let f = fixture();
    start_game(&f, "20m/1m").await;
    // Red takes 61 s over its first move: the per-move cap is exceeded.
    f.clock.fetch_add(61_000, Ordering::SeqCst);
    let r = ask(&f, "alice", "h2e2").await;
    assert!(r.contains("alice ran out of time"), "{r}");
    assert!(!r.contains("1. alice"), "{r}");
}

#[tokio::test]
async fn an_unanswered_challenge_lapses() {
    let f = fixture();
    let mut outbox = f.svc.subscribe("console:");
    ask(&f, "alice", "/play @bob").await;
    f.clock.fetch_add(10 * 60 * 1000 + 1, Ordering::SeqCst);
    let now = f.clock.load(Ordering::SeqCst);
    assert_eq!(f.svc.process_due(now).await.expect("due"), 1);
    let out = outbox.recv().await.expect("expiry");
    assert!(joined(&out.replies).contains("has lapsed"));
    assert!(ask(&f, "bob", "/accept").await.contains("no challenge"));
}

#[tokio::test]
async fn clocks_do_not_run_while_the_service_is_down() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db");
    {
        let storage = Arc::new(SledStorage::open(&path).expect("sled"));
        let clock = Arc::new(AtomicU64::new(1_000_000));
        let c = Arc::clone(&clock);
        let svc = Arc::new(Service::new(
            storage,
            Arc::new(Renderer::new()),
            Arc::new(move || c.load(Ordering::SeqCst)),
            quiet_config(),
        ));
        let f = Fixture {
            _dir: tempfile::tempdir().expect("tempdir"),
            clock,
            svc,
        };
        f.svc.recover().await.expect("recover");
        start_game(&f, "1+0").await;
        ask(&f, "alice", "h2e2").await;
        // Black thinks 20 s, then the process dies (the heartbeat says when).
        f.clock.fetch_add(20_000, Ordering::SeqCst);
        f.svc
            .storage()
            .set_meta("alive_ms", f.clock.load(Ordering::SeqCst))
            .expect("heartbeat");
        f.svc.storage().flush().await.expect("flush");
    }
    // Back one hour later.
    let storage = Arc::new(SledStorage::open(&path).expect("reopen"));
    let clock = Arc::new(AtomicU64::new(1_000_000 + 20_000 + 3_600_000));
    let c = Arc::clone(&clock);
    let svc = Service::new(
        storage,
        Arc::new(Renderer::new()),
        Arc::new(move || c.load(Ordering::SeqCst)),
        quiet_config(),
    );
    assert_eq!(svc.recover().await.expect("recover"), 3_600_000);
    let now = clock.load(Ordering::SeqCst);
    assert_eq!(svc.process_due(now).await.expect("due"), 0, "no flag fell");
    let t = joined(&svc.handle(said("bob", "#t", "/time")).await);
    assert!(t.contains("Black 0:40"), "{t}");
    // Black's remaining 40 s still count down from here.
    assert_eq!(svc.process_due(now + 40_001).await.expect("due"), 1);
}

#[tokio::test]
async fn only_players_act_and_spam_is_slowed() {
    let f = fixture_in(
        tempfile::tempdir().expect("tempdir"),
        0,
        ServiceConfig {
            images: false,
            ..ServiceConfig::default()
        },
    );
    start_game(&f, "").await;
    assert!(ask(&f, "mallory", "/resign")
        .await
        .contains("only they can act"));
    assert!(ask(&f, "mallory", "/abort")
        .await
        .contains("only they can act"));
    assert!(ask(&f, "mallory", "/draw")
        .await
        .contains("only they can act"));
    let mut limited = 0;
    let mut silent = 0;
    for _ in 0..30 {
        let r = f.svc.handle(said("spammer", "#t", "/help")).await;
        if r.is_empty() {
            silent += 1;
        } else if joined(&r).contains("too fast") {
            limited += 1;
        }
    }
    assert_eq!(limited, 1, "told once");
    assert!(silent >= 15, "then quiet: {silent}");
    assert!(
        ask(&f, "alice", "/help").await.contains("/play"),
        "others are not slowed"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]
    #[test]
    fn any_text_gets_an_answer_or_silence_but_never_a_panic(text in "\\PC{0,700}", slash in any::<bool>()) {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("rt");
        rt.block_on(async {
            let f = fixture();
            start_game(&f, "").await;
            let t = if slash { format!("/{text}") } else { text.clone() };
            let _ = f.svc.handle(said("alice", "#t", &t)).await;
            let _ = f.svc.handle(said("mallory", "#t", &t)).await;
            let r = f.svc.handle(said("alice", "#t", &format!("/move {text}"))).await;
            prop_assert!(!r.is_empty());
            Ok(())
        })?;
    }
}

#[tokio::test]
async fn a_moved_channel_takes_its_game_clock_and_settings_along() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db");
    let clock = Arc::new(AtomicU64::new(1_000_000));
    let service = |storage: Arc<SledStorage>| {
        let c = Arc::clone(&clock);
        Service::new(
            storage,
            Arc::new(Renderer::new()),
            Arc::new(move || c.load(Ordering::SeqCst)),
            quiet_config(),
        )
    };
    {
        let svc = service(Arc::new(SledStorage::open(&path).expect("sled")));
        let ask = |channel: &'static str, user: &'static str, text: &'static str| {
            let svc = &svc;
            async move { joined(&svc.handle(said(user, channel, text)).await) }
        };
        ask("#t", "alice", "/lang vi").await;
        ask("#t", "alice", "/play @bob red 1+0").await;
        ask("#t", "bob", "/accept").await;
        ask("#t", "alice", "h2e2").await;
        assert!(svc
            .move_channel("console:#t", "console:#new")
            .await
            .expect("move"));
        // Twice is harmless (the old key is blank now), and a key with state of its own is
        // never overwritten.
        assert!(!svc
            .move_channel("console:#t", "console:#new")
            .await
            .expect("again"));
        ask("#busy", "erin", "/ruleset asian").await;
        assert!(!svc
            .move_channel("console:#new", "console:#busy")
            .await
            .expect("onto a used key"));
        let r = ask("#new", "bob", "h9g7").await;
        assert!(
            r.contains("2. bob"),
            "the game goes on in the new channel: {r}"
        );
        let vi = ask("#new", "bob", "/help").await;
        let en = ask("#t", "bob", "/help").await;
        assert_ne!(vi, en, "the language setting moved along");
        let old = ask("#t", "alice", "h0g2").await;
        assert!(!old.contains("3. alice"), "the old channel is empty: {old}");
        // A challenge moves with its expiry.
        ask("#t", "carol", "/play @dave").await;
        assert!(svc
            .move_channel("console:#t", "console:#other")
            .await
            .expect("move the challenge"));
        let deadlines = svc.storage().all_deadlines().expect("deadlines");
        assert!(
            deadlines.iter().all(|d| d.channel != "console:#t"),
            "{deadlines:?}"
        );
        assert!(deadlines.iter().any(|d| d.channel == "console:#other"));
        assert!(deadlines.iter().any(|d| d.channel == "console:#new"));
        svc.storage().flush().await.expect("flush");
    }
    // After a restart the game is found under its new key, and its flag falls there.
    let svc = service(Arc::new(SledStorage::open(&path).expect("reopen")));
    let mut outbox = svc.subscribe("console:");
    let r = joined(&svc.handle(said("alice", "#new", "h0g2")).await);
    assert!(r.contains("3. alice"), "{r}");
    assert!(svc.process_due(1_000_000 + 3_600_000).await.expect("due") >= 2);
    let mut channels = Vec::new();
    while let Ok(out) = outbox.try_recv() {
        channels.push(out.channel);
    }
    assert!(
        channels.contains(&"console:#new".to_string()),
        "{channels:?}"
    );
    assert!(
        channels.contains(&"console:#other".to_string()),
        "{channels:?}"
    );
    assert!(
        !channels.contains(&"console:#t".to_string()),
        "{channels:?}"
    );
}
