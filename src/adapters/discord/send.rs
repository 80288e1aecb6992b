//! The service's replies as Discord messages: a board is a PNG attachment shown in an embed,
//! buttons become action rows, a menu becomes select menus, long texts are split at line ends.
//! Every message can go three ways: to a channel, into an interaction's original response, or
//! as a follow-up. A message whose picture Discord refuses for a missing permission (50013) is
//! sent again as text, with a hint for the server's admins.

use std::sync::Arc;

use serenity::all::{
    ButtonStyle, ChannelId, CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton,
    CreateEmbed, CreateInteractionResponseFollowup, CreateMessage, CreateSelectMenu,
    CreateSelectMenuKind, CreateSelectMenuOption, EditInteractionResponse, EditMessage, Http,
    HttpError, MessageId,
};
use serenity::builder::Builder;

use crate::app::{Action, Button, Reply};
use crate::i18n::Lang;

/// Longest message content Discord accepts.
const CONTENT_MAX: usize = 2000;
/// Longest embed description.
const EMBED_MAX: usize = 4096;
/// Options in one select menu, and menus in one message.
const MENU_OPTIONS: usize = 25;
/// Rows (of buttons, or one menu each) in one message, and buttons in a row.
const ROWS_MAX: usize = 5;
const ROW_BUTTONS: usize = 5;
/// Discord's "Missing Permissions".
pub(super) const MISSING_PERMISSIONS: isize = 50013;
/// The embed colour: the lacquer red of a Red piece.
const EMBED_COLOUR: u32 = 0x00B2_2222;

/// A picture to attach and show in the embed.
struct Picture {
    bytes: Arc<Vec<u8>>,
    filename: String,
    alt: String,
    caption: String,
}

/// One Discord message, ready for any of the three ways out.
struct Post {
    content: String,
    picture: Option<Picture>,
    rows: Vec<CreateActionRow>,
    ephemeral: bool,
}

/// Where a message goes.
#[derive(Clone, Copy, Debug)]
pub(super) enum Via<'a> {
    /// A channel message, optionally as a reply to the user's message.
    Channel {
        /// The channel.
        channel: ChannelId,
        /// The message answered.
        reference: Option<MessageId>,
    },
    /// The interaction's original (deferred) response, or for a component the message clicked.
    Original(&'a str),
    /// A follow-up message of the interaction.
    Followup(&'a str),
}

/// What the admins are told when the bot cannot attach the board.
fn permission_hint(lang: Lang) -> &'static str {
    match lang {
        Lang::En => {
            "⚠️ I cannot post pictures in this channel. A server admin can give me the \
             **Attach Files** and **Embed Links** permissions here (Server Settings → Roles, \
             or the channel's Permissions)."
        }
        Lang::Vi => {
            "⚠️ Bot không gửi được ảnh trong kênh này. Quản trị viên máy chủ hãy cấp cho bot \
             quyền **Attach Files** (Đính kèm tệp) và **Embed Links** (Nhúng liên kết) ở đây \
             (Cài đặt máy chủ → Vai trò, hoặc Quyền của kênh)."
        }
        Lang::Zh => {
            "⚠️ 机器人无法在此频道发送图片。请服务器管理员在此为机器人开启 **Attach Files**\
             （附加文件）和 **Embed Links**（嵌入链接）权限（服务器设置 → 身份组，或频道权限）。"
        }
    }
}

/// No mentions ping anyone: player names are echoed as typed, and may read `@everyone`.
fn quiet() -> CreateAllowedMentions {
    CreateAllowedMentions::new()
}

/// Cut `text` into pieces of at most `max` characters, at line ends where possible.
pub(super) fn chunks(text: &str, max: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut cur_len = 0;
    for line in text.lines() {
        let mut line: Vec<char> = line.chars().collect();
        // A line longer than a piece is cut anywhere.
        while line.len() > max {
            if cur_len > 0 {
                out.push(std::mem::take(&mut cur));
                cur_len = 0;
            }
            out.push(line.drain(..max).collect());
        }
        let extra = line.len() + usize::from(cur_len > 0);
        if cur_len > 0 && cur_len + extra > max {
            out.push(std::mem::take(&mut cur));
            cur_len = 0;
        }
        if cur_len > 0 {
            cur.push('\n');
            cur_len += 1;
        }
        cur.extend(line.iter());
        cur_len += line.len();
    }
    if cur_len > 0 || out.is_empty() {
        out.push(cur);
    }
    out.retain(|c| !c.trim().is_empty());
    out
}

fn bounded(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut t: String = s.chars().take(max.saturating_sub(1)).collect();
    t.push('…');
    t
}

