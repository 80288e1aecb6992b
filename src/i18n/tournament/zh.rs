//! 中文.

use super::{TourLabel, TourMsg};

pub(super) fn text(m: &TourMsg) -> String {
    match m {
        TourMsg::Created { id, format, terms, organiser, starts } => {
            let when = match starts {
                Some(s) => format!("比赛{s}开始。"),
                None => format!("由{organiser}用 /tournament start 开始。"),
            };
            format!("🏆 {id}号比赛：{format}；{terms}。组织者：{organiser}。点按钮或用 /tournament join 报名。{when}")
        }
        TourMsg::Joined { name, id, players, count } => format!("{name}报名参加{id}号比赛。棋手（{count}人）：{players}。"),
        TourMsg::Left { name, id, count } => format!("{name}退出{id}号比赛（还有{count}人）。"),
        TourMsg::Paused { name } => format!("{name}暂时休息，再次 /tournament join 之前不会被编排。"),
        TourMsg::Withdrawn { name } => format!("{name}退出比赛，已有成绩保留。"),
        TourMsg::NoPauseInRobin => "循环赛的赛程是固定的，不能暂停；用 /tournament withdraw 退出比赛。".into(),
        TourMsg::AlreadyIn => "你已经报名了。".into(),
        TourMsg::NotIn => "你没有参加这届比赛。".into(),
        TourMsg::Full { max } => format!("比赛已满（{max}人）。"),
        TourMsg::RatingTooLow { need, have } => format!("本届比赛要求等级分{need}以上，你的等级分是{have}。"),
        TourMsg::FinishYourGame { game } => format!("请先下完你在这里的第{game}局，再报名。"),
        TourMsg::EntriesClosed => "本届比赛不再接受报名。".into(),
        TourMsg::NoTournament => "这里还没有比赛。管理员可以用 /tournament swiss、/tournament arena 或 /tournament robin 创建。".into(),
        TourMsg::AlreadyOne { id } => format!("这里已经有{id}号比赛，同一时间只办一届；/tournament cancel 可以取消。"),
        TourMsg::OrganisersOnly { discord: true } => "只有能管理本服务器的成员才能创建、开始和取消比赛；任何人都可以报名。".into(),
        TourMsg::OrganisersOnly { discord: false } => "只有本群管理员才能创建、开始和取消比赛；任何人都可以报名。".into(),
        TourMsg::NotInPrivate => "比赛在群组和服务器里举行，不在私聊中举行。".into(),
        TourMsg::NeedsClock => "比赛需要棋钟：请加上时间，例如 5+3 或 10+5。".into(),
        TourMsg::BadWord { word } => format!("我看不懂 /tournament 里的“{word}”。用法：/tournament swiss|arena|robin [rounds N | minutes M] [时间，如 5+3] [规则] [rated] [max N] [min 等级分] [in 分钟]，或 /tournament join|leave|start|pause|withdraw|berserk|cancel|standings|pairings。"),
        TourMsg::TooFew { need } => format!("至少需要{need}名棋手才能开始。"),
        TourMsg::OutOfRange { what, min, max } => format!("{what}必须在{min}到{max}之间。"),
        TourMsg::AlreadyStarted => "本届比赛已经开始了。".into(),
        TourMsg::Started { id, format, count, ends } => {
            let end = ends.as_ref().map_or_else(String::new, |e| format!("比赛{e}结束。"));
            format!("🏆 {id}号比赛开始：{format}，{count}名棋手。{end}")
        }
        TourMsg::Round { id, round, of, lines } => format!("{id}号比赛，第{round}轮（共{of}轮）：\n{lines}"),
        TourMsg::PairingLine { game, red, black } => format!("第{game}局：{red}（红）对{black}（黑）"),
        TourMsg::ResultLine { red, score, black } => format!("{red} {score} {black}"),
        TourMsg::ByeLine { name, point: true } => format!("{name}：轮空（得1分）"),
        TourMsg::ByeLine { name, point: false } => format!("{name}本轮轮休"),
        TourMsg::GameOf { id, round: Some(r) } => format!("{id}号比赛，第{r}轮"),
        TourMsg::GameOf { id, round: None } => format!("{id}号比赛"),
        TourMsg::VenueName { round: Some(r), red, black, .. } => format!("第{r}轮：{red} – {black}"),
        TourMsg::VenueName { id, round: None, red, black } => format!("{id}号比赛：{red} – {black}"),
        TourMsg::PlayedIn { game, red, black, link } => format!("第{game}局 {red} – {black} 在 {link} 进行"),
        TourMsg::BoardsOnAsk { games } => format!("{games}局对局开始。红方先走：直接输入着法（或用 /board 查看你的对局）；棋钟已经开始计时。"),
        TourMsg::NextRound { id, round, when } => format!("{id}号比赛：第{round}轮将于{when}开始。"),
        TourMsg::ArenaTop { id, top } => format!("{id}号比赛领先：{top}"),
        TourMsg::TimeUp { id, playing: 0 } => format!("{id}号比赛：时间到。"),
        TourMsg::TimeUp { id, playing } => format!("{id}号比赛：时间到。不再编排新对局，正在进行的{playing}局仍然计分。"),
        TourMsg::Over { id, winner, podium, table } => format!("🏆 {id}号比赛结束：{winner}夺冠。祝贺{podium}！\n{table}"),
        TourMsg::Cancelled { id, ended: 0 } => format!("{id}号比赛已取消。"),
        TourMsg::Cancelled { id, ended } => format!("{id}号比赛已取消；正在进行的{ended}局结束，不计结果，也不计等级分。"),
        TourMsg::CalledOffTooFew { id } => format!("{id}号比赛取消：到开始时间报名不足两人。"),
        TourMsg::Standings { id, status, table } => format!("{id}号比赛（{status}）：\n{table}"),
        TourMsg::RoundsRow { rank, name, points, buchholz, sb, away } => {
            let away = if *away { "（已退出）" } else { "" };
            format!("{rank}. {name}{away}：{points}分 · 对手分 {buchholz} · 索伯分 {sb}")
        }
        TourMsg::ArenaRow { rank, name, points, games, fire, away } => {
            let fire = if *fire { " 🔥" } else { "" };
            let away = if *away { "（已退出）" } else { "" };
            format!("{rank}. {name}{away}：{points}分{fire} · {games}局")
        }
        TourMsg::NoPlayers => "还没有人报名。".into(),
        TourMsg::Pairings { id, lines } => format!("{id}号比赛正在进行的对局：\n{lines}"),
        TourMsg::NoGamesNow => "现在没有正在进行的比赛对局。".into(),
        TourMsg::Berserk { name } => format!("{name}狂暴：自己的用时减半，赢棋多得1分。"),
        TourMsg::NoBerserk => "狂暴只能在你的竞技场对局中、走第一步之前使用。".into(),
        TourMsg::NoAbort => "比赛对局不能中止；可以用 /resign 认输。".into(),
        TourMsg::InTournament { name, id } => format!("{name}正在参加这里的{id}号比赛，对局由比赛编排。其他对局可以在别的群里下。"),
        TourMsg::Usage => "这里没有正在举办的比赛。管理员可以创建：/tournament swiss rounds 5 10+5、/tournament arena minutes 60 3+2 或 /tournament robin 15+10。然后棋手用 /tournament join 报名。".into(),
        TourMsg::Summary { id, format, terms, stage, count } => format!("{id}号比赛：{format}；{terms}。{stage}。棋手：{count}人。/tournament standings 查看排名。"),
        TourMsg::StageEntry => "正在报名".into(),
        TourMsg::StageRunning { left: Some(left), .. } => format!("进行中，还剩{left}"),
        TourMsg::StageRunning { round, of, left: None } => format!("第{round}轮（共{of}轮）"),
        TourMsg::StageEnding => "时间已到，最后几局正在进行".into(),
        TourMsg::StageFinished => "已结束".into(),
        TourMsg::StageCancelled => "已取消".into(),
        TourMsg::Rated => "计等级分".into(),
        TourMsg::Casual => "友谊赛".into(),
        TourMsg::OwnVenues => "机器人可以创建时，每局在单独的子区（话题）中".into(),
        TourMsg::MaxPlayers { max } => format!("最多{max}人"),
        TourMsg::MinRating { min } => format!("等级分{min}以上"),
        TourMsg::FirstMoveRule { minutes } => format!("双方各有{minutes}分钟走出第一步，否则判负。"),
        TourMsg::Page { page, pages } => format!("第{page}页，共{pages}页；/tournament standings {}查看下一页。", page + 1),
        TourMsg::Label(TourLabel::Join) => "报名".into(),
        TourMsg::Label(TourLabel::Leave) => "退出".into(),
    }
}
