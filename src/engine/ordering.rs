//! Move ordering: the table move first, then captures by most valuable victim / least valuable
//! attacker (captures that give up material to a guarded victim after the quiet moves), the
//! killer moves of the ply, the counter-move to the opponent's last move, and quiet moves by
//! their history score. The picker selects the best remaining move lazily, so a cut-off after
//! the first moves costs no full sort.

use crate::core::{Move, MoveList, Position, Shields, Square, GEN_ALL, GEN_CAPTURES, GEN_QUIETS};

use super::score::MAX_PLY;
use super::see::capture_loses;

/// Rough piece values for ordering (general, advisor, elephant, horse, chariot, cannon, soldier).
pub(crate) const ORDER_VALUE: [i32; 7] = [5000, 200, 200, 400, 900, 450, 100];

const GOOD_CAPTURE: i32 = 1 << 28;
/// Filler for move arrays (a move never starts and ends on one point); only the filled part
/// of an array is read.
pub(crate) const NO_MOVE: Move = Move::new(Square::from_u8(0), Square::from_u8(0));
/// History scores stay within this bound (so they never reach the killer band).
pub(crate) const HISTORY_MAX: i32 = 1 << 14;

pub(crate) use super::eval::role_of as role_of_code;
use super::eval::ROLE_OF;

/// Entries of the history table: 8,192 per side (a move's `from · 90 + to` is below 8,100).
const HISTORY_LEN: usize = 1 << 14;

/// Where the history of `side`'s move `m` is kept.
#[inline(always)]
fn history_index(side: usize, m: Move) -> usize {
    (side << 13 | (m.from.index() * 90 + m.to.index())) & (HISTORY_LEN - 1)
}

/// The ordering tables kept across searches of one game.
pub(crate) struct Ordering {
    /// The history of each side's moves, at [`history_index`] (one flat table of a power of
    /// two, so that a masked index needs no bounds test).
    history: [i32; HISTORY_LEN],
    /// Two killer moves per ply.
    killers: [[Option<Move>; 2]; MAX_PLY + 8],
    /// `counter[piece code][to]` of the previous move: the move that refuted it.
    counter: [[Option<Move>; 90]; 15],
}

impl Ordering {
    pub(crate) fn new() -> Ordering {
        Ordering {
            history: [0; HISTORY_LEN],
            killers: [[None; 2]; MAX_PLY + 8],
            counter: [[None; 90]; 15],
        }
    }

    pub(crate) fn clear(&mut self) {
        self.history = [0; HISTORY_LEN];
        self.killers = [[None; 2]; MAX_PLY + 8];
        self.counter = [[None; 90]; 15];
    }

    /// Age the history between searches so old preferences fade.
    pub(crate) fn age(&mut self) {
        for h in &mut self.history {
            *h /= 2;
        }
        self.killers = [[None; 2]; MAX_PLY + 8];
    }

    #[inline]
    pub(crate) fn history(&self, side: usize, m: Move) -> i32 {
        self.history[history_index(side, m)]
    }

    /// Reward (positive) or punish (negative) a quiet move, with gravity toward zero.
    #[inline]
    pub(crate) fn update_history(&mut self, side: usize, m: Move, bonus: i32) {
        let h = &mut self.history[history_index(side, m)];
        let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *h += b - *h * b.abs() / HISTORY_MAX;
    }

    #[inline]
    pub(crate) fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers[ply]
    }

    pub(crate) fn add_killer(&mut self, ply: usize, m: Move) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
    }

    /// The counter-move stored for the previous move `prev` (played by `code` to its square).
    #[inline]
    pub(crate) fn counter(&self, prev: Option<(u8, Move)>) -> Option<Move> {
        prev.and_then(|(c, m)| self.counter[c as usize][m.to.index()])
    }

    pub(crate) fn set_counter(&mut self, prev: Option<(u8, Move)>, m: Move) {
        if let Some((c, p)) = prev {
            self.counter[c as usize][p.to.index()] = Some(m);
        }
    }
}

