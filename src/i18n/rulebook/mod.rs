//! The rulebook behind `/rules TOPIC`: short explanations of every rule the bot applies, in
//! Vietnamese, English and Chinese, each citing the document it comes from (RULES.md §6).
//!
//! The texts are the project's own words. The numbers in the ruleset topics mirror
//! [`crate::arbiter::Ruleset::preset`]; a test checks that they agree.
//!
//! ```
//! use xiangqi_bot::i18n::rulebook::{rulebook, Topic};
//! use xiangqi_bot::i18n::Lang;
//!
//! let topic: Topic = "mã".parse().unwrap();
//! assert_eq!(topic, Topic::Horse);
//! assert!(rulebook(Some(topic), Lang::En).contains("b0c2"));
//! assert!(rulebook(None, Lang::Vi).contains("/rules horse"));
//! ```

mod en;
mod parse;
mod vi;
mod zh;

use std::fmt;
use std::str::FromStr;

use crate::arbiter::{RulesetName, Source};

use super::arbiter::source_name;
use super::Lang;

pub use parse::{ParseTopicError, MAX_TOPIC_INPUT};

/// A subject a player can ask about with `/rules TOPIC`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Topic {
    /// The general (king): palace, one orthogonal step.
    General,
    /// The advisor: one diagonal step in the palace.
    Advisor,
    /// The elephant: two diagonal steps, the eye, never across the river.
    Elephant,
    /// The horse: the leg.
    Horse,
    /// The chariot.
    Chariot,
    /// The cannon: the screen.
    Cannon,
    /// The soldier: before and after the river.
    Soldier,
    /// The two generals may not face each other on an open file.
    FlyingGeneral,
    /// What a check is and how to answer it.
    Check,
    /// Checkmate.
    Checkmate,
    /// No legal move: a loss, not a draw.
    Stalemate,
    /// What counts as a chase.
    Chase,
    /// An offer to trade (same kinds): not a chase.
    Trade,
    /// Idle moves, blocking included.
    Idle,
    /// A threat to mate (kill): allowed, and not a chase.
    Kill,
    /// Perpetual check: repetition and count limits.
    PerpetualCheck,
    /// Perpetual chase: repetition and count limits.
    PerpetualChase,
    /// The 3rd occurrence of a position and the verdict tables A and O.
    Repetition,
    /// The no-progress draw of each ruleset.
    NoProgress,
    /// The CXQ effective-move rule.
    EffectiveMoves,
    /// The game-length cap.
    MoveLimit,
    /// Neither side can mate: a draw.
    InsufficientMaterial,
    /// The ways a game is drawn, and the `vietnam` claim.
    DrawClaim,
    /// Forfeit or refuse: what happens to a foul.
    Enforcement,
    /// The `official` preset (the default).
    Official,
    /// The `asian` preset (AXF/WXF).
    Asian,
    /// The `vietnam` preset (2004 Vietnamese rules).
    Vietnam,
    /// The `cxq` preset (club rules).
    Cxq,
    /// The `casual` preset (online app).
    Casual,
}

/// The groups of the index, in display order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Group {
    Pieces,
    Tactics,
    Repetition,
    Draws,
    Rulesets,
}

impl Group {
    const ALL: [Group; 5] = [
        Group::Pieces,
        Group::Tactics,
        Group::Repetition,
        Group::Draws,
        Group::Rulesets,
    ];

    const fn index(self) -> usize {
        self as usize
    }
}

impl Topic {
    /// Every topic, in the order of the index.
    pub const ALL: [Topic; 29] = [
        Topic::General,
        Topic::Advisor,
        Topic::Elephant,
        Topic::Horse,
        Topic::Chariot,
        Topic::Cannon,
        Topic::Soldier,
        Topic::FlyingGeneral,
        Topic::Check,
        Topic::Checkmate,
        Topic::Stalemate,
        Topic::Chase,
        Topic::Trade,
        Topic::Idle,
        Topic::Kill,
        Topic::PerpetualCheck,
        Topic::PerpetualChase,
        Topic::Repetition,
        Topic::Enforcement,
        Topic::NoProgress,
        Topic::EffectiveMoves,
        Topic::MoveLimit,
        Topic::InsufficientMaterial,
        Topic::DrawClaim,
        Topic::Official,
        Topic::Asian,
        Topic::Vietnam,
        Topic::Cxq,
        Topic::Casual,
    ];

