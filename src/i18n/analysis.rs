//! Messages about hints and game reviews, in Vietnamese, English and Chinese. Kept apart from
//! the game messages ([`super::app`]); a missing translation is a compile error.

use super::Lang;

/// How bad a reviewed move was, in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// An inaccuracy (?!).
    Inaccuracy,
    /// A mistake (?).
    Mistake,
    /// A blunder (??).
    Blunder,
}

/// A message about hints or reviews.
#[derive(Clone, Debug, PartialEq)]
pub enum AnalysisMsg {
    /// `/hint` with no game here.
    HintNoGame,
    /// `/hint` by someone who does not play in the game.
    HintNotPlaying,
    /// `/hint` by the player who is not to move.
    HintNotYourTurn,
    /// `/hint` in a rated game.
    HintRated,
    /// `/hint` between people in a channel that does not allow it.
    HintsOffHere,
    /// The engine does not run here.
    NoEngine,
    /// A hint is on its way.
    HintThinking,
    /// A hint is already being looked for.
    HintBusy,
    /// The hint: the best move for `player`.
    Hint {
        /// Who asked.
        player: String,
        /// The move in their notation.
        mv: String,
        /// The move in ICCS.
        iccs: String,
    },
    /// The engine found no move to suggest.
    HintNone,
    /// `/hints on|off` answered.
    HintsSet {
        /// Whether allowed now.
        on: bool,
    },
    /// `/review` with no finished game here.
    ReviewNoGame,
    /// `/review N` where N is no finished game of this channel.
    ReviewNotFound {
        /// The number asked for (bounded).
        asked: String,
    },
    /// A review was queued.
    ReviewQueued {
        /// The game's number.
        game: u64,
    },
    /// A review is already running.
    ReviewRunning {
        /// The game's number.
        game: u64,
    },
    /// A review was posted here a moment ago: it is pointed to, not posted again.
    ReviewPosted {
        /// The game's number.
        game: u64,
        /// How long ago, in whole minutes.
        minutes: u64,
    },
    /// The review's heading.
    ReviewHeading {
        /// The game's number.
        game: u64,
        /// Red's name.
        red: String,
        /// Black's name.
        black: String,
    },
    /// One player's accuracy and counts.
    PlayerSummary {
        /// "Red"/"Black" already localised, with the name.
        player: String,
        /// Accuracy (0–100), if they moved.
        accuracy: Option<f64>,
        /// Inaccuracies.
        inaccuracies: usize,
        /// Mistakes.
        mistakes: usize,
        /// Blunders.
        blunders: usize,
    },
    /// One judged move.
    Flaw {
        /// Move number with dots (`12.` or `12...`).
        number: String,
        /// The move played.
        mv: String,
        /// How bad.
        severity: Severity,
        /// The engine's move instead, if known.
        better: Option<String>,
    },
    /// No inaccuracy, mistake or blunder.
    NoFlaws,
    /// More judged moves than listed.
    MoreFlaws {
        /// How many were left out.
        more: usize,
    },
    /// The graph's title.
    GraphTitle,
    /// The graph's description for screen readers.
    GraphAlt {
        /// The game's number.
        game: u64,
    },
    /// The annotated PGN's caption.
    AnnotatedPgn,
    /// The "Review" button.
    ReviewButton,
}

/// `m` in `lang`.
#[must_use]
pub fn text(m: &AnalysisMsg, lang: Lang) -> String {
    match lang {
        Lang::Vi => vi(m),
        Lang::En => en(m),
        Lang::Zh => zh(m),
    }
}

/// The severity word in `lang`.
#[must_use]
pub fn severity(s: Severity, lang: Lang) -> &'static str {
    match (lang, s) {
        (Lang::En, Severity::Inaccuracy) => "Inaccuracy",
        (Lang::En, Severity::Mistake) => "Mistake",
        (Lang::En, Severity::Blunder) => "Blunder",
        (Lang::Vi, Severity::Inaccuracy) => "Nước chưa chính xác",
        (Lang::Vi, Severity::Mistake) => "Nước sai",
        (Lang::Vi, Severity::Blunder) => "Nước hớ nặng",
        (Lang::Zh, Severity::Inaccuracy) => "缓着",
        (Lang::Zh, Severity::Mistake) => "错着",
        (Lang::Zh, Severity::Blunder) => "败着",
    }
}

