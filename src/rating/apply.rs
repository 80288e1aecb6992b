//! What a game's end does to the ratings store, as a pure function: the records it reads in,
//! the writes out. The storage runs it inside the transaction that stores the game's end, so
//! the result, both rating changes, the statistics and the leaderboards change together or
//! not at all, and the game's end record (keyed by game id) makes a second run a no-op.

use super::board::Entry;
use super::family::{Family, Pace};
use super::farming;
use super::glicko::{rate, Score};
use super::keys;
use super::record::{
    encode, Change, FamilyRating, GameEnd, NotRated, PairRecord, Profile, RatedOutcome,
    MAX_COMMUNITIES, RATING_SCHEMA,
};

/// Ids starting with this are the bot's own players: games against them are never rated.
pub const BOT_ID_PREFIX: &str = "bot:";

/// Whether `id` is the bot.
#[must_use]
pub fn is_bot(id: &str) -> bool {
    id.starts_with(BOT_ID_PREFIX)
}

/// One side of a finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Side {
    /// The player's id (`dc:123`, `tg:456`, `console:alice`).
    pub id: String,
    /// Their display name.
    pub name: String,
}

/// A game that ended (or was aborted), as the ratings see it.
#[derive(Clone, Debug, PartialEq)]
pub struct Ending {
    /// The game id.
    pub game: u64,
    /// Red.
    pub red: Side,
    /// Black.
    pub black: Side,
    /// Red's result; none for an aborted game.
    pub red_score: Option<Score>,
    /// How it ended (`checkmate`, `timeout`, ...).
    pub reason: String,
    /// Plies played.
    pub plies: usize,
    /// When it ended (epoch ms).
    pub ended_ms: u64,
    /// Whether both players agreed to a rated game.
    pub rated: bool,
    /// Its clock's pace (none without a clock).
    pub pace: Option<Pace>,
    /// Its ruleset's name.
    pub ruleset: String,
    /// Whether it started from a set-up position.
    pub set_up: bool,
    /// The server or group it was played in, as a scope key.
    pub community: Option<String>,
}

/// Why a game with these settings could not be rated, if it could not.
#[must_use]
pub fn refusal(
    pace: Option<Pace>,
    ruleset: &str,
    set_up: bool,
    players: [&str; 2],
) -> Option<NotRated> {
    if players.iter().any(|p| is_bot(p)) {
        Some(NotRated::Bot)
    } else if pace.is_none() {
        Some(NotRated::NoClock)
    } else if ruleset == "casual" {
        Some(NotRated::CasualRules)
    } else if set_up {
        Some(NotRated::SetUp)
    } else {
        None
    }
}

/// The platform-wide scope of a player: their id's platform (`dc`, `tg`, `console`).
#[must_use]
pub fn platform_scope(id: &str) -> &str {
    id.split(':').next().unwrap_or(id)
}

/// The records a game's end reads.
#[derive(Clone, Debug, Default)]
pub struct Before {
    /// Red's profile, if stored.
    pub red: Option<Profile>,
    /// Black's profile, if stored.
    pub black: Option<Profile>,
    /// The pair's record, if stored.
    pub pair: Option<PairRecord>,
}

/// One write to the ratings store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Write {
    /// Store `value` under `key`.
    Put(Vec<u8>, Vec<u8>),
    /// Remove `key`.
    Remove(Vec<u8>),
}

/// What a game's end writes, in order, and its end record.
#[derive(Clone, Debug)]
pub struct Applied {
    /// The game's end record (also among the writes).
    pub end: GameEnd,
    /// The writes, to apply in order.
    pub writes: Vec<Write>,
}

