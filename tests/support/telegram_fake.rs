//! A fake Telegram Bot API server for end-to-end tests of the Telegram adapter.
//!
//! It speaks real HTTP on `127.0.0.1:<random port>`, so a real `teloxide::Bot` can be pointed at
//! it with `Bot::new(token).set_api_url(fake.url().parse().unwrap())`. Tests drive it through a
//! plain Rust control API: push user messages and button presses as updates, inspect what the
//! bot sent, inject failures (429 with `retry_after`, 5xx, ...), read the current state of the
//! messages the bot sent (edits apply), the commands it registered and the callbacks it answered.
//!
//! Include it from an integration test with
//! `#[path = "support/telegram_fake.rs"] mod telegram_fake;`, then:
//!
//! ```ignore
//! let fake = FakeTelegram::start("123:TOKEN").await;
//! let bot = teloxide::Bot::new("123:TOKEN").set_api_url(fake.url().parse().unwrap());
//! // ... start the adapter's Dispatcher with `bot` in a task ...
//! let alice = FakeUser::new(1001, "Alice").username("alice").language_code("vi");
//! let chat = FakeChat::private(&alice); // or ::group / ::supergroup / ::forum(id, title)
//! fake.push_message(&chat, &alice, "/new", None);
//! let board = fake
//!     .wait_for(|c| c.is("sendPhoto") && c.chat_id == Some(chat.id), Duration::from_secs(5))
//!     .await
//!     .expect("the bot sent a board");
//! fake.push_callback(&chat, &alice, board.message_id.unwrap(), "resign");
//! fake.fail_next("sendMessage", 429, Some(3)); // the next sendMessage gets RetryAfter(3)
//! ```
//!
//! Fidelity notes (what behaves like the real Bot API, on purpose):
//! - routes `/bot<TOKEN>/<method>` with the method name matched case-insensitively; a wrong
//!   token gets `401 Unauthorized`, an unknown method `404 Not Found: method not found`;
//! - parameters from JSON bodies, `multipart/form-data` (files as parts, `attach://<name>`
//!   references, which is how teloxide uploads) and url-encoded bodies or query strings;
//! - responses `{"ok":true,"result":...}` or `{"ok":false,"error_code":N,"description":...}`
//!   with the HTTP status equal to `error_code` and the descriptions Telegram uses, so teloxide
//!   maps them to the same `ApiError` variants;
//! - `getUpdates` long polling with `offset` (confirming, negative offsets too), `limit`,
//!   `timeout` (held until an update arrives; at most 50 s), `allowed_updates` (kept until the
//!   next call that gives it; updates of other kinds pushed later are dropped, as Telegram
//!   never stores them: see [`FakeTelegram::dropped_updates`]), and `409 Conflict` for a poll
//!   that a newer one supersedes;
//! - sending to a chat the fake has never seen is `400 Bad Request: chat not found` (a chat is
//!   known once a test pushes an update from it or calls [`FakeTelegram::register_chat`]);
//! - text 1..=4096 characters (whitespace-only is empty), captions up to 1024, inline keyboard
//!   buttons with exactly one action and `callback_data` of 1..=64 bytes; Mini App
//!   (`web_app`) buttons only in private chats and only to `https://` addresses;
//! - editing a message without `reply_markup` removes its inline keyboard; an edit that changes
//!   nothing is `400 Bad Request: message is not modified: ...`;
//! - a callback query can be answered once;
//! - webhooks: `setWebhook` checked as Telegram does, updates POSTed to it with the secret
//!   header, one per chat in flight, retried until a 2xx (see `telegram_fake_webhook.rs`), and
//!   `getUpdates` refused with 409 while a webhook is set.
//!
//! Not modelled: entity parsing of `parse_mode` text (the raw text is stored; lengths of HTML
//! and Markdown text are estimated with the markup left out), rate limits (inject them with
//! [`FakeTelegram::fail_next`]), downloading photos from URLs (no internet here), media other
//! than photos and GIF animations (`sendAnimation` takes an uploaded GIF only).
#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::extract::{DefaultBodyLimit, Form, FromRequest, Multipart, Query, Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Json, Router};
use serde_json::{json, Map, Value};
use tokio::sync::{oneshot, Notify};
use tokio::time::Instant;

#[path = "telegram_fake_webhook.rs"]
pub mod webhook;

/// Largest request body accepted (Telegram takes photos up to 10 MB, documents up to 50 MB).
const BODY_LIMIT: usize = 64 * 1024 * 1024;
/// Longest a `getUpdates` call is held, like Telegram's own cap.
const MAX_POLL_TIMEOUT_SECS: i64 = 50;
const MAX_TEXT_LEN: usize = 4096;
const MAX_CAPTION_LEN: usize = 1024;

/// The Bot API methods the fake knows, spelled as Telegram documents them. Incoming method
/// names are matched against these case-insensitively.
const METHODS: &[&str] = &[
    "getMe",
    "logOut",
    "close",
    "getUpdates",
    "setWebhook",
    "deleteWebhook",
    "getWebhookInfo",
    "sendMessage",
    "sendPhoto",
    "sendAnimation",
    "editMessageText",
    "editMessageCaption",
    "editMessageMedia",
    "editMessageReplyMarkup",
    "deleteMessage",
    "answerCallbackQuery",
    "setMyCommands",
    "getMyCommands",
    "deleteMyCommands",
    "sendChatAction",
    "getChat",
    "getChatMember",
    "getFile",
    "setMyDescription",
    "setMyShortDescription",
    "setMyName",
    "setChatMenuButton",
    "pinChatMessage",
    "unpinChatMessage",
    "setMessageReaction",
];

/// Methods that only need a `true` answer (recorded like every call).
const TRIVIAL_METHODS: &[&str] = &[
    "logOut",
    "close",
    "setMyDescription",
    "setMyShortDescription",
    "setMyName",
    "setChatMenuButton",
    "pinChatMessage",
    "unpinChatMessage",
    "setMessageReaction",
];

const CHAT_ACTIONS: &[&str] = &[
    "typing",
    "upload_photo",
    "record_video",
    "upload_video",
    "record_voice",
    "upload_voice",
    "upload_document",
    "choose_sticker",
    "find_location",
    "record_video_note",
    "upload_video_note",
];

/// Update kinds Telegram leaves out when the bot never set `allowed_updates`.
const DEFAULT_EXCLUDED_UPDATES: &[&str] =
    &["chat_member", "message_reaction", "message_reaction_count"];

const BUTTON_ACTIONS: &[&str] = &[
    "url",
    "callback_data",
    "web_app",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
];

const NOT_MODIFIED: &str = "message is not modified: specified new message content and reply \
                            markup are exactly the same as a current content and reply markup \
                            of the message";
const QUERY_INVALID: &str = "query is too old and response timeout expired or query id is invalid";
const CONFLICT_POLL: &str = "Conflict: terminated by other getUpdates request; make sure that \
                             only one bot instance is running";
const CONFLICT_WEBHOOK: &str = "Conflict: can't use getUpdates method while webhook is active; \
                                use deleteWebhook to delete the webhook first";

// ---------------------------------------------------------------------------------------------
// Public data types
// ---------------------------------------------------------------------------------------------

/// A Telegram user (a player, or the bot itself).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FakeUser {
    pub id: i64,
    pub is_bot: bool,
    pub first_name: String,
    pub last_name: Option<String>,
    pub username: Option<String>,
    pub language_code: Option<String>,
}

impl FakeUser {
    /// A human user with the given id and first name.
    pub fn new(id: i64, first_name: &str) -> Self {
        FakeUser {
            id,
            is_bot: false,
            first_name: first_name.to_owned(),
            last_name: None,
            username: None,
            language_code: None,
        }
    }

    pub fn username(mut self, username: &str) -> Self {
        self.username = Some(username.to_owned());
        self
    }

    pub fn last_name(mut self, last_name: &str) -> Self {
        self.last_name = Some(last_name.to_owned());
        self
    }

    /// IETF language tag as Telegram sends it, e.g. `"en"`, `"vi"`, `"zh-hans"`.
    pub fn language_code(mut self, code: &str) -> Self {
        self.language_code = Some(code.to_owned());
        self
    }

    fn to_json(&self) -> Value {
        let mut user =
            json!({ "id": self.id, "is_bot": self.is_bot, "first_name": self.first_name });
        put_opt(&mut user, "last_name", &self.last_name);
        put_opt(&mut user, "username", &self.username);
        put_opt(&mut user, "language_code", &self.language_code);
        user
    }
}

/// The kinds of chat the fake models.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChatType {
    Private,
    Group,
    Supergroup,
}

impl ChatType {
    fn as_str(self) -> &'static str {
        match self {
            ChatType::Private => "private",
            ChatType::Group => "group",
            ChatType::Supergroup => "supergroup",
        }
    }
}

/// A chat: a private chat with a user, a basic group, a supergroup or a forum (a supergroup
/// with topics, addressed by `message_thread_id`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FakeChat {
    pub id: i64,
    pub chat_type: ChatType,
    pub title: Option<String>,
    pub username: Option<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub is_forum: bool,
}

impl FakeChat {
    /// The private chat with `user` (its id is the user's id, as in Telegram).
    pub fn private(user: &FakeUser) -> Self {
        FakeChat {
            id: user.id,
            chat_type: ChatType::Private,
            title: None,
            username: user.username.clone(),
            first_name: Some(user.first_name.clone()),
            last_name: user.last_name.clone(),
            is_forum: false,
        }
    }

    /// A basic group; Telegram gives these negative ids such as `-4012345678`.
    pub fn group(id: i64, title: &str) -> Self {
        FakeChat {
            id,
            chat_type: ChatType::Group,
            title: Some(title.to_owned()),
            username: None,
            first_name: None,
            last_name: None,
            is_forum: false,
        }
    }

    /// A supergroup; Telegram gives these ids such as `-1001234567890`.
    pub fn supergroup(id: i64, title: &str) -> Self {
        FakeChat {
            chat_type: ChatType::Supergroup,
            ..FakeChat::group(id, title)
        }
    }

    /// A supergroup with topics enabled.
    pub fn forum(id: i64, title: &str) -> Self {
        FakeChat {
            is_forum: true,
            ..FakeChat::supergroup(id, title)
        }
    }

    pub fn with_username(mut self, username: &str) -> Self {
        self.username = Some(username.to_owned());
        self
    }

    fn to_json(&self) -> Value {
        let mut chat = json!({ "id": self.id, "type": self.chat_type.as_str() });
        match self.chat_type {
            ChatType::Private => {
                put_opt(&mut chat, "first_name", &self.first_name);
                put_opt(&mut chat, "last_name", &self.last_name);
                put_opt(&mut chat, "username", &self.username);
            }
            ChatType::Group => put_opt(&mut chat, "title", &self.title),
            ChatType::Supergroup => {
                put_opt(&mut chat, "title", &self.title);
                put_opt(&mut chat, "username", &self.username);
                if self.is_forum {
                    chat["is_forum"] = json!(true);
                }
            }
        }
        chat
    }

    /// The `ChatFullInfo` object `getChat` returns.
    fn full_info_json(&self) -> Value {
        let mut chat = self.to_json();
        chat["max_reaction_count"] = json!(11);
        chat["accepted_gift_types"] = json!({
            "unlimited_gifts": false,
            "limited_gifts": false,
            "unique_gifts": false,
            "premium_subscription": false,
        });
        chat
    }
}

