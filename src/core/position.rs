//! The checked position: board, side to move, piece identities, zobrist hash; making moves.

use super::attacks::NO_POINT;
use super::lines::{LineMask, Occupancy};
use super::tables::{step_reach, SQ_BITS};
use super::types::{Color, Move, Piece, PieceId, Role, Square};
use super::zobrist::{BLACK_TO_MOVE, PIECE_KEYS};

/// Board cell value for an empty point.
pub(crate) const EMPTY: u8 = 0;
/// `squares` value for a piece that has been captured or an unused id.
pub(crate) const OFF: u8 = 0xFF;

/// Cell code for a piece: `piece.index() + 1` (1..=14).
pub(crate) const fn code(p: Piece) -> u8 {
    p.index() as u8 + 1
}

pub(crate) const fn code_of(color: Color, role: Role) -> u8 {
    (color as u8) * 7 + role as u8 + 1
}

/// The piece of every cell code (index 0, an empty cell, is never read).
const PIECES: [Piece; 15] = {
    let roles = Role::ALL;
    let mut t = [Piece {
        color: Color::Red,
        role: Role::General,
    }; 15];
    let mut i = 0;
    while i < 14 {
        t[i + 1] = Piece {
            color: if i < 7 { Color::Red } else { Color::Black },
            role: roles[i % 7],
        };
        i += 1;
    }
    t
};

/// Decode a non-empty cell code.
#[inline]
pub(crate) const fn piece_of_code(c: u8) -> Piece {
    PIECES[c as usize]
}

pub(crate) const fn color_of_code(c: u8) -> Color {
    if c <= 7 {
        Color::Red
    } else {
        Color::Black
    }
}

/// A fixed-capacity list of moves (no position has more than 128 pseudo-legal moves: the bound
/// is 2·17 chariot + 2·17 cannon + 2·8 horse + 5·3 soldier + 2·4 elephant + 4 advisor + 4 general).
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; 128],
    len: usize,
}

impl MoveList {
    pub(crate) fn new() -> MoveList {
        MoveList {
            moves: [Move::new(Square::from_u8(0), Square::from_u8(0)); 128],
            len: 0,
        }
    }

    #[inline]
    pub(super) fn push(&mut self, m: Move) {
        if self.len < self.moves.len() {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    /// Empty the list.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// Keep the moves for which `keep` holds, in their order.
    #[inline]
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut n = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[n] = m;
                n += 1;
            }
        }
        self.len = n;
    }

    /// Exchange two moves of the list.
    #[inline]
    pub(crate) fn swap(&mut self, a: usize, b: usize) {
        self.moves[..self.len].swap(a, b);
    }

    /// The moves as a mutable slice (to reorder them).
    #[inline]
    pub(crate) fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Number of moves.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[must_use]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// Iterate over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// Whether `m` is in the list.
    #[must_use]
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// What a move undid, so it can be taken back.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Undo {
    captured_code: u8,
    captured_id: u8,
    prev_hash: u64,
    prev_halfmoves: u32,
}

/// A legal Xiangqi position: where every piece stands (with an identity that survives moves),
/// the side to move, and the move counters.
///
/// Build one with [`Position::startpos`] or from FEN ([`Position::from_fen`]); play moves with
/// [`Position::play`] (checked) or [`Position::play_unchecked`].
///
/// ```
/// use xiangqi_bot::core::{Position, Move};
/// let mut pos = Position::startpos();
/// assert_eq!(pos.legal_moves().len(), 44);
/// pos.play(Move::parse_iccs("h2e2").unwrap()).unwrap();
/// assert_eq!(pos.to_fen(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
/// ```
#[derive(Clone)]
pub struct Position {
    /// Cell codes (0 = empty, else `piece.index() + 1`).
    pub(crate) board: [u8; 90],
    /// Piece id standing on each point (meaningless where empty).
    pub(crate) ids: [u8; 90],
    /// Square of each piece id, or `OFF`.
    pub(crate) squares: [u8; 32],
    /// Cell code of each id (0 for unused ids).
    pub(crate) kinds: [u8; 32],
    /// Id of each side's general.
    pub(crate) general: [u8; 2],
    pub(crate) turn: Color,
    pub(crate) hash: u64,
    /// Plies since the last capture (FEN's half-move field).
    pub(crate) halfmoves: u32,
    /// FEN's full-move number (starts at 1, grows after Black's ply).
    pub(crate) fullmoves: u32,
    /// Occupancy of every rank and file (for the line tables).
    pub(crate) occ: Occupancy,
    /// The same for Red's pieces alone (Black's are the rest of `occ`).
    pub(crate) red: Occupancy,
    /// The same for each cell code's pieces alone (index 0 unused): which enemy chariot,
    /// cannon or general stands on a line is one mask test.
    pub(crate) code_lines: [Occupancy; 15],
    /// Each cell code's points as a board mask (bit = point; index 0 unused).
    pub(crate) code_bits: [u128; 15],
    /// The step reach ([`step_reach`]) of each piece id from its point, 0 once captured: a
    /// piece whose reach holds no enemy piece has no capture, found with one mask test.
    pub(crate) reach: [u128; 32],
}

