//! The sequential probability ratio test that decides a match by games: a generalised SPRT on
//! pentanomial pairs, the way Fishtest and fastchess compute it.
//!
//! A pair (one opening, colours swapped) scores 0, ½, 1, 1½ or 2 points for player A; divided by
//! two that is a value `a_i` in {0, ¼, ½, ¾, 1}. From the pair counts `n_i` (a zero count is
//! replaced by 0.001, so that no outcome has probability zero) comes the empirical distribution
//! `p_i = n_i / N`. Each hypothesis fixes one number of the true distribution:
//!
//! * **logistic** Elo `e`: the expected score, `s = 1 / (1 + 10^(−e/400))`;
//! * **normalised** Elo `e`: the t-value `(μ − ½) / σ = e · √2 · ln 10 / 800` (σ the standard
//!   deviation of the per-pair score; √2 because a pair is two games). Normalised Elo measures
//!   how quickly games tell two engines apart, not a score, so its bounds do not depend on the
//!   draw rate.
//!
//! For each hypothesis the test takes the distribution `q` that fits the data best under that
//! constraint (the maximum-likelihood estimate, see below), and the log-likelihood ratio is
//! `LLR = N · Σ p_i · ln(q1_i / q0_i)`. The test stops when the LLR leaves
//! `(ln(β/(1−α)), ln((1−β)/α))`; with α = β = 0.05 that is (−2.944, 2.944). Above: H1 (A is at
//! least `elo1` stronger); below: H0 (A is at most `elo0` stronger).
//!
//! The constrained maximum likelihood (after M. Van den Bergh, "Comments on Normalized Elo"):
//! maximise `Σ p_i ln q_i` over distributions `q` with the constraint `g(q) = 0`. A Lagrange
//! multiplier gives `q_i = p_i / (1 + θ h_i)` where `h_i` is the constraint's gradient, shifted so
//! that `Σ q_i h_i = 0`:
//!
//! * mean constraint `μ = s`: `h_i = a_i − s`, fixed, so one root-finding for θ solves it;
//! * t-value constraint `μ − ½ − t σ = 0`: `h_i = a_i − ½ − t σ (1 + ((a_i − μ)/σ)²) / 2`,
//!   which depends on `q` through μ and σ: iterate from the uniform distribution, solving for θ
//!   each time, until `q` stops changing.
//!
//! θ is the root of `Σ p_i h_i / (1 + θ h_i)`, a decreasing function on the interval where every
//! `1 + θ h_i` is positive, `(−1/max h, −1/min h)`; it is found by bisection.

use std::fmt;

/// How the bounds `elo0`, `elo1` are expressed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EloModel {
    /// Logistic Elo: a score (the Elo of [`super::stats::elo_from_score`]).
    Logistic,
    /// Normalised Elo: a t-value per game pair (Fishtest's default, and fastchess's).
    Normalized,
}

impl std::str::FromStr for EloModel {
    type Err = String;
    fn from_str(s: &str) -> Result<EloModel, String> {
        match s {
            "logistic" => Ok(EloModel::Logistic),
            "normalized" | "normalised" => Ok(EloModel::Normalized),
            _ => Err(format!("{s:?}: expected logistic or normalized")),
        }
    }
}

impl fmt::Display for EloModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EloModel::Logistic => "logistic",
            EloModel::Normalized => "normalized",
        })
    }
}

/// Which hypothesis the test accepted.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A is at most `elo0` stronger (the LLR fell to the lower bound).
    H0,
    /// A is at least `elo1` stronger (the LLR rose to the upper bound).
    H1,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::H0 => "H0",
            Verdict::H1 => "H1",
        })
    }
}

/// A test of `elo0` against `elo1`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo of H0.
    pub elo0: f64,
    /// The Elo of H1.
    pub elo1: f64,
    /// How the two are expressed.
    pub model: EloModel,
    /// The false-positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// The false-negative rate.
    pub beta: f64,
}

/// The score a pair's points stand for, pair points / 2.
const VALUES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// What a zero count is replaced with.
const ZERO_COUNT: f64 = 1e-3;

