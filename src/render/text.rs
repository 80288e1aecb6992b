//! Text: the embedded font, laying out a line of glyphs, and making user strings safe to draw.

use crate::game::is_invisible_format;
use ab_glyph::{Font, FontRef, GlyphId, PxScale, ScaleFont};

/// WenQuanYi Micro Hei, subset to what the renderer draws (see `assets/fonts/README.md`).
const FONT_BYTES: &[u8] = include_bytes!("../../assets/fonts/wqy-microhei-subset.ttf");

/// The embedded font.
pub(crate) fn font() -> FontRef<'static> {
    // The bytes are part of the binary and checked by a unit test; an invalid font would be a
    // build defect, not something a user can cause.
    #[allow(clippy::expect_used)]
    FontRef::try_from_slice(FONT_BYTES).expect("the embedded font is a valid TrueType file")
}

/// One positioned item of a laid-out line.
enum Item {
    Glyph(GlyphId, f32),
    /// A character the font lacks: a hollow box at this x.
    Missing(f32),
}

/// A line of text laid out at a pixel size, ready to draw anywhere.
pub(crate) struct Line {
    items: Vec<Item>,
    px: f32,
    /// Total advance width in pixels.
    pub width: f32,
}

impl Line {
    /// Lay out `text` at `px` pixels per em. Missing characters become boxes; zero-width
    /// characters the font lacks are skipped.
    pub fn new(font: &FontRef<'_>, text: &str, px: f32) -> Line {
        let sf = font.as_scaled(PxScale::from(px));
        let mut items = Vec::new();
        let mut x = 0.0f32;
        for ch in text.chars() {
            let id = font.glyph_id(ch);
            if id.0 == 0 {
                if is_zero_width(ch) {
                    continue;
                }
                items.push(Item::Missing(x));
                x += px * 0.7;
            } else {
                items.push(Item::Glyph(id, x));
                x += sf.h_advance(id);
            }
        }
        Line {
            items,
            px,
            width: x,
        }
    }

    /// The line cut to fit `max` pixels, ending with an ellipsis when cut.
    pub fn fitted(font: &FontRef<'_>, text: &str, px: f32, max: f32) -> Line {
        let line = Line::new(font, text, px);
        if line.width <= max {
            return line;
        }
        let chars: Vec<char> = text.chars().collect();
        let mut n = chars.len();
        while n > 0 {
            n -= 1;
            let mut s: String = chars[..n].iter().collect();
            s.truncate(s.trim_end().len());
            s.push('…');
            let cut = Line::new(font, &s, px);
            if cut.width <= max {
                return cut;
            }
        }
        Line::new(font, "…", px)
    }

