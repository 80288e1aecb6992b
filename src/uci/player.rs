//! The engine the bot plays and analyses with: an external UCI engine when one is configured
//! (`ENGINE_COMMAND`), for the top level and for analysis, with the built-in engine taking over
//! whenever the external one is missing, crashes, hangs, or answers with a move our arbiter
//! rejects. Every fallback is logged with its reason and returned to the caller.
//!
//! Blocking: call it from a blocking thread pool (`spawn_blocking`). Any number of threads may
//! use one [`Player`]: built-in searches run in parallel, each on an engine from a pool (so the
//! memory is one table per search in flight); the external engine serves one search at a time.

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::arbiter::Arbiter;
use crate::core::Move;
use crate::engine::{level_spec, play_level, Clock, Engine, Info, Limits, SearchResult};

use super::{check_move, EngineSpec, ExternalEngine};

/// The engines that play and analyse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// `ENGINE_COMMAND`: an external UCI engine for the top level and for analysis (program
    /// and arguments, split at whitespace); `None`: the built-in engine only.
    pub external: Option<EngineSpec>,
    /// `ENGINE_HASH_MB`: the built-in engine's table per search (default 16).
    pub hash_mb: usize,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            external: None,
            hash_mb: 16,
        }
    }
}

/// The top level: the only one the external engine plays.
pub use crate::engine::TOP_LEVEL;

/// Which engine produced a result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The built-in engine.
    Builtin,
    /// The external engine, by its `id name`.
    External(String),
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Builtin => f.write_str("built-in engine"),
            Source::External(n) => f.write_str(n),
        }
    }
}

/// A search's result and where it came from.
#[derive(Clone, Debug)]
pub struct Played {
    /// The result (its `best` has passed the arbiter).
    pub result: SearchResult,
    /// Who searched.
    pub source: Source,
    /// Why the external engine was configured but not used (already logged).
    pub fallback: Option<String>,
}

/// The external engine's slot: the running process, or when to try starting it again.
struct Slot {
    spec: EngineSpec,
    engine: Option<ExternalEngine>,
    failures: u32,
    retry_at: Option<Instant>,
}

/// Waits before starting a failed engine again: 5 s, doubling, at most 5 minutes.
fn backoff(failures: u32) -> Duration {
    let secs = 5u64.saturating_mul(1 << failures.saturating_sub(1).min(6));
    Duration::from_secs(secs.min(300))
}

impl Slot {
    fn fail(&mut self, why: String) -> String {
        self.engine = None; // dropping it asks it to quit, then kills it
        self.failures += 1;
        let wait = backoff(self.failures);
        self.retry_at = Some(Instant::now() + wait);
        tracing::warn!(
            command = %self.spec.command,
            reason = %why,
            retry_in_s = wait.as_secs(),
            "external engine failed; the built-in engine takes over"
        );
        why
    }

    fn engine(&mut self) -> Result<&mut ExternalEngine, String> {
        if self.engine.as_ref().is_some_and(ExternalEngine::is_broken) {
            self.engine = None;
        }
        if self.engine.is_none() {
            if let Some(t) = self.retry_at.filter(|&t| Instant::now() < t) {
                let left = t.saturating_duration_since(Instant::now()).as_secs();
                return Err(format!("external engine unavailable (retry in {left} s)"));
            }
            match ExternalEngine::spawn(&self.spec) {
                Ok(e) => {
                    tracing::info!(engine = %e.name(), pid = e.pid(), dialect = %e.dialect(), "external engine started");
                    self.engine = Some(e);
                }
                Err(e) => return Err(self.fail(e.to_string())),
            }
        }
        self.engine
            .as_mut()
            .ok_or_else(|| "no external engine".to_string())
    }
}

/// The engines that play and analyse.
pub struct Player {
    external: Option<Mutex<Slot>>,
    idle: Mutex<Vec<Engine>>,
    hash_mb: usize,
}

impl fmt::Debug for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Player")
            .field("external", &self.external.is_some())
            .field("hash_mb", &self.hash_mb)
            .finish_non_exhaustive()
    }
}

impl Player {
    /// A player from the configuration (the external engine starts on first use).
    #[must_use]
    pub fn new(config: &EngineConfig) -> Player {
        Player {
            external: config.external.clone().map(|spec| {
                Mutex::new(Slot {
                    spec,
                    engine: None,
                    failures: 0,
                    retry_at: None,
                })
            }),
            idle: Mutex::new(Vec::new()),
            hash_mb: config.hash_mb,
        }
    }

