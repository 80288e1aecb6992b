//! Classifying a ply as check, chase (with its victims), kill or idle (RULES.md §4).
//!
//! A *threat* is a pair (attacker, victim) that would make a chase if it were new: the attacker
//! may capture the victim legally, the victim is neither a general nor an uncrossed soldier, the
//! attacker is neither a general nor (unless the ruleset says so) a soldier, and either the
//! attacker is a horse or cannon hitting a chariot, or the victim has no real root (no piece that
//! could legally take back), and it is not an offer to trade like for like. A ply chases the
//! victims of the threats that exist after it and did not exist before it; that comparison
//! covers direct and discovered attacks, new cannon screens, and defenders removed or pinned.
//!
//! A *kill* (杀, threat to mate) is a ply that gives no check but after which the mover, were
//! it to move again at once, would have a mating move ([`super::kill::mate_threat`]). Readings
//! of the rulebooks built in here, besides the two on chases in [`is_new`] and [`defends`]:
//!
//! * A kill is its own class, neither an attack nor idle: perpetual kill, one check one kill,
//!   one chase one kill and kill + idle are allowed, so such cycles are draws unless something
//!   else is forbidden (the AXF/WXF rulebook, rules 9, 10, 13 and diagrams 6–10, 99, 104;
//!   the Vietnamese rules §6b and games 3–4; the CXQ rules allow "threatening mate"). Table O
//!   forbids a mix only when it pairs a check or chase with an idle ply (or checks with
//!   chases), and a side that keeps threatening mate is not the idle side it shields.
//! * A chase that exists only through the kill is not a chase: on a kill ply, a protector that
//!   the ply itself pinned against its general (or a general it left facing the other one)
//!   still counts as a root; the ply tied it to guarding its general, and what it guards is
//!   not "chased" by a piece that was attacking it all along. "Pinned by the ply" is read
//!   from geometry: the ply arrived on or left the line from the general through the
//!   protector, or brought a horse whose leg the protector is.
//! * Every other chase made by a kill ply stays a chase: when a move reads two ways, the
//!   rulebook takes the one that may be forbidden. That includes a protector pinned before
//!   the ply (diagram 6: the cannon on e6 already pins the elephant guarding g9, so R2=3
//!   chases it; the cycle is a draw because every other move is idle) and a capture that
//!   would itself mate (diagram 56, "gunmount unprotected piece", is a perpetual chase).
//! * The threat is a mate by a series of checks after a pass, up to three moves of the mover
//!   ([`super::kill::SERIES`]): the rulebook's diagram 9 calls a mate reached by a run of
//!   soldier checks an "implied" threat and rules one threat and one implied threat a draw.
//!   So a ply whose mate needs two or three checks is a kill, and the protectors it pins are
//!   tied to their general exactly as for a mate in one. A longer or quiet threat is classed
//!   idle, which every verdict table treats the same way.

use crate::core::{Color, Move, PieceId, Position, Role, Square};

use super::kill::mate_threat;

/// One victim of a chasing ply and the pieces that chase it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Victim {
    /// The chased piece (followed by identity).
    pub id: PieceId,
    /// Where it stands after the ply.
    pub at: Square,
    /// The chasing pieces.
    pub attackers: Vec<PieceId>,
    /// Whether it has a real root (it is then chased only as a chariot hit by a horse/cannon,
    /// or because its defender was pinned or removed; `false` means unprotected).
    pub protected: bool,
}

/// The class of a ply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlyClass {
    /// The opponent's general is attacked after the ply.
    Check {
        /// Pieces giving check (two for a double check).
        checkers: Vec<PieceId>,
        /// Pieces the same ply also chases (often none).
        victims: Vec<Victim>,
    },
    /// New chase threats; never empty.
    Chase {
        /// The chased pieces.
        victims: Vec<Victim>,
    },
    /// A threat to mate (杀, "kill"): no check and no chase, but were it the mover's turn again
    /// it would have a mating move. Allowed forever, like an idle move.
    Kill {
        /// A mating move the mover threatens (played from the position after the ply, with
        /// the mover to move again).
        mate: Move,
    },
    /// None of these.
    Idle,
}

