//! Many spectators on one game: the real binary (console mode, web board on) with `WATCHERS`
//! live streams (default 1000) open on one game's watch link, each a plain HTTP connection
//! reading server-sent events. Each of `MOVES` moves (default 6) is typed in the console; the
//! time from typing it to each watcher's event is measured. Prints p50, p99 and the slowest,
//! and the bot's memory (resident set) per watcher.
//!
//! `cargo bench --bench web_watchers` (env: `WATCHERS`, `MOVES`). The file-descriptor limit
//! (`ulimit -n`) must be above twice `WATCHERS` (both ends are on this machine).

#[path = "../tests/support/console.rs"]
mod console;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use console::Console;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn env(key: &str, default: usize) -> usize {
    std::env::var(key)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port()
}

fn rss_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// One watcher: open the stream, and note when each event arrives (`seen[k]`: the time of
/// its event number k, the first being the board as it stands).
async fn watch(
    addr: String,
    path: String,
    seen: Arc<Mutex<Vec<Vec<Instant>>>>,
    opened: Arc<AtomicUsize>,
) {
    let Ok(mut s) = tokio::net::TcpStream::connect(&addr).await else {
        return;
    };
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n");
    if s.write_all(req.as_bytes()).await.is_err() {
        return;
    }
    let mut buf = vec![0u8; 16 * 1024];
    let mut tail: Vec<u8> = Vec::new();
    let mut events = 0usize;
    loop {
        let n = match s.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        let now = Instant::now();
        tail.extend_from_slice(&buf[..n]);
        let needle = b"event: state";
        let mut at = 0;
        while let Some(i) = tail[at..].windows(needle.len()).position(|w| w == needle) {
            at += i + needle.len();
            let mut seen = seen.lock().expect("lock");
            if seen.len() <= events {
                seen.resize(events + 1, Vec::new());
            }
            seen[events].push(now);
            events += 1;
            if events == 1 {
                opened.fetch_add(1, Ordering::Relaxed);
            }
        }
        let keep = tail.len().saturating_sub(needle.len());
        tail.drain(..keep.max(at.min(tail.len())));
    }
}

fn main() {
    let watchers = env("WATCHERS", 1000);
    let moves = env("MOVES", 6).min(6);
    let dir = tempfile::tempdir().expect("tempdir");
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let watchers_env = (watchers + 16).to_string();
    let listen = format!("127.0.0.1:{port}");
    let mut bot = Console::start(
        dir.path(),
        &[
            ("WEB_LISTEN", listen.as_str()),
            ("WEB_WATCHERS", watchers_env.as_str()),
            ("BOARD_IMAGES", "on"),
        ],
    );
    bot.ask("@alice /play @bob red", "bob");
    bot.ask("@bob /accept", "board-1-0.png");
    let line = bot.ask("@carol /watch", &format!("{base}/w/"));
    let token = line[line.find("/w/").expect("link") + 3..]
        .split_whitespace()
        .next()
        .expect("token")
        .to_string();
    let pid = bot.pid();
    let before_kb = rss_kb(pid);

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    let seen: Arc<Mutex<Vec<Vec<Instant>>>> = Arc::new(Mutex::new(Vec::new()));
    let opened = Arc::new(AtomicUsize::new(0));
    let addr = format!("127.0.0.1:{port}");
    let path = format!("/api/{token}/events");
    let started = Instant::now();
    for _ in 0..watchers {
        rt.spawn(watch(
            addr.clone(),
            path.clone(),
            Arc::clone(&seen),
            Arc::clone(&opened),
        ));
    }
    while opened.load(Ordering::Relaxed) < watchers {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "only {} of {watchers} watchers got the board",
            opened.load(Ordering::Relaxed)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let open_ms = started.elapsed().as_millis();
    std::thread::sleep(Duration::from_millis(500));
    let after_kb = rss_kb(pid);

    let line = [
        "alice h2e2",
        "bob h9g7",
        "alice h0g2",
        "bob i9h9",
        "alice i0h0",
        "bob b9c7",
    ];
    let mut latencies: Vec<Duration> = Vec::new();
    let mut missed = 0;
    for (k, mv) in line.iter().take(moves).enumerate() {
        let typed = Instant::now();
        bot.send(&format!("@{mv}"));
        let until = typed + Duration::from_secs(10);
        loop {
            let got = seen.lock().expect("lock").get(k + 1).map_or(0, Vec::len);
            if got >= watchers || Instant::now() > until {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let s = seen.lock().expect("lock");
        let arrived = s.get(k + 1).cloned().unwrap_or_default();
        missed += watchers - arrived.len();
        latencies.extend(arrived.iter().map(|t| t.saturating_duration_since(typed)));
        drop(s);
        std::thread::sleep(Duration::from_millis(700));
    }
    latencies.sort();
    println!(
        "{watchers} watchers on one game, {moves} moves: every watcher had the board in {open_ms} ms"
    );
    println!(
        "move typed -> each watcher's event: p50 {:.0} ms, p99 {:.0} ms, slowest {:.0} ms ({} events, {missed} missed)",
        percentile(&latencies, 0.5).as_secs_f64() * 1000.0,
        percentile(&latencies, 0.99).as_secs_f64() * 1000.0,
        latencies.last().copied().unwrap_or_default().as_secs_f64() * 1000.0,
        latencies.len()
    );
    println!(
        "the bot's memory: {} KB before, {} KB with the watchers: {:.1} KB per watcher",
        before_kb,
        after_kb,
        (after_kb.saturating_sub(before_kb)) as f64 / watchers as f64
    );
    bot.kill();
    rt.shutdown_background();
}
