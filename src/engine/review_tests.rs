//! Reviews of constructed games whose blunders are obvious, and the judgement rules on
//! constructed evaluations.

use std::sync::atomic::AtomicBool;

use super::*;
use crate::arbiter::RulesetName;

fn mv(s: &str) -> Move {
    Move::parse_iccs(s).unwrap_or_else(|| panic!("bad move {s}"))
}

fn moves(s: &str) -> Vec<Move> {
    s.split_whitespace().map(mv).collect()
}

fn at(eval: Eval, pv: &str) -> PositionEval {
    PositionEval {
        eval,
        pv: moves(pv),
    }
}

fn small() -> ReviewLimits {
    ReviewLimits {
        nodes: 4_000,
        total_ms: 60_000,
    }
}

fn run(fen: &str, played: &str) -> Review {
    let start = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let stop = AtomicBool::new(false);
    review(
        &mut Engine::new(1),
        &start,
        &moves(played),
        &Ruleset::preset(RulesetName::Official),
        small(),
        &stop,
    )
    .unwrap_or_else(|| panic!("not stopped"))
}

/// Red's two chariots against Black's one, each king behind its guards: b1b5 puts a chariot
/// where h5 takes it for free.
const HANGING: &str = "2bakab2/9/9/9/7r1/9/9/9/1R2A4/R2K1A3 w";

#[test]
fn a_chariot_left_en_prise_is_a_blunder_with_the_better_move() {
    let r = run(HANGING, "b1b5 h5b5");
    assert_eq!(r.evals.len(), 3);
    assert!(r.evals[0].capped_cp() > 500, "{:?}", r.evals);
    assert!(
        r.evals[1].capped_cp() < 300,
        "the capture is seen: {:?}",
        r.evals
    );
    assert!(r.evals[2].capped_cp() < 300, "{:?}", r.evals);
    let p = &r.plies[0];
    assert_eq!(p.mover, Color::Red);
    let (j, flaw) = p.judgement.unwrap_or_else(|| panic!("not judged: {p:?}"));
    assert_eq!((j, flaw), (Judgement::Blunder, Flaw::Chances));
    let better = p
        .better
        .as_ref()
        .unwrap_or_else(|| panic!("no better move"));
    assert_ne!(better.pv[0], mv("b1b5"));
    assert_eq!(better.eval, r.evals[0]);
    assert!(p.loss >= 0.3 && p.accuracy < 30.0, "{p:?}");
    // Black's capture is the engine's own move: never judged.
    assert_eq!(r.plies[1].judgement, None);
    assert!(r.plies[1].accuracy > 90.0, "{:?}", r.plies[1]);
    assert_eq!(r.count(Color::Red, Judgement::Blunder), 1);
    assert_eq!(r.flaws().count(), 1);
    assert!(
        r.accuracy[Color::Red.index()].is_some_and(|a| a < 50.0),
        "{:?}",
        r.accuracy
    );
    assert!(
        r.accuracy[Color::Black.index()].is_some_and(|a| a > 90.0),
        "{:?}",
        r.accuracy
    );
    assert!(r.nodes > 0);
}

#[test]
fn a_game_ending_in_mate_scores_the_last_position_as_won() {
    let r = run("4k4/1R7/9/9/9/9/9/9/9/R2K5 w", "a0a9");
    assert_eq!(r.evals, vec![Eval::Mate(1), Eval::Over(Outcome::RedWins)]);
    assert_eq!(r.plies[0].judgement, None);
    assert_eq!(r.plies[0].accuracy, 100.0);
    assert_eq!(r.accuracy[0].map(f64::round), Some(100.0));
    assert_eq!(r.accuracy[1], None);
}

#[test]
fn reviews_are_reproducible_and_stop_on_request() {
    let a = run(HANGING, "b1b5 h5b5");
    let b = run(HANGING, "b1b5 h5b5");
    assert_eq!(a.evals, b.evals);
    assert_eq!(a.plies, b.plies);
    let stop = AtomicBool::new(true);
    let none = review(
        &mut Engine::new(1),
        &Position::startpos(),
        &moves("h2e2 h9g7"),
        &Ruleset::default(),
        small(),
        &stop,
    );
    assert!(none.is_none());
}

#[test]
fn moves_that_do_not_replay_are_left_out() {
    // d0d5 is no general's move: the review stops before it.
    let r = run(HANGING, "b1b2 h5h4 d0d5 h4h3");
    assert_eq!(r.plies.len(), 2);
    assert_eq!(r.evals.len(), 3);
}

fn constructed(evals: &[(Eval, &str)]) -> Review {
    let game = moves("h2e2 h9g7 h0g2 i9h9");
    let evals: Vec<PositionEval> = evals.iter().map(|&(e, pv)| at(e, pv)).collect();
    assess(&Position::startpos(), &game, &evals)
}

