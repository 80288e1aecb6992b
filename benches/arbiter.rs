//! The arbiter on a 300-ply game: classify every ply and adjudicate after it (submit does
//! both, plus the warnings for the side to move).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use xiangqi_bot::arbiter::{Arbiter, Ruleset, RulesetName};
use xiangqi_bot::core::{Move, Position};

/// A deterministic 300-ply game: pseudo-random legal moves that keep the game going (quiet
/// moves preferred so it lasts; any move that would end the game is skipped).
fn long_game(rules: RulesetName) -> Vec<Move> {
    for seed in 1u64.. {
        let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let mut arb = Arbiter::new(Position::startpos(), Ruleset::preset(rules));
        let mut moves = Vec::new();
        'game: while moves.len() < 300 {
            let pos = arb.position().clone();
            let mut legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
            // Captures only now and then, so the game does not run out of pieces.
            if next() % 4 != 0 {
                let quiet: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|m| pos.piece_at(m.to).is_none())
                    .collect();
                if !quiet.is_empty() {
                    legal = quiet;
                }
            }
            for _ in 0..legal.len() {
                let m = legal[(next() % legal.len() as u64) as usize];
                let mut probe = arb.clone();
                if let Ok(acc) = probe.submit(m) {
                    if acc.ruling.is_none() || moves.len() == 299 {
                        arb = probe;
                        moves.push(m);
                        continue 'game;
                    }
                }
            }
            break;
        }
        if moves.len() == 300 {
            return moves;
        }
    }
    unreachable!()
}

fn bench_arbiter(c: &mut Criterion) {
    let mut g = c.benchmark_group("arbiter");
    for rules in [RulesetName::Asian, RulesetName::Official] {
        let moves = long_game(rules);
        g.throughput(Throughput::Elements(moves.len() as u64));
        g.bench_function(format!("300_plies_{rules}"), |b| {
            b.iter(|| {
                let mut arb = Arbiter::new(Position::startpos(), Ruleset::preset(rules));
                for &m in &moves {
                    let _ = std::hint::black_box(arb.submit(m));
                }
                arb
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench_arbiter);
criterion_main!(benches);
