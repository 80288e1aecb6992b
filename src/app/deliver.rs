//! The service's side of the outbox ([`super::outbox`]): a platform opens it for its channels,
//! an event is committed with its replies, each entry is handed to its platform's worker,
//! drawn just before it is sent, and forgotten once delivered.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;

use super::chat::{AppResult, Reply};
use super::ctx::Slot;
use super::outbox::{encode, Delivery, Handled, Origin, Sink, TURN_WAIT};
use super::service::Service;
use crate::game::{Changes, Lease, OutboxKey};
use crate::i18n::app::{text, Msg};
use crate::platform::{ChannelKey, Platform};
use crate::render::BoardRequest;

impl Service {
    /// Deliver the outbox of `platform`'s channels to the returned receiver: first every entry still stored (from before a
    /// restart), then each new one as it is committed. Entries of one channel come in order.
    ///
    /// # Errors
    /// When the stored entries cannot be read.
    pub fn open_outbox(&self, platform: Platform) -> AppResult<mpsc::UnboundedReceiver<Delivery>> {
        let (tx, rx) = mpsc::unbounded_channel();
        let mut sinks = self
            .sinks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut sink = Sink::new(platform, tx);
        let sent = sink.hand_over(self.storage().outbox(platform.prefix())?);
        if sent > 0 {
            tracing::info!(
                platform = platform.name(),
                entries = sent,
                "undelivered replies from before the restart go out now"
            );
        }
        sinks.retain(|s| s.platform != platform);
        sinks.push(sink);
        Ok(rx)
    }

    /// Hand the outbox entries that processes sharing the storage wrote and died before
    /// delivering to this process's open outboxes (see [`crate::game::Storage::adopt_outbox`]).
    ///
    /// # Errors
    /// When the stored entries cannot be read.
    pub(crate) fn adopt_outboxes(&self) -> AppResult<()> {
        let mut sinks = self
            .sinks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for sink in sinks.iter_mut() {
            let adopted = self.storage().adopt_outbox(sink.platform.prefix())?;
            let sent = sink.hand_over(adopted);
            if sent > 0 {
                tracing::info!(
                    platform = sink.platform.name(),
                    entries = sent,
                    "replies of a bot process that stopped go out from this one"
                );
            }
        }
        Ok(())
    }

    /// Forget an outbox entry: the platform took it, or refused it for good (which the
    /// delivery worker logged). The channel's next entries waiting in storage, if any, are
    /// handed over into the room it left.
    ///
    /// # Errors
    /// On a storage failure (the entry is then delivered again after a restart).
    pub async fn delivered(&self, key: &OutboxKey) -> AppResult<()> {
        let changes = Changes {
            delivered: vec![key.clone()],
            ..Changes::default()
        };
        let forgotten = self.storage().persist(changes).await;
        let mut sinks = self
            .sinks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(sink) = sinks
            .iter_mut()
            .find(|s| Platform::of(&key.channel) == Some(s.platform))
        {
            sink.delivered(key, self.storage().as_ref());
        }
        drop(sinks);
        forgotten
    }

    /// What a chat is told when its send queue was full and answers were skipped, in the
    /// chat's language.
    #[must_use]
    pub fn queue_full_notice(&self, channel: &ChannelKey) -> String {
        text(&Msg::QueueFull, self.channel_lang(channel, None))
    }

    /// Outbox entries handed to delivery workers and not delivered yet (each holds what to
    /// draw, not pictures): at most [`WINDOW`] per channel, the rest waits in storage.
    #[must_use]
    pub fn outbox_held(&self) -> usize {
        self.sinks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .map(Sink::held)
            .sum()
    }

