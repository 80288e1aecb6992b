//! The `xiangqi-bot` binary: the command-line tools, and (with no subcommand, or `console`)
//! the bot itself.

use std::process::ExitCode;

use clap::Parser;
use xiangqi_bot::cli::{Cli, Command};

fn main() -> ExitCode {
    let cli = Cli::parse();
    // The engine's transposition tables on large pages, where the system has them.
    xiangqi_bot::cli::memory::use_large_pages();
    match cli.command {
        None | Some(Command::Console) => xiangqi_bot::cli::bot::run(),
        Some(_) => ExitCode::from(u8::try_from(xiangqi_bot::cli::run(cli)).unwrap_or(1)),
    }
}
