//! Sharding in the fake Discord, kept to what Discord documents:
//!
//! * `GET /gateway/bot` gives the recommended `shards` and the `session_start_limit`
//!   (`total`, `remaining`, `reset_after`, `max_concurrency`); every accepted IDENTIFY takes
//!   one from `remaining`.
//! * With [`FakeDiscordBuilder::shards`] set, IDENTIFY must carry `shard: [id, total]` with
//!   the configured total: none, or `[0, 1]`, closes with 4011 (sharding required), another
//!   total or `id >= total` with 4010 (invalid shard).
//! * At most one IDENTIFY per rate-limit bucket (only with sharding set up: other tests restart
//!   bots faster) (`shard_id % max_concurrency`) per 5 seconds;
//!   a faster one gets opcode 9 (invalid session, not resumable), as Discord answers it. The
//!   fake allows [`IDENTIFY_JITTER`] for the network between two identifies.
//! * A guild's events (GUILD_CREATE, MESSAGE_CREATE, INTERACTION_CREATE, …) go only to the
//!   session of shard `(guild_id >> 22) % total`, direct messages to shard 0; READY lists only
//!   the shard's guilds. An event no connected session owns waits for that shard.
//! * Every IDENTIFY is recorded (shard, when, accepted) for the tests.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::{FakeDiscord, FakeDiscordBuilder, Outgoing, State_};

/// The shard Discord sends a guild's events on: `(guild_id >> 22) % total`.
pub fn shard_of(guild: u64, total: u64) -> u64 {
    (guild >> 22) % total.max(1)
}

/// A session's `[id, total]`, when it shards.
pub type Shard = Option<(u64, u64)>;

/// Discord's identify window.
pub const IDENTIFY_WINDOW: Duration = Duration::from_secs(5);
/// What the fake forgives of the window for the network between two identifies.
pub const IDENTIFY_JITTER: Duration = Duration::from_millis(250);

/// The sharding the fake expects (see [`FakeDiscordBuilder::shards`]).
#[derive(Clone, Debug)]
pub struct Sharding {
    /// The shard count bots must identify with; `None`: any (and `shards: 1` recommended).
    pub total: Option<u64>,
    pub max_concurrency: u64,
    pub start_total: u64,
    pub start_remaining: u64,
    pub reset_after_ms: u64,
}

impl Default for Sharding {
    fn default() -> Self {
        Sharding {
            total: None,
            max_concurrency: 1,
            start_total: 1000,
            start_remaining: 999,
            reset_after_ms: 14_400_000,
        }
    }
}

/// One IDENTIFY the fake received.
#[derive(Clone, Debug)]
pub struct IdentifyRecord {
    /// `[id, total]` as sent, if sent.
    pub shard: Option<(u64, u64)>,
    pub at: Instant,
    /// Whether a session started (false: refused, with the close code or 9 for an invalid
    /// session).
    pub accepted: bool,
    pub refusal: Option<u16>,
}

/// What the fake keeps about shards.
#[derive(Debug, Default)]
pub struct ShardState {
    /// Guilds besides the main one (see [`FakeDiscord::add_guild_on_shard`]).
    pub extra_guilds: Vec<u64>,
    pub identifies: Vec<IdentifyRecord>,
    /// Every dispatch sent on a connection: (the session's shard, event, its guild).
    pub delivered: Vec<(Shard, String, Option<u64>)>,
}

/// Why an identify is refused.
pub enum Refusal {
    /// Close the connection with this code and reason.
    Close(u16, String),
    /// Opcode 9, not resumable: the identify came too soon.
    InvalidSession,
}

impl FakeDiscordBuilder {
    /// Expect bots to shard: IDENTIFY must carry `[id, total]` with this total, and at most
    /// `max_concurrency` identifies per 5 s go through (one per bucket).
    pub fn shards(mut self, total: u64, max_concurrency: u64) -> Self {
        self.sharding.total = Some(total.max(1));
        self.sharding.max_concurrency = max_concurrency.max(1);
        self
    }

    /// The session-start limit `GET /gateway/bot` reports (`remaining` of `total`, reset in
    /// `reset_after`).
    pub fn session_start_limit(
        mut self,
        total: u64,
        remaining: u64,
        reset_after: Duration,
    ) -> Self {
        self.sharding.start_total = total;
        self.sharding.start_remaining = remaining;
        self.sharding.reset_after_ms = u64::try_from(reset_after.as_millis()).unwrap_or(u64::MAX);
        self
    }
}

impl FakeDiscord {
    /// Every IDENTIFY so far, in order.
    pub fn identifies(&self) -> Vec<IdentifyRecord> {
        self.st().shard_state.identifies.clone()
    }

