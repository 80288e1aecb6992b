//! The context every handler shares: who acts where ([`Ctx`]), the locked channel ([`Slot`]),
//! saving a game, and the replies that several handlers build (captions, the end of a game).
//! Handlers reach each other only through this module and [`super::view`], never by importing
//! one another; the router ([`super::router`]) is the one place that knows every handler.

use super::chat::{AppResult, Incoming, Reply};
use super::service::Service;
use super::view::{clocks_text, seen_from, to_move_text};
use crate::arbiter::Ruling;
use crate::core::Color;
use crate::game::{Changes, ChannelRecord, ChannelSlot, EndReason, Game, GameStatus, PlayerRef};
use crate::i18n::app::{text, Msg};
use crate::i18n::arbiter::ruling_details;
use crate::i18n::Lang;
use crate::notation::Notation;
use crate::platform::{ChannelKey, Platform, UserKey};

/// Everything a handler needs to know about the command being run.
pub(crate) struct Ctx<'a> {
    pub svc: &'a Service,
    /// The channel it happens in.
    pub channel: &'a ChannelKey,
    /// Who acts: the author of a chat event; for an event the service raised, the one it acts
    /// for (the bot at its move, the player whose hint came back), else nobody (a default
    /// [`PlayerRef`]: a timer, a review).
    pub user: PlayerRef,
    /// The chat event, when one started this (`None` for an event the service raised).
    pub chat: Option<&'a Incoming>,
    /// The language of what the channel reads: see [`public_lang`].
    pub lang: Lang,
    /// The language of answers only the acting user reads: their client's, else `lang`.
    pub reader: Lang,
    /// The user's notation (their choice, else the usual one for `reader`).
    pub notation: Notation,
    /// Whether the user chose the notation (`/notation`); if not, moves are echoed in the
    /// notation they typed.
    pub notation_chosen: bool,
    pub now: u64,
    /// The changes made so far, committed with the replies when the event ends
    /// ([`Service::commit`](super::Service)).
    pub staged: std::sync::Mutex<Changes>,
    /// Messages whose buttons stopped applying while the command ran (see [`super::menus`]).
    pub retired: std::sync::Mutex<Vec<String>>,
    /// Replies set off by what the handler did, sent after its own ([`Ctx::announce`]).
    pub announced: std::sync::Mutex<Vec<Reply>>,
}

impl<'a> Ctx<'a> {
    /// The context of an event nobody typed (a timer, the bot, work coming back) in
    /// `channel`: everything in the channel's language and its usual notation, acted by nobody
    /// until the event's handler says who.
    pub(crate) fn raised(svc: &'a Service, channel: &'a ChannelKey, slot: &Slot, now: u64) -> Self {
        let lang = public_lang(slot, None);
        Ctx {
            svc,
            channel,
            user: PlayerRef::default(),
            chat: None,
            lang,
            reader: lang,
            notation: super::default_notation(lang),
            notation_chosen: false,
            now,
            staged: std::sync::Mutex::default(),
            retired: std::sync::Mutex::default(),
            announced: std::sync::Mutex::default(),
        }
    }
    /// Users the chat event's text mentions (as typed, and who they are).
    pub(crate) fn mentions(&self) -> &[(String, PlayerRef)] {
        self.chat.map_or(&[], |c| c.mentions.as_slice())
    }

    /// The chat event's community (see [`Incoming::community`]).
    pub(crate) fn community(&self) -> Option<&str> {
        self.chat.and_then(|c| c.community.as_deref())
    }

    /// The author's handle, if the chat event carries a non-empty one.
    pub(crate) fn handle(&self) -> Option<&str> {
        self.chat
            .and_then(|c| c.handle.as_deref())
            .filter(|h| !h.is_empty())
    }

    /// The notation of moves in a public message the user asked for (a move picker): their
    /// choice, else the usual one of the channel's language (not of the user's client).
    pub(crate) fn public_notation(&self) -> Notation {
        if self.notation_chosen {
            self.notation
        } else {
            super::default_notation(self.lang)
        }
    }

    /// The notation a typed move is echoed in: the user's choice, else the one they typed it in.
    pub(crate) fn echo_notation(&self, typed: Notation) -> Notation {
        if self.notation_chosen {
            self.notation
        } else {
            typed
        }
    }

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

