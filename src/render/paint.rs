//! The indexed surfaces of the per-move hot path: the [`Canvas`] every picture is composed on,
//! and the [`Sprite`]s copied onto it, quantised once from pictures drawn by `raster`.

use std::collections::HashMap;

use image::RgbaImage;

use super::theme::{Palette, Rgb};

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

impl Sprite {
    /// Quantise a straight-alpha picture to `pal`: a sprite whose anchor (usually the centre)
    /// is at (ax, ay) of the picture. Opaque pixels become runs of indices, partly transparent
    /// ones are kept in colour and blended with whatever lies beneath when drawn.
    pub fn from_rgba(img: &RgbaImage, pal: &Palette, ax: i32, ay: i32) -> Sprite {
        let mut memo = HashMap::new();
        let mut s = Sprite {
            ax,
            ay,
            runs: Vec::new(),
            data: Vec::new(),
            blends: Vec::new(),
        };
        for (y, row) in img.rows().enumerate() {
            let y = y as i16;
            let mut run_start: Option<i16> = None;
            for (x, p) in row.map(|p| p.0).chain([[0; 4]]).enumerate() {
                let x = x as i16;
                let rgb = [p[0], p[1], p[2]];
                if p[3] == 255 {
                    if run_start.is_none() {
                        run_start = Some(x);
                        s.runs.push((x, y, s.data.len() as u32, 0));
                    }
                    s.data.push(pal.exact(rgb, &mut memo));
                } else {
                    if let (Some(start), Some(last)) = (run_start.take(), s.runs.last_mut()) {
                        last.3 = (x - start) as u16;
                    }
                    if p[3] > 0 {
                        s.blends.push((x, y, rgb, p[3]));
                    }
                }
            }
        }
        s
    }
}

/// Quantise an opaque picture to palette indices, row-major.
pub(crate) fn indices(img: &RgbaImage, pal: &Palette) -> Vec<u8> {
    let mut memo = HashMap::new();
    img.pixels()
        .map(|p| pal.exact([p[0], p[1], p[2]], &mut memo))
        .collect()
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
