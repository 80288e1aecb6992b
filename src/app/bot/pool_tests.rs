//! The pool's turn order on its own, then real searches at small budgets through its threads.

use std::time::Duration;

use super::*;
use crate::arbiter::Ruleset;
use crate::uci::EngineConfig;

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

fn bot_move(seed: u64) -> Job {
    Job::Play {
        game: game(),
        level: 1,
        clock: None,
        seed,
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
        stop: Arc::new(AtomicBool::new(false)),
        tx,
    }
}

fn push(st: &mut State, user: &str, lane: &str, id: u64, job: Job) {
    st.push(user, lane, entry(id, job));
}

/// Run everything waiting on one worker (each job ends before the next is taken); the ids in
/// the order they were served.
fn serve_all(st: &mut State) -> Vec<u64> {
    let mut order = Vec::new();
    while let Some((key, e)) = st.take(1) {
        order.push(e.id);
        st.finish(&key, e.id, e.job.background());
    }
    order
}

#[test]
fn people_take_turns_one_job_each() {
    let mut st = State::default();
    for id in 1..=3 {
        push(&mut st, "ann", "a", id, hint(10));
    }
    push(&mut st, "ben", "b", 4, hint(10));
    push(&mut st, "cat", "c", 5, hint(10));
    assert_eq!(serve_all(&mut st), [1, 4, 5, 2, 3]);
}

#[test]
fn one_person_in_eight_channels_gets_one_turn_like_anyone_else() {
    // Issue 31: one user's hints in eight threads held up another channel's bot move.
    let mut st = State::default();
    for ch in 1..=8 {
        push(&mut st, "ann", &format!("dc:{ch}#hint"), ch, hint(10));
    }
    // Ann's first hint is running when Ben's bot move comes.
    let Some((key, first)) = st.take(1) else {
        panic!("nothing to run")
    };
    assert_eq!(first.id, 1);
    push(&mut st, "ben", "dc:9", 9, bot_move(1));
    st.finish(&key, first.id, false);
    let order = serve_all(&mut st);
    assert_eq!(
        order.first(),
        Some(&9),
        "Ben is served after one of Ann's jobs: {order:?}"
    );
    assert_eq!(order[1..], [2, 3, 4, 5, 6, 7, 8]);
}

#[test]
fn someone_who_leaves_and_comes_back_is_not_new_again() {
    let mut st = State::default();
    push(&mut st, "ann", "a", 1, hint(10));
    assert_eq!(serve_all(&mut st), [1]); // her lane is gone: nothing of hers waits
                                         // Back before Ben asks: Ben, never served, still goes first.
    push(&mut st, "ann", "a", 2, hint(10));
    push(&mut st, "ben", "b", 3, hint(10));
    push(&mut st, "ann", "a", 4, hint(10));
    assert_eq!(serve_all(&mut st), [3, 2, 4]);
}

#[test]
fn a_persons_channels_take_turns() {
    let mut st = State::default();
    push(&mut st, "ann", "a", 1, hint(10));
    push(&mut st, "ann", "a", 2, hint(10));
    push(&mut st, "ann", "b", 3, hint(10));
    push(&mut st, "ben", "c", 4, hint(10));
    push(&mut st, "ben", "c", 5, hint(10));
    // Ann, Ben, Ann's other channel, Ben, Ann's first channel again.
    assert_eq!(serve_all(&mut st), [1, 4, 3, 5, 2]);
}

#[test]
fn one_lane_runs_one_job_at_a_time() {
    let mut st = State::default();
    push(&mut st, "ann", "a", 1, hint(10));
    push(&mut st, "ann", "a", 2, hint(10));
    let Some((key, e)) = st.take(2) else {
        panic!("nothing to run")
    };
    assert_eq!((key.1.as_str(), e.id), ("a", 1));
    assert!(st.take(2).is_none(), "a's second job waits for its first");
    st.finish(&key, 1, false);
    assert_eq!(st.take(2).map(|(_, e)| e.id), Some(2));
}

#[test]
fn reviews_wait_for_other_jobs_and_are_capped() {
    let mut st = State::default();
    push(&mut st, "ann", "r1", 1, review_job());
    push(&mut st, "ben", "r2", 2, review_job());
    push(&mut st, "cat", "m", 3, hint(10));
    // The move goes first although it came last.
    assert_eq!(st.take(1).map(|(_, e)| e.id), Some(3));
    let Some((r1, e)) = st.take(1) else {
        panic!("no review")
    };
    assert_eq!(e.id, 1);
    assert!(st.take(1).is_none(), "one review at a time");
    push(&mut st, "dan", "m2", 4, hint(10));
    assert_eq!(st.take(1).map(|(_, e)| e.id), Some(4), "moves still run");
    st.finish(&r1, 1, true);
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
    let play = pool.submit("ann", "a", bot_move(7));
    let h = pool.submit("ben", "b", hint(3_000));
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
        "ann",
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
        "ann",
        "a",
        Job::Hint {
            game: game(),
            limits: Limits::default(),
        },
    );
    let waiting = pool.submit("ben", "b", hint(1_000));
    let later = pool.submit("ann", "a", hint(1_000));
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
    let again = pool.submit("ann", "a", hint(500));
    let r = tokio::time::timeout(within, again.result()).await;
    assert!(matches!(r, Ok(Some(Outcome::Searched(_)))), "{r:?}");
    pool.shutdown();
    let closed = pool.submit("ann", "a", hint(500));
    assert!(closed.result().await.is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 1)]
async fn on_one_thread_another_persons_move_comes_after_one_of_a_busy_persons_jobs() {
    let pool = pool(1);
    let endless = || Job::Hint {
        game: game(),
        limits: Limits::default(), // runs until it is stopped
    };
    let anns: Vec<Ticket> = (1..=8)
        .map(|ch| pool.submit("ann", &format!("dc:{ch}#hint"), endless()))
        .collect();
    // Ann's first search holds the one thread.
    for _ in 0..500 {
        if pool.running() == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!((pool.running(), pool.waiting()), (1, 7));
    let bens = pool.submit("ben", "dc:9", bot_move(3));
    // Ann's first job ends; the next to run is Ben's move, not Ann's endless second hint
    // (which would never let it through: this test would hang, and time out).
    pool.cancel_job("dc:1#hint", anns[0].id);
    let within = Duration::from_secs(120);
    let r = tokio::time::timeout(within, bens.timed_result()).await;
    let Ok(Some((Outcome::Searched(p), ran_ms))) = r else {
        panic!("{r:?}")
    };
    assert!(p.result.best.is_some());
    assert!(ran_ms < within.as_millis() as u64);
    // Ann's next hint may have started since (the thread is free again), no more.
    assert!(
        pool.waiting() >= 6,
        "{} of Ann's hints wait",
        pool.waiting()
    );
    for ch in 1..=8 {
        pool.cancel(&format!("dc:{ch}#hint"));
    }
    for t in anns {
        let r = tokio::time::timeout(within, t.result()).await;
        assert!(matches!(r, Ok(None)), "{r:?}");
    }
}
