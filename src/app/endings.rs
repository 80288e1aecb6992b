//! Endings and offers: resign, draw (offer, accept, claim), takeback, abort, and the flag.

use super::action::Action;
use super::chat::{AppResult, Reply};
use super::ctx::{finished_replies, not_your_game, save_game, Ctx, Slot};
use super::view::{button, game_buttons, ply_of, seen_from, to_move_text};
use crate::arbiter::{Outcome, Ruling};
use crate::core::Color;
use crate::game::{EndReason, Game, GameStatus};
use crate::i18n::app::{Label, Msg};

fn player_of<'a>(ctx: &Ctx<'_>, slot: &'a Slot) -> Result<(&'a Game, Color), Box<Msg>> {
    let game = slot.game.as_ref().ok_or(Msg::NoGame)?;
    let me = game
        .color_of(&ctx.user.id)
        .ok_or_else(|| Box::new(not_your_game(game)))?;
    Ok((game, me))
}

async fn end_game(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    outcome: Outcome,
    reason: EndReason,
    ruling: Option<Ruling>,
) -> AppResult<Vec<Reply>> {
    let Some(current) = slot.game.as_ref() else {
        return Ok(vec![ctx.say(Msg::NoGame)]);
    };
    let old = current.deadlines();
    let mut game = current.clone();
    game.finish(outcome, reason, ctx.now);
    let viewer = game.color_of(&ctx.user.id);
    save_game(ctx, slot, game.clone(), &old).await?;
    Ok(finished_replies(
        ctx,
        &game,
        Vec::new(),
        ruling.as_ref(),
        viewer,
        ctx.notation,
    )
    .await)
}

pub(crate) async fn resign(ctx: &Ctx<'_>, slot: &mut Slot) -> AppResult<Vec<Reply>> {
    let me = match player_of(ctx, slot) {
        Ok((_, me)) => me,
        Err(m) => return Ok(vec![ctx.private(*m)]),
    };
    end_game(
        ctx,
        slot,
        Outcome::loss_for(me),
        EndReason::Resignation,
        None,
    )
    .await
}

/// The private question under *Resign*: a button only the asker can press.
pub(crate) fn confirm_resign(ctx: &Ctx<'_>, game: u64, ply: u32, by: Color) -> Reply {
    Reply {
        text: ctx.t_reader(&Msg::ConfirmResign),
        buttons: vec![vec![button(
            Label::ConfirmResign,
            Action::ConfirmResign {
                game,
                ply,
                by: Some(by),
            },
            ctx.reader,
        )]],
        private: true,
        track: true,
        ..Reply::default()
    }
}

pub(crate) async fn draw(ctx: &Ctx<'_>, slot: &mut Slot) -> AppResult<Vec<Reply>> {
    let (game, me) = match player_of(ctx, slot) {
        Ok(x) => x,
        Err(m) => return Ok(vec![ctx.private(*m)]),
    };
    if game.record.draw_offer == Some(me.other()) {
        return end_game(ctx, slot, Outcome::Draw, EndReason::Agreement, None).await;
    }
    // A claim where the ruleset grants one (vietnam's no-progress rule).
    if game.to_move() == me && game.arbiter.draw_claimable() {
        let mut g = game.clone();
        if let Ok(r) = g.arbiter.claim_draw() {
            let reason = EndReason::Ruling(r.reason);
            return end_game(ctx, slot, Outcome::Draw, reason, Some(r)).await;
        }
    }
    if game.record.draw_offer == Some(me) {
        // The offerer's own *Accept* (or a second offer): only the other side answers it.
        return Ok(vec![ctx.private(Msg::DrawAlreadyOffered)]);
    }
    let mut g = game.clone();
    g.record.draw_offer = Some(me);
    let (gid, ply) = (g.record.id, ply_of(&g));
    let to = g.player(me.other()).name.clone();
    save_game(ctx, slot, g, &[]).await?;
    Ok(vec![Reply {
        text: ctx.t(&Msg::DrawOffered {
            by: ctx.user.name.clone(),
            to,
        }),
        buttons: vec![vec![
            button(Label::AcceptDraw, Action::Draw { game: gid, ply }, ctx.lang),
            button(
                Label::DeclineOffer,
                Action::DeclineOffer { game: gid, ply },
                ctx.lang,
            ),
        ]],
        track: true,
        ..Reply::default()
    }])
}

