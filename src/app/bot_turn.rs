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

use super::policy::{accepts_draw, conduct, vet, Conduct, Memory};
use super::pool::{Job, Outcome, ThinkingPool};
use crate::app::ctx::{Ctx, Slot};
use crate::app::{AppResult, Incoming, Reply, Service};
use crate::core::Color;
use crate::engine::Clock;
use crate::game::{ClockReading, Game, PlayerRef, TimeControl};
use crate::i18n::app::{text, Msg};
use crate::i18n::Lang;
use crate::rating::BOT_ID_PREFIX;

/// What follows the ratings' reserved prefix in the bot's player ids: `bot:level3` (so a game
/// against the bot is never rated, by the same test the ratings use).
const LEVEL_WORD: &str = "level";

/// Levels players can choose.
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=8;

/// The level `/play bot` uses when none is given.
pub const DEFAULT_LEVEL: u8 = 3;

/// The bot at `level` as a player, named in `lang`.
#[must_use]
pub fn bot_player(level: u8, lang: Lang) -> PlayerRef {
    PlayerRef::new(
        format!("{BOT_ID_PREFIX}{LEVEL_WORD}{level}"),
        &text(&Msg::BotName { level }, lang),
    )
}

/// The bot's own account as a player, for adapters: a mention of the bot itself (`@XiangqiBot`
/// on Telegram, the bot's user on Discord) stands for this in [`crate::app::Incoming::mentions`],
/// and `/play` with it starts a game against the bot (at [`DEFAULT_LEVEL`] unless a level
/// follows).
#[must_use]
pub fn bot_itself() -> PlayerRef {
    bot_player(DEFAULT_LEVEL, Lang::En)
}

/// The level of `p` if `p` is the bot.
#[must_use]
pub fn bot_level(p: &PlayerRef) -> Option<u8> {
    p.id.strip_prefix(BOT_ID_PREFIX)?
        .strip_prefix(LEVEL_WORD)?
        .parse()
        .ok()
        .filter(|l| LEVELS.contains(l))
}

/// The bot's colour and level in `game`, if it plays in it.
#[must_use]
pub fn bot_side(game: &Game) -> Option<(Color, u8)> {
    [Color::Red, Color::Black]
        .into_iter()
        .find_map(|c| bot_level(game.player(c)).map(|l| (c, l)))
}

/// The table of the spare pool's one engine (a service without the bot), in megabytes.
const SPARE_HASH_MB: usize = 8;

/// Where one channel's search stands: the game and the ply it searches for.
type Search = (u64, usize);

/// The bot's side of the service: the pool, the searches in flight, the channels to look at.
pub(crate) struct BotRuntime {
    pool: Arc<ThinkingPool>,
    /// `BOT_MOVE_CAP_MS`: no bot move takes longer than this (tests, small machines).
    move_cap_ms: Option<u64>,
    in_flight: Mutex<HashMap<String, Search>>,
    due: Mutex<BTreeSet<String>>,
    /// Channels where the bot's move could not be stored: looked at again on the timer.
    failed: Mutex<BTreeSet<String>>,
    wake: Notify,
}

impl BotRuntime {
    fn lock_flight(&self) -> std::sync::MutexGuard<'_, HashMap<String, Search>> {
        self.in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    fn mark_due(&self, channel: &str) {
        self.due
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(channel.to_string());
        self.wake.notify_one();
    }

    /// The bot's turn in `channel` failed to be stored: nothing else would start it again
    /// before the human's next command, so the timer does ([`Service::retry_failed`]).
    fn retry_later(&self, channel: &str) {
        self.failed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(channel.to_string());
    }

