//! Move notations players type: ICCS, WXF, Chinese and Vietnamese.
//!
//! Reading a move goes in two steps, as in shakmaty: the text is first *parsed* into a raw,
//! position-free description ([`ParsedMove`]: coordinates, or "the cannon on file 2 moves sideways
//! to file 5"), which can only fail with a [`SyntaxError`] pointing at the character that is wrong;
//! then the description is *resolved* against the position before the move, which can fail because
//! no such piece stands there, because several pieces fit and the text does not say which, or
//! because the move breaks a rule (the core's [`IllegalMove`](crate::core::IllegalMove): a blocked
//! horse leg, a general left in check, generals facing). [`format_move`] writes a move back, and what it writes always reads
//! back to the same move.
//!
//! # Files and numbers
//!
//! ICCS names points: files `a`–`i` from Red's left, ranks `0`–`9` from Red's back rank
//! (`h2e2`, `h2-e2`, `H2-E2`). The other three notations count files from each player's own right:
//! Red's file 1 is ICCS file `i`, Black's file 1 is ICCS file `a`. A move names the piece and its
//! file, a direction (forward, back, sideways) and a number. Pieces that move diagonally (advisor,
//! elephant, horse) give the file they land on; pieces that move straight (general, chariot,
//! cannon, soldier) give the number of ranks moved when going forward or back, and the file they
//! land on when going sideways.
//!
//! | | pieces | forward | back | sideways | example |
//! |---|---|---|---|---|---|
//! | WXF | `K`/`G` `A` `E`/`B` `R` `H`/`N` `C` `P` | `+` | `-` | `.` or `=` | `C2.5`, `H8+7` |
//! | Chinese | 帅将帥將 仕士 相象 车車俥 马馬傌 炮砲 兵卒 | 进/進 | 退 | 平 | `炮二平五`, `马8进7` |
//! | Vietnamese | `Tg` `S` `T`/`V` `X` `M` `P` `B`/`C`/`Tốt` | `.` | `/` | `-` | `P2-5`, `M8.7` |
//!
//! Letters are read in either case. Chinese files are written 一–九 for Red and digits for Black;
//! both are read for either side, ASCII or full-width (`炮８平５`). Whitespace inside a move is
//! ignored, full-width ASCII is read as ASCII, dashes such as `–` as `-`, and trailing `!`/`?`
//! annotations are dropped. Texts longer than [`MAX_MOVE_TEXT`] characters are refused unread.
//!
//! # Several pieces of a kind on one file
//!
//! Pieces are ranked *front* (nearest the opponent) to *rear*.
//!
//! | on the file | WXF | Chinese | Vietnamese |
//! |---|---|---|---|
//! | 2 | `C+` / `C-` (also `+C`, `-C`) | 前炮 / 后炮 (後) | `Pt` / `Ps` |
//! | 3 soldiers | `P+`, `P3` (the file alone names the middle one), `P-` | 前兵, 中兵, 后兵 | `Bt`, `Bg`, `Bs` |
//! | 4 soldiers | `++`, `P+`, `P-`, `--` | 一兵, 二兵, 三兵, 四兵 | `Bt`, `Bt2`, `Bs2`, `Bs` |
//! | 5 soldiers | `++`, `P+`, `P3`, `P-`, `--` | 一兵 … 五兵 | `Bt`, `Bt2`, `Bg`, `Bs2`, `Bs` |
//! | soldiers in tandem on two files | `3+`, `33`, `3-`, `7+`, `7-` | 前三, 中三, 后三, 前七, 后七 | `B3t`, `B3g`, `B3s`, `B7t`, `B7s` |
//!
//! WXF follows the Asian Xiangqi Federation's published rules for tandem pawns; Chinese follows
//! the usual 前中后 / 一二三四五 practice, naming the file instead of the piece when two files hold
//! tandem soldiers. Vietnamese has no settled rule beyond `t`/`s` (trước/sau); this module adds
//! `g` (giữa, middle), `t2`/`s2` (second from the front/rear) and the file before the mark for two
//! tandem files. Advisors and elephants sharing a file are written with the file alone, as Chinese
//! practice does: the front one can only go back and the rear one only forward, so the move itself
//! says which. On input every form above is accepted, and so are 前/后/`t`/`s` for any count
//! (foremost/rearmost), 一兵…五兵 up to the number on the file, and a plain file when only one of the pieces on it
//! can legally make the move; if several can, the error lists them.
//!
//! The Vietnamese general may omit its file (`Tg.1`, `Tg-4`), and is written that way.
//!
//! # Output
//!
//! [`format_move`] writes WXF with the letters `K A E R H C P` and `.` for sideways; Chinese in
//! simplified script with Red's files as 一–九 and Black's as full-width digits １–９ (so a column of
//! moves lines up); Vietnamese with `Tg S T X M P B`. [`format_chinese`] also writes traditional
//! script (車 馬 砲 將 帥 進 後).

