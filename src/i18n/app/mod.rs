//! The chat service's messages, in Vietnamese, English and Chinese.
//!
//! Every reply the service sends is a [`Msg`]: a key with its parameters (already formatted
//! names, moves and clocks). Each language is a `match` in its own file, so a missing message
//! is a compile error and a test walks them all.

mod en;
mod vi;
mod zh;

use super::Lang;

/// A message the service sends, with its parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Msg {
    /// The command list: `commands` is one line per command (its name and its menu
    /// summary, from the command table), between this message's opening and closing words.
    Help {
        /// The lines, in the table's order.
        commands: String,
        /// The bot's top level (its levels are 1 to it).
        top: u8,
    },
    /// `/help` for an unknown command.
    UnknownCommand {
        /// What was typed (bounded).
        cmd: String,
    },
    /// A message longer than the service reads.
    TooLong {
        /// The limit in characters.
        max: usize,
    },
    /// Too many commands in a short time.
    RateLimited {
        /// Seconds to wait.
        secs: u64,
    },
    /// Storage failed; nothing was changed.
    StorageFailure,
    /// No game in this channel.
    NoGame,
    /// The user does not play in this channel's game.
    NotYourGame {
        /// Red's name.
        red: String,
        /// Black's name.
        black: String,
    },
    /// It is the other player's turn.
    NotYourTurn {
        /// Whose turn.
        player: String,
    },
    /// A game is already being played here.
    GameInProgress {
        /// Red's name.
        red: String,
        /// Black's name.
        black: String,
    },
    /// A challenge is already waiting here.
    ChallengePending {
        /// Who challenged.
        challenger: String,
    },
    /// You cannot challenge yourself.
    ChallengeSelf,
    /// A challenge was made.
    ChallengeCreated {
        /// Who challenged.
        challenger: String,
        /// Who is challenged (`None`: open to anyone).
        opponent: Option<String>,
        /// The time control as a phrase ([`time_control_text`]).
        time_control: String,
        /// Ruleset name, localised.
        ruleset: String,
        /// `red`, `black` or `random`.
        color: String,
        /// Minutes until it lapses.
        minutes: u64,
    },
    /// `/play` arguments not understood.
    BadPlayArgument {
        /// The word.
        word: String,
    },
    /// No challenge to accept or decline.
    NoChallenge,
    /// The challenge is for someone else.
    ChallengeNotForYou {
        /// Who it is for.
        opponent: String,
    },
    /// You cannot accept your own challenge.
    OwnChallenge,
    /// Only the challenger can cancel.
    NotYourChallenge,
    /// Declined.
    ChallengeDeclined {
        /// By whom.
        by: String,
    },
    /// Cancelled.
    ChallengeCancelled,
    /// Lapsed.
    ChallengeExpired {
        /// Who had challenged.
        challenger: String,
    },
    /// A game began.
    GameStarted {
        /// Red's name.
        red: String,
        /// Black's name.
        black: String,
        /// The time control as a phrase ([`time_control_text`]).
        time_control: String,
        /// Ruleset name, localised.
        ruleset: String,
        /// Game number.
        id: u64,
    },
    /// A move was played.
    Moved {
        /// Ply number (from 1).
        ply: usize,
        /// The mover's name.
        player: String,
        /// The move in the reader's notation.
        text: String,
        /// The move in ICCS.
        iccs: String,
    },
    /// Whose turn it is now.
    ToMove {
        /// Name.
        player: String,
        /// `red` or `black`.
        color: String,
    },
    /// The side to move is in check.
    Check {
        /// Its player.
        player: String,
    },
    /// Clocks line.
    Clocks {
        /// Red's clock.
        red: String,
        /// Black's clock.
        black: String,
    },
    /// The game has no clock.
    NoClock,
    /// The game ended.
    GameOver {
        /// `1-0`, `0-1`, `1/2-1/2`.
        score: String,
        /// Headline, e.g. "Red wins by resignation".
        headline: String,
    },
    /// A headline for an ending that is not the arbiter's: resignation, agreement, time.
    Resigned {
        /// Who resigned.
        player: String,
    },
    /// Draw agreed.
    DrawAgreed,
    /// A flag fell.
    TimeForfeit {
        /// Who ran out.
        player: String,
    },
    /// 10% of a player's time is left.
    TimeWarning {
        /// Whose.
        player: String,
        /// Time left.
        left: String,
    },
    /// A draw was offered.
    DrawOffered {
        /// By whom.
        by: String,
        /// To whom.
        to: String,
    },
    /// You already offered a draw.
    DrawAlreadyOffered,
    /// A draw offer was declined.
    DrawDeclined {
        /// By whom.
        by: String,
    },
    /// There is no offer to answer.
    NoDrawOffer,
    /// The offerer tried to answer (decline) their own draw offer.
    OwnDrawOffer {
        /// Who must answer it.
        to: String,
    },
    /// The asker tried to answer their own takeback request.
    OwnTakeback {
        /// Who must answer it.
        to: String,
    },
    /// Untimed game: the side to move is told the game can soon be claimed.
    IdleWarning {
        /// The player to move.
        absent: String,
        /// Their opponent.
        waiting: String,
        /// How long they have not moved.
        idle: String,
        /// How long until the game can be claimed.
        left: String,
    },
    /// Untimed game: the waiting player may now claim it.
    IdleClaimable {
        /// The player to move.
        absent: String,
        /// Their opponent.
        waiting: String,
        /// How long the player to move has not moved.
        idle: String,
    },
    /// A headline's reason: the game was claimed from a player who stopped moving.
    Abandoned {
        /// Who stopped moving.
        player: String,
    },
    /// `/claim` before the time is up.
    ClaimTooEarly {
        /// The player to move.
        absent: String,
        /// Time left before a claim.
        left: String,
    },
    /// `/claim` by the player to move.
    ClaimOwnMove,
    /// `/claim` in a game with a clock.
    ClaimTimed,
    /// `/claim end`: the game ended without a result.
    ClaimEnded {
        /// Who ended it.
        by: String,
        /// Who had stopped moving.
        absent: String,
    },
    /// `/claim` with an argument not understood.
    BadClaim {
        /// The word.
        word: String,
    },
    /// The no-progress claim is not yet possible.
    DrawClaimTooEarly {
        /// Plies counted.
        counted: u32,
        /// Needed.
        needed: u32,
    },
    /// Takebacks are off in this channel.
    TakebacksDisabled,
    /// A takeback was asked for.
    TakebackRequested {
        /// By whom.
        by: String,
        /// Who must agree.
        to: String,
    },
    /// A takeback was made.
    TakebackDone {
        /// Plies taken back.
        plies: usize,
    },
    /// A takeback was declined.
    TakebackDeclined {
        /// By whom.
        by: String,
    },
    /// Nothing to take back, or no request to answer.
    NothingToTakeBack,
    /// The game was aborted.
    Aborted,
    /// Too late to abort.
    AbortTooLate,
    /// The game is over already.
    GameIsOver,
    /// Caption under a board picture.
    BoardCaption {
        /// Red's name.
        red: String,
        /// Black's name.
        black: String,
        /// Ply count.
        ply: usize,
    },
    /// Legal moves list.
    LegalMoves {
        /// Count.
        count: usize,
        /// The moves.
        list: String,
    },
    /// Nothing to explain for `/why`.
    NothingToExplain,
    /// Channel ruleset shown.
    RulesetIs {
        /// Its name, localised.
        name: String,
        /// What to type for it (`asian`).
        code: String,
    },
    /// Channel ruleset changed.
    RulesetSet {
        /// Its name, localised.
        name: String,
        /// Whether a game is running (it keeps its own ruleset).
        game_running: bool,
    },
    /// Unknown ruleset.
    UnknownRuleset {
        /// What was typed.
        name: String,
    },
    /// User notation shown.
    NotationIs {
        /// Name.
        name: String,
        /// An example move.
        example: String,
    },
    /// Unknown notation.
    UnknownNotation {
        /// What was typed.
        name: String,
    },
    /// Channel language shown or set.
    LangIs,
    /// Unknown language.
    UnknownLang {
        /// What was typed.
        name: String,
    },
    /// Takebacks switched on or off for the channel.
    TakebacksSet {
        /// On or off.
        on: bool,
    },
    /// The user's games.
    GamesList {
        /// One line per game.
        lines: Vec<String>,
    },
    /// One game of `/games`, as its player reads it.
    GameLine {
        /// Game number.
        id: u64,
        /// The opponent's name.
        opponent: String,
        /// The side the reader plays.
        side: crate::core::Color,
        /// Plies played.
        plies: usize,
        /// Where it stands, for the reader.
        state: GameState,
        /// Whether it is played in the channel the list is asked in.
        here: bool,
    },
    /// The user has no games.
    NoGames,
    /// A button press for an earlier position.
    StaleButton,
    /// Only players can press this.
    NotYourButton,
    /// A button the platform could only show to everyone, meant for one other user (a
    /// confirmation asked of someone else).
    ButtonForSomeoneElse,
    /// Move picker: choose a piece.
    PickPiece {
        /// Whose picker it is.
        player: String,
    },
    /// Move picker: choose a target for the piece on `from`.
    PickTarget {
        /// Whose picker it is.
        player: String,
        /// The piece's point and name.
        piece: String,
    },
    /// Confirm resignation.
    ConfirmResign,
    /// Button labels.
    Label(Label),
    /// PGN caption.
    PgnCaption,
    /// GIF caption.
    GifCaption {
        /// Plies.
        plies: usize,
    },
    /// The text a user sent could be a move but is not one.
    NotAMove {
        /// The notation error, already localised.
        detail: String,
    },
    /// The bot's name in a game.
    BotName {
        /// Its level (1 to the engine's top level).
        level: u8,
    },
    /// `/play bot` with a level out of range.
    BadBotLevel {
        /// What was typed.
        text: String,
        /// The top level (levels are 1 to it).
        top: u8,
    },
    /// A new game's line on the bot's strength: its level and estimated rating.
    BotStrength {
        /// Its level.
        level: u8,
        /// The top level.
        top: u8,
        /// Its estimated rating on the players' scale (`crate::engine::level_rating`).
        rating: u16,
    },
    /// The bot cannot be played here (no engine).
    BotUnavailable,
    /// `/play bot` by someone already playing the bot in as many games as one may at once.
    TooManyBotGames {
        /// Games against the bot one may play at once.
        max: usize,
    },
    /// A chat's send queue was full: some answers (to commands that changed nothing) were
    /// not sent.
    QueueFull,
    /// Several games are being played here and the asker plays in none: which one to show
    /// (`/board 12`).
    WhichGame {
        /// One line per game: `#12: An – Bo`.
        games: String,
    },
    /// What names a game on its boards when several are played in one chat.
    GameLabel {
        /// The game's number.
        id: u64,
    },
    /// A player is already in another game in this chat (one game at a time per player).
    PlayerBusy {
        /// The player's name.
        name: String,
        /// The game they play.
        id: u64,
    },
    /// `/about`.
    About {
        /// The bot's version.
        version: String,
        /// The rule documents, one per line, in the reader's language.
        documents: String,
        /// Where the source is, when the build says.
        source: Option<String>,
    },
    /// Someone who may not change the chat's settings tried to (said privately).
    AdminsOnly {
        /// A Discord channel (members with Manage Channels) rather than a Telegram group
        /// (its administrators).
        discord: bool,
        /// Discord tells who may manage a channel only with a slash command: the one to use,
        /// when a typed command could not be checked.
        slash: Option<String>,
    },
    /// A time control could not be read.
    BadTimeControl {
        /// What was typed.
        text: String,
    },
    /// A set-up start position that cannot be played.
    BadStart {
        /// Why, already localised (or empty when the position is already over).
        detail: String,
    },
    /// A warning from the arbiter, already localised.
    Raw(String),
}

