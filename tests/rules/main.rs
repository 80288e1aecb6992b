//! The arbiter's rulings (the shared cases, kill, each ruleset) and the notations' parsers and
//! messages.
//!
//! One test binary for the area (each module was a binary of its own; one link instead of
//! 5):
//! * `arbiter_cases` (was `tests/arbiter_cases.rs`)
//! * `arbiter_kill` (was `tests/arbiter_kill.rs`)
//! * `arbiter_rules` (was `tests/arbiter_rules.rs`)
//! * `notation_messages` (was `tests/notation_messages.rs`)
//! * `notation_props` (was `tests/notation_props.rs`)

mod arbiter_cases;
mod arbiter_kill;
mod arbiter_rules;
mod notation_messages;
mod notation_props;
