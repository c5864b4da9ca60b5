//! JSON Schemas generated from the Rust row types, for `turnstile content schema`: editors
//! use them to complete and validate content files, and the sheet reader uses the same
//! schema to type cells. The documents are committed under `docs/schemas/`, and a test per
//! type fails when a committed one is stale.
//!
//! Types the determinism kit owns (`Fixed`, `Chance`) and the formula crate's `FormulaText`
//! have no `JsonSchema` of their own; a field of those types names its schema with
//! `#[schemars(with = "...")]` and one of the stand-ins here.

use std::borrow::Cow;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde_json::Value;

/// The `format` that marks a string as a `Fixed` number; the sheet reader types such cells
/// as fixed-point decimal text (so `2` is 2, not a raw count).
pub const FIXED_FORMAT: &str = "fixed";

/// The `format` that marks a string as a `Chance`; the sheet reader checks such cells with
/// the determinism kit's parser.
pub const CHANCE_FORMAT: &str = "chance";

/// The schema of a `Fixed` in content: decimal text with at most four places.
///
/// ```
/// # use schemars::JsonSchema;
/// # use turnstile_core::determinism::Fixed;
/// #[derive(serde::Deserialize, JsonSchema)]
/// struct Row {
///     #[schemars(with = "turnstile_sheets::FixedSchema")]
///     mult: Fixed,
/// }
/// ```
pub struct FixedSchema;

impl JsonSchema for FixedSchema {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "Fixed".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "format": FIXED_FORMAT,
            "pattern": "^-?[0-9]+(\\.[0-9]{1,4})?$",
            "description": "A fixed-point number as decimal text, exact to four places: \"2\", \"1.5\", \"-0.25\"."
        })
    }
}

/// The schema of a `Chance` in content: a fraction `num/den`.
pub struct ChanceSchema;

impl JsonSchema for ChanceSchema {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "Chance".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "format": CHANCE_FORMAT,
            "pattern": "^[0-9]+/[0-9]+$",
            "description": "A probability as a fraction of whole numbers, \"1/4\"; the denominator is at least 1."
        })
    }
}

/// The schema of a formula in content: its source text (docs/formula.md).
pub struct FormulaSchema;

impl JsonSchema for FormulaSchema {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "Formula".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "minLength": 1,
            "description": "A formula of Turnstile's expression language, such as `round >= 3 and source.hp > 0`."
        })
    }
}

/// One type whose schema is published, under a file name stem.
#[derive(Clone, Copy)]
pub struct SchemaEntry {
    /// The file name stem: `effect-row` is written as `effect-row.schema.json`.
    pub name: &'static str,
    generate: fn() -> Schema,
}

impl SchemaEntry {
    /// The entry for type `T`.
    pub const fn of<T: JsonSchema>(name: &'static str) -> SchemaEntry {
        SchemaEntry {
            name,
            generate: root_schema::<T>,
        }
    }

    /// Generates its document.
    pub fn document(&self) -> SchemaDocument {
        SchemaDocument {
            name: self.name.to_owned(),
            schema: (self.generate)().to_value(),
        }
    }
}

impl std::fmt::Debug for SchemaEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SchemaEntry")
            .field("name", &self.name)
            .finish()
    }
}

/// The root schema document of `T` (JSON Schema 2020-12, definitions under `$defs`).
pub fn root_schema<T: JsonSchema>() -> Schema {
    SchemaGenerator::default().into_root_schema_for::<T>()
}

/// A generated schema document.
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaDocument {
    /// The file name stem.
    pub name: String,
    /// The schema.
    pub schema: Value,
}

impl SchemaDocument {
    /// The file it is committed as: `<name>.schema.json`.
    pub fn file_name(&self) -> String {
        format!("{}.schema.json", self.name)
    }

    /// Its text: pretty JSON with two-space indents, keys sorted, a final newline. The same
    /// types always give the same bytes.
    pub fn to_text(&self) -> String {
        let mut text = serde_json::to_string_pretty(&self.schema).unwrap_or_default();
        text.push('\n');
        text
    }

    /// Whether `committed` (a file's text) is this document, ignoring `\r` before line ends.
    pub fn is_current(&self, committed: &str) -> bool {
        committed.replace("\r\n", "\n") == self.to_text()
    }
}

/// The schema documents of a list of types, in list order — what `turnstile content schema`
/// writes.
pub fn schema_documents(entries: &[SchemaEntry]) -> Vec<SchemaDocument> {
    entries.iter().map(SchemaEntry::document).collect()
}

/// The same documents as `(name, schema)` pairs: the form a game's registration hands the
/// registry (`turnstile_runtime::ContentSchemas`), which knows no schema types.
pub fn named_schemas(entries: &[SchemaEntry]) -> Vec<(String, Value)> {
    entries
        .iter()
        .map(|entry| {
            let document = entry.document();
            (document.name, document.schema)
        })
        .collect()
}
