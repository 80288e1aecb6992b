//! Dispatch, challenges, and the moves and endings of a game.

use tokio::sync::OwnedMutexGuard;

use super::view::{button, clocks_text, game_buttons, ply_of, to_move_text};
use super::{default_notation, info, Action, AppResult, Cmd, Incoming, Line, Reply, Service};
use crate::arbiter::{Outcome, RulesetName, Ruling, SubmitError};
use crate::core::{Color, Move};
use crate::game::{
    Challenge, ChannelRecord, ChannelSlot, ColorChoice, DeadlineKind, Game, GameSetup, GameStatus,
    PlayerRef, TimeControl,
};
use crate::i18n::app::{color_word, text, Label, Msg};
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
            format!("{} {sq}", crate::i18n::arbiter::role_name(p.role, ctx.lang))
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

fn mentioned(ctx: &Ctx<'_>, token: &str) -> Option<PlayerRef> {
    if let Some((_, p)) = ctx.inc.mentions.iter().find(|(t, _)| t == token) {
        return Some(p.clone());
    }
    let handle = token.strip_prefix('@')?;
    if handle.is_empty() || handle.chars().count() > 64 {
        return None;
    }
    let platform = ctx.inc.channel.split(':').next().unwrap_or("x");
    let lower = handle.to_lowercase();
    Some(if platform == "console" {
        PlayerRef::new(format!("console:{lower}"), handle)
    } else {
        PlayerRef::new(format!("{platform}:@{lower}"), handle)
    })
}

/// Whether the incoming user is `p` (by id, or by handle for `@name` challenges).
fn is_user(ctx: &Ctx<'_>, p: &PlayerRef) -> bool {
    if p.id == ctx.inc.user.id {
        return true;
    }
    let platform = ctx.inc.channel.split(':').next().unwrap_or("x");
    ctx.inc
        .handle
        .as_ref()
        .is_some_and(|h| p.id == format!("{platform}:@{}", h.to_lowercase()))
}

fn color_choice(word: &str) -> Option<ColorChoice> {
    match word.to_lowercase().as_str() {
        "red" | "đỏ" | "do" | "trắng" | "trang" | "红" | "紅" | "white" => {
            Some(ColorChoice::Red)
        }
        "black" | "đen" | "den" | "黑" => Some(ColorChoice::Black),
        "random" | "any" | "ngẫu nhiên" | "随机" | "?" => Some(ColorChoice::Random),
        _ => None,
    }
}

fn channel_ruleset(record: &ChannelRecord) -> RulesetName {
    record
        .settings
        .ruleset
        .as_deref()
        .and_then(|r| r.parse().ok())
        .unwrap_or_default()
}

fn live_challenge(slot: &Slot, now: u64) -> Option<Challenge> {
    slot.record.challenge.clone().filter(|c| c.expires_ms > now)
}

