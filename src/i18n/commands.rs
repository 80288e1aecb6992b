//! One-line summaries of the chat commands, for the menus platforms show while typing `/`
//! (Telegram's `setMyCommands`, slash-command descriptions). Each is at most 100 characters,
//! the tightest limit among the platforms.

use super::Lang;

/// The summary of command `name` (without the slash) in `lang`; `None` for an unknown name.
#[must_use]
pub fn command_summary(name: &str, lang: Lang) -> Option<&'static str> {
    let (vi, en, zh) = match name {
        "play" => (
            "Thách đấu: /play @người [thời gian] [luật] [màu] [rated]",
            "Challenge someone: /play @user [time] [rules] [colour] [rated]",
            "发起挑战：/play @用户 [用时] [规则] [执子] [rated]",
        ),
        "accept" => (
            "Nhận lời thách đấu (hoặc lời cầu hòa, xin đi lại)",
            "Accept a challenge (or a draw or takeback offer)",
            "接受挑战（或和棋、悔棋请求）",
        ),
        "decline" => (
            "Từ chối lời thách đấu hoặc đề nghị",
            "Decline a challenge or an offer",
            "拒绝挑战或请求",
        ),
        "cancel" => (
            "Rút lại lời thách đấu của bạn",
            "Withdraw your challenge",
            "撤回你的挑战",
        ),
        "move" => (
            "Đi một nước, ký hiệu nào cũng được: h2e2, C2.5, 炮二平五, P2-5",
            "Play a move in any notation: h2e2, C2.5, 炮二平五, P2-5",
            "走一步棋，任何记谱法均可：h2e2、C2.5、炮二平五、P2-5",
        ),
        "resign" => ("Xin thua", "Resign the game", "认输，结束本局"),
        "draw" => (
            "Cầu hòa, nhận hòa hoặc đòi xử hòa",
            "Offer, accept or claim a draw",
            "提和、同意和棋或申请判和",
        ),
        "takeback" => (
            "Xin đi lại nước vừa đi",
            "Ask to take back your last move",
            "请求悔棋",
        ),
        "claim" => (
            "Ván không tính giờ: xử thắng khi đối thủ bỏ đi (/claim end: kết thúc)",
            "Untimed game: win when your opponent stopped moving (/claim end: end it)",
            "不计时对局：对手长时间不走时判胜（/claim end：结束本局）",
        ),
        "abort" => (
            "Hủy ván khi hai bên chưa cùng đi",
            "Abort before both sides have moved",
            "双方都走棋之前取消对局",
        ),
        "board" => (
            "Xem bàn cờ (hoặc /board N khi có nhiều ván)",
            "Show the board (/board N: one of several games here)",
            "显示棋盘（多盘同时进行时用 /board N）",
        ),
        "flip" => (
            "Xem bàn cờ theo chiều ngược lại",
            "The board the other way round",
            "翻转显示棋盘",
        ),
        "moves" => ("Các nước đi hợp lệ", "List the legal moves", "列出合法着法"),
        "fen" => ("Thế cờ dạng FEN", "The position as FEN", "当前局面的 FEN"),
        "pgn" => (
            "Biên bản ván cờ (PGN)",
            "The game record (PGN)",
            "棋谱（PGN）",
        ),
        "gif" => (
            "Xem lại ván cờ dạng ảnh động",
            "An animated replay",
            "对局动画回放",
        ),
        "why" => (
            "Giải thích phán quyết, lời từ chối hoặc cảnh báo gần nhất",
            "Explain the last ruling, refusal or warning",
            "解释最近的裁决、拒绝或警告",
        ),
        "rules" => (
            "Luật cờ: /rules [chủ đề]",
            "The rulebook: /rules [topic]",
            "规则手册：/rules [主题]",
        ),
        "ruleset" => (
            "Bộ luật cho ván mới ở đây: official, asian, vietnam, cxq, casual",
            "Rules for new games here: official, asian, vietnam, cxq, casual",
            "此处新对局的规则：official、asian、vietnam、cxq、casual",
        ),
        "notation" => (
            "Ký hiệu của bạn: iccs, wxf, chinese, vietnamese",
            "Your notation: iccs, wxf, chinese, vietnamese",
            "你的记谱法：iccs、wxf、chinese、vietnamese",
        ),
        "lang" => (
            "Ngôn ngữ ở đây: vi, en, zh",
            "Language here: vi, en, zh",
            "此处的语言：vi、en、zh",
        ),
        "takebacks" => (
            "Cho phép đi lại ở đây: on hoặc off",
            "Allow takebacks here: on or off",
            "此处是否允许悔棋：on 或 off",
        ),
        "time" => ("Xem đồng hồ", "Show the clocks", "显示棋钟"),
        "hint" => (
            "Gợi ý: nước hay nhất cho bạn, vẽ mũi tên trên bàn cờ",
            "The engine's best move for you, as an arrow",
            "提示：引擎为你找出的最佳着法，在棋盘上画出箭头",
        ),
        "hints" => (
            "Cho phép gợi ý trong ván giữa người với người: on hoặc off",
            "Allow hints in games between people here: on or off",
            "此处真人对局是否允许提示：on 或 off",
        ),
        "review" => (
            "Phân tích ván vừa xong (hoặc /review N): độ chính xác, nước sai, biểu đồ",
            "Review the last game (or /review N): accuracy, mistakes",
            "复盘刚结束的对局（或 /review N）：准确率、失误、形势图",
        ),
        "web" => (
            "Liên kết riêng để chơi ván của bạn trên bàn cờ web",
            "Your link to play on the web board",
            "在网页棋盘上下你这盘棋的私人链接",
        ),
        "watch" => (
            "Liên kết để mọi người xem trực tiếp các ván ở đây",
            "A link to watch the games here live",
            "任何人都能打开、观看这里对局直播的链接",
        ),
        "puzzle" => (
            "Bài tập: /puzzle [chủ đề|độ khó], next, hint, solution, stats, daily on|off",
            "A puzzle: /puzzle [theme|difficulty], next, hint, solution, stats, daily on|off",
            "习题：/puzzle [主题|难度]、next、hint、solution、stats、daily on|off",
        ),
        "tournament" => (
            "Giải đấu của nhóm: /tournament swiss|arena|robin, join, leave, standings, pairings",
            "The chat's tournament: /tournament swiss|arena|robin, join, leave, standings, pairings",
            "本群比赛：/tournament swiss|arena|robin、join、leave、standings、pairings",
        ),
        "games" => ("Các ván của bạn", "Your games", "你的对局"),
        "rating" => (
            "Điểm xếp hạng và biểu đồ: /rating [@người] [thể loại]",
            "Ratings and their graph: /rating [@user] [family]",
            "等级分及走势图：/rating [@用户] [类别]",
        ),
        "top" => (
            "Bảng xếp hạng ở đây: /top [thể loại] [trang] [global]",
            "Leaderboard here: /top [family] [page] [global]",
            "本群排行榜：/top [类别] [页码] [global]",
        ),
        "stats" => (
            "Thống kê thắng/hòa/thua: /stats [@người] [@đối thủ]",
            "Win/draw/loss statistics: /stats [@user] [@opponent]",
            "胜和负统计：/stats [@用户] [@对手]",
        ),
        "help" => ("Danh sách lệnh", "All commands", "全部命令"),
        "about" => (
            "Phiên bản, các văn bản luật mà trọng tài theo, mã nguồn",
            "Version, rule documents, source",
            "版本、裁判依据的规则文献、源代码",
        ),
        _ => return None,
    };
    Some(match lang {
        Lang::Vi => vi,
        Lang::En => en,
        Lang::Zh => zh,
    })
}