    /// The shards (`None`: unsharded sessions) that received `event`s of `guild` (`None`: direct
    /// messages), one entry per dispatch sent.
    pub fn delivered_to(&self, event: &str, guild: Option<u64>) -> Vec<Option<(u64, u64)>> {
        self.st()
            .shard_state
            .delivered
            .iter()
            .filter(|(_, e, g)| e == event && *g == guild)
            .map(|(s, _, _)| *s)
            .collect()
    }

    /// The shards with a connected session.
    pub fn connected_shards(&self) -> Vec<(u64, u64)> {
        let mut out: Vec<(u64, u64)> = self
            .st()
            .sessions
            .values()
            .filter(|s| s.tx.is_some())
            .filter_map(|s| s.shard)
            .collect();
        out.sort_unstable();
        out
    }

    /// How many times the bot set or created slash commands (PUT or POST on
    /// `/applications/*/commands` or `/applications/*/guilds/*/commands`).
    pub fn command_registrations(&self) -> usize {
        [
            "PUT /applications/*/commands",
            "POST /applications/*/commands",
            "PUT /applications/*/guilds/*/commands",
            "POST /applications/*/guilds/*/commands",
        ]
        .iter()
        .map(|r| self.calls_matching(r).len())
        .sum()
    }

    /// Add a guild whose events Discord sends on `shard` of `total`, with a text channel and
    /// every user as a member; returns (guild id, channel id). Its GUILD_CREATE goes to that
    /// shard's session if one is connected.
    pub fn add_guild_on_shard(&self, shard: u64, total: u64) -> (u64, u64) {
        let mut st = self.st();
        let guild = loop {
            let id = st.next_id();
            if shard_of(id, total) == shard {
                break id;
            }
            // Move on to the next millisecond of the snowflake clock.
            st.last_id = (st.last_id | ((1 << 22) - 1)) + 1;
        };
        st.shard_state.extra_guilds.push(guild);
        let channel = st.next_id();
        st.channels.insert(
            channel,
            super::ChannelRec {
                id: channel,
                kind: 0,
                name: "xiangqi".into(),
                guild_id: Some(guild),
                ..super::ChannelRec::default()
            },
        );
        // Connected shards learn of it now; a shard identifying later has it in READY.
        let g = st.guild_json_for(guild);
        let ids: Vec<String> = st.sessions.keys().cloned().collect();
        for id in ids {
            if st.session_gets(&id, "GUILD_CREATE", &g) {
                st.deliver(&id, "GUILD_CREATE", &g);
            }
        }
        drop(st);
        self.inner.bump();
        (guild, channel)
    }
}

impl State_ {
    pub(super) fn record_delivery(&mut self, shard: Option<(u64, u64)>, event: &str, data: &Value) {
        let guild = Self::event_guild(event, data);
        self.shard_state
            .delivered
            .push((shard, event.to_string(), guild));
    }

    /// The guild an event belongs to (`None`: a direct message or a guild-less event).
    fn event_guild(event: &str, data: &Value) -> Option<u64> {
        let field = if event.starts_with("GUILD_") && event != "GUILD_MEMBER_ADD" {
            data.get("id").or_else(|| data.get("guild_id"))
        } else {
            data.get("guild_id")
        };
        field.and_then(super::json_id)
    }

    /// Whether the session `id` gets `event`: every event without sharding; with it, the
    /// shard of the event's guild (direct messages: shard 0).
    pub(super) fn session_gets(&self, id: &str, event: &str, data: &Value) -> bool {
        let Some(s) = self.sessions.get(id) else {
            return false;
        };
        let Some((shard, total)) = s.shard else {
            return true;
        };
        if matches!(event, "READY" | "RESUMED") {
            return true;
        }
        let owner = Self::event_guild(event, data).map_or(0, |g| shard_of(g, total));
        owner == shard
    }

    /// Whether the guild exists (the main one or an added one).
    pub(super) fn is_guild(&self, guild: u64) -> bool {
        guild == self.guild_id || self.shard_state.extra_guilds.contains(&guild)
    }

    /// The guilds on `shard` (all of them without sharding).
    fn guilds_on(&self, shard: Option<(u64, u64)>) -> Vec<u64> {
        std::iter::once(self.guild_id)
            .chain(self.shard_state.extra_guilds.iter().copied())
            .filter(|g| shard.is_none_or(|(id, total)| shard_of(*g, total) == id))
            .collect()
    }

    /// READY's `guilds` (unavailable until their GUILD_CREATE) for `shard`.
    pub(super) fn ready_guilds(&self, shard: Option<(u64, u64)>) -> Value {
        Value::Array(
            self.guilds_on(shard)
                .into_iter()
                .map(|g| json!({"id": g.to_string(), "unavailable": true}))
                .collect(),
        )
    }

    /// The GUILD_CREATEs that follow READY on `shard`.
    pub(super) fn guild_creates(&self, shard: Option<(u64, u64)>) -> Vec<Value> {
        self.guilds_on(shard)
            .into_iter()
            .map(|g| self.guild_json_for(g))
            .collect()
    }

