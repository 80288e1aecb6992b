use super::*;
use crate::arbiter::{CountRule, Enforcement, Ruleset, RulesetName, VerdictTable};

fn table_marker(table: VerdictTable, lang: Lang) -> &'static str {
    match (lang, table) {
        (Lang::Vi, VerdictTable::A) => "bảng A",
        (Lang::Vi, VerdictTable::O) => "bảng O",
        (Lang::En, VerdictTable::A) => "table A",
        (Lang::En, VerdictTable::O) => "table O",
        (Lang::Zh, VerdictTable::A) => "A表",
        (Lang::Zh, VerdictTable::O) => "O表",
    }
}

#[test]
fn every_topic_has_a_distinct_text_in_every_language() {
    for t in Topic::ALL {
        let texts: Vec<String> = Lang::ALL.iter().map(|&l| rulebook(Some(t), l)).collect();
        for (l, text) in Lang::ALL.iter().zip(&texts) {
            assert!(!t.title(*l).is_empty(), "{t} {l}: empty title");
            assert!(text.lines().count() >= 3, "{t} {l}: too short:\n{text}");
            assert!(text.starts_with(t.title(*l)), "{t} {l}: no title");
        }
        assert_ne!(texts[0], texts[1], "{t}: vi = en");
        assert_ne!(texts[0], texts[2], "{t}: vi = zh");
        assert_ne!(texts[1], texts[2], "{t}: en = zh");
        crate::i18n::lint::assert_zh_punctuation(&texts[2], &t.to_string());
    }
}

#[test]
fn every_text_names_its_source() {
    for t in Topic::ALL {
        assert!(!t.sources().is_empty(), "{t}: no source");
        for l in Lang::ALL {
            let text = rulebook(Some(t), l);
            let last = text.lines().last().unwrap_or("");
            assert!(
                last.starts_with(catalogue(l).source_label),
                "{t} {l}: {last}"
            );
            for &s in t.sources() {
                let title = crate::i18n::arbiter::source_name(s, l);
                assert!(last.contains(title), "{t} {l}: {last}");
            }
            // Players never see the shorthand of the project's own notes.
            for word in ["seed", "Seed", "tài liệu 0", "Tài liệu 0", "资料0"] {
                assert!(!text.contains(word), "{t} {l}: {word:?} in {text}");
            }
        }
    }
}

#[test]
fn texts_fit_a_chat_message() {
    for t in Topic::ALL {
        for l in Lang::ALL {
            let body = (catalogue(l).body)(t);
            let lines = body.lines().count();
            assert!((2..=8).contains(&lines), "{t} {l}: {lines} lines");
            for line in body.lines() {
                assert!(!line.trim().is_empty(), "{t} {l}: blank line");
                assert_eq!(line, line.trim(), "{t} {l}: stray blanks in {line:?}");
                assert!(line.chars().count() <= 420, "{t} {l}: long line {line:?}");
                assert!(
                    !line.contains('|') && !line.contains("**"),
                    "{t} {l}: markdown"
                );
            }
        }
    }
}

#[test]
fn vietnamese_has_diacritics_and_chinese_is_simplified() {
    for t in Topic::ALL {
        let vi = (vi::CATALOGUE.body)(t);
        assert!(
            vi.chars()
                .any(|c| "ăâđêôơưàáảãạèéẻẽẹìíỉĩịòóỏõọùúủũụỳýỷỹỵ".contains(c)),
            "{t}: Vietnamese without diacritics"
        );
        // Traditional forms that have no place in simplified prose (piece names are in titles).
        let zh = (zh::CATALOGUE.body)(t);
        for c in "們這說與為於對時規則會個過還進動應當無從內兩盤將帥車馬閒長".chars()
        {
            assert!(!zh.contains(c), "{t}: traditional {c} in Chinese text");
        }
    }
}

