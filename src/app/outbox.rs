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

use super::action::Action;
use super::chat::{Button, Image, ImageKind, Reply};
use super::drawing::Drawing;
use crate::game::{OutboxKey, StorageError};
use crate::platform::{ChannelKey, Platform, UserKey};

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

/// How many entries of one channel a delivery worker holds in memory at most: the rest wait
/// in storage, and are read as the ones held are delivered.
pub const WINDOW: usize = 32;

/// How long an entry waits for an earlier one of its channel that another process delivers
/// (that process is alive, or its entries would be adopted): then it goes anyway.
pub(super) const TURN_WAIT: Duration = Duration::from_secs(30);

/// How many channels' windows are kept before the idle ones are forgotten.
const FORGET_IDLE_OVER: usize = 4096;

/// A delivery worker of one platform.
pub(super) struct Sink {
    pub(super) platform: Platform,
    pub(super) tx: mpsc::UnboundedSender<Delivery>,
    /// The channels with entries handed over and not delivered yet.
    channels: HashMap<ChannelKey, Window>,
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
    pub(super) fn new(platform: Platform, tx: mpsc::UnboundedSender<Delivery>) -> Sink {
        Sink {
            platform,
            tx,
            channels: HashMap::new(),
        }
    }

    /// Hand `d` to the worker and count it.
    pub(super) fn send(&mut self, d: Delivery) -> bool {
        let w = self.channels.entry(d.key.channel.clone()).or_default();
        w.held += 1;
        w.last = w.last.max(d.key.seq);
        self.tx.send(d).is_ok()
    }

    /// A committed entry: handed over if its channel's window has room and nothing of the
    /// channel waits in storage before it; else it waits there too. False when the worker is
    /// gone.
    pub(super) fn commit(&mut self, d: Delivery) -> bool {
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
    pub(super) fn hand_over(&mut self, entries: Vec<(OutboxKey, Vec<u8>)>) -> usize {
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
    pub(super) fn delivered(&mut self, key: &OutboxKey, storage: &dyn crate::game::Storage) {
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
    pub(super) fn held(&self) -> usize {
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
    /// Players it notifies: (id, name).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    notify: Vec<(UserKey, String)>,
    /// A tournament game's venue to open and post it in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    venue: Option<super::chat::VenueAsk>,
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
    pub(super) fn of(image: &Image) -> StoredImage {
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
    pub(super) fn texts(&self) -> (String, Option<String>) {
        let made = self
            .drawing
            .as_ref()
            .and_then(|d| Some(d.texts(d.described_in?)));
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
        notify: r
            .notify
            .iter()
            .map(|p| (p.id.clone(), p.name.clone()))
            .collect(),
        venue: r.venue.clone(),
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
        notify: r
            .notify
            .into_iter()
            .map(|(id, name)| crate::game::PlayerRef { id, name })
            .collect(),
        venue: r.venue,
        channel: None,
    }
}

pub(super) fn encode(
    at: u64,
    context: Option<&String>,
    replies: &[Reply],
) -> Result<Vec<u8>, StorageError> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Color, Move, Position};
    use crate::i18n::Lang;
    use crate::render::ArrowStyle;

    #[test]
    pub(super) fn entries_round_trip_with_pictures_as_drawings() {
        let drawing = Drawing {
            position: Position::startpos(),
            last_move: Move::parse_iccs("h2e2"),
            black_below: true,
            red: ("An".into(), Some("9:58".into())),
            black: ("Bình".into(), None),
            arrows: vec![(Move::parse_iccs("h0g2").expect("iccs"), ArrowStyle::Hint)],
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
            notify: vec![crate::game::PlayerRef::new("tg:7", "Bình")],
            venue: Some(super::super::chat::VenueAsk {
                game: 1,
                name: "Round 1: An – Bình".into(),
                opened: None,
                quiet: false,
            }),
            channel: None,
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
        assert_eq!(r.notify, reply.notify);
        assert_eq!(r.venue, reply.venue);
        let img = r.image.as_ref().expect("image");
        assert!(img.bytes.is_empty(), "the bytes are not stored");
        assert_eq!(img.drawing.as_ref(), Some(&drawing));
        let (pos, last, viewer, (red, _)) = (
            &drawing.position,
            drawing.last_move,
            drawing.viewer(),
            drawing.players(),
        );
        assert_eq!(pos.to_fen(), Position::startpos().to_fen());
        assert_eq!(last.map(|m| m.to_string()).as_deref(), Some("h2e2"));
        assert_eq!((viewer, red.clock.as_deref()), (Color::Black, Some("9:58")));
        assert!(decode(OutboxKey::default(), b"not json").is_none());
    }

    #[test]
    pub(super) fn a_boards_description_and_text_board_are_made_again_not_stored() {
        let start = Position::startpos();
        let moved = start.after(Move::parse_iccs("h2e2").expect("iccs"));
        let drawing = Drawing {
            position: moved.clone(),
            last_move: Move::parse_iccs("h2e2"),
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
            let image = Image::board("b.png".into(), drawing.clone(), lang, true);
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
