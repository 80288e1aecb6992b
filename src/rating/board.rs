//! Leaderboards: who is listed, in what order, and a page or a rank read off the ordered
//! entries without looking at more of them than needed.
//!
//! A leaderboard lists the players of a scope (a Discord server, a Telegram group, or a whole
//! platform) in one family, highest rating first, but only those with an established rating
//! (deviation, grown to today, under 110) who played a rated game of that family in the last
//! 30 days. Entries are stored in rating order; who is listed depends on today's date, so it
//! is decided while reading.

use super::glicko::Glicko;

/// Players who have not played a rated game of the family for this long are not listed.
pub const ACTIVE_MS: u64 = 30 * 24 * 3600 * 1000;

/// Players per page.
pub const PAGE: usize = 10;

/// Deepest page served (keeps every answer bounded).
pub const MAX_PAGE: usize = 1000;

/// One player on a leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The player's id.
    pub player: String,
    /// Their display name.
    pub name: String,
    /// Their rating as of their last game.
    pub glicko: Glicko,
    /// Rated games in the family.
    pub games: u32,
    /// When the last one ended.
    pub last_ms: u64,
}

impl Entry {
    /// The stored value (the player id is in the key): rating, deviation and volatility (f64),
    /// last game (u64), games (u32), all big-endian, then the name.
    #[must_use]
    pub fn encode(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(36 + self.name.len());
        v.extend_from_slice(&self.glicko.rating.to_be_bytes());
        v.extend_from_slice(&self.glicko.deviation.to_be_bytes());
        v.extend_from_slice(&self.glicko.volatility.to_be_bytes());
        v.extend_from_slice(&self.last_ms.to_be_bytes());
        v.extend_from_slice(&self.games.to_be_bytes());
        v.extend_from_slice(self.name.as_bytes());
        v
    }

    /// Read a stored value back.
    #[must_use]
    pub fn decode(player: String, v: &[u8]) -> Option<Entry> {
        let f = |i: usize| -> Option<f64> {
            Some(f64::from_be_bytes(v.get(i..i + 8)?.try_into().ok()?))
        };
        Some(Entry {
            player,
            glicko: Glicko {
                rating: f(0)?,
                deviation: f(8)?,
                volatility: f(16)?,
            },
            last_ms: u64::from_be_bytes(v.get(24..32)?.try_into().ok()?),
            games: u32::from_be_bytes(v.get(32..36)?.try_into().ok()?),
            name: String::from_utf8_lossy(v.get(36..)?).into_owned(),
        })
    }

    /// Whether the player is listed at `now_ms`.
    #[must_use]
    pub fn listed(&self, now_ms: u64) -> bool {
        let idle = now_ms.saturating_sub(self.last_ms);
        idle <= ACTIVE_MS && !self.glicko.after_idle(idle).provisional()
    }
}

/// A page being read off a leaderboard.
#[derive(Debug)]
pub struct PageReader {
    now_ms: u64,
    skip: usize,
    /// The rows of the page, with their ranks (from 1).
    pub rows: Vec<(usize, Entry)>,
    /// Whether a further page has at least one player.
    pub more: bool,
    listed: usize,
}

impl PageReader {
    /// Read page `page` (from 1) as of `now_ms`.
    #[must_use]
    pub fn new(page: usize, now_ms: u64) -> PageReader {
        PageReader {
            now_ms,
            skip: (page.clamp(1, MAX_PAGE) - 1) * PAGE,
            rows: Vec::new(),
            more: false,
            listed: 0,
        }
    }

    /// Look at the next entry in order; `false` once the page is complete.
    pub fn visit(&mut self, e: Entry) -> bool {
        if !e.listed(self.now_ms) {
            return true;
        }
        if self.rows.len() == PAGE {
            self.more = true;
            return false;
        }
        self.listed += 1;
        if self.listed > self.skip {
            self.rows.push((self.listed, e));
        }
        true
    }
}

/// A player's rank, read off a leaderboard.
#[derive(Debug)]
pub struct RankReader<'a> {
    player: &'a str,
    now_ms: u64,
    above: usize,
    /// The rank (from 1), once found; none if the player is not listed.
    pub rank: Option<usize>,
}

impl<'a> RankReader<'a> {
    /// Look for `player` as of `now_ms`.
    #[must_use]
    pub fn new(player: &'a str, now_ms: u64) -> RankReader<'a> {
        RankReader {
            player,
            now_ms,
            above: 0,
            rank: None,
        }
    }

    /// Look at the next entry in order; `false` once the player is found.
    pub fn visit(&mut self, e: &Entry) -> bool {
        if e.player == self.player {
            if e.listed(self.now_ms) {
                self.rank = Some(self.above + 1);
            }
            return false;
        }
        if e.listed(self.now_ms) {
            self.above += 1;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: u64 = 86_400_000;

    fn entry(player: &str, rating: f64, deviation: f64, last_ms: u64) -> Entry {
        Entry {
            player: player.into(),
            name: player.to_uppercase(),
            glicko: Glicko {
                rating,
                deviation,
                volatility: 0.06,
            },
            games: 12,
            last_ms,
        }
    }

    #[test]
    fn values_round_trip() {
        let e = entry("dc:1", 1712.5, 61.0, 99);
        assert_eq!(Entry::decode("dc:1".into(), &e.encode()), Some(e));
        assert_eq!(Entry::decode("x".into(), &[1, 2, 3]), None);
    }

    #[test]
    fn only_established_and_recent_players_are_listed() {
        let now = 100 * DAY;
        assert!(entry("a", 1600.0, 60.0, now - DAY).listed(now));
        assert!(!entry("a", 1600.0, 120.0, now).listed(now), "provisional");
        assert!(
            !entry("a", 1600.0, 60.0, now - 31 * DAY).listed(now),
            "inactive"
        );
        // Close to the line, the deviation grown to today decides.
        assert!(entry("a", 1600.0, 109.0, now).listed(now));
        assert!(!entry("a", 1600.0, 109.0, now - 29 * DAY).listed(now));
    }

    #[test]
    fn pages_and_ranks_skip_unlisted_players() {
        let now = 100 * DAY;
        let all: Vec<Entry> = (0..25)
            .map(|i| {
                let dev = if i % 5 == 0 { 200.0 } else { 50.0 };
                entry(&format!("p{i}"), 2000.0 - i as f64, dev, now)
            })
            .collect();
        let mut page = PageReader::new(2, now);
        for e in all.iter().cloned() {
            if !page.visit(e) {
                break;
            }
        }
        // 20 of 25 are listed: page 2 holds ranks 11..=20 and nothing follows.
        let ranks: Vec<usize> = page.rows.iter().map(|(r, _)| *r).collect();
        assert_eq!(ranks, (11..=20).collect::<Vec<_>>());
        assert!(!page.more);
        assert_eq!(page.rows[0].1.player, "p13");
        let mut first = PageReader::new(1, now);
        for e in all.iter().cloned() {
            if !first.visit(e) {
                break;
            }
        }
        assert!(first.more);
        let mut rank = RankReader::new("p7", now);
        for e in &all {
            if !rank.visit(e) {
                break;
            }
        }
        assert_eq!(rank.rank, Some(6));
        let mut unlisted = RankReader::new("p5", now);
        for e in &all {
            if !unlisted.visit(e) {
                break;
            }
        }
        assert_eq!(unlisted.rank, None);
    }
}
