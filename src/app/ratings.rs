//! Ratings, leaderboards and statistics: `/rating [@player] [family]` (with the rating
//! graph), `/top [family] [page] [global]`, `/stats [@player] [@opponent]`. Everything read
//! here is kept up to date at each game's end (see [`crate::rating`]), so no command scans
//! games: a profile, a pair record, a leaderboard page or a player's rank.

use std::sync::Arc;

use super::chat::{AppResult, Image, ImageKind, Reply};
use super::command::Cmd;
use super::ctx::Ctx;
use crate::game::PlayerRef;
use crate::i18n::ratings::{family_name, platform_name, text, RatingMsg, Scope};
use crate::platform::{Platform, UserKey};
use crate::rating::board::PageReader;
use crate::rating::{platform_scope, Family, Profile, Score};
use crate::render::chart::{line_chart, Chart, Mark, MarkKind};

const USAGE_RATING: &str = "/rating [@player] [bullet|blitz|rapid|classical|correspondence]";
const USAGE_TOP: &str = "/top [bullet|blitz|rapid|classical|correspondence] [page] [global]";
const USAGE_STATS: &str = "/stats [@player] [@opponent]";

/// Points on a rating graph.
const GRAPH_POINTS: usize = 300;

pub(crate) async fn command(ctx: &Ctx<'_>, cmd: Cmd, args: &str) -> AppResult<Vec<Reply>> {
    match cmd {
        Cmd::Rating => rating(ctx, args).await,
        Cmd::Top => top(ctx, args),
        _ => stats(ctx, args),
    }
}

fn say(ctx: &Ctx<'_>, m: &RatingMsg) -> Reply {
    Reply::text(text(m, ctx.lang))
}

fn bad(ctx: &Ctx<'_>, word: &str, usage: &'static str) -> Reply {
    say(
        ctx,
        &RatingMsg::BadArgument {
            word: word.chars().take(24).collect(),
            usage,
        },
    )
}

/// What a word of the arguments names.
enum Named {
    /// A player.
    Player(PlayerRef),
    /// An `@name` nobody here is known by.
    Unknown,
    /// Not a player word.
    No,
}

/// The player a word names: a mention the platform resolved, or `@handle` (the console's
/// users are their handles; elsewhere a handle is looked up among the players who used it).
fn named(ctx: &Ctx<'_>, word: &str) -> AppResult<Named> {
    if let Some((_, p)) = ctx.mentions().iter().find(|(t, _)| t == word) {
        return Ok(Named::Player(p.clone()));
    }
    let Some(handle) = word.strip_prefix('@') else {
        return Ok(Named::No);
    };
    if handle.is_empty() || handle.chars().count() > 64 {
        return Ok(Named::Unknown);
    }
    let lower = handle.to_lowercase();
    let on = Platform::of(ctx.channel);
    let platform = on.map_or("x", Platform::scope);
    let console = on == Some(Platform::Console);
    if console {
        return Ok(Named::Player(PlayerRef::new(
            Platform::Console.key(lower),
            handle,
        )));
    }
    let key = UserKey::from(format!("{platform}:@{lower}"));
    let Some(id) = ctx.svc.storage().alias(&key)? else {
        return Ok(Named::Unknown);
    };
    // Named as they call themselves (remembered for their handle), else by the handle.
    let name = ctx
        .svc
        .storage()
        .user(&key)?
        .and_then(|p| p.name)
        .unwrap_or_else(|| format!("@{handle}"));
    Ok(Named::Player(PlayerRef::new(id, &name)))
}

/// The name to show for `p`: their name in their latest game, else as named.
fn name_of(p: &PlayerRef, profile: Option<&Profile>) -> String {
    profile
        .map(|pr| pr.name.clone())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| p.name.clone())
}

/// The community of this channel, if any, else the platform of `player`, with how to say it.
fn scope_for(ctx: &Ctx<'_>, player: &str, global: bool) -> (String, Scope) {
    match ctx.community().filter(|_| !global) {
        Some(c) => (c.to_string(), Scope::Here),
        None => {
            let p = platform_scope(player);
            (p.to_string(), Scope::Platform(platform_name(p)))
        }
    }
}