    /// The private refusal of a change to the channel's settings (`/hints`, `/lang`,
    /// `/ruleset`, `/takebacks`, `/puzzle daily`) by someone the platform does not name as
    /// allowed to make it; `None` when they may. `slash` is the command, named in the
    /// refusal when the platform could not tell (typed text on Discord).
    pub(crate) fn may_not_configure(&self, slash: &str) -> Option<Reply> {
        let discord = Platform::of(self.channel) == Some(Platform::Discord);
        match self.chat.and_then(|c| c.may_configure) {
            Some(true) => None,
            Some(false) => Some(self.private(Msg::AdminsOnly {
                discord,
                slash: None,
            })),
            None => Some(self.private(Msg::AdminsOnly {
                discord,
                slash: Some(slash.to_string()),
            })),
        }
    }

    /// A notice only the acting user sees, in their language.
    pub(crate) fn private(&self, m: Msg) -> Reply {
        Reply::private(text(&m, self.reader))
    }

    /// A text for the channel, in its language.
    pub(crate) fn t(&self, m: &Msg) -> String {
        text(m, self.lang)
    }

    /// A text for the acting user alone, in their language.
    pub(crate) fn t_reader(&self, m: &Msg) -> String {
        text(m, self.reader)
    }

    /// Take the menus of `record` that no longer apply with `game` out of it, to be retired
    /// with this command's replies once `record` is stored.
    pub(crate) fn prune_menus(
        &self,
        record: &mut ChannelRecord,
        game: Option<&Game>,
    ) -> Vec<String> {
        super::menus::prune(record, game, self.now)
    }

    /// Write the channel's new `record` with `changes` (its menus pruned for `game`, the
    /// channel's game from now on, and the pruned ones retired), then keep it in `kept` (the
    /// slot's record).
    pub(crate) async fn store_record(
        &self,
        kept: &mut ChannelRecord,
        mut record: ChannelRecord,
        game: Option<&Game>,
        mut changes: Changes,
    ) -> AppResult<()> {
        let dead = self.prune_menus(&mut record, game);
        changes
            .channels
            .push((self.channel.clone(), record.clone()));
        self.persist(changes).await?;
        self.retire(dead);
        *kept = record;
        Ok(())
    }

    /// Change the channel's record with `edit` and store it with `changes`, as
    /// [`Ctx::store_record`] does (the channel's game stays as it is).
    pub(crate) async fn edit_record(
        &self,
        slot: &mut Slot,
        edit: impl FnOnce(&mut ChannelRecord),
        changes: Changes,
    ) -> AppResult<()> {
        let game = slot.game.clone();
        let mut record = slot.record.clone();
        edit(&mut record);
        self.store_record(&mut slot.record, record, game.as_ref(), changes)
            .await
    }

    /// Replies to send after the handler's own (what a game's end set off: a tournament's
    /// next round), committed with them.
    pub(crate) fn announce(&self, replies: Vec<Reply>) {
        self.announced
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .extend(replies);
    }

