//! The thinking pool: a fixed number of blocking threads that run every engine job of the chat
//! service (the bot's move, a hint, a review, the judgement of a puzzle move), so that thinking
//! never holds up a reply and never takes more than the pool's threads and tables.
//!
//! - **Bounded**: `threads` workers (default one per core); each search in flight uses one
//!   engine table (the [`Player`] keeps a table per search, not per channel), so memory is
//!   `threads × ENGINE_HASH_MB`, however many channels play or solve.
//! - **Fair per person**: every job names the person it is for and its lane (a channel's bot
//!   moves, its hints, its reviews, its puzzle). The next job goes to the person served longest
//!   ago (one never served first), and among that person's lanes to the one served longest
//!   ago; a lane runs one job at a time, in order. One person asking for work in eight
//!   channels therefore gets one job in turn, like everyone else, not eight. Reviews (seconds
//!   each) are background work: they run only on a free worker while no other job waits, and
//!   on at most half the workers (at least one).
//! - **Cancellable**: [`ThinkingPool::cancel`] drops a lane's waiting jobs and sets the stop
//!   flag of its running one (a game that ends, a takeback): the search returns at once.
//! - **Timed**: a job's result comes with how long it ran ([`Ticket::timed_result`]), not
//!   counting its wait in the queue: the bot's clock is charged with that alone.

use std::collections::{HashMap, HashSet, VecDeque};
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
use crate::puzzle::{check_move, solution_from, Progress, Puzzle, Verdict};
use crate::uci::player::{Played, Player};

/// Work for the pool.
#[derive(Clone, Debug)]
pub enum Job {
    /// The bot's move at `level` in `game` (its clock, if any, as it stood at submission).
    Play {
        /// The game so far.
        game: Arbiter,
        /// Level ([`crate::app::bot::LEVELS`]).
        level: u8,
        /// The bot's clock when the job was submitted (its wait in the queue is not charged).
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
    /// A move tried in a puzzle, judged ([`check_move`]).
    PuzzleMove {
        /// The puzzle.
        puzzle: &'static Puzzle,
        /// Where it stands.
        progress: Progress,
        /// The move tried.
        mv: Move,
        /// Nodes for a move off the listed line.
        nodes: u64,
    },
    /// A winning line from where a puzzle stands ([`solution_from`]).
    PuzzleLine {
        /// The puzzle.
        puzzle: &'static Puzzle,
        /// Where it stands.
        progress: Progress,
        /// Nodes for a search off the listed line.
        nodes: u64,
    },
}

impl Job {
    fn kind(&self) -> crate::app::metrics::JobKind {
        use crate::app::metrics::JobKind;
        match self {
            Job::Play { .. } => JobKind::play,
            Job::Hint { .. } => JobKind::hint,
            Job::Review { .. } => JobKind::review,
            Job::PuzzleMove { .. } | Job::PuzzleLine { .. } => JobKind::puzzle,
        }
    }

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
    /// The judgement of a puzzle move.
    Judged(Verdict),
    /// A puzzle's winning line.
    Line(Vec<Move>),
}

/// A job's result, once it has run. Dropping it does not cancel the job.
#[derive(Debug)]
pub struct Ticket {
    /// The job's number (for [`ThinkingPool::cancel_job`]).
    pub id: u64,
    rx: oneshot::Receiver<(Outcome, u64)>,
}

impl Ticket {
    /// Wait for the result; `None` if the job was cancelled (before or while it ran), the
    /// pool was shut down, or its search panicked (logged).
    pub async fn result(self) -> Option<Outcome> {
        self.timed_result().await.map(|(out, _)| out)
    }

    /// The result and how long the job ran, in milliseconds (from a worker taking it to its
    /// end: the time it waited in the queue is not in it).
    pub async fn timed_result(self) -> Option<(Outcome, u64)> {
        self.rx.await.ok()
    }

