//! Text versions of the board: a grid for terminals and code blocks, and a description for
//! screen readers and clients that show no images.

use std::fmt::Write;

use super::assets::piece_text;
use super::PieceStyle;
use crate::core::{Color, Move, Piece, Position, Role, Square, Status};
use crate::i18n::Lang;

/// A grid of full-width characters (every cell two columns wide, so it lines up in a monospace
/// font): traditional piece glyphs, `＋` for an empty point, `〇` where the last move started,
/// the river, each side's file numbers along its own edge, ICCS ranks on the left and letters
/// below; the viewer's side at the bottom. The last move follows in ICCS.
///
/// ```
/// use xiangqi_bot::core::{Color, Position};
/// let grid = xiangqi_bot::render::text_board(&Position::startpos(), None, Color::Red);
/// let lines: Vec<&str> = grid.lines().collect();
/// assert_eq!(lines[1], "9 車馬象士將士象馬車");
/// assert_eq!(lines[6], "  ～～楚河　漢界～～");
/// assert_eq!(lines[11], "0 俥傌相仕帥仕相傌俥");
/// assert_eq!(lines[12], "  九八七六五四三二一");
/// ```
#[must_use]
pub fn text_board(position: &Position, last_move: Option<Move>, viewer: Color) -> String {
    let files: Vec<u8> = match viewer {
        Color::Red => (0..9).collect(),
        Color::Black => (0..9).rev().collect(),
    };
    let ranks: Vec<u8> = match viewer {
        Color::Red => (0..10).rev().collect(),
        Color::Black => (0..10).collect(),
    };
    let numbers = |color: Color| -> String {
        files
            .iter()
            .map(|&f| match color {
                Color::Red => {
                    ['九', '八', '七', '六', '五', '四', '三', '二', '一'][usize::from(f)]
                }
                Color::Black => char::from_u32(0xFF11 + u32::from(f)).unwrap_or('?'),
            })
            .collect()
    };
    let mut out = String::new();
    let _ = writeln!(out, "  {}", numbers(viewer.other()));
    for (i, &rank) in ranks.iter().enumerate() {
        if i == 5 {
            out.push_str("  ～～楚河　漢界～～\n");
        }
        let _ = write!(out, "{rank} ");
        for &file in &files {
            let s = Square::new(file, rank).unwrap_or_else(|| unreachable!("in range"));
            match position.piece_at(s) {
                Some(p) => out.push_str(piece_text(p, PieceStyle::Traditional)),
                None if last_move.is_some_and(|m| m.from == s) => out.push('〇'),
                None => out.push('＋'),
            }
        }
        out.push('\n');
    }
    let _ = writeln!(out, "  {}", numbers(viewer));
    let letters: String = files
        .iter()
        .filter_map(|&f| char::from_u32(0xFF41 + u32::from(f)))
        .collect();
    let _ = writeln!(out, "  {letters}");
    if let Some(m) = last_move {
        let _ = writeln!(out, "→ {m}");
    }
    out
}

