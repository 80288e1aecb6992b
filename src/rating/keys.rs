//! Keys of the ratings store: one ordered key space, each kind of record under its own first
//! byte, so the storage keeps them in one tree and writes a game's whole rating update in the
//! transaction that ends the game.
//!
//! | first byte | key | value |
//! |---|---|---|
//! | `e` | game id (u64 BE) | [`GameEnd`](super::GameEnd) JSON |
//! | `p` | player id | [`Profile`](super::Profile) JSON |
//! | `q` | smaller id ‖ 0 ‖ larger id | [`PairRecord`](super::PairRecord) JSON |
//! | `h` | player ‖ 0 ‖ family ‖ end time (u64 BE) ‖ game (u64 BE) | a history point |
//! | `b` | scope ‖ 0 ‖ family ‖ !(rating × 100) (u32 BE) ‖ player | a leaderboard entry |
//! | `n` | scope ‖ 0 ‖ family ‖ band (u32 BE) | when each entry of the band leaves the board |
//! | `c` | scope | the family of the scope's last rated game, and when |
//! | `a` | `platform:@handle` | player id |
//!
//! Leaderboard keys sort by rating, highest first, so a page is a prefix scan that stops
//! early. Ids and scopes never contain a 0 byte (they are cleaned of control characters);
//! [`clean`] removes any that slips through so the separators stay unambiguous.

use super::family::Family;

/// Prefix byte of each record kind.
pub const END: u8 = b'e';
/// See [`END`].
pub const PROFILE: u8 = b'p';
/// See [`END`].
pub const PAIR: u8 = b'q';
/// See [`END`].
pub const HISTORY: u8 = b'h';
/// See [`END`].
pub const BOARD: u8 = b'b';
/// See [`END`].
pub const BAND: u8 = b'n';
/// See [`END`].
pub const COMMUNITY: u8 = b'c';
/// See [`END`].
pub const ALIAS: u8 = b'a';

fn clean(s: &str) -> impl Iterator<Item = u8> + '_ {
    s.bytes().filter(|&b| b != 0)
}

fn with(prefix: u8, parts: &[&str]) -> Vec<u8> {
    let mut k = vec![prefix];
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            k.push(0);
        }
        k.extend(clean(p));
    }
    k
}

/// The rating record of game `id`.
#[must_use]
pub fn end(id: u64) -> Vec<u8> {
    let mut k = vec![END];
    k.extend_from_slice(&id.to_be_bytes());
    k
}

/// A player's profile.
#[must_use]
pub fn profile(player: &str) -> Vec<u8> {
    with(PROFILE, &[player])
}

/// The record of two players (in either order).
#[must_use]
pub fn pair(a: &str, b: &str) -> Vec<u8> {
    let (x, y) = if a <= b { (a, b) } else { (b, a) };
    with(PAIR, &[x, y])
}

/// The prefix of a player's history in a family.
#[must_use]
pub fn history_prefix(player: &str, family: Family) -> Vec<u8> {
    let mut k = with(HISTORY, &[player]);
    k.push(0);
    k.push(family.index());
    k
}

/// One history point.
#[must_use]
pub fn history(player: &str, family: Family, at_ms: u64, game: u64) -> Vec<u8> {
    let mut k = history_prefix(player, family);
    k.extend_from_slice(&at_ms.to_be_bytes());
    k.extend_from_slice(&game.to_be_bytes());
    k
}

/// The prefix of a leaderboard.
#[must_use]
pub fn board_prefix(scope: &str, family: Family) -> Vec<u8> {
    let mut k = with(BOARD, &[scope]);
    k.push(0);
    k.push(family.index());
    k
}

/// A player's entry on a leaderboard.
#[must_use]
pub fn board(scope: &str, family: Family, rating: f64, player: &str) -> Vec<u8> {
    let mut k = board_prefix(scope, family);
    // Hundredths of a point, inverted so the highest rating comes first.
    let scaled = (rating.clamp(0.0, 40_000.0) * 100.0).round() as u32;
    k.extend_from_slice(&(u32::MAX - scaled).to_be_bytes());
    k.extend(clean(player));
    k
}

/// The first key of a leaderboard at or after the (inverted, scaled) rating `inverted`.
#[must_use]
pub fn board_from(scope: &str, family: Family, inverted: u32) -> Vec<u8> {
    let mut k = board_prefix(scope, family);
    k.extend_from_slice(&inverted.to_be_bytes());
    k
}

