//! Delivering replies on Discord: one lane per channel, so a channel's messages go out in
//! order and a channel that Discord slows down waits alone.
//!
//! A lane works through outbox entries (what a change made the service say, stored with it;
//! after a restart its pictures are drawn again) and direct answers (to commands that changed
//! nothing). Each reply goes where its event asks: an interaction's original response or a
//! follow-up (ephemeral for a private reply), a channel message (a reply to the user's own
//! message for a private note to a typed move), the game's thread. Every call retries a 429
//! after its `retry_after`, a 5xx or a network failure with growing pauses; an interaction
//! whose token is past its 15 minutes (or was never acknowledged) gives way to a channel
//! message, and a private reply that then has nowhere to go is dropped and logged; a board
//! refused for a missing permission (50013) is sent as text with a hint; anything refused for
//! good (403, a deleted channel) is logged and dropped.
//!
//! A slash command is acknowledged by the event handler after the service ran (deferred,
//! possibly ephemeral, or answered at once), so the lane waits at its gate
//! ([`super::answering::Gates`]) until the handler says how, before it edits or follows up.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use serde_json::json;

use super::answering::{Ack, Answering, Gates, Interaction, Kind};
use super::channel_of;
use super::rest::{File, Rest, RestError, Route};
use super::retry::{classify, Next};
use super::send::{permission_hint, posts, Post};
use super::tracking;
use crate::adapters::delivery::{self, Out, Said, Stopping, Undelivered};
use crate::app::{Now, Reply, VenueAsk};
use crate::game::OutboxKey;
use crate::i18n::Lang;
use crate::platform::{ChannelKey, Platform, UserKey};

/// How long an interaction token works, from the interaction's creation.
const TOKEN_LIFE_MS: u64 = 15 * 60 * 1000;
/// A token this close to its end is not used any more (a call may take a while).
const TOKEN_MARGIN_MS: u64 = 30_000;

/// Sending on Discord: its REST calls, and the gates where slash commands' lanes wait to
/// hear how the interaction was acknowledged.
pub(super) struct Discord {
    rest: Rest,
    gates: Gates,
    /// The service's clock (an interaction's token lives 15 minutes).
    now: Now,
}

/// The delivery lanes of the Discord adapter, one per channel.
pub(super) type Deliverer = delivery::Deliverer<Discord>;

impl Discord {
    pub(super) fn new(rest: Rest, now: Now) -> Discord {
        Discord {
            rest,
            gates: Gates::default(),
            now,
        }
    }

    /// The gates of slash commands.
    pub(super) fn gates(&self) -> &Gates {
        &self.gates
    }

    /// The REST calls (for the first response to an interaction).
    pub(super) fn rest(&self) -> &Rest {
        &self.rest
    }

    /// Whether an interaction's token still works, with a margin.
    fn token_alive(&self, ix: &Interaction) -> bool {
        (self.now)().saturating_add(TOKEN_MARGIN_MS) < ix.created_ms + TOKEN_LIFE_MS
    }
}

/// One REST call of a delivery.
pub(super) struct Call {
    /// Where; `None` when the interaction it needs is not there.
    route: Option<Route>,
    body: serde_json::Value,
    files: Vec<File>,
    /// Which interaction token it uses, if any.
    token: Option<Token>,
    /// The interaction answered, whose token's life is checked before each attempt.
    interaction: Option<Interaction>,
    /// Where it goes, for the logs.
    to: &'static str,
}

/// Why a call failed.
pub(super) enum Failed {
    /// Discord (or the network) said no.
    Rest(RestError),
    /// The interaction's token is past its life (or there is none to use).
    TokenGone,
}

impl std::fmt::Display for Failed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failed::Rest(e) => e.fmt(f),
            Failed::TokenGone => f.write_str("the interaction's token is past its life"),
        }
    }
}

/// Why no further call is made for a message.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Stop {
    /// The interaction's token cannot be used (expired, never acknowledged, gone).
    TokenGone,
    /// The picture was refused for a missing permission.
    Picture,
    /// Refused for good.
    Refused,
}

impl Stopping for Stop {
    fn drops(&self) -> bool {
        *self == Stop::Refused
    }
}

