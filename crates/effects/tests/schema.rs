//! The committed JSON Schema of effect rows (`docs/schemas/effect-row.schema.json`) must be
//! what the Rust types generate. After a deliberate change of the row types, regenerate it:
//!
//! ```text
//! TURNSTILE_BLESS=1 cargo test -p turnstile-effects --test schema
//! ```

use std::path::Path;

use turnstile_sheets::schema_documents;

#[test]
fn committed_schemas_are_current() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/schemas");
    let bless = std::env::var_os("TURNSTILE_BLESS").is_some_and(|v| v == "1");
    let documents = schema_documents(turnstile_effects::SCHEMAS);
    assert_eq!(documents.len(), 1);
    for document in documents {
        let path = folder.join(document.file_name());
        if bless {
            std::fs::create_dir_all(&folder).unwrap();
            std::fs::write(&path, document.to_text()).unwrap();
            continue;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            document.is_current(&committed),
            "{} is stale: regenerate it with TURNSTILE_BLESS=1 cargo test -p turnstile-effects --test schema",
            path.display()
        );
    }
}

#[test]
fn the_schema_describes_what_the_loader_reads() {
    let document = &schema_documents(turnstile_effects::SCHEMAS)[0];
    let text = document.to_text();
    for needle in [
        "\"$type\"",
        "\"Always\"",
        "\"OnCardPlayed\"",
        "\"ThisRound\"",
        "\"durationTurns\"",
        "\"Self\"",
    ] {
        assert!(text.contains(needle), "{needle} is missing from the schema");
    }
    assert_eq!(document.name, "effect-row");
    assert_eq!(document.file_name(), "effect-row.schema.json");
}
