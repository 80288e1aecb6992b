//! One way out: the delivery worker every platform shares.
//!
//! A platform (the console, Telegram, Discord, and whichever comes next) says how it makes a
//! call and how it reads a failure ([`Platform`]); this worker does the rest, the same for
//! all of them:
//!
//! * It opens the service's outbox for the platform and queues each entry (what a change made
//!   the service say, stored with it; first what was stored and not delivered before a
//!   restart) in its channel's lane ([`crate::adapters::lanes`]): a channel's messages go out
//!   in order, and a channel the platform slows down waits alone.
//! * Answers to commands that changed nothing take the same lane behind the entries, up to
//!   [`HELD_PER_LANE`]; past that they are refused and the channel is told so, once.
//! * An entry is made ready (its turn among the processes sharing the storage, its pictures
//!   drawn) just before it is sent, sent as the event it answers asked
//!   ([`Platform::deliver`]), and forgotten once every call went through or was given up.
//! * Every call is retried as its failure allows ([`Out::call`] after [`Platform::classify`]):
//!   a rate limit is waited out, an unreachable platform is tried again with growing pauses
//!   until it answers, a server error a few times; a simpler call is made instead when the
//!   platform says one may work; what it refuses for good is logged and dropped.
//! * Stopping delivers what is queued for a while ([`Deliverer::drain`]); stored entries that
//!   did not go out are sent at the next start.

use std::borrow::Cow;
use std::fmt::{Debug, Display};
use std::future::Future;
use std::hash::Hash;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::adapters::lanes::{Lanes, Skipped, Work, HELD_PER_LANE};
use crate::app::metrics::RetryCause;
use crate::app::{Delivery, Outgoing, Reply, Service, VenueAsk};
use crate::game::OutboxKey;
use crate::platform::ChannelKey;

pub use crate::adapters::lanes::RetryPolicy;

/// What a platform makes of a failed call.
#[derive(Debug, PartialEq, Eq)]
pub enum Next<Op, Stop> {
    /// Rate limited: wait this long, then make the same call again.
    Wait(Duration),
    /// The platform cannot be reached: try again after growing pauses, until it answers.
    Backoff,
    /// A server error, or an answer that is not the platform's: try again, a few times
    /// ([`RetryPolicy::unknown_error_attempts`]).
    Server,
    /// This call cannot work, this one may: make it instead (a picture as text, an edit as a
    /// new message, the chat's new address).
    Instead(Op),
    /// No call will do; why, for the platform's next step.
    Stop(Stop),
}

/// Why a call did not go through.
#[derive(Debug, PartialEq, Eq)]
pub enum Undelivered<Stop> {
    /// The platform said so ([`Next::Stop`]).
    Stopped(Stop),
    /// A server error that did not pass after every attempt.
    GaveUp,
}

/// A reason a platform gives for not making a call.
pub trait Stopping: Debug + Send {
    /// Whether the message is lost for good (logged as an error); otherwise the platform has
    /// nothing to change, or another way to go.
    fn drops(&self) -> bool;
}

/// What one platform tells the delivery worker: where a channel's lane is, how its event's
/// context reads, how replies become calls, how a call is made and how its failure reads.
pub trait Platform: Send + Sync + Sized + 'static {
    /// Which platform (its channels' keys, its outbox).
    const KIND: crate::platform::Platform;
    /// A lane: the chat or channel whose messages keep their order.
    type Lane: Clone + Eq + Hash + Display + Send + Sync + 'static;
    /// Whom replies answer and how (a message, a pressed button, an interaction), read from
    /// an outbox entry's context, or given with a direct answer.
    type Answering: Send + Sync + 'static;
    /// One call.
    type Op: Send + Sync;
    /// What a call that went through gives back (where the message is).
    type Sent: Send;
    /// Why a call failed, as the platform said.
    type Failure: Display + Send;
    /// Why the platform makes no more calls for a message.
    type Stop: Stopping;

    /// The lane of a channel key; `None` for another platform's channel.
    fn lane(channel: &str) -> Option<Self::Lane>;
    /// An outbox entry's context, read back.
    fn answering(context: &str) -> Option<Self::Answering>;
    /// The call's name, for the logs.
    fn what(op: &Self::Op) -> &'static str;
    /// Make one call.
    fn call(&self, op: &Self::Op)
        -> impl Future<Output = Result<Self::Sent, Self::Failure>> + Send;
    /// What to do after `failure` of `op`.
    fn classify(&self, failure: &Self::Failure, op: &Self::Op) -> Next<Self::Op, Self::Stop>;
    /// Send what was said, each call through [`Out::call`].
    fn deliver(&self, out: &Out<'_, Self>, said: Said<'_, Self>)
        -> impl Future<Output = ()> + Send;
    /// An outbox entry was delivered and forgotten.
    fn delivered(&self, _key: &OutboxKey) {}
}

