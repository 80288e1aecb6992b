//! What is stored about players: their ratings per family, their statistics, the record of
//! each pair, and the rating outcome of each finished game. Versioned JSON (serde), like the
//! game records.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::family::Family;
use super::glicko::{Glicko, Score};

/// Version written into every record.
pub const RATING_SCHEMA: u32 = 1;

/// A stored record that does not read (never expected: we write them).
#[derive(Debug)]
pub struct DecodeError(pub String);

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unreadable rating record: {}", self.0)
    }
}

impl std::error::Error for DecodeError {}

pub(crate) fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    // Plain structs of numbers, strings and maps with string keys always serialise.
    serde_json::to_vec(value).unwrap_or_default()
}

pub(crate) fn decode<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, DecodeError> {
    serde_json::from_slice(bytes).map_err(|e| DecodeError(e.to_string()))
}

/// Wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wdl {
    /// Won.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
}

impl Wdl {
    /// Count one result.
    pub fn add(&mut self, s: Score) {
        let n = match s {
            Score::Win => &mut self.wins,
            Score::Draw => &mut self.draws,
            Score::Loss => &mut self.losses,
        };
        *n = n.saturating_add(1);
    }

    /// Games counted.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins
            .saturating_add(self.draws)
            .saturating_add(self.losses)
    }

    /// The same counts seen by the opponent.
    #[must_use]
    pub fn reversed(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }
}

/// A run of equal results.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Streak {
    /// The result repeated (none before the first game).
    pub score: Option<Score>,
    /// How many times in a row.
    pub len: u32,
}

/// A player's statistics over every finished game (rated or casual; aborted games are not
/// games). Kept up to date at each game's end, so reading them never scans games.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Every game.
    pub all: Wdl,
    /// Playing Red.
    pub as_red: Wdl,
    /// Playing Black.
    pub as_black: Wdl,
    /// Rated games only.
    pub rated: Wdl,
    /// By how the game ended (`checkmate`, `timeout`, `resignation`, `perpetual_check`, ...).
    pub by_ending: BTreeMap<String, Wdl>,
    /// The current run of equal results.
    pub streak: Streak,
    /// The longest run of wins.
    pub best_win_streak: u32,
    /// The longest run of losses.
    pub worst_loss_streak: u32,
    /// When the first counted game ended (epoch ms).
    pub first_ms: u64,
    /// When the last counted game ended (epoch ms).
    pub last_ms: u64,
}

impl Stats {
    /// Count one game: `score` playing `red` (or Black), ended by `reason`.
    pub fn record(&mut self, score: Score, red: bool, reason: &str, rated: bool, at_ms: u64) {
        self.all.add(score);
        if red {
            self.as_red.add(score);
        } else {
            self.as_black.add(score);
        }
        if rated {
            self.rated.add(score);
        }
        let key: String = reason.chars().take(32).collect();
        // Reasons are a small fixed set; the bound only guards against a corrupt record.
        if self.by_ending.len() < 64 || self.by_ending.contains_key(&key) {
            self.by_ending.entry(key).or_default().add(score);
        }
        if self.streak.score == Some(score) {
            self.streak.len = self.streak.len.saturating_add(1);
        } else {
            self.streak = Streak {
                score: Some(score),
                len: 1,
            };
        }
        match score {
            Score::Win => self.best_win_streak = self.best_win_streak.max(self.streak.len),
            Score::Loss => self.worst_loss_streak = self.worst_loss_streak.max(self.streak.len),
            Score::Draw => {}
        }
        if self.first_ms == 0 {
            self.first_ms = at_ms;
        }
        self.last_ms = self.last_ms.max(at_ms);
    }
}

/// A player's rating in one family.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FamilyRating {
    /// The rating as of its last game.
    pub glicko: Glicko,
    /// Rated games counted.
    pub games: u32,
    /// When the last one ended (epoch ms).
    pub last_ms: u64,
    /// The highest rating reached with an established (not provisional) deviation.
    pub best: Option<f64>,
    /// The servers and groups where the player has played a rated game of this family (their
    /// leaderboards list the player), as scope keys.
    pub communities: Vec<String>,
}

impl FamilyRating {
    /// Whether the player can be on a leaderboard at `now_ms`: played within
    /// [`super::board::ACTIVE_MS`] and a settled rating at that date.
    #[must_use]
    pub fn listed(&self, now_ms: u64) -> bool {
        self.games > 0
            && now_ms.saturating_sub(self.last_ms) <= super::board::ACTIVE_MS
            && !self.at(now_ms).provisional()
    }

    /// The rating as it stands at `now_ms` (the deviation grown over the idle time).
    #[must_use]
    pub fn at(&self, now_ms: u64) -> Glicko {
        if self.games == 0 {
            return Glicko::default();
        }
        self.glicko.after_idle(now_ms.saturating_sub(self.last_ms))
    }
}

/// Most communities remembered per player and family.
pub const MAX_COMMUNITIES: usize = 64;

/// Everything stored about one player (one record, read and written once per game).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    /// Schema version.
    pub v: u32,
    /// The display name in their latest game.
    pub name: String,
    /// Ratings by family (only families with a rated game).
    pub ratings: BTreeMap<Family, FamilyRating>,
    /// Statistics over all games.
    pub stats: Stats,
}

