//! The messages users see when a move text, a move or a FEN is refused: every variant exists in
//! Vietnamese, English and Chinese, and typical mistakes in each notation are explained with the
//! rule and the point involved.

use xiangqi_bot::core::{
    Color, FenError, FenOrPositionError, IllegalMove, IllegalReason, Move, Piece, Position,
    PositionError, Role, Square,
};
use xiangqi_bot::i18n::notation::{fen_error, illegal_move, move_text_error};
use xiangqi_bot::i18n::Lang;
use xiangqi_bot::notation::{
    parse_move, read_move, Expected, MoveTextError, Notation, Place, SyntaxError, TargetProblem,
};

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn red(role: Role) -> Piece {
    Piece::new(Color::Red, role)
}

/// The variant number of each error; these matches stop compiling when a variant is added,
/// and the test below checks every number is sampled.
fn text_variant(e: &MoveTextError) -> usize {
    use MoveTextError as E;
    match e {
        E::Empty => 0,
        E::TooLong { .. } => 1,
        E::Syntax(_) => 2,
        E::NoSuchPiece { .. } => 3,
        E::NotTandem { .. } => 4,
        E::NoSuchPlace { .. } => 5,
        E::AmbiguousPiece { .. } => 6,
        E::BadTarget { .. } => 7,
        E::Illegal(_) => 8,
        E::Ambiguous { .. } => 9,
    }
}

fn reason_variant(r: &IllegalReason) -> usize {
    use IllegalReason as R;
    match r {
        R::SameSquare => 0,
        R::NoPiece => 1,
        R::NotYourPiece => 2,
        R::OwnPieceOnTarget { .. } => 3,
        R::LeavesPalace => 4,
        R::GeneralStep => 5,
        R::AdvisorStep => 6,
        R::ElephantCrossesRiver => 7,
        R::ElephantStep => 8,
        R::ElephantEyeBlocked { .. } => 9,
        R::HorseStep => 10,
        R::HorseLegBlocked { .. } => 11,
        R::NotStraight => 12,
        R::PathBlocked { .. } => 13,
        R::CannonScreen { .. } => 14,
        R::SoldierBackward => 15,
        R::SoldierSidewaysBeforeRiver => 16,
        R::SoldierStep => 17,
        R::LeavesGeneralInCheck { .. } => 18,
        R::GeneralsFace => 19,
    }
}

fn fen_variant(e: &FenOrPositionError) -> usize {
    match e {
        FenOrPositionError::Fen(f) => match f {
            FenError::Empty => 0,
            FenError::TooLong { .. } => 1,
            FenError::RankCount { .. } => 2,
            FenError::RankWidth { .. } => 3,
            FenError::BadChar { .. } => 4,
            FenError::BadSide { .. } => 5,
            FenError::BadCounter { .. } => 6,
        },
        FenOrPositionError::Position(p) => match p {
            PositionError::MissingGeneral { .. } => 7,
            PositionError::TooMany { .. } => 8,
            PositionError::GeneralOutsidePalace { .. } => 9,
            PositionError::Unreachable { .. } => 10,
            PositionError::GeneralsFacing => 11,
            PositionError::SideNotToMoveInCheck { .. } => 12,
        },
    }
}

