//! A chat's tournament: its format (Swiss, arena, round robin), its players, its games and
//! their results, kept in the channel's record so that a game's end and the next pairing are
//! written together. Pairing ([`pairing`]) and standings ([`standings`]) are computed from it;
//! nothing here reads or writes anything else (the service starts the games it pairs).

pub mod pairing;
pub mod standings;

use serde::{Deserialize, Serialize};

use super::model::PlayerRef;
use super::TimeControl;
use crate::arbiter::{Outcome, RulesetName};

/// Most players a round robin takes (its schedule is every pair).
pub const ROBIN_MAX: usize = 16;
/// Most players any tournament takes.
pub const MAX_PLAYERS: usize = 128;
/// Most rounds of a Swiss event.
pub const MAX_ROUNDS: u32 = 30;
/// Longest arena, in minutes.
pub const MAX_ARENA_MINUTES: u32 = 24 * 60;

/// How a tournament is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// A set number of rounds, paired by score.
    Swiss {
        /// Rounds.
        rounds: u32,
    },
    /// A fixed duration; free players are paired as they become free.
    Arena {
        /// Its length, in minutes from the start.
        minutes: u32,
    },
    /// Everyone plays everyone (twice, colours swapped, when `double`).
    Robin {
        /// Two cycles.
        double: bool,
    },
}

impl Format {
    /// Its stored name (`swiss`, `arena`, `robin`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Format::Swiss { .. } => "swiss",
            Format::Arena { .. } => "arena",
            Format::Robin { .. } => "robin",
        }
    }
}

/// Where a tournament stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Taking entries.
    Entry,
    /// Being played.
    Running,
    /// An arena whose time is up: the games in play still count; nobody is paired again.
    Ending,
    /// Over: the standings are final.
    Finished,
    /// Called off by its organisers.
    Cancelled,
}

/// A player's place in the tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Presence {
    /// Paired when their turn comes.
    Playing,
    /// Sitting out (arena: not paired; Swiss: no pairing and no point) until they join again.
    Paused,
    /// Left for good after the start (their games so far stand).
    Withdrawn,
}

/// One entrant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// Who.
    pub player: PlayerRef,
    /// Their rating in the tournament's family when they joined (seeding, and the tie
    /// order within a score group).
    pub rating: i64,
    /// Playing, paused or withdrawn.
    pub presence: Presence,
    /// The first round they could be paired in (late entries start at zero).
    #[serde(default)]
    pub from_round: u32,
}

/// How a pairing ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    /// Red won.
    Red,
    /// Black won.
    Black,
    /// A draw.
    Draw,
}

impl GameResult {
    /// From a game's outcome.
    #[must_use]
    pub fn of(outcome: Outcome) -> GameResult {
        match outcome {
            Outcome::RedWins => GameResult::Red,
            Outcome::BlackWins => GameResult::Black,
            Outcome::Draw => GameResult::Draw,
        }
    }

    /// Half-points for red and black (1–0 is 2 and 0).
    #[must_use]
    pub fn halves(self) -> (u32, u32) {
        match self {
            GameResult::Red => (2, 0),
            GameResult::Black => (0, 2),
            GameResult::Draw => (1, 1),
        }
    }
}

/// One pairing: two entrants (by index) and their game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    /// The round it belongs to (1, 2, …; arenas count their pairings as rounds of one).
    pub round: u32,
    /// Red's entrant index.
    pub red: usize,
    /// Black's entrant index.
    pub black: usize,
    /// The game, once started.
    pub game: Option<u64>,
    /// Its result, once over.
    pub result: Option<GameResult>,
    /// The result was not played out (a withdrawn player's scheduled game, or a game
    /// that was aborted): it counts, but not as a game for the tie-breaks.
    #[serde(default)]
    pub forfeit: bool,
    /// Arena: which sides halved their clocks for an extra point (red, black).
    #[serde(default)]
    pub berserk: (bool, bool),
    /// When it ended (arena streaks are counted in this order).
    #[serde(default)]
    pub ended_ms: u64,
}

impl Pairing {
    /// Whether `i` plays in it.
    #[must_use]
    pub fn has(&self, i: usize) -> bool {
        self.red == i || self.black == i
    }

    /// The other player than `i`.
    #[must_use]
    pub fn opponent(&self, i: usize) -> usize {
        if self.red == i {
            self.black
        } else {
            self.red
        }
    }

    /// Whether its game is still being played.
    #[must_use]
    pub fn in_play(&self) -> bool {
        self.result.is_none()
    }
}

