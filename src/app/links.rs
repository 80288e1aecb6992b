//! Signed links to the web board: `/web` gives a player a link to play their game (signed
//! for them and the game, with an expiry), `/watch` a link anyone may open to watch it.
//!
//! A link's token is `{kind}{game}.{user}.{expires}.{tag}`: `kind` is `p` (play) or `w`
//! (watch), `user` the player's key in hexadecimal (empty for a watch link), `expires` in
//! seconds since the Unix epoch, and `tag` the first 128 bits of
//! HMAC-SHA-256(secret, the fields before it), in hexadecimal. The server checks the tag (in
//! constant time) and the expiry before anything else, so a forged, altered or expired link
//! changes nothing; the secret comes from `WEB_SECRET` or a file only the bot reads, and
//! never appears in a link or a log.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use crate::platform::UserKey;

/// How long a play link lasts.
pub const PLAY_LINK_SECS: u64 = 24 * 3600;
/// How long a watch link lasts.
pub const WATCH_LINK_SECS: u64 = 7 * 24 * 3600;
/// The longest token read (a player key is at most a few dozen characters).
const MAX_TOKEN: usize = 400;
/// Bytes of the tag kept.
const TAG_BYTES: usize = 16;

/// What a link lets its holder do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Access {
    /// Play game `game` as `user` (who still has to be one of its players, and to move).
    Play {
        /// The game's id.
        game: u64,
        /// The player it was given to.
        user: UserKey,
    },
    /// Watch game `game`.
    Watch {
        /// The game's id.
        game: u64,
    },
}

impl Access {
    /// Its page's path segment and the first letter of its token: `p` (play) or `w` (watch).
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Access::Play { .. } => "p",
            Access::Watch { .. } => "w",
        }
    }

    /// The game it is for.
    #[must_use]
    pub fn game(&self) -> u64 {
        match self {
            Access::Play { game, .. } | Access::Watch { game } => *game,
        }
    }
}

/// Why a token was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkError {
    /// Not a token this server made (or altered since).
    Forged,
    /// Past its expiry.
    Expired,
}

/// The key links are signed with (never printed: `Debug` hides it).
#[derive(Clone)]
pub struct LinkKey(Vec<u8>);

impl std::fmt::Debug for LinkKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LinkKey(…)")
    }
}

impl LinkKey {
    /// A key from secret bytes.
    #[must_use]
    pub fn new(secret: impl Into<Vec<u8>>) -> LinkKey {
        LinkKey(secret.into())
    }

    fn tag(&self, signed: &str) -> Hmac<Sha256> {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.0).expect("any key length");
        mac.update(b"xiangqi-web-link|");
        mac.update(signed.as_bytes());
        mac
    }

    /// The token for `access`, valid until `expires` (seconds since the Unix epoch).
    #[must_use]
    pub fn sign(&self, access: &Access, expires: u64) -> String {
        let signed = match access {
            Access::Play { game, user } => format!("p{game}.{}.{expires}", hex(user.as_bytes())),
            Access::Watch { game } => format!("w{game}..{expires}"),
        };
        let tag = self.tag(&signed).finalize().into_bytes();
        format!("{signed}.{}", hex(&tag[..TAG_BYTES]))
    }

    /// What `token` allows at `now` (seconds since the Unix epoch).
    ///
    /// # Errors
    /// [`LinkError::Forged`] for anything this key did not sign as it is; [`LinkError::Expired`]
    /// for a token signed by it that has run out.
    pub fn verify(&self, token: &str, now: u64) -> Result<Access, LinkError> {
        if token.len() > MAX_TOKEN || !token.is_ascii() {
            return Err(LinkError::Forged);
        }
        let (signed, tag) = token.rsplit_once('.').ok_or(LinkError::Forged)?;
        let tag = unhex(tag).ok_or(LinkError::Forged)?;
        if tag.len() != TAG_BYTES {
            return Err(LinkError::Forged);
        }
        self.tag(signed)
            .verify_truncated_left(&tag)
            .map_err(|_| LinkError::Forged)?;
        // Signed by this key: the fields are as it wrote them.
        let mut fields = signed.split('.');
        let (Some(head), Some(user), Some(expires), None) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            return Err(LinkError::Forged);
        };
        let expires: u64 = expires.parse().map_err(|_| LinkError::Forged)?;
        let game: u64 = head
            .get(1..)
            .and_then(|g| g.parse().ok())
            .ok_or(LinkError::Forged)?;
        let access = match head.as_bytes().first() {
            Some(b'p') => {
                let user = unhex(user).and_then(|u| String::from_utf8(u).ok());
                Access::Play {
                    game,
                    user: UserKey::from(user.ok_or(LinkError::Forged)?),
                }
            }
            Some(b'w') if user.is_empty() => Access::Watch { game },
            _ => return Err(LinkError::Forged),
        };
        if now >= expires {
            return Err(LinkError::Expired);
        }
        Ok(access)
    }
}

