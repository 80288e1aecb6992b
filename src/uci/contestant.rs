//! The players of a match: `builtin:LEVEL` or `uci:COMMAND`, as typed on the command line.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;

use crate::arbiter::Arbiter;
use crate::core::Move;
use crate::engine::uci::Dialect;
use crate::engine::{level_spec, play_spec, Anchor, Engine, LevelSpec, Limits, TOP_LEVEL};

use super::matches::Contestant;
use super::{EngineSpec, ExternalEngine};

/// A player as named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// `builtin:LEVEL` (1 to [`TOP_LEVEL`]; `builtin` alone is the top level, the full engine).
    Builtin {
        /// The level.
        level: u8,
    },
    /// `builtin:random` or `builtin:greedy`: an anchor below the ladder.
    Anchor(Anchor),
    /// `level:nodes=N,margin=M,lines=L[,depth=D]`: a level's kind of play with these settings,
    /// to try them before they become a level.
    Level(LevelSpec),
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
            "builtin" if rest.is_empty() => Ok(PlayerSpec::Builtin { level: TOP_LEVEL }),
            "builtin" => match (rest.parse::<u8>(), Anchor::from_name(rest)) {
                (Ok(level @ 1..=TOP_LEVEL), _) => Ok(PlayerSpec::Builtin { level }),
                (_, Some(anchor)) => Ok(PlayerSpec::Anchor(anchor)),
                _ => Err(format!(
                    "builtin:{rest}: the level is 1 to {TOP_LEVEL}, random or greedy"
                )),
            },
            "level" => parse_level(rest).map(PlayerSpec::Level),
            "uci" => uci(None),
            "uci-iccs" => uci(Some(Dialect::Iccs)),
            "uci-fairy" => uci(Some(Dialect::Fairy)),
            _ => Err(format!(
                "{:?}: a player is builtin:LEVEL, level:SETTINGS or uci:COMMAND",
                s.chars().take(40).collect::<String>()
            )),
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Builtin { level } => write!(f, "builtin:{level}"),
            PlayerSpec::Anchor(a) => write!(f, "builtin:{}", a.name()),
            PlayerSpec::Level(spec) => {
                let nodes = spec.nodes.unwrap_or(0);
                write!(
                    f,
                    "level:nodes={nodes},margin={},lines={}",
                    spec.margin_cp, spec.multipv
                )?;
                match spec.depth {
                    Some(d) => write!(f, ",depth={d}"),
                    None => Ok(()),
                }
            }
            PlayerSpec::Uci { command, dialect } => match dialect {
                None => write!(f, "uci:{command}"),
                Some(d) => write!(f, "uci-{d}:{command}"),
            },
        }
    }
}

/// `nodes=N,margin=M,lines=L[,depth=D][,movetime=T]`: level 1's other settings with these
/// (nodes are required; the time per move stays a cap, 1 s unless given).
fn parse_level(text: &str) -> Result<LevelSpec, String> {
    let mut spec = LevelSpec {
        level: 0,
        nodes: None,
        movetime_ms: level_spec(TOP_LEVEL).movetime_ms,
        depth: None,
        ..level_spec(1)
    };
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let bad = || {
            format!(
                "level:{text}: {part:?} is not KEY=NUMBER (nodes, margin, lines, depth, movetime)"
            )
        };
        let (key, value) = part.split_once('=').ok_or_else(bad)?;
        let n: u64 = value.trim().parse().map_err(|_| bad())?;
        match key.trim() {
            "nodes" => spec.nodes = Some(n.max(1)),
            "margin" => spec.margin_cp = i32::try_from(n).map_err(|_| bad())?,
            "lines" => spec.multipv = usize::try_from(n).map_err(|_| bad())?.clamp(1, 64),
            "depth" => spec.depth = Some(u32::try_from(n).map_err(|_| bad())?.max(1)),
            "movetime" => spec.movetime_ms = n.max(1),
            _ => return Err(bad()),
        }
    }
    if spec.nodes.is_none() {
        return Err(format!("level:{text}: needs nodes=N"));
    }
    Ok(spec)
}

