//! Composing one picture from the prepared assets: copy the template, then place labels, marks,
//! pieces and the player bands. Nothing here rasterises a shape; only band text is laid out.

use ab_glyph::FontRef;

use super::assets::{PieceSet, ThemeAssets};
use super::layout::{screen_cell, Layout, MARGIN, WIDTH};
use super::paint::Canvas;
use super::text::{sanitize_name, Line, MAX_NAME_CHARS};
use super::theme::Rgb;
use super::{Arrow, Coordinates, PieceStyle, Player, MAX_ARROWS};
use crate::core::{Color, Move, Position, Square};

/// What the board part of a picture shows.
pub(crate) struct Scene<'a> {
    pub position: &'a Position,
    pub last_move: Option<Move>,
    pub viewer: Color,
    pub coordinates: Coordinates,
    pub pieces: PieceStyle,
    pub arrows: &'a [Arrow],
}

/// Distance from the outer line to the centre of a file label.
const LABEL_OFFSET: i32 = MARGIN as i32 - 17;

/// Draw the board part of `scene` onto `canvas` (a copy of the layout's template).
pub(crate) fn board(
    canvas: &mut Canvas,
    t: &ThemeAssets,
    set: &PieceSet,
    layout: Layout,
    scene: &Scene<'_>,
) {
    let pal = &t.palette;
    let viewer = scene.viewer;
    let (top, bottom) = (layout.row_y(0), layout.row_y(9));
    // File numbers (or ICCS letters) along both edges, rank digits for ICCS.
    for file in 0..9u8 {
        let col = u32::from(screen_cell(sq(file, 0), viewer).0);
        let x = Layout::col_x(col);
        let (red_label, black_label) = match scene.coordinates {
            // Red counts 一..九 from Red's right (file i); Black 1..9 from Black's right (file a).
            Coordinates::Traditional => (numeral(9 - file), char::from(b'1' + file)),
            Coordinates::Iccs => (char::from(b'a' + file), char::from(b'a' + file)),
        };
        let (red_y, black_y) = match viewer {
            Color::Red => (bottom + LABEL_OFFSET, top - LABEL_OFFSET),
            Color::Black => (top - LABEL_OFFSET, bottom + LABEL_OFFSET),
        };
        for (ch, y) in [(red_label, red_y), (black_label, black_y)] {
            if let Some(s) = t.labels.get(&ch) {
                canvas.sprite(s, pal, x, y);
            }
        }
    }
    if scene.coordinates == Coordinates::Iccs {
        for rank in 0..10u8 {
            let row = u32::from(screen_cell(sq(0, rank), viewer).1);
            let y = layout.row_y(row);
            if let Some(s) = t.labels.get(&char::from(b'0' + rank)) {
                canvas.sprite(s, pal, Layout::col_x(0) - LABEL_OFFSET, y);
                canvas.sprite(s, pal, Layout::col_x(8) + LABEL_OFFSET, y);
            }
        }
    }
    // The river: 楚河 on the left, 漢界 (or 汉界) on the right, always upright.
    let river_y = (layout.row_y(4) + layout.row_y(5)) / 2;
    let han = usize::from(scene.pieces == PieceStyle::Simplified) + 1;
    canvas.sprite(&t.river[0], pal, Layout::col_x(2), river_y);
    canvas.sprite(&t.river[han], pal, Layout::col_x(6), river_y);
    for (s, piece, _) in scene.position.pieces() {
        if let Some(sprite) = set.sprites.get(piece.index()) {
            let (x, y) = layout.at(s, viewer);
            canvas.sprite(sprite, pal, x, y);
        }
    }
    if let Some(m) = scene.last_move {
        let (fx, fy) = layout.at(m.from, viewer);
        let (tx, ty) = layout.at(m.to, viewer);
        canvas.sprite(&t.mark_from, pal, fx, fy);
        canvas.sprite(&t.mark_to, pal, tx, ty);
    }
    for color in Color::ALL {
        if scene.position.in_check_color(color) {
            let (x, y) = layout.at(scene.position.general_square(color), viewer);
            canvas.sprite(&t.check, pal, x, y);
        }
    }
    // Arrows last, over everything else on the board.
    for a in scene.arrows.iter().take(MAX_ARROWS) {
        let (from, to) = (screen_cell(a.from, viewer), screen_cell(a.to, viewer));
        let dcol = i32::from(to.0) - i32::from(from.0);
        let drow = i32::from(to.1) - i32::from(from.1);
        if let Some(sprite) = t.arrows.get(a.style, dcol, drow, t.colors, pal) {
            let (x, y) = layout.at(a.from, viewer);
            canvas.sprite(sprite, pal, x, y);
        }
    }
}

