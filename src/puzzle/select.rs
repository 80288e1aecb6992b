//! Choosing a puzzle: what a player asks for (`/puzzle mate hard`, `/puzzle xe`, `/puzzle
//! 1500`), read in any of the three languages, and a pick near their rating that the channel
//! has not seen lately; and the day's puzzle, the same everywhere on one day.

use super::{Puzzle, Theme};
use crate::core::mix64;

/// How far from the asked rating (or the solver's own) a puzzle may be.
pub const NEAR: u16 = 150;
/// Among how many of the nearest candidates the pick is made.
const WINDOW: usize = 24;

/// Which themes a word selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Any mate (`None`) or a mate in exactly this many moves.
    Mate(Option<u8>),
    /// One material theme.
    Theme(Theme),
    /// The composed endgames.
    Endgame,
}

/// What a player asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Themes (any of them); empty: every theme.
    pub kinds: Vec<Kind>,
    /// A rating range, inclusive.
    pub rating: Option<(u16, u16)>,
}

/// Whether `p` is one of the composed endgames (not cut from games).
#[must_use]
pub fn is_endgame(p: &Puzzle) -> bool {
    !p.id.starts_with('t')
}

impl Kind {
    fn matches(self, p: &Puzzle) -> bool {
        match self {
            Kind::Mate(None) => p.theme.is_mate(),
            Kind::Mate(Some(n)) => p.theme == Theme::MateIn(n),
            Kind::Theme(t) => p.theme == t,
            Kind::Endgame => is_endgame(p),
        }
    }
}

impl Filter {
    /// Whether `p` is what was asked for.
    #[must_use]
    pub fn matches(&self, p: &Puzzle) -> bool {
        (self.kinds.is_empty() || self.kinds.iter().any(|k| k.matches(p)))
            && self
                .rating
                .is_none_or(|(lo, hi)| (lo..=hi).contains(&p.rating))
    }
}

/// One word, lower case, without spaces and hyphens.
fn kind_of(w: &str) -> Option<Kind> {
    let mate_in = |rest: &str| -> Option<Kind> {
        if rest.is_empty() {
            return Some(Kind::Mate(None));
        }
        let n: u8 = rest.trim_start_matches("in").parse().ok()?;
        (1..=15).contains(&n).then_some(Kind::Mate(Some(n)))
    };
    let chinese_mate = |w: &str| -> Option<Kind> {
        let digits = w.strip_suffix("步杀").or_else(|| w.strip_suffix("步殺"))?;
        let n: u8 = digits.parse().ok()?;
        (1..=15).contains(&n).then_some(Kind::Mate(Some(n)))
    };
    match w {
        "chariot" | "rook" | "xe" | "车" | "車" => Some(Kind::Theme(Theme::WinChariot)),
        "cannon" | "phao" | "pháo" | "炮" | "砲" => Some(Kind::Theme(Theme::WinCannon)),
        "horse" | "knight" | "ma" | "mã" | "马" | "馬" => Some(Kind::Theme(Theme::WinHorse)),
        "material" | "quan" | "quân" | "hơnquân" | "honquan" | "得子" => {
            Some(Kind::Theme(Theme::WinMaterial))
        }
        "endgame" | "endgames" | "composed" | "tancuoc" | "tàncuộc" | "cờthế" | "cothe"
        | "残局" | "殘局" | "排局" => Some(Kind::Endgame),
        "杀" | "殺" | "将死" | "將死" => Some(Kind::Mate(None)),
        _ => {
            for prefix in ["mate", "chieuhet", "chiếuhết"] {
                if let Some(rest) = w.strip_prefix(prefix) {
                    return mate_in(rest);
                }
            }
            chinese_mate(w)
        }
    }
}

/// A difficulty word or a rating.
fn rating_of(w: &str) -> Option<(u16, u16)> {
    match w {
        "easy" | "de" | "dễ" | "简单" | "簡單" | "易" => Some((0, 1099)),
        "medium" | "normal" | "vua" | "vừa" | "trungbinh" | "trungbình" | "中等" | "中" => {
            Some((1100, 1599))
        }
        "hard" | "kho" | "khó" | "困难" | "困難" | "难" | "難" => Some((1600, 3000)),
        _ => {
            let r: u16 = w.parse().ok()?;
            (400..=3000)
                .contains(&r)
                .then(|| (r.saturating_sub(NEAR), r.saturating_add(NEAR)))
        }
    }
}

/// Read what was asked (`mate hard`, `xe`, `2步杀 1500`); `Err` names the first word that is
/// neither a theme nor a difficulty (at most 24 characters of it).
///
/// # Errors
/// The word not understood.
pub fn parse_filter(text: &str) -> Result<Filter, String> {
    let mut f = Filter::default();
    // "mate in 3" and "mate-in-3" read as one word.
    let joined = text.to_lowercase().replace(['-', '_'], " ");
    let mut words: Vec<String> = Vec::new();
    for w in joined.split_whitespace() {
        match words.last_mut() {
            Some(last)
                if last.starts_with("mate")
                    && (w == "in" || w.parse::<u8>().is_ok())
                    && !last.chars().last().is_some_and(|c| c.is_ascii_digit()) =>
            {
                last.push_str(w);
            }
            _ => words.push(w.to_string()),
        }
    }
    for w in &words {
        if let Some(k) = kind_of(w) {
            f.kinds.push(k);
        } else if let Some(r) = rating_of(w) {
            f.rating = Some(r);
        } else {
            return Err(w.chars().take(24).collect());
        }
    }
    Ok(f)
}

