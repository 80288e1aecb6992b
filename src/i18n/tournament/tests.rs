use super::*;

fn samples() -> Vec<TourMsg> {
    let s = |x: &str| x.to_string();
    vec![
        TourMsg::Created {
            id: 3,
            format: s("Swiss, 5 rounds"),
            terms: s("10+5"),
            organiser: s("an"),
            starts: None,
        },
        TourMsg::Created {
            id: 3,
            format: s("arena"),
            terms: s("3+2"),
            organiser: s("an"),
            starts: Some(s("in 30 min")),
        },
        TourMsg::Joined {
            name: s("bo"),
            id: 3,
            players: s("an, bo"),
            count: 2,
        },
        TourMsg::Left {
            name: s("bo"),
            id: 3,
            count: 1,
        },
        TourMsg::Paused { name: s("bo") },
        TourMsg::Withdrawn { name: s("bo") },
        TourMsg::NoPauseInRobin,
        TourMsg::AlreadyIn,
        TourMsg::NotIn,
        TourMsg::Full { max: 8 },
        TourMsg::RatingTooLow {
            need: 1600,
            have: 1500,
        },
        TourMsg::FinishYourGame { game: 4 },
        TourMsg::EntriesClosed,
        TourMsg::NoTournament,
        TourMsg::AlreadyOne { id: 3 },
        TourMsg::NotInPrivate,
        TourMsg::OrganisersOnly { discord: true },
        TourMsg::OrganisersOnly { discord: false },
        TourMsg::NeedsClock,
        TourMsg::BadWord { word: s("zz") },
        TourMsg::TooFew { need: 2 },
        TourMsg::OutOfRange {
            what: s("rounds"),
            min: 1,
            max: 30,
        },
        TourMsg::AlreadyStarted,
        TourMsg::Started {
            id: 3,
            format: s("arena"),
            count: 4,
            ends: Some(s("in 60 min")),
        },
        TourMsg::Started {
            id: 3,
            format: s("Swiss"),
            count: 4,
            ends: None,
        },
        TourMsg::Round {
            id: 3,
            round: 2,
            of: 5,
            lines: s("a\nb"),
        },
        TourMsg::PairingLine {
            game: 12,
            red: s("an"),
            black: s("bo"),
        },
        TourMsg::ResultLine {
            red: s("an"),
            score: s("1-0"),
            black: s("bo"),
        },
        TourMsg::ByeLine {
            name: s("an"),
            point: true,
        },
        TourMsg::ByeLine {
            name: s("an"),
            point: false,
        },
        TourMsg::GameOf {
            id: 3,
            round: Some(2),
        },
        TourMsg::GameOf { id: 3, round: None },
        TourMsg::VenueName {
            id: 3,
            round: Some(2),
            red: s("an"),
            black: s("bo"),
        },
        TourMsg::VenueName {
            id: 3,
            round: None,
            red: s("an"),
            black: s("bo"),
        },
        TourMsg::PlayedIn {
            game: 12,
            red: s("an"),
            black: s("bo"),
            link: s("<#99>"),
        },
        TourMsg::BoardsOnAsk { games: 8 },
        TourMsg::NextRound {
            id: 3,
            round: 2,
            when: s("in 5 min"),
        },
        TourMsg::ArenaTop {
            id: 3,
            top: s("an 6 🔥 · bo 2"),
        },
        TourMsg::TimeUp { id: 3, playing: 0 },
        TourMsg::TimeUp { id: 3, playing: 2 },
        TourMsg::Over {
            id: 3,
            winner: s("an"),
            podium: s("🥇 an, 🥈 bo"),
            table: s("1. an"),
        },
        TourMsg::Cancelled { id: 3, ended: 0 },
        TourMsg::Cancelled { id: 3, ended: 1 },
        TourMsg::Cancelled { id: 3, ended: 2 },
        TourMsg::CalledOffTooFew { id: 3 },
        TourMsg::Standings {
            id: 3,
            status: s("round 2"),
            table: s("1. an"),
        },
        TourMsg::RoundsRow {
            rank: 1,
            name: s("an"),
            points: s("2½"),
            buchholz: s("4"),
            sb: s("3"),
            away: false,
        },
        TourMsg::RoundsRow {
            rank: 2,
            name: s("bo"),
            points: s("1"),
            buchholz: s("4"),
            sb: s("1"),
            away: true,
        },
        TourMsg::ArenaRow {
            rank: 1,
            name: s("an"),
            points: 12,
            games: 5,
            fire: true,
            away: false,
        },
        TourMsg::ArenaRow {
            rank: 2,
            name: s("bo"),
            points: 2,
            games: 5,
            fire: false,
            away: true,
        },
        TourMsg::NoPlayers,
        TourMsg::Pairings {
            id: 3,
            lines: s("a"),
        },
        TourMsg::NoGamesNow,
        TourMsg::Berserk { name: s("an") },
        TourMsg::NoBerserk,
        TourMsg::NoAbort,
        TourMsg::InTournament {
            name: s("an"),
            id: 3,
        },
        TourMsg::Usage,
        TourMsg::Summary {
            id: 3,
            format: s("arena"),
            terms: s("3+2"),
            stage: s("x"),
            count: 4,
        },
        TourMsg::StageEntry,
        TourMsg::StageRunning {
            round: 2,
            of: 5,
            left: None,
        },
        TourMsg::StageRunning {
            round: 0,
            of: 0,
            left: Some(s("20 min")),
        },
        TourMsg::StageEnding,
        TourMsg::StageFinished,
        TourMsg::StageCancelled,
        TourMsg::Rated,
        TourMsg::Casual,
        TourMsg::OwnVenues,
        TourMsg::MaxPlayers { max: 8 },
        TourMsg::MinRating { min: 1500 },
        TourMsg::Page { page: 1, pages: 3 },
        TourMsg::FirstMoveRule { minutes: 2 },
        TourMsg::Label(TourLabel::Join),
        TourMsg::Label(TourLabel::Leave),
    ]
}

