//! Content rows for Turnstile: tab-separated sheets and JSON rows arrays, loaded into one
//! typed form, with every problem of a file reported at its row and column (or JSON pointer);
//! and the JSON Schemas of the row types, generated from the Rust types.
//!
//! Designers edit effect rows (and other row-shaped content) in a spreadsheet. A sheet is a
//! header row of column names and then rows of cells; a polymorphic value spreads over a
//! group of columns named with dots:
//!
//! ```text
//! owner          order  trigger       condition.$type  condition.formula  operation.$type  operation.amount
//! card:fireball  0      OnCardPlayed  Always                              Damage           3
//! card:leech     0      OnTurnStart   Formula          owner.hp < 10      Heal             2
//! ```
//!
//! Each row becomes a JSON object tree (`{"condition": {"$type": "Formula", "formula":
//! "owner.hp < 10"}, ...}`) whose cells are typed by the row type's JSON Schema — an integer
//! column reads integers, a `Fixed` column reads decimal text, a text column reads text — and
//! serde turns it into the caller's row type. The same rows can be written as a JSON array of
//! objects; [`RowLoader`] checks both forms against the same schema, so they accept the same
//! content and give the same typed rows. docs/sheets.md teaches the format and lists every
//! problem code.
//!
//! ```
//! use schemars::JsonSchema;
//! use serde::Deserialize;
//! use turnstile_sheets::RowLoader;
//!
//! #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
//! #[serde(rename_all = "camelCase", deny_unknown_fields)]
//! struct Price { item: String, cost_money: u32 }
//!
//! let loader = RowLoader::<Price>::new();
//! let sheet = loader.sheet("prices.tsv", "item\tcostMoney\nsword\t12\n# a comment\nbow\t8\n");
//! let json = loader.json("prices.json", r#"[{"item":"sword","costMoney":12},{"item":"bow","costMoney":8}]"#);
//! assert_eq!(sheet.values(), json.values());
//!
//! let bad = loader.sheet("prices.tsv", "item\tcostMoney\nsword\t1.5\n");
//! assert_eq!(bad.problems[0].code, "float_rejected");
//! assert_eq!(bad.problems[0].to_string(),
//!     "prices.tsv: row 2, column costMoney: `1.5` is a floating-point number, and content never \
//!      holds one: write an integer, or a decimal with at most four places where a fixed-point \
//!      number belongs (float_rejected)");
//! ```
//!
//! # What this crate must never do
//!
//! - produce or accept a floating-point number (cells are integers, decimal text for `Fixed`,
//!   truth values or text);
//! - guess silently: an empty cell is never a default value, a cell the row's `$type` does not
//!   take is an error, a column the row type does not have is an error;
//! - stop at the first problem: every problem of every row is reported, and good rows are
//!   kept for the next stage;
//! - do I/O (it reads text handed to it), use `unsafe`, or depend on hash-map order.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod cells;
mod error;
mod json;
mod located;
mod schema;
mod shape;
mod sheet;
pub mod tsv;
mod write;

use std::marker::PhantomData;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Serialize;
use turnstile_core::{BundleSource, Location};

pub use error::{Names, SheetError};
pub use located::{Loaded, Located, RowOrigin, RowPlace};
pub use schema::{
    named_schemas, root_schema, schema_documents, ChanceSchema, FixedSchema, FormulaSchema,
    SchemaDocument, SchemaEntry, CHANCE_FORMAT, FIXED_FORMAT,
};

/// The format of a rows file, told by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowsFormat {
    /// A tab-separated sheet (`.tsv`).
    Sheet,
    /// A JSON array of row objects (`.json`).
    Json,
}

impl RowsFormat {
    /// The format of a file named `path`: `.tsv` or `.json` (in any letter case).
    pub fn of_path(path: &str) -> Option<RowsFormat> {
        let lower = path.to_ascii_lowercase();
        if lower.ends_with(".tsv") {
            Some(RowsFormat::Sheet)
        } else if lower.ends_with(".json") {
            Some(RowsFormat::Json)
        } else {
            None
        }
    }
}

/// Loads rows of type `T` from sheets and JSON rows files, checked against `T`'s JSON
/// Schema. Build one per row type and reuse it: building reads the schema once.
pub struct RowLoader<T> {
    shapes: shape::Shapes,
    row: PhantomData<fn() -> T>,
}

impl<T> std::fmt::Debug for RowLoader<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RowLoader")
            .field("row", &self.shapes.name)
            .finish()
    }
}

impl<T: DeserializeOwned + JsonSchema> Default for RowLoader<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: DeserializeOwned + JsonSchema> RowLoader<T> {
    /// A loader for rows of type `T`.
    pub fn new() -> RowLoader<T> {
        let schema = root_schema::<T>();
        RowLoader {
            shapes: shape::Shapes::from_schema(schema.as_value()),
            row: PhantomData,
        }
    }

    /// Reads the sheet `text` of `file`: every row that loads, and every problem of every row.
    pub fn sheet(&self, file: &str, text: &str) -> Loaded<T> {
        sheet::load(&self.shapes, file, text)
    }

    /// Reads the JSON rows file `text` of `file` (an array of row objects).
    pub fn json(&self, file: &str, text: &str) -> Loaded<T> {
        json::load(&self.shapes, file, text)
    }

    /// Reads `text` as a sheet or as JSON, by the name of `file`.
    pub fn text(&self, file: &str, text: &str) -> Loaded<T> {
        match RowsFormat::of_path(file) {
            Some(RowsFormat::Sheet) => self.sheet(file, text),
            Some(RowsFormat::Json) => self.json(file, text),
            None => Loaded {
                rows: Vec::new(),
                problems: vec![
                    SheetError::UnknownFormat { file: file.into() }.at(file, Location::File)
                ],
            },
        }
    }

    /// Reads file `path` of a bundle, as a sheet or as JSON by its name.
    pub fn source(&self, source: &BundleSource, path: &str) -> Loaded<T> {
        match source.text(path) {
            Ok(text) => self.text(path, text),
            Err(problem) => Loaded {
                rows: Vec::new(),
                problems: vec![problem],
            },
        }
    }
}

impl<T: Serialize> RowLoader<T> {
    /// `row` in content form, as a JSON value: serde's output, with every `Fixed` as decimal
    /// text.
    pub fn content_value(&self, row: &T) -> Result<serde_json::Value, SheetError> {
        let value = serde_json::to_value(row).map_err(|e| SheetError::InvalidValue {
            message: e.to_string(),
        })?;
        Ok(write::content_value(&self.shapes, value))
    }

    /// `rows` as a JSON rows file in content form.
    pub fn write_json(&self, rows: &[T]) -> Result<String, SheetError> {
        write::write_json(&self.shapes, rows)
    }

    /// `rows` as a sheet with `columns`, in that order. Refuses ([`SheetError::Unwritable`])
    /// a value that has no column, or that a cell could not hold so that it reads back
    /// unchanged.
    pub fn write_sheet(&self, rows: &[T], columns: &[&str]) -> Result<String, SheetError> {
        write::write_sheet(&self.shapes, rows, columns)
    }
}