/// The record between two players, kept under the smaller id (`a`) first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairRecord {
    /// Schema version.
    pub v: u32,
    /// The player whose id sorts first.
    pub a: String,
    /// The other.
    pub b: String,
    /// Results seen by `a`.
    pub a_results: Wdl,
    /// Results seen by `a`, when `a` played Red.
    pub a_as_red: Wdl,
    /// End times of their recent rated games (for [`super::farming`]).
    pub recent_rated: Vec<u64>,
    /// When their last game ended.
    pub last_ms: u64,
}

impl PairRecord {
    /// The results seen by `player` (one of the pair).
    #[must_use]
    pub fn results_of(&self, player: &str) -> Wdl {
        if player == self.a {
            self.a_results
        } else {
            self.a_results.reversed()
        }
    }

    /// The results seen by `player` (one of the pair) in the games they played as Red.
    #[must_use]
    pub fn as_red_of(&self, player: &str) -> Wdl {
        if player == self.a {
            self.a_as_red
        } else {
            // `b` played Red exactly when `a` played Black.
            Wdl {
                wins: self.a_results.wins.saturating_sub(self.a_as_red.wins),
                draws: self.a_results.draws.saturating_sub(self.a_as_red.draws),
                losses: self.a_results.losses.saturating_sub(self.a_as_red.losses),
            }
            .reversed()
        }
    }
}

/// Why a game does not change ratings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NotRated {
    /// No clock.
    NoClock,
    /// Played under the `casual` ruleset (fouls refused, not ruled).
    CasualRules,
    /// Started from a set-up position.
    SetUp,
    /// Against the bot.
    Bot,
    /// Aborted.
    Aborted,
    /// Fewer than two moves by each side.
    TooFewMoves,
    /// Too many rated games between the same two players in 24 hours.
    Farming,
}

/// One player's rating before and after a game.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Change {
    /// At the game's end, before it counted (the deviation grown over idle time).
    pub before: Glicko,
    /// After it counted.
    pub after: Glicko,
}

impl Change {
    /// The rating change rounded as shown (+12, −12).
    #[must_use]
    pub fn delta(&self) -> i64 {
        self.after.shown() - self.before.shown()
    }
}

/// What a finished game did to ratings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RatedOutcome {
    /// A casual game (nobody asked for a rating).
    Casual,
    /// A rated game that could not count.
    NotRated {
        /// Why.
        why: NotRated,
    },
    /// A rated game that counted.
    Rated {
        /// Its family.
        family: Family,
        /// Its weight (1, or less for repeated games: see [`super::farming`]).
        weight: f64,
        /// Red's rating.
        red: Change,
        /// Black's rating.
        black: Change,
    },
}

/// The rating record of one finished or aborted game: written once, in the same transaction
/// as the game's end, and the key that keeps it from being counted twice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameEnd {
    /// Schema version.
    pub v: u32,
    /// The game.
    pub game: u64,
    /// Red's id.
    pub red: String,
    /// Black's id.
    pub black: String,
    /// Red's result (none for an aborted game).
    pub red_score: Option<Score>,
    /// How it ended.
    pub reason: String,
    /// When (epoch ms).
    pub ended_ms: u64,
    /// What it did to ratings.
    pub outcome: RatedOutcome,
}

/// A point of a player's rating history in one family.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HistoryPoint {
    /// When the game ended (epoch ms).
    pub at_ms: u64,
    /// The game.
    pub game: u64,
    /// The rating after it.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// The player's result.
    pub score: Score,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streaks_and_counts() {
        let mut s = Stats::default();
        for (sc, red, why) in [
            (Score::Win, true, "checkmate"),
            (Score::Win, false, "timeout"),
            (Score::Win, true, "checkmate"),
            (Score::Loss, false, "resignation"),
            (Score::Draw, true, "agreement"),
            (Score::Loss, true, "checkmate"),
            (Score::Loss, false, "perpetual_check"),
        ] {
            s.record(sc, red, why, true, 10);
        }
        assert_eq!(
            s.all,
            Wdl {
                wins: 3,
                draws: 1,
                losses: 3
            }
        );
        assert_eq!(
            s.as_red,
            Wdl {
                wins: 2,
                draws: 1,
                losses: 1
            }
        );
        assert_eq!(s.as_black.games(), 3);
        assert_eq!(
            s.by_ending["checkmate"],
            Wdl {
                wins: 2,
                draws: 0,
                losses: 1
            }
        );
        assert_eq!(s.best_win_streak, 3);
        assert_eq!(s.worst_loss_streak, 2);
        assert_eq!(
            s.streak,
            Streak {
                score: Some(Score::Loss),
                len: 2
            }
        );
    }

    #[test]
    fn records_round_trip_and_garbage_is_an_error() {
        let mut p = Profile {
            v: RATING_SCHEMA,
            name: "alice".into(),
            ..Profile::default()
        };
        p.ratings.insert(Family::Blitz, FamilyRating::default());
        p.stats.record(Score::Draw, false, "agreement", false, 5);
        let back: Profile = decode(&encode(&p)).expect("decode");
        assert_eq!(back, p);
        assert!(decode::<Profile>(b"{nope").is_err());
    }
}
