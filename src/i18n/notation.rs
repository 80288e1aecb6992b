//! Messages for move texts that cannot be played, illegal moves and bad FENs, in Vietnamese,
//! English and Chinese: what is wrong (which rule, which point) and what to do instead.

use super::{piece_name as piece_full, role_name, Lang};
use crate::core::{
    Color, FenError, FenOrPositionError, IllegalMove, IllegalReason, Piece, PositionError,
    MAX_FEN_LEN,
};
use crate::notation::shown_text as shown;
use crate::notation::{
    Expected, MoveTextError, Notation, Place, SyntaxError, TargetProblem, MAX_MOVE_TEXT,
};

fn piece_role(p: Piece, lang: Lang) -> &'static str {
    role_name(p.role, p.color, lang)
}

fn color_name(c: Color, lang: Lang) -> &'static str {
    super::side_name(c, lang)
}

fn notation_name(n: Notation, lang: Lang) -> &'static str {
    match (n, lang) {
        (Notation::Iccs, _) => "ICCS",
        (Notation::Wxf, _) => "WXF",
        (Notation::Chinese, Lang::En) => "Chinese notation",
        (Notation::Chinese, Lang::Vi) => "ký hiệu Trung Quốc",
        (Notation::Chinese, Lang::Zh) => "中文记谱",
        (Notation::Vietnamese, Lang::En) => "Vietnamese notation",
        (Notation::Vietnamese, Lang::Vi) => "ký hiệu Việt Nam",
        (Notation::Vietnamese, Lang::Zh) => "越南记谱",
    }
}

fn place_name(p: Place, lang: Lang) -> String {
    match (p, lang) {
        (_, Lang::En) => p.describe(),
        (Place::Front, Lang::Vi) => "trước".into(),
        (Place::Middle, Lang::Vi) => "giữa".into(),
        (Place::Rear, Lang::Vi) => "sau".into(),
        (Place::FromFront(k), Lang::Vi) => format!("thứ {k} tính từ trước"),
        (Place::FromRear(k), Lang::Vi) => format!("thứ {k} tính từ sau"),
        (Place::Front, Lang::Zh) => "前".into(),
        (Place::Middle, Lang::Zh) => "中".into(),
        (Place::Rear, Lang::Zh) => "后".into(),
        (Place::FromFront(k), Lang::Zh) => format!("从前数第{k}个"),
        (Place::FromRear(k), Lang::Zh) => format!("从后数第{k}个"),
        (Place::Plus, _) => "+".into(),
        (Place::Minus, _) => "-".into(),
    }
}

fn expected(e: Expected, n: Notation, lang: Lang) -> &'static str {
    use Notation::{Chinese as Zh, Vietnamese as Vn, Wxf};
    match lang {
        Lang::En => e.describe(n),
        Lang::Vi => match (e, n) {
            (Expected::Piece, Wxf) => "chữ cái chỉ quân (K A E R H C P)",
            (Expected::Piece, Zh) => "tên quân bằng chữ Hán (车 马 相 仕 帅 炮 兵) hoặc 前/后",
            (Expected::Piece, _) => "chữ cái chỉ quân (Tg S T X M P B)",
            (Expected::File, Zh) => "số cột (一-九 hoặc 1-9) hoặc 前/中/后",
            (Expected::File, Vn) => "số cột 1-9, hoặc t/s (trước/sau)",
            (Expected::File, _) => "số cột 1-9, hoặc + / - (trước/sau)",
            (Expected::Designator, Zh) => {
                "tên quân và cột (炮二), hoặc 前/中/后 và tên quân (前炮)"
            }
            (Expected::Designator, Vn) => "chữ cái chỉ quân và cột (P2), hoặc chữ cái kèm t/s (Pt)",
            (Expected::Designator, _) => "chữ cái chỉ quân và cột (C2), hoặc + / - (C+)",
            (Expected::Action, Wxf) => "hướng đi: + tiến, - lùi, . hoặc = đi ngang",
            (Expected::Action, Zh) => "hướng đi: 进 tiến, 退 lùi, 平 đi ngang",
            (Expected::Action, _) => "hướng đi: . tiến, / lùi, - đi ngang",
            (Expected::Number, Zh) => "một số (一-九 hoặc 1-9)",
            (Expected::Number, _) => "một số từ 1 đến 9",
            (Expected::End, _) => "chỗ kết thúc nước đi (không viết thêm gì)",
            (Expected::Square, _) => "một điểm: chữ cột a-i rồi số hàng 0-9, như h2e2",
        },
        Lang::Zh => match (e, n) {
            (Expected::Piece, Wxf) => "棋子字母（K A E R H C P）",
            (Expected::Piece, Zh) => "棋子名称（车 马 相 仕 帅 炮 兵）或 前/后",
            (Expected::Piece, _) => "棋子字母（Tg S T X M P B）",
            (Expected::File, Zh) => "纵线编号（一至九或1至9）或 前/中/后",
            (Expected::File, Vn) => "纵线编号1至9，或表示前后的 t/s",
            (Expected::File, _) => "纵线编号1至9，或表示前后的 +/-",
            (Expected::Designator, Zh) => "棋子加所在纵线（炮二），或 前/中/后 加棋子（前炮）",
            (Expected::Designator, Vn) => "棋子字母加纵线（P2），或字母加 t/s（Pt）",
            (Expected::Designator, _) => "棋子字母加纵线（C2），或字母加 +/-（C+）",
            (Expected::Action, Wxf) => "方向：+ 表示进，- 表示退，. 或 = 表示平",
            (Expected::Action, Zh) => "方向：进、退 或 平",
            (Expected::Action, _) => "方向：. 表示进，/ 表示退，- 表示平",
            (Expected::Number, Zh) => "数字（一至九或1至9）",
            (Expected::Number, _) => "数字1至9",
            (Expected::End, _) => "着法结尾（后面不应再有字符）",
            (Expected::Square, _) => "一个点：纵线字母 a-i 加横线数字 0-9，如 h2e2",
        },
    }
}

