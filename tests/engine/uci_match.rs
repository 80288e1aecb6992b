//! The match runner: tiny matches of our engine against the real Fairy-Stockfish through the
//! command line (W/D/L, Elo, PGN; the SPRT and the three counts), a neutral referee's recount of
//! a match's PGN (`scripts/referee.py`, Fairy-Stockfish's rules through pyffish), and the
//! adjudication of an engine's illegal move, a crash and the ply limit.

use crate::engines;

use std::process::Command;

use xiangqi_bot::arbiter::{Outcome, Ruleset};
use xiangqi_bot::engine::Limits;
use xiangqi_bot::uci::contestant::PlayerSpec;
use xiangqi_bot::uci::matches::{parse_openings, run_match, GameReport, MatchSettings};
use xiangqi_bot::uci::sprt::{EloModel, Sprt};
use xiangqi_bot::uci::stats::GameScore;

const BIN: &str = env!("CARGO_BIN_EXE_xiangqi-bot");

#[test]
fn builtin_against_fairy_stockfish_from_the_command_line() {
    let fsf = engines::fairy_stockfish();
    let dir = tempfile::tempdir().expect("tempdir");
    let pgn = dir.path().join("games.pgn");
    let out = Command::new(BIN)
        .args([
            "match",
            "builtin:20",
            &format!("uci:{fsf}"),
            "--games",
            "2",
            "--nodes",
            "3000",
        ])
        .args(["--max-plies", "60", "--concurrency", "2", "--openings"])
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/openings.txt"))
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .expect("run match");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games: Vec<&str> = text.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 2, "{text}");
    assert!(text.contains("Fairy-Stockfish"), "{text}");
    let summary = text.lines().find(|l| l.contains(" Elo ")).expect("summary");
    assert!(
        summary.contains("(2 games)") && summary.contains("pentanomial"),
        "{summary}"
    );
    let pgn = std::fs::read_to_string(&pgn).expect("pgn written");
    assert_eq!(pgn.matches("[Game \"Chinese Chess\"]").count(), 2, "{pgn}");
    assert!(
        pgn.contains("[Red \"builtin:20\"]") && pgn.contains("[Black \"builtin:20\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("1. "), "{pgn}");
}

/// Run `match` with `args`; its standard output, after checking that it succeeded.
fn run_match_command(args: &[&str]) -> String {
    let out = Command::new(BIN)
        .arg("match")
        .args(args)
        .arg("--openings")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/openings.txt"))
        .output()
        .expect("run match");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// `W 2 D 0 L 2` at the start of `s`.
fn wdl(s: &str) -> [u32; 3] {
    let t: Vec<&str> = s.split_whitespace().collect();
    assert!(
        t.len() >= 6 && t[0] == "W" && t[2] == "D" && t[4] == "L",
        "{s}"
    );
    [t[1], t[3], t[5]].map(|n| n.parse().expect("count"))
}

/// The report's own numbers, checked against each other: the three counts against the endings
/// table, and every LLR the SPRT printed against the pairs the game lines give. Returns the
/// number of games and of pairs the SPRT counted, and the verdict line.
fn check_report(text: &str, sprt: Sprt) -> (usize, usize, String) {
    let line = |prefix: &str| {
        text.lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no line {prefix:?} in\n{text}"))
    };
    // The endings table: `checkmate [mate] 2/0/2, ply_limit [rule] 0/1/0`.
    let endings = line("endings (A won/drawn/B won): ");
    let mut expected = [[0u32; 3]; 3]; // arbiter, mates, repetition-drawn
    for item in endings.split_once("): ").expect("table").1.split(", ") {
        let (kind, counts) = item
            .split_once("] ")
            .and_then(|(k, c)| Some((k.split_once(" [")?.1, c)))
            .unwrap_or_else(|| panic!("{item:?} in {endings}"));
        let c: Vec<u32> = counts.split('/').map(|n| n.parse().expect("n")).collect();
        let all = c.iter().sum::<u32>();
        let stands = [
            true,
            matches!(kind, "mate" | "forfeit"),
            kind != "repetition",
        ];
        assert!(
            ["mate", "forfeit", "repetition", "rule"].contains(&kind),
            "{item}"
        );
        for (e, stands) in expected.iter_mut().zip(stands) {
            if stands {
                (0..3).for_each(|k| e[k] += c[k]);
            } else {
                e[1] += all;
            }
        }
    }
    for (name, e) in ["arbiter:", "mates:", "repetition-drawn:"]
        .iter()
        .zip(expected)
    {
        let l = line(&format!("count {name}"));
        assert_eq!(
            wdl(l.split_once(':').expect("count").1),
            e,
            "{l}\n{endings}"
        );
    }
    // The summary line is the arbiter's count.
    let summary = text.lines().find(|l| l.contains(" Elo ")).expect("summary");
    assert_eq!(
        wdl(summary.split_once(": ").expect("summary").1),
        expected[0],
        "{summary}"
    );
    // Replay the game lines: A (player 1) has Red in odd-numbered games. Each pair's line comes
    // right after its second game, and its LLR is the one of the pairs finished so far.
    let mut scores: Vec<Option<f64>> = Vec::new();
    let mut pairs = [0u32; 5];
    let mut seen = 0;
    for l in text.lines() {
        if let Some(rest) = l.strip_prefix("game ") {
            let (n, rest) = rest.split_once(": ").expect("game line");
            let n: usize = n.trim().parse().expect("game number");
            let result = [" 1-0 (", " 0-1 (", " 1/2-1/2 ("]
                .iter()
                .position(|r| rest.contains(r))
                .unwrap_or_else(|| panic!("no result in {l}"));
            let red_points = [1.0, 0.0, 0.5][result];
            let a = if n % 2 == 1 {
                red_points
            } else {
                1.0 - red_points
            };
            if scores.len() < n {
                scores.resize(n, None);
            }
            scores[n - 1] = Some(a);
        } else if let Some(rest) = l.strip_prefix("sprt pair ") {
            let (games, llr) = rest.split_once("): LLR ").expect("pair line");
            let first: usize = games
                .split_once("(games ")
                .and_then(|(_, g)| g.split('-').next()?.parse().ok())
                .expect("games");
            let (x, y) = (scores[first - 1], scores[first]);
            let points = x.expect("first game") + y.expect("second game");
            pairs[(points * 2.0).round() as usize] += 1;
            seen += 1;
            let want = format!("{:.2}", sprt.llr(&pairs) + 0.0);
            assert!(
                llr.starts_with(&format!("{want} (-2.94, 2.94)")),
                "{l}: {want}"
            );
        }
    }
    let games = scores.iter().filter(|s| s.is_some()).count();
    assert!(scores.iter().all(Option::is_some), "games missing:\n{text}");
    assert!(
        line("sprt: ").contains("LLR bounds (-2.94, 2.94)"),
        "{text}"
    );
    (games, seen, line("sprt verdict: ").to_string())
}

#[test]
fn sprt_and_three_counts_against_fairy_stockfish() {
    let fsf = format!("uci:{}", engines::fairy_stockfish());
    // Our top level (20) against Fairy-Stockfish, four games at 20 ms a move: too few for a verdict.
    let text = run_match_command(&[
        "builtin:20",
        &fsf,
        "--games",
        "4",
        "--movetime",
        "20",
        "--max-plies",
        "80",
        "--concurrency",
        "2",
        "--sprt",
        "0,5",
    ]);
    let sprt = Sprt::new(0.0, 5.0, EloModel::Normalized).expect("bounds");
    let (games, pairs, verdict) = check_report(&text, sprt);
    assert_eq!((games, pairs), (4, 2), "{text}");
    assert!(
        verdict.starts_with("sprt verdict: inconclusive after 2 pairs"),
        "{verdict}"
    );
    // Level 1 against Fairy-Stockfish loses every pair: H0 ("not 200 Elo stronger") within a
    // few pairs, well before the 24 games allowed, and the match stops at a pair boundary (the
    // games played are whole pairs, each with its LLR line).
    let text = run_match_command(&[
        "builtin:1",
        &fsf,
        "--games",
        "24",
        "--nodes",
        "2000",
        "--max-plies",
        "200",
        "--sprt",
        "0,200",
        "--sprt-model",
        "logistic",
        "--sprt-count",
        "arbiter",
        "--concurrency",
        "2",
    ]);
    let sprt = Sprt::new(0.0, 200.0, EloModel::Logistic).expect("bounds");
    let (games, pairs, verdict) = check_report(&text, sprt);
    assert!(
        games < 24 && games == 2 * pairs,
        "{games} games, {pairs} pairs\n{text}"
    );
    let at: usize = verdict
        .strip_prefix("sprt verdict: H0 after ")
        .and_then(|v| v.split(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("{verdict}\n{text}"));
    // Two games at a time: at most the one pair under way at the verdict is finished after it,
    // and never half a pair.
    assert!(at == pairs || at + 1 == pairs, "{verdict}\n{text}");
    // One lost pair is not enough evidence: the LLR needs several.
    assert!(at >= 2, "{verdict}");
}

/// A neutral referee: `scripts/referee.py` replays a real match's PGN under Fairy-Stockfish's
/// rules (pyffish), checks every move, recounts every game by mates and stalemates alone, and
/// must agree with our own `mates` count game by game and in total (W/D/L and pairs). Needs
/// python3 with pyffish (`pip install pyffish`).
#[test]
fn the_neutral_referee_agrees_with_our_mates_count() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pgn = dir.path().join("games.pgn");
    // The top level mates level 2 in most games; the 70-ply limit draws the others.
    let out = Command::new(BIN)
        .args([
            "match",
            "builtin:20",
            "builtin:2",
            "--games",
            "8",
            "--nodes",
            "3000",
        ])
        .args(["--max-plies", "70", "--concurrency", "2"])
        .arg("--openings")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/assets/openings-200.txt"
        ))
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .expect("run match");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}");
    let referee = Command::new("python3")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/referee.py"))
        .arg(&pgn)
        .args(["--sprt", "0,10"])
        .output()
        .expect("python3 runs");
    let verdict = String::from_utf8_lossy(&referee.stdout).into_owned();
    let err = String::from_utf8_lossy(&referee.stderr);
    assert!(
        !err.contains("No module named 'pyffish'"),
        "the referee needs pyffish: pip install pyffish\n{err}"
    );
    assert!(
        referee.status.success(),
        "the referee disagrees or found an illegal move:\n{verdict}\n{err}\nour report:\n{text}"
    );
    let ours = text
        .lines()
        .find_map(|l| l.strip_prefix("count mates:"))
        .expect("mates count");
    let theirs = verdict
        .lines()
        .find(|l| l.starts_with("W "))
        .expect("referee W/D/L");
    assert_eq!(wdl(ours.trim_start()), wdl(theirs), "{text}\n{verdict}");
    let our_pairs = ours.split_once("; pairs ").expect("pairs").1;
    let their_pairs = verdict
        .lines()
        .find_map(|l| l.strip_prefix("pairs by points for A (0, 1/2, 1, 3/2, 2): "))
        .expect("referee pairs");
    assert!(
        our_pairs.starts_with(&format!("{their_pairs} (")),
        "{text}\n{verdict}"
    );
    assert!(
        verdict.contains("games where pyffish disagrees with our mates count: 0"),
        "{verdict}"
    );
    // The recount had something to decide: games were mated.
    assert!(text.contains("[mate]"), "{text}");
    let [w, _, l] = wdl(theirs);
    assert!(w + l > 0, "{verdict}");
}

