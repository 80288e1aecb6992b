//! A tournament game's venue through the service, on sled and on PostgreSQL: the pairing's
//! first board asks for a venue, stored with it; the adapter's report stores the game's venue
//! and the venue's pointer to the chat in one write; after a restart a move typed in the venue
//! acts on the game and is answered there, and the board stored before the report is posted
//! in the venue without opening another.

use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use xiangqi_bot::app::{Incoming, Service};
use xiangqi_bot::game::{PlayerRef, Storage};
use xiangqi_bot::platform::{ChannelKey, Platform};
use xiangqi_bot::storage::{PgStorage, SledStorage};

use crate::pg;
use crate::said::joined;

const GROUP: &str = "tg:-100777";
const TOPIC: &str = "tg:-100777:55";

/// `user` says `text` in `channel` of the Telegram group.
fn said(user: &str, channel: &str, text: &str) -> Incoming {
    Incoming {
        channel: channel.into(),
        user: PlayerRef::new(format!("tg:{user}"), user),
        text: text.to_string(),
        community: Some(GROUP.to_string()),
        may_configure: Some(true),
        ..Incoming::default()
    }
}

fn service(storage: Arc<dyn Storage>) -> Arc<Service> {
    crate::tournament::service(storage, Arc::new(AtomicU64::new(1_000_000)))
}

/// Pair ann and ben, report the venue of their game; the game's number and its Red.
async fn paired_and_reported(svc: &Service) -> (u64, String) {
    svc.handle(said("org", GROUP, "/tournament swiss rounds 1 5+3"))
        .await;
    for p in ["ann", "ben"] {
        svc.handle(said(p, GROUP, "/tournament join")).await;
    }
    let start = svc.handle(said("org", GROUP, "/tournament start")).await;
    let board = start
        .iter()
        .find(|r| r.venue.is_some())
        .expect("a board asking for its venue");
    let ask = board.venue.clone().expect("the ask");
    let (game, red, black) = crate::begun::begun(&board.text).remove(0);
    assert_eq!((ask.game, ask.opened.as_ref()), (game, None));
    assert_eq!(ask.name, format!("Round 1: {red} – {black}"));
    let (chat, venue) = (ChannelKey::from(GROUP), ChannelKey::from(TOPIC));
    svc.venue_opened(
        &chat,
        game,
        Some((venue.clone(), "https://t.me/c/777/55".into())),
    )
    .await
    .expect("reported");
    // A second report (a reply delivered again) changes nothing.
    svc.venue_opened(&chat, game, Some(("tg:-100777:56".into(), "x".into())))
        .await
        .expect("reported again");
    let stored = svc.storage().game(game).expect("read").expect("the game");
    assert_eq!(stored.venue, Some(venue));
    (game, red)
}

/// After the restart: the stored board goes to the venue, a move there acts and is answered
/// there, a spectator's `/move` is refused privately.
async fn played_in_the_venue(svc: &Service, game: u64, red: &str) {
    let mut outbox = svc.open_outbox(Platform::Telegram).expect("outbox");
    let mut asks = Vec::new();
    let mut pointer = false;
    while let Ok(mut d) = outbox.try_recv() {
        svc.ready(&d.key, &mut d.replies).await;
        asks.extend(d.replies.iter().filter_map(|r| r.venue.clone()));
        pointer |= joined(&d.replies).contains("is played in https://t.me/c/777/55");
        svc.delivered(&d.key).await.expect("delivered");
    }
    assert!(pointer, "the chat is told where the game is, once stored");
    assert_eq!(asks.len(), 1, "{asks:?}");
    assert_eq!(
        asks[0].opened,
        Some(ChannelKey::from(TOPIC)),
        "no second venue"
    );
    svc.handle(said(red, TOPIC, "h2e2")).await;
    let d = outbox.recv().await.expect("the move's entry");
    assert_eq!(d.key.channel, ChannelKey::from(TOPIC));
    let r = joined(&d.replies);
    assert!(r.contains(&format!("1. {red}: h2e2")), "{r}");
    svc.delivered(&d.key).await.expect("delivered");
    let r = svc.handle(said("zed", TOPIC, "/move h9g7")).await;
    assert!(!r.is_empty() && r.iter().all(|r| r.private), "{r:?}");
    let stored = svc.storage().game(game).expect("read").expect("the game");
    assert_eq!(stored.moves.len(), 1, "the spectator's move did not play");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_venue_is_stored_with_its_game_and_used_after_a_restart_on_sled() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db");
    let svc = service(Arc::new(SledStorage::open(&path).expect("sled")));
    let (game, red) = paired_and_reported(&svc).await;
    crate::bot::let_go(svc).await;
    let svc = service(Arc::new(SledStorage::open(&path).expect("sled")));
    played_in_the_venue(&svc, game, &red).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_venue_is_stored_with_its_game_and_used_after_a_restart_on_postgres() {
    let Some(db) = pg::database("tournament_venue") else {
        return;
    };
    let svc = service(Arc::new(PgStorage::connect(&db.url).expect("postgres")));
    let (game, red) = paired_and_reported(&svc).await;
    crate::bot::let_go(svc).await;
    let svc = service(Arc::new(PgStorage::connect(&db.url).expect("postgres")));
    played_in_the_venue(&svc, game, &red).await;
}
