//! `puzzles`: mine tactics from self-play, convert the composed endgames, verify and count the
//! set.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};

use crate::core::{Move, Position};
use crate::engine::{Engine, Info, Limits, Score};
use crate::puzzle::mine::{mate_line, mine, rating, MineSettings};
use crate::puzzle::{parse_set, shipped, verify, verify_unique, Goal, Puzzle, Theme};
use crate::uci::matches::parse_openings;

use super::emit;

/// `puzzles`: what to do with the puzzle set.
#[derive(Args, Debug)]
pub struct PuzzlesArgs {
    #[command(subcommand)]
    command: PuzzlesCommand,
}

/// The `puzzles` subcommands.
#[derive(Subcommand, Debug)]
enum PuzzlesCommand {
    /// Play the engine against itself and keep positions where one move mates or wins
    /// material and the second best is clearly worse (deterministic for a seed).
    Mine {
        /// Games to play.
        #[arg(long, default_value_t = 20)]
        games: usize,
        /// Node budget of the search that confirms a puzzle.
        #[arg(long, default_value_t = 200_000)]
        nodes: u64,
        /// Seed of the run (openings, strengths, choices).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Openings to start from (default: assets/openings.txt when present).
        #[arg(long)]
        openings: Option<PathBuf>,
        /// Append the puzzles to this file (default: print them).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Sets whose positions are not cut again (repeatable): earlier runs, to add to them.
        #[arg(long)]
        exclude: Vec<PathBuf>,
    },
    /// Convert XiangqiBench's cases.jsonl: the engine finds each mate's full line.
    Endgames {
        /// The cases (JSON lines).
        cases: PathBuf,
        /// Largest node budget tried per position.
        #[arg(long, default_value_t = 6_000_000)]
        nodes: u64,
        /// Write the set here (default: print it).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Check every puzzle (default: the shipped set): the line is legal and wins as listed,
    /// and the engine sees each solver move as winning at this budget (0: no engine).
    Verify {
        /// A set to check instead of the shipped one.
        #[arg(long)]
        file: Option<PathBuf>,
        /// Node budget of each search.
        #[arg(long, default_value_t = 200_000)]
        nodes: u64,
        /// Also require one good move at every solver turn (two-line search): the listed move
        /// is best, no other move mates, a mate is as long as listed, and in a material puzzle
        /// the second-best move is at least `--margin` worse.
        #[arg(long)]
        unique: bool,
        /// The least gap to the second-best move in material puzzles (centipawns).
        #[arg(long, default_value_t = 200)]
        margin: i32,
    },
    /// Count the shipped puzzles by theme, rating and source.
    Stats,
}

/// Run `puzzles`.
#[must_use]
pub fn run(args: PuzzlesArgs) -> i32 {
    match args.command {
        PuzzlesCommand::Mine {
            games,
            nodes,
            seed,
            openings,
            out,
            exclude,
        } => cmd_mine(games, nodes, seed, openings, out.as_deref(), &exclude),
        PuzzlesCommand::Endgames { cases, nodes, out } => {
            cmd_endgames(&cases, nodes, out.as_deref())
        }
        PuzzlesCommand::Verify {
            file,
            nodes,
            unique,
            margin,
        } => cmd_verify(file.as_deref(), nodes, unique.then_some(margin)),
        PuzzlesCommand::Stats => {
            for line in stats_lines(&shipped()) {
                emit(&line);
            }
            0
        }
    }
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("error: cannot read {}: {e}", path.display()))
}

fn write_or_print(out: Option<&Path>, text: &str, append: bool) -> Result<(), String> {
    let Some(path) = out else {
        print!("{text}");
        return Ok(());
    };
    let result = if append {
        use std::io::Write;
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut f| f.write_all(text.as_bytes()))
    } else {
        std::fs::write(path, text)
    };
    result.map_err(|e| format!("error: cannot write {}: {e}", path.display()))
}

fn cmd_mine(
    games: usize,
    nodes: u64,
    seed: u64,
    openings: Option<PathBuf>,
    out: Option<&Path>,
    exclude: &[PathBuf],
) -> i32 {
    let mut known = std::collections::HashSet::new();
    for path in exclude {
        match read(path).and_then(|t| parse_set(&t)) {
            Ok(set) => known.extend(set.iter().map(|p| p.position.hash())),
            Err(e) => {
                emit(&e);
                return 2;
            }
        }
    }
    let path = openings.unwrap_or_else(|| PathBuf::from("assets/openings.txt"));
    let openings = match read(&path).and_then(|t| parse_openings(&t)) {
        Ok(o) => o.into_iter().map(|o| o.moves).collect(),
        Err(e) => {
            eprintln!("{e}; playing from the initial position");
            Vec::new()
        }
    };
    let settings = MineSettings {
        games,
        nodes,
        openings,
        seed,
        max_plies: 200,
        prefix: format!("t{seed}"),
        exclude: known,
    };
    let mut failed = None;
    mine(
        &settings,
        &mut |p: &Puzzle| {
            if failed.is_none() {
                failed = write_or_print(out, &format!("{}\n", p.to_line()), true).err();
            }
        },
        &mut |g, n| eprintln!("game {}: {n} puzzles so far", g + 1),
    );
    match failed {
        Some(e) => {
            emit(&e);
            1
        }
        None => 0,
    }
}

