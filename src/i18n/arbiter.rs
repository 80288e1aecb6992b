//! Rulings, refusals, warnings and ply classes, rendered in Vietnamese, English and Chinese.
//!
//! The arbiter produces structured data (outcome, clause, source, evidence); this module turns
//! it into sentences, printing moves in the reader's notation and in ICCS.

use crate::arbiter::{
    Clause, Conduct, EvidencePly, Outcome, PlyClass, Reason, RulesetName, Ruling, Source,
    VerdictTable, Warning,
};
use crate::core::{Move, PieceId, Position};
use crate::notation::{format_move, Notation};

use super::Lang;
pub use super::{piece_name, side_name};

/// The ruleset's display name.
#[must_use]
pub fn ruleset_name(r: RulesetName, lang: Lang) -> String {
    let label = match (lang, r) {
        (Lang::En, RulesetName::Official) => "official rules",
        (Lang::En, RulesetName::Asian) => "Asian (AXF/WXF) rules",
        (Lang::En, RulesetName::Vietnam) => "Vietnamese 2004 rules",
        (Lang::En, RulesetName::Cxq) => "CXQ club rules",
        (Lang::En, RulesetName::Casual) => "casual app rules",
        (Lang::Vi, RulesetName::Official) => "luật chính thức",
        (Lang::Vi, RulesetName::Asian) => "luật châu Á (AXF/WXF)",
        (Lang::Vi, RulesetName::Vietnam) => "luật Việt Nam 2004",
        (Lang::Vi, RulesetName::Cxq) => "luật câu lạc bộ CXQ",
        (Lang::Vi, RulesetName::Casual) => "luật ứng dụng (thân thiện)",
        (Lang::Zh, RulesetName::Official) => "正式规则",
        (Lang::Zh, RulesetName::Asian) => "亚洲象棋规则（AXF/WXF）",
        (Lang::Zh, RulesetName::Vietnam) => "越南2004年规则",
        (Lang::Zh, RulesetName::Cxq) => "CXQ俱乐部规则",
        (Lang::Zh, RulesetName::Casual) => "休闲应用规则",
    };
    label.to_string()
}

/// The cited document's name.
#[must_use]
pub fn source_name(s: Source, lang: Lang) -> &'static str {
    match (lang, s) {
        (Lang::En, Source::Seed000Official) => {
            "“Official Xiangqi Rules” (a Xiangqi site's help page)"
        }
        (Lang::En, Source::Seed001App) => "“Luật cờ tướng” (an online Xiangqi app's rules page)",
        (Lang::En, Source::Seed002Cxq) => "“Luật Cờ Tướng CXQ” (the CXQ chess club's rules)",
        (Lang::En, Source::Seed004Vietnam) => "“Luật Cờ Tướng Việt Nam” (2004), Article 7",
        (Lang::En, Source::AxfRulebook) => "the AXF/WXF rulebook (“Asian Chinese Chess Rules”)",
        (Lang::Vi, Source::Seed000Official) => {
            "“Luật Thi Đấu Cờ Tướng” (trang hướng dẫn của một trang cờ tướng)"
        }
        (Lang::Vi, Source::Seed001App) => "“Luật cờ tướng” (trang luật của một ứng dụng cờ tướng)",
        (Lang::Vi, Source::Seed002Cxq) => "“Luật Cờ Tướng CXQ” (luật của câu lạc bộ cờ CXQ)",
        (Lang::Vi, Source::Seed004Vietnam) => "“Luật Cờ Tướng Việt Nam” (2004), Điều 7",
        (Lang::Vi, Source::AxfRulebook) => "luật cờ tướng châu Á của AXF/WXF",
        (Lang::Zh, Source::Seed000Official) => "《中国象棋竞赛规则》（某象棋网站的帮助页）",
        (Lang::Zh, Source::Seed001App) => "“Luật cờ tướng”（某在线象棋应用的规则页）",
        (Lang::Zh, Source::Seed002Cxq) => "“Luật Cờ Tướng CXQ”（CXQ象棋俱乐部规则）",
        (Lang::Zh, Source::Seed004Vietnam) => "《越南象棋规则》（2004年）第7条",
        (Lang::Zh, Source::AxfRulebook) => "亚洲象棋联合会/世界象棋联合会（AXF/WXF）棋例",
    }
}

/// The outcome as a headline.
#[must_use]
pub fn outcome_text(o: Outcome, lang: Lang) -> &'static str {
    match (lang, o) {
        (Lang::En, Outcome::RedWins) => "Red wins",
        (Lang::En, Outcome::BlackWins) => "Black wins",
        (Lang::En, Outcome::Draw) => "Draw",
        (Lang::Vi, Outcome::RedWins) => "Đỏ thắng",
        (Lang::Vi, Outcome::BlackWins) => "Đen thắng",
        (Lang::Vi, Outcome::Draw) => "Hòa",
        (Lang::Zh, Outcome::RedWins) => "红方胜",
        (Lang::Zh, Outcome::BlackWins) => "黑方胜",
        (Lang::Zh, Outcome::Draw) => "和棋",
    }
}

