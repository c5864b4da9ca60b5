//! Refusals at load, each with its stable code and its line and column; schema refusals;
//! evaluation errors from a context that breaks its promise; the serde pattern.

mod common;

use common::{context, schema};
use turnstile_formula::{
    EvalError, Formula, FormulaError, FormulaText, Type, Value, VariableSchema, MAX_DEPTH,
    MAX_NESTING, MAX_SOURCE_BYTES,
};

/// `compile` (or `compile_condition` when `condition`) must fail with `code` at
/// `line`:`column`.
fn check(input: &str, condition: bool, code: &str, line: u32, column: u32) {
    let result = if condition {
        Formula::compile_condition(input, &schema())
    } else {
        Formula::compile(input, &schema())
    };
    let error = result.expect_err(input);
    assert_eq!(
        (error.code(), error.position().line, error.position().column),
        (code, line, column),
        "{input:?}: {error}"
    );
    // The message starts with the position, for a reader without the code.
    assert!(
        error.to_string().starts_with(&format!("{line}:{column}: ")),
        "{error}"
    );
}

#[test]
fn type_errors_at_load_with_positions() {
    for (input, line, column) in [
        ("1 + true", 1, 5),
        ("true + 1", 1, 1),
        ("round * tag_spell", 1, 9),
        ("not 3", 1, 5),
        ("not source.mult", 1, 5),
        ("-true", 1, 2),
        ("-(round < 1)", 1, 9),
        ("1 and true", 1, 1),
        ("true or 2", 1, 9),
        ("tag_spell and round", 1, 15),
        ("1 == true", 1, 3),
        ("tag_spell != 0", 1, 11),
        ("tag_spell < tag_fire", 1, 1),
        ("round < tag_fire", 1, 9),
        ("(round < 1) < 2", 1, 8),
        ("round >= 3 and\n    source.hp + tag_fire > 0", 2, 17),
    ] {
        check(input, false, "type_mismatch", line, column);
    }
}

#[test]
fn a_condition_must_be_bool() {
    check("round + 1", true, "not_a_condition", 1, 7);
    check("source.mult", true, "not_a_condition", 1, 1);
    check("(1.5)", true, "not_a_condition", 1, 2);
    assert!(Formula::compile_condition("tag_spell", &schema()).is_ok());
    assert!(Formula::compile("round + 1", &schema()).is_ok());
    // eval_bool on a formula that is not a condition
    let formula = Formula::compile("round + 1", &schema()).unwrap();
    assert!(!formula.is_condition());
    assert_eq!(
        formula.eval_bool(&context()).unwrap_err().code(),
        "not_a_condition"
    );
}

#[test]
fn unknown_variables_with_positions() {
    check("bogus", false, "unknown_variable", 1, 1);
    check("round + nope", false, "unknown_variable", 1, 9);
    check(
        "round > 1\n  and source.mana > 0",
        false,
        "unknown_variable",
        2,
        7,
    );
    check("Round", false, "unknown_variable", 1, 1);
    check("source", false, "unknown_variable", 1, 1);
    check("source.hp.max", false, "unknown_variable", 1, 1);
    // the name is in the error
    let error = Formula::compile("1 + run.gold", &schema()).unwrap_err();
    assert_eq!(
        error,
        FormulaError::UnknownVariable {
            at: turnstile_formula::Position::new(1, 5),
            name: "run.gold".into()
        }
    );
}

#[test]
fn syntax_errors_with_positions() {
    for (input, code, line, column) in [
        ("round < 1 < 2", "chained_comparison", 1, 11),
        ("turn == 1 != tag_spell", "chained_comparison", 1, 11),
        ("round < 1\n  == tag_spell", "chained_comparison", 2, 3),
        ("1 +", "unexpected_end", 1, 4),
        ("", "unexpected_end", 1, 1),
        ("(round", "unexpected_end", 1, 7),
        ("round\n+", "unexpected_end", 2, 2),
        ("round )", "unexpected_token", 1, 7),
        ("round round", "unexpected_token", 1, 7),
        ("round == not tag_spell", "unexpected_token", 1, 10),
        ("round & 1", "unexpected_character", 1, 7),
        ("round = 1", "unexpected_character", 1, 7),
        ("tag_é", "unexpected_character", 1, 5),
        ("é + 1", "unexpected_character", 1, 1),
        ("1 + 1e5", "bad_number", 1, 5),
        ("2x", "bad_number", 1, 1),
        ("round > 1.", "bad_number", 1, 9),
        ("99999999999999999999", "bad_number", 1, 1),
        ("x +\n\t1.23456", "too_many_decimals", 2, 2),
        ("0.00001", "too_many_decimals", 1, 1),
    ] {
        check(input, false, code, line, column);
    }
}

