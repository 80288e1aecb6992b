//! Scripted console sessions through the real binary: challenges, a game to checkmate in
//! several notations, every ending of the arbiter reached by play, resign, draws, takebacks,
//! abort, a time forfeit, the answers to mistakes, two channels at once, and buttons.

use crate::console;
use crate::games;

use console::Console;
use xiangqi_bot::arbiter::RulesetName;

fn start(images: bool) -> (tempfile::TempDir, Console) {
    let dir = tempfile::tempdir().expect("tempdir");
    let c = Console::start(
        dir.path(),
        &[("BOARD_IMAGES", if images { "on" } else { "off" })],
    );
    (dir, c)
}

/// alice (Red) challenges bob with `args`; bob accepts.
fn new_game(c: &mut Console, args: &str) {
    c.ask(&format!("@alice /play @bob red {args}"), "challenges bob");
    c.ask("@bob /accept", "begins");
}

/// Play ICCS moves alternately as alice (Red) and bob (Black), starting with `first`.
fn play(c: &mut Console, moves: &[String], red_first: bool) {
    for (i, m) in moves.iter().enumerate() {
        let who = if (i % 2 == 0) == red_first {
            "alice"
        } else {
            "bob"
        };
        c.send(&format!("@{who} {m}"));
        // Typed in ICCS, the move is echoed once: "N. alice: h2e2".
        c.expect(&format!("{who}: {m}"));
    }
}

