//! Material as puzzles count it: plain piece values, the general left out.

use crate::core::{Color, Move, Position, Role};

use super::Theme;

/// A piece's value in centipawns.
#[must_use]
pub const fn value(role: Role) -> i32 {
    match role {
        Role::General => 0,
        Role::Chariot => 900,
        Role::Cannon => 450,
        Role::Horse => 400,
        Role::Advisor | Role::Elephant => 200,
        Role::Soldier => 100,
    }
}

/// `color`'s material minus its opponent's.
#[must_use]
pub fn balance(pos: &Position, color: Color) -> i32 {
    pos.pieces()
        .map(|(_, p, _)| {
            if p.color == color {
                value(p.role)
            } else {
                -value(p.role)
            }
        })
        .sum()
}

/// The theme of a line that wins material: the most valuable piece the solver takes in the
/// first `plies` of `line` from `start` (a piece taken back counts as not won).
#[must_use]
pub fn theme_of(start: &Position, line: &[Move]) -> Theme {
    let solver = start.turn();
    let mut taken: Vec<Role> = Vec::new();
    let mut lost: Vec<Role> = Vec::new();
    let mut pos = start.clone();
    for &m in line {
        if let Some(p) = pos.piece_at(m.to) {
            if p.color == solver {
                lost.push(p.role);
            } else {
                taken.push(p.role);
            }
        }
        if !pos.is_legal(m) {
            break;
        }
        pos.play_unchecked(m);
    }
    for role in &lost {
        if let Some(i) = taken.iter().position(|r| r == role) {
            taken.remove(i);
        }
    }
    let best = taken.iter().max_by_key(|r| value(**r));
    match best {
        Some(Role::Chariot) => Theme::WinChariot,
        Some(Role::Cannon) => Theme::WinCannon,
        Some(Role::Horse) => Theme::WinHorse,
        _ => Theme::WinMaterial,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_is_balanced_and_a_capture_is_counted() {
        let pos = Position::startpos();
        assert_eq!(balance(&pos, Color::Red), 0);
        // The cannon takes the horse behind the screen: a horse won, the cannon lost back.
        let line: Vec<Move> = ["b2b9", "a9b9"]
            .iter()
            .filter_map(|s| Move::parse_iccs(s))
            .collect();
        let mut after = pos.clone();
        after.play_unchecked(line[0]);
        assert_eq!(balance(&after, Color::Red), 400);
        assert_eq!(theme_of(&pos, &line[..1]), Theme::WinHorse);
        after.play_unchecked(line[1]);
        assert_eq!(balance(&after, Color::Red), -50);
    }
}
