//! Stored records: games, channels, user preferences, deadlines. Versioned serde structs; the
//! rules types are stored by name so the rules core stays free of serde.

use serde::{Deserialize, Serialize};

use super::clock::{ClockState, TimeControl};
use super::names::{self, EndReason};
use crate::arbiter::{Outcome, RulesetName};
use crate::core::Color;
use crate::platform::{ChannelKey, UserKey};

/// Version written into every record; readers accept this one and older ones they know.
pub const SCHEMA_VERSION: u32 = 1;

/// Longest display name kept (characters).
pub const MAX_NAME: usize = 32;

/// A user as a chat platform knows them: a stable id (`tg:123`, `dc:456`, `console:alice`)
/// and a display name (bounded, control characters removed).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlayerRef {
    /// Platform-qualified id.
    pub id: UserKey,
    /// Display name.
    pub name: String,
}

impl PlayerRef {
    /// A player with a cleaned, bounded name.
    #[must_use]
    pub fn new(id: impl Into<UserKey>, name: &str) -> PlayerRef {
        let id: UserKey = id.into();
        PlayerRef {
            id: UserKey::from(bound(&id, 96)),
            name: clean_name(name),
        }
    }
}

/// Invisible characters that could reorder or hide text, or pass for a blank name: bidi marks,
/// overrides and isolates (U+061C, U+200E/F, U+202A–202E, U+2066–2069), the invisible operators
/// and word joiner (U+2060–2064), soft hyphen, BOM, line separators, and the Hangul fillers
/// (U+115F, U+1160, U+3164, U+FFA0) that draw nothing. Removed from names, drawn or echoed.
#[must_use]
pub fn is_invisible_format(c: char) -> bool {
    matches!(c as u32,
        0x00AD | 0x061C | 0x115F..=0x1160 | 0x180E | 0x200B | 0x200E..=0x200F | 0x2028..=0x202E
        | 0x2060..=0x206F | 0x3164 | 0xFEFF | 0xFFA0 | 0xFFF9..=0xFFFB)
}

/// Cut `s` to `max` characters.
#[must_use]
pub fn bound(s: &str, max: usize) -> String {
    s.chars().take(max).collect()
}

/// A display name safe to echo and draw: no control, zero-width or invisible format characters
/// (the renderer's list: bidi marks, word joiner and invisible operators, Hangul fillers),
/// trimmed, bounded.
#[must_use]
pub fn clean_name(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .filter(|&c| {
            !c.is_control() && !is_invisible_format(c) && !matches!(c, '\u{200b}'..='\u{200f}')
        })
        .take(MAX_NAME)
        .collect();
    let t = cleaned.trim();
    if t.is_empty() {
        "?".into()
    } else {
        t.to_string()
    }
}

/// How a game stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum GameStatus {
    /// Being played.
    Active,
    /// Over (stored as `red_wins`/`black_wins`/`draw` and one word for the reason).
    Finished {
        /// The result.
        #[serde(with = "names::outcome")]
        result: Outcome,
        /// Why.
        reason: EndReason,
    },
    /// Ended without a result: aborted before both players moved, or ended by the waiting
    /// player of an untimed game whose opponent stopped moving.
    Aborted,
}

