//! The JSON Schemas `turnstile content schema` writes: every content file type of every game
//! that publishes them, generated from the Rust types. Shared, by path, with the staleness
//! test (`crates/cli/tests/schemas.rs`), so the command and the test can never list different
//! schemas.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use turnstile_sheets::{schema_documents, SchemaDocument, SchemaEntry};

/// A bundle's manifest, `bundle.json` (every game's, Sokoban's included): a mirror of
/// `turnstile_core::BundleManifest`, whose crate has no `JsonSchema` derive; the staleness
/// test checks that both read the bundled manifests alike.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(title = "BundleManifest")]
pub struct BundleManifestSchema {
    /// The game id.
    pub game: String,
    /// A title, for people.
    #[serde(default)]
    pub title: Option<String>,
    /// The files of the bundle.
    pub files: Vec<ManifestFileSchema>,
}

/// One file of a bundle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ManifestFileSchema {
    /// Unique in the bundle.
    pub id: String,
    /// The kind, one the game reads.
    pub kind: String,
    /// Relative, with `/` separators.
    pub path: String,
}

/// A turn config: a mirror of `turnstile_turns::TurnConfig` (no `JsonSchema` derive there),
/// checked against it by the staleness test.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
#[schemars(title = "TurnConfig")]
pub struct TurnConfigSchema {
    /// Whether turns are timed.
    pub uses_timer: bool,
    /// The turn's length in ticks, when timed.
    pub turn_duration_ticks: u32,
    /// Whether a seat may skip.
    pub is_skippable: bool,
    /// Timeouts in a row after which a seat forfeits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forfeit_after_timeouts: Option<u32>,
}

/// A kit game's `rules.json` (Connect Four's, Tic-Tac-Toe's): its turn configs and the
/// default one — a mirror of `turnstile_kit::Rules`, which is read field by field, checked
/// against the committed files by the staleness test.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(title = "TurnRules")]
pub struct TurnRulesSchema {
    /// The config of a match whose config names none; one of `turnConfigs`.
    pub default_turn_config: String,
    /// The turn configs a match may choose among, by id.
    pub turn_configs: std::collections::BTreeMap<String, TurnConfigSchema>,
}

/// Every published schema document, in a fixed order: the engine's (effect rows, the bundle
/// manifest, turn configs), then each registered game's, by game id. A game brings its schemas
/// with its registration (`turnstile_runtime::ContentSchemas`), so this list names no game; a
/// name two sources publish is written once, from the first.
pub fn documents() -> Vec<SchemaDocument> {
    let mut entries = Vec::new();
    entries.extend_from_slice(turnstile_effects::SCHEMAS);
    entries.push(SchemaEntry::of::<BundleManifestSchema>("bundle-manifest"));
    entries.push(SchemaEntry::of::<TurnConfigSchema>("turn-config"));
    entries.push(SchemaEntry::of::<TurnRulesSchema>("turn-rules"));
    let mut documents = schema_documents(&entries);
    let registry = turnstile_samples::registry();
    for id in registry.ids() {
        let Some(schemas) = registry.get(id).and_then(|g| g.content_schemas()) else {
            continue;
        };
        for (name, schema) in schemas.documents() {
            if !documents.iter().any(|d| d.name == name) {
                documents.push(SchemaDocument { name, schema });
            }
        }
    }
    documents
}

/// Which published schema each content file of a game's bundle follows, by the file's path
/// under `games/<game>/content/`: what the game's registration says, else the engine's
/// manifest schema for `bundle.json`, else `None` (Sokoban's XSB levels, credits). The
/// staleness test walks every game's content folder through this, so a new content file
/// without a schema fails it.
#[allow(
    dead_code,
    reason = "read by tests/schemas.rs, which compiles this file as a module of its own"
)]
pub fn schema_of(game: &str, path: &str) -> Option<&'static str> {
    let registry = turnstile_samples::registry();
    registry
        .get(game)
        .and_then(|g| g.content_schemas())
        .and_then(|schemas| schemas.file(path))
        .or_else(|| (path == "bundle.json").then_some("bundle-manifest"))
}

/// The folder the documents are committed in, relative to the workspace root.
pub const SCHEMA_DIR: &str = "docs/schemas";
