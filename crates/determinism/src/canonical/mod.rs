//! Canonical JSON: the one byte form of a value that fingerprints are taken over.
//!
//! The rules (spec/determinism.md, "Canonical JSON and fingerprints"):
//!
//! - object keys sorted by UTF-16 code units (RFC 8785 §3.2.3), structs and maps alike;
//!   a repeated key is an error;
//! - no insignificant whitespace;
//! - strings escaped minimally as RFC 8785 says: `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`,
//!   other control characters as `\u00xx` (lowercase hex), everything else literal UTF-8;
//! - integers exact: a JSON number when the magnitude is at most 2^53 − 1
//!   ([`MAX_SAFE_INTEGER`]), else a JSON string of the decimal digits (so JavaScript's
//!   `JSON.parse` reads every value exactly); `u64` generator states use [`hex_u64`];
//! - floats never occur: serializing one is [`CanonicalError::Float`];
//! - `None` and `()` are `null`; enums as `serde_json` writes them (externally tagged
//!   unless serde attributes say otherwise); bytes as an array of numbers; map keys must
//!   be strings, chars, booleans, unit variants or integers (written as decimal strings).
//!
//! Two entry points:
//!
//! - [`to_canonical_vec`] / [`CanonicalWriter`]: a `serde` serializer that writes canonical
//!   bytes directly (no intermediate tree). A reused [`CanonicalWriter`] allocates nothing
//!   once its buffers have grown.
//! - [`from_json_text`]: canonicalizes arbitrary JSON text, keeping integer literals of any
//!   size exactly as their digits (it knows no types, so it never turns a number into a
//!   string); fractions and exponents are rejected, as are duplicate keys and lone
//!   surrogates.
//!
//! ```
//! use turnstile_determinism::canonical::{from_json_text, to_canonical_string};
//! #[derive(serde::Serialize)]
//! struct S { zeta: i64, alpha: Option<u8>, big: u64 }
//! let text = to_canonical_string(&S { zeta: -1, alpha: None, big: u64::MAX }).unwrap();
//! assert_eq!(text, r#"{"alpha":null,"big":"18446744073709551615","zeta":-1}"#);
//! assert_eq!(from_json_text(r#"{ "b": [1, 2], "a": "\u00e9" }"#).unwrap(), "{\"a\":\"é\",\"b\":[1,2]}".as_bytes());
//! ```

use core::cmp::Ordering;

use serde::Serialize;

pub mod hex_u64;
mod ser;
pub mod serde_int;
mod text;

pub use ser::{KeyWriter, ObjectWriter, SeqWriter};

/// The largest integer magnitude written as a JSON number: 2^53 − 1.
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// Why a value has no canonical form. Every variant has a stable
/// [`code`](CanonicalError::code).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CanonicalError {
    /// A float was serialized.
    #[error("floats have no canonical form: use an integer or a Fixed")]
    Float,
    /// A number with a fraction or exponent in JSON text.
    #[error(
        "byte {offset}: a number with a fraction or exponent has no canonical form: use an integer"
    )]
    FloatLiteral {
        /// Byte offset of the number in the text.
        offset: usize,
    },
    /// A map key that is not a string, char, bool, unit variant or integer.
    #[error("object keys must be strings (or integers, chars, booleans, unit variants)")]
    KeyNotString,
    /// The same key twice in one object.
    #[error("duplicate object key {key:?}")]
    DuplicateKey {
        /// The repeated key.
        key: String,
    },
    /// Invalid JSON text.
    #[error("byte {offset}: invalid JSON: {message}")]
    Syntax {
        /// Byte offset of the problem.
        offset: usize,
        /// What is wrong.
        message: &'static str,
    },
    /// JSON text nested deeper than [`MAX_DEPTH`] arrays and objects.
    #[error("byte {offset}: JSON nested deeper than 128 levels")]
    TooDeep {
        /// Byte offset of the opening bracket that went too deep.
        offset: usize,
    },
    /// An error raised by a `Serialize` implementation.
    #[error("{message}")]
    Custom {
        /// The implementation's message.
        message: String,
    },
}

