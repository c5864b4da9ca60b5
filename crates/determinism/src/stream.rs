//! Named random streams: one [`Pcg32`] per purpose, derived from the match seed and the
//! stream's name through a pinned hash chain, so a draw in one place never shifts another.
//!
//! ```text
//! key        = utf8(seed) ++ [0x00] ++ utf8(stream)        (a NUL inside either string is rejected)
//! h          = fnv1a64(key)                                (offset 0xcbf29ce484222325, prime 0x100000001b3)
//! splitmix64 = SplitMix64 seeded with h
//! initstate  = splitmix64.next();  initseq = splitmix64.next()
//! generator  = Pcg32::new(initstate, initseq)
//! ```
//!
//! A game declares its stream names once, in a [`StreamTable`]; its match state holds the
//! generators in [`Streams`], created for every declared name when the match starts.
//! Drawing from a name that is not there is [`StreamError::Undeclared`], never a silent
//! new stream.
//!
//! ```
//! use turnstile_determinism::stream::{derive_stream, StreamTable, Streams};
//! const TABLE: StreamTable = StreamTable::new(&["deck", "dice"]);
//! let mut streams = Streams::new("demo-seed", &TABLE).unwrap();
//! let roll = streams.below("dice", 6).unwrap();
//! assert_eq!(roll, derive_stream("demo-seed", "dice").unwrap().below(6).unwrap());
//! assert_eq!(streams.below("shop", 6).unwrap_err().code(), "stream.undeclared");
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::chance::Chance;
use crate::pcg::{Pcg32, RandomError};

/// FNV-1a 64 offset basis.
pub const FNV1A64_OFFSET: u64 = 0xcbf29ce484222325;
/// FNV-1a 64 prime.
pub const FNV1A64_PRIME: u64 = 0x100000001b3;

const fn fnv1a64_extend(mut h: u64, bytes: &[u8]) -> u64 {
    let mut i = 0;
    while i < bytes.len() {
        h ^= bytes[i] as u64;
        h = h.wrapping_mul(FNV1A64_PRIME);
        i += 1;
    }
    h
}

/// FNV-1a 64 of `bytes`: `h = offset; for each byte { h ^= b; h = h * prime }` (wrapping).
pub const fn fnv1a64(bytes: &[u8]) -> u64 {
    fnv1a64_extend(FNV1A64_OFFSET, bytes)
}

/// The SplitMix64 generator, used only to spread a stream key's hash into PCG32 seeds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    x: u64,
}

impl SplitMix64 {
    /// A generator seeded with `seed`.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { x: seed }
    }

    /// The next output: `x += 0x9e3779b97f4a7c15; z = x; z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
    /// z = (z ^ (z >> 27)) * 0x94d049bb133111eb; z ^ (z >> 31)` (wrapping).
    pub const fn next_u64(&mut self) -> u64 {
        self.x = self.x.wrapping_add(0x9e3779b97f4a7c15);
        let mut z = self.x;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
        z ^ (z >> 31)
    }
}

/// Every intermediate value of the hash chain for one (seed, stream) pair, as the published
/// vectors list them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StreamStages {
    /// `fnv1a64(utf8(seed) ++ [0] ++ utf8(stream))`.
    pub h: u64,
    /// The first SplitMix64 output from `h`.
    pub initstate: u64,
    /// The second SplitMix64 output from `h`.
    pub initseq: u64,
}

impl StreamStages {
    /// The generator these stages seed: `Pcg32::new(initstate, initseq)`.
    pub const fn generator(&self) -> Pcg32 {
        Pcg32::new(self.initstate, self.initseq)
    }
}

/// Why a stream could not be derived, declared or drawn from. Every variant has a stable
/// [`code`](StreamError::code).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StreamError {
    /// The seed contains a NUL character (it would make keys ambiguous).
    #[error("the seed contains a NUL character")]
    NulInSeed,
    /// A stream name contains a NUL character.
    #[error("the stream name {name:?} contains a NUL character")]
    NulInName {
        /// The rejected name.
        name: String,
    },
    /// A draw from a stream the game did not declare.
    #[error("no random stream named {name:?} is declared")]
    Undeclared {
        /// The requested name.
        name: String,
    },
    /// A stream table names the same stream twice.
    #[error("the random stream {name:?} is declared twice")]
    Duplicate {
        /// The repeated name.
        name: String,
    },
    /// Stored streams do not match the game's table.
    #[error("stored random streams do not match the declared table (first difference: {name:?})")]
    Mismatch {
        /// The first name present on one side only.
        name: String,
    },
    /// The draw itself failed.
    #[error(transparent)]
    Random(#[from] RandomError),
}

