//! The Discord REST calls that deliver replies, made over HTTP directly so that a failure
//! reaches the delivery queue whole: the status, Discord's JSON error code, and for a 429 the
//! `retry_after` of its body (or its `Retry-After` header). serenity reports a 429 without its
//! body and headers, and its own ratelimiter (which retries 429s) is off whenever it is
//! pointed at another server; this layer behaves the same in both cases.
//!
//! The message bodies are serenity's builders, serialised; attachments go as multipart
//! `files[n]` with a `payload_json`, as Discord documents.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

/// Where a message goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// A new message in a channel.
    Channel(u64),
    /// A new thread in a channel, not from a message (`POST /channels/{id}/threads`).
    Thread(u64),
    /// Edit an interaction's original response (or, for a click, the clicked message).
    EditOriginal {
        /// The application.
        app: u64,
        /// The interaction's token.
        token: String,
    },
    /// A follow-up message of an interaction.
    Followup {
        /// The application.
        app: u64,
        /// The interaction's token.
        token: String,
    },
    /// The first response to an interaction (within its 3 seconds).
    Callback {
        /// The interaction.
        id: u64,
        /// Its token.
        token: String,
    },
    /// Delete an interaction's original response.
    DeleteOriginal {
        /// The application.
        app: u64,
        /// The interaction's token.
        token: String,
    },
    /// Edit a message in a channel (taking its buttons away).
    EditMessage {
        /// The channel.
        channel: u64,
        /// The message.
        message: u64,
    },
    /// Delete a follow-up message of an interaction (one only its user sees).
    DeleteFollowup {
        /// The application.
        app: u64,
        /// The interaction's token.
        token: String,
        /// The message.
        message: u64,
    },
}

/// A file to attach.
#[derive(Clone, Debug)]
pub struct File {
    /// Its name (`board-1-2.png`).
    pub filename: String,
    /// Its bytes.
    pub bytes: Arc<Vec<u8>>,
    /// Its MIME type.
    pub mime: &'static str,
}

/// Why a call did not go through.
#[derive(Debug, Clone, PartialEq)]
pub struct RestError {
    /// The HTTP status; 0 when no answer came (network).
    pub status: u16,
    /// Discord's JSON error code, if the body had one.
    pub code: Option<u64>,
    /// For a 429: how long to wait.
    pub retry_after: Option<Duration>,
    /// What Discord (or the network) said.
    pub message: String,
}

impl std::fmt::Display for RestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.status, self.code) {
            (0, _) => write!(f, "network: {}", self.message),
            (s, Some(c)) => write!(f, "{s} (code {c}): {}", self.message),
            (s, None) => write!(f, "{s}: {}", self.message),
        }
    }
}

/// Discord error codes the delivery reads.
pub mod codes {
    /// Unknown Message (the original response or clicked message is gone).
    pub const UNKNOWN_MESSAGE: u64 = 10008;
    /// Unknown Webhook (an interaction token never acknowledged, or unknown).
    pub const UNKNOWN_WEBHOOK: u64 = 10015;
    /// Unknown Interaction.
    pub const UNKNOWN_INTERACTION: u64 = 10062;
    /// Missing Permissions (for a board: Attach Files or Embed Links).
    pub const MISSING_PERMISSIONS: u64 = 50013;
    /// Invalid Webhook Token (an interaction token past its 15 minutes).
    pub const INVALID_WEBHOOK_TOKEN: u64 = 50027;
}

/// Calls on one bot token.
#[derive(Clone)]
pub struct Rest {
    client: reqwest::Client,
    base: Arc<str>,
    token: Arc<str>,
}

impl Rest {
    /// Calls to `https://discord.com/api/v10`, or to `api_url` (a Discord-compatible server,
    /// as `DISCORD_API_URL` gives it) with `/api/v10` added.
    #[must_use]
    pub fn new(token: &str, api_url: Option<&str>) -> Rest {
        let host = api_url.map_or("https://discord.com", |u| u.trim_end_matches('/'));
        Rest {
            client: reqwest::Client::builder()
                .timeout(Duration::from_secs(30))
                .build()
                .unwrap_or_default(),
            base: Arc::from(format!("{host}/api/v10")),
            token: Arc::from(token),
        }
    }

