//! Tests of the public entry points: reading across notations, normalising, round trips.

use super::*;
use crate::core::{Color, Piece, START_FEN};

/// A move from its ICCS text (the notation modules' unit tests share these helpers).
pub(super) fn mv(s: &str) -> Move {
    Move::parse_iccs(s).unwrap()
}

/// `text` in notation `n` reads as the ICCS move `iccs` in the position `fen`.
pub(super) fn check_reads(n: Notation, fen: &str, text: &str, iccs: &str) {
    let pos = Position::from_fen(fen).unwrap();
    assert_eq!(parse_move(&pos, text, n), Ok(mv(iccs)), "{text}");
}

/// Red cannons in tandem on h2 and h5 (file 2), a red chariot on i1.
pub(super) const TANDEM: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/7C1/9/P1P1P1P1P/7C1/8R/RNBAKABN1 w";

#[test]
fn notation_names_round_trip() {
    for n in Notation::ALL {
        assert_eq!(n.to_string().parse::<Notation>(), Ok(n));
        assert_eq!(n.to_string().to_uppercase().parse::<Notation>(), Ok(n));
    }
    assert_eq!("zh".parse::<Notation>(), Ok(Notation::Chinese));
    assert_eq!("VI".parse::<Notation>(), Ok(Notation::Vietnamese));
    assert!("xboard".parse::<Notation>().is_err());
}

#[test]
fn read_move_finds_the_one_legal_reading() {
    let pos = Position::startpos();
    let r = |t: &str| read_move(&pos, t, Notation::Iccs);
    assert_eq!(
        r("C2.5"),
        Ok(Reading {
            mv: mv("h2e2"),
            notation: Notation::Wxf
        })
    );
    assert_eq!(r("P2-5").map(|x| x.notation), Ok(Notation::Vietnamese));
    assert_eq!(r("炮二平五").map(|x| x.notation), Ok(Notation::Chinese));
    assert_eq!(r("h2e2").map(|x| x.notation), Ok(Notation::Iccs));
    // The notation reported is the one that read the text, whichever is preferred.
    assert_eq!(
        read_move(&pos, "H8+7", Notation::Wxf).map(|x| x.notation),
        Ok(Notation::Wxf)
    );
    assert_eq!(
        read_move(&pos, "M8.7", Notation::Wxf),
        Ok(Reading {
            mv: mv("b0c2"),
            notation: Notation::Vietnamese
        })
    );
}

#[test]
fn read_move_asks_when_notations_disagree() {
    // A red cannon on b2 (file 8) with a clear rank, and a crossed red soldier on b5 (file 8):
    // WXF reads C8.1 as the cannon going sideways to file 1, Vietnamese as the soldier (C = chốt)
    // stepping forward.
    let pos =
        Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/1P7/9/4P4/1C7/9/RNBAKABNR w").unwrap();
    match read_move(&pos, "C8.1", Notation::Wxf) {
        Err(MoveTextError::Ambiguous { candidates }) => assert_eq!(
            candidates,
            vec![
                (Notation::Wxf, mv("b2i2")),
                (Notation::Vietnamese, mv("b5b6"))
            ]
        ),
        other => panic!("{other:?}"),
    }
    let text = read_move(&pos, "C8.1", Notation::Wxf)
        .unwrap_err()
        .to_string();
    assert!(
        text.contains("b2i2 (wxf)") && text.contains("b5b6 (vietnamese)"),
        "{text}"
    );
    // Strictly one notation: no question.
    assert_eq!(parse_move(&pos, "C8.1", Notation::Wxf), Ok(mv("b2i2")));
    assert_eq!(
        parse_move(&pos, "C8.1", Notation::Vietnamese),
        Ok(mv("b5b6"))
    );
}

