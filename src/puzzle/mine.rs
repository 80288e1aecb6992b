//! Cutting puzzles from games: the built-in engine plays itself (openings and strengths
//! varied, reproducibly from a seed), and a position is kept when one move mates or wins
//! material and the second-best move is clearly worse, both seen at a fixed node budget.
//!
//! Every search here is node-limited on a cleared engine, so a run is the same for the same
//! settings on any machine.

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use crate::arbiter::{Arbiter, Ruleset};
use crate::core::{next_random, Move, Position, Status};
use crate::engine::{Engine, Info, Limits, Score, SearchResult};

use super::material::{balance, theme_of};
use super::{Goal, Puzzle, Theme};

/// The least gap between the best and the second-best move (centipawns).
pub const GAP: i32 = 200;
/// The least material a tactic must win, net of what the opponent took just before it.
pub const MIN_GAIN: i32 = 200;
/// The longest mate kept from self-play (the solver's moves).
pub const MAX_MATE: i32 = 5;
/// The longest material line kept (plies).
const MAX_LINE: usize = 7;

/// How a run of self-play goes.
#[derive(Clone, Debug)]
pub struct MineSettings {
    /// Games to play.
    pub games: usize,
    /// Node budget of the search that confirms a puzzle.
    pub nodes: u64,
    /// Openings to start from (ICCS moves from the initial position); empty: the start.
    pub openings: Vec<Vec<Move>>,
    /// The run's seed.
    pub seed: u64,
    /// A game still going after this many plies is abandoned.
    pub max_plies: usize,
    /// Prefix of the ids (`t1` gives `t1-00001`, …).
    pub prefix: String,
    /// Positions (their hashes) already in a set: never cut again.
    pub exclude: HashSet<u64>,
}

/// A strength for one side of a self-play game: nodes per move, and how far from the best
/// line (centipawns) its choice may stray.
const STRENGTHS: [(u64, i32); 4] = [(800, 250), (2_000, 150), (5_000, 80), (12_000, 30)];

/// A score on one scale (mates beyond every centipawn score).
fn scale(s: Score) -> i32 {
    match s {
        Score::Cp(c) => c,
        Score::Mate(n) if n > 0 => 100_000 - n,
        Score::Mate(n) => -100_000 - n,
    }
}

