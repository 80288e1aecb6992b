//! What players noticed, checked on the service itself (sled in a temporary directory, a
//! clock the test drives): one-time questions answered by their asker, long chat, one
//! headline at the end, moves echoed as typed, a game's language, display names, questions
//! and pickers retired once they no longer apply, game numbers, and untimed games that can
//! be claimed when a player stops moving.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use xiangqi_bot::app::{Action, Incoming, Reply, Service, ServiceConfig};
use xiangqi_bot::core::{Move, Position};
use xiangqi_bot::game::PlayerRef;
use xiangqi_bot::i18n::Lang;
use xiangqi_bot::notation::{format_move, Notation};
use xiangqi_bot::render::Renderer;
use xiangqi_bot::storage::SledStorage;

use crate::said;
use said::joined;

const START_MS: u64 = 1_000_000;
const PERPETUAL: &str = "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w";

struct Fixture {
    dir: tempfile::TempDir,
    clock: Arc<AtomicU64>,
    svc: Arc<Service>,
}

fn config() -> ServiceConfig {
    ServiceConfig {
        images: false,
        rate_burst: 100_000,
        idle_claim_ms: 60_000,
        ..ServiceConfig::default()
    }
}

fn service(dir: &std::path::Path, clock: &Arc<AtomicU64>) -> Arc<Service> {
    let c = Arc::clone(clock);
    Arc::new(Service::new(
        Arc::new(SledStorage::open(dir).expect("sled")),
        Arc::new(Renderer::new()),
        Arc::new(move || c.load(Ordering::SeqCst)),
        config(),
    ))
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().expect("tempdir");
    let clock = Arc::new(AtomicU64::new(START_MS));
    let svc = service(dir.path(), &clock);
    Fixture { dir, clock, svc }
}

/// `user` (display name `name`, client language `lang`) says `text` in channel `channel`.
fn by(user: &str, lang: Option<Lang>, channel: &str, text: &str) -> Incoming {
    let platform = channel.split(':').next().unwrap_or("console");
    Incoming {
        channel: channel.into(),
        user: PlayerRef::new(format!("{platform}:{user}"), user),
        handle: Some(user.to_lowercase()),
        text: text.to_string(),
        lang_hint: lang,
        // As for an administrator (the platform's check is the adapter's).
        may_configure: Some(true),
        ..Incoming::default()
    }
}

impl Fixture {
    async fn say(&self, user: &str, text: &str) -> Vec<Reply> {
        self.svc.handle(by(user, None, "console:#t", text)).await
    }

    async fn ask(&self, user: &str, text: &str) -> String {
        joined(&self.say(user, text).await)
    }

    /// `user` presses the first button whose action `pick` chooses among `replies`.
    async fn press(&self, user: &str, replies: &[Reply], pick: fn(&Action) -> bool) -> Vec<Reply> {
        let action = replies
            .iter()
            .flat_map(|r| r.buttons.iter().flatten())
            .map(|b| b.action)
            .find(pick)
            .unwrap_or_else(|| panic!("no such button in {replies:?}"));
        let mut inc = by(user, None, "console:#t", "");
        inc.action = Some(action);
        self.svc.handle(inc).await
    }

    fn advance(&self, ms: u64) -> u64 {
        self.clock.fetch_add(ms, Ordering::SeqCst) + ms
    }
}

/// The service stopped and started again on the same database (and clock).
async fn restart(f: Fixture) -> Fixture {
    let Fixture { dir, clock, svc } = f;
    drop(svc);
    // The old handle lets go of the database as its writer thread ends.
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    Fixture {
        svc: service(dir.path(), &clock),
        dir,
        clock,
    }
}

/// alice (Red) challenges bob with `args`; bob accepts. Returns the first board's replies.
async fn start_game(f: &Fixture, args: &str) -> Vec<Reply> {
    let r = f.ask("alice", &format!("/play @bob red {args}")).await;
    assert!(r.contains("challenges bob"), "{r}");
    let board = f.say("bob", "/accept").await;
    assert!(joined(&board).contains("begins"), "{board:?}");
    board
}

