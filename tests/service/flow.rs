//! The chat service as a library, on a clock the test drives: concurrent moves, flags,
//! warnings, lapsing challenges, downtime, rate limits, permissions, and arbitrary input.
//! Each test runs on sled in a temporary directory, and again on PostgreSQL when one can be
//! had (see `support/pg.rs`); the property test runs on sled.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use proptest::prelude::*;
use xiangqi_bot::app::{Service, ServiceConfig};
use xiangqi_bot::game::Storage;
use xiangqi_bot::render::Renderer;
use xiangqi_bot::storage::{PgStorage, SledStorage};

use crate::pg;
use crate::said;
use said::{joined, said};

/// Where a test's service stores.
enum Place {
    Sled(tempfile::TempDir),
    Pg(pg::TestDb),
}

impl Place {
    /// Open (or open again) the storage.
    fn open(&self) -> Arc<dyn Storage> {
        match self {
            Place::Sled(dir) => Arc::new(SledStorage::open(&dir.path().join("db")).expect("sled")),
            Place::Pg(db) => Arc::new(PgStorage::connect(&db.url).expect("postgres")),
        }
    }
}

/// Sled, then PostgreSQL when it can be had.
fn places(test: &str) -> Vec<Place> {
    let mut places = vec![Place::Sled(tempfile::tempdir().expect("tempdir"))];
    places.extend(pg::database(test).map(Place::Pg));
    places
}

struct Fixture {
    place: Place,
    clock: Arc<AtomicU64>,
    svc: Arc<Service>,
}

/// A service over `storage` on `clock`.
fn service_on(storage: Arc<dyn Storage>, clock: &Arc<AtomicU64>, config: ServiceConfig) -> Service {
    let c = Arc::clone(clock);
    Service::new(
        storage,
        Arc::new(Renderer::new()),
        Arc::new(move || c.load(Ordering::SeqCst)),
        config,
    )
}

fn fixture_in(place: Place, start_ms: u64, config: ServiceConfig) -> Fixture {
    let clock = Arc::new(AtomicU64::new(start_ms));
    let svc = Arc::new(service_on(place.open(), &clock, config));
    Fixture { place, clock, svc }
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
        Place::Sled(tempfile::tempdir().expect("tempdir")),
        1_000_000,
        quiet_config(),
    )
}

/// Fixtures for `test` on every backend.
fn fixtures(test: &str) -> impl Iterator<Item = Fixture> {
    places(test)
        .into_iter()
        .map(|p| fixture_in(p, 1_000_000, quiet_config()))
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
    for f in fixtures("concurrent_moves") {
        concurrent_moves(f).await;
    }
}

async fn concurrent_moves(f: Fixture) {
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
    for f in fixtures("flag_once") {
        flag_once(f).await;
    }
}

async fn flag_once(f: Fixture) {
    let mut outbox = f.svc.subscribe(xiangqi_bot::platform::Platform::Console);
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
    for f in fixtures("late_move") {
        late_move(f).await;
    }
}

async fn late_move(f: Fixture) {
    start_game(&f, "20m/1m").await;
    // Red takes 61 s over its first move: the per-move cap is exceeded.
    f.clock.fetch_add(61_000, Ordering::SeqCst);
    let r = ask(&f, "alice", "h2e2").await;
    assert!(r.contains("alice ran out of time"), "{r}");
    assert!(!r.contains("1. alice"), "{r}");
}

#[tokio::test]
async fn an_unanswered_challenge_lapses() {
    for f in fixtures("challenge_lapses") {
        challenge_lapses(f).await;
    }
}

async fn challenge_lapses(f: Fixture) {
    let mut outbox = f.svc.subscribe(xiangqi_bot::platform::Platform::Console);
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
    for f in fixtures("downtime") {
        downtime(f).await;
    }
}

