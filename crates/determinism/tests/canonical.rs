//! Canonical JSON against RFC 8785's published examples (those about strings and key
//! order), the exact-integer rule at its edges, typed values of every serde shape, and a
//! property test against an independent reference canonicalizer.

use std::collections::BTreeMap;

use proptest::prelude::*;
use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;
use turnstile_determinism::canonical::{
    from_json_text, hex_u64, serde_int, to_canonical_string, to_canonical_vec, CanonicalWriter,
    MAX_SAFE_INTEGER,
};
use turnstile_determinism::{CanonicalError, Fingerprint, Fixed, Pcg32};

fn text(json: &str) -> String {
    String::from_utf8(from_json_text(json).unwrap()).unwrap()
}

fn canon<T: Serialize + ?Sized>(value: &T) -> String {
    to_canonical_string(value).unwrap()
}

// ---- RFC 8785 ---------------------------------------------------------------------------

/// RFC 8785 §3.2.2's example without its `numbers` member (its floats are outside our
/// profile): the string escaping and the key order are the RFC's.
#[test]
fn rfc8785_sample_strings_and_literals() {
    let input = r#"{
        "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
        "literals": [null, true, false]
    }"#;
    assert_eq!(
        text(input),
        "{\"literals\":[null,true,false],\"string\":\"€$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}"
    );
    // With its numbers, the example is rejected: floats have no canonical form here.
    let with_numbers =
        r#"{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001]}"#;
    assert_eq!(
        from_json_text(with_numbers).unwrap_err().code(),
        "canonical.float_literal"
    );
}

/// RFC 8785 §3.2.3: properties sorted by UTF-16 code units.
#[test]
fn rfc8785_sorting_example() {
    let input = r#"{
        "\u20ac": "Euro Sign",
        "\r": "Carriage Return",
        "\ufb33": "Hebrew Letter Dalet With Dagesh",
        "1": "One",
        "\ud83d\ude00": "Emoji: Grinning Face",
        "\u0080": "Control",
        "\u00f6": "Latin Small Letter O With Diaeresis"
    }"#;
    let expected = concat!(
        "{\"\\r\":\"Carriage Return\",",
        "\"1\":\"One\",",
        "\"\u{80}\":\"Control\",",
        "\"\u{f6}\":\"Latin Small Letter O With Diaeresis\",",
        "\"\u{20ac}\":\"Euro Sign\",",
        "\"\u{1f600}\":\"Emoji: Grinning Face\",",
        "\"\u{fb33}\":\"Hebrew Letter Dalet With Dagesh\"}"
    );
    assert_eq!(text(input), expected);
    // The same through the serializer, from a map whose own order is code point order.
    let map: BTreeMap<&str, &str> = [
        ("\u{20ac}", "Euro Sign"),
        ("\r", "Carriage Return"),
        ("\u{fb33}", "Hebrew Letter Dalet With Dagesh"),
        ("1", "One"),
        ("\u{1f600}", "Emoji: Grinning Face"),
        ("\u{80}", "Control"),
        ("\u{f6}", "Latin Small Letter O With Diaeresis"),
    ]
    .into_iter()
    .collect();
    assert_eq!(canon(&map), expected);
}

/// The JCS reference implementation's `weird.json` test data (key order with a
/// `</script>` key, U+0080 and U+007F written literally).
#[test]
fn jcs_weird_keys() {
    let input = r#"{
        "\u20ac": "Euro Sign",
        "1": "One",
        "\u0080": "Control\u007f",
        "\ud83d\ude02": "Smiley",
        "\u00f6": "Latin Small Letter O With Diaeresis",
        "\ufb33": "Hebrew Letter Dalet With Dagesh",
        "</script>": "Browser Challenge"
    }"#;
    let expected = concat!(
        "{\"1\":\"One\",",
        "\"</script>\":\"Browser Challenge\",",
        "\"\u{80}\":\"Control\u{7f}\",",
        "\"\u{f6}\":\"Latin Small Letter O With Diaeresis\",",
        "\"\u{20ac}\":\"Euro Sign\",",
        "\"\u{1f602}\":\"Smiley\",",
        "\"\u{fb33}\":\"Hebrew Letter Dalet With Dagesh\"}"
    );
    assert_eq!(text(input), expected);
}

