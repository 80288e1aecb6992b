//! Hints and reviews through the real binary's console: a hint's arrow on the board, hints
//! refused between people until the channel allows them and always in rated games, and a
//! finished game's review (accuracy, the graph, the annotated PGN) stored and posted again at
//! once. Engine budgets are small (`BOT_MOVE_CAP_MS` caps hints and reviews too).

use crate::console;

use console::Console;
use xiangqi_bot::core::{Move, Position};

const ENV: [(&str, &str); 1] = [("BOT_MOVE_CAP_MS", "40")];

/// The position in the channel, from `/fen`.
fn position(c: &mut Console) -> Position {
    let line = c.ask("/fen", " - - ");
    let fen = line.trim_start_matches("[#local] ");
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// A decoded picture: width, height, pixels (palette expanded).
struct Picture {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

/// The PNG file a console line names (`… board: /path/x.png`), decoded.
fn picture(line: &str) -> Picture {
    let path = line
        .split(": ")
        .nth(1)
        .unwrap_or_else(|| panic!("no path in {line}"));
    let bytes = std::fs::read(path.trim()).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut pixels).expect("a frame");
    pixels.truncate(info.buffer_size());
    Picture {
        width: info.width,
        height: info.height,
        pixels,
    }
}

/// The move in ICCS at the end of a hint line (`… (h2e2)`).
fn hinted(line: &str) -> Move {
    let iccs = line
        .rsplit('(')
        .next()
        .and_then(|t| t.strip_suffix(')'))
        .unwrap_or_else(|| panic!("no move in {line}"));
    Move::parse_iccs(iccs).unwrap_or_else(|| panic!("{iccs} in {line}"))
}

/// The refusal of a hint where the game's players did not start with hints on.
const HINTS_OFF: &str = "Hints are off for games between people here";

/// alice (Red) challenges bob, who accepts: game `n` begins. Returns its first board's line.
fn game_between_alice_and_bob(c: &mut Console, n: u64) -> String {
    c.ask("@alice /play @bob red", "alice challenges bob");
    let board = c.ask("@bob /accept", "board: ");
    c.expect(&format!("Game #{n} begins"));
    board
}

#[test]
fn hints_between_people_wait_for_the_channel_and_draw_an_arrow() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut c = Console::start(dir.path(), &ENV);
    game_between_alice_and_bob(&mut c, 1);
    // Off by default between people; only the player to move may ask.
    c.ask("@alice /hint", HINTS_OFF);
    c.ask("@bob /hint", "Only the player to move can ask for a hint");
    c.ask("@carol /hint", "Only the players of this game");
    // Turned on during a game: the running game keeps what its players started with.
    c.ask("@bob /hints on", "Hints are now allowed in new games");
    c.ask("@alice /hint", HINTS_OFF);
    c.ask("@alice /resign", "Game over");
    let start_board = picture(&game_between_alice_and_bob(&mut c, 2));
    c.ask("@alice /hint", "Looking for the best move");
    let board = c.expect("board: ");
    assert!(board.contains("hint-2-0.png"), "{board}");
    let hint_board = picture(&board);
    let line = c.expect("Hint for alice: ");
    let mv = hinted(&line);
    assert!(
        Position::startpos().legal_moves().contains(mv),
        "{mv} is not legal"
    );
    // The arrow: the same position, drawn differently along the hinted move.
    assert_eq!(
        (start_board.width, start_board.height),
        (hint_board.width, hint_board.height)
    );
    let changed = start_board
        .pixels
        .chunks(3)
        .zip(hint_board.pixels.chunks(3))
        .filter(|(a, b)| a != b)
        .count();
    assert!(changed > 500, "only {changed} pixels differ");
    // The hint is playable as given, in the player's notation and in ICCS.
    c.ask(&format!("@alice {mv}"), "1. alice");
    // Off again: this game keeps its hints; the next one has none.
    c.ask("@alice /hints off", "Hints are now off for new games");
    c.ask("@bob /hint", "Looking for the best move");
    c.expect("Hint for bob: ");
    c.ask("@bob /resign", "Game over");
    game_between_alice_and_bob(&mut c, 3);
    c.ask("@alice /hint", HINTS_OFF);
    c.finish();
}