#[test]
fn read_move_reports_the_most_useful_error() {
    let pos = Position::startpos();
    // Preferred notation parses: its error wins.
    assert!(matches!(
        read_move(&pos, "C3.5", Notation::Wxf),
        Err(MoveTextError::NoSuchPiece { .. })
    ));
    // Preferred notation (ICCS) cannot read it: the most specific other error.
    assert!(matches!(
        read_move(&pos, "R1+5", Notation::Iccs),
        Err(MoveTextError::Illegal(_))
    ));
    // Nobody can read it: the preferred notation's syntax error.
    match read_move(&pos, "hello", Notation::Chinese) {
        Err(MoveTextError::Syntax(e)) => assert_eq!(e.notation, Notation::Chinese),
        other => panic!("{other:?}"),
    }
    // Several pieces fit in one notation only: say which.
    let five = Position::from_fen("2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w").unwrap();
    assert!(matches!(
        read_move(&five, "兵七平六", Notation::Iccs),
        Err(MoveTextError::AmbiguousPiece { .. })
    ));
}

#[test]
fn normalising_trims_folds_and_bounds() {
    assert_eq!(normalize("  Ｃ２．５ "), Ok("C2.5".to_string()));
    assert_eq!(normalize("C2–5"), Ok("C2-5".to_string()));
    assert_eq!(normalize("炮二 平五!?"), Ok("炮二平五".to_string()));
    assert_eq!(normalize("\u{feff}h2e2"), Ok("h2e2".to_string()));
    assert_eq!(normalize(" \u{3000} "), Err(MoveTextError::Empty));
    assert_eq!(
        normalize(&"x".repeat(65)),
        Err(MoveTextError::TooLong { len: 65 })
    );
    let pos = Position::startpos();
    for n in Notation::ALL {
        assert!(matches!(
            parse_move(&pos, &"炮".repeat(10_000), n),
            Err(MoveTextError::TooLong { len: 10_000 })
        ));
        assert_eq!(parse_move(&pos, "", n), Err(MoveTextError::Empty));
    }
}

#[test]
fn hostile_text_is_refused_politely() {
    let pos = Position::startpos();
    let texts = [
        "\u{202e}5.2C",
        "C\u{301}2.5",
        "🐴8+7",
        "\0\u{7}\u{1b}[31m",
        "炮二平五\u{200f}",
        "ב2.5",
        "Tg",
        "+",
        "--",
        "33",
        "前",
    ];
    for t in texts {
        for n in Notation::ALL {
            let e = parse_move(&pos, t, n).unwrap_err();
            let shown = e.to_string();
            assert!(
                !shown.contains('\u{202e}') && !shown.contains('\0'),
                "{shown}"
            );
        }
        assert!(read_move(&pos, t, Notation::Wxf).is_err());
    }
}

#[test]
fn every_start_move_round_trips_in_every_notation() {
    for fen in [
        START_FEN,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        for &m in pos.legal_moves().iter() {
            for n in Notation::ALL {
                let text = format_move(&pos, m, n);
                assert_eq!(parse_move(&pos, &text, n), Ok(m), "{n}: {text}");
            }
            let t = format_chinese(&pos, m, ChineseScript::Traditional);
            assert_eq!(parse_move(&pos, &t, Notation::Chinese), Ok(m), "{t}");
        }
    }
}

#[test]
fn a_move_without_a_piece_is_written_in_iccs() {
    let pos = Position::startpos();
    assert_eq!(format_move(&pos, mv("e4e5"), Notation::Chinese), "e4e5");
    let black_general = Piece::new(Color::Black, Role::General);
    assert_eq!(pos.piece_at(mv("e9e8").from), Some(black_general));
}

#[test]
fn raw_moves_built_by_hand_do_not_panic() {
    let pos = Position::startpos();
    for number in [0, 10, 128, 255] {
        for file in [None, Some(0), Some(10), Some(255)] {
            for role in Role::ALL {
                for action in [Action::Forward, Action::Back, Action::Sideways] {
                    let raw = RawMove {
                        role,
                        file,
                        place: Some(Place::FromRear(200)),
                        middle_by_file: true,
                        action,
                        number,
                    };
                    assert!(ParsedMove::Described(raw).resolve(&pos).is_err());
                }
            }
        }
    }
}
