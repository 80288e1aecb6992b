//! The Discord adapter end to end: the real serenity client, the real service on sled in a
//! temporary directory, and a fake Discord (REST and gateway) on 127.0.0.1 that enforces the
//! 3-second rule. A whole game by slash commands, buttons, the select-menu picker and a typed
//! message, to a perpetual-chase ruling; permissions; strangers' clicks; a restart.
#![forbid(unsafe_code)]

#[path = "support/discord_fake.rs"]
mod discord_fake;
#[path = "support/discord_harness.rs"]
mod discord_harness;

use discord_fake::{CmdOpt, FakeDiscord, FakeInteraction, FakeUser, ResponseKind};
use discord_harness::{
    board_text, button, check_every_attachment, fake, menu_option, message_of, service_config,
    start, Ledger, CHASE_FEN, WAIT,
};

use ResponseKind::{Callback, EditOriginal, Followup};

/// `/move` as `user`: deferred, then the board in the original response.
async fn slash_move(fake: &FakeDiscord, log: &Ledger, user: &FakeUser, text: &str) -> String {
    let (_, r) = log
        .answers(
            fake,
            FakeInteraction::slash("move")
                .option(CmdOpt::string("move", text))
                .by(user),
            &[Callback(5), EditOriginal],
        )
        .await;
    let m = message_of(fake, &r[1]);
    assert!(!m.is_ephemeral());
    board_text(&m)
}

