//! Chinese notation: `炮二平五`, `马8进7`, `車一進一`, `前炮退二`, `炮８平５`.
//!
//! Simplified and traditional characters are both read, for either side (帅帥将將, 仕士, 相象,
//! 车車俥, 马馬傌, 炮砲包, 兵卒; 进進, 退, 平; 前, 中, 后後). Files and numbers are read as
//! Chinese numerals 一–九 or digits 1–9 (ASCII or full-width) whatever the side; they are written
//! as numerals for Red and full-width digits for Black. Several pieces on one file: 前/后 for two,
//! 前/中/后 for three soldiers, 一兵…五兵 (front to rear) for four or five; when two files hold
//! tandem soldiers, the file replaces the piece name (前七, 中七, 后七).

use super::grammar::{self, Designator, Grammar, Mark, SynErr, Tok};
use super::print::{Described, Who};
use super::{Action, ChineseScript, Place, RawMove};
use crate::core::{Color, Role};

const NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const WIDE_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

struct Chinese;

fn numeral(c: char) -> Option<u8> {
    match NUMERALS.iter().position(|&n| n == c) {
        Some(i) => Some(i as u8 + 1),
        None => grammar::digit(c),
    }
}

impl Grammar for Chinese {
    fn token(&self, chars: &[char], i: usize) -> Option<(Tok, usize)> {
        let c = *chars.get(i)?;
        let tok = match c {
            '帅' | '帥' | '将' | '將' => Tok::Piece(Role::General),
            '仕' | '士' => Tok::Piece(Role::Advisor),
            '相' | '象' => Tok::Piece(Role::Elephant),
            '马' | '馬' | '傌' => Tok::Piece(Role::Horse),
            '车' | '車' | '俥' => Tok::Piece(Role::Chariot),
            '炮' | '砲' | '包' => Tok::Piece(Role::Cannon),
            '兵' | '卒' => Tok::Piece(Role::Soldier),
            '前' => Tok::Mark(Mark::Front),
            '中' => Tok::Mark(Mark::Middle),
            '后' | '後' => Tok::Mark(Mark::Rear),
            c => Tok::Num(numeral(c)?),
        };
        Some((tok, 1))
    }

    fn designator(&self, toks: &[Tok]) -> Option<Designator> {
        use Tok::{Mark as M, Num as N, Piece as P};
        Some(match *toks {
            [P(role), N(file)] => Designator::on_file(role, file),
            [M(m), P(role)] | [P(role), M(m)] => Designator::placed(role, None, m.place()),
            [N(k), P(role)] if k <= 5 => Designator::placed(role, None, Place::FromFront(k)),
            [M(m), N(file)] => Designator::placed(Role::Soldier, Some(file), m.place()),
            [M(m), P(role), N(file)] => Designator::placed(role, Some(file), m.place()),
            _ => return None,
        })
    }

    fn action(&self, c: char) -> Option<Action> {
        match c {
            '进' | '進' => Some(Action::Forward),
            '退' => Some(Action::Back),
            '平' => Some(Action::Sideways),
            _ => None,
        }
    }

    fn number(&self, c: char) -> Option<u8> {
        numeral(c)
    }
}

/// Parse a normalised text.
pub(crate) fn parse(chars: &[char]) -> Result<RawMove, SynErr> {
    grammar::parse(&Chinese, chars)
}

fn name(color: Color, role: Role, script: ChineseScript) -> char {
    let simplified = script == ChineseScript::Simplified;
    match (role, color) {
        (Role::General, Color::Red) if simplified => '帅',
        (Role::General, Color::Red) => '帥',
        (Role::General, Color::Black) if simplified => '将',
        (Role::General, Color::Black) => '將',
        (Role::Advisor, Color::Red) => '仕',
        (Role::Advisor, Color::Black) => '士',
        (Role::Elephant, Color::Red) => '相',
        (Role::Elephant, Color::Black) => '象',
        (Role::Horse, _) if simplified => '马',
        (Role::Horse, _) => '馬',
        (Role::Chariot, _) if simplified => '车',
        (Role::Chariot, _) => '車',
        (Role::Cannon, Color::Black) if !simplified => '砲',
        (Role::Cannon, _) => '炮',
        (Role::Soldier, Color::Red) => '兵',
        (Role::Soldier, Color::Black) => '卒',
    }
}

/// A file or count as `color` writes it: 一–九 for Red, １–９ for Black.
fn number(color: Color, n: u8) -> char {
    let table = match color {
        Color::Red => &NUMERALS,
        Color::Black => &WIDE_DIGITS,
    };
    table[(n.clamp(1, 9) - 1) as usize]
}

fn mark(index: usize, count: usize, script: ChineseScript) -> char {
    if index == 0 {
        '前'
    } else if index + 1 == count {
        match script {
            ChineseScript::Simplified => '后',
            ChineseScript::Traditional => '後',
        }
    } else {
        '中'
    }
}

/// Write a described move.
pub(crate) fn write(d: &Described, script: ChineseScript) -> String {
    let piece = name(d.color, d.role, script);
    let mut s = String::with_capacity(12);
    match d.who {
        Who::File => {
            s.push(piece);
            s.push(number(d.color, d.file));
        }
        Who::Place { index, count } if count >= 4 => {
            s.push(NUMERALS[index.min(8)]);
            s.push(piece);
        }
        Who::Place { index, count } => {
            s.push(mark(index, count, script));
            s.push(piece);
        }
        Who::FileAndPlace { index, count } => {
            s.push(mark(index, count, script));
            s.push(number(d.color, d.file));
        }
    }
    s.push(match (d.action, script) {
        (Action::Forward, ChineseScript::Simplified) => '进',
        (Action::Forward, ChineseScript::Traditional) => '進',
        (Action::Back, _) => '退',
        (Action::Sideways, _) => '平',
    });
    s.push(number(d.color, d.number));
    s
}

