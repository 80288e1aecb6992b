use std::collections::HashMap;

use proptest::prelude::*;

use super::pairing::robin_round;
use super::standings::table;
use super::*;

fn entrant(i: usize, rating: i64) -> Entrant {
    Entrant {
        player: PlayerRef::new(format!("console:p{i}"), &format!("p{i}")),
        rating,
        presence: Presence::Playing,
        from_round: 0,
    }
}

fn tournament(format: Format, n: usize) -> Tournament {
    Tournament {
        venues: Venues::Chat,
        id: 1,
        format,
        time_control: TimeControl::None,
        ruleset: RulesetName::Official,
        rated: false,
        min_rating: None,
        max_players: None,
        organiser: PlayerRef::new("console:org", "org"),
        community: None,
        lang: None,
        stage: Stage::Running,
        starts_ms: None,
        started_ms: Some(0),
        ends_ms: None,
        round: 0,
        every_minutes: None,
        round_started_ms: None,
        next_round_ms: None,
        players: (0..n).map(|i| entrant(i, 2000 - i as i64 * 10)).collect(),
        pairings: Vec::new(),
        byes: Vec::new(),
    }
}

/// Play every game `advance` starts with `result(red, black)`, until it ends; at most
/// `limit` steps.
fn play_out(t: &mut Tournament, mut result: impl FnMut(usize, usize) -> GameResult, limit: usize) {
    let mut now = 1;
    let mut next = t.advance(now);
    for _ in 0..limit {
        if next.finished {
            return;
        }
        let mut ended = false;
        for p in next.start.clone() {
            t.pairings[p].game = Some(p as u64 + 1);
            now += 1;
            let r = result(t.pairings[p].red, t.pairings[p].black);
            t.record(p, r, now);
            next = t.advance(now);
            ended |= next.finished;
            if !next.start.is_empty() || ended {
                break;
            }
        }
        if next.start.is_empty() && !ended && !next.finished {
            // A round ended with nothing new: ask again (an arena with nobody free).
            next = t.advance(now);
            if next.start.is_empty() && !next.finished {
                return;
            }
        }
    }
}

#[test]
fn a_round_robin_meets_every_pair_once_per_cycle_with_balanced_colours() {
    for n in 2..=ROBIN_MAX {
        for double in [false, true] {
            let t = tournament(Format::Robin { double }, n);
            let rounds = t.robin_rounds();
            let mut met: HashMap<(usize, usize), u32> = HashMap::new();
            let mut reds = vec![0i64; n];
            let mut sat_out = vec![0; n];
            for r in 1..=rounds {
                let (pairs, bye) = robin_round(&t, r);
                let mut seen = vec![false; n];
                for &(a, b) in &pairs {
                    assert!(a != b && !seen[a] && !seen[b], "n {n} round {r}: {pairs:?}");
                    seen[a] = true;
                    seen[b] = true;
                    *met.entry((a.min(b), a.max(b))).or_default() += 1;
                    reds[a] += 1;
                    reds[b] -= 1;
                }
                assert_eq!(bye.is_some(), n % 2 == 1, "n {n} round {r}");
                if let Some(b) = bye {
                    assert!(!seen[b]);
                    sat_out[b] += 1;
                }
                assert_eq!(pairs.len(), n / 2);
            }
            let cycles = if double { 2 } else { 1 };
            assert_eq!(met.len(), n * (n - 1) / 2, "n {n}");
            assert!(met.values().all(|&c| c == cycles), "n {n}: {met:?}");
            if n % 2 == 1 {
                assert!(sat_out.iter().all(|&s| s == cycles), "n {n}: {sat_out:?}");
            }
            // Reds minus blacks: at most one apart in a cycle, even over two.
            for (i, d) in reds.iter().enumerate() {
                let bound = if double { 0 } else { 1 };
                assert!(d.abs() <= bound, "n {n} double {double}: player {i} {d}");
            }
        }
    }
}

