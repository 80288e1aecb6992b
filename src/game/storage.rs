//! The storage trait the service is written against (`src/storage/` implements it on sled).

use std::future::Future;
use std::pin::Pin;

use super::model::{ChannelRecord, Deadline, GameRecord, UserPrefs};
use super::puzzle::{PuzzlePlayer, PuzzleStanding};
use crate::platform::{ChannelKey, UserKey};
use crate::rating::{Entry, Family, GameEnd, HistoryPoint, PairRecord, Profile};

/// A storage failure (disk, corruption). Shown to users only as a generic apology.
#[derive(Debug)]
pub struct StorageError(pub String);

impl std::fmt::Display for StorageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "storage error: {}", self.0)
    }
}

impl std::error::Error for StorageError {}

/// Where a reply waits in the outbox: its channel and its place in that channel's order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OutboxKey {
    /// The channel (`tg:…`, `dc:…`, `console:…`); replies of one channel go out in order.
    pub channel: ChannelKey,
    /// The sequence number, growing across restarts.
    pub seq: u64,
}

/// `Changes`, declared once: each field with its documentation, its type, how a later change
/// merges into an earlier one ([`Changes::absorb`]), and whether it changes the state of
/// games, channels, users or deadlines ([`Changes::changes_state`]) or only the record of
/// delivery (`log`). [`Changes::is_empty`] and both methods come from this one list. The
/// backends write each kind their own way; PostgreSQL's `encode` (`storage/pg/write.rs`) names
/// every field, so a new kind of change does not build until it is written there too.
macro_rules! changes {
    ($(#[$sdoc:meta])* pub struct Changes {
        $( $(#[$doc:meta])* $name:ident: $ty:ty => $rule:ident $(($($arg:tt)*))?, $scope:ident; )*
    }) => {
        $(#[$sdoc])*
        #[derive(Debug, Default)]
        pub struct Changes {
            $( $(#[$doc])* pub $name: $ty, )*
        }

        impl Changes {
            /// Whether nothing would be written.
            #[must_use]
            pub fn is_empty(&self) -> bool {
                true $( && Nothing::is_nothing(&self.$name) )*
            }

            /// Whether the state of games, channels, users or deadlines changes (the outbox
            /// and the record of handled events aside).
            #[must_use]
            pub fn changes_state(&self) -> bool {
                false $( || (changes!(@state $scope) && !Nothing::is_nothing(&self.$name)) )*
            }

            /// Add `later`'s changes after these, as if both were applied one after the
            /// other: a record written twice keeps the later version, and a deadline added
            /// then removed (or removed then added) ends as the later change says.
            pub fn absorb(&mut self, mut later: Changes) {
                $( changes!(@merge self, later, $name, $rule $(($($arg)*))?); )*
            }
        }
    };
    (@state state) => { true };
    (@state log) => { false };
    // Appended in order.
    (@merge $this:ident, $later:ident, $f:ident, append) => {
        $this.$f.extend(std::mem::take(&mut $later.$f));
    };
    // The larger of the two.
    (@merge $this:ident, $later:ident, $f:ident, max) => {
        $this.$f = $this.$f.max($later.$f.take());
    };
    // Records by key: the later one wins, and the earlier copies go (they would be written
    // first and overwritten anyway).
    (@merge $this:ident, $later:ident, $f:ident, keyed($key:expr)) => {{
        let later = std::mem::take(&mut $later.$f);
        let key = $key;
        $this.$f.retain(|x| !later.iter().any(|y| key(y) == key(x)));
        $this.$f.extend(later);
    }};
    // Removals of what `$adds` adds, merged before the additions (the field is declared
    // before `$adds`): a deadline the later change removes must not survive as an earlier
    // addition, and one it adds must not be removed.
    (@merge $this:ident, $later:ident, $f:ident, removes($adds:ident)) => {{
        let later = std::mem::take(&mut $later.$f);
        $this.$adds.retain(|d| !later.contains(d));
        $this.$f.extend(later);
        $this.$f.retain(|d| !$later.$adds.contains(d));
    }};
}

/// A field of [`Changes`] that holds nothing to write.
trait Nothing {
    fn is_nothing(&self) -> bool;
}

impl<T> Nothing for Vec<T> {
    fn is_nothing(&self) -> bool {
        self.is_empty()
    }
}

impl<T> Nothing for Option<T> {
    fn is_nothing(&self) -> bool {
        self.is_none()
    }
}

fn game_id(g: &GameRecord) -> u64 {
    g.id
}

fn review_game(r: &super::analysis::ReviewRecord) -> u64 {
    r.game
}

fn first<A, B>(pair: &(A, B)) -> &A {
    &pair.0
}

changes! {
    /// A set of changes written atomically and durably by [`Storage::persist`].
    pub struct Changes {
        /// Games to write (whole records).
        games: Vec<GameRecord> => keyed(game_id), state;
        /// Channels to write.
        channels: Vec<(ChannelKey, ChannelRecord)> => keyed(first), state;
        /// User preferences to write.
        users: Vec<(UserKey, UserPrefs)> => keyed(first), state;
        /// Deadlines to remove.
        remove_deadlines: Vec<Deadline> => removes(add_deadlines), state;
        /// Deadlines to add.
        add_deadlines: Vec<Deadline> => append, state;
        /// Handles to remember: (`platform:@handle`, player id), so `/rating @handle` finds a
        /// player the platform names only by handle.
        aliases: Vec<(String, UserKey)> => append, state;
        /// Replies to deliver (the outbox), as the service encoded them.
        outbox: Vec<(OutboxKey, Vec<u8>)> => append, log;
        /// Outbox entries delivered (or given up), to forget.
        delivered: Vec<OutboxKey> => append, log;
        /// Incoming events handled, by their platform id (`tg:u:123`), with the time: a
        /// platform that delivers an event again after a crash finds it here and it is not run
        /// twice.
        seen: Vec<(String, u64)> => append, log;
        /// A game number (from [`Storage::next_game_number`]) now in use: the stored counter
        /// moves up to it in the same transaction (it never moves down).
        game_number: Option<u64> => max, state;
        /// Game reviews to write (asked for, or done), by their game.
        reviews: Vec<super::analysis::ReviewRecord> => keyed(review_game), state;
        /// Solvers' puzzle records to write, by player id.
        puzzle_players: Vec<(UserKey, PuzzlePlayer)> => keyed(first), state;
        /// Puzzles' own ratings to write, by puzzle id.
        puzzle_standings: Vec<(String, PuzzleStanding)> => keyed(first), state;
        /// Incoming events to keep until handled (the inbox), by a key that orders them
        /// (`tg:BOT:00000000123`), as the platform sent them: a platform told "received"
        /// sends them no more, so they are kept before it is told.
        inbox: Vec<(String, Vec<u8>)> => append, log;
        /// Inbox entries handled, to forget.
        inbox_done: Vec<String> => append, log;
    }
}

/// A boxed future, so the trait stays object-safe.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A channel held against the other processes sharing the storage (see [`Storage::lease`]):
/// while it lives no other process runs a command in the channel.
pub struct Lease {
    /// Whether nothing was written to the channel since this process last read or wrote it
    /// under a lease: what it holds of the channel in memory is current.
    pub fresh: bool,
    /// Released (the next process let in) when dropped.
    pub hold: Box<dyn Send + Sync>,
}

impl std::fmt::Debug for Lease {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lease").field("fresh", &self.fresh).finish()
    }
}

/// Work claimed for the whole fleet (see [`Storage::claim_work`]): given up when dropped.
pub type Claim = Box<dyn Send + Sync>;

/// The metadata key of the heartbeat: the last time the service was alive.
pub const ALIVE: &str = "alive_ms";

/// Where games, channels, preferences and deadlines live.
pub trait Storage: Send + Sync + 'static {
    /// The review of game `id`, asked for or done.
    ///
    /// # Errors
    /// On a storage failure.
    fn review(&self, id: u64) -> Result<Option<super::analysis::ReviewRecord>, StorageError>;

    /// Reviews asked for and not done (to resume after a restart).
    ///
    /// # Errors
    /// On a storage failure.
    fn pending_reviews(&self) -> Result<Vec<super::analysis::ReviewRecord>, StorageError>;

    /// A game by id.
    ///
    /// # Errors
    /// On a storage failure.
    fn game(&self, id: u64) -> Result<Option<GameRecord>, StorageError>;

    /// A solver's puzzle record.
    ///
    /// # Errors
    /// On a storage failure.
    fn puzzle_player(&self, player: &UserKey) -> Result<Option<PuzzlePlayer>, StorageError>;

    /// A puzzle's own rating, once it was rated.
    ///
    /// # Errors
    /// On a storage failure.
    fn puzzle_standing(&self, id: &str) -> Result<Option<PuzzleStanding>, StorageError>;
    /// A channel by key.
    ///
    /// # Errors
    /// On a storage failure.
    fn channel(&self, key: &ChannelKey) -> Result<Option<ChannelRecord>, StorageError>;
    /// A user's preferences.
    ///
    /// # Errors
    /// On a storage failure.
    fn user(&self, key: &UserKey) -> Result<Option<UserPrefs>, StorageError>;
    /// A fresh id for a challenge (unique, not consecutive).
    ///
    /// # Errors
    /// On a storage failure.
    fn next_id(&self) -> Result<u64, StorageError>;
    /// The number for a new game: one more than the highest stored (through
    /// [`Changes::game_number`]) or handed out since the start. A number handed out but never
    /// stored is handed out again after a restart, so a crash leaves no gap in the numbers.
    ///
    /// # Errors
    /// On a storage failure.
    fn next_game_number(&self) -> Result<u64, StorageError>;
    /// Write `changes` atomically (all or nothing) and durably: when the future resolves
    /// `Ok`, the changes survive a crash. A game written as finished or aborted for the
    /// first time also gets its rating update ([`crate::rating::apply`]: ratings, statistics,
    /// history, leaderboards and its [`GameEnd`]) in the same transaction, exactly once per
    /// game id.
    fn persist(&self, changes: Changes) -> BoxFuture<'_, Result<(), StorageError>>;
    /// Make everything written so far durable (metadata included).
    fn flush(&self) -> BoxFuture<'_, Result<(), StorageError>> {
        self.persist(Changes::default())
    }
    /// The earliest deadline.
    ///
    /// # Errors
    /// On a storage failure.
    fn next_deadline(&self) -> Result<Option<Deadline>, StorageError>;
    /// Every deadline at or before `now_ms`, earliest first.
    ///
    /// # Errors
    /// On a storage failure.
    fn due_deadlines(&self, now_ms: u64) -> Result<Vec<Deadline>, StorageError>;
    /// Every deadline (for shifting them after downtime).
    ///
    /// # Errors
    /// On a storage failure.
    fn all_deadlines(&self) -> Result<Vec<Deadline>, StorageError>;
    /// Ids of games in progress.
    ///
    /// # Errors
    /// On a storage failure.
    fn active_games(&self) -> Result<Vec<u64>, StorageError>;
    /// Ids of the games `user` plays or played, newest first (at most `limit`).
    ///
    /// # Errors
    /// On a storage failure.
    fn games_of(&self, user: &UserKey, limit: usize) -> Result<Vec<u64>, StorageError>;
    /// A small metadata value (e.g. the last time the service was alive).
    ///
    /// # Errors
    /// On a storage failure.
    fn meta(&self, key: &str) -> Result<Option<u64>, StorageError>;
    /// Set a metadata value.
    ///
    /// # Errors
    /// On a storage failure.
    fn set_meta(&self, key: &str, value: u64) -> Result<(), StorageError>;
    /// Number of stored games.
    fn game_count(&self) -> usize;
    /// The rating record of a finished or aborted game.
    ///
    /// # Errors
    /// On a storage failure.
    fn game_end(&self, id: u64) -> Result<Option<GameEnd>, StorageError>;
    /// A player's ratings and statistics.
    ///
    /// # Errors
    /// On a storage failure.
    fn profile(&self, player: &str) -> Result<Option<Profile>, StorageError>;
    /// The record between two players.
    ///
    /// # Errors
    /// On a storage failure.
    fn pair(&self, a: &str, b: &str) -> Result<Option<PairRecord>, StorageError>;
    /// A player's last `limit` rating changes in `family`, oldest first.
    ///
    /// # Errors
    /// On a storage failure.
    fn rating_history(
        &self,
        player: &str,
        family: Family,
        limit: usize,
    ) -> Result<Vec<HistoryPoint>, StorageError>;
    /// Walk the players listed at `now_ms` on the leaderboard of `scope` in `family`,
    /// highest rating first, from rank `first` (from 1), each with its rank, until `visit`
    /// returns `false`. Ranks before `first` are counted without reading their entries.
    ///
    /// # Errors
    /// On a storage failure.
    fn leaderboard(
        &self,
        scope: &str,
        family: Family,
        now_ms: u64,
        first: usize,
        visit: &mut dyn FnMut(usize, Entry) -> bool,
    ) -> Result<(), StorageError>;
    /// The rank at `now_ms` of `player`, whose rating in `family` is `rating`, on the
    /// leaderboard of `scope`; none when not listed there.
    ///
    /// # Errors
    /// On a storage failure.
    fn rank(
        &self,
        scope: &str,
        family: Family,
        player: &str,
        rating: f64,
        now_ms: u64,
    ) -> Result<Option<usize>, StorageError>;
    /// The family of the last rated game in `scope`, and when it ended.
    ///
    /// # Errors
    /// On a storage failure.
    fn last_family(&self, scope: &str) -> Result<Option<(Family, u64)>, StorageError>;
    /// The player a handle (`tg:@name`) belongs to.
    ///
    /// # Errors
    /// On a storage failure.
    fn alias(&self, handle: &str) -> Result<Option<UserKey>, StorageError>;
    /// A sequence number for the outbox, greater than every one given before (also across
    /// restarts).
    ///
    /// # Errors
    /// On a storage failure.
    fn next_outbox_seq(&self) -> Result<u64, StorageError>;
    /// The outbox entries not yet delivered whose channel starts with `prefix`, in order.
    ///
    /// # Errors
    /// On a storage failure.
    fn outbox(&self, prefix: &str) -> Result<Vec<(OutboxKey, Vec<u8>)>, StorageError>;
    /// The outbox entries of `channel` exactly that this process delivers, numbered after
    /// `after`, in order, at most `limit` (the next part of a channel's queue that waited in
    /// storage while the part before was delivered).
    ///
    /// # Errors
    /// On a storage failure.
    fn outbox_of(
        &self,
        channel: &ChannelKey,
        after: u64,
        limit: usize,
    ) -> Result<Vec<(OutboxKey, Vec<u8>)>, StorageError>;
    /// The inbox entries whose key starts with `prefix`, in key order (see
    /// [`Changes::inbox`]).
    ///
    /// # Errors
    /// On a storage failure.
    fn inbox(&self, prefix: &str) -> Result<Vec<(String, Vec<u8>)>, StorageError>;
    /// Whether an incoming event with this id was handled (see [`Changes::seen`]).
    ///
    /// # Errors
    /// On a storage failure.
    fn seen(&self, id: &str) -> Result<bool, StorageError>;
    /// Forget handled events recorded before `before_ms` (platforms redeliver only recent
    /// ones); returns how many were forgotten.
    ///
    /// # Errors
    /// On a storage failure.
    fn forget_seen(&self, before_ms: u64) -> Result<usize, StorageError>;

    // Several processes on one storage. The defaults are those of a storage only one process
    // opens (sled): nothing to hold, claim or adopt.

    /// Whether other processes may share this storage.
    fn shared(&self) -> bool {
        false
    }

    /// Hold `key` (a channel, or a name of the service's own) against the other processes,
    /// waiting while one holds it; `None` when no other process can share the storage.
    fn lease<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Option<Lease>, StorageError>> {
        let _ = key;
        Box::pin(async { Ok(None) })
    }

    /// The deadlines due at `now_ms` that this process is to settle, earliest first: on a
    /// shared storage each is claimed, so that no other process settles it meanwhile (a claim
    /// lapses if its process dies before removing the deadline).
    ///
    /// # Errors
    /// On a storage failure.
    fn claim_due(&self, now_ms: u64) -> Result<Vec<Deadline>, StorageError> {
        self.due_deadlines(now_ms)
    }

    /// Say that this process is alive at `now_ms` (the heartbeat; kept under [`ALIVE`] as the
    /// latest of every process's).
    ///
    /// # Errors
    /// On a storage failure.
    fn beat(&self, now_ms: u64) -> Result<(), StorageError> {
        self.set_meta(ALIVE, now_ms)
    }

    /// The other processes sharing the storage that are alive (their heartbeat is recent).
    ///
    /// # Errors
    /// On a storage failure.
    fn others_alive(&self) -> Result<Vec<String>, StorageError> {
        Ok(Vec::new())
    }

    /// Claim the work `key` (the bot's search in a channel, a hint, a review) for this
    /// process, without waiting: `None` when a live process holds it. The claim lasts until
    /// it is dropped or this process dies (a storage no other process shares always gives it).
    fn claim_work<'a>(
        &'a self,
        key: &'a str,
    ) -> BoxFuture<'a, Result<Option<Claim>, StorageError>> {
        let _ = key;
        Box::pin(async { Ok(Some(Box::new(()) as Claim)) })
    }

    /// Outbox entries whose channel starts with `prefix` written by processes that died
    /// before delivering them: from now on this process delivers them. In order per channel.
    ///
    /// # Errors
    /// On a storage failure.
    fn adopt_outbox(&self, prefix: &str) -> Result<Vec<(OutboxKey, Vec<u8>)>, StorageError> {
        let _ = prefix;
        Ok(Vec::new())
    }

    /// Whether another live process still has to deliver an entry of `key`'s channel stored
    /// before `key`: the replies of one channel leave in their order whichever process made
    /// them, so this one waits (a storage no other process shares: never).
    ///
    /// # Errors
    /// On a storage failure.
    fn outbox_earlier_elsewhere(&self, key: &OutboxKey) -> Result<bool, StorageError> {
        let _ = key;
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{ChannelRecord, DeadlineKind};

    fn deadline(at_ms: u64) -> Deadline {
        Deadline {
            at_ms,
            id: 1,
            kind: DeadlineKind::Flag,
            channel: "console:#t".into(),
        }
    }

    #[test]
    fn absorbing_keeps_the_later_change() {
        let (a, b) = (deadline(10), deadline(20));
        // Added, then removed: gone. Removed, then added: there.
        let mut first = Changes {
            add_deadlines: vec![a.clone()],
            remove_deadlines: vec![b.clone()],
            channels: vec![("c".into(), ChannelRecord::default())],
            ..Changes::default()
        };
        let later_record = ChannelRecord {
            last_game: Some(7),
            ..ChannelRecord::default()
        };
        first.absorb(Changes {
            add_deadlines: vec![b.clone()],
            remove_deadlines: vec![a.clone()],
            channels: vec![("c".into(), later_record.clone())],
            seen: vec![("tg:1:u:5".into(), 3)],
            ..Changes::default()
        });
        assert_eq!(first.add_deadlines, vec![b]);
        assert_eq!(first.remove_deadlines, vec![a]);
        assert_eq!(first.channels, vec![("c".into(), later_record)]);
        assert_eq!(first.seen.len(), 1);
        assert!(first.changes_state());
        let only_outbox = Changes {
            delivered: vec![OutboxKey::default()],
            ..Changes::default()
        };
        assert!(!only_outbox.is_empty() && !only_outbox.changes_state());
    }

    #[test]
    fn every_kind_of_change_merges_by_its_declared_rule() {
        let record = |last_game| ChannelRecord {
            last_game: Some(last_game),
            ..ChannelRecord::default()
        };
        let d = deadline(30);
        let mut first = Changes {
            channels: vec![("a".into(), record(1)), ("b".into(), record(2))],
            game_number: Some(5),
            aliases: vec![("tg:@a".into(), "tg:1".into())],
            ..Changes::default()
        };
        assert!(!first.is_empty() && first.changes_state());
        // One later change that removes a deadline and adds it again keeps it, as applying
        // the two one after the other would.
        first.absorb(Changes {
            channels: vec![("a".into(), record(3))],
            game_number: Some(3),
            aliases: vec![("tg:@b".into(), "tg:2".into())],
            remove_deadlines: vec![d.clone()],
            add_deadlines: vec![d.clone()],
            inbox: vec![("tg:x:1".into(), vec![1])],
            ..Changes::default()
        });
        let kept: Vec<(&str, Option<u64>)> = first
            .channels
            .iter()
            .map(|(k, r)| (k.as_str(), r.last_game))
            .collect();
        assert_eq!(
            kept,
            vec![("b", Some(2)), ("a", Some(3))],
            "the later record, once"
        );
        assert_eq!(first.game_number, Some(5), "the counter never goes back");
        assert_eq!(first.aliases.len(), 2);
        assert_eq!(
            (first.add_deadlines.clone(), first.remove_deadlines.clone()),
            (vec![d], vec![])
        );
        assert_eq!(first.inbox.len(), 1);
        assert!(Changes::default().is_empty() && !Changes::default().changes_state());
        let only_inbox = Changes {
            inbox_done: vec!["tg:x:1".into()],
            ..Changes::default()
        };
        assert!(!only_inbox.is_empty() && !only_inbox.changes_state());
    }
}
