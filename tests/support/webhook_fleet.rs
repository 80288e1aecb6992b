//! Several bot processes behind one webhook URL, for `tests/telegram/webhook.rs`: a
//! round-robin load balancer in front of them, and the bot binary started in webhook mode.
#![allow(dead_code)]

use std::time::Duration;

use xiangqi_bot::adapters::telegram::SECRET_HEADER;

use super::telegram_fake::FakeTelegram;
use super::telegram_harness::{SECRET, TOKEN, WAIT};

/// A round-robin load balancer in front of webhook servers: each request goes to the next
/// backend; what each answered is logged.
pub struct Balancer {
    backends: Vec<String>,
    next: std::sync::atomic::AtomicUsize,
    client: reqwest::Client,
    /// (backend, status) of each request, in order.
    pub log: std::sync::Mutex<Vec<(usize, u16)>>,
}

impl Balancer {
    /// Serves on a free port; returns its address and the shared state.
    pub async fn start(backends: Vec<String>) -> (std::net::SocketAddr, std::sync::Arc<Balancer>) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the balancer");
        let addr = listener.local_addr().expect("its address");
        let state = std::sync::Arc::new(Balancer {
            backends,
            next: std::sync::atomic::AtomicUsize::new(0),
            client: reqwest::Client::new(),
            log: std::sync::Mutex::new(Vec::new()),
        });
        let app = axum::Router::new()
            .fallback(Balancer::forward)
            .with_state(std::sync::Arc::clone(&state));
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        (addr, state)
    }

    async fn forward(
        axum::extract::State(b): axum::extract::State<std::sync::Arc<Balancer>>,
        req: axum::extract::Request,
    ) -> axum::http::StatusCode {
        use axum::http::StatusCode;
        let i = b.next.fetch_add(1, std::sync::atomic::Ordering::SeqCst) % b.backends.len();
        let path = req.uri().path().to_string();
        let secret = req.headers().get(SECRET_HEADER).cloned();
        let Ok(body) = axum::body::to_bytes(req.into_body(), 1 << 20).await else {
            return StatusCode::BAD_REQUEST;
        };
        let mut out = b
            .client
            .post(format!("{}{path}", b.backends[i]))
            .header("content-type", "application/json")
            .body(body);
        if let Some(s) = secret {
            out = out.header(SECRET_HEADER, s);
        }
        let status = match out.send().await {
            Ok(r) => r.status().as_u16(),
            Err(_) => 502,
        };
        b.log.lock().expect("the log").push((i, status));
        StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY)
    }
}

/// A bot process, killed (and its log shown) if the test fails before it is stopped.
pub struct Process(Option<std::process::Child>);

impl Drop for Process {
    fn drop(&mut self) {
        if let Some(mut child) = self.0.take() {
            let _ = child.kill();
            if let Ok(out) = child.wait_with_output() {
                eprintln!(
                    "--- a bot process:\n{}",
                    String::from_utf8_lossy(&out.stderr)
                );
            }
        }
    }
}

/// The bot binary in webhook mode on the database at `db`, serving `listen`, its webhook
/// `url` (the balancer's).
pub fn bot_process(
    fake: &FakeTelegram,
    db: &str,
    data: &std::path::Path,
    url: &str,
    listen: std::net::SocketAddr,
) -> Process {
    use std::process::{Command, Stdio};
    let child = Command::new(env!("CARGO_BIN_EXE_xiangqi-bot"))
        .env("TELEGRAM_BOT_TOKEN", TOKEN)
        .env("TELEGRAM_API_URL", fake.url())
        .env("TELEGRAM_WEBHOOK_URL", url)
        .env("TELEGRAM_WEBHOOK_LISTEN", listen.to_string())
        .env("TELEGRAM_WEBHOOK_SECRET", SECRET)
        .env("DATABASE_URL", db)
        .env("DATA_DIR", data)
        .env("RATE_LIMIT_BURST", "1000")
        .env("ENGINE_THREADS", "1")
        .env("RUST_LOG", "info")
        .env_remove("DISCORD_TOKEN")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the binary");
    Process(Some(child))
}

/// Ctrl-c to `child`; its standard error once it ended well.
pub async fn interrupt(mut process: Process) -> String {
    let Some(mut child) = process.0.take() else {
        return String::new();
    };
    let sent = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill -INT");
    assert!(sent.success());
    let deadline = std::time::Instant::now() + WAIT;
    while child.try_wait().expect("wait").is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("the bot did not stop on ctrl-c");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let out = child.wait_with_output().expect("output");
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
    assert!(!stderr.contains("TEST-token_abc"), "the token leaked");
    assert!(!stderr.contains(SECRET), "the secret leaked");
    stderr
}