    /// Draw with the baseline starting at (x, y), calling `put(x, y, coverage)` per pixel.
    pub fn draw(&self, font: &FontRef<'_>, x: f32, y: f32, mut put: impl FnMut(i32, i32, f32)) {
        let scale = PxScale::from(self.px);
        for item in &self.items {
            match *item {
                Item::Glyph(id, gx) => {
                    let g = id.with_scale_and_position(scale, ab_glyph::point(x + gx, y));
                    if let Some(og) = font.outline_glyph(g) {
                        let b = og.px_bounds();
                        let (bx, by) = (b.min.x as i32, b.min.y as i32);
                        og.draw(|px, py, c| put(bx + px as i32, by + py as i32, c));
                    }
                }
                Item::Missing(gx) => {
                    // A hollow box (tofu) as tall as a capital letter.
                    let w = (self.px * 0.55).round() as i32;
                    let h = (self.px * 0.72).round() as i32;
                    let t = (self.px / 14.0).round().max(1.0) as i32;
                    let x0 = (x + gx + self.px * 0.07).round() as i32;
                    let y0 = y.round() as i32 - h;
                    for yy in y0..y0 + h {
                        for xx in x0..x0 + w {
                            let edge =
                                xx < x0 + t || xx >= x0 + w - t || yy < y0 + t || yy >= y0 + h - t;
                            if edge {
                                put(xx, yy, 1.0);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Draw centred on (cx, cy) by the ink's own bounds (for piece characters and labels).
    pub fn draw_centered(
        &self,
        font: &FontRef<'_>,
        cx: f32,
        cy: f32,
        put: impl FnMut(i32, i32, f32),
    ) {
        let (x0, y0, x1, y1) = self.ink_bounds(font);
        let x = cx - (x0 + x1) / 2.0;
        let y = cy - (y0 + y1) / 2.0;
        self.draw(font, x, y, put);
    }

    /// The bounds of the ink relative to a baseline origin at (0, 0).
    fn ink_bounds(&self, font: &FontRef<'_>) -> (f32, f32, f32, f32) {
        let scale = PxScale::from(self.px);
        let mut b = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
        for item in &self.items {
            let (x0, y0, x1, y1) = match *item {
                Item::Glyph(id, gx) => {
                    let g = id.with_scale_and_position(scale, ab_glyph::point(gx, 0.0));
                    match font.outline_glyph(g) {
                        Some(og) => {
                            let r = og.px_bounds();
                            (r.min.x, r.min.y, r.max.x, r.max.y)
                        }
                        None => continue,
                    }
                }
                Item::Missing(gx) => (gx, -self.px * 0.72, gx + self.px * 0.62, 0.0),
            };
            b = (b.0.min(x0), b.1.min(y0), b.2.max(x1), b.3.max(y1));
        }
        if b.0 > b.2 {
            (0.0, 0.0, 0.0, 0.0)
        } else {
            b
        }
    }
}

/// Characters that take no room of their own: combining marks, joiners, variation selectors,
/// emoji modifiers and tags. Skipped when the font lacks them, and not counted towards a name's
/// length.
pub(crate) fn is_zero_width(c: char) -> bool {
    matches!(c as u32,
        0x0300..=0x036F | 0x0483..=0x0489 | 0x0591..=0x05BD | 0x0610..=0x061A | 0x064B..=0x065F
        | 0x0E31 | 0x0E34..=0x0E3A | 0x0E47..=0x0E4E | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF
        | 0x200B..=0x200F | 0x20D0..=0x20FF | 0x302A..=0x302F | 0x3099..=0x309A
        | 0xFE00..=0xFE0F | 0xFE20..=0xFE2F | 0x1F3FB..=0x1F3FF | 0xE0000..=0xE0FFF)
}

/// The longest name drawn, in characters that take room (about graphemes).
pub const MAX_NAME_CHARS: usize = 24;

/// A player name made safe to draw: control and invisible formatting characters removed, runs of
/// white space collapsed, and at most `max` characters that take room (a combining accent or an
/// emoji modifier rides on the one before it), with `…` when cut.
#[must_use]
pub fn sanitize_name(name: &str, max: usize) -> String {
    let mut out = String::new();
    let mut visible = 0usize;
    let mut pending_space = false;
    let mut cut = false;
    for c in name.chars() {
        if c.is_control() || is_invisible_format(c) {
            if c.is_whitespace() {
                pending_space = !out.is_empty();
            }
            continue;
        }
        if c.is_whitespace() {
            pending_space = !out.is_empty();
            continue;
        }
        let takes_room = !is_zero_width(c);
        if takes_room {
            if visible + usize::from(pending_space) >= max {
                cut = true;
                break;
            }
            if pending_space {
                out.push(' ');
                visible += 1;
            }
            visible += 1;
        } else if out.is_empty() {
            continue; // a lone mark at the start has nothing to ride on
        }
        pending_space = false;
        out.push(c);
    }
    if cut {
        // Make room for the ellipsis within the bound.
        while visible >= max {
            match out.pop() {
                Some(c) if !is_zero_width(c) => visible -= 1,
                Some(_) => {}
                None => break,
            }
        }
        out.truncate(out.trim_end().len());
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_font_loads_and_has_the_piece_glyphs() {
        let f = font();
        for c in "帥仕相俥傌炮兵將士象車馬砲卒帅相车马将车楚河漢界汉一九Tgxươ▶●…".chars()
        {
            assert_ne!(f.glyph_id(c).0, 0, "missing {c}");
        }
    }

    #[test]
    fn names_are_bounded_and_cleaned() {
        assert_eq!(
            sanitize_name("  Lý \u{202E}Thường\tKiệt \n", 24),
            "Lý Thường Kiệt"
        );
        let long = "a".repeat(100);
        let s = sanitize_name(&long, 24);
        assert_eq!(s.chars().count(), 24);
        assert!(s.ends_with('…'));
        // An emoji with a skin-tone modifier and a ZWJ counts as its visible parts only.
        assert_eq!(sanitize_name("👍🏽\u{200D}xyz", 3), "👍🏽\u{200D}x…");
        assert_eq!(sanitize_name("\u{0301}\u{0000}", 24), "");
    }

    #[test]
    fn common_hanzi_in_names_have_glyphs() {
        let f = font();
        // Masters' names in both scripts, and characters from the ends of both frequency lists.
        for name in [
            "王天一",
            "许银川",
            "許銀川",
            "胡荣华",
            "胡榮華",
            "呂欽",
            "吕钦",
            "谢靖",
            "謝靖",
            "座",
            "廳",
        ] {
            for c in name.chars() {
                assert_ne!(f.glyph_id(c).0, 0, "{c} in {name}");
            }
        }
        // Outside the subset: a rare character, drawn as a box.
        assert_eq!(f.glyph_id('𠀀').0, 0);
    }

    #[test]
    fn missing_glyphs_are_boxes_and_lines_fit() {
        let f = font();
        let l = Line::new(&f, "😀مرحبا", 20.0);
        assert!(l.width > 0.0);
        let mut n = 0;
        l.draw(&f, 0.0, 20.0, |_, _, _| n += 1);
        assert!(n > 0);
        let fit = Line::fitted(&f, &"W".repeat(50), 20.0, 100.0);
        assert!(fit.width <= 100.0);
    }
}