#[cfg(test)]
mod tests {
    use crate::core::Position;
    use crate::notation::tests::{check_reads, mv, TANDEM};
    use crate::notation::{
        format_chinese, format_move, parse_move, ChineseScript, MoveTextError, Notation,
    };

    fn check(fen: &str, text: &str, iccs: &str) {
        check_reads(Notation::Chinese, fen, text, iccs);
    }

    const START: &str = crate::core::START_FEN;
    const BLACK: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b";

    #[test]
    fn rules_7_examples() {
        check(START, "炮二平五", "h2e2");
        check(START, "炮2平5", "h2e2");
        check(START, "車一進一", "i0i1");
        check(START, "俥一进一", "i0i1");
        check(START, "马二进三", "h0g2");
        check(BLACK, "马8进7", "h9g7");
        check(BLACK, "馬８進７", "h9g7");
        check(BLACK, "炮８平５", "h7e7");
        check(BLACK, "砲8平5", "h7e7");
        check(BLACK, "卒7进1", "g6g5");
        check(TANDEM, "前炮退二", "h5h3");
        check(TANDEM, "後炮平五", "h2e2");
        check(TANDEM, "炮前平五", "h5e5");
        check(TANDEM, "前炮二平五", "h5e5");
    }

    #[test]
    fn numbered_soldiers_and_two_tandem_files() {
        let five = "2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w";
        check(five, "一兵平六", "c9d9");
        check(five, "三兵平六", "c7d7");
        check(five, "五兵平六", "c5d5");
        check(five, "前兵平六", "c9d9");
        check(five, "后兵平六", "c5d5");
        check(five, "中兵平六", "c7d7");
        let pos = Position::from_fen(five).unwrap();
        assert_eq!(format_move(&pos, mv("c8d8"), Notation::Chinese), "二兵平六");
        let two = "3k5/2P6/2P3P2/2P3P2/9/9/9/9/9/4K4 w";
        check(two, "前七平六", "c8d8");
        check(two, "中七平六", "c7d7");
        check(two, "前三进一", "g7g8");
        check(two, "前兵三平四", "g7f7");
        let pos = Position::from_fen(two).unwrap();
        assert_eq!(format_move(&pos, mv("c7d7"), Notation::Chinese), "中七平六");
        assert_eq!(format_move(&pos, mv("g6f6"), Notation::Chinese), "后三平四");
    }

    #[test]
    fn writes_both_scripts() {
        let pos = Position::from_fen(TANDEM).unwrap();
        let t = |m| format_chinese(&pos, mv(m), ChineseScript::Traditional);
        let s = |m| format_chinese(&pos, mv(m), ChineseScript::Simplified);
        assert_eq!(s("h5h3"), "前炮退二");
        assert_eq!(t("h2e2"), "後炮平五");
        assert_eq!(t("i1i0"), "車一退一");
        assert_eq!(s("b0c2"), "马八进七");
        let black = Position::from_fen(BLACK).unwrap();
        assert_eq!(
            format_move(&black, mv("h9g7"), Notation::Chinese),
            "马８进７"
        );
        assert_eq!(
            format_chinese(&black, mv("h7e7"), ChineseScript::Traditional),
            "砲８平５"
        );
        assert_eq!(
            format_move(&black, mv("e9e8"), Notation::Chinese),
            "将５进１"
        );
        // Tandem advisors are named by their file: the direction says which one moves.
        let advisors = "3k5/9/9/9/9/9/9/3A5/9/3AK4 w";
        let pos = Position::from_fen(advisors).unwrap();
        assert_eq!(format_move(&pos, mv("d2e1"), Notation::Chinese), "仕六退五");
        assert_eq!(
            parse_move(&pos, "仕六退五", Notation::Chinese),
            Ok(mv("d2e1"))
        );
    }

    #[test]
    fn typical_mistakes_are_explained() {
        let start = Position::startpos();
        let err = |t: &str| parse_move(&start, t, Notation::Chinese).unwrap_err();
        assert!(err("炮二走五")
            .to_string()
            .contains("at character 3 (\"走\") expected a direction"));
        assert!(err("炮平五").to_string().contains("expected a file number"));
        assert!(err("炮二平").to_string().contains("ends too early"));
        assert!(err("前炮平五").to_string().contains("no file has two"));
        assert!(err("炮三平五")
            .to_string()
            .contains("no red cannon on file 3"));
        assert!(err("马二平三").to_string().contains("moves diagonally"));
        assert!(err("相三进四")
            .to_string()
            .contains("cannot land 1 file away"));
        assert!(err("马八进六")
            .to_string()
            .contains("horse's leg is blocked at c0"));
        let five = Position::from_fen("2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w").unwrap();
        assert!(matches!(
            parse_move(&five, "兵七平六", Notation::Chinese),
            Err(MoveTextError::AmbiguousPiece { .. })
        ));
        let two = Position::from_fen("3k5/2P6/2P6/9/9/9/9/9/9/4K4 w").unwrap();
        assert!(parse_move(&two, "中兵平六", Notation::Chinese)
            .unwrap_err()
            .to_string()
            .contains("names none of them"));
    }
}
