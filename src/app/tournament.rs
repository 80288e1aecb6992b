//! `/tournament`: a chat's Swiss event, arena or round robin. The tournament lives in the
//! channel's record ([`crate::game::tournament`]): a game's end, its result in the table and
//! the next pairings are written in one transaction with the replies that say so. Its games
//! are ordinary games of the chat (several at once), paired by the tournament, with hints and
//! takebacks off.

use super::action::Action;
use super::chat::{AppResult, Button, Image, ImageKind, Reply, MAX_NOTIFY};
use super::ctx::{Ctx, Slot};
use crate::game::tournament::standings::table;
use crate::game::tournament::{
    Entrant, Format, GameResult, Presence, Stage, Tournament, Venues, MAX_ARENA_MINUTES,
    MAX_PLAYERS, MAX_ROUNDS, ROBIN_MAX,
};
use crate::game::{
    Changes, ChannelRecord, Deadline, DeadlineKind, Game, GameSetup, GameStatus, TimeControl,
};
use crate::i18n::app::{duration_text, Msg};
use crate::i18n::tournament::{format_text, points, text, TourLabel, TourMsg};
use crate::platform::Platform;
use crate::rating::Family;

/// Rounds of a Swiss event when none are given.
const DEFAULT_ROUNDS: u32 = 5;
/// Minutes of an arena when none are given.
const DEFAULT_MINUTES: u32 = 60;
/// The longest wait before a scheduled start, in minutes (a week).
const MAX_START_IN: u64 = 7 * 24 * 60;
/// How long each side of a tournament game has to make its first move before it loses that
/// game by default (a player who does not come does not hold a round up for a whole clock).
const FIRST_MOVE_MS: u64 = 2 * 60_000;
/// The rating of a player with no rated game in the tournament's family (Glicko-2's start).
const UNRATED: i64 = 1500;

/// What `/tournament WORD` asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ask {
    Create(Format),
    Join,
    Leave,
    Start,
    Pause,
    Withdraw,
    Berserk,
    Cancel,
    Standings,
    Pairings,
}

/// The first word of `/tournament`, lower case, read in any language.
fn ask(word: &str) -> Option<Ask> {
    Some(match word {
        "swiss" | "thuysi" | "thụysĩ" | "积分编排" | "瑞士制" => {
            Ask::Create(Format::Swiss {
                rounds: DEFAULT_ROUNDS,
            })
        }
        "arena" | "dautruong" | "đấutrường" | "竞技场" => Ask::Create(Format::Arena {
            minutes: DEFAULT_MINUTES,
        }),
        "robin" | "roundrobin" | "vongtron" | "vòngtròn" | "循环" | "循环赛" => {
            Ask::Create(Format::Robin { double: false })
        }
        "join" | "thamgia" | "报名" | "參加" | "参加" => Ask::Join,
        "leave" | "roi" | "rời" | "退出" => Ask::Leave,
        "start" | "batdau" | "bắtđầu" | "开始" | "開始" => Ask::Start,
        "pause" | "nghi" | "nghỉ" | "暂停" | "暫停" => Ask::Pause,
        "withdraw" | "rut" | "rút" | "弃权" | "棄權" => Ask::Withdraw,
        "berserk" | "lieu" | "liều" | "狂暴" => Ask::Berserk,
        "cancel" | "huy" | "hủy" | "取消" => Ask::Cancel,
        "standings" | "table" | "bangxephang" | "bảngxếphạng" | "xephang" | "排名" | "积分榜" => {
            Ask::Standings
        }
        "pairings" | "xepcap" | "xếpcặp" | "对阵" | "對陣" => Ask::Pairings,
        _ => return None,
    })
}

/// Whether `/tournament WORD …` manages the chat's tournament (makes, starts or calls one
/// off): its administrators' to do, as settings are.
#[must_use]
pub(crate) fn manages(word: &str) -> bool {
    matches!(
        ask(&word.to_lowercase()),
        Some(Ask::Create(_) | Ask::Start | Ask::Cancel)
    )
}

fn say(ctx: &Ctx<'_>, m: &TourMsg) -> Reply {
    Reply::text(text(m, ctx.lang))
}

fn private(ctx: &Ctx<'_>, m: &TourMsg) -> Reply {
    Reply::private(text(m, ctx.reader))
}

/// The chat's tournament, if one is being held (taking entries or played).
fn live(record: &ChannelRecord) -> Option<&Tournament> {
    record.tournament.as_ref().filter(|t| t.live())
}

/// `/tournament …`.
pub(crate) async fn command(ctx: &Ctx<'_>, slot: &mut Slot, args: &str) -> AppResult<Vec<Reply>> {
    let words: Vec<String> = args
        .split_whitespace()
        .take(16)
        .map(str::to_lowercase)
        .collect();
    let Some(first) = words.first() else {
        return Ok(vec![summary(ctx, slot)]);
    };
    let Some(what) = ask(first) else {
        return Ok(vec![private(
            ctx,
            &TourMsg::BadWord {
                word: first.chars().take(24).collect(),
            },
        )]);
    };
    if let Ask::Create(_) | Ask::Start | Ask::Cancel = what {
        if let Some(refusal) = ctx.may_not_configure("/tournament") {
            // Typed on Discord, the platform said nothing: pointed to the slash command.
            if ctx.chat.is_some_and(|c| c.may_configure.is_none()) {
                return Ok(vec![refusal]);
            }
            let discord = Platform::of(ctx.channel) == Some(Platform::Discord);
            return Ok(vec![private(ctx, &TourMsg::OrganisersOnly { discord })]);
        }
    }
    match what {
        Ask::Create(format) => create(ctx, slot, format, &words[1..]).await,
        Ask::Join => join(ctx, slot, None).await,
        Ask::Leave => leave(ctx, slot, None).await,
        Ask::Start => start(ctx, slot).await,
        Ask::Pause => pause(ctx, slot, Presence::Paused).await,
        Ask::Withdraw => pause(ctx, slot, Presence::Withdrawn).await,
        Ask::Berserk => berserk(ctx, slot).await,
        Ask::Cancel => cancel(ctx, slot).await,
        Ask::Standings => Ok(vec![standings(ctx, slot, words.get(1).map(String::as_str))]),
        Ask::Pairings => Ok(vec![pairings(ctx, slot)]),
    }
}