/// A reason's short name.
#[must_use]
pub fn reason_text(r: Reason, lang: Lang) -> &'static str {
    match lang {
        Lang::En => match r {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate (no legal move loses)",
            Reason::PerpetualCheck => "perpetual check",
            Reason::PerpetualChase => "perpetual chase",
            Reason::Repetition => "repetition",
            Reason::CheckLimit => "too many consecutive checks",
            Reason::ChaseLimit => "too many consecutive chases",
            Reason::NoProgress => "no progress",
            Reason::EffectiveMoves => "effective-move limit",
            Reason::MoveLimit => "game-length limit",
            Reason::InsufficientMaterial => "insufficient material",
        },
        Lang::Vi => match r {
            Reason::Checkmate => "chiếu bí",
            Reason::Stalemate => "hết nước đi (bên hết nước bị thua)",
            Reason::PerpetualCheck => "chiếu dai",
            Reason::PerpetualChase => "đuổi dai (trường tróc)",
            Reason::Repetition => "lặp lại thế cờ",
            Reason::CheckLimit => "chiếu liên tục quá giới hạn",
            Reason::ChaseLimit => "đuổi liên tục quá giới hạn",
            Reason::NoProgress => "không tiến triển",
            Reason::EffectiveMoves => "giới hạn nước có hiệu lực",
            Reason::MoveLimit => "giới hạn độ dài ván",
            Reason::InsufficientMaterial => "không đủ lực tấn công",
        },
        Lang::Zh => match r {
            Reason::Checkmate => "将死",
            Reason::Stalemate => "困毙（无子可走判负）",
            Reason::PerpetualCheck => "长将",
            Reason::PerpetualChase => "长捉",
            Reason::Repetition => "重复局面",
            Reason::CheckLimit => "连续将军超限",
            Reason::ChaseLimit => "连续捉子超限",
            Reason::NoProgress => "自然限着",
            Reason::EffectiveMoves => "有效着法限着",
            Reason::MoveLimit => "对局步数上限",
            Reason::InsufficientMaterial => "双方无进攻子力",
        },
    }
}

/// A move in the reader's notation with ICCS beside it: `C2.5 (h2e2)`, in Chinese with
/// full-width brackets: `炮二平五（h2e2）`.
#[must_use]
pub fn move_text(before: &Position, m: Move, notation: Notation, lang: Lang) -> String {
    super::with_iccs(&format_move(before, m, notation), &m.to_string(), lang)
}

fn victim_desc(after: &Position, id: PieceId, protected: bool, lang: Lang) -> String {
    let name = after
        .piece_of(id)
        .map_or_else(String::new, |p| piece_name(p, lang));
    let at = after
        .square_of(id)
        .map_or_else(String::new, |s| s.to_string());
    let prot = match (lang, protected) {
        (Lang::En, false) => "unprotected",
        (Lang::En, true) => "protected, but a chariot hit by a horse or cannon",
        (Lang::Vi, false) => "không có căn",
        (Lang::Vi, true) => "có căn, nhưng Xe bị Mã/Pháo dọa vẫn tính là bị đuổi",
        (Lang::Zh, false) => "无根",
        (Lang::Zh, true) => "有根，但马炮捉车一律算捉",
    };
    match lang {
        Lang::En => format!("{name} on {at} ({prot})"),
        Lang::Vi => format!("{name} ở {at} ({prot})"),
        Lang::Zh => format!("{at}的{name}（{prot}）"),
    }
}

/// A ply's class in words: "check", "chases black horse on c7 (unprotected)", "threatens mate
/// with h6h9", "idle" (moves in ICCS).
#[must_use]
pub fn class_text(class: &PlyClass, after: &Position, lang: Lang) -> String {
    class_words(class, after, lang, Notation::Iccs)
}

/// A threat to mate in words, the threatened mating move in `notation`.
fn kill_text(mate: Move, after: &Position, lang: Lang, notation: Notation) -> String {
    // The mating move is played by the side that has just moved, as if it could move again.
    let mover = after.turn().other();
    let mv = move_text(&after.with_turn(mover), mate, notation, lang);
    match lang {
        Lang::En => format!("threatens mate (next: {mv})"),
        Lang::Vi => format!("dọa chiếu bí (nước sau: {mv})"),
        Lang::Zh => format!("叫杀（下一着{mv}即将死）"),
    }
}

