//! Fuzzes both Sokoban level formats: any text must parse or fail with located errors, and
//! every level that loads must round-trip through its canonical rows.
#![no_main]
use libfuzzer_sys::fuzz_target;
use turnstile_sokoban::{parse_collection, parse_numeric, Level};

fuzz_target!(|text: &str| {
    for level in parse_collection(text, "fuzz.xsb").valid_levels() {
        let json = serde_json::to_string(level).expect("levels serialize");
        let back: Level = serde_json::from_str(&json).expect("canonical rows reload");
        assert_eq!(&back, level);
    }
    let _ = parse_numeric(text, "fuzz.txt");
});
