//! Hints and reviews on Discord: the engine's pool attached to the real service; a hint comes
//! as its own board with the arrow, and the "Review" button under a finished game posts the
//! review with its graph.

use std::sync::Arc;

use xiangqi_bot::app::bot::ThinkingPool;
use xiangqi_bot::uci::player::Player;
use xiangqi_bot::uci::EngineConfig;

use crate::discord_fake::{
    permissions, CmdOpt, FakeDiscord, FakeInteraction, FakeMessage, ResponseKind,
};
use crate::harness::{
    button, check_every_attachment, decode_png, fake, new_game, service_config, slash_move, start,
    Ledger, WAIT,
};

use ResponseKind::{Callback, EditOriginal};

/// A message's words: its content and its embeds' descriptions.
fn words(m: &FakeMessage) -> String {
    let mut s = m.content.clone();
    for e in &m.embeds {
        s.push('\n');
        s.push_str(e["description"].as_str().unwrap_or_default());
    }
    s
}

/// The first message of the bot after `seen` messages that satisfies `pred`.
async fn bot_message(
    fake: &FakeDiscord,
    seen: usize,
    pred: impl Fn(&FakeMessage) -> bool,
) -> FakeMessage {
    let found = |f: &FakeDiscord| f.bot_messages().into_iter().skip(seen).find(|m| pred(m));
    assert!(
        fake.wait_for(|f| found(f).is_some(), WAIT).await,
        "no such message; the bot said: {:#?}",
        fake.bot_messages()
            .iter()
            .map(|m| (m.id, words(m)))
            .collect::<Vec<_>>()
    );
    found(fake).expect("found")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_hint_and_a_review_arrive_as_pictures() {
    let fake = fake().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let bot = start(&fake, dir.path(), None, service_config(), false).await;
    let pool = Arc::new(ThinkingPool::new(
        1,
        Arc::new(Player::new(&EngineConfig::default())),
    ));
    bot.service.attach_bot(pool, Some(40));
    let engine = tokio::spawn(Arc::clone(&bot.service).run_bot());
    let log = Ledger::default();
    let (alice, bob) = (fake.add_user("alice"), fake.add_user("bob"));
    fake.grant(alice.id, permissions::MANAGE_CHANNELS);
    log.answers(
        &fake,
        FakeInteraction::slash("hints")
            .option(CmdOpt::string("allow", "on"))
            .by(&alice),
        &[Callback(5), EditOriginal],
    )
    .await;
    new_game(&fake, &log, &alice, &bob).await;

    // The hint: acknowledged, then its own board.
    let seen = fake.bot_messages().len();
    log.answers(
        &fake,
        FakeInteraction::slash("hint").by(&alice),
        &[Callback(5), EditOriginal],
    )
    .await;
    let hint = bot_message(&fake, seen, |m| {
        m.attachments
            .first()
            .is_some_and(|a| a.filename.starts_with("hint-"))
    })
    .await;
    decode_png(&hint.attachments[0].data);
    let said = words(&hint);
    assert!(said.contains("Hint for alice: "), "{said}");
    let iccs = said
        .rsplit('(')
        .next()
        .and_then(|t| t.strip_suffix(')'))
        .expect("the move in ICCS");
    slash_move(&fake, &log, &alice, iccs).await;
    slash_move(&fake, &log, &bob, "h9g7").await;

    // alice resigns: a "Review" button under the result; bob taps it.
    let seen = fake.bot_messages().len();
    fake.push_interaction(FakeInteraction::slash("resign").by(&alice));
    let end = bot_message(&fake, seen, |m| {
        m.custom_ids().iter().any(|id| id.starts_with("xq:V:"))
    })
    .await;
    let seen = fake.bot_messages().len();
    fake.push_interaction(FakeInteraction::button(end.id, &button(&end, "xq:V:")).by(&bob));
    let summary = bot_message(&fake, seen, |m| {
        words(m).contains("Review of game #1: alice vs bob")
    })
    .await;
    assert!(words(&summary).contains("alice (Red): accuracy "));
    let graph = bot_message(&fake, seen, |m| {
        m.attachments
            .first()
            .is_some_and(|a| a.filename.starts_with("review-"))
    })
    .await;
    let (w, _) = decode_png(&graph.attachments[0].data);
    assert!(w >= 800, "graph {w} wide");
    bot_message(&fake, seen, |m| words(m).contains("[%eval")).await;
    check_every_attachment(&fake);
    engine.abort();
    bot.stop(&fake).await;
}