impl CanonicalError {
    /// The stable, documented code of this error (`canonical.*`).
    pub const fn code(&self) -> &'static str {
        match self {
            CanonicalError::Float => "canonical.float",
            CanonicalError::FloatLiteral { .. } => "canonical.float_literal",
            CanonicalError::KeyNotString => "canonical.key_not_string",
            CanonicalError::DuplicateKey { .. } => "canonical.duplicate_key",
            CanonicalError::Syntax { .. } => "canonical.syntax",
            CanonicalError::TooDeep { .. } => "canonical.too_deep",
            CanonicalError::Custom { .. } => "canonical.custom",
        }
    }
}

impl serde::ser::Error for CanonicalError {
    fn custom<T: core::fmt::Display>(msg: T) -> CanonicalError {
        CanonicalError::Custom {
            message: msg.to_string(),
        }
    }
}

/// How deeply [`from_json_text`] lets arrays and objects nest.
pub const MAX_DEPTH: u32 = 128;

/// Compares two strings by their UTF-16 code units, the key order of RFC 8785.
///
/// This equals code point (and UTF-8 byte) order except that characters above U+FFFF,
/// whose UTF-16 form starts with a surrogate (0xD800–0xDBFF), sort before U+E000–U+FFFF.
///
/// ```
/// use core::cmp::Ordering;
/// use turnstile_determinism::canonical::compare_utf16;
/// assert_eq!(compare_utf16("\u{1F600}", "\u{FB33}"), Ordering::Less); // code points say Greater
/// assert_eq!(compare_utf16("a", "b"), Ordering::Less);
/// ```
pub fn compare_utf16(a: &str, b: &str) -> Ordering {
    compare_utf16_bytes(a.as_bytes(), b.as_bytes())
}

/// The rank of a UTF-8 byte for UTF-16 order.
///
/// Where two strings first differ, their bytes are either both continuation bytes (the
/// characters have the same length, and byte order is code point order is UTF-16 order)
/// or both lead bytes. Among lead bytes, 0xEE/0xEF start U+E000..=U+FFFF, which UTF-16
/// sorts *after* the supplementary characters led by 0xF0..=0xF4 (their surrogates are
/// 0xD800..=0xDBFF). Ranking 0xEE/0xEF as 0xFE/0xFF (bytes UTF-8 never uses) fixes that
/// and changes nothing else.
const fn utf16_rank(b: u8) -> u8 {
    match b {
        0xEE => 0xFE,
        0xEF => 0xFF,
        _ => b,
    }
}

/// [`compare_utf16`] on the UTF-8 bytes of two strings.
fn compare_utf16_bytes(a: &[u8], b: &[u8]) -> Ordering {
    let n = a.len().min(b.len());
    match a[..n].iter().zip(&b[..n]).position(|(x, y)| x != y) {
        Some(i) => utf16_rank(a[i]).cmp(&utf16_rank(b[i])),
        None => a.len().cmp(&b.len()),
    }
}

/// The first eight ranked bytes of a key, zero-padded, as a big-endian integer: when two
/// keys' prefixes differ, they order the keys as [`compare_utf16_bytes`] does (a key that
/// ends first has a 0 where the other has a byte >= 0, or both have 0 and the prefixes
/// tie); when they tie, the full comparison decides.
fn utf16_prefix(key: &[u8]) -> u64 {
    // Loaded without a copy into a padded buffer (a call to `memcpy` for every key): whole
    // when there are eight bytes, byte by byte into the high end when fewer.
    let prefix = match key.first_chunk::<8>() {
        Some(first) => u64::from_be_bytes(*first),
        None => key
            .iter()
            .enumerate()
            .fold(0, |word, (i, &b)| word | (u64::from(b) << (56 - 8 * i))),
    };
    // Only bytes 0xEE and 0xEF rank differently, so an ASCII prefix (every key a struct
    // declares) is its own rank.
    if prefix & 0x8080_8080_8080_8080 == 0 {
        return prefix;
    }
    let mut bytes = prefix.to_be_bytes();
    for slot in &mut bytes {
        *slot = utf16_rank(*slot);
    }
    u64::from_be_bytes(bytes)
}

