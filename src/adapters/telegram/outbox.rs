//! Telegram's side of the delivery worker ([`crate::adapters::delivery`]): how a reply
//! becomes Bot API calls (as the event it answers asked), how a call is made, and how a
//! failure reads: flood control (429, `retry_after`) is waited out, server errors and
//! unreadable answers are retried a few times, network failures until they pass; a group
//! that became a supergroup is followed; a picture Telegram refuses is sent as text, an edit
//! it refuses as a new message; what it refuses for good is logged and dropped.

use std::time::Duration;

use teloxide::types::{ChatId, MessageId, ThreadId, UserId};
use teloxide::ApiError;

use super::api::{Api, Failure};
use super::ops::{reply_jobs, retire_ops, Answering, Job, Op, Target};
use super::press::press_jobs;
use crate::adapters::delivery::{self, Deliverer, Out, Said, Stopping, Undelivered};
use crate::app::{ImageKind, Reply, VenueAsk};
use crate::game::OutboxKey;
use crate::platform::{ChannelKey, Platform, UserKey};

pub use crate::adapters::lanes::RetryPolicy;

/// The per-chat send queues.
pub type Outbox = Deliverer<Telegram>;

/// Sending on Telegram.
pub struct Telegram {
    api: Api,
}

impl Telegram {
    /// Sending through `bot`.
    #[must_use]
    pub fn new(bot: &teloxide::Bot, board: super::api::BoardLinks) -> Telegram {
        Telegram {
            api: Api::new(bot, board),
        }
    }
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

/// Why no further call is made for a message.
#[derive(Debug, PartialEq, Eq)]
pub enum Stop {
    /// Nothing to change (an edit that changed nothing, a keyboard already gone).
    Done,
    /// Telegram will never take it.
    Refused,
}

impl Stopping for Stop {
    fn drops(&self) -> bool {
        *self == Stop::Refused
    }
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
        // A request refused with mentions in it ("can't parse entities" for a user Telegram
        // will not name): the same without them.
        (_, Op::Text { mentions, .. } | Op::Picture { mentions, .. }) if !mentions.is_empty() => {
            Next::Fallback
        }
        // A picture refused (no right to send photos, a picture it cannot process), an edit
        // refused: plain text may still go through.
        (_, Op::Picture { .. } | Op::Edit { .. }) => Next::Fallback,
        _ => Next::Fail,
    }
}

