//! The Discord adapter end to end: the real serenity client, the real service on sled in a
//! temporary directory, and a fake Discord (REST and the gateway WebSocket) on 127.0.0.1 that
//! enforces the 3-second rule.
//!
//! * `game`: a whole game by slash commands, buttons, the select-menu picker and a typed
//!   message, to a perpetual-chase ruling; the other buttons; a restart; a game in a thread.
//! * `platform`: command registration and autocomplete, the 50013 fallback, the Message
//!   Content intent refused, the timer's messages, and the binary started by `DISCORD_TOKEN`.
//! * `players`: what players noticed: challenges losing their buttons, private refusals,
//!   pickers cleared, suggestions in the user's notation, rulesets named in each language.
#![forbid(unsafe_code)]

#[path = "../support/discord_fake.rs"]
mod discord_fake;
mod game;
mod harness;
mod platform;
mod players;
mod ratings;
