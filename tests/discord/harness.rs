//! The real bot (sled storage, the service, the Discord adapter on serenity) against the fake
//! Discord, and the checks the end-to-end tests share: every interaction answered without an
//! error, every attachment a PNG shown in its message's embed.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use xiangqi_bot::adapters::discord::{self, DiscordError};
use xiangqi_bot::app::bot::ThinkingPool;
use xiangqi_bot::app::{system_now, Now, Service, ServiceConfig};
use xiangqi_bot::config::Config;
use xiangqi_bot::render::Renderer;
use xiangqi_bot::storage::SledStorage;
use xiangqi_bot::uci::player::Player;
use xiangqi_bot::uci::EngineConfig;

use crate::discord_fake::{
    CmdOpt, FakeDiscord, FakeInteraction, FakeMessage, FakeUser, InjectedInteraction,
    InteractionResponse, ResponseKind,
};
use ResponseKind::{Callback, DeleteOriginal, EditOriginal, Followup};

/// How long anything may take (a debug build renders boards slowly on a loaded machine).
pub const WAIT: Duration = Duration::from_secs(30);

/// The set-up start that ends in a perpetual chase by Red: Black to move.
pub const CHASE_FEN: &str = "2bak4/RC2arN2/4b1n2/2p5p/6p2/2P6/4p1P1c/4B4/4A4/4KAB2 b";

/// A fake Discord that enforces the 3-second rule for the first answer to an interaction.
pub async fn fake() -> FakeDiscord {
    FakeDiscord::builder()
        .interaction_deadline(Duration::from_secs(3))
        .start()
        .await
}

/// Service settings for tests: no rate limit in the way.
pub fn service_config() -> ServiceConfig {
    ServiceConfig {
        rate_burst: 10_000,
        rate_per_sec: 1_000.0,
        ..ServiceConfig::default()
    }
}

/// A running bot.
pub struct Bot {
    pub service: Arc<Service>,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<Result<(), DiscordError>>>,
    timer: Option<JoinHandle<()>>,
    /// The bot's turns, when it plays ([`Bot::play_the_bot`]).
    thinking: Option<JoinHandle<()>>,
}

fn registrations(fake: &FakeDiscord) -> usize {
    fake.calls()
        .iter()
        .filter(|c| {
            c.method == "PUT" && c.path.ends_with("/commands") && (200..300).contains(&c.status)
        })
        .count()
}

/// Start the bot on the sled database in `dir` and wait until it is connected and has
/// registered its commands. `guild`: `DISCORD_GUILD_ID`.
pub async fn start(
    fake: &FakeDiscord,
    dir: &Path,
    guild: Option<u64>,
    config: ServiceConfig,
    timer: bool,
) -> Bot {
    start_at(fake, dir, guild, config, timer, system_now()).await
}

/// Like [`start`], with the service's clock `now` (tests drive it).
pub async fn start_at(
    fake: &FakeDiscord,
    dir: &Path,
    guild: Option<u64>,
    config: ServiceConfig,
    timer: bool,
    now: Now,
) -> Bot {
    start_with(fake, dir, guild, config, timer, now, ANSWER_WITHIN).await
}

/// How long the bot waits for the service before deferring a slash command, in these tests:
/// long, so that which answer a test sees (at once, or deferred by the command's nature) does
/// not depend on the machine's load. The fake does not enforce Discord's 3 s unless asked.
pub const ANSWER_WITHIN: Duration = Duration::from_secs(30);

