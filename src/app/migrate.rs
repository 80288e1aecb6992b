//! Moving a channel's state to a new key: a Telegram group that becomes a supergroup gets a new
//! chat id, and its game, clocks, challenge and settings must follow it.

use super::chat::AppResult;
use super::service::Service;
use crate::game::{Changes, ChannelRecord};
use crate::platform::ChannelKey;

/// Whether a channel record holds nothing of its own (its schema version aside).
fn is_blank(r: &ChannelRecord) -> bool {
    *r == ChannelRecord {
        v: r.v,
        ..ChannelRecord::default()
    }
}

impl Service {
    /// Move everything stored under channel `from` to channel `to`: settings, the game in play
    /// (its record now names `to`, and its clock deadlines move with it), a pending challenge
    /// and its expiry, and the last game for `/pgn` and `/why`. `from` is left blank. Nothing
    /// moves when `from` holds nothing or `to` already holds something of its own, so calling
    /// it twice (Telegram announces a migration in both chats) is harmless. Returns whether
    /// anything moved.
    ///
    /// # Errors
    /// On a storage failure; then nothing has moved.
    pub async fn move_channel(&self, from: &ChannelKey, to: &ChannelKey) -> AppResult<bool> {
        if from == to {
            return Ok(false);
        }
        // Both locks, always in the same order, so two moves can never wait on each other.
        let (mut src, mut dst) = if from < to {
            let a = self.manager.lock(from).await?;
            (a, self.manager.lock(to).await?)
        } else {
            let b = self.manager.lock(to).await?;
            (self.manager.lock(from).await?, b)
        };
        if is_blank(&src.record) || !is_blank(&dst.record) {
            return Ok(false);
        }
        let mut changes = Changes::default();
        // Every game played there (several pairs may play in one group).
        let mut games: Vec<crate::game::Game> = src.games().cloned().collect();
        for g in &mut games {
            changes.remove_deadlines.extend(g.deadlines());
            g.record.channel = to.clone();
            // A group's own channel is its leaderboard scope too: the game counts for the
            // group under its new key.
            if g.record.community.as_deref() == Some(from) {
                g.record.community = Some(to.to_string());
            }
            changes.add_deadlines.extend(g.deadlines());
            changes.games.push(g.record.clone());
        }
        for c in src.record.challenges() {
            changes.remove_deadlines.push(c.expiry(from));
            changes.add_deadlines.push(c.expiry(to));
        }
        let mut moved = src.record.clone();
        // A tournament's start time and an arena's end move with it, and it counts for the
        // group under its new key.
        if let Some(t) = moved.tournament.as_mut() {
            use crate::game::tournament::Stage;
            for (at, kind, stage) in [
                (
                    t.starts_ms,
                    crate::game::DeadlineKind::TournamentStart,
                    Stage::Entry,
                ),
                (
                    t.ends_ms,
                    crate::game::DeadlineKind::TournamentEnd,
                    Stage::Running,
                ),
                (
                    t.next_round_ms,
                    crate::game::DeadlineKind::TournamentRound,
                    Stage::Running,
                ),
            ] {
                let Some(at_ms) = at.filter(|_| t.stage == stage) else {
                    continue;
                };
                let at = |channel: &ChannelKey| crate::game::Deadline {
                    at_ms,
                    id: t.id,
                    kind,
                    channel: channel.clone(),
                };
                changes.remove_deadlines.push(at(from));
                changes.add_deadlines.push(at(to));
            }
            if t.community.as_deref() == Some(from) {
                t.community = Some(to.to_string());
            }
        }
        // The messages of questions shown in the old channel stay there.
        moved.menus.clear();
        let blank = ChannelRecord {
            v: moved.v,
            ..ChannelRecord::default()
        };
        changes.channels.push((from.clone(), blank.clone()));
        changes.channels.push((to.clone(), moved.clone()));
        self.persist_direct(changes).await?;
        tracing::info!(%from, %to, game = ?moved.active_game, "channel moved");
        let first = moved.active_game;
        src.record = blank;
        src.game = None;
        src.others.clear();
        dst.record = moved;
        dst.game = None;
        dst.others = games;
        dst.select(first);
        dst.loaded = true;
        Ok(true)
    }
}
