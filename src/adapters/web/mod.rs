//! The bot's own web board, served by the bot itself (`WEB_LISTEN`, reached at `PUBLIC_URL`):
//! a player opens the link `/web` gave them and plays by tapping; anyone with a `/watch` link
//! watches the game live. Every page, script and style comes from the binary (no outside
//! fonts or scripts), so it works offline.
//!
//! | path | what |
//! |---|---|
//! | `GET /p/{token}`, `GET /w/{token}` | the page (play, watch) |
//! | `GET /api/{token}/state` | the board as JSON ([`crate::app::BoardView`]) |
//! | `GET /api/{token}/events` | the same, as server-sent events, each time the game changes |
//! | `POST /api/{token}/move` | `{"text": "h2e2"}`: a move in any notation, play links only |
//! | `GET /api/{token}/pgn`, `GET /api/{token}/gif` | a finished game as PGN, as an animated GIF |
//! | `GET /tg/{game}`, `GET /tg/app` | the page as a Telegram Mini App (the game in the path, or the direct link's `startapp`) |
//! | `POST /tg/{game}` | `{"init_data": "…"}`: Telegram's signed launch data traded for a link (`{"token", "mode"}`) |
//! | `GET /healthz` | `ok` when the storage answers and every platform served is connected (503 otherwise) |
//! | `GET /metrics` | Prometheus's text format, for `Authorization: Bearer $METRICS_TOKEN` |
//!
//! A token is checked before anything else ([`crate::app::links`]): a forged or expired one
//! gets 401 and changes nothing, and a source that keeps sending them is answered 429 for a
//! while. The server, not the page, decides: a move goes through [`Service::web_move`] (the
//! player's rate limit, the arbiter, the outbox, the same refusals as in chat). Bodies are
//! bounded and must arrive in time; connections and live watchers are capped; no response is
//! cached, and none sends a referrer on (the token is in the address). Paths are never
//! logged, since they hold tokens.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderValue, Method, Request, Response, StatusCode};
use tokio::net::TcpListener;
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};

use super::listen::{self, Throttle};
use super::Secret;
use crate::app::links::{Access, LinkError, LinkKey, PLAY_LINK_SECS};
use crate::app::metrics::metrics;
use crate::app::{board_view, init_data, Service};
use crate::platform::Platform;
use crate::platform::UserKey;

/// The page, its script and its style.
const PAGE: &str = include_str!("../../../assets/web/board.html");
const SCRIPT: &str = include_str!("../../../assets/web/board.js");
const STYLE: &str = include_str!("../../../assets/web/board.css");
/// The pieces' glyphs and 楚河漢界, from the renderer's font (`assets/fonts/README.md`).
const FONT: &[u8] = include_bytes!("../../../assets/web/pieces.ttf");

/// The pages' content security policy: nothing but this server's own page, script, style,
/// font and requests; framed by `$frame` only.
macro_rules! csp {
    ($frame:literal) => {
        concat!(
            "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; ",
            "font-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; ",
            "frame-ancestors ",
            $frame
        )
    };
}

/// The largest request body read (a move's text).
const BODY_LIMIT: usize = 1024;
/// How often a live watcher's game is looked at when this process did not write it (another
/// process of a fleet may have): a write here is seen at once.
const WATCH_EVERY: Duration = Duration::from_millis(400);
/// A comment sent to a live watcher when nothing changed for this long (keeps proxies open).
const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// A live stream ends after this long; the page opens a new one.
const STREAM_FOR: Duration = Duration::from_secs(30 * 60);

/// The web server's settings.
#[derive(Clone, Debug)]
pub struct WebOptions {
    /// A request's headers must arrive within this.
    pub header_timeout: Duration,
    /// A request's body must arrive within this once its headers did.
    pub body_timeout: Duration,
    /// Connections open at once.
    pub connections: usize,
    /// Live watchers at once (each holds a connection; kept below `connections`).
    pub watchers: usize,
    /// `METRICS_TOKEN`: `/metrics` answers a request carrying it as a bearer token (off
    /// without it).
    pub metrics_token: Option<Secret>,
    /// The Telegram bot's token, which signs its Mini App's launch data (the Mini App is off
    /// without it).
    pub telegram_token: Option<Secret>,
}