/// Like [`start_at`], deferring slash commands the service has not answered within
/// `answer_within`.
pub async fn start_with(
    fake: &FakeDiscord,
    dir: &Path,
    guild: Option<u64>,
    config: ServiceConfig,
    timer: bool,
    now: Now,
    answer_within: Duration,
) -> Bot {
    let mut vars: HashMap<String, String> = HashMap::new();
    vars.insert("DISCORD_TOKEN".into(), fake.token());
    vars.insert("DISCORD_API_URL".into(), fake.http_url());
    vars.insert(
        "DISCORD_TOURNAMENT_ROLE".into(),
        fake.organiser_role_id().to_string(),
    );
    if let Some(g) = guild {
        vars.insert("DISCORD_GUILD_ID".into(), g.to_string());
    }
    let mut dc = Config::from_vars(&vars)
        .expect("config")
        .discord
        .expect("discord config");
    dc.answer_within = answer_within;
    let storage = Arc::new(SledStorage::open(dir).expect("sled"));
    let service = Arc::new(Service::new(
        storage,
        Arc::new(Renderer::new()),
        now,
        config,
    ));
    service.recover().await.expect("recover");
    let timer = timer.then(|| tokio::spawn(Arc::clone(&service).run_timer()));
    let before = registrations(fake);
    let (tx, rx) = oneshot::channel::<()>();
    let svc = Arc::clone(&service);
    let task = tokio::spawn(async move {
        discord::run(svc, &dc, async move {
            let _ = rx.await;
        })
        .await
    });
    assert!(fake.wait_for_ready(WAIT).await, "the bot did not connect");
    assert!(
        fake.wait_for(|f| registrations(f) > before, WAIT).await,
        "the bot did not register its commands"
    );
    Bot {
        service,
        stop: Some(tx),
        task: Some(task),
        timer,
        thinking: None,
    }
}

impl Bot {
    /// Let the bot play: one thread of the built-in engine, each move capped at `cap_ms`.
    pub fn play_the_bot(&mut self, cap_ms: u64) {
        let player = Arc::new(Player::new(&EngineConfig::default()));
        let pool = Arc::new(ThinkingPool::new(1, player));
        self.service.attach_bot(pool, Some(cap_ms));
        self.thinking = Some(tokio::spawn(Arc::clone(&self.service).run_bot()));
    }

    /// Stop the bot as ctrl-c does (the gateway closed cleanly), and drop the service.
    pub async fn stop(mut self, fake: &FakeDiscord) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        if let Some(task) = self.task.take() {
            let result = tokio::time::timeout(WAIT, task)
                .await
                .expect("the bot stopped in time")
                .expect("the bot task did not panic");
            assert!(result.is_ok(), "the bot stopped with {result:?}");
        }
        if let Some(t) = self.timer.take() {
            t.abort();
        }
        if let Some(t) = self.thinking.take() {
            t.abort();
        }
        assert!(fake.wait_for(|f| !f.is_connected(), WAIT).await);
        self.service.storage().flush().await.expect("flush");
    }
}

/// Every answer the tests expected, to check at the end that nothing more came.
#[derive(Default)]
pub struct Ledger {
    expected: Mutex<Vec<(u64, usize)>>,
}

impl Ledger {
    /// Push an interaction and wait for exactly `kinds` answers, each successful.
    pub async fn answers(
        &self,
        fake: &FakeDiscord,
        ix: FakeInteraction,
        kinds: &[ResponseKind],
    ) -> (InjectedInteraction, Vec<InteractionResponse>) {
        let ix = fake.push_interaction(ix);
        let got = fake
            .wait_for_interaction_responses(ix.id, kinds.len(), WAIT)
            .await;
        let shown: Vec<_> = got.iter().map(|r| (&r.kind, r.status)).collect();
        assert!(
            got.len() >= kinds.len(),
            "answers {shown:?}, expected {kinds:?}"
        );
        for r in &got {
            assert!(r.is_ok(), "a failed answer: {r:?}");
        }
        let got_kinds: Vec<ResponseKind> = got.iter().map(|r| r.kind.clone()).collect();
        assert_eq!(got_kinds, kinds, "answers to interaction {}", ix.id);
        self.expected
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((ix.id, kinds.len()));
        (ix, got)
    }

    /// Push an interaction that is answered at once and only to its user (an ephemeral first
    /// response, no public "thinking…"); returns that answer's text.
    pub async fn private(&self, fake: &FakeDiscord, ix: FakeInteraction) -> String {
        let (_, r) = self.answers(fake, ix, &[ResponseKind::Callback(4)]).await;
        let note = message_of(fake, &r[0]);
        assert!(note.is_ephemeral(), "{}", note.content);
        note.content
    }

    /// `n` more answers are expected to interaction `id` than were waited for (a picker of
    /// its deleted later, through its token).
    pub fn expect_more(&self, id: u64, n: usize) {
        for e in self
            .expected
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter_mut()
            .filter(|(i, _)| *i == id)
        {
            e.1 += n;
        }
    }

    /// After a pause: no interaction got more answers than expected.
    pub async fn check(&self, fake: &FakeDiscord) {
        tokio::time::sleep(Duration::from_millis(300)).await;
        for (id, n) in self
            .expected
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
        {
            let all = fake.interaction_responses(*id);
            assert_eq!(all.len(), *n, "interaction {id}: {all:?}");
        }
    }
}

