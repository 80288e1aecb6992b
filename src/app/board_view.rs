//! What the web board shows of a game, read from its stored record: the position, the players,
//! the clocks, the last move, check, the moves a player may try and, once it is over, its
//! headline as the chat gives it. The page draws this; every move it sends goes through the
//! service like a typed one ([`Service::web_move`]), which decides.

use serde::Serialize;

use super::chat::{Incoming, Reply};
use super::links::Access;
use super::outbox::Origin;
use super::Service;
use crate::core::Color;
use crate::game::{Game, GameRecord, GameStatus, PlayerRef};
use crate::i18n::web::{labels, WebMsg};
use crate::i18n::Lang;
use crate::platform::UserKey;

/// The board as the page draws it (serialised as JSON).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct BoardView {
    /// The game's id.
    pub game: u64,
    /// Red's name.
    pub red: String,
    /// Black's name.
    pub black: String,
    /// The position now, as FEN.
    pub fen: String,
    /// The moves played, in ICCS (`h2e2`).
    pub moves: Vec<String>,
    /// The side to move: `red` or `black`.
    pub to_move: &'static str,
    /// Whether the side to move is in check.
    pub check: bool,
    /// The headline once the game is over (`1-0 · Red wins: checkmate`).
    pub over: Option<String>,
    /// The side of the one who reads it, if they play in it.
    pub you: Option<&'static str>,
    /// The moves they may try now (ICCS), when it is their move; the service still rules on
    /// each one (a repetition the rules forbid is refused with its explanation).
    pub legal: Vec<String>,
    /// The clocks, if the game has one.
    pub clock: Option<ClockView>,
    /// Once the game is over: every position, to step through, and its review if one was made.
    pub replay: Option<Replay>,
    /// The side that offers a draw, if one does.
    pub draw_offer: Option<&'static str>,
    /// The side that asks to take a move back, if one does.
    pub takeback: Option<&'static str>,
    /// The page's language (`vi`, `en`, `zh`).
    pub lang: &'static str,
    /// Its words, in that language.
    pub labels: Vec<(&'static str, String)>,
    /// Changes whenever the game does (a move, an offer, the end): the page's cue to redraw.
    pub version: String,
}

/// A finished game to step through.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Replay {
    /// The position before the first move, then after each (FEN).
    pub fens: Vec<String>,
    /// The review's evaluation of each position from Red's side (`+0.35`, `#-3`), when the
    /// game was reviewed (`/review`).
    pub evals: Vec<String>,
    /// Each move's mark in the review: `?!` an inaccuracy, `?` a mistake, `??` a blunder;
    /// empty when none.
    pub marks: Vec<String>,
}

/// Both clocks, as of when the view was made.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ClockView {
    /// Red's time left (milliseconds).
    pub red_ms: u64,
    /// Black's.
    pub black_ms: u64,
    /// Whose clock runs (`red`/`black`), none once the game is over.
    pub running: Option<&'static str>,
}

fn side(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
}

/// The game's language, as its record keeps it.
fn record_lang(r: &GameRecord) -> Lang {
    r.lang
        .as_deref()
        .and_then(Lang::from_tag)
        .unwrap_or_default()
}

/// The view of `game` for `reader` (a player, or nobody: a spectator) at `now_ms`.
#[must_use]
pub fn view(
    game: &Game,
    reader: Option<&UserKey>,
    review: Option<crate::game::ReviewData>,
    now_ms: u64,
) -> BoardView {
    let r = &game.record;
    let lang = record_lang(r);
    let pos = game.position();
    let you = reader.and_then(|u| game.color_of(u));
    let to_move = game.to_move();
    let active = r.status == GameStatus::Active;
    let legal = if active && you == Some(to_move) {
        pos.legal_moves().iter().map(ToString::to_string).collect()
    } else {
        Vec::new()
    };
    let over = match &r.status {
        GameStatus::Active => None,
        GameStatus::Finished { .. } => {
            let (score, headline) = super::ctx::headline(game, lang);
            Some(format!("{score} · {headline}"))
        }
        GameStatus::Aborted => Some(crate::i18n::web::text(&WebMsg::Aborted, lang)),
    };
    let clock = r.clock.map(|c| {
        let spent = now_ms.saturating_sub(c.turn_started_ms);
        let left = |clock: u64, c: Color| {
            if active && c == to_move {
                clock.saturating_sub(spent)
            } else {
                clock
            }
        };
        ClockView {
            red_ms: left(c.red.remaining_ms, Color::Red),
            black_ms: left(c.black.remaining_ms, Color::Black),
            running: active.then_some(side(to_move)),
        }
    });
    BoardView {
        game: r.id,
        red: r.red.name.clone(),
        black: r.black.name.clone(),
        fen: pos.to_fen(),
        moves: r.moves.clone(),
        to_move: side(to_move),
        check: active && pos.is_check(),
        over,
        you: you.map(side),
        legal,
        clock,
        replay: (!active).then(|| replay(game, review.as_ref())),
        draw_offer: r.draw_offer.filter(|_| active).map(side),
        takeback: r.takeback_request.filter(|_| active).map(side),
        lang: lang.code(),
        labels: labels(lang),
        version: version_of(r),
    }
}

