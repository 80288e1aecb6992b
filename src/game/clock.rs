//! Time controls and the game clock, as pure data and arithmetic on millisecond timestamps
//! (the caller supplies "now", so tests need no waiting and restarts can shift time).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A time control players choose with `/play`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TimeControl {
    /// No clock.
    None,
    /// Fischer: a base time and an increment per move (`10+5`).
    Fischer {
        /// Base time.
        base_ms: u64,
        /// Added after each move.
        increment_ms: u64,
    },
    /// Game time with a cap per move (`20m/1m`, the seed 001 app: 20 minutes in all, at
    /// most one minute a move).
    GameWithMoveCap {
        /// Total time.
        base_ms: u64,
        /// Longest allowed move.
        per_move_ms: u64,
    },
    /// Byo-yomi: main time, then periods (`10m+3x30s`): a move within a period keeps it; each
    /// period overrun is used up; the last one running out loses.
    ByoYomi {
        /// Main time.
        base_ms: u64,
        /// Number of periods.
        periods: u32,
        /// Length of a period.
        period_ms: u64,
    },
    /// Correspondence: a fixed time per move (`1d`, `12h`).
    Correspondence {
        /// Time per move.
        per_move_ms: u64,
    },
}

/// Longest time control accepted (a week a move, or a week of base time).
const MAX_MS: u64 = 7 * 24 * 3600 * 1000;

fn parse_duration(s: &str, default_unit_ms: u64) -> Option<u64> {
    let s = s.trim();
    if s.is_empty() || s.len() > 12 {
        return None;
    }
    let (num, unit) = match s.find(|c: char| !c.is_ascii_digit() && c != '.') {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, ""),
    };
    let value: f64 = num.parse().ok()?;
    let unit_ms = match unit {
        "" => default_unit_ms,
        "s" | "sec" => 1000,
        "m" | "min" | "'" => 60_000,
        "h" => 3_600_000,
        "d" => 86_400_000,
        _ => return None,
    };
    let ms = value * unit_ms as f64;
    (ms.is_finite() && ms >= 0.0 && ms <= MAX_MS as f64).then(|| ms.round() as u64)
}

fn format_duration(ms: u64) -> String {
    let s = ms / 1000;
    if ms.is_multiple_of(86_400_000) && ms > 0 {
        format!("{}d", ms / 86_400_000)
    } else if ms.is_multiple_of(3_600_000) && ms > 0 {
        format!("{}h", ms / 3_600_000)
    } else if ms.is_multiple_of(60_000) && ms > 0 {
        format!("{}m", ms / 60_000)
    } else {
        format!("{s}s")
    }
}

impl FromStr for TimeControl {
    type Err = ();

    /// `none`/`-`, `10+5` (minutes + seconds), `5m+3s`, `20m/1m`, `10m+3x30s`, `1d`, `12h`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim().to_ascii_lowercase();
        if s.len() > 24 {
            return Err(());
        }
        if matches!(s.as_str(), "none" | "-" | "unlimited" | "∞") {
            return Ok(TimeControl::None);
        }
        let tc = if let Some((base, rest)) = s.split_once('+') {
            if let Some((n, period)) = rest.split_once('x') {
                TimeControl::ByoYomi {
                    base_ms: parse_duration(base, 60_000).ok_or(())?,
                    periods: n
                        .parse()
                        .ok()
                        .filter(|&p| (1..=30).contains(&p))
                        .ok_or(())?,
                    period_ms: parse_duration(period, 1000).ok_or(())?,
                }
            } else {
                TimeControl::Fischer {
                    base_ms: parse_duration(base, 60_000).ok_or(())?,
                    increment_ms: parse_duration(rest, 1000).ok_or(())?,
                }
            }
        } else if let Some((base, cap)) = s.split_once('/') {
            TimeControl::GameWithMoveCap {
                base_ms: parse_duration(base, 60_000).ok_or(())?,
                per_move_ms: parse_duration(cap, 60_000).ok_or(())?,
            }
        } else if s.ends_with('d') || s.ends_with('h') {
            TimeControl::Correspondence {
                per_move_ms: parse_duration(&s, 86_400_000).ok_or(())?,
            }
        } else {
            // A bare duration is sudden death: `10m`, `5`, `30s`.
            TimeControl::Fischer {
                base_ms: parse_duration(&s, 60_000).ok_or(())?,
                increment_ms: 0,
            }
        };
        let positive = match tc {
            TimeControl::None => true,
            TimeControl::Fischer { base_ms, .. } => base_ms >= 1000,
            TimeControl::GameWithMoveCap {
                base_ms,
                per_move_ms,
            } => base_ms >= 1000 && per_move_ms >= 1000,
            TimeControl::ByoYomi { period_ms, .. } => period_ms >= 1000,
            TimeControl::Correspondence { per_move_ms } => per_move_ms >= 60_000,
        };
        if positive {
            Ok(tc)
        } else {
            Err(())
        }
    }
}

