//! A PostgreSQL database for tests, never a mock: `TEST_DATABASE_URL` when set, otherwise a
//! throwaway cluster started from Debian's binaries (`/usr/lib/postgresql/*/bin`) in a
//! temporary directory, on a free port, as the `postgres` user when the tests run as root.
//!
//! One server per test binary (started on first use); each test gets its own schema on it
//! (through `search_path` in its URL), so tests run side by side and a test that reopens its
//! storage finds its own tables. The cluster is stopped and its directory removed when the
//! test binary exits, by a small watcher process (a `static` is never dropped), or on `Drop`
//! of a [`Cluster`] made on its own.
//!
//! With no PostgreSQL to be found, [`database`] prints a loud line and gives `None` (the test
//! skips); with `REQUIRE_POSTGRES=1` (set by `.ci/run`) it panics instead.

#![allow(dead_code)]

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

/// One test's database: a schema of its own on the binary's server. Dropped with the value.
pub struct TestDb {
    /// The URL to connect with (`search_path` set to the schema).
    pub url: String,
    /// The URL of the server's database without the schema (to create and drop it).
    admin: String,
    schema: String,
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let _ = run_sql(
            &self.admin,
            &format!("DROP SCHEMA IF EXISTS {} CASCADE", self.schema),
        );
    }
}

/// A fresh, empty database for `test`; `None` (after a loud line on standard error) when no
/// PostgreSQL can be had and `REQUIRE_POSTGRES=1` is not set.
///
/// # Panics
/// When no PostgreSQL can be had and `REQUIRE_POSTGRES=1` is set, or the server fails.
#[must_use]
pub fn database(test: &str) -> Option<TestDb> {
    static SERVER: OnceLock<Result<Server, String>> = OnceLock::new();
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let admin = match SERVER.get_or_init(Server::start) {
        Ok(server) => server.url(),
        Err(why) => {
            assert!(
                std::env::var("REQUIRE_POSTGRES").as_deref() != Ok("1"),
                "REQUIRE_POSTGRES=1 but no PostgreSQL for {test}: {why}"
            );
            eprintln!(
                "\n*** SKIPPED {test}: no PostgreSQL ({why}). Install Debian's `postgresql` or \
                 set TEST_DATABASE_URL; REQUIRE_POSTGRES=1 makes this a failure. ***\n"
            );
            return None;
        }
    };
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let tail: String = test
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .take(30)
        .collect();
    let schema = format!("t{}_{n}_{tail}", std::process::id()).to_ascii_lowercase();
    if let Err(e) = run_sql(&admin, &format!("CREATE SCHEMA {schema}")) {
        panic!("cannot create the schema for {test} on the test server: {e}");
    }
    let sep = if admin.contains('?') { '&' } else { '?' };
    Some(TestDb {
        url: format!("{admin}{sep}options=-c%20search_path%3D{schema}"),
        admin,
        schema,
    })
}

enum Server {
    External(String),
    Cluster(Cluster),
}

impl Server {
    fn start() -> Result<Server, String> {
        if let Ok(url) = std::env::var("TEST_DATABASE_URL") {
            if !url.is_empty() {
                return Ok(Server::External(url));
            }
        }
        let cluster = Cluster::start()?;
        cluster.stop_when_this_process_exits()?;
        Ok(Server::Cluster(cluster))
    }

    fn url(&self) -> String {
        match self {
            Server::External(url) => url.clone(),
            Server::Cluster(c) => c.url.clone(),
        }
    }
}

/// A throwaway cluster: `initdb` in a temporary directory, started on a free port with its
/// unix socket in that directory. Stopped (and the directory removed) on drop.
pub struct Cluster {
    /// Connects as the superuser `postgres` to the database `postgres`, over TCP.
    pub url: String,
    dir: tempfile::TempDir,
    bin: PathBuf,
    as_postgres: bool,
}

