//! GUI → engine: `uci`, `isready`, `setoption`, `ucinewgame`, `position`, `go`, `stop`, `quit`.

use std::fmt::Write as _;

use crate::core::{Move, START_FEN};

use super::{number, shorten, words, Dialect, UciError};

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPos {
    /// `startpos`: the initial position.
    Startpos,
    /// `fen ...`: the FEN's fields joined by single spaces (not yet checked).
    Fen(String),
}

impl StartPos {
    /// The FEN text of this start.
    #[must_use]
    pub fn fen(&self) -> &str {
        match self {
            StartPos::Startpos => START_FEN,
            StartPos::Fen(f) => f,
        }
    }
}

/// The arguments of `go`. Times are in milliseconds; `None` means not given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `searchmoves`: only these root moves.
    pub searchmoves: Vec<Move>,
    /// `ponder`.
    pub ponder: bool,
    /// `wtime`: Red's clock (UCI's "white").
    pub wtime: Option<u64>,
    /// `btime`: Black's clock.
    pub btime: Option<u64>,
    /// `winc`.
    pub winc: Option<u64>,
    /// `binc`.
    pub binc: Option<u64>,
    /// `movestogo`.
    pub movestogo: Option<u32>,
    /// `depth` in plies.
    pub depth: Option<u32>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `mate` in moves.
    pub mate: Option<u32>,
    /// `movetime`.
    pub movetime: Option<u64>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
}

