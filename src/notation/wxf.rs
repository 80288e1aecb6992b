//! WXF notation: `C2.5`, `C2=5`, `H8+7`, `R1-1`, `C+.5`, `+C.5`, `++.4`, `3+.4`.
//!
//! Letters `K`/`G` general, `A` advisor, `E`/`B` elephant, `R` chariot, `H`/`N` horse, `C` cannon,
//! `P` soldier (either case); `+` forward, `-` back, `.` or `=` sideways. Tandem pieces replace the
//! file by `+` (front) or `-` (rear), before or after the letter. Tandem soldiers follow the AXF
//! rules: of three on a file the middle one is named by the plain file (`P3.4`); of four or five,
//! `++` and `--` are the foremost and rearmost and `P+`/`P-` the second from each end; when two
//! files hold tandem soldiers the file replaces the letter (`3+.4`, `33.4`, `3-.4`).

use super::grammar::{self, Designator, Grammar, Mark, SynErr, Tok};
use super::print::{Described, Who};
use super::{Action, Place, RawMove};
use crate::core::Role;

struct Wxf;

impl Grammar for Wxf {
    fn token(&self, chars: &[char], i: usize) -> Option<(Tok, usize)> {
        let c = *chars.get(i)?;
        let tok = match c.to_ascii_uppercase() {
            'K' | 'G' => Tok::Piece(Role::General),
            'A' => Tok::Piece(Role::Advisor),
            'E' | 'B' => Tok::Piece(Role::Elephant),
            'R' => Tok::Piece(Role::Chariot),
            'H' | 'N' => Tok::Piece(Role::Horse),
            'C' => Tok::Piece(Role::Cannon),
            'P' => Tok::Piece(Role::Soldier),
            '+' => Tok::Mark(Mark::Plus),
            '-' => Tok::Mark(Mark::Minus),
            d => Tok::Num(grammar::digit(d)?),
        };
        Some((tok, 1))
    }

    fn designator(&self, toks: &[Tok]) -> Option<Designator> {
        use Tok::{Mark as M, Num as N, Piece as P};
        Some(match *toks {
            [P(role), N(file)] => Designator {
                middle_by_file: role == Role::Soldier,
                ..Designator::on_file(role, file)
            },
            [P(role), M(m)] | [M(m), P(role)] => Designator::placed(role, None, m.place()),
            [M(a), M(b)] if a == b => Designator::placed(
                Role::Soldier,
                None,
                if a == Mark::Plus {
                    Place::Front
                } else {
                    Place::Rear
                },
            ),
            [N(file), M(m)] => Designator::placed(Role::Soldier, Some(file), m.place()),
            [N(a), N(b)] if a == b => Designator::placed(Role::Soldier, Some(a), Place::Middle),
            [P(role), N(file), M(m)] => Designator::placed(role, Some(file), m.place()),
            _ => return None,
        })
    }

    fn action(&self, c: char) -> Option<Action> {
        match c {
            '+' => Some(Action::Forward),
            '-' => Some(Action::Back),
            '.' | '=' => Some(Action::Sideways),
            _ => None,
        }
    }

    fn number(&self, c: char) -> Option<u8> {
        grammar::digit(c)
    }
}

/// Parse a normalised text.
pub(crate) fn parse(chars: &[char]) -> Result<RawMove, SynErr> {
    grammar::parse(&Wxf, chars)
}

fn letter(role: Role) -> char {
    match role {
        Role::General => 'K',
        Role::Advisor => 'A',
        Role::Elephant => 'E',
        Role::Horse => 'H',
        Role::Chariot => 'R',
        Role::Cannon => 'C',
        Role::Soldier => 'P',
    }
}

/// The tandem mark for the piece at `index` (0 = front) of `count`; `None` for the middle one,
/// which the plain file names.
fn mark(index: usize, count: usize) -> Option<&'static str> {
    if count <= 3 {
        match index {
            0 => Some("+"),
            i if i + 1 == count => Some("-"),
            _ => None,
        }
    } else {
        match index {
            0 => Some("++"),
            1 => Some("+"),
            i if i + 2 == count => Some("-"),
            i if i + 1 == count => Some("--"),
            _ => None,
        }
    }
}

/// Write a described move.
pub(crate) fn write(d: &Described) -> String {
    let l = letter(d.role);
    let f = d.file;
    let who = match d.who {
        Who::File => format!("{l}{f}"),
        Who::FileAndPlace { index, count } if count <= 3 => match mark(index, count) {
            Some(m) => format!("{f}{m}"),
            None => format!("{f}{f}"),
        },
        Who::Place { index, count } | Who::FileAndPlace { index, count } => {
            match mark(index, count) {
                Some(m) if m.len() == 2 => m.to_string(),
                Some(m) => format!("{l}{m}"),
                None => format!("{l}{f}"),
            }
        }
    };
    let action = match d.action {
        Action::Forward => '+',
        Action::Back => '-',
        Action::Sideways => '.',
    };
    format!("{who}{action}{}", d.number)
}

