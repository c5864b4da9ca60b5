//! The one staleness test of the committed JSON Schemas: every document
//! `turnstile content schema` would write must equal the file committed under docs/schemas/,
//! and every content file of every game follows one of them.
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

fn files_under(dir: &Path, prefix: &str, out: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            files_under(&path, &format!("{prefix}{name}/"), out);
        } else {
            out.push(format!("{prefix}{name}"));
        }
    }
}

/// Every JSON file and sheet under every `games/*/content/` is mapped to a published schema
/// (a new file without one fails here), and each JSON file of a game whose types have no
/// runtime reader of their own parses with the schema's type.
#[test]
fn every_content_file_of_every_game_has_a_schema() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let published: Vec<String> = content_schemas::documents()
        .iter()
        .map(|d| d.file_name().trim_end_matches(".schema.json").to_owned())
        .collect();
    let mut games: Vec<_> = std::fs::read_dir(root.join("games"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("content").is_dir())
        .collect();
    games.sort();
    assert!(games.len() >= 5);
    let mut missing = Vec::new();
    for game in games {
        let id = game.file_name().unwrap().to_string_lossy().into_owned();
        let mut files = Vec::new();
        files_under(&game.join("content"), "", &mut files);
        for path in files {
            if !(path.ends_with(".json") || path.ends_with(".tsv")) {
                continue;
            }
            match content_schemas::schema_of(&id, &path) {
                Some(schema) if published.iter().any(|p| p == schema) => {}
                other => missing.push(format!("{id}/{path}: {other:?}")),
            }
        }
    }
    assert!(
        missing.is_empty(),
        "content files without a published schema: {missing:?}"
    );

    let text = |path: &str| std::fs::read_to_string(root.join(path)).unwrap();
    let manifest: turnstile_clover::CloverManifest =
        serde_json::from_str(&text("games/clover/content/bundle.json")).unwrap();
    assert_eq!(manifest.game, "clover");
    let rows: Vec<turnstile_clover::vocabulary::EffectRow> =
        serde_json::from_str(&text("games/clover/content/run.json")).unwrap();
    assert!(!rows.is_empty());
    for game in ["connect4", "tictactoe"] {
        let rules: content_schemas::TurnRulesSchema =
            serde_json::from_str(&text(&format!("games/{game}/content/rules.json"))).unwrap();
        assert!(
            rules.turn_configs.contains_key(&rules.default_turn_config),
            "{game}"
        );
    }
}