impl StreamError {
    /// The stable, documented code of this error (`stream.*`, or the draw's `random.*`).
    pub const fn code(&self) -> &'static str {
        match self {
            StreamError::NulInSeed => "stream.nul_in_seed",
            StreamError::NulInName { .. } => "stream.nul_in_name",
            StreamError::Undeclared { .. } => "stream.undeclared",
            StreamError::Duplicate { .. } => "stream.duplicate",
            StreamError::Mismatch { .. } => "stream.mismatch",
            StreamError::Random(e) => e.code(),
        }
    }
}

/// The stages of the hash chain for `(seed, stream)`.
pub fn stream_stages(seed: &str, stream: &str) -> Result<StreamStages, StreamError> {
    if seed.contains('\0') {
        return Err(StreamError::NulInSeed);
    }
    if stream.contains('\0') {
        return Err(StreamError::NulInName {
            name: stream.into(),
        });
    }
    let h = fnv1a64_extend(
        fnv1a64_extend(fnv1a64(seed.as_bytes()), &[0]),
        stream.as_bytes(),
    );
    let mut mix = SplitMix64::new(h);
    let initstate = mix.next_u64();
    let initseq = mix.next_u64();
    Ok(StreamStages {
        h,
        initstate,
        initseq,
    })
}

/// The generator of the stream named `stream` for the match seed `seed`.
pub fn derive_stream(seed: &str, stream: &str) -> Result<Pcg32, StreamError> {
    stream_stages(seed, stream).map(|s| s.generator())
}

/// The generator of the bot playing `seat`: the stream `bot:<seat>` of the match seed.
/// It lives outside the match state; the bot's choices reach the state only as commands.
pub fn bot_stream(seed: &str, seat: u32) -> Result<Pcg32, StreamError> {
    derive_stream(seed, &format!("bot:{seat}"))
}

/// A game's declaration of its random stream names, one per purpose.
///
/// ```
/// use turnstile_determinism::StreamTable;
/// const CLOVER: StreamTable = StreamTable::new(&[
///     "shuffle", "shop_slot", "shop_rarity", "shop_voucher", "pack",
///     "joker_proc", "card_proc", "boss", "tag", "misprint",
/// ]);
/// assert!(CLOVER.validate().is_ok());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamTable {
    names: &'static [&'static str],
}

impl StreamTable {
    /// A table of these names (checked by [`StreamTable::validate`] and [`Streams::new`]).
    pub const fn new(names: &'static [&'static str]) -> StreamTable {
        StreamTable { names }
    }

    /// The declared names, in declaration order.
    pub const fn names(&self) -> &'static [&'static str] {
        self.names
    }

    /// Whether `name` is declared.
    pub fn contains(&self, name: &str) -> bool {
        self.names.contains(&name)
    }

    /// Checks that no name repeats and none contains NUL.
    pub fn validate(&self) -> Result<(), StreamError> {
        for (i, name) in self.names.iter().enumerate() {
            if name.contains('\0') {
                return Err(StreamError::NulInName {
                    name: (*name).into(),
                });
            }
            if self.names[..i].contains(name) {
                return Err(StreamError::Duplicate {
                    name: (*name).into(),
                });
            }
        }
        Ok(())
    }
}

/// The named generators of one match: part of the match state, and so of its fingerprint.
///
/// Serialized as a JSON object from stream name to [`Pcg32`] (canonical order).
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Streams {
    generators: BTreeMap<String, Pcg32>,
}

impl Streams {
    /// Derives every stream `table` declares from `seed`.
    pub fn new(seed: &str, table: &StreamTable) -> Result<Streams, StreamError> {
        table.validate()?;
        let mut generators = BTreeMap::new();
        for name in table.names() {
            generators.insert((*name).to_owned(), derive_stream(seed, name)?);
        }
        Ok(Streams { generators })
    }

