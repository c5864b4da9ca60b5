//! `u64` as exactly 16 lowercase hex digits, for `#[serde(with = "...")]`: the JSON form of
//! generator states and increments, read exactly by every client.
//!
//! Deserializing accepts exactly 16 lowercase hex digits, nothing else.

use core::fmt;

use serde::de::{self, Visitor};
use serde::{Deserializer, Serializer};

const HEX: &[u8; 16] = b"0123456789abcdef";

/// The 16 lowercase hex digits of `value`, as bytes.
pub fn encode(value: u64) -> [u8; 16] {
    let mut out = [0; 16];
    for (i, slot) in out.iter_mut().enumerate() {
        let shift = 60 - 4 * i;
        *slot = HEX[((value >> shift) & 0xf) as usize];
    }
    out
}

/// The 16 lowercase hex digits of `value`.
pub fn to_hex(value: u64) -> String {
    format!("{value:016x}")
}

/// Parses exactly 16 lowercase hex digits.
pub fn parse(text: &str) -> Option<u64> {
    if text.len() != 16 || !text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        return None;
    }
    u64::from_str_radix(text, 16).ok()
}

/// Serializes `value` as a 16-digit lowercase hex string.
pub fn serialize<S: Serializer>(value: &u64, serializer: S) -> Result<S::Ok, S::Error> {
    let digits = encode(*value);
    // Hex digits are ASCII.
    let text = core::str::from_utf8(&digits).map_err(serde::ser::Error::custom)?;
    serializer.serialize_str(text)
}

/// Deserializes a 16-digit lowercase hex string.
pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
    deserializer.deserialize_str(HexVisitor)
}

struct HexVisitor;

impl Visitor<'_> for HexVisitor {
    type Value = u64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string of exactly 16 lowercase hex digits")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<u64, E> {
        parse(v).ok_or_else(|| E::invalid_value(de::Unexpected::Str(v), &self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for v in [0, 1, 0xa15c02b7, u64::MAX, 0x0123456789abcdef] {
            let text = to_hex(v);
            assert_eq!(encode(v), text.as_bytes());
            assert_eq!(parse(&text), Some(v));
        }
        assert_eq!(to_hex(u64::MAX), "ffffffffffffffff");
        for bad in [
            "",
            "0",
            "FFFFFFFFFFFFFFFF",
            "+fffffffffffffff",
            "0x00000000000000",
            "00000000000000000",
        ] {
            assert_eq!(parse(bad), None, "{bad:?}");
        }
    }
}
