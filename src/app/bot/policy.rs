//! How the bot conducts itself beyond its moves: when it resigns, offers a draw or accepts
//! one, and the last check that it never plays a move the arbiter would refuse or punish.
//! Pure functions of the game and the bot's own evaluations (from its side, one per move it
//! played, at its level's depth).
//!
//! The thresholds (docs/commands.md, "Playing the bot", lists them):
//! - **Resigning** — only at levels 13–20, whose searches are deep enough to be believed; the
//!   lower levels play on to the end, as a beginner's sparring partner should. The bot resigns
//!   when it has seen itself mated on its last [`RESIGN_MATED_MOVES`] moves, or at least
//!   [`RESIGN_CP`] down on its last [`RESIGN_MOVES`] moves; never before ply
//!   [`RESIGN_MIN_PLY`], and never while the opponent's clock is under
//!   [`RESIGN_CLOCK_MS`] (they might still lose on time).
//! - **Offering a draw** — only at levels 11–20, from ply [`OFFER_MIN_PLY`], when its last
//!   [`OFFER_MOVES`] evaluations were all within ±[`OFFER_CP`], at most once every
//!   [`OFFER_EVERY_PLIES`] plies, and never with an offer already standing.
//! - **Accepting a draw** — at every level: when its latest evaluation is at most
//!   [`ACCEPT_CP`] from ply [`ACCEPT_MIN_PLY`] on, or at any time when it is at least
//!   [`ACCEPT_LOSING_CP`] down.
//! - **Never a foul** — the engine already tries every root move on the game's arbiter; the
//!   move is checked once more with the arbiter before it is played ([`vet`]).

use crate::arbiter::Arbiter;
use crate::core::Move;
use crate::engine::Score;
use crate::game::{BotMemory, StoredEval};
use crate::uci::check_move;

/// Lowest level that resigns (the old ladder's level 5 stood about here).
pub const RESIGN_MIN_LEVEL: u8 = 13;
/// Centipawns down (from the bot's side) that count toward resigning: a chariot and more.
pub const RESIGN_CP: i32 = -1000;
/// Consecutive bot moves at or below [`RESIGN_CP`] before it resigns.
pub const RESIGN_MOVES: usize = 4;
/// Consecutive bot moves that saw a forced mate against it before it resigns.
pub const RESIGN_MATED_MOVES: usize = 2;
/// No resignation before this ply.
pub const RESIGN_MIN_PLY: usize = 20;
/// No resignation while the opponent has less than this on their clock.
pub const RESIGN_CLOCK_MS: u64 = 60_000;

/// Lowest level that offers draws (level 11 plays as the old ladder's level 4 did).
pub const OFFER_MIN_LEVEL: u8 = 11;
/// No offer before this ply.
pub const OFFER_MIN_PLY: usize = 60;
/// Evaluations within ± this many centipawns count as level.
pub const OFFER_CP: i32 = 15;
/// Consecutive level evaluations before an offer.
pub const OFFER_MOVES: usize = 6;
/// Plies between two offers.
pub const OFFER_EVERY_PLIES: usize = 20;

/// Accept a draw from this ply when not better than [`ACCEPT_CP`].
pub const ACCEPT_MIN_PLY: usize = 30;
/// The most the bot may think it is ahead and still accept (centipawns).
pub const ACCEPT_CP: i32 = 30;
/// Down this much or more, the bot accepts at any ply.
pub const ACCEPT_LOSING_CP: i32 = -300;

/// The bot's evaluations in one game, from its own side: one per move it played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    /// Its evaluation when it chose each of its moves (the best line's score).
    pub evals: Vec<Score>,
    /// The ply at which it last offered a draw.
    pub last_offer_ply: Option<usize>,
}

impl Memory {
    /// The memory stored with a game (empty if none was).
    #[must_use]
    pub fn from_stored(stored: Option<&BotMemory>) -> Memory {
        let Some(m) = stored else {
            return Memory::default();
        };
        Memory {
            evals: m
                .evals
                .iter()
                .map(|e| match *e {
                    StoredEval::Cp(c) => Score::Cp(c),
                    StoredEval::Mate(n) => Score::Mate(n),
                })
                .collect(),
            last_offer_ply: m.last_offer_ply.and_then(|p| usize::try_from(p).ok()),
        }
    }

    /// The form stored with the game.
    #[must_use]
    pub fn to_stored(&self) -> BotMemory {
        BotMemory {
            evals: self
                .evals
                .iter()
                .map(|s| match *s {
                    Score::Cp(c) => StoredEval::Cp(c),
                    Score::Mate(n) => StoredEval::Mate(n),
                })
                .collect(),
            last_offer_ply: self.last_offer_ply.map(|p| p as u64),
        }
    }
}

