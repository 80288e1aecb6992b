//! Running the bot: configuration, logging, storage, the timer, and the adapters (Telegram
//! when `TELEGRAM_BOT_TOKEN` is set, and Discord alongside; the console when no platform
//! token is set). Ctrl-c stops the adapters, which deliver what they have queued, and the
//! storage is flushed last.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::Arc;

use crate::adapters::console::{self, ConsoleOptions};
use crate::adapters::discord;
use crate::adapters::telegram::{self, TelegramOptions};
use crate::adapters::web::{self, WebOptions};
use crate::app::bot::ThinkingPool;
use crate::app::links::LinkKey;
use crate::app::WebLinks;
use crate::app::{system_now, Service};
use crate::cli::database::{refusal, DAMAGED};
use crate::config::Config;
use crate::game::Storage;
use crate::render::Renderer;
use crate::storage::{pg, OpenError, PgStorage, SledStorage};
use crate::uci::player::Player;

/// Start the bot; returns when it stops.
#[must_use]
pub fn run() -> ExitCode {
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    // Logs go to standard error (standard output is the console chat).
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("cannot start the async runtime: {e}");
            return ExitCode::from(1);
        }
    };
    runtime.block_on(serve(config))
}

/// PostgreSQL when `DATABASE_URL` is set, otherwise sled in `DATA_DIR/db`.
fn open_storage(config: &Config) -> Result<Arc<dyn Storage>, Refused> {
    match &config.database_url {
        Some(url) => {
            // What the driver read (host, port, database, user), never the URL: a password
            // may sit anywhere in it. The driver's errors do not repeat the password.
            let shown = pg::describe(url.expose());
            tracing::info!(database = %shown, "storing in PostgreSQL");
            PgStorage::connect_with(url.expose(), config.database_pools)
                .map(|s| Arc::new(s) as Arc<dyn Storage>)
                .map_err(|e| Refused::Other(format!("cannot use {shown}: {e}")))
        }
        None => SledStorage::open(&config.data_dir.join("db"))
            .map(|s| Arc::new(s) as Arc<dyn Storage>)
            .map_err(|e| match e {
                OpenError::Damaged(what) => Refused::Damaged(refusal(&config.data_dir, &what)),
                OpenError::Unusable(e) => Refused::Other(format!(
                    "cannot open the database in {}: {e}",
                    config.data_dir.display()
                )),
            }),
    }
}

/// Why the storage did not open: a damaged database has its own exit code.
enum Refused {
    Damaged(String),
    Other(String),
}

