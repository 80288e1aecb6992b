//! Drawing the prepared pictures (board templates, discs, marks, arrows) with `imageproc`'s
//! shapes on an `image` buffer. Those shapes are aliased (whole pixels in or out), so each
//! picture is drawn [`SUPERSAMPLE`] times larger and box-filtered down (`imageops::thumbnail`),
//! which gives every edge 17 levels of coverage. Used once per theme, piece style or arrow
//! shape, never per move: a move only copies the prepared, indexed pixels (see `paint`).
//!
//! While drawing, pixels hold premultiplied alpha (a colour at 40% is stored as 40% of the
//! colour), so averaging sub-pixels is correct at transparent edges; [`Layer::finish`] turns
//! the result back into straight alpha for blending with `image`'s [`Pixel::blend`].

use image::{imageops, GrayImage, Luma, Pixel, Rgba, RgbaImage};
use imageproc::drawing::{draw_filled_rect_mut, draw_polygon_mut};
use imageproc::morphology::{grayscale_dilate, Mask};
use imageproc::point::Point;
use imageproc::rect::Rect;

use super::theme::Rgb;

/// Sub-pixels per pixel along each axis while drawing shapes.
pub(crate) const SUPERSAMPLE: u32 = 4;

/// Sides of the polygon a disc is drawn as.
const DISC_SIDES: usize = 128;

/// A picture being drawn, in pixel coordinates of the final (not supersampled) size: pixel
/// (x, y) covers the square [x, x + 1) × [y, y + 1).
pub(crate) struct Layer {
    w: u32,
    h: u32,
    /// Sub-pixels per pixel: [`SUPERSAMPLE`], or 1 for a picture whose edges all lie on pixel
    /// boundaries.
    s: u32,
    big: RgbaImage,
}

/// `c` at opacity `alpha`, premultiplied.
fn premultiplied(c: Rgb, alpha: f32) -> Rgba<u8> {
    let a = alpha.clamp(0.0, 1.0);
    let ch = |v: u8| (f32::from(v) * a).round() as u8;
    Rgba([ch(c[0]), ch(c[1]), ch(c[2]), (a * 255.0).round() as u8])
}

impl Layer {
    /// A transparent picture of `w` × `h` pixels.
    pub fn new(w: u32, h: u32) -> Layer {
        let s = SUPERSAMPLE;
        Layer {
            w,
            h,
            s,
            big: RgbaImage::new(w * s, h * s),
        }
    }

    /// An opaque picture filled with `c`, drawn without supersampling: only for shapes whose
    /// edges lie on pixel boundaries (rectangles, and lines of a whole number of pixels along
    /// the axes, centred on pixel corners when even), which need no anti-aliasing. The board
    /// template is such, but for its palace diagonals (see [`Layer::overlay`]), and is 16 times
    /// cheaper so.
    pub fn filled_on_pixels(w: u32, h: u32, c: Rgb) -> Layer {
        Layer {
            w,
            h,
            s: 1,
            big: RgbaImage::from_pixel(w, h, premultiplied(c, 1.0)),
        }
    }

    /// A sub-pixel's index for a coordinate in final pixels: the sub-pixel whose centre is
    /// nearest.
    fn sub(&self, v: f32) -> i32 {
        (v * self.s as f32 - 0.5).round() as i32
    }

    /// Paint `over` (finished, straight alpha) on this layer with its top-left corner at pixel
    /// (x, y). Only for a layer drawn on whole pixels.
    pub fn overlay(&mut self, over: &RgbaImage, x: i64, y: i64) {
        debug_assert_eq!(self.s, 1, "overlay is for layers drawn on whole pixels");
        imageops::overlay(&mut self.big, over, x, y);
    }

    /// Fill the pixel rectangle [x0, x1) × [y0, y1) with `c`.
    pub fn rect(&mut self, x0: u32, y0: u32, x1: u32, y1: u32, c: Rgb) {
        if x1 <= x0 || y1 <= y0 {
            return;
        }
        let s = self.s;
        let r = Rect::at((x0 * s) as i32, (y0 * s) as i32).of_size((x1 - x0) * s, (y1 - y0) * s);
        draw_filled_rect_mut(&mut self.big, r, premultiplied(c, 1.0));
    }

    /// A disc of radius `r` centred at (cx, cy), replacing what was there by `c` at `alpha`
    /// (so an opaque disc drawn over a translucent one leaves no trace of it).
    pub fn disc(&mut self, cx: f32, cy: f32, r: f32, c: Rgb, alpha: f32) {
        self.put_disc(cx, cy, r, premultiplied(c, alpha));
    }

