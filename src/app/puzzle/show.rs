//! What a puzzle looks like in chat: its board with a caption and buttons, the answers to
//! moves, the solution, the hint and the move picker.

use super::super::ctx::{Ctx, Slot};
use super::super::view::{pick_menu, pick_prompt, Picks};
use super::{find, played, position_after};
use crate::app::action::Action;
use crate::app::chat::{Button, Image, Reply};
use crate::app::drawing::Drawing;
use crate::core::{Color, Move, Position};
use crate::game::{LivePuzzle, PuzzleStanding};
use crate::i18n::app::color_word;
use crate::i18n::puzzle::{label, text, PuzzleLabel, PuzzleMsg};
use crate::i18n::Lang;
use crate::notation::{format_move, Notation};
use crate::puzzle::select::is_endgame;
use crate::puzzle::Puzzle;

/// Most rating changes listed under a solved puzzle.
const MAX_LINES: usize = 12;
/// Longest source credit shown (characters).
const MAX_SOURCE: usize = 120;

/// Where a puzzle comes from, for players.
fn source(p: &Puzzle, lang: Lang) -> String {
    if is_endgame(p) {
        return p.source.chars().take(MAX_SOURCE).collect();
    }
    match lang {
        Lang::En => "a game of the bot against itself".into(),
        Lang::Vi => "một ván máy tự đấu".into(),
        Lang::Zh => "引擎自弈对局".into(),
    }
}

fn side(c: Color, lang: Lang) -> String {
    color_word(c.name(), lang).to_string()
}

/// The buttons under a puzzle's board.
fn buttons(live: &LivePuzzle, lang: Lang) -> Vec<Vec<Button>> {
    let b = |l: PuzzleLabel, action: Action| Button {
        label: label(l, lang).to_string(),
        action,
    };
    let n = live.number;
    let ply = u32::try_from(live.played.len()).unwrap_or(u32::MAX);
    vec![
        vec![
            b(PuzzleLabel::Pick, Action::PuzzlePick { puzzle: n, ply }),
            b(PuzzleLabel::Hint, Action::PuzzleHint { puzzle: n }),
        ],
        vec![
            b(PuzzleLabel::Solution, Action::PuzzleSolution { puzzle: n }),
            b(PuzzleLabel::Next, Action::PuzzleNext { puzzle: n }),
        ],
    ]
}

/// Only *Next* (under a puzzle that ended).
fn next_only(number: u64, lang: Lang) -> Vec<Vec<Button>> {
    vec![vec![Button {
        label: label(PuzzleLabel::Next, lang).to_string(),
        action: Action::PuzzleNext { puzzle: number },
    }]]
}

/// A board of `pos` (reached by `last`) seen from `solver`'s side.
fn board(
    ctx: &Ctx<'_>,
    pos: &Position,
    last: Option<Move>,
    solver: Color,
    name: String,
    caption: String,
    buttons: Vec<Vec<Button>>,
) -> Reply {
    let drawing = Drawing {
        position: pos.clone(),
        last_move: last,
        black_below: solver == Color::Black,
        red: (side(Color::Red, ctx.lang), None),
        black: (side(Color::Black, ctx.lang), None),
        arrows: Vec::new(),
        described_in: None,
    };
    Reply {
        text: caption,
        image: Some(Image::board(
            format!("{name}.png"),
            drawing,
            ctx.lang,
            ctx.svc.config.images,
        )),
        buttons,
        ..Reply::default()
    }
}

/// A new puzzle.
pub(super) fn posted(
    ctx: &Ctx<'_>,
    p: &Puzzle,
    live: &LivePuzzle,
    standing: Option<PuzzleStanding>,
) -> Reply {
    let rating = standing.map_or(i64::from(p.rating), |s| s.rating.shown());
    let caption = text(
        &PuzzleMsg::Posted {
            id: p.id.clone(),
            theme: p.theme,
            side: side(p.solver(), ctx.lang),
            rating,
            source: source(p, ctx.lang),
            daily: live.daily,
        },
        ctx.lang,
    );
    board(
        ctx,
        &p.position,
        None,
        p.solver(),
        format!("puzzle-{}-0", live.number),
        caption,
        buttons(live, ctx.lang),
    )
}

