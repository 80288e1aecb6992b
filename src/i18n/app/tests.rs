//! Every message exists in every language, differs between languages, and leaves no
//! placeholder behind.

use super::{text, Label, Msg};
use crate::i18n::Lang;

/// One example of each message (the match below fails to compile when a variant is added
/// without an example).
fn samples() -> Vec<Msg> {
    vec![
        Msg::Help {
            commands: "/play — x".into(),
            top: 20,
        },
        Msg::UnknownCommand { cmd: "/foo".into() },
        Msg::TooLong { max: 500 },
        Msg::RateLimited { secs: 5 },
        Msg::StorageFailure,
        Msg::NoGame,
        Msg::NotYourGame {
            red: "an".into(),
            black: "bo".into(),
        },
        Msg::NotYourTurn {
            player: "bo".into(),
        },
        Msg::GameInProgress {
            red: "an".into(),
            black: "bo".into(),
        },
        Msg::ChallengePending {
            challenger: "an".into(),
        },
        Msg::ChallengeSelf,
        Msg::ChallengeCreated {
            challenger: "an".into(),
            opponent: Some("bo".into()),
            time_control: "time 10m+5s".into(),
            ruleset: "asian".into(),
            color: "red".into(),
            minutes: 10,
        },
        Msg::BadPlayArgument { word: "zzz".into() },
        Msg::NoChallenge,
        Msg::ChallengeNotForYou {
            opponent: "bo".into(),
        },
        Msg::OwnChallenge,
        Msg::NotYourChallenge,
        Msg::ChallengeDeclined { by: "bo".into() },
        Msg::ChallengeCancelled,
        Msg::ChallengeExpired {
            challenger: "an".into(),
        },
        Msg::GameStarted {
            red: "an".into(),
            black: "bo".into(),
            time_control: "time none".into(),
            ruleset: "official".into(),
            id: 7,
        },
        Msg::Moved {
            ply: 1,
            player: "an".into(),
            text: "C2.5".into(),
            iccs: "h2e2".into(),
        },
        Msg::ToMove {
            player: "bo".into(),
            color: "Black".into(),
        },
        Msg::Check {
            player: "bo".into(),
        },
        Msg::Clocks {
            red: "9:58".into(),
            black: "10:00".into(),
        },
        Msg::NoClock,
        Msg::GameOver {
            score: "1-0".into(),
            headline: "x".into(),
        },
        Msg::Resigned {
            player: "bo".into(),
        },
        Msg::DrawAgreed,
        Msg::TimeForfeit {
            player: "bo".into(),
        },
        Msg::TimeWarning {
            player: "bo".into(),
            left: "0:59".into(),
        },
        Msg::DrawOffered {
            by: "an".into(),
            to: "bo".into(),
        },
        Msg::DrawAlreadyOffered,
        Msg::DrawDeclined { by: "bo".into() },
        Msg::NoDrawOffer,
        Msg::DrawClaimTooEarly {
            counted: 40,
            needed: 100,
        },
        Msg::TakebacksDisabled,
        Msg::TakebackRequested {
            by: "an".into(),
            to: "bo".into(),
        },
        Msg::TakebackDone { plies: 1 },
        Msg::TakebackDeclined { by: "bo".into() },
        Msg::NothingToTakeBack,
        Msg::Aborted,
        Msg::AbortTooLate,
        Msg::GameIsOver,
        Msg::BoardCaption {
            red: "an".into(),
            black: "bo".into(),
            ply: 3,
        },
        Msg::LegalMoves {
            count: 2,
            list: "h2e2 b2e2".into(),
        },
        Msg::NothingToExplain,
        Msg::RulesetIs {
            name: "official rules".into(),
            code: "official".into(),
        },
        Msg::RulesetSet {
            name: "cxq".into(),
            game_running: true,
        },
        Msg::UnknownRuleset { name: "q".into() },
        Msg::NotationIs {
            name: "wxf".into(),
            example: "C2.5".into(),
        },
        Msg::UnknownNotation { name: "q".into() },
        Msg::LangIs,
        Msg::UnknownLang { name: "q".into() },
        Msg::TakebacksSet { on: true },
        Msg::GamesList {
            lines: vec!["#1".into()],
        },
        Msg::GameLine {
            id: 4,
            opponent: "bo".into(),
            side: crate::core::Color::Red,
            plies: 12,
            state: super::GameState::Won,
            here: false,
        },
        Msg::NoGames,
        Msg::StaleButton,
        Msg::NotYourButton,
        Msg::PickPiece {
            player: "an".into(),
        },
        Msg::PickTarget {
            player: "an".into(),
            piece: "e2".into(),
        },
        Msg::ConfirmResign,
        Msg::Label(Label::Accept),
        Msg::PgnCaption,
        Msg::GifCaption { plies: 5 },
        Msg::NotAMove { detail: "d".into() },
        Msg::BadTimeControl { text: "q".into() },
        Msg::Raw("raw".into()),
        Msg::BadStart { detail: "d".into() },
        Msg::ButtonForSomeoneElse,
        Msg::OwnDrawOffer { to: "bo".into() },
        Msg::OwnTakeback { to: "bo".into() },
        Msg::IdleWarning {
            absent: "bo".into(),
            waiting: "an".into(),
            idle: "18 h".into(),
            left: "6 h".into(),
        },
        Msg::IdleClaimable {
            absent: "bo".into(),
            waiting: "an".into(),
            idle: "24 h".into(),
        },
        Msg::Abandoned {
            player: "bo".into(),
        },
        Msg::ClaimTooEarly {
            absent: "bo".into(),
            left: "3 h".into(),
        },
        Msg::ClaimOwnMove,
        Msg::ClaimTimed,
        Msg::ClaimEnded {
            by: "an".into(),
            absent: "bo".into(),
        },
        Msg::BadClaim { word: "zz".into() },
        Msg::BotName { level: 3 },
        Msg::BadBotLevel {
            text: "99".into(),
            top: 20,
        },
        Msg::BotStrength {
            level: 10,
            top: 20,
            rating: 2560,
        },
        Msg::BotUnavailable,
        Msg::TooManyBotGames { max: 3 },
        Msg::QueueFull,
        Msg::WhichGame {
            games: "#1: a – b\n#2: c – d".into(),
        },
        Msg::GameLabel { id: 12 },
        Msg::PlayerBusy {
            name: "an".into(),
            id: 3,
        },
        Msg::About {
            version: "0.1.0".into(),
            documents: "- a\n- b".into(),
            source: Some("https://example.org/xq".into()),
        },
        Msg::AdminsOnly {
            discord: false,
            slash: None,
        },
        Msg::AdminsOnly {
            discord: true,
            slash: Some("/hints".into()),
        },
    ]
}

