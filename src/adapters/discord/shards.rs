//! Discord shards across processes: `DISCORD_SHARDS=FIRST-LAST/TOTAL` runs shards FIRST to
//! LAST (both included) of TOTAL in this process; which process registers the slash commands
//! (`DISCORD_REGISTER_COMMANDS`); and how long a process waits before its first identify so
//! that the processes of one bot, started together, identify one after another.
//!
//! Discord sends a guild's events (messages, interactions, GUILD_CREATE) on shard
//! `(guild_id >> 22) % TOTAL`, and direct messages on shard 0, so every process serves the
//! guilds of its own shards and nothing else.
//!
//! Pacing: Discord allows `max_concurrency` identifies per 5 seconds (`GET /gateway/bot`),
//! one per bucket `shard_id % max_concurrency`, and answers a faster one with an invalid
//! session. serenity 0.12's shard queuer starts the shards of one client one at a time, 5
//! seconds apart, whatever `max_concurrency` allows — within the limit for every bot, if
//! slower than a large bot could go. Across processes nothing coordinates them, so a process
//! whose range begins at shard FIRST waits FIRST × [`IDENTIFY_SLOT`] first: processes started
//! together identify in shard order, one every 5 s, as a single process would.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serenity::all::Http;
use tokio::sync::watch;

/// The time one identify takes in the fleet's start-up order: Discord's 5-second window and
/// half a second of margin for the network.
pub const IDENTIFY_SLOT: Duration = Duration::from_millis(5_500);

/// The shards one process runs: `first..=last` of `total`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardRange {
    first: u32,
    last: u32,
    total: u32,
}

impl ShardRange {
    /// Shards `first..=last` of `total`; `None` unless `first <= last < total`.
    #[must_use]
    pub fn new(first: u32, last: u32, total: u32) -> Option<ShardRange> {
        (first <= last && last < total).then_some(ShardRange { first, last, total })
    }

    /// The first shard of the range.
    #[must_use]
    pub fn first(self) -> u32 {
        self.first
    }

    /// The last shard of the range (included).
    #[must_use]
    pub fn last(self) -> u32 {
        self.last
    }

    /// How many shards the whole bot runs.
    #[must_use]
    pub fn total(self) -> u32 {
        self.total
    }

    /// How many shards this process runs.
    #[must_use]
    pub fn len(self) -> u32 {
        self.last - self.first + 1
    }

    /// Never: a range holds at least one shard (for clippy's `len` rule).
    #[must_use]
    pub fn is_empty(self) -> bool {
        false
    }

    /// Whether this process runs `shard`.
    #[must_use]
    pub fn contains(self, shard: u32) -> bool {
        (self.first..=self.last).contains(&shard)
    }
}

impl fmt::Display for ShardRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}/{}", self.first, self.last, self.total)
    }
}

/// Why a `DISCORD_SHARDS` value is refused (the message names the setting).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardRangeError(pub String);

impl fmt::Display for ShardRangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ShardRangeError {}

impl FromStr for ShardRange {
    type Err = ShardRangeError;

    /// `FIRST-LAST/TOTAL` (`0-1/4`), or `SHARD/TOTAL` for a single shard (`3/4`).
    fn from_str(s: &str) -> Result<ShardRange, ShardRangeError> {
        let shown: String = s.chars().take(40).collect();
        let bad = |why: &str| {
            ShardRangeError(format!(
                "DISCORD_SHARDS must be FIRST-LAST/TOTAL (for example 0-1/4): {why}, not {shown:?}"
            ))
        };
        let number = |part: &str, name: &str| -> Result<u32, ShardRangeError> {
            let part = part.trim();
            if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad(&format!("{name} is not a whole number")));
            }
            part.parse()
                .map_err(|_| bad(&format!("{name} is too large")))
        };
        let (range, total) = s.split_once('/').ok_or_else(|| bad("no /TOTAL"))?;
        let total = number(total, "TOTAL")?;
        let (first, last) = match range.split_once('-') {
            Some((a, b)) => (number(a, "FIRST")?, number(b, "LAST")?),
            None => {
                let one = number(range, "the shard")?;
                (one, one)
            }
        };
        if total == 0 {
            return Err(bad("TOTAL must be at least 1"));
        }
        if first > last {
            return Err(bad("FIRST is after LAST"));
        }
        if last >= total {
            return Err(bad("shards are numbered from 0 to TOTAL-1"));
        }
        ShardRange::new(first, last, total).ok_or_else(|| bad("not a range"))
    }
}

