//! Challenges: `/play`, `/accept`, `/decline`, `/cancel`, and who a challenge is for.

mod again;

pub(crate) use again::{play_bot_button, rematch};

use super::action::Action;
use super::bot::{bot_side, DEFAULT_LEVEL, LEVELS};
use super::chat::{AppResult, Button, Reply};
use super::command::rated_word;
use super::ctx::{handle_alias, Ctx, Slot};
use super::view::{button, clocks_text, game_buttons, seen_from, to_move_text};
use crate::arbiter::RulesetName;
use crate::game::{Challenge, ChannelRecord, ColorChoice, Game, GameSetup, PlayerRef, TimeControl};
use crate::i18n::app::{color_word, Label, Msg};
use crate::i18n::ratings::{self as rmsg, RatingLabel, RatingMsg};
use crate::platform::{ChannelKey, Platform, UserKey};
use crate::rating::{refusal, Family, NotRated};

/// The storage key under which the display name of a handle's user is kept (`tg:@bob`).
fn handle_key(platform: &str, handle: &str) -> UserKey {
    UserKey::from(format!("{platform}:@{}", handle.to_lowercase()))
}

/// Remember the display name of the user behind a handle, when it is new or changed, so a
/// later `/play @handle` can name them. A failure only costs the name: it is logged.
pub(crate) async fn remember_handle(ctx: &Ctx<'_>) {
    let on = Platform::of(ctx.channel);
    let platform = on.map_or("x", Platform::scope);
    let console = on == Some(Platform::Console);
    let Some(handle) = ctx.handle() else {
        return;
    };
    if console || handle.chars().count() > 64 {
        return;
    }
    let key = handle_key(platform, handle);
    let name = ctx.user.name.clone();
    let storage = ctx.svc.storage();
    match storage.user(&key) {
        Ok(Some(p)) if p.name.as_deref() == Some(name.as_str()) => {}
        Ok(known) => {
            let mut prefs = known.unwrap_or_default();
            prefs.v = crate::game::SCHEMA_VERSION;
            prefs.name = Some(name);
            let mut changes = crate::game::Changes::default();
            changes.users.push((key, prefs));
            if let Err(e) = ctx.svc.persist_direct(changes).await {
                tracing::warn!(error = %e, "cannot remember a display name");
            }
        }
        Err(e) => tracing::warn!(error = %e, "cannot read a display name"),
    }
}

fn mentioned(ctx: &Ctx<'_>, token: &str) -> Option<PlayerRef> {
    if let Some((_, p)) = ctx.mentions().iter().find(|(t, _)| t == token) {
        return Some(p.clone());
    }
    let handle = token.strip_prefix('@')?;
    if handle.is_empty() || handle.chars().count() > 64 {
        return None;
    }
    let on = Platform::of(ctx.channel);
    let platform = on.map_or("x", Platform::scope);
    let console = on == Some(Platform::Console);
    let lower = handle.to_lowercase();
    if console {
        return Some(PlayerRef::new(Platform::Console.key(lower), handle));
    }
    // Named as they call themselves if the bot has seen them, else by the handle as typed.
    let key = handle_key(platform, handle);
    let known = ctx
        .svc
        .storage()
        .user(&key)
        .ok()
        .flatten()
        .and_then(|p| p.name);
    Some(PlayerRef::new(
        key,
        &known.unwrap_or_else(|| format!("@{handle}")),
    ))
}

/// Whether the incoming user is `p` (by id, or by handle for `@name` challenges).
fn is_user(ctx: &Ctx<'_>, p: &PlayerRef) -> bool {
    names(p, ctx.channel, &ctx.user.id, ctx.handle())
}

