//! Playing the bot through the real binary's console: a game against level 1 and one against
//! the top level (20) to the end, a restart while the bot is thinking, and a game against the bot that is
//! not rated. Bot moves are capped with
//! `BOT_MOVE_CAP_MS` so the games stay short.

use crate::console;

use console::{Console, PATIENCE};
use xiangqi_bot::core::{Move, Position};

/// The position in the channel, from `/fen`.
fn position(c: &mut Console) -> Position {
    let line = c.ask("/fen", " - - ");
    let fen = line.trim_start_matches("[#local] ");
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// A pseudo-random legal move (xorshift on `state`).
fn random_move(pos: &Position, state: &mut u64) -> Move {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    let legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
    assert!(!legal.is_empty(), "no legal move in {}", pos.to_fen());
    legal[(*state % legal.len() as u64) as usize]
}

/// Alice (Red, random moves) plays the bot at `level` until the game ends; returns the plies
/// the bot played.
fn play_to_the_end(level: u8) -> usize {
    let dir = tempfile::tempdir().expect("tempdir");
    let env = [("BOARD_IMAGES", "off"), ("BOT_MOVE_CAP_MS", "40")];
    let mut c = Console::start(dir.path(), &env);
    let name = format!("Bot level {level}");
    let started = c.ask(&format!("@alice /play bot {level} red"), "Game #1 begins");
    assert!(started.contains(&name), "{started}");
    let mut rng = 0x2545_F491_4F6C_DD1D_u64 ^ u64::from(level);
    let mut bot_moves = 0;
    let mut over = false;
    'game: for _ in 0..300 {
        let since = c.seen.len();
        let pos = position(&mut c);
        // The game may have ended with the bot's move (its caption says so).
        if c.seen[since..].iter().any(|l| l.contains("Game over")) {
            over = true;
            break;
        }
        let m = random_move(&pos, &mut rng);
        c.send(&format!("@alice {m}"));
        // Alice's move is acknowledged, then the bot's arrives on its own (or the game ends).
        loop {
            let Some(line) = c.expect_within("", PATIENCE) else {
                panic!("nothing after {m}; output so far:\n{}", c.seen.join("\n"));
            };
            if line.contains("Game over") {
                over = true;
                break 'game;
            }
            if line.contains(&format!(". {name}: ")) {
                bot_moves += 1;
                break;
            }
        }
    }
    assert!(over, "no end in 300 moves:\n{}", c.seen.join("\n"));
    // After the game the channel is free for the next one.
    c.ask(&format!("@alice /play bot {level} black"), "Game #2 begins");
    c.finish();
    bot_moves
}

#[test]
fn a_whole_game_against_level_1() {
    assert!(play_to_the_end(1) > 0);
}

#[test]
fn a_whole_game_against_the_top_level() {
    assert!(play_to_the_end(20) > 0);
}

#[test]
fn a_restart_while_the_bot_is_thinking_resumes_its_search() {
    let dir = tempfile::tempdir().expect("tempdir");
    let env = [("BOARD_IMAGES", "off"), ("BOT_MOVE_CAP_MS", "3000")];
    let mut c = Console::start(dir.path(), &env);
    // Alice takes Black: the bot (Red) is to move at once and thinks for a while.
    c.ask("@alice /play bot 20 black", "Game #1 begins");
    c.kill();
    let mut r = Console::start(dir.path(), &env);
    let line = r.expect("1. Bot level 20: ");
    assert!(line.starts_with("[#local] "), "{line}");
    // Exactly one move was played, and it is Alice's turn.
    let pos = position(&mut r);
    assert_eq!(pos.turn(), xiangqi_bot::core::Color::Black);
    assert_ne!(pos.board_fen(), Position::startpos().board_fen());
    // Not her move yet? It is: she answers at once and the bot follows.
    let m = random_move(&pos, &mut 7);
    r.ask(&format!("@alice {m}"), "2. alice");
    r.expect("3. Bot level 20: ");
    r.finish();
}

#[test]
fn bad_bot_requests_are_answered() {
    let dir = tempfile::tempdir().expect("tempdir");
    let env = [("BOARD_IMAGES", "off"), ("BOT_MOVE_CAP_MS", "40")];
    let mut c = Console::start(dir.path(), &env);
    c.ask("@alice /play bot 21", "levels 1 to 20");
    c.ask("@alice /play bot 0", "levels 1 to 20, not \"0\"");
    // A bare number is the level, never a clock in minutes: no game starts.
    c.ask("@alice /play bot 99", "levels 1 to 20, not \"99\"");
    c.ask("@alice /play bot 3 10 red", "levels 1 to 20, not \"10\"");
    c.ask("@alice /play bot 2 purple", "purple");
    // The bot's games cannot be joined or moved in by someone else.
    c.ask("@alice /play bot 2 black", "Game #1 begins");
    c.expect("1. Bot level 2: ");
    // Nor may its player be challenged into a second game here.
    c.ask("@bob /play @alice", "alice is playing game #1 here");
    c.ask("@alice /resign", "Game over");
    c.finish();
}

#[test]
fn the_bot_allows_a_takeback_at_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let env = [("BOARD_IMAGES", "off"), ("BOT_MOVE_CAP_MS", "40")];
    let mut c = Console::start(dir.path(), &env);
    c.ask("@alice /takebacks on", "Takebacks are now allowed");
    c.ask("@alice /play bot 1 red", "Game #1 begins");
    c.ask("@alice h2e2", "1. alice");
    c.expect("2. Bot level 1: ");
    // Alice is to move: her move and the bot's answer go back.
    c.ask("@alice /takeback", "asks to take back");
    c.expect("Taken back (2 ply/plies).");
    assert_eq!(
        position(&mut c).board_fen(),
        Position::startpos().board_fen()
    );
    // The game goes on, the bot answering again.
    c.ask("@alice b2e2", "1. alice");
    c.expect("2. Bot level 1: ");
    c.finish();
}

#[test]
fn a_game_against_the_bot_is_never_rated() {
    let dir = tempfile::tempdir().expect("tempdir");
    let env = [("BOARD_IMAGES", "off"), ("BOT_MOVE_CAP_MS", "40")];
    let mut c = Console::start(dir.path(), &env);
    c.ask(
        "@alice /play bot 1 red 10+5 rated",
        "games against the bot are never rated",
    );
    // The same terms unrated: a game on a clock and a ruleset that could be rated otherwise.
    let started = c.ask("@alice /play bot 1 red 10+5", "Game #1 begins");
    assert!(!started.contains("Rated game"), "{started}");
    let mut rng = 0x9E37_79B9_7F4A_7C15_u64;
    for i in 0..3 {
        let m = random_move(&position(&mut c), &mut rng);
        c.ask(&format!("@alice {m}"), &format!("{}. alice", 2 * i + 1));
        c.expect(&format!("{}. Bot level 1: ", 2 * i + 2));
    }
    c.ask("@alice /resign", "Game over");
    // The game counts in the statistics, not in the ratings.
    c.ask("@alice /stats", "alice: 1 games — 0 won, 0 drawn, 1 lost");
    c.ask("@alice /rating", "alice has no rated games yet");
    c.finish();
}
