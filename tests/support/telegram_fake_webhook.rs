//! The fake Bot API's webhook (a child module of `telegram_fake.rs`), as strict as Telegram's:
//!
//! - `setWebhook` checks the URL (http or https with a host: the fake allows plain http on
//!   127.0.0.1, Telegram wants https on 443, 80, 88 or 8443), `secret_token` (1..=256
//!   characters of `A-Z a-z 0-9 _ -`), `max_connections` (1..=100, default 40) and keeps
//!   `allowed_updates`; `getUpdates` is then `409 Conflict` until `deleteWebhook`;
//! - each update queued is POSTed to the URL as JSON with the secret in
//!   `X-Telegram-Bot-Api-Secret-Token`; a 2xx answer confirms it, anything else (or no answer)
//!   is retried with backoff and recorded as `last_error_message`;
//! - one update per chat in flight, a chat's updates in order; chats side by side up to
//!   `max_connections`.
//!
//! A test can make the fake lose the answer to the next delivery
//! ([`FakeTelegram::lose_next_webhook_answer`]), as a dropped connection does: it then sends
//! the same update again.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};

use super::{bad, now, ApiErr, FakeState, FakeTelegram, Params, Shared};

/// The fake's first wait after a failed delivery (doubled up to [`MAX_BACKOFF`]).
const FIRST_BACKOFF: Duration = Duration::from_millis(50);
const MAX_BACKOFF: Duration = Duration::from_secs(1);

/// A webhook set with `setWebhook`.
#[derive(Clone, Debug)]
pub(super) struct Webhook {
    pub url: String,
    pub secret: Option<String>,
    pub max_connections: usize,
}

/// The webhook's delivery state.
#[derive(Default)]
pub(super) struct Hooked {
    pub set: Option<Webhook>,
    /// Chats with an update in flight.
    in_flight: HashSet<i64>,
    /// Every delivery attempt, in order.
    deliveries: Vec<WebhookDelivery>,
    last_error: Option<(i64, String)>,
    /// Answers to lose (the next deliveries' successes treated as dropped connections).
    lose: usize,
}

/// One POST of an update to the webhook.
#[derive(Clone, Debug)]
pub struct WebhookDelivery {
    pub update_id: i64,
    pub chat_id: i64,
    /// The HTTP status, `None` when there was no answer.
    pub status: Option<u16>,
    /// Whether the fake threw the answer away (see [`FakeTelegram::lose_next_webhook_answer`]).
    pub lost: bool,
    /// The update sent.
    pub update: Value,
}

impl FakeTelegram {
    /// Every delivery to the webhook so far, in order.
    pub fn webhook_deliveries(&self) -> Vec<WebhookDelivery> {
        self.lock().hook.deliveries.clone()
    }

    /// The webhook set, if any: `(url, secret_token)`.
    pub fn webhook(&self) -> Option<(String, Option<String>)> {
        self.lock()
            .hook
            .set
            .as_ref()
            .map(|w| (w.url.clone(), w.secret.clone()))
    }

    /// Treat the answer to the next delivery as lost (a dropped connection): the update is
    /// sent again, though the bot handled it.
    pub fn lose_next_webhook_answer(&self) {
        self.lock().hook.lose += 1;
    }

    /// Waits until a webhook is set. False on timeout.
    pub async fn wait_webhook_set(&self, timeout: Duration) -> bool {
        self.wait_until(timeout, |st| st.hook.set.as_ref().map(|_| ()))
            .await
            .is_some()
    }
}

impl FakeState {
    pub(super) fn set_webhook(&mut self, p: &Params) -> Result<Value, ApiErr> {
        let url = p.string("url")?.unwrap_or_default();
        if url.is_empty() {
            self.hook.set = None;
            return Ok(json!(true));
        }
        let parsed = reqwest::Url::parse(&url)
            .map_err(|_| bad("Bad Request: bad webhook: Failed to resolve host"))?;
        if !matches!(parsed.scheme(), "https" | "http") || parsed.host_str().is_none() {
            return Err(bad(
                "Bad Request: bad webhook: An HTTPS URL must be provided for webhook",
            ));
        }
        let secret = p.string("secret_token")?;
        if let Some(s) = &secret {
            let fine = (1..=256).contains(&s.len())
                && s.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
            if !fine {
                return Err(bad(
                    "Bad Request: secret token contains unallowed characters",
                ));
            }
        }
        let max_connections = match p.int("max_connections")? {
            None => 40,
            Some(n @ 1..=100) => n as usize,
            Some(_) => return Err(bad("Bad Request: bad max_connections")),
        };
        if let Some(allowed) = p.json("allowed_updates")? {
            self.set_allowed_updates(&allowed)?;
        }
        if p.bool("drop_pending_updates")?.unwrap_or(false) {
            self.updates.clear();
        }
        self.hook.set = Some(Webhook {
            url,
            secret,
            max_connections,
        });
        Ok(json!(true))
    }