    /// The stable name used in `/rules SLUG`: `general`, `flying-general`, `no-progress`, ...
    #[must_use]
    pub const fn slug(self) -> &'static str {
        match self {
            Topic::General => "general",
            Topic::Advisor => "advisor",
            Topic::Elephant => "elephant",
            Topic::Horse => "horse",
            Topic::Chariot => "chariot",
            Topic::Cannon => "cannon",
            Topic::Soldier => "soldier",
            Topic::FlyingGeneral => "flying-general",
            Topic::Check => "check",
            Topic::Checkmate => "checkmate",
            Topic::Stalemate => "stalemate",
            Topic::Chase => "chase",
            Topic::Trade => "trade",
            Topic::Idle => "idle",
            Topic::Kill => "kill",
            Topic::PerpetualCheck => "perpetual-check",
            Topic::PerpetualChase => "perpetual-chase",
            Topic::Repetition => "repetition",
            Topic::NoProgress => "no-progress",
            Topic::EffectiveMoves => "effective-moves",
            Topic::MoveLimit => "move-limit",
            Topic::InsufficientMaterial => "insufficient-material",
            Topic::DrawClaim => "draw-claim",
            Topic::Enforcement => "enforcement",
            Topic::Official => "official",
            Topic::Asian => "asian",
            Topic::Vietnam => "vietnam",
            Topic::Cxq => "cxq",
            Topic::Casual => "casual",
        }
    }

    /// The topic's heading in `lang`.
    #[must_use]
    pub fn title(self, lang: Lang) -> &'static str {
        (catalogue(lang).title)(self)
    }

    const fn group(self) -> Group {
        match self {
            Topic::General
            | Topic::Advisor
            | Topic::Elephant
            | Topic::Horse
            | Topic::Chariot
            | Topic::Cannon
            | Topic::Soldier
            | Topic::FlyingGeneral => Group::Pieces,
            Topic::Check
            | Topic::Checkmate
            | Topic::Stalemate
            | Topic::Chase
            | Topic::Trade
            | Topic::Idle
            | Topic::Kill => Group::Tactics,
            Topic::PerpetualCheck
            | Topic::PerpetualChase
            | Topic::Repetition
            | Topic::Enforcement => Group::Repetition,
            Topic::NoProgress
            | Topic::EffectiveMoves
            | Topic::MoveLimit
            | Topic::InsufficientMaterial
            | Topic::DrawClaim => Group::Draws,
            Topic::Official | Topic::Asian | Topic::Vietnam | Topic::Cxq | Topic::Casual => {
                Group::Rulesets
            }
        }
    }

    /// The documents a topic's text rests on, cited under it.
    const fn sources(self) -> &'static [Source] {
        use Source::{AxfRulebook, Seed000Official, Seed001App, Seed002Cxq, Seed004Vietnam};
        match self {
            Topic::General
            | Topic::Advisor
            | Topic::Elephant
            | Topic::Horse
            | Topic::Chariot
            | Topic::Cannon
            | Topic::Soldier
            | Topic::FlyingGeneral => &[Seed000Official, Seed001App],
            Topic::Check => &[Seed000Official, Seed002Cxq],
            Topic::Checkmate => &[Seed000Official, Seed004Vietnam],
            Topic::Stalemate => &[Seed000Official, Seed002Cxq, Seed004Vietnam],
            Topic::Chase => &[Seed000Official, Seed002Cxq, AxfRulebook],
            Topic::Trade | Topic::Idle => &[Seed000Official, Seed002Cxq, Seed004Vietnam],
            Topic::Kill => &[AxfRulebook, Seed004Vietnam, Seed002Cxq],
            Topic::PerpetualCheck => &[Seed000Official, Seed002Cxq, Seed004Vietnam, AxfRulebook],
            Topic::PerpetualChase | Topic::Repetition => {
                &[Seed000Official, Seed004Vietnam, AxfRulebook]
            }
            Topic::NoProgress => &[Seed000Official, Seed001App, Seed002Cxq, Seed004Vietnam],
            Topic::EffectiveMoves => &[Seed002Cxq],
            Topic::MoveLimit => &[Seed000Official, Seed002Cxq],
            Topic::InsufficientMaterial => &[Seed000Official, Seed004Vietnam],
            Topic::DrawClaim => &[Seed004Vietnam, Seed000Official],
            Topic::Enforcement => &[Seed000Official, Seed001App],
            Topic::Official => &[Seed000Official],
            Topic::Asian => &[AxfRulebook, Seed002Cxq, Seed004Vietnam],
            Topic::Vietnam => &[Seed004Vietnam],
            Topic::Cxq => &[Seed002Cxq],
            Topic::Casual => &[Seed001App],
        }
    }
}

