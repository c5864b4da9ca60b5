//! Fingerprints: `sha256:` and the lowercase hex SHA-256 of a value's canonical JSON bytes.
//!
//! The engine names four kinds, and all four are this one function over their own
//! canonical JSON — there is no other hashing of state anywhere:
//!
//! | fingerprint | over |
//! |---|---|
//! | content revision | the parsed, typed content bundle |
//! | state fingerprint | the full match state, generator states included |
//! | view fingerprint | what one seat may see of the state |
//! | receipt hash | `{sequence, commandId, seat, tick, action, events, before, after, previous}` |
//!
//! ```
//! use std::collections::BTreeMap;
//! use turnstile_determinism::Fingerprint;
//! let value: BTreeMap<&str, i32> = [("b", 2), ("a", 1)].into_iter().collect();
//! let fp = Fingerprint::of(&value).unwrap();
//! assert_eq!(fp, Fingerprint::of_bytes(br#"{"a":1,"b":2}"#));
//! assert_eq!(fp.to_string().len(), "sha256:".len() + 64);
//! ```

use core::fmt;
use core::str::FromStr;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

use crate::canonical::{CanonicalError, CanonicalWriter};

const PREFIX: &str = "sha256:";
const HEX: &[u8; 16] = b"0123456789abcdef";

/// The two lowercase hex digits of each byte value.
const HEX_PAIRS: [[u8; 2]; 256] = {
    let mut table = [[0; 2]; 256];
    let mut i = 0;
    while i < 256 {
        table[i] = [HEX[i >> 4], HEX[i & 0xf]];
        i += 1;
    }
    table
};

/// A SHA-256 fingerprint of canonical bytes, written `sha256:<64 lowercase hex>`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fingerprint([u8; 32]);

/// Text that is not `sha256:` followed by 64 lowercase hex digits.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a fingerprint: expected `sha256:` and 64 lowercase hex digits")]
pub struct FingerprintError {
    /// The offending text.
    pub text: String,
}

impl FingerprintError {
    /// The stable, documented code of this error.
    pub const fn code(&self) -> &'static str {
        "fingerprint.syntax"
    }
}

impl Fingerprint {
    /// The fingerprint of `value`'s canonical JSON.
    pub fn of<T: Serialize + ?Sized>(value: &T) -> Result<Fingerprint, CanonicalError> {
        Fingerprinter::new().fingerprint(value)
    }

    /// The fingerprint of bytes that are already canonical.
    pub fn of_bytes(canonical: &[u8]) -> Fingerprint {
        Fingerprint(Sha256::digest(canonical).into())
    }

    /// A fingerprint from its 32 digest bytes.
    pub const fn from_digest(digest: [u8; 32]) -> Fingerprint {
        Fingerprint(digest)
    }

    /// The 32 digest bytes.
    pub const fn digest(&self) -> &[u8; 32] {
        &self.0
    }

    /// The text form as bytes, without allocating.
    fn encode(&self) -> [u8; 71] {
        let mut out = [0; 71];
        out[..7].copy_from_slice(PREFIX.as_bytes());
        // Two digits a byte from one table: every receipt writes several fingerprints.
        for (i, b) in self.0.iter().enumerate() {
            let [hi, lo] = HEX_PAIRS[usize::from(*b)];
            out[7 + 2 * i] = hi;
            out[8 + 2 * i] = lo;
        }
        out
    }
}

/// Fingerprints many values with one reusable [`CanonicalWriter`], so hot loops
/// (previews, replays, benchmarks) do not allocate per value.
#[derive(Default)]
pub struct Fingerprinter {
    writer: CanonicalWriter,
}

impl Fingerprinter {
    /// A fingerprinter with empty buffers.
    pub fn new() -> Fingerprinter {
        Fingerprinter::default()
    }

    /// The fingerprint of `value`'s canonical JSON.
    pub fn fingerprint<T: Serialize + ?Sized>(
        &mut self,
        value: &T,
    ) -> Result<Fingerprint, CanonicalError> {
        let bytes = self.writer.write(value)?;
        Ok(Fingerprint::of_bytes(bytes))
    }
}