/// Where the raw (unescaped) bytes of an entry's key are.
#[derive(Clone, Copy)]
enum Key {
    /// A struct field name: no copy needed.
    Static(&'static str),
    /// A map key that needed no escaping: its raw bytes are the written key's, between its
    /// quotes in `CanonicalWriter::out` (no copy needed; they stay put until the object
    /// closes, since only what follows them is written or reordered before then).
    Out { start: usize, end: usize },
    /// A map key that needed escaping, copied raw into `CanonicalWriter::keys`.
    Arena { start: usize, end: usize },
}

/// One finished `"key":value` of an object under construction.
#[derive(Clone, Copy)]
struct Entry {
    key: Key,
    /// [`utf16_prefix`] of the key.
    prefix: u64,
    /// The escaped key, colon and value in `CanonicalWriter::out`.
    start: usize,
    end: usize,
}

impl Default for Entry {
    fn default() -> Entry {
        Entry {
            key: Key::Static(""),
            prefix: 0,
            start: 0,
            end: 0,
        }
    }
}

impl Entry {
    fn key<'k>(&self, out: &'k [u8], arena: &'k [u8]) -> &'k [u8] {
        match self.key {
            Key::Static(s) => s.as_bytes(),
            Key::Out { start, end } => &out[start..end],
            Key::Arena { start, end } => &arena[start..end],
        }
    }
}

/// The bookkeeping of one open object.
pub(crate) struct ObjectFrame {
    entries_base: usize,
    keys_base: usize,
    content_start: usize,
    first: bool,
    pending: Entry,
}

/// A reusable canonical JSON writer: serialize values with [`CanonicalWriter::write`] and
/// read the bytes it returns. Its buffers are kept between values, so a writer used in a
/// loop stops allocating once they have grown.
///
/// Objects are written in place; when an object's keys arrive out of order, its finished
/// entries are reordered once, at its closing brace. Every struct of the engine's hot paths
/// declares (or writes) its fields in canonical order, so that reordering is the exception.
#[derive(Default)]
pub struct CanonicalWriter {
    out: Vec<u8>,
    keys: Vec<u8>,
    entries: Vec<Entry>,
    scratch: Vec<u8>,
    /// What each struct field name and unit variant name met so far needs: see
    /// [`StaticNames`].
    names: StaticNames,
}

/// A memo of `&'static str` names (struct fields, unit variants): for each name seen, its
/// [`utf16_prefix`] and whether it needs escaping, so that a name met again (a struct's fields
/// are written for every receipt) is written as `"name"` at once, with no escaping scan and no
/// ranking.
///
/// A name is looked up by the address and length of its `&'static str`. Static memory never
/// changes, so the same address and length always hold the same bytes: a hit is exactly the
/// name, and the memo can only save work, never change a byte of output. Open addressing with
/// linear probing over [`STATIC_NAME_SLOTS`] slots, emptied when half full, so names never
/// evict each other while a program uses fewer than half that many (an earlier memo,
/// direct-mapped, evicted and re-ranked names that shared a slot on nearly every receipt).
///
/// It starts with a writer's second value: a writer used once (`to_canonical_vec`,
/// `Fingerprint::of`) would only pay for building it.
#[derive(Default)]
struct StaticNames {
    /// Values written so far, up to 2.
    writes: u8,
    slots: Vec<StaticName>,
    used: usize,
}

#[derive(Clone, Copy, Default)]
struct StaticName {
    /// The name's address; 0 for an empty slot (no reference is null).
    address: usize,
    len: usize,
    prefix: u64,
    /// No byte of the name needs escaping: its written form is `"name"`.
    plain: bool,
}

const STATIC_NAME_SLOTS: usize = 256;

impl StaticNames {
    /// The prefix of `name` and whether it is written as it is.
    #[inline]
    fn get(&mut self, name: &'static str) -> (u64, bool) {
        if self.writes < 2 {
            return (
                utf16_prefix(name.as_bytes()),
                !needs_escape(name.as_bytes()),
            );
        }
        if self.slots.is_empty() {
            self.slots.resize(STATIC_NAME_SLOTS, StaticName::default());
        }
        let address = name.as_ptr() as usize;
        let home = |address: usize| {
            // Fibonacci hashing: the top byte of the product mixes every bit of the address.
            ((address as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 56) as usize
                % STATIC_NAME_SLOTS
        };
        let mut index = home(address);
        loop {
            let slot = self.slots[index];
            if slot.address == address && slot.len == name.len() {
                return (slot.prefix, slot.plain);
            }
            if slot.address == 0 {
                break;
            }
            index = (index + 1) % STATIC_NAME_SLOTS;
        }
        let prefix = utf16_prefix(name.as_bytes());
        let plain = !needs_escape(name.as_bytes());
        if self.used >= STATIC_NAME_SLOTS / 2 {
            self.slots.fill(StaticName::default());
            self.used = 0;
            index = home(address);
        }
        self.slots[index] = StaticName {
            address,
            len: name.len(),
            prefix,
            plain,
        };
        self.used += 1;
        (prefix, plain)
    }
}

impl CanonicalWriter {
    /// An empty writer.
    pub fn new() -> CanonicalWriter {
        CanonicalWriter::default()
    }

