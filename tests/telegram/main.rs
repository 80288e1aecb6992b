//! The Telegram adapter end to end: the real adapter (polling and webhook) against the fake Bot API
//! server in `tests/support/telegram_fake.rs`, the service on sled or PostgreSQL.
//!
//! One test binary for the area (each module was a binary of its own; one link instead of
//! 10):
//! * `bot` (was `tests/telegram_bot.rs`)
//! * `delivery` (was `tests/telegram_delivery.rs`)
//! * `fake_smoke` (was `tests/telegram_fake_smoke.rs`)
//! * `flow` (was `tests/telegram.rs`)
//! * `kill` (was `tests/telegram_kill.rs`)
//! * `players` (was `tests/telegram_players.rs`)
//! * `puzzle` (was `tests/telegram_puzzle.rs`)
//! * `ratings` (was `tests/telegram_ratings.rs`)
//! * `review` (was `tests/telegram_review.rs`)
//! * `webhook` (was `tests/telegram_webhook.rs`)

#[path = "../support/begun.rs"]
mod begun;
mod bot;
mod delivery;
mod fake_smoke;
#[path = "../support/faulty.rs"]
mod faulty;
mod flow;
#[path = "../support/games.rs"]
mod games;
mod kill;
#[path = "../support/kill.rs"]
mod kill_support;
#[path = "../support/pg.rs"]
mod pg;
mod players;
mod puzzle;
#[path = "../support/puzzles.rs"]
mod puzzles;
mod ratings;
mod review;
#[path = "../support/telegram_fake.rs"]
mod telegram_fake;
#[path = "../support/telegram_harness.rs"]
mod telegram_harness;
mod venues;
mod webhook;
#[path = "../support/webhook_fleet.rs"]
mod webhook_fleet;
