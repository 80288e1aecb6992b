//! What players noticed, on Telegram: the real adapter (teloxide's dispatcher, long polling)
//! against the fake Bot API server, the real service on sled. One-time questions tapped by
//! their asker, challenges naming people, pickers (one live per player, none left with dead
//! buttons), a game's language, the end of a game (one headline, the rules by name, the last
//! move as typed).

use crate::telegram_fake;
use crate::telegram_harness;

use std::time::Duration;

use telegram_fake::{FakeChat, FakeTelegram, FakeUser, SentCall};
use telegram_harness::{
    board_after, button, check_every_call, expect_call, play, said, say, since, tap, Running,
    TOKEN, WAIT,
};
use xiangqi_bot::app::Action;
use xiangqi_bot::core::{Move, Position};
use xiangqi_bot::notation::{format_move, Notation};

fn user(id: i64, name: &str, lang: &str) -> FakeUser {
    FakeUser::new(id, name)
        .username(&name.to_lowercase())
        .language_code(lang)
}

/// Waits until the message has no buttons left (its keyboard was taken away).
async fn buttons_gone(fake: &FakeTelegram, chat: &FakeChat, message_id: i32) {
    let gone = fake
        .wait_for(
            |c| c.is("editMessageReplyMarkup") && c.message_id == Some(message_id) && c.ok,
            WAIT,
        )
        .await;
    assert!(gone.is_some(), "the buttons of message {message_id} stayed");
    let m = fake.message(chat.id, message_id).expect("the message");
    assert!(m.buttons().is_empty(), "{:?}", m.buttons());
}

