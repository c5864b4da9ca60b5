//! Whether a typed value is exactly a JSON tree, checked without decoding the tree or building
//! another one.
//!
//! Replay verification re-executes every command and must check that the re-executed receipt is
//! the one the file logged. Decoding each logged receipt into the game's types only to compare
//! it field by field cost more than re-executing the command (every event through serde's
//! buffered tagged-enum path, every fingerprint parsed from hex). Instead, [`matches`] walks the
//! typed value's `Serialize` output against the logged tree and stops at the first difference.
//!
//! It answers "is `json` exactly what [`canonical_value`](crate::canonical_value) makes of
//! `value`?" — the same mapping the canonical serializer writes (integers above 2^53 − 1 as
//! decimal strings, `None` and `()` as `null`, enums externally tagged unless serde says
//! otherwise, map keys as strings). It may answer "no" where the two are equal in some
//! unusual way (floats, odd map keys); callers then take the slow, exact path, so a "no" costs
//! time, never a verdict. A "yes" means the logged tree is the canonical form of the value, so
//! decoding it would give the value back.

use serde::ser::{self, Serialize};
use serde_json::{Map, Value};
use std::fmt;
use turnstile_core::determinism::canonical::MAX_SAFE_INTEGER;

/// Whether `json` is exactly the canonical JSON tree of `value`.
pub(crate) fn matches<T: Serialize + ?Sized>(value: &T, json: &Value) -> bool {
    value.serialize(Matcher(json)).is_ok()
}

/// The walk stopped: the value and the tree differ (or the value has no canonical form).
#[derive(Debug)]
struct Mismatch;

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the value differs from the JSON tree")
    }
}

impl std::error::Error for Mismatch {}

impl ser::Error for Mismatch {
    fn custom<T: fmt::Display>(_msg: T) -> Mismatch {
        Mismatch
    }
}

type Result<T = ()> = std::result::Result<T, Mismatch>;

fn check(ok: bool) -> Result {
    if ok {
        Ok(())
    } else {
        Err(Mismatch)
    }
}

/// An integer as the canonical serializer writes it: a JSON number up to 2^53 − 1 in
/// magnitude, else a string of its decimal digits.
fn integer(json: &Value, negative: bool, magnitude: u128) -> Result {
    match u64::try_from(magnitude) {
        Ok(m) if m <= MAX_SAFE_INTEGER => {
            let Value::Number(n) = json else {
                return Err(Mismatch);
            };
            if negative && m != 0 {
                // m <= 2^53 - 1, so the negation fits.
                check(n.as_i64() == Some(-(m as i64)))
            } else {
                check(n.as_u64() == Some(m))
            }
        }
        _ => {
            let Value::String(s) = json else {
                return Err(Mismatch);
            };
            let digits = s.strip_prefix('-');
            check(
                digits.is_some() == (negative && magnitude != 0)
                    && digits.unwrap_or(s) == magnitude.to_string(),
            )
        }
    }
}

/// The one `{"Variant": …}` entry of an externally tagged enum value.
fn variant<'v>(json: &'v Value, name: &str) -> Result<&'v Value> {
    match json {
        Value::Object(map) if map.len() == 1 => map.get(name).ok_or(Mismatch),
        _ => Err(Mismatch),
    }
}

/// A serializer whose "output" is the verdict for one tree node.
struct Matcher<'v>(&'v Value);

impl<'v> ser::Serializer for Matcher<'v> {
    type Ok = ();
    type Error = Mismatch;
    type SerializeSeq = SeqMatcher<'v>;
    type SerializeTuple = SeqMatcher<'v>;
    type SerializeTupleStruct = SeqMatcher<'v>;
    type SerializeTupleVariant = SeqMatcher<'v>;
    type SerializeMap = ObjectMatcher<'v>;
    type SerializeStruct = ObjectMatcher<'v>;
    type SerializeStructVariant = ObjectMatcher<'v>;

