//! The rules core: pieces, points, positions, FEN, legal moves, check, mate, zobrist, perft.
//!
//! Pure and synchronous: no I/O, no platform crates. Everything else in the crate builds on it.

mod attacks;
#[cfg(test)]
pub(crate) use attacks::NO_POINT;
mod fen;
mod legality;
pub(crate) mod lines;
mod movegen;
pub(crate) use movegen::{Shields, GEN_ALL, GEN_CAPTURES, GEN_QUIETS};
mod perft;
mod position;
mod random;
pub(crate) mod tables;
mod types;
mod zobrist;

pub use fen::{
    board_fen, FenError, FenOrPositionError, PositionError, Setup, MAX_FEN_LEN, START_FEN,
};
pub use legality::{soldier_crossed, IllegalMove, IllegalReason};
pub use perft::{divide, perft};
pub(crate) use position::{code_of, Undo};
pub use position::{MoveList, Position};
pub use random::{mix64, next_random, splitmix, GOLDEN};
pub use types::{ByColor, Color, Move, Piece, PieceId, Role, Square};

/// How a position stands for the side to move, by the basic rules alone (no arbiter).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// The side to move has legal moves.
    Ongoing,
    /// The side to move is in check with no legal move: it loses.
    Checkmate,
    /// The side to move is not in check but has no legal move: it loses too (not a draw).
    Stalemate,
}

impl Position {
    /// Checkmate, stalemate (a loss for the side to move), or neither.
    #[must_use]
    pub fn status(&self) -> Status {
        if self.has_legal_move() {
            Status::Ongoing
        } else if self.is_check() {
            Status::Checkmate
        } else {
            Status::Stalemate
        }
    }
}
