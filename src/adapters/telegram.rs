//! The Telegram adapter: long polling with teloxide, translating messages and button presses
//! into [`Incoming`] events for the chat service and its replies into Bot API calls. It
//! holds no game logic and no game state: buttons carry the game id and ply, so they keep
//! working after a restart.
//!
//! * A channel is a chat (`tg:{chat_id}`) or a forum topic in it (`tg:{chat_id}:{thread}`);
//!   users are `tg:{user_id}`, with their lower-case username as the handle.
//! * A reply with a picture is a photo (a GIF replay an animation) with the text as its
//!   caption (at most 1024 characters; the rest follows as a message); texts over 4096
//!   characters are split; buttons become inline keyboards of at most 8 a row.
//! * A private reply to a button press is the press's answer (`answerCallbackQuery`); one
//!   with buttons (confirm resignation) is posted in the chat with its buttons reserved for
//!   the user who pressed. A private reply to a message answers that message.
//! * The move picker edits its own message from step to step; a used challenge, offer or
//!   picker keyboard is removed once it took effect.
//! * Every send goes through [`outbox::Outbox`]: one queue per chat, `retry_after` honoured
//!   for that chat only, server and network errors retried with backoff. What a change made
//!   the service say comes from the service's outbox (stored with the change), and is
//!   delivered again after a restart if it was not delivered before.
//! * Updates are stored (an inbox) before they are confirmed to Telegram ([`polling`]), and
//!   each chat's are handled in its own lane, so one slow chat holds back no other; what a
//!   crash interrupted is handled from the inbox at the next start, and one whose changes
//!   were stored is recognised by its id.
//! * With `TELEGRAM_WEBHOOK_URL` set, updates arrive by webhook instead ([`webhook`]), so
//!   several processes can serve one bot; each is answered once handled, in the same way.

mod admins;
mod api;
mod commands;
pub mod ops;
pub mod outbox;
mod polling;
mod press;
mod settings;
mod webhook;

pub use settings::{
    valid_webhook_secret, HookLimits, TelegramConfig, WebhookConfig, MIN_WEBHOOK_SECRET,
};

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use teloxide::payloads::setters::*;
use teloxide::prelude::Requester;
use teloxide::types::{CallbackQuery, MessageEntityKind, Update, UpdateKind, User};
use teloxide::{ApiError, Bot, RequestError};

pub use commands::command_list;
pub use ops::Target;
pub use outbox::RetryPolicy;
pub use webhook::{BODY_LIMIT, SECRET_HEADER};

use crate::app::{Incoming, Origin, Service};
use crate::game::PlayerRef;
use crate::i18n::app::{text, Msg};
use crate::i18n::Lang;
use crate::platform::Platform;
use ops::{read_callback_data, Answering};
use outbox::{redacted, Outbox, Telegram};
use press::{press_jobs, pressed_kind};
use webhook::Outcome;

/// Tuning of the adapter.
#[derive(Clone, Copy, Debug)]
pub struct TelegramOptions {
    /// How long one `getUpdates` call waits for news (below teloxide's 17-second HTTP
    /// timeout, or every quiet poll would fail).
    pub poll_timeout: Duration,
    /// How long shutdown keeps handling the updates in hand, and then sending what is
    /// queued (what is not sent by then is stored, and sent at the next start).
    pub drain_timeout: Duration,
    /// Retries of sends.
    pub retry: RetryPolicy,
}

impl Default for TelegramOptions {
    fn default() -> Self {
        TelegramOptions {
            poll_timeout: Duration::from_secs(10),
            drain_timeout: Duration::from_secs(20),
            retry: RetryPolicy::default(),
        }
    }
}

