//! The `xiangqi-bot` binary: the command-line tools, and (with no subcommand) the bot itself.

use clap::Parser;

fn main() {
    let cli = xiangqi_bot::cli::Cli::parse();
    std::process::exit(xiangqi_bot::cli::run(cli));
}
