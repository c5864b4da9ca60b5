//! The one staleness test of the committed JSON Schemas: every document
//! `turnstile content schema` would write must equal the file committed under docs/schemas/.
//! `TURNSTILE_BLESS=1 cargo test -p turnstile-cli --test schemas` rewrites them.

#[path = "../src/content_schemas.rs"]
mod content_schemas;

use std::path::Path;

#[test]
fn committed_schemas_are_the_generated_ones() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = root.join(content_schemas::SCHEMA_DIR);
    let bless = std::env::var_os("TURNSTILE_BLESS").is_some_and(|v| v == "1");
    let mut stale = Vec::new();
    for document in content_schemas::documents() {
        let path = dir.join(document.file_name());
        if bless {
            std::fs::write(&path, document.to_text()).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if !document.is_current(&committed) {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "stale schemas (regenerate with TURNSTILE_BLESS=1 cargo test -p turnstile-cli --test schemas, or `turnstile content schema`): {stale:?}"
    );
}

#[test]
fn the_mirrors_read_content_as_the_real_types_do() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for game in ["sokoban", "connect4", "tictactoe", "duel"] {
        let text = std::fs::read_to_string(root.join(format!("games/{game}/content/bundle.json")))
            .unwrap();
        let real: turnstile_core::BundleManifest = serde_json::from_str(&text).unwrap();
        let mirror: content_schemas::BundleManifestSchema = serde_json::from_str(&text).unwrap();
        assert_eq!(
            serde_json::to_value(&real).unwrap(),
            serde_json::to_value(&mirror).unwrap(),
            "{game}"
        );
    }
    for text in [
        "{}",
        r#"{"usesTimer": true, "turnDurationTicks": 300, "forfeitAfterTimeouts": 3}"#,
        r#"{"usesTimer": true, "turnDurationTicks": 50, "isSkippable": true}"#,
    ] {
        let real: turnstile_turns::TurnConfig = serde_json::from_str(text).unwrap();
        let mirror: content_schemas::TurnConfigSchema = serde_json::from_str(text).unwrap();
        assert_eq!(
            serde_json::to_value(&real).unwrap(),
            serde_json::to_value(&mirror).unwrap(),
            "{text}"
        );
    }
}
