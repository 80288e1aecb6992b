//! Glicko-2 as lichess runs it, on the `skillratings` crate.
//!
//! * Parameters: a new player starts at 1500 with deviation 500 and volatility 0.09; the
//!   system constant τ is 0.75. Deviations are kept within [45, 500] and volatility at most
//!   0.1, so a rating never freezes and never runs away.
//! * **Rating periods.** Glicko-2 updates ratings once per *rating period*, from all the games
//!   of the period. A chat bot wants the new rating at once, so (as lichess does) every game is
//!   a rating period of its own for both players. The time between a player's games still
//!   counts: before a game, the deviation grows as it would over the idle periods,
//!   `φ' = √(φ² + σ²·t)` (Glickman's step 6 applied `t` times), with
//!   `t = days idle × 0.21436` (lichess's rate: about one period every 4.7 days). So a player
//!   who stops for months becomes uncertain again and moves faster when they return.
//! * A rating is **provisional** ("?") while its deviation (grown to today) is 110 or more.

use serde::{Deserialize, Serialize};
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// A new player's rating.
pub const START_RATING: f64 = 1500.0;
/// A new player's deviation.
pub const START_DEVIATION: f64 = 500.0;
/// A new player's volatility.
pub const START_VOLATILITY: f64 = 0.09;
/// The system constant τ (how fast volatility may change).
pub const TAU: f64 = 0.75;
/// A rating whose deviation is at least this is provisional.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// Deviations are kept within these bounds.
pub const MIN_DEVIATION: f64 = 45.0;
/// See [`MIN_DEVIATION`].
pub const MAX_DEVIATION: f64 = 500.0;
/// Volatility is kept at most this.
pub const MAX_VOLATILITY: f64 = 0.1;
/// Glicko-2 rating periods per day of idle time.
pub const PERIODS_PER_DAY: f64 = 0.21436;
/// Glicko-2's scale factor between the displayed and the internal scale.
const SCALE: f64 = 173.7178;
const DAY_MS: f64 = 86_400_000.0;

/// A player's Glicko-2 rating in one family.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Glicko {
    /// The rating (displayed scale, 1500 = average).
    pub rating: f64,
    /// Its deviation (the uncertainty, displayed scale).
    pub deviation: f64,
    /// Its volatility (how erratic the player's results are).
    pub volatility: f64,
}

impl Default for Glicko {
    fn default() -> Self {
        Glicko {
            rating: START_RATING,
            deviation: START_DEVIATION,
            volatility: START_VOLATILITY,
        }
    }
}

/// A game's result for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Score {
    /// Won.
    Win,
    /// Drawn.
    Draw,
    /// Lost.
    Loss,
}

impl Score {
    /// The same game seen by the opponent.
    #[must_use]
    pub fn reversed(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Draw => Score::Draw,
            Score::Loss => Score::Win,
        }
    }

    fn outcome(self) -> Outcomes {
        match self {
            Score::Win => Outcomes::WIN,
            Score::Draw => Outcomes::DRAW,
            Score::Loss => Outcomes::LOSS,
        }
    }
}

impl Glicko {
    /// The rating as it stands after `idle_ms` without a game: the deviation grows with the
    /// idle rating periods (rating and volatility do not change).
    #[must_use]
    pub fn after_idle(self, idle_ms: u64) -> Glicko {
        let periods = idle_ms as f64 / DAY_MS * PERIODS_PER_DAY;
        let phi = self.deviation / SCALE;
        let grown = (phi * phi + self.volatility * self.volatility * periods).sqrt() * SCALE;
        Glicko {
            deviation: grown.clamp(MIN_DEVIATION, MAX_DEVIATION),
            ..self
        }
    }

    /// Whether the rating is provisional (shown with "?").
    #[must_use]
    pub fn provisional(&self) -> bool {
        self.deviation >= PROVISIONAL_DEVIATION
    }

    /// The rating rounded for display.
    #[must_use]
    pub fn shown(&self) -> i64 {
        self.rating.round() as i64
    }

    fn to_crate(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn from_crate(r: Glicko2Rating) -> Glicko {
        Glicko {
            rating: r.rating,
            deviation: r.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION),
            volatility: r.volatility.min(MAX_VOLATILITY),
        }
    }

