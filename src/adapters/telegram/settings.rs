//! Telegram's settings (read from the environment by `config`).

use std::net::SocketAddr;
use std::time::Duration;

use crate::adapters::Secret;

/// Telegram settings.
#[derive(Clone, Debug)]
pub struct TelegramConfig {
    /// `TELEGRAM_BOT_TOKEN`.
    pub token: Secret,
    /// `TELEGRAM_API_URL`, for a self-hosted Bot API server.
    pub api_url: Option<String>,
    /// `TELEGRAM_WEBHOOK_URL` and its companions: receive updates by webhook instead of long
    /// polling.
    pub webhook: Option<WebhookConfig>,
}

/// Receiving Telegram's updates by webhook: Telegram POSTs each update to `url`, and this
/// process serves `listen` (behind a TLS proxy that forwards `url` to it).
#[derive(Clone, Debug)]
pub struct WebhookConfig {
    /// `TELEGRAM_WEBHOOK_URL`: the public URL Telegram POSTs to (https; http only for tests).
    pub url: String,
    /// The URL's path, served here (`/` when it has none).
    pub path: String,
    /// `TELEGRAM_WEBHOOK_LISTEN`: the address served (default `0.0.0.0:8443`).
    pub listen: SocketAddr,
    /// `TELEGRAM_WEBHOOK_SECRET`: what Telegram sends in `X-Telegram-Bot-Api-Secret-Token`.
    pub secret: Secret,
    /// `TELEGRAM_WEBHOOK_MAX_CONNECTIONS`: how many updates Telegram sends at once (1 to 100,
    /// default 40).
    pub max_connections: u8,
    /// What the server allows each connection (see [`HookLimits`]).
    pub limits: HookLimits,
}

/// What the webhook's server allows a connection: slow or idle ones are closed, so that
/// nobody can keep it from Telegram's requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HookLimits {
    /// `TELEGRAM_WEBHOOK_HEADER_TIMEOUT_MS`: a request's headers must arrive within this from
    /// their first byte, and a kept-alive connection waits this long for its next request
    /// (default 10 s).
    pub header_timeout: Duration,
    /// `TELEGRAM_WEBHOOK_BODY_TIMEOUT_MS`: a request's body must arrive within this once its
    /// headers did (default 10 s).
    pub body_timeout: Duration,
    /// `TELEGRAM_WEBHOOK_CONNECTIONS`: connections open at once (default 128; keep it below
    /// the process's file limit). At the cap, an idle connection is closed for a new one.
    pub connections: usize,
}

impl Default for HookLimits {
    fn default() -> Self {
        HookLimits {
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            connections: 128,
        }
    }
}

/// The shortest webhook secret taken: 24 characters of Telegram's 64 are 144 bits, beyond
/// guessing at any rate the server answers.
pub const MIN_WEBHOOK_SECRET: usize = 24;

/// Whether `secret` is a secret token Telegram accepts, and long enough not to be guessed:
/// [`MIN_WEBHOOK_SECRET`] to 256 characters of `A-Z`, `a-z`, `0-9`, `_` and `-`.
#[must_use]
pub fn valid_webhook_secret(secret: &str) -> bool {
    (MIN_WEBHOOK_SECRET..=256).contains(&secret.len())
        && secret
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}
