//! The service's replies as Discord messages: a board is a PNG attachment shown in an embed,
//! buttons become action rows, a menu becomes select menus, long texts are split at line ends.
//! Pure translation: [`posts`] cuts a reply into messages and [`Post::body`] writes one as
//! Discord's JSON (and its files); the delivery queue (`delivery.rs`) decides where each goes
//! and sends it. A board whose picture Discord refuses for a missing permission (50013) is sent
//! again as text, with [`permission_hint`] for the server's admins.

use std::sync::Arc;

use serde_json::{json, Value};
use serenity::all::{
    ButtonStyle, CreateActionRow, CreateButton, CreateEmbed, CreateSelectMenu,
    CreateSelectMenuKind, CreateSelectMenuOption,
};

use super::rest::File;
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
/// The flag of a message only its reader sees.
const EPHEMERAL: u64 = 64;
/// The embed colour: the lacquer red of a Red piece.
const EMBED_COLOUR: u32 = 0x00B2_2222;

/// A picture to attach and show in the embed.
pub(super) struct Picture {
    bytes: Arc<Vec<u8>>,
    filename: String,
    alt: String,
    caption: String,
}

/// One Discord message, ready for any of the ways out.
pub(super) struct Post {
    pub(super) content: String,
    pub(super) picture: Option<Picture>,
    pub(super) rows: Vec<CreateActionRow>,
    pub(super) ephemeral: bool,
    /// The users its content mentions, who alone may be pinged.
    pub(super) pings: Vec<u64>,
}

/// The Discord users `reply` notifies (none for an ephemeral message).
fn pings(reply: &Reply, ephemeral: bool) -> Vec<u64> {
    if ephemeral || reply.private {
        return Vec::new();
    }
    let mut ids: Vec<u64> = Vec::new();
    for p in reply.notify.iter().take(crate::app::MAX_NOTIFY) {
        if let Some(id) = crate::platform::Platform::Discord
            .rest(&p.id)
            .and_then(|r| r.parse().ok())
        {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
    }
    ids
}

/// `<@1> <@2>`: the mentions of `ids`.
fn mention_line(ids: &[u64]) -> String {
    ids.iter()
        .map(|id| format!("<@{id}>"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// What the admins are told when the bot cannot attach the board.
pub(super) fn permission_hint(lang: Lang) -> &'static str {
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
            "⚠️ 电脑无法在此频道发送图片。请服务器管理员在此为电脑开启 **Attach Files**\
             （附加文件）和 **Embed Links**（嵌入链接）权限（服务器设置 → 身份组，或频道权限）。"
        }
    }
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

/// `text` as Discord shows it literally. The service's texts use no markdown, but they carry
/// names and words players chose: every character that could open some (emphasis, strikes,
/// code, spoilers `||`, masked links `](`, mentions and emoji `<@…>`, and headings, quotes or
/// subtext at a line's start) is escaped with a backslash, which Discord shows as the character
/// itself. A channel link `<#id>` is kept: the pointer to a game's thread is one, and it can
/// only name a channel its reader sees.
pub(super) fn literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for line in text.split_inclusive('\n') {
        let body = line.trim_start_matches([' ', '\t']);
        out.push_str(&line[..line.len() - body.len()]);
        if body.starts_with(['#', '>']) || body.starts_with("-#") {
            out.push('\\');
        }
        let mut prev = None;
        let mut chars = body.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            let next = chars.peek().map(|&(_, n)| n);
            let opens = match c {
                '\\' | '*' | '_' | '~' | '`' => true,
                '<' => !is_channel_link(&body[at..]),
                '|' => prev == Some('|') || next == Some('|'),
                ']' => next == Some('('),
                _ => false,
            };
            if opens {
                out.push('\\');
            }
            out.push(c);
            prev = Some(c);
        }
    }
    out
}

