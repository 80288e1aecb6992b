//! The outbox: what the service decided to say is stored in the same transaction as the
//! change that made it say so, handed to the platform's delivery worker, and forgotten once
//! the platform took it.
//!
//! * A command or timer event that changes something is committed here, once, at its end:
//!   its changes, its replies (each picture as what is needed to draw it again, not as bytes)
//!   under `channel ‖ sequence`, and the platform's id of the event (so a platform that
//!   delivers the event again after a crash finds it handled). Nothing is drawn yet.
//! * A command that changes nothing is not stored: its answer reports nothing new and can be
//!   asked for again, so it is drawn and handed back to the adapter to deliver at once.
//! * Each adapter opens the outbox for its channels ([`Service::open_outbox`]): it receives
//!   every entry still stored (after a restart), then each new one as it is committed, in
//!   order per channel, at most [`WINDOW`] of a channel at a time (the rest is read from
//!   storage as those are delivered). Just before sending one it calls [`Service::ready`]
//!   (which waits for the channel's earlier entries other processes deliver, and draws the
//!   pictures), and [`Service::delivered`] once the platform took it (or refused it for
//!   good). See `docs/delivery.md`.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use super::ctx::Slot;
use super::{Action, AppResult, Button, Image, ImageKind, Reply, Service};
use crate::core::{Color, Move, Position};
use crate::game::{Changes, Lease, OutboxKey, StorageError};
use crate::i18n::app::{text, Msg};
use crate::i18n::Lang;
use crate::render::{BoardRequest, Player};

/// Where an incoming event came from, as its adapter describes it.
#[derive(Clone, Debug, Default)]
pub struct Origin {
    /// The platform's id of the event (`tg:u:123`) when the platform may deliver it again
    /// after a crash: a second delivery of an event whose changes were stored is skipped.
    pub event: Option<String>,
    /// What the adapter needs to deliver the replies as answers to this event (its own
    /// encoding; stored with the replies and given back in [`Delivery::context`]).
    pub context: Option<String>,
}

/// What handling an event gave.
#[derive(Debug, Default)]
pub struct Handled {
    /// The replies, pictures drawn.
    pub replies: Vec<Reply>,
    /// Where the replies wait in the outbox, when they were stored and handed to the
    /// channel's delivery worker, which sends them: the caller must not. When `None`, the
    /// caller delivers them itself.
    pub queued: Option<OutboxKey>,
    /// The event had been handled before (delivered again by its platform): nothing was done.
    pub duplicate: bool,
    /// The storage failed: nothing was stored, and the replies only say so. A platform that
    /// delivers the event again when told it failed (a Telegram webhook) says so instead.
    pub failed: bool,
}

/// Replies to deliver, from the outbox.
#[derive(Clone, Debug)]
pub struct Delivery {
    /// Its place: the channel, and its order there.
    pub key: OutboxKey,
    /// When it was committed (epoch ms).
    pub created_ms: u64,
    /// The adapter's context of the event that produced it (none for timer events).
    pub context: Option<String>,
    /// The replies. After a restart their pictures are not drawn yet: see [`Service::draw`].
    pub replies: Vec<Reply>,
}

/// What is needed to draw a board picture again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Drawing {
    /// The position.
    pub fen: String,
    /// The move that led to it (ICCS).
    pub last_move: Option<String>,
    /// Whether Black is at the bottom.
    pub black_below: bool,
    /// Red's name and clock as shown.
    pub red: (String, Option<String>),
    /// Black's name and clock as shown.
    pub black: (String, Option<String>),
    /// Arrows over the board: a move in ICCS and its style (`h2e2`, `hint`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arrows: Vec<(String, String)>,
    /// The language the picture's description and text board were made in from this drawing
    /// alone ([`Image::board`]): a stored entry leaves them out and makes them again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub described_in: Option<String>,
}

