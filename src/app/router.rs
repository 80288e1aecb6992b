//! The router: every [`Event`] to its handler ([`Service::enter`]). It opens the channel, builds the [`Ctx`],
//! settles a flag that fell since the last event, and answers the checks every button
//! shares (a stale button, a button of someone else's game) before any handler runs; at the
//! end it commits what the handlers changed together with their replies (the outbox). It is
//! the one place that knows every handler.

use super::action::Action;
use super::chat::{default_notation, AppResult, Incoming, Reply};
use super::command::{parse_line, MAX_TEXT};
use super::command::{Cmd, Line};
use super::ctx;
use super::ctx::{public_lang, Ctx, Slot};
use super::event::{Event, Raised};
use super::outbox::{Handled, Origin};
use super::service::Service;
use super::view::ply_of;
use super::{
    bot_turn, challenge, endings, hint, info, play, puzzle, ratings, review, timer, tournament,
    venues,
};
use crate::game::DeadlineKind;
use crate::i18n::app::{text, Msg};
use crate::i18n::notation::move_text_error;
use crate::i18n::Lang;
use crate::notation::Notation;
use crate::platform::{ChannelKey, UserKey};

/// Run `event`. What a raised event says is committed to the outbox, or handed to the
/// subscribers when nothing was stored or no platform opened its outbox; what a chat event
/// says is the caller's to deliver when it was not queued ([`Handled::queued`]).
async fn route(svc: &Service, event: Event<'_>) -> AppResult<Handled> {
    match event {
        Event::Chat { inc, line, origin } => chat(svc, inc, line, origin).await,
        Event::Raised { channel, what } => {
            let handled = raised(svc, channel, what).await?;
            svc.send_unqueued(channel, &handled);
            Ok(handled)
        }
        Event::ProcessGone { gone } => {
            tracing::info!(gone, "a bot process stopped: its work goes on here");
            svc.take_over();
            Ok(Handled::default())
        }
    }
}

/// The doors of the service for the adapters: a chat event in, and what they ask of a
/// channel without an event (its language, move suggestions).
impl Service {
    /// Handle one chat event; the replies are sent to the same channel (private ones only to
    /// the user). Never panics on any input; a storage failure is answered with an apology.
    /// Adapters use [`Service::handle_from`].
    pub async fn handle(&self, inc: Incoming) -> Vec<Reply> {
        self.handle_from(inc, Origin::default()).await.replies
    }

    /// Handle one chat event from `origin`. When it changed something, its replies were
    /// stored with the change and handed to the channel's outbox ([`Handled::queued`]);
    /// otherwise the caller delivers them. An event the platform delivers a second time
    /// (after a crash) is recognised by [`Origin::event`] and not run again.
    pub async fn handle_from(&self, inc: Incoming, origin: Origin) -> Handled {
        self.handle_limited(inc, origin, true).await
    }

    /// Handle one chat event from `origin` whose author an adapter has already admitted with
    /// [`Service::admit`] (to check the limit before it does something on the platform, such
    /// as opening a thread for a game); otherwise as [`Service::handle_from`].
    pub async fn handle_admitted_from(&self, inc: Incoming, origin: Origin) -> Handled {
        self.handle_limited(inc, origin, false).await
    }

    /// The language `channel` reads in public ([`ctx::public_lang`]), read from storage
    /// without locking the channel: for the answers given before (or instead of) opening it.
    /// `hint` (else English) when storage cannot say.
    pub(crate) fn channel_lang(&self, channel: &ChannelKey, hint: Option<Lang>) -> Lang {
        let Ok(Some(record)) = self.storage().channel(channel) else {
            return hint.unwrap_or_default();
        };
        let game = record
            .active_game
            .iter()
            .chain(&record.other_games)
            .find_map(|&id| self.storage().game(id).ok().flatten())
            .and_then(|g| g.lang);
        ctx::channel_lang(game.as_deref(), &record, hint)
    }

