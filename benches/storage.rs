//! Storage latency, sled against PostgreSQL (the throwaway cluster of `tests/support/pg.rs`, or
//! `TEST_DATABASE_URL`): a synchronous read of a stored game from inside a tokio runtime (as
//! the service reads), and a command-sized write (a game, a deadline moved, a reply queued)
//! made durable (the cluster keeps fsync on, as sled flushes). And opening a sled database of
//! `OPEN_GAMES` games (default 3,000, of 60 plies each, rated), which reads and decodes every
//! record and compares the marker (`src/storage/guard.rs`). `cargo bench --bench storage`.

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

/// Open (and close) a sled database of many games: the cost of reading every record at open.
fn bench_open(c: &mut Criterion) {
    let games: u64 = std::env::var("OPEN_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3_000);
    let dir = tempfile::tempdir().expect("tempdir");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    {
        let s = SledStorage::open(dir.path()).expect("sled");
        runtime.block_on(async {
            for chunk in (1..=games).collect::<Vec<_>>().chunks(100) {
                let games = chunk
                    .iter()
                    .map(|&id| {
                        let mut g = rated::rated(
                            id,
                            (PlayerRef::new("dc:1", "a"), PlayerRef::new("dc:2", "b")),
                            "draw",
                            "agreement",
                            id,
                            "dc:g:1",
                        );
                        g.moves = ["h2e2", "h9g7", "h0g2", "i9h9"]
                            .iter()
                            .cycle()
                            .take(60)
                            .map(|m| (*m).to_string())
                            .collect();
                        g
                    })
                    .collect();
                s.persist(Changes {
                    games,
                    ..Changes::default()
                })
                .await
                .expect("persist");
            }
        });
    }
    let mut g = c.benchmark_group("sled open");
    g.sample_size(20);
    // `inspect` is `open` without the writer thread and the marker file's rewrite: sled's
    // open, every record read and decoded, the marker compared. (A dropped `SledStorage`
    // releases sled's lock only when its writer thread ends, which would be timed too.)
    g.bench_function(format!("{games} games"), |b| {
        b.iter(|| {
            let found = SledStorage::inspect(dir.path()).expect("open");
            assert_eq!(found.survey.games, games);
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

criterion_group!(benches, bench_open, bench);
criterion_main!(benches);
