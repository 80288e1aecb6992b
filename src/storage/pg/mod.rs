//! The PostgreSQL implementation of [`crate::game::Storage`], chosen with `DATABASE_URL`.
//!
//! Tables (see `migrations/`): one row per record, with its key columns and the record in
//! the JSON encoding the sled storage uses; ratings keep the ordered key space of
//! [`crate::rating::keys`] as `bytea` rows, which PostgreSQL orders as sled does, so pages and
//! ranks read the same. Every [`Storage::persist`] is one transaction, committed before its
//! future resolves (see `write.rs`); a game's rating update is part of the transaction that
//! ends it (`ratings.rs`).
//!
//! # Threads
//! The trait's reads are synchronous and are called from async code, on the bot's runtime
//! and on the current-thread runtimes of tests, where `Handle::block_on` panics. So the
//! driver (`tokio-postgres` with a `deadpool-postgres` pool) runs on a runtime of its own, on
//! its own threads ([`Bridge`]): a read is spawned there and the caller waits on a plain
//! `std` channel (as a sled read may wait on the disk); `persist` awaits the spawned task's
//! handle, which works from any runtime. The runtime ends when the last handle is dropped.
//!
//! Schema migrations are embedded (`include_str!`) and applied at opening, in one
//! transaction under an advisory lock, so two processes starting together apply each
//! migration once. Several processes may share the database (`fleet.rs`).

mod fleet;
mod load;
mod ratings;
mod write;

use std::future::Future;
use std::sync::Arc;

use deadpool_postgres::{GenericClient, Manager, ManagerConfig, Pool, RecyclingMethod};
use tokio_postgres::types::{FromSql, IsNull, ToSql, Type};
use tokio_postgres::{NoTls, Row};

use crate::game::{
    BoxFuture, Changes, ChannelRecord, Claim, Deadline, DeadlineKind, GameRecord, Lease, OutboxKey,
    ReviewRecord, Storage, StorageError, UserPrefs,
};
use crate::platform::{ChannelKey, UserKey};
use crate::rating::{Entry, Family, GameEnd, HistoryPoint, PairRecord, Profile};

/// The migrations, in order: version, SQL.
const MIGRATIONS: &[(i32, &str)] = &[
    (1, include_str!("../../../migrations/0001_initial.sql")),
    (2, include_str!("../../../migrations/0002_puzzles.sql")),
    (3, include_str!("../../../migrations/0003_processes.sql")),
    (4, include_str!("../../../migrations/0004_inbox.sql")),
];

/// The storage's connections to the database.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PgPools {
    /// Connections for reads and writes (default 8: enough for the bot's concurrent commands
    /// and readers on 2 cores).
    pub connections: usize,
    /// Connections that hold channel locks, one per channel a command is deciding in (default
    /// 16): a pool of their own, so that commands holding locks always find a connection to
    /// write with. A lock is held from the command's first read to its commit, never while
    /// its pictures are drawn.
    pub lock_connections: usize,
    /// How long a command waits for a connection (from either pool, or a new one) before it
    /// fails and the user is told it was not saved (default 10 s).
    pub wait: std::time::Duration,
}

impl Default for PgPools {
    fn default() -> Self {
        PgPools {
            connections: 8,
            lock_connections: 16,
            wait: std::time::Duration::from_secs(10),
        }
    }
}

/// The meta key of the game-number counter (as in the sled storage).
const GAME_NUMBER: &str = "game_number";

/// Storage in a PostgreSQL database.
#[derive(Clone)]
pub struct PgStorage {
    bridge: Arc<Bridge>,
    /// The channel stamps this process last saw (see `fleet.rs`).
    stamps: Arc<fleet::Stamps>,
}

/// The driver's runtime and pool, on threads of their own (see the module doc).
struct Bridge {
    handle: tokio::runtime::Handle,
    pool: Pool,
    /// Connections holding channel locks.
    leases: Pool,
    /// This process's name among those sharing the database (its row in `processes`,
    /// removed when the storage closes; empty until the row is written).
    process: String,
    /// Dropped with the bridge: the runtime's thread then returns and ends the runtime.
    _stop: tokio::sync::oneshot::Sender<()>,
}