pub(crate) async fn takeback(ctx: &Ctx<'_>, slot: &mut Slot) -> AppResult<Vec<Reply>> {
    let (game, me) = match player_of(ctx, slot) {
        Ok(x) => x,
        Err(m) => return Ok(vec![ctx.private(*m)]),
    };
    if !game.record.takebacks {
        return Ok(vec![ctx.say(Msg::TakebacksDisabled)]);
    }
    if game.record.takeback_request == Some(me) {
        // The asker's own *Allow* (or a second request): only the other side answers it.
        return Ok(vec![ctx.private(Msg::OwnTakeback {
            to: game.player(me.other()).name.clone(),
        })]);
    }
    if game.record.takeback_request == Some(me.other()) {
        // The requester takes back their last move: one ply if they moved last, two if it
        // is their turn again.
        let requester = me.other();
        let n = if game.to_move() == requester { 2 } else { 1 };
        if game.record.moves.len() < n {
            return Ok(vec![ctx.say(Msg::NothingToTakeBack)]);
        }
        let old = game.deadlines();
        let mut g = game.clone();
        g.take_back(n, ctx.now);
        save_game(ctx, slot, g.clone(), &old).await?;
        let caption = format!(
            "{}\n{}",
            ctx.t(&Msg::TakebackDone { plies: n }),
            to_move_text(&g, ctx.lang)
        );
        let buttons = game_buttons(&g, ctx.svc.config.web.is_some(), ctx.lang);
        let viewer = seen_from(&g);
        return Ok(vec![
            ctx.svc
                .board_reply(&g, viewer, caption, buttons, ctx.lang)
                .await,
        ]);
    }
    let n = if game.to_move() == me { 2 } else { 1 };
    if game.record.moves.len() < n {
        return Ok(vec![ctx.say(Msg::NothingToTakeBack)]);
    }
    let mut g = game.clone();
    g.record.takeback_request = Some(me);
    let (gid, ply) = (g.record.id, ply_of(&g));
    let to = g.player(me.other()).name.clone();
    save_game(ctx, slot, g, &[]).await?;
    Ok(vec![Reply {
        text: ctx.t(&Msg::TakebackRequested {
            by: ctx.user.name.clone(),
            to,
        }),
        buttons: vec![vec![
            button(
                Label::AcceptTakeback,
                Action::AcceptTakeback { game: gid, ply },
                ctx.lang,
            ),
            button(
                Label::DeclineOffer,
                Action::DeclineOffer { game: gid, ply },
                ctx.lang,
            ),
        ]],
        track: true,
        ..Reply::default()
    }])
}

/// Decline the opponent's draw offer or takeback request.
pub(crate) async fn decline_offer(ctx: &Ctx<'_>, slot: &mut Slot) -> AppResult<Vec<Reply>> {
    let (game, me) = match player_of(ctx, slot) {
        Ok(x) => x,
        Err(m) => return Ok(vec![ctx.private(*m)]),
    };
    let (opp, mine) = (Some(me.other()), Some(me));
    let to = game.player(me.other()).name.clone();
    let mut g = game.clone();
    let msg = if g.record.draw_offer == opp {
        g.record.draw_offer = None;
        Msg::DrawDeclined {
            by: ctx.user.name.clone(),
        }
    } else if g.record.takeback_request == opp {
        g.record.takeback_request = None;
        Msg::TakebackDeclined {
            by: ctx.user.name.clone(),
        }
    } else if g.record.draw_offer == mine {
        // Declining one's own offer: refused, and the offer (with its buttons) stands.
        return Ok(vec![ctx.private(Msg::OwnDrawOffer { to })]);
    } else if g.record.takeback_request == mine {
        return Ok(vec![ctx.private(Msg::OwnTakeback { to })]);
    } else {
        return Ok(vec![ctx.private(Msg::NoDrawOffer)]);
    };
    save_game(ctx, slot, g, &[]).await?;
    Ok(vec![ctx.say(msg)])
}

