//! The Bot API calls that deliver replies, made over HTTP directly (on teloxide's client) so
//! that every failure reaches the send queue as Telegram gave it — the status code, the
//! description and `retry_after` — and the queue alone decides how long to wait: teloxide
//! itself pauses ten seconds after any 5xx before it reports it, and folds the codes into
//! error names.

use std::sync::Arc;

use serde_json::{json, Value};
use teloxide::types::{InlineKeyboardMarkup, MessageId};
use teloxide::{ApiError, Bot};

use super::ops::{Job, Op, Target};
use crate::app::ImageKind;

/// Why a call did not go through.
#[derive(Debug)]
pub enum Failure {
    /// No answer: the connection failed or timed out.
    Network(String),
    /// An answer that is not the Bot API's JSON (a proxy's error page), with its status.
    Unreadable(u16),
    /// Telegram refused, as it said.
    Api {
        /// The error code (the HTTP status).
        code: u16,
        /// Telegram's description.
        description: String,
        /// For 429: how many seconds to wait.
        retry_after: Option<u64>,
        /// For a group that became a supergroup: where to send instead.
        migrate_to: Option<i64>,
    },
}

impl Failure {
    /// The description read as one of teloxide's error names (`Unknown` for others).
    #[must_use]
    pub fn api_error(&self) -> Option<ApiError> {
        match self {
            Failure::Api { description, .. } => {
                serde_json::from_value(Value::String(description.clone())).ok()
            }
            _ => None,
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Network(e) => write!(f, "network: {e}"),
            Failure::Unreadable(status) => write!(f, "an answer that is not JSON (HTTP {status})"),
            Failure::Api {
                code, description, ..
            } => write!(f, "{code}: {description}"),
        }
    }
}

/// Where *Open board* buttons ([`crate::app::Action::Board`]) lead on Telegram: in a private
/// chat a Mini App button opens `mini_app/tg/{game}` (Telegram takes only `https://`
/// addresses); in a group, where Telegram allows no Mini App button, a link to the Mini App
/// registered with BotFather (`direct_link?startapp={game}`). Without either, the button
/// stays one the bot answers (with a private link, or a pointer to the private chat).
#[derive(Clone, Debug, Default)]
pub struct BoardLinks {
    /// `PUBLIC_URL`, when it is `https://`.
    pub mini_app: Option<String>,
    /// `TELEGRAM_MINI_APP`.
    pub direct_link: Option<String>,
}

impl BoardLinks {
    /// From the web board's settings, if it is served.
    #[must_use]
    pub fn of(web: Option<&crate::app::WebLinks>) -> BoardLinks {
        BoardLinks {
            mini_app: web
                .map(|w| w.public_url.trim_end_matches('/').to_string())
                .filter(|u| u.starts_with("https://")),
            direct_link: web.and_then(|w| w.telegram_app.clone()),
        }
    }

    /// `button` (a keyboard button as JSON) made to open the board in `chat`, if it is an
    /// *Open board* button and Telegram can open it there.
    fn open(&self, button: &mut Value, chat: i64) {
        let Some(data) = button.get("callback_data").and_then(Value::as_str) else {
            return;
        };
        let code = data.split('|').next().unwrap_or("");
        let Some(crate::app::Action::Board { game }) = crate::app::Action::decode(code) else {
            return;
        };
        let text = button.get("text").cloned().unwrap_or(Value::Null);
        // A private chat's id is its user's, positive; groups' are negative.
        *button = match (&self.mini_app, &self.direct_link) {
            (Some(base), _) if chat > 0 => {
                json!({ "text": text, "web_app": { "url": format!("{base}/tg/{game}") } })
            }
            (_, Some(link)) if chat < 0 => {
                json!({ "text": text, "url": format!("{link}?startapp={game}") })
            }
            _ => return,
        };
    }
}

/// Calls on one bot.
#[derive(Clone)]
pub struct Api {
    client: reqwest::Client,
    base: reqwest::Url,
    token: Arc<str>,
    board: BoardLinks,
}

impl Api {
    /// Calls with `bot`'s client, server and token.
    #[must_use]
    pub fn new(bot: &Bot, board: BoardLinks) -> Api {
        Api {
            client: bot.client().clone(),
            base: bot.api_url(),
            token: Arc::from(bot.token()),
            board,
        }
    }

    /// `keyboard` as Telegram reads it in `chat`, *Open board* buttons opening the board.
    fn markup(&self, keyboard: Option<&InlineKeyboardMarkup>, chat: i64) -> Option<Value> {
        let mut kb = serde_json::to_value(keyboard?).ok()?;
        if let Some(rows) = kb.get_mut("inline_keyboard").and_then(Value::as_array_mut) {
            for button in rows.iter_mut().filter_map(Value::as_array_mut).flatten() {
                self.board.open(button, chat);
            }
        }
        Some(kb)
    }