/// How a move was picked (the search prunes and reduces by it).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The transposition table's move.
    Table,
    /// A capture that does not lose material at once.
    Capture,
    /// A killer or the counter-move.
    Killer,
    /// Another quiet move.
    Quiet,
    /// A capture of a guarded piece by a more valuable one.
    BadCapture,
    /// A reply to check.
    Evasion,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Stage {
    Table,
    GenCaptures,
    Captures,
    Refutations,
    GenQuiets,
    Quiets,
    Bad,
    GenEvasions,
    Evasions,
    Done,
}

/// Staged move ordering for the main search: the table move (before any generation), then
/// the captures, the killers and counter-move, and only then the quiet moves (generated when
/// reached), the losing captures last. In check, every evasion at once.
pub(crate) struct MovePicker {
    stage: Stage,
    tt: Option<Move>,
    refutations: [Option<Move>; 3],
    refutation_next: usize,
    moves: MoveList,
    scores: [i32; 128],
    next: usize,
    bad: [Move; 64],
    bad_len: usize,
    bad_next: usize,
    in_check: bool,
    /// What pins the side's pieces, found with the captures and kept for the killers and the
    /// quiet moves (not in check only; valid when `shielded`).
    shields: Shields,
    shielded: bool,
    /// Set by the search to skip the remaining quiet moves (late-move pruning).
    pub skip_quiets: bool,
}

impl MovePicker {
    /// A picker for a node (tests; the search resets one picker per ply instead).
    #[cfg(test)]
    pub(crate) fn new(
        tt: Option<Move>,
        ord: &Ordering,
        ply: usize,
        prev: Option<(u8, Move)>,
        in_check: bool,
    ) -> MovePicker {
        let mut p = MovePicker::empty();
        p.reset(tt, ord, ply, prev, in_check);
        p
    }

    /// A picker with nothing to pick, to be [`MovePicker::reset`] at each node.
    pub(crate) fn empty() -> MovePicker {
        MovePicker {
            stage: Stage::Done,
            tt: None,
            refutations: [None; 3],
            refutation_next: 0,
            moves: MoveList::new(),
            scores: [0; 128],
            next: 0,
            bad: [NO_MOVE; 64],
            bad_len: 0,
            bad_next: 0,
            in_check: false,
            shields: Shields::none(),
            shielded: false,
            skip_quiets: false,
        }
    }

    /// Start over at a node. The arrays of moves and scores are kept as they are (only their
    /// filled part is ever read), so a node neither clears nor copies them.
    #[inline]
    pub(crate) fn reset(
        &mut self,
        tt: Option<Move>,
        ord: &Ordering,
        ply: usize,
        prev: Option<(u8, Move)>,
        in_check: bool,
    ) {
        let k = ord.killers(ply);
        self.stage = if in_check && tt.is_none() {
            Stage::GenEvasions
        } else {
            Stage::Table
        };
        self.tt = tt;
        self.refutations = [k[0], k[1], ord.counter(prev)];
        self.refutation_next = 0;
        self.moves.clear();
        self.next = 0;
        self.bad_len = 0;
        self.bad_next = 0;
        self.in_check = in_check;
        self.shielded = false;
        self.skip_quiets = false;
    }

    /// Select the best-scored remaining move of the current list.
    #[inline]
    fn select(&mut self) -> Option<Move> {
        select_best(&mut self.moves, &mut self.scores, &mut self.next)
    }

    /// Generate the evasions, the captures or the quiet moves (by `mode`) into the list; the
    /// side's shields are found once, with the captures.
    fn load(&mut self, pos: &Position, mode: u8) {
        self.moves.clear();
        self.next = 0;
        if self.in_check {
            pos.gen_legal_known::<GEN_ALL>(true, &mut self.moves);
            return;
        }
        if mode == GEN_CAPTURES {
            // The shields are found only when a capture needs them (the same list in the same
            // order as generating with them).
            self.shielded = pos.gen_captures_unchecked_side(&mut self.moves, &mut self.shields);
        } else {
            self.shield(pos);
            pos.gen_legal_shielded::<GEN_QUIETS>(&self.shields, &mut self.moves);
        }
    }

    /// Find the side's shields unless they are known.
    #[inline]
    fn shield(&mut self, pos: &Position) {
        if !self.shielded {
            pos.shields_of_into(&mut self.shields);
            self.shielded = true;
        }
    }