async fn rating(ctx: &Ctx<'_>, args: &str) -> AppResult<Vec<Reply>> {
    let mut who = ctx.user.clone();
    let mut family = None;
    for word in args.split_whitespace().take(4) {
        match named(ctx, word)? {
            Named::Player(p) => who = p,
            Named::Unknown => {
                return Ok(vec![say(
                    ctx,
                    &RatingMsg::UnknownPlayer {
                        who: word.chars().take(32).collect(),
                    },
                )])
            }
            Named::No => match word.parse::<Family>() {
                Ok(f) => family = Some(f),
                Err(()) => return Ok(vec![bad(ctx, word, USAGE_RATING)]),
            },
        }
    }
    let profile = ctx.svc.storage().profile(&who.id)?;
    let name = name_of(&who, profile.as_ref());
    let Some(profile) = profile.filter(|p| !p.ratings.is_empty()) else {
        return Ok(vec![say(ctx, &RatingMsg::NoRatings { name })]);
    };
    let mut lines = vec![text(
        &RatingMsg::RatingsOf {
            name: name.clone(),
            platform: platform_name(platform_scope(&who.id)),
        },
        ctx.lang,
    )];
    for (f, fr) in &profile.ratings {
        // Ranked here if the player played this family here, else on the whole platform.
        let played_here = ctx
            .community()
            .is_some_and(|c| fr.communities.iter().any(|x| x == c));
        let (key, scope) = scope_for(ctx, &who.id, !played_here);
        // Only a listed player has a rank: nobody else's is looked for on the board.
        let rank = if fr.listed(ctx.now) {
            ctx.svc
                .storage()
                .rank(&key, *f, &who.id, fr.glicko.rating, ctx.now)?
        } else {
            None
        };
        lines.push(text(
            &RatingMsg::RatingRow {
                family: *f,
                rating: fr.at(ctx.now),
                games: fr.games,
                rank,
                scope,
            },
            ctx.lang,
        ));
    }
    let shown = family
        .filter(|f| profile.ratings.contains_key(f))
        .or_else(|| {
            profile
                .ratings
                .iter()
                .max_by_key(|(_, fr)| (fr.games, fr.last_ms))
                .map(|(f, _)| *f)
        })
        .unwrap_or_default();
    let caption = lines.join("\n");
    let image = graph(ctx, &who.id, &name, shown).await?;
    Ok(vec![Reply {
        text: caption,
        image,
        ..Reply::default()
    }])
}

/// The rating graph of `player` in `family`, if pictures are on and there is a history.
async fn graph(
    ctx: &Ctx<'_>,
    player: &str,
    name: &str,
    family: Family,
) -> AppResult<Option<Image>> {
    if !ctx.svc.config.images {
        return Ok(None);
    }
    let history = ctx
        .svc
        .storage()
        .rating_history(player, family, GRAPH_POINTS)?;
    if history.is_empty() {
        return Ok(None);
    }
    let caption = text(
        &RatingMsg::GraphCaption {
            name: name.to_string(),
            family,
            games: history.len(),
        },
        ctx.lang,
    );
    let last = history.len() - 1;
    let mut x_labels = vec![(0.0, super::pgn::date(history[0].at_ms))];
    if last > 0 {
        x_labels.push((last as f64, super::pgn::date(history[last].at_ms)));
    }
    let chart = Chart {
        title: format!("{name} · {}", family_name(family, ctx.lang)),
        points: history
            .iter()
            .enumerate()
            .map(|(i, p)| (i as f64, p.rating))
            .collect(),
        band: Some(
            history
                .iter()
                .map(|p| (p.rating - p.deviation, p.rating + p.deviation))
                .collect(),
        ),
        marks: history
            .iter()
            .enumerate()
            .map(|(index, p)| Mark {
                index,
                kind: match p.score {
                    Score::Win => MarkKind::Good,
                    Score::Loss => MarkKind::Bad,
                    Score::Draw => MarkKind::Neutral,
                },
            })
            .collect(),
        baseline: Some(crate::rating::glicko::START_RATING),
        y_range: None,
        x_labels,
        scale: 1.0,
    };
    // Drawn once the command is committed (see `Later`).
    let later = super::Later::new(move || line_chart(&chart).map_err(|e| e.to_string()));
    Ok(Some(Image {
        bytes: Arc::new(Vec::new()),
        filename: format!("rating-{}.png", family.as_str()),
        kind: ImageKind::Png,
        alt: caption,
        text_board: None,
        drawing: None,
        later: Some(later),
    }))
}