/// Centipawns on one scale: a mate beyond every ordinary score.
fn centipawns(s: Score) -> i32 {
    match s {
        Score::Cp(c) => c,
        Score::Mate(n) if n > 0 => 100_000 - n,
        Score::Mate(n) => -100_000 - n,
    }
}

fn mated(s: Score) -> bool {
    matches!(s, Score::Mate(n) if n <= 0)
}

/// What the bot does besides playing its move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Conduct {
    /// Play on.
    Play,
    /// Play, and offer a draw with the move.
    PlayAndOfferDraw,
    /// Resign instead of moving.
    Resign,
}

/// What the bot does after a search at `level`, `ply` plies into the game (before its move),
/// with `memory` already holding this search's evaluation as its last entry. `opponent_ms`:
/// the opponent's clock, if the game has one; `offer_standing`: a draw offer is on the table.
#[must_use]
pub fn conduct(
    level: u8,
    ply: usize,
    memory: &Memory,
    opponent_ms: Option<u64>,
    offer_standing: bool,
) -> Conduct {
    let last =
        |n: usize| (memory.evals.len() >= n).then(|| &memory.evals[memory.evals.len() - n..]);
    let may_resign = level >= RESIGN_MIN_LEVEL
        && ply >= RESIGN_MIN_PLY
        && opponent_ms.is_none_or(|ms| ms >= RESIGN_CLOCK_MS);
    if may_resign {
        let mate = last(RESIGN_MATED_MOVES).is_some_and(|e| e.iter().all(|&s| mated(s)));
        let lost =
            last(RESIGN_MOVES).is_some_and(|e| e.iter().all(|&s| centipawns(s) <= RESIGN_CP));
        if mate || lost {
            return Conduct::Resign;
        }
    }
    let may_offer = level >= OFFER_MIN_LEVEL
        && ply >= OFFER_MIN_PLY
        && !offer_standing
        && memory
            .last_offer_ply
            .is_none_or(|p| ply >= p + OFFER_EVERY_PLIES);
    if may_offer
        && last(OFFER_MOVES).is_some_and(|e| e.iter().all(|&s| centipawns(s).abs() <= OFFER_CP))
    {
        return Conduct::PlayAndOfferDraw;
    }
    Conduct::Play
}

/// Whether the bot accepts a draw offered at `ply`, by its latest evaluation.
#[must_use]
pub fn accepts_draw(ply: usize, memory: &Memory) -> bool {
    let Some(&now) = memory.evals.last() else {
        return false;
    };
    let cp = centipawns(now);
    cp <= ACCEPT_LOSING_CP || (ply >= ACCEPT_MIN_PLY && cp <= ACCEPT_CP)
}

