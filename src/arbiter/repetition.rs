//! Repetition: each side's conduct over the cycle, and verdict tables A and O (RULES.md §5).

use crate::core::{Color, PieceId};

use super::classify::PlyClass;
use super::ruleset::VerdictTable;
use super::ruling::{Conduct, Outcome, Reason};

/// How `side` behaved in `cycle` (the plies since the previous occurrence of the position).
pub fn conduct<'a>(cycle: impl Iterator<Item = (Color, &'a PlyClass)>, side: Color) -> Conduct {
    let mut check = false;
    let mut chase = false;
    let mut kill = false;
    let mut idle = false;
    let mut all_check = true;
    let mut all_chase = true;
    let mut common: Option<Vec<PieceId>> = None;
    for (_, class) in cycle.filter(|(c, _)| *c == side) {
        match class {
            PlyClass::Check { .. } => check = true,
            PlyClass::Chase { .. } => chase = true,
            PlyClass::Kill { .. } => kill = true,
            PlyClass::Idle => idle = true,
        }
        all_check &= class.is_check();
        let ids = class.victim_ids();
        all_chase &= !ids.is_empty();
        common = Some(match common {
            None => ids,
            Some(prev) => prev.into_iter().filter(|v| ids.contains(v)).collect(),
        });
    }
    if all_check && check {
        return Conduct::PerpetualCheck;
    }
    // Every ply attacked one same piece (a check that also attacks it keeps the chase going).
    if all_chase {
        if let Some(&victim) = common.as_ref().and_then(|c| c.first()) {
            return Conduct::PerpetualChase { victim };
        }
    }
    Conduct::Mixed {
        check,
        chase,
        kill,
        idle,
    }
}

/// The verdict of `table` for the two conducts: the outcome and the reason.
#[must_use]
pub fn verdict(table: VerdictTable, red: &Conduct, black: &Conduct) -> (Outcome, Reason) {
    use Conduct::{PerpetualChase as Chaser, PerpetualCheck as Checker};
    match (red, black) {
        (Checker, Checker) => (Outcome::Draw, Reason::Repetition),
        (Checker, _) => (Outcome::BlackWins, Reason::PerpetualCheck),
        (_, Checker) => (Outcome::RedWins, Reason::PerpetualCheck),
        (Chaser { .. }, Chaser { .. }) => (Outcome::Draw, Reason::Repetition),
        (Chaser { .. }, _) => (Outcome::BlackWins, Reason::PerpetualChase),
        (_, Chaser { .. }) => (Outcome::RedWins, Reason::PerpetualChase),
        (r, b) if table == VerdictTable::O && r.mixed_attack() && b.all_idle() => {
            (Outcome::BlackWins, Reason::Repetition)
        }
        (r, b) if table == VerdictTable::O && b.mixed_attack() && r.all_idle() => {
            (Outcome::RedWins, Reason::Repetition)
        }
        _ => (Outcome::Draw, Reason::Repetition),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mixed(check: bool, chase: bool, idle: bool) -> Conduct {
        Conduct::Mixed {
            check,
            chase,
            kill: false,
            idle,
        }
    }

    #[test]
    fn table_a_and_o_agree_on_perpetuals() {
        let chaser = Conduct::PerpetualChase {
            victim: crate::core::Position::startpos()
                .id_at(crate::core::Square::parse("a9").unwrap())
                .unwrap(),
        };
        for t in [VerdictTable::A, VerdictTable::O] {
            let v = |r: &Conduct, b: &Conduct| verdict(t, r, b).0;
            assert_eq!(
                v(&Conduct::PerpetualCheck, &Conduct::PerpetualCheck),
                Outcome::Draw
            );
            assert_eq!(
                v(&Conduct::PerpetualCheck, &mixed(false, false, true)),
                Outcome::BlackWins
            );
            assert_eq!(v(&Conduct::PerpetualCheck, &chaser), Outcome::BlackWins);
            assert_eq!(v(&chaser, &chaser), Outcome::Draw);
            assert_eq!(v(&mixed(true, false, true), &chaser), Outcome::RedWins);
            assert_eq!(
                v(&mixed(false, false, true), &mixed(false, false, true)),
                Outcome::Draw
            );
            assert_eq!(
                v(&mixed(true, true, false), &mixed(true, false, true)),
                Outcome::Draw
            );
        }
    }

    fn with_kill(check: bool, chase: bool, idle: bool) -> Conduct {
        Conduct::Mixed {
            check,
            chase,
            kill: true,
            idle,
        }
    }

    #[test]
    fn threats_to_mate_are_allowed_under_both_tables() {
        let idle = mixed(false, false, true);
        let perpetual_kill = with_kill(false, false, false);
        assert!(perpetual_kill.perpetual_kill());
        for t in [VerdictTable::A, VerdictTable::O] {
            // Perpetual kill, one check one kill, one chase one kill, kill and idle: draws.
            for c in [
                perpetual_kill.clone(),
                with_kill(true, false, false),
                with_kill(false, true, false),
                with_kill(false, false, true),
            ] {
                assert_eq!(verdict(t, &c, &idle).0, Outcome::Draw, "{t:?} {c:?}");
                assert_eq!(verdict(t, &idle, &c).0, Outcome::Draw, "{t:?} {c:?}");
            }
            // A side that only threatens mate is not idle-or-mixed shelter for a chaser: the
            // perpetual chaser still loses (AXF diagram 34: Red chases, Black kills).
            let chaser = Conduct::PerpetualChase {
                victim: crate::core::Position::startpos()
                    .id_at(crate::core::Square::parse("a9").unwrap())
                    .unwrap(),
            };
            assert_eq!(verdict(t, &chaser, &perpetual_kill).0, Outcome::BlackWins);
        }
        // Table O: an idle ply in the cycle still makes check + idle, kills or not.
        assert_eq!(
            verdict(VerdictTable::O, &with_kill(true, false, true), &idle),
            (Outcome::BlackWins, Reason::Repetition)
        );
        // ... but a side that keeps threatening mate is not the passive side table O shields:
        // checks and idle moves against it (often the only defence) are a draw.
        assert_eq!(
            verdict(VerdictTable::O, &mixed(true, false, true), &perpetual_kill).0,
            Outcome::Draw
        );
    }

    #[test]
    fn tables_differ_on_one_check_one_idle() {
        let attack = mixed(true, false, true);
        let idle = mixed(false, false, true);
        assert_eq!(verdict(VerdictTable::A, &attack, &idle).0, Outcome::Draw);
        assert_eq!(
            verdict(VerdictTable::O, &attack, &idle),
            (Outcome::BlackWins, Reason::Repetition)
        );
        assert_eq!(
            verdict(VerdictTable::O, &idle, &mixed(false, true, true)).0,
            Outcome::RedWins
        );
        assert_eq!(
            verdict(VerdictTable::O, &idle, &mixed(true, true, false)).0,
            Outcome::RedWins
        );
    }
}
