//! `docs/determinism-vectors.json`: the project's own published vectors, so another
//! implementation (a C# client, a GDScript port) can test itself against ours.
//!
//! - `vectors_file_is_current` regenerates the file from the implementation and fails on
//!   any difference; with `TURNSTILE_BLESS=1` it writes the file instead.
//! - `vectors_file_checks` reads the file as data and recomputes every vector in it.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use turnstile_determinism::canonical::{from_json_text, hex_u64, serde_int, to_canonical_string};
use turnstile_determinism::fixed::mul_int;
use turnstile_determinism::stream::{fnv1a64, stream_stages, SplitMix64, StreamTable, Streams};
use turnstile_determinism::{derive_stream, Chance, Fingerprint, Fixed, Pcg32};

const FORMAT: &str = "turnstile-determinism-vectors/1";
const ABOUT: &str = "Published vectors of Turnstile's determinism kit (spec/determinism.md; \
how to read this file: docs/determinism.md). Each record is one line of canonical JSON. \
u64 values are 16 lowercase hex digits, raw 32-bit generator outputs 8; other integers, and \
Fixed values as raw ten-thousandths, are JSON numbers up to 2^53-1 in magnitude and decimal \
strings beyond. Regenerate with TURNSTILE_BLESS=1 cargo test -p turnstile-determinism --test vectors_file.";

const SEED: &str = "turnstile-vectors";
const STREAM_NAMES: [&str; 12] = [
    "shuffle",
    "shop_slot",
    "shop_rarity",
    "shop_voucher",
    "pack",
    "joker_proc",
    "card_proc",
    "boss",
    "tag",
    "misprint",
    "dice",
    "deck",
];

// ---- value forms ----------------------------------------------------------------------------

/// A u64 as 16 lowercase hex digits.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
struct H64(#[serde(with = "hex_u64")] u64);

/// A raw generator output as 8 lowercase hex digits.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct H32(u32);

impl Serialize for H32 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{:08x}", self.0))
    }
}

impl<'de> Deserialize<'de> for H32 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<H32, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = H32;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("8 lowercase hex digits")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<H32, E> {
                if v.len() == 8 && v.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
                    u32::from_str_radix(v, 16).map(H32).map_err(E::custom)
                } else {
                    Err(E::custom(format!("{v:?} is not 8 lowercase hex digits")))
                }
            }
        }
        d.deserialize_str(V)
    }
}

fn outputs(rng: &mut Pcg32, n: usize) -> Vec<H32> {
    (0..n).map(|_| H32(rng.next_u32())).collect()
}

fn hex_bytes(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

// ---- records -------------------------------------------------------------------------------

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(deny_unknown_fields)]
struct FnvRecord {
    input_hex: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    input_utf8: Option<String>,
    fnv1a64: H64,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(deny_unknown_fields)]
struct SplitMixRecord {
    seed: H64,
    outputs: Vec<H64>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(deny_unknown_fields)]
struct PcgRecord {
    initstate: H64,
    initseq: H64,
    /// The generator right after seeding.
    state: H64,
    inc: H64,
    outputs: Vec<H32>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(deny_unknown_fields)]
struct DerivationRecord {
    seed: String,
    stream: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    h: Option<H64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    initstate: Option<H64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    initseq: Option<H64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    state: Option<H64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    inc: Option<H64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    outputs: Option<Vec<H32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(deny_unknown_fields)]
struct StreamOutputsRecord {
    seed: String,
    stream: String,
    outputs: Vec<H32>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(deny_unknown_fields)]