pub(crate) async fn abort(ctx: &Ctx<'_>, slot: &mut Slot) -> AppResult<Vec<Reply>> {
    let game = match player_of(ctx, slot) {
        Ok((g, _)) => g,
        Err(m) => return Ok(vec![ctx.private(*m)]),
    };
    if let Some(refusal) = super::tournament::no_abort(ctx, game) {
        return Ok(vec![refusal]);
    }
    if game.record.moves.len() >= 2 {
        return Ok(vec![ctx.say(Msg::AbortTooLate)]);
    }
    let old = game.deadlines();
    let mut g = game.clone();
    g.record.status = GameStatus::Aborted;
    g.record.updated_ms = ctx.now;
    save_game(ctx, slot, g, &old).await?;
    Ok(vec![ctx.say(Msg::Aborted)])
}

/// `/claim` in an untimed game whose player to move has not moved for the channel's idle
/// time: the waiting player wins (`/claim`) or ends the game without a result (`/claim end`).
pub(crate) async fn claim(ctx: &Ctx<'_>, slot: &mut Slot, args: &str) -> AppResult<Vec<Reply>> {
    let (game, me) = match player_of(ctx, slot) {
        Ok(x) => x,
        Err(m) => return Ok(vec![ctx.private(*m)]),
    };
    let Some(at) = game.idle_claim_at() else {
        return Ok(vec![ctx.private(Msg::ClaimTimed)]);
    };
    if game.to_move() == me {
        return Ok(vec![ctx.private(Msg::ClaimOwnMove)]);
    }
    let absent = game.player(me.other()).name.clone();
    if ctx.now < at {
        return Ok(vec![ctx.private(Msg::ClaimTooEarly {
            absent,
            left: crate::i18n::app::duration_text(at - ctx.now, ctx.reader),
        })]);
    }
    let word = args.trim().to_lowercase();
    match word.as_str() {
        "" | "win" | "thắng" | "thang" | "胜" | "勝" | "判胜" => {
            end_game(
                ctx,
                slot,
                Outcome::loss_for(me.other()),
                EndReason::Abandonment,
                None,
            )
            .await
        }
        "end" | "abort" | "stop" | "kết thúc" | "ket thuc" | "hủy" | "huy" | "结束" | "結束" =>
        {
            let old = game.deadlines();
            let mut g = game.clone();
            g.record.status = GameStatus::Aborted;
            g.record.updated_ms = ctx.now;
            save_game(ctx, slot, g, &old).await?;
            Ok(vec![ctx.say(Msg::ClaimEnded {
                by: ctx.user.name.clone(),
                absent,
            })])
        }
        _ => Ok(vec![ctx.private(Msg::BadClaim {
            word: word.chars().take(24).collect(),
        })]),
    }
}

/// Game `id`'s side to move did not make its first move in time: it loses by default (a
/// tournament game), once.
pub(crate) async fn no_first_move(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    id: u64,
) -> AppResult<Vec<Reply>> {
    let Some(g) = slot
        .game
        .as_ref()
        .filter(|g| g.record.id == id && g.is_active())
        .filter(|g| g.first_move_due().is_some_and(|due| due <= ctx.now))
    else {
        return Ok(Vec::new());
    };
    let game = g.clone();
    lose_to_move(ctx, slot, game, EndReason::Abandonment).await
}

/// The side to move of `game` loses it (`reason`): stored, and its end said.
async fn lose_to_move(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    mut game: Game,
    reason: EndReason,
) -> AppResult<Vec<Reply>> {
    let loser = game.to_move();
    let old = game.deadlines();
    game.finish(Outcome::loss_for(loser), reason, ctx.now);
    save_game(ctx, slot, game.clone(), &old).await?;
    Ok(finished_replies(
        ctx,
        &game,
        Vec::new(),
        None,
        Some(loser.other()),
        ctx.notation,
    )
    .await)
}

/// If the side to move ran out of time before this event, end the game now (the timer may
/// not have fired yet); the flag falls exactly once because the game leaves the slot.
pub(crate) async fn settle_flag(ctx: &Ctx<'_>, slot: &mut Slot) -> AppResult<Vec<Reply>> {
    match slot.game.as_ref() {
        Some(g) if g.flagged(ctx.now) && !ctx.svc.bot_thinking(g) => {
            let game = g.clone();
            lose_to_move(ctx, slot, game, EndReason::Timeout).await
        }
        _ => Ok(Vec::new()),
    }
}
