//! The thinking pool: a fixed number of blocking threads that run engine jobs (the bot's move,
//! a hint, a review) for the chat service, so that thinking never holds up a reply.
//!
//! - **Bounded**: `threads` workers (default one per core); each search in flight uses one
//!   engine table (the [`Player`] keeps a table per search, not per channel), so memory is
//!   `threads × ENGINE_HASH_MB`, however many channels play.
//! - **Fair**: jobs queue per channel, and channels take turns (round robin); a channel has at
//!   most one job running, so one channel asking for many reviews cannot starve the others'
//!   moves. Reviews (seconds each) are background work: they run only on a free worker while
//!   no move or hint waits, and on at most half the workers (at least one).
//! - **Cancellable**: [`ThinkingPool::cancel`] drops a channel's waiting jobs and sets the stop
//!   flag of its running one (a game that ends, a takeback): the search returns at once.
//! - A job's clock starts running when it is submitted: time spent waiting in the queue is
//!   taken off the bot's clock before it searches.

use std::collections::{HashMap, VecDeque};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::Instant;

use tokio::sync::oneshot;

use crate::arbiter::Arbiter;
use crate::core::{Move, Position};
use crate::engine::review::{review, Review, ReviewLimits};
use crate::engine::{Clock, Limits};
use crate::uci::player::{Played, Player};

/// Work for the pool.
#[derive(Clone, Debug)]
pub enum Job {
    /// The bot's move at `level` in `game` (its clock, if any, as it stood at submission).
    Play {
        /// The game so far.
        game: Arbiter,
        /// Level 1–8.
        level: u8,
        /// The bot's clock when the job was submitted.
        clock: Option<Clock>,
        /// The level's noise seed.
        seed: u64,
    },
    /// The best move for the side to move (a hint).
    Hint {
        /// The game so far.
        game: Arbiter,
        /// The search's limits.
        limits: Limits,
    },
    /// A whole game reviewed.
    Review {
        /// The start (boxed: a position is large beside the other jobs).
        start: Box<Position>,
        /// The moves.
        moves: Vec<Move>,
        /// The ruleset.
        rules: crate::arbiter::Ruleset,
        /// The budget.
        limits: ReviewLimits,
    },
}

impl Job {
    fn background(&self) -> bool {
        matches!(self, Job::Review { .. })
    }
}

/// What a job produced.
#[derive(Debug)]
pub enum Outcome {
    /// The bot's move (its `best` checked by the arbiter) or a hint.
    Searched(Played),
    /// The review (`None`: stopped).
    Reviewed(Option<Box<Review>>),
}

/// A job's result, once it has run. Dropping it does not cancel the job.
#[derive(Debug)]
pub struct Ticket {
    /// The job's number (for [`ThinkingPool::cancel_job`]).
    pub id: u64,
    rx: oneshot::Receiver<Outcome>,
}

impl Ticket {
    /// Wait for the result; `None` if the job was cancelled (before or while it ran), the
    /// pool was shut down, or its search panicked (logged).
    pub async fn result(self) -> Option<Outcome> {
        self.rx.await.ok()
    }

    /// Wait for the result from a blocking thread (tests, tools).
    #[must_use]
    pub fn blocking_result(self) -> Option<Outcome> {
        self.rx.blocking_recv().ok()
    }
}

struct Entry {
    id: u64,
    job: Job,
    submitted: Instant,
    stop: Arc<AtomicBool>,
    tx: oneshot::Sender<Outcome>,
}

#[derive(Default)]
struct State {
    /// Waiting jobs by channel.
    queues: HashMap<String, VecDeque<Entry>>,
    /// Channels whose next job is a move or a hint, in turn order.
    ready: VecDeque<String>,
    /// Channels whose next job is a review, in turn order.
    ready_background: VecDeque<String>,
    /// Channels with a job running: its id and stop flag.
    running: HashMap<String, (u64, Arc<AtomicBool>)>,
    /// Reviews running.
    background_running: usize,
    closed: bool,
}

