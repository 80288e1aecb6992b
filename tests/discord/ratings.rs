//! Ratings on Discord: `/play rated:True`, the rating change under the result, `/top` for
//! the server, `/stats` with user options, and `/rating` with its graph attached.

use crate::discord_fake::{CmdOpt, FakeInteraction, ResponseKind};
use crate::harness::{
    board_text, button, check_every_attachment, decode_png, message_of, slash_move, table,
};

use ResponseKind::{Callback, EditOriginal, Followup};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_rated_game_on_a_server_then_its_leaderboard_stats_and_graph() {
    let (fake, _dir, bot, log) = table().await;
    let (alice, bob) = (fake.add_user("alice"), fake.add_user("bob"));

    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::slash("play")
                .option(CmdOpt::user("opponent", &bob))
                .option(CmdOpt::string("time", "10+5"))
                .option(CmdOpt::string("color", "red"))
                .option(CmdOpt::boolean("rated", true))
                .by(&alice),
            &[Callback(5), EditOriginal],
        )
        .await;
    let challenge = message_of(&fake, &r[1]);
    assert!(
        challenge.content.contains("Rated game (Rapid)"),
        "{}",
        challenge.content
    );
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::button(challenge.id, &button(&challenge, "xq:A:")).by(&bob),
            &[Callback(6), Followup],
        )
        .await;
    let start_text = board_text(&message_of(&fake, &r[1]));
    assert!(start_text.contains("Rated game (Rapid)"), "{start_text}");
    slash_move(&fake, &log, &alice, "h2e2").await;
    slash_move(&fake, &log, &bob, "h9g7").await;
    slash_move(&fake, &log, &alice, "h0g2").await;
    slash_move(&fake, &log, &bob, "i9h9").await;
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::slash("resign").by(&bob),
            &[Callback(5), EditOriginal, Followup],
        )
        .await;
    let end = board_text(&message_of(&fake, &r[1]));
    assert!(end.contains("Ratings (Rapid): alice 1500? → "), "{end}");
    assert!(end.contains("(+") && end.contains("(−"), "{end}");

    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::slash("top")
                .option(CmdOpt::string("family", "rapid"))
                .by(&alice),
            &[Callback(4)],
        )
        .await;
    let top = message_of(&fake, &r[0]).content;
    assert!(
        top.contains("Nobody is on the Rapid leaderboard here yet"),
        "{top}"
    );
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::slash("stats")
                .option(CmdOpt::user("player", &alice))
                .option(CmdOpt::user("opponent", &bob))
                .by(&bob),
            &[Callback(4)],
        )
        .await;
    let h2h = message_of(&fake, &r[0]).content;
    assert!(
        h2h.contains("alice vs bob: 1 game(s) — alice 1 won"),
        "{h2h}"
    );

    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::slash("rating")
                .option(CmdOpt::user("player", &bob))
                .by(&alice),
            &[Callback(5), EditOriginal],
        )
        .await;
    let graph = message_of(&fake, &r[1]);
    assert_eq!(graph.attachments.len(), 1);
    assert_eq!(decode_png(&graph.attachments[0].data), (720, 360));
    let caption = graph.embeds[0]["description"].as_str().unwrap_or_default();
    assert!(
        caption.starts_with("Ratings of bob on Discord"),
        "{caption}"
    );
    assert!(caption.contains("Rapid: "), "{caption}");
    check_every_attachment(&fake);
    log.check(&fake).await;
    bot.stop(&fake).await;
}
