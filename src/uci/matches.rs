//! Engine matches: two players (`builtin:LEVEL` or `uci:COMMAND`) play pairs of games from an
//! openings file, colours swapped, C games at a time, every game adjudicated by our arbiter.
//!
//! Adjudication, in order: the arbiter's rulings (mate, stalemate, perpetual check and chase,
//! repetition, the counts and draw rules of the ruleset); a move the arbiter rejects (illegal, or
//! a foul) loses for the side that sent it, as does an engine that crashes, hangs or gives no
//! move while it has one; and a game still going after `max_plies` plies is a draw.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use crate::arbiter::{Arbiter, Enforcement, Outcome, Reason, Ruleset};
use crate::core::{Color, Move, Position};

use super::stats::GameScore;
use super::{check_move, Rejection};

/// One opening: its moves from the initial position and its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The moves.
    pub moves: Vec<Move>,
    /// Its name (English / Chinese).
    pub name: String,
}

/// Read an openings file: one opening a line, `ICCS moves | English name | 中文名`; blank lines
/// and lines starting with `#` are skipped. Every line is checked with the arbiter.
///
/// # Errors
/// The line number and what is wrong with it.
pub fn parse_openings(text: &str) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (moves_text, name) = line.split_once('|').unwrap_or((line, ""));
        let moves = moves_text
            .split_whitespace()
            .map(|t| {
                Move::parse_iccs(t).ok_or_else(|| format!("line {}: {t:?} is not ICCS", i + 1))
            })
            .collect::<Result<Vec<_>, _>>()?;
        super::replay(&Position::startpos(), &moves, &Ruleset::default()).map_err(|(k, e)| {
            format!(
                "line {}: move {} cannot be played: {}",
                i + 1,
                k + 1,
                super::submit_error_text(&e)
            )
        })?;
        let name = name
            .split('|')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" / ");
        out.push(Opening { moves, name });
    }
    Ok(out)
}

/// A player in a match, for one game at a time.
pub trait Contestant: Send {
    /// The name shown in results and PGN.
    fn name(&self) -> String;
    /// Get ready for a new game (start the engine again if it failed).
    ///
    /// # Errors
    /// Why the player cannot play.
    fn new_game(&mut self) -> Result<(), String>;
    /// The move for the side to move in `game`, or `None` if it has none to give.
    ///
    /// # Errors
    /// Why no move came (a crash or a hang).
    fn choose(&mut self, game: &Arbiter, seed: u64) -> Result<Option<Move>, String>;
}

/// How a match is played.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// Games to play (pairs of games share an opening).
    pub games: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// The ruleset the arbiter applies.
    pub rules: Ruleset,
    /// Plies after which a game is a draw.
    pub max_plies: usize,
    /// The openings, used in order, each twice (colours swapped); none: the initial position.
    pub openings: Vec<Opening>,
    /// Seeds the levels' choices (game `i` uses `seed + i`).
    pub seed: u64,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// 0-based game number.
    pub index: usize,
    /// The opening's name.
    pub opening: String,
    /// Red's name.
    pub red: String,
    /// Black's name.
    pub black: String,
    /// Whether player A had Red.
    pub a_red: bool,
    /// Every move, the opening's included, from the initial position.
    pub moves: Vec<Move>,
    /// The result.
    pub outcome: Outcome,
    /// How it ended, one word: an arbiter's reason (`checkmate`, `perpetual_chase`, ...), or
    /// `ply_limit`, `illegal_move`, `refused_foul`, `engine_failure`, `no_move`.
    pub ending: &'static str,
    /// The kind of ending, for counting results three ways.
    pub kind: EndKind,
    /// Why it ended, in words.
    pub reason: String,
}

