//! Who plays whom, and with which colour.
//!
//! - **Swiss**: the available players are ranked by score, then seeding rating. From the
//!   top, each takes a partner from their own score group — the top half meets the bottom
//!   half, the first the one half a group below — else from the groups below, searched
//!   with backtracking so that nobody meets the same opponent twice and the colour rules
//!   hold: nobody has the same colour three times running, and nobody's reds and blacks
//!   differ by more than two. When no pairing satisfies them, the colour rules are dropped
//!   first, then the no-rematch rule (a small event can run out of new opponents). With an
//!   odd number, the lowest ranked player who has had no bye gets one (a point); one bye at
//!   most each while anyone is left who has had none.
//! - **Colours**: the one whose blacks outnumber their reds gets red; on equal counts, the
//!   one who was black last; else the higher ranked gets the colour they did not have last
//!   (red in odd rounds for two fresh players).
//! - **Round robin**: Berger's circle (the last player fixed, the others turning), each pair
//!   once per cycle; a second cycle swaps every colour. With an odd number the player set
//!   against the empty seat sits the round out.
//! - **Arena**: free players are ranked by score and each is paired with the next one down
//!   who was not their last opponent; with only each other left, two players who just met
//!   wait for someone else, unless they are the only two playing.

use std::collections::HashSet;

use super::standings::scores;
use super::{Presence, Tournament};

/// Steps the Swiss search may take at each level of relaxation before giving up on it.
const SEARCH_STEPS: usize = 200_000;

/// Each entrant's colours so far (true: red), in the order played.
fn colours(t: &Tournament) -> Vec<Vec<bool>> {
    let mut order: Vec<&super::Pairing> = t.pairings.iter().filter(|p| !p.forfeit).collect();
    order.sort_by_key(|p| (p.round, p.ended_ms));
    let mut c = vec![Vec::new(); t.players.len()];
    for p in order {
        c[p.red].push(true);
        c[p.black].push(false);
    }
    c
}

/// Whether a player with `history` may have `red` next under the colour rules.
fn allowed(history: &[bool], red: bool) -> bool {
    let n = history.len();
    let three = n >= 2 && history[n - 1] == red && history[n - 2] == red;
    let reds = history.iter().filter(|&&c| c).count() as i64 + i64::from(red);
    let blacks = (n as i64 + 1) - reds;
    !three && (reds - blacks).abs() <= 2
}

/// The colours of `a` (ranked higher) and `b`: `(red, black)`.
fn allot(a: usize, b: usize, hist: &[Vec<bool>], round: u32) -> (usize, usize) {
    let balance = |i: usize| {
        let reds = hist[i].iter().filter(|&&c| c).count() as i64;
        reds - (hist[i].len() as i64 - reds)
    };
    let (ba, bb) = (balance(a), balance(b));
    if ba != bb {
        return if ba < bb { (a, b) } else { (b, a) };
    }
    match (hist[a].last(), hist[b].last()) {
        (Some(&la), Some(&lb)) if la != lb => {
            if la {
                (b, a)
            } else {
                (a, b)
            }
        }
        (Some(&la), _) => {
            if la {
                (b, a)
            } else {
                (a, b)
            }
        }
        (None, Some(&lb)) => {
            if lb {
                (a, b)
            } else {
                (b, a)
            }
        }
        (None, None) => {
            if round % 2 == 1 {
                (a, b)
            } else {
                (b, a)
            }
        }
    }
}

/// The pairs who have met, as (smaller, larger) entrant indices.
fn met(t: &Tournament) -> HashSet<(usize, usize)> {
    t.pairings
        .iter()
        .map(|p| (p.red.min(p.black), p.red.max(p.black)))
        .collect()
}

struct Search<'a> {
    ranked: &'a [usize],
    score: &'a [u32],
    hist: &'a [Vec<bool>],
    met: &'a HashSet<(usize, usize)>,
    round: u32,
    /// 0: every rule; 1: no colour rules; 2: rematches allowed too.
    level: u8,
    steps: usize,
}

impl Search<'_> {
    /// Pair every player of `ranked` not in `taken`, from the top; `None` if no way is found
    /// within the step budget.
    fn pair(&mut self, taken: &mut Vec<bool>) -> Option<Vec<(usize, usize)>> {
        let Some(top) = (0..self.ranked.len()).find(|&k| !taken[k]) else {
            return Some(Vec::new());
        };
        taken[top] = true;
        for k in self.candidates(top, taken) {
            self.steps += 1;
            if self.steps > SEARCH_STEPS {
                break;
            }
            let (a, b) = (self.ranked[top], self.ranked[k]);
            let Some(pair) = self.fits(a, b) else {
                continue;
            };
            taken[k] = true;
            if let Some(mut rest) = self.pair(taken) {
                rest.insert(0, pair);
                return Some(rest);
            }
            taken[k] = false;
        }
        taken[top] = false;
        None
    }

    /// The partners to try for the player ranked `top`, best first: their score group's
    /// member half the group below them, then the rest of the lower half, then the upper
    /// half from the bottom, then the groups below.
    fn candidates(&self, top: usize, taken: &[bool]) -> Vec<usize> {
        let score = |k: usize| self.score[self.ranked[k]];
        let free: Vec<usize> = (top + 1..self.ranked.len())
            .filter(|&k| !taken[k])
            .collect();
        let group: Vec<usize> = free
            .iter()
            .copied()
            .filter(|&k| score(k) == score(top))
            .collect();
        // The group with its top is `top` then `group`; its first member below the middle
        // is the one to meet.
        let target = group.len().div_ceil(2).saturating_sub(1);
        let mut order: Vec<usize> = group.iter().skip(target).copied().collect();
        order.extend(group.iter().take(target).rev().copied());
        order.extend(free.iter().copied().filter(|&k| score(k) != score(top)));
        order
    }

    /// The pair `a` (ranked higher) and `b` would be, with colours, if the rules allow it.
    fn fits(&self, a: usize, b: usize) -> Option<(usize, usize)> {
        if self.level < 2 && self.met.contains(&(a.min(b), a.max(b))) {
            return None;
        }
        let (red, black) = allot(a, b, self.hist, self.round);
        if self.level >= 1 {
            return Some((red, black));
        }
        let ok =
            |r: usize, bl: usize| allowed(&self.hist[r], true) && allowed(&self.hist[bl], false);
        if ok(red, black) {
            Some((red, black))
        } else if ok(black, red) {
            Some((black, red))
        } else {
            None
        }
    }
}