fn index(m: &Msg) -> usize {
    match m {
        Msg::Help { .. } => 0,
        Msg::UnknownCommand { .. } => 1,
        Msg::TooLong { .. } => 2,
        Msg::RateLimited { .. } => 3,
        Msg::StorageFailure => 4,
        Msg::NoGame => 5,
        Msg::NotYourGame { .. } => 6,
        Msg::NotYourTurn { .. } => 7,
        Msg::GameInProgress { .. } => 8,
        Msg::ChallengePending { .. } => 9,
        Msg::ChallengeSelf => 10,
        Msg::ChallengeCreated { .. } => 11,
        Msg::BadPlayArgument { .. } => 12,
        Msg::NoChallenge => 13,
        Msg::ChallengeNotForYou { .. } => 14,
        Msg::OwnChallenge => 15,
        Msg::NotYourChallenge => 16,
        Msg::ChallengeDeclined { .. } => 17,
        Msg::ChallengeCancelled => 18,
        Msg::ChallengeExpired { .. } => 19,
        Msg::GameStarted { .. } => 20,
        Msg::Moved { .. } => 21,
        Msg::ToMove { .. } => 22,
        Msg::Check { .. } => 23,
        Msg::Clocks { .. } => 24,
        Msg::NoClock => 25,
        Msg::GameOver { .. } => 26,
        Msg::Resigned { .. } => 27,
        Msg::DrawAgreed => 28,
        Msg::TimeForfeit { .. } => 29,
        Msg::TimeWarning { .. } => 30,
        Msg::DrawOffered { .. } => 31,
        Msg::DrawAlreadyOffered => 32,
        Msg::DrawDeclined { .. } => 33,
        Msg::NoDrawOffer => 34,
        Msg::DrawClaimTooEarly { .. } => 35,
        Msg::TakebacksDisabled => 36,
        Msg::TakebackRequested { .. } => 37,
        Msg::TakebackDone { .. } => 38,
        Msg::TakebackDeclined { .. } => 39,
        Msg::NothingToTakeBack => 40,
        Msg::Aborted => 41,
        Msg::AbortTooLate => 42,
        Msg::GameIsOver => 43,
        Msg::BoardCaption { .. } => 44,
        Msg::LegalMoves { .. } => 45,
        Msg::NothingToExplain => 46,
        Msg::RulesetIs { .. } => 47,
        Msg::RulesetSet { .. } => 48,
        Msg::UnknownRuleset { .. } => 49,
        Msg::NotationIs { .. } => 50,
        Msg::UnknownNotation { .. } => 51,
        Msg::LangIs => 52,
        Msg::UnknownLang { .. } => 53,
        Msg::TakebacksSet { .. } => 54,
        Msg::GamesList { .. } => 55,
        Msg::NoGames => 56,
        Msg::StaleButton => 57,
        Msg::NotYourButton => 58,
        Msg::PickPiece { .. } => 59,
        Msg::PickTarget { .. } => 60,
        Msg::ConfirmResign => 61,
        Msg::Label(_) => 62,
        Msg::PgnCaption => 63,
        Msg::GifCaption { .. } => 64,
        Msg::NotAMove { .. } => 65,
        Msg::BadTimeControl { .. } => 66,
        Msg::Raw(_) => 67,
        Msg::BadStart { .. } => 68,
        Msg::ButtonForSomeoneElse => 69,
        Msg::OwnDrawOffer { .. } => 70,
        Msg::OwnTakeback { .. } => 71,
        Msg::IdleWarning { .. } => 72,
        Msg::IdleClaimable { .. } => 73,
        Msg::Abandoned { .. } => 74,
        Msg::ClaimTooEarly { .. } => 75,
        Msg::ClaimOwnMove => 76,
        Msg::ClaimTimed => 77,
        Msg::ClaimEnded { .. } => 78,
        Msg::BadClaim { .. } => 79,
        Msg::BotName { .. } => 80,
        Msg::BadBotLevel { .. } => 81,
        Msg::BotUnavailable => 82,
        Msg::TooManyBotGames { .. } => 83,
        Msg::AdminsOnly { .. } => 84,
        Msg::QueueFull => 85,
        Msg::GameLine { .. } => 86,
        Msg::About { .. } => 87,
        Msg::WhichGame { .. } => 88,
        Msg::GameLabel { .. } => 89,
        Msg::PlayerBusy { .. } => 90,
        Msg::BotStrength { .. } => 91,
    }
}

