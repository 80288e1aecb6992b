//! Engine → GUI: `id`, `option`, `uciok`, `readyok`, `info`, `bestmove`.

use std::fmt::Write as _;

use crate::core::Move;
use crate::engine::Score;

use super::{number, shorten, words, Dialect, UciError};

/// The kind of an option and its default, as `option name ... type ...` declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `type check default true|false`.
    Check {
        /// Default.
        default: bool,
    },
    /// `type spin default D min A max B`.
    Spin {
        /// Default.
        default: i64,
        /// Lowest value.
        min: i64,
        /// Highest value.
        max: i64,
    },
    /// `type combo default D var A var B ...`.
    Combo {
        /// Default.
        default: String,
        /// The values allowed.
        vars: Vec<String>,
    },
    /// `type button`.
    Button,
    /// `type string default D` (`<empty>` for an empty default).
    String {
        /// Default.
        default: String,
    },
}

/// An option the engine offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciOption {
    /// Its name (may hold spaces: `Skill Level`).
    pub name: String,
    /// Its kind and default.
    pub kind: OptionKind,
}

/// Whether a reported score is exact or a bound (a fail-high or fail-low of an aspiration window).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// `lowerbound`: the score is at least this.
    Lower,
    /// `upperbound`: the score is at most this.
    Upper,
}

/// The `score` of an `info` line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct InfoScore {
    /// Centipawns or mate in moves, from the side to move's view.
    pub score: Score,
    /// Exact (`None`) or a bound.
    pub bound: Option<Bound>,
}

/// An `info` line. Fields not given are `None` (or empty).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InfoLine {
    /// `depth`.
    pub depth: Option<u32>,
    /// `seldepth`.
    pub seldepth: Option<u32>,
    /// `multipv` (1-based).
    pub multipv: Option<u32>,
    /// `score`.
    pub score: Option<InfoScore>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `nps`.
    pub nps: Option<u64>,
    /// `hashfull` (per mille).
    pub hashfull: Option<u32>,
    /// `tbhits`.
    pub tbhits: Option<u64>,
    /// `time` in milliseconds.
    pub time: Option<u64>,
    /// `currmove`.
    pub currmove: Option<Move>,
    /// `currmovenumber`.
    pub currmovenumber: Option<u32>,
    /// `pv`: the principal variation, first move first.
    pub pv: Vec<Move>,
    /// `string ...`: free text to the end of the line.
    pub string: Option<String>,
}

/// A line from an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineLine {
    /// `id name ...`.
    IdName(String),
    /// `id author ...`.
    IdAuthor(String),
    /// `option name ... type ...`.
    Option(UciOption),
    /// `uciok`.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// `info ...`.
    Info(InfoLine),
    /// `bestmove M [ponder P]`, or `bestmove (none)` (also `0000`) when there is no legal move.
    BestMove {
        /// The move, or `None` for `(none)`.
        best: Option<Move>,
        /// The expected reply.
        ponder: Option<Move>,
    },
}

const INFO: &str = "info";
const OPTION: &str = "option";
const BESTMOVE: &str = "bestmove";

/// Read one line written by an engine, its moves in `dialect`.
///
/// Unknown `info` fields are skipped (engines add their own, such as `tbhits` or `wdl`); a
/// `pv` ends at the first token that is not a move.
///
/// # Errors
/// [`UciError`]: an empty, overlong or unknown line, or a bad argument (named).
pub fn parse_engine_line(line: &str, dialect: Dialect) -> Result<EngineLine, UciError> {
    let w = words(line)?;
    let args = &w[1..];
    Ok(match w[0] {
        "uciok" => EngineLine::UciOk,
        "readyok" => EngineLine::ReadyOk,
        "id" => match args.first() {
            Some(&"name") => EngineLine::IdName(args[1..].join(" ")),
            Some(&"author") => EngineLine::IdAuthor(args[1..].join(" ")),
            _ => {
                return Err(UciError::Bad {
                    command: "id",
                    detail: "expected name or author".into(),
                })
            }
        },
        OPTION => EngineLine::Option(parse_option(args)?),
        INFO => EngineLine::Info(parse_info(args, dialect)?),
        BESTMOVE => parse_bestmove(args, dialect)?,
        other => return Err(UciError::Unknown(other.to_string())),
    })
}

