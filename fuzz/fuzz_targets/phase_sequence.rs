//! Fuzzes the phase sequence loader and validator: every problem reported, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use turnstile_formula::VariableSchema;
use turnstile_phases::{load_sequence, ValidationContext};

fuzz_target!(|text: &str| {
    let schema = VariableSchema::new();
    let _ = load_sequence("fuzz.json", text, &ValidationContext::new(&schema));
});
