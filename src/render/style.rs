//! What an arrow over the board says (its style, which sets its colour in every theme) and how
//! opaque arrows are drawn: known to the themes and to the arrows' drawing alike.

use std::str::FromStr;

/// What an arrow says, which sets its colour.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum ArrowStyle {
    /// A suggested move (`/hint`): violet, apart from the blue marks of the last move.
    #[default]
    Hint,
    /// The better move, in a review: green.
    Best,
    /// The move played, when it was a mistake: red.
    Mistake,
}

impl ArrowStyle {
    /// All styles.
    pub const ALL: [ArrowStyle; 3] = [ArrowStyle::Hint, ArrowStyle::Best, ArrowStyle::Mistake];

    pub(crate) const fn index(self) -> usize {
        self as usize
    }

    /// Its name, as [`FromStr`] reads it (`hint`, `best`, `mistake`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            ArrowStyle::Hint => "hint",
            ArrowStyle::Best => "best",
            ArrowStyle::Mistake => "mistake",
        }
    }
}

impl FromStr for ArrowStyle {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "hint" => Ok(ArrowStyle::Hint),
            "best" => Ok(ArrowStyle::Best),
            "mistake" => Ok(ArrowStyle::Mistake),
            _ => Err(format!(
                "unknown arrow style {s:?}: use hint, best or mistake"
            )),
        }
    }
}

/// How opaque an arrow is: enough to read on a small screen in daylight, not so much that the
/// characters beneath disappear.
pub(crate) const ARROW_ALPHA: f32 = 0.72;
