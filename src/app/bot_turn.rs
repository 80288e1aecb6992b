//! The bot at the table: its identity in a game, and its turn as an unsolicited event.
//!
//! The bot's move is produced the way a timer event is (`super::super::timer`): nobody asked
//! for it in the message that triggers it, so it is settled under the channel's lock on its own,
//! and its changes and what it says are committed together to the outbox, as a timer event's
//! are (nothing it decided is lost in a crash). When the bot is to move in an active game, a
//! [`Job::Play`] goes to the [`ThinkingPool`]; its result is played through the same code as a
//! human's move, if the game is still where it was when the job was submitted.
//!
//! Nothing about a search is stored: the job is derived from the stored game (the bot is to
//! move and the game is active), so after a restart [`Service::run_bot`] finds every such game
//! and thinks again.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::Notify;

use super::bot::runtime::{BotRuntime, Search};
use super::bot::{
    accepts_draw, bot_side, conduct, vet, Conduct, Job, Memory, Outcome, ThinkingPool,
};
use super::chat::{AppResult, Reply};
use super::ctx::{Ctx, Slot};
use super::event::{Event, Raised};
use super::service::Service;
use crate::core::Color;
use crate::engine::Clock;
use crate::game::{ClockReading, Game, TimeControl};
use crate::platform::ChannelKey;
use crate::uci::player::Played;

/// The table of the spare pool's one engine (a service without the bot), in megabytes.
const SPARE_HASH_MB: usize = 8;

/// The clock the bot thinks on: what is left of its time for this move, capped at `cap`
/// (a cap alone reads as a byo-yomi period: the engine then uses nearly all of it).
fn bot_clock(game: &Game, bot: Color, now: u64, cap: Option<u64>) -> Option<Clock> {
    let tc = game.record.time_control;
    let left = game
        .record
        .clock
        .as_ref()
        .map(|c| c.reading(tc, bot == Color::Red, now))
        .and_then(|r| match r {
            ClockReading::Running { flag_at_ms, .. } if flag_at_ms != u64::MAX => {
                Some(flag_at_ms.saturating_sub(now))
            }
            ClockReading::Running { .. } => None,
            ClockReading::Flagged => Some(0),
        });
    let increment_ms = match tc {
        TimeControl::Fischer { increment_ms, .. } => increment_ms,
        _ => 0,
    };
    match (left, cap) {
        (Some(l), Some(c)) if c < l => Some(Clock {
            remaining_ms: 0,
            increment_ms: 0,
            byoyomi_ms: c,
            moves_to_go: None,
        }),
        (Some(l), _) => Some(Clock {
            remaining_ms: l,
            increment_ms,
            byoyomi_ms: 0,
            moves_to_go: None,
        }),
        (None, Some(c)) => Some(Clock {
            remaining_ms: 0,
            increment_ms: 0,
            byoyomi_ms: c,
            moves_to_go: None,
        }),
        (None, None) => None,
    }
}

impl Service {
    /// Let the bot play in this service, thinking on `pool`; `move_cap_ms` bounds every bot
    /// move. Call once, before [`Service::run_bot`]; later calls are ignored.
    pub fn attach_bot(&self, pool: Arc<ThinkingPool>, move_cap_ms: Option<u64>) {
        let _ = self.bot.set(BotRuntime {
            pool,
            move_cap_ms: move_cap_ms.filter(|&ms| ms > 0),
            in_flight: Mutex::new(HashMap::new()),
            due: Mutex::new(BTreeSet::new()),
            failed: Mutex::new(BTreeSet::new()),
            wake: Notify::new(),
        });
    }

    /// Work whose result could not be stored (the bot's move, a hint, a review) is started
    /// again: called on every tick of the timer ([`Service::run_timer`]).
    pub(crate) fn retry_failed(&self) {
        self.analysis.retry_failed();
        if let Some(rt) = self.bot.get() {
            rt.retry_failed();
        }
    }

    /// The thinking pool and the cap on a bot move (hints and reviews run on the same pool).
    pub(crate) fn engine_pool(&self) -> Option<(Arc<ThinkingPool>, Option<u64>)> {
        self.bot
            .get()
            .map(|rt| (Arc::clone(&rt.pool), rt.move_cap_ms))
    }