/// One call the bot made (every method but `getUpdates`), in arrival order.
#[derive(Clone, Debug)]
pub struct SentCall {
    /// Position in the log of all calls (see [`FakeTelegram::mark`]).
    pub seq: u64,
    /// The Bot API name, e.g. `"sendMessage"`, whatever case the bot used (unknown methods
    /// keep the bot's spelling).
    pub method: String,
    /// Whether the answer was `ok: true`.
    pub ok: bool,
    /// The HTTP status / `error_code` of the answer (200 when ok).
    pub status: u16,
    /// The error description when not ok.
    pub error: Option<String>,
    /// All parameters as JSON (form fields are strings); uploads are listed under `"_files"`
    /// as `{"<part name>": {"file_name": ..., "size": ...}}`.
    pub params: Value,
    /// `chat_id`, with `@username` resolved when the chat is known.
    pub chat_id: Option<i64>,
    pub thread_id: Option<i32>,
    /// The id of the message sent (for send methods) or targeted (edits, deletes, ...).
    pub message_id: Option<i32>,
    pub text: Option<String>,
    pub caption: Option<String>,
    pub parse_mode: Option<String>,
    /// `reply_markup` as JSON, as the bot sent it.
    pub reply_markup: Option<Value>,
    /// The photo bytes for `sendPhoto` / `editMessageMedia` (uploaded or referenced by file id).
    pub photo: Option<Vec<u8>>,
    /// The uploaded bytes for `sendAnimation`.
    pub animation: Option<Vec<u8>>,
    /// The `result` returned to the bot when ok.
    pub result: Option<Value>,
}

impl SentCall {
    /// Whether this call is `method` (compared case-insensitively).
    pub fn is(&self, method: &str) -> bool {
        self.method.eq_ignore_ascii_case(method)
    }

    /// The `callback_data` of every inline keyboard button, row by row.
    pub fn callback_data(&self) -> Vec<String> {
        self.buttons()
            .into_iter()
            .filter_map(|(_, data)| data)
            .collect()
    }

    /// `(text, callback_data)` of every inline keyboard button, row by row.
    pub fn buttons(&self) -> Vec<(String, Option<String>)> {
        inline_buttons(self.reply_markup.as_ref())
    }
}

/// A photo size as Telegram lists it in `Message.photo` (smallest first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhotoInfo {
    pub file_id: String,
    pub file_unique_id: String,
    pub width: u32,
    pub height: u32,
}

/// The current state of a message in a chat (after any edits), whoever sent it.
#[derive(Clone, Debug)]
pub struct StoredMessage {
    pub chat_id: i64,
    pub message_id: i32,
    pub thread_id: Option<i32>,
    pub from: FakeUser,
    pub date: i64,
    pub edit_date: Option<i64>,
    pub text: Option<String>,
    pub caption: Option<String>,
    pub parse_mode: Option<String>,
    /// Photo sizes, smallest first; the last one is the uploaded picture.
    pub photo: Option<Vec<PhotoInfo>>,
    /// The bytes of the uploaded picture.
    pub photo_bytes: Option<Vec<u8>>,
    /// The inline keyboard (`{"inline_keyboard": [...]}`), if any.
    pub reply_markup: Option<Value>,
    pub reply_to_message_id: Option<i32>,
    /// The message as the Bot API would return it.
    pub json: Value,
}

impl StoredMessage {
    /// `(text, callback_data)` of every inline keyboard button, row by row.
    pub fn buttons(&self) -> Vec<(String, Option<String>)> {
        inline_buttons(self.reply_markup.as_ref())
    }
}

/// One `answerCallbackQuery` that the fake accepted.
#[derive(Clone, Debug, PartialEq)]
pub struct AnsweredCallback {
    pub query_id: String,
    /// The button's `callback_data` of the query being answered.
    pub data: String,
    pub chat_id: i64,
    pub message_id: i32,
    pub from_user_id: i64,
    pub text: Option<String>,
    pub show_alert: bool,
    pub url: Option<String>,
    pub cache_time: Option<i64>,
}

/// The command list stored by `setMyCommands` for one scope and language.
#[derive(Clone, Debug, PartialEq)]
pub struct CommandSet {
    /// `BotCommandScope` as JSON, `{"type":"default"}` when none was given.
    pub scope: Value,
    /// `""` when none was given.
    pub language_code: String,
    /// `(command, description)` pairs in order.
    pub commands: Vec<(String, String)>,
}

// ---------------------------------------------------------------------------------------------
// The control handle
// ---------------------------------------------------------------------------------------------

/// A running fake Bot API server. Dropping it shuts the server down (held long polls return).
pub struct FakeTelegram {
    shared: Arc<Shared>,
    addr: SocketAddr,
    shutdown: Option<oneshot::Sender<()>>,
}

impl FakeTelegram {
    /// Starts a fake for `token` on 127.0.0.1 with a free port. The bot user's id is the
    /// token's numeric prefix (before `:`), its username `xiangqi_test_bot`.
    ///
    /// Must be called within a Tokio runtime; panics if the port cannot be bound.
    pub async fn start(token: &str) -> FakeTelegram {
        let id = token
            .split(':')
            .next()
            .and_then(|s| s.parse().ok())
            .unwrap_or(100_000_001);
        let bot = FakeUser {
            is_bot: true,
            ..FakeUser::new(id, "Xiangqi Test Bot").username("xiangqi_test_bot")
        };
        FakeTelegram::start_with_bot(token, bot).await
    }

    /// Like [`FakeTelegram::start`] with a given bot user (`getMe` returns it).
    pub async fn start_with_bot(token: &str, bot: FakeUser) -> FakeTelegram {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
            .await
            .expect("fake Telegram: bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("fake Telegram: local address");
        let shared = Arc::new(Shared {
            state: Mutex::new(FakeState::new(token, bot)),
            changed: Notify::new(),
        });
        let app = Router::new()
            .fallback(handle)
            .with_state(shared.clone())
            .layer(DefaultBodyLimit::max(BODY_LIMIT));
        tokio::spawn(webhook::deliver_all(shared.clone()));
        let (tx, rx) = oneshot::channel::<()>();
        tokio::spawn(async move {
            let stop = async move {
                let _ = rx.await;
            };
            let _ = axum::serve(listener, app)
                .with_graceful_shutdown(stop)
                .await;
        });
        FakeTelegram {
            shared,
            addr,
            shutdown: Some(tx),
        }
    }

    /// The API base URL for `Bot::new(token).set_api_url(fake.url().parse().unwrap())`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    pub fn token(&self) -> String {
        self.lock().token.clone()
    }

    /// The bot's own user (`getMe`, and `from` of the messages it sends).
    pub fn bot_user(&self) -> FakeUser {
        self.lock().bot.clone()
    }

    /// Makes `user` an administrator of `chat` (as `getChatMember` then says).
    pub fn make_admin(&self, chat: &FakeChat, user: &FakeUser) {
        self.set_status(chat, user, "administrator");
    }

    /// Makes `user` the creator (owner) of `chat`.
    pub fn make_owner(&self, chat: &FakeChat, user: &FakeUser) {
        self.set_status(chat, user, "creator");
    }

    /// Makes the bot an administrator of `chat` who may manage its topics (`can_manage_topics`):
    /// then `createForumTopic` works there, if it is a forum.
    pub fn let_bot_manage_topics(&self, chat: &FakeChat) {
        let bot = self.bot_user();
        self.set_status(chat, &bot, "administrator");
        self.lock().manages_topics.insert(chat.id);
    }

    /// A topic `thread` named `name` exists in forum `chat` (as if a member had opened it).
    pub fn add_topic(&self, chat: &FakeChat, thread: i32, name: &str) {
        let mut st = self.lock();
        st.chats.insert(chat.id, chat.clone());
        st.topics.insert((chat.id, thread), name.to_string());
    }

    /// The forum topics of `chat` (`message_thread_id`, name), oldest first.
    pub fn topics(&self, chat: &FakeChat) -> Vec<(i32, String)> {
        self.lock()
            .topics
            .iter()
            .filter(|((c, _), _)| *c == chat.id)
            .map(|((_, t), name)| (*t, name.clone()))
            .collect()
    }

    fn set_status(&self, chat: &FakeChat, user: &FakeUser, status: &'static str) {
        let mut st = self.lock();
        st.chats.insert(chat.id, chat.clone());
        st.members
            .insert((chat.id, user.id), (user.clone(), status));
    }

    /// Makes a chat known without an update from it, so the bot may send to it.
    pub fn register_chat(&self, chat: &FakeChat) {
        self.lock().chats.insert(chat.id, chat.clone());
    }

    /// Enqueues a `message` update: `from` writes `text` in `chat` (in topic `thread_id` of a
    /// forum). A text starting with `/` gets a `bot_command` entity, as Telegram adds.
    /// Returns the new message's id.
    pub fn push_message(
        &self,
        chat: &FakeChat,
        from: &FakeUser,
        text: &str,
        thread_id: Option<i32>,
    ) -> i32 {
        let mut st = self.lock();
        st.chats.insert(chat.id, chat.clone());
        st.seen_member(chat, from);
        if let Some(t) = thread_id.filter(|_| chat.is_forum) {
            // Written in, so it exists.
            st.topics.entry((chat.id, t)).or_default();
        }
        let message_id = st.next_message_id(chat.id);
        let entities = command_entity(text);
        let msg = Msg {
            chat_id: chat.id,
            message_id,
            thread_id,
            from: from.clone(),
            date: now(),
            edit_date: None,
            text: Some(text.to_owned()),
            entities,
            caption: None,
            caption_entities: None,
            parse_mode: None,
            photo: None,
            animation: None,
            reply_markup: None,
            reply_to: None,
        };
        let json = st.message_json(&msg, true);
        st.messages.insert((chat.id, message_id), msg);
        st.enqueue("message", json);
        drop(st);
        self.shared.changed.notify_waiters();
        message_id
    }

    /// `group` becomes the supergroup `supergroup` (a new chat id), as when an admin turns on a
    /// supergroup-only feature. Like Telegram, this enqueues a service message with
    /// `migrate_to_chat_id` in the old chat and one with `migrate_from_chat_id` in the new one,
    /// and from now on answers calls for the old chat with 400 and
    /// `parameters.migrate_to_chat_id`.
    pub fn push_migration(&self, group: &FakeChat, supergroup: &FakeChat, by: &FakeUser) {
        let mut st = self.lock();
        st.chats.insert(supergroup.id, supergroup.clone());
        st.migrated.insert(group.id, supergroup.id);
        let old_id = st.next_message_id(group.id);
        let new_id = st.next_message_id(supergroup.id);
        let old = json!({
            "message_id": old_id,
            "from": by.to_json(),
            "chat": group.to_json(),
            "date": now(),
            "migrate_to_chat_id": supergroup.id,
        });
        let new = json!({
            "message_id": new_id,
            "from": by.to_json(),
            "chat": supergroup.to_json(),
            "date": now(),
            "migrate_from_chat_id": group.id,
        });
        st.enqueue("message", old);
        st.enqueue("message", new);
        drop(st);
        self.shared.changed.notify_waiters();
    }