const VARIANTS: usize = 92;

#[test]
fn durations_read_naturally() {
    use super::duration_text;
    assert_eq!(duration_text(24 * 3_600_000, Lang::En), "24 h");
    assert_eq!(
        duration_text(5 * 3_600_000 + 30 * 60_000, Lang::Vi),
        "5 giờ 30 phút"
    );
    assert_eq!(duration_text(45 * 60_000, Lang::Zh), "45分钟");
    assert_eq!(duration_text(1_500, Lang::En), "2 s");
}

#[test]
fn every_message_in_every_language() {
    let all = samples();
    let mut seen = [false; VARIANTS];
    for m in &all {
        seen[index(m)] = true;
        let texts: Vec<String> = Lang::ALL.iter().map(|&l| text(m, l)).collect();
        for (t, l) in texts.iter().zip(Lang::ALL) {
            assert!(!t.trim().is_empty(), "{m:?} in {l}");
            assert!(!t.contains("{}") && !t.contains("{0}"), "{m:?} in {l}: {t}");
        }
        if !matches!(m, Msg::Raw(_) | Msg::NotAMove { .. } | Msg::Moved { .. }) {
            assert!(
                texts[0] != texts[1] && texts[1] != texts[2],
                "{m:?}: {texts:?}"
            );
        }
    }
    assert!(seen.iter().all(|&s| s), "a message has no sample");
    for l in Label::ALL {
        let t: Vec<String> = Lang::ALL.iter().map(|&g| text(&Msg::Label(l), g)).collect();
        assert!(
            t.iter().all(|s| !s.is_empty()) && t[0] != t[1] && t[1] != t[2],
            "{l:?}"
        );
    }
}

/// A game without a clock says so once: "không giới hạn thời gian", "不限时", never "thời
/// gian không tính giờ" or "用时不计时" (issue 31); a clock is named with its word.
#[test]
fn a_game_without_a_clock_reads_naturally() {
    use super::time_control_text;
    use crate::game::TimeControl;
    let started = |tc, lang| {
        text(
            &Msg::GameStarted {
                red: "An".into(),
                black: "Bo".into(),
                time_control: time_control_text(tc, lang),
                ruleset: "r".into(),
                id: 1,
            },
            lang,
        )
    };
    let vi = started(TimeControl::None, Lang::Vi);
    assert!(
        vi.contains("không giới hạn thời gian") && !vi.contains("tính giờ"),
        "{vi}"
    );
    let zh = started(TimeControl::None, Lang::Zh);
    assert!(zh.contains("不限时") && !zh.contains("用时不"), "{zh}");
    let timed: TimeControl = "10+5".parse().expect("a time control");
    for (lang, word) in [
        (Lang::En, "time 10"),
        (Lang::Vi, "thời gian 10"),
        (Lang::Zh, "用时10"),
    ] {
        let t = started(timed, lang);
        assert!(t.contains(word), "{lang}: {t}");
    }
}