    fn reset(&mut self) {
        self.names.writes = self.names.writes.saturating_add(1).min(2);
        self.out.clear();
        self.keys.clear();
        self.entries.clear();
    }

    /// The canonical bytes of `value` (valid until the next write).
    pub fn write<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<&[u8], CanonicalError> {
        self.reset();
        value.serialize(&mut *self)?;
        Ok(&self.out)
    }

    /// The canonical bytes of a JSON text (see [`from_json_text`]), valid until the next write.
    pub fn write_json_text(&mut self, json: &str) -> Result<&[u8], CanonicalError> {
        self.reset();
        text::canonicalize(self, json)?;
        Ok(&self.out)
    }

    /// The canonical bytes a hand-written writer produces (valid until the next write): for
    /// the fixed shapes of the hot paths (a receipt's hashed fields, a lean state), which
    /// write their keys as literals in canonical order instead of through `serde`, with no
    /// ordering bookkeeping. `write` must produce exactly what serializing the value it
    /// stands for would (every such writer has a property test against its `Serialize` form);
    /// the pieces are [`CanonicalWriter::raw`] for literal keys and punctuation,
    /// [`CanonicalWriter::string`], [`CanonicalWriter::uint`], and [`CanonicalWriter::value`]
    /// for anything else.
    pub fn write_with<F>(&mut self, write: F) -> Result<&[u8], CanonicalError>
    where
        F: FnOnce(&mut CanonicalWriter) -> Result<(), CanonicalError>,
    {
        self.reset();
        write(self)?;
        Ok(&self.out)
    }

    /// Appends `value` in canonical form, inside a hand-written writer.
    pub fn value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), CanonicalError> {
        value.serialize(self)
    }

    /// Appends bytes that are canonical as they stand, inside a hand-written writer: literal
    /// punctuation and keys written with their quotes and colon (`b",\"turns\":"`), in
    /// canonical order, needing no escaping. Static, so that no computed text can pass here
    /// unescaped.
    #[inline]
    pub fn raw(&mut self, canonical: &'static [u8]) {
        self.out.extend_from_slice(canonical);
    }

    /// Appends bytes known here to be canonical as they stand (a fingerprint's quoted text).
    pub(crate) fn plain(&mut self, canonical: &[u8]) {
        self.out.extend_from_slice(canonical);
    }

    /// Appends `text` as a canonical JSON string (escaped), inside a hand-written writer.
    #[inline]
    pub fn string(&mut self, text: &str) {
        write_str(&mut self.out, text);
    }

    /// Appends an unsigned integer by the canonical integer rule, inside a hand-written writer.
    #[inline]
    pub fn uint(&mut self, value: u64) {
        write_int_u64(&mut self.out, false, value);
    }

    /// Appends a signed integer by the canonical integer rule, inside a hand-written writer.
    #[inline]
    pub fn int(&mut self, value: i64) {
        write_int_u64(&mut self.out, value < 0, value.unsigned_abs());
    }

    pub(crate) fn out(&mut self) -> &mut Vec<u8> {
        &mut self.out
    }

    pub(crate) fn begin_object(&mut self) -> ObjectFrame {
        self.out.push(b'{');
        ObjectFrame {
            entries_base: self.entries.len(),
            keys_base: self.keys.len(),
            content_start: self.out.len(),
            first: true,
            pending: Entry::default(),
        }
    }

    /// Starts an entry; the key follows through [`CanonicalWriter::push_key`].
    pub(crate) fn begin_key(&mut self, frame: &mut ObjectFrame) {
        if !frame.first {
            self.out.push(b',');
        }
        frame.first = false;
        frame.pending.start = self.out.len();
        // The empty key until `push_key` names it, as a key serializer that wrote nothing
        // always meant.
        frame.pending.key = Key::Arena {
            start: self.keys.len(),
            end: self.keys.len(),
        };
        frame.pending.prefix = 0;
    }

