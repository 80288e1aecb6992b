//! Property tests of the UCI parsers: every command and reply written in either dialect reads
//! back to the same value, and arbitrary text never panics a parser.

use proptest::prelude::*;
use xiangqi_bot::core::{Move, Square};
use xiangqi_bot::engine::uci::{
    parse_command, parse_engine_line, Bound, Dialect, EngineLine, Go, GuiCommand, InfoLine,
    InfoScore, OptionKind, StartPos, UciOption,
};
use xiangqi_bot::engine::Score;

fn square() -> impl Strategy<Value = Square> {
    (0u8..9, 0u8..10).prop_map(|(f, r)| Square::new(f, r).expect("on the board"))
}

fn a_move() -> impl Strategy<Value = Move> {
    (square(), square()).prop_map(|(a, b)| Move::new(a, b))
}

fn dialect() -> impl Strategy<Value = Dialect> {
    prop_oneof![Just(Dialect::Iccs), Just(Dialect::Fairy)]
}

/// Words as option names and values: no keywords, no extra spaces.
fn words() -> impl Strategy<Value = String> {
    proptest::collection::vec("[A-Za-z_][A-Za-z0-9_-]{0,8}", 1..4)
        .prop_filter("no keywords", |w| {
            !w.iter().any(|t| {
                matches!(
                    t.as_str(),
                    "name" | "value" | "type" | "default" | "min" | "max" | "var"
                )
            })
        })
        .prop_map(|w| w.join(" "))
}

fn score() -> impl Strategy<Value = InfoScore> {
    (
        prop_oneof![
            (-30_000i32..30_000).prop_map(Score::Cp),
            (-50i32..50).prop_map(Score::Mate)
        ],
        prop_oneof![
            Just(None),
            Just(Some(Bound::Lower)),
            Just(Some(Bound::Upper))
        ],
    )
        .prop_map(|(score, bound)| InfoScore { score, bound })
}

fn go() -> impl Strategy<Value = Go> {
    let opt_ms = proptest::option::of(0u64..10_000_000);
    (
        proptest::collection::vec(a_move(), 0..4),
        any::<bool>(),
        (
            opt_ms.clone(),
            opt_ms.clone(),
            opt_ms.clone(),
            opt_ms.clone(),
        ),
        proptest::option::of(0u32..100),
        proptest::option::of(1u32..100),
        proptest::option::of(1u64..u64::MAX),
        proptest::option::of(1u32..30),
        opt_ms,
        any::<bool>(),
    )
        .prop_map(
            |(
                searchmoves,
                ponder,
                (wtime, btime, winc, binc),
                movestogo,
                depth,
                nodes,
                mate,
                movetime,
                infinite,
            )| Go {
                searchmoves,
                ponder,
                wtime,
                btime,
                winc,
                binc,
                movestogo,
                depth,
                nodes,
                mate,
                movetime,
                infinite,
            },
        )
}

fn command() -> impl Strategy<Value = GuiCommand> {
    let fen = Just("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    prop_oneof![
        Just(GuiCommand::Uci),
        Just(GuiCommand::IsReady),
        Just(GuiCommand::UciNewGame),
        Just(GuiCommand::Stop),
        Just(GuiCommand::Quit),
        any::<bool>().prop_map(GuiCommand::Debug),
        (words(), proptest::option::of(words()))
            .prop_map(|(name, value)| GuiCommand::SetOption { name, value }),
        (
            prop_oneof![
                Just(StartPos::Startpos),
                fen.prop_map(|f| StartPos::Fen(f.to_string()))
            ],
            proptest::collection::vec(a_move(), 0..40)
        )
            .prop_map(|(start, moves)| GuiCommand::Position { start, moves }),
        go().prop_map(GuiCommand::Go),
    ]
}

