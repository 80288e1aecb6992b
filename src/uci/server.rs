//! `xiangqi-bot uci`: the built-in engine as a UCI engine, for Xiangqi GUIs and match tools.
//!
//! The reading thread answers `uci`, `isready`, `setoption`, `position` and `stop` at once;
//! searches run on a worker thread that owns the [`Engine`], so `stop` and `isready` are
//! answered while it thinks. Jobs reach the worker in order (a `setoption name Hash` or
//! `ucinewgame` sent during a search waits for it).
//!
//! Positions are accepted as given, even where our arbiter would have ended the game or refused
//! a move: a GUI may play on. Only moves that break the rules of movement are dropped (with an
//! `info string`).

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::arbiter::{Ruleset, RulesetName};
use crate::core::{Color, Move, Position};
use crate::engine::uci::{
    parse_command, Dialect, EngineLine, Go, GuiCommand, InfoLine, InfoScore, OptionKind, StartPos,
    UciError, UciOption,
};
use crate::engine::{play_level, Clock, Engine, Info, Limits, SearchResult, TOP_LEVEL};

/// The engine's name in `id name`.
pub const ENGINE_NAME: &str = concat!("xiangqi-bot ", env!("CARGO_PKG_VERSION"));

/// Settings the GUI can change with `setoption`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Settings {
    hash_mb: usize,
    multipv: usize,
    level: u8,
    ruleset: RulesetName,
    dialect: Dialect,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            hash_mb: 16,
            multipv: 1,
            level: TOP_LEVEL,
            ruleset: RulesetName::Official,
            dialect: Dialect::Iccs,
        }
    }
}

/// The options we declare after `uci`.
fn options() -> Vec<UciOption> {
    let spin = |name: &str, default: i64, min: i64, max: i64| UciOption {
        name: name.into(),
        kind: OptionKind::Spin { default, min, max },
    };
    let combo = |name: &str, default: &str, vars: &[&str]| UciOption {
        name: name.into(),
        kind: OptionKind::Combo {
            default: default.into(),
            vars: vars.iter().map(|v| (*v).to_string()).collect(),
        },
    };
    vec![
        spin("Hash", 16, 1, 1024),
        spin("Threads", 1, 1, 1),
        spin("MultiPV", 1, 1, 32),
        spin("Skill Level", i64::from(TOP_LEVEL), 1, i64::from(TOP_LEVEL)),
        combo(
            "Ruleset",
            "official",
            &RulesetName::ALL.map(RulesetName::as_str),
        ),
        combo("Dialect", "iccs", &["iccs", "fairy"]),
        UciOption {
            name: "Clear Hash".into(),
            kind: OptionKind::Button,
        },
    ]
}

/// A search for the worker.
struct SearchJob {
    start: Position,
    moves: Vec<Move>,
    go: Go,
    settings: Settings,
    seed: u64,
    stop: Arc<AtomicBool>,
}

/// What the reading thread sends the search thread.
enum Job {
    Search(Box<SearchJob>),
    NewGame,
    Hash(usize),
}

type Out = Arc<Mutex<dyn Write + Send>>;

fn say(out: &Out, line: &str) {
    if let Ok(mut o) = out.lock() {
        let _ = writeln!(o, "{line}");
        let _ = o.flush();
    }
}