    /// Enqueues a `callback_query` update: `from` pressed a button with `data` under message
    /// `message_id` of `chat`. The message is included as stored (inaccessible if unknown).
    /// Returns the callback query id to expect in `answerCallbackQuery`.
    pub fn push_callback(
        &self,
        chat: &FakeChat,
        from: &FakeUser,
        message_id: i32,
        data: &str,
    ) -> String {
        let mut st = self.lock();
        st.chats.insert(chat.id, chat.clone());
        st.seen_member(chat, from);
        st.next_callback += 1;
        let query_id = format!("{}", 4_242_000_000_000_000_000u64 + st.next_callback);
        let message = match st.messages.get(&(chat.id, message_id)) {
            Some(msg) => st.message_json(msg, true),
            None => json!({ "chat": chat.to_json(), "message_id": message_id, "date": 0 }),
        };
        let query = json!({
            "id": query_id,
            "from": from.to_json(),
            "message": message,
            "chat_instance": format!("{}", chat.id.unsigned_abs().wrapping_mul(2_654_435_761)),
            "data": data,
        });
        st.pending_callbacks.insert(
            query_id.clone(),
            PendingCallback {
                chat_id: chat.id,
                message_id,
                from_user_id: from.id,
                data: data.into(),
            },
        );
        st.enqueue("callback_query", query);
        drop(st);
        self.shared.changed.notify_waiters();
        query_id
    }

    /// Enqueues any update; `update_id` is filled in. Returns the update id.
    pub fn push_raw_update(&self, update: Value) -> i64 {
        let id = self.lock().enqueue_update(update);
        self.shared.changed.notify_waiters();
        id
    }

    /// Updates that were pushed but not queued because the bot's `allowed_updates` (set by
    /// its `getUpdates` calls; teloxide derives it from the handler tree) leaves their kind
    /// out, as Telegram would. A pushed callback that never arrives is probably here.
    pub fn dropped_updates(&self) -> Vec<Value> {
        self.lock().dropped_updates.clone()
    }

    /// Updates not yet confirmed by the bot (through a later `offset`).
    pub fn pending_updates(&self) -> usize {
        self.lock().updates.len()
    }

    /// Waits until the bot has confirmed every pushed update. False on timeout.
    pub async fn wait_updates_confirmed(&self, timeout: Duration) -> bool {
        self.wait_until(timeout, |st| st.updates.is_empty().then_some(()))
            .await
            .is_some()
    }

    /// How many `getUpdates` calls arrived.
    pub fn poll_count(&self) -> usize {
        self.lock().polls.len()
    }

    /// The parameters of every `getUpdates` call, in order (`offset`, `timeout`, `limit`,
    /// `allowed_updates` as the bot sent them).
    pub fn polls(&self) -> Vec<Value> {
        self.lock().polls.clone()
    }

    /// Successful calls, in order (every method but `getUpdates`).
    pub fn sent(&self) -> Vec<SentCall> {
        self.lock().calls.iter().filter(|c| c.ok).cloned().collect()
    }

    /// All calls, failed ones too (every method but `getUpdates`).
    pub fn calls(&self) -> Vec<SentCall> {
        self.lock().calls.clone()
    }

    /// Successful calls of `method` (case-insensitive).
    pub fn sent_of(&self, method: &str) -> Vec<SentCall> {
        self.lock()
            .calls
            .iter()
            .filter(|c| c.ok && c.is(method))
            .cloned()
            .collect()
    }

    /// The `seq` the next call will get: `wait_for(|c| c.seq >= mark && ...)` waits for a
    /// call made after this point.
    pub fn mark(&self) -> u64 {
        self.lock().calls.len() as u64
    }

    /// Waits until a successful call matches `pred`; returns the first match. None on timeout.
    pub async fn wait_for(
        &self,
        pred: impl Fn(&SentCall) -> bool,
        timeout: Duration,
    ) -> Option<SentCall> {
        self.wait_until(timeout, |st| {
            st.calls.iter().find(|c| c.ok && pred(c)).cloned()
        })
        .await
    }

    /// Like [`FakeTelegram::wait_for`], failed calls included.
    pub async fn wait_for_call(
        &self,
        pred: impl Fn(&SentCall) -> bool,
        timeout: Duration,
    ) -> Option<SentCall> {
        self.wait_until(timeout, |st| st.calls.iter().find(|c| pred(c)).cloned())
            .await
    }

    /// Answers the next call of `method` with `status`: 429 (with `parameters.retry_after`
    /// when given), 5xx, or 400/401/403/404/409 with Telegram's usual description (403 is
    /// "bot was blocked by the user"). Several injections for a method apply in order.
    ///
    /// Note teloxide sleeps 10 s before it reports any 5xx answer.
    pub fn fail_next(&self, method: &str, status: u16, retry_after: Option<u32>) {
        let description = match status {
            429 => format!(
                "Too Many Requests: retry after {}",
                retry_after.unwrap_or(0)
            ),
            400 => "Bad Request: injected failure".to_owned(),
            401 => "Unauthorized".to_owned(),
            403 => "Forbidden: bot was blocked by the user".to_owned(),
            404 => "Not Found".to_owned(),
            409 => CONFLICT_POLL.to_owned(),
            500 => "Internal Server Error".to_owned(),
            502 => "Bad Gateway".to_owned(),
            503 => "Service Unavailable".to_owned(),
            504 => "Gateway Timeout".to_owned(),
            _ => format!("Error {status}"),
        };
        self.fail_next_with(method, status, &description, retry_after);
    }

    /// Answers the next call of `method` with this error.
    pub fn fail_next_with(
        &self,
        method: &str,
        status: u16,
        description: &str,
        retry_after: Option<u32>,
    ) {
        let err = ApiErr {
            code: status,
            description: description.to_owned(),
            retry_after,
            migrate_to_chat_id: None,
        };
        self.inject(method, Injected::Api(err));
    }

    /// Answers the next call of `method` with a raw HTTP `status` and `body` (e.g. the HTML
    /// page a proxy in front of Telegram returns on 502).
    pub fn fail_next_raw(&self, method: &str, status: u16, body: &str) {
        self.inject(method, Injected::Raw(status, body.to_owned()));
    }

    /// Breaks the connection of the next call of `method` before Telegram took it: the
    /// answer's headers come, then the body fails half-way (the bot sees a network error).
    pub fn drop_next(&self, method: &str) {
        self.inject(method, Injected::Drop);
    }

    /// The command lists stored by `setMyCommands`, ordered by scope and language.
    pub fn commands(&self) -> Vec<CommandSet> {
        self.lock().commands.values().cloned().collect()
    }

    /// The callback queries the bot answered, in order.
    pub fn answered_callbacks(&self) -> Vec<AnsweredCallback> {
        self.lock().answered.clone()
    }

    /// A message's current state (edits applied); None if unknown or deleted.
    pub fn message(&self, chat_id: i64, message_id: i32) -> Option<StoredMessage> {
        let st = self.lock();
        st.messages
            .get(&(chat_id, message_id))
            .map(|m| st.stored(m))
    }

    /// The messages of a chat, oldest first (users' and the bot's).
    pub fn messages(&self, chat_id: i64) -> Vec<StoredMessage> {
        let st = self.lock();
        st.messages
            .range((chat_id, i32::MIN)..=(chat_id, i32::MAX))
            .map(|(_, m)| st.stored(m))
            .collect()
    }

    /// The bytes of a file the bot uploaded.
    pub fn file(&self, file_id: &str) -> Option<Vec<u8>> {
        self.lock().files.get(file_id).map(|f| f.bytes.to_vec())
    }

    fn inject(&self, method: &str, failure: Injected) {
        self.lock()
            .failures
            .entry(method.to_ascii_lowercase())
            .or_default()
            .push_back(failure);
    }

    fn lock(&self) -> MutexGuard<'_, FakeState> {
        self.shared.lock()
    }

    async fn wait_until<T>(
        &self,
        timeout: Duration,
        mut check: impl FnMut(&FakeState) -> Option<T>,
    ) -> Option<T> {
        let deadline = Instant::now() + timeout;
        loop {
            let notified = self.shared.changed.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if let Some(found) = check(&self.lock()) {
                return Some(found);
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                return check(&self.lock());
            }
        }
    }
}

