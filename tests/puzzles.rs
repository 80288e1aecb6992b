//! The shipped puzzle set and its solver: every puzzle replays under the arbiter and wins as
//! listed; every puzzle with a short line (at most three plies: mates in one or two, one- and
//! two-move material wins) is confirmed by the engine at a fixed node budget (the whole set is,
//! in release, by `xiangqi-bot puzzles verify`); the solver accepts another winning
//! move and refuses one that does not win; the text format reads back what it writes.

use std::collections::HashSet;

use proptest::prelude::*;
use xiangqi_bot::engine::Engine;
use xiangqi_bot::puzzle::{
    check_move, parse_set, shipped, verify, Goal, Progress, Puzzle, Theme, Verdict, ENDGAMES,
    TACTICS,
};

/// Nodes per search when the tests ask the engine (a debug build searches slowly).
const NODES: u64 = 10_000;

#[test]
fn every_shipped_line_reads_and_no_puzzle_is_shipped_twice() {
    let endgames = parse_set(ENDGAMES).expect("the endgames read");
    let tactics = parse_set(TACTICS).expect("the tactics read");
    // Floors under the set trimmed for issue 31 (24 endgames, 213 tactics; docs/puzzles.md).
    assert!(endgames.len() >= 20, "{} endgames", endgames.len());
    assert!(
        endgames.len() + tactics.len() >= 200,
        "{} puzzles",
        endgames.len() + tactics.len()
    );
    let set = shipped();
    assert_eq!(set.len(), endgames.len() + tactics.len());
    let ids: HashSet<&str> = set.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids.len(), set.len(), "ids are unique");
    let boards: HashSet<u64> = set.iter().map(|p| p.position.hash()).collect();
    assert_eq!(boards.len(), set.len(), "positions are unique");
    for p in &set {
        assert_eq!(Puzzle::from_line(&p.to_line()).as_ref(), Ok(p));
    }
}

#[test]
fn every_shipped_puzzle_replays_and_wins_as_listed() {
    let mut engine = Engine::new(1);
    let mut failures = Vec::new();
    for p in shipped() {
        if let Err(e) = verify(&p, &mut engine, 0) {
            failures.push(format!("{}: {e}", p.id));
        }
        if let Goal::Mate(n) = p.goal {
            assert_eq!(
                p.theme,
                Theme::MateIn(u8::try_from(n).unwrap_or(0)),
                "{}",
                p.id
            );
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn every_shipped_puzzle_with_a_short_line_is_confirmed_by_the_engine() {
    // Short lines only: the engine must see the win after each solver move at NODES nodes,
    // which a debug build affords for mates in one or two and short material wins.
    let mut engine = Engine::new(4);
    let mut checked = 0;
    let mut failures = Vec::new();
    let short: Vec<Puzzle> = shipped()
        .into_iter()
        .filter(|p| p.solution.len() <= 3)
        .collect();
    for p in &short {
        checked += 1;
        if let Err(e) = verify(p, &mut engine, NODES) {
            failures.push(format!("{}: {e}", p.id));
        }
    }
    assert!(checked >= 150, "{checked} checked");
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn a_shipped_mate_is_solved_along_its_line() {
    let p = shipped()
        .into_iter()
        .find(|p| p.goal == Goal::Mate(2))
        .expect("a mate in two");
    let mut engine = Engine::new(4);
    let v = check_move(&p, &Progress::start(), p.solution[0], &mut engine, NODES);
    let Verdict::Correct { reply, progress } = v else {
        panic!("{}: {v:?}", p.id);
    };
    assert_eq!(reply, p.solution[1]);
    assert_eq!(
        check_move(&p, &progress, p.solution[2], &mut engine, NODES),
        Verdict::Solved
    );
}

#[test]
fn a_move_that_does_not_win_is_refused_with_the_solution() {
    let p = shipped()
        .into_iter()
        .find(|p| p.goal == Goal::Mate(1))
        .expect("a mate in one");
    let mut engine = Engine::new(4);
    let other = p
        .position
        .legal_moves()
        .iter()
        .copied()
        .find(|&m| {
            let after = p.position.after(m);
            after.has_legal_move()
        })
        .expect("a move that does not mate");
    let v = check_move(&p, &Progress::start(), other, &mut engine, NODES);
    let Verdict::Wrong { solution, .. } = v else {
        panic!("{}: {v:?}", p.id);
    };
    assert_eq!(solution, p.solution);
}

proptest! {
    #[test]
    fn reading_any_line_never_panics(line in "\\PC{0,200}") {
        let _ = Puzzle::from_line(&line);
    }

    #[test]
    fn reading_a_damaged_shipped_line_never_panics(i in 0usize..500, cut in 0usize..200, junk in "[ -~]{0,12}") {
        let set = shipped();
        let line = set[i % set.len()].to_line();
        let cut = cut.min(line.len());
        let cut = (0..=cut).rev().find(|&c| line.is_char_boundary(c)).unwrap_or(0);
        let damaged = format!("{}{junk}{}", &line[..cut], &line[cut..]);
        let _ = Puzzle::from_line(&damaged);
    }
}
