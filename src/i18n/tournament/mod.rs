//! Messages about tournaments, in Vietnamese, English and Chinese. Kept apart from the game
//! messages ([`super::app`]); each language is a `match` in its own file, so a missing message
//! is a compile error.

mod en;
mod vi;
mod zh;

use super::Lang;
use crate::game::tournament::Format;

/// A button of a tournament's entry list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TourLabel {
    /// Join it.
    Join,
    /// Leave it.
    Leave,
}

/// A message about a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TourMsg {
    /// A tournament was created: its entry list opens.
    Created {
        /// Its number.
        id: u64,
        /// Its format, described ([`format_text`]).
        format: String,
        /// Clock, rules, rated or casual, limits, described.
        terms: String,
        /// Who created it.
        organiser: String,
        /// When it starts by itself, if it does ("in 30 min").
        starts: Option<String>,
    },
    /// Someone joined (or came back from a pause).
    Joined {
        /// Who.
        name: String,
        /// Its number.
        id: u64,
        /// The players now, named.
        players: String,
        /// How many.
        count: usize,
    },
    /// Someone left before the start.
    Left {
        /// Who.
        name: String,
        /// Its number.
        id: u64,
        /// How many remain.
        count: usize,
    },
    /// Someone takes a break (not paired until they join again).
    Paused {
        /// Who.
        name: String,
    },
    /// Someone withdrew for good (their results stand).
    Withdrawn {
        /// Who.
        name: String,
    },
    /// A round robin's players cannot pause (its schedule is fixed); they may withdraw.
    NoPauseInRobin,
    /// The asker is in it already.
    AlreadyIn,
    /// The asker is not in it.
    NotIn,
    /// It is full.
    Full {
        /// The most players.
        max: usize,
    },
    /// The asker's rating is below its minimum.
    RatingTooLow {
        /// The minimum.
        need: i64,
        /// Theirs.
        have: i64,
    },
    /// The asker is playing a game here: they finish it first.
    FinishYourGame {
        /// Its number.
        game: u64,
    },
    /// It takes no more entries (a round robin that started, or one that is over).
    EntriesClosed,
    /// There is no tournament in this chat.
    NoTournament,
    /// This chat already holds a tournament.
    AlreadyOne {
        /// Its number.
        id: u64,
    },
    /// Tournaments are held in groups and servers, not in private chats.
    NotInPrivate,
    /// Only those who run the chat make, start and call off its tournaments (a Discord
    /// server's managers, a Telegram group's administrators).
    OrganisersOnly {
        /// On Discord (the server's managers), else a group's administrators.
        discord: bool,
    },
    /// A tournament needs a clock.
    NeedsClock,
    /// A word of `/tournament` that is not understood.
    BadWord {
        /// The word.
        word: String,
    },
    /// Too few players to start.
    TooFew {
        /// At least.
        need: usize,
    },
    /// A number out of its range (rounds, minutes, players).
    OutOfRange {
        /// The word it went with.
        what: String,
        /// The lowest.
        min: u64,
        /// The highest.
        max: u64,
    },
    /// It cannot be started: it is under way or over.
    AlreadyStarted,
    /// It started.
    Started {
        /// Its number.
        id: u64,
        /// Its format, described.
        format: String,
        /// Players.
        count: usize,
        /// Arena: when it ends ("in 60 min").
        ends: Option<String>,
    },
    /// A round's pairings.
    Round {
        /// Its number.
        id: u64,
        /// The round.
        round: u32,
        /// Of how many.
        of: u32,
        /// One line per game (and the bye).
        lines: String,
    },
    /// A pairing line: `#12 alice – bob`.
    PairingLine {
        /// The game.
        game: u64,
        /// Red.
        red: String,
        /// Black.
        black: String,
    },
    /// A finished pairing line: `alice 1–0 bob`.
    ResultLine {
        /// Red.
        red: String,
        /// The score, `1-0`, `½-½`, `0-1`.
        score: String,
        /// Black.
        black: String,
    },
    /// A bye line (a point in a Swiss event, nothing in a round robin).
    ByeLine {
        /// Who.
        name: String,
        /// Whether it scores a point.
        point: bool,
    },
    /// The first line of a board of a tournament game.
    GameOf {
        /// The tournament.
        id: u64,
        /// Its round, if it has rounds.
        round: Option<u32>,
    },
    /// The name of a game's own venue (a Discord thread, a Telegram forum topic).
    VenueName {
        /// The tournament.
        id: u64,
        /// Its round, if it has rounds.
        round: Option<u32>,
        /// Red.
        red: String,
        /// Black.
        black: String,
    },
    /// The tournament chat is told where a game is played (its venue was opened).
    PlayedIn {
        /// The game.
        game: u64,
        /// Red.
        red: String,
        /// Black.
        black: String,
        /// The venue, as the platform links to it.
        link: String,
    },
    /// Many games began at once: their boards come with their first moves.
    BoardsOnAsk {
        /// How many.
        games: usize,
    },
    /// The next round waits for its time.
    NextRound {
        /// Its number.
        id: u64,
        /// The round.
        round: u32,
        /// When ("in 12 min").
        when: String,
    },
    /// An arena's top players, after a game.
    ArenaTop {
        /// Its number.
        id: u64,
        /// Names and points (`ann 6 🔥 · ben 2`).
        top: String,
    },
    /// An arena's time is up.
    TimeUp {
        /// Its number.
        id: u64,
        /// Games still being played.
        playing: usize,
    },
    /// It is over: the winner and the final table.
    Over {
        /// Its number.
        id: u64,
        /// The winner's name (several, joined, on a shared first place).
        winner: String,
        /// The first three with their medals.
        podium: String,
        /// The table.
        table: String,
    },
    /// It was called off.
    Cancelled {
        /// Its number.
        id: u64,
        /// Its games that were being played, ended without a result.
        ended: usize,
    },
    /// It was called off at its start time: too few players.
    CalledOffTooFew {
        /// Its number.
        id: u64,
    },
    /// The standings.
    Standings {
        /// Its number.
        id: u64,
        /// Format and where it stands ("Swiss, round 2 of 5").
        status: String,
        /// The table.
        table: String,
    },
    /// A Swiss or round-robin table row.
    RoundsRow {
        /// Place.
        rank: usize,
        /// Who.
        name: String,
        /// Points, written (`2½`).
        points: String,
        /// Buchholz, written.
        buchholz: String,
        /// Sonneborn–Berger, written.
        sb: String,
        /// Whether they withdrew or pause.
        away: bool,
    },
    /// An arena table row.
    ArenaRow {
        /// Place.
        rank: usize,
        /// Who.
        name: String,
        /// Points.
        points: u32,
        /// Games played.
        games: u32,
        /// On a winning streak (the next win counts double).
        fire: bool,
        /// Whether they withdrew or pause.
        away: bool,
    },
    /// Nobody has joined yet.
    NoPlayers,
    /// The games being played.
    Pairings {
        /// Its number.
        id: u64,
        /// One line per game.
        lines: String,
    },
    /// No game of it is being played now.
    NoGamesNow,
    /// A player went berserk: half their time, one more point for a win.
    Berserk {
        /// Who.
        name: String,
    },
    /// Berserk is for arena games, before one's first move.
    NoBerserk,
    /// A tournament game is not aborted; resigning ends it.
    NoAbort,
    /// A player of the chat's tournament does not start other games here.
    InTournament {
        /// Who.
        name: String,
        /// Its number.
        id: u64,
    },
    /// `/tournament` with nothing after it, and no tournament: how to make one.
    Usage,
    /// `/tournament` with nothing after it: where it stands.
    Summary {
        /// Its number.
        id: u64,
        /// Its format, described.
        format: String,
        /// Clock, rules, rated or casual.
        terms: String,
        /// Where it stands, described.
        stage: String,
        /// Players.
        count: usize,
    },
    /// Where it stands: taking entries.
    StageEntry,
    /// Where it stands: round `round` of `of` (or, in an arena, the minutes left).
    StageRunning {
        /// The round (0 in an arena).
        round: u32,
        /// Of how many (0 in an arena).
        of: u32,
        /// An arena's time left.
        left: Option<String>,
    },
    /// Where it stands: an arena whose time is up, games finishing.
    StageEnding,
    /// Where it stands: over.
    StageFinished,
    /// Where it stands: called off.
    StageCancelled,
    /// Terms: rated.
    Rated,
    /// Terms: casual.
    Casual,
    /// Terms: each game in a venue of its own (a thread, a forum topic) where the bot may
    /// open one.
    OwnVenues,
    /// Terms: at most `max` players.
    MaxPlayers {
        /// The most.
        max: usize,
    },
    /// Terms: a minimum rating.
    MinRating {
        /// The minimum.
        min: i64,
    },
    /// What a tournament game's players are told of their first move.
    FirstMoveRule {
        /// Minutes each side has for it.
        minutes: u64,
    },
    /// A page of the standings, and how to see the next.
    Page {
        /// This page, from 1.
        page: usize,
        /// Pages in all.
        pages: usize,
    },
    /// A button's label.
    Label(TourLabel),
}

