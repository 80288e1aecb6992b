//! Slow and idle clients against the webhook's server, over real TCP sockets: connections
//! that never finish their headers, or trickle a body, are closed; open connections are
//! capped, so that a real update from Telegram still gets through while hundreds of slow ones
//! are open; a source that keeps sending the wrong secret is answered 429 for a while.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::telegram_fake::{FakeChat, FakeTelegram};
use super::telegram_harness::{
    self, free_addr, play, start_game, webhook_config_with, Running, SECRET, TOKEN, WAIT,
};
use super::{line, players, post};

/// A fake Bot API, and a bot on sled (in a temporary directory) whose webhook server has
/// these `TELEGRAM_WEBHOOK_*` settings, once it set its webhook; the server's address.
async fn bot_with(
    settings: &[(&str, &str)],
) -> (FakeTelegram, tempfile::TempDir, Running, SocketAddr) {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let listen = free_addr();
    let url = format!("http://{listen}/tg/hook");
    let mark = fake.mark();
    let hook = webhook_config_with(&url, listen, settings);
    let bot = Running::start_webhook(&fake, dir.path(), hook).await;
    telegram_harness::expect_call(&fake, mark, "setWebhook", |c| c.is("setWebhook")).await;
    (fake, dir, bot, listen)
}

/// A connection that sent the start of a request and then nothing.
async fn partial_request(addr: SocketAddr) -> TcpStream {
    let mut s = TcpStream::connect(addr).await.expect("connect");
    s.write_all(b"POST /tg/hook HTTP/1.1\r\nHost: bot\r\nContent-Type: appl")
        .await
        .expect("send part of the headers");
    s
}

/// What the server sends on `s` until it closes it.
async fn all_sent(s: &mut (impl AsyncReadExt + Unpin)) -> String {
    let mut got = Vec::new();
    let mut buf = [0u8; 1024];
    loop {
        match s.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
        }
    }
    String::from_utf8_lossy(&got).into_owned()
}

/// What the server sent before it closed `s`; `None` if it had not closed it within `wait`.
async fn until_closed(s: &mut TcpStream, wait: Duration) -> Option<String> {
    tokio::time::timeout(wait, all_sent(s)).await.ok()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_that_do_not_send_their_headers_in_time_are_closed() {
    let (_fake, _dir, bot, addr) = bot_with(&[("TELEGRAM_WEBHOOK_HEADER_TIMEOUT_MS", "300")]).await;
    let mut slow = Vec::new();
    for _ in 0..50 {
        slow.push(partial_request(addr).await);
    }
    // A connection that sends nothing at all, and one kept alive after a request.
    slow.push(TcpStream::connect(addr).await.expect("connect"));
    let mut kept = TcpStream::connect(addr).await.expect("connect");
    kept.write_all(b"GET /tg/hook HTTP/1.1\r\nHost: bot\r\n\r\n")
        .await
        .expect("a whole request");
    let mut head = [0u8; 12];
    kept.read_exact(&mut head).await.expect("an answer");
    assert_eq!(&head, b"HTTP/1.1 405");
    slow.push(kept);
    for (i, s) in slow.iter_mut().enumerate() {
        assert!(
            until_closed(s, WAIT).await.is_some(),
            "connection {i} is still open"
        );
    }
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_trickles_in_is_answered_408_and_its_connection_closed() {
    let (_fake, _dir, bot, addr) = bot_with(&[("TELEGRAM_WEBHOOK_BODY_TIMEOUT_MS", "300")]).await;
    let s = TcpStream::connect(addr).await.expect("connect");
    let (mut reader, mut writer) = s.into_split();
    let head = format!(
        "POST /tg/hook HTTP/1.1\r\nHost: bot\r\nContent-Type: application/json\r\n\
         X-Telegram-Bot-Api-Secret-Token: {SECRET}\r\nContent-Length: 400\r\n\r\n{{\"update_id\""
    );
    writer
        .write_all(head.as_bytes())
        .await
        .expect("the headers");
    // One byte every 50 ms (400 bytes would take 20 s), read side by side with the answer.
    let trickle = async {
        for _ in 0..400 {
            tokio::time::sleep(Duration::from_millis(50)).await;
            if writer.write_all(b" ").await.is_err() {
                break;
            }
        }
        std::future::pending::<()>().await;
    };
    let read = all_sent(&mut reader);
    let said = tokio::time::timeout(WAIT, async {
        tokio::select! {
            said = read => said,
            () = trickle => unreachable!(),
        }
    })
    .await
    .expect("the server closed the connection");
    assert!(said.starts_with("HTTP/1.1 408"), "{said:?}");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_update_gets_through_while_hundreds_of_slow_connections_are_open() {
    // Headers may take a minute: only the cap makes room here.
    let (fake, _dir, bot, addr) = bot_with(&[
        ("TELEGRAM_WEBHOOK_HEADER_TIMEOUT_MS", "60000"),
        ("TELEGRAM_WEBHOOK_MAX_CONNECTIONS", "8"),
        ("TELEGRAM_WEBHOOK_CONNECTIONS", "16"),
    ])
    .await;
    let group = FakeChat::group(-4_000_000_201, "Crowded club");
    let (alice, bob) = players();
    start_game(&fake, &group, None, &alice, &bob).await;
    let mut slow = Vec::new();
    for _ in 0..300 {
        slow.push(partial_request(addr).await);
    }
    play(&fake, &group, &alice, "h2e2", &line(1, &alice, &bob)).await;
    play(&fake, &group, &bob, "h9g7", &line(2, &alice, &bob)).await;
    // All but the cap's worth were closed to make room (long before their header deadline).
    let mut open = 0;
    for s in &mut slow {
        if until_closed(s, Duration::from_millis(200)).await.is_none() {
            open += 1;
        }
    }
    assert!(open <= 16, "{open} slow connections still open");
    assert!(fake
        .webhook_deliveries()
        .iter()
        .all(|d| d.status == Some(200)));
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_source_that_keeps_sending_the_wrong_secret_is_answered_429_for_a_while() {
    let (_fake, _dir, bot, addr) = bot_with(&[]).await;
    let url = format!("http://{addr}/tg/hook");
    let near_miss = "hook_SECRET-43_0123456789abcdef";
    let wrong = Some(near_miss);
    for _ in 0..4 {
        assert_eq!(post(&url, wrong, "{}".into()).await, 401);
    }
    assert_eq!(
        post(&url, wrong, "{}".into()).await,
        401,
        "the fifth starts it"
    );
    let answer = reqwest::Client::new()
        .post(&url)
        .header("X-Telegram-Bot-Api-Secret-Token", near_miss)
        .body("{}")
        .send()
        .await
        .expect("an answer");
    assert_eq!(answer.status().as_u16(), 429);
    let wait: u64 = answer
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .expect("Retry-After in seconds");
    assert_eq!(wait, 1);
    assert_eq!(post(&url, None, "{}".into()).await, 429, "no secret either");
    // The right secret is never refused, so forged requests through a shared proxy cannot
    // hold up Telegram's.
    assert_eq!(post(&url, Some(SECRET), "{not json".into()).await, 400);
    // Once the block ends, one more refusal starts a longer one.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(post(&url, wrong, "{}".into()).await, 401);
    let answer = reqwest::Client::new()
        .post(&url)
        .body("{}")
        .send()
        .await
        .expect("an answer");
    assert_eq!(answer.status().as_u16(), 429);
    assert_eq!(
        answer.headers().get("retry-after").map(|v| v.as_bytes()),
        Some(&b"2"[..])
    );
    bot.stop().await;
}
