//! Delivery on Telegram, end to end against the fake Bot API: the board meets 429s and
//! server errors and arrives exactly once; a reply Telegram refuses for good is dropped and
//! the next goes out; a refused photo becomes text; what was not delivered before a stop goes
//! out after the restart.

use crate::faulty;
use crate::telegram_fake;
use crate::telegram_harness;

use std::time::Duration;

use faulty::Faulty;
use telegram_fake::{FakeChat, FakeTelegram, FakeUser, SentCall};
use telegram_harness::{
    board_after, check_every_call, expect_call, said, say, start_game, Running, TOKEN, WAIT,
};

fn alice() -> FakeUser {
    FakeUser::new(2001, "Alice")
        .username("alice")
        .language_code("en")
}
fn bob() -> FakeUser {
    FakeUser::new(2002, "Bob")
        .username("bob")
        .language_code("en")
}

/// Successful calls of `method` in `chat` whose caption or text has `line`.
fn sent_with(fake: &FakeTelegram, method: &str, chat: &FakeChat, line: &str) -> Vec<SentCall> {
    fake.sent_of(method)
        .into_iter()
        .filter(|c| c.chat_id == Some(chat.id) && said(c).contains(line))
        .collect()
}

/// Waits until the service has forgotten every delivered entry.
async fn outbox_empties(bot: &Running) {
    let deadline = tokio::time::Instant::now() + WAIT;
    while !bot
        .service
        .storage()
        .outbox("tg:")
        .expect("read")
        .is_empty()
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "entries left in the outbox"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_meets_429s_and_server_errors_and_arrives_exactly_once() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let bot = Running::start(&fake, dir.path()).await;
    let group = FakeChat::group(-4_100_000_001, "Flaky");
    let (alice, bob) = (alice(), bob());
    start_game(&fake, &group, None, &alice, &bob).await;

    // The board's upload meets flood control, then a 502 page, then a JSON 500, then a
    // connection that breaks.
    fake.fail_next("sendPhoto", 429, Some(1));
    fake.fail_next_raw(
        "sendPhoto",
        502,
        "<html><body>502 Bad Gateway</body></html>",
    );
    fake.fail_next("sendPhoto", 500, None);
    fake.drop_next("sendPhoto");
    let mark = fake.mark();
    fake.push_message(&group, &alice, "h2e2", None);
    let board = board_after(&fake, mark, &group, "1. Alice: h2e2\n").await;
    let attempts: Vec<(bool, u16)> = fake
        .calls()
        .into_iter()
        .filter(|c| c.seq >= mark && c.is("sendPhoto"))
        .map(|c| (c.ok, c.status))
        .collect();
    assert_eq!(
        attempts,
        [
            (false, 429),
            (false, 502),
            (false, 500),
            (false, 0),
            (true, 200)
        ],
        "each failure retried, the 429 after its retry_after"
    );
    assert_eq!(sent_with(&fake, "sendPhoto", &group, "1. Alice:").len(), 1);
    assert!(board.reply_markup.is_some(), "with its buttons");

    // The replay's route (sendAnimation) too.
    fake.fail_next("sendAnimation", 429, Some(1));
    fake.fail_next("sendAnimation", 503, None);
    let mark = fake.mark();
    fake.push_message(&group, &bob, "/gif", None);
    let gif = expect_call(&fake, mark, "the replay", |c| {
        c.is("sendAnimation") && c.chat_id == Some(group.id)
    })
    .await;
    assert!(gif.animation.is_some());
    assert_eq!(
        fake.sent_of("sendAnimation").len(),
        1,
        "the replay arrived once"
    );
    outbox_empties(&bot).await;
    bot.stop().await;
    check_every_call(&fake.sent());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_photo_becomes_text_and_a_blocked_bot_drops_only_that_reply() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let bot = Running::start(&fake, dir.path()).await;
    let group = FakeChat::group(-4_100_000_002, "Strict group");
    let (alice, bob) = (alice(), bob());
    start_game(&fake, &group, None, &alice, &bob).await;

    // The group does not let the bot send photos: the board comes as text, buttons and all.
    fake.fail_next_with(
        "sendPhoto",
        400,
        "Bad Request: not enough rights to send photos to the chat",
        None,
    );
    let mark = fake.mark();
    fake.push_message(&group, &alice, "h2e2", None);
    let text = expect_call(&fake, mark, "the text board", |c| {
        c.is("sendMessage") && said(c).contains("1. Alice: ")
    })
    .await;
    assert!(text.reply_markup.is_some(), "the buttons stay");
    assert!(sent_with(&fake, "sendPhoto", &group, "1. Alice:").is_empty());

    // 403: Telegram will never take it (the bot was blocked, removed...): that reply is
    // dropped (and logged), not retried, and the next one goes out.
    fake.fail_next("sendPhoto", 403, None);
    let mark = fake.mark();
    fake.push_message(&group, &bob, "h9g7", None);
    let refused = fake
        .wait_for_call(|c| c.seq >= mark && !c.ok, WAIT)
        .await
        .expect("the 403");
    assert_eq!(
        (refused.method.as_str(), refused.status),
        ("sendPhoto", 403)
    );
    let mark = fake.mark();
    fake.push_message(&group, &alice, "h0g2", None);
    board_after(&fake, mark, &group, "3. Alice: ").await;
    assert!(sent_with(&fake, "sendPhoto", &group, "2. Bob:").is_empty());
    assert!(sent_with(&fake, "sendMessage", &group, "2. Bob:").is_empty());
    let tries = fake
        .calls()
        .into_iter()
        .filter(|c| c.is("sendPhoto") && said(c).contains("2. Bob:"))
        .count();
    assert_eq!(tries, 1, "a refusal for good is not retried");
    outbox_empties(&bot).await;
    bot.stop().await;
    check_every_call(&fake.sent());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_not_delivered_before_a_stop_goes_out_after_the_restart() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let group = FakeChat::group(-4_100_000_003, "Restarted");
    let (alice, bob) = (alice(), bob());
    let bot = Running::start(&fake, dir.path()).await;
    start_game(&fake, &group, None, &alice, &bob).await;
    // Flood control longer than the bot has left: the board is still waiting at the stop.
    fake.fail_next("sendPhoto", 429, Some(60));
    let mark = fake.mark();
    fake.push_message(&group, &alice, "h2e2", None);
    fake.wait_for_call(|c| c.seq >= mark && !c.ok, WAIT)
        .await
        .expect("the 429");
    assert!(
        fake.wait_updates_confirmed(WAIT).await,
        "the move is stored"
    );
    bot.stop().await;
    assert!(sent_with(&fake, "sendPhoto", &group, "1. Alice:").is_empty());

    let bot = Running::start(&fake, dir.path()).await;
    let board = board_after(&fake, mark, &group, "1. Alice: h2e2\n").await;
    assert!(board.reply_markup.is_some());
    // The game goes on from there.
    let mark = fake.mark();
    say(&fake, &group, None, &bob, "h9g7", |c| {
        c.is("sendPhoto") && said(c).contains("2. Bob:")
    })
    .await;
    assert_eq!(sent_with(&fake, "sendPhoto", &group, "1. Alice:").len(), 1);
    assert!(fake.mark() > mark);
    outbox_empties(&bot).await;
    bot.stop().await;
    check_every_call(&fake.sent());
}