fn info() -> impl Strategy<Value = InfoLine> {
    let n = || proptest::option::of(0u64..u64::MAX / 2);
    let small = || proptest::option::of(0u32..1000);
    (
        (
            small(),
            small(),
            proptest::option::of(1u32..50),
            proptest::option::of(score()),
        ),
        (n(), n(), small(), n(), n()),
        proptest::option::of(a_move()),
        small(),
        proptest::collection::vec(a_move(), 0..20),
        proptest::option::of(words()),
    )
        .prop_map(
            |(
                (depth, seldepth, multipv, score),
                (nodes, nps, hashfull, tbhits, time),
                currmove,
                currmovenumber,
                pv,
                string,
            )| InfoLine {
                depth,
                seldepth,
                multipv,
                score,
                nodes,
                nps,
                hashfull,
                tbhits,
                time,
                currmove,
                currmovenumber,
                pv,
                string,
            },
        )
}

fn option_decl() -> impl Strategy<Value = UciOption> {
    let kind = prop_oneof![
        any::<bool>().prop_map(|default| OptionKind::Check { default }),
        (-1000i64..1000, 0i64..100).prop_map(|(min, w)| OptionKind::Spin {
            default: min + w / 2,
            min,
            max: min + w
        }),
        (words(), proptest::collection::vec(words(), 0..5))
            .prop_map(|(default, vars)| OptionKind::Combo { default, vars }),
        Just(OptionKind::Button),
        proptest::option::of(words()).prop_map(|d| OptionKind::String {
            default: d.unwrap_or_default()
        }),
    ];
    (words(), kind).prop_map(|(name, kind)| UciOption { name, kind })
}

fn reply() -> impl Strategy<Value = EngineLine> {
    prop_oneof![
        words().prop_map(EngineLine::IdName),
        words().prop_map(EngineLine::IdAuthor),
        Just(EngineLine::UciOk),
        Just(EngineLine::ReadyOk),
        option_decl().prop_map(EngineLine::Option),
        info().prop_map(EngineLine::Info),
        (
            proptest::option::of(a_move()),
            proptest::option::of(a_move())
        )
            .prop_map(|(best, ponder)| {
                EngineLine::BestMove {
                    best,
                    ponder: best.and(ponder),
                }
            }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn moves_round_trip_in_both_dialects(m in a_move(), d in dialect()) {
        prop_assert_eq!(d.parse_move(&d.format_move(m)), Some(m));
    }

    #[test]
    fn commands_round_trip(c in command(), d in dialect()) {
        let line = c.to_line(d);
        prop_assert_eq!(parse_command(&line, d), Ok(c), "{}", line);
    }

    #[test]
    fn replies_round_trip(r in reply(), d in dialect()) {
        let line = r.to_line(d);
        prop_assert_eq!(parse_engine_line(&line, d), Ok(r), "{}", line);
    }

    #[test]
    fn any_text_is_read_without_panic(s in "\\PC{0,200}", d in dialect()) {
        let _ = parse_command(&s, d);
        let _ = parse_engine_line(&s, d);
        let _ = d.parse_move(&s);
    }

    #[test]
    fn protocol_like_noise_is_read_without_panic(
        head in prop_oneof![Just("go"), Just("position"), Just("setoption"), Just("info"), Just("bestmove"), Just("option"), Just("id")],
        rest in proptest::collection::vec(prop_oneof![
            Just("name".to_string()), Just("value".to_string()), Just("type".to_string()),
            Just("moves".to_string()), Just("fen".to_string()), Just("startpos".to_string()),
            Just("score".to_string()), Just("cp".to_string()), Just("mate".to_string()),
            Just("pv".to_string()), Just("depth".to_string()), Just("spin".to_string()),
            Just("searchmoves".to_string()), Just("ponder".to_string()), Just("string".to_string()),
            "-?[0-9]{1,25}", "[a-j][0-9]{1,2}[a-j][0-9]{1,2}", "\\PC{1,6}"
        ], 0..16),
        d in dialect(),
    ) {
        let line = format!("{head} {}", rest.join(" "));
        let _ = parse_command(&line, d);
        let _ = parse_engine_line(&line, d);
    }
}
