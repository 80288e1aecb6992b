//! `xiangqi-bot migrate --from sled:DIR --to postgres://…` copies every record, ratings as they
//! were (none applied twice), and checks the copy; a database already in use is refused.

use std::process::Command;

use xiangqi_bot::game::{Changes, ChannelRecord, DeadlineKind, OutboxKey, Storage, UserPrefs};
use xiangqi_bot::rating::Family;
use xiangqi_bot::storage::{PgStorage, SledStorage};

use super::rated::{league, store};
use super::{deadline, game, review};

const START: u64 = 1_700_000_000_000;

fn migrate(dir: &std::path::Path, url: &str) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xiangqi-bot"))
        .arg("migrate")
        .arg("--from")
        .arg(format!("sled:{}", dir.display()))
        .env("DATABASE_URL", url)
        .output()
        .expect("run migrate");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[tokio::test]
async fn a_sled_database_is_copied_whole_and_checked() {
    let Some(db) = super::pg::database("migrate") else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let (solver, standing) = super::puzzle_records();
    let (ids_given, board) = {
        let sled = SledStorage::open(dir.path()).expect("sled");
        store(&sled, &league(30, |i| 8 + i % 3, START, "dc:g:7"), 50).await;
        let seq = sled.next_outbox_seq().expect("seq");
        sled.persist(Changes {
            games: vec![game(900, true, "dc:a", "dc:b")],
            channels: vec![("dc:5".into(), ChannelRecord::default())],
            users: vec![("dc:a".into(), UserPrefs::default())],
            add_deadlines: vec![deadline(5, 900, DeadlineKind::Flag)],
            aliases: vec![("dc:@anna".into(), "dc:a".into())],
            outbox: vec![(
                OutboxKey {
                    channel: "dc:5".into(),
                    seq,
                },
                b"{}".to_vec(),
            )],
            seen: vec![("dc:e:1".into(), 3)],
            inbox: vec![("tg:7:0000000042".into(), br#"{"update_id":42}"#.to_vec())],
            reviews: vec![review(900)],
            puzzle_players: vec![("dc:a".into(), solver.clone())],
            puzzle_standings: vec![("jh-001".into(), standing)],
            game_number: Some(900),
            ..Changes::default()
        })
        .await
        .expect("persist");
        sled.set_meta("alive", 77).expect("meta");
        let now = START + 12 * 86_400_000;
        (
            sled.next_id().expect("id"),
            super::boards::read_all(&sled, "dc:g:7", 30, now),
        )
    };
    let (ok, said) = migrate(dir.path(), &db.url);
    assert!(ok, "{said}");
    assert!(said.contains("copied and checked: 271 games"), "{said}");
    let pg = PgStorage::connect(&db.url).expect("postgres");
    let now = START + 12 * 86_400_000;
    assert_eq!(super::boards::read_all(&pg, "dc:g:7", 30, now), board);
    let before = pg.profile("dc:1").expect("profile");
    assert!(before.is_some_and(|p| p.ratings.contains_key(&Family::Rapid)));
    assert!(
        pg.next_id().expect("id") > ids_given,
        "ids go on after sled's"
    );
    assert!(pg.next_outbox_seq().expect("seq") > ids_given);
    assert_eq!(pg.next_game_number().expect("n"), 901);
    assert_eq!(
        pg.puzzle_player(&"dc:a".into()).expect("read"),
        Some(solver)
    );
    assert_eq!(pg.puzzle_standing("jh-001").expect("read"), Some(standing));
    assert_eq!(
        pg.alias("dc:@anna").expect("alias").as_deref(),
        Some("dc:a")
    );
    assert_eq!(pg.meta("alive").expect("meta"), Some(77));
    assert_eq!(
        pg.inbox("tg:").expect("inbox"),
        [(
            "tg:7:0000000042".to_string(),
            br#"{"update_id":42}"#.to_vec()
        )]
    );
    drop(pg);
    // Into a database in use: refused, and nothing changes.
    let (ok, said) = migrate(dir.path(), &db.url);
    assert!(!ok && said.contains("not empty"), "{said}");
}
