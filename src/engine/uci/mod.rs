//! The UCI protocol as Xiangqi engines speak it, as pure functions: no I/O.
//!
//! Both directions are parsed and written, because this crate is both a UCI engine
//! (`xiangqi-bot uci`, reading [`GuiCommand`]s and writing [`EngineLine`]s) and a UCI client
//! (driving Pikafish or Fairy-Stockfish, writing commands and reading their lines). What one side
//! writes, the other side's parser reads back to the same value.
//!
//! # Move dialects
//!
//! Xiangqi UCI engines write moves as coordinates, but not all with the same ranks:
//!
//! | [`Dialect`] | who writes it | ranks | Red's central cannon | Black's horse |
//! |---|---|---|---|---|
//! | [`Dialect::Iccs`] | Pikafish, ElephantEye (UCCI), this crate | `0`–`9` | `h2e2` | `b9c7` |
//! | [`Dialect::Fairy`] | Fairy-Stockfish (`UCI_Variant xiangqi`) | `1`–`10` | `h3e3` | `b10c8` |
//!
//! A line is always read and written in one dialect; the caller decides which (the client from the
//! engine's `id name` and options, see [`Dialect::detect`]; the server from its `UCI_Dialect`
//! option, ICCS by default).

mod command;
mod reply;

use std::fmt;

use crate::core::{Move, Square};

pub use command::{parse_command, Go, GuiCommand, StartPos};
pub use reply::{parse_engine_line, Bound, EngineLine, InfoLine, InfoScore, OptionKind, UciOption};

/// The longest line either parser reads; longer lines are refused unread (a GUI that sends a
/// game of 1,000 plies still fits: about 5 characters a move).
pub const MAX_LINE_LEN: usize = 16 * 1024;

/// How moves are written on the wire: ranks `0`–`9` (ICCS) or `1`–`10` (Fairy-Stockfish).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// Files `a`–`i`, ranks `0`–`9` from Red's side: `h2e2` (Pikafish, ICCS).
    #[default]
    Iccs,
    /// Files `a`–`i`, ranks `1`–`10`: `h3e3`, `b10c8` (Fairy-Stockfish).
    Fairy,
}

impl Dialect {
    /// The lower-case name (`iccs`, `fairy`), as in settings.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Dialect::Iccs => "iccs",
            Dialect::Fairy => "fairy",
        }
    }

    /// The dialect an engine speaks, from its `id name` and whether it offers the option
    /// `UCI_Variant` with `xiangqi`: Fairy-Stockfish (by name or by that option) writes ranks
    /// `1`–`10`; every other engine is taken to write ICCS.
    #[must_use]
    pub fn detect(id_name: &str, offers_xiangqi_variant: bool) -> Dialect {
        let name = id_name.to_ascii_lowercase();
        if offers_xiangqi_variant
            || name.contains("fairy-stockfish")
            || name.contains("fairy stockfish")
        {
            Dialect::Fairy
        } else {
            Dialect::Iccs
        }
    }

    /// Write a move in this dialect.
    #[must_use]
    pub fn format_move(self, m: Move) -> String {
        match self {
            Dialect::Iccs => m.to_string(),
            Dialect::Fairy => format!("{}{}", fairy_square(m.from), fairy_square(m.to)),
        }
    }

    /// Read a move token in this dialect (syntax only; legality is the caller's business).
    #[must_use]
    pub fn parse_move(self, token: &str) -> Option<Move> {
        let b = token.as_bytes();
        if !token.is_ascii() || b.len() > 6 {
            return None;
        }
        let (from, rest) = self.square(b)?;
        let (to, rest) = self.square(rest)?;
        rest.is_empty().then_some(Move::new(from, to))
    }

    /// One point at the start of `b`, and what follows it.
    fn square(self, b: &[u8]) -> Option<(Square, &[u8])> {
        let file = b.first()?.checked_sub(b'a').filter(|&f| f < 9)?;
        let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
        let (rank, used) = match self {
            Dialect::Iccs => (b.get(1)?.checked_sub(b'0').filter(|&r| r <= 9)?, 1),
            Dialect::Fairy => {
                // Two digits only for "10"; "1" followed by a point's file letter is rank 1.
                let two = digits >= 2 && b[1] == b'1' && b[2] == b'0';
                let used = if two { 2 } else { 1 };
                let n = if two {
                    10
                } else {
                    b.get(1)?.checked_sub(b'0')?
                };
                (n.checked_sub(1).filter(|&r| r <= 9)?, used)
            }
        };
        if digits == 0 {
            return None;
        }
        Some((Square::new(file, rank)?, &b[1 + used..]))
    }
}

