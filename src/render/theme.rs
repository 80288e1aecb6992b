//! Themes and the fixed palette every image is drawn in.
//!
//! Each theme names a dozen key colours; its palette holds those plus an anti-aliasing ramp for
//! every pair of colours that meet at an edge (ink on face, line on board, ...). Sprites are
//! quantised to that palette once, so a board is composed and encoded as indexed pixels with no
//! per-image quantisation.

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use super::style::{ArrowStyle, ARROW_ALPHA};

/// An sRGB colour.
pub type Rgb = [u8; 3];

/// A board theme.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Theme {
    /// A classic wooden board with ivory discs.
    #[default]
    Wood,
    /// White board, black lines, white Red pieces and black Black pieces: for small or dim screens
    /// and low vision.
    HighContrast,
}

impl Theme {
    /// Both themes.
    pub const ALL: [Theme; 2] = [Theme::Wood, Theme::HighContrast];

    /// The canonical name (`wood`, `contrast`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Theme::Wood => "wood",
            Theme::HighContrast => "contrast",
        }
    }

    pub(crate) const fn index(self) -> usize {
        match self {
            Theme::Wood => 0,
            Theme::HighContrast => 1,
        }
    }

    /// The theme's key colours.
    #[must_use]
    pub const fn colors(self) -> &'static Colors {
        match self {
            Theme::Wood => &WOOD,
            Theme::HighContrast => &CONTRAST,
        }
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Theme {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "wood" | "classic" | "wooden" => Ok(Theme::Wood),
            "contrast" | "high-contrast" | "highcontrast" | "hc" => Ok(Theme::HighContrast),
            _ => Err(format!("unknown theme {s:?}: use wood or contrast")),
        }
    }
}

/// The key colours of a theme (public so that tests and callers can check pixels).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Colors {
    /// The board and its margins.
    pub board: Rgb,
    /// Grid lines, palace, position marks, river text and file numbers.
    pub line: Rgb,
    /// The soft shadow under a disc, and how opaque it is (0 for none).
    pub shadow: (Rgb, u8),
    /// Face of Red's discs.
    pub red_face: Rgb,
    /// Face of Black's discs.
    pub black_face: Rgb,
    /// Outer rim of Red's discs.
    pub red_rim: Rgb,
    /// Outer rim of Black's discs.
    pub black_rim: Rgb,
    /// Characters on Red's discs.
    pub red_ink: Rgb,
    /// Characters on Black's discs.
    pub black_ink: Rgb,
    /// The dot that stands for Black in a player band.
    pub black_dot: Rgb,
    /// Last-move marks.
    pub highlight: Rgb,
    /// The ring around a general in check.
    pub check: Rgb,
    /// Player bands.
    pub band: Rgb,
    /// Text in the bands.
    pub band_text: Rgb,
    /// Clock box of the side to move, and the turn arrow.
    pub accent: Rgb,
    /// Text in the side to move's clock box.
    pub accent_text: Rgb,
    /// Clock box of the side not to move.
    pub clock_idle: Rgb,
    /// Arrows, by [`ArrowStyle`]: hint, best move, mistake (drawn translucent).
    pub arrows: [Rgb; 3],
}

impl Colors {
    /// The colour of arrows of `style`, before it is made translucent.
    #[must_use]
    pub const fn arrow(&self, style: ArrowStyle) -> Rgb {
        self.arrows[style.index()]
    }

    /// What an arrow of `style` looks like where it lies over `under`.
    #[must_use]
    pub fn arrow_over(&self, style: ArrowStyle, under: Rgb) -> Rgb {
        mix(under, self.arrow(style), arrow_alpha())
    }
}

/// The opacity of an arrow's inside, as it is stored (a whole number of 255ths).
fn arrow_alpha() -> f32 {
    (ARROW_ALPHA * 255.0).round() / 255.0
}

