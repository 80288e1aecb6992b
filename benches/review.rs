//! A 100-ply game reviewed with the default budget ([`ReviewLimits::default`]), on one thread:
//! the issue asks for under 20 s on one core. The game is played by the built-in engine at a
//! small node budget from a few pseudo-random opening moves, so its positions are real ones.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use xiangqi_bot::arbiter::{Arbiter, Ruleset};
use xiangqi_bot::core::{Move, Position};
use xiangqi_bot::engine::{review, Engine, Limits, ReviewLimits};

/// The first game of 100 plies that no ruling ends early: four pseudo-random opening plies,
/// then the engine at 3,000 nodes a move for both sides.
fn game() -> Vec<Move> {
    let stop = AtomicBool::new(false);
    let rules = Ruleset::default();
    let limits = Limits {
        nodes: Some(3_000),
        ..Limits::default()
    };
    for seed in 1u64.. {
        let mut engine = Engine::new(4);
        let mut arb = Arbiter::new(Position::startpos(), rules);
        let mut moves: Vec<Move> = Vec::new();
        while moves.len() < 100 {
            let m = if moves.len() < 4 {
                let legal: Vec<Move> = arb.position().legal_moves().iter().copied().collect();
                let k = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (moves.len() * 8);
                legal[(k % legal.len() as u64) as usize]
            } else {
                let r = engine.search(arb.start(), &moves, &rules, &limits, &stop, &mut |_| {});
                match r.best {
                    Some(m) => m,
                    None => break,
                }
            };
            match arb.submit(m) {
                Ok(acc) if acc.ruling.is_none() => moves.push(m),
                _ => break,
            }
        }
        if moves.len() == 100 {
            return moves;
        }
    }
    Vec::new()
}

fn bench(c: &mut Criterion) {
    let moves = game();
    assert_eq!(moves.len(), 100, "no 100-ply game found");
    let rules = Ruleset::default();
    let stop = AtomicBool::new(false);
    let mut engine = Engine::new(16);
    let start = Position::startpos();
    let mut run = || {
        review(
            &mut engine,
            &start,
            &moves,
            &rules,
            ReviewLimits::default(),
            &stop,
        )
    };
    let once = run();
    if let Some(r) = &once {
        eprintln!(
            "review of {} plies: {} ms, {} nodes, accuracy red {:?} black {:?}, {} judged moves",
            r.plies.len(),
            r.time_ms,
            r.nodes,
            r.accuracy[0].map(|a| a.round()),
            r.accuracy[1].map(|a| a.round()),
            r.flaws().count()
        );
    }
    let mut g = c.benchmark_group("review");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(1))
        .measurement_time(Duration::from_secs(60));
    g.bench_function("100_plies_default_budget", |b| {
        b.iter(&mut run);
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