#[test]
fn no_hints_in_rated_games() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut c = Console::start(dir.path(), &ENV);
    c.ask("@alice /hints on", "Hints are now allowed");
    c.ask("@alice /play @bob red 10+5 rated", "Rated game");
    c.ask("@bob /accept", "Game #1 begins");
    c.ask("@alice /hint", "No hints in rated games");
    c.finish();
}

#[test]
fn a_review_is_posted_with_its_graph_and_pgn_and_stored() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut c = Console::start(dir.path(), &ENV);
    c.ask("@alice /review", "no finished game here to review");
    c.ask("@alice /play bot 1 red", "Game #1 begins");
    // Against the bot hints are always allowed.
    c.ask("@alice /hint", "Looking for the best move");
    let line = c.expect("Hint for alice: ");
    let mut moves = vec![hinted(&line)];
    moves.push(Move::parse_iccs("a0a1").expect("iccs"));
    for (i, m) in moves.iter().enumerate() {
        let pos = position(&mut c);
        let legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
        let m = if legal.contains(m) { *m } else { legal[0] };
        c.ask(&format!("@alice {m}"), &format!("{}. alice", 2 * i + 1));
        c.expect(&format!("{}. Bot level 1: ", 2 * i + 2));
    }
    c.ask("@alice /resign", "Game over");
    let button = c.expect("!xq:V:1");
    assert!(button.contains("Review"), "{button}");
    c.ask(
        "@alice /review 7",
        "Game 7 is not a finished game of this channel",
    );
    c.ask("@alice /review", "Reviewing game #1");
    review_lines(&mut c);
    // Asked again (by the button) right after: a private pointer to the review above, not
    // the review posted a second time.
    c.ask(
        "@alice !xq:V:1",
        "The review of game #1 was posted just above.",
    );
    let asked = c.seen.iter().filter(|l| l.contains("Reviewing game #1"));
    assert_eq!(asked.count(), 1, "reviewed twice");
    let posted = c.seen.iter().filter(|l| l.contains("Review of game #1:"));
    assert_eq!(posted.count(), 1, "posted twice");
    c.finish();
}

/// Wait for a review and check it; returns its text lines.
fn review_lines(c: &mut Console) -> Vec<String> {
    let from = c.seen.len();
    c.expect("Review of game #1: alice vs Bot level 1");
    c.expect("alice (Red): accuracy ");
    c.expect("Bot level 1 (Black): accuracy ");
    let graph = c.expect("picture: ");
    let png = picture(&graph);
    assert!(png.width >= 800, "graph {}×{}", png.width, png.height);
    c.expect("Annotated PGN");
    c.expect("[Event \"Game #1\"]");
    let moves = c.expect("1. ");
    assert!(moves.contains("[%eval"), "{moves}");
    // The move text ends with the result.
    while !c.seen.last().is_some_and(|l| l.ends_with(" 0-1")) {
        c.expect("");
    }
    c.seen[from..]
        .iter()
        .filter(|l| !l.contains("picture: "))
        .cloned()
        .collect()
}

#[test]
fn a_restart_while_a_review_runs_resumes_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    // A generous cap: the review is still running when the process is killed.
    let env = [("BOARD_IMAGES", "off"), ("BOT_MOVE_CAP_MS", "3000")];
    let mut c = Console::start(dir.path(), &env);
    c.ask("@alice /play bot 1 red", "Game #1 begins");
    c.ask("@alice h2e2", "1. alice");
    c.expect("2. Bot level 1: ");
    c.ask("@alice /resign", "Game over");
    c.ask("@alice /review", "Reviewing game #1");
    c.kill();
    let mut r = Console::start(dir.path(), &env);
    r.expect("Review of game #1: alice vs Bot level 1");
    r.expect("Annotated PGN");
    // Stored and just posted: asked again, the answer points to it instead of posting it
    // a second time.
    r.ask(
        "@alice /review 1",
        "The review of game #1 was posted just above.",
    );
    r.finish();
}
