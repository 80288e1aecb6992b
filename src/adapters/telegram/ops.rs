//! Pure translation between the service's vocabulary and Telegram's: channel keys, callback
//! data, keyboards, and the Bot API calls one [`Reply`] becomes (text split to Telegram's
//! limits). Nothing here talks to the network.

use std::sync::Arc;

use teloxide::types::{
    ChatId, InlineKeyboardButton, InlineKeyboardMarkup, MessageId, ThreadId, UserId,
};

use serde::{Deserialize, Serialize};

use crate::app::{Action, Button, ImageKind, Reply};
use crate::platform::{ChannelKey, Platform, UserKey};

/// Longest message text Telegram takes (UTF-16 code units after entity parsing).
pub const MAX_TEXT: usize = 4096;
/// Longest photo caption.
pub const MAX_CAPTION: usize = 1024;
/// Longest `answerCallbackQuery` text.
pub const MAX_CALLBACK_TEXT: usize = 200;
/// Longest `callback_data`, in bytes.
pub const MAX_CALLBACK_DATA: usize = 64;
/// Most buttons Telegram shows in one keyboard row.
pub const MAX_ROW: usize = 8;

/// Where a message goes: a chat, and a forum topic in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// The chat.
    pub chat: ChatId,
    /// The forum topic (`message_thread_id`), if any.
    pub thread: Option<ThreadId>,
}

impl Target {
    /// The service's channel key: `tg:{chat_id}`, or `tg:{chat_id}:{thread_id}` for a topic.
    #[must_use]
    pub fn channel(self) -> ChannelKey {
        match self.thread {
            Some(t) => ChannelKey::on(Platform::Telegram, format!("{}:{}", self.chat.0, t.0 .0)),
            None => ChannelKey::on(Platform::Telegram, self.chat.0),
        }
    }

    /// The leaderboard scope of the chat: `tg:{chat_id}` for a group (all its topics share
    /// it); none for a private chat (whose id is the user's, positive).
    #[must_use]
    pub fn community(self) -> Option<String> {
        (self.chat.0 < 0).then(|| Platform::Telegram.key(self.chat.0))
    }

    /// Read a channel key back; `None` for another platform's or a malformed key.
    #[must_use]
    pub fn from_channel(key: &str) -> Option<Target> {
        let rest = Platform::Telegram.rest(key)?;
        let mut parts = rest.split(':');
        let chat = ChatId(parts.next()?.parse().ok()?);
        let thread = match parts.next() {
            None => None,
            Some(t) => Some(ThreadId(MessageId(t.parse().ok()?))),
        };
        if parts.next().is_some() {
            return None;
        }
        Some(Target { chat, thread })
    }
}

/// One Bot API call to make in a chat.
#[derive(Clone, Debug)]
pub enum Op {
    /// `sendMessage`.
    Text {
        /// The text (within [`MAX_TEXT`]).
        text: String,
        /// Users it mentions (in its first line).
        mentions: Vec<Mention>,
        /// Buttons under it.
        keyboard: Option<InlineKeyboardMarkup>,
        /// The message it answers (sent anyway if that one is gone).
        reply_to: Option<MessageId>,
    },
    /// `sendPhoto` (a board) or `sendAnimation` (a replay).
    Picture {
        /// The encoded image.
        bytes: Arc<Vec<u8>>,
        /// Its file name.
        filename: String,
        /// PNG (photo) or GIF (animation).
        kind: ImageKind,
        /// The caption (within [`MAX_CAPTION`]).
        caption: String,
        /// Users the caption mentions (in its first line).
        mentions: Vec<Mention>,
        /// Buttons under it.
        keyboard: Option<InlineKeyboardMarkup>,
        /// What to send instead if Telegram refuses the picture itself.
        fallback: String,
    },
    /// `editMessageText`: the move picker's next step in place of its previous one.
    Edit {
        /// The message.
        message_id: MessageId,
        /// The new text.
        text: String,
        /// The new buttons (none removes them).
        keyboard: Option<InlineKeyboardMarkup>,
    },
    /// `editMessageReplyMarkup` without a markup: remove the buttons of a used message.
    ClearKeyboard {
        /// The message.
        message_id: MessageId,
    },
    /// `createForumTopic`: a tournament game's own topic (its `message_thread_id` is what the
    /// call gives back, as the message id of the others).
    CreateTopic {
        /// Its name (1–128 characters).
        name: String,
    },
}