async fn serve(config: Config) -> ExitCode {
    let storage = match open_storage(&config) {
        Ok(s) => s,
        Err(Refused::Damaged(e)) => {
            eprintln!("{e}");
            return ExitCode::from(DAMAGED);
        }
        Err(Refused::Other(e)) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    };
    let renderer = Arc::new(Renderer::new());
    let mut service_config = config.service.clone();
    let web = match open_web(&config).await {
        Ok(w) => w,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    };
    if let Some((listener, key)) = &web {
        service_config.web = config.web.as_ref().map(|w| WebLinks {
            public_url: w.public_url.clone(),
            key: key.clone(),
            telegram_app: w.telegram_app.clone(),
        });
        if let Ok(at) = listener.local_addr() {
            tracing::info!(listen = %at, "web board: serving");
        }
    }
    let service = Arc::new(Service::new(
        storage,
        renderer,
        system_now(),
        service_config,
    ));
    match service.recover().await {
        Ok(downtime) if downtime > 0 => {
            tracing::info!(downtime_ms = downtime, "clocks shifted by the downtime");
        }
        Ok(_) => {}
        Err(e) => {
            eprintln!("cannot read stored games: {e}");
            return ExitCode::from(1);
        }
    }
    let timer = tokio::spawn(Arc::clone(&service).run_timer());
    // The bot thinks on its own threads; games where it is to move resume their search.
    let pool = Arc::new(ThinkingPool::new(
        config.bot.threads,
        Arc::new(Player::new(&config.engine)),
    ));
    service.attach_bot(Arc::clone(&pool), config.bot.move_cap_ms);
    let bot = tokio::spawn(Arc::clone(&service).run_bot());
    // Platform adapters run until ctrl-c; each gets the same stop signal.
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let stopped = move || {
        let mut rx = stop_rx.clone();
        async move {
            let _ = rx.wait_for(|stop| *stop).await;
        }
    };
    // Each adapter task says when it ends (a refused token ends one early and stops the bot).
    let (ended_tx, mut ended_rx) = tokio::sync::mpsc::unbounded_channel::<()>();
    let mut platforms: Vec<(&str, tokio::task::JoinHandle<Result<(), String>>)> = Vec::new();

    // ---- Telegram ------------------------------------------------------------------------
    if let Some(tg) = &config.telegram {
        let bot = match telegram::bot(tg) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        };
        let (service, options, stop) =
            (Arc::clone(&service), TelegramOptions::default(), stopped());
        let webhook = tg.webhook.clone();
        let ended = ended_tx.clone();
        platforms.push((
            "telegram",
            tokio::spawn(async move {
                let r = match webhook {
                    None => telegram::run(service, bot, options, stop).await,
                    Some(w) => telegram::run_webhook(service, bot, options, w, stop).await,
                };
                let r = r.map_err(|e| e.to_string());
                let _ = ended.send(());
                r
            }),
        ));
    }

    // ---- Discord -------------------------------------------------------------------------
    if let Some(dc) = config.discord.clone() {
        if let Some(r) = dc.shards.filter(|r| r.len() < r.total()) {
            if config.database_url.is_none() {
                tracing::warn!(
                    shards = %r,
                    "DISCORD_SHARDS runs part of the bot on a database of its own: players' \
                     ratings, statistics and Discord-wide leaderboards only count the servers \
                     of these shards; give every process the same DATABASE_URL"
                );
            }
        }
        let service = Arc::clone(&service);
        let stop = stopped();
        let ended = ended_tx.clone();
        platforms.push((
            "discord",
            tokio::spawn(async move {
                let r = discord::run(service, &dc, stop)
                    .await
                    .map_err(|e| e.to_string());
                let _ = ended.send(());
                r
            }),
        ));
    }

    // ---- The web board -------------------------------------------------------------------
    let (web_quit, web_quit_rx) = tokio::sync::watch::channel(false);
    let web_server = web.map(|(listener, key)| {
        tokio::spawn(web::serve(
            Arc::clone(&service),
            key,
            listener,
            WebOptions {
                watchers: config.web.as_ref().map_or(384, |w| w.watchers),
                connections: config.web.as_ref().map_or(384, |w| w.watchers) + 128,
                metrics_token: config.web.as_ref().and_then(|w| w.metrics_token.clone()),
                telegram_token: config.telegram.as_ref().map(|t| t.token.clone()),
                ..WebOptions::default()
            },
            web_quit_rx,
        ))
    });

    let mut status = ExitCode::SUCCESS;
    if platforms.is_empty() {
        run_console(&service, &config).await;
    } else {
        tokio::select! {
            r = tokio::signal::ctrl_c() => {
                if let Err(e) = r {
                    tracing::error!(error = %e, "cannot listen for ctrl-c; stopping");
                }
                tracing::info!("stopping");
            }
            _ = ended_rx.recv() => {}
        }
        let _ = stop_tx.send(true);
        for (name, handle) in platforms {
            match handle.await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => {
                    eprintln!("{name}: {e}");
                    status = ExitCode::from(1);
                }
                Err(e) => {
                    eprintln!("{name}: the adapter failed: {e}");
                    status = ExitCode::from(1);
                }
            }
        }
    }
    let _ = web_quit.send(true);
    if let Some(server) = web_server {
        if tokio::time::timeout(std::time::Duration::from_secs(5), server)
            .await
            .is_err()
        {
            tracing::warn!("web board: requests still open at shutdown");
        }
    }
    timer.abort();
    bot.abort();
    // Stops every search and joins the engine threads (off the async threads).
    let _ = tokio::task::spawn_blocking(move || pool.shutdown()).await;
    if let Err(e) = service.storage().flush().await {
        eprintln!("final flush failed: {e}");
        return ExitCode::from(1);
    }
    status
}

/// The web board's listener and link key, when it is on. A port in use only warns when the
/// address is the console's default; when `WEB_LISTEN` names it, the bot does not start.
async fn open_web(config: &Config) -> Result<Option<(tokio::net::TcpListener, LinkKey)>, String> {
    let Some(web) = &config.web else {
        return Ok(None);
    };
    let key = match &web.secret {
        Some(s) => LinkKey::new(s.expose().as_bytes().to_vec()),
        None => LinkKey::new(stored_secret(&config.data_dir.join("web-secret"))?),
    };
    match tokio::net::TcpListener::bind(web.listen).await {
        Ok(l) => Ok(Some((l, key))),
        Err(e) if !web.explicit => {
            tracing::warn!(
                listen = %web.listen,
                error = %e,
                "web board: cannot listen; it is off (set WEB_LISTEN to another address)"
            );
            Ok(None)
        }
        Err(e) => Err(format!("WEB_LISTEN {}: cannot listen: {e}", web.listen)),
    }
}

/// The link key kept at `path`, made (32 random bytes, readable by the bot's user only) the
/// first time.
fn stored_secret(path: &std::path::Path) -> Result<Vec<u8>, String> {
    use std::io::{Read, Write};
    if let Ok(s) = std::fs::read(path) {
        if s.len() >= 32 {
            return Ok(s);
        }
    }
    let mut bytes = [0u8; 32];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| format!("cannot make the web board's link key: {e}"))?;
    let hex = crate::app::links::hex(&bytes);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options
        .open(path)
        .and_then(|mut f| f.write_all(hex.as_bytes()))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(hex.into_bytes())
}

/// The console chat on standard input and output, until the input ends.
async fn run_console(service: &Arc<Service>, config: &Config) {
    let user = std::env::var("USER")
        .or_else(|_| std::env::var("USERNAME"))
        .unwrap_or_else(|_| "me".into());
    let opts = ConsoleOptions {
        boards_dir: config.data_dir.join("boards"),
        user,
        text_boards: std::io::stdout().is_terminal(),
    };
    let stdin = tokio::io::BufReader::new(tokio::io::stdin());
    console::run(Arc::clone(service), stdin, tokio::io::stdout(), opts).await;
}