    /// Writes the key of the entry begun by [`CanonicalWriter::begin_key`], escaped, into the
    /// output, and remembers its raw bytes for ordering: where they were written when they
    /// needed no escaping (nearly every key), else a copy in the key arena.
    pub(crate) fn push_key(&mut self, frame: &mut ObjectFrame, key: &str) {
        let start = self.out.len() + 1;
        write_str(&mut self.out, key);
        frame.pending.key = if self.out.len() == start + key.len() + 1 {
            Key::Out {
                start,
                end: start + key.len(),
            }
        } else {
            let arena_start = self.keys.len();
            self.keys.extend_from_slice(key.as_bytes());
            Key::Arena {
                start: arena_start,
                end: self.keys.len(),
            }
        };
        frame.pending.prefix = utf16_prefix(key.as_bytes());
    }

    /// Ends a key written with [`CanonicalWriter::push_key`].
    pub(crate) fn end_key(&mut self) {
        self.out.push(b':');
    }

    /// Writes a whole key from an arbitrary string.
    pub(crate) fn key(&mut self, frame: &mut ObjectFrame, key: &str) {
        self.begin_key(frame);
        self.push_key(frame, key);
        self.end_key();
    }

    /// Writes a whole key from a struct field name: `"name":`, straight into the output (the
    /// name is not copied anywhere else; its ordering prefix is taken from it directly).
    ///
    /// Field names are plain identifiers, so the escaping check passes at once and the name is
    /// copied whole; the output grows once for the comma, the quotes and the colon.
    pub(crate) fn static_key(&mut self, frame: &mut ObjectFrame, key: &'static str) {
        let (prefix, plain) = self.names.get(key);
        let out = &mut self.out;
        out.reserve(key.len() + 4);
        if !frame.first {
            out.push(b',');
        }
        frame.first = false;
        frame.pending.start = out.len();
        frame.pending.key = Key::Static(key);
        frame.pending.prefix = prefix;
        out.push(b'"');
        if plain {
            out.extend_from_slice(key.as_bytes());
        } else {
            escape_into(out, key);
        }
        out.extend_from_slice(b"\":");
    }

    /// Writes a `&'static str` value (a unit variant's name) as a JSON string, escaping it
    /// only if the memo says it needs it.
    pub(crate) fn static_str(&mut self, value: &'static str) {
        let (_, plain) = self.names.get(value);
        let out = &mut self.out;
        out.reserve(value.len() + 2);
        out.push(b'"');
        if plain {
            out.extend_from_slice(value.as_bytes());
        } else {
            escape_into(out, value);
        }
        out.push(b'"');
    }

    pub(crate) fn end_value(&mut self, frame: &mut ObjectFrame) {
        frame.pending.end = self.out.len();
        self.entries.push(frame.pending);
    }

    pub(crate) fn end_object(&mut self, frame: ObjectFrame) -> Result<(), CanonicalError> {
        let CanonicalWriter {
            out,
            keys,
            entries,
            scratch,
            ..
        } = self;
        let list = &mut entries[frame.entries_base..];
        let ordered = {
            let key = |e: &Entry| e.key(out, keys);
            let compare = |a: &Entry, b: &Entry| {
                a.prefix
                    .cmp(&b.prefix)
                    .then_with(|| compare_utf16_bytes(key(a), key(b)))
            };
            let ordered = list
                .windows(2)
                .all(|w| compare(&w[0], &w[1]) == Ordering::Less);
            if !ordered {
                list.sort_unstable_by(compare);
                if let Some(w) = list.windows(2).find(|w| key(&w[0]) == key(&w[1])) {
                    return Err(CanonicalError::DuplicateKey {
                        key: String::from_utf8_lossy(key(&w[0])).into_owned(),
                    });
                }
            }
            ordered
        };
        if !ordered {
            let base = frame.content_start;
            scratch.clear();
            scratch.extend_from_slice(&out[base..]);
            out.truncate(base);
            for (i, e) in list.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                out.extend_from_slice(&scratch[e.start - base..e.end - base]);
            }
        }
        out.push(b'}');
        entries.truncate(frame.entries_base);
        keys.truncate(frame.keys_base);
        Ok(())
    }
}

/// The canonical bytes of `value`.
pub fn to_canonical_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, CanonicalError> {
    let mut writer = CanonicalWriter::new();
    value.serialize(&mut writer)?;
    Ok(writer.out)
}