/// A user named in a text as a `text_mention` entity: Telegram notifies them, and the name
/// opens their profile. Offsets count UTF-16 code units, as the Bot API does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mention {
    /// Where the name starts.
    pub offset: usize,
    /// Its length.
    pub length: usize,
    /// The user's id.
    pub user: i64,
    /// Their name (Telegram asks for a first name with the user).
    pub name: String,
}

/// Longest line of mentions put before a reply's text (UTF-16 code units): well inside a
/// caption, whatever follows.
const MAX_MENTION_LINE: usize = 512;

/// The line that calls the players `reply` notifies (`🔔 ann, ben`) and their mentions in it;
/// nothing for a private reply or players of other platforms.
fn mention_line(reply: &Reply) -> (String, Vec<Mention>) {
    let mut line = String::new();
    let mut mentions = Vec::new();
    if reply.private {
        return (line, mentions);
    }
    for p in reply.notify.iter().take(crate::app::MAX_NOTIFY) {
        let Some(user) = Platform::Telegram
            .rest(&p.id)
            .and_then(|r| r.parse::<i64>().ok())
            .filter(|u| *u > 0)
        else {
            continue;
        };
        let name = p.name.trim();
        if name.is_empty() || mentions.iter().any(|m: &Mention| m.user == user) {
            continue;
        }
        let lead = if line.is_empty() { "🔔 " } else { ", " };
        if tg_len(&line) + tg_len(lead) + tg_len(name) > MAX_MENTION_LINE {
            break;
        }
        line.push_str(lead);
        mentions.push(Mention {
            offset: tg_len(&line),
            length: tg_len(name),
            user,
            name: name.to_string(),
        });
        line.push_str(name);
    }
    (line, mentions)
}

/// A call bound for a chat.
#[derive(Clone, Debug)]
pub struct Job {
    /// Where.
    pub target: Target,
    /// What.
    pub op: Op,
    /// For a message with one-time buttons: what to tell the service once it is shown.
    pub track: Option<Track>,
}

impl Job {
    /// `op` in `target`, with nothing to tell the service once shown.
    #[must_use]
    pub fn untracked(target: Target, op: Op) -> Job {
        Job {
            target,
            op,
            track: None,
        }
    }
}

/// A one-time question or picker the service wants to know the message of
/// ([`crate::app::Service::shown`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Track {
    /// The service's id of the user it was shown for (`tg:…`).
    pub user: UserKey,
    /// Its first button's action.
    pub action: Action,
}

/// The calls that deliver `reply` as jobs for `target`: its messages (see [`reply_ops`]),
/// with the one under which its buttons sit tracked if the reply asks for it, then the
/// removal of the buttons of the messages it retires (except `skip`, already handled).
#[must_use]
pub fn reply_jobs(
    reply: &Reply,
    target: Target,
    user: &UserKey,
    only_for: Option<UserId>,
    reply_to: Option<MessageId>,
) -> Vec<Job> {
    let mut jobs: Vec<Job> = reply_ops(reply, only_for, reply_to)
        .into_iter()
        .map(|op| Job {
            target,
            op,
            track: None,
        })
        .collect();
    let track = tracking(reply, user);
    if let Some(job) = jobs.iter_mut().find(|j| has_keyboard(&j.op)) {
        job.track = track;
    }
    jobs.extend(retire_ops(&reply.retire, None).into_iter().map(|op| Job {
        target,
        op,
        track: None,
    }));
    jobs
}

/// What to tell the service about `reply` once shown, if it asks to be tracked.
#[must_use]
pub fn tracking(reply: &Reply, user: &UserKey) -> Option<Track> {
    let first = reply.buttons.iter().flatten().next()?;
    reply.track.then(|| Track {
        user: user.clone(),
        action: first.action,
    })
}

/// Whether `op` puts buttons under a message.
#[must_use]
pub fn has_keyboard(op: &Op) -> bool {
    match op {
        Op::Text { keyboard, .. } | Op::Picture { keyboard, .. } | Op::Edit { keyboard, .. } => {
            keyboard.is_some()
        }
        Op::ClearKeyboard { .. } | Op::CreateTopic { .. } => false,
    }
}

/// Calls that take the buttons away from retired messages (references are message ids),
/// leaving out `skip`.
#[must_use]
pub fn retire_ops(refs: &[String], skip: Option<MessageId>) -> Vec<Op> {
    refs.iter()
        .filter_map(|r| r.parse::<i32>().ok().map(MessageId))
        .filter(|id| Some(*id) != skip)
        .map(|message_id| Op::ClearKeyboard { message_id })
        .collect()
}

