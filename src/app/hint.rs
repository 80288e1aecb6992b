//! `/hint`: the engine's best move for the player to move, drawn as an arrow on the board and
//! written in their notation; `/hints on|off`: whether games between people here may ask.
//!
//! Hints are always allowed against the bot, in games between people only where the channel
//! allows them, never in rated games, and only to the player to move. The request is stored
//! with the channel ([`HintAsk`]) and answered at once; the hint follows as its own message
//! when the pool returns it ([`super::analysis`]), unless a move was made meanwhile.

use super::analysis::{pool_key, Work};
use super::bot::{bot_side, vet, Job, Outcome};
use super::chat::{default_notation, AppResult, Reply};
use super::ctx::{Ctx, Slot};
use super::event::{Event, Raised};
use super::service::Service;
use crate::engine::Limits;
use crate::game::{Changes, Game, HintAsk, PlayerRef};
use crate::i18n::analysis::{text, AnalysisMsg};
use crate::notation::{format_move, Notation};
use crate::platform::ChannelKey;

/// Longest a hint thinks (less when bot moves are capped shorter: tests, small machines).
pub const HINT_MS: u64 = 2_000;
/// Most nodes a hint searches.
pub const HINT_NODES: u64 = 2_000_000;

fn private(ctx: &Ctx<'_>, m: &AnalysisMsg) -> Reply {
    ctx.private_analysis(m)
}

/// Whether `ask` is still the question for `game` (no move since).
fn current(game: &Game, ask: &HintAsk) -> bool {
    game.is_active() && game.record.id == ask.game && game.record.moves.len() == ask.ply
}

/// `/hint`.
pub(crate) async fn hint(ctx: &Ctx<'_>, slot: &mut Slot) -> AppResult<Vec<Reply>> {
    let Some(game) = slot.game.as_ref().filter(|g| g.is_active()) else {
        return Ok(vec![private(ctx, &AnalysisMsg::HintNoGame)]);
    };
    let Some(me) = game.color_of(&ctx.user.id) else {
        return Ok(vec![private(ctx, &AnalysisMsg::HintNotPlaying)]);
    };
    if me != game.to_move() {
        return Ok(vec![private(ctx, &AnalysisMsg::HintNotYourTurn)]);
    }
    if game.record.rated {
        return Ok(vec![private(ctx, &AnalysisMsg::HintRated)]);
    }
    // Fixed at the game's start; records from before that follow the channel.
    let allowed = game.record.hints.unwrap_or(slot.record.settings.hints);
    if bot_side(game).is_none() && !allowed {
        return Ok(vec![private(ctx, &AnalysisMsg::HintsOffHere)]);
    }
    if ctx.svc.engine_pool().is_none() {
        return Ok(vec![private(ctx, &AnalysisMsg::NoEngine)]);
    }
    if slot
        .record
        .hint_for(game.record.id)
        .is_some_and(|a| current(game, a))
    {
        return Ok(vec![private(ctx, &AnalysisMsg::HintBusy)]);
    }
    let ask = HintAsk {
        game: game.record.id,
        ply: game.record.moves.len(),
        user: ctx.user.id.clone(),
        notation: ctx.notation.name().to_string(),
    };
    let id = ask.game;
    let game = slot.game.clone();
    let mut record = slot.record.clone();
    // Each game of the chat may have its hint searched at once.
    record.put_hint(ask);
    ctx.store_record(&mut slot.record, record, game.as_ref(), Changes::default())
        .await?;
    // The job starts once this command is committed (it waits for the channel).
    ctx.svc.analysis.due(Work::Hint(ctx.channel.clone(), id));
    Ok(vec![Reply::text(text(
        &AnalysisMsg::HintThinking,
        ctx.lang,
    ))])
}

/// `/hints on|off` (no word: tell the setting).
pub(crate) async fn hints(ctx: &Ctx<'_>, slot: &mut Slot, args: &str) -> AppResult<Vec<Reply>> {
    let on = match args.trim().to_lowercase().as_str() {
        "on" | "yes" | "true" | "bật" | "bat" | "开" | "開" => true,
        "off" | "no" | "false" | "tắt" | "tat" | "关" | "關" => false,
        _ => slot.record.settings.hints,
    };
    if on != slot.record.settings.hints {
        if let Some(refusal) = ctx.may_not_configure("/hints") {
            return Ok(vec![refusal]);
        }
        let game = slot.game.clone();
        let mut record = slot.record.clone();
        record.settings.hints = on;
        ctx.store_record(&mut slot.record, record, game.as_ref(), Changes::default())
            .await?;
    }
    Ok(vec![Reply::text(text(
        &AnalysisMsg::HintsSet { on },
        ctx.lang,
    ))])
}

