//! The pool's turn order on its own, then real searches at small budgets through its threads.

use std::time::Duration;

use super::*;
use crate::arbiter::Ruleset;
use crate::config::EngineConfig;

fn game() -> Arbiter {
    Arbiter::new(Position::startpos(), Ruleset::default())
}

fn nodes(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Limits::default()
    }
}

fn hint(n: u64) -> Job {
    Job::Hint {
        game: game(),
        limits: nodes(n),
    }
}

fn review_job() -> Job {
    Job::Review {
        start: Box::new(Position::startpos()),
        moves: Vec::new(),
        rules: Ruleset::default(),
        limits: ReviewLimits::default(),
    }
}

fn entry(id: u64, job: Job) -> Entry {
    let (tx, _rx) = oneshot::channel();
    Entry {
        id,
        job,
        submitted: Instant::now(),
        stop: Arc::new(AtomicBool::new(false)),
        tx,
    }
}

fn push(st: &mut State, channel: &str, id: u64, job: Job) {
    st.queues
        .entry(channel.to_string())
        .or_default()
        .push_back(entry(id, job));
    st.schedule(channel);
}

fn finish(st: &mut State, channel: &str, background: bool) {
    st.running.remove(channel);
    if background {
        st.background_running -= 1;
    }
    st.schedule(channel);
}

#[test]
fn channels_take_turns_one_job_each() {
    let mut st = State::default();
    for id in 1..=3 {
        push(&mut st, "a", id, hint(10));
    }
    push(&mut st, "b", 4, hint(10));
    push(&mut st, "c", 5, hint(10));
    // One worker: each job finishes before the next is taken.
    let mut order = Vec::new();
    while let Some((ch, e)) = st.take(1) {
        order.push(e.id);
        finish(&mut st, &ch, false);
    }
    assert_eq!(order, [1, 4, 5, 2, 3]);
}
#[test]
fn one_channel_runs_one_job_at_a_time() {
    let mut st = State::default();
    push(&mut st, "a", 1, hint(10));
    push(&mut st, "a", 2, hint(10));
    let Some((ch, e)) = st.take(1) else {
        panic!("nothing to run")
    };
    assert_eq!((ch.as_str(), e.id), ("a", 1));
    assert!(st.take(1).is_none(), "a's second job waits for its first");
    finish(&mut st, "a", false);
    assert_eq!(st.take(1).map(|(_, e)| e.id), Some(2));
}

#[test]
fn reviews_wait_for_moves_and_are_capped() {
    let mut st = State::default();
    push(&mut st, "r1", 1, review_job());
    push(&mut st, "r2", 2, review_job());
    push(&mut st, "m", 3, hint(10));
    // The move goes first although it came last.
    assert_eq!(st.take(1).map(|(_, e)| e.id), Some(3));
    assert_eq!(st.take(1).map(|(_, e)| e.id), Some(1));
    assert!(st.take(1).is_none(), "one review at a time");
    push(&mut st, "m2", 4, hint(10));
    assert_eq!(st.take(1).map(|(_, e)| e.id), Some(4), "moves still run");
    finish(&mut st, "r1", true);
    assert_eq!(st.take(1).map(|(_, e)| e.id), Some(2));
}

fn pool(threads: usize) -> ThinkingPool {
    ThinkingPool::new(
        threads,
        Arc::new(Player::new(&EngineConfig {
            hash_mb: 1,
            ..EngineConfig::default()
        })),
    )
}

fn searched(t: Ticket) -> Played {
    match t.blocking_result() {
        Some(Outcome::Searched(p)) => p,
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_bot_move_and_a_hint_come_back_checked() {
    let pool = pool(2);
    let play = pool.submit(
        "a",
        Job::Play {
            game: game(),
            level: 1,
            clock: None,
            seed: 7,
        },
    );
    let h = pool.submit("b", hint(3_000));
    let p = searched(play);
    let best = p.result.best.unwrap_or_else(|| panic!("no move"));
    assert!(crate::uci::check_move(&game(), best).is_ok());
    let h = searched(h);
    assert!(h.result.best.is_some() && h.result.nodes > 0);
}

#[test]
fn a_review_runs_in_the_pool() {
    let pool = pool(1);
    let moves: Vec<Move> = ["h2e2", "h9g7"]
        .iter()
        .filter_map(|m| Move::parse_iccs(m))
        .collect();
    let t = pool.submit(
        "a",
        Job::Review {
            start: Box::new(Position::startpos()),
            moves,
            rules: Ruleset::default(),
            limits: ReviewLimits {
                nodes: 2_000,
                total_ms: 60_000,
            },
        },
    );
    match t.blocking_result() {
        Some(Outcome::Reviewed(Some(r))) => {
            assert_eq!(r.evals.len(), 3);
            assert_eq!(r.plies.len(), 2);
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 1)]
async fn cancelling_stops_the_running_search_and_drops_the_waiting_ones() {
    let pool = pool(1);
    // No limit at all: this search runs until it is stopped.
    let endless = pool.submit(
        "a",
        Job::Hint {
            game: game(),
            limits: Limits::default(),
        },
    );
    let waiting = pool.submit("b", hint(1_000));
    let later = pool.submit("a", hint(1_000));
    // Wait (a little) for the endless search to start; cancelling works either way.
    for _ in 0..100 {
        if pool.waiting() == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    pool.cancel_job("b", waiting.id);
    pool.cancel("a");
    let within = Duration::from_secs(120);
    let r = tokio::time::timeout(within, endless.result()).await;
    assert!(
        matches!(r, Ok(None)),
        "a stopped search gives no answer: {r:?}"
    );
    let r = tokio::time::timeout(within, waiting.result()).await;
    assert!(matches!(r, Ok(None)), "{r:?}");
    let r = tokio::time::timeout(within, later.result()).await;
    assert!(matches!(r, Ok(None)), "{r:?}");
    // The pool still works.
    let again = pool.submit("a", hint(500));
    let r = tokio::time::timeout(within, again.result()).await;
    assert!(matches!(r, Ok(Some(Outcome::Searched(_)))), "{r:?}");
    pool.shutdown();
    let closed = pool.submit("a", hint(500));
    assert!(closed.result().await.is_none());
}
