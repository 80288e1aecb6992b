//! Time control: turning [`Limits`] into a soft deadline (do not start another iteration) and a
//! hard one (abort the search), plus the depth and node caps.

use std::time::{Duration, Instant};

use super::Limits;

/// Kept back from every clock budget for the reply to travel.
const OVERHEAD_MS: u64 = 15;
/// Moves assumed left in the game when the clock does not say.
const DEFAULT_MOVES_TO_GO: u64 = 28;

/// The deadlines and caps of one search.
#[derive(Clone, Debug)]
pub(crate) struct TimeControl {
    pub start: Instant,
    /// After an iteration: stop when this much time has passed.
    pub soft: Option<Duration>,
    /// Abort the search at this time.
    pub hard: Option<Duration>,
    pub nodes: Option<u64>,
    pub depth: u32,
}

impl TimeControl {
    /// Deadlines for `limits`, starting now.
    pub(crate) fn new(limits: &Limits, max_depth: u32) -> TimeControl {
        let mut soft: Option<u64> = None;
        let mut hard: Option<u64> = None;
        let cap = |s: &mut Option<u64>, v: u64| *s = Some(s.map_or(v, |x| x.min(v)));
        if let Some(mt) = limits.movetime_ms {
            // A fixed time is meant to be used: iterate until the hard deadline.
            let t = mt.saturating_sub(OVERHEAD_MS.min(mt / 10)).max(1);
            cap(&mut hard, t);
        }
        if let Some(c) = &limits.clock {
            let (s, h) = clock_budget(c.remaining_ms, c.increment_ms, c.byoyomi_ms, c.moves_to_go);
            cap(&mut soft, s);
            cap(&mut hard, h);
        }
        if let Some(mc) = limits.move_cap_ms {
            let t = mc.saturating_sub(OVERHEAD_MS.min(mc / 10)).max(1);
            cap(&mut hard, t);
            cap(&mut soft, t);
        }
        if let (Some(s), Some(h)) = (soft, hard) {
            soft = Some(s.min(h));
        }
        TimeControl {
            start: Instant::now(),
            soft: soft.map(Duration::from_millis),
            hard: hard.map(Duration::from_millis),
            nodes: limits.nodes,
            depth: limits.depth.map_or(max_depth, |d| d.clamp(1, max_depth)),
        }
    }

    /// Milliseconds since the start.
    pub(crate) fn elapsed_ms(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Whether the search may only stop on a limit that does not depend on the clock.
    pub(crate) fn timed(&self) -> bool {
        self.hard.is_some() || self.soft.is_some()
    }
}

/// `(soft, hard)` milliseconds for a clock: a share of the remaining time over the moves to go
/// plus most of the increment; byo-yomi adds its period (the period alone when the main time is
/// spent). The hard limit allows a few times the share for unstable positions, never more than
/// a safe part of what is left.
pub(crate) fn clock_budget(
    remaining: u64,
    increment: u64,
    byoyomi: u64,
    moves_to_go: Option<u32>,
) -> (u64, u64) {
    let mtg = moves_to_go.map_or(DEFAULT_MOVES_TO_GO, |m| u64::from(m.clamp(1, 80)));
    let byo = byoyomi.saturating_sub(OVERHEAD_MS);
    let usable = remaining.saturating_sub(OVERHEAD_MS);
    if usable == 0 {
        let t = byo.max(increment.saturating_sub(OVERHEAD_MS)).max(1);
        return (t * 7 / 10, t);
    }
    let share = usable / mtg + increment * 3 / 4;
    let soft = (share + byo * 8 / 10).max(1);
    let ceiling = if mtg == 1 {
        usable * 9 / 10
    } else {
        usable / 3
    } + byo;
    let hard = (share * 4 + byo).min(ceiling).max(soft.min(ceiling)).max(1);
    (soft.min(hard), hard)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Clock;

    #[test]
    fn budgets_stay_inside_the_clock() {
        for rem in [0u64, 50, 1_000, 60_000, 600_000] {
            for inc in [0u64, 2_000] {
                for byo in [0u64, 5_000] {
                    for mtg in [None, Some(1), Some(10)] {
                        let (s, h) = clock_budget(rem, inc, byo, mtg);
                        assert!(s <= h, "{rem} {inc} {byo} {mtg:?}");
                        let avail = rem + byo.max(inc);
                        assert!(h <= avail.max(1), "{rem} {inc} {byo} {mtg:?}: {h}");
                    }
                }
            }
        }
        // Ten minutes, no increment: a few per cent of the clock per move.
        let (s, h) = clock_budget(600_000, 0, 0, None);
        assert!((15_000..30_000).contains(&s) && h > s);
        // Byo-yomi only: nearly the whole period.
        let (_, h) = clock_budget(0, 0, 10_000, None);
        assert!((9_000..10_000).contains(&h));
    }

    #[test]
    fn movetime_and_move_cap_set_the_hard_deadline() {
        let l = Limits {
            movetime_ms: Some(1_000),
            ..Limits::default()
        };
        let tc = TimeControl::new(&l, 64);
        assert_eq!(tc.hard, Some(Duration::from_millis(985)));
        assert!(tc.soft.is_none());
        let l = Limits {
            clock: Some(Clock {
                remaining_ms: 600_000,
                increment_ms: 0,
                byoyomi_ms: 0,
                moves_to_go: None,
            }),
            move_cap_ms: Some(2_000),
            ..Limits::default()
        };
        let tc = TimeControl::new(&l, 64);
        assert!(tc.hard.unwrap() <= Duration::from_millis(2_000));
        assert!(tc.soft.unwrap() <= tc.hard.unwrap());
        let l = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        let tc = TimeControl::new(&l, 64);
        assert!(!tc.timed());
        assert_eq!(tc.depth, 5);
    }
}
