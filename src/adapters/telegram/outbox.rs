//! The send queues: one worker task per chat, so a chat that Telegram slows down (429,
//! `retry_after`) waits alone while every other chat goes on. A network failure is retried
//! with exponential backoff; nothing is dropped without an error in the log. The service has
//! already stored whatever a message reports, so a late message never loses a move.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use teloxide::payloads::setters::*;
use teloxide::prelude::Requester;
use teloxide::types::{ChatId, InputFile, MessageId, ReplyParameters};
use teloxide::{ApiError, Bot, RequestError};
use tokio::sync::{mpsc, Notify};
use tokio::task::JoinHandle;

use super::ops::{Job, Op, Shown, Target};
use crate::app::ImageKind;

/// How the queues wait and retry.
#[derive(Clone, Copy, Debug)]
pub struct RetryPolicy {
    /// The first wait after a network error (doubled each time).
    pub first_backoff: Duration,
    /// The longest wait between two attempts.
    pub max_backoff: Duration,
    /// How often an unrecognised Telegram error is retried before the message is given up.
    pub unknown_error_attempts: u32,
    /// How long a chat's worker stays without work before it ends.
    pub idle: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            first_backoff: Duration::from_millis(500),
            max_backoff: Duration::from_secs(60),
            unknown_error_attempts: 6,
            idle: Duration::from_secs(60),
        }
    }
}

/// The per-chat send queues.
#[derive(Clone)]
pub struct Outbox {
    inner: Arc<Inner>,
}

struct Inner {
    bot: Bot,
    policy: RetryPolicy,
    queues: Mutex<HashMap<ChatId, mpsc::UnboundedSender<Job>>>,
    workers: Mutex<Vec<JoinHandle<()>>>,
    /// Jobs queued and not yet finished (delivered or given up).
    pending: AtomicUsize,
    settled: Notify,
    closed: AtomicBool,
    /// Where tracked messages are reported once Telegram took them.
    shown: Mutex<Option<mpsc::UnboundedSender<Shown>>>,
}

fn locked<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What to do after a failed call.
#[derive(Debug, PartialEq, Eq)]
enum Next {
    /// Telegram's flood control: wait this long, then send again.
    Wait(Duration),
    /// A transient failure: wait (growing), then send again.
    Backoff,
    /// An error Telegram has no name for (a 5xx page, something new): retry a few times.
    Unknown,
    /// The group became a supergroup: send there.
    Migrate(ChatId),
    /// The call cannot work as it is, but a simpler one may (a picture as text, an edit as a
    /// new message).
    Fallback,
    /// Nothing left to do (an edit that changed nothing, a keyboard already gone).
    Done,
    /// Telegram will never take it (bot blocked, chat gone, no rights).
    Fail,
}

fn classify(err: &RequestError, op: &Op) -> Next {
    match err {
        RequestError::RetryAfter(s) => Next::Wait(s.duration()),
        RequestError::Network(_) | RequestError::Io(_) | RequestError::InvalidJson { .. } => {
            Next::Backoff
        }
        RequestError::MigrateToChatId(c) => Next::Migrate(*c),
        RequestError::Api(api) => match (api, op) {
            (ApiError::MessageNotModified, Op::Edit { .. } | Op::ClearKeyboard { .. }) => {
                Next::Done
            }
            (_, Op::ClearKeyboard { .. }) => Next::Done,
            (
                ApiError::MessageToEditNotFound
                | ApiError::MessageCantBeEdited
                | ApiError::MessageIdInvalid,
                Op::Edit { .. },
            ) => Next::Fallback,
            (ApiError::Unknown(_), _) => Next::Unknown,
            (
                ApiError::BotBlocked
                | ApiError::BotKicked
                | ApiError::BotKickedFromSupergroup
                | ApiError::BotKickedFromChannel
                | ApiError::ChatNotFound
                | ApiError::GroupDeactivated
                | ApiError::UserDeactivated
                | ApiError::CantInitiateConversation
                | ApiError::NotEnoughRightsToPostMessages
                | ApiError::InvalidToken,
                _,
            ) => Next::Fail,
            (_, Op::Picture { .. } | Op::Edit { .. }) => Next::Fallback,
            _ => Next::Fail,
        },
    }
}

