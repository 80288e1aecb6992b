//! A UCI engine run as a child process (Pikafish, Fairy-Stockfish, or `xiangqi-bot uci`), driven
//! synchronously: every wait has a timeout, so a crashed or hung engine is an error, never a hang.
//!
//! One reader thread turns the child's standard output into lines on a channel; the caller's
//! thread writes commands and waits on that channel with `recv_timeout`. An `ExternalEngine`
//! serves one search at a time (`&mut self`); run it from a blocking thread pool.

use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::core::{Move, Position, START_FEN};
use crate::engine::uci::{
    parse_engine_line, Dialect, EngineLine, GuiCommand, InfoLine, OptionKind, StartPos, UciOption,
    MAX_LINE_LEN,
};
use crate::engine::{Limits, Line, SearchResult};

/// How long to wait for each answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// From start to `uciok`.
    pub handshake: Duration,
    /// From `isready` to `readyok`.
    pub ready: Duration,
    /// Added to a search's own time budget before it counts as hung.
    pub grace: Duration,
    /// The longest search without a time budget (`depth`, `nodes`).
    pub unbounded: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            handshake: Duration::from_secs(10),
            ready: Duration::from_secs(5),
            grace: Duration::from_millis(1500),
            unbounded: Duration::from_secs(60),
        }
    }
}

/// How to start an external engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The program and its arguments, separated by whitespace (no shell).
    pub command: String,
    /// The move dialect; `None` detects it from the engine's name and options.
    pub dialect: Option<Dialect>,
    /// Options to set after the handshake (`Hash`, `Threads`, ...), by name.
    pub options: Vec<(String, String)>,
    /// Timeouts.
    pub timeouts: Timeouts,
}

impl EngineSpec {
    /// A spec with the default timeouts, dialect detection and no options.
    #[must_use]
    pub fn new(command: &str) -> EngineSpec {
        EngineSpec {
            command: command.trim().to_string(),
            dialect: None,
            options: Vec::new(),
            timeouts: Timeouts::default(),
        }
    }
}

/// What went wrong with an external engine.
#[derive(Debug)]
pub enum EngineError {
    /// The command is empty.
    NoCommand,
    /// The program could not be started (missing, not executable).
    Spawn {
        /// The program.
        program: String,
        /// Why.
        error: io::Error,
    },
    /// The engine closed its output (exited or crashed) while we waited for `waiting_for`.
    Exited {
        /// What we waited for.
        waiting_for: &'static str,
        /// Its exit status, when known.
        status: Option<String>,
    },
    /// No `waiting_for` within `after`.
    Timeout {
        /// What we waited for.
        waiting_for: &'static str,
        /// How long we waited.
        after: Duration,
    },
    /// Writing to the engine failed.
    Write(io::Error),
    /// The engine answered something we cannot use.
    Protocol(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::NoCommand => f.write_str("no engine command"),
            EngineError::Spawn { program, error } => {
                write!(f, "cannot start {program:?}: {error}")
            }
            EngineError::Exited {
                waiting_for,
                status,
            } => match status {
                Some(s) => write!(f, "engine exited ({s}) while waiting for {waiting_for}"),
                None => write!(
                    f,
                    "engine closed its output while waiting for {waiting_for}"
                ),
            },
            EngineError::Timeout { waiting_for, after } => {
                write!(f, "no {waiting_for} within {} ms", after.as_millis())
            }
            EngineError::Write(e) => write!(f, "cannot write to the engine: {e}"),
            EngineError::Protocol(s) => write!(f, "protocol error: {s}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// A running UCI engine.
pub struct ExternalEngine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    name: String,
    dialect: Dialect,
    options: Vec<UciOption>,
    timeouts: Timeouts,
    /// Set when a wait failed: the engine's state is unknown and it must not be used again.
    broken: bool,
}

impl fmt::Debug for ExternalEngine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExternalEngine")
            .field("name", &self.name)
            .field("dialect", &self.dialect)
            .field("pid", &self.child.id())
            .finish_non_exhaustive()
    }
}

