//! The search and evaluation parameters in one place, so matches can tune them: the defaults
//! are the shipped engine; [`super::Engine::set_param`] changes one by name for experiments.

use super::eval::{Weights, W};

/// Search parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Params {
    pub eval: Weights,
    /// Reverse futility margin per ply of depth.
    pub rfp_margin: i32,
    /// Null-move reduction: base plies, and one more per this many plies of depth.
    pub nmp_base: i32,
    pub nmp_div: i32,
    /// Late-move reductions: `base/100 + ln(depth)·ln(moves)·100/div`.
    pub lmr_base: i32,
    pub lmr_div: i32,
    /// Late-move pruning: quiet moves tried at depth d before the rest are skipped.
    pub lmp_base: i32,
    /// Futility pruning of quiet moves: `eval + base + mul·depth <= alpha`.
    pub fut_base: i32,
    pub fut_mul: i32,
    /// Plies added for a move that gives check.
    pub check_ext: i32,
    /// First aspiration half-window.
    pub asp_delta: i32,
    /// Quiescence delta-pruning margin.
    pub qs_delta: i32,
    /// Whether the quiescence search reads and writes the transposition table.
    pub qs_tt: bool,
    /// The quiescence search stands pat on material and placement alone when they are this
    /// far above beta.
    pub lazy_margin: i32,
    /// The quiescence search does not evaluate a position whose material and placement
    /// alone, plus this margin, stay at or below alpha: it takes that sum as the evaluation's
    /// upper bound (0 turns this off).
    pub lazy_low_margin: i32,
}

pub(crate) const DEFAULT: Params = Params {
    eval: W,
    rfp_margin: 90,
    nmp_base: 3,
    nmp_div: 4,
    lmr_base: 50,
    lmr_div: 225,
    lmp_base: 3,
    fut_base: 100,
    fut_mul: 80,
    check_ext: 1,
    asp_delta: 24,
    qs_delta: 150,
    qs_tt: false,
    lazy_margin: 350,
    lazy_low_margin: 250,
};

impl Default for Params {
    fn default() -> Self {
        DEFAULT
    }
}

/// The largest evaluation weight allowed. The evaluation adds its middlegame and endgame
/// values packed in one integer, exact while each part of the sum stays within ±2¹⁵. The sum
/// is at most 151 weights' worth over both sides' pieces (a chariot's mobility alone counts up
/// to 10 weights), so 200 keeps it within 30,200. The shipped weights are at most 90.
pub(crate) const EVAL_WEIGHT_MAX: i32 = 200;

impl Params {
    /// Set the parameter `name` (search parameters by field name; evaluation weights as
    /// `eval.NAME` for a single weight or `eval.NAME.mg` / `eval.NAME.eg` for a pair, within
    /// ±[`EVAL_WEIGHT_MAX`]). Returns whether the name exists and the value is allowed.
    pub(crate) fn set(&mut self, name: &str, v: i32) -> bool {
        let slot: &mut i32 = match name {
            "rfp_margin" => &mut self.rfp_margin,
            "nmp_base" => &mut self.nmp_base,
            "nmp_div" => &mut self.nmp_div,
            "lmr_base" => &mut self.lmr_base,
            "lmr_div" => &mut self.lmr_div,
            "lmp_base" => &mut self.lmp_base,
            "fut_base" => &mut self.fut_base,
            "fut_mul" => &mut self.fut_mul,
            "check_ext" => &mut self.check_ext,
            "asp_delta" => &mut self.asp_delta,
            "qs_delta" => &mut self.qs_delta,
            "lazy_margin" => &mut self.lazy_margin,
            "lazy_low_margin" => &mut self.lazy_low_margin,
            "qs_tt" => {
                self.qs_tt = v != 0;
                return true;
            }
            _ => match name.strip_prefix("eval.") {
                Some(rest) => match self.eval.slot(rest) {
                    Some(s) if v.abs() <= EVAL_WEIGHT_MAX => s,
                    _ => return false,
                },
                None => return false,
            },
        };
        *slot = v;
        if self.nmp_div < 1 {
            self.nmp_div = 1;
        }
        if self.lmr_div < 1 {
            self.lmr_div = 1;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_set_by_name() {
        let mut p = Params::default();
        assert!(p.set("lmr_div", 300));
        assert_eq!(p.lmr_div, 300);
        assert!(p.set("eval.tempo", 5));
        assert_eq!(p.eval.tempo, 5);
        assert!(p.set("eval.chariot_mob.eg", 9));
        assert_eq!(p.eval.chariot_mob.1, 9);
        assert!(!p.set("nonsense", 1));
        assert!(!p.set("eval.nonsense.mg", 1));
        // Evaluation weights stay where the packed sums are exact.
        assert!(p.set("eval.empty_cannon.mg", EVAL_WEIGHT_MAX));
        assert!(!p.set("eval.empty_cannon.mg", EVAL_WEIGHT_MAX + 1));
        assert!(!p.set("eval.chariot_mob.eg", -5000));
        assert_eq!(p.eval.chariot_mob.1, 9);
    }
}