fn class_words(class: &PlyClass, after: &Position, lang: Lang, notation: Notation) -> String {
    match class {
        PlyClass::Kill { mate } => kill_text(*mate, after, lang, notation),
        PlyClass::Check { victims, .. } => {
            let base = match lang {
                Lang::En => "check",
                Lang::Vi => "chiếu",
                Lang::Zh => "将军",
            };
            if victims.is_empty() {
                return base.into();
            }
            let list: Vec<String> = victims
                .iter()
                .map(|v| victim_desc(after, v.id, v.protected, lang))
                .collect();
            match lang {
                Lang::En => format!("{base}, also chasing {}", list.join(", ")),
                Lang::Vi => format!("{base}, đồng thời đuổi {}", list.join(", ")),
                Lang::Zh => format!("{base}，同时捉{}", list.join("、")),
            }
        }
        PlyClass::Idle => match lang {
            Lang::En => "idle".into(),
            Lang::Vi => "nhàn".into(),
            Lang::Zh => "闲着".into(),
        },
        PlyClass::Chase { victims } => {
            let list: Vec<String> = victims
                .iter()
                .map(|v| victim_desc(after, v.id, v.protected, lang))
                .collect();
            match lang {
                Lang::En => format!("chases {}", list.join(", ")),
                Lang::Vi => format!("đuổi {}", list.join(", ")),
                Lang::Zh => format!("捉{}", list.join("、")),
            }
        }
    }
}

/// One evidence ply as a line: `7. Red R2+1 (h8h9): check`.
#[must_use]
pub fn evidence_line(e: &EvidencePly, lang: Lang, notation: Notation) -> String {
    let after = e.before.after(e.mv);
    evidence_with(
        e,
        &class_words(&e.class, &after, lang, notation),
        lang,
        notation,
    )
}

fn evidence_with(e: &EvidencePly, what: &str, lang: Lang, notation: Notation) -> String {
    let mv = move_text(&e.before, e.mv, notation, lang);
    let side = side_name(e.side, lang);
    match lang {
        Lang::Zh => format!("{}. {side} {mv}：{what}", e.index + 1),
        _ => format!("{}. {side} {mv}: {what}", e.index + 1),
    }
}

/// The last ply of a game won on the board, named by what it did: the mate or the stalemate,
/// and nothing else (what else it attacked no longer matters).
fn final_ply_line(e: &EvidencePly, clause: &Clause, lang: Lang, notation: Notation) -> String {
    let what = match (clause, lang) {
        (Clause::Checkmate, Lang::En) => "checkmate",
        (Clause::Checkmate, Lang::Vi) => "chiếu bí",
        (Clause::Checkmate, Lang::Zh) => "将死",
        (_, Lang::En) => "leaves the opponent no legal move",
        (_, Lang::Vi) => "khiến đối phương hết nước đi",
        (_, Lang::Zh) => "使对方无着可走",
    };
    evidence_with(e, what, lang, notation)
}

fn conduct_text(c: &Conduct, lang: Lang) -> String {
    match c {
        Conduct::PerpetualCheck => match lang {
            Lang::En => "checked at every ply (perpetual check)".into(),
            Lang::Vi => "nước nào cũng chiếu (chiếu dai)".into(),
            Lang::Zh => "每着都将军（长将）".into(),
        },
        Conduct::PerpetualChase { .. } => match lang {
            Lang::En => "chased the same piece at every ply (perpetual chase)".into(),
            Lang::Vi => "nước nào cũng đuổi cùng một quân (đuổi dai)".into(),
            Lang::Zh => "每着都捉同一个子（长捉）".into(),
        },
        c if c.perpetual_kill() => match lang {
            Lang::En => "threatened mate at every ply (perpetual kill, which is allowed)".into(),
            Lang::Vi => "nước nào cũng dọa chiếu bí (dọa bí mãi, được phép)".into(),
            Lang::Zh => "每着都叫杀（长杀，允许）".into(),
        },
        Conduct::Mixed {
            check: false,
            chase: false,
            kill: false,
            ..
        } => match lang {
            Lang::En => "made only idle moves".into(),
            Lang::Vi => "chỉ đi nước nhàn".into(),
            Lang::Zh => "只走闲着".into(),
        },
        Conduct::Mixed {
            check,
            chase,
            kill,
            idle,
        } => {
            let mut parts = Vec::new();
            let words: [(&bool, [&str; 3]); 4] = [
                (check, ["checks", "chiếu", "将军"]),
                (chase, ["chases", "đuổi", "捉子"]),
                (kill, ["threats to mate", "dọa chiếu bí", "叫杀"]),
                (idle, ["idle moves", "nước nhàn", "闲着"]),
            ];
            let k = match lang {
                Lang::En => 0,
                Lang::Vi => 1,
                Lang::Zh => 2,
            };
            for (on, w) in words {
                if *on {
                    parts.push(w[k]);
                }
            }
            match lang {
                Lang::En => format!("mixed {}", parts.join(" + ")),
                Lang::Vi => format!("xen kẽ {}", parts.join(" + ")),
                Lang::Zh => format!("{}交替", parts.join("与")),
            }
        }
    }
}

