//! The search proper: principal-variation alpha-beta with a transposition table, null-move
//! pruning, reverse futility and futility pruning, late-move pruning and reductions, check
//! extensions, internal iterative reduction, and a quiescence search on captures (all moves
//! when in check). Repetitions and the other rule endings come from [`super::rules`].

use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};

use crate::core::{Move, Position, Role};

/// Role index of the chariot, the most valuable piece a capture can take.
const CHARIOT: usize = Role::Chariot as usize;

use super::eval::{evaluate_from, Base, Material, Roster, Terms};
use super::ordering::{role_of_code, Captures, Kind, MovePicker, Ordering, NO_MOVE, ORDER_VALUE};
use super::params::Params;
use super::rules::{Frame, GameRules};
use super::score::{from_tt, is_mate, mate_in, mated_in, to_tt, INFINITE, MATE_BOUND, MAX_PLY};
use super::see::{capture_loses, see};
use super::time::TimeControl;
use super::tt::{prefetch, Bound, Hit, View};

/// Entries of the evaluation cache (a power of two).
pub(crate) const EVAL_CACHE: usize = 1 << 15;

/// The move lists a search works through: one move picker and one capture list per ply,
/// reset node after node. An engine makes them once (about 0.35 MB) and lends them to each of
/// its searches.
pub(crate) struct PlyLists {
    pickers: Vec<MovePicker>,
    captures: Vec<Captures>,
}

impl PlyLists {
    pub(crate) fn new() -> PlyLists {
        PlyLists {
            pickers: (0..MAX_PLY + 8).map(|_| MovePicker::empty()).collect(),
            captures: (0..MAX_PLY + 8).map(|_| Captures::empty()).collect(),
        }
    }
}

/// Late-move reduction by depth and move number.
pub(crate) struct Reductions([[u8; 64]; 64]);

impl Reductions {
    pub(crate) fn new(p: &Params) -> Reductions {
        let mut t = [[0u8; 64]; 64];
        let base = f64::from(p.lmr_base) / 100.0;
        let div = f64::from(p.lmr_div) / 100.0;
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let v = base + (d as f64).ln() * (m as f64).ln() / div;
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

/// SEE pruning: at non-PV nodes of at most this depth, out of check, a quiet move or a losing
/// capture whose exchange on its destination loses more than `-SEE_QUIET · depth²` (quiet
/// moves) or `-SEE_CAPTURE · depth²` (captures) is skipped, unless it gives check.
const SEE_PRUNE_DEPTH: i32 = 5;
const SEE_QUIET: i32 = 30;
const SEE_CAPTURE: i32 = 50;

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

/// The engine's tables and settings a search works with.
pub(crate) struct Kit<'a> {
    pub tt: View<'a>,
    pub ord: &'a mut Ordering,
    pub reductions: &'a Reductions,
    pub params: &'a Params,
    /// The evaluation's weights, prepared.
    pub terms: &'a Terms,
    pub eval_cache: &'a mut [(u64, i32)],
    pub lists: &'a mut PlyLists,
}

/// One search in progress.
pub(crate) struct Searcher<'a> {
    pub pos: Position,
    pub tt: View<'a>,
    pub ord: &'a mut Ordering,
    pub rules: GameRules,
    pub tc: TimeControl,
    pub stop: &'a AtomicBool,
    pub reductions: &'a Reductions,
    pub params: &'a Params,
    pub eval_cache: &'a mut [(u64, i32)],
    /// The pieces by role, for the evaluation.
    pub roster: Roster,
    /// The evaluation's terms of the last piece counts.
    pub material: Material,
    /// The evaluation's weights, prepared.
    pub terms: &'a Terms,
    pub nodes: u64,
    pub seldepth: usize,
    pub aborted: bool,
    /// The node count from which [`Searcher::check_limits`] looks at the limits again (0:
    /// at every node).
    check_at: u64,
    pub frames: Vec<Frame>,
    /// The move lists of each ply.
    pub lists: &'a mut PlyLists,
    pub pv: Vec<[Move; MAX_PLY + 1]>,
    pub pv_len: [usize; MAX_PLY + 1],
    /// Depth of the current iteration (bounds the check extensions).
    pub root_depth: i32,
}

