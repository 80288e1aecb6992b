//! English.

use super::{TourLabel, TourMsg};

pub(super) fn text(m: &TourMsg) -> String {
    match m {
        TourMsg::Created { id, format, terms, organiser, starts } => {
            let when = match starts {
                Some(s) => format!("It starts {s}."),
                None => format!("{organiser} starts it with /tournament start."),
            };
            format!("🏆 Tournament #{id}: {format}; {terms}. Organised by {organiser}. Join with the button or /tournament join. {when}")
        }
        TourMsg::Joined { name, id, players, count } => format!("{name} joins tournament #{id}. Players ({count}): {players}."),
        TourMsg::Left { name, id, count } => format!("{name} leaves tournament #{id} ({count} players left)."),
        TourMsg::Paused { name } => format!("{name} takes a break and will not be paired until they /tournament join again."),
        TourMsg::Withdrawn { name } => format!("{name} withdraws from the tournament; their results so far stand."),
        TourMsg::NoPauseInRobin => "A round robin's schedule is fixed, so its players cannot pause; /tournament withdraw leaves it for good.".into(),
        TourMsg::AlreadyIn => "You are in this tournament already.".into(),
        TourMsg::NotIn => "You are not in this tournament.".into(),
        TourMsg::Full { max } => format!("This tournament is full ({max} players)."),
        TourMsg::RatingTooLow { need, have } => format!("This tournament is for ratings of {need} and above; yours is {have}."),
        TourMsg::FinishYourGame { game } => format!("Finish your game #{game} here first, then join."),
        TourMsg::EntriesClosed => "This tournament takes no more entries.".into(),
        TourMsg::NoTournament => "There is no tournament in this chat. An administrator makes one with /tournament swiss, /tournament arena or /tournament robin.".into(),
        TourMsg::AlreadyOne { id } => format!("This chat already holds tournament #{id}; one runs at a time. /tournament cancel calls it off."),
        TourMsg::OrganisersOnly { discord: true } => "Only members who can manage this server make, start and call off its tournaments; anyone may join one.".into(),
        TourMsg::OrganisersOnly { discord: false } => "Only this group's administrators make, start and call off its tournaments; anyone may join one.".into(),
        TourMsg::NotInPrivate => "Tournaments are held in groups and servers, not in private chats.".into(),
        TourMsg::NeedsClock => "A tournament needs a clock: add a time such as 5+3 or 10+5.".into(),
        TourMsg::BadWord { word } => format!("I do not understand “{word}” in /tournament. Use: /tournament swiss|arena|robin [rounds N | minutes M] [time such as 5+3] [ruleset] [rated] [max N] [min RATING] [in MINUTES], or /tournament join|leave|start|pause|withdraw|berserk|cancel|standings|pairings."),
        TourMsg::TooFew { need } => format!("At least {need} players are needed to start."),
        TourMsg::OutOfRange { what, min, max } => format!("{what} must be from {min} to {max}."),
        TourMsg::AlreadyStarted => "This tournament has started already.".into(),
        TourMsg::Started { id, format, count, ends } => {
            let end = ends.as_ref().map_or_else(String::new, |e| format!(" It ends {e}."));
            format!("🏆 Tournament #{id} begins: {format}, {count} players.{end}")
        }
        TourMsg::Round { id, round, of, lines } => format!("Tournament #{id}, round {round} of {of}:\n{lines}"),
        TourMsg::PairingLine { game, red, black } => format!("Game #{game}: {red} (Red) – {black} (Black)"),
        TourMsg::ResultLine { red, score, black } => format!("{red} {score} {black}"),
        TourMsg::ByeLine { name, point: true } => format!("{name}: a bye (1 point)"),
        TourMsg::ByeLine { name, point: false } => format!("{name} sits this round out"),
        TourMsg::GameOf { id, round: Some(r) } => format!("Tournament #{id}, round {r}"),
        TourMsg::GameOf { id, round: None } => format!("Tournament #{id}"),
        TourMsg::VenueName { round: Some(r), red, black, .. } => format!("Round {r}: {red} – {black}"),
        TourMsg::VenueName { id, round: None, red, black } => format!("Tournament #{id}: {red} – {black}"),
        TourMsg::PlayedIn { game, red, black, link } => format!("Game #{game}, {red} – {black}, is played in {link}"),
        TourMsg::BoardsOnAsk { games } => format!("{games} games begin. Red plays first: type your move (or /board to see yours); the clocks are running."),
        TourMsg::NextRound { id, round, when } => format!("Tournament #{id}: round {round} starts {when}."),
        TourMsg::ArenaTop { id, top } => format!("Tournament #{id}: {top}"),
        TourMsg::TimeUp { id, playing: 0 } => format!("Tournament #{id}: time is up."),
        TourMsg::TimeUp { id, playing } => format!("Tournament #{id}: time is up. Nobody is paired again; the {playing} games being played still count."),
        TourMsg::Over { id, winner, podium, table } => format!("🏆 Tournament #{id} is over: {winner} wins. Congratulations to {podium}!\n{table}"),
        TourMsg::Cancelled { id, ended: 0 } => format!("Tournament #{id} is called off."),
        TourMsg::Cancelled { id, ended: 1 } => format!("Tournament #{id} is called off; its game being played ends without a result and is not rated."),
        TourMsg::Cancelled { id, ended } => format!("Tournament #{id} is called off; the {ended} games being played end without a result and are not rated."),
        TourMsg::CalledOffTooFew { id } => format!("Tournament #{id} is called off: fewer than two players had joined by its start."),
        TourMsg::Standings { id, status, table } => format!("Tournament #{id} ({status}):\n{table}"),
        TourMsg::RoundsRow { rank, name, points, buchholz, sb, away } => {
            let away = if *away { " (out)" } else { "" };
            format!("{rank}. {name}{away}: {points} · Buchholz {buchholz} · SB {sb}")
        }
        TourMsg::ArenaRow { rank, name, points, games, fire, away } => {
            let fire = if *fire { " 🔥" } else { "" };
            let away = if *away { " (out)" } else { "" };
            format!("{rank}. {name}{away}: {points}{fire} · {games} games")
        }
        TourMsg::NoPlayers => "Nobody has joined yet.".into(),
        TourMsg::Pairings { id, lines } => format!("Tournament #{id}, games being played:\n{lines}"),
        TourMsg::NoGamesNow => "No game of the tournament is being played now.".into(),
        TourMsg::Berserk { name } => format!("{name} goes berserk: half the time on their clock, and a win is worth one point more."),
        TourMsg::NoBerserk => "Berserk is for your arena game, before your first move.".into(),
        TourMsg::NoAbort => "A tournament game cannot be aborted; /resign ends it.".into(),
        TourMsg::InTournament { name, id } => format!("{name} plays in tournament #{id} here, whose games are paired by the tournament. Other games can be played in another chat."),
        TourMsg::Usage => "No tournament is being held here. An administrator makes one: /tournament swiss rounds 5 10+5, /tournament arena minutes 60 3+2, or /tournament robin 15+10. Then players /tournament join.".into(),
        TourMsg::Summary { id, format, terms, stage, count } => format!("Tournament #{id}: {format}; {terms}. {stage}. Players: {count}. /tournament standings shows the table."),
        TourMsg::StageEntry => "Taking entries".into(),
        TourMsg::StageRunning { left: Some(left), .. } => format!("Being played, {left} left"),
        TourMsg::StageRunning { round, of, left: None } => format!("Round {round} of {of}"),
        TourMsg::StageEnding => "Time is up; the last games are being played".into(),
        TourMsg::StageFinished => "Over".into(),
        TourMsg::StageCancelled => "Called off".into(),
        TourMsg::Rated => "rated".into(),
        TourMsg::Casual => "casual".into(),
        TourMsg::OwnVenues => "each game in a thread (topic) of its own, where the bot may open one".into(),
        TourMsg::MaxPlayers { max } => format!("at most {max} players"),
        TourMsg::MinRating { min } => format!("rating {min} and above"),
        TourMsg::FirstMoveRule { minutes } => format!("Each side has {minutes} min to make its first move, or loses the game."),
        TourMsg::Page { page, pages } => format!("Page {page} of {pages}; /tournament standings {} shows the next.", page + 1),
        TourMsg::Label(TourLabel::Join) => "Join".into(),
        TourMsg::Label(TourLabel::Leave) => "Leave".into(),
    }
}
