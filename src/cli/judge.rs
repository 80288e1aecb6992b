//! `xiangqi-bot judge`: replay ICCS moves under a ruleset and print the arbiter's ruling.

use clap::Args;
use serde_json::{json, Value};

use crate::arbiter::{Arbiter, PlyClass, Ruleset, RulesetName, SubmitError};
use crate::core::{Move, Position};
use crate::i18n::arbiter::{explain_refusal, explain_ruling, piece_name};
use crate::i18n::notation::{fen_error, illegal_move};
use crate::i18n::Lang;
use crate::notation::Notation;

use super::emit;

/// Arguments of `judge`.
#[derive(Args, Debug)]
pub struct JudgeArgs {
    /// Start from this FEN (default: the initial position).
    #[arg(long)]
    pub fen: Option<String>,
    /// official (default), asian, vietnam, cxq or casual.
    #[arg(long, default_value = "official")]
    pub ruleset: RulesetName,
    /// Language of the explanation: vi, en or zh.
    #[arg(long, default_value = "en")]
    pub lang: Lang,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also show each ply's class (check, chase with victims, idle).
    #[arg(long)]
    pub classify: bool,
    /// The moves, in ICCS (`h2e2` or `h2-e2`).
    #[arg(num_args = 0..)]
    pub moves: Vec<String>,
}

fn class_json(class: &PlyClass, after: &Position) -> Value {
    let squares = |ids: &[crate::core::PieceId]| {
        ids.iter()
            .filter_map(|&id| after.square_of(id))
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
    };
    let victims: Vec<Value> = class
        .victims()
        .iter()
        .map(|v| {
            json!({
                "piece": after.piece_of(v.id).map(|p| piece_name(p, Lang::En)),
                "square": v.at.to_string(),
                "protected": v.protected,
                "attackers": squares(&v.attackers),
            })
        })
        .collect();
    let mut out = json!({ "class": class.name(), "victims": victims });
    if let PlyClass::Check { checkers, .. } = class {
        out["checkers"] = json!(squares(checkers));
    }
    out
}

fn class_line(class: &PlyClass, after: &Position, lang: Lang) -> String {
    crate::i18n::arbiter::class_text(class, after, lang)
}

fn fail(args: &JudgeArgs, ply: Option<usize>, message: &str) -> i32 {
    if args.json {
        emit(&json!({ "error": message, "ply": ply }).to_string());
    }
    eprintln!("error: {message}");
    1
}

/// The notation players of each language usually read.
fn notation_for(lang: Lang) -> Notation {
    match lang {
        Lang::Vi => Notation::Vietnamese,
        Lang::En => Notation::Wxf,
        Lang::Zh => Notation::Chinese,
    }
}

/// Run `judge`; returns the exit code.
#[must_use]
pub fn run(args: JudgeArgs) -> i32 {
    let lang = args.lang;
    let start = match args.fen.as_deref() {
        None => Position::startpos(),
        Some(f) => match Position::from_fen(f) {
            Ok(p) => p,
            Err(e) => return fail(&args, None, &fen_error(&e, lang)),
        },
    };
    let mut arbiter = Arbiter::new(start, Ruleset::preset(args.ruleset));
    let mut plies = Vec::new();
    let mut lines = Vec::new();
    for (i, text) in args.moves.iter().enumerate() {
        if arbiter.ruling().is_some() {
            break;
        }
        let ply = i + 1;
        let bounded: String = text.chars().take(16).collect();
        let Some(m) = Move::parse_iccs(text) else {
            let msg = match lang {
                Lang::En => format!("ply {ply}: {bounded:?} is not an ICCS move (like h2e2)"),
                Lang::Vi => format!("nước {ply}: {bounded:?} không phải nước đi ICCS (ví dụ h2e2)"),
                Lang::Zh => format!("第{ply}步：{bounded:?}不是ICCS着法（例如 h2e2）"),
            };
            return fail(&args, Some(ply), &msg);
        };
        match arbiter.submit(m) {
            Ok(acc) => {
                let after = arbiter.position();
                if args.classify {
                    let mut v = class_json(&acc.record.class, after);
                    v["ply"] = json!(ply);
                    v["move"] = json!(m.to_string());
                    v["side"] = json!(acc.record.facts.side.name());
                    plies.push(v);
                    lines.push(format!(
                        "{ply}. {m}: {}",
                        class_line(&acc.record.class, after, lang)
                    ));
                }
            }
            Err(SubmitError::Illegal(e)) => {
                let msg = match lang {
                    Lang::En => format!("ply {ply} is illegal: {}", illegal_move(&e, lang)),
                    Lang::Vi => format!("nước {ply} không hợp lệ: {}", illegal_move(&e, lang)),
                    Lang::Zh => format!("第{ply}步不合法：{}", illegal_move(&e, lang)),
                };
                return fail(&args, Some(ply), &msg);
            }
            Err(SubmitError::Refused(r)) => {
                let msg = format!(
                    "ply {ply}: {}",
                    explain_refusal(&r, lang, notation_for(lang))
                );
                return fail(&args, Some(ply), &msg);
            }
            Err(SubmitError::GameOver) => break,
        }
    }
    let ruling = arbiter.ruling();
    let explanation = match ruling {
        Some(r) => explain_ruling(r, lang, notation_for(lang)),
        None => {
            let n = arbiter.plies().len();
            let claim = arbiter.draw_claimable();
            match (lang, claim) {
                (Lang::En, false) => format!("The game goes on after {n} plies."),
                (Lang::En, true) => format!("The game goes on after {n} plies; the side to move may claim a draw (no progress)."),
                (Lang::Vi, false) => format!("Ván cờ tiếp tục sau {n} nước."),
                (Lang::Vi, true) => format!("Ván cờ tiếp tục sau {n} nước; bên đến lượt có thể đề nghị xử hòa (không tiến triển)."),
                (Lang::Zh, false) => format!("{n}步后对局继续。"),
                (Lang::Zh, true) => format!("{n}步后对局继续；该走的一方可申请判和（自然限着）。"),
            }
        }
    };
    if args.json {
        let mut v = json!({
            "result": ruling.map_or("ongoing", |r| r.outcome.as_str()),
            "reason": ruling.map(|r| r.reason.as_str()),
            "ruleset": args.ruleset.as_str(),
            "ply": ruling.map(|r| r.ply),
            "explanation": explanation,
        });
        if args.classify {
            v["plies"] = Value::Array(plies);
        }
        emit(&v.to_string());
    } else {
        for l in &lines {
            emit(l);
        }
        emit(&explanation);
    }
    0
}