/// A fresh search of `nodes` nodes after `moves` from `start`, with `lines` lines.
fn search(
    engine: &mut Engine,
    start: &Position,
    moves: &[Move],
    nodes: u64,
    lines: usize,
    on_info: &mut dyn FnMut(&Info),
) -> SearchResult {
    engine.new_game();
    let limits = Limits {
        nodes: Some(nodes),
        multipv: lines,
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    engine.search(start, moves, &Ruleset::default(), &limits, &stop, on_info)
}

/// Whether a search's two best lines make a puzzle worth confirming.
fn promising(r: &SearchResult) -> bool {
    let Some(best) = r.lines.first().map(|l| l.score) else {
        return false;
    };
    let second = r.lines.get(1).map_or(-200_000, |l| scale(l.score));
    match best {
        Score::Mate(n) => (1..=MAX_MATE).contains(&n) && second < 50_000,
        Score::Cp(c) => c >= MIN_GAIN && c - second >= GAP,
    }
}

/// The first depth from which the best line's move was `mv` for good (the difficulty).
fn found_at(infos: &[(u32, Option<Move>)], mv: Move) -> u32 {
    let mut depth = infos.last().map_or(1, |i| i.0);
    for &(d, m) in infos.iter().rev() {
        if m != Some(mv) {
            break;
        }
        depth = d;
    }
    depth
}

/// A rating from the depth the move was found at and the line's length, within 600–2400.
#[must_use]
pub fn rating(found_depth: u32, solver_moves: usize) -> u16 {
    let r = 600 + 150 * i64::from(found_depth.max(1) - 1) + 100 * (solver_moves as i64 - 1);
    // The clamp keeps it within u16.
    r.clamp(600, 2400) as u16
}

/// Complete a mate line of `n` solver moves from `start` (the engine's PV, extended by
/// further searches where it was cut short); `None` unless it ends in mate.
#[must_use]
pub fn mate_line(
    engine: &mut Engine,
    start: &Position,
    mut line: Vec<Move>,
    n: usize,
    nodes: u64,
) -> Option<Vec<Move>> {
    let plies = 2 * n - 1;
    line.truncate(plies);
    while line.len() < plies {
        let r = search(engine, start, &line, nodes, 1, &mut |_| {});
        let pv = r.lines.first()?.pv.clone();
        if pv.is_empty() {
            return None;
        }
        line.extend(pv);
        line.truncate(plies);
    }
    let mut arb = Arbiter::new(start.clone(), Ruleset::default());
    for &m in &line {
        arb.submit(m).ok()?;
    }
    let end = arb.position();
    (end.status() != Status::Ongoing && end.turn() != start.turn()).then_some(line)
}

/// Confirm a position as a puzzle with a search of `nodes` nodes: a unique mate within
/// [`MAX_MATE`] moves, or a unique material win of at least [`MIN_GAIN`] net of `last_change`
/// (how the opponent's last move changed the solver's material: below zero when it took
/// something, so that taking back is no puzzle). `None` when it is neither.
#[must_use]
pub fn cut(
    engine: &mut Engine,
    pos: &Position,
    last_change: i32,
    nodes: u64,
    id: String,
    source: String,
) -> Option<Puzzle> {
    let mut infos: Vec<(u32, Option<Move>)> = Vec::new();
    let r = search(engine, pos, &[], nodes, 2, &mut |i: &Info| {
        if i.multipv == 1 {
            infos.push((i.depth, i.pv.first().copied()));
        }
    });
    if !promising(&r) {
        return None;
    }
    let best = r.lines.first()?;
    let first = *best.pv.first()?;
    let depth = found_at(&infos, first);
    let (solution, goal, theme) = match best.score {
        Score::Mate(n) => {
            let n = usize::try_from(n).ok()?;
            let line = mate_line(engine, pos, best.pv.clone(), n, nodes)?;
            let moves = u8::try_from(n).ok()?;
            (line, Goal::Mate(u32::from(moves)), Theme::MateIn(moves))
        }
        Score::Cp(_) => {
            let (line, gain) = material_line(pos, &best.pv)?;
            if gain + last_change < MIN_GAIN {
                return None;
            }
            let theme = theme_of(pos, &line);
            (line, Goal::Material(gain.unsigned_abs()), theme)
        }
    };
    let solver_moves = solution.len().div_ceil(2);
    Some(Puzzle {
        id,
        position: pos.clone(),
        solution,
        goal,
        theme,
        rating: rating(depth, solver_moves),
        source,
    })
}

/// The shortest prefix of `pv` (ending on the solver's move, followed by at least one reply
/// in `pv`) after which the material won stays won to the end of `pv`, and that gain.
fn material_line(pos: &Position, pv: &[Move]) -> Option<(Vec<Move>, i32)> {
    let solver = pos.turn();
    let base = balance(pos, solver);
    let mut p = pos.clone();
    let mut gains = Vec::new();
    for &m in pv.iter().take(MAX_LINE + 1) {
        if !p.is_legal(m) {
            break;
        }
        p.play_unchecked(m);
        gains.push(balance(&p, solver) - base);
    }
    // stable[k]: the least gain from ply k (1-based) to the end.
    let mut stable = gains.clone();
    for k in (0..stable.len().saturating_sub(1)).rev() {
        stable[k] = stable[k].min(stable[k + 1]);
    }
    let last = (0..gains.len().saturating_sub(1)).step_by(2).next_back()?;
    let gain = stable[last];
    if gain < MIN_GAIN {
        return None;
    }
    let k = (0..=last).step_by(2).find(|&k| stable[k] >= gain)?;
    Some((pv[..=k].to_vec(), gain))
}

/// Pick a line within `margin` of the best (never one that is mated while the best is not).
fn pick(r: &SearchResult, margin: i32, state: &mut u64) -> Option<Move> {
    let best = scale(r.lines.first()?.score);
    let ok: Vec<Move> = r
        .lines
        .iter()
        .filter(|l| {
            let s = scale(l.score);
            best - s <= margin && (best < -50_000 || s > -50_000)
        })
        .filter_map(|l| l.pv.first().copied())
        .collect();
    let i = usize::try_from(next_random(state) % ok.len().max(1) as u64).unwrap_or(0);
    ok.get(i).copied().or(r.best)
}

/// Play `settings.games` games and hand each new puzzle to `on_puzzle`; `on_game` hears (game
/// index, puzzles so far) after each game.
///
/// A position is kept at most once (nor when `settings.exclude` has it). Within a game a side's
/// combination is kept once: of its mates only the first position (the later ones are the same
/// mate, shorter), and no material win found on the move right after one it was just kept for
/// (the same combination, one move on).
pub fn mine(
    settings: &MineSettings,
    on_puzzle: &mut dyn FnMut(&Puzzle),
    on_game: &mut dyn FnMut(usize, usize),
) {
    let mut engine = Engine::new(4);
    let mut seen: HashSet<u64> = settings.exclude.clone();
    let mut count = 0;
    for g in 0..settings.games {
        let mut state = settings.seed ^ (g as u64).wrapping_mul(0xA076_1D64_78BD_642F);
        next_random(&mut state);
        let opening: &[Move] = if settings.openings.is_empty() {
            &[]
        } else {
            let i = next_random(&mut state) % settings.openings.len() as u64;
            &settings.openings[usize::try_from(i).unwrap_or(0)]
        };
        let strength = [
            STRENGTHS[usize::try_from(next_random(&mut state) % 4).unwrap_or(0)],
            STRENGTHS[usize::try_from(next_random(&mut state) % 4).unwrap_or(0)],
        ];
        let mut arb = Arbiter::new(Position::startpos(), Ruleset::default());
        if opening.iter().any(|&m| arb.submit(m).is_err()) {
            continue;
        }
        let start = Position::startpos();
        let mut moves: Vec<Move> = opening.to_vec();
        let mut before_last = balance(arb.position(), arb.position().turn());
        // Per side (red, black): a mate kept this game, and the ply of the last puzzle kept.
        let mut mated = [false; 2];
        let mut last_kept: [Option<usize>; 2] = [None; 2];
        while arb.ruling().is_none() && moves.len() < settings.max_plies {
            let pos = arb.position().clone();
            let side = usize::from(pos.turn() != crate::core::Color::Red);
            let (nodes, margin) = strength[side];
            let r = search(&mut engine, &start, &moves, nodes, 3, &mut |_| {});
            let now = balance(&pos, pos.turn());
            if promising(&r) && seen.insert(pos.hash()) {
                let id = format!("{}-{:05}", settings.prefix, count + 1);
                let source = format!(
                    "self-play seed {} game {} ply {}",
                    settings.seed,
                    g + 1,
                    moves.len() + 1
                );
                // `before_last` is from the opponent's view, one ply earlier.
                let change = now + before_last;
                if let Some(p) = cut(&mut engine, &pos, change, settings.nodes, id, source) {
                    let mate = p.theme.is_mate();
                    let follows = last_kept[side].is_some_and(|k| k + 2 == moves.len());
                    if !(mate && mated[side] || !mate && follows) {
                        count += 1;
                        on_puzzle(&p);
                        mated[side] |= mate;
                    }
                    last_kept[side] = Some(moves.len());
                }
            }
            let Some(mv) = pick(&r, margin, &mut state) else {
                break;
            };
            if arb.submit(mv).is_err() {
                break;
            }
            moves.push(mv);
            before_last = now;
        }
        on_game(g, count);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_grow_with_depth_and_length() {
        assert_eq!(rating(1, 1), 600);
        assert!(rating(5, 1) > rating(3, 1));
        assert!(rating(3, 3) > rating(3, 1));
        assert_eq!(rating(40, 6), 2400);
    }

    #[test]
    fn a_hanging_chariot_is_cut_as_a_puzzle() {
        // Black's chariot on a5 stands unprotected in front of Red's chariot on a0 (Black keeps
        // its advisors and elephants, so taking it wins material but no quick mate).
        let pos = Position::from_fen("3akab2/9/4b4/9/r8/9/9/9/9/R3K4 w - - 0 1").expect("test FEN");
        let mut e = Engine::new(4);
        let p = cut(&mut e, &pos, 0, 20_000, "t".into(), "test".into()).expect("a puzzle");
        assert_eq!(p.solution[0].to_string(), "a0a5");
        assert_eq!(p.theme, Theme::WinChariot);
        assert_eq!(p.goal, Goal::Material(900));
    }
}