impl Drop for FakeTelegram {
    fn drop(&mut self) {
        self.lock().shutdown = true;
        self.shared.changed.notify_waiters();
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Shared state
// ---------------------------------------------------------------------------------------------

struct Shared {
    state: Mutex<FakeState>,
    /// Woken on every change: an update pushed, a call recorded, a new poll, shutdown.
    changed: Notify,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, FakeState> {
        // A panicking test thread must not turn every later request into a second panic.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[derive(Clone, Debug)]
struct ApiErr {
    code: u16,
    description: String,
    retry_after: Option<u32>,
    /// For a group that became a supergroup: where its messages go now.
    migrate_to_chat_id: Option<i64>,
}

fn bad(what: impl AsRef<str>) -> ApiErr {
    ApiErr {
        code: 400,
        description: format!("Bad Request: {}", what.as_ref()),
        retry_after: None,
        migrate_to_chat_id: None,
    }
}

impl IntoResponse for ApiErr {
    fn into_response(self) -> Response {
        let mut body =
            json!({ "ok": false, "error_code": self.code, "description": self.description });
        if let Some(secs) = self.retry_after {
            body["parameters"] = json!({ "retry_after": secs });
        }
        if let Some(to) = self.migrate_to_chat_id {
            body["parameters"] = json!({ "migrate_to_chat_id": to });
        }
        let status = StatusCode::from_u16(self.code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (status, Json(body)).into_response()
    }
}

enum Injected {
    Api(ApiErr),
    Raw(u16, String),
    /// The connection breaks while the answer is read.
    Drop,
}

impl IntoResponse for Injected {
    fn into_response(self) -> Response {
        match self {
            Injected::Api(err) => err.into_response(),
            Injected::Raw(status, body) => {
                let status = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY);
                (status, [(header::CONTENT_TYPE, "text/html")], body).into_response()
            }
            Injected::Drop => {
                let broken = futures_util::stream::iter([
                    Ok(axum::body::Bytes::from_static(b"{\"ok\":tr")),
                    Err(std::io::Error::other("connection reset")),
                ]);
                (
                    [(header::CONTENT_TYPE, "application/json")],
                    axum::body::Body::from_stream(broken),
                )
                    .into_response()
            }
        }
    }
}

#[derive(Clone, Debug)]
struct Msg {
    chat_id: i64,
    message_id: i32,
    thread_id: Option<i32>,
    from: FakeUser,
    date: i64,
    edit_date: Option<i64>,
    text: Option<String>,
    entities: Option<Value>,
    caption: Option<String>,
    caption_entities: Option<Value>,
    parse_mode: Option<String>,
    /// File ids of the photo sizes, smallest first.
    photo: Option<Vec<String>>,
    /// The file id of a GIF animation.
    animation: Option<String>,
    /// Only inline keyboards are kept (Telegram echoes no other markup).
    reply_markup: Option<Value>,
    reply_to: Option<i32>,
}

/// What a media message carries.
enum Media {
    /// The file ids of a photo's sizes, smallest first.
    Photo(Vec<String>),
    /// The file id of a GIF.
    Animation(String),
}

struct FileEntry {
    unique_id: String,
    bytes: Arc<Vec<u8>>,
    width: u32,
    height: u32,
    path: String,
    /// All sizes of the photo this file belongs to, smallest first.
    sizes: Vec<String>,
}

struct PendingCallback {
    chat_id: i64,
    message_id: i32,
    from_user_id: i64,
    data: String,
}

struct FakeState {
    token: String,
    bot: FakeUser,
    shutdown: bool,
    chats: HashMap<i64, FakeChat>,
    /// Groups that became supergroups: old chat id to new.
    migrated: HashMap<i64, i64>,
    messages: BTreeMap<(i64, i32), Msg>,
    last_message_id: HashMap<i64, i32>,
    updates: VecDeque<(i64, Value)>,
    dropped_updates: Vec<Value>,
    next_update_id: i64,
    allowed_updates: Option<Vec<String>>,
    poll_generation: u64,
    polls: Vec<Value>,
    hook: webhook::Hooked,
    calls: Vec<SentCall>,
    failures: HashMap<String, VecDeque<Injected>>,
    commands: BTreeMap<(String, String), CommandSet>,
    pending_callbacks: HashMap<String, PendingCallback>,
    next_callback: u64,
    answered: Vec<AnsweredCallback>,
    files: HashMap<String, FileEntry>,
    next_file: u64,
    /// Who has been seen in each chat (chat id, user id) and their status there:
    /// `member`, `administrator` or `creator`, as `getChatMember` reports it.
    members: HashMap<(i64, i64), (FakeUser, &'static str)>,
    /// Forum topics (chat id, `message_thread_id`) and their names: created with
    /// `createForumTopic`, or written in by a user.
    topics: BTreeMap<(i64, i32), String>,
    /// Chats where the bot is an administrator allowed to manage topics.
    manages_topics: std::collections::HashSet<i64>,
}

/// Request parameters, whatever the encoding.
#[derive(Default)]
struct Params {
    fields: Map<String, Value>,
    files: HashMap<String, Upload>,
}

struct Upload {
    file_name: Option<String>,
    bytes: Vec<u8>,
}

enum EditTarget {
    Inline,
    Message(i64, i32),
}

// ---------------------------------------------------------------------------------------------
// HTTP
// ---------------------------------------------------------------------------------------------

async fn handle(State(shared): State<Arc<Shared>>, req: Request) -> Response {
    let path = req.uri().path().to_owned();
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    match segments.as_slice() {
        ["file", bot, rest @ ..] if !rest.is_empty() => {
            let token_ok = bot.strip_prefix("bot") == Some(shared.lock().token.as_str());
            if !token_ok {
                return unauthorized();
            }
            serve_file(&shared, &rest.join("/"))
        }
        [bot, method] if bot.starts_with("bot") => {
            let token_ok = bot.strip_prefix("bot") == Some(shared.lock().token.as_str());
            if !token_ok {
                return unauthorized();
            }
            let method = canonical_method(method);
            let params = match parse_params(req).await {
                Ok(params) => params,
                Err(err) => return err.into_response(),
            };
            if method == "getUpdates" {
                let injected = shared.lock().take_failure(&method);
                if let Some(failure) = injected {
                    return failure.into_response();
                }
                return match get_updates(&shared, &params).await {
                    Ok(result) => ok_response(result),
                    Err(err) => err.into_response(),
                };
            }
            let response = shared.lock().call(&method, &params);
            shared.changed.notify_waiters();
            response
        }
        _ => not_found(),
    }
}

fn ok_response(result: Value) -> Response {
    (
        StatusCode::OK,
        Json(json!({ "ok": true, "result": result })),
    )
        .into_response()
}

fn unauthorized() -> Response {
    ApiErr {
        code: 401,
        description: "Unauthorized".into(),
        retry_after: None,
        migrate_to_chat_id: None,
    }
    .into_response()
}

fn not_found() -> Response {
    ApiErr {
        code: 404,
        description: "Not Found".into(),
        retry_after: None,
        migrate_to_chat_id: None,
    }
    .into_response()
}

fn serve_file(shared: &Shared, path: &str) -> Response {
    let st = shared.lock();
    match st.files.values().find(|f| f.path == path) {
        Some(file) => {
            let mime = if file.path.ends_with(".jpg") {
                "image/jpeg"
            } else {
                "image/png"
            };
            (
                StatusCode::OK,
                [(header::CONTENT_TYPE, mime)],
                file.bytes.to_vec(),
            )
                .into_response()
        }
        None => not_found(),
    }
}

fn canonical_method(name: &str) -> String {
    METHODS
        .iter()
        .find(|m| m.eq_ignore_ascii_case(name))
        .map_or_else(|| name.to_owned(), |m| (*m).to_owned())
}

async fn parse_params(req: Request) -> Result<Params, ApiErr> {
    let mut params = Params::default();
    if req.uri().query().is_some() {
        let Query(pairs) = Query::<Vec<(String, String)>>::try_from_uri(req.uri())
            .map_err(|e| bad(format!("can't parse query string: {e}")))?;
        for (k, v) in pairs {
            params.fields.insert(k, Value::String(v));
        }
    }
    let content_type = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase();
    if content_type.starts_with("multipart/form-data") {
        let mut multipart = Multipart::from_request(req, &())
            .await
            .map_err(|e| bad(format!("can't parse multipart/form-data: {e}")))?;
        loop {
            let field = multipart
                .next_field()
                .await
                .map_err(|e| bad(format!("can't parse multipart/form-data: {e}")))?;
            let Some(field) = field else { break };
            let name = field.name().unwrap_or_default().to_owned();
            let file_name = field.file_name().map(str::to_owned);
            let bytes = field
                .bytes()
                .await
                .map_err(|e| bad(format!("can't read multipart field {name:?}: {e}")))?;
            if file_name.is_some() {
                params.files.insert(
                    name,
                    Upload {
                        file_name,
                        bytes: bytes.to_vec(),
                    },
                );
            } else {
                let text = String::from_utf8(bytes.to_vec())
                    .map_err(|_| bad(format!("field {name:?} must be UTF-8")))?;
                params.fields.insert(name, Value::String(text));
            }
        }
    } else if content_type.starts_with("application/x-www-form-urlencoded") {
        let Form(pairs) = Form::<Vec<(String, String)>>::from_request(req, &())
            .await
            .map_err(|e| bad(format!("can't parse url-encoded form: {e}")))?;
        for (k, v) in pairs {
            params.fields.insert(k, Value::String(v));
        }
    } else {
        let body = axum::body::to_bytes(req.into_body(), BODY_LIMIT)
            .await
            .map_err(|e| bad(format!("can't read request body: {e}")))?;
        if !body.iter().all(u8::is_ascii_whitespace) {
            match serde_json::from_slice::<Value>(&body) {
                Ok(Value::Object(map)) => params.fields.extend(map),
                Ok(_) => return Err(bad("request body must be a JSON object")),
                Err(e) => return Err(bad(format!("can't parse JSON object: {e}"))),
            }
        }
    }
    Ok(params)
}

async fn get_updates(shared: &Shared, p: &Params) -> Result<Value, ApiErr> {
    let offset = p.int("offset")?;
    // Telegram accepts 1..=100 and uses 100 otherwise.
    let limit = match p.int("limit")? {
        Some(n @ 1..=100) => n as usize,
        _ => 100,
    };
    let timeout = p
        .int("timeout")?
        .unwrap_or(0)
        .clamp(0, MAX_POLL_TIMEOUT_SECS);
    let allowed = p.json("allowed_updates")?;
    let generation = {
        let mut st = shared.lock();
        if st.hook.set.is_some() {
            return Err(ApiErr {
                code: 409,
                description: CONFLICT_WEBHOOK.into(),
                retry_after: None,
                migrate_to_chat_id: None,
            });
        }
        st.polls.push(Value::Object(p.fields.clone()));
        st.confirm(offset);
        if let Some(allowed) = allowed {
            st.set_allowed_updates(&allowed)?;
        }
        st.poll_generation += 1;
        st.poll_generation
    };
    // Wakes an older poll still held, which then answers 409 like Telegram does.
    shared.changed.notify_waiters();
    let deadline = Instant::now() + Duration::from_secs(timeout.unsigned_abs());
    loop {
        let notified = shared.changed.notified();
        tokio::pin!(notified);
        notified.as_mut().enable();
        {
            let st = shared.lock();
            if st.shutdown {
                return Ok(json!([]));
            }
            if st.poll_generation != generation {
                return Err(ApiErr {
                    code: 409,
                    description: CONFLICT_POLL.into(),
                    retry_after: None,
                    migrate_to_chat_id: None,
                });
            }
            let updates = st.select_updates(limit);
            if !updates.is_empty() || Instant::now() >= deadline {
                return Ok(Value::Array(updates));
            }
        }
        // On timeout the loop checks once more and answers (empty, most likely).
        let _ = tokio::time::timeout_at(deadline, notified).await;
    }
}

// ---------------------------------------------------------------------------------------------
// Methods
// ---------------------------------------------------------------------------------------------

impl FakeState {
    fn new(token: &str, bot: FakeUser) -> Self {
        FakeState {
            token: token.to_owned(),
            bot,
            shutdown: false,
            chats: HashMap::new(),
            members: HashMap::new(),
            topics: BTreeMap::new(),
            manages_topics: std::collections::HashSet::new(),
            migrated: HashMap::new(),
            messages: BTreeMap::new(),
            last_message_id: HashMap::new(),
            updates: VecDeque::new(),
            dropped_updates: Vec::new(),
            next_update_id: 0,
            allowed_updates: None,
            poll_generation: 0,
            polls: Vec::new(),
            hook: webhook::Hooked::default(),
            calls: Vec::new(),
            failures: HashMap::new(),
            commands: BTreeMap::new(),
            pending_callbacks: HashMap::new(),
            next_callback: 0,
            answered: Vec::new(),
            files: HashMap::new(),
            next_file: 0,
        }
    }

    /// Keeps `allowed_updates` (a JSON array of kinds; empty: Telegram's default) until the
    /// next call that gives it.
    fn set_allowed_updates(&mut self, allowed: &Value) -> Result<(), ApiErr> {
        let list = allowed
            .as_array()
            .ok_or_else(|| bad("allowed_updates must be an array"))?
            .iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect::<Vec<_>>();
        self.allowed_updates = if list.is_empty() { None } else { Some(list) };
        Ok(())
    }

    fn take_failure(&mut self, method: &str) -> Option<Injected> {
        let queue = self.failures.get_mut(&method.to_ascii_lowercase())?;
        queue.pop_front()
    }

    /// Runs one (non-polling) call and records it.
    fn call(&mut self, method: &str, p: &Params) -> Response {
        let mut record = self.describe_call(method, p);
        if let Some(failure) = self.take_failure(method) {
            match &failure {
                Injected::Api(err) => {
                    record.status = err.code;
                    record.error = Some(err.description.clone());
                }
                Injected::Raw(status, body) => {
                    record.status = *status;
                    record.error = Some(body.clone());
                }
                Injected::Drop => {
                    record.status = 0;
                    record.error = Some("connection dropped".to_owned());
                }
            }
            self.calls.push(record);
            return failure.into_response();
        }
        let outcome = self.dispatch(method, p);
        match &outcome {
            Ok(result) => {
                record.ok = true;
                record.status = 200;
                if let Some(id) = result.get("message_id").and_then(Value::as_i64) {
                    record.message_id = i32::try_from(id).ok();
                }
                record.result = Some(result.clone());
            }
            Err(err) => {
                record.status = err.code;
                record.error = Some(err.description.clone());
            }
        }
        self.calls.push(record);
        match outcome {
            Ok(result) => ok_response(result),
            Err(err) => err.into_response(),
        }
    }

    /// What the log shows of a call, read leniently (validation happens in `dispatch`).
    fn describe_call(&self, method: &str, p: &Params) -> SentCall {
        let mut params = Value::Object(p.fields.clone());
        if !p.files.is_empty() {
            let files: Map<String, Value> = p
                .files
                .iter()
                .map(|(k, f)| {
                    (
                        k.clone(),
                        json!({ "file_name": f.file_name, "size": f.bytes.len() }),
                    )
                })
                .collect();
            params["_files"] = Value::Object(files);
        }
        let chat_id = match p.get("chat_id") {
            Some(Value::String(s)) if s.starts_with('@') => self.chat_by_username(s).map(|c| c.id),
            _ => p.int("chat_id").ok().flatten(),
        };
        let media = if method == "editMessageMedia" {
            p.json("media").ok().flatten()
        } else {
            None
        };
        let (caption, photo) = match &media {
            Some(media) => (
                media
                    .get("caption")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
                media
                    .get("media")
                    .and_then(Value::as_str)
                    .and_then(|r| self.peek_file(p, "", r)),
            ),
            None => {
                let photo = match p.str("photo") {
                    Some(r) => self.peek_file(p, "photo", &r),
                    None => p.files.get("photo").map(|f| f.bytes.clone()),
                };
                (p.str("caption"), photo)
            }
        };
        let reply_markup = p.get("reply_markup").map(|v| match v {
            Value::String(s) => serde_json::from_str(s).unwrap_or_else(|_| v.clone()),
            _ => v.clone(),
        });
        SentCall {
            seq: self.calls.len() as u64,
            method: method.to_owned(),
            ok: false,
            status: 0,
            error: None,
            params,
            chat_id,
            thread_id: p
                .int("message_thread_id")
                .ok()
                .flatten()
                .and_then(|t| i32::try_from(t).ok()),
            message_id: p
                .int("message_id")
                .ok()
                .flatten()
                .and_then(|t| i32::try_from(t).ok()),
            text: p.str("text"),
            caption,
            parse_mode: media
                .as_ref()
                .and_then(|m| {
                    m.get("parse_mode")
                        .and_then(Value::as_str)
                        .map(str::to_owned)
                })
                .or_else(|| p.str("parse_mode")),
            reply_markup,
            photo,
            animation: match p.str("animation") {
                Some(r) => self.peek_file(p, "animation", &r),
                None => p.files.get("animation").map(|f| f.bytes.clone()),
            },
            result: None,
        }
    }

    fn peek_file(&self, p: &Params, field: &str, reference: &str) -> Option<Vec<u8>> {
        if let Some(name) = reference.strip_prefix("attach://") {
            return p.files.get(name).map(|f| f.bytes.clone());
        }
        if let Some(upload) = p.files.get(field) {
            return Some(upload.bytes.clone());
        }
        self.files.get(reference).map(|f| f.bytes.to_vec())
    }

    fn dispatch(&mut self, method: &str, p: &Params) -> Result<Value, ApiErr> {
        match method {
            "getMe" => {
                let mut me = self.bot.to_json();
                me["can_join_groups"] = json!(true);
                me["can_read_all_group_messages"] = json!(false);
                me["supports_inline_queries"] = json!(false);
                me["can_connect_to_business"] = json!(false);
                me["has_main_web_app"] = json!(false);
                Ok(me)
            }
            "getWebhookInfo" => Ok(self.webhook_info()),
            "setWebhook" => self.set_webhook(p),
            "deleteWebhook" => self.delete_webhook(p),
            "sendMessage" => self.send_message(p),
            "sendPhoto" => self.send_photo(p),
            "sendAnimation" => self.send_animation(p),
            "editMessageText" => self.edit_text(p),
            "editMessageCaption" => self.edit_caption(p),
            "editMessageMedia" => self.edit_media(p),
            "editMessageReplyMarkup" => self.edit_reply_markup(p),
            "deleteMessage" => {
                let chat_id = self.resolve_chat(p)?;
                let message_id = required_message_id(p)?;
                match self.messages.remove(&(chat_id, message_id)) {
                    Some(_) => Ok(json!(true)),
                    None => Err(bad("message to delete not found")),
                }
            }
            "answerCallbackQuery" => self.answer_callback(p),
            "setMyCommands" => self.set_commands(p),
            "getMyCommands" => {
                let key = command_key(
                    &scope_param(p)?,
                    &p.string("language_code")?.unwrap_or_default(),
                );
                let commands = self.commands.get(&key).map(|set| {
                    set.commands
                        .iter()
                        .map(|(c, d)| json!({ "command": c, "description": d }))
                        .collect::<Vec<_>>()
                });
                Ok(Value::Array(commands.unwrap_or_default()))
            }
            "deleteMyCommands" => {
                let key = command_key(
                    &scope_param(p)?,
                    &p.string("language_code")?.unwrap_or_default(),
                );
                self.commands.remove(&key);
                Ok(json!(true))
            }
            "sendChatAction" => {
                self.resolve_chat(p)?;
                let action = p.string("action")?.unwrap_or_default();
                if !CHAT_ACTIONS.contains(&action.as_str()) {
                    return Err(bad("wrong parameter action in request"));
                }
                Ok(json!(true))
            }
            "getChat" => {
                let chat_id = self.resolve_chat(p)?;
                let chat = self
                    .chats
                    .get(&chat_id)
                    .ok_or_else(|| bad("chat not found"))?;
                Ok(chat.full_info_json())
            }
            "getChatMember" => self.chat_member(p),
            "createForumTopic" => self.create_forum_topic(p),
            "getFile" => {
                let file_id = p.string("file_id")?.unwrap_or_default();
                let file = self
                    .files
                    .get(&file_id)
                    .ok_or_else(|| bad("invalid file_id"))?;
                Ok(json!({
                    "file_id": file_id,
                    "file_unique_id": file.unique_id,
                    "file_size": file.bytes.len(),
                    "file_path": file.path,
                }))
            }
            m if TRIVIAL_METHODS.contains(&m) => Ok(json!(true)),
            _ => Err(ApiErr {
                code: 404,
                description: "Not Found: method not found".into(),
                retry_after: None,
                migrate_to_chat_id: None,
            }),
        }
    }

    fn send_message(&mut self, p: &Params) -> Result<Value, ApiErr> {
        let chat_id = self.resolve_chat(p)?;
        let text = p.string("text")?.unwrap_or_default();
        if text.trim().is_empty() {
            return Err(bad("message text is empty"));
        }
        let parse_mode = p.string("parse_mode")?;
        if visible_len(&text, parse_mode.as_deref()) > MAX_TEXT_LEN {
            return Err(bad("message is too long"));
        }
        let entities = entities(&text, p.json("entities")?, parse_mode.as_deref())?;
        let reply_markup = reply_markup_param(p)?;
        let reply_to = self.reply_to(chat_id, p)?;
        let thread_id = thread_param(p)?;
        self.check_thread(chat_id, thread_id)?;
        let message_id = self.next_message_id(chat_id);
        let msg = Msg {
            chat_id,
            message_id,
            thread_id,
            from: self.bot.clone(),
            date: now(),
            edit_date: None,
            text: Some(text),
            entities,
            caption: None,
            caption_entities: None,
            parse_mode,
            photo: None,
            animation: None,
            reply_markup: echoed_markup(reply_markup),
            reply_to,
        };
        Ok(self.store(msg))
    }

    fn send_photo(&mut self, p: &Params) -> Result<Value, ApiErr> {
        self.send_media(p, |fake| {
            let reference = p.string("photo")?;
            let sizes = fake.resolve_photo(p, "photo", reference.as_deref())?;
            Ok(Media::Photo(sizes))
        })
    }

    /// `sendAnimation` with an uploaded GIF (file ids and URLs are not modelled).
    fn send_animation(&mut self, p: &Params) -> Result<Value, ApiErr> {
        self.send_media(p, |fake| {
            let upload = match p.string("animation")? {
                Some(r) if r.starts_with("attach://") => p.files.get(&r["attach://".len()..]),
                Some(r) if !r.is_empty() => {
                    return Err(bad("the fake takes uploaded animations only"));
                }
                _ => p.files.get("animation"),
            }
            .ok_or_else(|| bad("there is no animation in the request"))?;
            let bytes = &upload.bytes;
            let (width, height) =
                gif_size(bytes).ok_or_else(|| bad("wrong file type: not a GIF"))?;
            fake.next_file += 1;
            let n = fake.next_file;
            let id = format!("CgACAgFAKE{n:06}");
            fake.files.insert(
                id.clone(),
                FileEntry {
                    unique_id: format!("AgADFAKE{n:06}"),
                    bytes: Arc::new(bytes.clone()),
                    width,
                    height,
                    path: format!("animations/file_{n}.gif"),
                    sizes: vec![id.clone()],
                },
            );
            Ok(Media::Animation(id))
        })
    }

    /// A captioned media message: the checks every send method shares, then the upload that
    /// `media` finds and registers.
    fn send_media(
        &mut self,
        p: &Params,
        media: impl FnOnce(&mut Self) -> Result<Media, ApiErr>,
    ) -> Result<Value, ApiErr> {
        let chat_id = self.resolve_chat(p)?;
        let caption = p.string("caption")?.filter(|c| !c.is_empty());
        let parse_mode = p.string("parse_mode")?;
        check_caption(caption.as_deref(), parse_mode.as_deref())?;
        let caption_entities = entities(
            caption.as_deref().unwrap_or_default(),
            p.json("caption_entities")?,
            parse_mode.as_deref(),
        )?;
        let reply_markup = reply_markup_param(p)?;
        let reply_to = self.reply_to(chat_id, p)?;
        let thread_id = thread_param(p)?;
        self.check_thread(chat_id, thread_id)?;
        let (photo, animation) = match media(self)? {
            Media::Photo(sizes) => (Some(sizes), None),
            Media::Animation(id) => (None, Some(id)),
        };
        let message_id = self.next_message_id(chat_id);
        let msg = Msg {
            chat_id,
            message_id,
            thread_id,
            from: self.bot.clone(),
            date: now(),
            edit_date: None,
            text: None,
            entities: None,
            caption,
            caption_entities,
            parse_mode,
            photo,
            animation,
            reply_markup: echoed_markup(reply_markup),
            reply_to,
        };
        Ok(self.store(msg))
    }

    fn edit_text(&mut self, p: &Params) -> Result<Value, ApiErr> {
        let target = self.edit_target(p)?;
        let text = p.string("text")?.unwrap_or_default();
        if text.trim().is_empty() {
            return Err(bad("text must be non-empty"));
        }
        let parse_mode = p.string("parse_mode")?;
        if visible_len(&text, parse_mode.as_deref()) > MAX_TEXT_LEN {
            return Err(bad("MESSAGE_TOO_LONG"));
        }
        let markup = echoed_markup(reply_markup_param(p)?);
        let entities = p.json("entities")?;
        let EditTarget::Message(chat_id, message_id) = target else {
            return Ok(json!(true));
        };
        let msg = self.editable(chat_id, message_id)?;
        if msg.text.is_none() {
            return Err(bad("there is no text in the message to edit"));
        }
        if msg.text.as_deref() == Some(text.as_str())
            && msg.reply_markup == markup
            && msg.entities == entities
        {
            return Err(bad(NOT_MODIFIED));
        }
        msg.text = Some(text);
        msg.entities = entities;
        msg.parse_mode = parse_mode;
        msg.reply_markup = markup;
        msg.edit_date = Some(now());
        let msg = msg.clone();
        Ok(self.message_json(&msg, true))
    }

    fn edit_caption(&mut self, p: &Params) -> Result<Value, ApiErr> {
        let target = self.edit_target(p)?;
        let caption = p.string("caption")?.filter(|c| !c.is_empty());
        let parse_mode = p.string("parse_mode")?;
        check_caption(caption.as_deref(), parse_mode.as_deref())?;
        let markup = echoed_markup(reply_markup_param(p)?);
        let EditTarget::Message(chat_id, message_id) = target else {
            return Ok(json!(true));
        };
        let msg = self.editable(chat_id, message_id)?;
        if msg.photo.is_none() {
            return Err(bad("there is no caption in the message to edit"));
        }
        if msg.caption == caption && msg.reply_markup == markup {
            return Err(bad(NOT_MODIFIED));
        }
        msg.caption = caption;
        msg.parse_mode = parse_mode;
        msg.reply_markup = markup;
        msg.edit_date = Some(now());
        let msg = msg.clone();
        Ok(self.message_json(&msg, true))
    }

    fn edit_media(&mut self, p: &Params) -> Result<Value, ApiErr> {
        let target = self.edit_target(p)?;
        let media = p.json("media")?.ok_or_else(|| bad("media is empty"))?;
        let kind = media
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if kind != "photo" {
            return Err(bad(format!(
                "the fake supports only photo media, not {kind:?}"
            )));
        }
        let caption = media
            .get("caption")
            .and_then(Value::as_str)
            .filter(|c| !c.is_empty());
        let parse_mode = media
            .get("parse_mode")
            .and_then(Value::as_str)
            .map(str::to_owned);
        check_caption(caption, parse_mode.as_deref())?;
        let markup = echoed_markup(reply_markup_param(p)?);
        let reference = media.get("media").and_then(Value::as_str);
        if reference.is_none() {
            return Err(bad("can't parse InputMedia: media not found"));
        }
        let EditTarget::Message(chat_id, message_id) = target else {
            return Ok(json!(true));
        };
        let has_photo = self.editable(chat_id, message_id)?.photo.is_some();
        if !has_photo {
            return Err(bad("there is no media in the message to edit"));
        }
        let sizes = self.resolve_photo(p, "", reference)?;
        let msg = self.editable(chat_id, message_id)?;
        if msg.photo.as_ref() == Some(&sizes)
            && msg.caption.as_deref() == caption
            && msg.reply_markup == markup
        {
            return Err(bad(NOT_MODIFIED));
        }
        msg.photo = Some(sizes);
        msg.caption = caption.map(str::to_owned);
        msg.parse_mode = parse_mode;
        msg.reply_markup = markup;
        msg.edit_date = Some(now());
        let msg = msg.clone();
        Ok(self.message_json(&msg, true))
    }

    fn edit_reply_markup(&mut self, p: &Params) -> Result<Value, ApiErr> {
        let target = self.edit_target(p)?;
        let markup = echoed_markup(reply_markup_param(p)?);
        let EditTarget::Message(chat_id, message_id) = target else {
            return Ok(json!(true));
        };
        let msg = self.editable(chat_id, message_id)?;
        if msg.reply_markup == markup {
            return Err(bad(NOT_MODIFIED));
        }
        msg.reply_markup = markup;
        msg.edit_date = Some(now());
        let msg = msg.clone();
        Ok(self.message_json(&msg, true))
    }

    fn answer_callback(&mut self, p: &Params) -> Result<Value, ApiErr> {
        let query_id = p.string("callback_query_id")?.unwrap_or_default();
        let pending = self
            .pending_callbacks
            .remove(&query_id)
            .ok_or_else(|| bad(QUERY_INVALID))?;
        self.answered.push(AnsweredCallback {
            query_id,
            data: pending.data,
            chat_id: pending.chat_id,
            message_id: pending.message_id,
            from_user_id: pending.from_user_id,
            text: p.string("text")?,
            show_alert: p.bool("show_alert")?.unwrap_or(false),
            url: p.string("url")?,
            cache_time: p.int("cache_time")?,
        });
        Ok(json!(true))
    }

    fn set_commands(&mut self, p: &Params) -> Result<Value, ApiErr> {
        let list = p
            .json("commands")?
            .ok_or_else(|| bad("parameter \"commands\" is required"))?;
        let list = list
            .as_array()
            .ok_or_else(|| bad("can't parse commands JSON array"))?;
        if list.len() > 100 {
            return Err(bad("too many commands specified"));
        }
        let mut commands = Vec::with_capacity(list.len());
        for entry in list {
            let command = entry
                .get("command")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let description = entry
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let valid = (1..=32).contains(&command.len())
                && command
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
            if !valid {
                return Err(bad("BOT_COMMAND_INVALID"));
            }
            if !(1..=256).contains(&description.chars().count()) {
                return Err(bad("BOT_COMMAND_DESCRIPTION_INVALID"));
            }
            commands.push((command.to_owned(), description.to_owned()));
        }
        let scope = scope_param(p)?;
        let language_code = p.string("language_code")?.unwrap_or_default();
        let key = command_key(&scope, &language_code);
        if commands.is_empty() {
            self.commands.remove(&key);
        } else {
            self.commands.insert(
                key,
                CommandSet {
                    scope,
                    language_code,
                    commands,
                },
            );
        }
        Ok(json!(true))
    }

    /// `createForumTopic`, as Telegram: the chat must be a forum supergroup ("the chat is not
    /// a forum") where the bot is an administrator with `can_manage_topics` ("not enough
    /// rights to create a topic"); the name takes 1–128 characters. The topic's id is the id of
    /// the service message that opens it; the answer is a `ForumTopic`.
    fn create_forum_topic(&mut self, p: &Params) -> Result<Value, ApiErr> {
        let chat_id = self.resolve_chat(p)?;
        let chat = self
            .chats
            .get(&chat_id)
            .cloned()
            .ok_or_else(|| bad("chat not found"))?;
        if chat.chat_type != ChatType::Supergroup || !chat.is_forum {
            return Err(bad("the chat is not a forum"));
        }
        if !self.manages_topics.contains(&chat_id) {
            return Err(bad("not enough rights to create a topic"));
        }
        let name = p.string("name")?.unwrap_or_default();
        if name.trim().is_empty() {
            return Err(bad("TOPIC_TITLE_EMPTY"));
        }
        if name.chars().count() > 128 {
            return Err(bad("TOPIC_TITLE_INVALID"));
        }
        let thread = self.next_message_id(chat_id);
        self.topics.insert((chat_id, thread), name.clone());
        Ok(json!({ "message_thread_id": thread, "name": name, "icon_color": 7_322_096 }))
    }

    /// A message sent into topic `thread` of `chat_id`: a forum's topics must exist ("message
    /// thread not found").
    fn check_thread(&self, chat_id: i64, thread: Option<i32>) -> Result<(), ApiErr> {
        let forum = self.chats.get(&chat_id).is_some_and(|c| c.is_forum);
        match thread {
            Some(t) if forum && !self.topics.contains_key(&(chat_id, t)) => {
                Err(bad("message thread not found"))
            }
            _ => Ok(()),
        }
    }

    // --- helpers ------------------------------------------------------------------------------

    /// A user who wrote or pressed in `chat` is a member there (private chats: the user and
    /// the bot only); an administrator's status is kept.
    fn seen_member(&mut self, chat: &FakeChat, from: &FakeUser) {
        let status = if chat.chat_type == ChatType::Private {
            "creator"
        } else {
            "member"
        };
        self.members
            .entry((chat.id, from.id))
            .or_insert_with(|| (from.clone(), status));
    }

    /// `getChatMember`: as Telegram, `chat_id` and `user_id` are required, an unknown chat is
    /// "chat not found", a user never seen there "user not found" (400); administrators come
    /// with their rights, the creator with `is_anonymous`.
    fn chat_member(&self, p: &Params) -> Result<Value, ApiErr> {
        let chat_id = self.resolve_chat(p)?;
        let user_id = p
            .int("user_id")
            .map_err(|_| bad("invalid user_id specified"))?
            .ok_or_else(|| bad("user_id is empty"))?;
        let Some((user, status)) = self.members.get(&(chat_id, user_id)) else {
            return Err(bad("user not found"));
        };
        let chat = self.chats.get(&chat_id);
        let mut member = json!({ "status": status, "user": user.to_json() });
        match *status {
            "creator" => member["is_anonymous"] = json!(false),
            "administrator" => {
                for right in [
                    "can_be_edited",
                    "can_manage_chat",
                    "can_delete_messages",
                    "can_manage_video_chats",
                    "can_restrict_members",
                    "can_promote_members",
                    "can_change_info",
                    "can_invite_users",
                    "can_post_stories",
                    "can_edit_stories",
                    "can_delete_stories",
                    "is_anonymous",
                ] {
                    member[right] = json!(right != "is_anonymous" && right != "can_be_edited");
                }
                if chat.is_some_and(|c| c.is_forum) {
                    member["can_manage_topics"] = json!(self.manages_topics.contains(&chat_id));
                }
            }
            _ => {}
        }
        Ok(member)
    }

    fn resolve_chat(&self, p: &Params) -> Result<i64, ApiErr> {
        let id = match p.get("chat_id") {
            None => return Err(bad("chat_id is empty")),
            Some(Value::String(s)) if s.starts_with('@') => {
                return self
                    .chat_by_username(s)
                    .map(|c| c.id)
                    .ok_or_else(|| bad("chat not found"));
            }
            Some(_) => p
                .int("chat_id")
                .map_err(|_| bad("chat not found"))?
                .unwrap_or_default(),
        };
        if let Some(&to) = self.migrated.get(&id) {
            return Err(ApiErr {
                migrate_to_chat_id: Some(to),
                ..bad("group chat was upgraded to a supergroup chat")
            });
        }
        if self.chats.contains_key(&id) {
            Ok(id)
        } else {
            Err(bad("chat not found"))
        }
    }

    fn chat_by_username(&self, at_name: &str) -> Option<&FakeChat> {
        let name = at_name.trim_start_matches('@');
        self.chats.values().find(|c| {
            c.username
                .as_deref()
                .is_some_and(|u| u.eq_ignore_ascii_case(name))
        })
    }

    fn edit_target(&self, p: &Params) -> Result<EditTarget, ApiErr> {
        if p.get("inline_message_id").is_some() {
            return Ok(EditTarget::Inline);
        }
        let chat_id = self.resolve_chat(p)?;
        let message_id = required_message_id(p)?;
        Ok(EditTarget::Message(chat_id, message_id))
    }

    fn editable(&mut self, chat_id: i64, message_id: i32) -> Result<&mut Msg, ApiErr> {
        let bot_id = self.bot.id;
        let msg = self
            .messages
            .get_mut(&(chat_id, message_id))
            .ok_or_else(|| bad("message to edit not found"))?;
        if msg.from.id != bot_id {
            return Err(bad("message can't be edited"));
        }
        Ok(msg)
    }

    fn reply_to(&self, chat_id: i64, p: &Params) -> Result<Option<i32>, ApiErr> {
        let (id, allow_missing) = match p.json("reply_parameters")? {
            Some(params) => (
                params.get("message_id").and_then(Value::as_i64),
                params
                    .get("allow_sending_without_reply")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
            ),
            None => (
                p.int("reply_to_message_id")?,
                p.bool("allow_sending_without_reply")?.unwrap_or(false),
            ),
        };
        let Some(id) = id.and_then(|id| i32::try_from(id).ok()) else {
            return Ok(None);
        };
        if self.messages.contains_key(&(chat_id, id)) {
            Ok(Some(id))
        } else if allow_missing {
            Ok(None)
        } else {
            Err(bad("message to be replied not found"))
        }
    }

    fn next_message_id(&mut self, chat_id: i64) -> i32 {
        let last = self.last_message_id.entry(chat_id).or_insert(0);
        *last += 1;
        *last
    }

    fn store(&mut self, msg: Msg) -> Value {
        let json = self.message_json(&msg, true);
        self.messages.insert((msg.chat_id, msg.message_id), msg);
        json
    }

    fn enqueue(&mut self, kind: &str, payload: Value) -> i64 {
        self.enqueue_update(json!({ kind: payload }))
    }

    /// Gives `update` the next id and queues it, unless the bot's `allowed_updates` (or
    /// Telegram's default, which leaves out `chat_member` and reactions) excludes its kind:
    /// Telegram does not even store those.
    fn enqueue_update(&mut self, mut update: Value) -> i64 {
        self.next_update_id += 1;
        let id = self.next_update_id;
        if let Some(obj) = update.as_object_mut() {
            obj.insert("update_id".into(), json!(id));
        }
        let kind = update
            .as_object()
            .and_then(|o| o.keys().find(|k| *k != "update_id").cloned())
            .unwrap_or_default();
        let wanted = match &self.allowed_updates {
            Some(allowed) => allowed.contains(&kind),
            None => !DEFAULT_EXCLUDED_UPDATES.contains(&kind.as_str()),
        };
        if wanted {
            self.updates.push_back((id, update));
        } else {
            self.dropped_updates.push(update);
        }
        id
    }

    /// Forgets the updates `offset` confirms, as Telegram does.
    fn confirm(&mut self, offset: Option<i64>) {
        match offset {
            Some(offset) if offset > 0 => self.updates.retain(|(id, _)| *id >= offset),
            Some(offset) if offset < 0 => {
                let keep = usize::try_from(offset.unsigned_abs()).unwrap_or(usize::MAX);
                while self.updates.len() > keep {
                    self.updates.pop_front();
                }
            }
            _ => {}
        }
    }

    fn select_updates(&self, limit: usize) -> Vec<Value> {
        self.updates
            .iter()
            .take(limit)
            .map(|(_, update)| update.clone())
            .collect()
    }

    /// Finds the photo a request refers to (an upload in part `field`, an `attach://` part, a
    /// known file id) and returns its sizes' file ids, registering an upload as a new photo.
    fn resolve_photo(
        &mut self,
        p: &Params,
        field: &str,
        reference: Option<&str>,
    ) -> Result<Vec<String>, ApiErr> {
        let upload = match reference {
            Some(r) if r.starts_with("attach://") => {
                let name = &r["attach://".len()..];
                Some(
                    p.files
                        .get(name)
                        .ok_or_else(|| bad("wrong file identifier/HTTP URL specified"))?,
                )
            }
            Some(r) if !r.is_empty() => {
                let file = self
                    .files
                    .get(r)
                    .ok_or_else(|| bad("wrong file identifier/HTTP URL specified"))?;
                return Ok(file.sizes.clone());
            }
            _ => p.files.get(field),
        };
        let upload = upload.ok_or_else(|| bad("there is no photo in the request"))?;
        self.register_photo(&upload.bytes)
    }

    fn register_photo(&mut self, bytes: &[u8]) -> Result<Vec<String>, ApiErr> {
        let (width, height, ext) = image_info(bytes).ok_or_else(|| bad("IMAGE_PROCESS_FAILED"))?;
        let (long, short) = (width.max(height), width.min(height));
        if short == 0
            || u64::from(width) + u64::from(height) > 10_000
            || u64::from(long) > 20 * u64::from(short)
        {
            return Err(bad("PHOTO_INVALID_DIMENSIONS"));
        }
        self.next_file += 1;
        let n = self.next_file;
        let bytes = Arc::new(bytes.to_vec());
        let mut dims: Vec<(u32, u32)> = [90u32, 320, 800]
            .iter()
            .filter(|&&target| long > target)
            .map(|&target| {
                let scale =
                    |d: u32| ((u64::from(d) * u64::from(target) / u64::from(long)) as u32).max(1);
                (scale(width), scale(height))
            })
            .collect();
        dims.push((width, height));
        let ids: Vec<String> = (0..dims.len())
            .map(|i| format!("AgACAgFAKE{n:06}x{i}"))
            .collect();
        for (i, (w, h)) in dims.into_iter().enumerate() {
            self.files.insert(
                ids[i].clone(),
                FileEntry {
                    unique_id: format!("AQADFAKE{n:06}x{i}"),
                    bytes: bytes.clone(),
                    width: w,
                    height: h,
                    path: format!("photos/file_{n}_{i}.{ext}"),
                    sizes: ids.clone(),
                },
            );
        }
        Ok(ids)
    }

    fn photo_json(&self, sizes: &[String]) -> Value {
        Value::Array(
            sizes
                .iter()
                .filter_map(|id| {
                    let f = self.files.get(id)?;
                    Some(json!({
                        "file_id": id,
                        "file_unique_id": f.unique_id,
                        "width": f.width,
                        "height": f.height,
                        "file_size": f.bytes.len(),
                    }))
                })
                .collect(),
        )
    }

    fn message_json(&self, msg: &Msg, with_reply: bool) -> Value {
        let chat = self.chats.get(&msg.chat_id).map_or_else(
            || json!({ "id": msg.chat_id, "type": "private" }),
            FakeChat::to_json,
        );
        let is_forum = self.chats.get(&msg.chat_id).is_some_and(|c| c.is_forum);
        let is_supergroup = self
            .chats
            .get(&msg.chat_id)
            .is_some_and(|c| c.chat_type == ChatType::Supergroup);
        let mut m = json!({
            "message_id": msg.message_id,
            "from": msg.from.to_json(),
            "chat": chat,
            "date": msg.date,
        });
        if let Some(thread) = msg.thread_id.filter(|_| is_supergroup) {
            m["message_thread_id"] = json!(thread);
            if is_forum {
                m["is_topic_message"] = json!(true);
            }
        }
        if let Some(date) = msg.edit_date {
            m["edit_date"] = json!(date);
        }
        if with_reply {
            if let Some(reply) = msg
                .reply_to
                .and_then(|id| self.messages.get(&(msg.chat_id, id)))
            {
                m["reply_to_message"] = self.message_json(reply, false);
            }
        }
        put_opt(&mut m, "text", &msg.text);
        if let Some(entities) = &msg.entities {
            m["entities"] = entities.clone();
        }
        if let Some(sizes) = &msg.photo {
            m["photo"] = self.photo_json(sizes);
        }
        if let Some(f) = msg
            .animation
            .as_ref()
            .and_then(|id| self.files.get(id).map(|f| (id, f)))
        {
            let (id, f) = f;
            // Telegram sends an animation as both `animation` and `document`.
            m["animation"] = json!({
                "file_id": id,
                "file_unique_id": f.unique_id,
                "width": f.width,
                "height": f.height,
                "duration": 0,
                "mime_type": "image/gif",
                "file_size": f.bytes.len(),
            });
            m["document"] = json!({
                "file_id": id,
                "file_unique_id": f.unique_id,
                "mime_type": "image/gif",
                "file_size": f.bytes.len(),
            });
        }
        put_opt(&mut m, "caption", &msg.caption);
        if let Some(entities) = &msg.caption_entities {
            m["caption_entities"] = entities.clone();
        }
        if let Some(markup) = &msg.reply_markup {
            m["reply_markup"] = markup.clone();
        }
        m
    }

    fn stored(&self, msg: &Msg) -> StoredMessage {
        let photo = msg.photo.as_ref().map(|sizes| {
            sizes
                .iter()
                .filter_map(|id| {
                    let f = self.files.get(id)?;
                    Some(PhotoInfo {
                        file_id: id.clone(),
                        file_unique_id: f.unique_id.clone(),
                        width: f.width,
                        height: f.height,
                    })
                })
                .collect::<Vec<_>>()
        });
        let photo_bytes = msg
            .photo
            .as_ref()
            .and_then(|sizes| sizes.last())
            .and_then(|id| self.files.get(id))
            .map(|f| f.bytes.to_vec());
        StoredMessage {
            chat_id: msg.chat_id,
            message_id: msg.message_id,
            thread_id: msg.thread_id,
            from: msg.from.clone(),
            date: msg.date,
            edit_date: msg.edit_date,
            text: msg.text.clone(),
            caption: msg.caption.clone(),
            parse_mode: msg.parse_mode.clone(),
            photo,
            photo_bytes,
            reply_markup: msg.reply_markup.clone(),
            reply_to_message_id: msg.reply_to,
            json: self.message_json(msg, true),
        }
    }
}

impl Params {
    /// A parameter, `null` counting as absent.
    fn get(&self, key: &str) -> Option<&Value> {
        self.fields.get(key).filter(|v| !v.is_null())
    }

    fn int(&self, key: &str) -> Result<Option<i64>, ApiErr> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Number(n)) => n
                .as_i64()
                .map(Some)
                .ok_or_else(|| bad(format!("field \"{key}\" must be of type Integer"))),
            Some(Value::String(s)) => s
                .trim()
                .parse()
                .map(Some)
                .map_err(|_| bad(format!("field \"{key}\" must be of type Integer"))),
            Some(_) => Err(bad(format!("field \"{key}\" must be of type Integer"))),
        }
    }

    fn bool(&self, key: &str) -> Result<Option<bool>, ApiErr> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(Value::String(s)) => match s.trim().to_ascii_lowercase().as_str() {
                "true" | "1" => Ok(Some(true)),
                "false" | "0" | "" => Ok(Some(false)),
                _ => Err(bad(format!("field \"{key}\" must be of type Boolean"))),
            },
            Some(Value::Number(n)) => Ok(Some(n.as_i64() != Some(0))),
            Some(_) => Err(bad(format!("field \"{key}\" must be of type Boolean"))),
        }
    }

