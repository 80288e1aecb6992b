//! Games on Discord: every way to move, every button, a restart, a thread per game (and none
//! left behind when the game is refused).

use crate::discord_fake::{
    permissions, CmdOpt, FakeDiscord, FakeInteraction, FakeUser, ResponseKind,
};
use crate::harness::{
    board_text, button, check_every_attachment, decode_png, fake, latest_board, message_of,
    new_game, pick_move, service_config, slash_move, start, table, Ledger, CHASE_FEN, WAIT,
};
use xiangqi_bot::app::ServiceConfig;

use ResponseKind::{Callback, EditOriginal, Followup};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_whole_game_to_a_perpetual_chase() {
    let (fake, _dir, bot, log) = table().await;
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
            .starts_with("alice challenges bob: time none, Asian (AXF/WXF) rules"),
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
    // Nor cancel it: an answer only for her, given at once (no public "thinking…" first).
    let note = log
        .private(&fake, FakeInteraction::slash("cancel").by(&carol))
        .await;
    assert_eq!(
        note,
        "Only the player who made the challenge can cancel it."
    );

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
        text.contains("Game #1 begins: alice (Red) vs bob (Black)"),
        "{text}"
    );
    assert!(text.contains("bob (Black) to move"), "{text}");
    assert_eq!(button(&start_board, "xq:P:"), "xq:P:1:0");
    // The accepted challenge has lost its buttons.
    assert!(
        fake.wait_for(
            |f| f
                .message(challenge.id)
                .is_some_and(|m| m.components.is_empty()),
            WAIT
        )
        .await
    );

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
    assert!(text.starts_with("7. bob: f9e8\n"), "{text}");
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
    assert!(text.starts_with("8. alice: b9b8\n"), "{text}");
    // One headline, the rules by name, no code formatting.
    assert!(
        text.contains("Game over: Black wins — perpetual chase (0-1)."),
        "{text}"
    );
    assert_eq!(text.matches("Black wins").count(), 1, "{text}");
    assert!(text.contains("Under Asian (AXF/WXF) rules:"), "{text}");
    assert!(!text.contains('`'), "{text}");
    assert!(
        text.contains("Red chased the same piece at every ply"),
        "{text}"
    );
    assert!(text.contains("Table A"), "{text}");
    // Under a finished game only Rematch (the bot does not play here).
    let ids = last.custom_ids();
    assert!(
        ids.len() == 1 && ids[0].starts_with("xq:M:"),
        "only Rematch under a finished game: {ids:?}"
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
async fn buttons_for_draws_takebacks_flip_and_resignation() {
    let (fake, _dir, bot, log) = table().await;
    let (alice, bob) = (fake.add_user("alice"), fake.add_user("bob"));
    fake.grant(alice.id, permissions::ADMINISTRATOR);
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
            &[
                Callback(6),
                Followup,
                Followup,
                ResponseKind::DeleteOriginal,
            ],
        )
        .await;
    assert!(fake.message(confirm.id).expect("confirm").deleted);
    let text = board_text(&message_of(&fake, &r[1]));
    assert!(
        text.contains("bob resigned") && text.contains("(1-0)"),
        "{text}"
    );
    assert!(message_of(&fake, &r[2])
        .content
        .contains("[Result \"1-0\"]"));
    // The replay of the finished game, as a GIF in an embed.
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::slash("gif").by(&alice),
            &[Callback(5), EditOriginal],
        )
        .await;
    let replay = message_of(&fake, &r[1]);
    assert!(
        replay.attachments[0].filename.ends_with(".gif"),
        "{replay:?}"
    );
    log.check(&fake).await;
    check_every_attachment(&fake);
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_restart_mid_game_resumes_it_and_old_buttons_still_work() {
    let (fake, dir, bot, log) = table().await;
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
async fn play_in_a_thread_of_its_own() {
    let (fake, _dir, bot, log) = table().await;
    let (alice, bob) = (fake.add_user("alice"), fake.add_user("bob"));
    let channel = fake.channel_id();
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::slash("play")
                .option(CmdOpt::user("opponent", &bob))
                .option(CmdOpt::string("color", "red"))
                .option(CmdOpt::boolean("thread", true))
                .by(&alice),
            &[Callback(5), EditOriginal],
        )
        .await;
    let threads = fake.threads();
    assert_eq!(threads.len(), 1);
    let thread = &threads[0];
    assert_eq!((thread.kind, thread.parent_id), (11, Some(channel)));
    assert_eq!(thread.name, "象棋 alice – bob");
    assert_eq!(
        message_of(&fake, &r[1]).content,
        format!("🧵 <#{}>", thread.id)
    );

    // The challenge waits in the thread; bob accepts there, and the game lives there.
    let tid = thread.id;
    let posted = |f: &crate::discord_fake::FakeDiscord| {
        f.messages(tid).iter().any(|m| !m.custom_ids().is_empty())
    };
    assert!(fake.wait_for(posted, WAIT).await);
    let challenge = fake
        .messages(thread.id)
        .into_iter()
        .find(|m| !m.custom_ids().is_empty())
        .expect("the challenge in the thread");
    assert!(challenge.content.starts_with("alice challenges bob"));
    let accept = button(&challenge, "xq:A:");
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::button(challenge.id, &accept).by(&bob),
            &[Callback(6), Followup],
        )
        .await;
    assert_eq!(message_of(&fake, &r[1]).channel_id, thread.id);
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::slash("move")
                .option(CmdOpt::string("move", "h2e2"))
                .in_channel(thread.id)
                .by(&alice),
            &[Callback(5), EditOriginal],
        )
        .await;
    let board = message_of(&fake, &r[1]);
    assert_eq!(board.channel_id, thread.id);
    assert!(board_text(&board).starts_with("1. alice: h2e2"));

    // The channel itself stays free for another game.
    let carol = fake.add_user("carol");
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::slash("play").by(&carol),
            &[Callback(5), EditOriginal],
        )
        .await;
    let open = message_of(&fake, &r[1]);
    assert_eq!(open.channel_id, channel);
    assert!(
        open.content.starts_with("carol challenges anyone"),
        "{}",
        open.content
    );
    log.check(&fake).await;
    check_every_attachment(&fake);
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_refused_play_leaves_no_thread_behind() {
    let (fake, _dir, bot, log) = table().await;
    let alice = fake.add_user("alice");
    let channel = fake.channel_id();
    let refused = |by: &crate::discord_fake::FakeUser| {
        FakeInteraction::slash("play")
            .option(CmdOpt::user("opponent", by))
            .option(CmdOpt::boolean("thread", true))
            .by(by)
    };
    // Challenging oneself is refused: the thread opened for it is deleted, and the answer is
    // given where the command was typed.
    let (_, r) = log.answers(&fake, refused(&alice), &[Callback(4)]).await;
    let answer = message_of(&fake, &r[0]);
    assert_eq!(answer.channel_id, channel);
    assert!(
        answer.content.starts_with("You cannot challenge yourself"),
        "{}",
        answer.content
    );
    assert!(fake.threads().is_empty(), "{:?}", fake.threads());

    // Without the Manage Threads permission that deleting needs, the thread is archived and
    // locked instead.
    fake.fail_next(
        "DELETE /channels/*",
        403,
        FakeDiscord::missing_permissions(),
    );
    log.answers(&fake, refused(&alice), &[Callback(4)]).await;
    let threads = fake.threads();
    assert_eq!(threads.len(), 1);
    assert!(threads[0].archived && threads[0].locked, "{:?}", threads[0]);
    log.check(&fake).await;
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_play_over_the_rate_limit_opens_no_thread() {
    let fake = fake().await;
    let dir = tempfile::tempdir().expect("tempdir");
    // One command, and none back for the length of the test.
    let config = ServiceConfig {
        rate_burst: 1,
        rate_per_sec: 0.001,
        ..service_config()
    };
    let bot = start(&fake, dir.path(), None, config, false).await;
    let log = Ledger::default();
    let (alice, bob) = (fake.add_user("alice"), fake.add_user("bob"));
    let play = |by| {
        FakeInteraction::slash("play")
            .option(CmdOpt::user("opponent", &bob))
            .option(CmdOpt::boolean("thread", true))
            .by(by)
    };
    let opened = |f: &FakeDiscord| f.calls_matching("POST /channels/*/threads").len();
    log.answers(&fake, play(&alice), &[Callback(5), EditOriginal])
        .await;
    assert_eq!((opened(&fake), fake.threads().len()), (1, 1));
    // Over the limit: told so privately where the command was typed, and no thread was
    // opened for it (not even one deleted at once).
    let (_, r) = log.answers(&fake, play(&alice), &[Callback(4)]).await;
    let answer = message_of(&fake, &r[0]);
    assert!(answer.is_ephemeral(), "only alice sees it");
    assert!(answer.content.contains("too fast"), "{}", answer.content);
    assert_eq!(opened(&fake), 1, "{:?}", fake.threads());
    log.check(&fake).await;
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn only_members_who_manage_the_channel_change_its_settings() {
    let (fake, _dir, bot, log) = table().await;
    let (mod_, carol) = (fake.add_user("moderator"), fake.add_user("carol"));
    fake.grant(mod_.id, permissions::MANAGE_CHANNELS);
    // carol may not: told only her, in the response itself.
    let hints_on = |who| {
        FakeInteraction::slash("hints")
            .option(CmdOpt::string("allow", "on"))
            .by(who)
    };
    let note = log.private(&fake, hints_on(&carol)).await;
    assert_eq!(
        note,
        "Only members who can manage this channel can change its settings."
    );
    // Typed, the command carries no permissions: pointed to the slash command.
    let posted = fake.calls_matching("POST /channels/*/messages").len();
    fake.push_message_create(fake.channel_id(), &carol, "/takebacks on");
    let call = fake
        .wait_for_call("POST /channels/*/messages", posted + 1, WAIT)
        .await
        .expect("the refusal of a typed setting");
    let content = call
        .json
        .as_ref()
        .and_then(|j| j["content"].as_str())
        .unwrap_or_default()
        .to_string();
    assert!(
        content.contains("use the slash command /takebacks"),
        "{content}"
    );
    // The moderator may; the setting is then the channel's.
    let (_, r) = log
        .answers(&fake, hints_on(&mod_), &[Callback(5), EditOriginal])
        .await;
    let set = message_of(&fake, &r[1]);
    assert!(
        set.content.starts_with("Hints are now allowed"),
        "{}",
        set.content
    );
    log.check(&fake).await;
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_servers_managers_run_its_tournament_and_anyone_joins() {
    let (fake, _dir, bot, log) = table().await;
    let (mod_, boss, carol) = (
        fake.add_user("moderator"),
        fake.add_user("boss"),
        fake.add_user("carol"),
    );
    fake.grant(mod_.id, permissions::MANAGE_CHANNELS);
    fake.grant(boss.id, permissions::MANAGE_GUILD);
    let make = |who| {
        FakeInteraction::slash("tournament")
            .option(CmdOpt::sub(
                "swiss",
                vec![
                    CmdOpt::integer("rounds", 3),
                    CmdOpt::string("time", "5+3"),
                    // Its games side by side in the channel (threads: see `venues`).
                    CmdOpt::string("venue", "chat"),
                    CmdOpt::boolean("rated", true),
                    CmdOpt::integer("max", 8),
                ],
            ))
            .by(who)
    };
    // Managing a channel is not enough: a tournament is the server's.
    let note = log.private(&fake, make(&mod_)).await;
    assert!(note.contains("manage this server"), "{note}");
    // The organisers' role (DISCORD_TOURNAMENT_ROLE) is, without any permission.
    let dana = fake.add_user("dana");
    fake.give_organiser_role(dana.id);
    let (_, r) = log
        .answers(&fake, make(&dana), &[Callback(5), EditOriginal])
        .await;
    assert!(
        message_of(&fake, &r[1]).content.contains("Tournament #1"),
        "{}",
        message_of(&fake, &r[1]).content
    );
    let cancel = FakeInteraction::slash("tournament")
        .option(CmdOpt::sub("cancel", Vec::new()))
        .by(&dana);
    log.answers(&fake, cancel, &[Callback(5), EditOriginal])
        .await;
    let (_, r) = log
        .answers(&fake, make(&boss), &[Callback(5), EditOriginal])
        .await;
    let list = message_of(&fake, &r[1]);
    assert!(
        list.content.contains("Tournament #2: Swiss, 3 rounds")
            && list.content.contains("rated, at most 8 players"),
        "{}",
        list.content
    );
    let join = FakeInteraction::slash("tournament")
        .option(CmdOpt::sub("join", Vec::new()))
        .by(&carol);
    let (_, r) = log.answers(&fake, join, &[Callback(5), EditOriginal]).await;
    let joined = message_of(&fake, &r[1]);
    assert!(
        joined.content.contains("carol joins tournament #2"),
        "{}",
        joined.content
    );
    let join = FakeInteraction::slash("tournament")
        .option(CmdOpt::sub("join", Vec::new()))
        .by(&dana);
    log.answers(&fake, join, &[Callback(5), EditOriginal]).await;
    // The start pairs them, and their board calls the two players, pinging them alone.
    let start = FakeInteraction::slash("tournament")
        .option(CmdOpt::sub("start", Vec::new()))
        .by(&boss);
    log.answers(
        &fake,
        start,
        &[Callback(5), EditOriginal, Followup, Followup],
    )
    .await;
    let board = latest_board(&fake);
    assert!(
        board_text(&board).contains("Tournament #2, round 1"),
        "{}",
        board_text(&board)
    );
    let mut pinged = board.pinged.clone();
    pinged.sort_unstable();
    let mut two = vec![carol.id, dana.id];
    two.sort_unstable();
    assert_eq!(pinged, two, "{}", board.content);
    assert!(
        board.content.contains(&format!("<@{}>", carol.id)),
        "{}",
        board.content
    );
    assert!(
        fake.bot_messages()
            .iter()
            .filter(|m| m.id != board.id)
            .all(|m| m.pinged.is_empty()),
        "nobody else is pinged"
    );
    log.check(&fake).await;
    bot.stop(&fake).await;
}

/// What a message shows: its content, and its embed's text.
pub(crate) fn shown(m: &crate::discord_fake::FakeMessage) -> String {
    let embed = m
        .embeds
        .first()
        .and_then(|e| e["description"].as_str())
        .unwrap_or_default();
    format!("{}\n{embed}", m.content)
}

/// The games begun in the bot's messages after message `after`: (number, red, black).
fn begun_after(fake: &FakeDiscord, after: u64) -> Vec<(u64, String, String)> {
    fake.bot_messages()
        .iter()
        .filter(|m| m.id > after)
        .flat_map(|m| crate::begun::begun(&shown(m)))
        .collect()
}

/// `players` join the tournament of `channel` by typing it; waits until the list has them all.
pub(crate) async fn join_all(fake: &FakeDiscord, channel: u64, players: &[FakeUser]) {
    for p in players {
        fake.push_message_create(channel, p, "/tournament join");
    }
    let all = format!("Players ({})", players.len());
    let joined = fake
        .wait_for(
            |f| f.bot_messages().iter().any(|m| m.content.contains(&all)),
            WAIT,
        )
        .await;
    assert!(joined, "{all}");
}

/// A seven-player Swiss event of three rounds on a server, through the real adapter: entries
/// typed in the channel, the start by the server's manager, every round three games and a bye
/// with each player's pair pinged, no rematch, one bye each, and the final table of seven with
/// its picture.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_seven_player_swiss_on_a_server() {
    let (fake, _dir, bot, log) = table().await;
    let boss = fake.add_user("boss");
    fake.grant(boss.id, permissions::MANAGE_GUILD);
    let channel = fake.channel_id();
    let make = FakeInteraction::slash("tournament")
        .option(CmdOpt::sub(
            "swiss",
            vec![
                CmdOpt::integer("rounds", 3),
                CmdOpt::string("time", "5+3"),
                CmdOpt::string("venue", "chat"),
            ],
        ))
        .by(&boss);
    log.answers(&fake, make, &[Callback(5), EditOriginal]).await;
    let players: Vec<_> = (1..=7).map(|i| fake.add_user(&format!("p{i}"))).collect();
    join_all(&fake, channel, &players).await;
    let by_name = |name: &str| players.iter().find(|p| p.name == name).expect("a player");
    let start = FakeInteraction::slash("tournament")
        .option(CmdOpt::sub("start", Vec::new()))
        .by(&boss);
    let before = fake.bot_messages().last().map_or(0, |m| m.id);
    log.answers(
        &fake,
        start,
        &[
            Callback(5),
            EditOriginal,
            Followup,
            Followup,
            Followup,
            Followup,
        ],
    )
    .await;
    let mut after = before;
    let mut met = std::collections::HashSet::new();
    for round in 1..=3 {
        let games = begun_after(&fake, after);
        assert_eq!(games.len(), 3, "round {round}: {games:?}");
        for (_, red, black) in &games {
            assert!(
                met.insert((red.min(black).clone(), red.max(black).clone())),
                "a rematch: {red}–{black}"
            );
            // Each board pings its two players.
            let board = fake
                .bot_messages()
                .into_iter()
                .filter(|m| m.id > after)
                .find(|m| shown(m).contains(&format!("{red} (Red) vs {black} (Black)")))
                .expect("the board");
            let mut pinged = board.pinged.clone();
            pinged.sort_unstable();
            let mut two = vec![by_name(red).id, by_name(black).id];
            two.sort_unstable();
            assert_eq!(pinged, two);
        }
        after = fake.bot_messages().last().map_or(0, |m| m.id);
        for (_, _, black) in &games {
            fake.push_message_create(channel, by_name(black), "/resign");
        }
        let next = if round < 3 {
            format!("round {} of 3", round + 1)
        } else {
            "is over:".to_string()
        };
        let came = fake
            .wait_for(
                |f| {
                    f.bot_messages()
                        .iter()
                        .any(|m| m.id > after && shown(m).contains(&next))
                },
                WAIT,
            )
            .await;
        assert!(came, "{next}");
        if round < 3 {
            // The next round's three boards.
            let boards = fake
                .wait_for(|f| begun_after(f, after).len() == 3, WAIT)
                .await;
            assert!(boards, "round {}'s boards", round + 1);
        }
    }
    let all: Vec<String> = fake.bot_messages().iter().map(shown).collect();
    let byes: std::collections::HashSet<String> = all
        .iter()
        .flat_map(|t| t.lines().map(str::to_string).collect::<Vec<_>>())
        .filter_map(|l| l.strip_suffix(": a bye (1 point)").map(str::to_string))
        .collect();
    assert_eq!(byes.len(), 3, "one bye each, three rounds: {byes:?}");
    let over = fake
        .bot_messages()
        .into_iter()
        .find(|m| shown(m).contains("is over:"))
        .expect("the end");
    assert_eq!(
        shown(&over)
            .lines()
            .filter(|l| l.contains("Buchholz"))
            .count(),
        7,
        "{}",
        shown(&over)
    );
    assert_eq!(over.attachments.len(), 1, "the table's picture");
    assert!(over.attachments[0].filename.starts_with("standings-"));
    let (w, _) = decode_png(&over.attachments[0].data);
    assert_eq!(w, 1080);
    log.check(&fake).await;
    bot.stop(&fake).await;
}