/// A column of the standings picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    /// The rank.
    Rank,
    /// The player's name.
    Player,
    /// Their rating when they joined.
    Rating,
    /// Their score.
    Points,
    /// Games played.
    Games,
    /// Games won.
    Wins,
    /// Buchholz.
    Buchholz,
    /// Median Buchholz.
    Median,
    /// Sonneborn–Berger.
    Sb,
}

impl Column {
    /// Every column.
    pub const ALL: [Column; 9] = [
        Column::Rank,
        Column::Player,
        Column::Rating,
        Column::Points,
        Column::Games,
        Column::Wins,
        Column::Buchholz,
        Column::Median,
        Column::Sb,
    ];
}

/// A column's header in `lang` (short: a table's columns are narrow).
#[must_use]
pub fn column_header(c: Column, lang: Lang) -> &'static str {
    match (c, lang) {
        (Column::Rank, _) => "#",
        (Column::Player, Lang::En) => "Player",
        (Column::Player, Lang::Vi) => "Kỳ thủ",
        (Column::Player, Lang::Zh) => "棋手",
        (Column::Rating, Lang::En) => "Rating",
        // Vietnamese players call a rating Elo whatever system counts it.
        (Column::Rating, Lang::Vi) => "Elo",
        (Column::Rating, Lang::Zh) => "等级分",
        (Column::Points, Lang::En) => "Points",
        (Column::Points, Lang::Vi) => "Điểm",
        (Column::Points, Lang::Zh) => "积分",
        (Column::Games, Lang::En) => "Games",
        (Column::Games, Lang::Vi) => "Ván",
        (Column::Games, Lang::Zh) => "局数",
        (Column::Wins, Lang::En) => "Wins",
        (Column::Wins, Lang::Vi) => "Thắng",
        (Column::Wins, Lang::Zh) => "胜局",
        (Column::Buchholz, Lang::En | Lang::Vi) => "Buchholz",
        (Column::Buchholz, Lang::Zh) => "对手分",
        (Column::Median, Lang::En) => "Median",
        (Column::Median, Lang::Vi) => "Buchholz giữa",
        (Column::Median, Lang::Zh) => "中位对手分",
        (Column::Sb, Lang::En | Lang::Vi) => "SB",
        (Column::Sb, Lang::Zh) => "索伯分",
    }
}