/// The kind of ending a game had.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndKind {
    /// Checkmate or stalemate: decided on the board, under every ruleset and by every referee.
    Mate,
    /// A ruling at a repetition: perpetual check, perpetual chase, a repetition ruled a draw,
    /// and a refused foul of one of these (a move that would have lost by such a ruling).
    Repetition,
    /// Any other rule: the arbiter's check and chase limits, no progress, effective moves, the
    /// move limit, insufficient material (and a refused foul of one of these), the match's ply
    /// limit, a refused opening.
    Rule,
    /// A forfeit that is no ruling: a move against the rules of movement, an engine that
    /// crashed, hung or gave no move.
    Forfeit,
}

impl EndKind {
    /// The kind of an arbiter's ruling.
    #[must_use]
    pub const fn of_reason(reason: Reason) -> EndKind {
        match reason {
            Reason::Checkmate | Reason::Stalemate => EndKind::Mate,
            Reason::PerpetualCheck | Reason::PerpetualChase | Reason::Repetition => {
                EndKind::Repetition
            }
            Reason::CheckLimit
            | Reason::ChaseLimit
            | Reason::NoProgress
            | Reason::EffectiveMoves
            | Reason::MoveLimit
            | Reason::InsufficientMaterial => EndKind::Rule,
        }
    }
}

/// How a match's games are scored.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Counting {
    /// As our arbiter ruled: every ruling and forfeit as it fell.
    Arbiter,
    /// By mates and stalemates alone: a game that ended by any ruling (a repetition, a count, the
    /// ply limit) is a draw; mates, stalemates and forfeits (illegal moves, crashes) stand.
    Mates,
    /// As our arbiter ruled, except that every repetition ending (perpetual check and chase, and
    /// the fouls that would have made one) is a draw.
    RepetitionDrawn,
}

impl Counting {
    /// The three, in the order the report prints them.
    pub const ALL: [Counting; 3] = [
        Counting::Arbiter,
        Counting::Mates,
        Counting::RepetitionDrawn,
    ];

    /// One word: `arbiter`, `mates`, `repetition-drawn`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Counting::Arbiter => "arbiter",
            Counting::Mates => "mates",
            Counting::RepetitionDrawn => "repetition-drawn",
        }
    }

    /// A game's outcome under this counting.
    #[must_use]
    pub fn outcome(self, outcome: Outcome, kind: EndKind) -> Outcome {
        let stands = match self {
            Counting::Arbiter => true,
            Counting::Mates => matches!(kind, EndKind::Mate | EndKind::Forfeit),
            Counting::RepetitionDrawn => kind != EndKind::Repetition,
        };
        if stands {
            outcome
        } else {
            Outcome::Draw
        }
    }
}

impl std::str::FromStr for Counting {
    type Err = String;
    fn from_str(s: &str) -> Result<Counting, String> {
        Counting::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| format!("{s:?}: expected arbiter, mates or repetition-drawn"))
    }
}

/// How one game ended.
#[derive(Clone, Debug)]
pub struct GameEnd {
    /// Every move played.
    pub moves: Vec<Move>,
    /// The result.
    pub outcome: Outcome,
    /// One word (see [`GameReport::ending`]).
    pub ending: &'static str,
    /// Its kind.
    pub kind: EndKind,
    /// In words.
    pub reason: String,
}

impl GameReport {
    /// The result from player A's view, as the arbiter ruled.
    #[must_use]
    pub fn score_for_a(&self) -> GameScore {
        self.score_for_a_by(Counting::Arbiter)
    }

    /// The result from player A's view under `counting`.
    #[must_use]
    pub fn score_for_a_by(&self, counting: Counting) -> GameScore {
        let a = if self.a_red { Color::Red } else { Color::Black };
        match counting.outcome(self.outcome, self.kind).loser() {
            None => GameScore::Draw,
            Some(c) if c == a => GameScore::Loss,
            Some(_) => GameScore::Win,
        }
    }
}

