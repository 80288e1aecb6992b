//! Ratings on Telegram end to end (the real adapter against the fake Bot API): a casual
//! challenge switched to rated by its button, the rating change under the result, `/top`,
//! `/stats` with a player named by @username, and the rating graph sent as a photo.

use crate::telegram_fake;
use crate::telegram_harness;

use telegram_fake::{FakeChat, FakeTelegram, FakeUser};
use telegram_harness::{
    board_after, button, check_every_call, expect_call, play, png_size, said, say, since, tap,
    Running, TOKEN,
};
use xiangqi_bot::app::Action;

fn user(id: i64, name: &str) -> FakeUser {
    FakeUser::new(id, name)
        .username(&name.to_lowercase())
        .language_code("en")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_in_a_group_then_its_leaderboard_stats_and_graph() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let bot = Running::start(&fake, dir.path()).await;
    let group = FakeChat::group(-4_000_000_077, "Xiangqi club");
    let (alice, bob) = (user(2001, "Alice"), user(2002, "Bob"));
    let start = fake.mark();

    // A casual challenge with a button to make it rated, which only the challenger may use.
    let challenge = say(&fake, &group, None, &alice, "/play @bob red 10+5", |c| {
        c.is("sendMessage")
    })
    .await;
    assert!(
        said(&challenge).contains("Casual game (not rated)"),
        "{}",
        said(&challenge)
    );
    let make_rated = button(&challenge, |a| {
        matches!(a, Action::SetRated { rated: true, .. })
    });
    let id = challenge.message_id.expect("id");
    let refusal = tap(&fake, &group, &bob, id, &make_rated).await;
    assert!(
        refusal.starts_with("Only the player who made the challenge"),
        "{refusal}"
    );
    let mark = fake.mark();
    assert_eq!(tap(&fake, &group, &alice, id, &make_rated).await, "");
    let rated = expect_call(&fake, mark, "the rated challenge", |c| {
        c.is("sendMessage") && said(c).contains("Rated game (Rapid)")
    })
    .await;
    expect_call(&fake, mark, "the old keyboard removed", |c| {
        c.is("editMessageReplyMarkup") && c.message_id == Some(id)
    })
    .await;
    button(&rated, |a| {
        matches!(a, Action::SetRated { rated: false, .. })
    });
    let accept = button(&rated, |a| matches!(a, Action::Accept { .. }));
    let mark = fake.mark();
    tap(&fake, &group, &bob, rated.message_id.expect("id"), &accept).await;
    board_after(&fake, mark, &group, "begins|Rated game (Rapid)").await;
    play(&fake, &group, &alice, "h2e2", "1. Alice").await;
    play(&fake, &group, &bob, "h9g7", "2. Bob").await;
    play(&fake, &group, &alice, "h0g2", "3. Alice").await;
    play(&fake, &group, &bob, "i9h9", "4. Bob").await;
    let mark = fake.mark();
    fake.push_message(&group, &bob, "/resign", None);
    let end = board_after(
        &fake,
        mark,
        &group,
        "Bob resigned|Ratings (Rapid): Alice 1500? → ",
    )
    .await;
    let text = said(&end);
    assert!(
        text.contains("(+") && text.contains("Bob 1500? → ") && text.contains("(−"),
        "{text}"
    );

    // The leaderboard waits for settled ratings; the statistics name Bob by his username.
    // (The game's PGN may still be on its way: wait for the answer itself.)
    let top = say(&fake, &group, None, &alice, "/top", |c| {
        c.is("sendMessage") && said(c).contains("leaderboard")
    })
    .await;
    assert!(
        said(&top).contains("Nobody is on the Rapid leaderboard here yet"),
        "{}",
        said(&top)
    );
    let stats = say(&fake, &group, None, &alice, "/stats @bob", |c| {
        c.is("sendMessage")
    })
    .await;
    assert!(
        said(&stats).starts_with("Bob: 1 games — 0 won, 0 drawn, 1 lost"),
        "{}",
        said(&stats)
    );
    let h2h = say(&fake, &group, None, &bob, "/stats @alice @bob", |c| {
        c.is("sendMessage")
    })
    .await;
    assert!(
        said(&h2h).contains("Alice vs Bob: 1 game(s) — Alice 1 won"),
        "{}",
        said(&h2h)
    );
    let nobody = say(&fake, &group, None, &bob, "/rating @nobody", |c| {
        c.is("sendMessage")
    })
    .await;
    assert!(
        said(&nobody).starts_with("I do not know @nobody"),
        "{}",
        said(&nobody)
    );

    // The rating graph comes as a photo with the ratings as its caption.
    let graph = say(&fake, &group, None, &bob, "/rating @alice", |c| {
        c.is("sendPhoto")
    })
    .await;
    assert!(
        said(&graph).starts_with("Ratings of Alice on Telegram"),
        "{}",
        said(&graph)
    );
    assert_eq!(png_size(graph.photo.as_deref().expect("photo")), (720, 360));

    check_every_call(&since(&fake, start));
    bot.stop().await;
}