/// Whom replies answer, stored with them in the outbox: the user who acted, and the message
/// they sent or the one whose button they pressed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answering {
    /// The user's id.
    pub user: u64,
    /// Their name (a question for them alone is addressed to them by name).
    pub name: String,
    /// The message they sent (private replies answer it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<MessageId>,
    /// The message whose button they pressed, and what it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pressed: Option<(MessageId, Pressed)>,
}

/// The callback data of a button: the action, and for a button that only one user may
/// press (a private reply Telegram can only show to everyone), `|` and that user's id.
#[must_use]
pub fn callback_data(action: &Action, only_for: Option<UserId>) -> String {
    let code = action.encode();
    match only_for {
        Some(user) => {
            let bound = format!("{code}|{}", user.0);
            if bound.len() <= MAX_CALLBACK_DATA {
                bound
            } else {
                code
            }
        }
        None => code,
    }
}

/// Split callback data into the action and the user it is reserved for. Data the bot did
/// not make gives `None` for the action.
#[must_use]
pub fn read_callback_data(data: &str) -> (Option<Action>, Option<UserId>) {
    let (code, user) = match data.split_once('|') {
        Some((code, user)) => match user.parse::<u64>() {
            Ok(id) => (code, Some(UserId(id))),
            Err(_) => return (None, None),
        },
        None => (data, None),
    };
    (Action::decode(code), user)
}

/// An inline keyboard from the service's rows, each cut to at most [`MAX_ROW`] buttons.
#[must_use]
pub fn keyboard(rows: &[Vec<Button>], only_for: Option<UserId>) -> Option<InlineKeyboardMarkup> {
    let mut out: Vec<Vec<InlineKeyboardButton>> = Vec::new();
    for row in rows {
        for chunk in row.chunks(MAX_ROW) {
            let buttons: Vec<InlineKeyboardButton> = chunk
                .iter()
                .filter_map(|b| {
                    let data = callback_data(&b.action, only_for);
                    (data.len() <= MAX_CALLBACK_DATA && !b.label.trim().is_empty())
                        .then(|| InlineKeyboardButton::callback(b.label.clone(), data))
                })
                .collect();
            if !buttons.is_empty() {
                out.push(buttons);
            }
        }
    }
    (!out.is_empty()).then(|| InlineKeyboardMarkup::new(out))
}

/// Length as Telegram counts it (UTF-16 code units).
#[must_use]
pub fn tg_len(s: &str) -> usize {
    s.encode_utf16().count()
}

/// The longest prefix of `text` within `max` units, cut after a line if one fits, else
/// after a character; and the rest (without the line break at the cut).
#[must_use]
pub fn split_at_limit(text: &str, max: usize) -> (&str, &str) {
    if tg_len(text) <= max {
        return (text, "");
    }
    let mut units = 0;
    let mut last_char_end = 0;
    let mut last_line_end = None;
    for (i, c) in text.char_indices() {
        units += c.len_utf16();
        if units > max {
            break;
        }
        last_char_end = i + c.len_utf8();
        if c == '\n' {
            last_line_end = Some(i);
        }
    }
    match last_line_end.filter(|&i| i > 0) {
        Some(i) => (&text[..i], &text[i + 1..]),
        None => (&text[..last_char_end], &text[last_char_end..]),
    }
}

/// `text` cut into messages within [`MAX_TEXT`] (empty parts dropped).
#[must_use]
pub fn chunks(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.trim().is_empty() {
        let (head, tail) = split_at_limit(rest, MAX_TEXT);
        if head.is_empty() {
            break; // cannot happen with Telegram's limits; never loop forever
        }
        if !head.trim().is_empty() {
            out.push(head.to_string());
        }
        rest = tail;
    }
    out
}

/// Cut a callback answer to Telegram's limit.
#[must_use]
pub fn callback_text(text: &str) -> String {
    if tg_len(text) <= MAX_CALLBACK_TEXT {
        return text.to_string();
    }
    let (head, _) = split_at_limit(text, MAX_CALLBACK_TEXT - 1);
    format!("{head}…")
}

