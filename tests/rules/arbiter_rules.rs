//! The clauses of each preset, by play: counts (6/12/18 and the casual 10th check), tables A
//! and O, the soldier switch, what resets a run, the caps, insufficient material, refuse mode,
//! the `vietnam` draw claim, warnings, and mate taking precedence over a foul.

use std::collections::HashMap;

use xiangqi_bot::arbiter::{
    Accepted, Arbiter, ClaimError, Clause, CountRule, Enforcement, Outcome, PlyClass, Reason,
    Ruleset, RulesetName, SubmitError, Warning,
};
use xiangqi_bot::core::{Color, Move, Position, Role};

fn arbiter(fen: &str, rules: RulesetName) -> Arbiter {
    Arbiter::new(
        Position::from_fen(fen).expect("test FEN"),
        Ruleset::preset(rules),
    )
}

fn mv(s: &str) -> Move {
    Move::parse_iccs(s).expect("ICCS")
}

/// Play every move; all must be accepted. Returns the last acceptance.
fn play(a: &mut Arbiter, moves: &str) -> Accepted {
    let mut last = None;
    for m in moves.split_whitespace() {
        last = Some(
            a.submit(mv(m))
                .unwrap_or_else(|e| panic!("{m} at ply {}: {e:?}", a.plies().len() + 1)),
        );
    }
    last.expect("at least one move")
}

/// How often each position hash occurred so far.
fn occurrences(a: &Arbiter) -> HashMap<u64, u32> {
    let mut seen = HashMap::new();
    for i in 0..=a.plies().len() {
        if let Some(p) = a.position_before(i) {
            *seen.entry(p.hash()).or_insert(0) += 1;
        }
    }
    seen
}

/// Drive a game with two policies until a ruling (or `max` plies). A policy gets the arbiter
/// and the legal moves that do not bring any position about a third time, and picks one.
fn drive(
    a: &mut Arbiter,
    max: usize,
    red: &dyn Fn(&Arbiter, &[Move]) -> Option<Move>,
    black: &dyn Fn(&Arbiter, &[Move]) -> Option<Move>,
) -> Option<xiangqi_bot::arbiter::Ruling> {
    for _ in 0..max {
        let pos = a.position().clone();
        let seen = occurrences(a);
        // Moves to positions never seen first, then those seen once; never a third time.
        let mut fresh: Vec<(u32, Move)> = pos
            .legal_moves()
            .iter()
            .map(|&m| (seen.get(&pos.after(m).hash()).copied().unwrap_or(0), m))
            .filter(|&(n, _)| n < 2)
            .collect();
        fresh.sort_by_key(|&(n, _)| n);
        let fresh: Vec<Move> = fresh.into_iter().map(|(_, m)| m).collect();
        let pick = match pos.turn() {
            Color::Red => red(a, &fresh),
            Color::Black => black(a, &fresh),
        }?;
        match a.submit(pick) {
            Ok(acc) => {
                if acc.ruling.is_some() {
                    return acc.ruling;
                }
            }
            Err(e) => panic!("policy move {pick} refused: {e:?}"),
        }
    }
    None
}

/// A move that neither captures, checks nor advances a soldier.
fn quiet(a: &Arbiter, moves: &[Move]) -> Option<Move> {
    let pos = a.position();
    moves.iter().copied().find(|&m| {
        pos.piece_at(m.to).is_none()
            && !pos.after(m).is_check()
            && pos
                .piece_at(m.from)
                .is_some_and(|p| p.role != Role::Soldier)
    })
}

// ---------------------------------------------------------------- counts

/// Seven checks in a row by one chariot (found by search; no position occurs three times).
const SEVEN_CHECKS: (&str, &str) = (
    "3a5/3k5/9/9/8R/9/9/9/9/4K4 w",
    "i5i8 d8d7 i8i7 d7d8 i7i8 d9e8 i8e8 d8d9 e8e9 d9d8 e9e8 d8d9 e8e9",
);