/// Where a tournament's games are played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Venues {
    /// In the tournament's chat, side by side.
    #[default]
    Chat,
    /// Each in a venue of its own where the platform lets the bot open one (a Discord
    /// thread, a topic of a Telegram forum), else in the chat.
    Own,
}

/// A tournament held in one chat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tournament {
    /// Where its games are played. Tournaments stored before there was a choice: the chat.
    #[serde(default)]
    pub venues: Venues,
    /// Its number (unique, from the storage's ids).
    pub id: u64,
    /// Swiss, arena or round robin.
    pub format: Format,
    /// Every game's clock (required).
    pub time_control: TimeControl,
    /// Every game's rules.
    #[serde(with = "super::names::ruleset")]
    pub ruleset: RulesetName,
    /// Whether its games are rated (each game still must qualify).
    pub rated: bool,
    /// Lowest rating that may join (in the tournament's family).
    #[serde(default)]
    pub min_rating: Option<i64>,
    /// Most players.
    #[serde(default)]
    pub max_players: Option<usize>,
    /// Who created it.
    pub organiser: PlayerRef,
    /// The server or group it is held in (its games' ratings count there).
    #[serde(default)]
    pub community: Option<String>,
    /// Its language (the chat's when created).
    #[serde(default)]
    pub lang: Option<String>,
    /// Where it stands.
    pub stage: Stage,
    /// When it starts by itself (else when an organiser starts it).
    #[serde(default)]
    pub starts_ms: Option<u64>,
    /// When it started.
    #[serde(default)]
    pub started_ms: Option<u64>,
    /// Arena: when its time is up.
    #[serde(default)]
    pub ends_ms: Option<u64>,
    /// The round being played (0 before the first).
    #[serde(default)]
    pub round: u32,
    /// Swiss and round robin: rounds start at least this many minutes apart (a round whose
    /// last game ends sooner waits for its time); none: each as soon as the one before ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub every_minutes: Option<u32>,
    /// When the current round was paired.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round_started_ms: Option<u64>,
    /// When the next round is due, while it waits for its time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_round_ms: Option<u64>,
    /// Entrants, in the order they joined.
    pub players: Vec<Entrant>,
    /// Every pairing so far.
    #[serde(default)]
    pub pairings: Vec<Pairing>,
    /// Byes given: (round, entrant) — a point each in a Swiss event, nothing in a round robin.
    #[serde(default)]
    pub byes: Vec<(u32, usize)>,
}

impl Tournament {
    /// The entrant index of player `id`.
    #[must_use]
    pub fn entrant(&self, id: &str) -> Option<usize> {
        self.players.iter().position(|e| e.player.id == id)
    }

    /// Whether it still takes part in the chat (taking entries, or being played).
    #[must_use]
    pub fn live(&self) -> bool {
        matches!(self.stage, Stage::Entry | Stage::Running | Stage::Ending)
    }

    /// The pairing whose game is `game`.
    #[must_use]
    pub fn pairing_of_game(&self, game: u64) -> Option<usize> {
        self.pairings.iter().position(|p| p.game == Some(game))
    }

    /// Whether entrant `i` is in a game of the tournament now.
    #[must_use]
    pub fn busy(&self, i: usize) -> bool {
        self.pairings.iter().any(|p| p.in_play() && p.has(i))
    }

    /// Pairings of the current round still being played.
    #[must_use]
    pub fn round_in_play(&self) -> usize {
        self.pairings
            .iter()
            .filter(|p| p.round == self.round && p.in_play())
            .count()
    }

    /// The entrants who may be paired now: playing, entered by this round.
    #[must_use]
    pub fn available(&self, round: u32) -> Vec<usize> {
        (0..self.players.len())
            .filter(|&i| {
                let e = &self.players[i];
                e.presence == Presence::Playing && e.from_round <= round
            })
            .collect()
    }

    /// How many rounds a round robin of its entrants takes.
    #[must_use]
    pub fn robin_rounds(&self) -> u32 {
        let n = self.players.len() + self.players.len() % 2;
        let cycles = match self.format {
            Format::Robin { double: true } => 2,
            _ => 1,
        };
        u32::try_from(n.saturating_sub(1) * cycles).unwrap_or(u32::MAX)
    }

    /// The rounds it is played in (arenas have none).
    #[must_use]
    pub fn rounds(&self) -> Option<u32> {
        match self.format {
            Format::Swiss { rounds } => Some(rounds),
            Format::Robin { .. } => Some(self.robin_rounds()),
            Format::Arena { .. } => None,
        }
    }

