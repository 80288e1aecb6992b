//! What is needed to draw a board picture (again): a stored outbox entry keeps a board this
//! way instead of its bytes, and it is drawn just before it is sent. Its stored form is the
//! one entries have always had (the position as FEN, moves in ICCS, arrow styles by name), so
//! entries written before it was typed read back unchanged.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::core::{Color, Move, Position};
use crate::i18n::Lang;
use crate::render::{Arrow, ArrowStyle, Player};

/// What is needed to draw a board picture again.
#[derive(Clone, Serialize, Deserialize)]
pub struct Drawing {
    /// The position.
    #[serde(rename = "fen", with = "fen")]
    pub position: Position,
    /// The move that led to it.
    #[serde(with = "iccs")]
    pub last_move: Option<Move>,
    /// Whether Black is at the bottom.
    pub black_below: bool,
    /// Red's name and clock as shown.
    pub red: (String, Option<String>),
    /// Black's name and clock as shown.
    pub black: (String, Option<String>),
    /// Arrows over the board: a move and its style.
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "arrows")]
    pub arrows: Vec<(Move, ArrowStyle)>,
    /// The language the picture's description and text board were made in from this drawing
    /// alone (`Image::board`): a stored entry leaves them out and makes them again.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "lang")]
    pub described_in: Option<Lang>,
}

impl PartialEq for Drawing {
    fn eq(&self, other: &Drawing) -> bool {
        self.position.to_fen() == other.position.to_fen()
            && self.last_move == other.last_move
            && self.black_below == other.black_below
            && self.red == other.red
            && self.black == other.black
            && self.arrows == other.arrows
            && self.described_in == other.described_in
    }
}

impl Eq for Drawing {}

impl std::fmt::Debug for Drawing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Drawing")
            .field("position", &self.position.to_fen())
            .field("last_move", &self.last_move.map(|m| m.to_string()))
            .field("black_below", &self.black_below)
            .field("red", &self.red)
            .field("black", &self.black)
            .field("arrows", &self.arrows)
            .field("described_in", &self.described_in)
            .finish()
    }
}

impl Drawing {
    /// The arrows drawn over the board.
    pub(super) fn arrows(&self) -> Vec<Arrow> {
        self.arrows
            .iter()
            .map(|&(mv, style)| Arrow::of_move(mv, style))
            .collect()
    }

    /// The description in `lang` and the text board of the position drawn.
    pub(crate) fn texts(&self, lang: Lang) -> (String, String) {
        (
            crate::render::describe(&self.position, lang),
            crate::render::text_board(&self.position, self.last_move, self.viewer()),
        )
    }

    /// The side at the bottom.
    pub(super) fn viewer(&self) -> Color {
        if self.black_below {
            Color::Black
        } else {
            Color::Red
        }
    }

    /// The players as the renderer shows them, Red's first.
    pub(super) fn players(&self) -> (Player, Player) {
        let player = |(name, clock): &(String, Option<String>)| Player {
            name: name.clone(),
            clock: clock.clone(),
        };
        (player(&self.red), player(&self.black))
    }
}

/// The position as its FEN.
mod fen {
    use super::{Deserialize, Deserializer, Position, Serializer};

    pub(super) fn serialize<S: Serializer>(p: &Position, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&p.to_fen())
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Position, D::Error> {
        let fen = String::deserialize(d)?;
        Position::from_fen(&fen).map_err(|e| serde::de::Error::custom(format!("{e:?}")))
    }
}

/// A move in ICCS; one that does not read is no move.
mod iccs {
    use super::{Deserialize, Deserializer, Move, Serialize, Serializer};

    pub(super) fn serialize<S: Serializer>(m: &Option<Move>, s: S) -> Result<S::Ok, S::Error> {
        m.map(|m| m.to_string()).serialize(s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Move>, D::Error> {
        let text = Option::<String>::deserialize(d)?;
        Ok(text.as_deref().and_then(Move::parse_iccs))
    }
}

/// Arrows as pairs of an ICCS move and a style name; one that does not read is left out.
mod arrows {
    use super::{ArrowStyle, Deserialize, Deserializer, Move, Serialize, Serializer};

    pub(super) fn serialize<S: Serializer>(
        a: &[(Move, ArrowStyle)],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        a.iter()
            .map(|(m, style)| (m.to_string(), style.name()))
            .collect::<Vec<_>>()
            .serialize(s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<(Move, ArrowStyle)>, D::Error> {
        let pairs = Vec::<(String, String)>::deserialize(d)?;
        Ok(pairs
            .iter()
            .filter_map(|(m, style)| Some((Move::parse_iccs(m)?, style.parse().ok()?)))
            .collect())
    }
}

/// A language by its code (`vi`, `en`, `zh`); one that does not read is none.
mod lang {
    use super::{Deserialize, Deserializer, Lang, Serialize, Serializer};

    pub(super) fn serialize<S: Serializer>(l: &Option<Lang>, s: S) -> Result<S::Ok, S::Error> {
        l.map(Lang::code).serialize(s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Lang>, D::Error> {
        let text = Option::<String>::deserialize(d)?;
        Ok(text.as_deref().and_then(Lang::from_tag))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An entry's drawing as main stored it before drawings were typed (FEN, ICCS, style
    /// names, a language code): it reads as the same picture, and is written back byte for
    /// byte as it was.
    #[test]
    fn the_stored_form_is_the_one_entries_always_had() {
        let moved = Position::startpos().after(Move::parse_iccs("h2e2").expect("iccs"));
        let fen = moved.to_fen();
        let stored = format!(
            r#"{{"fen":"{fen}","last_move":"h2e2","black_below":true,"red":["An","9:58"],"black":["Bình",null],"arrows":[["h9g7","hint"],["b0c2","best"]],"described_in":"vi"}}"#
        );
        let d: Drawing = serde_json::from_str(&stored).expect("reads");
        assert_eq!(d.position.to_fen(), fen);
        assert_eq!(d.last_move, Move::parse_iccs("h2e2"));
        assert_eq!(d.viewer(), Color::Black);
        assert_eq!(
            d.arrows,
            vec![
                (Move::parse_iccs("h9g7").expect("iccs"), ArrowStyle::Hint),
                (Move::parse_iccs("b0c2").expect("iccs"), ArrowStyle::Best)
            ]
        );
        assert_eq!(d.described_in, Some(Lang::Vi));
        assert_eq!(serde_json::to_string(&d).expect("writes"), stored);
        // What does not read is left out, as the drawing did before (an arrow, a move, a
        // language); a position that does not read is an entry that does not read.
        let odd = r#"{"fen":"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w","last_move":"zz","black_below":false,"red":["a",null],"black":["b",null],"arrows":[["h9g7","glow"]],"described_in":"xx"}"#;
        let d: Drawing = serde_json::from_str(odd).expect("reads");
        assert_eq!(
            (d.last_move, d.arrows.len(), d.described_in),
            (None, 0, None)
        );
        let bad = odd.replace("rnbakabnr/9", "rnbakabnrr/9");
        assert!(serde_json::from_str::<Drawing>(&bad).is_err());
    }
}
