//! The platform-neutral chat service: an [`Incoming`] chat event in, [`Reply`]s out.
//!
//! Adapters (console, Telegram, Discord) turn platform events into [`Incoming`] values and
//! replies back into messages, buttons and photos; everything else — commands, games,
//! clocks, storage, rulings, languages — happens here. What a change makes the service say is
//! stored with the change and delivered through the outbox ([`Service::open_outbox`]), the
//! unsolicited messages (a flag falling, a challenge lapsing, a time warning) included.

mod action;
mod analysis;
pub mod bot;
mod challenge;
mod command;
mod ctx;
mod endings;
mod hint;
mod info;
mod menus;
mod migrate;
mod outbox;
mod pgn;
mod play;
mod puzzle;
mod ratelimit;
mod ratings;
mod review;
mod router;
mod timer;
mod view;

use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use tokio::sync::{mpsc, Notify};

pub use action::Action;
pub use command::{parse_line, Cmd, Line, MAX_TEXT};
pub use outbox::{Delivery, Drawing, Handled, Origin, WINDOW as OUTBOX_WINDOW};
pub use pgn::{pgn, review_notes, write_annotated_pgn, write_pgn, PgnNote};

use crate::game::{GameManager, PlayerRef, Storage, StorageError};
use crate::i18n::app::{text, Msg};
use crate::i18n::Lang;
use crate::notation::Notation;
use crate::render::Renderer;

/// A chat event, as an adapter hands it over.
#[derive(Clone, Debug, Default)]
pub struct Incoming {
    /// Platform-qualified channel (`tg:-100123:7` for a forum topic, `dc:456`, `console:#local`).
    pub channel: String,
    /// Who sent it.
    pub user: PlayerRef,
    /// Their handle (username), lower case, for matching `@name` challenges.
    pub handle: Option<String>,
    /// The text (a command, a bare move, or anything else).
    pub text: String,
    /// A pressed button or chosen menu entry.
    pub action: Option<Action>,
    /// Users the adapter recognised in the text: the token as typed and who it is.
    pub mentions: Vec<(String, PlayerRef)>,
    /// The user's client language, if the platform tells it.
    pub lang_hint: Option<Lang>,
    /// The server or group the channel belongs to, as a leaderboard scope (`dc:g:GUILD` for a
    /// Discord server, `tg:CHAT` for a Telegram group and all its topics, the channel itself
    /// in the console); none for private chats.
    pub community: Option<String>,
    /// Whether the sender may change the channel's settings, as the platform tells: a
    /// Telegram group's administrators, a Discord member with Manage Channels (or
    /// Administrator), anyone in a private chat or the console. `None` when the platform did
    /// not say (a typed message on a Discord server): settings are then refused with a pointer
    /// to the slash command, which carries the member's permissions.
    pub may_configure: Option<bool>,
}

/// Whether an image is a board (PNG) or a replay (GIF).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageKind {
    /// A PNG board.
    Png,
    /// A GIF replay.
    Gif,
}

/// An image to send.
#[derive(Clone, Debug)]
pub struct Image {
    /// The encoded bytes.
    pub bytes: Arc<Vec<u8>>,
    /// A file name (`board-12-34.png`).
    pub filename: String,
    /// PNG or GIF.
    pub kind: ImageKind,
    /// Text for screen readers and clients without images.
    pub alt: String,
    /// A Unicode board for terminals.
    pub text_board: Option<String>,
    /// What is needed to draw the picture (again): a board is stored this way, and drawn
    /// when its bytes are empty (see [`Service::draw`]).
    pub drawing: Option<Drawing>,
    /// A picture that cannot be described for the outbox (a replay, a chart), drawn once the
    /// command's decisions are committed (see [`Service::draw`]); not stored.
    pub later: Option<Later>,
}

/// Drawing work for [`Image::later`]: pure CPU, run on a blocking thread after the command's
/// channel is let go by the other processes (see `game::SlotGuard`). Its error is logged and
/// the reply goes out as text.
#[derive(Clone)]
pub struct Later(Arc<dyn Fn() -> Result<Vec<u8>, String> + Send + Sync>);

impl Later {
    /// Work that draws a picture.
    pub fn new(draw: impl Fn() -> Result<Vec<u8>, String> + Send + Sync + 'static) -> Later {
        Later(Arc::new(draw))
    }

    /// Draw it (on the calling thread).
    ///
    /// # Errors
    /// The drawing's own error, as text.
    pub fn draw(&self) -> Result<Vec<u8>, String> {
        (self.0)()
    }
}