    /// Record the result of pairing `p` at `now_ms`.
    pub fn record(&mut self, p: usize, result: GameResult, now_ms: u64) {
        if let Some(pairing) = self.pairings.get_mut(p) {
            pairing.result = Some(result);
            pairing.ended_ms = now_ms;
        }
    }

    /// What the next step is, now that a game ended or the tournament starts: the pairings
    /// to start (indices into [`Tournament::pairings`], their games not yet made) and whether
    /// it ended. `now_ms` decides an arena's end.
    pub fn advance(&mut self, now_ms: u64) -> Advance {
        match self.stage {
            Stage::Running => {}
            Stage::Ending => {
                return if self.pairings.iter().any(Pairing::in_play) {
                    Advance::default()
                } else {
                    self.stage = Stage::Finished;
                    Advance {
                        finished: true,
                        ..Advance::default()
                    }
                };
            }
            _ => return Advance::default(),
        }
        match self.format {
            Format::Arena { .. } => {
                if self.ends_ms.is_some_and(|end| now_ms >= end) {
                    self.stage = Stage::Ending;
                    return self.advance(now_ms);
                }
                let from = self.pairings.len();
                let free: Vec<usize> = self
                    .available(u32::MAX)
                    .into_iter()
                    .filter(|&i| !self.busy(i))
                    .collect();
                for (red, black) in pairing::arena(self, &free) {
                    self.pairings.push(Pairing {
                        round: 0,
                        red,
                        black,
                        game: None,
                        result: None,
                        forfeit: false,
                        berserk: (false, false),
                        ended_ms: 0,
                    });
                }
                Advance {
                    start: (from..self.pairings.len()).collect(),
                    ..Advance::default()
                }
            }
            Format::Swiss { .. } | Format::Robin { .. } => {
                if self.round > 0 && self.round_in_play() > 0 {
                    return Advance::default();
                }
                let last = self.rounds().unwrap_or(0);
                if self.round >= last {
                    self.stage = Stage::Finished;
                    self.next_round_ms = None;
                    return Advance {
                        finished: true,
                        ..Advance::default()
                    };
                }
                if let (Some(every), Some(started), true) =
                    (self.every_minutes, self.round_started_ms, self.round > 0)
                {
                    let at = started + u64::from(every) * 60_000;
                    if now_ms < at {
                        self.next_round_ms = Some(at);
                        return Advance {
                            wait_until: Some(at),
                            ..Advance::default()
                        };
                    }
                }
                self.next_round_ms = None;
                self.round_started_ms = Some(now_ms);
                self.round += 1;
                let round = self.round;
                let from = self.pairings.len();
                let (pairs, bye) = match self.format {
                    Format::Robin { .. } => pairing::robin_round(self, round),
                    _ => pairing::swiss(self, round),
                };
                if let Some(b) = bye {
                    self.byes.push((round, b));
                }
                for (red, black) in pairs {
                    // A withdrawn player's scheduled game (round robin) is lost unplayed.
                    let gone = |i: usize| self.players[i].presence == Presence::Withdrawn;
                    let result = match (gone(red), gone(black)) {
                        (false, false) => None,
                        (true, false) => Some(GameResult::Black),
                        (false, true) => Some(GameResult::Red),
                        (true, true) => Some(GameResult::Draw),
                    };
                    self.pairings.push(Pairing {
                        round,
                        red,
                        black,
                        game: None,
                        result,
                        forfeit: result.is_some(),
                        berserk: (false, false),
                        ended_ms: if result.is_some() { now_ms } else { 0 },
                    });
                }
                let start: Vec<usize> = (from..self.pairings.len())
                    .filter(|&p| self.pairings[p].in_play())
                    .collect();
                if start.is_empty() {
                    // Nothing to play this round (its players withdrew): go on.
                    return self.advance(now_ms);
                }
                Advance {
                    start,
                    round_started: Some(round),
                    ..Advance::default()
                }
            }
        }
    }
}

/// What [`Tournament::advance`] decided.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Advance {
    /// Pairings whose games are to start now.
    pub start: Vec<usize>,
    /// A new round began (Swiss, round robin).
    pub round_started: Option<u32>,
    /// The tournament just ended.
    pub finished: bool,
    /// The next round waits for its time ([`Tournament::every_minutes`]).
    pub wait_until: Option<u64>,
}

#[cfg(test)]
mod tests;