/// Apply a game's end to the records it read.
#[must_use]
pub fn apply(e: &Ending, before: Before) -> Applied {
    let mut writes = Vec::new();
    let mut end = GameEnd {
        v: RATING_SCHEMA,
        game: e.game,
        red: e.red.id.clone(),
        black: e.black.id.clone(),
        red_score: e.red_score,
        reason: e.reason.clone(),
        ended_ms: e.ended_ms,
        outcome: RatedOutcome::Casual,
    };
    let (Some(red_score), false) = (e.red_score, e.red.id == e.black.id) else {
        if e.rated {
            end.outcome = RatedOutcome::NotRated {
                why: NotRated::Aborted,
            };
        }
        writes.push(Write::Put(keys::end(e.game), encode(&end)));
        return Applied { end, writes };
    };
    let fresh = |name: &str| Profile {
        v: RATING_SCHEMA,
        name: name.to_string(),
        ..Profile::default()
    };
    let mut red = before.red.unwrap_or_else(|| fresh(&e.red.name));
    let mut black = before.black.unwrap_or_else(|| fresh(&e.black.name));
    red.name.clone_from(&e.red.name);
    black.name.clone_from(&e.black.name);
    let mut pair = before.pair.unwrap_or_else(|| {
        let (a, b) = if e.red.id <= e.black.id {
            (&e.red.id, &e.black.id)
        } else {
            (&e.black.id, &e.red.id)
        };
        PairRecord {
            v: RATING_SCHEMA,
            a: a.clone(),
            b: b.clone(),
            ..PairRecord::default()
        }
    });

    end.outcome = decide(e, &mut pair);
    if let RatedOutcome::Rated {
        family,
        weight,
        red: rc,
        black: bc,
    } = &mut end.outcome
    {
        let ra = red.ratings.entry(*family).or_default();
        let ba = black.ratings.entry(*family).or_default();
        let (before_red, before_black) = (ra.at(e.ended_ms), ba.at(e.ended_ms));
        let (after_red, after_black) = rate(before_red, before_black, red_score, *weight);
        *rc = Change {
            before: before_red,
            after: after_red,
        };
        *bc = Change {
            before: before_black,
            after: after_black,
        };
        let family = *family;
        for (side, profile, change, score) in [
            (&e.red, &mut red, *rc, red_score),
            (&e.black, &mut black, *bc, red_score.reversed()),
        ] {
            rerate(e, side, profile, family, change, score, &mut writes);
        }
    }
    let rated = matches!(end.outcome, RatedOutcome::Rated { .. });
    red.stats
        .record(red_score, true, &e.reason, rated, e.ended_ms);
    black
        .stats
        .record(red_score.reversed(), false, &e.reason, rated, e.ended_ms);
    let a_is_red = pair.a == e.red.id;
    let a_score = if a_is_red {
        red_score
    } else {
        red_score.reversed()
    };
    pair.a_results.add(a_score);
    if a_is_red {
        pair.a_as_red.add(a_score);
    }
    pair.last_ms = pair.last_ms.max(e.ended_ms);

    writes.push(Write::Put(keys::profile(&e.red.id), encode(&red)));
    writes.push(Write::Put(keys::profile(&e.black.id), encode(&black)));
    writes.push(Write::Put(
        keys::pair(&e.red.id, &e.black.id),
        encode(&pair),
    ));
    writes.push(Write::Put(keys::end(e.game), encode(&end)));
    Applied { end, writes }
}

/// Whether and how much the game counts; notes a counted game in the pair's window.
fn decide(e: &Ending, pair: &mut PairRecord) -> RatedOutcome {
    if !e.rated {
        return RatedOutcome::Casual;
    }
    let refused = refusal(e.pace, &e.ruleset, e.set_up, [&e.red.id, &e.black.id]);
    let not = |why| RatedOutcome::NotRated { why };
    let (None, Some(pace)) = (refused, e.pace) else {
        return not(refused.unwrap_or(NotRated::NoClock));
    };
    if e.plies < 4 {
        return not(NotRated::TooFewMoves);
    }
    let earlier = farming::prune(&mut pair.recent_rated, e.ended_ms);
    pair.recent_rated.push(e.ended_ms);
    let weight = farming::weight(earlier);
    if weight <= 0.0 {
        return not(NotRated::Farming);
    }
    let same = crate::rating::Glicko::default();
    let unset = Change {
        before: same,
        after: same,
    };
    RatedOutcome::Rated {
        family: Family::of(pace),
        weight,
        red: unset,
        black: unset,
    }
}

