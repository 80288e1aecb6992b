//! An in-process fake of Discord: the REST API (under `/api/v10`) and the gateway WebSocket, on
//! `127.0.0.1` with an ephemeral port, for end-to-end tests of the Discord adapter.
//!
//! Use it from an integration test with
//! `#[path = "support/discord_fake.rs"] mod discord_fake;`.
//!
//! The fake keeps a small world (one guild, a text channel, a bot user, test users), answers the
//! calls a bot makes with JSON shaped like Discord's (so serenity's models deserialize), records
//! every call, and lets a test inject gateway events (messages, slash commands, component clicks,
//! autocomplete) and failures (`fail_next`). It validates what a bot sends the way Discord does
//! where a mistake would be a real bug (empty or oversized messages, bad components, bad command
//! definitions, answering an interaction twice) and never panics on malformed input: it answers
//! with Discord's error bodies.
//!
//! ```ignore
//! let fake = FakeDiscord::start().await;
//! let http = HttpBuilder::new(fake.token()).proxy(fake.http_url()).ratelimiter_disabled(true).build();
//! let mut client = ClientBuilder::new_with_http(http, intents).event_handler(bot).await?;
//! tokio::spawn(async move { client.start().await });
//! assert!(fake.wait_for_ready(Duration::from_secs(10)).await);
//! let alice = fake.add_user("alice");
//! fake.push_message_create(fake.channel_id(), &alice, "!board");
//! let call = fake.wait_for_call("POST /channels/*/messages", 1, Duration::from_secs(10)).await;
//! let ix = fake.push_interaction(
//!     FakeInteraction::slash("xiangqi").option(CmdOpt::sub("move", vec![CmdOpt::string("move", "h2e2")])).by(&alice),
//! );
//! let answers = fake.wait_for_interaction_responses(ix.id, 2, Duration::from_secs(10)).await;
//! fake.fail_next_with_attachments("POST /channels/*/messages", 403, FakeDiscord::missing_permissions());
//! ```
//!
//! Shut the bot down (`shard_manager.shutdown_all()`) before dropping the fake: when the gateway
//! goes away serenity reconnects, and without the fake's `GET /gateway` it falls back to
//! `wss://gateway.discord.gg`.
//!
//! Serenity specifics (0.12.5), for whoever wires a bot to this fake:
//! - `HttpBuilder::new(token).proxy(fake.http_url()).ratelimiter_disabled(true)`: serenity builds
//!   every URL as `https://discord.com/api/v10/...` and replaces `https://discord.com` with the
//!   proxy, so requests arrive here as `/api/v10/...` over plain HTTP.
//! - `ClientBuilder::new_with_http(http, intents)` takes that `Http`; at start-up the client calls
//!   `GET /api/v10/gateway` (not `/gateway/bot`) and connects to `{url}?v=10` (no `encoding`
//!   parameter; JSON is implied). Plain `ws://` works. The application id is learned from READY.
//! - With the rate limiter enabled serenity ignores the proxy (its ratelimiter builds requests with
//!   no proxy), so `ratelimiter_disabled(true)` is required, not optional.
#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::body::Body;
use axum::extract::ws::{CloseFrame, Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, FromRequest, Multipart, RawQuery, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Map, Value};
use tokio::sync::{mpsc, watch};

#[path = "discord_fake_shards.rs"]
mod shards;
#[allow(unused_imports)]
pub use shards::{shard_of, IdentifyRecord, Sharding, IDENTIFY_JITTER, IDENTIFY_WINDOW};

/// Discord's epoch (2015-01-01T00:00:00Z) in Unix milliseconds.
const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;
/// The largest request body the fake reads (Discord's own cap is far below; we answer 413 then).
const MAX_BODY: usize = 64 << 20;

/// Gateway intents the fake looks at.
pub mod intents {
    pub const GUILDS: u64 = 1 << 0;
    pub const GUILD_MEMBERS: u64 = 1 << 1;
    pub const GUILD_PRESENCES: u64 = 1 << 8;
    pub const GUILD_MESSAGES: u64 = 1 << 9;
    pub const GUILD_MESSAGE_REACTIONS: u64 = 1 << 10;
    pub const GUILD_MESSAGE_TYPING: u64 = 1 << 11;
    pub const DIRECT_MESSAGES: u64 = 1 << 12;
    pub const MESSAGE_CONTENT: u64 = 1 << 15;
    pub const PRIVILEGED: u64 = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT;
}

/// Permission bits used for the fake guild's roles.
pub mod permissions {
    pub const ADD_REACTIONS: u64 = 1 << 6;
    pub const VIEW_CHANNEL: u64 = 1 << 10;
    pub const SEND_MESSAGES: u64 = 1 << 11;
    pub const MANAGE_MESSAGES: u64 = 1 << 13;
    pub const EMBED_LINKS: u64 = 1 << 14;
    pub const ATTACH_FILES: u64 = 1 << 15;
    pub const READ_MESSAGE_HISTORY: u64 = 1 << 16;
    pub const USE_EXTERNAL_EMOJIS: u64 = 1 << 18;
    pub const USE_APPLICATION_COMMANDS: u64 = 1 << 31;
    pub const MANAGE_THREADS: u64 = 1 << 34;
    pub const CREATE_PUBLIC_THREADS: u64 = 1 << 35;
    pub const CREATE_PRIVATE_THREADS: u64 = 1 << 36;
    pub const SEND_MESSAGES_IN_THREADS: u64 = 1 << 38;
    pub const ADMINISTRATOR: u64 = 1 << 3;
    pub const MANAGE_CHANNELS: u64 = 1 << 4;
    pub const MANAGE_GUILD: u64 = 1 << 5;
    /// What `@everyone` may do in the fake guild.
    pub const EVERYONE: u64 = ADD_REACTIONS
        | VIEW_CHANNEL
        | SEND_MESSAGES
        | EMBED_LINKS
        | ATTACH_FILES
        | READ_MESSAGE_HISTORY
        | USE_EXTERNAL_EMOJIS
        | USE_APPLICATION_COMMANDS
        | CREATE_PUBLIC_THREADS
        | CREATE_PRIVATE_THREADS
        | SEND_MESSAGES_IN_THREADS;
    /// What the bot's managed role adds.
    pub const BOT_ROLE: u64 = EVERYONE | MANAGE_MESSAGES | MANAGE_THREADS;
}

// ---------------------------------------------------------------------------------------------
// Public records
// ---------------------------------------------------------------------------------------------

/// A user of the fake world (a guild member, or the bot).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FakeUser {
    pub id: u64,
    pub name: String,
    pub bot: bool,
}

/// A file received in a multipart request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UploadedFile {
    /// The form field, e.g. `files[0]`.
    pub field: String,
    pub filename: String,
    pub content_type: Option<String>,
    pub data: Vec<u8>,
}

/// One REST call the fake received.
#[derive(Clone, Debug)]
pub struct RecordedCall {
    pub method: String,
    /// The path without the `/api/v10` prefix and without the query, e.g. `/channels/1/messages`.
    pub path: String,
    pub query: Option<String>,
    /// The JSON body, or the multipart `payload_json`.
    pub json: Option<Value>,
    pub files: Vec<UploadedFile>,
    /// The status the fake answered.
    pub status: u16,
    /// The body the fake answered (`Null` for 204).
    pub response: Value,
}

impl RecordedCall {
    /// Whether this call matches a route pattern like `POST /channels/*/messages` (`*` is one
    /// path segment, `**` the rest; the method is optional).
    pub fn matches(&self, route: &str) -> bool {
        RoutePattern::parse(route).matches(&self.method, &self.path)
    }
}

/// An attachment of a stored message, with its bytes.
#[derive(Clone, Debug)]
pub struct FakeAttachment {
    pub id: u64,
    pub filename: String,
    pub description: Option<String>,
    pub content_type: Option<String>,
    pub data: Vec<u8>,
    pub width: Option<u32>,
    pub height: Option<u32>,
    pub url: String,
}

/// A message stored by the fake (sent by the bot or injected by a test).
#[derive(Clone, Debug)]
pub struct FakeMessage {
    pub id: u64,
    pub channel_id: u64,
    pub author_id: u64,
    pub content: String,
    pub embeds: Vec<Value>,
    pub components: Vec<Value>,
    pub attachments: Vec<FakeAttachment>,
    pub flags: u64,
    /// Discord message type (0 default, 19 reply, 20 chat input command).
    pub kind: u64,
    pub edited: bool,
    pub deleted: bool,
    /// The message this one replies to.
    pub reference: Option<u64>,
    /// The interaction this message answers, if any.
    pub interaction_id: Option<u64>,
    /// The thread started from this message.
    pub thread_id: Option<u64>,
    /// Emoji the bot reacted with.
    pub reactions: Vec<String>,
    /// Users its content mentions (`<@id>` of known users).
    pub mentions: Vec<u64>,
    /// The mentioned users it pinged, as its `allowed_mentions` allowed.
    pub pinged: Vec<u64>,
}

impl FakeMessage {
    pub fn is_ephemeral(&self) -> bool {
        self.flags & 64 != 0
    }

    /// Every `custom_id` in the message's components.
    pub fn custom_ids(&self) -> Vec<String> {
        let mut out = Vec::new();
        for row in &self.components {
            for c in row
                .get("components")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(id) = c.get("custom_id").and_then(Value::as_str) {
                    out.push(id.to_string());
                }
            }
        }
        out
    }
}

/// A channel of the fake world.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FakeChannel {
    pub id: u64,
    /// 0 text, 1 DM, 11 public thread, 12 private thread.
    pub kind: u64,
    pub name: String,
    pub guild_id: Option<u64>,
    pub parent_id: Option<u64>,
    /// For DMs: the other user.
    pub recipient_id: Option<u64>,
    pub archived: bool,
    pub locked: bool,
}

/// What kind of answer to an interaction a record is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResponseKind {
    /// `POST /interactions/{id}/{token}/callback` with this callback type.
    Callback(u64),
    GetOriginal,
    EditOriginal,
    DeleteOriginal,
    Followup,
    GetFollowup(u64),
    EditFollowup(u64),
    DeleteFollowup(u64),
}

/// One answer a bot gave to an interaction (successful or not: see `status`).
#[derive(Clone, Debug)]
pub struct InteractionResponse {
    pub kind: ResponseKind,
    pub status: u16,
    /// The JSON body (or `payload_json`).
    pub json: Option<Value>,
    pub files: Vec<UploadedFile>,
    /// The message created or edited, if any.
    pub message_id: Option<u64>,
}

impl InteractionResponse {
    pub fn is_ok(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// The callback type, for `Callback` records.
    pub fn callback_type(&self) -> Option<u64> {
        match self.kind {
            ResponseKind::Callback(t) => Some(t),
            _ => None,
        }
    }
}

/// The id and token of an injected interaction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InjectedInteraction {
    pub id: u64,
    pub token: String,
}

/// A dispatch the fake sent over the gateway.
#[derive(Clone, Debug)]
pub struct SentDispatch {
    pub seq: u64,
    pub event: String,
    pub data: Value,
}

// ---------------------------------------------------------------------------------------------
// Interaction builders
// ---------------------------------------------------------------------------------------------

/// An option of an application command invocation.
#[derive(Clone, Debug)]
pub struct CmdOpt {
    name: String,
    kind: u64,
    value: Option<Value>,
    options: Vec<CmdOpt>,
    focused: bool,
    user: Option<FakeUser>,
}

impl CmdOpt {
    fn new(name: &str, kind: u64, value: Option<Value>) -> Self {
        Self {
            name: name.to_string(),
            kind,
            value,
            options: Vec::new(),
            focused: false,
            user: None,
        }
    }
    pub fn string(name: &str, value: impl Into<String>) -> Self {
        Self::new(name, 3, Some(Value::String(value.into())))
    }
    pub fn integer(name: &str, value: i64) -> Self {
        Self::new(name, 4, Some(json!(value)))
    }
    pub fn boolean(name: &str, value: bool) -> Self {
        Self::new(name, 5, Some(json!(value)))
    }
    pub fn user(name: &str, user: &FakeUser) -> Self {
        let mut o = Self::new(name, 6, Some(json!(user.id.to_string())));
        o.user = Some(user.clone());
        o
    }
    pub fn channel(name: &str, channel_id: u64) -> Self {
        Self::new(name, 7, Some(json!(channel_id.to_string())))
    }
    pub fn number(name: &str, value: f64) -> Self {
        Self::new(name, 10, Some(json!(value)))
    }
    /// A subcommand with its options.
    pub fn sub(name: &str, options: Vec<CmdOpt>) -> Self {
        let mut o = Self::new(name, 1, None);
        o.options = options;
        o
    }
    /// A subcommand group with its subcommand.
    pub fn group(name: &str, options: Vec<CmdOpt>) -> Self {
        let mut o = Self::new(name, 2, None);
        o.options = options;
        o
    }
    /// Mark this option as the one being typed (autocomplete).
    pub fn focused(mut self) -> Self {
        self.focused = true;
        self
    }

    fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("name".into(), json!(self.name));
        m.insert("type".into(), json!(self.kind));
        if let Some(v) = &self.value {
            m.insert("value".into(), v.clone());
        }
        if !self.options.is_empty() || self.kind <= 2 {
            m.insert(
                "options".into(),
                Value::Array(self.options.iter().map(CmdOpt::to_json).collect()),
            );
        }
        if self.focused {
            m.insert("focused".into(), json!(true));
        }
        Value::Object(m)
    }

    fn users(&self, out: &mut Vec<FakeUser>) {
        if let Some(u) = &self.user {
            out.push(u.clone());
        }
        for o in &self.options {
            o.users(out);
        }
    }
}

#[derive(Clone, Debug)]
enum IxKind {
    Command {
        name: String,
        options: Vec<CmdOpt>,
    },
    Autocomplete {
        name: String,
        options: Vec<CmdOpt>,
    },
    Component {
        message_id: u64,
        custom_id: String,
        component_type: u64,
        values: Vec<String>,
    },
}

/// An INTERACTION_CREATE to inject with [`FakeDiscord::push_interaction`].
///
/// By default the fake checks it against what the bot set up, as Discord's client would: a slash
/// command or autocomplete must name a registered command and fit its options; a click must hit an
/// enabled component of that message. `.unchecked()` skips those checks.
#[derive(Clone, Debug)]
pub struct FakeInteraction {
    kind: IxKind,
    user: Option<FakeUser>,
    channel_id: Option<u64>,
    locale: String,
    checked: bool,
}

impl FakeInteraction {
    fn new(kind: IxKind) -> Self {
        Self {
            kind,
            user: None,
            channel_id: None,
            locale: "en-US".into(),
            checked: true,
        }
    }
    /// A chat-input (slash) command (interaction type 2).
    pub fn slash(name: &str) -> Self {
        Self::new(IxKind::Command {
            name: name.into(),
            options: Vec::new(),
        })
    }
    /// An autocomplete request (interaction type 4); mark one option `.focused()`.
    pub fn autocomplete(name: &str) -> Self {
        Self::new(IxKind::Autocomplete {
            name: name.into(),
            options: Vec::new(),
        })
    }
    /// A button click on a message (interaction type 3).
    pub fn button(message_id: u64, custom_id: &str) -> Self {
        Self::new(IxKind::Component {
            message_id,
            custom_id: custom_id.into(),
            component_type: 2,
            values: Vec::new(),
        })
    }
    /// A string-select choice on a message (interaction type 3).
    pub fn select(message_id: u64, custom_id: &str, values: &[&str]) -> Self {
        Self::new(IxKind::Component {
            message_id,
            custom_id: custom_id.into(),
            component_type: 3,
            values: values.iter().map(|v| v.to_string()).collect(),
        })
    }
    /// Add an option (slash command and autocomplete only).
    pub fn option(mut self, opt: CmdOpt) -> Self {
        match &mut self.kind {
            IxKind::Command { options, .. } | IxKind::Autocomplete { options, .. } => {
                options.push(opt)
            }
            IxKind::Component { .. } => {}
        }
        self
    }
    /// Who invokes it (default: [`FakeDiscord::tester`]).
    pub fn by(mut self, user: &FakeUser) -> Self {
        self.user = Some(user.clone());
        self
    }
    /// Where (default: the general channel; for components, the message's channel).
    pub fn in_channel(mut self, channel_id: u64) -> Self {
        self.channel_id = Some(channel_id);
        self
    }
    /// The invoking user's client locale (default `en-US`), e.g. `vi` or `zh-CN`.
    pub fn locale(mut self, locale: &str) -> Self {
        self.locale = locale.into();
        self
    }
    /// Skip the checks against registered commands and rendered components.
    pub fn unchecked(mut self) -> Self {
        self.checked = false;
        self
    }
}

// ---------------------------------------------------------------------------------------------
// Configuration and start-up
// ---------------------------------------------------------------------------------------------

/// Settings of a [`FakeDiscord`]; start one with [`FakeDiscordBuilder::start`].
#[derive(Clone, Debug)]
pub struct FakeDiscordBuilder {
    token: String,
    bot_name: String,
    heartbeat_interval_ms: u64,
    echo_bot_messages: bool,
    send_guild_create: bool,
    allowed_privileged_intents: u64,
    attachment_size_limit: u64,
    interaction_deadline: Option<Duration>,
    sharding: Sharding,
}

impl Default for FakeDiscordBuilder {
    fn default() -> Self {
        Self {
            token: "fake-bot-token.for-tests.only".into(),
            bot_name: "Xiangqi".into(),
            heartbeat_interval_ms: 41_250,
            echo_bot_messages: true,
            send_guild_create: true,
            allowed_privileged_intents: intents::PRIVILEGED,
            attachment_size_limit: 10 << 20,
            interaction_deadline: None,
            sharding: Sharding::default(),
        }
    }
}

