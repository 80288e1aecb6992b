//! Per-user rate limiting: a token bucket per user; the first refusal in a burst is answered,
//! the rest of that burst is not (so a spammer cannot make the bot spam the channel).

use std::collections::HashMap;
use std::sync::Mutex;

struct Bucket {
    tokens: f64,
    at_ms: u64,
    told: bool,
}

/// Token buckets keyed by user id.
pub(crate) struct Limiter {
    burst: f64,
    per_ms: f64,
    buckets: Mutex<HashMap<String, Bucket>>,
}

impl Limiter {
    pub(crate) fn new(burst: u32, per_sec: f64) -> Limiter {
        Limiter {
            burst: f64::from(burst.max(1)),
            per_ms: per_sec.max(0.001) / 1000.0,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// `Ok` to go ahead; `Err(Some(seconds))` to refuse and say so; `Err(None)` to refuse
    /// quietly (the user was told already in this burst).
    pub(crate) fn check(&self, user: &str, now_ms: u64) -> Result<(), Option<u64>> {
        let mut map = self
            .buckets
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if map.len() > 100_000 {
            // Forget users whose bucket is full again.
            let (burst, per_ms) = (self.burst, self.per_ms);
            map.retain(|_, b| b.tokens + now_ms.saturating_sub(b.at_ms) as f64 * per_ms < burst);
        }
        let b = map.entry(user.to_string()).or_insert(Bucket {
            tokens: self.burst,
            at_ms: now_ms,
            told: false,
        });
        let elapsed = now_ms.saturating_sub(b.at_ms) as f64;
        b.tokens = (b.tokens + elapsed * self.per_ms).min(self.burst);
        b.at_ms = now_ms;
        if b.tokens >= 1.0 {
            b.tokens -= 1.0;
            b.told = false;
            Ok(())
        } else if b.told {
            Err(None)
        } else {
            b.told = true;
            let wait = ((1.0 - b.tokens) / self.per_ms / 1000.0).ceil().max(1.0);
            Err(Some(wait as u64))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_is_allowed_then_refused_once_then_refilled() {
        let l = Limiter::new(3, 1.0);
        assert!(l.check("u", 0).is_ok());
        assert!(l.check("u", 0).is_ok());
        assert!(l.check("u", 0).is_ok());
        assert_eq!(l.check("u", 0), Err(Some(1)));
        assert_eq!(l.check("u", 10), Err(None));
        assert!(l.check("v", 10).is_ok(), "other users are not affected");
        assert!(l.check("u", 1_500).is_ok());
    }
}
