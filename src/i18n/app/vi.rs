//! Tiếng Việt.

use super::{GameState, Label, Msg};
use crate::i18n::{side_name, with_iccs, Lang};

pub(super) fn text(m: &Msg) -> String {
    match m {
        Msg::Help { commands, top } => format!("Máy cờ tướng — các lệnh:
{commands}
Thời gian: none, 10+5, 20m/1m, 10m+3x30s, 1d (ván tính điểm cần đồng hồ). /play bot [cấp 1-{top}]: chơi ngay với máy. Đến lượt thì cứ gõ thẳng nước đi: P2-5, M8.7, h2e2, 炮二平五."),
        Msg::UnknownCommand { cmd } => format!("Tôi không biết lệnh {cmd}. Gõ /help để xem danh sách lệnh."),
        Msg::TooLong { max } => format!("Tin nhắn quá dài (hơn {max} ký tự). Hãy gửi ngắn hơn."),
        Msg::RateLimited { secs } => format!("Bạn gửi lệnh quá nhanh. Đợi {secs} giây rồi thử lại."),
        Msg::StorageFailure => "Xin lỗi, tôi không lưu được nên chưa thay đổi gì. Hãy thử lại.".into(),
        Msg::NoGame => "Kênh này chưa có ván nào. Bắt đầu bằng /play @người_chơi (hoặc /play để thách bất kỳ ai).".into(),
        Msg::NotYourGame { red, black } => format!("Ván này giữa {red} (Đỏ) và {black} (Đen); chỉ hai người chơi này mới đi quân và dùng lệnh của ván được. Muốn chơi, hãy mở ván của bạn bằng /play."),
        Msg::NotYourTurn { player } => format!("Chưa đến lượt bạn: {player} đang đi. Hãy chờ họ đi xong."),
        Msg::GameInProgress { red, black } => format!("Bạn đang chơi ở đây: {red} (Đỏ) gặp {black} (Đen). Mỗi người chỉ chơi một ván một lúc trong một nhóm: hãy chơi xong ván đó trước."),
        Msg::ChallengePending { challenger } => format!("Lời thách của {challenger} đang chờ. Trả lời bằng /accept hoặc /decline, hoặc {challenger} có thể /cancel."),
        Msg::ChallengeSelf => "Bạn không thể thách đấu chính mình. Hãy gọi tên người khác, hoặc gõ /play để thách bất kỳ ai.".into(),
        Msg::ChallengeCreated { challenger, opponent, time_control, ruleset, color, minutes } => {
            let who = opponent.as_deref().map_or_else(|| "bất kỳ ai".to_string(), |o| o.to_string());
            format!("{challenger} thách đấu {who}: {time_control}, {ruleset}, {challenger} cầm quân {color}. Trả lời bằng /accept hoặc /decline trong {minutes} phút.")
        }
        Msg::BadPlayArgument { word } => format!("Tôi không hiểu “{word}” trong lệnh /play. Cách dùng: /play [@người] [thời gian như 10+5] [official|asian|vietnam|cxq|casual] [red|black|random]."),
        Msg::NoChallenge => "Ở đây không có lời thách nào để trả lời. Hãy bắt đầu bằng /play.".into(),
        Msg::ChallengeNotForYou { opponent } => format!("Lời thách này dành cho {opponent}, không phải bạn."),
        Msg::OwnChallenge => "Đây là lời thách của chính bạn; hãy chờ người khác nhận, hoặc /cancel để rút.".into(),
        Msg::NotYourChallenge => "Chỉ người ra lời thách mới rút được lời thách.".into(),
        Msg::ChallengeDeclined { by } => format!("{by} đã từ chối lời thách."),
        Msg::ChallengeCancelled => "Lời thách đã được rút.".into(),
        Msg::ChallengeExpired { challenger } => format!("Lời thách của {challenger} không ai nhận kịp và đã hết hạn."),
        Msg::GameStarted { red, black, time_control, ruleset, id } => format!("Ván #{id} bắt đầu: {red} (Đỏ) gặp {black} (Đen), {time_control}, {ruleset}."),
        Msg::Moved { ply, player, text, iccs } => format!("{ply}. {player}: {}", with_iccs(text, iccs, Lang::Vi)),
        Msg::ToMove { player, color } => format!("Đến lượt {player} ({color})."),
        Msg::Check { player } => format!("Chiếu! Tướng của {player} đang bị chiếu."),
        Msg::Clocks { red, black } => format!("⏱ Đỏ {red} · Đen {black}"),
        Msg::NoClock => "Ván này không tính giờ.".into(),
        Msg::GameOver { score, headline } => format!("Hết ván: {headline} ({score})."),
        Msg::Resigned { player } => format!("{player} xin thua"),
        Msg::DrawAgreed => "hai bên đồng ý".into(),
        Msg::TimeForfeit { player } => format!("{player} hết giờ"),
        Msg::TimeWarning { player, left } => format!("⏰ {player}, đồng hồ của bạn chỉ còn {left}."),
        Msg::DrawOffered { by, to } => format!("{by} cầu hòa. {to}, gõ /draw để đồng ý hoặc /decline để từ chối."),
        Msg::DrawAlreadyOffered => "Bạn đã cầu hòa rồi; lời đề nghị còn hiệu lực cho đến khi đối thủ trả lời hoặc đi quân.".into(),
        Msg::DrawDeclined { by } => format!("{by} từ chối hòa."),
        Msg::NoDrawOffer => "Không có lời cầu hòa nào để trả lời.".into(),
        Msg::OwnDrawOffer { to } => format!("Đây là lời cầu hòa của chính bạn: chỉ {to} mới trả lời được. Lời cầu hòa còn hiệu lực cho đến khi {to} trả lời hoặc đi quân."),
        Msg::OwnTakeback { to } => format!("Đây là lời xin đi lại của chính bạn: chỉ {to} mới trả lời được."),
        Msg::IdleWarning { absent, waiting, idle, left } => format!("⏰ {absent}, đến lượt bạn và bạn đã không đi quân {idle}. Nếu không đi trong {left} nữa, {waiting} có thể xin xử ván này."),
        Msg::IdleClaimable { absent, waiting, idle } => format!("{absent} đã không đi quân {idle}. {waiting}, giờ bạn có thể gõ /claim để được xử thắng, hoặc /claim end để kết thúc ván không tính kết quả; nếu {absent} đi trước đó thì ván tiếp tục bình thường."),
        Msg::Abandoned { player } => format!("{player} bỏ ván"),
        Msg::ClaimTooEarly { absent, left } => format!("{absent} vẫn còn {left} để đi trước khi bạn có thể xin xử ván."),
        Msg::ClaimOwnMove => "Đang đến lượt bạn đi, nên chưa có gì để xin xử.".into(),
        Msg::ClaimTimed => "Ván này có đồng hồ: nếu đối thủ không đi, họ sẽ hết giờ và bạn thắng. /claim chỉ dành cho ván không tính giờ.".into(),
        Msg::ClaimEnded { by, absent } => format!("{by} đã kết thúc ván không tính kết quả vì {absent} không đi quân nữa."),
        Msg::BadClaim { word } => format!("Tôi không hiểu “{word}” trong lệnh /claim. Gõ /claim để được xử thắng, hoặc /claim end để kết thúc ván không tính kết quả."),
        Msg::DrawClaimTooEarly { counted, needed } => format!("Chỉ được xin xử hòa khi đã đủ {needed} nước không ăn quân; hiện mới tính được {counted}. Bạn vẫn có thể cầu hòa bằng /draw."),
        Msg::TakebacksDisabled => "Kênh này không cho đi lại. Người được đổi cài đặt của kênh có thể bật cho các ván sau bằng /takebacks on.".into(),
        Msg::TakebackRequested { by, to } => format!("{by} xin đi lại một nước. {to}, gõ /takeback để đồng ý hoặc /decline để từ chối."),
        Msg::TakebackDone { plies } => format!("Đã đi lại ({plies} nước)."),
        Msg::TakebackDeclined { by } => format!("{by} không đồng ý cho đi lại."),
        Msg::NothingToTakeBack => "Chưa có nước nào để đi lại.".into(),
        Msg::Aborted => "Ván cờ đã bị hủy, không tính kết quả.".into(),
        Msg::AbortTooLate => "Cả hai bên đã đi quân nên không hủy ván được nữa. Bạn có thể xin thua bằng /resign hoặc cầu hòa bằng /draw.".into(),
        Msg::GameIsOver => "Ván đó đã kết thúc. Bắt đầu ván mới bằng /play.".into(),
        Msg::BoardCaption { red, black, ply } => format!("{red} (Đỏ) gặp {black} (Đen), sau {ply} nước"),
        Msg::LegalMoves { count, list } => format!("{count} nước đi hợp lệ: {list}"),
        Msg::NothingToExplain => "Ở đây chưa có phán quyết, từ chối hay cảnh báo nào để giải thích.".into(),
        Msg::RulesetIs { name, code } => format!("Các ván mới ở đây chơi theo {name}. Đổi bằng /ruleset official|asian|vietnam|cxq|casual; /rules {code} giải thích chi tiết."),
        Msg::RulesetSet { name, game_running } => {
            if *game_running {
                format!("Các ván mới ở đây sẽ dùng {name}; ván đang chơi vẫn giữ luật cũ.")
            } else {
                format!("Các ván mới ở đây sẽ dùng {name}.")
            }
        }
        Msg::UnknownRuleset { name } => format!("Không có bộ luật “{name}”. Hãy chọn official, asian, vietnam, cxq hoặc casual."),
        Msg::NotationIs { name, example } => format!("Nước đi của bạn được đọc và hiển thị theo ký hiệu {name} (ví dụ {example}). Đổi bằng /notation iccs|wxf|chinese|vietnamese."),
        Msg::UnknownNotation { name } => format!("Không có ký hiệu “{name}”. Hãy chọn iccs, wxf, chinese hoặc vietnamese."),
        Msg::LangIs => "Kênh này đang dùng tiếng Việt. Đổi bằng /lang vi|en|zh.".into(),
        Msg::UnknownLang { name } => format!("Tôi không biết ngôn ngữ “{name}”. Hãy chọn vi, en hoặc zh."),
        Msg::TakebacksSet { on } => if *on { "Từ giờ các ván mới ở đây được phép đi lại.".into() } else { "Từ giờ các ván mới ở đây không được đi lại.".into() },
        Msg::GamesList { lines } => format!("Các ván của bạn:\n{}", lines.join("\n")),
        Msg::GameLine { id, opponent, side, plies, state, here } => {
            let state = match state {
                GameState::Playing => "đang chơi",
                GameState::Aborted => "đã hủy",
                GameState::Won => "bạn thắng",
                GameState::Lost => "bạn thua",
                GameState::Drawn => "hòa",
            };
            let place = if *here { "ở kênh này" } else { "ở kênh khác" };
            format!("#{id} gặp {opponent} — bạn cầm quân {} — {plies} nước — {state} ({place})", side_name(*side, Lang::Vi))
        }
        Msg::NoGames => "Bạn chưa có ván nào. Bắt đầu bằng /play.".into(),
        Msg::StaleButton => "Nút này thuộc về thế cờ cũ; hãy dùng tin nhắn mới nhất.".into(),
        Msg::NotYourButton => "Nút này chỉ dành cho người chơi của ván.".into(),
        Msg::ButtonForSomeoneElse => "Nút này dành cho người khác, không phải bạn.".into(),
        Msg::PickPiece { player } => format!("{player}, chọn quân muốn đi:"),
        Msg::PickTarget { player, piece } => format!("{player}: đi {piece} đến đâu?"),
        Msg::ConfirmResign => "Bạn thật sự muốn xin thua?".into(),
        Msg::Label(l) => label(*l).into(),
        Msg::PgnCaption => "Biên bản ván cờ (PGN):".into(),
        Msg::GifCaption { plies } => format!("Xem lại ván cờ ({plies} nước)"),
        Msg::NotAMove { detail } => detail.clone(),
        Msg::BotName { level } => format!("Máy cấp {level}"),
        Msg::BadBotLevel { text, top } => format!("Máy chơi ở cấp 1 đến {top}, không có cấp “{text}”. Ví dụ: /play bot 10 red"),
        Msg::BotStrength { level, top, rating } => format!("Máy chơi ở cấp {level} trên {top}: khoảng {rating} điểm theo thang điểm của người chơi, nơi người mới bắt đầu từ 1500 (ước tính từ các ván máy đấu với máy)."),
        Msg::TooManyBotGames { max } => format!("Bạn đang chơi với máy {max} ván cùng lúc, mức tối đa. Hãy kết thúc hoặc xin thua một ván trước."),
        Msg::About { version, documents, source } => {
            let source = source.as_deref().map_or_else(String::new, |s| format!("\nMã nguồn: {s}"));
            format!("xiangqi-bot {version}, máy chơi cờ tướng trong trò chuyện. Trọng tài xử theo các văn bản luật sau:\n{documents}\nGõ /rules để xem luật, và /why sau một phán quyết để biết lý do.{source}")
        }
        Msg::WhichGame { games } => format!("Ở đây đang có nhiều ván:\n{games}\nHãy nói rõ ván nào: /board 12."),
        Msg::GameLabel { id } => format!("Ván #{id}"),
        Msg::PlayerBusy { name, id } => format!("{name} đang chơi ván #{id} ở đây. Mỗi người chỉ chơi một ván một lúc trong một nhóm: hãy chờ ván đó kết thúc."),
        Msg::QueueFull => "Ở đây đang có quá nhiều yêu cầu cùng lúc nên tôi đã bỏ qua vài câu trả lời. Bạn hãy hỏi lại sau giây lát.".into(),
        Msg::AdminsOnly { discord, slash } => {
            let who = if *discord { "Chỉ thành viên có quyền quản lý kênh này mới đổi được cài đặt của kênh." } else { "Chỉ quản trị viên của nhóm mới đổi được cài đặt của nhóm." };
            match slash {
                Some(cmd) => format!("{who} Lệnh gõ tay không cho biết quyền của bạn trong máy chủ: hãy dùng lệnh gạch chéo {cmd}."),
                None => who.to_string(),
            }
        }
        Msg::BotUnavailable => "Hiện không chơi với máy được ở đây. Hãy thách đấu một người bằng /play.".into(),
        Msg::BadTimeControl { text } => format!("Tôi không đọc được thời gian “{text}”. Dùng none, 10+5 (phút + giây), 20m/1m, 10m+3x30s hoặc 1d."),
        Msg::BadStart { detail } => format!("Không chơi được từ thế cờ này: {detail}"),
        Msg::Raw(s) => s.clone(),
    }
}

fn label(l: Label) -> &'static str {
    match l {
        Label::Accept => "Nhận",
        Label::Decline => "Từ chối",
        Label::Resign => "Xin thua",
        Label::ConfirmResign => "Đồng ý xin thua",
        Label::KeepPlaying => "Chơi tiếp",
        Label::Draw => "Cầu hòa",
        Label::AcceptDraw => "Đồng ý hòa",
        Label::DeclineOffer => "Từ chối",
        Label::AcceptTakeback => "Cho đi lại",
        Label::Flip => "Lật bàn cờ",
        Label::WebBoard => "Mở bàn cờ",
        Label::PickMove => "Chọn nước đi",
        Label::Back => "Quay lại",
        Label::Rematch => "Chơi lại",
        Label::PlayBot => "Chơi với máy",
    }
}