    /// The next move and how it was picked, or `None` when all are done.
    pub(crate) fn next(&mut self, pos: &Position, ord: &Ordering) -> Option<(Move, Kind)> {
        loop {
            match self.stage {
                Stage::Table => {
                    self.stage = if self.in_check {
                        Stage::GenEvasions
                    } else {
                        Stage::GenCaptures
                    };
                    match self.tt {
                        Some(m) if pos.is_legal_known(m, self.in_check) => {
                            return Some((m, Kind::Table))
                        }
                        _ => self.tt = None,
                    }
                }
                Stage::GenCaptures => {
                    self.load(pos, GEN_CAPTURES);
                    for (i, m) in self.moves.as_slice().iter().enumerate() {
                        self.scores[i] = capture_score(pos, *m);
                    }
                    self.stage = Stage::Captures;
                }
                Stage::Captures => match self.select() {
                    Some(m) if Some(m) == self.tt => {}
                    Some(m) => {
                        let victim = ORDER_VALUE[role_of_code(pos.board[m.to.index()])];
                        let attacker = ORDER_VALUE[role_of_code(pos.board[m.from.index()])];
                        if victim < attacker
                            && self.bad_len < self.bad.len()
                            && capture_loses(pos, m)
                        {
                            self.bad[self.bad_len] = m;
                            self.bad_len += 1;
                        } else {
                            return Some((m, Kind::Capture));
                        }
                    }
                    None => self.stage = Stage::Refutations,
                },
                Stage::Refutations => {
                    if self.refutation_next >= 3 {
                        self.stage = Stage::GenQuiets;
                        continue;
                    }
                    let i = self.refutation_next;
                    self.refutation_next += 1;
                    let Some(m) = self.refutations[i] else {
                        continue;
                    };
                    let repeat = self.refutations[..i].contains(&Some(m));
                    if Some(m) != self.tt
                        && !repeat
                        && pos.board[m.to.index()] == 0
                        && pos.is_pseudo_legal(m)
                    {
                        self.shield(pos);
                        if pos.legal_shielded(m, &self.shields) {
                            return Some((m, Kind::Killer));
                        }
                    }
                    self.refutations[i] = None;
                }
                Stage::GenQuiets => {
                    if self.skip_quiets {
                        self.stage = Stage::Bad;
                        continue;
                    }
                    self.load(pos, GEN_QUIETS);
                    let side = pos.turn().index();
                    for (i, m) in self.moves.as_slice().iter().enumerate() {
                        self.scores[i] = quiet_score(ord, side, *m, i);
                    }
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if self.skip_quiets || self.next >= self.moves.len() {
                        self.stage = Stage::Bad;
                        continue;
                    }
                    // Most nodes stop after a few quiet moves: those are picked one by one, and
                    // only a list walked further is sorted, once, when the picking ends (the
                    // same order either way).
                    if self.next == PICKED_QUIETS {
                        sort_rest(&mut self.moves, &self.scores, self.next);
                    }
                    let m = if self.next >= PICKED_QUIETS {
                        self.next += 1;
                        self.moves.as_slice()[self.next - 1]
                    } else {
                        let Some(m) = self.select() else { continue };
                        m
                    };
                    if Some(m) != self.tt && !self.refutations.contains(&Some(m)) {
                        return Some((m, Kind::Quiet));
                    }
                }
                Stage::Bad => {
                    if self.bad_next < self.bad_len {
                        self.bad_next += 1;
                        return Some((self.bad[self.bad_next - 1], Kind::BadCapture));
                    } else {
                        self.stage = Stage::Done;
                    }
                }
                Stage::GenEvasions => {
                    self.load(pos, GEN_ALL);
                    let side = pos.turn().index();
                    for (i, m) in self.moves.as_slice().iter().enumerate() {
                        self.scores[i] = if pos.board[m.to.index()] != 0 {
                            GOOD_CAPTURE + capture_score(pos, *m)
                        } else {
                            ord.history(side, *m)
                        };
                    }
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => match self.select() {
                    Some(m) if Some(m) == self.tt => {}
                    Some(m) => return Some((m, Kind::Evasion)),
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }
}

/// Quiet moves picked one by one before the rest are sorted.
const PICKED_QUIETS: usize = 6;

/// The ordering score of the quiet move `m`, `i`-th in generation: higher history first, and
/// the generation order among equal histories (the index is part of the score, so no two
/// moves tie and picking and sorting agree).
#[inline]
fn quiet_score(ord: &Ordering, side: usize, m: Move, i: usize) -> i32 {
    // Histories stay within ±HISTORY_MAX, so the score fits in 16 bits above the index.
    (ord.history(side, m) << 7) - i as i32
}

/// Sort the moves from `from` on by their scores, best first (the scores are distinct).
#[inline]
fn sort_rest(moves: &mut MoveList, scores: &[i32; 128], from: usize) {
    let moves = moves.as_mut_slice();
    let n = moves.len();
    let mut keyed = [(0i32, NO_MOVE); 128];
    for i in from..n {
        keyed[i] = (scores[i], moves[i]);
    }
    keyed[from..n].sort_unstable_by_key(|k| std::cmp::Reverse(k.0));
    for i in from..n {
        moves[i] = keyed[i].1;
    }
}

/// Swap the best-scored move from `next` on into place `next` and hand it out.
#[inline(always)]
fn select_best(moves: &mut MoveList, scores: &mut [i32; 128], next: &mut usize) -> Option<Move> {
    let len = moves.len();
    if *next >= len {
        return None;
    }
    // The first of the highest scores (one bounds test for the whole scan, the best score
    // kept at hand).
    let mut best = *next;
    let mut top = scores[best];
    for (i, &s) in scores[..len].iter().enumerate().skip(*next + 1) {
        if s > top {
            top = s;
            best = i;
        }
    }
    moves.swap(*next, best);
    scores.swap(*next, best);
    let m = moves.as_slice()[*next];
    *next += 1;
    Some(m)
}

/// The two parts of [`capture_score`] by cell code (16 entries, so that a code masked to four
/// bits needs no bounds test): the victim's order value times 16, the attacker's divided by
/// 16.
const CAPTURE_PARTS: [(i32, i32); 16] = {
    let mut t = [(0, 0); 16];
    let mut code = 0;
    while code < 15 {
        let role = ROLE_OF[code] as usize;
        t[code] = (ORDER_VALUE[role] * 16, ORDER_VALUE[role] / 16);
        code += 1;
    }
    t
};

/// Most valuable victim, then least valuable attacker.
#[inline]
fn capture_score(pos: &Position, m: Move) -> i32 {
    let victim = pos.board[m.to.index()];
    let attacker = pos.board[m.from.index()];
    CAPTURE_PARTS[usize::from(victim & 15)].0 - CAPTURE_PARTS[usize::from(attacker & 15)].1
}

/// Captures only (for the quiescence search), by victim then attacker.
pub(crate) struct Captures {
    moves: MoveList,
    scores: [i32; 128],
    next: usize,
    shields: Shields,
}

impl Captures {
    /// An empty list, to be [`Captures::reset`] at each node.
    pub(crate) fn empty() -> Captures {
        Captures {
            moves: MoveList::new(),
            scores: [0; 128],
            next: 0,
            shields: Shields::none(),
        }
    }

    /// The captures of `pos` (the arrays are reused, not cleared).
    #[inline]
    pub(crate) fn reset(&mut self, pos: &Position) {
        self.moves.clear();
        self.next = 0;
        pos.gen_captures_unchecked_side(&mut self.moves, &mut self.shields);
        for (i, m) in self.moves.as_slice().iter().enumerate() {
            self.scores[i] = capture_score(pos, *m);
        }
    }

    #[inline]
    pub(crate) fn next(&mut self) -> Option<Move> {
        select_best(&mut self.moves, &mut self.scores, &mut self.next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(fen: &str, tt: Option<&str>, ord: &Ordering, ply: usize) -> Vec<(String, Kind)> {
        let pos = Position::from_fen(fen).unwrap();
        let mut p = MovePicker::new(
            tt.map(|s| Move::parse_iccs(s).unwrap()),
            ord,
            ply,
            None,
            pos.is_check(),
        );
        let mut out = Vec::new();
        while let Some((m, k)) = p.next(&pos, ord) {
            out.push((m.to_string(), k));
        }
        let mut all: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
        let mut got: Vec<String> = out.iter().map(|x| x.0.clone()).collect();
        all.sort();
        got.sort();
        assert_eq!(all, got, "every legal move exactly once");
        out
    }

    #[test]
    fn table_move_then_captures_by_victim_value_and_losing_captures_last() {
        // The red cannon b2 can take the chariot b9 over the soldier b5; the red chariot a0 can
        // take the soldier a6, which the chariot a9 guards: that capture loses material.
        let fen = "rr1k5/9/9/p8/1P7/9/9/1C7/9/R3K4 w";
        let o = order(fen, Some("e0e1"), &Ordering::new(), 0);
        assert_eq!(o[0], ("e0e1".to_string(), Kind::Table));
        assert_eq!(o[1], ("b2b9".to_string(), Kind::Capture));
        assert_eq!(
            o.last().cloned(),
            Some(("a0a6".to_string(), Kind::BadCapture))
        );
    }

    #[test]
    fn quiet_moves_come_by_history_best_first_in_generation_order_among_equals() {
        let mut ord = Ordering::new();
        let pos = Position::startpos();
        let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        // Ties (many zeros, repeated values), the extremes, and negative scores.
        for (i, m) in moves.iter().enumerate() {
            let bonus = match i % 5 {
                0 => 0,
                1 => 700,
                2 => -300,
                3 => HISTORY_MAX,
                _ => -HISTORY_MAX,
            };
            ord.update_history(0, *m, bonus);
            if i % 7 == 0 {
                ord.update_history(0, *m, bonus / 2 + 11);
            }
        }
        // The quiet ones (the cannons' two captures come in their own stages), picked one by
        // one and then sorted.
        let mut expected: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| pos.piece_at(m.to).is_none())
            .collect();
        expected.sort_by_key(|m| std::cmp::Reverse(ord.history(0, *m)));
        let got: Vec<Move> = {
            let mut p = MovePicker::new(None, &ord, 0, None, false);
            std::iter::from_fn(|| p.next(&pos, &ord))
                .filter(|x| x.1 == Kind::Quiet)
                .map(|x| x.0)
                .collect()
        };
        assert!(got.len() > PICKED_QUIETS);
        assert_eq!(got, expected);
        assert!(expected
            .windows(2)
            .any(|w| ord.history(0, w[0]) == ord.history(0, w[1])));
    }

    #[test]
    fn killers_come_before_other_quiet_moves_which_follow_history() {
        let mut ord = Ordering::new();
        let k = Move::parse_iccs("b0c2").unwrap();
        let h = Move::parse_iccs("h2e2").unwrap();
        ord.add_killer(3, k);
        ord.update_history(0, h, 400);
        let o = order(crate::core::START_FEN, None, &ord, 3);
        assert_eq!(o[0], ("b0c2".to_string(), Kind::Killer));
        assert_eq!(o[1], ("h2e2".to_string(), Kind::Quiet));
        assert_eq!(o.len(), 44);
        // A killer that is not legal here is skipped.
        ord.add_killer(4, Move::parse_iccs("a0a5").unwrap());
        let o = order(crate::core::START_FEN, None, &ord, 4);
        assert!(o.iter().all(|(m, _)| m != "a0a5"));
    }

    #[test]
    fn in_check_every_evasion_comes_at_once() {
        // The black chariot checks along the e-file; taking it leads.
        let fen = "3k5/9/9/9/R3r4/9/9/9/9/3AK4 w";
        let o = order(fen, None, &Ordering::new(), 0);
        assert!(o.iter().all(|(_, k)| *k == Kind::Evasion));
        assert_eq!(o[0].0, "a5e5");
    }

    #[test]
    fn skipping_quiet_moves_leaves_the_captures() {
        let pos = Position::from_fen("rr1k5/9/9/p8/1P7/9/9/1C7/9/R3K4 w").unwrap();
        let ord = Ordering::new();
        let mut p = MovePicker::new(None, &ord, 0, None, false);
        let first = p.next(&pos, &ord).unwrap();
        assert_eq!(first, (Move::parse_iccs("b2b9").unwrap(), Kind::Capture));
        p.skip_quiets = true;
        let rest: Vec<_> = std::iter::from_fn(|| p.next(&pos, &ord)).collect();
        assert_eq!(
            rest,
            vec![(Move::parse_iccs("a0a6").unwrap(), Kind::BadCapture)]
        );
    }
}