    /// Whether an external engine is configured.
    #[must_use]
    pub fn has_external(&self) -> bool {
        self.external.is_some()
    }

    /// A move for the side to move in `game` at `level` (1 to [`TOP_LEVEL`]). At the top level the external
    /// engine, if any, searches for the level's time (or on the clock, capped at it); every
    /// other case, and every failure, is the built-in engine's [`play_level`].
    pub fn play(
        &self,
        game: &Arbiter,
        level: u8,
        clock: Option<Clock>,
        seed: u64,
        stop: &AtomicBool,
    ) -> Played {
        let mut fallback = None;
        if level >= TOP_LEVEL && self.external.is_some() {
            let budget = level_spec(TOP_LEVEL).movetime_ms;
            let limits = Limits {
                movetime_ms: clock.is_none().then_some(budget),
                clock,
                move_cap_ms: clock.map(|_| budget),
                ..Limits::default()
            };
            match self.external_search(game, &limits, stop, &mut |_| {}) {
                Ok(p) => return p,
                Err(why) => fallback = Some(why),
            }
        }
        let moves = moves_of(game);
        let result = self.with_builtin(|e| {
            play_level(
                e,
                game.start(),
                &moves,
                game.rules(),
                level,
                clock,
                seed,
                stop,
            )
        });
        Played {
            result,
            source: Source::Builtin,
            fallback,
        }
    }

    /// Analysis: the external engine if configured, else (or when it fails) the built-in one,
    /// under `limits` (`multipv` lines). Lines whose first move the arbiter rejects are dropped.
    pub fn analyse(
        &self,
        game: &Arbiter,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> Played {
        let mut fallback = None;
        if self.external.is_some() {
            match self.external_search(game, limits, stop, &mut |_| {}) {
                Ok(p) => return p,
                Err(why) => fallback = Some(why),
            }
        }
        let moves = moves_of(game);
        let result = self
            .with_builtin(|e| e.search(game.start(), &moves, game.rules(), limits, stop, on_info));
        Played {
            result,
            source: Source::Builtin,
            fallback,
        }
    }

    /// Run `f` with a built-in engine from the pool of idle ones (a new one if none is idle),
    /// which goes back to the pool afterwards: one table per search in flight.
    pub fn with_builtin<T>(&self, f: impl FnOnce(&mut Engine) -> T) -> T {
        let mut engine = self
            .idle
            .lock()
            .ok()
            .and_then(|mut v| v.pop())
            .unwrap_or_else(|| Engine::new(self.hash_mb));
        let out = f(&mut engine);
        if let Ok(mut v) = self.idle.lock() {
            v.push(engine);
        }
        out
    }

    /// Search with the external engine and check its move with the arbiter.
    fn external_search(
        &self,
        game: &Arbiter,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&crate::engine::uci::InfoLine),
    ) -> Result<Played, String> {
        let slot = self.external.as_ref().ok_or("no external engine")?;
        let mut slot = slot.lock().map_err(|_| "external engine lock poisoned")?;
        let moves = moves_of(game);
        let engine = slot.engine()?;
        let name = engine.name().to_string();
        let searched = engine.search(game.start(), &moves, limits, stop, on_info);
        let mut result = match searched {
            Ok(r) => r,
            Err(e) => return Err(slot.fail(e.to_string())),
        };
        slot.failures = 0;
        slot.retry_at = None;
        let has_moves = game.ruling().is_none() && game.position().has_legal_move();
        match result.best {
            None if has_moves => return Err(warn(&name, "gave no move".into())),
            Some(m) => {
                if let Err(r) = check_move(game, m) {
                    return Err(warn(&name, format!("played {m}: {r}")));
                }
            }
            None => {}
        }
        result
            .lines
            .retain(|l| l.pv.first().is_some_and(|&m| check_move(game, m).is_ok()));
        Ok(Played {
            result,
            source: Source::External(name),
            fallback: None,
        })
    }
}

/// Log a rejected answer from a healthy external engine.
fn warn(name: &str, why: String) -> String {
    tracing::warn!(engine = %name, reason = %why, "external engine's move rejected; the built-in engine plays");
    why
}

fn moves_of(game: &Arbiter) -> Vec<Move> {
    game.plies().iter().map(|p| p.mv).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_to_five_minutes() {
        assert_eq!(backoff(1), Duration::from_secs(5));
        assert_eq!(backoff(2), Duration::from_secs(10));
        assert_eq!(backoff(4), Duration::from_secs(40));
        assert_eq!(backoff(30), Duration::from_secs(300));
    }
}
