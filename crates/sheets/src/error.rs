//! Every way a sheet or a JSON rows file can be wrong, as one enum with stable codes.
//!
//! A problem is rendered into the engine's [`ContentProblem`] (file, location, code,
//! message) by [`SheetError::at`]; the code is the contract with tools and tests, the
//! message is for the person fixing the file.

use std::fmt;

use turnstile_core::{ContentProblem, Location};

/// A list of names rendered as `` `a`, `b`, `c` `` in messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Names(pub Vec<String>);

impl fmt::Display for Names {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, name) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "`{name}`")?;
        }
        Ok(())
    }
}

/// One problem of a sheet or of a JSON rows file. Every variant has a stable
/// [`code`](SheetError::code); the table in docs/sheets.md lists them all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SheetError {
    /// The file has no header row (it is empty, or holds only blank and comment lines).
    #[error("the sheet has no header row: its first line that is neither blank nor a `#` comment names the columns")]
    NoHeader,
    /// A header cell is empty.
    #[error("header cell {index} has no column name")]
    EmptyColumnName {
        /// 1-based position of the cell in the header.
        index: u32,
    },
    /// A header cell is not a valid column path.
    #[error("`{name}` is not a column name: write names joined by dots, each made of letters, digits and `_` (a `$` may start a part, as in `condition.$type`)")]
    BadColumnName {
        /// The header cell.
        name: String,
    },
    /// The same column twice.
    #[error(
        "column `{name}` appears twice (first as header cell {first}); the later one is ignored"
    )]
    DuplicateColumn {
        /// The column.
        name: String,
        /// 1-based position of its first appearance.
        first: u32,
    },
    /// A column and a group of columns with the same name (`condition` and `condition.$type`).
    #[error("column `{name}` clashes with column `{other}`: a value is either one cell or a group of `name.part` cells, not both")]
    ColumnConflict {
        /// The later column.
        name: String,
        /// The earlier one it clashes with.
        other: String,
    },
    /// A column the row type does not have.
    #[error("{target} has no column `{name}`{hint}")]
    UnknownColumn {
        /// The column.
        name: String,
        /// The row type's name.
        target: String,
        /// Extra help, starting with `; ` (or empty).
        hint: String,
    },
    /// A column the row type needs in every row is absent.
    #[error("the sheet has no column `{name}`, which {target} needs{hint}")]
    MissingColumn {
        /// The column that should be there.
        name: String,
        /// The row type (or variant) that needs it.
        target: String,
        /// Extra help, starting with `; ` (or empty).
        hint: String,
    },
    /// A row with more or fewer cells than the header has columns.
    #[error("the row has {found} cells, but the header has {expected} columns; every row needs exactly one cell per column (an empty cell is still a cell)")]
    WrongCellCount {
        /// Cells in the row.
        found: u32,
        /// Columns in the header.
        expected: u32,
    },
    /// A value the row needs is empty.
    #[error("`{column}` is empty, but {needed}; an empty cell never stands for a default")]
    EmptyCell {
        /// The empty column.
        column: String,
        /// What belongs there, in words.
        needed: String,
    },
    /// A `$type` naming no variant.
    #[error("`{value}` is not a kind of {field}: use one of {allowed}")]
    UnknownType {
        /// The text found.
        value: String,
        /// The polymorphic field (`condition`).
        field: String,
        /// The variants.
        allowed: Names,
    },
    /// A filled cell that the row's `$type` does not take.
    #[error(
        "`{column}` does not apply to `{variant}`; it takes {allowed}, so leave this cell empty"
    )]
    UnexpectedCell {
        /// The filled column.
        column: String,
        /// The chosen variant.
        variant: String,
        /// The parameters it does take (or "no parameters").
        allowed: String,
    },
    /// Text where an integer belongs.
    #[error("`{text}` is not an integer: write digits, with a leading `-` if negative")]
    BadInteger {
        /// The text found.
        text: String,
    },
    /// A floating-point number, which content never holds.
    #[error("`{text}` is a floating-point number, and content never holds one: write an integer, or a decimal with at most four places where a fixed-point number belongs")]
    FloatRejected {
        /// The text found.
        text: String,
    },
    /// Text where a fixed-point number belongs.
    #[error("`{text}` is not a fixed-point number: write it as decimal text like `2`, `1.5` or `-0.25`, at most four places{hint}")]
    BadFixed {
        /// The text found.
        text: String,
        /// Extra help, starting with `; ` (or empty).
        hint: String,
    },
    /// A number outside its type's range.
    #[error("`{text}` is out of range: {range}")]
    OutOfRange {
        /// The text found.
        text: String,
        /// The range in words.
        range: String,
    },
    /// Text where a chance belongs.
    #[error("`{text}` is not a chance: {reason}")]
    BadChance {
        /// The text found.
        text: String,
        /// Why, from the determinism kit.
        reason: String,
    },
    /// Text where `true` or `false` belongs.
    #[error("`{text}` is not a truth value: write `true` or `false`")]
    BadBoolean {
        /// The text found.
        text: String,
    },
    /// A value outside a closed list.
    #[error("`{text}` is not allowed here: use one of {allowed}")]
    UnknownValue {
        /// The text found.
        text: String,
        /// The allowed values.
        allowed: Names,
    },
    /// A JSON value of the wrong kind.
    #[error("expected {expected}, found {found}")]
    WrongType {
        /// What belongs there.
        expected: String,
        /// What was found (`a string`, `an object`, ...).
        found: String,
    },
    /// A JSON member the row type does not have.
    #[error("{target} has no field `{name}`")]
    UnknownField {
        /// The member.
        name: String,
        /// The type it was found in.
        target: String,
    },
    /// A JSON member the row type needs.
    #[error("the field `{name}` is missing: {needed}")]
    MissingField {
        /// The member.
        name: String,
        /// What belongs there, in words.
        needed: String,
    },
    /// The JSON text does not parse.
    #[error("malformed JSON: {message}")]
    MalformedJson {
        /// The parser's message.
        message: String,
    },
    /// A JSON rows file that is not an array.
    #[error("a rows file holds a JSON array of row objects, found {found}")]
    NotAnArray {
        /// What was found.
        found: String,
    },
    /// A cell that cannot be written into a sheet (when writing one).
    #[error("`{column}` cannot be written as a cell: {reason}")]
    Unwritable {
        /// The column.
        column: String,
        /// Why.
        reason: String,
    },
    /// A file whose name ends in neither `.tsv` nor `.json`.
    #[error("cannot tell the format of `{file}`: rows files end in `.tsv` (a sheet) or `.json` (an array of rows)")]
    UnknownFormat {
        /// The file.
        file: String,
    },
    /// The row type rejected a value that passed every check above (a rule of the type's own
    /// deserializer, such as the syntax of an id).
    #[error("{message}")]
    InvalidValue {
        /// The deserializer's message.
        message: String,
    },
}