    pub(super) fn delete_webhook(&mut self, p: &Params) -> Result<Value, ApiErr> {
        self.hook.set = None;
        if p.bool("drop_pending_updates")?.unwrap_or(false) {
            self.updates.clear();
        }
        Ok(json!(true))
    }

    pub(super) fn webhook_info(&self) -> Value {
        let mut info = json!({
            "url": self.hook.set.as_ref().map(|w| w.url.clone()).unwrap_or_default(),
            "has_custom_certificate": false,
            "pending_update_count": self.updates.len(),
        });
        if let Some(w) = &self.hook.set {
            info["max_connections"] = json!(w.max_connections);
            if let Some(allowed) = &self.allowed_updates {
                info["allowed_updates"] = json!(allowed);
            }
        }
        if let Some((date, message)) = &self.hook.last_error {
            info["last_error_date"] = json!(date);
            info["last_error_message"] = json!(message);
        }
        info
    }

    /// The queued updates that may be sent now: the first of each chat not in flight, within
    /// the connection cap; marked in flight.
    fn startable(&mut self) -> Vec<(String, Option<String>, i64, Value)> {
        let Some(hook) = self.hook.set.clone() else {
            return Vec::new();
        };
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for (id, update) in &self.updates {
            let chat = chat_of(update);
            if !seen.insert(chat) || self.hook.in_flight.contains(&chat) {
                continue;
            }
            if self.hook.in_flight.len() >= hook.max_connections {
                break;
            }
            self.hook.in_flight.insert(chat);
            out.push((hook.url.clone(), hook.secret.clone(), *id, update.clone()));
        }
        out
    }
}

/// The chat an update belongs to (0 for none).
fn chat_of(update: &Value) -> i64 {
    ["message", "edited_message", "channel_post"]
        .iter()
        .find_map(|k| update[k]["chat"]["id"].as_i64())
        .or_else(|| update["callback_query"]["message"]["chat"]["id"].as_i64())
        .unwrap_or(0)
}

/// Sends queued updates to the webhook while the fake runs.
pub(super) async fn deliver_all(shared: Arc<Shared>) {
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap_or_default();
    loop {
        let changed = shared.changed.notified();
        tokio::pin!(changed);
        changed.as_mut().enable();
        let start = {
            let mut st = shared.lock();
            if st.shutdown {
                return;
            }
            st.startable()
        };
        for (url, secret, id, update) in start {
            tokio::spawn(deliver(
                Arc::clone(&shared),
                client.clone(),
                url,
                secret,
                id,
                update,
            ));
        }
        let _ = tokio::time::timeout(Duration::from_millis(100), changed).await;
    }
}

/// POST one update until it is taken (or the webhook changes, or the fake stops).
async fn deliver(
    shared: Arc<Shared>,
    client: reqwest::Client,
    url: String,
    secret: Option<String>,
    id: i64,
    update: Value,
) {
    let chat = chat_of(&update);
    let mut backoff = FIRST_BACKOFF;
    loop {
        let mut req = client.post(&url).json(&update);
        if let Some(s) = &secret {
            req = req.header("X-Telegram-Bot-Api-Secret-Token", s);
        }
        let status = req.send().await.ok().map(|r| r.status().as_u16());
        {
            let mut st = shared.lock();
            let lost = status.is_some_and(|s| (200..300).contains(&s)) && st.hook.lose > 0;
            if lost {
                st.hook.lose -= 1;
            }
            st.hook.deliveries.push(WebhookDelivery {
                update_id: id,
                chat_id: chat,
                status,
                lost,
                update: update.clone(),
            });
            let taken = !lost && status.is_some_and(|s| (200..300).contains(&s));
            let same_hook = st.hook.set.as_ref().is_some_and(|w| w.url == url);
            if taken {
                st.updates.retain(|(u, _)| *u != id);
            } else {
                let why = match status {
                    Some(s) => format!("Wrong response from the webhook: {s}"),
                    None => "Connection refused".to_string(),
                };
                st.hook.last_error = Some((now(), why));
            }
            if taken || st.shutdown || !same_hook {
                st.hook.in_flight.remove(&chat);
                drop(st);
                shared.changed.notify_waiters();
                return;
            }
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(MAX_BACKOFF);
    }
}
