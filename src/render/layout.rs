//! Geometry: where each point of the board lands in the picture, for either orientation.

use crate::core::{Color, Square};

/// Distance between neighbouring points, in pixels.
pub const CELL: u32 = 76;
/// From the picture's edge to the outermost lines (room for a disc and a file number).
pub const MARGIN: u32 = 68;
/// Radius of a piece's disc.
pub const PIECE_RADIUS: u32 = 35;
/// Height of a player band (PNG only).
pub const BAND: u32 = 52;
/// Width of every picture.
pub const WIDTH: u32 = 2 * MARGIN + 8 * CELL;
/// Height of the board area (lines, margins, file numbers).
pub const BOARD_HEIGHT: u32 = 2 * MARGIN + 9 * CELL;

/// The frame of one kind of picture: the board, with or without a player band above and below.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    band: u32,
}

impl Layout {
    /// A PNG board: a player band above and below.
    pub const PNG: Layout = Layout { band: BAND };
    /// A replay GIF frame: the board alone.
    pub const GIF: Layout = Layout { band: 0 };

    /// Picture width in pixels.
    #[must_use]
    pub const fn width(self) -> u32 {
        WIDTH
    }

    /// Picture height in pixels.
    #[must_use]
    pub const fn height(self) -> u32 {
        BOARD_HEIGHT + 2 * self.band
    }

    /// Height of each player band (0 when there are none).
    #[must_use]
    pub const fn band(self) -> u32 {
        self.band
    }

    /// The pixel at the centre of point `sq` when `viewer` sits at the bottom.
    #[must_use]
    pub fn point(self, sq: Square, viewer: Color) -> (u32, u32) {
        let (col, row) = screen_cell(sq, viewer);
        (
            MARGIN + u32::from(col) * CELL,
            self.band + MARGIN + u32::from(row) * CELL,
        )
    }

    /// [`Layout::point`] as signed coordinates, for drawing.
    pub(crate) fn at(self, sq: Square, viewer: Color) -> (i32, i32) {
        let (x, y) = self.point(sq, viewer);
        (x as i32, y as i32)
    }

    /// Pixel x of screen column `col` (0 = the viewer's left).
    pub(crate) const fn col_x(col: u32) -> i32 {
        (MARGIN + col * CELL) as i32
    }

    /// Where the strips that the PNG encoder deflates separately end: each player band, and one
    /// rank of the board each, cut midway between ranks so that a piece and its marks lie in one
    /// strip. The last end is the picture's height.
    pub(crate) fn strip_ends(self) -> Vec<i32> {
        let mut ends = Vec::with_capacity(12);
        if self.band > 0 {
            ends.push(self.band as i32);
        }
        for row in 0..9 {
            ends.push(self.row_y(row) + (CELL / 2) as i32);
        }
        ends.push((self.band + BOARD_HEIGHT) as i32);
        if self.band > 0 {
            ends.push(self.height() as i32);
        }
        ends
    }

    /// Pixel y of screen row `row` (0 = the top line) in this layout.
    pub(crate) const fn row_y(self, row: u32) -> i32 {
        (self.band + MARGIN + row * CELL) as i32
    }
}

/// Screen column (0 = viewer's left) and row (0 = top) of a point.
pub(crate) fn screen_cell(sq: Square, viewer: Color) -> (u8, u8) {
    match viewer {
        Color::Red => (sq.file(), 9 - sq.rank()),
        Color::Black => (8 - sq.file(), sq.rank()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orientation_puts_the_viewer_at_the_bottom() {
        let e0 = Square::parse("e0").unwrap_or_else(|| unreachable!());
        let i0 = Square::parse("i0").unwrap_or_else(|| unreachable!());
        let (_, y_red) = Layout::PNG.point(e0, Color::Red);
        let (_, y_black) = Layout::PNG.point(e0, Color::Black);
        assert!(y_red > y_black);
        // ICCS file i (Red's file 一) is at Red's right: the bottom right when Red views.
        assert_eq!(
            Layout::PNG.point(i0, Color::Red),
            (WIDTH - MARGIN, Layout::PNG.height() - BAND - MARGIN)
        );
        assert_eq!(Layout::PNG.point(i0, Color::Black), (MARGIN, BAND + MARGIN));
    }

    #[test]
    fn strips_cover_the_picture_and_keep_each_rank_whole() {
        for layout in [Layout::PNG, Layout::GIF] {
            let ends = layout.strip_ends();
            assert!(ends.windows(2).all(|w| w[0] < w[1]));
            assert_eq!(ends.last().copied(), Some(layout.height() as i32));
            for row in 0..10 {
                let (top, bottom) = (
                    layout.row_y(row) - PIECE_RADIUS as i32,
                    layout.row_y(row) + PIECE_RADIUS as i32,
                );
                let start = ends.iter().filter(|&&e| e <= top).count();
                let end = ends.iter().filter(|&&e| e <= bottom).count();
                assert_eq!(start, end, "rank row {row} is cut by a strip end");
            }
        }
    }
}
