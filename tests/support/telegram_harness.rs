//! Running the real Telegram adapter (long polling, or a webhook the fake POSTs to) against the
//! fake Bot API server, on sled in a temporary directory, and checking what it sends.
#![allow(dead_code)]

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use teloxide::Bot;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use xiangqi_bot::adapters::telegram::WebhookConfig;
use xiangqi_bot::adapters::telegram::{self, RetryPolicy, TelegramError, TelegramOptions};
use xiangqi_bot::app::bot::ThinkingPool;
use xiangqi_bot::app::{system_now, Action, Now, Service, ServiceConfig};
use xiangqi_bot::config::Config;
use xiangqi_bot::game::Storage;
use xiangqi_bot::render::Renderer;
use xiangqi_bot::storage::SledStorage;
use xiangqi_bot::uci::player::Player;
use xiangqi_bot::uci::EngineConfig;

use serde_json::json;

use super::telegram_fake::{FakeChat, FakeTelegram, FakeUser, SentCall};

pub const TOKEN: &str = "123456:TEST-token_abc";
pub const WAIT: Duration = Duration::from_secs(20);
/// The webhook's secret token in tests.
pub const SECRET: &str = "hook_SECRET-42_0123456789abcdef";

/// A free local address to serve a webhook on.
pub fn free_addr() -> SocketAddr {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    l.local_addr().expect("its address")
}

/// The webhook settings as the bot reads them: Telegram POSTs to `url`, the bot serves
/// `listen`.
pub fn webhook_config(url: &str, listen: SocketAddr) -> WebhookConfig {
    webhook_config_with(url, listen, &[])
}

/// [`webhook_config`] with more settings (`TELEGRAM_WEBHOOK_*`).
pub fn webhook_config_with(url: &str, listen: SocketAddr, more: &[(&str, &str)]) -> WebhookConfig {
    let vars: HashMap<String, String> = [
        ("TELEGRAM_BOT_TOKEN", TOKEN.to_string()),
        ("TELEGRAM_WEBHOOK_URL", url.to_string()),
        ("TELEGRAM_WEBHOOK_LISTEN", listen.to_string()),
        ("TELEGRAM_WEBHOOK_SECRET", SECRET.to_string()),
    ]
    .into_iter()
    .chain(more.iter().map(|&(k, v)| (k, v.to_string())))
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    Config::from_vars(&vars)
        .expect("webhook settings")
        .telegram
        .and_then(|t| t.webhook)
        .expect("webhook mode")
}

/// A running bot: the service on sled and the adapter task.
pub struct Running {
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<Result<(), TelegramError>>>,
    timer: JoinHandle<()>,
    /// The bot's turns, when it plays ([`Running::start_playing_the_bot`]).
    thinking: Option<JoinHandle<()>>,
    pub service: Arc<Service>,
}

pub fn options() -> TelegramOptions {
    TelegramOptions {
        poll_timeout: Duration::from_secs(5),
        drain_timeout: Duration::from_secs(10),
        retry: RetryPolicy {
            first_backoff: Duration::from_millis(50),
            max_backoff: Duration::from_millis(500),
            unknown_error_attempts: 3,
            idle: Duration::from_secs(30),
        },
    }
}

/// The service settings the harness runs with: no rate limit in the way of a test's burst.
#[allow(dead_code)]
pub fn busy_config() -> ServiceConfig {
    ServiceConfig {
        rate_burst: 1000,
        ..ServiceConfig::default()
    }
}

impl Running {
    /// Open the database in `dir` (as after a restart: `recover` first) and start the adapter.
    pub async fn start(fake: &FakeTelegram, dir: &Path) -> Running {
        let config = ServiceConfig {
            rate_burst: 1000,
            ..ServiceConfig::default()
        };
        Running::start_with(fake, dir, config).await
    }

    /// Like [`Running::start`] with these service settings.
    pub async fn start_with(fake: &FakeTelegram, dir: &Path, config: ServiceConfig) -> Running {
        let storage = Arc::new(SledStorage::open(dir).expect("open sled"));
        Running::start_on(fake, storage, config, None).await
    }

    /// Like [`Running::start`], receiving updates by the webhook `hook` instead of polling.
    pub async fn start_webhook(fake: &FakeTelegram, dir: &Path, hook: WebhookConfig) -> Running {
        let config = ServiceConfig {
            rate_burst: 1000,
            ..ServiceConfig::default()
        };
        let storage = Arc::new(SledStorage::open(dir).expect("open sled"));
        Running::start_on(fake, storage, config, Some(hook)).await
    }

    /// The adapter on `storage`, polling or (with `hook`) by webhook.
    pub async fn start_on(
        fake: &FakeTelegram,
        storage: Arc<dyn Storage>,
        config: ServiceConfig,
        hook: Option<WebhookConfig>,
    ) -> Running {
        Running::start_on_clock(fake, storage, config, hook, system_now()).await
    }