fn parse_bestmove(args: &[&str], dialect: Dialect) -> Result<EngineLine, UciError> {
    let token = args.first().ok_or_else(|| UciError::Bad {
        command: BESTMOVE,
        detail: "no move".into(),
    })?;
    let best = match *token {
        "(none)" | "0000" | "none" => None,
        t => Some(dialect.parse_move(t).ok_or_else(|| UciError::Bad {
            command: BESTMOVE,
            detail: format!("{:?} is not a {} move", shorten(t), dialect.as_str()),
        })?),
    };
    let ponder = match args.get(1..3) {
        Some(["ponder", p]) => dialect.parse_move(p),
        _ => None,
    };
    Ok(EngineLine::BestMove { best, ponder })
}

fn parse_option(args: &[&str]) -> Result<UciOption, UciError> {
    let bad = |detail: String| UciError::Bad {
        command: OPTION,
        detail,
    };
    if args.first() != Some(&"name") {
        return Err(bad("expected `name`".into()));
    }
    let type_at = args
        .iter()
        .position(|&t| t == "type")
        .ok_or_else(|| bad("no `type`".into()))?;
    let name = args[1..type_at].join(" ");
    let rest = &args[type_at + 1..];
    let kind_word = *rest
        .first()
        .ok_or_else(|| bad("no type after `type`".into()))?;
    // The values after `default`, `min`, `max`, `var`: each runs to the next keyword.
    let keyword = |t: &str| matches!(t, "default" | "min" | "max" | "var");
    let mut default = None;
    let mut min = None;
    let mut max = None;
    let mut vars = Vec::new();
    let mut i = 1;
    while i < rest.len() {
        let key = rest[i];
        let n = rest[i + 1..].iter().take_while(|t| !keyword(t)).count();
        let value = rest[i + 1..i + 1 + n].join(" ");
        match key {
            "default" => default = Some(value),
            "min" => min = Some(value),
            "max" => max = Some(value),
            "var" => vars.push(value),
            other => return Err(bad(format!("unexpected {:?}", shorten(other)))),
        }
        i += 1 + n;
    }
    let int = |what: &str, v: Option<String>| -> Result<i64, UciError> {
        v.as_deref()
            .unwrap_or("")
            .parse()
            .map_err(|_| bad(format!("{what} of a spin option needs a number")))
    };
    let kind = match kind_word {
        "check" => OptionKind::Check {
            default: default.as_deref() == Some("true"),
        },
        "spin" => OptionKind::Spin {
            default: int("default", default)?,
            min: int("min", min)?,
            max: int("max", max)?,
        },
        "combo" => OptionKind::Combo {
            default: default.unwrap_or_default(),
            vars,
        },
        "button" => OptionKind::Button,
        "string" => OptionKind::String {
            default: match default.as_deref() {
                None | Some("<empty>") => String::new(),
                Some(d) => d.to_string(),
            },
        },
        other => return Err(bad(format!("unknown type {:?}", shorten(other)))),
    };
    Ok(UciOption { name, kind })
}

fn parse_info(args: &[&str], dialect: Dialect) -> Result<InfoLine, UciError> {
    let mut info = InfoLine::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        let val = args.get(i + 1);
        let mut took = 2;
        match key {
            "depth" => info.depth = Some(number(INFO, key, val)?),
            "seldepth" => info.seldepth = Some(number(INFO, key, val)?),
            "multipv" => info.multipv = Some(number(INFO, key, val)?),
            "nodes" => info.nodes = Some(number(INFO, key, val)?),
            "nps" => info.nps = Some(number(INFO, key, val)?),
            "hashfull" => info.hashfull = Some(number(INFO, key, val)?),
            "tbhits" => info.tbhits = Some(number(INFO, key, val)?),
            "time" => info.time = Some(number(INFO, key, val)?),
            "currmovenumber" => info.currmovenumber = Some(number(INFO, key, val)?),
            "currmove" => info.currmove = val.and_then(|t| dialect.parse_move(t)),
            "score" => {
                let (score, used) = parse_score(&args[i + 1..])?;
                info.score = Some(score);
                took = 1 + used;
            }
            "pv" => {
                let n = args[i + 1..]
                    .iter()
                    .map_while(|t| dialect.parse_move(t))
                    .count();
                info.pv = args[i + 1..i + 1 + n]
                    .iter()
                    .filter_map(|t| dialect.parse_move(t))
                    .collect();
                took = 1 + n;
            }
            "string" => {
                info.string = Some(args[i + 1..].join(" "));
                took = args.len() - i;
            }
            _ => took = 1, // an engine's own field: skip the word
        }
        i += took;
    }
    Ok(info)
}