struct BelowRecord {
    seed: String,
    stream: String,
    n: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    draws: Option<Vec<u32>>,
    /// Raw outputs consumed by all the draws (rejection sampling may take more than one each).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    consumed: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(deny_unknown_fields)]
struct ShuffleRecord {
    seed: String,
    stream: String,
    /// The input is `[0, 1, ..., len - 1]`.
    len: u32,
    result: Vec<u32>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(deny_unknown_fields)]
struct ChanceRollRecord {
    seed: String,
    stream: String,
    chance: String,
    /// One character per roll: `1` hit, `0` miss.
    rolls: String,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(deny_unknown_fields)]
struct ChanceTextRecord {
    text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    num: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    den: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(deny_unknown_fields)]
struct FixedMulRecord {
    a: Fixed,
    b: Fixed,
    product: Fixed,
    saturated: bool,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(deny_unknown_fields)]
struct FixedDivRecord {
    a: Fixed,
    b: Fixed,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    quotient: Option<Fixed>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    saturated: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(deny_unknown_fields)]
struct FixedMulIntRecord {
    #[serde(with = "serde_int::i64")]
    n: i64,
    f: Fixed,
    #[serde(with = "serde_int::i64")]
    product: i64,
    saturated: bool,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(deny_unknown_fields)]
struct FixedAddSubRecord {
    a: Fixed,
    b: Fixed,
    sum: Fixed,
    difference: Fixed,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(deny_unknown_fields)]
struct FixedTextRecord {
    text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    raw: Option<Fixed>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    display: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(deny_unknown_fields)]
struct FixedJsonRecord {
    /// A JSON text read as a `Fixed`.
    json: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    raw: Option<Fixed>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(deny_unknown_fields)]
struct CanonicalTypedRecord {
    /// `i64`, `u64` (decimal `value`), `fixed` (raw decimal), `string`, `pcg32`
    /// (`"<state hex> <inc hex>"`), `chance` (`"num/den"`).
    #[serde(rename = "type")]
    kind: String,
    value: String,
    canonical: String,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(deny_unknown_fields)]
struct CanonicalTextRecord {
    input: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    canonical: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(deny_unknown_fields)]
struct FingerprintRecord {
    canonical: String,
    fingerprint: Fingerprint,
}

macro_rules! vectors {
    ($($field:ident: $ty:ty),* $(,)?) => {
        #[derive(Serialize, Deserialize, PartialEq, Debug)]
        #[serde(deny_unknown_fields)]
        struct Vectors {
            about: String,
            format: String,
            $($field: Vec<$ty>,)*
        }

        /// The file text: sections in declaration order, one canonical record per line.
        fn render(v: &Vectors) -> String {
            let mut out = String::from("{\n");
            out.push_str(&format!("  \"about\": {},\n", to_canonical_string(&v.about).unwrap()));
            out.push_str(&format!("  \"format\": {}", to_canonical_string(&v.format).unwrap()));
            $(
                out.push_str(&format!(",\n  \"{}\": [", stringify!($field)));
                for (i, record) in v.$field.iter().enumerate() {
                    out.push_str(if i == 0 { "\n    " } else { ",\n    " });
                    out.push_str(&to_canonical_string(record).unwrap());
                }
                out.push_str("\n  ]");
            )*
            out.push_str("\n}\n");
            out
        }
    };
}

vectors! {
    fnv1a64: FnvRecord,
    splitmix64: SplitMixRecord,
    pcg32: PcgRecord,
    stream_derivation: DerivationRecord,
    stream_outputs: StreamOutputsRecord,
    below: BelowRecord,
    shuffle: ShuffleRecord,
    chance_rolls: ChanceRollRecord,
    chance_text: ChanceTextRecord,
    fixed_mul: FixedMulRecord,
    fixed_div: FixedDivRecord,
    fixed_mul_int: FixedMulIntRecord,
    fixed_add_sub: FixedAddSubRecord,
    fixed_text: FixedTextRecord,
    fixed_json: FixedJsonRecord,
    canonical_typed: CanonicalTypedRecord,
    canonical_text: CanonicalTextRecord,
    fingerprints: FingerprintRecord,
}

// ---- computing each kind of vector (shared by generation and checking) ----------------------

fn fnv_record(bytes: &[u8]) -> FnvRecord {
    FnvRecord {
        input_hex: hex_bytes(bytes),
        input_utf8: std::str::from_utf8(bytes).ok().map(str::to_owned),
        fnv1a64: H64(fnv1a64(bytes)),
    }
}

fn splitmix_record(seed: u64) -> SplitMixRecord {
    let mut s = SplitMix64::new(seed);
    SplitMixRecord {
        seed: H64(seed),
        outputs: (0..5).map(|_| H64(s.next_u64())).collect(),
    }
}

fn pcg_record(initstate: u64, initseq: u64) -> PcgRecord {
    let mut rng = Pcg32::new(initstate, initseq);
    PcgRecord {
        initstate: H64(initstate),
        initseq: H64(initseq),
        state: H64(rng.state()),
        inc: H64(rng.inc()),
        outputs: outputs(&mut rng, 12),
    }
}

fn derivation_record(seed: &str, stream: &str) -> DerivationRecord {
    let mut r = DerivationRecord {
        seed: seed.into(),
        stream: stream.into(),
        h: None,
        initstate: None,
        initseq: None,
        state: None,
        inc: None,
        outputs: None,
        error: None,
    };
    match stream_stages(seed, stream) {
        Ok(stages) => {
            let mut rng = stages.generator();
            r.h = Some(H64(stages.h));
            r.initstate = Some(H64(stages.initstate));
            r.initseq = Some(H64(stages.initseq));
            r.state = Some(H64(rng.state()));
            r.inc = Some(H64(rng.inc()));
            r.outputs = Some(outputs(&mut rng, 8));
        }
        Err(e) => r.error = Some(e.code().into()),
    }
    r
}

fn stream_outputs_record(seed: &str, stream: &str) -> StreamOutputsRecord {
    StreamOutputsRecord {
        seed: seed.into(),
        stream: stream.into(),
        outputs: outputs(&mut derive_stream(seed, stream).unwrap(), 8),
    }
}

/// How many raw outputs lie between two states of the same stream.
fn steps_between(from: &Pcg32, to: &Pcg32) -> u32 {
    let mut probe = from.clone();
    let mut steps = 0;
    while probe != *to {
        probe.next_u32();
        steps += 1;
        assert!(steps < 1_000_000, "states are not on one stream");
    }
    steps
}

fn below_record(seed: &str, stream: &str, n: u32) -> BelowRecord {
    let start = derive_stream(seed, stream).unwrap();
    let mut rng = start.clone();
    let mut r = BelowRecord {
        seed: seed.into(),
        stream: stream.into(),
        n,
        draws: None,
        consumed: None,
        error: None,
    };
    match rng.below(n) {
        Err(e) => r.error = Some(e.code().into()),
        Ok(first) => {
            let mut draws = vec![first];
            draws.extend((1..16).map(|_| rng.below(n).unwrap()));
            r.draws = Some(draws);
            r.consumed = Some(steps_between(&start, &rng));
        }
    }
    r
}

fn shuffle_record(seed: &str, stream: &str, len: u32) -> ShuffleRecord {
    let mut items: Vec<u32> = (0..len).collect();
    derive_stream(seed, stream)
        .unwrap()
        .shuffle(&mut items)
        .unwrap();
    ShuffleRecord {
        seed: seed.into(),
        stream: stream.into(),
        len,
        result: items,
    }
}

fn chance_roll_record(seed: &str, stream: &str, chance: &str) -> ChanceRollRecord {
    let c: Chance = chance.parse().unwrap();
    let mut rng = derive_stream(seed, stream).unwrap();
    ChanceRollRecord {
        seed: seed.into(),
        stream: stream.into(),
        chance: chance.into(),
        rolls: (0..32)
            .map(|_| if c.roll(&mut rng) { '1' } else { '0' })
            .collect(),
    }
}

fn chance_text_record(text: &str) -> ChanceTextRecord {
    match text.parse::<Chance>() {
        Ok(c) => ChanceTextRecord {
            text: text.into(),
            num: Some(c.num()),
            den: Some(c.den()),
            error: None,
        },
        Err(e) => ChanceTextRecord {
            text: text.into(),
            num: None,
            den: None,
            error: Some(e.code().into()),
        },
    }
}

fn fixed_mul_record(a: i64, b: i64) -> FixedMulRecord {
    let (a, b) = (Fixed::from_raw(a), Fixed::from_raw(b));
    let p = a.mul(b);
    FixedMulRecord {
        a,
        b,
        product: p.value,
        saturated: p.saturated,
    }
}

fn fixed_div_record(a: i64, b: i64) -> FixedDivRecord {
    let (a, b) = (Fixed::from_raw(a), Fixed::from_raw(b));
    match a.div(b) {
        Ok(q) => FixedDivRecord {
            a,
            b,
            quotient: Some(q.value),
            saturated: Some(q.saturated),
            error: None,
        },
        Err(e) => FixedDivRecord {
            a,
            b,
            quotient: None,
            saturated: None,
            error: Some(e.code().into()),
        },
    }
}

fn fixed_mul_int_record(n: i64, f: i64) -> FixedMulIntRecord {
    let f = Fixed::from_raw(f);
    let p = mul_int(n, f);
    FixedMulIntRecord {
        n,
        f,
        product: p.value,
        saturated: p.saturated,
    }
}

fn fixed_add_sub_record(a: i64, b: i64) -> FixedAddSubRecord {
    let (a, b) = (Fixed::from_raw(a), Fixed::from_raw(b));
    FixedAddSubRecord {
        a,
        b,
        sum: a + b,
        difference: a - b,
    }
}

fn fixed_text_record(text: &str) -> FixedTextRecord {
    match text.parse::<Fixed>() {
        Ok(f) => FixedTextRecord {
            text: text.into(),
            raw: Some(f),
            display: Some(f.to_string()),
            error: None,
        },
        Err(e) => FixedTextRecord {
            text: text.into(),
            raw: None,
            display: None,
            error: Some(e.code().into()),
        },
    }
}

/// The stable code at the start of one of our deserialization messages.
fn code_of(e: &serde_json::Error) -> String {
    let text = e.to_string();
    text.split(':').next().unwrap_or_default().to_owned()
}

fn fixed_json_record(json: &str) -> FixedJsonRecord {
    match serde_json::from_str::<Fixed>(json) {
        Ok(f) => FixedJsonRecord {
            json: json.into(),
            raw: Some(f),
            error: None,
        },
        Err(e) => FixedJsonRecord {
            json: json.into(),
            raw: None,
            error: Some(code_of(&e)),
        },
    }
}

fn canonical_typed_record(kind: &str, value: &str) -> CanonicalTypedRecord {
    let canonical = match kind {
        "i64" => to_canonical_string(&value.parse::<i64>().unwrap()),
        "u64" => to_canonical_string(&value.parse::<u64>().unwrap()),
        "fixed" => to_canonical_string(&Fixed::from_raw(value.parse().unwrap())),
        "string" => to_canonical_string(value),
        "chance" => to_canonical_string(&value.parse::<Chance>().unwrap()),
        "pcg32" => {
            let (state, inc) = value.split_once(' ').unwrap();
            let rng =
                Pcg32::from_parts(hex_u64::parse(state).unwrap(), hex_u64::parse(inc).unwrap())
                    .unwrap();
            to_canonical_string(&rng)
        }
        other => panic!("unknown canonical_typed type {other:?}"),
    }
    .unwrap();
    CanonicalTypedRecord {
        kind: kind.into(),
        value: value.into(),
        canonical,
    }
}

fn canonical_text_record(input: &str) -> CanonicalTextRecord {
    match from_json_text(input) {
        Ok(bytes) => CanonicalTextRecord {
            input: input.into(),
            canonical: Some(String::from_utf8(bytes).unwrap()),
            error: None,
        },
        Err(e) => CanonicalTextRecord {
            input: input.into(),
            canonical: None,
            error: Some(e.code().into()),
        },
    }
}

fn fingerprint_record(canonical: &str) -> FingerprintRecord {
    FingerprintRecord {
        canonical: canonical.into(),
        fingerprint: Fingerprint::of_bytes(canonical.as_bytes()),
    }
}

// ---- the inputs -----------------------------------------------------------------------------

const FIXED_RAWS: [i64; 15] = [
    0,
    1,
    -1,
    3333,
    -3333,
    5000,
    -5000,
    10000,
    -10000,
    15000,
    -15000,
    123456789,
    -123456789,
    i64::MAX,
    i64::MIN,
];

fn generate() -> Vectors {
    let two53 = 1i64 << 53;

    let fnv1a64 = [
        &b""[..],
        b"a",
        b"foobar",
        b"\0",
        b"demo-seed\0dice",
        b"turnstile",
        "h\u{e9}llo w\u{f6}rld \u{2713} \u{1f3b2}".as_bytes(),
        &[0xff, 0x00, 0x80],
    ]
    .into_iter()
    .map(fnv_record)
    .collect();

    let splitmix64 = [1234567, 0, u64::MAX, 0x9ee1c14fc21722a3]
        .into_iter()
        .map(splitmix_record)
        .collect();

    let pcg32 = [
        (42, 54),
        (0, 0),
        (u64::MAX, u64::MAX),
        (0xcafef00dd15ea5e5, 0xa02bdbf7bb3c0a7),
    ]
    .into_iter()
    .map(|(s, q)| pcg_record(s, q))
    .collect();

    let stream_derivation = [
        ("demo-seed", "dice"),
        ("demo-seed", "deck"),
        ("", ""),
        ("", "dice"),
        ("demo-seed", ""),
        (SEED, "shuffle"),
        ("match-0001", "bot:0"),
        ("match-0001", "bot:1"),
        (
            "\u{17c}\u{f3}\u{142}\u{107} \u{1f3b2} seed",
            "\u{30b9}\u{30c8}\u{30ea}\u{30fc}\u{30e0}",
        ),
        ("seed with spaces and \"quotes\"", "tab\tname"),
        ("\u{1f600}", "\u{ffff}"),
        ("a\0b", "dice"),
        ("seed", "di\0ce"),
    ]
    .into_iter()
    .map(|(seed, stream)| derivation_record(seed, stream))
    .collect();

    let stream_outputs = STREAM_NAMES
        .iter()
        .map(|name| stream_outputs_record(SEED, name))
        .collect();

    let below = [0, 1, 2, 3, 6, 7, 52, 1000, (1 << 31) + 1, u32::MAX]
        .into_iter()
        .map(|n| below_record(SEED, "dice", n))
        .collect();

    let shuffle = [
        (SEED, "shuffle", 10),
        (SEED, "shuffle", 52),
        ("demo-seed", "deck", 52),
        (SEED, "deck", 0),
        (SEED, "deck", 1),
        (SEED, "deck", 2),
        (SEED, "deck", 3),
    ]
    .into_iter()
    .map(|(seed, stream, len)| shuffle_record(seed, stream, len))
    .collect();

    let chance_rolls = [
        "1/4", "0/4", "4/4", "5/4", "1/1", "2/4", "1/2", "3/7", "1/1000", "999/1000",
    ]
    .into_iter()
    .map(|c| chance_roll_record(SEED, "joker_proc", c))
    .collect();

    let chance_text = [
        "1/4",
        "0/1",
        "7/3",
        "4294967295/4294967295",
        "1/0",
        "0.25",
        " 1/4",
        "1 /4",
        "-1/4",
        "+1/4",
        "1/4/5",
        "/4",
        "1/",
        "4294967296/5",
        "",
    ]
    .into_iter()
    .map(chance_text_record)
    .collect();

    let mut fixed_mul = Vec::new();
    let mut fixed_div = Vec::new();
    for a in FIXED_RAWS {
        for b in FIXED_RAWS {
            fixed_mul.push(fixed_mul_record(a, b));
            fixed_div.push(fixed_div_record(a, b));
        }
    }

    let ints = [0, 1, -1, 7, -7, 100, -100, i64::MAX, i64::MIN];
    let factors = [0, 1, -1, 3333, -3333, 15000, -15000, i64::MAX, i64::MIN];
    let mut fixed_mul_int = Vec::new();
    for n in ints {
        for f in factors {
            fixed_mul_int.push(fixed_mul_int_record(n, f));
        }
    }

    let fixed_add_sub = [
        (15000, 2500),
        (-1, 1),
        (i64::MAX, 1),
        (i64::MAX, -1),
        (i64::MIN, -1),
        (i64::MIN, 1),
        (i64::MAX, i64::MAX),
        (i64::MIN, i64::MIN),
        (i64::MIN, i64::MAX),
    ]
    .into_iter()
    .map(|(a, b)| fixed_add_sub_record(a, b))
    .collect();

    let fixed_text = [
        "1.5",
        "0.0001",
        "-2",
        "-0.5",
        "2.50",
        "-0",
        "0",
        "007.25",
        "0.1000",
        "-0.0001",
        "1234.5678",
        "922337203685477.5807",
        "-922337203685477.5808",
        "",
        "1.23456",
        "1e5",
        "-2.5E-3",
        "NaN",
        "inf",
        "-Infinity",
        "+1",
        "1.",
        ".5",
        " 1",
        "1 ",
        "1,5",
        "--1",
        "-",
        "0x10",
        "922337203685477.5808",
        "-922337203685477.5809",
    ]
    .into_iter()
    .map(fixed_text_record)
    .collect();

    let fixed_json = [
        "15000",
        "-1",
        "\"1.5\"",
        "\"-0.0001\"",
        "\"2\"",
        "\"9007199254740992\"",
        "\"-9223372036854775808\"",
        "9223372036854775807",
        "\"9007199254740991\"",
        "1.5",
        "1e4",
        "15000.0",
        "\"1.23456\"",
        "\"+1\"",
        "9223372036854775808",
    ]
    .into_iter()
    .map(fixed_json_record)
    .collect();

    let mut canonical_typed = Vec::new();
    for v in [
        i64::MIN,
        i64::MAX,
        two53 - 1,
        two53,
        -(two53 - 1),
        -two53,
        two53 + 1,
        0,
        -1,
    ] {
        canonical_typed.push(canonical_typed_record("i64", &v.to_string()));
    }
    for v in [u64::MAX, 1 << 53] {
        canonical_typed.push(canonical_typed_record("u64", &v.to_string()));
    }
    for v in [15000, -1, two53 - 1, two53, i64::MAX, i64::MIN] {
        canonical_typed.push(canonical_typed_record("fixed", &v.to_string()));
    }
    for s in [
        "",
        "plain",
        "\"quoted\" \\ back/slash",
        "\u{0}\u{1}\u{7}\u{8}\t\n\u{b}\u{c}\r\u{e}\u{1f}",
        "\u{7f}\u{80}\u{a0}\u{2028}\u{2029}",
        "\u{e9}\u{20ac}\u{1f600}\u{fb33}\u{ffff}\u{10ffff}",
        "</script>",
    ] {
        canonical_typed.push(canonical_typed_record("string", s));
    }
    let seeded = Pcg32::new(42, 54);
    for (state, inc) in [(u64::MAX, u64::MAX), (0, 1), (seeded.state(), seeded.inc())] {
        canonical_typed.push(canonical_typed_record(
            "pcg32",
            &format!("{} {}", hex_u64::to_hex(state), hex_u64::to_hex(inc)),
        ));
    }
    canonical_typed.push(canonical_typed_record("chance", "1/4"));

    let canonical_text = [
        r#"{"string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/", "literals": [null, true, false]}"#,
        r#"{"\u20ac": "Euro Sign", "\r": "Carriage Return", "\ufb33": "Hebrew Letter Dalet With Dagesh", "1": "One", "\ud83d\ude00": "Emoji: Grinning Face", "\u0080": "Control", "\u00f6": "Latin Small Letter O With Diaeresis"}"#,
        r#"{"\u20ac": "Euro Sign", "1": "One", "\u0080": "Control\u007f", "\ud83d\ude02": "Smiley", "\u00f6": "Latin Small Letter O With Diaeresis", "\ufb33": "Hebrew Letter Dalet With Dagesh", "</script>": "Browser Challenge"}"#,
        "{\n  \"1\": {\"f\": {\"f\": \"hi\",\"F\": 5} ,\"\\n\": 56},\n  \"10\": { },\n  \"\": \"empty\",\n  \"a\": { },\n  \"111\": [ { } ],\n  \"A\": { }\n}",
        "[123456789012345678901234567890, -123456789012345678901234567890, -0, 9007199254740993]",
        r#"{"\ufb33": 1, "\ud83d\ude00": 2, "\ue000": 3, "\u00ff": 4}"#,
        r#"{"b": {"d": [], "c": {}}, "a": [{"z": null, "y": true}]}"#,
        "\"\\u0000\\u001F\\u007f\\u2028\\/\"",
        "[1.0]",
        "[1e3]",
        r#"{"a": 1, "a": 2}"#,
        r#""\ud800""#,
        "[01]",
        "[1,]",
        "",
        "NaN",
    ]
    .into_iter()
    .map(canonical_text_record)
    .collect();

    let table = StreamTable::new(&["dice", "deck"]);
    let streams = to_canonical_string(&Streams::new("demo-seed", &table).unwrap()).unwrap();
    let pcg = to_canonical_string(&Pcg32::new(42, 54)).unwrap();
    let fingerprints = [
        "null",
        "{}",
        "[]",
        "0",
        "\"\"",
        r#"{"a":1,"b":[true,false,null]}"#,
        "\"9223372036854775807\"",
        pcg.as_str(),
        streams.as_str(),
    ]
    .into_iter()
    .map(fingerprint_record)
    .collect();

    Vectors {
        about: ABOUT.into(),
        format: FORMAT.into(),
        fnv1a64,
        splitmix64,
        pcg32,
        stream_derivation,
        stream_outputs,
        below,
        shuffle,
        chance_rolls,
        chance_text,
        fixed_mul,
        fixed_div,
        fixed_mul_int,
        fixed_add_sub,
        fixed_text,
        fixed_json,
        canonical_typed,
        canonical_text,
        fingerprints,
    }
}

fn vectors_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/determinism-vectors.json")
}

