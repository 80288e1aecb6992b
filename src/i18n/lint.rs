//! Checks the catalogues' tests run over the words players read.
//!
//! Chinese lines take full-width punctuation: （ ） ： ， 。 “ ” (issue 31 found "长将.",
//! "将军:", "(h8h9)" and ASCII quotes inside Chinese sentences). Half-width marks stay where
//! they belong to something that is not prose: a clock (9:58), a move in WXF (C2.5), a ply
//! number (1.), a command (/play [red|black]).

/// A Chinese ideograph or a full-width mark that closes a phrase.
fn is_chinese(c: char) -> bool {
    ('\u{4e00}'..='\u{9fff}').contains(&c) || "）」”》".contains(c)
}

fn is_ideograph(c: char) -> bool {
    ('\u{4e00}'..='\u{9fff}').contains(&c)
}

/// The half-width marks in a Chinese text that should be full-width, each with the text
/// around it (empty when the text is clean).
#[must_use]
pub(crate) fn zh_punctuation_faults(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut faults = Vec::new();
    for (i, &c) in chars.iter().enumerate() {
        let prev = chars[..i].iter().rev().find(|&&p| p != ' ').copied();
        let next = chars[i + 1..].iter().find(|&&n| n != ' ').copied();
        let after_chinese = prev.is_some_and(is_chinese);
        let before_ideograph = next.is_some_and(is_ideograph);
        let wrong = match c {
            '(' | ')' | '"' => true,
            ':' | ';' | ',' | '!' | '?' => after_chinese || before_ideograph,
            '.' => after_chinese,
            _ => false,
        };
        if wrong {
            let from = i.saturating_sub(8);
            let to = (i + 9).min(chars.len());
            let around: String = chars[from..to].iter().collect();
            faults.push(format!("{c:?} in …{around}…"));
        }
    }
    faults
}

/// Fails with every fault of `text` (a Chinese message), naming `what` it is.
pub(crate) fn assert_zh_punctuation(text: &str, what: &str) {
    let faults = zh_punctuation_faults(text);
    assert!(
        faults.is_empty(),
        "{what}: half-width punctuation in Chinese: {faults:?}\n{text}"
    );
}

/// Glosses that repeat the word they gloss: `chiếu (chiếu, 将)` (issue 31). A gloss names the
/// word's other names, so none of its items is the word just before the bracket.
#[must_use]
pub(crate) fn repeated_glosses(text: &str) -> Vec<String> {
    let mut faults = Vec::new();
    for (open, close) in [('(', ')'), ('（', '）')] {
        let mut rest = text;
        while let Some(at) = rest.find(open) {
            let before = &rest[..at];
            let after = &rest[at + open.len_utf8()..];
            let Some(end) = after.find(close) else { break };
            let gloss = &after[..end];
            let words: Vec<&str> = before.split_whitespace().collect();
            let last = words.last().copied().unwrap_or("").to_lowercase();
            let last_two = words
                .len()
                .checked_sub(2)
                .map(|i| words[i..].join(" ").to_lowercase())
                .unwrap_or_default();
            for item in gloss.split([',', '/', '、', '，']) {
                let item = item.trim().to_lowercase();
                if !item.is_empty() && (item == last || item == last_two) {
                    faults.push(format!("{} ({gloss})", words.last().unwrap_or(&"")));
                }
            }
            rest = &after[end..];
        }
    }
    faults
}

#[cfg(test)]
mod tests {
    use super::{repeated_glosses, zh_punctuation_faults};

    #[test]
    fn the_lint_finds_glosses_that_repeat_their_word() {
        assert!(!repeated_glosses("Một nước là chiếu (chiếu, 将) khi").is_empty());
        assert!(!repeated_glosses("là đuổi (đuổi/tróc, 捉) quân").is_empty());
        assert!(repeated_glosses("Một nước là chiếu (将) khi").is_empty());
        assert!(repeated_glosses("nước nào cũng chiếu (chiếu dai)").is_empty());
    }

    #[test]
    fn the_lint_finds_half_width_marks_in_chinese_prose() {
        for bad in [
            "黑方胜 — 长将.",
            "7. 红方 车二进一 (h8h9): 将军",
            "7. 红方 h8h9: 将军",
            "请在 /play 后加上 \"rated\"。",
        ] {
            assert!(!zh_punctuation_faults(bad).is_empty(), "{bad}");
        }
        for good in [
            "⏱ 红 9:58 · 黑 10:00",
            "1. 炮二平五",
            "黑方胜——长将。",
            "7. 红方 车二进一（h8h9）：将军",
            "/play [@用户] [red|black|random]",
            "方向：. 表示进，/ 表示退",
            "例如C2.5",
        ] {
            assert!(zh_punctuation_faults(good).is_empty(), "{good}");
        }
    }
}
