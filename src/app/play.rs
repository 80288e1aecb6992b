//! Dispatch, challenges, and the moves and endings of a game.

use tokio::sync::OwnedMutexGuard;

use super::challenge::{accept, cancel, challenge, decline};
use super::endings::{abort, draw, resign, settle_flag, takeback};
use super::view::{button, clocks_text, game_buttons, ply_of, to_move_text};
use super::{default_notation, info, Action, AppResult, Cmd, Incoming, Line, Reply, Service};
use crate::arbiter::{Outcome, Ruling, SubmitError};
use crate::core::{Color, Move};
use crate::game::{ChannelRecord, ChannelSlot, Game, GameStatus};
use crate::i18n::app::{text, Label, Msg};
use crate::i18n::arbiter::{explain_refusal, explain_ruling, explain_warning, outcome_text};
use crate::i18n::notation::{illegal_move, move_text_error};
use crate::i18n::Lang;
use crate::notation::{format_move, parse_text, read_move, Notation};

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

pub(crate) async fn dispatch(svc: &Service, inc: &Incoming, line: Line) -> AppResult<Vec<Reply>> {
    let mut slot = svc.manager.lock(&inc.channel).await?;
    let lang = channel_lang(&slot.record, inc);
    let prefs = svc.storage().user(&inc.user.id)?.unwrap_or_default();
    let chosen: Option<Notation> = prefs.notation.as_deref().and_then(|n| n.parse().ok());
    let notation = chosen.unwrap_or_else(|| default_notation(lang));
    let ctx = Ctx {
        svc,
        inc,
        lang,
        notation,
        notation_chosen: chosen.is_some(),
        now: svc.now(),
    };
    // A flag that fell since the last event is settled before anything else happens.
    let mut replies = settle_flag(&ctx, &mut slot).await?;
    let more = if let Some(action) = inc.action {
        on_action(&ctx, &mut slot, action).await?
    } else {
        match line {
            Line::Unknown(cmd) => vec![ctx.say(Msg::UnknownCommand { cmd })],
            Line::Text(t) => bare_text(&ctx, &mut slot, &t).await?,
            Line::Command(cmd, args) => command(&ctx, &mut slot, cmd, &args).await?,
        }
    };
    replies.extend(more);
    Ok(replies)
}

async fn command(ctx: &Ctx<'_>, slot: &mut Slot, cmd: Cmd, args: &str) -> AppResult<Vec<Reply>> {
    match cmd {
        Cmd::Play => challenge(ctx, slot, args).await,
        Cmd::Accept => accept(ctx, slot, None).await,
        Cmd::Decline => decline(ctx, slot, None).await,
        Cmd::Cancel => cancel(ctx, slot).await,
        Cmd::Move => {
            if args.is_empty() {
                return Ok(vec![ctx.say(Msg::NotAMove {
                    detail: move_text_error(&crate::notation::MoveTextError::Empty, ctx.lang),
                })]);
            }
            typed_move(ctx, slot, args, true).await
        }
        Cmd::Resign => resign(ctx, slot).await,
        Cmd::Draw => draw(ctx, slot).await,
        Cmd::Takeback => takeback(ctx, slot).await,
        Cmd::Abort => abort(ctx, slot).await,
        _ => info::command(ctx, slot, cmd, args).await,
    }
}

async fn on_action(ctx: &Ctx<'_>, slot: &mut Slot, action: Action) -> AppResult<Vec<Reply>> {
    match action {
        Action::Accept { id } => return accept(ctx, slot, Some(id)).await,
        Action::Decline { id } => return decline(ctx, slot, Some(id)).await,
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
        Action::Resign { game, ply } => Ok(vec![Reply {
            text: ctx.t(&Msg::ConfirmResign),
            buttons: vec![vec![button(
                Label::ConfirmResign,
                Action::ConfirmResign { game, ply },
                ctx.lang,
            )]],
            private: true,
            ..Reply::default()
        }]),
        Action::ConfirmResign { .. } => resign(ctx, slot).await,
        Action::Draw { .. } => draw(ctx, slot).await,
        Action::DeclineOffer { .. } => decline(ctx, slot, None).await,
        Action::AcceptTakeback { .. } => takeback(ctx, slot).await,
        Action::Flip { .. } => {
            let game = game.clone();
            let viewer = me.other();
            let caption = info::caption(ctx, &game);
            let buttons = game_buttons(&game, ctx.lang);
            Ok(vec![
                ctx.svc
                    .board_reply(&game, viewer, caption, buttons, ctx.lang)
                    .await,
            ])
        }
        Action::Pick { game, ply } => Ok(vec![picker(ctx, slot, me, game, ply, None)]),
        Action::PickFrom { game, ply, from } => {
            Ok(vec![picker(ctx, slot, me, game, ply, Some(from))])
        }
        Action::PickTo { mv, .. } => {
            if slot.game.as_ref().map(Game::to_move) != Some(me) {
                return Ok(vec![ctx.private(Msg::NotYourTurn {
                    player: game.player(me.other()).name.clone(),
                })]);
            }
            play_move(ctx, slot, mv).await
        }
        Action::Accept { .. } | Action::Decline { .. } => Ok(Vec::new()),
    }
}