/// A simpler call that may work where `op` did not.
fn fallback(op: &Op) -> Option<Op> {
    match op {
        Op::Picture {
            caption,
            keyboard,
            fallback,
            ..
        } => {
            let text = if caption.trim().is_empty() {
                fallback.clone()
            } else {
                caption.clone()
            };
            Some(Op::Text {
                text,
                keyboard: keyboard.clone(),
                reply_to: None,
            })
        }
        Op::Edit { text, keyboard, .. } => Some(Op::Text {
            text: text.clone(),
            keyboard: keyboard.clone(),
            reply_to: None,
        }),
        Op::Text { .. } | Op::ClearKeyboard { .. } => None,
    }
}

fn op_name(op: &Op) -> &'static str {
    match op {
        Op::Text { .. } => "sendMessage",
        Op::Picture {
            kind: ImageKind::Png,
            ..
        } => "sendPhoto",
        Op::Picture {
            kind: ImageKind::Gif,
            ..
        } => "sendAnimation",
        Op::Edit { .. } => "editMessageText",
        Op::ClearKeyboard { .. } => "editMessageReplyMarkup",
    }
}

/// An error as it may be logged: never with the token (teloxide already hides it in URLs;
/// this also covers any other place it could appear).
pub(super) fn redacted(err: &RequestError, bot: &Bot) -> String {
    let shown = err.to_string();
    let token = bot.token();
    if token.is_empty() {
        shown
    } else {
        shown.replace(token, "***")
    }
}

impl Outbox {
    /// Queues sending through `bot`.
    #[must_use]
    pub fn new(bot: Bot, policy: RetryPolicy) -> Outbox {
        Outbox {
            inner: Arc::new(Inner {
                bot,
                policy,
                queues: Mutex::new(HashMap::new()),
                workers: Mutex::new(Vec::new()),
                pending: AtomicUsize::new(0),
                settled: Notify::new(),
                closed: AtomicBool::new(false),
                shown: Mutex::new(None),
            }),
        }
    }

    /// Reports of the tracked messages delivered from now on (see [`Job::track`]).
    pub fn watch_shown(&self) -> mpsc::UnboundedReceiver<Shown> {
        let (tx, rx) = mpsc::unbounded_channel();
        *locked(&self.inner.shown) = Some(tx);
        rx
    }

    /// Queue `job` behind the chat's earlier ones.
    pub fn push(&self, job: Job) {
        let inner = &self.inner;
        if inner.closed.load(Ordering::SeqCst) {
            tracing::error!(
                chat = job.target.chat.0,
                method = op_name(&job.op),
                "a message came after shutdown and is not sent"
            );
            return;
        }
        let chat = job.target.chat;
        inner.pending.fetch_add(1, Ordering::SeqCst);
        let mut queues = locked(&inner.queues);
        let job = match queues.get(&chat) {
            Some(tx) => match tx.send(job) {
                Ok(()) => return,
                Err(mpsc::error::SendError(job)) => job, // its worker just ended
            },
            None => job,
        };
        let (tx, rx) = mpsc::unbounded_channel();
        // A fresh channel's receiver is alive: this cannot fail.
        let _ = tx.send(job);
        queues.insert(chat, tx);
        drop(queues);
        let handle = tokio::spawn(worker(Arc::clone(inner), chat, rx));
        let mut workers = locked(&inner.workers);
        workers.retain(|h| !h.is_finished());
        workers.push(handle);
    }

    /// Jobs queued and not finished yet.
    #[must_use]
    pub fn pending(&self) -> usize {
        self.inner.pending.load(Ordering::SeqCst)
    }