    /// Whether the bot's search for `game` as it stands is queued or running here: its clock
    /// does not run while its job waits for a thread (it is charged with its search alone), so
    /// its flag does not fall meanwhile; the move it plays is checked against its clock.
    pub(crate) fn bot_thinking(&self, game: &Game) -> bool {
        self.bot.get().is_some_and(|rt| {
            bot_side(game).is_some_and(|(c, _)| c == game.to_move())
                && rt
                    .lock_flight()
                    .get(&lane(&game.record.channel, game.record.id))
                    == Some(&(game.record.id, game.record.moves.len()))
        })
    }

    /// The pool every engine job runs on: the bot's, or in a service without the bot (tests,
    /// tools) one thread of its own, started when first needed.
    pub(crate) fn thinking_pool(&self) -> Arc<ThinkingPool> {
        match self.bot.get() {
            Some(rt) => Arc::clone(&rt.pool),
            None => Arc::clone(self.spare_pool.get_or_init(|| {
                let engines = crate::uci::EngineConfig {
                    hash_mb: SPARE_HASH_MB,
                    ..crate::uci::EngineConfig::default()
                };
                Arc::new(ThinkingPool::new(
                    1,
                    Arc::new(crate::uci::player::Player::new(&engines)),
                ))
            })),
        }
    }

    /// Whether the bot can be played here.
    #[must_use]
    pub fn bot_enabled(&self) -> bool {
        self.bot.get().is_some()
    }