impl FakeDiscordBuilder {
    pub fn token(mut self, token: &str) -> Self {
        self.token = token.into();
        self
    }
    pub fn bot_name(mut self, name: &str) -> Self {
        self.bot_name = name.into();
        self
    }
    /// The heartbeat interval sent in HELLO (Discord: about 41 s).
    pub fn heartbeat_interval(mut self, interval: Duration) -> Self {
        self.heartbeat_interval_ms = u64::try_from(interval.as_millis())
            .unwrap_or(u64::MAX)
            .max(1);
        self
    }
    /// Whether the bot's own messages come back as MESSAGE_CREATE / MESSAGE_UPDATE, as on Discord
    /// (default true).
    pub fn echo_bot_messages(mut self, echo: bool) -> Self {
        self.echo_bot_messages = echo;
        self
    }
    /// Whether GUILD_CREATE follows READY (default true).
    pub fn send_guild_create(mut self, send: bool) -> Self {
        self.send_guild_create = send;
        self
    }
    /// Privileged intents enabled "in the developer portal"; identifying with others closes the
    /// gateway with 4014 (default: all).
    pub fn allowed_privileged_intents(mut self, bits: u64) -> Self {
        self.allowed_privileged_intents = bits;
        self
    }
    /// Largest attachment accepted (default 10 MiB, Discord's limit without boosts); larger ones
    /// get 413 / 40005.
    /// Enforce Discord's deadline for the initial interaction response (3 s on Discord): a later
    /// callback gets 404 / 10062 "Unknown interaction". Off by default, since debug builds on a
    /// loaded CI machine can be slow for reasons a test does not mean to check.
    pub fn interaction_deadline(mut self, deadline: Duration) -> Self {
        self.interaction_deadline = Some(deadline);
        self
    }

    pub fn attachment_size_limit(mut self, bytes: u64) -> Self {
        self.attachment_size_limit = bytes;
        self
    }

    /// Bind `127.0.0.1:0` and serve.
    pub async fn start(self) -> FakeDiscord {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("fake discord: cannot bind 127.0.0.1:0");
        let addr = listener
            .local_addr()
            .expect("fake discord: no local address");
        let (changes, _) = watch::channel(0u64);
        let (shutdown, _) = watch::channel(false);
        let state = State_::new(self, addr);
        let inner = Arc::new(Inner {
            state: Mutex::new(state),
            changes,
            shutdown,
        });
        let app = Router::new()
            .route("/gateway", get(gateway_handler))
            .fallback(rest_handler)
            .layer(DefaultBodyLimit::max(MAX_BODY))
            .with_state(Arc::clone(&inner));
        let stop = shutdown_signal(inner.shutdown.subscribe());
        tokio::spawn(async move {
            let _ = axum::serve(listener, app)
                .with_graceful_shutdown(stop)
                .await;
        });
        FakeDiscord { inner, addr }
    }
}

// ---------------------------------------------------------------------------------------------
// The handle tests hold
// ---------------------------------------------------------------------------------------------

/// A running fake Discord. Thread-safe (`&self` everywhere); shuts down when dropped.
pub struct FakeDiscord {
    inner: Arc<Inner>,
    addr: SocketAddr,
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        let _ = self.inner.shutdown.send(true);
    }
}

impl FakeDiscord {
    /// Start with default settings.
    pub async fn start() -> FakeDiscord {
        FakeDiscordBuilder::default().start().await
    }

    pub fn builder() -> FakeDiscordBuilder {
        FakeDiscordBuilder::default()
    }

    fn st(&self) -> MutexGuard<'_, State_> {
        self.inner.lock()
    }

    /// The base URL to give `HttpBuilder::proxy`, e.g. `http://127.0.0.1:40123`.
    pub fn http_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The gateway URL the fake hands out, e.g. `ws://127.0.0.1:40123/gateway`.
    pub fn gateway_url(&self) -> String {
        format!("ws://{}/gateway", self.addr)
    }

    /// The bot token (without `Bot `).
    pub fn token(&self) -> String {
        self.st().cfg.token.clone()
    }

    pub fn application_id(&self) -> u64 {
        self.st().app_id
    }

    pub fn bot_user(&self) -> FakeUser {
        let st = self.st();
        st.users[&st.bot_id].clone()
    }

    pub fn guild_id(&self) -> u64 {
        self.st().guild_id
    }

    /// Gives member `user` the permission `bits` (see [`permissions`]) on top of
    /// `@everyone`'s, as a role would; interactions then carry them.
    pub fn grant(&self, user: u64, bits: u64) {
        *self.st().granted.entry(user).or_insert(0) |= bits;
    }

    /// The role the tests name as the tournament organisers' (no permissions of its own).
    pub fn organiser_role_id(&self) -> u64 {
        self.st().organiser_role_id
    }

    /// Give `user` the organisers' role.
    pub fn give_organiser_role(&self, user: u64) {
        let role = self.organiser_role_id();
        self.st().given_roles.entry(user).or_default().push(role);
    }

    /// The guild's `#general` text channel.
    pub fn channel_id(&self) -> u64 {
        self.st().general_id
    }

    /// A guild member that interactions and messages come from by default.
    pub fn tester(&self) -> FakeUser {
        let st = self.st();
        st.users[&st.tester_id].clone()
    }

    /// Add a human guild member.
    pub fn add_user(&self, name: &str) -> FakeUser {
        let user = self.st().add_user(name, false);
        self.inner.bump();
        user
    }

    /// Add a guild text channel (sends CHANNEL_CREATE to a connected bot).
    pub fn add_text_channel(&self, name: &str) -> u64 {
        let id = {
            let mut st = self.st();
            let id = st.next_id();
            let guild_id = st.guild_id;
            st.channels.insert(
                id,
                ChannelRec {
                    id,
                    kind: 0,
                    name: name.into(),
                    guild_id: Some(guild_id),
                    ..ChannelRec::default()
                },
            );
            let d = st.channel_json(id);
            st.dispatch("CHANNEL_CREATE", d);
            id
        };
        self.inner.bump();
        id
    }

    /// The DM channel between the bot and `user` (created on first use).
    pub fn dm_channel(&self, user: &FakeUser) -> u64 {
        let id = self.st().dm_channel_for(user.id);
        self.inner.bump();
        id
    }

    pub fn channel(&self, id: u64) -> Option<FakeChannel> {
        self.st().channels.get(&id).map(ChannelRec::public)
    }

    /// Threads created by the bot, oldest first.
    pub fn threads(&self) -> Vec<FakeChannel> {
        self.st()
            .channels
            .values()
            .filter(|c| c.kind == 11 || c.kind == 12)
            .map(ChannelRec::public)
            .collect()
    }

    // --- gateway injection ---------------------------------------------------------------------

    /// Inject a MESSAGE_CREATE from `author` in `channel_id` (a guild channel, thread or DM) and
    /// store the message. Returns the message id. `<@id>` mentions are resolved.
    pub fn push_message_create(&self, channel_id: u64, author: &FakeUser, content: &str) -> u64 {
        let res = self.st().inject_message(channel_id, author.id, content);
        self.inner.bump();
        match res {
            Ok(id) => id,
            Err(e) => panic!("push_message_create: {e}"),
        }
    }

    /// Inject an INTERACTION_CREATE; panics if a checked interaction does not fit what the bot
    /// registered or rendered (see [`FakeInteraction`]).
    pub fn push_interaction(&self, ix: FakeInteraction) -> InjectedInteraction {
        match self.try_push_interaction(ix) {
            Ok(i) => i,
            Err(e) => panic!("push_interaction: {e}"),
        }
    }

    /// Like [`Self::push_interaction`], returning the reason a checked interaction was refused.
    pub fn try_push_interaction(&self, ix: FakeInteraction) -> Result<InjectedInteraction, String> {
        let res = self.st().inject_interaction(ix);
        self.inner.bump();
        res
    }

    /// Inject any dispatch event (op 0) with the next sequence number.
    pub fn push_dispatch(&self, event: &str, data: Value) {
        self.st().dispatch(event, data);
        self.inner.bump();
    }

    /// Close every gateway connection with `code` (4000 lets serenity resume, 4004 is fatal).
    pub fn close_gateway(&self, code: u16, reason: &str) {
        let mut st = self.st();
        for s in st.sessions.values_mut() {
            // Detach now, so that events pushed from here on wait for the RESUME.
            if let Some(tx) = s.tx.take() {
                let _ = tx.send(Outgoing::Close(code, reason.to_string()));
            }
        }
    }

    // --- inspection ----------------------------------------------------------------------------

    /// Every REST call so far, in order.
    pub fn calls(&self) -> Vec<RecordedCall> {
        self.st().calls.clone()
    }

    /// The REST calls matching a route pattern like `POST /channels/*/messages`.
    pub fn calls_matching(&self, route: &str) -> Vec<RecordedCall> {
        let p = RoutePattern::parse(route);
        self.st()
            .calls
            .iter()
            .filter(|c| p.matches(&c.method, &c.path))
            .cloned()
            .collect()
    }

    pub fn message(&self, id: u64) -> Option<FakeMessage> {
        let st = self.st();
        st.messages.get(&id).map(|m| st.public_message(m))
    }

    /// The messages of a channel, oldest first (deleted ones included, flagged).
    pub fn messages(&self, channel_id: u64) -> Vec<FakeMessage> {
        let st = self.st();
        st.messages
            .values()
            .filter(|m| m.channel_id == channel_id)
            .map(|m| st.public_message(m))
            .collect()
    }

    /// Messages the bot sent or that answer interactions, oldest first.
    pub fn bot_messages(&self) -> Vec<FakeMessage> {
        let st = self.st();
        st.messages
            .values()
            .filter(|m| m.author_id == st.bot_id)
            .map(|m| st.public_message(m))
            .collect()
    }

    /// The bot's answers to an interaction (callback, webhook edits, follow-ups), in order.
    pub fn interaction_responses(&self, interaction_id: u64) -> Vec<InteractionResponse> {
        self.st()
            .interactions
            .get(&interaction_id)
            .map(|i| i.responses.clone())
            .unwrap_or_default()
    }

    /// Let interaction `id`'s token run out, as it does 15 minutes after the interaction was
    /// created: from now on its webhook routes (edits of the original response, follow-ups)
    /// answer 401 / 50027 "Invalid Webhook Token", as Discord's do.
    pub fn expire_interaction(&self, id: u64) {
        if let Some(i) = self.st().interactions.get_mut(&id) {
            i.expired = true;
        }
        self.inner.bump();
    }

    /// The message that is an interaction's original response, once there is one.
    pub fn original_response(&self, interaction_id: u64) -> Option<FakeMessage> {
        let st = self.st();
        let id = st.interactions.get(&interaction_id)?.original_message_id?;
        st.messages.get(&id).map(|m| st.public_message(m))
    }

    /// Registered application commands (global and guild), as Discord returns them; guild ones
    /// carry `guild_id`.
    pub fn registered_commands(&self) -> Vec<Value> {
        self.st().commands.iter().map(|c| c.body.clone()).collect()
    }

    pub fn global_commands(&self) -> Vec<Value> {
        self.st()
            .commands
            .iter()
            .filter(|c| c.guild_id.is_none())
            .map(|c| c.body.clone())
            .collect()
    }

    pub fn guild_commands(&self, guild_id: u64) -> Vec<Value> {
        self.st()
            .commands
            .iter()
            .filter(|c| c.guild_id == Some(guild_id))
            .map(|c| c.body.clone())
            .collect()
    }

    /// Every payload the bot sent over the gateway (IDENTIFY, heartbeats, presence updates…).
    pub fn gateway_received(&self) -> Vec<Value> {
        self.st().gateway_received.clone()
    }

    /// Every dispatch the fake sent, in order.
    pub fn dispatched(&self) -> Vec<SentDispatch> {
        self.st().dispatched.clone()
    }

    /// The `d` of the last IDENTIFY.
    pub fn identify_payload(&self) -> Option<Value> {
        self.st()
            .gateway_received
            .iter()
            .rev()
            .find(|v| v["op"] == 2)
            .map(|v| v["d"].clone())
    }

    pub fn identify_count(&self) -> usize {
        self.st()
            .gateway_received
            .iter()
            .filter(|v| v["op"] == 2)
            .count()
    }

    pub fn heartbeat_count(&self) -> usize {
        self.st()
            .gateway_received
            .iter()
            .filter(|v| v["op"] == 1)
            .count()
    }

    /// Whether a bot session is connected and identified.
    pub fn is_connected(&self) -> bool {
        self.st().sessions.values().any(|s| s.tx.is_some())
    }

    // --- failure injection ---------------------------------------------------------------------

    /// Answer the next call matching `route` (e.g. `POST /channels/*/messages`) with `status` and
    /// `body` instead of handling it.
    pub fn fail_next(&self, route: &str, status: u16, body: Value) {
        self.add_failure(route, status, body, 1, false);
    }

    /// Like [`Self::fail_next`], but only for a call that uploads files.
    pub fn fail_next_with_attachments(&self, route: &str, status: u16, body: Value) {
        self.add_failure(route, status, body, 1, true);
    }

    /// Fail the next `times` matching calls.
    pub fn fail_times(&self, route: &str, status: u16, body: Value, times: usize) {
        self.add_failure(route, status, body, times, false);
    }

    pub fn clear_failures(&self) {
        self.st().failures.clear();
    }

    fn add_failure(
        &self,
        route: &str,
        status: u16,
        body: Value,
        times: usize,
        only_with_files: bool,
    ) {
        self.st().failures.push(FailRule {
            pattern: RoutePattern::parse(route),
            status,
            body,
            remaining: times,
            only_with_files,
        });
    }

    /// Discord's body for 403 Missing Permissions (code 50013).
    pub fn missing_permissions() -> Value {
        json!({"message": "Missing Permissions", "code": 50013})
    }

    /// Discord's body for a 429 (the fake also sets `Retry-After` and `X-RateLimit-*`). Note that
    /// Discord's 429 body has no `code`, so serenity reports code -1 with status 429.
    pub fn rate_limited(retry_after_secs: f64) -> Value {
        json!({"message": "You are being rate limited.", "retry_after": retry_after_secs, "global": false})
    }

    // --- waiting -------------------------------------------------------------------------------

    /// Wait until `pred` holds (checked after every change), or `timeout`. Returns whether it held.
    pub async fn wait_for(
        &self,
        mut pred: impl FnMut(&FakeDiscord) -> bool,
        timeout: Duration,
    ) -> bool {
        let deadline = tokio::time::Instant::now() + timeout;
        let mut rx = self.inner.changes.subscribe();
        loop {
            rx.borrow_and_update();
            if pred(self) {
                return true;
            }
            match tokio::time::timeout_at(deadline, rx.changed()).await {
                Ok(Ok(())) => {}
                Ok(Err(_)) | Err(_) => return pred(self),
            }
        }
    }

    /// Wait until a bot has identified and received READY.
    pub async fn wait_for_ready(&self, timeout: Duration) -> bool {
        self.wait_for(|f| f.is_connected(), timeout).await
    }

    /// Wait for the `n`-th (1-based) call matching `route` and return it.
    pub async fn wait_for_call(
        &self,
        route: &str,
        n: usize,
        timeout: Duration,
    ) -> Option<RecordedCall> {
        self.wait_for(|f| f.calls_matching(route).len() >= n, timeout)
            .await;
        self.calls_matching(route)
            .into_iter()
            .nth(n.saturating_sub(1))
    }

    /// Wait until an interaction has at least `n` recorded answers and return them.
    pub async fn wait_for_interaction_responses(
        &self,
        interaction_id: u64,
        n: usize,
        timeout: Duration,
    ) -> Vec<InteractionResponse> {
        self.wait_for(
            |f| f.interaction_responses(interaction_id).len() >= n,
            timeout,
        )
        .await;
        self.interaction_responses(interaction_id)
    }
}

// ---------------------------------------------------------------------------------------------
// Internal state
// ---------------------------------------------------------------------------------------------

struct Inner {
    state: Mutex<State_>,
    changes: watch::Sender<u64>,
    shutdown: watch::Sender<bool>,
}

impl Inner {
    fn lock(&self) -> MutexGuard<'_, State_> {
        // A panic while holding the lock must not take every later call down with it.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
    fn bump(&self) {
        self.changes.send_modify(|v| *v = v.wrapping_add(1));
    }
}

enum Outgoing {
    Text(String),
    Close(u16, String),
}

/// How many dispatches a session keeps for replay on RESUME.
const RESUME_HISTORY: usize = 1000;

struct Session {
    /// The connection's outbox; `None` while disconnected (the session can still be resumed).
    tx: Option<mpsc::UnboundedSender<Outgoing>>,
    conn: u64,
    seq: u64,
    intents: u64,
    /// `[id, total]` from IDENTIFY, when the bot shards.
    shard: Option<(u64, u64)>,
    /// Recent dispatches (seq, event, data), replayed on RESUME after the client's seq.
    history: std::collections::VecDeque<(u64, String, Value)>,
}

#[derive(Clone, Debug, Default)]
struct ChannelRec {
    id: u64,
    kind: u64,
    name: String,
    guild_id: Option<u64>,
    parent_id: Option<u64>,
    recipient_id: Option<u64>,
    owner_id: Option<u64>,
    archived: bool,
    locked: bool,
    auto_archive_duration: u64,
    created_ms: u64,
    last_message_id: Option<u64>,
}

impl ChannelRec {
    fn public(&self) -> FakeChannel {
        FakeChannel {
            id: self.id,
            kind: self.kind,
            name: self.name.clone(),
            guild_id: self.guild_id,
            parent_id: self.parent_id,
            recipient_id: self.recipient_id,
            archived: self.archived,
            locked: self.locked,
        }
    }
    fn is_thread(&self) -> bool {
        self.kind == 11 || self.kind == 12
    }
}

#[derive(Clone, Debug)]
struct AttachmentRec {
    id: u64,
    filename: String,
    description: Option<String>,
    content_type: Option<String>,
    data: Arc<Vec<u8>>,
    width: Option<u32>,
    height: Option<u32>,
}

#[derive(Clone, Debug, Default)]
struct MessageRec {
    id: u64,
    channel_id: u64,
    author_id: u64,
    content: String,
    embeds: Vec<Value>,
    components: Vec<Value>,
    attachments: Vec<AttachmentRec>,
    flags: u64,
    kind: u64,
    tts: bool,
    created_ms: u64,
    edited_ms: Option<u64>,
    deleted: bool,
    reference: Option<u64>,
    nonce: Option<Value>,
    mentions: Vec<u64>,
    pinged: Vec<u64>,
    webhook_id: Option<u64>,
    interaction_id: Option<u64>,
    thread_id: Option<u64>,
    reactions: Vec<String>,
}

struct InteractionRec {
    id: u64,
    token: String,
    kind: u64,
    name: String,
    user_id: u64,
    channel_id: u64,
    source_message_id: Option<u64>,
    acked: bool,
    original_message_id: Option<u64>,
    followups: Vec<u64>,
    responses: Vec<InteractionResponse>,
    created: std::time::Instant,
    /// Its token is past its 15 minutes (see [`FakeDiscord::expire_interaction`]).
    expired: bool,
}

struct CommandRec {
    id: u64,
    guild_id: Option<u64>,
    body: Value,
}

struct FailRule {
    pattern: RoutePattern,
    status: u16,
    body: Value,
    remaining: usize,
    only_with_files: bool,
}

