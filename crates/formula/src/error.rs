//! Every way a formula can be refused — when its text is compiled, when a schema is declared,
//! or when it is evaluated — as typed errors with stable codes and source positions.
//!
//! Codes are part of the contract: content validation reports them and tests match on them,
//! so a code, once published, never changes meaning. Messages may improve.

use core::fmt;

use crate::value::Type;

/// A place in a formula's text: 1-based line and column, columns counted in characters
/// (Unicode scalar values), lines separated by `\n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// Line, from 1.
    pub line: u32,
    /// Column, from 1, in characters.
    pub column: u32,
}

impl Position {
    /// The first character of a text.
    pub const START: Position = Position { line: 1, column: 1 };

    /// The position at `line`, `column` (both 1-based).
    pub const fn new(line: u32, column: u32) -> Position {
        Position { line, column }
    }
}

impl fmt::Display for Position {
    /// `line:column`, as editors and compilers print it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Why a formula's text was refused when it was compiled (parsed, resolved and type-checked).
///
/// Every variant carries the [`Position`] it refers to and has a stable [`code`].
///
/// [`code`]: FormulaError::code
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FormulaError {
    /// The text is longer than [`crate::MAX_SOURCE_BYTES`].
    #[error("{at}: a formula may be at most {limit} bytes long; this one has {length}")]
    TooLong {
        /// Where the limit was passed (the start of the text).
        at: Position,
        /// The text's length in bytes.
        length: usize,
        /// The limit in bytes.
        limit: usize,
    },
    /// A character that starts no token (`&`, `!`, `=` alone, `$`, a non-ASCII letter...).
    #[error("{at}: unexpected character `{found}`{hint}")]
    UnexpectedCharacter {
        /// Where.
        at: Position,
        /// The character.
        found: char,
        /// A suggestion, starting with `: ` when present (`: write \`and\``), else empty.
        hint: &'static str,
    },
    /// A token where another was expected (`1 2`, `(1 + )`, `a == not b`).
    #[error("{at}: unexpected `{found}`, expected {expected}")]
    UnexpectedToken {
        /// Where.
        at: Position,
        /// The token's text.
        found: String,
        /// What would have been accepted here.
        expected: &'static str,
    },
    /// The text ended where something else was expected (`1 +`, `(a`).
    #[error("{at}: the formula ends here, but {expected} was expected")]
    UnexpectedEnd {
        /// Where (just after the last character).
        at: Position,
        /// What would have been accepted here.
        expected: &'static str,
    },
    /// Malformed or out-of-range number (`1.`, `1e5`, `3x`, `99999999999999999999`).
    #[error("{at}: `{text}` is not a number: {reason}")]
    BadNumber {
        /// Where the number starts.
        at: Position,
        /// The number's text.
        text: String,
        /// Why.
        reason: &'static str,
    },
    /// A decimal literal with more than four fractional digits (`0.00001`).
    #[error(
        "{at}: `{text}` has more than four decimals; a Fixed number is exact to the \
         ten-thousandth, so write at most four"
    )]
    TooManyDecimals {
        /// Where the number starts.
        at: Position,
        /// The number's text.
        text: String,
    },
    /// A variable the schema does not declare.
    #[error("{at}: unknown variable `{name}`")]
    UnknownVariable {
        /// Where the name starts.
        at: Position,
        /// The name.
        name: String,
    },
    /// An operator applied to a type it does not accept (`1 + true`, `not 3`, `a and 1`).
    #[error("{at}: type mismatch: {detail}")]
    TypeMismatch {
        /// The offending operand (or operator, when both sides disagree).
        at: Position,
        /// What was expected and what was found.
        detail: String,
    },
    /// A condition (see [`crate::Formula::compile_condition`]) whose type is not `Bool`.
    #[error("{at}: a condition must be true or false, but this formula is {found}")]
    NotACondition {
        /// The formula's root.
        at: Position,
        /// The formula's type.
        found: Type,
    },
    /// Comparisons chained without parentheses (`a < b < c`).
    #[error("{at}: comparisons do not chain: write `a < b and b < c` instead of `a < b < c`")]
    ChainedComparison {
        /// The second comparison operator.
        at: Position,
    },
    /// Nesting beyond the limits ([`crate::MAX_DEPTH`] operators, [`crate::MAX_NESTING`]
    /// levels counting parentheses).
    #[error("{at}: the formula nests too deep (limit {limit})")]
    TooDeep {
        /// Where the limit was passed.
        at: Position,
        /// The limit that was passed.
        limit: u32,
    },
}

