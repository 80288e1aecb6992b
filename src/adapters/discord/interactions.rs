//! Interactions and messages in, replies out.
//!
//! A slash command runs first and is answered at once when the service is quick: a reply
//! that changed nothing and is text goes as the interaction's response (private ones only to
//! the user, so nobody sees a "thinking…" that then vanishes); otherwise it is deferred —
//! privately when every reply is private — and the delivery lane fills the deferred response.
//! Only a service slower than [`QUICK`] gets a "thinking…" for everyone first (most such
//! answers are boards). A click is acknowledged before the service runs. What a change made
//! the service say is stored with it and delivered by the lane from the outbox (after a crash
//! too, as follow-ups while the token lives, else in the channel); the rest is queued on the
//! same lane, so a channel's messages keep their order.

use std::future::Future;
use std::time::Duration;

use tokio::time::Instant;

use serde_json::json;
use serenity::all::{
    AutoArchiveDuration, ChannelId, ChannelType, CommandInteraction, ComponentInteraction,
    ComponentInteractionDataKind, CreateAutocompleteResponse, CreateInteractionResponse,
    CreateThread, EditThread, Http, Message, MessageFlags,
};

use super::answering::{Ack, Answering, Interaction, Kind};
use super::delivery::{self, visible};
use super::rest::Route;
use super::send::posts;
use super::{channel_key, commands, player, Handler};
use crate::app::{Action, Handled, Incoming, Origin, Reply};
use crate::i18n::Lang;
use crate::platform::Platform;

/// Discord's epoch (2015-01-01) in Unix milliseconds: snowflakes count from it.
const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;

fn lang_of(locale: &str) -> Option<Lang> {
    Lang::from_tag(locale)
}

fn interaction(id: u64, app: u64, token: &str) -> Interaction {
    Interaction {
        id,
        app,
        token: token.to_string(),
        created_ms: (id >> 22) + DISCORD_EPOCH_MS,
    }
}

fn origin(answering: &Answering) -> Origin {
    Origin {
        event: None,
        context: serde_json::to_string(answering).ok(),
    }
}

/// The first response to an interaction; whether Discord took it.
async fn respond(h: &Handler, ix: &Interaction, body: serde_json::Value) -> bool {
    let route = Route::Callback {
        id: ix.id,
        token: ix.token.clone(),
    };
    match h.delivery.platform().rest().send(&route, &body, &[]).await {
        Ok(_) => true,
        Err(e) => {
            tracing::warn!(error = %e, "cannot answer an interaction");
            false
        }
    }
}

/// Defer a slash command: "thinking…" for everyone, or only for the user.
async fn defer(h: &Handler, ix: &Interaction, ephemeral: bool) -> Ack {
    let data = if ephemeral {
        json!({ "flags": 64 })
    } else {
        json!({})
    };
    if respond(h, ix, json!({ "type": 5, "data": data })).await {
        Ack::Deferred { ephemeral }
    } else {
        Ack::Failed
    }
}

/// Answer a slash command whose replies changed nothing: a text reply as the response itself
/// (private ones only for the user), the rest to follow; a board or several messages are
/// deferred first. Returns how it was acknowledged and what is left to send.
async fn answer_now(
    h: &Handler,
    ix: &Interaction,
    mut replies: Vec<Reply>,
    thread: bool,
) -> (Ack, Vec<Reply>) {
    let first_fits = replies.first().is_some_and(|r| {
        r.image
            .as_ref()
            .is_none_or(|i| i.bytes.is_empty() && i.text_board.is_none())
            && posts(r, false, true, None).len() == 1
    });
    if first_fits && !thread {
        let r = replies.remove(0);
        let ephemeral = !visible(&r);
        let (mut data, _) = posts(&r, ephemeral, true, None)[0].body(None, true, None);
        if ephemeral {
            data["flags"] = json!(64);
        }
        if respond(h, ix, json!({ "type": 4, "data": data })).await {
            return (Ack::Responded, replies);
        }
        replies.insert(0, r);
        return (Ack::Failed, replies);
    }
    let ephemeral = !thread && !replies.iter().any(visible);
    (defer(h, ix, ephemeral).await, replies)
}