/// Button labels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    /// Accept a challenge.
    Accept,
    /// Decline a challenge.
    Decline,
    /// Resign (asks to confirm).
    Resign,
    /// Confirm resignation.
    ConfirmResign,
    /// Keep playing.
    KeepPlaying,
    /// Offer or accept a draw.
    Draw,
    /// Accept a draw offer.
    AcceptDraw,
    /// Decline an offer.
    DeclineOffer,
    /// Accept a takeback.
    AcceptTakeback,
    /// Flip the board.
    Flip,
    /// Open the game on the web board (a Telegram Mini App, or a private link).
    WebBoard,
    /// Open the move picker.
    PickMove,
    /// Go back in the picker.
    Back,
    /// Play the same opponent again (under a finished game).
    Rematch,
    /// Start a game against the bot (under `/help` and a finished game).
    PlayBot,
}

impl Label {
    /// Every label.
    pub const ALL: [Label; 15] = [
        Label::Accept,
        Label::Decline,
        Label::Resign,
        Label::ConfirmResign,
        Label::KeepPlaying,
        Label::Draw,
        Label::AcceptDraw,
        Label::DeclineOffer,
        Label::AcceptTakeback,
        Label::Flip,
        Label::WebBoard,
        Label::PickMove,
        Label::Back,
        Label::Rematch,
        Label::PlayBot,
    ];
}