fn style(action: &Action) -> ButtonStyle {
    match action {
        Action::Accept { .. } | Action::AcceptTakeback { .. } => ButtonStyle::Success,
        Action::Resign { .. } | Action::ConfirmResign { .. } => ButtonStyle::Danger,
        Action::Pick { .. } => ButtonStyle::Primary,
        _ => ButtonStyle::Secondary,
    }
}

/// Buttons in rows of at most five, at most five rows (custom id: the encoded action).
fn button_rows(rows: &[Vec<Button>]) -> Vec<CreateActionRow> {
    let mut out = Vec::new();
    for row in rows {
        for part in row.chunks(ROW_BUTTONS) {
            let buttons = part
                .iter()
                .map(|b| {
                    CreateButton::new(b.action.encode())
                        .label(bounded(&b.label, 80))
                        .style(style(&b.action))
                })
                .collect();
            out.push(CreateActionRow::Buttons(buttons));
        }
    }
    if out.len() > ROWS_MAX {
        tracing::warn!(rows = out.len(), "more button rows than Discord shows");
        out.truncate(ROWS_MAX);
    }
    out
}

/// A menu's entries as select menus of at most 25 options. The menu's own custom id is `m`
/// and its first entry's action (which carries the game and ply); each option's value is
/// the encoded action it stands for.
fn menu_rows(rows: &[Vec<Button>], placeholder: &str) -> Vec<CreateActionRow> {
    let all: Vec<&Button> = rows.iter().flatten().collect();
    let mut out = Vec::new();
    for part in all.chunks(MENU_OPTIONS).take(ROWS_MAX) {
        let Some(first) = part.first() else { continue };
        let options = part
            .iter()
            .map(|b| CreateSelectMenuOption::new(bounded(&b.label, 100), b.action.encode()))
            .collect();
        let menu = CreateSelectMenu::new(
            format!("m{}", first.action.encode()),
            CreateSelectMenuKind::String { options },
        )
        .placeholder(bounded(placeholder, 150));
        out.push(CreateActionRow::SelectMenu(menu));
    }
    out
}

/// A reply as messages. With `picture` false (or no picture to show) the board is given as
/// text (the Unicode grid in a code block, else its description), followed by `hint`.
fn posts(reply: &Reply, ephemeral: bool, picture: bool, hint: Option<&str>) -> Vec<Post> {
    let first_line = reply.text.lines().next().unwrap_or("");
    let rows = if reply.menu {
        menu_rows(&reply.buttons, first_line)
    } else {
        button_rows(&reply.buttons)
    };
    let text_post = |content: String| Post {
        content,
        picture: None,
        rows: Vec::new(),
        ephemeral,
    };
    if let Some(img) = reply
        .image
        .as_ref()
        .filter(|i| picture && !i.bytes.is_empty())
    {
        let mut parts = chunks(&reply.text, EMBED_MAX).into_iter();
        let caption = parts.next().unwrap_or_default();
        let mut out = vec![Post {
            content: String::new(),
            picture: Some(Picture {
                bytes: Arc::clone(&img.bytes),
                filename: img.filename.clone(),
                alt: img.alt.clone(),
                caption,
            }),
            rows,
            ephemeral,
        }];
        for rest in parts {
            out.extend(chunks(&rest, CONTENT_MAX).into_iter().map(text_post));
        }
        return out;
    }
    let mut text = String::new();
    if let Some(img) = &reply.image {
        match img.text_board.as_deref() {
            Some(board) => text.push_str(&format!("```\n{board}\n```\n")),
            None if !img.alt.is_empty() => text.push_str(&format!("{}\n", img.alt)),
            None => {}
        }
    }
    text.push_str(&reply.text);
    if let Some(h) = hint {
        text.push('\n');
        text.push_str(h);
    }
    let mut out: Vec<Post> = code_safe_chunks(&text).into_iter().map(text_post).collect();
    match out.last_mut() {
        Some(last) => last.rows = rows,
        // Buttons need a message to sit under.
        None if !rows.is_empty() => out.push(Post {
            content: "…".into(),
            rows,
            ..text_post(String::new())
        }),
        None => {}
    }
    out
}

/// Like [`chunks`] for messages, keeping a code block in one piece when it fits (the board
/// grid is about 300 characters).
fn code_safe_chunks(text: &str) -> Vec<String> {
    if let Some(end) = text.find("\n```\n") {
        let (board, rest) = text.split_at(end + 4);
        if board.starts_with("```") && board.chars().count() < CONTENT_MAX {
            let mut out = chunks(rest, CONTENT_MAX.saturating_sub(board.chars().count() + 1));
            match out.first_mut() {
                Some(first) => *first = format!("{board}\n{first}"),
                None => out.push(board.to_string()),
            }
            // Only the first piece grew; later pieces were cut shorter than needed, which is
            // harmless.
            return out;
        }
    }
    chunks(text, CONTENT_MAX)
}