/// `handling`'s result if it comes within `budget` of `received`; a zero budget defers every
/// command at once (without it, a command that needs no wait would still be answered).
async fn quick<F: Future>(budget: Duration, received: Instant, handling: F) -> Option<F::Output> {
    if budget.is_zero() {
        return None;
    }
    tokio::time::timeout_at(received + budget, handling)
        .await
        .ok()
}

/// A slash command: run, then answer (see the module's notes). `/play thread:True` opens a
/// public thread for the game first (the thread is the game's channel); the response then
/// points to it and the public replies go there.
pub(super) async fn on_command(h: &Handler, http: &Http, cmd: &CommandInteraction) {
    let received = Instant::now();
    let ix = interaction(cmd.id.get(), cmd.application_id.get(), &cmd.token);
    let gate = h.delivery.platform().gates().open(ix.id);
    let (text, mut mentions) = commands::command_text(cmd);
    // The bot's own user as the opponent: a game against the bot.
    let me = Platform::Discord.key(h.bot_id());
    for (_, p) in mentions.iter_mut().filter(|(_, p)| p.id == me) {
        *p = crate::app::bot::bot_itself();
    }
    let nick = cmd.member.as_ref().and_then(|m| m.nick.as_deref());
    let user = player(&cmd.user, nick);
    let lang = lang_of(&cmd.locale);
    let mut answering = Answering {
        kind: Kind::Command,
        interaction: Some(ix.clone()),
        ack: None,
        thread: None,
        lang: lang.unwrap_or_default().code().to_string(),
        user: user.id.clone(),
    };
    let wants_thread = commands::wants_thread(cmd);
    // The rate limit comes before the thread: someone sending too fast gets no threads either.
    if wants_thread {
        if let Err(refusal) = h.service.admit(&user.id, lang.unwrap_or_default()) {
            h.delivery.platform().gates().close(ix.id);
            let (ack, rest) = answer_now(h, &ix, refusal, false).await;
            delivery::push_direct(&h.delivery, cmd.channel_id.get(), answering, ack, rest);
            return;
        }
    }
    let thread = if wants_thread {
        let opponent = mentions.first().map(|(_, p)| p.name.as_str());
        open_thread(http, cmd, &user.name, opponent).await
    } else {
        None
    };
    answering.thread = thread.map(ChannelId::get);
    let inc = Incoming {
        channel: channel_key(thread.unwrap_or(cmd.channel_id)),
        user,
        handle: Some(cmd.user.name.to_lowercase()),
        text,
        action: None,
        mentions,
        lang_hint: lang,
        community: cmd.guild_id.map(super::community_key),
        // A tournament is the server's to run (Manage Server, or the role the operator named),
        // a setting the channel's.
        may_configure: Some(if cmd.data.name == "tournament" {
            cmd.guild_id.is_none()
                || manages(cmd.member.as_deref(), true)
                || has_role(cmd.member.as_deref(), h.tournament_role)
        } else {
            cmd.guild_id.is_none() || manages(cmd.member.as_deref(), false)
        }),
    };
    let channel = inc.channel.clone();
    let from = origin(&answering);
    let handling = async {
        if wants_thread {
            h.service.handle_admitted_from(inc, from).await
        } else {
            h.service.handle_from(inc, from).await
        }
    };
    tokio::pin!(handling);
    let (handled, deferred): (Handled, Option<Ack>) =
        match quick(h.answer_within, received, &mut handling).await {
            Some(handled) => (handled, None),
            None => {
                // Slow (a board drawn on a busy machine): "thinking…" for everyone now.
                let ack = defer(h, &ix, false).await;
                gate.set(ack);
                (handling.await, Some(ack))
            }
        };
    if handled.queued.is_some() {
        // Stored: the lane delivers, once it knows how the command was acknowledged.
        if deferred.is_none() {
            let ephemeral = thread.is_none() && !handled.replies.iter().any(visible);
            gate.set(defer(h, &ix, ephemeral).await);
        }
        return;
    }
    h.delivery.platform().gates().close(ix.id);
    if let Some(t) = thread {
        // The challenge was refused (a bad time control, the opponent is the caller, ...): no
        // empty thread is left behind, and the answer goes where the command was typed.
        if !h.service.channel_in_use(&channel).await {
            close_thread(http, t).await;
            answering.thread = None;
        }
    }
    let (ack, rest) = match deferred {
        Some(ack) => (ack, handled.replies),
        None => answer_now(h, &ix, handled.replies, answering.thread.is_some()).await,
    };
    let target = answering.thread.unwrap_or(cmd.channel_id.get());
    delivery::push_direct(&h.delivery, target, answering, ack, rest);
}

