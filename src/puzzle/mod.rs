//! Puzzles: composed endgames and tactics cut from games, solved move by move.
//!
//! Pure like the engine (no I/O): a [`Puzzle`] is read from one line of the shipped text
//! format ([`parse_set`]), checked move by move against the engine ([`check_move`]), verified
//! as a whole ([`verify`]), and new ones are cut from self-play ([`mine`]).
//!
//! The shipped set ([`shipped`]) is embedded from `assets/puzzles/`: the composed endgames of
//! 适情雅趣 (Shi Qing Ya Qu, 1570) and the Jianghu collection as gathered by XiangqiBench, and
//! tactics found by the built-in engine in its own games.
//!
//! ```
//! let set = xiangqi_bot::puzzle::shipped();
//! assert!(set.len() >= 200);
//! let p = &set[0];
//! assert_eq!(p.solution.len() % 2, 1); // the line ends on the solver's move
//! ```

pub mod material;
pub mod mine;
pub mod select;
mod solve;
mod verify;

use std::fmt;

use crate::core::{Color, Move, Position};

pub use solve::{check_move, solution_from, Progress, Verdict};
pub use verify::{verify, verify_unique, Unique, VerifyError};

/// What the solver must achieve.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Mate in this many of the solver's moves.
    Mate(u32),
    /// Win at least this much material (centipawns, [`material::value`]) by the end of the line.
    Material(u32),
}

/// What a puzzle is about.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Theme {
    /// Mate in this many moves.
    MateIn(u8),
    /// Win a chariot.
    WinChariot,
    /// Win a cannon.
    WinCannon,
    /// Win a horse.
    WinHorse,
    /// Win smaller material (advisors, elephants, soldiers).
    WinMaterial,
}

impl Theme {
    /// Every theme with a name, in display order.
    pub const NAMED: [Theme; 4] = [
        Theme::WinChariot,
        Theme::WinCannon,
        Theme::WinHorse,
        Theme::WinMaterial,
    ];

    /// Parse `mate-in-3`, `win-chariot`, …
    #[must_use]
    pub fn parse(s: &str) -> Option<Theme> {
        let s = s.trim();
        if let Some(n) = s.strip_prefix("mate-in-") {
            return n
                .parse()
                .ok()
                .filter(|n| (1..=20).contains(n))
                .map(Theme::MateIn);
        }
        Theme::NAMED.into_iter().find(|t| t.to_string() == s)
    }

    /// Whether this is a mate theme.
    #[must_use]
    pub fn is_mate(self) -> bool {
        matches!(self, Theme::MateIn(_))
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Theme::MateIn(n) => write!(f, "mate-in-{n}"),
            Theme::WinChariot => f.write_str("win-chariot"),
            Theme::WinCannon => f.write_str("win-cannon"),
            Theme::WinHorse => f.write_str("win-horse"),
            Theme::WinMaterial => f.write_str("win-material"),
        }
    }
}

/// One puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Stable id (`sqyq-164`, `jh-118`, `t1-00209`).
    pub id: String,
    /// The start; its side to move is the solver.
    pub position: Position,
    /// The listed line: solver, defender, solver, …, ending on the solver's move.
    pub solution: Vec<Move>,
    /// What the line achieves.
    pub goal: Goal,
    /// What it is about.
    pub theme: Theme,
    /// Difficulty as a rating (600–2400).
    pub rating: u16,
    /// Where it comes from (the collection and title, or the self-play game).
    pub source: String,
}

impl Puzzle {
    /// The side that solves.
    #[must_use]
    pub fn solver(&self) -> Color {
        self.position.turn()
    }

    /// The solver's moves in the listed line.
    #[must_use]
    pub fn solver_moves(&self) -> usize {
        self.solution.len().div_ceil(2)
    }

    /// The solver's moves a solve needs: the mate's length, or the listed line's moves.
    #[must_use]
    pub fn moves_to_find(&self) -> usize {
        match self.goal {
            Goal::Mate(n) => n as usize,
            Goal::Material(_) => self.solver_moves(),
        }
    }

    /// One line of the text format: `id | fen | moves | goal | theme | rating | source`.
    #[must_use]
    pub fn to_line(&self) -> String {
        let moves: Vec<String> = self.solution.iter().map(ToString::to_string).collect();
        let goal = match self.goal {
            Goal::Mate(n) => format!("mate {n}"),
            Goal::Material(cp) => format!("material {cp}"),
        };
        format!(
            "{} | {} | {} | {goal} | {} | {} | {}",
            self.id,
            self.position.to_fen(),
            moves.join(" "),
            self.theme,
            self.rating,
            self.source
        )
    }

    /// Read one line of the text format.
    ///
    /// # Errors
    /// Which field is wrong, and why.
    pub fn from_line(line: &str) -> Result<Puzzle, String> {
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let [id, fen, moves, goal, theme, rating, source] = fields[..] else {
            return Err(format!("{} fields instead of 7", fields.len()));
        };
        if id.is_empty() || id.len() > 32 {
            return Err("the id must have 1 to 32 characters".into());
        }
        let position = Position::from_fen(fen).map_err(|e| format!("{id}: bad FEN: {e}"))?;
        let mut solution = Vec::new();
        for t in moves.split_whitespace() {
            solution.push(Move::parse_iccs(t).ok_or_else(|| format!("{id}: bad move {t:?}"))?);
        }
        if solution.len() % 2 == 0 {
            return Err(format!("{id}: the line must end on the solver's move"));
        }
        let goal = match goal.split_once(' ') {
            Some(("mate", n)) => n.parse().ok().map(Goal::Mate),
            Some(("material", n)) => n.parse().ok().map(Goal::Material),
            _ => None,
        }
        .ok_or_else(|| format!("{id}: bad goal {goal:?}"))?;
        let theme = Theme::parse(theme).ok_or_else(|| format!("{id}: bad theme {theme:?}"))?;
        let rating = rating
            .parse()
            .ok()
            .filter(|r| (600..=2400).contains(r))
            .ok_or_else(|| format!("{id}: bad rating {rating:?}"))?;
        Ok(Puzzle {
            id: id.to_string(),
            position,
            solution,
            goal,
            theme,
            rating,
            source: source.to_string(),
        })
    }
}

/// Read a set: one puzzle a line; blank lines and `#` comments are skipped.
///
/// # Errors
/// The first bad line, with its number.
pub fn parse_set(text: &str) -> Result<Vec<Puzzle>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| Puzzle::from_line(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

/// The composed endgames shipped with the bot.
pub const ENDGAMES: &str = include_str!("../../assets/puzzles/endgames.txt");
/// The tactics cut from the engine's games.
pub const TACTICS: &str = include_str!("../../assets/puzzles/tactics.txt");

/// Every shipped puzzle (a bad shipped line is skipped; the tests make sure there is none).
#[must_use]
pub fn shipped() -> Vec<Puzzle> {
    [ENDGAMES, TACTICS]
        .iter()
        .flat_map(|t| t.lines())
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .filter_map(|l| Puzzle::from_line(l).ok())
        .collect()
}
