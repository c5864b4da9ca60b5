//! Fixed-point numbers in ten-thousandths: exact integer arithmetic for multipliers and
//! ratios, rounding toward negative infinity, saturation reported instead of hidden.
//!
//! A [`Fixed`] is an `i64` count of ten-thousandths: ×1.5 is `Fixed::from_raw(15000)`,
//! +0.25 is `2500`, 1 is [`Fixed::ONE`].
//!
//! | operation | result |
//! |---|---|
//! | `a + b`, `a - b` | exact; saturates to `i64::MIN..=i64::MAX` on overflow |
//! | [`Fixed::mul`] | `floor(a * b / 10000)` in `i128`, saturated, with a flag |
//! | [`Fixed::div`] | `floor(a * 10000 / b)` in `i128`, saturated, with a flag; `b = 0` is an error |
//! | [`mul_int`] | `floor(n * f / 10000)` for an integer quantity `n`, saturated, with a flag |
//!
//! ```
//! use turnstile_determinism::Fixed;
//! let a: Fixed = "1.5".parse().unwrap();
//! let b: Fixed = "-0.3333".parse().unwrap();
//! // -0.49995 floors to -0.5, never toward zero:
//! assert_eq!(a.mul(b).value.to_string(), "-0.5");
//! assert_eq!(a.raw(), 15000);
//! ```
//!
//! Text form (content files, [`core::str::FromStr`], [`core::fmt::Display`]): an optional
//! leading `-`, one or more ASCII digits, and optionally `.` followed by one to four digits.
//! No `+`, no whitespace, no exponent, no `NaN`/`inf`; leading zeros are allowed
//! (`"007.5"` is 7.5). Display prints the shortest exact decimal (`"1.5"`, `"-0.0001"`, `"2"`).
//!
//! JSON form: see the [`Serialize`] and [`Deserialize`] impls on [`Fixed`].

use core::fmt;
use core::ops::{Add, AddAssign, Neg, Sub, SubAssign};
use core::str::FromStr;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::canonical::MAX_SAFE_INTEGER;

/// A fixed-point number: an `i64` count of ten-thousandths.
///
/// The derived ordering and equality are those of the raw count, which are those of the
/// numbers it stands for.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Fixed(i64);

/// A result together with whether it was clamped to the limits of its type.
///
/// A saturation is reported (in the receipt, for score-like products), never hidden, so
/// every operation that can saturate without being a plain `+`/`-` returns one of these.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Saturated<T> {
    /// The result, clamped to the type's range when `saturated` is true.
    pub value: T,
    /// True when the exact result lay outside the type's range.
    pub saturated: bool,
}

impl<T> Saturated<T> {
    /// An exact (unsaturated) result.
    pub const fn exact(value: T) -> Saturated<T> {
        Saturated {
            value,
            saturated: false,
        }
    }
}

/// Why a `Fixed` could not be parsed or computed. Every variant has a stable [`code`].
///
/// [`code`]: FixedError::code
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FixedError {
    /// The text was empty.
    #[error("empty text is not a fixed-point number")]
    Empty,
    /// The text is not of the form `-?[0-9]+(\.[0-9]{1,4})?`.
    #[error(
        "`{text}` is not a decimal number: expected digits with an optional leading `-` \
         and at most four fractional digits, like `-1.5`"
    )]
    Syntax {
        /// The offending text.
        text: String,
    },
    /// The text has more than four fractional digits.
    #[error("`{text}` has more than four fractional digits")]
    TooManyDecimals {
        /// The offending text.
        text: String,
    },
    /// The text uses an exponent (`1e3`).
    #[error("`{text}` uses an exponent: write the decimal digits out")]
    Exponent {
        /// The offending text.
        text: String,
    },
    /// The text is `NaN` or an infinity.
    #[error("`{text}` is not a number")]
    NotANumber {
        /// The offending text.
        text: String,
    },
    /// The value lies outside -922337203685477.5808 ..= 922337203685477.5807.
    #[error(
        "`{text}` is out of range for a fixed-point number \
         (-922337203685477.5808 to 922337203685477.5807)"
    )]
    Overflow {
        /// The offending text.
        text: String,
    },
    /// A division by zero.
    #[error("division by zero")]
    DivisionByZero,
    /// A JSON float where a `Fixed` was expected.
    #[error(
        "a JSON float is not accepted for a fixed-point number: write decimal text like \"1.5\" \
         or an integer count of ten-thousandths like 15000"
    )]
    Float,
}

