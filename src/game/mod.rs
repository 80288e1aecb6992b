//! Games, clocks, the storage trait, and the game manager keyed by channel.
//!
//! A [`Game`] is a stored [`GameRecord`] plus the [`Arbiter`] rebuilt by replaying its moves.
//! The [`GameManager`] owns one lock per channel: commands in a channel are applied strictly
//! in order (tokio's mutex is fair), and channels never wait on each other.

mod analysis;
mod clock;
mod model;
mod names;
mod puzzle;
mod storage;
pub mod tournament;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

pub use analysis::{HintAsk, ReviewData, ReviewRecord, ReviewedPly, REVIEW_VERSION};
pub use clock::{format_clock, ClockReading, ClockState, SideClock, TimeControl};
pub use model::{
    bound, clean_name, is_invisible_format, BotMemory, Challenge, ChannelRecord, ChannelSettings,
    ColorChoice, Deadline, DeadlineKind, GameRecord, GameStatus, PlayerRef, ShownMenu, StoredEval,
    UserPrefs, MAX_NAME, SCHEMA_VERSION,
};
pub use names::EndReason;
pub use puzzle::{DailyPuzzle, LivePuzzle, PuzzlePlayer, PuzzleStanding, RECENT_PUZZLES};
pub use storage::{BoxFuture, Changes, Claim, Lease, OutboxKey, Storage, StorageError, ALIVE};

use crate::arbiter::{Accepted, Arbiter, Outcome, Ruleset, RulesetName, SubmitError};
use crate::core::{Color, Move, Position};
use crate::platform::ChannelKey;

/// A game in memory: its record and its arbiter.
#[derive(Clone, Debug)]
pub struct Game {
    /// The stored record (kept in step with the arbiter).
    pub record: GameRecord,
    /// The arbiter, with every move replayed.
    pub arbiter: Arbiter,
}

/// A stored game that cannot be replayed (never expected: moves are checked before storing).
#[derive(Debug)]
pub struct CorruptGame(pub String);

/// What a new game needs.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// Game id.
    pub id: u64,
    /// Its channel.
    pub channel: ChannelKey,
    /// Red player.
    pub red: PlayerRef,
    /// Black player.
    pub black: PlayerRef,
    /// Ruleset.
    pub ruleset: RulesetName,
    /// Time control.
    pub time_control: TimeControl,
    /// A set-up start (default: the initial position).
    pub start: Option<Position>,
    /// Whether takebacks may be asked for.
    pub takebacks: bool,
    /// Whether hints may be asked for (games between people).
    pub hints: bool,
    /// Whether the game is rated (both players agreed).
    pub rated: bool,
    /// The server or group it is played in (a leaderboard scope), if any.
    pub community: Option<String>,
    /// The game's language code (`vi`, `en`, `zh`).
    pub lang: Option<String>,
    /// For an untimed game, how long a player may stay away before the game can be claimed.
    pub idle_after_ms: Option<u64>,
}

impl Game {
    /// A new game.
    #[must_use]
    pub fn start(setup: GameSetup, now_ms: u64) -> Game {
        let GameSetup {
            id,
            channel,
            red,
            black,
            ruleset,
            time_control,
            start,
            takebacks,
            hints,
            rated,
            community,
            lang,
            idle_after_ms,
        } = setup;
        let pos = start.clone().unwrap_or_else(Position::startpos);
        let record = GameRecord {
            v: SCHEMA_VERSION,
            id,
            channel,
            red,
            black,
            ruleset,
            start_fen: start.map(|p| p.to_fen()),
            moves: Vec::new(),
            time_control,
            clock: ClockState::start(time_control, now_ms),
            status: GameStatus::Active,
            draw_offer: None,
            takeback_request: None,
            last_refusal: None,
            takebacks,
            created_ms: now_ms,
            updated_ms: now_ms,
            rated,
            community,
            lang,
            idle_after_ms: idle_after_ms.filter(|_| time_control == TimeControl::None),
            turn_since_ms: Some(now_ms),
            bot_memory: None,
            hints: Some(hints),
            tournament: None,
            first_move_ms: None,
            venue: None,
        };
        Game {
            arbiter: Arbiter::new(pos, Ruleset::preset(ruleset)),
            record,
        }
    }

