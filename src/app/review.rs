//! `/review [N]` (and the "Review" button under a finished game): the engine's review of a
//! finished game of this channel — each player's accuracy, the inaccuracies, mistakes and
//! blunders with the better move, the advantage along the game as a graph, and the PGN
//! annotated with evaluations, glyphs and better lines.
//!
//! A review is computed once and stored with the game ([`ReviewRecord`]); asking again posts
//! the stored one at once, or, within minutes of its posting, points to it privately (as it
//! points to a review still running: the public "being reviewed" line is said once). The request is stored before the engine starts, so a restart while
//! it runs finds it and runs it again ([`super::analysis`]).

use std::sync::Arc;

use super::analysis::{pool_key, Work};
use super::bot::{Job, Outcome as JobOutcome};
use super::chat::{AppResult, Image, ImageKind, Reply};
use super::ctx::{Ctx, Slot};
use super::event::{Event, Raised};
use super::service::Service;
use crate::arbiter::Outcome;
use crate::core::{Color, Move, Position};
use crate::engine::review::{Better, Flaw, PlyReview};
use crate::engine::{Eval, Judgement, Review, ReviewLimits};
use crate::game::{
    Changes, Game, GameRecord, GameStatus, ReviewData, ReviewRecord, ReviewedPly, REVIEW_VERSION,
};
use crate::i18n::analysis::{severity, text, AnalysisMsg, Severity};
use crate::i18n::{side_name, Lang};
use crate::notation::{format_move, Notation};
use crate::platform::{ChannelKey, Platform};
use crate::render::chart::{line_chart, Chart, Mark, MarkKind};

/// Judged moves listed in the message (all of them are in the annotated PGN).
const LISTED: usize = 12;

/// How long after a review was posted asking for it again gets a pointer to it instead
/// (it is still on the screen); later it is posted again.
const REPOST_AFTER_MS: u64 = 10 * 60_000;

/// `/review [N]`.
pub(crate) async fn review(ctx: &Ctx<'_>, slot: &mut Slot, args: &str) -> AppResult<Vec<Reply>> {
    let asked = args.trim().trim_start_matches('#');
    let id = if asked.is_empty() {
        match slot.record.last_game {
            Some(id) => id,
            None => return Ok(vec![ctx.private_analysis(&AnalysisMsg::ReviewNoGame)]),
        }
    } else {
        match asked.parse::<u64>() {
            Ok(id) => id,
            Err(_) => return Ok(vec![not_found(ctx, asked)]),
        }
    };
    let record =
        ctx.svc.storage().game(id)?.filter(|r| {
            r.channel == *ctx.channel && matches!(r.status, GameStatus::Finished { .. })
        });
    let Some(record) = record else {
        return Ok(vec![if asked.is_empty() {
            ctx.private_analysis(&AnalysisMsg::ReviewNoGame)
        } else {
            not_found(ctx, asked)
        }]);
    };
    match ctx.svc.storage().review(id)? {
        Some(mut asked @ ReviewRecord { done: Some(_), .. }) => {
            let ago = asked.posted_ms.map(|at| ctx.now.saturating_sub(at));
            if let Some(ago) = ago.filter(|&ago| ago < REPOST_AFTER_MS) {
                return Ok(vec![ctx.private_analysis(&AnalysisMsg::ReviewPosted {
                    game: id,
                    minutes: ago / 60_000,
                })]);
            }
            asked.posted_ms = Some(ctx.now);
            let out = asked
                .done
                .as_ref()
                .map(|data| replies(ctx.lang, ctx.notation, &record, data))
                .unwrap_or_default();
            ctx.persist(Changes {
                reviews: vec![asked],
                ..Changes::default()
            })
            .await?;
            Ok(out)
        }
        Some(_) => {
            ctx.svc.analysis.due(Work::Review(ctx.channel.clone(), id));
            // The "being reviewed" line was posted when it was asked for: the review follows
            // it, and only the one who asks again is told so.
            Ok(vec![ctx.private_analysis(&AnalysisMsg::ReviewRunning {
                game: id,
            })])
        }
        None if ctx.svc.engine_pool().is_none() => {
            Ok(vec![ctx.private_analysis(&AnalysisMsg::NoEngine)])
        }
        None => {
            ctx.persist(Changes {
                reviews: vec![ReviewRecord {
                    v: REVIEW_VERSION,
                    game: id,
                    channel: ctx.channel.clone(),
                    notation: ctx.notation.name().to_string(),
                    asked_ms: ctx.now,
                    done: None,
                    posted_ms: None,
                }],
                ..Changes::default()
            })
            .await?;
            // The job starts once this command is committed (it waits for the channel).
            ctx.svc.analysis.due(Work::Review(ctx.channel.clone(), id));
            Ok(vec![
                ctx.say_analysis(&AnalysisMsg::ReviewQueued { game: id })
            ])
        }
    }
}