/// The entry list's *Join* and *Leave*.
pub(crate) async fn on_action(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    action: Action,
) -> AppResult<Vec<Reply>> {
    match action {
        Action::TournamentJoin { id } => join(ctx, slot, Some(id)).await,
        Action::TournamentLeave { id } => leave(ctx, slot, Some(id)).await,
        _ => Ok(Vec::new()),
    }
}

/// The words of `/tournament swiss|arena|robin …` after the format, into a new tournament.
fn terms(
    ctx: &Ctx<'_>,
    slot: &Slot,
    mut format: Format,
    words: &[String],
) -> Result<Tournament, Box<Reply>> {
    let bad = |w: &str| {
        Box::new(private(
            ctx,
            &TourMsg::BadWord {
                word: w.chars().take(24).collect(),
            },
        ))
    };
    let range = |what: &str, n: u64, min: u64, max: u64| {
        if (min..=max).contains(&n) {
            Ok(n)
        } else {
            Err(Box::new(private(
                ctx,
                &TourMsg::OutOfRange {
                    what: what.to_string(),
                    min,
                    max,
                },
            )))
        }
    };
    let mut tc = TimeControl::None;
    let mut ruleset = super::challenge::channel_ruleset(&slot.record);
    let mut rated = false;
    let (mut length, mut max_players, mut min_rating, mut starts_in) = (None, None, None, None);
    let mut every = None;
    // Each game in a venue of its own where the platform allows: what a demanding player
    // expects of a tidy chat (`chat` keeps them side by side in it).
    let mut venues = Venues::Own;
    let mut i = 0;
    while i < words.len() {
        let word = words[i].as_str();
        i += 1;
        let number = |i: usize| words.get(i).and_then(|w| w.parse::<u64>().ok());
        let keyword = match word {
            "rounds" | "vong" | "vòng" | "轮" => Some("rounds"),
            "minutes" | "phut" | "phút" | "分钟" => Some("minutes"),
            "max" | "toida" | "tốiđa" | "最多" => Some("max"),
            "min" | "toithieu" | "tốithiểu" | "最低" => Some("min"),
            "in" | "sau" | "后" => Some("in"),
            "every" | "moi" | "mỗi" | "每" => Some("every"),
            _ => None,
        };
        if let Some(k) = keyword {
            let Some(n) = number(i) else {
                return Err(bad(word));
            };
            i += 1;
            match k {
                "rounds" | "minutes" => length = Some(n),
                "max" => max_players = Some(n),
                "min" => min_rating = Some(n),
                "every" => every = Some(n),
                _ => starts_in = Some(n),
            }
        } else if let Ok(n) = word.parse::<u64>() {
            length = Some(n);
        } else if matches!(
            word,
            "double" | "hailuot" | "hailượt" | "双" | "雙" | "双循环"
        ) {
            match &mut format {
                Format::Robin { double } => *double = true,
                _ => return Err(bad(word)),
            }
        } else if let Some(v) = super::venues::word(word) {
            venues = v;
        } else if let Some(r) = super::command::rated_word(word) {
            rated = r;
        } else if let Ok(t) = word.parse::<TimeControl>() {
            tc = t;
        } else if let Ok(r) = word.parse::<crate::arbiter::RulesetName>() {
            ruleset = r;
        } else {
            return Err(bad(word));
        }
    }
    match &mut format {
        Format::Swiss { rounds } => {
            if let Some(n) = length {
                *rounds = u32::try_from(range("rounds", n, 1, u64::from(MAX_ROUNDS))?)
                    .unwrap_or(MAX_ROUNDS);
            }
        }
        Format::Arena { minutes } => {
            if let Some(n) = length {
                *minutes = u32::try_from(range("minutes", n, 5, u64::from(MAX_ARENA_MINUTES))?)
                    .unwrap_or(MAX_ARENA_MINUTES);
            }
        }
        Format::Robin { .. } => {
            if length.is_some() {
                return Err(bad(&length.unwrap_or_default().to_string()));
            }
        }
    }
    if tc == TimeControl::None {
        return Err(Box::new(private(ctx, &TourMsg::NeedsClock)));
    }
    // Rounds at set times are for events played in rounds.
    let every_minutes = match every {
        Some(_) if matches!(format, Format::Arena { .. }) => return Err(bad("every")),
        Some(n) => Some(u32::try_from(range("every", n, 1, MAX_START_IN)?).unwrap_or(u32::MAX)),
        None => None,
    };
    let most = if matches!(format, Format::Robin { .. }) {
        ROBIN_MAX
    } else {
        MAX_PLAYERS
    };
    let max_players = match max_players {
        Some(n) => Some(usize::try_from(range("max", n, 2, most as u64)?).unwrap_or(most)),
        None => matches!(format, Format::Robin { .. }).then_some(ROBIN_MAX),
    };
    let min_rating = match min_rating {
        Some(n) => Some(i64::try_from(range("min", n, 0, 4000)?).unwrap_or(0)),
        None => None,
    };
    let starts_ms = match starts_in {
        Some(m) => Some(ctx.now + range("in", m, 1, MAX_START_IN)? * 60_000),
        None => None,
    };
    if rated {
        if let Some(why) = crate::rating::refusal(tc.pace(), ruleset.as_str(), false, ["", ""]) {
            return Err(Box::new(Reply::private(crate::i18n::ratings::text(
                &crate::i18n::ratings::RatingMsg::CannotRate { why },
                ctx.reader,
            ))));
        }
    }
    Ok(Tournament {
        venues,
        id: 0,
        format,
        time_control: tc,
        ruleset,
        rated,
        min_rating,
        max_players,
        organiser: ctx.user.clone(),
        community: ctx.community().map(str::to_string),
        lang: Some(ctx.lang.code().to_string()),
        stage: Stage::Entry,
        starts_ms,
        started_ms: None,
        ends_ms: None,
        round: 0,
        every_minutes,
        round_started_ms: None,
        next_round_ms: None,
        players: Vec::new(),
        pairings: Vec::new(),
        byes: Vec::new(),
    })
}