impl ExternalEngine {
    /// Start the engine, do the handshake (`uci` … `uciok`), choose Xiangqi where the engine
    /// plays several variants (`UCI_Variant xiangqi`), set the spec's options and wait for
    /// `readyok`.
    ///
    /// # Errors
    /// [`EngineError`]: the program is missing, exits, or does not answer in time.
    pub fn spawn(spec: &EngineSpec) -> Result<ExternalEngine, EngineError> {
        let mut parts = spec.command.split_whitespace();
        let program = parts.next().ok_or(EngineError::NoCommand)?;
        let mut child = Command::new(program)
            .args(parts)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|error| EngineError::Spawn {
                program: program.chars().take(200).collect(),
                error,
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineError::Protocol("no pipes to the engine".into()));
        };
        // Bounded: an engine that writes faster than we read waits on its pipe.
        let (tx, lines) = mpsc::sync_channel(4096);
        let reader = std::thread::Builder::new()
            .name("uci-reader".into())
            .spawn(move || read_lines(stdout, &tx));
        if let Err(error) = reader {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineError::Spawn {
                program: "reader thread".into(),
                error,
            });
        }
        let mut engine = ExternalEngine {
            child,
            stdin,
            lines,
            name: String::new(),
            dialect: spec.dialect.unwrap_or_default(),
            options: Vec::new(),
            timeouts: spec.timeouts.clone(),
            broken: false,
        };
        engine.handshake(spec)?;
        Ok(engine)
    }

    fn handshake(&mut self, spec: &EngineSpec) -> Result<(), EngineError> {
        self.send(&GuiCommand::Uci)?;
        let deadline = Instant::now() + self.timeouts.handshake;
        loop {
            match self.next_line("uciok", deadline)? {
                EngineLine::IdName(n) => self.name = n.chars().take(100).collect(),
                EngineLine::Option(o) => self.options.push(o),
                EngineLine::UciOk => break,
                _ => {}
            }
        }
        let variant = self.options.iter().any(|o| {
            o.name.eq_ignore_ascii_case("UCI_Variant")
                && matches!(&o.kind, OptionKind::Combo { vars, .. } if vars.iter().any(|v| v == "xiangqi"))
        });
        if spec.dialect.is_none() {
            self.dialect = Dialect::detect(&self.name, variant);
        }
        if variant {
            self.set_option("UCI_Variant", "xiangqi")?;
        }
        for (name, value) in &spec.options {
            self.set_option(name, value)?;
        }
        self.ready()
    }

    /// The engine's `id name`.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The move dialect in use.
    #[must_use]
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The options the engine offered.
    #[must_use]
    pub fn options(&self) -> &[UciOption] {
        &self.options
    }

    /// The child's process id.
    #[must_use]
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether a failed wait left the engine unusable (kill it and start another).
    #[must_use]
    pub fn is_broken(&self) -> bool {
        self.broken
    }

    /// `setoption name NAME value VALUE` (no answer is expected).
    ///
    /// # Errors
    /// [`EngineError::Write`] when the engine is gone.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        self.send(&GuiCommand::SetOption {
            name: name.to_string(),
            value: Some(value.to_string()),
        })
    }

    /// `isready`, then wait for `readyok`.
    ///
    /// # Errors
    /// [`EngineError`]: the engine exited or did not answer in time.
    pub fn ready(&mut self) -> Result<(), EngineError> {
        self.send(&GuiCommand::IsReady)?;
        let deadline = Instant::now() + self.timeouts.ready;
        while self.next_line("readyok", deadline)? != EngineLine::ReadyOk {}
        Ok(())
    }

    /// `ucinewgame` and `isready`.
    ///
    /// # Errors
    /// [`EngineError`]: the engine exited or did not answer in time.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.send(&GuiCommand::UciNewGame)?;
        self.ready()
    }

    /// Search the position reached from `start` by `moves` under `limits`. Stops the engine
    /// (`stop`) when `stop` is set or its time budget plus grace has passed; `on_info` sees every
    /// `info` line that parses. The engine's move is *not* checked here: see
    /// [`super::checked_move`].
    ///
    /// # Errors
    /// [`EngineError`]: the engine exited, hung (no `bestmove` even after `stop`), or answered
    /// with something that is not a move in its dialect.
    pub fn search(
        &mut self,
        start: &Position,
        moves: &[Move],
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&InfoLine),
    ) -> Result<SearchResult, EngineError> {
        if self.broken {
            return Err(EngineError::Protocol(
                "engine is broken after an earlier error".into(),
            ));
        }
        let fen = start.to_fen();
        let start_pos = if fen == START_FEN {
            StartPos::Startpos
        } else {
            StartPos::Fen(fen)
        };
        if limits.multipv > 1 && self.has_option("MultiPV") {
            self.set_option("MultiPV", &limits.multipv.to_string())?;
        }
        self.send(&GuiCommand::Position {
            start: start_pos,
            moves: moves.to_vec(),
        })?;
        let turn = replay_turn(start, moves);
        self.send(&GuiCommand::Go(super::go_for(limits, turn)))?;
        let started = Instant::now();
        // Past its own budget plus grace the engine is told to stop; past a further grace it
        // counts as hung. A per-move cap is enforced the same way, without the first grace.
        let budget = super::time_budget(limits, turn).unwrap_or(self.timeouts.unbounded);
        let mut stop_at = started + budget + self.timeouts.grace;
        if let Some(cap) = limits.move_cap_ms {
            stop_at = stop_at.min(started + Duration::from_millis(cap));
        }
        let mut hung_at = None;
        let mut collected = Collected::default();
        loop {
            let now = Instant::now();
            if hung_at.is_none() && (now >= stop_at || stop.load(Ordering::Relaxed)) {
                self.send(&GuiCommand::Stop)?;
                hung_at = Some(now + self.timeouts.grace);
            }
            let line = match hung_at {
                Some(h) if now >= h => return Err(self.timed_out("bestmove")),
                Some(h) => self.next_line_until("bestmove", h, false)?,
                None => self.next_line_until("bestmove", stop_at.min(now + POLL), true)?,
            };
            match line {
                Some(EngineLine::Info(info)) => {
                    on_info(&info);
                    collected.add(&info);
                }
                Some(EngineLine::BestMove { best, ponder }) => {
                    let mut r = collected.finish(best, ponder);
                    r.time_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
                    if limits.multipv > 1 && self.has_option("MultiPV") {
                        self.set_option("MultiPV", "1")?;
                    }
                    return Ok(r);
                }
                _ => {}
            }
        }
    }

    fn has_option(&self, name: &str) -> bool {
        self.options
            .iter()
            .any(|o| o.name.eq_ignore_ascii_case(name))
    }

    fn send(&mut self, cmd: &GuiCommand) -> Result<(), EngineError> {
        let line = cmd.to_line(self.dialect);
        tracing::trace!(engine = %self.name, "> {line}");
        let r = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        r.map_err(|e| {
            self.broken = true;
            EngineError::Write(e)
        })
    }

    /// The next line that parses, waiting until `deadline`.
    fn next_line(
        &mut self,
        waiting_for: &'static str,
        deadline: Instant,
    ) -> Result<EngineLine, EngineError> {
        loop {
            // An engine that only chatters still has to answer in time.
            if Instant::now() >= deadline {
                return Err(self.timed_out(waiting_for));
            }
            if let Some(l) = self.next_line_until(waiting_for, deadline, false)? {
                return Ok(l);
            }
        }
    }

    /// The next line that parses, `None` on a line we skip or (when `poll`) when `deadline`
    /// passes; an error when the engine is gone or (without `poll`) the deadline passes.
    fn next_line_until(
        &mut self,
        waiting_for: &'static str,
        deadline: Instant,
        poll: bool,
    ) -> Result<Option<EngineLine>, EngineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => {
                tracing::trace!(engine = %self.name, "< {line}");
                match parse_engine_line(&line, self.dialect) {
                    Ok(l) => Ok(Some(l)),
                    Err(e) if line.starts_with("bestmove") => {
                        self.broken = true;
                        Err(EngineError::Protocol(format!("{e}")))
                    }
                    Err(_) => Ok(None), // banners, blank lines, an engine's own chatter
                }
            }
            Err(RecvTimeoutError::Timeout) if poll => Ok(None),
            Err(RecvTimeoutError::Timeout) => Err(self.timed_out(waiting_for)),
            Err(RecvTimeoutError::Disconnected) => {
                self.broken = true;
                let status = wait_for_exit(&mut self.child, 200).map(|s| s.to_string());
                Err(EngineError::Exited {
                    waiting_for,
                    status,
                })
            }
        }
    }

    fn timed_out(&mut self, waiting_for: &'static str) -> EngineError {
        self.broken = true;
        EngineError::Timeout {
            waiting_for,
            after: self.timeout_for(waiting_for),
        }
    }

    fn timeout_for(&self, waiting_for: &str) -> Duration {
        match waiting_for {
            "uciok" => self.timeouts.handshake,
            "readyok" => self.timeouts.ready,
            _ => self.timeouts.grace,
        }
    }

    /// Ask the engine to quit, and kill it if it has not within a short while.
    pub fn quit(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        if wait_for_exit(&mut self.child, 300).is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

impl Drop for ExternalEngine {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// How often a search wakes to look at its stop flag.
const POLL: Duration = Duration::from_millis(20);

/// The child's exit status, waiting at most `ms` for it.
fn wait_for_exit(child: &mut Child, ms: u64) -> Option<std::process::ExitStatus> {
    let deadline = Instant::now() + Duration::from_millis(ms);
    loop {
        match child.try_wait() {
            Ok(Some(s)) => return Some(s),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
            _ => return None,
        }
    }
}

/// The side to move after `moves` from `start` (by parity; the moves are not checked here).
fn replay_turn(start: &Position, moves: &[Move]) -> crate::core::Color {
    if moves.len().is_multiple_of(2) {
        start.turn()
    } else {
        start.turn().other()
    }
}

/// Read the child's lines onto the channel until it closes its output. Lines longer than
/// [`MAX_LINE_LEN`] are cut.
fn read_lines(stdout: impl Read, tx: &mpsc::SyncSender<String>) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let limit = u64::try_from(MAX_LINE_LEN).unwrap_or(u64::MAX);
        match reader.by_ref().take(limit).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        if buf.last() != Some(&b'\n') {
            // Overlong: drop the rest of the line.
            let mut rest = Vec::new();
            if reader.read_until(b'\n', &mut rest).unwrap_or(0) == 0 {
                return;
            }
        }
        let line = String::from_utf8_lossy(&buf).trim().to_string();
        if tx.send(line).is_err() {
            return;
        }
    }
}