/// The search limits of a hint when bot moves are capped at `cap` ms.
fn limits(cap: Option<u64>) -> Limits {
    Limits {
        nodes: Some(HINT_NODES),
        movetime_ms: Some(cap.map_or(HINT_MS, |c| c.clamp(1, HINT_MS))),
        ..Limits::default()
    }
}

impl Service {
    /// Search the hint asked for in game `id` of `channel` and post it (or drop it if a move
    /// came first).
    pub(crate) async fn hint_job(&self, channel: &ChannelKey, id: u64) -> AppResult<()> {
        let Some((pool, cap)) = self.engine_pool() else {
            return Ok(());
        };
        let (ask, arbiter) = {
            let slot = self.manager.lock(channel).await?;
            let Some(ask) = slot.record.hint_for(id).cloned() else {
                return Ok(());
            };
            let arbiter = slot
                .games()
                .find(|g| current(g, &ask))
                .map(|g| g.arbiter.clone());
            match arbiter {
                Some(a) => (ask, a),
                None => {
                    drop(slot);
                    return self.hint_done(channel, &ask, None).await;
                }
            }
        };
        let job = Job::Hint {
            game: arbiter,
            limits: limits(cap),
        };
        match pool
            .submit(&ask.user, &pool_key(channel, &format!("hint {id}")), job)
            .result()
            .await
        {
            Some(Outcome::Searched(played)) => {
                self.hint_done(channel, &ask, Some(played.result.best))
                    .await
            }
            // Stopped (the pool is shutting down): asked again after the restart.
            _ => Ok(()),
        }
    }

    /// The hint `ask` came back with `best` (or was dropped: `None`): through the router.
    async fn hint_done(
        &self,
        channel: &ChannelKey,
        ask: &HintAsk,
        best: Option<Option<crate::core::Move>>,
    ) -> AppResult<()> {
        let what = Raised::HintReady {
            ask: ask.clone(),
            best,
        };
        self.enter(Event::Raised { channel, what }).await?;
        Ok(())
    }

    /// The board with the hint's arrow, seen from the player who asked.
    async fn hint_board(
        &self,
        ctx: &Ctx<'_>,
        game: &Game,
        ask: &HintAsk,
        mv: crate::core::Move,
    ) -> Reply {
        let notation: Notation = ask
            .notation
            .parse()
            .unwrap_or_else(|_| default_notation(ctx.lang));
        let caption = text(
            &AnalysisMsg::Hint {
                player: ctx.user.name.clone(),
                mv: format_move(game.position(), mv, notation),
                iccs: mv.to_string(),
            },
            ctx.lang,
        );
        let viewer = game.color_of(&ask.user).unwrap_or_else(|| game.to_move());
        let mut reply = self
            .board_reply(game, viewer, caption, Vec::new(), ctx.lang)
            .await;
        if let Some(d) = reply.image.as_mut().and_then(|i| i.drawing.as_mut()) {
            d.arrows = vec![(mv, crate::render::ArrowStyle::Hint)];
        }
        if let Some(i) = reply.image.as_mut() {
            i.filename = format!("hint-{}-{}.png", game.record.id, game.record.moves.len());
        }
        reply
    }
}

/// Forget `ask` and, if the game is still where it was, post `best` (`Some(None)`: the engine
/// found nothing), in the name of the player who asked.
pub(super) async fn ready(
    ctx: &mut Ctx<'_>,
    slot: &mut Slot,
    ask: &HintAsk,
    best: Option<Option<crate::core::Move>>,
) -> AppResult<Vec<Reply>> {
    if slot.record.hint_for(ask.game) != Some(ask) {
        return Ok(Vec::new());
    }
    let game = slot.game.clone();
    ctx.user = game
        .as_ref()
        .and_then(|g| g.color_of(&ask.user).map(|c| g.player(c).clone()))
        .unwrap_or_else(|| PlayerRef::new(ask.user.clone(), ""));
    let ctx = &*ctx;
    let mut record = slot.record.clone();
    record.drop_hint(ask.game);
    ctx.store_record(&mut slot.record, record, game.as_ref(), Changes::default())
        .await?;
    let mut replies = Vec::new();
    if let (Some(best), Some(g)) = (best, game.as_ref().filter(|g| current(g, ask))) {
        replies.push(match vet(&g.arbiter, best) {
            Some(mv) => ctx.svc.hint_board(ctx, g, ask, mv).await,
            None => ctx.say_analysis(&AnalysisMsg::HintNone),
        });
    }
    Ok(replies)
}

impl Ctx<'_> {
    /// A message about hints or reviews for the channel, in its language.
    pub(crate) fn say_analysis(&self, m: &AnalysisMsg) -> Reply {
        Reply::text(text(m, self.lang))
    }

    /// A refusal of the acting user's hint or review request: only they see it, in their
    /// language.
    pub(crate) fn private_analysis(&self, m: &AnalysisMsg) -> Reply {
        Reply::private(text(m, self.reader))
    }
}
