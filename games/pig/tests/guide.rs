//! Section 9 of `docs/writing-a-game.md` (the Pig walk-through) can't drift from the code:
//! every snippet fenced ```` ```rust pig ```` must still appear in Pig's sources or the
//! registry's (`crates/samples`), line by line, ignoring indentation (`// …` marks a cut), and
//! the section's JSON must be the shipped `rules.json` and `phases/pig.json` as they are.

use std::path::{Path, PathBuf};

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn guide() -> String {
    std::fs::read_to_string(manifest_dir().join("../../docs/writing-a-game.md")).unwrap()
}

/// Every `.rs` file under `dir`, as trimmed, non-empty lines.
fn sources(dir: &Path, found: &mut Vec<Vec<String>>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            found.push(
                text.lines()
                    .map(|l| l.trim().to_string())
                    .filter(|l| !l.is_empty())
                    .collect(),
            );
        }
    }
}

/// The fenced blocks whose info string is exactly `info`.
fn blocks<'t>(text: &'t str, info: &str) -> Vec<Vec<&'t str>> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<&str>> = None;
    for line in text.lines() {
        let fence = line.trim_start();
        match &mut current {
            None if fence == format!("```{info}") => current = Some(Vec::new()),
            Some(_) if fence == "```" => blocks.extend(current.take()),
            Some(block) => block.push(line),
            None => {}
        }
    }
    blocks
}

#[test]
fn every_rust_snippet_of_the_pig_section_is_in_the_sources() {
    let mut files = Vec::new();
    for dir in ["src", "../../crates/samples/src"] {
        sources(&manifest_dir().join(dir), &mut files);
    }
    let guide = guide();
    let snippets = blocks(&guide, "rust pig");
    assert!(
        snippets.len() >= 10,
        "the Pig section shows the code: {} snippets",
        snippets.len()
    );
    for snippet in snippets {
        let lines: Vec<String> = snippet.iter().map(|l| l.trim().to_string()).collect();
        for part in lines.split(|l| l == "// …") {
            let part: Vec<String> = part.iter().filter(|l| !l.is_empty()).cloned().collect();
            if part.is_empty() {
                continue;
            }
            let found = files
                .iter()
                .any(|file| file.windows(part.len()).any(|w| w == part.as_slice()));
            assert!(
                found,
                "this snippet of the Pig section is not in the sources:\n{}",
                part.join("\n")
            );
        }
    }
}

#[test]
fn the_pig_section_shows_the_shipped_content_as_it_is() {
    let content = |path: &str| -> serde_json::Value {
        let text = std::fs::read_to_string(manifest_dir().join("content").join(path)).unwrap();
        serde_json::from_str(&text).unwrap()
    };
    let shown: Vec<serde_json::Value> = blocks(&guide(), "json")
        .into_iter()
        .map(|b| serde_json::from_str(&b.join("\n")).unwrap())
        .collect();
    for path in ["rules.json", "phases/pig.json"] {
        assert!(
            shown.contains(&content(path)),
            "the guide shows games/pig/content/{path} as it is"
        );
    }
}