/// An anchor as a contestant.
pub struct AnchorContestant(pub Anchor);

impl Contestant for AnchorContestant {
    fn name(&self) -> String {
        format!("builtin:{}", self.0.name())
    }

    fn new_game(&mut self) -> Result<(), String> {
        Ok(())
    }

    fn choose(&mut self, game: &Arbiter, seed: u64) -> Result<Option<Move>, String> {
        Ok(self.0.choose(game, seed))
    }
}

/// An external engine as a contestant: started on the first game, and again after a failure.
pub struct UciContestant {
    spec: EngineSpec,
    engine: Option<ExternalEngine>,
    limits: Limits,
    node_jitter: u32,
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
            node_jitter: 0,
            name,
        }
    }

    /// Vary a node budget by up to `percent` either way, move by move (see [`jittered`]).
    #[must_use]
    pub fn with_node_jitter(mut self, percent: u32) -> UciContestant {
        self.node_jitter = percent;
        self
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

    fn choose(&mut self, game: &Arbiter, seed: u64) -> Result<Option<Move>, String> {
        let engine = self.engine.as_mut().ok_or("engine not started")?;
        let moves: Vec<Move> = game.plies().iter().map(|p| p.mv).collect();
        let stop = AtomicBool::new(false);
        let limits = jittered(&self.limits, self.node_jitter, seed, moves.len());
        engine
            .search(game.start(), &moves, &limits, &stop, &mut |_| {})
            .map(|r| r.best)
            .map_err(|e| e.to_string())
    }
}

/// The built-in engine as a contestant: a level (its own time, depth cap and noise), or with
/// `limits` the full engine under them.
pub struct BuiltinContestant {
    engine: Engine,
    spec: LevelSpec,
    name: String,
    limits: Option<Limits>,
    node_jitter: u32,
}

impl BuiltinContestant {
    /// Level `level`; `limits` (the full engine under them) only apply to the top level.
    #[must_use]
    pub fn new(level: u8, limits: Option<Limits>, hash_mb: usize) -> BuiltinContestant {
        let spec = level_spec(level);
        let name = format!("builtin:{}", spec.level);
        BuiltinContestant {
            engine: Engine::new(hash_mb),
            limits: limits.filter(|_| spec.level >= TOP_LEVEL),
            spec,
            name,
            node_jitter: 0,
        }
    }

    /// A level's kind of play with `spec`'s settings, named `name`.
    #[must_use]
    pub fn with_spec(spec: LevelSpec, name: String, hash_mb: usize) -> BuiltinContestant {
        BuiltinContestant {
            engine: Engine::new(hash_mb),
            spec,
            name,
            limits: None,
            node_jitter: 0,
        }
    }

    /// Vary a node budget by up to `percent` either way, move by move (see [`jittered`]).
    #[must_use]
    pub fn with_node_jitter(mut self, percent: u32) -> BuiltinContestant {
        self.node_jitter = percent;
        self
    }
}

impl Contestant for BuiltinContestant {
    fn name(&self) -> String {
        self.name.clone()
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
            Some(l) => {
                let l = jittered(l, self.node_jitter, seed, moves.len());
                self.engine
                    .search(start, &moves, rules, &l, &stop, &mut |_| {})
            }
            None => play_spec(
                &mut self.engine,
                start,
                &moves,
                rules,
                &self.spec,
                None,
                seed,
                &stop,
            ),
        };
        Ok(result.best)
    }
}

