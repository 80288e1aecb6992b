//! Discord shards across processes: the real binary with `DISCORD_SHARDS`, against a fake
//! Discord that expects two shards, allows one identify per 5 seconds (`max_concurrency` 1),
//! and sends each guild's events only on its shard.
//!
//! * Two processes (`0-0/2` and `1-1/2`) on one PostgreSQL database: each identifies its own
//!   shard, in turn; a game in a guild of shard 0 and one in a guild of shard 1 are each served
//!   by the process of that shard; the commands are registered once.
//! * One process with `0-1/2` runs both shards, 5 s apart.
//! * Identify buckets: `max_concurrency` 2 lets two shards in at once, 1 refuses the second
//!   until 5 s have passed.
//! * A shard count the fake does not expect is refused (4010 / 4011); serenity identifies again
//!   at its next heartbeat.

use std::path::Path;
use std::time::Duration;

use crate::discord_fake::{shard_of, FakeDiscord, IDENTIFY_JITTER, IDENTIFY_WINDOW};
use crate::harness::{new_game_in, slash_move_in, Ledger, WAIT};
use crate::kill_support::Bot;

/// The fake routes a guild's events by Discord's rule.
#[test]
fn guilds_map_to_shards_as_discord_says() {
    // (41771983423143937 >> 22) = 9959216934: even, so shard 0 of 2; (3 << 22) + 5 is on 1.
    assert_eq!(shard_of(41_771_983_423_143_937, 2), 0);
    assert_eq!(shard_of(41_771_983_423_143_937, 1), 0);
    assert_eq!(shard_of((3 << 22) + 5, 2), 1);
    assert_eq!(shard_of((7 << 22) + 5, 4), 3);
}

/// Long enough for two debug binaries to start and take their turns to identify.
const PATIENCE: Duration = Duration::from_secs(90);

/// A fake Discord expecting 2 shards, one identify per 5 s.
async fn sharded_fake() -> FakeDiscord {
    FakeDiscord::builder()
        .interaction_deadline(Duration::from_secs(3))
        .shards(2, 1)
        .start()
        .await
}

/// The binary on `dir` with `DISCORD_SHARDS=shards` and `extra` settings.
fn process(fake: &FakeDiscord, dir: &Path, shards: &str, extra: &[(&str, String)]) -> Bot {
    let mut env = vec![
        ("DISCORD_TOKEN", fake.token()),
        ("DISCORD_API_URL", fake.http_url()),
        ("DISCORD_SHARDS", shards.to_string()),
    ];
    env.extend_from_slice(extra);
    Bot::start(dir, &env)
}

/// Wait until the shards `want` of 2 are connected.
async fn connected(fake: &FakeDiscord, want: &[u64]) {
    let want: Vec<(u64, u64)> = want.iter().map(|&s| (s, 2)).collect();
    assert!(
        fake.wait_for(|f| f.connected_shards() == want, PATIENCE)
            .await,
        "connected shards {:?}, identifies {:?}",
        fake.connected_shards(),
        fake.identifies()
    );
}

/// Every identify accepted, one per shard in `shards`, each at least Discord's window after
/// the one before (all shards share the bucket with `max_concurrency` 1).
fn paced(fake: &FakeDiscord, shards: &[u64]) {
    let ids = fake.identifies();
    assert!(
        ids.iter().all(|i| i.accepted),
        "a refused identify: {ids:?}"
    );
    let got: Vec<u64> = ids.iter().filter_map(|i| i.shard.map(|s| s.0)).collect();
    assert_eq!(got, shards, "identified shards in order: {ids:?}");
    assert!(ids.iter().all(|i| i.shard.is_some_and(|s| s.1 == 2)));
    for pair in ids.windows(2) {
        let gap = pair[1].at.duration_since(pair[0].at);
        eprintln!(
            "identify of shard {:?}: {gap:?} after the one before",
            pair[1].shard
        );
        assert!(
            gap + IDENTIFY_JITTER >= IDENTIFY_WINDOW,
            "identifies {gap:?} apart: {ids:?}"
        );
    }
}

/// Each guild's interactions went to its own shard's session only.
fn routed(fake: &FakeDiscord, guild: u64, shard: u64) {
    let to = fake.delivered_to("INTERACTION_CREATE", Some(guild));
    assert!(!to.is_empty());
    assert!(
        to.iter().all(|s| *s == Some((shard, 2))),
        "interactions of guild {guild} went to {to:?}"
    );
}