    /// [`Service::handle_from`], the rate limit checked for a command if `limit`. The
    /// refusals sent before the channel is opened (too fast, too long, storage failed) are
    /// in the channel's language, as everything else it is told.
    async fn handle_limited(&self, inc: Incoming, origin: Origin, limit: bool) -> Handled {
        let direct = |replies: Vec<Reply>| Handled {
            replies,
            ..Handled::default()
        };
        if let Some(event) = &origin.event {
            match self.storage().seen(event) {
                Ok(true) => {
                    tracing::info!(event = %event, "an event delivered again was handled before; skipped");
                    return Handled {
                        duplicate: true,
                        ..Handled::default()
                    };
                }
                Ok(false) => {}
                Err(e) => tracing::error!(error = %e, "cannot read the handled events"),
            }
        }
        let too_long = inc.text.chars().count() > MAX_TEXT;
        // Only a command is answered when too long: a long plain text is conversation (no
        // notation reads anything that long as a move), whoever wrote it.
        let line = if too_long {
            if !inc.text.trim_start().starts_with(['/', '／']) {
                return Handled::default();
            }
            Line::Unknown(String::new())
        } else {
            parse_line(&inc.text)
        };
        // A bare text is counted by the router once it knows it is a move (conversation is
        // not counted).
        let is_command = !matches!(line, Line::Text(_)) || inc.action.is_some();
        if is_command && limit {
            match self.limiter.check(&inc.user.id, self.now()) {
                Ok(()) => {}
                Err(None) => return direct(Vec::new()), // already told within this window
                Err(Some(secs)) => {
                    // The channel's language is read only when there is a refusal to write.
                    let lang = self.channel_lang(&inc.channel, inc.lang_hint);
                    let refusal = text(&Msg::RateLimited { secs }, lang);
                    return direct(vec![Reply::private(refusal)]);
                }
            }
        }
        if too_long {
            let lang = self.channel_lang(&inc.channel, inc.lang_hint);
            return direct(vec![Reply::private(text(
                &Msg::TooLong { max: MAX_TEXT },
                lang,
            ))]);
        }
        let event = Event::Chat {
            inc: &inc,
            line,
            origin: &origin,
        };
        match self.enter(event).await {
            Ok(handled) => handled,
            Err(e) => {
                tracing::error!(channel = %inc.channel, error = %e, "storage failure");
                let lang = self.channel_lang(&inc.channel, inc.lang_hint);
                Handled {
                    failed: true,
                    ..direct(vec![Reply::text(text(&Msg::StorageFailure, lang))])
                }
            }
        }
    }

    /// Run one event through the router: the one way in (see [`super::event`]).
    pub(crate) async fn enter(&self, event: Event<'_>) -> AppResult<Handled> {
        route(self, event).await
    }

    /// Legal moves of `user` in `channel` that start with `prefix`, in their notation (their
    /// `/notation`, else the usual one for `lang`, their client's language), for Discord's
    /// autocomplete. Empty when it is not their turn.
    pub async fn suggestions(
        &self,
        channel: &ChannelKey,
        user: &UserKey,
        prefix: &str,
        lang: Option<Lang>,
    ) -> Vec<String> {
        info::suggestions(self, channel, user, prefix, lang)
            .await
            .unwrap_or_default()
    }
}

