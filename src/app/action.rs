//! Button and menu actions, encoded in at most 64 bytes (Telegram's callback-data limit; a
//! Discord custom id allows 100). Every action that acts on a game carries its id and ply, so
//! a stale or repeated press is recognised and refused politely, also after a restart.

use crate::core::{Color, Move, Square};

/// What a button or menu entry does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Accept challenge `id`.
    Accept {
        /// Challenge id.
        id: u64,
    },
    /// Decline challenge `id`.
    Decline {
        /// Challenge id.
        id: u64,
    },
    /// Switch challenge `id` to rated or casual (its challenger only).
    SetRated {
        /// Challenge id.
        id: u64,
        /// Rated (true) or casual.
        rated: bool,
    },
    /// Ask to confirm resignation.
    Resign {
        /// Game id.
        game: u64,
        /// Plies played when the button was made.
        ply: u32,
    },
    /// Confirmed resignation.
    ConfirmResign {
        /// Game id.
        game: u64,
        /// Plies.
        ply: u32,
        /// The side that was asked (only its player may confirm; `None` on buttons made
        /// before it was recorded).
        by: Option<Color>,
    },
    /// Offer (or accept) a draw.
    Draw {
        /// Game id.
        game: u64,
        /// Plies.
        ply: u32,
    },
    /// Decline a draw offer or takeback request.
    DeclineOffer {
        /// Game id.
        game: u64,
        /// Plies.
        ply: u32,
    },
    /// Agree to a takeback.
    AcceptTakeback {
        /// Game id.
        game: u64,
        /// Plies.
        ply: u32,
    },
    /// Show the board the other way round.
    Flip {
        /// Game id.
        game: u64,
        /// Plies.
        ply: u32,
    },
    /// Open the move picker.
    Pick {
        /// Game id.
        game: u64,
        /// Plies.
        ply: u32,
    },
    /// Picker step one: the piece on `from` was chosen.
    PickFrom {
        /// Game id.
        game: u64,
        /// Plies.
        ply: u32,
        /// The piece's point.
        from: Square,
    },
    /// Picker step two: play `mv`.
    PickTo {
        /// Game id.
        game: u64,
        /// Plies.
        ply: u32,
        /// The move.
        mv: Move,
    },
    /// Start a game against the bot at `level` (anyone in the channel).
    PlayBot {
        /// Its level ([`crate::app::bot::LEVELS`]).
        level: u8,
    },
    /// Play the opponent of finished game `game` again, colours swapped (its players only).
    Rematch {
        /// The finished game.
        game: u64,
    },
    /// Review a finished game (the button under its result).
    Review {
        /// Game id.
        game: u64,
    },
    /// A puzzle's hint (which piece moves).
    PuzzleHint {
        /// The puzzle's showing number.
        puzzle: u64,
    },
    /// Show a puzzle's solution (it ends).
    PuzzleSolution {
        /// The puzzle's showing number.
        puzzle: u64,
    },
    /// Another puzzle (the one shown ends with its solution).
    PuzzleNext {
        /// The puzzle's showing number.
        puzzle: u64,
    },
    /// Open the move picker of a puzzle.
    PuzzlePick {
        /// The puzzle's showing number.
        puzzle: u64,
        /// Moves played in it when the button was made.
        ply: u32,
    },
    /// Puzzle picker step one: the piece on `from`.
    PuzzlePickFrom {
        /// The puzzle's showing number.
        puzzle: u64,
        /// Moves played.
        ply: u32,
        /// The piece's point.
        from: Square,
    },
    /// Puzzle picker step two: play `mv`.
    PuzzlePickTo {
        /// The puzzle's showing number.
        puzzle: u64,
        /// Moves played.
        ply: u32,
        /// The move.
        mv: Move,
    },
    /// Join tournament `id` (its entry list's button).
    TournamentJoin {
        /// The tournament.
        id: u64,
    },
    /// Leave tournament `id`.
    TournamentLeave {
        /// The tournament.
        id: u64,
    },
    /// Open game `game` on the web board: on Telegram a Mini App (the adapter makes the
    /// button open it); elsewhere, and where Telegram cannot, the presser's private link.
    Board {
        /// Game id.
        game: u64,
    },
}

