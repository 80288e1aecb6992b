//! Tournament games in forum topics of their own (`createForumTopic`), through the real
//! adapter against the fake Bot API: one topic per pairing, named after it; the chat told
//! where each game is played; moves typed in a topic by its players, boards posted there; a
//! forum where the bot may not manage topics plays in the chat; a restart after the pairing
//! and before the topics were opened opens each once.

use crate::telegram_fake;
use crate::telegram_harness;

use std::time::{Duration, Instant};

use telegram_fake::{FakeChat, FakeTelegram, FakeUser, SentCall};
use telegram_harness::{expect_call, said, say, Running, TOKEN};

fn user(id: i64, name: &str) -> FakeUser {
    FakeUser::new(id, name)
        .username(&name.to_lowercase())
        .language_code("en")
}

fn players() -> Vec<FakeUser> {
    ["Ann", "Ben", "Cat", "Dan"]
        .iter()
        .zip(2001..)
        .map(|(n, id)| user(id, n))
        .collect()
}

/// Waits until `n` successful calls since `mark` match `pred`; returns them.
async fn calls(
    fake: &FakeTelegram,
    mark: u64,
    n: usize,
    what: &str,
    pred: impl Fn(&SentCall) -> bool,
) -> Vec<SentCall> {
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let got: Vec<SentCall> = fake
            .sent()
            .into_iter()
            .filter(|c| c.seq >= mark && pred(c))
            .collect();
        if got.len() >= n || Instant::now() > until {
            assert!(
                got.len() >= n,
                "{what}: {} of {n}: {:#?}",
                got.len(),
                fake.calls()
            );
            return got;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// `owner` makes a one-round Swiss in `chat` and the four players join.
async fn four_join(fake: &FakeTelegram, chat: &FakeChat, owner: &FakeUser, four: &[FakeUser]) {
    let list = say(
        fake,
        chat,
        None,
        owner,
        "/tournament swiss rounds 1 3+2",
        |c| said(c).contains("Tournament #1"),
    )
    .await;
    // The entry list says where the games will be played.
    let terms = said(&list);
    assert!(
        terms.contains("each game in a thread (topic) of its own"),
        "{terms}"
    );
    for p in four {
        say(fake, chat, None, p, "/tournament join", |c| {
            said(c).contains(&format!("{} joins tournament #1", p.first_name))
        })
        .await;
    }
}

/// A forum `id` whose owner made a one-round Swiss the four players joined, the bot running
/// (allowed to manage the forum's topics if `rights`).
struct Forum {
    fake: FakeTelegram,
    dir: tempfile::TempDir,
    forum: FakeChat,
    owner: FakeUser,
    four: Vec<FakeUser>,
    bot: Running,
}

async fn forum(id: i64, rights: bool) -> Forum {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let forum = FakeChat::forum(id, "Forum club");
    let owner = user(2090, "Owner");
    fake.make_owner(&forum, &owner);
    if rights {
        fake.let_bot_manage_topics(&forum);
    }
    let bot = Running::start(&fake, dir.path()).await;
    let four = players();
    four_join(&fake, &forum, &owner, &four).await;
    Forum {
        fake,
        dir,
        forum,
        owner,
        four,
        bot,
    }
}

/// The player of `four` named `name`.
fn named<'a>(four: &'a [FakeUser], name: &str) -> &'a FakeUser {
    four.iter()
        .find(|p| p.first_name == name)
        .expect("a player")
}

