//! The Discord adapter, on serenity: slash commands, buttons and select menus in, boards as
//! PNG attachments in embeds out. It only translates between Discord and the chat service
//! ([`crate::app::Service`]); games, rules, clocks and languages live there.
//!
//! * Channels are `dc:{channel_id}` (a thread is its own channel, with its own game), users
//!   `dc:{user_id}`; a server is `dc:g:{guild_id}` (its leaderboard).
//! * Slash commands mirror the service's commands (`/play`, `/move`, …, see `commands.rs`); they
//!   are registered to `DISCORD_GUILD_ID` when set (instant updates), otherwise globally, by
//!   one process of a sharded bot (`shards.rs`: `DISCORD_SHARDS` runs a range of shards here).
//! * Buttons and menu entries carry the service's encoded [`crate::app::Action`] (game id and
//!   ply) as their custom id, so a stale click is refused and old messages keep working after
//!   a restart: the adapter keeps no state of its own.
//! * Bare moves typed in a channel are read when the Message Content intent is enabled for the
//!   bot; without it the adapter falls back to slash commands, buttons, and messages that
//!   mention the bot.
//! * The service's unsolicited messages (a flag fell, a challenge lapsed, a time warning) are
//!   posted to their channel.
//! * Replies go out through delivery lanes (`delivery.rs`), one per channel, from the
//!   service's outbox (stored with the change that made them) or directly; their calls are
//!   made over HTTP by the adapter itself (`rest.rs`), which retries rate limits and server
//!   errors on its own, in production as in the tests.
//!
//! In production serenity's ratelimiter paces serenity's own requests (registration, the
//! acknowledgement of clicks). `DISCORD_API_URL` (tests) points serenity at another server
//! through its proxy setting, which requires the ratelimiter off.

mod answering;
mod commands;
mod delivery;
mod interactions;
mod rest;
mod retry;
mod send;
mod settings;
pub mod shards;
mod tracking;

use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serenity::all::{
    ChannelId, ClientBuilder, Command, ConnectionStage, Context, EventHandler, GatewayError,
    GatewayIntents, GuildId, Http, HttpBuilder, Interaction, Message, Ready, ShardStageUpdateEvent,
    User,
};
use serenity::async_trait;
use tokio::sync::watch;

use crate::adapters::lanes::RetryPolicy;
use crate::app::Service;
use crate::game::PlayerRef;
use crate::platform::{ChannelKey, Platform};
use delivery::{Deliverer, Discord};
pub use settings::{DiscordConfig, ANSWER_WITHIN};

/// How long a game's thread stays open without messages, in minutes (a week: Discord's
/// longest), whether `/play thread:True` or a tournament's pairing opened it.
pub(crate) const THREAD_ARCHIVE_MINUTES: u16 = 10_080;

/// The service's channel key for a Discord channel or thread.
#[must_use]
pub fn channel_key(channel: ChannelId) -> ChannelKey {
    ChannelKey::on(Platform::Discord, channel)
}

/// The leaderboard scope of a Discord server: `dc:g:{guild_id}` (every channel and thread of
/// the server shares it).
#[must_use]
pub fn community_key(guild: GuildId) -> String {
    Platform::Discord.key(format!("g:{guild}"))
}

/// The Discord channel of a service channel key, if it is one.
#[must_use]
pub fn channel_of(key: &str) -> Option<ChannelId> {
    let id: u64 = Platform::Discord.rest(key)?.parse().ok()?;
    (id != 0).then(|| ChannelId::new(id))
}

/// A Discord user as a player: `dc:{id}`, named by their server nickname, else their display
/// name, else their user name.
#[must_use]
pub fn player(user: &User, nick: Option<&str>) -> PlayerRef {
    let name = nick
        .or(user.global_name.as_deref())
        .unwrap_or(user.name.as_str());
    PlayerRef::new(Platform::Discord.key(user.id), name)
}

/// The gateway events the bot asks for. Message Content is privileged: it must be enabled in
/// the developer portal, and is dropped (with a warning) when Discord refuses it.
fn intents(message_content: bool) -> GatewayIntents {
    let base =
        GatewayIntents::GUILDS | GatewayIntents::GUILD_MESSAGES | GatewayIntents::DIRECT_MESSAGES;
    if message_content {
        base | GatewayIntents::MESSAGE_CONTENT
    } else {
        base
    }
}

