//! The sheet and JSON readers at their boundary, driven by the files in `tests/fixtures/`.
//!
//! Each input (`NAME.tsv` or `NAME.json`) has an expected output `NAME.expected`: the problem
//! lines, one per problem, when the input is invalid; the typed rows in content form when it
//! is valid. A valid sheet and a valid JSON file with the same name share one `.expected`,
//! which proves both forms load to the same typed rows. `TURNSTILE_BLESS=1` rewrites the
//! expected files from the current output (review the diff before committing).

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::TestRow;
use turnstile_sheets::RowLoader;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn bless() -> bool {
    std::env::var_os("TURNSTILE_BLESS").is_some_and(|v| v == "1")
}

/// What loading `input` gives, rendered: the problem lines or the rows.
fn render(loader: &RowLoader<TestRow>, input: &Path) -> String {
    let name = input
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let text = fs::read_to_string(input).unwrap_or_default();
    let loaded = loader.text(name, &text);
    if loaded.problems.is_empty() {
        let rows: Vec<TestRow> = loaded.rows.into_iter().map(|r| r.value).collect();
        loader.write_json(&rows).expect("valid rows write back")
    } else {
        assert!(
            loaded.rows.len() <= 64,
            "good rows are kept beside the problems"
        );
        let mut lines: Vec<String> = loaded.problems.iter().map(ToString::to_string).collect();
        lines.push(String::new());
        lines.join("\n")
    }
}

/// Loads `input` and compares the rendering with the file `expected`.
fn check(loader: &RowLoader<TestRow>, input: &Path, expected: &Path) {
    let actual = render(loader, input);
    if bless() {
        fs::write(expected, &actual).expect("write expected");
        return;
    }
    let wanted = fs::read_to_string(expected).unwrap_or_else(|_| {
        panic!(
            "{} has no expected file {}",
            input.display(),
            expected.display()
        )
    });
    assert_eq!(
        actual,
        wanted,
        "{} does not give {}",
        input.display(),
        expected.display()
    );
}

#[test]
fn every_fixture_gives_its_expected_output() {
    let loader = RowLoader::<TestRow>::new();
    let mut inputs: Vec<PathBuf> = fs::read_dir(fixtures())
        .expect("fixtures folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("tsv" | "json")))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 20, "the fixtures folder is complete");
    for input in &inputs {
        check(&loader, input, &input.with_extension("expected"));
    }
}

#[test]
fn valid_and_invalid_fixtures_are_both_present() {
    let loader = RowLoader::<TestRow>::new();
    let mut valid = 0;
    let mut invalid = 0;
    for entry in fs::read_dir(fixtures()).expect("fixtures folder") {
        let path = entry.expect("entry").path();
        let Some(ext) = path.extension().and_then(|e| e.to_str()) else {
            continue;
        };
        if ext != "tsv" && ext != "json" {
            continue;
        }
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let loaded = loader.text(name, &fs::read_to_string(&path).expect("read"));
        // Names tell what a fixture is meant to be; a fixture that changes sides fails here.
        assert_eq!(
            loaded.problems.is_empty(),
            name.starts_with("valid_"),
            "{name}: {:?}",
            loaded.problems
        );
        if loaded.problems.is_empty() {
            valid += 1;
        } else {
            invalid += 1;
        }
    }
    assert!(
        valid >= 4 && invalid >= 15,
        "{valid} valid, {invalid} invalid"
    );
}