    /// A guild object for `guild`: the main guild's shape with its own id and channels.
    pub(super) fn guild_json_for(&self, guild: u64) -> Value {
        let mut g = self.guild_json();
        if guild == self.guild_id {
            return g;
        }
        g["id"] = json!(guild.to_string());
        g["name"] = json!(format!("Xiangqi Test Guild {guild}"));
        if let Some(roles) = g["roles"].as_array_mut() {
            if let Some(everyone) = roles.first_mut() {
                everyone["id"] = json!(guild.to_string());
            }
        }
        let channels = self.guild_channels_json(guild);
        g["system_channel_id"] = channels
            .first()
            .and_then(|c| c.get("id").cloned())
            .unwrap_or(Value::Null);
        g["channels"] = Value::Array(channels);
        g["threads"] = json!([]);
        g
    }

    /// A guild's channels (not its threads), as REST and GUILD_CREATE show them.
    pub(super) fn guild_channels_json(&self, guild: u64) -> Vec<Value> {
        self.channels
            .values()
            .filter(|c| c.guild_id == Some(guild) && !c.is_thread())
            .map(|c| self.channel_json(c.id))
            .collect()
    }

    /// `GET /gateway/bot`.
    pub(super) fn gateway_bot(&self) -> Value {
        let sh = &self.cfg.sharding;
        let used = self
            .shard_state
            .identifies
            .iter()
            .filter(|i| i.accepted)
            .count();
        json!({
            "url": self.ws_url,
            "shards": sh.total.unwrap_or(1),
            "session_start_limit": {
                "total": sh.start_total,
                "remaining": sh.start_remaining.saturating_sub(u64::try_from(used).unwrap_or(u64::MAX)),
                "reset_after": sh.reset_after_ms,
                "max_concurrency": sh.max_concurrency,
            },
        })
    }

    /// Check an IDENTIFY's `shard` against the sharding expected and the identify rate, and
    /// record it. `None`: accepted.
    pub(super) fn check_identify(&mut self, shard: Option<&Value>) -> Option<Refusal> {
        let pair = shard.and_then(Value::as_array).map(|sh| {
            (
                sh.first().and_then(Value::as_u64),
                sh.get(1).and_then(Value::as_u64),
            )
        });
        let parsed = match pair {
            None => None,
            Some((Some(id), Some(total))) if id < total => Some((id, total)),
            Some(_) => {
                return Some(self.record(None, Refusal::Close(4010, "Invalid shard.".into())))
            }
        };
        if let Some(expected) = self.cfg.sharding.total {
            match parsed {
                None | Some((_, 1)) if expected > 1 => {
                    return Some(
                        self.record(parsed, Refusal::Close(4011, "Sharding required.".into())),
                    );
                }
                Some((_, total)) if total != expected => {
                    return Some(
                        self.record(parsed, Refusal::Close(4010, "Invalid shard.".into())),
                    );
                }
                _ => {}
            }
        }
        if self.cfg.sharding.total.is_none() {
            // Without sharding set up the tests restart bots at will: no rate to keep.
            self.shard_state.identifies.push(IdentifyRecord {
                shard: parsed,
                at: Instant::now(),
                accepted: true,
                refusal: None,
            });
            return None;
        }
        let mc = self.cfg.sharding.max_concurrency.max(1);
        let bucket = parsed.map_or(0, |(id, _)| id % mc);
        let now = Instant::now();
        let too_soon = self.shard_state.identifies.iter().any(|i| {
            i.accepted
                && i.shard.map_or(0, |(id, _)| id % mc) == bucket
                && now.duration_since(i.at) + IDENTIFY_JITTER < IDENTIFY_WINDOW
        });
        if too_soon {
            return Some(self.record(parsed, Refusal::InvalidSession));
        }
        self.shard_state.identifies.push(IdentifyRecord {
            shard: parsed,
            at: now,
            accepted: true,
            refusal: None,
        });
        None
    }

    fn record(&mut self, shard: Option<(u64, u64)>, refusal: Refusal) -> Refusal {
        let code = match &refusal {
            Refusal::Close(code, _) => *code,
            Refusal::InvalidSession => 9,
        };
        self.shard_state.identifies.push(IdentifyRecord {
            shard,
            at: Instant::now(),
            accepted: false,
            refusal: Some(code),
        });
        refusal
    }

    /// Answer a refused identify: a close code ends the connection, an invalid session is
    /// opcode 9 on it.
    pub(super) fn refuse(
        tx: &tokio::sync::mpsc::UnboundedSender<Outgoing>,
        refusal: Refusal,
    ) -> Option<(u16, String)> {
        match refusal {
            Refusal::Close(code, reason) => Some((code, reason)),
            Refusal::InvalidSession => {
                let _ = tx.send(Outgoing::Text(
                    json!({"op": 9, "d": false, "s": null, "t": null}).to_string(),
                ));
                None
            }
        }
    }
}
