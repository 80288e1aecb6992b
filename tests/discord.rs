//! The Discord adapter end to end: the real serenity client, the real service on sled in a
//! temporary directory, and a fake Discord (REST and gateway) on 127.0.0.1 that enforces the
//! 3-second rule. A whole game by slash commands, buttons, the select-menu picker and a typed
//! message, to a perpetual-chase ruling; permissions; strangers' clicks; a restart.
#![forbid(unsafe_code)]

#[path = "support/discord_fake.rs"]
mod discord_fake;
#[path = "support/discord_harness.rs"]
mod discord_harness;

use discord_fake::{CmdOpt, FakeDiscord, FakeInteraction, ResponseKind};
use discord_harness::{
    board_text, button, check_every_attachment, fake, latest_board, message_of, new_game,
    pick_move, service_config, slash_move, start, Ledger, CHASE_FEN, WAIT,
};

use ResponseKind::{Callback, EditOriginal, Followup};

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
    let latest = latest_board(&fake);
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
    let latest = latest_board(&fake);
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

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn missing_attach_files_gives_the_text_board_and_a_hint() {
    let fake = fake().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let bot = start(&fake, dir.path(), None, service_config(), false).await;
    let log = Ledger::default();
    let (alice, bob) = (fake.add_user("alice"), fake.add_user("bob"));
    new_game(&fake, &log, &alice, &bob).await;

    // The deferred answer to /move cannot carry the picture: it is edited to the text board.
    let route = "PATCH /webhooks/*/*/messages/@original";
    fake.fail_next_with_attachments(route, 403, FakeDiscord::missing_permissions());
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::slash("move")
                .option(CmdOpt::string("move", "h2e2"))
                .by(&alice),
            &[Callback(5), EditOriginal],
        )
        .await;
    let m = message_of(&fake, &r[1]);
    assert!(m.attachments.is_empty() && m.embeds.is_empty());
    assert!(m.content.starts_with("```\n"), "{}", m.content);
    assert!(m.content.contains("炮"), "the Unicode board: {}", m.content);
    assert!(m.content.contains("1. alice: h2e2 (h2e2)"), "{}", m.content);
    assert!(
        m.content.contains("**Attach Files** and **Embed Links**"),
        "{}",
        m.content
    );
    assert!(
        m.custom_ids().iter().any(|c| c.starts_with("xq:P:")),
        "buttons kept"
    );
    let refused: Vec<_> = fake
        .calls_matching(route)
        .into_iter()
        .map(|c| c.status)
        .collect();
    assert_eq!(refused[refused.len() - 2..], [403, 200], "{refused:?}");

    // A typed move answered in the channel: the same fallback for a channel message.
    let route = "POST /channels/*/messages";
    fake.fail_next_with_attachments(route, 403, FakeDiscord::missing_permissions());
    fake.push_message_create(fake.channel_id(), &bob, "H8+7");
    let sent = fake
        .wait_for_call(route, 2, WAIT)
        .await
        .expect("the fallback");
    assert_eq!(sent.status, 200);
    assert!(sent.files.is_empty());
    let calls = fake.calls_matching(route);
    assert_eq!((calls[0].status, calls[0].files.len()), (403, 1));
    let content = sent.json.as_ref().expect("json")["content"]
        .as_str()
        .unwrap_or_default();
    assert!(content.contains("2. bob: H8+7 (h9g7)"), "{content}");
    assert!(content.contains("Attach Files"), "{content}");
    assert!(content.chars().count() <= 2000);

    // Permissions back: pictures again.
    let text = slash_move(&fake, &log, &alice, "h0g2").await;
    assert!(text.starts_with("3. alice:"), "{text}");
    log.check(&fake).await;
    check_every_attachment(&fake);
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn buttons_for_draws_takebacks_flip_and_resignation() {
    let fake = fake().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let bot = start(&fake, dir.path(), None, service_config(), false).await;
    let log = Ledger::default();
    let (alice, bob) = (fake.add_user("alice"), fake.add_user("bob"));
    log.answers(
        &fake,
        FakeInteraction::slash("takebacks")
            .option(CmdOpt::string("allow", "on"))
            .by(&alice),
        &[Callback(5), EditOriginal],
    )
    .await;
    new_game(&fake, &log, &alice, &bob).await;
    slash_move(&fake, &log, &alice, "h2e2").await;

    // bob offers a draw by button; alice declines by button.
    let board = latest_board(&fake);
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::button(board.id, &button(&board, "xq:=:")).by(&bob),
            &[Callback(6), Followup],
        )
        .await;
    let offer = message_of(&fake, &r[1]);
    assert!(
        offer.content.starts_with("bob offers a draw"),
        "{}",
        offer.content
    );
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::button(offer.id, &button(&offer, "xq:N:")).by(&alice),
            &[Callback(6), Followup],
        )
        .await;
    assert!(message_of(&fake, &r[1]).content.contains("alice"));

    // alice asks to take h2e2 back; bob allows it by button.
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::slash("takeback").by(&alice),
            &[Callback(5), EditOriginal],
        )
        .await;
    let request = message_of(&fake, &r[1]);
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::button(request.id, &button(&request, "xq:K:")).by(&bob),
            &[Callback(6), Followup],
        )
        .await;
    let text = board_text(&message_of(&fake, &r[1]));
    assert!(text.contains("alice (Red) to move"), "{text}");

    // Flip: the board the other way round, for everyone.
    let board = latest_board(&fake);
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::button(board.id, &button(&board, "xq:F:")).by(&alice),
            &[Callback(6), Followup],
        )
        .await;
    let flipped = message_of(&fake, &r[1]);
    board_text(&flipped);
    assert_ne!(flipped.attachments[0].data, board.attachments[0].data);

    // Resign asks first, only the player; confirming ends the game with the PGN.
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::button(board.id, &button(&board, "xq:R:")).by(&bob),
            &[Callback(6), Followup],
        )
        .await;
    let confirm = message_of(&fake, &r[1]);
    assert!(confirm.is_ephemeral());
    assert_eq!(confirm.content, "Do you really want to resign?");
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::button(confirm.id, &button(&confirm, "xq:Y:")).by(&bob),
            &[Callback(6), Followup, Followup],
        )
        .await;
    let text = board_text(&message_of(&fake, &r[1]));
    assert!(
        text.contains("bob resigned") && text.contains("(1-0)"),
        "{text}"
    );
    assert!(message_of(&fake, &r[2])
        .content
        .contains("[Result \"1-0\"]"));
    log.check(&fake).await;
    check_every_attachment(&fake);
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_restart_mid_game_resumes_it_and_old_buttons_still_work() {
    let fake = fake().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let bot = start(&fake, dir.path(), None, service_config(), false).await;
    let log = Ledger::default();
    let (alice, bob) = (fake.add_user("alice"), fake.add_user("bob"));
    new_game(&fake, &log, &alice, &bob).await;
    slash_move(&fake, &log, &alice, "炮二平五").await;
    let before = latest_board(&fake);
    bot.stop(&fake).await;

    // A new client and a new service on the same database.
    let bot = start(&fake, dir.path(), None, service_config(), false).await;
    let (board, text) = pick_move(&fake, &log, &bob, before.id, "h9", "h9g7").await;
    assert!(text.starts_with("2. bob: H8+7 (h9g7)"), "{text}");
    assert!(text.contains("alice (Red) to move"), "{text}");
    let text = slash_move(&fake, &log, &alice, "h0g2").await;
    assert!(text.starts_with("3. alice:"), "{text}");
    // The pre-restart board is stale now.
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::button(board, &button(&fake.message(board).expect("b"), "xq:P:"))
                .by(&bob),
            &[Callback(6), Followup],
        )
        .await;
    assert!(message_of(&fake, &r[1])
        .content
        .contains("earlier position"));
    log.check(&fake).await;
    check_every_attachment(&fake);
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn without_the_message_content_intent_mentions_and_commands_still_work() {
    let fake = FakeDiscord::builder()
        .interaction_deadline(std::time::Duration::from_secs(3))
        .allowed_privileged_intents(0)
        .start()
        .await;
    let dir = tempfile::tempdir().expect("tempdir");
    let bot = start(&fake, dir.path(), None, service_config(), false).await;
    assert!(
        fake.identify_count() >= 2,
        "identified again without the intent"
    );
    let intents = fake.identify_payload().expect("identify")["intents"]
        .as_u64()
        .expect("intents");
    assert_eq!(intents & (1 << 15), 0);
    let log = Ledger::default();
    let (alice, bob) = (fake.add_user("alice"), fake.add_user("bob"));
    new_game(&fake, &log, &alice, &bob).await;
    let posted = fake.calls_matching("POST /channels/*/messages").len();
    // A bare move arrives without its text: nothing to answer.
    fake.push_message_create(fake.channel_id(), &alice, "h2e2");
    // Addressed to the bot, the text arrives.
    let me = fake.bot_user().id;
    fake.push_message_create(fake.channel_id(), &alice, &format!("<@{me}> h2e2"));
    let call = fake
        .wait_for_call("POST /channels/*/messages", posted + 1, WAIT)
        .await
        .expect("an answer");
    let id: u64 = call.response["id"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .expect("id");
    let text = board_text(&fake.message(id).expect("posted"));
    assert!(text.starts_with("1. alice: h2e2 (h2e2)"), "{text}");
    log.check(&fake).await;
    assert_eq!(
        fake.calls_matching("POST /channels/*/messages").len(),
        posted + 1
    );
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_lapsed_challenge_is_announced_in_its_channel() {
    let fake = fake().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let config = xiangqi_bot::app::ServiceConfig {
        challenge_ttl_ms: 1_000,
        ..service_config()
    };
    let bot = start(&fake, dir.path(), None, config, true).await;
    let log = Ledger::default();
    let alice = fake.add_user("alice");
    log.answers(
        &fake,
        FakeInteraction::slash("play").by(&alice),
        &[Callback(5), EditOriginal],
    )
    .await;
    let call = fake
        .wait_for_call("POST /channels/*/messages", 1, WAIT)
        .await
        .expect("the timer's message");
    assert_eq!(
        call.path,
        format!("/channels/{}/messages", fake.channel_id())
    );
    let content = call.json.as_ref().expect("json")["content"]
        .as_str()
        .unwrap_or_default();
    assert!(content.contains("lapsed"), "{content}");
    log.check(&fake).await;
    bot.stop(&fake).await;
}

/// The binary itself: `DISCORD_TOKEN` starts Discord instead of the console, and ctrl-c
/// (SIGINT) closes the gateway and exits 0 with everything on disk.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_binary_runs_on_discord_and_stops_on_ctrl_c() {
    let fake = fake().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_xiangqi-bot"))
        .env_clear()
        .env("DISCORD_TOKEN", fake.token())
        .env("DISCORD_API_URL", fake.http_url())
        .env("DATA_DIR", dir.path())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("the bot starts");
    assert!(fake.wait_for_ready(WAIT).await);
    assert!(
        fake.wait_for(|f| !f.global_commands().is_empty(), WAIT)
            .await
    );
    let log = Ledger::default();
    let (alice, bob) = (fake.add_user("alice"), fake.add_user("bob"));
    new_game(&fake, &log, &alice, &bob).await;
    let pid = child.id().expect("pid").to_string();
    let status = std::process::Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .expect("kill");
    assert!(status.success());
    let exit = tokio::time::timeout(WAIT, child.wait())
        .await
        .expect("the bot stopped in time")
        .expect("exit status");
    assert!(exit.success(), "{exit:?}");
    assert!(fake.wait_for(|f| !f.is_connected(), WAIT).await);
    assert!(dir.path().join("db").exists());
    log.check(&fake).await;
}