/// `cp N [lowerbound|upperbound]` or `mate N ...`; returns the score and the words used.
fn parse_score(args: &[&str]) -> Result<(InfoScore, usize), UciError> {
    let score = match args.first() {
        Some(&"cp") => Score::Cp(number(INFO, "score cp", args.get(1))?),
        Some(&"mate") => Score::Mate(number(INFO, "score mate", args.get(1))?),
        _ => {
            return Err(UciError::Bad {
                command: INFO,
                detail: "score needs cp or mate".into(),
            })
        }
    };
    let bound = match args.get(2) {
        Some(&"lowerbound") => Some(Bound::Lower),
        Some(&"upperbound") => Some(Bound::Upper),
        _ => None,
    };
    Ok((InfoScore { score, bound }, 2 + usize::from(bound.is_some())))
}

impl EngineLine {
    /// The line as the engine writes it, moves in `dialect`. [`parse_engine_line`] reads it back
    /// to the same value.
    #[must_use]
    pub fn to_line(&self, dialect: Dialect) -> String {
        match self {
            EngineLine::IdName(n) => format!("id name {n}"),
            EngineLine::IdAuthor(a) => format!("id author {a}"),
            EngineLine::Option(o) => o.to_line(),
            EngineLine::UciOk => "uciok".into(),
            EngineLine::ReadyOk => "readyok".into(),
            EngineLine::Info(info) => info.to_line(dialect),
            EngineLine::BestMove { best, ponder } => match (best, ponder) {
                (None, _) => "bestmove (none)".into(),
                (Some(b), None) => format!("bestmove {}", dialect.format_move(*b)),
                (Some(b), Some(p)) => format!(
                    "bestmove {} ponder {}",
                    dialect.format_move(*b),
                    dialect.format_move(*p)
                ),
            },
        }
    }
}

impl UciOption {
    /// The `option name ... type ...` line.
    #[must_use]
    pub fn to_line(&self) -> String {
        let mut s = format!("option name {} type ", self.name);
        match &self.kind {
            OptionKind::Check { default } => {
                let _ = write!(s, "check default {default}");
            }
            OptionKind::Spin { default, min, max } => {
                let _ = write!(s, "spin default {default} min {min} max {max}");
            }
            OptionKind::Combo { default, vars } => {
                let _ = write!(s, "combo default {default}");
                for v in vars {
                    let _ = write!(s, " var {v}");
                }
            }
            OptionKind::Button => s.push_str("button"),
            OptionKind::String { default } => {
                let d = if default.is_empty() {
                    "<empty>"
                } else {
                    default
                };
                let _ = write!(s, "string default {d}");
            }
        }
        s
    }
}

