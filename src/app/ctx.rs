//! The context every handler shares: who acts where ([`Ctx`]), the locked channel ([`Slot`]),
//! saving a game, and the replies that several handlers build (captions, the end of a game).
//! Handlers reach each other only through this module and [`super::view`], never by importing
//! one another; the router ([`super::router`]) is the one place that knows every handler.

use tokio::sync::OwnedMutexGuard;

use super::view::{clocks_text, to_move_text};
use super::{AppResult, Incoming, Reply, Service};
use crate::arbiter::{Outcome, Ruling};
use crate::core::Color;
use crate::game::{Changes, ChannelRecord, ChannelSlot, Game, GameStatus};
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
    /// The changes made so far, committed with the replies when the event ends
    /// ([`Service::commit`](super::Service)).
    pub staged: std::sync::Mutex<Changes>,
}

impl Ctx<'_> {
    /// Write `changes` with this event: they are committed, with the replies they produce,
    /// in one transaction when the event ends (before anything is sent), after those staged
    /// earlier. Handlers keep their slot in step as if it were written; if the commit fails,
    /// the channel is reloaded from storage.
    pub(crate) async fn persist(&self, changes: Changes) -> AppResult<()> {
        self.staged
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .absorb(changes);
        Ok(())
    }

    /// The changes staged so far, taken out.
    pub(crate) fn take_staged(&self) -> Changes {
        std::mem::take(
            &mut *self
                .staged
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
    }

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
    let mut changes = Changes::default();
    changes.remove_deadlines.extend_from_slice(old_deadlines);
    changes.add_deadlines.extend(game.deadlines());
    changes.games.push(game.record.clone());
    changes
        .channels
        .push((ctx.inc.channel.clone(), record.clone()));
    ctx.persist(changes).await?;
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
