//! Messages about puzzles (`/puzzle`), in Vietnamese, English and Chinese. A missing
//! translation is a compile error.

use super::Lang;
use crate::puzzle::Theme;

/// A button under a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PuzzleLabel {
    /// Show which piece moves.
    Hint,
    /// Show the solution (ends the puzzle).
    Solution,
    /// Another puzzle.
    Next,
    /// Open the move picker.
    Pick,
}

/// A message about puzzles.
#[derive(Clone, Debug, PartialEq)]
pub enum PuzzleMsg {
    /// The caption of a posted puzzle.
    Posted {
        /// Its id in the set (`sqyq-164`).
        id: String,
        /// Its theme.
        theme: Theme,
        /// The side to move, already localised.
        side: String,
        /// Its rating.
        rating: i64,
        /// Where it comes from, already localised.
        source: String,
        /// Whether it is the daily puzzle.
        daily: bool,
    },
    /// The caption of a puzzle under way, shown again.
    Again {
        /// Its id in the set.
        id: String,
        /// The side to move, localised.
        side: String,
        /// Solver moves still to find.
        left: usize,
    },
    /// `/puzzle` while one is live: it is shown again.
    AlreadyLive,
    /// A puzzle action with no puzzle here.
    NoPuzzle,
    /// `/puzzle WORDS` that select nothing (the words bounded).
    NoMatch {
        /// What was asked.
        asked: String,
    },
    /// A correct move, and the defender's answer.
    Correct {
        /// Who played it.
        player: String,
        /// The move.
        mv: String,
        /// The defender's reply.
        reply: String,
        /// Solver moves still to find.
        left: usize,
    },
    /// The puzzle is solved.
    Solved {
        /// Who played the last move.
        player: String,
        /// The move.
        mv: String,
        /// Seconds since it was posted.
        seconds: u64,
    },
    /// A wrong move and its refutation.
    Wrong {
        /// Who played it.
        player: String,
        /// The move.
        mv: String,
        /// The defender's answer, if the game goes on.
        refutation: Option<String>,
        /// Whether others may still try (in a group).
        others: bool,
    },
    /// A move from someone whose try is over.
    AlreadyMissed {
        /// Who.
        player: String,
    },
    /// The solution, ending the puzzle.
    Solution {
        /// The line, numbered.
        line: String,
    },
    /// Which piece moves.
    Hint {
        /// The piece, localised, with its point.
        piece: String,
    },
    /// A rating change for one solver.
    RatingChange {
        /// Who.
        player: String,
        /// Before.
        before: i64,
        /// After.
        after: i64,
        /// Their streak now.
        streak: u32,
    },
    /// No rating moves: a hint was shown.
    Unrated,
    /// `/puzzle stats`.
    Stats {
        /// Whose.
        player: String,
        /// Their rating.
        rating: i64,
        /// Whether it is still provisional.
        provisional: bool,
        /// Solved.
        solved: u32,
        /// Missed.
        missed: u32,
        /// Current streak.
        streak: u32,
        /// Best streak.
        best: u32,
    },
    /// `/puzzle stats` of someone who never solved one.
    NoStats {
        /// Whose.
        player: String,
    },
    /// `/puzzle daily on`.
    DailyOn {
        /// The hour (UTC).
        hour: u8,
    },
    /// `/puzzle daily off`.
    DailyOff,
    /// `/puzzle daily` with words it does not read.
    DailyUsage,
    /// A button's press on a puzzle that is over.
    Over,
}

/// A theme's name.
#[must_use]
pub fn theme_name(t: Theme, lang: Lang) -> String {
    match (lang, t) {
        (Lang::En, Theme::MateIn(n)) => format!("mate in {n}"),
        (Lang::En, Theme::WinChariot) => "win a chariot".into(),
        (Lang::En, Theme::WinCannon) => "win a cannon".into(),
        (Lang::En, Theme::WinHorse) => "win a horse".into(),
        (Lang::En, Theme::WinMaterial) => "win material".into(),
        (Lang::Vi, Theme::MateIn(n)) => format!("chiếu hết sau {n} nước"),
        (Lang::Vi, Theme::WinChariot) => "bắt xe".into(),
        (Lang::Vi, Theme::WinCannon) => "bắt pháo".into(),
        (Lang::Vi, Theme::WinHorse) => "bắt mã".into(),
        (Lang::Vi, Theme::WinMaterial) => "hơn quân".into(),
        (Lang::Zh, Theme::MateIn(n)) => format!("{n}步杀"),
        (Lang::Zh, Theme::WinChariot) => "得车".into(),
        (Lang::Zh, Theme::WinCannon) => "得炮".into(),
        (Lang::Zh, Theme::WinHorse) => "得马".into(),
        (Lang::Zh, Theme::WinMaterial) => "得子".into(),
    }
}

