//! The outbox, through the service on sled: what a change makes the service say is stored in
//! the same transaction, handed to the open outbox, drawn again after a restart, forgotten
//! once delivered; an event a platform delivers twice is handled once. A long queue is held
//! in storage, and only a window of it in memory, as what to draw, not as pictures.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use xiangqi_bot::app::{
    Delivery, Handled, Incoming, Origin, Reply, Service, ServiceConfig, OUTBOX_WINDOW,
};
use xiangqi_bot::core::{Color, Position};
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
        let mut rx = svc
            .open_outbox(xiangqi_bot::platform::Platform::Telegram)
            .expect("outbox");
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
        let mut d = next(&mut rx).await;
        let img = d.replies[0].image.as_ref().expect("the first board");
        assert!(
            img.bytes.is_empty(),
            "held as what to draw, drawn when sent"
        );
        assert!(img.drawing.is_some(), "stored as what is needed to draw it");
        svc.ready(&d.key, &mut d.replies).await;
        let img = d.replies[0].image.as_ref().expect("the first board");
        assert!(!img.bytes.is_empty(), "drawn when it is made ready to send");
        first_board = img.bytes.clone();
        // Not delivered: the process "crashes" (the service is dropped with the entry stored).
        svc.storage().flush().await.expect("flush");
    }
    let svc = service(dir.path(), &clock, true);
    let mut rx = svc
        .open_outbox(xiangqi_bot::platform::Platform::Telegram)
        .expect("outbox");
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
    let mut rx = svc
        .open_outbox(xiangqi_bot::platform::Platform::Telegram)
        .expect("outbox");
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
    let mut rx = svc
        .open_outbox(xiangqi_bot::platform::Platform::Telegram)
        .expect("outbox");
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

/// Make `n` changes in the channel (games started and played, moves picked from the legal
/// ones), none delivered.
async fn changes(svc: &Service, n: usize, update: &mut u32) {
    let mut made = 0;
    let mut pos = None::<Position>;
    let mut pick = 0usize;
    let mut refused = 0;
    while made < n {
        *update += 1;
        let (who, text) = match &pos {
            None => ("alice", "/play @bob red".to_string()),
            Some(p) => {
                let legal: Vec<_> = p.legal_moves().iter().copied().collect();
                if legal.is_empty() {
                    pos = None;
                    continue;
                }
                pick += 7;
                let m = legal[pick % legal.len()];
                let who = if p.turn() == Color::Red {
                    "alice"
                } else {
                    "bob"
                };
                (who, m.to_string())
            }
        };
        let h = svc.handle_from(said(who, &text), from(*update)).await;
        if h.queued.is_none() && pos.is_none() {
            // A game left running by an earlier call: resigning it is a change too.
            *update += 1;
            let h = svc
                .handle_from(said("alice", "/resign"), from(*update))
                .await;
            assert!(h.queued.is_some(), "{}", text_of(&h));
            made += 1;
            continue;
        }
        if h.queued.is_none() {
            refused += 1;
            assert!(
                refused < 100,
                "{text} refused again and again: {}",
                text_of(&h)
            );
            continue; // refused (a repetition the rules forbid): another move
        }
        refused = 0;
        made += 1;
        let said_text = text_of(&h);
        if text == "/play @bob red" {
            *update += 1;
            let h = svc.handle_from(said("bob", "/accept"), from(*update)).await;
            assert!(h.queued.is_some(), "{}", text_of(&h));
            made += 1;
            pos = Some(Position::startpos());
        } else if let Some(p) = pos.as_mut() {
            let mv = xiangqi_bot::core::Move::parse_iccs(&text).expect("iccs");
            p.play(mv).expect("legal");
            if said_text.contains("Game over")
                || svc.storage().active_games().expect("read").is_empty()
            {
                pos = None;
            }
        }
    }
}

fn text_of(h: &Handled) -> String {
    text(&h.replies)
}

/// Take what the outbox handed over so far, without waiting.
fn taken(rx: &mut tokio::sync::mpsc::UnboundedReceiver<Delivery>) -> Vec<Delivery> {
    let mut out = Vec::new();
    while let Ok(d) = rx.try_recv() {
        out.push(d);
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_queue_waits_in_storage_and_memory_holds_a_window_of_drawings() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clock = Arc::new(AtomicU64::new(1_000_000));
    let total = 3 * OUTBOX_WINDOW + 5;
    let mut update = 0;
    let mut seqs = Vec::new();
    {
        let svc = service(dir.path(), &clock, true);
        let mut rx = svc
            .open_outbox(xiangqi_bot::platform::Platform::Telegram)
            .expect("outbox");
        // A chat whose platform takes nothing for a while: every change waits.
        changes(&svc, total, &mut update).await;
        assert_eq!(svc.storage().outbox("tg:").expect("read").len(), total);
        let held = taken(&mut rx);
        assert_eq!(
            held.len(),
            OUTBOX_WINDOW,
            "a window handed over, the rest in storage"
        );
        assert_eq!(svc.outbox_held(), OUTBOX_WINDOW);
        let pictures: usize = held
            .iter()
            .flat_map(|d| &d.replies)
            .filter_map(|r| r.image.as_ref())
            .map(|i| i.bytes.len())
            .sum();
        assert_eq!(pictures, 0, "what to draw is held, not pictures");
        // Half the window delivered: the next entries are read from storage, in order.
        let mut queue: std::collections::VecDeque<Delivery> = held.into();
        for _ in 0..OUTBOX_WINDOW {
            let d = queue.pop_front().expect("held");
            seqs.push(d.key.seq);
            svc.delivered(&d.key).await.expect("forget");
            queue.extend(taken(&mut rx));
            assert!(svc.outbox_held() <= OUTBOX_WINDOW, "{}", svc.outbox_held());
            assert_eq!(svc.outbox_held(), queue.len());
        }
        // More changes while entries wait in storage go behind them.
        changes(&svc, 4, &mut update).await;
        queue.extend(taken(&mut rx));
        assert!(svc.outbox_held() <= OUTBOX_WINDOW);
        // The process stops with the rest undelivered.
        svc.storage().flush().await.expect("flush");
    }
    // After a restart every stored entry is delivered, a window at a time, in order.
    let svc = service(dir.path(), &clock, true);
    let mut rx = svc
        .open_outbox(xiangqi_bot::platform::Platform::Telegram)
        .expect("outbox");
    let left = svc.storage().outbox("tg:").expect("read").len();
    assert_eq!(left, total + 4 - OUTBOX_WINDOW);
    let mut delivered = 0;
    loop {
        let held = taken(&mut rx);
        if held.is_empty() {
            break;
        }
        assert!(held.len() <= OUTBOX_WINDOW);
        for mut d in held {
            if delivered == 0 {
                svc.ready(&d.key, &mut d.replies).await;
                let img = d.replies.iter().find_map(|r| r.image.as_ref());
                assert!(img.is_none_or(|i| !i.bytes.is_empty()), "drawn when sent");
            }
            seqs.push(d.key.seq);
            svc.delivered(&d.key).await.expect("forget");
            delivered += 1;
        }
    }
    assert_eq!(delivered, left);
    assert_eq!(svc.outbox_held(), 0);
    assert!(svc.storage().outbox("tg:").expect("read").is_empty());
    let mut sorted = seqs.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(seqs, sorted, "each once, in the order committed");
}