fn embed(p: &Picture) -> CreateEmbed {
    let mut e = CreateEmbed::new()
        .image(format!("attachment://{}", p.filename))
        .colour(EMBED_COLOUR);
    if !p.caption.is_empty() {
        e = e.description(&p.caption);
    }
    e
}

fn attachment(p: &Picture) -> CreateAttachment {
    let a = CreateAttachment::bytes(p.bytes.as_slice(), p.filename.clone());
    if p.alt.is_empty() {
        a
    } else {
        a.description(bounded(&p.alt, 1024))
    }
}

/// Where a delivered message is, as a reference the adapter can act on later: `c:{channel}:{id}`
/// for a message everyone sees (edited through the channel), `w:{token}:{id}` for one only its
/// user sees (reachable only through the interaction's token, for its 15 minutes).
fn reference(via: Via<'_>, ephemeral: bool, channel: ChannelId, id: MessageId) -> String {
    match via {
        Via::Original(token) | Via::Followup(token) if ephemeral => format!("w:{token}:{id}"),
        _ => format!("c:{channel}:{id}"),
    }
}

/// The message a reference names.
pub(super) fn referenced_message(reference: &str) -> Option<MessageId> {
    let id: u64 = reference.rsplit(':').next()?.parse().ok()?;
    (id != 0).then(|| MessageId::new(id))
}

/// Take the buttons away from messages shown earlier (references from [`send_reply`]): a
/// message everyone sees loses its components; one only its user sees is deleted. Failures
/// are logged (an ephemeral message's token lasts 15 minutes).
pub(super) async fn retire(http: &Http, refs: &[String], skip: Option<MessageId>) {
    for r in refs {
        let Some(id) = referenced_message(r).filter(|id| Some(*id) != skip) else {
            continue;
        };
        let mut parts = r.splitn(3, ':');
        let result = match (parts.next(), parts.next()) {
            (Some("c"), Some(ch)) => match ch.parse::<u64>().ok().filter(|&c| c != 0) {
                Some(ch) => ChannelId::new(ch)
                    .edit_message(http, id, EditMessage::new().components(Vec::new()))
                    .await
                    .map(drop),
                None => continue,
            },
            (Some("w"), Some(token)) => http.delete_followup_message(token, id).await,
            _ => continue,
        };
        if let Err(e) = result {
            tracing::debug!(error = %e, "cannot take the buttons off an earlier message");
        }
    }
}

async fn deliver(http: &Http, via: Via<'_>, post: &Post) -> serenity::Result<String> {
    let sent = |m: serenity::all::Message| reference(via, post.ephemeral, m.channel_id, m.id);
    match via {
        Via::Channel { channel, reference } => {
            let mut m = CreateMessage::new()
                .allowed_mentions(quiet())
                .content(&post.content)
                .components(post.rows.clone());
            if let Some(r) = reference {
                m = m.reference_message((channel, r));
            }
            if let Some(p) = &post.picture {
                m = m.embed(embed(p)).add_file(attachment(p));
            }
            channel.send_message(http, m).await.map(sent)
        }
        Via::Original(token) => {
            let mut e = EditInteractionResponse::new()
                .allowed_mentions(quiet())
                .content(&post.content)
                .components(post.rows.clone());
            if let Some(p) = &post.picture {
                e = e.embed(embed(p)).new_attachment(attachment(p));
            }
            e.execute(http, token).await.map(sent)
        }
        Via::Followup(token) => {
            let mut f = CreateInteractionResponseFollowup::new()
                .allowed_mentions(quiet())
                .ephemeral(post.ephemeral)
                .components(post.rows.clone());
            if !post.content.is_empty() {
                f = f.content(&post.content);
            }
            if let Some(p) = &post.picture {
                f = f.embed(embed(p)).add_file(attachment(p));
            }
            f.execute(http, (None, token)).await.map(sent)
        }
    }
}

/// Whether Discord refused for a missing permission.
pub(super) fn is_missing_permission(e: &serenity::Error) -> bool {
    matches!(e, serenity::Error::Http(HttpError::UnsuccessfulRequest(r))
        if r.error.code == MISSING_PERMISSIONS)
}

fn where_to(via: Via<'_>) -> String {
    match via {
        Via::Channel { channel, .. } => format!("channel {channel}"),
        Via::Original(_) => "interaction response".into(),
        Via::Followup(_) => "interaction follow-up".into(),
    }
}