/// The two-step move picker: the player's movable pieces, then one piece's targets.
fn picker(
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
    let pos = game.position();
    let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    let name = |sq: crate::core::Square| {
        pos.piece_at(sq).map_or_else(String::new, |p| {
            format!("{} {sq}", crate::i18n::role_name(p.role, p.color, ctx.lang))
        })
    };
    let (prompt, buttons): (String, Vec<super::Button>) = match from {
        None => {
            let mut froms: Vec<crate::core::Square> = moves.iter().map(|m| m.from).collect();
            froms.sort();
            froms.dedup();
            (
                ctx.t(&Msg::PickPiece),
                froms
                    .into_iter()
                    .map(|f| super::Button {
                        label: name(f),
                        action: Action::PickFrom {
                            game: game_id,
                            ply,
                            from: f,
                        },
                    })
                    .collect(),
            )
        }
        Some(f) => {
            let mut list: Vec<super::Button> = moves
                .iter()
                .filter(|m| m.from == f)
                .map(|&m| super::Button {
                    label: format!("{} ({m})", format_move(pos, m, ctx.notation)),
                    action: Action::PickTo {
                        game: game_id,
                        ply,
                        mv: m,
                    },
                })
                .collect();
            list.push(button(
                Label::Back,
                Action::Pick { game: game_id, ply },
                ctx.lang,
            ));
            (ctx.t(&Msg::PickTarget { piece: name(f) }), list)
        }
    };
    // Rows of at most five: small enough for Telegram's eight-per-row limit and for phones.
    let rows = buttons.chunks(5).map(<[super::Button]>::to_vec).collect();
    Reply {
        text: prompt,
        buttons: rows,
        menu: true,
        ..Reply::default()
    }
}

pub(crate) fn not_your_game(game: &Game) -> Msg {
    Msg::NotYourGame {
        red: game.record.red.name.clone(),
        black: game.record.black.name.clone(),
    }
}

/// Whether some notation reads `text` as a move (so it was meant as one).
fn looks_like_move(text: &str) -> bool {
    text.chars().count() <= 16 && Notation::ALL.iter().any(|&n| parse_text(text, n).is_ok())
}

async fn bare_text(ctx: &Ctx<'_>, slot: &mut Slot, t: &str) -> AppResult<Vec<Reply>> {
    // Ordinary conversation is not answered; text that reads as a move is.
    let Some(game) = slot.game.as_ref() else {
        return Ok(Vec::new());
    };
    if game.color_of(&ctx.inc.user.id).is_none() || !looks_like_move(t) {
        return Ok(Vec::new());
    }
    typed_move(ctx, slot, t, false).await
}

async fn typed_move(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    t: &str,
    explicit: bool,
) -> AppResult<Vec<Reply>> {
    let Some(game) = slot.game.as_ref() else {
        return Ok(vec![ctx.say(Msg::NoGame)]);
    };
    let Some(me) = game.color_of(&ctx.inc.user.id) else {
        return Ok(if explicit {
            vec![ctx.say(not_your_game(game))]
        } else {
            Vec::new()
        });
    };
    if game.to_move() != me {
        return Ok(vec![ctx.say(Msg::NotYourTurn {
            player: game.player(me.other()).name.clone(),
        })]);
    }
    match read_move(game.position(), t, ctx.notation) {
        Ok(reading) => {
            let echo = if ctx.notation_chosen {
                ctx.notation
            } else {
                reading.notation
            };
            play_move_in(ctx, slot, reading.mv, echo).await
        }
        Err(e) => Ok(vec![ctx.say(Msg::NotAMove {
            detail: move_text_error(&e, ctx.lang),
        })]),
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

async fn play_move(ctx: &Ctx<'_>, slot: &mut Slot, mv: Move) -> AppResult<Vec<Reply>> {
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
            let mut lines = vec![ctx.t(&Msg::Moved {
                ply: game.record.moves.len(),
                player: game.player(mover).name.clone(),
                text: format_move(&before, mv, echo),
                iccs: mv.to_string(),
            })];
            if let Some(r) = acc.ruling.as_ref() {
                save_game(ctx, slot, game.clone(), &old_deadlines).await?;
                return Ok(finished_replies(ctx, &game, lines, Some(r), None).await);
            }
            lines.push(to_move_text(&game, ctx.lang));
            if let Some(cl) = clocks_text(&game.record, game.to_move(), ctx.now, ctx.lang) {
                lines.push(cl);
            }
            let notation = ctx.notation;
            for w in &acc.warnings {
                lines.push(explain_warning(w, game.position(), ctx.lang, notation));
            }
            let buttons = game_buttons(&game, ctx.lang);
            let viewer = game.to_move();
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
            Ok(vec![ctx.say(Msg::Raw(explain_refusal(
                &r,
                ctx.lang,
                ctx.notation,
            )))])
        }
        Err(SubmitError::GameOver) => Ok(vec![ctx.say(Msg::GameIsOver)]),
    }
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
