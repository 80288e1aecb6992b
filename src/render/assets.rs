//! Everything drawn once per theme (board template, labels, marks) or per theme and piece style
//! (the fourteen discs), quantised to the theme's palette.

use std::collections::BTreeMap;

use ab_glyph::FontRef;

use super::layout::{Layout, BAND, BOARD_HEIGHT, CELL, PIECE_RADIUS, WIDTH};
use super::paint::{Canvas, Paint, Sprite};
use super::text::Line;
use super::theme::{Colors, Palette, Rgb, Theme};
use super::PieceStyle;
use crate::core::{Color, Piece, Role};

/// Pixel size of file numbers and ICCS labels.
const LABEL_PX: f32 = 22.0;
/// Pixel size of the river text.
const RIVER_PX: f32 = 44.0;

/// The per-theme assets.
pub(crate) struct ThemeAssets {
    pub palette: Palette,
    pub colors: &'static Colors,
    /// The empty PNG picture: board, grid and both (empty) player bands.
    pub png_template: Canvas,
    /// The empty GIF frame: board and grid only.
    pub gif_template: Canvas,
    /// 楚河, 漢界 and 汉界.
    pub river: [Sprite; 3],
    /// File numbers and ICCS letters and digits, by character.
    pub labels: BTreeMap<char, Sprite>,
    pub mark_from: Sprite,
    pub mark_to: Sprite,
    pub check: Sprite,
    /// The small discs standing for Red and Black in the player bands.
    pub dots: [Sprite; 2],
    /// The turn arrow ▶.
    pub arrow: Sprite,
}

/// The fourteen discs of one theme and piece style, by [`Piece::index`].
pub(crate) struct PieceSet {
    pub sprites: Vec<Sprite>,
}

/// The characters of every label drawn around the board.
pub(crate) const LABEL_CHARS: &str = "0123456789abcdefghi一二三四五六七八九";

impl ThemeAssets {
    pub fn build(theme: Theme, font: &FontRef<'_>) -> ThemeAssets {
        let c = theme.colors();
        let palette = Palette::new(c);
        let png = board_template(c, Layout::PNG);
        let png_template = Canvas {
            w: png.w,
            h: png.h,
            px: png.to_indices(&palette),
        };
        let start = (BAND * WIDTH) as usize;
        let end = start + (BOARD_HEIGHT * WIDTH) as usize;
        let gif_template = Canvas {
            w: WIDTH as i32,
            h: BOARD_HEIGHT as i32,
            px: png_template
                .px
                .get(start..end)
                .map(<[u8]>::to_vec)
                .unwrap_or_default(),
        };
        let river = ["楚河", "漢界", "汉界"].map(|t| river_sprite(font, t, c.line, &palette));
        let labels = LABEL_CHARS
            .chars()
            .map(|ch| (ch, label_sprite(font, ch, c.line, &palette)))
            .collect();
        let r = PIECE_RADIUS as f32;
        let size = 2 * PIECE_RADIUS + 24;
        let mid = (size / 2) as f32;
        // Brackets just outside the disc and inside the point's own cell, so the marks of two
        // neighbouring points never touch.
        let marks = |dot: bool, w: f32| {
            let mut p = Paint::new(size, size);
            brackets(&mut p, mid, r, 13.0, w, c.highlight);
            if dot {
                p.disc(mid, mid, 8.0, c.highlight);
            }
            p.to_sprite(&palette, mid as i32, mid as i32)
        };
        let mark_from = marks(true, 3.0);
        let mark_to = marks(false, 3.0);
        let mut p = Paint::new(size, size);
        p.ring(mid, mid, r + 4.5, r + 6.0, c.check, 0.35);
        p.ring(mid, mid, r, r + 4.5, c.check, 1.0);
        let check = p.to_sprite(&palette, mid as i32, mid as i32);
        let dots = [c.red_ink, c.black_dot].map(|fill| {
            let mut p = Paint::new(32, 32);
            p.disc(16.0, 16.0, 13.0, c.band_text);
            p.disc(16.0, 16.0, 11.0, fill);
            p.to_sprite(&palette, 16, 16)
        });
        let mut p = Paint::new(32, 32);
        p.triangle([(8.0, 5.0), (26.0, 16.0), (8.0, 27.0)], c.accent);
        let arrow = p.to_sprite(&palette, 16, 16);
        ThemeAssets {
            palette,
            colors: c,
            png_template,
            gif_template,
            river,
            labels,
            mark_from,
            mark_to,
            check,
            dots,
            arrow,
        }
    }
}

