//! `/puzzle`: a puzzle from the shipped set (composed endgames and tactics cut from the
//! engine's games), posted as a board and solved by typing or picking moves. Every correct
//! move is answered by the defender's reply; any move that also wins is accepted, not only the
//! listed one (see [`crate::puzzle::check_move`]).
//!
//! One puzzle lives in a channel at a time, apart from the channel's game: a typed move goes
//! to the game when its author plays in the game here, else to the puzzle (`/puzzle MOVE`
//! always goes to the puzzle). Several people may solve together: each correct move moves the
//! shared puzzle on, and whoever plays the last one is credited with the solve.
//!
//! A wrong move ends its author's try (their puzzle rating counts it as missed) and is
//! answered with its refutation. In a private chat the solution follows at once. In a group
//! it does not: a message cannot be shown to one member only on every platform, so telling
//! one the solution would tell everyone; the others go on trying, and the solution comes with
//! the end of the puzzle (solved, *Show solution*, *Next*). A hint (which piece moves) makes
//! the puzzle unrated for everyone.

mod daily;
mod rate;
mod show;

use std::collections::HashMap;
use std::sync::OnceLock;

pub(crate) use daily::due as daily_due;

use super::action::Action;
use super::analysis::pool_key;
use super::bot::{Job, Outcome};
use super::chat::{AppResult, Reply};
use super::command::is_daily_word;
use super::ctx::{Ctx, Slot};
use super::view::looks_like_move;
use crate::core::{Move, Position};
use crate::game::{Changes, LivePuzzle, RECENT_PUZZLES};
use crate::i18n::app::Msg;
use crate::i18n::notation::move_text_error;
use crate::i18n::puzzle::PuzzleMsg;
use crate::notation::{read_move, Notation};
use crate::platform::UserKey;
use crate::puzzle::select::{choose, parse_filter, Filter};
use crate::puzzle::{shipped, Progress, Puzzle, Verdict};
use crate::rating::Score;

/// The shipped set, read once.
struct Set {
    all: Vec<Puzzle>,
    by_id: HashMap<String, usize>,
}

fn set() -> &'static Set {
    static SET: OnceLock<Set> = OnceLock::new();
    SET.get_or_init(|| {
        let all = shipped();
        let by_id = all
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id.clone(), i))
            .collect();
        Set { all, by_id }
    })
}

fn find(id: &str) -> Option<&'static Puzzle> {
    let s = set();
    s.by_id.get(id).and_then(|&i| s.all.get(i))
}

/// The moves played in `live` (both sides).
fn played(live: &LivePuzzle) -> Vec<Move> {
    live.played
        .iter()
        .filter_map(|m| Move::parse_iccs(m))
        .collect()
}

/// The position after `moves` from the puzzle's start.
fn position_after(p: &Puzzle, moves: &[Move]) -> Position {
    let mut pos = p.position.clone();
    for &m in moves {
        pos.play_unchecked(m);
    }
    pos
}