/// `DISCORD_REGISTER_COMMANDS`: which process registers the slash commands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RegisterCommands {
    /// The process that runs shard 0 (every process without `DISCORD_SHARDS` runs it).
    #[default]
    Auto,
    /// This process, whatever shards it runs.
    Always,
    /// Never this process (another one, or a deploy script, does).
    Never,
}

impl FromStr for RegisterCommands {
    type Err = ShardRangeError;

    fn from_str(s: &str) -> Result<RegisterCommands, ShardRangeError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(RegisterCommands::Auto),
            "always" | "on" | "yes" | "1" | "true" => Ok(RegisterCommands::Always),
            "never" | "off" | "no" | "0" | "false" => Ok(RegisterCommands::Never),
            _ => Err(ShardRangeError(format!(
                "DISCORD_REGISTER_COMMANDS must be auto, always or never, not {:?}",
                s.chars().take(40).collect::<String>()
            ))),
        }
    }
}

/// Whether this process registers the slash commands: with `auto`, the one running shard 0.
#[must_use]
pub fn registers_commands(mode: RegisterCommands, shards: Option<ShardRange>) -> bool {
    match mode {
        RegisterCommands::Always => true,
        RegisterCommands::Never => false,
        RegisterCommands::Auto => shards.is_none_or(|r| r.contains(0)),
    }
}

/// What `GET /gateway/bot` says about starting sessions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StartLimit {
    /// Identifies left in the current (daily) period.
    pub remaining: u64,
    /// Milliseconds until `remaining` is back to the full count.
    pub reset_after_ms: u64,
}

/// How long this process waits before its first identify: its place in the fleet's order
/// (FIRST × [`IDENTIFY_SLOT`]), or until the daily session-start limit resets when fewer
/// identifies remain than this process needs (Discord resets the token of a bot that goes
/// past it).
#[must_use]
pub fn start_delay(range: ShardRange, limit: Option<StartLimit>) -> Duration {
    let place = IDENTIFY_SLOT.saturating_mul(range.first());
    match limit {
        Some(l) if l.remaining < u64::from(range.len()) => {
            place.max(Duration::from_millis(l.reset_after_ms))
        }
        _ => place,
    }
}