async fn downtime(f: Fixture) {
    let place = {
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
        // The process ends: its storage closes.
        let Fixture { place, svc, .. } = f;
        drop(svc);
        place
    };
    // Back one hour later.
    let clock = Arc::new(AtomicU64::new(1_000_000 + 20_000 + 3_600_000));
    let svc = service_on(place.open(), &clock, quiet_config());
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
        Place::Sled(tempfile::tempdir().expect("tempdir")),
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typed_moves_count_against_the_rate_limit_and_conversation_does_not() {
    // The clock stands still: no token comes back during the test (burst 10).
    let f = fixture_in(
        Place::Sled(tempfile::tempdir().expect("tempdir")),
        0,
        ServiceConfig {
            images: false,
            ..ServiceConfig::default()
        },
    );
    start_game(&f, "").await; // alice's first command
    for _ in 0..30 {
        let r = f
            .svc
            .handle(said("alice", "#t", "nice weather today"))
            .await;
        assert!(r.is_empty(), "conversation is not answered: {}", joined(&r));
    }
    let r = ask(&f, "alice", "h2e2").await;
    assert!(
        r.contains("1. alice"),
        "the talk used none of her commands: {r}"
    );
    // A bare move typed out of turn, over and over: answered until the limit, then refused
    // once, then quiet, as commands are.
    let mut answered = 0;
    let mut limited = 0;
    let mut silent = 0;
    for _ in 0..20 {
        let r = joined(&f.svc.handle(said("alice", "#t", "h2e2")).await);
        if r.contains("not yours") {
            answered += 1;
        } else if r.contains("too fast") {
            limited += 1;
        } else if r.is_empty() {
            silent += 1;
        }
    }
    assert_eq!((answered, limited, silent), (8, 1, 11));
    let r = ask(&f, "bob", "h9g7").await;
    assert!(r.contains("2. bob"), "others are not slowed: {r}");
}

/// The refusals given before the channel is opened (too fast, too long) are in the channel's
/// language, not in the language of the writer's app (issue 31: English in a Vietnamese chat).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_before_the_channel_opens_speak_its_language() {
    let f = fixture_in(
        Place::Sled(tempfile::tempdir().expect("tempdir")),
        0,
        ServiceConfig {
            images: false,
            ..ServiceConfig::default()
        },
    );
    let r = joined(&f.svc.handle(said("alice", "#vi", "/lang vi")).await);
    assert!(!r.contains("too fast"), "{r}");
    let english_app = |text: &str| xiangqi_bot::app::Incoming {
        lang_hint: Some(xiangqi_bot::i18n::Lang::En),
        ..said("spammer", "#vi", text)
    };
    let long = format!("/play {}", "x".repeat(xiangqi_bot::app::MAX_TEXT));
    let r = joined(&f.svc.handle(english_app(&long)).await);
    assert!(
        r.contains("Tin nhắn quá dài"),
        "too long, in Vietnamese: {r}"
    );
    let mut refusals = Vec::new();
    for _ in 0..30 {
        let r = joined(&f.svc.handle(english_app("/help")).await);
        if !r.is_empty() && !r.contains("/play") {
            refusals.push(r);
        }
    }
    assert_eq!(refusals.len(), 1, "{refusals:?}");
    assert!(
        refusals[0].contains("quá nhanh"),
        "too fast, in Vietnamese: {refusals:?}"
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
    for place in places("moved_channel") {
        moved_channel(place).await;
    }
}

async fn moved_channel(place: Place) {
    let clock = Arc::new(AtomicU64::new(1_000_000));
    let service = |storage: Arc<dyn Storage>| service_on(storage, &clock, quiet_config());
    {
        let svc = service(place.open());
        let ask = |channel: &'static str, user: &'static str, text: &'static str| {
            let svc = &svc;
            async move { joined(&svc.handle(said(user, channel, text)).await) }
        };
        ask("#t", "alice", "/lang vi").await;
        ask("#t", "alice", "/play @bob red 1+0").await;
        ask("#t", "bob", "/accept").await;
        ask("#t", "alice", "h2e2").await;
        assert!(svc
            .move_channel(&"console:#t".into(), &"console:#new".into())
            .await
            .expect("move"));
        // Twice is harmless (the old key is blank now), and a key with state of its own is
        // never overwritten.
        assert!(!svc
            .move_channel(&"console:#t".into(), &"console:#new".into())
            .await
            .expect("again"));
        ask("#busy", "erin", "/ruleset asian").await;
        assert!(!svc
            .move_channel(&"console:#new".into(), &"console:#busy".into())
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
            .move_channel(&"console:#t".into(), &"console:#other".into())
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
    let svc = service(place.open());
    let mut outbox = svc.subscribe(xiangqi_bot::platform::Platform::Console);
    let r = joined(&svc.handle(said("alice", "#new", "h0g2")).await);
    assert!(r.contains("3. alice"), "{r}");
    assert!(svc.process_due(1_000_000 + 3_600_000).await.expect("due") >= 2);
    let mut channels = Vec::new();
    while let Ok(out) = outbox.try_recv() {
        channels.push(out.channel);
    }
    assert!(channels.iter().any(|c| c == "console:#new"), "{channels:?}");
    assert!(
        channels.iter().any(|c| c == "console:#other"),
        "{channels:?}"
    );
    assert!(!channels.iter().any(|c| c == "console:#t"), "{channels:?}");
}

#[tokio::test]
async fn about_names_the_version_and_every_rule_document_in_the_channels_language() {
    let f = fixture();
    let en = ask(&f, "alice", "/about").await;
    assert!(
        en.starts_with(&format!("xiangqi-bot {}", env!("CARGO_PKG_VERSION"))),
        "{en}"
    );
    for document in [
        "Official Xiangqi Rules",
        "Luật cờ tướng",
        "Luật Cờ Tướng CXQ",
        "Luật Cờ Tướng Việt Nam",
        "AXF/WXF",
    ] {
        assert!(en.contains(document), "{document} in {en}");
    }
    assert!(en.contains("/rules") && en.contains("/why"), "{en}");
    assert!(ask(&f, "alice", "/help").await.contains("/about"));
    ask(&f, "alice", "/lang vi").await;
    let vi = ask(&f, "bob", "/about").await;
    assert!(vi.contains("Trọng tài xử theo"), "{vi}");
    assert!(vi.contains("Luật Thi Đấu Cờ Tướng"), "{vi}");
}

/// The web board's live streams look at a game at once when this process writes it: its
/// bell rings for a move, not for a look at the board, and not for another game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_games_bell_rings_when_it_is_written() {
    let f = fixture();
    start_game(&f, "").await;
    let game = f.svc.storage().active_games().expect("games")[0];
    let mut bell = f.svc.game_bell(game);
    let other = f.svc.game_bell(game + 1);
    assert_eq!(bell.has_changed().ok(), Some(false));
    let r = ask(&f, "carol", "/fen").await;
    assert!(!r.is_empty());
    assert_eq!(
        bell.has_changed().ok(),
        Some(false),
        "a look writes nothing"
    );
    let r = ask(&f, "alice", "h2e2").await;
    assert!(r.contains("1. alice: "), "{r}");
    assert_eq!(bell.has_changed().ok(), Some(true), "the move rang it");
    bell.mark_unchanged();
    assert_eq!(
        other.has_changed().ok(),
        Some(false),
        "another game's bell is quiet"
    );
    let r = ask(&f, "alice", "b2e2").await;
    assert!(r.contains("bob's turn"), "{r}");
    assert_eq!(
        bell.has_changed().ok(),
        Some(false),
        "a refused move changes nothing"
    );
}
