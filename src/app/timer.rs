//! Clocks in time: one task sleeps until the earliest stored deadline, then settles every
//! deadline that is due (a flag falls exactly once, a warning is sent once, a challenge
//! lapses, an untimed game's absent player is warned and then the game can be claimed).
//! Deadlines live in storage, so a restart rebuilds the schedule; clocks do not run while the
//! bot is down (every deadline moves by the downtime).

use std::sync::Arc;
use std::time::Duration;

use super::chat::{AppResult, Reply};
use super::ctx::{Ctx, Slot};
use super::event::{Event, Raised};
use super::service::Service;
use crate::core::Color;
use crate::game::{Changes, ClockReading, Deadline, DeadlineKind, GameStatus, ALIVE};
use crate::i18n::app::{duration_text, Msg};
use crate::platform::ChannelKey;

/// How often the heartbeat is written.
const HEARTBEAT_MS: u64 = 2_000;
/// How long the ids of handled platform events are kept (Telegram keeps undelivered updates
/// for 24 hours), and how often older ones are forgotten.
const SEEN_KEEP_MS: u64 = 48 * 3_600_000;
const SEEN_PRUNE_EVERY_MS: u64 = 3_600_000;

impl Service {
    /// Write `changes` atomically and durably at once, outside any event (handlers stage
    /// theirs with `Ctx::persist`, committed with their replies); wake the timer when a
    /// deadline was added.
    pub(crate) async fn persist_direct(&self, changes: Changes) -> AppResult<()> {
        let wake = !changes.add_deadlines.is_empty();
        self.storage().persist(changes).await?;
        if wake {
            self.timer_wake.notify_one();
        }
        Ok(())
    }

    /// After a restart: shift every clock and deadline by the time the service was down.
    /// Returns the downtime in milliseconds. On a storage other processes share, clocks
    /// stopped only if every process was down: a process starting while another is alive
    /// shifts nothing, and two starting together shift once (one after the other, under a
    /// lease).
    ///
    /// # Errors
    /// On a storage failure.
    pub async fn recover(&self) -> AppResult<u64> {
        let _alone = self.storage().lease("service:recover").await?;
        let now = self.now();
        if !self.storage().others_alive()?.is_empty() {
            self.storage().beat(now)?;
            tracing::info!("other bot processes are running: clocks ran on, nothing to shift");
            return Ok(0);
        }
        let Some(alive) = self.storage().meta(ALIVE)? else {
            self.storage().beat(now)?;
            return Ok(0);
        };
        let downtime = now.saturating_sub(alive);
        if downtime > 0 {
            let old = self.storage().all_deadlines()?;
            let mut changes = Changes::default();
            for id in self.storage().active_games()? {
                let Some(mut record) = self.storage().game(id)? else {
                    continue;
                };
                // Nor does the time an untimed game's player may stay away.
                let idle = record.idle_after_ms.is_some() || record.first_move_ms.is_some();
                if let Some(t) = record.turn_since_ms.as_mut().filter(|_| idle) {
                    *t = t.saturating_add(downtime);
                }
                if let Some(c) = record.clock.as_mut() {
                    c.shift(downtime);
                }
                if idle || record.clock.is_some() {
                    changes.games.push(record);
                }
            }
            let mut shifted: std::collections::HashMap<ChannelKey, crate::game::ChannelRecord> =
                std::collections::HashMap::new();
            for d in old {
                // A daily puzzle keeps to its hour of the day: one due meanwhile fires now.
                if d.kind == DeadlineKind::PuzzleDaily {
                    continue;
                }
                let mut moved = d.clone();
                moved.at_ms = d.at_ms.saturating_add(downtime);
                if matches!(
                    d.kind,
                    DeadlineKind::TournamentStart | DeadlineKind::TournamentEnd
                ) {
                    // A tournament's start and an arena's end move with the clocks.
                    let record = match shifted.remove(&d.channel) {
                        Some(r) => Some(r),
                        None => self.storage().channel(&d.channel)?,
                    };
                    if let Some(mut ch) = record {
                        if let Some(t) = ch.tournament.as_mut().filter(|t| t.id == d.id) {
                            let at = if d.kind == DeadlineKind::TournamentStart {
                                &mut t.starts_ms
                            } else {
                                &mut t.ends_ms
                            };
                            *at = Some(moved.at_ms);
                        }
                        shifted.insert(d.channel.clone(), ch);
                    }
                }
                if d.kind == DeadlineKind::ChallengeExpiry {
                    // A channel may hold several challenges: each is moved in the one record.
                    let record = match shifted.remove(&d.channel) {
                        Some(r) => Some(r),
                        None => self.storage().channel(&d.channel)?,
                    };
                    if let Some(mut ch) = record {
                        if let Some(c) = ch.challenges_mut().find(|c| c.id == d.id) {
                            c.expires_ms = moved.at_ms;
                        }
                        shifted.insert(d.channel.clone(), ch);
                    }
                }
                changes.remove_deadlines.push(d);
                changes.add_deadlines.push(moved);
            }
            changes.channels.extend(shifted);
            self.storage().persist(changes).await?;
        }
        self.storage().beat(now)?;
        self.storage().flush().await?;
        Ok(downtime)
    }