fn settings(games: usize, max_plies: usize) -> MatchSettings {
    let openings = parse_openings("h2e2 h9g7 h0g2 b9c7 | Central cannon | 中炮").expect("opening");
    MatchSettings {
        games,
        concurrency: 1,
        rules: Ruleset::default(),
        max_plies,
        openings,
        seed: 7,
    }
}

fn play(a: &PlayerSpec, b: &PlayerSpec, s: &MatchSettings) -> Vec<GameReport> {
    let limits = Limits {
        nodes: Some(500),
        ..Limits::default()
    };
    let make = |is_a: bool| Ok((if is_a { a } else { b }).contestant(Some(&limits), 4, 0));
    run_match(s, make, &|_| {}).expect("match runs")
}

#[test]
fn illegal_moves_and_crashes_lose_and_long_games_are_drawn() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cheat = engines::script(dir.path(), "cheater", "echo 'bestmove a0a5'");
    let crash = engines::script(dir.path(), "crasher", "exit 3");
    let builtin: PlayerSpec = "builtin:20".parse().expect("spec");
    for (script, why) in [(cheat, "a0a5"), (crash, "failed")] {
        let bad: PlayerSpec = format!("uci:{}", script.display()).parse().expect("spec");
        let games = play(&bad, &builtin, &settings(2, 300));
        assert_eq!(games.len(), 2);
        for g in &games {
            assert_eq!(g.score_for_a(), GameScore::Loss, "{g:?}");
            assert!(g.reason.contains(why), "{}", g.reason);
            assert_eq!(g.opening, "Central cannon / 中炮");
        }
        assert!(games[0].a_red && !games[1].a_red);
        assert_eq!(games[0].outcome, Outcome::BlackWins);
    }
    let games = play(&builtin, &builtin, &settings(1, 8));
    assert_eq!(games[0].outcome, Outcome::Draw);
    assert!(games[0].reason.contains("8-ply"), "{}", games[0].reason);
    assert_eq!(games[0].moves.len(), 8);
    assert!("builtin:21".parse::<PlayerSpec>().is_err());
    assert!("uci:".parse::<PlayerSpec>().is_err());
    assert!("stockfish".parse::<PlayerSpec>().is_err());
}

