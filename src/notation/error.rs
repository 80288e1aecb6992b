//! Why a move text cannot be played: structured, so each part can be shown in the user's language.

use std::fmt;

use super::{Notation, Place, MAX_MOVE_TEXT};
use crate::core::{IllegalMove, Move, Piece, Square};

/// What the reader wanted at the point where a text stopped making sense.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expected {
    /// A piece letter or name.
    Piece,
    /// A file number 1–9, or a front/rear mark, after the piece.
    File,
    /// The piece and its file (`C2`), or a front/rear mark (`C+`, 前炮, `Pt`).
    Designator,
    /// The direction: forward, back or sideways.
    Action,
    /// The number 1–9 after the direction.
    Number,
    /// Nothing more.
    End,
    /// An ICCS point: a file letter `a`–`i` then a rank digit `0`–`9`.
    Square,
}

/// A text that is not a move in the notation tried.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// The notation tried.
    pub notation: Notation,
    /// The text after normalising (at most [`MAX_MOVE_TEXT`] characters).
    pub text: String,
    /// Index of the offending character (in characters, 0-based); `text`'s length when the text
    /// ends too early.
    pub at: usize,
    /// The offending character, or `None` when the text ends too early.
    pub found: Option<char>,
    /// What would have been right there.
    pub expected: Expected,
}

/// Why the move a text describes cannot be reached by the piece, before any rule is consulted.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TargetProblem {
    /// Advisors, elephants and horses move diagonally: they never move "sideways" in notation.
    SidewaysDiagonal,
    /// The text keeps the piece on its own file (sideways to its own file, or a diagonal mover
    /// landing on the file it stands on).
    SameFile,
    /// A diagonal mover cannot land this many files away (horse 1 or 2, elephant 2, advisor 1).
    FileDistance {
        /// Files between start and destination.
        distance: u8,
    },
    /// The move would leave the board.
    OffBoard,
}

/// A move text that cannot be played, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveTextError {
    /// Nothing was typed.
    Empty,
    /// Longer than [`MAX_MOVE_TEXT`] characters.
    TooLong {
        /// Length in characters (after trimming).
        len: usize,
    },
    /// Not a move in the notation tried.
    Syntax(SyntaxError),
    /// The mover has no such piece on that file (or at all).
    NoSuchPiece {
        /// The piece looked for (the mover's colour).
        piece: Piece,
        /// Its file, counted from the mover's right, when the text gave one.
        file: Option<u8>,
    },
    /// A front/rear/middle mark, but fewer than two such pieces share the file (or any file).
    NotTandem {
        /// The piece.
        piece: Piece,
        /// The file given, if any.
        file: Option<u8>,
        /// How many stand on that file (or, without a file, on the board).
        count: usize,
    },
    /// The mark names no piece among those on the file (中 with two, 五兵 with four).
    NoSuchPlace {
        /// The piece.
        piece: Piece,
        /// The file (counted from the mover's right).
        file: u8,
        /// The mark given.
        place: Place,
        /// How many stand on that file.
        count: usize,
    },
    /// Several pieces fit the text and each could legally make the move.
    AmbiguousPiece {
        /// The piece.
        piece: Piece,
        /// The file given, if any.
        file: Option<u8>,
        /// The legal moves that fit.
        moves: Vec<Move>,
    },
    /// The piece cannot make the movement the text describes.
    BadTarget {
        /// The piece.
        piece: Piece,
        /// Where it stands.
        from: Square,
        /// What is wrong.
        problem: TargetProblem,
    },
    /// The move breaks a rule (the core's reason).
    Illegal(IllegalMove),
    /// Different notations read the text as different legal moves.
    Ambiguous {
        /// Each reading: the notation and the move it gives.
        candidates: Vec<(Notation, Move)>,
    },
}

impl MoveTextError {
    /// Whether this is a syntax error (the text did not parse).
    #[must_use]
    pub fn is_syntax(&self) -> bool {
        matches!(
            self,
            MoveTextError::Syntax(_) | MoveTextError::Empty | MoveTextError::TooLong { .. }
        )
    }

    /// How much the error says about a move the user may have meant (higher is more specific);
    /// [`super::read_move`] reports the most specific error when no notation gives a legal move.
    #[must_use]
    pub fn specificity(&self) -> u8 {
        match self {
            MoveTextError::Empty | MoveTextError::TooLong { .. } | MoveTextError::Syntax(_) => 0,
            MoveTextError::NoSuchPiece { .. } => 1,
            MoveTextError::NotTandem { .. } | MoveTextError::NoSuchPlace { .. } => 2,
            MoveTextError::BadTarget { .. } => 3,
            MoveTextError::Illegal(_) => 4,
            MoveTextError::AmbiguousPiece { .. } | MoveTextError::Ambiguous { .. } => 5,
        }
    }
}

/// `red cannon`.
pub(crate) fn piece_name(p: Piece) -> String {
    format!("{} {}", p.color.name(), p.role.name())
}