fn syntax(e: &SyntaxError, lang: Lang) -> String {
    let text = shown(&e.text);
    let name = notation_name(e.notation, lang);
    let what = expected(e.expected, e.notation, lang);
    let n = e.at + 1;
    match (e.found, lang) {
        (Some(c), Lang::En) => format!(
            "\"{text}\" cannot be read as {name}: character {n} (\"{}\") should be {what}.",
            shown(&c.to_string())
        ),
        (None, Lang::En) => {
            format!("\"{text}\" cannot be read as {name}: it stops too early; {what} is missing.")
        }
        (Some(c), Lang::Vi) => format!(
            "Không đọc được \"{text}\" theo {name}: ở ký tự thứ {n} (\"{}\") lẽ ra phải là {what}.",
            shown(&c.to_string())
        ),
        (None, Lang::Vi) => format!(
            "Không đọc được \"{text}\" theo {name}: nước đi bị thiếu ở cuối, còn thiếu {what}."
        ),
        (Some(c), Lang::Zh) => format!(
            "无法按{name}读取“{text}”：第{n}个字符（“{}”）处应为{what}。",
            shown(&c.to_string())
        ),
        (None, Lang::Zh) => format!("无法按{name}读取“{text}”：输入不完整，缺少{what}。"),
    }
}

fn target(piece: Piece, from: crate::core::Square, problem: TargetProblem, lang: Lang) -> String {
    let p = piece_role(piece, lang);
    match (problem, lang) {
        (TargetProblem::SidewaysDiagonal, Lang::En) => format!("The {p} on {from} moves diagonally, so it never moves sideways: say forward or back and the file it lands on."),
        (TargetProblem::SidewaysDiagonal, Lang::Vi) => format!("Quân {p} ở {from} đi chéo nên không bao giờ đi ngang: hãy ghi tiến hoặc lùi và số cột nó đến."),
        (TargetProblem::SidewaysDiagonal, Lang::Zh) => format!("{from}的{p}走斜线，不能用“平”：请写 进 或 退，再写落点所在的纵线。"),
        (TargetProblem::SameFile, Lang::En) => format!("That leaves the {p} on {from} on its own file: give the file it should go to."),
        (TargetProblem::SameFile, Lang::Vi) => format!("Như vậy quân {p} ở {from} vẫn ở nguyên cột cũ: hãy ghi số cột mà nó đi đến."),
        (TargetProblem::SameFile, Lang::Zh) => format!("这样{from}的{p}仍在原来的纵线上：请写出它要去的纵线。"),
        (TargetProblem::FileDistance { distance: d }, Lang::En) => format!("The {p} on {from} cannot land {d} file{} away: a horse lands 1 or 2 files away, an elephant 2, an advisor 1. Check the destination file.", if d == 1 { "" } else { "s" }),
        (TargetProblem::FileDistance { distance: d }, Lang::Vi) => format!("Quân {p} ở {from} không thể đến cột cách {d} cột: Mã đến cột cách 1 hoặc 2, Tượng cách 2, Sĩ cách 1. Hãy kiểm tra cột đến."),
        (TargetProblem::FileDistance { distance: d }, Lang::Zh) => format!("{from}的{p}不能落到相隔{d}路的纵线：马隔1或2路，相（象）隔2路，仕（士）隔1路。请检查目标纵线。"),
        (TargetProblem::OffBoard, Lang::En) => format!("The {p} on {from} would go off the board: count the steps again."),
        (TargetProblem::OffBoard, Lang::Vi) => format!("Quân {p} ở {from} sẽ đi ra ngoài bàn cờ: hãy đếm lại số bước."),
        (TargetProblem::OffBoard, Lang::Zh) => format!("{from}的{p}会走出棋盘：请重新数一下步数。"),
    }
}