    /// Checks that these (for example, deserialized) streams are exactly those `table`
    /// declares.
    pub fn check_against(&self, table: &StreamTable) -> Result<(), StreamError> {
        table.validate()?;
        if let Some(name) = table
            .names()
            .iter()
            .find(|n| !self.generators.contains_key(**n))
        {
            return Err(StreamError::Mismatch {
                name: (*name).into(),
            });
        }
        if let Some(name) = self.generators.keys().find(|n| !table.contains(n)) {
            return Err(StreamError::Mismatch { name: name.clone() });
        }
        Ok(())
    }

    /// The generator named `name`.
    pub fn get(&self, name: &str) -> Result<&Pcg32, StreamError> {
        self.generators
            .get(name)
            .ok_or_else(|| StreamError::Undeclared { name: name.into() })
    }

    /// The generator named `name`, to draw from.
    pub fn get_mut(&mut self, name: &str) -> Result<&mut Pcg32, StreamError> {
        self.generators
            .get_mut(name)
            .ok_or_else(|| StreamError::Undeclared { name: name.into() })
    }

    /// The stream names, in byte order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.generators.keys().map(String::as_str)
    }

    /// The next raw output of stream `name`.
    pub fn next_u32(&mut self, name: &str) -> Result<u32, StreamError> {
        Ok(self.get_mut(name)?.next_u32())
    }

    /// A uniform draw from `0..n` on stream `name`; nothing is drawn on error.
    pub fn below(&mut self, name: &str, n: u32) -> Result<u32, StreamError> {
        Ok(self.get_mut(name)?.below(n)?)
    }

    /// Shuffles `items` with stream `name`; nothing is drawn on error.
    pub fn shuffle<T>(&mut self, name: &str, items: &mut [T]) -> Result<(), StreamError> {
        Ok(self.get_mut(name)?.shuffle(items)?)
    }

    /// Rolls `chance` on stream `name` (exactly one bounded draw).
    pub fn roll(&mut self, name: &str, chance: Chance) -> Result<bool, StreamError> {
        Ok(chance.roll(self.get_mut(name)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_published() {
        assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
        assert_eq!(fnv1a64(&[0]), 0xaf63bd4c8601b7df);
    }

    #[test]
    fn nul_rejected() {
        assert_eq!(stream_stages("a\0b", "x"), Err(StreamError::NulInSeed));
        assert_eq!(
            stream_stages("a", "x\0").unwrap_err().code(),
            "stream.nul_in_name"
        );
    }

    #[test]
    fn table_checks() {
        let dup = StreamTable::new(&["a", "b", "a"]);
        assert_eq!(dup.validate().unwrap_err().code(), "stream.duplicate");
        assert!(Streams::new("s", &dup).is_err());
        let t = StreamTable::new(&["b", "a"]);
        let s = Streams::new("s", &t).unwrap();
        assert_eq!(s.names().collect::<Vec<_>>(), ["a", "b"]);
        s.check_against(&t).unwrap();
        let other = StreamTable::new(&["a", "c"]);
        assert_eq!(
            s.check_against(&other).unwrap_err(),
            StreamError::Mismatch { name: "c".into() }
        );
        let fewer = StreamTable::new(&["a"]);
        assert_eq!(
            s.check_against(&fewer).unwrap_err(),
            StreamError::Mismatch { name: "b".into() }
        );
    }

    #[test]
    fn streams_are_independent() {
        let t = StreamTable::new(&["shop_slot", "shuffle"]);
        let mut a = Streams::new("seed", &t).unwrap();
        let mut b = a.clone();
        for _ in 0..10 {
            a.next_u32("shop_slot").unwrap();
        }
        assert_eq!(
            a.next_u32("shuffle").unwrap(),
            b.next_u32("shuffle").unwrap()
        );
        let before = a.clone();
        assert_eq!(
            a.below("shuffle", 0).unwrap_err().code(),
            "random.zero_bound"
        );
        assert_eq!(a.below("nope", 3).unwrap_err().code(), "stream.undeclared");
        assert_eq!(a, before);
    }

    #[test]
    fn bot_stream_is_named_stream() {
        assert_eq!(
            bot_stream("m", 3).unwrap(),
            derive_stream("m", "bot:3").unwrap()
        );
    }
}