/// A list of moves: `h2e2, b2e2`.
pub(crate) fn move_list(moves: &[Move]) -> String {
    moves
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A character for display: printable ones as they are; control, direction-changing and
/// combining characters as `<U+202E>`, so a message can neither reorder nor hide its text.
pub(crate) fn shown_char(c: char) -> String {
    let hidden = c.is_control()
        || matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
        || ('\u{0300}'..='\u{036F}').contains(&c);
    if hidden {
        format!("<U+{:04X}>", c as u32)
    } else {
        c.to_string()
    }
}

/// A user's text for display (see [`shown_char`]).
pub(crate) fn shown_text(s: &str) -> String {
    s.chars().map(shown_char).collect()
}

impl Place {
    /// An English description: `front`, `2nd from the rear`, `+`.
    #[must_use]
    pub fn describe(self) -> String {
        match self {
            Place::Front => "front".into(),
            Place::Middle => "middle".into(),
            Place::Rear => "rear".into(),
            Place::FromFront(k) => format!("{} from the front", ordinal(k)),
            Place::FromRear(k) => format!("{} from the rear", ordinal(k)),
            Place::Plus => "+".into(),
            Place::Minus => "-".into(),
        }
    }
}

fn ordinal(k: u8) -> String {
    let suffix = match k {
        1 => "st",
        2 => "nd",
        3 => "rd",
        _ => "th",
    };
    format!("{k}{suffix}")
}

impl Expected {
    /// What was expected, in English, with the symbols of `notation`.
    #[must_use]
    pub fn describe(self, notation: Notation) -> &'static str {
        match (self, notation) {
            (Expected::Piece, Notation::Wxf) => "a piece letter (K A E R H C P)",
            (Expected::Piece, Notation::Chinese) => "a piece name (车 马 相 仕 帅 炮 兵, or 前/后)",
            (Expected::Piece, _) => "a piece letter (Tg S T X M P B)",
            (Expected::File, Notation::Chinese) => "a file number (一-九 or 1-9) or 前/中/后",
            (Expected::File, Notation::Vietnamese) => "a file number 1-9, or t/s for front/rear",
            (Expected::File, _) => "a file number 1-9, or + / - for front/rear",
            (Expected::Designator, Notation::Chinese) => {
                "a piece and its file (炮二), or 前/中/后 and the piece (前炮)"
            }
            (Expected::Designator, Notation::Vietnamese) => {
                "a piece letter and its file (P2), or the letter and t/s (Pt)"
            }
            (Expected::Designator, _) => "a piece letter and its file (C2), or + / - (C+)",
            (Expected::Action, Notation::Wxf) => "a direction: + forward, - back, . or = sideways",
            (Expected::Action, Notation::Chinese) => {
                "a direction: 进 forward, 退 back, 平 sideways"
            }
            (Expected::Action, _) => "a direction: . forward, / back, - sideways",
            (Expected::Number, Notation::Chinese) => "a number (一-九 or 1-9)",
            (Expected::Number, _) => "a number 1-9",
            (Expected::End, _) => "the end of the move",
            (Expected::Square, _) => "a point: a file letter a-i then a rank 0-9, as in h2e2",
        }
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = shown_text(&self.text);
        let what = self.expected.describe(self.notation);
        match self.found {
            Some(c) => write!(
                f,
                "cannot read \"{text}\" as {}: at character {} (\"{}\") expected {what}",
                self.notation.title(),
                self.at + 1,
                shown_char(c)
            ),
            None => write!(
                f,
                "cannot read \"{text}\" as {}: it ends too early; expected {what}",
                self.notation.title()
            ),
        }
    }
}

impl fmt::Display for TargetProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TargetProblem::SidewaysDiagonal => f.write_str(
                "it moves diagonally, so it never moves sideways: say forward or back and the file it lands on",
            ),
            TargetProblem::SameFile => f.write_str("the move would leave it on its own file"),
            TargetProblem::FileDistance { distance } => write!(
                f,
                "it cannot land {distance} file{} away (a horse lands 1 or 2 files away, an elephant 2, an advisor 1)",
                if *distance == 1 { "" } else { "s" }
            ),
            TargetProblem::OffBoard => f.write_str("the move would take it off the board"),
        }
    }
}

impl fmt::Display for MoveTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveTextError::Empty => {
                f.write_str("no move given: type one such as h2e2, C2.5, 炮二平五 or P2-5")
            }
            MoveTextError::TooLong { len } => write!(
                f,
                "the text is {len} characters long; a move has at most {MAX_MOVE_TEXT}"
            ),
            MoveTextError::Syntax(e) => e.fmt(f),
            MoveTextError::NoSuchPiece {
                piece,
                file: Some(file),
            } => write!(
                f,
                "there is no {} on file {file} (files are counted from each player's own right)",
                piece_name(*piece)
            ),
            MoveTextError::NoSuchPiece { piece, file: None } => {
                write!(f, "there is no {} on the board", piece_name(*piece))
            }
            MoveTextError::NotTandem {
                piece,
                file: Some(file),
                count,
            } => write!(
                f,
                "front/middle/rear marks pick one of several {}s on a file, but file {file} has {count}: give the file instead",
                piece_name(*piece)
            ),
            MoveTextError::NotTandem {
                piece, file: None, ..
            } => write!(
                f,
                "front/middle/rear marks pick one of several {}s on a file, but no file has two: give the file instead",
                piece_name(*piece)
            ),
            MoveTextError::NoSuchPlace {
                piece,
                file,
                place,
                count,
            } => write!(
                f,
                "file {file} has {count} {}s, and \"{}\" names none of them",
                piece_name(*piece),
                place.describe()
            ),
            MoveTextError::AmbiguousPiece { piece, moves, .. } => write!(
                f,
                "more than one {} can make this move ({}): say which with front/rear (or the file)",
                piece_name(*piece),
                move_list(moves)
            ),
            MoveTextError::BadTarget {
                piece,
                from,
                problem,
            } => write!(f, "the {} on {from}: {problem}", piece_name(*piece)),
            MoveTextError::Illegal(e) => e.fmt(f),
            MoveTextError::Ambiguous { candidates } => {
                let list = candidates
                    .iter()
                    .map(|(n, m)| format!("{m} ({n})"))
                    .collect::<Vec<_>>()
                    .join(", ");
                write!(
                    f,
                    "the text reads as different moves: {list}; type it in ICCS (like h2e2) or choose a notation"
                )
            }
        }
    }
}

impl std::error::Error for MoveTextError {}

impl std::error::Error for SyntaxError {}