/// Where a game of `/games` stands, for the player who asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameState {
    /// Not over yet.
    Playing,
    /// Called off before it counted.
    Aborted,
    /// The reader won.
    Won,
    /// The reader lost.
    Lost,
    /// A draw.
    Drawn,
}

/// The message in `lang`.
#[must_use]
pub fn text(msg: &Msg, lang: Lang) -> String {
    match lang {
        Lang::En => en::text(msg),
        Lang::Vi => vi::text(msg),
        Lang::Zh => zh::text(msg),
    }
}

/// A time control as a phrase of a challenge or a game's first line: `time 10m+5s` as
/// written, and no clock in words (`không giới hạn thời gian`, `不限时`: never "time: untimed").
#[must_use]
pub fn time_control_text(tc: crate::game::TimeControl, lang: Lang) -> String {
    match (tc, lang) {
        (crate::game::TimeControl::None, Lang::En) => "time none".into(),
        (crate::game::TimeControl::None, Lang::Vi) => "không giới hạn thời gian".into(),
        (crate::game::TimeControl::None, Lang::Zh) => "不限时".into(),
        (tc, Lang::En) => format!("time {tc}"),
        (tc, Lang::Vi) => format!("thời gian {tc}"),
        (tc, Lang::Zh) => format!("用时{tc}"),
    }
}

