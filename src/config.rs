//! Everything read from the environment, validated once, with clear errors, into the settings
//! each part declares for itself (the engines' in `uci`, each platform's in its adapter, the
//! service's in `app`, the database's in `storage`): nothing below the command line imports
//! this module, and it re-exports none of them. Tokens are kept in
//! [`Secret`](crate::adapters::Secret), whose `Debug` and `Display` never show them.

use std::collections::HashMap;
use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use crate::adapters::discord::DiscordConfig;
use crate::adapters::telegram::{
    valid_webhook_secret, HookLimits, TelegramConfig, WebhookConfig, MIN_WEBHOOK_SECRET,
};
use crate::adapters::Secret;
use crate::uci::EngineConfig;

use crate::adapters::discord::shards::RegisterCommands;
use crate::app::ServiceConfig;
use crate::engine::uci::Dialect;
use crate::storage::PgPools;
use crate::uci::{EngineSpec, Timeouts};

/// The webhook settings, when `TELEGRAM_WEBHOOK_URL` is set.
fn webhook_config(vars: &HashMap<String, String>) -> Result<Option<WebhookConfig>, ConfigError> {
    let get = |k: &str| var(vars, k);
    let Some(url) = get("TELEGRAM_WEBHOOK_URL") else {
        return Ok(None);
    };
    let parsed = reqwest::Url::parse(&url)
        .ok()
        .filter(|u| matches!(u.scheme(), "https" | "http") && u.host_str().is_some())
        .ok_or_else(|| {
            ConfigError(format!(
                "TELEGRAM_WEBHOOK_URL must be an https:// URL, not {:?}",
                url.chars().take(100).collect::<String>()
            ))
        })?;
    let listen = match get("TELEGRAM_WEBHOOK_LISTEN") {
        None => SocketAddr::from(([0, 0, 0, 0], 8443)),
        Some(a) => a.parse().map_err(|_| {
            ConfigError(format!(
                "TELEGRAM_WEBHOOK_LISTEN must be an address and port such as 0.0.0.0:8443, \
                 not {:?}",
                a.chars().take(100).collect::<String>()
            ))
        })?,
    };
    // Not echoed: it is a secret.
    let secret = match get("TELEGRAM_WEBHOOK_SECRET") {
        Some(s) if valid_webhook_secret(&s) => Secret::new(s),
        Some(_) => {
            return Err(ConfigError(format!(
                "TELEGRAM_WEBHOOK_SECRET must be {MIN_WEBHOOK_SECRET} to 256 characters of A-Z, \
                 a-z, 0-9, _ and - (a shorter one could be guessed); for example the output of \
                 `openssl rand -hex 24`"
            )))
        }
        None => {
            return Err(ConfigError(format!(
                "TELEGRAM_WEBHOOK_SECRET must be set with TELEGRAM_WEBHOOK_URL \
                 ({MIN_WEBHOOK_SECRET} to 256 characters of A-Z, a-z, 0-9, _ and -): every \
                 request is checked against it"
            )))
        }
    };
    let max_connections = number(vars, "TELEGRAM_WEBHOOK_MAX_CONNECTIONS", 40u8)?;
    if !(1..=100).contains(&max_connections) {
        return Err(ConfigError(
            "TELEGRAM_WEBHOOK_MAX_CONNECTIONS must be 1 to 100".into(),
        ));
    }
    let defaults = HookLimits::default();
    let millis = |key: &str, default: Duration| -> Result<Duration, ConfigError> {
        let ms = number(
            vars,
            key,
            u64::try_from(default.as_millis()).unwrap_or(u64::MAX),
        )?;
        if !(100..=600_000).contains(&ms) {
            return Err(ConfigError(format!(
                "{key} must be 100 to 600000 (milliseconds)"
            )));
        }
        Ok(Duration::from_millis(ms))
    };
    let limits = HookLimits {
        header_timeout: millis(
            "TELEGRAM_WEBHOOK_HEADER_TIMEOUT_MS",
            defaults.header_timeout,
        )?,
        body_timeout: millis("TELEGRAM_WEBHOOK_BODY_TIMEOUT_MS", defaults.body_timeout)?,
        connections: number(vars, "TELEGRAM_WEBHOOK_CONNECTIONS", defaults.connections)?,
    };
    if !(usize::from(max_connections)..=65_536).contains(&limits.connections) {
        return Err(ConfigError(format!(
            "TELEGRAM_WEBHOOK_CONNECTIONS must be {max_connections} \
             (TELEGRAM_WEBHOOK_MAX_CONNECTIONS) to 65536"
        )));
    }
    Ok(Some(WebhookConfig {
        path: parsed.path().to_string(),
        url,
        listen,
        secret,
        max_connections,
        limits,
    }))
}

