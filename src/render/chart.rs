//! Line charts as PNG pictures: a rating history today, an evaluation graph tomorrow.
//!
//! A [`Chart`] is plain data: points (x, y), an optional band around them (a rating's
//! deviation; an evaluation's uncertainty), marks on some points (wins and losses; blunders),
//! a reference line (the starting rating; an even position), and either a fixed y range or
//! one fitted to the data with round tick values. Strokes and discs are drawn with `imageproc`'s
//! shapes, supersampled like the board's pictures (`raster`), text with the embedded font,
//! all reduced to a small fixed palette and written by the same PNG encoder as the boards, so
//! no plotting library or second font stack is needed.

use std::sync::OnceLock;

use image::{imageops, RgbaImage};

use super::paint::{indices, Canvas};
use super::raster::{blend, Layer};
use super::strips::{png, StripCache};
use super::text::{font, sanitize_name, Line};
use super::theme::{Palette, Rgb};
use super::RenderError;

/// What a mark on a point means (its colour).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    /// Good for the player (a win).
    Good,
    /// Bad (a loss).
    Bad,
    /// Neither (a draw).
    Neutral,
}

/// A mark on point `index` of the chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    /// Which point.
    pub index: usize,
    /// What it means.
    pub kind: MarkKind,
}

/// A line chart.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Chart {
    /// The title drawn above the plot (bounded when drawn).
    pub title: String,
    /// The points, in x order.
    pub points: Vec<(f64, f64)>,
    /// A band drawn under the line: (low, high) for each point, if any.
    pub band: Option<Vec<(f64, f64)>>,
    /// Marks on points.
    pub marks: Vec<Mark>,
    /// A horizontal reference line.
    pub baseline: Option<f64>,
    /// A fixed y range; fitted to the data (and band) when none.
    pub y_range: Option<(f64, f64)>,
    /// Labels under the x axis: (x, text).
    pub x_labels: Vec<(f64, String)>,
    /// Everything drawn this many times larger (up to 3): 1 (or 0) is [`WIDTH`] × [`HEIGHT`];
    /// 1.5 gives a 1080-pixel-wide picture whose text reads on a phone.
    pub scale: f32,
}

/// Picture size.
pub const WIDTH: u32 = 720;
/// See [`WIDTH`].
pub const HEIGHT: u32 = 360;
/// Most points drawn (the last ones are kept).
pub const MAX_POINTS: usize = 2000;

const BG: Rgb = [0xFB, 0xF7, 0xEE];
const INK: Rgb = [0x2B, 0x22, 0x18];
const GRID: Rgb = [0xE2, 0xD8, 0xC6];
const BASE: Rgb = [0xB8, 0xA4, 0x86];
const LINE: Rgb = [0x1F, 0x5F, 0xB0];
const BAND: Rgb = [0xD3, 0xE0, 0xF0];
const GOOD: Rgb = [0x2E, 0x8B, 0x3E];
const BAD: Rgb = [0xC8, 0x2A, 0x22];
const NEUTRAL: Rgb = [0x80, 0x80, 0x80];

const LEFT: f32 = 62.0;
const RIGHT: f32 = 18.0;
const TOP: f32 = 46.0;
const BOTTOM: f32 = 34.0;

fn palette() -> &'static Palette {
    static PAL: OnceLock<Palette> = OnceLock::new();
    PAL.get_or_init(|| {
        Palette::from_pairs(&[
            (BG, INK),
            (BG, GRID),
            (BG, BASE),
            (BG, LINE),
            (BG, BAND),
            (BAND, LINE),
            (BAND, GRID),
            (BAND, BASE),
            (BG, GOOD),
            (BG, BAD),
            (BG, NEUTRAL),
            (BAND, GOOD),
            (BAND, BAD),
            (BAND, NEUTRAL),
            (LINE, GOOD),
            (LINE, BAD),
            (LINE, NEUTRAL),
        ])
    })
}

/// Round tick values covering `lo..=hi`: a step of 1, 2 or 5 times a power of ten giving
/// about five ticks, and the range widened to whole steps.
fn ticks(lo: f64, hi: f64) -> (f64, f64, f64) {
    let span = (hi - lo).max(1e-9);
    let raw = span / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    ((lo / step).floor() * step, (hi / step).ceil() * step, step)
}

fn label(v: f64, step: f64) -> String {
    if step >= 1.0 {
        format!("{}", v.round() as i64)
    } else {
        let decimals = (-step.log10().floor()) as usize;
        format!("{v:.decimals$}")
    }
}