impl FixedError {
    /// The stable, documented code of this error (`fixed.*`).
    pub const fn code(&self) -> &'static str {
        match self {
            FixedError::Empty => "fixed.empty",
            FixedError::Syntax { .. } => "fixed.syntax",
            FixedError::TooManyDecimals { .. } => "fixed.too_many_decimals",
            FixedError::Exponent { .. } => "fixed.exponent",
            FixedError::NotANumber { .. } => "fixed.not_a_number",
            FixedError::Overflow { .. } => "fixed.overflow",
            FixedError::DivisionByZero => "fixed.division_by_zero",
            FixedError::Float => "fixed.float",
        }
    }
}

/// Floor division of `a` by `b`: the greatest `q` with `q * b <= a` for `b > 0` (and
/// `q * b >= a` for `b < 0`), rounding toward negative infinity for every sign combination.
///
/// Returns `None` when `b == 0` or when the quotient overflows (`i128::MIN / -1`).
///
/// (`i128::div_euclid` floors only for a positive divisor; `div_floor` is unstable.)
///
/// ```
/// use turnstile_determinism::fixed::floor_div_i128;
/// assert_eq!(floor_div_i128(7, 2), Some(3));
/// assert_eq!(floor_div_i128(7, -2), Some(-4));
/// assert_eq!(floor_div_i128(-7, 2), Some(-4));
/// assert_eq!(floor_div_i128(-7, -2), Some(3));
/// assert_eq!(floor_div_i128(1, 0), None);
/// ```
pub const fn floor_div_i128(a: i128, b: i128) -> Option<i128> {
    if b == 0 || (a == i128::MIN && b == -1) {
        return None;
    }
    let q = a / b;
    let r = a % b;
    // Truncation rounded toward zero; step down when the true quotient was negative
    // and inexact (remainder and divisor of opposite signs).
    if r != 0 && ((r < 0) != (b < 0)) {
        Some(q - 1)
    } else {
        Some(q)
    }
}

/// Clamps an `i128` to `i64`, reporting whether it had to.
const fn saturate_i128(v: i128) -> Saturated<i64> {
    if v > i64::MAX as i128 {
        Saturated {
            value: i64::MAX,
            saturated: true,
        }
    } else if v < i64::MIN as i128 {
        Saturated {
            value: i64::MIN,
            saturated: true,
        }
    } else {
        Saturated::exact(v as i64)
    }
}

/// An integer quantity times a `Fixed`: `floor(n * f.raw() / 10000)` computed in `i128`,
/// saturated to `i64` with the saturation reported.
///
/// Integer quantities (chips, money, hit points) stay integers; this is how a score-like
/// product of one and a multiplier is formed.
///
/// ```
/// use turnstile_determinism::{fixed::mul_int, Fixed};
/// assert_eq!(mul_int(7, Fixed::from_raw(15000)).value, 10); // floor(10.5)
/// assert_eq!(mul_int(-7, Fixed::from_raw(15000)).value, -11); // floor(-10.5)
/// assert!(mul_int(i64::MAX, Fixed::from_int(2)).saturated);
/// ```
pub const fn mul_int(n: i64, f: Fixed) -> Saturated<i64> {
    let product = (n as i128) * (f.0 as i128);
    match floor_div_i128(product, Fixed::SCALE as i128) {
        Some(q) => saturate_i128(q),
        // Unreachable: the divisor is a non-zero constant other than -1.
        None => Saturated::exact(0),
    }
}

