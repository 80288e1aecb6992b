//! Discord's settings (read from the environment by `config`).

use super::shards::{RegisterCommands, ShardRange};
use crate::adapters::Secret;

/// Discord settings.
#[derive(Clone, Debug)]
pub struct DiscordConfig {
    /// `DISCORD_TOKEN`.
    pub token: Secret,
    /// `DISCORD_GUILD_ID`: register commands to this guild (fast) instead of globally.
    pub guild_id: Option<u64>,
    /// `DISCORD_API_URL`: talk to another Discord-compatible server (tests).
    pub api_url: Option<String>,
    /// `DISCORD_SHARDS=FIRST-LAST/TOTAL`: run only these shards in this process; `None`: one
    /// process for the whole bot (one shard).
    pub shards: Option<ShardRange>,
    /// `DISCORD_REGISTER_COMMANDS` (auto, always, never): whether this process registers the
    /// slash commands; auto: the process that runs shard 0.
    pub register_commands: RegisterCommands,
}