/// The private refusal of `/review N` for a game that is not a finished one of this channel.
fn not_found(ctx: &Ctx<'_>, asked: &str) -> Reply {
    ctx.private_analysis(&AnalysisMsg::ReviewNotFound {
        asked: asked.chars().take(12).collect(),
    })
}

/// The budget of a review when bot moves are capped at `cap` ms (tests, small machines): at
/// most the cap per position, never more than the default.
fn limits(cap: Option<u64>, plies: usize) -> ReviewLimits {
    let full = ReviewLimits::default();
    ReviewLimits {
        total_ms: cap.map_or(full.total_ms, |c| {
            c.saturating_mul(plies as u64 + 1).min(full.total_ms)
        }),
        ..full
    }
}

impl Service {
    /// Run the review of game `id` asked for in `channel`, store it and post it.
    pub(crate) async fn review_job(&self, channel: &ChannelKey, id: u64) -> AppResult<()> {
        let Some((pool, cap)) = self.engine_pool() else {
            return Ok(());
        };
        // The command that asked is committed before its channel is let go.
        drop(self.manager.lock(channel).await?);
        let Some(mut asked) = self.storage().review(id)?.filter(|r| r.done.is_none()) else {
            return Ok(());
        };
        let Some(game) = self
            .storage()
            .game(id)?
            .and_then(|r| Game::from_record(r).ok())
        else {
            tracing::error!(game = id, "review: the game does not replay");
            return Ok(());
        };
        let moves: Vec<Move> = game.arbiter.plies().iter().map(|p| p.mv).collect();
        let job = Job::Review {
            start: Box::new(game.arbiter.start().clone()),
            limits: limits(cap, moves.len()),
            rules: *game.arbiter.rules(),
            moves,
        };
        let Some(JobOutcome::Reviewed(Some(review))) = pool
            // The stored request does not name who asked: a review queues in its channel's
            // name (it is background work, run only while nothing else waits).
            .submit(channel, &pool_key(channel, "review"), job)
            .result()
            .await
        else {
            return Ok(()); // stopped: it stays asked for, and runs again after a restart
        };
        let data = stored(&review);
        asked.done = Some(data.clone());
        asked.posted_ms = Some(self.now());
        let what = Raised::ReviewReady {
            asked: Box::new(asked),
            game: Box::new(game.record),
            data: Box::new(data),
        };
        self.enter(Event::Raised { channel, what }).await?;
        Ok(())
    }
}

/// The review of `game` came back: stored with its request, and posted in the channel's
/// language and the notation of whoever asked.
pub(super) async fn ready(
    ctx: &Ctx<'_>,
    asked: ReviewRecord,
    game: &GameRecord,
    data: &ReviewData,
) -> AppResult<Vec<Reply>> {
    let notation = asked
        .notation
        .parse()
        .unwrap_or_else(|_| super::default_notation(ctx.lang));
    ctx.persist(Changes {
        reviews: vec![asked],
        ..Changes::default()
    })
    .await?;
    Ok(replies(ctx.lang, notation, game, data))
}

/// The review as posted: the summary, the graph, the annotated PGN.
fn replies(lang: Lang, notation: Notation, record: &GameRecord, data: &ReviewData) -> Vec<Reply> {
    let Ok(game) = Game::from_record(record.clone()) else {
        return Vec::new();
    };
    let review = restored(game.arbiter.start(), data);
    let mut lines = vec![text(
        &AnalysisMsg::ReviewHeading {
            game: record.id,
            red: record.red.name.clone(),
            black: record.black.name.clone(),
        },
        lang,
    )];
    for side in [Color::Red, Color::Black] {
        lines.push(text(
            &AnalysisMsg::PlayerSummary {
                player: match lang {
                    Lang::Zh => format!("{}（{}）", game.player(side).name, side_name(side, lang)),
                    _ => format!("{} ({})", game.player(side).name, side_name(side, lang)),
                },
                accuracy: review.accuracy[side.index()],
                inaccuracies: review.count(side, Judgement::Inaccuracy),
                mistakes: review.count(side, Judgement::Mistake),
                blunders: review.count(side, Judgement::Blunder),
            },
            lang,
        ));
    }
    let flaws: Vec<(usize, &PlyReview)> = review.flaws().collect();
    if flaws.is_empty() {
        lines.push(text(&AnalysisMsg::NoFlaws, lang));
    }
    for &(i, p) in flaws.iter().take(LISTED) {
        let Some(before) = game.arbiter.position_before(i) else {
            continue;
        };
        let Some((j, _)) = p.judgement else { continue };
        let number = if before.turn() == Color::Red {
            format!("{}.", before.fullmoves())
        } else {
            format!("{}...", before.fullmoves())
        };
        lines.push(text(
            &AnalysisMsg::Flaw {
                number,
                mv: format_move(before, p.mv, notation),
                severity: severity_of(j),
                better: p
                    .better
                    .as_ref()
                    .and_then(|b| b.pv.first())
                    .map(|&m| format_move(before, m, notation)),
            },
            lang,
        ));
    }
    if flaws.len() > LISTED {
        lines.push(text(
            &AnalysisMsg::MoreFlaws {
                more: flaws.len() - LISTED,
            },
            lang,
        ));
    }
    let mut out = vec![Reply::text(lines.join("\n"))];
    out.push(Reply {
        image: Some(Image {
            bytes: Arc::new(Vec::new()),
            filename: format!("review-{}.png", record.id),
            kind: ImageKind::Png,
            alt: text(&AnalysisMsg::GraphAlt { game: record.id }, lang),
            text_board: None,
            drawing: None,
            later: Some(graph(&review, lang)),
        }),
        ..Reply::default()
    });
    let notes = super::review_notes(&review, &|j| format!("{}.", severity(severity_of(j), lang)));
    let site = Platform::of(&record.channel).map_or("chat", Platform::scope);
    out.push(Reply::text(format!(
        "{}\n{}",
        text(&AnalysisMsg::AnnotatedPgn, lang),
        super::pgn::annotated_pgn(record, site, &notes)
    )));
    out
}