/// The solver moves still to find after `live`'s moves.
fn left(p: &Puzzle, live: &LivePuzzle) -> usize {
    p.moves_to_find()
        .saturating_sub(live.played.len().div_ceil(2))
}

/// The live puzzle shown again, as it stands.
pub(super) fn again(ctx: &Ctx<'_>, slot: &Slot) -> crate::app::AppResult<Reply> {
    let Some(live) = slot.record.puzzle.as_ref() else {
        return Ok(ctx.say_puzzle(&PuzzleMsg::NoPuzzle));
    };
    let Some(p) = find(&live.id) else {
        return Ok(ctx.say_puzzle(&PuzzleMsg::NoPuzzle));
    };
    let moves = played(live);
    let pos = position_after(p, &moves);
    let caption = text(
        &PuzzleMsg::Again {
            id: p.id.clone(),
            side: side(p.solver(), ctx.lang),
            left: left(p, live),
        },
        ctx.lang,
    );
    Ok(board(
        ctx,
        &pos,
        moves.last().copied(),
        p.solver(),
        format!("puzzle-{}-{}", live.number, moves.len()),
        caption,
        buttons(live, ctx.lang),
    ))
}

/// `mv` from `pos` as a game echoes it: in `echo`, then in ICCS (`C2.5 (h2e2)`; once when
/// `echo` is ICCS).
fn echoed(pos: &Position, mv: Move, echo: Notation, lang: Lang) -> String {
    crate::i18n::with_iccs(&format_move(pos, mv, echo), &mv.to_string(), lang)
}

/// A correct move `mv`, answered by `reply` (already in `live`).
pub(super) fn answered(
    ctx: &Ctx<'_>,
    p: &Puzzle,
    live: &LivePuzzle,
    mv: Move,
    reply: Move,
    echo: Notation,
) -> Reply {
    let moves = played(live);
    let before_mv = position_after(p, &moves[..moves.len().saturating_sub(2)]);
    let before_reply = before_mv.after(mv);
    let pos = before_reply.after(reply);
    let caption = text(
        &PuzzleMsg::Correct {
            player: ctx.user.name.clone(),
            mv: echoed(&before_mv, mv, echo, ctx.lang),
            reply: echoed(&before_reply, reply, echo, ctx.lang),
            left: left(p, live),
        },
        ctx.lang,
    );
    board(
        ctx,
        &pos,
        Some(reply),
        p.solver(),
        format!("puzzle-{}-{}", live.number, moves.len()),
        caption,
        buttons(live, ctx.lang),
    )
}

/// The last move `mv`: solved. `lines` are the rating changes.
pub(super) fn solved(
    ctx: &Ctx<'_>,
    p: &Puzzle,
    live: &LivePuzzle,
    mv: Move,
    lines: &[String],
    echo: Notation,
) -> Reply {
    let before = position_after(p, &played(live));
    let pos = before.after(mv);
    let seconds = ctx.now.saturating_sub(live.started_ms) / 1000;
    let mut caption = text(
        &PuzzleMsg::Solved {
            player: ctx.user.name.clone(),
            mv: echoed(&before, mv, echo, ctx.lang),
            seconds,
        },
        ctx.lang,
    );
    // A caption has room for a dozen solvers (Telegram allows 1,024 characters).
    for l in lines.iter().take(MAX_LINES) {
        caption.push('\n');
        caption.push_str(l);
    }
    if lines.len() > MAX_LINES {
        caption.push_str("\n…");
    }
    board(
        ctx,
        &pos,
        Some(mv),
        p.solver(),
        format!("puzzle-{}-{}", live.number, live.played.len() + 1),
        caption,
        next_only(live.number, ctx.lang),
    )
}

