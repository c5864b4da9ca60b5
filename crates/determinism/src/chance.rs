//! Probabilities as fractions: `1/4`, never `0.25`. A roll draws exactly once, always, so
//! a certain or impossible chance consumes the stream like any other.
//!
//! ```
//! use turnstile_determinism::{Chance, Pcg32};
//! let lucky: Chance = "1/4".parse().unwrap();
//! let doubled = lucky.scaled_numerator(2).value; // an effect that doubles all chances
//! assert_eq!(doubled.to_string(), "2/4");
//! let mut rng = Pcg32::new(42, 54);
//! let _hit: bool = doubled.roll(&mut rng); // below(4) < 2
//! ```

use core::fmt;
use core::num::NonZeroU32;
use core::str::FromStr;

use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::fixed::Saturated;
use crate::pcg::Pcg32;

/// A probability `num / den` with `den >= 1`. `num` may exceed `den` (certain) or be `0`
/// (impossible); the roll still draws once.
///
/// JSON: `{"den": 4, "num": 1}` (written so), or the text `"1/4"` (read too).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Chance {
    num: u32,
    den: NonZeroU32,
}

/// Why a chance could not be built or read. Every variant has a stable
/// [`code`](ChanceError::code).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChanceError {
    /// The denominator is zero.
    #[error("the denominator of a chance must be at least 1")]
    ZeroDenominator,
    /// Text not of the form `<num>/<den>` with decimal digits.
    #[error("`{text}` is not a chance: write a fraction like `1/4`")]
    Syntax {
        /// The offending text.
        text: String,
    },
    /// A numerator or denominator above 4294967295.
    #[error("`{text}` is out of range: numerator and denominator are at most 4294967295")]
    OutOfRange {
        /// The offending text.
        text: String,
    },
}

impl ChanceError {
    /// The stable, documented code of this error (`chance.*`).
    pub const fn code(&self) -> &'static str {
        match self {
            ChanceError::ZeroDenominator => "chance.zero_denominator",
            ChanceError::Syntax { .. } => "chance.syntax",
            ChanceError::OutOfRange { .. } => "chance.out_of_range",
        }
    }
}

impl Chance {
    /// `num / den`; `den = 0` is [`ChanceError::ZeroDenominator`].
    pub const fn new(num: u32, den: u32) -> Result<Chance, ChanceError> {
        match NonZeroU32::new(den) {
            Some(den) => Ok(Chance { num, den }),
            None => Err(ChanceError::ZeroDenominator),
        }
    }

    /// The numerator.
    pub const fn num(&self) -> u32 {
        self.num
    }

    /// The denominator (at least 1).
    pub const fn den(&self) -> u32 {
        self.den.get()
    }

    /// Whether every roll succeeds (`num >= den`).
    pub const fn is_certain(&self) -> bool {
        self.num >= self.den.get()
    }

    /// Whether no roll succeeds (`num == 0`).
    pub const fn is_impossible(&self) -> bool {
        self.num == 0
    }

    /// Rolls: `below(den) < num`, drawing exactly one bounded value.
    pub fn roll(&self, rng: &mut Pcg32) -> bool {
        rng.below_nonzero(self.den) < self.num
    }

    /// The numerator multiplied by `k` (`1/4` doubled is `2/4`), saturated at `u32::MAX`.
    pub const fn scaled_numerator(self, k: u32) -> Saturated<Chance> {
        let (num, saturated) = match self.num.checked_mul(k) {
            Some(n) => (n, false),
            None => (u32::MAX, true),
        };
        Saturated {
            value: Chance { num, den: self.den },
            saturated,
        }
    }

    /// The numerator plus `k`, saturated at `u32::MAX`.
    pub const fn plus_numerator(self, k: u32) -> Saturated<Chance> {
        let (num, saturated) = match self.num.checked_add(k) {
            Some(n) => (n, false),
            None => (u32::MAX, true),
        };
        Saturated {
            value: Chance { num, den: self.den },
            saturated,
        }
    }

    /// The same denominator with numerator `num`.
    pub const fn with_numerator(self, num: u32) -> Chance {
        Chance { num, den: self.den }
    }
}

impl fmt::Display for Chance {
    /// `num/den`, like `1/4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}

impl fmt::Debug for Chance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Chance({self})")
    }
}

fn parse_part(part: &str, text: &str) -> Result<u32, ChanceError> {
    if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ChanceError::Syntax { text: text.into() });
    }
    part.parse()
        .map_err(|_| ChanceError::OutOfRange { text: text.into() })
}