/// The positions of `game` one after another, with `review`'s evaluations and marks.
fn replay(game: &Game, review: Option<&crate::game::ReviewData>) -> Replay {
    use crate::engine::Judgement;
    // The arbiter keeps every position it replayed.
    let fens = (0..=game.arbiter.plies().len())
        .filter_map(|i| game.arbiter.position_before(i))
        .map(crate::core::Position::to_fen)
        .collect();
    let glyph = |kind: &str| {
        [
            Judgement::Inaccuracy,
            Judgement::Mistake,
            Judgement::Blunder,
        ]
        .into_iter()
        .find(|j| j.as_str() == kind)
        .map_or("", Judgement::glyph)
    };
    let (evals, marks) = match review {
        Some(r) => (
            r.evals.clone(),
            r.plies
                .iter()
                .map(|p| {
                    p.judgement
                        .as_ref()
                        .map_or("", |(kind, _)| glyph(kind))
                        .to_string()
                })
                .collect(),
        ),
        None => (Vec::new(), Vec::new()),
    };
    Replay { fens, evals, marks }
}

/// What changes whenever the game does (a move, a takeback, an offer, the end).
#[must_use]
pub fn version_of(r: &GameRecord) -> String {
    format!(
        "{}.{}.{:?}.{:?}",
        r.moves.len(),
        r.updated_ms,
        r.draw_offer,
        r.status
    )
}

/// What a move sent from the web board gave.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct WebMoveAnswer {
    /// Whether the game changed: a move, an offer, the end (what it says then goes to the chat,
    /// as after the same text typed there).
    pub played: bool,
    /// What the service answered the player, when it refused (the chat's own words).
    pub said: Vec<String>,
}

