//! Reading a chat line: a command with its arguments, or a bare text (maybe a move).

/// Longest message the service reads, in characters.
pub const MAX_TEXT: usize = 500;

/// Declares the commands, each once: its variant, its doc, its name and, when not anyone's,
/// who may run it. From this come [`Cmd`], [`Cmd::ALL`] (parsing, `/help`, Telegram's menus,
/// Discord's definitions, the summaries' test), [`Cmd::name`] and [`Cmd::access`]; the router's `match` and Discord's option table are exhaustive,
/// so the compiler asks for a route and its options when a command is added here. Texts are
/// the catalogues' (`i18n::commands` by the name, `i18n::app` for answers).
macro_rules! commands {
    ($( $(#[$doc:meta])* $variant:ident => $name:literal $(, $access:ident)?; )+) => {
        /// A command word the service knows.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Cmd {
            $( $(#[$doc])* $variant, )+
        }

        impl Cmd {
            /// Every command, with its name, in the order menus show them.
            pub const ALL: [(Cmd, &'static str); [$($name),+].len()] = [$( (Cmd::$variant, $name), )+];

            /// The command's name (without the slash).
            #[must_use]
            pub const fn name(self) -> &'static str {
                match self {
                    $( Cmd::$variant => $name, )+
                }
            }

            /// Who may run it: anyone, unless the table says otherwise ([`Access`]).
            #[must_use]
            pub const fn access(self) -> Access {
                match self {
                    $( Cmd::$variant => commands!(@access $($access)?), )+
                }
            }
        }
    };
    (@access) => { Access::Anyone };
    (@access $access:ident) => { Access::$access };
}

/// Who may run a command, as the command table says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Anyone in the channel.
    Anyone,
    /// With arguments it changes the channel's settings (`/hints on`, `/lang vi`): the
    /// channel's administrators only; without, anyone (it shows the setting).
    SettingWithArgs,
    /// `/puzzle daily …` changes the channel's settings; the rest of `/puzzle` is anyone's.
    SettingWhenDaily,
}

commands! {
    /// `/play`.
    Play => "play";
    /// `/accept`.
    Accept => "accept";
    /// `/decline`.
    Decline => "decline";
    /// `/cancel`.
    Cancel => "cancel";
    /// `/move`.
    Move => "move";
    /// `/resign`.
    Resign => "resign";
    /// `/draw`.
    Draw => "draw";
    /// `/takeback`.
    Takeback => "takeback";
    /// `/abort`.
    Abort => "abort";
    /// `/claim`: an untimed game whose player to move stopped moving.
    Claim => "claim";
    /// `/board`.
    Board => "board";
    /// `/flip`.
    Flip => "flip";
    /// `/moves`.
    Moves => "moves";
    /// `/fen`.
    Fen => "fen";
    /// `/pgn`.
    Pgn => "pgn";
    /// `/gif`.
    Gif => "gif";
    /// `/why`.
    Why => "why";
    /// `/rules`.
    Rules => "rules";
    /// `/ruleset`.
    Ruleset => "ruleset", SettingWithArgs;
    /// `/notation`.
    Notation => "notation";
    /// `/lang`.
    Lang => "lang", SettingWithArgs;
    /// `/takebacks`.
    Takebacks => "takebacks", SettingWithArgs;
    /// `/time`.
    Time => "time";
    /// `/games`.
    Games => "games";
    /// `/rating`.
    Rating => "rating";
    /// `/top`.
    Top => "top";
    /// `/stats`.
    Stats => "stats";
    /// `/help` (also `/start`, which Telegram sends first).
    Help => "help";
    /// `/about`: the version, the rule documents the arbiter follows, where the source is.
    About => "about";
    /// `/hint`: the engine's best move for the player to move.
    Hint => "hint";
    /// `/hints on|off`: hints in games between people here.
    Hints => "hints", SettingWithArgs;
    /// `/review [N]`: the engine's review of a finished game.
    Review => "review";
    /// `/puzzle [theme|difficulty|next|hint|solution|stats|daily]`.
    Puzzle => "puzzle", SettingWhenDaily;
}

/// What a line says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A known command and its argument text (trimmed).
    Command(Cmd, String),
    /// A slash word the service does not know (bounded).
    Unknown(String),
    /// Plain text.
    Text(String),
}

impl Line {
    /// Whether the line may change the channel's settings (`/hints on`, `/lang vi`,
    /// `/ruleset asian`, `/takebacks off`, `/puzzle daily on`): an adapter asks the platform
    /// who the sender is (a Telegram group's administrators) only for these.
    #[must_use]
    pub fn configures(&self) -> bool {
        let Line::Command(cmd, args) = self else {
            return false;
        };
        match cmd.access() {
            Access::Anyone => false,
            Access::SettingWithArgs => !args.is_empty(),
            Access::SettingWhenDaily => args
                .split_whitespace()
                .next()
                .is_some_and(|w| is_daily_word(&w.to_lowercase())),
        }
    }
}

/// Read one chat line. Commands may carry a bot suffix as Telegram sends them in groups
/// (`/play@XiangqiBot`).
#[must_use]
pub fn parse_line(text: &str) -> Line {
    let t = text.trim();
    let Some(rest) = t.strip_prefix('/').or_else(|| t.strip_prefix('／')) else {
        return Line::Text(t.to_string());
    };
    let (word, args) = match rest.find(char::is_whitespace) {
        Some(i) => (&rest[..i], rest[i..].trim()),
        None => (rest, ""),
    };
    let word = word.split('@').next().unwrap_or("").to_lowercase();
    if word == "start" {
        return Line::Command(Cmd::Help, args.to_string());
    }
    match Cmd::ALL.iter().find(|(_, n)| *n == word) {
        Some((c, _)) => Line::Command(*c, args.to_string()),
        None => Line::Unknown(format!("/{}", word.chars().take(24).collect::<String>())),
    }
}

/// The word that makes `/puzzle` about the daily puzzle (`/puzzle daily on`), lower case.
pub(crate) fn is_daily_word(w: &str) -> bool {
    matches!(w, "daily" | "hằngngày" | "hangngay" | "每日")
}

/// Whether a `/play` word asks for a rated (`Some(true)`) or an unrated (`Some(false)`) game.
/// (`casual` stays the name of a ruleset, whose games are never rated.)
#[must_use]
pub(crate) fn rated_word(word: &str) -> Option<bool> {
    match word.to_lowercase().as_str() {
        "rated" | "ranked" | "tínhđiểm" | "tinhdiem" | "计分" | "計分" | "排位" => {
            Some(true)
        }
        "unrated" | "friendly" | "giaohữu" | "giaohuu" | "不计分" | "不計分" | "友谊" | "友誼" => {
            Some(false)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn commands_and_text() {
        assert_eq!(
            parse_line("/play @bob 10+5"),
            Line::Command(Cmd::Play, "@bob 10+5".into())
        );
        assert_eq!(
            parse_line("  /MOVE@XiangqiBot   h2e2 "),
            Line::Command(Cmd::Move, "h2e2".into())
        );
        assert_eq!(
            parse_line("/start"),
            Line::Command(Cmd::Help, String::new())
        );
        assert_eq!(parse_line("/xyz 1"), Line::Unknown("/xyz".into()));
        for (line, configures) in [
            ("/hints on", true),
            ("/hints", false),
            ("/lang vi", true),
            ("/ruleset asian", true),
            ("/takebacks off", true),
            ("/puzzle daily on 9", true),
            ("/puzzle Daily", true),
            ("/puzzle next", false),
            ("/play @bob", false),
            ("h2e2", false),
        ] {
            assert_eq!(parse_line(line).configures(), configures, "{line}");
        }
        assert_eq!(parse_line("炮二平五"), Line::Text("炮二平五".into()));
        for (c, n) in Cmd::ALL {
            assert_eq!(
                parse_line(&format!("/{n}")),
                Line::Command(c, String::new())
            );
            assert_eq!(c.name(), n);
        }
    }

    #[test]
    fn rated_words() {
        assert_eq!(rated_word("Rated"), Some(true));
        assert_eq!(rated_word("计分"), Some(true));
        assert_eq!(rated_word("unrated"), Some(false));
        assert_eq!(rated_word("casual"), None, "casual is a ruleset");
    }

    proptest! {
        #[test]
        fn any_line_is_read_without_panicking(s in "\\PC{0,600}") {
            let _ = parse_line(&s);
        }

        #[test]
        fn any_play_word_is_read_without_panicking(s in "\\PC{0,40}") {
            let _ = rated_word(&s);
        }
    }
}