fn err(e: impl std::fmt::Display + 'static) -> StorageError {
    // The driver's own text of a server error is only "db error": the server's message is
    // what says what went wrong.
    let any: &dyn std::any::Any = &e;
    if let Some(db) = any
        .downcast_ref::<tokio_postgres::Error>()
        .and_then(tokio_postgres::Error::as_db_error)
    {
        return StorageError(format!("{e}: {}", db.message()));
    }
    StorageError(e.to_string())
}

/// A u64 kept by the service as the bigint PostgreSQL stores.
fn big(n: u64) -> Result<i64, StorageError> {
    i64::try_from(n).map_err(|_| err(format!("{n} does not fit in a bigint")))
}

/// A bigint read back as the u64 the service keeps (never negative: only `big` writes them).
fn small(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

fn decode<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, StorageError> {
    serde_json::from_slice(bytes).map_err(err)
}

/// What `url` names, as the driver read it, for logs and errors: the user, the hosts and
/// ports, and the database; never the URL itself, whose password may sit anywhere in it (a
/// base64 password has `/` in it, and a `?password=` parameter sits at the end).
#[must_use]
pub fn describe(url: &str) -> String {
    match url.parse::<tokio_postgres::Config>() {
        Ok(config) => describe_config(&config),
        Err(_) => "the database of a DATABASE_URL that does not read as \
                   postgres://user:password@host:port/database"
            .to_string(),
    }
}

/// [`describe`] for a URL the driver read.
fn describe_config(config: &tokio_postgres::Config) -> String {
    use std::fmt::Write;
    let ports = config.get_ports();
    let mut hosts = String::new();
    for (i, host) in config.get_hosts().iter().enumerate() {
        if i > 0 {
            hosts.push_str(", ");
        }
        match host {
            tokio_postgres::config::Host::Tcp(name) => hosts.push_str(name),
            #[cfg(unix)]
            tokio_postgres::config::Host::Unix(path) => {
                let _ = write!(hosts, "{}", path.display());
            }
        }
        // One port for every host, or one each (the driver's rule); 5432 when none.
        let port = ports.get(i).or(ports.first()).copied().unwrap_or(5432);
        let _ = write!(hosts, ":{port}");
    }
    if hosts.is_empty() {
        hosts.push_str("the local socket");
    }
    let user = config.get_user().unwrap_or("(the system user)");
    let database = config.get_dbname().unwrap_or(user);
    format!("the database {database:?} on {hosts} as user {user:?}")
}

/// The driver's complaint about a URL, without what it quotes (an unknown option's name is
/// the user's text, and may be a password put in the wrong place).
fn parse_error(e: &tokio_postgres::Error) -> String {
    let text = e.to_string();
    let mut out = String::with_capacity(text.len());
    for (i, part) in text.split('`').enumerate() {
        // Odd parts are the quoted ones: only an option name the driver knows is kept.
        if i % 2 == 1 {
            let known = KNOWN_OPTIONS.contains(&part);
            out.push('`');
            out.push_str(if known { part } else { "…" });
            out.push('`');
        } else {
            out.push_str(part);
        }
    }
    out
}

/// The URL options the driver reads (its invalid-value errors name them).
const KNOWN_OPTIONS: &[&str] = &[
    "user",
    "password",
    "dbname",
    "options",
    "application_name",
    "sslmode",
    "host",
    "hostaddr",
    "port",
    "connect_timeout",
    "tcp_user_timeout",
    "keepalives",
    "keepalives_idle",
    "keepalives_interval",
    "keepalives_retries",
    "target_session_attrs",
    "channel_binding",
    "load_balance_hosts",
    "sslnegotiation",
];

/// Run one prepared (and cached) statement.
async fn rows<C: GenericClient + Sync>(
    c: &C,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
) -> Result<Vec<Row>, tokio_postgres::Error> {
    let statement = c.prepare_cached(sql).await?;
    c.query(&statement, params).await
}

/// Run one prepared (and cached) statement that changes rows.
async fn exec<C: GenericClient + Sync>(
    c: &C,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
) -> Result<u64, tokio_postgres::Error> {
    let statement = c.prepare_cached(sql).await?;
    c.execute(&statement, params).await
}

impl Bridge {
    fn start(url: &str, pools: PgPools) -> Result<Bridge, StorageError> {
        let config: tokio_postgres::Config = url
            .parse()
            .map_err(|e| err(format!("DATABASE_URL does not read: {}", parse_error(&e))))?;
        let (ready, wait) = std::sync::mpsc::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        std::thread::Builder::new()
            .name("postgres".into())
            .spawn(move || {
                let runtime = match tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(2)
                    .thread_name("postgres-io")
                    .enable_all()
                    .build()
                {
                    Ok(r) => r,
                    Err(e) => {
                        let _ = ready.send(Err(err(e)));
                        return;
                    }
                };
                let _ = ready.send(Ok(runtime.handle().clone()));
                runtime.block_on(async move {
                    let _ = stopped.await;
                });
            })
            .map_err(err)?;
        let handle = wait
            .recv()
            .map_err(|_| err("the PostgreSQL thread did not start"))??;
        let pool = |config: tokio_postgres::Config, size: usize| {
            let manager = Manager::from_config(
                config,
                NoTls,
                ManagerConfig {
                    recycling_method: RecyclingMethod::Fast,
                },
            );
            // A database that does not answer fails the command (the user gets the usual
            // apology) instead of hanging it and everything queued behind it.
            Pool::builder(manager)
                .max_size(size.max(1))
                .wait_timeout(Some(pools.wait))
                .create_timeout(Some(pools.wait))
                .recycle_timeout(Some(pools.wait))
                .runtime(deadpool_postgres::Runtime::Tokio1)
                .build()
                .map_err(err)
        };
        // A channel lock another process holds for longer than this (hung, not dead: a dead
        // one's locks go with its connection) fails the command instead of waiting forever.
        let mut lease_config = config.clone();
        let options = match config.get_options() {
            Some(given) => format!("{given} -c lock_timeout=30s"),
            None => "-c lock_timeout=30s".to_string(),
        };
        lease_config.options(options);
        Ok(Bridge {
            handle,
            pool: pool(config, pools.connections)?,
            leases: pool(lease_config, pools.lock_connections)?,
            process: String::new(),
            _stop: stop,
        })
    }

    /// Run `job` with a pooled connection on the driver's runtime and wait for it (a plain
    /// blocking wait: callable from any thread, inside a runtime or not).
    fn wait<T, F, Fut>(&self, job: F) -> Result<T, StorageError>
    where
        T: Send + 'static,
        F: FnOnce(deadpool_postgres::Object) -> Fut + Send + 'static,
        Fut: Future<Output = Result<T, StorageError>> + Send,
    {
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        let pool = self.pool.clone();
        self.handle.spawn(async move {
            let result = match pool.get().await {
                Ok(client) => job(client).await,
                Err(e) => Err(err(format!("no database connection: {e}"))),
            };
            let _ = tx.send(result);
        });
        rx.recv()
            .map_err(|_| err("the PostgreSQL runtime has stopped"))?
    }

    /// Run `job` with a pooled connection on the driver's runtime, awaited (from any runtime).
    async fn run<T, F, Fut>(&self, job: F) -> Result<T, StorageError>
    where
        T: Send + 'static,
        F: FnOnce(deadpool_postgres::Object) -> Fut + Send + 'static,
        Fut: Future<Output = Result<T, StorageError>> + Send,
    {
        let pool = self.pool.clone();
        self.handle
            .spawn(async move {
                let client = pool
                    .get()
                    .await
                    .map_err(|e| err(format!("no database connection: {e}")))?;
                job(client).await
            })
            .await
            .map_err(|e| err(format!("the database task did not finish: {e}")))?
    }

    /// One query's rows, waited for.
    fn query(
        &self,
        sql: &'static str,
        params: Vec<Box<dyn ToSql + Send + Sync>>,
    ) -> Result<Vec<Row>, StorageError> {
        self.wait(move |client| async move {
            let refs: Vec<&(dyn ToSql + Sync)> = params
                .iter()
                .map(|p| p.as_ref() as &(dyn ToSql + Sync))
                .collect();
            rows(&client, sql, &refs).await.map_err(err)
        })
    }
}

/// The typed keys go to and from their text columns as the strings they are.
macro_rules! sql_key {
    ($t:ty) => {
        impl ToSql for $t {
            fn to_sql(
                &self,
                ty: &Type,
                out: &mut bytes::BytesMut,
            ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
                self.as_str().to_sql(ty, out)
            }

            fn accepts(ty: &Type) -> bool {
                <&str as ToSql>::accepts(ty)
            }

            tokio_postgres::types::to_sql_checked!();
        }

        impl<'a> FromSql<'a> for $t {
            fn from_sql(
                ty: &Type,
                raw: &'a [u8],
            ) -> Result<Self, Box<dyn std::error::Error + Sync + Send>> {
                String::from_sql(ty, raw).map(<$t>::from)
            }

            fn accepts(ty: &Type) -> bool {
                <String as FromSql>::accepts(ty)
            }
        }
    };
}

sql_key!(ChannelKey);
sql_key!(UserKey);

/// Owned query parameters for [`Bridge::query`].
macro_rules! params {
    ($($p:expr),* $(,)?) => {
        vec![$(Box::new($p) as Box<dyn tokio_postgres::types::ToSql + Send + Sync>),*]
    };
}
use params;

impl PgStorage {
    /// Connect to `url` (`postgres://…`) and bring the schema up to date.
    ///
    /// # Errors
    /// When the URL does not read, the server cannot be reached, or a migration fails.
    pub fn connect(url: &str) -> Result<PgStorage, StorageError> {
        PgStorage::connect_with(url, PgPools::default())
    }

    /// [`PgStorage::connect`] with connection pools of these sizes.
    ///
    /// # Errors
    /// As [`PgStorage::connect`].
    pub fn connect_with(url: &str, pools: PgPools) -> Result<PgStorage, StorageError> {
        let process = fleet::process_name();
        let mut bridge = Bridge::start(url, pools)?;
        bridge.wait(|mut client| async move { migrate(&mut client).await })?;
        let me = process.clone();
        bridge.wait(move |client| async move {
            // Rows of processes gone for a day are forgotten (a process that never comes
            // back leaves its row behind).
            exec(
                &client,
                "DELETE FROM processes WHERE alive_at < now() - interval '1 day'",
                &[],
            )
            .await
            .map_err(err)?;
            exec(&client, "INSERT INTO processes (id) VALUES ($1)", &[&me])
                .await
                .map_err(err)
        })?;
        bridge.process = process;
        Ok(PgStorage {
            bridge: Arc::new(bridge),
            stamps: Arc::default(),
        })
    }

    /// This process's name among those sharing the database.
    fn me(&self) -> String {
        self.bridge.process.clone()
    }

    /// Outbox rows (channel, seq, reply) as the outbox hands them out.
    fn outbox_rows(
        &self,
        sql: &'static str,
        params: Vec<Box<dyn ToSql + Send + Sync>>,
    ) -> Result<Vec<(OutboxKey, Vec<u8>)>, StorageError> {
        self.bridge
            .query(sql, params)?
            .iter()
            .map(|row| {
                Ok((
                    OutboxKey {
                        channel: row.try_get(0).map_err(err)?,
                        seq: small(row.try_get(1).map_err(err)?),
                    },
                    row.try_get(2).map_err(err)?,
                ))
            })
            .collect()
    }

    /// The one column of the first row, if any.
    fn one<T>(
        &self,
        sql: &'static str,
        params: Vec<Box<dyn ToSql + Send + Sync>>,
    ) -> Result<Option<T>, StorageError>
    where
        T: for<'a> tokio_postgres::types::FromSql<'a>,
    {
        match self.bridge.query(sql, params)?.first() {
            Some(row) => row.try_get(0).map(Some).map_err(err),
            None => Ok(None),
        }
    }

    /// A record stored as JSON bytes.
    fn record<T: serde::de::DeserializeOwned>(
        &self,
        sql: &'static str,
        params: Vec<Box<dyn ToSql + Send + Sync>>,
    ) -> Result<Option<T>, StorageError> {
        self.one::<Vec<u8>>(sql, params)?
            .map(|bytes| decode(&bytes))
            .transpose()
    }

    fn deadlines(
        &self,
        sql: &'static str,
        params: Vec<Box<dyn ToSql + Send + Sync>>,
    ) -> Result<Vec<Deadline>, StorageError> {
        let mut out = Vec::new();
        for row in self.bridge.query(sql, params)? {
            let kind: i16 = row.try_get(2).map_err(err)?;
            // A kind this version does not know (written by a newer one) is left alone.
            let Some(kind) = u8::try_from(kind).ok().and_then(DeadlineKind::from_code) else {
                continue;
            };
            out.push(Deadline {
                at_ms: small(row.try_get(0).map_err(err)?),
                id: small(row.try_get(1).map_err(err)?),
                kind,
                channel: row.try_get::<_, String>(3).map_err(err)?.into(),
            });
        }
        Ok(out)
    }
}

/// The advisory lock under which migrations are applied.
const MIGRATE_LOCK: i64 = 0x5851_4d49_4752_4154; // "XQMIGRAT"

/// Apply the migrations not yet applied, in one transaction.
async fn migrate(client: &mut deadpool_postgres::Object) -> Result<(), StorageError> {
    let tx = client.transaction().await.map_err(err)?;
    // Processes starting together apply each migration once: the first takes this lock (two
    // `CREATE TABLE IF NOT EXISTS` at once can both try to create the table).
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATE_LOCK])
        .await
        .map_err(err)?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS schema_version (
             version integer PRIMARY KEY,
             applied_at timestamptz NOT NULL DEFAULT now()
         );",
    )
    .await
    .map_err(err)?;
    let current: i32 = tx
        .query_one("SELECT coalesce(max(version), 0) FROM schema_version", &[])
        .await
        .and_then(|row| row.try_get(0))
        .map_err(err)?;
    for (version, sql) in MIGRATIONS.iter().filter(|(v, _)| *v > current) {
        tx.batch_execute(sql)
            .await
            .map_err(|e| err(format!("migration {version}: {e}")))?;
        tx.execute(
            "INSERT INTO schema_version (version) VALUES ($1)",
            &[version],
        )
        .await
        .map_err(err)?;
        tracing::info!(version, "database schema migrated");
    }
    tx.commit().await.map_err(err)
}