async fn chat(svc: &Service, inc: &Incoming, line: Line, origin: &Origin) -> AppResult<Handled> {
    let mut slot = svc.manager.lock(&inc.channel).await?;
    // A game's venue: decided under its tournament chat's lock, as if typed there, and
    // answered here.
    let venue = slot.record.venue_of.clone();
    let answer_in = inc.channel.clone();
    let home;
    let inc = match venue {
        Some(chat) => {
            drop(slot);
            slot = svc.manager.lock(&chat).await?;
            home = Incoming {
                channel: chat,
                ..inc.clone()
            };
            &home
        }
        None => inc,
    };
    // In a venue, its game, unless a button names another or the author plays another.
    let here = slot
        .games()
        .find(|g| g.record.venue.as_ref() == Some(&answer_in))
        .map(|g| g.record.id);
    let which = match here {
        Some(id) if inc.action.is_none() && slot.game_of(&inc.user.id).is_none() => Ok(Some(id)),
        _ => pick(&slot, &inc.user.id, inc.action, &line),
    };
    let challenge = pick_challenge(&slot, inc, &line, svc.now());
    slot.select_challenge(challenge);
    // Another process sharing the storage may have handled the same event (delivered to
    // both) while this one waited for the channel.
    if let Some(event) = origin.event.as_ref().filter(|_| svc.storage().shared()) {
        if svc.storage().seen(event)? {
            tracing::info!(event = %event, "an event another process handled; skipped");
            return Ok(Handled {
                duplicate: true,
                ..Handled::default()
            });
        }
    }
    let lang = public_lang(&slot, inc.lang_hint);
    let reader = inc.lang_hint.unwrap_or(lang);
    let prefs = svc.storage().user(&inc.user.id)?.unwrap_or_default();
    let chosen: Option<Notation> = prefs.notation.as_deref().and_then(|n| n.parse().ok());
    let notation = chosen.unwrap_or_else(|| default_notation(reader));
    let ctx = Ctx {
        svc,
        channel: &inc.channel,
        user: inc.user.clone(),
        chat: Some(inc),
        lang,
        reader,
        notation,
        notation_chosen: chosen.is_some(),
        now: svc.now(),
        staged: std::sync::Mutex::default(),
        retired: std::sync::Mutex::default(),
        announced: std::sync::Mutex::default(),
    };
    challenge::remember_handle(&ctx).await;
    let replies = match which {
        Ok(id) => {
            slot.select(id);
            let several = slot.games().count() > 1;
            let replies = run(&ctx, &mut slot, inc.action, line).await;
            label_boards(&ctx, &slot, several, replies)
        }
        Err(list) => Ok(vec![ctx.private(Msg::WhichGame { games: list })]),
    };
    finish(svc, &ctx, &mut slot, origin, replies, &answer_in).await
}

/// Which of the channel's games a chat event acts on (several pairs may play in one chat; a
/// player plays in one at a time): the game a button names; else the author's own; else,
/// for what starts a game (a challenge and its answers), none; else the only one, or the one
/// `/board N` names. `Err`: several games and nothing says which one to show (the list of
/// them, for the answer).
fn pick(
    slot: &Slot,
    user: &str,
    action: Option<Action>,
    line: &Line,
) -> Result<Option<u64>, String> {
    let own = slot.game_of(user).map(|g| g.record.id);
    if let Some(a) = action {
        return Ok(match a {
            Action::Accept { .. }
            | Action::Decline { .. }
            | Action::SetRated { .. }
            | Action::PlayBot { .. }
            | Action::Rematch { .. }
            | Action::Review { .. }
            | Action::TournamentJoin { .. }
            | Action::TournamentLeave { .. } => own,
            _ if a.is_puzzle() => own,
            _ => Some(a.target().0),
        });
    }
    let games: Vec<&crate::game::Game> = slot.games().collect();
    if let Line::Command(Cmd::Board | Cmd::Flip, args) = line {
        // `/board 12`: game 12 when it is played here, whoever asks.
        let named = args.trim().trim_start_matches('#').parse::<u64>().ok();
        if let Some(n) = named.filter(|n| games.iter().any(|g| g.record.id == *n)) {
            return Ok(Some(n));
        }
    }
    if own.is_some() {
        return Ok(own);
    }
    match line {
        Line::Command(Cmd::Play | Cmd::Accept | Cmd::Decline | Cmd::Cancel, _) | Line::Text(_) => {
            Ok(None)
        }
        Line::Command(Cmd::Board | Cmd::Flip | Cmd::Time | Cmd::Moves | Cmd::Fen, _)
            if games.len() > 1 =>
        {
            Err(games
                .iter()
                .map(|g| {
                    format!(
                        "#{}: {} – {}",
                        g.record.id, g.record.red.name, g.record.black.name
                    )
                })
                .collect::<Vec<_>>()
                .join("\n"))
        }
        _ => Ok(match games.as_slice() {
            [only] => Some(only.record.id),
            _ => None,
        }),
    }
}

