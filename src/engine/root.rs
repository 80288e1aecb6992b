//! The root: which moves the arbiter accepts, iterative deepening with aspiration windows,
//! MultiPV, and the lines reported after each iteration.

use crate::arbiter::Arbiter;
use crate::core::Move;

use super::score::{is_mate, mate_in, to_score, DRAW, INFINITE, MATE};
use super::search::Searcher;
use super::{Info, Line};

/// A move at the root and what the search knows of it.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub mv: Move,
    /// Score in the iteration under way (`-INFINITE` until searched with an exact result).
    pub score: i32,
    /// Score in the last completed iteration.
    pub prev: i32,
    pub pv: Vec<Move>,
    /// A score the arbiter decides at once (the move ends the game): not searched.
    pub fixed: Option<i32>,
}

/// The legal moves the real arbiter of the game accepts, each tried on a copy of it: a move it
/// refuses, or after which it rules that the mover loses (a foul), is left out; a move after
/// which it ends the game gets that result as a fixed score (a win, or a draw).
pub(crate) fn root_moves(arb: &Arbiter) -> Vec<RootMove> {
    let pos = arb.position();
    let us = pos.turn();
    let mut probe = arb.clone();
    let mut out = Vec::new();
    for &m in pos.legal_moves().iter() {
        let Ok(acc) = probe.submit(m) else {
            continue; // refused
        };
        let fixed = match acc.ruling.as_ref().map(|r| r.outcome.loser()) {
            None => Some(None),
            Some(Some(c)) if c == us => None, // a foul: never played
            Some(Some(_)) => Some(Some(mate_in(1))),
            Some(None) => Some(Some(DRAW)),
        };
        probe.undo();
        if let Some(fixed) = fixed {
            out.push(RootMove {
                mv: m,
                score: -INFINITE,
                prev: -INFINITE,
                pv: vec![m],
                fixed,
            });
        }
    }
    out
}

impl Searcher<'_> {
    /// Search the root moves `root[pv_idx..]` to `depth` in the window (`alpha`, `beta`).
    fn search_root(
        &mut self,
        root: &mut [RootMove],
        pv_idx: usize,
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        let mut best = -INFINITE;
        for (i, rm) in root.iter_mut().enumerate().skip(pv_idx) {
            let m = rm.mv;
            let score = if let Some(f) = rm.fixed {
                self.pv_len[1] = 0;
                f
            } else {
                self.do_move(m, 0);
                let check = self.frames[1].in_check;
                let nd = depth - 1 + i32::from(check);
                let s = if i == pv_idx {
                    -self.negamax(-beta, -alpha, nd, 1, false)
                } else {
                    let mut s = -self.negamax(-alpha - 1, -alpha, nd, 1, true);
                    if s > alpha && s < beta {
                        s = -self.negamax(-beta, -alpha, nd, 1, false);
                    }
                    s
                };
                self.undo_move::<true>(0);
                s
            };
            if self.aborted {
                return best;
            }
            if i == pv_idx || score > alpha {
                rm.score = score;
                let mut pv = vec![m];
                pv.extend_from_slice(&self.pv[1][..self.pv_len[1]]);
                rm.pv = pv;
                if score > alpha {
                    alpha = score;
                }
            } else {
                rm.score = -INFINITE;
            }
            best = best.max(score);
            if score >= beta {
                break;
            }
        }
        best
    }

    /// Iterative deepening over `root` (non-empty) for `lines` principal variations. Returns
    /// the depth of the last completed iteration; `root` is left best first.
    pub(crate) fn iterate(
        &mut self,
        root: &mut Vec<RootMove>,
        lines: usize,
        on_info: &mut dyn FnMut(&Info),
    ) -> u32 {
        let lines = lines.clamp(1, root.len());
        let mut completed = 0u32;
        let mut snapshot = root.clone();
        for depth in 1..=self.tc.depth as i32 {
            self.root_depth = depth;
            for pv_idx in 0..lines {
                self.seldepth = 0;
                let prev = root[pv_idx].prev;
                let mut delta = self.params.asp_delta;
                let (mut alpha, mut beta) = if depth >= 5 && prev > -INFINITE && !is_mate(prev) {
                    (prev - delta, prev + delta)
                } else {
                    (-INFINITE, INFINITE)
                };
                loop {
                    let s = self.search_root(root, pv_idx, depth, alpha, beta);
                    root[pv_idx..].sort_by_key(|r| std::cmp::Reverse(r.score));
                    if self.aborted {
                        break;
                    }
                    if s <= alpha && alpha > -INFINITE {
                        beta = (alpha + beta) / 2;
                        alpha = (s - delta).max(-INFINITE);
                    } else if s >= beta && beta < INFINITE {
                        beta = (s + delta).min(INFINITE);
                    } else {
                        break;
                    }
                    delta += delta;
                    if delta > 1000 {
                        alpha = -INFINITE;
                        beta = INFINITE;
                    }
                }
                root[..=pv_idx].sort_by_key(|r| std::cmp::Reverse(r.score));
                if self.aborted {
                    break;
                }
            }
            if self.aborted {
                *root = snapshot;
                break;
            }
            for rm in root.iter_mut() {
                rm.prev = rm.score;
            }
            snapshot = root.clone();
            completed = depth as u32;
            self.report(root, lines, completed, on_info);
            if self.tc.timed() {
                let elapsed = self.tc.start.elapsed();
                if self.tc.soft.is_some_and(|s| elapsed >= s) {
                    break;
                }
                if self.tc.soft.is_some() && root.len() == 1 {
                    break;
                }
                // A mate found with room to spare will not change.
                let best = root[0].score;
                if is_mate(best) && (MATE - best.abs()) * 2 + 4 < depth {
                    break;
                }
            }
        }
        completed
    }

    fn report(&self, root: &[RootMove], lines: usize, depth: u32, on_info: &mut dyn FnMut(&Info)) {
        let time_ms = self.tc.elapsed_ms();
        let nps = self.nodes * 1000 / time_ms.max(1);
        let hashfull = self.tt.hashfull();
        for (i, rm) in root.iter().take(lines).enumerate() {
            on_info(&Info {
                depth,
                seldepth: self.seldepth as u32,
                multipv: i + 1,
                score: to_score(rm.score),
                nodes: self.nodes,
                time_ms,
                nps,
                hashfull,
                pv: rm.pv.clone(),
            });
        }
    }
}

/// The reported lines of `root` (best first).
pub(crate) fn lines_of(root: &[RootMove], lines: usize) -> Vec<Line> {
    root.iter()
        .take(lines.max(1))
        .map(|rm| Line {
            score: to_score(if rm.prev > -INFINITE {
                rm.prev
            } else {
                rm.score
            }),
            pv: rm.pv.clone(),
        })
        .collect()
}