/// Replies to send, and whom they answer.
pub struct Said<'a, P: Platform> {
    /// The channel.
    pub channel: &'a str,
    /// Whom they answer and how; `None`: the service's own messages (the timer's).
    pub answering: Option<&'a P::Answering>,
    /// The replies, drawn.
    pub replies: &'a [Reply],
    /// The outbox entry they are, if stored.
    pub entry: Option<&'a OutboxKey>,
}

/// A platform whose chats can give a tournament game a venue of its own (a Discord thread, a
/// Telegram forum topic). Its [`Platform::deliver`] is [`deliver_with_venues`], so where each
/// reply goes is decided in one place for every such platform; the platform says only how it
/// posts and how it opens a venue.
pub trait Venues: Platform {
    /// Where replies are posted: a channel, or a chat and its topic.
    type Place: Copy + Send + Sync;
    /// The place of a channel key; `None` for another platform's channel.
    fn place(channel: &str) -> Option<Self::Place>;
    /// The channel key of a place.
    fn channel(at: Self::Place) -> ChannelKey;
    /// Post `replies` at `at`, answering `answering` (`None`: as the service's own messages).
    /// `nth` numbers the posts of one entry made elsewhere than its first (0 for the first),
    /// for a platform that keeps its messages apart by number. Returns where the chat's later
    /// posts go (a Telegram group may become a supergroup on the way).
    fn post(
        &self,
        out: &Out<'_, Self>,
        at: Self::Place,
        answering: Option<&Self::Answering>,
        replies: &[Reply],
        entry: Option<&OutboxKey>,
        nth: u32,
    ) -> impl Future<Output = Self::Place> + Send;
    /// Open the venue `ask` asks for in `chat`: its place, its channel key and how the chat
    /// links to it; `None` when the platform refuses or the chat cannot have one.
    fn open_venue(
        &self,
        out: &Out<'_, Self>,
        chat: Self::Place,
        ask: &VenueAsk,
    ) -> impl Future<Output = Option<(Self::Place, ChannelKey, String)>> + Send;
}

/// Send what was said on a platform with venues: first the replies that ask for none, as the
/// event asked; then each that asks for a game's venue, there: in the venue opened already,
/// else in a new one, reported to the service before anything is posted in it; where no venue
/// opens, in the chat (unless the ask is quiet: a large round's boards come with their first
/// moves).
pub async fn deliver_with_venues<P: Venues>(out: &Out<'_, P>, said: Said<'_, P>) {
    let Some(mut chat) = P::place(said.channel) else {
        tracing::error!(
            channel = said.channel,
            platform = P::KIND.name(),
            "replies for no channel of this platform"
        );
        return;
    };
    let asks_venue = |r: &&Reply| r.venue.is_some();
    // Most entries ask for no venue: their replies are posted as they are, not copied.
    let here: Cow<'_, [Reply]> = if said.replies.iter().any(|r| asks_venue(&r)) {
        Cow::Owned(
            said.replies
                .iter()
                .filter(|r| !asks_venue(r))
                .cloned()
                .collect(),
        )
    } else {
        Cow::Borrowed(said.replies)
    };
    let platform = out.platform();
    chat = platform
        .post(out, chat, said.answering, &here, said.entry, 0)
        .await;
    for (n, r) in (1..).zip(said.replies.iter().filter(asks_venue)) {
        let Some(ask) = &r.venue else { continue };
        let venue = match ask.opened.as_deref().and_then(P::place) {
            Some(at) => Some(at),
            None => {
                let opened = platform.open_venue(out, chat, ask).await;
                out.report_venue(&P::channel(chat), ask, opened).await
            }
        };
        let Some(to) = venue.or((!ask.quiet).then_some(chat)) else {
            continue;
        };
        platform
            .post(out, to, None, std::slice::from_ref(r), said.entry, n)
            .await;
    }
}