    /// A string parameter; numbers are accepted as their decimal text.
    fn str(&self, key: &str) -> Option<String> {
        match self.get(key)? {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            other => Some(other.to_string()),
        }
    }

    /// A string parameter, strictly: numbers and booleans are taken as their text (Telegram
    /// does too), arrays and objects are a Bad Request.
    fn string(&self, key: &str) -> Result<Option<String>, ApiErr> {
        match self.get(key) {
            Some(Value::Array(_) | Value::Object(_)) => {
                Err(bad(format!("field \"{key}\" must be of type String")))
            }
            _ => Ok(self.str(key)),
        }
    }

    /// A JSON-typed parameter (object/array), given as JSON or as a JSON string (forms).
    fn json(&self, key: &str) -> Result<Option<Value>, ApiErr> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => serde_json::from_str(s)
                .map(Some)
                .map_err(|_| bad(format!("can't parse {key} JSON object"))),
            Some(v) => Ok(Some(v.clone())),
        }
    }
}

fn required_message_id(p: &Params) -> Result<i32, ApiErr> {
    let id = p
        .int("message_id")?
        .ok_or_else(|| bad("message identifier is not specified"))?;
    i32::try_from(id).map_err(|_| bad("message identifier is not specified"))
}

fn thread_param(p: &Params) -> Result<Option<i32>, ApiErr> {
    match p.int("message_thread_id")? {
        None => Ok(None),
        Some(id) => i32::try_from(id)
            .map(Some)
            .map_err(|_| bad("message thread not found")),
    }
}