fn move_list(moves: impl Iterator<Item = String>, lang: Lang) -> String {
    let sep = if lang == Lang::Zh { "、" } else { ", " };
    moves.collect::<Vec<_>>().join(sep)
}

/// Why a typed move cannot be played, and what to type instead.
#[must_use]
pub fn move_text_error(err: &MoveTextError, lang: Lang) -> String {
    use MoveTextError as E;
    match err {
        E::Empty => match lang {
            Lang::En => "You did not type a move. Write one such as h2e2, C2.5, 炮二平五 or P2-5.".into(),
            Lang::Vi => "Bạn chưa nhập nước đi. Hãy viết ví dụ h2e2, C2.5, 炮二平五 hoặc P2-5.".into(),
            Lang::Zh => "没有输入着法。请输入例如 h2e2、C2.5、炮二平五 或 P2-5。".into(),
        },
        E::TooLong { len } => match lang {
            Lang::En => format!("That text is {len} characters long, too long for a move (at most {MAX_MOVE_TEXT}). Type just the move, such as h2e2."),
            Lang::Vi => format!("Đoạn văn bản dài {len} ký tự, quá dài cho một nước đi (tối đa {MAX_MOVE_TEXT}). Chỉ nhập nước đi thôi, ví dụ h2e2."),
            Lang::Zh => format!("这段文字有{len}个字符，作为着法太长（最多{MAX_MOVE_TEXT}个）。请只输入着法，例如 h2e2。"),
        },
        E::Syntax(e) => syntax(e, lang),
        E::NoSuchPiece { piece, file: Some(f) } => {
            let p = piece_role(*piece, lang);
            match lang {
                Lang::En => format!("You have no {p} on file {f} (files are counted from each player's own right). Check the file, or type the move in ICCS, like h2e2."),
                Lang::Vi => format!("Bạn không có quân {p} nào ở cột {f} (cột được đếm từ bên phải của mỗi người chơi). Hãy xem lại số cột, hoặc nhập nước đi theo ICCS, ví dụ h2e2."),
                Lang::Zh => format!("你在第{f}路没有{p}（纵线从各方自己的右手边数起）。请检查纵线编号，或用 ICCS 输入，例如 h2e2。"),
            }
        }
        E::NoSuchPiece { piece, file: None } => {
            let p = piece_role(*piece, lang);
            match lang {
                Lang::En => format!("You have no {p} left on the board: move another piece."),
                Lang::Vi => format!("Bạn không còn quân {p} nào trên bàn cờ: hãy đi quân khác."),
                Lang::Zh => format!("你的{p}已经不在棋盘上了，请走别的棋子。"),
            }
        }
        E::NotTandem { piece, file, count } => {
            let p = piece_role(*piece, lang);
            match (file, lang) {
                (Some(f), Lang::En) => format!("Front, middle and rear pick one of several {p}s on one file, but file {f} has {count}. Name the piece by its file instead."),
                (Some(f), Lang::Vi) => format!("Trước, giữa, sau dùng để chọn một trong nhiều quân {p} trên cùng một cột, nhưng cột {f} chỉ có {count} quân. Hãy gọi quân theo số cột."),
                (Some(f), Lang::Zh) => format!("前、中、后用来区分同一纵线上的几个{p}，但第{f}路只有{count}个。请改用纵线编号。"),
                (None, Lang::En) => format!("Front, middle and rear pick one of several {p}s on one file, but none of your files holds two. Name the piece by its file instead."),
                (None, Lang::Vi) => format!("Trước, giữa, sau dùng để chọn một trong nhiều quân {p} trên cùng một cột, nhưng không cột nào của bạn có hai quân {p}. Hãy gọi quân theo số cột."),
                (None, Lang::Zh) => format!("前、中、后用来区分同一纵线上的几个{p}，但你没有哪条纵线上有两个{p}。请改用纵线编号。"),
            }
        }
        E::NoSuchPlace { piece, file, place, count } => {
            let p = piece_role(*piece, lang);
            let at = place_name(*place, lang);
            match lang {
                Lang::En => format!("File {file} has {count} {p}s, and \"{at}\" names none of them. Count them from the front: front and rear, or 1st to {count}th."),
                Lang::Vi => format!("Cột {file} có {count} quân {p}, và \"{at}\" không chỉ quân nào trong số đó. Hãy đếm từ trước ra sau: trước và sau (t/s), hoặc thứ 1 đến thứ {count}."),
                Lang::Zh => format!("第{file}路有{count}个{p}，“{at}”不对应其中任何一个。请从前往后数：前、后，或一至{count}。"),
            }
        }
        E::AmbiguousPiece { piece, moves, .. } => {
            let p = piece_role(*piece, lang);
            let list = move_list(moves.iter().map(ToString::to_string), lang);
            match lang {
                Lang::En => format!("More than one of your {p}s can make that move ({list}). Say which one: front or rear, or its file; or type the move in ICCS."),
                Lang::Vi => format!("Có hơn một quân {p} của bạn đi được nước này ({list}). Hãy nói rõ quân nào: trước hay sau (t/s), hoặc số cột; hoặc nhập theo ICCS."),
                Lang::Zh => format!("你有不止一个{p}可以这样走（{list}）。请用 前/后 或纵线编号说明是哪一个，或改用 ICCS 输入。"),
            }
        }
        E::BadTarget { piece, from, problem } => target(*piece, *from, *problem, lang),
        E::Illegal(e) => illegal_move(e, lang),
        E::Ambiguous { candidates } => {
            let list = move_list(
                candidates.iter().map(|(n, m)| match lang {
                    Lang::Zh => format!("{m}（{}）", notation_name(*n, lang)),
                    _ => format!("{m} ({})", notation_name(*n, lang)),
                }),
                lang,
            );
            match lang {
                Lang::En => format!("This text means different moves in different notations: {list}. Type the move in ICCS (like h2e2) or set the notation you use."),
                Lang::Vi => format!("Cách viết này cho ra các nước khác nhau tùy ký hiệu: {list}. Hãy nhập theo ICCS (như h2e2) hoặc chọn ký hiệu bạn dùng."),
                Lang::Zh => format!("这段文字在不同记谱法中表示不同的着法：{list}。请用 ICCS 输入（如 h2e2），或设定你使用的记谱法。"),
            }
        }
    }
}

