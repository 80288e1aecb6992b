//! Tournament games played each in a venue of its own: a Discord thread or a topic of a
//! Telegram forum, opened by the adapter when it delivers the game's first board.
//!
//! The service decides a pairing inside a transaction and cannot call the platform, so the
//! first board carries a [`VenueAsk`], stored with it in the outbox. The adapter opens the
//! venue, reports it ([`Service::venue_opened`]) and posts the board there. The report is an
//! event of the tournament's chat: the game (which stays in the chat's record) is written with
//! its venue, and the venue's channel record points back to the chat
//! ([`ChannelRecord::venue_of`]), in one transaction with the line that tells the chat where
//! the game is played. From then on what is typed in the venue is decided under the chat's
//! lock and answered in the venue (see the router). Until the report, or when the platform
//! refuses, the game is played in the chat.

use super::chat::{AppResult, Reply, VenueAsk, VENUE_NAME_MAX};
use super::ctx::{Ctx, Slot};
use super::event::{Event, Raised};
use super::service::Service;
use crate::game::tournament::{Tournament, Venues};
use crate::game::{Changes, ChannelRecord, Game};
use crate::i18n::tournament::{text, TourMsg};
use crate::platform::ChannelKey;

/// The venue a word of `/tournament swiss|arena|robin` asks for, in any language: `thread`
/// or `topic` (a venue of its own: Discord's threads, Telegram's forum topics), or `chat`.
pub(crate) fn word(w: &str) -> Option<Venues> {
    match w {
        "thread" | "threads" | "topic" | "topics" | "luong" | "luồng" | "chude" | "chủđề"
        | "话题" | "子区" => Some(Venues::Own),
        "chat" | "inchat" | "kenh" | "kênh" | "群内" | "频道" => Some(Venues::Chat),
        _ => None,
    }
}

/// The venue to ask for `game` of `t`: named after its pairing (`Round 2: ann – ben`).
pub(crate) fn ask(ctx: &Ctx<'_>, t: &Tournament, game: &Game, quiet: bool) -> VenueAsk {
    let name = text(
        &TourMsg::VenueName {
            id: t.id,
            round: t.rounds().map(|_| t.round),
            red: game.record.red.name.clone(),
            black: game.record.black.name.clone(),
        },
        ctx.lang,
    );
    VenueAsk {
        game: game.record.id,
        name: name.chars().take(VENUE_NAME_MAX).collect(),
        opened: None,
        quiet,
    }
}

/// The venue of `game` (selected in `slot`) was opened at `venue` (`None`: the platform
/// refused; the game goes on in the chat). Stored once: a second report (a reply delivered
/// again) changes nothing.
pub(crate) async fn venue_opened(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    game: u64,
    venue: Option<(ChannelKey, String)>,
) -> AppResult<Vec<Reply>> {
    let Some((at, link)) = venue else {
        tracing::info!(channel = %ctx.channel, game, "no venue of its own: the game is played in the chat");
        return Ok(Vec::new());
    };
    let Some(g) = slot
        .game
        .as_mut()
        .filter(|g| g.record.id == game && g.record.venue.is_none() && at != *ctx.channel)
    else {
        return Ok(Vec::new());
    };
    g.record.venue = Some(at.clone());
    let (red, black) = (g.record.red.name.clone(), g.record.black.name.clone());
    let mut changes = Changes::default();
    changes.games.push(g.record.clone());
    let record = ChannelRecord {
        venue_of: Some(ctx.channel.clone()),
        ..ChannelRecord::default()
    };
    changes.channels.push((at, record));
    ctx.persist(changes).await?;
    Ok(vec![Reply::text(text(
        &TourMsg::PlayedIn {
            game,
            red,
            black,
            link,
        },
        ctx.lang,
    ))])
}

impl Service {
    /// An adapter opened the venue a reply of `chat` asked for tournament game `game`
    /// ([`VenueAsk`]): `venue` is its channel and how the chat links to it (`<#123>`, a
    /// topic's address), or `None` when the platform refused (the game is played in the chat).
    /// Call it before posting the reply in the venue.
    ///
    /// # Errors
    /// On a storage failure: the venue is not known, and the reply should go to the chat.
    pub async fn venue_opened(
        &self,
        chat: &ChannelKey,
        game: u64,
        venue: Option<(ChannelKey, String)>,
    ) -> AppResult<()> {
        let opened = venue.as_ref().map(|(v, _)| v.clone());
        let event = Event::Raised {
            channel: chat,
            what: Raised::VenueOpened { game, venue },
        };
        self.enter(event).await?;
        if let Some(v) = opened {
            // The venue's channel, if something was typed there before, reads its new record.
            let mut slot = self.manager.lock(&v).await?;
            slot.loaded = false;
        }
        Ok(())
    }

    /// Fill in the venues of `replies` (of an outbox entry about to be sent) that were opened
    /// already ([`VenueAsk::opened`]), so a reply delivered again is posted there and opens
    /// none; drop the asks of games that ended meanwhile.
    pub(crate) fn venues_known(&self, replies: &mut [Reply]) {
        for r in replies.iter_mut() {
            let Some(ask) = r.venue.as_mut().filter(|a| a.opened.is_none()) else {
                continue;
            };
            match self.storage().game(ask.game) {
                Ok(Some(g)) if g.venue.is_some() => ask.opened = g.venue,
                Ok(Some(g)) if g.status == crate::game::GameStatus::Active => {}
                // A large round's board of a game that ended is not worth posting.
                Ok(_) if ask.quiet => *r = Reply::default(),
                Ok(_) => r.venue = None,
                Err(e) => tracing::error!(game = ask.game, error = %e,
                    "cannot read a game to see if its venue is open; opening it"),
            }
        }
    }
}