/// A stored game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Schema version.
    pub v: u32,
    /// Game id.
    pub id: u64,
    /// The channel it is played in.
    pub channel: ChannelKey,
    /// Red player.
    pub red: PlayerRef,
    /// Black player.
    pub black: PlayerRef,
    /// The ruleset (stored by name: `official`, ...).
    #[serde(with = "names::ruleset")]
    pub ruleset: RulesetName,
    /// A set-up start, if not the initial position.
    pub start_fen: Option<String>,
    /// Every move, in ICCS.
    pub moves: Vec<String>,
    /// The time control.
    pub time_control: TimeControl,
    /// The clocks (none without a time control).
    pub clock: Option<ClockState>,
    /// Active, finished or aborted.
    pub status: GameStatus,
    /// A standing draw offer, by the side that made it (stored as `red`/`black`).
    #[serde(with = "names::side")]
    pub draw_offer: Option<Color>,
    /// A standing takeback request, by the side that asked (stored as `red`/`black`).
    #[serde(with = "names::side")]
    pub takeback_request: Option<Color>,
    /// The last move refused by the arbiter (ICCS), for `/why`.
    pub last_refusal: Option<String>,
    /// Whether takebacks may be asked for (from the channel's setting at the start).
    pub takebacks: bool,
    /// Creation time (epoch ms).
    pub created_ms: u64,
    /// Last change (epoch ms).
    pub updated_ms: u64,
    /// Whether both players agreed to a rated game (the challenge said so and was accepted).
    #[serde(default)]
    pub rated: bool,
    /// The server or group the game is played in, as a leaderboard scope (`dc:g:123`,
    /// `tg:-100123`), if any.
    #[serde(default)]
    pub community: Option<String>,
    /// The language the game is played in (`vi`, `en`, `zh`), fixed at its start: the
    /// channel's `/lang`, else the challenger's. `None` in records from before it was kept.
    #[serde(default)]
    pub lang: Option<String>,
    /// Untimed games: how long the side to move may stay away before the other side may
    /// `/claim` the game (fixed at the start from the service's setting); `None` for games
    /// with a clock, which end when a flag falls.
    #[serde(default)]
    pub idle_after_ms: Option<u64>,
    /// When the side to move got the move (the start, the last move or takeback), for
    /// `idle_after_ms`. Moved forward like the clocks when the bot was down.
    #[serde(default)]
    pub turn_since_ms: Option<u64>,
    /// Games against the bot: what the bot has seen so far (its resign and draw decisions
    /// rest on it), stored with each of its moves so a restart does not forget it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_memory: Option<BotMemory>,
    /// Whether the players may ask for engine hints (games between people): the channel's
    /// `/hints` at the start, fixed for the game so that a later change (by an administrator)
    /// never hands one player hints the other did not agree to. `None` in records from before
    /// it was kept: those follow the channel's setting.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hints: Option<bool>,
    /// The tournament it was paired in, if any (its result counts there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<u64>,
    /// How long each side has to make its first move before losing the game by default
    /// (tournament games: a player who does not come does not hold the event up).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_move_ms: Option<u64>,
    /// A tournament game's own venue (a Discord thread, a Telegram forum topic), once its
    /// adapter opened it and reported it: the game stays in `channel`'s record, and what it
    /// says goes there. `None`: played in `channel` itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub venue: Option<ChannelKey>,
}

/// One of the bot's evaluations, from its own side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StoredEval {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: the bot is mated).
    Mate(i32),
}

/// The bot's memory of one game, as stored with it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotMemory {
    /// Its evaluation when it chose each of its moves.
    #[serde(default)]
    pub evals: Vec<StoredEval>,
    /// The ply at which it last offered a draw.
    #[serde(default)]
    pub last_offer_ply: Option<u64>,
}

/// Which colour the challenger wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ColorChoice {
    /// Red (moves first).
    Red,
    /// Black.
    Black,
    /// Decided at acceptance.
    Random,
}

/// An open or addressed challenge waiting in a channel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Challenge {
    /// Its id (unique; the game it starts gets the next game number instead).
    pub id: u64,
    /// Who challenged.
    pub challenger: PlayerRef,
    /// Who is challenged (`None`: anyone may accept).
    pub opponent: Option<PlayerRef>,
    /// Time control.
    pub time_control: TimeControl,
    /// The ruleset (stored by name).
    #[serde(with = "names::ruleset")]
    pub ruleset: RulesetName,
    /// The challenger's colour.
    pub color: ColorChoice,
    /// A set-up start position (FEN), if not the initial one.
    #[serde(default)]
    pub start_fen: Option<String>,
    /// When it lapses (epoch ms).
    pub expires_ms: u64,
    /// Whether the challenger asks for a rated game (accepting it is the opponent's
    /// agreement).
    #[serde(default)]
    pub rated: bool,
    /// The language it was made in (the channel's, else the challenger's); the game keeps it.
    #[serde(default)]
    pub lang: Option<String>,
}

impl ChannelRecord {
    /// Every challenge waiting here (lapsed ones included, until their deadline removes them).
    pub fn challenges(&self) -> impl Iterator<Item = &Challenge> {
        self.challenge.iter().chain(self.other_challenges.iter())
    }

    /// The hint being searched for in game `game`, if one is.
    #[must_use]
    pub fn hint_for(&self, game: u64) -> Option<&super::analysis::HintAsk> {
        self.hint
            .iter()
            .chain(self.other_hints.iter())
            .find(|h| h.game == game)
    }

