//! Conformance vectors of the effect executor (docs/effects-vectors.json, described in
//! docs/effects.md): each vector's rows are loaded as a sheet, its owners placed in the
//! neutral two-seat test world, its event resolved, and the steps written must be exactly the
//! expected ones. Every vector is worked out by hand (`worked`), so none is ever rewritten:
//! a disagreement is a failing test to settle against docs/effects.md.

mod common;

use std::collections::BTreeSet;

use common::{handlers, render, seat, sheet, table, World};
use serde_json::Value;
use turnstile_core::Seat;
use turnstile_effects::{Event, Executor, Target, Trigger};

fn vectors() -> Value {
    let text = include_str!("../../../docs/effects-vectors.json");
    serde_json::from_str(text).expect("docs/effects-vectors.json is JSON")
}

/// `seat0`, `seat1`: the seats the vectors name.
fn target(name: &str) -> Target {
    match name {
        "seat0" => seat(0),
        "seat1" => seat(1),
        other => panic!("vector target `{other}`: write seat0 or seat1"),
    }
}

/// The engine triggers a vector's event may name.
fn trigger(name: &str) -> Trigger {
    match name {
        "OnTurnStart" => Trigger::OnTurnStart,
        "OnTurnEnd" => Trigger::OnTurnEnd,
        "OnRoundStart" => Trigger::OnRoundStart,
        "OnRoundEnd" => Trigger::OnRoundEnd,
        other => panic!("vector event trigger `{other}` is not one the vectors use"),
    }
}

fn seat_of(value: &Value) -> u16 {
    let n = value.as_u64().expect("a seat number");
    u16::try_from(n).expect("a seat fits u16")
}

fn steps_of(vector: &Value) -> Vec<String> {
    let rows: Vec<Vec<(String, String)>> = (vector["rows"].as_array().expect("rows").iter())
        .map(|row| {
            (row.as_object().expect("a row is an object").iter())
                .map(|(k, v)| (k.clone(), v.as_str().expect("cells are text").to_owned()))
                .collect()
        })
        .collect();
    let borrowed: Vec<Vec<(&str, &str)>> = rows
        .iter()
        .map(|r| r.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect())
        .collect();
    let slices: Vec<&[(&str, &str)]> = borrowed.iter().map(Vec::as_slice).collect();
    let table = table(&sheet(&slices));
    let mut world = World::new();
    for set in vector["set"].as_array().into_iter().flatten() {
        let resource = set["resource"].as_str().expect("a resource");
        let value = set["value"].as_i64().expect("a value");
        world.set(
            target(set["target"].as_str().expect("a target")),
            resource,
            value,
        );
    }
    for placed in vector["place"].as_array().expect("place") {
        let s = seat_of(&placed["seat"]);
        world.place(
            placed["owner"].as_str().expect("an owner"),
            seat(s),
            Some(Seat(s)),
        );
    }
    let event = &vector["event"];
    let event = Event::new(trigger(event["trigger"].as_str().expect("a trigger")))
        .by(Seat(seat_of(&event["seat"])));
    let handlers = handlers();
    let mut executor = Executor::new(&table, &handlers);
    let mut steps = Vec::new();
    executor
        .resolve(&mut world, event, &mut steps)
        .unwrap_or_else(|e| panic!("{e}"));
    render(&steps)
}

#[test]
fn every_vector_writes_the_expected_steps() {
    let doc = vectors();
    let mut names = BTreeSet::new();
    let mut failures = Vec::new();
    for vector in doc["vectors"].as_array().expect("a `vectors` array") {
        let name = vector["name"].as_str().expect("a name");
        assert!(names.insert(name), "vector name `{name}` repeats");
        assert_eq!(
            vector["source"], "hand",
            "`{name}`: effect vectors are hand-worked"
        );
        let worked = vector["worked"].as_str().unwrap_or_default();
        assert!(!worked.trim().is_empty(), "`{name}` shows no arithmetic");
        let expected: Vec<String> = (vector["expected"]["steps"].as_array().expect("steps"))
            .iter()
            .map(|s| s.as_str().expect("a step line").to_owned())
            .collect();
        let got = steps_of(vector);
        if got != expected {
            failures.push(format!(
                "`{name}` ({worked}):\n  expected {expected:?}\n  got      {got:?}"
            ));
        }
    }
    assert!(names.len() >= 10, "keep at least 10 effect vectors");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