/// `/tournament swiss|arena|robin …`: a new tournament takes entries.
async fn create(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    format: Format,
    words: &[String],
) -> AppResult<Vec<Reply>> {
    let console = Platform::of(ctx.channel) == Some(Platform::Console);
    if ctx.community().is_none() && !console {
        return Ok(vec![private(ctx, &TourMsg::NotInPrivate)]);
    }
    if let Some(t) = live(&slot.record) {
        return Ok(vec![private(ctx, &TourMsg::AlreadyOne { id: t.id })]);
    }
    let mut t = match terms(ctx, slot, format, words) {
        Ok(t) => t,
        Err(refusal) => return Ok(vec![*refusal]),
    };
    // Numbered in the chat: 1, 2, 3, … (its buttons and deadlines are the chat's).
    t.id = slot
        .record
        .tournament
        .as_ref()
        .map_or(1, |last| last.id + 1);
    let mut changes = Changes::default();
    changes.add_deadlines.extend(start_deadline(ctx, &t));
    let reply = entry_list(ctx, &t);
    ctx.edit_record(slot, |r| r.tournament = Some(t), changes)
        .await?;
    Ok(vec![reply])
}

fn start_deadline(ctx: &Ctx<'_>, t: &Tournament) -> Option<Deadline> {
    deadline(ctx, t, t.starts_ms, DeadlineKind::TournamentStart)
}

fn end_deadline(ctx: &Ctx<'_>, t: &Tournament) -> Option<Deadline> {
    deadline(ctx, t, t.ends_ms, DeadlineKind::TournamentEnd)
}

fn round_deadline(ctx: &Ctx<'_>, t: &Tournament) -> Option<Deadline> {
    deadline(ctx, t, t.next_round_ms, DeadlineKind::TournamentRound)
}

fn deadline(
    ctx: &Ctx<'_>,
    t: &Tournament,
    at: Option<u64>,
    kind: DeadlineKind,
) -> Option<Deadline> {
    at.map(|at_ms| Deadline {
        at_ms,
        id: t.id,
        kind,
        channel: ctx.channel.clone(),
    })
}

/// Clock, rules, rated or casual and the limits, as one phrase.
fn terms_text(ctx: &Ctx<'_>, t: &Tournament) -> String {
    let mut parts = vec![
        crate::i18n::app::time_control_text(t.time_control, ctx.lang),
        crate::i18n::arbiter::ruleset_name(t.ruleset, ctx.lang).to_string(),
        text(
            if t.rated {
                &TourMsg::Rated
            } else {
                &TourMsg::Casual
            },
            ctx.lang,
        ),
    ];
    if let Some(max) = t.max_players {
        parts.push(text(&TourMsg::MaxPlayers { max }, ctx.lang));
    }
    if let Some(min) = t.min_rating {
        parts.push(text(&TourMsg::MinRating { min }, ctx.lang));
    }
    if t.venues == Venues::Own && Platform::of(ctx.channel).is_some_and(|p| p.opens_venues()) {
        parts.push(text(&TourMsg::OwnVenues, ctx.lang));
    }
    parts.join(phrase_separator(ctx.lang))
}

/// The post that opens the entries, with *Join* and *Leave*.
fn entry_list(ctx: &Ctx<'_>, t: &Tournament) -> Reply {
    let starts = t
        .starts_ms
        .map(|at| in_time(ctx, at.saturating_sub(ctx.now)));
    let label = |l: TourLabel| text(&TourMsg::Label(l), ctx.lang);
    Reply {
        text: text(
            &TourMsg::Created {
                id: t.id,
                format: format_text(t.format, ctx.lang),
                terms: terms_text(ctx, t),
                organiser: t.organiser.name.clone(),
                starts,
            },
            ctx.lang,
        ),
        buttons: vec![vec![
            Button {
                label: label(TourLabel::Join),
                action: Action::TournamentJoin { id: t.id },
            },
            Button {
                label: label(TourLabel::Leave),
                action: Action::TournamentLeave { id: t.id },
            },
        ]],
        ..Reply::default()
    }
}

/// "in 30 min", in the channel's language.
fn in_time(ctx: &Ctx<'_>, ms: u64) -> String {
    let d = duration_text(ms, ctx.lang);
    match ctx.lang {
        crate::i18n::Lang::En => format!("in {d}"),
        crate::i18n::Lang::Vi => format!("sau {d}"),
        crate::i18n::Lang::Zh => format!("{d}后"),
    }
}

/// The chat's live tournament, or the refusal; `id`: the one a button names.
fn the_live(ctx: &Ctx<'_>, slot: &Slot, id: Option<u64>) -> Result<Tournament, Box<Reply>> {
    match live(&slot.record) {
        Some(t) if id.is_none_or(|i| i == t.id) => Ok(t.clone()),
        Some(_) => Err(Box::new(ctx.private(Msg::StaleButton))),
        None if id.is_some() => Err(Box::new(ctx.private(Msg::StaleButton))),
        None => Err(Box::new(private(ctx, &TourMsg::NoTournament))),
    }
}

/// The asker's rating in the tournament's family (1500 without a rated game in it).
fn rating_of(ctx: &Ctx<'_>, t: &Tournament) -> AppResult<i64> {
    let Some(pace) = t.time_control.pace() else {
        return Ok(UNRATED);
    };
    let profile = ctx.svc.storage().profile(&ctx.user.id)?;
    Ok(profile
        .and_then(|p| {
            p.ratings
                .get(&Family::of(pace))
                .map(|r| r.at(ctx.now).shown())
        })
        .unwrap_or(UNRATED))
}

fn names(ctx: &Ctx<'_>, t: &Tournament) -> String {
    t.players
        .iter()
        .filter(|e| e.presence != Presence::Withdrawn)
        .map(|e| e.player.name.as_str())
        .collect::<Vec<_>>()
        .join(list_separator(ctx.lang))
}

/// Between the items of a list: `, `, or Chinese's enumeration comma.
fn list_separator(lang: crate::i18n::Lang) -> &'static str {
    match lang {
        crate::i18n::Lang::Zh => "、",
        _ => ", ",
    }
}

/// Between two phrases: `, `, or Chinese's full-width comma.
fn phrase_separator(lang: crate::i18n::Lang) -> &'static str {
    match lang {
        crate::i18n::Lang::Zh => "，",
        _ => ", ",
    }
}