/// The calls that deliver `reply` (sent to everyone in the chat). `only_for` reserves its
/// buttons for one user; `reply_to` answers a message.
#[must_use]
pub fn reply_ops(reply: &Reply, only_for: Option<UserId>, reply_to: Option<MessageId>) -> Vec<Op> {
    let kb = keyboard(&reply.buttons, only_for);
    let mut ops = Vec::new();
    let picture = reply.image.as_ref().filter(|i| !i.bytes.is_empty());
    // The players it notifies are named first, so their mentions lie in the first message.
    let (line, mut mentions) = mention_line(reply);
    let text = if mentions.is_empty() {
        reply.text.clone()
    } else {
        format!("{line}\n{}", reply.text)
    };
    let rest = match picture {
        Some(img) => {
            let (caption, rest) = split_at_limit(&text, MAX_CAPTION);
            let fallback = if reply.text.trim().is_empty() {
                img.alt.clone()
            } else {
                reply.text.clone()
            };
            ops.push(Op::Picture {
                bytes: Arc::clone(&img.bytes),
                filename: img.filename.clone(),
                kind: img.kind,
                caption: caption.to_string(),
                mentions: std::mem::take(&mut mentions),
                keyboard: kb.clone(),
                fallback,
            });
            rest
        }
        None => text.as_str(),
    };
    let parts = chunks(rest);
    let n = parts.len();
    for (i, text) in parts.into_iter().enumerate() {
        // Without a picture the buttons go under the last part, with one under the picture.
        let keyboard = if picture.is_none() && i + 1 == n {
            kb.clone()
        } else {
            None
        };
        ops.push(Op::Text {
            text,
            mentions: if i == 0 {
                std::mem::take(&mut mentions)
            } else {
                Vec::new()
            },
            keyboard,
            reply_to: if i == 0 && picture.is_none() {
                reply_to
            } else {
                None
            },
        });
    }
    ops
}