/// Why the adapter cannot run.
#[derive(Debug, PartialEq, Eq)]
pub enum TelegramError {
    /// `TELEGRAM_API_URL` is not a URL.
    BadApiUrl(String),
    /// Telegram refused the token.
    InvalidToken,
    /// The webhook's address cannot be served (`TELEGRAM_WEBHOOK_LISTEN`).
    Listen(SocketAddr, String),
    /// Telegram refused the webhook (`setWebhook`), as it said.
    Webhook(String),
}

impl std::fmt::Display for TelegramError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TelegramError::BadApiUrl(e) => write!(f, "TELEGRAM_API_URL is not a usable URL: {e}"),
            TelegramError::InvalidToken => {
                f.write_str("Telegram refused TELEGRAM_BOT_TOKEN (check it with @BotFather)")
            }
            TelegramError::Listen(addr, e) => {
                write!(
                    f,
                    "cannot serve the webhook on {addr} (TELEGRAM_WEBHOOK_LISTEN): {e}"
                )
            }
            TelegramError::Webhook(e) => write!(
                f,
                "Telegram refused the webhook (check TELEGRAM_WEBHOOK_URL, which must be https \
                 on port 443, 80, 88 or 8443): {e}"
            ),
        }
    }
}

impl std::error::Error for TelegramError {}

/// The bot client for `config` (its API server, if one is set).
///
/// # Errors
/// [`TelegramError::BadApiUrl`] when `TELEGRAM_API_URL` cannot be read.
pub fn bot(config: &TelegramConfig) -> Result<Bot, TelegramError> {
    let bot = Bot::new(config.token.expose());
    match config.api_url.as_deref() {
        None => Ok(bot),
        Some(url) => url
            .parse()
            .map(|u| bot.set_api_url(u))
            .map_err(|e| TelegramError::BadApiUrl(format!("{e}"))),
    }
}

/// What the update handlers share.
struct Adapter {
    service: Arc<Service>,
    bot: Bot,
    outbox: Outbox,
    /// The bot's username, lower case (commands for other bots are left alone).
    username: String,
    /// The bot's id: update ids are the bot's own, so they are stored with it.
    bot_id: u64,
    /// Whether an update the storage failed on is delivered again when told so (a webhook):
    /// then its failure is not answered in the chat, the update is tried again instead.
    redelivered: bool,
    /// Groups' administrators, as last asked.
    admins: admins::Admins,
}

impl Adapter {
    /// Where an update came from, for the service: its id (handled once), and whom its
    /// replies answer.
    fn origin(&self, update: u32, answering: &Answering) -> Origin {
        Origin {
            event: Some(Platform::Telegram.key(format!("{}:u:{update}", self.bot_id))),
            context: serde_json::to_string(answering).ok(),
        }
    }
}

/// Run the bot until `stop` completes: register the command menus, deliver what the outbox
/// holds, poll for updates and answer them, deliver the service's own messages; then finish
/// the updates in hand and deliver what is queued (for at most `drain_timeout`) and return.
///
/// # Errors
/// [`TelegramError::InvalidToken`] when Telegram refuses the token.
pub async fn run(
    service: Arc<Service>,
    bot: Bot,
    options: TelegramOptions,
    stop: impl Future<Output = ()> + Send,
) -> Result<(), TelegramError> {
    run_receiving(service, bot, options, None, stop).await
}

/// Like [`run`], with updates received by the webhook `config` describes instead of long
/// polling: the webhook is set at start (and left set at the end, for the other processes).
///
/// # Errors
/// [`TelegramError::InvalidToken`] when Telegram refuses the token,
/// [`TelegramError::Listen`] when the address cannot be served, [`TelegramError::Webhook`]
/// when Telegram refuses the webhook.
pub async fn run_webhook(
    service: Arc<Service>,
    bot: Bot,
    options: TelegramOptions,
    config: WebhookConfig,
    stop: impl Future<Output = ()> + Send,
) -> Result<(), TelegramError> {
    run_receiving(service, bot, options, Some(config), stop).await
}