impl delivery::Platform for Discord {
    const KIND: Platform = Platform::Discord;
    type Lane = u64;
    type Answering = Answering;
    type Op = Call;
    type Sent = serde_json::Value;
    type Failure = Failed;
    type Stop = Stop;

    fn lane(channel: &str) -> Option<u64> {
        channel_of(channel).map(serenity::all::ChannelId::get)
    }

    fn answering(context: &str) -> Option<Answering> {
        serde_json::from_str(context).ok()
    }

    fn what(call: &Call) -> &'static str {
        call.to
    }

    async fn call(&self, call: &Call) -> Result<serde_json::Value, Failed> {
        let own_gone = call.token == Some(Token::Own)
            && !call
                .interaction
                .as_ref()
                .is_some_and(|ix| self.token_alive(ix));
        let Some(route) = call.route.as_ref().filter(|_| !own_gone) else {
            return Err(Failed::TokenGone);
        };
        self.rest
            .send(route, &call.body, &call.files)
            .await
            .map_err(Failed::Rest)
    }

    fn classify(&self, failed: &Failed, call: &Call) -> delivery::Next<Call, Stop> {
        use delivery::Next as N;
        let Failed::Rest(e) = failed else {
            return N::Stop(Stop::TokenGone);
        };
        match classify(e, call.token.is_some(), !call.files.is_empty()) {
            Next::Wait(d) => N::Wait(d),
            Next::Backoff => N::Backoff,
            Next::Server => N::Server,
            Next::TokenGone => N::Stop(Stop::TokenGone),
            Next::Picture => N::Stop(Stop::Picture),
            Next::Drop => N::Stop(Stop::Refused),
        }
    }

    async fn deliver(&self, out: &Out<'_, Self>, said: Said<'_, Self>) {
        delivery::deliver_with_venues(out, said).await;
    }
}

impl delivery::Venues for Discord {
    type Place = u64;

    fn place(channel: &str) -> Option<u64> {
        <Discord as delivery::Platform>::lane(channel)
    }

    fn channel(at: u64) -> ChannelKey {
        ChannelKey::on(Platform::Discord, at)
    }

    async fn post(
        &self,
        out: &Out<'_, Self>,
        at: u64,
        answering: Option<&Answering>,
        replies: &[Reply],
        entry: Option<&OutboxKey>,
        nth: u32,
    ) -> u64 {
        send_all(out, at, answering, replies, entry, nth).await;
        at
    }

    /// A tournament game's own thread in `channel`: a public thread named after its pairing,
    /// archived after a week without messages (as `/play thread:True` opens one), with its
    /// channel key and link. `None` (the game is played in the channel) when Discord refuses: no
    /// Create Public Threads permission, or `channel` is a thread itself.
    async fn open_venue(
        &self,
        out: &Out<'_, Self>,
        channel: u64,
        ask: &VenueAsk,
    ) -> Option<(u64, ChannelKey, String)> {
        let mut call = Call {
            route: Some(Route::Thread(channel)),
            body: json!({
                "name": ask.name,
                "type": 11,
                "auto_archive_duration": super::THREAD_ARCHIVE_MINUTES,
            }),
            files: Vec::new(),
            token: None,
            interaction: None,
            to: "thread",
        };
        let opened = match out.call(&mut call).await {
            Ok(v) => v
                .get("id")
                .and_then(serde_json::Value::as_str)
                .and_then(|id| id.parse::<u64>().ok()),
            Err(_) => None,
        };
        opened.map(|t| (t, ChannelKey::on(Platform::Discord, t), format!("<#{t}>")))
    }
}

/// Queue replies that were not stored (a command that changed nothing) in `channel`,
/// answering the interaction acknowledged as `ack`.
pub(super) fn push_direct(
    delivery: &Deliverer,
    channel: u64,
    answering: Answering,
    ack: Ack,
    replies: Vec<Reply>,
) {
    let answering = Answering {
        ack: Some(ack),
        ..answering
    };
    let key = super::channel_key(serenity::all::ChannelId::new(channel));
    delivery.push(&key, Some(answering), replies);
}

/// On Discord, a menu is only for the player who opened it (nobody else may use it anyway).
/// A reply that only retires earlier messages shows nothing.
pub(super) fn visible(r: &Reply) -> bool {
    !(r.private || r.menu) && r.shows_something()
}

