//! `xiangqi-bot render`: draw a position (or a replay of moves) to a PNG or GIF file.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use crate::core::Square;
use crate::core::{Color, Move, Position};
use crate::render::{
    Arrow, ArrowStyle, BoardRequest, Coordinates, PieceStyle, Player, Renderer, Theme, MAX_ARROWS,
};

/// Options of `render`.
#[derive(Args, Debug, Clone)]
pub struct RenderArgs {
    /// Start from this FEN (default: the initial position).
    #[arg(long)]
    pub fen: Option<String>,
    /// ICCS moves played from the FEN (e.g. `h2e2 h9g7`); the last one is marked.
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
    /// Draw Black at the bottom.
    #[arg(long)]
    pub flip: bool,
    /// wood (classic) or contrast (high-contrast).
    #[arg(long, default_value = "wood")]
    pub theme: Theme,
    /// hanzi, simplified, letters (WXF) or vietnamese.
    #[arg(long, default_value = "hanzi")]
    pub pieces: PieceStyle,
    /// traditional (一..九 and 1..9) or iccs (a..i and 0..9) labels.
    #[arg(long, default_value = "traditional")]
    pub coords: Coordinates,
    /// Red's name in the player band.
    #[arg(long, default_value = "")]
    pub red_name: String,
    /// Black's name in the player band.
    #[arg(long, default_value = "")]
    pub black_name: String,
    /// Red's clock, as shown (e.g. 9:58).
    #[arg(long)]
    pub red_clock: Option<String>,
    /// Black's clock, as shown.
    #[arg(long)]
    pub black_clock: Option<String>,
    /// Arrows over the board, as ICCS moves (`h2e2`), each with an optional style after a
    /// colon: hint (the default), best or mistake (`h2e2:best`). PNG only.
    #[arg(long = "arrow", num_args = 1..)]
    pub arrows: Vec<String>,
    /// Write an animated GIF replaying the moves instead of a PNG of the final position.
    #[arg(long)]
    pub gif: bool,
    /// Output file (`-` for standard output).
    #[arg(short, long)]
    pub output: PathBuf,
}

/// Run `render`; returns the exit code (2 for bad input, 1 when the file cannot be written).
#[must_use]
pub fn run(args: RenderArgs) -> i32 {
    match render(&args) {
        Ok(bytes) => match write_out(&args.output, &bytes) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("error: cannot write {}: {e}", args.output.display());
                1
            }
        },
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

fn render(args: &RenderArgs) -> Result<Vec<u8>, String> {
    let start = match &args.fen {
        None => Position::startpos(),
        Some(f) => Position::from_fen(f).map_err(|e| format!("bad FEN: {e}"))?,
    };
    let texts: Vec<&str> = args
        .moves
        .iter()
        .flat_map(|s| s.split([' ', ',', '\t']))
        .filter(|s| !s.is_empty())
        .collect();
    let mut position = start.clone();
    let mut moves = Vec::with_capacity(texts.len());
    for (i, text) in texts.iter().enumerate() {
        let ply = i + 1;
        let m = Move::parse_iccs(text)
            .ok_or_else(|| format!("ply {ply}: {text:?} is not an ICCS move (like h2e2)"))?;
        position
            .play(m)
            .map_err(|e| format!("ply {ply}: {m} cannot be played: {e}"))?;
        moves.push(m);
    }
    let arrows = parse_arrows(&args.arrows)?;
    if args.gif && !arrows.is_empty() {
        return Err("arrows are drawn on a PNG board, not on a GIF replay".into());
    }
    let viewer = if args.flip { Color::Black } else { Color::Red };
    let renderer = Renderer::new();
    let result = if args.gif {
        renderer.gif(&start, &moves, viewer, args.theme, args.pieces)
    } else {
        let mut req = BoardRequest::new(&position);
        req.last_move = moves.last().copied();
        req.viewer = viewer;
        req.theme = args.theme;
        req.pieces = args.pieces;
        req.coordinates = args.coords;
        req.arrows = arrows;
        req.red = Player {
            name: args.red_name.clone(),
            clock: args.red_clock.clone(),
        };
        req.black = Player {
            name: args.black_name.clone(),
            clock: args.black_clock.clone(),
        };
        renderer.png(&req)
    };
    result.map_err(|e| e.to_string())
}

/// Arrows as `h2e2` or `h2e2:best`, split on spaces and commas like moves.
fn parse_arrows(texts: &[String]) -> Result<Vec<Arrow>, String> {
    let items: Vec<&str> = texts
        .iter()
        .flat_map(|s| s.split([' ', ',', '\t']))
        .filter(|s| !s.is_empty())
        .collect();
    if items.len() > MAX_ARROWS {
        return Err(format!(
            "{} arrows asked for; a board shows at most {MAX_ARROWS}",
            items.len()
        ));
    }
    items
        .into_iter()
        .map(|item| {
            let (points, style) = match item.split_once(':') {
                Some((p, s)) => (p, s.parse::<ArrowStyle>()?),
                None => (item, ArrowStyle::Hint),
            };
            let bad =
                || format!("arrow {item:?}: write two points in ICCS, like h2e2 or h2e2:best");
            let points = points.trim().to_ascii_lowercase();
            let (from, to) = match (points.get(..2), points.get(2..)) {
                (Some(a), Some(b)) if b.len() == 2 => (a, b),
                _ => return Err(bad()),
            };
            let from = Square::parse(from).ok_or_else(bad)?;
            let to = Square::parse(to).ok_or_else(bad)?;
            if from == to {
                return Err(format!("arrow {item:?} starts and ends on the same point"));
            }
            Ok(Arrow { from, to, style })
        })
        .collect()
}

fn write_out(path: &PathBuf, bytes: &[u8]) -> std::io::Result<()> {
    if path.as_os_str() == "-" {
        let mut out = std::io::stdout().lock();
        out.write_all(bytes)?;
        out.flush()
    } else {
        std::fs::write(path, bytes)
    }
}