async fn run_receiving(
    service: Arc<Service>,
    bot: Bot,
    options: TelegramOptions,
    webhook: Option<WebhookConfig>,
    stop: impl Future<Output = ()> + Send,
) -> Result<(), TelegramError> {
    tokio::pin!(stop);
    let me = tokio::select! {
        me = who_am_i(&bot, options.retry) => me?,
        () = &mut stop => return Ok(()),
    };
    let username = me.username.clone().unwrap_or_default().to_lowercase();
    tracing::info!(bot = %username, "Telegram: connected");
    service.connected(Platform::Telegram, true);
    let status = Arc::clone(&service);
    let connected = move |up| status.connected(Platform::Telegram, up);
    let outbox = Outbox::new(
        Telegram::new(&bot, api::BoardLinks::of(service.web_links())),
        Arc::clone(&service),
        options.retry,
    );
    let menus = tokio::spawn(commands::register(bot.clone(), options.retry));
    outbox.open();
    let inbox = polling::Inbox {
        storage: Arc::clone(service.storage()),
        prefix: Platform::Telegram.key(format!("{}:", me.id.0)),
    };
    let adapter = Arc::new(Adapter {
        service,
        bot: bot.clone(),
        outbox: outbox.clone(),
        username,
        bot_id: me.id.0,
        redelivered: webhook.is_some(),
        admins: admins::Admins::default(),
    });
    let handle = move |update| on_update(Arc::clone(&adapter), update);
    let received = match webhook {
        None => {
            let poll_options = polling::PollOptions {
                timeout: options.poll_timeout,
                retry: options.retry,
                finish: options.drain_timeout,
            };
            polling::poll(&bot, inbox, poll_options, handle, connected, stop).await;
            Ok(())
        }
        Some(config) => {
            let hook_options = webhook::HookOptions {
                retry: options.retry,
                finish: options.drain_timeout,
            };
            webhook::serve(&bot, &config, hook_options, handle, stop).await
        }
    };
    menus.abort();
    outbox.drain(options.drain_timeout).await;
    tracing::info!("Telegram: stopped");
    received
}

/// `getMe`, retried while the network fails.
async fn who_am_i(bot: &Bot, policy: RetryPolicy) -> Result<teloxide::types::Me, TelegramError> {
    let mut backoff = policy.first_backoff;
    loop {
        match bot.get_me().await {
            Ok(me) => return Ok(me),
            Err(RequestError::Api(ApiError::InvalidToken)) => {
                return Err(TelegramError::InvalidToken)
            }
            Err(RequestError::RetryAfter(s)) => tokio::time::sleep(s.duration()).await,
            Err(e) => {
                tracing::warn!(error = %redacted(&e, bot), "Telegram: getMe failed; retrying");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(policy.max_backoff);
            }
        }
    }
}

/// One update: a message or a button press (others are not asked for).
async fn on_update(tg: Arc<Adapter>, update: Update) -> Outcome {
    let id = update.id.0;
    match update.kind {
        UpdateKind::Message(msg) => on_message(msg, id, &tg).await,
        UpdateKind::CallbackQuery(q) => on_callback(q, id, &tg).await,
        _ => Outcome::Done,
    }
}

fn player(user: &User) -> PlayerRef {
    let name = user.full_name();
    let name = if name.trim().is_empty() {
        user.username.clone().unwrap_or_else(|| user.id.to_string())
    } else {
        name
    };
    PlayerRef::new(Platform::Telegram.key(user.id.0), &name)
}

fn lang_of(user: &User) -> Option<Lang> {
    user.language_code.as_deref().and_then(Lang::from_tag)
}

/// Whether `text` is a command addressed to another bot (`/play@OtherBot`).
fn for_another_bot(text: &str, me: &str) -> bool {
    let Some(rest) = text.trim_start().strip_prefix('/') else {
        return false;
    };
    let word = rest.split_whitespace().next().unwrap_or("");
    match word.split_once('@') {
        Some((_, bot)) => !bot.eq_ignore_ascii_case(me),
        None => false,
    }
}