/// A button's label.
#[must_use]
pub fn label(l: PuzzleLabel, lang: Lang) -> &'static str {
    match (lang, l) {
        (Lang::En, PuzzleLabel::Hint) => "💡 Hint",
        (Lang::En, PuzzleLabel::Solution) => "Show solution",
        (Lang::En, PuzzleLabel::Next) => "Next puzzle",
        (Lang::En, PuzzleLabel::Pick) => "Pick a move",
        (Lang::Vi, PuzzleLabel::Hint) => "💡 Gợi ý",
        (Lang::Vi, PuzzleLabel::Solution) => "Xem lời giải",
        (Lang::Vi, PuzzleLabel::Next) => "Bài tiếp",
        (Lang::Vi, PuzzleLabel::Pick) => "Chọn nước đi",
        (Lang::Zh, PuzzleLabel::Hint) => "💡 提示",
        (Lang::Zh, PuzzleLabel::Solution) => "看答案",
        (Lang::Zh, PuzzleLabel::Next) => "下一题",
        (Lang::Zh, PuzzleLabel::Pick) => "选择着法",
    }
}

/// The message in `lang`.
#[must_use]
pub fn text(m: &PuzzleMsg, lang: Lang) -> String {
    match lang {
        Lang::Vi => vi(m),
        Lang::En => en(m),
        Lang::Zh => zh(m),
    }
}

fn en(m: &PuzzleMsg) -> String {
    match m {
        PuzzleMsg::Posted { id, theme, side, rating, source, daily } => format!(
            "🧩 {} {id}: {} — {side} to move. Rating {rating}.\nType your move, or pick it. Source: {source}.",
            if *daily { "Daily puzzle" } else { "Puzzle" },
            theme_name(*theme, Lang::En)
        ),
        PuzzleMsg::Again { id, side, left } => {
            format!("🧩 Puzzle {id} so far — {side} to move, {left} more move(s) to find.")
        }
        PuzzleMsg::AlreadyLive => {
            "A puzzle is already being solved here (below). For another one: /puzzle next.".into()
        }
        PuzzleMsg::NoPuzzle => "There is no puzzle here. Type /puzzle for one.".into(),
        PuzzleMsg::NoMatch { asked } => format!(
            "No puzzle matches “{asked}”. Try a theme (mate, mate2, chariot, horse, cannon, material, endgame), a level (easy, medium, hard) or a rating such as 1500."
        ),
        PuzzleMsg::Correct { player, mv, reply, left } => format!(
            "✅ {mv} is right, {player}! The answer: {reply}. {left} more move(s) to find."
        ),
        PuzzleMsg::Solved { player, mv, seconds } => {
            format!("🏆 {mv} — solved by {player} in {seconds} s!")
        }
        PuzzleMsg::Wrong { player, mv, refutation, others } => {
            let answer = refutation
                .as_ref()
                .map_or_else(String::new, |r| format!(" {r} refutes it."));
            let rest = if *others {
                " Others may still try; the solution comes when the puzzle ends."
            } else {
                ""
            };
            format!("❌ {mv} is not it, {player}.{answer}{rest}")
        }
        PuzzleMsg::AlreadyMissed { player } => format!(
            "{player}, you already missed this puzzle: let the others try, or show the solution."
        ),
        PuzzleMsg::Solution { line } => format!("The solution: {line}"),
        PuzzleMsg::Hint { piece } => format!("💡 Hint: move the {piece}."),
        PuzzleMsg::RatingChange { player, before, after, streak } => format!(
            "{player}: puzzle rating {before} → {after} (streak {streak})"
        ),
        PuzzleMsg::Unrated => "A hint was shown, so this puzzle does not change ratings.".into(),
        PuzzleMsg::Stats { player, rating, provisional, solved, missed, streak, best } => format!(
            "🧩 {player}: puzzle rating {rating}{}, solved {solved}, missed {missed}, streak {streak} (best {best}).",
            if *provisional { "?" } else { "" }
        ),
        PuzzleMsg::NoStats { player } => format!("{player} has not solved a puzzle here yet."),
        PuzzleMsg::DailyOn { hour } => {
            format!("A daily puzzle will be posted here every day at {hour:02}:00 UTC.")
        }
        PuzzleMsg::DailyOff => "No more daily puzzles here.".into(),
        PuzzleMsg::DailyUsage => {
            "Use /puzzle daily on [hour 0–23, UTC] or /puzzle daily off.".into()
        }
        PuzzleMsg::Over => "That puzzle is over.".into(),
    }
}