impl FromStr for Chance {
    type Err = ChanceError;

    /// Parses `<num>/<den>`: ASCII digits, no sign, no spaces (`"1/4"`).
    fn from_str(text: &str) -> Result<Chance, ChanceError> {
        let (num, den) = text
            .split_once('/')
            .ok_or_else(|| ChanceError::Syntax { text: text.into() })?;
        let num = parse_part(num, text)?;
        let den = parse_part(den, text)?;
        Chance::new(num, den)
    }
}

impl Serialize for Chance {
    /// `{"den": <den>, "num": <num>}`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Chance", 2)?;
        s.serialize_field("den", &self.den.get())?;
        s.serialize_field("num", &self.num)?;
        s.end()
    }
}

impl<'de> Deserialize<'de> for Chance {
    /// Accepts `{"num": 1, "den": 4}` (numbers or decimal strings; no other keys) or `"1/4"`.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Chance, D::Error> {
        deserializer.deserialize_any(ChanceVisitor)
    }
}

struct ChanceVisitor;

fn chance_de_error<E: de::Error>(e: ChanceError) -> E {
    E::custom(format_args!("{}: {}", e.code(), e))
}

/// A `u32` field accepting a number or a decimal string.
struct Part(u32);

impl<'de> Deserialize<'de> for Part {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Part, D::Error> {
        crate::canonical::serde_int::u32::deserialize(deserializer).map(Part)
    }
}

impl<'de> Visitor<'de> for ChanceVisitor {
    type Value = Chance;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a chance: a fraction like \"1/4\" or {\"num\": 1, \"den\": 4}")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Chance, E> {
        v.parse().map_err(chance_de_error)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Chance, A::Error> {
        let mut num = None;
        let mut den = None;
        while let Some(key) = map.next_key::<String>()? {
            let slot = match key.as_str() {
                "num" => &mut num,
                "den" => &mut den,
                other => return Err(de::Error::unknown_field(other, &["num", "den"])),
            };
            if slot.is_some() {
                return Err(de::Error::custom(format_args!("duplicate field `{key}`")));
            }
            *slot = Some(map.next_value::<Part>()?.0);
        }
        let num = num.ok_or_else(|| de::Error::missing_field("num"))?;
        let den = den.ok_or_else(|| de::Error::missing_field("den"))?;
        Chance::new(num, den).map_err(chance_de_error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roll_draws_once_always() {
        for (num, den) in [(0, 4), (4, 4), (9, 4), (1, 1), (0, 1), (1, 4)] {
            let c = Chance::new(num, den).unwrap();
            let mut a = Pcg32::new(5, 6);
            let mut b = a.clone();
            let hit = c.roll(&mut a);
            let draw = b.below(den).unwrap();
            assert_eq!(hit, draw < num);
            assert_eq!(a, b, "{c}: exactly one bounded draw");
            if c.is_certain() {
                assert!(hit);
            }
            if c.is_impossible() {
                assert!(!hit);
            }
        }
    }

    #[test]
    fn modifiers_act_on_numerator() {
        let c: Chance = "1/4".parse().unwrap();
        assert_eq!(c.scaled_numerator(2).value.to_string(), "2/4");
        assert_eq!(c.scaled_numerator(3).value.to_string(), "3/4");
        assert_eq!(c.plus_numerator(1).value.to_string(), "2/4");
        let big = Chance::new(u32::MAX / 2 + 1, 4).unwrap();
        assert_eq!(
            big.scaled_numerator(2),
            Saturated {
                value: Chance::new(u32::MAX, 4).unwrap(),
                saturated: true
            }
        );
        assert!(c.with_numerator(u32::MAX).plus_numerator(1).saturated);
    }

    #[test]
    fn parse() {
        assert_eq!("3/7".parse::<Chance>().unwrap(), Chance::new(3, 7).unwrap());
        for (text, code) in [
            ("1/0", "chance.zero_denominator"),
            ("0.25", "chance.syntax"),
            (" 1/4", "chance.syntax"),
            ("1/ 4", "chance.syntax"),
            ("-1/4", "chance.syntax"),
            ("+1/4", "chance.syntax"),
            ("1/4/5", "chance.syntax"),
            ("/4", "chance.syntax"),
            ("1/", "chance.syntax"),
            ("4294967296/5", "chance.out_of_range"),
        ] {
            assert_eq!(text.parse::<Chance>().unwrap_err().code(), code, "{text:?}");
        }
        assert_eq!(Chance::new(1, 0), Err(ChanceError::ZeroDenominator));
    }
}
