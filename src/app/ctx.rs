//! The context every handler shares: who acts where ([`Ctx`]), the locked channel ([`Slot`]),
//! saving a game, and the replies that several handlers build (captions, the end of a game).
//! Handlers reach each other only through this module and [`super::view`], never by importing
//! one another; the router ([`super::router`]) is the one place that knows every handler.

use tokio::sync::OwnedMutexGuard;

use super::view::{clocks_text, to_move_text};
use super::{AppResult, Incoming, Reply, Service};
use crate::arbiter::{Outcome, Ruling};
use crate::core::Color;
use crate::game::{ChannelRecord, ChannelSlot, Game, GameStatus};
use crate::i18n::app::{text, Msg};
use crate::i18n::arbiter::{explain_ruling, outcome_text};
use crate::i18n::Lang;
use crate::notation::Notation;

/// Everything a handler needs to know about the command being run.
pub(crate) struct Ctx<'a> {
    pub svc: &'a Service,
    pub inc: &'a Incoming,
    pub lang: Lang,
    pub notation: Notation,
    /// Whether the user chose the notation (`/notation`); if not, moves are echoed in the
    /// notation they typed.
    pub notation_chosen: bool,
    pub now: u64,
}

impl Ctx<'_> {
    pub(crate) fn say(&self, m: Msg) -> Reply {
        Reply::text(text(&m, self.lang))
    }

    pub(crate) fn private(&self, m: Msg) -> Reply {
        Reply::private(text(&m, self.lang))
    }

    pub(crate) fn t(&self, m: &Msg) -> String {
        text(m, self.lang)
    }
}

pub(crate) type Slot = OwnedMutexGuard<ChannelSlot>;

/// The channel's language: its `/lang` setting, else the user's client language, else English.
pub(crate) fn channel_lang(record: &ChannelRecord, inc: &Incoming) -> Lang {
    record
        .settings
        .lang
        .as_deref()
        .and_then(Lang::from_tag)
        .or(inc.lang_hint)
        .unwrap_or_default()
}

/// The user's handle as challenges name it (`tg:@name`) and their id, to remember, so that
/// `/rating @name` finds them.
pub(crate) fn handle_alias(ctx: &Ctx<'_>) -> Option<(String, String)> {
    let platform = ctx.inc.channel.split(':').next().unwrap_or("x");
    let handle = ctx.inc.handle.as_deref().filter(|h| !h.is_empty())?;
    let alias = format!("{platform}:@{}", handle.to_lowercase());
    (alias != ctx.inc.user.id).then(|| (alias, ctx.inc.user.id.clone()))
}

/// What the game did to ratings, as lines under its result (nothing for a casual game).
fn rating_lines(ctx: &Ctx<'_>, game: &Game) -> Vec<String> {
    use crate::i18n::ratings::{text, RatingMsg};
    use crate::rating::RatedOutcome;
    let end = match ctx.svc.storage().game_end(game.record.id) {
        Ok(Some(end)) => end,
        Ok(None) => return Vec::new(),
        Err(e) => {
            tracing::error!(game = game.record.id, error = %e, "cannot read a game's rating outcome");
            return Vec::new();
        }
    };
    let m = match end.outcome {
        RatedOutcome::Casual => return Vec::new(),
        RatedOutcome::NotRated { why } => RatingMsg::NotCounted { why },
        RatedOutcome::Rated {
            family,
            weight,
            red,
            black,
        } => RatingMsg::Changes {
            family,
            red: game.record.red.name.clone(),
            red_change: red,
            black: game.record.black.name.clone(),
            black_change: black,
            weight,
        },
    };
    vec![text(&m, ctx.lang)]
}

pub(crate) fn not_your_game(game: &Game) -> Msg {
    Msg::NotYourGame {
        red: game.record.red.name.clone(),
        black: game.record.black.name.clone(),
    }
}

/// Write the game and its channel, moving its deadlines; then keep the new state.
pub(crate) async fn save_game(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    game: Game,
    old_deadlines: &[crate::game::Deadline],
) -> AppResult<()> {
    let mut record = slot.record.clone();
    if !game.is_active() && record.active_game == Some(game.record.id) {
        record.active_game = None;
    }
    let mut changes = crate::game::Changes::default();
    changes.remove_deadlines.extend_from_slice(old_deadlines);
    changes.add_deadlines.extend(game.deadlines());
    changes.games.push(game.record.clone());
    changes
        .channels
        .push((ctx.inc.channel.clone(), record.clone()));
    ctx.svc.persist(changes).await?;
    slot.record = record;
    slot.game = game.is_active().then_some(game);
    Ok(())
}

/// "Red vs Black, after N plies" plus whose turn and the clocks.
pub(crate) fn caption(ctx: &Ctx<'_>, game: &Game) -> String {
    let mut lines = vec![ctx.t(&Msg::BoardCaption {
        red: game.record.red.name.clone(),
        black: game.record.black.name.clone(),
        ply: game.record.moves.len(),
    })];
    if game.is_active() {
        lines.push(to_move_text(game, ctx.lang));
    }
    if let Some(cl) = clocks_text(&game.record, game.to_move(), ctx.now, ctx.lang) {
        lines.push(cl);
    }
    lines.join("\n")
}

/// The headline of a finished game.
pub(crate) fn headline(game: &Game, lang: Lang) -> (String, String) {
    let GameStatus::Finished { result, reason } = &game.record.status else {
        return ("*".into(), String::new());
    };
    let outcome = match result.as_str() {
        "red_wins" => Outcome::RedWins,
        "black_wins" => Outcome::BlackWins,
        _ => Outcome::Draw,
    };
    let loser = outcome
        .loser()
        .map(|c| game.player(c).name.clone())
        .unwrap_or_default();
    let why = match reason.as_str() {
        "resignation" => text(&Msg::Resigned { player: loser }, lang),
        "agreement" => text(&Msg::DrawAgreed, lang),
        "timeout" => text(&Msg::TimeForfeit { player: loser }, lang),
        other => crate::arbiter::Reason::ALL
            .iter()
            .find(|r| r.as_str() == other)
            .map_or_else(
                || other.to_string(),
                |r| crate::i18n::arbiter::reason_text(*r, lang).to_string(),
            ),
    };
    (
        outcome.pgn().to_string(),
        format!(
            "{}{}{why}",
            outcome_text(outcome, lang),
            if lang == Lang::Zh { "：" } else { ": " }
        ),
    )
}

/// The replies at the end of a game: the last move line, the final board, the result with its
/// explanation, and the PGN.
pub(crate) async fn finished_replies(
    ctx: &Ctx<'_>,
    game: &Game,
    mut lines: Vec<String>,
    ruling: Option<&Ruling>,
    viewer: Option<Color>,
) -> Vec<Reply> {
    let (score, head) = headline(game, ctx.lang);
    lines.push(ctx.t(&Msg::GameOver {
        score,
        headline: head,
    }));
    lines.extend(rating_lines(ctx, game));
    if let Some(r) = ruling {
        lines.push(explain_ruling(r, ctx.lang, ctx.notation));
    }
    let viewer = viewer.unwrap_or_else(|| game.to_move());
    let board = ctx
        .svc
        .board_reply(game, viewer, lines.join("\n"), Vec::new(), ctx.lang)
        .await;
    let pgn = super::pgn(
        &game.record,
        ctx.inc.channel.split(':').next().unwrap_or("chat"),
    );
    vec![
        board,
        Reply::text(format!("{}\n{pgn}", ctx.t(&Msg::PgnCaption))),
    ]
}
