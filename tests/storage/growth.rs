//! sled's files stay near what is kept, not what was ever written: each move rewrites its
//! game and stores a reply until it is delivered, so a busy bot writes many times what it
//! keeps. (The load bench is where sled once fell behind, before its flusher thread was turned
//! back on: docs/service-cost.md. This steadier load was reclaimed with or without it.)

use xiangqi_bot::game::{Changes, DeadlineKind, OutboxKey, Storage};
use xiangqi_bot::storage::SledStorage;

/// Bytes in the files under `dir`.
fn size(dir: &std::path::Path) -> u64 {
    std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| {
            let e = e.expect("entry");
            let m = e.metadata().expect("metadata");
            if m.is_dir() {
                size(&e.path())
            } else {
                m.len()
            }
        })
        .sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn rewritten_games_and_delivered_replies_do_not_stay_in_the_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    let s: std::sync::Arc<dyn Storage> =
        std::sync::Arc::new(SledStorage::open(dir.path()).expect("open sled"));
    // 16 players' tasks at once, as the bot's commands are: 640 games, each rewritten 20 times
    // with a reply of 160 bytes that do not pack (a reply's drawing) and its clock's deadline,
    // the reply then delivered: 9 MB written, a few hundred KB kept. sled's segments are 512 KB
    // and a few stay in use, so its files settle near 2.6 MB.
    let (rounds, size_each) = (20u64, 160usize);
    let mut tasks = Vec::new();
    for t in 0..16u64 {
        let s = s.clone();
        tasks.push(tokio::spawn(async move {
            let mut state = 0x9e37_79b9_7f4a_7c15_u64 ^ t;
            let mut written = 0u64;
            for round in 0..rounds {
                for i in 0..40u64 {
                    let id = 1 + t * 40 + i;
                    let mut g = super::game(id, true, "dc:1", "dc:2");
                    g.moves = (0..=round).map(|m| format!("h{}e2", m % 10)).collect();
                    written += serde_json::to_vec(&g).expect("json").len() as u64;
                    let key = OutboxKey {
                        channel: format!("dc:{id}").into(),
                        seq: s.next_outbox_seq().expect("seq"),
                    };
                    let value: Vec<u8> = (0..size_each)
                        .map(|_| {
                            state ^= state << 13;
                            state ^= state >> 7;
                            state ^= state << 17;
                            (state >> 24) as u8
                        })
                        .collect();
                    written += value.len() as u64;
                    let at =
                        |r: u64| super::deadline(1_000_000 + r * 1000 + i, id, DeadlineKind::Flag);
                    s.persist(Changes {
                        games: vec![g],
                        outbox: vec![(key.clone(), value)],
                        remove_deadlines: if round > 0 {
                            vec![at(round - 1)]
                        } else {
                            vec![]
                        },
                        add_deadlines: vec![at(round)],
                        ..Changes::default()
                    })
                    .await
                    .expect("persist");
                    s.persist(Changes {
                        delivered: vec![key],
                        ..Changes::default()
                    })
                    .await
                    .expect("deliver");
                }
            }
            written
        }));
    }
    let mut written = 0;
    for t in tasks {
        written += t.await.expect("task");
    }
    assert!(s.outbox("").expect("outbox").is_empty());
    drop(s);
    let on_disk = size(dir.path());
    assert!(
        on_disk < written / 2,
        "sled's files hold {on_disk} bytes after {written} bytes were written and removed"
    );
}