/// A puzzle matching `filter`, near `target` (the solver's rating, unless the filter names a
/// rating), not among `recent` if that leaves any: one of the nearest few, by `seed`.
#[must_use]
pub fn choose<'a>(
    set: &'a [Puzzle],
    filter: &Filter,
    target: f64,
    recent: &[String],
    seed: u64,
) -> Option<&'a Puzzle> {
    let matching: Vec<&Puzzle> = set.iter().filter(|p| filter.matches(p)).collect();
    let fresh: Vec<&Puzzle> = matching
        .iter()
        .copied()
        .filter(|p| !recent.contains(&p.id))
        .collect();
    let mut pool = if fresh.is_empty() { matching } else { fresh };
    // Far from the solver's rating only when the filter asked for no rating.
    let centre = filter
        .rating
        .map_or(target, |(lo, hi)| (f64::from(lo) + f64::from(hi)) / 2.0);
    pool.sort_by(|a, b| {
        let da = (f64::from(a.rating) - centre).abs();
        let db = (f64::from(b.rating) - centre).abs();
        da.total_cmp(&db).then_with(|| a.id.cmp(&b.id))
    });
    pool.truncate(WINDOW);
    let i = usize::try_from(mix64(seed) % pool.len().max(1) as u64).unwrap_or(0);
    pool.get(i).copied()
}

/// The puzzle of day `day` (days since 1970): the same for every channel that day, cycling
/// through the set in a fixed shuffled order.
#[must_use]
pub fn daily(set: &[Puzzle], day: u64) -> Option<&Puzzle> {
    if set.is_empty() {
        return None;
    }
    let n = set.len() as u64;
    // A step coprime with n visits every puzzle once per cycle.
    let mut step = mix64(0x5EED) % n;
    while step == 0 || gcd(step, n) != 1 {
        step = (step + 1) % n;
    }
    let i = (mix64(0xDA11) % n + day % n * step) % n;
    set.get(usize::try_from(i).ok()?)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::shipped;
    use proptest::prelude::*;

    #[test]
    fn words_in_three_languages() {
        let f = parse_filter("mate hard").unwrap();
        assert_eq!(f.kinds, vec![Kind::Mate(None)]);
        assert_eq!(f.rating, Some((1600, 3000)));
        assert_eq!(
            parse_filter("mate in 3").unwrap().kinds,
            vec![Kind::Mate(Some(3))]
        );
        assert_eq!(
            parse_filter("mate-in-2").unwrap().kinds,
            vec![Kind::Mate(Some(2))]
        );
        assert_eq!(
            parse_filter("Xe dễ").unwrap(),
            Filter {
                kinds: vec![Kind::Theme(Theme::WinChariot)],
                rating: Some((0, 1099)),
            }
        );
        assert_eq!(
            parse_filter("3步杀").unwrap().kinds,
            vec![Kind::Mate(Some(3))]
        );
        assert_eq!(parse_filter("残局").unwrap().kinds, vec![Kind::Endgame]);
        assert_eq!(parse_filter("1500").unwrap().rating, Some((1350, 1650)));
        assert_eq!(parse_filter("banana split"), Err("banana".into()));
        assert_eq!(parse_filter("").unwrap(), Filter::default());
    }

    #[test]
    fn a_choice_matches_and_avoids_what_was_seen() {
        let set = shipped();
        let f = parse_filter("chariot").unwrap();
        let p = choose(&set, &f, 1500.0, &[], 7).expect("a chariot puzzle");
        assert_eq!(p.theme, Theme::WinChariot);
        let seen = vec![p.id.clone()];
        for seed in 0..50 {
            let q = choose(&set, &f, 1500.0, &seen, seed).expect("another");
            assert_ne!(q.id, p.id);
        }
        let e = choose(&set, &parse_filter("endgame").unwrap(), 1500.0, &[], 1).unwrap();
        assert!(is_endgame(e));
        let easy = choose(&set, &parse_filter("easy").unwrap(), 2400.0, &[], 3).unwrap();
        assert!(easy.rating < 1100);
    }

    #[test]
    fn the_daily_puzzle_changes_every_day_and_is_the_same_on_one_day() {
        let set = shipped();
        let days: Vec<&str> = (20_000..20_030)
            .map(|d| daily(&set, d).unwrap().id.as_str())
            .collect();
        let distinct: std::collections::HashSet<&&str> = days.iter().collect();
        assert_eq!(distinct.len(), days.len());
        assert_eq!(daily(&set, 20_001).unwrap().id, days[1]);
    }

    proptest! {
        #[test]
        fn any_words_are_read_without_panicking(s in "\\PC{0,80}") {
            let _ = parse_filter(&s);
        }
    }
}