impl InfoLine {
    /// The `info ...` line (fields in the order Stockfish writes them).
    #[must_use]
    pub fn to_line(&self, dialect: Dialect) -> String {
        let mut s = String::from("info");
        let mut field = |k: &str, v: Option<u64>| {
            if let Some(v) = v {
                let _ = write!(s, " {k} {v}");
            }
        };
        field("depth", self.depth.map(u64::from));
        field("seldepth", self.seldepth.map(u64::from));
        field("multipv", self.multipv.map(u64::from));
        if let Some(sc) = &self.score {
            let _ = match sc.score {
                Score::Cp(v) => write!(s, " score cp {v}"),
                Score::Mate(n) => write!(s, " score mate {n}"),
            };
            match sc.bound {
                Some(Bound::Lower) => s.push_str(" lowerbound"),
                Some(Bound::Upper) => s.push_str(" upperbound"),
                None => {}
            }
        }
        let mut field = |k: &str, v: Option<u64>| {
            if let Some(v) = v {
                let _ = write!(s, " {k} {v}");
            }
        };
        field("nodes", self.nodes);
        field("nps", self.nps);
        field("hashfull", self.hashfull.map(u64::from));
        field("tbhits", self.tbhits);
        field("time", self.time);
        if let Some(m) = self.currmove {
            let _ = write!(s, " currmove {}", dialect.format_move(m));
        }
        if let Some(n) = self.currmovenumber {
            let _ = write!(s, " currmovenumber {n}");
        }
        if !self.pv.is_empty() {
            s.push_str(" pv");
            for &m in &self.pv {
                let _ = write!(s, " {}", dialect.format_move(m));
            }
        }
        if let Some(text) = &self.string {
            let _ = write!(s, " string {text}");
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_fairy_stockfish_as_it_writes() {
        let line = "info depth 8 seldepth 9 multipv 1 score cp 54 nodes 15057 nps 255203 \
                    tbhits 0 time 59 pv c1e3 b10c8 h3h5 h10g8";
        let EngineLine::Info(info) = parse_engine_line(line, Dialect::Fairy).unwrap() else {
            panic!("not info")
        };
        assert_eq!(info.depth, Some(8));
        assert_eq!(info.seldepth, Some(9));
        assert_eq!(info.score.map(|s| s.score), Some(Score::Cp(54)));
        assert_eq!(info.nodes, Some(15057));
        assert_eq!(info.time, Some(59));
        let pv: Vec<String> = info.pv.iter().map(ToString::to_string).collect();
        assert_eq!(pv, ["c0e2", "b9c7", "h2h4", "h9g7"]);
        assert_eq!(
            parse_engine_line("bestmove c1e3 ponder b10c8", Dialect::Fairy),
            Ok(EngineLine::BestMove {
                best: Move::parse_iccs("c0e2"),
                ponder: Move::parse_iccs("b9c7")
            })
        );
        assert_eq!(
            parse_engine_line("bestmove (none)", Dialect::Fairy),
            Ok(EngineLine::BestMove {
                best: None,
                ponder: None
            })
        );
        let opt = "option name UCI_Variant type combo default chess var 3check var xiangqi";
        let EngineLine::Option(o) = parse_engine_line(opt, Dialect::Fairy).unwrap() else {
            panic!("not an option")
        };
        assert_eq!(o.name, "UCI_Variant");
        assert!(
            matches!(&o.kind, OptionKind::Combo { vars, .. } if vars.contains(&"xiangqi".to_string()))
        );
        let opt = "option name Skill Level type spin default 20 min -20 max 20";
        assert_eq!(
            parse_engine_line(opt, Dialect::Fairy),
            Ok(EngineLine::Option(UciOption {
                name: "Skill Level".into(),
                kind: OptionKind::Spin {
                    default: 20,
                    min: -20,
                    max: 20
                }
            }))
        );
        let opt = "option name Debug Log File type string default ";
        assert!(matches!(
            parse_engine_line(opt, Dialect::Fairy),
            Ok(EngineLine::Option(UciOption { kind: OptionKind::String { default }, .. })) if default.is_empty()
        ));
    }

    #[test]
    fn bounds_mates_and_strings() {
        let l = "info depth 3 score mate -2 upperbound nodes 10 string hello world pv a0a1";
        let EngineLine::Info(info) = parse_engine_line(l, Dialect::Iccs).unwrap() else {
            panic!()
        };
        assert_eq!(
            info.score,
            Some(InfoScore {
                score: Score::Mate(-2),
                bound: Some(Bound::Upper)
            })
        );
        assert_eq!(info.string.as_deref(), Some("hello world pv a0a1"));
        assert!(info.pv.is_empty());
        assert!(parse_engine_line("info score xx", Dialect::Iccs).is_err());
        assert!(parse_engine_line("bestmove zz", Dialect::Iccs).is_err());
        assert!(parse_engine_line("bestmove", Dialect::Iccs).is_err());
        assert!(parse_engine_line("Fairy-Stockfish 11.1", Dialect::Iccs).is_err());
    }
}