/// The advantage along the game (Red's winning chances, −100..100), judged moves marked;
/// drawn once the review is committed (see `Later`).
fn graph(review: &Review, lang: Lang) -> super::Later {
    let points: Vec<(f64, f64)> = review
        .evals
        .iter()
        .enumerate()
        .map(|(i, e)| (i as f64, 2.0 * e.red_win_percent() - 100.0))
        .collect();
    let marks = review
        .flaws()
        .filter_map(|(i, p)| {
            let kind = match p.judgement?.0 {
                Judgement::Inaccuracy => MarkKind::Neutral,
                Judgement::Mistake | Judgement::Blunder => MarkKind::Bad,
            };
            Some(Mark { index: i + 1, kind })
        })
        .collect();
    let last = review.evals.len().saturating_sub(1);
    let step = (last / 5).max(2) & !1; // whole moves
    let x_labels = (0..=last)
        .step_by(step.max(2))
        .map(|ply| (ply as f64, (ply / 2 + 1).to_string()))
        .collect();
    let chart = Chart {
        title: text(&AnalysisMsg::GraphTitle, lang),
        points,
        band: None,
        marks,
        baseline: Some(0.0),
        y_range: Some((-100.0, 100.0)),
        x_labels,
        scale: 1.5,
    };
    super::Later::new(move || line_chart(&chart).map_err(|e| e.to_string()))
}

fn severity_of(j: Judgement) -> Severity {
    match j {
        Judgement::Inaccuracy => Severity::Inaccuracy,
        Judgement::Mistake => Severity::Mistake,
        Judgement::Blunder => Severity::Blunder,
    }
}

fn judgement_name(j: Judgement) -> &'static str {
    match j {
        Judgement::Inaccuracy => "inaccuracy",
        Judgement::Mistake => "mistake",
        Judgement::Blunder => "blunder",
    }
}

fn flaw_name(f: Flaw) -> &'static str {
    match f {
        Flaw::Chances => "chances",
        Flaw::MateCreated => "mate_created",
        Flaw::MateLost => "mate_lost",
    }
}

/// `+0.35`, `-1.20`, `#3`, `#-3`, `1-0`, `0-1`, `1/2-1/2` back to an evaluation.
fn parse_eval(s: &str) -> Option<Eval> {
    match s {
        "1-0" => return Some(Eval::Over(Outcome::RedWins)),
        "0-1" => return Some(Eval::Over(Outcome::BlackWins)),
        "1/2-1/2" => return Some(Eval::Over(Outcome::Draw)),
        _ => {}
    }
    if let Some(n) = s.strip_prefix('#') {
        return n.parse().ok().filter(|n: &i32| *n != 0).map(Eval::Mate);
    }
    let negative = s.starts_with('-');
    let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (whole, frac) = unsigned.split_once('.')?;
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || frac.len() != 2 || !digits(frac) {
        return None;
    }
    let cp = whole
        .parse::<i32>()
        .ok()?
        .checked_mul(100)?
        .checked_add(frac.parse::<i32>().ok()?)?;
    Some(Eval::Cp(if negative { -cp } else { cp }))
}