/// The JCS reference implementation's `structures.json` (with its one float, `56.0`,
/// written as the integer `56`).
#[test]
fn jcs_structures() {
    let input = r#"{
  "1": {"f": {"f": "hi","F": 5} ,"\n": 56},
  "10": { },
  "": "empty",
  "a": { },
  "111": [ { } ],
  "A": { }
}"#;
    assert_eq!(
        text(input),
        r#"{"":"empty","1":{"\n":56,"f":{"F":5,"f":"hi"}},"10":{},"111":[{}],"A":{},"a":{}}"#
    );
}

#[test]
fn utf16_order_not_code_point_order() {
    // U+1F600 (surrogates D83D DE00) sorts before U+FB33 and U+E000 in UTF-16, after them
    // by code point.
    let map: BTreeMap<String, u8> = [
        ("\u{fb33}".to_string(), 1),
        ("\u{1f600}".into(), 2),
        ("\u{e000}".into(), 3),
    ]
    .into_iter()
    .collect();
    assert_eq!(
        canon(&map),
        "{\"\u{1f600}\":2,\"\u{e000}\":3,\"\u{fb33}\":1}"
    );
}

// ---- integers -----------------------------------------------------------------------------

#[test]
fn edge_integers() {
    let two53 = 1i64 << 53;
    assert_eq!(canon(&i64::MIN), "\"-9223372036854775808\"");
    assert_eq!(canon(&i64::MAX), "\"9223372036854775807\"");
    assert_eq!(canon(&(two53 - 1)), "9007199254740991");
    assert_eq!(canon(&two53), "\"9007199254740992\"");
    assert_eq!(canon(&-(two53 - 1)), "-9007199254740991");
    assert_eq!(canon(&-two53), "\"-9007199254740992\"");
    assert_eq!(canon(&(two53 + 1)), "\"9007199254740993\"");
    assert_eq!(canon(&0u8), "0");
    assert_eq!(canon(&-1i8), "-1");
    assert_eq!(canon(&u64::MAX), "\"18446744073709551615\"");
    assert_eq!(
        canon(&i128::MIN),
        "\"-170141183460469231731687303715884105728\""
    );
    assert_eq!(
        canon(&u128::MAX),
        "\"340282366920938463463374607431768211455\""
    );
    assert_eq!(canon(&u32::MAX), "4294967295");
    assert_eq!(canon(&i32::MIN), "-2147483648");
    assert_eq!(MAX_SAFE_INTEGER, 9007199254740991);
}

#[test]
fn u64_generator_state_as_hex() {
    let rng = Pcg32::from_parts(u64::MAX, u64::MAX).unwrap();
    assert_eq!(
        canon(&rng),
        r#"{"inc":"ffffffffffffffff","state":"ffffffffffffffff"}"#
    );
    let back: Pcg32 =
        serde_json::from_str(r#"{"state":"ffffffffffffffff","inc":"ffffffffffffffff"}"#).unwrap();
    assert_eq!(back, rng);
    for bad in [
        r#"{"state":"FFFFFFFFFFFFFFFF","inc":"ffffffffffffffff"}"#,
        r#"{"state":"ffff","inc":"ffffffffffffffff"}"#,
        r#"{"state":18446744073709551615,"inc":"ffffffffffffffff"}"#,
        r#"{"state":"ffffffffffffffff","inc":"fffffffffffffffe"}"#,
        r#"{"state":"ffffffffffffffff","inc":"ffffffffffffffff","x":1}"#,
    ] {
        assert!(serde_json::from_str::<Pcg32>(bad).is_err(), "{bad}");
    }
}

#[test]
fn integers_deserialize_from_both_forms() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Ints {
        #[serde(with = "serde_int::i64")]
        a: i64,
        #[serde(with = "serde_int::u64")]
        b: u64,
        #[serde(with = "serde_int::i32")]
        c: i32,
        #[serde(with = "serde_int::u32")]
        d: u32,
        #[serde(with = "hex_u64")]
        e: u64,
    }
    let v = Ints {
        a: i64::MIN,
        b: u64::MAX,
        c: -5,
        d: 7,
        e: 0xabc,
    };
    let json = serde_json::to_string(&v).unwrap();
    assert_eq!(
        json,
        r#"{"a":"-9223372036854775808","b":"18446744073709551615","c":-5,"d":7,"e":"0000000000000abc"}"#
    );
    assert_eq!(canon(&v), json);
    assert_eq!(serde_json::from_str::<Ints>(&json).unwrap(), v);
    let alt = r#"{"a":"-5","b":12,"c":"-5","d":"7","e":"0000000000000abc"}"#;
    let parsed: Ints = serde_json::from_str(alt).unwrap();
    assert_eq!((parsed.a, parsed.b, parsed.c, parsed.d), (-5, 12, -5, 7));
    for bad in [
        r#"{"a":1.0,"b":1,"c":1,"d":1,"e":"0000000000000abc"}"#,
        r#"{"a":"+1","b":1,"c":1,"d":1,"e":"0000000000000abc"}"#,
        r#"{"a":"01","b":1,"c":1,"d":1,"e":"0000000000000abc"}"#,
        r#"{"a":1,"b":-1,"c":1,"d":1,"e":"0000000000000abc"}"#,
        r#"{"a":1,"b":1,"c":2147483648,"d":1,"e":"0000000000000abc"}"#,
        r#"{"a":"9223372036854775808","b":1,"c":1,"d":1,"e":"0000000000000abc"}"#,
        r#"{"a":1,"b":1,"c":1,"d":1e3,"e":"0000000000000abc"}"#,
    ] {
        assert!(serde_json::from_str::<Ints>(bad).is_err(), "{bad}");
    }
}