/// The last complete line of each MultiPV rank, and the deepest figures seen.
#[derive(Default)]
struct Collected {
    lines: Vec<Option<Line>>,
    depth: u32,
    nodes: u64,
}

impl Collected {
    fn add(&mut self, info: &InfoLine) {
        if let Some(d) = info.depth {
            self.depth = self.depth.max(d);
        }
        if let Some(n) = info.nodes {
            self.nodes = self.nodes.max(n);
        }
        let (Some(score), false) = (info.score, info.pv.is_empty()) else {
            return;
        };
        let rank = info.multipv.unwrap_or(1).max(1) as usize;
        if rank > 500 {
            return;
        }
        if self.lines.len() < rank {
            self.lines.resize(rank, None);
        }
        self.lines[rank - 1] = Some(Line {
            score: score.score,
            pv: info.pv.clone(),
        });
    }

    fn finish(self, best: Option<Move>, ponder: Option<Move>) -> SearchResult {
        let mut lines: Vec<Line> = self.lines.into_iter().flatten().collect();
        // The best move leads: an engine may answer with a move its last info did not show
        // (then its line is only the move, scored as the engine's last estimate).
        if let Some(b) = best {
            if let Some(i) = lines.iter().position(|l| l.pv.first() == Some(&b)) {
                let line = lines.remove(i);
                lines.insert(0, line);
            } else {
                let score = lines
                    .first()
                    .map_or(crate::engine::Score::Cp(0), |l| l.score);
                lines.insert(0, Line { score, pv: vec![b] });
            }
        }
        let ponder = ponder.or_else(|| lines.first().and_then(|l| l.pv.get(1).copied()));
        SearchResult {
            best,
            ponder,
            lines,
            depth: self.depth,
            nodes: self.nodes,
            time_ms: 0,
        }
    }
}
