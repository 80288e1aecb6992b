//! The command-line tools: `perft`, `moves`, `parse`, `judge`, `rules`, `render`, `bench`,
//! `bestmove`, `analyse`, `match`, `uci`, `console`, and for the sled database `check`,
//! `export` and `import`. Each returns an exit code; output goes
//! to standard output.

use std::io::{self, BufRead, Write};

use clap::{Parser, Subcommand};

pub mod book;
pub mod bot;
pub mod database;
pub mod engine;
pub mod judge;
pub mod matches;
pub mod memory;
pub mod migrate;
pub mod puzzles;
pub mod render;
pub mod rules;

use crate::core::{divide, perft, Position, MAX_FEN_LEN};
use crate::notation::{format_move, parse_move, read_move, Notation};

/// xiangqi-bot: a Xiangqi (Chinese chess) bot for chat, and the tools to check its rules.
#[derive(Parser, Debug)]
#[command(name = "xiangqi-bot", version, about, long_about = None)]
pub struct Cli {
    /// What to do (the bot itself runs when none is given).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run the bot as a local chat on standard input (the default when no token is set).
    Console,
    /// Count the leaf nodes of the legal move tree to DEPTH (the node count is the last line).
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Start from this FEN instead of the initial position.
        #[arg(long)]
        fen: Option<String>,
        /// Also print the count below each root move.
        #[arg(long)]
        divide: bool,
    },
    /// List the legal moves, space-separated on one line (reads FENs from standard input, one
    /// per line, when --fen is not given).
    Moves {
        /// The position (default: read FENs from standard input).
        #[arg(long)]
        fen: Option<String>,
        /// iccs, wxf, chinese or vietnamese.
        #[arg(long, default_value = "iccs")]
        notation: Notation,
    },
    /// Replay ICCS moves under a ruleset and print the arbiter's ruling with its explanation.
    Judge(judge::JudgeArgs),
    /// Draw a position (after optional ICCS moves) to a PNG, or replay the moves as a GIF.
    Render(render::RenderArgs),
    /// The rulebook: how each piece moves, check, chase, the draw rules, the rulesets.
    Rules(rules::RulesArgs),
    /// Search fixed positions to a fixed depth: prints the total nodes (the search's
    /// signature, which changes only when the search does) and the nodes per second.
    Bench {
        /// Depth of each search.
        #[arg(default_value_t = crate::engine::BENCH_DEPTH)]
        depth: u32,
    },
    /// The engine's move for a position: at a level (1-20), or for a time, depth or node count.
    Bestmove(engine::BestmoveArgs),
    /// The engine's best lines for a position, with scores, in ICCS and WXF.
    #[command(alias = "analyze")]
    Analyse(engine::AnalyseArgs),
    /// Play a match between two engines (builtin:LEVEL or uci:COMMAND), adjudicated by the
    /// arbiter: W/D/L, Elo difference with its 95% interval, PGN.
    Match(matches::MatchArgs),
    /// Grow balanced match openings from the named ones (two plies our engine finds near its
    /// best, checked by a search), as an openings file.
    Openings(book::OpeningsArgs),
    /// Speak UCI on standard input and output (for Xiangqi GUIs and match tools).
    Uci,
    /// The puzzle set: mine tactics from self-play, convert composed endgames, verify, count.
    Puzzles(puzzles::PuzzlesArgs),
    /// Copy a sled database into an empty PostgreSQL database and check the copy.
    Migrate(migrate::MigrateArgs),
    /// Read every record of the sled database and report what is there; exits 3 when any of
    /// it is damaged.
    Check(database::DataArgs),
    /// Write the whole sled database to FILE (a backup; the bot must not be running).
    Export(database::TransferArgs),
    /// Load FILE (from `export`) into a new sled database; the data directory's `db` must not
    /// exist or be empty.
    Import(database::TransferArgs),
    /// Read a move typed in any notation and print it in ICCS (or the error).
    Parse {
        /// The position (default: the initial position).
        #[arg(long)]
        fen: Option<String>,
        /// Read only this notation (default: every notation, asking when readings disagree).
        #[arg(long)]
        notation: Option<Notation>,
        /// The move text.
        #[arg(required = true, num_args = 1.., allow_hyphen_values = true)]
        text: Vec<String>,
    },
}

/// Print a line to standard output, quietly ignoring a closed pipe (`| head`).
pub(crate) fn emit(line: &str) {
    let out = io::stdout();
    let mut out = out.lock();
    let _ = writeln!(out, "{line}");
}

