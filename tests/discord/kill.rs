//! `kill -9` at random points while the real binary handles `/move` on Discord (against the
//! fake), restart after restart. Discord never delivers an interaction again: a move the bot
//! had not stored when it died is absent, and the player sends it again (as after "The
//! application did not respond"); a stored move is never applied twice (its repetition is
//! refused: not that player's turn), and its board is delivered after the restart — into the
//! deferred response while the token lives, else in the channel.
//!
//! `cargo test --test discord kill` runs a few rounds; the long run is
//! `KILL_ROUNDS=200 cargo test --release --test discord kill_nine_loop_long -- --ignored --nocapture`.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use xiangqi_bot::arbiter::RulesetName;
use xiangqi_bot::game::Storage;
use xiangqi_bot::storage::SledStorage;

use crate::discord_fake::{CmdOpt, FakeDiscord, FakeInteraction, FakeUser};
use crate::harness::{fake, WAIT};
use crate::kill_support::{settings, Bot, Lcg};

const PATIENCE: Duration = Duration::from_secs(90);

fn start(fake: &FakeDiscord, dir: &Path) -> Bot {
    Bot::start(
        dir,
        &[
            ("DISCORD_TOKEN", fake.token()),
            ("DISCORD_API_URL", fake.http_url()),
        ],
    )
}

/// The plies whose board the bot shows (in a response, a follow-up or a channel message),
/// and in how many messages.
fn boards(fake: &FakeDiscord) -> BTreeMap<usize, usize> {
    let mut out = BTreeMap::new();
    for m in fake.bot_messages() {
        if m.deleted || m.attachments.is_empty() {
            continue;
        }
        let text = m
            .embeds
            .first()
            .and_then(|e| e["description"].as_str())
            .unwrap_or_default()
            .to_string();
        let ply = text.lines().find_map(|l| {
            let (n, rest) = l.split_once(". ")?;
            (rest.starts_with("alice: ") || rest.starts_with("bob: "))
                .then(|| n.parse::<usize>().ok())
                .flatten()
        });
        if let Some(p) = ply {
            *out.entry(p).or_insert(0) += 1;
        }
    }
    out
}

/// The moves stored, read from the database while no bot runs.
fn stored(dir: &Path, player: &FakeUser) -> Vec<String> {
    let storage = SledStorage::open(&dir.join("db")).expect("open the database");
    let ids = storage
        .games_of(&format!("dc:{}", player.id).into(), 10)
        .expect("games");
    ids.first()
        .and_then(|&id| storage.game(id).expect("read"))
        .map(|g| g.moves)
        .unwrap_or_default()
}

async fn ready(fake: &FakeDiscord) {
    assert!(fake.wait_for_ready(PATIENCE).await, "the bot connected");
}

async fn down(fake: &FakeDiscord, child: &mut Bot) {
    child.kill9();
    assert!(
        fake.wait_for(|f| !f.is_connected(), WAIT).await,
        "the fake saw the bot go"
    );
}

fn slash_move(fake: &FakeDiscord, who: &FakeUser, text: &str) {
    // The bot may be between sessions: then Discord would not even show the command.
    let _ = fake.try_push_interaction(
        FakeInteraction::slash("move")
            .option(CmdOpt::string("move", text))
            .by(who),
    );
}

struct Counts {
    rounds: usize,
    kills: usize,
    moves: usize,
    resent: usize,
    boards: usize,
    duplicate_boards: usize,
    /// Summed over the kills: stored moves whose board was not shown yet when the bot died
    /// (delivered from the outbox after the restart).
    undelivered_at_kill: usize,
}

