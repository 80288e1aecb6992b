//! How the delivery lanes answer a failed Discord call: wait out a 429, retry a network
//! failure or a server error, give way to the channel when an interaction's token is gone,
//! send a refused board as text, or drop what Discord refuses for good.

use std::time::Duration;

use super::rest::{codes, RestError};

/// What to do after a failed call.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Next {
    Wait(Duration),
    Backoff,
    Server,
    TokenGone,
    Picture,
    Drop,
}

pub(super) fn classify(e: &RestError, uses_token: bool, has_files: bool) -> Next {
    if e.status == 429 {
        return Next::Wait(e.retry_after.unwrap_or(Duration::from_secs(1)));
    }
    if e.status == 0 {
        return Next::Backoff;
    }
    if e.status >= 500 {
        return Next::Server;
    }
    let token_gone = matches!(
        e.code,
        Some(codes::UNKNOWN_WEBHOOK | codes::INVALID_WEBHOOK_TOKEN | codes::UNKNOWN_INTERACTION)
    ) || e.status == 401
        || (e.status == 404 && e.code == Some(codes::UNKNOWN_MESSAGE));
    if uses_token && token_gone {
        return Next::TokenGone;
    }
    if e.status == 403 && e.code == Some(codes::MISSING_PERMISSIONS) && has_files {
        return Next::Picture;
    }
    Next::Drop
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(status: u16, code: Option<u64>) -> RestError {
        RestError {
            status,
            code,
            retry_after: (status == 429).then_some(Duration::from_millis(1500)),
            message: String::new(),
        }
    }

    #[test]
    fn failures_are_sorted() {
        assert_eq!(
            classify(&err(429, None), true, true),
            Next::Wait(Duration::from_millis(1500))
        );
        assert_eq!(classify(&err(0, None), false, false), Next::Backoff);
        assert_eq!(classify(&err(502, None), true, true), Next::Server);
        assert_eq!(
            classify(&err(401, Some(codes::INVALID_WEBHOOK_TOKEN)), true, false),
            Next::TokenGone
        );
        assert_eq!(
            classify(&err(404, Some(codes::UNKNOWN_WEBHOOK)), true, true),
            Next::TokenGone
        );
        assert_eq!(
            classify(&err(403, Some(codes::MISSING_PERMISSIONS)), false, true),
            Next::Picture
        );
        assert_eq!(
            classify(&err(403, Some(codes::MISSING_PERMISSIONS)), false, false),
            Next::Drop
        );
        assert_eq!(
            // Unknown Channel.
            classify(&err(404, Some(10003)), false, false),
            Next::Drop
        );
        assert_eq!(
            // Missing Access.
            classify(&err(403, Some(50001)), true, false),
            Next::Drop
        );
    }
}