/// A player's new rating in `family`: their profile, their history, and their entries on the
/// platform's and the community's leaderboards (moved to the new rating).
fn rerate(
    e: &Ending,
    side: &super::apply::Side,
    profile: &mut Profile,
    family: Family,
    change: Change,
    score: Score,
    writes: &mut Vec<Write>,
) {
    let fr: &mut FamilyRating = profile.ratings.entry(family).or_default();
    let platform = platform_scope(&side.id).to_string();
    let mut scopes: Vec<String> = vec![platform];
    scopes.extend(fr.communities.iter().cloned());
    if fr.games > 0 {
        for s in &scopes {
            writes.push(Write::Remove(keys::board(
                s,
                family,
                fr.glicko.rating,
                &side.id,
            )));
        }
    }
    if let Some(c) = e.community.as_ref() {
        if !fr.communities.contains(c) {
            if fr.communities.len() >= MAX_COMMUNITIES {
                // Forget the oldest one (and take the player off its board).
                let old = fr.communities.remove(0);
                if let Some(i) = scopes.iter().position(|s| *s == old) {
                    scopes.remove(i);
                }
            }
            fr.communities.push(c.clone());
            scopes.push(c.clone());
        }
        writes.push(Write::Put(
            keys::community(c),
            [&[family.index()][..], &e.ended_ms.to_be_bytes()].concat(),
        ));
    }
    fr.glicko = change.after;
    fr.games = fr.games.saturating_add(1);
    fr.last_ms = fr.last_ms.max(e.ended_ms);
    if !change.after.provisional() {
        fr.best = Some(
            fr.best
                .map_or(change.after.rating, |b| b.max(change.after.rating)),
        );
    }
    let entry = Entry {
        player: side.id.clone(),
        name: side.name.clone(),
        glicko: fr.glicko,
        games: fr.games,
        last_ms: fr.last_ms,
    };
    // Only a settled rating goes on the boards: a deviation only grows until the next game,
    // so a provisional player cannot be listed before then, and boards stay as short as the
    // players they can list (a server of 10,000 mostly occasional players is read in a few
    // entries).
    if !fr.glicko.provisional() {
        let value = entry.encode();
        for s in &scopes {
            writes.push(Write::Put(
                keys::board(s, family, fr.glicko.rating, &side.id),
                value.clone(),
            ));
        }
    }
    let mut point = Vec::with_capacity(17);
    point.extend_from_slice(&change.after.rating.to_be_bytes());
    point.extend_from_slice(&change.after.deviation.to_be_bytes());
    point.push(score_byte(score));
    writes.push(Write::Put(
        keys::history(&side.id, family, e.ended_ms, e.game),
        point,
    ));
}

fn score_byte(s: Score) -> u8 {
    match s {
        Score::Loss => 0,
        Score::Draw => 1,
        Score::Win => 2,
    }
}

/// A history point from its stored key tail (end time, game) and value.
#[must_use]
pub fn history_point(key_tail: &[u8], value: &[u8]) -> Option<super::HistoryPoint> {
    let u = |b: &[u8], i: usize| -> Option<u64> {
        Some(u64::from_be_bytes(b.get(i..i + 8)?.try_into().ok()?))
    };
    let f = |i: usize| -> Option<f64> {
        Some(f64::from_be_bytes(value.get(i..i + 8)?.try_into().ok()?))
    };
    Some(super::HistoryPoint {
        at_ms: u(key_tail, 0)?,
        game: u(key_tail, 8)?,
        rating: f(0)?,
        deviation: f(8)?,
        score: match value.get(16)? {
            0 => Score::Loss,
            1 => Score::Draw,
            _ => Score::Win,
        },
    })
}