/// Which of the challenges waiting in the channel a chat event acts on (several may wait at
/// once, one per challenger): the one a button names; for `/accept` and `/decline`, the one
/// addressed to the author, else an open one, else the author's own or the only one (which
/// they cannot answer, and are told why), and none for a player in a game (their `/accept`
/// answers an offer); for `/cancel`, the author's own or the only one; for the rest, the
/// author's own (a second `/play` is told it waits), else none.
fn pick_challenge(slot: &Slot, inc: &Incoming, line: &Line, now: u64) -> Option<u64> {
    let user = inc.user.id.as_str();
    let me =
        |p: &crate::game::PlayerRef| challenge::names(p, &inc.channel, user, inc.handle.as_deref());
    let live: Vec<&crate::game::Challenge> = slot
        .record
        .challenges()
        .filter(|c| c.expires_ms > now)
        .collect();
    let own = live.iter().find(|c| me(&c.challenger)).map(|c| c.id);
    // With only someone else's waiting, that one (its handler says whom it is for).
    let only = match live.as_slice() {
        [c] => Some(c.id),
        _ => None,
    };
    match (inc.action, line) {
        (Some(Action::Accept { id } | Action::Decline { id } | Action::SetRated { id, .. }), _) => {
            Some(id)
        }
        (None, Line::Command(Cmd::Accept | Cmd::Decline, _)) => {
            if slot.game_of(user).is_some() {
                return None;
            }
            let to_me = live.iter().find(|c| c.opponent.as_ref().is_some_and(me));
            let open = live
                .iter()
                .find(|c| c.opponent.is_none() && !me(&c.challenger));
            to_me.or(open).map(|c| c.id).or(own).or(only)
        }
        (None, Line::Command(Cmd::Cancel, _)) => own.or(only),
        _ => own,
    }
}

/// With several games in the channel, a board says which game it shows: `Game #12 · `
/// before its caption (unless the caption names the game already, as a game's first board
/// does). A board is known by its picture's name (`board-12-34.png`).
fn label_boards(
    ctx: &Ctx<'_>,
    slot: &Slot,
    several: bool,
    replies: AppResult<Vec<Reply>>,
) -> AppResult<Vec<Reply>> {
    let mut replies = replies?;
    if !several && slot.games().count() < 2 {
        return Ok(replies);
    }
    for r in &mut replies {
        let Some(id) = r.image.as_ref().and_then(|i| board_game(&i.filename)) else {
            continue;
        };
        if !r.text.contains(&format!("#{id}")) {
            r.text = format!("{} · {}", text(&Msg::GameLabel { id }, ctx.lang), r.text);
        }
    }
    Ok(replies)
}

/// The game a board picture shows, from its name (`board-12-34.png`, a hint's
/// `hint-12-34.png`: game 12).
fn board_game(filename: &str) -> Option<u64> {
    filename
        .strip_prefix("board-")
        .or_else(|| filename.strip_prefix("hint-"))?
        .split('-')
        .next()?
        .parse()
        .ok()
}