#[tokio::test]
async fn a_question_answered_by_its_asker_is_refused_privately_and_changes_nothing() {
    let f = fixture();
    f.ask("alice", "/takebacks on").await;
    // The challenger's own Decline: a private note; the challenge stands.
    let challenge = f.say("alice", "/play @bob red").await;
    let r = f
        .press("alice", &challenge, |a| matches!(a, Action::Decline { .. }))
        .await;
    assert!(r.iter().all(|r| r.private), "{r:?}");
    assert!(joined(&r).contains("your own challenge"), "{r:?}");
    let board = f
        .press("bob", &challenge, |a| matches!(a, Action::Accept { .. }))
        .await;
    assert!(joined(&board).contains("begins"), "{board:?}");
    f.ask("alice", "h2e2").await;

    // bob offers a draw; his own Accept and Decline are refused privately.
    let offer = f.say("bob", "/draw").await;
    assert!(joined(&offer).contains("bob offers a draw"), "{offer:?}");
    for pick in [
        (|a: &Action| matches!(a, Action::Draw { .. })) as fn(&Action) -> bool,
        |a| matches!(a, Action::DeclineOffer { .. }),
    ] {
        let r = f.press("bob", &offer, pick).await;
        assert!(!r.is_empty() && r.iter().all(|r| r.private), "{r:?}");
        assert!(
            !joined(&r).contains("no draw offer"),
            "the offer stands: {r:?}"
        );
    }
    assert!(f
        .ask("bob", "/decline")
        .await
        .contains("your own draw offer"));
    // It still stands: alice declines it.
    let r = f
        .press("alice", &offer, |a| {
            matches!(a, Action::DeclineOffer { .. })
        })
        .await;
    assert!(
        joined(&r).contains("alice declined the draw offer"),
        "{r:?}"
    );

    // alice asks to take back h2e2; her own Allow is refused, bob's works.
    let request = f.say("alice", "/takeback").await;
    let r = f
        .press("alice", &request, |a| {
            matches!(a, Action::AcceptTakeback { .. })
        })
        .await;
    assert!(r.iter().all(|r| r.private), "{r:?}");
    assert!(joined(&r).contains("your own takeback request"), "{r:?}");
    let r = f
        .press("bob", &request, |a| {
            matches!(a, Action::AcceptTakeback { .. })
        })
        .await;
    assert!(joined(&r).contains("Taken back (1"), "{r:?}");
}

#[tokio::test]
async fn long_chat_is_never_answered_and_only_a_long_command_is_told() {
    let f = fixture();
    start_game(&f, "").await;
    let long = "x ".repeat(400);
    assert!(f.say("carol", &long).await.is_empty(), "an onlooker");
    assert!(f.say("alice", &long).await.is_empty(), "a player chatting");
    let r = f.say("carol", &format!("/play {long}")).await;
    assert_eq!(r.len(), 1);
    assert!(r[0].private && r[0].text.contains("too long"), "{r:?}");
}

#[tokio::test]
async fn the_end_of_a_game_has_one_headline_and_names_its_rules_in_the_games_language() {
    let f = fixture();
    start_game(&f, &format!("asian {PERPETUAL}")).await;
    let moves = ["h8h9", "f9f8", "h9h8", "f8f9", "h8h9", "f9f8", "h9h8"];
    for (i, m) in moves.iter().enumerate() {
        f.ask(if i % 2 == 0 { "alice" } else { "bob" }, m).await;
    }
    let end = f.ask("bob", "f8f9").await;
    assert_eq!(end.matches("Black wins").count(), 1, "{end}");
    assert!(
        end.contains("Game over: Black wins — perpetual check (0-1)."),
        "{end}"
    );
    assert!(end.contains("Asian (AXF/WXF) rules"), "{end}");
    assert!(!end.contains('`') && !end.contains("seed"), "{end}");

    // Rulesets by name in each language, wherever players see them.
    for (lang, name) in [
        ("vi", "luật châu Á (AXF/WXF)"),
        ("zh", "亚洲象棋规则（AXF/WXF）"),
        ("en", "Asian (AXF/WXF) rules"),
    ] {
        let channel = format!("console:#{lang}");
        let ask = |user: &str, text: &str| f.svc.handle(by(user, None, &channel, text));
        ask("carol", &format!("/lang {lang}")).await;
        let set = joined(&ask("carol", "/ruleset asian").await);
        let is = joined(&ask("carol", "/ruleset").await);
        let challenge = joined(&ask("carol", "/play @dave").await);
        let start = joined(&ask("dave", "/accept").await);
        for text in [&set, &is, &challenge, &start] {
            assert!(text.contains(name), "{lang}: {text}");
            assert!(!text.contains('`'), "{lang}: {text}");
        }
        assert!(!challenge.contains(" asian"), "{lang}: {challenge}");
    }
}