    /// Make an outbox entry ready to send, just before its worker sends it: wait while
    /// another process sharing the storage still has an earlier entry of the channel to
    /// deliver (one channel's replies leave in the order they were committed, whichever
    /// process made them), then draw its pictures.
    pub async fn ready(&self, key: &OutboxKey, replies: &mut [Reply]) {
        let mut pause = Duration::from_millis(5);
        let give_up = tokio::time::Instant::now() + TURN_WAIT;
        loop {
            match self.storage().outbox_earlier_elsewhere(key) {
                Ok(false) => break,
                Ok(true) if tokio::time::Instant::now() < give_up => {
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(Duration::from_millis(100));
                }
                Ok(true) => {
                    tracing::warn!(channel = %key.channel, seq = key.seq,
                        "an earlier reply of this channel is still with another process; sending anyway");
                    break;
                }
                Err(e) => {
                    tracing::error!(channel = %key.channel, error = %e,
                        "cannot read the outbox; sending without waiting for earlier replies");
                    break;
                }
            }
        }
        self.venues_known(replies);
        self.draw(replies).await;
    }

    /// Draw every picture of `replies` that is described but not drawn yet (replies from the
    /// outbox after a restart; replies being committed), and the ones left for later.
    pub async fn draw(&self, replies: &mut [Reply]) {
        for r in replies.iter_mut() {
            let Some(img) = r.image.as_mut() else {
                continue;
            };
            if let Some(later) = img.later.take().filter(|_| img.bytes.is_empty()) {
                let _slot = self.render_slots.acquire().await.ok();
                let failed = match tokio::task::spawn_blocking(move || later.draw()).await {
                    Ok(Ok(bytes)) => {
                        img.bytes = Arc::new(bytes);
                        None
                    }
                    Ok(Err(e)) => Some(e),
                    Err(e) => Some(e.to_string()),
                };
                if let Some(e) = failed {
                    tracing::error!(file = %img.filename, error = %e, "drawing failed");
                    // The picture goes out as its text.
                    if r.text.is_empty() {
                        r.text = img.alt.clone();
                    }
                }
                continue;
            }
            if !img.bytes.is_empty() || !self.config.images {
                continue;
            }
            let Some(drawing) = img.drawing.as_ref() else {
                continue;
            };
            let (position, last_move, viewer) = (
                drawing.position.clone(),
                drawing.last_move,
                drawing.viewer(),
            );
            let ((red, black), arrows) = (drawing.players(), drawing.arrows());
            let renderer = Arc::clone(&self.renderer);
            // Never closed, so a permit always comes; if it somehow did not, draw anyway.
            let _slot = self.render_slots.acquire().await.ok();
            let rendered = tokio::task::spawn_blocking(move || {
                let started = std::time::Instant::now();
                let mut req = BoardRequest::new(&position);
                req.last_move = last_move;
                req.viewer = viewer;
                req.red = red;
                req.black = black;
                req.arrows = arrows;
                let png = renderer.png(&req);
                super::metrics::metrics().rendered(started.elapsed());
                png
            })
            .await;
            match rendered {
                Ok(Ok(bytes)) => img.bytes = Arc::new(bytes),
                Ok(Err(e)) => tracing::error!(error = %e, "render failed"),
                Err(e) => tracing::error!(error = %e, "render task failed"),
            }
        }
    }

