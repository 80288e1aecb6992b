//! The Telegram adapter in webhook mode, end to end over real HTTP both ways: the fake Bot API
//! POSTs updates to the bot's webhook server (the secret in its header, one update per chat
//! at a time, retried until answered 2xx), and the bot answers through the fake's API.

use crate::pg;
#[path = "webhook/slow.rs"]
mod slow;
use crate::telegram_fake;
use crate::telegram_harness;
use crate::webhook_fleet;

use std::time::Duration;

use serde_json::json;
use telegram_fake::{FakeChat, FakeTelegram, FakeUser, SentCall};
use telegram_harness::{
    check_every_call, free_addr, play, said, start_game, webhook_config, Running, SECRET, TOKEN,
    WAIT,
};
use webhook_fleet::{bot_process, interrupt, Balancer};

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
    // Typed in ICCS: echoed once.
    format!("{n}. {}: {}", who.first_name, OPENING[n - 1])
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

/// A fake Bot API, and a bot on sled in a temporary directory receiving its updates by
/// webhook at a URL.
async fn setup() -> (FakeTelegram, tempfile::TempDir, Running, String) {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let (bot, url) = webhook_bot(&fake, dir.path()).await;
    (fake, dir, bot, url)
}

/// Alice (red) and Bob (black).
fn players() -> (FakeUser, FakeUser) {
    (user(1001, "Alice"), user(1002, "Bob"))
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
    let (fake, _dir, bot, url) = setup().await;
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
    let (alice, bob) = players();
    let first = start_game(&fake, &group, None, &alice, &bob).await;
    assert!(first.photo.is_some(), "the first board is a picture");
    for n in 1..=4 {
        let who = if n % 2 == 1 { &alice } else { &bob };
        play(&fake, &group, who, OPENING[n - 1], &line(n, &alice, &bob)).await;
    }
    assert_eq!(fake.poll_count(), 0, "no getUpdates in webhook mode");
    assert!(
        fake.wait_updates_confirmed(WAIT).await,
        "every update answered"
    );
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
    let (fake, _dir, bot, url) = setup().await;
    let group = FakeChat::group(-4_000_000_102, "Guarded club");
    let (alice, bob) = players();
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
        post(
            &url,
            Some("hook_SECRET-43_0123456789abcdef"),
            forged.clone()
        )
        .await,
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
    let (fake, dir, bot, _) = setup().await;
    let group = FakeChat::group(-4_000_000_103, "Echo club");
    let (alice, bob) = players();
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
    let (fake, _dir, bot, _) = setup().await;
    let one = FakeChat::group(-4_000_000_104, "First club");
    let two = FakeChat::group(-4_000_000_105, "Second club");
    let (alice, bob) = players();
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn going_back_to_polling_removes_the_webhook_and_keeps_what_waits() {
    let (fake, dir, bot, url) = setup().await;
    bot.stop().await;
    // Telegram keeps an update for a webhook that does not answer, and says why.
    let alice = user(1001, "Alice");
    let dm = FakeChat::private(&alice);
    let mark = fake.mark();
    fake.push_message(&dm, &alice, "/help", None);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let info = reqwest::get(format!("{}bot{TOKEN}/getWebhookInfo", fake.url()))
        .await
        .expect("getWebhookInfo")
        .json::<serde_json::Value>()
        .await
        .expect("JSON");
    assert_eq!(info["result"]["url"], json!(url), "{info}");
    assert_eq!(info["result"]["pending_update_count"], json!(1), "{info}");
    assert!(info["result"]["last_error_message"].is_string(), "{info}");
    // getUpdates is refused while the webhook is set, as Telegram does.
    let refused = reqwest::get(format!("{}bot{TOKEN}/getUpdates", fake.url()))
        .await
        .expect("getUpdates");
    assert_eq!(refused.status().as_u16(), 409);

    // A polling bot removes the webhook (keeping the update) and answers it.
    let bot = Running::start(&fake, dir.path()).await;
    let help = telegram_harness::expect_call(&fake, mark, "the help", |c| {
        c.is("sendMessage") && c.chat_id == Some(dm.id)
    })
    .await;
    assert!(said(&help).starts_with("Xiangqi bot"), "{}", said(&help));
    let deleted = fake.sent_of("deleteWebhook");
    assert_eq!(deleted.len(), 1);
    assert_ne!(deleted[0].params["drop_pending_updates"], json!(true));
    assert!(fake.webhook().is_none());
    bot.stop().await;
}

/// Run `sql` on the test database at `url`.
async fn sql(url: &str, sql: &str) {
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .expect("connect to the test database");
    let conn = tokio::spawn(conn);
    client.batch_execute(sql).await.expect("the SQL runs");
    drop(client);
    let _ = conn.await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_storage_failure_is_answered_500_and_the_update_comes_again() {
    let Some(db) = pg::database("telegram_webhook_500") else {
        return;
    };
    let fake = FakeTelegram::start(TOKEN).await;
    let storage =
        std::sync::Arc::new(xiangqi_bot::storage::PgStorage::connect(&db.url).expect("PostgreSQL"));
    let listen = free_addr();
    let url = format!("http://{listen}/tg/hook");
    let config = xiangqi_bot::app::ServiceConfig {
        rate_burst: 1000,
        ..xiangqi_bot::app::ServiceConfig::default()
    };
    let mark = fake.mark();
    let hook = Some(webhook_config(&url, listen));
    let bot = Running::start_on(&fake, storage, config, hook).await;
    telegram_harness::expect_call(&fake, mark, "setWebhook", |c| c.is("setWebhook")).await;
    let group = FakeChat::group(-4_000_000_107, "Flaky club");
    let (alice, bob) = players();
    start_game(&fake, &group, None, &alice, &bob).await;

    // The database refuses every change that has something to say (the outbox is gone).
    sql(&db.url, "ALTER TABLE outbox RENAME TO outbox_away").await;
    let mark = fake.mark();
    let before = fake.webhook_deliveries().len();
    fake.push_message(&group, &alice, "h2e2", None);
    let deadline = std::time::Instant::now() + WAIT;
    while !fake.webhook_deliveries()[before..]
        .iter()
        .any(|d| d.status == Some(500))
    {
        assert!(std::time::Instant::now() < deadline, "no 500");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Not told in the chat: Telegram sends the update again, and it is answered then.
    let said_meanwhile = telegram_harness::since(&fake, mark);
    assert!(
        !said_meanwhile.iter().any(|c| c.is("sendMessage")),
        "{said_meanwhile:?}"
    );
    sql(&db.url, "ALTER TABLE outbox_away RENAME TO outbox").await;
    telegram_harness::board_after(&fake, mark, &group, &line(1, &alice, &bob)).await;
    assert!(fake.wait_updates_confirmed(WAIT).await, "answered at last");
    let tries: Vec<_> = fake.webhook_deliveries()[before..].to_vec();
    assert!(tries.len() >= 2, "{tries:?}");
    assert!(tries.iter().all(|d| d.update_id == tries[0].update_id));
    assert_eq!(tries.last().and_then(|d| d.status), Some(200), "{tries:?}");
    play(&fake, &group, &bob, "h9g7", &line(2, &alice, &bob)).await;
    assert_eq!(
        boards(&fake, &group)
            .iter()
            .filter(|c| c.contains("1. Alice"))
            .count(),
        1
    );
    bot.stop().await;
}

// Relies on the channel leases of the PostgreSQL storage: a process rereads a channel another
// process wrote (without them the second process answers Bob from a copy older than Alice's
// move).
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_behind_a_balancer_keep_one_game_in_order() {
    let Some(db) = pg::database("telegram_webhook_two") else {
        return;
    };
    let fake = FakeTelegram::start(TOKEN).await;
    let (a, b) = (free_addr(), free_addr());
    let (front, balancer) =
        Balancer::start(vec![format!("http://{a}"), format!("http://{b}")]).await;
    let url = format!("http://{front}/tg/hook");
    let (dir_a, dir_b) = (
        tempfile::tempdir().expect("dir"),
        tempfile::tempdir().expect("dir"),
    );
    // One after the other: the first one creates the tables.
    let mark = fake.mark();
    let first = bot_process(&fake, &db.url, dir_a.path(), &url, a);
    telegram_harness::expect_call(&fake, mark, "setWebhook", |c| c.is("setWebhook")).await;
    let mark = fake.mark();
    let second = bot_process(&fake, &db.url, dir_b.path(), &url, b);
    telegram_harness::expect_call(&fake, mark, "setWebhook", |c| c.is("setWebhook")).await;

    let group = FakeChat::group(-4_000_000_106, "Fleet club");
    let (alice, bob) = players();
    start_game(&fake, &group, None, &alice, &bob).await;
    // Every move at once: Telegram sends them one by one, the balancer to each process in
    // turn, so consecutive moves are handled by different processes. The answer to the
    // first is lost: Telegram sends it again, to the other process, which skips it.
    fake.lose_next_webhook_answer();
    let mark = fake.mark();
    for (n, mv) in OPENING.iter().enumerate() {
        fake.push_message(&group, if n % 2 == 0 { &alice } else { &bob }, mv, None);
    }
    let last = OPENING.len();
    telegram_harness::board_after(&fake, mark, &group, &line(last, &alice, &bob)).await;
    tokio::time::sleep(Duration::from_millis(500)).await; // anything sent twice shows now
    let shown = boards(&fake, &group);
    let moves: Vec<&String> = shown.iter().skip(1).collect();
    assert_eq!(moves.len(), last, "each move shown once: {shown:#?}");
    for (i, caption) in moves.iter().enumerate() {
        let want = line(i + 1, &alice, &bob);
        assert!(
            want.split('|').all(|part| caption.contains(part)),
            "move {}: {caption} (wanted {want})",
            i + 1
        );
    }
    let deliveries = fake.webhook_deliveries();
    let lost: Vec<_> = deliveries.iter().filter(|d| d.lost).collect();
    assert_eq!(lost.len(), 1, "{deliveries:?}");
    let sent_to = |id| deliveries.iter().filter(|d| d.update_id == id).count();
    assert_eq!(sent_to(lost[0].update_id), 2, "{deliveries:?}");
    let log = balancer.log.lock().expect("the log").clone();
    assert!(log.iter().all(|&(_, s)| s == 200), "{log:?}");
    for backend in 0..2 {
        let served = log.iter().filter(|&&(i, _)| i == backend).count();
        assert!(
            served >= last / 2,
            "process {backend} served {served}: {log:?}"
        );
    }
    interrupt(first).await;
    let stderr = interrupt(second).await;
    assert!(stderr.contains("Telegram: stopped"), "{stderr}");
    check_every_call(&fake.sent());
}

#[test]
fn the_binary_refuses_a_webhook_without_a_usable_secret() {
    // Telegram would take the last one, but 23 characters could be guessed.
    let short = "not_allowed_23_charactr";
    for secret in [
        None,
        Some("not allowed!"),
        Some(&*"x".repeat(257)),
        Some(short),
    ] {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_xiangqi-bot"));
        cmd.env("TELEGRAM_BOT_TOKEN", TOKEN)
            .env("TELEGRAM_API_URL", "http://127.0.0.1:9/")
            .env("TELEGRAM_WEBHOOK_URL", "https://bot.example.org/hook")
            .env_remove("TELEGRAM_WEBHOOK_SECRET")
            .env_remove("DISCORD_TOKEN")
            .stdin(std::process::Stdio::null());
        if let Some(s) = secret {
            cmd.env("TELEGRAM_WEBHOOK_SECRET", s);
        }
        let out = cmd.output().expect("run the binary");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("TELEGRAM_WEBHOOK_SECRET"), "{stderr}");
        assert!(
            !stderr.contains("not allowed!") && !stderr.contains(short),
            "the value is not shown: {stderr}"
        );
        assert!(stderr.contains("24 to 256 characters"), "{stderr}");
    }
}
