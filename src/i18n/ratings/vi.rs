//! Tiếng Việt.

use super::{by_ending, family_name, shown, signed, RatingLabel, RatingMsg, Scope};
use crate::i18n::Lang;
use crate::rating::{NotRated, Stats, Wdl};

const L: Lang = Lang::Vi;

fn why(w: NotRated) -> &'static str {
    match w {
        NotRated::NoClock => "ván tính điểm cần có đồng hồ; hãy thêm thời gian, ví dụ 10+5",
        NotRated::CasualRules => "luật casual từ chối nước phạm luật thay vì xử thua, nên ván theo luật này không bao giờ được tính điểm; hãy chọn official, asian, vietnam hoặc cxq",
        NotRated::SetUp => "ván bắt đầu từ thế cờ bày sẵn không được tính điểm",
        NotRated::Bot => "ván đấu với máy không được tính điểm",
        NotRated::Aborted => "ván cờ đã bị hủy",
        NotRated::TooFewMoves => "mỗi bên chưa đi đủ hai nước",
        NotRated::Farming => "hai người này đã chơi với nhau năm ván tính điểm trong 24 giờ qua",
    }
}

fn scope(s: &Scope) -> String {
    match s {
        Scope::Here => "ở đây".into(),
        Scope::Platform(p) => format!("trên toàn {p}"),
    }
}

fn wdl(w: &Wdl) -> String {
    format!("thắng {}, hòa {}, thua {}", w.wins, w.draws, w.losses)
}

fn stats(name: &str, s: &Stats) -> String {
    let mut out = vec![
        format!("{name}: {} ván — {}", s.all.games(), wdl(&s.all)),
        format!(
            "Cầm quân Đỏ: {}. Cầm quân Đen: {}.",
            wdl(&s.as_red),
            wdl(&s.as_black)
        ),
        format!("Ván tính điểm: {}.", s.rated.games()),
    ];
    let endings = by_ending(s, L, ", ");
    if !endings.is_empty() {
        out.push(format!("Theo cách kết thúc (thắng-hòa-thua): {}.", endings));
    }
    let now = match s.streak.score {
        Some(crate::rating::Score::Win) => format!("thắng {} ván liên tiếp", s.streak.len),
        Some(crate::rating::Score::Loss) => format!("thua {} ván liên tiếp", s.streak.len),
        Some(crate::rating::Score::Draw) => format!("hòa {} ván liên tiếp", s.streak.len),
        None => "chưa có".into(),
    };
    out.push(format!(
        "Chuỗi hiện tại: {now}; chuỗi thắng dài nhất {}, chuỗi thua dài nhất {}.",
        s.best_win_streak, s.worst_loss_streak
    ));
    out.join("\n")
}

pub(super) fn text(m: &RatingMsg) -> String {
    match m {
        RatingMsg::RatedGame { family } => format!("Ván tính điểm ({}): kết quả sẽ thay đổi điểm của cả hai người.", family_name(*family, L)),
        RatingMsg::CasualGame => "Ván giao hữu (không tính điểm). Muốn tính điểm, hãy thêm \"rated\" vào lệnh /play.".into(),
        RatingMsg::CannotRate { why: w } => format!("Ván này không thể tính điểm: {}.", why(*w)),
        RatingMsg::OnlyChallengerSwitches => "Chỉ người thách đấu mới đổi được giữa ván tính điểm và ván giao hữu.".into(),
        RatingMsg::Changes { family, red, red_change, black, black_change, weight } => {
            let mut t = format!(
                "Điểm ({}): {red} {} → {} ({}), {black} {} → {} ({}).",
                family_name(*family, L),
                shown(red_change.before), shown(red_change.after), signed(red_change.delta()),
                shown(black_change.before), shown(black_change.after), signed(black_change.delta()),
            );
            if *weight < 1.0 {
                t.push_str(&format!(" Chỉ tính {}%: các ván tính điểm lặp lại giữa cùng hai người trong 24 giờ được tính ít hơn.", (weight * 100.0).round()));
            }
            t
        }
        RatingMsg::NotCounted { why: w } => format!("Không tính điểm: {}.", why(*w)),
        RatingMsg::RatingsOf { name, platform } => format!("Điểm của {name} trên {platform} (\"?\": điểm tạm, chưa ổn định):"),
        RatingMsg::RatingRow { family, rating, games, rank, scope: s } => {
            let place = match rank {
                Some(r) => format!("hạng {r} {}", scope(s)),
                None if rating.provisional() => "chưa xếp hạng cho đến khi điểm ổn định".into(),
                None => "chưa xếp hạng (không có ván tính điểm nào trong 30 ngày qua)".into(),
            };
            format!("{}: {} ±{} · {games} ván · {place}", family_name(*family, L), shown(*rating), rating.deviation.round())
        }
        RatingMsg::NoRatings { name } => format!("{name} chưa có ván tính điểm nào. Hãy chơi một ván: /play @ai_đó 10+5 rated."),
        RatingMsg::GraphCaption { name, family, games } => format!("{name} — điểm {} qua {games} ván tính điểm gần nhất", family_name(*family, L)),
        RatingMsg::TopHeader { family, scope: s, page } => format!("Bảng xếp hạng — {} {} (trang {page}):", family_name(*family, L), scope(s)),
        RatingMsg::TopRow { rank, name, rating, games } => format!("{rank}. {name} {} ({games} ván)", shown(*rating)),
        RatingMsg::TopEmpty { family, scope: s } => format!("Chưa có ai trên bảng xếp hạng {} {}. Bảng chỉ ghi những người có điểm đã ổn định (độ lệch dưới 110) và đã chơi một ván {} tính điểm trong 30 ngày qua.", family_name(*family, L), scope(s), family_name(*family, L).to_lowercase()),
        RatingMsg::TopMore { next } => format!("Xem tiếp: {next}"),
        RatingMsg::BadArgument { word, usage } => format!("Tôi không hiểu \"{word}\". Cách dùng: {usage}"),
        RatingMsg::StatsOf { name, stats: s } => stats(name, s),
        RatingMsg::NoStats { name } => format!("{name} chưa chơi xong ván nào."),
        RatingMsg::HeadToHead { a, b, wdl: w, a_as_red } => format!(
            "{a} gặp {b}: {} ván — {a} thắng {}, hòa {}, {b} thắng {}. Khi {a} cầm quân Đỏ: {}.",
            w.games(), w.wins, w.draws, w.losses, wdl(a_as_red)
        ),
        RatingMsg::NoHeadToHead { a, b } => format!("{a} và {b} chưa chơi xong ván nào với nhau."),
        RatingMsg::UnknownPlayer { who } => format!("Tôi không biết {who}: người này chưa chơi ở đây. Hãy nhắc tên họ, hoặc dùng @tên_người_dùng."),
        RatingMsg::Label(l) => match l {
            RatingLabel::MakeRated => "Đổi thành ván tính điểm",
            RatingLabel::MakeCasual => "Đổi thành ván giao hữu",
        }
        .into(),
    }
}
