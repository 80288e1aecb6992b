//! Move ordering: the table move first, then captures by most valuable victim / least valuable
//! attacker (captures that give up material to a guarded victim after the quiet moves), the
//! killer moves of the ply, the counter-move to the opponent's last move, and quiet moves by
//! their history score. The picker selects the best remaining move lazily, so a cut-off after
//! the first moves costs no full sort.

use crate::core::{Move, MoveList, Position};

use super::score::MAX_PLY;
use super::see::capture_loses;

/// Rough piece values for ordering (general, advisor, elephant, horse, chariot, cannon, soldier).
pub(crate) const ORDER_VALUE: [i32; 7] = [5000, 200, 200, 400, 900, 450, 100];

const TT_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
const COUNTER: i32 = (1 << 27) - 8;
const BAD_CAPTURE: i32 = -(1 << 28);
/// History scores stay within this bound (so they never reach the killer band).
pub(crate) const HISTORY_MAX: i32 = 1 << 14;

#[inline]
pub(crate) fn role_of_code(c: u8) -> usize {
    usize::from((c - 1) % 7)
}

/// The ordering tables kept across searches of one game.
pub(crate) struct Ordering {
    /// `history[side][from][to]`.
    history: Vec<[[i32; 90]; 90]>,
    /// Two killer moves per ply.
    killers: [[Option<Move>; 2]; MAX_PLY + 8],
    /// `counter[piece code][to]` of the previous move: the move that refuted it.
    counter: [[Option<Move>; 90]; 15],
}

impl Ordering {
    pub(crate) fn new() -> Ordering {
        Ordering {
            history: vec![[[0; 90]; 90]; 2],
            killers: [[None; 2]; MAX_PLY + 8],
            counter: [[None; 90]; 15],
        }
    }

    pub(crate) fn clear(&mut self) {
        for h in &mut self.history {
            *h = [[0; 90]; 90];
        }
        self.killers = [[None; 2]; MAX_PLY + 8];
        self.counter = [[None; 90]; 15];
    }

    /// Age the history between searches so old preferences fade.
    pub(crate) fn age(&mut self) {
        for side in &mut self.history {
            for row in side.iter_mut() {
                for h in row.iter_mut() {
                    *h /= 2;
                }
            }
        }
        self.killers = [[None; 2]; MAX_PLY + 8];
    }

    #[inline]
    pub(crate) fn history(&self, side: usize, m: Move) -> i32 {
        self.history[side][m.from.index()][m.to.index()]
    }

