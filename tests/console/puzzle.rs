//! Puzzles in the console, through the real binary: a puzzle posted as a board (decoded from
//! its PNG), a move answered by the defender's reply, a wrong move refuted, the solve
//! credited, the board of the buttons' actions typed as commands, and the puzzle record kept
//! across a restart.

use crate::console;

use crate::puzzles;

use console::Console;

const ENV: [(&str, &str); 1] = [("PUZZLE_NODES", "20000")];

/// The PNG a console line names (`… board: /path/x.png`), decoded: its size.
fn picture(line: &str) -> (u32, u32) {
    let path = line.split(": ").nth(1).expect("a path");
    let bytes = std::fs::read(path.trim()).expect("the picture");
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    (info.width, info.height)
}

#[test]
fn a_puzzle_is_solved_in_the_console_and_remembered_after_a_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let example = puzzles::mate_in_two();
    let (p, bad) = (&example.puzzle, example.wrong_second);
    let line: Vec<String> = p.solution.iter().map(ToString::to_string).collect();
    let mut c = Console::start(dir.path(), &ENV);
    let board = c.ask(&format!("@alice /puzzle {}", p.id), "board: ");
    assert!(board.contains("puzzle-"), "{board}");
    let (w, h) = picture(&board);
    assert!(w > 200 && h > 200, "{w}x{h}");
    c.expect(&format!("Puzzle {}: mate in 2", p.id));
    c.ask(&format!("@alice {}", line[0]), "is right, alice");
    c.ask(&format!("@bob {bad}"), "is not it, bob");
    c.ask(&format!("@bob {}", line[2]), "already missed");
    c.ask(&format!("@carol {}", line[2]), "solved by carol");
    c.expect("carol: puzzle rating 1500 →");
    c.ask("@dave /puzzle hint", "There is no puzzle here");
    c.ask("@dave /puzzle sunflower", "No puzzle matches “sunflower”");
    c.kill();
    let mut c = Console::start(dir.path(), &ENV);
    c.ask("@carol /puzzle stats", "carol: puzzle rating");
    c.ask("@bob /puzzle stats", "solved 0, missed 1, streak 0");
    c.ask(
        "@dave /puzzle stats",
        "dave has not solved a puzzle here yet",
    );
    c.ask("@dave /puzzle mate", "board: ");
    c.expect("mate in");
    c.ask("@dave /puzzle solution", "The solution: 1.");
}
