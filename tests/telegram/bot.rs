//! Playing the bot on Telegram, end to end: the real adapter against the fake Bot API server,
//! the service on sled, the bot thinking with the built-in engine on its own thread. A game
//! starts by `/play bot` (with the `@botname` suffix groups add), by mentioning the bot
//! itself, by the *Play the bot* button under `/help` and under a finished game, and again by
//! *Rematch* (against the bot at once, against a person as a challenge).

use crate::telegram_fake;
use crate::telegram_harness;

use telegram_fake::{FakeChat, FakeTelegram, FakeUser, SentCall};
use telegram_harness::{
    board_after, button, check_every_call, expect_call, play, said, say, since, start_game, tap,
    Running, TOKEN,
};
use xiangqi_bot::app::Action;

/// Each bot move is cut short at this (the games here test the flow, not the play).
const CAP_MS: u64 = 50;

fn user(id: i64, name: &str) -> FakeUser {
    FakeUser::new(id, name)
        .username(&name.to_lowercase())
        .language_code("en")
}

fn alice() -> FakeUser {
    user(1001, "Alice")
}
fn bob() -> FakeUser {
    user(1002, "Bob")
}
fn carol() -> FakeUser {
    user(1003, "Carol")
}

fn has_action(c: &SentCall, pred: impl Fn(&Action) -> bool) -> bool {
    c.callback_data()
        .iter()
        .filter_map(|d| Action::decode(d))
        .any(|a| pred(&a))
}

