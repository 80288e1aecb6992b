//! `xiangqi-bot migrate --from sled:DIR --to postgres://…`: copy a sled database into an empty
//! PostgreSQL database, then read the copy back and compare every record. The bot must not
//! be running on the sled database meanwhile (sled's lock refuses a second opener anyway).

use clap::Args;

use crate::storage::copy::verify;
use crate::storage::pg::describe;
use crate::storage::{PgStorage, SledStorage};

/// `migrate` options.
#[derive(Args, Debug)]
pub struct MigrateArgs {
    /// The sled database: `sled:DIR` (the bot's is `sled:DATA_DIR/db`).
    #[arg(long)]
    from: String,
    /// The PostgreSQL database, `postgres://…` (default: `DATABASE_URL`, which keeps the
    /// password off the command line).
    #[arg(long)]
    to: Option<String>,
}

/// Run it; the exit code.
#[must_use]
pub fn run(args: &MigrateArgs) -> i32 {
    match copy(args) {
        Ok(summary) => {
            super::emit(&format!("copied and checked: {summary}"));
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

fn copy(args: &MigrateArgs) -> Result<String, String> {
    let dir = args
        .from
        .strip_prefix("sled:")
        .ok_or("--from must be sled:DIR")?;
    let url = match &args.to {
        Some(url) => url.clone(),
        None => std::env::var("DATABASE_URL").map_err(|_| "give --to or set DATABASE_URL")?,
    };
    if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
        return Err("--to must be a postgres:// URL".into());
    }
    let shown = describe(&url);
    if !std::path::Path::new(dir).join("conf").exists() {
        return Err(format!("no sled database in {dir}"));
    }
    let sled = SledStorage::open(std::path::Path::new(dir))
        .map_err(|e| format!("cannot open {dir}: {e}"))?;
    let dump = sled.dump().map_err(|e| format!("cannot read {dir}: {e}"))?;
    let pg = PgStorage::connect(&url).map_err(|e| format!("cannot use {shown}: {e}"))?;
    let summary = dump.summary();
    let copied = pg
        .load(dump)
        .map_err(|e| format!("cannot copy into {shown}: {e}"))?;
    verify(&copied, &pg)?;
    Ok(summary)
}