#[test]
fn vectors_file_is_current() {
    let text = render(&generate());
    let path = vectors_path();
    if std::env::var("TURNSTILE_BLESS").as_deref() == Ok("1") {
        std::fs::write(&path, &text).unwrap();
        return;
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {}: {e}; write it with TURNSTILE_BLESS=1",
            path.display()
        )
    });
    if on_disk != text {
        for (i, (a, b)) in on_disk.lines().zip(text.lines()).enumerate() {
            assert_eq!(a, b, "docs/determinism-vectors.json line {} differs from the implementation (deliberate? TURNSTILE_BLESS=1)", i + 1);
        }
        panic!("docs/determinism-vectors.json differs in length from the implementation's output");
    }
}

/// Reads the file as data and recomputes every record from its inputs.
#[test]
fn vectors_file_checks() {
    let path = vectors_path();
    // While blessing, the other test may not have written the file yet: check what it writes.
    let text = if std::env::var("TURNSTILE_BLESS").as_deref() == Ok("1") {
        render(&generate())
    } else {
        std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "cannot read {}: {e}; write it with TURNSTILE_BLESS=1",
                path.display()
            )
        })
    };
    let v: Vectors = serde_json::from_str(&text).expect("the vectors file parses");
    assert_eq!(v.format, FORMAT);

    fn check<T: PartialEq + fmt::Debug>(
        section: &str,
        records: &[T],
        recompute: impl Fn(&T) -> T,
    ) -> usize {
        assert!(!records.is_empty(), "section {section} is empty");
        for record in records {
            assert_eq!(&recompute(record), record, "section {section}");
        }
        records.len()
    }

    let mut n = 0;
    n += check("fnv1a64", &v.fnv1a64, |r| {
        let bytes: Vec<u8> = (0..r.input_hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&r.input_hex[i..i + 2], 16).unwrap())
            .collect();
        fnv_record(&bytes)
    });
    n += check("splitmix64", &v.splitmix64, |r| splitmix_record(r.seed.0));
    n += check("pcg32", &v.pcg32, |r| {
        pcg_record(r.initstate.0, r.initseq.0)
    });
    n += check("stream_derivation", &v.stream_derivation, |r| {
        derivation_record(&r.seed, &r.stream)
    });
    n += check("stream_outputs", &v.stream_outputs, |r| {
        stream_outputs_record(&r.seed, &r.stream)
    });
    n += check("below", &v.below, |r| below_record(&r.seed, &r.stream, r.n));
    n += check("shuffle", &v.shuffle, |r| {
        shuffle_record(&r.seed, &r.stream, r.len)
    });
    n += check("chance_rolls", &v.chance_rolls, |r| {
        chance_roll_record(&r.seed, &r.stream, &r.chance)
    });
    n += check("chance_text", &v.chance_text, |r| {
        chance_text_record(&r.text)
    });
    n += check("fixed_mul", &v.fixed_mul, |r| {
        fixed_mul_record(r.a.raw(), r.b.raw())
    });
    n += check("fixed_div", &v.fixed_div, |r| {
        fixed_div_record(r.a.raw(), r.b.raw())
    });
    n += check("fixed_mul_int", &v.fixed_mul_int, |r| {
        fixed_mul_int_record(r.n, r.f.raw())
    });
    n += check("fixed_add_sub", &v.fixed_add_sub, |r| {
        fixed_add_sub_record(r.a.raw(), r.b.raw())
    });
    n += check("fixed_text", &v.fixed_text, |r| fixed_text_record(&r.text));
    n += check("fixed_json", &v.fixed_json, |r| fixed_json_record(&r.json));
    n += check("canonical_typed", &v.canonical_typed, |r| {
        canonical_typed_record(&r.kind, &r.value)
    });
    n += check("canonical_text", &v.canonical_text, |r| {
        canonical_text_record(&r.input)
    });
    n += check("fingerprints", &v.fingerprints, |r| {
        fingerprint_record(&r.canonical)
    });

    // Cross-checks that do not go through the helpers above: the spec's own rows are in the file.
    let dice = v
        .stream_derivation
        .iter()
        .find(|r| r.seed == "demo-seed" && r.stream == "dice")
        .unwrap();
    assert_eq!(dice.h, Some(H64(0x9ee1c14fc21722a3)));
    assert_eq!(
        dice.outputs.as_ref().unwrap()[..4],
        [
            H32(0xb3235547),
            H32(0x9dd30615),
            H32(0x3bfd7dd1),
            H32(0x61f0fa25)
        ]
    );
    let reference = &v.pcg32[0];
    assert_eq!(reference.outputs[..2], [H32(0xa15c02b7), H32(0x7b47f409)]);
    for r in &v.fingerprints {
        assert_eq!(
            from_json_text(&r.canonical).unwrap(),
            r.canonical.as_bytes(),
            "fingerprinted text is canonical"
        );
    }
    let names: BTreeMap<&str, usize> = v
        .stream_outputs
        .iter()
        .map(|r| (r.stream.as_str(), r.outputs.len()))
        .collect();
    assert_eq!(names.len(), STREAM_NAMES.len());
    assert!(n > 700, "only {n} vectors");
}