/// Thirteen checks in a row by two chariots.
const THIRTEEN_CHECKS: (&str, &str) = (
    "5k3/9/9/9/9/1R7/9/9/2RK5/9 w",
    "c1c9 f9f8 c9c8 f8f9 c8c9 f9f8 c9c8 f8f9 b4f4 f9e9 c8c9 e9e8 c9c8 e8e9 c8c9 e9e8 c9c8 e8e7 c8c7 e7e8 f4e4 e8f8 c7c8 f8f9 c8c9",
);

/// Ten checks in a row by two chariots.
const TEN_CHECKS: (&str, &str) = (
    "9/3k5/5R3/9/4R4/9/9/9/4K4/9 w",
    "f7f8 d8d9 f8f9 d9d8 f9f8 d8d9 f8f9 d9d8 e5e8 d8d7 e8e7 d7d8 e7e8 d8d7 e8e7 d7d8 f9f8 d8d9 f8f9",
);

/// Seven chases in a row of one black horse by one red chariot.
const SEVEN_CHASES: (&str, &str) = (
    "3k5/9/9/9/4n4/9/9/9/4K4/R8 w",
    "a0a5 e5f7 a5a7 f7g9 a7g7 g9i8 g7g8 i8h6 g8g6 h6i8 g6g8 i8h6 g8g6",
);

fn split(moves: &str) -> Vec<&str> {
    moves.split_whitespace().collect()
}

#[test]
fn official_seventh_check_by_one_piece_is_a_foul() {
    let (fen, moves) = SEVEN_CHECKS;
    let m = split(moves);
    let mut a = arbiter(fen, RulesetName::Official);
    // Six checks are allowed; after the sixth, Red is warned at its next turn.
    let acc = play(&mut a, &m[..12].join(" "));
    assert!(acc.ruling.is_none());
    assert!(
        acc.warnings.iter().any(|w| matches!(
            w,
            Warning::CheckLimitNear {
                side: Color::Red,
                count: 6,
                limit: 6
            }
        )),
        "{:?}",
        acc.warnings
    );
    let r = a.submit(mv(m[12])).expect("legal").ruling.expect("a foul");
    assert_eq!(
        (r.outcome, r.reason),
        (Outcome::BlackWins, Reason::CheckLimit)
    );
    assert_eq!(
        r.clause,
        Clause::CheckCount {
            count: 7,
            limit: 6,
            pieces: 1
        }
    );
    assert_eq!(r.ply, 13);
    assert_eq!(r.evidence.len(), 13, "the run from its first check");
    // CXQ also allows six checks with one piece.
    let mut c = arbiter(fen, RulesetName::Cxq);
    let r = play(&mut c, moves).ruling.expect("a foul");
    assert_eq!(r.reason, Reason::CheckLimit);
    // Asian and Vietnamese rules have no count; casual allows nine.
    for rules in [
        RulesetName::Asian,
        RulesetName::Vietnam,
        RulesetName::Casual,
    ] {
        let mut a = arbiter(fen, rules);
        assert!(play(&mut a, moves).ruling.is_none(), "{rules}");
    }
}

#[test]
fn cxq_allows_twelve_checks_with_two_pieces() {
    let (fen, moves) = THIRTEEN_CHECKS;
    let m = split(moves);
    let mut a = arbiter(fen, RulesetName::Cxq);
    let acc = play(&mut a, &m[..24].join(" "));
    assert!(
        acc.ruling.is_none(),
        "twelve checks with two chariots are allowed"
    );
    let r = a.submit(mv(m[24])).expect("legal").ruling.expect("a foul");
    assert_eq!(
        r.clause,
        Clause::CheckCount {
            count: 13,
            limit: 12,
            pieces: 2
        }
    );
    // Official rules count only single-piece runs: the same checks are no count foul.
    let mut o = arbiter(fen, RulesetName::Official);
    let r = play(&mut o, moves).ruling;
    assert!(
        r.as_ref().is_none_or(|r| r.reason != Reason::CheckLimit),
        "{r:?}"
    );
}