impl<'a> Searcher<'a> {
    pub(crate) fn new(
        pos: Position,
        kit: Kit<'a>,
        rules: GameRules,
        tc: TimeControl,
        stop: &'a AtomicBool,
    ) -> Searcher<'a> {
        let Kit {
            tt,
            ord,
            reductions,
            params,
            terms,
            eval_cache,
            lists,
        } = kit;
        let mut frames = vec![Frame::default(); MAX_PLY + 8];
        frames[0].in_check = pos.is_check();
        frames[0].base = Base::of(&pos);
        let null = Move::new(
            pos.general_square(pos.turn()),
            pos.general_square(pos.turn()),
        );
        Searcher {
            roster: Roster::of(&pos),
            material: Material::none(),
            terms,
            pos,
            tt,
            ord,
            rules,
            tc,
            stop,
            reductions,
            params,
            eval_cache,
            nodes: 0,
            seldepth: 0,
            aborted: false,
            check_at: 0,
            frames,
            lists,
            pv: vec![[null; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            root_depth: 1,
        }
    }

    /// Whether the search must stop now (node budget, clock, or the caller's flag).
    #[inline]
    fn check_limits(&mut self) -> bool {
        // Below `check_at` nothing can have changed: no budget reached, no 1,024th node.
        if self.nodes < self.check_at {
            return false;
        }
        self.check_limits_now()
    }

    /// [`Searcher::check_limits`] at a node where a limit may be due; sets the next node
    /// count worth looking at (none once aborted: every node looks, and stops).
    #[inline(never)]
    fn check_limits_now(&mut self) -> bool {
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
        self.check_at = if self.aborted {
            0
        } else {
            (self.nodes / 1024 + 1) * 1024
        }
        .min(self.tc.nodes.unwrap_or(u64::MAX));
        self.aborted
    }

    /// The static evaluation at `ply`, through a small cache keyed by the position's hash.
    #[inline]
    fn static_eval(&mut self, ply: usize) -> i32 {
        let key = self.pos.hash();
        let slot = &mut self.eval_cache[(key as usize) & (EVAL_CACHE - 1)];
        if slot.0 == key {
            return slot.1;
        }
        let e = evaluate_from(
            &self.pos,
            self.terms,
            self.frames[ply].base,
            &self.roster,
            &mut self.material,
        );
        *slot = (key, e);
        e
    }

    /// Play `m` at `ply` (the position moves to `ply + 1`).
    #[inline]
    pub(crate) fn do_move(&mut self, m: Move, ply: usize) {
        self.make_move::<true>(m, ply, true);
    }

    /// [`Searcher::do_move`], loading the child's table bucket ahead only when `probed`: the
    /// child will read the table. With `RULES` off (the quiescence search, where no position
    /// below is judged by the game's rules: only [`Searcher::negamax`] asks them), the ply is
    /// not recorded for the rules; [`Searcher::undo_move`] must be told the same.
    #[inline]
    fn make_move<const RULES: bool>(&mut self, m: Move, ply: usize, probed: bool) {
        let code = self.pos.board[m.from.index()];
        let capture = self.pos.board[m.to.index()] != 0;
        let soldier_advance = RULES
            && role_of_code(code) == Role::Soldier.index()
            && m.from.file() == m.to.file()
            && !self.pos.turn().owns_rank(m.from.rank());
        let base = self.frames[ply].base.after(&self.pos, m);
        let undo = self.pos.make_inline(m);
        // Start both loads the child is likely to need (table bucket, evaluation cache slot)
        // now, so that their cache misses overlap the rest of the move.
        let key = self.pos.hash();
        if probed {
            self.tt.prefetch(key);
        }
        prefetch(&self.eval_cache[(key as usize) & (EVAL_CACHE - 1)]);
        let in_check = self.pos.is_check_after(m.from.index(), m.to.index());
        self.frames[ply + 1] = Frame {
            path: Some((m, undo)),
            moved: code,
            in_check,
            eval: 0,
            base,
        };
        if RULES {
            self.rules
                .push(self.pos.hash(), capture, in_check, soldier_advance);
        }
    }

    /// Take back the move played at `ply` (see [`Searcher::make_move`] for `RULES`).
    #[inline(always)]
    pub(crate) fn undo_move<const RULES: bool>(&mut self, ply: usize) {
        if let Some((m, u)) = self.frames[ply + 1].path {
            self.pos.unmake_inline(m, u);
        }
        if RULES {
            self.rules.pop();
        }
    }

    fn do_null(&mut self, ply: usize) {
        self.pos.make_null();
        self.tt.prefetch(self.pos.hash());
        self.frames[ply + 1] = Frame {
            base: self.frames[ply].base,
            ..Frame::default()
        };
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
    fn has_big_pieces(&self, ply: usize) -> bool {
        // Horses, chariots and cannons: roles 3 to 5.
        let side = self.pos.turn().index();
        (3..=5).any(|role| self.frames[ply].base.n(side, role) > 0)
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
            return self.static_eval(ply);
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
            match hit {
                Some(h) => h.eval,
                None => self.static_eval(ply),
            }
        };
        self.frames[ply].eval = eval;
        let improving = !in_check && ply >= 2 && eval > self.frames[ply - 2].eval;

        if !pv_node && !in_check && !is_mate(beta) {
            // Reverse futility: far above beta at low depth.
            let margin = self.params.rfp_margin * depth - if improving { 40 } else { 0 };
            if depth <= 7 && eval - margin >= beta {
                return eval;
            }
            // Null move.
            if depth >= 3
                && eval >= beta
                && self.frames[ply].path.is_some()
                && self.has_big_pieces(ply)
            {
                let r = self.params.nmp_base
                    + depth / self.params.nmp_div
                    + ((eval - beta) / 200).min(3);
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

        let prev = self.frames[ply]
            .path
            .map(|(m, _)| (self.frames[ply].moved, m));
        self.lists.pickers[ply].reset(tt_move, self.ord, ply, prev, in_check);
        let side = self.pos.turn().index();
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut quiets = [NO_MOVE; 64];
        let mut n_quiets = 0;
        let orig_alpha = alpha;
        let lmp = (self.params.lmp_base + depth * depth) as usize / if improving { 1 } else { 2 };
        loop {
            // Late-move pruning and futility pruning of quiet moves. Once either holds it holds
            // for every later move (alpha, best and the count only grow), so the remaining quiet
            // moves are skipped as a whole, before they are generated and sorted.
            if !pv_node
                && !in_check
                && best > -MATE_BOUND
                && ((depth <= 8 && searched >= lmp)
                    || (depth <= 6
                        && eval + self.params.fut_base + self.params.fut_mul * depth <= alpha))
            {
                self.lists.pickers[ply].skip_quiets = true;
            }
            let Some((m, kind)) = self.lists.pickers[ply].next(&self.pos, self.ord) else {
                break;
            };
            let capture = self.pos.board[m.to.index()] != 0;
            // SEE pruning (the first move is never pruned: `best` is still -INFINITE; captures
            // picked as good ones never lose by the exchange).
            let see_pruned = !pv_node
                && !in_check
                && depth <= SEE_PRUNE_DEPTH
                && best > -MATE_BOUND
                && matches!(kind, Kind::Quiet | Kind::Killer | Kind::BadCapture)
                && see(&self.pos, m)
                    < -(if capture { SEE_CAPTURE } else { SEE_QUIET }) * depth * depth;
            // At depth 1 the child is a quiescence node unless the move gives check.
            self.make_move::<true>(m, ply, depth > 1 || self.params.qs_tt);
            let gives_check = self.frames[ply + 1].in_check;
            if see_pruned && !gives_check {
                self.undo_move::<true>(ply);
                continue;
            }
            let mut new_depth = depth - 1;
            if gives_check && (ply as i32) < 2 * self.root_depth {
                new_depth += self.params.check_ext;
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
                    && matches!(kind, Kind::Quiet | Kind::Killer | Kind::BadCapture)
                {
                    r = self.reductions.get(depth, searched);
                    if !pv_node {
                        r += 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if kind == Kind::Killer {
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
            self.undo_move::<true>(ply);
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
                            for q in &quiets[..n_quiets] {
                                self.ord.update_history(side, *q, -bonus);
                            }
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if !capture && n_quiets < quiets.len() {
                quiets[n_quiets] = m;
                n_quiets += 1;
            }
        }
        if searched == 0 {
            return mated_in(ply); // no legal move: checkmate or stalemate, both lose
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
            return if in_check { 0 } else { self.static_eval(ply) };
        }
        let key = self.pos.hash();
        let use_tt = self.params.qs_tt;
        let hit = if use_tt { self.tt.probe(key) } else { None };
        if let Some(s) = hit.and_then(|h| cutoff(h, ply, alpha, beta)) {
            return s;
        }
        let mut best;
        let eval;
        // Whether `eval` is only an upper estimate (then nothing is stored).
        let mut estimated = false;
        if in_check {
            best = -INFINITE;
            eval = -INFINITE;
        } else {
            eval = match hit {
                Some(h) => h.eval,
                None => {
                    // Far above beta on material and placement alone: stand pat on that.
                    let lazy = self.frames[ply]
                        .base
                        .score(self.pos.turn, &self.params.eval);
                    let p = self.params;
                    if lazy - p.lazy_margin >= beta {
                        return lazy;
                    }
                    // Far below alpha: standing pat cannot raise alpha, and an estimate from
                    // above serves the delta pruning of the captures as well as the evaluation.
                    if p.lazy_low_margin > 0 && lazy + p.lazy_low_margin <= alpha {
                        estimated = true;
                        lazy + p.lazy_low_margin
                    } else {
                        self.static_eval(ply)
                    }
                }
            };
            if eval >= beta {
                return eval;
            }
            alpha = alpha.max(eval);
            best = eval;
        }
        if in_check {
            let tt_move = hit.and_then(|h| h.mv);
            self.lists.pickers[ply].reset(tt_move, self.ord, ply, None, true);
        }
        // Delta pruning: even winning `victim` outright cannot reach `alpha`.
        let delta = self.params.qs_delta;
        let out_of_reach = |victim: usize, alpha: i32| eval + ORDER_VALUE[victim] + delta <= alpha;
        // Every capture at once when not even taking a chariot reaches alpha (the test below
        // would reject each capture; they are not generated).
        let hopeless = !in_check && out_of_reach(CHARIOT, alpha);
        let captures = !in_check && !hopeless;
        if captures {
            self.lists.captures[ply].reset(&self.pos);
        }
        let orig_alpha = alpha;
        let mut best_move = None;
        let mut searched = 0;
        loop {
            let next = if in_check {
                self.lists.pickers[ply]
                    .next(&self.pos, self.ord)
                    .map(|x| x.0)
            } else if captures {
                self.lists.captures[ply].next()
            } else {
                None
            };
            let Some(m) = next else {
                break;
            };
            if !in_check {
                let victim = role_of_code(self.pos.board[m.to.index()]);
                let attacker = role_of_code(self.pos.board[m.from.index()]);
                // The captures come by victim, most valuable first, so none of the rest can
                // reach alpha either.
                if out_of_reach(victim, alpha) {
                    break;
                }
                if ORDER_VALUE[victim] < ORDER_VALUE[attacker] && capture_loses(&self.pos, m) {
                    continue;
                }
            }
            searched += 1;
            self.make_move::<false>(m, ply, self.params.qs_tt);
            let score = -self.qsearch(-beta, -alpha, ply + 1);
            self.undo_move::<false>(ply);
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
        if in_check && searched == 0 {
            return mated_in(ply);
        }
        if !use_tt || estimated {
            return best;
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