async fn challenge(ctx: &Ctx<'_>, slot: &mut Slot, args: &str) -> AppResult<Vec<Reply>> {
    if let Some(g) = slot.game.as_ref() {
        return Ok(vec![ctx.say(Msg::GameInProgress {
            red: g.record.red.name.clone(),
            black: g.record.black.name.clone(),
        })]);
    }
    if let Some(c) = live_challenge(slot, ctx.now) {
        return Ok(vec![ctx.say(Msg::ChallengePending {
            challenger: c.challenger.name,
        })]);
    }
    let mut opponent = None;
    let mut tc = TimeControl::None;
    let mut ruleset = channel_ruleset(&slot.record);
    let mut color = ColorChoice::Random;
    let mut start_fen = None;
    let words: Vec<&str> = args.split_whitespace().take(10).collect();
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        i += 1;
        if word.matches('/').count() >= 2 {
            // A set-up start: the board part of a FEN, optionally followed by the side.
            let mut fen = word.to_string();
            if let Some(side) = words.get(i).filter(|w| matches!(**w, "w" | "b" | "r")) {
                fen.push(' ');
                fen.push_str(side);
                i += 1;
            }
            match crate::core::Position::from_fen(&fen) {
                Ok(pos) => {
                    let over = crate::arbiter::Arbiter::new(
                        pos.clone(),
                        crate::arbiter::Ruleset::default(),
                    )
                    .ruling()
                    .is_some();
                    if over {
                        return Ok(vec![ctx.say(Msg::BadStart {
                            detail: crate::i18n::arbiter::reason_text(
                                if pos.is_check() {
                                    crate::arbiter::Reason::Checkmate
                                } else {
                                    crate::arbiter::Reason::Stalemate
                                },
                                ctx.lang,
                            )
                            .to_string(),
                        })]);
                    }
                    start_fen = Some(pos.to_fen());
                }
                Err(e) => {
                    return Ok(vec![ctx.say(Msg::BadStart {
                        detail: crate::i18n::notation::fen_error(&e, ctx.lang),
                    })])
                }
            }
            continue;
        }
        if let Some(p) = mentioned(ctx, word) {
            opponent = Some(p);
        } else if let Ok(t) = word.parse::<TimeControl>() {
            tc = t;
        } else if let Ok(r) = word.parse::<RulesetName>() {
            ruleset = r;
        } else if let Some(c) = color_choice(word) {
            color = c;
        } else if word.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            return Ok(vec![ctx.say(Msg::BadTimeControl {
                text: word.chars().take(24).collect(),
            })]);
        } else {
            return Ok(vec![ctx.say(Msg::BadPlayArgument {
                word: word.chars().take(24).collect(),
            })]);
        }
    }
    if opponent.as_ref().is_some_and(|o| is_user(ctx, o)) {
        return Ok(vec![ctx.say(Msg::ChallengeSelf)]);
    }
    let id = ctx.svc.storage().next_id()?;
    let c = Challenge {
        id,
        challenger: ctx.inc.user.clone(),
        opponent: opponent.clone(),
        time_control: tc,
        ruleset: ruleset.as_str().to_string(),
        color,
        start_fen,
        expires_ms: ctx.now + ctx.svc.config.challenge_ttl_ms,
    };
    let mut record = slot.record.clone();
    record.challenge = Some(c.clone());
    let mut changes = crate::game::Changes::default();
    changes
        .channels
        .push((ctx.inc.channel.clone(), record.clone()));
    changes.add_deadlines.push(crate::game::Deadline {
        at_ms: c.expires_ms,
        id,
        kind: DeadlineKind::ChallengeExpiry,
        channel: ctx.inc.channel.clone(),
    });
    ctx.svc.persist(changes).await?;
    slot.record = record;
    let color_name = match color {
        ColorChoice::Red => "red",
        ColorChoice::Black => "black",
        ColorChoice::Random => "random",
    };
    Ok(vec![Reply {
        text: ctx.t(&Msg::ChallengeCreated {
            challenger: c.challenger.name.clone(),
            opponent: opponent.map(|o| o.name),
            time_control: tc.to_string(),
            ruleset: ruleset.as_str().to_string(),
            color: color_word(color_name, ctx.lang).to_string(),
            minutes: ctx.svc.config.challenge_ttl_ms.div_ceil(60_000),
        }),
        buttons: vec![vec![
            button(Label::Accept, Action::Accept { id }, ctx.lang),
            button(Label::Decline, Action::Decline { id }, ctx.lang),
        ]],
        ..Reply::default()
    }])
}

