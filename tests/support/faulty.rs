//! The real sled storage with one fault on demand: [`Faulty::fail_once`] makes the next write
//! whose changes match a test fail (nothing of it written), as a full disk or a lost
//! database connection would; [`Faulty::slow`] makes matching writes wait first, as a
//! loaded disk would; every other call goes to sled unchanged.

use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use xiangqi_bot::game::{
    BoxFuture, Changes, ChannelRecord, Deadline, GameRecord, OutboxKey, PuzzlePlayer,
    PuzzleStanding, ReviewRecord, Storage, StorageError, UserPrefs,
};
use xiangqi_bot::platform::{ChannelKey, UserKey};
use xiangqi_bot::rating::{Entry, Family, GameEnd, HistoryPoint, PairRecord, Profile};
use xiangqi_bot::storage::SledStorage;

type Matcher = Box<dyn Fn(&Changes) -> bool + Send + Sync>;

/// Sled, and a write that is to fail.
pub struct Faulty {
    inner: SledStorage,
    armed: Mutex<Option<Matcher>>,
    failed: Mutex<usize>,
    slowed: Mutex<Option<(Matcher, Duration)>>,
}

impl Faulty {
    /// Sled at `path`.
    pub fn open(path: &Path) -> Arc<Faulty> {
        Arc::new(Faulty {
            inner: SledStorage::open(path).expect("sled"),
            armed: Mutex::new(None),
            failed: Mutex::new(0),
            slowed: Mutex::new(None),
        })
    }

    /// The next write whose changes `matches` fails, once.
    #[allow(dead_code)]
    pub fn fail_once(&self, matches: impl Fn(&Changes) -> bool + Send + Sync + 'static) {
        *self.armed.lock().unwrap_or_else(PoisonError::into_inner) = Some(Box::new(matches));
    }

    /// From now on every write whose changes `matches` waits `delay` before it is made.
    #[allow(dead_code)]
    pub fn slow(
        &self,
        matches: impl Fn(&Changes) -> bool + Send + Sync + 'static,
        delay: Duration,
    ) {
        *self.slowed.lock().unwrap_or_else(PoisonError::into_inner) =
            Some((Box::new(matches), delay));
    }

    fn delay(&self, changes: &Changes) -> Option<Duration> {
        let slowed = self.slowed.lock().unwrap_or_else(PoisonError::into_inner);
        slowed.as_ref().filter(|(m, _)| m(changes)).map(|&(_, d)| d)
    }

