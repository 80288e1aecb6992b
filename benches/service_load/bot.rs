//! The "play the bot" scenario: `CHANNELS` channels (default 32), each a person (Red) against
//! the bot at `LEVEL` (default 3), all at once, the bot thinking on the real pool (one thread
//! per core) with the built-in engine, boards drawn, every reply through the outbox. Each
//! person waits `THINK_MS` (default 500) after the bot's move, then plays a random legal move;
//! a finished game is followed by a new one. Measured: the reply to each human move (p50, p99,
//! max), and each bot move's delay from that reply to the bot's board being handed to the
//! delivery worker, against its level's time budget and the queue in front of it.
//!
//! `SCENARIO=bot cargo bench --bench service_load` (env: `CHANNELS`, `LEVEL`, `MOVES` human
//! moves per channel, default 12; `THINK_MS`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::mpsc;
use xiangqi_bot::app::bot::{default_threads, ThinkingPool};
use xiangqi_bot::app::{Reply, Service};
use xiangqi_bot::core::Move;
use xiangqi_bot::engine::level_spec;
use xiangqi_bot::game::{Game, GameStatus};
use xiangqi_bot::render::Renderer;
use xiangqi_bot::uci::player::Player;
use xiangqi_bot::uci::EngineConfig;

use super::{env, percentile, said, service};

type Waiters =
    Arc<Mutex<HashMap<xiangqi_bot::platform::ChannelKey, mpsc::UnboundedSender<Instant>>>>;

/// The number in "Game #N begins".
fn game_number(replies: &[Reply]) -> Option<u64> {
    replies.iter().find_map(|r| {
        let rest = &r.text[r.text.find("Game #")? + 6..];
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok()
    })
}

fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// What one channel measured: human reply latencies, bot delays, games started.
#[derive(Default)]
struct Measured {
    human: Vec<Duration>,
    bot: Vec<Duration>,
    games: usize,
}

async fn start_game(svc: &Service, channel: usize, level: u8) -> u64 {
    let r = svc
        .handle(said(channel, "human", &format!("/play bot {level} red")))
        .await;
    game_number(&r).unwrap_or_else(|| panic!("no game started: {:?}", r.first().map(|r| &r.text)))
}