fn pct(a: Option<f64>) -> String {
    a.map_or_else(|| "—".into(), |a| format!("{a:.1}%"))
}

fn glyph(s: Severity) -> &'static str {
    match s {
        Severity::Inaccuracy => "?!",
        Severity::Mistake => "?",
        Severity::Blunder => "??",
    }
}

fn en(m: &AnalysisMsg) -> String {
    match m {
        AnalysisMsg::HintNoGame => "There is no game here to give a hint in.".into(),
        AnalysisMsg::HintNotPlaying => "Only the players of this game can ask for a hint.".into(),
        AnalysisMsg::HintNotYourTurn => "Only the player to move can ask for a hint.".into(),
        AnalysisMsg::HintRated => "No hints in rated games.".into(),
        AnalysisMsg::HintsOffHere => "Hints are off for games between people here. Anyone who may change this channel's settings can allow them with /hints on.".into(),
        AnalysisMsg::NoEngine => "The engine is not running here, so it cannot help right now.".into(),
        AnalysisMsg::HintThinking => "Looking for the best move…".into(),
        AnalysisMsg::HintBusy => "A hint is already being looked for; it comes in a moment.".into(),
        AnalysisMsg::Hint { player, mv, iccs } => format!("💡 Hint for {player}: {}", super::with_iccs(mv, iccs, Lang::En)),
        AnalysisMsg::HintNone => "The engine found no move to suggest here.".into(),
        AnalysisMsg::HintsSet { on: true } => "Hints are now allowed in new games between people here (never in rated games).".into(),
        AnalysisMsg::HintsSet { on: false } => "Hints are now off for new games between people here (games against the bot keep them).".into(),
        AnalysisMsg::ReviewNoGame => "There is no finished game here to review.".into(),
        AnalysisMsg::ReviewNotFound { asked } => format!("Game {asked} is not a finished game of this channel. /games lists your games with their numbers."),
        AnalysisMsg::ReviewQueued { game } => format!("Reviewing game #{game}… the review follows in about 20 seconds."),
        AnalysisMsg::ReviewRunning { game } => format!("Game #{game} is being reviewed; the review follows shortly."),
        AnalysisMsg::ReviewPosted { game, minutes: 0 } => format!("The review of game #{game} was posted just above."),
        AnalysisMsg::ReviewPosted { game, minutes } => format!("The review of game #{game} was posted above {minutes} min ago."),
        AnalysisMsg::ReviewHeading { game, red, black } => format!("📊 Review of game #{game}: {red} vs {black}"),
        AnalysisMsg::PlayerSummary { player, accuracy, inaccuracies, mistakes, blunders } => format!("{player}: accuracy {} · inaccuracies {inaccuracies} · mistakes {mistakes} · blunders {blunders}", pct(*accuracy)),
        AnalysisMsg::Flaw { number, mv, severity: s, better } => match better {
            Some(b) => format!("{number} {mv}{} — {}; better {b}", glyph(*s), severity(*s, Lang::En)),
            None => format!("{number} {mv}{} — {}", glyph(*s), severity(*s, Lang::En)),
        },
        AnalysisMsg::NoFlaws => "No inaccuracies, mistakes or blunders.".into(),
        AnalysisMsg::MoreFlaws { more } => format!("…and {more} more (see the annotated PGN)."),
        AnalysisMsg::GraphTitle => "Advantage (above the line: Red is better)".into(),
        AnalysisMsg::GraphAlt { game } => format!("The advantage along game #{game}, with its mistakes marked"),
        AnalysisMsg::AnnotatedPgn => "Annotated PGN (evaluations, mistakes and better lines):".into(),
        AnalysisMsg::ReviewButton => "📊 Review".into(),
    }
}

