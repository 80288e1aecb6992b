//! The words the service and its adapters speak: a chat event in ([`Incoming`]), what is said
//! back ([`Reply`], with its [`Image`] and [`Button`]s), and what the service says on its own
//! ([`Outgoing`]). Everything else in `app` stands on these.

use std::sync::Arc;

use super::action::Action;
use super::drawing::Drawing;
use crate::game::{PlayerRef, StorageError};
use crate::i18n::Lang;
use crate::notation::Notation;
use crate::platform::ChannelKey;

/// A chat event, as an adapter hands it over.
#[derive(Clone, Debug, Default)]
pub struct Incoming {
    /// Platform-qualified channel (`tg:-100123:7` for a forum topic, `dc:456`, `console:#local`).
    pub channel: ChannelKey,
    /// Who sent it.
    pub user: PlayerRef,
    /// Their handle (username), lower case, for matching `@name` challenges.
    pub handle: Option<String>,
    /// The text (a command, a bare move, or anything else).
    pub text: String,
    /// A pressed button or chosen menu entry.
    pub action: Option<Action>,
    /// Users the adapter recognised in the text: the token as typed and who it is.
    pub mentions: Vec<(String, PlayerRef)>,
    /// The user's client language, if the platform tells it.
    pub lang_hint: Option<Lang>,
    /// The server or group the channel belongs to, as a leaderboard scope (`dc:g:GUILD` for a
    /// Discord server, `tg:CHAT` for a Telegram group and all its topics, the channel itself
    /// in the console); none for private chats.
    pub community: Option<String>,
    /// Whether the sender may change the channel's settings, as the platform tells: a
    /// Telegram group's administrators, a Discord member with Manage Channels (or
    /// Administrator), anyone in a private chat or the console. `None` when the platform did
    /// not say (a typed message on a Discord server): settings are then refused with a pointer
    /// to the slash command, which carries the member's permissions.
    pub may_configure: Option<bool>,
}

/// Whether an image is a board (PNG) or a replay (GIF).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageKind {
    /// A PNG board.
    Png,
    /// A GIF replay.
    Gif,
}

/// An image to send.
#[derive(Clone, Debug)]
pub struct Image {
    /// The encoded bytes.
    pub bytes: Arc<Vec<u8>>,
    /// A file name (`board-12-34.png`).
    pub filename: String,
    /// PNG or GIF.
    pub kind: ImageKind,
    /// Text for screen readers and clients without images.
    pub alt: String,
    /// A Unicode board for terminals.
    pub text_board: Option<String>,
    /// What is needed to draw the picture (again): a board is stored this way, and drawn
    /// when its bytes are empty (see [`Service::draw`]).
    pub drawing: Option<Drawing>,
    /// A picture that cannot be described for the outbox (a replay, a chart), drawn once the
    /// command's decisions are committed (see [`Service::draw`]); not stored.
    pub later: Option<Later>,
}

impl Image {
    /// A board picture as `drawing` describes it: its
    /// description in `lang`, its text board, and, with `pictures`, the drawing to draw.
    pub(crate) fn board(
        filename: String,
        mut drawing: Drawing,
        lang: Lang,
        pictures: bool,
    ) -> Image {
        let (alt, text_board) = drawing.texts(lang);
        drawing.described_in = Some(lang);
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

/// Drawing work for [`Image::later`]: pure CPU, run on a blocking thread after the command's
/// channel is let go by the other processes (see `game::SlotGuard`). Its error is logged and
/// the reply goes out as text.
#[derive(Clone)]
pub struct Later(Arc<dyn Fn() -> Result<Vec<u8>, String> + Send + Sync>);

impl Later {
    /// Work that draws a picture.
    pub fn new(draw: impl Fn() -> Result<Vec<u8>, String> + Send + Sync + 'static) -> Later {
        Later(Arc::new(draw))
    }

    /// Draw it (on the calling thread).
    ///
    /// # Errors
    /// The drawing's own error, as text.
    pub fn draw(&self) -> Result<Vec<u8>, String> {
        (self.0)()
    }
}

impl std::fmt::Debug for Later {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Later(..)")
    }
}

/// A button under a reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Button {
    /// Its label, localised.
    pub label: String,
    /// What pressing it does.
    pub action: Action,
}

