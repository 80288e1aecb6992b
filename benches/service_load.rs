//! Load on the chat service: many games, moves from many tasks, sled flush and board
//! rendering on. Prints moves per second, p50/p99 latency per move, storage per game, memory,
//! and the time to start again with every game stored.
//!
//! Every game plays its own line (quiet moves picked by a generator seeded with the game's
//! number), so the renderer's strip cache sees as much variety as a real server. Every move's
//! replies go through the outbox as on a platform: stored with the move, handed to a delivery
//! task that "sends" them at once and forgets them (a second transaction).
//!
//! `cargo bench --bench service_load` (env: `GAMES`, default 10000; `PLIES` per game,
//! default 20; `TASKS`, default 32; `IMAGES=off` to skip rendering; `STRIP_CACHE` in bytes,
//! 0 to turn the renderer's strip cache off).
//!
//! `SCENARIO=bot`: 32 channels playing the bot at once instead (see [`bot_load`]).
//!
//! `STORAGE=postgres`: store in PostgreSQL (the throwaway cluster of `tests/support/pg.rs`,
//! fsync on, or `TEST_DATABASE_URL`) instead of sled. With `PROCESSES=2` as well, two
//! services share the database, each with its own connections and delivery worker, as two bot
//! processes would (in this one OS process, so on the same cores), and every game's moves
//! alternate between them: each move then finds its channel written by the other process.

#[path = "service_load/bot.rs"]
mod bot_load;
#[path = "../tests/support/pg.rs"]
mod pg;

use std::sync::Arc;
use std::time::{Duration, Instant};

use xiangqi_bot::app::{system_now, Incoming, Service, ServiceConfig};
use xiangqi_bot::core::{Move, Position};
use xiangqi_bot::game::PlayerRef;
use xiangqi_bot::game::Storage;
use xiangqi_bot::render::Renderer;
use xiangqi_bot::storage::{PgStorage, SledStorage};

