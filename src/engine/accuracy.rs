//! Lichess's arithmetic of a game review: winning chances from centipawns, the accuracy of a
//! move from the win percentages before and after it, a player's accuracy over a game, and the
//! judgement of a move (inaccuracy, mistake, blunder) from the winning chances it gave away.
//!
//! The formulas and constants are those of lichess (lila, `modules/tree/src/main/WinPercent.scala`,
//! `modules/tree/src/main/Advice.scala`, `modules/analyse/src/main/AccuracyPercent.scala`,
//! `modules/common/src/main/Maths.scala`); docs/internals.md ("Game review") lists them. Only the arithmetic is
//! shared: the code is ours.

/// Centipawn scores are clamped to ±this before they become winning chances; a mate (or a
/// game won) counts as this much (lichess's `Cp.CEILING`).
pub const CP_CEILING: i32 = 1000;

/// Slope of the logistic curve from centipawns to winning chances (lichess, fitted on its
/// games: lila pull request 11148).
const WIN_SLOPE: f64 = 0.003_682_08;

/// Lichess's fitted accuracy curve `A · e^(−k · loss) + B` (loss in win-percentage points):
/// with the bonus below, losing 5, 10, 20, 40 points scores about 81, 65, 41, 16.
const ACC_A: f64 = 103.166_810_071_164_9;
const ACC_K: f64 = 0.043_544_153_867_539_51;
const ACC_B: f64 = -3.166_924_740_191_411;
/// Added to every imperfect move's accuracy ("uncertainty bonus, due to imperfect analysis").
const ACC_BONUS: f64 = 1.0;

/// Winning chances a move may give away before it is an inaccuracy, a mistake, a blunder
/// (on lichess's −1..1 scale of winning chances: 0.1 is 5 win-percentage points).
pub const INACCURACY: f64 = 0.1;
/// See [`INACCURACY`].
pub const MISTAKE: f64 = 0.2;
/// See [`INACCURACY`].
pub const BLUNDER: f64 = 0.3;

/// How bad a move was.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    /// Gave away at least [`INACCURACY`].
    Inaccuracy,
    /// Gave away at least [`MISTAKE`].
    Mistake,
    /// Gave away at least [`BLUNDER`].
    Blunder,
}

impl Judgement {
    /// The PGN numeric annotation glyph: `$6` (?!), `$2` (?), `$4` (??).
    #[must_use]
    pub const fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    /// The glyph itself: `?!`, `?`, `??`.
    #[must_use]
    pub const fn glyph(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    /// `inaccuracy`, `mistake`, `blunder`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }
}

/// Winning chances of the side whose score `cp` is, in −1..=1 (the score clamped to
/// ±[`CP_CEILING`] first).
#[must_use]
pub fn winning_chances(cp: i32) -> f64 {
    let cp = f64::from(cp.clamp(-CP_CEILING, CP_CEILING));
    (2.0 / (1.0 + (-WIN_SLOPE * cp).exp()) - 1.0).clamp(-1.0, 1.0)
}

/// Win percentage (0..=100) of the side whose score `cp` is.
#[must_use]
pub fn win_percent(cp: i32) -> f64 {
    50.0 + 50.0 * winning_chances(cp)
}

/// The accuracy (0..=100) of a move that took its mover from `before` to `after` win percent
/// (both from the mover's side): 100 when nothing was lost.
#[must_use]
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let loss = before - after;
    (ACC_A * (-ACC_K * loss).exp() + ACC_B + ACC_BONUS).clamp(0.0, 100.0)
}

/// The judgement of a move that gave away `loss` winning chances (−1..1 scale), if any.
#[must_use]
pub fn judge_loss(loss: f64) -> Option<Judgement> {
    if loss >= BLUNDER {
        Some(Judgement::Blunder)
    } else if loss >= MISTAKE {
        Some(Judgement::Mistake)
    } else if loss >= INACCURACY {
        Some(Judgement::Inaccuracy)
    } else {
        None
    }
}

