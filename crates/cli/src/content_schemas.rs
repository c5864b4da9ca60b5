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

/// Every published schema document, in a fixed order: the engine's effect row, then each
/// game's content types.
pub fn documents() -> Vec<SchemaDocument> {
    let mut entries = Vec::new();
    entries.extend_from_slice(turnstile_effects::SCHEMAS);
    entries.extend_from_slice(turnstile_duel::SCHEMAS);
    entries.push(SchemaEntry::of::<BundleManifestSchema>("bundle-manifest"));
    entries.push(SchemaEntry::of::<TurnConfigSchema>("turn-config"));
    schema_documents(&entries)
}

/// The folder the documents are committed in, relative to the workspace root.
pub const SCHEMA_DIR: &str = "docs/schemas";