impl PlyClass {
    /// Whether this is a check.
    #[must_use]
    pub fn is_check(&self) -> bool {
        matches!(self, PlyClass::Check { .. })
    }

    /// Whether this is a chase.
    #[must_use]
    pub fn is_chase(&self) -> bool {
        matches!(self, PlyClass::Chase { .. })
    }

    /// Whether this is a threat to mate (and neither a check nor a chase).
    #[must_use]
    pub fn is_kill(&self) -> bool {
        matches!(self, PlyClass::Kill { .. })
    }

    /// Whether the ply attacks in the sense of the repetition tables and counts: a check or a
    /// chase. A kill is not an attack: threatening mate is allowed, however often.
    #[must_use]
    pub fn is_attack(&self) -> bool {
        matches!(self, PlyClass::Check { .. } | PlyClass::Chase { .. })
    }

    /// The chased pieces (a check may chase too).
    #[must_use]
    pub fn victims(&self) -> &[Victim] {
        match self {
            PlyClass::Chase { victims } | PlyClass::Check { victims, .. } => victims,
            PlyClass::Kill { .. } | PlyClass::Idle => &[],
        }
    }

    /// The chased pieces' identities.
    #[must_use]
    pub fn victim_ids(&self) -> Vec<PieceId> {
        self.victims().iter().map(|v| v.id).collect()
    }

    /// A short lower-case name: `check`, `chase`, `kill`, `idle`.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            PlyClass::Check { .. } => "check",
            PlyClass::Chase { .. } => "chase",
            PlyClass::Kill { .. } => "kill",
            PlyClass::Idle => "idle",
        }
    }
}

/// How a protector could take back on the victim's point after the capture.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Root {
    /// Legally: a real root.
    Real,
    /// Not legally, because the protector is pinned against its general (or, for the general
    /// itself, would face the other general), and the ply just made can be what pinned it (it
    /// moved on the pinning line, see [`pins`]): a false root, but one the ply tied to
    /// guarding the general (see [`Attack::threat_when`]).
    Tied,
    /// Not legally otherwise: pinned already before the ply, or a general that would take
    /// back onto a guarded point. A false root.
    False,
}

/// A capture that some piece of the attacking side could make by its movement rules, with
/// everything that decides whether it is a chase threat.
#[derive(Clone, Debug)]
struct Attack {
    attacker: PieceId,
    victim: PieceId,
    /// The capture would not expose the attacker's own general.
    legal: bool,
    /// A horse or cannon hitting a chariot: a chase whether protected or not.
    heavy_on_chariot: bool,
    /// Pieces that could take back on the victim's point by their movement rules after the
    /// capture, and how (a pinned protector is a false root).
    roots: Vec<(PieceId, Root)>,
    /// An offer to trade like for like: the victim could legally take the attacker.
    trade: bool,
}

impl Attack {
    fn protected(&self) -> bool {
        self.roots.iter().any(|&(_, r)| r == Root::Real)
    }

    fn is_threat(&self) -> bool {
        self.threat_when(false)
    }

    /// Whether this is a chase threat. On a ply that threatens mate (`kill`), a protector
    /// that the ply has just pinned against its general (or a general it has just left
    /// facing the other general) still counts as a root: the ply tied it to guarding its
    /// general, and a "chase" that exists only through that is part of the mate threat, not
    /// a threat to win material. A protector pinned before the ply is a false root as ever.
    fn threat_when(&self, kill: bool) -> bool {
        let unprotected = if kill {
            !self.roots.iter().any(|&(_, r)| r != Root::False)
        } else {
            !self.protected()
        };
        self.legal && !self.trade && (self.heavy_on_chariot || unprotected)
    }
}

fn crossed(color: Color, sq: Square) -> bool {
    !color.owns_rank(sq.rank())
}

