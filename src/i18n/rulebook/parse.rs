//! Reading what a player typed after `/rules`: slugs and synonyms in three languages.
//!
//! Vietnamese words are compared through a key that keeps each letter's marks (circumflex,
//! breve, horn, stroke, tone) in a fixed order, so precomposed (NFC) and decomposed (NFD) input
//! match alike; only when that fails are the marks dropped. Words without marks are listed
//! explicitly where they collide: `tuong` alone is the general, `tượng` or `voi` the elephant.

use std::fmt;

use super::Topic;

/// Longest input considered, in characters (after trimming).
pub const MAX_TOPIC_INPUT: usize = 64;

/// Why a text is not a topic.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ParseTopicError {
    /// Nothing but blanks.
    Empty,
    /// More than [`MAX_TOPIC_INPUT`] characters.
    TooLong,
    /// Control characters, or no topic by that name.
    Unknown,
}

impl fmt::Display for ParseTopicError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ParseTopicError::Empty => "no topic given",
            ParseTopicError::TooLong => "topic name too long",
            ParseTopicError::Unknown => "unknown topic",
        })
    }
}

impl std::error::Error for ParseTopicError {}

/// Names a player may type, by topic. Spaces, `_` and `-` are interchangeable; case is ignored.
#[rustfmt::skip]
const SYNONYMS: &[(Topic, &[&str])] = &[
    (Topic::General, &[
        "king", "tướng", "tuong", "soái", "soai", "tg", "palace", "cung", "cửu cung",
        "将", "帅", "將", "帥", "将帅", "將帥", "九宫", "九宮",
    ]),
    (Topic::Advisor, &[
        "guard", "adviser", "assistant", "mandarin", "counsellor", "sĩ", "si", "士", "仕",
    ]),
    (Topic::Elephant, &[
        "minister", "bishop", "elephant eye", "eye", "tượng", "voi", "mắt tượng", "mat tuong",
        "象", "相", "象眼", "塞象眼",
    ]),
    (Topic::Horse, &[
        "knight", "leg", "horse leg", "mã", "ma", "ngựa", "ngua", "chân mã", "chan ma",
        "cản chân mã", "can chan ma", "马", "馬", "傌", "马腿", "蹩马腿", "蹩馬腿", "绊马腿",
        "絆馬腳",
    ]),
    (Topic::Chariot, &["rook", "car", "xe", "车", "車", "俥"]),
    (Topic::Cannon, &[
        "catapult", "screen", "pháo", "phao", "ngòi", "ngoi", "炮", "砲", "包", "炮架",
    ]),
    (Topic::Soldier, &["pawn", "tốt", "tot", "binh", "chốt", "chot", "兵", "卒", "兵卒"]),
    (Topic::FlyingGeneral, &[
        "flying", "flying general", "facing generals", "facing kings", "kings facing",
        "lộ mặt tướng", "lo mat tuong", "lộ mặt", "lo mat", "chống tướng", "chong tuong",
        "đối mặt", "doi mat", "飞将", "飛將", "照面", "对面笑", "對面笑", "白脸将", "王不见王",
    ]),
    (Topic::Check, &[
        "chiếu", "chieu", "chiếu tướng", "chieu tuong", "将军", "將軍", "照将", "照將",
    ]),
    (Topic::Checkmate, &[
        "mate", "chiếu bí", "chieu bi", "chiếu hết", "chieu het", "bí", "将死", "將死",
        "绝杀", "絕殺",
    ]),
    (Topic::Stalemate, &[
        "no legal move", "no moves", "hết nước", "het nuoc", "hết nước đi", "het nuoc di",
        "bí nước", "bi nuoc", "chết ngộp", "chet ngop", "khốn bí", "khon bi", "困毙", "困斃",
        "欠行",
    ]),
    (Topic::Chase, &[
        "threat", "root", "protected", "đuổi", "duoi", "tróc", "troc", "căn", "căn giả",
        "can gia", "捉", "捉子", "根", "有根", "无根", "無根", "假根",
    ]),
    (Topic::Trade, &[
        "exchange", "offer", "đổi", "doi", "đổi quân", "doi quan", "thí", "thí quân",
        "thi quan", "đấu", "兑", "兌", "兑子", "兌子", "邀兑", "邀兌",
    ]),
    (Topic::Idle, &[
        "idle move", "quiet", "wait", "waiting", "block", "blocking", "nhàn", "nhan",
        "nước nhàn", "nuoc nhan", "chờ", "cho", "cản", "can", "闲", "閒", "闲着", "閒著",
        "拦", "攔",
    ]),
    (Topic::Kill, &[
        "mate threat", "threat to mate", "threatening mate", "perpetual kill", "sát", "dọa bí",
        "doa bi", "hăm bí", "ham bi", "dọa chiếu bí", "doa chieu bi", "hăm chiếu bí",
        "ham chieu bi", "dọa bí mãi", "doa bi mai", "杀", "殺", "叫杀", "叫殺", "长杀", "長殺",
        "杀着", "殺著",
    ]),
    (Topic::PerpetualCheck, &[
        "perpetual", "perpetual check", "chiếu dai", "chieu dai", "chiếu mãi", "chieu mai",
        "trường chiếu", "truong chieu", "长将", "長將", "长照", "長照",
    ]),
    (Topic::PerpetualChase, &[
        "perpetual chase", "đuổi dai", "duoi dai", "đuổi mãi", "duoi mai", "trường tróc",
        "truong troc", "长捉", "長捉",
    ]),
    (Topic::Repetition, &[
        "repeat", "threefold", "three fold", "3 fold", "3fold", "table a", "table o",
        "lặp", "lap", "lặp lại", "lap lai", "lặp thế", "lap the", "bảng a", "bảng o",
        "重复", "重複", "重复局面", "重複局面", "循环", "循環",
    ]),
    (Topic::NoProgress, &[
        "progress", "no progress", "50 move", "50 moves", "60 move", "60 moves",
        "fifty move", "sixty move", "tiến triển", "tien trien", "không tiến triển",
        "khong tien trien", "自然限着", "自然限著", "限着", "限著",
    ]),
    (Topic::EffectiveMoves, &[
        "effective", "effective move", "effective rule", "hiệu lực", "hieu luc",
        "nước có hiệu lực", "nuoc co hieu luc", "有效着法", "有效著法", "有效着",
    ]),
    (Topic::MoveLimit, &[
        "move cap", "cap", "length", "game length", "300 moves", "giới hạn nước",
        "gioi han nuoc", "giới hạn", "gioi han", "步数上限", "步數上限", "限步",
    ]),
    (Topic::InsufficientMaterial, &[
        "insufficient", "material", "thiếu quân", "thieu quan", "không đủ lực",
        "khong du luc", "子力不足", "无子", "無子", "无攻击子力",
    ]),
    (Topic::DrawClaim, &[
        "draw", "draws", "claim", "hòa", "hoà", "hoa", "huề", "hue", "xin hòa", "xin hoà",
        "xin hoa", "xử hòa", "xu hoa", "和", "和棋", "求和", "提和", "判和",
    ]),
    (Topic::Enforcement, &[
        "forfeit", "refuse", "refusal", "foul", "penalty", "xử thua", "xu thua", "từ chối",
        "tu choi", "phạt", "phat", "phạm luật", "pham luat", "判负", "判負", "拒绝", "拒絕",
        "犯规", "犯規",
    ]),
    (Topic::Official, &[
        "default", "wxf official", "chính thức", "chinh thuc", "luật chính thức",
        "mặc định", "mac dinh", "官方", "正式", "正式规则", "默认", "默認",
    ]),
    (Topic::Asian, &[
        "axf", "wxf", "asian rules", "asian chinese chess rules", "châu á", "chau a",
        "luật châu á", "亚洲", "亞洲", "亚洲规则", "亞洲規則",
    ]),
    (Topic::Vietnam, &[
        "vietnamese", "vn", "việt nam", "viet nam", "luật việt nam", "luat viet nam",
        "越南", "越南规则",
    ]),
    (Topic::Cxq, &["club", "câu lạc bộ", "cau lac bo", "clb", "俱乐部", "俱樂部"]),
    (Topic::Casual, &[
        "app", "online", "thực dụng", "thuc dung", "ứng dụng", "ung dung", "休闲", "休閒",
        "娱乐", "娛樂",
    ]),
];