/// Send one reply: its first message `first`, the rest `rest`. Failures are logged (there is
/// nobody else to tell); a picture refused for a missing permission is replaced by the text
/// board and the hint. Returns a reference to the message under which its buttons are (see
/// [`retire`]), if there are any and it was sent.
pub(super) async fn send_reply(
    http: &Http,
    first: Via<'_>,
    rest: Via<'_>,
    reply: &Reply,
    ephemeral: bool,
    lang: Lang,
) -> Option<String> {
    let mut sent_any = false;
    let mut with_buttons = None;
    for post in posts(reply, ephemeral, true, None) {
        let via = if sent_any { rest } else { first };
        match deliver(http, via, &post).await {
            Ok(at) => {
                sent_any = true;
                if !post.rows.is_empty() {
                    with_buttons = Some(at);
                }
            }
            Err(e) if post.picture.is_some() && is_missing_permission(&e) => {
                tracing::warn!(
                    to = %where_to(via),
                    "missing permission to attach the board; sending it as text"
                );
                return send_text_fallback(http, via, rest, reply, ephemeral, lang).await;
            }
            Err(e) => {
                tracing::error!(to = %where_to(via), error = %e, "cannot send a reply");
                return None;
            }
        }
    }
    with_buttons
}

async fn send_text_fallback(
    http: &Http,
    first: Via<'_>,
    rest: Via<'_>,
    reply: &Reply,
    ephemeral: bool,
    lang: Lang,
) -> Option<String> {
    let mut via = first;
    let mut with_buttons = None;
    for post in posts(reply, ephemeral, false, Some(permission_hint(lang))) {
        match deliver(http, via, &post).await {
            Ok(at) if !post.rows.is_empty() => with_buttons = Some(at),
            Ok(_) => {}
            Err(e) => {
                tracing::error!(to = %where_to(via), error = %e, "cannot send the text board either");
                return with_buttons;
            }
        }
        via = rest;
    }
    with_buttons
}

/// Remove an interaction's original message: a deferred response that has nothing public to
/// show, or (for a menu choice) the used menu.
pub(super) async fn delete_original(http: &Http, token: &str) {
    if let Err(e) = http.delete_original_interaction_response(token).await {
        tracing::warn!(error = %e, "cannot delete an interaction's message");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::{Image, ImageKind};

    #[test]
    fn chunks_respect_the_limit_and_lines() {
        assert!(chunks("", 10).is_empty());
        assert_eq!(chunks("ab\ncd", 10), vec!["ab\ncd"]);
        assert_eq!(chunks("ab\ncd", 4), vec!["ab", "cd"]);
        let long = "x".repeat(25);
        let c = chunks(&format!("a\n{long}\nb"), 10);
        assert!(c.iter().all(|p| p.chars().count() <= 10), "{c:?}");
        assert_eq!(c.concat().replace('\n', ""), format!("a{long}b"));
        let wide = "象".repeat(2500);
        assert!(chunks(&wide, CONTENT_MAX)
            .iter()
            .all(|p| p.chars().count() <= CONTENT_MAX));
    }

    fn reply_with(buttons: usize, menu: bool) -> Reply {
        let row = (0..buttons)
            .map(|i| Button {
                label: format!("b{i}"),
                action: Action::Flip {
                    game: 1,
                    ply: u32::try_from(i).unwrap_or(0),
                },
            })
            .collect();
        Reply {
            text: "pick".into(),
            buttons: vec![row],
            menu,
            ..Reply::default()
        }
    }

    #[test]
    fn menus_hold_25_options_each_and_rows_5_buttons() {
        let p = posts(&reply_with(30, true), false, true, None);
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].rows.len(), 2);
        let p = posts(&reply_with(7, false), false, true, None);
        assert_eq!(p[0].rows.len(), 2);
    }

    #[test]
    fn a_board_without_picture_is_a_code_block_with_the_hint() {
        let reply = Reply {
            text: "1. alice: h2e2".into(),
            image: Some(Image {
                bytes: Arc::new(vec![1, 2, 3]),
                filename: "board-1-1.png".into(),
                kind: ImageKind::Png,
                alt: "Red to move.".into(),
                text_board: Some("車馬象".into()),
            }),
            ..Reply::default()
        };
        let with = posts(&reply, false, true, None);
        assert!(with[0].picture.is_some() && with[0].content.is_empty());
        let text = posts(&reply, false, false, Some("hint"));
        assert_eq!(text.len(), 1);
        assert_eq!(text[0].content, "```\n車馬象\n```\n1. alice: h2e2\nhint");
    }
}