impl PartialEq for Position {
    /// Positions are equal when the pieces on all points and the side to move agree (counters and
    /// identities are ignored), as repetition rules need.
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board && self.turn == other.turn
    }
}
impl Eq for Position {}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl Position {
    /// The starting position.
    #[must_use]
    pub fn startpos() -> Position {
        match Position::from_fen(super::fen::START_FEN) {
            Ok(p) => p,
            Err(_) => unreachable!("the start FEN is valid"),
        }
    }

    /// Build from raw cells without validation (the FEN module validates first). Ids are assigned
    /// in square order, Red 0..16 and Black 16..32.
    pub(crate) fn from_cells(
        cells: &[Option<Piece>; 90],
        turn: Color,
        halfmoves: u32,
        fullmoves: u32,
    ) -> Position {
        let mut pos = Position {
            board: [EMPTY; 90],
            ids: [0; 90],
            squares: [OFF; 32],
            kinds: [EMPTY; 32],
            general: [OFF; 2],
            turn,
            hash: 0,
            halfmoves,
            fullmoves,
            occ: Occupancy::default(),
            red: Occupancy::default(),
            code_lines: [Occupancy::default(); 15],
            code_bits: [0; 15],
            reach: [0; 32],
        };
        let mut next = [0u8, 16u8];
        for (sq, cell) in cells.iter().enumerate() {
            if let Some(p) = cell {
                let c = p.color.index();
                let id = next[c];
                if id as usize >= 16 * (c + 1) {
                    continue; // too many pieces: validated earlier, never reached
                }
                next[c] += 1;
                pos.board[sq] = code(*p);
                pos.ids[sq] = id;
                pos.squares[id as usize] = sq as u8;
                pos.kinds[id as usize] = code(*p);
                pos.reach[id as usize] = step_reach(code(*p), sq);
                if p.role == Role::General {
                    pos.general[c] = id;
                }
                pos.hash ^= PIECE_KEYS[p.index()][sq];
                pos.occ.set(sq);
                pos.code_lines[code(*p) as usize].set(sq);
                pos.code_bits[code(*p) as usize] |= SQ_BITS[sq];
                if p.color == Color::Red {
                    pos.red.set(sq);
                }
            }
        }
        if turn == Color::Black {
            pos.hash ^= BLACK_TO_MOVE;
        }
        pos
    }

    /// The occupancy of `side`'s pieces (0 Red, 1 Black) along rank `r` and along file `f`.
    #[inline]
    pub(crate) fn side_lines(&self, side: usize, r: usize, f: usize) -> (LineMask, LineMask) {
        // All ones for Black: Black's pieces are the occupied points that are not Red's.
        let black = 0u16.wrapping_sub(side as u16);
        (
            self.red.ranks[r] ^ (black & self.occ.ranks[r]),
            self.red.files[f] ^ (black & self.occ.files[f]),
        )
    }

    /// The side to move.
    #[must_use]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Zobrist hash of pieces and side to move.
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The zobrist hash the position would have after the pseudo-legal move `m`, without
    /// playing it.
    #[must_use]
    pub fn hash_after(&self, m: Move) -> u64 {
        let from = m.from.index();
        let to = m.to.index();
        let c = self.board[from];
        if c == EMPTY {
            return self.hash;
        }
        let p = (c - 1) as usize;
        let mut h = self.hash ^ PIECE_KEYS[p][from] ^ PIECE_KEYS[p][to] ^ BLACK_TO_MOVE;
        let cap = self.board[to];
        if cap != EMPTY {
            h ^= PIECE_KEYS[(cap - 1) as usize][to];
        }
        h
    }