#[test]
fn fixed_json_forms() {
    assert_eq!(canon(&Fixed::from_raw(15000)), "15000");
    assert_eq!(canon(&Fixed::MAX), "\"9223372036854775807\"");
    assert_eq!(canon(&Fixed::MIN), "\"-9223372036854775808\"");
    assert_eq!(canon(&Fixed::from_raw(1 << 53)), "\"9007199254740992\"");
    assert_eq!(canon(&Fixed::from_raw((1 << 53) - 1)), "9007199254740991");
    let read = |json: &str| serde_json::from_str::<Fixed>(json);
    assert_eq!(read("15000").unwrap().raw(), 15000);
    assert_eq!(read("\"1.5\"").unwrap().raw(), 15000);
    assert_eq!(read("\"-0.0001\"").unwrap().raw(), -1);
    assert_eq!(read("\"2\"").unwrap().raw(), 20000);
    assert_eq!(read("\"9007199254740992\"").unwrap().raw(), 1 << 53);
    assert_eq!(read("\"-9223372036854775808\"").unwrap(), Fixed::MIN);
    assert_eq!(read("9223372036854775807").unwrap(), Fixed::MAX);
    for bad in [
        "1.5",
        "1e4",
        "15000.0",
        "\"1.23456\"",
        "\"NaN\"",
        "\"\"",
        "\"+1\"",
        "9223372036854775808",
        "null",
        "true",
        "[1]",
    ] {
        assert!(read(bad).is_err(), "{bad}");
    }
    let err = read("1.5").unwrap_err().to_string();
    assert!(err.starts_with("fixed.float:"), "{err}");
}

// ---- floats -----------------------------------------------------------------------------

#[test]
fn floats_rejected_everywhere() {
    #[derive(Serialize)]
    struct WithFloat {
        ok: i32,
        bad: Option<f32>,
    }
    assert_eq!(to_canonical_vec(&1.0f64), Err(CanonicalError::Float));
    assert_eq!(
        to_canonical_vec(&WithFloat {
            ok: 1,
            bad: Some(0.5)
        }),
        Err(CanonicalError::Float)
    );
    assert!(to_canonical_vec(&WithFloat { ok: 1, bad: None }).is_ok());
    assert_eq!(
        to_canonical_vec(&vec![Some(1.5f64)]),
        Err(CanonicalError::Float)
    );
    assert_eq!(
        to_canonical_vec(&serde_json::json!({"a": [1, 2.5]})),
        Err(CanonicalError::Float)
    );
    assert_eq!(
        Fingerprint::of(&serde_json::json!(0.0)),
        Err(CanonicalError::Float)
    );
}

// ---- typed values of every shape ---------------------------------------------------------

