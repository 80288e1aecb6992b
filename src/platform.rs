//! Which chat platform a channel or a player belongs to, and the keys that name them. Every
//! channel key ([`ChannelKey`]) and player id ([`UserKey`]) starts with its platform's prefix
//! (`tg:-100123:7`, `dc:456`, `console:#local`; the bot's players are `bot:level3`); this is
//! the one place that spells the prefixes and reads them back. The keys are their own types so
//! that a channel is never passed where a player is meant; their stored form (serde, sled
//! keys, PostgreSQL columns) is the plain string, as before they were typed.

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;

use serde::{Deserialize, Serialize};

/// A chat platform.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Platform {
    /// The terminal (console mode).
    Console,
    /// Telegram.
    Telegram,
    /// Discord.
    Discord,
}

impl Platform {
    /// Every platform.
    pub const ALL: [Platform; 3] = [Platform::Console, Platform::Telegram, Platform::Discord];

    /// Its word in keys and ids, and as a leaderboard scope: `console`, `tg`, `dc`.
    #[must_use]
    pub const fn scope(self) -> &'static str {
        match self {
            Platform::Console => "console",
            Platform::Telegram => "tg",
            Platform::Discord => "dc",
        }
    }

    /// What its keys start with: the scope and a colon.
    #[must_use]
    pub const fn prefix(self) -> &'static str {
        match self {
            Platform::Console => "console:",
            Platform::Telegram => "tg:",
            Platform::Discord => "dc:",
        }
    }

    /// Whether its adapter may open a venue of its own for a tournament game (a Discord
    /// thread, a Telegram forum topic; see [`crate::app::VenueAsk`]). The console cannot.
    #[must_use]
    pub const fn opens_venues(self) -> bool {
        match self {
            Platform::Console => false,
            Platform::Telegram | Platform::Discord => true,
        }
    }

    /// Its name as players read it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Platform::Console => "Console",
            Platform::Telegram => "Telegram",
            Platform::Discord => "Discord",
        }
    }

    /// The key of `rest` on this platform (`tg:` and `-100123`), as a string (a leaderboard
    /// scope, a community); [`ChannelKey::on`] and [`UserKey::on`] make typed keys.
    #[must_use]
    pub fn key(self, rest: impl fmt::Display) -> String {
        format!("{}{rest}", self.prefix())
    }

    /// The platform of a channel key or player id, if it names one.
    #[must_use]
    pub fn of(key: &str) -> Option<Platform> {
        Platform::ALL
            .into_iter()
            .find(|p| key.starts_with(p.prefix()))
    }

    /// The platform whose scope is `scope` (`tg`).
    #[must_use]
    pub fn from_scope(scope: &str) -> Option<Platform> {
        Platform::ALL.into_iter().find(|p| p.scope() == scope)
    }

    /// What follows the platform's prefix in `key`, if `key` is one of its keys.
    #[must_use]
    pub fn rest(self, key: &str) -> Option<&str> {
        key.strip_prefix(self.prefix())
    }
}

/// A key type: a string in its stored form, read through `Deref<Target = str>`, made from a
/// string (as read back from storage) or on a platform.
macro_rules! key_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(String);

        impl $name {
            /// The key of `rest` on `platform`.
            #[must_use]
            pub fn on(platform: Platform, rest: impl fmt::Display) -> $name {
                $name(platform.key(rest))
            }

            /// The key as stored.
            #[must_use]
            pub fn as_str(&self) -> &str {
                &self.0
            }

            /// The stored string, owned.
            #[must_use]
            pub fn into_string(self) -> String {
                self.0
            }

            /// The platform it belongs to, if it names one (the bot's players do not).
            #[must_use]
            pub fn platform(&self) -> Option<Platform> {
                Platform::of(&self.0)
            }

            /// What follows `platform`'s prefix, if the key is one of its keys.
            #[must_use]
            pub fn rest_on(&self, platform: Platform) -> Option<&str> {
                platform.rest(&self.0)
            }
        }

        impl Deref for $name {
            type Target = str;
            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl Borrow<str> for $name {
            fn borrow(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl From<String> for $name {
            fn from(s: String) -> $name {
                $name(s)
            }
        }

        impl From<&str> for $name {
            fn from(s: &str) -> $name {
                $name(s.to_owned())
            }
        }

        impl From<&String> for $name {
            fn from(s: &String) -> $name {
                $name(s.clone())
            }
        }

        impl From<&$name> for $name {
            fn from(s: &$name) -> $name {
                s.clone()
            }
        }

        impl From<$name> for String {
            fn from(k: $name) -> String {
                k.0
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }

        impl PartialEq<String> for $name {
            fn eq(&self, other: &String) -> bool {
                &self.0 == other
            }
        }

        impl PartialEq<$name> for str {
            fn eq(&self, other: &$name) -> bool {
                self == other.0
            }
        }

        impl PartialEq<$name> for &str {
            fn eq(&self, other: &$name) -> bool {
                *self == other.0
            }
        }

        impl PartialEq<$name> for String {
            fn eq(&self, other: &$name) -> bool {
                *self == other.0
            }
        }
    };
}

key_type!(
    /// A channel: where a game is played and replies go (`tg:-100123`, `tg:-100123:7` for a
    /// forum topic, `dc:456`, `console:#local`).
    ChannelKey
);

key_type!(
    /// A player: a person on a platform (`tg:42`, `dc:9001`, `console:you`) or the bot at a
    /// level (`bot:level3`).
    UserKey
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_read_back_as_they_were_made() {
        for p in Platform::ALL {
            let key = p.key("123:4");
            assert_eq!(Platform::of(&key), Some(p));
            assert_eq!(p.rest(&key), Some("123:4"));
            assert_eq!(Platform::from_scope(p.scope()), Some(p));
            assert_eq!(p.prefix(), format!("{}:", p.scope()));
        }
        assert_eq!(Platform::of("tg-1"), None);
        assert_eq!(Platform::of("bot:level3"), None);
        assert_eq!(Platform::of("dc"), None);
        assert_eq!(Platform::Telegram.rest("dc:1"), None);
    }

    #[test]
    fn typed_keys_keep_their_stored_form() {
        let c = ChannelKey::on(Platform::Telegram, "-100123:7");
        assert_eq!(c, "tg:-100123:7");
        assert_eq!(c.platform(), Some(Platform::Telegram));
        assert_eq!(c.rest_on(Platform::Telegram), Some("-100123:7"));
        assert_eq!(c.rest_on(Platform::Discord), None);
        assert_eq!(serde_json::to_string(&c).unwrap(), "\"tg:-100123:7\"");
        let back: ChannelKey = serde_json::from_str("\"tg:-100123:7\"").unwrap();
        assert_eq!(back, c);
        let bot = UserKey::from("bot:level3");
        assert_eq!(bot.platform(), None);
        assert!(bot.starts_with("bot:"));
        let mut set = std::collections::HashSet::new();
        set.insert(UserKey::on(Platform::Discord, 9));
        assert!(set.contains("dc:9"));
    }
}