    fn serialize_bool(self, v: bool) -> Result {
        check(self.0.as_bool() == Some(v))
    }
    fn serialize_i8(self, v: i8) -> Result {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i16(self, v: i16) -> Result {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i32(self, v: i32) -> Result {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i64(self, v: i64) -> Result {
        integer(self.0, v < 0, u128::from(v.unsigned_abs()))
    }
    fn serialize_i128(self, v: i128) -> Result {
        integer(self.0, v < 0, v.unsigned_abs())
    }
    fn serialize_u8(self, v: u8) -> Result {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u16(self, v: u16) -> Result {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u32(self, v: u32) -> Result {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u64(self, v: u64) -> Result {
        integer(self.0, false, u128::from(v))
    }
    fn serialize_u128(self, v: u128) -> Result {
        integer(self.0, false, v)
    }
    // Floats have no canonical form: the exact path reports what the file holds.
    fn serialize_f32(self, _v: f32) -> Result {
        Err(Mismatch)
    }
    fn serialize_f64(self, _v: f64) -> Result {
        Err(Mismatch)
    }
    fn serialize_char(self, v: char) -> Result {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result {
        check(self.0.as_str() == Some(v))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result {
        let Value::Array(items) = self.0 else {
            return Err(Mismatch);
        };
        check(items.len() == v.len())?;
        items
            .iter()
            .zip(v)
            .try_for_each(|(item, &b)| integer(item, false, u128::from(b)))
    }
    fn serialize_none(self) -> Result {
        check(self.0.is_null())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result {
        check(self.0.is_null())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _name: &'static str, _index: u32, v: &'static str) -> Result {
        self.serialize_str(v)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        name: &'static str,
        value: &T,
    ) -> Result {
        value.serialize(Matcher(variant(self.0, name)?))
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<SeqMatcher<'v>> {
        SeqMatcher::new(self.0)
    }
    fn serialize_tuple(self, _len: usize) -> Result<SeqMatcher<'v>> {
        SeqMatcher::new(self.0)
    }
    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<SeqMatcher<'v>> {
        SeqMatcher::new(self.0)
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        name: &'static str,
        _len: usize,
    ) -> Result<SeqMatcher<'v>> {
        SeqMatcher::new(variant(self.0, name)?)
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<ObjectMatcher<'v>> {
        ObjectMatcher::new(self.0)
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<ObjectMatcher<'v>> {
        ObjectMatcher::new(self.0)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        name: &'static str,
        _len: usize,
    ) -> Result<ObjectMatcher<'v>> {
        ObjectMatcher::new(variant(self.0, name)?)
    }
}

/// The elements of one JSON array, matched in order.
struct SeqMatcher<'v> {
    items: std::slice::Iter<'v, Value>,
}

impl<'v> SeqMatcher<'v> {
    fn new(json: &'v Value) -> Result<SeqMatcher<'v>> {
        match json {
            Value::Array(items) => Ok(SeqMatcher {
                items: items.iter(),
            }),
            _ => Err(Mismatch),
        }
    }

    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        value.serialize(Matcher(self.items.next().ok_or(Mismatch)?))
    }

    /// Every logged element was matched: the tree has no extra ones.
    fn finish(mut self) -> Result {
        check(self.items.next().is_none())
    }
}

macro_rules! seq_impl {
    ($trait:ident, $method:ident) => {
        impl ser::$trait for SeqMatcher<'_> {
            type Ok = ();
            type Error = Mismatch;
            fn $method<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
                self.element(value)
            }
            fn end(self) -> Result {
                self.finish()
            }
        }
    };
}

seq_impl!(SerializeSeq, serialize_element);
seq_impl!(SerializeTuple, serialize_element);
seq_impl!(SerializeTupleStruct, serialize_field);
seq_impl!(SerializeTupleVariant, serialize_field);

/// The entries of one JSON object, each looked up by key.
struct ObjectMatcher<'v> {
    map: &'v Map<String, Value>,
    /// Entries matched so far; at the end every logged entry must have been matched.
    matched: usize,
    /// The logged value under the map key just serialized.
    pending: Option<&'v Value>,
    /// The logged keys a map (not a struct, whose field names are distinct) matched, so a key
    /// written twice cannot stand in for one missing.
    keys: Vec<&'v str>,
}

impl<'v> ObjectMatcher<'v> {
    fn new(json: &'v Value) -> Result<ObjectMatcher<'v>> {
        match json {
            Value::Object(map) => Ok(ObjectMatcher {
                map,
                matched: 0,
                pending: None,
                keys: Vec::new(),
            }),
            _ => Err(Mismatch),
        }
    }

    fn field<T: ?Sized + Serialize>(&mut self, key: &str, value: &T) -> Result {
        self.matched += 1;
        value.serialize(Matcher(self.map.get(key).ok_or(Mismatch)?))
    }

    fn finish(self) -> Result {
        check(self.matched == self.map.len())
    }
}

impl<'v> ser::SerializeMap for ObjectMatcher<'v> {
    type Ok = ();
    type Error = Mismatch;

    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result {
        let key = key.serialize(KeyText)?;
        let (logged, value) = self.map.get_key_value(key.as_str()).ok_or(Mismatch)?;
        check(!self.keys.contains(&logged.as_str()))?;
        self.keys.push(logged);
        self.matched += 1;
        self.pending = Some(value);
        Ok(())
    }

    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        value.serialize(Matcher(self.pending.take().ok_or(Mismatch)?))
    }

