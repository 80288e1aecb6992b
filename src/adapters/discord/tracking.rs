//! Where messages with one-time buttons (a challenge, an offer, a picker) were shown on
//! Discord, as the references the service keeps ([`crate::app::Service::shown`]) and hands
//! back in [`crate::app::Reply::retire`] once their buttons no longer apply:
//!
//! * `c:{channel}:{message}` — a message everyone sees: its buttons are taken away by an edit;
//! * `w:{application}:{token}:{message}` — one only its user sees, reachable only through its
//!   interaction's token (for its 15 minutes): it is deleted.

use serde_json::{json, Value};

use super::answering::Interaction;
use super::rest::Route;

fn snowflake(v: Option<&Value>) -> Option<u64> {
    v?.as_str()?.parse().ok().filter(|&id| id != 0)
}

/// The reference of the message Discord answered with (`answer`), shown only to its user
/// through `private_to`'s token when that is given.
pub(super) fn reference(answer: &Value, private_to: Option<&Interaction>) -> Option<String> {
    let id = snowflake(answer.get("id"))?;
    match private_to {
        Some(ix) => Some(format!("w:{}:{}:{id}", ix.app, ix.token)),
        None => Some(format!("c:{}:{id}", snowflake(answer.get("channel_id"))?)),
    }
}

/// The message a reference names.
pub(super) fn message_of(reference: &str) -> Option<u64> {
    reference
        .rsplit(':')
        .next()?
        .parse()
        .ok()
        .filter(|&id| id != 0)
}

/// The call that takes the buttons away from a referenced message, and its body.
pub(super) fn retire_call(reference: &str) -> Option<(Route, Value)> {
    let mut parts = reference.split(':');
    let kind = parts.next()?;
    let mut number = || -> Option<u64> { parts.next()?.parse().ok().filter(|&n| n != 0) };
    match kind {
        "c" => {
            let channel = number()?;
            let message = number()?;
            Some((
                Route::EditMessage { channel, message },
                json!({ "components": [] }),
            ))
        }
        "w" => {
            let app = number()?;
            let token = parts.next()?.to_string();
            let message: u64 = parts.next()?.parse().ok().filter(|&n| n != 0)?;
            if token.is_empty() || parts.next().is_some() {
                return None;
            }
            Some((
                Route::DeleteFollowup {
                    app,
                    token,
                    message,
                },
                Value::Null,
            ))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_name_where_to_take_buttons_away() {
        let answer = json!({ "id": "42", "channel_id": "7" });
        let public = reference(&answer, None).expect("public");
        assert_eq!(public, "c:7:42");
        assert_eq!(message_of(&public), Some(42));
        assert_eq!(
            retire_call(&public).map(|(r, _)| r),
            Some(Route::EditMessage {
                channel: 7,
                message: 42
            })
        );
        let ix = Interaction {
            id: 1,
            app: 9,
            token: "tok".into(),
            created_ms: 0,
        };
        let private = reference(&answer, Some(&ix)).expect("private");
        assert_eq!(private, "w:9:tok:42");
        assert_eq!(
            retire_call(&private).map(|(r, _)| r),
            Some(Route::DeleteFollowup {
                app: 9,
                token: "tok".into(),
                message: 42
            })
        );
        assert_eq!(reference(&json!({}), None), None);
        for bad in [
            "",
            "c:7",
            "c:x:1",
            "w:9::1",
            "w:9:t:0",
            "z:1:2",
            "w:9:t:1:2",
        ] {
            assert_eq!(retire_call(bad), None, "{bad}");
        }
    }
}
