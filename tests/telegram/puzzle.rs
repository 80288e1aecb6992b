//! Puzzles on Telegram, end to end: the real adapter against the fake Bot API server, the
//! service on sled. A group races for the first solver (a wrong move refuted, the solver
//! credited with their puzzle rating), the buttons under a puzzle (pick a move, hint, show
//! solution, next), and a daily puzzle that fell due while the bot was down, posted when it
//! is back.

use crate::telegram_fake;
use crate::telegram_harness;

use telegram_fake::{FakeChat, FakeTelegram, FakeUser, SentCall};
use telegram_harness::{
    board_after, button, check_every_call, expect_call, play, said, say, since, tap, Running, TOKEN,
};
use xiangqi_bot::app::{Action, ServiceConfig};
use xiangqi_bot::core::Move;
use xiangqi_bot::game::{DailyPuzzle, Deadline, DeadlineKind};
use xiangqi_bot::platform::ChannelKey;
use xiangqi_bot::storage::SledStorage;

use crate::puzzles;
use puzzles::NODES;

fn config() -> ServiceConfig {
    ServiceConfig {
        rate_burst: 1000,
        puzzle_nodes: NODES,
        ..ServiceConfig::default()
    }
}

fn user(id: i64, name: &str) -> FakeUser {
    FakeUser::new(id, name)
        .username(&name.to_lowercase())
        .language_code("en")
}

