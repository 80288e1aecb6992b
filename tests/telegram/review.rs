//! Hints and reviews on Telegram: the real adapter against the fake Bot API server, the real
//! service on sled with the engine's pool attached. A hint arrives as its own board (a PNG),
//! and the "Review" button under a finished game posts the review with its graph.

use crate::telegram_fake;
use crate::telegram_harness;

use std::sync::Arc;

use telegram_fake::{FakeChat, FakeTelegram, FakeUser};
use telegram_harness::{
    button, check_every_call, expect_call, play, png_size, said, say, since, tap, Running, TOKEN,
};
use xiangqi_bot::app::bot::ThinkingPool;
use xiangqi_bot::app::Action;
use xiangqi_bot::uci::player::Player;
use xiangqi_bot::uci::EngineConfig;

fn user(id: i64, name: &str) -> FakeUser {
    FakeUser::new(id, name)
        .username(&name.to_lowercase())
        .language_code("en")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_and_a_review_arrive_as_pictures() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let bot = Running::start(&fake, dir.path()).await;
    let pool = Arc::new(ThinkingPool::new(
        1,
        Arc::new(Player::new(&EngineConfig::default())),
    ));
    bot.service.attach_bot(pool, Some(40));
    let engine = tokio::spawn(Arc::clone(&bot.service).run_bot());
    let group = FakeChat::group(-4_100_000_777, "Club");
    let (an, binh) = (user(1401, "An"), user(1402, "Binh"));
    let refused = say(&fake, &group, None, &an, "/hint", |c| c.is("sendMessage")).await;
    assert!(
        said(&refused).contains("no game here"),
        "{}",
        said(&refused)
    );
    fake.make_admin(&group, &an);
    say(&fake, &group, None, &an, "/hints on", |c| {
        said(c).contains("Hints are now allowed")
    })
    .await;
    say(&fake, &group, None, &an, "/play @binh red", |c| {
        c.is("sendMessage")
    })
    .await;
    say(&fake, &group, None, &binh, "/accept", |c| c.is("sendPhoto")).await;

    // The hint: acknowledged at once, then its own board.
    let mark = fake.mark();
    fake.push_message(&group, &an, "/hint", None);
    expect_call(&fake, mark, "the acknowledgement", |c| {
        said(c).contains("Looking for the best move")
    })
    .await;
    let hint = expect_call(&fake, mark, "the hint", |c| {
        c.is("sendPhoto") && said(c).contains("Hint for An: ")
    })
    .await;
    let (w, h) = png_size(hint.photo.as_deref().expect("a PNG"));
    assert!(w > 200 && h > 200);
    let text = said(&hint);
    let iccs = text
        .rsplit('(')
        .next()
        .and_then(|t| t.strip_suffix(')'))
        .expect("the move in ICCS");
    play(&fake, &group, &an, iccs, "1. An").await;
    play(&fake, &group, &binh, "h9g7", "2. Binh").await;

    // The end: a "Review" button under the result; tapping it posts the review.
    let mark = fake.mark();
    fake.push_message(&group, &an, "/resign", None);
    let end = expect_call(&fake, mark, "the result", |c| {
        c.is("sendPhoto") && said(c).contains("Game over")
    })
    .await;
    let review = button(&end, |a| matches!(a, Action::Review { game: 1 }));
    let mark = fake.mark();
    tap(&fake, &group, &binh, end.message_id.expect("id"), &review).await;
    let summary = expect_call(&fake, mark, "the review", |c| {
        said(c).contains("Review of game #1: An vs Binh")
    })
    .await;
    assert!(
        said(&summary).contains("An (Red): accuracy "),
        "{}",
        said(&summary)
    );
    let graph = expect_call(&fake, mark, "the graph", |c| {
        c.is("sendPhoto") && c.chat_id == Some(group.id) && c.seq > summary.seq
    })
    .await;
    let (w, _) = png_size(graph.photo.as_deref().expect("a PNG"));
    assert!(w >= 800, "graph {w} wide");
    expect_call(&fake, mark, "the annotated PGN", |c| {
        said(c).contains("[%eval")
    })
    .await;
    check_every_call(&since(&fake, 0));
    engine.abort();
    bot.stop().await;
}