/// A description for screen readers: whose turn it is, check or mate, then each side's pieces
/// listed by point (ICCS: file a–i from Red's left, rank 0–9 from Red's side), in `lang`.
///
/// ```
/// use xiangqi_bot::core::Position;
/// use xiangqi_bot::i18n::Lang;
/// let text = xiangqi_bot::render::describe(&Position::startpos(), Lang::En);
/// assert!(text.starts_with("Red to move."));
/// assert!(text.contains("Red (16): General e0; Advisors d0, f0;"));
/// ```
#[must_use]
pub fn describe(position: &Position, lang: Lang) -> String {
    let turn = position.turn();
    let mut out = String::new();
    out.push_str(&match lang {
        Lang::En => format!("{} to move.", side(turn, lang)),
        Lang::Vi => format!("{} đi.", side(turn, lang)),
        Lang::Zh => format!("{}走棋。", side(turn, lang)),
    });
    let state = match position.status() {
        Status::Checkmate => Some(match lang {
            Lang::En => format!(" {} is checkmated.", side(turn, lang)),
            Lang::Vi => format!(" {} bị chiếu hết.", side(turn, lang)),
            Lang::Zh => format!("{}被将死。", side(turn, lang)),
        }),
        Status::Stalemate => Some(match lang {
            Lang::En => format!(" {} has no legal move.", side(turn, lang)),
            Lang::Vi => format!(" {} hết nước đi.", side(turn, lang)),
            Lang::Zh => format!("{}无子可动（困毙）。", side(turn, lang)),
        }),
        Status::Ongoing if position.is_check() => Some(match lang {
            Lang::En => format!(" {} is in check.", side(turn, lang)),
            Lang::Vi => format!(" {} đang bị chiếu.", side(turn, lang)),
            Lang::Zh => format!("{}被将军。", side(turn, lang)),
        }),
        Status::Ongoing => None,
    };
    if let Some(s) = state {
        out.push_str(&s);
    }
    for color in Color::ALL {
        let mine: Vec<(Square, Piece)> = position
            .pieces()
            .filter(|(_, p, _)| p.color == color)
            .map(|(s, p, _)| (s, p))
            .collect();
        let groups: Vec<String> = Role::ALL
            .iter()
            .filter_map(|&role| {
                let points: Vec<String> = mine
                    .iter()
                    .filter(|(_, p)| p.role == role)
                    .map(|(s, _)| s.to_string())
                    .collect();
                if points.is_empty() {
                    return None;
                }
                let name = role_name(Piece::new(color, role), points.len(), lang);
                Some(match lang {
                    Lang::Zh => format!("{name} {}", points.join("、")),
                    _ => format!("{name} {}", points.join(", ")),
                })
            })
            .collect();
        let n = mine.len();
        let _ = match lang {
            Lang::En => write!(out, "\n{} ({n}): {}.", side(color, lang), groups.join("; ")),
            Lang::Vi => write!(
                out,
                "\n{} ({n} quân): {}.",
                side(color, lang),
                groups.join("; ")
            ),
            Lang::Zh => write!(
                out,
                "\n{}（{n}子）：{}。",
                side(color, lang),
                groups.join("；")
            ),
        };
    }
    out
}

fn side(color: Color, lang: Lang) -> &'static str {
    crate::i18n::side_name(color, lang)
}

fn role_name(piece: Piece, count: usize, lang: Lang) -> &'static str {
    const EN: [[&str; 2]; 7] = [
        ["General", "Generals"],
        ["Advisor", "Advisors"],
        ["Elephant", "Elephants"],
        ["Horse", "Horses"],
        ["Chariot", "Chariots"],
        ["Cannon", "Cannons"],
        ["Soldier", "Soldiers"],
    ];
    const VI: [&str; 7] = ["Tướng", "Sĩ", "Tượng", "Mã", "Xe", "Pháo", "Tốt"];
    match lang {
        Lang::En => EN[piece.role.index()][usize::from(count > 1)],
        Lang::Vi => VI[piece.role.index()],
        Lang::Zh => piece_text(piece, PieceStyle::Simplified),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn black_view_is_turned_round() {
        let grid = text_board(&Position::startpos(), None, Color::Black);
        let lines: Vec<&str> = grid.lines().collect();
        assert_eq!(lines[0], "  一二三四五六七八九");
        assert_eq!(lines[1], "0 俥傌相仕帥仕相傌俥");
        assert_eq!(lines[12], "  ９８７６５４３２１");
        assert_eq!(lines[13], "  ｉｈｇｆｅｄｃｂａ");
    }

    #[test]
    fn descriptions_in_three_languages() {
        let p = Position::startpos();
        let vi = describe(&p, Lang::Vi);
        assert!(vi.starts_with("Đỏ đi."), "{vi}");
        assert!(vi.contains("Đen (16 quân): Tướng e9; Sĩ d9, f9;"), "{vi}");
        let zh = describe(&p, Lang::Zh);
        assert!(zh.contains("红方（16子）：帅 e0；仕 d0、f0；"), "{zh}");
        assert!(zh.contains("卒 a6、c6、e6、g6、i6。"), "{zh}");
    }
}