/// Whether `p` (a challenge's opponent, perhaps named by handle before they ever spoke) is
/// the user `user` with `handle` in `channel`.
pub(crate) fn names(p: &PlayerRef, channel: &ChannelKey, user: &str, handle: Option<&str>) -> bool {
    if p.id == user {
        return true;
    }
    let platform = Platform::of(channel).map_or("x", Platform::scope);
    handle
        .filter(|h| !h.is_empty())
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

/// One word of `/play` that sets the game's terms: a time control, a ruleset or a colour;
/// the message to answer when it is none of them.
fn game_terms(
    word: &str,
    tc: &mut TimeControl,
    ruleset: &mut RulesetName,
    color: &mut ColorChoice,
) -> Result<(), Box<Msg>> {
    if let Ok(t) = word.parse::<TimeControl>() {
        *tc = t;
    } else if let Ok(r) = word.parse::<RulesetName>() {
        *ruleset = r;
    } else if let Some(c) = color_choice(word) {
        *color = c;
    } else if word.chars().next().is_some_and(|c| c.is_ascii_digit()) {
        return Err(Box::new(Msg::BadTimeControl {
            text: word.chars().take(24).collect(),
        }));
    } else {
        return Err(Box::new(Msg::BadPlayArgument {
            word: word.chars().take(24).collect(),
        }));
    }
    Ok(())
}

pub(crate) fn channel_ruleset(record: &ChannelRecord) -> RulesetName {
    record
        .settings
        .ruleset
        .as_deref()
        .and_then(|r| r.parse().ok())
        .unwrap_or_default()
}

/// Whether the channel holds a challenge that has not lapsed.
pub(crate) fn pending(ctx: &Ctx<'_>, slot: &Slot) -> bool {
    live_challenge(slot, ctx.now).is_some()
}

fn live_challenge(slot: &Slot, now: u64) -> Option<Challenge> {
    slot.record.challenge.clone().filter(|c| c.expires_ms > now)
}

/// The private answer when `p` already plays a game in this channel (a player plays one
/// game at a time in a chat; other pairs may play beside it).
fn playing_here(ctx: &Ctx<'_>, slot: &Slot, p: &PlayerRef) -> Option<Reply> {
    // The bot plays as many games in a chat as people ask of it (each in its own lane of
    // the thinking pool; each person's are capped by `BOT_GAMES_PER_USER`).
    if crate::rating::is_bot(&p.id) {
        return None;
    }
    slot.game_of(&p.id)
        .map(|g| {
            ctx.private(Msg::PlayerBusy {
                name: p.name.clone(),
                id: g.record.id,
            })
        })
        // A player of the chat's tournament plays the games it pairs them in.
        .or_else(|| super::tournament::busy_in_tournament(ctx, &slot.record, p))
}

pub(crate) async fn challenge(ctx: &Ctx<'_>, slot: &mut Slot, args: &str) -> AppResult<Vec<Reply>> {
    if let Some(r) = super::tournament::busy_in_tournament(ctx, &slot.record, &ctx.user) {
        return Ok(vec![r]);
    }
    if let Some(g) = slot.game.as_ref() {
        return Ok(vec![ctx.private(Msg::GameInProgress {
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
    let mut rated = false;
    let words: Vec<&str> = args.split_whitespace().take(10).collect();
    if words.iter().any(|w| again::names_bot(ctx, w)) {
        let rest: Vec<&str> = words
            .iter()
            .copied()
            .filter(|w| !again::names_bot(ctx, w))
            .collect();
        return play_bot(ctx, slot, &rest).await;
    }
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
        if let Some(r) = rated_word(word) {
            rated = r;
        } else if let Some(p) = mentioned(ctx, word) {
            opponent = Some(p);
        } else if let Err(m) = game_terms(word, &mut tc, &mut ruleset, &mut color) {
            return Ok(vec![ctx.say(*m)]);
        }
    }
    if opponent.as_ref().is_some_and(|o| is_user(ctx, o)) {
        return Ok(vec![ctx.say(Msg::ChallengeSelf)]);
    }
    if let Some(r) = opponent.as_ref().and_then(|o| playing_here(ctx, slot, o)) {
        return Ok(vec![r]);
    }
    let c = Challenge {
        id: 0,
        challenger: ctx.user.clone(),
        opponent,
        time_control: tc,
        ruleset,
        color,
        start_fen,
        expires_ms: ctx.now + ctx.svc.config.challenge_ttl_ms,
        rated,
        lang: Some(ctx.lang.code().to_string()),
    };
    if let Some(why) = rated.then(|| rating_refusal(&c)).flatten() {
        return Ok(vec![say_rating(ctx, RatingMsg::CannotRate { why })]);
    }
    post_challenge(ctx, slot, c).await
}

/// Number `c`, store it as the channel's challenge and post it.
async fn post_challenge(ctx: &Ctx<'_>, slot: &mut Slot, c: Challenge) -> AppResult<Vec<Reply>> {
    let c = Challenge {
        id: ctx.svc.storage().next_id()?,
        ..c
    };
    let mut changes = crate::game::Changes::default();
    changes.add_deadlines.push(c.expiry(ctx.channel));
    changes.aliases.extend(handle_alias(ctx));
    put_challenge(ctx, slot, Some(c.clone()), changes).await?;
    Ok(vec![challenge_reply(ctx, &c)])
}

/// Store the channel's challenge (or its absence) with `changes`, then keep it.
async fn put_challenge(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    c: Option<Challenge>,
    changes: crate::game::Changes,
) -> AppResult<()> {
    let mut record = slot.record.clone();
    record.challenge = c;
    let s = &mut **slot;
    ctx.store_record(&mut s.record, record, s.game.as_ref(), changes)
        .await
}

fn say_rating(ctx: &Ctx<'_>, m: RatingMsg) -> Reply {
    Reply::text(rmsg::text(&m, ctx.lang))
}

/// Why the challenge could not be a rated game, if it could not.
fn rating_refusal(c: &Challenge) -> Option<NotRated> {
    let opponent = c.opponent.as_ref().map_or("", |o| o.id.as_str());
    refusal(
        c.time_control.pace(),
        c.ruleset.as_str(),
        c.start_fen.is_some(),
        [&c.challenger.id, opponent],
    )
}

/// The challenge as posted: who, what, whether it is rated, and its buttons (with a switch
/// between rated and casual when it could be rated).
fn challenge_reply(ctx: &Ctx<'_>, c: &Challenge) -> Reply {
    let color_name = match c.color {
        ColorChoice::Red => "red",
        ColorChoice::Black => "black",
        ColorChoice::Random => "random",
    };
    let mut t = ctx.t(&Msg::ChallengeCreated {
        challenger: c.challenger.name.clone(),
        opponent: c.opponent.as_ref().map(|o| o.name.clone()),
        time_control: crate::i18n::app::time_control_text(c.time_control, ctx.lang),
        ruleset: crate::i18n::arbiter::ruleset_name(c.ruleset, ctx.lang),
        color: color_word(color_name, ctx.lang).to_string(),
        minutes: c.expires_ms.saturating_sub(ctx.now).div_ceil(60_000).max(1),
    });
    let mut row = vec![
        button(Label::Accept, Action::Accept { id: c.id }, ctx.lang),
        button(Label::Decline, Action::Decline { id: c.id }, ctx.lang),
    ];
    if let (None, Some(pace)) = (rating_refusal(c), c.time_control.pace()) {
        let (line, label) = if c.rated {
            (
                RatingMsg::RatedGame {
                    family: Family::of(pace),
                },
                RatingLabel::MakeCasual,
            )
        } else {
            (RatingMsg::CasualGame, RatingLabel::MakeRated)
        };
        t.push('\n');
        t.push_str(&rmsg::text(&line, ctx.lang));
        row.push(Button {
            label: rmsg::text(&RatingMsg::Label(label), ctx.lang),
            action: Action::SetRated {
                id: c.id,
                rated: !c.rated,
            },
        });
    }
    Reply {
        text: t,
        buttons: vec![row],
        track: true,
        ..Reply::default()
    }
}

/// The challenger switches a challenge between rated and casual (the button under it).
pub(crate) async fn set_rated(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    id: u64,
    rated: bool,
) -> AppResult<Vec<Reply>> {
    let Some(mut c) = live_challenge(slot, ctx.now).filter(|c| c.id == id && c.rated != rated)
    else {
        return Ok(vec![ctx.private(Msg::StaleButton)]);
    };
    if !is_user(ctx, &c.challenger) {
        return Ok(vec![Reply::private(rmsg::text(
            &RatingMsg::OnlyChallengerSwitches,
            ctx.lang,
        ))]);
    }
    if let Some(why) = rated.then(|| rating_refusal(&c)).flatten() {
        return Ok(vec![Reply::private(rmsg::text(
            &RatingMsg::CannotRate { why },
            ctx.lang,
        ))]);
    }
    // A new id: the buttons of the message that showed the challenge as it was go stale
    // (and are taken away), so nobody accepts terms that have changed.
    let mut changes = crate::game::Changes::default();
    changes.remove_deadlines.push(c.expiry(ctx.channel));
    c.id = ctx.svc.storage().next_id()?;
    c.rated = rated;
    changes.add_deadlines.push(c.expiry(ctx.channel));
    put_challenge(ctx, slot, Some(c.clone()), changes).await?;
    Ok(vec![challenge_reply(ctx, &c)])
}

pub(crate) async fn accept(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    id: Option<u64>,
) -> AppResult<Vec<Reply>> {
    let Some(c) = live_challenge(slot, ctx.now) else {
        if id.is_some() {
            return Ok(vec![ctx.private(Msg::StaleButton)]);
        }
        return Ok(vec![ctx.say(Msg::NoChallenge)]);
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
    let me = ctx.user.clone();
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
    let ruleset = c.ruleset;
    // Accepting a rated challenge is the opponent's agreement; the players are checked again
    // now that both are known (an open challenge names nobody beforehand).
    let rated = c.rated
        && refusal(
            c.time_control.pace(),
            c.ruleset.as_str(),
            c.start_fen.is_some(),
            [&red.id, &black.id],
        )
        .is_none();
    let start = c
        .start_fen
        .as_deref()
        .and_then(|f| crate::core::Position::from_fen(f).ok());
    let terms = Terms {
        time_control: c.time_control,
        ruleset,
        start,
        rated,
    };
    let expiry = Some(c.expiry(ctx.channel));
    let board = start_game(ctx, slot, (red, black), terms, expiry).await?;
    Ok(vec![board])
}

/// The terms a new game starts on.
struct Terms {
    time_control: TimeControl,
    ruleset: RulesetName,
    start: Option<crate::core::Position>,
    rated: bool,
}

/// Start a game between `red` and `black` in the channel (ending the challenge `expiry`
/// belongs to, if any) and answer with its first board.
/// A new game's first board: `heading` (a tournament's round), who plays whom with what
/// clock and rules, whether it is rated, who is to move, the clocks, and its buttons.
pub(crate) async fn first_board(ctx: &Ctx<'_>, game: &Game, heading: Option<String>) -> Reply {
    let mut lines: Vec<String> = heading.into_iter().collect();
    lines.push(ctx.t(&Msg::GameStarted {
        red: game.record.red.name.clone(),
        black: game.record.black.name.clone(),
        time_control: crate::i18n::app::time_control_text(game.record.time_control, ctx.lang),
        ruleset: crate::i18n::arbiter::ruleset_name(game.record.ruleset, ctx.lang),
        id: game.record.id,
    }));
    if let Some((_, level)) = bot_side(game) {
        lines.push(ctx.t(&Msg::BotStrength {
            level,
            top: *LEVELS.end(),
            rating: crate::engine::level_rating(level),
        }));
    }
    if let (true, Some(pace)) = (game.record.rated, game.record.time_control.pace()) {
        lines.push(rmsg::text(
            &RatingMsg::RatedGame {
                family: Family::of(pace),
            },
            ctx.lang,
        ));
    }
    lines.push(to_move_text(game, ctx.lang));
    lines.extend(clocks_text(&game.record, game.to_move(), ctx.now, ctx.lang));
    let buttons = game_buttons(game, ctx.svc.config.web.is_some(), ctx.lang);
    ctx.svc
        .board_reply(game, seen_from(game), lines.join("\n"), buttons, ctx.lang)
        .await
}

async fn start_game(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    (red, black): (PlayerRef, PlayerRef),
    Terms {
        time_control,
        ruleset,
        start,
        rated,
    }: Terms,
    expiry: Option<crate::game::Deadline>,
) -> AppResult<Reply> {
    // Both players are free here (the challenger may have started a game since).
    if let Some(r) = [&red, &black]
        .into_iter()
        .find_map(|p| playing_here(ctx, slot, p))
    {
        return Ok(r);
    }
    // Games are numbered 1, 2, 3, … from a counter stored with the game itself.
    let number = ctx.svc.storage().next_game_number()?;
    let game = Game::start(
        GameSetup {
            id: number,
            channel: ctx.channel.clone(),
            red,
            black,
            ruleset,
            time_control,
            start,
            takebacks: slot.record.settings.takebacks,
            hints: slot.record.settings.hints,
            rated,
            community: ctx.community().map(str::to_string),
            // The challenge's language (the channel's, else the challenger's) from now on.
            lang: Some(ctx.lang.code().to_string()),
            idle_after_ms: Some(ctx.svc.config.idle_claim_ms).filter(|&ms| ms > 0),
        },
        ctx.now,
    );
    let mut record = slot.record.clone();
    record.challenge = None;
    record.active_game = Some(game.record.id);
    record.last_game = Some(game.record.id);
    let mut changes = crate::game::Changes::default();
    changes.games.push(game.record.clone());
    changes.game_number = Some(number);
    changes.remove_deadlines.extend(expiry);
    changes.add_deadlines.extend(game.deadlines());
    changes.aliases.extend(handle_alias(ctx));
    ctx.store_record(&mut slot.record, record, Some(&game), changes)
        .await?;
    let board = first_board(ctx, &game, None).await;
    slot.game = Some(game);
    Ok(board)
}

/// Whether `word` names the bot as an opponent (`/play bot`).
fn is_bot_word(word: &str) -> bool {
    matches!(
        word.to_lowercase().as_str(),
        "bot" | "engine" | "máy" | "may" | "电脑" | "電腦" | "机器人" | "機器人"
    )
}

/// `/play bot [level 1-20] [time] [ruleset] [red|black|random]`: a game against the bot,
/// started at once. A bare number is the level, refused with the range outside [`LEVELS`] (a time
/// control is written with a unit or an increment: `10m`, `5+3`), so `/play bot 99` is not a
/// 99-minute game.
async fn play_bot(ctx: &Ctx<'_>, slot: &mut Slot, words: &[&str]) -> AppResult<Vec<Reply>> {
    if !ctx.svc.bot_enabled() {
        return Ok(vec![ctx.say(Msg::BotUnavailable)]);
    }
    let mut level = None;
    let mut tc = TimeControl::None;
    let mut ruleset = channel_ruleset(&slot.record);
    let mut color = ColorChoice::Random;
    let mut asked_rated = false;
    for &word in words {
        if let Some(r) = rated_word(word) {
            asked_rated = r;
        } else if !word.is_empty() && word.chars().all(|c| c.is_ascii_digit()) {
            match word
                .parse::<u8>()
                .ok()
                .filter(|l| level.is_none() && LEVELS.contains(l))
            {
                Some(l) => level = Some(l),
                None => {
                    return Ok(vec![ctx.say(Msg::BadBotLevel {
                        text: word.to_string(),
                        top: *LEVELS.end(),
                    })])
                }
            }
        } else if let Err(m) = game_terms(word, &mut tc, &mut ruleset, &mut color) {
            return Ok(vec![ctx.say(*m)]);
        }
    }
    let human_red = match color {
        ColorChoice::Red => true,
        ColorChoice::Black => false,
        ColorChoice::Random => {
            ((ctx.now / 1000) ^ slot.record.last_game.unwrap_or(0)).is_multiple_of(2)
        }
    };
    let terms = Terms {
        time_control: tc,
        ruleset,
        start: None,
        rated: asked_rated,
    };
    again::start_bot(ctx, slot, level.unwrap_or(DEFAULT_LEVEL), human_red, terms).await
}

pub(crate) async fn decline(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    id: Option<u64>,
) -> AppResult<Vec<Reply>> {
    if let Some(c) = live_challenge(slot, ctx.now) {
        if id.is_some_and(|i| i != c.id) {
            return Ok(vec![ctx.private(Msg::StaleButton)]);
        }
        if is_user(ctx, &c.challenger) {
            // Declining is the other side's answer; the challenger withdraws with /cancel.
            return Ok(vec![ctx.private(Msg::OwnChallenge)]);
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
            by: ctx.user.name.clone(),
        })]);
    }
    if id.is_some() {
        return Ok(vec![ctx.private(Msg::StaleButton)]);
    }
    Ok(vec![ctx.say(Msg::NoChallenge)])
}

async fn drop_challenge(ctx: &Ctx<'_>, slot: &mut Slot, c: &Challenge) -> AppResult<()> {
    let mut changes = crate::game::Changes::default();
    changes.remove_deadlines.push(c.expiry(ctx.channel));
    put_challenge(ctx, slot, None, changes).await
}

pub(crate) async fn cancel(ctx: &Ctx<'_>, slot: &mut Slot) -> AppResult<Vec<Reply>> {
    let Some(c) = live_challenge(slot, ctx.now) else {
        return Ok(vec![ctx.say(Msg::NoChallenge)]);
    };
    if !is_user(ctx, &c.challenger) {
        return Ok(vec![ctx.private(Msg::NotYourChallenge)]);
    }
    drop_challenge(ctx, slot, &c).await?;
    Ok(vec![ctx.say(Msg::ChallengeCancelled)])
}
