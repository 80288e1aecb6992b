//! The arbiter of one game: plays moves, classifies them, rules on endings in precedence order
//! (mate, then fouls, then draws), enforces by forfeit or refusal, and warns before a foul.

use std::collections::HashMap;

use crate::core::{Color, IllegalMove, Move, Position, Role};

use super::classify::{classify, PlyClass};
use super::counts::{chase_run, check_run, Run};
use super::draws::{effective_plies, insufficient_material, no_progress_count, PlyFacts};
use super::repetition::{conduct, verdict};
use super::ruleset::{Enforcement, Ruleset};
use super::ruling::{Clause, EvidencePly, Outcome, Reason, Ruling, Warning};

/// One played ply as the arbiter recorded it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlyRecord {
    /// The move.
    pub mv: Move,
    /// Its class (check, chase with victims, idle).
    pub class: PlyClass,
    /// Facts for the draw rules.
    pub facts: PlyFacts,
}

/// Why a move was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SubmitError {
    /// The game is over.
    GameOver,
    /// The move breaks the rules of movement.
    Illegal(IllegalMove),
    /// The ruleset refuses this ply (enforcement `refuse`): it would be a foul.
    Refused(Box<Ruling>),
}

/// What an accepted ply produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accepted {
    /// The ply as recorded.
    pub record: PlyRecord,
    /// The game-ending ruling, if the ply ended the game.
    pub ruling: Option<Ruling>,
    /// Warnings for the side now to move.
    pub warnings: Vec<Warning>,
    /// Whether the side now to move may claim a draw (`vietnam`'s no-progress claim).
    pub draw_claimable: bool,
}

/// Why a draw claim was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClaimError {
    /// The game is over.
    GameOver,
    /// This ruleset has no draw claim.
    NoClaimRule,
    /// Not enough plies yet.
    TooEarly {
        /// Counted so far.
        counted: u32,
        /// Needed.
        needed: u32,
    },
}

/// The arbiter of one game.
#[derive(Clone, Debug)]
pub struct Arbiter {
    rules: Ruleset,
    /// `positions[i]` is the position before ply `i`; the last one is the current position.
    positions: Vec<Position>,
    plies: Vec<PlyRecord>,
    ended: Option<Ruling>,
    /// How many times each position hash has occurred.
    seen: HashMap<u64, u32>,
}

impl Arbiter {
    /// A new game from `start` under `rules`.
    #[must_use]
    pub fn new(start: Position, rules: Ruleset) -> Arbiter {
        let mut seen = HashMap::new();
        seen.insert(start.hash(), 1);
        let mut a = Arbiter {
            rules,
            positions: vec![start],
            plies: Vec::new(),
            ended: None,
            seen,
        };
        // A start position may already be over (mate, stalemate, or no acceptable move).
        a.ended = a.adjudicate_terminal().or_else(|| a.refusal_loss());
        a
    }

    /// The ruleset.
    #[must_use]
    pub fn rules(&self) -> &Ruleset {
        &self.rules
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position {
        self.positions.last().unwrap_or_else(|| unreachable!())
    }

    /// The starting position.
    #[must_use]
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The position before ply `i` (`i == plies().len()` gives the current one).
    #[must_use]
    pub fn position_before(&self, i: usize) -> Option<&Position> {
        self.positions.get(i)
    }

    /// Every ply played.
    #[must_use]
    pub fn plies(&self) -> &[PlyRecord] {
        &self.plies
    }

    /// The ruling that ended the game, if any.
    #[must_use]
    pub fn ruling(&self) -> Option<&Ruling> {
        self.ended.as_ref()
    }

    /// Play `m` for the side to move.
    ///
    /// # Errors
    /// [`SubmitError`]: the game is over, the move is illegal (with the rule), or it is refused.
    pub fn submit(&mut self, m: Move) -> Result<Accepted, SubmitError> {
        if self.ended.is_some() {
            return Err(SubmitError::GameOver);
        }
        self.position()
            .explain_illegal(m)
            .map_err(SubmitError::Illegal)?;
        let ruling = self.push(m);
        let mover = self.positions[self.positions.len() - 2].turn();
        if let Some(r) = &ruling {
            let is_foul = !matches!(r.reason, Reason::Checkmate | Reason::Stalemate)
                && r.outcome.loser() == Some(mover)
                && r.outcome != Outcome::Draw;
            if is_foul && self.rules.enforcement == Enforcement::Refuse {
                let r = r.clone();
                self.pop();
                return Err(SubmitError::Refused(Box::new(r)));
            }
        }
        self.ended = ruling.clone();
        let mut ruling = ruling;
        let mut warnings = Vec::new();
        if ruling.is_none() {
            warnings = self.warnings();
            if let Some(r) = self.refusal_loss() {
                self.ended = Some(r.clone());
                ruling = Some(r);
            }
        }
        let record = self.plies.last().cloned().unwrap_or_else(|| unreachable!());
        Ok(Accepted {
            record,
            draw_claimable: ruling.is_none() && self.draw_claimable(),
            ruling,
            warnings,
        })
    }

    /// Take back the last ply (for `/takeback`). Returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<PlyRecord> {
        let r = self.pop();
        if r.is_some() {
            self.ended = None;
        }
        r
    }

