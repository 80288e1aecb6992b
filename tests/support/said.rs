//! What a console player says to the service as a library, and what it answers, as text.

use xiangqi_bot::app::{Incoming, Reply};
use xiangqi_bot::game::PlayerRef;

/// `user` says `text` in console channel `channel`.
#[allow(dead_code)]
pub fn said(user: &str, channel: &str, text: &str) -> Incoming {
    Incoming {
        channel: format!("console:{channel}").into(),
        user: PlayerRef::new(format!("console:{user}"), user),
        handle: Some(user.to_string()),
        text: text.to_string(),
        // As the console adapter says: its user is its operator.
        may_configure: Some(true),
        ..Incoming::default()
    }
}

/// The texts of `replies`, one per line.
#[allow(dead_code)]
pub fn joined(replies: &[Reply]) -> String {
    replies
        .iter()
        .map(|r| r.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}