/// Said after the verdict when a side threatened mate in the cycle.
fn kill_note(lang: Lang) -> &'static str {
    match lang {
        Lang::En => " Threatening mate (a kill) is neither a check nor a chase: it may be repeated as often as one likes.",
        Lang::Vi => " Dọa chiếu bí không phải nước chiếu cũng không phải nước đuổi: được lặp lại bao nhiêu cũng được.",
        Lang::Zh => "叫杀（杀着）既不算将军也不算捉子，可以反复走。",
    }
}

fn has_kill(c: &Conduct) -> bool {
    matches!(c, Conduct::Mixed { kill: true, .. })
}

/// The clause in words: what rule was applied and why it decides the game.
#[must_use]
pub fn clause_text(r: &Ruling, lang: Lang) -> String {
    match &r.clause {
        Clause::Checkmate => match lang {
            Lang::En => "The side to move is in check and has no legal move.".into(),
            Lang::Vi => "Bên đến lượt đang bị chiếu và không còn nước đi hợp lệ nào.".into(),
            Lang::Zh => "该走的一方被将军且无合法着法。".into(),
        },
        Clause::Stalemate => match lang {
            Lang::En => "The side to move is not in check but has no legal move; in xiangqi that loses, it is not a draw.".into(),
            Lang::Vi => "Bên đến lượt không bị chiếu nhưng không còn nước đi hợp lệ; trong cờ tướng như vậy là thua, không phải hòa.".into(),
            Lang::Zh => "该走的一方未被将军但无着可走；象棋中这种情况判负，不是和棋。".into(),
        },
        Clause::Repetition { table, red, black } => {
            let t = match table {
                VerdictTable::A => "A",
                VerdictTable::O => "O",
            };
            let mut verdict = repetition_verdict_text(r, *table, lang);
            if has_kill(red) || has_kill(black) {
                verdict.push_str(kill_note(lang));
            }
            match lang {
                Lang::En => format!(
                    "The position occurred for the 3rd time. Over the cycle since its previous occurrence, Red {} and Black {}. Table {t}: {verdict}",
                    conduct_text(red, lang),
                    conduct_text(black, lang)
                ),
                Lang::Vi => format!(
                    "Thế cờ lặp lại lần thứ 3. Trong chu kỳ kể từ lần xuất hiện trước, Đỏ {} và Đen {}. Bảng {t}: {verdict}",
                    conduct_text(red, lang),
                    conduct_text(black, lang)
                ),
                Lang::Zh => format!(
                    "同一局面第三次出现。自上次出现以来的循环中，红方{}，黑方{}。{t}表：{verdict}",
                    conduct_text(red, lang),
                    conduct_text(black, lang)
                ),
            }
        }
        Clause::CheckCount {
            count,
            limit,
            pieces,
        } => match lang {
            Lang::En => format!("{count} consecutive checks with {pieces} piece(s); this ruleset allows at most {limit}."),
            Lang::Vi => format!("Chiếu liên tục {count} nước bằng {pieces} quân; luật này chỉ cho phép tối đa {limit} nước."),
            Lang::Zh => format!("用{pieces}个子连续将军{count}着；本规则最多允许{limit}着。"),
        },
        Clause::ChaseCount {
            count,
            limit,
            pieces,
            ..
        } => match lang {
            Lang::En => format!("{count} consecutive chases of the same piece with {pieces} piece(s); this ruleset allows at most {limit}."),
            Lang::Vi => format!("Đuổi liên tục cùng một quân {count} nước bằng {pieces} quân; luật này chỉ cho phép tối đa {limit} nước."),
            Lang::Zh => format!("用{pieces}个子连续捉同一个子{count}着；本规则最多允许{limit}着。"),
        },
        Clause::NoProgress {
            counted,
            needed,
            soldier_advance,
            checks_counted,
            claimed,
        } => {
            let mut s = match lang {
                Lang::En => format!("{counted} plies counted without a capture{}; {needed} make a draw.", if *soldier_advance { " or a forward step of a crossed soldier" } else { "" }),
                Lang::Vi => format!("Đã tính {counted} nước (mỗi bên một nước tính là một) không ăn quân{}; đủ {needed} nước thì hòa.", if *soldier_advance { " và không có Tốt qua sông tiến lên" } else { "" }),
                Lang::Zh => format!("已计{counted}步无吃子{}；满{needed}步判和。", if *soldier_advance { "且无过河兵卒前进" } else { "" }),
            };
            // Chinese sentences follow each other without a space.
            let gap = if lang == Lang::Zh { "" } else { " " };
            if let Some(n) = checks_counted {
                s.push_str(gap);
                s.push_str(&match lang {
                    Lang::En => format!("Only the first {n} checks of each side in that stretch count."),
                    Lang::Vi => format!("Mỗi bên chỉ được tính tối đa {n} nước chiếu trong quãng đó."),
                    Lang::Zh => format!("此段内每方只计前{n}次将军。"),
                });
            }
            if *claimed {
                s.push_str(gap);
                s.push_str(match lang {
                    Lang::En => "The draw was granted on a claim.",
                    Lang::Vi => "Hòa được xử theo đề nghị của một bên.",
                    Lang::Zh => "应一方申请判和。",
                });
            }
            s
        }
        Clause::EffectiveMoves { per_side } => match lang {
            Lang::En => format!("Each side has made {per_side} effective moves (not checks, chases or replies to them)."),
            Lang::Vi => format!("Mỗi bên đã đi {per_side} nước có hiệu lực (không tính nước chiếu, đuổi và nước đối phó)."),
            Lang::Zh => format!("双方各走满{per_side}步有效着法（不计将军、捉子及其应着）。"),
        },
        Clause::MoveCap { plies } => match lang {
            Lang::En => format!("The game reached {plies} plies."),
            Lang::Vi => format!("Ván cờ đã đạt {plies} nước."),
            Lang::Zh => format!("对局已达{plies}步。"),
        },
        Clause::InsufficientMaterial => match lang {
            Lang::En => "Neither side has a chariot, horse, cannon or soldier left, so no one can mate.".into(),
            Lang::Vi => "Cả hai bên không còn Xe, Mã, Pháo hay Tốt, không ai chiếu bí được nữa.".into(),
            Lang::Zh => "双方均无车、马、炮、兵，谁也无法将死对方。".into(),
        },
    }
}