impl PieceSet {
    pub fn build(
        theme: Theme,
        style: PieceStyle,
        font: &FontRef<'_>,
        palette: &Palette,
    ) -> PieceSet {
        let sprites = Color::ALL
            .iter()
            .flat_map(|&color| Role::ALL.map(|role| Piece::new(color, role)))
            .map(|piece| piece_sprite(theme.colors(), piece, style, font, palette))
            .collect();
        PieceSet { sprites }
    }
}

/// What is written on a disc.
#[must_use]
pub(crate) fn piece_text(piece: Piece, style: PieceStyle) -> &'static str {
    const TRAD: [[&str; 7]; 2] = [
        ["帥", "仕", "相", "傌", "俥", "炮", "兵"],
        ["將", "士", "象", "馬", "車", "砲", "卒"],
    ];
    const SIMP: [[&str; 7]; 2] = [
        ["帅", "仕", "相", "马", "车", "炮", "兵"],
        ["将", "士", "象", "马", "车", "炮", "卒"],
    ];
    const WXF: [&str; 7] = ["K", "A", "E", "H", "R", "C", "P"];
    const VIET: [&str; 7] = ["Tg", "S", "T", "M", "X", "P", "B"];
    let (c, r) = (piece.color.index(), piece.role.index());
    match style {
        PieceStyle::Traditional => TRAD[c][r],
        PieceStyle::Simplified => SIMP[c][r],
        PieceStyle::LettersWxf => WXF[r],
        PieceStyle::LettersVietnamese => VIET[r],
    }
}

fn piece_sprite(
    c: &Colors,
    piece: Piece,
    style: PieceStyle,
    font: &FontRef<'_>,
    pal: &Palette,
) -> Sprite {
    let r = PIECE_RADIUS as f32;
    let size = 2 * PIECE_RADIUS + 12;
    let mid = (size / 2) as f32;
    let (face, rim, ink) = match piece.color {
        Color::Red => (c.red_face, c.red_rim, c.red_ink),
        Color::Black => (c.black_face, c.black_rim, c.black_ink),
    };
    let mut p = Paint::new(size, size);
    let (shadow, alpha) = c.shadow;
    if alpha > 0 {
        p.soft_disc(
            mid + 1.5,
            mid + 2.5,
            r - 0.5,
            2.0,
            shadow,
            f32::from(alpha) / 255.0,
        );
    }
    p.disc(mid, mid, r, face);
    p.ring(mid, mid, r - 3.5, r, rim, 1.0);
    p.ring(mid, mid, r - 8.0, r - 6.5, ink, 1.0);
    let text = piece_text(piece, style);
    let px = match text.chars().count() {
        1 if text.is_ascii() => 38.0,
        1 => 2.0 * r * 0.62,
        _ => 30.0,
    };
    emboldened(&mut p, font, text, px, (mid, mid), ink);
    p.to_sprite(pal, mid as i32, mid as i32)
}

/// Draw `text` centred at `at`, one pixel bolder than the font (its strokes are thin for discs
/// seen on a phone).
fn emboldened(p: &mut Paint, font: &FontRef<'_>, text: &str, px: f32, at: (f32, f32), ink: Rgb) {
    let (w, h) = (p.w, p.h);
    let mut cov = vec![0.0f32; (w * h) as usize];
    Line::new(font, text, px).draw_centered(font, at.0 - 0.5, at.1 - 0.5, |x, y, c| {
        if x >= 0 && y >= 0 && x < w && y < h {
            let i = (y * w + x) as usize;
            cov[i] = (cov[i] + c).min(1.0);
        }
    });
    for y in 0..h {
        for x in 0..w {
            let get = |dx: i32, dy: i32| {
                let (xx, yy) = (x - dx, y - dy);
                if xx >= 0 && yy >= 0 {
                    cov[(yy * w + xx) as usize]
                } else {
                    0.0
                }
            };
            let c = get(0, 0).max(get(1, 0)).max(get(0, 1)).max(get(1, 1));
            p.blend(x, y, ink, c);
        }
    }
}