/// `/tournament join` (and *Join*): enter, or come back from a pause.
async fn join(ctx: &Ctx<'_>, slot: &mut Slot, id: Option<u64>) -> AppResult<Vec<Reply>> {
    let mut t = match the_live(ctx, slot, id) {
        Ok(t) => t,
        Err(r) => return Ok(vec![*r]),
    };
    if t.stage == Stage::Ending
        || (t.stage != Stage::Entry && matches!(t.format, Format::Robin { .. }))
    {
        return Ok(vec![private(ctx, &TourMsg::EntriesClosed)]);
    }
    if let Some(g) = slot.game_of(&ctx.user.id) {
        if g.record.tournament != Some(t.id) {
            return Ok(vec![private(
                ctx,
                &TourMsg::FinishYourGame { game: g.record.id },
            )]);
        }
    }
    let round = t.round;
    match t.entrant(&ctx.user.id) {
        Some(i) if t.players[i].presence == Presence::Playing => {
            return Ok(vec![private(ctx, &TourMsg::AlreadyIn)]);
        }
        Some(i) if t.players[i].presence == Presence::Withdrawn => {
            return Ok(vec![private(ctx, &TourMsg::EntriesClosed)]);
        }
        Some(i) => {
            // Back from a pause: paired again from the next round (at once in an arena).
            t.players[i].presence = Presence::Playing;
            t.players[i].from_round = round + 1;
        }
        None => {
            let playing = t
                .players
                .iter()
                .filter(|e| e.presence != Presence::Withdrawn)
                .count();
            if let Some(max) = t.max_players.filter(|&m| playing >= m) {
                return Ok(vec![private(ctx, &TourMsg::Full { max })]);
            }
            let rating = rating_of(ctx, &t)?;
            if let Some(need) = t.min_rating.filter(|&m| rating < m) {
                return Ok(vec![private(
                    ctx,
                    &TourMsg::RatingTooLow { need, have: rating },
                )]);
            }
            t.players.push(Entrant {
                player: ctx.user.clone(),
                rating,
                presence: Presence::Playing,
                // A late entry starts with nothing, from the next round.
                from_round: if t.stage == Stage::Entry {
                    0
                } else {
                    round + 1
                },
            });
        }
    }
    let count = t
        .players
        .iter()
        .filter(|e| e.presence != Presence::Withdrawn)
        .count();
    let mut replies = vec![say(
        ctx,
        &TourMsg::Joined {
            name: ctx.user.name.clone(),
            id: t.id,
            players: names(ctx, &t),
            count,
        },
    )];
    let mut record = slot.record.clone();
    let mut changes = Changes::default();
    let mut started = Vec::new();
    if t.stage == Stage::Running && matches!(t.format, Format::Arena { .. }) {
        // A free player in an arena is paired at once.
        let next = t.advance(ctx.now);
        started = make_games(ctx, &mut t, &mut record, &mut changes, &next.start)?;
    }
    record.tournament = Some(t.clone());
    store(ctx, slot, record, changes, &started).await?;
    replies.extend(boards(ctx, &t, &started).await);
    Ok(replies)
}

/// Write `record` with `changes`, and keep the games `started` in the slot.
async fn store(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    record: ChannelRecord,
    changes: Changes,
    started: &[Game],
) -> AppResult<()> {
    let s = &mut **slot;
    ctx.store_record(&mut s.record, record, s.game.as_ref(), changes)
        .await?;
    s.others.extend(started.iter().cloned());
    Ok(())
}

/// `/tournament leave` (and *Leave*): before the start, out of the list; after it, as
/// `/tournament withdraw`.
async fn leave(ctx: &Ctx<'_>, slot: &mut Slot, id: Option<u64>) -> AppResult<Vec<Reply>> {
    let t = match the_live(ctx, slot, id) {
        Ok(t) => t,
        Err(r) => return Ok(vec![*r]),
    };
    let Some(i) = t.entrant(&ctx.user.id) else {
        return Ok(vec![private(ctx, &TourMsg::NotIn)]);
    };
    if t.stage != Stage::Entry {
        return pause(ctx, slot, Presence::Withdrawn).await;
    }
    unlist(ctx, slot, t, i).await
}

/// Before the start: entrant `i` leaves the list.
async fn unlist(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    mut t: Tournament,
    i: usize,
) -> AppResult<Vec<Reply>> {
    t.players.remove(i);
    let m = TourMsg::Left {
        name: ctx.user.name.clone(),
        id: t.id,
        count: t.players.len(),
    };
    ctx.edit_record(slot, |r| r.tournament = Some(t), Changes::default())
        .await?;
    Ok(vec![say(ctx, &m)])
}

/// `/tournament pause` and `/tournament withdraw`.
async fn pause(ctx: &Ctx<'_>, slot: &mut Slot, to: Presence) -> AppResult<Vec<Reply>> {
    let mut t = match the_live(ctx, slot, None) {
        Ok(t) => t,
        Err(r) => return Ok(vec![*r]),
    };
    let Some(i) = t
        .entrant(&ctx.user.id)
        .filter(|&i| t.players[i].presence != Presence::Withdrawn)
    else {
        return Ok(vec![private(ctx, &TourMsg::NotIn)]);
    };
    if to == Presence::Paused && matches!(t.format, Format::Robin { .. }) {
        return Ok(vec![private(ctx, &TourMsg::NoPauseInRobin)]);
    }
    if t.stage == Stage::Entry {
        // Nothing played yet: leaving is the same as not having joined.
        return unlist(ctx, slot, t, i).await;
    }
    t.players[i].presence = to;
    let name = ctx.user.name.clone();
    let mut replies = vec![say(
        ctx,
        &if to == Presence::Paused {
            TourMsg::Paused { name }
        } else {
            TourMsg::Withdrawn { name }
        },
    )];
    // A Swiss round waits for nobody who left it: the next may start.
    replies.extend(step(ctx, slot, t, Changes::default()).await?);
    Ok(replies)
}

/// Take the tournament's next step ([`Tournament::advance`]) and store it with `changes`:
/// what it says, the new games' boards among it.
async fn step(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    mut t: Tournament,
    mut changes: Changes,
) -> AppResult<Vec<Reply>> {
    let mut record = slot.record.clone();
    let next = t.advance(ctx.now);
    let started = make_games(ctx, &mut t, &mut record, &mut changes, &next.start)?;
    let (lines, over) = progress(ctx, &t, &next, &mut changes);
    record.tournament = Some(t.clone());
    store(ctx, slot, record, changes, &started).await?;
    let mut replies = lines;
    replies.extend(boards(ctx, &t, &started).await);
    replies.extend(over);
    Ok(replies)
}