impl State {
    /// Put `channel` in its turn queue if it has a job waiting and none running.
    fn schedule(&mut self, channel: &str) {
        if self.running.contains_key(channel)
            || self.ready.iter().any(|c| c == channel)
            || self.ready_background.iter().any(|c| c == channel)
        {
            return;
        }
        let Some(next) = self.queues.get(channel).and_then(VecDeque::front) else {
            self.queues.remove(channel);
            return;
        };
        if next.job.background() {
            self.ready_background.push_back(channel.to_string());
        } else {
            self.ready.push_back(channel.to_string());
        }
    }

    /// The next job to run, if one may run now.
    fn take(&mut self, background_cap: usize) -> Option<(String, Entry)> {
        loop {
            let channel = match self.ready.pop_front() {
                Some(c) => c,
                None if self.background_running < background_cap => {
                    self.ready_background.pop_front()?
                }
                None => return None,
            };
            let Some(entry) = self.queues.get_mut(&channel).and_then(VecDeque::pop_front) else {
                continue;
            };
            if entry.job.background() {
                self.background_running += 1;
            }
            self.running
                .insert(channel.clone(), (entry.id, entry.stop.clone()));
            return Some((channel, entry));
        }
    }
}

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
    player: Arc<Player>,
    background_cap: usize,
    next_id: AtomicU64,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The pool of engine threads.
pub struct ThinkingPool {
    shared: Arc<Shared>,
    workers: Mutex<Vec<JoinHandle<()>>>,
    threads: usize,
}

impl std::fmt::Debug for ThinkingPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ThinkingPool")
            .field("threads", &self.threads)
            .finish_non_exhaustive()
    }
}

/// One worker per core.
#[must_use]
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

impl ThinkingPool {
    /// A pool of `threads` workers (at least one) searching with `player`.
    #[must_use]
    pub fn new(threads: usize, player: Arc<Player>) -> ThinkingPool {
        let threads = threads.max(1);
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            wake: Condvar::new(),
            player,
            background_cap: (threads / 2).max(1),
            next_id: AtomicU64::new(1),
        });
        let workers = (0..threads)
            .filter_map(|i| {
                let shared = shared.clone();
                std::thread::Builder::new()
                    .name(format!("engine-{i}"))
                    .spawn(move || work(&shared))
                    .map_err(|e| tracing::error!(error = %e, "cannot start an engine thread"))
                    .ok()
            })
            .collect();
        ThinkingPool {
            shared,
            workers: Mutex::new(workers),
            threads,
        }
    }

    /// Workers in the pool.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The engines the pool searches with.
    #[must_use]
    pub fn player(&self) -> &Arc<Player> {
        &self.shared.player
    }

    /// Queue `job` for `channel`.
    pub fn submit(&self, channel: &str, job: Job) -> Ticket {
        let (tx, rx) = oneshot::channel();
        let id = self.shared.next_id.fetch_add(1, Ordering::Relaxed);
        let mut st = self.shared.lock();
        if st.closed {
            return Ticket { id, rx }; // tx dropped: the result is `None`
        }
        st.queues
            .entry(channel.to_string())
            .or_default()
            .push_back(Entry {
                id,
                job,
                submitted: Instant::now(),
                stop: Arc::new(AtomicBool::new(false)),
                tx,
            });
        st.schedule(channel);
        drop(st);
        self.shared.wake.notify_one();
        Ticket { id, rx }
    }

    /// Cancel everything of `channel`: waiting jobs are dropped, a running one is stopped.
    pub fn cancel(&self, channel: &str) {
        let mut st = self.shared.lock();
        st.queues.remove(channel);
        st.ready.retain(|c| c != channel);
        st.ready_background.retain(|c| c != channel);
        if let Some((_, stop)) = st.running.get(channel) {
            stop.store(true, Ordering::Relaxed);
        }
    }

    /// Cancel one job of `channel` by its id, waiting or running.
    pub fn cancel_job(&self, channel: &str, id: u64) {
        let mut st = self.shared.lock();
        if let Some(q) = st.queues.get_mut(channel) {
            q.retain(|e| e.id != id);
        }
        if let Some((running, stop)) = st.running.get(channel) {
            if *running == id {
                stop.store(true, Ordering::Relaxed);
            }
        }
        st.ready.retain(|c| c != channel);
        st.ready_background.retain(|c| c != channel);
        st.schedule(channel);
    }

    /// Jobs waiting (not running), for the load figures.
    #[must_use]
    pub fn waiting(&self) -> usize {
        self.shared.lock().queues.values().map(VecDeque::len).sum()
    }

    /// Stop every search and the workers, and wait for them.
    pub fn shutdown(&self) {
        {
            let mut st = self.shared.lock();
            st.closed = true;
            st.queues.clear();
            st.ready.clear();
            st.ready_background.clear();
            for (_, stop) in st.running.values() {
                stop.store(true, Ordering::Relaxed);
            }
        }
        self.shared.wake.notify_all();
        let workers =
            std::mem::take(&mut *self.workers.lock().unwrap_or_else(PoisonError::into_inner));
        for w in workers {
            let _ = w.join();
        }
    }
}