/// An event the service raised: its handler acts as whoever it says (`ctx.user`), in the
/// channel's language.
async fn raised(svc: &Service, channel: &ChannelKey, what: Raised) -> AppResult<Handled> {
    let now = match &what {
        Raised::Due { now_ms, .. } => *now_ms,
        _ => svc.now(),
    };
    let mut slot = svc.manager.lock(channel).await?;
    // The game the event is about (the others played here stay aside); events about no
    // game (a review, a lapsed challenge, the daily puzzle) leave the channel as it loaded.
    let game = match &what {
        Raised::BotMoved { search, .. } => Some(search.0),
        Raised::TakebackAsked { game } => Some(*game),
        Raised::HintReady { ask, .. } => Some(ask.game),
        Raised::Due { deadline, .. } => match deadline.kind {
            DeadlineKind::Flag
            | DeadlineKind::Warn
            | DeadlineKind::IdleWarn
            | DeadlineKind::IdleClaim
            | DeadlineKind::FirstMove => Some(deadline.id),
            DeadlineKind::ChallengeExpiry
            | DeadlineKind::PuzzleDaily
            | DeadlineKind::TournamentStart
            | DeadlineKind::TournamentEnd
            | DeadlineKind::TournamentRound => None,
        },
        Raised::ReviewReady { .. } => None,
        Raised::VenueOpened { game, .. } => Some(*game),
    };
    if game.is_some() {
        slot.select(game);
    }
    if let Raised::Due { deadline, .. } = &what {
        if deadline.kind == DeadlineKind::ChallengeExpiry {
            slot.select_challenge(Some(deadline.id));
        }
    }
    let several = slot.games().count() > 1;
    // What a game played in a venue of its own says goes there.
    let answer_in = slot
        .game
        .as_ref()
        .filter(|_| game.is_some())
        .and_then(|g| g.record.venue.clone())
        .unwrap_or_else(|| channel.clone());
    let mut ctx = Ctx::raised(svc, channel, &slot, now);
    let replies = match what {
        Raised::BotMoved {
            search,
            played,
            searched_ms,
        } => bot_turn::moved(&mut ctx, &mut slot, search, *played, searched_ms).await,
        Raised::TakebackAsked { .. } => bot_turn::answer_takeback(&mut ctx, &mut slot).await,
        Raised::HintReady { ask, best } => hint::ready(&mut ctx, &mut slot, &ask, best).await,
        Raised::ReviewReady { asked, game, data } => {
            review::ready(&ctx, *asked, &game, &data).await
        }
        Raised::Due { deadline, .. } => timer::due(&ctx, &mut slot, &deadline).await,
        Raised::VenueOpened { game, venue } => {
            venues::venue_opened(&ctx, &mut slot, game, venue).await
        }
    };
    let replies = label_boards(&ctx, &slot, several, replies);
    finish(
        svc,
        &ctx,
        &mut slot,
        &Origin::default(),
        replies,
        &answer_in,
    )
    .await
}

/// Commit what the handler staged with what it says (and the messages it retired), said in
/// `answer_in`: the channel, or the venue of the game the event was about, where the
/// tournament's news set off by the game (a round paired, the table) is not said.
async fn finish(
    svc: &Service,
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    origin: &Origin,
    replies: AppResult<Vec<Reply>>,
    answer_in: &ChannelKey,
) -> AppResult<Handled> {
    match replies {
        Ok(mut replies) => {
            let mut announced = ctx.take_announced();
            if answer_in != ctx.channel {
                for r in &mut announced {
                    r.channel.get_or_insert_with(|| ctx.channel.clone());
                }
            }
            replies.extend(announced);
            replies.extend(ctx.retired_reply());
            let changes = ctx.take_staged();
            svc.commit_slot(slot, changes, (ctx.channel, answer_in), origin, replies)
                .await
        }
        Err(e) => {
            // Handlers keep the slot in step with what they staged: it may be ahead of storage.
            slot.loaded = false;
            Err(e)
        }
    }
}

async fn run(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    action: Option<Action>,
    line: Line,
) -> AppResult<Vec<Reply>> {
    // A flag that fell since the last event is settled before anything else happens.
    let mut replies = endings::settle_flag(ctx, slot).await?;
    let more = if let Some(action) = action {
        on_action(ctx, slot, action).await?
    } else {
        match line {
            Line::Unknown(cmd) => vec![ctx.say(Msg::UnknownCommand { cmd })],
            Line::Text(t) => typed(ctx, slot, &t).await?,
            Line::Command(cmd, args) => {
                super::metrics::metrics().command(cmd.name());
                command(ctx, slot, cmd, &args).await?
            }
        }
    };
    replies.extend(more);
    Ok(replies)
}

