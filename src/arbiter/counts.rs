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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arbiter::Victim;
    use crate::core::{Move, Position, Square};

    fn chase_of(id: PieceId) -> PlyClass {
        PlyClass::Chase {
            victims: vec![Victim {
                id,
                at: Square::parse("e5").unwrap(),
                attackers: vec![id],
                protected: false,
            }],
        }
    }

    /// `official` counts chases of one victim; a kill (which chases nothing) is no link in that
    /// run, nor in a run of checks.
    #[test]
    fn a_kill_is_not_counted_as_a_chase() {
        let pos = Position::startpos();
        let victim = pos.id_at(Square::parse("b9").unwrap()).unwrap();
        let kill = PlyClass::Kill {
            mate: Move::parse_iccs("h2h9").unwrap(),
        };
        let idle = PlyClass::Idle;
        let chase = chase_of(victim);
        let r = Color::Red;
        let b = Color::Black;
        // chase, chase, kill, chase: the run is one chase long.
        let plies = [
            (r, &chase),
            (b, &idle),
            (r, &chase),
            (b, &idle),
            (r, &kill),
            (b, &idle),
            (r, &chase),
        ];
        let run = chase_run(&plies, r);
        assert_eq!((run.count, run.first), (1, 6));
        // Kills alone make no run at all.
        let kills = [(r, &kill), (b, &idle), (r, &kill), (b, &idle), (r, &kill)];
        assert_eq!(chase_run(&kills, r).count, 0);
        assert_eq!(check_run(&kills, r).count, 0);
    }
}
