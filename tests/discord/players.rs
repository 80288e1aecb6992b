//! What players noticed, on Discord: a challenge loses its buttons once answered or lapsed, a
//! stranger's `/move` is answered privately, pickers are cleared once replaced or used, and
//! `/move` suggestions follow the user's language and notation.

use xiangqi_bot::app::ServiceConfig;
use xiangqi_bot::core::{Move, Position};
use xiangqi_bot::notation::{format_move, Notation};

use crate::discord_fake::{CmdOpt, FakeDiscord, FakeInteraction, ResponseKind};
use crate::harness::{
    button, fake, message_of, new_game, service_config, start, table, Ledger, WAIT,
};

use ResponseKind::{Callback, EditOriginal, Followup};

/// Waits until message `id` has no components left.
async fn loses_buttons(fake: &FakeDiscord, id: u64) {
    assert!(
        fake.wait_for(
            |f| f.message(id).is_some_and(|m| m.components.is_empty()),
            WAIT
        )
        .await,
        "message {id} kept its buttons: {:?}",
        fake.message(id).map(|m| m.custom_ids())
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn challenges_lose_their_buttons_once_answered_and_a_strangers_move_is_private() {
    let (fake, _dir, bot, log) = table().await;
    let (alice, bob, carol) = (
        fake.add_user("alice"),
        fake.add_user("bob"),
        fake.add_user("carol"),
    );
    let play = |by: &crate::discord_fake::FakeUser| {
        FakeInteraction::slash("play")
            .option(CmdOpt::user("opponent", &bob))
            .option(CmdOpt::string("color", "red"))
            .by(by)
    };
    // Accepted by /accept (not the button): the challenge's buttons go all the same.
    let (_, r) = log
        .answers(&fake, play(&alice), &[Callback(5), EditOriginal])
        .await;
    let first = message_of(&fake, &r[1]);
    assert_eq!(first.custom_ids().len(), 2);
    log.answers(
        &fake,
        FakeInteraction::slash("accept").by(&bob),
        &[Callback(5), EditOriginal],
    )
    .await;
    loses_buttons(&fake, first.id).await;

    // A stranger's /move is refused privately, as a stranger's button is: in the response
    // itself, with no public "thinking…" first.
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::slash("move")
                .option(CmdOpt::string("move", "h2e2"))
                .by(&carol),
            &[Callback(4)],
        )
        .await;
    let note = message_of(&fake, &r[0]);
    assert!(note.is_ephemeral(), "{note:?}");
    assert!(
        note.content.contains("only they can act"),
        "{}",
        note.content
    );
    log.answers(
        &fake,
        FakeInteraction::slash("abort").by(&alice),
        &[Callback(5), EditOriginal],
    )
    .await;

    // Declined by button: the buttons go with the answer.
    let (_, r) = log
        .answers(&fake, play(&alice), &[Callback(5), EditOriginal])
        .await;
    let second = message_of(&fake, &r[1]);
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::button(second.id, &button(&second, "xq:D:")).by(&bob),
            &[Callback(6), Followup],
        )
        .await;
    assert!(message_of(&fake, &r[1]).content.contains("bob declined"));
    loses_buttons(&fake, second.id).await;
    log.check(&fake).await;
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_name_that_looks_like_a_link_is_shown_as_written() {
    let (fake, _dir, bot, log) = table().await;
    let trickster = fake.add_user("[Free Nitro](https://x.co/a)");
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::slash("play").by(&trickster),
            &[Callback(5), EditOriginal],
        )
        .await;
    let challenge = message_of(&fake, &r[1]);
    // Escaped, the brackets are shown as typed and no masked link is formed.
    assert!(
        challenge
            .content
            .starts_with("[Free Nitro\\](https://x.co/a) challenges"),
        "{}",
        challenge.content
    );
    log.check(&fake).await;
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_lapsed_challenge_loses_its_buttons() {
    let fake = fake().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let config = ServiceConfig {
        challenge_ttl_ms: 2_000,
        ..service_config()
    };
    let bot = start(&fake, dir.path(), None, config, true).await;
    let log = Ledger::default();
    let alice = fake.add_user("alice");
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::slash("play").by(&alice),
            &[Callback(5), EditOriginal],
        )
        .await;
    let challenge = message_of(&fake, &r[1]);
    assert_eq!(challenge.custom_ids().len(), 2);
    assert!(
        fake.wait_for(
            |f| f
                .bot_messages()
                .iter()
                .any(|m| m.content.contains("has lapsed")),
            WAIT
        )
        .await
    );
    loses_buttons(&fake, challenge.id).await;
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn pickers_are_cleared_and_suggestions_follow_the_user() {
    let (fake, _dir, bot, log) = table().await;
    let (alice, bob) = (fake.add_user("alice"), fake.add_user("bob"));
    let board = new_game(&fake, &log, &alice, &bob).await;
    let pick = button(&fake.message(board).expect("board"), "xq:P:");
    let open = || FakeInteraction::button(board, &pick).by(&alice);
    // A second Pick a move clears the first picker away.
    let (first_ix, r) = log.answers(&fake, open(), &[Callback(6), Followup]).await;
    let first = message_of(&fake, &r[1]);
    assert!(first.is_ephemeral());
    assert_eq!(first.content, "alice, pick the piece to move:");
    let (second_ix, r) = log.answers(&fake, open(), &[Callback(6), Followup]).await;
    let second = message_of(&fake, &r[1]);
    assert!(
        fake.wait_for(|f| f.message(first.id).is_some_and(|m| m.deleted), WAIT)
            .await,
        "the first picker stayed"
    );
    log.expect_more(first_ix.id, 1);
    // The move typed instead: the open picker goes too.
    log.answers(
        &fake,
        FakeInteraction::slash("move")
            .option(CmdOpt::string("move", "h2e2"))
            .by(&alice),
        &[Callback(5), EditOriginal],
    )
    .await;
    assert!(
        fake.wait_for(|f| f.message(second.id).is_some_and(|m| m.deleted), WAIT)
            .await,
        "the second picker stayed"
    );
    log.expect_more(second_ix.id, 1);

    // bob's suggestions, in his client's language's notation, then in the one he chose.
    let mut pos = Position::startpos();
    pos.play(Move::parse_iccs("h2e2").expect("iccs"))
        .expect("legal");
    let horse = Move::parse_iccs("h9g7").expect("iccs");
    let suggest = |locale: &str, typed: &str| {
        FakeInteraction::autocomplete("move")
            .option(CmdOpt::string("move", typed).focused())
            .locale(locale)
            .by(&bob)
    };
    let values = |r: &[crate::discord_fake::InteractionResponse]| -> Vec<String> {
        r[0].json.as_ref().expect("json")["data"]["choices"]
            .as_array()
            .expect("choices")
            .iter()
            .map(|c| c["value"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    for (locale, notation) in [
        ("vi", Notation::Vietnamese),
        ("zh-CN", Notation::Chinese),
        ("en-US", Notation::Wxf),
    ] {
        let expected = format_move(&pos, horse, notation);
        let typed: String = expected.chars().take(1).collect();
        let (_, r) = log
            .answers(&fake, suggest(locale, &typed), &[Callback(8)])
            .await;
        let got = values(&r);
        assert!(
            got.contains(&expected),
            "{locale}: {expected} not in {got:?}"
        );
    }
    log.answers(
        &fake,
        FakeInteraction::slash("notation")
            .option(CmdOpt::string("name", "iccs"))
            .by(&bob)
            .locale("vi"),
        &[Callback(5), EditOriginal],
    )
    .await;
    let (_, r) = log
        .answers(&fake, suggest("vi", "h9"), &[Callback(8)])
        .await;
    assert!(values(&r).contains(&"h9g7".to_string()), "{:?}", values(&r));
    log.check(&fake).await;
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn ruleset_choices_are_named_in_each_language() {
    let fake = fake().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let bot = start(&fake, dir.path(), None, service_config(), false).await;
    let commands = fake.global_commands();
    let play = commands
        .iter()
        .find(|c| c["name"] == "play")
        .expect("/play");
    let ruleset = play["options"]
        .as_array()
        .and_then(|o| o.iter().find(|o| o["name"] == "ruleset"))
        .expect("the ruleset option");
    let asian = ruleset["choices"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["value"] == "asian"))
        .expect("asian");
    assert_eq!(asian["name"], "Asian (AXF/WXF) rules");
    assert_eq!(asian["name_localizations"]["vi"], "Luật châu Á (AXF/WXF)");
    assert_eq!(
        asian["name_localizations"]["zh-CN"],
        "亚洲象棋规则（AXF/WXF）"
    );
    bot.stop(&fake).await;
}