fn check_caption(caption: Option<&str>, parse_mode: Option<&str>) -> Result<(), ApiErr> {
    match caption {
        Some(c) if visible_len(c, parse_mode) > MAX_CAPTION_LEN => {
            Err(bad("message caption is too long"))
        }
        _ => Ok(()),
    }
}

/// `reply_markup`, parsed and (inline keyboards) validated as Telegram does.
fn reply_markup_param(p: &Params) -> Result<Option<Value>, ApiErr> {
    const CANT_PARSE: &str = "can't parse reply keyboard markup JSON object";
    let markup = match p.get("reply_markup") {
        None => return Ok(None),
        Some(Value::String(s)) => serde_json::from_str::<Value>(s).map_err(|_| bad(CANT_PARSE))?,
        Some(v) => v.clone(),
    };
    if !markup.is_object() {
        return Err(bad(CANT_PARSE));
    }
    // A private chat's id is its user's (positive); groups' are negative.
    let private = p.int("chat_id").ok().flatten().is_some_and(|id| id > 0);
    if let Some(keyboard) = markup.get("inline_keyboard") {
        let rows = keyboard
            .as_array()
            .ok_or_else(|| bad("field \"inline_keyboard\" must be an Array"))?;
        for row in rows {
            let row = row
                .as_array()
                .ok_or_else(|| bad("can't parse inline keyboard row: Array expected"))?;
            for button in row {
                check_inline_button(button, private)?;
            }
        }
    }
    Ok(Some(markup))
}