/// `who` resigns game 1; its result carries Rematch, which `stranger` (not a player) is refused
/// privately. Returns the result's message id and the Rematch button's data.
async fn resign_then_a_strangers_rematch(
    fake: &FakeTelegram,
    group: &FakeChat,
    who: &FakeUser,
    stranger: &FakeUser,
) -> (i32, String) {
    let over = say(fake, group, None, who, "/resign", |c| {
        c.is("sendPhoto") && said(c).contains("Game over")
    })
    .await;
    let rematch = button(&over, |a| matches!(a, Action::Rematch { game: 1 }));
    let over_id = over.message_id.expect("id");
    let refusal = tap(fake, group, stranger, over_id, &rematch).await;
    assert_eq!(refusal, "That button is for the players of this game.");
    (over_id, rematch)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_game_by_command_in_a_group_and_by_mentioning_the_bot() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let running = Running::start_playing_the_bot(&fake, dir.path(), CAP_MS).await;
    let group = FakeChat::group(-4_000_000_101, "Bot club");
    let alice = alice();

    // In a group the command arrives with the bot's name attached, and its arguments.
    let mark = fake.mark();
    fake.push_message(&group, &alice, "/play@xiangqi_test_bot bot 2 red", None);
    let start = board_after(
        &fake,
        mark,
        &group,
        "Game #1 begins: Alice (Red) vs Bot level 2 (Black)",
    )
    .await;
    assert!(has_action(&start, |a| matches!(a, Action::Pick { .. })));
    // Alice's move is answered at once; the bot's follows as a board of its own, and while
    // the bot is to move nobody is offered the move picker.
    let mark = fake.mark();
    let mine = play(&fake, &group, &alice, "h2e2", "1. Alice: h2e2\n").await;
    assert!(
        !has_action(&mine, |a| matches!(a, Action::Pick { .. })),
        "no picker while the bot thinks: {:?}",
        mine.buttons()
    );
    let reply = board_after(&fake, mark, &group, "2. Bot level 2: ").await;
    assert!(
        said(&reply).contains("Alice (Red) to move"),
        "{}",
        said(&reply)
    );
    assert!(has_action(&reply, |a| matches!(
        a,
        Action::Pick { ply: 2, .. }
    )));
    // Resigning shows Rematch and Play the bot under the result.
    let over = say(&fake, &group, None, &alice, "/resign", |c| {
        c.is("sendPhoto") && said(c).contains("Game over")
    })
    .await;
    assert!(has_action(&over, |a| matches!(
        a,
        Action::Rematch { game: 1 }
    )));
    assert!(has_action(&over, |a| matches!(
        a,
        Action::PlayBot { level: 10 }
    )));

    // Mentioning the bot itself as the opponent starts a game at once (no acceptance), at the
    // level that follows; the bot, Red here, moves first.
    let mark = fake.mark();
    fake.push_message(&group, &alice, "/play @Xiangqi_Test_Bot 4 black", None);
    board_after(
        &fake,
        mark,
        &group,
        "Game #2 begins: Bot level 4 (Red) vs Alice (Black)",
    )
    .await;
    let first = board_after(&fake, mark, &group, "1. Bot level 4: ").await;
    assert!(has_action(&first, |a| matches!(
        a,
        Action::Pick { ply: 1, .. }
    )));
    check_every_call(&since(&fake, 0));
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_play_the_bot_button_under_help_and_a_rematch_against_the_bot() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let running = Running::start_playing_the_bot(&fake, dir.path(), CAP_MS).await;
    let group = FakeChat::group(-4_000_000_102, "Bot club");
    let (alice, carol) = (alice(), carol());

    let help = say(&fake, &group, None, &alice, "/help", |c| {
        c.is("sendMessage")
    })
    .await;
    assert!(said(&help).contains("/play bot"), "{}", said(&help));
    let play_bot = button(&help, |a| matches!(a, Action::PlayBot { level: 10 }));
    let mark = fake.mark();
    assert_eq!(
        tap(
            &fake,
            &group,
            &alice,
            help.message_id.expect("id"),
            &play_bot
        )
        .await,
        ""
    );
    let start = board_after(
        &fake,
        mark,
        &group,
        "Game #1 begins: |Bot level 10|time none",
    )
    .await;
    let alice_red = said(&start).contains("Alice (Red)");
    if !alice_red {
        board_after(&fake, mark, &group, "1. Bot level 10: ").await;
    }
    // While the game runs, another player's tap starts their own game against the bot
    // beside it (the bot plays everyone who asks in a chat).
    let mark = fake.mark();
    let tapped = tap(
        &fake,
        &group,
        &carol,
        help.message_id.expect("id"),
        &play_bot,
    )
    .await;
    assert_eq!(tapped, "");
    board_after(&fake, mark, &group, "Game #2 begins: |Carol|Bot level 10").await;

    let (over_id, rematch) = resign_then_a_strangers_rematch(&fake, &group, &alice, &carol).await;
    // Alice's Rematch starts at once, at the same level, with the colours swapped.
    let mark = fake.mark();
    assert_eq!(tap(&fake, &group, &alice, over_id, &rematch).await, "");
    let again = board_after(&fake, mark, &group, "Game #3 begins: |Bot level 10").await;
    let swapped = if alice_red {
        "Bot level 10 (Red) vs Alice (Black)"
    } else {
        "Alice (Red) vs Bot level 10 (Black)"
    };
    assert!(said(&again).contains(swapped), "{}", said(&again));
    if alice_red {
        board_after(&fake, mark, &group, "1. Bot level 10: ").await;
    }
    check_every_call(&since(&fake, 0));
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_against_a_person_is_a_challenge_with_colours_swapped() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let running = Running::start_playing_the_bot(&fake, dir.path(), CAP_MS).await;
    let group = FakeChat::group(-4_000_000_103, "Club");
    let (alice, bob, carol) = (alice(), bob(), carol());

    start_game(&fake, &group, None, &alice, &bob).await;
    let (over_id, rematch) = resign_then_a_strangers_rematch(&fake, &group, &bob, &carol).await;
    // Bob (Black last time) asks; Alice gets the challenge, Bob now plays Red.
    let mark = fake.mark();
    assert_eq!(tap(&fake, &group, &bob, over_id, &rematch).await, "");
    let challenge = expect_call(&fake, mark, "the rematch challenge", |c| {
        c.is("sendMessage") && said(c).starts_with("Bob challenges Alice")
    })
    .await;
    assert!(
        said(&challenge).contains("Bob plays Red"),
        "{}",
        said(&challenge)
    );
    let accept = button(&challenge, |a| matches!(a, Action::Accept { .. }));
    let mark = fake.mark();
    tap(
        &fake,
        &group,
        &alice,
        challenge.message_id.expect("id"),
        &accept,
    )
    .await;
    board_after(
        &fake,
        mark,
        &group,
        "Game #2 begins: Bob (Red) vs Alice (Black)",
    )
    .await;
    check_every_call(&since(&fake, 0));
    running.stop().await;
}
