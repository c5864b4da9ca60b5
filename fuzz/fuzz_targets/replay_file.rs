//! Fuzzes replay reading and verification: malformed files are errors, never panics.
#![no_main]
use libfuzzer_sys::fuzz_target;
use turnstile_runtime::{GameRegistry, ReplayFile};

fuzz_target!(|text: &str| {
    if let Ok(file) = ReplayFile::parse(text) {
        let mut registry = GameRegistry::new();
        registry.register::<turnstile_sokoban::Sokoban>();
        let _ = registry.verify_replay(&file);
    }
});
