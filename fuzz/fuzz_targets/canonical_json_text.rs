//! Fuzzes the exact-integer canonicalizer: any text is canonicalized or refused, and
//! canonical output is a fixed point.
#![no_main]
use libfuzzer_sys::fuzz_target;
use turnstile_determinism::canonical::from_json_text;

fuzz_target!(|text: &str| {
    if let Ok(bytes) = from_json_text(text) {
        let again = from_json_text(std::str::from_utf8(&bytes).expect("canonical JSON is UTF-8"))
            .expect("canonical JSON reloads");
        assert_eq!(again, bytes);
    }
});