impl TimeControl {
    /// How fast this clock makes a game, for ratings (none without a clock; see
    /// [`crate::rating::family`] for the estimate of each kind of clock).
    #[must_use]
    pub fn pace(self) -> Option<crate::rating::Pace> {
        let live = |ms: u64| {
            Some(crate::rating::Pace::Live {
                estimated_secs: ms / 1000,
            })
        };
        match self {
            TimeControl::None => None,
            TimeControl::Fischer {
                base_ms,
                increment_ms,
            } => live(base_ms.saturating_add(increment_ms.saturating_mul(40))),
            TimeControl::GameWithMoveCap { base_ms, .. } => live(base_ms),
            TimeControl::ByoYomi {
                base_ms, period_ms, ..
            } => live(base_ms.saturating_add(period_ms.saturating_mul(40))),
            TimeControl::Correspondence { .. } => Some(crate::rating::Pace::Correspondence),
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::None => write!(f, "none"),
            TimeControl::Fischer {
                base_ms,
                increment_ms,
            } => write!(
                f,
                "{}+{}",
                format_duration(base_ms),
                format_duration(increment_ms)
            ),
            TimeControl::GameWithMoveCap {
                base_ms,
                per_move_ms,
            } => write!(
                f,
                "{}/{}",
                format_duration(base_ms),
                format_duration(per_move_ms)
            ),
            TimeControl::ByoYomi {
                base_ms,
                periods,
                period_ms,
            } => write!(
                f,
                "{}+{periods}x{}",
                format_duration(base_ms),
                format_duration(period_ms)
            ),
            TimeControl::Correspondence { per_move_ms } => {
                write!(f, "{}", format_duration(per_move_ms))
            }
        }
    }
}

/// One side's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideClock {
    /// Main time left (milliseconds).
    pub remaining_ms: u64,
    /// Byo-yomi periods left.
    pub periods: u32,
    /// Whether this side was warned at 10% in the current allotment.
    pub warned: bool,
}

/// Both clocks, and when the current turn began.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockState {
    /// Red's clock.
    pub red: SideClock,
    /// Black's clock.
    pub black: SideClock,
    /// When the side to move started thinking (milliseconds since the Unix epoch).
    pub turn_started_ms: u64,
}

/// What the clock says about the side to move at some moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockReading {
    /// Still has time; when its flag would fall, and when the 10% warning is due (if not
    /// given yet).
    Running {
        /// Deadline (epoch ms).
        flag_at_ms: u64,
        /// When to warn (epoch ms), if a warning is still due.
        warn_at_ms: Option<u64>,
    },
    /// Out of time.
    Flagged,
}

impl ClockState {
    /// The clocks at the start of a game under `tc` (`None` for no clock).
    #[must_use]
    pub fn start(tc: TimeControl, now_ms: u64) -> Option<ClockState> {
        let side = match tc {
            TimeControl::None => return None,
            TimeControl::Fischer { base_ms, .. } | TimeControl::GameWithMoveCap { base_ms, .. } => {
                SideClock {
                    remaining_ms: base_ms,
                    periods: 0,
                    warned: false,
                }
            }
            TimeControl::ByoYomi {
                base_ms, periods, ..
            } => SideClock {
                remaining_ms: base_ms,
                periods,
                warned: false,
            },
            TimeControl::Correspondence { .. } => SideClock {
                remaining_ms: 0,
                periods: 0,
                warned: false,
            },
        };
        Some(ClockState {
            red: side,
            black: side,
            turn_started_ms: now_ms,
        })
    }

    /// The clock of `red_to_move ? red : black`.
    #[must_use]
    pub fn side(&self, red: bool) -> &SideClock {
        if red {
            &self.red
        } else {
            &self.black
        }
    }

    fn side_mut(&mut self, red: bool) -> &mut SideClock {
        if red {
            &mut self.red
        } else {
            &mut self.black
        }
    }

