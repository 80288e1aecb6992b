//! The send queues: one lane per chat, so a chat that Telegram slows down (429,
//! `retry_after`) waits alone while every other chat goes on. Server errors and unreadable
//! answers are retried with growing pauses (a few times), network failures until they pass;
//! a call Telegram refuses for good is logged and dropped, and a picture it refuses is sent as
//! text.
//!
//! A lane carries two kinds of work: single calls (answers to commands that changed nothing)
//! and outbox entries (what a change made the service say, stored with it). An entry's calls
//! are made in order once the service made it ready (its turn in the channel, its pictures
//! drawn), and it is forgotten once every call went through or was given up.

use std::sync::Arc;
use std::time::Duration;

use teloxide::types::{ChatId, MessageId, UserId};
use teloxide::ApiError;

use super::api::{Api, Failure};
use super::ops::{reply_jobs, retire_ops, Answering, Job, Op, Target};
use super::press::press_jobs;
use crate::adapters::lanes::{Lanes, Skipped, Work, HELD_PER_LANE};
use crate::app::{Delivery, ImageKind, Reply, Service};
use crate::platform::Platform;

pub use crate::adapters::lanes::RetryPolicy;

/// What a lane works through.
enum Item {
    /// One call.
    Call(Job),
    /// An outbox entry: its calls, then it is forgotten.
    Entry(Delivery),
    /// The chat's queue refused answers: say so.
    Skipped(Target),
}

/// The per-chat send queues.
#[derive(Clone)]
pub struct Outbox {
    lanes: Lanes<ChatId, Item>,
    shared: Arc<Shared>,
}

struct Shared {
    api: Api,
    service: Arc<Service>,
    policy: RetryPolicy,
    /// Chats whose queue refused answers and that are still to be told.
    skipped: Skipped<ChatId>,
}