/// Half-points as a decimal number for a table's narrow column: `3.5` (`3,5` in Vietnamese).
#[must_use]
pub fn decimal_points(halves: u32, lang: Lang) -> String {
    let point = if lang == Lang::Vi { ',' } else { '.' };
    match halves % 2 {
        1 => format!("{}{point}5", halves / 2),
        _ => (halves / 2).to_string(),
    }
}

/// `m` in `lang`.
#[must_use]
pub fn text(m: &TourMsg, lang: Lang) -> String {
    match lang {
        Lang::Vi => vi::text(m),
        Lang::En => en::text(m),
        Lang::Zh => zh::text(m),
    }
}

/// A format described in `lang`: "Swiss, 5 rounds", "arena, 60 min", "round robin".
#[must_use]
pub fn format_text(f: Format, lang: Lang) -> String {
    match (f, lang) {
        (Format::Swiss { rounds }, Lang::En) => format!("Swiss, {rounds} rounds"),
        (Format::Swiss { rounds }, Lang::Vi) => format!("hệ Thụy Sĩ, {rounds} vòng"),
        (Format::Swiss { rounds }, Lang::Zh) => format!("积分编排制，{rounds}轮"),
        (Format::Arena { minutes }, Lang::En) => format!("arena, {minutes} min"),
        (Format::Arena { minutes }, Lang::Vi) => format!("đấu trường, {minutes} phút"),
        (Format::Arena { minutes }, Lang::Zh) => format!("竞技场，{minutes}分钟"),
        (Format::Robin { double: false }, Lang::En) => "round robin".into(),
        (Format::Robin { double: true }, Lang::En) => "double round robin".into(),
        (Format::Robin { double: false }, Lang::Vi) => "vòng tròn một lượt".into(),
        (Format::Robin { double: true }, Lang::Vi) => "vòng tròn hai lượt".into(),
        (Format::Robin { double: false }, Lang::Zh) => "单循环".into(),
        (Format::Robin { double: true }, Lang::Zh) => "双循环".into(),
    }
}

/// Half-points written as points: `2½`, `3`, `½`.
#[must_use]
pub fn points(halves: u32) -> String {
    match (halves / 2, halves % 2) {
        (0, 1) => "½".into(),
        (p, 1) => format!("{p}½"),
        (p, _) => p.to_string(),
    }
}

#[cfg(test)]
mod tests;
