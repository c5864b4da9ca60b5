//! Typing one cell's text by the shape of its target — the only place where sheet text
//! becomes JSON values. The rules are docs/sheets.md's "Typing cells"; no float is ever
//! produced or accepted.

use serde_json::{Number, Value};
use turnstile_core::determinism::{Chance, Fixed, FixedError};

use crate::error::{Names, SheetError};
use crate::shape::{IntRange, Shape, ShapeId, Shapes};

/// Whether `text` is `-?[0-9]+`.
pub(crate) fn is_integer_text(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Whether `text` looks like a number that is not an integer or a `Fixed` text: an exponent,
/// a sign `+`, a point without digits on one side, `NaN`, an infinity, or digits with a
/// point anywhere (the caller has already tried the exact forms).
pub(crate) fn looks_like_float(text: &str) -> bool {
    let unsigned = text
        .strip_prefix('-')
        .or_else(|| text.strip_prefix('+'))
        .unwrap_or(text);
    let lower = unsigned.to_ascii_lowercase();
    if matches!(lower.as_str(), "nan" | "inf" | "infinity") {
        return true;
    }
    let (mantissa, exponent) = match lower.split_once('e') {
        Some((m, e)) => (m, Some(e)),
        None => (lower.as_str(), None),
    };
    let mantissa_ok = {
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        digits(whole) && digits(fraction) && !(whole.is_empty() && fraction.is_empty())
    };
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e
            .strip_prefix('-')
            .or_else(|| e.strip_prefix('+'))
            .unwrap_or(e);
        !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit())
    });
    mantissa_ok && exponent_ok
}

fn range_words(range: IntRange) -> String {
    format!("it must be from {} to {}", range.min, range.max)
}

/// An integer cell in `range`.
pub(crate) fn integer(text: &str, range: IntRange) -> Result<Value, SheetError> {
    if !is_integer_text(text) {
        return Err(if looks_like_float(text) {
            SheetError::FloatRejected { text: text.into() }
        } else {
            SheetError::BadInteger { text: text.into() }
        });
    }
    let out_of_range = || SheetError::OutOfRange {
        text: text.into(),
        range: range_words(range),
    };
    // 40 digits exceed every i128; refuse before parsing.
    if text.len() > 40 {
        return Err(out_of_range());
    }
    let value: i128 = text.parse().map_err(|_| out_of_range())?;
    if value < range.min || value > range.max {
        return Err(out_of_range());
    }
    if let Ok(v) = i64::try_from(value) {
        Ok(Value::Number(Number::from(v)))
    } else if let Ok(v) = u64::try_from(value) {
        Ok(Value::Number(Number::from(v)))
    } else {
        Err(out_of_range())
    }
}

/// A `Fixed` cell: checked with the determinism kit's own parser and passed on as its
/// decimal text, which is how a `Fixed` reads text (`"2"` is 2, never 0.0002).
pub(crate) fn fixed(text: &str) -> Result<Value, SheetError> {
    match text.parse::<Fixed>() {
        Ok(_) => Ok(Value::String(text.to_owned())),
        Err(FixedError::TooManyDecimals { .. })
        | Err(FixedError::Exponent { .. })
        | Err(FixedError::NotANumber { .. }) => {
            Err(SheetError::FloatRejected { text: text.into() })
        }
        Err(FixedError::Overflow { .. }) => Err(SheetError::OutOfRange {
            text: text.into(),
            range: "a fixed-point number is at most 922337203685477.5807 in size".into(),
        }),
        Err(_) => Err(if looks_like_float(text) {
            SheetError::FloatRejected { text: text.into() }
        } else {
            SheetError::BadFixed {
                text: text.into(),
                hint: String::new(),
            }
        }),
    }
}

/// A `Chance` cell: checked with the determinism kit's parser (`1/4`, the denominator at
/// least 1) and passed on as its text.
pub(crate) fn chance(text: &str) -> Result<Value, SheetError> {
    match text.parse::<Chance>() {
        Ok(_) => Ok(Value::String(text.to_owned())),
        Err(e) => Err(SheetError::BadChance {
            text: text.into(),
            reason: e.to_string(),
        }),
    }
}

/// A truth value: `true` or `false`, in any letter case (spreadsheets write `TRUE`).
pub(crate) fn boolean(text: &str) -> Result<Value, SheetError> {
    if text.eq_ignore_ascii_case("true") {
        Ok(Value::Bool(true))
    } else if text.eq_ignore_ascii_case("false") {
        Ok(Value::Bool(false))
    } else {
        Err(SheetError::BadBoolean { text: text.into() })
    }
}

/// Text, from a closed list when `choices` is given.
pub(crate) fn text(text: &str, choices: Option<&Vec<String>>) -> Result<Value, SheetError> {
    match choices {
        Some(list) if !list.iter().any(|c| c == text) => Err(SheetError::UnknownValue {
            text: text.into(),
            allowed: Names(list.clone()),
        }),
        _ => Ok(Value::String(text.to_owned())),
    }
}

/// A cell with no shape to follow: an integer if it is one, text otherwise; a decimal with
/// at most four places stays text (the form a `Fixed` reads); any other number is a float
/// and refused.
pub(crate) fn infer(text: &str) -> Result<Value, SheetError> {
    if is_integer_text(text) {
        return integer(text, IntRange::I64);
    }
    if text.parse::<Fixed>().is_ok() {
        return Ok(Value::String(text.to_owned()));
    }
    if looks_like_float(text) {
        return Err(SheetError::FloatRejected { text: text.into() });
    }
    Ok(Value::String(text.to_owned()))
}