/// A bare text: a move for the channel's puzzle or game counts against its author's rate limit
/// as a command does; ordinary conversation is neither answered nor counted (a chat where
/// people talk over a game must not use up their moves).
async fn typed(ctx: &Ctx<'_>, slot: &mut Slot, t: &str) -> AppResult<Vec<Reply>> {
    let for_puzzle = puzzle::takes_text(ctx, slot, t);
    if !for_puzzle && !play::takes_text(ctx, slot, t) {
        return Ok(Vec::new());
    }
    if let Err(refusal) = ctx.svc.admit(&ctx.user.id, ctx.lang) {
        return Ok(refusal);
    }
    if for_puzzle {
        puzzle::typed(ctx, slot, t).await
    } else {
        play::typed_move(ctx, slot, t, false).await
    }
}

async fn command(ctx: &Ctx<'_>, slot: &mut Slot, cmd: Cmd, args: &str) -> AppResult<Vec<Reply>> {
    match cmd {
        Cmd::Play => challenge::challenge(ctx, slot, args).await,
        Cmd::Accept => accept(ctx, slot).await,
        Cmd::Decline => decline(ctx, slot).await,
        Cmd::Cancel => challenge::cancel(ctx, slot).await,
        Cmd::Move => {
            if args.is_empty() {
                return Ok(vec![ctx.say(Msg::NotAMove {
                    detail: move_text_error(&crate::notation::MoveTextError::Empty, ctx.lang),
                })]);
            }
            play::typed_move(ctx, slot, args, true).await
        }
        Cmd::Resign => endings::resign(ctx, slot).await,
        Cmd::Draw => endings::draw(ctx, slot).await,
        Cmd::Takeback => endings::takeback(ctx, slot).await,
        Cmd::Abort => endings::abort(ctx, slot).await,
        Cmd::Rating | Cmd::Top | Cmd::Stats => ratings::command(ctx, cmd, args).await,
        Cmd::Claim => endings::claim(ctx, slot, args).await,
        Cmd::Hint => hint::hint(ctx, slot).await,
        Cmd::Hints => hint::hints(ctx, slot, args).await,
        Cmd::Review => review::review(ctx, slot, args).await,
        Cmd::Puzzle => puzzle::command(ctx, slot, args).await,
        Cmd::Tournament => tournament::command(ctx, slot, args).await,
        Cmd::Board => info::board(ctx, slot, false).await,
        Cmd::Flip => info::board(ctx, slot, true).await,
        Cmd::Moves => Ok(vec![info::moves(ctx, slot)]),
        Cmd::Fen => Ok(vec![info::fen(ctx, slot)?]),
        Cmd::Pgn => Ok(vec![info::pgn(ctx, slot)?]),
        Cmd::Gif => info::gif(ctx, slot).await,
        Cmd::Why => info::why(ctx, slot).await,
        Cmd::Rules => Ok(vec![info::rules(ctx, args)]),
        Cmd::Ruleset => info::ruleset(ctx, slot, args).await,
        Cmd::Notation => info::notation(ctx, args).await,
        Cmd::Lang => info::lang(ctx, slot, args).await,
        Cmd::Takebacks => info::takebacks(ctx, slot, args).await,
        Cmd::Time => Ok(vec![info::time(ctx, slot)]),
        Cmd::Games => info::games(ctx),
        Cmd::Help => Ok(vec![info::help(ctx)]),
        Cmd::About => Ok(vec![info::about(ctx)]),
        Cmd::Web => super::board_view::web(ctx, slot),
        Cmd::Watch => Ok(super::board_view::watch(ctx, slot)),
    }
}