/// The canonical text of `value` (canonical bytes are always UTF-8).
pub fn to_canonical_string<T: Serialize + ?Sized>(value: &T) -> Result<String, CanonicalError> {
    let bytes = to_canonical_vec(value)?;
    String::from_utf8(bytes).map_err(|_| CanonicalError::Custom {
        message: "canonical bytes are not UTF-8".into(),
    })
}

/// Canonicalizes a JSON text: keys sorted, whitespace dropped, strings re-escaped, integer
/// literals kept as their exact digits whatever their size (`-0` becomes `0`).
///
/// Rejects invalid JSON ([`CanonicalError::Syntax`]), numbers with a fraction or exponent
/// ([`CanonicalError::FloatLiteral`]), duplicate keys, lone surrogate escapes, and nesting
/// deeper than [`MAX_DEPTH`].
pub fn from_json_text(json: &str) -> Result<Vec<u8>, CanonicalError> {
    let mut writer = CanonicalWriter::new();
    text::canonicalize(&mut writer, json)?;
    Ok(writer.out)
}

/// Appends `s` as a JSON string with RFC 8785 escaping.
pub(crate) fn write_str(out: &mut Vec<u8>, s: &str) {
    out.reserve(s.len() + 2);
    out.push(b'"');
    escape_into(out, s);
    out.push(b'"');
}

/// For each byte: 0 when it stands for itself in a JSON string, else the letter of its
/// short escape (`\n`), or `u` for `\u00xx`.
const ESCAPE: [u8; 256] = {
    let mut table = [0; 256];
    let mut i = 0;
    while i < 0x20 {
        table[i] = b'u';
        i += 1;
    }
    table[0x08] = b'b';
    table[0x0c] = b'f';
    table[b'\n' as usize] = b'n';
    table[b'\r' as usize] = b'r';
    table[b'\t' as usize] = b't';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table
};

/// Appends the RFC 8785 escaping of `s` (no quotes): `\"`, `\\`, `\b`, `\f`, `\n`, `\r`,
/// `\t`, other control characters as `\u00xx` (lowercase), everything else literal.
pub(crate) fn escape_into(out: &mut Vec<u8>, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes = s.as_bytes();
    // Nearly every string a fingerprint covers (keys, ids, fingerprints, board rows) needs no
    // escaping: tested eight bytes at a time and copied whole. This is most of the cost of
    // writing them.
    if !needs_escape(bytes) {
        out.extend_from_slice(bytes);
        return;
    }
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let escape = ESCAPE[usize::from(b)];
        if escape == 0 {
            continue;
        }
        out.extend_from_slice(&bytes[run..i]);
        if escape == b'u' {
            out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 0xf)],
            ]);
        } else {
            out.extend_from_slice(&[b'\\', escape]);
        }
        run = i + 1;
    }
    out.extend_from_slice(&bytes[run..]);
}

/// Whether any byte of `bytes` needs escaping in a JSON string ([`word_needs_escape`] over
/// each eight bytes). The last bytes of a string of eight or more are tested as the string's
/// last eight (testing a byte twice changes no answer); a shorter string is padded with a
/// letter. Either way no bytes are copied into a buffer, which cost a call to `memcpy` for
/// nearly every key and value written.
fn needs_escape(bytes: &[u8]) -> bool {
    let word = |eight: [u8; 8]| word_needs_escape(u64::from_le_bytes(eight));
    let n = bytes.len();
    if let Some(last) = bytes.last_chunk::<8>() {
        return bytes.chunks_exact(8).any(|chunk| {
            let mut eight = [0u8; 8];
            eight.copy_from_slice(chunk);
            word(eight)
        }) || word(*last);
    }
    // Fewer than eight: the first four and the last four (overlapping), or the first, middle
    // and last byte of a shorter string, cover every byte; the rest is a letter.
    let mut eight = [b'a'; 8];
    if let (Some(first), Some(last)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        eight[..4].copy_from_slice(first);
        eight[4..].copy_from_slice(last);
    } else if n > 0 {
        eight[0] = bytes[0];
        eight[1] = bytes[n / 2];
        eight[2] = bytes[n - 1];
    }
    word(eight)
}