#[cfg(test)]
mod tests {
    use crate::core::Position;
    use crate::notation::tests::{check_reads, mv, TANDEM};
    use crate::notation::{format_move, parse_move, MoveTextError, Notation};

    fn check(fen: &str, text: &str, iccs: &str) {
        check_reads(Notation::Wxf, fen, text, iccs);
    }

    const START: &str = crate::core::START_FEN;

    #[test]
    fn rules_7_examples() {
        check(START, "C2.5", "h2e2");
        check(START, "C2=5", "h2e2");
        check(START, "c2.5", "h2e2");
        check(START, "H8+7", "b0c2");
        check(START, "N8+7", "b0c2");
        check(TANDEM, "R1-1", "i1i0");
        check(TANDEM, "+C.5", "h5e5");
        check(TANDEM, "C+.5", "h5e5");
        check(TANDEM, "C-.5", "h2e2");
        check(TANDEM, "-C+1", "h2h3");
        check(TANDEM, "C--1", "h2h1"); // 炮後退一
        check(TANDEM, "C+-1", "h5h4");
        let black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b";
        check(black, "H8+7", "h9g7");
        check(black, "C8.5", "h7e7");
        check(black, "P3+1", "c6c5");
    }

    #[test]
    fn tandem_pawns_follow_the_axf_rules() {
        // Red soldiers on c8 c7 c6 (file 7, three in tandem): front c8, middle c7, rear c6.
        let three = "3k5/2P6/2P6/2P6/9/9/9/9/9/4K4 w";
        check(three, "P+.6", "c8d8");
        check(three, "P7.6", "c7d7");
        check(three, "P-.6", "c6d6");
        // Five on file 7, c9 (front) to c5 (rear).
        let five = "2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w";
        check(five, "++.6", "c9d9");
        check(five, "P+.6", "c8d8");
        check(five, "P7.6", "c7d7");
        check(five, "P-.6", "c6d6");
        check(five, "--.6", "c5d5");
        // Two files: three on file 7 (c), two on file 3 (g).
        let two = "3k5/2P6/2P3P2/2P3P2/9/9/9/9/9/4K4 w";
        check(two, "7+.6", "c8d8");
        check(two, "77.6", "c7d7");
        check(two, "7-.6", "c6d6");
        check(two, "3++1", "g7g8");
        check(two, "3-.4", "g6f6");
        let pos = Position::from_fen(two).unwrap();
        for m in pos.legal_moves().iter() {
            let text = format_move(&pos, *m, Notation::Wxf);
            assert_eq!(parse_move(&pos, &text, Notation::Wxf), Ok(*m), "{text}");
        }
    }

    #[test]
    fn writes_the_canonical_form() {
        let pos = Position::from_fen(TANDEM).unwrap();
        assert_eq!(format_move(&pos, mv("h5e5"), Notation::Wxf), "C+.5");
        assert_eq!(format_move(&pos, mv("h2h3"), Notation::Wxf), "C-+1");
        assert_eq!(format_move(&pos, mv("i1i0"), Notation::Wxf), "R1-1");
        assert_eq!(format_move(&pos, mv("b0c2"), Notation::Wxf), "H8+7");
        let start = Position::startpos();
        assert_eq!(format_move(&start, mv("e0e1"), Notation::Wxf), "K5+1");
        assert_eq!(format_move(&start, mv("f0e1"), Notation::Wxf), "A4+5");
        assert_eq!(format_move(&start, mv("g0e2"), Notation::Wxf), "E3+5");
    }

    #[test]
    fn typical_mistakes_are_explained() {
        let start = Position::startpos();
        let err = |t: &str| parse_move(&start, t, Notation::Wxf).unwrap_err();
        assert!(err("C2x5")
            .to_string()
            .contains("at character 3 (\"x\") expected a direction"));
        assert!(err("Q2.5").to_string().contains("expected a piece letter"));
        assert!(err("C2.")
            .to_string()
            .contains("ends too early; expected a number"));
        assert!(err("C.5").to_string().contains("expected a file number"));
        assert_eq!(
            err("C3.5"),
            MoveTextError::NoSuchPiece {
                piece: crate::core::Piece::new(crate::core::Color::Red, crate::core::Role::Cannon),
                file: Some(3)
            }
        );
        assert!(err("C+.5").to_string().contains("no file has two"));
        assert!(err("H2.3").to_string().contains("moves diagonally"));
        assert!(err("H2+5").to_string().contains("cannot land 3 files away"));
        assert!(err("R1+5").to_string().contains("path is blocked at i3"));
        assert!(err("H2+4")
            .to_string()
            .contains("horse's leg is blocked at g0"));
        assert!(err("R1-1").to_string().contains("off the board"));
    }
}