fn split(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

#[test]
fn a_challenge_accepted_and_a_game_to_checkmate_in_four_notations() {
    let (dir, mut c) = start(true);
    c.ask("@alice /play @bob red", "alice challenges bob");
    c.ask("@bob /accept", "Game #");
    // A move typed in ICCS is echoed once (issue 31).
    let first = c.ask("@alice b2b4", "1. alice: b2b4");
    assert!(first.trim_end().ends_with("1. alice: b2b4"), "{first}");
    c.ask("@bob P1+1", "2. bob: P1+1 (a6a5)");
    c.ask("@alice 炮八平七", "3. alice: 炮八平七 (b4c4)");
    c.ask("@bob S6.5", "4. bob: S6.5 (f9e8)");
    c.ask("@alice C7+5", "5. alice: C7+5 (c4c9)");
    c.expect("Game over: Red wins — checkmate (1-0)");
    c.expect("[Result \"1-0\"]");
    let out = c.finish();
    let boards: Vec<&String> = out.iter().filter(|l| l.contains("board: ")).collect();
    assert!(
        boards.len() >= 6,
        "a board after the start and every move: {boards:?}"
    );
    // The last board is a real PNG of the advertised size.
    let path = boards
        .last()
        .and_then(|l| l.split("board: ").nth(1))
        .expect("path");
    let file = std::fs::File::open(path).expect("board file");
    let decoder = png::Decoder::new(std::io::BufReader::new(file));
    let reader = decoder.read_info().expect("a PNG");
    assert!(reader.info().width >= 720);
    assert!(path.starts_with(dir.path().to_str().expect("utf-8 path")));
}

#[test]
fn every_arbiter_ending_is_reached_by_play() {
    let (_dir, mut c) = start(false);
    // Perpetual check under asian rules (the first AXF case).
    new_game(&mut c, "asian c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w");
    play(
        &mut c,
        &split("h8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 f8f9"),
        true,
    );
    c.expect("Black wins — perpetual check (0-1)");
    c.expect("Table A");
    // /why explains it again after the end.
    c.ask("@carol /why", "perpetual check");
    // A perpetual chase of the pinned chariot (AXF case).
    new_game(
        &mut c,
        "asian 2bak4/RC2arN2/4b1n2/2p5p/6p2/2P6/4p1P1c/4B4/4A4/4KAB2 b",
    );
    play(
        &mut c,
        &split("e8f9 b8b9 f9e8 b9b8 e8f9 b8b9 f9e8 b9b8"),
        false,
    );
    c.expect("Black wins — perpetual chase (0-1)");
    // One check one idle: a draw under table A, a loss under table O (official).
    new_game(&mut c, "asian 3k5/9/9/9/9/9/9/9/9/4K2R1 w");
    play(
        &mut c,
        &split("h0h9 d9d8 h9h0 d8d9 h0h9 d9d8 h9h0 d8d9"),
        true,
    );
    c.expect("Draw — repetition (1/2-1/2)");
    new_game(&mut c, "official 3k5/9/9/9/9/9/9/9/9/4K2R1 w");
    play(&mut c, &split("h0h9 d9d8 h9h0 d8d9 h0h9 d9d8"), true);
    c.expect("Warning for Red");
    play(&mut c, &split("h9h0 d8d9"), true);
    c.expect("Black wins — repetition (0-1)");
    // Seven checks by one chariot under official rules.
    new_game(&mut c, "official 3a5/3k5/9/9/8R/9/9/9/9/4K4 w");
    play(
        &mut c,
        &split("i5i8 d8d7 i8i7 d7d8 i7i8 d9e8 i8e8 d8d9 e8e9 d9d8 e9e8 d8d9 e8e9"),
        true,
    );
    c.expect("Black wins — too many consecutive checks (0-1)");
    // Seven chases of one horse.
    new_game(&mut c, "official 3k5/9/9/9/4n4/9/9/9/4K4/R8 w");
    play(
        &mut c,
        &split("a0a5 e5f7 a5a7 f7g9 a7g7 g9i8 g7g8 i8h6 g8g6 h6i8 g6g8 i8h6 g8g6"),
        true,
    );
    c.expect("Black wins — too many consecutive chases (0-1)");
    // Stalemate loses.
    new_game(&mut c, "official 3k5/5R3/4R4/9/9/9/9/9/4K4/9 w");
    play(&mut c, &split("e1e2"), true);
    c.expect("Red wins — stalemate");
    // Insufficient material.
    new_game(&mut c, "official 3k5/9/9/9/9/9/9/9/4r4/3AK4 w");
    play(&mut c, &split("d0e1"), true);
    c.expect("Draw — insufficient material");
    c.finish();
}

#[test]
fn the_long_draw_rules_are_reached_by_play() {
    let (_dir, mut c) = start(false);
    // 120 plies without a capture or a soldier step (official).
    let moves: Vec<String> = games::quiet_game(games::LONG, RulesetName::Official, 0, 400)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(moves.len(), 120);
    new_game(&mut c, &format!("official {}", games::LONG));
    play(&mut c, &moves, true);
    c.expect("Draw — no progress");
    // 300 plies: the official length cap.
    let moves: Vec<String> = games::quiet_game(games::LONG, RulesetName::Official, 100, 400)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(moves.len(), 300);
    new_game(&mut c, &format!("official {}", games::LONG));
    play(&mut c, &moves, true);
    c.expect("Draw — game-length limit");
    // CXQ's effective-move rule.
    let moves: Vec<String> = games::quiet_game(games::LONG, RulesetName::Cxq, 50, 700)
        .iter()
        .map(ToString::to_string)
        .collect();
    new_game(&mut c, &format!("cxq {}", games::LONG));
    play(&mut c, &moves, true);
    c.expect("Draw — effective-move limit");
    // Vietnamese rules: the no-progress draw is a claim, granted with /draw at 100 plies.
    let moves: Vec<String> = games::quiet_game(games::LONG, RulesetName::Vietnam, 0, 100)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(moves.len(), 100);
    new_game(&mut c, &format!("vietnam {}", games::LONG));
    play(&mut c, &moves[..98], true);
    c.ask("@alice /draw", "bob, answer with /draw");
    c.ask("@bob /decline", "declined the draw offer");
    play(&mut c, &moves[98..], true);
    c.ask("@alice /draw", "Draw — no progress");
    c.expect("granted on a claim");
    c.finish();
}

#[test]
fn resign_draw_takeback_abort() {
    let (_dir, mut c) = start(false);
    new_game(&mut c, "");
    c.ask("@alice h2e2", "1. alice");
    c.ask("@bob /resign", "Red wins — bob resigned (1-0)");
    // A draw offered and accepted.
    new_game(&mut c, "");
    c.ask("@alice h2e2", "1. alice");
    c.ask("@alice /draw", "alice offers a draw");
    c.ask("@alice /draw", "already offered");
    c.ask("@carol /draw", "only they can act in it");
    c.ask("@bob /draw", "Draw — by agreement (1/2-1/2)");
    // Takebacks are off until the channel switches them on.
    new_game(&mut c, "");
    c.ask("@alice h2e2", "1. alice");
    c.ask("@alice /takeback", "Takebacks are off");
    c.ask("@alice /resign", "Black wins");
    c.ask("@alice /takebacks on", "Takebacks are now allowed");
    new_game(&mut c, "");
    c.ask("@alice h2e2", "1. alice");
    c.ask("@alice /takeback", "alice asks to take back a move");
    c.ask("@bob /decline", "bob declined the takeback");
    c.ask("@alice /takeback", "asks to take back");
    c.ask("@bob /takeback", "Taken back (1 ply/plies)");
    c.ask(
        "@alice /fen",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
    );
    // Abort before both have moved; not after.
    c.ask("@alice b2e2", "1. alice");
    c.ask("@bob /abort", "The game was aborted");
    new_game(&mut c, "");
    c.ask("@alice h2e2", "1. alice");
    c.ask("@bob h9g7", "2. bob");
    c.ask("@alice /abort", "can no longer be aborted");
    c.finish();
}

#[test]
fn a_flag_falls_once_and_the_result_is_posted() {
    let (_dir, mut c) = start(false);
    new_game(&mut c, "3s");
    c.ask("@alice h2e2", "1. alice");
    // Nobody moves: the timer posts the result in the channel, once.
    c.expect("bob ran out of time");
    c.expect("[Result \"1-0\"]");
    c.ask("@bob /move h9g7", "There is no game");
    let out = c.finish();
    let flags = out.iter().filter(|l| l.contains("ran out of time")).count();
    assert_eq!(flags, 1, "{out:#?}");
}

#[test]
fn mistakes_get_clear_answers() {
    let (_dir, mut c) = start(false);
    c.ask("@alice /move h2e2", "There is no game in this channel");
    c.ask("@alice /frobnicate", "I don't know the command /frobnicate");
    c.ask("@alice /play @alice", "You cannot challenge yourself");
    c.ask("@alice /play @bob 10+", "cannot read the time control");
    c.ask(
        "@alice /play @bob blitzkrieg",
        "could not understand \"blitzkrieg\"",
    );
    c.ask("@alice /play @bob 3k5/9/9 w", "it needs 10");
    c.ask(
        "@alice /play @bob 4k4/9/9/9/9/9/9/9/9/4K4 w",
        "generals face each other",
    );
    new_game(&mut c, "");
    c.ask("@bob h9g7", "It is alice's turn, not yours");
    c.ask("@carol /move h2e2", "only they can act in it");
    c.ask(
        "@alice /move h2h7",
        "captures only by jumping exactly one piece",
    );
    c.ask("@alice /move b0d1", "the horse's leg is blocked at c0");
    c.ask("@alice /move C9.5", "");
    c.ask("@alice /move zz", "");
    c.ask("@alice /play @bob", "You are already playing here");
    // Only a command is told it is too long; long chat, even a player's, is conversation.
    let long = "x".repeat(600);
    c.send(&format!("@alice {long}"));
    c.send(&format!("@carol {long}"));
    c.ask(&format!("@alice /move {long}"), "too long");
    c.ask("@alice /move \u{202e}h2e2\u{0}", "");
    c.ask("@alice /move 炮二平五", "1. alice: 炮二平五 (h2e2)");
    // Ordinary conversation is not answered; a move-like text by a spectator is not either.
    c.send("@carol hello everyone");
    c.send("@carol h9g7");
    c.ask("@bob /board", "after 1 plies");
    let out = c.finish();
    let long_answers: Vec<&String> = out.iter().filter(|l| l.contains("too long")).collect();
    assert_eq!(long_answers.len(), 1, "{long_answers:?}");
    assert!(
        long_answers[0].starts_with("[#local → alice]"),
        "{long_answers:?}"
    );
}

#[test]
fn two_channels_play_side_by_side() {
    let (_dir, mut c) = start(false);
    c.send("#one");
    new_game(&mut c, "");
    c.send("#two");
    c.ask("@carol /play @dave red", "carol challenges dave");
    c.ask("@dave /accept", "begins");
    c.ask("@carol h2e2", "[#two] 1. carol");
    c.send("#one");
    c.ask("@alice b2e2", "[#one] 1. alice");
    c.ask("@bob h9g7", "[#one] 2. bob");
    c.send("#two");
    c.ask("@dave b9c7", "[#two] 2. dave");
    c.ask("@alice /move h0g2", "only they can act in it");
    c.ask("/fen", "1C2C4");
    c.send("#one");
    c.ask("/fen", "4C2C1");
    // Her own side and the ply count are labelled, apart from the opponent's name.
    c.ask(
        "@alice /games",
        "vs bob — you play Red — 2 plies — in progress (here)",
    );
    c.finish();
}

#[test]
fn buttons_accept_pick_and_resign() {
    let (_dir, mut c) = start(false);
    let line = c.ask("@alice /play @bob red", "[Accept !xq:A:");
    let code = line
        .split("Accept !")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .expect("accept code")
        .to_string();
    c.ask(&format!("@carol !{code}"), "This challenge is for bob");
    c.ask(&format!("@bob !{code}"), "begins");
    let buttons = c.expect("Pick a move !xq:P:");
    c.ask(&format!("@bob !{code}"), "earlier position");
    let pick = buttons
        .split("Pick a move !")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .expect("pick code")
        .to_string();
    c.ask(&format!("@carol !{pick}"), "for the players of this game");
    let pieces = c.ask(&format!("@alice !{pick}"), "!xq:S:");
    assert!(pieces.contains("chariot a0"), "{pieces}");
    let from = pieces
        .split("cannon h2 !")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .expect("cannon h2")
        .to_string();
    let targets = c.ask(&format!("@alice !{from}"), "!xq:T:");
    let to = targets
        .split("(h2e2) !")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .expect("h2e2")
        .to_string();
    c.ask(&format!("@alice !{to}"), "1. alice: C2.5 (h2e2)");
    let buttons = c.expect("Resign !xq:R:");
    // The same tap again is stale.
    c.ask(&format!("@alice !{to}"), "earlier position");
    let resign = buttons
        .split("Resign !")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .expect("resign code")
        .to_string();
    let confirm = c.ask(&format!("@bob !{resign}"), "Yes, resign !xq:Y:");
    let yes = confirm
        .split("Yes, resign !")
        .nth(1)
        .and_then(|s| s.split(']').next())
        .expect("confirm code")
        .to_string();
    // The question is bob's: alice's tap on it is refused, and nothing changes.
    c.ask(&format!("@alice !{yes}"), "meant for someone else");
    c.ask(&format!("@bob !{yes}"), "Red wins — bob resigned");
    c.finish();
}
