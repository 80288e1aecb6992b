//! Static exchange evaluation: what a move wins or loses on its destination point when both
//! sides then capture there in turn, each with its least valuable piece that can, and each free
//! to stop when going on would cost it.
//!
//! The attackers are found on the board as the exchange leaves it: a piece that has taken is
//! gone from its point, so a chariot or cannon behind it on a line comes into play (x-rays), a
//! cannon hits through exactly one screen as the screens come and go, a horse needs its leg
//! free and an elephant its eye, advisors and generals step inside their palace. A capture that
//! would leave the two generals facing on an open file is not made. Other pins are not looked
//! at, and a general that is taken ends the exchange (the game is over).

use crate::core::lines::{LineMask, Occupancy};
use crate::core::tables::{ATTACK_FROM, ELEPHANT_MOVES, HORSE_ATTACKERS, SQ_BITS};
use crate::core::{code_of, Color, Move, Position, Role};

use super::eval::role_of;

/// What taking a general is worth here: more than everything else on the board, so an
/// exchange never hands over the general to win material.
const SEE_GENERAL: i32 = 20_000;

/// Exchange values by role (general, advisor, elephant, horse, chariot, cannon, soldier).
pub(crate) const SEE_VALUE: [i32; 7] = [SEE_GENERAL, 200, 200, 400, 900, 450, 100];

/// The roles in the order an exchange sends them in: least valuable first (the advisor before
/// the elephant of the same value).
const LVA: [Role; 7] = [
    Role::Soldier,
    Role::Advisor,
    Role::Elephant,
    Role::Horse,
    Role::Cannon,
    Role::Chariot,
    Role::General,
];

/// The board as an exchange on one point leaves it.
struct Exchange<'a> {
    pos: &'a Position,
    /// The point fought over.
    t: usize,
    /// What stands where: the pieces that have moved to `t` are gone from their points.
    occ: Occupancy,
    /// The points those pieces left.
    gone: u128,
    /// Where each side's general stands (on `t` once it has taken there).
    generals: [usize; 2],
}

/// The board points of the bits of `mask` on rank `r`.
#[inline]
fn rank_points(mut mask: LineMask, r: usize) -> u128 {
    let mut out = 0;
    while mask != 0 {
        out |= SQ_BITS[r * 9 + mask.trailing_zeros() as usize];
        mask &= mask - 1;
    }
    out
}

/// The board points of the bits of `mask` on file `f`.
#[inline]
fn file_points(mut mask: LineMask, f: usize) -> u128 {
    let mut out = 0;
    while mask != 0 {
        out |= SQ_BITS[mask.trailing_zeros() as usize * 9 + f];
        mask &= mask - 1;
    }
    out
}

/// Whether generals on `a` and `b` face each other along a file with nothing between.
#[inline]
fn facing(occ: &Occupancy, a: usize, b: usize) -> bool {
    if a % 9 != b % 9 {
        return false;
    }
    let (lo, hi) = (a.min(b) / 9, a.max(b) / 9);
    let between: LineMask = ((1 << hi) - 1) & !((1 << (lo + 1)) - 1);
    occ.files[a % 9] & between == 0
}

