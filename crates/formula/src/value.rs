//! The three types of the formula language and the values a formula reads and returns.
//!
//! A formula is statically typed: every expression has one [`Type`], known when the formula is
//! compiled, so evaluation never has to ask what kind of value it holds except where a
//! context hands one in.

use core::fmt;

use turnstile_determinism::Fixed;

/// The type of an expression or of a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Type {
    /// A signed 64-bit integer (`3`, `run.money`).
    Int,
    /// A [`Fixed`] number, in ten-thousandths (`1.5`, `source.mult`).
    Fixed,
    /// A truth value (`true`, `tag_spell`, `round >= 3`).
    Bool,
}

impl Type {
    /// Whether arithmetic and ordering apply to this type (`Int` or `Fixed`).
    pub const fn is_number(self) -> bool {
        matches!(self, Type::Int | Type::Fixed)
    }

    /// The type's name as the language's documentation spells it (`Int`, `Fixed`, `Bool`).
    pub const fn name(self) -> &'static str {
        match self {
            Type::Int => "Int",
            Type::Fixed => "Fixed",
            Type::Bool => "Bool",
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A value: what a context offers for a variable, and what a formula evaluates to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// An integer.
    Int(i64),
    /// A fixed-point number.
    Fixed(Fixed),
    /// A truth value.
    Bool(bool),
}

impl Value {
    /// This value's type.
    pub const fn ty(self) -> Type {
        match self {
            Value::Int(_) => Type::Int,
            Value::Fixed(_) => Type::Fixed,
            Value::Bool(_) => Type::Bool,
        }
    }

    /// The value as the evaluator's untyped 64-bit cell: an integer, a `Fixed`'s raw count of
    /// ten-thousandths, or 0/1 for a truth value.
    pub(crate) const fn to_cell(self) -> i64 {
        match self {
            Value::Int(n) => n,
            Value::Fixed(f) => f.raw(),
            Value::Bool(b) => b as i64,
        }
    }

    /// The value of type `ty` held in an evaluator cell (the inverse of [`Value::to_cell`]).
    pub(crate) const fn from_cell(ty: Type, cell: i64) -> Value {
        match ty {
            Type::Int => Value::Int(cell),
            Type::Fixed => Value::Fixed(Fixed::from_raw(cell)),
            Type::Bool => Value::Bool(cell != 0),
        }
    }
}

impl fmt::Display for Value {
    /// `3`, `1.5`, `true`. A `Fixed` prints its shortest exact decimal (so `2.0` prints `2`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(n) => write!(f, "{n}"),
            Value::Fixed(x) => write!(f, "{x}"),
            Value::Bool(b) => write!(f, "{b}"),
        }
    }
}

impl From<i64> for Value {
    fn from(n: i64) -> Value {
        Value::Int(n)
    }
}

impl From<Fixed> for Value {
    fn from(x: Fixed) -> Value {
        Value::Fixed(x)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}