/// The stored form of `review`.
fn stored(review: &Review) -> ReviewData {
    ReviewData {
        evals: review.evals.iter().map(ToString::to_string).collect(),
        plies: review
            .plies
            .iter()
            .map(|p| ReviewedPly {
                mv: p.mv.to_string(),
                loss: p.loss,
                accuracy: p.accuracy,
                judgement: p
                    .judgement
                    .map(|(j, f)| (judgement_name(j).into(), flaw_name(f).into())),
                better: p.better.as_ref().map(|b| {
                    (
                        b.pv.iter().map(ToString::to_string).collect(),
                        b.eval.to_string(),
                    )
                }),
            })
            .collect(),
        accuracy: review.accuracy,
        nodes: review.nodes,
        time_ms: review.time_ms,
    }
}

/// A stored review read back (for a game starting from `start`); what does not read is left
/// out.
fn restored(start: &Position, data: &ReviewData) -> Review {
    let evals: Vec<Eval> = data
        .evals
        .iter()
        .map(|e| parse_eval(e).unwrap_or(Eval::Cp(0)))
        .collect();
    let mut mover = start.turn();
    let mut plies = Vec::new();
    for (i, p) in data.plies.iter().enumerate() {
        let (Some(mv), Some(&before), Some(&after)) =
            (Move::parse_iccs(&p.mv), evals.get(i), evals.get(i + 1))
        else {
            break;
        };
        let judgement = p.judgement.as_ref().and_then(|(j, f)| {
            let j = [
                Judgement::Inaccuracy,
                Judgement::Mistake,
                Judgement::Blunder,
            ]
            .into_iter()
            .find(|x| judgement_name(*x) == j)?;
            let f = [Flaw::Chances, Flaw::MateCreated, Flaw::MateLost]
                .into_iter()
                .find(|x| flaw_name(*x) == f)?;
            Some((j, f))
        });
        let better = p.better.as_ref().map(|(pv, eval)| Better {
            pv: pv.iter().filter_map(|m| Move::parse_iccs(m)).collect(),
            eval: parse_eval(eval).unwrap_or(before),
        });
        plies.push(PlyReview {
            mv,
            mover,
            before,
            after,
            loss: p.loss,
            accuracy: p.accuracy,
            judgement,
            better,
        });
        mover = mover.other();
    }
    Review {
        evals,
        plies,
        accuracy: data.accuracy,
        nodes: data.nodes,
        time_ms: data.time_ms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluations_read_back_as_written() {
        for e in [
            Eval::Cp(0),
            Eval::Cp(35),
            Eval::Cp(-120),
            Eval::Cp(-5),
            Eval::Cp(1234),
            Eval::Mate(3),
            Eval::Mate(-2),
            Eval::Over(Outcome::RedWins),
            Eval::Over(Outcome::BlackWins),
            Eval::Over(Outcome::Draw),
        ] {
            assert_eq!(parse_eval(&e.to_string()), Some(e), "{e}");
        }
        assert_eq!(parse_eval("#0"), None);
        assert_eq!(parse_eval("nonsense"), None);
    }

    proptest::proptest! {
        #[test]
        fn any_text_reads_without_panicking(s in "\\PC{0,24}") {
            let _ = parse_eval(&s);
        }

        #[test]
        fn any_centipawns_read_back(cp in -1_000_000i32..1_000_000) {
            proptest::prop_assert_eq!(parse_eval(&Eval::Cp(cp).to_string()), Some(Eval::Cp(cp)));
        }
    }

    #[test]
    fn a_review_survives_storage() {
        let start = Position::startpos();
        let mv = |s| Move::parse_iccs(s).expect("iccs");
        let review = Review {
            evals: vec![Eval::Cp(20), Eval::Cp(-300), Eval::Mate(-2)],
            plies: vec![
                PlyReview {
                    mv: mv("h2e2"),
                    mover: Color::Red,
                    before: Eval::Cp(20),
                    after: Eval::Cp(-300),
                    loss: 0.4,
                    accuracy: 20.0,
                    judgement: Some((Judgement::Blunder, Flaw::Chances)),
                    better: Some(Better {
                        pv: vec![mv("b2e2"), mv("h9g7")],
                        eval: Eval::Cp(20),
                    }),
                },
                PlyReview {
                    mv: mv("h9g7"),
                    mover: Color::Black,
                    before: Eval::Cp(-300),
                    after: Eval::Mate(-2),
                    loss: -0.1,
                    accuracy: 100.0,
                    judgement: None,
                    better: None,
                },
            ],
            accuracy: [Some(20.0), Some(100.0)],
            nodes: 5,
            time_ms: 7,
        };
        let json = serde_json::to_string(&stored(&review)).expect("json");
        let back: ReviewData = serde_json::from_str(&json).expect("reads");
        assert_eq!(restored(&start, &back), review);
    }
}