impl std::fmt::Debug for Later {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Later(..)")
    }
}

/// A button under a reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Button {
    /// Its label, localised.
    pub label: String,
    /// What pressing it does.
    pub action: Action,
}

/// One message to send back.
#[derive(Clone, Debug, Default)]
pub struct Reply {
    /// The text (for an image, its caption).
    pub text: String,
    /// An image, if any.
    pub image: Option<Image>,
    /// Rows of buttons (adapters lay them out as their platform allows).
    pub buttons: Vec<Vec<Button>>,
    /// Meant only for the user who acted (an ephemeral notice, a callback answer).
    pub private: bool,
    /// A menu of choices (the move picker): adapters show a select menu or a keyboard.
    pub menu: bool,
    /// Its buttons answer a one-time question (a challenge, an offer, a confirmation) or are
    /// a move picker: the adapter tells [`Service::shown`] where it showed them, so they can
    /// be taken away once they no longer apply.
    pub track: bool,
    /// Messages shown earlier (references given to [`Service::shown`]) whose buttons no
    /// longer apply: the adapter takes the buttons away (or the message, if only its user
    /// saw it). A reply with only this has nothing else to show.
    pub retire: Vec<String>,
}

impl Reply {
    /// A plain text reply.
    #[must_use]
    pub fn text(t: impl Into<String>) -> Reply {
        Reply {
            text: t.into(),
            ..Reply::default()
        }
    }

    /// A private notice to the acting user.
    #[must_use]
    pub fn private(t: impl Into<String>) -> Reply {
        Reply {
            text: t.into(),
            private: true,
            ..Reply::default()
        }
    }

    /// Take away the buttons of these earlier messages (see [`Reply::retire`]).
    #[must_use]
    pub fn retire(refs: Vec<String>) -> Reply {
        Reply {
            retire: refs,
            ..Reply::default()
        }
    }

    /// Whether there is anything to show (not only messages to retire).
    #[must_use]
    pub fn shows_something(&self) -> bool {
        !self.text.trim().is_empty() || self.image.is_some() || !self.buttons.is_empty()
    }
}

/// Replies the service sends on its own (timer events), for one channel, to subscribers of
/// [`Service::subscribe`] when no outbox is open for the channel.
#[derive(Clone, Debug)]
pub struct Outgoing {
    /// The channel.
    pub channel: String,
    /// What to send there.
    pub replies: Vec<Reply>,
}

/// Service settings (read from the environment by `config`).
#[derive(Clone, Debug)]
pub struct ServiceConfig {
    /// How long a challenge waits (milliseconds).
    pub challenge_ttl_ms: u64,
    /// Commands a user may send in a burst.
    pub rate_burst: u32,
    /// Commands per second a user may sustain.
    pub rate_per_sec: f64,
    /// Channels kept in memory when idle.
    pub cache_channels: usize,
    /// Whether to render board pictures (off in some load tests).
    pub images: bool,
    /// Untimed games: after this long without a move (milliseconds) the waiting player may
    /// `/claim` the game; the absent player is warned at three quarters of it. 0: never.
    pub idle_claim_ms: u64,
    /// Nodes the engine searches to judge a puzzle move off the listed solution.
    pub puzzle_nodes: u64,
    /// `BOT_GAMES_PER_USER`: games against the bot one person may play at once.
    pub bot_games_per_user: usize,
}

impl Default for ServiceConfig {
    fn default() -> Self {
        ServiceConfig {
            challenge_ttl_ms: 10 * 60 * 1000,
            rate_burst: 10,
            rate_per_sec: 2.0,
            cache_channels: 4096,
            images: true,
            idle_claim_ms: 24 * 60 * 60 * 1000,
            puzzle_nodes: 300_000,
            bot_games_per_user: 3,
        }
    }
}

/// A source of the current time in epoch milliseconds (real, or driven by tests).
pub type Now = Arc<dyn Fn() -> u64 + Send + Sync>;

/// The real clock.
#[must_use]
pub fn system_now() -> Now {
    Arc::new(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
            .unwrap_or(0)
    })
}

