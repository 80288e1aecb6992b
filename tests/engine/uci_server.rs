//! `xiangqi-bot uci` driven as a child process through the real protocol: the handshake and
//! options, searches by depth and nodes, `stop` during `go infinite`, `isready` while
//! searching, a position our arbiter would have ended, and our own client talking to it.

use crate::engines;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use xiangqi_bot::arbiter::Ruleset;
use xiangqi_bot::core::{Move, Position};
use xiangqi_bot::engine::uci::{parse_engine_line, Dialect, EngineLine, OptionKind};
use xiangqi_bot::engine::Limits;
use xiangqi_bot::uci::{check_move, replay, ExternalEngine};

const BIN: &str = env!("CARGO_BIN_EXE_xiangqi-bot");

struct Uci {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Uci {
    fn start() -> Uci {
        let mut child = Command::new(BIN)
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start xiangqi-bot uci");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Uci {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write");
        self.stdin.flush().expect("flush");
    }

    /// Lines up to and including the first that starts with `until`.
    fn read_until(&self, until: &str, within: Duration) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let l = self
                .lines
                .recv_timeout(within)
                .unwrap_or_else(|_| panic!("no {until:?} within {within:?}; got {out:#?}"));
            let done = l.starts_with(until);
            out.push(l);
            if done {
                return out;
            }
        }
    }

    fn bestmove(&self, within: Duration) -> (Vec<String>, Option<Move>) {
        let lines = self.read_until("bestmove", within);
        let last = lines.last().expect("a line");
        match parse_engine_line(last, Dialect::Iccs) {
            Ok(EngineLine::BestMove { best, .. }) => (lines, best),
            other => panic!("{last:?}: {other:?}"),
        }
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        std::thread::sleep(Duration::from_millis(50));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn mv(s: &str) -> Move {
    Move::parse_iccs(s).expect("ICCS")
}

const LONG: Duration = Duration::from_secs(60);

#[test]
fn handshake_options_and_searches() {
    let mut u = Uci::start();
    u.send("uci");
    let hello = u.read_until("uciok", LONG);
    assert!(hello[0].starts_with("id name xiangqi-bot"), "{hello:?}");
    let options: Vec<_> = hello
        .iter()
        .filter_map(|l| match parse_engine_line(l, Dialect::Iccs) {
            Ok(EngineLine::Option(o)) => Some(o),
            _ => None,
        })
        .collect();
    let names: Vec<&str> = options.iter().map(|o| o.name.as_str()).collect();
    for n in ["Hash", "MultiPV", "Skill Level", "Threads", "Ruleset"] {
        assert!(names.contains(&n), "{n} missing from {names:?}");
    }
    let skill = options
        .iter()
        .find(|o| o.name == "Skill Level")
        .expect("skill");
    assert_eq!(
        skill.kind,
        OptionKind::Spin {
            default: 20,
            min: 1,
            max: 20
        }
    );
    u.send("setoption name Hash value 8");
    u.send("setoption name Ruleset value asian");
    u.send("setoption name MultiPV value 2");
    u.send("setoption name Nonsense value 3");
    u.send("isready");
    let r = u.read_until("readyok", LONG);
    assert!(
        r.iter()
            .any(|l| l.contains("info string") && l.contains("Nonsense")),
        "{r:?}"
    );
    u.send("ucinewgame");
    u.send("position startpos moves h2e2 h9g7");
    u.send("go depth 4");
    let (lines, best) = u.bestmove(LONG);
    let best = best.expect("a move");
    let start = Position::startpos();
    let game = replay(&start, &[mv("h2e2"), mv("h9g7")], &Ruleset::default()).expect("replay");
    assert!(check_move(&game, best).is_ok(), "{best}");
    let infos: Vec<_> = lines
        .iter()
        .filter_map(|l| match parse_engine_line(l, Dialect::Iccs) {
            Ok(EngineLine::Info(i)) if i.score.is_some() => Some(i),
            _ => None,
        })
        .collect();
    assert!(!infos.is_empty(), "{lines:?}");
    assert!(
        infos.iter().any(|i| i.multipv == Some(2)),
        "MultiPV 2: {lines:?}"
    );
    assert!(infos.iter().all(|i| !i.pv.is_empty()));
    assert_eq!(infos.iter().filter_map(|i| i.depth).max(), Some(4));

    // go nodes, from a FEN with Black to move: the hanging chariot is taken.
    u.send("setoption name MultiPV value 1");
    u.send("position fen 4k4/9/9/9/9/4r4/9/9/4R4/3K5 b - - 0 1");
    u.send("go nodes 20000");
    assert_eq!(u.bestmove(LONG).1, Some(mv("e4e1")));

    // A level below the top still answers with a legal move.
    u.send("setoption name Skill Level value 2");
    u.send("position startpos");
    u.send("go movetime 200");
    let best = u.bestmove(LONG).1.expect("a move");
    assert!(Position::startpos().is_legal(best));
}

#[test]
fn stop_ends_go_infinite_and_isready_is_answered_while_searching() {
    let mut u = Uci::start();
    u.send("uci");
    u.read_until("uciok", LONG);
    u.send("position startpos");
    u.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    u.send("isready");
    let r = u.read_until("readyok", Duration::from_secs(5));
    assert!(!r.iter().any(|l| l.starts_with("bestmove")), "{r:?}");
    std::thread::sleep(Duration::from_millis(200));
    u.send("stop");
    let (_, best) = u.bestmove(Duration::from_secs(5));
    assert!(Position::startpos().is_legal(best.expect("a move")));
}

#[test]
fn positions_the_arbiter_would_end_are_still_played_and_bad_input_is_answered() {
    let mut u = Uci::start();
    u.send("uci");
    u.read_until("uciok", LONG);
    // Red's fourth perpetual check would end the game under asian rules; a GUI plays on.
    u.send("setoption name Ruleset value asian");
    u.send(
        "position fen c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w - - 0 1 moves \
         h8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 f8f9",
    );
    u.send("go depth 3");
    let (_, best) = u.bestmove(LONG);
    let mut pos = Position::from_fen("c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w").expect("fen");
    for m in [
        "h8h9", "f9f8", "h9h8", "f8f9", "h8h9", "f9f8", "h9h8", "f8f9",
    ] {
        pos.play(mv(m)).expect("legal");
    }
    assert!(pos.is_legal(best.expect("a move")));
    // An illegal move is reported and the position kept up to it.
    u.send("position startpos moves h2e2 a0a5");
    u.send("isready");
    let r = u.read_until("readyok", LONG);
    assert!(r.iter().any(|l| l.contains("illegal")), "{r:?}");
    u.send("go depth 2");
    let best = u.bestmove(LONG).1.expect("a move");
    assert!(Position::startpos().after(mv("h2e2")).is_legal(best));
    u.send("position fen not/a/fen w");
    u.send("frobnicate");
    u.send("go depth x");
    u.send("isready");
    let r = u.read_until("readyok", LONG);
    assert!(
        r.iter().filter(|l| l.starts_with("info string")).count() >= 3,
        "{r:?}"
    );
}

#[test]
fn our_client_drives_our_server_in_either_dialect() {
    let spec = engines::healthy(&format!("{BIN} uci"));
    let mut e = ExternalEngine::spawn(&spec).expect("spawn ourselves");
    assert!(e.name().starts_with("xiangqi-bot"));
    assert_eq!(e.dialect(), Dialect::Iccs);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let start = Position::startpos();
    let moves = [mv("h2e2"), mv("b9c7")];
    let r = e
        .search(&start, &moves, &limits, &stop, &mut |_| {})
        .expect("search");
    let game = replay(&start, &moves, &Ruleset::default()).expect("replay");
    assert!(check_move(&game, r.best.expect("a move")).is_ok());
    assert_eq!(r.depth, 3);

    // Forced to the Fairy-Stockfish dialect, both sides agree on ranks 1-10.
    let mut spec = engines::healthy(&format!("{BIN} uci"));
    spec.dialect = Some(Dialect::Fairy);
    spec.options = vec![("Dialect".into(), "fairy".into())];
    let mut e = ExternalEngine::spawn(&spec).expect("spawn ourselves");
    let r = e
        .search(&start, &moves, &limits, &stop, &mut |_| {})
        .expect("search");
    assert!(check_move(&game, r.best.expect("a move")).is_ok());
}
