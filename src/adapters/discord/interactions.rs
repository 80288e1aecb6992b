//! Interactions and messages in, replies out. Every interaction is acknowledged first (a slash
//! command deferred with "thinking…", a click acknowledged without a visible change), then the
//! service runs and renders, then the answer replaces the deferred response or follows it, so
//! no answer misses Discord's 3-second window however long a board takes to draw.

use serenity::all::{
    AutoArchiveDuration, ChannelId, ChannelType, CommandInteraction, ComponentInteraction,
    ComponentInteractionDataKind, CreateAutocompleteResponse, CreateInteractionResponse,
    CreateThread, EditThread, Http, Message, MessageFlags,
};

use super::send::{delete_original, referenced_message, retire, send_reply, Via};
use super::{channel_key, commands, player, Handler};
use crate::app::{Action, Incoming, Reply};
use crate::i18n::Lang;

fn lang_of(locale: &str) -> Option<Lang> {
    Lang::from_tag(locale)
}

/// On Discord, a menu is only for the player who opened it (nobody else may use it anyway).
/// A reply that only retires earlier messages shows nothing.
fn visible(r: &Reply) -> bool {
    !(r.private || r.menu) && r.shows_something()
}

/// Everything the replies retire.
fn retired(replies: &[Reply]) -> Vec<String> {
    replies
        .iter()
        .flat_map(|r| r.retire.iter().cloned())
        .collect()
}

/// After sending a reply that asks to be tracked: tell the service where it went, and take
/// the buttons off what it says no longer applies.
async fn track(h: &Handler, http: &Http, channel: &str, user: &str, r: &Reply, at: Option<String>) {
    let (Some(at), Some(first)) = (at, r.buttons.iter().flatten().next()) else {
        return;
    };
    if !r.track {
        return;
    }
    let gone = h.service.shown(channel, user, first.action, at).await;
    retire(http, &gone, None).await;
}

