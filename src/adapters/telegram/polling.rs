//! Reading updates: long polling that confirms an update to Telegram only once it was handled.
//!
//! `getUpdates` confirms every update below the `offset` it is given, and Telegram never
//! delivers a confirmed update again. So the offset given is the lowest update still being
//! handled (or one past the highest handled): an update whose handling a crash cut short is
//! delivered again at the next start, and handled then — unless its changes were stored, in
//! which case the service recognises its id and skips it (see `app::Origin::event`). Updates
//! of one chat are handled one after another, chats side by side; an update Telegram sends
//! again while it is still being handled is not started twice.

use std::collections::BTreeSet;
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use teloxide::payloads::setters::*;
use teloxide::prelude::Requester;
use teloxide::requests::Request;
use teloxide::types::{ChatId, Update};
use teloxide::Bot;
use tokio::sync::Notify;

use super::outbox::redacted;
use super::webhook::{allowed_updates, Outcome};
use super::RetryPolicy;
use crate::adapters::lanes::{Lanes, Work};

/// Which updates are in hand.
#[derive(Default)]
pub(super) struct Tracker {
    state: Mutex<Tracked>,
    changed: Notify,
}

#[derive(Default)]
struct Tracked {
    /// The highest update id started.
    highest: Option<u32>,
    /// Updates started and not finished.
    in_flight: BTreeSet<u32>,
}

impl Tracker {
    fn lock(&self) -> MutexGuard<'_, Tracked> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The `offset` for the next `getUpdates`: everything below it is handled.
    pub(super) fn offset(&self) -> Option<i32> {
        let st = self.lock();
        let next = match st.in_flight.first() {
            Some(&first) => first,
            None => st.highest?.checked_add(1)?,
        };
        i32::try_from(next).ok()
    }

    /// Start update `id`; false if it was started before (Telegram sent it again because it
    /// is not confirmed yet).
    pub(super) fn start(&self, id: u32) -> bool {
        let mut st = self.lock();
        if st.highest.is_some_and(|h| id <= h) {
            return false;
        }
        st.highest = Some(id);
        st.in_flight.insert(id);
        true
    }

    /// Update `id` is handled.
    pub(super) fn done(&self, id: u32) {
        self.lock().in_flight.remove(&id);
        self.changed.notify_waiters();
    }

    /// Updates in hand.
    pub(super) fn busy(&self) -> usize {
        self.lock().in_flight.len()
    }
}

/// How to poll.
#[derive(Clone, Copy, Debug)]
pub(super) struct PollOptions {
    /// How long one `getUpdates` waits for news.
    pub timeout: Duration,
    /// Waits after a failed poll.
    pub retry: RetryPolicy,
    /// How long stopping waits for the updates in hand.
    pub finish: Duration,
}

/// Poll until `stop` completes, handing each update to `handle` (one chat's updates in
/// order); then finish the updates in hand and confirm them.
pub(super) async fn poll<H, F>(
    bot: &Bot,
    options: PollOptions,
    handle: H,
    stop: impl Future<Output = ()> + Send,
) where
    H: Fn(Update) -> F + Send + Sync + 'static,
    F: Future<Output = Outcome> + Send + 'static,
{
    tokio::pin!(stop);
    let tracker = Arc::new(Tracker::default());
    let handle = Arc::new(handle);
    let t = Arc::clone(&tracker);
    let work: Work<Update> = Arc::new(move |update: Update| {
        let (tracker, handle) = (Arc::clone(&t), Arc::clone(&handle));
        Box::pin(async move {
            let id = update.id.0;
            // A storage failure was answered in the chat: the update is done with.
            let _ = handle(update).await;
            tracker.done(id);
        })
    });
    let lanes: Lanes<ChatId, Update> = Lanes::new(options.retry.idle, work);
    let mut backoff = options.retry.first_backoff;
    // Polling and a webhook exclude each other: a webhook set before (by webhook mode) is
    // removed, keeping the updates it holds for `getUpdates`.
    remove_webhook(bot).await;
    let secs = u32::try_from(options.timeout.as_secs()).unwrap_or(u32::MAX);
    loop {
        let mut req = bot
            .get_updates()
            .timeout(secs)
            .allowed_updates(allowed_updates());
        if let Some(offset) = tracker.offset() {
            req = req.offset(offset);
        }
        let got = tokio::select! {
            r = req.send() => r,
            () = &mut stop => break,
        };
        match got {
            Ok(updates) => {
                backoff = options.retry.first_backoff;
                let mut fresh = 0;
                let old = updates.len();
                for u in updates {
                    if !tracker.start(u.id.0) {
                        continue;
                    }
                    fresh += 1;
                    let chat = u.chat().map_or(ChatId(0), |c| c.id);
                    if lanes.push(chat, u).is_err() {
                        break;
                    }
                }
                if fresh == 0 && old > 0 {
                    // Only updates still in hand came back: wait for one to finish rather
                    // than ask again at once.
                    let finished = tracker.changed.notified();
                    tokio::select! {
                        () = finished => {}
                        () = tokio::time::sleep(Duration::from_millis(200)) => {}
                        () = &mut stop => break,
                    }
                }
            }
            Err(e) => {
                tracing::warn!(error = %redacted(&e, bot), "Telegram: getUpdates failed");
                if e.to_string().contains("webhook is active") {
                    remove_webhook(bot).await;
                }
                tokio::select! {
                    () = tokio::time::sleep(backoff) => {}
                    () = &mut stop => break,
                }
                backoff = (backoff * 2).min(options.retry.max_backoff);
            }
        }
    }
    let left = lanes.drain(options.finish).await;
    if left > 0 || tracker.busy() > 0 {
        tracing::warn!(
            unfinished = left,
            "stopping with updates not handled: Telegram sends them again at the next start"
        );
    }
    // Confirm what was handled (one update past it may come back: it is left for next time).
    if let Some(offset) = tracker.offset() {
        let confirm = bot.get_updates().offset(offset).timeout(0).limit(1);
        if let Err(e) = confirm.send().await {
            tracing::warn!(error = %redacted(&e, bot), "Telegram: cannot confirm the last updates");
        }
    }
}

/// `deleteWebhook`, keeping the pending updates.
async fn remove_webhook(bot: &Bot) {
    if let Err(e) = bot.delete_webhook().drop_pending_updates(false).await {
        tracing::warn!(error = %redacted(&e, bot), "Telegram: cannot remove a webhook");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_offset_stays_at_the_oldest_update_in_hand() {
        let t = Tracker::default();
        assert_eq!(
            t.offset(),
            None,
            "nothing read yet: Telegram starts after the last confirmed"
        );
        assert!(t.start(7) && t.start(8) && t.start(9));
        assert!(!t.start(8), "sent again while in hand");
        assert_eq!(t.offset(), Some(7));
        t.done(8);
        assert_eq!(t.offset(), Some(7), "8 is done but 7 is not");
        t.done(7);
        assert_eq!(t.offset(), Some(9));
        t.done(9);
        assert_eq!((t.offset(), t.busy()), (Some(10), 0));
        assert!(
            !t.start(9),
            "a handled update sent again is not started twice"
        );
    }
}