/// The picker: the Pick button of `board` opens a menu only `user` sees; the piece on `from`,
/// then the move `mv`, are chosen from it; the board follows and the menu is put away.
async fn pick_move(
    fake: &FakeDiscord,
    log: &Ledger,
    user: &FakeUser,
    board: u64,
    from: &str,
    mv: &str,
) -> (u64, String) {
    let board_msg = fake.message(board).expect("board");
    let pick = button(&board_msg, "xq:P:");
    let (_, r) = log
        .answers(
            fake,
            FakeInteraction::button(board, &pick).by(user),
            &[Callback(6), Followup],
        )
        .await;
    let menu = message_of(fake, &r[1]);
    assert!(menu.is_ephemeral(), "the picker is only for the player");
    assert_eq!(menu.content, "Pick the piece to move:");
    let (menu_id, value) = menu_option(&menu, &format!(":{from}"));
    assert!(menu_id.starts_with("mxq:") && menu_id.len() <= 100);
    let (_, r) = log
        .answers(
            fake,
            FakeInteraction::select(menu.id, &menu_id, &[&value]).by(user),
            &[Callback(6), EditOriginal],
        )
        .await;
    let targets = message_of(fake, &r[1]);
    assert_eq!(targets.id, menu.id, "the same menu shows the targets");
    assert!(
        targets.content.starts_with("Where should the"),
        "{}",
        targets.content
    );
    let (menu_id, value) = menu_option(&targets, &format!(":{mv}"));
    let (_, r) = log
        .answers(
            fake,
            FakeInteraction::select(menu.id, &menu_id, &[&value]).by(user),
            &[Callback(6), Followup, EditOriginal],
        )
        .await;
    let board = message_of(fake, &r[1]);
    assert!(!board.is_ephemeral());
    assert!(
        fake.message(menu.id).expect("menu").components.is_empty(),
        "a used menu is put away"
    );
    (board.id, board_text(&board))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_whole_game_to_a_perpetual_chase() {
    let fake = fake().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let bot = start(&fake, dir.path(), None, service_config(), false).await;
    let log = Ledger::default();
    let (alice, bob, carol) = (
        fake.add_user("alice"),
        fake.add_user("bob"),
        fake.add_user("carol"),
    );
    let channel = fake.channel_id();

    // alice challenges bob from a set-up position, playing Red: a challenge with buttons.
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::slash("play")
                .option(CmdOpt::user("opponent", &bob))
                .option(CmdOpt::string("ruleset", "asian"))
                .option(CmdOpt::string("color", "red"))
                .option(CmdOpt::string("fen", format!("{CHASE_FEN} - - 0 1")))
                .by(&alice),
            &[Callback(5), EditOriginal],
        )
        .await;
    let challenge = message_of(&fake, &r[1]);
    assert!(
        challenge
            .content
            .starts_with("alice challenges bob: time none, rules asian"),
        "{}",
        challenge.content
    );
    let accept = button(&challenge, "xq:A:");
    assert!(button(&challenge, "xq:D:").len() > 5);

    // carol cannot accept bob's challenge: a note only she sees.
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::button(challenge.id, &accept).by(&carol),
            &[Callback(6), Followup],
        )
        .await;
    let note = message_of(&fake, &r[1]);
    assert!(note.is_ephemeral());
    assert_eq!(note.content, "This challenge is for bob, not you.");

    // bob accepts by button: the board, Black (bob) to move.
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::button(challenge.id, &accept).by(&bob),
            &[Callback(6), Followup],
        )
        .await;
    let start_board = message_of(&fake, &r[1]);
    let text = board_text(&start_board);
    assert!(
        text.contains("begins: alice (Red) vs bob (Black)"),
        "{text}"
    );
    assert!(text.contains("bob (Black) to move"), "{text}");
    let game = accept.trim_start_matches("xq:A:").to_string();
    assert_eq!(button(&start_board, "xq:P:"), format!("xq:P:{game}:0"));

    // 1. bob types Chinese notation in /move.
    let text = slash_move(&fake, &log, &bob, "士5退6").await;
    assert!(text.starts_with("1. bob: 士５退６ (e8f9)"), "{text}");
    assert!(text.contains("alice (Red) to move"), "{text}");

    // A stale click: the start board's picker belongs to ply 0.
    let stale = button(&start_board, "xq:P:");
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::button(start_board.id, &stale).by(&alice),
            &[Callback(6), Followup],
        )
        .await;
    let note = message_of(&fake, &r[1]);
    assert!(
        note.is_ephemeral() && note.content.contains("earlier position"),
        "{note:?}"
    );

    // 2. alice picks b8 then b8b9 from the menus under the latest board.
    let latest = fake
        .bot_messages()
        .into_iter()
        .rev()
        .find(|m| !m.attachments.is_empty())
        .expect("a board");
    let (board, text) = pick_move(&fake, &log, &alice, latest.id, "b8", "b8b9").await;
    assert!(text.starts_with("2. alice: C8+1 (b8b9)"), "{text}");

    // Another user's click on the game's buttons is refused, only to them.
    let draw = button(&fake.message(board).expect("board"), "xq:=:");
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::button(board, &draw).by(&carol),
            &[Callback(6), Followup],
        )
        .await;
    let note = message_of(&fake, &r[1]);
    assert!(note.is_ephemeral());
    assert_eq!(note.content, "That button is for the players of this game.");

    // 3. bob in Vietnamese notation; 4. alice in WXF.
    let text = slash_move(&fake, &log, &bob, "S6.5").await;
    assert!(text.starts_with("3. bob: S6.5 (f9e8)"), "{text}");
    let text = slash_move(&fake, &log, &alice, "C8-1").await;
    assert!(text.starts_with("4. alice: C8-1 (b9b8)"), "{text}");

    // 5. bob with the picker.
    let latest = fake
        .bot_messages()
        .into_iter()
        .rev()
        .find(|m| !m.attachments.is_empty())
        .expect("a board");
    let (_, text) = pick_move(&fake, &log, &bob, latest.id, "e8", "e8f9").await;
    assert!(text.starts_with("5. bob: A5-6 (e8f9)"), "{text}");

    // 6. alice asks autocomplete for her moves, then plays one of them.
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::autocomplete("move")
                .option(CmdOpt::string("move", "C8").focused())
                .by(&alice),
            &[Callback(8)],
        )
        .await;
    let choices: Vec<String> = r[0].json.as_ref().expect("json")["data"]["choices"]
        .as_array()
        .expect("choices")
        .iter()
        .map(|c| c["value"].as_str().unwrap_or_default().to_string())
        .collect();
    assert!(choices.contains(&"C8+1".to_string()), "{choices:?}");
    assert!(choices.iter().all(|c| c.starts_with("C8")), "{choices:?}");
    // bob, who is not to move, gets no suggestions.
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::autocomplete("move")
                .option(CmdOpt::string("move", "").focused())
                .by(&bob),
            &[Callback(8)],
        )
        .await;
    assert_eq!(
        r[0].json.as_ref().expect("json")["data"]["choices"],
        serde_json::json!([])
    );
    let text = slash_move(&fake, &log, &alice, "C8+1").await;
    assert!(text.starts_with("6. alice: C8+1 (b8b9)"), "{text}");

    // 7. bob types a bare move in the channel (the Message Content intent is granted).
    let posted = fake.calls_matching("POST /channels/*/messages").len();
    fake.push_message_create(channel, &bob, "f9e8");
    let call = fake
        .wait_for_call("POST /channels/*/messages", posted + 1, WAIT)
        .await
        .expect("the board for a typed move");
    assert_eq!(call.status, 200);
    assert_eq!(call.files.len(), 1);
    let id: u64 = call.response["id"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .expect("id");
    let text = board_text(&fake.message(id).expect("posted"));
    assert!(text.starts_with("7. bob: f9e8 (f9e8)"), "{text}");
    // Conversation is not answered.
    fake.push_message_create(channel, &carol, "nice game!");

    // 8. alice's chase completes the third occurrence: Black wins, with the explanation, then
    // the PGN.
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::slash("move")
                .option(CmdOpt::string("move", "b9b8"))
                .by(&alice),
            &[Callback(5), EditOriginal, Followup],
        )
        .await;
    let last = message_of(&fake, &r[1]);
    let text = board_text(&last);
    assert!(text.starts_with("8. alice: b9b8 (b9b8)"), "{text}");
    assert!(text.contains("perpetual chase (0-1)"), "{text}");
    assert!(
        text.contains("Red chased the same piece at every ply"),
        "{text}"
    );
    assert!(text.contains("Table A"), "{text}");
    assert!(
        last.components.is_empty(),
        "no buttons under a finished game"
    );
    let pgn = message_of(&fake, &r[2]);
    assert!(pgn.content.contains("[Result \"0-1\"]"), "{}", pgn.content);

    log.check(&fake).await;
    // carol's chatter got no answer: the last bot message is the PGN.
    assert_eq!(fake.bot_messages().last().map(|m| m.id), Some(pgn.id));
    let boards = check_every_attachment(&fake);
    assert_eq!(boards, 9, "the start and eight moves");
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn commands_are_registered_globally_or_to_the_guild() {
    let fake = fake().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let bot = start(&fake, dir.path(), None, service_config(), false).await;
    let global = fake.global_commands();
    let names: Vec<&str> = global.iter().filter_map(|c| c["name"].as_str()).collect();
    assert_eq!(names.len(), xiangqi_bot::app::Cmd::ALL.len());
    for (_, n) in xiangqi_bot::app::Cmd::ALL {
        assert!(names.contains(&n), "{n} missing from {names:?}");
    }
    assert!(fake.guild_commands(fake.guild_id()).is_empty());
    let play = global.iter().find(|c| c["name"] == "play").expect("/play");
    let opts = play["options"].as_array().expect("options");
    assert_eq!(opts[0]["name"], "opponent");
    assert_eq!(opts[0]["type"], 6, "a user option");
    assert_eq!(opts[1]["autocomplete"], true, "time presets");
    assert_eq!(opts[2]["choices"].as_array().map(Vec::len), Some(5));
    assert!(play["description_localizations"]["vi"].is_string());
    let mv = global.iter().find(|c| c["name"] == "move").expect("/move");
    assert_eq!(mv["options"][0]["autocomplete"], true);
    assert_eq!(mv["options"][0]["required"], true);
    bot.stop(&fake).await;

    let fake = discord_harness::fake().await;
    let guild = fake.guild_id();
    let bot = start(&fake, dir.path(), Some(guild), service_config(), false).await;
    assert_eq!(
        fake.guild_commands(guild).len(),
        xiangqi_bot::app::Cmd::ALL.len()
    );
    assert!(fake.global_commands().is_empty());
    // The guild's commands work at once, and time presets are suggested.
    let log = Ledger::default();
    let alice = fake.add_user("alice");
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::autocomplete("play")
                .option(CmdOpt::string("time", "10").focused())
                .by(&alice),
            &[Callback(8)],
        )
        .await;
    let choices = &r[0].json.as_ref().expect("json")["data"]["choices"];
    assert!(
        choices
            .as_array()
            .is_some_and(|c| c.iter().any(|c| c["value"] == "10+5")),
        "{choices}"
    );
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::slash("help").by(&alice).locale("vi"),
            &[Callback(5), EditOriginal],
        )
        .await;
    assert!(!message_of(&fake, &r[1]).content.is_empty());
    log.check(&fake).await;
    bot.stop(&fake).await;
}