impl Exchange<'_> {
    /// The points of `side`'s pieces of `role` that can take on `t` now.
    #[inline]
    fn attackers(&self, side: Color, role: Role) -> u128 {
        let code = code_of(side, role) as usize;
        let bits = self.pos.code_bits[code] & !self.gone;
        if bits == 0 {
            return 0;
        }
        let t = self.t;
        match role {
            Role::Soldier => bits & ATTACK_FROM.soldier[side.index()][t],
            Role::Advisor => bits & ATTACK_FROM.advisor[t],
            Role::General => bits & ATTACK_FROM.general[t],
            Role::Elephant => {
                let mut out = 0;
                for &(s, eye) in &ELEPHANT_MOVES.moves[t][..ELEPHANT_MOVES.len[t] as usize] {
                    if bits & SQ_BITS[s as usize] != 0 && !self.occ.has(eye as usize) {
                        out |= SQ_BITS[s as usize];
                    }
                }
                out
            }
            Role::Horse => {
                let bits = bits & ATTACK_FROM.horse[t];
                if bits == 0 {
                    return 0;
                }
                let mut out = 0;
                for &(s, leg) in &HORSE_ATTACKERS.moves[t][..HORSE_ATTACKERS.len[t] as usize] {
                    if bits & SQ_BITS[s as usize] != 0 && !self.occ.has(leg as usize) {
                        out |= SQ_BITS[s as usize];
                    }
                }
                out
            }
            Role::Chariot | Role::Cannon => {
                let (rank, file) = self.occ.lines(t);
                let (on_rank, on_file) = if role == Role::Chariot {
                    (rank.slide, file.slide)
                } else {
                    (rank.cannon, file.cannon)
                };
                let lines = &self.pos.code_lines[code];
                let (r, f) = (t / 9, t % 9);
                (rank_points(on_rank & lines.ranks[r], r)
                    | file_points(on_file & lines.files[f], f))
                    & bits
            }
        }
    }

    /// Move `side`'s piece of `role` from `s` to `t` (taking what stands there), unless that
    /// leaves the generals facing (which does not matter when it takes the general `king`:
    /// that ends the game); returns whether it was made.
    #[inline]
    fn take(&mut self, side: Color, role: Role, s: usize, king: bool) -> bool {
        let mut occ = self.occ;
        occ.clear(s);
        let mut generals = self.generals;
        if role == Role::General {
            generals[side.index()] = self.t;
        }
        if !king && facing(&occ, generals[0], generals[1]) {
            return false;
        }
        self.occ = occ;
        self.generals = generals;
        self.gone |= SQ_BITS[s];
        true
    }

    /// `side`'s least valuable piece that can take on `t` (the lowest point among equals),
    /// moved there; its role, or `None` when it has none.
    fn capture(&mut self, side: Color, king: bool) -> Option<Role> {
        for role in LVA {
            let mut bits = self.attackers(side, role);
            while bits != 0 {
                let s = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if self.take(side, role, s, king) {
                    return Some(role);
                }
            }
        }
        None
    }
}

