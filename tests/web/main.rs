//! The web board in a real browser, against the real binary: the console bot serves the board
//! (`WEB_LISTEN`), `/web` and `/watch` give links, a player's move by clicking in headless
//! Chromium (driven by Debian's chromedriver over WebDriver) reaches the chat's board, a
//! spectator's page sees it arrive live, and the screenshot shows the piece on its new point.
//! Forged, altered, expired and watch-only links are refused over plain HTTP.
//!
//! Chromium and chromedriver must be installed (`.ci/run` installs them): the test fails,
//! never skips, without them.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{json, Value};
use xiangqi_bot::app::links::{Access, LinkKey};
use xiangqi_bot::platform::UserKey;

mod mini_app;
#[path = "../support/telegram_fake.rs"]
mod telegram_fake;
#[path = "../support/telegram_harness.rs"]
mod telegram_harness;

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port()
}

/// The console bot, its input, and its output lines as they come.
struct Bot {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl Bot {
    fn start(dir: &std::path::Path, port: u16) -> Bot {
        let mut child = Command::new(env!("CARGO_BIN_EXE_xiangqi-bot"))
            .env("DATA_DIR", dir)
            .env("USER", "alice")
            .env("RUST_LOG", "warn")
            .env("WEB_LISTEN", format!("127.0.0.1:{port}"))
            .env("BOARD_IMAGES", "on")
            .env("RATE_LIMIT_BURST", "100000")
            .env_remove("TELEGRAM_BOT_TOKEN")
            .env_remove("DISCORD_TOKEN")
            .env_remove("DATABASE_URL")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start the bot");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Bot {
            child,
            stdin,
            lines,
        }
    }

    fn say(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write");
        self.stdin.flush().expect("flush");
    }

    /// The first output line that `pred` accepts, within `secs`.
    fn expect(&mut self, what: &str, secs: u64, pred: impl Fn(&str) -> bool) -> String {
        let until = Instant::now() + Duration::from_secs(secs);
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) if pred(&l) => return l,
                Ok(_) => {}
                Err(_) => panic!("no output line for {what} within {secs} s"),
            }
        }
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The link in a line (`http://…/p/TOKEN`), up to the next space.
fn link_in(line: &str, base: &str) -> String {
    let at = line.find(base).expect("a link");
    line[at..]
        .split_whitespace()
        .next()
        .expect("link")
        .to_string()
}

/// A chromedriver process and a minimal WebDriver client over HTTP.
struct Driver {
    child: Child,
    url: String,
    http: reqwest::Client,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Driver {
    async fn start() -> Driver {
        assert!(
            std::path::Path::new(CHROMIUM).exists() && std::path::Path::new(CHROMEDRIVER).exists(),
            "the browser test needs Debian's chromium and chromium-driver (.ci/run installs them)"
        );
        let port = free_port();
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let d = Driver {
            child,
            url: format!("http://127.0.0.1:{port}"),
            http: reqwest::Client::new(),
        };
        let until = Instant::now() + Duration::from_secs(20);
        loop {
            if let Ok(r) = d.http.get(format!("{}/status", d.url)).send().await {
                if let Ok(v) = r.json::<Value>().await {
                    if v["value"]["ready"] == json!(true) {
                        return d;
                    }
                }
            }
            assert!(Instant::now() < until, "chromedriver did not start");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let mut req = self.http.request(method, format!("{}{path}", self.url));
        if let Some(b) = body {
            req = req.json(&b);
        }
        let v: Value = req
            .send()
            .await
            .expect("webdriver")
            .json()
            .await
            .expect("json");
        assert!(
            v["value"]["error"].is_null(),
            "webdriver {path}: {}",
            v["value"]
        );
        v["value"].clone()
    }

    /// A new browser (its own profile: a second one is another person).
    async fn session(&self) -> Session<'_> {
        let v = self
            .call(
                reqwest::Method::POST,
                "/session",
                Some(json!({"capabilities": {"alwaysMatch": {
                    "browserName": "chrome",
                    "goog:chromeOptions": {
                        "binary": CHROMIUM,
                        "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                                 "--disable-dev-shm-usage", "--window-size=480,900",
                                 "--force-device-scale-factor=1"]
                    }
                }}})),
            )
            .await;
        Session {
            driver: self,
            id: v["sessionId"].as_str().expect("session id").to_string(),
        }
    }
}