impl Fixed {
    /// Ten-thousandths per unit.
    pub const SCALE: i64 = 10_000;
    /// 0.
    pub const ZERO: Fixed = Fixed(0);
    /// 1 (raw 10000).
    pub const ONE: Fixed = Fixed(Fixed::SCALE);
    /// The smallest value, -922337203685477.5808.
    pub const MIN: Fixed = Fixed(i64::MIN);
    /// The largest value, 922337203685477.5807.
    pub const MAX: Fixed = Fixed(i64::MAX);

    /// The value whose count of ten-thousandths is `raw` (`from_raw(15000)` is 1.5).
    pub const fn from_raw(raw: i64) -> Fixed {
        Fixed(raw)
    }

    /// The count of ten-thousandths.
    pub const fn raw(self) -> i64 {
        self.0
    }

    /// The integer `n`, saturated when `|n|` exceeds 922337203685477.
    pub const fn from_int(n: i64) -> Fixed {
        Fixed(n.saturating_mul(Fixed::SCALE))
    }

    /// The integer `n`, or `None` when it does not fit.
    pub const fn checked_from_int(n: i64) -> Option<Fixed> {
        match n.checked_mul(Fixed::SCALE) {
            Some(raw) => Some(Fixed(raw)),
            None => None,
        }
    }

    /// The greatest integer not above this value (`-0.5` gives `-1`).
    pub const fn floor_int(self) -> i64 {
        self.0.div_euclid(Fixed::SCALE)
    }

    /// `self + rhs`, saturated (what `+` does).
    pub const fn saturating_add(self, rhs: Fixed) -> Fixed {
        Fixed(self.0.saturating_add(rhs.0))
    }

    /// `self - rhs`, saturated (what `-` does).
    pub const fn saturating_sub(self, rhs: Fixed) -> Fixed {
        Fixed(self.0.saturating_sub(rhs.0))
    }

    /// `self + rhs`, or `None` on overflow.
    pub const fn checked_add(self, rhs: Fixed) -> Option<Fixed> {
        match self.0.checked_add(rhs.0) {
            Some(raw) => Some(Fixed(raw)),
            None => None,
        }
    }

    /// `self - rhs`, or `None` on overflow.
    pub const fn checked_sub(self, rhs: Fixed) -> Option<Fixed> {
        match self.0.checked_sub(rhs.0) {
            Some(raw) => Some(Fixed(raw)),
            None => None,
        }
    }

    /// `-self`, saturated (`-MIN` is `MAX`).
    pub const fn saturating_neg(self) -> Fixed {
        Fixed(self.0.saturating_neg())
    }

    /// `floor(self * rhs / 10000)` in `i128`, saturated to `i64`, reporting saturation.
    ///
    /// Not the `Mul` operator on purpose: a product can saturate, and that must be seen.
    #[allow(clippy::should_implement_trait)]
    pub const fn mul(self, rhs: Fixed) -> Saturated<Fixed> {
        let product = (self.0 as i128) * (rhs.0 as i128);
        let q = match floor_div_i128(product, Fixed::SCALE as i128) {
            Some(q) => q,
            None => 0, // unreachable: constant non-zero divisor
        };
        let s = saturate_i128(q);
        Saturated {
            value: Fixed(s.value),
            saturated: s.saturated,
        }
    }

    /// [`Fixed::mul`] without the flag.
    pub const fn saturating_mul(self, rhs: Fixed) -> Fixed {
        self.mul(rhs).value
    }

