//! Runs of consecutive checks and chases by one side (RULES.md §5, "Counts").

use crate::core::{Color, PieceId};

use super::classify::PlyClass;

/// A side's current run: how many plies in a row, made by which pieces.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Run {
    /// Plies in the run.
    pub count: u32,
    /// Distinct pieces that made it.
    pub pieces: Vec<PieceId>,
    /// For a chase run: the pieces chased by every ply of the run.
    pub victims: Vec<PieceId>,
    /// Index (into the ply list) of the run's first ply.
    pub first: usize,
}

fn add_pieces(into: &mut Vec<PieceId>, ids: impl IntoIterator<Item = PieceId>) {
    for id in ids {
        if !into.contains(&id) {
            into.push(id);
        }
    }
}

/// The run of consecutive checks by `side` ending at its latest ply among `plies`.
pub fn check_run(plies: &[(Color, &PlyClass)], side: Color) -> Run {
    let mut run = Run::default();
    for (i, (c, class)) in plies.iter().enumerate().rev() {
        if *c != side {
            continue;
        }
        let PlyClass::Check { checkers, .. } = class else {
            break;
        };
        run.count += 1;
        run.first = i;
        add_pieces(&mut run.pieces, checkers.iter().copied());
    }
    run
}

/// The run of consecutive chases by `side` of one same victim, ending at its latest ply (a
/// check that also attacks the victim continues the run).
pub fn chase_run(plies: &[(Color, &PlyClass)], side: Color) -> Run {
    let mut run = Run::default();
    for (i, (c, class)) in plies.iter().enumerate().rev() {
        if *c != side {
            continue;
        }
        let ids = class.victim_ids();
        if ids.is_empty() {
            break;
        }
        let common: Vec<PieceId> = if run.count == 0 {
            ids
        } else {
            run.victims
                .iter()
                .copied()
                .filter(|v| ids.contains(v))
                .collect()
        };
        if common.is_empty() {
            break;
        }
        run.victims = common;
        run.count += 1;
        run.first = i;
    }
    // The pieces of the run: those that chased the common victims at some ply of it.
    if run.count > 0 {
        for (c, class) in &plies[run.first..] {
            if *c != side {
                continue;
            }
            for v in class
                .victims()
                .iter()
                .filter(|v| run.victims.contains(&v.id))
            {
                add_pieces(&mut run.pieces, v.attackers.iter().copied());
            }
        }
    }
    run
}
