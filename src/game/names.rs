//! How records store the rules' types: by their names, as they always have (`red_wins`,
//! `official`, `red`), so the records hold enums while their JSON stays what older binaries
//! wrote and read, and the rules core and the arbiter stay free of serde. Each module here is
//! a `#[serde(with = …)]` adapter.

use serde::de::Error;
use serde::{Deserialize, Deserializer, Serializer};

use crate::arbiter::{Outcome, Reason, RulesetName};
use crate::core::Color;

/// Why a finished game ended: a ruling of the arbiter, or what a player or the clock did.
/// Stored as one word (`checkmate`, `perpetual_chase`, …, `resignation`, `agreement`,
/// `timeout`, `abandonment`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The arbiter ended it (mate, stalemate, a repetition ruling, a count, a draw rule).
    Ruling(Reason),
    /// A player resigned.
    Resignation,
    /// The players agreed a draw.
    Agreement,
    /// A flag fell.
    Timeout,
    /// The side to move of an untimed game stayed away and the other side claimed the game.
    Abandonment,
}

impl EndReason {
    /// The stored word.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            EndReason::Ruling(r) => r.as_str(),
            EndReason::Resignation => "resignation",
            EndReason::Agreement => "agreement",
            EndReason::Timeout => "timeout",
            EndReason::Abandonment => "abandonment",
        }
    }

    /// The reason a stored word names.
    #[must_use]
    pub fn parse(word: &str) -> Option<EndReason> {
        Some(match word {
            "resignation" => EndReason::Resignation,
            "agreement" => EndReason::Agreement,
            "timeout" => EndReason::Timeout,
            "abandonment" => EndReason::Abandonment,
            _ => EndReason::Ruling(Reason::ALL.into_iter().find(|r| r.as_str() == word)?),
        })
    }
}

impl serde::Serialize for EndReason {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for EndReason {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let word = String::deserialize(d)?;
        EndReason::parse(&word)
            .ok_or_else(|| D::Error::custom(format!("unknown end of a game {word:?}")))
    }
}

/// A result: `red_wins`, `black_wins`, `draw`.
pub mod outcome {
    use super::{Deserialize, Deserializer, Error, Outcome, Serializer};

    /// The stored word.
    pub fn serialize<S: Serializer>(o: &Outcome, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(o.as_str())
    }

    /// From the stored word.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Outcome, D::Error> {
        let word = String::deserialize(d)?;
        [Outcome::RedWins, Outcome::BlackWins, Outcome::Draw]
            .into_iter()
            .find(|o| o.as_str() == word)
            .ok_or_else(|| D::Error::custom(format!("unknown result {word:?}")))
    }
}

/// A ruleset: `official`, `asian`, `vietnam`, `cxq`, `casual`.
pub mod ruleset {
    use super::{Deserialize, Deserializer, Error, RulesetName, Serializer};

    /// The stored word.
    pub fn serialize<S: Serializer>(r: &RulesetName, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(r.as_str())
    }

    /// From the stored word (or one of the names `/ruleset` accepts).
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<RulesetName, D::Error> {
        String::deserialize(d)?.parse().map_err(D::Error::custom)
    }
}

/// A side that asked for something (a draw, a takeback), or none: `"red"`, `"black"`, `null`.
pub mod side {
    use super::{Color, Deserialize, Deserializer, Error, Serializer};

    /// The stored word, or null.
    #[allow(clippy::ref_option)] // serde's `with` passes the field by reference
    pub fn serialize<S: Serializer>(c: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
        match c {
            Some(c) => s.serialize_some(c.name()),
            None => s.serialize_none(),
        }
    }

    /// From the stored word, or null.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Color>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|w| {
                [Color::Red, Color::Black]
                    .into_iter()
                    .find(|c| c.name() == w)
                    .ok_or_else(|| D::Error::custom(format!("unknown side {w:?}")))
            })
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_end_reason_reads_back_from_its_word() {
        let all = Reason::ALL.into_iter().map(EndReason::Ruling).chain([
            EndReason::Resignation,
            EndReason::Agreement,
            EndReason::Timeout,
            EndReason::Abandonment,
        ]);
        for r in all {
            let json = serde_json::to_string(&r).expect("write");
            assert_eq!(json, format!("\"{}\"", r.as_str()));
            assert_eq!(serde_json::from_str::<EndReason>(&json).expect("read"), r);
        }
        assert!(serde_json::from_str::<EndReason>("\"fainted\"").is_err());
    }

    #[test]
    fn a_side_reads_back_from_its_word() {
        #[derive(serde::Serialize, Deserialize, PartialEq, Debug)]
        struct Offer(#[serde(with = "side")] Option<Color>);
        for c in [None, Some(Color::Red), Some(Color::Black)] {
            let json = serde_json::to_string(&Offer(c)).expect("write");
            assert_eq!(
                serde_json::from_str::<Offer>(&json).expect("read"),
                Offer(c)
            );
        }
        assert_eq!(
            serde_json::to_string(&Offer(Some(Color::Black))).expect("write"),
            "\"black\""
        );
        assert!(serde_json::from_str::<Offer>("\"blue\"").is_err());
    }
}
