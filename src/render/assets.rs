//! Everything drawn once per theme (board template, labels, marks) or per theme and piece style
//! (the fourteen discs), quantised to the theme's palette.

use std::collections::BTreeMap;

use ab_glyph::FontRef;
use image::{imageops, GrayImage, Luma, RgbaImage};

use super::arrows::ArrowSprites;
use super::layout::{Layout, BAND, BOARD_HEIGHT, CELL, PIECE_RADIUS, WIDTH};
use super::paint::{indices, Canvas, Sprite};
use super::raster::{self, Layer};
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
    /// Arrows over the board, drawn when first asked for.
    pub arrows: ArrowSprites,
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
            w: png.width() as i32,
            h: png.height() as i32,
            px: indices(&png, &palette),
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
            let mut l = Layer::new(size, size);
            brackets(&mut l, mid, r, 13.0, w, c.highlight);
            if dot {
                l.disc(mid, mid, 8.0, c.highlight, 1.0);
            }
            Sprite::from_rgba(&l.finish(), &palette, mid as i32, mid as i32)
        };
        let mark_from = marks(true, 3.0);
        let mark_to = marks(false, 3.0);
        // A ring with a faint outer edge: discs from the outside in, then the middle cleared.
        let mut l = Layer::new(size, size);
        l.disc(mid, mid, r + 6.0, c.check, 0.35);
        l.disc(mid, mid, r + 4.5, c.check, 1.0);
        l.clear_disc(mid, mid, r);
        let check = Sprite::from_rgba(&l.finish(), &palette, mid as i32, mid as i32);
        let dots = [c.red_ink, c.black_dot].map(|fill| {
            let mut l = Layer::new(32, 32);
            l.disc(16.0, 16.0, 13.0, c.band_text, 1.0);
            l.disc(16.0, 16.0, 11.0, fill, 1.0);
            Sprite::from_rgba(&l.finish(), &palette, 16, 16)
        });
        let mut l = Layer::new(32, 32);
        l.polygon(&[(8.0, 5.0), (26.0, 16.0), (8.0, 27.0)], c.accent);
        let arrow = Sprite::from_rgba(&l.finish(), &palette, 16, 16);
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
            arrows: ArrowSprites::new(),
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
        let c = theme.colors();
        let mut sprites = Vec::with_capacity(14);
        for color in Color::ALL {
            // Every role of a side stands on the same disc: draw it once.
            let disc = piece_disc(c, color);
            for role in Role::ALL {
                let piece = Piece::new(color, role);
                sprites.push(piece_sprite(c, &disc, piece, style, font, palette));
            }
        }
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

/// Size of a piece's picture: the disc, its shadow and a margin.
const PIECE_SIZE: u32 = 2 * PIECE_RADIUS + 12;

/// The disc of `color`'s pieces, without a character: its shadow, rim, face and inner ring.
fn piece_disc(c: &Colors, color: Color) -> RgbaImage {
    let r = PIECE_RADIUS as f32;
    let size = PIECE_SIZE;
    let mid = (size / 2) as f32;
    let (face, rim, ink) = match color {
        Color::Red => (c.red_face, c.red_rim, c.red_ink),
        Color::Black => (c.black_face, c.black_rim, c.black_ink),
    };
    let mut l = Layer::new(size, size);
    // Discs from the outside in: rim, face, the inner ring in ink, face again inside it.
    l.disc(mid, mid, r, rim, 1.0);
    l.disc(mid, mid, r - 3.5, face, 1.0);
    l.disc(mid, mid, r - 6.5, ink, 1.0);
    l.disc(mid, mid, r - 8.0, face, 1.0);
    let disc = l.finish();
    let (shadow, alpha) = c.shadow;
    if alpha == 0 {
        return disc;
    }
    // A soft shadow down and to the right: a disc blurred over about four pixels.
    let mut l = Layer::new(size, size);
    l.disc(
        mid + 1.5,
        mid + 2.5,
        r - 0.5,
        shadow,
        f32::from(alpha) / 255.0,
    );
    let mut out = l.finish_blurred(1.6);
    imageops::overlay(&mut out, &disc, 0, 0);
    out
}

fn piece_sprite(
    c: &Colors,
    disc: &RgbaImage,
    piece: Piece,
    style: PieceStyle,
    font: &FontRef<'_>,
    pal: &Palette,
) -> Sprite {
    let r = PIECE_RADIUS as f32;
    let mid = (PIECE_SIZE / 2) as f32;
    let ink = match piece.color {
        Color::Red => c.red_ink,
        Color::Black => c.black_ink,
    };
    let mut img = disc.clone();
    let text = piece_text(piece, style);
    let px = match text.chars().count() {
        1 if text.is_ascii() => 38.0,
        1 => 2.0 * r * 0.62,
        _ => 30.0,
    };
    emboldened(&mut img, font, text, px, (mid, mid), ink);
    Sprite::from_rgba(&img, pal, mid as i32, mid as i32)
}

