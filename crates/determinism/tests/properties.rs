//! Property tests: arithmetic against definition-based references, parse/display round
//! trips, generator behaviour against the spec's pseudo-code written out literally.

use std::cmp::Ordering;

use proptest::prelude::*;
use turnstile_determinism::canonical::{
    compare_utf16, from_json_text, hex_u64, to_canonical_string,
};
use turnstile_determinism::fixed::{floor_div_i128, mul_int};
use turnstile_determinism::{Chance, Fixed, FixedError, Pcg32, Saturated};

/// floor(a / b) by its definition: the q with q*b <= a < (q+1)*b (b > 0), or
/// q*b >= a > (q+1)*b (b < 0). Checked, not computed, so it cannot share a bug with the
/// implementation.
fn is_floor_quotient(a: i128, b: i128, q: i128) -> bool {
    let (Some(lo), Some(hi)) = (q.checked_mul(b), (q + 1).checked_mul(b)) else {
        return false;
    };
    if b > 0 {
        lo <= a && a < hi
    } else {
        lo >= a && a > hi
    }
}

/// A second reference, by a different route: Euclidean division corrected for sign.
fn floor_div_reference(a: i128, b: i128) -> i128 {
    if b > 0 {
        a.div_euclid(b)
    } else {
        (-a).div_euclid(-b)
    }
}

fn saturate(v: i128) -> Saturated<i64> {
    if v > i128::from(i64::MAX) {
        Saturated {
            value: i64::MAX,
            saturated: true,
        }
    } else if v < i128::from(i64::MIN) {
        Saturated {
            value: i64::MIN,
            saturated: true,
        }
    } else {
        Saturated {
            value: v as i64,
            saturated: false,
        }
    }
}

