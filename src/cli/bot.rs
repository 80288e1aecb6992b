//! Running the bot: configuration, logging, storage, the timer, and the adapters (the
//! console when no platform token is set).

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::Arc;

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
    if config.telegram.is_some() || config.discord.is_some() {
        tracing::warn!("platform adapters are not built yet; starting the console instead");
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