#[test]
fn judgement_on_constructed_evaluations() {
    // Red's second move drops three pawns' worth; Black's second is the engine's choice.
    let r = constructed(&[
        (Eval::Cp(30), "h2e2"),
        (Eval::Cp(30), "b9c7"),
        (Eval::Cp(40), "b0c2 b9c7"),
        (Eval::Cp(-260), "i9h9"),
        (Eval::Cp(100), ""),
    ]);
    assert_eq!(r.plies[0].judgement, None, "the engine's move");
    assert_eq!(
        r.plies[1].judgement, None,
        "0.30 to 0.40 for Red is no loss for Black"
    );
    assert_eq!(r.plies[2].mover, Color::Red);
    assert_eq!(
        r.plies[2].judgement,
        Some((Judgement::Blunder, Flaw::Chances))
    );
    let better = r.plies[2].better.clone().map(|b| (b.pv, b.eval));
    assert_eq!(better, Some((moves("b0c2 b9c7"), Eval::Cp(40))));
    assert_eq!(
        r.plies[3].judgement, None,
        "the engine's move, even though it then looks worse"
    );
    assert!((r.plies[2].loss - (winning_chances(40) - winning_chances(-260))).abs() < 1e-9);
    // Small losses are inaccuracies and mistakes.
    let r = constructed(&[
        (Eval::Cp(0), "b0c2"),
        (Eval::Cp(-60), "b9c7"),
        (Eval::Cp(-60), "b0c2"),
        (Eval::Cp(-200), "b9c7"),
        (Eval::Cp(-300), ""),
    ]);
    assert_eq!(
        r.plies[0].judgement.map(|j| j.0),
        Some(Judgement::Inaccuracy)
    );
    assert_eq!(r.plies[2].judgement.map(|j| j.0), Some(Judgement::Mistake));
    assert_eq!(r.plies[3].judgement, None);
    assert!(r.plies[3].loss < 0.0, "Black gained ground");
}

#[test]
fn mates_let_in_and_mates_let_slip() {
    let r = constructed(&[
        (Eval::Cp(0), "c3c4"),
        (Eval::Cp(0), "c6c5"),
        // Red lets a mate in from an even position: a blunder.
        (Eval::Cp(10), "c3c4"),
        (Eval::Mate(-3), "b9c7"),
        (Eval::Mate(-2), ""),
    ]);
    assert_eq!(
        r.plies[2].judgement,
        Some((Judgement::Blunder, Flaw::MateCreated))
    );
    assert_eq!(r.plies[3].judgement, None, "the mate goes on");
    assert!(r.plies[2].accuracy < 15.0, "{:?}", r.plies[2]);
    let r = constructed(&[
        (Eval::Mate(4), "c3c4"),
        // Red lets its mate slip, to a still-winning position: an inaccuracy.
        (Eval::Cp(1500), "c6c5"),
        // Black, already lost beyond 10 pawns, lets a mate in: an inaccuracy.
        (Eval::Mate(2), "c3c4"),
        // Red lets its mate slip so far that Black now mates: a blunder.
        (Eval::Mate(-3), "b9c7"),
        // Black's mate slips to a game Red has won: a blunder.
        (Eval::Over(Outcome::RedWins), ""),
    ]);
    let judged: Vec<_> = r.plies.iter().map(|p| p.judgement).collect();
    assert_eq!(
        judged,
        vec![
            Some((Judgement::Inaccuracy, Flaw::MateLost)),
            Some((Judgement::Inaccuracy, Flaw::MateCreated)),
            Some((Judgement::Blunder, Flaw::MateLost)),
            Some((Judgement::Blunder, Flaw::MateLost)),
        ]
    );
    // A slower mate is no flaw; nor is winning the game.
    let r = constructed(&[
        (Eval::Mate(2), "c3c4"),
        (Eval::Mate(5), "c6c5"),
        (Eval::Mate(5), "c3c4"),
        (Eval::Mate(4), "b9c7"),
        (Eval::Over(Outcome::RedWins), ""),
    ]);
    assert!(
        r.plies.iter().all(|p| p.judgement.is_none()),
        "{:?}",
        r.plies
    );
}

#[test]
fn evaluations_read_and_print_as_lichess_writes_them() {
    assert_eq!(Eval::from_score(Score::Cp(35), Color::Red), Eval::Cp(35));
    assert_eq!(Eval::from_score(Score::Cp(35), Color::Black), Eval::Cp(-35));
    assert_eq!(
        Eval::from_score(Score::Mate(3), Color::Black),
        Eval::Mate(-3)
    );
    assert_eq!(
        Eval::from_score(Score::Mate(0), Color::Black),
        Eval::Over(Outcome::RedWins)
    );
    assert_eq!(Eval::Cp(35).pgn_command().as_deref(), Some("[%eval 0.35]"));
    assert_eq!(
        Eval::Cp(-120).pgn_command().as_deref(),
        Some("[%eval -1.20]")
    );
    assert_eq!(Eval::Cp(-5).pgn_command().as_deref(), Some("[%eval -0.05]"));
    assert_eq!(Eval::Mate(-3).pgn_command().as_deref(), Some("[%eval #-3]"));
    assert_eq!(Eval::Over(Outcome::Draw).pgn_command(), None);
    let shown: Vec<String> = [
        Eval::Cp(35),
        Eval::Cp(-120),
        Eval::Mate(2),
        Eval::Over(Outcome::BlackWins),
    ]
    .iter()
    .map(ToString::to_string)
    .collect();
    assert_eq!(shown, ["+0.35", "-1.20", "#2", "0-1"]);
    assert_eq!(Eval::Mate(-1).capped_cp(), -CP_CEILING);
    assert_eq!(Eval::Cp(4000).capped_cp(), CP_CEILING);
}
