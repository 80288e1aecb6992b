//! Perft: count the leaf nodes of the legal move tree, the standard test of a move generator.

use super::position::Position;
use super::types::Move;

/// Number of legal move sequences of length `depth` (bulk-counted at the last ply).
#[must_use]
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut p = pos.clone();
    inner(&mut p, depth)
}

fn inner(p: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = p.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut n = 0;
    for &m in moves.iter() {
        let u = p.make(m);
        n += inner(p, depth - 1);
        p.unmake(m, u);
    }
    n
}

/// Perft per root move, in ICCS order.
#[must_use]
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut p = pos.clone();
    let mut out: Vec<(Move, u64)> = p
        .legal_moves()
        .iter()
        .map(|&m| {
            let u = p.make(m);
            let n = if depth <= 1 {
                1
            } else {
                inner(&mut p, depth - 1)
            };
            p.unmake(m, u);
            (m, n)
        })
        .collect();
    out.sort_by_key(|(m, _)| m.to_string());
    out
}
