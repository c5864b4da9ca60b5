//! Property: effect rows written as a sheet (the project's standard columns) and as a JSON
//! rows file load back to the same typed rows, and compile to tables with the same content.

mod common;

use proptest::prelude::*;
use turnstile_core::determinism::Chance;
use turnstile_effects::{
    effect_loader, Amount, Condition, Duration, EffectRow, Operation, OwnerRef, Scope, Trigger,
    EFFECT_COLUMNS,
};
use turnstile_formula::FormulaText;

fn name() -> impl Strategy<Value = String> {
    "[a-z][a-z0-9_]{0,8}"
}

fn formula() -> impl Strategy<Value = FormulaText> {
    prop_oneof![
        Just("round >= 3"),
        Just("target.health < 10 and not tag_spell"),
        Just("owner.stacks * 2"),
        Just("round % 2 == 0"),
    ]
    .prop_map(FormulaText::from)
}

fn amount() -> impl Strategy<Value = Amount> {
    prop_oneof![
        any::<u32>().prop_map(Amount::Value),
        Just(Amount::Formula(FormulaText::from("owner.stacks + 1"))),
    ]
}

fn trigger() -> impl Strategy<Value = Trigger> {
    prop_oneof![
        proptest::sample::select(Trigger::built_in()),
        Just(Trigger::Custom("OnUnitDies".into())),
    ]
}

fn condition() -> impl Strategy<Value = Condition> {
    prop_oneof![
        Just(Condition::Always),
        formula().prop_map(|formula| Condition::Formula { formula }),
        (0u32..10, 1u32..10, name(), proptest::option::of(formula())).prop_map(
            |(num, den, stream, formula)| Condition::Chance {
                chance: Chance::new(num, den).unwrap(),
                stream,
                formula,
            }
        ),
        (name(), proptest::option::of(any::<u32>()))
            .prop_map(|(status, at_least)| Condition::HasStatus { status, at_least }),
    ]
}

fn operation() -> impl Strategy<Value = Operation> {
    prop_oneof![
        amount().prop_map(|amount| Operation::Damage { amount }),
        amount().prop_map(|amount| Operation::Heal { amount }),
        amount().prop_map(|count| Operation::Draw { count }),
        (name(), amount())
            .prop_map(|(resource, amount)| Operation::GainResource { resource, amount }),
        (name(), amount())
            .prop_map(|(resource, amount)| Operation::SpendResource { resource, amount }),
        (name(), amount(), proptest::option::of(any::<u32>())).prop_map(
            |(status, stacks, duration_turns)| Operation::ApplyStatus {
                status,
                stacks,
                duration_turns
            }
        ),
        (name(), proptest::option::of(amount()))
            .prop_map(|(status, stacks)| Operation::RemoveStatus { status, stacks }),
        (name(), proptest::option::of(amount()))
            .prop_map(|(handler, amount)| Operation::Custom { handler, amount }),
    ]
}

fn row() -> impl Strategy<Value = EffectRow> {
    (
        name(),
        name(),
        any::<u32>(),
        trigger(),
        condition(),
        operation(),
        proptest::sample::select(vec![
            Scope::Self_,
            Scope::Owner,
            Scope::Opponent,
            Scope::Target,
            Scope::AllSeats,
            Scope::ActingSeat,
        ]),
        proptest::sample::select(vec![
            Duration::Permanent,
            Duration::ThisRound,
            Duration::NextRound,
        ]),
    )
        .prop_map(
            |(kind, id, order, trigger, condition, operation, scope, duration)| EffectRow {
                owner: OwnerRef::new(&kind, &id).unwrap(),
                order,
                trigger,
                condition,
                operation,
                scope,
                duration,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn sheet_and_json_give_the_same_effect_rows(rows in proptest::collection::vec(row(), 0..10)) {
        let loader = effect_loader::<turnstile_effects::Plain>();
        let sheet = loader.write_sheet(&rows, EFFECT_COLUMNS).expect("writable");
        let json = loader.write_json(&rows).expect("writable");
        let a = loader.sheet("effects.tsv", &sheet);
        let b = loader.json("effects.json", &json);
        prop_assert!(a.problems.is_empty(), "{:?}\n{}", a.problems, sheet);
        prop_assert!(b.problems.is_empty(), "{:?}\n{}", b.problems, json);
        let a: Vec<EffectRow> = a.rows.into_iter().map(|r| r.value).collect();
        let b: Vec<EffectRow> = b.rows.into_iter().map(|r| r.value).collect();
        prop_assert_eq!(&a, &rows);
        prop_assert_eq!(&b, &rows);
    }
}

#[test]
fn both_forms_compile_to_tables_with_the_same_revision() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/valid_duel_cards.tsv"),
    )
    .unwrap();
    let json = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/valid_duel_cards.json"),
    )
    .unwrap();
    let loader = effect_loader::<turnstile_effects::Plain>();
    let compile = |loaded: turnstile_sheets::Loaded<EffectRow>| {
        assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
        turnstile_effects::EffectTable::compile(
            loaded.rows,
            &common::vocabulary(),
            &common::handlers(),
        )
        .unwrap()
    };
    let a = compile(loader.sheet("cards.tsv", &text));
    let b = compile(loader.json("cards.json", &json));
    let revision = |t: &turnstile_effects::EffectTable| {
        turnstile_core::content::revision_of("duel", t).unwrap()
    };
    assert_eq!(revision(&a), revision(&b));
    assert_eq!(a.len(), 11);
}
