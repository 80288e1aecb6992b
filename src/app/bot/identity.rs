//! Who the bot is in a game: its player id (`bot:level3`), its levels, and its side.

use crate::core::Color;
use crate::game::{Game, PlayerRef};
use crate::i18n::app::{text, Msg};
use crate::i18n::Lang;
use crate::rating::BOT_ID_PREFIX;

/// What follows the ratings' reserved prefix in the bot's player ids: `bot:level3` (so a game
/// against the bot is never rated, by the same test the ratings use).
const LEVEL_WORD: &str = "level";

/// Levels players can choose: the engine's whole ladder. A game stored before the ladder had
/// twenty levels names its bot `bot:level1` … `bot:level8`; those numbers are read as the new
/// ladder's levels of the same number (docs/engine.md, "The engine's levels").
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=crate::engine::TOP_LEVEL;

/// The level `/play bot` uses when none is given: the level nearest in strength to the old
/// ladder's level 3, the default before (about 2,050 above greedy on the chain; level 10 is
/// 1,960 above it).
pub const DEFAULT_LEVEL: u8 = 10;

/// The bot at `level` as a player, named in `lang`.
#[must_use]
pub fn bot_player(level: u8, lang: Lang) -> PlayerRef {
    PlayerRef::new(
        format!("{BOT_ID_PREFIX}{LEVEL_WORD}{level}"),
        &text(&Msg::BotName { level }, lang),
    )
}

/// The bot's own account as a player, for adapters: a mention of the bot itself (`@XiangqiBot`
/// on Telegram, the bot's user on Discord) stands for this in [`crate::app::Incoming::mentions`],
/// and `/play` with it starts a game against the bot (at [`DEFAULT_LEVEL`] unless a level
/// follows).
#[must_use]
pub fn bot_itself() -> PlayerRef {
    bot_player(DEFAULT_LEVEL, Lang::En)
}

/// The level of `p` if `p` is the bot.
#[must_use]
pub fn bot_level(p: &PlayerRef) -> Option<u8> {
    p.id.strip_prefix(BOT_ID_PREFIX)?
        .strip_prefix(LEVEL_WORD)?
        .parse()
        .ok()
        .filter(|l| LEVELS.contains(l))
}

/// The bot's colour and level in `game`, if it plays in it.
#[must_use]
pub fn bot_side(game: &Game) -> Option<(Color, u8)> {
    [Color::Red, Color::Black]
        .into_iter()
        .find_map(|c| bot_level(game.player(c)).map(|l| (c, l)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bot_is_known_by_its_id() {
        let p = bot_player(5, Lang::En);
        assert_eq!(p.id, "bot:level5");
        assert!(
            crate::rating::is_bot(&p.id),
            "ratings must see the bot as the bot"
        );
        assert_eq!(bot_level(&p), Some(5));
        assert_eq!(bot_level(&PlayerRef::new("bot:level21", "x")), None);
        assert_eq!(bot_level(&PlayerRef::new("bot:level0", "x")), None);
        // A game stored under the old eight levels keeps its number on the new ladder.
        assert_eq!(
            bot_level(&PlayerRef::new("bot:level8", "Bot level 8")),
            Some(8)
        );
        assert_eq!(bot_level(&bot_player(20, Lang::En)), Some(20));
        assert_eq!(bot_level(&PlayerRef::new("engine:level5", "x")), None);
        assert_eq!(bot_level(&PlayerRef::new("console:alice", "alice")), None);
        for lang in [Lang::Vi, Lang::En, Lang::Zh] {
            assert!(bot_player(2, lang).name.contains('2'));
        }
    }
}
