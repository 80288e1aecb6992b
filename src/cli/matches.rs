//! `match A B`: an engine match adjudicated by our arbiter, with W/D/L, the Elo difference and
//! its 95% interval, and the games as PGN.

use std::path::PathBuf;
use std::sync::Mutex;

use clap::Args;

use crate::app::write_pgn;
use crate::arbiter::{Ruleset, RulesetName};
use crate::engine::Limits;
use crate::uci::contestant::PlayerSpec;
use crate::uci::matches::{
    parse_openings, run_match_until, Counting, EndKind, GameReport, MatchSettings,
};
use crate::uci::sprt::{EloModel, Sprt, Verdict};
use crate::uci::stats::{GameScore, MatchStats};

use super::emit;

/// `match`: two players, pairs of games from the openings, colours swapped.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Player A: builtin:LEVEL (1–20; builtin alone is 20, the full engine), builtin:random or
    /// builtin:greedy (the anchors below the ladder), level:nodes=N,margin=M,lines=L[,depth=D] (settings to try) or uci:COMMAND
    /// (uci-iccs:/uci-fairy: force the move ranks).
    a: PlayerSpec,
    /// Player B, the same way.
    b: PlayerSpec,
    /// Games to play (each opening is played twice, colours swapped).
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Time per move in milliseconds for external engines and builtin:20 (levels 1–19 keep their
    /// own node budgets); external engines get 1000 when no limit is given.
    #[arg(long)]
    movetime: Option<u64>,
    /// Nodes per move instead of time (external engines and builtin:20).
    #[arg(long)]
    nodes: Option<u64>,
    /// With --nodes: vary each move's node budget by up to this many percent either way (a
    /// fixed function of --seed, the game and the ply), so that games from the same opening do
    /// not repeat move for move when the openings file is played through more than once.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=50))]
    nodes_jitter: u32,
    /// Depth per move instead of time (external engines and builtin:20).
    #[arg(long)]
    depth: Option<u32>,
    /// Openings file: `ICCS moves | name | 名称` a line (default: the initial position only).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Games played at once (each on its own thread, with its own engines).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Write every game to this PGN file, each as it ends (its `Round` tag says where it was in
    /// the match).
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// The ruleset the arbiter applies.
    #[arg(long, default_value = "official")]
    ruleset: RulesetName,
    /// A game still going after this many plies is a draw.
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
    /// Seed of the levels' choices (game i uses seed + i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Transposition table of each built-in engine, in megabytes.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Decide by an SPRT: H0 "A is at most ELO0 stronger" against H1 "at least ELO1" (alpha =
    /// beta = 0.05, on pentanomial pairs). The LLR is printed after each pair and the match stops
    /// when it crosses a bound; --games is then the most games played.
    #[arg(long, value_name = "ELO0,ELO1", value_parser = parse_bounds, allow_hyphen_values = true)]
    sprt: Option<(f64, f64)>,
    /// How the SPRT bounds are expressed: normalized (Fishtest's and fastchess's default) or
    /// logistic Elo.
    #[arg(long, default_value = "normalized")]
    sprt_model: EloModel,
    /// The count the SPRT decides by: arbiter (as our arbiter ruled), mates (rulings are draws:
    /// only mates, stalemates and forfeits decide) or repetition-drawn (repetition rulings are
    /// draws). The report shows all three.
    #[arg(long, default_value = "arbiter")]
    sprt_count: Counting,
}

fn parse_bounds(text: &str) -> Result<(f64, f64), String> {
    let (a, b) = text
        .split_once(',')
        .ok_or_else(|| format!("{text:?}: expected ELO0,ELO1 (for example 0,5)"))?;
    let num = |t: &str| t.trim().parse::<f64>().map_err(|e| format!("{t:?}: {e}"));
    let (a, b) = (num(a)?, num(b)?);
    Sprt::new(a, b, EloModel::Normalized)?;
    Ok((a, b))
}

/// The SPRT's progress while the match runs.
struct SprtState {
    sprt: Sprt,
    /// The count it decides by.
    counting: Counting,
    /// Each game's score for A, by index.
    scores: Vec<Option<GameScore>>,
    /// Pair counts (0, ½, 1, 1½, 2 points for A) of the pairs finished so far.
    pairs: [u32; 5],
    /// The verdict and the number of pairs at which it came.
    verdict: Option<(Verdict, u32)>,
}

impl SprtState {
    /// Count game `g`; `true` when the test has just decided.
    fn record(&mut self, g: &GameReport) -> bool {
        let i = g.index;
        if self.scores.len() <= i {
            self.scores.resize(i + 1, None);
        }
        let score = g.score_for_a_by(self.counting);
        self.scores[i] = Some(score);
        let Some(Some(other)) = self.scores.get(i ^ 1).copied() else {
            return false;
        };
        let points = score.points() + other.points();
        self.pairs[((points * 2.0).round() as usize).min(4)] += 1;
        let done: u32 = self.pairs.iter().sum();
        let llr = self.sprt.llr(&self.pairs);
        emit(&format!(
            "sprt pair {done:>3} (games {}-{}): {}",
            (i & !1) + 1,
            (i & !1) + 2,
            self.sprt.status(&self.pairs)
        ));
        if self.verdict.is_some() {
            return false;
        }
        match self.sprt.verdict(llr) {
            Some(v) => {
                self.verdict = Some((v, done));
                true
            }
            None => false,
        }
    }
}

