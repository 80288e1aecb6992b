//! Running the bot: configuration, logging, storage, the timer, and the adapters (the
//! console when no platform token is set).

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::Arc;

use tokio::sync::watch;
use tokio::task::JoinSet;

use crate::adapters::console::{self, ConsoleOptions};
use crate::app::{system_now, Service};
use crate::config::Config;
use crate::render::Renderer;
use crate::storage::SledStorage;

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

async fn serve(config: Config) -> ExitCode {
    let storage = match SledStorage::open(&config.data_dir.join("db")) {
        Ok(s) => Arc::new(s),
        Err(e) => {
            eprintln!(
                "cannot open the database in {}: {e}",
                config.data_dir.display()
            );
            return ExitCode::from(1);
        }
    };
    let renderer = Arc::new(Renderer::new());
    let service = Arc::new(Service::new(
        storage,
        renderer,
        system_now(),
        config.service.clone(),
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
    // Platform adapters run side by side, instead of the console, until ctrl-c.
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut adapters: JoinSet<Result<(), String>> = JoinSet::new();
    // --- Discord (DISCORD_TOKEN) -------------------------------------------------------------
    if let Some(discord) = config.discord.clone() {
        let service = Arc::clone(&service);
        let mut stop = stop_rx.clone();
        adapters.spawn(async move {
            let stop = async move {
                let _ = stop.wait_for(|s| *s).await;
            };
            crate::adapters::discord::run(service, &discord, stop)
                .await
                .map_err(|e| e.to_string())
        });
    }
    // --- end of Discord ----------------------------------------------------------------------
    if config.telegram.is_some() {
        tracing::warn!("the Telegram adapter is not built yet");
    }
    if !adapters.is_empty() {
        let ok = run_adapters(adapters, &stop_tx).await;
        timer.abort();
        if let Err(e) = service.storage().flush().await {
            eprintln!("final flush failed: {e}");
            return ExitCode::from(1);
        }
        return if ok {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        };
    }
    let user = std::env::var("USER")
        .or_else(|_| std::env::var("USERNAME"))
        .unwrap_or_else(|_| "me".into());
    let opts = ConsoleOptions {
        boards_dir: config.data_dir.join("boards"),
        user,
        text_boards: std::io::stdout().is_terminal(),
    };
    let stdin = tokio::io::BufReader::new(tokio::io::stdin());
    console::run(Arc::clone(&service), stdin, tokio::io::stdout(), opts).await;
    timer.abort();
    if let Err(e) = service.storage().flush().await {
        eprintln!("final flush failed: {e}");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

/// Wait for ctrl-c (then stop every adapter and wait for them) or for an adapter to stop on
/// its own (then stop the others). Whether all ended without error.
async fn run_adapters(
    mut adapters: JoinSet<Result<(), String>>,
    stop: &watch::Sender<bool>,
) -> bool {
    let mut ok = true;
    let mut report = |r: Option<Result<Result<(), String>, tokio::task::JoinError>>| match r {
        Some(Ok(Ok(()))) | None => {}
        Some(Ok(Err(e))) => {
            eprintln!("{e}");
            ok = false;
        }
        Some(Err(e)) => {
            eprintln!("an adapter failed: {e}");
            ok = false;
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => tracing::info!("stopping"),
        r = adapters.join_next() => report(r),
    }
    let _ = stop.send(true);
    while let Some(r) = adapters.join_next().await {
        report(Some(r));
    }
    ok
}