impl Sprt {
    /// A test with α = β = 0.05.
    ///
    /// # Errors
    /// `elo0` not below `elo1`, or a bound that is not a finite number.
    pub fn new(elo0: f64, elo1: f64, model: EloModel) -> Result<Sprt, String> {
        if !elo0.is_finite() || !elo1.is_finite() {
            return Err("the SPRT bounds must be numbers".to_string());
        }
        if elo0 >= elo1 {
            return Err(format!("elo0 ({elo0}) must be below elo1 ({elo1})"));
        }
        Ok(Sprt {
            elo0,
            elo1,
            model,
            alpha: 0.05,
            beta: 0.05,
        })
    }

    /// The lower and upper bounds of the LLR: `ln(β/(1−α))` and `ln((1−β)/α)`.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for the pair counts (pairs scoring 0, ½, 1, 1½,
    /// 2 points for A); 0 before the first pair.
    #[must_use]
    pub fn llr(&self, pairs: &[u32; 5]) -> f64 {
        if pairs.iter().all(|&n| n == 0) {
            return 0.0;
        }
        let counts = pairs.map(|n| if n == 0 { ZERO_COUNT } else { f64::from(n) });
        let total: f64 = counts.iter().sum();
        let p = counts.map(|n| n / total);
        let (q0, q1) = match self.model {
            EloModel::Logistic => (
                mle_with_mean(&p, score_of_elo(self.elo0)),
                mle_with_mean(&p, score_of_elo(self.elo1)),
            ),
            EloModel::Normalized => {
                let per_pair = std::f64::consts::SQRT_2 * std::f64::consts::LN_10 / 800.0;
                (
                    mle_with_t(&p, 0.5, self.elo0 * per_pair),
                    mle_with_t(&p, 0.5, self.elo1 * per_pair),
                )
            }
        };
        total * (0..5).map(|i| p[i] * (q1[i] / q0[i]).ln()).sum::<f64>()
    }

    /// The verdict once the LLR has crossed a bound, or `None` while the test goes on.
    #[must_use]
    pub fn verdict(&self, llr: f64) -> Option<Verdict> {
        let (low, high) = self.bounds();
        if llr >= high {
            Some(Verdict::H1)
        } else if llr <= low {
            Some(Verdict::H0)
        } else {
            None
        }
    }

    /// `LLR 1.23 (-2.94, 2.94) [0.00, 5.00] normalized`: the state of the test after `pairs`.
    #[must_use]
    pub fn status(&self, pairs: &[u32; 5]) -> String {
        let (low, high) = self.bounds();
        format!(
            "LLR {:.2} ({low:.2}, {high:.2}) [{:.2}, {:.2}] {}",
            self.llr(pairs) + 0.0,
            self.elo0,
            self.elo1,
            self.model
        )
    }
}

