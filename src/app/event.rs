//! What enters the service. Every change it makes starts as one [`Event`], and every event
//! goes through the router ([`super::router::enter`]), which opens the channel, builds the
//! handlers' context, runs the one handler that answers it and commits what it changed with
//! what it says. Chat events come from the adapters; the others the service raises itself when
//! work it started comes back (the bot's move, a hint, a review), when a stored deadline falls
//! due, or when another process sharing the storage stops. No handler calls another event's
//! handler, and none makes up a chat event to reach one.

use super::chat::Incoming;
use super::command::Line;
use super::outbox::Origin;
use crate::core::Move;
use crate::game::{Deadline, GameRecord, HintAsk, ReviewData, ReviewRecord};
use crate::platform::ChannelKey;
use crate::uci::player::Played;

/// One thing that happened.
pub(crate) enum Event<'a> {
    /// A command, a typed text or a pressed button, its text already read as `line`, from
    /// `origin` (which names the platform's event, so that one delivered twice runs once).
    Chat {
        inc: &'a Incoming,
        line: Line,
        origin: &'a Origin,
    },
    /// Something the service raised in `channel`.
    Raised {
        channel: &'a ChannelKey,
        what: Raised,
    },
    /// Processes sharing the storage stopped (`gone` of them): this one takes over their
    /// undelivered replies and their searches.
    ProcessGone { gone: usize },
}

/// What the service raised in a channel.
pub(crate) enum Raised {
    /// The bot's search for the game at `search` (its id and ply) came back with `played`,
    /// having searched for `searched_ms`.
    BotMoved {
        search: (u64, usize),
        played: Box<Played>,
        searched_ms: u64,
    },
    /// The bot's opponent in game `game` asked it to take back a move.
    TakebackAsked { game: u64 },
    /// The hint `ask` came back with its best move (`Some(None)`: the engine found none), or
    /// was not searched (`None`: the game moved on first).
    HintReady {
        ask: HintAsk,
        best: Option<Option<Move>>,
    },
    /// The review of `game` asked for as `asked` came back as `data`.
    ReviewReady {
        asked: Box<ReviewRecord>,
        game: Box<GameRecord>,
        data: Box<ReviewData>,
    },
    /// A stored deadline fell due at `now_ms`.
    Due { deadline: Deadline, now_ms: u64 },
    /// The adapter opened the venue asked for tournament game `game` (`None`: the platform
    /// refused, and the game is played in the chat).
    VenueOpened {
        game: u64,
        venue: Option<(ChannelKey, String)>,
    },
}