/// Whether `s` starts with a channel link, `<#` digits `>`.
fn is_channel_link(s: &str) -> bool {
    s.strip_prefix("<#")
        .and_then(|rest| rest.split_once('>'))
        .is_some_and(|(id, _)| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
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
        Action::Pick { .. } | Action::PuzzlePick { .. } => ButtonStyle::Primary,
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
pub(super) fn posts(
    reply: &Reply,
    ephemeral: bool,
    picture: bool,
    hint: Option<&str>,
) -> Vec<Post> {
    // A menu's placeholder is plain text; the message's text is markdown, taken literally.
    let first_line = reply.text.lines().next().unwrap_or("");
    let shown = literal(&reply.text);
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
        pings: Vec::new(),
    };
    let pings = pings(reply, ephemeral);
    if let Some(img) = reply
        .image
        .as_ref()
        .filter(|i| picture && !i.bytes.is_empty())
    {
        let mut parts = chunks(&shown, EMBED_MAX).into_iter();
        let caption = parts.next().unwrap_or_default();
        let mut out = vec![Post {
            content: mention_line(&pings),
            picture: Some(Picture {
                bytes: Arc::clone(&img.bytes),
                filename: img.filename.clone(),
                alt: img.alt.clone(),
                caption,
            }),
            rows,
            ephemeral,
            pings,
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
    text.push_str(&shown);
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
    if !pings.is_empty() {
        // The mentions lead the first message, or come as their own just before it.
        let line = mention_line(&pings);
        match out.first_mut() {
            Some(first) if first.content.chars().count() + line.chars().count() < CONTENT_MAX => {
                first.content = format!("{line}\n{}", first.content);
                first.pings = pings;
            }
            _ => out.insert(
                0,
                Post {
                    pings,
                    ..text_post(line)
                },
            ),
        }
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

impl Post {
    /// The message as Discord's JSON and its files. `reference` makes a channel message a
    /// reply to the user's message; for a `followup` an empty content is left out and an
    /// ephemeral message flagged (an edit keeps the flags the message has). A channel message
    /// with a `nonce` is created once however often it is sent (Discord returns the first for a
    /// second with the same nonce). Nobody is pinged but the users of [`Post::pings`], whose
    /// mentions the bot wrote: names are echoed as typed and may read `@everyone`.
    pub(super) fn body(
        &self,
        reference: Option<(u64, u64)>,
        followup: bool,
        nonce: Option<&str>,
    ) -> (Value, Vec<File>) {
        let users: Vec<String> = self.pings.iter().map(u64::to_string).collect();
        let mut v = json!({
            "components": serde_json::to_value(&self.rows).unwrap_or(Value::Array(Vec::new())),
            "allowed_mentions": if users.is_empty() {
                json!({ "parse": [] })
            } else {
                json!({ "parse": [], "users": users })
            },
        });
        let obj = v.as_object_mut();
        let Some(obj) = obj else {
            return (v, Vec::new());
        };
        if !(followup && self.content.is_empty()) {
            obj.insert("content".into(), Value::String(self.content.clone()));
        }
        if self.ephemeral && followup {
            obj.insert("flags".into(), json!(EPHEMERAL));
        }
        if let Some(n) = nonce {
            obj.insert("nonce".into(), Value::String(n.to_string()));
            obj.insert("enforce_nonce".into(), Value::Bool(true));
        }
        if let Some((channel, message)) = reference {
            obj.insert(
                "message_reference".into(),
                json!({ "message_id": message.to_string(), "channel_id": channel.to_string(), "fail_if_not_exists": false }),
            );
        }
        let mut files = Vec::new();
        if let Some(p) = &self.picture {
            obj.insert(
                "embeds".into(),
                Value::Array(vec![serde_json::to_value(embed(p)).unwrap_or(Value::Null)]),
            );
            let mut attachment = json!({ "id": 0, "filename": p.filename });
            if !p.alt.is_empty() {
                attachment["description"] = Value::String(bounded(&p.alt, 1024));
            }
            obj.insert("attachments".into(), Value::Array(vec![attachment]));
            files.push(File {
                filename: p.filename.clone(),
                bytes: Arc::clone(&p.bytes),
                mime: if p.filename.ends_with(".gif") {
                    "image/gif"
                } else {
                    "image/png"
                },
            });
        }
        (v, files)
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

    /// The players a reply notifies are mentioned first and pinged alone; a private reply, and
    /// players of another platform, ping nobody.
    #[test]
    fn notified_players_are_mentioned_and_pinged_alone() {
        use crate::game::PlayerRef;
        let reply = Reply {
            text: "Game #3: @everyone (Red) – ben (Black)".into(),
            notify: vec![
                PlayerRef::new("dc:11", "@everyone"),
                PlayerRef::new("dc:22", "ben"),
                PlayerRef::new("tg:5", "cat"),
                PlayerRef::new("dc:22", "ben"),
            ],
            ..Reply::default()
        };
        let p = posts(&reply, false, true, None);
        assert_eq!(p.len(), 1);
        assert!(
            p[0].content.starts_with("<@11> <@22>\nGame #3: "),
            "{}",
            p[0].content
        );
        let (body, _) = p[0].body(None, false, None);
        assert_eq!(
            body["allowed_mentions"],
            json!({ "parse": [], "users": ["11", "22"] })
        );
        // With a picture, the mentions are the message's content (an embed's text pings no one).
        let mut with_picture = reply.clone();
        with_picture.image = Some(Image {
            bytes: Arc::new(vec![1]),
            filename: "b.png".into(),
            kind: ImageKind::Png,
            alt: String::new(),
            text_board: None,
            drawing: None,
            later: None,
        });
        let p = posts(&with_picture, false, true, None);
        assert_eq!(p[0].content, "<@11> <@22>");
        assert_eq!(p[0].pings, vec![11, 22]);
        // Ephemeral or private: nobody.
        let p = posts(&reply, true, true, None);
        assert!(p[0].pings.is_empty() && !p[0].content.contains("<@"));
        let (body, _) = p[0].body(None, false, None);
        assert_eq!(body["allowed_mentions"], json!({ "parse": [] }));
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
    fn names_are_shown_literally_not_as_markdown() {
        let name = "[Free Nitro](https://x.co/a)";
        let text = format!(
            "{name} challenges anyone.\n# big\n> quote <@1> <#x> **b** a_b ||s|| ~~x~~ `c` \\"
        );
        let shown = literal(&text);
        assert_eq!(
            shown,
            "[Free Nitro\\](https://x.co/a) challenges anyone.\n\\# big\n\\> quote \\<@1> \\<#x> \\*\\*b\\*\\* \
             a\\_b \\|\\|s\\|\\| \\~\\~x\\~\\~ \\`c\\` \\\\"
        );
        // What the service writes without markdown stays as it was.
        let plain =
            "/play [@user] [time] [red|black|random]\n1. alice: C2.5 (h2e2) P2-5 #3 🧵 <#12>";
        assert_eq!(literal(plain), plain);
        let p = posts(&Reply::text(text), false, true, None);
        assert!(
            p[0].content.starts_with("[Free Nitro\\]("),
            "{}",
            p[0].content
        );
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
                drawing: None,
                later: None,
            }),
            ..Reply::default()
        };
        let with = posts(&reply, false, true, None);
        assert!(with[0].picture.is_some() && with[0].content.is_empty());
        let text = posts(&reply, false, false, Some("hint"));
        assert_eq!(text.len(), 1);
        assert_eq!(text[0].content, "```\n車馬象\n```\n1. alice: h2e2\nhint");
        let (body, files) = with[0].body(None, false, None);
        assert_eq!(files.len(), 1);
        assert_eq!(body["attachments"][0]["filename"], "board-1-1.png");
        assert_eq!(
            body["embeds"][0]["image"]["url"],
            "attachment://board-1-1.png"
        );
        assert_eq!(body["allowed_mentions"]["parse"], json!([]));
        assert!(body.get("flags").is_none());
        let private = posts(&Reply::private("only you"), true, true, None);
        let (body, files) = private[0].body(Some((5, 6)), true, Some("a-0"));
        assert_eq!(body["flags"], 64);
        assert_eq!(
            (body["nonce"].as_str(), body["enforce_nonce"].as_bool()),
            (Some("a-0"), Some(true))
        );
        assert_eq!(body["message_reference"]["message_id"], "6");
        assert!(files.is_empty());
    }
}
