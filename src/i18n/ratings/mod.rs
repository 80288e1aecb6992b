//! Messages about ratings, leaderboards and statistics, in Vietnamese, English and Chinese.
//! Kept apart from the game messages ([`super::app`]); each language is a `match` in its own
//! file, so a missing message is a compile error.

mod en;
mod vi;
mod zh;

use super::Lang;
use crate::arbiter::Reason;
use crate::rating::{Change, Family, Glicko, NotRated, Stats, Wdl};

/// Where a leaderboard or rank is from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    /// This server or group.
    Here,
    /// A whole platform (its display name: `Discord`, `Telegram`, `console`).
    Platform(String),
}

/// A button about ratings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RatingLabel {
    /// Switch a challenge to rated.
    MakeRated,
    /// Switch a challenge to casual.
    MakeCasual,
}

/// A message about ratings.
#[derive(Clone, Debug, PartialEq)]
pub enum RatingMsg {
    /// The challenge or game is rated.
    RatedGame {
        /// Its family.
        family: Family,
    },
    /// The challenge is casual (and could be rated).
    CasualGame,
    /// A rated game was asked for and cannot be had.
    CannotRate {
        /// Why.
        why: NotRated,
    },
    /// Only the challenger switches a challenge between rated and casual.
    OnlyChallengerSwitches,
    /// The rating changes at the end of a rated game.
    Changes {
        /// Its family.
        family: Family,
        /// Red's name.
        red: String,
        /// Red's change.
        red_change: Change,
        /// Black's name.
        black: String,
        /// Black's change.
        black_change: Change,
        /// The weight it counted with (below 1 for repeated games).
        weight: f64,
    },
    /// A rated game that did not count.
    NotCounted {
        /// Why.
        why: NotRated,
    },
    /// `/rating`: the heading.
    RatingsOf {
        /// Whose.
        name: String,
        /// The platform's display name.
        platform: String,
    },
    /// `/rating`: one family.
    RatingRow {
        /// The family.
        family: Family,
        /// The rating as of now.
        rating: Glicko,
        /// Rated games.
        games: u32,
        /// Rank on the leaderboard, if listed.
        rank: Option<usize>,
        /// Where the rank is from.
        scope: Scope,
    },
    /// `/rating` for someone without rated games.
    NoRatings {
        /// Whose.
        name: String,
    },
    /// The rating graph's caption.
    GraphCaption {
        /// Whose.
        name: String,
        /// The family.
        family: Family,
        /// Games shown.
        games: usize,
    },
    /// `/top`: the heading.
    TopHeader {
        /// The family.
        family: Family,
        /// Where.
        scope: Scope,
        /// The page.
        page: usize,
    },
    /// `/top`: one row.
    TopRow {
        /// Rank.
        rank: usize,
        /// Name.
        name: String,
        /// Rating as of now.
        rating: Glicko,
        /// Rated games.
        games: u32,
    },
    /// `/top`: nobody listed.
    TopEmpty {
        /// The family.
        family: Family,
        /// Where.
        scope: Scope,
    },
    /// `/top`: the command for the next page.
    TopMore {
        /// The command.
        next: String,
    },
    /// A word `/rating`, `/top` or `/stats` does not read.
    BadArgument {
        /// The word (bounded).
        word: String,
        /// The command's usage.
        usage: &'static str,
    },
    /// `/stats` of one player.
    StatsOf {
        /// Whose.
        name: String,
        /// Their statistics.
        stats: Box<Stats>,
    },
    /// `/stats` of a player without games.
    NoStats {
        /// Whose.
        name: String,
    },
    /// `/stats @a @b`.
    HeadToHead {
        /// The first player.
        a: String,
        /// The second.
        b: String,
        /// Results seen by the first.
        wdl: Wdl,
        /// Of which as Red.
        a_as_red: Wdl,
    },
    /// `/stats @a @b` for two who never played.
    NoHeadToHead {
        /// The first player.
        a: String,
        /// The second.
        b: String,
    },
    /// `@name` is nobody the bot knows.
    UnknownPlayer {
        /// As typed (bounded).
        who: String,
    },
    /// A button label.
    Label(RatingLabel),
}