/// A wrong move `mv` from `pos`, and its refutation.
pub(super) fn wrong(
    ctx: &Ctx<'_>,
    pos: &Position,
    mv: Move,
    refutation: Option<Move>,
    others: bool,
    lines: &[String],
    echo: Notation,
) -> Reply {
    let after = pos.after(mv);
    let refutation = refutation
        .filter(|r| after.is_legal(*r))
        .map(|r| echoed(&after, r, echo, ctx.lang));
    let mut t = text(
        &PuzzleMsg::Wrong {
            player: ctx.user.name.clone(),
            mv: echoed(pos, mv, echo, ctx.lang),
            refutation,
            others,
        },
        ctx.lang,
    );
    for l in lines {
        t.push('\n');
        t.push_str(l);
    }
    Reply::text(t)
}

/// The moves of `line` from `pos` (up to the first that cannot be played), numbered by the
/// solver's moves (`1. … … 2. …`), with the position they reach and the last move played.
fn numbered(
    pos: &Position,
    line: &[Move],
    notation: crate::notation::Notation,
) -> (String, Position, Option<Move>) {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    let mut last = None;
    for (i, &m) in line.iter().enumerate() {
        if !pos.is_legal(m) {
            break;
        }
        let written = format_move(&pos, m, notation);
        if i % 2 == 0 {
            out.push(format!("{}. {written}", i / 2 + 1));
        } else {
            out.push(written);
        }
        pos.play_unchecked(m);
        last = Some(m);
    }
    (out.join(" "), pos, last)
}

/// The solution from where the puzzle stood after `before`: its board at the end, and *Next*.
pub(super) fn solution(
    ctx: &Ctx<'_>,
    p: &Puzzle,
    before: &[Move],
    line: &[Move],
    live: &LivePuzzle,
) -> Reply {
    let (written, end, last) = numbered(&position_after(p, before), line, ctx.notation);
    let caption = text(&PuzzleMsg::Solution { line: written }, ctx.lang);
    board(
        ctx,
        &end,
        last,
        p.solver(),
        format!("puzzle-{}-end", live.number),
        caption,
        next_only(live.number, ctx.lang),
    )
}

/// The hint: which piece makes the winning move `mv` from `pos`.
pub(super) fn hint(ctx: &Ctx<'_>, pos: &Position, mv: Move) -> Reply {
    let piece = pos.piece_at(mv.from).map_or_else(
        || mv.from.to_string(),
        |pc| {
            format!(
                "{} {}",
                crate::i18n::role_name(pc.role, pc.color, ctx.lang),
                mv.from
            )
        },
    );
    ctx.say_puzzle(&PuzzleMsg::Hint { piece })
}

/// The move picker of the live puzzle (the solver's pieces, then one piece's moves).
pub(super) fn picker(ctx: &Ctx<'_>, slot: &Slot, from: Option<crate::core::Square>) -> Reply {
    let Some(live) = slot.record.puzzle.as_ref() else {
        return ctx.private_puzzle(&PuzzleMsg::Over);
    };
    let Some(p) = find(&live.id) else {
        return ctx.private_puzzle(&PuzzleMsg::Over);
    };
    let pos = position_after(p, &played(live));
    let (n, ply) = (
        live.number,
        u32::try_from(live.played.len()).unwrap_or(u32::MAX),
    );
    let player = ctx.user.name.clone();
    pick_menu(
        ctx.lang,
        ctx.public_notation(),
        &pos,
        from,
        &pick_prompt(player),
        &Picks {
            from: &|from| Action::PuzzlePickFrom {
                puzzle: n,
                ply,
                from,
            },
            to: &|mv| Action::PuzzlePickTo { puzzle: n, ply, mv },
            back: Action::PuzzlePick { puzzle: n, ply },
        },
    )
}