/// Why a move breaks the rules: the rule, and the point that blocks it.
#[must_use]
pub fn illegal_move(err: &IllegalMove, lang: Lang) -> String {
    use IllegalReason as R;
    let m = err.mv;
    let (from, to) = (m.from, m.to);
    let p = err.piece.map_or(
        match lang {
            Lang::En => "piece",
            Lang::Vi => "quân",
            Lang::Zh => "棋子",
        },
        |p| piece_role(p, lang),
    );
    let text = match (&err.reason, lang) {
        (R::SameSquare, Lang::En) => "the piece must move to a different point.".to_string(),
        (R::SameSquare, Lang::Vi) => "quân cờ phải đi đến một điểm khác.".to_string(),
        (R::SameSquare, Lang::Zh) => "棋子必须走到另一个点。".to_string(),
        (R::NoPiece, Lang::En) => format!("there is no piece on {from}. Check the starting point."),
        (R::NoPiece, Lang::Vi) => format!("không có quân nào ở {from}. Hãy kiểm tra lại điểm xuất phát."),
        (R::NoPiece, Lang::Zh) => format!("{from}上没有棋子。请检查起点。"),
        (R::NotYourPiece, Lang::En) => format!("the {p} on {from} belongs to your opponent; move one of your own pieces."),
        (R::NotYourPiece, Lang::Vi) => format!("quân {p} ở {from} là quân của đối phương; hãy đi quân của bạn."),
        (R::NotYourPiece, Lang::Zh) => format!("{from}上的{p}是对方的棋子，请走自己的棋子。"),
        (R::OwnPieceOnTarget { target }, Lang::En) => format!("{to} holds your own {}; you cannot capture your own piece.", piece_role(*target, lang)),
        (R::OwnPieceOnTarget { target }, Lang::Vi) => format!("ở {to} đang có quân {} của chính bạn; không được ăn quân mình.", piece_role(*target, lang)),
        (R::OwnPieceOnTarget { target }, Lang::Zh) => format!("{to}上是你自己的{}，不能吃自己的棋子。", piece_role(*target, lang)),
        (R::LeavesPalace, Lang::En) => format!("the {p} must stay inside the palace (the 3×3 square marked with diagonals)."),
        (R::LeavesPalace, Lang::Vi) => format!("quân {p} phải ở trong cung (hình vuông 3×3 có đường chéo)."),
        (R::LeavesPalace, Lang::Zh) => format!("{p}不能离开九宫。"),
        (R::GeneralStep, Lang::En) => "the general moves one point forward, back or sideways, inside the palace.".to_string(),
        (R::GeneralStep, Lang::Vi) => "Tướng chỉ đi một bước ngang hoặc dọc, trong cung.".to_string(),
        (R::GeneralStep, Lang::Zh) => "将（帅）每次只能在九宫内横向或纵向走一步。".to_string(),
        (R::AdvisorStep, Lang::En) => "the advisor moves one point diagonally, along the lines of the palace.".to_string(),
        (R::AdvisorStep, Lang::Vi) => "Sĩ chỉ đi chéo một bước theo đường chéo của cung.".to_string(),
        (R::AdvisorStep, Lang::Zh) => "士（仕）每次只能沿九宫斜线走一步。".to_string(),
        (R::ElephantCrossesRiver, Lang::En) => "the elephant may not cross the river.".to_string(),
        (R::ElephantCrossesRiver, Lang::Vi) => "Tượng không được qua sông.".to_string(),
        (R::ElephantCrossesRiver, Lang::Zh) => "相（象）不能过河。".to_string(),
        (R::ElephantStep, Lang::En) => "the elephant moves exactly two points diagonally.".to_string(),
        (R::ElephantStep, Lang::Vi) => "Tượng đi chéo đúng hai ô (hình chữ điền).".to_string(),
        (R::ElephantStep, Lang::Zh) => "相（象）走“田”字，即斜走两格。".to_string(),
        (R::ElephantEyeBlocked { eye }, Lang::En) => format!("the elephant's eye at {eye} is blocked, so the elephant cannot go there."),
        (R::ElephantEyeBlocked { eye }, Lang::Vi) => format!("mắt Tượng ở {eye} bị chặn nên Tượng không đi đến đó được."),
        (R::ElephantEyeBlocked { eye }, Lang::Zh) => format!("{eye}有子塞住象眼，相（象）不能走到那里。"),
        (R::HorseStep, Lang::En) => "the horse moves one point straight, then one point diagonally outward.".to_string(),
        (R::HorseStep, Lang::Vi) => "Mã đi một bước thẳng rồi một bước chéo ra ngoài (hình chữ nhật).".to_string(),
        (R::HorseStep, Lang::Zh) => "马走“日”字：先直走一格，再斜走一格。".to_string(),
        (R::HorseLegBlocked { leg }, Lang::En) => format!("the horse's leg is blocked at {leg}, so it cannot go that way."),
        (R::HorseLegBlocked { leg }, Lang::Vi) => format!("chân Mã bị cản ở {leg} nên Mã không đi hướng đó được."),
        (R::HorseLegBlocked { leg }, Lang::Zh) => format!("{leg}有子蹩马腿，马不能往这个方向走。"),
        (R::NotStraight, Lang::En) => format!("the {p} moves only along a file or a rank."),
        (R::NotStraight, Lang::Vi) => format!("quân {p} chỉ đi theo đường dọc hoặc đường ngang."),
        (R::NotStraight, Lang::Zh) => format!("{p}只能沿直线（纵线或横线）走。"),
        (R::PathBlocked { at }, Lang::En) => format!("the path is blocked at {at}; the {p} cannot jump over pieces."),
        (R::PathBlocked { at }, Lang::Vi) => format!("đường đi bị chặn ở {at}; quân {p} không được nhảy qua quân khác."),
        (R::PathBlocked { at }, Lang::Zh) => format!("路线在{at}被挡住，{p}不能越过棋子。"),
        (R::CannonScreen { screens: 0 }, Lang::En) => "a cannon captures only by jumping exactly one piece (the screen); there is no piece in between.".into(),
        (R::CannonScreen { screens: 0 }, Lang::Vi) => "Pháo chỉ ăn quân khi nhảy qua đúng một quân làm ngòi; ở giữa không có quân nào.".into(),
        (R::CannonScreen { screens: 0 }, Lang::Zh) => "炮必须隔一个子（炮架）才能吃子，中间没有棋子。".into(),
        (R::CannonScreen { screens }, Lang::En) => format!("a cannon captures only by jumping exactly one piece (the screen); there are {screens} in between."),
        (R::CannonScreen { screens }, Lang::Vi) => format!("Pháo chỉ ăn quân khi nhảy qua đúng một quân làm ngòi; ở giữa có tới {screens} quân."),
        (R::CannonScreen { screens }, Lang::Zh) => format!("炮必须隔一个子（炮架）才能吃子，中间却有{screens}个子。"),
        (R::SoldierBackward, Lang::En) => "a soldier never moves backward.".to_string(),
        (R::SoldierBackward, Lang::Vi) => "Tốt không bao giờ được đi lùi.".to_string(),
        (R::SoldierBackward, Lang::Zh) => "兵（卒）不能后退。".to_string(),
        (R::SoldierSidewaysBeforeRiver, Lang::En) => "a soldier may move sideways only after crossing the river.".to_string(),
        (R::SoldierSidewaysBeforeRiver, Lang::Vi) => "Tốt chỉ được đi ngang sau khi đã qua sông.".to_string(),
        (R::SoldierSidewaysBeforeRiver, Lang::Zh) => "兵（卒）过河以后才能横走。".to_string(),
        (R::SoldierStep, Lang::En) => "a soldier moves one point at a time.".to_string(),
        (R::SoldierStep, Lang::Vi) => "Tốt mỗi lần chỉ đi một bước.".to_string(),
        (R::SoldierStep, Lang::Zh) => "兵（卒）每次只能走一步。".to_string(),
        (R::LeavesGeneralInCheck { by, attacker }, Lang::En) => format!("that would leave your general in check from the {} on {by}. Choose a move that keeps your general safe.", piece_role(*attacker, lang)),
        (R::LeavesGeneralInCheck { by, attacker }, Lang::Vi) => format!("nước này để Tướng của bạn bị quân {} ở {by} chiếu. Hãy chọn nước giữ an toàn cho Tướng.", piece_role(*attacker, lang)),
        (R::LeavesGeneralInCheck { by, attacker }, Lang::Zh) => format!("走后你的将（帅）会被{by}的{}将军。请选择能保护将（帅）的着法。", piece_role(*attacker, lang)),
        (R::GeneralsFace, Lang::En) => "the two generals would face each other on an open file (the flying-general rule). Keep a piece between them.".to_string(),
        (R::GeneralsFace, Lang::Vi) => "hai Tướng sẽ đối mặt nhau trên một cột không có quân chắn (luật lộ mặt Tướng). Hãy giữ một quân ở giữa.".to_string(),
        (R::GeneralsFace, Lang::Zh) => "走后双方将帅会在同一纵线上直接照面（对脸将），这是不允许的。请在两者之间留一个子。".to_string(),
    };
    match lang {
        Lang::Zh => format!("{m}：{text}"),
        _ => format!("{m}: {text}"),
    }
}