    /// A draw claim by the side to move (granted where the ruleset allows a claim and its
    /// count is reached).
    ///
    /// # Errors
    /// [`ClaimError`] saying why the claim fails.
    pub fn claim_draw(&mut self) -> Result<Ruling, ClaimError> {
        if self.ended.is_some() {
            return Err(ClaimError::GameOver);
        }
        let Some(rule) = self.rules.no_progress.filter(|r| r.claim_only) else {
            return Err(ClaimError::NoClaimRule);
        };
        let counted = self.no_progress_counted(&rule);
        if counted < rule.plies {
            return Err(ClaimError::TooEarly {
                counted,
                needed: rule.plies,
            });
        }
        let r = self.no_progress_ruling(&rule, counted, true);
        self.ended = Some(r.clone());
        Ok(r)
    }

    /// Whether the side to move may claim a draw now.
    #[must_use]
    pub fn draw_claimable(&self) -> bool {
        self.ended.is_none()
            && self
                .rules
                .no_progress
                .filter(|r| r.claim_only)
                .is_some_and(|r| self.no_progress_counted(&r) >= r.plies)
    }

    fn push(&mut self, m: Move) -> Option<Ruling> {
        let before = self.position();
        let after = before.after(m);
        let side = before.turn();
        let moved = before.piece_at(m.from);
        let capture = before.piece_at(m.to).is_some();
        let soldier_advance = moved.is_some_and(|p| {
            p.role == Role::Soldier
                && !p.color.owns_rank(m.from.rank())
                && m.to.file() == m.from.file()
        });
        let class = classify(before, m, &after, self.rules.soldier_chases);
        self.plies.push(PlyRecord {
            mv: m,
            class,
            facts: PlyFacts {
                side,
                capture,
                soldier_advance,
            },
        });
        *self.seen.entry(after.hash()).or_insert(0) += 1;
        self.positions.push(after);
        self.adjudicate()
    }

    fn pop(&mut self) -> Option<PlyRecord> {
        if self.plies.is_empty() {
            return None;
        }
        if let Some(p) = self.positions.pop() {
            if let Some(n) = self.seen.get_mut(&p.hash()) {
                *n = n.saturating_sub(1);
            }
        }
        self.plies.pop()
    }

    fn classes(&self) -> Vec<(Color, &PlyClass)> {
        self.plies
            .iter()
            .map(|p| (p.facts.side, &p.class))
            .collect()
    }

    fn evidence(&self, range: std::ops::Range<usize>) -> Vec<EvidencePly> {
        range
            .filter_map(|i| {
                let p = self.plies.get(i)?;
                Some(EvidencePly {
                    index: i,
                    side: p.facts.side,
                    mv: p.mv,
                    before: self.positions[i].clone(),
                    class: p.class.clone(),
                })
            })
            .collect()
    }

    fn tail_evidence(&self, n: usize) -> Vec<EvidencePly> {
        let len = self.plies.len();
        self.evidence(len.saturating_sub(n)..len)
    }

    fn ruling_with(
        &self,
        outcome: Outcome,
        reason: Reason,
        clause: Clause,
        evidence: Vec<EvidencePly>,
    ) -> Ruling {
        Ruling {
            outcome,
            reason,
            ruleset: self.rules.name,
            clause,
            source: self.rules.source,
            ply: self.plies.len(),
            evidence,
            all_moves_refused: false,
        }
    }

    /// Mate and stalemate, and insufficient material: what a position alone decides.
    fn adjudicate_terminal(&self) -> Option<Ruling> {
        let pos = self.position();
        if !pos.has_legal_move() {
            let loser = pos.turn();
            let (reason, clause) = if pos.is_check() {
                (Reason::Checkmate, Clause::Checkmate)
            } else {
                (Reason::Stalemate, Clause::Stalemate)
            };
            return Some(self.ruling_with(
                Outcome::loss_for(loser),
                reason,
                clause,
                self.tail_evidence(1),
            ));
        }
        None
    }