/// Run the UCI loop on `input` and `output` until `quit` or the end of the input.
///
/// # Errors
/// Reading the input failed.
pub fn serve(input: impl BufRead, output: impl Write + Send + 'static) -> io::Result<()> {
    let out: Out = Arc::new(Mutex::new(output));
    // Each search has its own stop flag: a `stop` meant for one search never reaches the next.
    let mut stop = Arc::new(AtomicBool::new(false));
    let (jobs, rx) = mpsc::channel::<Job>();
    let worker = spawn_worker(rx, Arc::clone(&out))?;
    let mut settings = Settings::default();
    let mut start = Position::startpos();
    let mut moves: Vec<Move> = Vec::new();
    let mut searches = 0u64;
    for line in input.lines() {
        let line = line?;
        let cmd = match parse_command(&line, settings.dialect) {
            Ok(c) => c,
            Err(UciError::Empty) => continue,
            Err(e) => {
                say(&out, &format!("info string {e}"));
                continue;
            }
        };
        match cmd {
            GuiCommand::Uci => {
                say(
                    &out,
                    &EngineLine::IdName(ENGINE_NAME.into()).to_line(settings.dialect),
                );
                say(
                    &out,
                    &EngineLine::IdAuthor("the xiangqi-bot authors".into())
                        .to_line(settings.dialect),
                );
                for o in options() {
                    say(&out, &o.to_line());
                }
                say(&out, "uciok");
            }
            GuiCommand::IsReady => say(&out, "readyok"),
            GuiCommand::Debug(_) => {}
            // We do not offer Ponder; a GUI that ponders anyway gets the move at once.
            GuiCommand::PonderHit => stop.store(true, Ordering::SeqCst),
            GuiCommand::SetOption { name, value } => {
                if let Err(e) = set_option(&mut settings, &name, value.as_deref(), &jobs) {
                    say(&out, &format!("info string {e}"));
                }
            }
            GuiCommand::UciNewGame => {
                let _ = jobs.send(Job::NewGame);
            }
            GuiCommand::Position { start: s, moves: m } => match set_position(&s, &m) {
                Ok((p, ms, note)) => {
                    (start, moves) = (p, ms);
                    if let Some(n) = note {
                        say(&out, &format!("info string {n}"));
                    }
                }
                Err(e) => say(&out, &format!("info string {e}")),
            },
            GuiCommand::Go(go) => {
                if !go.searchmoves.is_empty() {
                    say(
                        &out,
                        "info string searchmoves is not supported: every move is searched",
                    );
                }
                stop = Arc::new(AtomicBool::new(false));
                searches += 1;
                let _ = jobs.send(Job::Search(Box::new(SearchJob {
                    start: start.clone(),
                    moves: moves.clone(),
                    go,
                    settings: settings.clone(),
                    seed: searches,
                    stop: Arc::clone(&stop),
                })));
            }
            GuiCommand::Stop => stop.store(true, Ordering::SeqCst),
            GuiCommand::Quit => break,
        }
    }
    stop.store(true, Ordering::SeqCst);
    drop(jobs);
    let _ = worker.join();
    Ok(())
}

fn set_option(
    settings: &mut Settings,
    name: &str,
    value: Option<&str>,
    jobs: &mpsc::Sender<Job>,
) -> Result<(), String> {
    let value = value.unwrap_or("").trim();
    let bad = || {
        format!(
            "bad value {:?} for option {name:?}",
            value.chars().take(32).collect::<String>()
        )
    };
    match name.to_ascii_lowercase().as_str() {
        "hash" => {
            let mb: usize = value.parse().map_err(|_| bad())?;
            settings.hash_mb = mb.clamp(1, 1024);
            let _ = jobs.send(Job::Hash(settings.hash_mb));
        }
        "clear hash" => {
            let _ = jobs.send(Job::NewGame);
        }
        "threads" => {
            let _: usize = value.parse().map_err(|_| bad())?;
        }
        "multipv" => {
            let n: usize = value.parse().map_err(|_| bad())?;
            settings.multipv = n.clamp(1, 32);
        }
        "skill level" => {
            let n: i64 = value.parse().map_err(|_| bad())?;
            settings.level = u8::try_from(n.clamp(1, i64::from(TOP_LEVEL))).unwrap_or(TOP_LEVEL);
        }
        "ruleset" => settings.ruleset = value.parse().map_err(|_| bad())?,
        "dialect" => settings.dialect = value.parse().map_err(|_| bad())?,
        // Tools that drive every engine like Fairy-Stockfish send these; we play only Xiangqi.
        "uci_variant" if value == "xiangqi" => {}
        "ponder" | "uci_analysemode" | "move overhead" => {}
        _ => {
            return Err(format!(
                "no option {:?}",
                name.chars().take(32).collect::<String>()
            ))
        }
    }
    Ok(())
}