/// `limits` with its node budget, if any, moved by up to `percent` either way: a fixed function
/// of the game's seed and the ply, so a match replays exactly, yet two games from the same
/// opening (a second pass through the openings file) do not repeat move for move the way they
/// would under a fixed budget with deterministic engines.
#[must_use]
pub fn jittered(limits: &Limits, percent: u32, seed: u64, ply: usize) -> Limits {
    let mut out = limits.clone();
    if let (Some(n), 1..) = (limits.nodes, percent) {
        // SplitMix64's mix of the seed and the ply: a well-spread draw in 0..2·percent·10 + 1.
        let z = crate::core::mix64(seed ^ (ply as u64).wrapping_mul(crate::core::GOLDEN));
        let span = u64::from(percent.min(90)) * 10;
        let permille = 1000 - span + z % (2 * span + 1);
        out.nodes = Some((n.saturating_mul(permille) / 1000).max(1));
    }
    out
}

/// The time an external engine gets when a match sets no limit.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;

impl PlayerSpec {
    /// A contestant for one worker thread. `limits` (from `--movetime`, `--nodes`, `--depth`)
    /// apply to external engines (default: [`DEFAULT_MOVETIME_MS`] a move) and to the built-in
    /// top level; the lower levels play at their own budget. A node budget, if any, varies by up to
    /// `node_jitter` percent either way, move by move ([`jittered`]; 0: fixed).
    #[must_use]
    pub fn contestant(
        &self,
        limits: Option<&Limits>,
        hash_mb: usize,
        node_jitter: u32,
    ) -> Box<dyn Contestant> {
        match self {
            PlayerSpec::Builtin { level } => Box::new(
                BuiltinContestant::new(*level, limits.cloned(), hash_mb)
                    .with_node_jitter(node_jitter),
            ),
            PlayerSpec::Anchor(a) => Box::new(AnchorContestant(*a)),
            PlayerSpec::Level(spec) => Box::new(BuiltinContestant::with_spec(
                spec.clone(),
                self.to_string(),
                hash_mb,
            )),
            PlayerSpec::Uci { command, dialect } => {
                let spec = EngineSpec {
                    dialect: *dialect,
                    ..EngineSpec::new(command)
                };
                let limits = limits.cloned().unwrap_or(Limits {
                    movetime_ms: Some(DEFAULT_MOVETIME_MS),
                    ..Limits::default()
                });
                Box::new(UciContestant::new(spec, limits).with_node_jitter(node_jitter))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_and_trial_levels_parse_and_print_back() {
        for text in [
            "builtin:random",
            "builtin:greedy",
            "builtin:3",
            "level:nodes=3000,margin=150,lines=6",
            "level:nodes=500,margin=400,lines=10,depth=1",
        ] {
            let spec: PlayerSpec = text.parse().expect(text);
            assert_eq!(spec.to_string(), text);
        }
        assert!("builtin:lucky".parse::<PlayerSpec>().is_err());
        assert!("level:margin=100".parse::<PlayerSpec>().is_err());
        assert!("level:nodes=100,speed=3".parse::<PlayerSpec>().is_err());
    }

    #[test]
    fn node_jitter_stays_within_its_percent_and_replays() {
        let fixed = Limits {
            nodes: Some(10_000),
            ..Limits::default()
        };
        let budgets: Vec<u64> = (0..400)
            .map(|ply| jittered(&fixed, 10, 7, ply).nodes.unwrap_or(0))
            .collect();
        assert!(budgets.iter().all(|n| (9_000..=11_000).contains(n)));
        assert!(budgets.iter().any(|&n| n < 9_500) && budgets.iter().any(|&n| n > 10_500));
        assert_eq!(jittered(&fixed, 10, 7, 3), jittered(&fixed, 10, 7, 3));
        assert_ne!(
            (0..20)
                .map(|p| jittered(&fixed, 10, 7, p))
                .collect::<Vec<_>>(),
            (0..20)
                .map(|p| jittered(&fixed, 10, 8, p))
                .collect::<Vec<_>>()
        );
        assert_eq!(jittered(&fixed, 0, 7, 3), fixed);
        let timed = Limits {
            movetime_ms: Some(100),
            ..Limits::default()
        };
        assert_eq!(jittered(&timed, 10, 7, 3), timed);
    }
}