async fn accept(ctx: &Ctx<'_>, slot: &mut Slot, id: Option<u64>) -> AppResult<Vec<Reply>> {
    let Some(c) = live_challenge(slot, ctx.now) else {
        if id.is_some() {
            return Ok(vec![ctx.private(Msg::StaleButton)]);
        }
        return Ok(vec![match slot.game.as_ref() {
            // `/accept` in a game answers a draw offer or a takeback request.
            Some(g) if g.record.draw_offer.is_some() => return draw(ctx, slot).await,
            Some(g) if g.record.takeback_request.is_some() => return takeback(ctx, slot).await,
            _ => ctx.say(Msg::NoChallenge),
        }]);
    };
    if id.is_some_and(|i| i != c.id) {
        return Ok(vec![ctx.private(Msg::StaleButton)]);
    }
    if is_user(ctx, &c.challenger) {
        return Ok(vec![ctx.private(Msg::OwnChallenge)]);
    }
    if let Some(o) = c.opponent.as_ref().filter(|o| !is_user(ctx, o)) {
        return Ok(vec![ctx.private(Msg::ChallengeNotForYou {
            opponent: o.name.clone(),
        })]);
    }
    let me = ctx.inc.user.clone();
    let challenger_red = match c.color {
        ColorChoice::Red => true,
        ColorChoice::Black => false,
        ColorChoice::Random => (c.id ^ (ctx.now / 1000)).is_multiple_of(2),
    };
    let (red, black) = if challenger_red {
        (c.challenger.clone(), me)
    } else {
        (me, c.challenger.clone())
    };
    let ruleset: RulesetName = c.ruleset.parse().unwrap_or_default();
    let game = Game::start(
        GameSetup {
            id: c.id,
            channel: ctx.inc.channel.clone(),
            red,
            black,
            ruleset,
            time_control: c.time_control,
            start: c
                .start_fen
                .as_deref()
                .and_then(|f| crate::core::Position::from_fen(f).ok()),
            takebacks: slot.record.settings.takebacks,
        },
        ctx.now,
    );
    let mut record = slot.record.clone();
    record.challenge = None;
    record.active_game = Some(game.record.id);
    record.last_game = Some(game.record.id);
    let mut changes = crate::game::Changes::default();
    changes
        .channels
        .push((ctx.inc.channel.clone(), record.clone()));
    changes.games.push(game.record.clone());
    changes.remove_deadlines.push(crate::game::Deadline {
        at_ms: c.expires_ms,
        id: c.id,
        kind: DeadlineKind::ChallengeExpiry,
        channel: ctx.inc.channel.clone(),
    });
    changes.add_deadlines.extend(game.deadlines());
    ctx.svc.persist(changes).await?;
    slot.record = record;
    let mut caption = ctx.t(&Msg::GameStarted {
        red: game.record.red.name.clone(),
        black: game.record.black.name.clone(),
        time_control: game.record.time_control.to_string(),
        ruleset: ruleset.as_str().to_string(),
        id: game.record.id,
    });
    caption.push('\n');
    caption.push_str(&to_move_text(&game, ctx.lang));
    if let Some(cl) = clocks_text(&game.record, game.to_move(), ctx.now, ctx.lang) {
        caption.push('\n');
        caption.push_str(&cl);
    }
    let buttons = game_buttons(&game, ctx.lang);
    let board = ctx
        .svc
        .board_reply(&game, game.to_move(), caption, buttons, ctx.lang)
        .await;
    slot.game = Some(game);
    Ok(vec![board])
}

