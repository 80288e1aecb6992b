//! The draw rules: no progress, effective moves, the length cap, insufficient material.

use crate::core::{Color, Position, Role};

use super::classify::PlyClass;
use super::ruleset::NoProgress;

/// What the arbiter remembers of each ply for the draw rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PlyFacts {
    /// Who played it.
    pub side: Color,
    /// It captured a piece.
    pub capture: bool,
    /// It stepped a crossed soldier forward.
    pub soldier_advance: bool,
}

/// Plies counted toward the no-progress draw at the end of `plies`: the stretch since the last
/// capture (or soldier advance, when that counts), less each side's checks beyond its allowance.
/// `carried` is the half-move counter of the starting FEN, counted when nothing happened since.
pub fn no_progress_count(
    rule: &NoProgress,
    facts: &[PlyFacts],
    classes: &[&PlyClass],
    carried: u32,
) -> u32 {
    let mut plies = 0u32;
    let mut checks = [0u32; 2];
    let mut reached_start = true;
    for (f, class) in facts.iter().zip(classes).rev() {
        if f.capture || (rule.soldier_advance_is_progress && f.soldier_advance) {
            reached_start = false;
            break;
        }
        plies += 1;
        if class.is_check() {
            checks[f.side.index()] += 1;
        }
    }
    if reached_start {
        plies += carried;
    }
    let excess: u32 = match rule.checks_counted_per_side {
        Some(allow) => checks.iter().map(|&c| c.saturating_sub(allow)).sum(),
        None => 0,
    };
    plies.saturating_sub(excess)
}

/// Effective plies per side (CXQ): plies that are neither checks nor chases nor replies to them.
/// A threat to mate is neither, so it counts (the CXQ rules allow threatening mate freely).
pub fn effective_plies(facts: &[PlyFacts], classes: &[&PlyClass]) -> [u32; 2] {
    let mut n = [0u32; 2];
    let mut prev_attack = false;
    for (f, class) in facts.iter().zip(classes) {
        let attack = class.is_attack();
        if !attack && !prev_attack {
            n[f.side.index()] += 1;
        }
        prev_attack = attack;
    }
    n
}

/// Whether neither side has a chariot, horse, cannon or soldier left.
#[must_use]
pub fn insufficient_material(pos: &Position) -> bool {
    !pos.pieces().any(|(_, p, _)| {
        matches!(
            p.role,
            Role::Chariot | Role::Horse | Role::Cannon | Role::Soldier
        )
    })
}
