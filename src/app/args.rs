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
    /// A whole number written after the argument's name (`rounds 5`, `max 16`).
    Named,
    /// What the command does, each with its own arguments (Discord's subcommands): written as
    /// the action's word, then its arguments (`swiss rounds 5 10+5`).
    Actions(&'static [(&'static str, &'static [Arg])]),
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

/// The terms of a tournament made with `/tournament swiss|arena|robin`, after its length.
const TOURNAMENT_TERMS: [Arg; 8] = [
    arg("time", ArgKind::Suggested, true),
    arg("ruleset", ArgKind::Ruleset, false),
    arg("rated", ArgKind::Switch("rated", "unrated"), false),
    arg("max", ArgKind::Named, false),
    arg("min", ArgKind::Named, false),
    arg("in", ArgKind::Named, false),
    arg("venue", ArgKind::Choice(VENUES), false),
    arg("every", ArgKind::Named, false),
];

/// Where a tournament's games are played: each in a thread (a Telegram forum's topic) of its
/// own, where the bot may open one, or side by side in the chat.
pub const VENUES: &[(&str, &str)] = &[("thread / topic", "thread"), ("chat", "chat")];

/// The terms with `length` (the rounds, minutes or double) after the clock: Discord wants
/// the required options first.
const fn with_terms(length: Arg) -> [Arg; 9] {
    let t = TOURNAMENT_TERMS;
    [t[0], length, t[1], t[2], t[3], t[4], t[5], t[6], t[7]]
}

const SWISS: &[Arg] = &with_terms(arg("rounds", ArgKind::Named, false));
const ARENA: &[Arg] = &{
    let t = TOURNAMENT_TERMS;
    // An arena's rounds have no set times.
    [
        t[0],
        arg("minutes", ArgKind::Named, false),
        t[1],
        t[2],
        t[3],
        t[4],
        t[5],
        t[6],
    ]
};
const ROBIN: &[Arg] = &with_terms(arg("double", ArgKind::Switch("double", ""), false));

/// What `/tournament` does, each with its arguments: the words the command reads first.
pub const TOURNAMENT_ACTIONS: &[(&str, &[Arg])] = &[
    ("join", &[]),
    ("leave", &[]),
    ("standings", &[]),
    ("pairings", &[]),
    ("pause", &[]),
    ("withdraw", &[]),
    ("berserk", &[]),
    ("swiss", SWISS),
    ("arena", ARENA),
    ("robin", ROBIN),
    ("start", &[]),
    ("cancel", &[]),
];

/// `/tournament`.
pub const TOURNAMENT: &[Arg] = &[arg("action", ArgKind::Actions(TOURNAMENT_ACTIONS), false)];

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