async fn kill_loop(rounds: usize, seed: u64) -> Counts {
    let fake = fake().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let (alice, bob) = (fake.add_user("alice"), fake.add_user("bob"));
    let moves: Vec<String> =
        crate::games::quiet_game(crate::games::LONG, RulesetName::Asian, 10, 600)
            .iter()
            .map(ToString::to_string)
            .collect();
    let mut rng = Lcg(seed);
    let mut child = start(&fake, dir.path());
    ready(&fake).await;
    assert!(
        fake.wait_for(|f| !f.global_commands().is_empty(), PATIENCE)
            .await,
        "the commands are registered"
    );
    fake.push_interaction(
        FakeInteraction::slash("play")
            .option(CmdOpt::user("opponent", &bob))
            .option(CmdOpt::string("time", "1d"))
            .option(CmdOpt::string("ruleset", "asian"))
            .option(CmdOpt::string("color", "red"))
            .option(CmdOpt::string("fen", crate::games::LONG))
            .by(&alice),
    );
    assert!(
        fake.wait_for(
            |f| f
                .bot_messages()
                .iter()
                .any(|m| m.custom_ids().iter().any(|c| c.starts_with("xq:A:"))),
            PATIENCE
        )
        .await,
        "the challenge"
    );
    let challenge = fake
        .bot_messages()
        .into_iter()
        .find(|m| m.custom_ids().iter().any(|c| c.starts_with("xq:A:")))
        .expect("challenge");
    let accept = crate::harness::button(&challenge, "xq:A:");
    fake.push_interaction(FakeInteraction::button(challenge.id, &accept).by(&bob));
    assert!(
        fake.wait_for(
            |f| f.bot_messages().iter().any(|m| !m.attachments.is_empty()),
            PATIENCE
        )
        .await,
        "the first board"
    );
    let mut next = 0usize;
    let (mut kills, mut resent, mut undelivered) = (0, 0, 0);
    for _ in 0..rounds {
        // At most one move per side in flight: Discord's interactions are handled side by side,
        // so two moves of one player sent together may be taken in either order (the later
        // one then stands in for the earlier); a move of the wrong side is refused and sent
        // again.
        let burst = 1 + rng.below(2) as usize;
        for i in 0..burst {
            if next + i == moves.len() {
                break;
            }
            let who = if (next + i).is_multiple_of(2) {
                &alice
            } else {
                &bob
            };
            slash_move(&fake, who, &moves[next + i]);
        }
        tokio::time::sleep(Duration::from_millis(rng.below(700))).await;
        down(&fake, &mut child).await;
        kills += 1;
        let now = stored(dir.path(), &alice);
        assert!(now.len() >= next, "a stored move was lost");
        assert_eq!(
            now,
            moves[..now.len()].to_vec(),
            "the stored moves are the moves sent, each once, in order"
        );
        let shown = boards(&fake);
        undelivered += (1..=now.len()).filter(|p| !shown.contains_key(p)).count();
        // What was sent and not stored is sent again by its player in the next round.
        resent += (next + burst).min(moves.len()).saturating_sub(now.len());
        next = now.len();
        child = start(&fake, dir.path());
        ready(&fake).await;
    }
    // The last bot delivers what the others stored and did not deliver.
    let deadline = Instant::now() + PATIENCE;
    loop {
        let b = boards(&fake);
        if (1..=next).all(|p| b.contains_key(&p)) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "boards {:?} of {next}",
            b.keys().collect::<Vec<_>>()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    down(&fake, &mut child).await;
    assert_eq!(stored(dir.path(), &alice).len(), next);
    let b = boards(&fake);
    assert_eq!(
        b.keys().max().copied().unwrap_or(0),
        next,
        "no board of a move not stored"
    );
    Counts {
        rounds,
        kills,
        moves: next,
        resent,
        boards: b.values().sum(),
        duplicate_boards: b.values().map(|n| n - 1).sum(),
        undelivered_at_kill: undelivered,
    }
}

fn report(c: &Counts, seed: u64) {
    eprintln!(
        "discord kill loop (seed {seed}): {} rounds, {} kills, {} moves stored once each ({} sent again after a kill found them absent), {} boards delivered, {} boards shown twice, 0 moves applied twice, 0 lost; summed over the kills, {} stored moves had their board still undelivered (delivered from the outbox after the restart)",
        c.rounds, c.kills, c.moves, c.resent, c.boards, c.duplicate_boards, c.undelivered_at_kill
    );
}

// Run with the whole `discord` binary this loop has ended with one stored move's board
// missing (`boards [1, 2, 3, 5] of 5`). The cause found: outbox numbers started again at 1
// after a restart that found the outbox empty, so a board sent to the channel after a later
// restart could carry the nonce of an earlier channel message, and Discord (like the fake)
// answers a repeated nonce with that earlier message instead of posting the new one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_nine_while_handling_moves_on_discord() {
    let seed = 0xd15c;
    let c = kill_loop(6, seed).await;
    report(&c, seed);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "long: run with KILL_ROUNDS=200 and --ignored"]
async fn kill_nine_loop_long() {
    let (rounds, seed) = settings(100, 0xd15c);
    let c = kill_loop(rounds, seed).await;
    report(&c, seed);
}