/// Every variant has a sample (the compiler asks for a new one here).
fn covered(m: &TourMsg) -> bool {
    match m {
        TourMsg::Created { .. }
        | TourMsg::Joined { .. }
        | TourMsg::Left { .. }
        | TourMsg::Paused { .. }
        | TourMsg::Withdrawn { .. }
        | TourMsg::NoPauseInRobin
        | TourMsg::AlreadyIn
        | TourMsg::NotIn
        | TourMsg::Full { .. }
        | TourMsg::RatingTooLow { .. }
        | TourMsg::FinishYourGame { .. }
        | TourMsg::EntriesClosed
        | TourMsg::NoTournament
        | TourMsg::AlreadyOne { .. }
        | TourMsg::NotInPrivate
        | TourMsg::OrganisersOnly { .. }
        | TourMsg::NeedsClock
        | TourMsg::BadWord { .. }
        | TourMsg::TooFew { .. }
        | TourMsg::OutOfRange { .. }
        | TourMsg::AlreadyStarted
        | TourMsg::Started { .. }
        | TourMsg::Round { .. }
        | TourMsg::PairingLine { .. }
        | TourMsg::ResultLine { .. }
        | TourMsg::ByeLine { .. }
        | TourMsg::GameOf { .. }
        | TourMsg::TimeUp { .. }
        | TourMsg::NextRound { .. }
        | TourMsg::BoardsOnAsk { .. }
        | TourMsg::VenueName { .. }
        | TourMsg::PlayedIn { .. }
        | TourMsg::ArenaTop { .. }
        | TourMsg::Over { .. }
        | TourMsg::Cancelled { .. }
        | TourMsg::CalledOffTooFew { .. }
        | TourMsg::Standings { .. }
        | TourMsg::RoundsRow { .. }
        | TourMsg::ArenaRow { .. }
        | TourMsg::NoPlayers
        | TourMsg::Pairings { .. }
        | TourMsg::NoGamesNow
        | TourMsg::Berserk { .. }
        | TourMsg::NoBerserk
        | TourMsg::NoAbort
        | TourMsg::InTournament { .. }
        | TourMsg::Usage
        | TourMsg::Summary { .. }
        | TourMsg::StageEntry
        | TourMsg::StageRunning { .. }
        | TourMsg::StageEnding
        | TourMsg::StageFinished
        | TourMsg::StageCancelled
        | TourMsg::Rated
        | TourMsg::Casual
        | TourMsg::OwnVenues
        | TourMsg::MaxPlayers { .. }
        | TourMsg::MinRating { .. }
        | TourMsg::Page { .. }
        | TourMsg::FirstMoveRule { .. }
        | TourMsg::Label(_) => true,
    }
}

#[test]
fn every_message_in_every_language() {
    for m in samples() {
        assert!(covered(&m));
        let texts: Vec<String> = Lang::ALL.iter().map(|&l| text(&m, l)).collect();
        for (t, l) in texts.iter().zip(Lang::ALL) {
            assert!(!t.trim().is_empty(), "{m:?} in {l}");
            assert!(
                crate::i18n::lint::repeated_glosses(t).is_empty(),
                "{m:?} in {l}: {t}"
            );
        }
        // The languages differ, except for lines made only of names and numbers.
        if !matches!(m, TourMsg::ResultLine { .. }) {
            assert_ne!(texts[0], texts[1], "{m:?}");
            assert_ne!(texts[1], texts[2], "{m:?}");
        }
        crate::i18n::lint::assert_zh_punctuation(&text(&m, Lang::Zh), &format!("{m:?}"));
    }
}

#[test]
fn formats_and_points_are_written_for_players() {
    assert_eq!(
        format_text(Format::Swiss { rounds: 5 }, Lang::En),
        "Swiss, 5 rounds"
    );
    assert_eq!(
        format_text(Format::Robin { double: true }, Lang::Zh),
        "双循环"
    );
    assert_eq!(points(5), "2½");
    assert_eq!(points(1), "½");
    assert_eq!(points(4), "2");
    assert_eq!(points(0), "0");
}

/// The standings picture's words are short and drawn by the embedded font (no hollow boxes).
#[test]
fn column_headers_are_short_and_drawable() {
    for c in Column::ALL {
        for lang in Lang::ALL {
            let h = column_header(c, lang);
            assert!(
                !h.is_empty() && h.chars().count() <= 14,
                "{c:?} in {lang}: {h}"
            );
            assert!(
                crate::render::table::drawable(h),
                "{c:?} in {lang}: {h} has a character the font lacks"
            );
        }
    }
    assert_eq!(decimal_points(7, Lang::En), "3.5");
    assert_eq!(decimal_points(7, Lang::Vi), "3,5");
    assert_eq!(decimal_points(8, Lang::Zh), "4");
}
