//! The checker and code generator: a parsed tree, checked against a schema, becomes a flat
//! postfix program whose every operation already knows its operand types.
//!
//! Types are settled here, once, so the evaluator runs on untyped 64-bit cells (an integer,
//! a `Fixed`'s raw count, or 0/1) and never inspects a value's kind, except to check what a
//! context hands in. The value stack each program needs is computed here too.

use crate::ast::{BinaryOp, Expr, ExprKind, UnaryOp};
use crate::error::{FormulaError, Position};
use crate::schema::VariableSchema;
use crate::value::Type;
use crate::MAX_DEPTH;

/// The operand types of a numeric operation (an `Int` meeting a `Fixed` is promoted, exactly).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mix {
    /// Both integers (also both truth values, for `==` and `!=`).
    IntInt,
    /// Both `Fixed`.
    FixedFixed,
    /// An integer, then a `Fixed`.
    IntFixed,
    /// A `Fixed`, then an integer.
    FixedInt,
}

impl Mix {
    fn of(lhs: Type, rhs: Type) -> Mix {
        match (lhs, rhs) {
            (Type::Fixed, Type::Fixed) => Mix::FixedFixed,
            (Type::Int, Type::Fixed) => Mix::IntFixed,
            (Type::Fixed, Type::Int) => Mix::FixedInt,
            _ => Mix::IntInt,
        }
    }
}

/// An arithmetic operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Arith {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Compare {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

/// One instruction of a compiled formula. Stack effects are in brackets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    /// [-- c] a constant cell.
    Push(i64),
    /// [-- v] the context's value at `slot`, which must have type `ty`; `variable` indexes
    /// the formula's list of used variables (for error messages).
    Load { slot: u16, variable: u16, ty: Type },
    /// [a -- -a] saturating negation of an integer or a `Fixed` (the same on raw cells).
    Neg,
    /// [a -- !a] on a truth value.
    Not,
    /// [a b -- a op b]
    Arith { op: Arith, mix: Mix },
    /// [a b -- a op b] (a truth value)
    Compare { op: Compare, mix: Mix },
    /// `and`: if the top is false, jump to the target keeping it; else pop it and go on.
    JumpIfFalse(u32),
    /// `or`: if the top is true, jump to the target keeping it; else pop it and go on.
    JumpIfTrue(u32),
}

/// A compiled formula: its instructions, where each came from, and the stack it needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Program {
    pub(crate) ops: Vec<Op>,
    /// The source position of each instruction (for evaluation errors).
    pub(crate) at: Vec<Position>,
    /// The deepest the value stack gets; at most [`MAX_DEPTH`].
    pub(crate) max_stack: u32,
}

/// A variable a formula reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsedVariable {
    /// Its name.
    pub name: String,
    /// Its slot in the schema the formula was compiled against.
    pub slot: u16,
    /// Its declared type.
    pub ty: Type,
}

/// The result of compiling a tree.
pub(crate) struct Compiled {
    pub(crate) program: Program,
    pub(crate) ty: Type,
    pub(crate) variables: Vec<UsedVariable>,
}

/// What a non-logical binary operator does.
#[derive(Clone, Copy)]
enum Numeric {
    Arith(Arith),
    Compare(Compare),
}

struct Compiler<'s> {
    schema: &'s VariableSchema,
    ops: Vec<Op>,
    at: Vec<Position>,
    variables: Vec<UsedVariable>,
}

fn mismatch(at: Position, detail: String) -> FormulaError {
    FormulaError::TypeMismatch { at, detail }
}