/// The position to search: the start, then each move while it is legal by the rules of
/// movement (an arbiter's ending or refusal does not stop it). Returns a note when moves were
/// dropped.
fn set_position(
    start: &StartPos,
    moves: &[Move],
) -> Result<(Position, Vec<Move>, Option<String>), String> {
    let pos = Position::from_fen(start.fen()).map_err(|e| format!("bad FEN: {e}"))?;
    let mut now = pos.clone();
    for (i, &m) in moves.iter().enumerate() {
        if !now.is_legal(m) {
            return Ok((
                pos,
                moves[..i].to_vec(),
                Some(format!(
                    "move {} ({m}) is illegal; ignored with the rest",
                    i + 1
                )),
            ));
        }
        now.play_unchecked(m);
    }
    Ok((pos, moves.to_vec(), None))
}

fn spawn_worker(rx: mpsc::Receiver<Job>, out: Out) -> io::Result<JoinHandle<()>> {
    std::thread::Builder::new()
        .name("uci-search".into())
        .spawn(move || {
            let mut engine = Engine::new(Settings::default().hash_mb);
            for job in rx {
                match job {
                    Job::NewGame => engine.new_game(),
                    Job::Hash(mb) => engine.set_hash(mb),
                    Job::Search(job) => search(&mut engine, &job, &out),
                }
            }
        })
}

/// UCI `go` arguments as engine limits for the side to move.
#[must_use]
pub fn limits_from_go(go: &Go, turn: Color, multipv: usize) -> Limits {
    let (time, inc) = match turn {
        Color::Red => (go.wtime, go.winc),
        Color::Black => (go.btime, go.binc),
    };
    Limits {
        depth: go
            .depth
            .or(go.mate.map(|n| n.saturating_mul(2).saturating_add(1))),
        nodes: go.nodes,
        movetime_ms: go.movetime,
        clock: time.map(|t| Clock {
            remaining_ms: t,
            increment_ms: inc.unwrap_or(0),
            byoyomi_ms: 0,
            moves_to_go: go.movestogo,
        }),
        move_cap_ms: None,
        multipv,
    }
}

fn search(engine: &mut Engine, job: &SearchJob, out: &Out) {
    let SearchJob {
        start,
        moves,
        go,
        settings,
        seed,
        stop,
    } = job;
    let (seed, stop) = (*seed, &**stop);
    let rules = Ruleset::preset(settings.ruleset);
    let mut now = start.clone();
    for &m in moves {
        now.play_unchecked(m);
    }
    let limits = limits_from_go(go, now.turn(), settings.multipv);
    let dialect = settings.dialect;
    let mut run = |start: &Position, moves: &[Move]| {
        if settings.level < TOP_LEVEL {
            play_level(
                engine,
                start,
                moves,
                &rules,
                settings.level,
                limits.clock,
                seed,
                stop,
            )
        } else {
            engine.search(start, moves, &rules, &limits, stop, &mut |info: &Info| {
                say(out, &info_line(info).to_line(dialect));
            })
        }
    };
    let mut result: SearchResult = run(start, moves);
    if result.best.is_none() && now.has_legal_move() && !stop.load(Ordering::SeqCst) {
        // Our arbiter would not go on from here (the game is over by its rules, or every
        // move is a foul), but a GUI may: search the position without its history.
        result = run(&now, &[]);
    }
    // `go infinite` (and `go ponder`) must not answer before `stop`.
    while (go.infinite || go.ponder) && !stop.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(5));
    }
    // A GUI may play on where our arbiter would not: any legal move beats none.
    let best = result
        .best
        .or_else(|| now.legal_moves().iter().next().copied());
    let ponder = result.ponder.filter(|_| best == result.best);
    say(out, &EngineLine::BestMove { best, ponder }.to_line(dialect));
}

/// An engine progress report as an `info` line.
#[must_use]
pub fn info_line(info: &Info) -> InfoLine {
    InfoLine {
        depth: Some(info.depth),
        seldepth: Some(info.seldepth),
        multipv: Some(u32::try_from(info.multipv.max(1)).unwrap_or(1)),
        score: Some(InfoScore {
            score: info.score,
            bound: None,
        }),
        nodes: Some(info.nodes),
        nps: Some(info.nps),
        hashfull: Some(info.hashfull),
        time: Some(info.time_ms),
        pv: info.pv.clone(),
        ..InfoLine::default()
    }
}
