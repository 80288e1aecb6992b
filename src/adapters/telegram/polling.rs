//! Reading updates: long polling through a durable inbox.
//!
//! `getUpdates` confirms every update below the `offset` it is given, and Telegram never
//! delivers a confirmed update again. So each batch is stored first (the inbox, see
//! [`crate::game::Changes::inbox`]), and only then confirmed by the next call's offset, one
//! past the highest update stored. Each chat's updates are then handled one after another in
//! its own lane, chats side by side, and an update is taken out of the inbox once handled.
//! A chat whose queue is always behind holds back nothing but itself: the window Telegram
//! hands out moves on as soon as a batch is stored.
//!
//! After a crash the inbox holds what was confirmed but not handled; those updates are
//! handled first at the next start. One that was handled but not yet taken out is recognised
//! by its id when it changed something (see `app::Origin::event`) and skipped. An update
//! Telegram sends again because its confirmation was lost is not started twice.
//!
//! At most [`IN_HAND`] updates are held (queued or being handled): past that the poller waits
//! for some to finish, so a flood is read only as fast as it is handled.

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
use crate::game::{Changes, Storage};

/// Most updates held at once (queued in lanes or being handled).
pub(super) const IN_HAND: usize = 5000;

/// Which updates are in hand.
#[derive(Default)]
pub(super) struct Tracker {
    state: Mutex<Tracked>,
    changed: Notify,
}

#[derive(Default)]
struct Tracked {
    /// The highest update id stored.
    highest: Option<u32>,
    /// Updates stored and not handled yet.
    in_hand: usize,
}

impl Tracker {
    fn lock(&self) -> MutexGuard<'_, Tracked> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The `offset` for the next `getUpdates`: everything below it is stored.
    pub(super) fn offset(&self) -> Option<i32> {
        let next = self.lock().highest?.checked_add(1)?;
        i32::try_from(next).ok()
    }

    /// Whether update `id` is new: not stored before (Telegram sends an update again when
    /// its confirmation was lost).
    pub(super) fn is_new(&self, id: u32) -> bool {
        self.lock().highest.is_none_or(|h| id > h)
    }

    /// Update `id` is stored and to be handled.
    pub(super) fn start(&self, id: u32) {
        let mut st = self.lock();
        st.highest = Some(st.highest.map_or(id, |h| h.max(id)));
        st.in_hand += 1;
    }

    /// An update started is handled.
    pub(super) fn done(&self) {
        let mut st = self.lock();
        st.in_hand = st.in_hand.saturating_sub(1);
        drop(st);
        self.changed.notify_waiters();
    }

    /// Updates in hand.
    pub(super) fn busy(&self) -> usize {
        self.lock().in_hand
    }
}

/// Where the inbox is kept: the storage, and the prefix of this bot's keys.
#[derive(Clone)]
pub(super) struct Inbox {
    /// The service's storage.
    pub storage: Arc<dyn Storage>,
    /// `tg:{bot id}:`: update ids are the bot's own.
    pub prefix: String,
}

impl Inbox {
    /// The key of update `id`: ordered as the ids are.
    fn key(&self, id: u32) -> String {
        format!("{}{id:010}", self.prefix)
    }

    /// Store `updates` (all or none). Nothing to store is no write (an empty write is a
    /// flush).
    async fn keep(&self, updates: &[Update]) -> Result<(), String> {
        if updates.is_empty() {
            return Ok(());
        }
        let mut changes = Changes::default();
        for u in updates {
            let bytes = serde_json::to_vec(u).map_err(|e| e.to_string())?;
            changes.inbox.push((self.key(u.id.0), bytes));
        }
        self.storage
            .persist(changes)
            .await
            .map_err(|e| e.to_string())
    }

    /// Update `id` is handled: take it out.
    async fn forget(&self, id: u32) {
        let changes = Changes {
            inbox_done: vec![self.key(id)],
            ..Changes::default()
        };
        if let Err(e) = self.storage.persist(changes).await {
            // Handled again at the next start, and then recognised if it changed anything.
            tracing::warn!(error = %e, update = id, "cannot take a handled update out of the inbox");
        }
    }

