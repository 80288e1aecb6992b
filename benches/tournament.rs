//! Tournaments: pairing a Swiss round and computing the table for a large event, and how
//! many bytes the tournament adds to its channel's record (written with every game's end),
//! and drawing a 100-row standings picture.
//! `cargo bench --bench tournament`.

use criterion::{criterion_group, criterion_main, Criterion};
use xiangqi_bot::arbiter::RulesetName;
use xiangqi_bot::game::tournament::pairing::{arena, swiss};
use xiangqi_bot::game::tournament::standings::table;
use xiangqi_bot::game::tournament::{
    Entrant, Format, GameResult, Presence, Stage, Tournament, Venues,
};
use xiangqi_bot::game::{PlayerRef, TimeControl};
use xiangqi_bot::render::table::{table_png, Column, Medal, Table, TableRow};

/// A Swiss event of `n` players with `rounds` rounds played out (results from a fixed
/// sequence, the stronger seed winning more often).
fn played(n: usize, rounds: u32) -> Tournament {
    let mut t = Tournament {
        venues: Venues::Chat,
        id: 1,
        format: Format::Swiss { rounds: rounds + 1 },
        time_control: TimeControl::Fischer {
            base_ms: 300_000,
            increment_ms: 3_000,
        },
        ruleset: RulesetName::Official,
        rated: true,
        min_rating: None,
        max_players: None,
        organiser: PlayerRef::new("console:org", "org"),
        community: Some("console:#club".into()),
        lang: Some("en".into()),
        stage: Stage::Running,
        starts_ms: None,
        started_ms: Some(1),
        ends_ms: None,
        round: 0,
        every_minutes: None,
        round_started_ms: None,
        next_round_ms: None,
        players: (0..n)
            .map(|i| Entrant {
                player: PlayerRef::new(format!("tg:{}", 100_000_000 + i), &format!("Player {i}")),
                rating: 2200 - i as i64 * 5,
                presence: Presence::Playing,
                from_round: 0,
            })
            .collect(),
        pairings: Vec::new(),
        byes: Vec::new(),
    };
    let mut s: u64 = 7;
    let mut now = 10;
    let mut next = t.advance(now);
    while t.round <= rounds && !next.start.is_empty() {
        for &p in &next.start {
            t.pairings[p].game = Some(p as u64 + 1);
        }
        let start = next.start.clone();
        for p in start {
            s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let (r, b) = (t.pairings[p].red, t.pairings[p].black);
            let result = match (s >> 33) % 10 {
                0..=2 => GameResult::Draw,
                3..=8 if r < b => GameResult::Red,
                3..=8 => GameResult::Black,
                _ if r < b => GameResult::Black,
                _ => GameResult::Red,
            };
            now += 1;
            t.record(p, result, now);
            next = t.advance(now);
        }
        if t.round > rounds {
            break;
        }
    }
    t
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("tournament");
    for (n, rounds) in [(16, 4), (64, 6), (128, 8), (500, 9)] {
        let t = played(n, rounds);
        let bytes = serde_json::to_vec(&t).expect("json").len();
        println!(
            "swiss {n} players, {rounds} rounds played and the next paired: {} pairings, {bytes} bytes in the channel record",
            t.pairings.len()
        );
        g.bench_function(format!("swiss_pair_round_{n}_players"), |b| {
            b.iter(|| swiss(&t, t.round + 1))
        });
        g.bench_function(format!("table_{n}_players"), |b| b.iter(|| table(&t)));
        g.bench_function(format!("record_json_{n}_players"), |b| {
            b.iter(|| serde_json::to_vec(&t).expect("json"))
        });
    }
    // An arena tick: 500 players after many games, 100 of them free at once.
    let mut t = played(500, 9);
    t.format = Format::Arena { minutes: 60 };
    for p in &mut t.pairings {
        if p.result.is_none() {
            p.result = Some(GameResult::Draw);
        }
    }
    let free: Vec<usize> = (0..500).step_by(5).collect();
    g.bench_function("arena_tick_500_players_100_free", |b| {
        b.iter(|| arena(&t, &free))
    });
    // The standings picture of 100 players, as the tournament draws it (scale 1.5).
    let t = played(100, 7);
    let rows = table(&t);
    let picture = Table {
        title: "Tournament #1".into(),
        subtitle: "Swiss, 8 rounds · Round 7 of 8 · 5+3".into(),
        columns: [
            "#", "Player", "Rating", "Points", "Buchholz", "Median", "SB",
        ]
        .iter()
        .map(|h| Column {
            header: (*h).into(),
            wide: *h == "Player",
        })
        .collect(),
        rows: rows
            .iter()
            .enumerate()
            .map(|(k, r)| TableRow {
                cells: vec![
                    (k + 1).to_string(),
                    t.players[r.entrant].player.name.clone(),
                    t.players[r.entrant].rating.to_string(),
                    (r.score / 2).to_string(),
                    (r.tiebreaks[0] / 4).to_string(),
                    (r.tiebreaks[1] / 4).to_string(),
                    (r.tiebreaks[2] / 4).to_string(),
                ],
                medal: [Medal::Gold, Medal::Silver, Medal::Bronze].get(k).copied(),
                streak: None,
                faded: false,
            })
            .collect(),
        scale: 1.5,
    };
    let png = table_png(&picture).expect("drawn");
    println!("standings picture of 100 rows: {} bytes", png.len());
    g.bench_function("standings_picture_100_rows", |b| {
        b.iter(|| table_png(&picture).expect("drawn"))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