/// A span of time as players read it: `6 h`, `5 h 30 min`, `45 min`, `30 s` (in `lang`).
#[must_use]
pub fn duration_text(ms: u64, lang: Lang) -> String {
    let secs = ms.div_ceil(1000);
    let (h, m) = (secs / 3600, secs / 60 % 60);
    let (hu, mu, su, sep) = match lang {
        Lang::En => (" h", " min", " s", " "),
        Lang::Vi => (" giờ", " phút", " giây", " "),
        Lang::Zh => ("小时", "分钟", "秒", ""),
    };
    match (h, m) {
        (0, 0) => format!("{secs}{su}"),
        (0, m) => format!("{m}{mu}"),
        (h, 0) => format!("{h}{hu}"),
        (h, m) => format!("{h}{hu}{sep}{m}{mu}"),
    }
}

/// A notation's name in `lang`.
#[must_use]
pub fn notation_title(n: crate::notation::Notation, lang: Lang) -> &'static str {
    use crate::notation::Notation;
    match (lang, n) {
        (_, Notation::Iccs) => "ICCS",
        (_, Notation::Wxf) => "WXF",
        (Lang::En, Notation::Chinese) => "Chinese",
        (Lang::En, Notation::Vietnamese) => "Vietnamese",
        (Lang::Vi, Notation::Chinese) => "Trung Quốc",
        (Lang::Vi, Notation::Vietnamese) => "Việt Nam",
        (Lang::Zh, Notation::Chinese) => "中文",
        (Lang::Zh, Notation::Vietnamese) => "越南",
    }
}

/// A colour's name in `lang` for message parameters.
#[must_use]
pub fn color_word(color: &str, lang: Lang) -> &'static str {
    match (lang, color) {
        (Lang::En, "red") => "Red",
        (Lang::En, "black") => "Black",
        (Lang::En, _) => "random",
        (Lang::Vi, "red") => "Đỏ",
        (Lang::Vi, "black") => "Đen",
        (Lang::Vi, _) => "ngẫu nhiên",
        (Lang::Zh, "red") => "红方",
        (Lang::Zh, "black") => "黑方",
        (Lang::Zh, _) => "随机",
    }
}

#[cfg(test)]
mod tests;
