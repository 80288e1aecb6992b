//! The board renderer: a PNG of a position, a GIF replay of a game, and text versions for
//! terminals and screen readers. It knows the rules core and nothing of chat platforms.
//!
//! A [`Renderer`] is built once and shared (it is `Send + Sync`). The first picture in a theme
//! and piece style draws that theme's board template and sprites into its fixed palette; every
//! later picture only copies indexed pixels and encodes them.
//!
//! ```
//! use xiangqi_bot::core::{Color, Move, Position};
//! use xiangqi_bot::render::{BoardRequest, Renderer};
//!
//! let renderer = Renderer::new();
//! let mut position = Position::startpos();
//! let m = Move::parse_iccs("h2e2").unwrap();
//! position.play(m).unwrap();
//! let mut req = BoardRequest::new(&position);
//! req.last_move = Some(m);
//! req.viewer = Color::Black;
//! let png = renderer.png(&req).unwrap();
//! assert_eq!(&png[1..4], b"PNG");
//! ```
//!
//! Sprites and templates are drawn with `imageproc`'s shapes on `image` buffers, supersampled
//! and box-filtered down for smooth edges (`raster`), then quantised to the theme's palette
//! (`paint`); a picture is composed on indexed pixels (`compose`) and deflated by strips with
//! a shared cache (`strips`).

mod arrows;
mod assets;
pub mod chart;
mod compose;
mod encode;
mod layout;
mod paint;
mod raster;
mod strips;
mod style;
pub mod table;
mod text;
mod textual;
mod theme;

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use ab_glyph::FontRef;

pub use arrows::{Arrow, ArrowStyle, MAX_ARROWS};
pub use layout::Layout;
pub use strips::{CacheStats, DEFAULT_CACHE_BYTES};
pub use text::{sanitize_name, MAX_NAME_CHARS};
pub use textual::{describe, text_board};
pub use theme::{Colors, Rgb, Theme};

use crate::core::{Color, Move, Position};
use assets::{PieceSet, ThemeAssets};
use compose::Scene;

/// How pieces are labelled.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum PieceStyle {
    /// 帥仕相俥傌炮兵 / 將士象車馬砲卒.
    #[default]
    Traditional,
    /// 帅仕相车马炮兵 / 将士象车马炮卒.
    Simplified,
    /// WXF letters K A E R H C P (colour tells the side).
    LettersWxf,
    /// Vietnamese letters Tg S T X M P B (Tướng, Sĩ, Tượng, Xe, Mã, Pháo, Binh/Tốt).
    LettersVietnamese,
}

impl PieceStyle {
    /// All styles.
    pub const ALL: [PieceStyle; 4] = [
        PieceStyle::Traditional,
        PieceStyle::Simplified,
        PieceStyle::LettersWxf,
        PieceStyle::LettersVietnamese,
    ];

    const fn index(self) -> usize {
        self as usize
    }
}

impl FromStr for PieceStyle {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "hanzi" | "traditional" | "trad" => Ok(PieceStyle::Traditional),
            "simplified" | "simp" => Ok(PieceStyle::Simplified),
            "letters" | "wxf" | "letters-wxf" => Ok(PieceStyle::LettersWxf),
            "vietnamese" | "vi" | "letters-vi" => Ok(PieceStyle::LettersVietnamese),
            _ => Err(format!(
                "unknown piece style {s:?}: use hanzi, simplified, letters or vietnamese"
            )),
        }
    }
}

/// What is written around the board.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Coordinates {
    /// File numbers as players read them: Red's 一..九 from Red's right along Red's edge, Black's
    /// 1..9 from Black's right along Black's edge.
    #[default]
    Traditional,
    /// ICCS: letters a..i along both edges, rank digits 0..9 down both sides.
    Iccs,
}

impl FromStr for Coordinates {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "traditional" | "numbers" | "chinese" => Ok(Coordinates::Traditional),
            "iccs" | "letters" => Ok(Coordinates::Iccs),
            _ => Err(format!(
                "unknown coordinates {s:?}: use traditional or iccs"
            )),
        }
    }
}

/// A player as shown in a band: the name is cleaned and bounded when drawn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Player {
    /// Display name (any Unicode; drawn safely, cut to [`MAX_NAME_CHARS`]).
    pub name: String,
    /// Remaining time, formatted by the caller (e.g. `9:58`); `None` draws no clock.
    pub clock: Option<String>,
}

