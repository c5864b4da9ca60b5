//! Content: the bundled content loads; every broken bundle under tests/fixtures/<case>/ (the
//! bundled content with those files replaced) is refused with exactly the problem lines of
//! its `expected.txt`, each naming file and row and column, or pointer
//! (`TURNSTILE_BLESS=1` rewrites them); content survives a serde round trip with the same
//! revision; the phase-sequence schema mirror reads every preset as the phases crate does.

mod common;

use std::path::{Path, PathBuf};

use turnstile_core::Game;
use turnstile_duel::{content::bundled_source, schema::PhaseSequenceSchema, Duel, DuelContent};
use turnstile_phases::PhaseSequenceDefinition;

fn files_under(dir: &Path, prefix: &str, out: &mut Vec<(String, PathBuf)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            files_under(&path, &format!("{prefix}{name}/"), out);
        } else if name != "expected.txt" {
            out.push((format!("{prefix}{name}"), path));
        }
    }
}

#[test]
fn the_bundled_content_loads_with_thirty_cards_and_no_custom_rows() {
    let b = common::bundle();
    assert!(b.content.cards.len() >= 30);
    assert_eq!(b.content.effects.table.custom_row_count(), 0);
    assert_eq!(b.content.phases.definitions.len(), 3);
}

#[test]
fn broken_bundles_are_refused_with_every_problem_located() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    cases.sort();
    assert!(cases.len() >= 6);
    let bless = std::env::var_os("TURNSTILE_BLESS").is_some_and(|v| v == "1");
    for case in cases {
        let mut source = bundled_source();
        let mut files = Vec::new();
        files_under(&case, "", &mut files);
        for (path, file) in files {
            source.insert(path, std::fs::read(file).unwrap());
        }
        let problems = Duel::load_content(&source).expect_err("a broken bundle must be refused");
        let mut text: String = problems.iter().map(|p| format!("{p}\n")).collect();
        text = text.replace('\r', "");
        let expected = case.join("expected.txt");
        if bless {
            std::fs::write(&expected, &text).unwrap();
        }
        let committed = std::fs::read_to_string(&expected).unwrap_or_default();
        assert_eq!(committed, text, "{}", case.display());
    }
}

#[test]
fn content_round_trips_through_serde_with_the_same_revision() {
    let b = common::bundle();
    let text = serde_json::to_string(&b.content).unwrap();
    let back: DuelContent = serde_json::from_str(&text).unwrap();
    assert_eq!(back, b.content);
    assert_eq!(back.revision, b.content.revision);
    assert_eq!(
        back.revision, b.revision,
        "the pinned revision is the bundle's"
    );
}

#[test]
fn mirror_reads_every_preset_as_phases_does() {
    for (_, text) in turnstile_phases::presets::PRESETS {
        let real: PhaseSequenceDefinition = serde_json::from_str(text).unwrap();
        let mirror: PhaseSequenceSchema = serde_json::from_str(text).unwrap();
        assert_eq!(
            serde_json::to_value(&real).unwrap(),
            serde_json::to_value(&mirror).unwrap()
        );
    }
}

/// Duel publishes the engine's three presets as its default content: its copies under
/// `content/phases/` are the phases crate's files, byte for byte, so a preset fixed there
/// cannot silently drift here.
#[test]
fn the_default_content_publishes_the_three_presets_unchanged() {
    let source = bundled_source();
    for (file, text) in turnstile_phases::presets::PRESETS {
        let path = format!("phases/{file}");
        let shipped = source
            .files
            .get(&path)
            .unwrap_or_else(|| panic!("{path} is not in the default content"));
        assert_eq!(
            shipped.as_slice(),
            text.as_bytes(),
            "{path} differs from the preset"
        );
    }
    let bundle = common::bundle();
    for (file, _) in turnstile_phases::presets::PRESETS {
        let id = file.trim_end_matches(".json");
        assert!(
            bundle.content.phases.catalog.get(id).is_some(),
            "{id} is not published"
        );
    }
}
