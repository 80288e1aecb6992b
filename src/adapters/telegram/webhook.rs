//! Receiving updates by webhook: Telegram POSTs each update to a public URL, which a TLS
//! proxy forwards to the plain HTTP server here. Unlike long polling (one consumer per
//! token), any number of processes can serve the same URL behind a load balancer.
//!
//! * Every request must carry the secret token in `X-Telegram-Bot-Api-Secret-Token`
//!   (compared in constant time): without it the answer is 401 and the body is not read; a
//!   source that keeps trying is answered 429 for a while (see [`super::listen`]). A body
//!   that is not an update is 400; one over [`BODY_LIMIT`] is 413; one that does not arrive
//!   within the body deadline is 408. Slow and idle connections are closed, and open ones
//!   capped (see [`super::listen`]).
//! * An update is handled on the same path as a polled one (one chat's updates in order,
//!   its id stored with its changes so a redelivered update is skipped), and the answer is
//!   sent only once it was handled: 200 then, 500 when the storage failed (Telegram delivers
//!   it again later). Telegram sends a chat's next update only once the previous one is
//!   answered, so a chat's order holds across processes too.
//! * Stopping stops accepting, finishes the updates in hand and leaves the webhook set: the
//!   other processes keep serving it.

use std::collections::{HashSet, VecDeque};
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, HeaderValue, Method, Request, Response, StatusCode};
use axum::response::IntoResponse;
use teloxide::payloads::setters::*;
use teloxide::prelude::Requester;
use teloxide::types::{AllowedUpdate, ChatId, Update};
use teloxide::{Bot, RequestError};
use tokio::sync::oneshot;

use super::outbox::redacted;
use super::WebhookConfig;
use super::{RetryPolicy, TelegramError};
use crate::adapters::lanes::{Lanes, Work};
use crate::adapters::listen::{self, Throttle};

/// The header Telegram sends the secret token in.
pub const SECRET_HEADER: &str = "x-telegram-bot-api-secret-token";
/// The largest update body read (Telegram's are a few kilobytes).
pub const BODY_LIMIT: usize = 1 << 20;
/// How many handled update ids are remembered, to skip one Telegram sends again quickly.
const REMEMBERED: usize = 4096;

/// How handling an update ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Outcome {
    /// Handled (or nothing to do): Telegram may forget it.
    Done,
    /// Not handled (the storage failed): Telegram should deliver it again.
    Failed,
}

/// The update kinds asked for, by polling and by the webhook alike.
pub(super) fn allowed_updates() -> [AllowedUpdate; 2] {
    [AllowedUpdate::Message, AllowedUpdate::CallbackQuery]
}

/// Update ids handled lately, oldest first.
#[derive(Default)]
struct Recent {
    ids: HashSet<u32>,
    order: VecDeque<u32>,
}

impl Recent {
    fn contains(&self, id: u32) -> bool {
        self.ids.contains(&id)
    }

    fn insert(&mut self, id: u32) {
        if self.ids.insert(id) {
            self.order.push_back(id);
            if self.order.len() > REMEMBERED {
                if let Some(old) = self.order.pop_front() {
                    self.ids.remove(&old);
                }
            }
        }
    }
}

/// An update and where to say how it ended.
type Item = (Update, oneshot::Sender<Outcome>);

/// What the request handler shares.
struct Hook {
    path: String,
    secret: Vec<u8>,
    lanes: Lanes<ChatId, Item>,
    /// How long a body may take to arrive.
    body_timeout: Duration,
    throttle: Throttle,
}

/// How to serve.
#[derive(Clone, Copy, Debug)]
pub(super) struct HookOptions {
    /// Waits when `setWebhook` fails on the network.
    pub retry: RetryPolicy,
    /// How long stopping waits for the updates in hand.
    pub finish: Duration,
}

