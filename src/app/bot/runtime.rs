//! The bot's side of the service's state: the pool it thinks on, the searches in flight and
//! the channels to look at. The turn itself is in [`super::turn`].

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::Notify;

use super::pool::ThinkingPool;
use crate::platform::ChannelKey;

/// Where one channel's search stands: the game and the ply it searches for.
pub(crate) type Search = (u64, usize);

/// The bot's side of the service: the pool, the searches in flight, the channels to look at.
pub(crate) struct BotRuntime {
    pub(crate) pool: Arc<ThinkingPool>,
    /// `BOT_MOVE_CAP_MS`: no bot move takes longer than this (tests, small machines).
    pub(crate) move_cap_ms: Option<u64>,
    pub(crate) in_flight: Mutex<HashMap<String, Search>>,
    pub(crate) due: Mutex<BTreeSet<ChannelKey>>,
    /// Channels where the bot's move could not be stored: looked at again on the timer.
    pub(crate) failed: Mutex<BTreeSet<ChannelKey>>,
    pub(crate) wake: Notify,
}

impl BotRuntime {
    pub(crate) fn lock_flight(&self) -> std::sync::MutexGuard<'_, HashMap<String, Search>> {
        self.in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn mark_due(&self, channel: &ChannelKey) {
        self.due
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(channel.clone());
        self.wake.notify_one();
    }

    /// The bot's turn in `channel` failed to be stored: nothing else would start it again
    /// before the human's next command, so the timer does ([`Service::retry_failed`]).
    pub(crate) fn retry_later(&self, channel: &ChannelKey) {
        self.failed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(channel.clone());
    }

    /// Make the channels whose bot move failed due again.
    pub(crate) fn retry_failed(&self) {
        let failed =
            std::mem::take(&mut *self.failed.lock().unwrap_or_else(PoisonError::into_inner));
        for channel in failed {
            self.mark_due(&channel);
        }
    }
}