fn text_samples() -> Vec<MoveTextError> {
    let mv = Move::new(sq("h2"), sq("e2"));
    let cannon = red(Role::Cannon);
    let soldier = red(Role::Soldier);
    let mut out = vec![
        MoveTextError::Empty,
        MoveTextError::TooLong { len: 99 },
        MoveTextError::NoSuchPiece {
            piece: cannon,
            file: Some(3),
        },
        MoveTextError::NoSuchPiece {
            piece: cannon,
            file: None,
        },
        MoveTextError::NotTandem {
            piece: cannon,
            file: Some(2),
            count: 1,
        },
        MoveTextError::NotTandem {
            piece: cannon,
            file: None,
            count: 2,
        },
        MoveTextError::AmbiguousPiece {
            piece: cannon,
            file: None,
            moves: vec![mv, mv],
        },
        MoveTextError::Ambiguous {
            candidates: vec![(Notation::Wxf, mv), (Notation::Vietnamese, mv)],
        },
    ];
    for notation in Notation::ALL {
        for expected in [
            Expected::Piece,
            Expected::File,
            Expected::Designator,
            Expected::Action,
            Expected::Number,
            Expected::End,
            Expected::Square,
        ] {
            for found in [Some('x'), Some('\u{202e}'), None] {
                let text = "C2x5\u{0}".into();
                let e = SyntaxError {
                    notation,
                    text,
                    at: 2,
                    found,
                    expected,
                };
                out.push(MoveTextError::Syntax(e));
            }
        }
    }
    for place in [
        Place::Front,
        Place::Middle,
        Place::Rear,
        Place::FromFront(5),
        Place::FromRear(4),
        Place::Plus,
        Place::Minus,
    ] {
        let (file, count) = (7, 2);
        out.push(MoveTextError::NoSuchPlace {
            piece: soldier,
            file,
            place,
            count,
        });
    }
    for problem in [
        TargetProblem::SidewaysDiagonal,
        TargetProblem::SameFile,
        TargetProblem::FileDistance { distance: 3 },
        TargetProblem::OffBoard,
    ] {
        let (piece, from) = (red(Role::Horse), sq("b0"));
        out.push(MoveTextError::BadTarget {
            piece,
            from,
            problem,
        });
    }
    let reasons = [
        IllegalReason::SameSquare,
        IllegalReason::NoPiece,
        IllegalReason::NotYourPiece,
        IllegalReason::OwnPieceOnTarget {
            target: red(Role::Advisor),
        },
        IllegalReason::LeavesPalace,
        IllegalReason::GeneralStep,
        IllegalReason::AdvisorStep,
        IllegalReason::ElephantCrossesRiver,
        IllegalReason::ElephantStep,
        IllegalReason::ElephantEyeBlocked { eye: sq("d1") },
        IllegalReason::HorseStep,
        IllegalReason::HorseLegBlocked { leg: sq("c0") },
        IllegalReason::NotStraight,
        IllegalReason::PathBlocked { at: sq("a3") },
        IllegalReason::CannonScreen { screens: 0 },
        IllegalReason::SoldierBackward,
        IllegalReason::SoldierSidewaysBeforeRiver,
        IllegalReason::SoldierStep,
        IllegalReason::LeavesGeneralInCheck {
            by: sq("e9"),
            attacker: red(Role::Chariot),
        },
        IllegalReason::GeneralsFace,
    ];
    for reason in reasons {
        for piece in [Some(cannon), None] {
            let reason = reason.clone();
            out.push(MoveTextError::Illegal(IllegalMove { mv, piece, reason }));
        }
    }
    out
}

fn fen_samples() -> Vec<FenOrPositionError> {
    let fens = [
        FenError::Empty,
        FenError::TooLong { len: 300 },
        FenError::RankCount { found: 9 },
        FenError::RankWidth { rank: 4, points: 8 },
        FenError::BadChar {
            rank: 6,
            ch: '\u{7}',
        },
        FenError::BadSide { found: "x".into() },
        FenError::BadCounter { found: "-1".into() },
    ];
    let positions = [
        PositionError::MissingGeneral {
            color: Color::Black,
        },
        PositionError::TooMany {
            color: Color::Red,
            role: Role::Advisor,
            count: 3,
        },
        PositionError::GeneralOutsidePalace {
            color: Color::Red,
            at: sq("a1"),
        },
        PositionError::Unreachable {
            piece: red(Role::Elephant),
            at: sq("d2"),
        },
        PositionError::GeneralsFacing,
        PositionError::SideNotToMoveInCheck {
            color: Color::Black,
        },
    ];
    let fens = fens.into_iter().map(FenOrPositionError::Fen);
    fens.chain(positions.into_iter().map(FenOrPositionError::Position))
        .collect()
}