/// How one call ended.
#[derive(Debug, PartialEq, Eq)]
enum Sent {
    /// Sent; where the message is (see [`super::tracking`]).
    Ok(Option<String>),
    /// The interaction's token cannot be used (expired, never acknowledged, gone).
    TokenGone,
    /// The picture was refused for a missing permission.
    PictureRefused,
    /// Refused for good, or given up after retries (logged).
    Dropped,
}

/// Where one message of a reply goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Way {
    Original,
    Followup,
    Channel { reference: Option<u64> },
}

impl Way {
    /// Where the later messages of a reply go.
    fn rest(self) -> Way {
        match self {
            Way::Original | Way::Followup => Way::Followup,
            channel @ Way::Channel { .. } => channel,
        }
    }

    fn uses_token(self) -> bool {
        matches!(self, Way::Original | Way::Followup)
    }
}

/// Which interaction token a call uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    /// The token of the interaction the replies answer (its life is checked before a call).
    Own,
    /// Another interaction's (a private message shown earlier).
    Other,
}

/// Sending one job's replies.
struct Sender<'a> {
    out: &'a Out<'a, Discord>,
    channel: u64,
    interaction: Option<&'a Interaction>,
    lang: Lang,
    /// The outbox entry: its channel messages carry nonces made from it, so a message sent
    /// again after a crash is not created twice.
    key: Option<&'a OutboxKey>,
    /// Messages posted so far (the nonce's second part).
    posted: AtomicU32,
    /// The service's id of the user who acted (empty for the timer's messages).
    user: &'a str,
}