mod chinese;
mod error;
mod grammar;
mod iccs;
mod print;
mod resolve;
mod vietnamese;
mod wxf;

use std::fmt;
use std::str::FromStr;

use crate::core::{Move, Position, Role};

pub(crate) use error::shown_text;
pub use error::{Expected, MoveTextError, SyntaxError, TargetProblem};

/// The longest move text read, in characters (after trimming); longer texts are refused unread.
pub const MAX_MOVE_TEXT: usize = 64;

/// A move notation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// Coordinates: `h2e2`.
    Iccs,
    /// WXF: `C2.5`.
    Wxf,
    /// Chinese: `炮二平五`.
    Chinese,
    /// Vietnamese: `P2-5`.
    Vietnamese,
}

impl Notation {
    /// Every notation, in the order [`read_move`] tries them.
    pub const ALL: [Notation; 4] = [
        Notation::Iccs,
        Notation::Wxf,
        Notation::Chinese,
        Notation::Vietnamese,
    ];

    /// The lower-case name: `iccs`, `wxf`, `chinese`, `vietnamese`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Notation::Iccs => "iccs",
            Notation::Wxf => "wxf",
            Notation::Chinese => "chinese",
            Notation::Vietnamese => "vietnamese",
        }
    }

    /// The name as written in prose: `ICCS`, `WXF`, `Chinese`, `Vietnamese`.
    #[must_use]
    pub const fn title(self) -> &'static str {
        match self {
            Notation::Iccs => "ICCS",
            Notation::Wxf => "WXF",
            Notation::Chinese => "Chinese",
            Notation::Vietnamese => "Vietnamese",
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Notation {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "iccs" => Ok(Notation::Iccs),
            "wxf" => Ok(Notation::Wxf),
            "chinese" | "zh" => Ok(Notation::Chinese),
            "vietnamese" | "vi" => Ok(Notation::Vietnamese),
            _ => Err(format!(
                "unknown notation {:?}: use iccs, wxf, chinese (zh) or vietnamese (vi)",
                s.chars().take(32).collect::<String>()
            )),
        }
    }
}

/// The script of Chinese move text.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum ChineseScript {
    /// 简体: 车 马 炮 将 帅 进 后 (the default).
    #[default]
    Simplified,
    /// 繁體: 車 馬 砲 將 帥 進 後.
    Traditional,
}

/// Where a moving piece goes, as the text says it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Toward the opponent (WXF `+`, 进, Vietnamese `.`).
    Forward,
    /// Toward the mover's own back rank (WXF `-`, 退, Vietnamese `/`).
    Back,
    /// Along the rank (WXF `.` or `=`, 平, Vietnamese `-`).
    Sideways,
}

/// Which of several pieces of one kind on one file; "front" is the one nearest the opponent.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// The foremost (前, `t`, WXF `++`).
    Front,
    /// The middle one of three or five (中, `g`).
    Middle,
    /// The rearmost (后/後, `s`, WXF `--`).
    Rear,
    /// The n-th from the front, 1-based (一兵, 二兵, …; Vietnamese `t2`).
    FromFront(u8),
    /// The n-th from the rear, 1-based (Vietnamese `s2`).
    FromRear(u8),
    /// WXF `+`: the front one of two or three, the second from the front of four or five.
    Plus,
    /// WXF `-`: the rear one of two or three, the second from the rear of four or five.
    Minus,
}

impl Place {
    /// The index (0 = front) this place names among `count` pieces, if it names one.
    #[must_use]
    pub fn index(self, count: usize) -> Option<usize> {
        if count < 2 {
            return None;
        }
        match self {
            Place::Front => Some(0),
            Place::Rear => Some(count - 1),
            Place::Middle => (count % 2 == 1).then_some(count / 2),
            Place::FromFront(k) => (1..=count).contains(&(k as usize)).then(|| k as usize - 1),
            Place::FromRear(k) => (1..=count)
                .contains(&(k as usize))
                .then(|| count - k as usize),
            Place::Plus => Some(if count <= 3 { 0 } else { 1 }),
            Place::Minus => Some(if count <= 3 { count - 1 } else { count - 2 }),
        }
    }
}