/// The message in `lang`.
#[must_use]
pub fn text(m: &RatingMsg, lang: Lang) -> String {
    match lang {
        Lang::Vi => vi::text(m),
        Lang::En => en::text(m),
        Lang::Zh => zh::text(m),
    }
}

/// A family's name in `lang`.
#[must_use]
pub fn family_name(f: Family, lang: Lang) -> &'static str {
    let (vi, en, zh) = match f {
        Family::Bullet => ("Siêu chớp", "Bullet", "子弹棋"),
        Family::Blitz => ("Cờ chớp", "Blitz", "超快棋"),
        Family::Rapid => ("Cờ nhanh", "Rapid", "快棋"),
        Family::Classical => ("Cờ chậm", "Classical", "慢棋"),
        Family::Correspondence => ("Cờ thư tín", "Correspondence", "通讯棋"),
    };
    match lang {
        Lang::Vi => vi,
        Lang::En => en,
        Lang::Zh => zh,
    }
}

/// How a game ended, as a short phrase for statistics.
#[must_use]
pub fn ending_name(reason: &str, lang: Lang) -> String {
    let own = match reason {
        "resignation" => Some(("xin thua", "resignation", "认输")),
        "agreement" => Some(("thỏa thuận hòa", "agreed draw", "议和")),
        "timeout" => Some(("hết giờ", "time", "超时")),
        // An untimed game claimed by the player left waiting (`/claim win`).
        "abandonment" => Some(("bỏ ván", "abandoned", "弃局")),
        _ => None,
    };
    if let Some((vi, en, zh)) = own {
        return match lang {
            Lang::Vi => vi,
            Lang::En => en,
            Lang::Zh => zh,
        }
        .to_string();
    }
    Reason::ALL
        .iter()
        .find(|r| r.as_str() == reason)
        .map_or_else(
            || reason.chars().take(32).collect(),
            |r| {
                // The rulebook's phrase without its explanation in brackets.
                let t = super::arbiter::reason_text(*r, lang);
                t.split(" (")
                    .next()
                    .unwrap_or(t)
                    .split('（')
                    .next()
                    .unwrap_or(t)
                    .to_string()
            },
        )
}

/// The results by ending, `name won-drawn-lost`, joined with `sep` (empty without games).
fn by_ending(s: &Stats, lang: Lang, sep: &str) -> String {
    s.by_ending
        .iter()
        .map(|(r, w)| {
            format!(
                "{} {}-{}-{}",
                ending_name(r, lang),
                w.wins,
                w.draws,
                w.losses
            )
        })
        .collect::<Vec<_>>()
        .join(sep)
}

/// A rating as shown: `1662`, or `1662?` while provisional.
#[must_use]
pub fn shown(g: Glicko) -> String {
    if g.provisional() {
        format!("{}?", g.shown())
    } else {
        g.shown().to_string()
    }
}

/// A change as shown: `+12`, `−12`, `±0`.
#[must_use]
pub fn signed(d: i64) -> String {
    match d {
        0 => "±0".into(),
        d if d > 0 => format!("+{d}"),
        d => format!("−{}", d.unsigned_abs()),
    }
}