    /// Move `weight` (0..=1) of the way from `self` to `target`.
    fn towards(self, target: Glicko, weight: f64) -> Glicko {
        let w = weight.clamp(0.0, 1.0);
        let mix = |a: f64, b: f64| a + w * (b - a);
        Glicko {
            rating: mix(self.rating, target.rating),
            deviation: mix(self.deviation, target.deviation),
            volatility: mix(self.volatility, target.volatility),
        }
    }
}

/// The configuration `skillratings` runs with.
#[must_use]
pub fn config() -> Glicko2Config {
    Glicko2Config {
        tau: TAU,
        ..Glicko2Config::default()
    }
}

/// Rate one game (a rating period of its own) between `a` and `b`, both already grown to the
/// game's time with [`Glicko::after_idle`]; `score` is `a`'s. `weight` (0..=1) scales the
/// change for repeated games between the same players (see [`super::farming`]): 1 is a
/// normal game, 0 changes nothing.
#[must_use]
pub fn rate(a: Glicko, b: Glicko, score: Score, weight: f64) -> (Glicko, Glicko) {
    let (na, nb) = glicko2(&a.to_crate(), &b.to_crate(), &score.outcome(), &config());
    (
        a.towards(Glicko::from_crate(na), weight),
        b.towards(Glicko::from_crate(nb), weight),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    fn g(rating: f64, deviation: f64) -> Glicko2Rating {
        Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    /// Glickman, "Example of the Glicko-2 system" (2013): a 1500/200 player (volatility 0.06,
    /// τ 0.5) beats 1400/30, loses to 1550/100 and to 1700/300 in one rating period and ends
    /// at 1464.06 / 151.52 / 0.05999.
    #[test]
    fn glickmans_worked_example() {
        let cfg = Glicko2Config {
            tau: 0.5,
            ..Glicko2Config::default()
        };
        let after = glicko2_rating_period(
            &g(1500.0, 200.0),
            &[
                (g(1400.0, 30.0), Outcomes::WIN),
                (g(1550.0, 100.0), Outcomes::LOSS),
                (g(1700.0, 300.0), Outcomes::LOSS),
            ],
            &cfg,
        );
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn a_first_game_between_new_players_moves_them_symmetrically() {
        let (w, l) = rate(Glicko::default(), Glicko::default(), Score::Win, 1.0);
        assert!(w.rating > 1700.0 && w.rating < 1800.0, "{w:?}");
        assert!((w.rating - 1500.0 + (l.rating - 1500.0)).abs() < 1e-9);
        assert!(w.deviation < START_DEVIATION && w.deviation == l.deviation);
        let (d1, d2) = rate(Glicko::default(), Glicko::default(), Score::Draw, 1.0);
        assert!((d1.rating - 1500.0).abs() < 1e-9 && (d2.rating - 1500.0).abs() < 1e-9);
    }

    #[test]
    fn weight_scales_the_change_and_zero_changes_nothing() {
        let a = Glicko {
            rating: 1600.0,
            deviation: 80.0,
            volatility: 0.06,
        };
        let b = Glicko {
            rating: 1500.0,
            deviation: 90.0,
            volatility: 0.06,
        };
        let (full, _) = rate(a, b, Score::Win, 1.0);
        let (half, _) = rate(a, b, Score::Win, 0.5);
        let (none, none_b) = rate(a, b, Score::Win, 0.0);
        assert!(((half.rating - a.rating) * 2.0 - (full.rating - a.rating)).abs() < 1e-9);
        assert_eq!((none, none_b), (a, b));
    }

    #[test]
    fn idle_time_grows_the_deviation_within_bounds() {
        let settled = Glicko {
            rating: 1800.0,
            deviation: 50.0,
            volatility: 0.06,
        };
        assert_eq!(settled.after_idle(0), settled);
        let year = settled.after_idle(365 * 86_400_000);
        // √(50²/173.7178² + 0.06² × 365 × 0.21436) × 173.7178 ≈ 104.9
        assert!((year.deviation - 104.9).abs() < 0.1, "{year:?}");
        assert_eq!(year.rating, 1800.0);
        let forever = settled.after_idle(u64::MAX);
        assert_eq!(forever.deviation, MAX_DEVIATION);
        assert!(!settled.provisional() && Glicko::default().provisional());
    }
}
