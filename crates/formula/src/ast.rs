//! The syntax tree a formula's text parses into, and its printing back to text.
//!
//! The tree is what analysis looks at (exclusivity of two conditions compares trees), so
//! equality is *structural*: two trees are equal when they have the same shape, operators and
//! literals, wherever they stood in their texts. Parentheses leave no trace in the tree
//! (`(a)` and `a` parse alike), and [`Display`](core::fmt::Display) prints a tree with just
//! the parentheses its shape needs, so printing and parsing again gives an equal tree.

use core::fmt;

use turnstile_determinism::Fixed;

use crate::error::Position;

/// One node of a parsed formula: what it is, and where it stood in the text.
///
/// Equality ignores [`Expr::at`]: it is structural (see the module documentation).
#[derive(Clone, Debug)]
pub struct Expr {
    /// The node.
    pub kind: ExprKind,
    /// Where it stood: the operator of a unary or binary node, the token of a leaf.
    pub at: Position,
}

impl PartialEq for Expr {
    fn eq(&self, other: &Expr) -> bool {
        self.kind == other.kind
    }
}

impl Eq for Expr {}

/// What a node of the syntax tree is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    /// An integer literal. The parser produces only non-negative ones (`-3` is a negation).
    Int(i64),
    /// A decimal literal (`1.5`). The parser produces only non-negative ones.
    Fixed(Fixed),
    /// `true` or `false`.
    Bool(bool),
    /// A variable, by name (`round`, `source.hp`).
    Variable(String),
    /// A prefix operator and its operand.
    Unary {
        /// The operator.
        op: UnaryOp,
        /// The operand.
        operand: Box<Expr>,
    },
    /// An infix operator and its operands.
    Binary {
        /// The operator.
        op: BinaryOp,
        /// The left operand.
        lhs: Box<Expr>,
        /// The right operand.
        rhs: Box<Expr>,
    },
}

/// A prefix operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-x`: negation of a number, saturating (`-(-9223372036854775807 - 1)` is `i64::MAX`).
    Neg,
    /// `not x`: negation of a truth value.
    Not,
}

/// An infix operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `*`
    Mul,
    /// `/`, floor division.
    Div,
    /// `%`, floor modulo (the result has the divisor's sign).
    Rem,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `and`, short-circuit.
    And,
    /// `or`, short-circuit.
    Or,
}

/// Precedence levels, loosest first; [`Display`](core::fmt::Display) and the parser agree on
/// them (docs/formula.md has the table).
pub(crate) mod level {
    pub(crate) const OR: u8 = 1;
    pub(crate) const AND: u8 = 2;
    pub(crate) const NOT: u8 = 3;
    pub(crate) const COMPARISON: u8 = 4;
    pub(crate) const ADDITIVE: u8 = 5;
    pub(crate) const MULTIPLICATIVE: u8 = 6;
    pub(crate) const NEGATION: u8 = 7;
    pub(crate) const ATOM: u8 = 8;
}

impl BinaryOp {
    /// The operator as written.
    pub const fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::And => "and",
            BinaryOp::Or => "or",
        }
    }

    /// Whether this is one of `< <= > >= == !=`.
    pub const fn is_comparison(self) -> bool {
        matches!(
            self,
            BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge | BinaryOp::Eq | BinaryOp::Ne
        )
    }

    /// The comparison that holds for `b ? a` exactly when this one holds for `a ? b`
    /// (`<` becomes `>`; `==` stays); other operators are returned unchanged.
    pub const fn flipped(self) -> BinaryOp {
        match self {
            BinaryOp::Lt => BinaryOp::Gt,
            BinaryOp::Le => BinaryOp::Ge,
            BinaryOp::Gt => BinaryOp::Lt,
            BinaryOp::Ge => BinaryOp::Le,
            other => other,
        }
    }

    pub(crate) const fn level(self) -> u8 {
        match self {
            BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => level::MULTIPLICATIVE,
            BinaryOp::Add | BinaryOp::Sub => level::ADDITIVE,
            BinaryOp::Lt
            | BinaryOp::Le
            | BinaryOp::Gt
            | BinaryOp::Ge
            | BinaryOp::Eq
            | BinaryOp::Ne => level::COMPARISON,
            BinaryOp::And => level::AND,
            BinaryOp::Or => level::OR,
        }
    }
}

