//! A Xiangqi (Chinese chess, Cờ Tướng, 象棋) bot for chat.
//!
//! The rules core ([`core`]) knows moves, check and mate; [`notation`] reads and writes what
//! players type (ICCS, WXF, Chinese, Vietnamese); [`arbiter`] classifies plies and rules on
//! perpetual check, chase, repetition and the draw rules; [`engine`] searches and plays at
//! eight levels; [`render`] draws boards; [`game`] and [`storage`] keep games, clocks and
//! settings; [`rating`] rates games (Glicko-2) and keeps statistics and leaderboards; [`app`]
//! is the chat service the
//! [`adapters`] (console, Telegram, Discord) talk to.
//!
//! ```
//! use xiangqi_bot::core::Position;
//! use xiangqi_bot::notation::{parse_move, Notation};
//! let pos = Position::startpos();
//! let m = parse_move(&pos, "炮二平五", Notation::Chinese).unwrap();
//! assert_eq!(m.to_string(), "h2e2");
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod adapters;
pub mod app;
pub mod arbiter;
pub mod cli;
pub mod config;
pub mod core;
pub mod engine;
pub mod game;
pub mod i18n;
pub mod notation;
pub mod platform;
pub mod puzzle;
pub mod rating;
pub mod render;
pub mod storage;
pub mod uci;
