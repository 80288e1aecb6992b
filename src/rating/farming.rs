//! Anti-farming: repeated rated games between the same two players count less and less.
//!
//! Two friends (or one player with a second account) could otherwise trade wins all evening
//! and push one rating up. The rule: within any 24 hours, the first three rated games between
//! the same two players count fully, the fourth at half weight, the fifth at a quarter, and
//! from the sixth on they are not rated at all (the result still counts in the statistics).
//! Games in every family count towards the same window; a game is counted when it ends, and
//! the window slides: the weight comes back as older games drop out of the last 24 hours.
//!
//! A weight `w` scales the whole Glicko-2 change, for both players: the new rating, deviation
//! and volatility are `old + w × (Glicko-2's new − old)`.

/// How far back repeated games are counted.
pub const WINDOW_MS: u64 = 24 * 3600 * 1000;

/// Most end times kept per pair (more than enough to reach weight 0).
pub const KEEP: usize = 8;

/// The weight of a rated game between two players who already have `earlier` rated games in
/// the window.
#[must_use]
pub fn weight(earlier: usize) -> f64 {
    match earlier {
        0..=2 => 1.0,
        3 => 0.5,
        4 => 0.25,
        _ => 0.0,
    }
}

/// Forget the end times that left the window before `now_ms`, keep the list bounded, and
/// say how many are left.
pub fn prune(recent: &mut Vec<u64>, now_ms: u64) -> usize {
    recent.retain(|&t| t <= now_ms && now_ms - t < WINDOW_MS);
    recent.sort_unstable();
    if recent.len() > KEEP {
        recent.drain(..recent.len() - KEEP);
    }
    recent.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_decay_then_stop() {
        let w: Vec<f64> = (0..7).map(weight).collect();
        assert_eq!(w, [1.0, 1.0, 1.0, 0.5, 0.25, 0.0, 0.0]);
    }

    #[test]
    fn the_window_slides() {
        let hour = 3_600_000;
        let mut recent = vec![0, hour, 2 * hour];
        assert_eq!(prune(&mut recent, 3 * hour), 3);
        assert_eq!(
            prune(&mut recent, 24 * hour),
            2,
            "the first game left the window"
        );
        assert_eq!(prune(&mut recent, 27 * hour), 0);
        let mut many: Vec<u64> = (0..20).collect();
        assert_eq!(prune(&mut many, 100), KEEP);
        assert_eq!(many.first(), Some(&12));
    }
}