#[tokio::test]
async fn the_last_move_is_echoed_in_the_notation_it_was_typed_in() {
    let f = fixture();
    start_game(&f, &format!("asian {PERPETUAL}")).await;
    let moves = ["h8h9", "f9f8", "h9h8", "f8f9", "h8h9", "f9f8", "h9h8"];
    let mut pos = Position::from_fen(PERPETUAL).expect("fen");
    for (i, m) in moves.iter().enumerate() {
        f.ask(if i % 2 == 0 { "alice" } else { "bob" }, m).await;
        pos.play(Move::parse_iccs(m).expect("iccs")).expect("legal");
    }
    let last = Move::parse_iccs("f8f9").expect("iccs");
    let vi = format_move(&pos, last, Notation::Vietnamese);
    let wxf = format_move(&pos, last, Notation::Wxf);
    assert_ne!(vi, wxf);
    let end = f.ask("bob", &vi).await;
    assert!(end.contains(&format!("8. bob: {vi} (f8f9)")), "{end}");
    // The ruling's evidence shows that ply as typed too, never in WXF.
    assert!(end.matches(&format!("{vi} (f8f9)")).count() >= 2, "{end}");
    assert!(!end.contains(&format!("{wxf} (f8f9)")), "{end}");
}

#[tokio::test]
async fn a_game_keeps_its_language_and_private_answers_follow_the_reader() {
    let f = fixture();
    let ch = "tg:-100";
    let say =
        |user: &str, lang: &str, text: &str| f.svc.handle(by(user, Lang::from_tag(lang), ch, text));
    // The challenger's language (English) holds for the challenge and the whole game.
    let challenge = joined(&say("Alice", "en", "/play @minh red").await);
    assert!(challenge.contains("challenges"), "{challenge}");
    let start = joined(&say("Minh", "vi", "/accept").await);
    assert!(start.contains("begins"), "{start}");
    let moved = joined(&say("Alice", "en", "h2e2").await);
    assert!(moved.contains("Minh (Black) to move"), "{moved}");
    let moved = say("Minh", "vi", "h9g7").await;
    assert!(joined(&moved).contains("Alice (Red) to move"), "{moved:?}");
    let labels: Vec<&str> = moved[0].buttons[0]
        .iter()
        .map(|b| b.label.as_str())
        .collect();
    assert_eq!(labels, ["Pick a move", "Offer draw", "Resign"]);
    // A private answer speaks the reader's language.
    let early = say("Minh", "vi", "/move h7h0").await;
    assert!(early[0].private, "{early:?}");
    assert!(early[0].text.contains("Alice đang đi"), "{early:?}");
    // /lang changes the game's language too.
    let lang = joined(&say("Minh", "vi", "/lang zh").await);
    assert!(lang.contains("中文"), "{lang}");
    let moved = joined(&say("Alice", "en", "h0g2").await);
    assert!(moved.contains("轮到Minh"), "{moved}");
}

#[tokio::test]
async fn challenges_name_people_as_they_call_themselves() {
    let f = fixture();
    let ch = "tg:-200";
    let mut bob = by("bob_77", None, ch, "hello everyone");
    bob.user = PlayerRef::new("tg:77", "Bob Nguyễn");
    assert!(f.svc.handle(bob).await.is_empty(), "chat is not answered");
    let mut alice = by("alice", None, ch, "/play @Bob_77 red");
    alice.user = PlayerRef::new("tg:1", "Alice");
    let r = joined(&f.svc.handle(alice.clone()).await);
    assert!(r.starts_with("Alice challenges Bob Nguyễn:"), "{r}");
    alice.text = "/cancel".into();
    f.svc.handle(alice.clone()).await;
    // Someone the bot has not seen is named by the handle as typed.
    alice.text = "/play @carol".into();
    let r = joined(&f.svc.handle(alice).await);
    assert!(r.starts_with("Alice challenges @carol:"), "{r}");
}

