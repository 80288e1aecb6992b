//! Ratings, statistics and leaderboards, as pure functions and stored records (no I/O).
//!
//! * [`glicko`]: Glicko-2 with lichess's parameters on the `skillratings` crate, rating
//!   periods mapped to continuous time, provisional ratings;
//! * [`family`]: the time-control families a player is rated in;
//! * [`farming`]: repeated games between the same two players count less;
//! * [`apply()`]: what a game's end writes (ratings, statistics, history, leaderboards), run
//!   by the storage inside the transaction that stores the end;
//! * [`board`]: who a leaderboard lists, pages and ranks;
//! * [`keys`]: the layout of the ratings store;
//! * [`puzzle`]: a puzzle try as a rated game, its change bounded.
//!
//! Every game counts once: its end record ([`GameEnd`], keyed by game id) is written with
//! everything else, and a game whose end record exists is not applied again.

mod apply;
pub mod board;
pub mod family;
pub mod farming;
pub mod glicko;
pub mod keys;
pub mod puzzle;
mod record;

pub use apply::{
    apply, history_point, is_bot, platform_scope, refusal, Applied, Before, Ending, Side, Write,
    BOT_ID_PREFIX,
};
pub use board::Entry;
pub use family::{Family, Pace};
pub use glicko::{Glicko, Score};
pub use record::{
    Change, DecodeError, FamilyRating, GameEnd, HistoryPoint, NotRated, PairRecord, Profile,
    RatedOutcome, Stats, Streak, Wdl, RATING_SCHEMA,
};

/// Read a stored record ([`Profile`], [`PairRecord`], [`GameEnd`]).
///
/// # Errors
/// [`DecodeError`] when the bytes are not such a record.
pub fn decode<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, DecodeError> {
    record::decode(bytes)
}

#[cfg(test)]
mod tests;