/// Run the command line; returns the process exit code.
#[must_use]
pub fn run(cli: Cli) -> i32 {
    match cli.command {
        None | Some(Command::Console) => i32::from(bot::run() != std::process::ExitCode::SUCCESS),
        Some(Command::Judge(args)) => judge::run(args),
        Some(Command::Rules(args)) => rules::run(args),
        Some(Command::Render(args)) => render::run(args),
        Some(Command::Perft { depth, fen, divide }) => cmd_perft(depth, fen.as_deref(), divide),
        Some(Command::Bench { depth }) => cmd_bench(depth),
        Some(Command::Bestmove(args)) => engine::bestmove(&args),
        Some(Command::Analyse(args)) => engine::analyse(&args),
        Some(Command::Match(args)) => matches::run(&args),
        Some(Command::Openings(args)) => book::run(&args),
        Some(Command::Uci) => engine::uci(),
        Some(Command::Puzzles(args)) => puzzles::run(args),
        Some(Command::Migrate(args)) => migrate::run(&args),
        Some(Command::Check(args)) => database::check(&args),
        Some(Command::Export(args)) => database::export(&args),
        Some(Command::Import(args)) => database::import(&args),
        Some(Command::Moves { fen, notation }) => cmd_moves(fen.as_deref(), notation),
        Some(Command::Parse {
            fen,
            notation,
            text,
        }) => cmd_parse(fen.as_deref(), notation, &text.join(" ")),
    }
}

fn position(fen: Option<&str>) -> Result<Position, String> {
    match fen {
        None => Ok(Position::startpos()),
        Some(f) => Position::from_fen(f).map_err(|e| format!("error: bad FEN: {e}")),
    }
}

fn cmd_perft(depth: u32, fen: Option<&str>, show_divide: bool) -> i32 {
    let pos = match position(fen) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    let out = io::stdout();
    let mut out = out.lock();
    let total = if show_divide {
        let rows = divide(&pos, depth);
        for (m, n) in &rows {
            let _ = writeln!(out, "{m}: {n}");
        }
        rows.iter().map(|(_, n)| n).sum()
    } else {
        perft(&pos, depth)
    };
    let _ = writeln!(out, "{total}");
    0
}

fn cmd_bench(depth: u32) -> i32 {
    if !(1..=30).contains(&depth) {
        emit("error: the bench depth must be between 1 and 30");
        return 2;
    }
    let r = crate::engine::bench(depth);
    emit(&format!("depth {depth}"));
    emit(&format!("time {} ms", r.time_ms));
    emit(&format!("nps {}", r.nps));
    emit(&format!("nodes {}", r.nodes));
    0
}

fn moves_line(pos: &Position, notation: Notation) -> String {
    let mut moves: Vec<_> = pos.legal_moves().iter().copied().collect();
    moves.sort_by_key(ToString::to_string);
    moves
        .iter()
        .map(|&m| format_move(pos, m, notation))
        .collect::<Vec<_>>()
        .join(" ")
}

fn cmd_moves(fen: Option<&str>, notation: Notation) -> i32 {
    let out = io::stdout();
    let mut out = out.lock();
    if let Some(f) = fen {
        return match Position::from_fen(f) {
            Ok(pos) => {
                let _ = writeln!(out, "{}", moves_line(&pos, notation));
                0
            }
            Err(e) => {
                let _ = writeln!(out, "error: {e}");
                2
            }
        };
    }
    let stdin = io::stdin();
    let mut buf = Vec::new();
    let mut reader = stdin.lock();
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                eprintln!("error: cannot read standard input: {e}");
                return 2;
            }
        }
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let result = if line.chars().count() > MAX_FEN_LEN {
            format!(
                "error: line too long for a FEN ({} characters)",
                line.chars().count()
            )
        } else {
            match Position::from_fen(line) {
                Ok(pos) => moves_line(&pos, notation),
                Err(e) => format!("error: {e}"),
            }
        };
        if writeln!(out, "{result}").is_err() {
            return 0; // the reader went away (a closed pipe): stop quietly
        }
    }
    0
}

fn cmd_parse(fen: Option<&str>, notation: Option<Notation>, text: &str) -> i32 {
    let pos = match position(fen) {
        Ok(p) => p,
        Err(e) => {
            emit(&e);
            return 2;
        }
    };
    // With a notation, read strictly that one; without, try them all (preferring ICCS) and list
    // the readings when they disagree.
    let result = match notation {
        Some(n) => parse_move(&pos, text, n),
        None => read_move(&pos, text, Notation::Iccs).map(|r| r.mv),
    };
    match result {
        Ok(m) => {
            emit(&m.to_string());
            0
        }
        Err(e) => {
            emit(&format!("error: {e}"));
            1
        }
    }
}