/// Wait for this process's turn to identify (see [`start_delay`]), reading the session-start
/// limit from `GET /gateway/bot`. Returns false when `stop` turned true meanwhile.
pub(super) async fn wait_for_turn(
    http: &Http,
    range: ShardRange,
    stop: &mut watch::Receiver<bool>,
) -> bool {
    let limit = match http.get_bot_gateway().await {
        Ok(g) => {
            let l = g.session_start_limit;
            tracing::info!(
                shards = %range,
                recommended = g.shards,
                max_concurrency = l.max_concurrency,
                remaining = l.remaining,
                "Discord shards of this process"
            );
            if g.shards > range.total() {
                tracing::warn!(
                    total = range.total(),
                    recommended = g.shards,
                    "Discord recommends more shards than DISCORD_SHARDS gives"
                );
            }
            Some(StartLimit {
                remaining: l.remaining,
                reset_after_ms: l.reset_after,
            })
        }
        Err(e) => {
            tracing::warn!(error = %e, "cannot read the session-start limit; pacing by shard order only");
            None
        }
    };
    let delay = start_delay(range, limit);
    if delay.is_zero() {
        return !*stop.borrow();
    }
    tracing::info!(seconds = delay.as_secs_f64(), shards = %range, "waiting for this process's turn to identify");
    tokio::select! {
        () = tokio::time::sleep(delay) => true,
        _ = stop.wait_for(|s| *s) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn good_values() {
        let r: ShardRange = "0-1/4".parse().unwrap();
        assert_eq!((r.first(), r.last(), r.total(), r.len()), (0, 1, 4, 2));
        assert_eq!(
            "3/4".parse::<ShardRange>().unwrap(),
            ShardRange::new(3, 3, 4).unwrap()
        );
        assert_eq!(
            " 2 - 3 / 4 ".parse::<ShardRange>().unwrap(),
            ShardRange::new(2, 3, 4).unwrap()
        );
        assert_eq!("0-0/1".parse::<ShardRange>().unwrap().to_string(), "0-0/1");
        assert!(r.contains(0) && r.contains(1) && !r.contains(2));
    }

    #[test]
    fn bad_values_are_named() {
        for (value, why) in [
            ("", "no /TOTAL"),
            ("0-1", "no /TOTAL"),
            ("0-1/0", "at least 1"),
            ("2-1/4", "FIRST is after LAST"),
            ("0-4/4", "0 to TOTAL-1"),
            ("4/4", "0 to TOTAL-1"),
            ("a-1/4", "FIRST is not a whole number"),
            ("0-b/4", "LAST is not a whole number"),
            ("0-1/x", "TOTAL is not a whole number"),
            ("-1-1/4", "FIRST is not a whole number"),
            ("0-1/99999999999", "TOTAL is too large"),
            ("0--1/4", "LAST is not a whole number"),
            ("0-1/4/8", "TOTAL is not a whole number"),
        ] {
            let e = value.parse::<ShardRange>().unwrap_err().to_string();
            assert!(e.starts_with("DISCORD_SHARDS must be"), "{value}: {e}");
            assert!(e.contains(why), "{value}: {e}");
        }
        let long = "9".repeat(500);
        let e = long.parse::<ShardRange>().unwrap_err().to_string();
        assert!(e.len() < 200, "the value shown is bounded: {e}");
    }

    #[test]
    fn register_once_rule() {
        let r = |s: &str| Some(s.parse::<ShardRange>().unwrap());
        assert!(
            registers_commands(RegisterCommands::Auto, None),
            "unsharded"
        );
        assert!(registers_commands(RegisterCommands::Auto, r("0-0/2")));
        assert!(registers_commands(RegisterCommands::Auto, r("0-3/4")));
        assert!(!registers_commands(RegisterCommands::Auto, r("1-1/2")));
        assert!(registers_commands(RegisterCommands::Always, r("1-1/2")));
        assert!(!registers_commands(RegisterCommands::Never, r("0-0/2")));
        assert!(!registers_commands(RegisterCommands::Never, None));
        assert_eq!("AUTO".parse(), Ok(RegisterCommands::Auto));
        assert_eq!("never".parse(), Ok(RegisterCommands::Never));
        assert!("sometimes".parse::<RegisterCommands>().is_err());
    }

    #[test]
    fn processes_take_their_turn_and_respect_the_daily_limit() {
        let r = |s: &str| s.parse::<ShardRange>().unwrap();
        let plenty = Some(StartLimit {
            remaining: 999,
            reset_after_ms: 60_000,
        });
        assert_eq!(start_delay(r("0-1/4"), plenty), Duration::ZERO);
        assert_eq!(start_delay(r("2-3/4"), plenty), IDENTIFY_SLOT * 2);
        assert_eq!(start_delay(r("1-1/2"), None), IDENTIFY_SLOT);
        let spent = Some(StartLimit {
            remaining: 1,
            reset_after_ms: 60_000,
        });
        assert_eq!(start_delay(r("0-1/2"), spent), Duration::from_secs(60));
        assert_eq!(start_delay(r("1-1/2"), spent), IDENTIFY_SLOT);
    }

    proptest! {
        #[test]
        fn parse_never_panics_and_round_trips(s in ".{0,24}") {
            if let Ok(r) = s.parse::<ShardRange>() {
                prop_assert!(r.first() <= r.last() && r.last() < r.total());
                prop_assert_eq!(r.to_string().parse::<ShardRange>(), Ok(r));
            }
        }

        #[test]
        fn valid_ranges_round_trip(total in 1u32..5000, a in 0u32..5000, b in 0u32..5000) {
            let (first, last) = (a.min(b) % total, a.max(b) % total);
            let text = format!("{first}-{last}/{total}");
            match text.parse::<ShardRange>() {
                Ok(r) => prop_assert_eq!((r.first(), r.last(), r.total()), (first, last, total)),
                Err(e) => prop_assert!(first > last, "{}: {}", text, e),
            }
        }
    }
}