#[test]
fn nesting_limits() {
    // MAX_DEPTH operators deep is refused, one less is fine
    let sum = |terms: u32| {
        let mut text = String::from("1");
        for _ in 1..terms {
            text.push_str(" + 1");
        }
        text
    };
    assert!(Formula::compile(&sum(MAX_DEPTH), &schema()).is_ok());
    let error = Formula::compile(&sum(MAX_DEPTH + 1), &schema()).unwrap_err();
    assert_eq!(error.code(), "too_deep");
    let negations = format!("{}1", "-".repeat(100));
    assert_eq!(
        Formula::compile(&negations, &schema()).unwrap_err().code(),
        "too_deep"
    );
    // parentheses count towards nesting, however many
    let parens = |n: usize| format!("{}1{}", "(".repeat(n), ")".repeat(n));
    assert!(Formula::compile(&parens(100), &schema()).is_ok());
    let error = Formula::compile(&parens(MAX_NESTING as usize + 1), &schema()).unwrap_err();
    assert_eq!(error.code(), "too_deep");
    let error = Formula::compile(&"(".repeat(MAX_SOURCE_BYTES), &schema()).unwrap_err();
    assert_eq!(error.code(), "too_deep");
    let error = Formula::compile(&"not ".repeat(1000), &schema()).unwrap_err();
    assert_eq!(error.code(), "too_deep");
    // and the text has a length limit
    let long = format!("1{}", " ".repeat(MAX_SOURCE_BYTES));
    assert_eq!(
        Formula::compile(&long, &schema()).unwrap_err().code(),
        "too_long"
    );
}

#[test]
fn schema_refusals() {
    let mut schema = VariableSchema::new();
    assert_eq!(schema.declare("round", Type::Int), Ok(0));
    assert_eq!(schema.declare("source.hp", Type::Int), Ok(1));
    assert_eq!(schema.declare("_x.y_2", Type::Bool), Ok(2));
    for (name, code) in [
        ("round", "duplicate_variable"),
        ("and", "reserved_name"),
        ("true", "reserved_name"),
        ("", "invalid_name"),
        ("1abc", "invalid_name"),
        ("a..b", "invalid_name"),
        ("a.", "invalid_name"),
        (".a", "invalid_name"),
        ("hp-max", "invalid_name"),
        ("a.1", "invalid_name"),
        ("héros", "invalid_name"),
    ] {
        assert_eq!(
            schema.declare(name, Type::Int).unwrap_err().code(),
            code,
            "{name:?}"
        );
    }
    assert_eq!(schema.len(), 3);
    let mut big = VariableSchema::new();
    for n in 0..turnstile_formula::MAX_VARIABLES {
        big.declare(&format!("v{n}"), Type::Int).unwrap();
    }
    assert_eq!(
        big.declare("one_more", Type::Int).unwrap_err().code(),
        "too_many_variables"
    );
}

#[test]
fn a_context_that_breaks_its_promise() {
    let formula = Formula::compile("turn + source.hp", &schema()).unwrap();
    // too short: no value for slot 2
    let error = formula.eval(&[Value::Int(1), Value::Int(2)]).unwrap_err();
    assert_eq!(
        error,
        EvalError::MissingVariable {
            name: "source.hp".into(),
            slot: 2
        }
    );
    assert_eq!(error.code(), "missing_variable");
    // wrong type in slot 0
    let mut values = context();
    values[0] = Value::Bool(true);
    let error = formula.eval(&values).unwrap_err();
    assert_eq!(
        error,
        EvalError::VariableType {
            name: "turn".into(),
            slot: 0,
            expected: Type::Int,
            found: Type::Bool
        }
    );
    assert_eq!(error.code(), "variable_type");
}

#[test]
fn variables_are_listed_once_in_order_of_appearance() {
    let formula = Formula::compile(
        "source.hp > 0 and (round >= 3 or source.hp < round) or tag_spell",
        &schema(),
    )
    .unwrap();
    assert_eq!(
        formula.variables().collect::<Vec<_>>(),
        ["source.hp", "round", "tag_spell"]
    );
    let slots: Vec<u16> = formula.used_variables().iter().map(|v| v.slot).collect();
    assert_eq!(slots, [2, 1, 4]);
    assert_eq!(
        Formula::compile("1 + 2", &schema())
            .unwrap()
            .variables()
            .len(),
        0
    );
}

#[test]
fn content_carries_formula_text_and_compiles_it_at_load() {
    #[derive(serde::Serialize, serde::Deserialize)]
    struct Edge {
        condition: FormulaText,
    }
    let edge: Edge = serde_json::from_str(r#"{"condition":"round >= 3 and tag_spell"}"#).unwrap();
    assert_eq!(edge.condition.as_str(), "round >= 3 and tag_spell");
    assert_eq!(
        serde_json::to_string(&edge).unwrap(),
        r#"{"condition":"round >= 3 and tag_spell"}"#
    );
    let formula = edge.condition.compile_condition(&schema()).unwrap();
    assert_eq!(formula.eval_bool(&context()), Ok(true));
    // a compiled formula serializes as its source text, unchanged
    assert_eq!(
        serde_json::to_string(&formula).unwrap(),
        r#""round >= 3 and tag_spell""#
    );
    assert_eq!(FormulaText::from(&formula), edge.condition);
    // a bad formula in content is refused at load, with its position
    let bad: Edge = serde_json::from_str(r#"{"condition":"round >= x"}"#).unwrap();
    let error = bad.condition.compile_condition(&schema()).unwrap_err();
    assert_eq!(
        (error.code(), error.position().column),
        ("unknown_variable", 10)
    );
    // a JSON non-string is not a formula
    assert!(serde_json::from_str::<Edge>(r#"{"condition":3}"#).is_err());
}
