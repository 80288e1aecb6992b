//! Rulings, refusals and warnings, with the structured evidence that explains them.

use crate::core::{Color, Move, PieceId, Position};

use super::classify::PlyClass;
use super::ruleset::{RulesetName, Source, VerdictTable};

/// Who won.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Red wins.
    RedWins,
    /// Black wins.
    BlackWins,
    /// A draw.
    Draw,
}

impl Outcome {
    /// The outcome in which `color` loses.
    #[must_use]
    pub const fn loss_for(color: Color) -> Outcome {
        match color {
            Color::Red => Outcome::BlackWins,
            Color::Black => Outcome::RedWins,
        }
    }

    /// The outcome in which `color` wins.
    #[must_use]
    pub const fn win_for(color: Color) -> Outcome {
        Outcome::loss_for(color.other())
    }

    /// `red_wins`, `black_wins` or `draw` (the JSON names).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::RedWins => "red_wins",
            Outcome::BlackWins => "black_wins",
            Outcome::Draw => "draw",
        }
    }

    /// The losing side, if any.
    #[must_use]
    pub const fn loser(self) -> Option<Color> {
        match self {
            Outcome::RedWins => Some(Color::Black),
            Outcome::BlackWins => Some(Color::Red),
            Outcome::Draw => None,
        }
    }

    /// PGN result token: `1-0`, `0-1`, `1/2-1/2`.
    #[must_use]
    pub const fn pgn(self) -> &'static str {
        match self {
            Outcome::RedWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }
}

/// Why the game ended (the JSON `reason`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move (it loses).
    Stalemate,
    /// A perpetual checker lost at a repetition.
    PerpetualCheck,
    /// A perpetual chaser lost at a repetition.
    PerpetualChase,
    /// A repetition ruled a draw, or (table O) an attacking side that would not change.
    Repetition,
    /// Too many consecutive checks.
    CheckLimit,
    /// Too many consecutive chases of one piece.
    ChaseLimit,
    /// No capture (or soldier advance) for too long.
    NoProgress,
    /// Too many moves without checks or chases (CXQ).
    EffectiveMoves,
    /// The game-length cap.
    MoveLimit,
    /// Neither side can attack any more.
    InsufficientMaterial,
}

impl Reason {
    /// Every reason, for catalogue walks.
    pub const ALL: [Reason; 11] = [
        Reason::Checkmate,
        Reason::Stalemate,
        Reason::PerpetualCheck,
        Reason::PerpetualChase,
        Reason::Repetition,
        Reason::CheckLimit,
        Reason::ChaseLimit,
        Reason::NoProgress,
        Reason::EffectiveMoves,
        Reason::MoveLimit,
        Reason::InsufficientMaterial,
    ];

    /// The JSON name (`perpetual_check`, ...).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::PerpetualCheck => "perpetual_check",
            Reason::PerpetualChase => "perpetual_chase",
            Reason::Repetition => "repetition",
            Reason::CheckLimit => "check_limit",
            Reason::ChaseLimit => "chase_limit",
            Reason::NoProgress => "no_progress",
            Reason::EffectiveMoves => "effective_moves",
            Reason::MoveLimit => "move_limit",
            Reason::InsufficientMaterial => "insufficient_material",
        }
    }
}

/// How one side behaved over a repetition cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Conduct {
    /// Every ply was a check.
    PerpetualCheck,
    /// Every ply chased the same piece (and none checked).
    PerpetualChase {
        /// The piece chased throughout.
        victim: PieceId,
    },
    /// Anything else: which classes occurred.
    Mixed {
        /// Some ply checked.
        check: bool,
        /// Some ply chased.
        chase: bool,
        /// Some ply threatened mate (a kill).
        kill: bool,
        /// Some ply was idle.
        idle: bool,
    },
}

impl Conduct {
    /// Table O's "the attacking side must change": the side attacked (checked or chased) at
    /// some ply but not at every one, mixing its attacks with idle moves (check + idle,
    /// chase + idle), mixing checks with chases, or chasing changing pieces. Threats to mate
    /// are allowed: "one check one kill" and "one chase one kill" are not such a mix (the
    /// AXF/WXF rulebook and the Vietnamese rules rule them draws), but an idle ply in the
    /// cycle still makes check or chase + idle.
    #[must_use]
    pub fn mixed_attack(&self) -> bool {
        match *self {
            Conduct::Mixed {
                check,
                chase,
                kill,
                idle,
            } => (check || chase) && (idle || (check && chase) || !kill),
            _ => false,
        }
    }