impl fmt::Display for BinaryOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

impl fmt::Display for UnaryOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            UnaryOp::Neg => "-",
            UnaryOp::Not => "not",
        })
    }
}

impl Expr {
    /// A node at the start of a text; handy for building trees by hand.
    pub fn new(kind: ExprKind) -> Expr {
        Expr {
            kind,
            at: Position::START,
        }
    }

    /// How tightly this node binds when printed (see [`level`]).
    fn level(&self) -> u8 {
        match &self.kind {
            ExprKind::Int(n) if *n < 0 => level::NEGATION,
            ExprKind::Fixed(x) if x.raw() < 0 => level::NEGATION,
            ExprKind::Int(_) | ExprKind::Fixed(_) | ExprKind::Bool(_) | ExprKind::Variable(_) => {
                level::ATOM
            }
            ExprKind::Unary {
                op: UnaryOp::Neg, ..
            } => level::NEGATION,
            ExprKind::Unary {
                op: UnaryOp::Not, ..
            } => level::NOT,
            ExprKind::Binary { op, .. } => op.level(),
        }
    }

    /// The number of nodes on the longest path from this node to a leaf (a leaf has 1).
    pub fn height(&self) -> u32 {
        match &self.kind {
            ExprKind::Int(_) | ExprKind::Fixed(_) | ExprKind::Bool(_) | ExprKind::Variable(_) => 1,
            ExprKind::Unary { operand, .. } => 1 + operand.height(),
            ExprKind::Binary { lhs, rhs, .. } => 1 + lhs.height().max(rhs.height()),
        }
    }
}

/// Writes `e`, in parentheses when `parens`.
fn write_operand(f: &mut fmt::Formatter<'_>, e: &Expr, parens: bool) -> fmt::Result {
    if parens {
        write!(f, "({e})")
    } else {
        write!(f, "{e}")
    }
}

impl fmt::Display for Expr {
    /// The formula as text, with only the parentheses the tree's shape needs:
    /// `(a + b) * c`, `a - (b - c)`, `not (a and b)`, `(a < b) == c`.
    ///
    /// A `Fixed` literal always shows a decimal point (`2.0`), so that it reads back as a
    /// `Fixed`. Parsing the output gives back an equal tree, for every tree the parser can
    /// produce (negative literals, which it never produces, print as negations).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ExprKind::Int(n) => write!(f, "{n}"),
            ExprKind::Fixed(x) => {
                if x.raw() % Fixed::SCALE == 0 {
                    write!(f, "{x}.0")
                } else {
                    write!(f, "{x}")
                }
            }
            ExprKind::Bool(b) => write!(f, "{b}"),
            ExprKind::Variable(name) => f.write_str(name),
            ExprKind::Unary {
                op: UnaryOp::Neg,
                operand,
            } => {
                f.write_str("-")?;
                write_operand(f, operand, operand.level() < level::NEGATION)
            }
            ExprKind::Unary {
                op: UnaryOp::Not,
                operand,
            } => {
                f.write_str("not ")?;
                write_operand(f, operand, operand.level() < level::NOT)
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let own = op.level();
                // Left-associative operators keep an equal-level left operand bare;
                // comparisons do not associate at all.
                let lhs_parens = if op.is_comparison() {
                    lhs.level() <= own
                } else {
                    lhs.level() < own
                };
                write_operand(f, lhs, lhs_parens)?;
                write!(f, " {op} ")?;
                write_operand(f, rhs, rhs.level() <= own)
            }
        }
    }
}
