//! The typed arguments of the commands, declared with them in the command table
//! ([`super::command`]): each argument's name, what kind of value it takes and whether it is
//! required. Discord's slash options (types, choices, limits, autocomplete) are made from them;
//! their descriptions are the catalogue's ([`crate::i18n::commands::argument_summary`]).

/// What kind of value an argument takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// A member of the chat (the opponent, whose ratings).
    User,
    /// Free text.
    Text,
    /// Free text with suggestions while typing (time controls, rule topics, legal moves).
    Suggested,
    /// One of a fixed list: (shown name, value).
    Choice(&'static [(&'static str, &'static str)]),
    /// A ruleset, shown by its name in the reader's language.
    Ruleset,
    /// A yes/no switch the platform reads itself (Discord's `thread`), not part of the
    /// command's text.
    Flag,
    /// A yes/no switch written into the command text as one of two words (on, off).
    Switch(&'static str, &'static str),
    /// A whole number from 1.
    Number,
    /// The bot's level ([`crate::app::bot::LEVELS`]): written as `bot N` (a game against the
    /// bot).
    Level,
}

/// One argument of a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arg {
    /// Its name (Discord's option name; the key of its description).
    pub name: &'static str,
    /// The value it takes.
    pub kind: ArgKind,
    /// Whether the command needs it.
    pub required: bool,
}

const fn arg(name: &'static str, kind: ArgKind, required: bool) -> Arg {
    Arg {
        name,
        kind,
        required,
    }
}

/// The notations a player may write in.
pub const NOTATIONS: &[(&str, &str)] = &[
    ("ICCS (h2e2)", "iccs"),
    ("WXF (C2.5)", "wxf"),
    ("中文 (炮二平五)", "chinese"),
    ("Tiếng Việt (P2-5)", "vietnamese"),
];

/// The languages of the catalogues.
pub const LANGUAGES: &[(&str, &str)] = &[("Tiếng Việt", "vi"), ("English", "en"), ("中文", "zh")];

/// The side a challenger asks for.
pub const COLOURS: &[(&str, &str)] = &[
    ("red — you move first", "red"),
    ("black", "black"),
    ("random", "random"),
];

/// A setting on or off.
pub const ON_OFF: &[(&str, &str)] = &[("on", "on"), ("off", "off")];

/// The rating families (time-control classes).
pub const FAMILIES: &[(&str, &str)] = &[
    ("bullet — under 3 minutes", "bullet"),
    ("blitz — 3 to 8 minutes", "blitz"),
    ("rapid — 8 to 25 minutes", "rapid"),
    ("classical — 25 minutes and more", "classical"),
    ("correspondence — hours or days a move", "correspondence"),
];

/// Where a leaderboard is drawn from.
pub const SCOPES: &[(&str, &str)] = &[("this server", "here"), ("all of Discord", "global")];

/// What `/claim` asks for.
pub const CLAIMS: &[(&str, &str)] = &[
    ("win — the game is yours", "win"),
    ("end — stop it without a result", "end"),
];

/// `/play`.
pub const PLAY: &[Arg] = &[
    arg("opponent", ArgKind::User, false),
    arg("time", ArgKind::Suggested, false),
    arg("ruleset", ArgKind::Ruleset, false),
    arg("color", ArgKind::Choice(COLOURS), false),
    arg("thread", ArgKind::Flag, false),
    arg("fen", ArgKind::Text, false),
    arg("rated", ArgKind::Switch("rated", "unrated"), false),
    arg("level", ArgKind::Level, false),
];

/// `/move`.
pub const MOVE: &[Arg] = &[arg("move", ArgKind::Suggested, true)];

/// `/claim`.
pub const CLAIM: &[Arg] = &[arg("outcome", ArgKind::Choice(CLAIMS), false)];

/// `/rules`.
pub const RULES: &[Arg] = &[arg("topic", ArgKind::Suggested, false)];

/// `/ruleset`.
pub const RULESET: &[Arg] = &[arg("name", ArgKind::Ruleset, false)];

/// `/notation`.
pub const NOTATION: &[Arg] = &[arg("name", ArgKind::Choice(NOTATIONS), false)];

/// `/lang`.
pub const LANG: &[Arg] = &[arg("language", ArgKind::Choice(LANGUAGES), false)];

/// `/takebacks`.
pub const TAKEBACKS: &[Arg] = &[arg("allow", ArgKind::Choice(ON_OFF), false)];

/// `/hints`.
pub const HINTS: &[Arg] = &[arg("allow", ArgKind::Choice(ON_OFF), false)];

/// `/board` (and `/flip`): which game, when several are played in the chat.
pub const BOARD: &[Arg] = &[arg("game", ArgKind::Text, false)];

/// `/review`.
pub const REVIEW: &[Arg] = &[arg("game", ArgKind::Text, false)];

/// `/puzzle`.
pub const PUZZLE: &[Arg] = &[
    arg("what", ArgKind::Text, false),
    arg("player", ArgKind::User, false),
];

/// What `/tournament` does.
pub const TOURNAMENT_ACTIONS: &[(&str, &str)] = &[
    ("join — enter the chat's tournament", "join"),
    ("leave — leave it (after the start: withdraw)", "leave"),
    ("standings — the table", "standings"),
    ("pairings — the games being played", "pairings"),
    ("pause — sit out until you join again", "pause"),
    ("withdraw — leave it for good", "withdraw"),
    (
        "berserk — half your clock, a point more for a win (arena)",
        "berserk",
    ),
    ("swiss — make a Swiss event (administrators)", "swiss"),
    ("arena — make an arena (administrators)", "arena"),
    ("robin — make a round robin (administrators)", "robin"),
    ("start — start it now (administrators)", "start"),
    ("cancel — call it off (administrators)", "cancel"),
];

/// `/tournament`.
pub const TOURNAMENT: &[Arg] = &[
    arg("action", ArgKind::Choice(TOURNAMENT_ACTIONS), true),
    arg("length", ArgKind::Number, false),
    arg("time", ArgKind::Suggested, false),
    arg("ruleset", ArgKind::Ruleset, false),
    arg("rated", ArgKind::Switch("rated", "casual"), false),
    arg("more", ArgKind::Text, false),
];

/// `/rating`.
pub const RATING: &[Arg] = &[
    arg("player", ArgKind::User, false),
    arg("family", ArgKind::Choice(FAMILIES), false),
];

/// `/top`.
pub const TOP: &[Arg] = &[
    arg("family", ArgKind::Choice(FAMILIES), false),
    arg("page", ArgKind::Number, false),
    arg("scope", ArgKind::Choice(SCOPES), false),
];

/// `/stats`.
pub const STATS: &[Arg] = &[
    arg("player", ArgKind::User, false),
    arg("opponent", ArgKind::User, false),
];
