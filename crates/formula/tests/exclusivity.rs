//! `Formula::exclusive_with`, table-driven: positive and negative cases of each of the two
//! forms spec/phases.md allows, and exclusive-in-truth pairs outside those forms, which must
//! be refused (the validator is conservative). Every pair is checked both ways round.

mod common;

use common::schema;
use turnstile_formula::{Formula, Type, VariableSchema};

fn check(a: &str, b: &str, expected: bool) {
    let schema = schema();
    let fa = Formula::compile_condition(a, &schema).unwrap();
    let fb = Formula::compile_condition(b, &schema).unwrap();
    assert_eq!(fa.exclusive_with(&fb), expected, "{a:?} against {b:?}");
    assert_eq!(fb.exclusive_with(&fa), expected, "{b:?} against {a:?}");
}

#[test]
fn a_condition_against_its_negation() {
    for (a, b) in [
        ("tag_spell", "not tag_spell"),
        ("round < 3", "not (round < 3)"),
        ("round < 3", "not round < 3"),
        ("(round < 3)", "not ((round) < (3))"),
        ("round >= 3 and tag_spell", "not (round >= 3 and tag_spell)"),
        ("not tag_spell", "not not tag_spell"),
        (
            "source.hp * 2 > run.money",
            "not (source.hp * 2 > run.money)",
        ),
        ("tag_spell or\n  tag_fire", "not (tag_spell or tag_fire)"),
    ] {
        check(a, b, true);
    }
    for (a, b) in [
        ("tag_spell", "not tag_fire"),
        ("tag_spell", "tag_spell"),
        ("not tag_spell", "not tag_spell"),
        ("round < 3", "not (round <= 3)"),
        ("round < 3", "not (round < 3.0)"), // 3 and 3.0 are different literals
        ("round < 3", "not (3 > round)"),   // structurally different
        ("tag_spell and tag_fire", "not (tag_fire and tag_spell)"),
        ("not not tag_spell", "not tag_fire"),
    ] {
        check(a, b, false);
    }
}

#[test]
fn one_variable_against_constants_whose_ranges_do_not_meet() {
    for (a, b) in [
        ("round < 3", "round >= 3"),
        ("round <= 2", "round > 2"),
        ("round <= 2", "round >= 3"),
        ("round == 1", "round == 2"),
        ("round == 1", "round != 1"),
        ("round == 1", "round > 1"),
        ("round == 1", "round < 1"),
        ("3 > round", "round >= 3"),
        ("round < 3", "3 <= round"),
        ("3 > round", "3 <= round"),
        ("1 == round", "round != 1"),
        ("round < -1", "round > -2"), // no integer between -2 and -1
        ("round > 2", "round < 2.5"), // no integer between 2 and 2.5
        ("round > 2", "round < 3"),
        ("round == 2.5", "round < 100"), // an integer is never 2.5
        ("source.mult < 1.5", "source.mult >= 1.5"),
        ("source.mult > 1.4999", "source.mult < 1.5"), // nothing between, in ten-thousandths
        ("source.mult == 1.5", "source.mult != 1.5"),
        ("source.mult == 1", "source.mult == 1.0001"),
        ("tag_spell == true", "tag_spell == false"),
        ("tag_spell != true", "tag_spell != false"),
        ("tag_spell == true", "tag_spell != true"),
        ("round > 9223372036854775807", "round > 0"), // never holds
    ] {
        check(a, b, true);
    }
    for (a, b) in [
        ("round < 3", "round > 1"),
        ("round < 3", "round <= 3"),
        ("round <= 3", "round >= 3"),
        ("round == 1", "round != 2"),
        ("round != 1", "round != 2"),
        ("round == 1", "round == 1"),
        ("round == 1", "round == 1.0"),
        ("round > 2", "round < 3.5"),
        ("round < 3", "turn >= 3"), // different variables
        ("round < 3", "source.hp >= 3"),
        ("source.mult > 1.4998", "source.mult < 1.5"),
        ("source.mult >= 1.5", "source.mult <= 1.5"),
        ("tag_spell == true", "tag_spell != false"),
        ("round >= -3", "round < -2"),
    ] {
        check(a, b, false);
    }
}

#[test]
fn anything_else_is_not_provably_exclusive() {
    for (a, b) in [
        // exclusive in truth, but not in one of the two forms
        ("round < 3 and tag_spell", "round >= 3"),
        ("round + 0 < 3", "round >= 3"),
        ("round < turn", "round >= turn"),
        ("round < 3 - 0", "round >= 3"),
        ("1 < 2", "1 >= 2"),
        ("not (round < 3)", "round < 2"),
        ("round < 3 or round < 2", "round >= 3"),
        ("false", "true"),
        ("tag_spell and not tag_spell", "tag_fire"),
    ] {
        check(a, b, false);
    }
}

#[test]
fn a_variable_of_different_types_in_two_schemas_is_never_exclusive() {
    let ints = VariableSchema::from_declarations([("x", Type::Int)]).unwrap();
    let fixeds = VariableSchema::from_declarations([("x", Type::Fixed)]).unwrap();
    let a = Formula::compile_condition("x < 3", &ints).unwrap();
    let b = Formula::compile_condition("x >= 3", &fixeds).unwrap();
    assert!(!a.exclusive_with(&b));
    assert!(!b.exclusive_with(&a));
    let c = Formula::compile_condition("x >= 3", &ints).unwrap();
    assert!(a.exclusive_with(&c));
}
