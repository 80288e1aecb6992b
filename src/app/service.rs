//! The chat service itself: what it holds, and its doors for the adapters (a chat event in,
//! the rate limit, the language of a channel, move suggestions). Every event goes on to the
//! router ([`super::router`]).

use std::sync::Mutex;

use tokio::sync::{mpsc, Notify};

use super::chat::{Outgoing, Reply};
use super::settings::{Now, ServiceConfig};
use super::{analysis, bot, outbox, ratelimit};
use crate::game::{GameManager, Storage};
use crate::i18n::app::{text, Msg};
use crate::i18n::Lang;
use crate::platform::{ChannelKey, Platform};
use crate::render::Renderer;
use std::sync::Arc;

/// The chat service.
pub struct Service {
    pub(super) manager: GameManager,
    pub(super) renderer: Arc<Renderer>,
    /// Pictures drawn at once: two per core. Rendering is pure CPU; letting every channel's
    /// picture run at once only makes them share the cores (each takes as long as all of them)
    /// and starves the storage writer, which is where latency tails came from under load.
    /// Measured (`cargo bench --bench service_load`, 10,000 games, 32 tasks, 2 cores): no limit
    /// 1,560 moves/s, p99 62 ms; 2 slots 1,247/s, 41 ms; 4 slots 1,460/s, 37 ms; 8 slots
    /// 1,512/s, 39 ms.
    pub(super) render_slots: tokio::sync::Semaphore,
    pub(super) now: Now,
    pub(super) config: ServiceConfig,
    pub(super) outboxes: Mutex<Vec<(Platform, mpsc::UnboundedSender<Outgoing>)>>,
    pub(super) sinks: Mutex<Vec<outbox::Sink>>,
    pub(super) timer_wake: Notify,
    pub(super) limiter: ratelimit::Limiter,
    /// The bot's pool and searches, once [`Service::attach_bot`] is called.
    pub(super) bot: std::sync::OnceLock<bot::runtime::BotRuntime>,
    /// Hints and reviews due and running.
    pub(super) analysis: analysis::Analysis,
    /// The engine pool of a service without the bot (puzzles still need an engine).
    pub(super) spare_pool: std::sync::OnceLock<Arc<bot::ThinkingPool>>,
    /// Games someone follows live, each with the bell rung when this process writes it
    /// ([`Service::game_bell`]).
    pub(super) bells: Mutex<std::collections::HashMap<u64, tokio::sync::watch::Sender<()>>>,
    /// Whether each platform this process serves is connected, as its adapter last said.
    pub(super) connections: Mutex<Vec<(Platform, bool)>>,
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
            bells: Mutex::new(std::collections::HashMap::new()),
            connections: Mutex::new(Vec::new()),
        }
    }

    /// The adapter of `platform` says whether it is connected (its last call to the platform
    /// went through, or failed), for `/healthz`.
    pub fn connected(&self, platform: Platform, up: bool) {
        let mut c = self
            .connections
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match c.iter_mut().find(|(p, _)| *p == platform) {
            Some(entry) => entry.1 = up,
            None => c.push((platform, up)),
        }
    }

    /// Each platform this process serves, and whether it is connected.
    #[must_use]
    pub fn connections(&self) -> Vec<(Platform, bool)> {
        self.connections
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// The storage.
    #[must_use]
    pub fn storage(&self) -> &Arc<dyn Storage> {
        self.manager.storage()
    }

    /// Where the web board is reached, when it is served.
    #[must_use]
    pub fn web_links(&self) -> Option<&super::WebLinks> {
        self.config.web.as_ref()
    }

    /// Whether `channel` holds a pending challenge or a game in play (when storage cannot say,
    /// it is taken to be in use).
    pub async fn channel_in_use(&self, channel: &ChannelKey) -> bool {
        match self.manager.lock(channel).await {
            Ok(slot) => slot.record.challenges().next().is_some() || slot.games().next().is_some(),
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

    /// The service's clock, for an adapter that reads it on its own (a token's life).
    #[must_use]
    pub fn clock(&self) -> super::Now {
        std::sync::Arc::clone(&self.now)
    }

    /// Receive the unsolicited messages for `platform`'s channels for which no outbox is
    /// open (tests; adapters use [`Service::open_outbox`]).
    pub fn subscribe(&self, platform: Platform) -> mpsc::UnboundedReceiver<Outgoing> {
        let (tx, rx) = mpsc::unbounded_channel();
        self.outboxes
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push((platform, tx));
        rx
    }

    pub(super) fn send_out(&self, out: Outgoing) {
        let boxes = self
            .outboxes
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let platform = Platform::of(&out.channel);
        for (p, tx) in boxes.iter() {
            if platform == Some(*p) {
                let _ = tx.send(out.clone());
            }
        }
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
}
