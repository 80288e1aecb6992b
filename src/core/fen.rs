//! FEN: parse to a raw [`Setup`] (syntax), then validate into a [`Position`] (rules).

use std::fmt;

use super::position::Position;
use super::tables::{advisor_point, elephant_point};
use super::types::{Color, Piece, Role, Square};

/// The starting position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Longest FEN text we look at; anything longer is rejected before parsing.
pub const MAX_FEN_LEN: usize = 200;

/// A board as written in FEN, not yet checked against the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// What stands on each point (index `rank * 9 + file`).
    pub board: [Option<Piece>; 90],
    /// Side to move.
    pub turn: Color,
    /// Plies since the last capture.
    pub halfmoves: u32,
    /// Full-move number.
    pub fullmoves: u32,
}

/// A FEN text that cannot be read. Ranks are named as in ICCS (9 = Black's back rank, written first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Nothing was given.
    Empty,
    /// Longer than [`MAX_FEN_LEN`] characters.
    TooLong {
        /// Length in characters.
        len: usize,
    },
    /// The board does not have 10 ranks separated by `/`.
    RankCount {
        /// How many were found.
        found: usize,
    },
    /// A rank describes more or fewer than 9 points.
    RankWidth {
        /// ICCS rank number (0..9).
        rank: u8,
        /// How many points it described.
        points: usize,
    },
    /// An unknown character in a rank.
    BadChar {
        /// ICCS rank number.
        rank: u8,
        /// The character (control characters are shown escaped by `Display`).
        ch: char,
    },
    /// The side-to-move field is not `w`, `r` or `b`.
    BadSide {
        /// The field as given (truncated).
        found: String,
    },
    /// A move counter is not a number.
    BadCounter {
        /// The field as given (truncated).
        found: String,
    },
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "the FEN is empty"),
            FenError::TooLong { len } => {
                write!(
                    f,
                    "the FEN is {len} characters long; at most {MAX_FEN_LEN} are read"
                )
            }
            FenError::RankCount { found } => write!(
                f,
                "the board part must have 10 ranks separated by '/', found {found}"
            ),
            FenError::RankWidth { rank, points } => {
                write!(f, "rank {rank} describes {points} points instead of 9")
            }
            FenError::BadChar { rank, ch } => {
                write!(f, "rank {rank} has the character {ch:?}, which is not a piece letter (KABNRCP, EH) or a digit 1-9")
            }
            FenError::BadSide { found } => {
                write!(f, "the side to move must be 'w', 'r' or 'b', not {found:?}")
            }
            FenError::BadCounter { found } => {
                write!(f, "the move counter {found:?} is not a number")
            }
        }
    }
}

impl std::error::Error for FenError {}

/// A well-formed FEN whose position breaks the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A side has no general.
    MissingGeneral {
        /// Which side.
        color: Color,
    },
    /// More pieces of a kind than a side starts with.
    TooMany {
        /// Which side.
        color: Color,
        /// Which kind.
        role: Role,
        /// How many were found.
        count: usize,
    },
    /// A general outside its palace.
    GeneralOutsidePalace {
        /// Which side.
        color: Color,
        /// Where it stands.
        at: Square,
    },
    /// A piece on a point it can never reach (advisors off the palace diagonals, elephants off
    /// their seven points, soldiers behind their starting rank or off their file before the river).
    Unreachable {
        /// The piece.
        piece: Piece,
        /// Where it stands.
        at: Square,
    },
    /// The two generals face each other on an open file.
    GeneralsFacing,
    /// The side that has just moved left its general attacked.
    SideNotToMoveInCheck {
        /// The side whose general is attacked.
        color: Color,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::MissingGeneral { color } => {
                write!(f, "{} has no general", color.name())
            }
            PositionError::TooMany { color, role, count } => write!(
                f,
                "{} has {count} {}s; at most {} are allowed",
                color.name(),
                role.name(),
                role.max_count()
            ),
            PositionError::GeneralOutsidePalace { color, at } => write!(
                f,
                "the {} general on {at} is outside its palace",
                color.name()
            ),
            PositionError::Unreachable { piece, at } => write!(
                f,
                "the {} {} on {at} stands on a point it can never reach",
                piece.color.name(),
                piece.role.name()
            ),
            PositionError::GeneralsFacing => {
                write!(f, "the two generals face each other on an open file")
            }
            PositionError::SideNotToMoveInCheck { color } => write!(
                f,
                "{} is in check but it is not {}'s turn: the position cannot arise",
                color.name(),
                color.name()
            ),
        }
    }
}

impl std::error::Error for PositionError {}