#[tokio::test]
async fn questions_and_pickers_lose_their_buttons_once_they_no_longer_apply() {
    let f = fixture();
    let challenge = f.say("alice", "/play @bob red").await;
    let accept = challenge[0].buttons[0][0].action;
    assert!(challenge[0].track, "a challenge is a one-time question");
    assert!(f
        .svc
        .shown(
            &"console:#t".into(),
            &"console:alice".into(),
            accept,
            "m1".into()
        )
        .await
        .is_empty());
    // Accepted: the challenge message is retired with the answer.
    let mut inc = by("bob", None, "console:#t", "");
    inc.action = Some(accept);
    let board = f.svc.handle(inc).await;
    assert_eq!(
        board.last().map(|r| r.retire.clone()),
        Some(vec!["m1".to_string()])
    );

    // Two pickers by alice: the second retires the first; a typed move retires the second.
    let picker = f
        .press("alice", &board, |a| matches!(a, Action::Pick { .. }))
        .await;
    assert!(picker[0].menu && picker[0].track);
    assert!(
        picker[0].text.starts_with("alice, pick the piece"),
        "{picker:?}"
    );
    let first = picker[0].buttons[0][0].action;
    assert!(f
        .svc
        .shown(
            &"console:#t".into(),
            &"console:alice".into(),
            first,
            "p1".into()
        )
        .await
        .is_empty());
    assert_eq!(
        f.svc
            .shown(
                &"console:#t".into(),
                &"console:alice".into(),
                first,
                "p2".into()
            )
            .await,
        ["p1"]
    );
    let moved = f.say("alice", "h2e2").await;
    assert_eq!(
        moved.last().map(|r| r.retire.clone()),
        Some(vec!["p2".to_string()])
    );
    // Shown after it stopped applying: retired at once.
    assert_eq!(
        f.svc
            .shown(
                &"console:#t".into(),
                &"console:alice".into(),
                first,
                "p3".into()
            )
            .await,
        ["p3"]
    );
    // A draw offer loses its buttons when declined; a lapsed challenge when it lapses.
    let offer = f.say("bob", "/draw").await;
    let draw = offer[0].buttons[0][0].action;
    f.svc
        .shown(
            &"console:#t".into(),
            &"console:bob".into(),
            draw,
            "d1".into(),
        )
        .await;
    let declined = f.say("alice", "/decline").await;
    assert_eq!(
        declined.last().map(|r| r.retire.clone()),
        Some(vec!["d1".to_string()])
    );
    let mut outbox = f.svc.subscribe(xiangqi_bot::platform::Platform::Console);
    let other = f.svc.handle(by("carol", None, "console:#u", "/play")).await;
    let open = other[0].buttons[0][0].action;
    f.svc
        .shown(
            &"console:#u".into(),
            &"console:carol".into(),
            open,
            "c1".into(),
        )
        .await;
    let now = f.advance(11 * 60 * 1000);
    f.svc.process_due(now).await.expect("due");
    let mut lapsed = None;
    while let Ok(out) = outbox.try_recv() {
        if out.channel == "console:#u" {
            lapsed = Some(out);
        }
    }
    let lapsed = lapsed.expect("the lapse");
    assert!(joined(&lapsed.replies).contains("has lapsed"));
    assert_eq!(
        lapsed.replies.last().map(|r| r.retire.clone()),
        Some(vec!["c1".to_string()])
    );
}

#[tokio::test]
async fn games_are_numbered_one_two_three() {
    let f = fixture();
    for n in 1..=3 {
        let board = start_game(&f, "").await;
        assert!(
            joined(&board).contains(&format!("Game #{n} begins")),
            "{board:?}"
        );
        f.ask("alice", "/abort").await;
    }
    // After a restart (the handle let go), the numbers go on from the last one stored.
    let f = restart(f).await;
    let board = start_game(&f, "").await;
    assert!(joined(&board).contains("Game #4 begins"), "{board:?}");
}

#[tokio::test]
async fn an_untimed_game_can_be_claimed_when_a_player_stops_moving() {
    let f = fixture();
    let mut outbox = f.svc.subscribe(xiangqi_bot::platform::Platform::Console);
    start_game(&f, "").await;
    f.ask("alice", "h2e2").await;
    // Too early, and never by the player to move, nor in a game with a clock.
    assert!(f
        .ask("alice", "/claim")
        .await
        .contains("bob still has 1 min"));
    assert!(f.ask("bob", "/claim").await.contains("It is your move"));
    // bob is told at three quarters of the minute, once.
    let now = f.advance(45_000);
    assert_eq!(f.svc.process_due(now).await.expect("due"), 1);
    let warned = joined(&outbox.recv().await.expect("warning").replies);
    assert!(
        warned.contains("bob, it is your move and you have not moved for 45 s")
            && warned.contains("within 15 s, alice may claim"),
        "{warned}"
    );
    assert_eq!(f.svc.process_due(now).await.expect("due"), 0);
    // The deadline is stored: a new service on the same database settles it.
    let f = restart(f).await;
    let mut outbox = f.svc.subscribe(xiangqi_bot::platform::Platform::Console);
    let now = f.advance(15_000);
    assert_eq!(f.svc.process_due(now).await.expect("due"), 1);
    let claimable = joined(&outbox.recv().await.expect("claimable").replies);
    assert!(
        claimable.contains("bob has not moved for 1 min. alice, you may now /claim"),
        "{claimable}"
    );
    assert!(f
        .ask("alice", "/claim maybe")
        .await
        .contains("could not understand"));
    let won = f.ask("alice", "/claim").await;
    assert!(
        won.contains("Game over: Red wins — bob stopped playing (1-0)."),
        "{won}"
    );
    assert!(won.contains("[Termination \"abandonment\"]"), "{won}");

    // Ending one without a result frees the channel; a timed game is not claimed.
    start_game(&f, "").await;
    let now = f.advance(61_000);
    f.svc.process_due(now).await.expect("due");
    assert!(f
        .ask("bob", "/claim end")
        .await
        .contains("bob ended the game without a result"));
    start_game(&f, "10+5").await;
    assert!(f
        .ask("bob", "/claim")
        .await
        .contains("This game has a clock"));
    // A move in time puts the claim off again.
    f.ask("alice", "/abort").await;
    start_game(&f, "").await;
    f.advance(50_000);
    f.ask("alice", "h2e2").await;
    f.advance(50_000);
    assert!(f.ask("bob", "/claim").await.contains("It is your move"));
    f.ask("bob", "h9g7").await;
    assert!(f
        .ask("bob", "/claim")
        .await
        .contains("alice still has 1 min"));
}

