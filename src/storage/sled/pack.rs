//! What sled stores of a record: its JSON, compressed (LZ4) against a dictionary of our own
//! records' usual words, or the JSON itself.
//!
//! Each move rewrites its game's record, its channel's record and a reply waiting in the
//! outbox, and sled, log-structured, writes every one of them out again (and again when it
//! rewrites a page of sixteen records). Most of those bytes are the same field names and values
//! from one record to the next, and a small record compresses poorly on its own. Against a
//! dictionary that holds typical records, the field names and the common values are references
//! of two or three bytes, so a record is stored in about a quarter of its JSON
//! (docs/service-cost.md has the figures).
//!
//! The stored form: the byte [`PACKED_V1`], the JSON's length (4 bytes, little-endian), then the
//! LZ4 block made against [`DICTIONARY_V1`]. JSON begins with `{` or `[`, so a record written
//! before packing, or left unpacked because packing did not make it smaller, reads as it is.
//! The dictionary is part of the stored form: it never changes. A better one would come with a
//! tag of its own, and both would be read.

use std::borrow::Cow;

/// The first byte of a record packed against [`DICTIONARY_V1`].
pub const PACKED_V1: u8 = 0x01;

/// Typical records of each kind (a game in progress with a clock, a channel with a menu shown,
/// a reply with its board to draw and its buttons, a user's preferences), as the bot stores them.
const DICTIONARY_V1: &[u8] = include_bytes!("pack_dictionary_v1.txt");

/// The tag byte and the JSON's length before the block.
const HEADER: usize = 5;

/// The largest record unpacked (records are a few KB; a damaged length must not allocate more).
const MAX_UNPACKED: usize = 16 << 20;

/// `json` as stored: packed when that is smaller, else as it is.
#[must_use]
pub fn pack(json: Vec<u8>) -> Vec<u8> {
    let Ok(len) = u32::try_from(json.len()) else {
        return json;
    };
    let block = lz4_flex::block::compress_with_dict(&json, DICTIONARY_V1);
    if block.len() + HEADER >= json.len() {
        return json;
    }
    let mut out = Vec::with_capacity(block.len() + HEADER);
    out.push(PACKED_V1);
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&block);
    out
}

/// The JSON of a stored record.
///
/// # Errors
/// A packed record that does not unpack (a damaged file), described.
pub fn unpack(stored: &[u8]) -> Result<Cow<'_, [u8]>, String> {
    match stored.first() {
        Some(&PACKED_V1) => {
            let (head, block) = stored
                .get(1..HEADER)
                .map(|h| (h, &stored[HEADER..]))
                .ok_or_else(|| "a packed record is cut short".to_string())?;
            let len = u32::from_le_bytes(head.try_into().unwrap_or_default()) as usize;
            if len > MAX_UNPACKED {
                return Err(format!("a packed record claims {len} bytes"));
            }
            let json = lz4_flex::block::decompress_with_dict(block, len, DICTIONARY_V1)
                .map_err(|e| format!("a packed record does not unpack: {e}"))?;
            if json.len() != len {
                return Err("a packed record unpacks to the wrong length".to_string());
            }
            Ok(Cow::Owned(json))
        }
        _ => Ok(Cow::Borrowed(stored)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_shrink() {
        let game = br#"{"v":1,"id":42,"channel":"tg:-1001234","red":{"id":"tg:1","name":"Alice"},"black":{"id":"tg:2","name":"Bob"},"ruleset":"official","start_fen":null,"moves":["h2e2","h9g7","b0c2"],"time_control":{"kind":"fischer","base_ms":600000,"increment_ms":5000},"clock":{"red_ms":598000,"black_ms":601000,"running":"red","since_ms":1765000000000},"status":"active","draw_offer":null,"takeback_request":null,"last_refusal":null,"takebacks":true,"created_ms":1765000000000,"updated_ms":1765000012000,"rated":true,"community":"tg:-1001234","lang":"vi"}"#;
        let packed = pack(game.to_vec());
        assert_eq!(packed[0], PACKED_V1);
        assert!(
            packed.len() * 2 < game.len(),
            "{} bytes packed from {}",
            packed.len(),
            game.len()
        );
        assert_eq!(unpack(&packed).unwrap().as_ref(), game.as_slice());
    }

    #[test]
    fn json_stored_before_packing_reads_as_it_is() {
        for json in [&b"{}"[..], b"[1,2]", br#"{"v":1}"#] {
            assert_eq!(pack(json.to_vec()), json, "too small to gain");
            assert!(matches!(unpack(json), Ok(Cow::Borrowed(j)) if j == json));
        }
    }

    #[test]
    fn a_damaged_packed_record_is_an_error_not_a_panic() {
        let packed = pack(br#"{"settings":{"lang":"vi","ruleset":"official","hints":false,"takebacks":true},"active_game":12,"last_game":11,"challenge":null}"#.to_vec());
        assert_eq!(packed[0], PACKED_V1);
        assert!(unpack(&packed[..3]).is_err());
        let mut long = packed.clone();
        long[1..5].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(unpack(&long).is_err());
        // Every byte flipped in turn: an error or some bytes, never a panic.
        for i in HEADER..packed.len() {
            let mut bad = packed.clone();
            bad[i] ^= 0x5a;
            let _ = unpack(&bad);
        }
    }

    /// A record packed by the first version of this file: what is stored must read forever,
    /// so the dictionary and the format may not change under it.
    #[test]
    fn a_record_packed_by_version_one_still_reads() {
        let json = br#"{"v":1,"settings":{"lang":"en"},"active_game":7,"last_game":6}"#;
        // `pack` made these bytes of `json` when version one was written.
        const STORED: [u8; 30] = [
            1, 62, 0, 0, 0, 4, 27, 2, 14, 241, 6, 1, 223, 0, 11, 194, 6, 19, 55, 164, 5, 128, 103,
            97, 109, 101, 34, 58, 54, 125,
        ];
        assert_eq!(unpack(&STORED).unwrap().as_ref(), json.as_slice());
        assert_eq!(
            unpack(&pack(json.to_vec())).unwrap().as_ref(),
            json.as_slice()
        );
    }
}