/// The games begun in `c`'s caption: (number, red, black).
fn begun(c: &SentCall) -> Vec<(u64, String, String)> {
    crate::begun::begun(&said(c))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forum_round_plays_each_pairing_in_its_own_topic() {
    let f = forum(-1_004_000_000_090, true).await;
    let (fake, forum, owner, four) = (&f.fake, &f.forum, &f.owner, &f.four);

    let mark = fake.mark();
    fake.push_message(forum, owner, "/tournament start", None);
    // One topic per pairing, named after it.
    let opened = calls(fake, mark, 2, "two topics", |c| c.is("createForumTopic")).await;
    let topics = fake.topics(forum);
    assert_eq!(topics.len(), 2, "{topics:?}");
    for (_, name) in &topics {
        assert!(
            name.starts_with("Round 1: ") && name.contains(" – "),
            "{name}"
        );
    }
    // Each game's first board goes to its topic, calling its two players.
    let boards = calls(fake, mark, 2, "a board in each topic", |c| {
        c.is("sendPhoto") && c.thread_id.is_some() && !begun(c).is_empty()
    })
    .await;
    let mut threads: Vec<i32> = boards.iter().filter_map(|c| c.thread_id).collect();
    threads.sort_unstable();
    let mut made: Vec<i32> = topics.iter().map(|(t, _)| *t).collect();
    made.sort_unstable();
    assert_eq!(threads, made);
    assert_eq!(opened.len(), 2);
    for b in &boards {
        assert!(said(b).starts_with("🔔 "), "{}", said(b));
    }
    // The chat is told where each game is played, with a link to its topic.
    let pointers = calls(fake, mark, 2, "the chat told where", |c| {
        c.is("sendMessage") && c.thread_id.is_none() && said(c).contains("is played in")
    })
    .await;
    for (t, _) in &topics {
        assert!(
            pointers
                .iter()
                .any(|p| said(p).contains(&format!("https://t.me/c/4000000090/{t}"))),
            "{pointers:#?}"
        );
    }
    // No board of the round in the chat itself.
    assert!(!fake
        .sent()
        .iter()
        .any(|c| c.seq >= mark && c.is("sendPhoto") && c.thread_id.is_none()));

    // A move typed in a topic by its Red lands in that game; the board comes to the topic.
    let first = &boards[0];
    let thread = first.thread_id.expect("a topic");
    let (game, red, black) = begun(first).remove(0);
    let red = named(four, &red);
    let black = named(four, &black);
    let mark = fake.mark();
    fake.push_message(forum, red, "h2e2", Some(thread));
    let board = expect_call(fake, mark, "the board in the topic", |c| {
        c.is("sendPhoto") && said(c).contains(&format!("1. {}: h2e2", red.first_name))
    })
    .await;
    assert_eq!(board.thread_id, Some(thread), "{}", said(&board));
    assert!(
        said(&board).contains(&format!("Game #{game}")),
        "{}",
        said(&board)
    );
    // Someone else's move there is refused privately (an answer to their message, in the
    // topic); the game does not move.
    let carol = user(2099, "Carol");
    let mark = fake.mark();
    let asked = fake.push_message(forum, &carol, "/move h9g7", Some(thread));
    let refusal = expect_call(fake, mark, "the refusal", |c| {
        c.is("sendMessage") && c.params["reply_parameters"]["message_id"] == asked
    })
    .await;
    assert_eq!(refusal.thread_id, Some(thread));
    // Their `/board` there shows the topic's game (of the two the chat holds).
    let mark = fake.mark();
    fake.push_message(forum, &carol, "/board", Some(thread));
    let shown = expect_call(fake, mark, "the topic's board", |c| {
        c.is("sendPhoto") && c.thread_id == Some(thread)
    })
    .await;
    assert!(
        said(&shown).contains(&format!("Game #{game}")),
        "{}",
        said(&shown)
    );
    // Black answers in the topic; the game goes on there.
    let mark = fake.mark();
    fake.push_message(forum, black, "h9g7", Some(thread));
    let answer = expect_call(fake, mark, "Black's move in the topic", |c| {
        c.is("sendPhoto") && said(c).contains(&format!("{}: h9g7", black.first_name))
    })
    .await;
    assert_eq!(answer.thread_id, Some(thread));
    // Red resigns in the topic: the game's end is said there, the tournament's in the chat.
    let mark = fake.mark();
    fake.push_message(forum, red, "/resign", Some(thread));
    let over = expect_call(fake, mark, "the game's end", |c| {
        said(c).contains(&format!("Black wins — {} resigned", red.first_name))
    })
    .await;
    assert_eq!(over.thread_id, Some(thread), "{}", said(&over));
    // The other game ends in its topic; the tournament's end, its podium, comes to the chat.
    let other = &boards[1];
    let (_, other_red, _) = begun(other).remove(0);
    let other_red = named(four, &other_red);
    let mark = fake.mark();
    fake.push_message(forum, other_red, "/resign", other.thread_id);
    let podium = expect_call(fake, mark, "the podium", |c| said(c).contains("🥇")).await;
    assert_eq!(podium.thread_id, None, "{}", said(&podium));
    f.bot.stop().await;
    telegram_harness::check_every_call(&fake.sent());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forum_where_the_bot_may_not_open_topics_plays_in_the_chat() {
    let f = forum(-1_004_000_000_091, false).await;
    let (fake, forum, owner, four) = (&f.fake, &f.forum, &f.owner, &f.four);
    let mark = fake.mark();
    fake.push_message(forum, owner, "/tournament start", None);
    let boards = calls(fake, mark, 2, "both boards in the chat", |c| {
        c.is("sendPhoto") && c.thread_id.is_none() && !begun(c).is_empty()
    })
    .await;
    // Telegram refused, as it says it.
    let refused: Vec<SentCall> = fake
        .calls()
        .into_iter()
        .filter(|c| c.seq >= mark && c.is("createForumTopic"))
        .collect();
    assert_eq!(refused.len(), 2, "one try per pairing");
    for r in &refused {
        assert!(!r.ok);
        assert_eq!(
            r.error.as_deref(),
            Some("Bad Request: not enough rights to create a topic")
        );
    }
    assert!(fake.topics(forum).is_empty());
    // The game is played in the chat, as any.
    let (_, red, _) = begun(&boards[0]).remove(0);
    let red = named(four, &red);
    let mark = fake.mark();
    fake.push_message(forum, red, "h2e2", None);
    let board = expect_call(fake, mark, "the board", |c| {
        c.is("sendPhoto") && said(c).contains(&format!("1. {}: h2e2", red.first_name))
    })
    .await;
    assert_eq!(board.thread_id, None);
    f.bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_between_pairing_and_topics_opens_each_once() {
    let f = forum(-1_004_000_000_092, true).await;
    let (fake, forum, owner) = (&f.fake, &f.forum, &f.owner);
    // Telegram holds the first topic back (a flood wait): the round is paired and stored, its
    // topics not opened when the bot stops.
    fake.fail_next("createForumTopic", 429, Some(60));
    let mark = fake.mark();
    fake.push_message(forum, owner, "/tournament start", None);
    expect_call(fake, mark, "the round", |c| {
        said(c).contains("round 1 of 1")
    })
    .await;
    let until = Instant::now() + Duration::from_secs(20);
    while !fake
        .calls()
        .iter()
        .any(|c| c.seq >= mark && c.is("createForumTopic"))
    {
        assert!(Instant::now() < until, "no try at a topic");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    f.bot.stop().await;
    assert!(fake.topics(forum).is_empty());

    // After the restart each pairing's topic is opened once, its board posted there.
    let bot = Running::start(fake, f.dir.path()).await;
    calls(fake, mark, 2, "a board in each topic", |c| {
        c.is("sendPhoto") && c.thread_id.is_some() && !begun(c).is_empty()
    })
    .await;
    calls(fake, mark, 2, "the chat told where", |c| {
        said(c).contains("is played in")
    })
    .await;
    // And stays so: a second restart opens none (what was delivered is not sent again).
    bot.stop().await;
    let bot = Running::start(fake, f.dir.path()).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    bot.stop().await;
    assert_eq!(fake.topics(forum).len(), 2, "{:?}", fake.topics(forum));
    assert_eq!(fake.sent_of("createForumTopic").len(), 2);
}
