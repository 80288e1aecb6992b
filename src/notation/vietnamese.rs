//! Vietnamese notation: `P2-5`, `M8.7`, `X1/1`, `Tg.1`, `Tg-5`, `S5/4`, `B2-1`, `Pt.1`.
//!
//! Letters (either case): `Tg` general (tướng; its file may be omitted), `S` advisor (sĩ), `T` or
//! `V` elephant (tượng, voi), `X` chariot (xe), `M` horse (mã), `P` cannon (pháo), `B`, `C` or
//! `Tốt` soldier (binh, chốt, tốt). `.` forward, `/` back, `-` sideways. Several pieces on a file:
//! `t` (trước, front) and `s` (sau, rear) replace the file (`Xt.1`); for soldiers also `g` (giữa,
//! middle of three or five), `t2`/`s2` (second from the front/rear, with four or five), and the
//! file before the mark when two files hold tandem soldiers (`B3t.4`).

use super::grammar::{self, Designator, Grammar, Mark, SynErr, Tok};
use super::print::{Described, Who};
use super::{Action, Place, RawMove};
use crate::core::Role;

struct Vietnamese;

fn lower(chars: &[char], i: usize) -> Option<char> {
    chars.get(i).map(|&c| c.to_lowercase().next().unwrap_or(c))
}

fn is_o(c: char) -> bool {
    matches!(
        c,
        'o' | 'ó' | 'ò' | 'ỏ' | 'õ' | 'ọ' | 'ô' | 'ố' | 'ồ' | 'ổ' | 'ỗ' | 'ộ'
    )
}

fn combining(c: char) -> bool {
    ('\u{0300}'..='\u{036F}').contains(&c)
}

/// The piece word at the start of the text, and its length in characters.
fn piece(chars: &[char]) -> Option<(Role, usize)> {
    let first = lower(chars, 0)?;
    if first == 't' {
        match lower(chars, 1) {
            Some('g') => return Some((Role::General, 2)),
            Some(o) if is_o(o) => {
                let mut j = 2;
                while chars.get(j).is_some_and(|&c| combining(c)) {
                    j += 1;
                }
                if lower(chars, j) == Some('t') {
                    return Some((Role::Soldier, j + 1));
                }
            }
            _ => {}
        }
    }
    let role = match first {
        's' => Role::Advisor,
        't' | 'v' => Role::Elephant,
        'x' => Role::Chariot,
        'm' => Role::Horse,
        'p' => Role::Cannon,
        'b' | 'c' => Role::Soldier,
        _ => return None,
    };
    Some((role, 1))
}

impl Grammar for Vietnamese {
    fn token(&self, chars: &[char], i: usize) -> Option<(Tok, usize)> {
        if i == 0 {
            return piece(chars).map(|(role, len)| (Tok::Piece(role), len));
        }
        let tok = match lower(chars, i)? {
            't' => Tok::Mark(Mark::Front),
            'g' => Tok::Mark(Mark::Middle),
            's' => Tok::Mark(Mark::Rear),
            c => Tok::Num(grammar::digit(c)?),
        };
        Some((tok, 1))
    }

    fn designator(&self, toks: &[Tok]) -> Option<Designator> {
        use Tok::{Mark as M, Num as N, Piece as P};
        Some(match *toks {
            [P(Role::General)] => Designator {
                role: Role::General,
                file: None,
                place: None,
                middle_by_file: false,
            },
            [P(role), N(file)] => Designator::on_file(role, file),
            [P(role), M(m)] => Designator::placed(role, None, m.place()),
            [P(role), M(Mark::Front), N(k)] if k <= 5 => {
                Designator::placed(role, None, Place::FromFront(k))
            }
            [P(role), M(Mark::Rear), N(k)] if k <= 5 => {
                Designator::placed(role, None, Place::FromRear(k))
            }
            [P(role), N(file), M(m)] => Designator::placed(role, Some(file), m.place()),
            _ => return None,
        })
    }

    fn action(&self, c: char) -> Option<Action> {
        match c {
            '.' => Some(Action::Forward),
            '/' => Some(Action::Back),
            '-' => Some(Action::Sideways),
            _ => None,
        }
    }

    fn number(&self, c: char) -> Option<u8> {
        grammar::digit(c)
    }
}

/// Parse a normalised text.
pub(crate) fn parse(chars: &[char]) -> Result<RawMove, SynErr> {
    grammar::parse(&Vietnamese, chars)
}

fn letter(role: Role) -> &'static str {
    match role {
        Role::General => "Tg",
        Role::Advisor => "S",
        Role::Elephant => "T",
        Role::Horse => "M",
        Role::Chariot => "X",
        Role::Cannon => "P",
        Role::Soldier => "B",
    }
}

fn mark(index: usize, count: usize) -> &'static str {
    match index {
        0 => "t",
        i if i + 1 == count => "s",
        1 if count >= 4 => "t2",
        i if count >= 4 && i + 2 == count => "s2",
        _ => "g",
    }
}

/// Write a described move.
pub(crate) fn write(d: &Described) -> String {
    let l = letter(d.role);
    let who = match d.who {
        Who::File if d.role == Role::General => l.to_string(),
        Who::File => format!("{l}{}", d.file),
        Who::Place { index, count } => format!("{l}{}", mark(index, count)),
        Who::FileAndPlace { index, count } => format!("{l}{}{}", d.file, mark(index, count)),
    };
    let action = match d.action {
        Action::Forward => '.',
        Action::Back => '/',
        Action::Sideways => '-',
    };
    format!("{who}{action}{}", d.number)
}