impl Compiler<'_> {
    fn emit(&mut self, op: Op, at: Position) -> usize {
        self.ops.push(op);
        self.at.push(at);
        self.ops.len() - 1
    }

    fn variable(&mut self, name: &str, at: Position) -> Result<Type, FormulaError> {
        let Some(declaration) = self.schema.get(name) else {
            return Err(FormulaError::UnknownVariable {
                at,
                name: name.to_owned(),
            });
        };
        let (slot, ty) = (declaration.slot, declaration.ty);
        let index = match self.variables.iter().position(|v| v.slot == slot) {
            Some(index) => index,
            None => {
                self.variables.push(UsedVariable {
                    name: name.to_owned(),
                    slot,
                    ty,
                });
                self.variables.len() - 1
            }
        };
        // At most as many used variables as schema slots, which fit a u16.
        let variable = u16::try_from(index).unwrap_or(u16::MAX);
        self.emit(Op::Load { slot, variable, ty }, at);
        Ok(ty)
    }

    /// Checks and emits `e`; returns its type and the stack depth its evaluation needs.
    fn expr(&mut self, e: &Expr) -> Result<(Type, u32), FormulaError> {
        match &e.kind {
            ExprKind::Int(n) => {
                self.emit(Op::Push(*n), e.at);
                Ok((Type::Int, 1))
            }
            ExprKind::Fixed(x) => {
                self.emit(Op::Push(x.raw()), e.at);
                Ok((Type::Fixed, 1))
            }
            ExprKind::Bool(b) => {
                self.emit(Op::Push(i64::from(*b)), e.at);
                Ok((Type::Bool, 1))
            }
            ExprKind::Variable(name) => Ok((self.variable(name, e.at)?, 1)),
            ExprKind::Unary { op, operand } => {
                let (ty, depth) = self.expr(operand)?;
                match op {
                    UnaryOp::Neg if ty.is_number() => {
                        self.emit(Op::Neg, e.at);
                        Ok((ty, depth))
                    }
                    UnaryOp::Neg => Err(mismatch(
                        operand.at,
                        format!("`-` needs a number, found {ty}"),
                    )),
                    UnaryOp::Not if ty == Type::Bool => {
                        self.emit(Op::Not, e.at);
                        Ok((Type::Bool, depth))
                    }
                    UnaryOp::Not => Err(mismatch(
                        operand.at,
                        format!("`not` needs true or false, found {ty}"),
                    )),
                }
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let kind = match op {
                    BinaryOp::And | BinaryOp::Or => return self.logical(*op, lhs, rhs),
                    BinaryOp::Add => Numeric::Arith(Arith::Add),
                    BinaryOp::Sub => Numeric::Arith(Arith::Sub),
                    BinaryOp::Mul => Numeric::Arith(Arith::Mul),
                    BinaryOp::Div => Numeric::Arith(Arith::Div),
                    BinaryOp::Rem => Numeric::Arith(Arith::Rem),
                    BinaryOp::Lt => Numeric::Compare(Compare::Lt),
                    BinaryOp::Le => Numeric::Compare(Compare::Le),
                    BinaryOp::Gt => Numeric::Compare(Compare::Gt),
                    BinaryOp::Ge => Numeric::Compare(Compare::Ge),
                    BinaryOp::Eq => Numeric::Compare(Compare::Eq),
                    BinaryOp::Ne => Numeric::Compare(Compare::Ne),
                };
                self.numeric(*op, kind, e.at, lhs, rhs)
            }
        }
    }

    fn logical(
        &mut self,
        op: BinaryOp,
        lhs: &Expr,
        rhs: &Expr,
    ) -> Result<(Type, u32), FormulaError> {
        let (lhs_ty, lhs_depth) = self.expr(lhs)?;
        if lhs_ty != Type::Bool {
            return Err(mismatch(
                lhs.at,
                format!("`{op}` needs true or false on its left, found {lhs_ty}"),
            ));
        }
        let jump = if op == BinaryOp::And {
            Op::JumpIfFalse(0)
        } else {
            Op::JumpIfTrue(0)
        };
        let jump_at = self.emit(jump, lhs.at);
        let (rhs_ty, rhs_depth) = self.expr(rhs)?;
        if rhs_ty != Type::Bool {
            return Err(mismatch(
                rhs.at,
                format!("`{op}` needs true or false on its right, found {rhs_ty}"),
            ));
        }
        // The source is at most MAX_SOURCE_BYTES long, so the program fits a u32 many times.
        let target = u32::try_from(self.ops.len()).unwrap_or(u32::MAX);
        self.ops[jump_at] = if op == BinaryOp::And {
            Op::JumpIfFalse(target)
        } else {
            Op::JumpIfTrue(target)
        };
        Ok((Type::Bool, lhs_depth.max(rhs_depth)))
    }

    fn numeric(
        &mut self,
        op: BinaryOp,
        kind: Numeric,
        at: Position,
        lhs: &Expr,
        rhs: &Expr,
    ) -> Result<(Type, u32), FormulaError> {
        let (lhs_ty, lhs_depth) = self.expr(lhs)?;
        let (rhs_ty, rhs_depth) = self.expr(rhs)?;
        let depth = lhs_depth.max(rhs_depth + 1);
        let mix = Mix::of(lhs_ty, rhs_ty);
        let equality = matches!(kind, Numeric::Compare(Compare::Eq | Compare::Ne));
        if let Numeric::Compare(compare @ (Compare::Eq | Compare::Ne)) = kind {
            if lhs_ty == Type::Bool && rhs_ty == Type::Bool {
                // Truth values are the cells 0 and 1: compared like integers.
                self.emit(
                    Op::Compare {
                        op: compare,
                        mix: Mix::IntInt,
                    },
                    at,
                );
                return Ok((Type::Bool, depth));
            }
        }
        if equality && lhs_ty.is_number() != rhs_ty.is_number() {
            return Err(mismatch(
                at,
                format!(
                    "`{op}` compares two numbers or two truth values, found {lhs_ty} and {rhs_ty}"
                ),
            ));
        }
        if !lhs_ty.is_number() {
            return Err(mismatch(
                lhs.at,
                format!("`{op}` needs a number on its left, found {lhs_ty}"),
            ));
        }
        if !rhs_ty.is_number() {
            return Err(mismatch(
                rhs.at,
                format!("`{op}` needs a number on its right, found {rhs_ty}"),
            ));
        }
        let number = if mix == Mix::IntInt {
            Type::Int
        } else {
            Type::Fixed
        };
        let (instruction, ty) = match kind {
            Numeric::Arith(op) => (Op::Arith { op, mix }, number),
            Numeric::Compare(op) => (Op::Compare { op, mix }, Type::Bool),
        };
        self.emit(instruction, at);
        Ok((ty, depth))
    }
}

/// Checks `tree` against `schema` and compiles it.
pub(crate) fn compile(tree: &Expr, schema: &VariableSchema) -> Result<Compiled, FormulaError> {
    let mut compiler = Compiler {
        schema,
        ops: Vec::new(),
        at: Vec::new(),
        variables: Vec::new(),
    };
    let (ty, max_stack) = compiler.expr(tree)?;
    // A tree of height h needs at most h stack cells, and the parser bounds h by MAX_DEPTH;
    // a tree built by hand may not be, so this is checked rather than assumed.
    if max_stack > MAX_DEPTH {
        return Err(FormulaError::TooDeep {
            at: tree.at,
            limit: MAX_DEPTH,
        });
    }
    Ok(Compiled {
        program: Program {
            ops: compiler.ops,
            at: compiler.at,
            max_stack,
        },
        ty,
        variables: compiler.variables,
    })
}