fn check_inline_button(button: &Value, private: bool) -> Result<(), ApiErr> {
    let button = button
        .as_object()
        .ok_or_else(|| bad("can't parse inline keyboard button: Object expected"))?;
    let text = button
        .get("text")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if text.is_empty() {
        return Err(bad(
            "can't parse inline keyboard button: Text must be non-empty",
        ));
    }
    let actions = BUTTON_ACTIONS
        .iter()
        .filter(|a| button.contains_key(**a))
        .count();
    if actions != 1 {
        return Err(bad(
            "can't parse inline keyboard button: InlineKeyboardButton must have exactly one optional field",
        ));
    }
    if let Some(data) = button.get("callback_data") {
        let len = data.as_str().map_or(0, str::len);
        if !(1..=64).contains(&len) {
            return Err(bad("BUTTON_DATA_INVALID"));
        }
    }
    // A Mini App button: an https:// address, and only in a private chat (a group gets
    // BUTTON_TYPE_INVALID; a direct t.me link is what groups may carry).
    if let Some(app) = button.get("web_app") {
        let url = app.get("url").and_then(Value::as_str).unwrap_or_default();
        if !url.starts_with("https://") || url.len() <= 8 {
            return Err(bad("BUTTON_URL_INVALID"));
        }
        if !private {
            return Err(bad("BUTTON_TYPE_INVALID"));
        }
    }
    if let Some(url) = button.get("url") {
        let url = url.as_str().unwrap_or_default();
        let ok = ["http://", "https://", "tg://"]
            .iter()
            .any(|s| url.starts_with(s))
            && url.len() > 7;
        if !ok {
            return Err(bad("BUTTON_URL_INVALID"));
        }
    }
    Ok(())
}