/// The description of argument `arg` of command `command` in `lang` (Discord shows it under
/// the option); `None` for an unknown one.
#[must_use]
pub fn argument_summary(command: &str, arg: &str, lang: Lang) -> Option<&'static str> {
    let (vi, en, zh) = match (command, arg) {
        ("play", "opponent") => ("Đấu với ai (bỏ trống: bất kỳ ai)", "Who to play (empty: anyone)", "对手（留空：任何人）"),
        ("play", "time") => ("Đồng hồ: none, 10+5, 20m/1m, 10m+3x30s, 1d", "Clock: none, 10+5, 20m/1m, 10m+3x30s, 1d", "时限：none、10+5、20m/1m、10m+3x30s、1d"),
        ("play", "ruleset") => ("Luật (mặc định: của kênh)", "The rules (default: the channel's)", "规则（默认：本频道的）"),
        ("play", "color") => ("Bên của bạn", "Your side", "你执哪方"),
        ("play", "thread") => ("Chơi trong một luồng mới của kênh này", "Play in a new thread of this channel", "在本频道的新子区中对局"),
        ("play", "fen") => ("Bắt đầu từ thế cờ này (FEN)", "Start from this position (FEN board and side)", "从此局面开始（FEN）"),
        ("play", "rated") => ("Ván tính điểm (cần đồng hồ; nhận lời là đồng ý)", "A rated game (needs a clock; accepting it is the agreement)", "等级分对局（需要棋钟；接受即同意）"),
        ("play", "level") => ("Chơi với máy ở cấp này, 1 (dễ nhất) đến 8", "Play the bot at this level, 1 (easiest) to 8", "与电脑对弈，等级 1（最易）到 8"),
        ("move", "move") => ("Nước đi: h2e2, C2.5, 炮二平五, P2-5", "Your move: h2e2, C2.5, 炮二平五, P2-5", "着法：h2e2、C2.5、炮二平五、P2-5"),
        ("claim", "outcome") => ("Được xử thắng (mặc định), hoặc kết thúc ván không tính kết quả", "Win the game (default), or end it without a result", "判胜（默认），或结束本局不计结果"),
        ("rules", "topic") => ("Một quân, luật hoặc bộ luật", "A piece, rule or ruleset", "棋子、规则或规则集"),
        ("ruleset", "name") => ("Bộ luật cho các ván mới", "The ruleset for new games", "新对局的规则"),
        ("notation", "name") => ("Cách ghi nước đi của bạn", "How your moves are written", "你的记谱法"),
        ("lang", "language") => ("Ngôn ngữ của kênh", "The channel's language", "本频道的语言"),
        ("takebacks", "allow") => ("Cho phép đi lại trong ván mới", "Allow takebacks in new games", "新对局是否允许悔棋"),
        ("hints", "allow") => ("Cho phép gợi ý trong ván giữa người với người", "Allow hints in games between people", "真人对局是否允许提示"),
        ("board" | "flip", "game") => ("Số ván, khi ở đây có nhiều ván", "The game's number, when several are played here", "对局编号（这里有多盘对局时）"),
        ("review", "game") => ("Số ván (/games); bỏ trống là ván vừa xong", "The game's number (/games); the last one if left out", "对局编号（/games）；不填则为最近一局"),
        ("puzzle", "what") => ("Chủ đề/độ khó (chieuhet, xe, kho, 1500), nước đi, hoặc next, hint, solution, stats, daily on|off", "A theme or level (mate, chariot, hard, 1500), a move, or next, hint, solution, stats, daily on|off", "主题或难度（杀、车、困难、1500）、着法，或 next、hint、solution、stats、daily on|off"),
        ("puzzle", "player") => ("Thống kê giải bài của ai (với stats)", "Whose puzzle statistics (with stats)", "谁的解题统计（配合 stats）"),
        ("tournament", "join") => ("Tham gia giải đấu của nhóm", "Enter the chat's tournament", "报名参加本群比赛"),
        ("tournament", "leave") => ("Rời giải (sau khi bắt đầu: rút khỏi giải)", "Leave it (after the start: withdraw)", "退出比赛（开始后即弃权）"),
        ("tournament", "standings") => ("Bảng xếp hạng của giải", "The tournament's table", "比赛排名"),
        ("tournament", "pairings") => ("Các ván đang chơi", "The games being played", "正在进行的对局"),
        ("tournament", "pause") => ("Tạm nghỉ đến khi tham gia lại", "Sit out until you join again", "暂停，直到再次报名"),
        ("tournament", "withdraw") => ("Rút hẳn khỏi giải", "Leave it for good", "彻底退出比赛"),
        ("tournament", "berserk") => ("Liều mạng: nửa thời gian, thắng thêm một điểm (đấu trường)", "Half your clock, a point more for a win (arena)", "狂暴：用时减半，赢棋多得1分（竞技场）"),
        ("tournament", "swiss") => ("Tạo giải hệ Thụy Sĩ (quản trị viên)", "Make a Swiss event (administrators)", "创建积分编排制比赛（管理员）"),
        ("tournament", "arena") => ("Tạo giải đấu trường (quản trị viên)", "Make an arena (administrators)", "创建竞技场比赛（管理员）"),
        ("tournament", "robin") => ("Tạo giải vòng tròn (quản trị viên)", "Make a round robin (administrators)", "创建循环赛（管理员）"),
        ("tournament", "start") => ("Bắt đầu giải ngay (quản trị viên)", "Start it now (administrators)", "立即开始比赛（管理员）"),
        ("tournament", "cancel") => ("Hủy giải (quản trị viên)", "Call it off (administrators)", "取消比赛（管理员）"),
        ("tournament", "rounds") => ("Số vòng (mặc định 5)", "Rounds (default 5)", "轮数（默认5）"),
        ("tournament", "minutes") => ("Số phút (mặc định 60)", "Minutes (default 60)", "分钟数（默认60）"),
        ("tournament", "double") => ("Hai lượt, đổi màu ở lượt sau", "Twice, colours swapped the second time", "双循环，第二循环交换先后手"),
        ("tournament", "time") => ("Đồng hồ mỗi ván: 3+2, 10+5", "Each game's clock: 3+2, 10+5", "每局时限：3+2、10+5"),
        ("tournament", "ruleset") => ("Luật các ván (mặc định: của kênh)", "The games' rules (default: the channel's)", "对局规则（默认：本频道的）"),
        ("tournament", "rated") => ("Các ván tính điểm", "Rated games", "对局计等级分"),
        ("tournament", "max") => ("Số kỳ thủ tối đa", "The most players", "最多人数"),
        ("tournament", "min") => ("Điểm tối thiểu để tham gia", "The lowest rating that may join", "报名所需最低等级分"),
        ("tournament", "in") => ("Bắt đầu sau chừng này phút", "Start by itself in this many minutes", "多少分钟后自动开始"),
        ("tournament", "venue") => ("Mỗi ván trong luồng (chủ đề) riêng, hay cùng trong kênh", "Each game in a thread (topic) of its own, or side by side in the chat", "每局在单独的子区（话题）中，还是都在本群"),
        ("tournament", "every") => ("Các vòng cách nhau ít nhất chừng này phút", "Rounds at least this many minutes apart", "每轮至少间隔多少分钟"),
        ("rating", "player") => ("Điểm của ai (bỏ trống: của bạn)", "Whose ratings (empty: yours)", "谁的等级分（留空：你的）"),
        ("rating", "family") => ("Thể loại cho biểu đồ", "The graph's time control", "走势图的时限类别"),
        ("top", "family") => ("Thể loại (mặc định: ván gần nhất ở đây)", "Time control (default: the last played here)", "时限类别（默认：本服务器最近的）"),
        ("top", "page") => ("Trang (10 người một trang)", "Page (10 players a page)", "页码（每页 10 人）"),
        ("top", "scope") => ("Máy chủ này hoặc toàn Discord", "This server or all of Discord", "本服务器或 Discord 全平台"),
        ("stats", "player") => ("Thống kê của ai (bỏ trống: của bạn)", "Whose statistics (empty: yours)", "谁的统计（留空：你的）"),
        ("stats", "opponent") => ("Đối đầu với người này", "Head to head against this player", "与此人的交手记录"),
        _ => return None,
    };
    Some(match lang {
        Lang::Vi => vi,
        Lang::En => en,
        Lang::Zh => zh,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::Cmd;

    #[test]
    fn every_command_has_a_short_summary_in_every_language() {
        for (_, name) in Cmd::ALL {
            let all: Vec<&str> = Lang::ALL
                .iter()
                .map(|&l| command_summary(name, l).unwrap_or_default())
                .collect();
            for (s, l) in all.iter().zip(Lang::ALL) {
                assert!(
                    !s.is_empty() && s.chars().count() <= 100,
                    "/{name} in {l}: {s:?}"
                );
            }
            assert!(all[0] != all[1] && all[1] != all[2], "/{name}: {all:?}");
            crate::i18n::lint::assert_zh_punctuation(all[2], name);
        }
        assert_eq!(command_summary("nope", Lang::En), None);
    }
}