/// A command from the GUI (or from a match runner) to the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GuiCommand {
    /// `uci`: identify yourself and list the options.
    Uci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`: answer `readyok` when done with what came before.
    IsReady,
    /// `setoption name NAME [value VALUE]` (names and values may hold spaces).
    SetOption {
        /// The option's name, as given.
        name: String,
        /// Its value, if any.
        value: Option<String>,
    },
    /// `ucinewgame`.
    UciNewGame,
    /// `position startpos|fen FEN [moves M...]`.
    Position {
        /// The start.
        start: StartPos,
        /// The moves played from it.
        moves: Vec<Move>,
    },
    /// `go ...`.
    Go(Go),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
}

const POSITION: &str = "position";
const GO: &str = "go";
const SETOPTION: &str = "setoption";

/// Read one line from a GUI. Moves are read in `dialect`.
///
/// # Errors
/// [`UciError`]: an empty, overlong or unknown line, or a bad argument (named).
pub fn parse_command(line: &str, dialect: Dialect) -> Result<GuiCommand, UciError> {
    let w = words(line)?;
    let args = &w[1..];
    Ok(match w[0] {
        "uci" => GuiCommand::Uci,
        "isready" => GuiCommand::IsReady,
        "ucinewgame" => GuiCommand::UciNewGame,
        "stop" => GuiCommand::Stop,
        "ponderhit" => GuiCommand::PonderHit,
        "quit" => GuiCommand::Quit,
        "debug" => GuiCommand::Debug(args.first() != Some(&"off")),
        SETOPTION => parse_setoption(args)?,
        POSITION => parse_position(args, dialect)?,
        GO => GuiCommand::Go(parse_go(args, dialect)?),
        other => return Err(UciError::Unknown(other.to_string())),
    })
}

fn parse_setoption(args: &[&str]) -> Result<GuiCommand, UciError> {
    if args.first() != Some(&"name") {
        return Err(UciError::Bad {
            command: SETOPTION,
            detail: "expected `name` after setoption".into(),
        });
    }
    let at = args.iter().position(|&t| t == "value");
    let name_end = at.unwrap_or(args.len());
    let name = args[1..name_end].join(" ");
    if name.is_empty() {
        return Err(UciError::Bad {
            command: SETOPTION,
            detail: "the option has no name".into(),
        });
    }
    let value = at.map(|i| args[i + 1..].join(" "));
    Ok(GuiCommand::SetOption { name, value })
}

fn parse_position(args: &[&str], dialect: Dialect) -> Result<GuiCommand, UciError> {
    let moves_at = args.iter().position(|&t| t == "moves");
    let head = &args[..moves_at.unwrap_or(args.len())];
    let start = match head.first() {
        Some(&"startpos") if head.len() == 1 => StartPos::Startpos,
        Some(&"fen") if head.len() > 1 => StartPos::Fen(head[1..].join(" ")),
        Some(&"fen") => {
            return Err(UciError::Bad {
                command: POSITION,
                detail: "fen needs a board".into(),
            })
        }
        other => {
            return Err(UciError::Bad {
                command: POSITION,
                detail: format!(
                    "expected startpos or fen, not {:?}",
                    shorten(other.copied().unwrap_or(""))
                ),
            })
        }
    };
    let moves = match moves_at {
        None => Vec::new(),
        Some(i) => move_list(POSITION, &args[i + 1..], dialect)?,
    };
    Ok(GuiCommand::Position { start, moves })
}

fn move_list(
    command: &'static str,
    tokens: &[&str],
    dialect: Dialect,
) -> Result<Vec<Move>, UciError> {
    tokens
        .iter()
        .enumerate()
        .map(|(i, t)| {
            dialect.parse_move(t).ok_or_else(|| UciError::Bad {
                command,
                detail: format!(
                    "move {} {:?} is not a {} move",
                    i + 1,
                    shorten(t),
                    dialect.as_str()
                ),
            })
        })
        .collect()
}

fn parse_go(args: &[&str], dialect: Dialect) -> Result<Go, UciError> {
    let mut go = Go::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        let val = args.get(i + 1);
        let mut took = 2;
        match key {
            "wtime" => go.wtime = Some(clock_ms(key, val)?),
            "btime" => go.btime = Some(clock_ms(key, val)?),
            "winc" => go.winc = Some(clock_ms(key, val)?),
            "binc" => go.binc = Some(clock_ms(key, val)?),
            "movestogo" => go.movestogo = Some(number(GO, key, val)?),
            "depth" => go.depth = Some(number(GO, key, val)?),
            "nodes" => go.nodes = Some(number(GO, key, val)?),
            "mate" => go.mate = Some(number(GO, key, val)?),
            "movetime" => go.movetime = Some(clock_ms(key, val)?),
            "infinite" => {
                go.infinite = true;
                took = 1;
            }
            "ponder" => {
                go.ponder = true;
                took = 1;
            }
            "searchmoves" => {
                let n = args[i + 1..]
                    .iter()
                    .take_while(|t| dialect.parse_move(t).is_some())
                    .count();
                go.searchmoves = move_list(GO, &args[i + 1..i + 1 + n], dialect)?;
                took = 1 + n;
            }
            other => {
                return Err(UciError::Bad {
                    command: GO,
                    detail: format!("unknown argument {:?}", shorten(other)),
                })
            }
        }
        i += took;
    }
    Ok(go)
}

/// A time in milliseconds; GUIs may send a negative clock when a player is late: read it as 0.
fn clock_ms(what: &str, token: Option<&&str>) -> Result<u64, UciError> {
    let v: i64 = number(GO, what, token)?;
    Ok(u64::try_from(v).unwrap_or(0))
}

impl GuiCommand {
    /// The line that sends this command, moves written in `dialect`. [`parse_command`] reads it
    /// back to the same command.
    #[must_use]
    pub fn to_line(&self, dialect: Dialect) -> String {
        match self {
            GuiCommand::Uci => "uci".into(),
            GuiCommand::Debug(on) => format!("debug {}", if *on { "on" } else { "off" }),
            GuiCommand::IsReady => "isready".into(),
            GuiCommand::SetOption { name, value } => match value {
                Some(v) => format!("setoption name {name} value {v}"),
                None => format!("setoption name {name}"),
            },
            GuiCommand::UciNewGame => "ucinewgame".into(),
            GuiCommand::Position { start, moves } => {
                let mut s = match start {
                    StartPos::Startpos => "position startpos".to_string(),
                    StartPos::Fen(f) => format!("position fen {f}"),
                };
                if !moves.is_empty() {
                    s.push_str(" moves");
                    for &m in moves {
                        s.push(' ');
                        s.push_str(&dialect.format_move(m));
                    }
                }
                s
            }
            GuiCommand::Go(go) => go.to_line(dialect),
            GuiCommand::Stop => "stop".into(),
            GuiCommand::PonderHit => "ponderhit".into(),
            GuiCommand::Quit => "quit".into(),
        }
    }
}

impl Go {
    /// The `go ...` line.
    #[must_use]
    pub fn to_line(&self, dialect: Dialect) -> String {
        let mut s = String::from("go");
        if !self.searchmoves.is_empty() {
            s.push_str(" searchmoves");
            for &m in &self.searchmoves {
                let _ = write!(s, " {}", dialect.format_move(m));
            }
        }
        if self.ponder {
            s.push_str(" ponder");
        }
        let fields: [(&str, Option<u64>); 9] = [
            ("wtime", self.wtime),
            ("btime", self.btime),
            ("winc", self.winc),
            ("binc", self.binc),
            ("movestogo", self.movestogo.map(u64::from)),
            ("depth", self.depth.map(u64::from)),
            ("nodes", self.nodes),
            ("mate", self.mate.map(u64::from)),
            ("movetime", self.movetime),
        ];
        for (k, v) in fields {
            if let Some(v) = v {
                let _ = write!(s, " {k} {v}");
            }
        }
        if self.infinite {
            s.push_str(" infinite");
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        Move::parse_iccs(s).unwrap()
    }

    #[test]
    fn reads_the_commands_guis_send() {
        let p = |l| parse_command(l, Dialect::Iccs);
        assert_eq!(p("uci"), Ok(GuiCommand::Uci));
        assert_eq!(p("  isready  "), Ok(GuiCommand::IsReady));
        assert_eq!(
            p("setoption name Skill Level value 3"),
            Ok(GuiCommand::SetOption {
                name: "Skill Level".into(),
                value: Some("3".into())
            })
        );
        assert_eq!(
            p("setoption name Clear Hash"),
            Ok(GuiCommand::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(
            p("position startpos moves h2e2 h9g7"),
            Ok(GuiCommand::Position {
                start: StartPos::Startpos,
                moves: vec![mv("h2e2"), mv("h9g7")]
            })
        );
        assert_eq!(
            p("position fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"),
            Ok(GuiCommand::Position {
                start: StartPos::Fen("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1".into()),
                moves: vec![]
            })
        );
        let go = p("go wtime 60000 btime -5 winc 1000 binc 1000 movestogo 20").unwrap();
        assert_eq!(
            go,
            GuiCommand::Go(Go {
                wtime: Some(60_000),
                btime: Some(0),
                winc: Some(1000),
                binc: Some(1000),
                movestogo: Some(20),
                ..Go::default()
            })
        );
        let go = p("go searchmoves h2e2 b2e2 depth 5").unwrap();
        assert_eq!(
            go,
            GuiCommand::Go(Go {
                searchmoves: vec![mv("h2e2"), mv("b2e2")],
                depth: Some(5),
                ..Go::default()
            })
        );
        assert_eq!(
            parse_command("position startpos moves h3e3 b10c8", Dialect::Fairy),
            Ok(GuiCommand::Position {
                start: StartPos::Startpos,
                moves: vec![mv("h2e2"), mv("b9c7")]
            })
        );
    }

    #[test]
    fn errors_name_the_token() {
        let p = |l| parse_command(l, Dialect::Iccs);
        assert_eq!(p(""), Err(UciError::Empty));
        assert!(matches!(p("hello"), Err(UciError::Unknown(w)) if w == "hello"));
        let e = p("go depth x").unwrap_err().to_string();
        assert!(
            e.contains("depth needs a number") && e.contains("\"x\""),
            "{e}"
        );
        let e = p("position startpos moves h2e2 zz")
            .unwrap_err()
            .to_string();
        assert!(e.contains("move 2") && e.contains("zz"), "{e}");
        assert!(p("position").is_err());
        assert!(p("position fen").is_err());
        assert!(p("setoption value 3").is_err());
        assert!(p("go movetime").is_err());
        assert!(p(&"x".repeat(super::super::MAX_LINE_LEN + 1)).is_err());
    }
}
