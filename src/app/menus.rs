//! One-time questions (a challenge, a draw offer, a takeback request, a confirmation) and move
//! pickers, where a platform showed them. Adapters register each such message after sending it
//! ([`Service::shown`]); when the question is answered, lapses, or the game moves on, the
//! service hands the message back in a reply's [`super::Reply::retire`] so the adapter takes
//! its buttons away. Kept in the channel's record, so this survives a restart.

use super::action::Action;
use super::chat::AppResult;
use super::service::Service;
use super::view::ply_of;
use crate::game::{Changes, ChannelRecord, Game, ShownMenu};
use crate::platform::{ChannelKey, UserKey};

/// Most menus remembered per channel (the oldest are retired beyond it).
const MAX_MENUS: usize = 16;
/// Longest adapter reference kept.
const MAX_REF: usize = 512;

fn is_picker(action: Action) -> bool {
    matches!(
        action,
        Action::Pick { .. } | Action::PickFrom { .. } | Action::PickTo { .. }
    )
}

/// Whether the question (or picker) whose first button is `action` still applies, with
/// `record` and `game` as they now stand.
pub(crate) fn applies(
    action: Action,
    record: &ChannelRecord,
    game: Option<&Game>,
    now: u64,
) -> bool {
    if let Action::Accept { id } | Action::Decline { id } = action {
        return record
            .challenges()
            .any(|c| c.id == id && c.expires_ms > now);
    }
    let (id, ply) = action.target();
    if action.is_puzzle() {
        return record.puzzle.as_ref().is_some_and(|l| {
            l.number == id
                && ply.is_none_or(|p| usize::try_from(p).is_ok_and(|p| p == l.played.len()))
        });
    }
    let Some(g) = game.filter(|g| g.is_active() && g.record.id == id && Some(ply_of(g)) == ply)
    else {
        return false;
    };
    match action {
        Action::Draw { .. } => g.record.draw_offer.is_some(),
        Action::AcceptTakeback { .. } => g.record.takeback_request.is_some(),
        Action::DeclineOffer { .. } => {
            g.record.draw_offer.is_some() || g.record.takeback_request.is_some()
        }
        _ => true,
    }
}

/// Take out of `record` the menus that no longer apply with `game` in play (`None`: no game
/// any more); returns where they were shown.
pub(crate) fn prune(record: &mut ChannelRecord, game: Option<&Game>, now: u64) -> Vec<String> {
    let probe = record.clone();
    let mut dead = Vec::new();
    record.menus.retain(|m| {
        let alive = Action::decode(&m.action).is_some_and(|a| applies(a, &probe, game, now));
        if !alive {
            dead.push(m.at.clone());
        }
        alive
    });
    dead
}

impl Service {
    /// An adapter showed a reply with [`super::Reply::track`] set in `channel`, for `user`:
    /// `action` is its first button's, `at` the adapter's reference to the message. Returns
    /// references whose buttons to take away now: this one if its question was settled before
    /// it was shown, and the same user's earlier picker (one live picker per player).
    pub async fn shown(
        &self,
        channel: &ChannelKey,
        user: &UserKey,
        action: Action,
        at: String,
    ) -> Vec<String> {
        match self.register_menu(channel, user, action, at).await {
            Ok(retired) => retired,
            Err(e) => {
                tracing::warn!(error = %e, %channel, "cannot remember a question's message");
                Vec::new()
            }
        }
    }

    async fn register_menu(
        &self,
        channel: &ChannelKey,
        user: &UserKey,
        action: Action,
        at: String,
    ) -> AppResult<Vec<String>> {
        let mut slot = self.manager.lock(channel).await?;
        let mut home = channel.clone();
        // Shown in a game's venue: remembered in its tournament chat, which holds the game.
        if let Some(chat) = slot.record.venue_of.clone() {
            drop(slot);
            slot = self.manager.lock(&chat).await?;
            home = chat;
        }
        if at.len() > MAX_REF || !applies(action, &slot.record, slot.game.as_ref(), self.now()) {
            return Ok(vec![at]);
        }
        let mut record = slot.record.clone();
        // The same message again (a picker's next step): it replaces itself.
        record.menus.retain(|m| m.at != at);
        let mut retired = Vec::new();
        if is_picker(action) {
            record.menus.retain(|m| {
                let older = m.user == *user && Action::decode(&m.action).is_some_and(is_picker);
                if older {
                    retired.push(m.at.clone());
                }
                !older
            });
        }
        record.menus.push(ShownMenu {
            action: action.encode(),
            user: user.clone(),
            at,
        });
        while record.menus.len() > MAX_MENUS {
            retired.push(record.menus.remove(0).at);
        }
        let mut changes = Changes::default();
        changes.channels.push((home, record.clone()));
        self.persist_direct(changes).await?;
        slot.record = record;
        Ok(retired)
    }
}