#[derive(Serialize)]
enum External {
    Unit,
    Newtype(i32),
    Tuple(i32, &'static str),
    Struct { z: u8, a: u8 },
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
enum Internal {
    PlayCard { card_id: u32, ace: bool },
    Skip,
}

#[derive(Serialize)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    Move(i8, i8),
}

#[derive(Serialize)]
#[serde(untagged)]
enum Untagged {
    Num(u8),
    Text(&'static str),
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Inner {
    zeta_value: Option<i64>,
    alpha_value: Vec<External>,
}

#[derive(Serialize)]
struct Outer {
    z: Inner,
    #[serde(flatten)]
    extra: BTreeMap<String, u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    skipped: Option<u8>,
    b: (u8, char, bool),
    unit: (),
    seats: BTreeMap<u32, &'static str>,
    modes: BTreeMap<Mode, u8>,
    nested: Vec<BTreeMap<&'static str, Untagged>>,
    a: Internal,
    adj: Adjacent,
    skip: Internal,
}

#[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
enum Mode {
    Hard,
    Easy,
}

fn outer() -> Outer {
    Outer {
        z: Inner {
            zeta_value: None,
            alpha_value: vec![
                External::Unit,
                External::Newtype(-3),
                External::Tuple(4, "x"),
                External::Struct { z: 1, a: 2 },
            ],
        },
        extra: [("y".to_string(), 9), ("c".to_string(), 8)]
            .into_iter()
            .collect(),
        skipped: None,
        b: (7, '\u{1f600}', false),
        unit: (),
        seats: [(10, "ten"), (2, "two"), (1, "one")].into_iter().collect(),
        modes: [(Mode::Hard, 1), (Mode::Easy, 2)].into_iter().collect(),
        nested: vec![[("k", Untagged::Num(1)), ("j", Untagged::Text("t"))]
            .into_iter()
            .collect()],
        a: Internal::PlayCard {
            card_id: 12,
            ace: true,
        },
        adj: Adjacent::Move(-1, 1),
        skip: Internal::Skip,
    }
}

#[test]
fn nested_typed_values() {
    let expected = concat!(
        r#"{"a":{"ace":true,"card_id":12,"type":"playCard"},"#,
        r#""adj":{"c":[-1,1],"t":"Move"},"#,
        r#""b":[7,"😀",false],"#,
        r#""c":8,"#,
        r#""modes":{"Easy":2,"Hard":1},"#,
        r#""nested":[{"j":"t","k":1}],"#,
        r#""seats":{"1":"one","10":"ten","2":"two"},"#,
        r#""skip":{"type":"skip"},"#,
        r#""unit":null,"#,
        r#""y":9,"#,
        r#""z":{"alphaValue":["Unit",{"Newtype":-3},{"Tuple":[4,"x"]},{"Struct":{"a":2,"z":1}}],"zetaValue":null}}"#,
    );
    assert_eq!(canon(&outer()), expected);
    // The text path agrees with the serializer on serde_json's rendering of the same value.
    let json = serde_json::to_string(&outer()).unwrap();
    assert_eq!(text(&json), expected);
}

#[test]
fn bytes_and_duplicate_keys() {
    struct Bytes;
    impl Serialize for Bytes {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(&[0, 1, 255])
        }
    }
    assert_eq!(canon(&Bytes), "[0,1,255]");

    #[derive(Serialize)]
    struct Clash {
        a: u8,
        #[serde(flatten)]
        more: BTreeMap<&'static str, u8>,
    }
    let clash = Clash {
        a: 1,
        more: [("a", 2)].into_iter().collect(),
    };
    assert_eq!(
        to_canonical_vec(&clash),
        Err(CanonicalError::DuplicateKey { key: "a".into() })
    );

    let mut bad_key = BTreeMap::new();
    bad_key.insert(vec![1u8], 1u8);
    assert_eq!(
        to_canonical_vec(&bad_key),
        Err(CanonicalError::KeyNotString)
    );
    let mut opt_key = BTreeMap::new();
    opt_key.insert(Some("a"), 1u8);
    assert_eq!(
        to_canonical_vec(&opt_key),
        Err(CanonicalError::KeyNotString)
    );
    let mut bool_key = BTreeMap::new();
    bool_key.insert(true, 1u8);
    bool_key.insert(false, 0u8);
    assert_eq!(canon(&bool_key), r#"{"false":0,"true":1}"#);
    let mut neg_key = BTreeMap::new();
    neg_key.insert(-5i64, 1u8);
    neg_key.insert(i64::MIN, 2u8);
    assert_eq!(canon(&neg_key), r#"{"-5":1,"-9223372036854775808":2}"#);
}

#[test]
fn collect_str_escapes() {
    struct Shown;
    impl Serialize for Shown {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_str(&format_args!("a\"b\\{}", '\n'))
        }
    }
    assert_eq!(canon(&Shown), r#""a\"b\\\n""#);
}

#[test]
fn writer_is_reusable_and_resets_after_errors() {
    let mut w = CanonicalWriter::new();
    assert_eq!(w.write(&outer()).unwrap(), canon(&outer()).as_bytes());
    assert!(w
        .write(&serde_json::json!({"b": {"x": 1.5}, "a": 1}))
        .is_err());
    assert_eq!(w.write(&[3, 2, 1]).unwrap(), b"[3,2,1]");
    assert!(w.write_json_text("{\"a\":1,\"a\":1}").is_err());
    assert_eq!(
        w.write_json_text(" { \"b\":1,\"a\":[]} ").unwrap(),
        br#"{"a":[],"b":1}"#
    );
    assert_eq!(w.write(&outer()).unwrap(), canon(&outer()).as_bytes());
}

// ---- property test against a reference canonicalizer ---------------------------------------

/// An independent reference: keys compared as UTF-16 code unit sequences, strings escaped
/// char by char. `quote_big` applies the typed-value integer rule; the text path keeps
/// every integer literal bare.
fn reference(v: &Value, quote_big: bool, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            let (digits, magnitude) = if let Some(i) = n.as_i64() {
                (i.to_string(), u128::from(i.unsigned_abs()))
            } else {
                let u = n.as_u64().unwrap();
                (u.to_string(), u128::from(u))
            };
            if quote_big && magnitude > (1 << 53) - 1 {
                out.push('"');
                out.push_str(&digits);
                out.push('"');
            } else {
                out.push_str(&digits);
            }
        }
        Value::String(s) => reference_str(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                reference(item, quote_big, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| {
                a.0.encode_utf16()
                    .collect::<Vec<u16>>()
                    .cmp(&b.0.encode_utf16().collect())
            });
            out.push('{');
            for (i, (k, v)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                reference_str(k, out);
                out.push(':');
                reference(v, quote_big, out);
            }
            out.push('}');
        }
    }
}

fn reference_str(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
}

fn json_value() -> impl Strategy<Value = Value> {
    let key = prop_oneof![
        "[a-c]{0,2}",
        any::<String>(),
        "[\u{e000}-\u{e002}\u{fb33}\u{ffff}\u{10000}\u{1f600}\u{10ffff}]{1,2}",
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-(1i64 << 54)..(1i64 << 54)).prop_map(Value::from),
        any::<String>().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(key.clone(), inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn serializer_and_text_path_match_reference(value in json_value()) {
        let mut typed = String::new();
        reference(&value, true, &mut typed);
        prop_assert_eq!(canon(&value), typed);

        let mut bare = String::new();
        reference(&value, false, &mut bare);
        let pretty = serde_json::to_string_pretty(&value).unwrap();
        prop_assert_eq!(text(&pretty), bare.clone());
        // Canonical text is a fixed point.
        prop_assert_eq!(text(&bare), bare);
    }
}

/// Struct field names that rank and escape unusually, declared out of order: a writer reused for
/// many values remembers each name's written form, and must write exactly what a fresh writer
/// writes, value after value.
#[derive(Serialize)]
struct OddFields {
    zeta: u8,
    #[serde(rename = "a\"quote")]
    quote: u8,
    #[serde(rename = "\u{FB33}")]
    high: u8,
    #[serde(rename = "\u{1F600}")]
    astral: u8,
    #[serde(rename = "tab\there")]
    tab: u8,
    #[serde(rename = "")]
    empty: u8,
    nested: Option<Box<OddFields>>,
}

#[test]
fn a_reused_writer_writes_what_a_fresh_one_writes() {
    let leaf = |n: u8| OddFields {
        zeta: n,
        quote: n,
        high: n,
        astral: n,
        tab: n,
        empty: n,
        nested: None,
    };
    let mut writer = turnstile_determinism::canonical::CanonicalWriter::new();
    for n in 0..5u8 {
        let mut value = leaf(n);
        value.nested = Some(Box::new(leaf(n + 1)));
        let fresh = canon(&value);
        let reused = String::from_utf8(writer.write(&value).unwrap().to_vec()).unwrap();
        assert_eq!(reused, fresh, "value {n}");
    }
    assert_eq!(
        canon(&leaf(1)),
        "{\"\":1,\"a\\\"quote\":1,\"nested\":null,\"tab\\there\":1,\"zeta\":1,\"\u{1F600}\":1,\"\u{FB33}\":1}"
    );
}

// ---- struct field names and unit variants through the name memo ----------------------------

/// A struct whose field names are arbitrary `&'static str`s (leaked, so any text at all):
/// written through `serialize_struct` in the given order, each value a unit variant of a leaked
/// name or a nested struct of the same kind — the paths that look names up by address in the
/// writer's memo instead of ranking and escaping them anew.
#[derive(Debug, Clone)]
struct LeakedStruct {
    fields: Vec<(&'static str, LeakedValue)>,
}

#[derive(Debug, Clone)]
enum LeakedValue {
    Variant(&'static str),
    Int(i64),
    Nested(LeakedStruct),
}

impl Serialize for LeakedStruct {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut object = s.serialize_struct("Leaked", self.fields.len())?;
        for (name, value) in &self.fields {
            object.serialize_field(name, value)?;
        }
        object.end()
    }
}

impl Serialize for LeakedValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            LeakedValue::Variant(name) => s.serialize_unit_variant("Leaked", 0, name),
            LeakedValue::Int(n) => s.serialize_i64(*n),
            LeakedValue::Nested(inner) => inner.serialize(s),
        }
    }
}

impl LeakedStruct {
    /// The same value as a JSON tree, for the reference canonicalizer.
    fn tree(&self) -> Value {
        Value::Object(
            self.fields
                .iter()
                .map(|(name, value)| {
                    let value = match value {
                        LeakedValue::Variant(v) => Value::String((*v).to_string()),
                        LeakedValue::Int(n) => Value::from(*n),
                        LeakedValue::Nested(inner) => inner.tree(),
                    };
                    ((*name).to_string(), value)
                })
                .collect(),
        )
    }
}

/// Names from a small pool (so they repeat, within a value and across values, and hit the
/// memo) and fresh arbitrary ones (escapes, surrogate-ranked characters, empty).
fn leaked_name() -> impl Strategy<Value = &'static str> {
    static POOL: [&str; 8] = [
        "type",
        "turnIndex",
        "turnConfig",
        "a\"b",
        "tab\there",
        "\u{FB33}",
        "\u{1F600}",
        "",
    ];
    prop_oneof![
        (0..POOL.len()).prop_map(|i| POOL[i]),
        "[a-z\u{e000}\u{1f600}\"\\\\\n]{0,12}".prop_map(|s| &*Box::leak(s.into_boxed_str())),
        any::<String>().prop_map(|s| &*Box::leak(s.into_boxed_str())),
    ]
}