fn env(key: &str, default: usize) -> usize {
    std::env::var(key)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

fn said(channel: usize, user: &str, text: &str) -> Incoming {
    Incoming {
        channel: format!("console:bench{channel}").into(),
        user: PlayerRef::new(
            format!("console:{user}{channel}"),
            &format!("{user}{channel}"),
        ),
        handle: Some(format!("{user}{channel}")),
        text: text.to_string(),
        ..Incoming::default()
    }
}

/// A line of quiet, legal plies for game `game`: no capture, no check, no position twice, so
/// no game ends early; a small generator seeded with the game's number picks among them.
fn line(game: usize, plies: usize) -> Vec<String> {
    let mut pos = Position::startpos();
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    seen.insert(pos.hash());
    let mut seed = (game as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    while out.len() < plies {
        let quiet: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| {
                pos.piece_at(m.to).is_none()
                    && !pos.after(m).is_check()
                    && !seen.contains(&pos.after(m).hash())
            })
            .collect();
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let Some(&m) = quiet.get((seed >> 33) as usize % quiet.len().max(1)) else {
            break;
        };
        pos.play(m).expect("legal");
        seen.insert(pos.hash());
        out.push(m.to_string());
    }
    out
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// The PostgreSQL database with `STORAGE=postgres`.
fn postgres() -> Option<&'static pg::TestDb> {
    static DB: std::sync::OnceLock<Option<pg::TestDb>> = std::sync::OnceLock::new();
    DB.get_or_init(|| {
        (std::env::var("STORAGE").as_deref() == Ok("postgres")).then(|| {
            // Commits timed as durable, as sled's are.
            std::env::set_var("TEST_PG_FSYNC", "1");
            pg::database("service_load").expect("STORAGE=postgres needs PostgreSQL")
        })
    })
    .as_ref()
}

fn service(dir: &std::path::Path, images: bool, renderer: Arc<Renderer>) -> Arc<Service> {
    let storage: Arc<dyn Storage> = match postgres() {
        Some(db) => Arc::new(PgStorage::connect(&db.url).expect("postgres")),
        None => Arc::new(SledStorage::open(dir).expect("sled")),
    };
    Arc::new(Service::new(
        storage,
        renderer,
        system_now(),
        ServiceConfig {
            images,
            rate_burst: u32::MAX,
            cache_channels: 2048,
            ..ServiceConfig::default()
        },
    ))
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else to parse.
    if std::env::var("SCENARIO").is_ok_and(|s| s == "bot") {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .expect("runtime");
        bot_load::run(&rt);
        return;
    }
    let games = env("GAMES", 10_000);
    let plies = env("PLIES", 20);
    let tasks = env("TASKS", 32).max(1);
    let cache = env("STRIP_CACHE", xiangqi_bot::render::DEFAULT_CACHE_BYTES);
    let images = std::env::var("IMAGES").map_or(true, |v| v != "off");
    let procs = env("PROCESSES", 1).max(1);
    assert!(
        procs == 1 || postgres().is_some(),
        "PROCESSES above 1 needs STORAGE=postgres (sled is opened by one process)"
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let lines: Vec<Vec<String>> = (0..games).map(|g| line(g, plies)).collect();
    let plies = lines.iter().map(Vec::len).min().unwrap_or(0);
    println!(
        "service load: {games} games, {plies} plies each (each game its own line), {tasks} tasks, {procs} process(es), images {}, strip cache {} MB",
        if images { "on" } else { "off" },
        cache >> 20
    );
    let renderer = Arc::new(Renderer::with_cache_bytes(cache));
    renderer.warm_up();
    let rss_start = rss_kb();
    // From a reply's commit to its pictures drawn and its delivery (ms).
    let waits: Arc<std::sync::Mutex<Vec<u64>>> = Arc::default();
    let (latencies, elapsed) = rt.block_on(async {
        let svcs: Vec<Arc<Service>> = (0..procs)
            .map(|_| service(&path, images, Arc::clone(&renderer)))
            .collect();
        let svc = Arc::clone(&svcs[0]);
        // The platform's delivery worker: takes each stored reply, draws it and forgets it.
        let waits = Arc::clone(&waits);
        let deliveries: Vec<_> = svcs
            .iter()
            .map(|svc| {
                let mut deliveries = svc
                    .open_outbox(xiangqi_bot::platform::Platform::Console)
                    .expect("outbox");
                let worker = Arc::clone(svc);
                // Channels are delivered side by side, as the adapters' lanes do.
                let lanes = Arc::new(tokio::sync::Semaphore::new(tasks));
                let waits = Arc::clone(&waits);
                tokio::spawn(async move {
                    while let Some(mut d) = deliveries.recv().await {
                        let lane = Arc::clone(&lanes).acquire_owned().await;
                        let worker = Arc::clone(&worker);
                        let waits = Arc::clone(&waits);
                        tokio::spawn(async move {
                            // As a platform's worker does: draw just before sending.
                            worker.ready(&d.key, &mut d.replies).await;
                            let waited = now_ms().saturating_sub(d.created_ms);
                            waits.lock().expect("waits").push(waited);
                            worker
                                .delivered(&d.key)
                                .await
                                .expect("forget a delivered reply");
                            drop(lane);
                        });
                    }
                })
            })
            .collect();
        // Create the games (a challenge and an acceptance each), many at a time.
        let t0 = Instant::now();
        let mut handles = Vec::new();
        for t in 0..tasks {
            let svc = Arc::clone(&svc);
            handles.push(tokio::spawn(async move {
                for g in (t..games).step_by(tasks) {
                    svc.handle(said(g, "red", &format!("/play @black{g} red")))
                        .await;
                    svc.handle(said(g, "black", "/accept")).await;
                }
            }));
        }
        for h in handles {
            h.await.expect("task");
        }
        println!(
            "  created {games} games in {:.1} s",
            t0.elapsed().as_secs_f64()
        );
        // Play: each task plays its games ply by ply, round robin, so moves from many
        // channels are in flight at once.
        let lines = Arc::new(lines);
        let t0 = Instant::now();
        let mut handles = Vec::new();
        for t in 0..tasks {
            let svcs = svcs.clone();
            let lines = Arc::clone(&lines);
            handles.push(tokio::spawn(async move {
                let mut lat = Vec::new();
                for i in 0..plies {
                    let who = if i % 2 == 0 { "red" } else { "black" };
                    for g in (t..games).step_by(tasks) {
                        let m = &lines[g][i];
                        let svc = &svcs[(g + i) % svcs.len()];
                        let start = Instant::now();
                        let r = svc.handle(said(g, who, m)).await;
                        lat.push(start.elapsed());
                        assert!(!r.is_empty(), "move {m} in game {g} unanswered");
                    }
                }
                lat
            }));
        }
        let mut all = Vec::new();
        for h in handles {
            all.extend(h.await.expect("task"));
        }
        let elapsed = t0.elapsed();
        // Every game holds every move sent (a refused or failed move would show here).
        let mut complete = 0;
        for g in 0..games {
            let channel = format!("console:bench{g}").into();
            let stored = svc
                .storage()
                .channel(&channel)
                .expect("read")
                .and_then(|c| c.active_game)
                .and_then(|id| svc.storage().game(id).expect("read"))
                .map_or(0, |game| game.moves.len());
            complete += usize::from(stored == plies);
        }
        assert_eq!(complete, games, "games missing moves");
        println!("  every game stored all {plies} plies");
        println!(
            "  replies not yet delivered when the last move was answered: {}",
            svc.storage().outbox("console:").map_or(0, |o| o.len())
        );
        // Pictures are drawn as they are delivered: the run ends once every one went.
        while svc.storage().outbox("console:").map_or(0, |o| o.len()) > 0 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let drained = t0.elapsed();
        println!(
            "  every reply drawn and delivered after {:.1} s = {:.0} moves/s delivered",
            drained.as_secs_f64(),
            (plies * games) as f64 / drained.as_secs_f64()
        );
        // Stop the workers so the storage is closed before the restart below opens it.
        for delivery in deliveries {
            delivery.abort();
            let _ = delivery.await;
        }
        drop(svc);
        drop(svcs);
        (all, elapsed)
    });
    let mut sorted = latencies;
    sorted.sort();
    let n = sorted.len();
    println!(
        "  moves: {n} in {:.1} s = {:.0} moves/s; latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        elapsed.as_secs_f64(),
        n as f64 / elapsed.as_secs_f64(),
        percentile(&sorted, 0.50).as_secs_f64() * 1e3,
        percentile(&sorted, 0.99).as_secs_f64() * 1e3,
        sorted.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
    );
    let mut waited = std::mem::take(&mut *waits.lock().expect("waits"));
    waited.sort_unstable();
    let at = |q: f64| {
        waited
            .get(((waited.len() as f64 * q) as usize).min(waited.len().saturating_sub(1)))
            .copied()
            .unwrap_or(0)
    };
    println!(
        "  delivered {} entries: commit to drawn and delivered p50 {} ms, p99 {} ms",
        waited.len(),
        at(0.50),
        at(0.99)
    );
    let stats = renderer.cache_stats();
    println!(
        "  renderer strip cache: {} strips cached, {} deflated ({:.0}% hits), {} held in {:.1} MB",
        stats.hits,
        stats.misses,
        100.0 * stats.hits as f64 / (stats.hits + stats.misses).max(1) as f64,
        stats.entries,
        stats.bytes as f64 / 1e6
    );
    let rss_after = rss_kb();
    // A cold start with everything stored.
    rt.block_on(async {
        let t0 = Instant::now();
        let svc = service(&path, images, Arc::new(Renderer::new()));
        let downtime = svc.recover().await.expect("recover");
        let started = t0.elapsed();
        let r = svc.handle(said(games / 2, "red", "/fen")).await;
        let first = t0.elapsed();
        let stored = svc.storage().game_count();
        println!(
            "  restart with {stored} stored games: ready in {:.1} ms (clocks shifted by {downtime} ms), first command answered after {:.1} ms: {}",
            started.as_secs_f64() * 1e3,
            first.as_secs_f64() * 1e3,
            r.first().map(|r| r.text.chars().take(40).collect::<String>()).unwrap_or_default()
        );
    });
    if postgres().is_some() {
        println!("  storage: PostgreSQL (size not measured)");
    }
    let size: u64 = walk(&path);
    if postgres().is_none() {
        println!(
            "  storage: {:.1} MB on disk = {:.0} bytes per stored game ({} plies each)",
            size as f64 / 1e6,
            size as f64 / games as f64,
            plies
        );
        // What is live, apart from sled's log: its own export of every record.
        let file = path.with_extension("export");
        let live = SledStorage::open(&path)
            .map_err(|e| e.to_string())
            .and_then(|s| s.export(&file).map_err(|e| e.to_string()))
            .and_then(|_| std::fs::metadata(&file).map_err(|e| e.to_string()));
        match live {
            Ok(m) => println!(
                "  live records (sled export): {:.1} MB = {:.0} bytes per stored game",
                m.len() as f64 / 1e6,
                m.len() as f64 / games as f64
            ),
            Err(e) => println!("  live records: not measured ({e})"),
        }
        // The same records imported into a new database (`xiangqi-bot export`, `import`).
        let fresh = path.with_extension("fresh");
        match SledStorage::import(&fresh, &file) {
            Ok(_) => {
                let size = walk(&fresh);
                println!(
                    "  after export and import: {:.1} MB on disk = {:.0} bytes per stored game",
                    size as f64 / 1e6,
                    size as f64 / games as f64
                );
            }
            Err(e) => println!("  after export and import: not measured ({e})"),
        }
        let _ = std::fs::remove_file(&file);
    }
    println!(
        "  memory: RSS {} MB -> {} MB after play ({} KB per game, channel cache capped)",
        rss_start / 1024,
        rss_after / 1024,
        (rss_after.saturating_sub(rss_start)) / games.max(1) as u64
    );
}

fn walk(p: &std::path::Path) -> u64 {
    let Ok(rd) = std::fs::read_dir(p) else {
        return std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
    };
    rd.filter_map(Result::ok)
        .map(|e| {
            let path = e.path();
            if path.is_dir() {
                walk(&path)
            } else {
                e.metadata().map(|m| m.len()).unwrap_or(0)
            }
        })
        .sum()
}

/// The wall clock in epoch ms, as the service's own.
fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}
