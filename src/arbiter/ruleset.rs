//! Rulesets as data: one struct of parameters, five named presets (RULES.md §5).

use std::fmt;
use std::str::FromStr;

/// The named presets.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum RulesetName {
    /// Seed 000, "Official Xiangqi Rules" (the default).
    #[default]
    Official,
    /// The AXF/WXF rulebook ("Asian Chinese Chess Rules").
    Asian,
    /// Luật Cờ Tướng Việt Nam 2004 (seed 004).
    Vietnam,
    /// The CXQ club rules (seeds 002, 003).
    Cxq,
    /// The online app's rules (seed 001).
    Casual,
}

impl RulesetName {
    /// All presets in display order.
    pub const ALL: [RulesetName; 5] = [
        RulesetName::Official,
        RulesetName::Asian,
        RulesetName::Vietnam,
        RulesetName::Cxq,
        RulesetName::Casual,
    ];

    /// The lower-case name used in commands and JSON.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            RulesetName::Official => "official",
            RulesetName::Asian => "asian",
            RulesetName::Vietnam => "vietnam",
            RulesetName::Cxq => "cxq",
            RulesetName::Casual => "casual",
        }
    }
}

impl fmt::Display for RulesetName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for RulesetName {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "official" | "wxf-official" | "default" => Ok(RulesetName::Official),
            "asian" | "axf" | "wxf" => Ok(RulesetName::Asian),
            "vietnam" | "vietnamese" | "vn" | "vi" => Ok(RulesetName::Vietnam),
            "cxq" | "club" => Ok(RulesetName::Cxq),
            "casual" | "app" => Ok(RulesetName::Casual),
            _ => Err(format!(
                "unknown ruleset {:?}: use official, asian, vietnam, cxq or casual",
                s.chars().take(24).collect::<String>()
            )),
        }
    }
}

/// The rule documents a ruling cites.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// Seed 000: the help page "Luật Thi Đấu Cờ Tướng / Official Xiangqi Rules / 中国象棋竞赛规则".
    Seed000Official,
    /// Seed 001: the online app's rules page ("Luật cờ tướng", Cờ tướng thực dụng).
    Seed001App,
    /// Seeds 002 and 003: "Luật Cờ Tướng CXQ", the club rules.
    Seed002Cxq,
    /// Seed 004: the 2004 Vietnamese rules compilation (Điều 7, §6, Ván 1–17).
    Seed004Vietnam,
    /// The AXF/WXF rulebook, whose illustrated cases are in `cases/repetition.tsv`.
    AxfRulebook,
}

impl Source {
    /// Every rule document.
    pub const ALL: [Source; 5] = [
        Source::Seed000Official,
        Source::Seed001App,
        Source::Seed002Cxq,
        Source::Seed004Vietnam,
        Source::AxfRulebook,
    ];

    /// A short stable identifier (`seed-000`, ..., `axf`).
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Source::Seed000Official => "seed-000",
            Source::Seed001App => "seed-001",
            Source::Seed002Cxq => "seed-002",
            Source::Seed004Vietnam => "seed-004",
            Source::AxfRulebook => "axf",
        }
    }
}

/// A limit on a run of consecutive checks (or chases of one victim) by one side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CountRule {
    /// No limit: only repetition decides.
    Unlimited,
    /// A run made by one single piece may not exceed `max` plies.
    SinglePiece {
        /// Longest allowed run.
        max: u32,
    },
    /// A run may not exceed `per_piece` times the number of pieces in it, counting at most
    /// `cap_pieces` pieces (CXQ: 6 with one piece, 12 with two, 18 with three or more).
    PerPiece {
        /// Allowed plies per piece.
        per_piece: u32,
        /// Pieces counted at most.
        cap_pieces: u32,
    },
    /// A run may not exceed `max` plies, whatever pieces make it.
    AnyPieces {
        /// Longest allowed run.
        max: u32,
    },
}

impl CountRule {
    /// The longest run allowed for a run made by `pieces` distinct pieces, or `None` when the
    /// rule sets no limit for it.
    #[must_use]
    pub fn allowed(self, pieces: usize) -> Option<u32> {
        let pieces = u32::try_from(pieces).unwrap_or(u32::MAX).max(1);
        match self {
            CountRule::Unlimited => None,
            CountRule::SinglePiece { max } => (pieces == 1).then_some(max),
            CountRule::PerPiece {
                per_piece,
                cap_pieces,
            } => Some(per_piece * pieces.min(cap_pieces)),
            CountRule::AnyPieces { max } => Some(max),
        }
    }
}

/// Which verdict table settles a repetition.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum VerdictTable {
    /// Table A (AXF): one check one idle is allowed.
    A,
    /// Table O (seed 000): a side that mixes attacks against an idle side must change.
    O,
}

/// The no-progress draw.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct NoProgress {
    /// Plies in the stretch that make the draw.
    pub plies: u32,
    /// Whether a forward step of a crossed soldier also counts as progress.
    pub soldier_advance_is_progress: bool,
    /// At most this many checks per side count toward the stretch (`None`: all count).
    pub checks_counted_per_side: Option<u32>,
    /// The draw is granted on a player's claim, not applied automatically.
    pub claim_only: bool,
}

