//! Clocks in time: one task sleeps until the earliest stored deadline, then settles every
//! deadline that is due (a flag falls exactly once, a warning is sent once, a challenge
//! lapses). Deadlines live in storage, so a restart rebuilds the schedule; clocks do not run
//! while the bot is down (every deadline moves by the downtime).

use std::sync::Arc;
use std::time::Duration;

use super::ctx::{channel_lang, finished_replies, Ctx};
use super::{AppResult, Incoming, Outgoing, Reply, Service};
use crate::arbiter::Outcome;
use crate::core::Color;
use crate::game::{Changes, ClockReading, Deadline, DeadlineKind, Game, GameStatus};
use crate::i18n::app::{text, Msg};

/// Heartbeat key in the metadata tree.
const ALIVE: &str = "alive_ms";
/// How often the heartbeat is written.
const HEARTBEAT_MS: u64 = 2_000;

impl Service {
    /// Write `changes` atomically and make them durable before anyone is told; wake the
    /// timer when a deadline was added.
    pub(crate) async fn persist(&self, changes: Changes) -> AppResult<()> {
        let wake = !changes.add_deadlines.is_empty();
        self.storage().persist(changes).await?;
        if wake {
            self.timer_wake.notify_one();
        }
        Ok(())
    }

    /// After a restart: shift every clock and deadline by the time the service was down.
    /// Returns the downtime in milliseconds.
    ///
    /// # Errors
    /// On a storage failure.
    pub async fn recover(&self) -> AppResult<u64> {
        let now = self.now();
        let Some(alive) = self.storage().meta(ALIVE)? else {
            self.storage().set_meta(ALIVE, now)?;
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
                if let Some(c) = record.clock.as_mut() {
                    c.shift(downtime);
                    changes.games.push(record);
                }
            }
            for d in old {
                let mut moved = d.clone();
                moved.at_ms = d.at_ms.saturating_add(downtime);
                if d.kind == DeadlineKind::ChallengeExpiry {
                    if let Some(mut ch) = self.storage().channel(&d.channel)? {
                        if let Some(c) = ch.challenge.as_mut().filter(|c| c.id == d.id) {
                            c.expires_ms = moved.at_ms;
                            changes.channels.push((d.channel.clone(), ch));
                        }
                    }
                }
                changes.remove_deadlines.push(d);
                changes.add_deadlines.push(moved);
            }
            self.storage().persist(changes).await?;
        }
        self.storage().set_meta(ALIVE, now)?;
        self.storage().flush().await?;
        Ok(downtime)
    }

    /// Run the timer forever: settle due deadlines, sleep until the next, write a heartbeat.
    pub async fn run_timer(self: Arc<Self>) {
        loop {
            let now = self.now();
            if let Err(e) = self.process_due(now).await {
                tracing::error!(error = %e, "timer: storage failure");
            }
            if let Err(e) = self.storage().set_meta(ALIVE, self.now()) {
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

    /// Settle every deadline due at `now_ms`; returns how many were acted on.
    ///
    /// # Errors
    /// On a storage failure.
    pub async fn process_due(&self, now_ms: u64) -> AppResult<usize> {
        let due = self.storage().due_deadlines(now_ms)?;
        let mut acted = 0;
        for d in due {
            let replies = self.settle(&d, now_ms).await?;
            if !replies.is_empty() {
                acted += 1;
                self.send_out(Outgoing {
                    channel: d.channel.clone(),
                    replies,
                });
            }
        }
        Ok(acted)
    }

    async fn settle(&self, d: &Deadline, now_ms: u64) -> AppResult<Vec<Reply>> {
        let mut slot = self.manager.lock(&d.channel).await?;
        let inc = Incoming {
            channel: d.channel.clone(),
            ..Incoming::default()
        };
        let lang = channel_lang(&slot.record, &inc);
        let ctx = Ctx {
            svc: self,
            inc: &inc,
            lang,
            notation: super::default_notation(lang),
            notation_chosen: false,
            now: now_ms,
        };
        let mut changes = Changes::default();
        changes.remove_deadlines.push(d.clone());
        let mut replies = Vec::new();
        match d.kind {
            DeadlineKind::ChallengeExpiry => {
                if let Some(c) = slot
                    .record
                    .challenge
                    .clone()
                    .filter(|c| c.id == d.id && c.expires_ms <= now_ms)
                {
                    let mut record = slot.record.clone();
                    record.challenge = None;
                    changes.channels.push((d.channel.clone(), record.clone()));
                    self.persist(changes).await?;
                    slot.record = record;
                    return Ok(vec![Reply::text(text(
                        &Msg::ChallengeExpired {
                            challenger: c.challenger.name,
                        },
                        lang,
                    ))]);
                }
            }
            DeadlineKind::Flag => {
                if let Some(g) = slot
                    .game
                    .as_ref()
                    .filter(|g| g.record.id == d.id && g.flagged(now_ms))
                {
                    let loser = g.to_move();
                    let mut game: Game = g.clone();
                    changes.remove_deadlines.extend(game.deadlines());
                    game.finish(Outcome::loss_for(loser), "timeout", now_ms);
                    let mut record = slot.record.clone();
                    record.active_game = None;
                    changes.games.push(game.record.clone());
                    changes.channels.push((d.channel.clone(), record.clone()));
                    self.persist(changes).await?;
                    slot.record = record;
                    slot.game = None;
                    replies =
                        finished_replies(&ctx, &game, Vec::new(), None, Some(loser.other())).await;
                    return Ok(replies);
                }
            }
            DeadlineKind::Warn => {
                if let Some(g) = slot.game.as_ref().filter(|g| g.record.id == d.id) {
                    let red = g.to_move() == Color::Red;
                    if let Some(clock) = g.record.clock {
                        if let ClockReading::Running {
                            flag_at_ms,
                            warn_at_ms: Some(w),
                        } = clock.reading(g.record.time_control, red, now_ms)
                        {
                            if w <= now_ms && g.record.status == GameStatus::Active {
                                let mut game = g.clone();
                                if let Some(c) = game.record.clock.as_mut() {
                                    c.mark_warned(red);
                                }
                                changes.games.push(game.record.clone());
                                self.persist(changes).await?;
                                let player = game.player(game.to_move()).name.clone();
                                slot.game = Some(game);
                                return Ok(vec![Reply::text(text(
                                    &Msg::TimeWarning {
                                        player,
                                        left: crate::game::format_clock(
                                            flag_at_ms.saturating_sub(now_ms),
                                        ),
                                    },
                                    lang,
                                ))]);
                            }
                        }
                    }
                }
            }
        }
        // Stale (the game moved on): just forget the deadline.
        self.storage().persist(changes).await?;
        Ok(replies)
    }
}