/// Play a short game in a guild of each shard: every answer comes (from the one process that
/// receives the guild's events), with its board.
async fn play_on_both_shards(fake: &FakeDiscord) {
    let (g0, c0) = fake.add_guild_on_shard(0, 2);
    let (g1, c1) = fake.add_guild_on_shard(1, 2);
    let log = Ledger::default();
    let (alice, bob) = (fake.add_user("alice"), fake.add_user("bob"));
    let (carol, dave) = (fake.add_user("carol"), fake.add_user("dave"));
    new_game_in(fake, &log, Some(c0), &alice, &bob).await;
    new_game_in(fake, &log, Some(c1), &carol, &dave).await;
    let t0 = slash_move_in(fake, &log, Some(c0), &alice, "h2e2").await;
    let t1 = slash_move_in(fake, &log, Some(c1), &carol, "b2e2").await;
    assert!(t0.contains("bob (Black) to move"), "{t0}");
    assert!(t1.contains("dave (Black) to move"), "{t1}");
    let t0 = slash_move_in(fake, &log, Some(c0), &bob, "h9g7").await;
    let t1 = slash_move_in(fake, &log, Some(c1), &dave, "b9c7").await;
    assert!(t0.contains("alice (Red) to move"), "{t0}");
    assert!(t1.contains("carol (Red) to move"), "{t1}");
    routed(fake, g0, 0);
    routed(fake, g1, 1);
    // A direct message goes to shard 0 only.
    let dm = fake.dm_channel(&alice);
    fake.push_message_create(dm, &alice, "hello");
    assert!(
        fake.wait_for(|f| !f.delivered_to("MESSAGE_CREATE", None).is_empty(), WAIT)
            .await
    );
    assert!(fake
        .delivered_to("MESSAGE_CREATE", None)
        .iter()
        .all(|s| *s == Some((0, 2))));
    log.check(fake).await;
}

/// Two processes, one shard each, on one PostgreSQL database. `together`: started at the
/// same moment, as a deploy would (the second waits its turn to identify); otherwise the
/// second once the first is connected.
async fn two_processes(test: &str, together: bool) {
    let Some(db) = crate::pg::database(test) else {
        return;
    };
    let fake = sharded_fake().await;
    let (dir0, dir1) = (
        tempfile::tempdir().expect("tempdir"),
        tempfile::tempdir().expect("tempdir"),
    );
    let url = || ("DATABASE_URL", db.url.clone());
    let _p0 = process(&fake, dir0.path(), "0-0/2", &[url()]);
    if !together {
        connected(&fake, &[0]).await;
    }
    let _p1 = process(&fake, dir1.path(), "1-1/2", &[url()]);
    connected(&fake, &[0, 1]).await;
    paced(&fake, &[0, 1]);
    assert!(
        fake.wait_for(|f| !f.global_commands().is_empty(), WAIT)
            .await,
        "the commands are registered"
    );
    play_on_both_shards(&fake).await;
    assert_eq!(
        fake.command_registrations(),
        1,
        "only the process of shard 0 registers, once"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_processes_each_run_their_own_shard() {
    two_processes("two_processes_each_run_their_own_shard", false).await;
}

/// Two processes starting at once on a fresh database: the first applies the migrations under
/// a lock, the second waits and finds them applied.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_processes_started_together() {
    two_processes("two_processes_started_together", true).await;
}

/// One process running both shards: two identifies, 5 s apart.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn one_process_runs_a_range_of_shards() {
    let fake = sharded_fake().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let _p = process(&fake, dir.path(), "0-1/2", &[]);
    connected(&fake, &[0, 1]).await;
    paced(&fake, &[0, 1]);
    play_on_both_shards(&fake).await;
    assert_eq!(
        fake.command_registrations(),
        1,
        "once per process, not once per shard"
    );
}

/// A process without shard 0 registers nothing, unless told to.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn only_the_process_of_shard_zero_registers_commands() {
    let fake = sharded_fake().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let p = process(&fake, dir.path(), "1-1/2", &[]);
    connected(&fake, &[1]).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(fake.command_registrations(), 0);
    drop(p);
    assert!(
        fake.wait_for(|f| f.connected_shards().is_empty(), WAIT)
            .await
    );
    let _p = process(
        &fake,
        dir.path(),
        "1-1/2",
        &[("DISCORD_REGISTER_COMMANDS", "always".into())],
    );
    assert!(
        fake.wait_for(|f| f.command_registrations() == 1, PATIENCE)
            .await,
        "always: registered by a process without shard 0"
    );
}

