//! The slash commands: one top-level command per service command (`/play`, `/move`, ...), with
//! choices for rulesets, notations and languages, a user option for the opponent, and
//! autocomplete for time controls, rule topics and (through the service) legal moves. An
//! invocation becomes the service's command text: `/play` with options is
//! `/play <@id> 10+5 asian red`.

use serenity::all::{
    AutocompleteChoice, CommandDataOptionValue, CommandInteraction, CommandOptionType,
    CreateCommand, CreateCommandOption, ResolvedValue,
};

use super::player;
use crate::app::Cmd;
use crate::arbiter::RulesetName;
use crate::game::{PlayerRef, TimeControl};
use crate::i18n::arbiter::ruleset_name;
use crate::i18n::commands::command_summary;
use crate::i18n::rulebook::Topic;
use crate::i18n::Lang;

/// What kind of value an option takes.
#[derive(Clone, Copy)]
enum Kind {
    /// A guild member (the opponent).
    User,
    /// Free text.
    Text,
    /// Free text with suggestions while typing.
    Suggested,
    /// One of a fixed list: (shown name, value).
    Choice(&'static [(&'static str, &'static str)]),
    /// A ruleset, shown by its name in the user's language.
    Ruleset,
    /// A yes/no switch for the adapter itself (not part of the service's command text).
    Flag,
    /// A yes/no switch written into the command text as one of two words (on, off).
    Switch(&'static str, &'static str),
    /// A whole number from 1.
    Number,
    /// The bot's level, 1 to 8: written as `bot N` (a game against the bot).
    Level,
}

/// An option: its name, its description in English, Vietnamese and Chinese, its kind, and
/// whether it is required.
struct Opt {
    name: &'static str,
    about: [&'static str; 3],
    kind: Kind,
    required: bool,
}

const NOTATIONS: &[(&str, &str)] = &[
    ("ICCS (h2e2)", "iccs"),
    ("WXF (C2.5)", "wxf"),
    ("中文 (炮二平五)", "chinese"),
    ("Tiếng Việt (P2-5)", "vietnamese"),
];
const LANGUAGES: &[(&str, &str)] = &[("Tiếng Việt", "vi"), ("English", "en"), ("中文", "zh")];
const COLOURS: &[(&str, &str)] = &[
    ("red — you move first", "red"),
    ("black", "black"),
    ("random", "random"),
];
const ON_OFF: &[(&str, &str)] = &[("on", "on"), ("off", "off")];
const FAMILIES: &[(&str, &str)] = &[
    ("bullet — under 3 minutes", "bullet"),
    ("blitz — 3 to 8 minutes", "blitz"),
    ("rapid — 8 to 25 minutes", "rapid"),
    ("classical — 25 minutes and more", "classical"),
    ("correspondence — hours or days a move", "correspondence"),
];
const SCOPES: &[(&str, &str)] = &[("this server", "here"), ("all of Discord", "global")];
const CLAIMS: &[(&str, &str)] = &[
    ("win — the game is yours", "win"),
    ("end — stop it without a result", "end"),
];

/// Time controls offered while typing `/play time:`: (value, what it means).
const TIME_PRESETS: &[(&str, &str)] = &[
    ("none", "no clock"),
    ("5+3", "5 minutes + 3 seconds a move"),
    ("10+5", "10 minutes + 5 seconds a move"),
    ("15+10", "15 minutes + 10 seconds a move"),
    ("30+0", "30 minutes, sudden death"),
    ("20m/1m", "20 minutes, at most 1 minute a move"),
    ("10m+3x30s", "10 minutes, then 3 periods of 30 seconds"),
    ("1d", "correspondence: a day a move"),
];

const PLAY: &[Opt] = &[
    Opt {
        name: "opponent",
        about: [
            "Who to play (empty: anyone)",
            "Đấu với ai (bỏ trống: bất kỳ ai)",
            "对手（留空：任何人）",
        ],
        kind: Kind::User,
        required: false,
    },
    Opt {
        name: "time",
        about: [
            "Clock: none, 10+5, 20m/1m, 10m+3x30s, 1d",
            "Đồng hồ: none, 10+5, 20m/1m, 10m+3x30s, 1d",
            "时限：none、10+5、20m/1m、10m+3x30s、1d",
        ],
        kind: Kind::Suggested,
        required: false,
    },
    Opt {
        name: "ruleset",
        about: [
            "The rules (default: the channel's)",
            "Luật (mặc định: của kênh)",
            "规则（默认：本频道的）",
        ],
        kind: Kind::Ruleset,
        required: false,
    },
    Opt {
        name: "color",
        about: ["Your side", "Bên của bạn", "你执哪方"],
        kind: Kind::Choice(COLOURS),
        required: false,
    },
    Opt {
        name: "thread",
        about: [
            "Play in a new thread of this channel",
            "Chơi trong một luồng mới của kênh này",
            "在本频道的新子区中对局",
        ],
        kind: Kind::Flag,
        required: false,
    },
    Opt {
        name: "fen",
        about: [
            "Start from this position (FEN board and side)",
            "Bắt đầu từ thế cờ này (FEN)",
            "从此局面开始（FEN）",
        ],
        kind: Kind::Text,
        required: false,
    },
    Opt {
        name: "rated",
        about: [
            "A rated game (needs a clock; accepting it is the agreement)",
            "Ván tính điểm (cần đồng hồ; nhận lời là đồng ý)",
            "等级分对局（需要棋钟；接受即同意）",
        ],
        kind: Kind::Switch("rated", "unrated"),
        required: false,
    },
    Opt {
        name: "level",
        about: [
            "Play the bot at this level, 1 (easiest) to 8",
            "Chơi với máy ở cấp này, 1 (dễ nhất) đến 8",
            "与电脑对弈，等级 1（最易）到 8",
        ],
        kind: Kind::Level,
        required: false,
    },
];
const RATING: &[Opt] = &[
    Opt {
        name: "player",
        about: [
            "Whose ratings (empty: yours)",
            "Điểm của ai (bỏ trống: của bạn)",
            "谁的等级分（留空：你的）",
        ],
        kind: Kind::User,
        required: false,
    },
    Opt {
        name: "family",
        about: [
            "The graph's time control",
            "Thể loại cho biểu đồ",
            "走势图的时限类别",
        ],
        kind: Kind::Choice(FAMILIES),
        required: false,
    },
];
const TOP: &[Opt] = &[
    Opt {
        name: "family",
        about: [
            "Time control (default: the last played here)",
            "Thể loại (mặc định: ván gần nhất ở đây)",
            "时限类别（默认：本服务器最近的）",
        ],
        kind: Kind::Choice(FAMILIES),
        required: false,
    },
    Opt {
        name: "page",
        about: [
            "Page (10 players a page)",
            "Trang (10 người một trang)",
            "页码（每页 10 人）",
        ],
        kind: Kind::Number,
        required: false,
    },
    Opt {
        name: "scope",
        about: [
            "This server or all of Discord",
            "Máy chủ này hoặc toàn Discord",
            "本服务器或 Discord 全平台",
        ],
        kind: Kind::Choice(SCOPES),
        required: false,
    },
];
const STATS: &[Opt] = &[
    Opt {
        name: "player",
        about: [
            "Whose statistics (empty: yours)",
            "Thống kê của ai (bỏ trống: của bạn)",
            "谁的统计（留空：你的）",
        ],
        kind: Kind::User,
        required: false,
    },
    Opt {
        name: "opponent",
        about: [
            "Head to head against this player",
            "Đối đầu với người này",
            "与此人的交手记录",
        ],
        kind: Kind::User,
        required: false,
    },
];
const MOVE: &[Opt] = &[Opt {
    name: "move",
    about: [
        "Your move: h2e2, C2.5, 炮二平五, P2-5",
        "Nước đi: h2e2, C2.5, 炮二平五, P2-5",
        "着法：h2e2、C2.5、炮二平五、P2-5",
    ],
    kind: Kind::Suggested,
    required: true,
}];
const CLAIM: &[Opt] = &[Opt {
    name: "outcome",
    about: [
        "Win the game (default), or end it without a result",
        "Được xử thắng (mặc định), hoặc kết thúc ván không tính kết quả",
        "判胜（默认），或结束本局不计结果",
    ],
    kind: Kind::Choice(CLAIMS),
    required: false,
}];
const RULES: &[Opt] = &[Opt {
    name: "topic",
    about: [
        "A piece, rule or ruleset",
        "Một quân, luật hoặc bộ luật",
        "棋子、规则或规则集",
    ],
    kind: Kind::Suggested,
    required: false,
}];
const RULESET: &[Opt] = &[Opt {
    name: "name",
    about: [
        "The ruleset for new games",
        "Bộ luật cho các ván mới",
        "新对局的规则",
    ],
    kind: Kind::Ruleset,
    required: false,
}];
const NOTATION: &[Opt] = &[Opt {
    name: "name",
    about: [
        "How your moves are written",
        "Cách ghi nước đi của bạn",
        "你的记谱法",
    ],
    kind: Kind::Choice(NOTATIONS),
    required: false,
}];
const LANG: &[Opt] = &[Opt {
    name: "language",
    about: [
        "The channel's language",
        "Ngôn ngữ của kênh",
        "本频道的语言",
    ],
    kind: Kind::Choice(LANGUAGES),
    required: false,
}];
const TAKEBACKS: &[Opt] = &[Opt {
    name: "allow",
    about: [
        "Allow takebacks in new games",
        "Cho phép đi lại trong ván mới",
        "新对局是否允许悔棋",
    ],
    kind: Kind::Choice(ON_OFF),
    required: false,
}];

const HINTS: &[Opt] = &[Opt {
    name: "allow",
    about: [
        "Allow hints in games between people",
        "Cho phép gợi ý trong ván giữa người với người",
        "真人对局是否允许提示",
    ],
    kind: Kind::Choice(ON_OFF),
    required: false,
}];
const REVIEW: &[Opt] = &[Opt {
    name: "game",
    about: [
        "The game's number (/games); the last one if left out",
        "Số ván (/games); bỏ trống là ván vừa xong",
        "对局编号（/games）；不填则为最近一局",
    ],
    kind: Kind::Text,
    required: false,
}];

const PUZZLE: &[Opt] = &[
    Opt {
        name: "what",
        about: [
            "A theme or level (mate, chariot, hard, 1500), a move, or next, hint, solution, stats, daily on|off",
            "Chủ đề/độ khó (chieuhet, xe, kho, 1500), nước đi, hoặc next, hint, solution, stats, daily on|off",
            "主题或难度（杀、车、困难、1500）、着法，或 next、hint、solution、stats、daily on|off",
        ],
        kind: Kind::Text,
        required: false,
    },
    Opt {
        name: "player",
        about: [
            "Whose puzzle statistics (with stats)",
            "Thống kê giải bài của ai (với stats)",
            "谁的解题统计（配合 stats）",
        ],
        kind: Kind::User,
        required: false,
    },
];

/// A command's options (its description is the service's command summary, shared with the
/// other platforms' command menus).
fn spec(cmd: Cmd) -> &'static [Opt] {
    match cmd {
        Cmd::Play => PLAY,
        Cmd::Move => MOVE,
        Cmd::Claim => CLAIM,
        Cmd::Rules => RULES,
        Cmd::Ruleset => RULESET,
        Cmd::Notation => NOTATION,
        Cmd::Lang => LANG,
        Cmd::Takebacks => TAKEBACKS,
        Cmd::Hints => HINTS,
        Cmd::Review => REVIEW,
        Cmd::Puzzle => PUZZLE,
        Cmd::Rating => RATING,
        Cmd::Top => TOP,
        Cmd::Stats => STATS,
        Cmd::Accept
        | Cmd::Decline
        | Cmd::Cancel
        | Cmd::Resign
        | Cmd::Draw
        | Cmd::Takeback
        | Cmd::Abort
        | Cmd::Board
        | Cmd::Flip
        | Cmd::Moves
        | Cmd::Fen
        | Cmd::Pgn
        | Cmd::Gif
        | Cmd::Why
        | Cmd::Time
        | Cmd::Games
        | Cmd::Help
        | Cmd::Hint
        | Cmd::About => &[],
    }
}

/// Described in every language Discord's clients use for ours.
fn localized_command(name: &str) -> CreateCommand {
    let about = |lang| command_summary(name, lang).unwrap_or(name);
    let mut c = CreateCommand::new(name)
        .description(about(Lang::En))
        .description_localized("vi", about(Lang::Vi));
    for zh in ["zh-CN", "zh-TW"] {
        c = c.description_localized(zh, about(Lang::Zh));
    }
    c
}

fn option(o: &Opt) -> CreateCommandOption {
    let kind = match o.kind {
        Kind::User => CommandOptionType::User,
        Kind::Flag | Kind::Switch(..) => CommandOptionType::Boolean,
        Kind::Number | Kind::Level => CommandOptionType::Integer,
        _ => CommandOptionType::String,
    };
    let mut c = CreateCommandOption::new(kind, o.name, o.about[0])
        .description_localized("vi", o.about[1])
        .description_localized("zh-CN", o.about[2])
        .description_localized("zh-TW", o.about[2])
        .required(o.required);
    match o.kind {
        Kind::Suggested => c = c.set_autocomplete(true).max_length(100),
        Kind::Text => c = c.max_length(120),
        Kind::Choice(list) => {
            for (name, value) in list {
                c = c.add_string_choice(*name, *value);
            }
        }
        Kind::Number => c = c.min_int_value(1).max_int_value(1000),
        Kind::Level => {
            let levels = crate::app::bot::LEVELS;
            c = c
                .min_int_value(u64::from(*levels.start()))
                .max_int_value(u64::from(*levels.end()));
        }
        Kind::Ruleset => {
            for r in RulesetName::ALL {
                let name = |lang| capitalised(&ruleset_name(r, lang));
                c = c.add_string_choice_localized(
                    name(Lang::En),
                    r.as_str(),
                    [
                        ("vi", name(Lang::Vi)),
                        ("zh-CN", name(Lang::Zh)),
                        ("zh-TW", name(Lang::Zh)),
                    ],
                );
            }
        }
        Kind::User | Kind::Flag | Kind::Switch(..) => {}
    }
    c
}

/// `s` with its first letter in upper case (a ruleset's name as a menu entry).
fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase().chain(chars).collect::<String>()
    })
}

