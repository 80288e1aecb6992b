//! The engine and UCI: perft, search, composed endgames, the openings file, the UCI server and
//! client (against the real Fairy-Stockfish), the fallback player and matches.
//!
//! One test binary for the area (each module was a binary of its own; one link instead of
//! 9):
//! * `endgames` (was `tests/engine_endgames.rs`)
//! * `openings` (was `tests/openings.rs`)
//! * `perft` (was `tests/perft.rs`)
//! * `search` (was `tests/engine_search.rs`)
//! * `uci_client` (was `tests/uci_client.rs`)
//! * `uci_fallback` (was `tests/uci_fallback.rs`)
//! * `uci_match` (was `tests/uci_match.rs`)
//! * `uci_props` (was `tests/uci_props.rs`)
//! * `uci_server` (was `tests/uci_server.rs`)

mod endgames;
#[path = "../support/engines.rs"]
mod engines;
mod openings;
mod perft;
mod search;
mod uci_client;
mod uci_fallback;
mod uci_match;
mod uci_props;
mod uci_server;
