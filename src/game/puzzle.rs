//! Stored puzzle records: the puzzle live in a channel, a solver's puzzle rating and streak,
//! and a puzzle's own rating (it moves too, as a solver's does: a puzzle many fail grows
//! harder on the ladder).

use serde::{Deserialize, Serialize};

use crate::platform::UserKey;
use crate::rating::Glicko;

/// How many puzzles a channel remembers having shown, so that it does not see them again soon.
pub const RECENT_PUZZLES: usize = 60;

/// The puzzle being solved in a channel (one at a time, apart from the channel's game).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LivePuzzle {
    /// This showing's number (unique, from the id counter): buttons carry it, so a press on
    /// an earlier puzzle's buttons is recognised.
    pub number: u64,
    /// The puzzle's id in the shipped set.
    pub id: String,
    /// Moves played so far from its position (ICCS, both sides, solver first).
    pub played: Vec<String>,
    /// Whether `played` is still the listed solution.
    pub on_line: bool,
    /// When it was posted (epoch ms).
    pub started_ms: u64,
    /// Users who played a correct move in it: (id, name).
    pub solvers: Vec<(UserKey, String)>,
    /// Users who played a wrong move in it (their try is over).
    pub missed: Vec<UserKey>,
    /// Whether a hint was shown (then nobody's rating moves for it).
    pub hinted: bool,
    /// Whether it is the channel's daily puzzle.
    pub daily: bool,
}

/// A solver's puzzle record.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PuzzlePlayer {
    /// Schema version.
    pub v: u32,
    /// Their display name when last seen solving.
    pub name: String,
    /// Their puzzle rating.
    pub rating: Glicko,
    /// When it last changed (epoch ms; the deviation grows from then).
    pub rated_ms: u64,
    /// Puzzles solved in a row (a missed one ends the run).
    pub streak: u32,
    /// Their longest run.
    pub best_streak: u32,
    /// Puzzles solved.
    pub solved: u32,
    /// Puzzles missed.
    pub missed: u32,
}

impl PuzzlePlayer {
    /// The rating as it stands at `now_ms`: its deviation grown since it last changed.
    #[must_use]
    pub fn rating_at(&self, now_ms: u64) -> Glicko {
        if self.rated_ms == 0 {
            self.rating
        } else {
            self.rating.after_idle(now_ms.saturating_sub(self.rated_ms))
        }
    }
}

/// A puzzle's own rating.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PuzzleStanding {
    /// The rating (starts at the set's estimate).
    pub rating: Glicko,
    /// Rated tries.
    pub plays: u32,
}

/// A channel's daily puzzle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DailyPuzzle {
    /// The hour it is posted at (UTC, 0–23).
    pub hour: u8,
    /// When the next one is due (epoch ms): the stored deadline's time.
    pub next_ms: u64,
}
