//! Match statistics: W/D/L, score, and the Elo difference with its 95% interval.
//!
//! Games are played in pairs (one opening, colours swapped), and the two games of a pair are not
//! independent: an opening that favours Red helps each engine once. So the interval comes from
//! the **pentanomial** variance: the spread of the pair scores (0, ½, 1, 1½ or 2 points per pair)
//! around the mean, as Fishtest and fastchess compute it. The trinomial variance (of single
//! games: win, draw, loss) is reported too, and used when the games cannot be paired (an odd
//! game out is left out of the pentanomial figure).

use std::fmt;

/// A game's result from player A's view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameScore {
    /// A won.
    Win,
    /// A draw.
    Draw,
    /// A lost.
    Loss,
}

impl GameScore {
    /// Points for A: 1, ½ or 0.
    #[must_use]
    pub fn points(self) -> f64 {
        match self {
            GameScore::Win => 1.0,
            GameScore::Draw => 0.5,
            GameScore::Loss => 0.0,
        }
    }
}

/// The summary of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchStats {
    /// A's wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// A's losses.
    pub losses: u32,
    /// A's score, 0..=1.
    pub score: f64,
    /// Elo difference (A − B) from the score; infinite at a score of 0 or 1.
    pub elo: f64,
    /// 95% interval of the Elo difference (pentanomial when the games pair up).
    pub elo_low: f64,
    /// Upper end of the interval.
    pub elo_high: f64,
    /// Whether the interval is pentanomial (`true`) or trinomial.
    pub pentanomial: bool,
    /// Pair counts by points: 0, ½, 1, 1½, 2 (the pentanomial distribution).
    pub pairs: [u32; 5],
}

/// The Elo difference that gives an expected score `s`.
#[must_use]
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

const Z95: f64 = 1.959_963_985;

impl MatchStats {
    /// The statistics of `games` in play order: games `2k` and `2k+1` are a pair (same opening,
    /// colours swapped).
    #[must_use]
    pub fn new(games: &[GameScore]) -> MatchStats {
        let count = |g: GameScore| {
            u32::try_from(games.iter().filter(|&&x| x == g).count()).unwrap_or(u32::MAX)
        };
        let (wins, draws, losses) = (
            count(GameScore::Win),
            count(GameScore::Draw),
            count(GameScore::Loss),
        );
        let n = games.len() as f64;
        let score = if games.is_empty() {
            0.5
        } else {
            games.iter().map(|g| g.points()).sum::<f64>() / n
        };
        let mut pairs = [0u32; 5];
        let pair_points: Vec<f64> = games
            .chunks_exact(2)
            .map(|p| p[0].points() + p[1].points())
            .collect();
        for &p in &pair_points {
            // p is one of 0, 0.5, ..., 2: twice it is an index 0..=4.
            let i = (p * 2.0).round() as usize;
            pairs[i.min(4)] += 1;
        }
        let pentanomial = !pair_points.is_empty() && games.len().is_multiple_of(2);
        let se = if pentanomial {
            let m = pair_points.len() as f64;
            let mean = pair_points.iter().sum::<f64>() / (2.0 * m);
            let var = pair_points
                .iter()
                .map(|p| (p / 2.0 - mean).powi(2))
                .sum::<f64>()
                / m;
            (var / m).sqrt()
        } else if games.is_empty() {
            0.0
        } else {
            let var = games
                .iter()
                .map(|g| (g.points() - score).powi(2))
                .sum::<f64>()
                / n;
            (var / n).sqrt()
        };
        // One pair (or one game) says nothing about the spread: the interval is unbounded.
        let too_few = if pentanomial {
            pair_points.len() < 2
        } else {
            games.len() < 2
        };
        let (low, high) = if too_few {
            (0.0, 1.0)
        } else {
            (score - Z95 * se, score + Z95 * se)
        };
        MatchStats {
            wins,
            draws,
            losses,
            score,
            elo: elo_from_score(score),
            elo_low: elo_from_score(low),
            elo_high: elo_from_score(high),
            pentanomial,
            pairs,
        }
    }

    /// Games counted.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
}

fn elo_text(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        // + 0.0 turns -0 into 0, so an even match does not print "-0".
        format!("{:+.0}", e + 0.0)
    }
}

impl fmt::Display for MatchStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "W {} D {} L {} ({} games), score {:.1}%, Elo {} [{}, {}] (95%, {})",
            self.wins,
            self.draws,
            self.losses,
            self.games(),
            self.score * 100.0,
            elo_text(self.elo),
            elo_text(self.elo_low),
            elo_text(self.elo_high),
            if self.pentanomial {
                "pentanomial"
            } else {
                "trinomial"
            }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::GameScore::{Draw, Loss, Win};
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        assert!((elo_from_score(0.5)).abs() < 1e-9);
        assert!((elo_from_score(0.75) - 190.848).abs() < 0.01);
        assert!((elo_from_score(0.25) + 190.848).abs() < 0.01);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
    }

    #[test]
    fn pairs_and_intervals() {
        let games = [Win, Loss, Win, Draw, Draw, Draw, Win, Win];
        let s = MatchStats::new(&games);
        assert_eq!((s.wins, s.draws, s.losses), (4, 3, 1));
        assert!((s.score - 0.6875).abs() < 1e-9);
        assert_eq!(s.pairs, [0, 0, 2, 1, 1]);
        assert!(s.pentanomial);
        assert!(s.elo_low < s.elo && s.elo < s.elo_high);
        // Pair scores 0.5, 0.75, 0.5, 1.0 around 0.6875: variance 0.04296875 over 4 pairs.
        let se = (0.042_968_75f64 / 4.0).sqrt();
        assert!((s.elo_high - elo_from_score(0.6875 + Z95 * se)).abs() < 1e-6);
        let odd = MatchStats::new(&games[..7]);
        assert!(!odd.pentanomial);
        let all_won = MatchStats::new(&[Win, Win]);
        assert_eq!(all_won.elo, f64::INFINITY);
        let one_pair = MatchStats::new(&[Win, Draw]);
        assert_eq!(
            (one_pair.elo_low, one_pair.elo_high),
            (f64::NEG_INFINITY, f64::INFINITY)
        );
        assert!(all_won.to_string().contains("+inf"), "{all_won}");
        assert_eq!(MatchStats::new(&[]).games(), 0);
    }
}
