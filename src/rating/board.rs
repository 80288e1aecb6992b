//! Leaderboards: who is listed, in what order, and a page or a rank read off the ordered
//! entries without looking at more of them than needed.
//!
//! A leaderboard lists the players of a scope (a Discord server, a Telegram group, or a whole
//! platform) in one family, highest rating first, but only those with an established rating
//! (deviation, grown to today, under 110) who played a rated game of that family in the last
//! 30 days. Entries are stored in rating order; who is listed depends on today's date, so it
//! is decided while reading.
//!
//! A deep page or a low rank must not read every entry above it. Each entry leaves the board
//! at a moment known when it is written ([`Entry::until_ms`]: 30 days after the game, or
//! earlier when the deviation grows back to provisional), so the board is cut into
//! [`BAND_WIDTH`]-wide rating bands, each storing the sorted moments its entries leave. How
//! many players a band lists today is a binary search in one small record: a reader adds up
//! whole bands to reach its page or rank, then reads the entries of one band only.

use super::glicko::Glicko;

/// Players who have not played a rated game of the family for this long are not listed.
pub const ACTIVE_MS: u64 = 30 * 24 * 3600 * 1000;

/// Players per page.
pub const PAGE: usize = 10;

/// Deepest page served (keeps every answer bounded).
pub const MAX_PAGE: usize = 1000;

/// Width of a leaderboard band, in hundredths of a rating point (5 points).
pub const BAND_WIDTH: u32 = 500;

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

    /// The first moment the player is no longer listed: [`Entry::listed`] holds exactly
    /// before it (0: never listed). The deviation only grows with idle time, so the longest
    /// idle time still listed is found by bisection on the same test.
    #[must_use]
    pub fn until_ms(&self) -> u64 {
        let settled = |idle: u64| !self.glicko.after_idle(idle).provisional();
        if !settled(0) {
            return 0;
        }
        let (mut ok, mut bad) = (0, ACTIVE_MS + 1);
        if settled(ACTIVE_MS) {
            ok = ACTIVE_MS;
        } else {
            while bad - ok > 1 {
                let mid = ok + (bad - ok) / 2;
                if settled(mid) {
                    ok = mid;
                } else {
                    bad = mid;
                }
            }
        }
        self.last_ms.saturating_add(ok).saturating_add(1)
    }
}

/// One band of a leaderboard: the moments its entries leave the board, sorted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Band(Vec<u64>);

impl Band {
    /// Read a stored band (big-endian u64s); a damaged tail is ignored.
    #[must_use]
    pub fn decode(v: &[u8]) -> Band {
        let mut until: Vec<u64> = v
            .chunks_exact(8)
            .filter_map(|c| c.try_into().ok().map(u64::from_be_bytes))
            .collect();
        until.sort_unstable();
        Band(until)
    }

    /// The stored form.
    #[must_use]
    pub fn encode(&self) -> Vec<u8> {
        self.0.iter().flat_map(|u| u.to_be_bytes()).collect()
    }

    /// An entry listed until `until` joins the band.
    pub fn add(&mut self, until: u64) {
        let i = self.0.partition_point(|&u| u < until);
        self.0.insert(i, until);
    }

    /// An entry listed until `until` leaves the band (one of them, if several match).
    pub fn remove(&mut self, until: u64) {
        if let Ok(i) = self.0.binary_search(&until) {
            self.0.remove(i);
        }
    }

    /// Whether no entry is left.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many of its entries are listed at `now_ms`.
    #[must_use]
    pub fn listed(&self, now_ms: u64) -> usize {
        self.0.len() - self.0.partition_point(|&u| u <= now_ms)
    }
}

/// A page being read off a leaderboard.
#[derive(Debug)]
pub struct PageReader {
    /// The rank of the page's first row.
    pub first: usize,
    /// The rows of the page, with their ranks (from 1).
    pub rows: Vec<(usize, Entry)>,
    /// Whether a further page has at least one player.
    pub more: bool,
}

impl PageReader {
    /// Read page `page` (from 1): the walk starts at rank [`PageReader::first`].
    #[must_use]
    pub fn new(page: usize) -> PageReader {
        PageReader {
            first: (page.clamp(1, MAX_PAGE) - 1) * PAGE + 1,
            rows: Vec::new(),
            more: false,
        }
    }

    /// Look at the next listed entry and its rank; `false` once the page is complete.
    pub fn visit(&mut self, rank: usize, e: Entry) -> bool {
        if self.rows.len() == PAGE {
            self.more = true;
            return false;
        }
        self.rows.push((rank, e));
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
    fn an_entry_is_listed_exactly_until_its_moment() {
        let now = 100 * DAY;
        for dev in [45.0, 60.0, 90.0, 105.0, 109.9, 110.0, 250.0] {
            for vol in [0.04, 0.06, 0.09, 0.2] {
                let mut e = entry("a", 1600.0, dev, now);
                e.glicko.volatility = vol;
                let until = e.until_ms();
                // Before its game, on the day, through the whole month and past it.
                let around = [until.saturating_sub(1), until];
                for at in (0..35 * DAY)
                    .step_by(3_600_017)
                    .map(|t| now - DAY + t)
                    .chain(around)
                {
                    assert_eq!(e.listed(at), at < until, "dev {dev} vol {vol} at {at}");
                }
            }
        }
        assert_eq!(entry("a", 1600.0, 130.0, now).until_ms(), 0);
    }

    #[test]
    fn a_band_counts_its_listed_entries() {
        let mut band = Band::default();
        for u in [50, 10, 30, 30, 20] {
            band.add(u);
        }
        assert_eq!(Band::decode(&band.encode()), band);
        assert_eq!(band.listed(0), 5);
        assert_eq!(band.listed(10), 4, "listed strictly before its moment");
        assert_eq!(band.listed(30), 1);
        band.remove(30);
        band.remove(99);
        assert_eq!(band.listed(29), 2);
        for u in [10, 20, 30, 50] {
            band.remove(u);
        }
        assert!(band.is_empty());
    }

    #[test]
    fn a_page_starts_at_its_rank_and_knows_if_more_follow() {
        let mut page = PageReader::new(2);
        assert_eq!(page.first, 11);
        for r in 11..=21 {
            if !page.visit(r, entry("p", 1500.0, 50.0, 0)) {
                break;
            }
        }
        assert_eq!(page.rows.len(), PAGE);
        assert!(page.more);
        assert_eq!(PageReader::new(0).first, 1);
        assert_eq!(PageReader::new(usize::MAX).first, (MAX_PAGE - 1) * PAGE + 1);
    }
}