/// A public thread for a new game, named after its players; `None` (play in the channel
/// itself) inside a thread or when Discord refuses (no Create Public Threads permission).
async fn open_thread(
    http: &Http,
    cmd: &CommandInteraction,
    challenger: &str,
    opponent: Option<&str>,
) -> Option<ChannelId> {
    let kind = cmd.channel.as_ref().map(|c| c.kind);
    if matches!(
        kind,
        Some(ChannelType::PublicThread | ChannelType::PrivateThread | ChannelType::Private)
    ) || cmd.guild_id.is_none()
    {
        return None;
    }
    let name: String = format!("象棋 {challenger} – {}", opponent.unwrap_or("?"))
        .chars()
        .take(100)
        .collect();
    let builder = CreateThread::new(name)
        .kind(ChannelType::PublicThread)
        .auto_archive_duration(AutoArchiveDuration::from(super::THREAD_ARCHIVE_MINUTES));
    match cmd.channel_id.create_thread(http, builder).await {
        Ok(t) => Some(t.id),
        Err(e) => {
            tracing::warn!(error = %e, "cannot open a thread for a game; playing in the channel");
            None
        }
    }
}

/// Remove a thread opened for a game that did not start: delete it, or, without the Manage
/// Threads permission that deleting needs, archive and lock it (its creator may).
async fn close_thread(http: &Http, t: ChannelId) {
    if let Err(e) = t.delete(http).await {
        tracing::info!(error = %e, "cannot delete an unused game thread; archiving it");
        let edit = EditThread::new().archived(true).locked(true);
        if let Err(e) = t.edit_thread(http, edit).await {
            tracing::warn!(error = %e, "cannot archive an unused game thread");
        }
    }
}

/// A button or menu choice: acknowledge, run the action it carries, answer with follow-ups.
/// A choice in a menu replaces that menu with the next step, or deletes it once used (or
/// refused). A question answered loses its buttons (the service retires it).
pub(super) async fn on_component(h: &Handler, http: &Http, comp: &ComponentInteraction) {
    let (action, from_menu) = match &comp.data.kind {
        ComponentInteractionDataKind::Button => (Action::decode(&comp.data.custom_id), false),
        ComponentInteractionDataKind::StringSelect { values } => {
            (values.first().and_then(|v| Action::decode(v)), true)
        }
        _ => (None, false),
    };
    let ack = match comp
        .create_response(http, CreateInteractionResponse::Acknowledge)
        .await
    {
        Ok(()) => Ack::Updated,
        Err(e) => {
            tracing::warn!(error = %e, "cannot acknowledge a click");
            return;
        }
    };
    let Some(action) = action else {
        // Not one of ours (or forged): nothing to do.
        return;
    };
    let nick = comp.member.as_ref().and_then(|m| m.nick.as_deref());
    let lang = lang_of(&comp.locale);
    let user = player(&comp.user, nick);
    let answering = Answering {
        kind: Kind::Component {
            from_menu,
            message: comp.message.id.get(),
            ephemeral: comp
                .message
                .flags
                .is_some_and(|f| f.contains(MessageFlags::EPHEMERAL)),
        },
        interaction: Some(interaction(
            comp.id.get(),
            comp.application_id.get(),
            &comp.token,
        )),
        ack: Some(ack),
        thread: None,
        lang: lang.unwrap_or_default().code().to_string(),
        user: user.id.clone(),
    };
    let inc = Incoming {
        channel: channel_key(comp.channel_id),
        user,
        handle: Some(comp.user.name.to_lowercase()),
        text: String::new(),
        action: Some(action),
        mentions: Vec::new(),
        lang_hint: lang,
        community: comp.guild_id.map(super::community_key),
        may_configure: Some(comp.guild_id.is_none() || manages(comp.member.as_ref(), false)),
    };
    let handled = h.service.handle_from(inc, origin(&answering)).await;
    if handled.queued.is_none() {
        delivery::push_direct(
            &h.delivery,
            comp.channel_id.get(),
            answering,
            ack,
            handled.replies,
        );
    }
}

