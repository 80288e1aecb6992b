//! Lanes: one queue and one worker task per key (a chat, a channel), so items of one key are
//! handled strictly in order while keys never wait on each other. A worker ends after a
//! while without work and is started again by the next item. The adapters use lanes for the
//! updates they read and for the replies they send.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::hash::Hash;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use tokio::sync::{mpsc, Notify};
use tokio::task::JoinHandle;

/// How deliveries wait and retry.
#[derive(Clone, Copy, Debug)]
pub struct RetryPolicy {
    /// The first wait after a failure (doubled each time).
    pub first_backoff: Duration,
    /// The longest wait between two attempts.
    pub max_backoff: Duration,
    /// How often a server error (5xx) or an answer that is not the platform's is retried
    /// before the message is given up (network failures are retried until they pass).
    pub unknown_error_attempts: u32,
    /// How long a lane's worker stays without work before it ends.
    pub idle: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            first_backoff: Duration::from_millis(500),
            max_backoff: Duration::from_secs(60),
            // 0.5 s doubling to a minute: about twenty minutes of trying.
            unknown_error_attempts: 25,
            idle: Duration::from_secs(60),
        }
    }
}

impl RetryPolicy {
    /// The wait after `backoff`: doubled, within the cap.
    #[must_use]
    pub fn next(&self, backoff: Duration) -> Duration {
        (backoff * 2).min(self.max_backoff)
    }
}

/// How many items a chat's lane takes in all before it refuses an answer that was not stored
/// (a command that changed nothing): the outbox hands over at most
/// [`crate::app::OUTBOX_WINDOW`] entries of a chat, so this leaves as many again for answers.
pub const HELD_PER_LANE: usize = 2 * crate::app::OUTBOX_WINDOW;

/// The lanes whose queue refused an answer since they last told their chat so: a full lane
/// gets one notice (see [`crate::app::Service::queue_full_notice`]), queued past the cap,
/// and no other until that one is sent.
pub struct Skipped<K> {
    told: Mutex<HashSet<K>>,
}

impl<K> Default for Skipped<K> {
    fn default() -> Self {
        Skipped {
            told: Mutex::new(HashSet::new()),
        }
    }
}

impl<K: Eq + Hash> Skipped<K> {
    /// An answer for `key` was refused: whether its chat is to be told (not told already).
    pub fn first(&self, key: K) -> bool {
        locked(&self.told).insert(key)
    }

    /// `key`'s notice was sent: a later refusal is told again.
    pub fn told(&self, key: &K) {
        locked(&self.told).remove(key);
    }
}

/// What a lane does with one item.
pub type Work<T> = Arc<dyn Fn(T) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync>;

/// Queues by key, each worked through in order by its own task.
pub struct Lanes<K, T> {
    inner: Arc<Inner<K, T>>,
}

impl<K, T> Clone for Lanes<K, T> {
    fn clone(&self) -> Self {
        Lanes {
            inner: Arc::clone(&self.inner),
        }
    }
}

struct Inner<K, T> {
    work: Work<T>,
    idle: Duration,
    queues: Mutex<HashMap<K, Queue<T>>>,
    workers: Mutex<Vec<JoinHandle<()>>>,
    /// Items pushed and not yet worked through.
    pending: AtomicUsize,
    settled: Notify,
    closed: AtomicBool,
}

/// One key's queue and how many of its items are not worked through yet.
struct Queue<T> {
    tx: mpsc::UnboundedSender<T>,
    held: usize,
}

fn locked<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<K, T> Lanes<K, T>
where
    K: Clone + Eq + Hash + Send + Sync + 'static,
    T: Send + 'static,
{
    /// Lanes that run `work` on each item; a worker without work for `idle` ends.
    #[must_use]
    pub fn new(idle: Duration, work: Work<T>) -> Lanes<K, T> {
        Lanes {
            inner: Arc::new(Inner {
                work,
                idle,
                queues: Mutex::new(HashMap::new()),
                workers: Mutex::new(Vec::new()),
                pending: AtomicUsize::new(0),
                settled: Notify::new(),
                closed: AtomicBool::new(false),
            }),
        }
    }

    /// Queue `item` behind the earlier ones of `key`. Returns it when the lanes are closed.
    ///
    /// # Errors
    /// The item, when [`Lanes::drain`] has closed the lanes.
    pub fn push(&self, key: K, item: T) -> Result<(), T> {
        self.push_within(key, item, usize::MAX)
    }

    /// [`Lanes::push`], unless `key` already has `cap` items not worked through.
    ///
    /// # Errors
    /// The item, when the lanes are closed or `key`'s queue is full.
    pub fn push_within(&self, key: K, item: T, cap: usize) -> Result<(), T> {
        let inner = &self.inner;
        if inner.closed.load(Ordering::SeqCst) {
            return Err(item);
        }
        let mut queues = locked(&inner.queues);
        let item = match queues.get_mut(&key) {
            Some(q) if q.held >= cap => return Err(item),
            Some(q) => match q.tx.send(item) {
                Ok(()) => {
                    q.held += 1;
                    inner.pending.fetch_add(1, Ordering::SeqCst);
                    return Ok(());
                }
                Err(mpsc::error::SendError(item)) => item, // its worker just ended
            },
            None => item,
        };
        let (tx, rx) = mpsc::unbounded_channel();
        // A fresh channel's receiver is alive: this cannot fail.
        let _ = tx.send(item);
        inner.pending.fetch_add(1, Ordering::SeqCst);
        queues.insert(key.clone(), Queue { tx, held: 1 });
        drop(queues);
        let handle = tokio::spawn(worker(Arc::clone(inner), key, rx));
        let mut workers = locked(&inner.workers);
        workers.retain(|h| !h.is_finished());
        workers.push(handle);
        Ok(())
    }

    /// Items pushed and not worked through yet.
    #[must_use]
    pub fn pending(&self) -> usize {
        self.inner.pending.load(Ordering::SeqCst)
    }

    /// Wait until every item pushed so far is worked through, for at most `limit`; returns
    /// how many were left.
    pub async fn settle(&self, limit: Duration) -> usize {
        let inner = &self.inner;
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let settled = inner.settled.notified();
            tokio::pin!(settled);
            settled.as_mut().enable();
            if inner.pending.load(Ordering::SeqCst) == 0 {
                return 0;
            }
            if tokio::time::timeout_at(deadline, settled).await.is_err() {
                return inner.pending.load(Ordering::SeqCst);
            }
        }
    }

    /// Stop taking items and work through the queued ones, for at most `limit`; then stop
    /// the workers. Returns how many items were left undone.
    pub async fn drain(&self, limit: Duration) -> usize {
        let inner = &self.inner;
        inner.closed.store(true, Ordering::SeqCst);
        // Dropping the senders lets each worker end once its queue is empty.
        locked(&inner.queues).clear();
        let left = self.settle(limit).await;
        for h in locked(&inner.workers).drain(..) {
            h.abort();
        }
        left
    }
}

