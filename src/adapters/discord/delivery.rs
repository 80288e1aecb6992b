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
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;

use super::answering::{Ack, Answering, Gates, Interaction, Kind};
use super::channel_of;
use super::rest::{File, Rest, Route};
use super::retry::{classify, Next};
use super::send::{permission_hint, posts, Post};
use super::tracking;
use crate::adapters::lanes::{Lanes, RetryPolicy, Skipped, Work, HELD_PER_LANE};
use crate::app::{Delivery, Reply, Service};
use crate::game::OutboxKey;
use crate::i18n::Lang;
use crate::platform::Platform;

/// How long an interaction token works, from the interaction's creation.
const TOKEN_LIFE_MS: u64 = 15 * 60 * 1000;
/// A token this close to its end is not used any more (a call may take a while).
const TOKEN_MARGIN_MS: u64 = 30_000;

/// Replies to send in one channel.
struct Job {
    /// The outbox entry, forgotten once sent.
    key: Option<OutboxKey>,
    /// The channel (or the game's thread).
    channel: u64,
    answering: Option<Answering>,
    /// How the interaction was acknowledged, if known; else its gate is asked.
    ack: Option<Ack>,
    replies: Vec<Reply>,
    /// The notice that answers were skipped (its text made when sent).
    skipped: bool,
}

/// The delivery lanes of the Discord adapter.
#[derive(Clone)]
pub(super) struct Deliverer {
    shared: Arc<Shared>,
    lanes: Lanes<u64, Job>,
}

struct Shared {
    rest: Rest,
    service: Arc<Service>,
    gates: Gates,
    policy: RetryPolicy,
    /// Channels whose queue refused answers and that are still to be told.
    skipped: Skipped<u64>,
}

/// On Discord, a menu is only for the player who opened it (nobody else may use it anyway).
/// A reply that only retires earlier messages shows nothing.
pub(super) fn visible(r: &Reply) -> bool {
    !(r.private || r.menu) && r.shows_something()
}

impl Deliverer {
    pub(super) fn new(rest: Rest, service: Arc<Service>, policy: RetryPolicy) -> Deliverer {
        let shared = Arc::new(Shared {
            rest,
            service,
            gates: Gates::default(),
            policy,
            skipped: Skipped::default(),
        });
        let s2 = Arc::clone(&shared);
        let work: Work<Job> = Arc::new(move |job| {
            let shared = Arc::clone(&s2);
            Box::pin(async move { shared.work(job).await })
        });
        Deliverer {
            shared,
            lanes: Lanes::new(policy.idle, work),
        }
    }

    /// The gates of slash commands.
    pub(super) fn gates(&self) -> &Gates {
        &self.shared.gates
    }

    /// The REST calls (for the first response to an interaction).
    pub(super) fn rest(&self) -> &Rest {
        &self.shared.rest
    }

    /// Queue an outbox entry behind its channel's earlier messages.
    pub(super) fn push_entry(&self, d: Delivery) {
        let Some(channel) = channel_of(&d.key.channel) else {
            tracing::error!(channel = %d.key.channel, "an outbox entry for no Discord channel");
            return;
        };
        let answering: Option<Answering> = d
            .context
            .as_deref()
            .and_then(|c| serde_json::from_str(c).ok());
        let job = Job {
            key: Some(d.key),
            channel: channel.get(),
            ack: answering.as_ref().and_then(|a| a.ack),
            answering,
            replies: d.replies,
            skipped: false,
        };
        if let Err(job) = self.lanes.push(channel.get(), job) {
            tracing::info!(
                channel = job.channel,
                "stopping: a stored reply is sent at the next start"
            );
        }
    }

    /// Queue replies that were not stored (a command that changed nothing), acknowledged as
    /// `ack`.
    pub(super) fn push_direct(
        &self,
        channel: u64,
        answering: Answering,
        ack: Ack,
        replies: Vec<Reply>,
    ) {
        let job = Job {
            key: None,
            channel,
            answering: Some(answering),
            ack: Some(ack),
            replies,
            skipped: false,
        };
        if self.lanes.push_within(channel, job, HELD_PER_LANE).is_err() {
            tracing::warn!(
                channel,
                "a channel's send queue is full (or stopping): an answer that changed nothing is not sent"
            );
            if self.shared.skipped.first(channel) {
                // Past the cap: one short notice in the channel per full queue.
                let notice = Job {
                    key: None,
                    channel,
                    answering: None,
                    ack: None,
                    replies: Vec::new(),
                    skipped: true,
                };
                let _ = self.lanes.push(channel, notice);
            }
        }
    }