    /// `floor(self * 10000 / rhs)` in `i128`, saturated to `i64`, reporting saturation;
    /// dividing by zero is [`FixedError::DivisionByZero`].
    ///
    /// Not the `Div` operator on purpose: it can fail and saturate.
    #[allow(clippy::should_implement_trait)]
    pub const fn div(self, rhs: Fixed) -> Result<Saturated<Fixed>, FixedError> {
        if rhs.0 == 0 {
            return Err(FixedError::DivisionByZero);
        }
        let numerator = (self.0 as i128) * (Fixed::SCALE as i128);
        let q = match floor_div_i128(numerator, rhs.0 as i128) {
            Some(q) => q,
            None => 0, // unreachable: rhs != 0 and numerator != i128::MIN
        };
        let s = saturate_i128(q);
        Ok(Saturated {
            value: Fixed(s.value),
            saturated: s.saturated,
        })
    }

    /// [`Fixed::div`] without the flag (the quotient saturates on overflow);
    /// dividing by zero is [`FixedError::DivisionByZero`].
    pub fn checked_div(self, rhs: Fixed) -> Result<Fixed, FixedError> {
        self.div(rhs).map(|s| s.value)
    }

    /// Parses a JSON string value: decimal text, except that a plain integer (no `.`)
    /// whose magnitude exceeds 2^53 − 1 is a raw count of ten-thousandths — the form the
    /// canonical writer uses for such raw counts. (No decimal text of that magnitude can
    /// be a valid `Fixed`, so the two readings never compete.)
    pub fn from_json_string(text: &str) -> Result<Fixed, FixedError> {
        let digits = text.strip_prefix('-').unwrap_or(text);
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            let significant = digits.trim_start_matches('0');
            // More than 16 significant digits is certainly beyond 2^53 - 1.
            let big = significant.len() > 16
                || significant
                    .parse::<u64>()
                    .is_ok_and(|m| m > MAX_SAFE_INTEGER);
            if big {
                return text
                    .parse::<i64>()
                    .map(Fixed)
                    .map_err(|_| FixedError::Overflow { text: text.into() });
            }
        }
        text.parse()
    }
}

impl Add for Fixed {
    type Output = Fixed;
    /// Saturating addition.
    fn add(self, rhs: Fixed) -> Fixed {
        self.saturating_add(rhs)
    }
}

impl Sub for Fixed {
    type Output = Fixed;
    /// Saturating subtraction.
    fn sub(self, rhs: Fixed) -> Fixed {
        self.saturating_sub(rhs)
    }
}

impl AddAssign for Fixed {
    fn add_assign(&mut self, rhs: Fixed) {
        *self = self.saturating_add(rhs);
    }
}

impl SubAssign for Fixed {
    fn sub_assign(&mut self, rhs: Fixed) {
        *self = self.saturating_sub(rhs);
    }
}

impl Neg for Fixed {
    type Output = Fixed;
    /// Saturating negation.
    fn neg(self) -> Fixed {
        self.saturating_neg()
    }
}

impl fmt::Display for Fixed {
    /// The shortest exact decimal: `1.5`, `-0.0001`, `2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let magnitude = self.0.unsigned_abs();
        let scale = Fixed::SCALE.unsigned_abs();
        let int = magnitude / scale;
        let mut frac = magnitude % scale;
        if self.0 < 0 {
            f.write_str("-")?;
        }
        write!(f, "{int}")?;
        if frac != 0 {
            let mut width = 4;
            while frac % 10 == 0 {
                frac /= 10;
                width -= 1;
            }
            write!(f, ".{frac:0width$}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Fixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fixed({self})")
    }
}

/// Whether `text` (without sign) is a syntactically valid decimal, ignoring how many
/// fractional digits it has.
fn is_decimal_shape(text: &str) -> bool {
    let (int, frac) = match text.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (text, None),
    };
    !int.is_empty()
        && int.bytes().all(|b| b.is_ascii_digit())
        && frac.is_none_or(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()))
}

fn is_not_a_number(text: &str) -> bool {
    let t = text
        .strip_prefix('-')
        .or_else(|| text.strip_prefix('+'))
        .unwrap_or(text);
    ["nan", "inf", "infinity"]
        .iter()
        .any(|w| t.eq_ignore_ascii_case(w))
}