/// `bytes` in lower-case hexadecimal.
pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// Lower- or upper-case hexadecimal read back; `None` for anything else.
pub(crate) fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> LinkKey {
        LinkKey::new(b"a secret of the tests, long enough".to_vec())
    }

    #[test]
    fn a_link_is_read_back_as_signed_until_it_expires() {
        let play = Access::Play {
            game: 42,
            user: UserKey::from("tg:1234"),
        };
        let t = key().sign(&play, 1_000);
        assert_eq!(key().verify(&t, 999), Ok(play));
        assert_eq!(key().verify(&t, 1_000), Err(LinkError::Expired));
        let watch = Access::Watch { game: 7 };
        let t = key().sign(&watch, 50);
        assert!(t.starts_with("w7..50."), "{t}");
        assert_eq!(key().verify(&t, 10), Ok(watch));
        assert!(
            t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'.'),
            "fits a URL path as it is: {t}"
        );
    }

    #[test]
    fn forged_and_altered_links_are_refused() {
        let k = key();
        let t = k.sign(
            &Access::Play {
                game: 42,
                user: UserKey::from("dc:9"),
            },
            1_000,
        );
        let other = LinkKey::new(b"another key".to_vec());
        assert_eq!(other.verify(&t, 0), Err(LinkError::Forged));
        // Another game, another player, a later expiry, a watch link made a play link: each
        // changes what was signed.
        for altered in [
            t.replacen("p42", "p43", 1),
            t.replacen(&hex(b"dc:9"), &hex(b"dc:8"), 1),
            t.replacen(".1000.", ".9000.", 1),
            t.replacen('p', "w", 1),
        ] {
            assert_ne!(altered, t);
            assert_eq!(k.verify(&altered, 0), Err(LinkError::Forged), "{altered}");
        }
        let mut flipped = t.clone().into_bytes();
        let last = flipped.len() - 1;
        flipped[last] = if flipped[last] == b'0' { b'1' } else { b'0' };
        let flipped = String::from_utf8(flipped).unwrap();
        assert_eq!(k.verify(&flipped, 0), Err(LinkError::Forged));
        // An expired forgery is a forgery: the tag is checked first.
        assert_eq!(k.verify(&flipped, 5_000), Err(LinkError::Forged));
    }

    #[test]
    fn any_text_is_refused_without_a_panic() {
        let k = key();
        for t in [
            "",
            ".",
            "...",
            "p..",
            "p1.zz.1.00",
            "w1.00.5.",
            "p1.ab.1.0g",
            "é",
            "p1.\u{0}.1.0",
        ] {
            assert_eq!(k.verify(t, 0), Err(LinkError::Forged), "{t:?}");
        }
        assert_eq!(k.verify(&"a".repeat(10_000), 0), Err(LinkError::Forged));
        // Random texts: never accepted, never a panic.
        let mut state = 7u64;
        for _ in 0..2_000 {
            let n = usize::try_from(crate::core::next_random(&mut state) % 60).unwrap();
            let t: String = (0..n)
                .map(|_| {
                    let c = crate::core::next_random(&mut state) % 20;
                    b"pw0123456789abcdef.."[usize::try_from(c).unwrap()] as char
                })
                .collect();
            assert!(k.verify(&t, 0).is_err(), "{t}");
        }
    }
}
