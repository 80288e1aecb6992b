//! Drive the real binary in console mode: write lines to its standard input, read its
//! standard output, kill it, restart it on the same data directory.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long any single expectation may wait before the test fails (a guard, not a timing
/// assertion: a healthy run answers in milliseconds).
pub const PATIENCE: Duration = Duration::from_secs(30);

pub struct Console {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything read so far.
    pub seen: Vec<String>,
    pub data_dir: PathBuf,
}

/// The bot's binary on `data_dir` as user alice, with no platform token and sled in the data
/// directory (no `DATABASE_URL`) unless the caller sets them again.
pub fn binary(data_dir: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_xiangqi-bot"));
    cmd.env("DATA_DIR", data_dir)
        .env("USER", "alice")
        .env("RUST_LOG", "warn")
        .env("WEB_LISTEN", "off")
        .env_remove("TELEGRAM_BOT_TOKEN")
        .env_remove("DISCORD_TOKEN")
        .env_remove("DATABASE_URL");
    cmd
}

impl Console {
    /// Start `xiangqi-bot console` on `data_dir` with the given extra environment.
    pub fn start(data_dir: &Path, env: &[(&str, &str)]) -> Console {
        let mut cmd = binary(data_dir);
        cmd.arg("console")
            // Scripts type faster than people; the rate limit has its own tests.
            .env("RATE_LIMIT_BURST", "100000")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().expect("start the binary");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        Console {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            seen: Vec::new(),
            data_dir: data_dir.to_path_buf(),
        }
    }

    /// The bot's process id (to read its memory from `/proc`).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Send one line.
    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to the bot");
        stdin.flush().expect("flush");
    }

    /// Send several lines.
    pub fn script(&mut self, lines: &str) {
        for l in lines.lines().map(str::trim).filter(|l| !l.is_empty()) {
            self.send(l);
        }
    }

    /// Wait for a line containing `needle`; returns it. Lines read on the way are kept in
    /// `seen`.
    pub fn expect(&mut self, needle: &str) -> String {
        self.expect_within(needle, PATIENCE).unwrap_or_else(|| {
            panic!(
                "no line with {needle:?}; output so far:\n{}",
                self.seen.join("\n")
            )
        })
    }

    /// Like [`Console::expect`], but `None` after `limit`.
    pub fn expect_within(&mut self, needle: &str, limit: Duration) -> Option<String> {
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    self.seen.push(l.clone());
                    if l.contains(needle) {
                        return Some(l);
                    }
                }
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return None,
            }
        }
    }

    /// Send `line` and wait for a line containing `needle`.
    pub fn ask(&mut self, line: &str, needle: &str) -> String {
        self.send(line);
        self.expect(needle)
    }

    /// Close standard input and wait for a clean exit; returns the remaining output.
    pub fn finish(mut self) -> Vec<String> {
        drop(self.stdin.take());
        let status = self.child.wait().expect("wait");
        assert!(status.success(), "the bot exited with {status}");
        while let Ok(l) = self.lines.recv_timeout(Duration::from_secs(5)) {
            self.seen.push(l);
        }
        std::mem::take(&mut self.seen)
    }

    /// Plies stored in the channel's game, read from the board caption (`after N plies`).
    pub fn stored_plies(&mut self) -> usize {
        let line = self.ask("@alice /board", "after ");
        line.split("after ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .and_then(|n| n.parse().ok())
            .expect("a ply count")
    }

    /// Kill the process at once (SIGKILL).
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The plies acknowledged in `lines` (`"[#local] 7. alice: ..."`, by alice or bob).
pub fn acked_plies(lines: &[String]) -> impl Iterator<Item = usize> + '_ {
    lines.iter().filter_map(|l| {
        let rest = l.strip_prefix("[#local] ")?;
        let (n, tail) = rest.split_once(". ")?;
        (tail.starts_with("alice: ") || tail.starts_with("bob: "))
            .then(|| n.parse::<usize>().ok())
            .flatten()
    })
}

impl Drop for Console {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