/// What `/puzzle WORDS` asks.
enum Ask<'a> {
    New(&'a str),
    Next(&'a str),
    Hint,
    Solution,
    Stats,
    Daily(&'a str),
}

fn ask(args: &str) -> Ask<'_> {
    let (first, rest) = match args.find(char::is_whitespace) {
        Some(i) => (&args[..i], args[i..].trim()),
        None => (args, ""),
    };
    match first.to_lowercase().as_str() {
        "next" | "new" | "another" | "tiếp" | "tiep" | "khác" | "khac" | "下一题" | "下一題"
        | "换" | "換" => Ask::Next(rest),
        "hint" | "gợiý" | "goiy" | "提示" => Ask::Hint,
        "solution" | "answer" | "giveup" | "lờigiải" | "loigiai" | "đápán" | "dapan" | "答案" => {
            Ask::Solution
        }
        "stats" | "thốngkê" | "thongke" | "统计" | "統計" => Ask::Stats,
        w if is_daily_word(w) => Ask::Daily(rest),
        _ => Ask::New(args),
    }
}

/// `/puzzle [words]`.
pub(crate) async fn command(ctx: &Ctx<'_>, slot: &mut Slot, args: &str) -> AppResult<Vec<Reply>> {
    match ask(args) {
        Ask::Next(rest) => next(ctx, slot, rest).await,
        Ask::Hint => hint(ctx, slot).await,
        Ask::Solution => give_up(ctx, slot).await,
        Ask::Stats => rate::stats(ctx),
        Ask::Daily(rest) => daily::configure(ctx, slot, rest).await,
        // `/puzzle @someone` (on Discord, the player option alone): their record.
        Ask::New(words)
            if !words.is_empty()
                && words
                    .split_whitespace()
                    .all(|w| ctx.mentions().iter().any(|(token, _)| token == w)) =>
        {
            rate::stats(ctx)
        }
        Ask::New(words) => {
            let named = find(words.trim_start_matches('#').to_lowercase().as_str());
            if slot.record.puzzle.is_some() {
                if named.is_none() && !words.is_empty() && parse_filter(words).is_err() {
                    // Not a theme: a move for the puzzle under way.
                    return typed(ctx, slot, words).await;
                }
                return Ok(vec![
                    ctx.say_puzzle(&PuzzleMsg::AlreadyLive),
                    show::again(ctx, slot)?,
                ]);
            }
            if let Some(p) = named {
                return Ok(vec![start(ctx, slot, p, false).await?]);
            }
            match parse_filter(words) {
                Ok(f) => post_new(ctx, slot, &f, words, Vec::new()).await,
                Err(asked) => Ok(vec![ctx.say_puzzle(&PuzzleMsg::NoMatch { asked })]),
            }
        }
    }
}

/// Whether a bare text goes to the channel's puzzle: one is live, the text reads as a move,
/// and its author does not play in the game here.
pub(crate) fn takes_text(ctx: &Ctx<'_>, slot: &Slot, text: &str) -> bool {
    slot.record.puzzle.is_some()
        && !slot
            .game
            .as_ref()
            .is_some_and(|g| g.is_active() && g.color_of(&ctx.user.id).is_some())
        && looks_like_move(text)
}

/// A typed move for the puzzle.
pub(crate) async fn typed(ctx: &Ctx<'_>, slot: &mut Slot, text: &str) -> AppResult<Vec<Reply>> {
    let Some((live, p)) = current(slot) else {
        return Ok(vec![ctx.say_puzzle(&PuzzleMsg::NoPuzzle)]);
    };
    let pos = position_after(p, &played(&live));
    match read_move(&pos, text, ctx.notation) {
        Ok(reading) => {
            let echo = ctx.echo_notation(reading.notation);
            play(ctx, slot, live, p, reading.mv, echo).await
        }
        Err(e) => Ok(vec![ctx.say(Msg::NotAMove {
            detail: move_text_error(&e, ctx.lang),
        })]),
    }
}

/// A button under a puzzle.
pub(crate) async fn on_action(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    action: Action,
) -> AppResult<Vec<Reply>> {
    let (number, ply) = action.target();
    let live = slot.record.puzzle.clone().filter(|l| l.number == number);
    let Some(live) = live else {
        // *Next* under a puzzle that ended: a new one, unless another is under way.
        if let Action::PuzzleNext { .. } = action {
            if slot.record.puzzle.is_none() {
                return post_new(ctx, slot, &Filter::default(), "", Vec::new()).await;
            }
            return Ok(vec![
                ctx.private_puzzle(&PuzzleMsg::AlreadyLive),
                show::again(ctx, slot)?,
            ]);
        }
        return Ok(vec![ctx.private_puzzle(&PuzzleMsg::Over)]);
    };
    let moves = u32::try_from(live.played.len()).unwrap_or(u32::MAX);
    if ply.is_some_and(|p| p != moves) {
        return Ok(vec![ctx.private(Msg::StaleButton)]);
    }
    match action {
        Action::PuzzleHint { .. } => hint(ctx, slot).await,
        Action::PuzzleSolution { .. } => give_up(ctx, slot).await,
        Action::PuzzleNext { .. } => next(ctx, slot, "").await,
        Action::PuzzlePick { .. } => Ok(vec![show::picker(ctx, slot, None)]),
        Action::PuzzlePickFrom { from, .. } => Ok(vec![show::picker(ctx, slot, Some(from))]),
        Action::PuzzlePickTo { mv, .. } => match find(&live.id) {
            Some(p) => play(ctx, slot, live, p, mv, ctx.notation).await,
            None => Ok(vec![ctx.private_puzzle(&PuzzleMsg::Over)]),
        },
        _ => Ok(Vec::new()),
    }
}

/// The live puzzle and its set entry (a puzzle no longer shipped counts as none).
fn current(slot: &Slot) -> Option<(LivePuzzle, &'static Puzzle)> {
    let live = slot.record.puzzle.clone()?;
    let p = find(&live.id)?;
    Some((live, p))
}

/// Store `live` (or no puzzle) as the channel's, with `changes`.
async fn store(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    live: Option<LivePuzzle>,
    changes: Changes,
) -> AppResult<()> {
    ctx.edit_record(slot, |r| r.puzzle = live, changes).await
}

/// Post a new puzzle matching `filter`, read from the words `asked` (after `before`, what
/// ending the last one said).
async fn post_new(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    filter: &Filter,
    asked: &str,
    mut before: Vec<Reply>,
) -> AppResult<Vec<Reply>> {
    let target = ctx
        .svc
        .storage()
        .puzzle_player(&ctx.user.id)?
        .map_or(crate::rating::glicko::START_RATING, |p| p.rating.rating);
    let seed = ctx.now ^ xxhash_rust::xxh3::xxh3_64(ctx.channel.as_bytes());
    let Some(p) = choose(
        &set().all,
        filter,
        target,
        &slot.record.recent_puzzles,
        seed,
    ) else {
        before.push(ctx.say_puzzle(&PuzzleMsg::NoMatch {
            asked: asked.chars().take(40).collect(),
        }));
        return Ok(before);
    };
    before.push(start(ctx, slot, p, false).await?);
    Ok(before)
}

/// Make `p` the channel's puzzle and show it.
async fn start(ctx: &Ctx<'_>, slot: &mut Slot, p: &Puzzle, daily: bool) -> AppResult<Reply> {
    let live = LivePuzzle {
        number: ctx.svc.storage().next_id()?,
        id: p.id.clone(),
        played: Vec::new(),
        on_line: true,
        started_ms: ctx.now,
        solvers: Vec::new(),
        missed: Vec::new(),
        hinted: false,
        daily,
    };
    let shown = live.clone();
    ctx.edit_record(
        slot,
        |r| {
            r.recent_puzzles.retain(|id| *id != p.id);
            r.recent_puzzles.push(p.id.clone());
            let excess = r.recent_puzzles.len().saturating_sub(RECENT_PUZZLES);
            r.recent_puzzles.drain(..excess);
            r.puzzle = Some(shown);
        },
        Changes::default(),
    )
    .await?;
    let standing = ctx.svc.storage().puzzle_standing(&p.id)?;
    Ok(show::posted(ctx, p, &live, standing))
}

/// Run `job` on the thinking pool, in the acting person's turn (a puzzle's judgements are
/// engine work like any other: bounded by the pool's threads, fair between people).
/// `None` if the pool stopped or the search panicked.
async fn on_pool(ctx: &Ctx<'_>, job: Job) -> Option<Outcome> {
    ctx.svc
        .thinking_pool()
        .submit(&ctx.user.id, &pool_key(ctx.channel, "puzzle"), job)
        .result()
        .await
}

/// Judge `mv` (off the listed line the engine is asked).
async fn judge(ctx: &Ctx<'_>, p: &'static Puzzle, progress: Progress, mv: Move) -> Verdict {
    let job = Job::PuzzleMove {
        puzzle: p,
        progress,
        mv,
        nodes: ctx.svc.config.puzzle_nodes,
    };
    match on_pool(ctx, job).await {
        Some(Outcome::Judged(v)) => v,
        _ => Verdict::Illegal,
    }
}

/// A winning line from where `live` stands.
async fn line_from(ctx: &Ctx<'_>, p: &'static Puzzle, live: &LivePuzzle) -> Vec<Move> {
    let job = Job::PuzzleLine {
        puzzle: p,
        progress: Progress {
            played: played(live),
            on_line: live.on_line,
        },
        nodes: ctx.svc.config.puzzle_nodes,
    };
    match on_pool(ctx, job).await {
        Some(Outcome::Line(line)) => line,
        _ => Vec::new(),
    }
}

/// Play the acting user's move `mv` in the live puzzle, echoing moves in `echo` (and ICCS).
async fn play(
    ctx: &Ctx<'_>,
    slot: &mut Slot,
    mut live: LivePuzzle,
    p: &'static Puzzle,
    mv: Move,
    echo: Notation,
) -> AppResult<Vec<Reply>> {
    let me = &ctx.user;
    if live.missed.contains(&me.id) {
        return Ok(vec![ctx.private_puzzle(&PuzzleMsg::AlreadyMissed {
            player: me.name.clone(),
        })]);
    }
    let before = played(&live);
    let progress = Progress {
        played: before.clone(),
        on_line: live.on_line,
    };
    let verdict = judge(ctx, p, progress, mv).await;
    if !live.solvers.iter().any(|(id, _)| *id == me.id) && !matches!(verdict, Verdict::Wrong { .. })
    {
        live.solvers.push((me.id.clone(), me.name.clone()));
    }
    match verdict {
        Verdict::Illegal => Ok(vec![ctx.private(Msg::StaleButton)]),
        Verdict::Correct { reply, progress } => {
            live.played = progress.played.iter().map(Move::to_string).collect();
            live.on_line = progress.on_line;
            store(ctx, slot, Some(live.clone()), Changes::default()).await?;
            Ok(vec![show::answered(ctx, p, &live, mv, reply, echo)])
        }
        Verdict::Solved => {
            let results: Vec<(UserKey, String, Score)> = live
                .solvers
                .iter()
                .map(|(id, name)| (id.clone(), name.clone(), Score::Win))
                .collect();
            let (changes, lines) = rate::rate(ctx, p, &live, &results)?;
            store(ctx, slot, None, changes).await?;
            Ok(vec![show::solved(ctx, p, &live, mv, &lines, echo)])
        }
        Verdict::Wrong {
            refutation,
            solution,
        } => {
            let results = [(me.id.clone(), me.name.clone(), Score::Loss)];
            let (changes, lines) = rate::rate(ctx, p, &live, &results)?;
            let alone = ctx.community().is_none();
            let pos = position_after(p, &before);
            let wrong = show::wrong(ctx, &pos, mv, refutation, !alone, &lines, echo);
            if alone {
                store(ctx, slot, None, changes).await?;
                return Ok(vec![
                    wrong,
                    show::solution(ctx, p, &before, &solution, &live),
                ]);
            }
            live.missed.push(me.id.clone());
            live.solvers.retain(|(id, _)| *id != me.id);
            store(ctx, slot, Some(live), changes).await?;
            Ok(vec![wrong])
        }
    }
}

/// `/puzzle hint`: which piece moves next (the puzzle is unrated from now on).
async fn hint(ctx: &Ctx<'_>, slot: &mut Slot) -> AppResult<Vec<Reply>> {
    let Some((mut live, p)) = current(slot) else {
        return Ok(vec![ctx.say_puzzle(&PuzzleMsg::NoPuzzle)]);
    };
    let line = line_from(ctx, p, &live).await;
    let Some(&first) = line.first() else {
        return give_up(ctx, slot).await;
    };
    let pos = position_after(p, &played(&live));
    live.hinted = true;
    store(ctx, slot, Some(live), Changes::default()).await?;
    Ok(vec![show::hint(ctx, &pos, first)])
}

/// `/puzzle solution`: the solution, and the puzzle ends (unsolved, nobody rated).
async fn give_up(ctx: &Ctx<'_>, slot: &mut Slot) -> AppResult<Vec<Reply>> {
    let replies = end(ctx, slot).await?;
    if replies.is_empty() {
        return Ok(vec![ctx.say_puzzle(&PuzzleMsg::NoPuzzle)]);
    }
    Ok(replies)
}

/// End the live puzzle, if any, showing its solution.
async fn end(ctx: &Ctx<'_>, slot: &mut Slot) -> AppResult<Vec<Reply>> {
    let Some((live, p)) = current(slot) else {
        if slot.record.puzzle.is_some() {
            store(ctx, slot, None, Changes::default()).await?;
        }
        return Ok(Vec::new());
    };
    let line = line_from(ctx, p, &live).await;
    store(ctx, slot, None, Changes::default()).await?;
    Ok(vec![show::solution(ctx, p, &played(&live), &line, &live)])
}

/// `/puzzle next [words]`: the live puzzle ends with its solution, a new one follows.
async fn next(ctx: &Ctx<'_>, slot: &mut Slot, words: &str) -> AppResult<Vec<Reply>> {
    let filter = match parse_filter(words) {
        Ok(f) => f,
        Err(asked) => return Ok(vec![ctx.say_puzzle(&PuzzleMsg::NoMatch { asked })]),
    };
    let before = end(ctx, slot).await?;
    post_new(ctx, slot, &filter, words, before).await
}

impl Ctx<'_> {
    /// A puzzle message for the channel.
    pub(crate) fn say_puzzle(&self, m: &PuzzleMsg) -> Reply {
        Reply::text(crate::i18n::puzzle::text(m, self.lang))
    }

    /// A puzzle notice for the acting user alone.
    pub(crate) fn private_puzzle(&self, m: &PuzzleMsg) -> Reply {
        Reply::private(crate::i18n::puzzle::text(m, self.reader))
    }
}