/// Every command, as registered with Discord.
#[must_use]
pub(super) fn definitions() -> Vec<CreateCommand> {
    Cmd::ALL
        .iter()
        .map(|&(cmd, name)| {
            let mut c = localized_command(name);
            for o in spec(cmd) {
                c = c.add_option(option(o));
            }
            c
        })
        .collect()
}

/// The service's command text for an invocation, and the users it names. Options are written
/// in the order they are declared; a user becomes the token `<@id>`.
pub(super) fn command_text(cmd: &CommandInteraction) -> (String, Vec<(String, PlayerRef)>) {
    let name = cmd.data.name.as_str();
    let declared = Cmd::ALL
        .iter()
        .find(|(_, n)| *n == name)
        .map_or(&[][..], |(c, _)| spec(*c));
    let given = cmd.data.options();
    let mut text = format!("/{name}");
    let mut mentions = Vec::new();
    for o in declared {
        let Some(value) = given.iter().find(|g| g.name == o.name).map(|g| &g.value) else {
            continue;
        };
        let word = match value {
            ResolvedValue::User(user, member) => {
                let token = format!("<@{}>", user.id);
                let nick = member.and_then(|m| m.nick.as_deref());
                mentions.push((token.clone(), player(user, nick)));
                token
            }
            // A full FEN's move counters are not part of a set-up start.
            ResolvedValue::String(s) if o.name == "fen" => {
                s.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
            }
            // One word: a time control typed with spaces (`10 + 5`) stays one.
            ResolvedValue::String(s) if o.name == "time" => s.split_whitespace().collect(),
            ResolvedValue::String(s) if o.name == "scope" && *s == "here" => continue,
            ResolvedValue::String(s) => s.trim().to_string(),
            ResolvedValue::Boolean(b) => match o.kind {
                Kind::Switch(on, off) => if *b { on } else { off }.to_string(),
                _ => continue,
            },
            ResolvedValue::Integer(n) if matches!(o.kind, Kind::Level) => format!("bot {n}"),
            ResolvedValue::Integer(n) => n.to_string(),
            _ => continue,
        };
        if !word.is_empty() {
            text.push(' ');
            text.push_str(&word);
        }
    }
    (text, mentions)
}

