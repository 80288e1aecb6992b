//! The platform-neutral chat service: an [`Incoming`] chat event in, [`Reply`]s out.
//!
//! Adapters (console, Telegram, Discord) turn platform events into [`Incoming`] values and
//! replies back into messages, buttons and photos; everything else — commands, games,
//! clocks, storage, rulings, languages — happens here. What a change makes the service say is
//! stored with the change and delivered through the outbox ([`Service::open_outbox`]), the
//! unsolicited messages (a flag falling, a challenge lapsing, a time warning) included.

mod action;
mod analysis;
mod analysis_run;
pub mod args;
pub mod board_view;
pub mod bot;
mod bot_turn;
mod challenge;
mod chat;
mod command;
mod ctx;
mod deliver;
mod drawing;
mod endings;
mod event;
mod hint;
mod info;
pub mod init_data;
pub mod links;
mod menus;
pub mod metrics;
mod migrate;
mod outbox;
mod pgn;
mod play;
mod puzzle;
mod ratelimit;
mod ratings;
mod review;
mod router;
mod service;
mod settings;
mod timer;
mod tournament;
mod venues;
mod view;

pub use action::Action;
pub use args::{Arg, ArgKind};
pub use board_view::{BoardView, WebLinks, WebMoveAnswer};
pub use chat::{
    default_notation, AppResult, Button, Image, ImageKind, Incoming, Later, Outgoing, Reply,
    VenueAsk, MAX_NOTIFY, VENUE_NAME_MAX,
};
pub use command::{parse_line, Cmd, Line, MAX_TEXT};
pub use drawing::Drawing;
pub use outbox::{Delivery, Handled, Origin, WINDOW as OUTBOX_WINDOW};
pub use pgn::{pgn, review_notes, write_annotated_pgn, write_pgn, PgnNote};
pub use service::Service;
pub use settings::{system_now, Now, ServiceConfig};
