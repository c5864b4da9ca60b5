//! Evaluation, table-driven: floor division and modulo for every sign, exact `Fixed`
//! literals, `Int`/`Fixed` promotion and exact mixed comparisons, saturation at both ends,
//! division by zero, short-circuit, and the engine's typical conditions over a context.

mod common;

use common::{context, fx, schema};
use turnstile_determinism::Fixed;
use turnstile_formula::{EvalError, Formula, Type, Value};

/// What a formula must evaluate to over [`context`].
#[derive(Debug)]
enum Expected {
    Int(i64),
    /// A `Fixed`, written as decimal text.
    Fixed(&'static str),
    Bool(bool),
    /// An evaluation error with this code.
    Error(&'static str),
}

fn check(input: &str, expected: Expected) {
    let formula = Formula::compile(input, &schema())
        .unwrap_or_else(|e| panic!("{input:?} must compile: {e}"));
    let got = formula.eval(&context());
    match expected {
        Expected::Int(n) => assert_eq!(got, Ok(Value::Int(n)), "{input:?}"),
        Expected::Fixed(text) => assert_eq!(got, Ok(Value::Fixed(fx(text))), "{input:?}"),
        Expected::Bool(b) => assert_eq!(got, Ok(Value::Bool(b)), "{input:?}"),
        Expected::Error(code) => {
            assert_eq!(got.map_err(|e| e.code()), Err(code), "{input:?}");
        }
    }
}

fn check_all(fixtures: &[(&str, Expected)]) {
    for (input, expected) in fixtures {
        let expected = match expected {
            Expected::Int(n) => Expected::Int(*n),
            Expected::Fixed(t) => Expected::Fixed(t),
            Expected::Bool(b) => Expected::Bool(*b),
            Expected::Error(c) => Expected::Error(c),
        };
        check(input, expected);
    }
}

use Expected::{Bool as B, Error as E, Fixed as F, Int as I};

#[test]
fn integer_division_and_modulo_floor_for_every_sign() {
    check_all(&[
        ("7 / 2", I(3)),
        ("-7 / 2", I(-4)),
        ("7 / -2", I(-4)),
        ("-7 / -2", I(3)),
        ("6 / -2", I(-3)),
        ("-6 / 2", I(-3)),
        ("0 / -5", I(0)),
        ("1 / 3", I(0)),
        ("-1 / 3", I(-1)),
        ("7 % 2", I(1)),
        ("-7 % 2", I(1)),
        ("7 % -2", I(-1)),
        ("-7 % -2", I(-1)),
        ("6 % -3", I(0)),
        ("-1 % 3", I(2)),
        ("i / 2", I(-4)), // i = -7
        ("i % 2", I(1)),
        ("turn % 2 == 1", B(true)), // turn = 7
    ]);
}

#[test]
fn fixed_division_and_modulo_floor_for_every_sign() {
    check_all(&[
        ("7.0 / 2.0", F("3.5")),
        ("1.0 / 3.0", F("0.3333")),
        ("-1.0 / 3.0", F("-0.3334")),
        ("1.0 / -3.0", F("-0.3334")),
        ("-1.0 / -3.0", F("0.3333")),
        ("5.5 % 2.0", F("1.5")),
        ("-5.5 % 2.0", F("0.5")),
        ("5.5 % -2.0", F("-0.5")),
        ("-5.5 % -2.0", F("-1.5")),
        ("1.5 * 0.3333", F("0.4999")),
        ("1.5 * -0.3333", F("-0.5")),
        ("-1.5 * 0.3333", F("-0.5")),
        ("-1.5 * -0.3333", F("0.4999")),
        ("0.0001 * 0.5", F("0")),
        ("-0.0001 * 0.5", F("-0.0001")),
    ]);
}

#[test]
fn fixed_literals_are_exact() {
    check_all(&[
        ("0.1 + 0.2 == 0.3", B(true)),
        ("0.0001", F("0.0001")),
        ("123456.7891", F("123456.7891")),
        ("1.5", F("1.5")),
        ("1.50", F("1.5")),
        ("2.0", F("2")),
        ("922337203685477.5807", F("922337203685477.5807")),
        ("-922337203685477.5807 - 0.0001", F("-922337203685477.5808")),
        ("0.3 * 3 == 0.9", B(true)),
    ]);
    let formula = Formula::compile("0.0001", &schema()).unwrap();
    assert_eq!(
        formula.eval(&context()),
        Ok(Value::Fixed(Fixed::from_raw(1)))
    );
    for text in ["0.00001", "1.23456", "round > 0.99999"] {
        let error = Formula::compile(text, &schema()).unwrap_err();
        assert_eq!(error.code(), "too_many_decimals", "{text:?}");
    }
}

#[test]
fn int_meeting_fixed_is_promoted() {
    check_all(&[
        ("1 + 0.5", F("1.5")),
        ("0.5 + 1", F("1.5")),
        ("2 - 0.0001", F("1.9999")),
        ("1 + 1.0", F("2")),
        ("7 * 1.5", F("10.5")),
        ("-7 * 1.5", F("-10.5")),
        ("1.5 * -7", F("-10.5")),
        ("3 * 0.3333", F("0.9999")),
        ("1 / 3.0", F("0.3333")),
        ("-1 / 3.0", F("-0.3334")),
        ("-1.0 / 3", F("-0.3334")),
        ("7 % 2.5", F("2")),
        ("-7 % 2.5", F("0.5")),
        ("5.5 % -2", F("-0.5")),
        ("run.money * source.mult", F("37.5")), // 25 * 1.5
        ("source.hp + f", F("7.5")),            // 10 + -2.5
        // an integer too large to be a Fixed still combines exactly
        ("922337203685478 * 0.5", F("461168601842739")),
    ]);
    // the type is settled at compile time
    let ty = |text| Formula::compile(text, &schema()).unwrap().ty();
    assert_eq!(ty("1 + 1"), Type::Int);
    assert_eq!(ty("1 + 1.0"), Type::Fixed);
    assert_eq!(ty("round * source.mult"), Type::Fixed);
    assert_eq!(ty("round / 2"), Type::Int);
    assert_eq!(ty("round < 2.5"), Type::Bool);
}

#[test]
fn comparisons_across_int_and_fixed_are_exact() {
    check_all(&[
        ("1 == 1.0", B(true)),
        ("1.0 != 1", B(false)),
        ("2 > 1.9999", B(true)),
        ("1.9999 < 2", B(true)),
        ("2 <= 2.0", B(true)),
        ("-1 < -0.9999", B(true)),
        ("-1 >= -1.0001", B(true)),
        ("round < 3.0001", B(true)),
        ("round > 2.9999", B(true)),
        ("round == 3.0", B(true)),
        // beyond the range of Fixed: a saturating promotion would call these equal
        ("922337203685478 > 922337203685477.5807", B(true)),
        ("-922337203685478 < -922337203685477.5807 - 0.0001", B(true)),
        ("9223372036854775807 != 922337203685477.5807", B(true)),
        // truth values compare with == and !=
        ("tag_spell == true", B(true)),
        ("tag_fire != false", B(false)),
        ("(round < 3) == tag_fire", B(true)),
    ]);
}

#[test]
fn saturation_at_both_ends() {
    check_all(&[
        ("9223372036854775807 + 1", I(i64::MAX)),
        ("-9223372036854775807 - 2", I(i64::MIN)),
        ("9223372036854775807 * 2", I(i64::MAX)),
        ("-9223372036854775807 * 2", I(i64::MIN)),
        ("9223372036854775807 * -9223372036854775807", I(i64::MIN)),
        ("-(-9223372036854775807 - 1)", I(i64::MAX)),
        ("(-9223372036854775807 - 1) / -1", I(i64::MAX)),
        ("(-9223372036854775807 - 1) % -1", I(0)),
        ("922337203685477.5807 + 0.0001", F("922337203685477.5807")),
        ("-922337203685477.5807 - 0.0002", F("-922337203685477.5808")),
        ("922337203685477.5807 * 2.0", F("922337203685477.5807")),
        ("922337203685477.5807 * -2.0", F("-922337203685477.5808")),
        ("922337203685477.5807 / 0.0001", F("922337203685477.5807")),
        ("9223372036854775807 * 1.5", F("922337203685477.5807")),
        ("-9223372036854775807 + 0.5", F("-922337203685477.5808")),
        ("9223372036854775807 / 0.5", F("922337203685477.5807")),
        (
            "-(-922337203685477.5807 - 0.0001)",
            F("922337203685477.5807"),
        ),
    ]);
    let report = |text| {
        Formula::compile(text, &schema())
            .unwrap()
            .eval_reporting(&context())
            .unwrap()
            .saturated
    };
    assert!(report("9223372036854775807 + 1"));
    assert!(report("-9223372036854775807 - 2"));
    assert!(report("922337203685477.5807 * 2.0"));
    assert!(report("-(-9223372036854775807 - 1)"));
    assert!(report("(-9223372036854775807 - 1) / -1"));
    assert!(
        report("9223372036854775807 + 1 > 0"),
        "a saturation inside a condition is reported"
    );
    assert!(!report("9223372036854775807 + 0"));
    assert!(!report("-9223372036854775807 - 1"));
    assert!(!report("run.money * source.mult"));
}

#[test]
fn division_by_zero_is_an_error_value() {
    check_all(&[
        ("1 / 0", E("division_by_zero")),
        ("1 % 0", E("division_by_zero")),
        ("1.5 / 0.0", E("division_by_zero")),
        ("1.5 % 0.0", E("division_by_zero")),
        ("1 / 0.0", E("division_by_zero")),
        ("1.0 / 0", E("division_by_zero")),
        ("1 % 0.0", E("division_by_zero")),
        ("1.0 % 0", E("division_by_zero")),
        ("round / (turn - 7)", E("division_by_zero")),
        ("(-9223372036854775807 - 1) / 0", E("division_by_zero")),
    ]);
    let formula =
        Formula::compile("round > 1 and\n  source.hp / (turn - 7) > 0", &schema()).unwrap();
    match formula.eval(&context()) {
        Err(EvalError::DivisionByZero { at }) => assert_eq!((at.line, at.column), (2, 13)),
        other => panic!("expected a division by zero, got {other:?}"),
    }
}

#[test]
fn and_or_short_circuit() {
    check_all(&[
        ("false and (1 / 0 == 1)", B(false)),
        ("true or 1 / 0 == 1", B(true)),
        ("tag_fire and 1 % 0 == 0", B(false)),
        ("tag_spell or 1 % 0 == 0", B(true)),
        ("true and (1 / 0 == 1)", E("division_by_zero")),
        ("false or 1 / 0 == 1", E("division_by_zero")),
        ("(false and 1 / 0 == 1) or true", B(true)),
        ("false and false or true", B(true)),
        ("true or false and false", B(true)),
        ("not (false and 1 / 0 == 1)", B(true)),
    ]);
}

#[test]
fn typical_conditions_over_a_context() {
    check_all(&[
        ("round >= 3 and source.hp > 0", B(true)),
        ("round >= 4 and source.hp > 0", B(false)),
        ("tag_spell or turn % 2 == 0", B(true)),
        ("tag_fire or turn % 2 == 0", B(false)),
        ("run.money * source.mult >= 37.5", B(true)),
        ("run.money * source.mult > 37.5", B(false)),
        ("not tag_fire", B(true)),
        ("-source.hp", I(-10)),
        ("-f", F("2.5")),
        ("b", B(true)),
        ("i * f", F("17.5")),
        ("round * 2 + 1", I(7)),
    ]);
    let formula = Formula::compile_condition("round >= 3 and source.hp > 0", &schema()).unwrap();
    let mut values = context();
    assert_eq!(formula.eval_bool(&values), Ok(true));
    values[2] = Value::Int(0);
    assert_eq!(formula.eval_bool(&values), Ok(false));
    values[1] = Value::Int(2);
    values[2] = Value::Int(5);
    assert_eq!(formula.eval_bool(&values), Ok(false));
    // a Vec and a slice are sources too
    assert_eq!(formula.eval_bool(&values.to_vec()), Ok(false));
    assert_eq!(formula.eval_bool(&values[..]), Ok(false));
}