    /// Wait for the result from a blocking thread (tests, tools).
    #[must_use]
    pub fn blocking_result(self) -> Option<Outcome> {
        self.rx.blocking_recv().ok().map(|(out, _)| out)
    }
}

struct Entry {
    id: u64,
    job: Job,
    stop: Arc<AtomicBool>,
    tx: oneshot::Sender<(Outcome, u64)>,
}

/// A lane: one person's jobs of one kind in one channel (its key), run one at a time.
#[derive(Default)]
struct Lane {
    waiting: VecDeque<Entry>,
    /// The running job's id and stop flag.
    running: Option<(u64, Arc<AtomicBool>)>,
    /// The turn this lane was last served at (0: never).
    served: u64,
}

impl Lane {
    /// The kind of the job this lane would run next, if it may run one now.
    fn next(&self) -> Option<bool> {
        match self.running {
            Some(_) => None,
            None => self.waiting.front().map(|e| e.job.background()),
        }
    }
}

/// Who a job is for and its lane.
type LaneKey = (String, String);

/// People remembered by when they were last served: past this many, those without jobs are
/// forgotten (and count as new when they come back).
const REMEMBERED: usize = 20_000;

#[derive(Default)]
struct State {
    /// Lanes with jobs waiting or running, by (person, lane).
    lanes: HashMap<LaneKey, Lane>,
    /// The turn each person was last served at (0 or absent: never).
    served: HashMap<String, u64>,
    /// Jobs taken so far: the turn counter.
    turn: u64,
    /// Reviews running.
    background_running: usize,
    closed: bool,
}

impl State {
    /// Queue `entry` for `user` in `lane`.
    fn push(&mut self, user: &str, lane: &str, entry: Entry) {
        self.lanes
            .entry((user.to_string(), lane.to_string()))
            .or_default()
            .waiting
            .push_back(entry);
    }

    /// The lane whose job runs next among those whose next job is `background` or not: the
    /// person served longest ago, then their lane served longest ago, then the oldest job.
    fn pick(&self, background: bool) -> Option<LaneKey> {
        self.lanes
            .iter()
            .filter(|(_, l)| l.next() == Some(background))
            .min_by_key(|((user, _), l)| {
                (
                    self.served.get(user).copied().unwrap_or(0),
                    l.served,
                    l.waiting.front().map_or(u64::MAX, |e| e.id),
                )
            })
            .map(|(k, _)| k.clone())
    }

    /// The next job to run, if one may run now.
    fn take(&mut self, background_cap: usize) -> Option<(LaneKey, Entry)> {
        let key = self.pick(false).or_else(|| {
            (self.background_running < background_cap)
                .then(|| self.pick(true))
                .flatten()
        })?;
        self.turn += 1;
        let turn = self.turn;
        let lane = self.lanes.get_mut(&key)?;
        let entry = lane.waiting.pop_front()?;
        lane.running = Some((entry.id, entry.stop.clone()));
        lane.served = turn;
        if entry.job.background() {
            self.background_running += 1;
        }
        if self.served.len() >= REMEMBERED {
            let busy: HashSet<&str> = self.lanes.keys().map(|(u, _)| u.as_str()).collect();
            self.served.retain(|user, _| busy.contains(user.as_str()));
        }
        self.served.insert(key.0.clone(), turn);
        Some((key, entry))
    }

    /// Job `id` of `key` has ended.
    fn finish(&mut self, key: &LaneKey, id: u64, background: bool) {
        if let Some(lane) = self.lanes.get_mut(key) {
            if lane.running.as_ref().is_some_and(|(r, _)| *r == id) {
                lane.running = None;
            }
            if lane.running.is_none() && lane.waiting.is_empty() {
                self.lanes.remove(key);
            }
        }
        if background {
            self.background_running = self.background_running.saturating_sub(1);
        }
    }

    /// Every lane called `lane`, whoever it is for.
    fn lanes_called<'a>(&'a mut self, lane: &'a str) -> impl Iterator<Item = &'a mut Lane> {
        self.lanes
            .iter_mut()
            .filter(move |((_, l), _)| l == lane)
            .map(|(_, l)| l)
    }