/// Play a match. `make(a_side, worker)` builds player A (`true`) or B for each worker thread;
/// `on_game` sees each game as it ends. Returns the games in play order.
///
/// # Errors
/// A player that cannot be built.
pub fn run_match<F>(
    settings: &MatchSettings,
    make: F,
    on_game: &(dyn Fn(&GameReport) + Sync),
) -> Result<Vec<GameReport>, String>
where
    F: Fn(bool) -> Result<Box<dyn Contestant>, String> + Sync,
{
    run_match_until(settings, make, &|g| {
        on_game(g);
        false
    })
}

/// [`run_match`] that can stop early: once `on_game` returns `true`, no new pair is started.
/// The games already under way are finished, and so is the second game of a pair whose first
/// game has started, so the games returned are always whole pairs from the first one on
/// (`settings.games` odd aside).
///
/// # Errors
/// A player that cannot be built.
pub fn run_match_until<F>(
    settings: &MatchSettings,
    make: F,
    on_game: &(dyn Fn(&GameReport) -> bool + Sync),
) -> Result<Vec<GameReport>, String>
where
    F: Fn(bool) -> Result<Box<dyn Contestant>, String> + Sync,
{
    let stop = AtomicBool::new(false);
    // The next game to hand out, under a lock so that "stop" and "take" do not race: once
    // stopped, only the second game of an already started pair (an odd index) is handed out.
    let next = Mutex::new(0usize);
    let results: Mutex<Vec<Option<GameReport>>> = Mutex::new(vec![None; settings.games]);
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let workers = settings.concurrency.clamp(1, settings.games.max(1));
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                let (mut a, mut b) = match (make(true), make(false)) {
                    (Ok(a), Ok(b)) => (a, b),
                    (Err(e), _) | (_, Err(e)) => {
                        if let Ok(mut f) = failure.lock() {
                            f.get_or_insert(e);
                        }
                        return;
                    }
                };
                loop {
                    let i = {
                        let Ok(mut n) = next.lock() else { return };
                        let i = *n;
                        if i >= settings.games
                            || (stop.load(Ordering::SeqCst) && i.is_multiple_of(2))
                        {
                            return;
                        }
                        *n += 1;
                        i
                    };
                    let report = play_pair_game(settings, i, a.as_mut(), b.as_mut());
                    if on_game(&report) {
                        stop.store(true, Ordering::SeqCst);
                    }
                    if let Ok(mut r) = results.lock() {
                        r[i] = Some(report);
                    }
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    let games = results.into_inner().map_err(|_| "a game thread panicked")?;
    Ok(games.into_iter().flatten().collect())
}

fn play_pair_game<'a>(
    settings: &MatchSettings,
    i: usize,
    a: &'a mut dyn Contestant,
    b: &'a mut dyn Contestant,
) -> GameReport {
    let opening = (!settings.openings.is_empty())
        .then(|| &settings.openings[(i / 2) % settings.openings.len()]);
    let a_red = i.is_multiple_of(2);
    let (red, black) = if a_red { (a, b) } else { (b, a) };
    let end = play_game(
        red,
        black,
        opening.map_or(&[][..], |o| &o.moves),
        &settings.rules,
        settings.max_plies,
        settings.seed.wrapping_add(i as u64),
    );
    GameReport {
        index: i,
        opening: opening.map(|o| o.name.clone()).unwrap_or_default(),
        red: red.name(),
        black: black.name(),
        a_red,
        moves: end.moves,
        outcome: end.outcome,
        ending: end.ending,
        kind: end.kind,
        reason: end.reason,
    }
}