/// One person playing the bot in `channel` for `moves` moves.
async fn person(
    svc: Arc<Service>,
    channel: usize,
    level: u8,
    moves: usize,
    think: Duration,
    mut bot_moved: mpsc::UnboundedReceiver<Instant>,
) -> Measured {
    let mut m = Measured::default();
    let mut rng = (channel as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut id = start_game(&svc, channel, level).await;
    m.games += 1;
    let mut played = 0;
    while played < moves {
        let record = svc
            .storage()
            .game(id)
            .ok()
            .flatten()
            .expect("the game is stored");
        if record.status != GameStatus::Active {
            id = start_game(&svc, channel, level).await;
            m.games += 1;
            continue;
        }
        let game = Game::from_record(record).expect("the game replays");
        let legal: Vec<Move> = game.position().legal_moves().iter().copied().collect();
        let mv = legal[(next(&mut rng) % legal.len() as u64) as usize];
        // People do not move in step: each thinks between half and one and a half `THINK_MS`.
        let ms = think.as_millis() as u64;
        let pause = ms / 2 + next(&mut rng) % (ms + 1);
        tokio::time::sleep(Duration::from_millis(pause)).await;
        // Nothing stale: a game the person's own move ended also went out as a delivery.
        while bot_moved.try_recv().is_ok() {}
        let t0 = Instant::now();
        let replies = svc.handle(said(channel, "human", &mv.to_string())).await;
        let answered = Instant::now();
        m.human.push(answered - t0);
        if !replies.iter().any(|r| r.image.is_some()) {
            continue; // refused by the arbiter: another move
        }
        played += 1;
        if replies.iter().any(|r| r.text.contains("Game over")) {
            continue;
        }
        match tokio::time::timeout(Duration::from_secs(120), bot_moved.recv()).await {
            Ok(Some(at)) => m.bot.push(at.saturating_duration_since(answered)),
            _ => panic!("channel {channel}: the bot did not answer move {mv}"),
        }
    }
    m
}

/// Run the scenario and print its figures.
pub fn run(rt: &tokio::runtime::Runtime) {
    let channels = env("CHANNELS", 32).max(1);
    let default = usize::from(xiangqi_bot::app::bot::DEFAULT_LEVEL);
    let level = u8::try_from(env("LEVEL", default))
        .unwrap_or(xiangqi_bot::app::bot::DEFAULT_LEVEL)
        .clamp(1, xiangqi_bot::engine::TOP_LEVEL);
    let moves = env("MOVES", 12).max(1);
    let think = Duration::from_millis(env("THINK_MS", 500) as u64);
    let threads = default_threads();
    let budget = Duration::from_millis(level_spec(level).movetime_ms);
    println!(
        "play the bot: {channels} channels, level {level} (budget {} ms a move), {moves} human moves each, {} ms to think, {threads} thinking threads, images on",
        budget.as_millis(),
        think.as_millis()
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let started = Instant::now();
    let (all, elapsed) = rt.block_on(async {
        // Templates and sprites drawn beforehand, as a running server has them.
        let renderer = Arc::new(Renderer::new());
        renderer.warm_up();
        let svc = service(&dir.path().join("db"), true, renderer);
        let pool = Arc::new(ThinkingPool::new(
            threads,
            Arc::new(Player::new(&EngineConfig::default())),
        ));
        svc.attach_bot(Arc::clone(&pool), None);
        let thinking = tokio::spawn(Arc::clone(&svc).run_bot());
        let waiters: Waiters = Arc::default();
        let mut receivers = Vec::new();
        for c in 0..channels {
            let (tx, rx) = mpsc::unbounded_channel();
            waiters
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(format!("console:bench{c}").into(), tx);
            receivers.push(rx);
        }
        // The platform's delivery worker: a bot's move (an event nobody typed) wakes its
        // channel's person; every delivery is then forgotten, as after sending it.
        let mut deliveries = svc
            .open_outbox(xiangqi_bot::platform::Platform::Console)
            .expect("outbox");
        let worker = Arc::clone(&svc);
        let w = Arc::clone(&waiters);
        let delivery = tokio::spawn(async move {
            while let Some(d) = deliveries.recv().await {
                let bot_move = d.context.is_none()
                    && d.replies
                        .iter()
                        .any(|r| r.text.contains(". Bot (level") || r.text.contains("Game over"));
                if bot_move {
                    if let Some(tx) = w
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .get(&d.key.channel)
                    {
                        let _ = tx.send(Instant::now());
                    }
                }
                worker.delivered(&d.key).await.expect("forget a delivery");
            }
        });
        let t0 = Instant::now();
        let mut handles = Vec::new();
        for (c, rx) in receivers.into_iter().enumerate() {
            let svc = Arc::clone(&svc);
            handles.push(tokio::spawn(person(svc, c, level, moves, think, rx)));
        }
        let mut all = Measured::default();
        for h in handles {
            let m = h.await.expect("a channel's task");
            all.human.extend(m.human);
            all.bot.extend(m.bot);
            all.games += m.games;
        }
        let elapsed = t0.elapsed();
        thinking.abort();
        delivery.abort();
        pool.shutdown();
        (all, elapsed)
    });
    let Measured {
        mut human,
        mut bot,
        games,
    } = all;
    human.sort();
    bot.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "  {} human moves, {} bot moves, {games} games in {:.1} s",
        human.len(),
        bot.len(),
        elapsed.as_secs_f64()
    );
    println!(
        "  reply to a human move: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms (target p99 < 100 ms)",
        ms(percentile(&human, 0.5)),
        ms(percentile(&human, 0.99)),
        ms(human.last().copied().unwrap_or_default())
    );
    // At most every other channel's search can stand before a move in the fair queue:
    // (channels - 1) / threads searches ahead, each within the budget.
    let queue = budget * u32::try_from(channels.saturating_sub(1).div_ceil(threads)).unwrap_or(0);
    let bound = budget + queue;
    let late = bot.iter().filter(|&&d| d > bound).count();
    println!(
        "  bot move after the human's reply: p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms; budget {} ms + queueing at most {} ms = {} ms; {late} of {} later than that",
        ms(percentile(&bot, 0.5)),
        ms(percentile(&bot, 0.99)),
        ms(bot.last().copied().unwrap_or_default()),
        budget.as_millis(),
        queue.as_millis(),
        bound.as_millis(),
        bot.len()
    );
    println!("  total {:.1} s", started.elapsed().as_secs_f64());
}