/// The text with each `text_mention` (a user without a username, picked from the list) made
/// one word, and who those words are.
fn with_mentions(msg: &teloxide::types::Message, text: &str) -> (String, Vec<(String, PlayerRef)>) {
    let Some(entities) = msg.parse_entities() else {
        return (text.to_string(), Vec::new());
    };
    let mut out = String::new();
    let mut mentions = Vec::new();
    let mut at = 0;
    for e in entities {
        let MessageEntityKind::TextMention { user } = e.kind() else {
            continue;
        };
        let range = e.range();
        if range.start < at || range.end > text.len() {
            continue;
        }
        let word: String = e.text().split_whitespace().collect::<Vec<_>>().join("_");
        if word.is_empty() {
            continue;
        }
        out.push_str(&text[at..range.start]);
        out.push_str(&word);
        at = range.end;
        mentions.push((word, player(user)));
    }
    out.push_str(&text[at..]);
    (out, mentions)
}

/// Mentions of the bot's own username (`@XiangqiBot`, in any case) in `text`: the bot itself,
/// so `/play @XiangqiBot 3` starts a game against it.
fn self_mentions(text: &str, me: &str) -> Vec<(String, PlayerRef)> {
    if me.is_empty() {
        return Vec::new();
    }
    text.split_whitespace()
        .filter(|w| {
            w.strip_prefix('@')
                .is_some_and(|h| h.eq_ignore_ascii_case(me))
        })
        .map(|w| (w.to_string(), crate::app::bot::bot_itself()))
        .collect()
}

async fn on_message(msg: teloxide::types::Message, update: u32, tg: &Adapter) -> Outcome {
    // A group that became a supergroup has a new chat id; Telegram says so in both chats.
    let migration = match (msg.migrate_to_chat_id(), msg.migrate_from_chat_id()) {
        (Some(&to), _) => Some((msg.chat.id, to)),
        (_, Some(&from)) => Some((from, msg.chat.id)),
        _ => None,
    };
    if let Some((from, to)) = migration {
        let key = |chat| Target { chat, thread: None }.channel();
        match tg.service.move_channel(&key(from), &key(to)).await {
            Ok(moved) => tracing::info!(
                from = from.0,
                to = to.0,
                moved,
                "group moved to a supergroup"
            ),
            Err(e) => {
                tracing::error!(error = %e, from = from.0, to = to.0, "cannot move the group's games");
                if tg.redelivered {
                    return Outcome::Failed;
                }
            }
        }
        return Outcome::Done;
    }
    let (Some(raw), Some(from)) = (msg.text(), msg.from.as_ref()) else {
        return Outcome::Done;
    };
    if from.is_bot || for_another_bot(raw, &tg.username) {
        return Outcome::Done;
    }
    let target = Target {
        chat: msg.chat.id,
        thread: msg.thread_id.filter(|_| msg.is_topic_message),
    };
    let (text, mut mentions) = with_mentions(&msg, raw);
    mentions.extend(self_mentions(&text, &tg.username));
    let user = player(from);
    // Settings are a group's administrators' to change; the platform is asked only when a
    // line would change one.
    let may_configure = msg.chat.is_private()
        || (crate::app::parse_line(&text).configures()
            && tg.admins.may_configure(&tg.bot, msg.chat.id, from.id).await);
    let inc = Incoming {
        channel: target.channel(),
        user: user.clone(),
        handle: from.username.as_deref().map(str::to_lowercase),
        text,
        action: None,
        mentions,
        lang_hint: lang_of(from),
        community: target.community(),
        may_configure: Some(may_configure),
    };
    let answering = Answering {
        user: from.id.0,
        name: player(from).name,
        message: Some(msg.id),
        pressed: None,
    };
    let handled = tg
        .service
        .handle_from(inc, tg.origin(update, &answering))
        .await;
    if handled.failed && tg.redelivered {
        return Outcome::Failed;
    }
    if handled.queued.is_some() {
        return Outcome::Done; // the outbox delivers them
    }
    tg.outbox
        .push(&target.channel(), Some(answering), handled.replies);
    Outcome::Done
}

