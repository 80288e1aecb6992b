//! The search proper: principal-variation alpha-beta with a transposition table, null-move
//! pruning, reverse futility and futility pruning, late-move pruning and reductions, check
//! extensions, internal iterative reduction, and a quiescence search on captures (all moves
//! when in check). Repetitions and the other rule endings come from [`super::rules`].

use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};

use crate::core::{Move, Position, Role};

use super::eval::evaluate;
use super::ordering::{is_tactical_score, role_of_code, Ordering, Picker, ORDER_VALUE};
use super::rules::{GameRules, PathPly};
use super::score::{from_tt, is_mate, mate_in, mated_in, to_tt, INFINITE, MATE_BOUND, MAX_PLY};
use super::see::capture_loses;
use super::time::TimeControl;
use super::tt::{Bound, Hit, Table};

/// What the search keeps per ply.
#[derive(Copy, Clone, Default)]
pub(crate) struct Frame {
    /// The ply that led here (`None` at the root and after a null move).
    pub path: PathPly,
    /// Cell code of the piece that moved there.
    pub moved: u8,
    /// Whether the side to move is in check here.
    pub in_check: bool,
    /// Static evaluation here (meaningless when in check).
    pub eval: i32,
}

/// Late-move reduction by depth and move number.
pub(crate) struct Reductions([[u8; 64]; 64]);

impl Reductions {
    pub(crate) fn new() -> Reductions {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let v = 0.5 + (d as f64).ln() * (m as f64).ln() / 2.25;
                *r = v.max(0.0) as u8;
            }
        }
        Reductions(t)
    }

    #[inline]
    fn get(&self, depth: i32, moves: usize) -> i32 {
        i32::from(self.0[(depth as usize).min(63)][moves.min(63)])
    }
}

/// The stored score of `hit` when its bound settles the window (`alpha`, `beta`).
#[inline]
fn cutoff(hit: Hit, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let s = from_tt(hit.score, ply);
    let usable = match hit.bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
    };
    usable.then_some(s)
}

/// One search in progress.
pub(crate) struct Searcher<'a> {
    pub pos: Position,
    pub tt: &'a mut Table,
    pub ord: &'a mut Ordering,
    pub rules: GameRules,
    pub tc: TimeControl,
    pub stop: &'a AtomicBool,
    pub reductions: &'a Reductions,
    pub nodes: u64,
    pub seldepth: usize,
    pub aborted: bool,
    pub frames: Vec<Frame>,
    pub pv: Vec<[Move; MAX_PLY + 1]>,
    pub pv_len: [usize; MAX_PLY + 1],
    /// Depth of the current iteration (bounds the check extensions).
    pub root_depth: i32,
}