impl Image {
    /// A board picture of `position` as `drawing` describes it (made from that position): its
    /// description in `lang`, its text board, and, with `pictures`, the drawing to draw.
    pub(crate) fn board(
        filename: String,
        position: &Position,
        mut drawing: Drawing,
        lang: Lang,
        pictures: bool,
    ) -> Image {
        let (alt, text_board) = drawing.texts(position, lang);
        drawing.described_in = Some(lang.code().to_string());
        Image {
            bytes: Arc::new(Vec::new()),
            filename,
            kind: ImageKind::Png,
            alt,
            text_board: Some(text_board),
            drawing: pictures.then_some(drawing),
            later: None,
        }
    }
}

/// How many entries of one channel a delivery worker holds in memory at most: the rest wait
/// in storage, and are read as the ones held are delivered.
pub const WINDOW: usize = 32;

/// How long an entry waits for an earlier one of its channel that another process delivers
/// (that process is alive, or its entries would be adopted): then it goes anyway.
const TURN_WAIT: Duration = Duration::from_secs(30);

/// How many channels' windows are kept before the idle ones are forgotten.
const FORGET_IDLE_OVER: usize = 4096;

/// A delivery worker of one platform.
pub(super) struct Sink {
    prefix: String,
    tx: mpsc::UnboundedSender<Delivery>,
    /// The channels with entries handed over and not delivered yet.
    channels: HashMap<String, Window>,
}

/// What a worker holds of one channel's outbox.
#[derive(Debug, Default)]
struct Window {
    /// Entries handed over and not delivered yet (at most [`WINDOW`], adopted ones aside).
    held: usize,
    /// The highest number handed over: entries up to it are the worker's already.
    last: u64,
    /// Entries after `last` wait in storage: they are read as the held ones are delivered.
    behind: bool,
}

impl Sink {
    fn new(prefix: &str, tx: mpsc::UnboundedSender<Delivery>) -> Sink {
        Sink {
            prefix: prefix.to_string(),
            tx,
            channels: HashMap::new(),
        }
    }

    /// Hand `d` to the worker and count it.
    fn send(&mut self, d: Delivery) -> bool {
        let w = self.channels.entry(d.key.channel.clone()).or_default();
        w.held += 1;
        w.last = w.last.max(d.key.seq);
        self.tx.send(d).is_ok()
    }

    /// A committed entry: handed over if its channel's window has room and nothing of the
    /// channel waits in storage before it; else it waits there too. False when the worker is
    /// gone.
    fn commit(&mut self, d: Delivery) -> bool {
        let w = self.channels.entry(d.key.channel.clone()).or_default();
        if d.key.seq <= w.last {
            // Read from storage while it was being committed: handed over already.
            return true;
        }
        if w.behind || w.held >= WINDOW {
            w.behind = true;
            return !self.tx.is_closed();
        }
        self.send(d)
    }

    /// Hand over stored entries (opening the outbox; a dead process's, adopted): up to a
    /// window of each channel; the others wait in storage. How many went.
    fn hand_over(&mut self, entries: Vec<(OutboxKey, Vec<u8>)>) -> usize {
        let mut sent = 0;
        for (key, bytes) in entries {
            let w = self.channels.entry(key.channel.clone()).or_default();
            // One numbered before what was handed over (adopted) could not be read later.
            if (w.behind || w.held >= WINDOW) && key.seq > w.last {
                w.behind = true;
                continue;
            }
            if let Some(d) = decode(key, &bytes) {
                self.send(d);
                sent += 1;
            }
        }
        sent
    }

    /// `key` was delivered: the channel's next entries waiting in storage are read into the
    /// room it left.
    fn delivered(&mut self, key: &OutboxKey, storage: &dyn crate::game::Storage) {
        let Some(w) = self.channels.get_mut(&key.channel) else {
            return;
        };
        w.held = w.held.saturating_sub(1);
        if w.behind && w.held <= WINDOW / 2 {
            let room = WINDOW - w.held;
            match storage.outbox_of(&key.channel, w.last, room) {
                Ok(rows) => {
                    w.behind = rows.len() == room;
                    if let Some((k, _)) = rows.last() {
                        w.last = k.seq;
                    }
                    for (k, bytes) in rows {
                        if let Some(d) = decode(k, &bytes) {
                            self.send(d);
                        }
                    }
                }
                Err(e) => tracing::error!(channel = %key.channel, error = %e,
                    "cannot read the outbox; the rest of this channel's replies wait"),
            }
        }
        if self.channels.len() > FORGET_IDLE_OVER {
            // `last` of an idle channel only guards against an entry read from storage
            // while it was committed, a moment ago: idle channels are forgotten in bulk.
            self.channels.retain(|_, w| w.held > 0 || w.behind);
        }
    }