impl FromStr for Fixed {
    type Err = FixedError;

    /// Parses decimal text with at most four fractional digits (`"1.5"`, `"0.0001"`, `"-2"`).
    fn from_str(text: &str) -> Result<Fixed, FixedError> {
        if text.is_empty() {
            return Err(FixedError::Empty);
        }
        if is_not_a_number(text) {
            return Err(FixedError::NotANumber { text: text.into() });
        }
        let (negative, body) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        if let Some(e) = body.find(['e', 'E']) {
            let mantissa = &body[..e];
            let exponent = &body[e + 1..];
            let exponent = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
            if is_decimal_shape(mantissa)
                && !exponent.is_empty()
                && exponent.bytes().all(|b| b.is_ascii_digit())
            {
                return Err(FixedError::Exponent { text: text.into() });
            }
            return Err(FixedError::Syntax { text: text.into() });
        }
        if !is_decimal_shape(body) {
            return Err(FixedError::Syntax { text: text.into() });
        }
        let (int, frac) = body.split_once('.').unwrap_or((body, ""));
        if frac.len() > 4 {
            return Err(FixedError::TooManyDecimals { text: text.into() });
        }
        let overflow = || FixedError::Overflow { text: text.into() };
        // Magnitude in ten-thousandths; bail out as soon as it passes 2^63.
        let limit: u128 = 1 << 63;
        let mut int_value: u128 = 0;
        for b in int.bytes() {
            int_value = int_value * 10 + u128::from(b - b'0');
            if int_value > limit {
                return Err(overflow());
            }
        }
        let mut frac_value: u128 = 0;
        for i in 0..4 {
            let digit = frac.as_bytes().get(i).map_or(0, |b| b - b'0');
            frac_value = frac_value * 10 + u128::from(digit);
        }
        let magnitude = int_value * 10_000 + frac_value;
        let signed = if negative {
            -i128::try_from(magnitude).map_err(|_| overflow())?
        } else {
            i128::try_from(magnitude).map_err(|_| overflow())?
        };
        i64::try_from(signed).map(Fixed).map_err(|_| overflow())
    }
}

impl Serialize for Fixed {
    /// The integer count of ten-thousandths, by the canonical integer rule: a JSON number
    /// when its magnitude is at most 2^53 − 1, else a JSON string of its decimal digits.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        crate::canonical::serde_int::i64::serialize(&self.0, serializer)
    }
}

impl<'de> Deserialize<'de> for Fixed {
    /// Accepts a JSON integer (a raw count of ten-thousandths: `15000` is 1.5) or a JSON
    /// string, read by [`Fixed::from_json_string`] (`"1.5"` is 1.5; `"9007199254740993"`,
    /// beyond 2^53 − 1, is a raw count). JSON floats (`1.5`, `1e4`) are rejected.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Fixed, D::Error> {
        deserializer.deserialize_any(FixedVisitor)
    }
}

struct FixedVisitor;

fn fixed_de_error<E: de::Error>(e: FixedError) -> E {
    E::custom(format_args!("{}: {}", e.code(), e))
}