    /// Stop taking jobs and deliver the queued ones, for at most `limit`. Returns how many
    /// were still undelivered when time ran out (each is logged).
    pub async fn drain(&self, limit: Duration) -> usize {
        let inner = &self.inner;
        inner.closed.store(true, Ordering::SeqCst);
        // Dropping the senders lets each worker end once its queue is empty.
        locked(&inner.queues).clear();
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let settled = inner.settled.notified();
            tokio::pin!(settled);
            settled.as_mut().enable();
            if inner.pending.load(Ordering::SeqCst) == 0 {
                return 0;
            }
            if tokio::time::timeout_at(deadline, settled).await.is_err() {
                break;
            }
        }
        let left = inner.pending.load(Ordering::SeqCst);
        if left > 0 {
            tracing::error!(
                undelivered = left,
                "shutting down with messages Telegram has not taken yet; they are lost"
            );
        }
        for h in locked(&inner.workers).drain(..) {
            h.abort();
        }
        left
    }
}

async fn worker(inner: Arc<Inner>, chat: ChatId, mut rx: mpsc::UnboundedReceiver<Job>) {
    loop {
        let job = match tokio::time::timeout(inner.policy.idle, rx.recv()).await {
            Ok(Some(job)) => job,
            Ok(None) => break,
            Err(_) => {
                // Idle: leave, unless a job arrived while the map was not locked.
                let mut queues = locked(&inner.queues);
                if let Ok(job) = rx.try_recv() {
                    drop(queues);
                    job
                } else {
                    queues.remove(&chat);
                    break;
                }
            }
        };
        let track = job.track.clone();
        let target = job.target;
        if let (Some(message_id), Some(track)) = (deliver(&inner, job).await, track) {
            if let Some(tx) = locked(&inner.shown).as_ref() {
                let _ = tx.send(Shown {
                    target,
                    track,
                    message_id,
                });
            }
        }
        inner.pending.fetch_sub(1, Ordering::SeqCst);
        inner.settled.notify_waiters();
    }
}

/// Deliver `job`, retrying as its errors allow; the message's id if it was delivered.
async fn deliver(inner: &Inner, mut job: Job) -> Option<MessageId> {
    let policy = inner.policy;
    let mut backoff = policy.first_backoff;
    let mut unknown = 0;
    loop {
        let err = match call(&inner.bot, &job).await {
            Ok(id) => return id,
            Err(e) => e,
        };
        let chat = job.target.chat.0;
        let method = op_name(&job.op);
        match classify(&err, &job.op) {
            Next::Wait(d) => {
                tracing::warn!(
                    chat,
                    method,
                    retry_after_secs = d.as_secs(),
                    "Telegram flood control: this chat's messages wait"
                );
                tokio::time::sleep(d).await;
            }
            Next::Backoff => {
                tracing::warn!(chat, method, error = %redacted(&err, &inner.bot),
                    backoff_ms = u64::try_from(backoff.as_millis()).unwrap_or(u64::MAX),
                    "cannot reach Telegram; retrying");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(policy.max_backoff);
            }
            Next::Unknown if unknown + 1 < policy.unknown_error_attempts => {
                unknown += 1;
                tracing::warn!(chat, method, error = %redacted(&err, &inner.bot),
                    attempt = unknown, "Telegram error; retrying");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(policy.max_backoff);
            }
            Next::Migrate(to) => {
                tracing::info!(chat, to = to.0, "the group moved to a supergroup");
                job.target = Target {
                    chat: to,
                    thread: None,
                };
            }
            Next::Fallback => match fallback(&job.op) {
                Some(op) => {
                    tracing::warn!(chat, method, error = %redacted(&err, &inner.bot),
                        "Telegram refused the call; sending plain text instead");
                    job.op = op;
                }
                None => {
                    tracing::error!(chat, method, error = %redacted(&err, &inner.bot),
                        "Telegram refused a message; it is dropped");
                    return None;
                }
            },
            Next::Done => {
                tracing::debug!(chat, method, error = %redacted(&err, &inner.bot), "nothing to change");
                return None;
            }
            Next::Unknown | Next::Fail => {
                tracing::error!(chat, method, error = %redacted(&err, &inner.bot),
                    "Telegram refused a message; it is dropped");
                return None;
            }
        }
    }
}

