//! Whom replies on Discord answer, and how: the interaction or message an event was, stored
//! with its replies in the outbox ([`Answering`]), and how the interaction was acknowledged
//! ([`Ack`]). A slash command is acknowledged after the service ran, so its handler tells the
//! delivery lane how through a [`Gate`] opened before the service runs.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use crate::platform::UserKey;
use serde::{Deserialize, Serialize};
use tokio::sync::watch;

/// How long a lane waits for the handler to say how it acknowledged an interaction.
const GATE_WAIT: Duration = Duration::from_secs(10);

/// How an interaction was acknowledged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(super) enum Ack {
    /// A slash command deferred ("thinking…", for everyone or only the user): the first reply
    /// replaces it.
    Deferred {
        /// Only the user sees it.
        ephemeral: bool,
    },
    /// A click acknowledged without a visible change: the clicked message is the original.
    Updated,
    /// Answered at once: the other replies follow.
    Responded,
    /// Not acknowledged: the token cannot be used.
    Failed,
}

/// The interaction an event was.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Interaction {
    /// Its id.
    pub id: u64,
    /// The application it was sent to.
    pub app: u64,
    /// Its token (valid for 15 minutes).
    pub token: String,
    /// When Discord created it (epoch ms, from its id).
    pub created_ms: u64,
}

/// What kind of event replies answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(super) enum Kind {
    /// A slash command.
    Command,
    /// A button or a menu choice.
    Component {
        /// A choice in a menu (the menu is the clicked message).
        from_menu: bool,
        /// The clicked message.
        #[serde(default)]
        message: u64,
        /// Whether only the user sees the clicked message.
        #[serde(default)]
        ephemeral: bool,
    },
    /// A message typed in the channel.
    Message {
        /// Its id (a private note answers it).
        message: u64,
    },
}

/// Whom replies answer, stored with them in the outbox.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Answering {
    /// The event.
    pub kind: Kind,
    /// The interaction, if it was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interaction: Option<Interaction>,
    /// How it was acknowledged, when that was known before the service ran (a click).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ack: Option<Ack>,
    /// A thread opened for the game by this command: public replies go there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread: Option<u64>,
    /// The user's language (for the hint about permissions).
    #[serde(default)]
    pub lang: String,
    /// The service's id of the user who acted (`dc:…`): the one-time questions and pickers
    /// shown for them are reported under it.
    #[serde(default)]
    pub user: UserKey,
}

/// Where the handlers say how they acknowledged interactions, for the lanes to read.
#[derive(Default)]
pub(super) struct Gates {
    open: Mutex<HashMap<u64, watch::Receiver<Option<Ack>>>>,
}

/// One interaction's gate, held by its handler.
pub(super) struct Gate {
    tx: watch::Sender<Option<Ack>>,
}

impl Gate {
    /// Say how the interaction was acknowledged.
    pub(super) fn set(&self, ack: Ack) {
        self.tx.send_replace(Some(ack));
    }
}

impl Gates {
    fn lock(&self) -> MutexGuard<'_, HashMap<u64, watch::Receiver<Option<Ack>>>> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Open the gate of interaction `id` (before the service runs).
    pub(super) fn open(&self, id: u64) -> Gate {
        let (tx, rx) = watch::channel(None);
        self.lock().insert(id, rx);
        Gate { tx }
    }

    /// Close a gate no lane took (the replies were not stored).
    pub(super) fn close(&self, id: u64) {
        self.lock().remove(&id);
    }

    /// How interaction `id` was acknowledged: waits for its handler; `None` when no handler
    /// holds its gate (it came before a restart).
    pub(super) async fn wait(&self, id: u64) -> Option<Ack> {
        let mut rx = self.lock().remove(&id)?;
        let got = tokio::time::timeout(GATE_WAIT, rx.wait_for(Option::is_some))
            .await
            .map(|r| r.map(|v| *v));
        Some(match got {
            Ok(Ok(v)) => v.unwrap_or(Ack::Failed),
            // The handler is gone: whatever it said last.
            Ok(Err(_)) => (*rx.borrow()).unwrap_or(Ack::Failed),
            Err(_) => {
                tracing::warn!(
                    interaction = id,
                    "no word on how an interaction was acknowledged"
                );
                Ack::Failed
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contexts_round_trip() {
        let a = Answering {
            kind: Kind::Component {
                from_menu: true,
                message: 4,
                ephemeral: true,
            },
            interaction: Some(Interaction {
                id: 1,
                app: 2,
                token: "t".into(),
                created_ms: 3,
            }),
            ack: Some(Ack::Updated),
            thread: None,
            lang: "vi".into(),
            user: "dc:5".into(),
        };
        let s = serde_json::to_string(&a).expect("json");
        assert_eq!(serde_json::from_str::<Answering>(&s).expect("back"), a);
    }

    #[tokio::test]
    async fn a_gate_gives_what_the_handler_said() {
        let gates = Gates::default();
        let gate = gates.open(7);
        let waiting = tokio::spawn(async move { gates.wait(7).await });
        gate.set(Ack::Deferred { ephemeral: true });
        assert_eq!(
            waiting.await.expect("task"),
            Some(Ack::Deferred { ephemeral: true })
        );
        let gates = Gates::default();
        assert_eq!(gates.wait(8).await, None, "no gate: from before a restart");
    }
}