#[test]
fn slugs_are_unique_and_parse_back() {
    for (i, t) in Topic::ALL.iter().enumerate() {
        assert_eq!(t.slug().parse::<Topic>(), Ok(*t));
        assert_eq!(t.to_string(), t.slug());
        assert_eq!(t.slug().to_uppercase().parse::<Topic>(), Ok(*t));
        for u in &Topic::ALL[i + 1..] {
            assert_ne!(t, u, "{t} listed twice");
            assert_ne!(t.slug(), u.slug());
        }
    }
    for l in Lang::ALL {
        for (i, t) in Topic::ALL.iter().enumerate() {
            for u in &Topic::ALL[i + 1..] {
                assert_ne!(t.title(l), u.title(l), "{l}: same title for {t} and {u}");
            }
        }
    }
}

#[test]
fn synonyms_parse_to_the_expected_topics() {
    let cases: &[(&str, Topic)] = &[
        ("king", Topic::General),
        ("Tướng", Topic::General),
        ("TƯỚNG", Topic::General),
        ("tuong", Topic::General),
        ("Tuong", Topic::General),
        ("tuơng", Topic::General),
        ("将", Topic::General),
        ("帅", Topic::General),
        ("將", Topic::General),
        ("帥", Topic::General),
        ("guard", Topic::Advisor),
        ("sĩ", Topic::Advisor),
        ("si", Topic::Advisor),
        ("士", Topic::Advisor),
        ("仕", Topic::Advisor),
        ("minister", Topic::Elephant),
        ("bishop", Topic::Elephant),
        ("tượng", Topic::Elephant),
        ("tu\u{31B}o\u{323}\u{31B}ng", Topic::Elephant),
        ("voi", Topic::Elephant),
        ("象", Topic::Elephant),
        ("相", Topic::Elephant),
        ("knight", Topic::Horse),
        ("mã", Topic::Horse),
        ("ma", Topic::Horse),
        ("马", Topic::Horse),
        ("馬", Topic::Horse),
        ("傌", Topic::Horse),
        ("  Horse?  ", Topic::Horse),
        ("/horse", Topic::Horse),
        ("rook", Topic::Chariot),
        ("xe", Topic::Chariot),
        ("车", Topic::Chariot),
        ("車", Topic::Chariot),
        ("俥", Topic::Chariot),
        ("pháo", Topic::Cannon),
        ("phao", Topic::Cannon),
        ("炮", Topic::Cannon),
        ("砲", Topic::Cannon),
        ("pawn", Topic::Soldier),
        ("tốt", Topic::Soldier),
        ("tot", Topic::Soldier),
        ("binh", Topic::Soldier),
        ("chốt", Topic::Soldier),
        ("兵", Topic::Soldier),
        ("卒", Topic::Soldier),
        ("flying", Topic::FlyingGeneral),
        ("Flying General", Topic::FlyingGeneral),
        ("flying_general", Topic::FlyingGeneral),
        ("lộ mặt tướng", Topic::FlyingGeneral),
        ("照面", Topic::FlyingGeneral),
        ("chiếu", Topic::Check),
        ("chieu", Topic::Check),
        ("将军", Topic::Check),
        ("mate", Topic::Checkmate),
        ("chiếu bí", Topic::Checkmate),
        ("chieu bi", Topic::Checkmate),
        ("将死", Topic::Checkmate),
        ("困毙", Topic::Stalemate),
        ("hết nước", Topic::Stalemate),
        ("đuổi", Topic::Chase),
        ("duoi", Topic::Chase),
        ("tróc", Topic::Chase),
        ("捉", Topic::Chase),
        ("exchange", Topic::Trade),
        ("đổi", Topic::Trade),
        ("thí", Topic::Trade),
        ("兑", Topic::Trade),
        ("兌", Topic::Trade),
        ("nhàn", Topic::Idle),
        ("chờ", Topic::Idle),
        ("cản", Topic::Idle),
        ("block", Topic::Idle),
        ("闲", Topic::Idle),
        ("閒", Topic::Idle),
        ("拦", Topic::Idle),
        ("perpetual", Topic::PerpetualCheck),
        ("chiếu dai", Topic::PerpetualCheck),
        ("长将", Topic::PerpetualCheck),
        ("長將", Topic::PerpetualCheck),
        ("perpetual chase", Topic::PerpetualChase),
        ("đuổi dai", Topic::PerpetualChase),
        ("长捉", Topic::PerpetualChase),
        ("長捉", Topic::PerpetualChase),
        ("lặp", Topic::Repetition),
        ("lap", Topic::Repetition),
        ("threefold", Topic::Repetition),
        ("重复", Topic::Repetition),
        ("50-move", Topic::NoProgress),
        ("60 moves", Topic::NoProgress),
        ("tiến triển", Topic::NoProgress),
        ("自然限着", Topic::NoProgress),
        ("effective", Topic::EffectiveMoves),
        ("move cap", Topic::MoveLimit),
        ("insufficient", Topic::InsufficientMaterial),
        ("draw", Topic::DrawClaim),
        ("hòa", Topic::DrawClaim),
        ("hoa", Topic::DrawClaim),
        ("和棋", Topic::DrawClaim),
        ("forfeit", Topic::Enforcement),
        ("refuse", Topic::Enforcement),
        ("判负", Topic::Enforcement),
        ("default", Topic::Official),
        ("AXF", Topic::Asian),
        ("việt nam", Topic::Vietnam),
        ("Viet Nam", Topic::Vietnam),
        ("CXQ", Topic::Cxq),
        ("club", Topic::Cxq),
        ("app", Topic::Casual),
    ];
    for &(text, topic) in cases {
        assert_eq!(text.parse::<Topic>(), Ok(topic), "{text:?}");
    }
}