impl Sender<'_> {
    fn token_alive(&self) -> bool {
        self.interaction
            .is_some_and(|ix| self.out.platform().token_alive(ix))
    }

    fn route(&self, way: Way) -> Option<Route> {
        let ix = self.interaction;
        match way {
            Way::Original => ix.map(|ix| Route::EditOriginal {
                app: ix.app,
                token: ix.token.clone(),
            }),
            Way::Followup => ix.map(|ix| Route::Followup {
                app: ix.app,
                token: ix.token.clone(),
            }),
            Way::Channel { .. } => Some(Route::Channel(self.channel)),
        }
    }

    /// Send one message, retrying as its failures allow.
    async fn post(&self, way: Way, post: &Post) -> Sent {
        let reference = match way {
            Way::Channel { reference: Some(m) } => Some((self.channel, m)),
            _ => None,
        };
        let n = self.posted.fetch_add(1, Ordering::Relaxed);
        let nonce = match (way, self.key) {
            (Way::Channel { .. }, Some(k)) => Some(format!("{:x}-{n}", k.seq)),
            _ => None,
        };
        let (body, files) = post.body(reference, way == Way::Followup, nonce.as_deref());
        let token = way.uses_token().then_some(Token::Own);
        let mut call = Call {
            route: self.route(way),
            body,
            files,
            token,
            interaction: self.interaction.cloned(),
            to: where_to(way),
        };
        match self.out.call(&mut call).await {
            Ok(v) => Sent::Ok(tracking::reference(
                &v,
                self.interaction
                    .filter(|_| post.ephemeral && way.uses_token()),
            )),
            Err(Undelivered::Stopped(Stop::TokenGone)) => Sent::TokenGone,
            Err(Undelivered::Stopped(Stop::Picture)) => Sent::PictureRefused,
            Err(_) => Sent::Dropped,
        }
    }

    /// Take the buttons away from messages shown earlier (references from [`Sent::Ok`]),
    /// except `skip`: a message everyone sees loses its components, one only its user sees is
    /// deleted (through its interaction's token, while it lives). Retried like any call.
    async fn retire(&self, refs: &[String], skip: Option<u64>) {
        for r in refs {
            let Some((route, body)) =
                tracking::retire_call(r).filter(|_| tracking::message_of(r) != skip)
            else {
                continue;
            };
            // A private message is reached through its own interaction's token.
            let token = matches!(route, Route::DeleteFollowup { .. }).then_some(Token::Other);
            let mut call = Call {
                route: Some(route),
                body,
                files: Vec::new(),
                token,
                interaction: None,
                to: "earlier message",
            };
            let _ = self.out.call(&mut call).await;
        }
    }

    /// After `r` was shown at `at`: if it asks to be tracked, tell the service where, and take
    /// the buttons off what it says no longer applies.
    async fn track(&self, r: &Reply, at: Option<String>) {
        let (Some(at), Some(first)) = (at, r.buttons.iter().flatten().next()) else {
            return;
        };
        if !r.track {
            return;
        }
        let channel = ChannelKey::on(Platform::Discord, self.channel);
        let gone = self
            .out
            .service()
            .shown(&channel, &UserKey::from(self.user), first.action, at)
            .await;
        self.retire(&gone, None).await;
    }

    /// Send one reply, its first message `way`; a dead token sends what everyone may see to
    /// the channel instead, a refused picture sends the board as text. A reply asking to be
    /// tracked is reported with where its buttons are.
    async fn reply(&self, way: Way, r: &Reply, ephemeral: bool) {
        let at = self.send_reply(way, r, ephemeral).await;
        self.track(r, at).await;
    }

    async fn send_reply(&self, way: Way, r: &Reply, ephemeral: bool) -> Option<String> {
        if !r.shows_something() {
            return None;
        }
        let mut way = way;
        let mut text_only = false;
        let mut with_buttons = None;
        'again: loop {
            let hint = text_only.then(|| permission_hint(self.lang));
            let all = posts(r, ephemeral, !text_only, hint);
            let mut i = 0;
            while i < all.len() {
                let w = if i == 0 { way } else { way.rest() };
                match self.post(w, &all[i]).await {
                    Sent::Ok(at) => {
                        if !all[i].rows.is_empty() {
                            with_buttons = at;
                        }
                        i += 1;
                    }
                    Sent::TokenGone if visible(r) && w.uses_token() => {
                        // Everyone may see it: the channel shows it (and what follows).
                        way = Way::Channel { reference: None };
                    }
                    Sent::TokenGone => {
                        tracing::warn!(
                            channel = self.channel,
                            "a private answer whose interaction expired is dropped"
                        );
                        return with_buttons;
                    }
                    Sent::PictureRefused if !text_only => {
                        tracing::warn!(
                            channel = self.channel,
                            to = where_to(w),
                            "missing permission to attach the board; sending it as text"
                        );
                        text_only = true;
                        way = w;
                        continue 'again;
                    }
                    Sent::PictureRefused | Sent::Dropped => return with_buttons,
                }
            }
            return with_buttons;
        }
    }

    /// A best-effort call without a message body worth retrying for long (removing a used
    /// menu, the empty "thinking…").
    async fn tidy(&self, route: Route, body: serde_json::Value) {
        for _ in 0..3 {
            match self.out.platform().rest.send(&route, &body, &[]).await {
                Ok(_) => return,
                Err(e) if e.status == 429 => {
                    tokio::time::sleep(e.retry_after.unwrap_or(Duration::from_secs(1))).await;
                }
                Err(e) => {
                    tracing::debug!(error = %e, "cannot tidy an interaction's message");
                    return;
                }
            }
        }
    }
}

fn where_to(way: Way) -> &'static str {
    match way {
        Way::Channel { .. } => "channel",
        Way::Original => "interaction response",
        Way::Followup => "interaction follow-up",
    }
}

