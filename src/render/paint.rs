//! Drawing surfaces: a true-colour painter used once to build sprites and board templates, the
//! indexed [`Canvas`] every image is composed on, and [`Sprite`]s that move between the two.

use std::collections::HashMap;

use super::theme::{Palette, Rgb};

/// A true-colour RGBA surface with straight alpha, anti-aliased by coverage. Used only while
/// building assets, never per image.
pub(crate) struct Paint {
    pub w: i32,
    pub h: i32,
    px: Vec<[f32; 4]>,
}

impl Paint {
    /// A transparent surface.
    pub fn new(w: u32, h: u32) -> Paint {
        Paint {
            w: w as i32,
            h: h as i32,
            px: vec![[0.0; 4]; (w * h) as usize],
        }
    }

    /// An opaque surface filled with `c`.
    pub fn filled(w: u32, h: u32, c: Rgb) -> Paint {
        let mut p = Paint::new(w, h);
        let v = [f32::from(c[0]), f32::from(c[1]), f32::from(c[2]), 1.0];
        p.px.iter_mut().for_each(|x| *x = v);
        p
    }

    /// Paint `c` over the pixel at (x, y) with coverage `cov` (0..=1); off-surface is ignored.
    pub fn blend(&mut self, x: i32, y: i32, c: Rgb, cov: f32) {
        if x < 0 || y < 0 || x >= self.w || y >= self.h || cov <= 0.0 {
            return;
        }
        let a = cov.min(1.0);
        let d = &mut self.px[(y * self.w + x) as usize];
        let out_a = a + d[3] * (1.0 - a);
        if out_a <= 0.0 {
            return;
        }
        for (i, ch) in c.iter().enumerate() {
            d[i] = (f32::from(*ch) * a + d[i] * d[3] * (1.0 - a)) / out_a;
        }
        d[3] = out_a;
    }

    /// Fill the pixel rectangle [x0, x1) × [y0, y1).
    pub fn rect(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, c: Rgb) {
        for y in y0..y1 {
            for x in x0..x1 {
                self.blend(x, y, c, 1.0);
            }
        }
    }

    /// Run `f(x, y, px, py)` over the pixels of a bounding box, with pixel-centre coordinates.
    fn each(&mut self, bx: (f32, f32, f32, f32), c: Rgb, f: impl Fn(f32, f32) -> f32) {
        let x0 = bx.0.floor() as i32;
        let y0 = bx.1.floor() as i32;
        let x1 = bx.2.ceil() as i32;
        let y1 = bx.3.ceil() as i32;
        for y in y0..=y1 {
            for x in x0..=x1 {
                let cov = f(x as f32 + 0.5, y as f32 + 0.5);
                self.blend(x, y, c, cov);
            }
        }
    }

    /// A straight stroke of width `w` from (x0, y0) to (x1, y1), its ends extended by `cap`.
    #[allow(clippy::too_many_arguments)]
    pub fn line(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, w: f32, cap: f32, c: Rgb) {
        let (dx, dy) = (x1 - x0, y1 - y0);
        let len = (dx * dx + dy * dy).sqrt().max(1e-3);
        let (ux, uy) = (dx / len, dy / len);
        let (mx, my) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
        let half_len = len / 2.0 + cap;
        let hw = w / 2.0;
        let r = half_len + hw + 1.0;
        self.each((mx - r, my - r, mx + r, my + r), c, |px, py| {
            let (rx, ry) = (px - mx, py - my);
            let along = (rx * ux + ry * uy).abs();
            let across = (rx * uy - ry * ux).abs();
            (hw + 0.5 - across).clamp(0.0, 1.0) * (half_len + 0.5 - along).clamp(0.0, 1.0)
        });
    }

    /// A filled circle.
    pub fn disc(&mut self, cx: f32, cy: f32, r: f32, c: Rgb) {
        self.ring(cx, cy, 0.0, r, c, 1.0);
    }

    /// The band between radii `r0` and `r1`, at opacity `alpha`.
    pub fn ring(&mut self, cx: f32, cy: f32, r0: f32, r1: f32, c: Rgb, alpha: f32) {
        let r = r1 + 1.0;
        self.each((cx - r, cy - r, cx + r, cy + r), c, |px, py| {
            let d = ((px - cx).powi(2) + (py - cy).powi(2)).sqrt();
            let outer = (r1 + 0.5 - d).clamp(0.0, 1.0);
            let inner = if r0 > 0.0 {
                (d - r0 + 0.5).clamp(0.0, 1.0)
            } else {
                1.0
            };
            outer * inner * alpha
        });
    }

    /// A filled triangle (the turn arrow).
    pub fn triangle(&mut self, v: [(f32, f32); 3], c: Rgb) {
        let xs = v.map(|p| p.0);
        let ys = v.map(|p| p.1);
        let bx = (
            xs.iter().copied().fold(f32::MAX, f32::min),
            ys.iter().copied().fold(f32::MAX, f32::min),
            xs.iter().copied().fold(f32::MIN, f32::max),
            ys.iter().copied().fold(f32::MIN, f32::max),
        );
        // Signed distance to each edge (positive inside for either winding).
        let area = (v[1].0 - v[0].0) * (v[2].1 - v[0].1) - (v[1].1 - v[0].1) * (v[2].0 - v[0].0);
        let sign = if area < 0.0 { -1.0 } else { 1.0 };
        self.each(bx, c, |px, py| {
            let mut cov = 1.0f32;
            for i in 0..3 {
                let (a, b) = (v[i], v[(i + 1) % 3]);
                let (ex, ey) = (b.0 - a.0, b.1 - a.1);
                let len = (ex * ex + ey * ey).sqrt().max(1e-3);
                let d = sign * (ex * (py - a.1) - ey * (px - a.0)) / len;
                cov = cov.min((d + 0.5).clamp(0.0, 1.0));
            }
            cov
        });
    }