/// What a lane works through.
enum Item<P: Platform> {
    /// An outbox entry: its calls, then it is forgotten.
    Entry(Delivery),
    /// Replies that were not stored; whoever waits for them is told once they are out.
    Direct {
        channel: ChannelKey,
        answering: Option<P::Answering>,
        replies: Vec<Reply>,
        sent: Option<oneshot::Sender<()>>,
    },
    /// The channel's queue refused answers: say so.
    Skipped { channel: ChannelKey },
}

struct Shared<P: Platform> {
    platform: P,
    service: Arc<Service>,
    policy: RetryPolicy,
    /// Lanes whose queue refused answers and that are still to be told.
    skipped: Skipped<P::Lane>,
}

/// A platform's delivery worker: its lanes, and the task feeding them from the outbox.
pub struct Deliverer<P: Platform> {
    lanes: Lanes<P::Lane, (P::Lane, Item<P>)>,
    shared: Arc<Shared<P>>,
    feeding: Arc<std::sync::Mutex<Vec<JoinHandle<()>>>>,
}

impl<P: Platform> Clone for Deliverer<P> {
    fn clone(&self) -> Self {
        Deliverer {
            lanes: self.lanes.clone(),
            shared: Arc::clone(&self.shared),
            feeding: Arc::clone(&self.feeding),
        }
    }
}

/// Sending for one lane: the platform, the service, and the retrying call.
pub struct Out<'a, P: Platform> {
    shared: &'a Shared<P>,
    lane: &'a P::Lane,
}

impl<P: Platform> Deliverer<P> {
    /// A worker sending through `platform`, telling `service` what was delivered. It takes
    /// no entry until [`Deliverer::open`].
    #[must_use]
    pub fn new(platform: P, service: Arc<Service>, policy: RetryPolicy) -> Deliverer<P> {
        let shared = Arc::new(Shared {
            platform,
            service,
            policy,
            skipped: Skipped::default(),
        });
        let worker = Arc::clone(&shared);
        let work: Work<(P::Lane, Item<P>)> = Arc::new(move |(lane, item)| {
            let shared = Arc::clone(&worker);
            Box::pin(async move { shared.work(&lane, item).await })
        });
        Deliverer {
            lanes: Lanes::new(policy.idle, work),
            shared,
            feeding: Arc::default(),
        }
    }

    /// Take the platform's outbox: every entry still stored, then each one as it is
    /// committed. When the stored entries cannot be read, what the service says unasked (the
    /// timer, the bot) is still sent, as it is said, and the stored entries wait.
    pub fn open(&self) {
        let service = &self.shared.service;
        let me = self.clone();
        let task = match service.open_outbox(P::KIND) {
            Ok(mut rx) => tokio::spawn(async move {
                while let Some(d) = rx.recv().await {
                    me.push_entry(d);
                }
            }),
            Err(e) => {
                tracing::error!(platform = P::KIND.name(), error = %e,
                    "cannot read the outbox; stored replies wait for the next start");
                let mut said = service.subscribe(P::KIND);
                tokio::spawn(async move {
                    while let Some(Outgoing { channel, replies }) = said.recv().await {
                        me.push(&channel, None, replies);
                    }
                })
            }
        };
        let mut feeding = self
            .feeding
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        feeding.push(task);
    }

    /// The platform the worker sends through.
    #[must_use]
    pub fn platform(&self) -> &P {
        &self.shared.platform
    }