/// The ladder's anchors and a trial level through the real command: greedy beats random in
/// every game (it takes what random hangs and mates when it can), a searched level with a
/// margin beats greedy, and every game ends on the board.
#[test]
fn anchors_and_trial_levels_play_through_the_match_command() {
    let text = run_match_command(&["builtin:greedy", "builtin:random", "--games", "6"]);
    let line = text
        .lines()
        .find(|l| l.starts_with("builtin:greedy vs builtin:random: "))
        .unwrap_or_else(|| panic!("no result line:\n{text}"));
    let (_, counts) = line.split_once(": ").expect("a result");
    assert_eq!(wdl(counts), [6, 0, 0], "{text}");
    let text = run_match_command(&[
        "level:nodes=3000,margin=300,lines=10",
        "builtin:greedy",
        "--games",
        "4",
    ]);
    let line = text
        .lines()
        .find(|l| l.starts_with("level:nodes=3000,margin=300,lines=10 vs builtin:greedy: "))
        .unwrap_or_else(|| panic!("no result line:\n{text}"));
    let [w, _, l] = wdl(line.split_once(": ").expect("a result").1);
    assert!(w > l, "{text}");
    let endings = text
        .lines()
        .find_map(|l| l.strip_prefix("endings (A won/drawn/B won): "))
        .unwrap_or_else(|| panic!("no endings line:\n{text}"));
    assert!(
        endings.split(", ").all(|e| e.contains("[mate]")),
        "an ending off the board: {endings}"
    );
}