#[test]
fn absurd_inputs_are_refused_without_panicking() {
    let long_ascii = "x".repeat(10 * 1024);
    let long_cjk = "马".repeat(4000);
    let just_over = "horse".repeat(13);
    let cases: Vec<(&str, ParseTopicError)> = vec![
        ("", ParseTopicError::Empty),
        ("   \t ", ParseTopicError::Empty),
        ("?", ParseTopicError::Empty),
        ("/", ParseTopicError::Empty),
        (&long_ascii, ParseTopicError::TooLong),
        (&long_cjk, ParseTopicError::TooLong),
        (&just_over, ParseTopicError::TooLong),
        ("hor\u{7}se", ParseTopicError::Unknown),
        ("\u{0}", ParseTopicError::Unknown),
        ("horse\u{1b}[31m", ParseTopicError::Unknown),
        ("😀", ParseTopicError::Unknown),
        ("🐴", ParseTopicError::Unknown),
        ("\u{202E}horse", ParseTopicError::Unknown),
        ("\u{301}\u{323}", ParseTopicError::Unknown),
        ("horses and elephants", ParseTopicError::Unknown),
        ("'; DROP TABLE topics; --", ParseTopicError::Unknown),
    ];
    for (text, err) in cases {
        assert_eq!(
            text.parse::<Topic>(),
            Err(err),
            "{:?}",
            &text[..text.len().min(20)]
        );
    }
    for l in Lang::ALL {
        assert!(ParseTopicError::Unknown.message(l).contains("/rules"));
    }
}

#[test]
fn index_lists_every_topic_with_a_hint() {
    for l in Lang::ALL {
        let index = rulebook(None, l);
        for t in Topic::ALL {
            let (open, close) = catalogue(l).parens;
            let entry = format!("{}{open}{}{close}", t.slug(), t.title(l));
            // A title that is just the slug is not repeated beside it.
            let same = t.title(l).to_lowercase() == t.slug().replace('-', " ");
            let entry = if same { t.slug().to_string() } else { entry };
            assert!(index.contains(&entry), "{l}: {entry} missing");
        }
        assert!(index.contains("/rules horse"), "{l}: no hint");
        assert!(index.contains("/ruleset"), "{l}: no /ruleset");
        assert_eq!(index.lines().filter(|s| s.starts_with('•')).count(), 5);
    }
}

