//! The web board's words: its page, its refusals and the chat's answers to `/web` and
//! `/watch`.

use super::Lang;

/// A message about the web board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WebMsg {
    /// The game asked for does not exist.
    NoSuchGame,
    /// Storage failed: nothing happened.
    TryAgain,
    /// A move for a game the link's holder does not play in.
    NotYourGame,
    /// A move for a game that is over (or that is no longer the player's game here).
    GameOver,
    /// The game ended without a result.
    Aborted,
    /// `/web`: the player's private link.
    PlayLink {
        /// The game's number.
        game: u64,
        /// The link.
        url: String,
    },
    /// `/watch`: the link anyone may open.
    WatchLink {
        /// The game's number.
        game: u64,
        /// The link.
        url: String,
    },
    /// `/watch` with no game being played: the last one, to replay.
    ReplayLink {
        /// The game's number.
        game: u64,
        /// The link.
        url: String,
    },
    /// `/web` or `/watch` on a bot whose web board is off.
    WebOff,
    /// `/web` by someone not playing here.
    NotPlayingHere,
    /// `/watch` where no game is being played.
    NoGameHere,
    /// `/web` in a Telegram group, where a reply cannot be shown to one member only.
    AskPrivately,
    /// The page sent something other than a move or a game's own command.
    OnlyMoves,
}

/// The text of `m` in `lang`.
#[must_use]
pub fn text(m: &WebMsg, lang: Lang) -> String {
    use WebMsg as M;
    match (m, lang) {
        (M::NoSuchGame, Lang::En) => "There is no such game.".into(),
        (M::NoSuchGame, Lang::Vi) => "Không có ván cờ này.".into(),
        (M::NoSuchGame, Lang::Zh) => "没有这盘棋。".into(),
        (M::TryAgain, Lang::En) => "Something went wrong; nothing was played. Try again.".into(),
        (M::TryAgain, Lang::Vi) => "Có lỗi xảy ra; chưa có nước nào được đi. Hãy thử lại.".into(),
        (M::TryAgain, Lang::Zh) => "出了点问题，这步棋没有走成。请再试一次。".into(),
        (M::NotYourGame, Lang::En) => "You are not playing in this game.".into(),
        (M::NotYourGame, Lang::Vi) => "Bạn không chơi ván cờ này.".into(),
        (M::NotYourGame, Lang::Zh) => "你不是这盘棋的棋手。".into(),
        (M::GameOver, Lang::En) => "This game is over.".into(),
        (M::GameOver, Lang::Vi) => "Ván cờ này đã kết thúc.".into(),
        (M::GameOver, Lang::Zh) => "这盘棋已经结束。".into(),
        (M::Aborted, Lang::En) => "The game was called off without a result.".into(),
        (M::Aborted, Lang::Vi) => "Ván cờ đã bị hủy, không có kết quả.".into(),
        (M::Aborted, Lang::Zh) => "对局已中止，不计结果。".into(),
        (M::PlayLink { game, url }, Lang::En) => format!(
            "Your board for game {game}: {url}\nOnly you can move with this link; it lasts 24 hours. Keep it to yourself."
        ),
        (M::PlayLink { game, url }, Lang::Vi) => format!(
            "Bàn cờ của bạn cho ván {game}: {url}\nChỉ bạn đi cờ được bằng liên kết này; nó dùng được trong 24 giờ. Đừng chia sẻ nó."
        ),
        (M::PlayLink { game, url }, Lang::Zh) => format!(
            "你在第 {game} 局的棋盘：{url}\n只有你能用这个链接走棋，24 小时内有效。请勿分享。"
        ),
        (M::WatchLink { game, url }, Lang::En) => {
            format!("Watch game {game} live: {url}")
        }
        (M::WatchLink { game, url }, Lang::Vi) => format!("Xem trực tiếp ván {game}: {url}"),
        (M::WatchLink { game, url }, Lang::Zh) => format!("观看第 {game} 局直播：{url}"),
        (M::ReplayLink { game, url }, Lang::En) => format!("Replay game {game}: {url}"),
        (M::ReplayLink { game, url }, Lang::Vi) => format!("Xem lại ván {game}: {url}"),
        (M::ReplayLink { game, url }, Lang::Zh) => format!("回放第 {game} 局：{url}"),
        (M::WebOff, Lang::En) => "The web board is not switched on for this bot.".into(),
        (M::WebOff, Lang::Vi) => "Bot này chưa bật bàn cờ trên web.".into(),
        (M::WebOff, Lang::Zh) => "这个机器人没有开启网页棋盘。".into(),
        (M::NotPlayingHere, Lang::En) => "You are not playing a game here.".into(),
        (M::NotPlayingHere, Lang::Vi) => "Bạn không có ván cờ nào đang chơi ở đây.".into(),
        (M::NotPlayingHere, Lang::Zh) => "你在这里没有正在进行的对局。".into(),
        (M::NoGameHere, Lang::En) => "No game is being played here.".into(),
        (M::NoGameHere, Lang::Vi) => "Ở đây không có ván cờ nào đang diễn ra.".into(),
        (M::NoGameHere, Lang::Zh) => "这里没有正在进行的对局。".into(),
        (M::AskPrivately, Lang::En) => {
            "Your board link is yours alone: send /web to me in a private chat and I will give it there.".into()
        }
        (M::AskPrivately, Lang::Vi) => {
            "Liên kết bàn cờ là của riêng bạn: hãy nhắn /web cho tôi trong cuộc trò chuyện riêng, tôi sẽ gửi ở đó.".into()
        }
        (M::OnlyMoves, Lang::En) => {
            "Here you can play moves, offer or accept a draw, ask to take back, and resign; other commands are for the chat.".into()
        }
        (M::OnlyMoves, Lang::Vi) => {
            "Ở đây bạn có thể đi cờ, cầu hòa hoặc nhận hòa, xin đi lại và xin thua; các lệnh khác dùng trong nhóm chat.".into()
        }
        (M::OnlyMoves, Lang::Zh) => "这里可以走棋、提和或同意和棋、请求悔棋和认输；其他命令请在聊天中使用。".into(),
        (M::AskPrivately, Lang::Zh) => "棋盘链接只属于你：请在与我的私聊中发送 /web，我会在那里给你。".into(),
    }
}

