//! Tables as PNG pictures: a tournament's standings.
//!
//! A [`Table`] is plain data: a title, a line under it, column headers and rows of cells, a
//! row optionally marked with a medal (its rank drawn on a gold, silver or bronze disc), a
//! streak (a flame-coloured badge after the name) or faded (a player who withdrew). The
//! picture is drawn straight onto palette indices (one byte a pixel, so a table of 200 rows
//! at phone scale stays a few megabytes while drawn), text with the embedded font, and written
//! by the same PNG encoder as the boards.

use std::sync::OnceLock;

use super::paint::Canvas;
use super::strips::{png, StripCache};
use super::text::{font, sanitize_name, Line};
use super::theme::{Palette, Rgb};
use super::RenderError;

/// A medal drawn behind a row's rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Medal {
    /// First.
    Gold,
    /// Second.
    Silver,
    /// Third.
    Bronze,
}

/// One column.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Column {
    /// Its header.
    pub header: String,
    /// The wide column (names): left-aligned, it takes the width the others leave. The other
    /// columns are right-aligned and as wide as their widest cell.
    pub wide: bool,
}

/// One row.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableRow {
    /// Its cells, one per column (missing ones are empty; extra ones are not drawn).
    pub cells: Vec<String>,
    /// A medal behind the first cell.
    pub medal: Option<Medal>,
    /// A streak badge after the wide cell, with this text (`2×`).
    pub streak: Option<String>,
    /// Drawn in grey (a player who is not playing on).
    pub faded: bool,
}

/// A table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// The title (bounded when drawn).
    pub title: String,
    /// A line under the title.
    pub subtitle: String,
    /// The columns.
    pub columns: Vec<Column>,
    /// The rows, top to bottom; only the first [`MAX_ROWS`] are drawn.
    pub rows: Vec<TableRow>,
    /// Everything drawn this many times larger (1 to 3): 1 (or 0) is [`WIDTH`] pixels wide.
    pub scale: f32,
}

/// Picture width at scale 1.
pub const WIDTH: u32 = 720;
/// Most rows drawn: at scale 1.5 the picture is then about 1080 × 8,600 pixels, inside
/// Telegram's limit for photos (width + height at most 10,000).
pub const MAX_ROWS: usize = 200;
/// Most characters of a cell (names are cut to fit their column as well).
const MAX_CELL: usize = 40;

const ROW: f32 = 28.0;
const TITLE: f32 = 44.0;
const SUBTITLE: f32 = 26.0;
const HEADER: f32 = 30.0;
const MARGIN: f32 = 18.0;
const GAP: f32 = 16.0;
const TEXT_PX: f32 = 15.0;

const BG: Rgb = [0xFB, 0xF7, 0xEE];
const STRIPE: Rgb = [0xF1, 0xE9, 0xDA];
const INK: Rgb = [0x2B, 0x22, 0x18];
const DIM: Rgb = [0x9A, 0x8E, 0x7E];
const HEAD: Rgb = [0x7A, 0x2E, 0x1E];
const HEAD_INK: Rgb = [0xFB, 0xF1, 0xE0];
const GOLD: Rgb = [0xE8, 0xB9, 0x2E];
const SILVER: Rgb = [0xC4, 0xC8, 0xCE];
const BRONZE: Rgb = [0xCD, 0x8A, 0x4E];
const FIRE: Rgb = [0xE2, 0x5A, 0x1C];
const WHITE: Rgb = [0xFF, 0xFF, 0xFF];

fn palette() -> &'static Palette {
    static PAL: OnceLock<Palette> = OnceLock::new();
    PAL.get_or_init(|| {
        let mut pairs = vec![(HEAD, HEAD_INK), (FIRE, WHITE)];
        for bg in [BG, STRIPE] {
            pairs.extend([(bg, INK), (bg, DIM), (bg, GOLD), (bg, SILVER)]);
            pairs.extend([(bg, BRONZE), (bg, FIRE)]);
        }
        for medal in [GOLD, SILVER, BRONZE] {
            pairs.push((medal, INK));
        }
        Palette::from_pairs(&pairs)
    })
}

/// A canvas with a palette, drawn on in final pixels.
struct Paper {
    canvas: Canvas,
    pal: &'static Palette,
}