fn vi(m: &PuzzleMsg) -> String {
    match m {
        PuzzleMsg::Posted { id, theme, side, rating, source, daily } => format!(
            "🧩 {} {id}: {} — {side} đi. Độ khó {rating}.\nGõ nước đi hoặc chọn nước. Nguồn: {source}.",
            if *daily { "Bài tập hôm nay" } else { "Bài tập" },
            theme_name(*theme, Lang::Vi)
        ),
        PuzzleMsg::Again { id, side, left } => {
            format!("🧩 Bài tập {id} đang giải — {side} đi, còn {left} nước phải tìm.")
        }
        PuzzleMsg::AlreadyLive => {
            "Ở đây đang có một bài tập (bên dưới). Muốn bài khác: /puzzle next.".into()
        }
        PuzzleMsg::NoPuzzle => "Ở đây chưa có bài tập nào. Gõ /puzzle để lấy một bài.".into(),
        PuzzleMsg::NoMatch { asked } => format!(
            "Không có bài nào khớp “{asked}”. Thử một chủ đề (chieuhet, chieuhet2, xe, ma, phao, quan, tancuoc), một mức (de, vua, kho) hoặc một độ khó như 1500."
        ),
        PuzzleMsg::Correct { player, mv, reply, left } => format!(
            "✅ {mv} đúng rồi, {player}! Đối phương đáp: {reply}. Còn {left} nước phải tìm."
        ),
        PuzzleMsg::Solved { player, mv, seconds } => {
            format!("🏆 {mv} — {player} đã giải xong sau {seconds} giây!")
        }
        PuzzleMsg::Wrong { player, mv, refutation, others } => {
            let answer = refutation
                .as_ref()
                .map_or_else(String::new, |r| format!(" Đối phương đáp {r} là hỏng."));
            let rest = if *others {
                " Người khác vẫn có thể thử; lời giải sẽ hiện khi bài kết thúc."
            } else {
                ""
            };
            format!("❌ {mv} chưa đúng, {player}.{answer}{rest}")
        }
        PuzzleMsg::AlreadyMissed { player } => format!(
            "{player}, bạn đã đi sai bài này: hãy để người khác thử, hoặc xem lời giải."
        ),
        PuzzleMsg::Solution { line } => format!("Lời giải: {line}"),
        PuzzleMsg::Hint { piece } => format!("💡 Gợi ý: đi quân {piece}."),
        PuzzleMsg::RatingChange { player, before, after, streak } => format!(
            "{player}: điểm giải bài {before} → {after} (chuỗi {streak})"
        ),
        PuzzleMsg::Unrated => "Đã xem gợi ý nên bài này không tính điểm.".into(),
        PuzzleMsg::Stats { player, rating, provisional, solved, missed, streak, best } => format!(
            "🧩 {player}: điểm giải bài {rating}{}, giải được {solved}, sai {missed}, chuỗi {streak} (dài nhất {best}).",
            if *provisional { "?" } else { "" }
        ),
        PuzzleMsg::NoStats { player } => format!("{player} chưa giải bài tập nào ở đây."),
        PuzzleMsg::DailyOn { hour } => {
            format!("Mỗi ngày lúc {hour:02}:00 UTC sẽ có một bài tập ở đây.")
        }
        PuzzleMsg::DailyOff => "Đã tắt bài tập hằng ngày ở đây.".into(),
        PuzzleMsg::DailyUsage => {
            "Dùng /puzzle daily on [giờ 0–23, UTC] hoặc /puzzle daily off.".into()
        }
        PuzzleMsg::Over => "Bài tập đó đã kết thúc.".into(),
    }
}

