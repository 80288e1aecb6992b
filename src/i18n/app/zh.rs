//! 中文（简体）。

use super::{GameState, Label, Msg};
use crate::i18n::{side_name, with_iccs, Lang};

pub(super) fn text(m: &Msg) -> String {
    match m {
        Msg::Help { commands, top } => format!("象棋电脑——命令：
{commands}
用时：none、10+5、20m/1m、10m+3x30s、1d（等级分对局需要棋钟）。/play bot [等级 1-{top}]：立即与电脑对弈。轮到你时直接输入着法即可：炮二平五、马8进7、C2.5、h2e2。"),
        Msg::UnknownCommand { cmd } => format!("我不认识命令 {cmd}。输入 /help 查看命令列表。"),
        Msg::TooLong { max } => format!("消息太长了（超过{max}个字符），请发短一些。"),
        Msg::RateLimited { secs } => format!("你发命令太快了，请等{secs}秒再试。"),
        Msg::StorageFailure => "抱歉，保存失败，什么都没有改动。请再试一次。".into(),
        Msg::NoGame => "本频道没有对局。用 /play @某人 开始（或 /play 发起公开挑战）。".into(),
        Msg::NotYourGame { red, black } => format!("这是{red}（红）与{black}（黑）的对局，只有对局双方可以走棋和使用本局的命令。想下棋，请用 /play 开始你自己的对局。"),
        Msg::NotYourTurn { player } => format!("还没轮到你：现在是{player}走棋，请等对方走完。"),
        Msg::GameInProgress { red, black } => format!("你已经在这里下棋：{red}（红）对{black}（黑）。在同一个群里每人一次只下一局，请先下完那一局。"),
        Msg::ChallengePending { challenger } => format!("{challenger}的挑战正在等待回应。用 /accept 或 /decline 回答，或由{challenger}用 /cancel 撤回。"),
        Msg::ChallengeSelf => "不能挑战自己。请指定别人，或只输入 /play 发起公开挑战。".into(),
        Msg::ChallengeCreated { challenger, opponent, time_control, ruleset, color, minutes } => {
            let who = opponent.as_deref().map_or_else(|| "任何人".to_string(), |o| o.to_string());
            let side = if color == "随机" { "颜色随机".to_string() } else { format!("{challenger}执{color}") };
            format!("{challenger}向{who}挑战：{time_control}，{ruleset}，{side}。请在{minutes}分钟内用 /accept 或 /decline 回答。")
        }
        Msg::BadPlayArgument { word } => format!("看不懂 /play 里的“{word}”。用法：/play [@用户] [用时如10+5] [official|asian|vietnam|cxq|casual] [red|black|random]。"),
        Msg::NoChallenge => "这里没有需要回答的挑战。用 /play 发起一个。".into(),
        Msg::ChallengeNotForYou { opponent } => format!("这个挑战是给{opponent}的，不是给你的。"),
        Msg::OwnChallenge => "这是你自己的挑战；请等别人接受，或用 /cancel 撤回。".into(),
        Msg::NotYourChallenge => "只有发起挑战的人才能撤回。".into(),
        Msg::ChallengeDeclined { by } => format!("{by}拒绝了挑战。"),
        Msg::ChallengeCancelled => "挑战已撤回。".into(),
        Msg::ChallengeExpired { challenger } => format!("{challenger}的挑战无人及时接受，已失效。"),
        Msg::GameStarted { red, black, time_control, ruleset, id } => format!("第{id}局开始：{red}（红）对{black}（黑），{time_control}，{ruleset}。"),
        Msg::Moved { ply, player, text, iccs } => format!("{ply}. {player}：{}", with_iccs(text, iccs, Lang::Zh)),
        Msg::ToMove { player, color } => format!("轮到{player}（{color}）走棋。"),
        Msg::Check { player } => format!("将军！{player}的将（帅）被攻击。"),
        Msg::Clocks { red, black } => format!("⏱ 红 {red} · 黑 {black}"),
        Msg::NoClock => "本局不计时。".into(),
        Msg::GameOver { score, headline } => format!("对局结束：{headline}（{score}）。"),
        Msg::Resigned { player } => format!("{player}认输"),
        Msg::DrawAgreed => "双方同意".into(),
        Msg::TimeForfeit { player } => format!("{player}超时"),
        Msg::TimeWarning { player, left } => format!("⏰ {player}，你的时间只剩{left}。"),
        Msg::DrawOffered { by, to } => format!("{by}提议和棋。{to}，用 /draw 同意或 /decline 拒绝。"),
        Msg::DrawAlreadyOffered => "你已经提和了；在对方回答或走棋之前一直有效。".into(),
        Msg::DrawDeclined { by } => format!("{by}拒绝了和棋提议。"),
        Msg::NoDrawOffer => "没有需要回答的和棋提议。".into(),
        Msg::OwnDrawOffer { to } => format!("这是你自己的和棋提议，只有{to}能回答；在{to}回答或走棋之前一直有效。"),
        Msg::OwnTakeback { to } => format!("这是你自己的悔棋请求，只有{to}能回答。"),
        Msg::IdleWarning { absent, waiting, idle, left } => format!("⏰ {absent}，轮到你走棋，你已{idle}未走。若{left}内仍不走，{waiting}可以申请结束本局。"),
        Msg::IdleClaimable { absent, waiting, idle } => format!("{absent}已{idle}未走棋。{waiting}，你现在可以用 /claim 判胜，或用 /claim end 结束本局不计结果；在此之前{absent}走棋则对局照常继续。"),
        Msg::Abandoned { player } => format!("{player}弃局"),
        Msg::ClaimTooEarly { absent, left } => format!("{absent}还有{left}可以走棋，之后你才能申请。"),
        Msg::ClaimOwnMove => "现在轮到你走棋，还不能申请。".into(),
        Msg::ClaimTimed => "本局计时：对方不走棋会超时判负。/claim 只用于不计时的对局。".into(),
        Msg::ClaimEnded { by, absent } => format!("{by}结束了本局，不计结果：{absent}已停止走棋。"),
        Msg::BadClaim { word } => format!("看不懂 /claim 里的“{word}”。用 /claim 判胜，或用 /claim end 结束本局不计结果。"),
        Msg::DrawClaimTooEarly { counted, needed } => format!("连续{needed}步无吃子才能申请判和；目前只计{counted}步。你仍可用 /draw 提和。"),
        Msg::TakebacksDisabled => "本频道不允许悔棋。可以更改本频道设置的人能用 /takebacks on 为之后的对局开启。".into(),
        Msg::TakebackRequested { by, to } => format!("{by}请求悔棋。{to}，用 /takeback 同意或 /decline 拒绝。"),
        Msg::TakebackDone { plies } => format!("已悔棋（{plies}步）。"),
        Msg::TakebackDeclined { by } => format!("{by}不同意悔棋。"),
        Msg::NothingToTakeBack => "还没有可以悔的棋。".into(),
        Msg::Aborted => "对局已取消，不计结果。".into(),
        Msg::AbortTooLate => "双方都已走棋，不能再取消对局。你可以用 /resign 认输，或用 /draw 提和。".into(),
        Msg::GameIsOver => "那局已经结束。用 /play 开始新对局。".into(),
        Msg::BoardCaption { red, black, ply } => format!("{red}（红）对{black}（黑），第{ply}步后"),
        Msg::LegalMoves { count, list } => format!("共{count}种合法着法：{list}"),
        Msg::NothingToExplain => "这里还没有可解释的裁决、拒绝或提醒。".into(),
        Msg::RulesetIs { name, code } => format!("本频道的新对局采用{name}。用 /ruleset official|asian|vietnam|cxq|casual 更改；/rules {code} 查看说明。"),
        Msg::RulesetSet { name, game_running } => {
            if *game_running {
                format!("本频道以后的新对局将使用{name}；进行中的对局保持原规则。")
            } else {
                format!("本频道以后的新对局将使用{name}。")
            }
        }
        Msg::UnknownRuleset { name } => format!("没有“{name}”这套规则。请选择 official、asian、vietnam、cxq 或 casual。"),
        Msg::NotationIs { name, example } => format!("你的着法按{name}记谱法读写（例如{example}）。用 /notation iccs|wxf|chinese|vietnamese 更改。"),
        Msg::UnknownNotation { name } => format!("没有“{name}”这种记谱法。请选择 iccs、wxf、chinese 或 vietnamese。"),
        Msg::LangIs => "本频道使用中文。用 /lang vi|en|zh 更改。".into(),
        Msg::UnknownLang { name } => format!("不支持“{name}”这种语言。请选择 vi、en 或 zh。"),
        Msg::TakebacksSet { on } => if *on { "本频道以后的新对局允许悔棋。".into() } else { "本频道以后的新对局不允许悔棋。".into() },
        Msg::GamesList { lines } => format!("你的对局：\n{}", lines.join("\n")),
        Msg::GameLine { id, opponent, side, plies, state, here } => {
            let state = match state {
                GameState::Playing => "进行中",
                GameState::Aborted => "已取消",
                GameState::Won => "你胜",
                GameState::Lost => "你负",
                GameState::Drawn => "和棋",
            };
            let place = if *here { "本频道" } else { "其他频道" };
            format!("第{id}局：对手{opponent}，你执{}，已走{plies}步，{state}（{place}）", side_name(*side, Lang::Zh))
        }
        Msg::NoGames => "你还没有对局。用 /play 开始一局。".into(),
        Msg::StaleButton => "这个按钮属于之前的局面，请使用最新的消息。".into(),
        Msg::NotYourButton => "这个按钮只供本局棋手使用。".into(),
        Msg::ButtonForSomeoneElse => "这个按钮是给别人的，不是给你的。".into(),
        Msg::PickPiece { player } => format!("{player}，请选择要走的棋子："),
        Msg::PickTarget { player, piece } => format!("{player}：{piece}走到哪里？"),
        Msg::ConfirmResign => "你确定要认输吗？".into(),
        Msg::Label(l) => label(*l).into(),
        Msg::PgnCaption => "棋谱（PGN）：".into(),
        Msg::GifCaption { plies } => format!("对局回放（{plies}步）"),
        Msg::NotAMove { detail } => detail.clone(),
        Msg::BotName { level } => format!("{level}级电脑"),
        Msg::BadBotLevel { text, top } => format!("电脑等级只有1到{top}级，没有“{text}”这一级。例如：/play bot 10 red"),
        Msg::BotStrength { level, top, rating } => format!("电脑下第{level}级（共{top}级）：在棋手等级分的尺度上约{rating}分，新棋手从1500分起（由电脑之间的对局估算）。"),
        Msg::TooManyBotGames { max } => format!("你已同时与电脑下{max}盘棋，已达上限。请先下完或认输其中一盘。"),
        Msg::About { version, documents, source } => {
            let source = source.as_deref().map_or_else(String::new, |s| format!("\n源代码：{s}"));
            format!("xiangqi-bot {version}，聊天中的象棋电脑。裁判依据以下规则文献判定：\n{documents}\n输入 /rules 查看规则手册，裁决之后输入 /why 查看理由。{source}")
        }
        Msg::WhichGame { games } => format!("这里正在进行多盘对局：\n{games}\n请指明是哪一局：/board 12。"),
        Msg::GameLabel { id } => format!("第{id}局"),
        Msg::PlayerBusy { name, id } => format!("{name}正在这里下第{id}局。在同一个群里每人一次只下一局，请等那一局结束。"),
        Msg::QueueFull => "这里同时收到的请求太多，我跳过了一些回复。请稍后再问一次。".into(),
        Msg::AdminsOnly { discord, slash } => {
            let who = if *discord { "只有能管理本频道的成员才能更改本频道的设置。" } else { "只有本群管理员才能更改本群的设置。" };
            match slash {
                Some(cmd) => format!("{who}手动输入的命令无法表明你在本服务器的权限，请使用斜杠命令 {cmd}。"),
                None => who.to_string(),
            }
        }
        Msg::BotUnavailable => "这里暂时不能与电脑对弈。请用 /play 向别人挑战。".into(),
        Msg::BadTimeControl { text } => format!("看不懂用时“{text}”。请用 none、10+5（分钟+秒）、20m/1m、10m+3x30s 或 1d。"),
        Msg::BadStart { detail } => format!("无法从这个局面开始：{detail}"),
        Msg::Raw(s) => s.clone(),
    }
}

fn label(l: Label) -> &'static str {
    match l {
        Label::Accept => "接受",
        Label::Decline => "拒绝",
        Label::Resign => "认输",
        Label::ConfirmResign => "确定认输",
        Label::KeepPlaying => "继续下棋",
        Label::Draw => "提和",
        Label::AcceptDraw => "同意和棋",
        Label::DeclineOffer => "拒绝",
        Label::AcceptTakeback => "同意悔棋",
        Label::Flip => "翻转棋盘",
        Label::WebBoard => "打开棋盘",
        Label::PickMove => "选择着法",
        Label::Back => "返回",
        Label::Rematch => "再来一局",
        Label::PlayBot => "与电脑对弈",
    }
}