fn leaked_struct() -> impl Strategy<Value = LeakedStruct> {
    let leaf = prop_oneof![
        leaked_name().prop_map(LeakedValue::Variant),
        any::<i64>().prop_map(LeakedValue::Int),
    ];
    let flat = prop::collection::vec((leaked_name(), leaf.clone()), 0..8)
        .prop_map(|fields| LeakedStruct { fields });
    flat.prop_recursive(3, 40, 8, move |inner| {
        prop::collection::vec(
            (
                leaked_name(),
                prop_oneof![leaf.clone(), inner.prop_map(LeakedValue::Nested)],
            ),
            0..8,
        )
        .prop_map(|fields| LeakedStruct { fields })
    })
}

/// Whether a struct (at any depth) names a field twice: the writer's duplicate-key error.
fn has_duplicate(value: &LeakedStruct) -> bool {
    let mut names: Vec<&str> = value.fields.iter().map(|(n, _)| *n).collect();
    names.sort_unstable();
    names.windows(2).any(|w| w[0] == w[1])
        || value.fields.iter().any(|(_, v)| match v {
            LeakedValue::Nested(inner) => has_duplicate(inner),
            _ => false,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// One writer reused over many values with many distinct names (more than the memo keeps,
    /// so it is emptied and refilled along the way) writes each exactly as the reference does.
    #[test]
    fn static_names_through_a_reused_writer_match_reference(
        values in prop::collection::vec(leaked_struct(), 1..24)
    ) {
        let mut writer = CanonicalWriter::new();
        for value in &values {
            let written = writer.write(value);
            if has_duplicate(value) {
                prop_assert_eq!(written.unwrap_err().code(), "canonical.duplicate_key");
                continue;
            }
            let mut expected = String::new();
            reference(&value.tree(), true, &mut expected);
            prop_assert_eq!(std::str::from_utf8(written.unwrap()).unwrap(), expected.as_str());
            prop_assert_eq!(canon(value), expected);
        }
    }
}
