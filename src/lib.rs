//! A Xiangqi (Chinese chess, Cờ Tướng, 象棋) bot for chat.
//!
//! The rules core ([`core`]) knows moves, check and mate; [`notation`] reads and writes what
//! players type (ICCS, WXF, Chinese, Vietnamese).
//!
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod arbiter;
pub mod cli;
pub mod core;
pub mod i18n;
pub mod notation;
