//! Tournaments in a chat: a Swiss event played to its end across a restart (on sled, and on
//! PostgreSQL when one can be had), an arena that pairs free players and ends on its clock,
//! a round robin with a bye and a withdrawal, and what is refused to whom.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use xiangqi_bot::app::{Action, Incoming, Reply, Service, ServiceConfig};
use xiangqi_bot::game::Storage;
use xiangqi_bot::render::Renderer;
use xiangqi_bot::storage::{PgStorage, SledStorage};

use crate::pg;
use crate::said::{joined, said};

const CHAT: &str = "#club";

pub(crate) fn service(storage: Arc<dyn Storage>, clock: Arc<AtomicU64>) -> Arc<Service> {
    Arc::new(Service::new(
        storage,
        Arc::new(Renderer::new()),
        Arc::new(move || clock.load(Ordering::SeqCst)),
        ServiceConfig {
            images: false,
            rate_burst: 100_000,
            ..ServiceConfig::default()
        },
    ))
}

/// A service on a fresh sled database, its clock at `start`.
fn on_sled(start: u64) -> (tempfile::TempDir, Arc<AtomicU64>, Arc<Service>) {
    let dir = tempfile::tempdir().expect("tempdir");
    let clock = Arc::new(AtomicU64::new(start));
    let svc = service(
        Arc::new(SledStorage::open(&dir.path().join("db")).expect("sled")),
        Arc::clone(&clock),
    );
    (dir, clock, svc)
}

async fn ask(svc: &Service, user: &str, text: &str) -> String {
    joined(&svc.handle(said(user, CHAT, text)).await)
}

/// A player the platform does not name as an administrator says `text`.
async fn member_asks(svc: &Service, user: &str, text: &str) -> String {
    let inc = Incoming {
        may_configure: Some(false),
        ..said(user, CHAT, text)
    };
    joined(&svc.handle(inc).await)
}

/// The games the replies start: (number, red, black), from "Game #N begins: R (Red) vs B
/// (Black)".
fn begun(text: &str) -> Vec<(u64, String, String)> {
    crate::begun::begun(text)
}

/// The games `/tournament pairings` lists: (number, red, black), from "Game #N: R (Red) – B
/// (Black)".
fn listed(text: &str) -> Vec<(u64, String, String)> {
    begun(&text.replace(": ", " begins: ").replace(" – ", " vs "))
}

fn button(replies: &[Reply], pick: impl Fn(&Action) -> bool) -> Action {
    replies
        .iter()
        .flat_map(|r| r.buttons.iter().flatten())
        .find(|b| pick(&b.action))
        .expect("the button")
        .action
}

