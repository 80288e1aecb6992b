//! The Telegram adapter end to end: the real teloxide dispatcher (long polling over HTTP)
//! against the fake Bot API server, the real service on sled in a temporary directory.

use crate::telegram_fake;
use crate::telegram_harness;

use std::time::{Duration, Instant};

use serde_json::json;
use telegram_fake::{FakeChat, FakeTelegram, FakeUser, SentCall};
use telegram_harness::{
    board_after, button, check_every_call, expect_call, gif_frames, play, said, say, since,
    start_game, tap, Running, TOKEN,
};
use xiangqi_bot::app::{Action, ServiceConfig};

fn user(id: i64, name: &str, lang: &str) -> FakeUser {
    FakeUser::new(id, name)
        .username(&name.to_lowercase())
        .language_code(lang)
}

fn alice() -> FakeUser {
    user(1001, "Alice", "en")
}
fn bob() -> FakeUser {
    user(1002, "Bob", "en")
}
fn carol() -> FakeUser {
    user(1003, "Carol", "en")
}

const PERPETUAL: &str = "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_in_a_group_with_commands_buttons_and_the_picker() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let bot = Running::start(&fake, dir.path()).await;
    let group = FakeChat::group(-4_000_000_001, "Xiangqi club");
    let (alice, bob, carol) = (alice(), bob(), carol());

    // A challenge by command, with Accept / Decline buttons.
    let challenge = say(
        &fake,
        &group,
        None,
        &alice,
        &format!("/play @bob asian red {PERPETUAL}"),
        |c| c.is("sendMessage"),
    )
    .await;
    let text = said(&challenge);
    // Bob has not written yet: he is named by the handle Alice typed.
    assert!(text.starts_with("Alice challenges @bob:"), "{text}");
    assert!(text.contains("Asian (AXF/WXF) rules"), "{text}");
    let accept = button(&challenge, |a| matches!(a, Action::Accept { .. }));
    button(&challenge, |a| matches!(a, Action::Decline { .. }));
    let challenge_id = challenge.message_id.expect("message id");

    // Someone else's tap is refused privately; the buttons stay.
    let refusal = tap(&fake, &group, &carol, challenge_id, &accept).await;
    assert_eq!(refusal, "This challenge is for @bob, not you.");
    assert!(!fake
        .message(group.id, challenge_id)
        .unwrap()
        .buttons()
        .is_empty());

    // Bob accepts by button: the buttons go, the board comes.
    let mark = fake.mark();
    assert_eq!(tap(&fake, &group, &bob, challenge_id, &accept).await, "");
    let start = board_after(&fake, mark, &group, "begins: Alice (Red) vs Bob (Black)").await;
    expect_call(&fake, mark, "the used keyboard removed", |c| {
        c.is("editMessageReplyMarkup") && c.message_id == Some(challenge_id)
    })
    .await;
    assert!(fake
        .message(group.id, challenge_id)
        .unwrap()
        .buttons()
        .is_empty());
    assert!(
        said(&start).contains("Alice (Red) to move."),
        "{}",
        said(&start)
    );
    let game = match Action::decode(&button(&start, |a| matches!(a, Action::Pick { .. }))) {
        Some(Action::Pick { game, .. }) => game,
        other => panic!("{other:?}"),
    };
    let labels: Vec<String> = start.buttons().into_iter().map(|b| b.0).collect();
    assert_eq!(
        labels,
        ["Pick a move", "Offer draw", "Resign", "Flip board"]
    );

    // Moves typed in WXF, Chinese and Vietnamese.
    play(&fake, &group, &alice, "R2+1", "1. Alice: R2+1 (h8h9)").await;
    play(&fake, &group, &bob, "将6进1", "2. Bob: |(f9f8)").await;
    let third = play(&fake, &group, &alice, "X2/1", "3. Alice: |(h9h8)").await;
    assert!(
        said(&third).contains("Bob (Black) to move"),
        "{}",
        said(&third)
    );

    // Black's reply through the picker: the piece, then its target.
    let board_id = third.message_id.unwrap();
    let pick = button(&third, |a| matches!(a, Action::Pick { ply: 3, .. }));
    let refusal = tap(&fake, &group, &carol, board_id, &pick).await;
    assert_eq!(refusal, "That button is for the players of this game.");
    let mark = fake.mark();
    assert_eq!(tap(&fake, &group, &bob, board_id, &pick).await, "");
    let picker = expect_call(&fake, mark, "the picker", |c| c.is("sendMessage")).await;
    assert_eq!(said(&picker), "Bob, pick the piece to move:");
    let general = button(
        &picker,
        |a| matches!(a, Action::PickFrom { from, .. } if from.to_string() == "f8"),
    );
    let picker_id = picker.message_id.unwrap();
    let mark = fake.mark();
    tap(&fake, &group, &bob, picker_id, &general).await;
    let step = expect_call(&fake, mark, "the picker's second step", |c| {
        c.is("editMessageText") && c.message_id == Some(picker_id)
    })
    .await;
    assert!(
        said(&step).starts_with("Bob: where should the general f8 go?"),
        "{}",
        said(&step)
    );
    let targets: Vec<String> = step.buttons().into_iter().map(|b| b.0).collect();
    assert!(targets.contains(&"Back".to_string()), "{targets:?}");
    let to_f9 = button(
        &step,
        |a| matches!(a, Action::PickTo { mv, .. } if mv.to_string() == "f8f9"),
    );
    let mark = fake.mark();
    tap(&fake, &group, &bob, picker_id, &to_f9).await;
    let fourth = board_after(&fake, mark, &group, "4. Bob: |(f8f9)").await;
    expect_call(&fake, mark, "the picker closed", |c| {
        c.is("editMessageReplyMarkup") && c.message_id == Some(picker_id)
    })
    .await;
    // The same tap again is stale.
    let stale = tap(&fake, &group, &bob, picker_id, &to_f9).await;
    assert_eq!(
        stale,
        "That button belongs to an earlier position; use the latest message."
    );
    assert!(said(&fourth).contains("Alice (Red) to move"));

    // The rest typed: a command with ICCS, a bare ICCS move, Chinese, Chinese for Black.
    play(&fake, &group, &alice, "/move h8h9", "5. Alice: h8h9\n").await;
    play(&fake, &group, &bob, "f9f8", "6. Bob: f9f8\n").await;
    play(&fake, &group, &alice, "车二退一", "7. Alice: |(h9h8)").await;
    let mark = fake.mark();
    fake.push_message(&group, &bob, "将6退1", None);
    let last = board_after(&fake, mark, &group, "8. Bob: |(f8f9)").await;
    let pgn = expect_call(&fake, mark, "the PGN", |c| {
        c.is("sendMessage") && said(c).contains("[Game \"Chinese Chess\"]")
    })
    .await;
    let ending: String = since(&fake, mark)
        .iter()
        .filter(|c| c.seq < pgn.seq)
        .map(said)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(ending.contains("Game over: Black wins"), "{ending}");
    assert!(
        ending.to_lowercase().contains("perpetual check"),
        "{ending}"
    );
    // Under a finished game only Rematch (the bot does not play here).
    let data = last.callback_data();
    assert!(
        data.len() == 1 && matches!(Action::decode(&data[0]), Some(Action::Rematch { .. })),
        "only Rematch under a finished game: {:?}",
        last.buttons()
    );
    assert!(said(&pgn).contains("0-1"), "{}", said(&pgn));

    // /pgn afterwards.
    let again = say(&fake, &group, None, &alice, "/pgn", |c| {
        c.is("sendMessage") && said(c).contains("[Game \"Chinese Chess\"]")
    })
    .await;
    assert!(
        said(&again).contains("[Result \"0-1\"]"),
        "{}",
        said(&again)
    );
    assert!(said(&again).contains("R2+1"), "WXF moves: {}", said(&again));

    // /gif: the replay as an animation, one frame for the start and one per ply.
    let replay = say(&fake, &group, None, &bob, "/gif", |c| c.is("sendAnimation")).await;
    let (w, h, frames) = gif_frames(replay.animation.as_deref().expect("the GIF upload"));
    assert_eq!(
        (w, h),
        (
            xiangqi_bot::render::Layout::GIF.width(),
            xiangqi_bot::render::Layout::GIF.height()
        )
    );
    assert_eq!(frames, 9, "the start and eight plies");
    assert!(
        said(&replay).contains("8 plies"),
        "caption: {}",
        said(&replay)
    );

    // Every call: photos are PNGs within limits, keyboards within limits, nothing else.
    bot.stop().await;
    let calls = fake.sent();
    check_every_call(&calls);
    let count = |m: &str| {
        calls
            .iter()
            .filter(|c| c.is(m) && c.chat_id == Some(group.id))
            .count()
    };
    assert_eq!(count("sendPhoto"), 9, "the start and eight moves");
    assert_eq!(count("sendAnimation"), 1, "the /gif replay");
    // Challenge, picker, final PGN, /pgn (and the spill of a long final caption, if any).
    let messages = count("sendMessage");
    assert!((4..=5).contains(&messages), "{messages} messages");
    assert_eq!(count("editMessageText"), 1);
    assert_eq!(count("editMessageReplyMarkup"), 2);
    assert_eq!(fake.answered_callbacks().len(), 7);
    let _ = game;

    // The menus in three languages, and button presses asked for.
    let sets = fake.commands();
    for code in ["", "vi", "en", "zh"] {
        let set = sets
            .iter()
            .find(|s| s.language_code == code)
            .unwrap_or_else(|| panic!("no menu for {code:?}"));
        assert_eq!(
            set.commands.len(),
            xiangqi_bot::app::Cmd::ALL.len(),
            "{code}"
        );
        assert!(set.commands.iter().any(|(c, _)| c == "play"));
    }
    let vi = sets.iter().find(|s| s.language_code == "vi").unwrap();
    assert!(
        vi.commands[0].1.starts_with("Thách đấu"),
        "{:?}",
        vi.commands[0]
    );
    let zh = sets.iter().find(|s| s.language_code == "zh").unwrap();
    assert!(
        zh.commands[0].1.starts_with("发起挑战"),
        "{:?}",
        zh.commands[0]
    );
    let allowed = &fake.polls()[0]["allowed_updates"];
    assert!(
        allowed
            .as_array()
            .unwrap()
            .contains(&json!("callback_query")),
        "{allowed}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn flood_control_delays_only_that_chat_and_loses_nothing() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let bot = Running::start(&fake, dir.path()).await;
    let busy = FakeChat::group(-4_000_000_002, "Busy");
    let quiet = FakeChat::group(-4_000_000_003, "Quiet");
    let (alice, bob) = (alice(), bob());
    start_game(&fake, &busy, None, &alice, &bob).await;

    // Telegram answers the next board with 429, retry after 3 s.
    fake.fail_next("sendPhoto", 429, Some(3));
    let mark = fake.mark();
    fake.push_message(&busy, &alice, "h2e2", None);
    let refused = fake
        .wait_for_call(
            |c| c.seq >= mark && c.is("sendPhoto") && !c.ok,
            Duration::from_secs(10),
        )
        .await
        .expect("the 429");
    assert_eq!(refused.status, 429);
    let limited_at = Instant::now();
    // The move was stored before the reply: Bob can answer at once.
    fake.push_message(&busy, &bob, "h9g7", None);
    // Another chat is not held up.
    let help = say(&fake, &quiet, None, &alice, "/help", |c| {
        c.is("sendMessage")
    })
    .await;
    assert!(said(&help).contains("/play"));
    assert!(
        limited_at.elapsed() < Duration::from_millis(2500),
        "the quiet chat waited {:?}",
        limited_at.elapsed()
    );
    let first = board_after(&fake, mark, &busy, "1. Alice: h2e2\n").await;
    assert!(
        limited_at.elapsed() >= Duration::from_millis(2900),
        "retry_after was not honoured: {:?}",
        limited_at.elapsed()
    );
    let second = board_after(&fake, mark, &busy, "2. Bob: h9g7\n").await;
    assert!(first.seq < second.seq, "order kept");
    assert!(help.seq < first.seq, "the quiet chat went first");
    bot.stop().await;
    check_every_call(&fake.sent());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_games_in_one_group_at_once() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let group = FakeChat::supergroup(-1_004_000_000_033, "Busy club");
    let (alice, bob, carol) = (alice(), bob(), carol());
    let dave = user(1004, "Dave", "en");
    let bot = Running::start(&fake, dir.path()).await;
    start_game(&fake, &group, None, &alice, &bob).await;
    // A second pair starts beside the first; each board names its game.
    let second = start_game(&fake, &group, None, &carol, &dave).await;
    assert!(
        said(&second).contains("Game #2 begins"),
        "{}",
        said(&second)
    );
    play(&fake, &group, &alice, "h2e2", "Game #1 · 1. Alice: h2e2").await;
    let board = play(
        &fake,
        &group,
        &carol,
        "C8.5",
        "Game #2 · 1. Carol: C8.5 (b2e2)",
    )
    .await;
    play(&fake, &group, &bob, "h9g7", "Game #1 · 2. Bob: h9g7").await;
    // Dave's button under game 2's board acts on game 2 (a move in game 1 came since).
    let pick = button(&board, |a| matches!(a, Action::Pick { game: 2, ply: 1 }));
    let mark = fake.mark();
    assert_eq!(
        tap(&fake, &group, &dave, board.message_id.unwrap(), &pick).await,
        ""
    );
    expect_call(&fake, mark, "game 2's picker", |c| c.is("sendMessage")).await;
    play(&fake, &group, &dave, "h9g7", "Game #2 · 2. Dave: h9g7").await;
    // Someone in neither game is asked which one to show, and names it.
    let eve = user(1005, "Eve", "en");
    let which = say(&fake, &group, None, &eve, "/board", |c| c.is("sendMessage")).await;
    assert!(
        said(&which).contains("#1: Alice – Bob") && said(&which).contains("#2: Carol – Dave"),
        "{}",
        said(&which)
    );
    let mark = fake.mark();
    fake.push_message(&group, &eve, "/board 2", None);
    board_after(
        &fake,
        mark,
        &group,
        "Game #2 · Carol (Red) vs Dave (Black), after 2 plies",
    )
    .await;
    bot.stop().await;
    check_every_call(&fake.sent());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_group_that_becomes_a_supergroup_keeps_its_game() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let group = FakeChat::group(-4_000_000_005, "Small club");
    let supergroup = FakeChat::supergroup(-1_004_000_000_005, "Small club");
    let (alice, bob) = (alice(), bob());
    let bot = Running::start(&fake, dir.path()).await;
    start_game(&fake, &group, None, &alice, &bob).await;
    fake.make_admin(&group, &alice);
    say(&fake, &group, None, &alice, "/lang vi", |c| {
        c.is("sendMessage")
    })
    .await;
    play(&fake, &group, &alice, "h2e2", "1. Alice: h2e2\n").await;

    fake.push_migration(&group, &supergroup, &alice);
    // The game, its language and its turn are in the new chat; the move is answered there.
    let board = play(&fake, &supergroup, &bob, "h9g7", "2. Bob: h9g7\n").await;
    assert!(said(&board).contains("lượt"), "{}", said(&board));
    let fen = say(&fake, &supergroup, None, &alice, "/fen", |c| {
        c.is("sendMessage")
    })
    .await;
    assert!(said(&fen).contains(" w "), "{}", said(&fen));
    bot.stop().await;
    let calls = fake.calls();
    assert!(
        calls
            .iter()
            .filter(|c| c.chat_id == Some(group.id))
            .all(|c| c.ok),
        "nothing was sent to the old chat after the move"
    );
    check_every_call(&fake.sent());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_mid_game_resumes_it_and_old_buttons_still_work() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let group = FakeChat::supergroup(-1_004_000_000_004, "Restart club");
    let (alice, bob) = (alice(), bob());
    let bot = Running::start(&fake, dir.path()).await;
    let first = start_game(&fake, &group, None, &alice, &bob).await;
    let board = play(&fake, &group, &alice, "C2.5", "1. Alice: C2.5 (h2e2)").await;
    bot.stop().await;

    // A new service and dispatcher on the same database.
    let bot = Running::start(&fake, dir.path()).await;
    let pick = button(&board, |a| matches!(a, Action::Pick { ply: 1, .. }));
    let mark = fake.mark();
    assert_eq!(
        tap(&fake, &group, &bob, board.message_id.unwrap(), &pick).await,
        ""
    );
    let picker = expect_call(&fake, mark, "the picker", |c| c.is("sendMessage")).await;
    let horse = button(
        &picker,
        |a| matches!(a, Action::PickFrom { from, .. } if from.to_string() == "h9"),
    );
    let mark = fake.mark();
    tap(&fake, &group, &bob, picker.message_id.unwrap(), &horse).await;
    let step = expect_call(&fake, mark, "targets", |c| c.is("editMessageText")).await;
    let to_g7 = button(
        &step,
        |a| matches!(a, Action::PickTo { mv, .. } if mv.to_string() == "h9g7"),
    );
    let mark = fake.mark();
    tap(&fake, &group, &bob, picker.message_id.unwrap(), &to_g7).await;
    board_after(&fake, mark, &group, "2. Bob: H8+7 (h9g7)").await;
    // The very first board's buttons are stale now, politely.
    let old = button(&first, |a| matches!(a, Action::Pick { ply: 0, .. }));
    let stale = tap(&fake, &group, &alice, first.message_id.unwrap(), &old).await;
    assert!(stale.contains("earlier position"), "{stale}");
    play(&fake, &group, &alice, "h0g2", "3. Alice: h0g2\n").await;
    bot.stop().await;
    check_every_call(&fake.sent());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forum_topics_are_separate_channels_and_a_confirmation_is_for_its_asker() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let bot = Running::start(&fake, dir.path()).await;
    let forum = FakeChat::forum(-1_005_000_000_005, "Topics");
    let (alice, bob, carol) = (alice(), bob(), carol());
    let dave = user(1004, "Dave", "en");
    let in_3 = start_game(&fake, &forum, Some(3), &alice, &bob).await;
    let in_5 = start_game(&fake, &forum, Some(5), &carol, &dave).await;
    assert_eq!(in_3.thread_id, Some(3));
    assert_eq!(in_5.thread_id, Some(5));
    let id = |c: &SentCall| match Action::decode(&button(c, |a| matches!(a, Action::Pick { .. }))) {
        Some(Action::Pick { game, .. }) => game,
        _ => 0,
    };
    assert_ne!(id(&in_3), id(&in_5), "two games");
    // Alice is not a player in topic 5.
    let refused = say(&fake, &forum, Some(5), &alice, "/move h2e2", |c| {
        c.is("sendMessage")
    })
    .await;
    assert_eq!(refused.thread_id, Some(5));
    assert!(said(&refused).contains("between Carol (Red) and Dave (Black)"));
    let moved = say(&fake, &forum, Some(3), &alice, "h2e2", |c| {
        c.is("sendPhoto")
    })
    .await;
    assert_eq!(moved.thread_id, Some(3));
    assert!(said(&moved).contains("1. Alice: "), "{}", said(&moved));

    // Resigning asks first, in the topic, and only the asker can confirm.
    let resign = button(&moved, |a| matches!(a, Action::Resign { .. }));
    let mark = fake.mark();
    fake.push_callback(&forum, &bob, moved.message_id.unwrap(), &resign);
    let question = expect_call(&fake, mark, "the confirmation", |c| {
        c.is("sendMessage") && c.thread_id == Some(3)
    })
    .await;
    assert_eq!(said(&question), "Bob: Do you really want to resign?");
    let confirm = button(&question, |a| matches!(a, Action::ConfirmResign { .. }));
    assert!(confirm.ends_with("|1002"), "{confirm}");
    let qid = question.message_id.unwrap();
    let other = tap(&fake, &forum, &alice, qid, &confirm).await;
    assert_eq!(other, "That button is meant for someone else, not you.");
    let mark = fake.mark();
    tap(&fake, &forum, &bob, qid, &confirm).await;
    let over = board_after(&fake, mark, &forum, "Game over: Red wins").await;
    assert_eq!(over.thread_id, Some(3));
    expect_call(&fake, mark, "the PGN in the topic", |c| {
        c.is("sendMessage") && c.thread_id == Some(3) && said(c).contains("[Result \"1-0\"]")
    })
    .await;
    // The game in topic 5 goes on.
    let on = say(&fake, &forum, Some(5), &carol, "h2e2", |c| {
        c.is("sendPhoto")
    })
    .await;
    assert_eq!(on.thread_id, Some(5));
    bot.stop().await;
    check_every_call(&fake.sent());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn language_follows_language_code_until_lang_is_set() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let bot = Running::start(&fake, dir.path()).await;
    let minh = user(2001, "Minh", "vi");
    let li = user(2002, "Li", "zh-hans");
    let dm = FakeChat::private(&minh);
    let help = say(&fake, &dm, None, &minh, "/start", |c| c.is("sendMessage")).await;
    assert!(said(&help).starts_with("Máy cờ tướng"), "{}", said(&help));
    let zh = say(&fake, &FakeChat::private(&li), None, &li, "/help", |c| {
        c.is("sendMessage")
    })
    .await;
    assert!(said(&zh).starts_with("象棋电脑"), "{}", said(&zh));
    say(&fake, &dm, None, &minh, "/lang en", |c| c.is("sendMessage")).await;
    let help = say(&fake, &dm, None, &minh, "/help", |c| c.is("sendMessage")).await;
    assert!(said(&help).starts_with("Xiangqi bot"), "{}", said(&help));

    // Commands for another bot are not ours; ours with our name are.
    let group = FakeChat::group(-4_000_000_006, "Two bots");
    let mark = fake.mark();
    fake.push_message(&group, &minh, "/help@other_bot", None);
    say(&fake, &group, None, &minh, "/help@Xiangqi_Test_Bot", |c| {
        c.is("sendMessage")
    })
    .await;
    let answers = since(&fake, mark)
        .into_iter()
        .filter(|c| c.chat_id == Some(group.id))
        .count();
    assert_eq!(answers, 1, "only the second /help answered");

    // A user without a username, picked from the mention list (a text_mention).
    let tuan = FakeUser::new(2003, "Tuấn Anh").language_code("vi");
    fake.register_chat(&group);
    let text = "/play Tuấn Anh red";
    let mark = fake.mark();
    fake.push_raw_update(json!({
        "message": {
            "message_id": 900,
            "date": 1_700_000_000,
            "chat": {"id": group.id, "type": "group", "title": "Two bots"},
            "from": {"id": minh.id, "is_bot": false, "first_name": "Minh", "username": "minh",
                     "language_code": "vi"},
            "text": text,
            "entities": [
                {"type": "bot_command", "offset": 0, "length": 5},
                {"type": "text_mention", "offset": 6, "length": 8,
                 "user": {"id": tuan.id, "is_bot": false, "first_name": "Tuấn Anh"}}
            ]
        }
    }));
    let challenge = expect_call(&fake, mark, "the challenge", |c| c.is("sendMessage")).await;
    assert!(
        said(&challenge).contains("Tuấn Anh"),
        "{}",
        said(&challenge)
    );
    let accept = button(&challenge, |a| matches!(a, Action::Accept { .. }));
    let mark = fake.mark();
    tap(&fake, &group, &tuan, challenge.message_id.unwrap(), &accept).await;
    let board = board_after(&fake, mark, &group, "Tuấn Anh").await;
    assert!(said(&board).contains("Minh"), "{}", said(&board));
    bot.stop().await;
    check_every_call(&fake.sent());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_garbled_answer_is_retried_and_a_lapsed_challenge_is_announced() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let config = ServiceConfig {
        challenge_ttl_ms: 600,
        ..ServiceConfig::default()
    };
    let bot = Running::start_with(&fake, dir.path(), config).await;
    let group = FakeChat::group(-4_000_000_007, "Proxy trouble");
    let alice = alice();

    // Something between the bot and Telegram answers garbage: the message is sent again.
    fake.fail_next_raw("sendMessage", 400, "<html>proxy error</html>");
    let mark = fake.mark();
    fake.push_message(&group, &alice, "/play", None);
    let failed = fake
        .wait_for_call(|c| c.seq >= mark && !c.ok, Duration::from_secs(10))
        .await
        .expect("the garbled answer");
    assert!(failed.is("sendMessage"));
    let challenge = expect_call(&fake, mark, "the challenge, again", |c| {
        c.is("sendMessage") && said(c).contains("challenges anyone")
    })
    .await;
    assert!(challenge.seq > failed.seq);

    // Nobody accepts: the timer's notice comes through the service's subscription.
    let lapsed = expect_call(&fake, mark, "the lapse", |c| {
        c.is("sendMessage") && said(c).contains("has lapsed")
    })
    .await;
    assert_eq!(lapsed.chat_id, Some(group.id));
    bot.stop().await;
    check_every_call(&fake.sent());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_error_is_retried_and_the_board_still_arrives() {
    // A 502 from Telegram (or a proxy) on the board: the move is stored, and the board is sent
    // again until it goes through.
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let group = FakeChat::group(-4_000_000_008, "Bad gateway");
    let (alice, bob) = (alice(), bob());
    let bot = Running::start(&fake, dir.path()).await;
    start_game(&fake, &group, None, &alice, &bob).await;
    fake.fail_next("sendPhoto", 502, None);
    let mark = fake.mark();
    let started = Instant::now();
    fake.push_message(&group, &alice, "h2e2", None);
    let failed = fake
        .wait_for_call(|c| c.seq >= mark && !c.ok, Duration::from_secs(10))
        .await
        .expect("the 502");
    assert!(failed.is("sendPhoto") && failed.status == 502, "{failed:?}");
    let board = board_after(&fake, mark, &group, "1. Alice: h2e2\n").await;
    assert!(board.seq > failed.seq, "sent again after the error");
    // The send queue's own pause (50 ms in these tests) decides when to send again: not
    // teloxide's 10 s after any 5xx (DELAY_ON_SERVER_ERROR in teloxide-core), which the
    // adapter's own HTTP calls do not go through.
    let waited = started.elapsed();
    assert!(waited < Duration::from_secs(9), "{waited:?}");
    bot.stop().await;
    check_every_call(&fake.sent());
}

/// The binary with `TELEGRAM_BOT_TOKEN` set runs the adapter (not the console), answers, and
/// stops cleanly on ctrl-c (SIGINT) without ever printing the token.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_runs_telegram_and_stops_on_ctrl_c() {
    use std::process::{Command, Stdio};
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let mut child = Command::new(env!("CARGO_BIN_EXE_xiangqi-bot"))
        .env("TELEGRAM_BOT_TOKEN", TOKEN)
        .env("TELEGRAM_API_URL", fake.url())
        .env("DATA_DIR", dir.path())
        .env("RUST_LOG", "debug")
        .env_remove("DISCORD_TOKEN")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the binary");
    let alice = alice();
    let dm = FakeChat::private(&alice);
    let help = say(&fake, &dm, None, &alice, "/help", |c| c.is("sendMessage")).await;
    assert!(said(&help).starts_with("Xiangqi bot"), "{}", said(&help));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill -INT");
    assert!(sent.success());
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        assert!(Instant::now() < deadline, "the bot did not stop on ctrl-c");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let out = child.wait_with_output().expect("output");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(status.success(), "{status:?}: {stderr}");
    assert!(out.stdout.is_empty(), "no console chat");
    assert!(stderr.contains("Telegram: stopped"), "{stderr}");
    assert!(
        !stderr.contains("TEST-token_abc"),
        "the token leaked: {stderr}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_in_a_group_from_its_entry_list_to_its_winner() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let group = FakeChat::supergroup(-1_004_000_000_077, "Tournament club");
    let (alice, bob) = (alice(), bob());
    let owner = user(1077, "Owner", "en");
    fake.make_owner(&group, &owner);
    let bot = Running::start(&fake, dir.path()).await;
    // Only the group's administrators make one (Telegram is asked who they are).
    let refused = say(
        &fake,
        &group,
        None,
        &alice,
        "/tournament swiss rounds 1 3+2",
        |c| c.is("sendMessage"),
    )
    .await;
    assert!(
        said(&refused).contains("Only this group's administrators make, start and call off"),
        "{}",
        said(&refused)
    );
    let list = say(
        &fake,
        &group,
        None,
        &owner,
        "/tournament swiss rounds 1 3+2",
        |c| c.is("sendMessage") && said(c).contains("Tournament #1"),
    )
    .await;
    // Alice joins with the button under the list, Bob by command.
    let join = button(&list, |a| matches!(a, Action::TournamentJoin { id: 1 }));
    let mark = fake.mark();
    tap(&fake, &group, &alice, list.message_id.unwrap(), &join).await;
    expect_call(&fake, mark, "Alice joins", |c| {
        said(c).contains("Alice joins tournament #1")
    })
    .await;
    say(&fake, &group, None, &bob, "/tournament join", |c| {
        said(c).contains("Players (2): Alice, Bob")
    })
    .await;
    // The start pairs them; the game is played as any game in the group.
    let mark = fake.mark();
    fake.push_message(&group, &owner, "/tournament start", None);
    expect_call(&fake, mark, "round 1", |c| said(c).contains("round 1 of 1")).await;
    let first = board_after(
        &fake,
        mark,
        &group,
        "Tournament #1, round 1|Game #1 begins: Alice (Red) vs Bob (Black)",
    )
    .await;
    // Both players are called to their board: Telegram mentions of the two, on its first line.
    let caption = first.caption.clone().unwrap_or_default();
    assert!(caption.starts_with("🔔 Alice, Bob\n"), "{caption}");
    let entities: serde_json::Value = serde_json::from_str(
        first.params["caption_entities"]
            .as_str()
            .expect("caption entities"),
    )
    .expect("json");
    let mentioned: Vec<(i64, i64, i64)> = entities
        .as_array()
        .expect("a list")
        .iter()
        .map(|e| {
            assert_eq!(e["type"], "text_mention");
            (
                e["user"]["id"].as_i64().expect("id"),
                e["offset"].as_i64().expect("offset"),
                e["length"].as_i64().expect("length"),
            )
        })
        .collect();
    assert_eq!(
        mentioned,
        vec![(alice.id, 3, 5), (bob.id, 10, 3)],
        "{caption}"
    );
    play(&fake, &group, &alice, "h2e2", "1. Alice: h2e2").await;
    let mark = fake.mark();
    fake.push_message(&group, &bob, "/resign", None);
    let over = expect_call(&fake, mark, "the winner", |c| {
        said(c).contains("is over: Alice wins")
    })
    .await;
    assert!(said(&over).contains("1. Alice: 1"), "{}", said(&over));
    // The final table comes as a picture with it.
    assert!(over.is("sendPhoto"), "{over:?}");
    let (w, _) = telegram_harness::png_size(over.photo.as_deref().expect("the standings picture"));
    assert_eq!(w, 1080);
    bot.stop().await;
    check_every_call(&fake.sent());
}

/// The games whose first boards were posted in `chat` since `mark`: (number, red, black).
fn boards_since(fake: &FakeTelegram, mark: u64, chat: &FakeChat) -> Vec<(u64, String, String)> {
    since(fake, mark)
        .iter()
        .filter(|c| c.is("sendPhoto") && c.chat_id == Some(chat.id))
        .flat_map(|c| crate::begun::begun(&said(c)))
        .collect()
}

/// A six-player arena of five minutes on a 10+0 clock, through the real adapter: three games
/// at the start, each finished game's players paired again at once, the top of the table after
/// every game, a streak after two wins; when its time is up nobody is paired again and the
/// games being played still count; the end posts the table as a picture with the podium.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_six_player_arena_in_a_group() {
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let group = FakeChat::supergroup(-1_004_000_000_078, "Arena club");
    let owner = user(1078, "Owner", "en");
    fake.make_owner(&group, &owner);
    let start = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("time")
        .as_millis() as u64;
    let clock = Arc::new(AtomicU64::new(start));
    let now = {
        let clock = Arc::clone(&clock);
        Arc::new(move || clock.load(Ordering::SeqCst))
    };
    let bot = Running::start_clocked(&fake, dir.path(), now).await;
    say(
        &fake,
        &group,
        None,
        &owner,
        "/tournament arena minutes 5 10+0",
        |c| said(c).contains("Tournament #1: arena, 5 min"),
    )
    .await;
    let players: Vec<FakeUser> = (1..=6)
        .map(|i| user(2000 + i, &format!("P{i}"), "en"))
        .collect();
    for p in &players {
        say(&fake, &group, None, p, "/tournament join", |c| {
            said(c).contains(&format!("{} joins tournament #1", p.first_name))
        })
        .await;
    }
    let by_name = |name: &str| {
        players
            .iter()
            .find(|p| p.first_name == name)
            .expect("a player")
            .clone()
    };
    let mark = fake.mark();
    fake.push_message(&group, &owner, "/tournament start", None);
    expect_call(&fake, mark, "the start", |c| {
        said(c).contains("Tournament #1 begins: arena, 5 min, 6 players")
    })
    .await;
    let mut games = Vec::new();
    for _ in 0..50 {
        games = boards_since(&fake, mark, &group);
        if games.len() == 3 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(games.len(), 3, "three games at the start");
    // Both sides make a first move in each new game (else it is lost by default in two
    // minutes, and the clock is moved by minutes below).
    let open = |game: (u64, String, String)| {
        let fake = &fake;
        let group = &group;
        let by_name = &by_name;
        async move {
            let (n, red, black) = game;
            play(
                fake,
                group,
                &by_name(&red),
                "h2e2",
                &format!("Game #{n} · 1. {red}: h2e2"),
            )
            .await;
            play(
                fake,
                group,
                &by_name(&black),
                "h9g7",
                &format!("Game #{n} · 2. {black}: h9g7"),
            )
            .await;
        }
    };
    for g in &games {
        open(g.clone()).await;
    }
    // A game ends by a resignation: the top of the table is posted; what begins then.
    let end = |loser: String| {
        let fake = &fake;
        let group = &group;
        let by_name = &by_name;
        async move {
            let mark = fake.mark();
            fake.push_message(group, &by_name(&loser), "/resign", None);
            let top = expect_call(fake, mark, "the top of the table", |c| {
                said(c).starts_with("Tournament #1: ")
            })
            .await;
            // Any pairing is posted with the same end.
            tokio::time::sleep(Duration::from_millis(300)).await;
            (said(&top), boards_since(fake, mark, group))
        }
    };
    // The first games end one by one (Black resigns). Two players who just met wait for
    // others: the first end pairs nobody, the second pairs its four players anew, the third's
    // two wait.
    let (_, new) = end(games[0].2.clone()).await;
    assert!(new.is_empty(), "{new:?}");
    let (_, mut running) = end(games[1].2.clone()).await;
    assert_eq!(running.len(), 2, "{running:?}");
    for g in &running {
        open(g.clone()).await;
    }
    let (top, new) = end(games[2].2.clone()).await;
    assert!(new.is_empty(), "{new:?}");
    assert!(top.contains(" 2 · "), "{top}");
    // The game of two winners: its winner has two in a row (a streak), and the four free
    // players are paired.
    let winners = [games[0].1.clone(), games[1].1.clone()];
    let k = running
        .iter()
        .position(|(_, r, b)| winners.contains(r) && winners.contains(b))
        .expect("the winners meet");
    let (_, _, black) = running.remove(k);
    let (top, new) = end(black).await;
    assert!(top.contains(" 4 🔥"), "a streak: {top}");
    assert_eq!(new.len(), 2, "{new:?}");
    for g in &new {
        open(g.clone()).await;
    }
    running.extend(new);
    assert_eq!(running.len(), 3);
    // Time is up: the three games being played still count; nobody is paired again.
    clock.store(start + 5 * 60_000 + 1_000, Ordering::SeqCst);
    let mark = fake.mark();
    let due = bot.service.process_due(start + 5 * 60_000 + 1_000).await;
    assert!(due.is_ok(), "{due:?}");
    expect_call(&fake, mark, "time is up", |c| {
        said(c).contains("Tournament #1: time is up.")
            && said(c).contains("the 3 games being played still count")
    })
    .await;
    let mark = fake.mark();
    for (_, _, black) in running {
        fake.push_message(&group, &by_name(&black), "/resign", None);
    }
    let over = expect_call(&fake, mark, "the end", |c| said(c).contains("is over:")).await;
    assert!(over.is("sendPhoto"), "the final table comes as a picture");
    let (w, _) = telegram_harness::png_size(over.photo.as_deref().expect("picture"));
    assert_eq!(w, 1080);
    let text = said(&over);
    assert!(text.contains("Congratulations to 🥇"), "{text}");
    assert!(text.contains("🔥"), "{text}");
    assert!(
        boards_since(&fake, mark, &group).is_empty(),
        "no game after the time"
    );
    bot.stop().await;
    check_every_call(&fake.sent());
}