/// Serve `config`'s webhook until `stop` completes, handing each update to `handle` (one
/// chat's updates in order) and answering Telegram once it is handled; then finish the
/// updates in hand.
///
/// # Errors
/// [`TelegramError::Listen`] when the address cannot be served, [`TelegramError::Webhook`]
/// when Telegram refuses the webhook.
pub(super) async fn serve<H, F>(
    bot: &Bot,
    config: &WebhookConfig,
    options: HookOptions,
    handle: H,
    stop: impl Future<Output = ()> + Send,
) -> Result<(), TelegramError>
where
    H: Fn(Update) -> F + Send + Sync + 'static,
    F: Future<Output = Outcome> + Send + 'static,
{
    tokio::pin!(stop);
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|e| TelegramError::Listen(config.listen, e.to_string()))?;
    let served: SocketAddr = listener.local_addr().unwrap_or(config.listen);
    let recent = Arc::new(Mutex::new(Recent::default()));
    let handle = Arc::new(handle);
    let work: Work<Item> = Arc::new(move |(update, done): Item| {
        let (recent, handle) = (Arc::clone(&recent), Arc::clone(&handle));
        Box::pin(async move {
            let id = update.id.0;
            let seen = recent
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .contains(id);
            let outcome = if seen {
                tracing::debug!(
                    update = id,
                    "Telegram: an update sent again was handled here"
                );
                Outcome::Done
            } else {
                handle(update).await
            };
            if outcome == Outcome::Done {
                recent
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .insert(id);
            }
            let _ = done.send(outcome);
        })
    });
    let lanes: Lanes<ChatId, Item> = Lanes::new(options.retry.idle, work);
    let hook = Arc::new(Hook {
        path: config.path.clone(),
        secret: config.secret.expose().as_bytes().to_vec(),
        lanes: lanes.clone(),
        body_timeout: config.limits.body_timeout,
        throttle: Throttle::default(),
    });
    let (quit_tx, quit_rx) = tokio::sync::watch::channel(false);
    let respond = move |peer, req| receive(Arc::clone(&hook), peer, req);
    let limits = listen::Limits {
        header_timeout: config.limits.header_timeout,
        connections: config.limits.connections,
        name: "Telegram webhook",
    };
    let server = tokio::spawn(listen::serve(listener, limits, respond, quit_rx));
    tracing::info!(listen = %served, path = %config.path, "Telegram: serving the webhook");
    let set = tokio::select! {
        r = set_webhook(bot, config, options.retry) => Some(r),
        () = &mut stop => None,
    };
    if let Some(set) = set {
        if let Err(e) = set {
            server.abort();
            return Err(e);
        }
        stop.await;
    }
    // Stop accepting; the requests in hand are answered once their updates are handled.
    let _ = quit_tx.send(true);
    match tokio::time::timeout(options.finish, server).await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => tracing::warn!(error = %e, "Telegram: the webhook server failed"),
        Err(_) => tracing::warn!("Telegram: webhook requests still open at shutdown"),
    }
    let left = lanes.drain(options.finish).await;
    if left > 0 {
        tracing::warn!(
            unfinished = left,
            "stopping with updates not handled: Telegram sends them again"
        );
    }
    Ok(())
}

/// `setWebhook` with the URL, the secret, the update kinds and the connection cap; retried
/// while the network fails. Setting the same webhook again (another process) changes nothing.
async fn set_webhook(
    bot: &Bot,
    config: &WebhookConfig,
    policy: RetryPolicy,
) -> Result<(), TelegramError> {
    let url = config
        .url
        .parse()
        .map_err(|e| TelegramError::Webhook(format!("{e}")))?;
    let mut backoff = policy.first_backoff;
    loop {
        let req = bot
            .set_webhook(Clone::clone(&url))
            .secret_token(config.secret.expose())
            .allowed_updates(allowed_updates())
            .max_connections(config.max_connections);
        match req.await {
            Ok(_) => {
                tracing::info!(url = %config.url, "Telegram: webhook set");
                return Ok(());
            }
            Err(RequestError::RetryAfter(s)) => tokio::time::sleep(s.duration()).await,
            Err(e @ (RequestError::Network(_) | RequestError::Io(_))) => {
                tracing::warn!(error = %redacted(&e, bot), "Telegram: setWebhook failed; retrying");
                tokio::time::sleep(backoff).await;
                backoff = policy.next(backoff);
            }
            Err(e) => return Err(TelegramError::Webhook(redacted(&e, bot))),
        }
    }
}