fn vi(m: &AnalysisMsg) -> String {
    match m {
        AnalysisMsg::HintNoGame => "Ở đây không có ván nào để gợi ý.".into(),
        AnalysisMsg::HintNotPlaying => "Chỉ người chơi của ván này mới được xin gợi ý.".into(),
        AnalysisMsg::HintNotYourTurn => "Chỉ người đến lượt đi mới được xin gợi ý.".into(),
        AnalysisMsg::HintRated => "Ván tính điểm không có gợi ý.".into(),
        AnalysisMsg::HintsOffHere => "Kênh này đang tắt gợi ý cho ván giữa người với người. Ai được đổi cài đặt của kênh có thể bật bằng /hints on.".into(),
        AnalysisMsg::NoEngine => "Máy cờ không chạy ở đây nên lúc này không thể giúp.".into(),
        AnalysisMsg::HintThinking => "Đang tìm nước hay nhất…".into(),
        AnalysisMsg::HintBusy => "Đang tìm gợi ý rồi, chờ một chút.".into(),
        AnalysisMsg::Hint { player, mv, iccs } => format!("💡 Gợi ý cho {player}: {}", super::with_iccs(mv, iccs, Lang::Vi)),
        AnalysisMsg::HintNone => "Máy cờ không tìm được nước nào để gợi ý.".into(),
        AnalysisMsg::HintsSet { on: true } => "Từ giờ các ván mới giữa người với người ở đây được xin gợi ý (trừ ván tính điểm).".into(),
        AnalysisMsg::HintsSet { on: false } => "Từ giờ các ván mới giữa người với người ở đây không được xin gợi ý (ván với máy vẫn được).".into(),
        AnalysisMsg::ReviewNoGame => "Ở đây chưa có ván nào đã kết thúc để phân tích.".into(),
        AnalysisMsg::ReviewNotFound { asked } => format!("Ván {asked} không phải ván đã kết thúc của kênh này. /games liệt kê các ván của bạn kèm số ván."),
        AnalysisMsg::ReviewQueued { game } => format!("Đang phân tích ván #{game}… kết quả có sau khoảng 20 giây."),
        AnalysisMsg::ReviewRunning { game } => format!("Ván #{game} đang được phân tích, kết quả sắp có."),
        AnalysisMsg::ReviewPosted { game, minutes: 0 } => format!("Phân tích ván #{game} vừa được gửi ngay phía trên."),
        AnalysisMsg::ReviewPosted { game, minutes } => format!("Phân tích ván #{game} đã được gửi phía trên cách đây {minutes} phút."),
        AnalysisMsg::ReviewHeading { game, red, black } => format!("📊 Phân tích ván #{game}: {red} – {black}"),
        AnalysisMsg::PlayerSummary { player, accuracy, inaccuracies, mistakes, blunders } => format!("{player}: độ chính xác {} · nước chưa chính xác {inaccuracies} · nước sai {mistakes} · nước hớ nặng {blunders}", pct(*accuracy)),
        AnalysisMsg::Flaw { number, mv, severity: s, better } => match better {
            Some(b) => format!("{number} {mv}{} — {}; nên đi {b}", glyph(*s), severity(*s, Lang::Vi)),
            None => format!("{number} {mv}{} — {}", glyph(*s), severity(*s, Lang::Vi)),
        },
        AnalysisMsg::NoFlaws => "Không có nước chưa chính xác, nước sai hay nước hớ nào.".into(),
        AnalysisMsg::MoreFlaws { more } => format!("…và {more} nước nữa (xem PGN có chú thích)."),
        AnalysisMsg::GraphTitle => "Ưu thế (trên đường giữa: Đỏ hơn)".into(),
        AnalysisMsg::GraphAlt { game } => format!("Ưu thế qua từng nước của ván #{game}, có đánh dấu các nước sai"),
        AnalysisMsg::AnnotatedPgn => "PGN có chú thích (đánh giá, nước sai và nước nên đi):".into(),
        AnalysisMsg::ReviewButton => "📊 Phân tích".into(),
    }
}