    /// Make a disc transparent again (the hole of a ring).
    pub fn clear_disc(&mut self, cx: f32, cy: f32, r: f32) {
        self.put_disc(cx, cy, r, Rgba([0; 4]));
    }

    fn put_disc(&mut self, cx: f32, cy: f32, r: f32, px: Rgba<u8>) {
        // `imageproc`'s circles have whole-sub-pixel centres and radii, a quarter pixel off for
        // discs centred on pixel corners as these are; a polygon of 128 sides places the disc
        // exactly (its sides are within a tenth of a sub-pixel of the circle). The scanline
        // fill takes the boundary sub-pixels, so the radius is given back half a sub-pixel.
        let r = r - 0.5 / self.s as f32;
        if r <= 0.0 {
            return;
        }
        let points: Vec<(f32, f32)> = (0..DISC_SIDES)
            .map(|i| {
                let t = i as f32 * std::f32::consts::TAU / DISC_SIDES as f32;
                (cx + r * t.cos(), cy + r * t.sin())
            })
            .collect();
        self.fill(&points, px);
    }

    /// A filled polygon (any winding, at least three corners) with opaque `c`.
    pub fn polygon(&mut self, points: &[(f32, f32)], c: Rgb) {
        self.fill(points, premultiplied(c, 1.0));
    }

    fn fill(&mut self, points: &[(f32, f32)], px: Rgba<u8>) {
        let mut pts: Vec<Point<i32>> = points
            .iter()
            .map(|&(x, y)| Point::new(self.sub(x), self.sub(y)))
            .collect();
        pts.dedup();
        while pts.len() > 1 && pts.first() == pts.last() {
            pts.pop();
        }
        if pts.len() >= 3 {
            draw_polygon_mut(&mut self.big, &pts, px);
        }
    }

    /// A straight stroke of width `w` from (x0, y0) to (x1, y1), its ends extended by `cap`.
    #[allow(clippy::too_many_arguments)]
    pub fn line(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, w: f32, cap: f32, c: Rgb) {
        let (dx, dy) = (x1 - x0, y1 - y0);
        let len = (dx * dx + dy * dy).sqrt().max(1e-3);
        let (ux, uy) = (dx / len, dy / len);
        // The scanline fill takes both boundary sub-pixels, half a sub-pixel more on each side
        // than the shape: give that back so a 2-pixel line covers exactly 2 pixels.
        let half = 0.5 / self.s as f32;
        let (ex, ey) = (ux * (cap - half), uy * (cap - half));
        let hw = w / 2.0 - half;
        let (nx, ny) = (-uy * hw, ux * hw);
        let (ax, ay, bx, by) = (x0 - ex, y0 - ey, x1 + ex, y1 + ey);
        self.polygon(
            &[
                (ax + nx, ay + ny),
                (bx + nx, by + ny),
                (bx - nx, by - ny),
                (ax - nx, ay - ny),
            ],
            c,
        );
    }

    /// The picture at its final size, with straight alpha.
    pub fn finish(self) -> RgbaImage {
        if self.s == 1 {
            return straight(self.big);
        }
        straight(imageops::thumbnail(&self.big, self.w, self.h))
    }

    /// The picture at its final size, blurred by a Gaussian of `sigma` pixels (a shadow's
    /// soft edge), with straight alpha.
    pub fn finish_blurred(self, sigma: f32) -> RgbaImage {
        let small = imageops::thumbnail(&self.big, self.w, self.h);
        straight(imageproc::filter::gaussian_blur_f32(&small, sigma))
    }
}

/// Premultiplied to straight alpha.
fn straight(mut img: RgbaImage) -> RgbaImage {
    for p in img.pixels_mut() {
        let a = u32::from(p[3]);
        if a > 0 && a < 255 {
            let ch = |v: u8| ((u32::from(v) * 255 + a / 2) / a).min(255) as u8;
            *p = Rgba([ch(p[0]), ch(p[1]), ch(p[2]), p[3]]);
        }
    }
    img
}

/// Blend `ink` at coverage `cov` (0..=1) onto pixel (x, y) of `img`; outside is ignored.
pub(crate) fn blend(img: &mut RgbaImage, x: i32, y: i32, ink: Rgb, cov: f32) {
    let (Ok(xu), Ok(yu)) = (u32::try_from(x), u32::try_from(y)) else {
        return;
    };
    if xu >= img.width() || yu >= img.height() || cov <= 0.0 {
        return;
    }
    let a = (cov.min(1.0) * 255.0).round() as u8;
    img.get_pixel_mut(xu, yu)
        .blend(&Rgba([ink[0], ink[1], ink[2], a]));
}