/// The judgement of a move that let a mate against its mover in, from a position scored
/// `before_cp` for the mover (lichess: already lost beyond 999 is an inaccuracy, beyond 700 a
/// mistake, else a blunder).
#[must_use]
pub fn judge_mate_created(before_cp: i32) -> Judgement {
    if before_cp < -999 {
        Judgement::Inaccuracy
    } else if before_cp < -700 {
        Judgement::Mistake
    } else {
        Judgement::Blunder
    }
}

/// The judgement of a move that let a forced mate for its mover slip, to a position scored
/// `after_cp` for the mover (0 when the mover is now mated).
#[must_use]
pub fn judge_mate_lost(after_cp: i32) -> Judgement {
    if after_cp > 999 {
        Judgement::Inaccuracy
    } else if after_cp > 700 {
        Judgement::Mistake
    } else {
        Judgement::Blunder
    }
}

fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        0.0
    } else {
        xs.iter().sum::<f64>() / xs.len() as f64
    }
}

/// Population standard deviation.
fn std_dev(xs: &[f64]) -> f64 {
    let m = mean(xs);
    if xs.is_empty() {
        return 0.0;
    }
    (xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / xs.len() as f64).sqrt()
}

/// Lichess's game accuracy of each side (`[red, black]`, `None` for a side that made no move),
/// from the scores of every position of the game, from the first position to the last, each
/// from **Red's** side, clamped to ±[`CP_CEILING`] (mates and won games count as the ceiling);
/// `first_mover_red` says who made the first move.
///
/// Each move's accuracy is weighted by the volatility of the game around it (the standard
/// deviation of the win percentages in a window of `clamp(moves / 10, 2, 8)` positions, kept
/// within 0.5..=12); a side's accuracy is the mean of the weighted mean of its moves'
/// accuracies and their harmonic mean (each accuracy taken as at least 1 there).
#[must_use]
pub fn game_accuracy(red_cps: &[i32], first_mover_red: bool) -> [Option<f64>; 2] {
    let moves = red_cps.len().saturating_sub(1);
    if moves == 0 {
        return [None, None];
    }
    let wins: Vec<f64> = red_cps.iter().map(|&c| win_percent(c)).collect();
    let window = (moves / 10).clamp(2, 8).min(wins.len());
    // One window per move: the first window repeated for the first moves, then sliding.
    let mut weights = Vec::with_capacity(moves);
    for _ in 0..window.saturating_sub(2) {
        weights.push(std_dev(&wins[..window]));
    }
    for w in wins.windows(window) {
        weights.push(std_dev(w));
    }
    let mut sums = [(0.0f64, 0.0f64); 2]; // (Σ accuracy·weight, Σ weight)
    let mut harmonic = [(0.0f64, 0usize); 2]; // (Σ 1/max(1, accuracy), count)
    for (i, pair) in wins.windows(2).enumerate() {
        let red = (i % 2 == 0) == first_mover_red;
        let side = usize::from(!red);
        let (before, after) = if red {
            (pair[0], pair[1])
        } else {
            (100.0 - pair[0], 100.0 - pair[1])
        };
        let acc = move_accuracy(before, after);
        let weight = weights.get(i).copied().unwrap_or(0.5).clamp(0.5, 12.0);
        sums[side].0 += acc * weight;
        sums[side].1 += weight;
        harmonic[side].0 += 1.0 / acc.max(1.0);
        harmonic[side].1 += 1;
    }
    let side = |s: usize| {
        let (hs, n) = harmonic[s];
        if n == 0 || sums[s].1 == 0.0 {
            return None;
        }
        let weighted = sums[s].0 / sums[s].1;
        let harmonic = n as f64 / hs;
        Some((weighted + harmonic) / 2.0)
    };
    [side(0), side(1)]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn winning_chances_follow_the_logistic_curve() {
        assert!(close(winning_chances(0), 0.0, 1e-12));
        assert!(close(win_percent(0), 50.0, 1e-12));
        // 2 / (1 + e^(-0.00368208 · 100)) − 1
        assert!(close(winning_chances(100), 0.182_052, 1e-5));
        assert!(close(winning_chances(-100), -0.182_052, 1e-5));
        // Clamped at the ceiling.
        assert_eq!(winning_chances(5000), winning_chances(CP_CEILING));
        assert!(close(win_percent(CP_CEILING), 97.54, 0.01));
    }

    #[test]
    fn accuracy_matches_the_fitted_points() {
        assert_eq!(move_accuracy(60.0, 70.0), 100.0);
        assert_eq!(move_accuracy(60.0, 60.0), 100.0);
        // A · e^(−k · loss) + B + 1 for a loss of 5, 10, 20, 40 points.
        for (loss, want) in [
            (5.0, 80.815),
            (10.0, 64.580),
            (20.0, 41.017),
            (40.0, 15.909),
        ] {
            let got = move_accuracy(90.0, 90.0 - loss);
            assert!(close(got, want, 1e-3), "{loss}: {got}");
        }
        assert_eq!(move_accuracy(100.0, 0.0), 0.0);
    }

    #[test]
    fn judgements_and_their_glyphs() {
        assert_eq!(judge_loss(0.09), None);
        assert_eq!(judge_loss(0.1), Some(Judgement::Inaccuracy));
        assert_eq!(judge_loss(0.25), Some(Judgement::Mistake));
        assert_eq!(judge_loss(0.3), Some(Judgement::Blunder));
        assert_eq!(
            [
                Judgement::Inaccuracy,
                Judgement::Mistake,
                Judgement::Blunder
            ]
            .map(Judgement::nag),
            [6, 2, 4]
        );
        assert_eq!(judge_mate_created(-1200), Judgement::Inaccuracy);
        assert_eq!(judge_mate_created(-800), Judgement::Mistake);
        assert_eq!(judge_mate_created(50), Judgement::Blunder);
        assert_eq!(judge_mate_lost(1000), Judgement::Inaccuracy);
        assert_eq!(judge_mate_lost(800), Judgement::Mistake);
        assert_eq!(judge_mate_lost(0), Judgement::Blunder);
    }

    #[test]
    fn a_flawless_game_is_fully_accurate_and_a_collapse_is_not() {
        let level = [20; 41];
        let [red, black] = game_accuracy(&level, true);
        assert!(close(red.unwrap_or(0.0), 100.0, 1e-9));
        assert!(close(black.unwrap_or(0.0), 100.0, 1e-9));
        // Red throws the game away on its 10th move; Black plays on well.
        let mut cps = vec![20; 41];
        for c in cps.iter_mut().skip(19) {
            *c = -900;
        }
        let [red, black] = game_accuracy(&cps, true);
        let (red, black) = (red.unwrap_or(100.0), black.unwrap_or(0.0));
        assert!(red < 80.0 && close(black, 100.0, 1e-9), "{red} {black}");
        // Colours follow who moved first: with Black first, ply 19 is Black's and the same
        // swing is Black's gain, while the opposite swing is Black's collapse.
        let [red2, black2] = game_accuracy(&cps, false);
        assert!(close(red2.unwrap_or(0.0), 100.0, 1e-9));
        assert!(close(black2.unwrap_or(0.0), 100.0, 1e-9));
        let flipped: Vec<i32> = cps.iter().map(|c| -c).collect();
        let [red3, black3] = game_accuracy(&flipped, false);
        assert!(close(red3.unwrap_or(0.0), 100.0, 1e-9) && black3.unwrap_or(100.0) < 80.0);
        assert_eq!(game_accuracy(&[15], true), [None, None]);
        assert_eq!(game_accuracy(&[15, 30], true)[1], None);
    }
}