/// Every capture side `a` could make in `pos` (whoever is to move there) on a piece that can
/// be chased, by a piece that can chase. `ply` is the move that led to `pos`, to tell the
/// pins it made (see [`Root`]).
fn attacks(pos: &Position, a: Color, soldier_chases: bool, ply: Option<Move>) -> Vec<Attack> {
    let b = a.other();
    let pa = pos.with_turn(a);
    let pb = pos.with_turn(b);
    let mut out = Vec::new();
    for (from, piece, attacker) in pa.pieces() {
        if piece.color != a || piece.role == Role::General {
            continue;
        }
        if piece.role == Role::Soldier && !(soldier_chases && crossed(a, from)) {
            continue;
        }
        for &m in pa.piece_moves(from).iter() {
            let Some(target) = pa.piece_at(m.to) else {
                continue;
            };
            if target.color != b || target.role == Role::General {
                continue;
            }
            if target.role == Role::Soldier && !crossed(b, m.to) {
                continue;
            }
            let Some(victim) = pa.id_at(m.to) else {
                continue;
            };
            let legal = pa.safe_after(m);
            let roots = if legal {
                let after = pa.after(m);
                after
                    .attackers(m.to, b, false)
                    .into_iter()
                    .filter_map(|s| Some((after.id_at(s)?, root(&after, s, m.to, a, ply))))
                    .collect()
            } else {
                Vec::new()
            };
            let like_for_like = piece.role == target.role
                && matches!(piece.role, Role::Chariot | Role::Horse | Role::Cannon);
            out.push(Attack {
                attacker,
                victim,
                legal,
                heavy_on_chariot: matches!(piece.role, Role::Horse | Role::Cannon)
                    && target.role == Role::Chariot,
                roots,
                trade: like_for_like && pb.is_legal(Move::new(m.to, from)),
            });
        }
    }
    out
}

/// How the piece of side `a`'s opponent on `s` could take back on `to` in `after` (the
/// position after `a`'s capture there); `ply` as in [`attacks`].
fn root(after: &Position, s: Square, to: Square, a: Color, ply: Option<Move>) -> Root {
    let back = Move::new(s, to);
    if after.safe_after(back) {
        return Root::Real;
    }
    let b = a.other();
    let tied = if after.piece_at(s).is_some_and(|p| p.role == Role::General) {
        // A general may not take back onto a guarded point; if nothing guards it, it is held
        // by the other general along the file, which the ply made if it moved on that file.
        after.after(back).attackers(to, a, false).is_empty()
            && ply.is_some_and(|m| m.from.file() == to.file() || m.to.file() == to.file())
    } else {
        ply.is_some_and(|m| pins(m, after.general_square(b), s))
    };
    if tied {
        Root::Tied
    } else {
        Root::False
    }
}

/// Whether the move `m` can be what pins the piece on `s` against the general on `g`: it
/// arrived on or left the line from the general through `s` (a chariot or cannon pinning, a
/// screen made, a line opened), or a horse arrived whose leg is `s`.
fn pins(m: Move, g: Square, s: Square) -> bool {
    let ray = |p: Square| {
        if p == g {
            false
        } else if g.file() == s.file() {
            p.file() == g.file() && (p.rank() > g.rank()) == (s.rank() > g.rank())
        } else if g.rank() == s.rank() {
            p.rank() == g.rank() && (p.file() > g.file()) == (s.file() > g.file())
        } else {
            false
        }
    };
    let horse_leg = |h: Square| {
        let (df, dr) = (
            i16::from(g.file()) - i16::from(h.file()),
            i16::from(g.rank()) - i16::from(h.rank()),
        );
        let leg = match (df.abs(), dr.abs()) {
            (1, 2) => (i16::from(h.file()), i16::from(h.rank()) + dr / 2),
            (2, 1) => (i16::from(h.file()) + df / 2, i16::from(h.rank())),
            _ => return false,
        };
        leg == (i16::from(s.file()), i16::from(s.rank()))
    };
    ray(m.to) || ray(m.from) || horse_leg(m.to)
}

/// Whether `sq` lies on the straight line through `m`'s two points.
fn on_line(m: Move, sq: Square) -> bool {
    (m.from.file() == m.to.file() && sq.file() == m.from.file())
        || (m.from.rank() == m.to.rank() && sq.rank() == m.from.rank())
}

/// How a threat after the ply compares with the same attack before it.
enum Newness {
    /// A new threat: a chase.
    New,
    /// The threat already existed: it merely persists.
    Old,
    /// The attack existed but did not threaten before, and the ply changed that only by
    /// changing a line (it blocked the protector's line or moved its cannon screen) or by
    /// making the capture legal (a pin or a check on the attacker's side ended). New unless
    /// the ply was defensive.
    Conditional,
}