impl Service {
    /// `text` (a move in any notation the chat reads) from `user`, in game `game`, sent from
    /// the web board: handled as if typed in the game's chat, through the same rate limit,
    /// arbiter and outbox. A game that is over, or not this player's, is refused here with the
    /// page's words, so a move can never reach another game of the chat.
    pub async fn web_move(&self, game: u64, user: &UserKey, text: &str) -> WebMoveAnswer {
        let refused = |m: WebMsg, lang| WebMoveAnswer {
            played: false,
            said: vec![crate::i18n::web::text(&m, lang)],
        };
        let record = match self.storage().game(game) {
            Ok(Some(r)) => r,
            Ok(None) => return refused(WebMsg::NoSuchGame, Lang::default()),
            Err(e) => {
                tracing::warn!(error = %e, game, "web: cannot read a game");
                return refused(WebMsg::TryAgain, Lang::default());
            }
        };
        let lang = record_lang(&record);
        let me: Option<PlayerRef> = [&record.red, &record.black]
            .into_iter()
            .find(|p| p.id == *user)
            .cloned();
        let Some(me) = me else {
            return refused(WebMsg::NotYourGame, lang);
        };
        if record.status != GameStatus::Active {
            return refused(WebMsg::GameOver, lang);
        }
        // A move, or what a player does in their game; the rest of the chat's commands are
        // for the chat.
        use super::command::{parse_line, Cmd, Line};
        let allowed = match parse_line(text) {
            Line::Text(_) => true,
            Line::Command(cmd, _) => matches!(
                cmd,
                Cmd::Move | Cmd::Resign | Cmd::Draw | Cmd::Takeback | Cmd::Accept | Cmd::Decline
            ),
            Line::Unknown(_) => false,
        };
        if !allowed {
            return refused(WebMsg::OnlyMoves, lang);
        }
        // The player's game in that chat must be this one: a typed move goes to its author's
        // game, and an old link must not move a newer one.
        let current = match self.manager().lock(&record.channel).await {
            Ok(slot) => slot.game_of(user).map(|g| g.record.id),
            Err(e) => {
                tracing::warn!(error = %e, game, "web: cannot open a game's chat");
                return refused(WebMsg::TryAgain, lang);
            }
        };
        if current != Some(game) {
            return refused(WebMsg::GameOver, lang);
        }
        let inc = Incoming {
            channel: record.channel.clone(),
            user: me,
            text: crate::game::bound(text.trim(), super::command::MAX_TEXT),
            lang_hint: Some(lang),
            community: record.community.clone(),
            may_configure: Some(false),
            ..Incoming::default()
        };
        let handled = self.handle_from(inc, Origin::default()).await;
        // Played when the game changed (what that says then goes to the chat).
        let after = self.storage().game(game).ok().flatten();
        let played = after.is_some_and(|a| version_of(&a) != version_of(&record));
        if played {
            if handled.queued.is_none() {
                // Not stored for a platform's delivery (no platform opened its outbox here):
                // the chat's subscribers get the board, as for what the service raises.
                self.send_unqueued(&record.channel, &handled);
            }
            return WebMoveAnswer {
                played: true,
                said: Vec::new(),
            };
        }
        WebMoveAnswer {
            played: false,
            said: handled
                .replies
                .into_iter()
                .map(|r| r.text)
                .filter(|t| !t.is_empty())
                .collect(),
        }
    }
}

impl Service {
    /// The view of game `game` for `reader` (a player, or a spectator), read from storage: its
    /// review comes along once the game is over. `Ok(None)` when there is no such game.
    ///
    /// # Errors
    /// On a storage failure, or a stored game that does not replay.
    pub fn web_view(
        &self,
        game: u64,
        reader: Option<&UserKey>,
    ) -> Result<Option<BoardView>, String> {
        match self.storage().game(game).map_err(|e| e.to_string())? {
            Some(record) => self.web_view_of(record, reader).map(Some),
            None => Ok(None),
        }
    }

    /// The view of the game stored as `record` for `reader` (its review read once it is over).
    ///
    /// # Errors
    /// On a storage failure, or a stored game that does not replay.
    pub fn web_view_of(
        &self,
        record: GameRecord,
        reader: Option<&UserKey>,
    ) -> Result<BoardView, String> {
        let review = if record.status == GameStatus::Active {
            None
        } else {
            self.storage()
                .review(record.id)
                .map_err(|e| e.to_string())?
                .and_then(|r| r.done)
        };
        let g = Game::from_record(record).map_err(|e| e.0)?;
        Ok(view(&g, reader, review, self.now()))
    }

    /// A bell for game `game`: it rings (the receiver sees a change) whenever this process
    /// writes the game. Another process's writes do not ring it, so a follower still looks at
    /// storage now and then; the bell only lets it look at once.
    #[must_use]
    pub fn game_bell(&self, game: u64) -> tokio::sync::watch::Receiver<()> {
        let mut bells = self
            .bells
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        bells.retain(|_, b| b.receiver_count() > 0);
        bells
            .entry(game)
            .or_insert_with(|| tokio::sync::watch::channel(()).0)
            .subscribe()
    }

    /// Ring the bells of `games`, just written.
    pub(super) fn ring(&self, games: &[u64]) {
        let bells = self
            .bells
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for g in games {
            if let Some(b) = bells.get(g) {
                b.send_replace(());
            }
        }
    }

    /// What a Telegram Mini App's user, checked by [`super::init_data::check`], may do in
    /// game `game`: play it when they are one of its players and it is being played, watch it
    /// otherwise. `Ok(None)` when there is no such game.
    ///
    /// # Errors
    /// On a storage failure.
    pub fn web_launch(&self, game: u64, user: &UserKey) -> super::AppResult<Option<Access>> {
        let Some(record) = self.storage().game(game)? else {
            return Ok(None);
        };
        let player = record.red.id == *user || record.black.id == *user;
        Ok(Some(if player && record.status == GameStatus::Active {
            Access::Play {
                game,
                user: user.clone(),
            }
        } else {
            Access::Watch { game }
        }))
    }