    /// What the inbox holds from before, oldest first; entries that do not read are dropped.
    fn leftovers(&self) -> Vec<Update> {
        let rows = match self.storage.inbox(&self.prefix) {
            Ok(rows) => rows,
            Err(e) => {
                tracing::error!(error = %e, "cannot read the inbox; updates left from before wait");
                return Vec::new();
            }
        };
        rows.into_iter()
            .filter_map(|(key, bytes)| match serde_json::from_slice::<Update>(&bytes) {
                Ok(u) => Some(u),
                Err(e) => {
                    tracing::error!(key = %key, error = %e, "an update in the inbox does not read; dropped");
                    None
                }
            })
            .collect()
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

/// Poll until `stop` completes, keeping each batch in `inbox` before confirming it and
/// handing each update to `handle` (one chat's updates in order); then finish the updates in
/// hand for a while (the rest stay in the inbox) and confirm what was stored. `connected`
/// hears whether each `getUpdates` went through.
pub(super) async fn poll<H, F>(
    bot: &Bot,
    inbox: Inbox,
    options: PollOptions,
    handle: H,
    connected: impl Fn(bool) + Send + Sync,
    stop: impl Future<Output = ()> + Send,
) where
    H: Fn(Update) -> F + Send + Sync + 'static,
    F: Future<Output = Outcome> + Send + 'static,
{
    tokio::pin!(stop);
    let tracker = Arc::new(Tracker::default());
    let handle = Arc::new(handle);
    let (t, kept) = (Arc::clone(&tracker), inbox.clone());
    let work: Work<Update> = Arc::new(move |update: Update| {
        let (tracker, handle, kept) = (Arc::clone(&t), Arc::clone(&handle), kept.clone());
        Box::pin(async move {
            let id = update.id.0;
            // A storage failure was answered in the chat: the update is done with.
            let _ = handle(update).await;
            kept.forget(id).await;
            tracker.done();
        })
    });
    let lanes: Lanes<ChatId, Update> = Lanes::new(options.retry.idle, work);
    let hand_over = |u: Update| {
        tracker.start(u.id.0);
        let chat = u.chat().map_or(ChatId(0), |c| c.id);
        lanes.push(chat, u).is_ok()
    };
    let left = inbox.leftovers();
    if !left.is_empty() {
        tracing::info!(
            updates = left.len(),
            "handling the updates received before the stop"
        );
    }
    for u in left {
        hand_over(u);
    }
    let mut backoff = options.retry.first_backoff;
    // Polling and a webhook exclude each other: a webhook set before (by webhook mode) is
    // removed, keeping the updates it holds for `getUpdates`.
    remove_webhook(bot).await;
    let secs = u32::try_from(options.timeout.as_secs()).unwrap_or(u32::MAX);
    loop {
        while tracker.busy() >= IN_HAND {
            let finished = tracker.changed.notified();
            tokio::select! {
                () = finished => {}
                () = tokio::time::sleep(Duration::from_millis(200)) => {}
                () = &mut stop => return finish(bot, &lanes, &tracker, options).await,
            }
        }
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
        connected(got.is_ok());
        let failed = match got {
            Ok(updates) => {
                let fresh: Vec<Update> = updates
                    .into_iter()
                    .filter(|u| tracker.is_new(u.id.0))
                    .collect();
                match inbox.keep(&fresh).await {
                    Ok(()) => {
                        backoff = options.retry.first_backoff;
                        for u in fresh {
                            if !hand_over(u) {
                                break;
                            }
                        }
                        false
                    }
                    Err(e) => {
                        // Not confirmed: Telegram hands the same updates out again.
                        tracing::error!(error = %e, "cannot keep received updates; asking again");
                        true
                    }
                }
            }
            Err(e) => {
                tracing::warn!(error = %redacted(&e, bot), "Telegram: getUpdates failed");
                if e.to_string().contains("webhook is active") {
                    remove_webhook(bot).await;
                }
                true
            }
        };
        if failed {
            tokio::select! {
                () = tokio::time::sleep(backoff) => {}
                () = &mut stop => break,
            }
            backoff = (backoff * 2).min(options.retry.max_backoff);
        }
    }
    finish(bot, &lanes, &tracker, options).await;
}

/// Work through the updates in hand for at most `options.finish`, then confirm everything
/// stored (what was not handled stays in the inbox for the next start).
async fn finish(bot: &Bot, lanes: &Lanes<ChatId, Update>, tracker: &Tracker, options: PollOptions) {
    let left = lanes.drain(options.finish).await;
    if left > 0 || tracker.busy() > 0 {
        tracing::warn!(
            unfinished = left,
            "stopping with updates not handled: they wait in the inbox for the next start"
        );
    }
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
    fn the_offset_is_one_past_the_highest_update_stored() {
        let t = Tracker::default();
        assert_eq!(
            t.offset(),
            None,
            "nothing read yet: Telegram starts after the last confirmed"
        );
        for id in [7, 8, 9] {
            assert!(t.is_new(id));
            t.start(id);
        }
        assert!(!t.is_new(8), "sent again while in hand");
        assert_eq!(t.offset(), Some(10), "stored is confirmed, handled or not");
        t.done();
        assert_eq!(t.busy(), 2);
        t.done();
        t.done();
        assert_eq!((t.offset(), t.busy()), (Some(10), 0));
        assert!(
            !t.is_new(9),
            "a handled update sent again is not started twice"
        );
        // Leftovers from the inbox come in id order, but a lower one never lowers the mark.
        t.start(5);
        assert_eq!(t.offset(), Some(10));
    }

    #[test]
    fn an_update_reads_back_as_it_was_stored() {
        let json = serde_json::json!({
            "update_id": 4242,
            "message": {
                "message_id": 17,
                "date": 1_700_000_000,
                "chat": { "id": -4_000_000_001i64, "type": "group", "title": "Club" },
                "from": { "id": 1001, "is_bot": false, "first_name": "An", "language_code": "vi" },
                "text": "/play @binh",
                "entities": [{ "type": "bot_command", "offset": 0, "length": 5 }]
            }
        });
        // As from Telegram: from text (teloxide's flattened kinds do not read from a `Value`).
        let u: Update = serde_json::from_str(&json.to_string()).expect("an update");
        let back: Update =
            serde_json::from_slice(&serde_json::to_vec(&u).expect("to json")).expect("reads");
        assert_eq!(back, u);
        assert_eq!(back.chat().map(|c| c.id), Some(ChatId(-4_000_000_001)));
    }
}