    /// Like [`Running::start`], the service reading the time from `now` (a test's own
    /// clock, moved by hand; its timer still wakes at least every heartbeat).
    pub async fn start_clocked(fake: &FakeTelegram, dir: &Path, now: Now) -> Running {
        let config = ServiceConfig {
            rate_burst: 1000,
            ..ServiceConfig::default()
        };
        let storage = Arc::new(SledStorage::open(dir).expect("open sled"));
        Running::start_on_clock(fake, storage, config, None, now).await
    }

    /// [`Running::start_on`] with the service's clock.
    pub async fn start_on_clock(
        fake: &FakeTelegram,
        storage: Arc<dyn Storage>,
        config: ServiceConfig,
        hook: Option<WebhookConfig>,
        now: Now,
    ) -> Running {
        let service = Arc::new(Service::new(
            storage,
            Arc::new(Renderer::new()),
            now,
            config,
        ));
        service.recover().await.expect("recover");
        let timer = tokio::spawn(Arc::clone(&service).run_timer());
        let bot = Bot::new(TOKEN).set_api_url(fake.url().parse().expect("fake url"));
        let (tx, rx) = oneshot::channel::<()>();
        let stop = async move {
            let _ = rx.await;
        };
        let task = match hook {
            None => tokio::spawn(telegram::run(Arc::clone(&service), bot, options(), stop)),
            Some(hook) => tokio::spawn(telegram::run_webhook(
                Arc::clone(&service),
                bot,
                options(),
                hook,
                stop,
            )),
        };
        Running {
            stop: Some(tx),
            task: Some(task),
            timer,
            thinking: None,
            service,
        }
    }

    /// Like [`Running::start`], with the bot playing on one thread of the built-in engine,
    /// each of its moves capped at `cap_ms`.
    pub async fn start_playing_the_bot(fake: &FakeTelegram, dir: &Path, cap_ms: u64) -> Running {
        let mut running = Running::start(fake, dir).await;
        let player = Arc::new(Player::new(&EngineConfig::default()));
        let pool = Arc::new(ThinkingPool::new(1, player));
        running.service.attach_bot(pool, Some(cap_ms));
        running.thinking = Some(tokio::spawn(Arc::clone(&running.service).run_bot()));
        running
    }

    /// Stop the adapter (it delivers what is queued) and let go of the database.
    pub async fn stop(mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        if let Some(task) = self.task.take() {
            let r = tokio::time::timeout(WAIT, task)
                .await
                .expect("the adapter stops in time")
                .expect("the adapter task did not panic");
            assert_eq!(r, Ok(()));
        }
        self.timer.abort();
        if let Some(t) = self.thinking.take() {
            t.abort();
        }
        let flushed = self.service.storage().flush().await;
        assert!(flushed.is_ok(), "{flushed:?}");
    }
}

/// Waits for the first successful call after `mark` that matches `pred`; on timeout, fails
/// with every call made since `mark`.
pub async fn expect_call(
    fake: &FakeTelegram,
    mark: u64,
    what: &str,
    pred: impl Fn(&SentCall) -> bool,
) -> SentCall {
    match fake.wait_for(|c| c.seq >= mark && pred(c), WAIT).await {
        Some(c) => c,
        None => panic!(
            "no call for {what}; calls since then: {:#?}",
            fake.calls()
                .into_iter()
                .filter(|c| c.seq >= mark)
                .map(|c| (c.method, c.ok, c.text, c.caption, c.error))
                .collect::<Vec<_>>()
        ),
    }
}

/// The calls after `mark` (successful ones).
pub fn since(fake: &FakeTelegram, mark: u64) -> Vec<SentCall> {
    fake.sent().into_iter().filter(|c| c.seq >= mark).collect()
}

/// The caption or text of a call.
pub fn said(c: &SentCall) -> String {
    c.caption
        .clone()
        .or_else(|| c.text.clone())
        .unwrap_or_default()
}

/// The callback data of the button whose action matches `pred`.
pub fn button(c: &SentCall, pred: impl Fn(&Action) -> bool) -> String {
    c.callback_data()
        .into_iter()
        .find(|d| Action::decode(d.split('|').next().unwrap_or("")).is_some_and(|a| pred(&a)))
        .unwrap_or_else(|| panic!("no such button in {:?}", c.buttons()))
}

/// Decode a PNG; returns its size.
pub fn png_size(bytes: &[u8]) -> (u32, u32) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .expect("a PNG header");
    let mut buf = vec![0; reader.output_buffer_size().expect("a frame size")];
    let info = reader.next_frame(&mut buf).expect("a PNG frame");
    (info.width, info.height)
}