    /// After anything happened in `channel` (its games now `games`, the bot's among them): if
    /// the bot is to move in one, make sure it thinks; stop a search that no longer applies
    /// (the game ended, a move was taken back). The bot may play several games in a chat,
    /// each searched in its own lane.
    pub(crate) fn bot_watch<'g>(
        &self,
        channel: &ChannelKey,
        games: impl Iterator<Item = &'g Game>,
    ) {
        let Some(rt) = self.bot.get() else {
            return;
        };
        let mut wanted = HashMap::new();
        let mut due = false;
        for g in games.filter(|g| g.is_active() && bot_side(g).is_some()) {
            // A takeback the human asked of the bot is answered at once.
            due |= takeback_asked(g);
            if bot_side(g).is_some_and(|(c, _)| c == g.to_move()) {
                wanted.insert(g.record.id, (g.record.id, g.record.moves.len()));
            }
        }
        let stale: Vec<String> = {
            let flight = rt.lock_flight();
            flight
                .iter()
                .filter(|(key, search)| {
                    **key == lane(channel, search.0) && wanted.get(&search.0) != Some(*search)
                })
                .map(|(key, _)| key.clone())
                .collect()
        };
        for key in stale {
            rt.pool.cancel(&key);
            rt.lock_flight().remove(&key);
        }
        let flight = rt.lock_flight();
        due |= wanted
            .values()
            .any(|w| flight.get(&lane(channel, w.0)) != Some(w));
        drop(flight);
        if due {
            rt.mark_due(channel);
        }
    }

    /// Run the bot forever: first every stored game where it is to move (after a restart),
    /// then each channel [`Service::bot_watch`] marks.
    pub async fn run_bot(self: Arc<Self>) {
        if self.bot.get().is_none() {
            return;
        }
        self.resume_active_games();
        // Hints and reviews run on the same pool, from their own loop, in this task: stopping
        // the bot stops them too (and lets go of the service).
        tokio::join!(Arc::clone(&self).run_analysis(), self.run_bot_moves());
    }

    /// After a restart, one pass over the active games: the bot thinks where it is to move,
    /// and a hint asked for and not posted is searched again. (Also when a process sharing
    /// the storage died: what it was searching is searched here.)
    pub(crate) fn resume_active_games(&self) {
        let ids = match self.storage().active_games() {
            Ok(ids) => ids,
            Err(e) => {
                tracing::error!(error = %e, "bot: cannot list the active games");
                return;
            }
        };
        for id in ids {
            let Some(game) = self
                .storage()
                .game(id)
                .ok()
                .flatten()
                .and_then(|r| Game::from_record(r).ok())
            else {
                continue;
            };
            let channel = &game.record.channel;
            // One of the bot's games (the others there may be people's): the channel is looked
            // at, all its bot games with it.
            if bot_side(&game).is_some() {
                if let Some(rt) = self.bot.get() {
                    rt.mark_due(channel);
                }
            }
            if let Ok(Some(c)) = self.storage().channel(channel) {
                if c.hint_for(id).is_some() {
                    self.analysis
                        .due(crate::app::analysis::Work::Hint(channel.clone(), id));
                }
            }
        }
    }

    /// The bot's own moves (see [`Service::run_bot`]).
    async fn run_bot_moves(self: Arc<Self>) {
        let Some(rt) = self.bot.get() else {
            return;
        };
        loop {
            let due = std::mem::take(&mut *rt.due.lock().unwrap_or_else(PoisonError::into_inner));
            for channel in due {
                if let Err(e) = Arc::clone(&self).bot_think(&channel).await {
                    tracing::error!(%channel, error = %e, "bot: storage failure, tried again shortly");
                    rt.retry_later(&channel);
                }
            }
            tokio::select! {
                () = rt.wake.notified() => {}
                () = tokio::time::sleep(Duration::from_secs(60)) => {}
            }
        }
    }

    /// Submit the bot's search in each of its games in `channel` where it is to move and none
    /// runs.
    async fn bot_think(self: Arc<Self>, channel: &ChannelKey) -> AppResult<()> {
        let ids: Vec<u64> = {
            let slot = self.manager.lock(channel).await?;
            slot.games()
                .filter(|g| bot_side(g).is_some())
                .map(|g| g.record.id)
                .collect()
        };
        for id in ids {
            Arc::clone(&self).bot_think_in(channel, id).await?;
        }
        Ok(())
    }

    /// [`Service::bot_think`] for the bot's game `id` in `channel`.
    async fn bot_think_in(self: Arc<Self>, channel: &ChannelKey, id: u64) -> AppResult<()> {
        let Some(rt) = self.bot.get() else {
            return Ok(());
        };
        let mut slot = self.manager.lock(channel).await?;
        slot.select(Some(id));
        if let Some(game) = slot.game.as_ref().filter(|g| takeback_asked(g)) {
            // Answered as its own event (the router takes the channel), then looked at again.
            let what = Raised::TakebackAsked {
                game: game.record.id,
            };
            drop(slot);
            self.enter(Event::Raised { channel, what }).await?;
            slot = self.manager.lock(channel).await?;
            slot.select(Some(id));
        }
        let Some(game) = slot
            .game
            .as_ref()
            .filter(|g| g.is_active() && g.record.id == id)
        else {
            return Ok(());
        };
        let Some((bot, level)) = bot_side(game).filter(|(c, _)| *c == game.to_move()) else {
            return Ok(());
        };
        let search = (game.record.id, game.record.moves.len());
        let key = lane(channel, id);
        {
            let mut flight = rt.lock_flight();
            if flight.get(&key) == Some(&search) {
                return Ok(());
            }
            flight.insert(key.clone(), search);
        }
        // Processes sharing the storage: one of them searches (the one that claims it).
        let Some(claim) = self.storage().claim_work(&format!("bot:{key}")).await? else {
            let mut flight = rt.lock_flight();
            if flight.get(&key) == Some(&search) {
                flight.remove(&key);
            }
            return Ok(());
        };
        let job = Job::Play {
            game: game.arbiter.clone(),
            level,
            clock: bot_clock(game, bot, self.now(), rt.move_cap_ms),
            seed: search.0.wrapping_mul(1_000_003) ^ search.1 as u64,
        };
        // The bot's move is queued for the person it plays, in their turn.
        let human = game.player(bot.other()).id.clone();
        drop(slot);
        let ticket = rt.pool.submit(&human, &key, job);
        let channel = channel.clone();
        tokio::spawn(async move {
            let out = ticket.timed_result().await;
            let moved = self.bot_move(&channel, search, out).await;
            drop(claim);
            if let Err(e) = moved {
                tracing::error!(%channel, error = %e, "bot: storage failure, tried again shortly");
                if let Some(rt) = self.bot.get() {
                    rt.retry_later(&channel);
                }
            }
        });
        Ok(())
    }

    /// The bot's search for `search` in `channel` came back: forget it, and play its move
    /// through the router if it was not cancelled.
    async fn bot_move(
        &self,
        channel: &ChannelKey,
        search: Search,
        out: Option<(Outcome, u64)>,
    ) -> AppResult<()> {
        let Some(rt) = self.bot.get() else {
            return Ok(());
        };
        {
            let key = lane(channel, search.0);
            let mut flight = rt.lock_flight();
            if flight.get(&key) == Some(&search) {
                flight.remove(&key);
            }
        }
        let Some((Outcome::Searched(played), searched_ms)) = out else {
            return Ok(()); // cancelled: whoever cancelled it decides what comes next
        };
        let what = Raised::BotMoved {
            search,
            played: Box::new(played),
            searched_ms,
        };
        self.enter(Event::Raised { channel, what }).await?;
        Ok(())
    }
}