/// The chat service.
pub struct Service {
    manager: GameManager,
    renderer: Arc<Renderer>,
    /// Pictures drawn at once: two per core. Rendering is pure CPU; letting every channel's
    /// picture run at once only makes them share the cores (each takes as long as all of them)
    /// and starves the storage writer, which is where latency tails came from under load.
    /// Measured (`cargo bench --bench service_load`, 10,000 games, 32 tasks, 2 cores): no limit
    /// 1,560 moves/s, p99 62 ms; 2 slots 1,247/s, 41 ms; 4 slots 1,460/s, 37 ms; 8 slots
    /// 1,512/s, 39 ms.
    render_slots: tokio::sync::Semaphore,
    now: Now,
    config: ServiceConfig,
    outboxes: Mutex<Vec<(String, mpsc::UnboundedSender<Outgoing>)>>,
    sinks: Mutex<Vec<outbox::Sink>>,
    timer_wake: Notify,
    limiter: ratelimit::Limiter,
    /// The bot's pool and searches, once [`Service::attach_bot`] is called.
    bot: std::sync::OnceLock<bot::turn::BotRuntime>,
    /// Hints and reviews due and running.
    analysis: analysis::Analysis,
    /// The engine pool of a service without the bot (puzzles still need an engine).
    spare_pool: std::sync::OnceLock<Arc<bot::ThinkingPool>>,
}

