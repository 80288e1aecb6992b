//! PGN export as xiangqi tools read it: `[Game "Chinese Chess"]`, the players, the result, a
//! `[FEN]` tag for a set-up start, and the moves in WXF notation.

use crate::core::{Color, Move, Position};
use crate::engine::{Judgement, Review};
use crate::game::{GameRecord, GameStatus};
use crate::notation::{format_move, Notation};

/// A tag value as PGN quotes it: a backslash is escaped (`\\`), since a reader takes `\"` for an
/// escaped quote and a name ending in `\` would swallow the closing quote; quotes become `'` (as
/// before) and control characters are dropped.
fn tag_value(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars().filter(|c| !c.is_control()) {
        match c {
            '"' => out.push('\''),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
    out
}

pub(crate) fn date(ms: u64) -> String {
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let days = i64::try_from(ms / 86_400_000).unwrap_or(0);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The game as PGN text.
#[must_use]
pub fn pgn(record: &GameRecord, site: &str) -> String {
    annotated_pgn(record, site, &[])
}

/// The game as PGN text with `notes` after its moves (a review's).
pub(crate) fn annotated_pgn(record: &GameRecord, site: &str, notes: &[PgnNote]) -> String {
    let result = match &record.status {
        GameStatus::Finished { result, .. } => result.pgn(),
        _ => "*",
    };
    let mut tags = vec![
        ("Event", format!("Game #{}", record.id)),
        ("Site", site.to_string()),
        ("Date", date(record.created_ms)),
        ("Red", record.red.name.clone()),
        ("Black", record.black.name.clone()),
        ("TimeControl", record.time_control.to_string()),
    ];
    if let GameStatus::Finished { reason, .. } = &record.status {
        tags.push(("Termination", reason.as_str().to_string()));
    }
    let start = record
        .start_fen
        .as_deref()
        .and_then(|f| Position::from_fen(f).ok().map(|p| (f, p)));
    let moves: Vec<Move> = record
        .moves
        .iter()
        .map_while(|t| Move::parse_iccs(t))
        .collect();
    write_annotated_pgn(
        &tags,
        start.as_ref().map(|(f, p)| (*f, p)),
        &moves,
        notes,
        result,
    )
}

/// What follows one move of an annotated game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnNote {
    /// A numeric annotation glyph (`2` is written `$2`), if any.
    pub nag: Option<u8>,
    /// A comment (braces in it are replaced: PGN comments cannot contain them).
    pub comment: Option<String>,
    /// A variation from the position before the move (the better line), in WXF like the game.
    pub variation: Vec<Move>,
}

/// A game as PGN text: `[Game "Chinese Chess"]`, the `tags` in order with `Result` after
/// `Black` (as the seven-tag roster has it), `Format`, and `FEN` for a set-up start; then the
/// moves in WXF wrapped at 80 columns. Moves are written until one does not play.
#[must_use]
pub fn write_pgn(
    tags: &[(&str, String)],
    start: Option<(&str, &Position)>,
    moves: &[Move],
    result: &str,
) -> String {
    write_annotated_pgn(tags, start, moves, &[], result)
}

/// Move-text tokens of `moves` from `pos`: move numbers (`3.`, or `3...` for Black after
/// anything but Red's move of the same number), the moves in WXF, and after move `i` the glyph,
/// comment and variation of `notes[i]`. Stops at the first move that does not play.
fn move_text(pos: &Position, moves: &[Move], notes: &[PgnNote], out: &mut Vec<String>) {
    let mut pos = pos.clone();
    let mut number = pos.fullmoves();
    let mut need_number = true;
    for (i, &m) in moves.iter().enumerate() {
        let before = pos.clone();
        if pos.play(m).is_err() {
            break;
        }
        if before.turn() == Color::Red {
            out.push(format!("{number}."));
        } else if need_number {
            out.push(format!("{number}..."));
        }
        out.push(format_move(&before, m, Notation::Wxf));
        need_number = false;
        if let Some(note) = notes.get(i) {
            if let Some(nag) = note.nag {
                out.push(format!("${nag}"));
            }
            if let Some(c) = note.comment.as_deref().filter(|c| !c.trim().is_empty()) {
                out.push("{".into());
                out.extend(comment_tokens(c));
                out.push("}".into());
                need_number = true;
            }
            if !note.variation.is_empty() {
                out.push("(".into());
                move_text(&before, &note.variation, &[], out);
                out.push(")".into());
                need_number = true;
            }
        }
        if pos.turn() == Color::Red {
            number += 1;
        }
    }
}

/// A comment's words, keeping each `[%command ...]` whole so a line break never splits it.
fn comment_tokens(c: &str) -> Vec<String> {
    let clean: String = c
        .chars()
        .map(|ch| match ch {
            '{' => '(',
            '}' => ')',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect();
    let mut out: Vec<String> = Vec::new();
    let mut open = false;
    for word in clean.split_whitespace() {
        match out.last_mut() {
            Some(last) if open => {
                last.push(' ');
                last.push_str(word);
            }
            _ => out.push(word.to_string()),
        }
        if word.starts_with("[%") {
            open = true;
        }
        if word.ends_with(']') {
            open = false;
        }
    }
    out
}

/// The notes of a reviewed game, as lichess annotates one: after every move its evaluation
/// (`[%eval 0.35]`, from Red's side); after a judged move also its glyph, the judgement in
/// words (`word`, in the reader's language: "Mistake.") and the better line as a variation.
#[must_use]
pub fn review_notes(review: &Review, word: &dyn Fn(Judgement) -> String) -> Vec<PgnNote> {
    review
        .plies
        .iter()
        .map(|p| {
            let judged = p.judgement.map(|(j, _)| j);
            let comment = [
                p.after.pgn_command(),
                judged.map(|j| format!("({} → {}) {}", p.before, p.after, word(j))),
            ]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ");
            PgnNote {
                nag: judged.map(Judgement::nag),
                comment: Some(comment).filter(|c| !c.is_empty()),
                variation: judged
                    .and(p.better.as_ref())
                    .map(|b| b.pv.clone())
                    .unwrap_or_default(),
            }
        })
        .collect()
}

/// [`write_pgn`] with a note after each move (`notes[i]` follows move `i`; fewer notes than
/// moves is fine): lichess's annotated export, with glyphs (`$2`), comments (`{ [%eval 0.35]
/// Mistake. ... }`) and the better line as a variation.
#[must_use]
pub fn write_annotated_pgn(
    tags: &[(&str, String)],
    start: Option<(&str, &Position)>,
    moves: &[Move],
    notes: &[PgnNote],
    result: &str,
) -> String {
    let mut out = String::new();
    let mut tag = |k: &str, v: &str| out.push_str(&format!("[{k} \"{}\"]\n", tag_value(v)));
    tag("Game", "Chinese Chess");
    for (k, v) in tags {
        tag(k, v);
        if *k == "Black" {
            tag("Result", result);
        }
    }
    if !tags.iter().any(|(k, _)| *k == "Black") {
        tag("Result", result);
    }
    tag("Format", "WXF");
    let mut pos = Position::startpos();
    if let Some((fen, p)) = start {
        tag("FEN", fen);
        pos = p.clone();
    }
    out.push('\n');
    let mut tokens = Vec::new();
    move_text(&pos, moves, notes, &mut tokens);
    tokens.push(result.to_string());
    // Wrap at 80 columns as PGN readers expect.
    let mut line = String::new();
    for word in tokens {
        if !line.is_empty() && line.len() + word.len() + 1 > 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{PlayerRef, TimeControl, SCHEMA_VERSION};

    #[test]
    fn pgn_has_the_tags_and_wxf_moves() {
        let rec = GameRecord {
            v: SCHEMA_VERSION,
            id: 3,
            channel: "console:#local".into(),
            red: PlayerRef::new("console:an", "An \"the\" Red"),
            black: PlayerRef::new("console:bo", "Bo"),
            ruleset: crate::arbiter::RulesetName::Official,
            start_fen: None,
            moves: vec!["h2e2".into(), "h9g7".into(), "h0g2".into()],
            time_control: TimeControl::None,
            clock: None,
            status: GameStatus::Finished {
                result: crate::arbiter::Outcome::RedWins,
                reason: crate::game::EndReason::Resignation,
            },
            draw_offer: None,
            takeback_request: None,
            last_refusal: None,
            takebacks: false,
            created_ms: 1_764_400_000_000,
            updated_ms: 0,
            rated: false,
            community: None,
            lang: None,
            idle_after_ms: None,
            turn_since_ms: None,
            bot_memory: None,
            hints: None,
            tournament: None,
            first_move_ms: None,
            venue: None,
        };
        let p = pgn(&rec, "console");
        assert!(p.contains("[Game \"Chinese Chess\"]"));
        assert!(p.contains("[Red \"An 'the' Red\"]"));
        assert!(p.contains("[Result \"1-0\"]"));
        assert!(p.contains("[Date \"2025.11.29\"]"), "{p}");
        assert!(p.contains("1. C2.5 H8+7 2. H2+3 1-0"), "{p}");
        assert!(!p.contains("[FEN"));
    }

    #[test]
    fn a_backslash_in_a_tag_value_is_escaped() {
        let tags = [
            ("Red", "back\\slash\\".to_string()),
            ("Black", "Bo".to_string()),
        ];
        let p = write_pgn(&tags, None, &[], "*");
        // The value ends with an escaped backslash, so the quote after it still closes it.
        assert!(p.contains("[Red \"back\\\\slash\\\\\"]\n"), "{p}");
    }

    fn mv(s: &str) -> Move {
        Move::parse_iccs(s).unwrap_or_else(|| panic!("{s}"))
    }

    #[test]
    fn annotated_pgn_has_glyphs_comments_and_variations() {
        let moves = [mv("h2e2"), mv("h9g7"), mv("h0g2"), mv("i9h9")];
        let notes = [
            PgnNote {
                comment: Some("[%eval 0.35]".into()),
                ..PgnNote::default()
            },
            PgnNote {
                nag: Some(2),
                comment: Some("[%eval 1.20] (+0.35 → +1.20) Mistake {sic}".into()),
                variation: vec![mv("b9c7"), mv("b0c2")],
            },
        ];
        let p = write_annotated_pgn(&[], None, &moves, &notes, "*");
        let body = p
            .split("\n\n")
            .nth(1)
            .unwrap_or_default()
            .replace('\n', " ");
        assert_eq!(
            body.trim(),
            "1. C2.5 { [%eval 0.35] } 1... H8+7 $2 { [%eval 1.20] (+0.35 → +1.20) Mistake (sic) } \
             ( 1... H2+3 2. H8+7 ) 2. H2+3 R9.8 *"
        );
        // No note: the plain export.
        assert_eq!(
            write_annotated_pgn(&[], None, &moves, &[], "*"),
            write_pgn(&[], None, &moves, "*")
        );
    }

    #[test]
    fn review_notes_annotate_the_judged_moves() {
        use crate::engine::review::{assess, PositionEval};
        use crate::engine::Eval;
        let moves = [mv("h2e2"), mv("h9g7")];
        let at = |eval, pv: &[Move]| PositionEval {
            eval,
            pv: pv.to_vec(),
        };
        let evals = [
            at(Eval::Cp(20), &[mv("h2e2")]),
            at(Eval::Cp(30), &[mv("b9c7"), mv("b0c2")]),
            at(Eval::Cp(400), &[]),
        ];
        let review = assess(&Position::startpos(), &moves, &evals);
        let notes = review_notes(&review, &|j| format!("{}.", j.as_str()));
        assert_eq!(notes[0].nag, None);
        assert_eq!(notes[0].comment.as_deref(), Some("[%eval 0.30]"));
        assert_eq!(notes[1].nag, Some(4));
        assert_eq!(
            notes[1].comment.as_deref(),
            Some("[%eval 4.00] (+0.30 → +4.00) blunder.")
        );
        assert_eq!(notes[1].variation, vec![mv("b9c7"), mv("b0c2")]);
        let p = write_annotated_pgn(&[], None, &moves, &notes, "*");
        assert!(p.contains("H8+7 $4 { [%eval 4.00]"), "{p}");
    }

    #[test]
    fn a_long_eval_command_is_never_split_across_lines() {
        let moves = [mv("h2e2"); 1];
        let note = PgnNote {
            comment: Some(format!("{} [%eval -12.34] end", "word ".repeat(15))),
            ..PgnNote::default()
        };
        let p = write_annotated_pgn(&[], None, &moves, &[note], "*");
        assert!(p.lines().any(|l| l.contains("[%eval -12.34]")), "{p}");
        assert!(p.lines().all(|l| l.len() <= 80), "{p}");
    }
}