/// Pixel size of names and clocks.
const NAME_PX: f32 = 24.0;
const CLOCK_PX: f32 = 26.0;

/// Draw both player bands of a PNG: the side at the top of the board in the top band.
pub(crate) fn bands(
    canvas: &mut Canvas,
    t: &ThemeAssets,
    font: &FontRef<'_>,
    viewer: Color,
    turn: Color,
    players: [&Player; 2],
) {
    let band = Layout::PNG.band() as i32;
    for (color, y0) in [(viewer.other(), 0), (viewer, canvas.h - band)] {
        let player = players[color.index()];
        band_row(canvas, t, font, y0 + band / 2, color, color == turn, player);
    }
}

#[allow(clippy::too_many_arguments)]
fn band_row(
    canvas: &mut Canvas,
    t: &ThemeAssets,
    font: &FontRef<'_>,
    mid: i32,
    color: Color,
    to_move: bool,
    player: &Player,
) {
    let (pal, c) = (&t.palette, t.colors);
    if to_move {
        canvas.sprite(&t.arrow, pal, 22, mid);
    }
    canvas.sprite(&t.dots[color.index()], pal, 50, mid);
    let mut right = WIDTH as i32 - 12;
    let clock = player
        .clock
        .as_deref()
        .map(|s| sanitize_name(s, 12))
        .filter(|s| !s.is_empty());
    if let Some(text) = clock {
        let line = Line::fitted(font, &text, CLOCK_PX, 160.0);
        let (fill, ink) = if to_move {
            (c.accent, c.accent_text)
        } else {
            (c.clock_idle, c.band_text)
        };
        let bw = line.width.ceil() as i32 + 24;
        let x0 = right - bw;
        round_rect(canvas, t, (x0, mid - 18, right, mid + 18), 7.0, fill);
        draw_line(
            canvas,
            t,
            font,
            &line,
            x0 as f32 + 12.0,
            mid as f32 + CLOCK_PX * 0.36,
            ink,
        );
        right = x0 - 14;
    }
    let name = sanitize_name(&player.name, MAX_NAME_CHARS);
    let x0 = 76.0;
    if !name.is_empty() && right as f32 > x0 + 20.0 {
        let line = Line::fitted(font, &name, NAME_PX, right as f32 - x0);
        draw_line(
            canvas,
            t,
            font,
            &line,
            x0,
            mid as f32 + NAME_PX * 0.36,
            c.band_text,
        );
    }
}

fn draw_line(
    canvas: &mut Canvas,
    t: &ThemeAssets,
    font: &FontRef<'_>,
    line: &Line,
    x: f32,
    y: f32,
    ink: Rgb,
) {
    line.draw(font, x, y, |px, py, cov| {
        canvas.blend(
            px,
            py,
            ink,
            (cov.min(1.0) * 255.0).round() as u8,
            &t.palette,
        );
    });
}

/// A filled rectangle with rounded corners, anti-aliased against whatever lies beneath.
fn round_rect(
    canvas: &mut Canvas,
    t: &ThemeAssets,
    (x0, y0, x1, y1): (i32, i32, i32, i32),
    r: f32,
    fill: Rgb,
) {
    let (fx0, fy0, fx1, fy1) = (x0 as f32, y0 as f32, x1 as f32, y1 as f32);
    for y in y0..y1 {
        for x in x0..x1 {
            let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
            let dx = (fx0 + r - px).max(px - (fx1 - r)).max(0.0);
            let dy = (fy0 + r - py).max(py - (fy1 - r)).max(0.0);
            let d = (dx * dx + dy * dy).sqrt();
            let cov = (r + 0.5 - d).clamp(0.0, 1.0);
            canvas.blend(x, y, fill, (cov * 255.0).round() as u8, &t.palette);
        }
    }
}

fn sq(file: u8, rank: u8) -> Square {
    Square::new(file, rank).unwrap_or_else(|| unreachable!("file and rank are in range"))
}

/// The Chinese numeral 一..九 for 1..=9.
fn numeral(n: u8) -> char {
    ['一', '二', '三', '四', '五', '六', '七', '八', '九']
        .get(usize::from(n.saturating_sub(1)))
        .copied()
        .unwrap_or('?')
}