/// What kind of message a button was pressed under, judged by its buttons.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Pressed {
    /// A board (its buttons stay while they are current).
    Board,
    /// The move picker (edited step by step).
    Picker,
    /// A one-time question: a challenge, an offer, a confirmation.
    Question,
    /// No message or no keyboard we know.
    Other,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::Image;

    /// The players a reply notifies are named on its first line as `text_mention`s, whose
    /// offsets count UTF-16 units (a name with an emoji or Hanzi included); nobody for a
    /// private reply; the mentions ride on the caption of a picture.
    #[test]
    fn notified_players_are_mentioned_on_the_first_line() {
        use crate::game::PlayerRef;
        let reply = Reply {
            text: "Game #3 begins".into(),
            notify: vec![
                PlayerRef::new("tg:11", "An 🐉"),
                PlayerRef::new("dc:5", "discord"),
                PlayerRef::new("tg:22", "象棋"),
            ],
            ..Reply::default()
        };
        let ops = reply_ops(&reply, None, None);
        let [Op::Text { text, mentions, .. }] = &ops[..] else {
            panic!("{ops:?}");
        };
        assert_eq!(text, "🔔 An 🐉, 象棋\nGame #3 begins");
        let units: Vec<u16> = text.encode_utf16().collect();
        let named = |m: &Mention| String::from_utf16_lossy(&units[m.offset..m.offset + m.length]);
        assert_eq!(mentions.len(), 2);
        assert_eq!(
            (named(&mentions[0]), mentions[0].user),
            ("An 🐉".into(), 11)
        );
        assert_eq!((named(&mentions[1]), mentions[1].user), ("象棋".into(), 22));

        let private = Reply {
            private: true,
            ..reply.clone()
        };
        let ops = reply_ops(&private, None, None);
        assert!(
            matches!(&ops[..], [Op::Text { text, mentions, .. }] if text == "Game #3 begins" && mentions.is_empty())
        );

        let mut pictured = reply.clone();
        pictured.image = Some(Image {
            bytes: Arc::new(vec![1]),
            filename: "b.png".into(),
            kind: ImageKind::Png,
            alt: String::new(),
            text_board: None,
            drawing: None,
            later: None,
        });
        let ops = reply_ops(&pictured, None, None);
        assert!(
            matches!(&ops[..], [Op::Picture { caption, mentions, .. }] if caption.starts_with("🔔 ") && mentions.len() == 2),
            "{ops:?}"
        );
        // Many players: the line stays short, and whole names only.
        let crowd = Reply {
            text: "x".into(),
            notify: (1..=50)
                .map(|i| PlayerRef::new(format!("tg:{i}"), &"n".repeat(30)))
                .collect(),
            ..Reply::default()
        };
        let ops = reply_ops(&crowd, None, None);
        let [Op::Text { text, mentions, .. }] = &ops[..] else {
            panic!("{ops:?}");
        };
        assert!(tg_len(text.lines().next().unwrap_or_default()) <= MAX_MENTION_LINE);
        assert!(mentions.len() > 10 && mentions.iter().all(|m| m.length == 30));
    }

    #[test]
    fn channel_keys_round_trip() {
        for t in [
            Target {
                chat: ChatId(-1_001_234_567_890),
                thread: Some(ThreadId(MessageId(7))),
            },
            Target {
                chat: ChatId(42),
                thread: None,
            },
        ] {
            assert_eq!(Target::from_channel(&t.channel()), Some(t));
            let group = t.chat.0 < 0;
            assert_eq!(t.community().is_some(), group);
        }
        assert_eq!(
            Target {
                chat: ChatId(-5),
                thread: Some(ThreadId(MessageId(3)))
            }
            .channel(),
            "tg:-5:3"
        );
        for bad in ["dc:1", "tg:", "tg:x", "tg:1:y", "tg:1:2:3"] {
            assert_eq!(Target::from_channel(bad), None, "{bad}");
        }
    }

    #[test]
    fn callback_data_binds_within_64_bytes() {
        let a = Action::ConfirmResign {
            game: u64::MAX,
            ply: u32::MAX,
            by: Some(crate::core::Color::Black),
        };
        let d = callback_data(&a, Some(UserId(9_007_199_254_740_991)));
        assert!(d.len() <= 64, "{d}");
        assert_eq!(
            read_callback_data(&d),
            (Some(a), Some(UserId(9_007_199_254_740_991)))
        );
        assert_eq!(read_callback_data(&a.encode()), (Some(a), None));
        assert_eq!(read_callback_data("xq:Y:1:2|bob"), (None, None));
        assert_eq!(read_callback_data("resign"), (None, None));
    }

    #[test]
    fn keyboards_keep_to_eight_a_row() {
        let row: Vec<Button> = (0..11)
            .map(|i| Button {
                label: format!("b{i}"),
                action: Action::Accept { id: i },
            })
            .collect();
        let kb = keyboard(&[row], None).unwrap();
        let sizes: Vec<usize> = kb.inline_keyboard.iter().map(Vec::len).collect();
        assert_eq!(sizes, [8, 3]);
        assert!(keyboard(&[], None).is_none());
    }

    #[test]
    fn splitting_prefers_line_breaks() {
        assert_eq!(split_at_limit("abc", 5), ("abc", ""));
        assert_eq!(split_at_limit("ab\ncd\nef", 6), ("ab\ncd", "ef"));
        assert_eq!(split_at_limit("abcdef", 4), ("abcd", "ef"));
        // Characters outside the BMP count twice, as Telegram counts them.
        assert_eq!(split_at_limit("😀😀😀", 4), ("😀😀", "😀"));
        let long = "line\n".repeat(2000);
        let parts = chunks(&long);
        assert!(parts.iter().all(|p| tg_len(p) <= MAX_TEXT));
        assert_eq!(parts.concat().matches("line").count(), 2000);
        assert_eq!(tg_len(&callback_text(&"x".repeat(500))), MAX_CALLBACK_TEXT);
    }

    #[test]
    fn a_long_caption_spills_into_a_message() {
        let reply = Reply {
            text: format!("{}\n{}", "a".repeat(1000), "b".repeat(100)),
            image: Some(Image {
                bytes: Arc::new(vec![1, 2, 3]),
                filename: "board.png".into(),
                kind: ImageKind::Png,
                alt: "alt".into(),
                text_board: None,
                drawing: None,
                later: None,
            }),
            buttons: vec![vec![Button {
                label: "Flip".into(),
                action: Action::Flip { game: 1, ply: 2 },
            }]],
            ..Reply::default()
        };
        let ops = reply_ops(&reply, None, None);
        assert_eq!(ops.len(), 2);
        assert!(
            matches!(&ops[0], Op::Picture { caption, keyboard: Some(_), .. } if caption.len() == 1000)
        );
        assert!(
            matches!(&ops[1], Op::Text { text, keyboard: None, .. } if text == &"b".repeat(100))
        );
        // No picture bytes: the text alone, with the buttons.
        let mut plain = reply.clone();
        plain.image = plain.image.map(|i| Image {
            bytes: Arc::new(Vec::new()),
            ..i
        });
        let ops = reply_ops(&plain, None, Some(MessageId(5)));
        assert!(matches!(
            &ops[..],
            [Op::Text {
                keyboard: Some(_),
                reply_to: Some(MessageId(5)),
                ..
            }]
        ));
    }
}
