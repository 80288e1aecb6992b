//! The games a bot's words say begin: "Game #N begins: R (Red) vs B (Black)", in English.

/// Every game `text` says begins, in order: (number, red, black).
#[allow(dead_code)]
pub fn begun(text: &str) -> Vec<(u64, String, String)> {
    text.lines()
        .filter_map(|l| {
            let rest = l.split("Game #").nth(1)?;
            let (n, rest) = rest.split_once(" begins: ")?;
            let (red, rest) = rest.split_once(" (Red) vs ")?;
            let black = rest.split(" (Black)").next()?;
            Some((n.parse().ok()?, red.to_string(), black.to_string()))
        })
        .collect()
}