    /// Entries held in memory, of every channel.
    fn held(&self) -> usize {
        self.channels.values().map(|w| w.held).sum()
    }
}

/// The version of the stored form.
const ENTRY_VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
struct StoredEntry {
    v: u32,
    at: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    context: Option<String>,
    replies: Vec<StoredReply>,
}

#[derive(Serialize, Deserialize)]
struct StoredReply {
    text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    image: Option<StoredImage>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    buttons: Vec<Vec<(String, String)>>,
    #[serde(default)]
    private: bool,
    #[serde(default)]
    menu: bool,
    /// Where it is shown is reported to the service ([`Service::shown`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    track: bool,
    /// Earlier messages whose buttons are taken away.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    retire: Vec<String>,
}

/// A picture as stored. A board's description and text board, two thirds of an entry, are
/// left out when its drawing made them ([`Drawing::described_in`]), and made again when read.
#[derive(Serialize, Deserialize)]
struct StoredImage {
    filename: String,
    #[serde(default)]
    gif: bool,
    /// Empty when the drawing makes it again.
    alt: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    text_board: Option<String>,
    /// Absent for a picture that cannot be drawn again (a replay): then the text stands in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    drawing: Option<Drawing>,
}

impl StoredImage {
    /// `image` as stored.
    fn of(image: &Image) -> StoredImage {
        let made = image
            .drawing
            .as_ref()
            .is_some_and(|d| d.described_in.is_some());
        StoredImage {
            filename: image.filename.clone(),
            gif: image.kind == ImageKind::Gif,
            alt: if made {
                String::new()
            } else {
                image.alt.clone()
            },
            text_board: if made { None } else { image.text_board.clone() },
            drawing: image.drawing.clone(),
        }
    }

    /// The description and the text board, made again from the drawing where it made them.
    fn texts(&self) -> (String, Option<String>) {
        let made = self.drawing.as_ref().and_then(|d| {
            let lang = Lang::from_tag(d.described_in.as_deref()?)?;
            let position = d.position()?;
            Some(d.texts(&position, lang))
        });
        match made {
            Some((alt, board)) => (alt, Some(board)),
            None => (self.alt.clone(), self.text_board.clone()),
        }
    }
}

fn stored(r: &Reply) -> StoredReply {
    StoredReply {
        text: r.text.clone(),
        image: r.image.as_ref().map(StoredImage::of),
        buttons: r
            .buttons
            .iter()
            .map(|row| {
                row.iter()
                    .map(|b| (b.label.clone(), b.action.encode()))
                    .collect()
            })
            .collect(),
        private: r.private,
        menu: r.menu,
        track: r.track,
        retire: r.retire.clone(),
    }
}

fn restored(r: StoredReply) -> Reply {
    Reply {
        text: r.text,
        image: r.image.map(|i| {
            let (alt, text_board) = i.texts();
            Image {
                bytes: Arc::new(Vec::new()),
                filename: i.filename,
                kind: if i.gif {
                    ImageKind::Gif
                } else {
                    ImageKind::Png
                },
                alt,
                text_board,
                drawing: i.drawing,
                later: None,
            }
        }),
        buttons: r
            .buttons
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .filter_map(|(label, code)| {
                        Action::decode(&code).map(|action| Button { label, action })
                    })
                    .collect::<Vec<_>>()
            })
            .filter(|row| !row.is_empty())
            .collect(),
        private: r.private,
        menu: r.menu,
        track: r.track,
        retire: r.retire,
    }
}

fn encode(at: u64, context: Option<&String>, replies: &[Reply]) -> Result<Vec<u8>, StorageError> {
    let entry = StoredEntry {
        v: ENTRY_VERSION,
        at,
        context: context.cloned(),
        replies: replies.iter().map(stored).collect(),
    };
    serde_json::to_vec(&entry).map_err(|e| StorageError(e.to_string()))
}

