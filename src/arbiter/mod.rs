//! The arbiter: ply classification (check / chase / kill / idle), counts, repetition, draw rules, the
//! five rulesets, and rulings that carry their own evidence (RULES.md §3–§6).
//!
//! Standard library only, like the rules core.

mod classify;
mod counts;
mod draws;
mod kill;
mod referee;
mod repetition;
mod ruleset;
mod ruling;

pub use classify::{classify, PlyClass, Victim};
pub use draws::PlyFacts;
pub use kill::mate_threat;
pub use referee::{Accepted, Arbiter, ClaimError, PlyRecord, SubmitError};
/// The engine rules on repetitions inside its search with the arbiter's own functions.
pub(crate) use repetition::{conduct, verdict};
pub use ruleset::{CountRule, Enforcement, NoProgress, Ruleset, RulesetName, Source, VerdictTable};
pub use ruling::{Clause, Conduct, EvidencePly, Outcome, Reason, Ruling, Warning};
