//! Adapters: console, Telegram, Discord. Each turns its platform's events into
//! [`crate::app::Incoming`] and sends the service's replies back; none holds game logic.

pub mod console;
pub mod discord;
pub mod lanes;
pub mod telegram;