fn assert_three_languages(tag: &str, texts: [String; 3]) {
    for t in &texts {
        assert!(t.chars().count() > 10, "{tag}: {t:?}");
        assert!(
            !t.contains('{') && !t.contains('}'),
            "{tag}: placeholder left in {t:?}"
        );
        assert!(
            !t.contains('\u{202e}') && !t.contains('\u{0}'),
            "{tag}: raw control in {t:?}"
        );
    }
    assert_ne!(texts[0], texts[1], "{tag}");
    assert_ne!(texts[1], texts[2], "{tag}");
    assert_ne!(texts[0], texts[2], "{tag}");
}

#[test]
fn every_message_exists_in_three_distinct_languages() {
    let texts = text_samples();
    let mut seen = [false; 10];
    let mut reasons = [false; 20];
    for e in &texts {
        seen[text_variant(e)] = true;
        if let MoveTextError::Illegal(i) = e {
            reasons[reason_variant(&i.reason)] = true;
        }
        let tag = format!("{e:?}");
        assert_three_languages(&tag, Lang::ALL.map(|l| move_text_error(e, l)));
    }
    assert!(
        seen.iter().all(|&s| s),
        "a move-text error variant is not sampled"
    );
    assert!(
        reasons.iter().all(|&s| s),
        "an illegal-move reason is not sampled"
    );
    let mut fens = [false; 13];
    for e in &fen_samples() {
        fens[fen_variant(e)] = true;
        assert_three_languages(&format!("{e:?}"), Lang::ALL.map(|l| fen_error(e, l)));
    }
    assert!(
        fens.iter().all(|&s| s),
        "a FEN error variant is not sampled"
    );
}

#[test]
fn messages_name_the_rule_and_the_point() {
    let pos = Position::startpos();
    let e = pos
        .explain_illegal(Move::new(sq("b0"), sq("d1")))
        .unwrap_err();
    assert!(illegal_move(&e, Lang::En).contains("leg is blocked at c0"));
    assert!(illegal_move(&e, Lang::Vi).contains("chân Mã bị cản ở c0"));
    assert!(illegal_move(&e, Lang::Zh).contains("c0有子蹩马腿"));
    let e = parse_move(&pos, "炮三平五", Notation::Chinese).unwrap_err();
    assert!(move_text_error(&e, Lang::Zh).contains("第3路没有炮"));
    assert!(move_text_error(&e, Lang::Vi).contains("quân Pháo nào ở cột 3"));
}