impl Default for WebOptions {
    fn default() -> Self {
        WebOptions {
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            connections: 512,
            watchers: 384,
            metrics_token: None,
            telegram_token: None,
        }
    }
}

struct Web {
    service: Arc<Service>,
    key: LinkKey,
    options: WebOptions,
    watchers: Arc<Semaphore>,
    throttle: Throttle,
    hub: Hub,
}

/// A game as its spectators see it, ready to send.
struct Look {
    /// The server-sent event.
    event: Bytes,
    /// The game is over: nothing more will change.
    over: bool,
}

type Looks = watch::Receiver<Option<Arc<Look>>>;

/// The games spectators watch, each looked at by one task for all of them: one storage read
/// per game every [`WATCH_EVERY`], however many watch it. A game's task ends when its last
/// spectator leaves or the game ends.
#[derive(Default)]
struct Hub {
    games: std::sync::Mutex<std::collections::HashMap<u64, Looks>>,
}

impl Hub {
    fn lock(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<u64, Looks>> {
        self.games
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// A spectator's view of `game`, shared with every other spectator of it.
fn spectate(web: &Arc<Web>, game: u64) -> Looks {
    let mut games = web.hub.lock();
    if let Some(rx) = games.get(&game) {
        return rx.clone();
    }
    let (tx, rx) = watch::channel(None);
    games.insert(game, rx.clone());
    drop(games);
    tokio::spawn(look_for_spectators(Arc::clone(web), game, tx));
    rx
}

/// Until `bell` rings (this process wrote the game) or [`WATCH_EVERY`] passed (another
/// process of a fleet may have).
async fn wait_for_change(bell: &mut watch::Receiver<()>) {
    tokio::select! {
        () = tokio::time::sleep(WATCH_EVERY) => {}
        rung = bell.changed() => {
            if rung.is_err() {
                tokio::time::sleep(WATCH_EVERY).await;
            }
        }
    }
}

/// Game `game` as `reader` sees it, when it changed since `last` (the version sent before,
/// updated here); `None` when it did not, or when the storage failed (looked at again next
/// time). `Err` when there is no such game.
fn look(
    web: &Web,
    game: u64,
    reader: Option<&UserKey>,
    last: &mut Option<String>,
) -> Result<Option<Look>, NoGame> {
    let record = match web.service.storage().game(game) {
        Ok(Some(record)) => record,
        Ok(None) => return Err(NoGame),
        Err(_) => return Ok(None),
    };
    let version = board_view::version_of(&record);
    if last.as_ref() == Some(&version) {
        return Ok(None);
    }
    let Ok(view) = web.service.web_view_of(record, reader) else {
        return Ok(None);
    };
    *last = Some(version);
    let data = serde_json::to_string(&view).unwrap_or_default();
    Ok(Some(Look {
        event: Bytes::from(format!("event: state\ndata: {data}\n\n")),
        over: view.over.is_some(),
    }))
}

/// The game a stream follows is not (or no longer) stored.
struct NoGame;

/// The task that looks at `game` for its spectators.
async fn look_for_spectators(web: Arc<Web>, game: u64, tx: watch::Sender<Option<Arc<Look>>>) {
    let mut last: Option<String> = None;
    let mut bell = web.service.game_bell(game);
    while let Ok(found) = look(&web, game, None, &mut last) {
        if let Some(l) = found {
            let over = l.over;
            tx.send_replace(Some(Arc::new(l)));
            if over {
                break;
            }
        }
        wait_for_change(&mut bell).await;
        // Only the hub's own receiver left: nobody watches. Checked under the hub's lock, which
        // a new spectator takes to join.
        let mut games = web.hub.lock();
        if tx.receiver_count() <= 1 {
            games.remove(&game);
            return;
        }
    }
    web.hub.lock().remove(&game);
}

/// Serve the web board on `listener` until `quit` turns true, then let open requests finish.
pub async fn serve(
    service: Arc<Service>,
    key: LinkKey,
    listener: TcpListener,
    options: WebOptions,
    quit: watch::Receiver<bool>,
) {
    let limits = listen::Limits {
        header_timeout: options.header_timeout,
        connections: options.connections,
        name: "web board",
    };
    let web = Arc::new(Web {
        service,
        key,
        watchers: Arc::new(Semaphore::new(options.watchers.min(Semaphore::MAX_PERMITS))),
        options,
        throttle: Throttle::default(),
        hub: Hub::default(),
    });
    let respond = move |peer, req| answer(Arc::clone(&web), peer, req);
    listen::serve(listener, limits, respond, quit).await;
}

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// A response with the headers every answer carries.
fn respond(code: StatusCode, kind: &'static str, body: impl Into<Body>) -> Response<Body> {
    let mut r = Response::new(body.into());
    *r.status_mut() = code;
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(csp!("'none'")),
    );
    r
}

/// `bytes` of `kind`, offered as a file named `name` (a game's number and an extension:
/// nothing to escape).
fn file(kind: &'static str, bytes: Vec<u8>, name: &str) -> Response<Body> {
    let mut r = respond(StatusCode::OK, kind, bytes);
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{name}\"")) {
        r.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    r
}

fn plain(code: StatusCode, text: &'static str) -> Response<Body> {
    respond(code, "text/plain; charset=utf-8", text)
}

fn json(value: &impl serde::Serialize) -> Response<Body> {
    match serde_json::to_vec(value) {
        Ok(b) => respond(StatusCode::OK, "application/json", b),
        Err(_) => plain(StatusCode::INTERNAL_SERVER_ERROR, "error"),
    }
}

/// One request from `peer`.
async fn answer(web: Arc<Web>, peer: IpAddr, req: Request<Body>) -> Response<Body> {
    if let Some(left) = web.throttle.blocked(peer, Instant::now()) {
        let mut r = plain(StatusCode::TOO_MANY_REQUESTS, "too many refused links");
        r.headers_mut()
            .insert(header::RETRY_AFTER, listen::retry_after(left));
        return r;
    }
    let path = req.uri().path().to_string();
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let method = req.method().clone();
    metrics().web_request(route(&method, &parts));
    match (method, parts.as_slice()) {
        (Method::GET, ["healthz"]) => health(&web),
        (Method::GET, ["metrics"]) => figures(&web, peer, &req),
        (Method::GET, ["tg", _]) if web.options.telegram_token.is_some() => {
            let mut page = respond(StatusCode::OK, "text/html; charset=utf-8", PAGE);
            // Telegram's web clients show a Mini App in a frame of their own.
            page.headers_mut().insert(
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(csp!("https://web.telegram.org")),
            );
            page
        }
        (Method::POST, ["tg", game]) => match &web.options.telegram_token {
            Some(bot_token) => launch(&web, peer, bot_token, game, req).await,
            None => plain(StatusCode::NOT_FOUND, "not found"),
        },
        (Method::GET, ["assets", "board.js"]) => {
            respond(StatusCode::OK, "text/javascript; charset=utf-8", SCRIPT)
        }
        (Method::GET, ["assets", "pieces.ttf"]) => respond(StatusCode::OK, "font/ttf", FONT),
        (Method::GET, ["assets", "board.css"]) => {
            respond(StatusCode::OK, "text/css; charset=utf-8", STYLE)
        }
        (Method::GET, [kind @ ("p" | "w"), token]) => match web.key.verify(token, now_secs()) {
            Ok(a) if matches!(a, Access::Play { .. }) == (*kind == "p") => {
                respond(StatusCode::OK, "text/html; charset=utf-8", PAGE)
            }
            Ok(_) => refused(&web, peer, LinkError::Forged),
            Err(e) => refused(&web, peer, e),
        },
        (method @ (Method::GET | Method::POST), ["api", token, what]) => {
            match web.key.verify(token, now_secs()) {
                Ok(a) => api(&web, peer, &method, what, a, req).await,
                Err(e) => refused(&web, peer, e),
            }
        }
        (Method::GET | Method::POST, _) => plain(StatusCode::NOT_FOUND, "not found"),
        _ => plain(StatusCode::METHOD_NOT_ALLOWED, "method not allowed"),
    }
}

/// A request's route as a metric's label: a fixed name, never the path (it holds tokens).
fn route(method: &Method, parts: &[&str]) -> &'static str {
    match (method, parts) {
        (_, ["healthz"]) => "healthz",
        (_, ["metrics"]) => "metrics",
        (_, ["assets", _]) => "asset",
        (_, ["p" | "w", _]) => "page",
        (&Method::GET, ["tg", _]) => "mini_app",
        (&Method::POST, ["tg", _]) => "mini_app_launch",
        (_, ["api", _, "state"]) => "state",
        (_, ["api", _, "events"]) => "events",
        (_, ["api", _, "move"]) => "move",
        (_, ["api", _, "pgn" | "gif"]) => "download",
        _ => "other",
    }
}

