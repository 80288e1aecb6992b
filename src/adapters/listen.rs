//! The HTTP servers' connections (the Telegram webhook's, the web board's), which nobody can
//! keep from the requests they are for.
//!
//! * **Deadlines.** Connections are served with hyper's HTTP/1 builder on tokio's timer, so
//!   a request's headers must arrive within [`Limits::header_timeout`] of their first
//!   byte (and a kept-alive connection waits no longer than that for its next request); the
//!   body deadline is the request handler's.
//! * **A cap on open connections** ([`Limits::connections`], below the file limit). At the
//!   cap, the oldest connection that is not in a request (one still sending its headers, or
//!   kept alive between requests) is closed for the new one; only when every connection is in
//!   a request does the next one wait, in the kernel's queue, for a free place.
//! * **Repeated refusals** ([`Throttle`]): a source that keeps sending the wrong secret is
//!   answered 429 for a while, at no cost and without a log line each.

use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::future::Future;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::{watch, Notify, Semaphore};

/// What a server allows its connections.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// A request's headers must arrive within this from their first byte, and a kept-alive
    /// connection waits this long for its next request.
    pub header_timeout: Duration,
    /// Connections open at once.
    pub connections: usize,
    /// The server's name in logs.
    pub name: &'static str,
}

/// Refusals a source may have before it is throttled.
const FREE_REFUSALS: u32 = 5;
/// The first time a throttled source is refused for (doubled at each refusal after it).
const FIRST_BLOCK: Duration = Duration::from_secs(1);
/// The longest a source is refused for at once.
const LONGEST_BLOCK: Duration = Duration::from_secs(300);
/// A source without a refusal for this long starts afresh.
const FORGET: Duration = Duration::from_secs(600);
/// Sources remembered at most (sources not refused now are forgotten first).
const SOURCES: usize = 10_000;

/// One source's refusals.
#[derive(Clone, Copy, Debug)]
struct Strikes {
    count: u32,
    last: Instant,
    until: Option<Instant>,
}

/// Requests refused for a wrong secret, by source address: after [`FREE_REFUSALS`], the
/// source is refused outright for [`FIRST_BLOCK`], doubled at each refusal after the block
/// ends, up to [`LONGEST_BLOCK`].
#[derive(Default)]
pub(crate) struct Throttle {
    sources: Mutex<HashMap<IpAddr, Strikes>>,
}

impl Throttle {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, Strikes>> {
        self.sources.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// How much longer `ip` is refused outright at `now`, if it is.
    pub(crate) fn blocked(&self, ip: IpAddr, now: Instant) -> Option<Duration> {
        self.lock()
            .get(&ip)
            .and_then(|s| s.until)
            .and_then(|until| until.checked_duration_since(now))
            .filter(|left| !left.is_zero())
    }