fn top(ctx: &Ctx<'_>, args: &str) -> AppResult<Vec<Reply>> {
    let mut family = None;
    let mut page = 1usize;
    let mut global = false;
    for word in args.split_whitespace().take(4) {
        let lower = word.to_lowercase();
        if let Ok(f) = word.parse::<Family>() {
            family = Some(f);
        } else if let Ok(n) = word.parse::<usize>() {
            page = n.clamp(1, crate::rating::board::MAX_PAGE);
        } else if matches!(
            lower.as_str(),
            "global"
                | "all"
                | "world"
                | "toàncầu"
                | "toancau"
                | "tấtcả"
                | "tatca"
                | "全部"
                | "全球"
        ) {
            global = true;
        } else {
            return Ok(vec![bad(ctx, word, USAGE_TOP)]);
        }
    }
    let (key, scope) = scope_for(ctx, &ctx.user.id, global);
    let family = match family {
        Some(f) => f,
        None => ctx
            .svc
            .storage()
            .last_family(&key)?
            .map_or(Family::default(), |(f, _)| f),
    };
    let mut reader = PageReader::new(page);
    ctx.svc
        .storage()
        .leaderboard(&key, family, ctx.now, reader.first, &mut |r, e| {
            reader.visit(r, e)
        })?;
    if reader.rows.is_empty() {
        return Ok(vec![say(ctx, &RatingMsg::TopEmpty { family, scope })]);
    }
    let mut lines = vec![text(
        &RatingMsg::TopHeader {
            family,
            scope,
            page,
        },
        ctx.lang,
    )];
    for (rank, e) in &reader.rows {
        lines.push(text(
            &RatingMsg::TopRow {
                rank: *rank,
                name: e.name.clone(),
                rating: e.glicko.after_idle(ctx.now.saturating_sub(e.last_ms)),
                games: e.games,
            },
            ctx.lang,
        ));
    }
    if reader.more {
        let g = if global { " global" } else { "" };
        lines.push(text(
            &RatingMsg::TopMore {
                next: format!("/top {family} {}{g}", page + 1),
            },
            ctx.lang,
        ));
    }
    Ok(vec![Reply::text(lines.join("\n"))])
}

fn stats(ctx: &Ctx<'_>, args: &str) -> AppResult<Vec<Reply>> {
    let mut players = Vec::new();
    for word in args.split_whitespace().take(4) {
        match named(ctx, word)? {
            Named::Player(p) if players.len() < 2 => players.push(p),
            Named::Unknown => {
                return Ok(vec![say(
                    ctx,
                    &RatingMsg::UnknownPlayer {
                        who: word.chars().take(32).collect(),
                    },
                )])
            }
            _ => return Ok(vec![bad(ctx, word, USAGE_STATS)]),
        }
    }
    let storage = ctx.svc.storage();
    match players.as_slice() {
        [a, b] => {
            let (pa, pb) = (storage.profile(&a.id)?, storage.profile(&b.id)?);
            let (na, nb) = (name_of(a, pa.as_ref()), name_of(b, pb.as_ref()));
            let pair = storage
                .pair(&a.id, &b.id)?
                .filter(|p| p.a_results.games() > 0);
            let m = match pair {
                Some(p) => RatingMsg::HeadToHead {
                    a: na,
                    b: nb,
                    wdl: p.results_of(&a.id),
                    a_as_red: p.as_red_of(&a.id),
                },
                None => RatingMsg::NoHeadToHead { a: na, b: nb },
            };
            Ok(vec![say(ctx, &m)])
        }
        _ => {
            let who = players.first().cloned().unwrap_or_else(|| ctx.user.clone());
            let profile = storage.profile(&who.id)?;
            let name = name_of(&who, profile.as_ref());
            let m = match profile.filter(|p| p.stats.all.games() > 0) {
                Some(p) => RatingMsg::StatsOf {
                    name,
                    stats: Box::new(p.stats),
                },
                None => RatingMsg::NoStats { name },
            };
            Ok(vec![say(ctx, &m)])
        }
    }
}