/// `/tournament start` (or its start time): the first pairings.
async fn start(ctx: &Ctx<'_>, slot: &mut Slot) -> AppResult<Vec<Reply>> {
    let t = match the_live(ctx, slot, None) {
        Ok(t) => t,
        Err(r) => return Ok(vec![*r]),
    };
    if t.stage != Stage::Entry {
        return Ok(vec![private(ctx, &TourMsg::AlreadyStarted)]);
    }
    if t.players.len() < 2 {
        return Ok(vec![private(ctx, &TourMsg::TooFew { need: 2 })]);
    }
    begin(ctx, slot, t).await
}

async fn begin(ctx: &Ctx<'_>, slot: &mut Slot, mut t: Tournament) -> AppResult<Vec<Reply>> {
    let mut changes = Changes::default();
    changes.remove_deadlines.extend(start_deadline(ctx, &t));
    t.stage = Stage::Running;
    t.started_ms = Some(ctx.now);
    if let Format::Arena { minutes } = t.format {
        t.ends_ms = Some(ctx.now + u64::from(minutes) * 60_000);
        changes.add_deadlines.extend(end_deadline(ctx, &t));
    }
    let headline = say(
        ctx,
        &TourMsg::Started {
            id: t.id,
            format: format_text(t.format, ctx.lang),
            count: t.players.len(),
            ends: t.ends_ms.map(|e| in_time(ctx, e.saturating_sub(ctx.now))),
        },
    );
    let mut replies = vec![headline];
    replies.extend(step(ctx, slot, t, changes).await?);
    Ok(replies)
}

/// `/tournament cancel`: called off; its games go on as ordinary games.
async fn cancel(ctx: &Ctx<'_>, slot: &mut Slot) -> AppResult<Vec<Reply>> {
    let mut t = match the_live(ctx, slot, None) {
        Ok(t) => t,
        Err(r) => return Ok(vec![*r]),
    };
    let mut changes = Changes::default();
    changes.remove_deadlines.extend(start_deadline(ctx, &t));
    changes.remove_deadlines.extend(end_deadline(ctx, &t));
    changes.remove_deadlines.extend(round_deadline(ctx, &t));
    t.stage = Stage::Cancelled;
    let id = t.id;
    // Its games being played end without a result, and are not rated.
    let mut ended = 0;
    let s = &mut **slot;
    for g in s.game.iter_mut().chain(s.others.iter_mut()) {
        if g.is_active() && g.record.tournament == Some(id) {
            changes.remove_deadlines.extend(g.deadlines());
            g.record.status = GameStatus::Aborted;
            g.record.updated_ms = ctx.now;
            changes.games.push(g.record.clone());
            ended += 1;
        }
    }
    let kept = s
        .game
        .as_ref()
        .filter(|g| g.is_active())
        .map(|g| g.record.id);
    s.select(kept);
    ctx.edit_record(slot, |r| r.tournament = Some(t), changes)
        .await?;
    Ok(vec![say(ctx, &TourMsg::Cancelled { id, ended })])
}

/// `/tournament berserk`: an arena player, before their first move, halves their clock for
/// one more point if they win.
async fn berserk(ctx: &Ctx<'_>, slot: &mut Slot) -> AppResult<Vec<Reply>> {
    let refuse = || Ok(vec![private(ctx, &TourMsg::NoBerserk)]);
    let Some(mut t) = live(&slot.record).cloned() else {
        return Ok(vec![private(ctx, &TourMsg::NoTournament)]);
    };
    if !matches!(t.format, Format::Arena { .. }) {
        return refuse();
    }
    let Some(game) = slot
        .game
        .as_ref()
        .filter(|g| g.record.tournament == Some(t.id))
    else {
        return refuse();
    };
    let (Some(me), Some(p)) = (
        game.color_of(&ctx.user.id),
        t.pairing_of_game(game.record.id),
    ) else {
        return refuse();
    };
    let red = me == crate::core::Color::Red;
    let moved = game.record.moves.len() > usize::from(!red);
    let already = if red {
        t.pairings[p].berserk.0
    } else {
        t.pairings[p].berserk.1
    };
    if moved || already {
        return refuse();
    }
    let old = game.deadlines();
    let mut g = game.clone();
    if let Some(c) = g.record.clock.as_mut() {
        let side = if red { &mut c.red } else { &mut c.black };
        side.remaining_ms /= 2;
    }
    if red {
        t.pairings[p].berserk.0 = true;
    } else {
        t.pairings[p].berserk.1 = true;
    }
    slot.record.tournament = Some(t);
    super::ctx::save_game(ctx, slot, g, &old).await?;
    Ok(vec![say(
        ctx,
        &TourMsg::Berserk {
            name: ctx.user.name.clone(),
        },
    )])
}

/// What a game's end did to its tournament: the games it started and what is said.
pub(crate) struct Step {
    /// The tournament as it is now.
    pub tournament: Tournament,
    /// The games started (already in the record and the changes).
    pub started: Vec<Game>,
    /// A new round's pairings.
    pub lines: Vec<Reply>,
    /// The end, with the final table.
    pub over: Vec<Reply>,
}

impl Step {
    /// Everything it says, the boards of its games drawn.
    pub(crate) async fn replies(self, ctx: &Ctx<'_>) -> Vec<Reply> {
        let mut out = self.lines;
        out.extend(boards(ctx, &self.tournament, &self.started).await);
        out.extend(self.over);
        out
    }
}