/// Whether any of the eight bytes of `word` needs escaping in a JSON string: a control
/// character (below 0x20), `"` or `\\`. Exact, by the classic "has a byte less than n" and
/// "has a zero byte" tests (no byte of a UTF-8 multi-byte character, all ≥ 0x80, triggers
/// either): a set high bit marks a byte that matched, and borrows can only add marks above a
/// true match, never create one where none is.
const fn word_needs_escape(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let control = word.wrapping_sub(ONES * 0x20) & !word;
    let quote = word ^ (ONES * 0x22);
    let quote = quote.wrapping_sub(ONES) & !quote;
    let backslash = word ^ (ONES * 0x5c);
    let backslash = backslash.wrapping_sub(ONES) & !backslash;
    (control | quote | backslash) & HIGHS != 0
}

/// Writes the decimal digits of `v` into the end of `buf`, returning them.
fn digits_u128(buf: &mut [u8; 40], mut v: u128) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            return &buf[i..];
        }
    }
}

/// Writes the decimal digits of `v` into the end of `buf`, returning them.
fn digits_u64(buf: &mut [u8; 20], mut v: u64) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            return &buf[i..];
        }
    }
}

/// Appends an integer given as sign and magnitude, by the canonical integer rule.
pub(crate) fn write_int_u64(out: &mut Vec<u8>, negative: bool, magnitude: u64) {
    // Most integers a receipt holds (seats, columns, sequences, ticks) are one digit.
    if magnitude < 10 {
        if negative && magnitude != 0 {
            out.push(b'-');
        }
        out.push(b'0' + magnitude as u8);
        return;
    }
    let quoted = magnitude > MAX_SAFE_INTEGER;
    if quoted {
        out.push(b'"');
    }
    if negative && magnitude != 0 {
        out.push(b'-');
    }
    let mut buf = [0; 20];
    out.extend_from_slice(digits_u64(&mut buf, magnitude));
    if quoted {
        out.push(b'"');
    }
}

/// [`write_int_u64`] for 128-bit magnitudes.
pub(crate) fn write_int_u128(out: &mut Vec<u8>, negative: bool, magnitude: u128) {
    match u64::try_from(magnitude) {
        Ok(m) => write_int_u64(out, negative, m),
        Err(_) => {
            out.push(b'"');
            if negative {
                out.push(b'-');
            }
            let mut buf = [0; 40];
            out.extend_from_slice(digits_u128(&mut buf, magnitude));
            out.push(b'"');
        }
    }
}

/// The decimal text of an integer given as sign and magnitude, in `buf`.
pub(crate) fn decimal_str(buf: &mut [u8; 41], negative: bool, magnitude: u128) -> &str {
    let mut i = buf.len();
    let mut v = magnitude;
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    if negative && magnitude != 0 {
        i -= 1;
        buf[i] = b'-';
    }
    // Only ASCII digits and '-' were written.
    core::str::from_utf8(&buf[i..]).unwrap_or("0")
}