    fn end(self) -> Result {
        self.finish()
    }
}

impl ser::SerializeStruct for ObjectMatcher<'_> {
    type Ok = ();
    type Error = Mismatch;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result {
        self.field(key, value)
    }
    fn end(self) -> Result {
        self.finish()
    }
}

impl ser::SerializeStructVariant for ObjectMatcher<'_> {
    type Ok = ();
    type Error = Mismatch;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result {
        self.field(key, value)
    }
    fn end(self) -> Result {
        self.finish()
    }
}

/// A map key as the canonical serializer writes it: strings, chars and unit variants as
/// themselves, booleans and integers as their text; anything else is left to the exact path.
struct KeyText;

impl ser::Serializer for KeyText {
    type Ok = String;
    type Error = Mismatch;
    type SerializeSeq = ser::Impossible<String, Mismatch>;
    type SerializeTuple = ser::Impossible<String, Mismatch>;
    type SerializeTupleStruct = ser::Impossible<String, Mismatch>;
    type SerializeTupleVariant = ser::Impossible<String, Mismatch>;
    type SerializeMap = ser::Impossible<String, Mismatch>;
    type SerializeStruct = ser::Impossible<String, Mismatch>;
    type SerializeStructVariant = ser::Impossible<String, Mismatch>;

    fn serialize_bool(self, v: bool) -> Result<String> {
        Ok(v.to_string())
    }
    fn serialize_i8(self, v: i8) -> Result<String> {
        Ok(v.to_string())
    }
    fn serialize_i16(self, v: i16) -> Result<String> {
        Ok(v.to_string())
    }
    fn serialize_i32(self, v: i32) -> Result<String> {
        Ok(v.to_string())
    }
    fn serialize_i64(self, v: i64) -> Result<String> {
        Ok(v.to_string())
    }
    fn serialize_i128(self, v: i128) -> Result<String> {
        Ok(v.to_string())
    }
    fn serialize_u8(self, v: u8) -> Result<String> {
        Ok(v.to_string())
    }
    fn serialize_u16(self, v: u16) -> Result<String> {
        Ok(v.to_string())
    }
    fn serialize_u32(self, v: u32) -> Result<String> {
        Ok(v.to_string())
    }
    fn serialize_u64(self, v: u64) -> Result<String> {
        Ok(v.to_string())
    }
    fn serialize_u128(self, v: u128) -> Result<String> {
        Ok(v.to_string())
    }
    fn serialize_f32(self, _v: f32) -> Result<String> {
        Err(Mismatch)
    }
    fn serialize_f64(self, _v: f64) -> Result<String> {
        Err(Mismatch)
    }
    fn serialize_char(self, v: char) -> Result<String> {
        Ok(v.to_string())
    }
    fn serialize_str(self, v: &str) -> Result<String> {
        Ok(v.to_owned())
    }
    fn serialize_bytes(self, _v: &[u8]) -> Result<String> {
        Err(Mismatch)
    }
    fn serialize_none(self) -> Result<String> {
        Err(Mismatch)
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _value: &T) -> Result<String> {
        Err(Mismatch)
    }
    fn serialize_unit(self) -> Result<String> {
        Err(Mismatch)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<String> {
        Err(Mismatch)
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<String> {
        Ok(variant.to_owned())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<String> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<String> {
        Err(Mismatch)
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(Mismatch)
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple> {
        Err(Mismatch)
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(Mismatch)
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(Mismatch)
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap> {
        Err(Mismatch)
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeStruct> {
        Err(Mismatch)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(Mismatch)
    }
}

#[cfg(test)]
mod tests {
    use super::matches;
    use crate::canonical_value;
    use serde::Serialize;
    use serde_json::json;
    use std::collections::BTreeMap;

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Inner {
        big: u64,
        neg: i64,
        #[serde(skip_serializing_if = "Option::is_none")]
        maybe: Option<u8>,
        text: String,
    }

    #[derive(Serialize)]
    #[serde(tag = "type", rename_all = "camelCase")]
    enum Tagged {
        Moved { to: u8 },
        Stopped,
    }

    #[derive(Serialize)]
    enum External {
        Unit,
        New(u8),
        Pair(u8, i8),
        Named { x: u32 },
    }

    #[derive(Serialize)]
    struct All {
        inner: Inner,
        tagged: Vec<Tagged>,
        external: Vec<External>,
        map: BTreeMap<u32, bool>,
        none: Option<()>,
        bytes: serde_bytes_like::Bytes,
        chars: (char, bool),
    }

    /// `serialize_bytes` without a dependency: a newtype that serializes as bytes.
    mod serde_bytes_like {
        pub struct Bytes(pub Vec<u8>);
        impl serde::Serialize for Bytes {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(&self.0)
            }
        }
    }

    fn sample() -> All {
        All {
            inner: Inner {
                big: u64::MAX,
                neg: -(1 << 60),
                maybe: None,
                text: "é\n\"".into(),
            },
            tagged: vec![Tagged::Moved { to: 3 }, Tagged::Stopped],
            external: vec![
                External::Unit,
                External::New(1),
                External::Pair(2, -3),
                External::Named { x: 4 },
            ],
            map: BTreeMap::from([(1, true), (20, false)]),
            none: None,
            bytes: serde_bytes_like::Bytes(vec![0, 255]),
            chars: ('z', false),
        }
    }

    #[test]
    fn a_value_matches_its_canonical_tree() {
        let value = sample();
        let tree = canonical_value(&value).unwrap();
        assert!(matches(&value, &tree));
        assert_eq!(tree["inner"]["big"], json!("18446744073709551615"));
        assert_eq!(tree["inner"]["neg"], json!("-1152921504606846976"));
    }

    #[test]
    fn any_change_to_the_tree_is_a_mismatch() {
        let value = sample();
        let tree = canonical_value(&value).unwrap();
        let edits: Vec<fn(&mut serde_json::Value)> = vec![
            |t| t["inner"]["big"] = json!(1),
            |t| t["inner"]["neg"] = json!("1152921504606846976"),
            |t| t["inner"]["maybe"] = json!(null),
            |t| t["inner"]["text"] = json!("e"),
            |t| t["tagged"][0]["to"] = json!(4),
            |t| t["tagged"][1]["type"] = json!("moved"),
            |t| {
                t["tagged"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({"type": "stopped"}))
            },
            |t| t["external"][0] = json!("New"),
            |t| t["external"][1] = json!({"New": 1, "Unit": null}),
            |t| t["external"][2]["Pair"][1] = json!(3),
            |t| t["external"][3]["Named"]["y"] = json!(1),
            |t| t["map"]["1"] = json!(false),
            |t| t["map"]["3"] = json!(false),
            |t| t["none"] = json!(0),
            |t| t["bytes"][1] = json!(254),
            |t| t["chars"][0] = json!("y"),
            |t| t["extra"] = json!(null),
            |t| *t = json!([]),
        ];
        for (i, edit) in edits.into_iter().enumerate() {
            let mut changed = tree.clone();
            edit(&mut changed);
            assert!(!matches(&value, &changed), "edit {i} went unnoticed");
        }
    }

    #[test]
    fn small_integers_are_numbers_and_floats_never_match() {
        assert!(matches(&-5i32, &json!(-5)));
        assert!(matches(&0i64, &json!(0)));
        assert!(!matches(&5u8, &json!(5.0)));
        assert!(!matches(&5u8, &json!("5")));
        assert!(!matches(&-5i8, &json!(5)));
        assert!(!matches(&(1u64 << 53), &json!(1u64 << 53)));
        assert!(matches(&(1u64 << 53), &json!("9007199254740992")));
    }
}