/// A game of the chat ended (called by [`super::ctx::save_game`] before it writes the
/// channel): its result goes into the tournament it was paired in, and the next pairings
/// are made, their games added to `record` and `changes`.
pub(crate) fn game_ended(
    ctx: &Ctx<'_>,
    record: &mut ChannelRecord,
    game: &Game,
    changes: &mut Changes,
) -> AppResult<Option<Step>> {
    let Some(tid) = game.record.tournament else {
        return Ok(None);
    };
    let Some(mut t) = record
        .tournament
        .clone()
        .filter(|t| t.id == tid && t.live())
    else {
        return Ok(None);
    };
    let Some(p) = t
        .pairing_of_game(game.record.id)
        .filter(|&p| t.pairings[p].in_play())
    else {
        return Ok(None);
    };
    match game.record.status {
        GameStatus::Finished { result, .. } => t.record(p, GameResult::of(result), ctx.now),
        // Not played out (a tournament game is not aborted, but one from before may be): a
        // draw that counts for neither side's tie-breaks.
        _ => {
            t.record(p, GameResult::Draw, ctx.now);
            t.pairings[p].forfeit = true;
        }
    }
    let was = t.stage;
    let next = t.advance(ctx.now);
    let started = make_games(ctx, &mut t, record, changes, &next.start)?;
    let (mut lines, over) = progress(ctx, &t, &next, changes);
    let arena = matches!(t.format, Format::Arena { .. });
    if arena && !next.finished {
        // The arena's table, live: its top after every game.
        lines.insert(
            0,
            say(
                ctx,
                &TourMsg::ArenaTop {
                    id: t.id,
                    top: top_text(&t, 5),
                },
            ),
        );
    }
    if arena && was == Stage::Running && t.stage != Stage::Running {
        // An arena whose time ran out while this game was ending (its own deadline comes
        // after): said here, once.
        let playing = t.pairings.iter().filter(|p| p.in_play()).count();
        lines.insert(0, say(ctx, &TourMsg::TimeUp { id: t.id, playing }));
    }
    record.tournament = Some(t.clone());
    Ok(Some(Step {
        tournament: t,
        started,
        lines,
        over,
    }))
}

/// A tournament's deadline fell due: its start time, or an arena's end.
pub(crate) async fn due(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    d: &Deadline,
    changes: &mut Changes,
) -> AppResult<Vec<Reply>> {
    let Some(t) = live(&slot.record).filter(|t| t.id == d.id).cloned() else {
        return Ok(Vec::new());
    };
    match d.kind {
        DeadlineKind::TournamentStart if t.stage == Stage::Entry => {
            if t.players.len() < 2 {
                let mut t = t;
                t.stage = Stage::Cancelled;
                let id = t.id;
                let c = std::mem::take(changes);
                ctx.edit_record(slot, |r| r.tournament = Some(t), c).await?;
                return Ok(vec![say(ctx, &TourMsg::CalledOffTooFew { id })]);
            }
            ctx.persist(std::mem::take(changes)).await?;
            begin(ctx, slot, t).await
        }
        DeadlineKind::TournamentRound if t.stage == Stage::Running => {
            let c = std::mem::take(changes);
            step(ctx, slot, t, c).await
        }
        DeadlineKind::TournamentEnd if t.stage == Stage::Running => {
            let mut t = t;
            let next = t.advance(ctx.now);
            let playing = t.pairings.iter().filter(|p| p.in_play()).count();
            let mut c = std::mem::take(changes);
            let (_, over) = progress(ctx, &t, &next, &mut c);
            let id = t.id;
            ctx.edit_record(slot, |r| r.tournament = Some(t), c).await?;
            let mut replies = Vec::new();
            if !next.finished {
                replies.push(say(ctx, &TourMsg::TimeUp { id, playing }));
            }
            replies.extend(over);
            Ok(replies)
        }
        _ => Ok(Vec::new()),
    }
}

/// What a step of the tournament says: a new round's pairings, and its end (the final
/// table; its deadlines go).
fn progress(
    ctx: &Ctx<'_>,
    t: &Tournament,
    next: &crate::game::tournament::Advance,
    changes: &mut Changes,
) -> (Vec<Reply>, Vec<Reply>) {
    let mut lines = Vec::new();
    if let Some(round) = next.round_started {
        let mut out: Vec<String> = t
            .pairings
            .iter()
            .filter(|p| p.round == round)
            .map(|p| {
                let (red, black) = (
                    t.players[p.red].player.name.clone(),
                    t.players[p.black].player.name.clone(),
                );
                match (p.game, p.result) {
                    (Some(game), _) => text(&TourMsg::PairingLine { game, red, black }, ctx.lang),
                    (None, Some(r)) => text(
                        &TourMsg::ResultLine {
                            red,
                            score: score_text(r).to_string(),
                            black,
                        },
                        ctx.lang,
                    ),
                    (None, None) => String::new(),
                }
            })
            .collect();
        for &(_, b) in t.byes.iter().filter(|(r, _)| *r == round) {
            out.push(text(
                &TourMsg::ByeLine {
                    name: t.players[b].player.name.clone(),
                    point: matches!(t.format, Format::Swiss { .. }),
                },
                ctx.lang,
            ));
        }
        lines.push(say(
            ctx,
            &TourMsg::Round {
                id: t.id,
                round,
                of: t.rounds().unwrap_or(round),
                lines: out.join("\n"),
            },
        ));
    }
    if let Some(at) = next.wait_until {
        // Its deadline may be asked for again (a pause, a withdrawal): it is the same one.
        changes.add_deadlines.extend(round_deadline(ctx, t));
        lines.push(say(
            ctx,
            &TourMsg::NextRound {
                id: t.id,
                round: t.round + 1,
                when: in_time(ctx, at.saturating_sub(ctx.now)),
            },
        ));
    }
    let mut over = Vec::new();
    if next.finished {
        changes.remove_deadlines.extend(end_deadline(ctx, t));
        let rows = table(t);
        let best = rows.first().map(|r| (r.score, r.tiebreaks));
        let winner = rows
            .iter()
            .filter(|r| Some((r.score, r.tiebreaks)) == best)
            .map(|r| t.players[r.entrant].player.name.clone())
            .collect::<Vec<_>>()
            .join(list_separator(ctx.lang));
        let medals = ["🥇", "🥈", "🥉"];
        let podium = rows
            .iter()
            .zip(medals)
            .map(|(r, m)| format!("{m} {}", t.players[r.entrant].player.name))
            .collect::<Vec<_>>()
            .join(list_separator(ctx.lang));
        let mut reply = say(
            ctx,
            &TourMsg::Over {
                id: t.id,
                winner,
                podium,
                table: table_text(ctx, t, 1),
            },
        );
        reply.image = table_picture(ctx, t);
        over.push(reply);
    }
    (lines, over)
}

fn score_text(r: GameResult) -> &'static str {
    match r {
        GameResult::Red => "1-0",
        GameResult::Black => "0-1",
        GameResult::Draw => "½-½",
    }
}