async fn decline(ctx: &Ctx<'_>, slot: &mut Slot, id: Option<u64>) -> AppResult<Vec<Reply>> {
    if let Some(c) = live_challenge(slot, ctx.now) {
        if id.is_some_and(|i| i != c.id) {
            return Ok(vec![ctx.private(Msg::StaleButton)]);
        }
        if is_user(ctx, &c.challenger) {
            return cancel(ctx, slot).await;
        }
        match &c.opponent {
            Some(o) if is_user(ctx, o) => {}
            Some(o) => {
                return Ok(vec![ctx.private(Msg::ChallengeNotForYou {
                    opponent: o.name.clone(),
                })])
            }
            // Nobody declines an open challenge for everyone; the challenger can cancel it.
            None => return Ok(vec![ctx.private(Msg::NotYourChallenge)]),
        }
        drop_challenge(ctx, slot, &c).await?;
        return Ok(vec![ctx.say(Msg::ChallengeDeclined {
            by: ctx.inc.user.name.clone(),
        })]);
    }
    if id.is_some() {
        return Ok(vec![ctx.private(Msg::StaleButton)]);
    }
    let Some(game) = slot.game.as_ref() else {
        return Ok(vec![ctx.say(Msg::NoChallenge)]);
    };
    let Some(me) = game.color_of(&ctx.inc.user.id) else {
        return Ok(vec![ctx.say(not_your_game(game))]);
    };
    let opp = crate::game::color_name(me.other());
    let mut g = game.clone();
    let msg = if g.record.draw_offer.as_deref() == Some(opp) {
        g.record.draw_offer = None;
        Msg::DrawDeclined {
            by: ctx.inc.user.name.clone(),
        }
    } else if g.record.takeback_request.as_deref() == Some(opp) {
        g.record.takeback_request = None;
        Msg::TakebackDeclined {
            by: ctx.inc.user.name.clone(),
        }
    } else {
        return Ok(vec![ctx.say(Msg::NoDrawOffer)]);
    };
    save_game(ctx, slot, g, &[]).await?;
    Ok(vec![ctx.say(msg)])
}

async fn drop_challenge(ctx: &Ctx<'_>, slot: &mut Slot, c: &Challenge) -> AppResult<()> {
    let mut record = slot.record.clone();
    record.challenge = None;
    let mut changes = crate::game::Changes::default();
    changes
        .channels
        .push((ctx.inc.channel.clone(), record.clone()));
    changes.remove_deadlines.push(crate::game::Deadline {
        at_ms: c.expires_ms,
        id: c.id,
        kind: DeadlineKind::ChallengeExpiry,
        channel: ctx.inc.channel.clone(),
    });
    ctx.svc.persist(changes).await?;
    slot.record = record;
    Ok(())
}