/// Text coverage made one pixel bolder to the right and below (a 2 × 2 grey dilation): the
/// font's strokes are thin for discs seen on a phone.
pub(crate) fn embolden(coverage: &GrayImage) -> GrayImage {
    let square = GrayImage::from_pixel(2, 2, Luma([255]));
    grayscale_dilate(coverage, &Mask::from_image(&square, 1, 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    const INK: Rgb = [200, 40, 20];

    #[test]
    fn a_two_pixel_line_on_the_grid_covers_exactly_two_pixels() {
        let mut l = Layer::new(10, 10);
        l.line(5.0, 1.0, 5.0, 9.0, 2.0, 0.0, INK);
        let img = l.finish();
        for x in 0..10 {
            let a = img.get_pixel(x, 5)[3];
            let want = if x == 4 || x == 5 { 255 } else { 0 };
            assert_eq!(a, want, "x = {x}");
        }
        assert_eq!(*img.get_pixel(4, 5), Rgba([200, 40, 20, 255]));
    }

    #[test]
    fn lines_on_whole_pixels_need_no_supersampling() {
        for thick in [2.0, 4.0] {
            let mut fine = Layer::new(20, 20);
            let mut exact = Layer::filled_on_pixels(20, 20, [255, 255, 255]);
            fine.rect(0, 0, 20, 20, [255, 255, 255]);
            for l in [&mut fine, &mut exact] {
                l.line(4.0, 10.0, 16.0, 10.0, thick, thick / 2.0, INK);
                l.line(10.0, 3.0, 10.0, 17.0, thick, 0.0, INK);
            }
            assert_eq!(fine.finish(), exact.finish(), "width {thick}");
        }
    }

    #[test]
    fn disc_edges_are_anti_aliased_and_keep_their_colour() {
        let mut l = Layer::new(40, 40);
        l.disc(20.0, 20.0, 10.0, INK, 1.0);
        let img = l.finish();
        assert_eq!(img.get_pixel(20, 20)[3], 255);
        assert_eq!(img.get_pixel(20, 35)[3], 0);
        // About one partly covered pixel per pixel of circumference (2π r ≈ 63).
        let partial = img.pixels().filter(|p| p[3] > 0 && p[3] < 255).count();
        assert!((40..=100).contains(&partial), "{partial}");
        // A partly covered pixel keeps the ink colour (straight alpha, not darkened).
        for p in img.pixels().filter(|p| p[3] > 40) {
            let [r, g, b, _] = p.0;
            assert!(
                r.abs_diff(200) <= 3 && g.abs_diff(40) <= 3 && b.abs_diff(20) <= 3,
                "{p:?}"
            );
        }
        // Covered area close to π r².
        let area: f32 = img.pixels().map(|p| f32::from(p[3]) / 255.0).sum();
        assert!((area - 314.16).abs() < 2.0, "{area}");
        // Centred on the pixel corner (20, 20): symmetric left and right, up and down.
        for d in 0..12 {
            let (l, r) = (img.get_pixel(19 - d, 20)[3], img.get_pixel(20 + d, 20)[3]);
            let (u, b) = (img.get_pixel(20, 19 - d)[3], img.get_pixel(20, 20 + d)[3]);
            assert!(
                l.abs_diff(r) <= 16 && u.abs_diff(b) <= 16,
                "{d}: {l} {r} {u} {b}"
            );
        }
    }

    #[test]
    fn a_ring_is_a_disc_with_a_cleared_middle() {
        let mut l = Layer::new(40, 40);
        l.disc(20.0, 20.0, 12.0, INK, 1.0);
        l.clear_disc(20.0, 20.0, 8.0);
        let img = l.finish();
        assert_eq!(img.get_pixel(20, 20)[3], 0);
        assert_eq!(img.get_pixel(30, 20)[3], 255);
    }

    #[test]
    fn emboldening_spreads_right_and_down() {
        let mut g = GrayImage::new(5, 5);
        g.put_pixel(2, 2, Luma([200]));
        let b = embolden(&g);
        for (x, y, p) in b.enumerate_pixels() {
            let want = if (2..=3).contains(&x) && (2..=3).contains(&y) {
                200
            } else {
                0
            };
            assert_eq!(p[0], want, "({x}, {y})");
        }
    }
}