fn repetition_verdict_text(r: &Ruling, table: VerdictTable, lang: Lang) -> String {
    let loser = r.outcome.loser();
    match (r.reason, loser) {
        (Reason::PerpetualCheck, Some(c)) => match lang {
            Lang::En => format!("a perpetual checker loses unless the other side also checks perpetually, so {} loses.", side_name(c, lang)),
            Lang::Vi => format!("bên chiếu dai bị xử thua trừ khi bên kia cũng chiếu dai, nên {} thua.", side_name(c, lang)),
            Lang::Zh => format!("长将方判负（除非对方也长将），故{}负。", side_name(c, lang)),
        },
        (Reason::PerpetualChase, Some(c)) => match lang {
            Lang::En => format!("a perpetual chaser loses against a side that is idle or mixes its moves, so {} loses.", side_name(c, lang)),
            Lang::Vi => format!("bên đuổi dai bị xử thua khi bên kia chỉ đi nhàn hoặc đi xen kẽ, nên {} thua.", side_name(c, lang)),
            Lang::Zh => format!("对方闲着或着法交替时，长捉方判负，故{}负。", side_name(c, lang)),
        },
        (Reason::Repetition, Some(c)) => match lang {
            Lang::En => format!("the side that keeps attacking (checks or chases mixed with idle moves) against a side that only makes idle moves must change; {} did not and loses.", side_name(c, lang)),
            Lang::Vi => format!("bên chủ động tấn công (chiếu hoặc đuổi xen nước nhàn) trước một bên chỉ đi nhàn phải đổi nước; {} không đổi nên thua.", side_name(c, lang)),
            Lang::Zh => format!("对只走闲着的一方反复进攻（将军或捉子夹杂闲着）的一方必须变着；{}未变着，判负。", side_name(c, lang)),
        },
        _ => match (lang, table) {
            (Lang::En, VerdictTable::A) => "neither side made a forbidden perpetual attack, so the repetition is a draw.".into(),
            (Lang::En, VerdictTable::O) => "no rule of table O makes either side change here (mutual checks, mutual chases, idle moves and threats to mate are all allowed), so the repetition is a draw.".into(),
            (Lang::Vi, VerdictTable::A) => "không bên nào phạm luật tấn công dai, nên lặp lại thế cờ được xử hòa.".into(),
            (Lang::Vi, VerdictTable::O) => "không điều nào của bảng O buộc bên nào phải đổi nước (cùng chiếu, cùng đuổi, nước nhàn và dọa chiếu bí đều được phép), nên xử hòa.".into(),
            (Lang::Zh, VerdictTable::A) => "双方均无禁止的长打，循环判和。".into(),
            (Lang::Zh, VerdictTable::O) => "O表没有要求任何一方变着（互将、互捉、闲着和叫杀均允许），循环判和。".into(),
        },
    }
}

fn evidence_heading(r: &Ruling, lang: Lang) -> &'static str {
    match (&r.clause, lang) {
        (Clause::Repetition { .. }, Lang::En) => "The cycle, ply by ply:",
        (Clause::Repetition { .. }, Lang::Vi) => "Chu kỳ lặp, từng nước:",
        (Clause::Repetition { .. }, Lang::Zh) => "循环着法：",
        (Clause::CheckCount { .. } | Clause::ChaseCount { .. }, Lang::En) => "The run, ply by ply:",
        (Clause::CheckCount { .. } | Clause::ChaseCount { .. }, Lang::Vi) => "Chuỗi nước liên tục:",
        (Clause::CheckCount { .. } | Clause::ChaseCount { .. }, Lang::Zh) => "连续着法：",
        (_, Lang::En) => "Last ply:",
        (_, Lang::Vi) => "Nước cuối:",
        (_, Lang::Zh) => "最后一着：",
    }
}

