//! Commands that show things or change settings: board, moves, FEN, PGN, GIF, why, rules,
//! ruleset, notation, language, takebacks, time, games, help.

use std::sync::Arc;

use super::chat::{AppResult, Image, ImageKind, Reply};
use super::command::Cmd;
use super::ctx::{caption, headline, Ctx, Slot};
use super::service::Service;
use super::view::{clocks_text, game_buttons, seen_from};
use crate::arbiter::{RulesetName, SubmitError};
use crate::core::{Color, Move, Position};
use crate::game::{Changes, Game, GameRecord, GameStatus};
use crate::i18n::app::{text, Msg};
use crate::i18n::arbiter::{explain_refusal, explain_ruling, explain_warning, ruleset_name};
use crate::i18n::rulebook::{rulebook, Topic};
use crate::i18n::Lang;
use crate::notation::{format_move, Notation};
use crate::platform::{ChannelKey, Platform, UserKey};
use crate::render::{PieceStyle, Theme};

/// `/help`: every command of the table ([`Cmd::ALL`], in its order) with its name in the
/// channel's language when it has one (`/play (/choi)`) and its menu summary in that language,
/// and *Play the bot* when the bot plays.
pub(crate) fn help(ctx: &Ctx<'_>) -> Reply {
    let commands = Cmd::ALL
        .iter()
        .map(|&(cmd, name)| {
            let summary = crate::i18n::commands::command_summary(name, ctx.lang).unwrap_or("");
            match cmd.aliases().iter().find(|(lang, _)| *lang == ctx.lang) {
                Some((_, alias)) => format!("/{name} (/{alias}) — {summary}"),
                None => format!("/{name} — {summary}"),
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut help = ctx.say(Msg::Help {
        commands,
        top: *super::bot::LEVELS.end(),
    });
    if ctx.svc.bot_enabled() {
        help.buttons = vec![vec![super::view::play_bot_button(ctx.lang)]];
    }
    help
}

/// `/about`: the version, the rule documents the arbiter follows (in the channel's language),
/// and where the source is when the build names it (`repository` in `Cargo.toml`).
pub(crate) fn about(ctx: &Ctx<'_>) -> Reply {
    let documents = crate::arbiter::Source::ALL
        .iter()
        .map(|&s| format!("• {}", crate::i18n::arbiter::source_name(s, ctx.lang)))
        .collect::<Vec<_>>()
        .join("\n");
    ctx.say(Msg::About {
        version: env!("CARGO_PKG_VERSION").to_string(),
        documents,
        source: Some(env!("CARGO_PKG_REPOSITORY"))
            .filter(|s| !s.is_empty())
            .map(str::to_string),
    })
}

/// The channel's game in progress, or else its most recent one.
fn current_or_last(ctx: &Ctx<'_>, slot: &Slot) -> AppResult<Option<Game>> {
    if let Some(g) = slot.game.as_ref() {
        return Ok(Some(g.clone()));
    }
    let Some(id) = slot.record.last_game else {
        return Ok(None);
    };
    let Some(record) = ctx.svc.storage().game(id)? else {
        return Ok(None);
    };
    Ok(Game::from_record(record).ok())
}

/// The board from `viewer`'s side (the *Flip board* button).
pub(crate) async fn flipped(ctx: &Ctx<'_>, slot: &Slot, viewer: Color) -> Reply {
    let Some(game) = slot.game.as_ref() else {
        return ctx.private(Msg::StaleButton);
    };
    let buttons = game_buttons(game, ctx.svc.config.web.is_some(), ctx.lang);
    ctx.svc
        .board_reply(game, viewer, caption(ctx, game), buttons, ctx.lang)
        .await
}

pub(crate) async fn board(ctx: &Ctx<'_>, slot: &Slot, flip: bool) -> AppResult<Vec<Reply>> {
    let Some(game) = current_or_last(ctx, slot)? else {
        return Ok(vec![ctx.say(Msg::NoGame)]);
    };
    let viewer = game
        .color_of(&ctx.user.id)
        .unwrap_or_else(|| seen_from(&game));
    let viewer = if flip { viewer.other() } else { viewer };
    let buttons = game_buttons(&game, ctx.svc.config.web.is_some(), ctx.lang);
    Ok(vec![
        ctx.svc
            .board_reply(&game, viewer, caption(ctx, &game), buttons, ctx.lang)
            .await,
    ])
}

pub(crate) fn moves(ctx: &Ctx<'_>, slot: &Slot) -> Reply {
    let Some(game) = slot.game.as_ref() else {
        return ctx.say(Msg::NoGame);
    };
    let pos = game.position();
    let mut list: Vec<Move> = pos.legal_moves().iter().copied().collect();
    list.sort_by_key(ToString::to_string);
    let shown: Vec<String> = list
        .iter()
        .map(|&m| format_move(pos, m, ctx.notation))
        .collect();
    ctx.say(Msg::LegalMoves {
        count: shown.len(),
        list: shown.join(" "),
    })
}

pub(crate) fn fen(ctx: &Ctx<'_>, slot: &Slot) -> AppResult<Reply> {
    Ok(match current_or_last(ctx, slot)? {
        Some(g) => Reply::text(g.position().to_fen()),
        None => ctx.say(Msg::NoGame),
    })
}

pub(crate) fn pgn(ctx: &Ctx<'_>, slot: &Slot) -> AppResult<Reply> {
    Ok(match current_or_last(ctx, slot)? {
        Some(g) => Reply::text(format!(
            "{}\n{}",
            ctx.t(&Msg::PgnCaption),
            super::pgn(
                &g.record,
                Platform::of(ctx.channel).map_or("chat", Platform::scope)
            )
        )),
        None => ctx.say(Msg::NoGame),
    })
}

pub(crate) async fn gif(ctx: &Ctx<'_>, slot: &Slot) -> AppResult<Vec<Reply>> {
    let Some(game) = current_or_last(ctx, slot)? else {
        return Ok(vec![ctx.say(Msg::NoGame)]);
    };
    let start = game.arbiter.start().clone();
    let moves: Vec<Move> = game.arbiter.plies().iter().map(|p| p.mv).collect();
    let viewer = game.color_of(&ctx.user.id).unwrap_or(Color::Red);
    let renderer = Arc::clone(&ctx.svc.renderer);
    let plies = moves.len();
    // Drawn once the command is committed: a long game's replay takes a while.
    let replay = super::Later::new(move || {
        renderer
            .gif(
                &start,
                &moves,
                viewer,
                Theme::default(),
                PieceStyle::default(),
            )
            .map_err(|e| e.to_string())
    });
    Ok(vec![Reply {
        text: ctx.t(&Msg::GifCaption { plies }),
        image: Some(Image {
            bytes: Arc::new(Vec::new()),
            filename: format!("game-{}.gif", game.record.id),
            kind: ImageKind::Gif,
            alt: ctx.t(&Msg::GifCaption { plies }),
            text_board: None,
            drawing: None,
            later: Some(replay),
        }),
        ..Reply::default()
    }])
}

pub(crate) async fn why(ctx: &Ctx<'_>, slot: &Slot) -> AppResult<Vec<Reply>> {
    let Some(game) = current_or_last(ctx, slot)? else {
        return Ok(vec![ctx.say(Msg::NothingToExplain)]);
    };
    if let Some(r) = game.arbiter.ruling() {
        return Ok(vec![Reply::text(explain_ruling(r, ctx.lang, ctx.notation))]);
    }
    if let GameStatus::Finished { .. } = game.record.status {
        let (score, head) = headline(&game, ctx.lang);
        // A claim is not kept by the arbiter's replay: explain it again from a probe.
        let mut probe = game.arbiter.clone();
        if let Ok(r) = probe.claim_draw() {
            return Ok(vec![Reply::text(explain_ruling(
                &r,
                ctx.lang,
                ctx.notation,
            ))]);
        }
        return Ok(vec![ctx.say(Msg::GameOver {
            score,
            headline: head,
        })]);
    }
    if let Some(text) = game.record.last_refusal.as_deref() {
        if let Some(m) = Move::parse_iccs(text) {
            let mut probe = game.arbiter.clone();
            if let Err(SubmitError::Refused(r)) = probe.submit(m) {
                return Ok(vec![Reply::text(explain_refusal(
                    &r,
                    ctx.lang,
                    ctx.notation,
                ))]);
            }
        }
    }
    let warnings = game.arbiter.warnings();
    if warnings.is_empty() {
        return Ok(vec![ctx.say(Msg::NothingToExplain)]);
    }
    let lines: Vec<String> = warnings
        .iter()
        .map(|w| explain_warning(w, game.position(), ctx.lang, ctx.notation))
        .collect();
    Ok(vec![Reply::text(lines.join("\n"))])
}

pub(crate) fn rules(ctx: &Ctx<'_>, args: &str) -> Reply {
    if args.trim().is_empty() {
        return Reply::text(rulebook(None, ctx.lang));
    }
    match args.parse::<Topic>() {
        Ok(t) => Reply::text(rulebook(Some(t), ctx.lang)),
        Err(e) => Reply::text(format!(
            "{}\n\n{}",
            e.message(ctx.lang),
            rulebook(None, ctx.lang)
        )),
    }
}

async fn save_channel(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    record: crate::game::ChannelRecord,
) -> AppResult<()> {
    let mut changes = Changes::default();
    changes.channels.push((ctx.channel.clone(), record.clone()));
    ctx.persist(changes).await?;
    slot.record = record;
    Ok(())
}

pub(crate) async fn ruleset(ctx: &Ctx<'_>, slot: &mut Slot, args: &str) -> AppResult<Vec<Reply>> {
    let current: RulesetName = slot
        .record
        .settings
        .ruleset
        .as_deref()
        .and_then(|r| r.parse().ok())
        .unwrap_or_default();
    let arg = args.trim();
    if arg.is_empty() {
        return Ok(vec![ctx.say(Msg::RulesetIs {
            name: ruleset_name(current, ctx.lang),
            code: current.as_str().into(),
        })]);
    }
    let Ok(name) = arg.parse::<RulesetName>() else {
        return Ok(vec![ctx.say(Msg::UnknownRuleset {
            name: arg.chars().take(24).collect(),
        })]);
    };
    if name == current {
        return Ok(vec![ctx.say(Msg::RulesetSet {
            name: ruleset_name(name, ctx.lang),
            game_running: slot.game.is_some(),
        })]);
    }
    if let Some(refusal) = ctx.may_not_configure("/ruleset") {
        return Ok(vec![refusal]);
    }
    let mut record = slot.record.clone();
    record.settings.ruleset = Some(name.as_str().into());
    save_channel(ctx, slot, record).await?;
    Ok(vec![ctx.say(Msg::RulesetSet {
        name: ruleset_name(name, ctx.lang),
        game_running: slot.game.is_some(),
    })])
}

pub(crate) async fn notation(ctx: &Ctx<'_>, args: &str) -> AppResult<Vec<Reply>> {
    let arg = args.trim();
    let chosen = if arg.is_empty() {
        ctx.notation
    } else {
        let Ok(n) = arg.parse::<Notation>() else {
            return Ok(vec![ctx.say(Msg::UnknownNotation {
                name: arg.chars().take(24).collect(),
            })]);
        };
        let mut prefs = ctx.svc.storage().user(&ctx.user.id)?.unwrap_or_default();
        prefs.v = crate::game::SCHEMA_VERSION;
        prefs.notation = Some(n.to_string());
        let mut changes = Changes::default();
        changes.users.push((ctx.user.id.clone(), prefs));
        ctx.persist(changes).await?;
        n
    };
    let start = Position::startpos();
    let example =
        Move::parse_iccs("h2e2").map_or_else(String::new, |m| format_move(&start, m, chosen));
    Ok(vec![ctx.say(Msg::NotationIs {
        name: crate::i18n::app::notation_title(chosen, ctx.lang).to_string(),
        example,
    })])
}

pub(crate) async fn lang(ctx: &Ctx<'_>, slot: &mut Slot, args: &str) -> AppResult<Vec<Reply>> {
    let arg = args.trim();
    if arg.is_empty() {
        return Ok(vec![ctx.say(Msg::LangIs)]);
    }
    let Some(l) = Lang::from_tag(arg) else {
        return Ok(vec![ctx.say(Msg::UnknownLang {
            name: arg.chars().take(24).collect(),
        })]);
    };
    if slot.record.settings.lang.as_deref() != Some(l.code()) {
        if let Some(refusal) = ctx.may_not_configure("/lang") {
            return Ok(vec![refusal]);
        }
    }
    // The channel's setting, and also the language of its game and challenge, if any.
    let mut record = slot.record.clone();
    record.settings.lang = Some(l.code().into());
    for c in record.challenges_mut() {
        c.lang = Some(l.code().into());
    }
    let game = slot.game.clone().map(|mut g| {
        g.record.lang = Some(l.code().into());
        g
    });
    let mut changes = Changes::default();
    changes.channels.push((ctx.channel.clone(), record.clone()));
    changes
        .games
        .extend(game.as_ref().map(|g| g.record.clone()));
    ctx.persist(changes).await?;
    slot.record = record;
    if game.is_some() {
        slot.game = game;
    }
    Ok(vec![Reply::text(text(&Msg::LangIs, l))])
}

pub(crate) async fn takebacks(ctx: &Ctx<'_>, slot: &mut Slot, args: &str) -> AppResult<Vec<Reply>> {
    let on = match args.trim().to_lowercase().as_str() {
        "on" | "yes" | "true" | "bật" | "bat" | "开" | "開" => true,
        "off" | "no" | "false" | "tắt" | "tat" | "关" | "關" => false,
        _ => slot.record.settings.takebacks,
    };
    if on != slot.record.settings.takebacks {
        if let Some(refusal) = ctx.may_not_configure("/takebacks") {
            return Ok(vec![refusal]);
        }
        let mut record = slot.record.clone();
        record.settings.takebacks = on;
        save_channel(ctx, slot, record).await?;
    }
    Ok(vec![ctx.say(Msg::TakebacksSet { on })])
}

pub(crate) fn time(ctx: &Ctx<'_>, slot: &Slot) -> Reply {
    let Some(game) = slot.game.as_ref() else {
        return ctx.say(Msg::NoGame);
    };
    match clocks_text(&game.record, game.to_move(), ctx.now, ctx.lang) {
        Some(c) => Reply::text(c),
        None => ctx.say(Msg::NoClock),
    }
}

fn game_line(record: &GameRecord, me: &str, channel: &ChannelKey, lang: Lang) -> String {
    use crate::i18n::app::GameState;
    let (side, opponent) = if record.red.id == me {
        (Color::Red, &record.black.name)
    } else {
        (Color::Black, &record.red.name)
    };
    let state = match &record.status {
        GameStatus::Active => GameState::Playing,
        GameStatus::Aborted => GameState::Aborted,
        GameStatus::Finished { result, .. } => match result.loser() {
            None => GameState::Drawn,
            Some(loser) if loser == side => GameState::Lost,
            Some(_) => GameState::Won,
        },
    };
    text(
        &Msg::GameLine {
            id: record.id,
            opponent: opponent.clone(),
            side,
            plies: record.moves.len(),
            state,
            here: record.channel == *channel,
        },
        lang,
    )
}

pub(crate) fn games(ctx: &Ctx<'_>) -> AppResult<Vec<Reply>> {
    let ids = ctx.svc.storage().games_of(&ctx.user.id, 10)?;
    let mut lines = Vec::new();
    for id in ids {
        if let Some(r) = ctx.svc.storage().game(id)? {
            lines.push(game_line(&r, &ctx.user.id, ctx.channel, ctx.lang));
        }
    }
    Ok(vec![if lines.is_empty() {
        ctx.say(Msg::NoGames)
    } else {
        ctx.say(Msg::GamesList { lines })
    }])
}

/// Legal moves of `user` starting with `prefix`, in their notation (their choice, else the
/// usual one for their language `hint`).
pub(crate) async fn suggestions(
    svc: &Service,
    channel: &ChannelKey,
    user: &UserKey,
    prefix: &str,
    hint: Option<Lang>,
) -> AppResult<Vec<String>> {
    let mut slot = svc.manager.lock(channel).await?;
    // A game's venue: the game is its tournament chat's.
    if let Some(chat) = slot.record.venue_of.clone() {
        drop(slot);
        slot = svc.manager.lock(&chat).await?;
    }
    let Some(game) = slot.game_of(user) else {
        return Ok(Vec::new());
    };
    if game.color_of(user) != Some(game.to_move()) {
        return Ok(Vec::new());
    }
    // The reader's language, as for every answer only they see.
    let lang = hint.unwrap_or_else(|| super::ctx::public_lang(&slot, None));
    let notation = svc
        .storage()
        .user(user)?
        .and_then(|p| p.notation)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| super::default_notation(lang));
    let pos = game.position();
    let needle = prefix.trim().to_lowercase();
    let mut out: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| format_move(pos, m, notation))
        .filter(|t| t.to_lowercase().starts_with(&needle))
        .collect();
    out.sort();
    out.truncate(25);
    Ok(out)
}
