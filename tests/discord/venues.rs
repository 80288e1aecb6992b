//! Tournament games in threads of their own on a server, through the real adapter against the
//! fake Discord: one public thread per pairing (`POST /channels/{id}/threads`), named after
//! it; the channel told where each game is played; moves typed in a thread by its players,
//! boards posted there; a channel where Discord refuses threads plays in the channel.

use crate::discord_fake::{permissions, CmdOpt, FakeDiscord, FakeInteraction, FakeMessage};
use crate::game::shown;
use crate::harness::{table, WAIT};

/// Four players join a one-round Swiss the server's manager made, and it starts.
async fn four_start(fake: &FakeDiscord) -> Vec<crate::discord_fake::FakeUser> {
    let boss = fake.add_user("boss");
    fake.grant(boss.id, permissions::MANAGE_GUILD);
    let channel = fake.channel_id();
    fake.push_interaction(
        FakeInteraction::slash("tournament")
            .option(CmdOpt::sub(
                "swiss",
                vec![CmdOpt::integer("rounds", 1), CmdOpt::string("time", "5+3")],
            ))
            .by(&boss),
    );
    let made = bot_shows(fake, "Tournament #1").await;
    assert!(made, "the tournament");
    let four: Vec<_> = ["ann", "ben", "cat", "dan"]
        .iter()
        .map(|n| fake.add_user(n))
        .collect();
    crate::game::join_all(fake, channel, &four).await;
    fake.push_interaction(
        FakeInteraction::slash("tournament")
            .option(CmdOpt::sub("start", Vec::new()))
            .by(&boss),
    );
    four
}

/// The bot's messages in `channel` that begin a game: (message, number, red, black).
fn boards_in(fake: &FakeDiscord, channel: u64) -> Vec<(FakeMessage, u64, String, String)> {
    fake.bot_messages()
        .into_iter()
        .filter(|m| m.channel_id == channel)
        .flat_map(|m| {
            crate::begun::begun(&shown(&m))
                .into_iter()
                .map(move |(n, r, b)| (m.clone(), n, r, b))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Waits until two threads hold their games' first boards.
async fn two_threads_with_boards(fake: &FakeDiscord) {
    let opened = fake
        .wait_for(
            |f| {
                let t = f.threads();
                t.len() == 2 && t.iter().all(|t| !boards_in(f, t.id).is_empty())
            },
            WAIT,
        )
        .await;
    assert!(
        opened,
        "two threads with their boards: {:?}",
        fake.threads()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_round_on_a_server_plays_each_pairing_in_its_own_thread() {
    let (fake, _dir, bot, _log) = table().await;
    let channel = fake.channel_id();
    let four = four_start(&fake).await;
    two_threads_with_boards(&fake).await;
    let threads = fake.threads();
    for t in &threads {
        assert_eq!((t.kind, t.parent_id), (11, Some(channel)));
        assert!(
            t.name.starts_with("Round 1: ") && t.name.contains(" – "),
            "{}",
            t.name
        );
        // The board pings its two players, in the thread.
        let (board, _, red, black) = boards_in(&fake, t.id).remove(0);
        let by = |n: &str| four.iter().find(|p| p.name == n).expect("a player").id;
        let mut pinged = board.pinged.clone();
        pinged.sort_unstable();
        let mut two = vec![by(&red), by(&black)];
        two.sort_unstable();
        assert_eq!(pinged, two);
    }
    // The channel is told where each game is played, and shows none of their boards.
    let told = fake
        .wait_for(
            |f| {
                threads.iter().all(|t| {
                    f.bot_messages().iter().any(|m| {
                        m.channel_id == channel
                            && m.content.contains("is played in")
                            && m.content.contains(&format!("<#{}>", t.id))
                    })
                })
            },
            WAIT,
        )
        .await;
    assert!(told, "the pointers");
    assert!(boards_in(&fake, channel).is_empty());

    // A move typed in a thread by its Red lands in that game; its board comes to the thread.
    let t = &threads[0];
    let (_, game, red, black) = boards_in(&fake, t.id).remove(0);
    let player = |n: &str| four.iter().find(|p| p.name == n).expect("a player").clone();
    fake.push_message_create(t.id, &player(&red), "h2e2");
    let moved = fake
        .wait_for(
            |f| {
                f.bot_messages()
                    .iter()
                    .any(|m| m.channel_id == t.id && shown(m).contains(&format!("1. {red}: h2e2")))
            },
            WAIT,
        )
        .await;
    assert!(moved, "Red's move in the thread");
    // Black resigns there: the game's end is said in the thread.
    fake.push_message_create(t.id, &player(&black), "/resign");
    let over = fake
        .wait_for(
            |f| {
                f.bot_messages().iter().any(|m| {
                    m.channel_id == t.id
                        && shown(m).contains(&format!("Red wins — {black} resigned"))
                })
            },
            WAIT,
        )
        .await;
    assert!(over, "the end of game #{game} in its thread");
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_channel_where_discord_refuses_threads_plays_in_the_channel() {
    let (fake, _dir, bot, _log) = table().await;
    let channel = fake.channel_id();
    // No Create Public Threads permission: Discord says 50013 to each.
    fake.fail_times(
        "POST /channels/*/threads",
        403,
        FakeDiscord::missing_permissions(),
        2,
    );
    let four = four_start(&fake).await;
    let both = fake
        .wait_for(|f| boards_in(f, channel).len() == 2, WAIT)
        .await;
    assert!(both, "both boards in the channel");
    assert!(fake.threads().is_empty());
    let (_, _, red, _) = boards_in(&fake, channel).remove(0);
    let red = four.iter().find(|p| p.name == red).expect("red");
    fake.push_message_create(channel, red, "h2e2");
    let moved = fake
        .wait_for(
            |f| {
                f.bot_messages().iter().any(|m| {
                    m.channel_id == channel && shown(m).contains(&format!("1. {}: h2e2", red.name))
                })
            },
            WAIT,
        )
        .await;
    assert!(moved, "the move in the channel");
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_restart_between_pairing_and_threads_opens_each_once() {
    use crate::harness::{service_config, start};
    let (fake, dir, bot, _log) = table().await;
    // Discord holds the first thread back (a long rate limit): the round is paired and
    // stored, its threads not opened when the bot stops.
    fake.fail_next(
        "POST /channels/*/threads",
        429,
        FakeDiscord::rate_limited(60.0),
    );
    four_start(&fake).await;
    let paired = bot_shows(&fake, "round 1 of 1").await;
    assert!(paired, "the round");
    bot.stop(&fake).await;
    assert!(fake.threads().is_empty());
    // After the restart each pairing's thread is opened once, its board posted there.
    let bot = start(&fake, dir.path(), None, service_config(), false).await;
    two_threads_with_boards(&fake).await;
    bot.stop(&fake).await;
    let bot = start(&fake, dir.path(), None, service_config(), false).await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    bot.stop(&fake).await;
    assert_eq!(fake.threads().len(), 2, "{:?}", fake.threads());
}

/// Whether some message of the bot shows `text` within the wait.
async fn bot_shows(fake: &FakeDiscord, text: &str) -> bool {
    fake.wait_for(
        |f| f.bot_messages().iter().any(|m| shown(m).contains(text)),
        WAIT,
    )
    .await
}
