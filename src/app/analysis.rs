//! Engine work players ask for — a hint, a game review — run on the bot's thinking pool.
//!
//! A handler only stores the request (a channel's [`HintAsk`](crate::game::HintAsk), a pending
//! [`ReviewRecord`](crate::game::ReviewRecord)) with its answer and marks it due here; this
//! loop then submits the job, and its result is posted as an unsolicited event committed
//! through the outbox, as the bot's moves are. Requests are stored, so a restart finds them
//! and runs them again.

use std::collections::{BTreeSet, HashSet};
use std::sync::{Mutex, PoisonError};

use crate::platform::ChannelKey;
use tokio::sync::Notify;

/// Work to start.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Work {
    /// The hint asked for in this channel's game (its id).
    Hint(ChannelKey, u64),
    /// The review of a game (its channel, its id).
    Review(ChannelKey, u64),
}

/// Due work, the work running, and the work whose result could not be stored.
#[derive(Default)]
pub(crate) struct Analysis {
    pub(super) due: Mutex<BTreeSet<Work>>,
    pub(super) running: Mutex<HashSet<Work>>,
    pub(super) failed: Mutex<BTreeSet<Work>>,
    pub(super) wake: Notify,
}

impl Analysis {
    /// Mark `w` due.
    pub(crate) fn due(&self, w: Work) {
        self.due
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(w);
        self.wake.notify_one();
    }

    /// Claim `w` to start it; false if it already runs.
    pub(crate) fn claim(&self, w: &Work) -> bool {
        self.running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(w.clone())
    }

    /// `w` has ended.
    pub(crate) fn release(&self, w: &Work) {
        self.running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(w);
    }

    /// `w` failed (its result could not be stored): it is done again on the timer's next
    /// tick ([`Analysis::retry_failed`]), since its request is still stored and nobody else
    /// would start it before the game moves on.
    pub(crate) fn retry_later(&self, w: Work) {
        self.failed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(w);
    }

    /// Make the work that failed due again.
    pub(crate) fn retry_failed(&self) {
        let failed =
            std::mem::take(&mut *self.failed.lock().unwrap_or_else(PoisonError::into_inner));
        for w in failed {
            self.due(w);
        }
    }
}

/// The pool key of `channel`'s hints and reviews: apart from its bot moves, so that a
/// takeback that stops the bot's search does not stop a review.
pub(crate) fn pool_key(channel: &str, what: &str) -> String {
    format!("{channel}#{what}")
}
