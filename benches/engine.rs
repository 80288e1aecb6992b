//! The built-in engine: nodes per second from the start position and from a middlegame (fixed
//! node budgets, so every sample searches the same tree), and the time to reach a depth.
//! `xiangqi-bot bench` prints the node signature of a fixed set of searches.

use std::sync::atomic::AtomicBool;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use xiangqi_bot::arbiter::Ruleset;
use xiangqi_bot::core::{Move, Position};
use xiangqi_bot::engine::{Engine, Limits};

/// A middlegame reached from the start (central cannon against screen horses).
const MIDDLEGAME: &str = "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 h0h6 h7i7 h6g6 i7i8 b0c2 c6c5";

fn search(moves: &[Move], limits: &Limits) -> u64 {
    let stop = AtomicBool::new(false);
    let mut engine = Engine::new(16);
    engine
        .search(
            &Position::startpos(),
            moves,
            &Ruleset::default(),
            limits,
            &stop,
            &mut |_| {},
        )
        .nodes
}

fn bench_engine(c: &mut Criterion) {
    // As the binary does: tables on large pages where the system has them.
    xiangqi_bot::cli::memory::use_large_pages();
    let middlegame: Vec<Move> = MIDDLEGAME
        .split_whitespace()
        .filter_map(Move::parse_iccs)
        .collect();
    let mut g = c.benchmark_group("engine");
    g.sample_size(10);
    for (name, moves) in [("start", Vec::new()), ("middlegame", middlegame)] {
        let limits = Limits {
            nodes: Some(400_000),
            ..Limits::default()
        };
        let nodes = search(&moves, &limits);
        g.throughput(Throughput::Elements(nodes));
        g.bench_function(format!("nodes_per_second_{name}"), |b| {
            b.iter(|| search(std::hint::black_box(&moves), &limits))
        });
    }
    g.throughput(Throughput::Elements(1));
    for depth in [10u32, 13] {
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        g.bench_function(format!("start_to_depth_{depth}"), |b| {
            b.iter(|| search(&[], &limits))
        });
    }
    g.finish();
}

criterion_group!(benches, bench_engine);
criterion_main!(benches);