/// Draw `text` centred at `at`, one pixel bolder than the font (its strokes are thin for discs
/// seen on a phone).
fn emboldened(
    img: &mut RgbaImage,
    font: &FontRef<'_>,
    text: &str,
    px: f32,
    at: (f32, f32),
    ink: Rgb,
) {
    let mut cov = GrayImage::new(img.width(), img.height());
    Line::new(font, text, px).draw_centered(font, at.0 - 0.5, at.1 - 0.5, |x, y, c| {
        if let (Ok(x), Ok(y)) = (u32::try_from(x), u32::try_from(y)) {
            if let Some(p) = cov.get_pixel_mut_checked(x, y) {
                let v = f32::from(p[0]) / 255.0 + c;
                *p = Luma([(v.min(1.0) * 255.0).round() as u8]);
            }
        }
    });
    for (x, y, p) in raster::embolden(&cov).enumerate_pixels() {
        raster::blend(img, x as i32, y as i32, ink, f32::from(p[0]) / 255.0);
    }
}

/// Corner brackets around a square of half-size `h` centred at (`mid`, `mid`).
fn brackets(p: &mut Layer, mid: f32, h: f32, arm: f32, w: f32, c: Rgb) {
    let hw = w / 2.0;
    for (sx, sy) in [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)] {
        let (x, y) = (mid + sx * h, mid + sy * h);
        p.line(x, y, x - sx * arm, y, w, hw, c);
        p.line(x, y, x, y - sy * arm, w, hw, c);
    }
}

fn label_sprite(font: &FontRef<'_>, ch: char, ink: Rgb, pal: &Palette) -> Sprite {
    let mut p = RgbaImage::new(40, 40);
    let line = Line::new(font, ch.encode_utf8(&mut [0; 4]), LABEL_PX);
    // Centred on the advance, on a shared baseline, so a row of labels lines up.
    line.draw(
        font,
        20.0 - line.width / 2.0,
        20.0 + LABEL_PX * 0.36,
        |x, y, c| raster::blend(&mut p, x, y, ink, c),
    );
    Sprite::from_rgba(&p, pal, 20, 20)
}

fn river_sprite(font: &FontRef<'_>, text: &str, ink: Rgb, pal: &Palette) -> Sprite {
    let (w, h) = (3 * CELL, CELL);
    let mut p = RgbaImage::new(w, h);
    let (cx, cy) = ((w / 2) as f32, (h / 2) as f32);
    for (i, ch) in text.chars().enumerate() {
        let line = Line::new(font, ch.encode_utf8(&mut [0; 4]), RIVER_PX);
        let gx = cx + if i == 0 { -0.9 } else { 0.9 } * RIVER_PX;
        line.draw(
            font,
            gx - line.width / 2.0,
            cy + RIVER_PX * 0.36,
            |x, y, c| raster::blend(&mut p, x, y, ink, c),
        );
    }
    Sprite::from_rgba(&p, pal, cx as i32, cy as i32)
}

/// The board without pieces: margins, bands, grid, river gap, palaces and position marks. The
/// grid is symmetric under a half turn, so one template serves both orientations.
fn board_template(c: &Colors, layout: Layout) -> RgbaImage {
    let (w, h) = (layout.width(), layout.height());
    // Everything but the palace diagonals lies on whole pixels (lines 2 or 4 pixels wide on
    // pixel corners), so the template is drawn as it is and only the diagonals supersampled.
    let mut p = Layer::filled_on_pixels(w, h, c.board);
    let band = layout.band();
    if band > 0 {
        p.rect(0, 0, w, band, c.band);
        p.rect(0, h - band, w, h, c.band);
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
    for top in [0, 7] {
        // The palace's two diagonals, on a transparent square over it, laid on the grid.
        let side = 2 * CELL + 4;
        let (x0, y0) = (x(3) - 2.0, y(top) - 2.0);
        let mut palace = Layer::new(side, side);
        let (a, b) = (2.0, side as f32 - 2.0);
        palace.line(a, a, b, b, thin, 0.0, c.line);
        palace.line(b, a, a, b, thin, 0.0, c.line);
        p.overlay(&palace.finish(), x0 as i64, y0 as i64);
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
    p.finish()
}