    /// Game `game` as PGN, once it is over.
    #[must_use]
    pub fn web_pgn(&self, game: u64) -> Option<String> {
        let record = self.storage().game(game).ok().flatten()?;
        (record.status != GameStatus::Active).then(|| super::pgn(&record, "xiangqi-bot"))
    }

    /// Game `game`'s replay as an animated GIF, once it is over (drawn in one of the
    /// service's picture slots, off the async threads).
    ///
    /// # Errors
    /// [`NoGif::Busy`] when every picture slot is drawing (anyone with a watch link may ask,
    /// so replays do not queue behind the chats' boards); [`NoGif::Unavailable`] for a game
    /// not over, unknown, or too long to draw.
    pub async fn web_gif(&self, game: u64) -> Result<Vec<u8>, NoGif> {
        let record = self
            .storage()
            .game(game)
            .ok()
            .flatten()
            .filter(|r| r.status != GameStatus::Active)
            .ok_or(NoGif::Unavailable)?;
        let g = Game::from_record(record).map_err(|_| NoGif::Unavailable)?;
        let start = g.arbiter.start().clone();
        let moves: Vec<crate::core::Move> = g.arbiter.plies().iter().map(|p| p.mv).collect();
        let renderer = std::sync::Arc::clone(&self.renderer);
        let _slot = self.render_slots.try_acquire().map_err(|_| NoGif::Busy)?;
        tokio::task::spawn_blocking(move || {
            renderer.gif(
                &start,
                &moves,
                Color::Red,
                crate::render::Theme::default(),
                crate::render::PieceStyle::default(),
            )
        })
        .await
        .ok()
        .and_then(Result::ok)
        .ok_or(NoGif::Unavailable)
    }
}

/// Why [`Service::web_gif`] gave no replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoGif {
    /// Every picture slot is drawing: try again.
    Busy,
    /// No finished game to draw (or too long to draw).
    Unavailable,
}

/// Where the web board is reached and the key its links are signed with
/// ([`super::ServiceConfig::web`]).
#[derive(Clone, Debug)]
pub struct WebLinks {
    /// `PUBLIC_URL`: the address players reach (no trailing slash).
    pub public_url: String,
    /// The key links are signed with.
    pub key: super::links::LinkKey,
    /// `TELEGRAM_MINI_APP`: the Mini App's direct link (`https://t.me/<bot>/<app>`), for the
    /// *Board* button in Telegram groups.
    pub telegram_app: Option<String>,
}

impl WebLinks {
    /// The address of `access`, valid for `secs` from `now_ms`.
    #[must_use]
    pub fn url(&self, access: &Access, now_ms: u64, secs: u64) -> String {
        let token = self.key.sign(access, now_ms / 1000 + secs);
        format!(
            "{}/{}/{token}",
            self.public_url.trim_end_matches('/'),
            access.kind()
        )
    }
}

/// Whether `ctx` is in a Telegram group, where a reply cannot be shown to one member only.
fn in_telegram_group(ctx: &super::ctx::Ctx<'_>) -> bool {
    ctx.channel.platform() == Some(crate::platform::Platform::Telegram) && ctx.community().is_some()
}

/// Active games of `user` (in any chat), newest first, at most `limit`.
fn active_games_of(svc: &Service, user: &UserKey, limit: usize) -> super::AppResult<Vec<u64>> {
    let storage = svc.storage();
    let mut out = Vec::new();
    for id in storage.games_of(user, 200)? {
        if let Some(r) = storage.game(id)? {
            if r.status == GameStatus::Active {
                out.push(id);
                if out.len() == limit {
                    break;
                }
            }
        }
    }
    Ok(out)
}

