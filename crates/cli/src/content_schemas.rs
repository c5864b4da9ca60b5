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

/// Every published schema document, in a fixed order: the engine's effect row, then each
/// game's content types.
pub fn documents() -> Vec<SchemaDocument> {
    let mut entries = Vec::new();
    entries.extend_from_slice(turnstile_effects::SCHEMAS);
    entries.extend_from_slice(turnstile_duel::SCHEMAS);
    entries.extend_from_slice(turnstile_clover::SCHEMAS);
    entries.extend_from_slice(turnstile_pig::SCHEMAS);
    entries.push(SchemaEntry::of::<BundleManifestSchema>("bundle-manifest"));
    entries.push(SchemaEntry::of::<TurnConfigSchema>("turn-config"));
    entries.push(SchemaEntry::of::<TurnRulesSchema>("turn-rules"));
    schema_documents(&entries)
}

/// Which published schema each content file of a game's bundle follows, by the file's path
/// under `games/<game>/content/`: `None` for a file that is not JSON or a sheet (Sokoban's
/// XSB levels, credits). The staleness test walks every game's content folder through this,
/// so a new content file without a schema fails it.
#[allow(
    dead_code,
    reason = "read by tests/schemas.rs, which compiles this file as a module of its own"
)]
pub fn schema_of(game: &str, path: &str) -> Option<&'static str> {
    let name = path.rsplit('/').next().unwrap_or(path);
    match (game, name) {
        (_, "bundle.json") if game == "clover" => Some("clover-bundle"),
        (_, "bundle.json") => Some("bundle-manifest"),
        ("connect4" | "tictactoe", "rules.json") => Some("turn-rules"),
        ("duel", "rules.json") => Some("duel-rules"),
        ("duel", "cards.tsv") if !path.contains('/') => Some("duel-card"),
        ("duel", "statuses.json") => Some("duel-status"),
        ("duel", "decks.json") => Some("duel-deck"),
        ("duel", _) if path.starts_with("phases/") => Some("phase-sequence"),
        ("duel", _) if path.starts_with("effects/") => Some("effect-row"),
        ("pig", "rules.json") => Some("pig-rules"),
        ("pig", _) if path.starts_with("phases/") => Some("phase-sequence"),
        ("clover", "catalog.tsv") => Some("clover-catalog"),
        ("clover", "run.json") => Some("clover-run"),
        ("clover", _) if name.ends_with(".tsv") => Some("effect-row"),
        _ => None,
    }
}

/// The folder the documents are committed in, relative to the workspace root.
pub const SCHEMA_DIR: &str = "docs/schemas";
