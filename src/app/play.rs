//! Moves: typed (in any notation) or picked with the two-step picker, played through the
//! arbiter, saved, and answered with the board.

use super::action::Action;
use super::chat::{AppResult, Reply};
use super::ctx::{finished_replies, not_your_game, save_game, Ctx, Slot};
use super::view::{
    clocks_text, game_buttons, looks_like_move, pick_menu, pick_prompt, seen_from, to_move_text,
    Picks,
};
use crate::arbiter::SubmitError;
use crate::core::{Color, Move};
use crate::i18n::app::Msg;
use crate::i18n::arbiter::{explain_refusal, explain_warning};
use crate::i18n::notation::{illegal_move, move_text_error};
use crate::notation::{format_move, read_move, Notation};

/// The two-step move picker: the player's movable pieces, then one piece's targets.
pub(crate) fn picker(
    ctx: &Ctx<'_>,
    slot: &Slot,
    me: Color,
    game_id: u64,
    ply: u32,
    from: Option<crate::core::Square>,
) -> Reply {
    let Some(game) = slot.game.as_ref() else {
        return ctx.private(Msg::StaleButton);
    };
    if game.to_move() != me {
        return ctx.private(Msg::NotYourTurn {
            player: game.player(me.other()).name.clone(),
        });
    }
    let player = game.player(me).name.clone();
    pick_menu(
        ctx.lang,
        ctx.public_notation(),
        game.position(),
        from,
        &pick_prompt(player),
        &Picks {
            from: &|from| Action::PickFrom {
                game: game_id,
                ply,
                from,
            },
            to: &|mv| Action::PickTo {
                game: game_id,
                ply,
                mv,
            },
            back: Action::Pick { game: game_id, ply },
        },
    )
}

/// Whether a bare text is a move in the channel's game: its author plays in it and the text
/// reads as a move. Anything else is ordinary conversation, not answered.
pub(crate) fn takes_text(ctx: &Ctx<'_>, slot: &Slot, t: &str) -> bool {
    slot.game
        .as_ref()
        .is_some_and(|g| g.color_of(&ctx.user.id).is_some())
        && looks_like_move(t)
}

pub(crate) async fn typed_move(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    t: &str,
    explicit: bool,
) -> AppResult<Vec<Reply>> {
    let Some(game) = slot.game.as_ref() else {
        return Ok(vec![ctx.say(Msg::NoGame)]);
    };
    let Some(me) = game.color_of(&ctx.user.id) else {
        return Ok(if explicit {
            vec![ctx.private(not_your_game(game))]
        } else {
            Vec::new()
        });
    };
    if game.to_move() != me {
        return Ok(vec![ctx.private(Msg::NotYourTurn {
            player: game.player(me.other()).name.clone(),
        })]);
    }
    match read_move(game.position(), t, ctx.notation) {
        Ok(reading) => {
            let echo = ctx.echo_notation(reading.notation);
            play_move_in(ctx, slot, reading.mv, echo).await
        }
        Err(e) => Ok(vec![ctx.say(Msg::NotAMove {
            detail: move_text_error(&e, ctx.lang),
        })]),
    }
}

/// A target tapped in the picker: play it if it is still `me`'s turn.
pub(crate) async fn picked(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    me: Color,
    mv: Move,
) -> AppResult<Vec<Reply>> {
    match slot.game.as_ref() {
        Some(g) if g.to_move() == me => play_move_in(ctx, slot, mv, ctx.notation).await,
        Some(g) => Ok(vec![ctx.private(Msg::NotYourTurn {
            player: g.player(me.other()).name.clone(),
        })]),
        None => Ok(vec![ctx.private(Msg::StaleButton)]),
    }
}

/// The bot's move (already vetted), played like a player's and echoed in the channel's
/// usual notation.
pub(crate) async fn bot_plays(ctx: &Ctx<'_>, slot: &mut Slot, mv: Move) -> AppResult<Vec<Reply>> {
    play_move_in(ctx, slot, mv, ctx.notation).await
}

/// Play `mv`, echoing it in `echo` (and ICCS).
async fn play_move_in(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    mv: Move,
    echo: Notation,
) -> AppResult<Vec<Reply>> {
    let Some(current) = slot.game.as_ref() else {
        return Ok(vec![ctx.say(Msg::NoGame)]);
    };
    let old_deadlines = current.deadlines();
    let mut game = current.clone();
    let before = game.position().clone();
    let mover = before.turn();
    match game.play(mv, ctx.now) {
        Ok(acc) => {
            super::metrics::metrics().moved(ctx.channel.platform());
            let mut lines = vec![ctx.t(&Msg::Moved {
                ply: game.record.moves.len(),
                player: game.player(mover).name.clone(),
                text: format_move(&before, mv, echo),
                iccs: mv.to_string(),
            })];
            if let Some(r) = acc.ruling.as_ref() {
                save_game(ctx, slot, game.clone(), &old_deadlines).await?;
                return Ok(finished_replies(ctx, &game, lines, Some(r), None, echo).await);
            }
            lines.push(to_move_text(&game, ctx.lang));
            if let Some(cl) = clocks_text(&game.record, game.to_move(), ctx.now, ctx.lang) {
                lines.push(cl);
            }
            for w in &acc.warnings {
                lines.push(explain_warning(w, game.position(), ctx.lang, echo));
            }
            let buttons = game_buttons(&game, ctx.svc.config.web.is_some(), ctx.lang);
            let viewer = seen_from(&game);
            // The board is drawn while the move is written and flushed; the reply leaves only
            // when both are done, so nothing unsaved is ever acknowledged.
            let (saved, reply) = tokio::join!(
                save_game(ctx, slot, game.clone(), &old_deadlines),
                ctx.svc
                    .board_reply(&game, viewer, lines.join("\n"), buttons, ctx.lang),
            );
            saved?;
            Ok(vec![reply])
        }
        Err(SubmitError::Illegal(e)) => Ok(vec![ctx.say(Msg::NotAMove {
            detail: illegal_move(&e, ctx.lang),
        })]),
        Err(SubmitError::Refused(r)) => {
            let mut g = current.clone();
            g.record.last_refusal = Some(mv.to_string());
            save_game(ctx, slot, g, &old_deadlines).await?;
            Ok(vec![ctx.say(Msg::Raw(explain_refusal(&r, ctx.lang, echo)))])
        }
        Err(SubmitError::GameOver) => Ok(vec![ctx.say(Msg::GameIsOver)]),
    }
}