/// Play one game from the initial position after `opening`.
pub fn play_game<'a>(
    red: &'a mut dyn Contestant,
    black: &'a mut dyn Contestant,
    opening: &[Move],
    rules: &Ruleset,
    max_plies: usize,
    seed: u64,
) -> GameEnd {
    let mut game = Arbiter::new(Position::startpos(), *rules);
    let end = |g: &Arbiter, outcome, (ending, kind), reason| GameEnd {
        moves: g.plies().iter().map(|p| p.mv).collect(),
        outcome,
        ending,
        kind,
        reason,
    };
    for &m in opening {
        if game.submit(m).is_err() {
            let why = format!("opening move {m} refused");
            let how = ("opening_refused", EndKind::Rule);
            return end(&game, Outcome::Draw, how, why);
        }
    }
    for (side, p) in [(Color::Red, &mut *red), (Color::Black, &mut *black)] {
        if let Err(e) = p.new_game() {
            let why = format!("{} failed to start: {e}", p.name());
            let how = ("engine_failure", EndKind::Forfeit);
            return end(&game, Outcome::loss_for(side), how, why);
        }
    }
    loop {
        if let Some(r) = game.ruling() {
            let reason = r.reason.as_str();
            let how = (reason, EndKind::of_reason(r.reason));
            return end(&game, r.outcome, how, reason.to_string());
        }
        if game.plies().len() >= max_plies {
            let why = format!("{max_plies}-ply limit");
            return end(&game, Outcome::Draw, ("ply_limit", EndKind::Rule), why);
        }
        let side = game.position().turn();
        let player: &mut dyn Contestant = if side == Color::Red {
            &mut *red
        } else {
            &mut *black
        };
        let name = player.name();
        let illegal = |e: &crate::arbiter::SubmitError, m: Move| {
            (
                ("illegal_move", EndKind::Forfeit),
                format!("{name} played {m}: {}", super::submit_error_text(e)),
            )
        };
        let failure = match player.choose(&game, seed) {
            Err(e) => Some((
                ("engine_failure", EndKind::Forfeit),
                format!("{name} failed: {e}"),
            )),
            Ok(None) => Some((
                ("no_move", EndKind::Forfeit),
                format!("{name} gave no move"),
            )),
            Ok(Some(m)) => match check_move(&game, m) {
                // Under forfeit a foul is played, and the arbiter's ruling ends the game.
                Ok(_) | Err(Rejection::Foul(_)) if rules.enforcement == Enforcement::Forfeit => {
                    game.submit(m).err().map(|e| illegal(&e, m))
                }
                Ok(_) => game.submit(m).err().map(|e| illegal(&e, m)),
                Err(Rejection::Foul(r)) => {
                    let kind = EndKind::of_reason(r.reason);
                    let why = format!("{name} played {m}: {}", Rejection::Foul(r));
                    Some((("refused_foul", kind), why))
                }
                Err(e) => Some((
                    ("illegal_move", EndKind::Forfeit),
                    format!("{name} played {m}: {e}"),
                )),
            },
        };
        if let Some((how, why)) = failure {
            return end(&game, Outcome::loss_for(side), how, why);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_counts_of_each_kind_of_ending() {
        use EndKind::{Forfeit, Mate, Repetition, Rule};
        let won = Outcome::RedWins;
        // (kind, arbiter, mates, repetition-drawn)
        let table = [
            (Mate, won, won, won),
            (Forfeit, won, won, won),
            (Repetition, won, Outcome::Draw, Outcome::Draw),
            (Rule, won, Outcome::Draw, won),
        ];
        for (kind, arbiter, mates, drawn) in table {
            let got = Counting::ALL.map(|c| c.outcome(won, kind));
            assert_eq!(got, [arbiter, mates, drawn], "{kind:?}");
            for c in Counting::ALL {
                assert_eq!(c.outcome(Outcome::Draw, kind), Outcome::Draw);
                assert_eq!(c.as_str().parse::<Counting>(), Ok(c));
            }
        }
        assert_eq!(EndKind::of_reason(Reason::Stalemate), Mate);
        assert_eq!(EndKind::of_reason(Reason::PerpetualChase), Repetition);
        assert_eq!(EndKind::of_reason(Reason::Repetition), Repetition);
        assert_eq!(EndKind::of_reason(Reason::ChaseLimit), Rule);
        assert_eq!(EndKind::of_reason(Reason::MoveLimit), Rule);
        assert!("pyffish".parse::<Counting>().is_err());
    }
}