/// Whether threat `now` (after the ply) is new compared with `old`, the same attacker's
/// attack on the same victim before the ply (if it existed by the movement rules).
///
/// New: the moved piece's own attacks (but not a chariot's or cannon's attack along the line
/// it slid on), attacks that did not exist before (a line opened, a leg or eye freed, a screen
/// made), an offer to trade that the victim can no longer take,
/// and a victim whose protector the ply captured or pinned. Old: an attack that was already a
/// threat.
fn is_new(now: &Attack, old: Option<&Attack>, moved_anew: bool, after: &Position) -> Newness {
    if moved_anew {
        return Newness::New;
    }
    let Some(old) = old else {
        return Newness::New;
    };
    if old.is_threat() {
        return Newness::Old;
    }
    if !old.legal {
        return Newness::Conditional;
    }
    if old.trade && !now.trade {
        return Newness::New;
    }
    let removed_or_pinned = old
        .roots
        .iter()
        .filter(|r| r.1 == Root::Real)
        .any(|&(id, _)| {
            let captured = after.square_of(id).is_none();
            let pinned = now
                .roots
                .iter()
                .any(|&(r, how)| r == id && how != Root::Real);
            captured || pinned
        });
    if removed_or_pinned {
        Newness::New
    } else {
        Newness::Conditional
    }
}

/// Whether the ply ended a threat of the opponent against one of the mover's pieces (it
/// blocked an attack or stepped out of one). Such a defensive block or escape does not chase
/// through the lines it changed: in the AXF cases a side that keeps blocking a chase, and so
/// keeps cutting a protector's line, is not a chaser (cases 61 and "black rook pinned by
/// horse"), while a side that cuts a protector's line unprovoked is ("Perpetual Chase").
/// Answering a check is defence too.
fn defends(before: &Position, after: &Position, soldier_chases: bool) -> bool {
    if before.is_check() {
        return true; // answering a check is defence
    }
    let them = before.turn().other();
    let threatened_after: Vec<PieceId> = attacks(after, them, soldier_chases, None)
        .into_iter()
        .filter(Attack::is_threat)
        .map(|a| a.victim)
        .collect();
    attacks(before, them, soldier_chases, None)
        .into_iter()
        .filter(Attack::is_threat)
        .any(|a| !threatened_after.contains(&a.victim))
}

/// The pieces newly chased by the legal move `m` played from `before` (RULES.md §4); `kill`
/// says the ply threatens mate, so that the protectors it tied to their general still count
/// (see [`Attack::threat_when`]).
fn chase_victims(
    before: &Position,
    m: Move,
    after: &Position,
    soldier_chases: bool,
    kill: bool,
) -> Vec<Victim> {
    let a = before.turn();
    let now: Vec<Attack> = attacks(after, a, soldier_chases, kill.then_some(m))
        .into_iter()
        .filter(|t| t.threat_when(kill))
        .collect();
    if now.is_empty() {
        return Vec::new();
    }
    let old = attacks(before, a, soldier_chases, None);
    let mover = after.id_at(m.to);
    let slider = after
        .piece_at(m.to)
        .is_some_and(|p| matches!(p.role, Role::Chariot | Role::Cannon));
    let mut victims: Vec<Victim> = Vec::new();
    let mut defensive = None;
    for t in &now {
        let Some(at) = after.square_of(t.victim) else {
            continue;
        };
        let moved_anew = Some(t.attacker) == mover && !(slider && on_line(m, at));
        let prev = old
            .iter()
            .find(|o| o.attacker == t.attacker && o.victim == t.victim);
        match is_new(t, prev, moved_anew, after) {
            Newness::New => {}
            Newness::Old => continue,
            Newness::Conditional => {
                if *defensive.get_or_insert_with(|| defends(before, after, soldier_chases)) {
                    continue;
                }
            }
        }
        match victims.iter_mut().find(|v| v.id == t.victim) {
            Some(v) => {
                if !v.attackers.contains(&t.attacker) {
                    v.attackers.push(t.attacker);
                }
                v.protected &= t.protected();
            }
            None => victims.push(Victim {
                id: t.victim,
                at,
                attackers: vec![t.attacker],
                protected: t.protected(),
            }),
        }
    }
    victims
}