#[test]
fn standings_by_hand() {
    // Four players, three rounds: p0 beats everyone, p1 draws p2 and beats p3, p2 beats p3.
    let mut t = tournament(Format::Swiss { rounds: 3 }, 4);
    let games = [
        (1, 0, 3, GameResult::Red),
        (1, 1, 2, GameResult::Draw),
        (2, 2, 0, GameResult::Black),
        (2, 3, 1, GameResult::Black),
        (3, 0, 1, GameResult::Red),
        (3, 2, 3, GameResult::Red),
    ];
    for (k, &(round, red, black, r)) in games.iter().enumerate() {
        t.pairings.push(Pairing {
            round,
            red,
            black,
            game: Some(k as u64),
            result: Some(r),
            forfeit: false,
            berserk: (false, false),
            ended_ms: k as u64,
        });
    }
    let rows = table(&t);
    let order: Vec<usize> = rows.iter().map(|r| r.entrant).collect();
    assert_eq!(order, vec![0, 1, 2, 3]);
    // Scores in half-points: 6, 3, 3, 0.
    assert_eq!(
        rows.iter().map(|r| r.score).collect::<Vec<_>>(),
        vec![6, 3, 3, 0]
    );
    // p1 and p2 tie on points and Buchholz (6 + 3 + 0 = 9 half-points each, 18 quarters);
    // Sonneborn–Berger splits them: p1 beat p3 (0) and drew p2 (3 / 2), p2 beat p3 (0) and
    // drew p1 (3 / 2) — equal again; wins are equal too; the seeding rating decides.
    assert_eq!(rows[1].tiebreaks[0], 18);
    assert_eq!(rows[2].tiebreaks[0], 18);
    assert_eq!(rows[1].tiebreaks[2], 3);
    // p0: Buchholz 3 + 3 + 0 = 6 half-points; Sonneborn–Berger the same (all wins).
    assert_eq!(rows[0].tiebreaks, [12, 6, 12]);
    assert_eq!((rows[0].wins, rows[0].draws, rows[0].losses), (3, 0, 0));
}

#[test]
fn arena_points_double_on_a_streak_and_berserk_adds_one() {
    let mut t = tournament(Format::Arena { minutes: 60 }, 2);
    let results = [
        GameResult::Red,
        GameResult::Red,
        GameResult::Red,
        GameResult::Draw,
        GameResult::Red,
        GameResult::Red,
    ];
    for (k, r) in results.into_iter().enumerate() {
        t.pairings.push(Pairing {
            round: 0,
            red: 0,
            black: 1,
            game: Some(k as u64),
            result: Some(r),
            forfeit: false,
            berserk: (k == 5, false),
            ended_ms: k as u64,
        });
    }
    let rows = table(&t);
    // 2 + 2 + 4 (on fire) + 2 (a draw on fire) + 2 (the streak began again) + 2 + 1 (berserk).
    assert_eq!(rows[0].entrant, 0);
    assert_eq!(rows[0].score, 15);
    assert!(rows[0].on_fire);
    assert_eq!(rows[1].score, 1);
}

#[test]
fn an_arena_avoids_an_immediate_rematch_unless_two_are_all_there_is() {
    let mut t = tournament(Format::Arena { minutes: 60 }, 3);
    t.ends_ms = Some(1_000_000);
    let first = t.advance(1);
    assert_eq!(first.start.len(), 1);
    let p = first.start[0];
    let (a, b) = (t.pairings[p].red, t.pairings[p].black);
    t.record(p, GameResult::Draw, 2);
    // The third player is free: the two who met do not meet again, one of them meets them.
    let next = t.advance(3);
    assert_eq!(next.start.len(), 1);
    let q = &t.pairings[next.start[0]];
    assert!(!(q.has(a) && q.has(b)), "{q:?}");
    // With only two players, they play again.
    let mut two = tournament(Format::Arena { minutes: 60 }, 2);
    two.ends_ms = Some(1_000_000);
    let first = two.advance(1);
    two.record(first.start[0], GameResult::Red, 2);
    assert_eq!(two.advance(3).start.len(), 1);
    // Time up: nobody is paired again; the tournament ends when the last game does.
    let last = two.pairings.len() - 1;
    let after = two.advance(1_000_000);
    assert!(after.start.is_empty() && !after.finished);
    assert_eq!(two.stage, Stage::Ending);
    two.record(last, GameResult::Black, 1_000_001);
    assert!(two.advance(1_000_002).finished);
    assert_eq!(two.stage, Stage::Finished);
}

#[test]
fn rounds_every_so_many_minutes_wait_for_their_time() {
    let mut t = tournament(Format::Swiss { rounds: 2 }, 2);
    t.every_minutes = Some(30);
    let first = t.advance(1_000);
    assert_eq!(first.round_started, Some(1));
    t.record(first.start[0], GameResult::Draw, 60_000);
    // Round 1 ended after a minute: round 2 waits for minute 30.
    let wait = t.advance(60_000);
    assert_eq!(wait.wait_until, Some(1_000 + 30 * 60_000));
    assert!(wait.start.is_empty() && t.round == 1);
    assert_eq!(t.next_round_ms, wait.wait_until);
    let second = t.advance(1_000 + 30 * 60_000);
    assert_eq!(second.round_started, Some(2));
    assert_eq!(t.next_round_ms, None);
}