const WOOD: Colors = Colors {
    board: [0xE9, 0xC7, 0x8E],
    line: [0x5C, 0x3A, 0x1A],
    shadow: ([0x4A, 0x2E, 0x12], 110),
    red_face: [0xF7, 0xE9, 0xC8],
    black_face: [0xF7, 0xE9, 0xC8],
    red_rim: [0x9A, 0x63, 0x2C],
    black_rim: [0x9A, 0x63, 0x2C],
    red_ink: [0xC1, 0x12, 0x1C],
    black_ink: [0x1F, 0x1F, 0x1F],
    black_dot: [0x1F, 0x1F, 0x1F],
    highlight: [0x16, 0x6A, 0xD6],
    check: [0xE8, 0x1B, 0x0C],
    band: [0x3B, 0x2A, 0x1B],
    band_text: [0xF6, 0xEC, 0xD9],
    accent: [0xF2, 0xC1, 0x4E],
    accent_text: [0x26, 0x18, 0x0B],
    clock_idle: [0x5E, 0x47, 0x33],
    arrows: [[0x7A, 0x2E, 0xC4], [0x12, 0x7A, 0x2A], [0xD8, 0x36, 0x10]],
};

const CONTRAST: Colors = Colors {
    board: [0xFF, 0xFF, 0xFF],
    line: [0x00, 0x00, 0x00],
    shadow: ([0x00, 0x00, 0x00], 0),
    red_face: [0xFF, 0xFF, 0xFF],
    black_face: [0x00, 0x00, 0x00],
    red_rim: [0xD0, 0x00, 0x00],
    black_rim: [0x00, 0x00, 0x00],
    red_ink: [0xD0, 0x00, 0x00],
    black_ink: [0xFF, 0xFF, 0xFF],
    black_dot: [0x00, 0x00, 0x00],
    highlight: [0x00, 0x55, 0xFF],
    check: [0xC0, 0x00, 0xC0],
    band: [0x00, 0x00, 0x00],
    band_text: [0xFF, 0xFF, 0xFF],
    accent: [0xFF, 0xD4, 0x00],
    accent_text: [0x00, 0x00, 0x00],
    clock_idle: [0x40, 0x40, 0x40],
    arrows: [[0x7A, 0x2E, 0xC4], [0x12, 0x7A, 0x2A], [0xD8, 0x36, 0x10]],
};

/// Intermediate steps in each anti-aliasing ramp.
const RAMP_STEPS: usize = 10;

/// Intermediate steps of an arrow's anti-aliased edge over the board.
const ARROW_EDGE_STEPS: usize = 4;

/// The palette index kept free (GIF frames use it as the transparent colour).
pub(crate) const TRANSPARENT: u8 = 255;

/// A theme's palette, with a 15-bit lookup table from any colour to its nearest entry.
pub(crate) struct Palette {
    pub rgb: Vec<Rgb>,
    lut: Vec<u8>,
}

impl Palette {
    pub fn new(c: &Colors) -> Palette {
        let (shadow, _) = c.shadow;
        let pairs = [
            (c.board, c.line),
            (c.board, shadow),
            (c.board, c.red_rim),
            (c.board, c.black_rim),
            (c.red_face, c.red_rim),
            (c.black_face, c.black_rim),
            (c.red_face, c.red_ink),
            (c.black_face, c.black_ink),
            (c.board, c.highlight),
            (c.board, c.check),
            (c.band, c.band_text),
            (c.band, c.accent),
            (c.band, c.red_ink),
            (c.band, c.black_dot),
            (c.accent, c.accent_text),
            (c.clock_idle, c.band_text),
        ];
        // Arrows: each colour over whatever it may cross, and its edge over the board.
        let under = [
            c.board,
            c.line,
            c.red_face,
            c.black_face,
            c.red_rim,
            c.black_rim,
            c.red_ink,
            c.black_ink,
            c.highlight,
            c.check,
        ];
        let mut extra = Vec::new();
        for style in ArrowStyle::ALL {
            for u in under {
                extra.push(c.arrow_over(style, u));
            }
            let over_board = c.arrow_over(style, c.board);
            for i in 1..=ARROW_EDGE_STEPS {
                extra.push(mix(
                    c.board,
                    over_board,
                    i as f32 / (ARROW_EDGE_STEPS + 1) as f32,
                ));
            }
        }
        Palette::with_extra(&pairs, &extra)
    }

    /// A palette holding each pair's two colours and the ramp between them (what
    /// anti-aliased edges of one drawn over the other need).
    pub fn from_pairs(pairs: &[(Rgb, Rgb)]) -> Palette {
        Palette::with_extra(pairs, &[])
    }