fn fairy_square(s: Square) -> String {
    format!("{}{}", char::from(b'a' + s.file()), s.rank() + 1)
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Dialect {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "iccs" | "0-9" | "pikafish" => Ok(Dialect::Iccs),
            "fairy" | "1-10" | "fairy-stockfish" => Ok(Dialect::Fairy),
            other => Err(format!(
                "unknown move dialect {:?}: use iccs (ranks 0-9) or fairy (ranks 1-10)",
                other.chars().take(24).collect::<String>()
            )),
        }
    }
}

/// Why a line could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciError {
    /// Nothing but whitespace.
    Empty,
    /// Longer than [`MAX_LINE_LEN`].
    TooLong(usize),
    /// The first word is not a command (or reply) of the protocol.
    Unknown(String),
    /// A known command with a bad argument.
    Bad {
        /// The command (`go`, `position`, `info`, ...).
        command: &'static str,
        /// What is wrong, with the offending token.
        detail: String,
    },
}

impl fmt::Display for UciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciError::Empty => f.write_str("empty line"),
            UciError::TooLong(n) => write!(f, "line too long ({n} bytes)"),
            UciError::Unknown(w) => write!(f, "unknown command {:?}", shorten(w)),
            UciError::Bad { command, detail } => write!(f, "{command}: {detail}"),
        }
    }
}

impl std::error::Error for UciError {}

/// A token cut to 32 characters, for error messages.
fn shorten(s: &str) -> String {
    s.chars().take(32).collect()
}

/// Split a line into words, refusing empty and overlong lines.
fn words(line: &str) -> Result<Vec<&str>, UciError> {
    if line.len() > MAX_LINE_LEN {
        return Err(UciError::TooLong(line.len()));
    }
    let w: Vec<&str> = line.split_whitespace().collect();
    if w.is_empty() {
        return Err(UciError::Empty);
    }
    Ok(w)
}

/// Read a number argument: `what` names it in the error.
fn number<T: std::str::FromStr>(
    command: &'static str,
    what: &str,
    token: Option<&&str>,
) -> Result<T, UciError> {
    let token = token.ok_or_else(|| UciError::Bad {
        command,
        detail: format!("{what} needs a number"),
    })?;
    token.parse().map_err(|_| UciError::Bad {
        command,
        detail: format!("{what} needs a number, not {:?}", shorten(token)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        Move::parse_iccs(s).unwrap()
    }

    #[test]
    fn dialects_write_and_read_the_same_move() {
        let m = mv("b9c7");
        assert_eq!(Dialect::Iccs.format_move(m), "b9c7");
        assert_eq!(Dialect::Fairy.format_move(m), "b10c8");
        assert_eq!(Dialect::Fairy.parse_move("b10c8"), Some(m));
        assert_eq!(Dialect::Fairy.parse_move("h3e3"), Some(mv("h2e2")));
        assert_eq!(Dialect::Fairy.parse_move("a1a10"), Some(mv("a0a9")));
        assert_eq!(Dialect::Fairy.parse_move("a10a1"), Some(mv("a9a0")));
        assert_eq!(Dialect::Iccs.parse_move("h2e2"), Some(mv("h2e2")));
        for bad in [
            "", "h2e", "h0e2x", "j2e2", "a0a0a", "b10", "H2E2", "h2-e2", "a10a1",
        ] {
            assert_eq!(Dialect::Iccs.parse_move(bad), None, "{bad}");
        }
        for bad in [
            "", "h3e", "a0b1", "a11a1", "j2e2", "b10c", "b10c11", "b100c8",
        ] {
            assert_eq!(Dialect::Fairy.parse_move(bad), None, "{bad}");
        }
        assert_eq!(Dialect::Iccs.parse_move("a10a1"), None);
    }

    #[test]
    fn detection_by_name_and_option() {
        assert_eq!(
            Dialect::detect("Fairy-Stockfish 11.1 LB 64", false),
            Dialect::Fairy
        );
        assert_eq!(Dialect::detect("Pikafish 2024", false), Dialect::Iccs);
        assert_eq!(Dialect::detect("Something", true), Dialect::Fairy);
        assert_eq!("fairy".parse::<Dialect>(), Ok(Dialect::Fairy));
        assert!("x".parse::<Dialect>().is_err());
    }
}