impl Action {
    /// The compact string form (`xq:A:12`, `xq:T:12:4:h2e2`, ...).
    #[must_use]
    pub fn encode(&self) -> String {
        match *self {
            Action::Accept { id } => format!("xq:A:{id}"),
            Action::Decline { id } => format!("xq:D:{id}"),
            Action::SetRated { id, rated } => format!("xq:Q:{id}:{}", u8::from(rated)),
            Action::Resign { game, ply } => format!("xq:R:{game}:{ply}"),
            Action::ConfirmResign { game, ply, by } => match by {
                Some(Color::Red) => format!("xq:Y:{game}:{ply}:r"),
                Some(Color::Black) => format!("xq:Y:{game}:{ply}:b"),
                None => format!("xq:Y:{game}:{ply}"),
            },
            Action::Draw { game, ply } => format!("xq:=:{game}:{ply}"),
            Action::DeclineOffer { game, ply } => format!("xq:N:{game}:{ply}"),
            Action::AcceptTakeback { game, ply } => format!("xq:K:{game}:{ply}"),
            Action::Flip { game, ply } => format!("xq:F:{game}:{ply}"),
            Action::Pick { game, ply } => format!("xq:P:{game}:{ply}"),
            Action::PickFrom { game, ply, from } => format!("xq:S:{game}:{ply}:{from}"),
            Action::PickTo { game, ply, mv } => format!("xq:T:{game}:{ply}:{mv}"),
            Action::PlayBot { level } => format!("xq:B:{level}"),
            Action::Rematch { game } => format!("xq:M:{game}"),
            Action::Review { game } => format!("xq:V:{game}"),
            Action::PuzzleHint { puzzle } => format!("xq:h:{puzzle}"),
            Action::PuzzleSolution { puzzle } => format!("xq:s:{puzzle}"),
            Action::PuzzleNext { puzzle } => format!("xq:n:{puzzle}"),
            Action::PuzzlePick { puzzle, ply } => format!("xq:p:{puzzle}:{ply}"),
            Action::PuzzlePickFrom { puzzle, ply, from } => format!("xq:f:{puzzle}:{ply}:{from}"),
            Action::PuzzlePickTo { puzzle, ply, mv } => format!("xq:t:{puzzle}:{ply}:{mv}"),
            Action::TournamentJoin { id } => format!("xq:J:{id}"),
            Action::TournamentLeave { id } => format!("xq:L:{id}"),
            Action::Board { game } => format!("xq:W:{game}"),
        }
    }

    /// Read the compact form; anything else (forged, truncated, foreign) is `None`.
    #[must_use]
    pub fn decode(s: &str) -> Option<Action> {
        if s.len() > 64 {
            return None;
        }
        let mut parts = s.split(':');
        if parts.next()? != "xq" {
            return None;
        }
        let tag = parts.next()?;
        let a: u64 = parts.next()?.parse().ok()?;
        let rest: Vec<&str> = parts.collect();
        let ply = || -> Option<u32> { rest.first()?.parse().ok() };
        let action = match (tag, rest.len()) {
            ("A", 0) => Action::Accept { id: a },
            ("V", 0) => Action::Review { game: a },
            ("D", 0) => Action::Decline { id: a },
            ("B", 0) => Action::PlayBot {
                level: u8::try_from(a).ok()?,
            },
            ("M", 0) => Action::Rematch { game: a },
            ("J", 0) => Action::TournamentJoin { id: a },
            ("L", 0) => Action::TournamentLeave { id: a },
            ("W", 0) => Action::Board { game: a },
            ("h", 0) => Action::PuzzleHint { puzzle: a },
            ("s", 0) => Action::PuzzleSolution { puzzle: a },
            ("n", 0) => Action::PuzzleNext { puzzle: a },
            ("p", 1) => Action::PuzzlePick {
                puzzle: a,
                ply: ply()?,
            },
            ("f", 2) => Action::PuzzlePickFrom {
                puzzle: a,
                ply: ply()?,
                from: Square::parse(rest[1])?,
            },
            ("t", 2) => Action::PuzzlePickTo {
                puzzle: a,
                ply: ply()?,
                mv: Move::parse_iccs(rest[1])?,
            },
            ("Q", 1) => Action::SetRated {
                id: a,
                rated: match rest[0] {
                    "1" => true,
                    "0" => false,
                    _ => return None,
                },
            },
            ("R", 1) => Action::Resign {
                game: a,
                ply: ply()?,
            },
            ("Y", 1) => Action::ConfirmResign {
                game: a,
                ply: ply()?,
                by: None,
            },
            ("Y", 2) => Action::ConfirmResign {
                game: a,
                ply: ply()?,
                by: Some(match rest[1] {
                    "r" => Color::Red,
                    "b" => Color::Black,
                    _ => return None,
                }),
            },
            ("=", 1) => Action::Draw {
                game: a,
                ply: ply()?,
            },
            ("N", 1) => Action::DeclineOffer {
                game: a,
                ply: ply()?,
            },
            ("K", 1) => Action::AcceptTakeback {
                game: a,
                ply: ply()?,
            },
            ("F", 1) => Action::Flip {
                game: a,
                ply: ply()?,
            },
            ("P", 1) => Action::Pick {
                game: a,
                ply: ply()?,
            },
            ("S", 2) => Action::PickFrom {
                game: a,
                ply: ply()?,
                from: Square::parse(rest[1])?,
            },
            ("T", 2) => Action::PickTo {
                game: a,
                ply: ply()?,
                mv: Move::parse_iccs(rest[1])?,
            },
            _ => return None,
        };
        Some(action)
    }

