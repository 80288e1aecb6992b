//! Tiếng Việt.

use super::{TourLabel, TourMsg};

pub(super) fn text(m: &TourMsg) -> String {
    match m {
        TourMsg::Created { id, format, terms, organiser, starts } => {
            let when = match starts {
                Some(s) => format!("Giải bắt đầu {s}."),
                None => format!("{organiser} bắt đầu giải bằng /tournament start."),
            };
            format!("🏆 Giải đấu #{id}: {format}; {terms}. Người tổ chức: {organiser}. Đăng ký bằng nút bấm hoặc /tournament join. {when}")
        }
        TourMsg::Joined { name, id, players, count } => format!("{name} tham gia giải #{id}. Kỳ thủ ({count}): {players}."),
        TourMsg::Left { name, id, count } => format!("{name} rời giải #{id} (còn {count} kỳ thủ)."),
        TourMsg::Paused { name } => format!("{name} tạm nghỉ và sẽ không được xếp cặp cho đến khi gõ lại /tournament join."),
        TourMsg::Withdrawn { name } => format!("{name} rút khỏi giải; các kết quả đã có vẫn được giữ."),
        TourMsg::NoPauseInRobin => "Lịch đấu vòng tròn đã cố định nên không thể tạm nghỉ; /tournament withdraw để rút hẳn khỏi giải.".into(),
        TourMsg::AlreadyIn => "Bạn đã ở trong giải này rồi.".into(),
        TourMsg::NotIn => "Bạn không ở trong giải này.".into(),
        TourMsg::Full { max } => format!("Giải đã đủ người ({max} kỳ thủ)."),
        TourMsg::RatingTooLow { need, have } => format!("Giải này dành cho kỳ thủ có điểm từ {need} trở lên; điểm của bạn là {have}."),
        TourMsg::FinishYourGame { game } => format!("Hãy chơi xong ván #{game} của bạn ở đây trước rồi hãy đăng ký."),
        TourMsg::EntriesClosed => "Giải này không nhận thêm người.".into(),
        TourMsg::NoTournament => "Nhóm này chưa có giải đấu nào. Quản trị viên tạo giải bằng /tournament swiss, /tournament arena hoặc /tournament robin.".into(),
        TourMsg::AlreadyOne { id } => format!("Nhóm này đang có giải #{id}; mỗi lúc chỉ một giải. /tournament cancel để hủy giải."),
        TourMsg::OrganisersOnly { discord: true } => "Chỉ thành viên có quyền quản lý máy chủ này mới tạo, bắt đầu và hủy giải đấu; ai cũng có thể tham gia.".into(),
        TourMsg::OrganisersOnly { discord: false } => "Chỉ quản trị viên của nhóm mới tạo, bắt đầu và hủy giải đấu; ai cũng có thể tham gia.".into(),
        TourMsg::NotInPrivate => "Giải đấu được tổ chức trong nhóm và máy chủ, không phải trong trò chuyện riêng.".into(),
        TourMsg::NeedsClock => "Giải đấu cần có đồng hồ: thêm thời gian như 5+3 hoặc 10+5.".into(),
        TourMsg::BadWord { word } => format!("Tôi không hiểu “{word}” trong lệnh /tournament. Cách dùng: /tournament swiss|arena|robin [rounds N | minutes M] [thời gian như 5+3] [bộ luật] [rated] [max N] [min ĐIỂM] [in PHÚT], hoặc /tournament join|leave|start|pause|withdraw|berserk|cancel|standings|pairings."),
        TourMsg::TooFew { need } => format!("Cần ít nhất {need} kỳ thủ để bắt đầu."),
        TourMsg::OutOfRange { what, min, max } => format!("{what} phải từ {min} đến {max}."),
        TourMsg::AlreadyStarted => "Giải này đã bắt đầu rồi.".into(),
        TourMsg::Started { id, format, count, ends } => {
            let end = ends.as_ref().map_or_else(String::new, |e| format!(" Giải kết thúc {e}."));
            format!("🏆 Giải đấu #{id} bắt đầu: {format}, {count} kỳ thủ.{end}")
        }
        TourMsg::Round { id, round, of, lines } => format!("Giải #{id}, vòng {round}/{of}:\n{lines}"),
        TourMsg::PairingLine { game, red, black } => format!("Ván #{game}: {red} (Đỏ) – {black} (Đen)"),
        TourMsg::ResultLine { red, score, black } => format!("{red} {score} {black}"),
        TourMsg::ByeLine { name, point: true } => format!("{name}: được miễn đấu (1 điểm)"),
        TourMsg::ByeLine { name, point: false } => format!("{name} nghỉ vòng này"),
        TourMsg::GameOf { id, round: Some(r) } => format!("Giải #{id}, vòng {r}"),
        TourMsg::GameOf { id, round: None } => format!("Giải #{id}"),
        TourMsg::VenueName { round: Some(r), red, black, .. } => format!("Vòng {r}: {red} – {black}"),
        TourMsg::VenueName { id, round: None, red, black } => format!("Giải #{id}: {red} – {black}"),
        TourMsg::PlayedIn { game, red, black, link } => format!("Ván #{game}, {red} – {black}, đấu tại {link}"),
        TourMsg::BoardsOnAsk { games } => format!("{games} ván bắt đầu. Bên Đỏ đi trước: hãy gõ nước đi (hoặc /board để xem ván của bạn); đồng hồ đang chạy."),
        TourMsg::NextRound { id, round, when } => format!("Giải #{id}: vòng {round} bắt đầu {when}."),
        TourMsg::ArenaTop { id, top } => format!("Giải #{id}, dẫn đầu: {top}"),
        TourMsg::TimeUp { id, playing: 0 } => format!("Giải #{id}: đã hết giờ."),
        TourMsg::TimeUp { id, playing } => format!("Giải #{id}: đã hết giờ. Không xếp cặp thêm; {playing} ván đang chơi vẫn được tính."),
        TourMsg::Over { id, winner, podium, table } => format!("🏆 Giải #{id} kết thúc: {winner} vô địch. Chúc mừng {podium}!\n{table}"),
        TourMsg::Cancelled { id, ended: 0 } => format!("Giải #{id} đã bị hủy."),
        TourMsg::Cancelled { id, ended } => format!("Giải #{id} đã bị hủy; {ended} ván đang chơi kết thúc không có kết quả và không tính điểm."),
        TourMsg::CalledOffTooFew { id } => format!("Giải #{id} bị hủy: đến giờ bắt đầu vẫn chưa có đủ hai kỳ thủ."),
        TourMsg::Standings { id, status, table } => format!("Giải #{id} ({status}):\n{table}"),
        TourMsg::RoundsRow { rank, name, points, buchholz, sb, away } => {
            let away = if *away { " (đã nghỉ)" } else { "" };
            format!("{rank}. {name}{away}: {points} điểm · hệ số Buchholz {buchholz} · SB {sb}")
        }
        TourMsg::ArenaRow { rank, name, points, games, fire, away } => {
            let fire = if *fire { " 🔥" } else { "" };
            let away = if *away { " (đã nghỉ)" } else { "" };
            format!("{rank}. {name}{away}: {points}{fire} · {games} ván")
        }
        TourMsg::NoPlayers => "Chưa có ai đăng ký.".into(),
        TourMsg::Pairings { id, lines } => format!("Giải #{id}, các ván đang chơi:\n{lines}"),
        TourMsg::NoGamesNow => "Hiện không có ván nào của giải đang được chơi.".into(),
        TourMsg::Berserk { name } => format!("{name} liều mạng: còn một nửa thời gian, thắng được thêm một điểm."),
        TourMsg::NoBerserk => "Liều mạng chỉ dùng trong ván đấu trường của bạn, trước nước đi đầu tiên.".into(),
        TourMsg::NoAbort => "Ván trong giải không thể hủy; /resign để xin thua.".into(),
        TourMsg::InTournament { name, id } => format!("{name} đang thi đấu giải #{id} ở đây, các ván do giải xếp cặp. Ván khác có thể chơi ở nhóm khác."),
        TourMsg::Usage => "Ở đây chưa có giải đấu nào. Quản trị viên tạo giải: /tournament swiss rounds 5 10+5, /tournament arena minutes 60 3+2, hoặc /tournament robin 15+10. Sau đó kỳ thủ gõ /tournament join.".into(),
        TourMsg::Summary { id, format, terms, stage, count } => format!("Giải #{id}: {format}; {terms}. {stage}. Kỳ thủ: {count}. /tournament standings để xem bảng xếp hạng."),
        TourMsg::StageEntry => "Đang nhận đăng ký".into(),
        TourMsg::StageRunning { left: Some(left), .. } => format!("Đang thi đấu, còn {left}"),
        TourMsg::StageRunning { round, of, left: None } => format!("Vòng {round}/{of}"),
        TourMsg::StageEnding => "Đã hết giờ; các ván cuối đang được chơi".into(),
        TourMsg::StageFinished => "Đã kết thúc".into(),
        TourMsg::StageCancelled => "Đã hủy".into(),
        TourMsg::Rated => "tính điểm".into(),
        TourMsg::Casual => "giao hữu".into(),
        TourMsg::OwnVenues => "mỗi ván trong một luồng (chủ đề) riêng, nếu bot được phép mở".into(),
        TourMsg::MaxPlayers { max } => format!("tối đa {max} kỳ thủ"),
        TourMsg::MinRating { min } => format!("điểm từ {min} trở lên"),
        TourMsg::FirstMoveRule { minutes } => format!("Mỗi bên có {minutes} phút để đi nước đầu tiên, nếu không sẽ bị xử thua ván đó."),
        TourMsg::Page { page, pages } => format!("Trang {page}/{pages}; gõ /tournament standings {} để xem trang sau.", page + 1),
        TourMsg::Label(TourLabel::Join) => "Tham gia".into(),
        TourMsg::Label(TourLabel::Leave) => "Rời giải".into(),
    }
}
