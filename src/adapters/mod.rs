//! Adapters: console, Telegram, Discord. Each turns its platform's events into
//! [`crate::app::Incoming`] and sends the service's replies back; none holds game logic.

pub mod console;
pub mod delivery;
pub mod discord;
pub mod lanes;
pub(crate) mod listen;
pub mod telegram;
pub mod web;

use std::fmt;

/// A secret value (a bot token): printable only as `***`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Keep `value` as a secret.
    #[must_use]
    pub fn new(value: String) -> Secret {
        Secret(value)
    }

    /// The value, for the one place that needs it (the platform client).
    #[must_use]
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(***)")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}
