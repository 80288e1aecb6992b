//! Scores, tie-breaks and the table of a tournament.
//!
//! Swiss and round robin count half-points (a win 2, a draw 1, a Swiss bye 2: one point).
//! Ties are broken, in order, by Buchholz (the sum of the opponents' scores), median
//! Buchholz (the same without the best and the worst of them, with five games or more;
//! without the best alone with fewer) and Sonneborn–Berger (the scores of the opponents
//! beaten, and half those drawn with), then by the number of wins and the seeding
//! rating. Games not played out (a withdrawn player's scheduled game, a bye) count in the
//! score but bring no opponent to the Buchholz sums. An arena counts as lichess does: a win 2,
//! a draw 1, each doubled once a player has won two in a row, until their next game that is
//! not a win, and a berserk win one more; ties are broken by wins, then by fewer games.

use super::{Format, GameResult, Tournament};

/// One line of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The entrant.
    pub entrant: usize,
    /// Swiss and round robin: half-points; arena: points.
    pub score: u32,
    /// Games played (results that were not played out included).
    pub games: u32,
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// Buchholz, median Buchholz and Sonneborn–Berger, in quarter-points (Sonneborn–Berger
    /// counts half an opponent's half-points for a draw); zeros in an arena.
    pub tiebreaks: [u32; 3],
    /// Arena: on a streak of two wins or more (their next win counts double).
    pub on_fire: bool,
}

/// Each entrant's score, in half-points (Swiss, round robin) or points (arena).
#[must_use]
pub fn scores(t: &Tournament) -> Vec<u32> {
    match t.format {
        Format::Arena { .. } => arena(t).into_iter().map(|(s, _)| s).collect(),
        _ => halves(t),
    }
}

fn halves(t: &Tournament) -> Vec<u32> {
    let mut s = vec![0; t.players.len()];
    for p in &t.pairings {
        if let Some(r) = p.result {
            let (red, black) = r.halves();
            s[p.red] += red;
            s[p.black] += black;
        }
    }
    if matches!(t.format, Format::Swiss { .. }) {
        for &(_, i) in &t.byes {
            s[i] += 2;
        }
    }
    s
}

/// Arena points and whether each player is on fire.
fn arena(t: &Tournament) -> Vec<(u32, bool)> {
    let mut ended: Vec<&super::Pairing> = t.pairings.iter().filter(|p| !p.in_play()).collect();
    ended.sort_by_key(|p| p.ended_ms);
    let mut out = vec![(0u32, false); t.players.len()];
    let mut streak = vec![0u32; t.players.len()];
    for p in ended {
        let Some(r) = p.result else { continue };
        for (i, berserk, won, drew) in [
            (
                p.red,
                p.berserk.0,
                r == GameResult::Red,
                r == GameResult::Draw,
            ),
            (
                p.black,
                p.berserk.1,
                r == GameResult::Black,
                r == GameResult::Draw,
            ),
        ] {
            let fire = streak[i] >= 2;
            let base = if won { 2 } else { u32::from(drew) };
            out[i].0 += if fire { base * 2 } else { base } + u32::from(won && berserk);
            streak[i] = if won { streak[i] + 1 } else { 0 };
        }
    }
    for (i, o) in out.iter_mut().enumerate() {
        o.1 = streak[i] >= 2;
    }
    out
}

/// The table, best first.
#[must_use]
pub fn table(t: &Tournament) -> Vec<Row> {
    let scores = scores(t);
    let fire = match t.format {
        Format::Arena { .. } => arena(t).into_iter().map(|(_, f)| f).collect(),
        _ => vec![false; t.players.len()],
    };
    let mut rows: Vec<Row> = (0..t.players.len())
        .map(|i| Row {
            entrant: i,
            score: scores[i],
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            tiebreaks: [0; 3],
            on_fire: fire[i],
        })
        .collect();
    // Opponents' scores per player (played games only), and Sonneborn–Berger.
    let mut met: Vec<Vec<u32>> = vec![Vec::new(); t.players.len()];
    for p in &t.pairings {
        let Some(r) = p.result else { continue };
        let (red, black) = r.halves();
        for (i, mine) in [(p.red, red), (p.black, black)] {
            let row = &mut rows[i];
            row.games += 1;
            match mine {
                2 => row.wins += 1,
                1 => row.draws += 1,
                _ => row.losses += 1,
            }
            if p.forfeit {
                continue;
            }
            let opp = scores[p.opponent(i)];
            met[i].push(opp);
            // Sonneborn–Berger: the opponent's score for a win, half of it for a draw.
            row.tiebreaks[2] += opp * mine;
        }
    }
    if !matches!(t.format, Format::Arena { .. }) {
        for row in &mut rows {
            let opps = &mut met[row.entrant];
            opps.sort_unstable();
            row.tiebreaks[0] = 2 * opps.iter().sum::<u32>();
            let cut: &[u32] = match opps.len() {
                0 | 1 => &[],
                n if n >= 5 => &opps[1..n - 1],
                n => &opps[..n - 1],
            };
            row.tiebreaks[1] = 2 * cut.iter().sum::<u32>();
        }
    } else {
        for row in &mut rows {
            row.tiebreaks = [0; 3];
        }
    }
    let rating = |i: usize| t.players[i].rating;
    let arena_format = matches!(t.format, Format::Arena { .. });
    rows.sort_by(|a, b| {
        b.score
            .cmp(&a.score)
            .then(b.tiebreaks.cmp(&a.tiebreaks))
            .then(b.wins.cmp(&a.wins))
            .then(if arena_format {
                a.games.cmp(&b.games)
            } else {
                std::cmp::Ordering::Equal
            })
            .then(rating(b.entrant).cmp(&rating(a.entrant)))
            .then(a.entrant.cmp(&b.entrant))
    });
    rows
}
