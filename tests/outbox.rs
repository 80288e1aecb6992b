//! The outbox, through the service on sled: what a change makes the service say is stored in
//! the same transaction, handed to the open outbox, drawn again after a restart, forgotten
//! once delivered; an event a platform delivers twice is handled once.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use xiangqi_bot::app::{Delivery, Handled, Incoming, Origin, Reply, Service, ServiceConfig};
use xiangqi_bot::game::PlayerRef;
use xiangqi_bot::render::Renderer;
use xiangqi_bot::storage::SledStorage;

fn service(path: &std::path::Path, clock: &Arc<AtomicU64>, images: bool) -> Arc<Service> {
    let c = Arc::clone(clock);
    Arc::new(Service::new(
        Arc::new(SledStorage::open(path).expect("sled")),
        Arc::new(Renderer::new()),
        Arc::new(move || c.load(Ordering::SeqCst)),
        ServiceConfig {
            images,
            rate_burst: 100_000,
            ..ServiceConfig::default()
        },
    ))
}

fn said(user: &str, text: &str) -> Incoming {
    Incoming {
        channel: "tg:-100".into(),
        user: PlayerRef::new(format!("tg:{user}"), user),
        handle: Some(user.to_string()),
        text: text.to_string(),
        ..Incoming::default()
    }
}

fn from(update: u32) -> Origin {
    Origin {
        event: Some(format!("tg:1:u:{update}")),
        context: Some(format!("ctx{update}")),
    }
}

fn text(replies: &[Reply]) -> String {
    replies
        .iter()
        .map(|r| r.text.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

async fn next(rx: &mut tokio::sync::mpsc::UnboundedReceiver<Delivery>) -> Delivery {
    tokio::time::timeout(Duration::from_secs(20), rx.recv())
        .await
        .expect("an entry in time")
        .expect("the outbox is open")
}

fn png_size(bytes: &[u8]) -> (u32, u32) {
    let mut r = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .expect("a PNG");
    let mut buf = vec![0; r.output_buffer_size().expect("size")];
    let info = r.next_frame(&mut buf).expect("a frame");
    (info.width, info.height)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replies_of_a_change_are_stored_with_it_and_drawn_again_after_a_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clock = Arc::new(AtomicU64::new(1_000_000));
    let first_board;
    {
        let svc = service(dir.path(), &clock, true);
        let mut rx = svc.open_outbox("tg:").expect("outbox");
        let h = svc
            .handle_from(said("alice", "/play @bob red"), from(1))
            .await;
        let key = h.queued.clone().expect("a challenge is a change: stored");
        let d = next(&mut rx).await;
        assert_eq!(d.key, key);
        assert_eq!(d.context.as_deref(), Some("ctx1"));
        assert!(
            text(&d.replies).contains("alice challenges"),
            "{}",
            text(&d.replies)
        );
        svc.delivered(&d.key).await.expect("forget");

        // A command that changes nothing is not stored: the caller delivers it.
        let h = svc.handle_from(said("carol", "/help"), from(2)).await;
        assert!(h.queued.is_none() && !h.replies.is_empty());

        let h = svc.handle_from(said("bob", "/accept"), from(3)).await;
        assert!(h.queued.is_some());
        let d = next(&mut rx).await;
        let img = d.replies[0].image.as_ref().expect("the first board");
        assert!(!img.bytes.is_empty(), "drawn while the change was flushed");
        assert!(img.drawing.is_some(), "stored as what is needed to draw it");
        first_board = img.bytes.clone();
        // Not delivered: the process "crashes" (the service is dropped with the entry stored).
        svc.storage().flush().await.expect("flush");
    }
    let svc = service(dir.path(), &clock, true);
    let mut rx = svc.open_outbox("tg:").expect("outbox");
    let mut d = next(&mut rx).await;
    assert!(
        text(&d.replies).contains("begins"),
        "the undelivered entry comes first"
    );
    let img = d.replies[0].image.as_ref().expect("board");
    assert!(img.bytes.is_empty(), "stored without its bytes");
    svc.draw(&mut d.replies).await;
    let again = &d.replies[0].image.as_ref().expect("board").bytes;
    assert_eq!(again, &first_board, "drawn again exactly as before");
    png_size(again);
    assert!(
        !d.replies[0].buttons.is_empty(),
        "the board's buttons are stored too"
    );
    svc.delivered(&d.key).await.expect("forget");
    assert!(svc.storage().outbox("tg:").expect("read").is_empty());
    // Other platforms' entries are not this outbox's.
    assert!(svc.storage().outbox("dc:").expect("read").is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_delivered_twice_is_handled_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clock = Arc::new(AtomicU64::new(1_000_000));
    let svc = service(dir.path(), &clock, false);
    let mut rx = svc.open_outbox("tg:").expect("outbox");
    svc.handle_from(said("alice", "/play @bob red"), from(10))
        .await;
    svc.handle_from(said("bob", "/accept"), from(11)).await;
    let first: Handled = svc.handle_from(said("alice", "h2e2"), from(12)).await;
    assert!(text(&first.replies).contains("1. alice"));
    // The platform delivers the same update again (its confirmation was lost in a crash).
    let again = svc.handle_from(said("alice", "h2e2"), from(12)).await;
    assert!(again.duplicate && again.replies.is_empty() && again.queued.is_none());
    // A new update with the same text is a new event (and now refused: not alice's turn).
    let other = svc.handle_from(said("alice", "h2e2"), from(13)).await;
    assert!(!other.duplicate);
    assert!(
        text(&other.replies).contains("bob's turn"),
        "{}",
        text(&other.replies)
    );
    let mut entries = 0;
    while let Ok(d) = rx.try_recv() {
        entries += 1;
        svc.delivered(&d.key).await.expect("forget");
    }
    assert_eq!(entries, 3, "challenge, start, first move");
    let id = svc.storage().active_games().expect("active")[0];
    let game = svc.storage().game(id).expect("read").expect("game");
    assert_eq!(game.moves, vec!["h2e2"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_timer_says_what_it_settled_through_the_outbox() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clock = Arc::new(AtomicU64::new(1_000_000));
    let svc = service(dir.path(), &clock, false);
    let mut rx = svc.open_outbox("tg:").expect("outbox");
    svc.handle_from(said("alice", "/play @bob red 1+0"), Origin::default())
        .await;
    svc.handle_from(said("bob", "/accept"), Origin::default())
        .await;
    for _ in 0..2 {
        let d = next(&mut rx).await;
        svc.delivered(&d.key).await.expect("forget");
    }
    clock.fetch_add(61_000, Ordering::SeqCst);
    let now = clock.load(Ordering::SeqCst);
    assert!(svc.process_due(now).await.expect("due") >= 1);
    let d = next(&mut rx).await;
    assert!(d.context.is_none(), "no event to answer");
    let all = text(&d.replies);
    assert!(
        all.contains("ran out of time") || all.contains("left"),
        "{all}"
    );
    // Not delivered yet: it waits in storage, in order behind nothing.
    let stored = svc.storage().outbox("tg:-100").expect("read");
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].0, d.key);
}