/// Updates waiting in the bot's inbox.
fn waiting(bot: &Running) -> usize {
    bot.service.storage().inbox("tg:").expect("inbox").len()
}

/// Wait until the inbox is empty: an update is forgotten by a write of its own once it was
/// handled, which may land just after its answer was sent.
async fn inbox_emptied(bot: &Running) {
    let deadline = tokio::time::Instant::now() + WAIT;
    while waiting(bot) > 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the inbox is not empty again: {} left",
            waiting(bot)
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The bot on sled in `dir`, where every write of Alice's private chat (its record) waits
/// `delay` first.
async fn start_with_slow_alice(
    fake: &FakeTelegram,
    dir: &std::path::Path,
    delay: Duration,
) -> Running {
    let storage = Faulty::open(dir);
    storage.slow(|c| c.channels.iter().any(|(k, _)| k == "tg:2001"), delay);
    Running::start_on(fake, storage, telegram_harness::busy_config(), None).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_chat_does_not_hold_back_the_others() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let (slow, quick) = (alice(), bob());
    let (slow_dm, quick_dm) = (FakeChat::private(&slow), FakeChat::private(&quick));
    let group = FakeChat::group(-4_000_000_020, "Busy club");
    // Each of the slow chat's settings takes 2 s to store.
    let bot = start_with_slow_alice(&fake, dir.path(), Duration::from_secs(2)).await;
    for on in ["on", "off", "on"] {
        fake.push_message(&slow_dm, &slow, &format!("/takebacks {on}"), None);
    }
    // More than one window of updates (Telegram hands out 100 at a time) from a busy group,
    // then a question in another chat.
    for i in 0..150 {
        fake.push_message(&group, &quick, &format!("nice move {i}"), None);
    }
    let mark = fake.mark();
    fake.push_message(&quick_dm, &quick, "/help", None);
    let answer = expect_call(&fake, mark, "the quick chat's answer", |c| {
        c.chat_id == Some(quick_dm.id) && c.is("sendMessage")
    })
    .await;
    // Answered before the slow chat's first setting was even stored.
    let slow_first = sent_with(&fake, "sendMessage", &slow_dm, "Takebacks");
    assert!(
        slow_first.iter().all(|c| c.seq > answer.seq),
        "the quick chat waited for the slow one"
    );
    // The slow chat is answered in full, in order.
    let deadline = tokio::time::Instant::now() + WAIT;
    while sent_with(&fake, "sendMessage", &slow_dm, "Takebacks").len() < 3 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the slow chat was not answered"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let order: Vec<bool> = sent_with(&fake, "sendMessage", &slow_dm, "Takebacks")
        .iter()
        .map(|c| said(c).contains("allowed"))
        .collect();
    assert_eq!(order, [true, false, true]);
    inbox_emptied(&bot).await;
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn updates_confirmed_but_not_handled_are_handled_after_a_restart() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let alice = alice();
    let dm = FakeChat::private(&alice);
    {
        // Longer than the adapter waits when stopping (10 s): the setting is never stored.
        let bot = start_with_slow_alice(&fake, dir.path(), Duration::from_secs(60)).await;
        fake.push_message(&dm, &alice, "/takebacks on", None);
        // Telegram is told it was received while it is still being handled.
        assert!(fake.wait_updates_confirmed(WAIT).await, "not confirmed");
        assert_eq!(waiting(&bot), 1);
        bot.stop().await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(sent_with(&fake, "sendMessage", &dm, "Takebacks").is_empty());
    assert_eq!(fake.pending_updates(), 0, "Telegram holds nothing more");
    let mark = fake.mark();
    let bot = Running::start(&fake, dir.path()).await;
    expect_call(&fake, mark, "the setting, from the inbox", |c| {
        c.chat_id == Some(dm.id) && said(c).contains("Takebacks are now allowed")
    })
    .await;
    inbox_emptied(&bot).await;
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_send_queue_says_it_skipped_answers() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let bot = Running::start(&fake, dir.path()).await;
    let alice = alice();
    let dm = FakeChat::private(&alice);
    // The chat's first answer meets a 429: its queue waits 3 s, and fills meanwhile.
    fake.fail_next("sendMessage", 429, Some(3));
    for _ in 0..100 {
        fake.push_message(&dm, &alice, "/help", None);
    }
    let notice = "I skipped some answers";
    let told = fake
        .wait_for(
            |c| c.chat_id == Some(dm.id) && said(c).contains(notice),
            WAIT,
        )
        .await;
    assert!(told.is_some(), "the chat was not told");
    // Everything queued goes out; the notice once.
    assert!(fake.wait_updates_confirmed(WAIT).await);
    bot.stop().await;
    let texts: Vec<String> = fake
        .sent_of("sendMessage")
        .iter()
        .filter(|c| c.chat_id == Some(dm.id))
        .map(said)
        .collect();
    let notices = texts.iter().filter(|t| t.contains(notice)).count();
    let answers = texts.len() - notices;
    assert_eq!(notices, 1, "{texts:?}");
    assert!((60..100).contains(&answers), "{answers} answers");
    // With room again, the next question is answered as usual.
    let bot = Running::start(&fake, dir.path()).await;
    say(&fake, &dm, None, &alice, "/help", |c| c.is("sendMessage")).await;
    bot.stop().await;
}