    /// The ruling after the latest ply, in precedence order.
    fn adjudicate(&self) -> Option<Ruling> {
        if let Some(r) = self.adjudicate_terminal() {
            return Some(r);
        }
        if let Some(r) = self.count_foul().or_else(|| self.repetition()) {
            return Some(r);
        }
        self.draw_rules()
    }

    fn count_foul(&self) -> Option<Ruling> {
        let mover = self.plies.last()?.facts.side;
        let classes = self.classes();
        let run = check_run(&classes, mover);
        if let Some(limit) = self.rules.checks.allowed(run.pieces.len()) {
            if run.count > limit {
                return Some(self.ruling_with(
                    Outcome::loss_for(mover),
                    Reason::CheckLimit,
                    Clause::CheckCount {
                        count: run.count,
                        limit,
                        pieces: run.pieces.len(),
                    },
                    self.evidence(run.first..self.plies.len()),
                ));
            }
        }
        let run = chase_run(&classes, mover);
        if let (Some(limit), Some(&victim)) = (
            self.rules.chases.allowed(run.pieces.len()),
            run.victims.first(),
        ) {
            if run.count > limit {
                return Some(self.ruling_with(
                    Outcome::loss_for(mover),
                    Reason::ChaseLimit,
                    Clause::ChaseCount {
                        count: run.count,
                        limit,
                        pieces: run.pieces.len(),
                        victim,
                    },
                    self.evidence(run.first..self.plies.len()),
                ));
            }
        }
        None
    }

    /// Index of the previous occurrence of the current position and how many times it has
    /// occurred (the current one included).
    fn occurrences(&self) -> (Option<usize>, usize) {
        let cur = self.position();
        let n = self.positions.len() - 1;
        let mut prev = None;
        let mut count = 1;
        if self.seen.get(&cur.hash()).copied().unwrap_or(0) < 2 {
            return (None, 1);
        }
        // Only positions since the last capture can repeat; same side to move: step by two.
        let mut i = n;
        while i >= 2 {
            i -= 2;
            if self.plies[i].facts.capture || self.plies[i + 1].facts.capture {
                break;
            }
            let p = &self.positions[i];
            if p.hash() == cur.hash() && p == cur {
                count += 1;
                prev.get_or_insert(i);
            }
        }
        (prev, count)
    }

    fn repetition(&self) -> Option<Ruling> {
        let table = self.rules.repetition?;
        let (prev, count) = self.occurrences();
        if count < 3 {
            return None;
        }
        let start = prev?;
        let end = self.plies.len();
        let cycle: Vec<(Color, &PlyClass)> = self.plies[start..end]
            .iter()
            .map(|p| (p.facts.side, &p.class))
            .collect();
        let red = conduct(cycle.iter().copied(), Color::Red);
        let black = conduct(cycle.iter().copied(), Color::Black);
        let (outcome, reason) = verdict(table, &red, &black);
        Some(self.ruling_with(
            outcome,
            reason,
            Clause::Repetition { table, red, black },
            self.evidence(start..end),
        ))
    }

    fn no_progress_ruling(
        &self,
        rule: &super::ruleset::NoProgress,
        counted: u32,
        claimed: bool,
    ) -> Ruling {
        self.ruling_with(
            Outcome::Draw,
            Reason::NoProgress,
            Clause::NoProgress {
                counted,
                needed: rule.plies,
                soldier_advance: rule.soldier_advance_is_progress,
                checks_counted: rule.checks_counted_per_side,
                claimed,
            },
            self.tail_evidence(1),
        )
    }

    fn no_progress_counted(&self, rule: &super::ruleset::NoProgress) -> u32 {
        let facts: Vec<PlyFacts> = self.plies.iter().map(|p| p.facts).collect();
        let classes: Vec<&PlyClass> = self.plies.iter().map(|p| &p.class).collect();
        no_progress_count(rule, &facts, &classes, self.start().halfmoves())
    }

    fn draw_rules(&self) -> Option<Ruling> {
        let n = self.plies.len();
        if let Some(rule) = self.rules.no_progress.filter(|r| !r.claim_only) {
            let counted = self.no_progress_counted(&rule);
            if counted >= rule.plies {
                return Some(self.no_progress_ruling(&rule, counted, false));
            }
        }
        if let Some(per_side) = self.rules.effective_moves_per_side {
            let facts: Vec<PlyFacts> = self.plies.iter().map(|p| p.facts).collect();
            let classes: Vec<&PlyClass> = self.plies.iter().map(|p| &p.class).collect();
            let eff = effective_plies(&facts, &classes);
            if eff[0] >= per_side && eff[1] >= per_side {
                return Some(self.ruling_with(
                    Outcome::Draw,
                    Reason::EffectiveMoves,
                    Clause::EffectiveMoves { per_side },
                    self.tail_evidence(1),
                ));
            }
        }
        if let Some(cap) = self.rules.move_cap {
            if n >= cap as usize {
                return Some(self.ruling_with(
                    Outcome::Draw,
                    Reason::MoveLimit,
                    Clause::MoveCap { plies: cap },
                    self.tail_evidence(1),
                ));
            }
        }
        if insufficient_material(self.position()) {
            return Some(self.ruling_with(
                Outcome::Draw,
                Reason::InsufficientMaterial,
                Clause::InsufficientMaterial,
                self.tail_evidence(1),
            ));
        }
        None
    }

