//! A Telegram Mini App's launch data (`initData`), checked as Telegram's Mini App
//! documentation ("Validating data received via the Mini App") describes: the fields, less
//! `hash`, sorted by name and joined as `name=value` lines; their HMAC-SHA-256 under the key
//! HMAC-SHA-256("WebAppData", bot token) must be `hash`; and `auth_date` must be recent. Only
//! then is the `user` in it believed. The bot token is the secret: it never leaves this
//! process, and neither the data nor the token is logged.
//!
//! The web board trades checked launch data for an ordinary signed link of
//! [`super::links`] (play for a player of the game, watch for anyone else), so that
//! everything after the launch is the same as for a link `/web` gave.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use super::links::LinkError;

/// Launch data older than this is refused: it is made when the Mini App opens, and the page
/// trades it for a link at once.
pub const MAX_AGE_SECS: u64 = 3600;
/// The longest launch data read (Telegram's is well under 1 KB; a long name and photo URL
/// stay far below this).
pub const MAX_LEN: usize = 4096;

/// What checked launch data says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    /// The Telegram user's id.
    pub user: i64,
    /// Their client's language (`language_code`), if sent.
    pub language: Option<String>,
    /// `start_param`: what a direct link (`t.me/bot/app?startapp=…`) carried, if any.
    pub start_param: Option<String>,
    /// When Telegram made it (seconds since the Unix epoch).
    pub auth_date: u64,
}