/// Raw values that hit edges often.
fn raw() -> impl Strategy<Value = i64> {
    prop_oneof![
        any::<i64>(),
        -30_000i64..30_000,
        Just(i64::MIN),
        Just(i64::MAX),
        Just(i64::MIN + 1),
        Just(i64::MAX - 1),
        Just(0),
        Just(10_000),
        Just(-10_000),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn floor_div_matches_definition(
        a in prop_oneof![any::<i64>().prop_map(i128::from), -(1i128 << 126)..(1i128 << 126), -100i128..100],
        b in prop_oneof![any::<i64>().prop_map(i128::from), -(1i128 << 100)..(1i128 << 100), -10i128..10],
    ) {
        match floor_div_i128(a, b) {
            None => prop_assert_eq!(b, 0),
            Some(q) => {
                prop_assert!(is_floor_quotient(a, b, q), "{} / {} gave {}", a, b, q);
                prop_assert_eq!(q, floor_div_reference(a, b));
            }
        }
    }

    #[test]
    fn mul_is_saturated_floor(a in raw(), b in raw()) {
        let exact = i128::from(a) * i128::from(b);
        let q = floor_div_reference(exact, 10_000);
        prop_assert!(is_floor_quotient(exact, 10_000, q));
        let want = saturate(q);
        let got = Fixed::from_raw(a).mul(Fixed::from_raw(b));
        prop_assert_eq!(got.value.raw(), want.value);
        prop_assert_eq!(got.saturated, want.saturated);
        prop_assert_eq!(Fixed::from_raw(a).mul(Fixed::from_raw(b)), Fixed::from_raw(b).mul(Fixed::from_raw(a)));
    }

    #[test]
    fn div_is_saturated_floor(a in raw(), b in raw()) {
        let got = Fixed::from_raw(a).div(Fixed::from_raw(b));
        if b == 0 {
            prop_assert_eq!(got, Err(FixedError::DivisionByZero));
        } else {
            let numerator = i128::from(a) * 10_000;
            let q = floor_div_reference(numerator, i128::from(b));
            prop_assert!(is_floor_quotient(numerator, i128::from(b), q));
            let want = saturate(q);
            let got = got.unwrap();
            prop_assert_eq!(got.value.raw(), want.value);
            prop_assert_eq!(got.saturated, want.saturated);
        }
    }

    #[test]
    fn mul_int_is_saturated_floor(n in raw(), f in raw()) {
        let exact = i128::from(n) * i128::from(f);
        let want = saturate(floor_div_reference(exact, 10_000));
        prop_assert_eq!(mul_int(n, Fixed::from_raw(f)), want);
    }

    #[test]
    fn add_sub_saturate(a in raw(), b in raw()) {
        let (fa, fb) = (Fixed::from_raw(a), Fixed::from_raw(b));
        prop_assert_eq!((fa + fb).raw(), saturate(i128::from(a) + i128::from(b)).value);
        prop_assert_eq!((fa - fb).raw(), saturate(i128::from(a) - i128::from(b)).value);
    }

    #[test]
    fn display_parse_round_trip_every_raw(r in raw()) {
        let f = Fixed::from_raw(r);
        let text = f.to_string();
        prop_assert_eq!(text.parse::<Fixed>(), Ok(f));
        // Shortest: no trailing zero after a point, no point without a fraction.
        prop_assert!(!text.ends_with('.'));
        if text.contains('.') {
            prop_assert!(!text.ends_with('0'));
        }
        // And the canonical JSON form reads back too.
        let json = to_canonical_string(&f).unwrap();
        prop_assert_eq!(serde_json::from_str::<Fixed>(&json).unwrap(), f);
    }

    #[test]
    fn parse_display_normalizes(
        negative in any::<bool>(),
        int in prop_oneof!["[0-9]{1,15}", "0{0,3}92233720368547[6-8]"],
        frac in "[0-9]{0,4}",
    ) {
        let text = format!("{}{}{}{}", if negative { "-" } else { "" }, int, if frac.is_empty() { "" } else { "." }, frac);
        // Reference: exact value in ten-thousandths from the digits.
        let mut padded = frac.clone();
        while padded.len() < 4 {
            padded.push('0');
        }
        let magnitude: i128 = int.parse::<i128>().unwrap() * 10_000 + padded.parse::<i128>().unwrap();
        let value = if negative { -magnitude } else { magnitude };
        if i64::try_from(value).is_err() {
            prop_assert_eq!(text.parse::<Fixed>().unwrap_err().code(), "fixed.overflow");
            return Ok(());
        }
        let parsed: Fixed = text.parse().unwrap();
        prop_assert_eq!(i128::from(parsed.raw()), value);
        // Display gives the normalized text.
        let int_norm = int.trim_start_matches('0');
        let int_norm = if int_norm.is_empty() { "0" } else { int_norm };
        let frac_norm = frac.trim_end_matches('0');
        let mut want = String::new();
        if value != 0 && negative {
            want.push('-');
        }
        want.push_str(int_norm);
        if !frac_norm.is_empty() {
            want.push('.');
            want.push_str(frac_norm);
        }
        prop_assert_eq!(parsed.to_string(), want);
    }

    #[test]
    fn parse_rejects_five_or_more_decimals(int in "-?[0-9]{1,6}", frac in "[0-9]{5,12}") {
        let text = format!("{int}.{frac}");
        prop_assert_eq!(text.parse::<Fixed>().unwrap_err().code(), "fixed.too_many_decimals");
    }

    #[test]
    fn parse_never_panics(text in "\\PC{0,24}") {
        let _ = text.parse::<Fixed>();
        let _ = Fixed::from_json_string(&text);
        let _ = text.parse::<Chance>();
    }

    #[test]
    fn json_text_reader_never_panics(
        text in prop_oneof!["\\PC{0,40}", "[\\[\\]{}\":,0-9a-z\\\\ .eE+\\-é😀]{0,40}"],
    ) {
        if let Ok(canonical) = from_json_text(&text) {
            // Whatever it accepts, its output is canonical: a fixed point.
            let again = from_json_text(std::str::from_utf8(&canonical).unwrap()).unwrap();
            prop_assert_eq!(again, canonical);
        }
    }

    #[test]
    fn below_matches_spec_pseudocode(state in any::<u64>(), seq in any::<u64>(), n in prop_oneof![1u32..10, any::<u32>(), Just(u32::MAX), Just((1 << 31) + 1)], draws in 1usize..20) {
        let mut ours = Pcg32::new(state, seq);
        let mut reference = ours.clone();
        for _ in 0..draws {
            let got = ours.below(n).unwrap();
            prop_assert!(got < n);
            let threshold = ((1u64 << 32) - u64::from(n)) % u64::from(n);
            let want = loop {
                let r = reference.next_u32();
                if u64::from(r) >= threshold {
                    break r % n;
                }
            };
            prop_assert_eq!(got, want);
        }
        prop_assert_eq!(ours, reference);
    }

    #[test]
    fn shuffle_matches_spec_pseudocode(state in any::<u64>(), seq in any::<u64>(), len in 0usize..80) {
        let mut ours = Pcg32::new(state, seq);
        let mut reference = ours.clone();
        let mut items: Vec<usize> = (0..len).collect();
        ours.shuffle(&mut items).unwrap();
        let mut want: Vec<usize> = (0..len).collect();
        for i in (1..len).rev() {
            let j = reference.below(u32::try_from(i + 1).unwrap()).unwrap() as usize;
            want.swap(i, j);
        }
        prop_assert_eq!(&items, &want);
        let mut sorted = items.clone();
        sorted.sort_unstable();
        prop_assert_eq!(sorted, (0..len).collect::<Vec<_>>());
        prop_assert_eq!(ours, reference);
    }

    #[test]
    fn chance_roll_is_one_bounded_draw(state in any::<u64>(), num in 0u32..20, den in 1u32..20) {
        let c = Chance::new(num, den).unwrap();
        let mut a = Pcg32::new(state, 7);
        let mut b = a.clone();
        prop_assert_eq!(c.roll(&mut a), b.below(den).unwrap() < num);
        prop_assert_eq!(a, b);
    }

    #[test]
    fn utf16_compare_matches_encode_utf16(a in "\\PC{0,6}", b in "\\PC{0,6}") {
        prop_assert_eq!(compare_utf16(&a, &b), a.encode_utf16().cmp(b.encode_utf16()));
        if a == b {
            prop_assert_eq!(compare_utf16(&a, &b), Ordering::Equal);
        }
    }

    #[test]
    fn hex_u64_round_trip(v in any::<u64>()) {
        let text = hex_u64::to_hex(v);
        prop_assert_eq!(text.len(), 16);
        prop_assert_eq!(hex_u64::parse(&text), Some(v));
    }

    #[test]
    fn generator_state_round_trips_through_json(state in any::<u64>(), seq in any::<u64>(), skip in 0u32..5) {
        let mut rng = Pcg32::new(state, seq);
        for _ in 0..skip {
            rng.next_u32();
        }
        let json = to_canonical_string(&rng).unwrap();
        let mut back: Pcg32 = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(back.next_u32(), rng.next_u32());
    }
}
