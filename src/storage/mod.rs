//! Storage, the door: the two implementations of [`crate::game::Storage`] side by side —
//! [`sled`] (embedded, in `DATA_DIR/db`, the default) and [`pg`] (PostgreSQL, chosen with
//! `DATABASE_URL`, for several processes) — and what works across them: [`copy`] (a whole
//! database from one to the other, `xiangqi-bot migrate`) and the leaderboards' reading
//! through rating bands (`ranking`).

pub mod copy;
pub mod pg;
mod ranking;
pub mod sled;

pub use self::sled::{guard, marker, survey, transfer, Inspection, OpenError, SledStorage};
pub use pg::{PgPools, PgStorage};
