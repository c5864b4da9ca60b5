//! Fuzzes the formula parser and checker: never a panic, only positioned errors.
#![no_main]
use libfuzzer_sys::fuzz_target;
use turnstile_formula::{Formula, Type, VariableSchema};

fuzz_target!(|text: &str| {
    let schema = VariableSchema::from_declarations([
        ("round", Type::Int),
        ("source.hp", Type::Int),
        ("run.mult", Type::Fixed),
        ("tag_spell", Type::Bool),
    ])
    .expect("a valid schema");
    let _ = turnstile_formula::parse(text);
    let _ = Formula::compile(text, &schema);
});