/// The expected score at a logistic Elo difference.
#[must_use]
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// θ with `Σ p_i h_i / (1 + θ h_i) = 0`, on the interval where every `1 + θ h_i > 0`; `None` when
/// the `h_i` do not change sign (no distribution meets the constraint).
fn solve_theta(p: &[f64; 5], h: &[f64; 5]) -> Option<f64> {
    let (lo_h, hi_h) = h
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    if lo_h >= 0.0 || hi_h <= 0.0 {
        return None;
    }
    let f = |theta: f64| -> f64 { (0..5).map(|i| p[i] * h[i] / (1.0 + theta * h[i])).sum() };
    // f falls from +inf at -1/max h to -inf at -1/min h.
    let (mut lo, mut hi) = (-1.0 / hi_h, -1.0 / lo_h);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

fn reweight(p: &[f64; 5], h: &[f64; 5], theta: f64) -> [f64; 5] {
    std::array::from_fn(|i| p[i] / (1.0 + theta * h[i]))
}

/// The distribution closest to `p` (maximum likelihood) whose mean is `s`.
fn mle_with_mean(p: &[f64; 5], s: f64) -> [f64; 5] {
    let h = VALUES.map(|a| a - s);
    solve_theta(p, &h).map_or(*p, |theta| reweight(p, &h, theta))
}

fn mean_and_sd(q: &[f64; 5]) -> (f64, f64) {
    let mu: f64 = (0..5).map(|i| q[i] * VALUES[i]).sum();
    let var: f64 = (0..5).map(|i| q[i] * (VALUES[i] - mu).powi(2)).sum();
    (mu, var.sqrt())
}

/// The distribution closest to `p` (maximum likelihood) whose t-value `(μ − reference) / σ` is
/// `t`.
fn mle_with_t(p: &[f64; 5], reference: f64, t: f64) -> [f64; 5] {
    let mut q = [0.2; 5];
    for _ in 0..1000 {
        let (mu, sd) = mean_and_sd(&q);
        if sd <= 0.0 {
            break;
        }
        let h = VALUES.map(|a| a - reference - 0.5 * t * sd * (1.0 + ((a - mu) / sd).powi(2)));
        let Some(theta) = solve_theta(p, &h) else {
            break;
        };
        let next = reweight(p, &h, theta);
        let change = (0..5).map(|i| (next[i] - q[i]).abs()).fold(0.0, f64::max);
        q = next;
        if change < 1e-12 {
            break;
        }
    }
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    // Published LLRs: each is what Fishtest or fastchess printed for a real test, with its pair
    // counts (Ptnml(0-2), pairs scoring 0, ½, 1, 1½, 2), its bounds and its model. They are
    // printed to two decimals, so they are matched to ±0.005.
    //
    // The exact values were computed independently in Python, with code written for this test
    // (scripts/sprt_reference.py: bisection on θ, fixed-point iteration for the t-value, zero
    // counts as 0.001), run on 2026-12-03; its output, which agrees with every published number:
    //
    //   [292, 5905, 28939, 6129, 299] -0.25 1.25 logistic   2.950390783913725
    //   [5, 418, 6043, 506, 12]        0.25 1.25 logistic   2.923125195297513
    //   [307, 619, 1202, 725, 353]     0    5    normalized 2.949078
    //   [40, 67, 295, 123, 54]         0    10   normalized 2.946715
    //   [120, 246, 645, 386, 302]      40   45   normalized 2.945161
    //   [29, 80, 142, 101, 60]         -5   5    normalized 2.968604
    //   [0, 0, 1, 8, 1]                0    50   normalized 1.239393
    //   [0, 0, 2, 0, 37]               0    20   normalized 2.962016
    //   (and the same counts under the other model, for the cross-check below:)
    //   [307, 619, 1202, 725, 353]     0    5    logistic   3.516026
    //   [120, 246, 645, 386, 302]      40   45   logistic   1.990250
    //   ln(0.05/0.95) = -2.9444389791664403
    const CASES: [([u32; 5], f64, f64, EloModel, f64, f64); 8] = [
        // Stockfish commit "LMR for all captures at allNodes not in PV" (closes #3273), Fishtest
        // STC 5fe50b9d3932f79192d3973c: "LLR: 2.95 (-2.94,2.94) {-0.25,1.25}".
        (
            [292, 5905, 28939, 6129, 299],
            -0.25,
            1.25,
            EloModel::Logistic,
            2.95,
            2.950_390_783_913_725,
        ),
        // The same commit, LTC 5fe552e43932f79192d39744: "LLR: 2.92 (-2.94,2.94) {0.25,1.25}".
        (
            [5, 418, 6043, 506, 12],
            0.25,
            1.25,
            EloModel::Logistic,
            2.92,
            2.923_125_195_297_513,
        ),
        // fastchess reports (model=normalized, its default) published in engines' READMEs:
        // "LLR: 2.95 (100.2%) (-2.94, 2.94) [0.00, 5.00]".
        (
            [307, 619, 1202, 725, 353],
            0.0,
            5.0,
            EloModel::Normalized,
            2.95,
            2.949_078,
        ),
        // "Results of pz-aspiration vs pz-tt-move ... LLR: 2.95 (100.1%) (-2.94, 2.94) [0.00, 10.00]".
        (
            [40, 67, 295, 123, 54],
            0.0,
            10.0,
            EloModel::Normalized,
            2.95,
            2.946_715,
        ),
        // "Results of Zeno current vs Zeno develop ... LLR: 2.95 (100.0%) (-2.94, 2.94) [40.00, 45.00]".
        (
            [120, 246, 645, 386, 302],
            40.0,
            45.0,
            EloModel::Normalized,
            2.95,
            2.945_161,
        ),
        // "LLR: 2.97 (100.8%) (-2.94, 2.94) [-5.00, 5.00]".
        (
            [29, 80, 142, 101, 60],
            -5.0,
            5.0,
            EloModel::Normalized,
            2.97,
            2.968_604,
        ),
        // Zero counts: "C1-Original vs C5-Rebuild ... LLR: 1.24 (42.1%) (-2.94, 2.94) [0.00, 50.00]".
        (
            [0, 0, 1, 8, 1],
            0.0,
            50.0,
            EloModel::Normalized,
            1.24,
            1.239_393,
        ),
        // "Results of current vs previous ... LLR: 2.96 (100.6%) (-2.94, 2.94) [0.00, 20.00]".
        (
            [0, 0, 2, 0, 37],
            0.0,
            20.0,
            EloModel::Normalized,
            2.96,
            2.962_016,
        ),
    ];

    #[test]
    fn llr_matches_published_fishtest_and_fastchess_values() {
        for (pairs, elo0, elo1, model, published, exact) in CASES {
            let sprt = Sprt::new(elo0, elo1, model).expect("bounds");
            let llr = sprt.llr(&pairs);
            assert!(
                (llr - published).abs() <= 0.005 + 1e-9,
                "{pairs:?} {model}: {llr} vs published {published}"
            );
            assert!(
                (llr - exact).abs() < 1e-5,
                "{pairs:?} {model}: {llr} vs {exact}"
            );
        }
        // The models differ: the same counts under logistic bounds give other LLRs.
        let logistic = |e0, e1| Sprt::new(e0, e1, EloModel::Logistic).expect("bounds");
        let l = logistic(0.0, 5.0).llr(&[307, 619, 1202, 725, 353]);
        assert!((l - 3.516_026).abs() < 1e-5, "{l}");
        let l = logistic(40.0, 45.0).llr(&[120, 246, 645, 386, 302]);
        assert!((l - 1.990_250).abs() < 1e-5, "{l}");
    }

    #[test]
    fn bounds_verdicts_and_symmetry() {
        let sprt = Sprt::new(0.0, 5.0, EloModel::Normalized).expect("bounds");
        let (low, high) = sprt.bounds();
        assert!((low + 2.944_438_979_166_440_3).abs() < 1e-12, "{low}");
        assert!((high - 2.944_438_979_166_440_3).abs() < 1e-12, "{high}");
        assert_eq!(sprt.verdict(2.95), Some(Verdict::H1));
        assert_eq!(sprt.verdict(-2.95), Some(Verdict::H0));
        assert_eq!(sprt.verdict(0.3), None);
        assert_eq!(sprt.llr(&[0; 5]), 0.0);
        // Mirrored counts under mirrored bounds give the opposite LLR.
        for model in [EloModel::Logistic, EloModel::Normalized] {
            let up = Sprt::new(-3.0, 7.0, model).expect("bounds");
            let down = Sprt::new(-7.0, 3.0, model).expect("bounds");
            let a = up.llr(&[10, 30, 50, 40, 12]);
            let b = down.llr(&[12, 40, 50, 30, 10]);
            assert!((a + b).abs() < 1e-7, "{model}: {a} {b}");
            // More wins for A only raise the LLR.
            assert!(up.llr(&[10, 30, 50, 40, 30]) > a, "{model}");
        }
        // One-sided and degenerate counts give finite LLRs on the side they point to. (Under
        // logistic bounds 200 won pairs give only 2.858, as scripts/sprt_reference.py computes
        // too: the 0.001 put in for each empty count weighs heavily when the rest is one value.)
        for model in [EloModel::Logistic, EloModel::Normalized] {
            let t = Sprt::new(0.0, 5.0, model).expect("bounds");
            let all_won = t.llr(&[0, 0, 0, 0, 200]);
            let all_lost = t.llr(&[200, 0, 0, 0, 0]);
            let all_drawn = t.llr(&[0, 0, 200, 0, 0]);
            assert!(all_won.is_finite() && all_won > 2.8, "{model}: {all_won}");
            assert!(
                all_lost.is_finite() && all_lost < -2.8,
                "{model}: {all_lost}"
            );
            assert!(
                all_drawn.is_finite() && all_drawn < 0.0,
                "{model}: {all_drawn}"
            );
            let wide = Sprt::new(-400.0, 400.0, model).expect("bounds");
            assert!(wide.llr(&[3, 1, 4, 1, 5]).is_finite(), "{model}");
        }
        assert!(Sprt::new(5.0, 0.0, EloModel::Logistic).is_err());
        assert!(Sprt::new(f64::NAN, 0.0, EloModel::Logistic).is_err());
        assert_eq!("normalised".parse::<EloModel>(), Ok(EloModel::Normalized));
        assert!("bayes".parse::<EloModel>().is_err());
        assert_eq!(
            sprt.status(&[307, 619, 1202, 725, 353]),
            "LLR 2.95 (-2.94, 2.94) [0.00, 5.00] normalized"
        );
    }
}