    /// Queue an outbox entry behind its channel's earlier messages.
    pub fn push_entry(&self, d: Delivery) {
        let Some(lane) = P::lane(&d.key.channel) else {
            tracing::error!(platform = P::KIND.name(), channel = %d.key.channel,
                "an outbox entry for another platform's channel");
            return;
        };
        if let Err((_, Item::Entry(d))) = self.lanes.push(lane.clone(), (lane, Item::Entry(d))) {
            tracing::info!(channel = %d.key.channel, seq = d.key.seq,
                "stopping: a stored reply is sent at the next start");
        }
    }

    /// Queue replies that were not stored (a command that changed nothing) behind the
    /// channel's earlier messages, unless its queue is full ([`HELD_PER_LANE`]): then they are
    /// dropped, and the channel is told that answers were skipped (once, until that notice
    /// is sent).
    pub fn push(&self, channel: &ChannelKey, answering: Option<P::Answering>, replies: Vec<Reply>) {
        drop(self.queue(channel, answering, replies));
    }

    /// [`Deliverer::push`], and wait until the replies are out (or given up): false when
    /// they were not queued.
    pub async fn push_and_wait(
        &self,
        channel: &ChannelKey,
        answering: Option<P::Answering>,
        replies: Vec<Reply>,
    ) -> bool {
        self.queue(channel, answering, replies).await.is_ok()
    }

    /// [`Deliverer::push`]; the receiver hears when the replies are out, and is closed
    /// without a word when they were not queued.
    fn queue(
        &self,
        channel: &ChannelKey,
        answering: Option<P::Answering>,
        replies: Vec<Reply>,
    ) -> oneshot::Receiver<()> {
        let (tx, rx) = oneshot::channel();
        let Some(lane) = P::lane(channel) else {
            tracing::error!(
                platform = P::KIND.name(),
                %channel,
                "replies for another platform's channel"
            );
            return rx;
        };
        let item = Item::Direct {
            channel: channel.clone(),
            answering,
            replies,
            sent: Some(tx),
        };
        if self
            .lanes
            .push_within(lane.clone(), (lane.clone(), item), HELD_PER_LANE)
            .is_err()
        {
            tracing::warn!(
                platform = P::KIND.name(),
                lane = %lane,
                "a channel's send queue is full (or stopping): an answer that changed nothing is not sent"
            );
            if self.shared.skipped.first(lane.clone()) {
                // Past the cap: one short notice per full queue.
                let notice = Item::Skipped {
                    channel: channel.clone(),
                };
                let _ = self.lanes.push(lane.clone(), (lane, notice));
            }
        }
        rx
    }

    /// Entries and answers queued and not finished yet.
    #[must_use]
    pub fn pending(&self) -> usize {
        self.lanes.pending()
    }

    /// Stop taking work and deliver what is queued, for at most `limit`. Returns how much was
    /// still undelivered when time ran out: outbox entries among it are sent at the next start.
    pub async fn drain(&self, limit: Duration) -> usize {
        for task in self
            .feeding
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .drain(..)
        {
            task.abort();
        }
        let left = self.lanes.drain(limit).await;
        if left > 0 {
            tracing::warn!(
                platform = P::KIND.name(),
                undelivered = left,
                "stopping with messages the platform has not taken yet; stored replies go out at the next start"
            );
        }
        left
    }
}