/// How a foul is enforced.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Enforcement {
    /// The offending ply is played and the game ends; the offender loses.
    Forfeit,
    /// The offending ply is refused with the explanation; the player chooses another.
    Refuse,
}

/// One ruleset: every parameter the arbiter reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ruleset {
    /// Its name.
    pub name: RulesetName,
    /// The document it follows.
    pub source: Source,
    /// Limit on consecutive checks.
    pub checks: CountRule,
    /// Limit on consecutive chases of one victim.
    pub chases: CountRule,
    /// The table applied at the 3rd occurrence of a position (`None`: no repetition ruling).
    pub repetition: Option<VerdictTable>,
    /// Whether a crossed soldier can chase (an uncrossed one never does).
    pub soldier_chases: bool,
    /// The no-progress draw.
    pub no_progress: Option<NoProgress>,
    /// Effective-move draw: this many plies by each side that are neither checks nor chases
    /// nor replies to them.
    pub effective_moves_per_side: Option<u32>,
    /// Game-length cap in plies (a draw when reached).
    pub move_cap: Option<u32>,
    /// Forfeit or refuse.
    pub enforcement: Enforcement,
}

impl Ruleset {
    /// The preset with this name.
    #[must_use]
    pub const fn preset(name: RulesetName) -> Ruleset {
        match name {
            RulesetName::Official => Ruleset {
                name,
                source: Source::Seed000Official,
                checks: CountRule::SinglePiece { max: 6 },
                chases: CountRule::AnyPieces { max: 6 },
                repetition: Some(VerdictTable::O),
                soldier_chases: true,
                no_progress: Some(NoProgress {
                    plies: 120,
                    soldier_advance_is_progress: true,
                    checks_counted_per_side: None,
                    claim_only: false,
                }),
                effective_moves_per_side: None,
                move_cap: Some(300),
                enforcement: Enforcement::Forfeit,
            },
            RulesetName::Asian => Ruleset {
                name,
                source: Source::AxfRulebook,
                checks: CountRule::Unlimited,
                chases: CountRule::Unlimited,
                repetition: Some(VerdictTable::A),
                soldier_chases: false,
                no_progress: Some(NoProgress {
                    plies: 120,
                    soldier_advance_is_progress: false,
                    checks_counted_per_side: Some(10),
                    claim_only: false,
                }),
                effective_moves_per_side: None,
                move_cap: None,
                enforcement: Enforcement::Forfeit,
            },
            RulesetName::Vietnam => Ruleset {
                name,
                source: Source::Seed004Vietnam,
                checks: CountRule::Unlimited,
                chases: CountRule::Unlimited,
                repetition: Some(VerdictTable::A),
                soldier_chases: false,
                no_progress: Some(NoProgress {
                    plies: 100,
                    soldier_advance_is_progress: false,
                    checks_counted_per_side: Some(5),
                    claim_only: true,
                }),
                effective_moves_per_side: None,
                move_cap: None,
                enforcement: Enforcement::Forfeit,
            },
            RulesetName::Cxq => Ruleset {
                name,
                source: Source::Seed002Cxq,
                checks: CountRule::PerPiece {
                    per_piece: 6,
                    cap_pieces: 3,
                },
                chases: CountRule::PerPiece {
                    per_piece: 6,
                    cap_pieces: 3,
                },
                repetition: None,
                soldier_chases: false,
                no_progress: Some(NoProgress {
                    plies: 60,
                    soldier_advance_is_progress: true,
                    checks_counted_per_side: None,
                    claim_only: false,
                }),
                effective_moves_per_side: Some(120),
                move_cap: Some(600),
                enforcement: Enforcement::Forfeit,
            },
            RulesetName::Casual => Ruleset {
                name,
                source: Source::Seed001App,
                checks: CountRule::AnyPieces { max: 9 },
                chases: CountRule::Unlimited,
                repetition: Some(VerdictTable::A),
                soldier_chases: false,
                no_progress: Some(NoProgress {
                    plies: 120,
                    soldier_advance_is_progress: false,
                    checks_counted_per_side: None,
                    claim_only: false,
                }),
                effective_moves_per_side: None,
                move_cap: None,
                enforcement: Enforcement::Refuse,
            },
        }
    }
}

impl Default for Ruleset {
    fn default() -> Self {
        Ruleset::preset(RulesetName::Official)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for n in RulesetName::ALL {
            assert_eq!(n.as_str().parse::<RulesetName>(), Ok(n));
            assert_eq!(Ruleset::preset(n).name, n);
        }
        assert!("nonsense".parse::<RulesetName>().is_err());
    }

    #[test]
    fn count_rules_scale_as_documented() {
        let cxq = Ruleset::preset(RulesetName::Cxq).checks;
        assert_eq!(cxq.allowed(1), Some(6));
        assert_eq!(cxq.allowed(2), Some(12));
        assert_eq!(cxq.allowed(3), Some(18));
        assert_eq!(cxq.allowed(5), Some(18));
        let official = Ruleset::preset(RulesetName::Official).checks;
        assert_eq!(official.allowed(1), Some(6));
        assert_eq!(official.allowed(2), None);
        assert_eq!(
            Ruleset::preset(RulesetName::Casual).checks.allowed(4),
            Some(9)
        );
        assert_eq!(Ruleset::preset(RulesetName::Asian).checks.allowed(1), None);
    }
}