/// Check `init_data` (the query string Telegram gives the Mini App) against `bot_token` at
/// `now` (seconds since the Unix epoch).
///
/// # Errors
/// [`LinkError::Forged`] when it is not Telegram's for this bot (or altered, or not launch
/// data at all); [`LinkError::Expired`] when it is older than [`MAX_AGE_SECS`] (or dated in
/// the future beyond a minute's clock skew).
pub fn check(bot_token: &str, init_data: &str, now: u64) -> Result<Launch, LinkError> {
    if init_data.len() > MAX_LEN || bot_token.is_empty() {
        return Err(LinkError::Forged);
    }
    let mut fields: Vec<(String, String)> = Vec::new();
    let mut hash = None;
    for (k, v) in form_urlencoded::parse(init_data.as_bytes()) {
        if k == "hash" {
            if hash.replace(v.into_owned()).is_some() {
                return Err(LinkError::Forged);
            }
        } else {
            fields.push((k.into_owned(), v.into_owned()));
        }
    }
    let hash = hash.ok_or(LinkError::Forged)?;
    let tag = super::links::unhex(&hash)
        .filter(|t| t.len() == 32)
        .ok_or(LinkError::Forged)?;
    fields.sort();
    if fields.windows(2).any(|w| w[0].0 == w[1].0) {
        return Err(LinkError::Forged);
    }
    mac(
        bot_token,
        fields.iter().map(|(k, v)| (k.as_str(), v.as_str())),
    )
    .verify_slice(&tag)
    .map_err(|_| LinkError::Forged)?;
    // Telegram's own data from here on.
    let field = |name: &str| {
        fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    let auth_date: u64 = field("auth_date")
        .and_then(|d| d.parse().ok())
        .ok_or(LinkError::Forged)?;
    #[derive(serde::Deserialize)]
    struct User {
        id: i64,
        language_code: Option<String>,
    }
    let user: User = field("user")
        .and_then(|u| serde_json::from_str(u).ok())
        .ok_or(LinkError::Forged)?;
    if auth_date > now + 60 || now.saturating_sub(auth_date) > MAX_AGE_SECS {
        return Err(LinkError::Expired);
    }
    Ok(Launch {
        user: user.id,
        language: user.language_code,
        start_param: field("start_param").map(str::to_string),
        auth_date,
    })
}

/// Launch data for `fields` signed with `bot_token`, as Telegram makes it (for tests and the
/// benches: Telegram itself signs the real ones).
#[must_use]
pub fn sign(bot_token: &str, fields: &[(&str, &str)]) -> String {
    let mut sorted: Vec<(&str, &str)> = fields.to_vec();
    sorted.sort_unstable();
    let hash = super::links::hex(&mac(bot_token, sorted.into_iter()).finalize().into_bytes());
    let mut out = form_urlencoded::Serializer::new(String::new());
    for (k, v) in fields {
        out.append_pair(k, v);
    }
    out.append_pair("hash", &hash);
    out.finish()
}

/// The MAC of `fields` (sorted by name) as Telegram computes it: over their `name=value`
/// lines, keyed with HMAC-SHA-256("WebAppData", bot token).
fn mac<'a>(bot_token: &str, fields: impl Iterator<Item = (&'a str, &'a str)>) -> Hmac<Sha256> {
    let check_string = fields
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut secret = Hmac::<Sha256>::new_from_slice(b"WebAppData").expect("any key length");
    secret.update(bot_token.as_bytes());
    let secret = secret.finalize().into_bytes();
    let mut mac = Hmac::<Sha256>::new_from_slice(&secret).expect("any key length");
    mac.update(check_string.as_bytes());
    mac
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const TOKEN: &str = "123456:TEST-token_abc";
    const USER: &str = r#"{"id":279058397,"first_name":"Vladislav","language_code":"vi"}"#;

    fn data(auth: &str) -> String {
        sign(
            TOKEN,
            &[
                ("query_id", "AAHdF6IQAAAAAN0XohDhrOrc"),
                ("user", USER),
                ("auth_date", auth),
                ("start_param", "42"),
            ],
        )
    }

    #[test]
    fn telegrams_launch_data_is_read() {
        let l = check(TOKEN, &data("1000"), 1500).expect("good");
        assert_eq!(l.user, 279_058_397);
        assert_eq!(l.language.as_deref(), Some("vi"));
        assert_eq!(l.start_param.as_deref(), Some("42"));
        assert_eq!(l.auth_date, 1000);
    }

    /// The algorithm as Telegram's documentation gives it, written out here a second time on
    /// a fixed string, so that `sign` and `check` cannot agree on a mistake.
    #[test]
    fn the_hash_is_telegrams() {
        let check_string = format!("auth_date=1000\nquery_id=Q\nuser={USER}");
        let mut k = Hmac::<Sha256>::new_from_slice(b"WebAppData").unwrap();
        k.update(TOKEN.as_bytes());
        let k = k.finalize().into_bytes();
        let mut m = Hmac::<Sha256>::new_from_slice(&k).unwrap();
        m.update(check_string.as_bytes());
        let hash = super::super::links::hex(&m.finalize().into_bytes());
        // Fields in any order, percent-encoded as a query string.
        let mut q = form_urlencoded::Serializer::new(String::new());
        q.append_pair("user", USER);
        q.append_pair("hash", &hash);
        q.append_pair("query_id", "Q");
        q.append_pair("auth_date", "1000");
        let l = check(TOKEN, &q.finish(), 1000).expect("good");
        assert_eq!(l.user, 279_058_397);
    }

    #[test]
    fn forged_altered_and_old_launch_data_is_refused() {
        let good = data("1000");
        assert_eq!(check("654321:other", &good, 1000), Err(LinkError::Forged));
        assert_eq!(check("", &good, 1000), Err(LinkError::Forged));
        let other_user = good.replace("279058397", "279058398");
        assert_ne!(other_user, good);
        assert_eq!(check(TOKEN, &other_user, 1000), Err(LinkError::Forged));
        let other_game = good.replace("start_param=42", "start_param=43");
        assert_eq!(check(TOKEN, &other_game, 1000), Err(LinkError::Forged));
        let no_hash: String = good.split("&hash=").next().unwrap().to_string();
        assert_eq!(check(TOKEN, &no_hash, 1000), Err(LinkError::Forged));
        let twice = format!("{good}&auth_date=1000");
        assert_eq!(check(TOKEN, &twice, 1000), Err(LinkError::Forged));
        assert_eq!(
            check(TOKEN, &good, 1000 + MAX_AGE_SECS + 1),
            Err(LinkError::Expired)
        );
        assert_eq!(check(TOKEN, &good, 100), Err(LinkError::Expired));
        assert!(check(TOKEN, &good, 1000 + MAX_AGE_SECS).is_ok());
        // Signed, but not launch data: no user.
        let no_user = sign(TOKEN, &[("auth_date", "1000")]);
        assert_eq!(check(TOKEN, &no_user, 1000), Err(LinkError::Forged));
        assert_eq!(
            check(TOKEN, &"a".repeat(MAX_LEN + 1), 0),
            Err(LinkError::Forged)
        );
    }

    proptest! {
        #[test]
        fn any_text_is_refused_without_a_panic(s in ".{0,300}") {
            prop_assert!(check(TOKEN, &s, 1000).is_err());
        }

        #[test]
        fn any_change_to_good_data_is_refused(at in 0usize..400, c in any::<char>()) {
            let good = data("1000");
            let at = at % good.len();
            if good.is_char_boundary(at) {
                let mut bad = good.clone();
                bad.insert(at, c);
                // Inserting may still decode to the same fields (an '&' gives an empty pair):
                // then it is the same data, and may pass; anything else may not.
                if let Ok(l) = check(TOKEN, &bad, 1000) {
                    prop_assert_eq!(l, check(TOKEN, &good, 1000).unwrap());
                }
            }
        }
    }
}
