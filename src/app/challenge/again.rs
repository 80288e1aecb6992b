//! Games that follow from others, or from a tap: the bot named as the opponent (a word, or a
//! mention of the bot itself), the *Play the bot* button (under `/help` and a finished game),
//! and *Rematch* under a finished game — the same opponent, colours swapped: the bot starts at
//! once at the same level, a person gets a challenge to accept.

use super::{
    channel_ruleset, is_bot_word, live_challenge, post_challenge, rating_refusal, say_rating,
    start_game, Terms,
};
use crate::app::bot::{bot_level, bot_player, LEVELS};
use crate::app::chat::{AppResult, Reply};
use crate::app::ctx::{Ctx, Slot};
use crate::core::Position;
use crate::game::{Challenge, ColorChoice, GameStatus, TimeControl};
use crate::i18n::app::Msg;
use crate::i18n::ratings::RatingMsg;
use crate::platform::UserKey;
use crate::rating::refusal;

/// Whether `word` of `/play` names the bot: `bot` (in any of the languages), or a mention the
/// adapter recognised as the bot itself (`@XiangqiBot`, `<@id>`).
pub(super) fn names_bot(ctx: &Ctx<'_>, word: &str) -> bool {
    is_bot_word(word)
        || ctx
            .mentions()
            .iter()
            .any(|(token, p)| token == word && bot_level(p).is_some())
}

/// Start a game between the acting user and the bot at `level`, at once.
pub(super) async fn start_bot(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    level: u8,
    human_red: bool,
    terms: Terms,
) -> AppResult<Vec<Reply>> {
    let max = ctx.svc.config.bot_games_per_user;
    if bot_games_of(ctx, &ctx.user.id)? >= max {
        return Ok(vec![ctx.private(Msg::TooManyBotGames { max })]);
    }
    let bot = bot_player(level, ctx.lang);
    let me = ctx.user.clone();
    // The ratings decide: the bot's id carries the prefix they reserve, so this refuses.
    let refused = refusal(
        terms.time_control.pace(),
        terms.ruleset.as_str(),
        terms.start.is_some(),
        [&me.id, &bot.id],
    );
    if let Some(why) = refused.filter(|_| terms.rated) {
        return Ok(vec![say_rating(ctx, RatingMsg::CannotRate { why })]);
    }
    let sides = if human_red { (me, bot) } else { (bot, me) };
    let terms = Terms {
        rated: terms.rated && refused.is_none(),
        ..terms
    };
    let board = start_game(ctx, slot, sides, terms, None).await?;
    Ok(vec![board])
}

/// A person's latest games looked at for their games against the bot in play.
const LATEST_GAMES: usize = 1_000;

/// Games against the bot `user` is playing now, in any channel (among their latest
/// [`LATEST_GAMES`]). Threads cost nothing on Discord: without a cap one person could keep any
/// number of bot games thinking at once.
fn bot_games_of(ctx: &Ctx<'_>, user: &UserKey) -> AppResult<usize> {
    let storage = ctx.svc.storage();
    let active: std::collections::HashSet<u64> = storage.active_games()?.into_iter().collect();
    let mut n = 0;
    for id in storage
        .games_of(user, LATEST_GAMES)?
        .into_iter()
        .filter(|id| active.contains(id))
    {
        if storage.game(id)?.is_some_and(|r| {
            r.status == GameStatus::Active
                && (bot_level(&r.red).is_some() || bot_level(&r.black).is_some())
        }) {
            n += 1;
        }
    }
    Ok(n)
}

/// The private answer to a button that would start a game while the channel has one, or a
/// challenge waiting.
fn busy(ctx: &Ctx<'_>, slot: &Slot) -> Option<Reply> {
    if let Some(g) = slot.game.as_ref() {
        return Some(ctx.private(Msg::GameInProgress {
            red: g.record.red.name.clone(),
            black: g.record.black.name.clone(),
        }));
    }
    live_challenge(slot, ctx.now).map(|c| {
        ctx.private(Msg::ChallengePending {
            challenger: c.challenger.name,
        })
    })
}

/// *Play the bot*: anyone in the channel starts an untimed game against the bot at `level`
/// under the channel's ruleset, colours drawn by lot.
pub(crate) async fn play_bot_button(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    level: u8,
) -> AppResult<Vec<Reply>> {
    if !LEVELS.contains(&level) {
        return Ok(vec![ctx.private(Msg::StaleButton)]);
    }
    if !ctx.svc.bot_enabled() {
        return Ok(vec![ctx.private(Msg::BotUnavailable)]);
    }
    if let Some(r) = busy(ctx, slot) {
        return Ok(vec![r]);
    }
    let human_red = ((ctx.now / 1000) ^ slot.record.last_game.unwrap_or(0)).is_multiple_of(2);
    let terms = Terms {
        time_control: TimeControl::None,
        ruleset: channel_ruleset(&slot.record),
        start: None,
        rated: false,
    };
    start_bot(ctx, slot, level, human_red, terms).await
}

/// *Rematch* under finished game `game_id`: only its players may press it. Against the bot
/// the new game starts at once, at the same level; against a person it is a challenge
/// addressed to them. Same clock, ruleset and start, colours swapped.
pub(crate) async fn rematch(ctx: &Ctx<'_>, slot: &mut Slot, game_id: u64) -> AppResult<Vec<Reply>> {
    let old = ctx
        .svc
        .storage()
        .game(game_id)?
        .filter(|r| r.channel == *ctx.channel && r.status != GameStatus::Active);
    let Some(old) = old else {
        return Ok(vec![ctx.private(Msg::StaleButton)]);
    };
    let me_red = if old.red.id == ctx.user.id {
        true
    } else if old.black.id == ctx.user.id {
        false
    } else {
        return Ok(vec![ctx.private(Msg::NotYourButton)]);
    };
    if let Some(r) = busy(ctx, slot) {
        return Ok(vec![r]);
    }
    let opponent = if me_red { old.black } else { old.red };
    if let Some(level) = bot_level(&opponent) {
        if !ctx.svc.bot_enabled() {
            return Ok(vec![ctx.private(Msg::BotUnavailable)]);
        }
        let terms = Terms {
            time_control: old.time_control,
            ruleset: old.ruleset,
            start: old
                .start_fen
                .as_deref()
                .and_then(|f| Position::from_fen(f).ok()),
            rated: false,
        };
        return start_bot(ctx, slot, level, !me_red, terms).await;
    }
    let mut c = Challenge {
        id: 0,
        challenger: ctx.user.clone(),
        opponent: Some(opponent),
        time_control: old.time_control,
        ruleset: old.ruleset,
        color: if me_red {
            ColorChoice::Black
        } else {
            ColorChoice::Red
        },
        start_fen: old.start_fen,
        expires_ms: ctx.now + ctx.svc.config.challenge_ttl_ms,
        rated: false,
        lang: Some(ctx.lang.code().to_string()),
    };
    // A rated game is asked for again; accepting the challenge is the agreement.
    c.rated = old.rated && rating_refusal(&c).is_none();
    post_challenge(ctx, slot, c).await
}