/// What to do after a failed call.
#[derive(Debug, PartialEq, Eq)]
enum Next {
    /// Telegram's flood control: wait this long, then send again.
    Wait(Duration),
    /// The network failed: wait (growing), then send again.
    Backoff,
    /// A server error or an answer that is not Telegram's: retry a few times.
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

fn classify(err: &Failure, op: &Op) -> Next {
    let (code, retry_after, migrate_to) = match err {
        Failure::Network(_) => return Next::Backoff,
        Failure::Unreadable(_) => return Next::Unknown,
        Failure::Api {
            code,
            retry_after,
            migrate_to,
            ..
        } => (*code, *retry_after, *migrate_to),
    };
    if let Some(to) = migrate_to {
        return Next::Migrate(ChatId(to));
    }
    if code == 429 {
        return Next::Wait(Duration::from_secs(retry_after.unwrap_or(1).max(1)));
    }
    if code >= 500 {
        return Next::Unknown;
    }
    let api = err.api_error().unwrap_or(ApiError::Unknown(String::new()));
    match (api, op) {
        (ApiError::MessageNotModified, Op::Edit { .. }) | (_, Op::ClearKeyboard { .. }) => {
            Next::Done
        }
        (
            ApiError::MessageToEditNotFound
            | ApiError::MessageCantBeEdited
            | ApiError::MessageIdInvalid,
            Op::Edit { .. },
        ) => Next::Fallback,
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
        // Forbidden or unauthorized: nothing else will pass either.
        _ if code == 401 || code == 403 => Next::Fail,
        // A picture refused (no right to send photos, a picture it cannot process), an edit
        // refused: plain text may still go through.
        (_, Op::Picture { .. } | Op::Edit { .. }) => Next::Fallback,
        _ => Next::Fail,
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
pub(super) fn redacted(err: &teloxide::RequestError, bot: &teloxide::Bot) -> String {
    let shown = err.to_string();
    let token = bot.token();
    if token.is_empty() {
        shown
    } else {
        shown.replace(token, "***")
    }
}

/// The calls that deliver `replies` in `target` as the event they answer asked (`None`: the
/// service's own messages), each with what to tell the service once it is shown.
pub(super) fn answer_jobs(
    target: Target,
    answering: Option<&Answering>,
    replies: &[Reply],
) -> Vec<Job> {
    let job = |(op, track)| Job { target, op, track };
    match answering {
        None => replies
            .iter()
            .flat_map(|r| reply_jobs(r, target, "", None, None))
            .collect(),
        Some(Answering {
            user,
            name,
            pressed: Some((message_id, pressed)),
            ..
        }) => press_jobs(replies, *pressed, *message_id, UserId(*user), name)
            .1
            .into_iter()
            .map(job)
            .collect(),
        Some(Answering { user, message, .. }) => {
            let key = Platform::Telegram.key(user);
            replies
                .iter()
                .flat_map(|r| {
                    // Telegram cannot show a message to one member only: a private reply
                    // answers the user's message, and its buttons are theirs alone.
                    if r.private {
                        reply_jobs(r, target, &key, Some(UserId(*user)), *message)
                    } else {
                        reply_jobs(r, target, &key, None, None)
                    }
                })
                .collect()
        }
    }
}

/// The calls that deliver an outbox entry, as the event it answers asked.
fn entry_jobs(target: Target, d: &Delivery) -> Vec<Job> {
    let answering: Option<Answering> = d
        .context
        .as_deref()
        .and_then(|c| serde_json::from_str(c).ok());
    answer_jobs(target, answering.as_ref(), &d.replies)
}

impl Outbox {
    /// Queues sending through `bot`, telling `service` what was delivered.
    #[must_use]
    pub fn new(bot: &teloxide::Bot, service: Arc<Service>, policy: RetryPolicy) -> Outbox {
        let shared = Arc::new(Shared {
            api: Api::new(bot),
            service,
            policy,
            skipped: Skipped::default(),
        });
        let worker = Arc::clone(&shared);
        let work: Work<Item> = Arc::new(move |item| {
            let shared = Arc::clone(&worker);
            Box::pin(async move { work(&shared, item).await })
        });
        Outbox {
            lanes: Lanes::new(policy.idle, work),
            shared,
        }
    }

    /// Queue `job` (an answer that was not stored) behind the chat's earlier ones, unless the
    /// chat's queue is full ([`HELD_PER_LANE`]): then it is dropped, and the chat is told that
    /// answers were skipped (once, until that notice is sent).
    pub fn push(&self, job: Job) {
        let (target, method) = (job.target, op_name(&job.op));
        let pushed = self
            .lanes
            .push_within(target.chat, Item::Call(job), HELD_PER_LANE);
        if pushed.is_err() {
            tracing::warn!(
                chat = target.chat.0,
                method,
                "a chat's send queue is full (or stopping): an answer that changed nothing is not sent"
            );
            if self.shared.skipped.first(target.chat) {
                // Past the cap: one short notice per full queue.
                let _ = self.lanes.push(target.chat, Item::Skipped(target));
            }
        }
    }

    /// Queue an outbox entry behind the chat's earlier messages.
    pub fn push_entry(&self, d: Delivery) {
        let Some(target) = Target::from_channel(&d.key.channel) else {
            tracing::error!(channel = %d.key.channel, "an outbox entry for no Telegram chat");
            return;
        };
        if let Err(Item::Entry(d)) = self.lanes.push(target.chat, Item::Entry(d)) {
            tracing::info!(channel = %d.key.channel, seq = d.key.seq,
                "stopping: a stored reply is sent at the next start");
        }
    }

    /// Calls and entries queued and not finished yet.
    #[must_use]
    pub fn pending(&self) -> usize {
        self.lanes.pending()
    }

    /// Stop taking work and deliver what is queued, for at most `limit`. Returns how much was
    /// still undelivered when time ran out: outbox entries among it are sent at the next start.
    pub async fn drain(&self, limit: Duration) -> usize {
        let left = self.lanes.drain(limit).await;
        if left > 0 {
            tracing::warn!(
                undelivered = left,
                "stopping with messages Telegram has not taken yet; stored replies go out at the next start"
            );
        }
        left
    }
}

async fn work(shared: &Shared, item: Item) {
    match item {
        Item::Call(job) => {
            send(shared, job).await;
        }
        Item::Skipped(target) => {
            let text = shared.service.queue_full_notice(&target.channel());
            let op = Op::Text {
                text,
                keyboard: None,
                reply_to: None,
            };
            shared.skipped.told(&target.chat);
            send(shared, Job::untracked(target, op)).await;
        }
        Item::Entry(mut d) => {
            shared.service.ready(&d.key, &mut d.replies).await;
            match Target::from_channel(&d.key.channel) {
                Some(mut target) => {
                    for mut job in entry_jobs(target, &d) {
                        // A group that became a supergroup on the way: the rest goes there.
                        job.target = target;
                        target = send(shared, job).await;
                    }
                }
                None => {
                    tracing::error!(channel = %d.key.channel, "an outbox entry for no Telegram chat")
                }
            }
            if let Err(e) = shared.service.delivered(&d.key).await {
                tracing::error!(error = %e, channel = %d.key.channel,
                    "cannot forget a delivered reply; it may be sent again after a restart");
            }
        }
    }
}

/// Make one call (see [`deliver`]); for a message with one-time buttons, then tell the service
/// where it went and take the buttons off what it says no longer applies (retried like any
/// other call). Returns where the chat is now.
async fn send(shared: &Shared, job: Job) -> Target {
    let track = job.track.clone();
    let (target, sent) = deliver(shared, job).await;
    if let (Some(track), Some(id)) = (track, sent) {
        let retired = shared
            .service
            .shown(
                &target.channel(),
                &track.user,
                track.action,
                id.0.to_string(),
            )
            .await;
        for op in retire_ops(&retired, None) {
            deliver(shared, Job::untracked(target, op)).await;
        }
    }
    target
}

/// Make one call, retrying as its failures allow; returns where the chat is now (a group
/// that became a supergroup moves) and the id of the message sent or edited, if it went.
async fn deliver(shared: &Shared, mut job: Job) -> (Target, Option<MessageId>) {
    let policy = shared.policy;
    let mut backoff = policy.first_backoff;
    let mut unknown = 0;
    loop {
        let err = match shared.api.call(&job).await {
            Ok(id) => return (job.target, id),
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
                tracing::warn!(chat, method, error = %err,
                    backoff_ms = u64::try_from(backoff.as_millis()).unwrap_or(u64::MAX),
                    "cannot reach Telegram; retrying");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(policy.max_backoff);
            }
            Next::Unknown if unknown + 1 < policy.unknown_error_attempts => {
                unknown += 1;
                tracing::warn!(chat, method, error = %err, attempt = unknown,
                    "Telegram error; retrying");
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
                    tracing::warn!(chat, method, error = %err,
                        "Telegram refused the call; sending plain text instead");
                    job.op = op;
                }
                None => {
                    tracing::error!(chat, method, error = %err,
                        "Telegram refused a message; it is dropped");
                    return (job.target, None);
                }
            },
            Next::Done => {
                tracing::debug!(chat, method, error = %err, "nothing to change");
                return (job.target, None);
            }
            Next::Unknown | Next::Fail => {
                tracing::error!(chat, method, error = %err,
                    "Telegram refused a message; it is dropped");
                return (job.target, None);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use teloxide::types::MessageId;

    fn api(code: u16, description: &str) -> Failure {
        Failure::Api {
            code,
            description: description.into(),
            retry_after: None,
            migrate_to: None,
        }
    }

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
        let flood = Failure::Api {
            code: 429,
            description: "Too Many Requests: retry after 3".into(),
            retry_after: Some(3),
            migrate_to: None,
        };
        assert_eq!(
            classify(&flood, &text_op()),
            Next::Wait(Duration::from_secs(3))
        );
        assert_eq!(
            classify(&api(400, "Bad Request: IMAGE_PROCESS_FAILED"), &pic),
            Next::Fallback
        );
        assert_eq!(
            classify(
                &api(
                    400,
                    "Bad Request: not enough rights to send photos to the chat"
                ),
                &pic
            ),
            Next::Fallback
        );
        assert_eq!(
            classify(
                &api(
                    400,
                    "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message"
                ),
                &edit
            ),
            Next::Done
        );
        assert_eq!(
            classify(&api(400, "Bad Request: message to edit not found"), &edit),
            Next::Fallback
        );
        assert_eq!(
            classify(&api(403, "Forbidden: bot was blocked by the user"), &pic),
            Next::Fail
        );
        assert_eq!(classify(&api(403, "Forbidden: whatever"), &pic), Next::Fail);
        assert_eq!(
            classify(&api(502, "Bad Gateway"), &text_op()),
            Next::Unknown
        );
        assert_eq!(
            classify(&Failure::Unreadable(400), &text_op()),
            Next::Unknown
        );
        assert_eq!(
            classify(&Failure::Network("reset".into()), &pic),
            Next::Backoff
        );
        assert_eq!(
            classify(&api(400, "Bad Request: x"), &text_op()),
            Next::Fail
        );
        assert!(matches!(fallback(&pic), Some(Op::Text { text, .. }) if text == "alt text"));
        assert!(matches!(fallback(&edit), Some(Op::Text { text, .. }) if text == "pick"));
        assert!(fallback(&text_op()).is_none());
    }

    #[test]
    fn entries_are_delivered_as_the_event_they_answer_asked() {
        use super::super::ops::Pressed;
        use crate::app::{Button, Delivery, Reply};
        use crate::game::OutboxKey;
        let target = Target {
            chat: ChatId(-5),
            thread: None,
        };
        let entry = |context: Option<Answering>, replies: Vec<Reply>| Delivery {
            key: OutboxKey {
                channel: "tg:-5".into(),
                seq: 1,
            },
            created_ms: 0,
            context: context.map(|a| serde_json::to_string(&a).expect("json")),
            replies,
        };
        let ops =
            |d: &Delivery| -> Vec<Op> { entry_jobs(target, d).into_iter().map(|j| j.op).collect() };
        let said = Answering {
            user: 7,
            name: "An".into(),
            message: Some(MessageId(40)),
            pressed: None,
        };
        let question = Reply {
            track: true,
            buttons: vec![vec![Button {
                label: "Accept".into(),
                action: crate::app::Action::Accept { id: 3 },
            }]],
            retire: vec!["12".into()],
            ..Reply::text("Bình challenges An")
        };
        let jobs = entry_jobs(
            target,
            &entry(
                Some(said.clone()),
                vec![Reply::text("public"), Reply::private("only you"), question],
            ),
        );
        assert!(matches!(&jobs[0].op, Op::Text { reply_to: None, .. }));
        assert!(matches!(
            &jobs[1].op,
            Op::Text {
                reply_to: Some(MessageId(40)),
                ..
            }
        ));
        // The question is tracked for the user who acted; the message it retires loses its
        // buttons after it.
        assert_eq!(
            jobs[2].track.as_ref().map(|t| t.user.as_str()),
            Some("tg:7")
        );
        assert!(matches!(
            &jobs[3].op,
            Op::ClearKeyboard {
                message_id: MessageId(12)
            }
        ));
        let pressed = Answering {
            user: 7,
            name: "An".into(),
            message: None,
            pressed: Some((MessageId(41), Pressed::Question)),
        };
        let got = ops(&entry(
            Some(pressed),
            vec![Reply::text("accepted"), Reply::private("a notice")],
        ));
        assert!(
            matches!(
                &got[..],
                [
                    Op::ClearKeyboard {
                        message_id: MessageId(41)
                    },
                    Op::Text { .. }
                ]
            ),
            "the question loses its buttons; the notice went with the press's answer: {got:?}"
        );
        // A timer's message: to the chat.
        let got = ops(&entry(None, vec![Reply::text("lapsed")]));
        assert!(matches!(&got[..], [Op::Text { .. }]));
    }
}
