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
use crate::app::{Arg, ArgKind, Cmd};
use crate::arbiter::RulesetName;
use crate::game::{PlayerRef, TimeControl};
use crate::i18n::arbiter::ruleset_name;
use crate::i18n::commands::{argument_summary, command_summary};
use crate::i18n::rulebook::Topic;
use crate::i18n::Lang;

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

/// Discord's locales for each of our languages but English (the commands' own names).
const LOCALES: &[(Lang, &str)] = &[(Lang::Vi, "vi"), (Lang::Zh, "zh-CN"), (Lang::Zh, "zh-TW")];

/// Described in every language Discord's clients use for ours, and named there as `/help`
/// shows it (`/choi` for a Vietnamese client: the first of the table's names in that
/// language); Discord still sends the command's own name.
fn localized_command(cmd: Cmd, name: &str) -> CreateCommand {
    let about = |lang| command_summary(name, lang).unwrap_or(name);
    let mut c = CreateCommand::new(name).description(about(Lang::En));
    for &(lang, locale) in LOCALES {
        c = c.description_localized(locale, about(lang));
        if let Some((_, alias)) = cmd.aliases().iter().find(|(l, _)| *l == lang) {
            c = c.name_localized(locale, *alias);
        }
    }
    c
}

/// Discord's option for argument `o` of command `command`.
fn option(command: &str, o: &Arg) -> CreateCommandOption {
    let kind = match o.kind {
        ArgKind::User => CommandOptionType::User,
        ArgKind::Flag | ArgKind::Switch(..) => CommandOptionType::Boolean,
        ArgKind::Number | ArgKind::Level | ArgKind::Named => CommandOptionType::Integer,
        ArgKind::Actions(_) => CommandOptionType::SubCommand,
        _ => CommandOptionType::String,
    };
    let about = |lang| argument_summary(command, o.name, lang).unwrap_or(o.name);
    let mut c = CreateCommandOption::new(kind, o.name, about(Lang::En))
        .description_localized("vi", about(Lang::Vi))
        .description_localized("zh-CN", about(Lang::Zh))
        .description_localized("zh-TW", about(Lang::Zh))
        .required(o.required);
    match o.kind {
        ArgKind::Suggested => c = c.set_autocomplete(true).max_length(100),
        ArgKind::Text => c = c.max_length(120),
        ArgKind::Choice(list) => {
            for (name, value) in list {
                c = c.add_string_choice(*name, *value);
            }
        }
        ArgKind::Number => c = c.min_int_value(1).max_int_value(1000),
        // The service checks each one's own range and says it.
        ArgKind::Named => c = c.min_int_value(0).max_int_value(10_080),
        ArgKind::Level => {
            let levels = crate::app::bot::LEVELS;
            c = c
                .min_int_value(u64::from(*levels.start()))
                .max_int_value(u64::from(*levels.end()));
        }
        ArgKind::Ruleset => {
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
        ArgKind::User | ArgKind::Flag | ArgKind::Switch(..) | ArgKind::Actions(_) => {}
    }
    c
}

/// The subcommands of an [`ArgKind::Actions`] argument of `command`, each with its options.
fn subcommands(
    command: &str,
    actions: &[(&'static str, &'static [Arg])],
) -> Vec<CreateCommandOption> {
    actions
        .iter()
        .map(|&(action, args)| {
            let about = |lang| argument_summary(command, action, lang).unwrap_or(action);
            let mut c =
                CreateCommandOption::new(CommandOptionType::SubCommand, action, about(Lang::En))
                    .description_localized("vi", about(Lang::Vi))
                    .description_localized("zh-CN", about(Lang::Zh))
                    .description_localized("zh-TW", about(Lang::Zh));
            for o in args {
                c = c.add_sub_option(option(command, o));
            }
            c
        })
        .collect()
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
            let mut c = localized_command(cmd, name);
            for o in cmd.args() {
                if let ArgKind::Actions(actions) = o.kind {
                    for sub in subcommands(name, actions) {
                        c = c.add_option(sub);
                    }
                } else {
                    c = c.add_option(option(name, o));
                }
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
        .map_or(&[][..], |(c, _)| c.args());
    let given = cmd.data.options();
    let mut text = format!("/{name}");
    let mut mentions = Vec::new();
    write_options(declared, &given, &mut text, &mut mentions);
    (text, mentions)
}

/// Write the `given` options in the order `declared` says (a subcommand as its word, then its
/// own options).
fn write_options(
    declared: &[Arg],
    given: &[serenity::all::ResolvedOption<'_>],
    text: &mut String,
    mentions: &mut Vec<(String, PlayerRef)>,
) {
    for o in declared {
        if let ArgKind::Actions(actions) = o.kind {
            for g in given {
                let ResolvedValue::SubCommand(nested) = &g.value else {
                    continue;
                };
                let Some((action, args)) = actions.iter().find(|(a, _)| *a == g.name) else {
                    continue;
                };
                text.push(' ');
                text.push_str(action);
                write_options(args, nested, text, mentions);
            }
            continue;
        }
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
                ArgKind::Switch(on, off) => if *b { on } else { off }.to_string(),
                _ => continue,
            },
            ResolvedValue::Integer(n) if matches!(o.kind, ArgKind::Level) => format!("bot {n}"),
            ResolvedValue::Integer(n) if matches!(o.kind, ArgKind::Named) => {
                format!("{} {n}", o.name)
            }
            ResolvedValue::Integer(n) => n.to_string(),
            _ => continue,
        };
        if !word.is_empty() {
            text.push(' ');
            text.push_str(&word);
        }
    }
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
    use crate::app::args::{FAMILIES, LANGUAGES, NOTATIONS};
    use crate::notation::Notation;

    #[test]
    fn every_service_command_is_defined_within_discords_limits() {
        let defs = definitions();
        assert_eq!(defs.len(), Cmd::ALL.len());
        // Names in each client's language are Discord names (lower case, at most 32 letters,
        // digits, - or _), as the commands' own are.
        let discord_name = |n: &str| {
            (1..=32).contains(&n.chars().count())
                && n.chars()
                    .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
                && !n.chars().any(char::is_uppercase)
        };
        for d in &defs {
            let j = serde_json::to_value(d).expect("json");
            assert!(discord_name(j["name"].as_str().expect("name")), "{j}");
            for n in j["name_localizations"].as_object().into_iter().flatten() {
                assert!(discord_name(n.1.as_str().expect("a name")), "{n:?}");
            }
        }
        let play = serde_json::to_value(&defs[0]).expect("json");
        assert_eq!(play["name_localizations"]["vi"], "choi");
        assert_eq!(play["name_localizations"]["zh-TW"], "下棋");
        for (cmd, name) in Cmd::ALL {
            let opts = cmd.args();
            assert!(opts.len() <= 25);
            let nested: Vec<&Arg> = opts
                .iter()
                .flat_map(|o| match o.kind {
                    ArgKind::Actions(actions) => {
                        assert!(actions.len() <= 25);
                        actions.iter().flat_map(|(_, a)| a.iter()).collect()
                    }
                    _ => vec![o],
                })
                .collect();
            if let Some(ArgKind::Actions(actions)) = opts.first().map(|o| o.kind) {
                for (action, _) in actions {
                    for lang in Lang::ALL {
                        let a = argument_summary(name, action, lang)
                            .unwrap_or_else(|| panic!("/{name} {action}: no description"));
                        assert!((1..=100).contains(&a.chars().count()), "{a}");
                    }
                }
            }
            for o in nested {
                for lang in Lang::ALL {
                    let a = argument_summary(name, o.name, lang)
                        .unwrap_or_else(|| panic!("/{name} {}: no description", o.name));
                    assert!((1..=100).contains(&a.chars().count()), "{a}");
                }
                if let ArgKind::Choice(list) = o.kind {
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