pub fn decode_png(bytes: &[u8]) -> (u32, u32) {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("buffer size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    (info.width, info.height)
}

/// A replay: every frame decodes; the size of the first.
pub fn decode_gif(bytes: &[u8]) -> (u32, u32) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options
        .read_info(std::io::Cursor::new(bytes))
        .expect("a GIF");
    let size = (u32::from(decoder.width()), u32::from(decoder.height()));
    let mut frames = 0;
    while decoder.read_next_frame().expect("a frame").is_some() {
        frames += 1;
    }
    assert!(frames >= 1, "a replay has frames");
    size
}

/// Every attachment the bot sent decodes (boards as PNG, replays as GIF) and is the image of its message's embed.
/// Returns how many there were.
pub fn check_every_attachment(fake: &FakeDiscord) -> usize {
    let mut n = 0;
    for m in fake.bot_messages() {
        for a in &m.attachments {
            let (w, h) = if a.filename.ends_with(".gif") {
                assert_eq!(a.content_type.as_deref(), Some("image/gif"));
                decode_gif(&a.data)
            } else {
                assert_eq!(a.content_type.as_deref(), Some("image/png"));
                decode_png(&a.data)
            };
            assert!(w > 100 && h > 100, "{}: {w}x{h}", a.filename);
            assert!(
                a.description.as_deref().is_some_and(|d| !d.is_empty()),
                "alt text"
            );
            let shown = m.embeds.iter().any(|e| {
                e.pointer("/image/url")
                    .and_then(Value::as_str)
                    .is_some_and(|u| u.ends_with(&format!("/{}", a.filename)))
            });
            assert!(shown, "message {} shows {} in its embed", m.id, a.filename);
            n += 1;
        }
    }
    n
}

/// The message an answer created or edited.
pub fn message_of(fake: &FakeDiscord, r: &InteractionResponse) -> FakeMessage {
    let id = r.message_id.expect("the answer names its message");
    fake.message(id).expect("stored message")
}