impl Fingerprinter {
    /// The fingerprint of the bytes a hand-written canonical writer produces (see
    /// [`CanonicalWriter::write_with`]).
    pub fn fingerprint_with<F>(&mut self, write: F) -> Result<Fingerprint, CanonicalError>
    where
        F: FnOnce(&mut CanonicalWriter) -> Result<(), CanonicalError>,
    {
        let bytes = self.writer.write_with(write)?;
        Ok(Fingerprint::of_bytes(bytes))
    }
}

impl Fingerprint {
    /// Appends this fingerprint as a canonical JSON string, inside a hand-written canonical
    /// writer: the text form is known to need no escaping, so it is copied as it is (no UTF-8
    /// check, no escaping scan).
    pub fn write_canonical(&self, writer: &mut CanonicalWriter) {
        let text = self.encode();
        let mut quoted = [b'"'; 73];
        quoted[1..72].copy_from_slice(&text);
        writer.plain(&quoted);
    }
}

impl fmt::Display for Fingerprint {
    /// `sha256:` and 64 lowercase hex digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.encode();
        f.write_str(core::str::from_utf8(&text).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Fingerprint {
    type Err = FingerprintError;

    /// Parses exactly `sha256:` and 64 lowercase hex digits.
    fn from_str(text: &str) -> Result<Fingerprint, FingerprintError> {
        let error = || FingerprintError { text: text.into() };
        let hex = text.strip_prefix(PREFIX).ok_or_else(error)?.as_bytes();
        if hex.len() != 64 {
            return Err(error());
        }
        let nibble = |c: u8| match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            _ => None,
        };
        let mut digest = [0; 32];
        for (i, pair) in hex.chunks_exact(2).enumerate() {
            let hi = nibble(pair[0]).ok_or_else(error)?;
            let lo = nibble(pair[1]).ok_or_else(error)?;
            digest[i] = (hi << 4) | lo;
        }
        Ok(Fingerprint(digest))
    }
}

impl Serialize for Fingerprint {
    /// The text form, `sha256:<hex>`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let text = self.encode();
        let text = core::str::from_utf8(&text).map_err(serde::ser::Error::custom)?;
        serializer.serialize_str(text)
    }
}

impl<'de> Deserialize<'de> for Fingerprint {
    /// Parses the text form, validated.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Fingerprint, D::Error> {
        deserializer.deserialize_str(FingerprintVisitor)
    }
}

struct FingerprintVisitor;

impl Visitor<'_> for FingerprintVisitor {
    type Value = Fingerprint;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a fingerprint: \"sha256:\" and 64 lowercase hex digits")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Fingerprint, E> {
        v.parse()
            .map_err(|e: FingerprintError| E::custom(format_args!("{}: {}", e.code(), e)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_and_known() {
        // SHA-256 of the empty string (FIPS 180-2 test vector).
        assert_eq!(
            Fingerprint::of_bytes(b"").to_string(),
            "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        // SHA-256 of "abc" (FIPS 180-2 test vector).
        assert_eq!(
            Fingerprint::of_bytes(b"abc").to_string(),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        // `of` hashes the canonical form: "abc" serializes to "\"abc\"".
        assert_eq!(
            Fingerprint::of("abc").unwrap(),
            Fingerprint::of_bytes(b"\"abc\"")
        );
    }

    #[test]
    fn parse_round_trip_and_rejections() {
        let fp = Fingerprint::of_bytes(b"x");
        assert_eq!(fp.to_string().parse::<Fingerprint>().unwrap(), fp);
        let good = fp.to_string();
        for bad in [
            good.to_uppercase(),
            good.replace("sha256:", "sha1:"),
            good[..70].to_string(),
            format!("{good}0"),
            good.replace("sha256:", ""),
            format!(" {good}"),
        ] {
            assert_eq!(
                bad.parse::<Fingerprint>().unwrap_err().code(),
                "fingerprint.syntax"
            );
        }
        assert_eq!(Fingerprint::from_digest(*fp.digest()), fp);
    }

    #[test]
    fn floats_have_no_fingerprint() {
        assert_eq!(Fingerprint::of(&1.5f64), Err(CanonicalError::Float));
    }
}