/// The markup a Message carries: only a non-empty inline keyboard.
fn echoed_markup(markup: Option<Value>) -> Option<Value> {
    let markup = markup?;
    let has_buttons = markup
        .get("inline_keyboard")
        .and_then(Value::as_array)
        .is_some_and(|rows| {
            rows.iter()
                .any(|r| r.as_array().is_some_and(|r| !r.is_empty()))
        });
    has_buttons.then(|| json!({ "inline_keyboard": markup["inline_keyboard"].clone() }))
}

fn inline_buttons(markup: Option<&Value>) -> Vec<(String, Option<String>)> {
    let Some(rows) = markup
        .and_then(|m| m.get("inline_keyboard"))
        .and_then(Value::as_array)
    else {
        return Vec::new();
    };
    rows.iter()
        .filter_map(Value::as_array)
        .flatten()
        .map(|b| {
            (
                b.get("text")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
                b.get("callback_data")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            )
        })
        .collect()
}

fn scope_param(p: &Params) -> Result<Value, ApiErr> {
    let scope = p
        .json("scope")?
        .unwrap_or_else(|| json!({ "type": "default" }));
    if scope.get("type").and_then(Value::as_str).is_none() {
        return Err(bad("can't parse BotCommandScope JSON object"));
    }
    Ok(scope)
}

/// A stable key for a (scope, language) pair, independent of JSON key order.
fn command_key(scope: &Value, language_code: &str) -> (String, String) {
    let kind = scope
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("default");
    let chat = scope
        .get("chat_id")
        .map(Value::to_string)
        .unwrap_or_default();
    let user = scope
        .get("user_id")
        .map(Value::to_string)
        .unwrap_or_default();
    (format!("{kind}|{chat}|{user}"), language_code.to_owned())
}

/// A `bot_command` entity for a text starting with `/` (offsets in UTF-16 units).
fn command_entity(text: &str) -> Option<Value> {
    let command = text
        .split_whitespace()
        .next()
        .filter(|w| w.starts_with('/') && text.starts_with('/'))?;
    Some(json!([{ "type": "bot_command", "offset": 0, "length": command.encode_utf16().count() }]))
}

/// `entities` of `text` checked as Telegram checks them: an array of objects of a known type,
/// each within the text counted in UTF-16 code units and not empty, a `text_mention` naming
/// its user by a numeric id, a `text_link` its URL; not together with a `parse_mode`.
fn entities(
    text: &str,
    entities: Option<Value>,
    parse_mode: Option<&str>,
) -> Result<Option<Value>, ApiErr> {
    let Some(list) = entities else {
        return Ok(None);
    };
    let fail = |why: &str| bad(format!("can't parse entities: {why}"));
    let Some(items) = list.as_array() else {
        return Err(fail("entities must be an array"));
    };
    if parse_mode.is_some_and(|m| !m.is_empty()) && !items.is_empty() {
        return Err(fail("entities and parse_mode can't be used together"));
    }
    let units = text.encode_utf16().count() as i64;
    for e in items {
        let kind = e.get("type").and_then(Value::as_str).unwrap_or_default();
        let offset = e.get("offset").and_then(Value::as_i64);
        let length = e.get("length").and_then(Value::as_i64);
        let (Some(offset), Some(length)) = (offset, length) else {
            return Err(fail("an entity needs an offset and a length"));
        };
        if offset < 0 || length <= 0 || offset + length > units {
            return Err(fail(&format!(
                "entity {offset}+{length} lies outside the text of {units} UTF-16 units"
            )));
        }
        match kind {
            "text_mention" => {
                if e.pointer("/user/id").and_then(Value::as_i64).is_none() {
                    return Err(fail("a text_mention needs its user's id"));
                }
            }
            "text_link" => {
                if e.get("url").and_then(Value::as_str).is_none() {
                    return Err(fail("a text_link needs a URL"));
                }
            }
            "mention"
            | "hashtag"
            | "cashtag"
            | "bot_command"
            | "url"
            | "email"
            | "phone_number"
            | "bold"
            | "italic"
            | "underline"
            | "strikethrough"
            | "spoiler"
            | "blockquote"
            | "expandable_blockquote"
            | "code"
            | "pre"
            | "custom_emoji" => {}
            other => return Err(fail(&format!("unknown entity type \"{other}\""))),
        }
    }
    Ok(Some(list))
}

/// Length of `text` as the user would see it: markup of `parse_mode` left out (an estimate;
/// the fake does not parse markup).
fn visible_len(text: &str, parse_mode: Option<&str>) -> usize {
    let mode = parse_mode.unwrap_or_default().to_ascii_lowercase();
    if mode == "html" {
        let (mut n, mut in_tag, mut in_entity) = (0, false, false);
        for c in text.chars() {
            match c {
                '<' => in_tag = true,
                '>' if in_tag => in_tag = false,
                _ if in_tag => {}
                '&' => {
                    in_entity = true;
                    n += 1;
                }
                ';' if in_entity => in_entity = false,
                _ if in_entity => {}
                _ => n += 1,
            }
        }
        n
    } else if mode.starts_with("markdown") {
        let (mut n, mut escaped, mut in_url) = (0, false, false);
        let mut prev = ' ';
        for c in text.chars() {
            if in_url {
                in_url = c != ')';
            } else if escaped {
                escaped = false;
                n += 1;
            } else if c == '\\' {
                escaped = true;
            } else if c == '(' && prev == ']' {
                in_url = true;
            } else if !"*_~`|[]".contains(c) {
                n += 1;
            }
            prev = c;
        }
        n
    } else {
        text.chars().count()
    }
}

/// Width, height and file extension of a PNG or JPEG image, from its header.
/// Width and height from a GIF's logical screen descriptor.
fn gif_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if !(bytes.starts_with(b"GIF89a") || bytes.starts_with(b"GIF87a")) {
        return None;
    }
    let le16 = |at: usize| {
        bytes
            .get(at..at + 2)
            .map(|b| u32::from(u16::from_le_bytes([b[0], b[1]])))
    };
    Some((le16(6)?, le16(8)?))
}

fn image_info(bytes: &[u8]) -> Option<(u32, u32, &'static str)> {
    const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    let be32 = |at: usize| {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    };
    let be16 = |at: usize| {
        bytes
            .get(at..at + 2)
            .map(|b| u32::from(u16::from_be_bytes([b[0], b[1]])))
    };
    if bytes.starts_with(PNG_SIGNATURE) {
        if bytes.get(12..16)? != b"IHDR" {
            return None;
        }
        return Some((be32(16)?, be32(20)?, "png"));
    }
    if bytes.starts_with(&[0xFF, 0xD8]) {
        let mut at = 2;
        loop {
            if *bytes.get(at)? != 0xFF {
                return None;
            }
            let marker = *bytes.get(at + 1)?;
            match marker {
                0xFF => at += 1,
                0xD8 | 0x01 | 0xD0..=0xD7 => at += 2,
                0xC0..=0xCF if !matches!(marker, 0xC4 | 0xC8 | 0xCC) => {
                    return Some((be16(at + 7)?, be16(at + 5)?, "jpg"));
                }
                0xD9 | 0xDA => return None,
                _ => at += 2 + usize::try_from(be16(at + 2)?).ok()?,
            }
        }
    }
    None
}

fn put_opt(obj: &mut Value, key: &str, value: &Option<String>) {
    if let Some(v) = value {
        obj[key] = json!(v);
    }
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// The handle is shared between test tasks.
const _: fn() = || {
    fn check<T: Send + Sync>() {}
    check::<FakeTelegram>();
};