async fn worker<K, T>(inner: Arc<Inner<K, T>>, key: K, mut rx: mpsc::UnboundedReceiver<T>)
where
    K: Eq + Hash,
{
    loop {
        let item = match tokio::time::timeout(inner.idle, rx.recv()).await {
            Ok(Some(item)) => item,
            Ok(None) => break,
            Err(_) => {
                // Idle: leave, unless an item arrived while the map was not locked.
                let mut queues = locked(&inner.queues);
                if let Ok(item) = rx.try_recv() {
                    drop(queues);
                    item
                } else {
                    queues.remove(&key);
                    break;
                }
            }
        };
        (inner.work)(item).await;
        if let Some(q) = locked(&inner.queues).get_mut(&key) {
            q.held = q.held.saturating_sub(1);
        }
        inner.pending.fetch_sub(1, Ordering::SeqCst);
        inner.settled.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn items_of_a_key_keep_their_order_and_keys_do_not_wait_on_each_other() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let l2 = Arc::clone(&log);
        let work: Work<(u8, u32)> = Arc::new(move |(key, n)| {
            let log = Arc::clone(&l2);
            Box::pin(async move {
                if key == 1 {
                    // Key 1 is slow; key 2 goes on meanwhile.
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                locked(&log).push((key, n));
            })
        });
        let lanes: Lanes<u8, (u8, u32)> = Lanes::new(Duration::from_millis(50), work);
        for n in 0..5 {
            assert!(lanes.push(1, (1, n)).is_ok());
            assert!(lanes.push(2, (2, n)).is_ok());
        }
        assert_eq!(lanes.settle(Duration::from_secs(5)).await, 0);
        let got = locked(&log).clone();
        let of = |k| {
            got.iter()
                .filter(|(key, _)| *key == k)
                .map(|(_, n)| *n)
                .collect::<Vec<_>>()
        };
        assert_eq!(of(1), vec![0, 1, 2, 3, 4]);
        assert_eq!(of(2), vec![0, 1, 2, 3, 4]);
        assert_eq!(got[0].0, 2, "the fast lane did not wait: {got:?}");
        // Idle workers end, and a later item starts one again.
        tokio::time::sleep(Duration::from_millis(120)).await;
        assert!(lanes.push(1, (1, 9)).is_ok());
        assert_eq!(lanes.drain(Duration::from_secs(5)).await, 0);
        assert_eq!(locked(&log).last(), Some(&(1, 9)));
        assert!(lanes.push(1, (1, 10)).is_err(), "closed after draining");
    }

    #[tokio::test]
    async fn a_lane_refuses_items_beyond_its_cap_and_takes_them_again_once_worked_through() {
        let gate = Arc::new(tokio::sync::Semaphore::new(0));
        let g2 = Arc::clone(&gate);
        let work: Work<u32> = Arc::new(move |_| {
            let gate = Arc::clone(&g2);
            Box::pin(async move {
                if let Ok(p) = gate.acquire().await {
                    p.forget();
                }
            })
        });
        let lanes: Lanes<u8, u32> = Lanes::new(Duration::from_secs(5), work);
        for n in 0..3 {
            assert!(lanes.push_within(1, n, 3).is_ok());
        }
        assert_eq!(lanes.push_within(1, 3, 3), Err(3), "a full lane refuses");
        assert!(lanes.push_within(2, 0, 3).is_ok(), "another key has room");
        let skipped = Skipped::default();
        assert!(skipped.first(1), "the first refusal is told");
        assert!(!skipped.first(1), "not twice before the notice is sent");
        assert!(skipped.first(2), "each key on its own");
        skipped.told(&1);
        assert!(skipped.first(1), "told again after its notice went out");
        assert!(lanes.push(1, 4).is_ok(), "an uncapped push always goes");
        gate.add_permits(6);
        assert_eq!(lanes.settle(Duration::from_secs(5)).await, 0);
        assert!(lanes.push_within(1, 5, 3).is_ok(), "room again");
        gate.add_permits(1);
        assert_eq!(lanes.drain(Duration::from_secs(5)).await, 0);
    }
}