/// The web board's settings.
#[derive(Clone, Debug)]
pub struct WebConfig {
    /// `WEB_LISTEN`: where it listens (`127.0.0.1:8080` in console mode when unset; `off`
    /// turns it off).
    pub listen: std::net::SocketAddr,
    /// Whether `WEB_LISTEN` was set: when it was, a port in use stops the bot; the console's
    /// default only warns.
    pub explicit: bool,
    /// `PUBLIC_URL`: the address players reach (behind the operator's HTTPS proxy); default
    /// `http://` and the listening address.
    pub public_url: String,
    /// `WEB_SECRET` (at least 32 characters): the key links are signed with. Unset: a random
    /// key kept in `DATA_DIR/web-secret`.
    pub secret: Option<Secret>,
    /// `METRICS_TOKEN` (at least 24 characters): `/metrics` answers a request that carries
    /// it as `Authorization: Bearer …`. Unset: `/metrics` is off.
    pub metrics_token: Option<Secret>,
    /// `TELEGRAM_MINI_APP`: the Mini App's direct link registered with BotFather
    /// (`https://t.me/<bot>/<app>`, its address `PUBLIC_URL/tg/app`). Groups cannot open a
    /// Mini App from a button otherwise; without it the *Board* button in a group points to
    /// the private chat.
    pub telegram_app: Option<String>,
    /// `WEB_WATCHERS` (default 384): live streams open at once; the server takes this many
    /// connections and 128 more. Each is a file descriptor: the process's limit
    /// (`ulimit -n`, systemd's `LimitNOFILE`) must be above it.
    pub watchers: usize,
}

/// The web board's settings: on when `WEB_LISTEN` is set (and not `off`), and in console
/// mode (`console`) by default.
fn web_config(
    vars: &HashMap<String, String>,
    console: bool,
) -> Result<Option<WebConfig>, ConfigError> {
    let (listen, explicit) = match var(vars, "WEB_LISTEN") {
        Some(v) if v.eq_ignore_ascii_case("off") => return Ok(None),
        Some(v) => (
            v.parse().map_err(|_| {
                ConfigError(format!(
                    "WEB_LISTEN must be an address and port such as 127.0.0.1:8080, or off; not {v:?}"
                ))
            })?,
            true,
        ),
        None if console => (std::net::SocketAddr::from(([127, 0, 0, 1], 8080)), false),
        None => return Ok(None),
    };
    let public_url = match var(vars, "PUBLIC_URL") {
        None => format!("http://{listen}"),
        Some(u) => {
            let ok = (u.starts_with("https://") || u.starts_with("http://"))
                && u.len() <= 200
                && !u.contains(['?', '#', ' ', '"', '<', '>']);
            if !ok {
                return Err(ConfigError(
                    "PUBLIC_URL must be an http:// or https:// address without ? or # (at most 200 characters)".into(),
                ));
            }
            u.trim_end_matches('/').to_string()
        }
    };
    let secret = match var(vars, "WEB_SECRET") {
        None => None,
        Some(s) if s.len() >= 32 => Some(Secret::new(s)),
        Some(_) => {
            return Err(ConfigError(
                "WEB_SECRET must be at least 32 characters (it signs the web board's links)".into(),
            ))
        }
    };
    let metrics_token = match var(vars, "METRICS_TOKEN") {
        None => None,
        Some(s) if s.len() >= 24 && s.bytes().all(|b| b.is_ascii_graphic()) => Some(Secret::new(s)),
        Some(_) => {
            return Err(ConfigError(
                "METRICS_TOKEN must be at least 24 printable characters without spaces".into(),
            ))
        }
    };
    let telegram_app = match var(vars, "TELEGRAM_MINI_APP") {
        None => None,
        Some(u) => {
            let rest = u.strip_prefix("https://t.me/").unwrap_or("");
            let parts: Vec<&str> = rest.trim_end_matches('/').split('/').collect();
            let name_ok = |p: &str| {
                !p.is_empty()
                    && p.len() <= 64
                    && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            };
            if parts.len() != 2 || !parts.iter().all(|p| name_ok(p)) {
                return Err(ConfigError(
                    "TELEGRAM_MINI_APP must be the Mini App's direct link, https://t.me/<bot>/<app>".into(),
                ));
            }
            Some(format!("https://t.me/{}/{}", parts[0], parts[1]))
        }
    };
    let watchers = match var(vars, "WEB_WATCHERS") {
        None => 384,
        Some(v) => v
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=100_000).contains(n))
            .ok_or_else(|| {
                ConfigError(format!(
                    "WEB_WATCHERS must be a number from 1 to 100000, not {v:?}"
                ))
            })?,
    };
    Ok(Some(WebConfig {
        listen,
        explicit,
        public_url,
        secret,
        metrics_token,
        telegram_app,
        watchers,
    }))
}

