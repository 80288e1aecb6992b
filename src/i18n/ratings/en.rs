//! English.

use super::{by_ending, family_name, shown, signed, RatingLabel, RatingMsg, Scope};
use crate::i18n::Lang;
use crate::rating::{NotRated, Stats, Wdl};

const L: Lang = Lang::En;

fn why(w: NotRated) -> &'static str {
    match w {
        NotRated::NoClock => "a rated game needs a clock; add a time such as 10+5",
        NotRated::CasualRules => "the casual rules refuse fouls instead of ruling on them, so their games are never rated; choose official, asian, vietnam or cxq",
        NotRated::SetUp => "games from a set-up position are never rated",
        NotRated::Bot => "games against the bot are never rated",
        NotRated::Aborted => "the game was aborted",
        NotRated::TooFewMoves => "fewer than two moves were played by each side",
        NotRated::Farming => "these two players have already played five rated games with each other in the last 24 hours",
    }
}

fn scope(s: &Scope) -> String {
    match s {
        Scope::Here => "here".into(),
        Scope::Platform(p) => format!("on all of {p}"),
    }
}

fn wdl(w: &Wdl) -> String {
    format!("{} won, {} drawn, {} lost", w.wins, w.draws, w.losses)
}

fn stats(name: &str, s: &Stats) -> String {
    let mut out = vec![
        format!("{name}: {} games — {}", s.all.games(), wdl(&s.all)),
        format!(
            "As Red: {}. As Black: {}.",
            wdl(&s.as_red),
            wdl(&s.as_black)
        ),
        format!("Rated games: {}.", s.rated.games()),
    ];
    let endings = by_ending(s, L, ", ");
    if !endings.is_empty() {
        out.push(format!("By ending (won-drawn-lost): {}.", endings));
    }
    let now = match s.streak.score {
        Some(crate::rating::Score::Win) => format!("{} win(s) in a row", s.streak.len),
        Some(crate::rating::Score::Loss) => format!("{} loss(es) in a row", s.streak.len),
        Some(crate::rating::Score::Draw) => format!("{} draw(s) in a row", s.streak.len),
        None => "none".into(),
    };
    out.push(format!(
        "Streak now: {now}; longest winning streak {}, longest losing streak {}.",
        s.best_win_streak, s.worst_loss_streak
    ));
    out.join("\n")
}

pub(super) fn text(m: &RatingMsg) -> String {
    match m {
        RatingMsg::RatedGame { family } => format!("Rated game ({}): the result changes both players' ratings.", family_name(*family, L)),
        RatingMsg::CasualGame => "Casual game (not rated). For a rated one, add \"rated\" to /play.".into(),
        RatingMsg::CannotRate { why: w } => format!("This game cannot be rated: {}.", why(*w)),
        RatingMsg::OnlyChallengerSwitches => "Only the player who made the challenge can switch it between rated and casual.".into(),
        RatingMsg::Changes { family, red, red_change, black, black_change, weight } => {
            let mut t = format!(
                "Ratings ({}): {red} {} → {} ({}), {black} {} → {} ({}).",
                family_name(*family, L),
                shown(red_change.before), shown(red_change.after), signed(red_change.delta()),
                shown(black_change.before), shown(black_change.after), signed(black_change.delta()),
            );
            if *weight < 1.0 {
                t.push_str(&format!(" Counted at {}%: repeated rated games between the same two players within 24 hours count less.", (weight * 100.0).round()));
            }
            t
        }
        RatingMsg::NotCounted { why: w } => format!("Not rated: {}.", why(*w)),
        RatingMsg::RatingsOf { name, platform } => format!("Ratings of {name} on {platform} (\"?\": provisional, still settling):"),
        RatingMsg::RatingRow { family, rating, games, rank, scope: s } => {
            let place = match rank {
                Some(r) => format!("#{r} {}", scope(s)),
                None if rating.provisional() => "not ranked until the rating settles".into(),
                None => "not ranked (no rated game in the last 30 days)".into(),
            };
            format!("{}: {} ±{} · {games} game(s) · {place}", family_name(*family, L), shown(*rating), rating.deviation.round())
        }
        RatingMsg::NoRatings { name } => format!("{name} has no rated games yet. Play one with /play @someone 10+5 rated."),
        RatingMsg::GraphCaption { name, family, games } => format!("{name} — {} rating over the last {games} rated game(s)", family_name(*family, L)),
        RatingMsg::TopHeader { family, scope: s, page } => format!("Leaderboard — {} {} (page {page}):", family_name(*family, L), scope(s)),
        RatingMsg::TopRow { rank, name, rating, games } => format!("{rank}. {name} {} ({games} games)", shown(*rating)),
        RatingMsg::TopEmpty { family, scope: s } => format!("Nobody is on the {} leaderboard {} yet. It lists players with a settled rating (deviation under 110) who played a rated {} game in the last 30 days.", family_name(*family, L), scope(s), family_name(*family, L).to_lowercase()),
        RatingMsg::TopMore { next } => format!("More: {next}"),
        RatingMsg::BadArgument { word, usage } => format!("I could not understand \"{word}\". Use: {usage}"),
        RatingMsg::StatsOf { name, stats: s } => stats(name, s),
        RatingMsg::NoStats { name } => format!("{name} has not finished a game yet."),
        RatingMsg::HeadToHead { a, b, wdl: w, a_as_red } => format!(
            "{a} vs {b}: {} game(s) — {a} {} won, {} drawn, {b} {} won. With {a} as Red: {}.",
            w.games(), w.wins, w.draws, w.losses, wdl(a_as_red)
        ),
        RatingMsg::NoHeadToHead { a, b } => format!("{a} and {b} have not finished a game against each other yet."),
        RatingMsg::UnknownPlayer { who } => format!("I do not know {who}: they have not played here yet. Mention them, or use their @username."),
        RatingMsg::Label(l) => match l {
            RatingLabel::MakeRated => "Make it rated",
            RatingLabel::MakeCasual => "Make it casual",
        }
        .into(),
    }
}