/// Draw `chart` as a PNG.
///
/// # Errors
/// [`RenderError`] if encoding fails.
pub fn line_chart(chart: &Chart) -> Result<Vec<u8>, RenderError> {
    let k = if chart.scale > 1.0 {
        chart.scale.min(3.0)
    } else {
        1.0
    };
    let (width, height) = (
        (WIDTH as f32 * k).round() as u32,
        (HEIGHT as f32 * k).round() as u32,
    );
    let (w, h) = (width as f32, height as f32);
    let mut img = RgbaImage::from_pixel(width, height, image::Rgba([BG[0], BG[1], BG[2], 255]));
    // Grid, reference line and axes; then the data line and its marks (drawn over the text).
    let mut grid = Layer::new(width, height);
    let mut data = Layer::new(width, height);
    let f = font();
    let skip = chart.points.len().saturating_sub(MAX_POINTS);
    let points: Vec<(f64, f64)> = chart
        .points
        .iter()
        .skip(skip)
        .copied()
        .filter(|(x, y)| x.is_finite() && y.is_finite())
        .collect();
    let band: Option<Vec<(f64, f64)>> = chart
        .band
        .as_ref()
        .filter(|b| b.len() == chart.points.len())
        .map(|b| b.iter().skip(skip).copied().collect());

    let title = sanitize_name(&chart.title, 80);
    let (left, right, top, bottom) = (LEFT * k, RIGHT * k, TOP * k, BOTTOM * k);
    Line::fitted(&f, &title, 18.0 * k, w - left - right).draw(&f, left, 28.0 * k, |x, y, c| {
        blend(&mut img, x, y, INK, c);
    });

    // Ranges.
    let (x0, x1) = match (points.first(), points.last()) {
        (Some(a), Some(b)) if b.0 > a.0 => (a.0, b.0),
        (Some(a), _) => (a.0 - 1.0, a.0 + 1.0),
        _ => (0.0, 1.0),
    };
    let (lo, hi, step) = match chart.y_range {
        Some((lo, hi)) if hi > lo => {
            let (_, _, step) = ticks(lo, hi);
            (lo, hi, step)
        }
        _ => {
            let mut lo = f64::MAX;
            let mut hi = f64::MIN;
            for &(_, y) in &points {
                lo = lo.min(y);
                hi = hi.max(y);
            }
            for &(a, b) in band.iter().flatten() {
                lo = lo.min(a.min(b));
                hi = hi.max(a.max(b));
            }
            if let Some(b) = chart.baseline {
                lo = lo.min(b);
                hi = hi.max(b);
            }
            if lo > hi {
                (lo, hi) = (0.0, 1.0);
            }
            let pad = ((hi - lo) * 0.05).max(1.0);
            ticks(lo - pad, hi + pad)
        }
    };
    let (px0, px1, py0, py1) = (left, w - right, top, h - bottom);
    let sx = |x: f64| px0 + ((x - x0) / (x1 - x0)) as f32 * (px1 - px0);
    let sy = |y: f64| py1 - ((y.clamp(lo, hi) - lo) / (hi - lo)) as f32 * (py1 - py0);

    // Band, grid, reference line.
    if let Some(b) = &band {
        // Column by column (triangles would leave seams along their shared edges).
        for (i, pair) in points.windows(2).enumerate() {
            let (xa, xb) = (sx(pair[0].0), sx(pair[1].0));
            let (c0, c1) = (
                xa.floor() as i32,
                (xb.ceil() as i32).max(xa.floor() as i32 + 1),
            );
            for col in c0..c1 {
                let t = ((col as f32 + 0.5 - xa) / (xb - xa).max(1e-3)).clamp(0.0, 1.0);
                let lerp = |a: f32, b: f32| a + (b - a) * t;
                let top = lerp(sy(b[i].1), sy(b[i + 1].1));
                let bottom = lerp(sy(b[i].0), sy(b[i + 1].0));
                for row in top.floor() as i32..bottom.ceil() as i32 {
                    let (r0, r1) = (row as f32, row as f32 + 1.0);
                    let cov = (r1.min(bottom) - r0.max(top)).clamp(0.0, 1.0);
                    blend(&mut img, col, row, BAND, cov);
                }
            }
        }
    }
    let mut t = lo;
    let mut n = 0;
    while t <= hi + step * 1e-6 && n < 50 {
        let y = sy(t);
        grid.line(px0, y, px1, y, k, 0.0, GRID);
        let l = Line::new(&f, &label(t, step), 13.0 * k);
        l.draw(&f, px0 - 8.0 * k - l.width, y + 5.0 * k, |x, y, c| {
            blend(&mut img, x, y, INK, c)
        });
        t += step;
        n += 1;
    }
    if let Some(b) = chart.baseline.filter(|b| *b >= lo && *b <= hi) {
        let y = sy(b);
        // Dashed.
        let mut x = px0;
        while x < px1 {
            grid.line(x, y, (x + 6.0 * k).min(px1), y, 1.5 * k, 0.0, BASE);
            x += 11.0 * k;
        }
    }
    grid.line(px0, py1, px1, py1, 1.5 * k, 0.0, INK);
    grid.line(px0, py0, px0, py1, 1.5 * k, 0.0, INK);
    imageops::overlay(&mut img, &grid.finish(), 0, 0);
    for (x, text) in &chart.x_labels {
        if *x < x0 || *x > x1 {
            continue;
        }
        let l = Line::fitted(&f, text, 13.0 * k, 160.0 * k);
        let cx = sx(*x).clamp(px0 + l.width / 2.0, px1 - l.width / 2.0);
        l.draw(&f, cx - l.width / 2.0, h - 12.0 * k, |x, y, c| {
            blend(&mut img, x, y, INK, c)
        });
    }

    // The line and its marks.
    match points.as_slice() {
        [] => {}
        [only] => data.disc(sx(only.0), sy(only.1), 3.5 * k, LINE, 1.0),
        many => {
            for pair in many.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                data.line(sx(a.0), sy(a.1), sx(b.0), sy(b.1), 2.5 * k, 1.0, LINE);
            }
        }
    }
    let dense = points.len() > 150;
    for m in &chart.marks {
        let Some(&(x, y)) = m.index.checked_sub(skip).and_then(|i| points.get(i)) else {
            continue;
        };
        let c = match m.kind {
            MarkKind::Good => GOOD,
            MarkKind::Bad => BAD,
            MarkKind::Neutral => NEUTRAL,
        };
        data.disc(sx(x), sy(y), if dense { 2.0 * k } else { 4.0 * k }, c, 1.0);
    }

    imageops::overlay(&mut img, &data.finish(), 0, 0);

    let pal = palette();
    let canvas = Canvas {
        w: width as i32,
        h: height as i32,
        px: indices(&img, pal),
    };
    let ends: Vec<i32> = (1..=height.div_ceil(40))
        .map(|i| (i * 40).min(height) as i32)
        .collect();
    png(&canvas, pal, &ends, &StripCache::new(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(ticks(1432.0, 1671.0), (1400.0, 1700.0, 50.0));
        assert_eq!(ticks(-3.2, 2.9), (-4.0, 4.0, 2.0));
        let (lo, hi, step) = ticks(0.0, 0.3);
        assert!(lo <= 0.0 && hi >= 0.3 && (step - 0.1).abs() < 1e-12);
        assert_eq!(label(0.30000000000000004, 0.1), "0.3");
    }
}

