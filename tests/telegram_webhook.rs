//! The Telegram adapter in webhook mode, end to end over real HTTP both ways: the fake Bot API
//! POSTs updates to the bot's webhook server (the secret in its header, one update per chat
//! at a time, retried until answered 2xx), and the bot answers through the fake's API.

#[path = "support/pg.rs"]
mod pg;
#[path = "support/telegram_fake.rs"]
mod telegram_fake;
#[path = "support/telegram_harness.rs"]
mod telegram_harness;

use std::time::Duration;

use serde_json::json;
use telegram_fake::{FakeChat, FakeTelegram, FakeUser, SentCall};
use telegram_harness::{
    check_every_call, free_addr, play, said, start_game, webhook_config, Running, SECRET, TOKEN,
    WAIT,
};

fn user(id: i64, name: &str) -> FakeUser {
    FakeUser::new(id, name)
        .username(&name.to_lowercase())
        .language_code("en")
}

/// Moves of an ordinary opening, each legal after the ones before (red first).
const OPENING: &[&str] = &[
    "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "a9b9", "a0b0", "g6g5", "g3g4", "c6c5",
    "c3c4", "i6i5", "i3i4", "a6a5", "a3a4",
];

/// The caption parts of the board after move `n` (from 1) of [`OPENING`].
fn line(n: usize, red: &FakeUser, black: &FakeUser) -> String {
    let who = if n % 2 == 1 { red } else { black };
    format!("{n}. {}: |({})", who.first_name, OPENING[n - 1])
}

/// A bot on sled serving a webhook at `http://127.0.0.1:<port>/tg/hook`, once it set it.
async fn webhook_bot(fake: &FakeTelegram, dir: &std::path::Path) -> (Running, String) {
    let listen = free_addr();
    let url = format!("http://{listen}/tg/hook");
    let mark = fake.mark();
    let bot = Running::start_webhook(fake, dir, webhook_config(&url, listen)).await;
    telegram_harness::expect_call(fake, mark, "setWebhook", |c| c.is("setWebhook")).await;
    assert!(
        fake.wait_webhook_set(WAIT).await,
        "the bot sets its webhook"
    );
    (bot, url)
}

/// The board photos sent to `chat`, their captions in order.
fn boards(fake: &FakeTelegram, chat: &FakeChat) -> Vec<String> {
    fake.sent()
        .iter()
        .filter(|c| c.is("sendPhoto") && c.chat_id == Some(chat.id))
        .map(said)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_played_by_webhook_end_to_end() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let (bot, url) = webhook_bot(&fake, dir.path()).await;
    assert_eq!(fake.webhook(), Some((url, Some(SECRET.to_string()))));
    let set = fake.sent_of("setWebhook");
    assert_eq!(set.len(), 1);
    // teloxide sends the parameters as form fields: JSON in text.
    let field = |k: &str| match &set[0].params[k] {
        serde_json::Value::String(s) => serde_json::from_str(s).unwrap_or(json!(s)),
        v => v.clone(),
    };
    assert_eq!(
        field("allowed_updates"),
        json!(["message", "callback_query"])
    );
    assert_eq!(field("max_connections"), json!(40));
    assert_eq!(field("secret_token"), json!(SECRET));

    let group = FakeChat::group(-4_000_000_101, "Webhook club");
    let (alice, bob) = (user(1001, "Alice"), user(1002, "Bob"));
    let first = start_game(&fake, &group, None, &alice, &bob).await;
    assert!(first.photo.is_some(), "the first board is a picture");
    for n in 1..=4 {
        let who = if n % 2 == 1 { &alice } else { &bob };
        play(&fake, &group, who, OPENING[n - 1], &line(n, &alice, &bob)).await;
    }
    assert_eq!(fake.poll_count(), 0, "no getUpdates in webhook mode");
    let deliveries = fake.webhook_deliveries();
    assert_eq!(deliveries.len(), 6, "{deliveries:?}"); // challenge, accept, four moves
    assert!(
        deliveries.iter().all(|d| d.status == Some(200)),
        "{deliveries:?}"
    );
    assert_eq!(fake.pending_updates(), 0);
    bot.stop().await;
    // Stopping leaves the webhook set, for the other processes.
    assert!(fake.webhook().is_some());
    assert!(fake.sent_of("deleteWebhook").is_empty());
    check_every_call(&fake.sent());
}

