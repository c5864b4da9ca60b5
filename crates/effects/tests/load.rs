//! Loading effect rows at the boundary, driven by the files in `tests/fixtures/`: each input
//! (`NAME.tsv` or `NAME.json`) has `NAME.expected` — the problem lines when it is invalid, the
//! rows in content form when it is valid (a valid sheet and JSON file with one name share it,
//! which proves both forms load to the same rows). `TURNSTILE_BLESS=1` rewrites the expected
//! files; review the diff.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{handlers, vocabulary};
use turnstile_core::BundleSource;
use turnstile_effects::{effect_loader, EffectRow, EffectTable};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn render(input: &Path) -> String {
    let name = input
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let mut source = BundleSource::new();
    source.insert(name, fs::read(input).expect("read fixture"));
    match EffectTable::load(&source, &[name], &vocabulary(), &handlers()) {
        Ok(table) => {
            let rows: Vec<EffectRow> = table.rows().to_vec();
            effect_loader::<turnstile_effects::Plain>()
                .write_json(&rows)
                .expect("rows write back")
        }
        Err(problems) => {
            let mut lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
            lines.push(String::new());
            lines.join("\n")
        }
    }
}

fn check(input: &Path, expected: &Path) {
    let actual = render(input);
    if std::env::var_os("TURNSTILE_BLESS").is_some_and(|v| v == "1") {
        fs::write(expected, &actual).expect("write expected");
        return;
    }
    let wanted = fs::read_to_string(expected)
        .unwrap_or_else(|_| panic!("{} has no {}", input.display(), expected.display()));
    assert_eq!(actual, wanted, "{}", input.display());
}

#[test]
fn every_fixture_gives_its_expected_output() {
    let mut inputs: Vec<PathBuf> = fs::read_dir(fixtures())
        .expect("fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("tsv" | "json")))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 10);
    for input in &inputs {
        check(input, &input.with_extension("expected"));
        let name = input
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let valid = !render(input).contains("\n") || render(input).starts_with('[');
        assert_eq!(valid, name.starts_with("valid_"), "{name} changed sides");
    }
}

#[test]
fn problems_from_several_files_are_reported_together() {
    let mut source = BundleSource::new();
    source.insert(
        "a.tsv",
        fs::read(fixtures().join("unknown_handler.tsv")).unwrap(),
    );
    source.insert(
        "b.json",
        fs::read(fixtures().join("json_load_problems.json")).unwrap(),
    );
    let problems = EffectTable::load(
        &source,
        &["a.tsv", "b.json", "missing.tsv"],
        &vocabulary(),
        &handlers(),
    )
    .unwrap_err();
    let files: std::collections::BTreeSet<&str> =
        problems.iter().map(|p| p.file.as_str()).collect();
    assert_eq!(
        files.into_iter().collect::<Vec<_>>(),
        ["a.tsv", "b.json", "missing.tsv"]
    );
}

#[test]
fn the_sheets_in_the_docs_load() {
    for page in ["effects.md", "sheets.md"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../docs")
            .join(page);
        let docs = fs::read_to_string(&path).expect("a docs page");
        let start = docs.find("```text\nowner\t").expect("an example sheet") + "```text\n".len();
        let end = start + docs[start..].find("```").expect("its end");
        let mut source = BundleSource::new();
        source.insert("docs.tsv", &docs[start..end]);
        let table = EffectTable::load(&source, &["docs.tsv"], &vocabulary(), &handlers())
            .unwrap_or_else(|p| panic!("{page}: {p:?}"));
        assert!(table.len() >= 2, "{page}");
    }
}
