//! The service's settings (read from the environment by `config`) and its clock.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

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
    /// The web board's address and link key, when it is served (`WEB_LISTEN`): `/web` and
    /// `/watch` give links to it.
    pub web: Option<super::board_view::WebLinks>,
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
            web: None,
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
