//! Which chat platform a channel or a player belongs to. Every channel key and player id
//! starts with its platform's prefix (`tg:-100123:7`, `dc:456`, `console:#local`); this is
//! the one place that spells the prefixes and reads them back.

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

    /// Its name as players read it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Platform::Console => "Console",
            Platform::Telegram => "Telegram",
            Platform::Discord => "Discord",
        }
    }

    /// The key of `rest` on this platform (`tg:` and `-100123`).
    #[must_use]
    pub fn key(self, rest: impl std::fmt::Display) -> String {
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
}