impl<'a> Searcher<'a> {
    pub(crate) fn new(
        pos: Position,
        tt: &'a mut Table,
        ord: &'a mut Ordering,
        rules: GameRules,
        tc: TimeControl,
        stop: &'a AtomicBool,
        reductions: &'a Reductions,
    ) -> Searcher<'a> {
        let mut frames = vec![Frame::default(); MAX_PLY + 8];
        frames[0].in_check = pos.is_check();
        let null = Move::new(
            pos.general_square(pos.turn()),
            pos.general_square(pos.turn()),
        );
        Searcher {
            pos,
            tt,
            ord,
            rules,
            tc,
            stop,
            reductions,
            nodes: 0,
            seldepth: 0,
            aborted: false,
            frames,
            pv: vec![[null; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            root_depth: 1,
        }
    }

    /// Whether the search must stop now (node budget, clock, or the caller's flag).
    #[inline]
    fn check_limits(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.root_depth <= 1 {
            return false; // the first iteration always completes: there is always a move
        }
        if self.tc.nodes.is_some_and(|n| self.nodes >= n) {
            self.aborted = true;
        } else if self.nodes & 1023 == 0 {
            if self.stop.load(AtomicOrdering::Relaxed) {
                self.aborted = true;
            } else if let Some(h) = self.tc.hard {
                if self.tc.start.elapsed() >= h {
                    self.aborted = true;
                }
            }
        }
        self.aborted
    }

    /// Play `m` at `ply` (the position moves to `ply + 1`).
    #[inline]
    pub(crate) fn do_move(&mut self, m: Move, ply: usize) {
        let code = self.pos.board[m.from.index()];
        let capture = self.pos.board[m.to.index()] != 0;
        let soldier_advance = role_of_code(code) == Role::Soldier.index()
            && m.from.file() == m.to.file()
            && !self.pos.turn().owns_rank(m.from.rank());
        let undo = self.pos.make(m);
        let in_check = self.pos.is_check();
        self.frames[ply + 1] = Frame {
            path: Some((m, undo)),
            moved: code,
            in_check,
            eval: 0,
        };
        self.rules
            .push(self.pos.hash(), capture, in_check, soldier_advance);
    }

    #[inline]
    pub(crate) fn undo_move(&mut self, ply: usize) {
        if let Some((m, u)) = self.frames[ply + 1].path {
            self.pos.unmake(m, u);
        }
        self.rules.pop();
    }

    fn do_null(&mut self, ply: usize) {
        self.pos.make_null();
        self.frames[ply + 1] = Frame::default();
        self.rules.push_null(self.pos.hash());
    }

    fn undo_null(&mut self) {
        self.pos.unmake_null();
        self.rules.pop();
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = if ply < MAX_PLY {
            self.pv_len[ply + 1]
        } else {
            0
        };
        self.pv[ply][0] = m;
        let n = child_len.min(MAX_PLY - 1);
        if n > 0 {
            let (head, tail) = self.pv.split_at_mut(ply + 1);
            head[ply][1..=n].copy_from_slice(&tail[0][..n]);
        }
        self.pv_len[ply] = n + 1;
    }

    /// Whether the side to move has a piece other than general, advisors, elephants and
    /// soldiers (null-move pruning is unsafe without one: zugzwang).
    fn has_big_pieces(&self) -> bool {
        let base = self.pos.turn().index() * 16;
        (base..base + 16).any(|id| {
            self.pos.squares[id] != 0xFF && matches!(role_of_code(self.pos.kinds[id]), 3..=5)
        })
    }

    /// The alpha-beta search of the node at `ply` (ply 0 is the root's children's parent; the
    /// root itself is searched by [`super::root`]).
    pub(crate) fn negamax(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv_len[ply] = 0;
        if ply > 0 {
            if let Some(s) = self.rules.tree_score(&self.pos, ply, &self.frames[1..=ply]) {
                return s;
            }
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply);
        }
        self.nodes += 1;
        if self.check_limits() {
            return 0;
        }
        if ply >= MAX_PLY - 4 {
            return evaluate(&self.pos);
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.frames[ply].in_check;
        let key = self.pos.hash();
        let hit = self.tt.probe(key);
        let tt_move = hit.and_then(|h| h.mv);
        if let Some(h) = hit.filter(|h| !pv_node && h.depth >= depth) {
            if let Some(s) = cutoff(h, ply, alpha, beta) {
                return s;
            }
        }
        let eval = if in_check {
            -INFINITE
        } else {
            hit.map_or_else(|| evaluate(&self.pos), |h| h.eval)
        };
        self.frames[ply].eval = eval;
        let improving = !in_check && ply >= 2 && eval > self.frames[ply - 2].eval;

        if !pv_node && !in_check && !is_mate(beta) {
            // Reverse futility: far above beta at low depth.
            let margin = 90 * depth - if improving { 40 } else { 0 };
            if depth <= 7 && eval - margin >= beta {
                return eval;
            }
            // Null move.
            if depth >= 3
                && eval >= beta
                && self.frames[ply].path.is_some()
                && self.has_big_pieces()
            {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                self.do_null(ply);
                let s = -self.negamax(-beta, -beta + 1, depth - 1 - r, ply + 1, !cut);
                self.undo_null();
                if self.aborted {
                    return 0;
                }
                if s >= beta {
                    return if is_mate(s) { beta } else { s };
                }
            }
        }
        // Internal iterative reduction: no table move to lead with.
        if tt_move.is_none() && depth >= 4 && (pv_node || cut) {
            depth -= 1;
        }

        let list = self.pos.legal_moves();
        if list.is_empty() {
            return mated_in(ply); // checkmate or stalemate: both lose
        }
        let prev = self.frames[ply]
            .path
            .map(|(m, _)| (self.frames[ply].moved, m));
        let tt_move = tt_move.filter(|m| list.contains(*m));
        let mut picker = Picker::new(&self.pos, &list, tt_move, self.ord, ply, prev);
        let side = self.pos.turn().index();
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut quiets: [Option<Move>; 64] = [None; 64];
        let mut n_quiets = 0;
        let orig_alpha = alpha;
        while let Some((m, mscore)) = picker.next() {
            let capture = self.pos.board[m.to.index()] != 0;
            let tactical = is_tactical_score(mscore);
            if !pv_node && !in_check && best > -MATE_BOUND && !capture && !tactical {
                // Late-move pruning and futility pruning of quiet moves.
                let lmp = (3 + depth * depth) as usize / if improving { 1 } else { 2 };
                if depth <= 8 && searched >= lmp {
                    continue;
                }
                if depth <= 6 && eval + 100 + 80 * depth <= alpha {
                    continue;
                }
            }
            self.do_move(m, ply);
            let gives_check = self.frames[ply + 1].in_check;
            let mut new_depth = depth - 1;
            if gives_check && (ply as i32) < 2 * self.root_depth {
                new_depth += 1;
            }
            let mut score;
            if searched == 0 {
                score = -self.negamax(-beta, -alpha, new_depth, ply + 1, !pv_node && !cut);
            } else {
                let mut r = 0;
                if depth >= 3
                    && searched >= 2
                    && !gives_check
                    && !in_check
                    && (!capture || !tactical)
                {
                    r = self.reductions.get(depth, searched);
                    if !pv_node {
                        r += 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if tactical {
                        r -= 1;
                    }
                    if !capture {
                        r -= self.ord.history(side, m) / 6000;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.negamax(-alpha - 1, -alpha, new_depth - r, ply + 1, true);
                if score > alpha && r > 0 {
                    score = -self.negamax(-alpha - 1, -alpha, new_depth, ply + 1, !cut);
                }
                if pv_node && score > alpha && score < beta {
                    score = -self.negamax(-beta, -alpha, new_depth, ply + 1, false);
                }
            }
            self.undo_move(ply);
            if self.aborted {
                return 0;
            }
            searched += 1;
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if !capture {
                            let bonus = (depth * depth * 16).min(1600);
                            self.ord.add_killer(ply, m);
                            self.ord.set_counter(prev, m);
                            self.ord.update_history(side, m, bonus);
                            for q in quiets[..n_quiets].iter().flatten() {
                                self.ord.update_history(side, *q, -bonus);
                            }
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if !capture && n_quiets < quiets.len() {
                quiets[n_quiets] = Some(m);
                n_quiets += 1;
            }
        }
        self.store(
            key,
            ply,
            best,
            (orig_alpha, alpha, beta),
            best_move,
            in_check,
            eval,
            depth,
        );
        best
    }

    /// Quiescence: captures (every move when in check) until the position is quiet.
    pub(crate) fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        self.pv_len[ply] = 0;
        if self.check_limits() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.frames[ply].in_check;
        if ply >= MAX_PLY - 4 {
            return if in_check { 0 } else { evaluate(&self.pos) };
        }
        let key = self.pos.hash();
        let hit = self.tt.probe(key);
        if let Some(s) = hit.and_then(|h| cutoff(h, ply, alpha, beta)) {
            return s;
        }
        let list = self.pos.legal_moves();
        let mut best;
        let eval;
        if in_check {
            if list.is_empty() {
                return mated_in(ply);
            }
            best = -INFINITE;
            eval = -INFINITE;
        } else {
            eval = hit.map_or_else(|| evaluate(&self.pos), |h| h.eval);
            if eval >= beta {
                return eval;
            }
            alpha = alpha.max(eval);
            best = eval;
        }
        let mut picker = if in_check {
            Picker::new(
                &self.pos,
                &list,
                hit.and_then(|h| h.mv),
                self.ord,
                ply,
                None,
            )
        } else {
            Picker::captures(&self.pos, &list)
        };
        let orig_alpha = alpha;
        let mut best_move = None;
        while let Some((m, _)) = picker.next() {
            if !in_check {
                let victim = role_of_code(self.pos.board[m.to.index()]);
                let attacker = role_of_code(self.pos.board[m.from.index()]);
                // Delta pruning: even winning the victim outright cannot reach alpha.
                if eval + ORDER_VALUE[victim] + 150 <= alpha {
                    continue;
                }
                if ORDER_VALUE[victim] < ORDER_VALUE[attacker] && capture_loses(&self.pos, m) {
                    continue;
                }
            }
            self.do_move(m, ply);
            let score = -self.qsearch(-beta, -alpha, ply + 1);
            self.undo_move(ply);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        self.store(
            key,
            ply,
            best,
            (orig_alpha, alpha, beta),
            best_move,
            in_check,
            eval,
            0,
        );
        best
    }

    /// Store a node's result: its bound follows from the window it was searched with
    /// (`(alpha at entry, alpha at the end, beta)`).
    #[allow(clippy::too_many_arguments)]
    fn store(
        &mut self,
        key: u64,
        ply: usize,
        best: i32,
        (orig_alpha, alpha, beta): (i32, i32, i32),
        best_move: Option<Move>,
        in_check: bool,
        eval: i32,
        depth: i32,
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_eval = if in_check { 0 } else { eval };
        self.tt
            .store(key, best_move, to_tt(best, ply), stored_eval, depth, bound);
    }
}
