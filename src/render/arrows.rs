//! Arrows over the board: a suggested move (a hint), the better move of a review, or the move
//! that was a mistake. Drawn translucent over the pieces, so the pieces stay readable beneath.
//!
//! An arrow's picture depends only on its style and on the step between its two points on the
//! screen (columns and rows, at most 17 × 19 of them), so each shape is drawn once per theme,
//! the first time it is asked for, and kept; a board with arrows is then composed and encoded
//! like any other (the strips an arrow crosses differ, so the strip cache deflates them anew).

use std::sync::OnceLock;

use super::layout::CELL;
use super::paint::Sprite;
use super::raster::Layer;
pub use super::style::ArrowStyle;
use super::style::ARROW_ALPHA;
use super::theme::{Colors, Palette};
use crate::core::{Move, Square};

/// An arrow from one point to another.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Arrow {
    /// Where the arrow starts (the piece that moves).
    pub from: Square,
    /// Where its head points.
    pub to: Square,
    /// Its colour and meaning.
    pub style: ArrowStyle,
}

impl Arrow {
    /// The arrow of a move.
    #[must_use]
    pub fn of_move(mv: Move, style: ArrowStyle) -> Arrow {
        Arrow {
            from: mv.from,
            to: mv.to,
            style,
        }
    }
}

/// The most arrows drawn on one board; more are left out.
pub const MAX_ARROWS: usize = 8;

/// Shaft width, head length and head width, in pixels (a cell is [`CELL`] pixels).
const SHAFT: f32 = 14.0;
const HEAD_LEN: f32 = 30.0;
const HEAD_WIDTH: f32 = 42.0;
/// The shaft starts this far from the centre of its first point, past the middle of the
/// character of the piece that moves; the tip stops this short of the centre of the last one.
const START_GAP: f32 = 22.0;
const TIP_GAP: f32 = 4.0;

const COLS: i32 = 17;
const ROWS: i32 = 19;

/// The arrow shapes of one theme, drawn on first use.
pub(crate) struct ArrowSprites {
    slots: Vec<OnceLock<Sprite>>,
}

impl ArrowSprites {
    pub fn new() -> ArrowSprites {
        let n = (COLS * ROWS) as usize * ArrowStyle::ALL.len();
        ArrowSprites {
            slots: (0..n).map(|_| OnceLock::new()).collect(),
        }
    }

    /// The arrow of `style` going `dcol` columns right and `drow` rows down the screen, anchored
    /// at its first point; `None` for no step or a step off the board.
    pub fn get(
        &self,
        style: ArrowStyle,
        dcol: i32,
        drow: i32,
        colors: &Colors,
        pal: &Palette,
    ) -> Option<&Sprite> {
        if (dcol, drow) == (0, 0) || dcol.abs() > COLS / 2 || drow.abs() > ROWS / 2 {
            return None;
        }
        let i = ((drow + ROWS / 2) * COLS + dcol + COLS / 2) as usize * ArrowStyle::ALL.len()
            + style.index();
        let slot = self.slots.get(i)?;
        Some(slot.get_or_init(|| draw(colors.arrow(style), dcol, drow, pal)))
    }
}

/// The arrow's outline, with its first point at the origin: a shaft and a triangular head.
pub(crate) fn outline(dx: f32, dy: f32) -> [(f32, f32); 7] {
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    let (nx, ny) = (-uy, ux);
    let tip = len - TIP_GAP;
    // A short arrow keeps a stub of shaft behind its head.
    let start = START_GAP.min(tip - HEAD_LEN - 8.0).max(0.0);
    let base = tip - HEAD_LEN;
    let at = |along: f32, across: f32| (ux * along + nx * across, uy * along + ny * across);
    let (hw, hh) = (SHAFT / 2.0, HEAD_WIDTH / 2.0);
    [
        at(start, hw),
        at(base, hw),
        at(base, hh),
        at(tip, 0.0),
        at(base, -hh),
        at(base, -hw),
        at(start, -hw),
    ]
}

fn draw(color: super::theme::Rgb, dcol: i32, drow: i32, pal: &Palette) -> Sprite {
    let (dx, dy) = ((dcol * CELL as i32) as f32, (drow * CELL as i32) as f32);
    let shape = outline(dx, dy);
    let margin = 2.0;
    let min_x = shape.iter().map(|p| p.0).fold(0.0f32, f32::min) - margin;
    let min_y = shape.iter().map(|p| p.1).fold(0.0f32, f32::min) - margin;
    let max_x = shape.iter().map(|p| p.0).fold(0.0f32, f32::max) + margin;
    let max_y = shape.iter().map(|p| p.1).fold(0.0f32, f32::max) + margin;
    let (ox, oy) = (min_x.floor(), min_y.floor());
    let (w, h) = ((max_x - ox).ceil() as u32, (max_y - oy).ceil() as u32);
    let mut l = Layer::new(w, h);
    let moved: Vec<(f32, f32)> = shape.iter().map(|&(x, y)| (x - ox, y - oy)).collect();
    l.polygon(&moved, color);
    let mut img = l.finish();
    for p in img.pixels_mut() {
        p[3] = (f32::from(p[3]) * ARROW_ALPHA).round() as u8;
    }
    Sprite::from_rgba(&img, pal, -ox as i32, -oy as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn styles_parse() {
        assert_eq!("Best".parse::<ArrowStyle>(), Ok(ArrowStyle::Best));
        assert!("nice".parse::<ArrowStyle>().is_err());
    }

    #[test]
    fn the_outline_points_from_start_to_tip() {
        let o = outline(0.0, -152.0);
        // The tip, straight up, just short of the far point.
        assert_eq!(o[3], (0.0, -(152.0 - TIP_GAP)));
        // The shaft starts past the centre of the first point, as wide as the shaft.
        assert!((o[0].1 + START_GAP).abs() < 1e-3 && (o[0].0 - o[6].0).abs() == SHAFT);
        // A one-step arrow still has a shaft behind its head.
        let short = outline(76.0, 0.0);
        assert!(short[1].0 - short[0].0 >= 8.0, "{short:?}");
    }

    #[test]
    fn steps_off_the_board_have_no_arrow() {
        let arrows = ArrowSprites::new();
        let c = super::super::Theme::Wood.colors();
        let pal = Palette::new(c);
        assert!(arrows.get(ArrowStyle::Hint, 0, 0, c, &pal).is_none());
        assert!(arrows.get(ArrowStyle::Hint, 9, 0, c, &pal).is_none());
        assert!(arrows.get(ArrowStyle::Hint, 8, -9, c, &pal).is_some());
    }
}