async fn press(svc: &Service, user: &str, action: Action) -> String {
    let inc = Incoming {
        action: Some(action),
        ..said(user, CHAT, "")
    };
    joined(&svc.handle(inc).await)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_swiss_event_is_played_to_its_end_across_a_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db");
    let clock = Arc::new(AtomicU64::new(1_000_000));
    let svc = service(
        Arc::new(SledStorage::open(&path).expect("sled")),
        Arc::clone(&clock),
    );
    let svc = swiss_until_round_two(svc).await;
    // The bot stops and starts again: the round, its games and the table come back.
    crate::bot::let_go(svc).await;
    let svc = service(Arc::new(SledStorage::open(&path).expect("sled")), clock);
    swiss_from_round_two(&svc).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_swiss_event_on_postgres() {
    let Some(db) = pg::database("tournament_swiss") else {
        return;
    };
    let clock = Arc::new(AtomicU64::new(1_000_000));
    let svc = service(
        Arc::new(PgStorage::connect(&db.url).expect("postgres")),
        Arc::clone(&clock),
    );
    let svc = swiss_until_round_two(svc).await;
    crate::bot::let_go(svc).await;
    let svc = service(
        Arc::new(PgStorage::connect(&db.url).expect("postgres")),
        clock,
    );
    swiss_from_round_two(&svc).await;
}

/// Make a Swiss event of five players and three rounds, play its first round (one game
/// drawn, one won, a bye) and stop once the second is paired.
async fn swiss_until_round_two(svc: Arc<Service>) -> Arc<Service> {
    // Only administrators make one; a clock is required.
    let r = member_asks(&svc, "ann", "/tournament swiss rounds 3 5+3").await;
    assert!(r.contains("Only this group's administrators make"), "{r}");
    let r = ask(&svc, "org", "/tournament swiss rounds 3").await;
    assert!(r.contains("needs a clock"), "{r}");
    let r = ask(&svc, "org", "/tournament swiss rounds 99 5+3").await;
    assert!(r.contains("rounds must be from 1 to 30"), "{r}");
    let made = svc
        .handle(said("org", CHAT, "/tournament swiss rounds 3 5+3 rated"))
        .await;
    let r = joined(&made);
    assert!(
        r.contains("Tournament #") && r.contains("Swiss, 3 rounds") && r.contains("rated"),
        "{r}"
    );
    let r = ask(&svc, "org", "/tournament arena 3+2").await;
    assert!(r.contains("already holds tournament"), "{r}");
    // Players join by command and by the button; a second join is told so.
    for p in ["ann", "ben", "cat", "dan"] {
        let r = member_asks(&svc, p, "/tournament join").await;
        assert!(r.contains(&format!("{p} joins tournament")), "{r}");
    }
    let join = button(&made, |a| matches!(a, Action::TournamentJoin { .. }));
    let r = press(&svc, "eve", join).await;
    assert!(r.contains("eve joins") && r.contains("Players (5)"), "{r}");
    let r = press(&svc, "eve", join).await;
    assert!(r.contains("in this tournament already"), "{r}");
    let leave = button(&made, |a| matches!(a, Action::TournamentLeave { .. }));
    let r = press(&svc, "fay", leave).await;
    assert!(r.contains("not in this tournament"), "{r}");
    // Before the start, entrants play nothing else here.
    let r = ask(&svc, "ann", "/play @zed").await;
    assert!(r.contains("plays in tournament"), "{r}");
    let r = member_asks(&svc, "ann", "/tournament start").await;
    assert!(r.contains("Only this group's administrators make"), "{r}");
    let r = ask(&svc, "org", "/tournament start").await;
    assert!(r.contains("begins: Swiss, 3 rounds, 5 players"), "{r}");
    assert!(r.contains("round 1 of 3"), "{r}");
    assert!(r.contains("a bye (1 point)"), "{r}");
    let games = begun(&r);
    assert_eq!(games.len(), 2, "{r}");
    // A tournament game is not aborted; one is drawn, one resigned.
    let (g1, red1, black1) = games[0].clone();
    let r = ask(&svc, &red1, "/abort").await;
    assert!(r.contains("cannot be aborted"), "{r}");
    let r = ask(&svc, &red1, "/draw").await;
    assert!(r.contains("offers a draw"), "{r}");
    let r = ask(&svc, &black1, "/draw").await;
    assert!(r.contains(&format!("Game #{g1} · Game over: Draw")), "{r}");
    let (_, red2, _) = games[1].clone();
    let r = ask(&svc, &red2, "/resign").await;
    assert!(r.contains("resigned"), "{r}");
    // The round's last game ended: the second round is paired at once.
    assert!(r.contains("round 2 of 3"), "{r}");
    assert_eq!(begun(&r).len(), 2, "{r}");
    let r = ask(&svc, "zed", "/tournament standings").await;
    assert!(r.contains("1. ") && r.contains("Buchholz"), "{r}");
    svc
}

/// Play rounds two and three to the end.
async fn swiss_from_round_two(svc: &Service) {
    let r = ask(svc, "zed", "/tournament pairings").await;
    let games = listed(&r);
    assert_eq!(games.len(), 2, "{r}");
    let r = ask(svc, "zed", "/tournament").await;
    assert!(r.contains("Round 2 of 3"), "{r}");
    let mut last = String::new();
    for (_, red, _) in &games {
        last = ask(svc, red, "/resign").await;
        assert!(last.contains("resigned"), "{last}");
    }
    assert!(last.contains("round 3 of 3"), "{last}");
    let third = begun(&last);
    assert_eq!(third.len(), 2, "{last}");
    for (_, _, black) in &third {
        last = ask(svc, black, "/resign").await;
    }
    assert!(
        last.contains("is over:") && last.contains("wins.") && !last.contains("time is up"),
        "{last}"
    );
    // The final table: five rows, points with halves, every tie-break.
    let table: Vec<&str> = last.lines().filter(|l| l.contains("Buchholz")).collect();
    assert_eq!(table.len(), 5, "{last}");
    // Nobody got two byes; the tournament is over, its players free to play here again.
    let r = ask(svc, "ann", "/play @ben 5+3").await;
    assert!(r.contains("ann challenges ben"), "{r}");
    let r = ask(svc, "zed", "/tournament standings").await;
    assert!(r.contains("Over"), "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_arena_pairs_free_players_and_ends_on_its_clock() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clock = Arc::new(AtomicU64::new(1_000_000));
    let svc = service(
        Arc::new(SledStorage::open(&dir.path().join("db")).expect("sled")),
        Arc::clone(&clock),
    );
    let mut outbox = svc.subscribe(xiangqi_bot::platform::Platform::Console);
    let r = ask(&svc, "org", "/tournament arena minutes 30 45+0").await;
    assert!(r.contains("arena, 30 min"), "{r}");
    for p in ["ann", "ben", "cat"] {
        ask(&svc, p, "/tournament join").await;
    }
    let r = ask(&svc, "org", "/tournament start").await;
    assert!(r.contains("It ends in 30 min"), "{r}");
    let first = begun(&r);
    assert_eq!(first.len(), 1, "{r}");
    let (_, red, black) = first[0].clone();
    let waiting = ["ann", "ben", "cat"]
        .into_iter()
        .find(|p| *p != red && *p != black)
        .expect("the third");
    // A late entry is paired at once with the one who waits.
    let r = ask(&svc, "dan", "/tournament join").await;
    let second = begun(&r);
    assert_eq!(second.len(), 1, "{r}");
    assert!(
        [second[0].1.as_str(), second[0].2.as_str()].contains(&waiting),
        "{r}"
    );
    // Berserk before the first move halves the clock; not after it, not twice.
    let r = ask(&svc, &black, "/tournament berserk").await;
    assert!(r.contains("goes berserk"), "{r}");
    let r = ask(&svc, &black, "/tournament berserk").await;
    assert!(r.contains("before your first move"), "{r}");
    let r = ask(&svc, &black, "/time").await;
    assert!(r.contains("22:30"), "{r}");
    // Black resigns: both are free but just met, and nobody else is: they wait.
    let r = ask(&svc, &black, "/resign").await;
    assert!(begun(&r).is_empty(), "{r}");
    // The arena's top is posted after every game.
    assert!(r.contains(&format!("Tournament #1: {red} 2 · ")), "{r}");
    // The other game ends: the four are paired anew, nobody with their last opponent.
    let (_, r2, b2) = second[0].clone();
    let r = ask(&svc, &r2, "/resign").await;
    let third = begun(&r);
    assert_eq!(third.len(), 2, "{r}");
    for (_, a, b) in &third {
        let pair = [a.as_str(), b.as_str()];
        assert!(
            !(pair.contains(&red.as_str()) && pair.contains(&black.as_str())),
            "{r}"
        );
        assert!(
            !(pair.contains(&r2.as_str()) && pair.contains(&b2.as_str())),
            "{r}"
        );
    }
    let r = ask(&svc, "zed", "/tournament standings").await;
    assert!(r.contains(&format!("1. {red}: 2")), "{r}");
    // Both sides of the games being played make their first moves (else they would lose
    // them by default in the half hour that follows).
    for (_, a, b) in &third {
        ask(&svc, a, "h2e2").await;
        ask(&svc, b, "h9g7").await;
    }
    // Time is up: nobody is paired again; the games being played still count.
    clock.fetch_add(30 * 60 * 1000, Ordering::SeqCst);
    let now = clock.load(Ordering::SeqCst);
    assert!(svc.process_due(now).await.expect("due") >= 1);
    // What the timer said, however slowly the machine delivers it.
    let mut said = String::new();
    while !said.contains("time is up") {
        let out = tokio::time::timeout(std::time::Duration::from_secs(30), outbox.recv())
            .await
            .expect("the timer's message")
            .expect("the outbox");
        said.push_str(&joined(&out.replies));
        said.push('\n');
    }
    assert!(
        said.contains("time is up") && said.contains("the 2 games"),
        "{said}"
    );
    let (_, a, _) = third[0].clone();
    let r = ask(&svc, &a, "/resign").await;
    assert!(begun(&r).is_empty(), "{r}");
    let (_, _, b) = third[1].clone();
    let r = ask(&svc, &b, "/resign").await;
    assert!(r.contains("is over:"), "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_round_robin_sits_one_out_and_scores_a_withdrawal() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clock = Arc::new(AtomicU64::new(1_000_000));
    let svc = service(
        Arc::new(SledStorage::open(&dir.path().join("db")).expect("sled")),
        clock,
    );
    let r = ask(&svc, "org", "/tournament robin 5+3").await;
    assert!(r.contains("round robin"), "{r}");
    for p in ["ann", "ben", "cat"] {
        ask(&svc, p, "/tournament join").await;
    }
    let r = ask(&svc, "org", "/tournament start").await;
    assert!(
        r.contains("round 1 of 3") && r.contains("sits this round out"),
        "{r}"
    );
    let r = ask(&svc, "dan", "/tournament join").await;
    assert!(r.contains("no more entries"), "{r}");
    let r = ask(&svc, "ann", "/tournament pause").await;
    assert!(r.contains("cannot pause"), "{r}");
    let games = listed(&ask(&svc, "org", "/tournament pairings").await);
    assert_eq!(games.len(), 1);
    let (_, red, black) = games[0].clone();
    // One withdraws during their game: it goes on and counts, their later games are lost.
    let r = ask(&svc, &red, "/tournament withdraw").await;
    assert!(r.contains("withdraws"), "{r}");
    let r = ask(&svc, &black, "/resign").await;
    assert!(r.contains("round 2 of 3"), "{r}");
    let mut r = r;
    while !r.contains("is over:") {
        let next = begun(&r);
        assert!(!next.is_empty(), "{r}");
        r = ask(&svc, &next[0].2, "/resign").await;
    }
    assert!(r.contains("(out)"), "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_private_chat_holds_no_tournament_and_an_unknown_word_is_explained() {
    let dir = tempfile::tempdir().expect("tempdir");
    let svc = service(
        Arc::new(SledStorage::open(&dir.path().join("db")).expect("sled")),
        Arc::new(AtomicU64::new(1_000_000)),
    );
    let private = Incoming {
        channel: "tg:12345".into(),
        ..said("ann", CHAT, "/tournament swiss 5+3")
    };
    let r = joined(&svc.handle(private).await);
    assert!(r.contains("not in private chats"), "{r}");
    let r = ask(&svc, "ann", "/tournament dance").await;
    assert!(r.contains("do not understand “dance”"), "{r}");
    let r = ask(&svc, "ann", "/tournament").await;
    assert!(r.contains("No tournament is being held here"), "{r}");
    let r = ask(&svc, "ann", "/tournament join").await;
    assert!(r.contains("no tournament in this chat"), "{r}");
    let r = ask(&svc, "org", "/giaidau swiss 5+3 vong 2").await;
    assert!(r.contains("Swiss, 2 rounds"), "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_scheduled_start_moves_with_downtime_and_starts_by_itself() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db");
    let start = 5_000_000_000;
    let clock = Arc::new(AtomicU64::new(start));
    {
        let svc = service(
            Arc::new(SledStorage::open(&path).expect("sled")),
            Arc::clone(&clock),
        );
        svc.recover().await.expect("recover");
        let r = ask(&svc, "org", "/tournament arena minutes 20 45+0 in 10").await;
        assert!(r.contains("It starts in 10 min"), "{r}");
        for p in ["ann", "ben"] {
            ask(&svc, p, "/tournament join").await;
        }
        svc.storage()
            .set_meta("alive_ms", start)
            .expect("heartbeat");
        svc.storage().flush().await.expect("flush");
        crate::bot::let_go(svc).await;
    }
    // Down for 5 minutes: the start moves 5 minutes later, as the clocks do.
    clock.store(start + 5 * 60_000, Ordering::SeqCst);
    let svc = service(
        Arc::new(SledStorage::open(&path).expect("sled")),
        Arc::clone(&clock),
    );
    assert_eq!(svc.recover().await.expect("recover"), 5 * 60_000);
    let mut outbox = svc.subscribe(xiangqi_bot::platform::Platform::Console);
    clock.store(start + 11 * 60_000, Ordering::SeqCst);
    assert_eq!(svc.process_due(start + 11 * 60_000).await.expect("due"), 0);
    let r = ask(&svc, "zed", "/tournament").await;
    assert!(r.contains("It starts in 4 min"), "{r}");
    clock.store(start + 15 * 60_000, Ordering::SeqCst);
    assert_eq!(svc.process_due(start + 15 * 60_000).await.expect("due"), 1);
    let out = outbox.recv().await.expect("the start");
    let said = joined(&out.replies);
    assert!(said.contains("begins: arena, 20 min, 2 players"), "{said}");
    assert_eq!(begun(&said).len(), 1, "{said}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_tournament_moves_with_its_group() {
    let start = 5_000_000_000;
    let (_dir, clock, svc) = on_sled(start);
    let r = ask(&svc, "org", "/tournament swiss rounds 2 5+3 in 10").await;
    assert!(r.contains("It starts in 10 min"), "{r}");
    for p in ["ann", "ben"] {
        ask(&svc, p, "/tournament join").await;
    }
    // A Telegram group that becomes a supergroup: its tournament and start time go along.
    let to = "console:#club-super";
    assert!(svc
        .move_channel(&format!("console:{CHAT}").into(), &to.into())
        .await
        .expect("move"));
    let mut outbox = svc.subscribe(xiangqi_bot::platform::Platform::Console);
    clock.store(start + 10 * 60_000, Ordering::SeqCst);
    assert_eq!(svc.process_due(start + 10 * 60_000).await.expect("due"), 1);
    let out = outbox.recv().await.expect("the start");
    assert_eq!(out.channel, to);
    let said = joined(&out.replies);
    assert!(said.contains("round 1 of 2"), "{said}");
    let r = ask(&svc, "zed", "/tournament").await;
    assert!(r.contains("No tournament is being held here"), "{r}");
}

/// Any `/tournament` line, by an administrator or a member, in a fresh chat or one with a
/// tournament, gets an answer (never a panic, never silence, never a storage failure).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn any_tournament_line_is_answered() {
    let dir = tempfile::tempdir().expect("tempdir");
    let svc = service(
        Arc::new(SledStorage::open(&dir.path().join("db")).expect("sled")),
        Arc::new(AtomicU64::new(1_000_000)),
    );
    let words = [
        "swiss",
        "arena",
        "robin",
        "join",
        "leave",
        "start",
        "pause",
        "withdraw",
        "berserk",
        "cancel",
        "standings",
        "pairings",
        "rounds",
        "minutes",
        "max",
        "min",
        "in",
        "double",
        "rated",
        "casual",
        "5+3",
        "10+5",
        "none",
        "1d",
        "asian",
        "casual",
        "0",
        "1",
        "7",
        "99",
        "-3",
        "18446744073709551616",
        "vòng",
        "轮",
        "报名",
        "giảiđấu",
        "😀",
        "",
        "@bob",
        "red",
        "x".repeat(60).leak(),
    ];
    let mut s: u64 = 0x2545_f491_4f6c_dd1d;
    let mut made = 0;
    for case in 0..400 {
        // Every tenth line starts as a valid one, the rest of its words at random.
        let mut line = String::from(if case % 10 == 0 {
            "/tournament arena 5+3"
        } else {
            "/tournament"
        });
        for _ in 0..(case % 7) {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            line.push(' ');
            line.push_str(words[(s % words.len() as u64) as usize]);
        }
        let chat = format!("#fuzz{}", case % 5);
        let who = ["org", "ann", "ben"][case % 3];
        let inc = xiangqi_bot::app::Incoming {
            may_configure: Some(case % 4 != 0),
            ..said(who, &chat, &line)
        };
        let r = joined(&svc.handle(inc).await);
        assert!(!r.trim().is_empty(), "{line}: no answer");
        assert!(!r.contains("could not save"), "{line}: {r}");
        made += usize::from(r.contains("🏆 Tournament #"));
    }
    // The lines that make sense did something.
    assert!(made > 0, "no tournament was made or started");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn rounds_every_so_many_minutes_start_on_their_time() {
    let start = 5_000_000_000;
    let (_dir, clock, svc) = on_sled(start);
    let mut outbox = svc.subscribe(xiangqi_bot::platform::Platform::Console);
    let r = ask(&svc, "org", "/tournament arena 5+3 every 30").await;
    assert!(r.contains("do not understand “every”"), "{r}");
    ask(&svc, "org", "/tournament swiss rounds 2 5+3 every 30").await;
    for p in ["ann", "ben"] {
        ask(&svc, p, "/tournament join").await;
    }
    let r = ask(&svc, "org", "/tournament start").await;
    let first = begun(&r);
    assert_eq!(first.len(), 1, "{r}");
    // The first round is over in five minutes; the second waits for minute 30.
    clock.store(start + 5 * 60_000, Ordering::SeqCst);
    let r = ask(&svc, &first[0].1, "/resign").await;
    assert!(r.contains("round 2 starts in 25 min"), "{r}");
    assert!(begun(&r).is_empty(), "{r}");
    let now = start + 30 * 60_000;
    clock.store(now, Ordering::SeqCst);
    assert_eq!(svc.process_due(now).await.expect("due"), 1);
    let out = outbox.recv().await.expect("round 2");
    let said = joined(&out.replies);
    assert!(said.contains("round 2 of 2"), "{said}");
    assert_eq!(begun(&said).len(), 1, "{said}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_large_round_posts_its_pairings_not_every_board() {
    let (_dir, _clock, svc) = on_sled(1_000_000);
    ask(&svc, "org", "/tournament swiss rounds 1 5+3").await;
    let players: Vec<String> = (0..10).map(|i| format!("p{i}")).collect();
    for p in &players {
        ask(&svc, p, "/tournament join").await;
    }
    let r = ask(&svc, "org", "/tournament start").await;
    // Five games: the list names them all, one line says how to play, no five boards.
    assert_eq!(r.matches(" (Red) – ").count(), 5, "{r}");
    assert!(r.contains("5 games begin"), "{r}");
    assert!(begun(&r).is_empty(), "{r}");
    // A player simply plays; the board comes with the move.
    let games = listed(&ask(&svc, "zed", "/tournament pairings").await);
    let (id, red, _) = games[0].clone();
    let r = ask(&svc, &red, "h2e2").await;
    assert!(r.contains(&format!("Game #{id} · 1. {red}: h2e2")), "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_chinese_chat_reads_its_tournament_with_chinese_punctuation() {
    let (_dir, _clock, svc) = on_sled(1_000_000);
    let say = |who: &str, text: &str| {
        let inc = Incoming {
            lang_hint: Some(xiangqi_bot::i18n::Lang::Zh),
            ..said(who, CHAT, text)
        };
        let svc = Arc::clone(&svc);
        async move { joined(&svc.handle(inc).await) }
    };
    let r = say("org", "/tournament swiss rounds 2 5+3 rated").await;
    assert!(r.contains("积分编排制，2轮；") && !r.contains(", "), "{r}");
    say("ann", "/tournament join").await;
    let r = say("ben", "/tournament join").await;
    assert!(r.contains("棋手（2人）：ann、ben。"), "{r}");
    say("org", "/tournament start").await;
    let r = say("zed", "/tournament standings").await;
    assert!(r.contains("（积分编排制，2轮，第1轮（共2轮））"), "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn calling_a_tournament_off_ends_its_games_unrated() {
    let (_dir, _clock, svc) = on_sled(1_000_000);
    ask(&svc, "org", "/tournament swiss rounds 3 5+3 rated").await;
    for p in ["ann", "ben"] {
        ask(&svc, p, "/tournament join").await;
    }
    let r = ask(&svc, "org", "/tournament start").await;
    let (id, red, black) = begun(&r)[0].clone();
    ask(&svc, &red, "h2e2").await;
    let r = ask(&svc, "org", "/tournament cancel").await;
    assert!(
        r.contains("its game being played ends without a result and is not rated"),
        "{r}"
    );
    let game = svc.storage().game(id).expect("read").expect("the game");
    assert_eq!(game.status, xiangqi_bot::game::GameStatus::Aborted);
    // Its players are free again.
    let r = ask(&svc, &red, &format!("/play @{black} 5+3")).await;
    assert!(r.contains("challenges"), "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_player_who_does_not_make_a_first_move_loses_by_default() {
    let start = 5_000_000_000;
    let (_dir, clock, svc) = on_sled(start);
    let mut outbox = svc.subscribe(xiangqi_bot::platform::Platform::Console);
    ask(&svc, "org", "/tournament swiss rounds 1 15+10").await;
    for p in ["ann", "ben"] {
        ask(&svc, p, "/tournament join").await;
    }
    let r = ask(&svc, "org", "/tournament start").await;
    let (_, red, black) = begun(&r)[0].clone();
    // Red moves within two minutes; Black, who then has two minutes of their own, does not.
    clock.store(start + 90_000, Ordering::SeqCst);
    ask(&svc, &red, "h2e2").await;
    let now = start + 90_000 + 2 * 60_000 + 1;
    clock.store(now, Ordering::SeqCst);
    assert_eq!(svc.process_due(now).await.expect("due"), 1);
    let out = outbox.recv().await.expect("the default");
    let said = joined(&out.replies);
    assert!(said.contains(&format!("{black} stopped playing")), "{said}");
    assert!(said.contains(&format!("is over: {red} wins")), "{said}");
}

/// Resign as Black in every game the replies start, round after round, until the tournament
/// ends; returns everything said, in order.
async fn play_to_the_end(svc: &Service, mut said: String) -> String {
    let mut all = said.clone();
    for _ in 0..100 {
        if said.contains("is over:") {
            return all;
        }
        let games = begun(&said);
        assert!(!games.is_empty(), "nothing to play: {said}");
        for (_, _, black) in games {
            said = ask(svc, &black, "/resign").await;
            all.push('\n');
            all.push_str(&said);
        }
    }
    panic!("the tournament never ended: {all}");
}

/// The pairings of every round announced: (red, black) by round.
fn rounds_of(said: &str) -> Vec<Vec<(String, String)>> {
    let mut rounds: Vec<Vec<(String, String)>> = Vec::new();
    for line in said.lines() {
        if line.contains(", round ") && line.ends_with(':') {
            rounds.push(Vec::new());
        } else if let (Some(r), Some((_, red, black))) = (rounds.last_mut(), listed(line).pop()) {
            r.push((red, black));
        }
    }
    rounds
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_seven_player_swiss_and_a_four_player_double_round_robin() {
    let (_dir, _clock, svc) = on_sled(1_000_000);
    ask(&svc, "org", "/tournament swiss rounds 3 5+3").await;
    let seven = ["p1", "p2", "p3", "p4", "p5", "p6", "p7"];
    for p in seven {
        ask(&svc, p, "/tournament join").await;
    }
    let all = play_to_the_end(&svc, ask(&svc, "org", "/tournament start").await).await;
    let rounds = rounds_of(&all);
    assert_eq!(rounds.len(), 3, "{all}");
    let mut met = std::collections::HashSet::new();
    for r in &rounds {
        assert_eq!(r.len(), 3, "{all}");
        for (a, b) in r {
            assert!(
                met.insert((a.min(b).clone(), a.max(b).clone())),
                "a rematch: {all}"
            );
        }
    }
    assert_eq!(all.matches("a bye (1 point)").count(), 3, "{all}");
    let byes: std::collections::HashSet<&str> = all
        .lines()
        .filter_map(|l| l.strip_suffix(": a bye (1 point)"))
        .collect();
    assert_eq!(byes.len(), 3, "one bye each: {all}");
    assert_eq!(
        all.lines().filter(|l| l.contains("Buchholz")).count(),
        7,
        "{all}"
    );

    // A double round robin of four: six rounds, every pair twice, colours swapped.
    ask(&svc, "org", "/tournament robin double 5+3").await;
    for p in ["q1", "q2", "q3", "q4"] {
        ask(&svc, p, "/tournament join").await;
    }
    let all = play_to_the_end(&svc, ask(&svc, "org", "/tournament start").await).await;
    let rounds = rounds_of(&all);
    assert_eq!(rounds.len(), 6, "{all}");
    let mut games: Vec<(String, String)> = rounds.into_iter().flatten().collect();
    assert_eq!(games.len(), 12, "{all}");
    games.sort();
    for (red, black) in &games {
        assert!(
            games.contains(&(black.clone(), red.clone())),
            "{red}–{black} not played the other way round: {all}"
        );
    }
}

/// The picture `replies` carry, drawn, as (width, height, RGB pixels).
async fn picture(svc: &Service, replies: &mut [Reply]) -> Option<(u32, u32, Vec<u8>)> {
    svc.draw(replies).await;
    let img = replies
        .iter()
        .filter_map(|r| r.image.as_ref())
        .find(|i| i.filename.starts_with("standings-"))?;
    let mut dec = png::Decoder::new(std::io::Cursor::new(img.bytes.as_slice()));
    dec.set_transformations(png::Transformations::EXPAND);
    let mut reader = dec.read_info().expect("png header");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("png frame");
    buf.truncate(info.buffer_size());
    Some((info.width, info.height, buf))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_standings_are_a_picture_and_a_page_of_text_at_a_time() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clock = Arc::new(AtomicU64::new(1_000_000));
    let svc = Arc::new(Service::new(
        Arc::new(SledStorage::open(&dir.path().join("db")).expect("sled")),
        Arc::new(Renderer::new()),
        Arc::new({
            let clock = Arc::clone(&clock);
            move || clock.load(Ordering::SeqCst)
        }),
        ServiceConfig {
            images: true,
            rate_burst: 100_000,
            ..ServiceConfig::default()
        },
    ));
    ask(&svc, "org", "/tournament swiss rounds 2 5+3").await;
    for i in 1..=25 {
        ask(&svc, &format!("p{i:02}"), "/tournament join").await;
    }
    let mut first = svc.handle(said("p01", CHAT, "/tournament standings")).await;
    let text = joined(&first);
    assert_eq!(
        text.lines().filter(|l| l.contains("Buchholz")).count(),
        20,
        "{text}"
    );
    assert!(
        text.contains("Page 1 of 2; /tournament standings 2 shows the next."),
        "{text}"
    );
    let (w, h, px) = picture(&svc, &mut first)
        .await
        .expect("a picture of the table");
    // 1.5 times 720 wide; a title, its line, the header and 25 rows of 28 pixels, and a margin.
    assert_eq!(
        (w, h),
        (
            1080,
            ((44 + 26 + 30 + 25 * 28 + 18) as f32 * 1.5).round() as u32
        )
    );
    let header_band = px.chunks(3).filter(|p| *p == [0x7A, 0x2E, 0x1E]).count();
    assert!(header_band > 1080 * 30, "the header band is drawn");

    let mut second = svc
        .handle(said("p01", CHAT, "/tournament standings 2"))
        .await;
    let text = joined(&second);
    assert_eq!(
        text.lines().filter(|l| l.contains("Buchholz")).count(),
        5,
        "{text}"
    );
    assert!(text.contains("21. "), "{text}");
    assert!(!text.contains("Page "), "{text}");
    assert!(
        picture(&svc, &mut second).await.is_none(),
        "the picture is on the first page"
    );
    // A page past the last is the last.
    let text = ask(&svc, "p01", "/tournament standings 99").await;
    assert!(text.contains("25. "), "{text}");

    // Played to its end: the final table comes with its picture, medals on the podium.
    let mut heard = ask(&svc, "org", "/tournament start").await;
    let mut last = Vec::new();
    for _ in 0..3 {
        if heard.contains("is over:") {
            break;
        }
        let mut games = begun(&heard);
        games.extend(listed(&heard));
        games.sort();
        games.dedup();
        assert!(!games.is_empty(), "{heard}");
        let mut next = String::new();
        for (_, _, black) in games {
            last = svc.handle(said(&black, CHAT, "/resign")).await;
            next.push_str(&joined(&last));
            next.push('\n');
        }
        heard = next;
    }
    assert!(heard.contains("is over:"), "{heard}");
    assert!(
        heard.contains("Page 1 of 2"),
        "the final table's first page: {heard}"
    );
    let (_, _, px) = picture(&svc, &mut last)
        .await
        .expect("the final table's picture");
    let gold = px.chunks(3).filter(|p| *p == [0xE8, 0xB9, 0x2E]).count();
    assert!(gold > 200, "a gold medal on the winner's row");
}

/// Two processes on one PostgreSQL database: the last games of each round end at once through
/// both, and each round is paired exactly once; a scheduled round whose time both processes'
/// timers see at once starts once.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_processes_pair_each_round_exactly_once() {
    let Some(db) = pg::database("tournament_fleet") else {
        return;
    };
    let clock = Arc::new(AtomicU64::new(1_000_000));
    let process = || {
        service(
            Arc::new(PgStorage::connect(&db.url).expect("postgres")),
            Arc::clone(&clock),
        )
    };
    let (a, b) = (process(), process());
    ask(&a, "org", "/tournament swiss rounds 3 5+3").await;
    for (i, p) in ["p1", "p2", "p3", "p4", "p5", "p6"].iter().enumerate() {
        let via = if i % 2 == 0 { &a } else { &b };
        ask(via, p, "/tournament join").await;
    }
    let mut heard = ask(&b, "org", "/tournament start").await;
    let mut all = heard.clone();
    for round in 1..=3 {
        let games = begun(&heard);
        assert_eq!(games.len(), 3, "round {round}: {heard}");
        // The round's three games end at the same moment, through one process or the other.
        let ends: Vec<_> = games
            .into_iter()
            .enumerate()
            .map(|(k, (_, _, black))| {
                let p = Arc::clone(if k % 2 == 0 { &a } else { &b });
                tokio::spawn(async move { joined(&p.handle(said(&black, CHAT, "/resign")).await) })
            })
            .collect();
        heard = String::new();
        for e in ends {
            heard.push_str(&e.await.expect("a game's end"));
            heard.push('\n');
        }
        all.push_str(&heard);
    }
    assert!(heard.contains("is over:"), "{heard}");
    for r in 1..=3 {
        assert_eq!(
            all.matches(&format!("round {r} of 3:")).count(),
            1,
            "round {r} announced once: {all}"
        );
    }
    let numbers: Vec<u64> = begun(&all).into_iter().map(|(n, _, _)| n).collect();
    let unique: std::collections::HashSet<u64> = numbers.iter().copied().collect();
    assert_eq!((numbers.len(), unique.len()), (9, 9), "{all}");
    let record = a
        .storage()
        .channel(&format!("console:{CHAT}").into())
        .expect("read")
        .expect("the channel");
    let t = record.tournament.expect("the tournament");
    for r in 1..=3 {
        assert_eq!(
            t.pairings.iter().filter(|p| p.round == r).count(),
            3,
            "round {r}"
        );
    }

    // A round at a set time: both timers see it due at once; it starts once.
    let start = clock.load(Ordering::SeqCst);
    ask(&a, "org", "/tournament swiss rounds 2 5+3 every 30").await;
    for p in ["q1", "q2"] {
        ask(&b, p, "/tournament join").await;
    }
    let r = ask(&a, "org", "/tournament start").await;
    let first = begun(&r);
    let r = ask(&b, &first[0].1, "/resign").await;
    assert!(r.contains("round 2 starts in"), "{r}");
    let now = start + 31 * 60_000;
    clock.store(now, Ordering::SeqCst);
    let (x, y) = tokio::join!(a.process_due(now), b.process_due(now));
    let settled = x.expect("due") + y.expect("due");
    assert_eq!(settled, 1, "one process starts the round");
    let record = b
        .storage()
        .channel(&format!("console:{CHAT}").into())
        .expect("read")
        .expect("the channel");
    let t = record.tournament.expect("the tournament");
    assert_eq!(t.round, 2);
    assert_eq!(t.pairings.iter().filter(|p| p.round == 2).count(), 1);
}

/// The games begun in `lines` (console output), from the first line with `from` on.
fn begun_in(lines: &[String], from: usize) -> Vec<(u64, String, String)> {
    begun(&lines[from.min(lines.len())..].join("\n"))
}

/// The real binary (console, sled) killed with SIGKILL during a round, after one of its games
/// ended, and again just after the next round was paired: each time the restarted bot has the
/// tournament, its games and their clocks, and the event is played to its end.
#[test]
fn a_tournament_survives_kill_nine_during_and_between_rounds() {
    use crate::console::Console;
    let dir = tempfile::tempdir().expect("dir");
    let env = [("BOARD_IMAGES", "off")];
    let mut c = Console::start(dir.path(), &env);
    c.ask("@org /tournament swiss rounds 2 5+3", "Tournament #1");
    for p in ["ann", "ben", "cat", "dan"] {
        c.ask(&format!("@{p} /tournament join"), &format!("{p} joins"));
    }
    let from = c.seen.len();
    c.send("@org /tournament start");
    c.expect("round 1 of 2");
    c.expect(" begins: ");
    c.expect(" begins: ");
    let round1 = begun_in(&c.seen, from);
    assert_eq!(round1.len(), 2, "{:?}", c.seen);
    c.ask(&format!("@{} /resign", round1[0].2), "resigned");

    // Killed during the round, one game over and one being played.
    c.kill();
    let mut c = Console::start(dir.path(), &env);
    // (What the killed process had decided and not yet said may come first.)
    c.ask("@zed /tournament pairings", "games being played");
    let line = c.expect(&format!("Game #{}: ", round1[1].0));
    assert!(
        line.contains(&round1[1].1),
        "the game being played is still there: {line}"
    );
    c.ask(&format!("@{} h2e2", round1[1].1), "1. ");
    let from = c.seen.len();
    c.send(&format!("@{} /resign", round1[1].2));
    c.expect("round 2 of 2");
    c.expect(" begins: ");
    c.expect(" begins: ");
    let round2 = begun_in(&c.seen, from);
    assert_eq!(round2.len(), 2, "{:?}", c.seen);

    // Killed between rounds: the next round was paired in the same write as the last end.
    c.kill();
    let mut c = Console::start(dir.path(), &env);
    let from = c.seen.len();
    c.send("@zed /tournament pairings");
    c.expect("games being played");
    c.expect(&format!("Game #{}: ", round2[1].0));
    // Those after the answer's first line (the round's announcement, if the killed process
    // had not yet said it, may come again before).
    let head = from
        + c.seen[from..]
            .iter()
            .rposition(|l| l.contains("games being played"))
            .expect("the answer");
    let listed_now = listed(&c.seen[head..].join("\n"));
    assert_eq!(
        listed_now.iter().map(|g| g.0).collect::<Vec<_>>(),
        round2.iter().map(|g| g.0).collect::<Vec<_>>(),
        "round 2 is the one paired before the kill, paired once"
    );
    c.ask(&format!("@{} /resign", round2[0].2), "resigned");
    c.ask(&format!("@{} /resign", round2[1].2), "is over:");
    c.ask("@zed /tournament standings", "Over");
    let rows = c
        .seen
        .iter()
        .rev()
        .take(6)
        .filter(|l| l.contains("Buchholz"))
        .count();
    assert!(rows >= 1, "{:?}", c.seen);
    let out = c.finish();
    assert!(
        !out.iter().any(|l| l.contains("round 3")),
        "no round beyond the second"
    );
}