/// Autocomplete: legal moves from the service for `/move`, presets for the rest. Answered
/// directly (autocomplete cannot be deferred); an empty list is a valid answer.
pub(super) async fn on_autocomplete(h: &Handler, http: &Http, ac: &CommandInteraction) {
    let Some((option, typed)) = commands::focused(ac) else {
        return;
    };
    let locale = lang_of(&ac.locale);
    let lang = locale.unwrap_or_default();
    let choices = if ac.data.name == "move" && option == "move" {
        let user = player(&ac.user, None);
        let moves = h
            .service
            .suggestions(&channel_key(ac.channel_id), &user.id, &typed, locale)
            .await;
        commands::move_choices(moves)
    } else {
        commands::static_suggestions(&option, &typed, lang)
    };
    let answer = CreateInteractionResponse::Autocomplete(
        CreateAutocompleteResponse::new().set_choices(choices),
    );
    if let Err(e) = ac.create_response(http, answer).await {
        tracing::warn!(error = %e, "cannot answer an autocomplete request");
    }
}

/// A message in a channel the bot reads: a bare move (`炮二平五`), a command typed as text,
/// or a message addressed to the bot (`@Xiangqi h2e2`, which Discord delivers even without
/// the Message Content intent). Other conversation gets no answer from the service.
pub(super) async fn on_message(h: &Handler, msg: &Message) {
    if msg.author.bot || msg.webhook_id.is_some() {
        return;
    }
    let me = h.bot_id();
    let mut text = msg.content.trim();
    for prefix in [format!("<@{me}>"), format!("<@!{me}>")] {
        if let Some(rest) = text.strip_prefix(prefix.as_str()) {
            text = rest.trim();
        }
    }
    if text.is_empty() {
        return;
    }
    let mut mentions = Vec::new();
    for u in &msg.mentions {
        // The bot's own user named in the text (`/play @Xiangqi 3`): the bot as an opponent.
        let p = if u.id.get() == me {
            crate::app::bot::bot_itself()
        } else {
            player(u, None)
        };
        mentions.push((format!("<@{}>", u.id), p.clone()));
        mentions.push((format!("<@!{}>", u.id), p));
    }
    let nick = msg.member.as_ref().and_then(|m| m.nick.as_deref());
    let user = player(&msg.author, nick);
    let answering = Answering {
        kind: Kind::Message {
            message: msg.id.get(),
        },
        interaction: None,
        ack: None,
        thread: None,
        lang: String::new(),
        user: user.id.clone(),
    };
    let inc = Incoming {
        channel: channel_key(msg.channel_id),
        user,
        handle: Some(msg.author.name.to_lowercase()),
        text: text.to_string(),
        action: None,
        mentions,
        lang_hint: None,
        community: msg.guild_id.map(super::community_key),
        // A message does not carry the member's permissions: on a server a setting is
        // refused with a pointer to the slash command, which does.
        may_configure: msg.guild_id.is_none().then_some(true),
    };
    let handled = h.service.handle_from(inc, origin(&answering)).await;
    // Ordinary conversation gets no answer.
    if handled.queued.is_none() && !handled.replies.is_empty() {
        delivery::push_direct(
            &h.delivery,
            msg.channel_id.get(),
            answering,
            Ack::Failed,
            handled.replies,
        );
    }
}

/// Whether an interaction's member may change the channel's settings: Manage Channels or
/// Administrator in the channel (Discord sends the member's permissions there, overwrites
/// applied); for the server's tournament (`server`), Manage Server or Administrator.
fn has_role(member: Option<&serenity::model::guild::Member>, role: Option<u64>) -> bool {
    match (member, role) {
        (Some(m), Some(r)) => m.roles.iter().any(|id| id.get() == r),
        _ => false,
    }
}

fn manages(member: Option<&serenity::model::guild::Member>, server: bool) -> bool {
    use serenity::model::Permissions;
    let needed = if server {
        Permissions::MANAGE_GUILD
    } else {
        Permissions::MANAGE_CHANNELS
    };
    member
        .and_then(|m| m.permissions)
        .is_some_and(|p| p.intersects(needed | Permissions::ADMINISTRATOR))
}