/// The inverted, scaled rating in a leaderboard key made by [`board`] with `prefix`.
#[must_use]
pub fn board_rating(key: &[u8], prefix_len: usize) -> Option<u32> {
    Some(u32::from_be_bytes(
        key.get(prefix_len..prefix_len + 4)?.try_into().ok()?,
    ))
}

/// The prefix of a leaderboard's bands.
#[must_use]
pub fn band_prefix(scope: &str, family: Family) -> Vec<u8> {
    let mut k = with(BAND, &[scope]);
    k.push(0);
    k.push(family.index());
    k
}

/// The key of the band holding the leaderboard entry `board_key` (made by [`board`]).
#[must_use]
pub fn band_of(board_key: &[u8]) -> Option<Vec<u8>> {
    if board_key.first() != Some(&BOARD) {
        return None;
    }
    // The scope holds no 0 byte: the first one ends it; the family byte and the rating follow.
    let end = board_key.iter().position(|&b| b == 0)?;
    let inverted = board_rating(board_key, end + 2)?;
    let mut k = vec![BAND];
    k.extend_from_slice(&board_key[1..=end + 1]);
    k.extend_from_slice(&(inverted / super::board::BAND_WIDTH).to_be_bytes());
    Some(k)
}

/// The band number at the end of a band key made with `prefix`.
#[must_use]
pub fn band_number(key: &[u8], prefix_len: usize) -> Option<u32> {
    board_rating(key, prefix_len)
}

/// The player id at the end of a leaderboard key made by [`board`] with `prefix`.
#[must_use]
pub fn board_player(key: &[u8], prefix_len: usize) -> Option<String> {
    let rest = key.get(prefix_len + 4..)?;
    String::from_utf8(rest.to_vec()).ok()
}

/// A scope's last rated family.
#[must_use]
pub fn community(scope: &str) -> Vec<u8> {
    with(COMMUNITY, &[scope])
}

/// A handle (`tg:@name`) pointing to a player id.
#[must_use]
pub fn alias(handle: &str) -> Vec<u8> {
    with(ALIAS, &[handle])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaderboard_keys_sort_highest_first_and_give_back_the_player() {
        let p = board_prefix("dc:g:1", Family::Blitz);
        let hi = board("dc:g:1", Family::Blitz, 1850.25, "dc:7");
        let lo = board("dc:g:1", Family::Blitz, 1500.0, "dc:8");
        assert!(hi < lo && hi.starts_with(&p) && lo.starts_with(&p));
        assert_eq!(board_player(&hi, p.len()).as_deref(), Some("dc:7"));
        // Another family or scope is another prefix.
        assert!(!board("dc:g:1", Family::Rapid, 1500.0, "x").starts_with(&p));
        assert!(!board("dc:g:12", Family::Blitz, 1500.0, "x").starts_with(&p));
    }

    #[test]
    fn a_band_key_follows_its_entry_and_bands_sort_like_the_board() {
        let hi = board("dc:g:1", Family::Blitz, 1850.25, "dc:7");
        let lo = board("dc:g:1", Family::Blitz, 1500.0, "dc:8");
        let p = band_prefix("dc:g:1", Family::Blitz);
        let (bh, bl) = (band_of(&hi).expect("band"), band_of(&lo).expect("band"));
        assert!(bh.starts_with(&p) && bl.starts_with(&p) && bh < bl);
        let n = band_number(&bh, p.len()).expect("number");
        let from = board_from(
            "dc:g:1",
            Family::Blitz,
            n * crate::rating::board::BAND_WIDTH,
        );
        assert!(
            from <= hi
                && hi
                    < board_from(
                        "dc:g:1",
                        Family::Blitz,
                        (n + 1) * crate::rating::board::BAND_WIDTH
                    )
        );
        // Close ratings share a band; another scope or family is another prefix.
        assert_eq!(
            band_of(&board("dc:g:1", Family::Blitz, 1850.0, "x")),
            Some(bh)
        );
        assert!(!band_of(&board("dc:g:12", Family::Blitz, 1850.0, "x"))
            .expect("band")
            .starts_with(&p));
        assert_eq!(band_of(&profile("dc:7")), None);
    }

    #[test]
    fn pair_keys_ignore_order_and_history_sorts_by_time() {
        assert_eq!(pair("tg:1", "tg:2"), pair("tg:2", "tg:1"));
        let a = history("tg:1", Family::Rapid, 5, 99);
        let b = history("tg:1", Family::Rapid, 6, 1);
        assert!(a < b);
        assert!(a.starts_with(&history_prefix("tg:1", Family::Rapid)));
        assert!(!a.starts_with(&history_prefix("tg:11", Family::Rapid)));
    }
}