    /// The replies [`Ctx::announce`] staged, taken out.
    pub(crate) fn take_announced(&self) -> Vec<Reply> {
        std::mem::take(
            &mut *self
                .announced
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
    }

    /// Messages to retire with this command's replies.
    pub(crate) fn retire(&self, refs: Vec<String>) {
        if !refs.is_empty() {
            self.retired
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .extend(refs);
        }
    }

    /// The replies' last one: everything retired while the command ran, if anything was.
    pub(crate) fn retired_reply(&self) -> Option<Reply> {
        let refs = std::mem::take(
            &mut *self
                .retired
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        );
        (!refs.is_empty()).then(|| Reply::retire(refs))
    }
}

pub(crate) type Slot = crate::game::SlotGuard;

/// The language the channel reads: a game keeps the one it started with; otherwise the
/// channel's `/lang`, else the pending challenge's (its challenger's), else the acting user's
/// client language (`hint`), else English.
pub(crate) fn public_lang(slot: &ChannelSlot, hint: Option<Lang>) -> Lang {
    let game = slot.game.as_ref().and_then(|g| g.record.lang.as_deref());
    channel_lang(game, &slot.record, hint)
}

/// [`public_lang`] from the stored records: the language tag of the channel's game (if one is
/// being played), the channel's record, the acting user's client language.
pub(crate) fn channel_lang(
    game_lang: Option<&str>,
    record: &crate::game::ChannelRecord,
    hint: Option<Lang>,
) -> Lang {
    let tag = |t: &Option<String>| t.as_deref().and_then(Lang::from_tag);
    game_lang
        .and_then(Lang::from_tag)
        .or_else(|| tag(&record.settings.lang))
        .or_else(|| record.challenges().find_map(|c| tag(&c.lang)))
        .or_else(|| {
            record
                .tournament
                .as_ref()
                .filter(|t| t.live())
                .and_then(|t| tag(&t.lang))
        })
        .or(hint)
        .unwrap_or_default()
}

/// The user's handle as challenges name it (`tg:@name`) and their id, to remember, so that
/// `/rating @name` finds them.
pub(crate) fn handle_alias(ctx: &Ctx<'_>) -> Option<(String, UserKey)> {
    let platform = Platform::of(ctx.channel).map_or("x", Platform::scope);
    let handle = ctx.handle()?;
    let alias = format!("{platform}:@{}", handle.to_lowercase());
    (alias != ctx.user.id).then(|| (alias, ctx.user.id.clone()))
}

/// What the game did to ratings, as lines under its result (nothing for a casual game).
fn rating_lines(ctx: &Ctx<'_>, game: &Game) -> Vec<String> {
    use crate::i18n::ratings::{text, RatingMsg};
    use crate::rating::RatedOutcome;
    let end = match ctx
        .svc
        .storage()
        .game_end(game.record.id)
        .and_then(|end| end.map_or_else(|| rating_preview(ctx, game), |e| Ok(Some(e))))
    {
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

/// The rating update a finished game's end will make, computed from the stored records as
/// the storage transaction will compute it. The end is written with the command's replies
/// (the outbox), so the result line is written before the update is stored; the stored update
/// is the one that counts, and differs from this only if another game of the same player is
/// stored in between (in another channel, within the same instant).
fn rating_preview(
    ctx: &Ctx<'_>,
    game: &Game,
) -> Result<Option<crate::rating::GameEnd>, crate::game::StorageError> {
    let Some(ending) = game.record.ending() else {
        return Ok(None);
    };
    let storage = ctx.svc.storage();
    let before = crate::rating::Before {
        red: storage.profile(&ending.red.id)?,
        black: storage.profile(&ending.black.id)?,
        pair: storage.pair(&ending.red.id, &ending.black.id)?,
    };
    Ok(Some(crate::rating::apply(&ending, before).end))
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
    // A tournament game's end is counted, and the next pairings made, in the same write.
    let step = if game.is_active() {
        None
    } else {
        super::tournament::game_ended(ctx, &mut record, &game, &mut changes)?
    };
    ctx.store_record(
        &mut slot.record,
        record,
        game.is_active().then_some(&game),
        changes,
    )
    .await?;
    slot.game = game.is_active().then_some(game);
    if let Some(step) = step {
        slot.others.extend(step.started.iter().cloned());
        let said = step.replies(ctx).await;
        ctx.announce(said);
    }
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
    let outcome = *result;
    let loser = outcome
        .loser()
        .map(|c| game.player(c).name.clone())
        .unwrap_or_default();
    let why = match reason {
        EndReason::Resignation => text(&Msg::Resigned { player: loser }, lang),
        EndReason::Agreement => text(&Msg::DrawAgreed, lang),
        EndReason::Timeout => text(&Msg::TimeForfeit { player: loser }, lang),
        EndReason::Abandonment => text(&Msg::Abandoned { player: loser }, lang),
        EndReason::Ruling(r) => crate::i18n::arbiter::reason_text(*r, lang).to_string(),
    };
    (
        outcome.pgn().to_string(),
        crate::i18n::arbiter::headline_text(outcome, &why, lang),
    )
}

/// The replies at the end of a game: the last move line, the final board, the result (one
/// headline) with the ruling explained (moves in `notation` and ICCS), and the PGN.
pub(crate) async fn finished_replies(
    ctx: &Ctx<'_>,
    game: &Game,
    mut lines: Vec<String>,
    ruling: Option<&Ruling>,
    viewer: Option<Color>,
    notation: Notation,
) -> Vec<Reply> {
    let (score, head) = headline(game, ctx.lang);
    lines.push(ctx.t(&Msg::GameOver {
        score,
        headline: head,
    }));
    lines.extend(rating_lines(ctx, game));
    if let Some(r) = ruling {
        lines.push(ruling_details(r, ctx.lang, notation));
    }
    let viewer = viewer.unwrap_or_else(|| seen_from(game));
    let buttons = super::view::after_game_buttons(game, ctx.svc.bot_enabled(), ctx.lang);
    let board = ctx
        .svc
        .board_reply(game, viewer, lines.join("\n"), buttons, ctx.lang)
        .await;
    let pgn = super::pgn(
        &game.record,
        Platform::of(ctx.channel).map_or("chat", Platform::scope),
    );
    vec![
        board,
        Reply::text(format!("{}\n{pgn}", ctx.t(&Msg::PgnCaption))),
    ]
}