/// Everything one board picture shows.
#[derive(Clone, Debug)]
pub struct BoardRequest<'a> {
    /// The position.
    pub position: &'a Position,
    /// The move that led to it, marked at both ends.
    pub last_move: Option<Move>,
    /// The side drawn at the bottom.
    pub viewer: Color,
    /// Red's player.
    pub red: Player,
    /// Black's player.
    pub black: Player,
    /// Colours.
    pub theme: Theme,
    /// Piece labels.
    pub pieces: PieceStyle,
    /// Labels around the board.
    pub coordinates: Coordinates,
    /// Arrows drawn over the pieces (a hint, a review's better move); at most [`MAX_ARROWS`]
    /// are drawn, and an arrow from a point to itself is not.
    pub arrows: Vec<Arrow>,
}

impl<'a> BoardRequest<'a> {
    /// A request with the defaults: Red at the bottom, no last move, no names, wood, traditional.
    #[must_use]
    pub fn new(position: &'a Position) -> BoardRequest<'a> {
        BoardRequest {
            position,
            last_move: None,
            viewer: Color::Red,
            red: Player::default(),
            black: Player::default(),
            theme: Theme::default(),
            pieces: PieceStyle::default(),
            coordinates: Coordinates::default(),
            arrows: Vec::new(),
        }
    }
}

/// Why a picture could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RenderError {
    /// A replay move is not legal where it is played (`ply` counts from 1).
    IllegalMove {
        /// Which ply, from 1.
        ply: usize,
        /// The move.
        mv: Move,
    },
    /// A replay longer than [`MAX_GIF_PLIES`].
    TooLong {
        /// Plies asked for.
        plies: usize,
    },
    /// The encoder failed (a bug, not bad input).
    Encode(String),
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::IllegalMove { ply, mv } => write!(f, "ply {ply}: illegal move {mv}"),
            RenderError::TooLong { plies } => {
                write!(
                    f,
                    "{plies} plies is too long a replay (at most {MAX_GIF_PLIES})"
                )
            }
            RenderError::Encode(e) => write!(f, "image encoder failed: {e}"),
        }
    }
}

impl std::error::Error for RenderError {}

/// The longest game [`Renderer::gif`] replays.
pub const MAX_GIF_PLIES: usize = 1000;

/// GIF timing, in hundredths of a second.
const GIF_FIRST_DELAY: u16 = 150;
const GIF_PLY_DELAY: u16 = 100;
const GIF_LAST_DELAY: u16 = 400;

/// Draws boards. Build once and share; sprites are prepared on first use per theme and style.
pub struct Renderer {
    font: FontRef<'static>,
    themes: [OnceLock<ThemeAssets>; 2],
    pieces: [[OnceLock<PieceSet>; 4]; 2],
    strips: strips::StripCache,
}

impl Default for Renderer {
    fn default() -> Self {
        Renderer::new()
    }
}

impl fmt::Debug for Renderer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Renderer").finish_non_exhaustive()
    }
}

impl Renderer {
    /// A renderer with the embedded font and a strip cache of [`DEFAULT_CACHE_BYTES`]; nothing is
    /// drawn until first needed.
    #[must_use]
    pub fn new() -> Renderer {
        Renderer::with_cache_bytes(DEFAULT_CACHE_BYTES)
    }

    /// A renderer whose cache of compressed picture strips holds about `bytes` (0: no cache,
    /// every picture is deflated whole; benches use it to measure the cold cost).
    #[must_use]
    pub fn with_cache_bytes(bytes: usize) -> Renderer {
        Renderer {
            font: text::font(),
            themes: Default::default(),
            pieces: Default::default(),
            strips: strips::StripCache::new(bytes),
        }
    }

    /// How the strip cache has done so far.
    #[must_use]
    pub fn cache_stats(&self) -> CacheStats {
        self.strips.stats()
    }

    /// Prepare every theme and piece style now (e.g. at start-up, so no user waits for it).
    pub fn warm_up(&self) {
        for theme in Theme::ALL {
            for style in PieceStyle::ALL {
                let _ = self.assets(theme, style);
            }
        }
    }