fn decode(key: OutboxKey, bytes: &[u8]) -> Option<Delivery> {
    let entry: StoredEntry = match serde_json::from_slice(bytes) {
        Ok(e) => e,
        Err(e) => {
            tracing::error!(channel = %key.channel, seq = key.seq, error = %e,
                "an outbox entry that cannot be read; it is not delivered");
            return None;
        }
    };
    Some(Delivery {
        key,
        created_ms: entry.at,
        context: entry.context,
        replies: entry.replies.into_iter().map(restored).collect(),
    })
}

impl Drawing {
    /// The arrows drawn over the board (unreadable ones left out).
    fn arrows(&self) -> Vec<crate::render::Arrow> {
        self.arrows
            .iter()
            .filter_map(|(mv, style)| {
                Some(crate::render::Arrow::of_move(
                    Move::parse_iccs(mv)?,
                    style.parse().ok()?,
                ))
            })
            .collect()
    }

    /// The description in `lang` and the text board of `position`, the one drawn.
    fn texts(&self, position: &Position, lang: Lang) -> (String, String) {
        (
            crate::render::describe(position, lang),
            crate::render::text_board(position, self.last(), self.viewer()),
        )
    }

    /// The move that led to the position, if it reads.
    fn last(&self) -> Option<Move> {
        self.last_move.as_deref().and_then(Move::parse_iccs)
    }

    /// The side at the bottom.
    fn viewer(&self) -> Color {
        if self.black_below {
            Color::Black
        } else {
            Color::Red
        }
    }

    /// The position drawn, if the stored position still reads.
    fn position(&self) -> Option<Position> {
        Position::from_fen(&self.fen).ok()
    }

    /// The request for the renderer, if the stored position still reads.
    fn request(&self) -> Option<(Position, Option<Move>, Color, Player, Player)> {
        let position = self.position()?;
        let player = |(name, clock): &(String, Option<String>)| Player {
            name: name.clone(),
            clock: clock.clone(),
        };
        Some((
            position,
            self.last(),
            self.viewer(),
            player(&self.red),
            player(&self.black),
        ))
    }
}