/// `/metrics`, for a request carrying the operator's token; a wrong one counts against its
/// source as a refused link does.
fn figures(web: &Web, peer: IpAddr, req: &Request<Body>) -> Response<Body> {
    let Some(token) = &web.options.metrics_token else {
        return plain(StatusCode::NOT_FOUND, "metrics are off (set METRICS_TOKEN)");
    };
    let given = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("");
    if !listen::same_secret(given, token.expose()) {
        return refused(web, peer, LinkError::Forged);
    }
    let waiting = web
        .service
        .engine_pool()
        .map_or(0, |(pool, _)| pool.waiting());
    respond(
        StatusCode::OK,
        "application/openmetrics-text; version=1.0.0; charset=utf-8",
        metrics().text(waiting),
    )
}

/// A Mini App opened: Telegram's launch data, checked, traded for a link of this server to
/// `game` (a number, or `app` for the direct link's `startapp`): to play for one of its
/// players while it is being played, to watch for anyone else.
async fn launch(
    web: &Web,
    peer: IpAddr,
    bot_token: &Secret,
    game: &str,
    req: Request<Body>,
) -> Response<Body> {
    #[derive(serde::Deserialize)]
    struct Sent {
        init_data: String,
    }
    let sent: Sent = match read_json(web, req, init_data::MAX_LEN + 64).await {
        Ok(s) => s,
        Err(why) => return why,
    };
    let launch = match init_data::check(bot_token.expose(), &sent.init_data, now_secs()) {
        Ok(l) => l,
        Err(e) => return refused(web, peer, e),
    };
    let game = if game == "app" {
        launch.start_param.as_deref().unwrap_or("")
    } else {
        game
    };
    let Ok(game) = game.parse::<u64>() else {
        return plain(StatusCode::NOT_FOUND, "no such game");
    };
    let user = UserKey::on(Platform::Telegram, launch.user);
    match web.service.web_launch(game, &user) {
        Ok(Some(access)) => {
            let token = web.key.sign(&access, now_secs() + PLAY_LINK_SECS);
            json(&serde_json::json!({ "token": token, "mode": access.kind() }))
        }
        Ok(None) => plain(StatusCode::NOT_FOUND, "no such game"),
        Err(e) => {
            tracing::warn!(error = %e, game, "web board: cannot read a game");
            plain(StatusCode::SERVICE_UNAVAILABLE, "try again")
        }
    }
}