/// Decode a GIF; returns its size and the number of frames.
pub fn gif_frames(bytes: &[u8]) -> (u32, u32, usize) {
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::Indexed);
    let mut dec = opts
        .read_info(std::io::Cursor::new(bytes))
        .expect("a GIF header");
    let (w, h) = (u32::from(dec.width()), u32::from(dec.height()));
    let mut frames = 0;
    while dec.read_next_frame().expect("a GIF frame").is_some() {
        frames += 1;
    }
    (w, h, frames)
}

/// What Telegram would refuse or what a player should never see, in any call the bot made:
/// every photo is a PNG with a caption within 1024 characters, every text within 4096,
/// every keyboard row within 8 buttons, every button's data within 64 bytes and ours.
pub fn check_every_call(calls: &[SentCall]) {
    for c in calls {
        if c.is("sendPhoto") {
            let bytes = c.photo.as_deref().expect("a photo upload");
            let (w, h) = png_size(bytes);
            assert!(w > 200 && h > 200, "a board, not a thumbnail: {w}x{h}");
            let caption = c.caption.as_deref().unwrap_or("");
            assert!(caption.encode_utf16().count() <= 1024, "{caption}");
        }
        if c.is("sendAnimation") {
            let bytes = c.animation.as_deref().expect("an animation upload");
            let (w, h, frames) = gif_frames(bytes);
            assert!(w > 200 && h > 200 && frames > 0, "{w}x{h}, {frames} frames");
        }
        if let Some(t) = &c.text {
            let n = t.encode_utf16().count();
            assert!(n > 0 && n <= 4096, "{n} characters");
        }
        if let Some(rows) = c
            .reply_markup
            .as_ref()
            .and_then(|m| m.get("inline_keyboard"))
            .and_then(|k| k.as_array())
        {
            for row in rows {
                let row = row.as_array().expect("a row");
                assert!(!row.is_empty() && row.len() <= 8, "{row:?}");
            }
        }
        for data in c.callback_data() {
            assert!(data.len() <= 64, "{data}");
            assert!(
                Action::decode(data.split('|').next().unwrap_or("")).is_some(),
                "{data}"
            );
        }
    }
}

/// `who` says `text` in `chat` (topic `thread`); waits for the bot's call that `pred` picks.
pub async fn say(
    fake: &FakeTelegram,
    chat: &FakeChat,
    thread: Option<i32>,
    who: &FakeUser,
    text: &str,
    pred: impl Fn(&SentCall) -> bool,
) -> SentCall {
    let mark = fake.mark();
    fake.push_message(chat, who, text, thread);
    expect_call(fake, mark, text, |c| c.chat_id == Some(chat.id) && pred(c)).await
}

/// `who` presses the button with `data` under message `message_id`; returns the text of the
/// answer to the press (empty when there was nothing to say privately).
pub async fn tap(
    fake: &FakeTelegram,
    chat: &FakeChat,
    who: &FakeUser,
    message_id: i32,
    data: &str,
) -> String {
    let mark = fake.mark();
    let query = fake.push_callback(chat, who, message_id, data);
    let answer = expect_call(fake, mark, data, |c| {
        c.is("answerCallbackQuery") && c.params["callback_query_id"] == json!(query)
    })
    .await;
    answer.params["text"].as_str().unwrap_or("").to_string()
}

/// Waits for the board photo whose caption has every `|`-separated part of `line`.
pub async fn board_after(fake: &FakeTelegram, mark: u64, chat: &FakeChat, line: &str) -> SentCall {
    let photo = expect_call(fake, mark, line, |c| {
        c.is("sendPhoto")
            && c.chat_id == Some(chat.id)
            && line.split('|').all(|part| said(c).contains(part))
    })
    .await;
    png_size(photo.photo.as_deref().expect("photo bytes"));
    photo
}

/// Plays `text` as `who` and returns the board that follows.
pub async fn play(
    fake: &FakeTelegram,
    chat: &FakeChat,
    who: &FakeUser,
    text: &str,
    line: &str,
) -> SentCall {
    let mark = fake.mark();
    fake.push_message(chat, who, text, None);
    board_after(fake, mark, chat, line).await
}

/// Start a game from the usual position in `chat` (topic `thread`): `red` challenges
/// `black`, who accepts with /accept. Returns the first board.
pub async fn start_game(
    fake: &FakeTelegram,
    chat: &FakeChat,
    thread: Option<i32>,
    red: &FakeUser,
    black: &FakeUser,
) -> SentCall {
    let handle = black.username.clone().unwrap();
    say(
        fake,
        chat,
        thread,
        red,
        &format!("/play @{handle} red"),
        |c| c.is("sendMessage"),
    )
    .await;
    say(fake, chat, thread, black, "/accept", |c| c.is("sendPhoto")).await
}