impl<P: Platform> Shared<P> {
    async fn work(&self, lane: &P::Lane, item: Item<P>) {
        let out = Out { shared: self, lane };
        match item {
            Item::Entry(mut d) => {
                self.service.ready(&d.key, &mut d.replies).await;
                let answering = d.context.as_deref().and_then(P::answering);
                let said = Said {
                    channel: &d.key.channel,
                    answering: answering.as_ref(),
                    replies: &d.replies,
                    entry: Some(&d.key),
                };
                self.platform.deliver(&out, said).await;
                if let Err(e) = self.service.delivered(&d.key).await {
                    tracing::error!(error = %e, channel = %d.key.channel,
                        "cannot forget a delivered reply; it may be sent again after a restart");
                }
                self.platform.delivered(&d.key);
            }
            Item::Direct {
                channel,
                answering,
                mut replies,
                sent,
            } => {
                self.service.draw(&mut replies).await;
                let said = Said {
                    channel: &channel,
                    answering: answering.as_ref(),
                    replies: &replies,
                    entry: None,
                };
                self.platform.deliver(&out, said).await;
                if let Some(tx) = sent {
                    let _ = tx.send(());
                }
            }
            Item::Skipped { channel } => {
                let notice = Reply::text(self.service.queue_full_notice(&channel));
                self.skipped.told(lane);
                let said = Said {
                    channel: &channel,
                    answering: None,
                    replies: &[notice],
                    entry: None,
                };
                self.platform.deliver(&out, said).await;
            }
        }
    }
}