/// A move in one of the file-counting notations, parsed but not yet resolved against a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RawMove {
    /// The kind of the moving piece.
    pub role: Role,
    /// Its file, 1–9 counted from the mover's right, when the text gives one.
    pub file: Option<u8>,
    /// Which of several on a file, when the text says.
    pub place: Option<Place>,
    /// WXF: a plain file naming three or five soldiers means the middle one.
    pub middle_by_file: bool,
    /// The direction.
    pub action: Action,
    /// Ranks moved (straight movers going forward or back) or the file landed on (1–9).
    pub number: u8,
}

/// A move text after the syntax step.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ParsedMove {
    /// ICCS coordinates.
    Coords(Move),
    /// WXF, Chinese or Vietnamese: which piece, which way, how far.
    Described(RawMove),
}

impl ParsedMove {
    /// Resolve against the position before the move (whose side to move is the mover).
    ///
    /// # Errors
    /// No such piece, several candidates, a target the piece cannot reach, or the core's reason
    /// the move is illegal.
    pub fn resolve(&self, pos: &Position) -> Result<Move, MoveTextError> {
        match self {
            ParsedMove::Coords(m) => {
                pos.explain_illegal(*m).map_err(MoveTextError::Illegal)?;
                Ok(*m)
            }
            ParsedMove::Described(raw) => resolve::resolve(pos, raw),
        }
    }
}

/// A move read by [`read_move`], and the notation that read it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The legal move.
    pub mv: Move,
    /// The notation whose reading gave it (the preferred one when several agree).
    pub notation: Notation,
}

/// Trim and normalise a move text: full-width ASCII to ASCII, dashes to `-`, whitespace and
/// zero-width characters removed, trailing `!`/`?` dropped.
///
/// # Errors
/// [`MoveTextError::Empty`] or [`MoveTextError::TooLong`].
pub fn normalize(text: &str) -> Result<String, MoveTextError> {
    let t = text.trim();
    let len = t.chars().count();
    if len > MAX_MOVE_TEXT {
        return Err(MoveTextError::TooLong { len });
    }
    let mut out: String = t.chars().filter_map(fold_char).collect();
    while out.ends_with(['!', '?']) {
        out.pop();
    }
    if out.is_empty() {
        return Err(MoveTextError::Empty);
    }
    Ok(out)
}

fn fold_char(c: char) -> Option<char> {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0),
        '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{FE58}' | '\u{FE63}' => Some('-'),
        '\u{3002}' => Some('.'),
        '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}' => None,
        c if c.is_whitespace() => None,
        c => Some(c),
    }
}

/// The syntax step alone: read `text` in `notation` without looking at a position.
///
/// # Errors
/// [`MoveTextError::Empty`], [`MoveTextError::TooLong`] or [`MoveTextError::Syntax`].
pub fn parse_text(text: &str, notation: Notation) -> Result<ParsedMove, MoveTextError> {
    let norm = normalize(text)?;
    parse_normalized(&norm, notation)
}

fn parse_normalized(norm: &str, notation: Notation) -> Result<ParsedMove, MoveTextError> {
    let chars: Vec<char> = norm.chars().collect();
    let result = match notation {
        Notation::Iccs => iccs::parse(&chars).map(ParsedMove::Coords),
        Notation::Wxf => wxf::parse(&chars).map(ParsedMove::Described),
        Notation::Chinese => chinese::parse(&chars).map(ParsedMove::Described),
        Notation::Vietnamese => vietnamese::parse(&chars).map(ParsedMove::Described),
    };
    result.map_err(|(at, expected)| {
        MoveTextError::Syntax(SyntaxError {
            notation,
            text: norm.to_string(),
            at,
            found: chars.get(at).copied(),
            expected,
        })
    })
}

/// Read `text` strictly as `notation` and resolve it against `pos` (the position before the move).
///
/// # Errors
/// [`MoveTextError`]: what in the text is wrong, or why the move it describes cannot be played.
///
/// ```
/// use xiangqi_bot::core::Position;
/// use xiangqi_bot::notation::{parse_move, Notation};
/// let pos = Position::startpos();
/// let m = parse_move(&pos, "炮二平五", Notation::Chinese).unwrap();
/// assert_eq!(m.to_string(), "h2e2");
/// assert_eq!(parse_move(&pos, "C2.5", Notation::Wxf), Ok(m));
/// assert!(parse_move(&pos, "C2.5", Notation::Vietnamese).is_err()); // no soldier on file 2
/// ```
pub fn parse_move(pos: &Position, text: &str, notation: Notation) -> Result<Move, MoveTextError> {
    parse_text(text, notation)?.resolve(pos)
}