    /// Make the channels whose bot move failed due again.
    pub(crate) fn retry_failed(&self) {
        let failed =
            std::mem::take(&mut *self.failed.lock().unwrap_or_else(PoisonError::into_inner));
        for channel in failed {
            self.mark_due(&channel);
        }
    }
}

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
                && rt.lock_flight().get(&game.record.channel)
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

    /// After anything happened in `channel` (its game now `game`): if the bot is to move,
    /// make sure it thinks; if not, stop a search that no longer applies (the game ended, a
    /// move was taken back).
    pub(crate) fn bot_watch(&self, channel: &str, game: Option<&Game>) {
        let Some(rt) = self.bot.get() else {
            return;
        };
        // A takeback the human asked of the bot is answered at once.
        if game.is_some_and(|g| g.is_active() && takeback_asked(g)) {
            rt.mark_due(channel);
        }
        let wanted = game
            .filter(|g| g.is_active())
            .and_then(|g| bot_side(g).filter(|(c, _)| *c == g.to_move()).map(|_| g))
            .map(|g| (g.record.id, g.record.moves.len()));
        let running = rt.lock_flight().get(channel).copied();
        match (wanted, running) {
            (Some(w), Some(r)) if w == r => {}
            (Some(_), running) => {
                if running.is_some() {
                    rt.pool.cancel(channel);
                    rt.lock_flight().remove(channel);
                }
                rt.mark_due(channel);
            }
            (None, Some(_)) => {
                rt.pool.cancel(channel);
                rt.lock_flight().remove(channel);
            }
            (None, None) => {}
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
            self.bot_watch(channel, Some(&game));
            if let Ok(Some(c)) = self.storage().channel(channel) {
                if c.hint.is_some_and(|h| h.game == id) {
                    self.analysis
                        .due(crate::app::analysis::Work::Hint(channel.clone()));
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

    /// Submit the bot's search in `channel` if the bot is to move there and none runs.
    async fn bot_think(self: Arc<Self>, channel: &str) -> AppResult<()> {
        let Some(rt) = self.bot.get() else {
            return Ok(());
        };
        let mut slot = self.manager.lock(channel).await?;
        if slot.game.as_ref().is_some_and(takeback_asked) {
            self.bot_answers_takeback(channel, &mut slot).await?;
        }
        let Some(game) = slot.game.as_ref().filter(|g| g.is_active()) else {
            return Ok(());
        };
        let Some((bot, level)) = bot_side(game).filter(|(c, _)| *c == game.to_move()) else {
            return Ok(());
        };
        let search = (game.record.id, game.record.moves.len());
        {
            let mut flight = rt.lock_flight();
            if flight.get(channel) == Some(&search) {
                return Ok(());
            }
            flight.insert(channel.to_string(), search);
        }
        // Processes sharing the storage: one of them searches (the one that claims it).
        let Some(claim) = self.storage().claim_work(&format!("bot:{channel}")).await? else {
            let mut flight = rt.lock_flight();
            if flight.get(channel) == Some(&search) {
                flight.remove(channel);
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
        let ticket = rt.pool.submit(&human, channel, job);
        let channel = channel.to_string();
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

    /// Play the bot's searched move in `channel` if the game is still at `search`, and send
    /// the board to the channel as an unsolicited message.
    async fn bot_move(
        &self,
        channel: &str,
        search: Search,
        out: Option<(Outcome, u64)>,
    ) -> AppResult<()> {
        let Some(rt) = self.bot.get() else {
            return Ok(());
        };
        {
            let mut flight = rt.lock_flight();
            if flight.get(channel) == Some(&search) {
                flight.remove(channel);
            }
        }
        let Some((Outcome::Searched(played), searched_ms)) = out else {
            return Ok(()); // cancelled: whoever cancelled it decides what comes next
        };
        let mut slot = self.manager.lock(channel).await?;
        let Some(game) = slot
            .game
            .as_ref()
            .filter(|g| g.is_active() && (g.record.id, g.record.moves.len()) == search)
        else {
            return Ok(()); // the game moved on while the bot thought
        };
        let Some((bot, level)) = bot_side(game).filter(|(c, _)| *c == game.to_move()) else {
            return Ok(());
        };
        let Some(mv) = vet(&game.arbiter, played.result.best) else {
            tracing::error!(%channel, "bot: no move to play in an active game");
            return Ok(());
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
        let me = game.player(bot).clone();
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
        let now = self.now();
        if let Some(g) = slot.game.as_mut() {
            g.record.bot_memory = Some(memory.to_stored());
            // The bot's clock is charged with its own search alone: the time its job waited
            // for a thread (and for the channel since) is given back.
            if let Some(c) = g.record.clock.as_mut() {
                c.turn_started_ms = c.turn_started_ms.max(now.saturating_sub(searched_ms));
            }
        }
        let inc = Incoming {
            channel: channel.to_string(),
            user: me,
            ..Incoming::default()
        };
        let ctx = Ctx::unsolicited(self, &inc, &slot, now);
        let acted = async {
            // Over its own time even so: its flag falls now, the move is not played.
            let flagged = crate::app::endings::settle_flag(&ctx, &mut slot).await?;
            if !flagged.is_empty() {
                return Ok(flagged);
            }
            if human_offered && accepts_draw(ply, &memory) {
                crate::app::endings::draw(&ctx, &mut slot).await
            } else if decision == Conduct::Resign {
                crate::app::endings::resign(&ctx, &mut slot).await
            } else {
                let mut r = crate::app::play::bot_plays(&ctx, &mut slot, mv).await?;
                if decision == Conduct::PlayAndOfferDraw && slot.game.is_some() {
                    r.extend(crate::app::endings::draw(&ctx, &mut slot).await?);
                }
                Ok(r)
            }
        }
        .await;
        let mut replies = match acted {
            Ok(r) => r,
            Err(e) => {
                // The slot holds the memory (and maybe more) ahead of storage: reload it.
                slot.loaded = false;
                return Err(e);
            }
        };
        replies.extend(ctx.retired_reply());
        self.bot_commit(&ctx, &mut slot, replies).await
    }

    /// End the bot's event as a timer event ends: what it changed and what it says are
    /// committed together to the outbox (delivered from there; handed straight to the
    /// subscribers only when nothing was stored or no platform opened its outbox).
    async fn bot_commit(
        &self,
        ctx: &Ctx<'_>,
        slot: &mut Slot,
        replies: Vec<Reply>,
    ) -> AppResult<()> {
        self.commit_unsolicited(ctx, slot, replies).await
    }
}

/// Whether the human asked the bot to take back a move.
fn takeback_asked(game: &Game) -> bool {
    bot_side(game).is_some_and(|(bot, _)| game.record.takeback_request == Some(bot.other()))
}

impl Service {
    /// The context of the bot acting in a channel: the channel's language and its usual
    /// notation.
    /// The bot allows the takeback its opponent asked for (takebacks are always allowed
    /// against it, when the game allows them at all), answering in the channel.
    async fn bot_answers_takeback(&self, channel: &str, slot: &mut Slot) -> AppResult<()> {
        let Some((bot, _)) = slot.game.as_ref().and_then(bot_side) else {
            return Ok(());
        };
        let Some(user) = slot.game.as_ref().map(|g| g.player(bot).clone()) else {
            return Ok(());
        };
        let inc = Incoming {
            channel: channel.to_string(),
            user,
            ..Incoming::default()
        };
        let ctx = Ctx::unsolicited(self, &inc, slot, self.now());
        let mut replies = crate::app::endings::takeback(&ctx, slot).await?;
        replies.extend(ctx.retired_reply());
        // Whatever it was thinking about is gone; the caller looks at the game again.
        if let Some(rt) = self.bot.get() {
            rt.pool.cancel(channel);
            rt.lock_flight().remove(channel);
        }
        self.bot_commit(&ctx, slot, replies).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bot_is_known_by_its_id() {
        let p = bot_player(5, Lang::En);
        assert_eq!(p.id, "bot:level5");
        assert!(
            crate::rating::is_bot(&p.id),
            "ratings must see the bot as the bot"
        );
        assert_eq!(bot_level(&p), Some(5));
        assert_eq!(bot_level(&PlayerRef::new("bot:level9", "x")), None);
        assert_eq!(bot_level(&PlayerRef::new("engine:level5", "x")), None);
        assert_eq!(bot_level(&PlayerRef::new("console:alice", "alice")), None);
        for lang in [Lang::Vi, Lang::En, Lang::Zh] {
            assert!(bot_player(2, lang).name.contains('2'));
        }
    }
}