/// Typical mistakes in each notation, and a phrase each language's message must contain.
#[test]
fn typical_mistakes_are_explained_in_every_language() {
    const START: &str = xiangqi_bot::core::START_FEN;
    let cases: &[(&str, Notation, &str, [&str; 3])] = &[
        (
            START,
            Notation::Iccs,
            "b0d1",
            [
                "chân Mã bị cản ở c0",
                "leg is blocked at c0",
                "c0有子蹩马腿",
            ],
        ),
        (
            START,
            Notation::Iccs,
            "h2h7",
            [
                "ở giữa không có quân nào",
                "there is no piece in between",
                "中间没有棋子",
            ],
        ),
        (
            START,
            Notation::Iccs,
            "h2j2",
            ["ký tự thứ 3", "character 3 (\"j\")", "第3个字符"],
        ),
        (
            START,
            Notation::Wxf,
            "C2x5",
            [
                "lẽ ra phải là hướng đi",
                "should be a direction",
                "应为方向",
            ],
        ),
        (
            START,
            Notation::Wxf,
            "H2+5",
            ["cách 3 cột", "cannot land 3 files away", "相隔3路"],
        ),
        (
            START,
            Notation::Wxf,
            "R1+5",
            ["bị chặn ở i3", "blocked at i3", "在i3被挡住"],
        ),
        (
            START,
            Notation::Wxf,
            "C2.",
            ["còn thiếu một số", "stops too early", "缺少数字"],
        ),
        (
            START,
            Notation::Chinese,
            "前炮平五",
            [
                "không cột nào",
                "none of your files holds two",
                "没有哪条纵线上有两个炮",
            ],
        ),
        (
            START,
            Notation::Chinese,
            "马二平三",
            ["đi chéo", "moves diagonally", "走斜线"],
        ),
        (
            START,
            Notation::Chinese,
            "炮三平五",
            [
                "quân Pháo nào ở cột 3",
                "no cannon on file 3",
                "第3路没有炮",
            ],
        ),
        (
            START,
            Notation::Chinese,
            "炮二走五",
            [
                "ký tự thứ 3 (\"走\")",
                "character 3 (\"走\")",
                "第3个字符（“走”）",
            ],
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/3N5/R1BAKABNR w",
            Notation::Chinese,
            "相七进五",
            ["mắt Tượng ở d1", "eye at d1 is blocked", "d1有子塞住象眼"],
        ),
        (
            "4k4/9/9/9/9/9/9/9/9/3K5 w",
            Notation::Vietnamese,
            "Tg-5",
            ["đối mặt", "face each other", "照面"],
        ),
        (
            START,
            Notation::Vietnamese,
            "B3-2",
            [
                "sau khi đã qua sông",
                "sideways only after crossing the river",
                "过河以后才能横走",
            ],
        ),
        (
            START,
            Notation::Vietnamese,
            "Pt.1",
            ["không cột nào", "none of your files", "没有哪条纵线"],
        ),
        (
            START,
            Notation::Vietnamese,
            "X1/1",
            ["ra ngoài bàn cờ", "off the board", "走出棋盘"],
        ),
        (
            "3kr4/9/9/9/9/9/9/9/4R4/4K4 w",
            Notation::Iccs,
            "e1d1",
            [
                "quân Xe ở e9 chiếu",
                "in check from the chariot on e9",
                "会被e9的车将军",
            ],
        ),
        (
            "2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w",
            Notation::Chinese,
            "兵七平六",
            [
                "hơn một quân Tốt",
                "More than one of your soldiers",
                "不止一个兵",
            ],
        ),
        (
            "3k5/2P6/2P6/9/9/9/9/9/9/4K4 w",
            Notation::Chinese,
            "中兵平六",
            [
                "\"giữa\" không chỉ quân nào",
                "\"middle\" names none",
                "“中”不对应",
            ],
        ),
    ];
    for (fen, notation, text, phrases) in cases {
        let pos = Position::from_fen(fen).unwrap();
        let err = parse_move(&pos, text, *notation).unwrap_err();
        for (lang, phrase) in Lang::ALL.iter().zip(phrases) {
            let msg = move_text_error(&err, *lang);
            assert!(
                msg.contains(phrase),
                "{text} ({lang}): {msg:?} lacks {phrase:?}"
            );
        }
    }
}

#[test]
fn disagreeing_notations_are_listed_in_every_language() {
    let pos =
        Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/1P7/9/4P4/1C7/9/RNBAKABNR w").unwrap();
    let err = read_move(&pos, "C8.1", Notation::Iccs).unwrap_err();
    assert!(move_text_error(&err, Lang::En).contains("b2i2 (WXF), b5b6 (Vietnamese notation)"));
    assert!(move_text_error(&err, Lang::Vi).contains("b5b6 (ký hiệu Việt Nam)"));
    let zh = move_text_error(&err, Lang::Zh);
    assert!(zh.contains("b2i2（WXF）、b5b6（越南记谱）"), "{zh}");
}

#[test]
fn fen_errors_say_what_to_fix() {
    let err = Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w").unwrap_err();
    assert!(fen_error(&err, Lang::En).contains("face each other"));
    assert!(fen_error(&err, Lang::Vi).contains("Hai Tướng đối mặt"));
    assert!(fen_error(&err, Lang::Zh).contains("将帅"));
    let err = Position::from_fen("rnbakabnr/9/1c5c1/p1p1x1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")
        .unwrap_err();
    assert!(fen_error(&err, Lang::En).contains("Rank 6 contains \"x\""));
    assert!(fen_error(&err, Lang::Vi).contains("Hàng 6"));
    assert!(fen_error(&err, Lang::Zh).contains("第6行"));
    let e = IllegalMove {
        mv: Move::new(Square::parse("a0").unwrap(), Square::parse("a0").unwrap()),
        piece: None,
        reason: IllegalReason::SameSquare,
    };
    assert!(illegal_move(&e, Lang::Vi).starts_with("a0a0: "));
}