/// What a checked link asks of the game.
async fn api(
    web: &Arc<Web>,
    peer: IpAddr,
    method: &Method,
    what: &str,
    a: Access,
    req: Request<Body>,
) -> Response<Body> {
    let game = a.game();
    match (method, what) {
        (&Method::GET, "state") => state(web, &a),
        (&Method::GET, "events") => events(web, a),
        (&Method::GET, "pgn") => match web.service.web_pgn(game) {
            Some(pgn) => file(
                "application/x-chess-pgn; charset=utf-8",
                pgn.into_bytes(),
                &format!("game-{game}.pgn"),
            ),
            None => plain(StatusCode::NOT_FOUND, "not over yet"),
        },
        (&Method::GET, "gif") => match web.service.web_gif(game).await {
            Ok(gif) => file("image/gif", gif, &format!("game-{game}.gif")),
            Err(board_view::NoGif::Busy) => {
                plain(StatusCode::SERVICE_UNAVAILABLE, "busy: try again")
            }
            Err(board_view::NoGif::Unavailable) => {
                plain(StatusCode::NOT_FOUND, "not over yet, or too long to draw")
            }
        },
        (&Method::POST, "move") => match a {
            Access::Play { game, user } => play(web, game, &user, req).await,
            Access::Watch { .. } => refused(web, peer, LinkError::Forged),
        },
        _ => plain(StatusCode::NOT_FOUND, "not found"),
    }
}

