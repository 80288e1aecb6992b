//! Perft speed from the start position (bulk counting at the leaves).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use xiangqi_bot::core::{perft, Position};

fn bench_perft(c: &mut Criterion) {
    let pos = Position::startpos();
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    for depth in [3u32, 4] {
        let nodes = perft(&pos, depth);
        g.throughput(Throughput::Elements(nodes));
        g.bench_function(format!("startpos_depth_{depth}"), |b| {
            b.iter(|| perft(std::hint::black_box(&pos), depth))
        });
    }
    g.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
