//! Discord's settings (read from the environment by `config`).

use std::time::Duration;

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
    /// How long the service may take before a slash command is deferred for everyone
    /// ("thinking…"): Discord wants a first answer within 3 seconds of the interaction, so
    /// [`ANSWER_WITHIN`] leaves room for the deferral's own round trip. Not an operator's
    /// setting (nothing reads it from the environment); tests lengthen it so that a loaded
    /// machine does not change which of the two answers they see, and set it to zero to
    /// defer every command before the service runs (the slow path, every time).
    pub answer_within: Duration,
    /// `DISCORD_TOURNAMENT_ROLE`: a role (its id) whose members may make, start and call off
    /// the server's tournaments, besides those with Manage Server.
    pub tournament_role: Option<u64>,
}

/// The default of [`DiscordConfig::answer_within`].
pub const ANSWER_WITHIN: Duration = Duration::from_millis(1500);