/// The whole configuration.
#[derive(Clone, Debug)]
pub struct Config {
    /// `DATA_DIR` (default `./data`).
    pub data_dir: PathBuf,
    /// `DATABASE_URL` (`postgres://…`): store in PostgreSQL instead of sled in `DATA_DIR/db`.
    /// Holds the password: never logged; [`crate::storage::pg::describe`] says what it names.
    pub database_url: Option<Secret>,
    /// `DATABASE_CONNECTIONS`, `DATABASE_LOCK_CONNECTIONS`, `DATABASE_WAIT_MS`: the
    /// PostgreSQL storage's connections.
    pub database_pools: PgPools,
    /// Telegram, when its token is set.
    pub telegram: Option<TelegramConfig>,
    /// Discord, when its token is set.
    pub discord: Option<DiscordConfig>,
    /// Service tuning.
    pub service: ServiceConfig,
    /// The engines.
    pub engine: EngineConfig,
    /// Playing the bot.
    pub bot: BotConfig,
    /// The web board, when it is served.
    pub web: Option<WebConfig>,
}

/// Playing the bot in chat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotConfig {
    /// `ENGINE_THREADS`: searches run at once (default: one per core).
    pub threads: usize,
    /// `BOT_MOVE_CAP_MS`: the longest any bot move may take, whatever its level (unset or 0:
    /// the level's own time). For tests and small machines.
    pub move_cap_ms: Option<u64>,
}

fn bot_config(vars: &HashMap<String, String>) -> Result<BotConfig, ConfigError> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let threads = number(vars, "ENGINE_THREADS", cores)?;
    if !(1..=256).contains(&threads) {
        return Err(ConfigError("ENGINE_THREADS must be 1 to 256".into()));
    }
    let cap = number(vars, "BOT_MOVE_CAP_MS", 0u64)?;
    Ok(BotConfig {
        threads,
        move_cap_ms: Some(cap).filter(|&c| c > 0),
    })
}

/// A setting that cannot be used.
#[derive(Debug, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "configuration error: {}", self.0)
    }
}

impl std::error::Error for ConfigError {}