impl Paper {
    fn fill(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, c: Rgb) {
        let index = self.pal.quick(c);
        let (w, h) = (self.canvas.w, self.canvas.h);
        let (x0, x1) = (
            (x0.round() as i32).clamp(0, w),
            (x1.round() as i32).clamp(0, w),
        );
        let (y0, y1) = (
            (y0.round() as i32).clamp(0, h),
            (y1.round() as i32).clamp(0, h),
        );
        for y in y0..y1 {
            let row = (y * w) as usize;
            self.canvas.px[row + x0 as usize..row + x1 as usize].fill(index);
        }
    }

    /// A disc, its edge anti-aliased by the distance of each pixel's centre.
    fn disc(&mut self, cx: f32, cy: f32, r: f32, c: Rgb) {
        for y in (cy - r - 1.0).floor() as i32..=(cy + r + 1.0).ceil() as i32 {
            for x in (cx - r - 1.0).floor() as i32..=(cx + r + 1.0).ceil() as i32 {
                let d = ((x as f32 + 0.5 - cx).powi(2) + (y as f32 + 0.5 - cy).powi(2)).sqrt();
                let cov = (r + 0.5 - d).clamp(0.0, 1.0);
                self.put(x, y, c, cov);
            }
        }
    }

    /// A pill (a rectangle with round ends) from x0 to x1, centred on cy.
    fn pill(&mut self, x0: f32, x1: f32, cy: f32, r: f32, c: Rgb) {
        self.disc(x0 + r, cy, r, c);
        self.disc(x1 - r, cy, r, c);
        self.fill(x0 + r, cy - r, x1 - r, cy + r, c);
    }

    fn put(&mut self, x: i32, y: i32, c: Rgb, cov: f32) {
        let a = (cov.clamp(0.0, 1.0) * 255.0).round() as u8;
        self.canvas.blend(x, y, c, a, self.pal);
    }

    fn text(&mut self, line: &Line, x: f32, baseline: f32, c: Rgb) {
        let f = font();
        let mut spots = Vec::new();
        line.draw(&f, x, baseline, |px, py, cov| spots.push((px, py, cov)));
        for (px, py, cov) in spots {
            self.put(px, py, c, cov);
        }
    }
}

/// Whether the embedded font draws every character of `text` (none would be a hollow box).
#[must_use]
pub fn drawable(text: &str) -> bool {
    use ab_glyph::Font;
    let f = font();
    text.chars()
        .all(|c| c == ' ' || f.glyph_id(c).0 != 0 || super::text::is_zero_width(c))
}