impl SheetError {
    /// The stable, documented code of this problem, `snake_case`.
    pub const fn code(&self) -> &'static str {
        match self {
            SheetError::NoHeader => "no_header",
            SheetError::EmptyColumnName { .. } => "empty_column_name",
            SheetError::BadColumnName { .. } => "bad_column_name",
            SheetError::DuplicateColumn { .. } => "duplicate_column",
            SheetError::ColumnConflict { .. } => "column_conflict",
            SheetError::UnknownColumn { .. } => "unknown_column",
            SheetError::MissingColumn { .. } => "missing_column",
            SheetError::WrongCellCount { .. } => "wrong_cell_count",
            SheetError::EmptyCell { .. } => "empty_cell",
            SheetError::UnknownType { .. } => "unknown_type",
            SheetError::UnexpectedCell { .. } => "unexpected_cell",
            SheetError::BadInteger { .. } => "bad_integer",
            SheetError::FloatRejected { .. } => "float_rejected",
            SheetError::BadFixed { .. } => "bad_fixed",
            SheetError::OutOfRange { .. } => "out_of_range",
            SheetError::BadChance { .. } => "bad_chance",
            SheetError::BadBoolean { .. } => "bad_boolean",
            SheetError::UnknownValue { .. } => "unknown_value",
            SheetError::WrongType { .. } => "wrong_type",
            SheetError::UnknownField { .. } => "unknown_field",
            SheetError::MissingField { .. } => "missing_field",
            SheetError::MalformedJson { .. } => "malformed_json",
            SheetError::NotAnArray { .. } => "not_an_array",
            SheetError::Unwritable { .. } => "unwritable",
            SheetError::UnknownFormat { .. } => "unknown_format",
            SheetError::InvalidValue { .. } => "invalid_value",
        }
    }

    /// This problem as a [`ContentProblem`] of `file` at `at`.
    pub fn at(&self, file: &str, at: Location) -> ContentProblem {
        ContentProblem::new(file, at, self.code(), self.to_string())
    }
}
