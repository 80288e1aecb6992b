//! The router: a command or a pressed button to its handler. It opens the channel, builds the
//! [`Ctx`], settles a flag that fell since the last event, and answers the checks every button
//! shares (a stale button, a button of someone else's game) before any handler runs; at the
//! end it commits what the handlers changed together with their replies (the outbox).

use super::ctx::{public_lang, Ctx, Slot};
use super::view::ply_of;
use super::{
    challenge, default_notation, endings, hint, info, play, puzzle, ratings, review, Action,
    AppResult, Cmd, Handled, Incoming, Line, Origin, Reply, Service,
};
use crate::i18n::app::Msg;
use crate::i18n::notation::move_text_error;
use crate::notation::Notation;

pub(crate) async fn dispatch(
    svc: &Service,
    inc: &Incoming,
    line: Line,
    origin: &Origin,
) -> AppResult<Handled> {
    let mut slot = svc.manager.lock(&inc.channel).await?;
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
        inc,
        lang,
        reader,
        notation,
        notation_chosen: chosen.is_some(),
        now: svc.now(),
        staged: std::sync::Mutex::default(),
        retired: std::sync::Mutex::default(),
    };
    challenge::remember_handle(&ctx).await;
    let replies = run(&ctx, &mut slot, line).await;
    let changes = ctx.take_staged();
    match replies {
        Ok(replies) => {
            svc.commit_slot(&mut slot, changes, &inc.channel, origin, replies)
                .await
        }
        Err(e) => {
            // Handlers keep the slot in step with what they staged: it may be ahead of storage.
            slot.loaded = false;
            Err(e)
        }
    }
}

async fn run(ctx: &Ctx<'_>, slot: &mut Slot, line: Line) -> AppResult<Vec<Reply>> {
    // A flag that fell since the last event is settled before anything else happens.
    let mut replies = endings::settle_flag(ctx, slot).await?;
    let more = if let Some(action) = ctx.inc.action {
        on_action(ctx, slot, action).await?
    } else {
        match line {
            Line::Unknown(cmd) => vec![ctx.say(Msg::UnknownCommand { cmd })],
            Line::Text(t) => typed(ctx, slot, &t).await?,
            Line::Command(cmd, args) => command(ctx, slot, cmd, &args).await?,
        }
    };
    replies.extend(more);
    replies.extend(ctx.retired_reply());
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
    if let Err(refusal) = ctx.svc.admit(&ctx.inc.user.id, ctx.lang) {
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
    let Some(me) = game.color_of(&ctx.inc.user.id) else {
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
        | Action::PuzzlePickTo { .. } => Ok(Vec::new()),
    }
}
