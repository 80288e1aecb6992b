//! `/top`, `/stats` and `/rating` through the chat service (locking the channel, reading
//! sled, formatting), on a server with 10,000 rated players and a player with 10,000 games.
//!
//! The data are made the way the service makes them: finished game records written through
//! the storage, whose transaction applies each game's rating update. Every server player
//! plays `ROUNDS` rounds (two rated games a round against different opponents, a day apart),
//! and the hero plays every one of them once, so the hero has 10,000 games and the players
//! have settled ratings (the leaderboard lists them).
//!
//! `cargo bench --bench ratings` (env: `PLAYERS`, default 10000; `ROUNDS`, default 12).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion};
use xiangqi_bot::app::{Incoming, Service, ServiceConfig};
use xiangqi_bot::game::{
    Changes, GameRecord, GameStatus, PlayerRef, Storage, TimeControl, SCHEMA_VERSION,
};
use xiangqi_bot::rating::Family;
use xiangqi_bot::render::Renderer;
use xiangqi_bot::storage::SledStorage;

const DAY: u64 = 86_400_000;
const SERVER: &str = "dc:g:1";

fn env(key: &str, default: usize) -> usize {
    std::env::var(key)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn player(i: usize) -> PlayerRef {
    PlayerRef::new(format!("dc:{i}"), &format!("player{i}"))
}

fn hero() -> PlayerRef {
    PlayerRef::new("dc:9999999", "hero")
}

fn finished(id: u64, red: PlayerRef, black: PlayerRef, result: &str, at_ms: u64) -> GameRecord {
    let reasons = ["checkmate", "resignation", "timeout", "perpetual_check"];
    GameRecord {
        v: SCHEMA_VERSION,
        id,
        channel: "dc:100".into(),
        red,
        black,
        ruleset: "official".into(),
        start_fen: None,
        moves: ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"]
            .map(String::from)
            .to_vec(),
        time_control: TimeControl::Fischer {
            base_ms: 600_000,
            increment_ms: 5_000,
        },
        clock: None,
        status: GameStatus::Finished {
            result: result.into(),
            reason: if result == "draw" {
                "agreement".into()
            } else {
                reasons[(id % 4) as usize].into()
            },
        },
        draw_offer: None,
        takeback_request: None,
        last_refusal: None,
        takebacks: false,
        created_ms: at_ms,
        updated_ms: at_ms,
        rated: true,
        community: Some(SERVER.into()),
        lang: None,
        idle_after_ms: None,
        turn_since_ms: None,
        bot_memory: None,
    }
}

struct World {
    _dir: tempfile::TempDir,
    svc: Arc<Service>,
    rt: tokio::runtime::Runtime,
}

fn build(players: usize, rounds: usize) -> World {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let dir = tempfile::tempdir().expect("tempdir");
    let storage = Arc::new(SledStorage::open(dir.path()).expect("sled"));
    let start = 1_700_000_000_000u64;
    let clock = Arc::new(AtomicU64::new(start));
    let c = Arc::clone(&clock);
    let svc = Arc::new(Service::new(
        storage.clone(),
        Arc::new(Renderer::new()),
        Arc::new(move || c.load(Ordering::SeqCst)),
        ServiceConfig {
            images: false,
            rate_burst: u32::MAX,
            ..ServiceConfig::default()
        },
    ));
    let t0 = Instant::now();
    let mut id = 1u64;
    let mut batch = Vec::new();
    let flush = |batch: &mut Vec<GameRecord>| {
        let games = std::mem::take(batch);
        rt.block_on(storage.persist(Changes {
            games,
            ..Changes::default()
        }))
        .expect("persist");
    };
    // A player's strength is their number: the higher usually wins, sometimes a draw.
    let result = |a: usize, b: usize, n: u64| match (n % 7, a > b) {
        (0, _) => "draw",
        (1, true) | (2..=6, false) => "black_wins",
        _ => "red_wins",
    };
    let day0 = start - (rounds as u64 + 2) * DAY;
    for r in 0..rounds {
        for i in 0..players {
            let j = (i + 1 + r * 7) % players;
            let at = day0 + r as u64 * DAY + (i as u64 % 1000) * 60_000;
            batch.push(finished(id, player(i), player(j), result(i, j, id), at));
            id += 1;
            if batch.len() == 500 {
                flush(&mut batch);
            }
        }
    }
    for i in 0..players {
        let at = start - DAY + i as u64 * 1_000;
        let (red, black) = if i % 2 == 0 {
            (hero(), player(i))
        } else {
            (player(i), hero())
        };
        batch.push(finished(
            id,
            red,
            black,
            ["red_wins", "black_wins", "draw"][i % 3],
            at,
        ));
        id += 1;
        if batch.len() == 500 {
            flush(&mut batch);
        }
    }
    flush(&mut batch);
    clock.store(start, Ordering::SeqCst);
    let listed = {
        let mut n = 0;
        let now = start;
        storage
            .leaderboard(SERVER, Family::Rapid, &mut |e| {
                n += usize::from(e.listed(now));
                true
            })
            .expect("board");
        n
    };
    let hero_games = storage
        .profile(&hero().id)
        .expect("read")
        .map_or(0, |p| p.stats.all.games());
    eprintln!(
        "built {} games in {:.1} s: {listed} of {players} players listed on the server's board, \
         the hero has {hero_games} games; {:.1} MB on disk",
        id - 1,
        t0.elapsed().as_secs_f64(),
        storage.size_on_disk() as f64 / 1e6
    );
    World { _dir: dir, svc, rt }
}

fn said(user: &PlayerRef, text: &str, mentions: Vec<(String, PlayerRef)>) -> Incoming {
    Incoming {
        channel: "dc:100".into(),
        user: user.clone(),
        text: text.into(),
        mentions,
        community: Some(SERVER.into()),
        ..Incoming::default()
    }
}

fn bench(c: &mut Criterion) {
    let players = env("PLAYERS", 10_000);
    let w = build(players, env("ROUNDS", 12));
    let me = player(5);
    let last_page = players.div_ceil(10).min(1000);
    let cases: Vec<(&str, Incoming)> = vec![
        ("top page 1", said(&me, "/top rapid", Vec::new())),
        (
            "top last page",
            said(&me, &format!("/top rapid {last_page}"), Vec::new()),
        ),
        ("top global", said(&me, "/top global", Vec::new())),
        (
            "stats of 10k-game player",
            said(&hero(), "/stats", Vec::new()),
        ),
        (
            "stats head to head",
            said(
                &me,
                "/stats <@h> <@p>",
                vec![("<@h>".into(), hero()), ("<@p>".into(), player(7))],
            ),
        ),
        (
            "rating of 10k-game player",
            said(&me, "/rating <@h>", vec![("<@h>".into(), hero())]),
        ),
        (
            "rating of the lowest-rated player (rank scans the board)",
            said(&player(0), "/rating", Vec::new()),
        ),
    ];
    for (name, inc) in &cases {
        let out = w.rt.block_on(w.svc.handle(inc.clone()));
        let text = out.first().map(|r| r.text.clone()).unwrap_or_default();
        eprintln!(
            "{name}: {}",
            text.lines().take(3).collect::<Vec<_>>().join(" | ")
        );
    }
    let mut g = c.benchmark_group("ratings");
    g.sample_size(50);
    for (name, inc) in cases {
        g.bench_function(name, |b| {
            b.iter(|| w.rt.block_on(w.svc.handle(inc.clone())));
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
