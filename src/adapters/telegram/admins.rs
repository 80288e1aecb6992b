//! Who may change a group's settings: its administrators and its owner, as `getChatMember`
//! says. Asked only for a line that would change a setting ([`crate::app::Line::configures`]),
//! and kept for a minute per chat and user, so a burst of settings costs one call. A private
//! chat is its user's own: they may change its settings without asking.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use teloxide::prelude::Requester;
use teloxide::types::{ChatId, UserId};
use teloxide::Bot;

/// How long an answer is kept.
const KEEP: Duration = Duration::from_secs(60);
/// Most answers kept; past it the oldest half goes.
const MOST: usize = 4096;

/// The kept answers: (chat, user) to (privileged, when asked).
#[derive(Default)]
pub(super) struct Admins {
    kept: Mutex<HashMap<(i64, u64), (bool, Instant)>>,
}

impl Admins {
    /// Whether `user` administers `chat`. A failed call (Telegram down, the bot removed) is
    /// a no: a setting is refused, never changed by someone unchecked.
    pub(super) async fn may_configure(&self, bot: &Bot, chat: ChatId, user: UserId) -> bool {
        let key = (chat.0, user.0);
        if let Some(&(yes, at)) = self.lock().get(&key) {
            if at.elapsed() < KEEP {
                return yes;
            }
        }
        let yes = match bot.get_chat_member(chat, user).await {
            Ok(member) => member.is_privileged(),
            Err(e) => {
                tracing::warn!(chat = chat.0, error = %e, "cannot tell a group's administrators; the setting is refused");
                return false;
            }
        };
        let mut kept = self.lock();
        if kept.len() >= MOST {
            let mut ages: Vec<Instant> = kept.values().map(|&(_, at)| at).collect();
            ages.sort_unstable();
            let cut = ages[ages.len() / 2];
            kept.retain(|_, &mut (_, at)| at > cut);
        }
        kept.insert(key, (yes, Instant::now()));
        yes
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(i64, u64), (bool, Instant)>> {
        self.kept
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}
