//! What the `kill -9` loops share: the bot binary as a process that dies with the test, a
//! small deterministic generator for the kill moments, and the loop's settings.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Child, Command, Stdio};

/// The binary, running on `dir` with `env`; killed (`SIGKILL`) when dropped, so a failing
/// test leaves no bot behind.
pub struct Bot(Child);

impl Bot {
    pub fn start(dir: &Path, env: &[(&str, String)]) -> Bot {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_xiangqi-bot"));
        cmd.env("DATA_DIR", dir)
            .env("RUST_LOG", "error")
            .env("WEB_LISTEN", "off")
            .env("RATE_LIMIT_BURST", "100000")
            .env_remove("TELEGRAM_BOT_TOKEN")
            .env_remove("DISCORD_TOKEN")
            .env_remove("DISCORD_GUILD_ID")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit());
        for (k, v) in env {
            cmd.env(k, v);
        }
        Bot(cmd.spawn().expect("start the binary"))
    }

    /// `kill -9`: no clean-up of any kind (`Child::kill` is SIGKILL on Unix).
    pub fn kill9(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        self.kill9();
    }
}

/// A small deterministic generator (the seed is printed, to replay a run).
pub struct Lcg(pub u64);

impl Lcg {
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n.max(1)
    }
}

/// `KILL_ROUNDS` and `KILL_SEED` for the long runs.
pub fn settings(rounds: usize, seed: u64) -> (usize, u64) {
    let var = |k: &str| std::env::var(k).ok().and_then(|v| v.parse().ok());
    (
        var("KILL_ROUNDS").map_or(rounds, |r: u64| usize::try_from(r).unwrap_or(rounds)),
        var("KILL_SEED").unwrap_or(seed),
    )
}