/// Marks kept in a Vietnamese key. Control characters never survive [`normalize`], so they
/// cannot collide with typed text.
const CIRCUMFLEX: char = '\u{1}';
const BREVE: char = '\u{2}';
const HORN: char = '\u{3}';
const STROKE: char = '\u{4}';
/// Tones: huyền, sắc, hỏi, ngã, nặng.
const TONES: [char; 5] = ['\u{11}', '\u{12}', '\u{13}', '\u{14}', '\u{15}'];

/// Each Vietnamese vowel with its six tones (none, huyền, sắc, hỏi, ngã, nặng), lower case,
/// with the base letter and modifier it decomposes into.
const VOWELS: [(&str, char, Option<char>); 12] = [
    ("aàáảãạ", 'a', None),
    ("ăằắẳẵặ", 'a', Some(BREVE)),
    ("âầấẩẫậ", 'a', Some(CIRCUMFLEX)),
    ("eèéẻẽẹ", 'e', None),
    ("êềếểễệ", 'e', Some(CIRCUMFLEX)),
    ("iìíỉĩị", 'i', None),
    ("oòóỏõọ", 'o', None),
    ("ôồốổỗộ", 'o', Some(CIRCUMFLEX)),
    ("ơờớởỡợ", 'o', Some(HORN)),
    ("uùúủũụ", 'u', None),
    ("ưừứửữự", 'u', Some(HORN)),
    ("yỳýỷỹỵ", 'y', None),
];

