//! Engine matches: two players (`builtin:LEVEL` or `uci:COMMAND`) play pairs of games from an
//! openings file, colours swapped, C games at a time, every game adjudicated by our arbiter.
//!
//! Adjudication, in order: the arbiter's rulings (mate, stalemate, perpetual check and chase,
//! repetition, the counts and draw rules of the ruleset); a move the arbiter rejects (illegal, or
//! a foul) loses for the side that sent it, as does an engine that crashes, hangs or gives no
//! move while it has one; and a game still going after `max_plies` plies is a draw.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use crate::arbiter::{Arbiter, Enforcement, Outcome, Ruleset};
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
    /// Why it ended, in words.
    pub reason: String,
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
    /// In words.
    pub reason: String,
}

impl GameReport {
    /// The result from player A's view.
    #[must_use]
    pub fn score_for_a(&self) -> GameScore {
        let a = if self.a_red { Color::Red } else { Color::Black };
        match self.outcome.loser() {
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
    let end = |g: &Arbiter, outcome, ending, reason| GameEnd {
        moves: g.plies().iter().map(|p| p.mv).collect(),
        outcome,
        ending,
        reason,
    };
    for &m in opening {
        if game.submit(m).is_err() {
            let why = format!("opening move {m} refused");
            return end(&game, Outcome::Draw, "opening_refused", why);
        }
    }
    for (side, p) in [(Color::Red, &mut *red), (Color::Black, &mut *black)] {
        if let Err(e) = p.new_game() {
            let why = format!("{} failed to start: {e}", p.name());
            return end(&game, Outcome::loss_for(side), "engine_failure", why);
        }
    }
    loop {
        if let Some(r) = game.ruling() {
            let reason = r.reason.as_str();
            return end(&game, r.outcome, reason, reason.to_string());
        }
        if game.plies().len() >= max_plies {
            let why = format!("{max_plies}-ply limit");
            return end(&game, Outcome::Draw, "ply_limit", why);
        }
        let side = game.position().turn();
        let player: &mut dyn Contestant = if side == Color::Red {
            &mut *red
        } else {
            &mut *black
        };
        let name = player.name();
        let failure = match player.choose(&game, seed) {
            Err(e) => Some(("engine_failure", format!("{name} failed: {e}"))),
            Ok(None) => Some(("no_move", format!("{name} gave no move"))),
            Ok(Some(m)) => match check_move(&game, m) {
                // Under forfeit a foul is played, and the arbiter's ruling ends the game.
                Ok(_) | Err(Rejection::Foul(_)) if rules.enforcement == Enforcement::Forfeit => {
                    game.submit(m).err().map(|e| {
                        (
                            "illegal_move",
                            format!("{name} played {m}: {}", super::submit_error_text(&e)),
                        )
                    })
                }
                Ok(_) => game.submit(m).err().map(|e| {
                    (
                        "illegal_move",
                        format!("{name} played {m}: {}", super::submit_error_text(&e)),
                    )
                }),
                Err(e @ Rejection::Foul(_)) => {
                    Some(("refused_foul", format!("{name} played {m}: {e}")))
                }
                Err(e) => Some(("illegal_move", format!("{name} played {m}: {e}"))),
            },
        };
        if let Some((ending, why)) = failure {
            return end(&game, Outcome::loss_for(side), ending, why);
        }
    }
}