/// Send the replies of one event in `channel` as it asked (see the module's notes); `nth`
/// numbers the entry's posts made elsewhere than its first, whose nonces are kept apart.
async fn send_all(
    out: &Out<'_, Discord>,
    channel: u64,
    answering: Option<&Answering>,
    replies: &[Reply],
    key: Option<&OutboxKey>,
    nth: u32,
) {
    let interaction = answering.and_then(|a| a.interaction.as_ref());
    let kind = answering.map(|a| a.kind);
    let ack = match (answering.and_then(|a| a.ack), interaction) {
        (Some(a), _) => a,
        (None, Some(ix)) => match out.platform().gates.wait(ix.id).await {
            Some(a) => a,
            // From before a restart: as the handler would have acknowledged it.
            None => match kind {
                Some(Kind::Component { .. }) => Ack::Updated,
                _ => Ack::Deferred { ephemeral: false },
            },
        },
        (None, None) => Ack::Failed,
    };
    let s = Sender {
        out,
        channel,
        interaction: interaction.filter(|_| ack != Ack::Failed),
        lang: answering
            .and_then(|a| Lang::from_tag(&a.lang))
            .unwrap_or_default(),
        key,
        // Nonces apart from the entry's other posts (a venue's fallback posts beside them).
        posted: AtomicU32::new(nth.saturating_mul(1000)),
        user: answering.map_or("", |a| a.user.as_str()),
    };
    let retired: Vec<String> = replies.iter().flat_map(|r| r.retire.clone()).collect();
    if !matches!(kind, Some(Kind::Component { .. })) {
        s.retire(&retired, None).await;
    }
    let in_channel = Way::Channel { reference: None };
    match (kind, ack) {
        (None, _) | (Some(Kind::Command | Kind::Component { .. }), Ack::Failed) => {
            // A timer's message, or an interaction never acknowledged: the channel shows
            // what everyone may see.
            for r in replies.iter().filter(|r| r.shows_something()) {
                if visible(r) {
                    s.reply(in_channel, r, false).await;
                } else {
                    tracing::warn!(
                        channel,
                        "a private answer with no interaction to carry it is dropped"
                    );
                }
            }
        }
        (Some(Kind::Message { message }), _) => {
            for r in replies.iter().filter(|r| r.shows_something()) {
                // A private note cannot be hidden in a channel: it answers the message.
                let way = Way::Channel {
                    reference: r.private.then_some(message),
                };
                s.reply(way, r, false).await;
            }
        }
        (Some(Kind::Command), ack) => command(&s, answering, ack, replies).await,
        (
            Some(Kind::Component {
                from_menu,
                message,
                ephemeral,
            }),
            _,
        ) => {
            // A used menu, or a question only this user saw that is now settled (confirm
            // resignation), is deleted with this interaction's own token, not retired.
            let menu_replaced = from_menu && replies.iter().any(|r| r.menu);
            let settled = replies
                .iter()
                .flat_map(|r| &r.retire)
                .any(|r| tracking::message_of(r) == Some(message));
            let delete_clicked = (from_menu && !menu_replaced) || (ephemeral && settled);
            s.retire(&retired, delete_clicked.then_some(message)).await;
            let mut replaced = false;
            for r in replies.iter().filter(|r| r.shows_something()) {
                if r.menu && from_menu && !replaced {
                    replaced = true;
                    // The menu's next step edits the same message: already known.
                    s.send_reply(Way::Original, r, true).await;
                } else {
                    s.reply(Way::Followup, r, !visible(r)).await;
                }
            }
            if delete_clicked && s.token_alive() {
                if let Some(ix) = s.interaction {
                    let route = Route::DeleteOriginal {
                        app: ix.app,
                        token: ix.token.clone(),
                    };
                    s.tidy(route, json!({})).await;
                }
            }
        }
    }
}

/// A slash command's replies: the first replaces the deferred response (the first public
/// one, or the first private one when the deferral was private), the rest follow; a
/// game's thread gets the public ones and the response points to it.
async fn command(s: &Sender<'_>, answering: Option<&Answering>, ack: Ack, replies: &[Reply]) {
    if let Some(t) = answering.and_then(|a| a.thread) {
        let pointer = Reply::text(format!("🧵 <#{t}>"));
        s.reply(Way::Original, &pointer, false).await;
        for r in replies.iter().filter(|r| r.shows_something()) {
            if visible(r) {
                s.reply(Way::Channel { reference: None }, r, false).await;
            } else {
                s.reply(Way::Followup, r, true).await;
            }
        }
        return;
    }
    let first = match ack {
        Ack::Deferred { ephemeral: false } => replies.iter().position(visible),
        Ack::Deferred { ephemeral: true } => replies.iter().position(Reply::shows_something),
        Ack::Updated | Ack::Responded | Ack::Failed => None,
    };
    if let Some(i) = first {
        s.reply(Way::Original, &replies[i], !visible(&replies[i]))
            .await;
    }
    for (j, r) in replies.iter().enumerate() {
        if Some(j) != first && r.shows_something() {
            s.reply(Way::Followup, r, !visible(r)).await;
        }
    }
    if first.is_none() && matches!(ack, Ack::Deferred { .. }) && s.token_alive() {
        // Nothing for everyone: the "thinking…" message goes.
        if let Some(ix) = s.interaction {
            let route = Route::DeleteOriginal {
                app: ix.app,
                token: ix.token.clone(),
            };
            s.tidy(route, json!({})).await;
        }
    }
}
