//! What a move says in the file-counting notations, before each notation spells it.

use super::resolve::{column, diagonal, own_file, tandem_files};
use super::Action;
use crate::core::{Color, Move, Piece, Position, Role};

/// How the moving piece is singled out.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Who {
    /// By its file: the only one of its kind there (or an advisor or elephant, whose direction
    /// already says which).
    File,
    /// By its place among `count` on the one file that holds several (`index` 0 = front).
    Place { index: usize, count: usize },
    /// Soldiers, when two files hold several: by the file *and* the place.
    FileAndPlace { index: usize, count: usize },
}

/// A move as the file-counting notations describe it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Described {
    pub color: Color,
    pub role: Role,
    /// The from-file, counted from the mover's right.
    pub file: u8,
    pub who: Who,
    pub action: Action,
    /// Ranks moved, or the file landed on.
    pub number: u8,
}

/// Describe `m`; `None` when no piece stands on its from-point.
pub(crate) fn describe(pos: &Position, m: Move) -> Option<Described> {
    let piece: Piece = pos.piece_at(m.from)?;
    let color = piece.color;
    let col = column(pos, piece, m.from.file());
    let index = col.iter().position(|&s| s == m.from).unwrap_or(0);
    let count = col.len();
    let who = if count < 2 || matches!(piece.role, Role::Advisor | Role::Elephant) {
        Who::File
    } else if piece.role == Role::Soldier && tandem_files(pos, piece).len() >= 2 {
        Who::FileAndPlace { index, count }
    } else {
        Who::Place { index, count }
    };
    let ahead = (m.to.rank() as i8 - m.from.rank() as i8) * color.forward();
    let action = match ahead {
        0 => Action::Sideways,
        a if a > 0 => Action::Forward,
        _ => Action::Back,
    };
    let number = if action == Action::Sideways || diagonal(piece.role) {
        own_file(color, m.to.file())
    } else {
        ahead.unsigned_abs()
    };
    Some(Described {
        color,
        role: piece.role,
        file: own_file(color, m.from.file()),
        who,
        action,
        number,
    })
}