impl<P: Platform> Out<'_, P> {
    /// The platform.
    #[must_use]
    pub fn platform(&self) -> &P {
        &self.shared.platform
    }

    /// The service (to tell it where a message with buttons went, to read the clock).
    #[must_use]
    pub fn service(&self) -> &Service {
        &self.shared.service
    }

    /// Tell the service that the venue `ask` of `chat` asked for was `opened` (`at`, its
    /// channel and the chat's link to it) or refused (`None`), and return `at` when the service
    /// stored it: only then is the game played there. A storage failure leaves the game in
    /// the chat.
    async fn report_venue<T>(
        &self,
        chat: &ChannelKey,
        ask: &VenueAsk,
        opened: Option<(T, ChannelKey, String)>,
    ) -> Option<T> {
        let (at, report) = match opened {
            Some((at, key, link)) => (Some(at), Some((key, link))),
            None => (None, None),
        };
        match self.service().venue_opened(chat, ask.game, report).await {
            Ok(()) => at,
            Err(e) => {
                tracing::error!(error = %e, game = ask.game,
                    "cannot store a game's venue; it is played in the chat");
                None
            }
        }
    }

    /// Make `op`, retrying as its failures allow (see the module's notes). When the platform
    /// asks for another call instead, `op` becomes that one, so the caller sees what went.
    ///
    /// # Errors
    /// Why it did not go through (logged here).
    pub async fn call(&self, op: &mut P::Op) -> Result<P::Sent, Undelivered<P::Stop>> {
        let platform = &self.shared.platform;
        let policy = self.shared.policy;
        let name = P::KIND.name();
        let lane = self.lane;
        let mut backoff = policy.first_backoff;
        let mut server_errors = 0;
        let metrics = crate::app::metrics::metrics();
        loop {
            let err = match platform.call(op).await {
                Ok(sent) => {
                    metrics.delivered(P::KIND);
                    return Ok(sent);
                }
                Err(e) => e,
            };
            let what = P::what(op);
            let next = platform.classify(&err, op);
            match &next {
                Next::Wait(_) => metrics.retried(P::KIND, RetryCause::rate_limited),
                Next::Backoff => metrics.retried(P::KIND, RetryCause::network),
                Next::Server if server_errors + 1 < policy.unknown_error_attempts => {
                    metrics.retried(P::KIND, RetryCause::server);
                }
                Next::Instead(_) => metrics.retried(P::KIND, RetryCause::fallback),
                Next::Server => metrics.dropped(P::KIND),
                Next::Stop(stop) if stop.drops() => metrics.dropped(P::KIND),
                Next::Stop(_) => {}
            }
            match next {
                Next::Wait(d) => {
                    tracing::warn!(platform = name, lane = %lane, call = what,
                        retry_after_ms = u64::try_from(d.as_millis()).unwrap_or(u64::MAX),
                        "rate limited: this channel's messages wait");
                    tokio::time::sleep(d).await;
                }
                Next::Backoff => {
                    tracing::warn!(platform = name, lane = %lane, call = what, error = %err,
                        backoff_ms = u64::try_from(backoff.as_millis()).unwrap_or(u64::MAX),
                        "cannot reach the platform; retrying");
                    tokio::time::sleep(backoff).await;
                    backoff = policy.next(backoff);
                }
                Next::Server if server_errors + 1 < policy.unknown_error_attempts => {
                    server_errors += 1;
                    tracing::warn!(platform = name, lane = %lane, call = what, error = %err,
                        attempt = server_errors, "server error; retrying");
                    tokio::time::sleep(backoff).await;
                    backoff = policy.next(backoff);
                }
                Next::Server => {
                    tracing::error!(platform = name, lane = %lane, call = what, error = %err,
                        "the platform kept failing; the message is dropped");
                    return Err(Undelivered::GaveUp);
                }
                Next::Instead(other) => {
                    tracing::warn!(platform = name, lane = %lane, call = what, error = %err,
                        instead = P::what(&other), "the platform refused the call; making a simpler one");
                    *op = other;
                }
                Next::Stop(stop) => {
                    if stop.drops() {
                        tracing::error!(platform = name, lane = %lane, call = what, error = %err,
                            "the platform refused a message; it is dropped");
                    } else {
                        tracing::debug!(platform = name, lane = %lane, call = what, error = %err,
                            why = ?stop, "no further call for this message");
                    }
                    return Err(Undelivered::Stopped(stop));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;
    use std::sync::Mutex;

    use super::*;
    use crate::app::{system_now, ServiceConfig};
    use crate::render::Renderer;
    use crate::storage::SledStorage;

    /// How a scripted call fails.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Fail {
        Rate,
        Net,
        Server,
        Picture,
        Gone,
    }

    impl Display for Fail {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "{self:?}")
        }
    }

    #[derive(Debug, PartialEq, Eq)]
    struct Refused;

    impl Stopping for Refused {
        fn drops(&self) -> bool {
            true
        }
    }

    /// A platform whose calls fail as scripted, text by text, and that records each attempt.
    #[derive(Default)]
    struct Scripted {
        script: Mutex<Vec<(String, VecDeque<Fail>)>>,
        attempts: Mutex<Vec<String>>,
        shown: Mutex<Vec<String>>,
        gate: Option<Arc<tokio::sync::Semaphore>>,
    }

    impl Scripted {
        fn fails(&self, text: &str, fails: &[Fail]) {
            self.script
                .lock()
                .unwrap()
                .push((text.into(), fails.iter().copied().collect()));
        }
    }

    impl Platform for Scripted {
        const KIND: crate::platform::Platform = crate::platform::Platform::Console;
        type Lane = String;
        type Answering = ();
        type Op = String;
        type Sent = ();
        type Failure = Fail;
        type Stop = Refused;

        fn lane(channel: &str) -> Option<String> {
            crate::platform::Platform::Console
                .rest(channel)
                .map(|_| channel.to_string())
        }

        fn answering(_: &str) -> Option<()> {
            Some(())
        }

        fn what(_: &String) -> &'static str {
            "say"
        }

        async fn call(&self, op: &String) -> Result<(), Fail> {
            if let Some(gate) = &self.gate {
                gate.acquire().await.expect("open").forget();
            }
            self.attempts.lock().unwrap().push(op.clone());
            let failed = {
                let mut script = self.script.lock().unwrap();
                script
                    .iter_mut()
                    .find(|(t, _)| t == op)
                    .and_then(|(_, f)| f.pop_front())
            };
            match failed {
                Some(f) => Err(f),
                None => {
                    self.shown.lock().unwrap().push(op.clone());
                    Ok(())
                }
            }
        }

        fn classify(&self, f: &Fail, op: &String) -> Next<String, Refused> {
            match f {
                Fail::Rate => Next::Wait(Duration::from_millis(1)),
                Fail::Net => Next::Backoff,
                Fail::Server => Next::Server,
                Fail::Picture => Next::Instead(format!("{op} (as text)")),
                Fail::Gone => Next::Stop(Refused),
            }
        }

        async fn deliver(&self, out: &Out<'_, Self>, said: Said<'_, Self>) {
            for r in said.replies {
                let _ = out.call(&mut r.text.clone()).await;
            }
        }
    }

    fn service(dir: &std::path::Path) -> Arc<Service> {
        let storage = SledStorage::open(dir).expect("open");
        Arc::new(Service::new(
            Arc::new(storage),
            Arc::new(Renderer::new()),
            system_now(),
            ServiceConfig::default(),
        ))
    }

    fn policy() -> RetryPolicy {
        RetryPolicy {
            first_backoff: Duration::from_millis(1),
            max_backoff: Duration::from_millis(4),
            unknown_error_attempts: 3,
            idle: Duration::from_millis(200),
        }
    }

    #[tokio::test]
    async fn each_failure_is_retried_as_the_platform_reads_it_and_order_is_kept() {
        let dir = tempfile::tempdir().expect("tempdir");
        let platform = Scripted::default();
        platform.fails("a", &[Fail::Rate, Fail::Net, Fail::Net, Fail::Server]);
        platform.fails("b", &[Fail::Picture]);
        platform.fails("c", &[Fail::Server, Fail::Server, Fail::Server]);
        platform.fails("d", &[Fail::Gone]);
        let d = Deliverer::new(platform, service(dir.path()), policy());
        let replies = ["a", "b", "c", "d", "e"].map(Reply::text).to_vec();
        let sent = d.queue(&"console:#t".into(), None, replies);
        tokio::time::timeout(Duration::from_secs(10), sent)
            .await
            .expect("delivered in time")
            .expect("told");
        let p = d.platform();
        assert_eq!(
            *p.shown.lock().unwrap(),
            ["a", "b (as text)", "e"],
            "in order; a refused picture went as text; given up and refused ones dropped"
        );
        let attempts = p.attempts.lock().unwrap().clone();
        let count = |t: &str| attempts.iter().filter(|a| *a == t).count();
        assert_eq!(
            count("a"),
            5,
            "rate limit, two network failures, a server error, then it went"
        );
        assert_eq!(
            count("c"),
            3,
            "server errors: as many attempts as the policy allows"
        );
        assert_eq!(count("d"), 1, "refused for good: not tried again");
        assert_eq!(d.drain(Duration::from_secs(5)).await, 0);
        assert!(
            !d.push_and_wait(&"console:#t".into(), None, vec![Reply::text("late")])
                .await,
            "nothing is taken once drained"
        );
    }

    #[tokio::test]
    async fn a_full_lane_refuses_answers_and_says_so_once_while_other_lanes_go_on() {
        let dir = tempfile::tempdir().expect("tempdir");
        let gate = Arc::new(tokio::sync::Semaphore::new(0));
        let platform = Scripted {
            gate: Some(Arc::clone(&gate)),
            ..Scripted::default()
        };
        let svc = service(dir.path());
        let notice = svc.queue_full_notice(&"console:#busy".into());
        let d = Deliverer::new(platform, svc, policy());
        let mut waits = Vec::new();
        for n in 0..HELD_PER_LANE + 5 {
            waits.push(d.queue(
                &"console:#busy".into(),
                None,
                vec![Reply::text(format!("m{n}"))],
            ));
        }
        assert!(
            !d.push_and_wait(&"tg:5".into(), None, vec![Reply::text("x")])
                .await,
            "another platform's channel is not taken"
        );
        gate.add_permits(1_000);
        let mut told = 0;
        for w in waits {
            if tokio::time::timeout(Duration::from_secs(10), w)
                .await
                .expect("in time")
                .is_ok()
            {
                told += 1;
            }
        }
        assert_eq!(
            told, HELD_PER_LANE,
            "what the lane held went out; the rest was refused"
        );
        assert_eq!(d.drain(Duration::from_secs(5)).await, 0);
        let shown = d.platform().shown.lock().unwrap().clone();
        assert_eq!(shown.len(), HELD_PER_LANE + 1);
        assert_eq!(
            shown.last(),
            Some(&notice),
            "one notice, after what was held"
        );
        assert_eq!(shown.iter().filter(|s| **s == notice).count(), 1);
    }
}
