//! Message catalogues: Vietnamese, English, Chinese.

pub mod app;
pub mod arbiter;
pub mod commands;
pub mod notation;
pub mod rulebook;

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
