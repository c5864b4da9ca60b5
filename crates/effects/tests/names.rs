//! The engine names no game: its sources (`src/`) carry none of the words of the games built
//! on it — not in identifiers, strings or docs. A game's triggers, scopes and operations are
//! declared by the game (docs/effects.md, "A game's own vocabulary"); a word here means the
//! engine has grown a game's vocabulary again.
//!
//! The match is a plain case-insensitive substring, so a generic word that happens to hold
//! one (a "multiplier") is renamed rather than excused: the list stays exact.

use std::path::Path;

/// Words of clover and Duel that the engine must not say.
const GAME_WORDS: &[&str] = &[
    "joker", "chips", "mult", "blind", "ante", "shop", "tarot", "planet", "boss", "mana", "spell",
    "clover", "duel",
];

/// Every `file:line: word` of `text` that holds a game word.
fn findings(file: &str, text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let lower = line.to_ascii_lowercase();
        for word in GAME_WORDS {
            if lower.contains(word) {
                found.push(format!("{file}:{}: `{word}` in {line:?}", number + 1));
            }
        }
    }
    found
}

#[test]
fn the_engine_sources_name_no_game() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files: Vec<_> = std::fs::read_dir(&src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "the sources were not found in {src:?}");
    let mut found = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        found.extend(findings(&name, &text));
    }
    assert!(
        found.is_empty(),
        "the engine names a game:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_finds_a_game_word_in_any_case() {
    assert_eq!(findings("a.rs", "fn add(x: u8) {}\n"), Vec::<String>::new());
    assert_eq!(
        findings("a.rs", "// Plain words.\nlet AllJokers = 1;\n").len(),
        1
    );
    assert_eq!(findings("a.rs", "\"MulMult\"").len(), 1);
    assert_eq!(findings("a.rs", "OnBossDefeated").len(), 1);
    assert!(findings("a.rs", "a Mana cost")
        .first()
        .unwrap()
        .starts_with("a.rs:1:"));
}