    fn assets(&self, theme: Theme, style: PieceStyle) -> (&ThemeAssets, &PieceSet) {
        let t = self.themes[theme.index()].get_or_init(|| ThemeAssets::build(theme, &self.font));
        let p = self.pieces[theme.index()][style.index()]
            .get_or_init(|| PieceSet::build(theme, style, &self.font, &t.palette));
        (t, p)
    }

    /// The board as an indexed PNG of [`Layout::PNG`]'s size.
    ///
    /// # Errors
    /// [`RenderError::Encode`] only if the PNG encoder fails, which would be a bug.
    pub fn png(&self, req: &BoardRequest<'_>) -> Result<Vec<u8>, RenderError> {
        let (t, set) = self.assets(req.theme, req.pieces);
        let mut canvas = t.png_template.clone();
        let scene = Scene {
            position: req.position,
            last_move: req.last_move,
            viewer: req.viewer,
            coordinates: req.coordinates,
            pieces: req.pieces,
            arrows: &req.arrows,
        };
        compose::board(&mut canvas, t, set, Layout::PNG, &scene);
        let players = [&req.red, &req.black];
        compose::bands(
            &mut canvas,
            t,
            &self.font,
            req.viewer,
            req.position.turn(),
            players,
        );
        strips::png(&canvas, &t.palette, &Layout::PNG.strip_ends(), &self.strips)
    }

    /// An endlessly looping GIF replay of [`Layout::GIF`]'s size: the start position, then one
    /// frame per ply with its move marked (traditional file numbers).
    ///
    /// # Errors
    /// [`RenderError::IllegalMove`] for a move that cannot be played, [`RenderError::TooLong`]
    /// past [`MAX_GIF_PLIES`], [`RenderError::Encode`] if the encoder fails.
    pub fn gif(
        &self,
        start: &Position,
        moves: &[Move],
        viewer: Color,
        theme: Theme,
        pieces: PieceStyle,
    ) -> Result<Vec<u8>, RenderError> {
        if moves.len() > MAX_GIF_PLIES {
            return Err(RenderError::TooLong { plies: moves.len() });
        }
        let (t, set) = self.assets(theme, pieces);
        let mut out = encode::GifWriter::new(t.gif_template.w, t.gif_template.h, &t.palette)?;
        let mut position = start.clone();
        let frame = |position: &Position, last_move: Option<Move>| {
            let mut canvas = t.gif_template.clone();
            let scene = Scene {
                position,
                last_move,
                viewer,
                coordinates: Coordinates::Traditional,
                pieces,
                arrows: &[],
            };
            compose::board(&mut canvas, t, set, Layout::GIF, &scene);
            canvas
        };
        let first_delay = if moves.is_empty() {
            GIF_LAST_DELAY
        } else {
            GIF_FIRST_DELAY
        };
        out.frame(frame(&position, None), first_delay)?;
        for (i, &mv) in moves.iter().enumerate() {
            position
                .play(mv)
                .map_err(|_| RenderError::IllegalMove { ply: i + 1, mv })?;
            let delay = if i + 1 == moves.len() {
                GIF_LAST_DELAY
            } else {
                GIF_PLY_DELAY
            };
            out.frame(frame(&position, Some(mv)), delay)?;
        }
        out.finish()
    }
}

/// A PNG decoded to RGB (palette indices expanded), for the pictures' unit tests.
#[cfg(test)]
pub(crate) fn decode_for_tests(png: &[u8]) -> image::RgbImage {
    let mut decoder = ::png::Decoder::new(std::io::Cursor::new(png));
    decoder.set_transformations(::png::Transformations::EXPAND);
    let mut reader = decoder.read_info().expect("png header");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("png frame");
    assert_eq!(info.color_type, ::png::ColorType::Rgb);
    buf.truncate(info.buffer_size());
    image::RgbImage::from_raw(info.width, info.height, buf).expect("rgb")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renderer_is_shareable() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<Renderer>();
    }

    #[test]
    fn style_names_parse() {
        assert_eq!("hanzi".parse::<PieceStyle>(), Ok(PieceStyle::Traditional));
        assert_eq!("letters".parse::<PieceStyle>(), Ok(PieceStyle::LettersWxf));
        assert_eq!("iccs".parse::<Coordinates>(), Ok(Coordinates::Iccs));
        assert!("emoji".parse::<PieceStyle>().is_err());
    }
}