/// serenity's HTTP client: the real Discord with its ratelimiter, or (`DISCORD_API_URL`) a
/// Discord-compatible server. serenity's proxy setting replaces `https://discord.com` in every
/// URL, and is ignored by the ratelimiter, which is therefore off then.
fn http_for(config: &DiscordConfig) -> Http {
    let builder = HttpBuilder::new(config.token.expose());
    match config.api_url.as_deref() {
        Some(url) => builder
            .proxy(url.trim_end_matches('/'))
            .ratelimiter_disabled(true)
            .build(),
        None => builder.build(),
    }
}

/// The event handler serenity calls (each event on its own task).
pub(crate) struct Handler {
    service: Arc<Service>,
    delivery: Deliverer,
    guild: Option<GuildId>,
    me: AtomicU64,
    /// Whether this process registers the slash commands (`DISCORD_REGISTER_COMMANDS`; by
    /// default the process running shard 0).
    registers: bool,
    /// Commands are registered on the first READY only: a new session after a dropped
    /// connection brings another READY, and so does every shard of this process.
    registered: AtomicBool,
    /// [`DiscordConfig::answer_within`].
    answer_within: Duration,
    /// [`DiscordConfig::tournament_role`].
    tournament_role: Option<u64>,
}

/// The storage meta key remembering where the commands were last registered: a guild id, or
/// 0 for global.
const COMMANDS_META: &str = "discord_commands_at";

impl Handler {
    fn bot_id(&self) -> u64 {
        self.me.load(Ordering::Relaxed)
    }

    /// After switching between global and guild registration (setting or unsetting
    /// `DISCORD_GUILD_ID`), remove the commands left where they were registered before, so
    /// players never see every command twice.
    async fn clear_old_commands(&self, http: &Http) {
        let storage = self.service.storage();
        let now = self.guild.map_or(0, GuildId::get);
        let before = match storage.meta(COMMANDS_META) {
            Ok(b) => b,
            Err(e) => {
                tracing::warn!(error = %e, "cannot read where commands were registered");
                return;
            }
        };
        if let Some(old) = before.filter(|&b| b != now) {
            let cleared = if old == 0 {
                Command::set_global_commands(http, Vec::new()).await
            } else {
                GuildId::new(old).set_commands(http, Vec::new()).await
            };
            match cleared {
                Ok(_) => tracing::info!(guild = old, "old slash commands removed (0: global)"),
                Err(e) => {
                    tracing::warn!(error = %e, guild = old, "cannot remove the old slash commands");
                    return;
                }
            }
        }
        if before != Some(now) {
            if let Err(e) = storage.set_meta(COMMANDS_META, now) {
                tracing::warn!(error = %e, "cannot store where commands are registered");
            }
        }
    }
}

#[async_trait]
impl EventHandler for Handler {
    async fn shard_stage_update(&self, _ctx: Context, event: ShardStageUpdateEvent) {
        self.service.connected(
            crate::platform::Platform::Discord,
            event.new == ConnectionStage::Connected,
        );
    }

    async fn ready(&self, ctx: Context, ready: Ready) {
        self.me.store(ready.user.id.get(), Ordering::Relaxed);
        self.service
            .connected(crate::platform::Platform::Discord, true);
        tracing::info!(
            user = %ready.user.name,
            guilds = ready.guilds.len(),
            shard = ?ready.shard.map(|s| (s.id.0, s.total)),
            "connected to Discord"
        );
        if !self.registers || self.registered.swap(true, Ordering::SeqCst) {
            return;
        }
        let defs = commands::definitions();
        let registered = match self.guild {
            Some(g) => g.set_commands(&ctx.http, defs).await,
            None => Command::set_global_commands(&ctx.http, defs).await,
        };
        match registered {
            Ok(list) => {
                tracing::info!(
                    commands = list.len(),
                    guild = ?self.guild.map(GuildId::get),
                    "slash commands registered"
                );
                self.clear_old_commands(&ctx.http).await;
            }
            Err(e) => {
                tracing::error!(error = %e, "cannot register the slash commands");
                // Try again on the next READY.
                self.registered.store(false, Ordering::SeqCst);
            }
        }
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        let http = ctx.http.as_ref();
        match &interaction {
            Interaction::Command(cmd) => interactions::on_command(self, http, cmd).await,
            Interaction::Component(comp) => interactions::on_component(self, http, comp).await,
            Interaction::Autocomplete(ac) => interactions::on_autocomplete(self, http, ac).await,
            _ => {}
        }
    }

    async fn message(&self, _ctx: Context, msg: Message) {
        interactions::on_message(self, &msg).await;
    }
}

