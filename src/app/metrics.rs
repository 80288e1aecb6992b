//! What operators graph, in Prometheus's text format (`GET /metrics` on the web server):
//! moves played, commands, replies queued and delivered, delivery retries by cause, dropped
//! replies, the engine's queue and search time by kind of job, drawing time, and web
//! requests. Made with the Prometheus project's own client (`prometheus-client`).
//!
//! The figures are this process's since it started (each process of a fleet has its own;
//! Prometheus sums them). Recording is a few atomic operations, so it stays on the paths it
//! measures; nothing here does I/O.

use std::sync::LazyLock;
use std::time::Duration;

use prometheus_client::encoding::{EncodeLabelSet, EncodeLabelValue};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;

use crate::platform::Platform;

/// A platform as a label value.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq, EncodeLabelValue)]
#[allow(non_camel_case_types)] // label values as operators read them
pub enum PlatformLabel {
    /// The terminal.
    console,
    /// Telegram.
    telegram,
    /// Discord.
    discord,
    /// Not known (a key of no platform).
    other,
}

impl From<Option<Platform>> for PlatformLabel {
    fn from(p: Option<Platform>) -> Self {
        match p {
            Some(Platform::Console) => PlatformLabel::console,
            Some(Platform::Telegram) => PlatformLabel::telegram,
            Some(Platform::Discord) => PlatformLabel::discord,
            None => PlatformLabel::other,
        }
    }
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ByPlatform {
    platform: PlatformLabel,
}

fn on(platform: Option<Platform>) -> ByPlatform {
    ByPlatform {
        platform: platform.into(),
    }
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ByCommand {
    command: &'static str,
}

/// Why a delivery was tried again.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq, EncodeLabelValue)]
#[allow(non_camel_case_types)]
pub enum RetryCause {
    /// The platform's rate limit (429): waited as it asked.
    rate_limited,
    /// The platform could not be reached.
    network,
    /// A server error (5xx or an unreadable answer).
    server,
    /// Refused as it was; a simpler call was made instead (a picture as text).
    fallback,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ByCause {
    platform: PlatformLabel,
    cause: RetryCause,
}

/// A kind of engine job.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq, EncodeLabelValue)]
#[allow(non_camel_case_types)]
pub enum JobKind {
    /// The bot's move.
    play,
    /// A hint.
    hint,
    /// A game's review.
    review,
    /// A puzzle answer judged.
    puzzle,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ByJob {
    kind: JobKind,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ByRoute {
    route: &'static str,
}

type Seconds = Family<ByJob, Histogram, fn() -> Histogram>;

fn search_buckets() -> Histogram {
    // 1 ms to about 66 s.
    Histogram::new(exponential_buckets(0.001, 2.0, 17))
}

/// The process's figures.
pub struct Metrics {
    registry: Registry,
    moves: Family<ByPlatform, Counter>,
    commands: Family<ByCommand, Counter>,
    queued: Family<ByPlatform, Counter>,
    delivered: Family<ByPlatform, Counter>,
    retries: Family<ByCause, Counter>,
    dropped: Family<ByPlatform, Counter>,
    engine_waiting: Gauge,
    engine_seconds: Seconds,
    render_seconds: Histogram,
    web: Family<ByRoute, Counter>,
}

impl Metrics {
    fn new() -> Metrics {
        let mut registry = Registry::with_prefix("xiangqi");
        let moves = Family::<ByPlatform, Counter>::default();
        registry.register(
            "moves",
            "Moves played (by people and the bot)",
            moves.clone(),
        );
        let commands = Family::<ByCommand, Counter>::default();
        registry.register("commands", "Commands handled, by command", commands.clone());
        let queued = Family::<ByPlatform, Counter>::default();
        registry.register(
            "replies_queued",
            "Replies committed to the outbox",
            queued.clone(),
        );
        let delivered = Family::<ByPlatform, Counter>::default();
        registry.register(
            "replies_delivered",
            "Platform calls that delivered a reply",
            delivered.clone(),
        );
        let retries = Family::<ByCause, Counter>::default();
        registry.register(
            "delivery_retries",
            "Delivery calls tried again, by cause",
            retries.clone(),
        );
        let dropped = Family::<ByPlatform, Counter>::default();
        registry.register(
            "delivery_dropped",
            "Replies the platform would never take (dropped)",
            dropped.clone(),
        );
        let engine_waiting = Gauge::default();
        registry.register(
            "engine_jobs_waiting",
            "Engine jobs waiting for a thread",
            engine_waiting.clone(),
        );
        let engine_seconds: Seconds = Family::new_with_constructor(search_buckets);
        registry.register(
            "engine_job_seconds",
            "Time an engine job searched, by kind",
            engine_seconds.clone(),
        );
        let render_seconds = Histogram::new(exponential_buckets(0.0005, 2.0, 14));
        registry.register(
            "render_seconds",
            "Time to draw a board picture",
            render_seconds.clone(),
        );
        let web = Family::<ByRoute, Counter>::default();
        registry.register("web_requests", "Web server requests, by route", web.clone());
        Metrics {
            registry,
            moves,
            commands,
            queued,
            delivered,
            retries,
            dropped,
            engine_waiting,
            engine_seconds,
            render_seconds,
            web,
        }
    }

    /// A move was played in a channel of `platform`.
    pub fn moved(&self, platform: Option<Platform>) {
        self.moves.get_or_create(&on(platform)).inc();
    }

    /// A command `name` (its canonical English name) was handled.
    pub fn command(&self, name: &'static str) {
        self.commands
            .get_or_create(&ByCommand { command: name })
            .inc();
    }

    /// `n` replies for `platform` were committed to the outbox.
    pub fn queued(&self, platform: Option<Platform>, n: usize) {
        self.queued
            .get_or_create(&on(platform))
            .inc_by(u64::try_from(n).unwrap_or(u64::MAX));
    }

    /// A call delivered a reply on `platform`.
    pub fn delivered(&self, platform: Platform) {
        self.delivered.get_or_create(&on(Some(platform))).inc();
    }

    /// A call on `platform` is tried again because of `cause`.
    pub fn retried(&self, platform: Platform, cause: RetryCause) {
        self.retries
            .get_or_create(&ByCause {
                platform: Some(platform).into(),
                cause,
            })
            .inc();
    }

    /// A reply on `platform` was given up.
    pub fn dropped(&self, platform: Platform) {
        self.dropped.get_or_create(&on(Some(platform))).inc();
    }

    /// An engine job of `kind` searched for `took`.
    pub fn searched(&self, kind: JobKind, took: Duration) {
        self.engine_seconds
            .get_or_create(&ByJob { kind })
            .observe(took.as_secs_f64());
    }

    /// A board picture took `took` to draw.
    pub fn rendered(&self, took: Duration) {
        self.render_seconds.observe(took.as_secs_f64());
    }

    /// The web server answered a request for `route` (a fixed name, never the path: paths
    /// hold tokens).
    pub fn web_request(&self, route: &'static str) {
        self.web.get_or_create(&ByRoute { route }).inc();
    }

    /// The figures in Prometheus's text format, with `engine_waiting` jobs queued now.
    #[must_use]
    pub fn text(&self, engine_waiting: usize) -> String {
        self.engine_waiting
            .set(i64::try_from(engine_waiting).unwrap_or(i64::MAX));
        let mut out = String::new();
        if prometheus_client::encoding::text::encode(&mut out, &self.registry).is_err() {
            out.clear();
        }
        out
    }
}

static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);

/// This process's figures.
#[must_use]
pub fn metrics() -> &'static Metrics {
    &METRICS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_figures_are_prometheus_text() {
        let m = Metrics::new();
        m.moved(Some(Platform::Telegram));
        m.moved(Some(Platform::Telegram));
        m.command("play");
        m.queued(Some(Platform::Discord), 3);
        m.delivered(Platform::Discord);
        m.retried(Platform::Telegram, RetryCause::rate_limited);
        m.dropped(Platform::Telegram);
        m.searched(JobKind::hint, Duration::from_millis(300));
        m.rendered(Duration::from_millis(4));
        m.web_request("move");
        let t = m.text(2);
        for line in [
            "xiangqi_moves_total{platform=\"telegram\"} 2",
            "xiangqi_commands_total{command=\"play\"} 1",
            "xiangqi_replies_queued_total{platform=\"discord\"} 3",
            "xiangqi_replies_delivered_total{platform=\"discord\"} 1",
            "xiangqi_delivery_retries_total{platform=\"telegram\",cause=\"rate_limited\"} 1",
            "xiangqi_delivery_dropped_total{platform=\"telegram\"} 1",
            "xiangqi_engine_jobs_waiting 2",
            "xiangqi_engine_job_seconds_count{kind=\"hint\"} 1",
            "xiangqi_render_seconds_count 1",
            "xiangqi_web_requests_total{route=\"move\"} 1",
            "# EOF",
        ] {
            assert!(t.lines().any(|l| l == line), "{line} in\n{t}");
        }
        // The hint's 0.3 s falls in the 0.512 s bucket and above, not below.
        assert!(
            t.contains("xiangqi_engine_job_seconds_bucket{le=\"0.512\",kind=\"hint\"} 1"),
            "{t}"
        );
        assert!(
            t.contains("xiangqi_engine_job_seconds_bucket{le=\"0.256\",kind=\"hint\"} 0"),
            "{t}"
        );
    }
}
