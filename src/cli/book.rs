//! `openings`: balanced match openings grown from the named ones by our engine (see
//! [`crate::uci::book`]), written as an openings file for `match --openings`.

use std::path::PathBuf;

use clap::Args;

use crate::uci::book::{generate, BookSettings};
use crate::uci::matches::parse_openings;

use super::emit;

/// `openings`: grow and check openings.
#[derive(Args, Debug)]
pub struct OpeningsArgs {
    /// The named openings to grow from.
    #[arg(long, default_value = "assets/openings.txt")]
    from: PathBuf,
    /// Write the openings here (default: standard output).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Openings wanted.
    #[arg(long, default_value_t = 200)]
    count: usize,
    /// Depth of every search (the choices and the final check).
    #[arg(long, default_value_t = 8)]
    depth: u32,
    /// Moves considered at each of the two added plies.
    #[arg(long, default_value_t = 4)]
    width: usize,
    /// A move is considered only within this many centipawns of the best.
    #[arg(long, default_value_t = 60)]
    margin: i32,
    /// An opening is kept only if the check puts it within this many centipawns of equal.
    #[arg(long, default_value_t = 80)]
    max_eval: i32,
}

/// Run `openings`.
#[must_use]
pub fn run(args: &OpeningsArgs) -> i32 {
    let text = match std::fs::read_to_string(&args.from) {
        Ok(t) => t,
        Err(e) => {
            emit(&format!("error: cannot read {}: {e}", args.from.display()));
            return 2;
        }
    };
    let named = match parse_openings(&text) {
        Ok(o) if !o.is_empty() => o,
        Ok(_) => {
            emit(&format!("error: no openings in {}", args.from.display()));
            return 2;
        }
        Err(e) => {
            emit(&format!("error: {}: {e}", args.from.display()));
            return 2;
        }
    };
    let settings = BookSettings {
        count: args.count,
        depth: args.depth,
        width: args.width.max(1),
        margin: args.margin,
        max_eval: args.max_eval,
        ..BookSettings::default()
    };
    let n = named.len();
    let book = generate(&named, &settings, &mut |i| {
        eprintln!("openings: growing {}/{n}: {}", i + 1, named[i].name);
    });
    let command = format!(
        "xiangqi-bot openings --count {} --depth {} --width {} --margin {} --max-eval {}",
        args.count, args.depth, args.width, args.margin, args.max_eval
    );
    let mut lines = vec![
        format!(
            "# {} openings grown from the {n} of {} by `{command}`:",
            book.len(),
            args.from.display()
        ),
        "# each is a named opening and two plies our engine finds near its best; a search of the"
            .to_string(),
        format!(
            "# result at depth {} puts it within {} centipawns of equal. ICCS moves | name | 名称.",
            args.depth, args.max_eval
        ),
    ];
    lines.extend(book.iter().map(|b| b.to_line()));
    let text = lines.join("\n") + "\n";
    let worst = book.iter().map(|b| b.eval.abs()).max().unwrap_or(0);
    let summary = format!(
        "openings: {} of {} wanted, from {n} named openings, |eval| at most {worst} cp",
        book.len(),
        args.count
    );
    match &args.out {
        None => emit(text.trim_end()),
        Some(path) => {
            if let Err(e) = std::fs::write(path, &text) {
                emit(&format!("error: cannot write {}: {e}", path.display()));
                return 1;
            }
        }
    }
    eprintln!("{summary}");
    i32::from(book.len() < args.count)
}