    /// A disc whose edge fades over `soft` pixels, at opacity `alpha` (a shadow).
    pub fn soft_disc(&mut self, cx: f32, cy: f32, r: f32, soft: f32, c: Rgb, alpha: f32) {
        let rr = r + soft;
        self.each((cx - rr, cy - rr, cx + rr, cy + rr), c, |px, py| {
            let d = ((px - cx).powi(2) + (py - cy).powi(2)).sqrt();
            ((r + soft - d) / (2.0 * soft)).clamp(0.0, 1.0) * alpha
        });
    }

    /// Quantise to `pal`: a sprite whose centre (anchor) is at (ax, ay) of this surface.
    pub fn to_sprite(&self, pal: &Palette, ax: i32, ay: i32) -> Sprite {
        let mut memo = HashMap::new();
        let mut s = Sprite {
            ax,
            ay,
            runs: Vec::new(),
            data: Vec::new(),
            blends: Vec::new(),
        };
        for y in 0..self.h {
            let mut run_start: Option<i32> = None;
            for x in 0..=self.w {
                let p = if x < self.w {
                    self.px[(y * self.w + x) as usize]
                } else {
                    [0.0; 4]
                };
                let rgb = [p[0].round() as u8, p[1].round() as u8, p[2].round() as u8];
                let alpha = (p[3] * 255.0).round() as u8;
                if alpha == 255 {
                    if run_start.is_none() {
                        run_start = Some(x);
                        s.runs.push((x as i16, y as i16, s.data.len() as u32, 0));
                    }
                    s.data.push(pal.exact(rgb, &mut memo));
                } else {
                    if let (Some(start), Some(last)) = (run_start.take(), s.runs.last_mut()) {
                        last.3 = (x - start) as u16;
                    }
                    if alpha > 0 {
                        s.blends.push((x as i16, y as i16, rgb, alpha));
                    }
                }
            }
        }
        s
    }

    /// Quantise an opaque surface to palette indices, row-major.
    pub fn to_indices(&self, pal: &Palette) -> Vec<u8> {
        let mut memo = HashMap::new();
        self.px
            .iter()
            .map(|p| {
                pal.exact(
                    [p[0].round() as u8, p[1].round() as u8, p[2].round() as u8],
                    &mut memo,
                )
            })
            .collect()
    }
}

/// A pre-quantised picture: runs of opaque palette indices plus anti-aliased edge pixels that are
/// blended with whatever lies beneath when drawn.
pub(crate) struct Sprite {
    /// The anchor (usually the centre) inside the sprite.
    ax: i32,
    ay: i32,
    /// (x, y, offset into `data`, length) of each opaque run.
    runs: Vec<(i16, i16, u32, u16)>,
    data: Vec<u8>,
    /// (x, y, colour, alpha) of each partly transparent pixel.
    blends: Vec<(i16, i16, Rgb, u8)>,
}

/// An indexed image: one palette index per pixel.
#[derive(Clone)]
pub(crate) struct Canvas {
    pub w: i32,
    pub h: i32,
    pub px: Vec<u8>,
}

impl Canvas {
    /// Draw `s` with its anchor at (x, y), clipped to the canvas.
    pub fn sprite(&mut self, s: &Sprite, pal: &Palette, x: i32, y: i32) {
        let (ox, oy) = (x - s.ax, y - s.ay);
        for &(rx, ry, off, len) in &s.runs {
            let py = oy + i32::from(ry);
            if py < 0 || py >= self.h {
                continue;
            }
            let mut px0 = ox + i32::from(rx);
            let mut src = off as usize;
            let mut n = i32::from(len);
            if px0 < 0 {
                src += (-px0) as usize;
                n += px0;
                px0 = 0;
            }
            n = n.min(self.w - px0);
            if n <= 0 {
                continue;
            }
            let dst = (py * self.w + px0) as usize;
            let n = n as usize;
            if let (Some(d), Some(sv)) = (self.px.get_mut(dst..dst + n), s.data.get(src..src + n)) {
                d.copy_from_slice(sv);
            }
        }
        for &(bx, by, c, a) in &s.blends {
            self.blend(ox + i32::from(bx), oy + i32::from(by), c, a, pal);
        }
    }

    /// Blend `c` at coverage `a` (0..=255) over the pixel at (x, y); off-canvas is ignored.
    #[inline]
    pub fn blend(&mut self, x: i32, y: i32, c: Rgb, a: u8, pal: &Palette) {
        if x < 0 || y < 0 || x >= self.w || y >= self.h || a == 0 {
            return;
        }
        let i = (y * self.w + x) as usize;
        self.px[i] = pal.blend(self.px[i], c, a);
    }
}