#[test]
fn ruleset_texts_agree_with_the_presets() {
    for name in RulesetName::ALL {
        let rules = Ruleset::preset(name);
        let topic = Topic::from(name);
        assert_eq!(topic.slug(), name.as_str());
        for l in Lang::ALL {
            let text = (catalogue(l).body)(topic);
            let has = |n: u32| text.contains(&n.to_string());
            assert!(text.contains(name.as_str()), "{name} {l}");
            assert!(text.contains("/ruleset"), "{name} {l}: how to switch");
            match rules.checks {
                CountRule::Unlimited => {}
                CountRule::SinglePiece { max } => assert!(has(max), "{name} {l}"),
                CountRule::AnyPieces { max } => assert!(has(max + 1), "{name} {l}"),
                CountRule::PerPiece {
                    per_piece,
                    cap_pieces,
                } => {
                    for k in 1..=cap_pieces {
                        assert!(has(per_piece * k), "{name} {l}: {}", per_piece * k);
                    }
                }
            }
            if let CountRule::SinglePiece { max } | CountRule::AnyPieces { max } = rules.chases {
                assert!(has(max), "{name} {l}: chase count");
            }
            for table in [VerdictTable::A, VerdictTable::O] {
                assert_eq!(
                    text.contains(table_marker(table, l)),
                    rules.repetition == Some(table),
                    "{name} {l}: table {table:?}"
                );
            }
            if let Some(np) = rules.no_progress {
                assert!(has(np.plies), "{name} {l}: no-progress plies");
                if let Some(c) = np.checks_counted_per_side {
                    assert!(has(c), "{name} {l}: checks counted");
                }
                assert_eq!(text.contains("/draw"), np.claim_only, "{name} {l}: claim");
            }
            if let Some(e) = rules.effective_moves_per_side {
                assert!(has(e), "{name} {l}: effective moves");
            }
            if let Some(cap) = rules.move_cap {
                assert!(has(cap), "{name} {l}: move cap");
            }
            let mode = match rules.enforcement {
                Enforcement::Forfeit => "forfeit",
                Enforcement::Refuse => "refuse",
            };
            assert!(text.contains(mode), "{name} {l}: enforcement");
        }
    }
}

#[test]
fn draw_topics_quote_every_preset() {
    for l in Lang::ALL {
        let no_progress = (catalogue(l).body)(Topic::NoProgress);
        let cap = (catalogue(l).body)(Topic::MoveLimit);
        let effective = (catalogue(l).body)(Topic::EffectiveMoves);
        for name in RulesetName::ALL {
            let rules = Ruleset::preset(name);
            assert!(no_progress.contains(name.as_str()), "{l}: {name}");
            if let Some(np) = rules.no_progress {
                assert!(no_progress.contains(&np.plies.to_string()), "{l}: {name}");
            }
            assert!(cap.contains(name.as_str()), "{l}: {name}");
            if let Some(c) = rules.move_cap {
                assert!(cap.contains(&c.to_string()), "{l}: {name}");
            }
            if let Some(e) = rules.effective_moves_per_side {
                assert!(effective.contains(&e.to_string()), "{l}: {name}");
            }
        }
    }
}

