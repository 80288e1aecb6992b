//! ICCS coordinates: `h2e2`, `h2-e2`, `H2-E2` (files `a`–`i` from Red's left, ranks `0`–`9`).

use super::error::Expected;
use super::grammar::SynErr;
use crate::core::{Move, Square};

/// Parse a normalised text.
pub(crate) fn parse(chars: &[char]) -> Result<Move, SynErr> {
    let from = square(chars, 0)?;
    let at = if chars.get(2) == Some(&'-') { 3 } else { 2 };
    let to = square(chars, at)?;
    if at + 2 < chars.len() {
        return Err((at + 2, Expected::End));
    }
    Ok(Move::new(from, to))
}

fn square(chars: &[char], at: usize) -> Result<Square, SynErr> {
    let file = chars
        .get(at)
        .map(char::to_ascii_lowercase)
        .filter(|c| ('a'..='i').contains(c))
        .ok_or((at, Expected::Square))?;
    let rank = chars
        .get(at + 1)
        .and_then(|c| c.to_digit(10))
        .ok_or((at + 1, Expected::Square))?;
    Square::new(file as u8 - b'a', rank as u8).ok_or((at, Expected::Square))
}

#[cfg(test)]
mod tests {
    use crate::core::Position;
    use crate::notation::{format_move, parse_move, MoveTextError, Notation};

    #[test]
    fn the_three_spellings_of_rules_7() {
        let pos = Position::startpos();
        for text in ["h2e2", "h2-e2", "H2-E2", " H2E2 ", "ｈ２ｅ２", "h2 e2"] {
            let m = parse_move(&pos, text, Notation::Iccs).unwrap();
            assert_eq!(m.to_string(), "h2e2", "{text}");
            assert_eq!(format_move(&pos, m, Notation::Iccs), "h2e2");
        }
    }

    #[test]
    fn errors_point_at_the_bad_character() {
        let pos = Position::startpos();
        let err = |t| parse_move(&pos, t, Notation::Iccs).unwrap_err().to_string();
        assert_eq!(
            err("h2j2"),
            "cannot read \"h2j2\" as ICCS: at character 3 (\"j\") expected a point: a file letter a-i then a rank 0-9, as in h2e2"
        );
        assert!(err("h2e").contains("ends too early"));
        assert!(err("h2e2e").contains("at character 5"));
        assert!(err("b0d1").contains("horse's leg is blocked at c0"));
        assert!(matches!(
            parse_move(&pos, "a9a8", Notation::Iccs),
            Err(MoveTextError::Illegal(_))
        ));
    }
}