/// An answer with no body; `close` asks the client to close the connection after it.
fn status(code: StatusCode, close: bool) -> Response<Body> {
    let mut answer = code.into_response();
    if close {
        answer
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    answer
}

/// One request from Telegram (or anyone who found the address), from `peer`.
async fn receive(hook: Arc<Hook>, peer: IpAddr, req: Request<Body>) -> Response<Body> {
    if req.uri().path() != hook.path {
        return status(StatusCode::NOT_FOUND, false);
    }
    if req.method() != Method::POST {
        return status(StatusCode::METHOD_NOT_ALLOWED, false);
    }
    let given = req
        .headers()
        .get(SECRET_HEADER)
        .map_or(&[][..], |v| v.as_bytes());
    if !listen::same_secret(given, &hook.secret) {
        return refuse(&hook.throttle, peer);
    }
    let read = axum::body::to_bytes(req.into_body(), BODY_LIMIT);
    let body = match tokio::time::timeout(hook.body_timeout, read).await {
        Ok(Ok(b)) => b,
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "Telegram webhook: an unreadable or too large body");
            return status(StatusCode::PAYLOAD_TOO_LARGE, true);
        }
        Err(_) => {
            tracing::warn!(
                source = %peer,
                "Telegram webhook: a body that did not arrive in time; the connection is closed"
            );
            return status(StatusCode::REQUEST_TIMEOUT, true);
        }
    };
    let update: Update = match serde_json::from_slice(&body) {
        Ok(u) => u,
        Err(e) => {
            tracing::warn!(error = %e, "Telegram webhook: a body that is not an update");
            return status(StatusCode::BAD_REQUEST, false);
        }
    };
    let id = update.id.0;
    let chat = update.chat().map_or(ChatId(0), |c| c.id);
    let (tx, rx) = oneshot::channel();
    if hook.lanes.push(chat, (update, tx)).is_err() {
        // Stopping: Telegram sends it again.
        return status(StatusCode::SERVICE_UNAVAILABLE, true);
    }
    match rx.await {
        Ok(Outcome::Done) => status(StatusCode::OK, false),
        Ok(Outcome::Failed) => {
            tracing::warn!(
                update = id,
                "Telegram webhook: not handled; Telegram sends it again"
            );
            status(StatusCode::INTERNAL_SERVER_ERROR, false)
        }
        Err(_) => status(StatusCode::SERVICE_UNAVAILABLE, true),
    }
}

/// The answer to a request without the right secret from `peer`: 401, or 429 while the
/// source is throttled (then nothing is logged, and the connection is closed).
fn refuse(throttle: &Throttle, peer: IpAddr) -> Response<Body> {
    let now = std::time::Instant::now();
    if let Some(left) = throttle.blocked(peer, now) {
        let mut answer = status(StatusCode::TOO_MANY_REQUESTS, true);
        answer
            .headers_mut()
            .insert(header::RETRY_AFTER, listen::retry_after(left));
        return answer;
    }
    // The header's value is not logged: it may be a near miss of the secret.
    match throttle.refused(peer, now) {
        None => tracing::warn!(
            source = %peer,
            "Telegram webhook: a request without the right secret token; refused"
        ),
        Some(block) => tracing::warn!(
            source = %peer,
            seconds = block.as_secs(),
            "Telegram webhook: repeated requests without the right secret token; the source \
             is refused (429) for a while"
        ),
    }
    status(StatusCode::UNAUTHORIZED, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_ids_are_bounded() {
        let mut r = Recent::default();
        for id in 0..(REMEMBERED as u32 + 10) {
            r.insert(id);
        }
        assert!(!r.contains(0) && r.contains(10) && r.contains(REMEMBERED as u32 + 9));
        assert_eq!(r.order.len(), REMEMBERED);
        assert_eq!(r.ids.len(), REMEMBERED);
    }
}