    fn url(&self, method: &str) -> reqwest::Url {
        let mut url = self.base.clone();
        if let Ok(mut segments) = url.path_segments_mut() {
            segments.pop_if_empty();
            segments.push(&format!("bot{}", self.token));
            segments.push(method);
        }
        url
    }

    /// A text as it may be logged: never with the token.
    fn redacted(&self, s: &str) -> String {
        if self.token.is_empty() {
            s.to_string()
        } else {
            s.replace(&*self.token, "***")
        }
    }

    /// Make the call of `job` once; the id of the message sent or edited.
    ///
    /// # Errors
    /// How it failed.
    pub async fn call(&self, job: &Job) -> Result<Option<MessageId>, Failure> {
        let Target { chat, thread } = job.target;
        let thread = thread.map(|t| t.0 .0);
        let request = match &job.op {
            Op::Text {
                text,
                mentions,
                keyboard,
                reply_to,
            } => {
                let mut body = json!({ "chat_id": chat.0, "text": text });
                put(&mut body, "entities", entities(mentions));
                put(&mut body, "message_thread_id", thread.map(Value::from));
                put(
                    &mut body,
                    "reply_markup",
                    self.markup(keyboard.as_ref(), chat.0),
                );
                put(
                    &mut body,
                    "reply_parameters",
                    reply_to.map(|MessageId(id)| {
                        json!({ "message_id": id, "allow_sending_without_reply": true })
                    }),
                );
                self.client.post(self.url("sendMessage")).json(&body)
            }
            Op::Picture {
                bytes,
                filename,
                kind,
                caption,
                mentions,
                keyboard,
                ..
            } => {
                let (method, field) = match kind {
                    ImageKind::Png => ("sendPhoto", "photo"),
                    ImageKind::Gif => ("sendAnimation", "animation"),
                };
                let mime = match kind {
                    ImageKind::Png => "image/png",
                    ImageKind::Gif => "image/gif",
                };
                let file = reqwest::multipart::Part::bytes(bytes.as_ref().clone())
                    .file_name(filename.clone())
                    .mime_str(mime)
                    .map_err(|e| Failure::Network(e.to_string()))?;
                let mut form = reqwest::multipart::Form::new()
                    .text("chat_id", chat.0.to_string())
                    .part(field, file);
                if let Some(t) = thread {
                    form = form.text("message_thread_id", t.to_string());
                }
                if !caption.trim().is_empty() {
                    form = form.text("caption", caption.clone());
                    if let Some(e) = entities(mentions) {
                        form = form.text("caption_entities", e.to_string());
                    }
                }
                if let Some(kb) = self.markup(keyboard.as_ref(), chat.0) {
                    form = form.text("reply_markup", kb.to_string());
                }
                self.client.post(self.url(method)).multipart(form)
            }
            Op::Edit {
                message_id,
                text,
                keyboard,
            } => {
                let mut body =
                    json!({ "chat_id": chat.0, "message_id": message_id.0, "text": text });
                put(
                    &mut body,
                    "reply_markup",
                    self.markup(keyboard.as_ref(), chat.0),
                );
                self.client.post(self.url("editMessageText")).json(&body)
            }
            Op::ClearKeyboard { message_id } => {
                let body = json!({ "chat_id": chat.0, "message_id": message_id.0 });
                self.client
                    .post(self.url("editMessageReplyMarkup"))
                    .json(&body)
            }
            Op::CreateTopic { name } => {
                let body = json!({ "chat_id": chat.0, "name": name });
                self.client.post(self.url("createForumTopic")).json(&body)
            }
        };
        let response = request
            .send()
            .await
            .map_err(|e| Failure::Network(self.redacted(&e.without_url().to_string())))?;
        let status = response.status().as_u16();
        let body = response
            .bytes()
            .await
            .map_err(|e| Failure::Network(self.redacted(&e.without_url().to_string())))?;
        let result = answer(status, &body)?;
        Ok(match &job.op {
            Op::Edit { message_id, .. } => Some(*message_id),
            Op::ClearKeyboard { .. } => None,
            Op::CreateTopic { .. } => result
                .get("message_thread_id")
                .and_then(Value::as_i64)
                .and_then(|id| i32::try_from(id).ok())
                .map(MessageId),
            Op::Text { .. } | Op::Picture { .. } => result
                .get("message_id")
                .and_then(Value::as_i64)
                .and_then(|id| i32::try_from(id).ok())
                .map(MessageId),
        })
    }
}

