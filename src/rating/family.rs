//! Time-control families: each player has one rating per family, since speed changes how
//! people play.
//!
//! As lichess does, a game's family follows its *estimated duration*: the base time plus 40
//! times the increment (a game lasts about 40 moves a side). Under 3 minutes is bullet, under
//! 8 blitz, under 25 rapid, the rest classical; a time per move in days or hours
//! (correspondence) is its own family. The other clocks are mapped the same way:
//!
//! * byo-yomi (`10m+3x30s`): base + 40 × one period, since a period renews after every move
//!   played within it, like an increment that is not banked;
//! * game time with a cap per move (`20m/1m`): the base alone, since the cap only shortens
//!   single moves and nothing is added.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// How fast a clock makes a game, as far as ratings care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pace {
    /// Played in one sitting; the estimated duration in seconds.
    Live {
        /// Base + 40 × increment (see the module documentation).
        estimated_secs: u64,
    },
    /// A time per move of hours or days.
    Correspondence,
}

/// A time-control family.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default,
)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    /// Under 3 minutes estimated.
    Bullet,
    /// 3 to 8 minutes.
    Blitz,
    /// 8 to 25 minutes.
    #[default]
    Rapid,
    /// 25 minutes and more.
    Classical,
    /// Hours or days a move.
    Correspondence,
}

impl Family {
    /// Every family, fastest first.
    pub const ALL: [Family; 5] = [
        Family::Bullet,
        Family::Blitz,
        Family::Rapid,
        Family::Classical,
        Family::Correspondence,
    ];

    /// The family of a game played at `pace`.
    #[must_use]
    pub fn of(pace: Pace) -> Family {
        match pace {
            Pace::Correspondence => Family::Correspondence,
            Pace::Live { estimated_secs } => match estimated_secs {
                0..180 => Family::Bullet,
                180..480 => Family::Blitz,
                480..1500 => Family::Rapid,
                _ => Family::Classical,
            },
        }
    }

    /// Its stored and typed name (`blitz`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Family::Bullet => "bullet",
            Family::Blitz => "blitz",
            Family::Rapid => "rapid",
            Family::Classical => "classical",
            Family::Correspondence => "correspondence",
        }
    }

    /// Its number in keys (0..5).
    #[must_use]
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The family with number `i`.
    #[must_use]
    pub fn from_index(i: u8) -> Option<Family> {
        Family::ALL.get(usize::from(i)).copied()
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Family {
    type Err = ();

    /// The English names, and the words Vietnamese and Chinese players use.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.trim().to_lowercase();
        Ok(match lower.as_str() {
            "bullet" | "siêuchớp" | "sieuchop" | "子弹" | "子彈" | "子弹棋" => {
                Family::Bullet
            }
            "blitz" | "chớp" | "chop" | "超快" | "超快棋" => Family::Blitz,
            "rapid" | "nhanh" | "快棋" => Family::Rapid,
            "classical" | "classic" | "chậm" | "cham" | "慢棋" => Family::Classical,
            "correspondence" | "corr" | "thư" | "thu" | "通讯" | "通訊" => {
                Family::Correspondence
            }
            _ => return Err(()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn live(secs: u64) -> Family {
        Family::of(Pace::Live {
            estimated_secs: secs,
        })
    }

    #[test]
    fn lichess_boundaries() {
        assert_eq!(live(0), Family::Bullet);
        assert_eq!(live(179), Family::Bullet);
        assert_eq!(live(180), Family::Blitz); // 3+0
        assert_eq!(live(479), Family::Blitz);
        assert_eq!(live(480), Family::Rapid); // 5+3 = 300 + 120
        assert_eq!(live(800), Family::Rapid); // 10+5
        assert_eq!(live(1499), Family::Rapid);
        assert_eq!(live(1500), Family::Classical);
        assert_eq!(Family::of(Pace::Correspondence), Family::Correspondence);
    }

    #[test]
    fn names_round_trip() {
        for f in Family::ALL {
            assert_eq!(f.as_str().parse::<Family>(), Ok(f));
            assert_eq!(Family::from_index(f.index()), Some(f));
        }
        assert_eq!("快棋".parse::<Family>(), Ok(Family::Rapid));
        assert_eq!("chớp".parse::<Family>(), Ok(Family::Blitz));
        assert_eq!("Chậm".parse::<Family>(), Ok(Family::Classical));
        assert!("fast".parse::<Family>().is_err());
        assert_eq!(Family::from_index(5), None);
    }

    proptest! {
        #[test]
        fn any_word_parses_or_is_refused_without_panicking(s in "\\PC{0,40}") {
            let _ = s.parse::<Family>();
        }
    }
}