    /// Rebuild from a stored record by replaying its moves.
    ///
    /// # Errors
    /// [`CorruptGame`] if the record does not replay.
    pub fn from_record(record: GameRecord) -> Result<Game, CorruptGame> {
        let ruleset = record.ruleset;
        let start = match &record.start_fen {
            Some(f) => Position::from_fen(f).map_err(|e| CorruptGame(e.to_string()))?,
            None => Position::startpos(),
        };
        let mut arbiter = Arbiter::new(start, Ruleset::preset(ruleset));
        for (i, text) in record.moves.iter().enumerate() {
            let m =
                Move::parse_iccs(text).ok_or_else(|| CorruptGame(format!("move {i} {text:?}")))?;
            arbiter
                .submit(m)
                .map_err(|e| CorruptGame(format!("move {i} {text}: {e:?}")))?;
        }
        Ok(Game { record, arbiter })
    }

    /// The ruleset in force.
    #[must_use]
    pub fn ruleset(&self) -> RulesetName {
        self.arbiter.rules().name
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position {
        self.arbiter.position()
    }

    /// Whose turn it is.
    #[must_use]
    pub fn to_move(&self) -> Color {
        self.position().turn()
    }

    /// The colour `user` plays, if they play in this game.
    #[must_use]
    pub fn color_of(&self, user: &str) -> Option<Color> {
        if self.record.red.id == user {
            Some(Color::Red)
        } else if self.record.black.id == user {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The player of `color`.
    #[must_use]
    pub fn player(&self, color: Color) -> &PlayerRef {
        match color {
            Color::Red => &self.record.red,
            Color::Black => &self.record.black,
        }
    }

    /// Whether the game is still being played.
    #[must_use]
    pub fn is_active(&self) -> bool {
        self.record.status == GameStatus::Active
    }

    /// The deadlines of the side to move: the clock's flag and, if due, its 10% warning; for
    /// an untimed game, the warning and the moment the other side may claim it.
    #[must_use]
    pub fn deadlines(&self) -> Vec<Deadline> {
        if !self.is_active() {
            return Vec::new();
        }
        let at = |at_ms, kind| Deadline {
            at_ms,
            id: self.record.id,
            kind,
            channel: self.record.channel.clone(),
        };
        let mut out = Vec::new();
        if let Some(clock) = self.record.clock {
            let red = self.to_move() == Color::Red;
            if let ClockReading::Running {
                flag_at_ms,
                warn_at_ms,
            } = clock.reading(self.record.time_control, red, 0)
            {
                out.push(at(flag_at_ms, DeadlineKind::Flag));
                out.extend(warn_at_ms.map(|w| at(w, DeadlineKind::Warn)));
            }
        }
        out.extend(
            self.first_move_due()
                .map(|due| at(due, DeadlineKind::FirstMove)),
        );
        if let (Some(claim), Some(after)) = (self.idle_claim_at(), self.record.idle_after_ms) {
            out.push(at(claim.saturating_sub(after / 4), DeadlineKind::IdleWarn));
            out.push(at(claim, DeadlineKind::IdleClaim));
        }
        out
    }

    /// When the side to move loses by default if it has not made its first move by then
    /// ([`GameRecord::first_move_ms`]); none once both sides have moved.
    #[must_use]
    pub fn first_move_due(&self) -> Option<u64> {
        let limit = self.record.first_move_ms?;
        if self.record.moves.len() >= 2 {
            return None;
        }
        Some(self.record.turn_since_ms?.saturating_add(limit))
    }

    /// Untimed games: when the side waiting may claim the game if the side to move has not
    /// moved by then.
    #[must_use]
    pub fn idle_claim_at(&self) -> Option<u64> {
        let after = self.record.idle_after_ms?;
        let since = self.record.turn_since_ms?;
        Some(since.saturating_add(after))
    }

    /// Whether the side to move has run out of time at `now_ms`.
    #[must_use]
    pub fn flagged(&self, now_ms: u64) -> bool {
        self.record.clock.is_some_and(|c| {
            c.reading(
                self.record.time_control,
                self.to_move() == Color::Red,
                now_ms,
            ) == ClockReading::Flagged
        })
    }

    /// Play `m` for the side to move at `now_ms`: the clock is charged, the arbiter judges,
    /// and the record follows. Nothing changes when the move is refused or illegal.
    ///
    /// # Errors
    /// The arbiter's [`SubmitError`].
    pub fn play(&mut self, m: Move, now_ms: u64) -> Result<Accepted, SubmitError> {
        let mover = self.to_move();
        let acc = self.arbiter.submit(m)?;
        if let Some(c) = self.record.clock.as_mut() {
            c.charge_move(self.record.time_control, mover == Color::Red, now_ms);
        }
        self.record.moves.push(m.to_string());
        self.record.turn_since_ms = Some(now_ms);
        self.record.last_refusal = None;
        self.record.takeback_request = None;
        // A draw offer stands until the other side moves.
        if self.record.draw_offer == Some(mover.other()) {
            self.record.draw_offer = None;
        }
        if let Some(r) = &acc.ruling {
            self.finish(r.outcome, EndReason::Ruling(r.reason), now_ms);
        }
        self.record.updated_ms = now_ms;
        Ok(acc)
    }

    /// End the game.
    pub fn finish(&mut self, outcome: Outcome, reason: EndReason, now_ms: u64) {
        self.record.status = GameStatus::Finished {
            result: outcome,
            reason,
        };
        self.record.draw_offer = None;
        self.record.takeback_request = None;
        self.record.updated_ms = now_ms;
    }

    /// Take back the last `n` plies (the clock restarts for the side then to move).
    pub fn take_back(&mut self, n: usize, now_ms: u64) {
        for _ in 0..n {
            if self.arbiter.undo().is_some() {
                self.record.moves.pop();
            }
        }
        if let Some(c) = self.record.clock.as_mut() {
            c.turn_started_ms = now_ms;
        }
        self.record.turn_since_ms = Some(now_ms);
        self.record.takeback_request = None;
        self.record.draw_offer = None;
        self.record.updated_ms = now_ms;
    }
}

/// What a channel holds in memory while a command runs.
#[derive(Debug, Default)]
pub struct ChannelSlot {
    /// The stored channel record.
    pub record: ChannelRecord,
    /// The game the command acts on ([`ChannelSlot::select`]), loaded: the record's
    /// `active_game`.
    pub game: Option<Game>,
    /// The other games being played here, loaded: the record's `other_games`. Handlers see
    /// only `game`; the router picks which game that is before they run.
    pub others: Vec<Game>,
    /// Whether `record`, `game` and `others` were loaded from storage.
    pub loaded: bool,
}

impl ChannelSlot {
    /// Every game being played here.
    pub fn games(&self) -> impl Iterator<Item = &Game> {
        self.game
            .iter()
            .chain(self.others.iter())
            .filter(|g| g.is_active())
    }

    /// The game `user` plays here, if any.
    #[must_use]
    pub fn game_of(&self, user: &str) -> Option<&Game> {
        self.games()
            .find(|g| g.record.red.id == user || g.record.black.id == user)
    }

    /// Make challenge `id` (when it waits here) the one handlers see as the channel's
    /// challenge, the others set aside; `None`: no challenge (a new one may be made). As with
    /// games, whatever a handler stores then names every challenge still waiting.
    pub fn select_challenge(&mut self, id: Option<u64>) {
        let r = &mut self.record;
        bring_forward(&mut r.challenge, &mut r.other_challenges, |c| {
            Some(c.id) == id
        });
    }

    /// Make game `id` (when it is being played here) the one handlers see, the others set
    /// aside; `None`: no game (a command that starts something beside the running games).
    /// The record is kept in step, so whatever a handler stores names every running game
    /// (which one is `active_game` does not matter to storage). Games that ended are dropped.
    pub fn select(&mut self, id: Option<u64>) {
        self.others.retain(Game::is_active);
        if self.game.as_ref().is_some_and(|g| !g.is_active()) {
            self.game = None;
        }
        bring_forward(&mut self.game, &mut self.others, |g| {
            Some(g.record.id) == id
        });
        self.record.active_game = self.game.as_ref().map(|g| g.record.id);
        self.record.other_games = self.others.iter().map(|g| g.record.id).collect();
    }
}

/// Put the first of `current` and `others` that `wanted` picks in `current` and the rest in
/// `others` (in their order, `current` first); none picked: `current` is left empty.
fn bring_forward<T>(current: &mut Option<T>, others: &mut Vec<T>, wanted: impl Fn(&T) -> bool) {
    let mut all: Vec<T> = current.take().into_iter().collect();
    all.append(others);
    if let Some(i) = all.iter().position(wanted) {
        *current = Some(all.remove(i));
    }
    *others = all;
}

/// A channel locked for one command: its slot, and (on a storage shared by several
/// processes) the lease that keeps the other processes out of the channel meanwhile.
pub struct SlotGuard {
    guard: tokio::sync::OwnedMutexGuard<ChannelSlot>,
    lease: Option<Lease>,
}

impl SlotGuard {
    /// The lease, taken out, to let the other processes into the channel once the command's
    /// changes are committed: what is left (drawing the replies, handing them over in order)
    /// needs only this process's lock, which the guard keeps. A storage lease may hold a
    /// database connection; keeping it while pictures are drawn let a few slow commands
    /// starve every other channel of connections.
    pub fn take_lease(&mut self) -> Option<Lease> {
        self.lease.take()
    }
}

impl std::ops::Deref for SlotGuard {
    type Target = ChannelSlot;
    fn deref(&self) -> &ChannelSlot {
        &self.guard
    }
}

impl std::ops::DerefMut for SlotGuard {
    fn deref_mut(&mut self) -> &mut ChannelSlot {
        &mut self.guard
    }
}

/// One lock per channel, loaded lazily, kept in memory while used recently. On a storage
/// several processes share, the lock is also taken in the storage (a lease), and the channel
/// is read again when another process wrote it since.
pub struct GameManager {
    storage: Arc<dyn Storage>,
    slots: Mutex<HashMap<String, Arc<tokio::sync::Mutex<ChannelSlot>>>>,
    capacity: usize,
}

impl GameManager {
    /// A manager over `storage`, caching at most `capacity` idle channels.
    #[must_use]
    pub fn new(storage: Arc<dyn Storage>, capacity: usize) -> GameManager {
        GameManager {
            storage,
            slots: Mutex::new(HashMap::new()),
            capacity: capacity.max(16),
        }
    }

    /// The storage.
    #[must_use]
    pub fn storage(&self) -> &Arc<dyn Storage> {
        &self.storage
    }

    /// Lock `channel` (waiting behind earlier commands in it, in this process and in others
    /// sharing the storage) and load it if needed.
    ///
    /// # Errors
    /// On a storage failure, or a stored game that does not replay.
    pub async fn lock(&self, channel: &ChannelKey) -> Result<SlotGuard, StorageError> {
        let slot = {
            let mut slots = self
                .slots
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if slots.len() > self.capacity {
                // Forget idle channels (nobody holds or waits on their lock); they reload
                // from storage when next used.
                slots.retain(|_, s| Arc::strong_count(s) > 1);
            }
            slots
                .entry(channel.to_string())
                .or_insert_with(|| Arc::new(tokio::sync::Mutex::new(ChannelSlot::default())))
                .clone()
        };
        let mut guard = slot.lock_owned().await;
        let lease = self.storage.lease(channel).await?;
        if lease.as_ref().is_some_and(|l| !l.fresh) {
            guard.loaded = false;
        }
        if !guard.loaded {
            let record = self.storage.channel(channel)?.unwrap_or_default();
            let mut games = Vec::new();
            for &id in record.active_game.iter().chain(&record.other_games) {
                if let Some(g) = self.storage.game(id)? {
                    if g.status == GameStatus::Active {
                        games.push(
                            Game::from_record(g)
                                .map_err(|e| StorageError(format!("game {id}: {}", e.0)))?,
                        );
                    }
                }
            }
            let first = record.active_game;
            guard.record = record;
            guard.game = None;
            guard.others = games;
            guard.select(first);
            guard.loaded = true;
        }
        Ok(SlotGuard { guard, lease })
    }

    /// Channels currently held in memory.
    #[must_use]
    pub fn cached(&self) -> usize {
        self.slots
            .lock()
            .map(|s| s.len())
            .unwrap_or_else(|p| p.into_inner().len())
    }
}