    fn url(&self, route: &Route) -> (reqwest::Method, String) {
        let b = &self.base;
        match route {
            Route::Channel(c) => (reqwest::Method::POST, format!("{b}/channels/{c}/messages")),
            Route::Thread(c) => (reqwest::Method::POST, format!("{b}/channels/{c}/threads")),
            Route::EditOriginal { app, token } => (
                reqwest::Method::PATCH,
                format!("{b}/webhooks/{app}/{token}/messages/@original"),
            ),
            Route::Followup { app, token } => {
                (reqwest::Method::POST, format!("{b}/webhooks/{app}/{token}"))
            }
            Route::Callback { id, token } => (
                reqwest::Method::POST,
                format!("{b}/interactions/{id}/{token}/callback"),
            ),
            Route::DeleteOriginal { app, token } => (
                reqwest::Method::DELETE,
                format!("{b}/webhooks/{app}/{token}/messages/@original"),
            ),
            Route::EditMessage { channel, message } => (
                reqwest::Method::PATCH,
                format!("{b}/channels/{channel}/messages/{message}"),
            ),
            Route::DeleteFollowup {
                app,
                token,
                message,
            } => (
                reqwest::Method::DELETE,
                format!("{b}/webhooks/{app}/{token}/messages/{message}"),
            ),
        }
    }

    /// Send `payload` (a message body) with `files` on `route` once.
    ///
    /// # Errors
    /// How it failed.
    pub async fn send(
        &self,
        route: &Route,
        payload: &Value,
        files: &[File],
    ) -> Result<Value, RestError> {
        let (method, url) = self.url(route);
        let mut req = self
            .client
            .request(method, url)
            .header("Authorization", format!("Bot {}", self.token));
        if matches!(
            route,
            Route::DeleteOriginal { .. } | Route::DeleteFollowup { .. }
        ) {
            // No body.
        } else if files.is_empty() {
            req = req.json(payload);
        } else {
            let mut form =
                reqwest::multipart::Form::new().text("payload_json", payload.to_string());
            for (i, f) in files.iter().enumerate() {
                let part = reqwest::multipart::Part::bytes(f.bytes.as_ref().clone())
                    .file_name(f.filename.clone())
                    .mime_str(f.mime)
                    .map_err(|e| network(&e))?;
                form = form.part(format!("files[{i}]"), part);
            }
            req = req.multipart(form);
        }
        let response = req.send().await.map_err(|e| network(&e))?;
        let status = response.status().as_u16();
        if response.status().is_success() {
            // The message created or edited (nothing for a 204).
            let body = response.bytes().await.unwrap_or_default();
            return Ok(serde_json::from_slice(&body).unwrap_or(Value::Null));
        }
        let header_wait = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<f64>().ok());
        let body = response.bytes().await.unwrap_or_default();
        Err(read_error(status, &body, header_wait))
    }
}

fn network(e: &reqwest::Error) -> RestError {
    RestError {
        status: 0,
        code: None,
        retry_after: None,
        // Without the URL: interaction tokens are in it.
        message: e
            .to_string()
            .split(" for url")
            .next()
            .unwrap_or("")
            .to_string(),
    }
}

/// An error answer: Discord's `{"code", "message"}`, or for a 429 `{"retry_after"}` (seconds,
/// fractional), else the `Retry-After` header.
fn read_error(status: u16, body: &[u8], header_wait: Option<f64>) -> RestError {
    let v: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    let wait = v
        .get("retry_after")
        .and_then(Value::as_f64)
        .or(header_wait)
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(|s| Duration::from_secs_f64(s.min(3_600.0)));
    RestError {
        status,
        code: v.get("code").and_then(Value::as_u64),
        retry_after: if status == 429 {
            wait.or(Some(Duration::from_secs(1)))
        } else {
            None
        },
        message: v.get("message").and_then(Value::as_str).map_or_else(
            || String::from_utf8_lossy(body).chars().take(200).collect(),
            str::to_string,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_keep_code_and_wait() {
        let e = read_error(
            429,
            br#"{"message":"You are being rate limited.","retry_after":1.5,"global":false}"#,
            Some(2.0),
        );
        assert_eq!(e.retry_after, Some(Duration::from_millis(1500)));
        assert_eq!(e.code, None);
        let e = read_error(429, b"", Some(3.0));
        assert_eq!(e.retry_after, Some(Duration::from_secs(3)));
        let e = read_error(
            403,
            br#"{"message":"Missing Permissions","code":50013}"#,
            None,
        );
        assert_eq!(
            (e.status, e.code, e.retry_after),
            (403, Some(codes::MISSING_PERMISSIONS), None)
        );
        let e = read_error(502, b"<html>bad gateway</html>", None);
        assert_eq!((e.status, e.code), (502, None));
        assert!(e.message.contains("bad gateway"));
    }

    #[test]
    fn routes_are_discord_paths() {
        let r = Rest::new("t", Some("http://127.0.0.1:9/"));
        assert_eq!(
            r.url(&Route::Channel(5)).1,
            "http://127.0.0.1:9/api/v10/channels/5/messages"
        );
        let (m, u) = r.url(&Route::EditOriginal {
            app: 1,
            token: "tok".into(),
        });
        assert_eq!(
            (m, u.as_str()),
            (
                reqwest::Method::PATCH,
                "http://127.0.0.1:9/api/v10/webhooks/1/tok/messages/@original"
            )
        );
    }
}