    /// The game (or challenge) it concerns and the ply it was made for.
    #[must_use]
    pub fn target(&self) -> (u64, Option<u32>) {
        match *self {
            Action::Accept { id }
            | Action::Decline { id }
            | Action::SetRated { id, .. }
            | Action::Rematch { game: id }
            | Action::Review { game: id }
            | Action::PuzzleHint { puzzle: id }
            | Action::PuzzleSolution { puzzle: id }
            | Action::PuzzleNext { puzzle: id }
            | Action::TournamentJoin { id }
            | Action::TournamentLeave { id }
            | Action::Board { game: id } => (id, None),
            Action::PlayBot { level } => (u64::from(level), None),
            Action::Resign { game, ply }
            | Action::ConfirmResign { game, ply, .. }
            | Action::Draw { game, ply }
            | Action::DeclineOffer { game, ply }
            | Action::AcceptTakeback { game, ply }
            | Action::Flip { game, ply }
            | Action::Pick { game, ply }
            | Action::PickFrom { game, ply, .. }
            | Action::PickTo { game, ply, .. }
            | Action::PuzzlePick { puzzle: game, ply }
            | Action::PuzzlePickFrom {
                puzzle: game, ply, ..
            }
            | Action::PuzzlePickTo {
                puzzle: game, ply, ..
            } => (game, Some(ply)),
        }
    }

    /// Whether it acts on a puzzle rather than a game or challenge.
    #[must_use]
    pub fn is_puzzle(&self) -> bool {
        matches!(
            self,
            Action::PuzzleHint { .. }
                | Action::PuzzleSolution { .. }
                | Action::PuzzleNext { .. }
                | Action::PuzzlePick { .. }
                | Action::PuzzlePickFrom { .. }
                | Action::PuzzlePickTo { .. }
        )
    }

    /// Whether it is a step of a move picker (a piece or a target chosen).
    #[must_use]
    pub fn is_picker_step(&self) -> bool {
        matches!(
            self,
            Action::PickFrom { .. }
                | Action::PickTo { .. }
                | Action::PuzzlePickFrom { .. }
                | Action::PuzzlePickTo { .. }
        )
    }

    /// Whether it is a button under a board (picking a move, flipping, a puzzle's buttons):
    /// pressing it leaves the board's buttons in place.
    #[must_use]
    pub fn is_board_button(&self) -> bool {
        matches!(
            self,
            Action::Pick { .. }
                | Action::Flip { .. }
                | Action::PuzzlePick { .. }
                | Action::PuzzleHint { .. }
                | Action::PuzzleSolution { .. }
                | Action::PuzzleNext { .. }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn every_action_round_trips_within_64_bytes() {
        let big = u64::MAX;
        let sq = Square::parse("e2").unwrap();
        let mv = Move::parse_iccs("h2e2").unwrap();
        for a in [
            Action::Accept { id: big },
            Action::Decline { id: 1 },
            Action::Review { game: big },
            Action::Board { game: big },
            Action::SetRated {
                id: big,
                rated: true,
            },
            Action::SetRated {
                id: 2,
                rated: false,
            },
            Action::Resign {
                game: big,
                ply: u32::MAX,
            },
            Action::ConfirmResign {
                game: 3,
                ply: 0,
                by: None,
            },
            Action::ConfirmResign {
                game: big,
                ply: u32::MAX,
                by: Some(Color::Black),
            },
            Action::Draw { game: 3, ply: 9 },
            Action::DeclineOffer { game: 3, ply: 9 },
            Action::AcceptTakeback { game: 3, ply: 9 },
            Action::Flip { game: 3, ply: 9 },
            Action::Pick { game: 3, ply: 9 },
            Action::PickFrom {
                game: big,
                ply: u32::MAX,
                from: sq,
            },
            Action::PickTo {
                game: big,
                ply: u32::MAX,
                mv,
            },
            Action::PlayBot { level: 3 },
            Action::Rematch { game: big },
            Action::PuzzleHint { puzzle: big },
            Action::PuzzleSolution { puzzle: 4 },
            Action::PuzzleNext { puzzle: big },
            Action::PuzzlePick {
                puzzle: big,
                ply: u32::MAX,
            },
            Action::PuzzlePickFrom {
                puzzle: big,
                ply: u32::MAX,
                from: sq,
            },
            Action::PuzzlePickTo {
                puzzle: big,
                ply: u32::MAX,
                mv,
            },
        ] {
            let s = a.encode();
            assert!(s.len() <= 64, "{s}");
            assert_eq!(Action::decode(&s), Some(a), "{s}");
        }
    }

    proptest! {
        #[test]
        fn arbitrary_callback_data_never_panics(s in ".{0,80}") {
            let _ = Action::decode(&s);
        }
    }
}
