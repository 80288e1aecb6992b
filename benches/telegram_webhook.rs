//! Telegram end to end, long polling against a webhook: many group games at once through the
//! real adapter and the fake Bot API (real HTTP both ways, board photos drawn and uploaded),
//! on sled. Prints moves per second from the first update pushed to the last board received.
//!
//! `cargo bench --bench telegram_webhook` (env: `CHATS`, default 32; every chat plays the
//! same 16 moves, all pushed at once, so Telegram's one-update-per-chat-in-flight rule and
//! the adapter's per-chat order are what paces each chat). With `SLOW=N` the webhook run
//! also has N slow clients connected all along: each sends part of a request's headers and
//! then nothing, and connects again as soon as the server closes it.

#[path = "../tests/support/telegram_fake.rs"]
mod telegram_fake;
#[path = "../tests/support/telegram_harness.rs"]
mod telegram_harness;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};

use telegram_fake::{FakeChat, FakeTelegram, FakeUser};
use telegram_harness::{expect_call, free_addr, start_game, webhook_config, Running, TOKEN};

/// Moves of an ordinary opening, each legal after the ones before (red first).
const LINE: &[&str] = &[
    "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "a9b9", "a0b0", "g6g5", "g3g4", "c6c5",
    "c3c4", "i6i5", "i3i4", "a6a5",
];

/// Keep `n` slow clients on `addr` (see the module doc); counts in `closed` each connection
/// the server closed.
fn slow_clients(addr: SocketAddr, n: usize, closed: &Arc<AtomicUsize>) {
    for _ in 0..n {
        let closed = Arc::clone(closed);
        tokio::spawn(async move {
            loop {
                let Ok(mut s) = tokio::net::TcpStream::connect(addr).await else {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                };
                let _ = s
                    .write_all(b"POST /hook HTTP/1.1\r\nHost: bot\r\nContent-Type: appl")
                    .await;
                let mut buf = [0u8; 256];
                while matches!(s.read(&mut buf).await, Ok(n) if n > 0) {}
                closed.fetch_add(1, Ordering::Relaxed);
            }
        });
    }
}

async fn run(webhook: bool, chats: usize, slow: usize, closed: &Arc<AtomicUsize>) -> Duration {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let mark = fake.mark();
    let bot = if webhook {
        let listen = free_addr();
        let hook = webhook_config(&format!("http://{listen}/hook"), listen);
        let bot = Running::start_webhook(&fake, dir.path(), hook).await;
        expect_call(&fake, mark, "setWebhook", |c| c.is("setWebhook")).await;
        slow_clients(listen, slow, closed);
        bot
    } else {
        Running::start(&fake, dir.path()).await
    };
    let games: Vec<(FakeChat, FakeUser, FakeUser)> = (0..chats as i64)
        .map(|i| {
            let user = |id: i64, name: String| {
                FakeUser::new(id, &name)
                    .username(&name.to_lowercase())
                    .language_code("en")
            };
            (
                FakeChat::group(-4_100_000_000 - i, &format!("Club {i}")),
                user(20_000 + 2 * i, format!("Red{i}")),
                user(20_001 + 2 * i, format!("Black{i}")),
            )
        })
        .collect();
    for (chat, red, black) in &games {
        start_game(&fake, chat, None, red, black).await;
    }
    let mark = fake.mark();
    let start = Instant::now();
    for (n, mv) in LINE.iter().enumerate() {
        for (chat, red, black) in &games {
            fake.push_message(chat, if n % 2 == 0 { red } else { black }, mv, None);
        }
    }
    let last = format!("{}. ", LINE.len());
    for (chat, _, black) in &games {
        let wanted = format!("{last}{}", black.first_name);
        expect_call(&fake, mark, &wanted, |c| {
            c.is("sendPhoto")
                && c.chat_id == Some(chat.id)
                && c.caption.as_deref().is_some_and(|t| t.contains(&wanted))
        })
        .await;
    }
    let took = start.elapsed();
    bot.stop().await;
    took
}

fn main() {
    let setting = |key: &str, default: usize| {
        std::env::var(key)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let (chats, slow) = (setting("CHATS", 32), setting("SLOW", 0));
    let closed = Arc::new(AtomicUsize::new(0));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        for webhook in [false, true] {
            let took = run(webhook, chats, slow, &closed).await;
            let moves = chats * LINE.len();
            println!(
                "{:<8} {chats} chats, {moves} moves with board photos: {:.2} s, {:.0} moves/s",
                if webhook { "webhook" } else { "polling" },
                took.as_secs_f64(),
                moves as f64 / took.as_secs_f64()
            );
            if webhook && slow > 0 {
                println!(
                    "         {slow} slow clients all along; the server closed {} of their \
                     connections",
                    closed.load(Ordering::Relaxed)
                );
            }
        }
    });
}