/// A line of `/games` says which side the reader plays and what its number counts, apart from
/// the opponent's name (issue 31: "vs Bob (Red) — 1-0, 12" read as Bob playing Red).
#[test]
fn a_game_line_labels_the_side_and_the_plies() {
    let line = |lang| {
        text(
            &Msg::GameLine {
                id: 3,
                opponent: "Bob".into(),
                side: crate::core::Color::Red,
                plies: 12,
                state: super::GameState::Playing,
                here: true,
            },
            lang,
        )
    };
    for (lang, side, plies) in [
        (Lang::En, "you play Red", "12 plies"),
        (Lang::Vi, "bạn cầm quân Đỏ", "12 nước"),
        (Lang::Zh, "你执红方", "已走12步"),
    ] {
        let t = line(lang);
        assert!(t.contains(side) && t.contains(plies), "{lang}: {t}");
        assert!(!t.contains("Bob (") && !t.contains("Bob（"), "{lang}: {t}");
    }
}

/// The bot's name takes no brackets of its own: beside its colour it reads "Máy cấp 2 (Đen)",
/// not "Máy (cấp 2) (Đen)" (issue 31).
#[test]
fn the_bot_and_its_colour_take_one_pair_of_brackets() {
    for lang in Lang::ALL {
        let name = text(&Msg::BotName { level: 2 }, lang);
        assert!(name.contains('2'), "{lang}: {name}");
        let line = text(
            &Msg::ToMove {
                player: name,
                color: crate::i18n::side_name(crate::core::Color::Black, lang).into(),
            },
            lang,
        );
        let brackets = line.matches(['(', '（']).count();
        assert_eq!(brackets, 1, "{lang}: {line}");
    }
}

/// A move typed in ICCS is echoed once ("f9f8", not "f9f8 (f9f8)"); another notation gets its
/// ICCS beside it (issue 31).
#[test]
fn a_move_in_iccs_is_echoed_once() {
    for lang in Lang::ALL {
        let typed = |written: &str| {
            text(
                &Msg::Moved {
                    ply: 6,
                    player: "Bo".into(),
                    text: written.into(),
                    iccs: "f9f8".into(),
                },
                lang,
            )
        };
        let once = typed("f9f8");
        assert_eq!(once.matches("f9f8").count(), 1, "{lang}: {once}");
        let both = typed("K6+1");
        assert!(
            both.contains("K6+1") && both.contains("f9f8"),
            "{lang}: {both}"
        );
    }
}

/// Chinese lines take full-width punctuation (issue 31: "长将.", "将军:", ASCII quotes).
#[test]
fn chinese_messages_use_full_width_punctuation() {
    for m in samples() {
        if matches!(m, Msg::Raw(_) | Msg::NotAMove { .. } | Msg::Help { .. }) {
            continue;
        }
        crate::i18n::lint::assert_zh_punctuation(&text(&m, Lang::Zh), &format!("{m:?}"));
    }
    for l in Label::ALL {
        crate::i18n::lint::assert_zh_punctuation(
            &text(&Msg::Label(l), Lang::Zh),
            &format!("{l:?}"),
        );
    }
}

/// A gloss never repeats the word it glosses (issue 31).
#[test]
fn no_message_glosses_a_word_with_itself() {
    for m in samples() {
        for lang in Lang::ALL {
            let faults = crate::i18n::lint::repeated_glosses(&text(&m, lang));
            assert!(faults.is_empty(), "{m:?} in {lang}: {faults:?}");
        }
    }
}

/// Words that must not come back (issue 31): a trade is "đổi" not "thí", the bot is "Máy" and
/// 电脑, 等级分对局 not 计分对局, game numbers without "#" in Chinese; refusals that read
/// clumsily ("thao tác", "只有他们能操作", "我不会说"); Vietnamese quotes with “ ”.
#[test]
fn no_forbidden_words() {
    let forbidden: [(Lang, &[&str]); 2] = [
        (
            Lang::Vi,
            &[
                "(thí",
                "/thí",
                "Bot ",
                " bot ",
                "thao tác",
                "tự thách đấu mình",
                "không nói được",
                "\"",
            ],
        ),
        (
            Lang::Zh,
            &[
                "机器人",
                "执随机",
                "计分对局",
                "第 #",
                "轮走方",
                "象棋中这判负",
                "操作",
                "向自己挑战",
                "我不会说",
            ],
        ),
    ];
    for m in samples() {
        for (lang, words) in forbidden {
            let t = text(&m, lang).replace("/play bot", "");
            for w in words {
                assert!(!t.contains(w), "{m:?} in {lang}: {w:?} in {t}");
            }
        }
    }
}