/// The setting `key`, trimmed; `None` when unset or blank.
fn var(vars: &HashMap<String, String>, key: &str) -> Option<String> {
    vars.get(key)
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

fn number<T: std::str::FromStr>(
    vars: &HashMap<String, String>,
    key: &str,
    default: T,
) -> Result<T, ConfigError> {
    match var(vars, key) {
        None => Ok(default),
        Some(v) => v
            .parse()
            .map_err(|_| ConfigError(format!("{key} must be a number, not {v:?}"))),
    }
}

impl Config {
    /// Read the process environment.
    ///
    /// # Errors
    /// [`ConfigError`] naming the variable at fault.
    pub fn from_env() -> Result<Config, ConfigError> {
        Config::from_vars(&std::env::vars().collect())
    }

    /// Read settings from a map (the environment, or a test's).
    ///
    /// # Errors
    /// [`ConfigError`] naming the variable at fault.
    pub fn from_vars(vars: &HashMap<String, String>) -> Result<Config, ConfigError> {
        let get = |k: &str| var(vars, k);
        let data_dir = PathBuf::from(get("DATA_DIR").unwrap_or_else(|| "./data".into()));
        let database_url = match get("DATABASE_URL") {
            None => None,
            Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
                Some(Secret::new(url))
            }
            Some(_) => {
                // Not echoed: the value may hold a password.
                return Err(ConfigError(
                    "DATABASE_URL must be a postgres:// or postgresql:// URL".into(),
                ));
            }
        };
        let telegram = match get("TELEGRAM_BOT_TOKEN") {
            None => None,
            Some(t) => Some(TelegramConfig {
                token: Secret::new(t),
                api_url: get("TELEGRAM_API_URL"),
                webhook: webhook_config(vars)?,
            }),
        };
        let discord = match get("DISCORD_TOKEN") {
            None => None,
            Some(t) => Some(DiscordConfig {
                answer_within: crate::adapters::discord::ANSWER_WITHIN,
                token: Secret::new(t),
                guild_id: match get("DISCORD_GUILD_ID") {
                    None => None,
                    Some(g) => Some(g.parse().map_err(|_| {
                        ConfigError(format!("DISCORD_GUILD_ID must be a number, not {g:?}"))
                    })?),
                },
                api_url: get("DISCORD_API_URL"),
                tournament_role: match get("DISCORD_TOURNAMENT_ROLE") {
                    None => None,
                    Some(r) => Some(r.parse().map_err(|_| {
                        ConfigError(format!(
                            "DISCORD_TOURNAMENT_ROLE must be a role id (a number), not {r:?}"
                        ))
                    })?),
                },
                shards: match get("DISCORD_SHARDS") {
                    None => None,
                    Some(v) => Some(v.parse().map_err(|e| ConfigError(format!("{e}")))?),
                },
                register_commands: match get("DISCORD_REGISTER_COMMANDS") {
                    None => RegisterCommands::Auto,
                    Some(v) => v.parse().map_err(|e| ConfigError(format!("{e}")))?,
                },
            }),
        };
        let defaults = ServiceConfig::default();
        let service = ServiceConfig {
            challenge_ttl_ms: number(
                vars,
                "CHALLENGE_TIMEOUT_SECS",
                defaults.challenge_ttl_ms / 1000,
            )?
            .max(10)
                * 1000,
            rate_burst: number(vars, "RATE_LIMIT_BURST", defaults.rate_burst)?,
            rate_per_sec: number(vars, "RATE_LIMIT_PER_SEC", defaults.rate_per_sec)?,
            cache_channels: number(vars, "CACHE_CHANNELS", defaults.cache_channels)?,
            idle_claim_ms: number(vars, "IDLE_CLAIM_SECS", defaults.idle_claim_ms / 1000)?
                .saturating_mul(1000),
            puzzle_nodes: number(vars, "PUZZLE_NODES", defaults.puzzle_nodes)?.max(1_000),
            bot_games_per_user: number(vars, "BOT_GAMES_PER_USER", defaults.bot_games_per_user)?
                .max(1),
            // Set once the link key is known (`cli::bot`).
            web: None,
            images: match get("BOARD_IMAGES").as_deref() {
                None | Some("1" | "true" | "on" | "yes") => true,
                Some("0" | "false" | "off" | "no") => false,
                Some(v) => {
                    return Err(ConfigError(format!(
                        "BOARD_IMAGES must be on or off, not {v:?}"
                    )))
                }
            },
        };
        if !(service.rate_per_sec.is_finite() && service.rate_per_sec > 0.0) {
            return Err(ConfigError("RATE_LIMIT_PER_SEC must be above 0".into()));
        }
        Ok(Config {
            data_dir,
            database_url,
            database_pools: database_pools(vars)?,
            service,
            engine: engine_config(vars)?,
            bot: bot_config(vars)?,
            web: web_config(vars, telegram.is_none() && discord.is_none())?,
            telegram,
            discord,
        })
    }
}

/// `DATABASE_CONNECTIONS`, `DATABASE_LOCK_CONNECTIONS`, `DATABASE_WAIT_MS`.
fn database_pools(vars: &HashMap<String, String>) -> Result<PgPools, ConfigError> {
    let defaults = PgPools::default();
    let pools = PgPools {
        connections: number(vars, "DATABASE_CONNECTIONS", defaults.connections)?,
        lock_connections: number(vars, "DATABASE_LOCK_CONNECTIONS", defaults.lock_connections)?,
        wait: Duration::from_millis(number(
            vars,
            "DATABASE_WAIT_MS",
            u64::try_from(defaults.wait.as_millis()).unwrap_or(10_000),
        )?),
    };
    for (key, n) in [
        ("DATABASE_CONNECTIONS", pools.connections),
        ("DATABASE_LOCK_CONNECTIONS", pools.lock_connections),
    ] {
        if !(1..=1000).contains(&n) {
            return Err(ConfigError(format!("{key} must be 1 to 1000")));
        }
    }
    if !(100..=600_000).contains(&pools.wait.as_millis()) {
        return Err(ConfigError(
            "DATABASE_WAIT_MS must be 100 to 600000 (milliseconds)".into(),
        ));
    }
    Ok(pools)
}