/// Why a FEN cannot be used, and how to fix it.
#[must_use]
pub fn fen_error(err: &FenOrPositionError, lang: Lang) -> String {
    match err {
        FenOrPositionError::Fen(e) => fen_syntax(e, lang),
        FenOrPositionError::Position(e) => fen_position(e, lang),
    }
}

fn fen_syntax(e: &FenError, lang: Lang) -> String {
    match (e, lang) {
        (FenError::Empty, Lang::En) => "The FEN is empty: give a position, for example the FEN of the starting position.".into(),
        (FenError::Empty, Lang::Vi) => "FEN đang trống: hãy đưa vào một thế cờ, ví dụ FEN của thế khai cuộc.".into(),
        (FenError::Empty, Lang::Zh) => "FEN 为空：请提供一个局面，例如开局局面的 FEN。".into(),
        (FenError::TooLong { len }, Lang::En) => format!("The FEN is {len} characters long; at most {MAX_FEN_LEN} are read. Paste only the FEN."),
        (FenError::TooLong { len }, Lang::Vi) => format!("FEN dài {len} ký tự; chỉ đọc tối đa {MAX_FEN_LEN}. Hãy chỉ dán đúng FEN."),
        (FenError::TooLong { len }, Lang::Zh) => format!("FEN 长{len}个字符，最多只读取{MAX_FEN_LEN}个。请只粘贴 FEN。"),
        (FenError::RankCount { found }, Lang::En) => format!("The board part has {found} ranks; it needs 10, separated by '/'."),
        (FenError::RankCount { found }, Lang::Vi) => format!("Phần bàn cờ có {found} hàng; cần đúng 10 hàng, ngăn cách bởi '/'."),
        (FenError::RankCount { found }, Lang::Zh) => format!("棋盘部分有{found}行，应为10行，用“/”分隔。"),
        (FenError::RankWidth { rank, points }, Lang::En) => format!("Rank {rank} describes {points} points; every rank needs exactly 9 (a digit counts empty points)."),
        (FenError::RankWidth { rank, points }, Lang::Vi) => format!("Hàng {rank} mô tả {points} điểm; mỗi hàng phải đúng 9 điểm (chữ số là số điểm trống)."),
        (FenError::RankWidth { rank, points }, Lang::Zh) => format!("第{rank}行描述了{points}个点，每行应正好9个（数字表示连续的空点数）。"),
        (FenError::BadChar { rank, ch }, Lang::En) => format!("Rank {rank} contains \"{}\", which is neither a piece letter (K A B N R C P, or E H) nor a digit 1-9.", shown(&ch.to_string())),
        (FenError::BadChar { rank, ch }, Lang::Vi) => format!("Hàng {rank} có ký tự \"{}\", không phải chữ chỉ quân (K A B N R C P, hoặc E H) cũng không phải chữ số 1-9.", shown(&ch.to_string())),
        (FenError::BadChar { rank, ch }, Lang::Zh) => format!("第{rank}行含有字符“{}”，它既不是棋子字母（K A B N R C P，或 E H），也不是数字1至9。", shown(&ch.to_string())),
        (FenError::BadSide { found }, Lang::En) => format!("The side to move must be w (or r) for Red or b for Black, not \"{}\".", shown(found)),
        (FenError::BadSide { found }, Lang::Vi) => format!("Bên đi phải là w (hoặc r) cho Đỏ, hoặc b cho Đen, không phải \"{}\".", shown(found)),
        (FenError::BadSide { found }, Lang::Zh) => format!("走子方应为 w（或 r）表示红方、b 表示黑方，而不是“{}”。", shown(found)),
        (FenError::BadCounter { found }, Lang::En) => format!("The move counter \"{}\" is not a whole number.", shown(found)),
        (FenError::BadCounter { found }, Lang::Vi) => format!("Bộ đếm nước \"{}\" không phải là số nguyên.", shown(found)),
        (FenError::BadCounter { found }, Lang::Zh) => format!("回合计数“{}”不是整数。", shown(found)),
    }
}