/// Draw `table` as a PNG.
///
/// # Errors
/// [`RenderError`] if encoding fails.
pub fn table_png(table: &Table) -> Result<Vec<u8>, RenderError> {
    let k = if table.scale > 1.0 {
        table.scale.min(3.0)
    } else {
        1.0
    };
    let f = font();
    let px = TEXT_PX * k;
    let rows = &table.rows[..table.rows.len().min(MAX_ROWS)];
    let cols = table.columns.len().max(1);
    let cell = |r: &TableRow, c: usize| -> String {
        sanitize_name(r.cells.get(c).map_or("", String::as_str), MAX_CELL)
    };

    // Column widths: each narrow one as wide as its widest cell; the wide one the rest.
    let width = (WIDTH as f32 * k).round();
    let mut widths = vec![0f32; cols];
    for (c, w) in widths.iter_mut().enumerate() {
        let header = table.columns.get(c).map_or("", |col| col.header.as_str());
        *w = Line::new(&f, &sanitize_name(header, MAX_CELL), px).width;
        for r in rows {
            *w = w.max(Line::new(&f, &cell(r, c), px).width);
        }
        if c == 0 && rows.iter().any(|r| r.medal.is_some()) {
            *w = w.max(ROW * 0.8 * k);
        }
    }
    let wide = table.columns.iter().position(|c| c.wide);
    let narrow: f32 = widths
        .iter()
        .enumerate()
        .filter(|(c, _)| Some(*c) != wide)
        .map(|(_, w)| w)
        .sum();
    let room = width - 2.0 * MARGIN * k - GAP * k * (cols as f32 - 1.0);
    if let Some(c) = wide {
        widths[c] = (room - narrow).max(0.0);
    }
    let mut xs = Vec::with_capacity(cols);
    let mut x = MARGIN * k;
    for w in &widths {
        xs.push(x);
        x += w + GAP * k;
    }

    let (title_h, sub_h, head_h, row_h) = (TITLE * k, SUBTITLE * k, HEADER * k, ROW * k);
    let sub_h = if table.subtitle.trim().is_empty() {
        0.0
    } else {
        sub_h
    };
    let top = title_h + sub_h;
    let height = (top + head_h + row_h * rows.len() as f32 + MARGIN * k).round();
    let pal = palette();
    let mut paper = Paper {
        canvas: Canvas {
            w: width as i32,
            h: height as i32,
            px: vec![pal.quick(BG); (width * height) as usize],
        },
        pal,
    };

    let title = sanitize_name(&table.title, 80);
    let line = Line::fitted(&f, &title, 20.0 * k, width - 2.0 * MARGIN * k);
    paper.text(&line, MARGIN * k, 30.0 * k, INK);
    if sub_h > 0.0 {
        let sub = sanitize_name(&table.subtitle, 120);
        let line = Line::fitted(&f, &sub, 14.0 * k, width - 2.0 * MARGIN * k);
        paper.text(&line, MARGIN * k, title_h + 14.0 * k, DIM);
    }

    // The header band.
    paper.fill(0.0, top, width, top + head_h, HEAD);
    let baseline = |y0: f32, h: f32| y0 + h / 2.0 + px * 0.36;
    for (c, col) in table.columns.iter().enumerate().take(cols) {
        let header = sanitize_name(&col.header, MAX_CELL);
        let line = Line::fitted(&f, &header, px, widths[c]);
        let x = if col.wide {
            xs[c]
        } else {
            xs[c] + widths[c] - line.width
        };
        paper.text(&line, x, baseline(top, head_h), HEAD_INK);
    }

    // The rows.
    for (i, r) in rows.iter().enumerate() {
        let y0 = top + head_h + row_h * i as f32;
        let bg = if i % 2 == 1 { STRIPE } else { BG };
        if bg != BG {
            paper.fill(0.0, y0, width, y0 + row_h, bg);
        }
        let ink = if r.faded { DIM } else { INK };
        let cy = y0 + row_h / 2.0;
        if let Some(m) = r.medal {
            let c = match m {
                Medal::Gold => GOLD,
                Medal::Silver => SILVER,
                Medal::Bronze => BRONZE,
            };
            paper.disc(xs[0] + widths[0] - row_h * 0.4, cy, row_h * 0.36, c);
        }
        for c in 0..cols {
            let wide = Some(c) == wide;
            let badge = r.streak.as_ref().filter(|_| wide).map(|s| {
                let s = sanitize_name(s, 6);
                Line::new(&f, &s, px * 0.8)
            });
            let pad = badge.as_ref().map_or(0.0, |b| b.width + 16.0 * k);
            let line = Line::fitted(&f, &cell(r, c), px, (widths[c] - pad).max(0.0));
            let x = if wide {
                xs[c]
            } else if c == 0 && r.medal.is_some() {
                // Centred on the medal.
                xs[0] + widths[0] - row_h * 0.4 - line.width / 2.0
            } else {
                xs[c] + widths[c] - line.width
            };
            paper.text(&line, x, baseline(y0, row_h), ink);
            if let Some(b) = badge {
                let bx = x + line.width + 8.0 * k;
                let r = row_h * 0.28;
                paper.pill(bx, bx + b.width + 2.0 * r, cy, r, FIRE);
                paper.text(&b, bx + r, cy + px * 0.29, WHITE);
            }
        }
    }

    let ends: Vec<i32> = (1..=(height as u32).div_ceil(40))
        .map(|i| (i * 40).min(height as u32) as i32)
        .collect();
    png(&paper.canvas, pal, &ends, &StripCache::new(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::super::decode_for_tests as decode;

    fn near(img: &image::RgbImage, c: Rgb, (x0, y0, x1, y1): (u32, u32, u32, u32)) -> usize {
        let mut n = 0;
        for y in y0..y1.min(img.height()) {
            for x in x0..x1.min(img.width()) {
                let p = img.get_pixel(x, y).0;
                if p.iter().zip(c).all(|(a, b)| a.abs_diff(b) < 10) {
                    n += 1;
                }
            }
        }
        n
    }

    fn sample(rows: usize) -> Table {
        Table {
            title: "Tournament #3: Swiss, 5 rounds".into(),
            subtitle: "Round 5 of 5 · 10+5".into(),
            columns: ["#", "Player", "Rating", "Points", "Buchholz", "SB"]
                .iter()
                .map(|h| Column {
                    header: (*h).into(),
                    wide: *h == "Player",
                })
                .collect(),
            rows: (0..rows)
                .map(|i| TableRow {
                    cells: vec![
                        (i + 1).to_string(),
                        format!("Player number {i} 象棋"),
                        (1500 + i).to_string(),
                        "3½".into(),
                        "12".into(),
                        "9¾".into(),
                    ],
                    medal: [Medal::Gold, Medal::Silver, Medal::Bronze].get(i).copied(),
                    streak: (i == 4).then(|| "2×".to_string()),
                    faded: i == 5,
                })
                .collect(),
            scale: 1.0,
        }
    }

    /// A table decodes as a PNG of its rows' height, with its header band, its medals, its
    /// streak badge and its stripes where they belong.
    #[test]
    fn a_table_draws_its_rows_medals_and_marks() {
        let t = sample(8);
        let img = decode(&table_png(&t).expect("drawn"));
        let (top, head, row) = (TITLE + SUBTITLE, HEADER, ROW);
        let expect_h = (top + head + row * 8.0 + MARGIN).round() as u32;
        assert_eq!((img.width(), img.height()), (WIDTH, expect_h));
        if let Ok(dir) = std::env::var("CHART_OUT") {
            let _ = std::fs::write(format!("{dir}/table.png"), table_png(&t).expect("drawn"));
        }
        let band = (0, top as u32, WIDTH, (top + head) as u32);
        assert!(near(&img, HEAD, band) > 10_000, "the header band");
        assert!(near(&img, HEAD_INK, band) > 50, "the headers are written");
        let row_box = |i: usize| {
            let y = (top + head + row * i as f32) as u32;
            (0, y, WIDTH, y + row as u32)
        };
        assert!(near(&img, GOLD, row_box(0)) > 100, "gold on the first row");
        assert!(near(&img, SILVER, row_box(1)) > 100, "silver on the second");
        assert!(near(&img, BRONZE, row_box(2)) > 100, "bronze on the third");
        assert_eq!(near(&img, GOLD, row_box(3)), 0, "no medal on the fourth");
        assert!(near(&img, FIRE, row_box(4)) > 100, "the streak badge");
        assert_eq!(near(&img, FIRE, row_box(3)), 0, "no badge elsewhere");
        assert!(
            near(&img, STRIPE, row_box(1)) > 5_000,
            "odd rows are striped"
        );
        assert!(near(&img, DIM, row_box(5)) > 20, "a faded row is grey");
        assert!(near(&img, INK, row_box(6)) > 5, "an ordinary row is ink");
        assert_eq!(near(&img, INK, row_box(5)), 0, "a faded row has no ink");
    }

    /// Long names are cut to their column, odd characters are drawn safely, and a table of
    /// more than [`MAX_ROWS`] rows draws the first ones within Telegram's photo limits.
    #[test]
    fn tables_are_bounded() {
        let mut t = sample(MAX_ROWS + 50);
        t.rows[0].cells[1] = "\u{202e}x".repeat(500);
        t.scale = 1.5;
        let img = decode(&table_png(&t).expect("drawn"));
        assert!(img.width() + img.height() <= 10_000);
        assert!(img.height() < 20 * img.width());
        let empty = Table::default();
        let img = decode(&table_png(&empty).expect("drawn"));
        assert_eq!(img.width(), WIDTH);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(40))]
        /// Any table (any text, any number of cells and rows, any scale) is drawn, decodes,
        /// and is as tall as its rows say.
        #[test]
        fn any_table_is_drawn(
            title in ".{0,120}",
            cells in proptest::collection::vec(proptest::collection::vec(".{0,60}", 0..9), 0..40),
            wide in 0usize..9,
            scale in 0.0f32..4.0,
        ) {
            let columns = (0..7)
                .map(|c| Column { header: format!("h{c}"), wide: c == wide })
                .collect();
            let rows: Vec<TableRow> = cells
                .into_iter()
                .enumerate()
                .map(|(i, cells)| TableRow {
                    cells,
                    medal: [Medal::Gold, Medal::Silver, Medal::Bronze].get(i).copied(),
                    streak: (i % 3 == 0).then(|| title.chars().take(4).collect()),
                    faded: i % 5 == 0,
                })
                .collect();
            let n = rows.len();
            let t = Table { title: title.clone(), subtitle: title, columns, rows, scale };
            let img = decode(&table_png(&t).expect("drawn"));
            let k = if scale > 1.0 { scale.min(3.0) } else { 1.0 };
            proptest::prop_assert_eq!(img.width(), (WIDTH as f32 * k).round() as u32);
            let sub = if t.subtitle.trim().is_empty() { 0.0 } else { SUBTITLE };
            let h = ((TITLE + sub) * k + HEADER * k + ROW * k * n as f32 + MARGIN * k).round();
            proptest::prop_assert_eq!(img.height(), h as u32);
        }
    }
}