    /// Keep `ask` as the hint searched for in its game (replacing one asked there before).
    pub fn put_hint(&mut self, ask: super::analysis::HintAsk) {
        self.drop_hint(ask.game);
        if self.hint.is_none() {
            self.hint = Some(ask);
        } else {
            self.other_hints.push(ask);
        }
    }

    /// Forget the hint searched for in game `game`.
    pub fn drop_hint(&mut self, game: u64) {
        if self.hint.as_ref().is_some_and(|h| h.game == game) {
            self.hint = None;
        }
        self.other_hints.retain(|h| h.game != game);
        if self.hint.is_none() && !self.other_hints.is_empty() {
            self.hint = Some(self.other_hints.remove(0));
        }
    }

    /// [`ChannelRecord::challenges`], to change.
    pub fn challenges_mut(&mut self) -> impl Iterator<Item = &mut Challenge> {
        self.challenge
            .iter_mut()
            .chain(self.other_challenges.iter_mut())
    }
}

impl Challenge {
    /// The deadline at which this challenge, waiting in `channel`, lapses.
    #[must_use]
    pub fn expiry(&self, channel: &ChannelKey) -> Deadline {
        Deadline {
            at_ms: self.expires_ms,
            id: self.id,
            kind: DeadlineKind::ChallengeExpiry,
            channel: channel.clone(),
        }
    }
}

/// Per-channel settings.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChannelSettings {
    /// Language code, if set with `/lang`.
    pub lang: Option<String>,
    /// Ruleset for new games, if set with `/ruleset`.
    pub ruleset: Option<String>,
    /// Whether `/takeback` is allowed.
    pub takebacks: bool,
    /// Whether `/hint` is allowed in games between people (`/hints`; always in games against
    /// the bot, never in rated games).
    #[serde(default)]
    pub hints: bool,
    /// The daily puzzle (`/puzzle daily`); none: no daily puzzle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub puzzle_daily: Option<super::puzzle::DailyPuzzle>,
}

/// A stored channel.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChannelRecord {
    /// Schema version.
    pub v: u32,
    /// Settings.
    pub settings: ChannelSettings,
    /// A game being played here: the one the command being run acts on while it runs (see
    /// [`super::ChannelSlot::select`]); stored, any of them.
    pub active_game: Option<u64>,
    /// The other games being played here at the same time (several pairs in one group); a
    /// player is in at most one of them and of `active_game`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_games: Vec<u64>,
    /// The most recent game (for `/pgn`, `/why` after the end).
    pub last_game: Option<u64>,
    /// A pending challenge: the one the command being run acts on while it runs (see
    /// [`super::ChannelSlot::select_challenge`]); stored, any of them.
    pub challenge: Option<Challenge>,
    /// The other challenges waiting here at the same time (several people may challenge in
    /// one group; each challenger has one waiting at a time).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_challenges: Vec<Challenge>,
    /// The chat's tournament: the one being held, or the last one (its final table), until
    /// another is made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<super::tournament::Tournament>,
    /// One-time questions and move pickers shown here whose buttons still apply (removed,
    /// and their buttons taken away, once they no longer do).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub menus: Vec<ShownMenu>,
    /// A hint being searched for here (see [`super::analysis`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<super::analysis::HintAsk>,
    /// Hints being searched for in the chat's other games (one per game), beside `hint`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_hints: Vec<super::analysis::HintAsk>,
    /// The puzzle being solved here (`/puzzle`), apart from the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub puzzle: Option<super::puzzle::LivePuzzle>,
    /// Ids of the puzzles shown here lately, newest last (at most
    /// [`super::puzzle::RECENT_PUZZLES`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub recent_puzzles: Vec<String>,
    /// This channel is a venue opened for a game of the tournament held in that chat: what
    /// is typed here is decided under that chat's lock, and its replies come back here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub venue_of: Option<ChannelKey>,
}

/// A one-time question (a challenge, an offer, a confirmation) or a move picker, as a
/// platform showed it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShownMenu {
    /// The encoded action of its first button (`xq:A:12`): what it asks.
    pub action: String,
    /// The user it was shown for.
    pub user: UserKey,
    /// The adapter's reference to the message (an opaque string, never shown to anyone).
    pub at: String,
}