/// Types the non-empty, trimmed `text` of a cell whose target has shape `id`.
pub(crate) fn type_cell(shapes: &Shapes, id: ShapeId, cell: &str) -> Result<Value, SheetError> {
    let (id, _) = shapes.strip(id);
    match shapes.get(id) {
        Shape::Any | Shape::Null => infer(cell),
        Shape::Int(range) => integer(cell, *range),
        Shape::Fixed => fixed(cell),
        Shape::Chance => chance(cell),
        Shape::Bool => boolean(cell),
        Shape::Text { choices } => text(cell, choices.as_ref()),
        Shape::Union(alternatives) => union(shapes, alternatives, cell),
        Shape::Array(_)
        | Shape::Map(_)
        | Shape::Object(_)
        | Shape::Tagged(_)
        | Shape::Nullable(_)
        | Shape::Ref(_) => Err(SheetError::WrongType {
            expected: shapes.describe(id),
            found: "a single cell".into(),
        }),
    }
}

/// A cell whose target accepts several kinds: integer first, then `Fixed` text, then `true`
/// or `false`, then text from a closed list, then any text.
fn union(shapes: &Shapes, alternatives: &[ShapeId], cell: &str) -> Result<Value, SheetError> {
    let scalars: Vec<&Shape> = alternatives
        .iter()
        .map(|a| shapes.get(shapes.strip(*a).0))
        .collect();
    // Integer text is an integer wherever an integer is possible: `-1` for a whole number is
    // out of range, never quietly read as text by another alternative.
    if is_integer_text(cell) {
        let mut first = None;
        for shape in &scalars {
            if let Shape::Int(range) = shape {
                match integer(cell, *range) {
                    Ok(value) => return Ok(value),
                    Err(e) => {
                        first.get_or_insert(e);
                    }
                }
            }
        }
        if let Some(error) = first {
            return Err(error);
        }
    }
    let mut first_error = None;
    let mut attempt = |result: Result<Value, SheetError>| match result {
        Ok(v) => Some(v),
        Err(e) => {
            first_error.get_or_insert(e);
            None
        }
    };
    for kind in 0..6 {
        for shape in &scalars {
            let found = match (kind, shape) {
                (0, Shape::Int(range)) if is_integer_text(cell) => attempt(integer(cell, *range)),
                (1, Shape::Fixed) => attempt(fixed(cell)),
                (1, Shape::Chance) => attempt(chance(cell)),
                (2, Shape::Bool) => attempt(boolean(cell)),
                (3, Shape::Text { choices: Some(c) }) => attempt(text(cell, Some(c))),
                (4, Shape::Text { choices: None }) => Some(Value::String(cell.to_owned())),
                (5, Shape::Any) => attempt(infer(cell)),
                _ => None,
            };
            if let Some(value) = found {
                return Ok(value);
            }
        }
    }
    if scalars.iter().any(|s| matches!(s, Shape::Int(_))) && looks_like_float(cell) {
        return Err(SheetError::FloatRejected { text: cell.into() });
    }
    Err(first_error.unwrap_or_else(|| SheetError::WrongType {
        expected: scalars
            .iter()
            .zip(alternatives)
            .map(|(_, a)| shapes.describe(*a))
            .collect::<Vec<_>>()
            .join(" or "),
        found: format!("`{cell}`"),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_are_recognized() {
        for text in [
            "1.5e3", "1e5", ".5", "5.", "+3", "NaN", "-inf", "1.23456", "1E-2",
        ] {
            assert!(looks_like_float(text), "{text}");
        }
        for text in ["abc", "1.2.3", "e5", "-", "", "1x", "round > 1.5"] {
            assert!(!looks_like_float(text), "{text}");
        }
    }

    #[test]
    fn integers_respect_ranges() {
        let u8_range = IntRange { min: 0, max: 255 };
        assert_eq!(integer("255", u8_range), Ok(Value::from(255)));
        assert_eq!(integer("256", u8_range).unwrap_err().code(), "out_of_range");
        assert_eq!(integer("-1", u8_range).unwrap_err().code(), "out_of_range");
        assert_eq!(
            integer("1.0", u8_range).unwrap_err().code(),
            "float_rejected"
        );
        assert_eq!(
            integer("three", u8_range).unwrap_err().code(),
            "bad_integer"
        );
        let huge = "9".repeat(60);
        assert_eq!(integer(&huge, u8_range).unwrap_err().code(), "out_of_range");
    }

    #[test]
    fn fixed_cells_stay_decimal_text() {
        assert_eq!(fixed("2"), Ok(Value::from("2")));
        assert_eq!(fixed("-0.25"), Ok(Value::from("-0.25")));
        assert_eq!(fixed("0.00001").unwrap_err().code(), "float_rejected");
        assert_eq!(fixed("1e3").unwrap_err().code(), "float_rejected");
        assert_eq!(fixed("abc").unwrap_err().code(), "bad_fixed");
        assert_eq!(
            fixed("9999999999999999").unwrap_err().code(),
            "out_of_range"
        );
    }

    #[test]
    fn inference_order() {
        assert_eq!(infer("12"), Ok(Value::from(12)));
        assert_eq!(infer("1.25"), Ok(Value::from("1.25")));
        assert_eq!(infer("hello"), Ok(Value::from("hello")));
        assert_eq!(infer("1.5e2").unwrap_err().code(), "float_rejected");
    }
}
