//! `docs/writing-a-game.md` can't drift from the code: every Rust snippet in it must still appear
//! in the sources it walks through — Nim's, the game kit's, the registry's in `crates/samples`,
//! Tic-Tac-Toe's — line by line, ignoring indentation (`// …` marks a cut), and every JSON snippet
//! must parse, one of them being the kit's standard turn configs as they are.

use std::path::{Path, PathBuf};

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`, as trimmed lines.
fn sources(dir: &Path, found: &mut Vec<(PathBuf, Vec<String>)>) {
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
            found.push((path, text.lines().map(|l| l.trim().to_string()).collect()));
        }
    }
}

/// The fenced blocks of `language` in a Markdown text.
fn blocks<'t>(text: &'t str, language: &str) -> Vec<Vec<&'t str>> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<&str>> = None;
    for line in text.lines() {
        let fence = line.trim_start();
        match &mut current {
            None if fence == format!("```{language}") => current = Some(Vec::new()),
            Some(_) if fence == "```" => blocks.extend(current.take()),
            Some(block) => block.push(line),
            None => {}
        }
    }
    blocks
}

#[test]
fn every_rust_snippet_of_the_guide_is_in_the_sources() {
    let guide =
        std::fs::read_to_string(manifest_dir().join("../../docs/writing-a-game.md")).unwrap();
    let mut files = Vec::new();
    for dir in [
        "src",
        "tests",
        "../../crates/kit/src",
        "../../crates/samples/src",
        "../tictactoe/src",
    ] {
        sources(&manifest_dir().join(dir), &mut files);
    }
    let snippets = blocks(&guide, "rust");
    assert!(
        snippets.len() >= 10,
        "the guide shows the code: {} snippets",
        snippets.len()
    );
    for snippet in snippets {
        let lines: Vec<String> = snippet.iter().map(|l| l.trim().to_string()).collect();
        for part in lines.split(|l| l == "// …") {
            let part: Vec<&String> = part.iter().filter(|l| !l.is_empty()).collect();
            if part.is_empty() {
                continue;
            }
            let found = files.iter().any(|(_, file)| {
                let file: Vec<&String> = file.iter().filter(|l| !l.is_empty()).collect();
                file.windows(part.len()).any(|w| w == part.as_slice())
            });
            assert!(
                found,
                "this snippet of the guide is not in the sources:\n{}",
                part.iter()
                    .map(|l| l.as_str())
                    .collect::<Vec<_>>()
                    .join("\n")
            );
        }
    }
}

#[test]
fn every_json_snippet_of_the_guide_parses_and_the_rules_are_the_real_ones() {
    let guide =
        std::fs::read_to_string(manifest_dir().join("../../docs/writing-a-game.md")).unwrap();
    let rules: serde_json::Value = serde_json::from_str(turnstile_kit::STANDARD_RULES).unwrap();
    let mut shown_rules = false;
    for snippet in blocks(&guide, "json") {
        let value: serde_json::Value = serde_json::from_str(&snippet.join("\n")).unwrap();
        shown_rules |= value == rules;
    }
    assert!(
        shown_rules,
        "the guide shows the kit's standard turn configs as they are"
    );
}