/// 401 for a link that is not good (counted against its source).
fn refused(web: &Web, peer: IpAddr, why: LinkError) -> Response<Body> {
    if let Some(block) = web.throttle.refused(peer, Instant::now()) {
        tracing::warn!(
            source = %peer,
            seconds = block.as_secs(),
            "web board: repeated refused links; the source is refused (429) for a while"
        );
    }
    match why {
        LinkError::Forged => plain(StatusCode::UNAUTHORIZED, "this link is not valid"),
        LinkError::Expired => plain(StatusCode::UNAUTHORIZED, "this link has expired"),
    }
}

/// `ok` (200) when the storage answers and every platform this process serves is connected;
/// otherwise 503. Either way a line for the storage and each platform says how it stands.
fn health(web: &Web) -> Response<Body> {
    let storage = web.service.storage().active_games();
    if let Err(e) = &storage {
        tracing::warn!(error = %e, "web board: health check: the storage does not answer");
    }
    let connections = web.service.connections();
    let healthy = storage.is_ok() && connections.iter().all(|(_, up)| *up);
    let mut text = String::from(if healthy { "ok\n" } else { "unhealthy\n" });
    text.push_str(if storage.is_ok() {
        "storage: ok\n"
    } else {
        "storage: unavailable\n"
    });
    for (platform, up) in connections {
        let state = if up { "connected" } else { "disconnected" };
        text.push_str(&format!("{}: {state}\n", platform.name()));
    }
    let code = if healthy {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    respond(code, "text/plain; charset=utf-8", text)
}

fn reader(a: &Access) -> Option<&UserKey> {
    match a {
        Access::Play { user, .. } => Some(user),
        Access::Watch { .. } => None,
    }
}

fn state(web: &Web, a: &Access) -> Response<Body> {
    match web.service.web_view(a.game(), reader(a)) {
        Ok(Some(v)) => json(&v),
        Ok(None) => plain(StatusCode::NOT_FOUND, "no such game"),
        Err(e) => {
            tracing::warn!(error = %e, game = a.game(), "web board: cannot read a game");
            plain(StatusCode::SERVICE_UNAVAILABLE, "try again")
        }
    }
}

/// A move from the play page.
async fn play(web: &Arc<Web>, game: u64, user: &UserKey, req: Request<Body>) -> Response<Body> {
    #[derive(serde::Deserialize)]
    struct Sent {
        text: String,
    }
    let sent: Sent = match read_json(web, req, BODY_LIMIT).await {
        Ok(s) => s,
        Err(why) => return why,
    };
    json(&web.service.web_move(game, user, &sent.text).await)
}

/// A request's JSON body of at most `limit` bytes, arriving within the body deadline; else
/// the answer that says why not.
async fn read_json<T: serde::de::DeserializeOwned>(
    web: &Web,
    req: Request<Body>,
    limit: usize,
) -> Result<T, Response<Body>> {
    let read = axum::body::to_bytes(req.into_body(), limit);
    let body: Bytes = match tokio::time::timeout(web.options.body_timeout, read).await {
        Ok(Ok(b)) => b,
        Ok(Err(_)) => return Err(plain(StatusCode::PAYLOAD_TOO_LARGE, "too large")),
        Err(_) => return Err(plain(StatusCode::REQUEST_TIMEOUT, "too slow")),
    };
    serde_json::from_slice(&body).map_err(|_| {
        plain(
            StatusCode::BAD_REQUEST,
            "expected a JSON object of this page's",
        )
    })
}

/// Where a live stream's looks come from.
enum Source {
    /// A spectator's: the game's looks, shared by all its spectators.
    Shared(Looks),
    /// A player's own (what it shows depends on who reads it): the game's bell, and the
    /// version last sent.
    Own {
        user: UserKey,
        bell: watch::Receiver<()>,
        last: Option<String>,
    },
}

/// What a live stream remembers between looks.
struct Stream {
    web: Arc<Web>,
    game: u64,
    source: Source,
    sent_at: Instant,
    started: Instant,
    first: bool,
    done: bool,
    _permit: OwnedSemaphorePermit,
}

type Piece = Option<(Result<Bytes, std::convert::Infallible>, Stream)>;

impl Stream {
    /// `look` sent: the stream ends after it if the game is over.
    fn send(mut self, event: Bytes, over: bool) -> Piece {
        self.done = over;
        self.sent_at = Instant::now();
        Some((Ok(event), self))
    }

    fn keep_alive(mut self) -> Piece {
        self.sent_at = Instant::now();
        Some((Ok(Bytes::from_static(b": still here\n\n")), self))
    }
}

/// The next piece of a live stream: the view when the game changed, a keep-alive comment
/// when nothing did for a while; the end when the game is over (sent once) or the stream is
/// old.
async fn next_event(mut s: Stream) -> Piece {
    if s.done || s.started.elapsed() > STREAM_FOR {
        return None;
    }
    let (web, game) = (Arc::clone(&s.web), s.game);
    match &mut s.source {
        Source::Shared(rx) => {
            if s.first {
                s.first = false;
                let now = rx.borrow_and_update().clone();
                if let Some(l) = now {
                    return s.send(l.event.clone(), l.over);
                }
            }
            let wait = KEEP_ALIVE.min(STREAM_FOR.saturating_sub(s.started.elapsed()));
            match tokio::time::timeout(wait, rx.changed()).await {
                Ok(Ok(())) => {
                    let l = rx.borrow_and_update().clone()?;
                    s.send(l.event.clone(), l.over)
                }
                // The game is gone, or its task ended without a last word: the page opens a
                // new stream.
                Ok(Err(_)) => None,
                Err(_) if s.started.elapsed() > STREAM_FOR => None,
                Err(_) => s.keep_alive(),
            }
        }
        Source::Own { user, bell, last } => loop {
            if !s.first {
                wait_for_change(bell).await;
            }
            s.first = false;
            match look(&web, game, Some(user), last) {
                Err(NoGame) => return None,
                Ok(Some(l)) => return s.send(l.event, l.over),
                Ok(None) => {}
            }
            if s.sent_at.elapsed() >= KEEP_ALIVE {
                return s.keep_alive();
            }
            if s.started.elapsed() > STREAM_FOR {
                return None;
            }
        },
    }
}

fn events(web: &Arc<Web>, access: Access) -> Response<Body> {
    let Ok(permit) = Arc::clone(&web.watchers).try_acquire_owned() else {
        return plain(
            StatusCode::SERVICE_UNAVAILABLE,
            "too many watchers; try again later",
        );
    };
    let game = access.game();
    let source = match access {
        Access::Watch { game } => Source::Shared(spectate(web, game)),
        Access::Play { game, user } => Source::Own {
            user,
            bell: web.service.game_bell(game),
            last: None,
        },
    };
    let start = Stream {
        web: Arc::clone(web),
        game,
        source,
        sent_at: Instant::now(),
        started: Instant::now(),
        first: true,
        done: false,
        _permit: permit,
    };
    let body = Body::from_stream(futures_util::stream::unfold(start, next_event));
    respond(StatusCode::OK, "text/event-stream", body)
}