    /// Run the timer forever: settle due deadlines, sleep until the next, write a heartbeat.
    pub async fn run_timer(self: Arc<Self>) {
        let mut pruned_at = 0;
        let mut fleet = None;
        loop {
            let now = self.now();
            if let Err(e) = self.process_due(now).await {
                tracing::error!(error = %e, "timer: storage failure");
            }
            self.retry_failed();
            if self.storage().shared() {
                self.watch_fleet(&mut fleet).await;
            }
            if now.saturating_sub(pruned_at) >= SEEN_PRUNE_EVERY_MS {
                pruned_at = now;
                match self.storage().forget_seen(now.saturating_sub(SEEN_KEEP_MS)) {
                    Ok(n) if n > 0 => {
                        tracing::debug!(forgotten = n, "old handled events forgotten")
                    }
                    Ok(_) => {}
                    Err(e) => tracing::error!(error = %e, "timer: cannot forget old events"),
                }
            }
            if let Err(e) = self.storage().beat(self.now()) {
                tracing::error!(error = %e, "timer: heartbeat failed");
            } else if let Err(e) = self.storage().flush().await {
                tracing::error!(error = %e, "timer: heartbeat flush failed");
            }
            let next = self
                .storage()
                .next_deadline()
                .ok()
                .flatten()
                .map_or(u64::MAX, |d| d.at_ms);
            let wait = next.saturating_sub(self.now()).clamp(1, HEARTBEAT_MS);
            tokio::select! {
                () = tokio::time::sleep(Duration::from_millis(wait)) => {}
                () = self.timer_wake.notified() => {}
            }
        }
    }

    /// When a process sharing the storage has died since the last look (`fleet`: the others
    /// alive then), the replies it did not deliver and the bot's searches, hints and reviews
    /// it had in hand are taken up here. (Those of processes dead before this one started
    /// were taken up when it opened its outboxes and started the bot; the first look takes
    /// the replies of any that died in between.)
    async fn watch_fleet(&self, fleet: &mut Option<Vec<String>>) {
        let alive = match self.storage().others_alive() {
            Ok(alive) => alive,
            Err(e) => {
                tracing::error!(error = %e, "timer: cannot read the other processes");
                return;
            }
        };
        let gone = fleet.as_ref().map_or(0, |before: &Vec<String>| {
            before.iter().filter(|p| !alive.contains(p)).count()
        });
        if gone > 0 {
            if let Err(e) = self.enter(Event::ProcessGone { gone }).await {
                tracing::error!(error = %e, "timer: cannot take over a stopped process's work");
            }
        } else if fleet.is_none() {
            if let Err(e) = self.adopt_outboxes() {
                tracing::error!(error = %e, "timer: cannot read the outbox");
            }
        }
        *fleet = Some(alive);
    }

    /// What another process sharing the storage left when it stopped: its undelivered replies
    /// and, when the bot plays here, its searches, hints and reviews.
    pub(super) fn take_over(&self) {
        if let Err(e) = self.adopt_outboxes() {
            tracing::error!(error = %e, "timer: cannot read the outbox");
        }
        if self.bot_enabled() {
            self.resume_active_games();
            self.resume_reviews();
        }
    }

    /// Settle every deadline due at `now_ms`; returns how many were acted on.
    ///
    /// # Errors
    /// On a storage failure.
    pub async fn process_due(&self, now_ms: u64) -> AppResult<usize> {
        let due = self.storage().claim_due(now_ms)?;
        let mut acted = 0;
        for deadline in due {
            let channel = deadline.channel.clone();
            let what = Raised::Due { deadline, now_ms };
            let handled = self
                .enter(Event::Raised {
                    channel: &channel,
                    what,
                })
                .await?;
            if !handled.replies.is_empty() {
                acted += 1;
            }
        }
        Ok(acted)
    }
}

