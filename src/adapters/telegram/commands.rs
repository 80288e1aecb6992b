//! The command menu Telegram shows after `/`: every service command, registered with
//! `setMyCommands` once per language (Vietnamese, English, Chinese) and once without a
//! language (English) for everyone else, in every chat.

use teloxide::payloads::setters::*;
use teloxide::prelude::Requester;
use teloxide::types::BotCommand;
use teloxide::{Bot, RequestError};

use super::outbox::{redacted, RetryPolicy};
use crate::app::Cmd;
use crate::i18n::commands::command_summary;
use crate::i18n::Lang;

/// The menu in `lang`, in the service's order.
#[must_use]
pub fn command_list(lang: Lang) -> Vec<BotCommand> {
    Cmd::ALL
        .iter()
        .map(|(_, name)| BotCommand::new(*name, command_summary(name, lang).unwrap_or(name)))
        .collect()
}

/// Register the menus, retrying what fails for a while; an error is logged, never fatal
/// (commands typed by hand work without the menu).
pub async fn register(bot: Bot, policy: RetryPolicy) {
    let menus = [
        (None, Lang::En),
        (Some(Lang::Vi), Lang::Vi),
        (Some(Lang::En), Lang::En),
        (Some(Lang::Zh), Lang::Zh),
    ];
    for (code, lang) in menus {
        let mut backoff = policy.first_backoff;
        for attempt in 1..=8 {
            let mut req = bot.set_my_commands(command_list(lang));
            if let Some(code) = code {
                req = req.language_code(code.code());
            }
            match req.await {
                Ok(_) => break,
                Err(RequestError::RetryAfter(s)) => tokio::time::sleep(s.duration()).await,
                Err(e) if attempt < 8 => {
                    tracing::warn!(lang = %lang, error = %redacted(&e, &bot), "setMyCommands failed; retrying");
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(policy.max_backoff);
                }
                Err(e) => {
                    tracing::error!(lang = %lang, error = %redacted(&e, &bot), "setMyCommands failed; the command menu is missing");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn menus_name_every_command_within_telegram_limits() {
        for lang in Lang::ALL {
            let list = command_list(lang);
            assert_eq!(list.len(), Cmd::ALL.len());
            for c in &list {
                let name_ok = (1..=32).contains(&c.command.len())
                    && c.command
                        .chars()
                        .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '_');
                assert!(name_ok, "{}", c.command);
                assert!((3..=256).contains(&c.description.chars().count()));
            }
        }
    }
}