    /// Forget lanes with nothing waiting or running.
    fn prune(&mut self) {
        self.lanes
            .retain(|_, l| l.running.is_some() || !l.waiting.is_empty());
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

    /// Queue `job` for the person `user` in `lane` (a channel's bot moves, its hints, ...).
    pub fn submit(&self, user: &str, lane: &str, job: Job) -> Ticket {
        let (tx, rx) = oneshot::channel();
        let id = self.shared.next_id.fetch_add(1, Ordering::Relaxed);
        let mut st = self.shared.lock();
        if st.closed {
            return Ticket { id, rx }; // tx dropped: the result is `None`
        }
        st.push(
            user,
            lane,
            Entry {
                id,
                job,
                stop: Arc::new(AtomicBool::new(false)),
                tx,
            },
        );
        drop(st);
        self.shared.wake.notify_one();
        Ticket { id, rx }
    }

    /// Cancel everything in `lane`, whoever it is for: waiting jobs are dropped, a running
    /// one is stopped.
    pub fn cancel(&self, lane: &str) {
        let mut st = self.shared.lock();
        for l in st.lanes_called(lane) {
            l.waiting.clear();
            if let Some((_, stop)) = &l.running {
                stop.store(true, Ordering::Relaxed);
            }
        }
        st.prune();
    }

    /// Cancel one job of `lane` by its id, waiting or running.
    pub fn cancel_job(&self, lane: &str, id: u64) {
        let mut st = self.shared.lock();
        for l in st.lanes_called(lane) {
            l.waiting.retain(|e| e.id != id);
            if let Some((_, stop)) = l.running.as_ref().filter(|(r, _)| *r == id) {
                stop.store(true, Ordering::Relaxed);
            }
        }
        st.prune();
    }

    /// Jobs waiting (not running), for the load figures.
    #[must_use]
    pub fn waiting(&self) -> usize {
        self.shared
            .lock()
            .lanes
            .values()
            .map(|l| l.waiting.len())
            .sum()
    }

    /// Jobs running.
    #[must_use]
    pub fn running(&self) -> usize {
        self.shared
            .lock()
            .lanes
            .values()
            .filter(|l| l.running.is_some())
            .count()
    }

    /// Stop every search and the workers, and wait for them.
    pub fn shutdown(&self) {
        {
            let mut st = self.shared.lock();
            st.closed = true;
            for l in st.lanes.values_mut() {
                l.waiting.clear();
                if let Some((_, stop)) = &l.running {
                    stop.store(true, Ordering::Relaxed);
                }
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
        let (key, entry) = {
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
        let kind = entry.job.kind();
        let stop = entry.stop.clone();
        let started = Instant::now();
        let out = catch_unwind(AssertUnwindSafe(|| run(&shared.player, entry.job, &stop)));
        crate::app::metrics::metrics().searched(kind, started.elapsed());
        let ran_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        match out {
            // A cancelled job's answer is stale: dropped, so its ticket resolves to `None`.
            Ok(_) if stop.load(Ordering::Relaxed) => {}
            Ok(out) => {
                let _ = entry.tx.send((out, ran_ms));
            }
            Err(_) => {
                tracing::error!(lane = %key.1, "an engine job panicked; its result is dropped")
            }
        }
        shared.lock().finish(&key, entry.id, background);
        // A lane (or a review) may have become runnable for another worker.
        shared.wake.notify_all();
    }
}

/// Run one job.
fn run(player: &Player, job: Job, stop: &AtomicBool) -> Outcome {
    match job {
        Job::Play {
            game,
            level,
            clock,
            seed,
        } => Outcome::Searched(player.play(&game, level, clock, seed, stop)),
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
        Job::PuzzleMove {
            puzzle,
            progress,
            mv,
            nodes,
        } => Outcome::Judged(player.with_builtin(|e| check_move(puzzle, &progress, mv, e, nodes))),
        Job::PuzzleLine {
            puzzle,
            progress,
            nodes,
        } => Outcome::Line(player.with_builtin(|e| solution_from(puzzle, &progress, e, nodes))),
    }
}

#[cfg(test)]
#[path = "pool_tests.rs"]
mod tests;