/// Appends the plain decimal digits of an integer (for byte arrays).
pub(crate) fn push_decimal(out: &mut Vec<u8>, negative: bool, magnitude: u128) {
    if negative && magnitude != 0 {
        out.push(b'-');
    }
    let mut buf = [0; 40];
    out.extend_from_slice(digits_u128(&mut buf, magnitude));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_order_differs_from_code_points_only_above_surrogates() {
        let mut keys = vec![
            "\u{FB33}",
            "\u{1F600}",
            "\u{E000}",
            "\u{D7FF}",
            "\u{FFFF}",
            "\u{10000}",
            "z",
            "",
        ];
        keys.sort_by(|a, b| compare_utf16(a, b));
        assert_eq!(
            keys,
            [
                "",
                "z",
                "\u{D7FF}",
                "\u{10000}",
                "\u{1F600}",
                "\u{E000}",
                "\u{FB33}",
                "\u{FFFF}"
            ]
        );
        // Against a reference: compare encode_utf16 sequences.
        for a in &keys {
            for b in &keys {
                assert_eq!(
                    compare_utf16(a, b),
                    a.encode_utf16().cmp(b.encode_utf16()),
                    "{a:?} {b:?}"
                );
            }
        }
    }

    #[test]
    fn escaping() {
        let mut out = Vec::new();
        write_str(&mut out, "\u{0}\u{1f}\u{7f}\"\\/\u{8}\u{c}\n\r\té€😀");
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "\"\\u0000\\u001f\u{7f}\\\"\\\\/\\b\\f\\n\\r\\té€😀\""
        );
    }

    #[test]
    fn escaping_eight_bytes_at_a_time_agrees_with_byte_by_byte() {
        // Every byte that needs escaping, at every position of strings longer than a word, among
        // plain ASCII and multi-byte characters: the word test must never miss one.
        let reference = |s: &str| {
            let mut out = Vec::new();
            for c in s.chars() {
                let mut buf = [0; 4];
                let piece = c.encode_utf8(&mut buf);
                match ESCAPE[usize::from(piece.as_bytes()[0])] {
                    0 => out.extend_from_slice(piece.as_bytes()),
                    b'u' => out.extend_from_slice(format!("\\u{:04x}", c as u32).as_bytes()),
                    e => out.extend_from_slice(&[b'\\', e]),
                }
            }
            out
        };
        let special: Vec<char> = (0u8..0x20)
            .map(char::from)
            .chain(['"', '\\', '\u{7f}', 'é', '€', '😀', '!', '#', '[', ']'])
            .collect();
        // Every length up to three words: strings shorter than a word are tested as
        // overlapping halves or three bytes, longer ones with an overlapping last word.
        for len in 1usize..=24 {
            for at in 0..len {
                for &c in &special {
                    let mut s: String = "abcdefghijklmnopqrstuvwxyz"
                        .chars()
                        .cycle()
                        .take(len)
                        .collect();
                    s.replace_range(at..at + 1, c.encode_utf8(&mut [0; 4]));
                    let mut out = Vec::new();
                    escape_into(&mut out, &s);
                    assert_eq!(out, reference(&s), "{s:?}");
                }
            }
        }
        for word in [0u64, u64::MAX, 0x2020_2020_2020_2020, 0x8080_8080_8080_8080] {
            let bytes = word.to_le_bytes();
            let expected = bytes.iter().any(|&b| ESCAPE[usize::from(b)] != 0);
            assert_eq!(word_needs_escape(word), expected, "{word:#x}");
        }
        for b in 0..=255u8 {
            for at in 0..8 {
                let mut bytes = *b"abcdefgh";
                bytes[at] = b;
                let expected = ESCAPE[usize::from(b)] != 0;
                assert_eq!(
                    word_needs_escape(u64::from_le_bytes(bytes)),
                    expected,
                    "{b:#x} at {at}"
                );
            }
        }
    }

    #[test]
    fn prefixes_order_keys_as_the_full_comparison_does() {
        // Keys of every length around a word, sharing prefixes, with characters that rank
        // differently in UTF-16 (U+E000.., U+FFFF) and above U+FFFF: whenever two prefixes
        // differ, they must order the keys as `compare_utf16` does.
        let pieces = [
            "",
            "a",
            "ab",
            "abcdefg",
            "abcdefgh",
            "\u{e000}",
            "\u{ffff}",
            "\u{1f600}",
            "z",
            "\u{7f}",
        ];
        let mut keys = Vec::new();
        for a in pieces {
            for b in pieces {
                for c in ["", "x", "\u{0}"] {
                    keys.push(format!("{a}{b}{c}"));
                }
            }
        }
        for a in &keys {
            let pa = utf16_prefix(a.as_bytes());
            let mut expected = [0u8; 8];
            for (slot, byte) in expected.iter_mut().zip(a.bytes()) {
                *slot = utf16_rank(byte);
            }
            assert_eq!(pa, u64::from_be_bytes(expected), "{a:?}");
            for b in &keys {
                let pb = utf16_prefix(b.as_bytes());
                if pa != pb {
                    assert_eq!(pa.cmp(&pb), compare_utf16(a, b), "{a:?} {b:?}");
                }
            }
        }
    }

    #[test]
    fn integer_rule() {
        let cases: [(bool, u64, &str); 6] = [
            (false, 0, "0"),
            (true, 0, "0"),
            (false, MAX_SAFE_INTEGER, "9007199254740991"),
            (true, MAX_SAFE_INTEGER, "-9007199254740991"),
            (false, MAX_SAFE_INTEGER + 1, "\"9007199254740992\""),
            (true, MAX_SAFE_INTEGER + 1, "\"-9007199254740992\""),
        ];
        for (neg, m, want) in cases {
            let mut out = Vec::new();
            write_int_u64(&mut out, neg, m);
            assert_eq!(out, want.as_bytes());
        }
        let mut out = Vec::new();
        write_int_u128(&mut out, true, 1 << 127);
        assert_eq!(out, b"\"-170141183460469231731687303715884105728\"");
    }
}
