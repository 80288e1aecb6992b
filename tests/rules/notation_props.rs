//! Property tests of the move notations: every legal move written in any notation reads back to
//! itself, and no text, however hostile, makes the readers panic.

use proptest::prelude::*;
use xiangqi_bot::core::{board_fen, Color, Move, Piece, Position, Role, Square};
use xiangqi_bot::i18n::notation::move_text_error;
use xiangqi_bot::i18n::Lang;
use xiangqi_bot::notation::{
    format_chinese, format_move, parse_move, read_move, ChineseScript, Notation,
};

/// Positions with pieces in tandem: 3, 4 and 5 soldiers on a file, tandem soldiers on two files,
/// tandem chariots, horses, cannons, advisors and elephants, for both sides.
const TANDEM_FENS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/7C1/9/P1P1P1P1P/7C1/8R/RNBAKABN1 w",
    "2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w",
    "3k5/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w",
    "3k5/2P6/2P3P2/2P3P2/9/9/9/9/9/4K4 w",
    "3k5/9/2P3P2/2P3P2/9/9/9/9/9/4K4 w",
    "3k5/9/9/2P6/2P6/2P6/9/9/9/4K4 w",
    "3k5/9/9/9/9/p1p6/p1p6/p8/9/4K4 b",
    "4k4/9/9/9/p8/p8/p8/p8/p8/3K5 b",
    "4k4/9/9/9/9/3p5/3p5/3p5/9/5K3 b",
    "r2akab2/r8/n3c4/n3c4/9/9/9/9/9/3K5 b",
    "3k5/9/9/9/9/9/9/3A5/9/3AK4 w",
    "3k5/9/9/9/9/2B6/9/9/9/2B1K4 w",
    "2b1k4/9/9/9/2b6/9/9/9/9/3K5 b",
    "3a5/4k4/3a5/9/9/9/9/9/9/3K5 b",
    "4k4/9/9/9/R8/R8/N8/N8/C8/C2K5 w",
];

fn check_all_moves(pos: &Position) -> Result<(), TestCaseError> {
    for &m in pos.legal_moves().iter() {
        for n in Notation::ALL {
            let text = format_move(pos, m, n);
            prop_assert_eq!(
                parse_move(pos, &text, n),
                Ok(m),
                "{} in {}: {} ({:?})",
                m,
                n,
                text,
                pos
            );
        }
        for script in [ChineseScript::Simplified, ChineseScript::Traditional] {
            let text = format_chinese(pos, m, script);
            prop_assert_eq!(
                parse_move(pos, &text, Notation::Chinese),
                Ok(m),
                "{} in {:?}: {} ({:?})",
                m,
                script,
                text,
                pos
            );
        }
    }
    Ok(())
}

#[test]
fn every_move_of_the_tandem_positions_round_trips() {
    for fen in TANDEM_FENS {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        check_all_moves(&pos).unwrap();
        // The same board with the other side to move, when that is a legal position.
        let other = if fen.ends_with('w') {
            fen.replace(" w", " b")
        } else {
            fen.replace(" b", " w")
        };
        if let Ok(pos) = Position::from_fen(&other) {
            check_all_moves(&pos).unwrap();
        }
    }
}

/// Build a FEN from pieces on points (the first piece named for a point wins).
fn fen_of(pieces: &[(Piece, Square)], turn: Color) -> String {
    let mut board = [None; 90];
    for &(p, sq) in pieces {
        board[sq.index()].get_or_insert(p);
    }
    let side = if turn == Color::Red { " w" } else { " b" };
    board_fen(|sq| board[sq.index()]) + side
}