/// A Swiss round's pairs `(red, black)` and its bye.
#[must_use]
pub fn swiss(t: &Tournament, round: u32) -> (Vec<(usize, usize)>, Option<usize>) {
    let score = scores(t);
    let mut ranked = t.available(round);
    ranked.sort_by(|&a, &b| {
        score[b]
            .cmp(&score[a])
            .then(t.players[b].rating.cmp(&t.players[a].rating))
            .then(a.cmp(&b))
    });
    let hist = colours(t);
    let met = met(t);
    let had_bye: HashSet<usize> = t.byes.iter().map(|&(_, i)| i).collect();
    // Bye candidates, from the bottom: those who have had no bye, before any rule is
    // relaxed for them; then the others.
    let odd = ranked.len() % 2 == 1;
    let fresh: Vec<Option<usize>> = ranked
        .iter()
        .rev()
        .filter(|i| odd && !had_bye.contains(i))
        .map(|&i| Some(i))
        .collect();
    let again: Vec<Option<usize>> = if odd {
        ranked
            .iter()
            .rev()
            .filter(|i| had_bye.contains(i))
            .map(|&i| Some(i))
            .collect()
    } else {
        vec![None]
    };
    for group in [fresh, again] {
        for level in 0..3 {
            for &bye in &group {
                let rest: Vec<usize> = ranked.iter().copied().filter(|&i| Some(i) != bye).collect();
                let mut s = Search {
                    ranked: &rest,
                    score: &score,
                    hist: &hist,
                    met: &met,
                    round,
                    level,
                    steps: 0,
                };
                if let Some(pairs) = s.pair(&mut vec![false; rest.len()]) {
                    return (pairs, bye);
                }
            }
        }
    }
    // Unreachable in practice (level 2 pairs anyone with anyone); keep everyone's turn safe.
    let mut pairs = Vec::new();
    let mut it = ranked.chunks_exact(2);
    for c in it.by_ref() {
        pairs.push(allot(c[0], c[1], &hist, round));
    }
    (pairs, it.remainder().first().copied())
}

/// Round `round` (from 1) of the round robin: its pairs `(red, black)` and who sits out.
#[must_use]
pub fn robin_round(t: &Tournament, round: u32) -> (Vec<(usize, usize)>, Option<usize>) {
    let n = t.players.len();
    let m = n + n % 2;
    if m < 2 {
        return (Vec::new(), (n == 1).then_some(0));
    }
    let turns = m - 1;
    let r = (round.saturating_sub(1) as usize) % turns;
    let second = (round.saturating_sub(1) as usize) >= turns;
    let mut pairs = Vec::new();
    let mut bye = None;
    let mut add = |red: usize, black: usize| {
        let (red, black) = if second { (black, red) } else { (red, black) };
        if red >= n {
            bye = Some(black);
        } else if black >= n {
            bye = Some(red);
        } else {
            pairs.push((red, black));
        }
    };
    // The fixed seat meets the turning player `r`.
    if r % 2 == 1 {
        add(m - 1, r);
    } else {
        add(r, m - 1);
    }
    for k in 1..m / 2 {
        let a = (r + k) % turns;
        let b = (r + turns - k) % turns;
        if k % 2 == 1 {
            add(a, b);
        } else {
            add(b, a);
        }
    }
    (pairs, bye)
}

/// Pairs among the `free` players of an arena, `(red, black)`.
#[must_use]
pub fn arena(t: &Tournament, free: &[usize]) -> Vec<(usize, usize)> {
    let score = scores(t);
    let hist = colours(t);
    let mut ranked: Vec<usize> = free.to_vec();
    ranked.sort_by(|&a, &b| {
        score[b]
            .cmp(&score[a])
            .then(t.players[b].rating.cmp(&t.players[a].rating))
            .then(a.cmp(&b))
    });
    let last = |i: usize| {
        t.pairings
            .iter()
            .filter(|p| p.has(i))
            .max_by_key(|p| p.ended_ms)
            .map(|p| p.opponent(i))
    };
    let playing = t
        .players
        .iter()
        .filter(|e| e.presence == Presence::Playing)
        .count();
    let mut taken = vec![false; ranked.len()];
    let mut pairs = Vec::new();
    for k in 0..ranked.len() {
        if taken[k] {
            continue;
        }
        let a = ranked[k];
        let partner = (k + 1..ranked.len())
            .filter(|&j| !taken[j])
            .find(|&j| last(a) != Some(ranked[j]) || playing <= 2);
        if let Some(j) = partner {
            taken[k] = true;
            taken[j] = true;
            pairs.push(allot(a, ranked[j], &hist, 1));
        }
    }
    pairs
}