/// One composed endgame: id, title and FEN from a line of cases.jsonl.
fn case_of(line: &str) -> Option<(String, String, String)> {
    let v: serde_json::Value = serde_json::from_str(line).ok()?;
    let source = v.get("source")?.as_str()?;
    let index = v.get("raw_index")?.as_u64()?;
    let name = v.get("name")?.as_str()?.replace('|', "/");
    let fen = v.get("fen")?.as_str()?.to_string();
    let (id, title) = match source {
        "shi-qing-ya-qu" => (
            format!("sqyq-{:03}", index + 1),
            format!(
                "适情雅趣 (Shi Qing Ya Qu, 1570) {}",
                name.trim_end_matches(" - 适情雅趣")
            ),
        ),
        _ => (
            format!("jh-{index:03}"),
            format!("江湖残局 (Jianghu endgames) {name}"),
        ),
    };
    Some((id, title, fen))
}

fn cmd_endgames(cases: &Path, max_nodes: u64, out: Option<&Path>) -> i32 {
    let text = match read(cases) {
        Ok(t) => t,
        Err(e) => {
            emit(&e);
            return 2;
        }
    };
    let mut engine = Engine::new(64);
    let mut set = String::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Some((id, title, fen)) = case_of(line) else {
            emit(&format!(
                "skipped: not a case: {}",
                line.chars().take(60).collect::<String>()
            ));
            continue;
        };
        let pos = match Position::from_fen(&fen) {
            Ok(p) => p,
            Err(e) => {
                emit(&format!("skipped {id}: {e}"));
                continue;
            }
        };
        match solve_endgame(&mut engine, &pos, max_nodes) {
            Some((solution, depth)) => {
                let n = solution.len().div_ceil(2);
                let moves = u8::try_from(n).unwrap_or(u8::MAX);
                let p = Puzzle {
                    id,
                    position: pos,
                    solution,
                    goal: Goal::Mate(u32::from(moves)),
                    theme: Theme::MateIn(moves),
                    rating: rating(depth, n),
                    source: title,
                };
                emit(&format!("{}: mate in {n}", p.id));
                let _ = writeln!(set, "{}", p.to_line());
            }
            None => emit(&format!(
                "skipped {id}: no mate found within {max_nodes} nodes"
            )),
        }
    }
    match write_or_print(out, &set, false) {
        Ok(()) => 0,
        Err(e) => {
            emit(&e);
            1
        }
    }
}

/// The engine's mate line for a composed endgame, trying growing budgets, and the depth its
/// first move was found at.
fn solve_endgame(engine: &mut Engine, pos: &Position, max_nodes: u64) -> Option<(Vec<Move>, u32)> {
    let mut nodes = 200_000.min(max_nodes);
    loop {
        engine.new_game();
        let mut infos: Vec<(u32, Option<Move>)> = Vec::new();
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let stop = std::sync::atomic::AtomicBool::new(false);
        let r = engine.search(
            pos,
            &[],
            &crate::arbiter::Ruleset::default(),
            &limits,
            &stop,
            &mut |i: &Info| infos.push((i.depth, i.pv.first().copied())),
        );
        if let Some(l) = r.lines.first() {
            if let Score::Mate(n) = l.score {
                if let (Ok(n), Some(&first)) = (usize::try_from(n), l.pv.first()) {
                    if let Some(line) = mate_line(engine, pos, l.pv.clone(), n, nodes) {
                        let depth = infos
                            .iter()
                            .rev()
                            .take_while(|i| i.1 == Some(first))
                            .last()
                            .map_or(r.depth, |i| i.0);
                        return Some((line, depth));
                    }
                }
            }
        }
        if nodes >= max_nodes {
            return None;
        }
        nodes = (nodes * 4).min(max_nodes);
    }
}

/// Check the set; with `unique` (the margin), the one-good-move check instead of the winning one.
fn cmd_verify(file: Option<&Path>, nodes: u64, unique: Option<i32>) -> i32 {
    let set = match file {
        None => shipped(),
        Some(path) => match read(path).and_then(|t| parse_set(&t)) {
            Ok(s) => s,
            Err(e) => {
                emit(&format!("error: {e}"));
                return 2;
            }
        },
    };
    let mut engine = Engine::new(16);
    let mut bad = 0;
    let started = std::time::Instant::now();
    for p in &set {
        let failed = match unique {
            Some(margin) => verify_unique(p, &mut engine, nodes, margin)
                .err()
                .map(|e| e.to_string()),
            None => verify(p, &mut engine, nodes).err().map(|e| e.to_string()),
        };
        if let Some(e) = failed {
            bad += 1;
            emit(&format!("{}: {e}", p.id));
        }
    }
    emit(&format!(
        "{} puzzles, {} verified, {bad} failed, {nodes} nodes a search, {} ms",
        set.len(),
        set.len() - bad,
        started.elapsed().as_millis()
    ));
    i32::from(bad > 0)
}

/// Counts by theme, by rating band and by source, as lines of text.
#[must_use]
pub fn stats_lines(set: &[Puzzle]) -> Vec<String> {
    let mut themes: BTreeMap<Theme, usize> = BTreeMap::new();
    let mut bands: BTreeMap<u16, usize> = BTreeMap::new();
    let mut composed = 0;
    for p in set {
        *themes.entry(p.theme).or_default() += 1;
        *bands.entry(p.rating / 200 * 200).or_default() += 1;
        composed += usize::from(!p.source.starts_with("self-play"));
    }
    let mut out = vec![format!(
        "{} puzzles: {composed} composed endgames, {} tactics from self-play",
        set.len(),
        set.len() - composed
    )];
    out.extend(themes.iter().map(|(t, n)| format!("{t}: {n}")));
    out.extend(
        bands
            .iter()
            .map(|(b, n)| format!("rating {b}-{}: {n}", b + 199)),
    );
    out
}
