//! Two move-pickers below the ladder, to anchor its ratings: `random` plays a uniformly random
//! move, `greedy` "takes whatever hangs" (a move that wins at once, else the capture of the most
//! valuable piece, else a random move). Neither searches. Both choose only among the moves the
//! game's arbiter accepts and that do not lose by a foul (the engine's own root moves), so they
//! lose games on the board, never by rule, and both are reproducible from a seed.

use crate::arbiter::Arbiter;
use crate::core::{mix64, next_random, Move, GOLDEN};

use super::root::root_moves;
use super::score::mate_in;
use super::see::SEE_VALUE;

/// A move-picker below level 1.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// A uniformly random move.
    Random,
    /// A winning move if there is one, else the capture of the most valuable piece, else random.
    Greedy,
}

impl Anchor {
    /// Its name on the command line (`builtin:random`, `builtin:greedy`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Anchor::Random => "random",
            Anchor::Greedy => "greedy",
        }
    }

    /// The anchor called `name`, if any.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Anchor> {
        [Anchor::Random, Anchor::Greedy]
            .into_iter()
            .find(|a| a.name() == name)
    }

    /// The move this anchor plays in `game` (`None`: no move the arbiter accepts), drawn from
    /// `seed` and the ply, so a game replays exactly.
    #[must_use]
    pub fn choose(self, game: &Arbiter, seed: u64) -> Option<Move> {
        let roots = root_moves(game);
        let mut state = mix64(seed ^ (game.plies().len() as u64).wrapping_mul(GOLDEN));
        let mut pick = |moves: &[Move]| {
            let n = moves.len() as u64;
            (n > 0).then(|| moves[(next_random(&mut state) % n) as usize])
        };
        let all: Vec<Move> = roots.iter().map(|r| r.mv).collect();
        if self == Anchor::Random {
            return pick(&all);
        }
        let wins: Vec<Move> = roots
            .iter()
            .filter(|r| r.fixed == Some(mate_in(1)))
            .map(|r| r.mv)
            .collect();
        if !wins.is_empty() {
            return pick(&wins);
        }
        let pos = game.position();
        let taken = |m: Move| pos.piece_at(m.to).map_or(0, |p| SEE_VALUE[p.role.index()]);
        let most = all.iter().map(|&m| taken(m)).max().unwrap_or(0);
        let best: Vec<Move> = all.iter().copied().filter(|&m| taken(m) == most).collect();
        pick(&best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arbiter::{Ruleset, RulesetName};
    use crate::core::{Color, Position};

    fn game(fen: &str) -> Arbiter {
        let pos = Position::from_fen(fen).expect("a valid test position");
        Arbiter::new(pos, Ruleset::preset(RulesetName::Official))
    }

    #[test]
    fn greedy_takes_a_hanging_chariot() {
        // Red's chariot on a0 can take the chariot on a4 or the soldier on i0.
        let g = game("3k5/9/9/9/9/r8/9/9/4K4/R7p w - - 0 1");
        for seed in 0..20 {
            assert_eq!(Anchor::Greedy.choose(&g, seed), Move::parse_iccs("a0a4"));
        }
    }

    #[test]
    fn greedy_mates_in_one_before_it_takes() {
        // Rc0-c9 mates (the chariot on a8 holds rank 8, Red's general the e-file); Ra8xa3
        // would take a cannon.
        let g = game("3k5/R8/9/9/9/9/c8/9/9/2R1K4 w - - 0 1");
        for seed in 0..20 {
            let m = Anchor::Greedy.choose(&g, seed).expect("a move");
            let mut after = g.clone();
            let acc = after.submit(m).expect("an accepted move");
            let loser = acc.ruling.and_then(|r| r.outcome.loser());
            assert_eq!(loser, Some(Color::Black), "{m} does not mate");
        }
    }

    #[test]
    fn random_is_legal_and_follows_its_seed() {
        let mut g = Arbiter::new(Position::startpos(), Ruleset::preset(RulesetName::Official));
        let first: Vec<Option<Move>> = (0..30).map(|s| Anchor::Random.choose(&g, s)).collect();
        assert_eq!(
            first,
            (0..30)
                .map(|s| Anchor::Random.choose(&g, s))
                .collect::<Vec<_>>()
        );
        let distinct: std::collections::BTreeSet<_> = first.iter().flatten().collect();
        assert!(distinct.len() > 10, "{distinct:?}");
        // A whole game of random moves: every one accepted by the arbiter.
        while g.ruling().is_none() && g.plies().len() < 200 {
            let m = Anchor::Random
                .choose(&g, 5)
                .expect("a move while the game goes on");
            g.submit(m).expect("the arbiter accepts the anchor's move");
        }
    }

    #[test]
    fn names_round_trip() {
        for a in [Anchor::Random, Anchor::Greedy] {
            assert_eq!(Anchor::from_name(a.name()), Some(a));
        }
        assert_eq!(Anchor::from_name("lucky"), None);
    }
}