/// Either kind of FEN problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenOrPositionError {
    /// The text cannot be read.
    Fen(FenError),
    /// The position breaks the rules.
    Position(PositionError),
}

impl fmt::Display for FenOrPositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenOrPositionError::Fen(e) => e.fmt(f),
            FenOrPositionError::Position(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for FenOrPositionError {}

fn bounded(s: &str) -> String {
    s.chars().take(16).collect()
}

impl Setup {
    /// Read the FEN text (syntax only).
    ///
    /// # Errors
    /// [`FenError`] naming the rank and character at fault.
    pub fn parse(fen: &str) -> Result<Setup, FenError> {
        let len = fen.chars().count();
        if len > MAX_FEN_LEN {
            return Err(FenError::TooLong { len });
        }
        let mut fields = fen.split_whitespace();
        let board_part = fields.next().ok_or(FenError::Empty)?;
        let ranks: Vec<&str> = board_part.split('/').collect();
        if ranks.len() != 10 {
            return Err(FenError::RankCount { found: ranks.len() });
        }
        let mut board = [None; 90];
        for (row, text) in ranks.iter().enumerate() {
            let rank = 9 - row as u8;
            let mut file = 0usize;
            for ch in text.chars() {
                if let Some(d) = ch.to_digit(10).filter(|d| (1..=9).contains(d)) {
                    file += d as usize;
                } else if let Some(p) = Piece::from_fen_char(ch).filter(|_| ch.is_ascii()) {
                    if file < 9 {
                        board[rank as usize * 9 + file] = Some(p);
                    }
                    file += 1;
                } else {
                    return Err(FenError::BadChar { rank, ch });
                }
                if file > 9 {
                    return Err(FenError::RankWidth { rank, points: file });
                }
            }
            if file != 9 {
                return Err(FenError::RankWidth { rank, points: file });
            }
        }
        let turn = match fields.next() {
            None | Some("w" | "W" | "r" | "R") => Color::Red,
            Some("b" | "B") => Color::Black,
            Some(other) => {
                return Err(FenError::BadSide {
                    found: bounded(other),
                })
            }
        };
        // Castling and en-passant fields are always "-" in xiangqi; accept and ignore them.
        let rest: Vec<&str> = fields.collect();
        let counters: Vec<&str> = rest.into_iter().filter(|f| *f != "-").collect();
        let number = |s: &str| {
            s.parse::<u32>()
                .map_err(|_| FenError::BadCounter { found: bounded(s) })
        };
        let halfmoves = counters.first().map_or(Ok(0), |s| number(s))?;
        let fullmoves = counters.get(1).map_or(Ok(1), |s| number(s))?.max(1);
        if counters.len() > 2 {
            return Err(FenError::BadCounter {
                found: bounded(counters[2]),
            });
        }
        Ok(Setup {
            board,
            turn,
            halfmoves,
            fullmoves,
        })
    }

    /// Check the setup against the rules and build a position.
    ///
    /// # Errors
    /// [`PositionError`]: wrong counts, unreachable points, facing generals, the side not to move
    /// in check.
    pub fn into_position(self) -> Result<Position, PositionError> {
        let mut counts = [[0usize; 7]; 2];
        for (i, cell) in self.board.iter().enumerate() {
            let Some(p) = *cell else { continue };
            let sq = Square::from_u8(i as u8);
            counts[p.color.index()][p.role.index()] += 1;
            let reachable = match p.role {
                Role::General => {
                    if !sq.in_palace_of(p.color) {
                        return Err(PositionError::GeneralOutsidePalace {
                            color: p.color,
                            at: sq,
                        });
                    }
                    true
                }
                Role::Advisor => advisor_point(i) && sq.in_palace_of(p.color),
                Role::Elephant => elephant_point(i) && p.color.owns_rank(sq.rank()),
                Role::Soldier => soldier_point(p.color, sq),
                _ => true,
            };
            if !reachable {
                return Err(PositionError::Unreachable { piece: p, at: sq });
            }
        }
        for color in Color::ALL {
            for role in Role::ALL {
                let n = counts[color.index()][role.index()];
                if role == Role::General && n == 0 {
                    return Err(PositionError::MissingGeneral { color });
                }
                if n > role.max_count() as usize {
                    return Err(PositionError::TooMany {
                        color,
                        role,
                        count: n,
                    });
                }
            }
        }
        let pos = Position::from_cells(&self.board, self.turn, self.halfmoves, self.fullmoves);
        let (r, b) = (
            pos.general_square(Color::Red),
            pos.general_square(Color::Black),
        );
        if r.file() == b.file()
            && (r.rank() + 1..b.rank())
                .all(|rk| pos.piece_at(Square::from_u8(rk * 9 + r.file())).is_none())
        {
            return Err(PositionError::GeneralsFacing);
        }
        let waiting = self.turn.other();
        if pos.in_check_color(waiting) {
            return Err(PositionError::SideNotToMoveInCheck { color: waiting });
        }
        Ok(pos)
    }
}

/// Whether a soldier of `color` can ever stand on `sq`: never behind its starting rank, and
/// before the river only on the five files it starts on (it cannot step sideways yet).
fn soldier_point(color: Color, sq: Square) -> bool {
    let rel = match color {
        Color::Red => sq.rank(),
        Color::Black => 9 - sq.rank(),
    };
    match rel {
        0..=2 => false,
        3 | 4 => sq.file().is_multiple_of(2),
        _ => true,
    }
}

impl Position {
    /// Read and validate a FEN.
    ///
    /// # Errors
    /// [`FenOrPositionError`] saying precisely what is wrong.
    ///
    /// ```
    /// use xiangqi_bot::core::Position;
    /// assert!(Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w").is_err()); // generals face
    /// assert!(Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 r").is_ok());
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenOrPositionError> {
        Setup::parse(fen)
            .map_err(FenOrPositionError::Fen)?
            .into_position()
            .map_err(FenOrPositionError::Position)
    }

    /// Write the position as FEN (`w`/`b`, with `- -` and both counters).
    #[must_use]
    pub fn to_fen(&self) -> String {
        let s = board_fen(|sq| self.piece_at(sq));
        let side = match self.turn() {
            Color::Red => 'w',
            Color::Black => 'b',
        };
        format!("{s} {side} - - {} {}", self.halfmoves(), self.fullmoves())
    }

    /// The board part of the FEN only (for display and compact keys).
    #[must_use]
    pub fn board_fen(&self) -> String {
        let f = self.to_fen();
        f.split(' ').next().unwrap_or_default().to_string()
    }
}

/// The board field of a FEN (rank 9 down to rank 0, `/` between ranks, runs of empty points as
/// digits) for whatever `piece_at` says stands on each point. It need not be a legal position:
/// tests build arbitrary placements with it and let [`Position::from_fen`] judge them.
#[must_use]
pub fn board_fen(piece_at: impl Fn(Square) -> Option<Piece>) -> String {
    let mut s = String::with_capacity(90);
    for rank in (0..10u8).rev() {
        let mut empty = 0;
        for file in 0..9u8 {
            match piece_at(Square::from_u8(rank * 9 + file)) {
                Some(p) => {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    s.push(p.fen_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(fen: &str) -> String {
        Position::from_fen(fen).unwrap_err().to_string()
    }

    #[test]
    fn start_fen_round_trips() {
        assert_eq!(Position::startpos().to_fen(), START_FEN);
    }

    #[test]
    fn aliases_and_red_side_letter_are_accepted() {
        let p = Position::from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r")
            .unwrap();
        assert_eq!(p.to_fen(), START_FEN);
    }

    #[test]
    fn syntax_errors_name_rank_and_character() {
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1x1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
            "rank 6 has the character 'x', which is not a piece letter (KABNRCP, EH) or a digit 1-9"
        );
        assert!(err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9 w").contains("10 ranks"));
        assert!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/8/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")
                .contains("rank 5 describes 8 points")
        );
        assert!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x")
                .contains("side to move")
        );
        assert!(err("").contains("empty"));
    }

    #[test]
    fn rule_errors_are_precise() {
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/4K4 w"),
            "the two generals face each other on an open file"
        );
        assert!(Position::from_fen("3k5/9/9/9/9/9/9/9/4K4/9 w").is_ok());
        assert!(err("3k5/9/9/9/9/9/9/9/K8/9 w").contains("outside its palace"));
        assert!(err("3k5/9/9/9/9/9/9/9/3A5/4K4 w").contains("advisor on d1"));
        assert!(err("3k5/9/9/9/9/9/9/3B5/9/4K4 w").contains("elephant on d2"));
        assert!(err("3k5/9/9/9/9/9/9/9/P8/4K4 w").contains("soldier on a1"));
        assert!(err("3k5/9/9/9/9/9/1P7/9/9/4K4 w").contains("soldier on b3"));
        assert!(err("3k5/9/9/9/9/9/9/9/4A4/3AKA3 w").contains("3 advisors"));
        assert!(err("9/9/9/9/9/9/9/9/9/4K4 w").contains("black has no general"));
        assert!(err("3k5/9/9/9/9/9/9/9/9/3RK4 w").contains("black is in check"));
    }
}