/// The move to play: `proposed` if the arbiter accepts it without ruling against the bot,
/// else the first legal move that passes (logged: the engine should never get here), else
/// none (the bot has no acceptable move; the arbiter has then ended the game).
#[must_use]
pub fn vet(game: &Arbiter, proposed: Option<Move>) -> Option<Move> {
    if let Some(m) = proposed {
        match check_move(game, m) {
            Ok(_) => return Some(m),
            Err(why) => {
                tracing::error!(mv = %m, reason = %why, "the engine proposed a move the arbiter rejects; another is played");
            }
        }
    }
    let pos = game.position();
    pos.legal_moves()
        .iter()
        .copied()
        .find(|&m| check_move(game, m).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arbiter::{Ruleset, RulesetName};
    use crate::core::Position;

    fn memory(evals: &[Score]) -> Memory {
        Memory {
            evals: evals.to_vec(),
            last_offer_ply: None,
        }
    }

    #[test]
    fn resigns_only_when_lost_for_long_enough_at_a_deep_level() {
        let lost = memory(&[Score::Cp(-1200); 4]);
        assert_eq!(conduct(14, 40, &lost, None, false), Conduct::Resign);
        assert_eq!(
            conduct(RESIGN_MIN_LEVEL - 1, 40, &lost, None, false),
            Conduct::Play,
            "low levels play on"
        );
        assert_eq!(
            conduct(14, 10, &lost, None, false),
            Conduct::Play,
            "too early"
        );
        let short = memory(&[Score::Cp(-1200); 3]);
        assert_eq!(conduct(20, 40, &short, None, false), Conduct::Play);
        let recovered = memory(&[
            Score::Cp(-1200),
            Score::Cp(-400),
            Score::Cp(-1200),
            Score::Cp(-1200),
        ]);
        assert_eq!(conduct(20, 40, &recovered, None, false), Conduct::Play);
        // Seeing itself mated twice is enough.
        let mated = memory(&[Score::Cp(-300), Score::Mate(-5), Score::Mate(-4)]);
        assert_eq!(
            conduct(RESIGN_MIN_LEVEL, 30, &mated, None, false),
            Conduct::Resign
        );
        // The opponent short of time might still lose on it.
        assert_eq!(conduct(20, 40, &lost, Some(30_000), false), Conduct::Play);
        assert_eq!(
            conduct(20, 40, &lost, Some(120_000), false),
            Conduct::Resign
        );
    }

    #[test]
    fn offers_draws_in_level_endings_now_and_then() {
        let level = memory(&[
            Score::Cp(5),
            Score::Cp(-10),
            Score::Cp(0),
            Score::Cp(12),
            Score::Cp(3),
            Score::Cp(-15),
        ]);
        assert_eq!(
            conduct(14, 80, &level, None, false),
            Conduct::PlayAndOfferDraw
        );
        assert_eq!(
            conduct(OFFER_MIN_LEVEL - 1, 80, &level, None, false),
            Conduct::Play,
            "not at low levels"
        );
        assert_eq!(
            conduct(14, 40, &level, None, false),
            Conduct::Play,
            "too early"
        );
        assert_eq!(
            conduct(14, 80, &level, None, true),
            Conduct::Play,
            "an offer stands"
        );
        let offered = Memory {
            last_offer_ply: Some(70),
            ..level.clone()
        };
        assert_eq!(
            conduct(14, 80, &offered, None, false),
            Conduct::Play,
            "offered lately"
        );
        assert_eq!(
            conduct(14, 90, &offered, None, false),
            Conduct::PlayAndOfferDraw
        );
        let mut ahead = level.clone();
        ahead.evals.push(Score::Cp(80));
        assert_eq!(conduct(14, 80, &ahead, None, false), Conduct::Play);
    }

    #[test]
    fn memory_round_trips_through_its_stored_form() {
        let m = Memory {
            evals: vec![
                Score::Cp(-1200),
                Score::Mate(-3),
                Score::Mate(5),
                Score::Cp(0),
            ],
            last_offer_ply: Some(64),
        };
        let json = serde_json::to_string(&m.to_stored()).unwrap_or_default();
        let back: BotMemory = serde_json::from_str(&json).unwrap_or_default();
        assert_eq!(Memory::from_stored(Some(&back)), m, "{json}");
        assert_eq!(Memory::from_stored(None), Memory::default());
    }

    #[test]
    fn accepts_draws_when_not_better() {
        assert!(!accepts_draw(50, &Memory::default()), "no evaluation yet");
        assert!(accepts_draw(50, &memory(&[Score::Cp(20)])));
        assert!(!accepts_draw(50, &memory(&[Score::Cp(90)])));
        assert!(!accepts_draw(10, &memory(&[Score::Cp(0)])), "too early");
        assert!(
            accepts_draw(10, &memory(&[Score::Cp(-400)])),
            "losing: any time"
        );
        assert!(accepts_draw(10, &memory(&[Score::Mate(-3)])));
        assert!(!accepts_draw(60, &memory(&[Score::Mate(7)])));
    }

    #[test]
    fn a_foul_is_never_played() {
        // Red checks with its chariot on h8/h9 and Black's general steps f9/f8: h8h9 would
        // bring the position about a third time, a perpetual check that loses.
        let fen = "c2a1k1R1/2c1a4/b6P1/8p/9/9/9/9/4K4/9 b";
        let start = Position::from_fen(fen).unwrap_or_else(|e| panic!("{e}"));
        let mut game = Arbiter::new(start, Ruleset::preset(RulesetName::Official));
        for p in ["f9f8", "h9h8", "f8f9", "h8h9", "f9f8", "h9h8", "f8f9"] {
            let m = Move::parse_iccs(p).unwrap_or_else(|| panic!("{p}"));
            assert!(game.submit(m).is_ok(), "{p}");
        }
        let foul = Move::parse_iccs("h8h9").unwrap_or_else(|| panic!("h8h9"));
        assert!(check_move(&game, foul).is_err(), "the repetition loses");
        let v = vet(&game, Some(foul));
        assert!(
            v.is_some_and(|m| m != foul && check_move(&game, m).is_ok()),
            "{v:?}"
        );
        let fine = Move::parse_iccs("h8g8").unwrap_or_else(|| panic!("h8g8"));
        assert_eq!(vet(&game, Some(fine)), Some(fine));
        assert!(vet(&game, None).is_some_and(|m| check_move(&game, m).is_ok()));
    }
}