impl Visitor<'_> for FixedVisitor {
    type Value = Fixed;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a fixed-point number: decimal text like \"1.5\" or an integer count of ten-thousandths like 15000")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Fixed, E> {
        Ok(Fixed(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Fixed, E> {
        i64::try_from(v).map(Fixed).map_err(|_| {
            fixed_de_error(FixedError::Overflow {
                text: v.to_string(),
            })
        })
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Fixed, E> {
        i64::try_from(v).map(Fixed).map_err(|_| {
            fixed_de_error(FixedError::Overflow {
                text: v.to_string(),
            })
        })
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Fixed, E> {
        i64::try_from(v).map(Fixed).map_err(|_| {
            fixed_de_error(FixedError::Overflow {
                text: v.to_string(),
            })
        })
    }

    fn visit_f64<E: de::Error>(self, _v: f64) -> Result<Fixed, E> {
        Err(fixed_de_error(FixedError::Float))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Fixed, E> {
        Fixed::from_json_string(v).map_err(fixed_de_error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fx(text: &str) -> Fixed {
        text.parse().unwrap()
    }

    #[test]
    fn spec_examples() {
        assert_eq!(fx("1.5").raw(), 15000);
        assert_eq!(fx("0.25").raw(), 2500);
        assert_eq!(Fixed::ONE.raw(), 10000);
        // floor(-1 * 5000 / 10000) = -1
        assert_eq!(
            Fixed::from_raw(-1).mul(Fixed::from_raw(5000)).value.raw(),
            -1
        );
        assert_eq!(floor_div_i128(7, -2), Some(-4));
    }

    #[test]
    fn mul_all_sign_combinations_floor() {
        let cases = [
            (15000, 3333, 4999),   // 0.49995 -> 0.4999
            (-15000, 3333, -5000), // -0.49995 -> -0.5
            (15000, -3333, -5000), // -0.49995 -> -0.5
            (-15000, -3333, 4999), // 0.49995 -> 0.4999
            (1, 1, 0),             // 0.00000001 -> 0
            (-1, 1, -1),           // -0.00000001 -> -0.0001
            (1, -1, -1),
            (-1, -1, 0),
            (20000, 20000, 40000), // exact
            (-20000, 20000, -40000),
        ];
        for (a, b, want) in cases {
            let got = Fixed::from_raw(a).mul(Fixed::from_raw(b));
            assert_eq!(got, Saturated::exact(Fixed::from_raw(want)), "{a} * {b}");
        }
    }

    #[test]
    fn div_all_sign_combinations_floor() {
        let cases = [
            (10000, 30000, 3333),   // 1/3
            (-10000, 30000, -3334), // -1/3 floors down
            (10000, -30000, -3334),
            (-10000, -30000, 3333),
            (7, -20000, -4),         // 0.0007 / -2 = -0.00035 -> -0.0004
            (70000, -20000, -35000), // exact
            (0, -5, 0),
        ];
        for (a, b, want) in cases {
            let got = Fixed::from_raw(a).div(Fixed::from_raw(b)).unwrap();
            assert_eq!(got, Saturated::exact(Fixed::from_raw(want)), "{a} / {b}");
        }
        assert_eq!(Fixed::ONE.div(Fixed::ZERO), Err(FixedError::DivisionByZero));
        assert_eq!(
            Fixed::ONE.checked_div(Fixed::ZERO).unwrap_err().code(),
            "fixed.division_by_zero"
        );
    }

    #[test]
    fn saturation_both_ends() {
        assert_eq!(Fixed::MAX + Fixed::ONE, Fixed::MAX);
        assert_eq!(Fixed::MIN - Fixed::ONE, Fixed::MIN);
        assert_eq!(Fixed::MIN + Fixed::from_raw(-1), Fixed::MIN);
        assert_eq!(-Fixed::MIN, Fixed::MAX);
        assert_eq!(Fixed::MAX.checked_add(Fixed::from_raw(1)), None);
        let m = Fixed::MAX.mul(Fixed::from_int(2));
        assert_eq!(
            m,
            Saturated {
                value: Fixed::MAX,
                saturated: true
            }
        );
        let m = Fixed::MAX.mul(Fixed::from_int(-2));
        assert_eq!(
            m,
            Saturated {
                value: Fixed::MIN,
                saturated: true
            }
        );
        let m = Fixed::MIN.mul(Fixed::MIN);
        assert_eq!(
            m,
            Saturated {
                value: Fixed::MAX,
                saturated: true
            }
        );
        let d = Fixed::MAX.div(Fixed::from_raw(1)).unwrap();
        assert_eq!(
            d,
            Saturated {
                value: Fixed::MAX,
                saturated: true
            }
        );
        let d = Fixed::MIN.div(Fixed::from_raw(1)).unwrap();
        assert_eq!(
            d,
            Saturated {
                value: Fixed::MIN,
                saturated: true
            }
        );
        let d = Fixed::MIN.div(Fixed::from_raw(-10000)).unwrap();
        assert_eq!(
            d,
            Saturated {
                value: Fixed::MAX,
                saturated: true
            }
        );
        // MAX * 1 is exact, MIN * 1 too.
        assert_eq!(Fixed::MAX.mul(Fixed::ONE), Saturated::exact(Fixed::MAX));
        assert_eq!(Fixed::MIN.mul(Fixed::ONE), Saturated::exact(Fixed::MIN));
        assert_eq!(Fixed::from_int(i64::MAX), Fixed::MAX);
        assert_eq!(Fixed::checked_from_int(i64::MAX), None);
        assert_eq!(
            mul_int(i64::MIN, Fixed::from_int(2)),
            Saturated {
                value: i64::MIN,
                saturated: true
            }
        );
        assert_eq!(mul_int(i64::MIN, Fixed::ONE), Saturated::exact(i64::MIN));
    }

    #[test]
    fn display_shortest() {
        for (raw, text) in [
            (15000, "1.5"),
            (-1, "-0.0001"),
            (20000, "2"),
            (0, "0"),
            (-5000, "-0.5"),
            (1230, "0.123"),
            (i64::MAX, "922337203685477.5807"),
            (i64::MIN, "-922337203685477.5808"),
        ] {
            assert_eq!(Fixed::from_raw(raw).to_string(), text);
            assert_eq!(fx(text).raw(), raw);
        }
        assert_eq!(format!("{:?}", Fixed::from_raw(15000)), "Fixed(1.5)");
    }

    #[test]
    fn parse_errors_have_codes() {
        for (text, code) in [
            ("", "fixed.empty"),
            ("1.23456", "fixed.too_many_decimals"),
            ("1e5", "fixed.exponent"),
            ("-2.5E-3", "fixed.exponent"),
            ("NaN", "fixed.not_a_number"),
            ("-inf", "fixed.not_a_number"),
            ("+1", "fixed.syntax"),
            ("1.", "fixed.syntax"),
            (".5", "fixed.syntax"),
            (" 1", "fixed.syntax"),
            ("1,5", "fixed.syntax"),
            ("--1", "fixed.syntax"),
            ("-", "fixed.syntax"),
            ("e5", "fixed.syntax"),
            ("922337203685477.5808", "fixed.overflow"),
            ("-922337203685477.5809", "fixed.overflow"),
            (
                "99999999999999999999999999999999999999999",
                "fixed.overflow",
            ),
        ] {
            assert_eq!(text.parse::<Fixed>().unwrap_err().code(), code, "{text:?}");
        }
    }

    #[test]
    fn json_string_reading() {
        assert_eq!(Fixed::from_json_string("2").unwrap().raw(), 20000);
        assert_eq!(
            Fixed::from_json_string("9007199254740991")
                .unwrap_err()
                .code(),
            "fixed.overflow"
        );
        assert_eq!(
            Fixed::from_json_string("9007199254740992").unwrap().raw(),
            9007199254740992
        );
        assert_eq!(
            Fixed::from_json_string("-9007199254740992").unwrap().raw(),
            -9007199254740992
        );
        assert_eq!(
            Fixed::from_json_string("-9223372036854775808").unwrap(),
            Fixed::MIN
        );
        assert_eq!(
            Fixed::from_json_string("9223372036854775808")
                .unwrap_err()
                .code(),
            "fixed.overflow"
        );
        assert_eq!(Fixed::from_json_string("-0.5").unwrap().raw(), -5000);
    }
}
