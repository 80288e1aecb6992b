//! The Discord adapter end to end: the real serenity client, the real service on sled in a
//! temporary directory, and a fake Discord (REST and the gateway WebSocket) on 127.0.0.1 that
//! enforces the 3-second rule.
//!
//! * `game`: a whole game by slash commands, buttons, the select-menu picker and a typed
//!   message, to a perpetual-chase ruling; the other buttons; a restart; a game in a thread.
//! * `platform`: command registration and autocomplete, the 50013 fallback, the Message
//!   Content intent refused, the timer's messages, and the binary started by `DISCORD_TOKEN`.
//! * `delivery`: 429s and 5xx on every route a board takes, an interaction past its 15
//!   minutes, a message refused for good, a restart with an answer still stored, private
//!   answers without a public "thinking…".
//! * `kill`: `kill -9` of the binary at random points while it handles moves.
//! * `players`: what players noticed: challenges losing their buttons, private refusals,
//!   pickers cleared, suggestions in the user's notation, rulesets named in each language.
//! * `puzzle`: a puzzle solved with the select-menu picker and slash commands, its buttons.
//! * `shards`: `DISCORD_SHARDS` — two processes on one PostgreSQL database, each running its
//!   own shard; one process running two; identify pacing; commands registered once.
//! * `review`: with the engine attached, a hint as its own board, the *Review* button under a
//!   result and the review's graph.
//! * `fake_smoke` (was `tests/discord_fake_smoke.rs`): the fake Discord itself, against
//!   serenity's own client.
#![forbid(unsafe_code)]

#[path = "../support/begun.rs"]
mod begun;
mod bot;
mod delivery;
#[path = "../support/discord_fake.rs"]
mod discord_fake;
mod fake_smoke;
mod game;
#[path = "../support/games.rs"]
mod games;
mod harness;
mod kill;
#[path = "../support/kill.rs"]
mod kill_support;
#[path = "../support/pg.rs"]
mod pg;
mod platform;
mod players;
mod puzzle;
#[path = "../support/puzzles.rs"]
mod puzzles;
mod ratings;
mod review;
mod shards;
mod venues;
