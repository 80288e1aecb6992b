//! What surrounds the games: registration, permissions, intents, the timer, the binary.

use crate::discord_fake::{CmdOpt, FakeDiscord, FakeInteraction, ResponseKind};
use crate::harness::{
    board_text, check_every_attachment, fake, message_of, new_game, service_config, slash_move,
    start, start_with, table, Ledger, WAIT,
};

use std::time::Duration;

use ResponseKind::{Callback, DeleteOriginal, EditOriginal, Followup};

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

    // Switching to one guild (same Discord, same database): the global commands go, so
    // nobody sees every command twice.
    let guild = fake.guild_id();
    let bot = start(&fake, dir.path(), Some(guild), service_config(), false).await;
    assert_eq!(
        fake.guild_commands(guild).len(),
        xiangqi_bot::app::Cmd::ALL.len()
    );
    assert!(
        fake.wait_for(|f| f.global_commands().is_empty(), WAIT)
            .await,
        "the global commands were removed"
    );
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
            FakeInteraction::slash("help").by(&alice),
            &[Callback(4)],
        )
        .await;
    assert!(message_of(&fake, &r[0]).content.contains("/play"));
    // In Vietnamese the commands are named as the menu names them for a Vietnamese client,
    // and the list is longer than one Discord message: thinking, then both parts.
    let vi = fake.guild_commands(guild);
    let play = vi.iter().find(|c| c["name"] == "play").expect("/play");
    assert_eq!(play["name_localizations"]["vi"], "choi");
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::slash("help").by(&alice).locale("vi"),
            &[Callback(5), EditOriginal, Followup],
        )
        .await;
    let whole = format!(
        "{}\n{}",
        message_of(&fake, &r[1]).content,
        message_of(&fake, &r[2]).content
    );
    assert!(whole.contains("/play (/choi)"), "{whole}");
    assert!(whole.contains("/puzzle (/cothe)"), "{whole}");
    log.check(&fake).await;
    bot.stop(&fake).await;

    // And back to global: the guild's copies go.
    let bot = start(&fake, dir.path(), None, service_config(), false).await;
    assert!(
        fake.wait_for(|f| f.guild_commands(guild).is_empty(), WAIT)
            .await,
        "the guild's commands were removed"
    );
    assert_eq!(
        fake.global_commands().len(),
        xiangqi_bot::app::Cmd::ALL.len()
    );
    bot.stop(&fake).await;
}

/// A service slower than the budget (zero here, so every command is "slow"): the command is
/// deferred for everyone at once, then its public answer replaces the "thinking…" and a
/// private one follows only to its user, the public "thinking…" deleted.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_slow_answer_is_deferred_then_delivered() {
    let fake = fake().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let now = xiangqi_bot::app::system_now();
    let bot = start_with(
        &fake,
        dir.path(),
        None,
        service_config(),
        false,
        now,
        Duration::ZERO,
    )
    .await;
    let log = Ledger::default();
    let (alice, bob) = (fake.add_user("alice"), fake.add_user("bob"));
    // /help: public.
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::slash("help").by(&alice),
            &[Callback(5), EditOriginal],
        )
        .await;
    assert!(
        r[0].json
            .as_ref()
            .is_none_or(|j| j["data"]["flags"].as_u64().unwrap_or(0) & 64 == 0),
        "deferred for everyone"
    );
    assert!(
        message_of(&fake, &r[1]).content.contains("/play"),
        "{}",
        message_of(&fake, &r[1]).content
    );
    // A hint with no game: private.
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::slash("hint").by(&bob),
            &[Callback(5), Followup, DeleteOriginal],
        )
        .await;
    assert!(message_of(&fake, &r[1]).is_ephemeral());
    log.check(&fake).await;
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn missing_attach_files_gives_the_text_board_and_a_hint() {
    let (fake, _dir, bot, log) = table().await;
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
    assert!(m.content.contains("1. alice: h2e2\n"), "{}", m.content);
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
    assert!(text.starts_with("1. alice: h2e2\n"), "{text}");
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