impl FormulaError {
    /// The stable, documented code of this error.
    pub const fn code(&self) -> &'static str {
        match self {
            FormulaError::TooLong { .. } => "too_long",
            FormulaError::UnexpectedCharacter { .. } => "unexpected_character",
            FormulaError::UnexpectedToken { .. } => "unexpected_token",
            FormulaError::UnexpectedEnd { .. } => "unexpected_end",
            FormulaError::BadNumber { .. } => "bad_number",
            FormulaError::TooManyDecimals { .. } => "too_many_decimals",
            FormulaError::UnknownVariable { .. } => "unknown_variable",
            FormulaError::TypeMismatch { .. } => "type_mismatch",
            FormulaError::NotACondition { .. } => "not_a_condition",
            FormulaError::ChainedComparison { .. } => "chained_comparison",
            FormulaError::TooDeep { .. } => "too_deep",
        }
    }

    /// Where in the text the problem is.
    pub const fn position(&self) -> Position {
        match self {
            FormulaError::TooLong { at, .. }
            | FormulaError::UnexpectedCharacter { at, .. }
            | FormulaError::UnexpectedToken { at, .. }
            | FormulaError::UnexpectedEnd { at, .. }
            | FormulaError::BadNumber { at, .. }
            | FormulaError::TooManyDecimals { at, .. }
            | FormulaError::UnknownVariable { at, .. }
            | FormulaError::TypeMismatch { at, .. }
            | FormulaError::NotACondition { at, .. }
            | FormulaError::ChainedComparison { at }
            | FormulaError::TooDeep { at, .. } => *at,
        }
    }
}

/// Why evaluating a compiled formula produced no value.
///
/// Evaluation never panics: a division by zero, or a context that breaks its promise, is
/// one of these.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    /// `/` or `%` with a zero divisor (integer or `Fixed`).
    #[error("{at}: division by zero")]
    DivisionByZero {
        /// The `/` or `%` operator.
        at: Position,
    },
    /// The context offered no value for a variable's slot.
    #[error("the context offers no value for variable `{name}` (slot {slot})")]
    MissingVariable {
        /// The variable's name.
        name: String,
        /// Its slot in the schema.
        slot: u16,
    },
    /// The context offered a value of another type than the schema declared.
    #[error(
        "the context offers a {found} for variable `{name}` (slot {slot}), declared {expected}"
    )]
    VariableType {
        /// The variable's name.
        name: String,
        /// Its slot in the schema.
        slot: u16,
        /// The declared type.
        expected: Type,
        /// The type of the offered value.
        found: Type,
    },
    /// [`crate::Formula::eval_bool`] on a formula whose type is not `Bool`.
    #[error("the formula is {found}, not a condition")]
    NotACondition {
        /// The formula's type.
        found: Type,
    },
}

impl EvalError {
    /// The stable, documented code of this error.
    pub const fn code(&self) -> &'static str {
        match self {
            EvalError::DivisionByZero { .. } => "division_by_zero",
            EvalError::MissingVariable { .. } => "missing_variable",
            EvalError::VariableType { .. } => "variable_type",
            EvalError::NotACondition { .. } => "not_a_condition",
        }
    }
}

/// Why a variable could not be declared in a [`crate::VariableSchema`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SchemaError {
    /// Not a name the language can spell: parts of ASCII letters, digits and `_`, each not
    /// starting with a digit, joined by single dots (`turn`, `source.hp`, `tag_spell`).
    #[error("`{name}` is not a variable name: use letters, digits and `_`, parts joined by dots")]
    InvalidName {
        /// The name.
        name: String,
    },
    /// A reserved word (`and`, `or`, `not`, `true`, `false`).
    #[error("`{name}` is a reserved word")]
    ReservedName {
        /// The name.
        name: String,
    },
    /// The name was declared before.
    #[error("variable `{name}` is declared twice")]
    DuplicateVariable {
        /// The name.
        name: String,
    },
    /// More than [`crate::MAX_VARIABLES`] variables.
    #[error("a schema holds at most {limit} variables")]
    TooManyVariables {
        /// The limit.
        limit: usize,
    },
}

impl SchemaError {
    /// The stable, documented code of this error.
    pub const fn code(&self) -> &'static str {
        match self {
            SchemaError::InvalidName { .. } => "invalid_name",
            SchemaError::ReservedName { .. } => "reserved_name",
            SchemaError::DuplicateVariable { .. } => "duplicate_variable",
            SchemaError::TooManyVariables { .. } => "too_many_variables",
        }
    }
}