impl Storage for PgStorage {
    fn puzzle_player(
        &self,
        player: &UserKey,
    ) -> Result<Option<crate::game::PuzzlePlayer>, StorageError> {
        self.record(
            "SELECT record FROM puzzle_players WHERE player = $1",
            params![player.to_string()],
        )
    }

    fn puzzle_standing(
        &self,
        id: &str,
    ) -> Result<Option<crate::game::PuzzleStanding>, StorageError> {
        self.record(
            "SELECT record FROM puzzle_standings WHERE puzzle = $1",
            params![id.to_string()],
        )
    }

    fn review(&self, id: u64) -> Result<Option<ReviewRecord>, StorageError> {
        self.record(
            "SELECT record FROM reviews WHERE game = $1",
            params![big(id)?],
        )
    }

    fn pending_reviews(&self) -> Result<Vec<ReviewRecord>, StorageError> {
        self.bridge
            .query(
                "SELECT record FROM reviews WHERE NOT done ORDER BY game",
                params![],
            )?
            .iter()
            .map(|row| decode(&row.try_get::<_, Vec<u8>>(0).map_err(err)?))
            .collect()
    }

    fn game(&self, id: u64) -> Result<Option<GameRecord>, StorageError> {
        self.record("SELECT record FROM games WHERE id = $1", params![big(id)?])
    }

