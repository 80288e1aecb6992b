//! Delivery on Discord: rate limits and server errors on every route a board takes (the
//! deferred response, a follow-up, a channel message) are retried and the board arrives once;
//! an interaction past its 15 minutes gives way to a channel message; a message refused for
//! good is dropped and the next goes out; a stored answer not delivered before a stop goes out
//! after the restart; private answers come at once, without a public "thinking…".

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use xiangqi_bot::app::system_now;

use crate::discord_fake::{CmdOpt, FakeDiscord, FakeInteraction, FakeMessage, ResponseKind};
use crate::harness::{
    board_text, button, check_every_attachment, fake, message_of, new_game, service_config,
    slash_move, start, start_at, table, Ledger, WAIT,
};

use ResponseKind::{Callback, EditOriginal};

/// The bot's messages (as they are now) showing the board after ply `line` (`"1. alice: "`).
fn boards_with(fake: &FakeDiscord, line: &str) -> Vec<FakeMessage> {
    fake.bot_messages()
        .into_iter()
        .filter(|m| {
            !m.deleted
                && !m.attachments.is_empty()
                && m.embeds
                    .iter()
                    .any(|e| e["description"].as_str().is_some_and(|d| d.contains(line)))
        })
        .collect()
}

/// Statuses of the calls on `route` after the first `skip`.
fn statuses(fake: &FakeDiscord, route: &str, skip: usize) -> Vec<u16> {
    fake.calls_matching(route)
        .into_iter()
        .skip(skip)
        .map(|c| c.status)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn boards_meet_rate_limits_and_server_errors_on_every_route_and_arrive_once() {
    let (fake, _dir, bot, log) = table().await;
    let (alice, bob) = (fake.add_user("alice"), fake.add_user("bob"));

    // The follow-up that carries the first board (after Accept): a 429, then a 500.
    let followups = "POST /webhooks/*/*";
    fake.fail_next_with_attachments(followups, 429, FakeDiscord::rate_limited(0.5));
    fake.fail_next_with_attachments(
        followups,
        500,
        json!({"message": "500: Internal Server Error", "code": 0}),
    );
    let before = fake.calls_matching(followups).len();
    new_game(&fake, &log, &alice, &bob).await;
    assert_eq!(statuses(&fake, followups, before), [429, 500, 200]);

    // The deferred response filled with the board: a 429 (Discord's body and headers), a 502.
    let original = "PATCH /webhooks/*/*/messages/@original";
    fake.fail_next_with_attachments(original, 429, FakeDiscord::rate_limited(1.0));
    fake.fail_next_with_attachments(
        original,
        502,
        json!({"message": "502 Bad Gateway", "code": 0}),
    );
    let before = fake.calls_matching(original).len();
    let text = slash_move(&fake, &log, &alice, "h2e2").await;
    assert!(text.starts_with("1. alice: "), "{text}");
    assert_eq!(statuses(&fake, original, before), [429, 502, 200]);
    assert_eq!(boards_with(&fake, "1. alice: ").len(), 1);

    // A move typed in the channel: its board is a channel message; a 503, then a 429.
    let channel = "POST /channels/*/messages";
    fake.fail_next_with_attachments(
        channel,
        503,
        json!({"message": "upstream connect error", "code": 0}),
    );
    fake.fail_next_with_attachments(channel, 429, FakeDiscord::rate_limited(0.5));
    let before = fake.calls_matching(channel).len();
    fake.push_message_create(fake.channel_id(), &bob, "H8+7");
    assert!(
        fake.wait_for(|f| !boards_with(f, "2. bob: ").is_empty(), WAIT)
            .await,
        "the typed move's board"
    );
    assert_eq!(statuses(&fake, channel, before), [503, 429, 200]);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(boards_with(&fake, "2. bob: ").len(), 1, "once");
    log.check(&fake).await;
    check_every_attachment(&fake);
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_answer_past_the_interactions_15_minutes_goes_to_the_channel() {
    let fake = fake().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let clock = Arc::new(AtomicU64::new(0));
    let c = Arc::clone(&clock);
    let real = system_now();
    let now: xiangqi_bot::app::Now = Arc::new(move || real() + c.load(Ordering::SeqCst));
    let bot = start_at(&fake, dir.path(), None, service_config(), false, now).await;
    let log = Ledger::default();
    let (alice, bob) = (fake.add_user("alice"), fake.add_user("bob"));
    new_game(&fake, &log, &alice, &bob).await;

    // Discord keeps failing the deferred response's edit; meanwhile 16 minutes pass.
    let original = "PATCH /webhooks/*/*/messages/@original";
    fake.fail_times(
        original,
        503,
        json!({"message": "Service Unavailable", "code": 0}),
        1000,
    );
    let ix = fake.push_interaction(
        FakeInteraction::slash("move")
            .option(CmdOpt::string("move", "h2e2"))
            .by(&alice),
    );
    assert!(
        fake.wait_for(
            |f| f.calls_matching(original).iter().any(|c| c.status == 503),
            WAIT
        )
        .await
    );
    clock.store(16 * 60 * 1000, Ordering::SeqCst);
    fake.expire_interaction(ix.id);
    assert!(
        fake.wait_for(|f| !boards_with(f, "1. alice: ").is_empty(), WAIT)
            .await,
        "the board is posted in the channel"
    );
    let boards = boards_with(&fake, "1. alice: ");
    assert_eq!(boards.len(), 1);
    assert_eq!(boards[0].channel_id, fake.channel_id());
    assert!(boards[0].interaction_id.is_none(), "a channel message");
    assert!(
        boards[0]
            .custom_ids()
            .iter()
            .any(|c| c.starts_with("xq:P:")),
        "with its buttons"
    );
    let kinds: Vec<_> = fake
        .interaction_responses(ix.id)
        .into_iter()
        .map(|r| r.kind)
        .collect();
    assert_eq!(
        kinds,
        [Callback(5)],
        "only the deferral went through the token"
    );
    fake.clear_failures();
    log.check(&fake).await;
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_message_refused_for_good_is_dropped_and_the_next_goes_out() {
    let (fake, _dir, bot, log) = table().await;
    let (alice, bob) = (fake.add_user("alice"), fake.add_user("bob"));
    new_game(&fake, &log, &alice, &bob).await;
    // The bot lost access to the channel (403 Missing Access): the typed move's board is
    // dropped, once, without a retry.
    let channel = "POST /channels/*/messages";
    fake.fail_next(
        channel,
        403,
        json!({"message": "Missing Access", "code": 50001}),
    );
    let before = fake.calls_matching(channel).len();
    fake.push_message_create(fake.channel_id(), &alice, "h2e2");
    assert!(
        fake.wait_for(|f| f.calls_matching(channel).len() > before, WAIT)
            .await
    );
    let text = slash_move(&fake, &log, &bob, "H8+7").await;
    assert!(text.starts_with("2. bob: "), "{text}");
    assert!(boards_with(&fake, "1. alice: ").is_empty());
    assert_eq!(statuses(&fake, channel, before), [403], "not retried");
    let storage = bot.service.storage().clone();
    assert!(
        fake.wait_for(
            |_| storage.outbox("dc:").map(|o| o.is_empty()).unwrap_or(false),
            WAIT
        )
        .await,
        "the dropped entry is forgotten"
    );
    log.check(&fake).await;
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_stored_answer_not_sent_before_a_stop_fills_the_deferred_response_after_it() {
    let (fake, dir, bot, log) = table().await;
    let (alice, bob) = (fake.add_user("alice"), fake.add_user("bob"));
    new_game(&fake, &log, &alice, &bob).await;
    let original = "PATCH /webhooks/*/*/messages/@original";
    fake.fail_next_with_attachments(original, 429, FakeDiscord::rate_limited(120.0));
    let ix = fake.push_interaction(
        FakeInteraction::slash("move")
            .option(CmdOpt::string("move", "h2e2"))
            .by(&alice),
    );
    assert!(
        fake.wait_for(
            |f| f.calls_matching(original).iter().any(|c| c.status == 429),
            WAIT
        )
        .await
    );
    bot.stop(&fake).await;
    assert!(boards_with(&fake, "1. alice: ").is_empty());

    let bot = start(&fake, dir.path(), None, service_config(), false).await;
    assert!(
        fake.wait_for(|f| !boards_with(f, "1. alice: ").is_empty(), WAIT)
            .await,
        "delivered after the restart"
    );
    let responses = fake.interaction_responses(ix.id);
    let kinds: Vec<_> = responses.iter().map(|r| r.kind.clone()).collect();
    assert_eq!(
        kinds,
        [Callback(5), EditOriginal],
        "into the deferred response"
    );
    let m = message_of(&fake, &responses[1]);
    assert!(board_text(&m).starts_with("1. alice: "));
    assert_eq!(boards_with(&fake, "1. alice: ").len(), 1);
    let text = slash_move(&fake, &log, &bob, "H8+7").await;
    assert!(text.starts_with("2. bob: "), "{text}");
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn private_answers_come_at_once_without_a_public_thinking() {
    let (fake, _dir, bot, log) = table().await;
    let (alice, bob, carol) = (
        fake.add_user("alice"),
        fake.add_user("bob"),
        fake.add_user("carol"),
    );
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::slash("play")
                .option(CmdOpt::user("opponent", &bob))
                .by(&alice),
            &[Callback(5), EditOriginal],
        )
        .await;
    let challenge = message_of(&fake, &r[1]);
    button(&challenge, "xq:A:");
    // Carol may not decline a challenge meant for Bob: told privately, in the response itself.
    let m = log
        .private(&fake, FakeInteraction::slash("decline").by(&carol))
        .await;
    assert!(!m.is_empty(), "only Carol sees it, and it says something");
    // A public text that changes nothing is the response too.
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::slash("ruleset").by(&carol),
            &[Callback(4)],
        )
        .await;
    assert!(!message_of(&fake, &r[0]).is_ephemeral());
    // No "thinking…" was shown and taken back.
    assert!(
        fake.bot_messages()
            .iter()
            .all(|m| !(m.deleted && m.interaction_id.is_some())),
        "no deferred response was deleted"
    );
    log.check(&fake).await;
    check_every_attachment(&fake);
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_full_send_queue_says_it_skipped_answers() {
    let (fake, _dir, bot, _log) = table().await;
    let carol = fake.add_user("carol");
    let channel = fake.channel_id();
    // The channel's first answer meets a 429: its queue waits 3 s, and fills meanwhile.
    fake.fail_next(
        "POST /channels/*/messages",
        429,
        FakeDiscord::rate_limited(3.0),
    );
    for _ in 0..100 {
        fake.push_message_create(channel, &carol, "/help");
    }
    let notice = "I skipped some answers";
    let deadline = tokio::time::Instant::now() + WAIT;
    while !fake
        .bot_messages()
        .iter()
        .any(|m| m.content.contains(notice))
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the channel was not told"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Let what is queued go out: the notice once, and fewer answers than questions.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let messages = fake.bot_messages();
    let notices = messages
        .iter()
        .filter(|m| m.content.contains(notice))
        .count();
    let answers = messages.len() - notices;
    assert_eq!(notices, 1);
    assert!((60..100).contains(&answers), "{answers} answers");
    bot.stop(&fake).await;
}