/// The moves the piece topics quote, played on a board: `(fen, move, legal)`.
#[test]
fn examples_in_the_texts_hold_on_the_board() {
    use crate::core::{Move, Position, Role};
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
    let cases: &[(&str, &str, bool)] = &[
        (start, "e0e1", true),
        (start, "d0e1", true),
        (start, "a0a2", true),
        (start, "a0a3", false),
        (start, "i0i1", true),
        (start, "b0c2", true),
        (start, "b0d1", false),
        (start, "c0e2", true),
        (start, "h2e2", true),
        (start, "h2h9", true),
        (start, "e3e4", true),
        // General e2 (palace edge), advisor e1.
        ("3k5/9/9/9/9/9/9/4K4/9/9 w", "e2e3", false),
        ("3k5/9/9/9/9/9/9/9/4A4/5K3 w", "e1e2", false),
        ("3k5/9/9/9/9/9/9/9/4A4/5K3 w", "e1d2", true),
        // Elephant eye on d1; an elephant on c4 cannot cross.
        ("5k3/9/9/9/9/9/9/9/3R5/2B1K4 w", "c0e2", false),
        ("3k5/9/9/9/9/2B6/9/9/9/4K4 w", "c4e6", false),
        ("3k5/9/9/9/9/2B6/9/9/9/4K4 w", "c4e2", true),
        // Horse leg on b1.
        ("3k5/9/9/9/9/9/9/9/1R7/1N2K4 w", "b0c2", false),
        ("3k5/9/9/9/9/9/9/9/1R7/1N2K4 w", "b0a2", false),
        ("3k5/9/9/9/9/9/9/9/1R7/1N2K4 w", "b0d1", true),
        // A crossed soldier on e5.
        ("3k5/9/9/9/4P4/9/9/9/9/4K4 w", "e5d5", true),
        ("3k5/9/9/9/4P4/9/9/9/9/4K4 w", "e5e6", true),
        ("3k5/9/9/9/4P4/9/9/9/9/4K4 w", "e5e4", false),
        // The only piece between the generals may not leave the file.
        ("4k4/9/9/9/9/9/9/4C4/9/4K4 w", "e2d2", false),
    ];
    for &(fen, text, legal) in cases {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e:?}"));
        let m = Move::parse_iccs(text).unwrap_or_else(|| panic!("{text}"));
        assert_eq!(pos.is_legal(m), legal, "{fen} {text}");
    }
    let pos = Position::from_fen(start).unwrap_or_else(|e| panic!("{e:?}"));
    let h2h9 = Move::parse_iccs("h2h9").unwrap_or_else(|| unreachable!());
    assert_eq!(pos.piece_at(h2h9.to).map(|p| p.role), Some(Role::Horse));
    // Every example move is quoted in the English text of its topic.
    for (t, m) in [
        (Topic::Horse, "b0c2"),
        (Topic::Horse, "b0d1"),
        (Topic::Elephant, "c0e2"),
        (Topic::Cannon, "h2h9"),
        (Topic::FlyingGeneral, "e2d2"),
        (Topic::Soldier, "e5d5"),
        (Topic::Chariot, "a0a3"),
    ] {
        for l in Lang::ALL {
            assert!((catalogue(l).body)(t).contains(m), "{t} {l}: {m}");
        }
    }
}

/// `cargo test --lib i18n::rulebook::tests::print_everything -- --ignored --nocapture`
#[test]
#[ignore = "prints the whole rulebook for proofreading"]
fn print_everything() {
    for l in Lang::ALL {
        println!("{}\n=====", rulebook(None, l));
        for t in Topic::ALL {
            println!("{}\n-----", rulebook(Some(t), l));
        }
    }
}

/// A gloss names a word's other names and never repeats the word (issue 31: "chiếu (chiếu, 将)").
#[test]
fn glosses_do_not_repeat_their_word() {
    let mut faults = Vec::new();
    for t in Topic::ALL {
        for l in Lang::ALL {
            for f in crate::i18n::lint::repeated_glosses(&rulebook(Some(t), l)) {
                faults.push(format!("{t} {l}: {f}"));
            }
        }
    }
    for l in Lang::ALL {
        for f in crate::i18n::lint::repeated_glosses(&rulebook(None, l)) {
            faults.push(format!("index {l}: {f}"));
        }
    }
    assert!(faults.is_empty(), "{faults:#?}");
}