#[tokio::test]
async fn a_refused_request_is_answered_to_its_asker_alone_in_their_language() {
    let f = fixture();
    // No game yet: /hint, /review, /review 999 and /review abc are all refused privately, as
    // the asker's client speaks (Chinese here), while the channel's messages stay English.
    for (asked, what) in [
        ("/hint", "hint"),
        ("/review", "review"),
        ("/review 999", "review 999"),
        ("/review abc", "review abc"),
    ] {
        let replies = f
            .svc
            .handle(by("carol", Some(Lang::Zh), "console:#t", asked))
            .await;
        assert_eq!(replies.len(), 1, "{what}: {replies:?}");
        assert!(
            replies[0].private,
            "{what} is refused publicly: {replies:?}"
        );
        assert!(
            !replies[0].text.is_ascii(),
            "{what} is not answered in Chinese: {}",
            replies[0].text
        );
    }
    // A finished game exists: a game number that is not one of them is still refused privately.
    f.say("alice", "/play @bob red").await;
    f.say("bob", "/accept").await;
    f.say("alice", "/resign").await;
    let replies = f.say("bob", "/review 7").await;
    assert!(replies.len() == 1 && replies[0].private, "{replies:?}");
    assert!(replies[0].text.contains('7'), "{}", replies[0].text);
}

#[tokio::test]
async fn only_those_the_platform_names_change_a_channels_settings() {
    let f = fixture();
    let as_member = |user: &str, channel: &str, text: &str, may: Option<bool>| Incoming {
        may_configure: may,
        ..by(user, None, channel, text)
    };
    let group = "tg:-100777";
    let server = "dc:4242";
    for (channel, may, expect) in [
        (group, Some(false), "Only this group's administrators"),
        (
            server,
            Some(false),
            "Only members who can manage this channel",
        ),
        (server, None, "use the slash command /takebacks"),
    ] {
        let r = f
            .svc
            .handle(as_member("carol", channel, "/takebacks on", may))
            .await;
        assert!(r.iter().all(|r| r.private), "{r:?}");
        assert!(joined(&r).contains(expect), "{}", joined(&r));
        // Asking what a setting is, or setting what it already is, needs no right.
        let r = joined(
            &f.svc
                .handle(as_member("carol", channel, "/takebacks off", may))
                .await,
        );
        assert!(r.contains("Takebacks are now off"), "{r}");
        for text in [
            "/hints on",
            "/lang vi",
            "/ruleset asian",
            "/puzzle daily on 9",
        ] {
            let r = f.svc.handle(as_member("carol", channel, text, may)).await;
            assert!(
                r.iter().all(|r| r.private) && joined(&r).contains("Only "),
                "{text}: {r:?}"
            );
        }
    }
    // Nothing changed: the group still plays the default rules in English, no hints.
    let r = joined(
        &f.svc
            .handle(as_member("carol", group, "/ruleset", Some(false)))
            .await,
    );
    assert!(r.contains("played under official rules"), "{r}");
    // An administrator may.
    let r = joined(
        &f.svc
            .handle(as_member("dan", group, "/takebacks on", Some(true)))
            .await,
    );
    assert!(r.contains("Takebacks are now allowed"), "{r}");
}