/// POST `body` to the webhook at `url` with `secret` in the header; the HTTP status.
async fn post(url: &str, secret: Option<&str>, body: String) -> u16 {
    let mut req = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .body(body);
    if let Some(s) = secret {
        req = req.header("X-Telegram-Bot-Api-Secret-Token", s);
    }
    req.send()
        .await
        .expect("the webhook answers")
        .status()
        .as_u16()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_without_the_secret_are_refused_and_change_nothing() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let (bot, url) = webhook_bot(&fake, dir.path()).await;
    let group = FakeChat::group(-4_000_000_102, "Guarded club");
    let (alice, bob) = (user(1001, "Alice"), user(1002, "Bob"));
    start_game(&fake, &group, None, &alice, &bob).await;

    // A forged update: Alice's first move, as Telegram would send it.
    let forged = json!({
        "update_id": 900_001,
        "message": {
            "message_id": 77,
            "date": 1_700_000_000,
            "chat": { "id": group.id, "type": "group", "title": "Guarded club" },
            "from": { "id": alice.id, "is_bot": false, "first_name": "Alice", "username": "alice" },
            "text": "h2e2",
        }
    })
    .to_string();
    let mark = fake.mark();
    assert_eq!(post(&url, None, forged.clone()).await, 401, "no secret");
    assert_eq!(
        post(&url, Some("hook_SECRET-43"), forged.clone()).await,
        401
    );
    assert_eq!(post(&url, Some(""), forged.clone()).await, 401);
    assert_eq!(
        post(&url, Some(&SECRET[..SECRET.len() - 1]), forged.clone()).await,
        401
    );
    // Bad bodies with the right secret; another path; another method.
    assert_eq!(post(&url, Some(SECRET), "{not json".into()).await, 400);
    assert_eq!(
        post(&url, Some(SECRET), json!({"x": 1}).to_string()).await,
        400
    );
    let huge = format!(
        "{{\"update_id\":1,\"pad\":\"{}\"}}",
        "x".repeat(xiangqi_bot::adapters::telegram::BODY_LIMIT)
    );
    assert_eq!(post(&url, Some(SECRET), huge).await, 413);
    let elsewhere = url.replace("/tg/hook", "/tg/other");
    assert_eq!(post(&elsewhere, Some(SECRET), forged.clone()).await, 404);
    let got = reqwest::get(&url)
        .await
        .expect("an answer")
        .status()
        .as_u16();
    assert_eq!(got, 405);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let sent: Vec<SentCall> = telegram_harness::since(&fake, mark)
        .into_iter()
        .filter(|c| c.is("sendPhoto") || c.is("sendMessage"))
        .collect();
    assert!(
        sent.is_empty(),
        "the refused requests did nothing: {sent:?}"
    );

    // The fake's own deliveries carry the secret and go through: the move is Alice's still.
    play(&fake, &group, &alice, "h2e2", &line(1, &alice, &bob)).await;
    assert!(fake
        .webhook_deliveries()
        .iter()
        .all(|d| d.status == Some(200)));
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_update_delivered_twice_is_applied_once() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let (bot, _) = webhook_bot(&fake, dir.path()).await;
    let group = FakeChat::group(-4_000_000_103, "Echo club");
    let (alice, bob) = (user(1001, "Alice"), user(1002, "Bob"));
    start_game(&fake, &group, None, &alice, &bob).await;

    // The bot handles Alice's move and answers 200, but the answer is lost on the way: the
    // fake sends the same update again.
    fake.lose_next_webhook_answer();
    play(&fake, &group, &alice, "h2e2", &line(1, &alice, &bob)).await;
    play(&fake, &group, &bob, "h9g7", &line(2, &alice, &bob)).await;
    let deliveries = fake.webhook_deliveries();
    let lost: Vec<_> = deliveries.iter().filter(|d| d.lost).collect();
    assert_eq!(lost.len(), 1, "{deliveries:?}");
    let again = deliveries
        .iter()
        .filter(|d| d.update_id == lost[0].update_id)
        .count();
    assert_eq!(again, 2, "sent twice: {deliveries:?}");
    let shown = boards(&fake, &group);
    let firsts = shown.iter().filter(|c| c.contains("1. Alice")).count();
    assert_eq!(firsts, 1, "the move was applied and shown once: {shown:?}");

    // After a restart (another process, as far as the bot knows) it comes a third time: it
    // is stored as handled, and skipped.
    bot.stop().await;
    let (bot, url) = webhook_bot(&fake, dir.path()).await;
    let mark = fake.mark();
    let status = post(&url, Some(SECRET), lost[0].update.to_string()).await;
    assert_eq!(status, 200, "handled before: done");
    play(&fake, &group, &alice, "h0g2", &line(3, &alice, &bob)).await;
    let sent = telegram_harness::since(&fake, mark);
    assert_eq!(
        sent.iter().filter(|c| c.is("sendPhoto")).count(),
        1,
        "{sent:?}"
    );
    assert!(
        !sent.iter().any(|c| said(c).contains("1. Alice")),
        "{sent:?}"
    );
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_busy_chats_each_get_their_replies_in_order() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let (bot, _) = webhook_bot(&fake, dir.path()).await;
    let one = FakeChat::group(-4_000_000_104, "First club");
    let two = FakeChat::group(-4_000_000_105, "Second club");
    let (alice, bob) = (user(1001, "Alice"), user(1002, "Bob"));
    let (carol, dave) = (user(1003, "Carol"), user(1004, "Dave"));
    start_game(&fake, &one, None, &alice, &bob).await;
    start_game(&fake, &two, None, &carol, &dave).await;

    // Every move of both games at once: Telegram queues them, and sends each chat's one by
    // one, the chats side by side.
    let mark = fake.mark();
    for (n, mv) in OPENING.iter().enumerate() {
        let (a, b) = if n % 2 == 0 {
            (&alice, &carol)
        } else {
            (&bob, &dave)
        };
        fake.push_message(&one, a, mv, None);
        fake.push_message(&two, b, mv, None);
    }
    let last = OPENING.len();
    telegram_harness::board_after(&fake, mark, &one, &line(last, &alice, &bob)).await;
    telegram_harness::board_after(&fake, mark, &two, &line(last, &carol, &dave)).await;
    for (chat, red, black) in [(&one, &alice, &bob), (&two, &carol, &dave)] {
        let shown = boards(&fake, chat);
        let moves: Vec<&String> = shown.iter().skip(1).collect(); // after the first board
        assert_eq!(moves.len(), last, "{shown:#?}");
        for (i, caption) in moves.iter().enumerate() {
            let want = line(i + 1, red, black);
            assert!(
                want.split('|').all(|part| caption.contains(part)),
                "move {}: {caption} (wanted {want})",
                i + 1
            );
        }
    }
    let overlapping = fake.webhook_deliveries();
    assert!(overlapping.iter().all(|d| d.status == Some(200)));
    bot.stop().await;
    check_every_call(&fake.sent());
}