/// Whether `/play` asked for a thread of its own.
pub(super) fn wants_thread(cmd: &CommandInteraction) -> bool {
    cmd.data.name == "play"
        && cmd
            .data
            .options()
            .iter()
            .any(|o| o.name == "thread" && matches!(o.value, ResolvedValue::Boolean(true)))
}

/// The option being typed in an autocomplete request: its name and text so far.
pub(super) fn focused(cmd: &CommandInteraction) -> Option<(String, String)> {
    cmd.data.options.iter().find_map(|o| match &o.value {
        CommandDataOptionValue::Autocomplete { value, .. } => Some((o.name.clone(), value.clone())),
        _ => None,
    })
}

/// Suggestions for the options that do not need the service: time controls and rule topics.
pub(super) fn static_suggestions(option: &str, typed: &str, lang: Lang) -> Vec<AutocompleteChoice> {
    let typed = typed.trim();
    let lower = typed.to_lowercase();
    match option {
        "time" => {
            let mut out: Vec<AutocompleteChoice> = Vec::new();
            let compact: String = typed.split_whitespace().collect();
            if !compact.is_empty()
                && compact.parse::<TimeControl>().is_ok()
                && !TIME_PRESETS.iter().any(|(v, _)| *v == compact)
            {
                out.push(AutocompleteChoice::new(compact.clone(), compact));
            }
            out.extend(
                TIME_PRESETS
                    .iter()
                    .filter(|(v, about)| v.starts_with(&lower) || about.contains(&lower))
                    .map(|(v, about)| AutocompleteChoice::new(format!("{v} — {about}"), *v)),
            );
            out
        }
        "topic" => Topic::ALL
            .iter()
            .filter(|t| t.slug().contains(&lower) || t.title(lang).to_lowercase().contains(&lower))
            .take(25)
            .map(|t| {
                let name = format!("{} ({})", t.title(lang), t.slug());
                AutocompleteChoice::new(name.chars().take(100).collect::<String>(), t.slug())
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Move suggestions as choices (at most 25, each at most 100 characters).
pub(super) fn move_choices(moves: Vec<String>) -> Vec<AutocompleteChoice> {
    moves
        .into_iter()
        .filter(|m| !m.is_empty() && m.chars().count() <= 100)
        .take(25)
        .map(|m| AutocompleteChoice::new(m.clone(), m))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;

    #[test]
    fn every_service_command_is_defined_within_discords_limits() {
        let defs = definitions();
        assert_eq!(defs.len(), Cmd::ALL.len());
        for (cmd, _) in Cmd::ALL {
            let opts = spec(cmd);
            assert!(opts.len() <= 25);
            for o in opts {
                for a in o.about {
                    assert!((1..=100).contains(&a.chars().count()), "{a}");
                }
                if let Kind::Choice(list) = o.kind {
                    assert!(list.len() <= 25);
                    for (n, v) in list {
                        assert!(n.chars().count() <= 100 && v.len() <= 100);
                    }
                }
            }
        }
        // The choices are values the service reads, named in each language without code
        // names or code formatting.
        for r in RulesetName::ALL {
            assert_eq!(r.as_str().parse::<RulesetName>(), Ok(r));
            for lang in Lang::ALL {
                let name = capitalised(&ruleset_name(r, lang));
                assert!((1..=100).contains(&name.chars().count()), "{name}");
                assert!(!name.contains('`'), "{name}");
            }
        }
        assert_eq!(capitalised("luật châu Á"), "Luật châu Á");
        for (_, v) in NOTATIONS {
            assert!(v.parse::<Notation>().is_ok(), "{v}");
        }
        for (_, v) in LANGUAGES {
            assert!(Lang::from_tag(v).is_some(), "{v}");
        }
        for (v, _) in TIME_PRESETS {
            assert!(v.parse::<TimeControl>().is_ok(), "{v}");
        }
        for (_, v) in FAMILIES {
            assert!(v.parse::<crate::rating::Family>().is_ok(), "{v}");
        }
    }

    #[test]
    fn time_and_topic_suggestions() {
        let t = static_suggestions("time", "10", Lang::En);
        assert!(t.len() >= 2, "{t:?}");
        let t = static_suggestions("time", "7 + 2", Lang::En);
        assert_eq!(t.len(), 1);
        let t = static_suggestions("topic", "chase", Lang::En);
        assert!(t.len() >= 2 && t.len() <= 25, "{t:?}");
        assert_eq!(static_suggestions("topic", "", Lang::Vi).len(), 25);
    }
}