/// One message to send back.
#[derive(Clone, Debug, Default)]
pub struct Reply {
    /// The text (for an image, its caption).
    pub text: String,
    /// An image, if any.
    pub image: Option<Image>,
    /// Rows of buttons (adapters lay them out as their platform allows).
    pub buttons: Vec<Vec<Button>>,
    /// Meant only for the user who acted (an ephemeral notice, a callback answer).
    pub private: bool,
    /// A menu of choices (the move picker): adapters show a select menu or a keyboard.
    pub menu: bool,
    /// Its buttons answer a one-time question (a challenge, an offer, a confirmation) or are
    /// a move picker: the adapter tells [`Service::shown`] where it showed them, so they can
    /// be taken away once they no longer apply.
    pub track: bool,
    /// Messages shown earlier (references given to [`Service::shown`]) whose buttons no
    /// longer apply: the adapter takes the buttons away (or the message, if only its user
    /// saw it). A reply with only this has nothing else to show.
    pub retire: Vec<String>,
    /// Players to notify (at most [`MAX_NOTIFY`]): the platform's mention of each, which pings
    /// them, where it has one (a Discord mention allowed for them alone, a Telegram mention of
    /// the user). A private reply notifies nobody. The text names them already.
    pub notify: Vec<crate::game::PlayerRef>,
    /// Open a venue of its own for a tournament game (a Discord thread, a Telegram forum
    /// topic) and post this there: see [`VenueAsk`]. Adapters that cannot post it where it
    /// was committed, as any reply.
    pub venue: Option<VenueAsk>,
    /// Deliver in this channel rather than where the event's replies go (a tournament's news
    /// set off in one of its games' venues goes to the tournament's chat). Read when the
    /// replies are committed, each channel getting its own outbox entry; not stored.
    pub channel: Option<ChannelKey>,
}

/// A tournament game's venue to open: a thread or forum topic named `name` in the chat the
/// reply is committed to. The adapter opens it, reports it ([`Service::venue_opened`]) and
/// posts the reply there; when the platform refuses (no right to, not a forum), it posts the
/// reply in the chat and the game is played there. Stored with the reply, so a restart before
/// the venue was opened still opens it; [`Service::ready`] fills `opened` when it was opened
/// already, so a reply delivered again never opens a second one.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct VenueAsk {
    /// The game.
    pub game: u64,
    /// The venue's name (`Round 2: ann – ben`), at most [`VENUE_NAME_MAX`] characters.
    pub name: String,
    /// The venue, when it was opened already: post there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opened: Option<ChannelKey>,
    /// When no venue opens, post nothing (a large round: the chat was told its games begin,
    /// and each board comes with its first move).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub quiet: bool,
}

/// Longest venue name (Discord's thread names take 1–100 characters, Telegram's topics 128).
pub const VENUE_NAME_MAX: usize = 100;

/// Most players one reply notifies (a Discord message allows 100 user mentions, and the
/// mentions must fit beside its text).
pub const MAX_NOTIFY: usize = 50;

impl Reply {
    /// A plain text reply.
    #[must_use]
    pub fn text(t: impl Into<String>) -> Reply {
        Reply {
            text: t.into(),
            ..Reply::default()
        }
    }

    /// A private notice to the acting user.
    #[must_use]
    pub fn private(t: impl Into<String>) -> Reply {
        Reply {
            text: t.into(),
            private: true,
            ..Reply::default()
        }
    }

    /// Take away the buttons of these earlier messages (see [`Reply::retire`]).
    #[must_use]
    pub fn retire(refs: Vec<String>) -> Reply {
        Reply {
            retire: refs,
            ..Reply::default()
        }
    }

    /// Whether there is anything to show (not only messages to retire).
    #[must_use]
    pub fn shows_something(&self) -> bool {
        !self.text.trim().is_empty() || self.image.is_some() || !self.buttons.is_empty()
    }
}

/// Replies the service sends on its own (timer events), for one channel, to subscribers of
/// [`Service::subscribe`] when no outbox is open for the channel.
#[derive(Clone, Debug)]
pub struct Outgoing {
    /// The channel.
    pub channel: ChannelKey,
    /// What to send there.
    pub replies: Vec<Reply>,
}

/// The notation players of a language most often type, when they have not chosen one.
#[must_use]
pub fn default_notation(lang: Lang) -> Notation {
    match lang {
        Lang::Vi => Notation::Vietnamese,
        Lang::En => Notation::Wxf,
        Lang::Zh => Notation::Chinese,
    }
}

/// A storage error as the service reports it.
pub type AppResult<T> = Result<T, StorageError>;