/// Read `text` in every notation and keep the legal readings.
///
/// Returns the move when all legal readings agree (with the notation that read it, `preferred`
/// when it is among them). When readings give different moves the error lists them
/// ([`MoveTextError::Ambiguous`]); nothing is guessed. When none is legal, the error is the
/// preferred notation's if the text is well-formed there, else the most specific error among the
/// notations that could read the text, else the preferred notation's syntax error.
///
/// # Errors
/// See above.
///
/// ```
/// use xiangqi_bot::core::Position;
/// use xiangqi_bot::notation::{read_move, Notation};
/// let r = read_move(&Position::startpos(), "P2-5", Notation::Iccs).unwrap();
/// assert_eq!((r.mv.to_string(), r.notation), ("h2e2".to_string(), Notation::Vietnamese));
/// ```
pub fn read_move(
    pos: &Position,
    text: &str,
    preferred: Notation,
) -> Result<Reading, MoveTextError> {
    let norm = normalize(text)?;
    let mut readings: Vec<(Notation, Move)> = Vec::new();
    let mut failures: Vec<(Notation, MoveTextError)> = Vec::new();
    let mut piece_ambiguity = None;
    for notation in Notation::ALL {
        match parse_normalized(&norm, notation).and_then(|p| p.resolve(pos)) {
            Ok(m) => readings.push((notation, m)),
            Err(MoveTextError::AmbiguousPiece { piece, file, moves }) => {
                readings.extend(moves.iter().map(|&m| (notation, m)));
                piece_ambiguity = Some(MoveTextError::AmbiguousPiece { piece, file, moves });
            }
            Err(e) => failures.push((notation, e)),
        }
    }
    let mut distinct: Vec<Move> = readings.iter().map(|&(_, m)| m).collect();
    distinct.sort();
    distinct.dedup();
    match distinct.as_slice() {
        [] => {}
        [mv] => {
            let notation = if readings.contains(&(preferred, *mv)) {
                preferred
            } else {
                readings[0].0
            };
            return Ok(Reading { mv: *mv, notation });
        }
        _ => {
            let one_notation = readings.iter().all(|&(n, _)| n == readings[0].0);
            return Err(match piece_ambiguity {
                Some(e) if one_notation => e,
                _ => MoveTextError::Ambiguous {
                    candidates: readings,
                },
            });
        }
    }
    // No legal reading. Every notation failed, so `failures` holds all four, in `Notation::ALL`
    // order: the preferred notation's error if it got past the syntax step, else the most
    // specific error that did (the first on ties), else the preferred notation's syntax error.
    let mut preferred_error = MoveTextError::Empty;
    let mut best: Option<MoveTextError> = None;
    for (notation, err) in failures {
        if notation == preferred {
            if !err.is_syntax() {
                return Err(err);
            }
            preferred_error = err;
        } else if !err.is_syntax()
            && best
                .as_ref()
                .is_none_or(|b| err.specificity() > b.specificity())
        {
            best = Some(err);
        }
    }
    Err(best.unwrap_or(preferred_error))
}

/// Write `m` (a legal move in `pos`, the position before it) in `notation`.
///
/// Chinese is written in simplified script; see [`format_chinese`] for traditional. A move with
/// no piece on its from-point is written in ICCS whatever the notation.
#[must_use]
pub fn format_move(pos: &Position, m: Move, notation: Notation) -> String {
    match notation {
        Notation::Iccs => m.to_string(),
        Notation::Chinese => format_chinese(pos, m, ChineseScript::Simplified),
        Notation::Wxf | Notation::Vietnamese => match print::describe(pos, m) {
            Some(d) if notation == Notation::Wxf => wxf::write(&d),
            Some(d) => vietnamese::write(&d),
            None => m.to_string(),
        },
    }
}

/// Write `m` in Chinese notation in the given script.
#[must_use]
pub fn format_chinese(pos: &Position, m: Move, script: ChineseScript) -> String {
    match print::describe(pos, m) {
        Some(d) => chinese::write(&d, script),
        None => m.to_string(),
    }
}

#[cfg(test)]
mod tests;