/// Start the games of pairings `start`: numbered, stored with `changes`, named in `record`.
fn make_games(
    ctx: &Ctx<'_>,
    t: &mut Tournament,
    record: &mut ChannelRecord,
    changes: &mut Changes,
    start: &[usize],
) -> AppResult<Vec<Game>> {
    let mut games = Vec::new();
    for &p in start {
        let number = ctx.svc.storage().next_game_number()?;
        let red = t.players[t.pairings[p].red].player.clone();
        let black = t.players[t.pairings[p].black].player.clone();
        let rated = t.rated
            && crate::rating::refusal(
                t.time_control.pace(),
                t.ruleset.as_str(),
                false,
                [&red.id, &black.id],
            )
            .is_none();
        let mut game = Game::start(
            GameSetup {
                id: number,
                channel: ctx.channel.clone(),
                red,
                black,
                ruleset: t.ruleset,
                time_control: t.time_control,
                start: None,
                takebacks: false,
                hints: false,
                rated,
                community: t.community.clone(),
                lang: t.lang.clone(),
                idle_after_ms: None,
            },
            ctx.now,
        );
        game.record.tournament = Some(t.id);
        game.record.first_move_ms = Some(FIRST_MOVE_MS);
        t.pairings[p].game = Some(number);
        changes.games.push(game.record.clone());
        changes.game_number = changes.game_number.max(Some(number));
        changes.add_deadlines.extend(game.deadlines());
        record.other_games.push(number);
        games.push(game);
    }
    Ok(games)
}

/// Most first boards posted at once: a large round's boards would take minutes to get through
/// a chat's flood limits (Telegram: 20 messages a minute in a group) while the clocks run, so
/// beyond this the round's pairing list is what is posted, and each board comes with its
/// game's first move (or `/board`).
const MAX_START_BOARDS: usize = 4;

/// What the players of a new game are told of their first move.
fn first_move_rule(ctx: &Ctx<'_>) -> String {
    text(
        &TourMsg::FirstMoveRule {
            minutes: FIRST_MOVE_MS / 60_000,
        },
        ctx.lang,
    )
}

/// The first board of each game `started`; with venues of their own, each asks for its venue.
pub(crate) async fn boards(ctx: &Ctx<'_>, t: &Tournament, started: &[Game]) -> Vec<Reply> {
    let round = t.rounds().map(|_| t.round);
    let many = started.len() > MAX_START_BOARDS;
    let venues =
        t.venues == Venues::Own && Platform::of(ctx.channel).is_some_and(|p| p.opens_venues());
    let mut out = Vec::new();
    if many {
        // Each player is told that their game begins (the round's list names their game).
        let mut reply = Reply::text(format!(
            "{}\n{}",
            text(
                &TourMsg::BoardsOnAsk {
                    games: started.len(),
                },
                ctx.lang
            ),
            first_move_rule(ctx)
        ));
        reply.notify = started
            .iter()
            .flat_map(|g| [g.record.red.clone(), g.record.black.clone()])
            .take(MAX_NOTIFY)
            .collect();
        out.push(reply);
        if !venues {
            return out;
        }
    }
    for game in started {
        let heading = format!(
            "{}\n{}",
            text(&TourMsg::GameOf { id: t.id, round }, ctx.lang),
            first_move_rule(ctx)
        );
        let mut reply = super::challenge::first_board(ctx, game, Some(heading)).await;
        // The two players are called to their board.
        reply.notify = vec![game.record.red.clone(), game.record.black.clone()];
        if venues {
            // A large round's boards are not posted in the chat when no venue opens (it was
            // told that the games begin).
            reply.venue = Some(super::venues::ask(ctx, t, game, many));
        }
        out.push(reply);
    }
    out
}

