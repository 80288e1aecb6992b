//! The binary in console mode, driven through its standard input and output.
//!
//! One test binary for the area (each module was a binary of its own; one link instead of
//! 6):
//! * `bot` (was `tests/console_bot.rs`)
//! * `play` (was `tests/console_games.rs`)
//! * `puzzle` (was `tests/console_puzzle.rs`)
//! * `ratings` (was `tests/console_ratings.rs`)
//! * `restart` (was `tests/console_restart.rs`)
//! * `review` (was `tests/console_review.rs`)

mod bot;
#[path = "../support/console.rs"]
mod console;
#[path = "../support/games.rs"]
mod games;
#[path = "../support/pg.rs"]
mod pg;
mod play;
mod puzzle;
#[path = "../support/puzzles.rs"]
mod puzzles;
mod ratings;
mod restart;
mod review;
