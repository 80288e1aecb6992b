//! The service in process: commands, the bot, hints, players' words, puzzles, the outbox and
//! several processes on one PostgreSQL database.
//!
//! One test binary for the area (each module was a binary of its own; one link instead of
//! 7):
//! * `bot` (was `tests/service_bot.rs`)
//! * `fleet` (was `tests/fleet.rs`)
//! * `flow` (was `tests/service.rs`)
//! * `hint` (was `tests/service_hint.rs`)
//! * `outbox` (was `tests/outbox.rs`)
//! * `players` (was `tests/service_players.rs`)
//! * `puzzle` (was `tests/service_puzzle.rs`)
//! * `several`: several games at once in one chat
//! * `tournament`: Swiss, arena and round robin in a chat

#[path = "../support/begun.rs"]
mod begun;
mod bot;
#[path = "../support/console.rs"]
mod console;
#[path = "../support/faulty.rs"]
mod faulty;
mod fleet;
mod flow;
#[path = "../support/games.rs"]
mod games;
mod hint;
mod outbox;
#[path = "../support/pg.rs"]
mod pg;
mod players;
mod puzzle;
#[path = "../support/puzzles.rs"]
mod puzzles;
#[path = "../support/said.rs"]
mod said;
mod several;
mod tournament;
mod venues;
