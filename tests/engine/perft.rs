//! The reference perft counts of issue 2, read from `tests/data/perft.txt`.
//!
//! Counts up to 5 million nodes run in every `cargo test`; the larger ones (marked `*` in the
//! file) run in release mode with `cargo test --release -- --ignored`.

use xiangqi_bot::core::{perft, Position};

struct Case {
    fen: String,
    depth: u32,
    nodes: u64,
    big: bool,
}

fn cases() -> Vec<Case> {
    let text = include_str!("../data/perft.txt");
    let mut out = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let mut parts = line.split(';').map(str::trim);
        let fen = parts.next().expect("fen").to_string();
        for p in parts {
            let (d, n) = p.split_once(' ').expect("depth and count");
            let big = d.starts_with('*');
            out.push(Case {
                fen: fen.clone(),
                depth: d.trim_start_matches('*').parse().expect("depth"),
                nodes: n.parse().expect("count"),
                big,
            });
        }
    }
    out
}

fn run(big: bool) {
    let all = cases();
    assert!(all.len() >= 57, "the data file lost rows");
    let mut failures = Vec::new();
    for c in all.iter().filter(|c| c.big == big) {
        let pos = Position::from_fen(&c.fen).unwrap_or_else(|e| panic!("{}: {e}", c.fen));
        let got = perft(&pos, c.depth);
        if got != c.nodes {
            failures.push(format!(
                "{} depth {}: {} != {}",
                c.fen, c.depth, got, c.nodes
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn reference_counts_up_to_a_few_million_nodes() {
    run(false);
}

#[test]
#[ignore = "133 million nodes: run with cargo test --release -- --ignored"]
fn reference_counts_large() {
    run(true);
}