/// Play the bot's searched move if the game is still at `search` (its board goes to the
/// channel as an unsolicited message), or resign, or take the human's draw, as its conduct
/// says.
pub(crate) async fn moved(
    ctx: &mut Ctx<'_>,
    slot: &mut Slot,
    search: Search,
    played: Played,
    searched_ms: u64,
) -> AppResult<Vec<Reply>> {
    let Some(game) = slot
        .game
        .as_ref()
        .filter(|g| g.is_active() && (g.record.id, g.record.moves.len()) == search)
    else {
        return Ok(Vec::new()); // the game moved on while the bot thought
    };
    let Some((bot, level)) = bot_side(game).filter(|(c, _)| *c == game.to_move()) else {
        return Ok(Vec::new());
    };
    let Some(mv) = vet(&game.arbiter, played.result.best) else {
        tracing::error!(channel = %ctx.channel, "bot: no move to play in an active game");
        return Ok(Vec::new());
    };
    let ply = game.record.moves.len();
    let human_offered = game.record.draw_offer == Some(bot.other());
    let opponent_ms = game
        .record
        .clock
        .as_ref()
        .filter(|_| game.record.time_control != TimeControl::None)
        .map(|c| c.side(bot.other() == Color::Red).remaining_ms);
    // The bot's memory lives in the game record: it is written with this move (or
    // resignation, or draw), in the same transaction, and survives a restart.
    ctx.user = game.player(bot).clone();
    let mut memory = Memory::from_stored(game.record.bot_memory.as_ref());
    if let Some(line) = played.result.lines.first() {
        memory.evals.push(line.score);
    }
    let decision = conduct(
        level,
        ply,
        &memory,
        opponent_ms,
        game.record.draw_offer.is_some(),
    );
    if decision == Conduct::PlayAndOfferDraw {
        memory.last_offer_ply = Some(ply);
    }
    let now = ctx.now;
    if let Some(g) = slot.game.as_mut() {
        g.record.bot_memory = Some(memory.to_stored());
        // The bot's clock is charged with its own search alone: the time its job waited
        // for a thread (and for the channel since) is given back.
        if let Some(c) = g.record.clock.as_mut() {
            c.turn_started_ms = c.turn_started_ms.max(now.saturating_sub(searched_ms));
        }
    }
    let ctx = &*ctx;
    // Over its own time even so: its flag falls now, the move is not played.
    let flagged = crate::app::endings::settle_flag(ctx, slot).await?;
    if !flagged.is_empty() {
        return Ok(flagged);
    }
    if human_offered && accepts_draw(ply, &memory) {
        crate::app::endings::draw(ctx, slot).await
    } else if decision == Conduct::Resign {
        crate::app::endings::resign(ctx, slot).await
    } else {
        let mut r = crate::app::play::bot_plays(ctx, slot, mv).await?;
        if decision == Conduct::PlayAndOfferDraw && slot.game.is_some() {
            r.extend(crate::app::endings::draw(ctx, slot).await?);
        }
        Ok(r)
    }
}

/// Whether the human asked the bot to take back a move.
fn takeback_asked(game: &Game) -> bool {
    bot_side(game).is_some_and(|(bot, _)| game.record.takeback_request == Some(bot.other()))
}

/// The bot allows the takeback its opponent asked for (takebacks are always allowed against
/// it, when the game allows them at all), answering in the channel; whatever it was thinking
/// about is gone, and it looks at the game again.
pub(crate) async fn answer_takeback(ctx: &mut Ctx<'_>, slot: &mut Slot) -> AppResult<Vec<Reply>> {
    let Some(game) = slot.game.as_ref().filter(|g| takeback_asked(g)) else {
        return Ok(Vec::new());
    };
    let Some((bot, _)) = bot_side(game) else {
        return Ok(Vec::new());
    };
    ctx.user = game.player(bot).clone();
    let key = lane(ctx.channel, game.record.id);
    let replies = crate::app::endings::takeback(ctx, slot).await?;
    if let Some(rt) = ctx.svc.bot.get() {
        rt.pool.cancel(&key);
        rt.lock_flight().remove(&key);
    }
    Ok(replies)
}

/// The thinking pool's lane (and the key of the search in flight) of the bot's game `game`
/// in `channel`: each of its games in a chat is searched on its own.
fn lane(channel: &str, game: u64) -> String {
    format!("{channel} game {game}")
}