    /// Warnings for the side to move: the last allowed check or chase of a count, and moves
    /// that would bring a position about a 3rd time and lose.
    #[must_use]
    pub fn warnings(&self) -> Vec<Warning> {
        let mut out = Vec::new();
        if self.ended.is_some() {
            return out;
        }
        let side = self.position().turn();
        let classes = self.classes();
        let near = |rule: super::ruleset::CountRule, run: &Run| {
            rule.allowed(run.pieces.len())
                .filter(|&limit| run.count > 0 && run.count >= limit)
        };
        let run = check_run(&classes, side);
        if let Some(limit) = near(self.rules.checks, &run) {
            out.push(Warning::CheckLimitNear {
                side,
                count: run.count,
                limit,
            });
        }
        let run = chase_run(&classes, side);
        if let (Some(limit), Some(&victim)) = (near(self.rules.chases, &run), run.victims.first()) {
            out.push(Warning::ChaseLimitNear {
                side,
                count: run.count,
                limit,
                victim,
            });
        }
        if self.rules.repetition.is_some() && self.seen.values().any(|&n| n >= 2) {
            let mut losing = Vec::new();
            let mut reason = Reason::Repetition;
            for &m in self.position().legal_moves().iter() {
                if let Some(r) = self.repetition_danger(m, side) {
                    losing.push(m);
                    reason = r;
                }
            }
            if !losing.is_empty() {
                out.push(Warning::RepetitionLooming {
                    side,
                    moves: losing,
                    reason,
                });
            }
        }
        out
    }

    /// Whether `m` by `side` leads to a repetition that `side` loses: `m` completes a third
    /// occurrence itself, or lets the opponent complete one at once.
    fn repetition_danger(&self, m: Move, side: Color) -> Option<Reason> {
        if let Some(r) = self.would_lose_by_repetition(m, side) {
            return Some(r);
        }
        let next = self.position().after(m);
        let replies: Vec<Move> = next
            .legal_moves()
            .iter()
            .copied()
            .filter(|&r| self.seen.get(&next.hash_after(r)).copied().unwrap_or(0) >= 2)
            .collect();
        if replies.is_empty() {
            return None;
        }
        let mut probe = self.clone();
        if probe.push(m).is_some() {
            return None;
        }
        replies
            .into_iter()
            .find_map(|r| probe.would_lose_by_repetition(r, side))
    }

    /// If `m` would complete a third occurrence that `side` loses, the reason.
    fn would_lose_by_repetition(&self, m: Move, side: Color) -> Option<Reason> {
        let h = self.position().hash_after(m);
        if self.seen.get(&h).copied().unwrap_or(0) < 2 {
            return None;
        }
        let mut probe = self.clone();
        let r = probe.push(m)?;
        (r.outcome.loser() == Some(side)
            && matches!(
                r.reason,
                Reason::PerpetualCheck | Reason::PerpetualChase | Reason::Repetition
            ))
        .then_some(r.reason)
    }

    /// In refuse mode: if every legal move of the side to move would be refused, the ruling
    /// that it loses. Only searched when a refusal is possible at all (a warning is due, or a
    /// count rule forbids even the first check or chase).
    fn refusal_loss(&self) -> Option<Ruling> {
        if self.rules.enforcement != Enforcement::Refuse || self.ended.is_some() {
            return None;
        }
        let zero = |r: super::ruleset::CountRule| r.allowed(1) == Some(0);
        if !zero(self.rules.checks) && !zero(self.rules.chases) && self.warnings().is_empty() {
            return None;
        }
        let side = self.position().turn();
        let moves = self.position().legal_moves();
        let mut last = None;
        for &m in moves.iter() {
            let mut probe = self.clone();
            match probe.push(m) {
                Some(r)
                    if r.outcome.loser() == Some(side)
                        && !matches!(r.reason, Reason::Checkmate | Reason::Stalemate) =>
                {
                    last = Some(r);
                }
                _ => return None,
            }
        }
        last.map(|mut r| {
            r.ply = self.plies.len();
            r.all_moves_refused = true;
            r
        })
    }
}