fn zh(m: &AnalysisMsg) -> String {
    match m {
        AnalysisMsg::HintNoGame => "这里没有可以提示的对局。".into(),
        AnalysisMsg::HintNotPlaying => "只有本局棋手可以请求提示。".into(),
        AnalysisMsg::HintNotYourTurn => "只有轮到走棋的一方可以请求提示。".into(),
        AnalysisMsg::HintRated => "等级分对局不提供提示。".into(),
        AnalysisMsg::HintsOffHere => {
            "本频道的真人对局未开启提示。有权修改频道设置的人可以用 /hints on 开启。".into()
        }
        AnalysisMsg::NoEngine => "这里没有运行引擎，暂时无法提供帮助。".into(),
        AnalysisMsg::HintThinking => "正在寻找最佳着法……".into(),
        AnalysisMsg::HintBusy => "已经在寻找提示，请稍候。".into(),
        AnalysisMsg::Hint { player, mv, iccs } => format!(
            "💡 给{player}的提示：{}",
            super::with_iccs(mv, iccs, Lang::Zh)
        ),
        AnalysisMsg::HintNone => "引擎找不到可以提示的着法。".into(),
        AnalysisMsg::HintsSet { on: true } => {
            "本频道今后开始的真人对局可以请求提示（等级分对局除外）。".into()
        }
        AnalysisMsg::HintsSet { on: false } => {
            "本频道今后开始的真人对局不能请求提示（与电脑对局仍可）。".into()
        }
        AnalysisMsg::ReviewNoGame => "这里还没有已结束的对局可以复盘。".into(),
        AnalysisMsg::ReviewNotFound { asked } => {
            format!("第 {asked} 局不是本频道已结束的对局。/games 列出你的对局及编号。")
        }
        AnalysisMsg::ReviewQueued { game } => {
            format!("正在复盘第 {game} 局……约 20 秒后给出结果。")
        }
        AnalysisMsg::ReviewRunning { game } => format!("第 {game} 局正在复盘，结果马上就到。"),
        AnalysisMsg::ReviewPosted { game, minutes: 0 } => {
            format!("第 {game} 局的复盘刚刚已发在上面。")
        }
        AnalysisMsg::ReviewPosted { game, minutes } => {
            format!("第 {game} 局的复盘已于 {minutes} 分钟前发在上面。")
        }
        AnalysisMsg::ReviewHeading { game, red, black } => {
            format!("📊 第 {game} 局复盘：{red} 对 {black}")
        }
        AnalysisMsg::PlayerSummary {
            player,
            accuracy,
            inaccuracies,
            mistakes,
            blunders,
        } => format!(
            "{player}：准确率 {} · 缓着 {inaccuracies} · 错着 {mistakes} · 败着 {blunders}",
            pct(*accuracy)
        ),
        AnalysisMsg::Flaw {
            number,
            mv,
            severity: s,
            better,
        } => match better {
            Some(b) => format!(
                "{number} {mv}{} — {}；应走 {b}",
                glyph(*s),
                severity(*s, Lang::Zh)
            ),
            None => format!("{number} {mv}{} — {}", glyph(*s), severity(*s, Lang::Zh)),
        },
        AnalysisMsg::NoFlaws => "没有缓着、错着或败着。".into(),
        AnalysisMsg::MoreFlaws { more } => format!("……另有 {more} 处（见带注释的 PGN）。"),
        AnalysisMsg::GraphTitle => "形势（中线以上：红方占优）".into(),
        AnalysisMsg::GraphAlt { game } => format!("第 {game} 局的形势变化，标出了失误"),
        AnalysisMsg::AnnotatedPgn => "带注释的 PGN（评估、失误及更好的着法）：".into(),
        AnalysisMsg::ReviewButton => "📊 复盘".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_reads_differently_in_each_language() {
        let all = [
            AnalysisMsg::HintsOffHere,
            AnalysisMsg::Hint {
                player: "An".into(),
                mv: "C2.5".into(),
                iccs: "h2e2".into(),
            },
            AnalysisMsg::ReviewQueued { game: 3 },
            AnalysisMsg::ReviewRunning { game: 3 },
            AnalysisMsg::ReviewPosted {
                game: 3,
                minutes: 0,
            },
            AnalysisMsg::ReviewPosted {
                game: 3,
                minutes: 4,
            },
            AnalysisMsg::GraphTitle,
            AnalysisMsg::ReviewButton,
        ];
        // A hint in ICCS names its move once (issue 31).
        let iccs = AnalysisMsg::Hint {
            player: "An".into(),
            mv: "h2e2".into(),
            iccs: "h2e2".into(),
        };
        for lang in Lang::ALL {
            assert_eq!(text(&iccs, lang).matches("h2e2").count(), 1, "{lang}");
        }
        for m in &all {
            let (v, e, z) = (text(m, Lang::Vi), text(m, Lang::En), text(m, Lang::Zh));
            assert!(v != e && e != z && v != z, "{m:?}");
            crate::i18n::lint::assert_zh_punctuation(&z, &format!("{m:?}"));
        }
    }
}