impl From<RulesetName> for Topic {
    /// The topic that explains a preset (for `/ruleset` to point at).
    fn from(name: RulesetName) -> Topic {
        match name {
            RulesetName::Official => Topic::Official,
            RulesetName::Asian => Topic::Asian,
            RulesetName::Vietnam => Topic::Vietnam,
            RulesetName::Cxq => Topic::Cxq,
            RulesetName::Casual => Topic::Casual,
        }
    }
}

impl fmt::Display for Topic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.slug())
    }
}

impl FromStr for Topic {
    type Err = ParseTopicError;

    /// Reads a slug or a synonym in English, Vietnamese (with or without diacritics) or Chinese
    /// (simplified or traditional), ignoring case and surrounding blanks.
    ///
    /// # Errors
    /// [`ParseTopicError`]: empty, longer than [`MAX_TOPIC_INPUT`] characters, or unknown.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse::parse_topic(s)
    }
}

impl ParseTopicError {
    /// What to tell the player, in `lang`.
    #[must_use]
    pub fn message(&self, lang: Lang) -> &'static str {
        catalogue(lang).unknown
    }
}

/// Everything one language provides.
struct Catalogue {
    title: fn(Topic) -> &'static str,
    body: fn(Topic) -> &'static str,
    /// "Source: " before the list of documents.
    source_label: &'static str,
    /// Between two documents.
    source_sep: &'static str,
    /// After the last one.
    source_end: &'static str,
    /// First line of the index.
    heading: &'static str,
    /// The group names, in [`Group::ALL`] order.
    groups: [&'static str; 5],
    /// Between two entries of a group.
    list_sep: &'static str,
    /// After a group's name.
    colon: &'static str,
    /// Around a title after its slug.
    parens: (&'static str, &'static str),
    /// Last line of the index: how to ask.
    hint: &'static str,
    /// Answer to a topic the parser does not know.
    unknown: &'static str,
}

fn catalogue(lang: Lang) -> &'static Catalogue {
    match lang {
        Lang::Vi => &vi::CATALOGUE,
        Lang::En => &en::CATALOGUE,
        Lang::Zh => &zh::CATALOGUE,
    }
}

/// The answer to `/rules TOPIC` in `lang`: the topic's title, its explanation and its sources;
/// with `None`, the index of every topic (slug and title, grouped) and how to ask.
#[must_use]
pub fn rulebook(topic: Option<Topic>, lang: Lang) -> String {
    let cat = catalogue(lang);
    match topic {
        Some(t) => {
            let sources: Vec<&str> = t.sources().iter().map(|&s| source_name(s, lang)).collect();
            format!(
                "{}\n{}\n{}{}{}",
                (cat.title)(t),
                (cat.body)(t),
                cat.source_label,
                sources.join(cat.source_sep),
                cat.source_end
            )
        }
        None => {
            let mut out = String::from(cat.heading);
            for g in Group::ALL {
                let entries: Vec<String> = Topic::ALL
                    .iter()
                    .filter(|t| t.group() == g)
                    .map(|&t| {
                        let title = (cat.title)(t);
                        // A title that only repeats the slug ("cannon (Cannon)") is left out.
                        if title.to_lowercase() == t.slug().replace('-', " ") {
                            t.slug().to_string()
                        } else {
                            format!("{}{}{title}{}", t.slug(), cat.parens.0, cat.parens.1)
                        }
                    })
                    .collect();
                out.push_str("\n• ");
                out.push_str(cat.groups[g.index()]);
                out.push_str(cat.colon);
                out.push_str(&entries.join(cat.list_sep));
            }
            out.push('\n');
            out.push_str(cat.hint);
            out
        }
    }
}

#[cfg(test)]
mod tests;
