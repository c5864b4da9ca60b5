//! Shared fixtures of the formula tests: one schema with every kind of variable the engine's
//! contexts offer, and a context of values for it.

// Each test file uses its own part of this module.
#![allow(dead_code)]

use turnstile_determinism::Fixed;
use turnstile_formula::{Type, Value, VariableSchema};

/// The variables of the test schema, in slot order.
pub const DECLARATIONS: [(&str, Type); 10] = [
    ("turn", Type::Int),
    ("round", Type::Int),
    ("source.hp", Type::Int),
    ("run.money", Type::Int),
    ("tag_spell", Type::Bool),
    ("tag_fire", Type::Bool),
    ("source.mult", Type::Fixed),
    ("i", Type::Int),
    ("f", Type::Fixed),
    ("b", Type::Bool),
];

pub fn schema() -> VariableSchema {
    VariableSchema::from_declarations(DECLARATIONS).expect("the test schema is valid")
}

pub fn fx(text: &str) -> Fixed {
    text.parse().expect("a valid Fixed literal in a test")
}

/// turn 7, round 3, source.hp 10, run.money 25, tag_spell true, tag_fire false,
/// source.mult 1.5, i -7, f -2.5, b true.
pub fn context() -> [Value; 10] {
    [
        Value::Int(7),
        Value::Int(3),
        Value::Int(10),
        Value::Int(25),
        Value::Bool(true),
        Value::Bool(false),
        Value::Fixed(fx("1.5")),
        Value::Int(-7),
        Value::Fixed(fx("-2.5")),
        Value::Bool(true),
    ]
}