#[cfg(test)]
mod tests {
    use crate::core::Position;
    use crate::notation::tests::{check_reads, mv, TANDEM};
    use crate::notation::{format_move, parse_move, MoveTextError, Notation};

    fn check(fen: &str, text: &str, iccs: &str) {
        check_reads(Notation::Vietnamese, fen, text, iccs);
    }

    const START: &str = crate::core::START_FEN;
    /// Red general d0 with an advisor on e1 screening the e file; a red soldier on h6.
    const PALACE: &str = "4k4/9/9/7P1/9/9/9/9/4A4/3K5 w";

    #[test]
    fn rules_7_examples() {
        check(START, "P2-5", "h2e2");
        check(START, "M8.7", "b0c2");
        check(START, "m8.7", "b0c2");
        check(START, "Tg.1", "e0e1");
        check(START, "Tg5.1", "e0e1");
        check(TANDEM, "X1/1", "i1i0");
        check(TANDEM, "Pt.1", "h5h6");
        check(TANDEM, "Ps-5", "h2e2");
        check(PALACE, "Tg-5", "d0e0");
        check("4k4/9/9/9/9/9/9/9/4A4/4K4 w", "Tg-4", "e0f0");
        check(PALACE, "S5/4", "e1f0");
        check(PALACE, "B2-1", "h6i6");
        check(PALACE, "C2.1", "h6h7");
        check(PALACE, "Tốt2.1", "h6h7");
        check(PALACE, "To\u{302}\u{301}t2.1", "h6h7");
        check(PALACE, "tot2.1", "h6h7");
        let black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b";
        check(black, "M8.7", "h9g7");
        check(black, "Tg.1", "e9e8");
        check(black, "V3.5", "c9e7");
        let chariots = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5CR/9/1NBAKABNR w";
        check(chariots, "Xt/1", "i2i1");
        check(chariots, "Xs.1", "i0i1");
    }

    #[test]
    fn general_moves_name_the_rule() {
        let pos = Position::from_fen(PALACE).unwrap();
        // d0 to e0 is file 5 from Red's right; e1's advisor screens the generals.
        assert_eq!(
            parse_move(&pos, "Tg-5", Notation::Vietnamese),
            Ok(mv("d0e0"))
        );
        let bare = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w").unwrap();
        assert!(parse_move(&bare, "Tg-5", Notation::Vietnamese)
            .unwrap_err()
            .to_string()
            .contains("the two generals would face each other"));
        assert!(parse_move(&bare, "Tg-6", Notation::Vietnamese)
            .unwrap_err()
            .to_string()
            .contains("on its own file"));
        assert!(parse_move(&bare, "Tg-8", Notation::Vietnamese)
            .unwrap_err()
            .to_string()
            .contains("one point along a line"));
    }

    #[test]
    fn many_soldiers() {
        let four = "3k5/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w";
        check(four, "Bt-6", "c8d8");
        check(four, "Bt2-6", "c7d7");
        check(four, "Bs2-6", "c6d6");
        check(four, "Bs-6", "c5d5");
        let pos = Position::from_fen(four).unwrap();
        let texts: Vec<String> = ["c8d8", "c7d7", "c6d6", "c5d5"]
            .iter()
            .map(|m| format_move(&pos, mv(m), Notation::Vietnamese))
            .collect();
        assert_eq!(texts, ["Bt-6", "Bt2-6", "Bs2-6", "Bs-6"]);
        let two = "3k5/2P6/2P3P2/2P3P2/9/9/9/9/9/4K4 w";
        check(two, "B7g-6", "c7d7");
        check(two, "B3t.1", "g7g8");
        let pos = Position::from_fen(two).unwrap();
        assert_eq!(format_move(&pos, mv("g6f6"), Notation::Vietnamese), "B3s-4");
    }

    #[test]
    fn writes_the_canonical_form() {
        let pos = Position::from_fen(TANDEM).unwrap();
        assert_eq!(format_move(&pos, mv("h5h6"), Notation::Vietnamese), "Pt.1");
        assert_eq!(format_move(&pos, mv("i1i0"), Notation::Vietnamese), "X1/1");
        assert_eq!(format_move(&pos, mv("e0e1"), Notation::Vietnamese), "Tg.1");
        assert_eq!(format_move(&pos, mv("g0e2"), Notation::Vietnamese), "T3.5");
    }

    #[test]
    fn typical_mistakes_are_explained() {
        let start = Position::startpos();
        let err = |t: &str| parse_move(&start, t, Notation::Vietnamese).unwrap_err();
        assert!(err("P2=5")
            .to_string()
            .contains("expected a direction: . forward"));
        assert!(err("K2.5").to_string().contains("expected a piece letter"));
        assert!(err("X.1").to_string().contains("expected a file number"));
        assert!(matches!(
            err("B2.1"),
            MoveTextError::NoSuchPiece { file: Some(2), .. }
        ));
        assert!(err("Pt.1").to_string().contains("no file has two"));
        assert!(err("B3.2").to_string().contains("one point at a time"));
        assert!(err("B3-2")
            .to_string()
            .contains("only after crossing the river"));
    }
}
