//! 中文.

use super::{by_ending, family_name, shown, signed, RatingLabel, RatingMsg, Scope};
use crate::i18n::Lang;
use crate::rating::{NotRated, Stats, Wdl};

const L: Lang = Lang::Zh;

fn why(w: NotRated) -> &'static str {
    match w {
        NotRated::NoClock => "等级分对局需要棋钟，请加上用时，例如 10+5",
        NotRated::CasualRules => "casual 规则拒绝犯规着法而不判负，因此从不计等级分；请选择 official、asian、vietnam 或 cxq",
        NotRated::SetUp => "从摆设局面开始的对局不计等级分",
        NotRated::Bot => "与电脑的对局不计等级分",
        NotRated::Aborted => "对局已取消",
        NotRated::TooFewMoves => "双方各走不足两步",
        NotRated::Farming => "这两位棋手在过去 24 小时内已互下五盘等级分对局",
    }
}

fn scope(s: &Scope) -> String {
    match s {
        Scope::Here => "本群/本服务器".into(),
        Scope::Platform(p) => format!("{p} 全平台"),
    }
}

fn wdl(w: &Wdl) -> String {
    format!("胜 {}，和 {}，负 {}", w.wins, w.draws, w.losses)
}

fn stats(name: &str, s: &Stats) -> String {
    let mut out = vec![
        format!("{name}：共 {} 局 — {}", s.all.games(), wdl(&s.all)),
        format!("执红：{}。执黑：{}。", wdl(&s.as_red), wdl(&s.as_black)),
        format!("等级分对局：{} 局。", s.rated.games()),
    ];
    let endings = by_ending(s, L, "，");
    if !endings.is_empty() {
        out.push(format!("按结束方式（胜-和-负）：{}。", endings));
    }
    let now = match s.streak.score {
        Some(crate::rating::Score::Win) => format!("连胜 {} 局", s.streak.len),
        Some(crate::rating::Score::Loss) => format!("连负 {} 局", s.streak.len),
        Some(crate::rating::Score::Draw) => format!("连和 {} 局", s.streak.len),
        None => "无".into(),
    };
    out.push(format!(
        "当前：{now}；最长连胜 {} 局，最长连负 {} 局。",
        s.best_win_streak, s.worst_loss_streak
    ));
    out.join("\n")
}

pub(super) fn text(m: &RatingMsg) -> String {
    match m {
        RatingMsg::RatedGame { family } => format!("等级分对局（{}）：结果将改变双方的等级分。", family_name(*family, L)),
        RatingMsg::CasualGame => "友谊对局（不计等级分）。如需计分，请在 /play 后加上“rated”。".into(),
        RatingMsg::CannotRate { why: w } => format!("此对局无法计等级分：{}。", why(*w)),
        RatingMsg::OnlyChallengerSwitches => "只有发起挑战的一方可以在等级分对局和友谊对局之间切换。".into(),
        RatingMsg::Changes { family, red, red_change, black, black_change, weight } => {
            let mut t = format!(
                "等级分（{}）：{red} {} → {}（{}），{black} {} → {}（{}）。",
                family_name(*family, L),
                shown(red_change.before), shown(red_change.after), signed(red_change.delta()),
                shown(black_change.before), shown(black_change.after), signed(black_change.delta()),
            );
            if *weight < 1.0 {
                t.push_str(&format!("按 {}% 计算：同两位棋手 24 小时内重复的等级分对局权重递减。", (weight * 100.0).round()));
            }
            t
        }
        RatingMsg::NotCounted { why: w } => format!("不计等级分：{}。", why(*w)),
        RatingMsg::RatingsOf { name, platform } => format!("{name} 在 {platform} 的等级分（“?”：暂定，尚未稳定）："),
        RatingMsg::RatingRow { family, rating, games, rank, scope: s } => {
            let place = match rank {
                Some(r) => format!("{}第 {r} 名", scope(s)),
                None if rating.provisional() => "等级分稳定后才参与排名".into(),
                None => "未排名（30 天内没有等级分对局）".into(),
            };
            format!("{}：{} ±{} · {games} 局 · {place}", family_name(*family, L), shown(*rating), rating.deviation.round())
        }
        RatingMsg::NoRatings { name } => format!("{name} 还没有等级分对局。来下一盘：/play @某人 10+5 rated。"),
        RatingMsg::GraphCaption { name, family, games } => format!("{name} — 最近 {games} 盘{}等级分走势", family_name(*family, L)),
        RatingMsg::TopHeader { family, scope: s, page } => format!("排行榜 — {}，{}（第 {page} 页）：", family_name(*family, L), scope(s)),
        RatingMsg::TopRow { rank, name, rating, games } => format!("{rank}. {name} {}（{games} 局）", shown(*rating)),
        RatingMsg::TopEmpty { family, scope: s } => format!("{}的{}排行榜上还没有人。排行榜只列出等级分已稳定（偏差低于 110）且 30 天内下过{}等级分对局的棋手。", scope(s), family_name(*family, L), family_name(*family, L)),
        RatingMsg::TopMore { next } => format!("下一页：{next}"),
        RatingMsg::BadArgument { word, usage } => format!("无法理解“{word}”。用法：{usage}"),
        RatingMsg::StatsOf { name, stats: s } => stats(name, s),
        RatingMsg::NoStats { name } => format!("{name} 还没有下完任何对局。"),
        RatingMsg::HeadToHead { a, b, wdl: w, a_as_red } => format!(
            "{a} 对 {b}：共 {} 局 — {a} 胜 {}，和 {}，{b} 胜 {}。{a} 执红时：{}。",
            w.games(), w.wins, w.draws, w.losses, wdl(a_as_red)
        ),
        RatingMsg::NoHeadToHead { a, b } => format!("{a} 和 {b} 之间还没有下完的对局。"),
        RatingMsg::UnknownPlayer { who } => format!("我不认识 {who}：此人还没在这里下过棋。请 @ 提及对方，或使用其 @用户名。"),
        RatingMsg::Label(l) => match l {
            RatingLabel::MakeRated => "改为等级分对局",
            RatingLabel::MakeCasual => "改为友谊对局",
        }
        .into(),
    }
}