/// Classify the legal move `m` played from `before`; `after` is the position it leads to.
/// A check also records the pieces it chases at the same time (the AXF cases count a check
/// that keeps attacking the chased piece as part of a perpetual chase). A ply that threatens
/// mate and also chases (with a chase that does not exist only through the mate threat) is a
/// chase: of two readings the rulebook takes the one that may be forbidden.
#[must_use]
pub fn classify(before: &Position, m: Move, after: &Position, soldier_chases: bool) -> PlyClass {
    if after.is_check() {
        let victims = chase_victims(before, m, after, soldier_chases, false);
        let checkers = after
            .checkers()
            .into_iter()
            .filter_map(|s| after.id_at(s))
            .collect();
        return PlyClass::Check { checkers, victims };
    }
    let mate = mate_threat(after);
    let victims = chase_victims(before, m, after, soldier_chases, mate.is_some());
    match mate {
        _ if !victims.is_empty() => PlyClass::Chase { victims },
        Some(mate) => PlyClass::Kill { mate },
        None => PlyClass::Idle,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(fen: &str, mv: &str, soldier_chases: bool) -> PlyClass {
        let before = Position::from_fen(fen).unwrap();
        let m = Move::parse_iccs(mv).unwrap();
        let after = before.after(m);
        classify(&before, m, &after, soldier_chases)
    }

    #[test]
    fn a_check_is_a_check() {
        let c = class("3k5/9/9/9/9/9/9/9/9/R3K4 w", "a0a9", false);
        assert!(c.is_check());
    }

    #[test]
    fn chariot_attacking_an_unprotected_horse_chases_it() {
        // Red chariot a0 moves to a7 attacking the lone black horse on c7.
        let c = class("3k5/9/2n6/9/9/9/9/9/9/R3K4 w", "a0a7", false);
        assert_eq!(c.name(), "chase");
        assert_eq!(c.victim_ids().len(), 1);
    }

    #[test]
    fn chariot_attacking_a_protected_horse_is_idle() {
        // The black horse on c7 is protected by the chariot on c9.
        let c = class("2r2k3/9/2n6/9/9/9/9/9/9/R3K4 w", "a0a7", false);
        assert_eq!(c, PlyClass::Idle);
    }

    #[test]
    fn horse_attacking_a_protected_chariot_still_chases() {
        // The red horse jumps b5 -> a7 and hits the black chariot on c8, protected by c9.
        let c = class("2r2k3/2r6/9/9/1N7/9/9/9/9/4K4 w", "b5a7", false);
        assert_eq!(c.name(), "chase");
    }

    #[test]
    fn chariot_facing_chariot_that_can_take_back_is_a_trade_offer() {
        let c = class("2r2k3/9/9/9/9/9/9/9/9/R3K4 w", "a0a9", false);
        assert_eq!(c, PlyClass::Idle);
        let c = class("3k5/9/9/9/2r6/9/9/9/9/R3K4 w", "a0a5", false);
        assert_eq!(c, PlyClass::Idle);
    }

    #[test]
    fn a_kill_by_a_series_of_checks_chases_nothing_it_ties() {
        // The chariot comes to the e-file: the elephant on e7 is now attacked, and its one
        // protector, the general, may not take back (it would face the red general). Read as
        // a chase of an unprotected elephant only if the mate threat is missed: the ply
        // threatens mate by checks (Fairy-Stockfish, after a pass: mate in 3), so the
        // general is tied to its own defence and the ply is a kill.
        let c = class("R8/4k4/4b4/9/9/1R3C3/3p5/9/9/4K4 w", "b4e4", false);
        assert_eq!(c.name(), "kill", "{c:?}");
    }

    #[test]
    fn uncrossed_soldiers_are_never_chased() {
        let c = class("3k5/9/9/p8/9/9/9/9/9/1R3K3 w", "b0b6", false);
        assert_eq!(c, PlyClass::Idle);
    }
}