#[cfg(test)]
mod picture_tests {
    use super::*;

    /// A chart decodes as a PNG of the stated size whose line, band and marks are drawn.
    #[test]
    fn a_chart_draws_its_line_and_marks() {
        let points: Vec<(f64, f64)> = (0..30)
            .map(|i| (f64::from(i), 1500.0 + 40.0 * (f64::from(i) / 4.0).sin()))
            .collect();
        let band = points.iter().map(|&(_, y)| (y - 30.0, y + 30.0)).collect();
        let chart = Chart {
            title: "Rating".into(),
            points,
            band: Some(band),
            marks: vec![Mark {
                index: 10,
                kind: MarkKind::Bad,
            }],
            baseline: Some(1500.0),
            ..Chart::default()
        };
        let png = line_chart(&chart).expect("drawn");
        let img = super::super::decode_for_tests(&png);
        assert_eq!((img.width(), img.height()), (WIDTH, HEIGHT));
        if let Ok(dir) = std::env::var("CHART_OUT") {
            let _ = std::fs::write(format!("{dir}/chart.png"), &png);
        }
        let near = |c: Rgb| {
            img.pixels()
                .filter(|p| p.0.iter().zip(c).all(|(a, b)| a.abs_diff(b) < 12))
                .count()
        };
        assert!(near(LINE) > 200, "the line is drawn");
        assert!(near(BAD) > 10, "the mark is drawn");
        assert!(near(BAND) > 1000, "the band is drawn");
    }
}