/// A game's result with why: `Red wins — checkmate`, `红方胜——将死` (a Chinese dash, no
/// spaces).
#[must_use]
pub fn headline_text(o: Outcome, why: &str, lang: Lang) -> String {
    let outcome = outcome_text(o, lang);
    match lang {
        Lang::Zh => format!("{outcome}——{why}"),
        _ => format!("{outcome} — {why}"),
    }
}

/// The full explanation of a ruling: headline, then [`ruling_details`].
#[must_use]
pub fn explain_ruling(r: &Ruling, lang: Lang, notation: Notation) -> String {
    let head = headline_text(r.outcome, reason_text(r.reason, lang), lang);
    let details = ruling_details(r, lang, notation);
    match lang {
        Lang::Zh => format!("{head}。\n{details}"),
        _ => format!("{head}.\n{details}"),
    }
}

/// A ruling explained without its headline (for a message that has one already): the
/// ruleset and its clause, the source, the evidence.
#[must_use]
pub fn ruling_details(r: &Ruling, lang: Lang, notation: Notation) -> String {
    let mut out = String::new();
    let rules = ruleset_name(r.ruleset, lang);
    out.push_str(&match lang {
        Lang::En => format!("Under {rules}: "),
        Lang::Vi => format!("Theo {rules}: "),
        Lang::Zh => format!("依{rules}："),
    });
    out.push_str(&clause_text(r, lang));
    out.push('\n');
    out.push_str(&match lang {
        Lang::En => format!("Source: {}.", source_name(r.source, lang)),
        Lang::Vi => format!("Nguồn: {}.", source_name(r.source, lang)),
        Lang::Zh => format!("依据：{}。", source_name(r.source, lang)),
    });
    if !r.evidence.is_empty() {
        out.push('\n');
        out.push_str(evidence_heading(r, lang));
        for e in &r.evidence {
            out.push('\n');
            out.push_str(&match r.clause {
                Clause::Checkmate | Clause::Stalemate => {
                    final_ply_line(e, &r.clause, lang, notation)
                }
                _ => evidence_line(e, lang, notation),
            });
        }
    }
    out
}

/// Why a move was refused (enforcement `refuse`).
#[must_use]
pub fn explain_refusal(r: &Ruling, lang: Lang, notation: Notation) -> String {
    let head = match lang {
        Lang::En => {
            "This move is refused: under these rules it would be a foul. Choose another move."
        }
        Lang::Vi => "Nước này bị từ chối: theo luật đang dùng nó phạm luật. Hãy chọn nước khác.",
        Lang::Zh => "此着被拒绝：按当前规则属于犯规，请改走其他着法。",
    };
    format!("{head}\n{}", explain_ruling(r, lang, notation))
}