    /// Reward (positive) or punish (negative) a quiet move, with gravity toward zero.
    #[inline]
    pub(crate) fn update_history(&mut self, side: usize, m: Move, bonus: i32) {
        let h = &mut self.history[side][m.from.index()][m.to.index()];
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

/// Moves with their ordering scores, handed out best first.
pub(crate) struct Picker {
    moves: [Move; 128],
    scores: [i32; 128],
    len: usize,
    next: usize,
}

impl Picker {
    /// Score `list` for the position `pos` (the side to move is the mover).
    pub(crate) fn new(
        pos: &Position,
        list: &MoveList,
        tt_move: Option<Move>,
        ord: &Ordering,
        ply: usize,
        prev: Option<(u8, Move)>,
    ) -> Picker {
        let mut p = Picker {
            moves: [Move::new(list_dummy(), list_dummy()); 128],
            scores: [0; 128],
            len: 0,
            next: 0,
        };
        let side = pos.turn().index();
        let killers = ord.killers(ply);
        let counter = ord.counter(prev);
        for &m in list.iter() {
            let s = if Some(m) == tt_move {
                TT_MOVE
            } else {
                let victim = pos.board[m.to.index()];
                if victim != 0 {
                    let attacker = pos.board[m.from.index()];
                    let mvv = ORDER_VALUE[role_of_code(victim)];
                    let lva = ORDER_VALUE[role_of_code(attacker)];
                    if mvv < lva && capture_loses(pos, m) {
                        BAD_CAPTURE + mvv * 16 - lva / 16
                    } else {
                        GOOD_CAPTURE + mvv * 16 - lva / 16
                    }
                } else if Some(m) == killers[0] {
                    KILLER
                } else if Some(m) == killers[1] {
                    KILLER - 1
                } else if Some(m) == counter {
                    COUNTER
                } else {
                    ord.history(side, m)
                }
            };
            p.moves[p.len] = m;
            p.scores[p.len] = s;
            p.len += 1;
        }
        p
    }

    /// Captures only (for the quiescence search), by victim then attacker.
    pub(crate) fn captures(pos: &Position, list: &MoveList) -> Picker {
        let mut p = Picker {
            moves: [Move::new(list_dummy(), list_dummy()); 128],
            scores: [0; 128],
            len: 0,
            next: 0,
        };
        for &m in list.iter() {
            let victim = pos.board[m.to.index()];
            if victim == 0 {
                continue;
            }
            let attacker = pos.board[m.from.index()];
            p.moves[p.len] = m;
            p.scores[p.len] =
                ORDER_VALUE[role_of_code(victim)] * 16 - ORDER_VALUE[role_of_code(attacker)] / 16;
            p.len += 1;
        }
        p
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The best remaining move and its score.
    #[inline]
    pub(crate) fn next(&mut self) -> Option<(Move, i32)> {
        if self.next >= self.len {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..self.len {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let r = (self.moves[self.next], self.scores[self.next]);
        self.next += 1;
        Some(r)
    }
}

#[inline]
fn list_dummy() -> crate::core::Square {
    crate::core::Square::from_index(0).unwrap_or_else(|| unreachable!())
}

/// Whether an ordering score belongs to a capture that is not losing, a killer or counter.
#[inline]
pub(crate) fn is_tactical_score(s: i32) -> bool {
    s >= COUNTER
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(fen: &str, tt: Option<&str>) -> Vec<String> {
        let pos = Position::from_fen(fen).unwrap();
        let list = pos.legal_moves();
        let ord = Ordering::new();
        let mut p = Picker::new(
            &pos,
            &list,
            tt.map(|s| Move::parse_iccs(s).unwrap()),
            &ord,
            0,
            None,
        );
        let mut out = Vec::new();
        while let Some((m, _)) = p.next() {
            out.push(m.to_string());
        }
        out
    }

    #[test]
    fn table_move_then_captures_by_victim_value() {
        // The red cannon b2 can take the chariot b9 over the soldier b5; the red chariot a0 can
        // take the soldier a6, which the chariot a9 guards: that capture loses material.
        let fen = "rr1k5/9/9/p8/1P7/9/9/1C7/9/R3K4 w";
        let o = order(fen, Some("e0e1"));
        assert_eq!(o[0], "e0e1");
        assert_eq!(o[1], "b2b9", "{o:?}");
        assert_eq!(o.last().map(String::as_str), Some("a0a6"), "{o:?}");
    }

    #[test]
    fn a_losing_capture_comes_after_quiet_moves() {
        // The red chariot can take a soldier guarded by a chariot: a bad trade, ordered last.
        let fen = "3k5/9/9/r8/p8/9/9/9/9/R3K4 w";
        let o = order(fen, None);
        assert_eq!(o.last().map(String::as_str), Some("a0a5"), "{o:?}");
    }

    #[test]
    fn killers_and_history_order_the_quiet_moves() {
        let pos = Position::startpos();
        let list = pos.legal_moves();
        let mut ord = Ordering::new();
        let k = Move::parse_iccs("b0c2").unwrap();
        let h = Move::parse_iccs("h2e2").unwrap();
        ord.add_killer(3, k);
        ord.update_history(0, h, 400);
        let mut p = Picker::new(&pos, &list, None, &ord, 3, None);
        assert_eq!(p.next().map(|x| x.0), Some(k));
        assert_eq!(p.next().map(|x| x.0), Some(h));
        assert_eq!(p.len(), 44);
    }
}
