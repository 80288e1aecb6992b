//! The players of a match: `builtin:LEVEL` or `uci:COMMAND`, as typed on the command line.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;

use crate::arbiter::Arbiter;
use crate::core::Move;
use crate::engine::uci::Dialect;
use crate::engine::{play_level, Engine, Limits};

use super::matches::Contestant;
use super::{EngineSpec, ExternalEngine};

/// A player as named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// `builtin:LEVEL` (1–8; `builtin` alone is 8, the full engine).
    Builtin {
        /// The level.
        level: u8,
    },
    /// `uci:COMMAND` (dialect detected), `uci-iccs:COMMAND` or `uci-fairy:COMMAND`.
    Uci {
        /// The program and its arguments.
        command: String,
        /// The dialect, when forced.
        dialect: Option<Dialect>,
    },
}

impl FromStr for PlayerSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        let (kind, rest) = s.split_once(':').unwrap_or((s, ""));
        let uci = |dialect| {
            if rest.trim().is_empty() {
                Err(format!(
                    "{kind}: needs a command, as in {kind}:/usr/games/fairy-stockfish"
                ))
            } else {
                Ok(PlayerSpec::Uci {
                    command: rest.trim().to_string(),
                    dialect,
                })
            }
        };
        match kind {
            "builtin" if rest.is_empty() => Ok(PlayerSpec::Builtin { level: 8 }),
            "builtin" => match rest.parse::<u8>() {
                Ok(level @ 1..=8) => Ok(PlayerSpec::Builtin { level }),
                _ => Err(format!("builtin:{rest}: the level is 1 to 8")),
            },
            "uci" => uci(None),
            "uci-iccs" => uci(Some(Dialect::Iccs)),
            "uci-fairy" => uci(Some(Dialect::Fairy)),
            _ => Err(format!(
                "{:?}: a player is builtin:LEVEL or uci:COMMAND",
                s.chars().take(40).collect::<String>()
            )),
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Builtin { level } => write!(f, "builtin:{level}"),
            PlayerSpec::Uci { command, dialect } => match dialect {
                None => write!(f, "uci:{command}"),
                Some(d) => write!(f, "uci-{d}:{command}"),
            },
        }
    }
}

/// An external engine as a contestant: started on the first game, and again after a failure.
pub struct UciContestant {
    spec: EngineSpec,
    engine: Option<ExternalEngine>,
    limits: Limits,
    name: String,
}

impl UciContestant {
    /// A contestant that searches every move under `limits`.
    #[must_use]
    pub fn new(spec: EngineSpec, limits: Limits) -> UciContestant {
        let name = spec.command.clone();
        UciContestant {
            spec,
            engine: None,
            limits,
            name,
        }
    }
}

impl Contestant for UciContestant {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self) -> Result<(), String> {
        if self.engine.as_ref().is_some_and(ExternalEngine::is_broken) {
            self.engine = None; // dropping it kills it
        }
        if self.engine.is_none() {
            let e = ExternalEngine::spawn(&self.spec).map_err(|e| e.to_string())?;
            if !e.name().is_empty() {
                self.name = e.name().to_string();
            }
            self.engine = Some(e);
        }
        let engine = self.engine.as_mut().ok_or("no engine")?;
        engine.new_game().map_err(|e| e.to_string())
    }

    fn choose(&mut self, game: &Arbiter, _seed: u64) -> Result<Option<Move>, String> {
        let engine = self.engine.as_mut().ok_or("engine not started")?;
        let moves: Vec<Move> = game.plies().iter().map(|p| p.mv).collect();
        let stop = AtomicBool::new(false);
        engine
            .search(game.start(), &moves, &self.limits, &stop, &mut |_| {})
            .map(|r| r.best)
            .map_err(|e| e.to_string())
    }
}

/// The built-in engine as a contestant: a level (its own time, depth cap and noise), or with
/// `limits` the full engine under them.
pub struct BuiltinContestant {
    engine: Engine,
    level: u8,
    limits: Option<Limits>,
}

impl BuiltinContestant {
    /// Level `level`; `limits` (the full engine under them) only apply to the top level.
    #[must_use]
    pub fn new(level: u8, limits: Option<Limits>, hash_mb: usize) -> BuiltinContestant {
        BuiltinContestant {
            engine: Engine::new(hash_mb),
            level: level.clamp(1, 8),
            limits: limits.filter(|_| level >= 8),
        }
    }
}

impl Contestant for BuiltinContestant {
    fn name(&self) -> String {
        format!("builtin:{}", self.level)
    }

    fn new_game(&mut self) -> Result<(), String> {
        self.engine.new_game();
        Ok(())
    }

    fn choose(&mut self, game: &Arbiter, seed: u64) -> Result<Option<Move>, String> {
        let moves: Vec<Move> = game.plies().iter().map(|p| p.mv).collect();
        let stop = AtomicBool::new(false);
        let (start, rules) = (game.start(), game.rules());
        let result = match &self.limits {
            Some(l) => self
                .engine
                .search(start, &moves, rules, l, &stop, &mut |_| {}),
            None => play_level(
                &mut self.engine,
                start,
                &moves,
                rules,
                self.level,
                None,
                seed,
                &stop,
            ),
        };
        Ok(result.best)
    }
}

/// The time an external engine gets when a match sets no limit.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;

impl PlayerSpec {
    /// A contestant for one worker thread. `limits` (from `--movetime`, `--nodes`, `--depth`)
    /// apply to external engines (default: [`DEFAULT_MOVETIME_MS`] a move) and to the built-in
    /// top level; levels 1–7 play at their own budget.
    #[must_use]
    pub fn contestant(&self, limits: Option<&Limits>, hash_mb: usize) -> Box<dyn Contestant> {
        match self {
            PlayerSpec::Builtin { level } => {
                Box::new(BuiltinContestant::new(*level, limits.cloned(), hash_mb))
            }
            PlayerSpec::Uci { command, dialect } => {
                let spec = EngineSpec {
                    dialect: *dialect,
                    ..EngineSpec::new(command)
                };
                let limits = limits.cloned().unwrap_or(Limits {
                    movetime_ms: Some(DEFAULT_MOVETIME_MS),
                    ..Limits::default()
                });
                Box::new(UciContestant::new(spec, limits))
            }
        }
    }
}
