//! The publishing rules, proven by fixtures: one file per rule under `fixtures/invalid/`, with
//! the exact problem lines it must produce in `<rule>.expected`, and sequences that must pass
//! under `fixtures/valid/` (the three presets among them).
//!
//! Every fixture is checked against one context: the schema
//! `phase_condition_schema(&["hp", "mana"], &["spell", "response", "closes_window"], &[])` and the
//! effect ids `refresh-resources`, `draw-card`, `heal`. Run with `UPDATE_EXPECT=1` to rewrite
//! the `.expected` files after a deliberate change of messages, then review the diff.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use turnstile_phases::{
    load_sequence, phase_condition_schema, presets, PhaseCatalog, ValidationContext,
};

const KNOWN_EFFECTS: [&str; 3] = ["refresh-resources", "draw-card", "heal"];

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn json_files(folder: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

/// Validates `input` (read from `file`) and renders its problems one a line, or `ok`.
fn validate(file: &str, input: &str) -> String {
    let schema = phase_condition_schema(
        &["hp", "mana"],
        &["spell", "response", "closes_window"],
        &[],
    )
    .unwrap();
    let known = |id: &str| KNOWN_EFFECTS.contains(&id);
    let context = ValidationContext::new(&schema).with_effects(&known);
    match load_sequence(file, input, &context) {
        Ok(_) => "ok\n".to_owned(),
        Err(problems) => problems.iter().map(|p| format!("{p}\n")).collect(),
    }
}

/// The one helper of this boundary: `input` must validate to exactly `expected`.
fn check(file: &str, input: &str, expected: &str) -> Result<(), String> {
    let actual = validate(file, input);
    if actual == expected {
        Ok(())
    } else {
        Err(format!(
            "{file}:\n--- expected\n{expected}--- actual\n{actual}"
        ))
    }
}

fn codes(rendered: &str) -> BTreeSet<String> {
    rendered
        .lines()
        .filter_map(|line| {
            line.rsplit_once(" (")?
                .1
                .strip_suffix(')')
                .map(str::to_owned)
        })
        .collect()
}

#[test]
fn invalid_fixtures_report_exactly_their_problems() {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = Vec::new();
    let mut seen_codes = BTreeSet::new();
    let files = json_files(&fixtures().join("invalid"));
    assert!(files.len() >= 20, "the invalid fixtures are missing");
    for path in files {
        let file = path.file_name().unwrap().to_str().unwrap();
        let input = fs::read_to_string(&path).unwrap();
        let expected_path = path.with_extension("expected");
        if update {
            fs::write(&expected_path, validate(file, &input)).unwrap();
        }
        let expected = fs::read_to_string(&expected_path)
            .unwrap_or_else(|_| panic!("{} has no .expected file", path.display()));
        assert_ne!(
            expected, "ok\n",
            "{file} is in invalid/ but expects no problem"
        );
        seen_codes.extend(codes(&expected));
        if let Err(failure) = check(file, &input, &expected) {
            failures.push(failure);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    // Every rule has a fixture that proves it.
    for code in [
        "malformed_json",
        "invalid_value",
        "duplicate_key",
        "max_automatic_transitions_out_of_range",
        "empty_id",
        "duplicate_phase_id",
        "duplicate_edge_id",
        "missing_entry_phase",
        "unknown_entry_phase",
        "unknown_target_phase",
        "unknown_effect",
        "end_phase_edge",
        "end_phase_exit_effects",
        "filter_needs_command_trigger",
        "unexpected_end",
        "unexpected_character",
        "unknown_variable",
        "not_a_condition",
        "ambiguous_edges",
        "unreachable_phase",
        "missing_role",
        "dead_end",
        "automatic_cycle",
        "no_activation_exit",
    ] {
        assert!(seen_codes.contains(code), "no fixture proves `{code}`");
    }
}

#[test]
fn valid_fixtures_pass() {
    let files = json_files(&fixtures().join("valid"));
    assert!(files.len() >= 4);
    let failures: Vec<String> = files
        .iter()
        .filter_map(|path| {
            let file = path.file_name().unwrap().to_str().unwrap();
            check(file, &fs::read_to_string(path).unwrap(), "ok\n").err()
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn presets_are_valid_fixtures_and_unchanged_copies() {
    for (file, text) in presets::PRESETS {
        let copy = fs::read_to_string(fixtures().join("valid").join(file)).unwrap();
        assert_eq!(
            copy, text,
            "tests/fixtures/valid/{file} drifted from presets/{file}"
        );
    }
    let schema = phase_condition_schema(&[], &[], &[]).unwrap();
    let known = |id: &str| presets::PRESET_EFFECTS.contains(&id);
    let catalog =
        presets::preset_catalog(&ValidationContext::new(&schema).with_effects(&known)).unwrap();
    let ids: Vec<&str> = catalog.sequences().map(|s| s.sequence_id()).collect();
    assert_eq!(
        ids,
        ["classic-style", "hearthstone-style", "priority-window"]
    );
}

#[test]
fn a_sequence_id_shared_by_two_files_is_refused() {
    let schema = phase_condition_schema(&[], &[], &[]).unwrap();
    let problems = PhaseCatalog::load(
        [
            ("a.json", presets::CLASSIC_STYLE),
            ("b.json", presets::CLASSIC_STYLE),
        ],
        &ValidationContext::new(&schema),
    )
    .unwrap_err();
    let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            "b.json#/sequenceId: sequence `classic-style`: another file of the bundle already \
          defines this id (duplicate_sequence_id)"
        ]
    );
}

#[test]
fn limits_on_phases_and_edges() {
    use turnstile_phases::{
        validate_sequence, EdgeDefinition, EdgeTrigger, PhaseDefinition, PhaseRole,
        PhaseSequenceDefinition, MAX_EDGES_PER_PHASE, MAX_PHASES,
    };
    let schema = phase_condition_schema(&[], &[], &[]).unwrap();
    let context = ValidationContext::new(&schema);
    let phase = |i: usize, edges: usize| PhaseDefinition {
        phase_id: format!("p{i}"),
        role: PhaseRole::Middle,
        order: 0,
        allowed_actions: vec![],
        allowed_command_tags: vec![],
        entry_effects: vec![],
        exit_effects: vec![],
        edges: (0..edges)
            .map(|e| EdgeDefinition {
                edge_id: format!("e{i}-{e}"),
                target_phase_id: "p0".into(),
                trigger: EdgeTrigger::Command,
                priority: e as i64,
                condition: None,
                command_types: vec![],
                command_tags: vec![],
            })
            .collect(),
    };
    let sequence = |phases| PhaseSequenceDefinition {
        sequence_id: "big".into(),
        version: 1,
        entry_phase_id: "p0".into(),
        max_automatic_transitions: 1,
        phases,
    };
    let too_many_phases = (0..=MAX_PHASES).map(|i| phase(i, 0)).collect();
    let problems = validate_sequence("big.json", sequence(too_many_phases), &context).unwrap_err();
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].code, "too_many_phases");

    let too_many_edges = vec![phase(0, MAX_EDGES_PER_PHASE + 1)];
    let problems = validate_sequence("big.json", sequence(too_many_edges), &context).unwrap_err();
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].code, "too_many_edges");
}

#[test]
fn problems_are_the_same_on_every_run() {
    // Determinism of the report itself: same input, same lines, same order.
    for path in json_files(&fixtures().join("invalid")) {
        let input = fs::read_to_string(&path).unwrap();
        assert_eq!(validate("x.json", &input), validate("x.json", &input));
    }
}