/// The first `n` of an arena's table on one line: `ann 6 🔥 · ben 2 · cat 0`.
fn top_text(t: &Tournament, n: usize) -> String {
    table(t)
        .iter()
        .take(n)
        .map(|r| {
            let fire = if r.on_fire { " 🔥" } else { "" };
            format!("{} {}{fire}", t.players[r.entrant].player.name, r.score)
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// Rows of the table a page of text holds (the picture holds them all).
const PAGE_ROWS: usize = 20;

/// Pages of the table as text.
fn pages(t: &Tournament) -> usize {
    t.players.len().div_ceil(PAGE_ROWS).max(1)
}

/// Page `page` (from 1) of the table, one line per player, and where the next page is.
fn table_text(ctx: &Ctx<'_>, t: &Tournament, page: usize) -> String {
    if t.players.is_empty() {
        return text(&TourMsg::NoPlayers, ctx.lang);
    }
    let (pages, page) = (pages(t), page.clamp(1, pages(t)));
    let quarter = |q: u32| {
        // Quarter-points written as points (halves kept; a quarter is rounded down).
        points(q / 2)
    };
    let mut lines: Vec<String> = table(t)
        .iter()
        .enumerate()
        .skip((page - 1) * PAGE_ROWS)
        .take(PAGE_ROWS)
        .map(|(k, r)| {
            let e = &t.players[r.entrant];
            let name = e.player.name.clone();
            let away = e.presence != Presence::Playing;
            let m = match t.format {
                Format::Arena { .. } => TourMsg::ArenaRow {
                    rank: k + 1,
                    name,
                    points: r.score,
                    games: r.games,
                    fire: r.on_fire,
                    away,
                },
                _ => TourMsg::RoundsRow {
                    rank: k + 1,
                    name,
                    points: points(r.score),
                    buchholz: quarter(r.tiebreaks[0]),
                    sb: quarter(r.tiebreaks[2]),
                    away,
                },
            };
            text(&m, ctx.lang)
        })
        .collect();
    if page < pages {
        lines.push(text(&TourMsg::Page { page, pages }, ctx.lang));
    }
    lines.join("\n")
}

/// The whole table as a picture: rank (a medal for the first three once games are played),
/// name, rating, score and tie-breaks, or for an arena its games, wins and streaks. Drawn
/// once the command is committed, like the rating graphs.
fn table_picture(ctx: &Ctx<'_>, t: &Tournament) -> Option<Image> {
    use crate::i18n::tournament::{column_header, decimal_points, Column};
    use crate::render::table::{self as pic, Medal, TableRow};
    if !ctx.svc.config.images || t.players.is_empty() {
        return None;
    }
    let lang = ctx.lang;
    let arena = matches!(t.format, Format::Arena { .. });
    let columns: &[Column] = if arena {
        &[
            Column::Rank,
            Column::Player,
            Column::Rating,
            Column::Points,
            Column::Games,
            Column::Wins,
        ]
    } else {
        &[
            Column::Rank,
            Column::Player,
            Column::Rating,
            Column::Points,
            Column::Buchholz,
            Column::Median,
            Column::Sb,
        ]
    };
    let rows = table(t);
    let played = rows.iter().any(|r| r.games > 0);
    let medals = [Medal::Gold, Medal::Silver, Medal::Bronze];
    let cells = |k: usize, r: &crate::game::tournament::standings::Row| -> Vec<String> {
        let e = &t.players[r.entrant];
        let quarter = |q: u32| decimal_points(q / 2, lang);
        let mut c = vec![
            (k + 1).to_string(),
            e.player.name.clone(),
            e.rating.to_string(),
        ];
        if arena {
            c.extend([r.score.to_string(), r.games.to_string(), r.wins.to_string()]);
        } else {
            c.push(decimal_points(r.score, lang));
            c.extend(r.tiebreaks.iter().map(|&q| quarter(q)));
        }
        c
    };
    let title = text(
        &TourMsg::GameOf {
            id: t.id,
            round: None,
        },
        lang,
    );
    let subtitle = [
        format_text(t.format, lang),
        stage_text(ctx, t),
        crate::i18n::app::time_control_text(t.time_control, lang),
    ]
    .join(phrase_separator(lang));
    let picture = pic::Table {
        title: title.clone(),
        subtitle: subtitle.clone(),
        columns: columns
            .iter()
            .map(|&c| pic::Column {
                header: column_header(c, lang).to_string(),
                wide: c == Column::Player,
            })
            .collect(),
        rows: rows
            .iter()
            .enumerate()
            .map(|(k, r)| TableRow {
                cells: cells(k, r),
                medal: medals.get(k).copied().filter(|_| played),
                streak: (arena && r.on_fire).then(|| "2×".to_string()),
                faded: t.players[r.entrant].presence == Presence::Withdrawn,
            })
            .collect(),
        scale: 1.5,
    };
    let later = super::Later::new(move || pic::table_png(&picture).map_err(|e| e.to_string()));
    Some(Image {
        bytes: std::sync::Arc::new(Vec::new()),
        filename: format!("standings-{}.png", t.id),
        kind: ImageKind::Png,
        alt: format!("{title}{}{subtitle}", phrase_separator(lang)),
        text_board: None,
        drawing: None,
        later: Some(later),
    })
}

/// Where the tournament stands, in words.
fn stage_text(ctx: &Ctx<'_>, t: &Tournament) -> String {
    let m = match t.stage {
        Stage::Entry => TourMsg::StageEntry,
        Stage::Running => TourMsg::StageRunning {
            round: t.round,
            of: t.rounds().unwrap_or(0),
            left: t
                .ends_ms
                .map(|e| duration_text(e.saturating_sub(ctx.now), ctx.lang)),
        },
        Stage::Ending => TourMsg::StageEnding,
        Stage::Finished => TourMsg::StageFinished,
        Stage::Cancelled => TourMsg::StageCancelled,
    };
    text(&m, ctx.lang)
}

/// `/tournament`: where the chat's tournament stands (or how to make one).
fn summary(ctx: &Ctx<'_>, slot: &Slot) -> Reply {
    let Some(t) = slot.record.tournament.as_ref() else {
        return say(ctx, &TourMsg::Usage);
    };
    if !t.live() && t.stage == Stage::Cancelled {
        return say(ctx, &TourMsg::Usage);
    }
    if t.stage == Stage::Entry {
        // The entry list again, with its buttons.
        return entry_list(ctx, t);
    }
    say(
        ctx,
        &TourMsg::Summary {
            id: t.id,
            format: format_text(t.format, ctx.lang),
            terms: terms_text(ctx, t),
            stage: stage_text(ctx, t),
            count: t.players.len(),
        },
    )
}

/// `/tournament standings [PAGE]`: the table of the chat's tournament (the last one's, when
/// over): a page of it as text, and the first page with the whole table as a picture.
fn standings(ctx: &Ctx<'_>, slot: &Slot, page: Option<&str>) -> Reply {
    let Some(t) = slot.record.tournament.as_ref() else {
        return private(ctx, &TourMsg::NoTournament);
    };
    let page = page
        .and_then(|p| p.parse::<usize>().ok())
        .unwrap_or(1)
        .clamp(1, pages(t));
    let mut reply = say(
        ctx,
        &TourMsg::Standings {
            id: t.id,
            status: format!(
                "{}{}{}",
                format_text(t.format, ctx.lang),
                phrase_separator(ctx.lang),
                stage_text(ctx, t)
            ),
            table: table_text(ctx, t, page),
        },
    );
    if page == 1 {
        reply.image = table_picture(ctx, t);
    }
    reply
}

/// `/tournament pairings`: the games being played.
fn pairings(ctx: &Ctx<'_>, slot: &Slot) -> Reply {
    let Some(t) = live(&slot.record) else {
        return private(ctx, &TourMsg::NoTournament);
    };
    let lines: Vec<String> = t
        .pairings
        .iter()
        .filter(|p| p.in_play())
        .filter_map(|p| {
            Some(text(
                &TourMsg::PairingLine {
                    game: p.game?,
                    red: t.players[p.red].player.name.clone(),
                    black: t.players[p.black].player.name.clone(),
                },
                ctx.lang,
            ))
        })
        .collect();
    if lines.is_empty() {
        return say(ctx, &TourMsg::NoGamesNow);
    }
    say(
        ctx,
        &TourMsg::Pairings {
            id: t.id,
            lines: lines.join("\n"),
        },
    )
}

/// Why `player` may not start another game in this chat: they play in its tournament.
pub(crate) fn busy_in_tournament(
    ctx: &Ctx<'_>,
    record: &ChannelRecord,
    player: &crate::game::PlayerRef,
) -> Option<Reply> {
    let t = live(record)?;
    let i = t.entrant(&player.id)?;
    (t.players[i].presence != Presence::Withdrawn).then(|| {
        private(
            ctx,
            &TourMsg::InTournament {
                name: player.name.clone(),
                id: t.id,
            },
        )
    })
}

/// Why a tournament game may not be aborted (or ended without a result).
pub(crate) fn no_abort(ctx: &Ctx<'_>, game: &Game) -> Option<Reply> {
    game.record
        .tournament
        .is_some()
        .then(|| private(ctx, &TourMsg::NoAbort))
}