    fn channel(&self, key: &ChannelKey) -> Result<Option<ChannelRecord>, StorageError> {
        self.record(
            "SELECT record FROM channels WHERE key = $1",
            params![key.to_string()],
        )
    }

    fn user(&self, key: &UserKey) -> Result<Option<UserPrefs>, StorageError> {
        self.record(
            "SELECT record FROM users WHERE key = $1",
            params![key.to_string()],
        )
    }

    fn next_id(&self) -> Result<u64, StorageError> {
        self.one::<i64>("SELECT nextval('ids')", params![])?
            .map(small)
            .ok_or_else(|| err("no id from the sequence"))
    }

    fn next_game_number(&self) -> Result<u64, StorageError> {
        self.number()
    }

    fn persist(&self, changes: Changes) -> BoxFuture<'_, Result<(), StorageError>> {
        Box::pin(async move {
            if changes.is_empty() {
                return Ok(());
            }
            let owner = self.me();
            let stamps = self
                .bridge
                .run(|mut client| async move { write::commit(&mut client, &changes, &owner).await })
                .await?;
            self.stamps.wrote(&stamps);
            Ok(())
        })
    }

    fn next_deadline(&self) -> Result<Option<Deadline>, StorageError> {
        Ok(self
            .deadlines(
                // A deadline another process claimed matters to this one only once the claim
                // lapses.
                "(SELECT at_ms, id, kind, channel FROM deadlines WHERE claimed_until = 0
                  ORDER BY at_ms, id, kind LIMIT 1)
                 UNION ALL
                 (SELECT greatest(at_ms, claimed_until), id, kind, channel FROM deadlines
                  WHERE claimed_until <> 0 ORDER BY 1 LIMIT 1)
                 ORDER BY 1 LIMIT 1",
                params![],
            )?
            .pop())
    }

    fn due_deadlines(&self, now_ms: u64) -> Result<Vec<Deadline>, StorageError> {
        self.deadlines(
            "SELECT at_ms, id, kind, channel FROM deadlines WHERE at_ms <= $1
             ORDER BY at_ms, id, kind",
            params![i64::try_from(now_ms).unwrap_or(i64::MAX)],
        )
    }

    fn all_deadlines(&self) -> Result<Vec<Deadline>, StorageError> {
        self.deadlines(
            "SELECT at_ms, id, kind, channel FROM deadlines ORDER BY at_ms, id, kind",
            params![],
        )
    }

    fn active_games(&self) -> Result<Vec<u64>, StorageError> {
        self.bridge
            .query("SELECT id FROM games WHERE active ORDER BY id", params![])?
            .iter()
            .map(|row| row.try_get(0).map(small).map_err(err))
            .collect()
    }

    fn games_of(&self, user: &UserKey, limit: usize) -> Result<Vec<u64>, StorageError> {
        self.bridge
            .query(
                "SELECT game FROM user_games WHERE player = $1 ORDER BY game DESC LIMIT $2",
                params![user.to_string(), i64::try_from(limit).unwrap_or(i64::MAX)],
            )?
            .iter()
            .map(|row| row.try_get(0).map(small).map_err(err))
            .collect()
    }

    fn meta(&self, key: &str) -> Result<Option<u64>, StorageError> {
        Ok(self
            .one::<i64>(
                "SELECT value FROM meta WHERE key = $1",
                params![key.to_string()],
            )?
            .map(small))
    }

    fn set_meta(&self, key: &str, value: u64) -> Result<(), StorageError> {
        self.bridge
            .query(
                "INSERT INTO meta (key, value) VALUES ($1, $2)
                 ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                params![key.to_string(), big(value)?],
            )
            .map(|_| ())
    }

    fn game_count(&self) -> usize {
        self.one::<i64>("SELECT count(*) FROM games", params![])
            .ok()
            .flatten()
            .and_then(|n| usize::try_from(n).ok())
            .unwrap_or(0)
    }

    fn game_end(&self, id: u64) -> Result<Option<GameEnd>, StorageError> {
        ratings::game_end(self, id)
    }

    fn profile(&self, player: &str) -> Result<Option<Profile>, StorageError> {
        ratings::profile(self, player)
    }

    fn pair(&self, a: &str, b: &str) -> Result<Option<PairRecord>, StorageError> {
        ratings::pair(self, a, b)
    }

    fn rating_history(
        &self,
        player: &str,
        family: Family,
        limit: usize,
    ) -> Result<Vec<HistoryPoint>, StorageError> {
        ratings::history(self, player, family, limit)
    }

    fn leaderboard(
        &self,
        scope: &str,
        family: Family,
        now_ms: u64,
        first: usize,
        visit: &mut dyn FnMut(usize, Entry) -> bool,
    ) -> Result<(), StorageError> {
        crate::storage::ranking::leaderboard(self, scope, family, now_ms, first, visit)
    }

    fn rank(
        &self,
        scope: &str,
        family: Family,
        player: &str,
        rating: f64,
        now_ms: u64,
    ) -> Result<Option<usize>, StorageError> {
        crate::storage::ranking::rank(self, scope, family, player, rating, now_ms)
    }

    fn last_family(&self, scope: &str) -> Result<Option<(Family, u64)>, StorageError> {
        ratings::last_family(self, scope)
    }

    fn alias(&self, handle: &str) -> Result<Option<UserKey>, StorageError> {
        Ok(self
            .one::<String>(
                "SELECT player FROM aliases WHERE handle = $1",
                params![handle.to_string()],
            )?
            .map(UserKey::from))
    }

    fn next_outbox_seq(&self) -> Result<u64, StorageError> {
        // A sequence never hands a number out twice, even once it is rolled back or the
        // process restarts (see the sled storage for why that matters to Discord).
        self.one::<i64>("SELECT nextval('outbox_seq')", params![])?
            .map(small)
            .ok_or_else(|| err("no number from the sequence"))
    }

    fn outbox(&self, prefix: &str) -> Result<Vec<(OutboxKey, Vec<u8>)>, StorageError> {
        // This process's entries, those of processes that died taken over first; entries of
        // live processes are theirs to deliver. `starts_with` on a "C" collation column:
        // byte prefixes, as sled's prefix scan.
        self.adopt(prefix)?;
        self.outbox_rows(
            "SELECT channel, seq, reply FROM outbox WHERE starts_with(channel, $1) AND owner = $2
             ORDER BY channel, seq",
            params![prefix.to_string(), self.me()],
        )
    }

    fn outbox_of(
        &self,
        channel: &ChannelKey,
        after: u64,
        limit: usize,
    ) -> Result<Vec<(OutboxKey, Vec<u8>)>, StorageError> {
        self.outbox_rows(
            "SELECT channel, seq, reply FROM outbox WHERE channel = $1 AND seq > $2 AND owner = $3
             ORDER BY seq LIMIT $4",
            params![
                channel.to_string(),
                i64::try_from(after).unwrap_or(i64::MAX),
                self.me(),
                i64::try_from(limit).unwrap_or(i64::MAX)
            ],
        )
    }

    fn outbox_earlier_elsewhere(&self, key: &OutboxKey) -> Result<bool, StorageError> {
        // Entries of processes that died are not waited for: they are adopted, perhaps by
        // this process, behind the entry that would wait.
        Ok(self
            .one::<i32>(
                "SELECT 1 FROM outbox WHERE channel = $1 AND seq < $2 AND owner <> $3
                   AND owner IN (SELECT id FROM live_processes) LIMIT 1",
                params![
                    key.channel.clone(),
                    i64::try_from(key.seq).unwrap_or(i64::MAX),
                    self.me()
                ],
            )?
            .is_some())
    }

    fn inbox(&self, prefix: &str) -> Result<Vec<(String, Vec<u8>)>, StorageError> {
        self.bridge
            .query(
                "SELECT key, event FROM inbox WHERE starts_with(key, $1) ORDER BY key",
                params![prefix.to_string()],
            )?
            .iter()
            .map(|row| Ok((row.try_get(0).map_err(err)?, row.try_get(1).map_err(err)?)))
            .collect()
    }

    fn seen(&self, id: &str) -> Result<bool, StorageError> {
        Ok(self
            .one::<i32>("SELECT 1 FROM seen WHERE id = $1", params![id.to_string()])?
            .is_some())
    }

    fn forget_seen(&self, before_ms: u64) -> Result<usize, StorageError> {
        let before = i64::try_from(before_ms).unwrap_or(i64::MAX);
        let n = self.bridge.wait(move |client| async move {
            exec(&client, "DELETE FROM seen WHERE at_ms < $1", &[&before])
                .await
                .map_err(err)
        })?;
        Ok(usize::try_from(n).unwrap_or(usize::MAX))
    }

    fn shared(&self) -> bool {
        true
    }

    fn lease<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Option<Lease>, StorageError>> {
        self.take_lease(key)
    }

    fn claim_due(&self, now_ms: u64) -> Result<Vec<Deadline>, StorageError> {
        self.claim(now_ms)
    }

    fn beat(&self, now_ms: u64) -> Result<(), StorageError> {
        self.heartbeat(now_ms)
    }

    fn others_alive(&self) -> Result<Vec<String>, StorageError> {
        self.live_others()
    }

    fn claim_work<'a>(
        &'a self,
        key: &'a str,
    ) -> BoxFuture<'a, Result<Option<Claim>, StorageError>> {
        self.claim_work_row(key)
    }

    fn adopt_outbox(&self, prefix: &str) -> Result<Vec<(OutboxKey, Vec<u8>)>, StorageError> {
        self.adopt(prefix)
    }
}