async fn cancel(ctx: &Ctx<'_>, slot: &mut Slot) -> AppResult<Vec<Reply>> {
    let Some(c) = live_challenge(slot, ctx.now) else {
        return Ok(vec![ctx.say(Msg::NoChallenge)]);
    };
    if !is_user(ctx, &c.challenger) {
        return Ok(vec![ctx.private(Msg::NotYourChallenge)]);
    }
    drop_challenge(ctx, slot, &c).await?;
    Ok(vec![ctx.say(Msg::ChallengeCancelled)])
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
async fn save_game(
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
            save_game(ctx, slot, game.clone(), &old_deadlines).await?;
            let mut lines = vec![ctx.t(&Msg::Moved {
                ply: game.record.moves.len(),
                player: game.player(mover).name.clone(),
                text: format_move(&before, mv, echo),
                iccs: mv.to_string(),
            })];
            if let Some(r) = acc.ruling.as_ref() {
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
            Ok(vec![
                ctx.svc
                    .board_reply(&game, viewer, lines.join("\n"), buttons, ctx.lang)
                    .await,
            ])
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
        format!("{}: {why}", outcome_text(outcome, lang)),
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

fn player_of<'a>(ctx: &Ctx<'_>, slot: &'a Slot) -> Result<(&'a Game, Color), Box<Msg>> {
    let game = slot.game.as_ref().ok_or(Msg::NoGame)?;
    let me = game
        .color_of(&ctx.inc.user.id)
        .ok_or_else(|| Box::new(not_your_game(game)))?;
    Ok((game, me))
}

async fn end_game(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    outcome: Outcome,
    reason: &str,
    ruling: Option<Ruling>,
) -> AppResult<Vec<Reply>> {
    let Some(current) = slot.game.as_ref() else {
        return Ok(vec![ctx.say(Msg::NoGame)]);
    };
    let old = current.deadlines();
    let mut game = current.clone();
    game.finish(outcome, reason, ctx.now);
    let viewer = game.color_of(&ctx.inc.user.id);
    save_game(ctx, slot, game.clone(), &old).await?;
    Ok(finished_replies(ctx, &game, Vec::new(), ruling.as_ref(), viewer).await)
}

async fn resign(ctx: &Ctx<'_>, slot: &mut Slot) -> AppResult<Vec<Reply>> {
    let me = match player_of(ctx, slot) {
        Ok((_, me)) => me,
        Err(m) => return Ok(vec![ctx.say(*m)]),
    };
    end_game(ctx, slot, Outcome::loss_for(me), "resignation", None).await
}

async fn draw(ctx: &Ctx<'_>, slot: &mut Slot) -> AppResult<Vec<Reply>> {
    let (game, me) = match player_of(ctx, slot) {
        Ok(x) => x,
        Err(m) => return Ok(vec![ctx.say(*m)]),
    };
    let mine = crate::game::color_name(me);
    let theirs = crate::game::color_name(me.other());
    if game.record.draw_offer.as_deref() == Some(theirs) {
        return end_game(ctx, slot, Outcome::Draw, "agreement", None).await;
    }
    // A claim where the ruleset grants one (vietnam's no-progress rule).
    if game.to_move() == me && game.arbiter.draw_claimable() {
        let mut g = game.clone();
        if let Ok(r) = g.arbiter.claim_draw() {
            return end_game(ctx, slot, Outcome::Draw, r.reason.as_str(), Some(r)).await;
        }
    }
    if game.record.draw_offer.as_deref() == Some(mine) {
        return Ok(vec![ctx.say(Msg::DrawAlreadyOffered)]);
    }
    let mut g = game.clone();
    g.record.draw_offer = Some(mine.to_string());
    let (gid, ply) = (g.record.id, ply_of(&g));
    let to = g.player(me.other()).name.clone();
    save_game(ctx, slot, g, &[]).await?;
    Ok(vec![Reply {
        text: ctx.t(&Msg::DrawOffered {
            by: ctx.inc.user.name.clone(),
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
        ..Reply::default()
    }])
}

async fn takeback(ctx: &Ctx<'_>, slot: &mut Slot) -> AppResult<Vec<Reply>> {
    let (game, me) = match player_of(ctx, slot) {
        Ok(x) => x,
        Err(m) => return Ok(vec![ctx.say(*m)]),
    };
    if !game.record.takebacks {
        return Ok(vec![ctx.say(Msg::TakebacksDisabled)]);
    }
    let theirs = crate::game::color_name(me.other());
    if game.record.takeback_request.as_deref() == Some(theirs) {
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
        let buttons = game_buttons(&g, ctx.lang);
        let viewer = g.to_move();
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
    g.record.takeback_request = Some(crate::game::color_name(me).to_string());
    let (gid, ply) = (g.record.id, ply_of(&g));
    let to = g.player(me.other()).name.clone();
    save_game(ctx, slot, g, &[]).await?;
    Ok(vec![Reply {
        text: ctx.t(&Msg::TakebackRequested {
            by: ctx.inc.user.name.clone(),
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
        ..Reply::default()
    }])
}

async fn abort(ctx: &Ctx<'_>, slot: &mut Slot) -> AppResult<Vec<Reply>> {
    let game = match player_of(ctx, slot) {
        Ok((g, _)) => g,
        Err(m) => return Ok(vec![ctx.say(*m)]),
    };
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

/// If the side to move ran out of time before this event, end the game now (the timer may
/// not have fired yet); the flag falls exactly once because the game leaves the slot.
async fn settle_flag(ctx: &Ctx<'_>, slot: &mut Slot) -> AppResult<Vec<Reply>> {
    match slot.game.as_ref() {
        Some(g) if g.flagged(ctx.now) => {
            let loser = g.to_move();
            let old = g.deadlines();
            let mut game = g.clone();
            game.finish(Outcome::loss_for(loser), "timeout", ctx.now);
            save_game(ctx, slot, game.clone(), &old).await?;
            Ok(finished_replies(ctx, &game, Vec::new(), None, Some(loser.other())).await)
        }
        _ => Ok(Vec::new()),
    }
}