/// Make the call once; the id of the message sent or edited.
async fn call(bot: &Bot, job: &Job) -> Result<Option<MessageId>, RequestError> {
    let Target { chat, thread } = job.target;
    match &job.op {
        Op::Text {
            text,
            keyboard,
            reply_to,
        } => {
            let mut req = bot.send_message(chat, text.clone());
            if let Some(t) = thread {
                req = req.message_thread_id(t);
            }
            if let Some(kb) = keyboard {
                req = req.reply_markup(kb.clone());
            }
            if let Some(id) = reply_to {
                req = req.reply_parameters(ReplyParameters::new(*id).allow_sending_without_reply());
            }
            req.await.map(|m| Some(m.id))
        }
        Op::Picture {
            bytes,
            filename,
            kind,
            caption,
            keyboard,
            ..
        } => {
            let file = InputFile::memory(bytes.as_ref().clone()).file_name(filename.clone());
            let caption = (!caption.trim().is_empty()).then(|| caption.clone());
            // sendPhoto and sendAnimation are distinct request types in teloxide, with setters
            // of the same names from distinct traits; one macro sets them on either.
            macro_rules! send_media {
                ($req:expr) => {{
                    let mut req = $req;
                    if let Some(t) = thread {
                        req = req.message_thread_id(t);
                    }
                    if let Some(c) = caption {
                        req = req.caption(c);
                    }
                    if let Some(kb) = keyboard {
                        req = req.reply_markup(kb.clone());
                    }
                    req.await.map(|m| Some(m.id))
                }};
            }
            match kind {
                ImageKind::Png => send_media!(bot.send_photo(chat, file)),
                ImageKind::Gif => send_media!(bot.send_animation(chat, file)),
            }
        }
        Op::Edit {
            message_id,
            text,
            keyboard,
        } => {
            let mut req = bot.edit_message_text(chat, *message_id, text.clone());
            if let Some(kb) = keyboard {
                req = req.reply_markup(kb.clone());
            }
            req.await.map(|_| Some(*message_id))
        }
        Op::ClearKeyboard { message_id } => bot
            .edit_message_reply_markup(chat, *message_id)
            .await
            .map(|_| None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use teloxide::types::{MessageId, Seconds};

    fn text_op() -> Op {
        Op::Text {
            text: "t".into(),
            keyboard: None,
            reply_to: None,
        }
    }

    #[test]
    fn errors_are_sorted_into_wait_retry_fallback_and_fail() {
        let pic = Op::Picture {
            bytes: Arc::new(vec![1]),
            filename: "b.png".into(),
            kind: ImageKind::Png,
            caption: String::new(),
            keyboard: None,
            fallback: "alt text".into(),
        };
        let edit = Op::Edit {
            message_id: MessageId(3),
            text: "pick".into(),
            keyboard: None,
        };
        assert_eq!(
            classify(
                &RequestError::RetryAfter(Seconds::from_seconds(3)),
                &text_op()
            ),
            Next::Wait(Duration::from_secs(3))
        );
        assert_eq!(
            classify(&RequestError::Api(ApiError::ImageProcessFailed), &pic),
            Next::Fallback
        );
        assert_eq!(
            classify(&RequestError::Api(ApiError::MessageNotModified), &edit),
            Next::Done
        );
        assert_eq!(
            classify(&RequestError::Api(ApiError::MessageToEditNotFound), &edit),
            Next::Fallback
        );
        assert_eq!(
            classify(&RequestError::Api(ApiError::BotBlocked), &pic),
            Next::Fail
        );
        assert_eq!(
            classify(
                &RequestError::Api(ApiError::Unknown("Bad Gateway".into())),
                &text_op()
            ),
            Next::Unknown
        );
        assert!(matches!(fallback(&pic), Some(Op::Text { text, .. }) if text == "alt text"));
        assert!(matches!(fallback(&edit), Some(Op::Text { text, .. }) if text == "pick"));
        assert!(fallback(&text_op()).is_none());
    }
}