fn fen_position(e: &PositionError, lang: Lang) -> String {
    match (e, lang) {
        (PositionError::MissingGeneral { color }, Lang::En) => format!("{} has no general; each side needs exactly one.", color_name(*color, lang)),
        (PositionError::MissingGeneral { color }, Lang::Vi) => format!("Bên {} không có Tướng; mỗi bên cần đúng một Tướng.", color_name(*color, lang)),
        (PositionError::MissingGeneral { color }, Lang::Zh) => format!("{}没有将（帅），每方必须有一个。", color_name(*color, lang)),
        (PositionError::TooMany { color, role, count }, _) => {
            let (c, r, max) = (color_name(*color, lang), role_name(*role, *color, lang), role.max_count());
            match lang {
                Lang::En => format!("{c} has {count} {r}s; at most {max} are allowed."),
                Lang::Vi => format!("Bên {c} có {count} quân {r}; tối đa chỉ được {max}."),
                Lang::Zh => format!("{c}有{count}个{r}，最多只能有{max}个。"),
            }
        }
        (PositionError::GeneralOutsidePalace { color, at }, Lang::En) => format!("{}'s general on {at} is outside its palace (files d-f; ranks 0-2 for Red, 7-9 for Black).", color_name(*color, lang)),
        (PositionError::GeneralOutsidePalace { color, at }, Lang::Vi) => format!("Tướng bên {} ở {at} nằm ngoài cung (cột d-f; hàng 0-2 với Đỏ, 7-9 với Đen).", color_name(*color, lang)),
        (PositionError::GeneralOutsidePalace { color, at }, Lang::Zh) => format!("{}的将（帅）在{at}，不在九宫内（d-f 线；红方0-2行，黑方7-9行）。", color_name(*color, lang)),
        (PositionError::Unreachable { piece, at }, Lang::En) => format!("The {} on {at} stands on a point it can never reach. Check where it should stand.", piece_full(*piece, lang)),
        (PositionError::Unreachable { piece, at }, Lang::Vi) => format!("Quân {} ở {at} đứng ở điểm mà nó không bao giờ đi tới được. Hãy kiểm tra lại vị trí.", piece_full(*piece, lang)),
        (PositionError::Unreachable { piece, at }, Lang::Zh) => format!("{}在{at}，这是它永远走不到的点。请检查摆放。", piece_full(*piece, lang)),
        (PositionError::GeneralsFacing, Lang::En) => "The two generals face each other on an open file; that position cannot arise.".into(),
        (PositionError::GeneralsFacing, Lang::Vi) => "Hai Tướng đối mặt nhau trên một cột trống; thế cờ này không thể xảy ra.".into(),
        (PositionError::GeneralsFacing, Lang::Zh) => "双方将帅在同一纵线上直接照面，这个局面不可能出现。".into(),
        (PositionError::SideNotToMoveInCheck { color }, _) => {
            let c = color_name(*color, lang);
            match lang {
                Lang::En => format!("{c} is in check but it is not {c}'s turn, so the position cannot arise. Check the side to move."),
                Lang::Vi => format!("Bên {c} đang bị chiếu nhưng không đến lượt {c} đi, nên thế cờ này không thể xảy ra. Hãy kiểm tra bên đi."),
                Lang::Zh => format!("{c}正被将军，但不是{c}走棋，这个局面不可能出现。请检查走子方。"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{IllegalReason, Move};

    fn screen_error(screens: usize, lang: Lang) -> String {
        let err = IllegalMove {
            mv: Move::parse_iccs("h2h9").expect("a move"),
            piece: None,
            reason: IllegalReason::CannonScreen { screens },
        };
        illegal_move(&err, lang)
    }

    /// Candidates of an ambiguous text are named with full-width brackets in Chinese.
    #[test]
    fn chinese_errors_use_full_width_punctuation() {
        use crate::notation::Notation;
        let m = Move::parse_iccs("h2e2").expect("a move");
        let err = MoveTextError::Ambiguous {
            candidates: vec![(Notation::Wxf, m), (Notation::Iccs, m)],
        };
        crate::i18n::lint::assert_zh_punctuation(&move_text_error(&err, Lang::Zh), "ambiguous");
        crate::i18n::lint::assert_zh_punctuation(&screen_error(0, Lang::Zh), "screen");
    }

    /// A cannon with nothing to jump is told there is no piece between, not "0 pieces"
    /// (issue 31: "ở giữa đang có 0 quân", "中间现在有0个子").
    #[test]
    fn a_cannon_without_a_screen_hears_there_is_no_piece_between() {
        for (lang, none) in [
            (Lang::En, "no piece in between"),
            (Lang::Vi, "không có quân nào"),
            (Lang::Zh, "中间没有棋子"),
        ] {
            let t = screen_error(0, lang);
            assert!(t.contains(none) && !t.contains('0'), "{lang}: {t}");
            let two = screen_error(2, lang);
            assert!(two.contains('2'), "{lang}: {two}");
        }
    }
}
