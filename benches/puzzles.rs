//! Puzzles: what a `/puzzle` costs before anything is drawn. Choosing one from the whole set
//! (filtered, near a rating, avoiding the channel's recent ones); judging a move on the listed
//! line (no search); judging a move off it, which is a fresh search at the service's default
//! budget (`PUZZLE_NODES`, 300,000 nodes) — what a player waits for after an alternative or a
//! wrong move.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use xiangqi_bot::engine::Engine;
use xiangqi_bot::puzzle::select::{choose, parse_filter};
use xiangqi_bot::puzzle::{check_move, shipped, Goal, Progress};

/// The service's default budget for a judgement off the listed line.
const NODES: u64 = 300_000;

fn bench(c: &mut Criterion) {
    let set = shipped();
    let recent: Vec<String> = set.iter().take(60).map(|p| p.id.clone()).collect();
    let any = parse_filter("").expect("no words");
    let hard_mates = parse_filter("mate hard").expect("words");
    c.bench_function("puzzle choose (any, 60 recent)", |b| {
        b.iter(|| choose(&set, &any, 1500.0, &recent, 7));
    });
    c.bench_function("puzzle choose (mate hard)", |b| {
        b.iter(|| choose(&set, &hard_mates, 1500.0, &recent, 7));
    });
    let p = set
        .iter()
        .find(|p| p.goal == Goal::Mate(3) && p.solution.len() == 5)
        .expect("a mate in three");
    let mut engine = Engine::new(8);
    c.bench_function("puzzle move on the line", |b| {
        b.iter(|| check_move(p, &Progress::start(), p.solution[0], &mut engine, NODES));
    });
    // Off the line in a material puzzle: the defender's reply and the listed move's score are
    // both searched (a mate puzzle's wrong move is often refuted by a quick mate instead).
    let q = set
        .iter()
        .find(|p| p.theme == xiangqi_bot::puzzle::Theme::WinChariot && p.solution.len() >= 3)
        .expect("a chariot puzzle");
    let off = q
        .position
        .legal_moves()
        .iter()
        .copied()
        .rfind(|&m| m != q.solution[0])
        .expect("another move");
    let mut group = c.benchmark_group("puzzle move off the line");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("300,000 nodes", |b| {
        b.iter(|| check_move(q, &Progress::start(), off, &mut engine, NODES));
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