/// A shard count Discord does not accept is refused (4010, invalid shard; 4011, sharding
/// required, for a bot that does not shard). serenity 0.12 does not give up on these codes:
/// it identifies again at its next heartbeat, and no sooner than 5 s after.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_wrong_shard_count_is_refused_and_retried_slowly() {
    for (shards, code) in [(Some("0-0/3"), 4010), (None, 4011)] {
        // serenity notices the closed connection at its next heartbeat: a short interval
        // keeps the test short.
        let fake = FakeDiscord::builder()
            .shards(2, 1)
            .heartbeat_interval(Duration::from_secs(2))
            .start()
            .await;
        let dir = tempfile::tempdir().expect("tempdir");
        let mut env = vec![
            ("DISCORD_TOKEN", fake.token()),
            ("DISCORD_API_URL", fake.http_url()),
        ];
        if let Some(s) = shards {
            env.push(("DISCORD_SHARDS", s.to_string()));
        }
        let p = Bot::start(dir.path(), &env);
        assert!(
            fake.wait_for(|f| f.identifies().len() >= 2, PATIENCE).await,
            "{shards:?}: {:?}",
            fake.identifies()
        );
        drop(p);
        let ids = fake.identifies();
        assert!(
            ids.iter().all(|i| !i.accepted && i.refusal == Some(code)),
            "{shards:?}: {ids:?}"
        );
        assert!(fake.connected_shards().is_empty());
        for pair in ids.windows(2) {
            let gap = pair[1].at.duration_since(pair[0].at);
            assert!(gap + IDENTIFY_JITTER >= IDENTIFY_WINDOW, "{gap:?}: {ids:?}");
        }
    }
}

/// A value `DISCORD_SHARDS` cannot mean refuses to start, naming the setting.
#[test]
fn a_malformed_setting_refuses_to_start() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_xiangqi-bot"))
        .env("DATA_DIR", dir.path())
        .env("DISCORD_TOKEN", "x")
        .env("DISCORD_API_URL", "http://127.0.0.1:9")
        .env("DISCORD_SHARDS", "2-1/2")
        .env_remove("TELEGRAM_BOT_TOKEN")
        .env_remove("DATABASE_URL")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run the binary");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("DISCORD_SHARDS must be FIRST-LAST/TOTAL") && err.contains("2-1/2"),
        "{err}"
    );
}

/// With fewer session starts left than its shards need, a process waits for the daily limit
/// to reset instead of identifying (past the limit Discord resets the bot's token).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_spent_session_start_limit_is_waited_for() {
    let fake = FakeDiscord::builder()
        .shards(2, 1)
        .session_start_limit(1000, 1, Duration::from_secs(4))
        .start()
        .await;
    let dir = tempfile::tempdir().expect("tempdir");
    let started = std::time::Instant::now();
    let _p = process(&fake, dir.path(), "0-1/2", &[]);
    connected(&fake, &[0, 1]).await;
    paced(&fake, &[0, 1]);
    let first = fake.identifies()[0].at;
    assert!(
        first.duration_since(started) >= Duration::from_secs(4),
        "identified {:?} after the start",
        first.duration_since(started)
    );
}

/// The fake's buckets: with `max_concurrency` 2, shards 0 and 1 (buckets 0 and 1) may identify
/// at the same moment; with 1 they share a bucket and the second is refused with an invalid
/// session (opcode 9), after which serenity identifies again 5 s later and gets in. Two bare
/// serenity clients of one shard each, started together (as two processes given no turns
/// would be).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn identify_buckets_follow_max_concurrency() {
    use serenity::all::{ClientBuilder, GatewayIntents, HttpBuilder};
    for (max_concurrency, refused) in [(2, false), (1, true)] {
        let fake = FakeDiscord::builder()
            .shards(2, max_concurrency)
            .start()
            .await;
        let mut managers = Vec::new();
        for shard in 0..2 {
            let http = HttpBuilder::new(fake.token())
                .proxy(fake.http_url())
                .ratelimiter_disabled(true)
                .build();
            let mut client = ClientBuilder::new_with_http(http, GatewayIntents::GUILDS)
                .await
                .expect("client");
            managers.push(std::sync::Arc::clone(&client.shard_manager));
            tokio::spawn(async move { client.start_shard(shard, 2).await });
        }
        assert!(
            fake.wait_for(|f| f.identifies().len() >= 2, WAIT).await,
            "{:?}",
            fake.identifies()
        );
        let ids = fake.identifies();
        let first_two = &ids[..2];
        assert_eq!(
            first_two.iter().any(|i| i.refusal == Some(9)),
            refused,
            "max_concurrency {max_concurrency}: {ids:?}"
        );
        let accepted = |f: &FakeDiscord| f.identifies().iter().filter(|i| i.accepted).count();
        assert!(
            fake.wait_for(|f| accepted(f) == 2, PATIENCE).await,
            "{:?}",
            fake.identifies()
        );
        let ids: Vec<_> = fake
            .identifies()
            .into_iter()
            .filter(|i| i.accepted)
            .collect();
        let gap = ids[1].at.duration_since(ids[0].at);
        if refused {
            assert!(gap + IDENTIFY_JITTER >= IDENTIFY_WINDOW, "{gap:?}");
        } else {
            assert!(gap < IDENTIFY_WINDOW, "{gap:?}");
        }
        for m in managers {
            m.shutdown_all().await;
        }
    }
}
