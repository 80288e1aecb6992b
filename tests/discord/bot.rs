//! Playing the bot on Discord: `/play` with a `level` (validated by the fake as strictly as
//! Discord: 1 to 20), `/play` with the bot's own user as the opponent, the *Play the bot*
//! button under `/help`, and *Rematch* under a finished game (refused privately to others).
//! The bot's moves arrive as boards of their own.

use crate::discord_fake::{CmdOpt, FakeDiscord, FakeInteraction, FakeMessage, ResponseKind};
use crate::harness::{
    board_text, button, check_every_attachment, fake, message_of, service_config, slash_move,
    start, Ledger, WAIT,
};

use ResponseKind::{Callback, EditOriginal, Followup};

/// Each bot move is cut short at this: the tests check the flow, not the play.
const CAP_MS: u64 = 50;

/// Whether `m` is a board whose text has `line`.
fn shows(m: &FakeMessage, line: &str) -> bool {
    !m.attachments.is_empty()
        && m.embeds
            .first()
            .is_some_and(|e| e["description"].as_str().is_some_and(|d| d.contains(line)))
}

/// Waits for the bot's newest board whose text has `line`.
async fn board_with(fake: &FakeDiscord, line: &str) -> FakeMessage {
    let found = fake
        .wait_for(|f| f.bot_messages().iter().any(|m| shows(m, line)), WAIT)
        .await;
    assert!(found, "no board with {line:?}");
    fake.bot_messages()
        .into_iter()
        .rev()
        .find(|m| shows(m, line))
        .expect("the board")
}

fn has_button(m: &FakeMessage, prefix: &str) -> bool {
    m.custom_ids().iter().any(|id| id.starts_with(prefix))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_bot_game_by_level_and_by_naming_the_bot_as_the_opponent() {
    let fake = fake().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let mut bot = start(&fake, dir.path(), None, service_config(), false).await;
    bot.play_the_bot(CAP_MS);
    let log = Ledger::default();
    let alice = fake.add_user("alice");

    // Levels outside 1–20 never reach the bot: Discord refuses them as the option declares.
    for bad in [0, 21] {
        let refused = fake.try_push_interaction(
            FakeInteraction::slash("play")
                .option(CmdOpt::integer("level", bad))
                .by(&alice),
        );
        assert!(refused.is_err(), "level {bad} was accepted");
    }

    // A level on /play: a game against the bot at once.
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::slash("play")
                .option(CmdOpt::string("color", "red"))
                .option(CmdOpt::integer("level", 2))
                .by(&alice),
            &[Callback(5), EditOriginal],
        )
        .await;
    let start_board = message_of(&fake, &r[1]);
    let text = board_text(&start_board);
    assert!(
        text.contains("Game #1 begins: alice (Red) vs Bot level 2 (Black)"),
        "{text}"
    );
    // Alice's move is answered at once; while the bot is to move there is no picker; the
    // bot's move follows as its own board.
    let mine = slash_move(&fake, &log, &alice, "h2e2").await;
    assert!(mine.contains("1. alice: "), "{mine}");
    let after_mine = board_with(&fake, "1. alice: ").await;
    assert!(
        !has_button(&after_mine, "xq:P:"),
        "no picker while the bot thinks"
    );
    let reply = board_with(&fake, "2. Bot level 2: ").await;
    assert!(has_button(&reply, "xq:P:"), "{:?}", reply.custom_ids());
    log.answers(
        &fake,
        FakeInteraction::slash("resign").by(&alice),
        &[Callback(5), EditOriginal, Followup],
    )
    .await;

    // The bot's own user as the opponent: a game at the default level, at once.
    let me = fake.bot_user();
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::slash("play")
                .option(CmdOpt::user("opponent", &me))
                .option(CmdOpt::string("color", "black"))
                .by(&alice),
            &[Callback(5), EditOriginal],
        )
        .await;
    let text = board_text(&message_of(&fake, &r[1]));
    assert!(
        text.contains("Game #2 begins: Bot level 10 (Red) vs alice (Black)"),
        "{text}"
    );
    board_with(&fake, "1. Bot level 10: ").await;
    log.check(&fake).await;
    assert!(check_every_attachment(&fake) >= 5);
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_play_the_bot_button_and_a_rematch() {
    let fake = fake().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let mut bot = start(&fake, dir.path(), None, service_config(), false).await;
    bot.play_the_bot(CAP_MS);
    let log = Ledger::default();
    let (alice, carol) = (fake.add_user("alice"), fake.add_user("carol"));

    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::slash("help").by(&alice),
            &[Callback(4)],
        )
        .await;
    let help = message_of(&fake, &r[0]);
    let play_bot = button(&help, "xq:B:10");
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::button(help.id, &play_bot).by(&alice),
            &[Callback(6), Followup],
        )
        .await;
    let text = board_text(&message_of(&fake, &r[1]));
    assert!(text.contains("Game #1 begins: "), "{text}");
    assert!(text.contains("Bot level 10"), "{text}");
    let alice_red = text.contains("alice (Red)");

    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::slash("resign").by(&alice),
            &[Callback(5), EditOriginal, Followup],
        )
        .await;
    let over = message_of(&fake, &r[1]);
    assert!(board_text(&over).contains("Game over"));
    let rematch = button(&over, "xq:M:1");
    assert!(has_button(&over, "xq:B:10"), "{:?}", over.custom_ids());
    // Carol did not play: her tap is refused where only she sees it.
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::button(over.id, &rematch).by(&carol),
            &[Callback(6), Followup],
        )
        .await;
    let note = message_of(&fake, &r[1]);
    assert!(note.is_ephemeral());
    assert_eq!(note.content, "That button is for the players of this game.");
    // Alice's tap: the same level at once, colours swapped.
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::button(over.id, &rematch).by(&alice),
            &[Callback(6), Followup],
        )
        .await;
    let text = board_text(&message_of(&fake, &r[1]));
    let swapped = if alice_red {
        "Game #2 begins: Bot level 10 (Red) vs alice (Black)"
    } else {
        "Game #2 begins: alice (Red) vs Bot level 10 (Black)"
    };
    assert!(text.contains(swapped), "{text}");
    if alice_red {
        board_with(&fake, "1. Bot level 10: ").await;
    }
    log.check(&fake).await;
    bot.stop(&fake).await;
}
