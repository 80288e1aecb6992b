//! Stored engine analysis: a hint asked for in a channel, and a finished game's review.
//!
//! A review is stored once, with the game it reviews, and never computed again: a second
//! `/review` reads it back. While it runs, its record says who asked and where (so a restart
//! resumes it). Evaluations and moves are stored as text (`+0.35`, `#-3`, `1-0`; ICCS), so the
//! engine's types stay free of serde.

use serde::{Deserialize, Serialize};

/// A hint asked for in a channel and not posted yet: the position it is for (the game and its
/// ply), who asked, and the notation they read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HintAsk {
    /// The game.
    pub game: u64,
    /// Moves played when it was asked (a move since makes it stale).
    pub ply: usize,
    /// Who asked (player id).
    pub user: crate::platform::UserKey,
    /// Their notation's name.
    pub notation: String,
}

/// The version of [`ReviewRecord`]'s stored form.
pub const REVIEW_VERSION: u32 = 1;

/// A game's review, stored under the game's id.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReviewRecord {
    /// Schema version.
    pub v: u32,
    /// The game reviewed.
    pub game: u64,
    /// Where it was asked for (where it is posted when it is done).
    pub channel: crate::platform::ChannelKey,
    /// Notation of the player who asked, for the moves in the posted review.
    pub notation: String,
    /// When it was asked for (epoch ms).
    pub asked_ms: u64,
    /// The review, once done; `None` while it runs.
    pub done: Option<ReviewData>,
    /// When the review was last posted in its channel (epoch ms): asked again soon after,
    /// it is pointed to instead of posted again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub posted_ms: Option<u64>,
}

/// What a review found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReviewData {
    /// Every position's evaluation from Red's side (`+0.35`, `#-3`, `1-0`).
    pub evals: Vec<String>,
    /// Every move reviewed.
    pub plies: Vec<ReviewedPly>,
    /// Red's and Black's accuracy (0–100).
    pub accuracy: [Option<f64>; 2],
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken (ms).
    pub time_ms: u64,
}

/// One move, reviewed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReviewedPly {
    /// The move (ICCS).
    pub mv: String,
    /// Winning chances lost (−1..1 scale).
    pub loss: f64,
    /// Its accuracy (0–100).
    pub accuracy: f64,
    /// `inaccuracy`, `mistake` or `blunder`, with why (`chances`, `mate_created`,
    /// `mate_lost`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judgement: Option<(String, String)>,
    /// The better line (ICCS) and its evaluation, for a judged move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub better: Option<(Vec<String>, String)>,
}