/// A slash command: defer, run, then the first public reply fills the deferred response and
/// the rest follow (private ones only for the user). `/play thread:True` opens a public thread
/// for the game first (the thread is the game's channel); the deferred response then points
/// to it and the public replies go there.
pub(super) async fn on_command(h: &Handler, http: &Http, cmd: &CommandInteraction) {
    if let Err(e) = cmd.defer(http).await {
        tracing::warn!(error = %e, "cannot defer a command");
        return;
    }
    let (text, mentions) = commands::command_text(cmd);
    let nick = cmd.member.as_ref().and_then(|m| m.nick.as_deref());
    let user = player(&cmd.user, nick);
    let lang = lang_of(&cmd.locale);
    let thread = if commands::wants_thread(cmd) {
        let opponent = mentions.first().map(|(_, p)| p.name.as_str());
        open_thread(http, cmd, &user.name, opponent).await
    } else {
        None
    };
    let user_id = user.id.clone();
    let inc = Incoming {
        channel: channel_key(thread.unwrap_or(cmd.channel_id)),
        user,
        handle: Some(cmd.user.name.to_lowercase()),
        text,
        action: None,
        mentions,
        lang_hint: lang,
        community: cmd.guild_id.map(super::community_key),
    };
    let channel = inc.channel.clone();
    let replies = h.service.handle(inc).await;
    retire(http, &retired(&replies), None).await;
    let lang = lang.unwrap_or_default();
    let token = cmd.token.as_str();
    let thread = match thread {
        // The challenge was refused (a bad time control, the opponent is the caller, ...): no
        // empty thread is left behind, and the answer goes where the command was typed.
        Some(t) if !h.service.channel_in_use(&channel).await => {
            close_thread(http, t).await;
            None
        }
        other => other,
    };
    if let Some(t) = thread {
        let pointer = Reply::text(format!("🧵 <#{t}>"));
        send_reply(
            http,
            Via::Original(token),
            Via::Followup(token),
            &pointer,
            false,
            lang,
        )
        .await;
        let there = Via::Channel {
            channel: t,
            reference: None,
        };
        for r in replies.iter().filter(|r| r.shows_something()) {
            let at = if visible(r) {
                send_reply(http, there, there, r, false, lang).await
            } else {
                send_reply(
                    http,
                    Via::Followup(token),
                    Via::Followup(token),
                    r,
                    true,
                    lang,
                )
                .await
            };
            track(h, http, &channel, &user_id, r, at).await;
        }
        return;
    }
    let first_public = replies.iter().position(visible);
    if first_public.is_none() {
        // Nothing for everyone: the "thinking…" message goes, private notes follow.
        delete_original(http, token).await;
    }
    for (i, r) in replies.iter().enumerate() {
        if !r.shows_something() {
            continue;
        }
        let first = if Some(i) == first_public {
            Via::Original(token)
        } else {
            Via::Followup(token)
        };
        let at = send_reply(http, first, Via::Followup(token), r, !visible(r), lang).await;
        track(h, http, &channel, &user_id, r, at).await;
    }
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
        .auto_archive_duration(AutoArchiveDuration::OneWeek);
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
    if let Err(e) = comp
        .create_response(http, CreateInteractionResponse::Acknowledge)
        .await
    {
        tracing::warn!(error = %e, "cannot acknowledge a click");
        return;
    }
    let Some(action) = action else {
        // Not one of ours (or forged): nothing to do.
        return;
    };
    let nick = comp.member.as_ref().and_then(|m| m.nick.as_deref());
    let lang = lang_of(&comp.locale);
    let user = player(&comp.user, nick);
    let channel = channel_key(comp.channel_id);
    let inc = Incoming {
        channel: channel.clone(),
        user: user.clone(),
        handle: Some(comp.user.name.to_lowercase()),
        text: String::new(),
        action: Some(action),
        mentions: Vec::new(),
        lang_hint: lang,
        community: comp.guild_id.map(super::community_key),
    };
    let replies = h.service.handle(inc).await;
    let lang = lang.unwrap_or_default();
    let token = comp.token.as_str();
    let menu_replaced = from_menu && replies.iter().any(|r| r.menu);
    // A used menu, or a question only this user saw that is now settled (confirm
    // resignation), is deleted below with this interaction's own token, not again here.
    let gone = retired(&replies);
    let ephemeral = comp
        .message
        .flags
        .is_some_and(|f| f.contains(MessageFlags::EPHEMERAL));
    let settled = gone
        .iter()
        .any(|r| referenced_message(r) == Some(comp.message.id));
    let delete_clicked = (from_menu && !menu_replaced) || (ephemeral && settled);
    retire(http, &gone, delete_clicked.then_some(comp.message.id)).await;
    let mut replaced = false;
    for r in replies.iter().filter(|r| r.shows_something()) {
        let first = if r.menu && from_menu && !replaced {
            replaced = true;
            Via::Original(token)
        } else {
            Via::Followup(token)
        };
        let at = send_reply(http, first, Via::Followup(token), r, !visible(r), lang).await;
        // The menu's next step edits the same message: it is already known.
        if !matches!(first, Via::Original(_)) {
            track(h, http, &channel, &user.id, r, at).await;
        }
    }
    if delete_clicked {
        delete_original(http, token).await;
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
pub(super) async fn on_message(h: &Handler, http: &Http, msg: &Message) {
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
    for u in msg.mentions.iter().filter(|u| u.id.get() != me) {
        let p = player(u, None);
        mentions.push((format!("<@{}>", u.id), p.clone()));
        mentions.push((format!("<@!{}>", u.id), p));
    }
    let nick = msg.member.as_ref().and_then(|m| m.nick.as_deref());
    let user = player(&msg.author, nick);
    let channel = channel_key(msg.channel_id);
    let inc = Incoming {
        channel: channel.clone(),
        user: user.clone(),
        handle: Some(msg.author.name.to_lowercase()),
        text: text.to_string(),
        action: None,
        mentions,
        lang_hint: None,
        community: msg.guild_id.map(super::community_key),
    };
    let replies = h.service.handle(inc).await;
    retire(http, &retired(&replies), None).await;
    for r in replies.iter().filter(|r| r.shows_something()) {
        // A private note cannot be hidden in a channel: it answers the user's message.
        let via = Via::Channel {
            channel: msg.channel_id,
            reference: r.private.then_some(msg.id),
        };
        let at = send_reply(http, via, via, r, false, Lang::default()).await;
        track(h, http, &channel, &user.id, r, at).await;
    }
}