fn zh(m: &PuzzleMsg) -> String {
    match m {
        PuzzleMsg::Posted { id, theme, side, rating, source, daily } => format!(
            "🧩 {} {id}：{} —— {side}走。难度 {rating}。\n输入着法或选择着法。出处：{source}。",
            if *daily { "每日一题" } else { "习题" },
            theme_name(*theme, Lang::Zh)
        ),
        PuzzleMsg::Again { id, side, left } => {
            format!("🧩 正在解的习题 {id} —— {side}走，还有 {left} 步。")
        }
        PuzzleMsg::AlreadyLive => "这里已有一道习题（见下）。换一道：/puzzle next。".into(),
        PuzzleMsg::NoPuzzle => "这里没有习题。输入 /puzzle 出一道。".into(),
        PuzzleMsg::NoMatch { asked } => format!(
            "没有符合“{asked}”的习题。可试主题（杀、2步杀、车、马、炮、得子、残局）、难度（简单、中等、困难）或分数如 1500。"
        ),
        PuzzleMsg::Correct { player, mv, reply, left } => {
            format!("✅ {mv} 正确，{player}！对方应 {reply}。还有 {left} 步。")
        }
        PuzzleMsg::Solved { player, mv, seconds } => {
            format!("🏆 {mv} —— {player} 用 {seconds} 秒解出！")
        }
        PuzzleMsg::Wrong { player, mv, refutation, others } => {
            let answer = refutation
                .as_ref()
                .map_or_else(String::new, |r| format!("对方 {r} 即可应对。"));
            let rest = if *others {
                "其他人仍可尝试；习题结束时公布答案。"
            } else {
                ""
            };
            format!("❌ {mv} 不对，{player}。{answer}{rest}")
        }
        PuzzleMsg::AlreadyMissed { player } => {
            format!("{player}，你这题已经走错：请让其他人尝试，或查看答案。")
        }
        PuzzleMsg::Solution { line } => format!("答案：{line}"),
        PuzzleMsg::Hint { piece } => format!("💡 提示：走{piece}。"),
        PuzzleMsg::RatingChange { player, before, after, streak } => {
            format!("{player}：解题分 {before} → {after}（连对 {streak}）")
        }
        PuzzleMsg::Unrated => "已看提示，本题不计分。".into(),
        PuzzleMsg::Stats { player, rating, provisional, solved, missed, streak, best } => format!(
            "🧩 {player}：解题分 {rating}{}，解出 {solved}，失败 {missed}，连对 {streak}（最高 {best}）。",
            if *provisional { "?" } else { "" }
        ),
        PuzzleMsg::NoStats { player } => format!("{player} 还没有在这里解过习题。"),
        PuzzleMsg::DailyOn { hour } => format!("每天 UTC {hour:02}:00 在这里发布每日一题。"),
        PuzzleMsg::DailyOff => "已关闭这里的每日一题。".into(),
        PuzzleMsg::DailyUsage => "用法：/puzzle daily on [0–23 点，UTC] 或 /puzzle daily off。".into(),
        PuzzleMsg::Over => "那道习题已经结束。".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_reads_in_every_language() {
        let all = [
            PuzzleMsg::AlreadyLive,
            PuzzleMsg::NoPuzzle,
            PuzzleMsg::Over,
            PuzzleMsg::DailyOff,
            PuzzleMsg::DailyUsage,
            PuzzleMsg::Unrated,
            PuzzleMsg::DailyOn { hour: 7 },
            PuzzleMsg::Wrong {
                player: "An".into(),
                mv: "h2e2".into(),
                refutation: Some("h9g7".into()),
                others: true,
            },
        ];
        for lang in [Lang::Vi, Lang::En, Lang::Zh] {
            for m in &all {
                assert!(!text(m, lang).trim().is_empty(), "{m:?} {lang:?}");
                if lang == Lang::Zh {
                    crate::i18n::lint::assert_zh_punctuation(&text(m, lang), &format!("{m:?}"));
                }
            }
        }
        assert!(text(&PuzzleMsg::DailyOn { hour: 7 }, Lang::En).contains("07:00"));
    }
}
