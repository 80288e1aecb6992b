//! The small vocabulary of the game: colours, roles, pieces, squares.

use std::fmt;

/// One of the two sides. Red moves first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Red (also called White; Đỏ/Trắng; 红/紅). Its back rank is rank 0.
    Red = 0,
    /// Black (Đen/Xanh; 黑). Its back rank is rank 9.
    Black = 1,
}

impl Color {
    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// The other side.
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for Red, 1 for Black: an index into per-colour tables.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether a rank lies on this colour's own side of the river.
    #[must_use]
    pub const fn owns_rank(self, rank: u8) -> bool {
        match self {
            Color::Red => rank <= 4,
            Color::Black => rank >= 5,
        }
    }

    /// The rank delta of one step forward for this colour.
    #[must_use]
    pub const fn forward(self) -> i8 {
        match self {
            Color::Red => 1,
            Color::Black => -1,
        }
    }

    /// A lower-case English name (`red`, `black`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }
}

/// The seven kinds of piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// General (King; Tướng; 帥/將).
    General = 0,
    /// Advisor (Guard; Sĩ; 仕/士).
    Advisor = 1,
    /// Elephant (Minister; Tượng; 相/象).
    Elephant = 2,
    /// Horse (Knight; Mã; 傌/馬).
    Horse = 3,
    /// Chariot (Rook; Xe; 俥/車).
    Chariot = 4,
    /// Cannon (Pháo; 炮/砲).
    Cannon = 5,
    /// Soldier (Pawn; Tốt/Binh; 兵/卒).
    Soldier = 6,
}

impl Role {
    /// All roles in their canonical order.
    pub const ALL: [Role; 7] = [
        Role::General,
        Role::Advisor,
        Role::Elephant,
        Role::Horse,
        Role::Chariot,
        Role::Cannon,
        Role::Soldier,
    ];

    /// How many of this role a side starts with (and may have at most).
    #[must_use]
    pub const fn max_count(self) -> u8 {
        match self {
            Role::General => 1,
            Role::Soldier => 5,
            _ => 2,
        }
    }

    /// The upper-case FEN letter (Red's letter): `K A B N R C P`.
    #[must_use]
    pub const fn fen_char(self) -> char {
        match self {
            Role::General => 'K',
            Role::Advisor => 'A',
            Role::Elephant => 'B',
            Role::Horse => 'N',
            Role::Chariot => 'R',
            Role::Cannon => 'C',
            Role::Soldier => 'P',
        }
    }

    /// The role for an upper-case FEN letter, accepting the aliases `E` and `H`.
    #[must_use]
    pub const fn from_fen_char(c: char) -> Option<Role> {
        match c {
            'K' => Some(Role::General),
            'A' => Some(Role::Advisor),
            'B' | 'E' => Some(Role::Elephant),
            'N' | 'H' => Some(Role::Horse),
            'R' => Some(Role::Chariot),
            'C' => Some(Role::Cannon),
            'P' => Some(Role::Soldier),
            _ => None,
        }
    }

    /// A lower-case English name (`general`, `advisor`, ...).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Role::General => "general",
            Role::Advisor => "advisor",
            Role::Elephant => "elephant",
            Role::Horse => "horse",
            Role::Chariot => "chariot",
            Role::Cannon => "cannon",
            Role::Soldier => "soldier",
        }
    }

    /// Index 0..7, for tables.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// A coloured piece kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Its kind.
    pub role: Role,
}

impl Piece {
    /// A piece of `color` and `role`.
    #[must_use]
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// The FEN letter: upper case for Red, lower case for Black.
    #[must_use]
    pub const fn fen_char(self) -> char {
        let c = self.role.fen_char();
        match self.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece for a FEN letter (aliases `E`/`H` accepted in both cases).
    #[must_use]
    pub const fn from_fen_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        match Role::from_fen_char(c.to_ascii_uppercase()) {
            Some(role) => Some(Piece { color, role }),
            None => None,
        }
    }

    /// Dense index 0..14 (colour-major), for zobrist keys and sprites.
    #[must_use]
    pub const fn index(self) -> usize {
        self.color.index() * 7 + self.role.index()
    }
}