/// The page's words in `lang`, by the name the page's script looks them up by.
#[must_use]
pub fn labels(lang: Lang) -> Vec<(&'static str, String)> {
    let l = |en: &str, vi: &str, zh: &str| match lang {
        Lang::En => en.to_string(),
        Lang::Vi => vi.to_string(),
        Lang::Zh => zh.to_string(),
    };
    vec![
        ("red", l("Red", "Đỏ", "红方")),
        ("black", l("Black", "Đen", "黑方")),
        ("your_move", l("Your move", "Đến lượt bạn", "轮到你走")),
        (
            "their_move",
            l("Waiting for your opponent", "Chờ đối thủ", "等待对手"),
        ),
        ("watching", l("Watching", "Đang xem", "观战中")),
        ("flip", l("Flip board", "Lật bàn cờ", "翻转棋盘")),
        ("send", l("Play", "Đi", "走棋")),
        (
            "typed",
            l(
                "Type a move (any notation)",
                "Gõ nước đi (ký hiệu nào cũng được)",
                "输入着法（任意记谱法）",
            ),
        ),
        ("moves", l("Moves", "Các nước đi", "棋谱")),
        ("check", l("Check", "Chiếu tướng", "将军")),
        ("live", l("Live", "Trực tiếp", "直播")),
        (
            "offline",
            l("Reconnecting…", "Đang kết nối lại…", "正在重新连接…"),
        ),
        (
            "refused",
            l(
                "This link is not valid or has expired. Ask the bot for a new one.",
                "Liên kết này không hợp lệ hoặc đã hết hạn. Hãy xin bot một liên kết mới.",
                "此链接无效或已过期。请向机器人索取新链接。",
            ),
        ),
        ("offer_draw", l("Offer draw", "Cầu hòa", "提和")),
        ("resign", l("Resign", "Xin thua", "认输")),
        ("takeback", l("Take back", "Xin đi lại", "悔棋")),
        ("accept", l("Accept", "Đồng ý", "同意")),
        ("decline", l("Decline", "Từ chối", "拒绝")),
        (
            "confirm_resign",
            l("Resign this game?", "Xin thua ván này?", "确定认输吗？"),
        ),
        ("draw_offered", l("Draw offered", "Đề nghị hòa", "对方提和")),
        (
            "takeback_asked",
            l("Takeback asked", "Xin đi lại", "请求悔棋"),
        ),
        ("first", l("Start", "Đầu ván", "开局")),
        ("prev", l("Back", "Lùi", "后退")),
        ("next", l("Forward", "Tiến", "前进")),
        ("last", l("End", "Cuối ván", "终局")),
        ("pgn", l("Download PGN", "Tải PGN", "下载 PGN")),
        ("gif", l("Replay as GIF", "Xem lại (GIF)", "回放 GIF")),
        ("eval", l("Evaluation", "Đánh giá", "评估")),
        ("point", l("point", "điểm", "点")),
        ("empty", l("empty", "trống", "空")),
        ("board", l("Xiangqi board", "Bàn cờ tướng", "象棋棋盘")),
        ("K", l("general", "tướng", "将")),
        ("A", l("advisor", "sĩ", "士")),
        ("B", l("elephant", "tượng", "象")),
        ("N", l("horse", "mã", "马")),
        ("R", l("chariot", "xe", "车")),
        ("C", l("cannon", "pháo", "炮")),
        ("P", l("soldier", "tốt", "兵")),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_has_every_label_and_none_is_empty() {
        let en: Vec<&str> = labels(Lang::En).iter().map(|(k, _)| *k).collect();
        for lang in [Lang::En, Lang::Vi, Lang::Zh] {
            let l = labels(lang);
            assert_eq!(l.iter().map(|(k, _)| *k).collect::<Vec<_>>(), en);
            assert!(l.iter().all(|(_, v)| !v.trim().is_empty()));
        }
        let link = WebMsg::PlayLink {
            game: 3,
            url: "https://x/p/1".into(),
        };
        for lang in [Lang::En, Lang::Vi, Lang::Zh] {
            assert!(text(&link, lang).contains("https://x/p/1"));
        }
    }
}