    /// When the side to move (`red` or not) runs out, and when to warn it.
    #[must_use]
    pub fn reading(&self, tc: TimeControl, red: bool, now_ms: u64) -> ClockReading {
        let c = self.side(red);
        let start = self.turn_started_ms;
        let (budget, allotment) = match tc {
            TimeControl::None => {
                return ClockReading::Running {
                    flag_at_ms: u64::MAX,
                    warn_at_ms: None,
                }
            }
            TimeControl::Fischer { base_ms, .. } => (c.remaining_ms, base_ms),
            TimeControl::GameWithMoveCap {
                base_ms,
                per_move_ms,
            } => {
                if c.remaining_ms <= per_move_ms {
                    (c.remaining_ms, base_ms)
                } else {
                    (per_move_ms, per_move_ms)
                }
            }
            TimeControl::ByoYomi {
                base_ms, period_ms, ..
            } => {
                let total = c.remaining_ms + u64::from(c.periods) * period_ms;
                if c.remaining_ms > 0 {
                    (total, base_ms.max(1))
                } else {
                    (total, period_ms)
                }
            }
            TimeControl::Correspondence { per_move_ms } => (per_move_ms, per_move_ms),
        };
        let flag_at_ms = start.saturating_add(budget);
        if now_ms >= flag_at_ms {
            return ClockReading::Flagged;
        }
        let tenth = allotment / 10;
        let warn_at_ms = (!c.warned && budget > tenth).then(|| flag_at_ms - tenth);
        ClockReading::Running {
            flag_at_ms,
            warn_at_ms,
        }
    }

    /// Charge the side that just moved (`red` or not) for the time since its turn began, and
    /// start the other side's turn. Returns `false` if the mover was already out of time.
    pub fn charge_move(&mut self, tc: TimeControl, red: bool, now_ms: u64) -> bool {
        if matches!(self.reading(tc, red, now_ms), ClockReading::Flagged) {
            return false;
        }
        let elapsed = now_ms.saturating_sub(self.turn_started_ms);
        let c = self.side_mut(red);
        match tc {
            TimeControl::None => {}
            TimeControl::Fischer { increment_ms, .. } => {
                c.remaining_ms = c.remaining_ms.saturating_sub(elapsed) + increment_ms;
            }
            TimeControl::GameWithMoveCap { .. } => {
                c.remaining_ms = c.remaining_ms.saturating_sub(elapsed);
            }
            TimeControl::ByoYomi { period_ms, .. } => {
                if elapsed <= c.remaining_ms {
                    c.remaining_ms -= elapsed;
                } else {
                    let over = elapsed - c.remaining_ms;
                    c.remaining_ms = 0;
                    let used = u32::try_from(over / period_ms.max(1)).unwrap_or(u32::MAX);
                    c.periods = c.periods.saturating_sub(used);
                }
            }
            TimeControl::Correspondence { .. } => {}
        }
        // Per-move allotments warn afresh each move; whole-game ones once.
        if matches!(
            tc,
            TimeControl::Correspondence { .. } | TimeControl::GameWithMoveCap { .. }
        ) || (matches!(tc, TimeControl::ByoYomi { .. }) && c.remaining_ms == 0)
        {
            c.warned = false;
        }
        self.turn_started_ms = now_ms;
        true
    }

    /// Mark the side to move as warned.
    pub fn mark_warned(&mut self, red: bool) {
        self.side_mut(red).warned = true;
    }

    /// Shift the running turn by a downtime (clocks do not run while the bot is down).
    pub fn shift(&mut self, downtime_ms: u64) {
        self.turn_started_ms = self.turn_started_ms.saturating_add(downtime_ms);
    }

    /// Time left for one side as the players see it at `now_ms` (the side to move is charged
    /// for its running turn).
    #[must_use]
    pub fn display(&self, tc: TimeControl, red: bool, to_move: bool, now_ms: u64) -> String {
        let c = self.side(red);
        let running = if to_move {
            now_ms.saturating_sub(self.turn_started_ms)
        } else {
            0
        };
        match tc {
            TimeControl::None => "–".into(),
            TimeControl::Correspondence { per_move_ms } => {
                if to_move {
                    format_clock(per_move_ms.saturating_sub(running))
                } else {
                    format_clock(per_move_ms)
                }
            }
            TimeControl::ByoYomi { period_ms, .. } => {
                let main = c.remaining_ms.saturating_sub(running);
                if main > 0 || c.periods == 0 {
                    format!(
                        "{} +{}×{}",
                        format_clock(main),
                        c.periods,
                        format_clock(period_ms)
                    )
                } else {
                    let into = running.saturating_sub(c.remaining_ms) % period_ms.max(1);
                    format!("{}×{}", c.periods, format_clock(period_ms - into))
                }
            }
            TimeControl::GameWithMoveCap { per_move_ms, .. } => {
                let total = c.remaining_ms.saturating_sub(running);
                if to_move {
                    let this_move = per_move_ms.saturating_sub(running).min(total);
                    format!("{} ({})", format_clock(total), format_clock(this_move))
                } else {
                    format_clock(total)
                }
            }
            TimeControl::Fischer { .. } => format_clock(c.remaining_ms.saturating_sub(running)),
        }
    }
}