/// Corner brackets around a square of half-size `h` centred at (`mid`, `mid`).
fn brackets(p: &mut Paint, mid: f32, h: f32, arm: f32, w: f32, c: Rgb) {
    let hw = w / 2.0;
    for (sx, sy) in [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)] {
        let (x, y) = (mid + sx * h, mid + sy * h);
        p.line(x, y, x - sx * arm, y, w, hw, c);
        p.line(x, y, x, y - sy * arm, w, hw, c);
    }
}

fn label_sprite(font: &FontRef<'_>, ch: char, ink: Rgb, pal: &Palette) -> Sprite {
    let mut p = Paint::new(40, 40);
    let line = Line::new(font, ch.encode_utf8(&mut [0; 4]), LABEL_PX);
    // Centred on the advance, on a shared baseline, so a row of labels lines up.
    line.draw(
        font,
        20.0 - line.width / 2.0,
        20.0 + LABEL_PX * 0.36,
        |x, y, c| {
            p.blend(x, y, ink, c);
        },
    );
    p.to_sprite(pal, 20, 20)
}

fn river_sprite(font: &FontRef<'_>, text: &str, ink: Rgb, pal: &Palette) -> Sprite {
    let (w, h) = (3 * CELL, CELL);
    let mut p = Paint::new(w, h);
    let (cx, cy) = ((w / 2) as f32, (h / 2) as f32);
    for (i, ch) in text.chars().enumerate() {
        let line = Line::new(font, ch.encode_utf8(&mut [0; 4]), RIVER_PX);
        let gx = cx + if i == 0 { -0.9 } else { 0.9 } * RIVER_PX;
        line.draw(
            font,
            gx - line.width / 2.0,
            cy + RIVER_PX * 0.36,
            |x, y, c| {
                p.blend(x, y, ink, c);
            },
        );
    }
    p.to_sprite(pal, cx as i32, cy as i32)
}

/// The board without pieces: margins, bands, grid, river gap, palaces and position marks. The
/// grid is symmetric under a half turn, so one template serves both orientations.
fn board_template(c: &Colors, layout: Layout) -> Paint {
    let (w, h) = (layout.width(), layout.height());
    let mut p = Paint::filled(w, h, c.board);
    let band = layout.band() as i32;
    if band > 0 {
        p.rect(0, 0, w as i32, band, c.band);
        p.rect(0, h as i32 - band, w as i32, h as i32, c.band);
    }
    let x = |col: u32| Layout::col_x(col) as f32;
    let y = |row: u32| layout.row_y(row) as f32;
    let (thin, thick) = (2.0, 4.0);
    for row in 0..10 {
        let wd = if row == 0 || row == 9 { thick } else { thin };
        p.line(x(0), y(row), x(8), y(row), wd, thick / 2.0, c.line);
    }
    for col in 0..9 {
        if col == 0 || col == 8 {
            p.line(x(col), y(0), x(col), y(9), thick, thick / 2.0, c.line);
        } else {
            p.line(x(col), y(0), x(col), y(4), thin, 0.0, c.line);
            p.line(x(col), y(5), x(col), y(9), thin, 0.0, c.line);
        }
    }
    for (top, bottom) in [(0, 2), (7, 9)] {
        p.line(x(3), y(top), x(5), y(bottom), thin, 0.0, c.line);
        p.line(x(5), y(top), x(3), y(bottom), thin, 0.0, c.line);
    }
    let cannon_points = [(1, 2), (7, 2), (1, 7), (7, 7)];
    let soldier_points = [0, 2, 4, 6, 8]
        .into_iter()
        .flat_map(|col| [(col, 3), (col, 6)]);
    for (col, row) in cannon_points.into_iter().chain(soldier_points) {
        let (px, py) = (x(col), y(row));
        let (gap, arm) = (5.0, 12.0);
        for (sx, sy) in [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)] {
            if (col == 0 && sx < 0.0) || (col == 8 && sx > 0.0) {
                continue;
            }
            let (cx, cy) = (px + sx * gap, py + sy * gap);
            p.line(cx, cy, cx + sx * arm, cy, thin, thin / 2.0, c.line);
            p.line(cx, cy, cx, cy + sy * arm, thin, thin / 2.0, c.line);
        }
    }
    p
}
