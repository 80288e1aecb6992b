//! Every row of the AXF/WXF repetition cases (`tests/data/repetition.tsv`, a copy of
//! `shared/cases/repetition.tsv`) must be ruled as expected under the `asian` ruleset.

use xiangqi_bot::arbiter::{Arbiter, Ruleset, RulesetName, SubmitError};
use xiangqi_bot::core::{Move, Position};

struct Row {
    line: usize,
    label: String,
    fen: String,
    moves: Vec<String>,
    expected: String,
}

fn rows() -> Vec<Row> {
    include_str!("../data/repetition.tsv")
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.starts_with("source\t") && !l.trim().is_empty())
        .map(|(i, l)| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert_eq!(cols.len(), 5, "line {}: {l}", i + 1);
            Row {
                line: i + 1,
                label: cols[1].to_string(),
                fen: cols[2].to_string(),
                moves: cols[3].split_whitespace().map(str::to_string).collect(),
                expected: cols[4].to_string(),
            }
        })
        .collect()
}

fn judge(row: &Row) -> Result<(String, usize), String> {
    let pos = Position::from_fen(&row.fen).map_err(|e| format!("bad FEN: {e}"))?;
    let mut arb = Arbiter::new(pos, Ruleset::preset(RulesetName::Asian));
    for (i, text) in row.moves.iter().enumerate() {
        let m = Move::parse_iccs(text).ok_or_else(|| format!("bad move text {text}"))?;
        match arb.submit(m) {
            Ok(acc) => {
                if let Some(r) = acc.ruling {
                    return Ok((r.outcome.as_str().to_string(), i + 1));
                }
            }
            Err(SubmitError::Illegal(e)) => return Err(format!("ply {}: {e}", i + 1)),
            Err(e) => return Err(format!("ply {}: {e:?}", i + 1)),
        }
    }
    Ok(("ongoing".to_string(), row.moves.len()))
}

#[test]
fn every_case_is_ruled_as_expected_under_asian_rules() {
    let rows = rows();
    assert!(rows.len() >= 100, "only {} rows read", rows.len());
    let mut failures = Vec::new();
    for row in &rows {
        match judge(row) {
            Ok((got, _)) if got == row.expected => {}
            Ok((got, ply)) => failures.push(format!(
                "line {} ({}): expected {} after {} plies, got {} at ply {}",
                row.line,
                row.label,
                row.expected,
                row.moves.len(),
                got,
                ply
            )),
            Err(e) => failures.push(format!("line {} ({}): {e}", row.line, row.label)),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} rows failed:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}