/// Run `match`.
#[must_use]
pub fn run(args: &MatchArgs) -> i32 {
    let openings = match &args.openings {
        None => Vec::new(),
        Some(path) => match std::fs::read_to_string(path).map_err(|e| e.to_string()) {
            Ok(text) => match parse_openings(&text) {
                Ok(o) if !o.is_empty() => o,
                Ok(_) => {
                    emit(&format!("error: no openings in {}", path.display()));
                    return 2;
                }
                Err(e) => {
                    emit(&format!("error: {}: {e}", path.display()));
                    return 2;
                }
            },
            Err(e) => {
                emit(&format!("error: cannot read {}: {e}", path.display()));
                return 2;
            }
        },
    };
    let limits =
        (args.movetime.is_some() || args.nodes.is_some() || args.depth.is_some()).then(|| Limits {
            movetime_ms: args.movetime,
            nodes: args.nodes,
            depth: args.depth,
            ..Limits::default()
        });
    let settings = MatchSettings {
        games: args.games,
        concurrency: args.concurrency.max(1),
        rules: Ruleset::preset(args.ruleset),
        max_plies: args.max_plies.max(1),
        openings,
        seed: args.seed,
    };
    emit(&format!(
        "match {} vs {}: {} games, {} at a time, ruleset {}",
        args.a, args.b, args.games, settings.concurrency, args.ruleset
    ));
    let sprt = match args.sprt.map(|(e0, e1)| Sprt::new(e0, e1, args.sprt_model)) {
        None => None,
        Some(Ok(s)) => {
            let (low, high) = s.bounds();
            emit(&format!(
                "sprt: H0 elo <= {:.2}, H1 elo >= {:.2} ({} Elo), alpha = beta = {}, LLR bounds ({low:.2}, {high:.2}), games counted by {}",
                s.elo0, s.elo1, s.model, s.alpha, args.sprt_count.as_str()
            ));
            Some(Mutex::new(SprtState {
                sprt: s,
                counting: args.sprt_count,
                scores: Vec::new(),
                pairs: [0; 5],
                verdict: None,
            }))
        }
        Some(Err(e)) => {
            emit(&format!("error: --sprt: {e}"));
            return 2;
        }
    };
    // Each game is added to the PGN file as it ends, so a match stopped part way leaves its
    // games for the referee; the first failed write is kept and reported at the end.
    let live_pgn = match &args.pgn {
        None => None,
        Some(path) => match std::fs::File::create(path) {
            Ok(f) => Some(Mutex::new((f, None::<std::io::Error>))),
            Err(e) => {
                emit(&format!("error: cannot write {}: {e}", path.display()));
                return 1;
            }
        },
    };
    let scores = Mutex::new(Vec::new());
    let on_game = |g: &GameReport| -> bool {
        // The SPRT's lock is held over both, so a game's line and its pair's line stay together.
        let mut state = sprt.as_ref().and_then(|s| s.lock().ok());
        report_game(g, &scores);
        if let Some(mut out) = live_pgn.as_ref().and_then(|f| f.lock().ok()) {
            use std::io::Write as _;
            let (file, failed) = &mut *out;
            if failed.is_none() {
                *failed = writeln!(file, "{}", game_pgn(g, args)).err();
            }
        }
        state.as_mut().is_some_and(|s| s.record(g))
    };
    let (a, b, hash, jitter) = (&args.a, &args.b, args.hash, args.nodes_jitter);
    let make =
        |is_a: bool| Ok((if is_a { a } else { b }).contestant(limits.as_ref(), hash, jitter));
    let games = match run_match_until(&settings, make, &on_game) {
        Ok(g) => g,
        Err(e) => {
            emit(&format!("error: {e}"));
            return 1;
        }
    };
    let stats = MatchStats::new(
        &games
            .iter()
            .map(GameReport::score_for_a)
            .collect::<Vec<_>>(),
    );
    emit(&format!("{} vs {}: {stats}", args.a, args.b));
    if stats.pentanomial {
        let p = stats.pairs;
        emit(&format!(
            "pairs by points for A (0, 1/2, 1, 3/2, 2): {} {} {} {} {}",
            p[0], p[1], p[2], p[3], p[4]
        ));
    }
    for counting in Counting::ALL {
        let scores: Vec<GameScore> = games.iter().map(|g| g.score_for_a_by(counting)).collect();
        let s = MatchStats::new(&scores);
        let p = s.pairs;
        emit(&format!(
            "count {:<17} {s}; pairs {} {} {} {} {} ({})",
            format!("{}:", counting.as_str()),
            p[0],
            p[1],
            p[2],
            p[3],
            p[4],
            counting_note(counting)
        ));
    }
    emit(&format!("endings (A won/drawn/B won): {}", endings(&games)));
    if let Some(state) = sprt.as_ref().and_then(|s| s.lock().ok()) {
        let all = state.sprt.status(&state.pairs);
        let pairs: u32 = state.pairs.iter().sum();
        emit(&match state.verdict {
            Some((v, at)) => format!(
                "sprt verdict: {v} after {at} pairs ({}); {all} after all {pairs} pairs",
                match v {
                    Verdict::H0 => format!(
                        "H1 rejected: A is less than {:.2} {} Elo stronger",
                        state.sprt.elo1, state.sprt.model
                    ),
                    Verdict::H1 => format!(
                        "H0 rejected: A is more than {:.2} {} Elo stronger",
                        state.sprt.elo0, state.sprt.model
                    ),
                }
            ),
            None => format!(
                "sprt verdict: inconclusive after {pairs} pairs ({all}): no bound crossed in {} games",
                args.games
            ),
        });
    }
    let failed = live_pgn
        .and_then(|f| f.into_inner().ok())
        .and_then(|(_, e)| e);
    if let (Some(path), Some(e)) = (&args.pgn, failed) {
        emit(&format!("error: cannot write {}: {e}", path.display()));
        return 1;
    }
    0
}

