//! PGN export as xiangqi tools read it: `[Game "Chinese Chess"]`, the players, the result, a
//! `[FEN]` tag for a set-up start, and the moves in WXF notation.

use crate::core::{Move, Position};
use crate::game::{GameRecord, GameStatus};
use crate::notation::{format_move, Notation};

fn tag_value(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_control())
        .map(|c| if c == '"' { '\'' } else { c })
        .collect()
}

fn date(ms: u64) -> String {
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
    let result = match &record.status {
        GameStatus::Finished { result, .. } => match result.as_str() {
            "red_wins" => "1-0",
            "black_wins" => "0-1",
            _ => "1/2-1/2",
        },
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
        tags.push(("Termination", reason.clone()));
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
    write_pgn(&tags, start.as_ref().map(|(f, p)| (*f, p)), &moves, result)
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
    let mut body = String::new();
    let mut number = pos.fullmoves();
    for (i, &m) in moves.iter().enumerate() {
        if pos.turn() == crate::core::Color::Red {
            body.push_str(&format!("{number}. "));
        } else if i == 0 {
            body.push_str(&format!("{number}... "));
        }
        body.push_str(&format_move(&pos, m, Notation::Wxf));
        body.push(' ');
        if pos.play(m).is_err() {
            break;
        }
        if pos.turn() == crate::core::Color::Red {
            number += 1;
        }
    }
    body.push_str(result);
    // Wrap at 80 columns as PGN readers expect.
    let mut line = String::new();
    for word in body.split(' ') {
        if !line.is_empty() && line.len() + word.len() + 1 > 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
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
            ruleset: "official".into(),
            start_fen: None,
            moves: vec!["h2e2".into(), "h9g7".into(), "h0g2".into()],
            time_control: TimeControl::None,
            clock: None,
            status: GameStatus::Finished {
                result: "red_wins".into(),
                reason: "resignation".into(),
            },
            draw_offer: None,
            takeback_request: None,
            last_refusal: None,
            takebacks: false,
            created_ms: 1_764_400_000_000,
            updated_ms: 0,
            lang: None,
            idle_after_ms: None,
            turn_since_ms: None,
        };
        let p = pgn(&rec, "console");
        assert!(p.contains("[Game \"Chinese Chess\"]"));
        assert!(p.contains("[Red \"An 'the' Red\"]"));
        assert!(p.contains("[Result \"1-0\"]"));
        assert!(p.contains("[Date \"2025.11.29\"]"), "{p}");
        assert!(p.contains("1. C2.5 H8+7 2. H2+3 1-0"), "{p}");
        assert!(!p.contains("[FEN"));
    }
}