/// One letter of a key: base, modifier, tone.
#[derive(Copy, Clone)]
struct Letter {
    base: char,
    modifier: Option<char>,
    tone: Option<char>,
}

fn decompose(c: char) -> Letter {
    if c == 'đ' {
        return Letter {
            base: 'd',
            modifier: Some(STROKE),
            tone: None,
        };
    }
    for (forms, base, modifier) in VOWELS {
        if let Some(i) = forms.chars().position(|f| f == c) {
            return Letter {
                base,
                modifier,
                tone: i.checked_sub(1).map(|t| TONES[t]),
            };
        }
    }
    Letter {
        base: c,
        modifier: None,
        tone: None,
    }
}

/// A combining mark (as in NFD input) and what it adds to the letter before it.
enum Mark {
    Modifier(char),
    Tone(char),
}

fn combining(c: char) -> Option<Mark> {
    Some(match c {
        '\u{302}' => Mark::Modifier(CIRCUMFLEX),
        '\u{306}' => Mark::Modifier(BREVE),
        '\u{31B}' => Mark::Modifier(HORN),
        '\u{300}' | '\u{340}' => Mark::Tone(TONES[0]),
        '\u{301}' | '\u{341}' => Mark::Tone(TONES[1]),
        '\u{309}' => Mark::Tone(TONES[2]),
        '\u{303}' => Mark::Tone(TONES[3]),
        '\u{323}' => Mark::Tone(TONES[4]),
        _ => return None,
    })
}

/// The canonical key of a normalized text: each letter as base, modifier, tone.
fn marked_key(s: &str) -> String {
    fn flush(out: &mut String, l: Option<Letter>) {
        if let Some(l) = l {
            out.push(l.base);
            out.extend(l.modifier);
            out.extend(l.tone);
        }
    }
    let mut out = String::with_capacity(s.len());
    let mut pending: Option<Letter> = None;
    for c in s.chars() {
        match (combining(c), pending.as_mut()) {
            (Some(Mark::Modifier(m)), Some(l)) => l.modifier = Some(m),
            (Some(Mark::Tone(t)), Some(l)) => l.tone = Some(t),
            (Some(_), None) => {}
            (None, _) => {
                flush(&mut out, pending.take());
                pending = Some(decompose(c));
            }
        }
    }
    flush(&mut out, pending);
    out
}