/// What a count of the report means, in a few words.
fn counting_note(c: Counting) -> &'static str {
    match c {
        Counting::Arbiter => "as our arbiter ruled",
        Counting::Mates => {
            "mates and stalemates alone: every ruling (repetition, counts, ply limit) a draw, forfeits stand"
        }
        Counting::RepetitionDrawn => {
            "as ruled, but perpetual check, perpetual chase and their fouls drawn"
        }
    }
}

fn kind_name(k: EndKind) -> &'static str {
    match k {
        EndKind::Mate => "mate",
        EndKind::Repetition => "repetition",
        EndKind::Rule => "rule",
        EndKind::Forfeit => "forfeit",
    }
}

/// `checkmate [mate] 10/0/5, perpetual_chase [repetition] 2/0/0, ...` in order of frequency.
fn endings(games: &[GameReport]) -> String {
    let mut rows: Vec<(&str, EndKind, [u32; 3])> = Vec::new();
    for g in games {
        let col = match g.score_for_a() {
            GameScore::Win => 0,
            GameScore::Draw => 1,
            GameScore::Loss => 2,
        };
        match rows
            .iter_mut()
            .find(|(e, k, _)| *e == g.ending && *k == g.kind)
        {
            Some((_, _, c)) => c[col] += 1,
            None => {
                let mut c = [0; 3];
                c[col] = 1;
                rows.push((g.ending, g.kind, c));
            }
        }
    }
    rows.sort_by_key(|(e, _, c)| (std::cmp::Reverse(c.iter().sum::<u32>()), *e));
    rows.iter()
        .map(|(e, k, c)| format!("{e} [{}] {}/{}/{}", kind_name(*k), c[0], c[1], c[2]))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Print one finished game, with A's score so far.
fn report_game(g: &GameReport, scores: &Mutex<Vec<GameScore>>) {
    let Ok(mut s) = scores.lock() else { return };
    s.push(g.score_for_a());
    let so_far = MatchStats::new(&s);
    emit(&format!(
        "game {:>3}: {} - {} {} ({}, {} plies){} | A so far: +{} ={} -{}",
        g.index + 1,
        g.red,
        g.black,
        g.outcome.pgn(),
        g.reason,
        g.moves.len(),
        if g.opening.is_empty() {
            String::new()
        } else {
            format!(" [{}]", g.opening)
        },
        so_far.wins,
        so_far.draws,
        so_far.losses
    ));
}

/// One game as PGN: the moves in WXF, and for a referee of its own (`scripts/referee.py`) the
/// same moves in ICCS (`Iccs`), which side player A had (`PlayerA`), how the game ended (`Ending`,
/// `EndKind`) and its result by mates and stalemates alone (`MatesResult`).
fn game_pgn(g: &GameReport, args: &MatchArgs) -> String {
    let iccs: Vec<String> = g.moves.iter().map(ToString::to_string).collect();
    let mates = Counting::Mates.outcome(g.outcome, g.kind);
    let tags = [
        ("Event", format!("{} vs {}", args.a, args.b)),
        ("Site", "xiangqi-bot match".to_string()),
        ("Round", (g.index + 1).to_string()),
        ("Red", g.red.clone()),
        ("Black", g.black.clone()),
        ("Opening", g.opening.clone()),
        ("Ruleset", args.ruleset.to_string()),
        ("Termination", g.reason.clone()),
        ("PlayerA", if g.a_red { "Red" } else { "Black" }.to_string()),
        ("Ending", g.ending.to_string()),
        ("EndKind", kind_name(g.kind).to_string()),
        ("MatesResult", mates.pgn().to_string()),
        ("Iccs", iccs.join(" ")),
    ];
    write_pgn(&tags, None, &g.moves, g.outcome.pgn())
}