struct Session<'a> {
    driver: &'a Driver,
    id: String,
}

impl Session<'_> {
    async fn open(&self, url: &str) {
        self.driver
            .call(
                reqwest::Method::POST,
                &format!("/session/{}/url", self.id),
                Some(json!({ "url": url })),
            )
            .await;
    }

    async fn script(&self, script: &str) -> Value {
        self.driver
            .call(
                reqwest::Method::POST,
                &format!("/session/{}/execute/sync", self.id),
                Some(json!({ "script": script, "args": [] })),
            )
            .await
    }

    /// Wait until `script` returns true.
    async fn until(&self, what: &str, script: &str) {
        let until = Instant::now() + Duration::from_secs(15);
        while self.script(script).await != json!(true) {
            assert!(Instant::now() < until, "the page never showed {what}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    async fn click(&self, css: &str) {
        let e = self
            .driver
            .call(
                reqwest::Method::POST,
                &format!("/session/{}/element", self.id),
                Some(json!({ "using": "css selector", "value": css })),
            )
            .await;
        let id = e
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .expect("element id")
            .to_string();
        self.driver
            .call(
                reqwest::Method::POST,
                &format!("/session/{}/element/{id}/click", self.id),
                Some(json!({})),
            )
            .await;
    }

    async fn screenshot(&self) -> Shot {
        let v = self
            .driver
            .call(
                reqwest::Method::GET,
                &format!("/session/{}/screenshot", self.id),
                None,
            )
            .await;
        let png = base64::engine::general_purpose::STANDARD
            .decode(v.as_str().expect("base64"))
            .expect("decode");
        // To look at them: WEB_SHOTS=dir cargo test --test web
        if let Some(dir) = std::env::var_os("WEB_SHOTS") {
            let n = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis());
            let _ = std::fs::write(std::path::Path::new(&dir).join(format!("{n}.png")), &png);
        }
        Shot::decode(&png)
    }

    /// The box of the point `sq` on the screen, in pixels.
    async fn point_box(&self, sq: &str) -> (f64, f64, f64) {
        let v = self
            .script(&format!(
                "var r = document.querySelector('[data-sq=\"{sq}\"]').getBoundingClientRect(); \
                 return [r.left + r.width / 2, r.top + r.height / 2, r.width];"
            ))
            .await;
        let n = |i: usize| v[i].as_f64().expect("number");
        (n(0), n(1), n(2))
    }

    /// In a screenshot, the red cannon drawn on point `on` and point `off` empty (`when`
    /// says at which moment, for the failure).
    async fn red_piece_on(&self, on: &str, off: &str, when: &str) {
        let shot = self.screenshot().await;
        let (on_box, off_box) = (self.point_box(on).await, self.point_box(off).await);
        assert!(red_pixels(&shot, on_box) > 20, "a red piece on {on} {when}");
        assert!(red_pixels(&shot, off_box) < 5, "{off} empty {when}");
    }

    async fn close(self) {
        self.driver
            .call(
                reqwest::Method::DELETE,
                &format!("/session/{}", self.id),
                None,
            )
            .await;
    }
}

/// A screenshot, decoded from the PNG the browser sent.
struct Shot {
    w: u32,
    h: u32,
    /// Bytes per pixel (3 or 4).
    bpp: usize,
    px: Vec<u8>,
}

impl Shot {
    fn decode(bytes: &[u8]) -> Shot {
        let mut dec = png::Decoder::new(std::io::Cursor::new(bytes));
        dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
        let mut reader = dec.read_info().expect("a PNG header");
        let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
        let info = reader.next_frame(&mut buf).expect("PNG data");
        buf.truncate(info.buffer_size());
        let bpp = match info.color_type {
            png::ColorType::Rgb => 3,
            png::ColorType::Rgba => 4,
            other => panic!("a screenshot in {other:?}"),
        };
        Shot {
            w: info.width,
            h: info.height,
            bpp,
            px: buf,
        }
    }

