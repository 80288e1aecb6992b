//! Reading a chat line: a command with its arguments, or a bare text (maybe a move).

use super::args::{self, Arg};
use crate::i18n::Lang;

/// Longest message the service reads, in characters.
pub const MAX_TEXT: usize = 500;

/// Declares the commands, each once: its variant, its doc, its name, its typed arguments
/// (`[PLAY]`, from [`super::args`]), the other names it answers to in each language
/// (`aka(Vi "choi" "chơi", Zh "下棋")`: a Vietnamese name with and without its marks) and,
/// when not anyone's, who may run it. From this come
/// [`Cmd`], [`Cmd::ALL`] (parsing, `/help`, Telegram's menus, Discord's definitions, the
/// summaries' test), [`Cmd::name`], [`Cmd::args`] (Discord's options and how an invocation
/// becomes command text) and [`Cmd::access`]; the router's `match` is exhaustive, so the
/// compiler asks for a route when a command is added here. Texts are the catalogues'
/// (`i18n::commands` by the name and argument, `i18n::app` for answers).
macro_rules! commands {
    ($( $(#[$doc:meta])* $variant:ident => $name:literal $([$args:ident])? $(aka($($lang:ident $($alias:literal)+),+))? $(, $access:ident)?; )+) => {
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

            /// Its typed arguments, in the order they are written ([`super::args`]).
            #[must_use]
            pub const fn args(self) -> &'static [Arg] {
                match self {
                    $( Cmd::$variant => commands!(@args $($args)?), )+
                }
            }

            /// Other names it answers to, each in the language it is for (`/choi`, `/下棋`).
            #[must_use]
            pub const fn aliases(self) -> &'static [(Lang, &'static str)] {
                match self {
                    $( Cmd::$variant => &[$($($( (Lang::$lang, $alias), )+)+)?], )+
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
    (@args) => { &[] };
    (@args $args:ident) => { args::$args };
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
    /// `/tournament swiss|arena|robin|start|cancel …` makes or runs the chat's tournament
    /// (its administrators'); joining, leaving and the tables are anyone's.
    Organiser,
}

commands! {
    /// `/play`.
    Play => "play" [PLAY] aka(Vi "choi" "chơi", Zh "下棋");
    /// `/accept`.
    Accept => "accept" aka(Vi "nhan" "nhận", Zh "接受");
    /// `/decline`.
    Decline => "decline" aka(Vi "tuchoi" "từchối", Zh "拒绝");
    /// `/cancel`.
    Cancel => "cancel" aka(Vi "huy" "hủy", Zh "取消");
    /// `/move`.
    Move => "move" [MOVE] aka(Vi "di" "đi", Zh "走");
    /// `/resign`.
    Resign => "resign" aka(Vi "xinthua", Zh "认输");
    /// `/draw`.
    Draw => "draw" aka(Vi "hoa" "hòa", Zh "和棋");
    /// `/takeback`.
    Takeback => "takeback" aka(Vi "dilai" "đilại", Zh "悔棋");
    /// `/abort`.
    Abort => "abort" aka(Vi "huyvan" "hủyván", Zh "中止");
    /// `/claim`: an untimed game whose player to move stopped moving.
    Claim => "claim" [CLAIM] aka(Vi "xuthang" "xửthắng", Zh "判胜");
    /// `/board`.
    Board => "board" [BOARD] aka(Vi "banco" "bàncờ", Zh "棋盘");
    /// `/flip`.
    Flip => "flip" [BOARD] aka(Vi "latban" "lậtbàn", Zh "翻转");
    /// `/moves`.
    Moves => "moves" aka(Vi "nuocdi" "nướcđi", Zh "棋谱");
    /// `/fen`.
    Fen => "fen";
    /// `/pgn`.
    Pgn => "pgn";
    /// `/gif`.
    Gif => "gif";
    /// `/why`.
    Why => "why" aka(Vi "taisao" "tạisao", Zh "为什么");
    /// `/rules`.
    Rules => "rules" [RULES] aka(Vi "luat" "luật", Zh "规则");
    /// `/ruleset`.
    Ruleset => "ruleset" [RULESET] aka(Vi "boluat" "bộluật", Zh "规则集"), SettingWithArgs;
    /// `/notation`.
    Notation => "notation" [NOTATION] aka(Vi "kyhieu" "kýhiệu", Zh "记谱");
    /// `/lang`.
    Lang => "lang" [LANG] aka(Vi "ngonngu" "ngônngữ", Zh "语言"), SettingWithArgs;
    /// `/takebacks`.
    Takebacks => "takebacks" [TAKEBACKS], SettingWithArgs;
    /// `/time`.
    Time => "time" aka(Vi "thoigian" "thờigian", Zh "时间");
    /// `/games`.
    Games => "games" aka(Vi "cacvan" "cácván", Zh "对局");
    /// `/rating`.
    Rating => "rating" [RATING] aka(Vi "diem" "điểm", Zh "等级分");
    /// `/top`.
    Top => "top" [TOP] aka(Vi "xephang" "xếphạng", Zh "排行");
    /// `/stats`.
    Stats => "stats" [STATS] aka(Vi "thongke" "thốngkê", Zh "统计");
    /// `/help` (also `/start`, which Telegram sends first).
    Help => "help" aka(Vi "trogiup" "trợgiúp", Zh "帮助");
    /// `/about`: the version, the rule documents the arbiter follows, where the source is.
    About => "about" aka(Vi "gioithieu" "giớithiệu", Zh "关于");
    /// `/hint`: the engine's best move for the player to move.
    Hint => "hint" aka(Vi "goiy" "gợiý", Zh "提示");
    /// `/hints on|off`: hints in games between people here.
    Hints => "hints" [HINTS], SettingWithArgs;
    /// `/review [N]`: the engine's review of a finished game.
    Review => "review" [REVIEW] aka(Vi "phantich" "phântích", Zh "复盘");
    /// `/puzzle [theme|difficulty|next|hint|solution|stats|daily]`.
    Puzzle => "puzzle" [PUZZLE] aka(Vi "cothe" "cờthế", Zh "残局"), SettingWhenDaily;
    /// `/web`: the asker's private link to play their game on the web board.
    Web => "web" aka(Vi "banweb" "bànweb", Zh "网页");
    /// `/watch`: a link anyone may open to watch the games here live.
    Watch => "watch" aka(Vi "xem", Zh "观战");
    /// `/tournament swiss|arena|robin …|join|leave|start|…`: the chat's tournament.
    Tournament => "tournament" [TOURNAMENT] aka(Vi "giaidau" "giảiđấu", Zh "比赛"), Organiser;
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
            Access::Organiser => args
                .split_whitespace()
                .next()
                .is_some_and(super::tournament::manages),
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
    let known = Cmd::ALL
        .iter()
        .find(|(c, n)| *n == word || c.aliases().iter().any(|(_, a)| *a == word));
    match known {
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
            ("/tournament swiss 5+3", true),
            ("/tournament Cancel", true),
            ("/tournament join", false),
            ("/tournament", false),
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
    fn every_name_and_alias_is_one_commands_and_reads_as_it() {
        let mut seen = std::collections::HashMap::new();
        for (c, n) in Cmd::ALL {
            for word in std::iter::once(n).chain(c.aliases().iter().map(|(_, a)| *a)) {
                assert_eq!(word, word.to_lowercase(), "{word}: read in lower case");
                assert!(
                    !word.contains(char::is_whitespace) && !word.contains('@'),
                    "{word}"
                );
                if let Some(other) = seen.insert(word, c) {
                    panic!("/{word} names both {other:?} and {c:?}");
                }
                assert_eq!(
                    parse_line(&format!("/{word} x")),
                    Line::Command(c, "x".into()),
                    "/{word}"
                );
            }
        }
        assert!(!seen.contains_key("start"), "/start stays Telegram's");
        assert_eq!(
            parse_line("/Choi @bob 10+5"),
            Line::Command(Cmd::Play, "@bob 10+5".into())
        );
        assert_eq!(
            parse_line("/悔棋"),
            Line::Command(Cmd::Takeback, String::new())
        );
        assert_eq!(
            parse_line("/đi h2e2"),
            Line::Command(Cmd::Move, "h2e2".into())
        );
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
