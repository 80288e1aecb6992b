//! Resolving a parsed move against a position: which piece, where it lands, whether that is legal.
//!
//! Shared by every file-counting notation, and by the writer (files and front-to-rear order).

use super::error::{MoveTextError, TargetProblem};
use super::{Action, RawMove};
use crate::core::{Color, Move, Piece, Position, Role, Square};

/// The file number (1–9, from `color`'s own right) of ICCS file index `file` (0 = `a`).
pub(crate) fn own_file(color: Color, file: u8) -> u8 {
    match color {
        Color::Red => 9 - file,
        Color::Black => file + 1,
    }
}

/// The ICCS file index (0 = `a`) of `color`'s file number `own` (1–9).
pub(crate) fn iccs_file(color: Color, own: u8) -> u8 {
    match color {
        Color::Red => 9 - own,
        Color::Black => own - 1,
    }
}

/// Where the pieces `piece` on ICCS file `file` stand, front (nearest the opponent) first.
pub(crate) fn column(pos: &Position, piece: Piece, file: u8) -> Vec<Square> {
    let mut squares: Vec<Square> = (0..10)
        .filter_map(|rank| Square::new(file, rank))
        .filter(|&sq| pos.piece_at(sq) == Some(piece))
        .collect();
    if piece.color == Color::Red {
        squares.reverse();
    }
    squares
}

/// The ICCS files holding two or more `piece`, in the mover's own file order (1 to 9).
pub(crate) fn tandem_files(pos: &Position, piece: Piece) -> Vec<u8> {
    let mut files: Vec<u8> = (0..9u8)
        .filter(|&f| column(pos, piece, f).len() >= 2)
        .collect();
    files.sort_by_key(|&f| own_file(piece.color, f));
    files
}

/// Whether a role moves diagonally (and so names the file it lands on).
pub(crate) fn diagonal(role: Role) -> bool {
    matches!(role, Role::Advisor | Role::Elephant | Role::Horse)
}

/// Turn a parsed move into a legal move of the side to move.
pub(crate) fn resolve(pos: &Position, raw: &RawMove) -> Result<Move, MoveTextError> {
    let piece = Piece::new(pos.turn(), raw.role);
    let candidates = candidates(pos, piece, raw)?;
    let mut legal = Vec::new();
    let mut first_error = None;
    for &from in &candidates {
        let attempt = target(piece, from, raw.action, raw.number).and_then(|to| {
            let m = Move::new(from, to);
            pos.explain_illegal(m).map_err(MoveTextError::Illegal)?;
            Ok(m)
        });
        match attempt {
            Ok(m) => legal.push(m),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    match legal.as_slice() {
        [m] => Ok(*m),
        [] => Err(first_error.unwrap_or(MoveTextError::NoSuchPiece {
            piece,
            file: raw.file,
        })),
        _ => Err(MoveTextError::AmbiguousPiece {
            piece,
            file: raw.file,
            moves: legal,
        }),
    }
}

/// The pieces the text may mean, front first.
fn candidates(pos: &Position, piece: Piece, raw: &RawMove) -> Result<Vec<Square>, MoveTextError> {
    let color = piece.color;
    match (raw.file, raw.place) {
        (Some(file), place) => {
            let col = if (1..=9).contains(&file) {
                column(pos, piece, iccs_file(color, file))
            } else {
                Vec::new()
            };
            if col.is_empty() {
                return Err(MoveTextError::NoSuchPiece {
                    piece,
                    file: Some(file),
                });
            }
            let n = col.len();
            match place {
                None if raw.middle_by_file && n >= 3 && n % 2 == 1 => Ok(vec![col[n / 2]]),
                None => Ok(col),
                Some(_) if n < 2 => Err(MoveTextError::NotTandem {
                    piece,
                    file: Some(file),
                    count: n,
                }),
                Some(place) => match place.index(n) {
                    Some(i) => Ok(vec![col[i]]),
                    None => Err(MoveTextError::NoSuchPlace {
                        piece,
                        file,
                        place,
                        count: n,
                    }),
                },
            }
        }
        (None, Some(place)) => {
            let files = tandem_files(pos, piece);
            let Some(&first) = files.first() else {
                return Err(MoveTextError::NotTandem {
                    piece,
                    file: None,
                    count: pos.count(color, piece.role),
                });
            };
            let picked: Vec<Square> = files
                .iter()
                .filter_map(|&f| {
                    let col = column(pos, piece, f);
                    place.index(col.len()).map(|i| col[i])
                })
                .collect();
            if picked.is_empty() {
                return Err(MoveTextError::NoSuchPlace {
                    piece,
                    file: own_file(color, first),
                    place,
                    count: column(pos, piece, first).len(),
                });
            }
            Ok(picked)
        }
        (None, None) => {
            let mut all: Vec<Square> = Vec::new();
            for f in 0..9u8 {
                all.extend(column(pos, piece, f));
            }
            if all.is_empty() {
                return Err(MoveTextError::NoSuchPiece { piece, file: None });
            }
            Ok(all)
        }
    }
}

/// Where the piece on `from` lands when it moves as the text says.
fn target(piece: Piece, from: Square, action: Action, number: u8) -> Result<Square, MoveTextError> {
    let bad = |problem| MoveTextError::BadTarget {
        piece,
        from,
        problem,
    };
    if !(1..=9).contains(&number) {
        return Err(bad(TargetProblem::OffBoard));
    }
    let color = piece.color;
    let ahead = match action {
        Action::Forward => color.forward(),
        Action::Back => -color.forward(),
        Action::Sideways => 0,
    };
    let to_file = iccs_file(color, number);
    let df = to_file as i8 - from.file() as i8;
    if !diagonal(piece.role) {
        return if ahead == 0 {
            if df == 0 {
                return Err(bad(TargetProblem::SameFile));
            }
            from.offset(df, 0).ok_or(bad(TargetProblem::OffBoard))
        } else {
            from.offset(0, ahead * number as i8)
                .ok_or(bad(TargetProblem::OffBoard))
        };
    }
    if ahead == 0 {
        return Err(bad(TargetProblem::SidewaysDiagonal));
    }
    let distance = df.unsigned_abs();
    let ranks = match (piece.role, distance) {
        (_, 0) => return Err(bad(TargetProblem::SameFile)),
        (Role::Advisor, 1) => 1,
        (Role::Elephant, 2) => 2,
        (Role::Horse, 1) => 2,
        (Role::Horse, 2) => 1,
        _ => return Err(bad(TargetProblem::FileDistance { distance })),
    };
    from.offset(df, ahead * ranks)
        .ok_or(bad(TargetProblem::OffBoard))
}