impl Drop for ThinkingPool {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// A worker: take the next job in turn, run it, hand over its result, repeat.
fn work(shared: &Shared) {
    loop {
        let (channel, entry) = {
            let mut st = shared.lock();
            loop {
                if st.closed {
                    return;
                }
                if let Some(next) = st.take(shared.background_cap) {
                    break next;
                }
                st = shared.wake.wait(st).unwrap_or_else(PoisonError::into_inner);
            }
        };
        let background = entry.job.background();
        let stop = entry.stop.clone();
        let queued_ms = u64::try_from(entry.submitted.elapsed().as_millis()).unwrap_or(u64::MAX);
        let out = catch_unwind(AssertUnwindSafe(|| {
            run(&shared.player, entry.job, queued_ms, &stop)
        }));
        match out {
            // A cancelled job's answer is stale: dropped, so its ticket resolves to `None`.
            Ok(_) if stop.load(Ordering::Relaxed) => {}
            Ok(out) => {
                let _ = entry.tx.send(out);
            }
            Err(_) => tracing::error!(%channel, "an engine job panicked; its result is dropped"),
        }
        let mut st = shared.lock();
        if st
            .running
            .get(&channel)
            .is_some_and(|(id, _)| *id == entry.id)
        {
            st.running.remove(&channel);
        }
        if background {
            st.background_running = st.background_running.saturating_sub(1);
        }
        st.schedule(&channel);
        drop(st);
        // A channel (or a review) may have become runnable for another worker.
        shared.wake.notify_all();
    }
}

/// Run one job. The bot's clock loses the time the job waited.
fn run(player: &Player, job: Job, queued_ms: u64, stop: &AtomicBool) -> Outcome {
    match job {
        Job::Play {
            game,
            level,
            clock,
            seed,
        } => {
            let clock = clock.map(|c| Clock {
                remaining_ms: c.remaining_ms.saturating_sub(queued_ms),
                ..c
            });
            Outcome::Searched(player.play(&game, level, clock, seed, stop))
        }
        Job::Hint { game, limits } => {
            Outcome::Searched(player.analyse(&game, &limits, stop, &mut |_| {}))
        }
        Job::Review {
            start,
            moves,
            rules,
            limits,
        } => Outcome::Reviewed(
            player
                .with_builtin(|e| review(e, &start, &moves, &rules, limits, stop))
                .map(Box::new),
        ),
    }
}

#[cfg(test)]
#[path = "pool_tests.rs"]
mod tests;
