//! Ratings, leaderboards and statistics through the chat service, on sled in a temporary
//! directory with a clock the test drives: which games are rated and why not, agreement,
//! anti-farming, scopes, provisional marks, ranks, `/top`, `/stats`, the graph, and
//! exactly-once updates whichever way a game ends.

mod bands;
#[path = "../support/rated.rs"]
mod rated;
mod rules;
mod views;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use xiangqi_bot::app::{Action, Incoming, Reply, Service, ServiceConfig};
use xiangqi_bot::game::PlayerRef;
use xiangqi_bot::render::Renderer;
use xiangqi_bot::storage::SledStorage;

pub const MINUTE: u64 = 60_000;
pub const HOUR: u64 = 60 * MINUTE;
pub const DAY: u64 = 24 * HOUR;

pub struct Fixture {
    _dir: tempfile::TempDir,
    pub clock: Arc<AtomicU64>,
    pub svc: Arc<Service>,
}

fn service(dir: &std::path::Path, clock: &Arc<AtomicU64>, images: bool) -> Arc<Service> {
    let c = Arc::clone(clock);
    Arc::new(Service::new(
        Arc::new(SledStorage::open(dir).expect("sled")),
        Arc::new(Renderer::new()),
        Arc::new(move || c.load(Ordering::SeqCst)),
        ServiceConfig {
            images,
            rate_burst: 1_000_000,
            ..ServiceConfig::default()
        },
    ))
}

impl Fixture {
    pub fn new(images: bool) -> Fixture {
        let dir = tempfile::tempdir().expect("tempdir");
        let clock = Arc::new(AtomicU64::new(1_700_000_000_000));
        let svc = service(dir.path(), &clock, images);
        Fixture {
            _dir: dir,
            clock,
            svc,
        }
    }

    /// The service stopped (without settling anything) and started again on the same
    /// database after `down_ms`, recovered as the binary does at start-up.
    pub async fn restart(self, down_ms: u64) -> Fixture {
        let Fixture { _dir, clock, svc } = self;
        drop(svc);
        // The old handle lets go of the database as its writer thread ends.
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        clock.fetch_add(down_ms, Ordering::SeqCst);
        let svc = service(_dir.path(), &clock, false);
        svc.recover().await.expect("recover");
        Fixture { _dir, clock, svc }
    }

    pub fn advance(&self, ms: u64) {
        self.clock.fetch_add(ms, Ordering::SeqCst);
    }

    pub fn now(&self) -> u64 {
        self.clock.load(Ordering::SeqCst)
    }
}

/// A channel of a community (a server or group) where games are played.
#[derive(Clone, Copy)]
pub struct Table {
    pub channel: &'static str,
    pub community: Option<&'static str>,
}

pub const HERE: Table = Table {
    channel: "console:#a",
    community: Some("console:#a"),
};

pub fn incoming(t: Table, user: &str, text: &str) -> Incoming {
    Incoming {
        channel: t.channel.into(),
        user: PlayerRef::new(format!("console:{user}"), user),
        handle: Some(user.to_string()),
        text: text.to_string(),
        community: t.community.map(str::to_string),
        may_configure: Some(true),
        ..Incoming::default()
    }
}

#[path = "../support/said.rs"]
mod said;
pub use said::joined;

pub async fn say_at(f: &Fixture, t: Table, user: &str, text: &str) -> Vec<Reply> {
    f.svc.handle(incoming(t, user, text)).await
}

pub async fn ask_at(f: &Fixture, t: Table, user: &str, text: &str) -> String {
    joined(&say_at(f, t, user, text).await)
}

pub async fn ask(f: &Fixture, user: &str, text: &str) -> String {
    ask_at(f, HERE, user, text).await
}

pub async fn press(f: &Fixture, t: Table, user: &str, action: Action) -> Vec<Reply> {
    let mut inc = incoming(t, user, "");
    inc.action = Some(action);
    f.svc.handle(inc).await
}

/// The first four plies of a quiet opening (two moves each).
pub const OPENING: [&str; 4] = ["h2e2", "h9g7", "h0g2", "i9h9"];

/// How a test game ends.
#[derive(Clone, Copy, Debug)]
pub enum End {
    /// This player resigns after `plies` plies of [`OPENING`].
    Resign(&'static str, usize),
    /// Draw agreed after the opening.
    Draw,
}

/// Challenge, accept, play and end a game between `red` and `black` at `t`; returns the
/// result's text.
pub async fn game_at(
    f: &Fixture,
    t: Table,
    red: &str,
    black: &str,
    args: &str,
    end: End,
) -> String {
    // In any of the three languages (the channel's `/lang`).
    let r = ask_at(f, t, red, &format!("/play @{black} red {args}")).await;
    assert!(r.contains(red) && r.contains(black), "{r}");
    let r = ask_at(f, t, black, "/accept").await;
    assert!(
        ["begins", "bắt đầu", "局开始"]
            .iter()
            .any(|w| r.contains(w)),
        "{r}"
    );
    let plies = match end {
        End::Resign(_, n) => n,
        End::Draw => 4,
    };
    for (i, m) in OPENING.iter().enumerate().take(plies) {
        let who = if i % 2 == 0 { red } else { black };
        let r = ask_at(f, t, who, m).await;
        assert!(r.contains(&format!("{}. {who}", i + 1)), "{r}");
    }
    f.advance(MINUTE);
    let out = match end {
        End::Resign(who, _) => ask_at(f, t, who, "/resign").await,
        End::Draw => {
            ask_at(f, t, red, "/draw").await;
            ask_at(f, t, black, "/draw").await
        }
    };
    assert!(
        ["Game over", "Hết ván", "对局结束"]
            .iter()
            .any(|w| out.contains(w)),
        "{out}"
    );
    f.advance(10 * MINUTE);
    out
}

/// The stored profile (ratings, statistics) of the console user `user`.
pub fn profile(f: &Fixture, user: &str) -> xiangqi_bot::rating::Profile {
    f.svc
        .storage()
        .profile(&format!("console:{user}"))
        .expect("read")
        .expect("profile")
}

pub async fn game(f: &Fixture, red: &str, black: &str, args: &str, end: End) -> String {
    game_at(f, HERE, red, black, args, end).await
}

/// The rating change of `player` in a result's text (`"alice 1500? → 1662? (+162)"`).
pub fn change_of(text: &str, player: &str) -> Option<i64> {
    let at = text.find(&format!("{player} 1"))?;
    let rest = &text[at..];
    let open = rest.find('(')?;
    let close = rest[open..].find(')')? + open;
    let n = rest[open + 1..close]
        .replace('−', "-")
        .replace(['±', '+'], "");
    n.parse().ok()
}