/// A simpler call that may work where `op` did not.
fn fallback(op: &Op) -> Option<Op> {
    match op {
        Op::Text { mentions, .. } | Op::Picture { mentions, .. } if !mentions.is_empty() => {
            let mut plain = op.clone();
            if let Op::Text { mentions, .. } | Op::Picture { mentions, .. } = &mut plain {
                mentions.clear();
            }
            Some(plain)
        }
        Op::Picture {
            caption,
            mentions,
            keyboard,
            fallback,
            ..
        } => {
            let (text, mentions) = if caption.trim().is_empty() {
                (fallback.clone(), Vec::new())
            } else {
                (caption.clone(), mentions.clone())
            };
            Some(Op::Text {
                text,
                mentions,
                keyboard: keyboard.clone(),
                reply_to: None,
            })
        }
        Op::Edit { text, keyboard, .. } => Some(Op::Text {
            text: text.clone(),
            mentions: Vec::new(),
            keyboard: keyboard.clone(),
            reply_to: None,
        }),
        Op::Text { .. } | Op::ClearKeyboard { .. } | Op::CreateTopic { .. } => None,
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
        Op::CreateTopic { .. } => "createForumTopic",
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
            .flat_map(|r| reply_jobs(r, target, &UserKey::default(), None, None))
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
            let key = UserKey::on(Platform::Telegram, user);
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

impl delivery::Platform for Telegram {
    const KIND: Platform = Platform::Telegram;
    type Lane = ChatId;
    type Answering = Answering;
    type Op = Job;
    type Sent = Option<MessageId>;
    type Failure = Failure;
    type Stop = Stop;

    fn lane(channel: &str) -> Option<ChatId> {
        Target::from_channel(channel).map(|t| t.chat)
    }

    fn answering(context: &str) -> Option<Answering> {
        serde_json::from_str(context).ok()
    }

    fn what(job: &Job) -> &'static str {
        op_name(&job.op)
    }

    async fn call(&self, job: &Job) -> Result<Option<MessageId>, Failure> {
        self.api.call(job).await
    }

    fn classify(&self, err: &Failure, job: &Job) -> delivery::Next<Job, Stop> {
        use delivery::Next as N;
        match classify(err, &job.op) {
            Next::Wait(d) => N::Wait(d),
            Next::Backoff => N::Backoff,
            Next::Unknown => N::Server,
            Next::Migrate(to) => {
                tracing::info!(
                    chat = job.target.chat.0,
                    to = to.0,
                    "the group moved to a supergroup"
                );
                N::Instead(Job {
                    target: Target {
                        chat: to,
                        thread: None,
                    },
                    op: job.op.clone(),
                    track: job.track.clone(),
                })
            }
            Next::Fallback => match fallback(&job.op) {
                Some(op) => N::Instead(Job {
                    target: job.target,
                    op,
                    track: job.track.clone(),
                }),
                None => N::Stop(Stop::Refused),
            },
            Next::Done => N::Stop(Stop::Done),
            Next::Fail => N::Stop(Stop::Refused),
        }
    }

    async fn deliver(&self, out: &Out<'_, Self>, said: Said<'_, Self>) {
        delivery::deliver_with_venues(out, said).await;
    }
}

impl delivery::Venues for Telegram {
    type Place = Target;

    fn place(channel: &str) -> Option<Target> {
        Target::from_channel(channel)
    }

    fn channel(at: Target) -> ChannelKey {
        at.channel()
    }

    async fn post(
        &self,
        out: &Out<'_, Self>,
        mut at: Target,
        answering: Option<&Answering>,
        replies: &[Reply],
        _entry: Option<&OutboxKey>,
        _nth: u32,
    ) -> Target {
        for mut job in answer_jobs(at, answering, replies) {
            // A group that became a supergroup on the way: the rest goes there.
            job.target = at;
            at = send(out, job).await;
        }
        at
    }

    /// A new forum topic for a tournament game, with its channel key and link. `None` (the game
    /// is played in the chat) when the chat is not a forum, the bot may not manage its topics, or
    /// it is a topic itself.
    async fn open_venue(
        &self,
        out: &Out<'_, Self>,
        chat: Target,
        ask: &VenueAsk,
    ) -> Option<(Target, ChannelKey, String)> {
        if chat.thread.is_some() || chat.chat.0 > 0 {
            return None;
        }
        let mut job = Job::untracked(
            chat,
            Op::CreateTopic {
                name: ask.name.clone(),
            },
        );
        let opened = match out.call(&mut job).await {
            Ok(Some(thread)) => Some(Target {
                chat: chat.chat,
                thread: Some(ThreadId(thread)),
            }),
            Ok(None) | Err(_) => None,
        };
        opened.map(|t| (t, t.channel(), topic_link(t)))
    }
}

/// A link to a forum topic of a supergroup: `https://t.me/c/{id without -100}/{thread}`.
fn topic_link(t: Target) -> String {
    let id = t.chat.0.to_string();
    let internal = id
        .strip_prefix("-100")
        .unwrap_or(id.trim_start_matches('-'));
    match t.thread {
        Some(th) => format!("https://t.me/c/{internal}/{}", th.0 .0),
        None => format!("https://t.me/c/{internal}"),
    }
}

/// Make one call; for a message with one-time buttons, then tell the service where it went
/// and take the buttons off what it says no longer applies (retried like any other call).
/// Returns where the chat is now.
async fn send(out: &Out<'_, Telegram>, mut job: Job) -> Target {
    let track = job.track.clone();
    let sent = out.call(&mut job).await;
    let target = job.target;
    if let (Some(track), Ok(Some(id))) = (track, sent) {
        let retired = out
            .service()
            .shown(
                &target.channel(),
                &track.user,
                track.action,
                id.0.to_string(),
            )
            .await;
        for op in retire_ops(&retired, None) {
            let mut job = Job::untracked(target, op);
            let _: Result<_, Undelivered<Stop>> = out.call(&mut job).await;
        }
    }
    target
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
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
            mentions: Vec::new(),
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
            mentions: Vec::new(),
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
        // Mentions Telegram will not take: the same message without them, then as before.
        let mentioned = Op::Text {
            text: "🔔 ann\nGame #1".into(),
            mentions: vec![super::super::ops::Mention {
                offset: 3,
                length: 3,
                user: 5,
                name: "ann".into(),
            }],
            keyboard: None,
            reply_to: None,
        };
        assert_eq!(
            classify(
                &api(400, "Bad Request: can't parse entities: user not found"),
                &mentioned
            ),
            Next::Fallback
        );
        assert!(matches!(
            fallback(&mentioned),
            Some(Op::Text { text, mentions, .. }) if text.starts_with("🔔 ann") && mentions.is_empty()
        ));
    }

    /// The calls that deliver an outbox entry, as the event it answers asked.
    fn entry_jobs(target: Target, d: &crate::app::Delivery) -> Vec<Job> {
        use crate::adapters::delivery::Platform as _;
        let answering = d.context.as_deref().and_then(Telegram::answering);
        answer_jobs(target, answering.as_ref(), &d.replies)
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