/// Nothing was posted in `chat` since `mark` (a refusal is only the tap's answer).
fn nothing_posted(fake: &FakeTelegram, mark: u64, chat: &FakeChat) {
    let posted: Vec<SentCall> = since(fake, mark)
        .into_iter()
        .filter(|c| c.chat_id == Some(chat.id) && !c.is("answerCallbackQuery"))
        .collect();
    assert!(posted.is_empty(), "{posted:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn questions_tapped_by_their_asker_are_refused_privately_and_stay() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let bot = Running::start(&fake, dir.path()).await;
    let group = FakeChat::group(-4_100_000_001, "Club");
    let (alice, bob) = (user(1101, "Alice", "en"), user(1102, "Bob", "en"));
    fake.make_admin(&group, &alice);
    say(&fake, &group, None, &alice, "/takebacks on", |c| {
        c.is("sendMessage")
    })
    .await;
    // Bob has written before: the challenge names him as he calls himself.
    fake.push_message(&group, &bob, "hi all", None);
    let challenge = say(&fake, &group, None, &alice, "/play @bob red", |c| {
        c.is("sendMessage")
    })
    .await;
    assert!(
        said(&challenge).starts_with("Alice challenges Bob:"),
        "{}",
        said(&challenge)
    );
    let challenge_id = challenge.message_id.expect("id");
    let decline = button(&challenge, |a| matches!(a, Action::Decline { .. }));
    let mark = fake.mark();
    let refused = tap(&fake, &group, &alice, challenge_id, &decline).await;
    assert!(refused.contains("your own challenge"), "{refused}");
    nothing_posted(&fake, mark, &group);
    assert!(!fake
        .message(group.id, challenge_id)
        .unwrap()
        .buttons()
        .is_empty());
    let accept = button(&challenge, |a| matches!(a, Action::Accept { .. }));
    let mark = fake.mark();
    tap(&fake, &group, &bob, challenge_id, &accept).await;
    board_after(&fake, mark, &group, "Game #1 begins").await;
    buttons_gone(&fake, &group, challenge_id).await;
    let board = play(&fake, &group, &alice, "h2e2", "1. Alice: ").await;

    // Bob offers a draw by button; his own taps on the offer are refused, and it stands.
    let offer_draw = button(&board, |a| matches!(a, Action::Draw { .. }));
    let mark = fake.mark();
    tap(&fake, &group, &bob, board.message_id.unwrap(), &offer_draw).await;
    let offer = expect_call(&fake, mark, "the offer", |c| c.is("sendMessage")).await;
    assert!(
        said(&offer).starts_with("Bob offers a draw"),
        "{}",
        said(&offer)
    );
    let offer_id = offer.message_id.unwrap();
    let mark = fake.mark();
    for pick in [
        (|a: &Action| matches!(a, Action::Draw { .. })) as fn(&Action) -> bool,
        |a| matches!(a, Action::DeclineOffer { .. }),
    ] {
        let answer = tap(&fake, &group, &bob, offer_id, &button(&offer, pick)).await;
        assert!(
            answer.contains("already offered a draw") || answer.contains("your own draw offer"),
            "{answer}"
        );
    }
    nothing_posted(&fake, mark, &group);
    assert_eq!(fake.message(group.id, offer_id).unwrap().buttons().len(), 2);
    // Alice's Decline answers it: the offer loses its buttons.
    let mark = fake.mark();
    let decline = button(&offer, |a| matches!(a, Action::DeclineOffer { .. }));
    tap(&fake, &group, &alice, offer_id, &decline).await;
    expect_call(&fake, mark, "the answer", |c| {
        c.is("sendMessage") && said(c).contains("Alice declined the draw offer")
    })
    .await;
    buttons_gone(&fake, &group, offer_id).await;

    // Alice asks to take back; her own Allow is refused; Bob's works.
    let request = say(&fake, &group, None, &alice, "/takeback", |c| {
        c.is("sendMessage")
    })
    .await;
    let request_id = request.message_id.unwrap();
    let allow = button(&request, |a| matches!(a, Action::AcceptTakeback { .. }));
    let mark = fake.mark();
    let answer = tap(&fake, &group, &alice, request_id, &allow).await;
    assert!(answer.contains("your own takeback request"), "{answer}");
    nothing_posted(&fake, mark, &group);
    let mark = fake.mark();
    tap(&fake, &group, &bob, request_id, &allow).await;
    board_after(&fake, mark, &group, "Taken back").await;
    buttons_gone(&fake, &group, request_id).await;
    bot.stop().await;
    check_every_call(&fake.sent());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_live_picker_per_player_and_none_left_with_dead_buttons() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let bot = Running::start(&fake, dir.path()).await;
    let group = FakeChat::group(-4_100_000_002, "Pickers");
    let (alice, bob) = (user(1201, "Alice", "en"), user(1202, "Bob", "en"));
    say(&fake, &group, None, &alice, "/play @bob red", |c| {
        c.is("sendMessage")
    })
    .await;
    let board = say(&fake, &group, None, &bob, "/accept", |c| c.is("sendPhoto")).await;
    let board_id = board.message_id.unwrap();
    let pick = button(&board, |a| matches!(a, Action::Pick { .. }));

    // Pick a move, twice: the first picker loses its buttons, the second is the live one.
    let mark = fake.mark();
    tap(&fake, &group, &alice, board_id, &pick).await;
    let first = expect_call(&fake, mark, "a picker", |c| c.is("sendMessage")).await;
    assert_eq!(said(&first), "Alice, pick the piece to move:");
    let mark = fake.mark();
    tap(&fake, &group, &alice, board_id, &pick).await;
    let second = expect_call(&fake, mark, "another picker", |c| c.is("sendMessage")).await;
    buttons_gone(&fake, &group, first.message_id.unwrap()).await;
    let second_id = second.message_id.unwrap();
    assert!(!fake
        .message(group.id, second_id)
        .unwrap()
        .buttons()
        .is_empty());

    // The move typed instead: the open picker loses its dead buttons.
    play(&fake, &group, &alice, "h2e2", "1. Alice: ").await;
    buttons_gone(&fake, &group, second_id).await;

    // Bob's picker, used to move: its message says whose it is, and it is cleared once.
    let latest = fake
        .sent()
        .into_iter()
        .rev()
        .find(|c| c.is("sendPhoto"))
        .expect("a board");
    let pick = button(&latest, |a| matches!(a, Action::Pick { ply: 1, .. }));
    let mark = fake.mark();
    tap(&fake, &group, &bob, latest.message_id.unwrap(), &pick).await;
    let picker = expect_call(&fake, mark, "Bob's picker", |c| c.is("sendMessage")).await;
    assert_eq!(said(&picker), "Bob, pick the piece to move:");
    let picker_id = picker.message_id.unwrap();
    let horse = button(
        &picker,
        |a| matches!(a, Action::PickFrom { from, .. } if from.to_string() == "h9"),
    );
    let mark = fake.mark();
    tap(&fake, &group, &bob, picker_id, &horse).await;
    let step = expect_call(&fake, mark, "targets", |c| c.is("editMessageText")).await;
    assert!(
        said(&step).starts_with("Bob: where should the horse h9 go?"),
        "{}",
        said(&step)
    );
    let to = button(
        &step,
        |a| matches!(a, Action::PickTo { mv, .. } if mv.to_string() == "h9g7"),
    );
    let mark = fake.mark();
    tap(&fake, &group, &bob, picker_id, &to).await;
    board_after(&fake, mark, &group, "2. Bob: ").await;
    buttons_gone(&fake, &group, picker_id).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let clears = fake
        .sent()
        .iter()
        .filter(|c| c.is("editMessageReplyMarkup") && c.message_id == Some(picker_id))
        .count();
    assert_eq!(clears, 1);
    bot.stop().await;
    check_every_call(&fake.sent());
}

const PERPETUAL: &str = "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_speaks_its_language_and_ends_with_one_headline() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let bot = Running::start(&fake, dir.path()).await;
    let group = FakeChat::group(-4_100_000_003, "Câu lạc bộ");
    let (lan, li) = (user(1301, "Lan", "vi"), user(1302, "Li", "zh-hans"));
    fake.push_message(&group, &li, "你好", None);
    // Lan's challenge is in Vietnamese, with the rules by name; Li's answers do not change it.
    let challenge = say(
        &fake,
        &group,
        None,
        &lan,
        &format!("/play @li red asian {PERPETUAL}"),
        |c| c.is("sendMessage"),
    )
    .await;
    let text = said(&challenge);
    assert!(text.starts_with("Lan thách đấu Li:"), "{text}");
    assert!(text.contains("luật châu Á (AXF/WXF)"), "{text}");
    assert!(!text.contains("asian") && !text.contains('`'), "{text}");
    let start = say(&fake, &group, None, &li, "/accept", |c| c.is("sendPhoto")).await;
    assert!(said(&start).contains("Ván #1 bắt đầu"), "{}", said(&start));
    let labels: Vec<String> = start.buttons().into_iter().map(|b| b.0).collect();
    assert_eq!(labels[0], "Chọn nước đi");

    let moves = ["h8h9", "f9f8", "h9h8", "f8f9", "h8h9", "f9f8", "h9h8"];
    let mut pos = Position::from_fen(PERPETUAL).expect("fen");
    for (i, m) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { &lan } else { &li };
        let board = play(&fake, &group, who, m, &format!("{}. ", i + 1)).await;
        assert!(said(&board).contains("Đến lượt"), "{}", said(&board));
        pos.play(Move::parse_iccs(m).expect("iccs")).expect("legal");
    }
    // Li taps an older board's button: the refusal is in Li's language, privately.
    let old = fake
        .sent()
        .into_iter()
        .find(|c| c.is("sendPhoto") && said(c).contains("6. Li"))
        .expect("the board after ply 6");
    let pick = button(&old, |a| matches!(a, Action::Pick { .. }));
    let refusal = tap(&fake, &group, &li, old.message_id.unwrap(), &pick).await;
    assert!(refusal.contains("属于之前的局面"), "{refusal}");
    // Li's picker is posted in the group, so it speaks the game's language, not Li's app's.
    let latest = fake
        .sent()
        .into_iter()
        .find(|c| c.is("sendPhoto") && said(c).contains("7. Lan"))
        .expect("the board after ply 7");
    let pick = button(&latest, |a| matches!(a, Action::Pick { .. }));
    let mark = fake.mark();
    tap(&fake, &group, &li, latest.message_id.unwrap(), &pick).await;
    let picker = expect_call(&fake, mark, "Li's picker", |c| c.is("sendMessage")).await;
    assert_eq!(said(&picker), "Li, chọn quân muốn đi:");
    let chariot = button(&picker, |a| matches!(a, Action::PickFrom { .. }));
    let mark = fake.mark();
    tap(&fake, &group, &li, picker.message_id.unwrap(), &chariot).await;
    let step = expect_call(&fake, mark, "targets", |c| c.is("editMessageText")).await;
    assert!(said(&step).starts_with("Li: đi "), "{}", said(&step));

    // Li's last move typed in Chinese ends the game: echoed as typed, one headline.
    let last = Move::parse_iccs("f8f9").expect("iccs");
    let typed = format_move(&pos, last, Notation::Chinese);
    let mark = fake.mark();
    fake.push_message(&group, &li, &typed, None);
    let end = board_after(&fake, mark, &group, &format!("8. Li: {typed} (f8f9)")).await;
    let pgn = expect_call(&fake, mark, "the PGN", |c| {
        c.is("sendMessage") && said(c).contains("[Result \"0-1\"]")
    })
    .await;
    let ending: String = since(&fake, mark)
        .iter()
        .filter(|c| c.seq < pgn.seq && c.chat_id == Some(group.id))
        .map(said)
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(ending.matches("Đen thắng").count(), 1, "{ending}");
    assert!(
        ending.contains("Hết ván: Đen thắng — chiếu dai (0-1)."),
        "{ending}"
    );
    assert!(ending.contains("Theo luật châu Á (AXF/WXF):"), "{ending}");
    assert!(
        !ending.contains('`') && !ending.contains("seed"),
        "{ending}"
    );
    assert!(
        !ending.contains(&format_move(&pos, last, Notation::Wxf)),
        "{ending}"
    );
    // Only Rematch under the result (the bot does not play here), in the game's language.
    let labels: Vec<String> = end.buttons().into_iter().map(|(label, _)| label).collect();
    assert_eq!(labels, ["Chơi lại"], "{:?}", end.buttons());
    bot.stop().await;
    check_every_call(&fake.sent());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_groups_administrators_change_its_settings() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let bot = Running::start(&fake, dir.path()).await;
    let group = FakeChat::group(-4_100_000_031, "Club");
    let (owner, admin, member) = (
        user(1131, "Owner", "en"),
        user(1132, "Admin", "en"),
        user(1133, "Member", "en"),
    );
    fake.make_owner(&group, &owner);
    fake.make_admin(&group, &admin);
    let asked = |fake: &FakeTelegram, mark: u64| {
        since(fake, mark)
            .iter()
            .filter(|c| c.is("getChatMember"))
            .count()
    };
    // A bystander's /hints on is refused, as an answer to their message; nothing changes.
    let mark = fake.mark();
    let refused = say(&fake, &group, None, &member, "/hints on", |c| {
        c.is("sendMessage")
    })
    .await;
    assert!(
        said(&refused).contains("Only this group's administrators"),
        "{}",
        said(&refused)
    );
    assert!(
        refused.params.get("reply_parameters").is_some(),
        "a refusal answers its message: {refused:?}"
    );
    for text in [
        "/lang vi",
        "/ruleset asian",
        "/takebacks on",
        "/puzzle daily on 9",
    ] {
        let r = say(&fake, &group, None, &member, text, |c| c.is("sendMessage")).await;
        assert!(
            said(&r).contains("Only this group's administrators"),
            "{text}: {}",
            said(&r)
        );
    }
    // Asked once for the burst: the answer is kept a minute.
    assert_eq!(asked(&fake, mark), 1);
    // Commands that change nothing never ask.
    let mark = fake.mark();
    say(&fake, &group, None, &member, "/ruleset", |c| {
        said(c).contains("official rules")
    })
    .await;
    say(&fake, &group, None, &member, "/help", |c| {
        c.is("sendMessage")
    })
    .await;
    assert_eq!(asked(&fake, mark), 0);
    // The owner and an administrator may.
    say(&fake, &group, None, &owner, "/takebacks on", |c| {
        said(c).contains("Takebacks are now allowed")
    })
    .await;
    say(&fake, &group, None, &admin, "/ruleset asian", |c| {
        said(c).contains("Asian")
    })
    .await;
    // In a private chat its user decides, without asking.
    let dm = FakeChat::private(&member);
    let mark = fake.mark();
    say(&fake, &dm, None, &member, "/lang vi", |c| {
        c.is("sendMessage")
    })
    .await;
    assert_eq!(asked(&fake, mark), 0);
    check_every_call(&fake.sent());
    bot.stop().await;
}
