//! Evaluation throughput of typical conditions (the hot path of phase edges and effect rows),
//! and, for scale, what compiling one costs. docs/formula.md reports the figures.
//!
//! Each evaluation iteration runs one condition over a batch of 1024 contexts, so criterion's
//! throughput line reads directly as conditions per second.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use turnstile_determinism::Fixed;
use turnstile_formula::{Formula, Type, Value, VariableSchema};

const BATCH: usize = 1024;

fn schema() -> VariableSchema {
    VariableSchema::from_declarations([
        ("turn", Type::Int),
        ("round", Type::Int),
        ("source.hp", Type::Int),
        ("run.money", Type::Int),
        ("tag_spell", Type::Bool),
        ("source.mult", Type::Fixed),
    ])
    .expect("valid schema")
}

/// Contexts that vary, so that no branch is always taken.
fn contexts() -> Vec<[Value; 6]> {
    (0..BATCH as i64)
        .map(|n| {
            [
                Value::Int(n),
                Value::Int(n % 7),
                Value::Int(n % 5 - 1),
                Value::Int(n * 3),
                Value::Bool(n % 3 == 0),
                Value::Fixed(Fixed::from_raw(10_000 + (n % 11) * 2_500)),
            ]
        })
        .collect()
}

const CONDITIONS: [(&str, &str); 3] = [
    ("and_of_comparisons", "round >= 3 and source.hp > 0"),
    ("or_with_modulo", "tag_spell or turn % 2 == 0"),
    ("fixed_product", "run.money * source.mult >= 100.5"),
];

fn evaluation(c: &mut Criterion) {
    let schema = schema();
    let contexts = contexts();
    let mut group = c.benchmark_group("eval_bool");
    group.throughput(Throughput::Elements(BATCH as u64));
    for (name, text) in CONDITIONS {
        let formula = Formula::compile_condition(text, &schema).expect("valid condition");
        group.bench_with_input(BenchmarkId::from_parameter(name), &formula, |b, formula| {
            b.iter(|| {
                let mut held = 0_u32;
                for context in &contexts {
                    held += u32::from(formula.eval_bool(black_box(context)) == Ok(true));
                }
                held
            });
        });
    }
    group.finish();
}

fn compilation(c: &mut Criterion) {
    let schema = schema();
    let mut group = c.benchmark_group("compile_condition");
    for (name, text) in CONDITIONS {
        group.bench_with_input(BenchmarkId::from_parameter(name), text, |b, text| {
            b.iter(|| Formula::compile_condition(black_box(text), &schema));
        });
    }
    group.finish();
}

criterion_group!(benches, evaluation, compilation);
criterion_main!(benches);
