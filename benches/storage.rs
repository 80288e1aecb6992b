//! Storage latency, sled against PostgreSQL (the throwaway cluster of `tests/support/pg.rs`, or
//! `TEST_DATABASE_URL`): a synchronous read of a stored game from inside a tokio runtime (as
//! the service reads), and a command-sized write (a game, a deadline moved, a reply queued)
//! made durable (the cluster keeps fsync on, as sled flushes). `cargo bench --bench storage`.

#[path = "../tests/support/pg.rs"]
mod pg;
#[path = "../tests/support/rated.rs"]
mod rated;

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};
use xiangqi_bot::game::{
    Changes, Deadline, DeadlineKind, GameStatus, OutboxKey, PlayerRef, Storage,
};
use xiangqi_bot::storage::{PgStorage, SledStorage};

fn command(s: &dyn Storage, n: u64) -> Changes {
    let mut game = rated::rated(
        1 + n % 64,
        (PlayerRef::new("dc:1", "a"), PlayerRef::new("dc:2", "b")),
        "draw",
        "agreement",
        n,
        "dc:g:1",
    );
    game.status = GameStatus::Active;
    let deadline = |at_ms| Deadline {
        at_ms,
        id: game.id,
        kind: DeadlineKind::Flag,
        channel: "dc:100".into(),
    };
    Changes {
        remove_deadlines: vec![deadline(n)],
        add_deadlines: vec![deadline(n + 1)],
        outbox: vec![(
            OutboxKey {
                channel: "dc:100".into(),
                seq: s.next_outbox_seq().expect("seq"),
            },
            vec![b'x'; 300],
        )],
        games: vec![game],
        ..Changes::default()
    }
}

fn bench_backend(c: &mut Criterion, name: &str, storage: Arc<dyn Storage>) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        for n in 0..64 {
            let changes = command(storage.as_ref(), n);
            storage.persist(changes).await.expect("persist");
        }
    });
    let mut g = c.benchmark_group(name);
    g.bench_function("read a game", |b| {
        let mut n = 0u64;
        b.iter(|| {
            n += 1;
            runtime.block_on(async { storage.game(1 + n % 64).expect("read").expect("game") })
        });
    });
    g.bench_function("write a command", |b| {
        let mut n = 100u64;
        b.iter(|| {
            n += 1;
            let changes = command(storage.as_ref(), n);
            runtime.block_on(storage.persist(changes)).expect("persist");
        });
    });
    g.finish();
}

fn bench(c: &mut Criterion) {
    // Commits timed as durable on both sides: the test cluster keeps fsync on.
    std::env::set_var("TEST_PG_FSYNC", "1");
    let dir = tempfile::tempdir().expect("tempdir");
    bench_backend(
        c,
        "sled",
        Arc::new(SledStorage::open(dir.path()).expect("sled")),
    );
    if let Some(db) = pg::database("bench") {
        bench_backend(
            c,
            "postgres",
            Arc::new(PgStorage::connect(&db.url).expect("postgres")),
        );
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