    /// How many writes failed so far.
    #[allow(dead_code)]
    pub fn failures(&self) -> usize {
        *self.failed.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn trips(&self, changes: &Changes) -> bool {
        let mut armed = self.armed.lock().unwrap_or_else(PoisonError::into_inner);
        if armed.as_ref().is_some_and(|m| m(changes)) {
            *armed = None;
            *self.failed.lock().unwrap_or_else(PoisonError::into_inner) += 1;
            return true;
        }
        false
    }
}

impl Storage for Faulty {
    fn persist(&self, changes: Changes) -> BoxFuture<'_, Result<(), StorageError>> {
        if self.trips(&changes) {
            return Box::pin(async { Err(StorageError("injected write failure".into())) });
        }
        if let Some(delay) = self.delay(&changes) {
            return Box::pin(async move {
                tokio::time::sleep(delay).await;
                self.inner.persist(changes).await
            });
        }
        self.inner.persist(changes)
    }
    fn flush(&self) -> BoxFuture<'_, Result<(), StorageError>> {
        self.inner.flush()
    }
    fn review(&self, id: u64) -> Result<Option<ReviewRecord>, StorageError> {
        self.inner.review(id)
    }
    fn pending_reviews(&self) -> Result<Vec<ReviewRecord>, StorageError> {
        self.inner.pending_reviews()
    }
    fn game(&self, id: u64) -> Result<Option<GameRecord>, StorageError> {
        self.inner.game(id)
    }
    fn puzzle_player(&self, player: &UserKey) -> Result<Option<PuzzlePlayer>, StorageError> {
        self.inner.puzzle_player(player)
    }
    fn puzzle_standing(&self, id: &str) -> Result<Option<PuzzleStanding>, StorageError> {
        self.inner.puzzle_standing(id)
    }
    fn channel(&self, key: &ChannelKey) -> Result<Option<ChannelRecord>, StorageError> {
        self.inner.channel(key)
    }
    fn user(&self, key: &UserKey) -> Result<Option<UserPrefs>, StorageError> {
        self.inner.user(key)
    }
    fn next_id(&self) -> Result<u64, StorageError> {
        self.inner.next_id()
    }
    fn next_game_number(&self) -> Result<u64, StorageError> {
        self.inner.next_game_number()
    }
    fn next_deadline(&self) -> Result<Option<Deadline>, StorageError> {
        self.inner.next_deadline()
    }
    fn due_deadlines(&self, now_ms: u64) -> Result<Vec<Deadline>, StorageError> {
        self.inner.due_deadlines(now_ms)
    }
    fn all_deadlines(&self) -> Result<Vec<Deadline>, StorageError> {
        self.inner.all_deadlines()
    }
    fn active_games(&self) -> Result<Vec<u64>, StorageError> {
        self.inner.active_games()
    }
    fn games_of(&self, user: &UserKey, limit: usize) -> Result<Vec<u64>, StorageError> {
        self.inner.games_of(user, limit)
    }
    fn meta(&self, key: &str) -> Result<Option<u64>, StorageError> {
        self.inner.meta(key)
    }
    fn set_meta(&self, key: &str, value: u64) -> Result<(), StorageError> {
        self.inner.set_meta(key, value)
    }
    fn game_count(&self) -> usize {
        self.inner.game_count()
    }
    fn game_end(&self, id: u64) -> Result<Option<GameEnd>, StorageError> {
        self.inner.game_end(id)
    }
    fn profile(&self, player: &str) -> Result<Option<Profile>, StorageError> {
        self.inner.profile(player)
    }
    fn pair(&self, a: &str, b: &str) -> Result<Option<PairRecord>, StorageError> {
        self.inner.pair(a, b)
    }
    fn rating_history(
        &self,
        player: &str,
        family: Family,
        limit: usize,
    ) -> Result<Vec<HistoryPoint>, StorageError> {
        self.inner.rating_history(player, family, limit)
    }
    fn leaderboard(
        &self,
        scope: &str,
        family: Family,
        now_ms: u64,
        first: usize,
        visit: &mut dyn FnMut(usize, Entry) -> bool,
    ) -> Result<(), StorageError> {
        self.inner.leaderboard(scope, family, now_ms, first, visit)
    }
    fn rank(
        &self,
        scope: &str,
        family: Family,
        player: &str,
        rating: f64,
        now_ms: u64,
    ) -> Result<Option<usize>, StorageError> {
        self.inner.rank(scope, family, player, rating, now_ms)
    }
    fn last_family(&self, scope: &str) -> Result<Option<(Family, u64)>, StorageError> {
        self.inner.last_family(scope)
    }
    fn alias(&self, handle: &str) -> Result<Option<UserKey>, StorageError> {
        self.inner.alias(handle)
    }
    fn next_outbox_seq(&self) -> Result<u64, StorageError> {
        self.inner.next_outbox_seq()
    }
    fn outbox(&self, prefix: &str) -> Result<Vec<(OutboxKey, Vec<u8>)>, StorageError> {
        self.inner.outbox(prefix)
    }
    fn outbox_of(
        &self,
        channel: &ChannelKey,
        after: u64,
        limit: usize,
    ) -> Result<Vec<(OutboxKey, Vec<u8>)>, StorageError> {
        self.inner.outbox_of(channel, after, limit)
    }
    fn inbox(&self, prefix: &str) -> Result<Vec<(String, Vec<u8>)>, StorageError> {
        self.inner.inbox(prefix)
    }
    fn seen(&self, id: &str) -> Result<bool, StorageError> {
        self.inner.seen(id)
    }
    fn forget_seen(&self, before_ms: u64) -> Result<usize, StorageError> {
        self.inner.forget_seen(before_ms)
    }
}