    /// Whether every ply was idle (no check, no chase, no threat to mate): the passive side
    /// of table O. A side that keeps threatening mate is not passive, and the other side's
    /// checks may be its only defence.
    #[must_use]
    pub fn all_idle(&self) -> bool {
        matches!(
            self,
            Conduct::Mixed {
                check: false,
                chase: false,
                kill: false,
                ..
            }
        )
    }

    /// Whether every ply threatened mate (a perpetual kill: allowed).
    #[must_use]
    pub fn perpetual_kill(&self) -> bool {
        matches!(
            self,
            Conduct::Mixed {
                check: false,
                chase: false,
                kill: true,
                idle: false,
            }
        )
    }
}

/// The rule applied, precise enough to cite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Clause {
    /// Checkmate.
    Checkmate,
    /// No legal move while not in check: a loss.
    Stalemate,
    /// A repetition judged by a verdict table, with each side's conduct over the cycle.
    Repetition {
        /// Table A or O.
        table: VerdictTable,
        /// Red's conduct.
        red: Conduct,
        /// Black's conduct.
        black: Conduct,
    },
    /// A run of consecutive checks beyond the limit.
    CheckCount {
        /// Checks in the run.
        count: u32,
        /// The limit that applied.
        limit: u32,
        /// Distinct pieces that gave them.
        pieces: usize,
    },
    /// A run of consecutive chases of one piece beyond the limit.
    ChaseCount {
        /// Chases in the run.
        count: u32,
        /// The limit that applied.
        limit: u32,
        /// Distinct chasing pieces.
        pieces: usize,
        /// The piece chased.
        victim: PieceId,
    },
    /// The no-progress rule.
    NoProgress {
        /// Plies counted in the stretch.
        counted: u32,
        /// Plies needed.
        needed: u32,
        /// Whether a crossed soldier's advance counts as progress.
        soldier_advance: bool,
        /// Per-side allowance of counted checks, if any.
        checks_counted: Option<u32>,
        /// Whether this was granted on a claim.
        claimed: bool,
    },
    /// The effective-move rule.
    EffectiveMoves {
        /// Effective plies per side needed.
        per_side: u32,
    },
    /// The game-length cap.
    MoveCap {
        /// Plies.
        plies: u32,
    },
    /// Neither side has a chariot, horse, cannon or soldier.
    InsufficientMaterial,
}

/// One ply shown as evidence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvidencePly {
    /// 0-based index of the ply in the game.
    pub index: usize,
    /// Who played it.
    pub side: Color,
    /// The move.
    pub mv: Move,
    /// The position before it (to print the move in any notation and name the pieces; piece
    /// identities are the game's own).
    pub before: Position,
    /// Its class and victims.
    pub class: PlyClass,
}

/// A game-ending ruling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ruling {
    /// Who won.
    pub outcome: Outcome,
    /// Why.
    pub reason: Reason,
    /// The ruleset in force.
    pub ruleset: RulesetName,
    /// The clause applied.
    pub clause: Clause,
    /// The document it follows.
    pub source: Source,
    /// Plies played when the game ended.
    pub ply: usize,
    /// The plies that prove it (the cycle, the run, or the final ply).
    pub evidence: Vec<EvidencePly>,
    /// Enforcement `refuse`: every legal move of the loser would have been refused; the clause
    /// and evidence show one of them.
    pub all_moves_refused: bool,
}

/// A warning before a foul: what the side must change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Warning {
    /// One more check with the same pieces would exceed the check limit.
    CheckLimitNear {
        /// The side warned.
        side: Color,
        /// Checks so far in the run.
        count: u32,
        /// The limit.
        limit: u32,
    },
    /// One more chase of the same piece would exceed the chase limit.
    ChaseLimitNear {
        /// The side warned.
        side: Color,
        /// Chases so far in the run.
        count: u32,
        /// The limit.
        limit: u32,
        /// The piece being chased.
        victim: PieceId,
    },
    /// These moves would bring a position about for the 3rd time and lose by repetition.
    RepetitionLooming {
        /// The side warned.
        side: Color,
        /// The moves that would lose.
        moves: Vec<Move>,
        /// The reason they would lose.
        reason: Reason,
    },
}

impl Warning {
    /// The side the warning addresses.
    #[must_use]
    pub fn side(&self) -> Color {
        match self {
            Warning::CheckLimitNear { side, .. }
            | Warning::ChaseLimitNear { side, .. }
            | Warning::RepetitionLooming { side, .. } => *side,
        }
    }
}