impl Drop for Bridge {
    /// A process stopping cleanly says so: its outbox entries and game numbers are then
    /// another's at once.
    fn drop(&mut self) {
        let me = std::mem::take(&mut self.process);
        if me.is_empty() {
            return;
        }
        let _ = self.wait(move |client| async move {
            exec(&client, "DELETE FROM processes WHERE id = $1", &[&me])
                .await
                .map_err(err)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::{describe, Bridge};

    /// URLs that hold the password `Zm9v/YmFy` (base64 with a `/`), each way it can be given.
    const WITH_PASSWORD: &[&str] = &[
        "postgres://bot:Zm9v%2FYmFy@db.example:5433/xq",
        "postgres://bot@db.example:5433/xq?password=Zm9v%2FYmFy",
        "postgres://bot@db.example:5433/xq?sslmode=disable&password=Zm9v/YmFy",
        "postgresql://bot:Zm9v/YmFy@db.example:5433/xq",
        "postgres://bot:Zm9v/YmFy@db.example/xq?password=Zm9v/YmFy",
    ];

    fn leaks(shown: &str) -> bool {
        ["Zm9v", "YmFy", "Zm9v%2FYmFy"]
            .iter()
            .any(|part| shown.contains(part))
    }

    #[test]
    fn what_is_shown_is_what_the_driver_read_never_the_password() {
        for url in WITH_PASSWORD {
            let shown = describe(url);
            assert!(!leaks(&shown), "{url}: {shown}");
        }
        assert_eq!(
            describe(WITH_PASSWORD[0]),
            "the database \"xq\" on db.example:5433 as user \"bot\""
        );
        assert_eq!(describe(WITH_PASSWORD[1]), describe(WITH_PASSWORD[0]));
        assert_eq!(
            describe("postgresql://u:p@%2Frun%2Fpg/xq"),
            "the database \"xq\" on /run/pg:5432 as user \"u\""
        );
        assert_eq!(
            describe("postgres://h1:5432,h2:5433/xq?user=bot"),
            "the database \"xq\" on h1:5432, h2:5433 as user \"bot\""
        );
        assert_eq!(
            describe("postgres:///xq"),
            "the database \"xq\" on the local socket as user \"(the system user)\""
        );
    }

    #[test]
    fn a_url_that_does_not_read_is_not_echoed() {
        for url in [
            "postgres://bot:Zm9v/YmFy@db.example:5433:1/xq",
            "postgres://bot:Zm9v/YmFy@db.example:nope/xq",
            "postgres://bot@db/xq?Zm9v=YmFy",
            "postgres://bot@db/xq?port=Zm9vYmFy",
        ] {
            let shown = describe(url);
            assert!(!leaks(&shown), "{url}: {shown}");
            let failed = Bridge::start(url, super::PgPools::default())
                .map(|_| ())
                .unwrap_err()
                .to_string();
            assert!(!leaks(&failed), "{url}: {failed}");
            assert!(failed.contains("DATABASE_URL"), "{failed}");
        }
    }
}