/// A warning in words, addressed to the side it concerns.
#[must_use]
pub fn explain_warning(w: &Warning, pos: &Position, lang: Lang, notation: Notation) -> String {
    let side = side_name(w.side(), lang);
    match w {
        Warning::CheckLimitNear { count, limit, .. } => match lang {
            Lang::En => format!("Warning for {side}: {count} consecutive checks so far; the limit is {limit}. Another check with the same pieces is a foul — play a move that does not check."),
            Lang::Vi => format!("Cảnh báo {side}: đã chiếu liên tục {count} nước; giới hạn là {limit}. Chiếu thêm bằng cùng quân sẽ phạm luật — hãy đi nước không chiếu."),
            Lang::Zh => format!("提醒{side}：已连续将军{count}着，上限为{limit}。再用同样的子将军即犯规，请走不将军的着法。"),
        },
        Warning::ChaseLimitNear {
            count,
            limit,
            victim,
            ..
        } => {
            let v = pos
                .piece_of(*victim)
                .map_or_else(String::new, |p| piece_name(p, lang));
            match lang {
                Lang::En => format!("Warning for {side}: you have chased the {v} {count} times in a row; the limit is {limit}. Chasing it again is a foul — change your plan."),
                Lang::Vi => format!("Cảnh báo {side}: đã đuổi {v} {count} nước liên tục; giới hạn là {limit}. Đuổi tiếp sẽ phạm luật — hãy đổi nước."),
                Lang::Zh => format!("提醒{side}：已连续捉{v}{count}着，上限为{limit}。再捉即犯规，请变着。"),
            }
        }
        Warning::RepetitionLooming { moves, reason, .. } => {
            let list: Vec<String> = moves
                .iter()
                .take(6)
                .map(|&m| move_text(pos, m, notation, lang))
                .collect();
            let what = reason_text(*reason, lang);
            match lang {
                Lang::En => format!("Warning for {side}: {} would repeat the position a third time and lose by {what}. Vary your moves.", list.join(", ")),
                Lang::Vi => format!("Cảnh báo {side}: {} sẽ lặp lại thế cờ lần thứ ba và bị xử thua ({what}). Hãy đổi nước.", list.join(", ")),
                Lang::Zh => format!("提醒{side}：{}将第三次形成同一局面，并因{what}判负。请变着。", list.join("、")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arbiter::{Arbiter, Ruleset};
    use crate::core::Color;

    #[test]
    fn every_reason_and_outcome_has_text_in_every_language() {
        for lang in Lang::ALL {
            for r in Reason::ALL {
                assert!(!reason_text(r, lang).is_empty());
            }
            for s in [
                Source::Seed000Official,
                Source::Seed001App,
                Source::Seed002Cxq,
                Source::Seed004Vietnam,
                Source::AxfRulebook,
            ] {
                assert!(!source_name(s, lang).is_empty());
            }
        }
        for r in Reason::ALL {
            let t: Vec<&str> = Lang::ALL.iter().map(|&l| reason_text(r, l)).collect();
            assert!(t[0] != t[1] && t[1] != t[2] && t[0] != t[2], "{r:?}");
        }
    }

    /// A game's headline in a Chinese line takes a Chinese dash (issue 31).
    #[test]
    fn a_chinese_headline_reads_as_chinese() {
        use crate::i18n::app::{text, Msg};
        let head = headline_text(
            Outcome::RedWins,
            reason_text(Reason::Checkmate, Lang::Zh),
            Lang::Zh,
        );
        assert_eq!(head, "红方胜——将死");
        let over = text(
            &Msg::GameOver {
                score: "1-0".into(),
                headline: head,
            },
            Lang::Zh,
        );
        crate::i18n::lint::assert_zh_punctuation(&over, "game over");
        assert!(!over.contains(" — "), "{over}");
    }

    /// A ruling for every reason, with a clause that fits it.
    fn every_ruling() -> Vec<Ruling> {
        use crate::arbiter::{Clause, Conduct, VerdictTable};
        let victim = Position::startpos()
            .id_at(crate::core::Square::parse("b9").unwrap())
            .unwrap();
        let mixed = Conduct::Mixed {
            check: true,
            chase: false,
            kill: false,
            idle: true,
        };
        let idle = Conduct::Mixed {
            check: false,
            chase: false,
            kill: false,
            idle: true,
        };
        let rep = |table, red, black| Clause::Repetition { table, red, black };
        let cases: Vec<(Outcome, Reason, Clause)> = vec![
            (Outcome::RedWins, Reason::Checkmate, Clause::Checkmate),
            (Outcome::BlackWins, Reason::Stalemate, Clause::Stalemate),
            (
                Outcome::BlackWins,
                Reason::PerpetualCheck,
                rep(VerdictTable::A, Conduct::PerpetualCheck, idle.clone()),
            ),
            (
                Outcome::RedWins,
                Reason::PerpetualChase,
                rep(
                    VerdictTable::A,
                    idle.clone(),
                    Conduct::PerpetualChase { victim },
                ),
            ),
            (
                Outcome::Draw,
                Reason::Repetition,
                rep(VerdictTable::A, mixed.clone(), idle.clone()),
            ),
            (
                Outcome::BlackWins,
                Reason::Repetition,
                rep(VerdictTable::O, mixed, idle),
            ),
            (
                Outcome::BlackWins,
                Reason::CheckLimit,
                Clause::CheckCount {
                    count: 7,
                    limit: 6,
                    pieces: 1,
                },
            ),
            (
                Outcome::RedWins,
                Reason::ChaseLimit,
                Clause::ChaseCount {
                    count: 7,
                    limit: 6,
                    pieces: 1,
                    victim,
                },
            ),
            (
                Outcome::Draw,
                Reason::NoProgress,
                Clause::NoProgress {
                    counted: 120,
                    needed: 120,
                    soldier_advance: true,
                    checks_counted: Some(10),
                    claimed: true,
                },
            ),
            (
                Outcome::Draw,
                Reason::EffectiveMoves,
                Clause::EffectiveMoves { per_side: 120 },
            ),
            (
                Outcome::Draw,
                Reason::MoveLimit,
                Clause::MoveCap { plies: 300 },
            ),
            (
                Outcome::Draw,
                Reason::InsufficientMaterial,
                Clause::InsufficientMaterial,
            ),
        ];
        cases
            .into_iter()
            .map(|(outcome, reason, clause)| Ruling {
                outcome,
                reason,
                ruleset: RulesetName::Official,
                clause,
                source: Source::Seed000Official,
                ply: 10,
                evidence: Vec::new(),
                all_moves_refused: false,
            })
            .collect()
    }

    #[test]
    fn every_ruling_is_explained_in_every_language() {
        let rulings = every_ruling();
        for r in Reason::ALL {
            assert!(rulings.iter().any(|x| x.reason == r), "{r:?} has no sample");
        }
        for r in &rulings {
            let texts: Vec<String> = Lang::ALL
                .iter()
                .map(|&l| explain_ruling(r, l, Notation::Wxf))
                .collect();
            for (t, l) in texts.iter().zip(Lang::ALL) {
                assert!(t.lines().count() >= 3, "{:?} in {l}: {t}", r.reason);
                assert!(!t.contains("{}"), "{t}");
            }
            assert!(texts[0] != texts[1] && texts[1] != texts[2] && texts[0] != texts[2]);
            crate::i18n::lint::assert_zh_punctuation(&texts[2], &format!("{:?}", r.reason));
            let refusal: Vec<String> = Lang::ALL
                .iter()
                .map(|&l| explain_refusal(r, l, Notation::Wxf))
                .collect();
            assert!(refusal[0] != refusal[1] && refusal[1] != refusal[2]);
        }
    }

    #[test]
    fn every_warning_is_explained_in_every_language() {
        let pos = Position::startpos();
        let victim = pos
            .id_at(crate::core::Square::parse("b9").unwrap())
            .unwrap();
        let warnings = [
            Warning::CheckLimitNear {
                side: Color::Red,
                count: 6,
                limit: 6,
            },
            Warning::ChaseLimitNear {
                side: Color::Black,
                count: 6,
                limit: 6,
                victim,
            },
            Warning::RepetitionLooming {
                side: Color::Red,
                moves: vec![Move::parse_iccs("h2e2").unwrap()],
                reason: Reason::PerpetualCheck,
            },
        ];
        for w in &warnings {
            let t: Vec<String> = Lang::ALL
                .iter()
                .map(|&l| explain_warning(w, &pos, l, Notation::Chinese))
                .collect();
            assert!(t.iter().all(|x| !x.is_empty()));
            crate::i18n::lint::assert_zh_punctuation(&t[2], &format!("{w:?}"));
            assert!(t[0] != t[1] && t[1] != t[2] && t[0] != t[2], "{t:?}");
        }
    }

    /// The mating chariot also hits the loose horse on f3; after a mate that is noise.
    #[test]
    fn a_checkmate_ruling_lists_no_chases() {
        let pos = Position::from_fen("5k3/9/9/9/3R5/9/5n3/9/9/4K4 w").unwrap();
        let mut a = Arbiter::new(pos, Ruleset::preset(RulesetName::Official));
        let acc = a.submit(Move::parse_iccs("d5f5").unwrap()).unwrap();
        assert!(!acc.record.class.victims().is_empty(), "the ply does chase");
        let r = acc.ruling.expect("mate");
        assert_eq!(r.reason, Reason::Checkmate);
        for (lang, mate, chase) in [
            (Lang::En, "d5f5: checkmate", "chasing"),
            (Lang::Vi, "d5f5: chiếu bí", "đuổi"),
            (Lang::Zh, "d5f5：将死", "捉"),
        ] {
            let t = explain_ruling(&r, lang, Notation::Iccs);
            let last = t.lines().last().unwrap_or("");
            assert!(last.ends_with(mate), "{lang}: {t}");
            assert!(!t.contains(chase), "{lang}: {t}");
        }
    }

    #[test]
    fn a_perpetual_check_ruling_explains_itself_in_three_languages() {
        let pos = Position::from_fen("c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w").unwrap();
        let mut a = Arbiter::new(pos, Ruleset::preset(RulesetName::Asian));
        let mut ruling = None;
        for m in [
            "h8h9", "f9f8", "h9h8", "f8f9", "h8h9", "f9f8", "h9h8", "f8f9",
        ] {
            ruling = a.submit(Move::parse_iccs(m).unwrap()).unwrap().ruling;
        }
        let r = ruling.expect("a ruling at the third occurrence");
        let en = explain_ruling(&r, Lang::En, Notation::Iccs);
        assert!(en.contains("Black wins"), "{en}");
        assert!(en.contains("perpetual check"), "{en}");
        assert!(en.contains("h8h9: check"), "{en}");
        let vi = explain_ruling(&r, Lang::Vi, Notation::Iccs);
        assert!(vi.contains("chiếu dai"), "{vi}");
        let zh = explain_ruling(&r, Lang::Zh, Notation::Iccs);
        assert!(zh.contains("长将"), "{zh}");
        // Chinese lines, moves and their ICCS take full-width marks (issue 31).
        for notation in [Notation::Iccs, Notation::Chinese, Notation::Wxf] {
            let zh = explain_ruling(&r, Lang::Zh, notation);
            crate::i18n::lint::assert_zh_punctuation(&zh, &format!("{notation:?}"));
            crate::i18n::lint::assert_zh_punctuation(
                &explain_refusal(&r, Lang::Zh, notation),
                &format!("refusal, {notation:?}"),
            );
        }
    }
}