async fn on_callback(q: CallbackQuery, update: u32, tg: &Adapter) -> Outcome {
    let lang = lang_of(&q.from);
    let say = |m: Msg| text(&m, lang.unwrap_or_default());
    let (action, only_for) = read_callback_data(q.data.as_deref().unwrap_or(""));
    let Some(message) = q.message.as_ref() else {
        answer(&tg.bot, &q, &say(Msg::StaleButton)).await;
        return Outcome::Done;
    };
    if only_for.is_some_and(|u| u != q.from.id) {
        answer(&tg.bot, &q, &say(Msg::ButtonForSomeoneElse)).await;
        return Outcome::Done;
    }
    let Some(action) = action else {
        answer(&tg.bot, &q, &say(Msg::StaleButton)).await;
        return Outcome::Done;
    };
    let regular = message.regular_message();
    let target = Target {
        chat: message.chat().id,
        thread: regular
            .filter(|m| m.is_topic_message)
            .and_then(|m| m.thread_id),
    };
    let inc = Incoming {
        channel: target.channel(),
        user: player(&q.from),
        handle: q.from.username.as_deref().map(str::to_lowercase),
        text: String::new(),
        action: Some(action),
        mentions: Vec::new(),
        lang_hint: lang,
        community: target.community(),
        // No button changes a setting.
        may_configure: Some(message.chat().is_private()),
    };
    let kind = pressed_kind(regular);
    let name = player(&q.from).name;
    let answering = Answering {
        user: q.from.id.0,
        name: name.clone(),
        message: None,
        pressed: Some((message.id(), kind)),
    };
    let handled = tg
        .service
        .handle_from(inc, tg.origin(update, &answering))
        .await;
    if handled.failed && tg.redelivered {
        return Outcome::Failed; // answered when it comes again
    }
    let (notice, _) = press_jobs(&handled.replies, kind, message.id(), q.from.id, &name);
    answer(&tg.bot, &q, &notice).await;
    if handled.queued.is_none() {
        tg.outbox
            .push(&target.channel(), Some(answering), handled.replies);
    }
    Outcome::Done
}

/// Answer a button press (always, or the user's client keeps spinning); a few quick retries,
/// since Telegram forgets a query after some seconds.
async fn answer(bot: &Bot, q: &CallbackQuery, notice: &str) {
    for attempt in 1..=3u64 {
        let mut req = bot.answer_callback_query(q.id.clone());
        if !notice.is_empty() {
            req = req
                .text(notice.to_string())
                .show_alert(ops::tg_len(notice) > 100);
        }
        match req.await {
            Ok(_) => return,
            Err(RequestError::RetryAfter(s)) if s.seconds() <= 5 => {
                tokio::time::sleep(s.duration()).await;
            }
            Err(e @ (RequestError::Network(_) | RequestError::Io(_))) => {
                tracing::warn!(error = %redacted(&e, bot), "answerCallbackQuery failed; retrying");
                tokio::time::sleep(Duration::from_millis(300 * attempt)).await;
            }
            Err(e) => {
                tracing::warn!(error = %redacted(&e, bot), "answerCallbackQuery failed");
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_for_other_bots_are_left_alone() {
        assert!(!for_another_bot("/play @bob", "xiangqi_bot"));
        assert!(!for_another_bot("/play@Xiangqi_Bot @bob", "xiangqi_bot"));
        assert!(for_another_bot("/play@other_bot", "xiangqi_bot"));
        assert!(!for_another_bot("h2e2", "xiangqi_bot"));
        assert!(!for_another_bot("mail me@x.org", "xiangqi_bot"));
    }
}