/// A random position rich in soldiers: a column of up to five crossed soldiers per side, a few
/// scattered ones, and a handful of other pieces.
fn soldier_position() -> impl Strategy<Value = Option<Position>> {
    let column = (0u8..9, 0usize..=5, 0u8..5);
    let scattered = proptest::collection::vec((0u8..9, 0u8..5), 0..3);
    let others = proptest::collection::vec((0usize..5, 0u8..9, 0u8..10), 0..6);
    (
        (column.clone(), column),
        (scattered.clone(), scattered),
        (0usize..9, 0usize..9),
        others,
        any::<bool>(),
    )
        .prop_map(|((rc, bc), (rs, bs), (rg, bg), others, red_turn)| {
            let sq = |f: u8, r: u8| Square::new(f, r);
            let mut pieces = Vec::new();
            let general = |color, i: usize| {
                let (f, r) = (3 + (i % 3) as u8, (i / 3) as u8);
                let r = if color == Color::Red { r } else { 9 - r };
                sq(f, r).map(|s| (Piece::new(color, Role::General), s))
            };
            pieces.extend(general(Color::Red, rg));
            pieces.extend(general(Color::Black, bg));
            for (color, (file, n, start), extra) in [(Color::Red, rc, rs), (Color::Black, bc, bs)] {
                let soldier = Piece::new(color, Role::Soldier);
                // Crossed ranks: 5..9 for Red, 0..4 for Black.
                let crossed = |r: u8| if color == Color::Red { 5 + r } else { 4 - r };
                let n = n.min(5 - start as usize);
                for k in 0..n as u8 {
                    pieces.extend(sq(file, crossed(start + k)).map(|s| (soldier, s)));
                }
                for (f, r) in extra.into_iter().take(5 - n) {
                    pieces.extend(sq(f, crossed(r)).map(|s| (soldier, s)));
                }
            }
            for (i, (kind, f, r)) in others.into_iter().enumerate() {
                let role = [
                    Role::Chariot,
                    Role::Cannon,
                    Role::Horse,
                    Role::Chariot,
                    Role::Horse,
                ][kind];
                let color = if i % 2 == 0 { Color::Red } else { Color::Black };
                pieces.extend(sq(f, r).map(|s| (Piece::new(color, role), s)));
            }
            let turn = if red_turn { Color::Red } else { Color::Black };
            Position::from_fen(&fen_of(&pieces, turn)).ok()
        })
}

#[test]
fn the_soldier_position_generator_mostly_yields_legal_positions() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = soldier_position();
    let mut valid = 0;
    let mut tandem = 0;
    for _ in 0..200 {
        let Some(pos) = strategy.new_tree(&mut runner).unwrap().current() else {
            continue;
        };
        valid += 1;
        let soldier = Piece::new(pos.turn(), Role::Soldier);
        let mut per_file = [0; 9];
        for (sq, p, _) in pos.pieces() {
            if p == soldier {
                per_file[sq.file() as usize] += 1;
            }
        }
        if per_file.iter().any(|&n| n >= 3) {
            tandem += 1;
        }
    }
    assert!(
        valid >= 50,
        "only {valid} of 200 generated positions are legal"
    );
    assert!(
        tandem >= 20,
        "only {tandem} of 200 have three soldiers on a file"
    );
}

/// Texts made of the symbols the notations use, so that the readers get past the first character.
fn move_like_text() -> impl Strategy<Value = String> {
    let alphabet: Vec<char> = "KGAEBRHNCPXMSTVtsgo123456789+-.=/ 炮马車進退平前中后後一二三四五六七八九兵卒帅将１５ôốTgTốtabcdehi0"
        .chars()
        .collect();
    proptest::collection::vec(proptest::sample::select(alphabet), 0..9)
        .prop_map(|cs| cs.into_iter().collect())
}

fn positions_for_fuzzing() -> Vec<Position> {
    let mut out = vec![Position::startpos()];
    out.extend(
        TANDEM_FENS
            .iter()
            .filter_map(|f| Position::from_fen(f).ok()),
    );
    out
}

fn no_panic_on(text: &str) {
    for pos in positions_for_fuzzing().iter().take(4) {
        for n in Notation::ALL {
            if let Err(e) = parse_move(pos, text, n) {
                for lang in Lang::ALL {
                    assert!(!move_text_error(&e, lang).is_empty());
                }
                assert!(!e.to_string().is_empty());
            }
            let _ = read_move(pos, text, n);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn moves_of_random_games_round_trip(choices in proptest::collection::vec(any::<u16>(), 0..70)) {
        let mut pos = Position::startpos();
        check_all_moves(&pos)?;
        for c in choices {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m: Move = moves.as_slice()[c as usize % moves.len()];
            pos.play_unchecked(m);
            check_all_moves(&pos)?;
        }
    }

}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn moves_of_soldier_heavy_positions_round_trip(pos in soldier_position()) {
        if let Some(pos) = pos {
            check_all_moves(&pos)?;
        }
    }

    #[test]
    fn move_like_texts_never_panic(text in move_like_text()) {
        no_panic_on(&text);
    }

    #[test]
    fn arbitrary_unicode_never_panics(text in any::<String>()) {
        no_panic_on(&text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn long_arbitrary_texts_never_panic(
        chars in proptest::collection::vec(any::<char>(), 0..10_000)
    ) {
        let text: String = chars.into_iter().collect();
        no_panic_on(&text);
    }
}