/// `ENGINE_COMMAND`, `ENGINE_DIALECT`, `ENGINE_OPTIONS`, `ENGINE_TIMEOUT_MS`, `ENGINE_HASH_MB`.
fn engine_config(vars: &HashMap<String, String>) -> Result<EngineConfig, ConfigError> {
    let get = |k: &str| var(vars, k);
    let hash_mb = number(vars, "ENGINE_HASH_MB", 16usize)?;
    if !(1..=1024).contains(&hash_mb) {
        return Err(ConfigError("ENGINE_HASH_MB must be 1 to 1024".into()));
    }
    let Some(command) = get("ENGINE_COMMAND") else {
        return Ok(EngineConfig {
            external: None,
            hash_mb,
        });
    };
    let dialect = match get("ENGINE_DIALECT").as_deref() {
        None | Some("auto") => None,
        Some(d) => Some(
            d.parse::<Dialect>()
                .map_err(|e| ConfigError(format!("ENGINE_DIALECT: {e} (or auto)")))?,
        ),
    };
    let mut options = Vec::new();
    for item in get("ENGINE_OPTIONS").unwrap_or_default().split(';') {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let (name, value) = item.split_once('=').ok_or_else(|| {
            ConfigError(format!(
                "ENGINE_OPTIONS: {:?} is not NAME=VALUE",
                item.chars().take(40).collect::<String>()
            ))
        })?;
        options.push((name.trim().to_string(), value.trim().to_string()));
    }
    let defaults = Timeouts::default();
    let wait_ms = number(
        vars,
        "ENGINE_TIMEOUT_MS",
        u64::try_from(defaults.handshake.as_millis()).unwrap_or(10_000),
    )?
    .max(100);
    let timeouts = Timeouts {
        handshake: std::time::Duration::from_millis(wait_ms),
        ready: std::time::Duration::from_millis(wait_ms),
        ..defaults
    };
    Ok(EngineConfig {
        external: Some(EngineSpec {
            command,
            dialect,
            options,
            timeouts,
        }),
        hash_mb,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adapters::discord::shards::ShardRange;

    fn vars(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn the_web_board_is_on_in_the_console_and_where_it_is_asked_for() {
        let c = Config::from_vars(&vars(&[])).unwrap();
        let w = c.web.expect("on in console mode");
        assert_eq!(w.listen.to_string(), "127.0.0.1:8080");
        assert!(!w.explicit);
        assert_eq!(w.public_url, "http://127.0.0.1:8080");
        let c = Config::from_vars(&vars(&[("TELEGRAM_BOT_TOKEN", "1:x")])).unwrap();
        assert!(c.web.is_none(), "off on a platform unless asked for");
        let long = "s".repeat(32);
        let c = Config::from_vars(&vars(&[
            ("TELEGRAM_BOT_TOKEN", "1:x"),
            ("WEB_LISTEN", "0.0.0.0:9000"),
            ("PUBLIC_URL", "https://xq.example.org/"),
            ("WEB_SECRET", &long),
            ("METRICS_TOKEN", &"m".repeat(24)),
            ("TELEGRAM_MINI_APP", "https://t.me/xq_bot/board/"),
            ("WEB_WATCHERS", "2000"),
        ]))
        .unwrap();
        let w = c.web.expect("asked for");
        assert!(w.explicit);
        assert_eq!(w.public_url, "https://xq.example.org");
        assert_eq!(w.telegram_app.as_deref(), Some("https://t.me/xq_bot/board"));
        assert_eq!(w.watchers, 2000);
        assert!(
            !format!("{w:?}").contains(&long) && !format!("{w:?}").contains(&"m".repeat(24)),
            "the secrets are never printed"
        );
        assert!(Config::from_vars(&vars(&[("WEB_LISTEN", "off")]))
            .unwrap()
            .web
            .is_none());
        for (k, v) in [
            ("WEB_LISTEN", "8080"),
            ("PUBLIC_URL", "ftp://x"),
            ("PUBLIC_URL", "https://x/?a=1"),
            ("WEB_SECRET", "short"),
            ("METRICS_TOKEN", "short"),
            ("METRICS_TOKEN", "twenty-four characters with spaces"),
            ("TELEGRAM_MINI_APP", "https://t.me/bot"),
            ("TELEGRAM_MINI_APP", "http://t.me/bot/app"),
            ("TELEGRAM_MINI_APP", "https://t.me/bot/app?x=1"),
            ("WEB_WATCHERS", "0"),
            ("WEB_WATCHERS", "many"),
        ] {
            let e = Config::from_vars(&vars(&[(k, v)])).unwrap_err();
            assert!(e.0.contains(k), "{e}");
        }
    }

    #[test]
    fn defaults_and_secrets() {
        let c = Config::from_vars(&vars(&[])).unwrap();
        assert_eq!(c.data_dir, PathBuf::from("./data"));
        assert_eq!(
            c.service.idle_claim_ms,
            24 * 3600 * 1000,
            "a day by default"
        );
        let c = Config::from_vars(&vars(&[("IDLE_CLAIM_SECS", "0")])).unwrap();
        assert_eq!(c.service.idle_claim_ms, 0, "off");
        assert!(c.telegram.is_none() && c.discord.is_none());
        let c = Config::from_vars(&vars(&[
            ("TELEGRAM_BOT_TOKEN", "123:SECRET"),
            ("DISCORD_TOKEN", "abc.SECRET"),
            ("DISCORD_GUILD_ID", "42"),
        ]))
        .unwrap();
        let shown = format!("{c:?}");
        assert!(!shown.contains("SECRET"), "{shown}");
        assert_eq!(c.discord.as_ref().and_then(|d| d.guild_id), Some(42));
        assert_eq!(
            c.discord.as_ref().and_then(|d| d.shards),
            None,
            "one process"
        );
        assert_eq!(
            c.telegram.as_ref().map(|t| t.token.expose()),
            Some("123:SECRET")
        );
    }

    #[test]
    fn a_database_url_picks_postgres_and_is_never_shown() {
        assert!(Config::from_vars(&vars(&[]))
            .unwrap()
            .database_url
            .is_none());
        let url = "postgres://bot:hunter2@db:5432/xq";
        let c = Config::from_vars(&vars(&[("DATABASE_URL", url)])).unwrap();
        assert_eq!(c.database_url.as_ref().map(Secret::expose), Some(url));
        assert!(!format!("{c:?}").contains("hunter2"));
        assert_eq!(c.database_pools, PgPools::default());
        for url in [
            "postgres://bot:Zm9v%2FYmFy@db/xq",
            "postgres://bot@db/xq?password=Zm9v/YmFy",
        ] {
            let c = Config::from_vars(&vars(&[("DATABASE_URL", url)])).unwrap();
            assert!(!format!("{c:?}").contains("Zm9v"), "{c:?}");
        }
        let c = Config::from_vars(&vars(&[
            ("DATABASE_LOCK_CONNECTIONS", "2"),
            ("DATABASE_WAIT_MS", "500"),
        ]))
        .unwrap();
        assert_eq!(c.database_pools.lock_connections, 2);
        assert_eq!(c.database_pools.wait, Duration::from_millis(500));
        for (k, v) in [
            ("DATABASE_LOCK_CONNECTIONS", "0"),
            ("DATABASE_CONNECTIONS", "many"),
            ("DATABASE_WAIT_MS", "5"),
        ] {
            let e = Config::from_vars(&vars(&[(k, v)])).unwrap_err();
            assert!(e.0.contains(k), "{e}");
        }
        let e =
            Config::from_vars(&vars(&[("DATABASE_URL", "mysql://bot:hunter2@db/xq")])).unwrap_err();
        assert!(
            e.0.contains("DATABASE_URL") && !e.0.contains("hunter2"),
            "{e:?}"
        );
    }

    #[test]
    fn bad_values_are_named() {
        let e = Config::from_vars(&vars(&[
            ("DISCORD_TOKEN", "x"),
            ("DISCORD_GUILD_ID", "abc"),
        ]))
        .unwrap_err();
        assert!(e.0.contains("DISCORD_GUILD_ID"));
        let e = Config::from_vars(&vars(&[
            ("DISCORD_TOKEN", "x"),
            ("DISCORD_TOURNAMENT_ROLE", "organisers"),
        ]))
        .unwrap_err();
        assert!(e.0.contains("DISCORD_TOURNAMENT_ROLE"));
        let e = Config::from_vars(&vars(&[("RATE_LIMIT_BURST", "-1")])).unwrap_err();
        assert!(e.0.contains("RATE_LIMIT_BURST"));
        let e = Config::from_vars(&vars(&[("BOARD_IMAGES", "maybe")])).unwrap_err();
        assert!(e.0.contains("BOARD_IMAGES"));
        let e = Config::from_vars(&vars(&[("IDLE_CLAIM_SECS", "1d")])).unwrap_err();
        assert!(e.0.contains("IDLE_CLAIM_SECS"));
    }

    #[test]
    fn webhook_settings() {
        let tg = |extra: &[(&str, &str)]| {
            let mut v = vars(&[("TELEGRAM_BOT_TOKEN", "1:T")]);
            v.extend(vars(extra));
            Config::from_vars(&v).map(|c| c.telegram.and_then(|t| t.webhook))
        };
        const GOOD: &str = "a_secret_of_24_characters";
        assert!(tg(&[]).unwrap().is_none(), "long polling when unset");
        let w = tg(&[
            ("TELEGRAM_WEBHOOK_URL", "https://bot.example.org/tg/hook"),
            ("TELEGRAM_WEBHOOK_SECRET", "s3cret_TOKEN-x_long_enough_24"),
        ])
        .unwrap()
        .unwrap();
        assert_eq!(w.path, "/tg/hook");
        assert_eq!(w.listen, SocketAddr::from(([0, 0, 0, 0], 8443)));
        assert_eq!(w.max_connections, 40);
        assert!(!format!("{w:?}").contains("s3cret"), "{w:?}");
        let w = tg(&[
            ("TELEGRAM_WEBHOOK_URL", "https://bot.example.org/tg/hook"),
            ("TELEGRAM_WEBHOOK_SECRET", GOOD),
            ("TELEGRAM_WEBHOOK_HEADER_TIMEOUT_MS", "500"),
            ("TELEGRAM_WEBHOOK_BODY_TIMEOUT_MS", "2000"),
            ("TELEGRAM_WEBHOOK_CONNECTIONS", "40"),
        ])
        .unwrap()
        .unwrap();
        assert_eq!(
            w.limits,
            HookLimits {
                header_timeout: Duration::from_millis(500),
                body_timeout: Duration::from_secs(2),
                connections: 40,
            }
        );
        let w = tg(&[
            ("TELEGRAM_WEBHOOK_URL", "http://127.0.0.1:9000"),
            ("TELEGRAM_WEBHOOK_SECRET", GOOD),
            ("TELEGRAM_WEBHOOK_LISTEN", "127.0.0.1:9001"),
            ("TELEGRAM_WEBHOOK_MAX_CONNECTIONS", "100"),
        ])
        .unwrap()
        .unwrap();
        assert_eq!((w.path.as_str(), w.max_connections), ("/", 100));
        assert_eq!(w.limits, HookLimits::default());
        assert_eq!(w.listen, SocketAddr::from(([127, 0, 0, 1], 9001)));
        let url = ("TELEGRAM_WEBHOOK_URL", "https://bot.example.org/hook");
        for (extra, named) in [
            (vec![url], "TELEGRAM_WEBHOOK_SECRET"),
            (
                vec![url, ("TELEGRAM_WEBHOOK_SECRET", "has space")],
                "TELEGRAM_WEBHOOK_SECRET",
            ),
            // Telegram takes it, but it is short enough to guess.
            (
                vec![url, ("TELEGRAM_WEBHOOK_SECRET", "has_space_23_characters")],
                "TELEGRAM_WEBHOOK_SECRET",
            ),
            (
                vec![
                    url,
                    ("TELEGRAM_WEBHOOK_SECRET", GOOD),
                    ("TELEGRAM_WEBHOOK_HEADER_TIMEOUT_MS", "10"),
                ],
                "TELEGRAM_WEBHOOK_HEADER_TIMEOUT_MS",
            ),
            (
                vec![
                    url,
                    ("TELEGRAM_WEBHOOK_SECRET", GOOD),
                    ("TELEGRAM_WEBHOOK_BODY_TIMEOUT_MS", "soon"),
                ],
                "TELEGRAM_WEBHOOK_BODY_TIMEOUT_MS",
            ),
            (
                vec![
                    url,
                    ("TELEGRAM_WEBHOOK_SECRET", GOOD),
                    ("TELEGRAM_WEBHOOK_CONNECTIONS", "39"),
                ],
                "TELEGRAM_WEBHOOK_CONNECTIONS",
            ),
            (
                vec![
                    ("TELEGRAM_WEBHOOK_URL", "ftp://x/y"),
                    ("TELEGRAM_WEBHOOK_SECRET", GOOD),
                ],
                "TELEGRAM_WEBHOOK_URL",
            ),
            (
                vec![
                    url,
                    ("TELEGRAM_WEBHOOK_SECRET", GOOD),
                    ("TELEGRAM_WEBHOOK_LISTEN", "8443"),
                ],
                "TELEGRAM_WEBHOOK_LISTEN",
            ),
            (
                vec![
                    url,
                    ("TELEGRAM_WEBHOOK_SECRET", GOOD),
                    ("TELEGRAM_WEBHOOK_MAX_CONNECTIONS", "0"),
                ],
                "TELEGRAM_WEBHOOK_MAX_CONNECTIONS",
            ),
        ] {
            let e = tg(&extra).unwrap_err();
            assert!(e.0.contains(named), "{named}: {e}");
            assert!(!e.0.contains("has space"), "the secret is not echoed: {e}");
            assert!(!e.0.contains("has_space"), "the secret is not echoed: {e}");
        }
    }

    #[test]
    fn webhook_secrets_are_what_telegram_accepts() {
        assert!(valid_webhook_secret(&"AZaz09_-".repeat(3)));
        assert!(
            !valid_webhook_secret("a"),
            "Telegram takes it, but it is guessed at once"
        );
        assert!(!valid_webhook_secret(&"x".repeat(MIN_WEBHOOK_SECRET - 1)));
        assert!(valid_webhook_secret(&"x".repeat(256)));
        assert!(!valid_webhook_secret(""));
        assert!(!valid_webhook_secret(&"x".repeat(257)));
        for bad in ["a b", "a/b", "é", "a+b", "a=b", "a.b"] {
            let bad = format!("{bad}{}", "x".repeat(MIN_WEBHOOK_SECRET));
            assert!(!valid_webhook_secret(&bad), "{bad}");
        }
    }

    proptest::proptest! {
        #[test]
        fn a_secret_is_valid_exactly_when_telegram_takes_it_and_it_is_long(s in "\\PC{0,300}") {
            let telegram_takes = (MIN_WEBHOOK_SECRET..=256).contains(&s.len())
                && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            proptest::prop_assert_eq!(valid_webhook_secret(&s), telegram_takes);
        }

        #[test]
        fn allowed_secrets_are_valid(s in "[A-Za-z0-9_-]{24,256}") {
            proptest::prop_assert!(valid_webhook_secret(&s));
        }
    }

    #[test]
    fn engine_settings() {
        let c = Config::from_vars(&vars(&[])).unwrap();
        assert_eq!(c.engine, EngineConfig::default());
        let c = Config::from_vars(&vars(&[
            ("ENGINE_COMMAND", " /usr/games/fairy-stockfish "),
            ("ENGINE_DIALECT", "fairy"),
            ("ENGINE_OPTIONS", "Hash=64; Threads = 1;"),
            ("ENGINE_TIMEOUT_MS", "2500"),
            ("ENGINE_HASH_MB", "32"),
        ]))
        .unwrap();
        let spec = c.engine.external.unwrap();
        assert_eq!(spec.command, "/usr/games/fairy-stockfish");
        assert_eq!(spec.dialect, Some(Dialect::Fairy));
        assert_eq!(
            spec.options,
            [("Hash".into(), "64".into()), ("Threads".into(), "1".into())]
        );
        assert_eq!(spec.timeouts.handshake.as_millis(), 2500);
        assert_eq!(c.engine.hash_mb, 32);
        for (k, v) in [
            ("ENGINE_DIALECT", "klingon"),
            ("ENGINE_OPTIONS", "Hash"),
            ("ENGINE_TIMEOUT_MS", "soon"),
        ] {
            let e = Config::from_vars(&vars(&[("ENGINE_COMMAND", "x"), (k, v)])).unwrap_err();
            assert!(e.0.contains(k), "{e}");
        }
        let e = Config::from_vars(&vars(&[("ENGINE_HASH_MB", "0")])).unwrap_err();
        assert!(e.0.contains("ENGINE_HASH_MB"));
    }

    #[test]
    fn discord_shards() {
        let dc = |pairs: &[(&str, &str)]| {
            let mut all = vec![("DISCORD_TOKEN", "abc")];
            all.extend_from_slice(pairs);
            Config::from_vars(&vars(&all)).map(|c| c.discord.unwrap())
        };
        let d = dc(&[("DISCORD_SHARDS", "1-2/4")]).unwrap();
        assert_eq!(d.shards, ShardRange::new(1, 2, 4));
        assert_eq!(d.register_commands, RegisterCommands::Auto);
        let d = dc(&[("DISCORD_REGISTER_COMMANDS", "never")]).unwrap();
        assert_eq!(d.register_commands, RegisterCommands::Never);
        let e = dc(&[("DISCORD_SHARDS", "2-1/4")]).unwrap_err();
        assert!(
            e.0.contains("DISCORD_SHARDS") && e.0.contains("2-1/4"),
            "{e}"
        );
        let e = dc(&[("DISCORD_SHARDS", "0-1/1")]).unwrap_err();
        assert!(e.0.contains("TOTAL-1"), "{e}");
        let e = dc(&[("DISCORD_REGISTER_COMMANDS", "maybe")]).unwrap_err();
        assert!(e.0.contains("DISCORD_REGISTER_COMMANDS"), "{e}");
    }
}
