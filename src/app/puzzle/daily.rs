//! The daily puzzle: `/puzzle daily on [hour]|off` posts the day's puzzle (the same in every
//! channel that day) at a set hour, UTC. The time of the next one is stored as a deadline,
//! like the clocks' flags; unlike them it is not moved by the time the bot was down: a daily
//! puzzle due meanwhile is posted at the restart, and the next one keeps to the hour.

use super::super::ctx::{Ctx, Slot};
use super::{end, set, start};
use crate::app::chat::{AppResult, Reply};
use crate::game::{Changes, DailyPuzzle, Deadline, DeadlineKind};
use crate::i18n::puzzle::PuzzleMsg;
use crate::platform::ChannelKey;

const HOUR_MS: u64 = 3_600_000;
const DAY_MS: u64 = 24 * HOUR_MS;
/// The hour a daily puzzle is posted at when none is given (UTC).
pub(super) const DEFAULT_HOUR: u8 = 8;

/// The first moment after `now_ms` at `hour` o'clock, UTC.
pub(super) fn next_at(now_ms: u64, hour: u8) -> u64 {
    let today = now_ms - now_ms % DAY_MS + u64::from(hour) * HOUR_MS;
    if today > now_ms {
        today
    } else {
        today + DAY_MS
    }
}

fn deadline(channel: &ChannelKey, at_ms: u64) -> Deadline {
    Deadline {
        at_ms,
        id: 0,
        kind: DeadlineKind::PuzzleDaily,
        channel: channel.clone(),
    }
}

/// `/puzzle daily on [hour]` / `off`.
pub(super) async fn configure(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    words: &str,
) -> AppResult<Vec<Reply>> {
    let mut parts = words.split_whitespace();
    let on = match parts.next().map(str::to_lowercase).as_deref() {
        Some("on" | "yes" | "bật" | "bat" | "开" | "開") => true,
        Some("off" | "no" | "tắt" | "tat" | "关" | "關") => false,
        _ => return Ok(vec![ctx.say_puzzle(&PuzzleMsg::DailyUsage)]),
    };
    let hour = match parts.next() {
        None => DEFAULT_HOUR,
        Some(h) => match h
            .trim_end_matches('h')
            .trim_end_matches(":00")
            .parse::<u8>()
        {
            Ok(h) if h < 24 => h,
            _ => return Ok(vec![ctx.say_puzzle(&PuzzleMsg::DailyUsage)]),
        },
    };
    if parts.next().is_some() {
        return Ok(vec![ctx.say_puzzle(&PuzzleMsg::DailyUsage)]);
    }
    if let Some(refusal) = ctx.may_not_configure("/puzzle daily") {
        return Ok(vec![refusal]);
    }
    let channel = ctx.channel;
    let mut changes = Changes::default();
    if let Some(old) = slot.record.settings.puzzle_daily {
        changes
            .remove_deadlines
            .push(deadline(channel, old.next_ms));
    }
    let daily = on.then(|| DailyPuzzle {
        hour,
        next_ms: next_at(ctx.now, hour),
    });
    if let Some(d) = daily {
        changes.add_deadlines.push(deadline(channel, d.next_ms));
    }
    ctx.edit_record(slot, |r| r.settings.puzzle_daily = daily, changes)
        .await?;
    Ok(vec![ctx.say_puzzle(&if on {
        PuzzleMsg::DailyOn { hour }
    } else {
        PuzzleMsg::DailyOff
    })])
}

/// The daily deadline `d` fell: post the day's puzzle (the one under way ends with its
/// solution) and set the next. A deadline the channel no longer has says nothing.
pub(crate) async fn due(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    d: &Deadline,
    changes: &mut Changes,
) -> AppResult<Vec<Reply>> {
    let Some(daily) = slot.record.settings.puzzle_daily else {
        return Ok(Vec::new());
    };
    if daily.next_ms != d.at_ms {
        return Ok(Vec::new());
    }
    let next_ms = next_at(ctx.now, daily.hour);
    let mut now = std::mem::take(changes);
    now.add_deadlines.push(deadline(&d.channel, next_ms));
    let next = DailyPuzzle {
        hour: daily.hour,
        next_ms,
    };
    ctx.edit_record(slot, |r| r.settings.puzzle_daily = Some(next), now)
        .await?;
    let mut replies = end(ctx, slot).await?;
    let day = ctx.now / DAY_MS;
    if let Some(p) = crate::puzzle::select::daily(&set().all, day) {
        replies.push(start(ctx, slot, p, true).await?);
    }
    Ok(replies)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_next_daily_moment_is_later_today_or_tomorrow() {
        let midnight = 20_000 * DAY_MS;
        assert_eq!(next_at(midnight, 8), midnight + 8 * HOUR_MS);
        assert_eq!(
            next_at(midnight + 8 * HOUR_MS, 8),
            midnight + DAY_MS + 8 * HOUR_MS
        );
        assert_eq!(
            next_at(midnight + 9 * HOUR_MS, 8),
            midnight + DAY_MS + 8 * HOUR_MS
        );
        assert_eq!(next_at(midnight + 1, 0), midnight + DAY_MS);
    }
}