/// `/accept` answers the channel's challenge; in a game without one, it answers a draw offer or
/// a takeback request.
async fn accept(ctx: &Ctx<'_>, slot: &mut Slot) -> AppResult<Vec<Reply>> {
    if !challenge::pending(ctx, slot) {
        match slot.game.as_ref() {
            Some(g) if g.record.draw_offer.is_some() => return endings::draw(ctx, slot).await,
            Some(g) if g.record.takeback_request.is_some() => {
                return endings::takeback(ctx, slot).await
            }
            _ => {}
        }
    }
    challenge::accept(ctx, slot, None).await
}

/// `/decline` refuses the channel's challenge; in a game without one, a draw offer or a
/// takeback request.
async fn decline(ctx: &Ctx<'_>, slot: &mut Slot) -> AppResult<Vec<Reply>> {
    if !challenge::pending(ctx, slot) && slot.game.is_some() {
        return endings::decline_offer(ctx, slot).await;
    }
    challenge::decline(ctx, slot, None).await
}

async fn on_action(ctx: &Ctx<'_>, slot: &mut Slot, action: Action) -> AppResult<Vec<Reply>> {
    if action.is_puzzle() {
        return puzzle::on_action(ctx, slot, action).await;
    }
    match action {
        Action::Accept { id } => return challenge::accept(ctx, slot, Some(id)).await,
        Action::Decline { id } => return challenge::decline(ctx, slot, Some(id)).await,
        Action::SetRated { id, rated } => return challenge::set_rated(ctx, slot, id, rated).await,
        Action::PlayBot { level } => return challenge::play_bot_button(ctx, slot, level).await,
        Action::Rematch { game } => return challenge::rematch(ctx, slot, game).await,
        Action::Review { game } => return review::review(ctx, slot, &game.to_string()).await,
        Action::TournamentJoin { .. } | Action::TournamentLeave { .. } => {
            return tournament::on_action(ctx, slot, action).await
        }
        Action::Board { game } => return super::board_view::board_link(ctx, game),
        _ => {}
    }
    let (game_id, ply) = action.target();
    let current = slot
        .game
        .as_ref()
        .filter(|g| g.record.id == game_id && Some(ply_of(g)) == ply);
    let Some(game) = current else {
        return Ok(vec![ctx.private(Msg::StaleButton)]);
    };
    let Some(me) = game.color_of(&ctx.user.id) else {
        return Ok(vec![ctx.private(Msg::NotYourButton)]);
    };
    match action {
        Action::Resign { game, ply } => Ok(vec![endings::confirm_resign(ctx, game, ply, me)]),
        // The question was asked of one side: the other's tap on it is refused.
        Action::ConfirmResign { by: Some(by), .. } if by != me => {
            Ok(vec![ctx.private(Msg::ButtonForSomeoneElse)])
        }
        Action::ConfirmResign { .. } => endings::resign(ctx, slot).await,
        Action::Draw { .. } => endings::draw(ctx, slot).await,
        Action::DeclineOffer { .. } => endings::decline_offer(ctx, slot).await,
        Action::AcceptTakeback { .. } => endings::takeback(ctx, slot).await,
        Action::Flip { .. } => Ok(vec![info::flipped(ctx, slot, me.other()).await]),
        Action::Pick { game, ply } => Ok(vec![play::picker(ctx, slot, me, game, ply, None)]),
        Action::PickFrom { game, ply, from } => {
            Ok(vec![play::picker(ctx, slot, me, game, ply, Some(from))])
        }
        Action::PickTo { mv, .. } => play::picked(ctx, slot, me, mv).await,
        Action::Accept { .. }
        | Action::Decline { .. }
        | Action::SetRated { .. }
        | Action::PlayBot { .. }
        | Action::Rematch { .. }
        | Action::Review { .. }
        | Action::PuzzleHint { .. }
        | Action::PuzzleSolution { .. }
        | Action::PuzzleNext { .. }
        | Action::PuzzlePick { .. }
        | Action::PuzzlePickFrom { .. }
        | Action::PuzzlePickTo { .. }
        | Action::TournamentJoin { .. }
        | Action::TournamentLeave { .. }
        | Action::Board { .. } => Ok(Vec::new()),
    }
}