    /// End an event: write `changes` with the replies they produced and the event's id in
    /// one transaction, then hand the replies, pictures undrawn, to the channel's delivery
    /// worker (which draws them when it sends). With no changes nothing is written and the
    /// replies go back to the caller, drawn (as they do when no worker takes them). The
    /// caller holds the channel's lock, so entries are handed over in order; `lease` (the
    /// other processes kept out of the channel) is let go as soon as the transaction ends.
    pub(super) async fn commit(
        &self,
        mut changes: Changes,
        channel: &ChannelKey,
        origin: &Origin,
        mut replies: Vec<Reply>,
        lease: Option<Lease>,
    ) -> AppResult<Handled> {
        if changes.is_empty() {
            drop(lease);
            self.draw(&mut replies).await;
            return Ok(Handled {
                replies,
                ..Handled::default()
            });
        }
        let now = self.now();
        // One entry per channel told something: the event's, and the tournament chat a
        // venue's news goes to (see [`Reply::channel`]), each numbered in order.
        let mut entries: Vec<(OutboxKey, Vec<Reply>)> = Vec::new();
        for mut r in std::mem::take(&mut replies) {
            let to = r.channel.take().unwrap_or_else(|| channel.clone());
            if let Some((_, rs)) = entries.iter_mut().find(|(k, _)| k.channel == to) {
                rs.push(r);
                continue;
            }
            let key = OutboxKey {
                channel: to,
                seq: self.storage().next_outbox_seq()?,
            };
            entries.push((key, vec![r]));
        }
        // Only the event's own channel answers it (a venue's news in the chat answers nothing).
        let context = |key: &OutboxKey| origin.context.clone().filter(|_| key.channel == *channel);
        for (key, rs) in &entries {
            let bytes = encode(now, context(key).as_ref(), rs)?;
            changes.outbox.push((key.clone(), bytes));
        }
        if let Some(event) = &origin.event {
            changes.seen.push((event.clone(), now));
        }
        let wake = !changes.add_deadlines.is_empty();
        let written: Vec<u64> = changes.games.iter().map(|g| g.id).collect();
        let saved = self.storage().persist(changes).await;
        drop(lease);
        saved?;
        self.ring(&written);
        if wake {
            self.timer_wake.notify_one();
        }
        // Handed over as what to draw: the worker draws just before sending, so what waits
        // in memory is small, and what waits in storage is read back as it was.
        let mut queued = None;
        let mut out = Vec::new();
        for (key, mut rs) in entries {
            super::metrics::metrics().queued(key.channel.platform(), rs.len());
            let handed = self.hand_over(Delivery {
                key: key.clone(),
                created_ms: now,
                context: context(&key),
                replies: rs.clone(),
            });
            if handed {
                queued = queued.or(Some(key));
            } else {
                self.draw(&mut rs).await;
            }
            out.extend(rs);
        }
        Ok(Handled {
            replies: out,
            queued,
            ..Handled::default()
        })
    }

    /// [`Service::commit`] for `channel`, held in `slot`, its replies said in `answer_in` (the
    /// channel, or the venue of the game the event was about). Handlers keep the slot in step
    /// with what they staged, so when the commit fails it may be ahead of storage and is read
    /// again next time; when it succeeds the bot looks at the game (it thinks when it is now
    /// to move, and stops when that no longer holds).
    pub(super) async fn commit_slot(
        &self,
        slot: &mut Slot,
        changes: Changes,
        (channel, answer_in): (&ChannelKey, &ChannelKey),
        origin: &Origin,
        replies: Vec<Reply>,
    ) -> AppResult<Handled> {
        let lease = slot.take_lease();
        let committed = self
            .commit(changes, answer_in, origin, replies, lease)
            .await;
        match &committed {
            Ok(_) => self.bot_watch(channel, slot.games()),
            Err(_) => slot.loaded = false,
        }
        committed
    }

    /// Hand what a raised event (a timer, the bot, work coming back) said to the subscribers
    /// when the outbox did not queue it (nothing was stored, or no platform opened its outbox).
    pub(super) fn send_unqueued(&self, channel: &ChannelKey, handled: &Handled) {
        if handled.queued.is_none() && !handled.replies.is_empty() {
            self.send_out(super::Outgoing {
                channel: channel.clone(),
                replies: handled.replies.clone(),
            });
        }
    }

    /// Give a committed entry to the worker of its channel's platform (or leave it in
    /// storage, to be read when the channel's window has room); false when no worker took
    /// it (none opened the outbox for that platform: the entry waits in storage).
    fn hand_over(&self, d: Delivery) -> bool {
        let mut sinks = self
            .sinks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let Some(sink) = sinks
            .iter_mut()
            .find(|s| Platform::of(&d.key.channel) == Some(s.platform))
        else {
            return false;
        };
        sink.commit(d)
    }
}