    /// Stop taking work and deliver what is queued, for at most `limit`.
    pub(super) async fn drain(&self, limit: Duration) -> usize {
        let left = self.lanes.drain(limit).await;
        if left > 0 {
            tracing::warn!(
                undelivered = left,
                "stopping with replies Discord has not taken yet; stored ones go out at the next start"
            );
        }
        left
    }
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
    shared: &'a Shared,
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
        let now = self.shared.service.now();
        self.interaction
            .is_some_and(|ix| now.saturating_add(TOKEN_MARGIN_MS) < ix.created_ms + TOKEN_LIFE_MS)
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
        match self
            .call(token, || self.route(way), &body, &files, where_to(way))
            .await
        {
            Ok(v) => Sent::Ok(tracking::reference(
                &v,
                self.interaction
                    .filter(|_| post.ephemeral && way.uses_token()),
            )),
            Err(Next::TokenGone) => Sent::TokenGone,
            Err(Next::Picture) => Sent::PictureRefused,
            Err(_) => Sent::Dropped,
        }
    }

    /// Make a call on `route` once it is known, retrying a 429 after its `retry_after`, a
    /// network failure and (a few times) a server error with growing pauses; the answer, or
    /// why it gave up (logged).
    async fn call(
        &self,
        token: Option<Token>,
        route: impl Fn() -> Option<Route>,
        body: &serde_json::Value,
        files: &[File],
        to: &str,
    ) -> Result<serde_json::Value, Next> {
        let policy = self.shared.policy;
        let mut backoff = policy.first_backoff;
        let mut server_errors = 0;
        loop {
            if token == Some(Token::Own) && !self.token_alive() {
                return Err(Next::TokenGone);
            }
            let Some(route) = route() else {
                return Err(Next::TokenGone);
            };
            let e = match self.shared.rest.send(&route, body, files).await {
                Ok(v) => return Ok(v),
                Err(e) => e,
            };
            match classify(&e, token.is_some(), !files.is_empty()) {
                Next::Wait(d) => {
                    tracing::warn!(
                        channel = self.channel,
                        to,
                        retry_after_ms = u64::try_from(d.as_millis()).unwrap_or(u64::MAX),
                        "Discord rate limit: this channel's messages wait"
                    );
                    tokio::time::sleep(d).await;
                }
                Next::Backoff => {
                    tracing::warn!(channel = self.channel, to, error = %e, "cannot reach Discord; retrying");
                    tokio::time::sleep(backoff).await;
                    backoff = policy.next(backoff);
                }
                Next::Server if server_errors + 1 < policy.unknown_error_attempts => {
                    server_errors += 1;
                    tracing::warn!(channel = self.channel, to, error = %e, attempt = server_errors,
                        "Discord server error; retrying");
                    tokio::time::sleep(backoff).await;
                    backoff = policy.next(backoff);
                }
                Next::TokenGone => {
                    tracing::info!(channel = self.channel, to, error = %e, "the interaction can no longer be answered");
                    return Err(Next::TokenGone);
                }
                Next::Picture => return Err(Next::Picture),
                next @ (Next::Server | Next::Drop) => {
                    tracing::error!(channel = self.channel, to, error = %e, "Discord refused a message; it is dropped");
                    return Err(next);
                }
            }
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
            let _ = self
                .call(token, || Some(route.clone()), &body, &[], "earlier message")
                .await;
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
        let channel = Platform::Discord.key(self.channel);
        let gone = self
            .shared
            .service
            .shown(&channel, self.user, first.action, at)
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
            match self.shared.rest.send(&route, &body, &[]).await {
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

impl Shared {
    async fn work(&self, mut job: Job) {
        if job.skipped {
            let key = super::channel_key(serenity::all::ChannelId::new(job.channel));
            job.replies = vec![Reply::text(self.service.queue_full_notice(&key))];
            self.skipped.told(&job.channel);
        }
        match &job.key {
            Some(key) => self.service.ready(key, &mut job.replies).await,
            None => self.service.draw(&mut job.replies).await,
        }
        self.send_all(&job).await;
        if let Some(key) = &job.key {
            if let Err(e) = self.service.delivered(key).await {
                tracing::error!(error = %e, channel = %key.channel,
                    "cannot forget a delivered reply; it may be sent again after a restart");
            }
        }
    }

    async fn send_all(&self, job: &Job) {
        let answering = job.answering.as_ref();
        let interaction = answering.and_then(|a| a.interaction.as_ref());
        let kind = answering.map(|a| a.kind);
        let ack = match (job.ack, interaction) {
            (Some(a), _) => a,
            (None, Some(ix)) => match self.gates.wait(ix.id).await {
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
            shared: self,
            channel: job.channel,
            interaction: interaction.filter(|_| ack != Ack::Failed),
            lang: answering
                .and_then(|a| Lang::from_tag(&a.lang))
                .unwrap_or_default(),
            key: job.key.as_ref(),
            posted: AtomicU32::new(0),
            user: answering.map_or("", |a| a.user.as_str()),
        };
        let replies = &job.replies;
        let retired: Vec<String> = replies.iter().flat_map(|r| r.retire.clone()).collect();
        if !matches!(kind, Some(Kind::Component { .. })) {
            s.retire(&retired, None).await;
        }
        let channel = Way::Channel { reference: None };
        match (kind, ack) {
            (None, _) | (Some(Kind::Command | Kind::Component { .. }), Ack::Failed) => {
                // A timer's message, or an interaction never acknowledged: the channel shows
                // what everyone may see.
                for r in replies.iter().filter(|r| r.shows_something()) {
                    if visible(r) {
                        s.reply(channel, r, false).await;
                    } else {
                        tracing::warn!(
                            channel = job.channel,
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
            (Some(Kind::Command), ack) => self.command(&s, answering, ack, replies).await,
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
    async fn command(
        &self,
        s: &Sender<'_>,
        answering: Option<&Answering>,
        ack: Ack,
        replies: &[Reply],
    ) {
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
}