/// The static exchange evaluation of `m` (a capture or a quiet move of the side to move, legal
/// in `pos`): the material it wins (positive) or loses (negative) on its destination, in
/// [`SEE_VALUE`]s, when the opponent answers by taking there and so on, least valuable pieces
/// first, each side stopping when it is better off.
pub(crate) fn see(pos: &Position, m: Move) -> i32 {
    let (from, t) = (m.from.index(), m.to.index());
    let mover = pos.board[from];
    let victim = pos.board[t];
    let us = if mover <= 7 { Color::Red } else { Color::Black };
    let mut x = Exchange {
        pos,
        t,
        occ: pos.occ,
        gone: SQ_BITS[from],
        generals: [
            pos.general_square(Color::Red).index(),
            pos.general_square(Color::Black).index(),
        ],
    };
    x.occ.clear(from);
    x.occ.set(t);
    // gain[d]: what the side making the d-th capture has won if the exchange stops there.
    let mut gain = [0i32; 34];
    gain[0] = if victim == 0 {
        0
    } else {
        SEE_VALUE[role_of(victim)]
    };
    // Most destinations are not attacked at all (the general's steps and palace counted, the
    // facing generals not: a superset of the captures below).
    if !pos.square_hit(&x.occ, t, us.other(), t) {
        return gain[0];
    }
    let mut on_t = role_of(mover);
    if on_t == Role::General.index() {
        x.generals[us.index()] = t;
    }
    let mut d = 0;
    let mut side = us.other();
    while d + 1 < gain.len() {
        let king = on_t == Role::General.index();
        let Some(role) = x.capture(side, king) else {
            break;
        };
        d += 1;
        gain[d] = SEE_VALUE[on_t] - gain[d - 1];
        if king {
            break; // the general is taken: the game is over
        }
        on_t = role.index();
        side = side.other();
    }
    // Back up: each side takes only when taking is better than stopping.
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// Whether the capture `m` loses material by [`see`].
#[inline]
pub(crate) fn capture_loses(pos: &Position, m: Move) -> bool {
    see(pos, m) < 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{next_random, Piece, Square, NO_POINT};

    #[test]
    fn attacks_by_every_kind_of_piece() {
        let p = Position::from_fen("3k5/4a4/9/9/2n6/9/9/1c2p4/9/4K4 w").unwrap();
        let at = |s: &str, by: usize| {
            let by = if by == 0 { Color::Red } else { Color::Black };
            p.square_hit(
                &p.occ,
                crate::core::Square::parse(s).unwrap().index(),
                by,
                NO_POINT,
            )
        };
        assert!(
            !at("b5", 1),
            "the horse c5 does not reach b5, the cannon b2 has no screen"
        );
        assert!(at("d3", 1), "horse c5 over its free leg c4");
        assert!(at("e1", 1), "the soldier e2 steps forward to e1");
        assert!(at("d2", 1), "a crossed soldier steps sideways");
        assert!(!at("b0", 1), "the cannon b2 needs a screen");
        assert!(at("g2", 1), "the cannon b2 over the screen e2");
        assert!(at("f9", 1), "the advisor e8");
        assert!(at("e9", 1), "the general d9");
        assert!(!at("a9", 1));
    }

    fn see_of(fen: &str, mv: &str) -> i32 {
        let p = Position::from_fen(fen).unwrap();
        let m = Move::parse_iccs(mv).unwrap();
        assert!(p.legal_moves().contains(m), "{mv} is legal in {fen}");
        see(&p, m)
    }

    #[test]
    fn exchanges_by_hand() {
        // An unguarded soldier.
        assert_eq!(see_of("3k5/9/9/9/p8/9/9/9/9/R3K4 w", "a0a5"), 100);
        // A soldier guarded by a chariot: the chariot is lost for it.
        assert_eq!(see_of("r2k5/9/9/9/p8/9/9/9/9/R3K4 w", "a0a5"), 100 - 900);
        // A cannon takes a horse over its soldier; the chariot a4 could take the cannon, but
        // the soldier would take the chariot, so it stays back.
        let fen = "3k5/9/9/9/9/r1h6/2P6/9/2C6/4K4 w";
        assert_eq!(see_of(fen, "c1c4"), 400);
        // The soldier takes instead: the chariot takes it back, and nothing is left to go on.
        assert_eq!(see_of(fen, "c3c4"), 400 - 100);
        // The chariot behind the chariot (an x-ray): chariot takes chariot, the chariot a9
        // takes back, the chariot a1 takes again.
        assert_eq!(see_of("r2k5/r8/9/9/9/9/9/R8/R8/4K4 w", "a2a8"), 900);
        // A cannon behind its own chariot hits over it, and loses that screen when the
        // chariot goes first.
        let fen = "r2k5/9/9/9/h8/9/9/R8/C8/4K4 w";
        assert_eq!(see_of(fen, "a2a5"), 400 - 900);
        assert_eq!(see_of(fen, "a1a5"), 400);
        // A cannon with two pieces in front gains its screen when the nearer one takes: the
        // chariot a1 takes the soldier a6, the chariot a7 takes back, the chariot a0 behind
        // takes again, and now the cannon a9 hits a6 over the horse a8.
        let fen = "c2k5/n8/r8/p8/9/9/9/9/R8/R3K4 w";
        assert_eq!(see_of(fen, "a1a6"), 100 - 900);
        // A horse needs its leg free: the horse a5 guards c4 over b5, not when b5 is taken.
        assert_eq!(see_of("3k5/9/9/9/h8/2p6/9/9/2R6/4K4 w", "c1c4"), 100 - 900);
        assert_eq!(see_of("3k5/9/9/9/hn7/2p6/9/9/2R6/4K4 w", "c1c4"), 100);
        // An elephant needs its eye free: the elephant c5 guards e7 over d6.
        assert_eq!(see_of("5k3/9/4n4/9/2e6/9/9/9/4R4/3K5 w", "e1e7"), 400 - 900);
        assert_eq!(see_of("5k3/9/4n4/3n5/2e6/9/9/9/4R4/3K5 w", "e1e7"), 400);
        // The general takes back in its palace, but not where it would face the other
        // general, nor where the piece it takes is guarded.
        assert_eq!(see_of("4k4/4a4/9/9/9/9/9/9/4R4/3K5 w", "e1e8"), 200 - 900);
        assert_eq!(see_of("4k4/4a4/9/9/9/9/9/9/4R4/4K4 w", "e1e8"), 200);
        assert_eq!(see_of("4k4/4a4/2N6/9/9/9/9/9/4R4/3K5 w", "e1e8"), 200);
        // A quiet move onto a guarded point loses the piece; onto a point guarded by a
        // cheaper piece it loses the difference it would not win back.
        assert_eq!(see_of("r2k5/9/9/9/9/9/9/9/9/R3K4 w", "a0a5"), -900);
        assert_eq!(see_of("3k5/9/9/9/9/9/9/9/9/R3K4 w", "a0a5"), 0);
    }

    /// The brute force the exchange evaluation must agree with, on a real board: the side to
    /// move takes on `t` with its least valuable piece that can by the movement rules (the
    /// lowest point among equals; not leaving the generals facing), or stops; the best of the
    /// two, found by playing the captures out.
    fn brute(pos: &mut Position, t: usize, side: Color) -> i32 {
        let mut cands: Vec<(usize, usize)> = Vec::new();
        for s in 0..90 {
            let c = pos.board[s];
            if c == 0 {
                continue;
            }
            let piece = Piece::new(
                if c <= 7 { Color::Red } else { Color::Black },
                Role::ALL[role_of(c)],
            );
            if piece.color != side {
                continue;
            }
            let moves = pos.piece_moves(Square::from_u8(s as u8));
            if moves.iter().any(|m| m.to.index() == t) {
                let rank = LVA.iter().position(|r| *r == piece.role).unwrap();
                cands.push((rank, s));
            }
        }
        cands.sort();
        for (_, s) in cands {
            let m = Move::new(Square::from_u8(s as u8), Square::from_u8(t as u8));
            let taken = role_of(pos.board[t]);
            if taken == Role::General.index() {
                return SEE_GENERAL; // the game is over
            }
            let u = pos.make(m);
            if generals_face(pos) {
                pos.unmake(m, u);
                continue;
            }
            let v = SEE_VALUE[taken] - brute(pos, t, side.other());
            pos.unmake(m, u);
            return v.max(0);
        }
        0
    }

    /// Whether the generals face each other on an open file (a walk of the board).
    fn generals_face(pos: &Position) -> bool {
        let find = |code: u8| (0..90).find(|&s| pos.board[s] == code);
        let (Some(a), Some(b)) = (
            find(code_of(Color::Red, Role::General)),
            find(code_of(Color::Black, Role::General)),
        ) else {
            return false;
        };
        if a % 9 != b % 9 {
            return false;
        }
        ((a.min(b) + 9)..a.max(b))
            .step_by(9)
            .all(|s| pos.board[s] == 0)
    }

    /// The exchange of the legal move `m` by brute force.
    fn brute_see(pos: &Position, m: Move) -> i32 {
        let t = m.to.index();
        let victim = pos.board[t];
        let value = if victim == 0 {
            0
        } else {
            SEE_VALUE[role_of(victim)]
        };
        let mut p = pos.clone();
        let side = p.turn().other();
        p.make(m);
        value - brute(&mut p, t, side)
    }

    /// A random legal position: pieces of both sides dropped on the points their kind may
    /// stand on, most of them, with the side to move not giving check.
    fn random_position(state: &mut u64) -> Option<Position> {
        let mut cells: [Option<Piece>; 90] = [None; 90];
        let place = |cells: &mut [Option<Piece>; 90],
                     p: Piece,
                     ok: &dyn Fn(usize) -> bool,
                     state: &mut u64| {
            for _ in 0..40 {
                let s = (next_random(state) % 90) as usize;
                if cells[s].is_none() && ok(s) {
                    cells[s] = Some(p);
                    return;
                }
            }
        };
        for color in [Color::Red, Color::Black] {
            let own = move |s: usize| (s / 9 <= 4) == (color == Color::Red);
            let palace =
                move |s: usize| own(s) && (3..=5).contains(&(s % 9)) && (s / 9 <= 2 || s / 9 >= 7);
            let counts = [1, 2, 2, 2, 2, 2, 5];
            for (i, role) in Role::ALL.iter().enumerate() {
                let n = if i == 0 {
                    1
                } else {
                    (next_random(state) % (counts[i] + 1)) as usize
                };
                for _ in 0..n {
                    let p = Piece::new(color, *role);
                    match role {
                        Role::General => place(&mut cells, p, &palace, state),
                        Role::Advisor => place(
                            &mut cells,
                            p,
                            &|s| palace(s) && crate::core::tables::advisor_point(s),
                            state,
                        ),
                        Role::Elephant => place(
                            &mut cells,
                            p,
                            &|s| own(s) && crate::core::tables::elephant_point(s),
                            state,
                        ),
                        Role::Soldier => place(
                            &mut cells,
                            p,
                            &|s| {
                                let r = s / 9;
                                let rel = if color == Color::Red { r } else { 9 - r };
                                rel >= 5 || (rel >= 3 && (s % 9) % 2 == 0)
                            },
                            state,
                        ),
                        _ => place(&mut cells, p, &|_| true, state),
                    }
                }
            }
        }
        let mut fen = String::new();
        for r in (0..10).rev() {
            let mut empty = 0;
            for f in 0..9 {
                match cells[r * 9 + f] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            fen.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let ch = ['k', 'a', 'b', 'n', 'r', 'c', 'p'][p.role as usize];
                        fen.push(if p.color == Color::Red {
                            ch.to_ascii_uppercase()
                        } else {
                            ch
                        });
                    }
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if r > 0 {
                fen.push('/');
            }
        }
        fen.push_str(if next_random(state).is_multiple_of(2) {
            " w"
        } else {
            " b"
        });
        Position::from_fen(&fen).ok()
    }

    /// The exchange evaluation agrees with the brute force on every legal capture and on
    /// quiet moves of many random positions, and of positions along games.
    #[test]
    fn see_agrees_with_the_brute_force_exchange() {
        let mut state = 0x5EE_u64;
        let mut positions = 0;
        let mut tested = 0;
        let mut nonzero_replies = 0;
        let check = |pos: &Position, tested: &mut usize, nonzero: &mut usize| {
            for &m in pos.legal_moves().iter() {
                let capture = pos.board[m.to.index()] != 0;
                if !capture && m.from.index() % 3 != 0 {
                    continue; // a sample of the quiet moves
                }
                let got = see(pos, m);
                let want = brute_see(pos, m);
                assert_eq!(got, want, "{m} in {pos:?}");
                let plain = if capture {
                    SEE_VALUE[role_of(pos.board[m.to.index()])]
                } else {
                    0
                };
                if got != plain {
                    *nonzero += 1;
                }
                *tested += 1;
            }
        };
        while positions < 4000 {
            let Some(pos) = random_position(&mut state) else {
                continue;
            };
            if pos.legal_moves().is_empty() {
                continue;
            }
            positions += 1;
            check(&pos, &mut tested, &mut nonzero_replies);
        }
        // Positions of games that take whenever they can.
        for game in 0..20u64 {
            let mut p = Position::startpos();
            let mut s = game.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            for _ in 0..120 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                check(&p, &mut tested, &mut nonzero_replies);
                let caps: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| p.board[m.to.index()] != 0)
                    .collect();
                let m = if !caps.is_empty() && next_random(&mut s).is_multiple_of(2) {
                    caps[(next_random(&mut s) % caps.len() as u64) as usize]
                } else {
                    moves.as_slice()[(next_random(&mut s) % moves.len() as u64) as usize]
                };
                p.play(m).unwrap();
            }
        }
        // Enough moves, and enough of them with an exchange that changes their worth.
        assert!(tested > 40_000, "{tested}");
        assert!(nonzero_replies > 1_000, "{nonzero_replies} of {tested}");
    }
}