/// Why the adapter stopped.
#[derive(Debug)]
pub struct DiscordError(serenity::Error);

impl std::fmt::Display for DiscordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            serenity::Error::Gateway(GatewayError::InvalidAuthentication) => {
                f.write_str("Discord refused the token (DISCORD_TOKEN)")
            }
            e => write!(f, "Discord: {e}"),
        }
    }
}

impl std::error::Error for DiscordError {}

/// Run clients until `stop` turns true or one fails. A refused Message Content intent (close
/// code 4014) restarts the client without it.
async fn run_clients(
    service: Arc<Service>,
    config: DiscordConfig,
    stop: watch::Receiver<bool>,
    delivery: Deliverer,
) -> Result<(), DiscordError> {
    let mut message_content = true;
    if let Some(range) = config.shards {
        let mut stopped = stop.clone();
        if !shards::wait_for_turn(&http_for(&config), range, &mut stopped).await {
            return Ok(());
        }
    }
    loop {
        if *stop.borrow() {
            return Ok(());
        }
        let handler = Handler {
            service: Arc::clone(&service),
            delivery: delivery.clone(),
            guild: config.guild_id.filter(|&g| g != 0).map(GuildId::new),
            me: AtomicU64::new(0),
            registers: shards::registers_commands(config.register_commands, config.shards),
            registered: AtomicBool::new(false),
            answer_within: config.answer_within,
            tournament_role: config.tournament_role,
        };
        let mut client = ClientBuilder::new_with_http(http_for(&config), intents(message_content))
            .event_handler(handler)
            .await
            .map_err(DiscordError)?;
        let shards = Arc::clone(&client.shard_manager);
        let mut stopped = stop.clone();
        let stopper = tokio::spawn(async move {
            let _ = stopped.wait_for(|s| *s).await;
            // Again and again: a shard still booting is not yet known to the manager.
            loop {
                shards.shutdown_all().await;
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        });
        let result = match config.shards {
            // serenity's range end is inclusive: `first..last` starts shards first to last.
            Some(r) => {
                client
                    .start_shard_range(r.first()..r.last(), r.total())
                    .await
            }
            None => client.start().await,
        };
        stopper.abort();
        match result {
            Err(serenity::Error::Gateway(GatewayError::DisallowedGatewayIntents))
                if message_content =>
            {
                tracing::warn!(
                    "the Message Content intent is not enabled for this bot in the developer \
                     portal: bare moves typed in channels will not be read (slash commands, \
                     buttons and messages that mention the bot work)"
                );
                // Let the old client's shard queuer go, without waiting for the shard that
                // already ended to confirm (serenity waits 5 s for that).
                let old = Arc::clone(&client.shard_manager);
                tokio::spawn(async move { old.shutdown_all().await });
                message_content = false;
            }
            Ok(()) => return Ok(()),
            Err(e) => return Err(DiscordError(e)),
        }
    }
}

/// Run the Discord adapter until `stop` completes (then shut the gateway down cleanly) or the
/// connection fails for good (a refused token, for one).
///
/// # Errors
/// [`DiscordError`] when Discord refuses the bot.
pub async fn run(
    service: Arc<Service>,
    config: &DiscordConfig,
    stop: impl Future<Output = ()> + Send,
) -> Result<(), DiscordError> {
    let rest = rest::Rest::new(config.token.expose(), config.api_url.as_deref());
    let delivery = Deliverer::new(
        Discord::new(rest, service.clock()),
        Arc::clone(&service),
        RetryPolicy::default(),
    );
    delivery.open();
    let (stop_tx, stop_rx) = watch::channel(false);
    let clients = run_clients(service, config.clone(), stop_rx, delivery.clone());
    tokio::pin!(clients);
    tokio::pin!(stop);
    let result = tokio::select! {
        r = &mut clients => r,
        () = &mut stop => {
            let _ = stop_tx.send(true);
            clients.await
        }
    };
    delivery.drain(DRAIN).await;
    result
}

/// How long stopping keeps delivering what is queued (what is stored goes out at the next
/// start anyway).
const DRAIN: Duration = Duration::from_secs(10);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channel_keys_round_trip() {
        let c = ChannelId::new(123_456_789_012_345_678);
        assert_eq!(channel_key(c), "dc:123456789012345678");
        assert_eq!(channel_of(&channel_key(c)), Some(c));
        assert_eq!(channel_of("tg:5"), None);
        assert_eq!(channel_of("dc:0"), None);
        assert_eq!(channel_of("dc:x"), None);
    }
}