impl Service {
    /// A service over `storage`.
    #[must_use]
    pub fn new(
        storage: Arc<dyn Storage>,
        renderer: Arc<Renderer>,
        now: Now,
        config: ServiceConfig,
    ) -> Service {
        Service {
            manager: GameManager::new(storage, config.cache_channels),
            renderer,
            render_slots: tokio::sync::Semaphore::new(
                2 * std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get),
            ),
            limiter: ratelimit::Limiter::new(config.rate_burst, config.rate_per_sec),
            now,
            config,
            outboxes: Mutex::new(Vec::new()),
            sinks: Mutex::new(Vec::new()),
            timer_wake: Notify::new(),
            bot: std::sync::OnceLock::new(),
            analysis: analysis::Analysis::default(),
            spare_pool: std::sync::OnceLock::new(),
        }
    }

    /// The storage.
    #[must_use]
    pub fn storage(&self) -> &Arc<dyn Storage> {
        self.manager.storage()
    }

    /// Whether `channel` holds a pending challenge or a game in play (when storage cannot say,
    /// it is taken to be in use).
    pub async fn channel_in_use(&self, channel: &str) -> bool {
        match self.manager.lock(channel).await {
            Ok(slot) => slot.record.challenge.is_some() || slot.game.is_some(),
            Err(_) => true,
        }
    }

    /// The game manager (for tests and benches).
    #[must_use]
    pub fn manager(&self) -> &GameManager {
        &self.manager
    }

    /// The current time (epoch ms).
    #[must_use]
    pub fn now(&self) -> u64 {
        (self.now)()
    }

    /// Receive the unsolicited messages for channels whose key starts with `prefix`
    /// (`console:`, `tg:`, `dc:`) and for which no outbox is open (tests; adapters use
    /// [`Service::open_outbox`]).
    pub fn subscribe(&self, prefix: &str) -> mpsc::UnboundedReceiver<Outgoing> {
        let (tx, rx) = mpsc::unbounded_channel();
        self.outboxes
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push((prefix.to_string(), tx));
        rx
    }

    fn send_out(&self, out: Outgoing) {
        let boxes = self
            .outboxes
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for (prefix, tx) in boxes.iter() {
            if out.channel.starts_with(prefix.as_str()) {
                let _ = tx.send(out.clone());
            }
        }
    }

    /// Handle one chat event; the replies are sent to the same channel (private ones only to
    /// the user). Never panics on any input; a storage failure is answered with an apology.
    /// Adapters use [`Service::handle_from`].
    pub async fn handle(&self, inc: Incoming) -> Vec<Reply> {
        self.handle_from(inc, Origin::default()).await.replies
    }

    /// Handle one chat event from `origin`. When it changed something, its replies were
    /// stored with the change and handed to the channel's outbox ([`Handled::queued`]);
    /// otherwise the caller delivers them. An event the platform delivers a second time
    /// (after a crash) is recognised by [`Origin::event`] and not run again.
    pub async fn handle_from(&self, inc: Incoming, origin: Origin) -> Handled {
        self.handle_limited(inc, origin, true).await
    }

    /// Handle one chat event from `origin` whose author an adapter has already admitted with
    /// [`Service::admit`] (to check the limit before it does something on the platform, such
    /// as opening a thread for a game); otherwise as [`Service::handle_from`].
    pub async fn handle_admitted_from(&self, inc: Incoming, origin: Origin) -> Handled {
        self.handle_limited(inc, origin, false).await
    }

    /// Take one command from `user`'s rate limit: `Err` with the refusal to send (in `lang`;
    /// empty when they were told already in this burst) when they are sending too fast.
    ///
    /// # Errors
    /// The refusal, when the limit is reached.
    pub fn admit(&self, user: &str, lang: Lang) -> Result<(), Vec<Reply>> {
        self.limiter
            .check(user, self.now())
            .map_err(|secs| match secs {
                Some(secs) => vec![Reply::private(text(&Msg::RateLimited { secs }, lang))],
                None => Vec::new(), // already told within this window
            })
    }

    /// The language `channel` reads in public ([`ctx::public_lang`]), read from storage
    /// without locking the channel: for the answers given before (or instead of) opening it.
    /// `hint` (else English) when storage cannot say.
    pub(crate) fn channel_lang(&self, channel: &str, hint: Option<Lang>) -> Lang {
        let Ok(Some(record)) = self.storage().channel(channel) else {
            return hint.unwrap_or_default();
        };
        let game = record
            .active_game
            .and_then(|id| self.storage().game(id).ok().flatten())
            .and_then(|g| g.lang);
        ctx::channel_lang(game.as_deref(), &record, hint)
    }

    /// [`Service::handle_from`], the rate limit checked for a command if `limit`. The
    /// refusals sent before the channel is opened (too fast, too long, storage failed) are
    /// in the channel's language, as everything else it is told.
    async fn handle_limited(&self, inc: Incoming, origin: Origin, limit: bool) -> Handled {
        let direct = |replies: Vec<Reply>| Handled {
            replies,
            ..Handled::default()
        };
        if let Some(event) = &origin.event {
            match self.storage().seen(event) {
                Ok(true) => {
                    tracing::info!(event = %event, "an event delivered again was handled before; skipped");
                    return Handled {
                        duplicate: true,
                        ..Handled::default()
                    };
                }
                Ok(false) => {}
                Err(e) => tracing::error!(error = %e, "cannot read the handled events"),
            }
        }
        let too_long = inc.text.chars().count() > MAX_TEXT;
        // Only a command is answered when too long: a long plain text is conversation (no
        // notation reads anything that long as a move), whoever wrote it.
        let line = if too_long {
            if !inc.text.trim_start().starts_with(['/', '／']) {
                return Handled::default();
            }
            Line::Unknown(String::new())
        } else {
            parse_line(&inc.text)
        };
        // A bare text is counted by the router once it knows it is a move (conversation is
        // not counted).
        let is_command = !matches!(line, Line::Text(_)) || inc.action.is_some();
        if is_command && limit {
            match self.limiter.check(&inc.user.id, self.now()) {
                Ok(()) => {}
                Err(None) => return direct(Vec::new()), // already told within this window
                Err(Some(secs)) => {
                    // The channel's language is read only when there is a refusal to write.
                    let lang = self.channel_lang(&inc.channel, inc.lang_hint);
                    let refusal = text(&Msg::RateLimited { secs }, lang);
                    return direct(vec![Reply::private(refusal)]);
                }
            }
        }
        if too_long {
            let lang = self.channel_lang(&inc.channel, inc.lang_hint);
            return direct(vec![Reply::private(text(
                &Msg::TooLong { max: MAX_TEXT },
                lang,
            ))]);
        }
        match router::dispatch(self, &inc, line, &origin).await {
            Ok(handled) => handled,
            Err(e) => {
                tracing::error!(channel = %inc.channel, error = %e, "storage failure");
                let lang = self.channel_lang(&inc.channel, inc.lang_hint);
                Handled {
                    failed: true,
                    ..direct(vec![Reply::text(text(&Msg::StorageFailure, lang))])
                }
            }
        }
    }

    /// Legal moves of `user` in `channel` that start with `prefix`, in their notation (their
    /// `/notation`, else the usual one for `lang`, their client's language), for Discord's
    /// autocomplete. Empty when it is not their turn.
    pub async fn suggestions(
        &self,
        channel: &str,
        user: &str,
        prefix: &str,
        lang: Option<Lang>,
    ) -> Vec<String> {
        info::suggestions(self, channel, user, prefix, lang)
            .await
            .unwrap_or_default()
    }
}

/// The notation players of a language most often type, when they have not chosen one.
#[must_use]
pub fn default_notation(lang: Lang) -> Notation {
    match lang {
        Lang::Vi => Notation::Vietnamese,
        Lang::En => Notation::Wxf,
        Lang::Zh => Notation::Chinese,
    }
}

/// A storage error as the service reports it.
pub type AppResult<T> = Result<T, StorageError>;