    fn rgb(&self, x: u32, y: u32) -> [u8; 3] {
        let i = (y as usize * self.w as usize + x as usize) * self.bpp;
        [self.px[i], self.px[i + 1], self.px[i + 2]]
    }
}

/// Pixels around a point that are the red pieces' red.
fn red_pixels(img: &Shot, (x, y, w): (f64, f64, f64)) -> usize {
    let half = w / 2.0;
    let mut n = 0;
    for py in (y - half).max(0.0) as u32..((y + half) as u32).min(img.h) {
        for px in (x - half).max(0.0) as u32..((x + half) as u32).min(img.w) {
            let p = img.rgb(px, py);
            if p[0] > 140 && p[1] < 90 && p[2] < 90 {
                n += 1;
            }
        }
    }
    n
}

/// `text` sent from the page of `token`: the status and, when 200, the answer.
/// `GET /healthz`: its status and body.
async fn health(http: &reqwest::Client, base: &str) -> (u16, String) {
    let r = http
        .get(format!("{base}/healthz"))
        .send()
        .await
        .expect("health");
    (r.status().as_u16(), r.text().await.expect("text"))
}

async fn send(http: &reqwest::Client, base: &str, token: &str, text: &str) -> (u16, Value) {
    let r = http
        .post(format!("{base}/api/{token}/move"))
        .body(json!({ "text": text }).to_string())
        .send()
        .await
        .expect("post");
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_clicked_in_the_browser_reaches_the_chat_and_the_spectators() {
    let dir = tempfile::tempdir().expect("tempdir");
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let mut bot = Bot::start(dir.path(), port);
    bot.say("@alice /play @bob red");
    bot.expect("the challenge", 20, |l| l.contains("bob"));
    bot.say("@bob /accept");
    bot.expect("the game's first board", 20, |l| {
        l.contains("board-1-0.png")
    });
    bot.say("@alice /web");
    let line = bot.expect("alice's link", 20, |l| l.contains(&format!("{base}/p/")));
    let play = link_in(&line, &format!("{base}/p/"));
    bot.say("@bob /web");
    let line = bot.expect("bob's link", 20, |l| l.contains(&format!("{base}/p/")));
    let bob = link_in(&line, &format!("{base}/p/"));
    let bob_token = bob.rsplit('/').next().expect("token").to_string();
    bot.say("@carol /watch");
    let line = bot.expect("the watch link", 20, |l| l.contains(&format!("{base}/w/")));
    let watch = link_in(&line, &format!("{base}/w/"));

    let http = reqwest::Client::new();
    // Refused links: forged, altered, a watch link used to move, an expired one.
    let token = play.rsplit('/').next().expect("token").to_string();
    let altered = token.replacen('p', "w", 1);
    for bad in ["forged", altered.as_str()] {
        let r = http
            .get(format!("{base}/api/{bad}/state"))
            .send()
            .await
            .expect("get");
        assert_eq!(r.status(), 401, "{bad}");
    }
    let watch_token = watch.rsplit('/').next().expect("token");
    let (status, _) = send(&http, &base, watch_token, "h2e2").await;
    assert_eq!(status, 401, "a watch link cannot move");
    let secret = std::fs::read(dir.path().join("web-secret")).expect("the bot's link key");
    let game = xiangqi_bot::app::links::LinkKey::new(secret.clone())
        .verify(&token, 0)
        .expect("alice's token")
        .game();
    let expired = LinkKey::new(secret).sign(
        &Access::Play {
            game,
            user: UserKey::from("console:alice"),
        },
        1,
    );
    let (status, _) = send(&http, &base, &expired, "h2e2").await;
    assert_eq!(status, 401, "an expired link");
    assert_eq!(health(&http, &base).await.0, 200);

    let driver = Driver::start().await;
    let alice = driver.session().await;
    alice.open(&play).await;
    alice
        .until(
            "alice's board",
            "return !!document.querySelector('[data-sq=\"h2\"]') && \
             document.getElementById('status').textContent.length > 0",
        )
        .await;
    let spectator = driver.session().await;
    spectator.open(&watch).await;
    spectator
        .until(
            "the spectator's board, live",
            "return document.getElementById('moves').getAttribute('data-count') === '0' && \
             document.getElementById('live').textContent.length > 0",
        )
        .await;
    alice.red_piece_on("h2", "e2", "at the start").await;

    // Tap the cannon, then its target.
    alice.click("[data-sq=\"h2\"]").await;
    alice
        .until(
            "the cannon's targets",
            "return document.querySelectorAll('.target').length > 0",
        )
        .await;
    alice.click("[data-sq=\"e2\"]").await;
    alice
        .until(
            "the move on alice's page",
            "return document.getElementById('moves').getAttribute('data-count') === '1'",
        )
        .await;
    // The chat got its board, as after a typed move.
    bot.expect("the chat's board after the move", 20, |l| {
        l.contains("board-1-1.png")
    });
    // The spectator saw it arrive without reloading.
    spectator
        .until(
            "the move on the spectator's page",
            "return document.getElementById('moves').getAttribute('data-count') === '1' && \
             document.querySelector('[data-at=\"e2\"]').getAttribute('data-piece') === 'C'",
        )
        .await;
    alice.red_piece_on("e2", "h2", "after the move").await;

    // Not alice's turn now: the server refuses with the chat's own words.
    let (_, r) = send(&http, &base, &token, "b2e2").await;
    assert_eq!(r["played"], json!(false), "{r}");
    assert!(
        r["said"].as_array().is_some_and(|s| !s.is_empty()),
        "the refusal is explained: {r}"
    );

    // Bob (over plain HTTP with his own link) moves and offers a draw; alice's page shows the
    // offer, and she accepts it there: both pages end with the chat's headline.
    for text in ["h9g7", "/draw"] {
        let (_, r) = send(&http, &base, &bob_token, text).await;
        assert_eq!(r["played"], json!(true), "{text}: {r}");
    }
    let (_, r) = send(&http, &base, &bob_token, "/lang vi").await;
    assert_eq!(r["played"], json!(false), "only a game's own commands: {r}");
    alice
        .until(
            "bob's offer on alice's page",
            "return !document.getElementById('offer').hidden",
        )
        .await;
    alice.click("#offer-accept").await;
    for (who, page) in [("alice", &alice), ("the spectator", &spectator)] {
        page.until(
            &format!("the end on {who}'s page"),
            "return document.getElementById('status').textContent.indexOf('1/2-1/2') >= 0",
        )
        .await;
    }
    bot.expect("the end in the chat", 20, |l| l.contains("1/2-1/2"));
    // The finished game steps back to its start, and its PGN and GIF are there to take.
    alice
        .until(
            "the replay's controls",
            "return !document.getElementById('replay').hidden && \
             document.getElementById('r-ply').textContent === '2 / 2'",
        )
        .await;
    alice.click("#r-first").await;
    alice
        .until(
            "the start position again",
            "return document.getElementById('r-ply').textContent === '0 / 2' && \
             document.querySelector('[data-at=\"h2\"]').getAttribute('data-piece') === 'C' && \
             !document.querySelector('[data-at=\"e2\"]')",
        )
        .await;
    assert_eq!(
        alice
            .script("return getComputedStyle(document.getElementById('typed')).display")
            .await,
        json!("none"),
        "no move box once the game is over"
    );
    alice
        .red_piece_on("h2", "e2", "at the replay's start")
        .await;
    let pgn = http
        .get(format!("{base}/api/{watch_token}/pgn"))
        .send()
        .await
        .expect("pgn")
        .text()
        .await
        .expect("text");
    assert!(pgn.contains("[Result \"1/2-1/2\"]"), "{pgn}");
    let gif = http
        .get(format!("{base}/api/{watch_token}/gif"))
        .send()
        .await
        .expect("gif")
        .bytes()
        .await
        .expect("bytes");
    let mut frames = 0;
    let mut dec = gif::DecodeOptions::new()
        .read_info(std::io::Cursor::new(&gif[..]))
        .expect("a GIF");
    while dec.read_next_frame().expect("a frame").is_some() {
        frames += 1;
    }
    assert!(frames >= 3, "the start and both moves: {frames} frames");
    bot.say("@carol /watch");
    bot.expect("a replay link once nothing is played", 20, |l| {
        l.contains("Replay game 1") && l.contains(&format!("{base}/w/"))
    });
    alice.close().await;
    spectator.close().await;
}
