//! Property: any rows, written as a sheet and as a JSON rows file, load back from both to
//! exactly the same typed rows — the two content forms are one typed form.

mod common;

use common::{TestCondition, TestOperation, TestRow, TestTrigger, COLUMNS};
use proptest::prelude::*;
use turnstile_core::determinism::Fixed;
use turnstile_sheets::RowLoader;

fn word() -> impl Strategy<Value = String> {
    "[a-z][a-z0-9_]{0,8}"
}

fn text() -> impl Strategy<Value = String> {
    // Text a cell can hold: no tabs or line breaks, no surrounding spaces, and not a number
    // (the free-text `note` column is typed as text, so digits are fine there too).
    "[A-Za-z][A-Za-z0-9 ,:!?<>=.+*-]{0,20}[A-Za-z0-9]"
}

fn trigger() -> impl Strategy<Value = TestTrigger> {
    prop_oneof![
        Just(TestTrigger::OnCardPlayed),
        Just(TestTrigger::OnTurnStart),
        Just(TestTrigger::Passive),
    ]
}

fn condition() -> impl Strategy<Value = TestCondition> {
    prop_oneof![
        Just(TestCondition::Always),
        text().prop_map(|formula| TestCondition::Formula { formula }),
        (word(), any::<i64>())
            .prop_map(|(resource, amount)| TestCondition::AtLeast { resource, amount }),
    ]
}

fn operation() -> impl Strategy<Value = TestOperation> {
    prop_oneof![
        any::<u32>().prop_map(|amount| TestOperation::Damage { amount }),
        any::<i64>().prop_map(|raw| TestOperation::AddMult {
            mult: Fixed::from_raw(raw)
        }),
        (word(), any::<u8>(), proptest::option::of(any::<u32>())).prop_map(
            |(status, stacks, duration_turns)| TestOperation::ApplyStatus {
                status,
                stacks,
                duration_turns
            }
        ),
        word().prop_map(|handler| TestOperation::Custom { handler }),
    ]
}

fn row() -> impl Strategy<Value = TestRow> {
    (
        word(),
        any::<u32>(),
        trigger(),
        condition(),
        operation(),
        proptest::option::of(text()),
        proptest::option::of(any::<bool>()),
    )
        .prop_map(
            |(owner, order, trigger, condition, operation, note, hidden)| TestRow {
                owner: format!("card:{owner}"),
                order,
                trigger,
                condition,
                operation,
                note,
                hidden,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn sheet_and_json_load_to_the_same_rows(rows in proptest::collection::vec(row(), 0..12)) {
        let loader = RowLoader::<TestRow>::new();
        let sheet = loader.write_sheet(&rows, COLUMNS).expect("writable");
        let json = loader.write_json(&rows).expect("writable");
        let from_sheet = loader.sheet("rows.tsv", &sheet);
        let from_json = loader.json("rows.json", &json);
        prop_assert!(from_sheet.problems.is_empty(), "{:?}\n{}", from_sheet.problems, sheet);
        prop_assert!(from_json.problems.is_empty(), "{:?}\n{}", from_json.problems, json);
        let a: Vec<TestRow> = from_sheet.rows.into_iter().map(|r| r.value).collect();
        let b: Vec<TestRow> = from_json.rows.into_iter().map(|r| r.value).collect();
        prop_assert_eq!(&a, &rows);
        prop_assert_eq!(&b, &rows);
    }
}

#[test]
fn a_fixed_written_as_a_whole_number_is_that_number() {
    let loader = RowLoader::<TestRow>::new();
    let header = COLUMNS.join("\t");
    let mut cells = vec![""; COLUMNS.len()];
    cells[0] = "joker:x";
    cells[1] = "0";
    cells[2] = "Passive";
    cells[3] = "Always";
    cells[7] = "AddMult";
    cells[9] = "2";
    let text = format!("{header}\n{}\n", cells.join("\t"));
    let loaded = loader.sheet("x.tsv", &text);
    assert_eq!(loaded.problems, vec![]);
    assert_eq!(
        loaded.rows[0].value.operation,
        TestOperation::AddMult {
            mult: Fixed::from_raw(20_000)
        }
    );
}
