//! Move notations players type: ICCS, WXF, Chinese, Vietnamese. (Stub: ICCS only, until the
//! notation module lands.)

use std::fmt;
use std::str::FromStr;

use crate::core::{IllegalMove, Move, Position};

/// A move notation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// Coordinates: `h2e2`.
    Iccs,
    /// WXF: `C2.5`.
    Wxf,
    /// Chinese: `炮二平五`.
    Chinese,
    /// Vietnamese: `P2-5`.
    Vietnamese,
}

impl FromStr for Notation {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "iccs" => Ok(Notation::Iccs),
            "wxf" => Ok(Notation::Wxf),
            "chinese" | "zh" => Ok(Notation::Chinese),
            "vietnamese" | "vi" => Ok(Notation::Vietnamese),
            _ => Err(format!("unknown notation {s:?}")),
        }
    }
}

/// A move text that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveTextError {
    /// Not a move in this notation.
    Syntax,
    /// Well-formed but illegal.
    Illegal(IllegalMove),
}

impl fmt::Display for MoveTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveTextError::Syntax => write!(f, "not a move"),
            MoveTextError::Illegal(e) => e.fmt(f),
        }
    }
}

/// Parse `text` in `notation` against `pos`.
///
/// # Errors
/// Why the text is not a legal move.
pub fn parse_move(pos: &Position, text: &str, _notation: Notation) -> Result<Move, MoveTextError> {
    let m = Move::parse_iccs(text).ok_or(MoveTextError::Syntax)?;
    pos.explain_illegal(m).map_err(MoveTextError::Illegal)?;
    Ok(m)
}

/// Write `m` in `notation`.
#[must_use]
pub fn format_move(_pos: &Position, m: Move, _notation: Notation) -> String {
    m.to_string()
}