struct State_ {
    cfg: FakeDiscordBuilder,
    http_base: String,
    ws_url: String,
    last_id: u64,
    conn_counter: u64,
    bot_id: u64,
    app_id: u64,
    owner_id: u64,
    tester_id: u64,
    guild_id: u64,
    bot_role_id: u64,
    /// A role the tests name as the tournament organisers' (`DISCORD_TOURNAMENT_ROLE`).
    organiser_role_id: u64,
    /// Roles given to members (besides @everyone).
    given_roles: HashMap<u64, Vec<u64>>,
    general_id: u64,
    guild_created_ms: u64,
    users: BTreeMap<u64, FakeUser>,
    channels: BTreeMap<u64, ChannelRec>,
    messages: BTreeMap<u64, MessageRec>,
    interactions: BTreeMap<u64, InteractionRec>,
    commands: Vec<CommandRec>,
    calls: Vec<RecordedCall>,
    failures: Vec<FailRule>,
    sessions: HashMap<String, Session>,
    pending: Vec<(String, Value)>,
    dispatched: Vec<SentDispatch>,
    gateway_received: Vec<Value>,
    shard_state: shards::ShardState,
    /// Permission bits granted to members beyond `@everyone` (a role of their own).
    granted: HashMap<u64, u64>,
}

type ApiResult = Result<(u16, Value), ApiError>;

#[derive(Debug)]
struct ApiError {
    status: u16,
    body: Value,
}

fn api_error(status: u16, code: u64, message: &str) -> ApiError {
    ApiError {
        status,
        body: json!({"message": message, "code": code}),
    }
}

fn not_found() -> ApiError {
    api_error(404, 0, "404: Not Found")
}

fn method_not_allowed() -> ApiError {
    api_error(405, 0, "405: Method Not Allowed")
}

fn unknown_channel() -> ApiError {
    api_error(404, 10003, "Unknown Channel")
}

fn unknown_message() -> ApiError {
    api_error(404, 10008, "Unknown Message")
}

fn invalid_json() -> ApiError {
    api_error(400, 50109, "The request body contains invalid JSON.")
}

/// Discord's 50035 "Invalid Form Body" with the error nested at a dotted `path`.
fn form_error(path: &str, code: &str, message: &str) -> ApiError {
    let mut errors = json!({"_errors": [{"code": code, "message": message}]});
    if !path.is_empty() {
        for seg in path.rsplit('.') {
            let mut m = Map::new();
            m.insert(seg.to_string(), errors);
            errors = Value::Object(m);
        }
    }
    ApiError {
        status: 400,
        body: json!({"message": "Invalid Form Body", "code": 50035, "errors": errors}),
    }
}

fn join_path(prefix: &str, rest: &str) -> String {
    if prefix.is_empty() {
        rest.to_string()
    } else {
        format!("{prefix}.{rest}")
    }
}

fn snowflake(s: &str, field: &str) -> Result<u64, ApiError> {
    s.parse::<u64>().map_err(|_| {
        form_error(
            field,
            "NUMBER_TYPE_COERCE",
            &format!("Value \"{s}\" is not snowflake."),
        )
    })
}

/// A snowflake in a JSON body: a string or a number.
fn json_id(v: &Value) -> Option<u64> {
    match v {
        Value::String(s) => s.parse().ok(),
        Value::Number(n) => n.as_u64(),
        _ => None,
    }
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(DISCORD_EPOCH_MS)
}

fn snowflake_ms(id: u64) -> u64 {
    (id >> 22) + DISCORD_EPOCH_MS
}

/// An ISO 8601 timestamp as Discord writes them: `2024-05-01T12:00:00.123000+00:00`.
fn iso8601(ms: u64) -> String {
    let secs = ms / 1000;
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}000+00:00",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        ms % 1000
    )
}