/// `h:mm:ss`, `m:ss`, or `Nd hh:mm` for long clocks.
#[must_use]
pub fn format_clock(ms: u64) -> String {
    let s = ms.div_ceil(1000);
    let (d, h, m, sec) = (s / 86_400, s / 3600 % 24, s / 60 % 60, s % 60);
    if d > 0 {
        format!("{d}d {h:02}:{m:02}")
    } else if h > 0 {
        format!("{h}:{m:02}:{sec:02}")
    } else {
        format!("{m}:{sec:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse_and_print() {
        let cases = [
            ("10+5", "10m+5s"),
            ("5m+3s", "5m+3s"),
            ("20m/1m", "20m/1m"),
            ("10m+3x30s", "10m+3x30s"),
            ("1d", "1d"),
            ("12h", "12h"),
            ("none", "none"),
            ("10", "10m+0s"),
            ("30s", "30s+0s"),
        ];
        for (input, shown) in cases {
            let tc: TimeControl = input.parse().unwrap_or_else(|()| panic!("{input}"));
            assert_eq!(tc.to_string(), shown, "{input}");
            assert_eq!(shown.parse::<TimeControl>(), Ok(tc), "{shown}");
        }
        for bad in [
            "", "abc", "10+", "+5", "0", "10m+3x", "99999d", "1m/0", "5x", "10+5+3",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn fischer_charges_and_adds_the_increment() {
        let tc: TimeControl = "1+2".parse().unwrap();
        let mut c = ClockState::start(tc, 0).unwrap();
        assert!(c.charge_move(tc, true, 10_000));
        assert_eq!(c.red.remaining_ms, 52_000);
        assert_eq!(
            c.reading(tc, false, 10_000),
            ClockReading::Running {
                flag_at_ms: 70_000,
                warn_at_ms: Some(64_000)
            }
        );
        assert_eq!(c.reading(tc, false, 70_000), ClockReading::Flagged);
        assert!(!c.charge_move(tc, false, 70_001));
    }

    #[test]
    fn move_cap_flags_a_slow_move_even_with_time_left() {
        let tc: TimeControl = "20m/1m".parse().unwrap();
        let c = ClockState::start(tc, 0).unwrap();
        assert_eq!(
            c.reading(tc, true, 59_999).clone(),
            ClockReading::Running {
                flag_at_ms: 60_000,
                warn_at_ms: Some(54_000)
            }
        );
        assert_eq!(c.reading(tc, true, 60_000), ClockReading::Flagged);
    }

    #[test]
    fn byo_yomi_uses_up_periods() {
        let tc: TimeControl = "1m+3x10s".parse().unwrap();
        let mut c = ClockState::start(tc, 0).unwrap();
        // 75 s: main time gone, 15 s into the periods: one period used.
        assert!(c.charge_move(tc, true, 75_000));
        assert_eq!((c.red.remaining_ms, c.red.periods), (0, 2));
        c.charge_move(tc, false, 76_000);
        // Within a period the period is kept.
        assert!(c.charge_move(tc, true, 85_000));
        assert_eq!(c.red.periods, 2);
        c.charge_move(tc, false, 86_000);
        assert_eq!(
            c.reading(tc, true, 105_999),
            ClockReading::Running {
                flag_at_ms: 106_000,
                warn_at_ms: Some(105_000)
            }
        );
        assert_eq!(c.reading(tc, true, 106_000), ClockReading::Flagged);
    }

    #[test]
    fn correspondence_and_downtime_shift() {
        let tc: TimeControl = "1d".parse().unwrap();
        let mut c = ClockState::start(tc, 1_000).unwrap();
        c.shift(5_000);
        assert_eq!(
            c.reading(tc, true, 1_000),
            ClockReading::Running {
                flag_at_ms: 86_406_000,
                warn_at_ms: Some(77_766_000)
            }
        );
        assert_eq!(format_clock(86_400_000), "1d 00:00");
        assert_eq!(format_clock(61_000), "1:01");
        assert_eq!(format_clock(3_600_000), "1:00:00");
    }
}