#[test]
fn casual_refuses_the_tenth_consecutive_check() {
    let (fen, moves) = TEN_CHECKS;
    let m = split(moves);
    let mut a = arbiter(fen, RulesetName::Casual);
    let acc = play(&mut a, &m[..18].join(" "));
    assert!(acc.ruling.is_none());
    assert!(
        acc.warnings.iter().any(|w| matches!(
            w,
            Warning::CheckLimitNear {
                count: 9,
                limit: 9,
                ..
            }
        )),
        "{:?}",
        acc.warnings
    );
    match a.submit(mv(m[18])) {
        Err(SubmitError::Refused(r)) => {
            assert_eq!(
                (r.reason, r.outcome),
                (Reason::CheckLimit, Outcome::BlackWins)
            );
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(a.plies().len(), 18, "nothing was played");
    // A move that does not check is accepted.
    let pos = a.position().clone();
    let q = pos
        .legal_moves()
        .iter()
        .copied()
        .find(|&q| {
            let after = pos.after(q);
            !after.is_check() && after.has_legal_move() && pos.piece_at(q.to).is_none()
        })
        .expect("a quiet move");
    let acc = a.submit(q).expect("accepted");
    assert!(acc.ruling.is_none(), "{q}: {:?}", acc.ruling);
    // Official rules have no such limit for two pieces.
    let mut o = arbiter(fen, RulesetName::Official);
    assert!(play(&mut o, moves)
        .ruling
        .is_none_or(|r| r.reason != Reason::CheckLimit));
}

#[test]
fn a_quiet_move_ends_the_run() {
    // Six checks, then a quiet general step instead of the seventh: the run is over, and the
    // next check starts a new run of one.
    let (fen, moves) = SEVEN_CHECKS;
    let m = split(moves);
    let mut a = arbiter(fen, RulesetName::Official);
    play(&mut a, &m[..12].join(" "));
    let acc = play(&mut a, "e0f0");
    assert_eq!(acc.record.class.name(), "idle");
    assert!(acc.warnings.is_empty(), "{:?}", acc.warnings);
}

#[test]
fn mate_takes_precedence_over_the_check_count() {
    // The 7th consecutive check by the same chariot is also mate: checkmate, not a foul.
    let mut a = arbiter("3k5/4a4/5P3/9/9/9/9/9/4K4/2R6 w", RulesetName::Official);
    let acc = play(
        &mut a,
        "c0c9 d9d8 c9c8 d8d9 c8c9 d9d8 c9c8 d8d9 c8d8 d9e9 d8e8 e9f9 e8e9",
    );
    let r = acc.ruling.expect("ended");
    assert_eq!((r.reason, r.outcome), (Reason::Checkmate, Outcome::RedWins));
}

#[test]
fn official_chase_count() {
    let (fen, moves) = SEVEN_CHASES;
    let m = split(moves);
    let mut a = arbiter(fen, RulesetName::Official);
    let acc = play(&mut a, &m[..12].join(" "));
    assert!(acc.ruling.is_none());
    assert!(
        acc.warnings.iter().any(|w| matches!(
            w,
            Warning::ChaseLimitNear {
                side: Color::Red,
                count: 6,
                limit: 6,
                ..
            }
        )),
        "{:?}",
        acc.warnings
    );
    let r = a.submit(mv(m[12])).expect("legal").ruling.expect("a foul");
    assert_eq!(
        (r.outcome, r.reason),
        (Outcome::BlackWins, Reason::ChaseLimit)
    );
    assert!(matches!(
        r.clause,
        Clause::ChaseCount {
            count: 7,
            limit: 6,
            pieces: 1,
            ..
        }
    ));
    // CXQ counts it the same way; asian rules have no count.
    let mut c = arbiter(fen, RulesetName::Cxq);
    assert_eq!(
        play(&mut c, moves).ruling.map(|r| r.reason),
        Some(Reason::ChaseLimit)
    );
    let mut b = arbiter(fen, RulesetName::Asian);
    assert!(play(&mut b, moves).ruling.is_none());
}

#[test]
fn chasing_another_piece_restarts_the_chase_run() {
    // Six chases of the horse, then Red attacks something else: no count foul follows.
    let (fen, moves) = SEVEN_CHASES;
    let m = split(moves);
    let mut a = arbiter(fen, RulesetName::Official);
    play(&mut a, &m[..12].join(" "));
    let acc = play(&mut a, "e1e0");
    assert_ne!(acc.record.class.name(), "chase");
    assert!(acc
        .warnings
        .iter()
        .all(|w| !matches!(w, Warning::ChaseLimitNear { .. })));
}

// ---------------------------------------------------------------- repetition tables

/// Red checks with the chariot and retreats; Black only moves its general.
const CHECK_IDLE: (&str, &str) = (
    "3k5/9/9/9/9/9/9/9/9/4K2R1 w",
    "h0h9 d9d8 h9h0 d8d9 h0h9 d9d8 h9h0 d8d9",
);

#[test]
fn one_check_one_idle_is_allowed_by_table_a_but_loses_under_table_o() {
    let (fen, moves) = CHECK_IDLE;
    for rules in [
        RulesetName::Asian,
        RulesetName::Vietnam,
        RulesetName::Casual,
    ] {
        let mut a = arbiter(fen, rules);
        let r = play(&mut a, moves).ruling.expect("third occurrence");
        assert_eq!(
            (r.outcome, r.reason),
            (Outcome::Draw, Reason::Repetition),
            "{rules}"
        );
        assert_eq!(r.ply, 8);
    }
    let mut o = arbiter(fen, RulesetName::Official);
    let r = play(&mut o, moves).ruling.expect("third occurrence");
    assert_eq!(
        (r.outcome, r.reason),
        (Outcome::BlackWins, Reason::Repetition)
    );
    assert_eq!(
        r.evidence.len(),
        4,
        "the cycle since the previous occurrence"
    );
    // CXQ has no repetition ruling at all.
    let mut c = arbiter(fen, RulesetName::Cxq);
    assert!(play(&mut c, moves).ruling.is_none());
}

#[test]
fn official_warns_the_attacker_before_the_losing_repetition() {
    let (fen, moves) = CHECK_IDLE;
    let mut o = arbiter(fen, RulesetName::Official);
    let seq: Vec<&str> = moves.split_whitespace().collect();
    let acc = play(&mut o, &seq[..6].join(" "));
    // Red to move at ply 7: retreating h9h0 lets Black repeat the start a third time.
    let w = acc
        .warnings
        .iter()
        .find_map(|w| match w {
            Warning::RepetitionLooming { side, moves, .. } => Some((*side, moves.clone())),
            _ => None,
        })
        .expect("a repetition warning");
    assert_eq!(w.0, Color::Red);
    assert!(w.1.contains(&mv("h9h0")), "{:?}", w.1);
    // Under table A the same play is a draw: no warning.
    let mut a = arbiter(fen, RulesetName::Asian);
    let acc = play(&mut a, &seq[..6].join(" "));
    assert!(acc
        .warnings
        .iter()
        .all(|w| !matches!(w, Warning::RepetitionLooming { .. })));
}

#[test]
fn perpetual_check_loses_under_every_repetition_preset() {
    let fen = "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w";
    let moves = "h8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 f8f9";
    for rules in [
        RulesetName::Official,
        RulesetName::Asian,
        RulesetName::Vietnam,
    ] {
        let mut a = arbiter(fen, rules);
        let r = play(&mut a, moves).ruling.expect("ruled");
        assert_eq!(
            (r.outcome, r.reason),
            (Outcome::BlackWins, Reason::PerpetualCheck),
            "{rules}"
        );
    }
}

#[test]
fn casual_refuses_a_repetition_that_the_mover_would_lose() {
    // Black to move, in check; Red keeps checking with the chariot from h9 and h8.
    let fen = "c2a1k1R1/2c1a4/b6P1/8p/9/9/9/9/4K4/9 b";
    let mut a = arbiter(fen, RulesetName::Casual);
    let acc = play(&mut a, "f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 f8f9");
    // Red is warned that h8h9 would bring the position about a third time and lose.
    assert!(acc.warnings.iter().any(|w| matches!(
        w,
        Warning::RepetitionLooming { side: Color::Red, moves, reason: Reason::PerpetualCheck } if moves.contains(&mv("h8h9"))
    )), "{:?}", acc.warnings);
    match a.submit(mv("h8h9")) {
        Err(SubmitError::Refused(r)) => {
            assert_eq!(
                (r.outcome, r.reason),
                (Outcome::BlackWins, Reason::PerpetualCheck)
            );
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(a.plies().len(), 7, "nothing was played");
    // Any other move is accepted.
    assert!(a.submit(mv("e1e0")).expect("accepted").ruling.is_none());
    // Under forfeit the same ply ends the game.
    let mut b = arbiter(fen, RulesetName::Asian);
    let r = play(&mut b, "f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 f8f9 h8h9")
        .ruling
        .expect("ruled");
    assert_eq!(
        (r.outcome, r.reason),
        (Outcome::BlackWins, Reason::PerpetualCheck)
    );
}

#[test]
fn a_player_whose_every_move_would_be_refused_loses() {
    // Red is in check and its only legal move, capturing the chariot, gives check. Under a
    // ruleset that forbids any check and refuses fouls, Red has no acceptable move.
    let rules = Ruleset {
        checks: CountRule::AnyPieces { max: 0 },
        enforcement: Enforcement::Refuse,
        ..Ruleset::preset(RulesetName::Casual)
    };
    let pos = Position::from_fen("9/9/2Rrk4/9/9/9/6n2/9/9/3K5 w").expect("fen");
    assert_eq!(pos.legal_moves().len(), 1);
    let a = Arbiter::new(pos, rules);
    let r = a.ruling().expect("Red loses at once");
    assert_eq!(r.outcome, Outcome::BlackWins);
    assert_eq!(r.reason, Reason::CheckLimit);
    assert!(r.all_moves_refused);
}

// ---------------------------------------------------------------- soldiers

#[test]
fn crossed_soldiers_chase_only_under_official_rules() {
    // The red soldier on c5 steps to c6 and attacks the lone black horse on b6.
    let fen = "3k5/9/9/1n7/2P6/9/9/9/9/4K4 w";
    let mut o = arbiter(fen, RulesetName::Official);
    let acc = o.submit(mv("c5c6")).expect("legal");
    assert!(
        matches!(acc.record.class, PlyClass::Chase { .. }),
        "{:?}",
        acc.record.class
    );
    for rules in [RulesetName::Asian, RulesetName::Vietnam, RulesetName::Cxq] {
        let mut a = arbiter(fen, rules);
        let acc = a.submit(mv("c5c6")).expect("legal");
        assert_eq!(acc.record.class, PlyClass::Idle, "{rules}");
    }
}

// ---------------------------------------------------------------- draws

#[test]
fn insufficient_material_is_a_draw_everywhere() {
    for rules in RulesetName::ALL {
        let mut a = arbiter("3k5/9/9/9/9/9/9/9/4r4/3AK4 w", rules);
        let r = a.submit(mv("d0e1")).expect("legal").ruling.expect("ended");
        assert_eq!(
            (r.outcome, r.reason),
            (Outcome::Draw, Reason::InsufficientMaterial),
            "{rules}"
        );
    }
}

const SHUFFLE: &str = "3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK1N2 w";

#[test]
fn no_progress_draws_after_the_ruleset_count() {
    for (rules, plies) in [
        (RulesetName::Official, 120),
        (RulesetName::Asian, 120),
        (RulesetName::Casual, 120),
        (RulesetName::Cxq, 60),
    ] {
        let mut a = arbiter(SHUFFLE, rules);
        let r = drive(&mut a, 200, &quiet, &quiet).expect("a ruling");
        assert_eq!(r.reason, Reason::NoProgress, "{rules}: {r:?}");
        assert_eq!(r.ply, plies, "{rules}");
        assert_eq!(r.outcome, Outcome::Draw);
    }
}

#[test]
fn vietnam_no_progress_is_a_claim_not_automatic() {
    let mut a = arbiter(SHUFFLE, RulesetName::Vietnam);
    let r = drive(&mut a, 99, &quiet, &quiet);
    assert!(r.is_none());
    assert!(matches!(
        a.claim_draw(),
        Err(ClaimError::TooEarly {
            counted: 99,
            needed: 100
        })
    ));
    let r = drive(&mut a, 1, &quiet, &quiet);
    assert!(r.is_none(), "never automatic");
    assert!(a.draw_claimable());
    let r = a.claim_draw().expect("granted");
    assert_eq!((r.outcome, r.reason), (Outcome::Draw, Reason::NoProgress));
    assert!(matches!(r.clause, Clause::NoProgress { claimed: true, .. }));
    // Other presets have no claim.
    let mut o = arbiter(SHUFFLE, RulesetName::Official);
    assert_eq!(o.claim_draw(), Err(ClaimError::NoClaimRule));
}

#[test]
fn a_capture_resets_the_no_progress_count() {
    let fen = "3ak4/4a4/4b4/9/9/9/9/4B4/4A4/r2AK1N2 b";
    let mut a = arbiter(fen, RulesetName::Cxq);
    // 50 quiet plies, then Black's chariot takes... nothing to take: capture the knight later.
    let r = drive(&mut a, 50, &quiet, &quiet);
    assert!(r.is_none());
    let pos = a.position().clone();
    let capture = pos
        .legal_moves()
        .iter()
        .copied()
        .find(|&m| pos.piece_at(m.to).is_some());
    if let Some(c) = capture {
        a.submit(c).expect("capture");
        let r = drive(&mut a, 55, &quiet, &quiet);
        assert!(r.is_none_or(|r| r.reason != Reason::NoProgress || r.ply > 110));
    }
}

/// A long-game position: both sides can shuffle for hundreds of plies without repeating,
/// and each has a crossed soldier whose forward steps are progress.
const LONG: &str = "3ak4/4a4/4b1n2/P7P/9/9/p7p/4B4/4A4/3AK1N2 w";

/// Quiet moves, but a crossed soldier steps forward every `every` plies (progress).
fn advancing(every: usize) -> impl Fn(&Arbiter, &[Move]) -> Option<Move> {
    move |a: &Arbiter, moves: &[Move]| {
        let pos = a.position();
        if a.plies().len() % every >= every - 2 {
            let step = moves.iter().copied().find(|&m| {
                pos.piece_at(m.from)
                    .is_some_and(|p| p.role == Role::Soldier)
                    && m.from.file() == m.to.file()
                    && pos.piece_at(m.to).is_none()
                    && !pos.after(m).is_check()
            });
            if step.is_some() {
                return step;
            }
        }
        quiet(a, moves)
    }
}

#[test]
fn official_caps_the_game_at_300_plies() {
    let mut a = arbiter(LONG, RulesetName::Official);
    let r = drive(&mut a, 400, &advancing(100), &advancing(100)).expect("a ruling");
    assert_eq!(
        (r.outcome, r.reason, r.ply),
        (Outcome::Draw, Reason::MoveLimit, 300),
        "{r:?}"
    );
    // Asian rules have no cap, and count no soldier advance as progress: no-progress first.
    let mut b = arbiter(LONG, RulesetName::Asian);
    let r = drive(&mut b, 400, &advancing(100), &advancing(100)).expect("a ruling");
    assert_eq!((r.reason, r.ply), (Reason::NoProgress, 120), "{r:?}");
}

#[test]
fn cxq_effective_move_rule() {
    // Soldier steps every 50 plies keep CXQ's 60-ply progress rule away, so the game runs
    // until each side has made 120 effective moves (not checks, chases, or replies to them).
    let mut a = arbiter(LONG, RulesetName::Cxq);
    let r = drive(&mut a, 400, &advancing(50), &advancing(50)).expect("a ruling");
    assert_eq!(
        (r.outcome, r.reason),
        (Outcome::Draw, Reason::EffectiveMoves),
        "{r:?}"
    );
    // Recount independently: a ply is effective when neither it nor the ply before it was a
    // check or a chase (an idle move or a threat to mate).
    let mut eff = [0u32; 2];
    let mut prev_quiet = true;
    for p in a.plies() {
        let quiet = matches!(p.class, PlyClass::Idle | PlyClass::Kill { .. });
        if quiet && prev_quiet {
            eff[p.facts.side.index()] += 1;
        }
        prev_quiet = quiet;
    }
    assert!(eff[0] >= 120 && eff[1] >= 120, "{eff:?}");
    assert!(
        eff[0] == 120 || eff[1] == 120,
        "ruled as soon as both reached 120: {eff:?}"
    );
    assert!(
        a.plies().iter().any(|p| p.class.is_attack()),
        "some plies did not count"
    );
}