/// `/web`: the asker's private links to play their games on the web board (the game here
/// first). In a Telegram group a reply cannot be shown to one member only, so the link is
/// given in the private chat with the bot instead, which the answer says.
pub(super) fn web(
    ctx: &super::ctx::Ctx<'_>,
    slot: &super::ctx::Slot,
) -> super::AppResult<Vec<Reply>> {
    use super::links::PLAY_LINK_SECS;
    let reader = ctx.reader;
    let say = |m: WebMsg| Reply::private(crate::i18n::web::text(&m, reader));
    let Some(links) = &ctx.svc.config.web else {
        return Ok(vec![say(WebMsg::WebOff)]);
    };
    let me = &ctx.user.id;
    let telegram_group = in_telegram_group(ctx);
    if telegram_group {
        return Ok(vec![say(WebMsg::AskPrivately)]);
    }
    let mut games: Vec<u64> = slot.game_of(me).map(|g| g.record.id).into_iter().collect();
    for id in active_games_of(ctx.svc, me, 5)? {
        if !games.contains(&id) {
            games.push(id);
        }
    }
    if games.is_empty() {
        return Ok(vec![say(WebMsg::NotPlayingHere)]);
    }
    let lines: Vec<String> = games
        .into_iter()
        .map(|game| {
            let access = Access::Play {
                game,
                user: me.clone(),
            };
            let url = links.url(&access, ctx.now, PLAY_LINK_SECS);
            crate::i18n::web::text(&WebMsg::PlayLink { game, url }, reader)
        })
        .collect();
    Ok(vec![Reply::private(lines.join("\n\n"))])
}

/// The *Open board* button where the platform does not open the board itself (Discord, the
/// console; on Telegram without a Mini App): the presser's private link to game `game`, to
/// play it when they are one of its players and it is being played, to watch it otherwise.
/// In a Telegram group a player is sent to the private chat (a reply there is seen by all);
/// anyone else gets the watch link, which anyone may have.
pub(super) fn board_link(ctx: &super::ctx::Ctx<'_>, game: u64) -> super::AppResult<Vec<Reply>> {
    use super::links::{PLAY_LINK_SECS, WATCH_LINK_SECS};
    let reader = ctx.reader;
    let say = |m: WebMsg| Reply::private(crate::i18n::web::text(&m, reader));
    let Some(links) = &ctx.svc.config.web else {
        return Ok(vec![say(WebMsg::WebOff)]);
    };
    let telegram_group = in_telegram_group(ctx);
    Ok(vec![match ctx.svc.web_launch(game, &ctx.user.id)? {
        None => say(WebMsg::NoSuchGame),
        Some(Access::Play { .. }) if telegram_group => say(WebMsg::AskPrivately),
        Some(access @ Access::Play { .. }) => {
            let url = links.url(&access, ctx.now, PLAY_LINK_SECS);
            say(WebMsg::PlayLink { game, url })
        }
        Some(access @ Access::Watch { .. }) => {
            let url = links.url(&access, ctx.now, WATCH_LINK_SECS);
            let m = WebMsg::WatchLink { game, url };
            if telegram_group {
                Reply::text(crate::i18n::web::text(&m, ctx.lang))
            } else {
                say(m)
            }
        }
    }])
}

/// `/watch`: a link anyone may open to watch the games being played here, live.
pub(super) fn watch(ctx: &super::ctx::Ctx<'_>, slot: &super::ctx::Slot) -> Vec<Reply> {
    use super::links::WATCH_LINK_SECS;
    let Some(links) = &ctx.svc.config.web else {
        return vec![Reply::private(crate::i18n::web::text(
            &WebMsg::WebOff,
            ctx.reader,
        ))];
    };
    let lines: Vec<String> = slot
        .games()
        .filter(|g| g.is_active())
        .map(|g| {
            let game = g.record.id;
            let url = links.url(&Access::Watch { game }, ctx.now, WATCH_LINK_SECS);
            crate::i18n::web::text(&WebMsg::WatchLink { game, url }, ctx.lang)
        })
        .collect();
    if !lines.is_empty() {
        return vec![Reply::text(lines.join("\n"))];
    }
    // Nothing being played: the last game here, to replay.
    if let Some(game) = slot.record.last_game {
        let url = links.url(&Access::Watch { game }, ctx.now, WATCH_LINK_SECS);
        return vec![Reply::text(crate::i18n::web::text(
            &WebMsg::ReplayLink { game, url },
            ctx.lang,
        ))];
    }
    vec![Reply::private(crate::i18n::web::text(
        &WebMsg::NoGameHere,
        ctx.reader,
    ))]
}