/// A platform's display name from a player id's prefix.
#[must_use]
pub fn platform_name(scope: &str) -> String {
    use crate::platform::Platform;
    match Platform::from_scope(scope) {
        Some(p) if p != Platform::Console => p.name().into(),
        _ => scope.chars().take(24).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rating::{RatedOutcome, Score};

    fn samples() -> Vec<RatingMsg> {
        let g = Glicko {
            rating: 1612.4,
            deviation: 80.0,
            volatility: 0.06,
        };
        let change = Change {
            before: Glicko::default(),
            after: g,
        };
        let mut stats = Stats::default();
        stats.record(Score::Win, true, "checkmate", true, 1);
        stats.record(Score::Loss, false, "perpetual_check", false, 2);
        let _ = RatedOutcome::Casual;
        let mut all = vec![
            RatingMsg::RatedGame {
                family: Family::Blitz,
            },
            RatingMsg::CasualGame,
            RatingMsg::OnlyChallengerSwitches,
            RatingMsg::Changes {
                family: Family::Rapid,
                red: "An".into(),
                red_change: change,
                black: "Bo".into(),
                black_change: change,
                weight: 0.5,
            },
            RatingMsg::RatingsOf {
                name: "An".into(),
                platform: "Discord".into(),
            },
            RatingMsg::RatingRow {
                family: Family::Classical,
                rating: g,
                games: 3,
                rank: Some(2),
                scope: Scope::Here,
            },
            RatingMsg::RatingRow {
                family: Family::Classical,
                rating: Glicko::default(),
                games: 1,
                rank: None,
                scope: Scope::Platform("Telegram".into()),
            },
            RatingMsg::NoRatings { name: "An".into() },
            RatingMsg::GraphCaption {
                name: "An".into(),
                family: Family::Bullet,
                games: 4,
            },
            RatingMsg::TopHeader {
                family: Family::Blitz,
                scope: Scope::Here,
                page: 2,
            },
            RatingMsg::TopRow {
                rank: 1,
                name: "An".into(),
                rating: g,
                games: 9,
            },
            RatingMsg::TopEmpty {
                family: Family::Blitz,
                scope: Scope::Platform("Discord".into()),
            },
            RatingMsg::TopMore {
                next: "/top blitz 3".into(),
            },
            RatingMsg::BadArgument {
                word: "zz".into(),
                usage: "/top",
            },
            RatingMsg::StatsOf {
                name: "An".into(),
                stats: Box::new(stats),
            },
            RatingMsg::NoStats { name: "An".into() },
            RatingMsg::HeadToHead {
                a: "An".into(),
                b: "Bo".into(),
                wdl: Wdl {
                    wins: 2,
                    draws: 1,
                    losses: 0,
                },
                a_as_red: Wdl::default(),
            },
            RatingMsg::NoHeadToHead {
                a: "An".into(),
                b: "Bo".into(),
            },
            RatingMsg::UnknownPlayer { who: "@x".into() },
            RatingMsg::Label(RatingLabel::MakeRated),
            RatingMsg::Label(RatingLabel::MakeCasual),
        ];
        for why in [
            NotRated::NoClock,
            NotRated::CasualRules,
            NotRated::SetUp,
            NotRated::Bot,
            NotRated::Aborted,
            NotRated::TooFewMoves,
            NotRated::Farming,
        ] {
            all.push(RatingMsg::CannotRate { why });
            all.push(RatingMsg::NotCounted { why });
        }
        all
    }

    #[test]
    fn every_message_reads_in_every_language() {
        for m in samples() {
            let texts: Vec<String> = Lang::ALL.iter().map(|&l| text(&m, l)).collect();
            for t in &texts {
                assert!(!t.trim().is_empty(), "{m:?}");
                for word in ["NotRated", "Family::", "Some(", "None", "{", "}"] {
                    assert!(!t.contains(word), "{m:?}: {t}");
                }
            }
            if !matches!(m, RatingMsg::TopMore { .. }) {
                assert!(
                    texts[0] != texts[1] && texts[1] != texts[2],
                    "{m:?}: {texts:?}"
                );
            }
        }
    }

    #[test]
    fn chinese_messages_use_full_width_punctuation() {
        for m in samples() {
            crate::i18n::lint::assert_zh_punctuation(&text(&m, Lang::Zh), &format!("{m:?}"));
        }
    }

    #[test]
    fn numbers_as_players_read_them() {
        assert_eq!(signed(12), "+12");
        assert_eq!(signed(-12), "−12");
        assert_eq!(signed(0), "±0");
        assert_eq!(shown(Glicko::default()), "1500?");
        assert_eq!(ending_name("perpetual_check", Lang::En), "perpetual check");
        assert_eq!(ending_name("timeout", Lang::Zh), "超时");
        assert_eq!(ending_name("abandonment", Lang::En), "abandoned");
        for f in Family::ALL {
            let names: Vec<&str> = Lang::ALL.iter().map(|&l| family_name(f, l)).collect();
            assert!(names.iter().all(|n| !n.is_empty()));
        }
        // Correspondence chess is "cờ thư tín" in Vietnamese; "cờ thư" alone is not a name.
        assert_eq!(family_name(Family::Correspondence, Lang::Vi), "Cờ thư tín");
    }
}