/// A board message: one PNG attachment shown in the embed; returns the embed's text.
pub fn board_text(m: &FakeMessage) -> String {
    assert_eq!(m.attachments.len(), 1, "one board in {m:?}");
    decode_png(&m.attachments[0].data);
    assert!(m.attachments[0].filename.starts_with("board-"));
    m.embeds[0]["description"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The custom id of the button whose id starts with `prefix` (`xq:P:` is the picker).
pub fn button(m: &FakeMessage, prefix: &str) -> String {
    m.custom_ids()
        .into_iter()
        .find(|id| id.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix} button in {:?}", m.custom_ids()))
}

/// A select menu's custom id and the value of its option whose value ends with `suffix`.
pub fn menu_option(m: &FakeMessage, suffix: &str) -> (String, String) {
    for row in &m.components {
        for c in row["components"].as_array().into_iter().flatten() {
            if c["type"] != 3 {
                continue;
            }
            for o in c["options"].as_array().into_iter().flatten() {
                let v = o["value"].as_str().unwrap_or_default();
                if v.ends_with(suffix) {
                    let id = c["custom_id"].as_str().unwrap_or_default();
                    return (id.to_string(), v.to_string());
                }
            }
        }
    }
    panic!("no menu option ending in {suffix}: {:?}", m.components)
}

/// `/move` as `user`: deferred, then the board in the original response.
pub async fn slash_move(fake: &FakeDiscord, log: &Ledger, user: &FakeUser, text: &str) -> String {
    slash_move_in(fake, log, None, user, text).await
}

/// `ix` in `channel`, if given (else the general channel).
fn in_channel(ix: FakeInteraction, channel: Option<u64>) -> FakeInteraction {
    match channel {
        Some(c) => ix.in_channel(c),
        None => ix,
    }
}

/// [`slash_move`] in `channel` (default: the general channel).
pub async fn slash_move_in(
    fake: &FakeDiscord,
    log: &Ledger,
    channel: Option<u64>,
    user: &FakeUser,
    text: &str,
) -> String {
    let ix = FakeInteraction::slash("move")
        .option(CmdOpt::string("move", text))
        .by(user);
    let (_, r) = log
        .answers(fake, in_channel(ix, channel), &[Callback(5), EditOriginal])
        .await;
    let m = message_of(fake, &r[1]);
    assert!(!m.is_ephemeral());
    assert_eq!(m.channel_id, channel.unwrap_or(m.channel_id));
    board_text(&m)
}

/// The picker: the Pick button of `board` opens a menu only `user` sees; the piece on `from`,
/// then the move `mv`, are chosen from it; the board follows and the menu is put away.
pub async fn pick_move(
    fake: &FakeDiscord,
    log: &Ledger,
    user: &FakeUser,
    board: u64,
    from: &str,
    mv: &str,
) -> (u64, String) {
    let board_msg = fake.message(board).expect("board");
    let pick = button(&board_msg, "xq:P:");
    let (_, r) = log
        .answers(
            fake,
            FakeInteraction::button(board, &pick).by(user),
            &[Callback(6), Followup],
        )
        .await;
    let menu = message_of(fake, &r[1]);
    assert!(menu.is_ephemeral(), "the picker is only for the player");
    assert!(
        menu.content.ends_with(", pick the piece to move:"),
        "{}",
        menu.content
    );
    let (menu_id, value) = menu_option(&menu, &format!(":{from}"));
    assert!(menu_id.starts_with("mxq:") && menu_id.len() <= 100);
    let (_, r) = log
        .answers(
            fake,
            FakeInteraction::select(menu.id, &menu_id, &[&value]).by(user),
            &[Callback(6), EditOriginal],
        )
        .await;
    let targets = message_of(fake, &r[1]);
    assert_eq!(targets.id, menu.id, "the same menu shows the targets");
    assert!(
        targets.content.contains(": where should the"),
        "{}",
        targets.content
    );
    let (menu_id, value) = menu_option(&targets, &format!(":{mv}"));
    let (_, r) = log
        .answers(
            fake,
            FakeInteraction::select(menu.id, &menu_id, &[&value]).by(user),
            &[Callback(6), Followup, DeleteOriginal],
        )
        .await;
    let board = message_of(fake, &r[1]);
    assert!(!board.is_ephemeral());
    assert!(
        fake.message(menu.id).expect("menu").deleted,
        "a used menu is cleared away"
    );
    (board.id, board_text(&board))
}

/// The newest message of the bot with a board.
pub fn latest_board(fake: &FakeDiscord) -> FakeMessage {
    fake.bot_messages()
        .into_iter()
        .rev()
        .find(|m| !m.attachments.is_empty())
        .expect("a board")
}

/// alice (Red) and bob, in a game from the start position; returns the start board.
pub async fn new_game(fake: &FakeDiscord, log: &Ledger, alice: &FakeUser, bob: &FakeUser) -> u64 {
    new_game_in(fake, log, None, alice, bob).await.id
}

/// [`new_game`] in `channel` (default: the general channel): returns the first board.
pub async fn new_game_in(
    fake: &FakeDiscord,
    log: &Ledger,
    channel: Option<u64>,
    alice: &FakeUser,
    bob: &FakeUser,
) -> FakeMessage {
    let play = FakeInteraction::slash("play")
        .option(CmdOpt::user("opponent", bob))
        .option(CmdOpt::string("time", "10+5"))
        .option(CmdOpt::string("color", "red"))
        .by(alice);
    let (_, r) = log
        .answers(
            fake,
            in_channel(play, channel),
            &[Callback(5), EditOriginal],
        )
        .await;
    let challenge = message_of(fake, &r[1]);
    let accept = button(&challenge, "xq:A:");
    let (_, r) = log
        .answers(
            fake,
            FakeInteraction::button(challenge.id, &accept).by(bob),
            &[Callback(6), Followup],
        )
        .await;
    let board = message_of(fake, &r[1]);
    assert_eq!(board.channel_id, channel.unwrap_or(board.channel_id));
    let text = board_text(&board);
    assert!(
        text.contains(&format!("{} (Red) to move", alice.name)),
        "{text}"
    );
    assert!(text.contains("10:00"), "the clocks: {text}");
    board
}

/// The usual table: a strict fake, a bot on a fresh database (kept while the returned
/// directory lives) with the test settings and no timer, and an empty ledger.
pub async fn table() -> (FakeDiscord, tempfile::TempDir, Bot, Ledger) {
    let fake = fake().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let bot = start(&fake, dir.path(), None, service_config(), false).await;
    (fake, dir, bot, Ledger::default())
}
