//! The shape WXF, Chinese and Vietnamese moves share: a *designator* (which piece: `C2`, `C+`,
//! 前炮, `Xt`), a direction and a number. Each notation supplies its tokens and designator forms;
//! this module splits the text and points at the first character that does not fit.
//!
//! The split is not always decidable left to right (WXF `+` and `-` are both front/rear marks and
//! directions), so every token prefix that forms a designator is tried, longest first, and the
//! first that leaves exactly "direction, number" wins. When none does, the error reported is the
//! one that got furthest into the text.

use super::error::Expected;
use super::{Action, Place, RawMove};
use crate::core::Role;

/// A syntax error: the character index and what was expected there.
pub(crate) type SynErr = (usize, Expected);

/// A front/rear mark as written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Mark {
    /// WXF `+`.
    Plus,
    /// WXF `-`.
    Minus,
    /// 前, `t`.
    Front,
    /// 中, `g`.
    Middle,
    /// 后/後, `s`.
    Rear,
}

impl Mark {
    /// The place a single mark names (WXF signs keep their count-dependent meaning).
    pub(crate) fn place(self) -> Place {
        match self {
            Mark::Plus => Place::Plus,
            Mark::Minus => Place::Minus,
            Mark::Front => Place::Front,
            Mark::Middle => Place::Middle,
            Mark::Rear => Place::Rear,
        }
    }
}

/// One token of a designator.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    /// A piece letter or name.
    Piece(Role),
    /// A number 1–9 (a file, or an ordinal).
    Num(u8),
    /// A front/rear mark.
    Mark(Mark),
}

/// Which piece a text names.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Designator {
    pub role: Role,
    pub file: Option<u8>,
    pub place: Option<Place>,
    pub middle_by_file: bool,
}

impl Designator {
    /// The piece on a given file.
    pub(crate) fn on_file(role: Role, file: u8) -> Designator {
        Designator {
            role,
            file: Some(file),
            place: None,
            middle_by_file: false,
        }
    }

    /// One of several pieces, on a given file or on whichever file has several.
    pub(crate) fn placed(role: Role, file: Option<u8>, place: Place) -> Designator {
        Designator {
            role,
            file,
            place: Some(place),
            middle_by_file: false,
        }
    }
}

/// What a notation contributes to the shared parser.
pub(crate) trait Grammar {
    /// The token starting at character `i`, and its length in characters.
    fn token(&self, chars: &[char], i: usize) -> Option<(Tok, usize)>;
    /// The designator a complete token sequence forms, if it forms one.
    fn designator(&self, toks: &[Tok]) -> Option<Designator>;
    /// The direction a character stands for.
    fn action(&self, c: char) -> Option<Action>;
    /// The number 1–9 a character stands for.
    fn number(&self, c: char) -> Option<u8>;
}

/// Parse a whole (normalised) move text.
pub(crate) fn parse<G: Grammar>(g: &G, chars: &[char]) -> Result<RawMove, SynErr> {
    let mut toks: Vec<(Tok, usize)> = Vec::new();
    let mut end = 0;
    while end < chars.len() {
        match g.token(chars, end) {
            Some((t, len)) if len > 0 => {
                toks.push((t, end));
                end += len;
            }
            _ => break,
        }
    }
    let kinds: Vec<Tok> = toks.iter().map(|&(t, _)| t).collect();
    let mut furthest: Option<SynErr> = None;
    for k in (1..=toks.len()).rev() {
        let Some(d) = g.designator(&kinds[..k]) else {
            continue;
        };
        let at = toks.get(k).map_or(end, |&(_, i)| i);
        match tail(g, chars, at) {
            Ok((action, number)) => {
                return Ok(RawMove {
                    role: d.role,
                    file: d.file,
                    place: d.place,
                    middle_by_file: d.middle_by_file,
                    action,
                    number,
                })
            }
            Err(e) => {
                if furthest.is_none_or(|f| e.0 >= f.0) {
                    furthest = Some(e);
                }
            }
        }
    }
    if let Some(e) = furthest {
        return Err(e);
    }
    match toks.as_slice() {
        [] => Err((0, Expected::Piece)),
        [_] => Err((end, Expected::File)),
        [_, (_, second), ..] => Err((*second, Expected::File)),
    }
}

/// Direction, number, end of text, starting at character `at`.
fn tail<G: Grammar>(g: &G, chars: &[char], at: usize) -> Result<(Action, u8), SynErr> {
    let action = chars
        .get(at)
        .and_then(|&c| g.action(c))
        .ok_or((at, Expected::Action))?;
    let number = chars
        .get(at + 1)
        .and_then(|&c| g.number(c))
        .ok_or((at + 1, Expected::Number))?;
    if at + 2 < chars.len() {
        return Err((at + 2, Expected::End));
    }
    Ok((action, number))
}

/// An ASCII digit 1–9.
pub(crate) fn digit(c: char) -> Option<u8> {
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        _ => None,
    }
}