/// A deadline fell due: the changes and what is said are committed together (by the router).
/// A stale deadline (the game moved on) says nothing: it is only forgotten.
pub(super) async fn due(ctx: &Ctx<'_>, slot: &mut Slot, d: &Deadline) -> AppResult<Vec<Reply>> {
    let mut changes = Changes::default();
    changes.remove_deadlines.push(d.clone());
    let replies = match d.kind {
        DeadlineKind::ChallengeExpiry => lapse(ctx, slot, d, &mut changes).await?,
        DeadlineKind::Flag => flag(ctx, slot, d, &mut changes).await?,
        DeadlineKind::FirstMove => {
            let replies = super::endings::no_first_move(ctx, slot, d.id).await?;
            if !replies.is_empty() {
                // The game's deadlines, this one among them, were removed with it.
                changes = Changes::default();
            }
            replies
        }
        DeadlineKind::Warn => warn(ctx, slot, d, &mut changes).await?,
        DeadlineKind::IdleWarn | DeadlineKind::IdleClaim => idle(ctx, slot, d)
            .map(|m| vec![ctx.say(m)])
            .unwrap_or_default(),
        DeadlineKind::PuzzleDaily => super::puzzle::daily_due(ctx, slot, d, &mut changes).await?,
        DeadlineKind::TournamentStart
        | DeadlineKind::TournamentEnd
        | DeadlineKind::TournamentRound => {
            super::tournament::due(ctx, slot, d, &mut changes).await?
        }
    };
    // The deadline's own changes come first, then what the handlers staged.
    changes.absorb(ctx.take_staged());
    ctx.persist(changes).await?;
    Ok(replies)
}

/// A challenge nobody accepted in time lapses (its buttons go).
async fn lapse(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    d: &Deadline,
    changes: &mut Changes,
) -> AppResult<Vec<Reply>> {
    let Some(c) = slot
        .record
        .challenge
        .clone()
        .filter(|c| c.id == d.id && c.expires_ms <= ctx.now)
    else {
        return Ok(Vec::new());
    };
    let mut record = slot.record.clone();
    record.challenge = None;
    let s = &mut **slot;
    ctx.store_record(
        &mut s.record,
        record,
        s.game.as_ref(),
        std::mem::take(changes),
    )
    .await?;
    Ok(vec![ctx.say(Msg::ChallengeExpired {
        challenger: c.challenger.name,
    })])
}

/// The side to move ran out of time: the game ends, once (as when a command finds the flag
/// down first).
async fn flag(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    d: &Deadline,
    changes: &mut Changes,
) -> AppResult<Vec<Reply>> {
    if slot.game.as_ref().is_none_or(|g| g.record.id != d.id) {
        return Ok(Vec::new());
    }
    let replies = super::endings::settle_flag(ctx, slot).await?;
    if !replies.is_empty() {
        // The game's deadlines, this one among them, were removed with it.
        *changes = Changes::default();
    }
    Ok(replies)
}

/// 10% of the side to move's time is left: they are told, once.
async fn warn(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    d: &Deadline,
    changes: &mut Changes,
) -> AppResult<Vec<Reply>> {
    let Some(g) = slot.game.as_ref().filter(|g| g.record.id == d.id) else {
        return Ok(Vec::new());
    };
    let red = g.to_move() == Color::Red;
    let Some(clock) = g.record.clock else {
        return Ok(Vec::new());
    };
    let ClockReading::Running {
        flag_at_ms,
        warn_at_ms: Some(w),
    } = clock.reading(g.record.time_control, red, ctx.now)
    else {
        return Ok(Vec::new());
    };
    if w > ctx.now || g.record.status != GameStatus::Active {
        return Ok(Vec::new());
    }
    let mut game = g.clone();
    if let Some(c) = game.record.clock.as_mut() {
        c.mark_warned(red);
    }
    changes.games.push(game.record.clone());
    ctx.persist(std::mem::take(changes)).await?;
    let player = game.player(game.to_move()).name.clone();
    slot.game = Some(game);
    Ok(vec![ctx.say(Msg::TimeWarning {
        player,
        left: crate::game::format_clock(flag_at_ms.saturating_sub(ctx.now)),
    })])
}

/// Untimed games: the absent side to move is told before the game can be claimed, then the
/// waiting side is told it may claim it. Only a deadline the game still has counts (a move
/// since then replaced it).
fn idle(ctx: &Ctx<'_>, slot: &Slot, d: &Deadline) -> Option<Msg> {
    let g = slot.game.as_ref().filter(|g| g.deadlines().contains(d))?;
    let claim_at = g.idle_claim_at()?;
    let absent = g.player(g.to_move()).name.clone();
    let waiting = g.player(g.to_move().other()).name.clone();
    let since = g.record.turn_since_ms.unwrap_or(claim_at);
    Some(match d.kind {
        DeadlineKind::IdleWarn => Msg::IdleWarning {
            absent,
            waiting,
            idle: duration_text(ctx.now.saturating_sub(since), ctx.lang),
            left: duration_text(claim_at.saturating_sub(ctx.now), ctx.lang),
        },
        _ => Msg::IdleClaimable {
            absent,
            waiting,
            idle: duration_text(ctx.now.saturating_sub(since), ctx.lang),
        },
    })
}