    /// Count a refusal of `ip` at `now`; the block it starts, if it starts one.
    pub(crate) fn refused(&self, ip: IpAddr, now: Instant) -> Option<Duration> {
        let mut sources = self.lock();
        if sources.len() >= SOURCES && !sources.contains_key(&ip) {
            sources.retain(|_, s| s.until.is_some_and(|u| u > now));
            if sources.len() >= SOURCES {
                sources.clear();
            }
        }
        let s = sources.entry(ip).or_insert(Strikes {
            count: 0,
            last: now,
            until: None,
        });
        if now.saturating_duration_since(s.last) > FORGET {
            *s = Strikes {
                count: 0,
                last: now,
                until: None,
            };
        }
        s.count = s.count.saturating_add(1);
        s.last = now;
        if s.count < FREE_REFUSALS {
            return None;
        }
        let doublings = (s.count - FREE_REFUSALS).min(16);
        let block = FIRST_BLOCK
            .saturating_mul(1 << doublings)
            .min(LONGEST_BLOCK);
        s.until = Some(now + block);
        Some(block)
    }
}

/// One open connection, as the cap sees it.
#[derive(Default)]
struct Conn {
    /// Requests being handled on it (0 or 1 on HTTP/1).
    busy: AtomicUsize,
    /// Told to close (to make room), so not told twice.
    told: AtomicBool,
    close: Notify,
}

/// The open connections, oldest first.
#[derive(Default)]
struct Open {
    next: u64,
    conns: VecDeque<(u64, Arc<Conn>)>,
}

impl Open {
    /// Close the oldest connection that is not in a request; whether there was one.
    fn make_room(&mut self) -> bool {
        let idle = self.conns.iter().find(|(_, c)| {
            c.busy.load(Ordering::Acquire) == 0 && !c.told.swap(true, Ordering::AcqRel)
        });
        match idle {
            Some((_, c)) => {
                c.close.notify_one();
                true
            }
            None => false,
        }
    }
}

/// Marks a connection busy while a request is handled (and idle again when it is done or
/// dropped).
struct Busy(Arc<Conn>);

impl Busy {
    fn enter(conn: &Arc<Conn>) -> Busy {
        conn.busy.fetch_add(1, Ordering::AcqRel);
        Busy(Arc::clone(conn))
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.busy.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Resolves once `quit` turns true (or its sender is gone).
/// A `Retry-After` header for a throttled source still refused for `left` (whole seconds,
/// rounded up).
pub(crate) fn retry_after(left: Duration) -> axum::http::HeaderValue {
    axum::http::HeaderValue::from(left.as_secs() + u64::from(left.subsec_nanos() > 0))
}

async fn quitting(quit: &mut watch::Receiver<bool>) {
    let _ = quit.wait_for(|q| *q).await;
}

/// Serve `listener` until `quit` turns true, each request (with its source address) answered
/// by `respond`; then let every open connection finish the request in hand, and return once
/// all are closed.
pub(crate) async fn serve<R, F>(
    listener: TcpListener,
    limits: Limits,
    respond: R,
    mut quit: watch::Receiver<bool>,
) where
    R: Fn(IpAddr, Request<Body>) -> F + Clone + Send + Sync + 'static,
    F: Future<Output = Response<Body>> + Send + 'static,
{
    let cap = limits.connections.clamp(1, Semaphore::MAX_PERMITS);
    let slots = Arc::new(Semaphore::new(cap));
    let open = Arc::new(Mutex::new(Open::default()));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors, most likely: wait for connections to close.
                    tracing::warn!(error = %e, server = limits.name, "cannot accept a connection");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = quitting(&mut quit) => break,
        };
        // At the cap: close an idle connection for this one, or (every one in a request) look
        // again shortly, as one may have finished its request meanwhile.
        let permit = loop {
            if let Ok(p) = Arc::clone(&slots).try_acquire_owned() {
                break Some(p);
            }
            let made = open
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .make_room();
            if !made {
                tracing::debug!(
                    server = limits.name,
                    "every connection is in a request; waiting"
                );
            }
            tokio::select! {
                p = Arc::clone(&slots).acquire_owned() => break p.ok(),
                () = tokio::time::sleep(Duration::from_millis(50)) => {}
                () = quitting(&mut quit) => break None,
            }
        };
        let Some(permit) = permit else {
            break;
        };
        let conn = Arc::new(Conn::default());
        let id = {
            let mut o = open.lock().unwrap_or_else(PoisonError::into_inner);
            o.next += 1;
            let id = o.next;
            o.conns.push_back((id, Arc::clone(&conn)));
            id
        };
        let (respond, open, http, mut quit) = (
            respond.clone(),
            Arc::clone(&open),
            http.clone(),
            quit.clone(),
        );
        tokio::spawn(async move {
            let _permit = permit;
            let busy = Arc::clone(&conn);
            let service = hyper::service::service_fn(move |req: Request<hyper::body::Incoming>| {
                let busy = Busy::enter(&busy);
                let answer = respond(peer.ip(), req.map(Body::new));
                async move {
                    let answer = answer.await;
                    drop(busy);
                    Ok::<_, Infallible>(answer)
                }
            });
            let served = http.serve_connection(TokioIo::new(stream), service);
            tokio::pin!(served);
            let mut closing = false;
            loop {
                tokio::select! {
                    r = served.as_mut() => {
                        if let Err(e) = r {
                            // A client too slow with its headers, or gone: nothing to act on.
                            tracing::debug!(error = %e, server = limits.name, "a connection ended");
                        }
                        break;
                    }
                    () = conn.close.notified(), if !closing => {
                        if conn.busy.load(Ordering::Acquire) == 0 {
                            break; // not in a request: closed at once
                        }
                        served.as_mut().graceful_shutdown();
                        closing = true;
                    }
                    () = quitting(&mut quit), if !closing => {
                        served.as_mut().graceful_shutdown();
                        closing = true;
                    }
                }
            }
            open.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .conns
                .retain(|(i, _)| *i != id);
        });
    }
    // Every connection gives its place back once closed.
    let all = u32::try_from(cap).unwrap_or(u32::MAX);
    let _ = slots.acquire_many(all).await;
}

/// Whether `given` is `secret`, in time that depends only on their lengths (every byte is
/// compared, whatever the first difference; `black_box` keeps the compiler from stopping
/// early).
#[must_use]
pub fn same_secret(given: impl AsRef<[u8]>, secret: impl AsRef<[u8]>) -> bool {
    let (given, secret) = (given.as_ref(), secret.as_ref());
    if given.len() != secret.len() {
        return false;
    }
    given
        .iter()
        .zip(secret)
        .fold(0u8, |acc, (a, b)| std::hint::black_box(acc | (a ^ b)))
        == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_secret_must_match_exactly() {
        assert!(same_secret(b"abc_DEF-123", b"abc_DEF-123"));
        assert!(!same_secret(b"abc_DEF-124", b"abc_DEF-123"));
        assert!(!same_secret(b"abc_DEF-12", b"abc_DEF-123"));
        assert!(!same_secret(b"", b"abc"));
        assert!(!same_secret(b"ABC", b"abc"), "case matters");
    }

    proptest::proptest! {
        #[test]
        fn the_compare_is_equality(a in proptest::collection::vec(0u8..4, 0..6),
                                   b in proptest::collection::vec(0u8..4, 0..6)) {
            proptest::prop_assert_eq!(same_secret(&a, &b), a == b);
        }
    }

    #[test]
    fn a_source_is_refused_after_its_free_refusals_and_longer_each_time() {
        let t = Throttle::default();
        let ip: IpAddr = [203, 0, 113, 7].into();
        let other: IpAddr = [203, 0, 113, 8].into();
        let start = Instant::now();
        for _ in 1..FREE_REFUSALS {
            assert_eq!(t.refused(ip, start), None);
            assert_eq!(t.blocked(ip, start), None);
        }
        assert_eq!(t.refused(ip, start), Some(FIRST_BLOCK));
        assert_eq!(t.blocked(ip, start), Some(FIRST_BLOCK));
        assert_eq!(t.blocked(other, start), None, "per source");
        let later = start + FIRST_BLOCK;
        assert_eq!(t.blocked(ip, later), None, "the block ends");
        assert_eq!(t.refused(ip, later), Some(FIRST_BLOCK * 2), "doubled");
        let mut at = later;
        for _ in 0..20 {
            at += LONGEST_BLOCK;
            assert!(t.refused(ip, at) <= Some(LONGEST_BLOCK));
        }
        assert_eq!(
            t.refused(ip, at + FORGET * 2),
            None,
            "forgotten after a quiet while"
        );
    }

    #[test]
    fn the_sources_remembered_are_bounded() {
        let t = Throttle::default();
        let now = Instant::now();
        for i in 0..(SOURCES as u32 + 10) {
            t.refused(IpAddr::from(i.to_be_bytes()), now);
        }
        assert!(t.lock().len() <= SOURCES);
    }

    #[test]
    fn room_is_made_by_closing_the_oldest_connection_not_in_a_request() {
        let mut open = Open::default();
        let conns: Vec<Arc<Conn>> = (0..3).map(|_| Arc::new(Conn::default())).collect();
        for (i, c) in conns.iter().enumerate() {
            open.conns.push_back((i as u64, Arc::clone(c)));
        }
        let _in_request = Busy::enter(&conns[0]);
        assert!(open.make_room());
        assert!(!conns[0].told.load(Ordering::Acquire), "in a request: kept");
        assert!(conns[1].told.load(Ordering::Acquire), "the oldest idle one");
        assert!(open.make_room());
        assert!(conns[2].told.load(Ordering::Acquire));
        assert!(!open.make_room(), "none left that is not in a request");
    }
}