impl Cluster {
    /// Start one.
    ///
    /// # Errors
    /// When the binaries are missing or `initdb`/`pg_ctl` fail (the message says which).
    pub fn start() -> Result<Cluster, String> {
        let bin = binaries().ok_or("no /usr/lib/postgresql/*/bin/initdb")?;
        let as_postgres = std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0);
        let dir = tempfile::Builder::new()
            .prefix("xq-pg-")
            .tempdir()
            .map_err(|e| format!("temporary directory: {e}"))?;
        if as_postgres {
            // initdb refuses to run as root; the server's files belong to `postgres`.
            let chown = Command::new("chown")
                .arg("postgres:postgres")
                .arg(dir.path())
                .status()
                .map_err(|e| format!("chown: {e}"))?;
            if !chown.success() {
                return Err("cannot give the temporary directory to the postgres user".into());
            }
        }
        let data = dir.path().join("data");
        let mut cluster = Cluster {
            url: String::new(),
            dir,
            bin,
            as_postgres,
        };
        cluster.run(
            "initdb",
            &[
                "-D".as_ref(),
                data.as_os_str(),
                "-U".as_ref(),
                "postgres".as_ref(),
                "-A".as_ref(),
                "trust".as_ref(),
                "-E".as_ref(),
                "UTF8".as_ref(),
                "--locale=C".as_ref(),
                "--no-sync".as_ref(),
            ],
        )?;
        // A free port may be taken between looking and starting: try a few.
        let mut last = String::new();
        for _ in 0..5 {
            let port = free_port()?;
            // Tests do not survive the machine's crash, so they skip fsync (faster on a
            // shared disk); benches set TEST_PG_FSYNC=1 to time durable commits.
            let durability = if std::env::var("TEST_PG_FSYNC").as_deref() == Ok("1") {
                ""
            } else {
                "-c fsync=off -c full_page_writes=off"
            };
            let options = format!(
                "-p {port} -k {} -c listen_addresses=127.0.0.1 {durability} \
                 -c max_connections=200",
                cluster.dir.path().display()
            );
            let log = cluster.dir.path().join("server.log");
            match cluster.run(
                "pg_ctl",
                &[
                    "-D".as_ref(),
                    data.as_os_str(),
                    "-l".as_ref(),
                    log.as_os_str(),
                    "-o".as_ref(),
                    options.as_ref(),
                    "-w".as_ref(),
                    "start".as_ref(),
                ],
            ) {
                Ok(()) => {
                    cluster.url = format!("postgres://postgres@127.0.0.1:{port}/postgres");
                    return Ok(cluster);
                }
                Err(e) => {
                    last = format!(
                        "{e}; log: {}",
                        std::fs::read_to_string(&log).unwrap_or_default()
                    );
                }
            }
        }
        Err(format!("the test cluster does not start: {last}"))
    }

    /// The data directory.
    #[must_use]
    pub fn data_dir(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn command(&self, tool: &str) -> Command {
        let path = self.bin.join(tool);
        if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(path);
            c
        } else {
            Command::new(path)
        }
    }

    fn run(&self, tool: &str, args: &[&std::ffi::OsStr]) -> Result<(), String> {
        // No inherited output: the server must not hold the test runner's pipes open.
        let out = self
            .command(tool)
            .args(args)
            .current_dir(self.dir.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .map_err(|e| format!("{tool}: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "{tool} failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ))
        }
    }

    /// A watcher that stops the server and removes its directory once this process is gone.
    fn stop_when_this_process_exits(&self) -> Result<(), String> {
        let stop = format!(
            "{} {} -D {} stop -m immediate",
            if self.as_postgres {
                "runuser -u postgres --"
            } else {
                ""
            },
            self.bin.join("pg_ctl").display(),
            self.data_dir().display()
        );
        let script = format!(
            "while kill -0 {pid} 2>/dev/null; do sleep 0.5; done; {stop}; rm -rf {dir}",
            pid = std::process::id(),
            dir = self.dir.path().display()
        );
        Command::new("sh")
            .args(["-c", &script])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map(|_| ())
            .map_err(|e| format!("watcher: {e}"))
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let data = self.data_dir();
        let _ = self.run(
            "pg_ctl",
            &[
                "-D".as_ref(),
                data.as_os_str(),
                "stop".as_ref(),
                "-m".as_ref(),
                "immediate".as_ref(),
            ],
        );
    }
}

/// The newest installed `/usr/lib/postgresql/<version>/bin` that has `initdb`.
fn binaries() -> Option<PathBuf> {
    let root = Path::new("/usr/lib/postgresql");
    let mut best: Option<(u32, PathBuf)> = None;
    for entry in std::fs::read_dir(root).ok()?.flatten() {
        let version = entry.file_name().to_string_lossy().parse::<u32>().ok();
        let bin = entry.path().join("bin");
        if let Some(v) = version {
            if bin.join("initdb").exists() && best.as_ref().is_none_or(|(b, _)| v > *b) {
                best = Some((v, bin));
            }
        }
    }
    best.map(|(_, bin)| bin)
}

fn free_port() -> Result<u16, String> {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| format!("no free port: {e}"))
}

/// Run `sql` on `url` (on a thread of its own: callers may be inside a tokio runtime).
fn run_sql(url: &str, sql: &str) -> Result<(), String> {
    let (url, sql) = (url.to_string(), sql.to_string());
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        runtime.block_on(async {
            let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
                .await
                .map_err(|e| e.to_string())?;
            let connection = tokio::spawn(connection);
            let done = client.batch_execute(&sql).await.map_err(|e| {
                e.as_db_error()
                    .map_or_else(|| e.to_string(), |d| d.message().to_string())
            });
            drop(client);
            let _ = connection.await;
            done
        })
    })
    .join()
    .unwrap_or_else(|_| Err("the SQL thread panicked".into()))
}

impl TestDb {
    /// The schema this test's tables live in.
    #[must_use]
    pub fn schema(&self) -> &str {
        &self.schema
    }

    /// Run `sql` (several statements) in this test's database.
    ///
    /// # Errors
    /// The server's message when a statement fails.
    pub fn execute(&self, sql: &str) -> Result<(), String> {
        run_sql(&self.url, sql)
    }
}