/// Width and height of a PNG, GIF or JPEG, read from its header.
fn image_size(data: &[u8]) -> Option<(u32, u32)> {
    if data.len() >= 24 && data.starts_with(b"\x89PNG\r\n\x1a\n") && &data[12..16] == b"IHDR" {
        let w = u32::from_be_bytes([data[16], data[17], data[18], data[19]]);
        let h = u32::from_be_bytes([data[20], data[21], data[22], data[23]]);
        return Some((w, h));
    }
    if data.len() >= 10 && (data.starts_with(b"GIF87a") || data.starts_with(b"GIF89a")) {
        return Some((
            u32::from(u16::from_le_bytes([data[6], data[7]])),
            u32::from(u16::from_le_bytes([data[8], data[9]])),
        ));
    }
    if data.len() >= 4 && data[0] == 0xFF && data[1] == 0xD8 {
        let mut i = 2;
        while i + 9 < data.len() {
            if data[i] != 0xFF {
                return None;
            }
            let marker = data[i + 1];
            let len = usize::from(u16::from_be_bytes([data[i + 2], data[i + 3]]));
            if (0xC0..=0xCF).contains(&marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            {
                let h = u32::from(u16::from_be_bytes([data[i + 5], data[i + 6]]));
                let w = u32::from(u16::from_be_bytes([data[i + 7], data[i + 8]]));
                return Some((w, h));
            }
            i += 2 + len;
        }
    }
    None
}

fn guess_content_type(filename: &str) -> Option<String> {
    let ext = filename.rsplit('.').next()?.to_ascii_lowercase();
    let t = match ext.as_str() {
        "png" => "image/png",
        "gif" => "image/gif",
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        "svg" => "image/svg+xml",
        "txt" => "text/plain; charset=utf-8",
        "json" => "application/json",
        "pgn" => "application/vnd.chess-pgn",
        _ => return None,
    };
    Some(t.to_string())
}

impl State_ {
    fn new(cfg: FakeDiscordBuilder, addr: SocketAddr) -> Self {
        let now = now_ms();
        let mut st = State_ {
            http_base: format!("http://{addr}"),
            ws_url: format!("ws://{addr}/gateway"),
            cfg,
            last_id: 0,
            conn_counter: 0,
            bot_id: 0,
            app_id: 0,
            owner_id: 0,
            granted: HashMap::new(),
            tester_id: 0,
            guild_id: 0,
            bot_role_id: 0,
            organiser_role_id: 0,
            given_roles: HashMap::new(),
            general_id: 0,
            guild_created_ms: now,
            users: BTreeMap::new(),
            channels: BTreeMap::new(),
            messages: BTreeMap::new(),
            interactions: BTreeMap::new(),
            commands: Vec::new(),
            calls: Vec::new(),
            failures: Vec::new(),
            sessions: HashMap::new(),
            pending: Vec::new(),
            dispatched: Vec::new(),
            gateway_received: Vec::new(),
            shard_state: shards::ShardState::default(),
        };
        let bot_name = st.cfg.bot_name.clone();
        st.bot_id = st.add_user(&bot_name, true).id;
        // Since 2020 a bot's user id is its application's id.
        st.app_id = st.bot_id;
        st.owner_id = st.add_user("guild-owner", false).id;
        st.tester_id = st.add_user("tester", false).id;
        st.guild_id = st.next_id();
        st.bot_role_id = st.next_id();
        st.organiser_role_id = st.next_id();
        st.general_id = st.next_id();
        let (guild_id, general_id) = (st.guild_id, st.general_id);
        st.channels.insert(
            general_id,
            ChannelRec {
                id: general_id,
                kind: 0,
                name: "general".into(),
                guild_id: Some(guild_id),
                ..ChannelRec::default()
            },
        );
        st
    }

    fn next_id(&mut self) -> u64 {
        let candidate = now_ms().saturating_sub(DISCORD_EPOCH_MS) << 22;
        self.last_id = candidate.max(self.last_id + 1);
        self.last_id
    }

    fn add_user(&mut self, name: &str, bot: bool) -> FakeUser {
        let id = self.next_id();
        let user = FakeUser {
            id,
            name: name.into(),
            bot,
        };
        self.users.insert(id, user.clone());
        user
    }

    fn dm_channel_for(&mut self, user_id: u64) -> u64 {
        if let Some(c) = self
            .channels
            .values()
            .find(|c| c.kind == 1 && c.recipient_id == Some(user_id))
        {
            return c.id;
        }
        let id = self.next_id();
        self.channels.insert(
            id,
            ChannelRec {
                id,
                kind: 1,
                recipient_id: Some(user_id),
                ..ChannelRec::default()
            },
        );
        id
    }

    fn attachment_url(&self, channel_id: u64, a: &AttachmentRec) -> String {
        format!(
            "{}/attachments/{channel_id}/{}/{}",
            self.http_base, a.id, a.filename
        )
    }

    // --- JSON shapes ---------------------------------------------------------------------------

    fn user_json(&self, id: u64) -> Value {
        let (name, bot) = self
            .users
            .get(&id)
            .map(|u| (u.name.clone(), u.bot))
            .unwrap_or_else(|| ("unknown".into(), false));
        json!({
            "id": id.to_string(),
            "username": name,
            "discriminator": "0",
            "global_name": if bot { Value::Null } else { json!(name) },
            "avatar": null,
            "bot": bot,
            "public_flags": 0,
            "flags": 0,
            "banner": null,
            "accent_color": null,
        })
    }

    fn current_user_json(&self) -> Value {
        let mut u = self.user_json(self.bot_id);
        u["verified"] = json!(true);
        u["mfa_enabled"] = json!(false);
        u["email"] = Value::Null;
        u["locale"] = json!("en-US");
        u
    }

    fn member_roles(&self, user_id: u64) -> Vec<String> {
        if user_id == self.bot_id {
            vec![self.bot_role_id.to_string()]
        } else {
            self.given_roles
                .get(&user_id)
                .map(|r| r.iter().map(u64::to_string).collect())
                .unwrap_or_default()
        }
    }

    fn member_permissions(&self, user_id: u64) -> u64 {
        if user_id == self.owner_id {
            (1u64 << 51) - 1
        } else if user_id == self.bot_id {
            permissions::BOT_ROLE
        } else {
            permissions::EVERYONE | self.granted.get(&user_id).copied().unwrap_or(0)
        }
    }

    /// A guild member object; `with_user` adds `user` (absent in MESSAGE_CREATE's `member`).
    fn member_json(&self, user_id: u64, with_user: bool) -> Value {
        let mut m = json!({
            "nick": null,
            "avatar": null,
            "banner": null,
            "roles": self.member_roles(user_id),
            "joined_at": iso8601(self.guild_created_ms),
            "premium_since": null,
            "deaf": false,
            "mute": false,
            "flags": 0,
            "pending": false,
            "communication_disabled_until": null,
        });
        if with_user {
            m["user"] = self.user_json(user_id);
        }
        m
    }

    fn role_json(id: u64, name: &str, perms: u64, position: u64, managed: bool) -> Value {
        json!({
            "id": id.to_string(),
            "name": name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
            "hoist": false,
            "icon": null,
            "unicode_emoji": null,
            "position": position,
            "permissions": perms.to_string(),
            "managed": managed,
            "mentionable": false,
            "flags": 0,
        })
    }

    fn channel_json(&self, id: u64) -> Value {
        let Some(c) = self.channels.get(&id) else {
            return Value::Null;
        };
        if c.kind == 1 {
            return json!({
                "id": c.id.to_string(),
                "type": 1,
                "last_message_id": c.last_message_id.map(|m| m.to_string()),
                "flags": 0,
                "recipients": [self.user_json(c.recipient_id.unwrap_or(0))],
            });
        }
        let mut v = json!({
            "id": c.id.to_string(),
            "type": c.kind,
            "guild_id": c.guild_id.map(|g| g.to_string()),
            "name": c.name,
            "position": 0,
            "permission_overwrites": [],
            "parent_id": c.parent_id.map(|p| p.to_string()),
            "nsfw": false,
            "last_message_id": c.last_message_id.map(|m| m.to_string()),
            "rate_limit_per_user": 0,
            "flags": 0,
        });
        if c.kind == 0 {
            v["topic"] = Value::Null;
        }
        if c.is_thread() {
            let count = self
                .messages
                .values()
                .filter(|m| m.channel_id == c.id && !m.deleted)
                .count();
            v["owner_id"] = json!(c.owner_id.map(|o| o.to_string()));
            v["message_count"] = json!(count);
            v["total_message_sent"] = json!(count);
            v["member_count"] = json!(1);
            v["thread_metadata"] = json!({
                "archived": c.archived,
                "auto_archive_duration": c.auto_archive_duration,
                "archive_timestamp": iso8601(c.created_ms),
                "locked": c.locked,
                "create_timestamp": iso8601(c.created_ms),
            });
        }
        v
    }

    fn guild_json(&self) -> Value {
        let members: Vec<Value> = self
            .users
            .keys()
            .map(|&id| self.member_json(id, true))
            .collect();
        let channels = self.guild_channels_json(self.guild_id);
        let threads: Vec<Value> = self
            .channels
            .values()
            .filter(|c| c.is_thread() && !c.archived)
            .map(|c| self.channel_json(c.id))
            .collect();
        let mut g = json!({
            "id": self.guild_id.to_string(),
            "name": "Xiangqi Test Guild",
            "icon": null, "icon_hash": null, "splash": null, "discovery_splash": null,
            "owner_id": self.owner_id.to_string(),
            "afk_channel_id": null, "afk_timeout": 300,
            "widget_enabled": false, "widget_channel_id": null,
            "verification_level": 0, "default_message_notifications": 1, "explicit_content_filter": 0,
            "roles": [
                Self::role_json(self.guild_id, "@everyone", permissions::EVERYONE, 0, false),
                Self::role_json(self.bot_role_id, &self.cfg.bot_name, permissions::BOT_ROLE, 1, true),
                Self::role_json(self.organiser_role_id, "Tournament organisers", 0, 2, false),
            ],
            "emojis": [], "features": [], "mfa_level": 0, "application_id": null,
            "system_channel_id": self.general_id.to_string(), "system_channel_flags": 0,
            "rules_channel_id": null, "max_presences": null, "max_members": 500_000,
            "vanity_url_code": null, "description": null, "banner": null,
        });
        let extra = json!({
            "premium_tier": 0, "premium_subscription_count": 0, "preferred_locale": "en-US",
            "public_updates_channel_id": null, "max_video_channel_users": 25,
            "max_stage_video_channel_users": 50, "nsfw_level": 0, "nsfw": false, "stickers": [],
            "premium_progress_bar_enabled": false, "safety_alerts_channel_id": null,
            "incidents_data": null, "joined_at": iso8601(self.guild_created_ms), "large": false,
            "unavailable": false, "member_count": members.len(), "voice_states": [],
        });
        let create_extra = json!({
            "members": members, "channels": channels, "threads": threads, "presences": [],
            "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
            "lazy": true,
        });
        if let Some(obj) = g.as_object_mut() {
            for part in [extra, create_extra] {
                if let Value::Object(m) = part {
                    obj.extend(m);
                }
            }
        }
        g
    }

    fn attachment_json(&self, channel_id: u64, a: &AttachmentRec) -> Value {
        let url = self.attachment_url(channel_id, a);
        json!({
            "id": a.id.to_string(),
            "filename": a.filename,
            "description": a.description,
            "content_type": a.content_type,
            "size": a.data.len(),
            "url": url,
            "proxy_url": url,
            "width": a.width,
            "height": a.height,
        })
    }

    /// Embeds as Discord returns them: `type` filled in, `attachment://name` resolved.
    fn render_embed(&self, m: &MessageRec, embed: &Value) -> Value {
        let mut e = embed.clone();
        if let Some(obj) = e.as_object_mut() {
            obj.entry("type").or_insert(json!("rich"));
            for key in ["image", "thumbnail"] {
                let Some(media) = obj.get_mut(key).and_then(Value::as_object_mut) else {
                    continue;
                };
                let Some(name) = media
                    .get("url")
                    .and_then(Value::as_str)
                    .and_then(|u| u.strip_prefix("attachment://"))
                else {
                    continue;
                };
                if let Some(a) = m.attachments.iter().find(|a| a.filename == name) {
                    let url = self.attachment_url(m.channel_id, a);
                    media.insert("url".into(), json!(url));
                    media.insert("proxy_url".into(), json!(url));
                    media.insert("width".into(), json!(a.width));
                    media.insert("height".into(), json!(a.height));
                }
            }
        }
        e
    }

    /// A message object as REST returns it (`gateway` adds `guild_id` and `member`).
    fn message_json(&self, m: &MessageRec, gateway: bool) -> Value {
        let mut v = json!({
            "id": m.id.to_string(),
            "channel_id": m.channel_id.to_string(),
            "author": self.user_json(m.author_id),
            "content": m.content,
            "timestamp": iso8601(m.created_ms),
            "edited_timestamp": m.edited_ms.map(iso8601),
            "tts": m.tts,
            "mention_everyone": false,
            "mentions": m.mentions.iter().map(|&u| self.user_json(u)).collect::<Vec<_>>(),
            "mention_roles": [],
            "attachments": m.attachments.iter().map(|a| self.attachment_json(m.channel_id, a)).collect::<Vec<_>>(),
            "embeds": m.embeds.iter().map(|e| self.render_embed(m, e)).collect::<Vec<_>>(),
            "pinned": false,
            "type": m.kind,
            "flags": m.flags,
            "components": m.components,
        });
        if let Some(n) = &m.nonce {
            v["nonce"] = n.clone();
        }
        if let Some(w) = m.webhook_id {
            v["webhook_id"] = json!(w.to_string());
            v["application_id"] = json!(self.app_id.to_string());
        }
        if let Some(r) = m.reference {
            v["message_reference"] = json!({
                "type": 0,
                "message_id": r.to_string(),
                "channel_id": m.channel_id.to_string(),
                "guild_id": self.channels.get(&m.channel_id).and_then(|c| c.guild_id).map(|g| g.to_string()),
            });
            v["referenced_message"] = match self.messages.get(&r) {
                Some(rm) if !rm.deleted => self.message_json(rm, false),
                _ => Value::Null,
            };
        }
        if let Some(ix) = m.interaction_id.and_then(|i| self.interactions.get(&i)) {
            if ix.kind == 2 {
                v["interaction"] = json!({
                    "id": ix.id.to_string(),
                    "type": ix.kind,
                    "name": ix.name,
                    "user": self.user_json(ix.user_id),
                });
            }
        }
        if let Some(t) = m.thread_id {
            v["thread"] = self.channel_json(t);
        }
        if gateway {
            if let Some(g) = self.channels.get(&m.channel_id).and_then(|c| c.guild_id) {
                v["guild_id"] = json!(g.to_string());
                if m.webhook_id.is_none() {
                    v["member"] = self.member_json(m.author_id, false);
                }
            }
        }
        v
    }

    fn public_message(&self, m: &MessageRec) -> FakeMessage {
        FakeMessage {
            id: m.id,
            channel_id: m.channel_id,
            author_id: m.author_id,
            content: m.content.clone(),
            embeds: m.embeds.clone(),
            components: m.components.clone(),
            attachments: m
                .attachments
                .iter()
                .map(|a| FakeAttachment {
                    id: a.id,
                    filename: a.filename.clone(),
                    description: a.description.clone(),
                    content_type: a.content_type.clone(),
                    data: a.data.as_ref().clone(),
                    width: a.width,
                    height: a.height,
                    url: self.attachment_url(m.channel_id, a),
                })
                .collect(),
            flags: m.flags,
            kind: m.kind,
            edited: m.edited_ms.is_some(),
            deleted: m.deleted,
            reference: m.reference,
            interaction_id: m.interaction_id,
            thread_id: m.thread_id,
            reactions: m.reactions.clone(),
            mentions: m.mentions.clone(),
            pinged: m.pinged.clone(),
        }
    }

    // --- gateway -------------------------------------------------------------------------------

    /// Send a dispatch to every session (a disconnected one gets it on RESUME), or queue it until
    /// a bot identifies.
    fn dispatch(&mut self, event: &str, data: Value) {
        let ids: Vec<String> = self
            .sessions
            .keys()
            .filter(|id| self.session_gets(id, event, &data))
            .cloned()
            .collect();
        if ids.is_empty() {
            self.pending.push((event.to_string(), data));
            return;
        }
        for id in ids {
            self.deliver(&id, event, &data);
        }
    }

    /// The intent an event needs, and whether its content needs MESSAGE_CONTENT.
    fn event_filter(&self, event: &str, data: &Value) -> (Option<u64>, bool) {
        match event {
            "MESSAGE_CREATE" | "MESSAGE_UPDATE" | "MESSAGE_DELETE" => {
                let is_dm = data.get("guild_id").is_none_or(Value::is_null);
                let intent = if is_dm {
                    intents::DIRECT_MESSAGES
                } else {
                    intents::GUILD_MESSAGES
                };
                let author = data.pointer("/author/id").and_then(json_id);
                let bot_mentioned =
                    data.get("mentions")
                        .and_then(Value::as_array)
                        .is_some_and(|ms| {
                            ms.iter()
                                .any(|u| u.get("id").and_then(json_id) == Some(self.bot_id))
                        });
                let needs_content = !is_dm && author != Some(self.bot_id) && !bot_mentioned;
                (Some(intent), needs_content)
            }
            "GUILD_CREATE" | "GUILD_UPDATE" | "GUILD_DELETE" | "CHANNEL_CREATE"
            | "CHANNEL_UPDATE" | "CHANNEL_DELETE" | "THREAD_CREATE" | "THREAD_UPDATE"
            | "THREAD_DELETE" => (Some(intents::GUILDS), false),
            "MESSAGE_REACTION_ADD" | "MESSAGE_REACTION_REMOVE" => {
                (Some(intents::GUILD_MESSAGE_REACTIONS), false)
            }
            "TYPING_START" => (Some(intents::GUILD_MESSAGE_TYPING), false),
            _ => (None, false),
        }
    }

    fn deliver(&mut self, session_id: &str, event: &str, data: &Value) {
        let (intent, needs_content) = self.event_filter(event, data);
        let Some(s) = self.sessions.get_mut(session_id) else {
            return;
        };
        if intent.is_some_and(|i| s.intents & i == 0) {
            return;
        }
        let mut d = data.clone();
        if needs_content && s.intents & intents::MESSAGE_CONTENT == 0 {
            if let Some(obj) = d.as_object_mut() {
                obj.insert("content".into(), json!(""));
                obj.insert("embeds".into(), json!([]));
                obj.insert("attachments".into(), json!([]));
                obj.insert("components".into(), json!([]));
                obj.remove("poll");
            }
        }
        s.seq += 1;
        let seq = s.seq;
        s.history.push_back((seq, event.to_string(), d.clone()));
        if s.history.len() > RESUME_HISTORY {
            s.history.pop_front();
        }
        let shard = s.shard;
        let Some(tx) = s.tx.clone() else { return };
        self.record_delivery(shard, event, &d);
        self.send_dispatch(&tx, seq, event, d);
    }

    fn send_dispatch(
        &mut self,
        tx: &mpsc::UnboundedSender<Outgoing>,
        seq: u64,
        event: &str,
        d: Value,
    ) {
        let frame = json!({"op": 0, "s": seq, "t": event, "d": d});
        let _ = tx.send(Outgoing::Text(frame.to_string()));
        self.dispatched.push(SentDispatch {
            seq,
            event: event.to_string(),
            data: d,
        });
    }

    fn flush_pending(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        for (event, data) in pending {
            self.dispatch(&event, data);
        }
    }

    fn check_token(&self, token: &str) -> bool {
        let t = token.strip_prefix("Bot ").unwrap_or(token);
        t == self.cfg.token
    }

    /// Handle one frame from a bot. Returns a close code and reason to end the connection.
    fn handle_gateway_frame(
        &mut self,
        conn: u64,
        tx: &mpsc::UnboundedSender<Outgoing>,
        session: &mut Option<String>,
        text: &str,
    ) -> Option<(u16, String)> {
        let Ok(v) = serde_json::from_str::<Value>(text) else {
            return Some((4002, "Error while decoding payload.".into()));
        };
        self.gateway_received.push(v.clone());
        let Some(op) = v.get("op").and_then(Value::as_u64) else {
            return Some((4002, "Error while decoding payload.".into()));
        };
        let d = v.get("d").cloned().unwrap_or(Value::Null);
        match op {
            1 => {
                let _ = tx.send(Outgoing::Text(
                    json!({"op": 11, "d": null, "s": null, "t": null}).to_string(),
                ));
                None
            }
            2 => self.identify(conn, tx, session, &d),
            6 => self.resume(conn, tx, session, &d),
            3 | 4 | 8 | 14 | 31 if session.is_none() => Some((4003, "Not authenticated.".into())),
            3 | 4 | 8 | 14 | 31 => None,
            _ => Some((4001, "Unknown opcode.".into())),
        }
    }

    fn identify(
        &mut self,
        conn: u64,
        tx: &mpsc::UnboundedSender<Outgoing>,
        session: &mut Option<String>,
        d: &Value,
    ) -> Option<(u16, String)> {
        if session.is_some() {
            return Some((4005, "Already authenticated.".into()));
        }
        if !d
            .get("token")
            .and_then(Value::as_str)
            .is_some_and(|t| self.check_token(t))
        {
            return Some((4004, "Authentication failed.".into()));
        }
        let Some(intents) = d.get("intents").and_then(Value::as_u64) else {
            return Some((4002, "Error while decoding payload.".into()));
        };
        if intents & intents::PRIVILEGED & !self.cfg.allowed_privileged_intents != 0 {
            return Some((4014, "Disallowed intent(s).".into()));
        }
        let shard = d.get("shard").and_then(Value::as_array).cloned();
        if let Some(refusal) = self.check_identify(d.get("shard")) {
            return Self::refuse(tx, refusal);
        }
        let shard_pair = shard
            .as_ref()
            .and_then(|sh| Some((sh.first()?.as_u64()?, sh.get(1)?.as_u64()?)));
        let session_id = format!(
            "{:032x}",
            self.next_id().wrapping_mul(0x9E37_79B9_7F4A_7C15)
        );
        self.sessions.insert(
            session_id.clone(),
            Session {
                tx: Some(tx.clone()),
                conn,
                seq: 0,
                intents,
                shard: shard_pair,
                history: std::collections::VecDeque::new(),
            },
        );
        *session = Some(session_id.clone());
        let app_flags: u64 = if self.cfg.allowed_privileged_intents & intents::MESSAGE_CONTENT != 0
        {
            1 << 18
        } else {
            0
        };
        let mut ready = json!({
            "v": 10,
            "user": self.current_user_json(),
            "guilds": self.ready_guilds(shard_pair),
            "session_id": session_id,
            "resume_gateway_url": self.ws_url,
            "application": {"id": self.app_id.to_string(), "flags": app_flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": ["local"],
            "user_settings": {},
        });
        if let Some(sh) = shard {
            ready["shard"] = Value::Array(sh);
        }
        self.deliver(&session_id, "READY", &ready);
        if self.cfg.send_guild_create {
            for guild in self.guild_creates(shard_pair) {
                self.deliver(&session_id, "GUILD_CREATE", &guild);
            }
        }
        self.flush_pending();
        None
    }

    fn resume(
        &mut self,
        conn: u64,
        tx: &mpsc::UnboundedSender<Outgoing>,
        session: &mut Option<String>,
        d: &Value,
    ) -> Option<(u16, String)> {
        if !d
            .get("token")
            .and_then(Value::as_str)
            .is_some_and(|t| self.check_token(t))
        {
            return Some((4004, "Authentication failed.".into()));
        }
        let sid = d
            .get("session_id")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let client_seq = d.get("seq").and_then(Value::as_u64).unwrap_or(0);
        match self.sessions.get_mut(&sid) {
            // The old connection may not have noticed it is gone yet: the new one takes over.
            Some(s) => {
                s.tx = Some(tx.clone());
                s.conn = conn;
                *session = Some(sid.clone());
                let missed: Vec<(u64, String, Value)> = s
                    .history
                    .iter()
                    .filter(|(seq, _, _)| *seq > client_seq)
                    .cloned()
                    .collect();
                for (seq, event, data) in missed {
                    self.send_dispatch(tx, seq, &event, data);
                }
                self.flush_pending();
                self.deliver(&sid, "RESUMED", &json!({}));
                None
            }
            _ => {
                let _ = tx.send(Outgoing::Text(
                    json!({"op": 9, "d": false, "s": null, "t": null}).to_string(),
                ));
                None
            }
        }
    }

    /// A connection ended. Its session stays resumable unless the bot closed with 1000 or 1001
    /// (a log-off, which on Discord invalidates the session).
    fn end_connection(&mut self, conn: u64, logged_off: bool) {
        if logged_off {
            self.sessions.retain(|_, s| s.conn != conn);
        }
        for s in self.sessions.values_mut() {
            if s.conn == conn {
                s.tx = None;
            }
        }
    }

    // --- injection -----------------------------------------------------------------------------

    fn mentions_in(&self, content: &str) -> Vec<u64> {
        let mut out = Vec::new();
        let mut rest = content;
        while let Some(i) = rest.find("<@") {
            rest = &rest[i + 2..];
            let body = rest.strip_prefix('!').unwrap_or(rest);
            if let Some(end) = body.find('>') {
                if let Ok(id) = body[..end].parse::<u64>() {
                    if self.users.contains_key(&id) && !out.contains(&id) {
                        out.push(id);
                    }
                }
            }
        }
        out
    }

    fn inject_message(
        &mut self,
        channel_id: u64,
        author_id: u64,
        content: &str,
    ) -> Result<u64, String> {
        if !self.channels.contains_key(&channel_id) {
            return Err(format!("unknown channel {channel_id}"));
        }
        if !self.users.contains_key(&author_id) {
            return Err(format!("unknown user {author_id}"));
        }
        let id = self.next_id();
        let m = MessageRec {
            id,
            channel_id,
            author_id,
            content: content.to_string(),
            created_ms: snowflake_ms(id),
            mentions: self.mentions_in(content),
            ..MessageRec::default()
        };
        let d = self.message_json(&m, true);
        self.messages.insert(id, m);
        if let Some(c) = self.channels.get_mut(&channel_id) {
            c.last_message_id = Some(id);
        }
        self.dispatch("MESSAGE_CREATE", d);
        Ok(id)
    }

    fn find_command(&self, name: &str, kind: u64, in_guild: bool) -> Option<&CommandRec> {
        let matches = |c: &&CommandRec| {
            c.body.get("name").and_then(Value::as_str) == Some(name)
                && c.body.get("type").and_then(Value::as_u64) == Some(kind)
        };
        let guild = if in_guild {
            self.commands
                .iter()
                .find(|c| c.guild_id == Some(self.guild_id) && matches(c))
        } else {
            None
        };
        guild.or_else(|| {
            self.commands
                .iter()
                .find(|c| c.guild_id.is_none() && matches(c))
        })
    }

    fn inject_interaction(&mut self, ix: FakeInteraction) -> Result<InjectedInteraction, String> {
        let user_id = ix.user.as_ref().map_or(self.tester_id, |u| u.id);
        if !self.users.contains_key(&user_id) {
            return Err(format!("unknown user {user_id}"));
        }
        let id = self.next_id();
        let token = format!(
            "ixtoken-{id:x}-{:x}",
            id.wrapping_mul(0x2545_F491_4F6C_DD1D)
        );
        let (kind, name, data, source_message_id, channel_id) = match &ix.kind {
            IxKind::Command { name, options } | IxKind::Autocomplete { name, options } => {
                let autocomplete = matches!(ix.kind, IxKind::Autocomplete { .. });
                let channel_id = ix.channel_id.unwrap_or(self.general_id);
                let channel = self
                    .channels
                    .get(&channel_id)
                    .ok_or_else(|| format!("unknown channel {channel_id}"))?;
                let in_guild = channel.guild_id.is_some();
                let cmd = self.find_command(name, 1, in_guild);
                let (cmd_id, cmd_guild) = match cmd {
                    Some(c) => {
                        if ix.checked {
                            validate_invocation(&c.body, options, autocomplete)?;
                        }
                        (c.id, c.guild_id)
                    }
                    None if ix.checked => {
                        return Err(format!(
                            "no chat-input command named {name:?} is registered"
                        ))
                    }
                    None => (self.next_id(), None),
                };
                let mut users = Vec::new();
                for o in options {
                    o.users(&mut users);
                }
                let mut resolved = Map::new();
                if !users.is_empty() {
                    let mut us = Map::new();
                    let mut ms = Map::new();
                    for u in &users {
                        us.insert(u.id.to_string(), self.user_json(u.id));
                        if in_guild {
                            let mut m = self.member_json(u.id, false);
                            m["permissions"] = json!(self.member_permissions(u.id).to_string());
                            ms.insert(u.id.to_string(), m);
                        }
                    }
                    resolved.insert("users".into(), Value::Object(us));
                    if in_guild {
                        resolved.insert("members".into(), Value::Object(ms));
                    }
                }
                let mut data = json!({
                    "id": cmd_id.to_string(),
                    "name": name,
                    "type": 1,
                    "options": options.iter().map(CmdOpt::to_json).collect::<Vec<_>>(),
                    "resolved": resolved,
                });
                if let Some(g) = cmd_guild {
                    data["guild_id"] = json!(g.to_string());
                }
                (
                    if autocomplete { 4 } else { 2 },
                    name.clone(),
                    data,
                    None,
                    channel_id,
                )
            }
            IxKind::Component {
                message_id,
                custom_id,
                component_type,
                values,
            } => {
                let m = self
                    .messages
                    .get(message_id)
                    .filter(|m| !m.deleted)
                    .ok_or_else(|| format!("unknown message {message_id}"))?;
                if ix.checked {
                    check_component(m, custom_id, *component_type, values)?;
                }
                let mut data = json!({"custom_id": custom_id, "component_type": component_type});
                if *component_type != 2 {
                    data["values"] = json!(values);
                }
                (3, String::new(), data, Some(*message_id), m.channel_id)
            }
        };
        let channel = self
            .channels
            .get(&channel_id)
            .ok_or_else(|| format!("unknown channel {channel_id}"))?
            .clone();
        let mut v = json!({
            "id": id.to_string(),
            "application_id": self.app_id.to_string(),
            "type": kind,
            "data": data,
            "channel_id": channel_id.to_string(),
            "token": token,
            "version": 1,
            "app_permissions": self.member_permissions(self.bot_id).to_string(),
            "locale": ix.locale,
            "entitlements": [],
            "attachment_size_limit": self.cfg.attachment_size_limit,
        });
        let mut partial_channel =
            json!({"id": channel_id.to_string(), "type": channel.kind, "name": channel.name});
        if let Some(g) = channel.guild_id {
            let mut member = self.member_json(user_id, true);
            member["permissions"] = json!(self.member_permissions(user_id).to_string());
            v["guild_id"] = json!(g.to_string());
            v["guild_locale"] = json!("en-US");
            v["guild"] = json!({"id": g.to_string(), "locale": "en-US", "features": []});
            v["member"] = member;
            v["authorizing_integration_owners"] = json!({"0": g.to_string()});
            v["context"] = json!(0);
            partial_channel["guild_id"] = json!(g.to_string());
            partial_channel["permissions"] = json!(self.member_permissions(user_id).to_string());
            if let Some(p) = channel.parent_id {
                partial_channel["parent_id"] = json!(p.to_string());
            }
        } else {
            v["user"] = self.user_json(user_id);
            v["authorizing_integration_owners"] = json!({"0": "0"});
            v["context"] = json!(1);
            partial_channel["recipients"] = json!([self.user_json(user_id)]);
        }
        v["channel"] = partial_channel;
        if let Some(mid) = source_message_id {
            if let Some(m) = self.messages.get(&mid) {
                v["message"] = self.message_json(m, false);
            }
        }
        self.interactions.insert(
            id,
            InteractionRec {
                id,
                token: token.clone(),
                kind,
                name,
                user_id,
                channel_id,
                source_message_id,
                acked: false,
                original_message_id: None,
                followups: Vec::new(),
                responses: Vec::new(),
                created: std::time::Instant::now(),
                expired: false,
            },
        );
        self.dispatch("INTERACTION_CREATE", v);
        Ok(InjectedInteraction { id, token })
    }

    fn take_failure(&mut self, method: &str, path: &str, has_files: bool) -> Option<ApiError> {
        let i = self.failures.iter().position(|f| {
            f.remaining > 0 && (!f.only_with_files || has_files) && f.pattern.matches(method, path)
        })?;
        let f = &mut self.failures[i];
        f.remaining -= 1;
        let err = ApiError {
            status: f.status,
            body: f.body.clone(),
        };
        if f.remaining == 0 {
            self.failures.remove(i);
        }
        Some(err)
    }
}

/// Check an invocation against a registered command's options, as Discord's client guarantees.
fn validate_invocation(cmd: &Value, opts: &[CmdOpt], autocomplete: bool) -> Result<(), String> {
    let empty = Vec::new();
    let schema = cmd
        .get("options")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    let focused = count_focused(opts);
    if autocomplete && focused != 1 {
        return Err(format!(
            "an autocomplete interaction needs exactly one focused option, got {focused}"
        ));
    }
    if !autocomplete && focused != 0 {
        return Err("only autocomplete interactions have a focused option".into());
    }
    validate_options(schema, opts, autocomplete, "")
}

fn count_focused(opts: &[CmdOpt]) -> usize {
    opts.iter()
        .map(|o| usize::from(o.focused) + count_focused(&o.options))
        .sum()
}

fn validate_options(
    schema: &[Value],
    opts: &[CmdOpt],
    autocomplete: bool,
    at: &str,
) -> Result<(), String> {
    let has_subs = schema
        .iter()
        .any(|s| matches!(s.get("type").and_then(Value::as_u64), Some(1 | 2)));
    if has_subs && opts.len() != 1 {
        return Err(format!(
            "{at}: exactly one subcommand or group must be given"
        ));
    }
    for o in opts {
        let s = schema
            .iter()
            .find(|s| s.get("name").and_then(Value::as_str) == Some(o.name.as_str()))
            .ok_or_else(|| format!("{at}: option {:?} is not registered", o.name))?;
        let kind = s.get("type").and_then(Value::as_u64).unwrap_or(0);
        let path = format!("{at}/{}", o.name);
        if kind != o.kind {
            return Err(format!(
                "{path}: registered with type {kind}, invoked with type {}",
                o.kind
            ));
        }
        if kind <= 2 {
            let empty = Vec::new();
            let sub = s.get("options").and_then(Value::as_array).unwrap_or(&empty);
            validate_options(sub, &o.options, autocomplete, &path)?;
            continue;
        }
        if o.focused
            && !s
                .get("autocomplete")
                .and_then(Value::as_bool)
                .unwrap_or(false)
        {
            return Err(format!(
                "{path}: focused but not registered with autocomplete"
            ));
        }
        if !o.focused {
            check_value_bounds(s, o, &path)?;
        }
        if let (false, Some(choices)) = (o.focused, s.get("choices").and_then(Value::as_array)) {
            if !choices.is_empty() && !choices.iter().any(|c| c.get("value") == o.value.as_ref()) {
                return Err(format!(
                    "{path}: value {:?} is not one of the registered choices",
                    o.value
                ));
            }
        }
    }
    if !autocomplete {
        for s in schema {
            let required = s.get("required").and_then(Value::as_bool).unwrap_or(false);
            let name = s.get("name").and_then(Value::as_str).unwrap_or_default();
            if required && !opts.iter().any(|o| o.name == name) {
                return Err(format!("{at}: required option {name:?} is missing"));
            }
        }
    }
    Ok(())
}

/// An option's value as Discord's client guarantees it: an INTEGER (4) is a whole number
/// within the safe range, a NUMBER (10) a number; both within `min_value`/`max_value`; a
/// STRING (3) within `min_length`/`max_length`.
fn check_value_bounds(schema: &Value, o: &CmdOpt, path: &str) -> Result<(), String> {
    const SAFE: f64 = 9_007_199_254_740_991.0;
    let value = o.value.as_ref();
    match o.kind {
        4 | 10 => {
            let n = value
                .and_then(Value::as_f64)
                .ok_or_else(|| format!("{path}: {value:?} is not a number"))?;
            if o.kind == 4 && (n.fract() != 0.0 || n.abs() > SAFE) {
                return Err(format!("{path}: {n} is not a valid integer"));
            }
            if let Some(min) = schema.get("min_value").and_then(Value::as_f64) {
                if n < min {
                    return Err(format!("{path}: {n} is below min_value {min}"));
                }
            }
            if let Some(max) = schema.get("max_value").and_then(Value::as_f64) {
                if n > max {
                    return Err(format!("{path}: {n} is above max_value {max}"));
                }
            }
        }
        3 => {
            let len = value
                .and_then(Value::as_str)
                .map_or(0, |t| t.chars().count());
            let bound = |k: &str| schema.get(k).and_then(Value::as_u64).map(|b| b as usize);
            if bound("min_length").is_some_and(|min| len < min)
                || bound("max_length").is_some_and(|max| len > max)
            {
                return Err(format!(
                    "{path}: a text of {len} characters is out of bounds"
                ));
            }
        }
        _ => {}
    }
    Ok(())
}

/// Check that a click hits an enabled component of the message.
fn check_component(
    m: &MessageRec,
    custom_id: &str,
    component_type: u64,
    values: &[String],
) -> Result<(), String> {
    let comp = m
        .components
        .iter()
        .flat_map(|row| {
            row.get("components")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
        })
        .find(|c| c.get("custom_id").and_then(Value::as_str) == Some(custom_id))
        .ok_or_else(|| {
            format!(
                "message {} has no component with custom_id {custom_id:?}",
                m.id
            )
        })?;
    if comp
        .get("disabled")
        .and_then(Value::as_bool)
        .unwrap_or(false)
    {
        return Err(format!("component {custom_id:?} is disabled"));
    }
    let kind = comp.get("type").and_then(Value::as_u64).unwrap_or(0);
    if kind != component_type {
        return Err(format!(
            "component {custom_id:?} has type {kind}, not {component_type}"
        ));
    }
    if kind == 3 {
        let empty = Vec::new();
        let options = comp
            .get("options")
            .and_then(Value::as_array)
            .unwrap_or(&empty);
        for v in values {
            if !options
                .iter()
                .any(|o| o.get("value").and_then(Value::as_str) == Some(v.as_str()))
            {
                return Err(format!("select {custom_id:?} has no option {v:?}"));
            }
        }
        let min = comp.get("min_values").and_then(Value::as_u64).unwrap_or(1);
        let max = comp.get("max_values").and_then(Value::as_u64).unwrap_or(1);
        let n = values.len() as u64;
        if n < min || n > max {
            return Err(format!(
                "select {custom_id:?} takes {min}..={max} values, got {n}"
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Route patterns
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct RoutePattern {
    method: Option<String>,
    segs: Vec<String>,
}

impl RoutePattern {
    fn parse(route: &str) -> Self {
        let route = route.trim();
        let (method, path) = match route.split_once(' ') {
            Some((m, p)) => (Some(m.trim().to_ascii_uppercase()), p.trim()),
            None if !route.starts_with('/') => (Some(route.to_ascii_uppercase()), "/**"),
            None => (None, route),
        };
        let path = path.split('?').next().unwrap_or_default();
        let path = path.strip_prefix("/api/v10").unwrap_or(path);
        let segs = path
            .split('/')
            .filter(|s| !s.is_empty())
            .map(|s| {
                if s.starts_with('{') && s.ends_with('}') {
                    "*".to_string()
                } else {
                    s.to_string()
                }
            })
            .collect();
        Self { method, segs }
    }

    fn matches(&self, method: &str, path: &str) -> bool {
        if self
            .method
            .as_deref()
            .is_some_and(|m| !m.eq_ignore_ascii_case(method))
        {
            return false;
        }
        let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        fn go(pat: &[String], segs: &[&str]) -> bool {
            match pat.split_first() {
                None => segs.is_empty(),
                Some((p, _)) if p == "**" => true,
                Some((p, rest)) => match segs.split_first() {
                    Some((s, srest)) => (p == "*" || p == s) && go(rest, srest),
                    None => false,
                },
            }
        }
        go(&self.segs, &segs)
    }
}

// ---------------------------------------------------------------------------------------------
// HTTP plumbing
// ---------------------------------------------------------------------------------------------

#[derive(Default)]
struct ParsedBody {
    json: Option<Value>,
    files: Vec<UploadedFile>,
}

async fn read_body(req: Request) -> Result<ParsedBody, ApiError> {
    let content_type = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_ascii_lowercase();
    if content_type.starts_with("multipart/form-data") {
        let bad = || api_error(400, 0, "400: Bad Request");
        let mut mp = Multipart::from_request(req, &()).await.map_err(|_| bad())?;
        let mut out = ParsedBody::default();
        while let Some(field) = mp.next_field().await.map_err(|_| bad())? {
            let name = field.name().unwrap_or_default().to_string();
            let filename = field.file_name().map(str::to_string);
            let ct = field.content_type().map(str::to_string);
            let data = field.bytes().await.map_err(|_| bad())?;
            if name == "payload_json" {
                out.json = Some(serde_json::from_slice(&data).map_err(|_| invalid_json())?);
            } else if let Some(filename) = filename {
                out.files.push(UploadedFile {
                    field: name,
                    filename,
                    content_type: ct,
                    data: data.to_vec(),
                });
            } else if let Ok(text) = std::str::from_utf8(&data) {
                // Plain form fields (Discord accepts them instead of payload_json).
                let obj = out.json.get_or_insert_with(|| json!({}));
                if let Some(o) = obj.as_object_mut() {
                    o.insert(name, json!(text));
                }
            }
        }
        return Ok(out);
    }
    let bytes = axum::body::to_bytes(req.into_body(), MAX_BODY)
        .await
        .map_err(|_| api_error(413, 40005, "Request entity too large"))?;
    if bytes.is_empty() {
        return Ok(ParsedBody::default());
    }
    let json = serde_json::from_slice(&bytes).map_err(|_| invalid_json())?;
    Ok(ParsedBody {
        json: Some(json),
        files: Vec::new(),
    })
}

fn json_response(status: u16, body: &Value, extra: &[(&str, String)]) -> Response {
    let code = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut resp = if status == 204 {
        Response::new(Body::empty())
    } else {
        let mut r = Response::new(Body::from(body.to_string()));
        r.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        r
    };
    *resp.status_mut() = code;
    for (k, v) in extra {
        if let (Ok(name), Ok(value)) = (
            header::HeaderName::from_bytes(k.as_bytes()),
            HeaderValue::from_str(v),
        ) {
            resp.headers_mut().insert(name, value);
        }
    }
    resp
}

async fn rest_handler(State(inner): State<Arc<Inner>>, req: Request) -> Response {
    let method = req.method().as_str().to_ascii_uppercase();
    let full_path = req.uri().path().to_string();
    let query = req.uri().query().map(str::to_string);
    let auth = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);

    if let Some(rest) = full_path.strip_prefix("/attachments/") {
        return serve_attachment(&inner, rest);
    }
    let Some(path) = full_path.strip_prefix("/api/v10") else {
        return json_response(404, &not_found().body, &[]);
    };
    let path = if path.is_empty() {
        "/".to_string()
    } else {
        path.to_string()
    };

    let parsed = read_body(req).await;
    let (status, body) = {
        let mut st = inner.lock();
        let (json_body, files) = match &parsed {
            Ok(p) => (p.json.clone(), p.files.clone()),
            Err(_) => (None, Vec::new()),
        };
        let public = method == "GET" && path == "/gateway";
        let result = if !public
            && auth
                .as_deref()
                .is_none_or(|a| a.strip_prefix("Bot ").is_none_or(|t| t != st.cfg.token))
        {
            Err(api_error(401, 0, "401: Unauthorized"))
        } else if let Some(f) = st.take_failure(&method, &path, !files.is_empty()) {
            Err(f)
        } else {
            match &parsed {
                Err(e) => Err(ApiError {
                    status: e.status,
                    body: e.body.clone(),
                }),
                Ok(p) => route(&mut st, &method, &path, query.as_deref(), p),
            }
        };
        let (status, body) = match result {
            Ok((s, b)) => (s, b),
            Err(e) => (e.status, e.body),
        };
        st.calls.push(RecordedCall {
            method: method.clone(),
            path: path.clone(),
            query: query.clone(),
            json: json_body,
            files,
            status,
            response: body.clone(),
        });
        (status, body)
    };
    inner.bump();
    let mut extra = Vec::new();
    if status == 429 {
        let retry = body
            .get("retry_after")
            .and_then(Value::as_f64)
            .unwrap_or(1.0);
        extra.push(("retry-after", format!("{}", retry.ceil() as u64)));
        extra.push(("x-ratelimit-limit", "5".into()));
        extra.push(("x-ratelimit-remaining", "0".into()));
        extra.push(("x-ratelimit-reset-after", format!("{retry:.3}")));
        extra.push(("x-ratelimit-scope", "user".into()));
        extra.push(("x-ratelimit-global", "false".into()));
    }
    json_response(status, &body, &extra)
}

fn serve_attachment(inner: &Inner, rest: &str) -> Response {
    let parts: Vec<&str> = rest.split('/').collect();
    let found = match parts.as_slice() {
        [_, id, _] => id.parse::<u64>().ok().and_then(|id| {
            let st = inner.lock();
            st.messages
                .values()
                .flat_map(|m| m.attachments.iter())
                .find(|a| a.id == id)
                .cloned()
        }),
        _ => None,
    };
    match found {
        Some(a) => {
            let mut r = Response::new(Body::from(a.data.as_ref().clone()));
            let ct = a
                .content_type
                .clone()
                .unwrap_or_else(|| "application/octet-stream".into());
            if let Ok(v) = HeaderValue::from_str(&ct) {
                r.headers_mut().insert(header::CONTENT_TYPE, v);
            }
            r
        }
        None => (StatusCode::NOT_FOUND, "Not Found").into_response(),
    }
}

// ---------------------------------------------------------------------------------------------
// REST routes
// ---------------------------------------------------------------------------------------------

fn route(
    st: &mut State_,
    method: &str,
    path: &str,
    query: Option<&str>,
    body: &ParsedBody,
) -> ApiResult {
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    match segs.as_slice() {
        ["gateway"] => match method {
            "GET" => Ok((200, json!({"url": st.ws_url}))),
            _ => Err(method_not_allowed()),
        },
        ["gateway", "bot"] => match method {
            "GET" => Ok((200, st.gateway_bot())),
            _ => Err(method_not_allowed()),
        },
        ["users", "@me"] => match method {
            "GET" => Ok((200, st.current_user_json())),
            _ => Err(method_not_allowed()),
        },
        ["users", "@me", "channels"] => match method {
            "POST" => {
                let recipient = body
                    .json
                    .as_ref()
                    .and_then(|j| j.get("recipient_id"))
                    .and_then(json_id);
                match recipient {
                    Some(r) if st.users.contains_key(&r) && r != st.bot_id => {
                        let id = st.dm_channel_for(r);
                        Ok((200, st.channel_json(id)))
                    }
                    _ => Err(api_error(400, 50033, "Invalid Recipient(s)")),
                }
            }
            _ => Err(method_not_allowed()),
        },
        ["users", id] => match method {
            "GET" => {
                let id = snowflake(id, "user_id")?;
                if st.users.contains_key(&id) {
                    Ok((200, st.user_json(id)))
                } else {
                    Err(api_error(404, 10013, "Unknown User"))
                }
            }
            _ => Err(method_not_allowed()),
        },
        ["oauth2", "applications", "@me"] | ["applications", "@me"] => match method {
            "GET" => Ok((200, application_json(st))),
            _ => Err(method_not_allowed()),
        },
        ["applications", app, "commands"] => {
            check_app(st, app)?;
            commands_collection(st, method, None, body)
        }
        ["applications", app, "commands", cmd] => {
            check_app(st, app)?;
            let cmd = snowflake(cmd, "command_id")?;
            command_item(st, method, None, cmd, body)
        }
        ["applications", app, "guilds", guild, "commands"] => {
            check_app(st, app)?;
            let g = check_guild(st, guild)?;
            commands_collection(st, method, Some(g), body)
        }
        ["applications", app, "guilds", guild, "commands", cmd] => {
            check_app(st, app)?;
            let g = check_guild(st, guild)?;
            let cmd = snowflake(cmd, "command_id")?;
            command_item(st, method, Some(g), cmd, body)
        }
        ["guilds", guild, "members", user] => match method {
            "GET" => {
                check_guild(st, guild)?;
                let u = snowflake(user, "user_id")?;
                if st.users.contains_key(&u) {
                    Ok((200, st.member_json(u, true)))
                } else {
                    Err(api_error(404, 10007, "Unknown Member"))
                }
            }
            _ => Err(method_not_allowed()),
        },
        ["guilds", guild, "channels"] => match method {
            "GET" => {
                let g = check_guild(st, guild)?;
                Ok((200, Value::Array(st.guild_channels_json(g))))
            }
            _ => Err(method_not_allowed()),
        },
        ["channels", ch] => {
            let ch = channel_of(st, ch)?;
            match method {
                "GET" => Ok((200, st.channel_json(ch))),
                "PATCH" => edit_channel(st, ch, body),
                "DELETE" => delete_thread(st, ch),
                _ => Err(method_not_allowed()),
            }
        }
        ["channels", ch, "messages"] => {
            let ch = channel_of(st, ch)?;
            match method {
                "POST" => create_channel_message(st, ch, body),
                "GET" => {
                    let limit = query_param(query, "limit")
                        .and_then(|l| l.parse::<usize>().ok())
                        .unwrap_or(50)
                        .clamp(1, 100);
                    let list: Vec<Value> = st
                        .messages
                        .values()
                        .rev()
                        .filter(|m| m.channel_id == ch && !m.deleted && m.flags & 64 == 0)
                        .take(limit)
                        .map(|m| st.message_json(m, false))
                        .collect();
                    Ok((200, Value::Array(list)))
                }
                _ => Err(method_not_allowed()),
            }
        }
        ["channels", ch, "messages", mid] => {
            let ch = channel_of(st, ch)?;
            let mid = snowflake(mid, "message_id")?;
            let exists = st
                .messages
                .get(&mid)
                .is_some_and(|m| m.channel_id == ch && !m.deleted && m.flags & 64 == 0);
            if !exists {
                return Err(unknown_message());
            }
            match method {
                "GET" => Ok((200, st.message_json(&st.messages[&mid], false))),
                "PATCH" => {
                    if st.messages[&mid].author_id != st.bot_id {
                        return Err(api_error(
                            403,
                            50005,
                            "Cannot edit a message authored by another user",
                        ));
                    }
                    edit_message(st, mid, body).map(|v| (200, v))
                }
                "DELETE" => {
                    delete_message(st, mid);
                    Ok((204, Value::Null))
                }
                _ => Err(method_not_allowed()),
            }
        }
        ["channels", ch, "messages", mid, "reactions", emoji, "@me"] => {
            let ch = channel_of(st, ch)?;
            let mid = snowflake(mid, "message_id")?;
            let emoji = percent_decode(emoji);
            let Some(m) = st
                .messages
                .get_mut(&mid)
                .filter(|m| m.channel_id == ch && !m.deleted)
            else {
                return Err(unknown_message());
            };
            match method {
                "PUT" => {
                    if !m.reactions.contains(&emoji) {
                        m.reactions.push(emoji);
                    }
                    Ok((204, Value::Null))
                }
                "DELETE" => {
                    m.reactions.retain(|r| *r != emoji);
                    Ok((204, Value::Null))
                }
                _ => Err(method_not_allowed()),
            }
        }
        ["channels", ch, "typing"] => {
            channel_of(st, ch)?;
            match method {
                "POST" => Ok((204, Value::Null)),
                _ => Err(method_not_allowed()),
            }
        }
        ["channels", ch, "threads"] => {
            let ch = channel_of(st, ch)?;
            match method {
                "POST" => create_thread(st, ch, None, body),
                _ => Err(method_not_allowed()),
            }
        }
        ["channels", ch, "messages", mid, "threads"] => {
            let ch = channel_of(st, ch)?;
            let mid = snowflake(mid, "message_id")?;
            match method {
                "POST" => create_thread(st, ch, Some(mid), body),
                _ => Err(method_not_allowed()),
            }
        }
        ["channels", ch, "thread-members", "@me"] => {
            let ch = channel_of(st, ch)?;
            if !st.channels[&ch].is_thread() {
                return Err(api_error(
                    400,
                    50024,
                    "Cannot execute action on this channel type",
                ));
            }
            match method {
                "PUT" | "DELETE" => Ok((204, Value::Null)),
                _ => Err(method_not_allowed()),
            }
        }
        ["interactions", id, token, "callback"] => match method {
            "POST" => {
                let id = snowflake(id, "interaction_id")?;
                interaction_callback(st, id, token, body)
            }
            _ => Err(method_not_allowed()),
        },
        ["webhooks", app, token] => match method {
            "POST" => {
                let ix = webhook_interaction(st, app, token)?;
                followup(st, ix, body)
            }
            _ => Err(method_not_allowed()),
        },
        ["webhooks", app, token, "messages", which] => {
            let ix = webhook_interaction(st, app, token)?;
            webhook_message(st, ix, which, method, body)
        }
        _ => Err(not_found()),
    }
}

fn query_param<'a>(query: Option<&'a str>, key: &str) -> Option<&'a str> {
    query?
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v)
}

fn percent_decode(s: &str) -> String {
    fn hex(b: u8) -> Option<u8> {
        match b {
            b'0'..=b'9' => Some(b - b'0'),
            b'a'..=b'f' => Some(b - b'a' + 10),
            b'A'..=b'F' => Some(b - b'A' + 10),
            _ => None,
        }
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push(h * 16 + l);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn check_app(st: &State_, app: &str) -> Result<(), ApiError> {
    let app = snowflake(app, "application_id")?;
    if app == st.app_id {
        Ok(())
    } else {
        Err(api_error(403, 50001, "Missing Access"))
    }
}

fn check_guild(st: &State_, guild: &str) -> Result<u64, ApiError> {
    let g = snowflake(guild, "guild_id")?;
    if st.is_guild(g) {
        Ok(g)
    } else {
        Err(api_error(404, 10004, "Unknown Guild"))
    }
}

fn channel_of(st: &State_, ch: &str) -> Result<u64, ApiError> {
    let ch = snowflake(ch, "channel_id")?;
    if st.channels.contains_key(&ch) {
        Ok(ch)
    } else {
        Err(unknown_channel())
    }
}

fn application_json(st: &State_) -> Value {
    json!({
        "id": st.app_id.to_string(),
        "name": st.cfg.bot_name,
        "icon": null,
        "description": "",
        "summary": "",
        "type": null,
        "hook": true,
        "bot_public": true,
        "bot_require_code_grant": false,
        "verify_key": "0".repeat(64),
        "owner": st.user_json(st.owner_id),
        "team": null,
        "flags": 0,
        "bot": st.user_json(st.bot_id),
        "rpc_origins": [],
        "redirect_uris": [],
        "interactions_endpoint_url": null,
        "role_connections_verification_url": null,
        "tags": [],
        "approximate_guild_count": 1,
    })
}

// --- application commands ------------------------------------------------------------------------

/// The locales Discord accepts in `*_localizations`.
const DISCORD_LOCALES: &[&str] = &[
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
    "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th",
    "zh-CN", "ja", "zh-TW", "ko",
];

fn is_valid_name(name: &str, lowercase: bool) -> bool {
    let n = name.chars().count();
    (1..=32).contains(&n)
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_' || (!lowercase && c == ' '))
        && (!lowercase || name.chars().all(|c| !c.is_uppercase()))
}

/// Validate a command definition and return it as Discord stores it.
fn normalize_command(
    st: &mut State_,
    input: &Value,
    guild: Option<u64>,
    at: &str,
    keep_id: Option<u64>,
) -> Result<Value, ApiError> {
    let Some(obj) = input.as_object() else {
        return Err(form_error(
            at,
            "MODEL_TYPE_CONVERT",
            "Only dictionaries may be used in a ModelType",
        ));
    };
    let kind = obj.get("type").and_then(Value::as_u64).unwrap_or(1);
    if !(1..=4).contains(&kind) {
        return Err(form_error(
            &join_path(at, "type"),
            "BASE_TYPE_CHOICES",
            "Value must be one of {1, 2, 3, 4}.",
        ));
    }
    let name = obj.get("name").and_then(Value::as_str).unwrap_or_default();
    if !is_valid_name(name, kind == 1) {
        return Err(form_error(
            &join_path(at, "name"),
            "APPLICATION_COMMAND_INVALID_NAME",
            "Command name is invalid",
        ));
    }
    if let Some(names) = obj.get("name_localizations").filter(|v| !v.is_null()) {
        let Some(names) = names.as_object() else {
            return Err(form_error(
                &join_path(at, "name_localizations"),
                "DICT_TYPE_CONVERT",
                "Only dictionaries may be used in a DictType",
            ));
        };
        for (locale, n) in names {
            let here = join_path(&join_path(at, "name_localizations"), locale);
            if !DISCORD_LOCALES.contains(&locale.as_str()) {
                return Err(form_error(&here, "LOCALE_INVALID", "Invalid locale"));
            }
            if !n.as_str().is_some_and(|n| is_valid_name(n, kind == 1)) {
                return Err(form_error(
                    &here,
                    "APPLICATION_COMMAND_INVALID_NAME",
                    "Command name is invalid",
                ));
            }
        }
    }
    let description = obj
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let dlen = description.chars().count();
    if kind == 1 && !(1..=100).contains(&dlen) {
        return Err(form_error(
            &join_path(at, "description"),
            "BASE_TYPE_BAD_LENGTH",
            "Must be between 1 and 100 in length.",
        ));
    }
    if kind != 1 && dlen != 0 {
        return Err(form_error(
            &join_path(at, "description"),
            "APPLICATION_COMMAND_INVALID_DESCRIPTION",
            "Only chat input commands have a description.",
        ));
    }
    let empty = Vec::new();
    let options = obj
        .get("options")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    if kind != 1 && !options.is_empty() {
        return Err(form_error(
            &join_path(at, "options"),
            "APPLICATION_COMMAND_OPTIONS_INVALID",
            "Only chat input commands have options.",
        ));
    }
    validate_command_options(options, &join_path(at, "options"), 0)?;
    let id = keep_id.unwrap_or_else(|| st.next_id());
    let version = st.next_id();
    let mut out = json!({
        "id": id.to_string(),
        "application_id": st.app_id.to_string(),
        "version": version.to_string(),
        "default_member_permissions": obj.get("default_member_permissions").cloned().unwrap_or(Value::Null),
        "type": kind,
        "name": name,
        "name_localizations": obj.get("name_localizations").cloned().unwrap_or(Value::Null),
        "description": description,
        "description_localizations": obj.get("description_localizations").cloned().unwrap_or(Value::Null),
        "dm_permission": obj.get("dm_permission").cloned().unwrap_or(json!(true)),
        "contexts": obj.get("contexts").cloned().unwrap_or(Value::Null),
        "integration_types": obj.get("integration_types").cloned().unwrap_or(json!([0])),
        "nsfw": obj.get("nsfw").and_then(Value::as_bool).unwrap_or(false),
    });
    if !options.is_empty() {
        out["options"] = Value::Array(options.clone());
    }
    if let Some(g) = guild {
        out["guild_id"] = json!(g.to_string());
    }
    Ok(out)
}

fn validate_command_options(options: &[Value], at: &str, depth: u32) -> Result<(), ApiError> {
    if options.len() > 25 {
        return Err(form_error(
            at,
            "BASE_TYPE_MAX_LENGTH",
            "Must be 25 or fewer in length.",
        ));
    }
    let mut names = Vec::new();
    let mut seen_optional = false;
    let mut subs = 0;
    for (i, o) in options.iter().enumerate() {
        let here = format!("{at}.{i}");
        let kind = o.get("type").and_then(Value::as_u64).unwrap_or(0);
        if !(1..=11).contains(&kind) {
            return Err(form_error(
                &join_path(&here, "type"),
                "BASE_TYPE_CHOICES",
                "Value must be one of {1..11}.",
            ));
        }
        let name = o.get("name").and_then(Value::as_str).unwrap_or_default();
        if !is_valid_name(name, true) {
            return Err(form_error(
                &join_path(&here, "name"),
                "APPLICATION_COMMAND_INVALID_NAME",
                "Command name is invalid",
            ));
        }
        if names.contains(&name) {
            return Err(form_error(
                &join_path(&here, "name"),
                "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                "Option names must be unique",
            ));
        }
        names.push(name);
        let dlen = o
            .get("description")
            .and_then(Value::as_str)
            .map_or(0, |d| d.chars().count());
        if !(1..=100).contains(&dlen) {
            return Err(form_error(
                &join_path(&here, "description"),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            ));
        }
        let required = o.get("required").and_then(Value::as_bool).unwrap_or(false);
        if kind <= 2 {
            subs += 1;
            let allowed_depth = if kind == 2 { 0 } else { 1 };
            if depth > allowed_depth {
                return Err(form_error(
                    &join_path(&here, "type"),
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "Subcommands cannot be nested here.",
                ));
            }
            let empty = Vec::new();
            let sub = o.get("options").and_then(Value::as_array).unwrap_or(&empty);
            if kind == 2
                && sub
                    .iter()
                    .any(|s| s.get("type").and_then(Value::as_u64) != Some(1))
            {
                return Err(form_error(
                    &join_path(&here, "options"),
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "A group may only contain subcommands.",
                ));
            }
            validate_command_options(
                sub,
                &join_path(&here, "options"),
                depth + if kind == 2 { 1 } else { 2 },
            )?;
            continue;
        }
        if required && seen_optional {
            return Err(form_error(
                &join_path(&here, "required"),
                "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                "Required options must be placed before non-required options",
            ));
        }
        seen_optional |= !required;
        let min = o.get("min_value").and_then(Value::as_f64);
        let max = o.get("max_value").and_then(Value::as_f64);
        if (min.is_some() || max.is_some()) && !matches!(kind, 4 | 10) {
            return Err(form_error(
                &join_path(&here, "min_value"),
                "APPLICATION_COMMAND_OPTION_INVALID",
                "min_value and max_value are only for INTEGER and NUMBER options.",
            ));
        }
        if let (Some(lo), Some(hi)) = (min, max) {
            if lo > hi {
                return Err(form_error(
                    &join_path(&here, "max_value"),
                    "NUMBER_TYPE_MIN",
                    "max_value must not be below min_value.",
                ));
            }
        }
        let choices = o
            .get("choices")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        if choices > 25 {
            return Err(form_error(
                &join_path(&here, "choices"),
                "BASE_TYPE_MAX_LENGTH",
                "Must be 25 or fewer in length.",
            ));
        }
        if choices > 0
            && o.get("autocomplete")
                .and_then(Value::as_bool)
                .unwrap_or(false)
        {
            return Err(form_error(
                &join_path(&here, "autocomplete"),
                "APPLICATION_COMMAND_OPTION_CHOICES_AUTOCOMPLETE",
                "Autocomplete cannot be set with choices.",
            ));
        }
    }
    if subs > 0 && subs != options.len() {
        return Err(form_error(
            at,
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            "Subcommands cannot be mixed with other options.",
        ));
    }
    Ok(())
}

fn command_key(v: &Value) -> (String, u64) {
    (
        v.get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        v.get("type").and_then(Value::as_u64).unwrap_or(1),
    )
}

fn commands_collection(
    st: &mut State_,
    method: &str,
    guild: Option<u64>,
    body: &ParsedBody,
) -> ApiResult {
    match method {
        "GET" => {
            let list: Vec<Value> = st
                .commands
                .iter()
                .filter(|c| c.guild_id == guild)
                .map(|c| c.body.clone())
                .collect();
            Ok((200, Value::Array(list)))
        }
        "PUT" => {
            let Some(items) = body.json.as_ref().and_then(Value::as_array) else {
                return Err(form_error("", "BASE_TYPE_ARRAY", "Must be an array."));
            };
            if items.len() > 100 {
                return Err(form_error(
                    "",
                    "BASE_TYPE_MAX_LENGTH",
                    "Must be 100 or fewer in length.",
                ));
            }
            let mut seen = Vec::new();
            let mut seen_localized: Vec<(String, String)> = Vec::new();
            let mut out = Vec::new();
            for (i, item) in items.iter().enumerate() {
                let key = command_key(item);
                // A name in a locale is unique among the commands of that kind there, as the
                // commands' own names are.
                let localized: Vec<(String, String)> = item
                    .get("name_localizations")
                    .and_then(Value::as_object)
                    .into_iter()
                    .flatten()
                    .filter_map(|(l, n)| Some((l.clone(), n.as_str()?.to_string())))
                    .collect();
                if localized.iter().any(|l| seen_localized.contains(l)) {
                    return Err(form_error(
                        &i.to_string(),
                        "APPLICATION_COMMANDS_DUPLICATE_NAME",
                        "Application command names must be unique",
                    ));
                }
                seen_localized.extend(localized);
                if seen.contains(&key) {
                    return Err(form_error(
                        &i.to_string(),
                        "APPLICATION_COMMANDS_DUPLICATE_NAME",
                        "Application command names must be unique",
                    ));
                }
                seen.push(key.clone());
                let keep = st
                    .commands
                    .iter()
                    .find(|c| c.guild_id == guild && command_key(&c.body) == key)
                    .map(|c| c.id);
                let norm = normalize_command(st, item, guild, &i.to_string(), keep)?;
                out.push(norm);
            }
            st.commands.retain(|c| c.guild_id != guild);
            for v in &out {
                let id = v.get("id").and_then(json_id).unwrap_or_default();
                st.commands.push(CommandRec {
                    id,
                    guild_id: guild,
                    body: v.clone(),
                });
            }
            Ok((200, Value::Array(out)))
        }
        "POST" => {
            let Some(item) = body.json.as_ref() else {
                return Err(form_error(
                    "",
                    "BASE_TYPE_REQUIRED",
                    "This field is required",
                ));
            };
            let key = command_key(item);
            let existing = st
                .commands
                .iter()
                .position(|c| c.guild_id == guild && command_key(&c.body) == key);
            if existing.is_none()
                && st.commands.iter().filter(|c| c.guild_id == guild).count() >= 100
            {
                return Err(api_error(
                    400,
                    30032,
                    "Maximum number of application commands reached (100)",
                ));
            }
            let keep = existing.map(|i| st.commands[i].id);
            let norm = normalize_command(st, item, guild, "", keep)?;
            let id = norm.get("id").and_then(json_id).unwrap_or_default();
            match existing {
                Some(i) => {
                    st.commands[i].body = norm.clone();
                    Ok((200, norm))
                }
                None => {
                    st.commands.push(CommandRec {
                        id,
                        guild_id: guild,
                        body: norm.clone(),
                    });
                    Ok((201, norm))
                }
            }
        }
        _ => Err(method_not_allowed()),
    }
}

fn command_item(
    st: &mut State_,
    method: &str,
    guild: Option<u64>,
    id: u64,
    body: &ParsedBody,
) -> ApiResult {
    let Some(i) = st
        .commands
        .iter()
        .position(|c| c.guild_id == guild && c.id == id)
    else {
        return Err(api_error(404, 10063, "Unknown application command"));
    };
    match method {
        "GET" => Ok((200, st.commands[i].body.clone())),
        "DELETE" => {
            st.commands.remove(i);
            Ok((204, Value::Null))
        }
        "PATCH" => {
            let mut merged = st.commands[i].body.clone();
            if let (Some(m), Some(patch)) = (
                merged.as_object_mut(),
                body.json.as_ref().and_then(Value::as_object),
            ) {
                for (k, v) in patch {
                    m.insert(k.clone(), v.clone());
                }
            }
            let norm = normalize_command(st, &merged, guild, "", Some(id))?;
            st.commands[i].body = norm.clone();
            Ok((200, norm))
        }
        _ => Err(method_not_allowed()),
    }
}

// --- messages ------------------------------------------------------------------------------------

/// Fields of a message payload, resolved; `None` means "not given".
#[derive(Default)]
struct MessageFields {
    content: Option<String>,
    embeds: Option<Vec<Value>>,
    components: Option<Vec<Value>>,
    attachments: Option<Vec<AttachmentRec>>,
    flags: Option<u64>,
}

fn file_index(field: &str) -> Option<u64> {
    field
        .strip_prefix("files[")?
        .strip_suffix(']')?
        .parse()
        .ok()
}

/// Parse and validate a message create/edit payload. `existing` are the attachments of the
/// message being edited.
fn message_fields(
    st: &mut State_,
    payload: Option<&Value>,
    files: &[UploadedFile],
    existing: Option<&[AttachmentRec]>,
) -> Result<MessageFields, ApiError> {
    let empty = json!({});
    let p = payload.unwrap_or(&empty);
    let Some(obj) = p.as_object() else {
        return Err(form_error(
            "",
            "MODEL_TYPE_CONVERT",
            "Only dictionaries may be used in a ModelType",
        ));
    };
    let mut f = MessageFields::default();
    match obj.get("content") {
        None => {}
        Some(Value::Null) => f.content = Some(String::new()),
        Some(Value::String(s)) => {
            if s.chars().count() > 2000 {
                return Err(form_error(
                    "content",
                    "BASE_TYPE_MAX_LENGTH",
                    "Must be 2000 or fewer in length.",
                ));
            }
            f.content = Some(s.clone());
        }
        Some(_) => {
            return Err(form_error(
                "content",
                "BASE_TYPE_STRING",
                "Must be a string.",
            ))
        }
    }
    let embeds = match (obj.get("embeds"), obj.get("embed")) {
        (Some(Value::Array(a)), _) => Some(a.clone()),
        (Some(Value::Null), _) => Some(Vec::new()),
        (Some(_), _) => return Err(form_error("embeds", "BASE_TYPE_ARRAY", "Must be an array.")),
        (None, Some(e)) if e.is_object() => Some(vec![e.clone()]),
        _ => None,
    };
    if let Some(e) = &embeds {
        validate_embeds(e)?;
    }
    f.embeds = embeds;
    match obj.get("components") {
        None => {}
        Some(Value::Null) => f.components = Some(Vec::new()),
        Some(Value::Array(a)) => {
            validate_components(a)?;
            f.components = Some(a.clone());
        }
        Some(_) => {
            return Err(form_error(
                "components",
                "BASE_TYPE_ARRAY",
                "Must be an array.",
            ))
        }
    }
    match obj.get("flags") {
        None | Some(Value::Null) => {}
        Some(v) => match v.as_u64() {
            Some(bits) => f.flags = Some(bits),
            None => {
                return Err(form_error(
                    "flags",
                    "NUMBER_TYPE_COERCE",
                    "Value is not int.",
                ))
            }
        },
    }

    // Attachments: metadata in `attachments` matches uploads `files[n]` by id n, or keeps an
    // existing attachment by its snowflake; uploads without metadata are added as well.
    let limit = st.cfg.attachment_size_limit;
    if files.iter().any(|u| u.data.len() as u64 > limit) {
        return Err(api_error(413, 40005, "Request entity too large"));
    }
    let mut used = vec![false; files.len()];
    let mut list: Option<Vec<AttachmentRec>> = None;
    match obj.get("attachments") {
        None | Some(Value::Null) => {}
        Some(Value::Array(meta)) => {
            let mut out = Vec::new();
            for (i, m) in meta.iter().enumerate() {
                let Some(id) = m.get("id").and_then(json_id) else {
                    return Err(form_error(
                        &format!("attachments.{i}.id"),
                        "BASE_TYPE_REQUIRED",
                        "This field is required",
                    ));
                };
                let upload = files.iter().position(|u| file_index(&u.field) == Some(id));
                if let Some(ui) = upload {
                    used[ui] = true;
                    let u = &files[ui];
                    let filename = m
                        .get("filename")
                        .and_then(Value::as_str)
                        .unwrap_or(&u.filename)
                        .to_string();
                    let description = m
                        .get("description")
                        .and_then(Value::as_str)
                        .map(str::to_string);
                    out.push(new_attachment(st, u, filename, description));
                } else if let Some(a) = existing.and_then(|ex| ex.iter().find(|a| a.id == id)) {
                    out.push(a.clone());
                } else {
                    return Err(form_error(
                        &format!("attachments.{i}.id"),
                        "ATTACHMENT_NOT_FOUND",
                        "Unknown attachment",
                    ));
                }
            }
            list = Some(out);
        }
        Some(_) => {
            return Err(form_error(
                "attachments",
                "BASE_TYPE_ARRAY",
                "Must be an array.",
            ))
        }
    }
    let mut extra = Vec::new();
    for (u, used) in files.iter().zip(&used) {
        if !used {
            extra.push(new_attachment(st, u, u.filename.clone(), None));
        }
    }
    if !extra.is_empty() {
        let base = list
            .take()
            .unwrap_or_else(|| existing.map(<[AttachmentRec]>::to_vec).unwrap_or_default());
        list = Some(base.into_iter().chain(extra).collect());
    }
    if list.as_ref().is_some_and(|l| l.len() > 10) {
        return Err(form_error(
            "attachments",
            "BASE_TYPE_MAX_LENGTH",
            "Must be 10 or fewer in length.",
        ));
    }
    f.attachments = list;
    Ok(f)
}

fn new_attachment(
    st: &mut State_,
    u: &UploadedFile,
    filename: String,
    description: Option<String>,
) -> AttachmentRec {
    let (width, height) = image_size(&u.data).map_or((None, None), |(w, h)| (Some(w), Some(h)));
    AttachmentRec {
        id: st.next_id(),
        content_type: u
            .content_type
            .clone()
            .or_else(|| guess_content_type(&filename)),
        filename,
        description,
        data: Arc::new(u.data.clone()),
        width,
        height,
    }
}

fn validate_embeds(embeds: &[Value]) -> Result<(), ApiError> {
    if embeds.len() > 10 {
        return Err(form_error(
            "embeds",
            "BASE_TYPE_MAX_LENGTH",
            "Must be 10 or fewer in length.",
        ));
    }
    let mut total = 0;
    for (i, e) in embeds.iter().enumerate() {
        if !e.is_object() {
            return Err(form_error(
                &format!("embeds.{i}"),
                "MODEL_TYPE_CONVERT",
                "Only dictionaries may be used in a ModelType",
            ));
        }
        let checks: [(&str, &str, usize); 5] = [
            ("/title", "title", 256),
            ("/description", "description", 4096),
            ("/footer/text", "footer.text", 2048),
            ("/author/name", "author.name", 256),
            ("/url", "url", 2048),
        ];
        for (ptr, path, max) in checks {
            if let Some(s) = e.pointer(ptr).and_then(Value::as_str) {
                let n = s.chars().count();
                if n > max {
                    return Err(form_error(
                        &format!("embeds.{i}.{path}"),
                        "BASE_TYPE_MAX_LENGTH",
                        &format!("Must be {max} or fewer in length."),
                    ));
                }
                if ptr != "/url" {
                    total += n;
                }
            }
        }
        let fields = e
            .get("fields")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        if fields.len() > 25 {
            return Err(form_error(
                &format!("embeds.{i}.fields"),
                "BASE_TYPE_MAX_LENGTH",
                "Must be 25 or fewer in length.",
            ));
        }
        for (j, fl) in fields.iter().enumerate() {
            let name = fl.get("name").and_then(Value::as_str).unwrap_or_default();
            let value = fl.get("value").and_then(Value::as_str).unwrap_or_default();
            if name.is_empty() || name.chars().count() > 256 {
                return Err(form_error(
                    &format!("embeds.{i}.fields.{j}.name"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 256 in length.",
                ));
            }
            if value.is_empty() || value.chars().count() > 1024 {
                return Err(form_error(
                    &format!("embeds.{i}.fields.{j}.value"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 1024 in length.",
                ));
            }
            total += name.chars().count() + value.chars().count();
        }
    }
    if total > 6000 {
        return Err(form_error(
            "embeds",
            "MAX_EMBED_SIZE_EXCEEDED",
            "Embed size exceeds maximum size of 6000",
        ));
    }
    Ok(())
}

fn validate_components(rows: &[Value]) -> Result<(), ApiError> {
    if rows.len() > 5 {
        return Err(form_error(
            "components",
            "BASE_TYPE_MAX_LENGTH",
            "Must be 5 or fewer in length.",
        ));
    }
    let mut ids: Vec<String> = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        let at = format!("components.{r}");
        if row.get("type").and_then(Value::as_u64) != Some(1) {
            return Err(form_error(
                &join_path(&at, "type"),
                "UNION_TYPE_CHOICES",
                "Value of field \"type\" must be one of (1,).",
            ));
        }
        let empty = Vec::new();
        let comps = row
            .get("components")
            .and_then(Value::as_array)
            .unwrap_or(&empty);
        if comps.is_empty() || comps.len() > 5 {
            return Err(form_error(
                &join_path(&at, "components"),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 5 in length.",
            ));
        }
        for (c, comp) in comps.iter().enumerate() {
            let here = format!("{at}.components.{c}");
            let kind = comp.get("type").and_then(Value::as_u64).unwrap_or(0);
            let custom_id = comp.get("custom_id").and_then(Value::as_str);
            match kind {
                2 => {
                    let style = comp.get("style").and_then(Value::as_u64).unwrap_or(0);
                    if !(1..=6).contains(&style) {
                        return Err(form_error(
                            &join_path(&here, "style"),
                            "BASE_TYPE_CHOICES",
                            "Value must be one of {1, 2, 3, 4, 5, 6}.",
                        ));
                    }
                    if style == 5 && comp.get("url").and_then(Value::as_str).is_none() {
                        return Err(form_error(
                            &join_path(&here, "url"),
                            "BASE_TYPE_REQUIRED",
                            "This field is required",
                        ));
                    }
                    if style < 5 && custom_id.is_none() {
                        return Err(form_error(
                            &join_path(&here, "custom_id"),
                            "BASE_TYPE_REQUIRED",
                            "This field is required",
                        ));
                    }
                    if comp
                        .get("label")
                        .and_then(Value::as_str)
                        .is_some_and(|l| l.chars().count() > 80)
                    {
                        return Err(form_error(
                            &join_path(&here, "label"),
                            "BASE_TYPE_MAX_LENGTH",
                            "Must be 80 or fewer in length.",
                        ));
                    }
                    if comp.get("label").is_none() && comp.get("emoji").is_none() && style != 6 {
                        return Err(form_error(
                            &here,
                            "COMPONENT_INVALID",
                            "A button needs a label or an emoji.",
                        ));
                    }
                }
                3 | 5..=8 => {
                    if comps.len() != 1 {
                        return Err(form_error(
                            &join_path(&at, "components"),
                            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                            "The specified component exceeds the maximum width",
                        ));
                    }
                    if custom_id.is_none() {
                        return Err(form_error(
                            &join_path(&here, "custom_id"),
                            "BASE_TYPE_REQUIRED",
                            "This field is required",
                        ));
                    }
                    if kind == 3 {
                        let n = comp
                            .get("options")
                            .and_then(Value::as_array)
                            .map_or(0, Vec::len);
                        if !(1..=25).contains(&n) {
                            return Err(form_error(
                                &join_path(&here, "options"),
                                "BASE_TYPE_BAD_LENGTH",
                                "Must be between 1 and 25 in length.",
                            ));
                        }
                    }
                }
                _ => {
                    return Err(form_error(
                        &join_path(&here, "type"),
                        "UNION_TYPE_CHOICES",
                        "Unsupported component type in an action row.",
                    ));
                }
            }
            if let Some(id) = custom_id {
                if id.is_empty() || id.chars().count() > 100 {
                    return Err(form_error(
                        &join_path(&here, "custom_id"),
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 1 and 100 in length.",
                    ));
                }
                if ids.iter().any(|x| x == id) {
                    return Err(form_error(
                        &join_path(&here, "custom_id"),
                        "COMPONENT_CUSTOM_ID_DUPLICATED",
                        "Component custom id cannot be duplicated",
                    ));
                }
                ids.push(id.to_string());
            }
        }
    }
    Ok(())
}

fn is_empty_message(m: &MessageRec, sticker: bool) -> bool {
    m.content.is_empty()
        && m.embeds.is_empty()
        && m.attachments.is_empty()
        && m.components.is_empty()
        && !sticker
}

struct NewMessage {
    channel_id: u64,
    interaction_id: Option<u64>,
    kind: u64,
    extra_flags: u64,
    allowed_flags: u64,
    allow_empty: bool,
}

/// Create a bot message from a payload (channel message, interaction response or follow-up).
/// Which of the users a message mentions it pings, as Discord reads `allowed_mentions`: all of
/// them without it; with it, those of `users`, or all when `parse` holds `"users"` (the two
/// may not be given together); at most 100 users; ids are snowflake strings.
fn pinged(mentions: &[u64], allowed: Option<&Value>) -> Result<Vec<u64>, ApiError> {
    let Some(allowed) = allowed.filter(|a| !a.is_null()) else {
        return Ok(mentions.to_vec());
    };
    let Some(obj) = allowed.as_object() else {
        return Err(form_error(
            "allowed_mentions",
            "MODEL_TYPE_CONVERT",
            "Only dictionaries may be used in a ModelType",
        ));
    };
    let parse: Vec<&str> = match obj.get("parse") {
        None => Vec::new(),
        Some(Value::Array(a)) => {
            let mut out = Vec::new();
            for v in a {
                match v.as_str() {
                    Some(k @ ("users" | "roles" | "everyone")) => out.push(k),
                    _ => {
                        return Err(form_error(
                            "allowed_mentions.parse",
                            "BASE_TYPE_CHOICES",
                            "Value must be one of {'users', 'roles', 'everyone'}.",
                        ))
                    }
                }
            }
            out
        }
        Some(_) => {
            return Err(form_error(
                "allowed_mentions.parse",
                "BASE_TYPE_ARRAY",
                "Must be an array.",
            ))
        }
    };
    let users: Vec<u64> = match obj.get("users") {
        None => Vec::new(),
        Some(Value::Array(a)) => {
            if a.len() > 100 {
                return Err(form_error(
                    "allowed_mentions.users",
                    "BASE_TYPE_MAX_LENGTH",
                    "Must be 100 or fewer in length.",
                ));
            }
            let mut out = Vec::new();
            for v in a {
                match v.as_str().and_then(|s| s.parse::<u64>().ok()) {
                    Some(id) => out.push(id),
                    None => {
                        return Err(form_error(
                            "allowed_mentions.users",
                            "NUMBER_TYPE_COERCE",
                            "Value is not snowflake.",
                        ))
                    }
                }
            }
            out
        }
        Some(_) => {
            return Err(form_error(
                "allowed_mentions.users",
                "BASE_TYPE_ARRAY",
                "Must be an array.",
            ))
        }
    };
    if parse.contains(&"users") && !users.is_empty() {
        return Err(form_error(
            "allowed_mentions",
            "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
            "parse:[\"users\"] and users: [ids...] are mutually exclusive.",
        ));
    }
    Ok(mentions
        .iter()
        .copied()
        .filter(|u| parse.contains(&"users") || users.contains(u))
        .collect())
}

fn create_message(st: &mut State_, spec: NewMessage, body: &ParsedBody) -> Result<u64, ApiError> {
    let payload = body.json.as_ref();
    let f = message_fields(st, payload, &body.files, None)?;
    let flags = (f.flags.unwrap_or(0) & spec.allowed_flags) | spec.extra_flags;
    let reference = payload
        .and_then(|p| p.get("message_reference"))
        .filter(|r| r.is_object());
    let mut ref_id = None;
    if let Some(r) = reference {
        let mid = r.get("message_id").and_then(json_id);
        let fail = r
            .get("fail_if_not_exists")
            .and_then(Value::as_bool)
            .unwrap_or(true);
        let ok = mid
            .and_then(|id| st.messages.get(&id))
            .is_some_and(|m| m.channel_id == spec.channel_id && !m.deleted);
        if ok {
            ref_id = mid;
        } else if fail {
            return Err(form_error(
                "message_reference",
                "MESSAGE_REFERENCE_UNKNOWN_MESSAGE",
                "Unknown message",
            ));
        }
    }
    let sticker = payload
        .and_then(|p| p.get("sticker_ids"))
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty());
    let content = f.content.unwrap_or_default();
    let mentions = st.mentions_in(&content);
    let pinged = pinged(&mentions, payload.and_then(|p| p.get("allowed_mentions")))?;
    let id = st.next_id();
    let m = MessageRec {
        id,
        channel_id: spec.channel_id,
        author_id: st.bot_id,
        content,
        mentions,
        pinged,
        embeds: f.embeds.unwrap_or_default(),
        components: f.components.unwrap_or_default(),
        attachments: f.attachments.unwrap_or_default(),
        flags,
        kind: if ref_id.is_some() && spec.kind == 0 {
            19
        } else {
            spec.kind
        },
        tts: payload
            .and_then(|p| p.get("tts"))
            .and_then(Value::as_bool)
            .unwrap_or(false),
        created_ms: snowflake_ms(id),
        reference: ref_id,
        nonce: payload
            .and_then(|p| p.get("nonce"))
            .filter(|n| !n.is_null())
            .cloned(),
        webhook_id: spec.interaction_id.map(|_| st.app_id),
        interaction_id: spec.interaction_id,
        ..MessageRec::default()
    };
    if !spec.allow_empty && is_empty_message(&m, sticker) {
        return Err(api_error(400, 50006, "Cannot send an empty message"));
    }
    let ephemeral = m.flags & 64 != 0;
    st.messages.insert(id, m);
    if let Some(c) = st.channels.get_mut(&spec.channel_id) {
        c.last_message_id = Some(id);
    }
    if st.cfg.echo_bot_messages && !ephemeral {
        let d = st.message_json(&st.messages[&id], true);
        st.dispatch("MESSAGE_CREATE", d);
    }
    Ok(id)
}

fn create_channel_message(st: &mut State_, ch: u64, body: &ParsedBody) -> ApiResult {
    let c = &st.channels[&ch];
    if c.is_thread() && c.locked {
        return Err(api_error(400, 50083, "Thread is archived"));
    }
    if let Some(c) = st.channels.get_mut(&ch) {
        c.archived = false;
    }
    // `enforce_nonce`: a message the bot already created in this channel with the same nonce
    // (within a few minutes) is returned instead of a new one, as Discord does.
    let payload = body.json.as_ref();
    let nonce = payload
        .and_then(|p| p.get("nonce"))
        .filter(|n| !n.is_null())
        .cloned();
    if let Some(n) = &nonce {
        let ok = n.as_str().is_some_and(|s| s.chars().count() <= 25) || n.is_u64() || n.is_i64();
        if !ok {
            return Err(form_error(
                "nonce",
                "BASE_TYPE_BAD_LENGTH",
                "Must be 25 or fewer in length.",
            ));
        }
    }
    let enforce = payload
        .and_then(|p| p.get("enforce_nonce"))
        .and_then(Value::as_bool)
        .unwrap_or(false);
    if let (Some(n), true) = (&nonce, enforce) {
        let recent = now_ms().saturating_sub(5 * 60 * 1000);
        let bot = st.bot_id;
        let found = st.messages.values().find(|m| {
            m.channel_id == ch
                && m.author_id == bot
                && m.nonce.as_ref() == Some(n)
                && m.created_ms >= recent
                && !m.deleted
        });
        if let Some(m) = found {
            return Ok((200, st.message_json(m, false)));
        }
    }
    let spec = NewMessage {
        channel_id: ch,
        interaction_id: None,
        kind: 0,
        extra_flags: 0,
        allowed_flags: 4 | 4096,
        allow_empty: false,
    };
    let id = create_message(st, spec, body)?;
    Ok((200, st.message_json(&st.messages[&id], false)))
}

/// Apply an edit payload to a stored message and return its JSON.
fn edit_message(st: &mut State_, mid: u64, body: &ParsedBody) -> Result<Value, ApiError> {
    let existing = st.messages[&mid].attachments.clone();
    let f = message_fields(st, body.json.as_ref(), &body.files, Some(&existing))?;
    let mut m = st.messages[&mid].clone();
    if let Some(c) = f.content {
        m.content = c;
    }
    if let Some(e) = f.embeds {
        m.embeds = e;
    }
    if let Some(c) = f.components {
        m.components = c;
    }
    if let Some(a) = f.attachments {
        m.attachments = a;
    }
    if let Some(fl) = f.flags {
        // Only SUPPRESS_EMBEDS may be toggled by an edit.
        m.flags = (m.flags & !4) | (fl & 4);
    }
    m.flags &= !128; // no longer "thinking"
    if is_empty_message(&m, false) {
        return Err(api_error(400, 50006, "Cannot send an empty message"));
    }
    m.edited_ms = Some(now_ms());
    let ephemeral = m.flags & 64 != 0;
    st.messages.insert(mid, m);
    let v = st.message_json(&st.messages[&mid], false);
    if st.cfg.echo_bot_messages && !ephemeral {
        let d = st.message_json(&st.messages[&mid], true);
        st.dispatch("MESSAGE_UPDATE", d);
    }
    Ok(v)
}

fn delete_message(st: &mut State_, mid: u64) {
    let Some(m) = st.messages.get_mut(&mid) else {
        return;
    };
    m.deleted = true;
    let ephemeral = m.flags & 64 != 0;
    let channel_id = m.channel_id;
    if !ephemeral {
        let mut d = json!({"id": mid.to_string(), "channel_id": channel_id.to_string()});
        if let Some(g) = st.channels.get(&channel_id).and_then(|c| c.guild_id) {
            d["guild_id"] = json!(g.to_string());
        }
        st.dispatch("MESSAGE_DELETE", d);
    }
}

// --- channels and threads ------------------------------------------------------------------------

/// `DELETE /channels/{id}` for a thread (with its messages); the fake deletes no other
/// channel. Inject a 50013 with [`FakeDiscord::fail_next`] for a bot without Manage Threads.
fn delete_thread(st: &mut State_, ch: u64) -> ApiResult {
    if !st.channels.get(&ch).is_some_and(ChannelRec::is_thread) {
        return Err(api_error(403, 50013, "Missing Permissions"));
    }
    let v = st.channel_json(ch);
    st.channels.remove(&ch);
    st.messages.retain(|_, m| m.channel_id != ch);
    st.dispatch("THREAD_DELETE", v.clone());
    Ok((200, v))
}

fn edit_channel(st: &mut State_, ch: u64, body: &ParsedBody) -> ApiResult {
    let Some(patch) = body.json.as_ref().and_then(Value::as_object) else {
        return Err(form_error(
            "",
            "MODEL_TYPE_CONVERT",
            "Only dictionaries may be used in a ModelType",
        ));
    };
    let Some(c) = st.channels.get_mut(&ch) else {
        return Err(unknown_channel());
    };
    if c.kind == 1 {
        return Err(api_error(
            400,
            50024,
            "Cannot execute action on a DM channel",
        ));
    }
    if let Some(name) = patch.get("name").and_then(Value::as_str) {
        if !(1..=100).contains(&name.chars().count()) {
            return Err(form_error(
                "name",
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            ));
        }
        c.name = name.to_string();
    }
    let thread = c.is_thread();
    if thread {
        if let Some(a) = patch.get("archived").and_then(Value::as_bool) {
            c.archived = a;
        }
        if let Some(l) = patch.get("locked").and_then(Value::as_bool) {
            c.locked = l;
        }
        if let Some(d) = patch.get("auto_archive_duration").and_then(Value::as_u64) {
            c.auto_archive_duration = d;
        }
    }
    let v = st.channel_json(ch);
    st.dispatch(
        if thread {
            "THREAD_UPDATE"
        } else {
            "CHANNEL_UPDATE"
        },
        v.clone(),
    );
    Ok((200, v))
}

fn create_thread(
    st: &mut State_,
    parent: u64,
    from_message: Option<u64>,
    body: &ParsedBody,
) -> ApiResult {
    let p = &st.channels[&parent];
    if !(p.kind == 0 || p.kind == 5) {
        return Err(api_error(
            400,
            50024,
            "Cannot execute action on this channel type",
        ));
    }
    let guild_id = p.guild_id;
    let Some(obj) = body.json.as_ref().and_then(Value::as_object) else {
        return Err(form_error(
            "name",
            "BASE_TYPE_REQUIRED",
            "This field is required",
        ));
    };
    let name = obj.get("name").and_then(Value::as_str).unwrap_or_default();
    if !(1..=100).contains(&name.chars().count()) {
        return Err(form_error(
            "name",
            "BASE_TYPE_BAD_LENGTH",
            "Must be between 1 and 100 in length.",
        ));
    }
    let auto = obj
        .get("auto_archive_duration")
        .and_then(Value::as_u64)
        .unwrap_or(4320);
    if ![60, 1440, 4320, 10080].contains(&auto) {
        return Err(form_error(
            "auto_archive_duration",
            "BASE_TYPE_CHOICES",
            "Value must be one of {60, 1440, 4320, 10080}.",
        ));
    }
    let (id, kind) = match from_message {
        Some(mid) => {
            let Some(m) = st
                .messages
                .get(&mid)
                .filter(|m| m.channel_id == parent && !m.deleted)
            else {
                return Err(unknown_message());
            };
            if m.thread_id.is_some() {
                return Err(api_error(
                    400,
                    160004,
                    "A thread has already been created for this message",
                ));
            }
            (mid, 11)
        }
        None => {
            let kind = obj.get("type").and_then(Value::as_u64).unwrap_or(12);
            if kind != 11 && kind != 12 {
                return Err(form_error(
                    "type",
                    "BASE_TYPE_CHOICES",
                    "Value must be one of {11, 12}.",
                ));
            }
            (st.next_id(), kind)
        }
    };
    st.channels.insert(
        id,
        ChannelRec {
            id,
            kind,
            name: name.to_string(),
            guild_id,
            parent_id: Some(parent),
            owner_id: Some(st.bot_id),
            auto_archive_duration: auto,
            created_ms: now_ms(),
            ..ChannelRec::default()
        },
    );
    if let Some(mid) = from_message {
        if let Some(m) = st.messages.get_mut(&mid) {
            m.thread_id = Some(id);
        }
    }
    let v = st.channel_json(id);
    let mut event = v.clone();
    event["newly_created"] = json!(true);
    st.dispatch("THREAD_CREATE", event);
    Ok((201, v))
}

// --- interactions --------------------------------------------------------------------------------

fn record_response(
    st: &mut State_,
    ix: u64,
    kind: ResponseKind,
    status: u16,
    body: &ParsedBody,
    message_id: Option<u64>,
) {
    if let Some(i) = st.interactions.get_mut(&ix) {
        i.responses.push(InteractionResponse {
            kind,
            status,
            json: body.json.clone(),
            files: body.files.clone(),
            message_id,
        });
    }
}

fn interaction_callback(st: &mut State_, id: u64, token: &str, body: &ParsedBody) -> ApiResult {
    let Some(ix) = st.interactions.get(&id).filter(|i| i.token == token) else {
        return Err(api_error(404, 10062, "Unknown interaction"));
    };
    let (ix_kind, ix_channel, source, acked) =
        (ix.kind, ix.channel_id, ix.source_message_id, ix.acked);
    let expired = st
        .cfg
        .interaction_deadline
        .is_some_and(|d| ix.created.elapsed() > d);
    let kind = body
        .json
        .as_ref()
        .and_then(|j| j.get("type"))
        .and_then(Value::as_u64)
        .unwrap_or(0);
    let result = (|| -> Result<Option<u64>, ApiError> {
        if expired && !acked {
            return Err(api_error(404, 10062, "Unknown interaction"));
        }
        if acked {
            return Err(api_error(
                400,
                40060,
                "Interaction has already been acknowledged.",
            ));
        }
        let allowed = match ix_kind {
            2 => [4, 5, 9].contains(&kind),
            3 => [4, 5, 6, 7, 9].contains(&kind),
            4 => kind == 8,
            _ => false,
        };
        if !allowed {
            return Err(form_error(
                "type",
                "INTERACTION_RESPONSE_TYPE_INVALID",
                "Interaction response type is invalid for this interaction",
            ));
        }
        let data = body
            .json
            .as_ref()
            .and_then(|j| j.get("data"))
            .filter(|d| !d.is_null());
        let data_body = ParsedBody {
            json: data.cloned(),
            files: body.files.clone(),
        };
        match kind {
            4 | 5 => {
                let loading = kind == 5;
                let spec = NewMessage {
                    channel_id: ix_channel,
                    interaction_id: Some(id),
                    kind: if ix_kind == 2 { 20 } else { 0 },
                    extra_flags: if loading { 128 } else { 0 },
                    allowed_flags: if loading { 64 } else { 4 | 64 | 4096 },
                    allow_empty: loading,
                };
                let body_for_msg = if loading {
                    ParsedBody {
                        json: Some(
                            json!({"flags": data.and_then(|d| d.get("flags")).cloned().unwrap_or(json!(0))}),
                        ),
                        files: Vec::new(),
                    }
                } else {
                    data_body
                };
                let mid = create_message(st, spec, &body_for_msg)?;
                Ok(Some(mid))
            }
            6 => Ok(source),
            7 => {
                let mid = source.ok_or_else(unknown_message)?;
                if st.messages.get(&mid).is_none_or(|m| m.deleted) {
                    return Err(unknown_message());
                }
                edit_message(st, mid, &data_body)?;
                Ok(Some(mid))
            }
            8 => {
                let choices = data
                    .and_then(|d| d.get("choices"))
                    .and_then(Value::as_array);
                let Some(choices) = choices else {
                    return Err(form_error(
                        "data.choices",
                        "BASE_TYPE_REQUIRED",
                        "This field is required",
                    ));
                };
                if choices.len() > 25 {
                    return Err(form_error(
                        "data.choices",
                        "BASE_TYPE_MAX_LENGTH",
                        "Must be 25 or fewer in length.",
                    ));
                }
                for (i, c) in choices.iter().enumerate() {
                    let n = c
                        .get("name")
                        .and_then(Value::as_str)
                        .map_or(0, |s| s.chars().count());
                    if !(1..=100).contains(&n) {
                        return Err(form_error(
                            &format!("data.choices.{i}.name"),
                            "BASE_TYPE_BAD_LENGTH",
                            "Must be between 1 and 100 in length.",
                        ));
                    }
                    if c.get("value").is_none_or(Value::is_null) {
                        return Err(form_error(
                            &format!("data.choices.{i}.value"),
                            "BASE_TYPE_REQUIRED",
                            "This field is required",
                        ));
                    }
                }
                Ok(None)
            }
            9 => {
                let ok = data
                    .and_then(|d| d.get("custom_id"))
                    .and_then(Value::as_str)
                    .is_some()
                    && data
                        .and_then(|d| d.get("title"))
                        .and_then(Value::as_str)
                        .is_some()
                    && data
                        .and_then(|d| d.get("components"))
                        .and_then(Value::as_array)
                        .is_some_and(|c| !c.is_empty());
                if ok {
                    Ok(None)
                } else {
                    Err(form_error(
                        "data",
                        "BASE_TYPE_REQUIRED",
                        "A modal needs custom_id, title and components",
                    ))
                }
            }
            _ => Err(form_error(
                "type",
                "BASE_TYPE_CHOICES",
                "Value must be one of {1, 4, 5, 6, 7, 8, 9, 10, 12}.",
            )),
        }
    })();
    match result {
        Ok(mid) => {
            if let Some(i) = st.interactions.get_mut(&id) {
                i.acked = true;
                if matches!(kind, 4..=7) {
                    i.original_message_id = mid;
                }
            }
            record_response(st, id, ResponseKind::Callback(kind), 204, body, mid);
            Ok((204, Value::Null))
        }
        Err(e) => {
            record_response(st, id, ResponseKind::Callback(kind), e.status, body, None);
            Err(e)
        }
    }
}

/// An interaction token works for 15 minutes.
const TOKEN_LIFE: Duration = Duration::from_secs(15 * 60);

fn webhook_interaction(st: &State_, app: &str, token: &str) -> Result<u64, ApiError> {
    let unknown = || api_error(404, 10015, "Unknown Webhook");
    let app = snowflake(app, "webhook_id")?;
    if app != st.app_id {
        return Err(unknown());
    }
    let i = st
        .interactions
        .values()
        .find(|i| i.token == token)
        .ok_or_else(unknown)?;
    if i.expired || i.created.elapsed() > TOKEN_LIFE {
        return Err(api_error(401, 50027, "Invalid Webhook Token"));
    }
    Ok(i.id)
}

fn followup(st: &mut State_, ix: u64, body: &ParsedBody) -> ApiResult {
    let (acked, channel_id, kind) = {
        let i = &st.interactions[&ix];
        (i.acked, i.channel_id, i.kind)
    };
    let result = if !acked {
        Err(api_error(404, 10015, "Unknown Webhook"))
    } else {
        let spec = NewMessage {
            channel_id,
            interaction_id: Some(ix),
            kind: if kind == 2 { 20 } else { 0 },
            extra_flags: 0,
            allowed_flags: 4 | 64 | 4096,
            allow_empty: false,
        };
        create_message(st, spec, body)
    };
    match result {
        Ok(mid) => {
            if let Some(i) = st.interactions.get_mut(&ix) {
                i.followups.push(mid);
            }
            record_response(st, ix, ResponseKind::Followup, 200, body, Some(mid));
            Ok((200, st.message_json(&st.messages[&mid], false)))
        }
        Err(e) => {
            record_response(st, ix, ResponseKind::Followup, e.status, body, None);
            Err(e)
        }
    }
}

fn webhook_message(
    st: &mut State_,
    ix: u64,
    which: &str,
    method: &str,
    body: &ParsedBody,
) -> ApiResult {
    let original = which == "@original";
    let target = if original {
        st.interactions[&ix].original_message_id
    } else {
        let id = snowflake(which, "message_id")?;
        let i = &st.interactions[&ix];
        (i.followups.contains(&id) || i.original_message_id == Some(id)).then_some(id)
    };
    let kind = match (method, original) {
        ("GET", true) => ResponseKind::GetOriginal,
        ("PATCH", true) => ResponseKind::EditOriginal,
        ("DELETE", true) => ResponseKind::DeleteOriginal,
        ("GET", false) => ResponseKind::GetFollowup(target.unwrap_or(0)),
        ("PATCH", false) => ResponseKind::EditFollowup(target.unwrap_or(0)),
        ("DELETE", false) => ResponseKind::DeleteFollowup(target.unwrap_or(0)),
        _ => return Err(method_not_allowed()),
    };
    let acked = st.interactions[&ix].acked;
    let result = match target.filter(|m| st.messages.get(m).is_some_and(|m| !m.deleted)) {
        // An interaction's webhook exists only once it was acknowledged, as on Discord.
        _ if !acked => Err(api_error(404, 10015, "Unknown Webhook")),
        None => Err(unknown_message()),
        Some(mid) => match method {
            "GET" => Ok((200, st.message_json(&st.messages[&mid], false), mid)),
            "PATCH" => edit_message(st, mid, body).map(|v| (200, v, mid)),
            _ => {
                delete_message(st, mid);
                Ok((204, Value::Null, mid))
            }
        },
    };
    match result {
        Ok((status, v, mid)) => {
            record_response(st, ix, kind, status, body, Some(mid));
            Ok((status, v))
        }
        Err(e) => {
            record_response(st, ix, kind, e.status, body, None);
            Err(e)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Gateway
// ---------------------------------------------------------------------------------------------

/// Resolves once the fake is shutting down.
async fn shutdown_signal(mut rx: watch::Receiver<bool>) {
    loop {
        if *rx.borrow_and_update() {
            return;
        }
        if rx.changed().await.is_err() {
            return;
        }
    }
}

async fn gateway_handler(
    State(inner): State<Arc<Inner>>,
    RawQuery(query): RawQuery,
    ws: WebSocketUpgrade,
) -> Response {
    let v_ok = query_param(query.as_deref(), "v").is_none_or(|v| v == "10");
    let encoding_ok = query_param(query.as_deref(), "encoding").is_none_or(|e| e == "json");
    ws.on_upgrade(move |socket| gateway_connection(inner, socket, v_ok && encoding_ok))
}

async fn gateway_connection(inner: Arc<Inner>, socket: WebSocket, params_ok: bool) {
    let (mut sink, mut stream) = socket.split();
    let close = |code: u16, reason: &str| {
        WsMessage::Close(Some(CloseFrame {
            code,
            reason: reason.to_string().into(),
        }))
    };
    if !params_ok {
        let _ = sink.send(close(4012, "Invalid API version.")).await;
        return;
    }
    let (conn, interval) = {
        let mut st = inner.lock();
        st.conn_counter += 1;
        (st.conn_counter, st.cfg.heartbeat_interval_ms)
    };
    let (tx, mut rx) = mpsc::unbounded_channel::<Outgoing>();
    let hello = json!({"op": 10, "d": {"heartbeat_interval": interval}, "s": null, "t": null});
    if sink
        .send(WsMessage::Text(hello.to_string().into()))
        .await
        .is_err()
    {
        return;
    }
    let stop = shutdown_signal(inner.shutdown.subscribe());
    tokio::pin!(stop);
    let mut session: Option<String> = None;
    let mut logged_off = false;
    loop {
        tokio::select! {
            incoming = stream.next() => {
                let text = match incoming {
                    Some(Ok(WsMessage::Text(t))) => t.as_str().to_string(),
                    Some(Ok(WsMessage::Binary(_))) => {
                        let _ = sink.send(close(4002, "Error while decoding payload.")).await;
                        break;
                    }
                    Some(Ok(WsMessage::Close(frame))) => {
                        logged_off = frame.is_some_and(|f| f.code == 1000 || f.code == 1001);
                        // Flush the close reply serenity waits for before it calls the shard done.
                        let _ = sink.close().await;
                        break;
                    }
                    None | Some(Err(_)) => break,
                    Some(Ok(_)) => continue,
                };
                let closing = inner.lock().handle_gateway_frame(conn, &tx, &mut session, &text);
                inner.bump();
                if let Some((code, reason)) = closing {
                    let _ = sink.send(close(code, &reason)).await;
                    break;
                }
            }
            out = rx.recv() => match out {
                Some(Outgoing::Text(s)) => {
                    if sink.send(WsMessage::Text(s.into())).await.is_err() {
                        break;
                    }
                }
                Some(Outgoing::Close(code, reason)) => {
                    let _ = sink.send(close(code, &reason)).await;
                    break;
                }
                None => break,
            },
            () = &mut stop => {
                let _ = sink.send(close(1001, "Going away")).await;
                break;
            }
        }
    }
    inner.lock().end_connection(conn, logged_off);
    inner.bump();
}