fn is_puzzle_board(c: &SentCall) -> bool {
    c.callback_data()
        .iter()
        .filter_map(|d| Action::decode(d))
        .any(|a| matches!(a, Action::PuzzleHint { .. }))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_group_solves_a_puzzle_by_moves_and_buttons() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let running = Running::start_with(&fake, dir.path(), config()).await;
    let group = FakeChat::group(-4_000_000_301, "Puzzle club");
    let (alice, bob, carol) = (user(1001, "Alice"), user(1002, "Bob"), user(1003, "Carol"));
    let example = puzzles::mate_in_two();
    let (p, bad) = (&example.puzzle, example.wrong_second);
    let line: Vec<String> = p.solution.iter().map(Move::to_string).collect();

    let mark = fake.mark();
    fake.push_message(&group, &alice, &format!("/puzzle {}", p.id), None);
    let posted = board_after(&fake, mark, &group, &format!("Puzzle {}|mate in 2", p.id)).await;
    assert!(is_puzzle_board(&posted), "{:?}", posted.buttons());
    // Alice's first move is answered by the defender's reply, on a board.
    let answered = play(&fake, &group, &alice, &line[0], "is right, Alice").await;
    assert!(
        said(&answered).contains("1 more move"),
        "{}",
        said(&answered)
    );
    // Bob's move does not mate: refuted, and his try is over; the others go on.
    let wrong = say(&fake, &group, None, &bob, &bad.to_string(), |c| {
        said(c).contains("is not it, Bob")
    })
    .await;
    assert!(!said(&wrong).contains("The solution"), "{}", said(&wrong));
    say(&fake, &group, None, &bob, &line[2], |c| {
        said(c).contains("already missed")
    })
    .await;
    // Carol finds the mate and is credited; Alice, who found the first move, is rated too.
    let solved = play(&fake, &group, &carol, &line[2], "solved by Carol").await;
    let text = said(&solved);
    assert!(text.contains("Carol: puzzle rating 1500 →"), "{text}");
    assert!(text.contains("Alice: puzzle rating 1500 →"), "{text}");

    // Next (under the solved board) posts another puzzle; its buttons work.
    let next = button(&solved, |a| matches!(a, Action::PuzzleNext { .. }));
    let mark = fake.mark();
    tap(&fake, &group, &bob, solved.message_id.expect("id"), &next).await;
    let second = expect_call(&fake, mark, "the next puzzle", |c| {
        c.is("sendPhoto") && is_puzzle_board(c)
    })
    .await;
    assert!(!said(&second).contains(&p.id), "{}", said(&second));
    let second_id = second.message_id.expect("id");
    // The picker: pieces, then a piece's moves, in a keyboard for the presser.
    let pick = button(&second, |a| matches!(a, Action::PuzzlePick { .. }));
    let mark = fake.mark();
    tap(&fake, &group, &carol, second_id, &pick).await;
    let picker = expect_call(&fake, mark, "a picker", |c| {
        c.callback_data().iter().any(|d| {
            Action::decode(d.split('|').next().unwrap_or(""))
                .is_some_and(|a| matches!(a, Action::PuzzlePickFrom { .. }))
        })
    })
    .await;
    assert!(said(&picker).contains("Carol"), "{}", said(&picker));
    let hint = button(&second, |a| matches!(a, Action::PuzzleHint { .. }));
    let mark = fake.mark();
    tap(&fake, &group, &carol, second_id, &hint).await;
    expect_call(&fake, mark, "the hint", |c| {
        c.chat_id == Some(group.id) && said(c).contains("Hint: move the")
    })
    .await;
    let solution = button(&second, |a| matches!(a, Action::PuzzleSolution { .. }));
    let mark = fake.mark();
    tap(&fake, &group, &alice, second_id, &solution).await;
    expect_call(&fake, mark, "the solution", |c| {
        c.is("sendPhoto") && said(c).contains("The solution: 1.")
    })
    .await;
    // The puzzle is over: its buttons say so.
    let over = tap(&fake, &group, &alice, second_id, &hint).await;
    assert_eq!(over, "That puzzle is over.");
    check_every_call(&since(&fake, 0));
    running.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_daily_puzzle_due_while_the_bot_was_down_is_posted_when_it_is_back() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let group = FakeChat::group(-4_000_000_302, "Daily club");
    let alice = user(1001, "Alice");
    let running = Running::start_with(&fake, dir.path(), config()).await;
    fake.make_owner(&group, &alice);
    say(&fake, &group, None, &alice, "/puzzle daily on 7", |c| {
        said(c).contains("every day at 07:00 UTC")
    })
    .await;
    running.stop().await;
    // While the bot is down the day turns: the stored deadline is now in the past.
    let channel: ChannelKey = format!("tg:{}", group.id).into();
    {
        let storage = SledStorage::open(dir.path()).expect("sled");
        use xiangqi_bot::game::Storage;
        let mut record = storage.channel(&channel).expect("read").expect("channel");
        let daily = record.settings.puzzle_daily.expect("daily on");
        let passed = xiangqi_bot::app::system_now()() - 60_000;
        let at = |at_ms| Deadline {
            at_ms,
            id: 0,
            kind: DeadlineKind::PuzzleDaily,
            channel: channel.clone(),
        };
        record.settings.puzzle_daily = Some(DailyPuzzle {
            hour: daily.hour,
            next_ms: passed,
        });
        let changes = xiangqi_bot::game::Changes {
            channels: vec![(channel.clone(), record)],
            remove_deadlines: vec![at(daily.next_ms)],
            add_deadlines: vec![at(passed)],
            ..Default::default()
        };
        storage.persist(changes).await.expect("persist");
        storage.flush().await.expect("flush");
    }
    let mark = fake.mark();
    let running = Running::start_with(&fake, dir.path(), config()).await;
    let daily = expect_call(&fake, mark, "the daily puzzle", |c| {
        c.is("sendPhoto") && c.chat_id == Some(group.id) && said(c).contains("Daily puzzle")
    })
    .await;
    assert!(is_puzzle_board(&daily), "{:?}", daily.buttons());
    let record = running
        .service
        .storage()
        .channel(&channel)
        .expect("read")
        .expect("channel");
    let next = record.settings.puzzle_daily.expect("still on").next_ms;
    assert!(
        next > xiangqi_bot::app::system_now()(),
        "the next one is ahead"
    );
    running.stop().await;
}
