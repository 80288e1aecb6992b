//! `bestmove`, `analyse` and `uci`: the engine from the command line.

use std::io;
use std::sync::atomic::AtomicBool;

use clap::Args;

use crate::arbiter::{Arbiter, Ruleset, RulesetName};
use crate::config::Config;
use crate::core::{Move, Position};
use crate::engine::{Limits, Score, SearchResult};
use crate::notation::{format_move, Notation};
use crate::uci::player::{Played, Player};
use crate::uci::EngineConfig;

use super::emit;

/// The position: a start and the moves played from it, under a ruleset.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// The start (default: the initial position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves played from the start, in ICCS, separated by spaces: "h2e2 h9g7".
    #[arg(long, allow_hyphen_values = true)]
    pub moves: Option<String>,
    /// The ruleset for repetition and the draw rules.
    #[arg(long, default_value = "official")]
    pub ruleset: RulesetName,
}

impl GameArgs {
    /// The game so far, checked by the arbiter.
    ///
    /// # Errors
    /// A message naming the bad FEN or the first move that cannot be played.
    pub fn game(&self) -> Result<Arbiter, String> {
        let start = match &self.fen {
            None => Position::startpos(),
            Some(f) => Position::from_fen(f).map_err(|e| format!("bad FEN: {e}"))?,
        };
        let moves = parse_moves(self.moves.as_deref().unwrap_or(""))?;
        crate::uci::replay(&start, &moves, &Ruleset::preset(self.ruleset)).map_err(|(i, e)| {
            format!(
                "move {} ({}) cannot be played: {}",
                i + 1,
                moves[i],
                crate::uci::submit_error_text(&e)
            )
        })
    }
}

/// ICCS moves separated by spaces or commas.
///
/// # Errors
/// The first token that is not an ICCS move.
pub fn parse_moves(text: &str) -> Result<Vec<Move>, String> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .enumerate()
        .map(|(i, t)| {
            Move::parse_iccs(t).ok_or_else(|| {
                format!(
                    "move {} {:?} is not ICCS (like h2e2)",
                    i + 1,
                    t.chars().take(16).collect::<String>()
                )
            })
        })
        .collect()
}

/// `bestmove`: one move for the side to move.
#[derive(Args, Debug)]
pub struct BestmoveArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Play at this level (1–20; the default is 20, the full engine at its own time).
    #[arg(long, conflicts_with_all = ["movetime", "depth", "nodes"])]
    level: Option<u8>,
    /// Search this long, in milliseconds (the full engine).
    #[arg(long)]
    movetime: Option<u64>,
    /// Search to this depth.
    #[arg(long)]
    depth: Option<u32>,
    /// Search this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
    /// Seed of the level's choice among good moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// `analyse`: the best lines with their scores.
#[derive(Args, Debug)]
pub struct AnalyseArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Lines to show.
    #[arg(long, default_value_t = 3)]
    multipv: usize,
    /// Search to this depth.
    #[arg(long)]
    depth: Option<u32>,
    /// Search this long, in milliseconds (default 1000 when no depth is given).
    #[arg(long)]
    movetime: Option<u64>,
}

/// The game of `args`, or `None` after printing why not.
fn load(args: &GameArgs) -> Option<Arbiter> {
    args.game().map_err(|e| emit(&format!("error: {e}"))).ok()
}

fn engine_config() -> EngineConfig {
    match Config::from_env() {
        Ok(c) => c.engine,
        Err(e) => {
            eprintln!("{e}; using the built-in engine");
            EngineConfig::default()
        }
    }
}

fn report_fallback(played: &Played) {
    if let Some(why) = &played.fallback {
        eprintln!("external engine not used: {why}");
    }
}

/// Run `bestmove`.
#[must_use]
pub fn bestmove(args: &BestmoveArgs) -> i32 {
    let Some(game) = load(&args.game) else {
        return 2;
    };
    if let Some(r) = game.ruling() {
        emit("(none)");
        emit(&format!("the game is over: {}", r.reason.as_str()));
        return 1;
    }
    let player = Player::new(&engine_config());
    let stop = AtomicBool::new(false);
    let timed = args.movetime.is_some() || args.depth.is_some() || args.nodes.is_some();
    let played = if timed {
        let limits = Limits {
            movetime_ms: args.movetime,
            depth: args.depth,
            nodes: args.nodes,
            ..Limits::default()
        };
        player.analyse(&game, &limits, &stop, &mut |_| {})
    } else {
        player.play(
            &game,
            args.level
                .unwrap_or(crate::engine::TOP_LEVEL)
                .clamp(1, crate::engine::TOP_LEVEL),
            None,
            args.seed,
            &stop,
        )
    };
    report_fallback(&played);
    let r = &played.result;
    let Some(best) = r.best else {
        emit("(none)");
        emit("no acceptable move: every legal move loses by a foul");
        return 1;
    };
    let pos = game.position();
    let score = r
        .lines
        .iter()
        .find(|l| l.pv.first() == Some(&best))
        .map_or_else(|| "-".to_string(), |l| score_text(l.score));
    emit(&best.to_string());
    emit(&format!(
        "{} | score {score} | depth {} | nodes {} | {} ms | {}",
        format_move(pos, best, Notation::Wxf),
        r.depth,
        r.nodes,
        r.time_ms,
        played.source
    ));
    0
}

/// Run `analyse`.
#[must_use]
pub fn analyse(args: &AnalyseArgs) -> i32 {
    let Some(game) = load(&args.game) else {
        return 2;
    };
    let player = Player::new(&engine_config());
    let limits = Limits {
        depth: args.depth,
        movetime_ms: args.movetime.or(args.depth.is_none().then_some(1000)),
        multipv: args.multipv.clamp(1, 32),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let played = player.analyse(&game, &limits, &stop, &mut |_| {});
    report_fallback(&played);
    for line in analysis_lines(game.position(), &played.result) {
        emit(&line);
    }
    emit(&format!(
        "depth {} | nodes {} | {} ms | {}",
        played.result.depth, played.result.nodes, played.result.time_ms, played.source
    ));
    i32::from(played.result.lines.is_empty())
}

/// `cp +32`, `mate 3`, `mate -2`.
#[must_use]
pub fn score_text(s: Score) -> String {
    match s {
        Score::Cp(c) => format!("cp {c:+}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// One text line per result line: rank, score, the PV in ICCS and in WXF.
#[must_use]
pub fn analysis_lines(pos: &Position, r: &SearchResult) -> Vec<String> {
    r.lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let iccs: Vec<String> = l.pv.iter().map(ToString::to_string).collect();
            let mut p = pos.clone();
            let mut wxf = Vec::new();
            for &m in &l.pv {
                if !p.is_legal(m) {
                    break;
                }
                wxf.push(format_move(&p, m, Notation::Wxf));
                p.play_unchecked(m);
            }
            format!(
                "{}. {:<9} {} | {}",
                i + 1,
                score_text(l.score),
                iccs.join(" "),
                wxf.join(" ")
            )
        })
        .collect()
}

/// Run `uci`: the UCI loop on standard input and output.
#[must_use]
pub fn uci() -> i32 {
    match crate::uci::server::serve(io::stdin().lock(), io::stdout()) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}
