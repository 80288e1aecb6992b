//! Message catalogues: Vietnamese, English, Chinese.

pub mod analysis;
pub mod app;
pub mod arbiter;
pub mod commands;
#[cfg(test)]
pub(crate) mod lint;
pub mod notation;
pub mod puzzle;
pub mod ratings;
pub mod rulebook;
pub mod tournament;
pub mod web;

use std::fmt;
use std::str::FromStr;

/// "Red"/"Black" in `lang` (the side, as a noun).
#[must_use]
pub fn side_name(c: crate::core::Color, lang: Lang) -> &'static str {
    use crate::core::Color;
    match (lang, c) {
        (Lang::En, Color::Red) => "Red",
        (Lang::En, Color::Black) => "Black",
        (Lang::Vi, Color::Red) => "Đỏ",
        (Lang::Vi, Color::Black) => "Đen",
        (Lang::Zh, Color::Red) => "红方",
        (Lang::Zh, Color::Black) => "黑方",
    }
}

/// A piece kind's name in `lang`, as that side's piece is called: Chinese names four of them
/// differently for Red and Black (帅/将, 仕/士, 相/象, 兵/卒).
#[must_use]
pub fn role_name(role: crate::core::Role, color: crate::core::Color, lang: Lang) -> &'static str {
    use crate::core::{Color, Role};
    match lang {
        Lang::En => role.name(),
        Lang::Vi => match role {
            Role::General => "Tướng",
            Role::Advisor => "Sĩ",
            Role::Elephant => "Tượng",
            Role::Horse => "Mã",
            Role::Chariot => "Xe",
            Role::Cannon => "Pháo",
            Role::Soldier => "Tốt",
        },
        Lang::Zh => match (role, color) {
            (Role::General, Color::Red) => "帅",
            (Role::General, Color::Black) => "将",
            (Role::Advisor, Color::Red) => "仕",
            (Role::Advisor, Color::Black) => "士",
            (Role::Elephant, Color::Red) => "相",
            (Role::Elephant, Color::Black) => "象",
            (Role::Horse, _) => "马",
            (Role::Chariot, _) => "车",
            (Role::Cannon, _) => "炮",
            (Role::Soldier, Color::Red) => "兵",
            (Role::Soldier, Color::Black) => "卒",
        },
    }
}

/// A piece with its side: `red cannon`, `Pháo Đỏ`, `红炮`.
#[must_use]
pub fn piece_name(p: crate::core::Piece, lang: Lang) -> String {
    let role = role_name(p.role, p.color, lang);
    match lang {
        Lang::En => format!("{} {role}", p.color.name()),
        Lang::Vi => format!("{role} {}", side_name(p.color, lang)),
        Lang::Zh => format!(
            "{}{role}",
            if p.color == crate::core::Color::Red {
                "红"
            } else {
                "黑"
            }
        ),
    }
}

/// A move as written (`written`) with its ICCS beside it: `C2.5 (h2e2)`, in Chinese with
/// full-width brackets (`炮二平五（h2e2）`), and once only when it is written in ICCS already
/// (`h2e2`, never `h2e2 (h2e2)`).
#[must_use]
pub fn with_iccs(written: &str, iccs: &str, lang: Lang) -> String {
    if written == iccs {
        written.to_string()
    } else if lang == Lang::Zh {
        format!("{written}（{iccs}）")
    } else {
        format!("{written} ({iccs})")
    }
}

/// A language the bot speaks.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    /// Tiếng Việt.
    Vi,
    /// English (the default).
    #[default]
    En,
    /// 中文 (simplified script in prose; traditional piece glyphs where customary).
    Zh,
}

impl Lang {
    /// All languages.
    pub const ALL: [Lang; 3] = [Lang::Vi, Lang::En, Lang::Zh];

    /// The short code: `vi`, `en`, `zh`.
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            Lang::Vi => "vi",
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// Best match for a BCP-47-ish tag such as `vi`, `en-US`, `zh-hans`, `zh_TW`.
    #[must_use]
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let t = tag.trim().to_ascii_lowercase();
        let base = t.split(['-', '_']).next().unwrap_or("");
        match base {
            "vi" | "vn" => Some(Lang::Vi),
            "en" => Some(Lang::En),
            "zh" | "cn" => Some(Lang::Zh),
            _ => None,
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Lang {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Lang::from_tag(s).ok_or_else(|| format!("unknown language {s:?}: use vi, en or zh"))
    }
}