/// The key without any Vietnamese marks.
fn plain_key(marked: &str) -> String {
    marked.chars().filter(|c| !c.is_control()).collect()
}

/// Trim, bound, reject control characters, lower-case, and join words with `-`.
fn normalize(s: &str) -> Result<String, ParseTopicError> {
    let s = s.trim();
    // Cheap bound before counting characters: 4 bytes per character at most.
    if s.len() > 4 * MAX_TOPIC_INPUT || s.chars().count() > MAX_TOPIC_INPUT {
        return Err(ParseTopicError::TooLong);
    }
    let s = s.trim_end_matches(['?', '!', '.', '？', '！', '。']);
    let s = s.strip_prefix('/').unwrap_or(s).trim();
    if s.is_empty() {
        return Err(ParseTopicError::Empty);
    }
    if s.chars().any(char::is_control) {
        return Err(ParseTopicError::Unknown);
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars().flat_map(char::to_lowercase) {
        let c = if c.is_whitespace() || c == '_' {
            '-'
        } else {
            c
        };
        if c == '-' && (out.is_empty() || out.ends_with('-')) {
            continue;
        }
        out.push(c);
    }
    while out.ends_with('-') {
        out.pop();
    }
    if out.is_empty() {
        return Err(ParseTopicError::Empty);
    }
    Ok(out)
}

/// Every name of a topic: its slug first, then its synonyms.
fn names() -> impl Iterator<Item = (Topic, &'static str)> {
    let slugs = Topic::ALL.iter().map(|&t| (t, t.slug()));
    let synonyms = SYNONYMS
        .iter()
        .flat_map(|(t, words)| words.iter().map(move |w| (*t, *w)));
    slugs.chain(synonyms)
}

/// The key of a table entry (entries are well formed; a malformed one simply never matches).
fn entry_key(word: &str) -> Option<String> {
    normalize(word).ok().map(|n| marked_key(&n))
}

pub(super) fn parse_topic(s: &str) -> Result<Topic, ParseTopicError> {
    let key = marked_key(&normalize(s)?);
    if let Some((t, _)) = names().find(|(_, w)| entry_key(w).as_deref() == Some(key.as_str())) {
        return Ok(t);
    }
    // Marks typed wrongly or partly: compare without them; the table order settles collisions.
    let plain = plain_key(&key);
    names()
        .find(|(_, w)| entry_key(w).is_some_and(|k| plain_key(&k) == plain))
        .map(|(t, _)| t)
        .ok_or(ParseTopicError::Unknown)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nfc_and_nfd_give_the_same_key() {
        // "tượng" precomposed and decomposed (u + horn, o + dot below + horn).
        let nfd = "tu\u{31B}o\u{323}\u{31B}ng";
        assert_eq!(marked_key("tượng"), marked_key(nfd));
        assert_ne!(marked_key("tượng"), marked_key("tướng"));
        assert_eq!(plain_key(&marked_key("tượng")), "tuong");
        assert_eq!(plain_key(&marked_key("đuổi")), "duoi");
    }

    #[test]
    fn every_synonym_is_well_formed_and_unambiguous() {
        let mut seen: Vec<(String, Topic)> = Vec::new();
        for (t, w) in names() {
            let Some(k) = entry_key(w) else {
                panic!("synonym {w:?} does not normalize");
            };
            if let Some((_, other)) = seen.iter().find(|(s, _)| *s == k) {
                assert_eq!(*other, t, "{w:?} names two topics");
            }
            seen.push((k, t));
        }
    }
}