#[test]
fn a_tournament_reads_back_as_it_was_stored() {
    let mut t = tournament(Format::Swiss { rounds: 4 }, 5);
    play_out(
        &mut t,
        |r, _| {
            if r % 2 == 0 {
                GameResult::Red
            } else {
                GameResult::Draw
            }
        },
        100,
    );
    assert_eq!(t.stage, Stage::Finished);
    let json = serde_json::to_string(&t).expect("json");
    let back: Tournament = serde_json::from_str(&json).expect("read");
    assert_eq!(back, t);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Any Swiss event plays its rounds: nobody plays twice in a round, nobody gets two
    /// byes, no rematch while the rounds are fewer than half the players, and the colour
    /// rules hold for events of eight or more players over at most five rounds.
    #[test]
    fn a_swiss_event_keeps_its_rules(n in 2usize..40, rounds in 1u32..9, seed in any::<u64>()) {
        let rounds = rounds.min(u32::try_from(n).unwrap_or(1).max(2) - 1).max(1);
        let mut t = tournament(Format::Swiss { rounds }, n);
        let mut rng = seed;
        play_out(&mut t, |_, _| {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            match (rng >> 33) % 3 { 0 => GameResult::Red, 1 => GameResult::Black, _ => GameResult::Draw }
        }, 10_000);
        prop_assert_eq!(t.stage, Stage::Finished);
        prop_assert_eq!(t.round, rounds);
        for r in 1..=rounds {
            let mut seen = vec![0; n];
            for p in t.pairings.iter().filter(|p| p.round == r) {
                seen[p.red] += 1;
                seen[p.black] += 1;
            }
            for &(br, b) in &t.byes {
                if br == r {
                    seen[b] += 1;
                }
            }
            prop_assert!(seen.iter().all(|&s| s == 1), "round {}: {:?}", r, seen);
        }
        if (rounds as usize) < n {
            let mut byes: Vec<usize> = t.byes.iter().map(|&(_, i)| i).collect();
            byes.sort_unstable();
            let before = byes.len();
            byes.dedup();
            prop_assert_eq!(before, byes.len(), "two byes: {:?}", t.byes);
        }
        if (rounds as usize) * 2 <= n {
            let mut met = std::collections::HashSet::new();
            for p in &t.pairings {
                prop_assert!(met.insert((p.red.min(p.black), p.red.max(p.black))), "a rematch: {:?}", p);
            }
        }
        if n >= 8 && rounds <= 5 {
            let hist = {
                let mut h = vec![Vec::new(); n];
                let mut ps: Vec<&Pairing> = t.pairings.iter().collect();
                ps.sort_by_key(|p| p.round);
                for p in ps {
                    h[p.red].push(true);
                    h[p.black].push(false);
                }
                h
            };
            for (i, h) in hist.iter().enumerate() {
                let reds = h.iter().filter(|&&c| c).count() as i64;
                let blacks = h.len() as i64 - reds;
                prop_assert!((reds - blacks).abs() <= 2, "player {}: {:?}", i, h);
                prop_assert!(!h.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]), "player {}: {:?}", i, h);
            }
        }
    }
}

#[test]
fn records_from_before_venues_read_unchanged() {
    // A tournament stored before the choice keeps its games in the chat; one that chose
    // venues reads back with them.
    let mut t = tournament(Format::Swiss { rounds: 3 }, 4);
    t.venues = Venues::Own;
    let mut json = serde_json::to_value(&t).expect("json");
    assert_eq!(json["venues"], "own");
    let back: Tournament = serde_json::from_value(json.clone()).expect("read");
    assert_eq!(back.venues, Venues::Own);
    json.as_object_mut().expect("an object").remove("venues");
    let old: Tournament = serde_json::from_value(json).expect("read");
    assert_eq!(old.venues, Venues::Chat);
    // A game and a channel record without a venue write none, and read as before.
    let channel = crate::game::ChannelRecord::default();
    let written = serde_json::to_string(&channel).expect("json");
    assert!(!written.contains("venue_of"), "{written}");
    let read: crate::game::ChannelRecord = serde_json::from_str(&written).expect("read");
    assert_eq!(read.venue_of, None);
}
