//! Integers by the canonical rule, for `#[serde(with = "...")]`: serialized as a JSON
//! number when the magnitude is at most 2^53 − 1 and as a string of decimal digits beyond
//! that; deserialized from either form.
//!
//! Accepted strings are `-?(0|[1-9][0-9]*)` (no `+`, no spaces, no leading zeros);
//! floats are rejected.
//!
//! ```
//! use serde::{Deserialize, Serialize};
//! #[derive(Serialize, Deserialize)]
//! struct Score {
//!     #[serde(with = "turnstile_determinism::canonical::serde_int::i64")]
//!     chips: i64,
//! }
//! let text = turnstile_determinism::canonical::to_canonical_string(&Score { chips: i64::MAX }).unwrap();
//! assert_eq!(text, r#"{"chips":"9223372036854775807"}"#);
//! ```
//!
//! `i64` and `u64` values written through these modules look the same in any serde
//! format; the canonical writer applies the same rule to every integer anyway.

use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, Visitor};
use serde::{Deserializer, Serializer};

use super::MAX_SAFE_INTEGER;

/// The integer types these modules serve.
trait Int: Copy + Into<i128> + TryFrom<i128> + fmt::Display {
    const NAME: &'static str;
}

impl Int for ::core::primitive::i64 {
    const NAME: &'static str = "i64";
}
impl Int for ::core::primitive::u64 {
    const NAME: &'static str = "u64";
}
impl Int for ::core::primitive::i32 {
    const NAME: &'static str = "i32";
}
impl Int for ::core::primitive::u32 {
    const NAME: &'static str = "u32";
}

fn serialize_int<T: Int, S: Serializer>(value: T, serializer: S) -> Result<S::Ok, S::Error> {
    let wide: i128 = value.into();
    match ::core::primitive::i64::try_from(wide) {
        Ok(small) if wide.unsigned_abs() <= u128::from(MAX_SAFE_INTEGER) => {
            serializer.serialize_i64(small)
        }
        _ => serializer.collect_str(&value),
    }
}

/// Parses `-?(0|[1-9][0-9]*)` exactly.
fn parse_decimal(text: &str) -> Option<i128> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let valid = match digits.as_bytes() {
        [] => false,
        [b'0'] => true,
        [b'0', ..] => false,
        d => d.iter().all(u8::is_ascii_digit),
    };
    if !valid {
        return None;
    }
    let mut v: i128 = 0;
    for b in digits.bytes() {
        let d = i128::from(b - b'0');
        v = v
            .checked_mul(10)?
            .checked_add(if negative { -d } else { d })?;
    }
    Some(v)
}

struct IntVisitor<T>(PhantomData<T>);

impl<T: Int> IntVisitor<T> {
    fn fit<E: de::Error>(v: i128) -> Result<T, E> {
        T::try_from(v)
            .map_err(|_| E::custom(format_args!("integer {v} is out of range for {}", T::NAME)))
    }
}

impl<T: Int> Visitor<'_> for IntVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "an integer ({}) as a JSON number or a string of decimal digits",
            T::NAME
        )
    }

    fn visit_i64<E: de::Error>(self, v: ::core::primitive::i64) -> Result<T, E> {
        Self::fit(i128::from(v))
    }

    fn visit_u64<E: de::Error>(self, v: ::core::primitive::u64) -> Result<T, E> {
        Self::fit(i128::from(v))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<T, E> {
        Self::fit(v)
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<T, E> {
        match i128::try_from(v) {
            Ok(v) => Self::fit(v),
            Err(_) => Err(E::custom(format_args!(
                "integer {v} is out of range for {}",
                T::NAME
            ))),
        }
    }

    fn visit_f64<E: de::Error>(self, _v: f64) -> Result<T, E> {
        Err(E::custom(format_args!(
            "canonical.float: a float is not accepted where an integer ({}) is expected",
            T::NAME
        )))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        match parse_decimal(v) {
            Some(n) => Self::fit(n),
            None => Err(E::custom(format_args!(
                "{v:?} is not a decimal integer ({})",
                T::NAME
            ))),
        }
    }
}

fn deserialize_int<'de, T: Int, D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
    deserializer.deserialize_any(IntVisitor(PhantomData))
}

macro_rules! int_module {
    ($name:ident) => {
        #[doc = concat!("`", stringify!($name), "` by the canonical integer rule (see the [module docs](super)).")]
        pub mod $name {
            use serde::{Deserializer, Serializer};

            #[doc = concat!("Serializes an `", stringify!($name), "`: a number up to 2^53 − 1 in magnitude, else a decimal string.")]
            pub fn serialize<S: Serializer>(value: &$name, serializer: S) -> Result<S::Ok, S::Error> {
                super::serialize_int(*value, serializer)
            }

            #[doc = concat!("Deserializes an `", stringify!($name), "` from a JSON number or a decimal string.")]
            pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<$name, D::Error> {
                super::deserialize_int(deserializer)
            }
        }
    };
}

int_module!(i64);
int_module!(u64);
int_module!(i32);
int_module!(u32);

#[cfg(test)]
mod tests {
    use super::parse_decimal;

    #[test]
    fn decimal_grammar() {
        assert_eq!(parse_decimal("0"), Some(0));
        assert_eq!(parse_decimal("-0"), Some(0));
        assert_eq!(
            parse_decimal("-9223372036854775808"),
            Some(-9223372036854775808)
        );
        assert_eq!(
            parse_decimal("170141183460469231731687303715884105727"),
            Some(i128::MAX)
        );
        assert_eq!(
            parse_decimal("-170141183460469231731687303715884105728"),
            Some(i128::MIN)
        );
        assert_eq!(
            parse_decimal("170141183460469231731687303715884105728"),
            None
        );
        for bad in ["", "-", "+1", "01", "1.0", " 1", "1e3", "0x10", "--1"] {
            assert_eq!(parse_decimal(bad), None, "{bad:?}");
        }
    }
}