/// One of the 90 points of the board: file `a`–`i` from Red's left, rank `0`–`9` from Red's back rank.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of points on the board.
    pub const COUNT: usize = 90;

    /// The point at `file` (0 = a) and `rank` (0 = Red's back rank), if on the board.
    #[must_use]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 9 && rank < 10 {
            Some(Square(rank * 9 + file))
        } else {
            None
        }
    }

    /// The point with dense index `i` (0..90), if valid.
    #[must_use]
    pub const fn from_index(i: usize) -> Option<Square> {
        if i < 90 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// Internal constructor for indices known to be valid.
    pub(crate) const fn from_u8(i: u8) -> Square {
        debug_assert!(i < 90);
        Square(i)
    }

    /// Dense index 0..90 (`rank * 9 + file`).
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..9 (0 = `a`, Red's left).
    #[must_use]
    pub const fn file(self) -> u8 {
        self.0 % 9
    }

    /// Rank 0..10 (0 = Red's back rank).
    #[must_use]
    pub const fn rank(self) -> u8 {
        self.0 / 9
    }

    /// The point displaced by (`df`, `dr`), if on the board.
    #[must_use]
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f < 0 || f > 8 || r < 0 || r > 9 {
            None
        } else {
            Some(Square((r * 9 + f) as u8))
        }
    }

    /// Parse an ICCS point such as `e2` (case-insensitive).
    #[must_use]
    pub fn parse(s: &str) -> Option<Square> {
        let mut it = s.chars();
        let f = it.next()?.to_ascii_lowercase();
        let r = it.next()?;
        if it.next().is_some() {
            return None;
        }
        let file = (f as u32).checked_sub('a' as u32)?;
        let rank = r.to_digit(10)?;
        if file > 8 {
            return None;
        }
        Square::new(file as u8, rank as u8)
    }

    /// Whether the point is inside either palace.
    #[must_use]
    pub const fn in_palace(self) -> bool {
        let f = self.file();
        let r = self.rank();
        f >= 3 && f <= 5 && (r <= 2 || r >= 7)
    }

    /// Whether the point is inside `color`'s palace.
    #[must_use]
    pub const fn in_palace_of(self, color: Color) -> bool {
        let f = self.file();
        let r = self.rank();
        f >= 3
            && f <= 5
            && match color {
                Color::Red => r <= 2,
                Color::Black => r >= 7,
            }
    }

    /// Iterate over all 90 points in index order (a0, b0, ..., i9).
    pub fn all() -> impl Iterator<Item = Square> {
        (0u8..90).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A move from one point to another (captures are implied by the target's occupant).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Where the moving piece stands.
    pub from: Square,
    /// Where it goes.
    pub to: Square,
}

impl Move {
    /// A move from `from` to `to`.
    #[must_use]
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// Parse plain ICCS (`h2e2`, `h2-e2`, upper or lower case). Syntax only.
    #[must_use]
    pub fn parse_iccs(s: &str) -> Option<Move> {
        let s = s.trim();
        if !s.is_ascii() {
            return None;
        }
        let (a, b) = match s.len() {
            4 => (&s[0..2], &s[2..4]),
            5 if s.as_bytes()[2] == b'-' => (&s[0..2], &s[3..5]),
            _ => return None,
        };
        Some(Move::new(Square::parse(a)?, Square::parse(b)?))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A stable identity for a piece within one game: it survives moves, so the arbiter can follow
/// "the same victim" of a chase as it runs. Red's pieces have ids 0..16, Black's 16..32.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceId(pub(crate) u8);

impl PieceId {
    /// The raw id, 0..32.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A value for each colour.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColor<T> {
    /// Red's value.
    pub red: T,
    /// Black's value.
    pub black: T,
}

impl<T> ByColor<T> {
    /// The value for `color`.
    pub fn get(&self, color: Color) -> &T {
        match color {
            Color::Red => &self.red,
            Color::Black => &self.black,
        }
    }

    /// The value for `color`, mutably.
    pub fn get_mut(&mut self, color: Color) -> &mut T {
        match color {
            Color::Red => &mut self.red,
            Color::Black => &mut self.black,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip_through_iccs_names() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("j0"), None);
        assert_eq!(Square::parse("a10"), None);
        assert_eq!(Square::parse(""), None);
    }

    #[test]
    fn iccs_moves_parse_with_and_without_dash() {
        let m = Move::parse_iccs("h2e2").unwrap();
        assert_eq!(m.to_string(), "h2e2");
        assert_eq!(Move::parse_iccs("H2-E2"), Some(m));
        assert_eq!(Move::parse_iccs("h2e"), None);
        assert_eq!(Move::parse_iccs("ĥ2e2"), None);
    }

    #[test]
    fn fen_letters_and_aliases() {
        assert_eq!(
            Piece::from_fen_char('E'),
            Some(Piece::new(Color::Red, Role::Elephant))
        );
        assert_eq!(
            Piece::from_fen_char('h'),
            Some(Piece::new(Color::Black, Role::Horse))
        );
        assert_eq!(Piece::from_fen_char('x'), None);
    }
}