impl Service {
    /// Deliver the outbox of channels whose key starts with `prefix` (`tg:`, `dc:`,
    /// `console:`) to the returned receiver: first every entry still stored (from before a
    /// restart), then each new one as it is committed. Entries of one channel come in order.
    ///
    /// # Errors
    /// When the stored entries cannot be read.
    pub fn open_outbox(&self, prefix: &str) -> AppResult<mpsc::UnboundedReceiver<Delivery>> {
        let (tx, rx) = mpsc::unbounded_channel();
        let mut sinks = self
            .sinks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut sink = Sink::new(prefix, tx);
        let sent = sink.hand_over(self.storage().outbox(prefix)?);
        if sent > 0 {
            tracing::info!(
                prefix,
                entries = sent,
                "undelivered replies from before the restart go out now"
            );
        }
        sinks.retain(|s| s.prefix != prefix);
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
            let adopted = self.storage().adopt_outbox(&sink.prefix)?;
            let sent = sink.hand_over(adopted);
            if sent > 0 {
                tracing::info!(
                    prefix = %sink.prefix,
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
            .find(|s| key.channel.starts_with(s.prefix.as_str()))
        {
            sink.delivered(key, self.storage().as_ref());
        }
        drop(sinks);
        forgotten
    }

    /// What a chat is told when its send queue was full and answers were skipped, in the
    /// chat's language.
    #[must_use]
    pub fn queue_full_notice(&self, channel: &str) -> String {
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
            let Some((position, last_move, viewer, red, black)) =
                img.drawing.as_ref().and_then(Drawing::request)
            else {
                continue;
            };
            let arrows = img
                .drawing
                .as_ref()
                .map(Drawing::arrows)
                .unwrap_or_default();
            let renderer = Arc::clone(&self.renderer);
            // Never closed, so a permit always comes; if it somehow did not, draw anyway.
            let _slot = self.render_slots.acquire().await.ok();
            let rendered = tokio::task::spawn_blocking(move || {
                let mut req = BoardRequest::new(&position);
                req.last_move = last_move;
                req.viewer = viewer;
                req.red = red;
                req.black = black;
                req.arrows = arrows;
                renderer.png(&req)
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
        channel: &str,
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
        let key = OutboxKey {
            channel: channel.to_string(),
            seq: self.storage().next_outbox_seq()?,
        };
        if !replies.is_empty() {
            let bytes = encode(now, origin.context.as_ref(), &replies)?;
            changes.outbox.push((key.clone(), bytes));
        }
        if let Some(event) = &origin.event {
            changes.seen.push((event.clone(), now));
        }
        let wake = !changes.add_deadlines.is_empty();
        let saved = self.storage().persist(changes).await;
        drop(lease);
        saved?;
        if wake {
            self.timer_wake.notify_one();
        }
        // Handed over as what to draw: the worker draws just before sending, so what waits
        // in memory is small, and what waits in storage is read back as it was.
        let handed = !replies.is_empty()
            && self.hand_over(Delivery {
                key: key.clone(),
                created_ms: now,
                context: origin.context.clone(),
                replies: replies.clone(),
            });
        if !handed {
            self.draw(&mut replies).await;
        }
        Ok(Handled {
            replies,
            queued: handed.then_some(key),
            ..Handled::default()
        })
    }

    /// [`Service::commit`] for the channel held in `slot`. Handlers keep the slot in step
    /// with what they staged, so when the commit fails it may be ahead of storage and is read
    /// again next time; when it succeeds the bot looks at the game (it thinks when it is now
    /// to move, and stops when that no longer holds).
    pub(super) async fn commit_slot(
        &self,
        slot: &mut Slot,
        changes: Changes,
        channel: &str,
        origin: &Origin,
        replies: Vec<Reply>,
    ) -> AppResult<Handled> {
        let lease = slot.take_lease();
        let committed = self.commit(changes, channel, origin, replies, lease).await;
        match &committed {
            Ok(_) => self.bot_watch(channel, slot.game.as_ref()),
            Err(_) => slot.loaded = false,
        }
        committed
    }

    /// End an unsolicited event (the bot's move, a hint or a review coming back) as a timer
    /// event ends: what it changed (staged in `ctx`) and what it says are committed together
    /// to the outbox (delivered from there; handed straight to the subscribers only when
    /// nothing was stored or no platform opened its outbox).
    pub(super) async fn commit_unsolicited(
        &self,
        ctx: &super::ctx::Ctx<'_>,
        slot: &mut Slot,
        replies: Vec<Reply>,
    ) -> AppResult<()> {
        let channel = &ctx.inc.channel;
        let handled = self
            .commit_slot(
                slot,
                ctx.take_staged(),
                channel,
                &Origin::default(),
                replies,
            )
            .await?;
        self.send_unqueued(channel, handled);
        Ok(())
    }

    /// Hand what an unsolicited event (a timer, the bot) said to the subscribers when the
    /// outbox did not queue it (nothing was stored, or no platform opened its outbox).
    pub(super) fn send_unqueued(&self, channel: &str, handled: Handled) {
        if handled.queued.is_none() && !handled.replies.is_empty() {
            self.send_out(super::Outgoing {
                channel: channel.to_string(),
                replies: handled.replies,
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
            .find(|s| d.key.channel.starts_with(s.prefix.as_str()))
        else {
            return false;
        };
        sink.commit(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_with_pictures_as_drawings() {
        let drawing = Drawing {
            fen: crate::core::START_FEN.to_string(),
            last_move: Some("h2e2".into()),
            black_below: true,
            red: ("An".into(), Some("9:58".into())),
            black: ("Bình".into(), None),
            arrows: vec![("h0g2".into(), "hint".into())],
            described_in: None,
        };
        let reply = Reply {
            text: "1. An: 炮二平五".into(),
            image: Some(Image {
                bytes: Arc::new(vec![1, 2, 3]),
                filename: "board-1-1.png".into(),
                kind: ImageKind::Png,
                alt: "alt".into(),
                text_board: Some("grid".into()),
                drawing: Some(drawing.clone()),
                later: None,
            }),
            buttons: vec![vec![Button {
                label: "Flip".into(),
                action: Action::Flip { game: 1, ply: 1 },
            }]],
            private: false,
            menu: false,
            track: true,
            retire: vec!["c:1:2".into()],
        };
        let ctx = "ctx".to_string();
        let bytes = encode(5, Some(&ctx), std::slice::from_ref(&reply)).expect("encode");
        let key = OutboxKey {
            channel: "tg:1".into(),
            seq: 9,
        };
        let d = decode(key.clone(), &bytes).expect("decode");
        assert_eq!((d.key, d.created_ms, d.context), (key, 5, Some(ctx)));
        let r = &d.replies[0];
        assert_eq!(r.text, reply.text);
        assert_eq!(r.buttons, reply.buttons);
        assert!(r.track);
        assert_eq!(r.retire, reply.retire);
        let img = r.image.as_ref().expect("image");
        assert!(img.bytes.is_empty(), "the bytes are not stored");
        assert_eq!(img.drawing.as_ref(), Some(&drawing));
        let (pos, last, viewer, red, _) = drawing.request().expect("reads");
        assert_eq!(pos.to_fen(), Position::startpos().to_fen());
        assert_eq!(last.map(|m| m.to_string()).as_deref(), Some("h2e2"));
        assert_eq!((viewer, red.clock.as_deref()), (Color::Black, Some("9:58")));
        assert!(decode(OutboxKey::default(), b"not json").is_none());
    }

    #[test]
    fn a_boards_description_and_text_board_are_made_again_not_stored() {
        let start = Position::startpos();
        let moved = start.after(Move::parse_iccs("h2e2").expect("iccs"));
        let drawing = Drawing {
            fen: moved.to_fen(),
            last_move: Some("h2e2".into()),
            black_below: true,
            red: ("An".into(), None),
            black: ("Bình".into(), None),
            arrows: Vec::new(),
            described_in: None,
        };
        let reply = |image: Image| Reply {
            text: "1. An: h2e2".into(),
            image: Some(image),
            ..Reply::default()
        };
        let grid = crate::render::text_board(&moved, Move::parse_iccs("h2e2"), Color::Black);
        for lang in Lang::ALL {
            let alt = crate::render::describe(&moved, lang);
            let image = Image::board("b.png".into(), &moved, drawing.clone(), lang, true);
            assert_eq!((&image.alt, &image.text_board), (&alt, &Some(grid.clone())));
            let bytes = encode(1, None, &[reply(image)]).expect("encode");
            let stored = String::from_utf8_lossy(&bytes);
            assert!(
                !stored.contains(&alt) && !stored.contains(&grid),
                "{stored}"
            );
            let back = decode(OutboxKey::default(), &bytes).expect("decode");
            let img = back.replies[0].image.as_ref().expect("image");
            assert_eq!(
                (&img.alt, &img.text_board),
                (&alt, &Some(grid.clone())),
                "{lang:?}"
            );
        }
        // Texts the drawing did not make are kept as they are.
        let image = Image {
            bytes: Arc::new(Vec::new()),
            filename: "b.png".into(),
            kind: ImageKind::Png,
            alt: "a board".into(),
            text_board: Some("grid".into()),
            drawing: Some(drawing.clone()),
            later: None,
        };
        let bytes = encode(1, None, &[reply(image)]).expect("encode");
        let back = decode(OutboxKey::default(), &bytes).expect("decode");
        let img = back.replies[0].image.as_ref().expect("image");
        assert_eq!(
            (img.alt.as_str(), img.text_board.as_deref()),
            ("a board", Some("grid"))
        );
        // An entry stored before (the texts in full) reads as it did.
        let old = br#"{"v":1,"at":1,"replies":[{"text":"t","image":{"filename":"b.png","alt":"old alt","text_board":"old grid","drawing":null}}]}"#;
        let back = decode(OutboxKey::default(), old).expect("decode");
        let img = back.replies[0].image.as_ref().expect("image");
        assert_eq!(
            (img.alt.as_str(), img.text_board.as_deref()),
            ("old alt", Some("old grid"))
        );
    }
}