    /// [`Palette::from_pairs`] plus single colours kept after the ramps.
    fn with_extra(pairs: &[(Rgb, Rgb)], extra: &[Rgb]) -> Palette {
        let mut rgb: Vec<Rgb> = Vec::with_capacity(256);
        let mut push = |col: Rgb| {
            if !rgb.contains(&col) {
                rgb.push(col);
            }
        };
        // Key colours first, so that exact matches win ties.
        for &(a, b) in pairs {
            push(a);
            push(b);
        }
        for &(a, b) in pairs {
            for i in 1..=RAMP_STEPS {
                push(mix(a, b, i as f32 / (RAMP_STEPS + 1) as f32));
            }
        }
        for &col in extra {
            push(col);
        }
        rgb.truncate(usize::from(TRANSPARENT));
        let mut lut = vec![0u8; 1 << 15];
        for (key, slot) in lut.iter_mut().enumerate() {
            let col = [
                expand5((key >> 10) as u8),
                expand5((key >> 5) as u8),
                expand5(key as u8),
            ];
            *slot = nearest(&rgb, col);
        }
        Palette { rgb, lut }
    }

    /// The nearest entry, through the table (for anti-aliased edges drawn per image).
    #[inline]
    pub fn quick(&self, c: Rgb) -> u8 {
        let key =
            (usize::from(c[0] >> 3) << 10) | (usize::from(c[1] >> 3) << 5) | usize::from(c[2] >> 3);
        self.lut[key]
    }

    /// The exact nearest entry, remembered in `memo` (for sprites, built once).
    pub fn exact(&self, c: Rgb, memo: &mut HashMap<Rgb, u8>) -> u8 {
        *memo.entry(c).or_insert_with(|| nearest(&self.rgb, c))
    }

    /// Blend `c` over palette entry `under` with coverage `alpha` (0..=255).
    #[inline]
    pub fn blend(&self, under: u8, c: Rgb, alpha: u8) -> u8 {
        let u = self.rgb.get(usize::from(under)).copied().unwrap_or(c);
        let a = u32::from(alpha);
        let ch = |i: usize| ((u32::from(c[i]) * a + u32::from(u[i]) * (255 - a) + 127) / 255) as u8;
        self.quick([ch(0), ch(1), ch(2)])
    }

    /// The palette as PNG/GIF want it: `r g b` triples, padded to 256 entries.
    pub fn bytes(&self) -> Vec<u8> {
        let mut out: Vec<u8> = self.rgb.iter().flatten().copied().collect();
        out.resize(256 * 3, 0);
        out
    }
}

fn expand5(v: u8) -> u8 {
    let v = v & 31;
    (v << 3) | (v >> 2)
}

/// Linear mix in sRGB space (the same space edges are blended in).
pub(crate) fn mix(a: Rgb, b: Rgb, t: f32) -> Rgb {
    let ch = |i: usize| (f32::from(a[i]) + (f32::from(b[i]) - f32::from(a[i])) * t).round() as u8;
    [ch(0), ch(1), ch(2)]
}

fn nearest(pal: &[Rgb], c: Rgb) -> u8 {
    let mut best = 0usize;
    let mut best_d = u32::MAX;
    for (i, p) in pal.iter().enumerate() {
        let dr = i32::from(p[0]) - i32::from(c[0]);
        let dg = i32::from(p[1]) - i32::from(c[1]);
        let db = i32::from(p[2]) - i32::from(c[2]);
        // Weighted like the eye: green matters most, blue least.
        let d = (3 * dr * dr + 4 * dg * dg + 2 * db * db) as u32;
        if d < best_d {
            best_d = d;
            best = i;
        }
    }
    best as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn palettes_fit_with_a_spare_transparent_index() {
        for t in Theme::ALL {
            let p = Palette::new(t.colors());
            assert!(p.rgb.len() < 255, "{t}: {} colours", p.rgb.len());
            // Key colours map to themselves exactly.
            let c = t.colors();
            let arrows = ArrowStyle::ALL.map(|s| c.arrow_over(s, c.board));
            for k in [
                c.board,
                c.line,
                c.red_ink,
                c.black_ink,
                c.highlight,
                c.check,
            ]
            .into_iter()
            .chain(arrows)
            {
                let mut memo = HashMap::new();
                assert_eq!(p.rgb[usize::from(p.exact(k, &mut memo))], k);
            }
        }
    }

    #[test]
    fn theme_names_parse() {
        assert_eq!("classic".parse::<Theme>(), Ok(Theme::Wood));
        assert_eq!("High-Contrast".parse::<Theme>(), Ok(Theme::HighContrast));
        assert!("neon".parse::<Theme>().is_err());
    }
}