    /// Plies since the last capture (as in FEN).
    #[must_use]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The full-move number (as in FEN).
    #[must_use]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The piece on `sq`, if any.
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let c = self.board[sq.index()];
        (c != EMPTY).then(|| piece_of_code(c))
    }

    /// The identity of the piece on `sq`, if any.
    #[must_use]
    pub fn id_at(&self, sq: Square) -> Option<PieceId> {
        (self.board[sq.index()] != EMPTY).then(|| PieceId(self.ids[sq.index()]))
    }

    /// Where the piece with identity `id` stands, or `None` once captured.
    #[must_use]
    pub fn square_of(&self, id: PieceId) -> Option<Square> {
        let s = *self.squares.get(id.index())?;
        (s != OFF).then(|| Square::from_u8(s))
    }

    /// The kind of the piece with identity `id` (also after its capture).
    #[must_use]
    pub fn piece_of(&self, id: PieceId) -> Option<Piece> {
        let c = *self.kinds.get(id.index())?;
        (c != EMPTY).then(|| piece_of_code(c))
    }

    /// Where `color`'s general stands.
    #[must_use]
    pub fn general_square(&self, color: Color) -> Square {
        Square::from_u8(self.squares[self.general[color.index()] as usize])
    }

    /// All pieces on the board with their points and identities, in square order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece, PieceId)> + '_ {
        Square::all().filter_map(move |sq| {
            let c = self.board[sq.index()];
            (c != EMPTY).then(|| (sq, piece_of_code(c), PieceId(self.ids[sq.index()])))
        })
    }

    /// How many pieces of `color` and `role` are on the board.
    #[must_use]
    pub fn count(&self, color: Color, role: Role) -> usize {
        self.code_bits[code_of(color, role) as usize].count_ones() as usize
    }

    /// The points of `color`'s pieces, as one board mask.
    #[inline]
    pub(crate) fn side_bits(&self, color: Color) -> u128 {
        let lo = code_of(color, Role::General) as usize;
        self.code_bits[lo..lo + 7].iter().fold(0, |a, b| a | b)
    }

    /// Whether `color`'s general is attacked (including by the facing general).
    #[must_use]
    pub fn in_check_color(&self, color: Color) -> bool {
        let k = self.squares[self.general[color.index()] as usize] as usize;
        self.general_hit(&self.occ, k, color, NO_POINT)
    }

    /// Whether the side to move is in check.
    #[must_use]
    pub fn is_check(&self) -> bool {
        self.in_check_color(self.turn)
    }

    /// The enemy pieces giving check to the side to move (the facing general included).
    #[must_use]
    pub fn checkers(&self) -> Vec<Square> {
        let k = self.general_square(self.turn);
        self.attackers(k, self.turn.other(), true)
    }

    /// Whether `m` is a pseudo-legal move for the side to move that does not leave its general
    /// attacked or facing the other general.
    #[must_use]
    pub fn is_legal(&self, m: Move) -> bool {
        self.is_pseudo_legal(m) && self.safe_after(m)
    }

    /// All legal moves of the side to move.
    #[must_use]
    pub fn legal_moves(&self) -> MoveList {
        let mut out = MoveList::new();
        self.gen_legal::<{ super::movegen::GEN_ALL }>(&mut out);
        out
    }

    /// Number of legal moves (cheaper than building the list when only the count is wanted).
    #[must_use]
    pub fn count_legal_moves(&self) -> usize {
        self.count_legal()
    }

    /// The same board with `color` to move (for "what could this side do now" questions, such
    /// as the arbiter's threat analysis). Counters are kept.
    #[must_use]
    pub fn with_turn(&self, color: Color) -> Position {
        let mut p = self.clone();
        if p.turn != color {
            p.turn = color;
            p.hash ^= BLACK_TO_MOVE;
        }
        p
    }

    /// Pseudo-legal moves (movement rules only, self-check not tested) of the piece on `from`,
    /// whichever side it belongs to.
    #[must_use]
    pub fn piece_moves(&self, from: Square) -> MoveList {
        let mut list = MoveList::new();
        let c = self.board[from.index()];
        if c != EMPTY {
            self.gen_piece(from.index(), c, &mut list);
        }
        list
    }

    /// Whether the side to move has any legal move.
    #[must_use]
    pub fn has_legal_move(&self) -> bool {
        !self.legal_moves().is_empty()
    }

    /// Whether the mover's general is safe after `m` (a pseudo-legal move of the piece on
    /// `m.from`, of either side): not attacked and not facing the other general.
    #[must_use]
    pub fn safe_after(&self, m: Move) -> bool {
        let c = self.board[m.from.index()];
        if c == EMPTY {
            return false;
        }
        let us = color_of_code(c);
        let mut occ = self.occ;
        occ.clear(m.from.index());
        occ.set(m.to.index());
        let k = if c == code_of(us, Role::General) {
            m.to.index()
        } else {
            self.squares[self.general[us.index()] as usize] as usize
        };
        // Whatever stood on the destination is taken (a pseudo-legal move never lands on a
        // piece of its own side).
        !self.general_hit(&occ, k, us, m.to.index())
    }

    /// Pseudo-legal moves of the piece with cell code `c` on `from`.
    pub(crate) fn gen_piece(&self, from: usize, c: u8, list: &mut MoveList) {
        self.gen_piece_into::<{ super::movegen::GEN_ALL }>(from, c, None, list);
    }

    /// Play a move known to be legal (or at least pseudo-legal, for search); returns what is
    /// needed to take it back.
    pub(crate) fn make(&mut self, m: Move) -> Undo {
        self.make_inline(m)
    }

    /// [`Position::make`] written out in place, for the search's one call of it at every
    /// node.
    #[inline(always)]
    pub(crate) fn make_inline(&mut self, m: Move) -> Undo {
        let from = m.from.index();
        let to = m.to.index();
        let c = self.board[from];
        let id = self.ids[from];
        let cap = self.board[to];
        let undo = Undo {
            captured_code: cap,
            captured_id: self.ids[to],
            prev_hash: self.hash,
            prev_halfmoves: self.halfmoves,
        };
        let p = (c - 1) as usize;
        let mut h = self.hash ^ PIECE_KEYS[p][from] ^ PIECE_KEYS[p][to] ^ BLACK_TO_MOVE;
        if cap != EMPTY {
            h ^= PIECE_KEYS[(cap - 1) as usize][to];
            self.squares[self.ids[to] as usize] = OFF;
            self.reach[self.ids[to] as usize] = 0;
            self.halfmoves = 0;
            self.code_lines[cap as usize].clear(to);
            self.code_bits[cap as usize] ^= SQ_BITS[to];
        } else {
            self.halfmoves += 1;
        }
        self.board[to] = c;
        self.ids[to] = id;
        self.board[from] = EMPTY;
        self.squares[id as usize] = to as u8;
        self.reach[id as usize] = step_reach(c, to);
        self.occ.clear(from);
        self.occ.set(to);
        self.code_lines[c as usize].clear(from);
        self.code_lines[c as usize].set(to);
        self.code_bits[c as usize] ^= SQ_BITS[from] | SQ_BITS[to];
        if c <= 7 {
            self.red.clear(from);
            self.red.set(to);
        } else if cap != EMPTY {
            self.red.clear(to);
        }
        self.hash = h;
        if self.turn == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = self.turn.other();
        undo
    }

    /// Pass the turn (the search's null move); [`Position::unmake_null`] takes it back.
    pub(crate) fn make_null(&mut self) {
        self.turn = self.turn.other();
        self.hash ^= BLACK_TO_MOVE;
    }

    /// Take back [`Position::make_null`].
    pub(crate) fn unmake_null(&mut self) {
        self.make_null();
    }

    /// Take back `m`, made with [`Position::make`].
    pub(crate) fn unmake(&mut self, m: Move, u: Undo) {
        self.unmake_inline(m, u);
    }

    /// [`Position::unmake`] written out in place (see [`Position::make_inline`]).
    #[inline(always)]
    pub(crate) fn unmake_inline(&mut self, m: Move, u: Undo) {
        let from = m.from.index();
        let to = m.to.index();
        self.turn = self.turn.other();
        if self.turn == Color::Black {
            self.fullmoves -= 1;
        }
        let id = self.ids[to];
        let c = self.board[to];
        self.board[from] = c;
        self.ids[from] = id;
        self.code_lines[c as usize].clear(to);
        self.code_lines[c as usize].set(from);
        self.code_bits[c as usize] ^= SQ_BITS[from] | SQ_BITS[to];
        self.squares[id as usize] = from as u8;
        self.reach[id as usize] = step_reach(c, from);
        self.board[to] = u.captured_code;
        self.occ.set(from);
        if self.board[from] <= 7 {
            self.red.set(from);
            self.red.clear(to);
        } else if u.captured_code != EMPTY {
            self.red.set(to);
        }
        if u.captured_code != EMPTY {
            self.ids[to] = u.captured_id;
            self.squares[u.captured_id as usize] = to as u8;
            self.reach[u.captured_id as usize] = step_reach(u.captured_code, to);
            self.code_lines[u.captured_code as usize].set(to);
            self.code_bits[u.captured_code as usize] ^= SQ_BITS[to];
        } else {
            self.occ.clear(to);
        }
        self.hash = u.prev_hash;
        self.halfmoves = u.prev_halfmoves;
    }

    /// Play `m` if it is legal; otherwise leave the position unchanged and say why not.
    ///
    /// # Errors
    /// [`super::IllegalMove`] with the precise reason (no piece, blocked leg, self-check, ...).
    pub fn play(&mut self, m: Move) -> Result<(), super::IllegalMove> {
        self.explain_illegal(m)?;
        self.make(m);
        Ok(())
    }

    /// Play `m` without checking it. The caller guarantees it is one of [`Position::legal_moves`].
    pub fn play_unchecked(&mut self, m: Move) {
        self.make(m);
    }

    /// A copy of the position after the legal move `m`.
    #[must_use]
    pub fn after(&self, m: Move) -> Position {
        let mut p = self.clone();
        p.make(m);
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_has_44_moves_and_no_check() {
        let p = Position::startpos();
        assert_eq!(p.legal_moves().len(), 44);
        assert!(!p.is_check());
    }

    #[test]
    fn make_and_unmake_restore_everything() {
        let mut p = Position::startpos();
        let before = p.clone();
        for &m in p.clone().legal_moves().iter() {
            let u = p.make(m);
            p.unmake(m, u);
            assert_eq!(p.board, before.board);
            for sq in 0..90 {
                if p.board[sq] != EMPTY {
                    assert_eq!(p.ids[sq], before.ids[sq]);
                }
            }
            assert_eq!(p.squares, before.squares);
            assert_eq!(p.reach, before.reach);
            assert_eq!(p.hash, before.hash);
        }
    }

    /// The occupancies `(all, Red's)` counted from the board; the occupancies and masks of
    /// each cell code are checked against the board too.
    fn counted(p: &Position) -> (Occupancy, Occupancy) {
        let (mut all, mut red) = (Occupancy::default(), Occupancy::default());
        let mut by_code = [Occupancy::default(); 15];
        let mut bits = [0u128; 15];
        for (sq, &c) in p.board.iter().enumerate() {
            if c != EMPTY {
                all.set(sq);
                by_code[c as usize].set(sq);
                bits[c as usize] |= 1u128 << sq;
                if color_of_code(c) == Color::Red {
                    red.set(sq);
                }
            }
        }
        assert_eq!(p.code_lines, by_code, "each code's lines follow the board");
        assert_eq!(p.code_bits, bits, "each code's points follow the board");
        for id in 0..32 {
            let s = p.squares[id];
            let reach = if s == OFF {
                0
            } else {
                step_reach(p.kinds[id], s as usize)
            };
            assert_eq!(p.reach[id], reach, "the reach of piece {id} follows it");
        }
        (all, red)
    }

    #[test]
    fn occupancies_follow_moves_and_captures_both_ways() {
        // A walk through captures of both sides (each ply takes when it can), every legal move
        // of each position made and taken back on the way.
        let mut p =
            Position::from_fen("r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R b")
                .unwrap();
        for _ in 0..40 {
            assert_eq!((p.occ, p.red), counted(&p));
            let moves = p.legal_moves();
            for &m in moves.iter() {
                let u = p.make(m);
                assert_eq!((p.occ, p.red), counted(&p), "{m}");
                for side in 0..2 {
                    for sq in [0, 40, 89] {
                        let (r, f) = (sq / 9, sq % 9);
                        let (own_r, own_f) = p.side_lines(side, r, f);
                        for x in 0..9 {
                            let c = p.board[r * 9 + x];
                            let mine = c != EMPTY && color_of_code(c).index() == side;
                            assert_eq!(own_r & (1 << x) != 0, mine);
                        }
                        for y in 0..10 {
                            let c = p.board[y * 9 + f];
                            let mine = c != EMPTY && color_of_code(c).index() == side;
                            assert_eq!(own_f & (1 << y) != 0, mine);
                        }
                    }
                }
                p.unmake(m, u);
                assert_eq!((p.occ, p.red), counted(&p), "{m} taken back");
            }
            let Some(&m) = moves
                .iter()
                .find(|m| p.board[m.to.index()] != EMPTY)
                .or_else(|| moves.iter().nth(7 % moves.len().max(1)))
            else {
                break;
            };
            p.make(m);
        }
    }

    #[test]
    fn identities_follow_the_pieces() {
        let mut p = Position::startpos();
        let cannon = p.id_at(Square::parse("h2").unwrap()).unwrap();
        p.play(Move::parse_iccs("h2e2").unwrap()).unwrap();
        assert_eq!(p.square_of(cannon), Square::parse("e2"));
    }
}