/// Per-user preferences.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserPrefs {
    /// Schema version.
    pub v: u32,
    /// Preferred notation (`iccs`, `wxf`, `chinese`, `vietnamese`).
    pub notation: Option<String>,
    /// Under a handle's key (`tg:@bob`): the display name of the user last seen with that
    /// handle, so a challenge to `@bob` names them as they call themselves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// What a stored deadline is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DeadlineKind {
    /// The side to move runs out of time.
    Flag = 0,
    /// The side to move has 10% of its time left.
    Warn = 1,
    /// A challenge lapses.
    ChallengeExpiry = 2,
    /// Untimed game: the side to move is told that the game can soon be claimed.
    IdleWarn = 3,
    /// Untimed game: the side waiting may now claim it.
    IdleClaim = 4,
    /// The channel's daily puzzle is due (the id is 0).
    PuzzleDaily = 5,
    /// A tournament's start time (the id is the tournament's).
    TournamentStart = 6,
    /// An arena's time is up (the id is the tournament's).
    TournamentEnd = 7,
    /// A tournament's next round is due (rounds every so many minutes).
    TournamentRound = 8,
    /// The side to move has not made its first move in time (the id is the game's).
    FirstMove = 9,
}

impl DeadlineKind {
    /// The kind stored as `code` (its discriminant); none for a code this version does not
    /// know. Storages keep kinds as these numbers.
    #[must_use]
    pub fn from_code(code: u8) -> Option<DeadlineKind> {
        Some(match code {
            0 => DeadlineKind::Flag,
            1 => DeadlineKind::Warn,
            2 => DeadlineKind::ChallengeExpiry,
            3 => DeadlineKind::IdleWarn,
            4 => DeadlineKind::IdleClaim,
            5 => DeadlineKind::PuzzleDaily,
            6 => DeadlineKind::TournamentStart,
            7 => DeadlineKind::TournamentEnd,
            8 => DeadlineKind::TournamentRound,
            9 => DeadlineKind::FirstMove,
            _ => return None,
        })
    }
}

/// A stored deadline: at `at_ms`, look at game (or challenge) `id` in `channel`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Deadline {
    /// When (epoch ms).
    pub at_ms: u64,
    /// Game or challenge id.
    pub id: u64,
    /// What for.
    pub kind: DeadlineKind,
    /// The channel to look in.
    pub channel: ChannelKey,
}

impl GameRecord {
    /// The game's end as the ratings see it; `None` while it is being played.
    #[must_use]
    pub fn ending(&self) -> Option<crate::rating::Ending> {
        use crate::rating::{Ending, Score, Side};
        let red_score = match &self.status {
            GameStatus::Active => return None,
            GameStatus::Aborted => None,
            GameStatus::Finished { result, .. } => Some(match result {
                Outcome::RedWins => Score::Win,
                Outcome::BlackWins => Score::Loss,
                Outcome::Draw => Score::Draw,
            }),
        };
        let reason = match &self.status {
            GameStatus::Finished { reason, .. } => reason.as_str(),
            _ => "aborted",
        }
        .to_string();
        let side = |p: &PlayerRef| Side {
            id: p.id.to_string(),
            name: p.name.clone(),
        };
        Some(Ending {
            game: self.id,
            red: side(&self.red),
            black: side(&self.black),
            red_score,
            reason,
            plies: self.moves.len(),
            ended_ms: self.updated_ms,
            rated: self.rated,
            pace: self.time_control.pace(),
            ruleset: self.ruleset.as_str().to_string(),
            set_up: self.start_fen.is_some(),
            community: self.community.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_characters_are_taken_out_of_names() {
        // Word joiner and invisible operators, the Arabic letter mark, a Hangul filler.
        let name = "\u{2060}A\u{2061}\u{2062}n\u{2063}\u{2064}\u{061C} \u{3164}Bo\u{3164}";
        assert_eq!(clean_name(name), "An Bo");
    }

    #[test]
    fn a_name_of_only_fillers_is_no_name() {
        assert_eq!(clean_name("\u{3164}\u{3164}\u{2060}\u{061C}"), "?");
        assert_eq!(PlayerRef::new("tg:1", "\u{3164}").name, "?");
    }
}
