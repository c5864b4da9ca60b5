//! Turnstile's formula language: the one small expression language in which the whole engine
//! writes conditions and content formulas — phase-edge conditions, effect-row conditions,
//! values in content (spec/phases.md, "Conditions"; the teaching page is docs/formula.md).
//!
//! ```text
//! round >= 3 and source.hp > 0        tag_spell or turn % 2 == 0        run.money * 1.5 >= 10
//! ```
//!
//! A formula goes through three stages, and only the first two can reject its text:
//!
//! | stage | function | what it does |
//! |---|---|---|
//! | parse | [`parse`] | text to a syntax tree ([`Expr`]), errors with line and column |
//! | compile | [`Formula::compile`], [`Formula::compile_condition`] | names resolved in a [`VariableSchema`] to slots, static types checked, a flat postfix program built |
//! | evaluate | [`Formula::eval`], [`Formula::eval_bool`] | the program run over a [`VariableSource`], allocating nothing |
//!
//! Types are `Int` (`i64`), `Fixed` (the determinism kit's ten-thousandths) and `Bool`.
//! Division and modulo floor for every sign, integer overflow saturates, an `Int` meeting a
//! `Fixed` is promoted exactly, and dividing by zero is an [`EvalError`], never a panic.
//! [`Formula::exclusive_with`] tells the phase-graph validator when two conditions provably
//! never hold together; [`FormulaText`] is how formulas travel in content.
//!
//! # What this crate must never do
//!
//! - use floating-point numbers, anywhere (numbers are `i64` and `Fixed`, literals are parsed
//!   exactly, and more than four decimals is an error, not a rounding);
//! - panic on any text or any context (every refusal is a typed error with a stable `code()`
//!   and, for text, a position), or recurse without bound (nesting is limited);
//! - allocate while evaluating a compiled formula (the hot path of phase edges and effects);
//! - round any way but toward negative infinity, or wrap on overflow;
//! - depend on hash-map order, the platform, or anything outside its inputs;
//! - use `unsafe`, or do I/O.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod ast;
mod compile;
mod error;
mod eval;
mod exclusive;
mod formula;
mod lexer;
mod parser;
mod schema;
mod text;
mod value;

pub use ast::{BinaryOp, Expr, ExprKind, UnaryOp};
pub use compile::UsedVariable;
pub use error::{EvalError, FormulaError, Position, SchemaError};
pub use eval::VariableSource;
pub use formula::Formula;
pub use parser::parse;
pub use schema::{VariableDeclaration, VariableSchema};
pub use text::FormulaText;
pub use value::{Type, Value};

/// The longest formula text accepted, in bytes.
pub const MAX_SOURCE_BYTES: usize = 16 * 1024;

/// The deepest a formula's tree may be: operators on its longest path, plus its leaf.
/// `1 + 2 * 3` is 3 deep. The evaluator's stack needs at most this many cells.
pub const MAX_DEPTH: u32 = 64;

/// The deepest the parser may nest, counting parentheses, prefix operators and right
/// operands: so that `((((...))))` cannot exhaust the machine stack, however many there are.
pub const MAX_NESTING: u32 = 256;

/// The most variables a [`VariableSchema`] may declare.
pub const MAX_VARIABLES: usize = 4096;