/// The `text_mention` entities of `mentions`, if any.
fn entities(mentions: &[super::ops::Mention]) -> Option<Value> {
    (!mentions.is_empty()).then(|| {
        Value::Array(
            mentions
                .iter()
                .map(|m| {
                    json!({
                        "type": "text_mention",
                        "offset": m.offset,
                        "length": m.length,
                        "user": { "id": m.user, "is_bot": false, "first_name": m.name },
                    })
                })
                .collect(),
        )
    })
}

/// Read an answer of the Bot API: its `result`.
fn answer(status: u16, body: &[u8]) -> Result<Value, Failure> {
    let Ok(mut v) = serde_json::from_slice::<Value>(body) else {
        return Err(Failure::Unreadable(status));
    };
    match v.get("ok").and_then(Value::as_bool) {
        Some(true) => Ok(v.get_mut("result").map(Value::take).unwrap_or(Value::Null)),
        Some(false) => Err(Failure::Api {
            code: v
                .get("error_code")
                .and_then(Value::as_u64)
                .and_then(|c| u16::try_from(c).ok())
                .unwrap_or(status),
            description: v
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            retry_after: v.pointer("/parameters/retry_after").and_then(Value::as_u64),
            migrate_to: v
                .pointer("/parameters/migrate_to_chat_id")
                .and_then(Value::as_i64),
        }),
        None => Err(Failure::Unreadable(status)),
    }
}

fn put(body: &mut Value, key: &str, value: Option<Value>) {
    if let (Some(v), Some(obj)) = (value, body.as_object_mut()) {
        obj.insert(key.to_string(), v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_board_buttons_open_the_mini_app_where_telegram_allows() {
        let board = crate::app::Action::Board { game: 12 }.encode();
        let flip = crate::app::Action::Flip { game: 12, ply: 3 }.encode();
        let button = |data: &str| json!({ "text": "Open board", "callback_data": data });
        let links = BoardLinks {
            mini_app: Some("https://board.example".into()),
            direct_link: Some("https://t.me/xqbot/board".into()),
        };
        // A private chat: a Mini App button.
        let mut b = button(&board);
        links.open(&mut b, 42);
        assert_eq!(
            b,
            json!({ "text": "Open board", "web_app": { "url": "https://board.example/tg/12" } })
        );
        // A group: the direct link (a button reserved for one user as well).
        let mut b = button(&format!("{board}|42"));
        links.open(&mut b, -100);
        assert_eq!(
            b,
            json!({ "text": "Open board", "url": "https://t.me/xqbot/board?startapp=12" })
        );
        // Other buttons, and where neither is set, stay what the bot answers.
        for (links, chat, data) in [
            (&links, 42, flip.as_str()),
            (&BoardLinks::default(), 42, board.as_str()),
            (&BoardLinks::default(), -100, board.as_str()),
        ] {
            let mut b = button(data);
            links.open(&mut b, chat);
            assert_eq!(b, button(data));
        }
        // Telegram takes only https:// Mini Apps.
        let web = crate::app::WebLinks {
            public_url: "http://127.0.0.1:8080".into(),
            key: crate::app::links::LinkKey::new(b"k".to_vec()),
            telegram_app: None,
        };
        assert!(BoardLinks::of(Some(&web)).mini_app.is_none());
    }

    #[test]
    fn answers_are_read_with_their_code_and_parameters() {
        assert!(answer(200, br#"{"ok":true,"result":{}}"#).is_ok());
        match answer(
            429,
            br#"{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 3","parameters":{"retry_after":3}}"#,
        ) {
            Err(Failure::Api {
                code: 429,
                retry_after: Some(3),
                ..
            }) => {}
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            answer(502, b"<html>Bad Gateway</html>"),
            Err(Failure::Unreadable(502))
        ));
        let blocked = answer(
            403,
            br#"{"ok":false,"error_code":403,"description":"Forbidden: bot was blocked by the user"}"#,
        )
        .expect_err("refused");
        assert_eq!(blocked.api_error(), Some(ApiError::BotBlocked));
    }

    #[test]
    fn urls_name_the_bot_and_the_method() {
        let bot = Bot::new("1:T").set_api_url(reqwest::Url::parse("http://127.0.0.1:9/").unwrap());
        let api = Api::new(&bot, BoardLinks::default());
        assert_eq!(
            api.url("sendPhoto").as_str(),
            "http://127.0.0.1:9/bot1:T/sendPhoto"
        );
        assert_eq!(api.redacted("x 1:T y"), "x *** y");
    }
}
