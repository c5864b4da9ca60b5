//! [`Formula`]: a formula compiled against a schema — the thing the engine stores and runs.
//!
//! Compiling does all the work that can fail for reasons in the text (parsing, names, types),
//! at load time, so that evaluation can fail only for reasons in the numbers (a division by
//! zero) or in a broken context.

use core::fmt;

use serde::{Serialize, Serializer};
use turnstile_determinism::Saturated;

use crate::ast::Expr;
use crate::compile::{compile, Program, UsedVariable};
use crate::error::{EvalError, FormulaError};
use crate::eval::VariableSource;
use crate::parser::parse;
use crate::schema::VariableSchema;
use crate::value::{Type, Value};

/// A formula, parsed, checked against a [`VariableSchema`] and compiled to a flat program.
///
/// ```
/// use turnstile_formula::{Formula, Type, Value, VariableSchema};
///
/// let schema = VariableSchema::from_declarations([
///     ("round", Type::Int),
///     ("source.hp", Type::Int),
/// ]).unwrap();
/// let condition = Formula::compile_condition("round >= 3 and source.hp > 0", &schema).unwrap();
///
/// // Values in slot order (the schema's declaration order).
/// let context = [Value::Int(4), Value::Int(10)];
/// assert_eq!(condition.eval_bool(&context), Ok(true));
/// assert_eq!(condition.variables().collect::<Vec<_>>(), ["round", "source.hp"]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Formula {
    source: String,
    tree: Expr,
    ty: Type,
    variables: Vec<UsedVariable>,
    program: Program,
}

impl Formula {
    /// Parses `text`, resolves its variables in `schema` and checks its types.
    ///
    /// Every refusal carries the line and column it refers to: a syntax error, an unknown
    /// variable, a type mismatch (`1 + true`), a nesting beyond the limits.
    pub fn compile(text: &str, schema: &VariableSchema) -> Result<Formula, FormulaError> {
        let tree = parse(text)?;
        let compiled = compile(&tree, schema)?;
        Ok(Formula {
            source: text.to_owned(),
            tree,
            ty: compiled.ty,
            variables: compiled.variables,
            program: compiled.program,
        })
    }

    /// [`Formula::compile`], and the formula must be a condition (of type `Bool`); otherwise
    /// [`FormulaError::NotACondition`].
    pub fn compile_condition(text: &str, schema: &VariableSchema) -> Result<Formula, FormulaError> {
        let formula = Formula::compile(text, schema)?;
        if formula.ty != Type::Bool {
            return Err(FormulaError::NotACondition {
                at: formula.tree.at,
                found: formula.ty,
            });
        }
        Ok(formula)
    }

    /// The text it was compiled from, unchanged.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Its syntax tree.
    pub fn tree(&self) -> &Expr {
        &self.tree
    }

    /// The type of its value.
    pub fn ty(&self) -> Type {
        self.ty
    }

    /// Whether it is a condition (of type `Bool`).
    pub fn is_condition(&self) -> bool {
        self.ty == Type::Bool
    }

    /// The names of the variables it reads, each once, in order of first appearance.
    pub fn variables(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.variables.iter().map(|v| v.name.as_str())
    }

    /// The variables it reads, with their slots and types, in order of first appearance.
    pub fn used_variables(&self) -> &[UsedVariable] {
        &self.variables
    }

    /// How many cells of value stack its evaluation needs (at most [`crate::MAX_DEPTH`]).
    pub fn max_stack(&self) -> u32 {
        self.program.max_stack
    }

    /// How many instructions its compiled program has.
    pub fn program_len(&self) -> usize {
        self.program.ops.len()
    }

    fn run<S: VariableSource + ?Sized>(&self, context: &S) -> Result<Saturated<i64>, EvalError> {
        let program = &self.program;
        // Three stack sizes cover every program (max_stack <= MAX_DEPTH = 64); the small
        // ones keep the common case's stack frame tiny.
        if program.max_stack <= 4 {
            program.run::<4, S>(&self.variables, context)
        } else if program.max_stack <= 16 {
            program.run::<16, S>(&self.variables, context)
        } else {
            program.run::<{ crate::MAX_DEPTH as usize }, S>(&self.variables, context)
        }
    }

    /// Evaluates it over `context`, without allocating.
    ///
    /// Integer and `Fixed` overflow saturate (see [`Formula::eval_reporting`] to learn when);
    /// a division or modulo by zero is [`EvalError::DivisionByZero`]; a context that lacks a
    /// slot or offers the wrong type is an error too. Never panics.
    pub fn eval<S: VariableSource + ?Sized>(&self, context: &S) -> Result<Value, EvalError> {
        let cell = self.run(context)?.value;
        Ok(Value::from_cell(self.ty, cell))
    }

    /// [`Formula::eval`] for a condition; [`EvalError::NotACondition`] when the formula is
    /// not of type `Bool`.
    pub fn eval_bool<S: VariableSource + ?Sized>(&self, context: &S) -> Result<bool, EvalError> {
        if self.ty != Type::Bool {
            return Err(EvalError::NotACondition { found: self.ty });
        }
        Ok(self.run(context)?.value != 0)
    }

    /// [`Formula::eval`], also reporting whether any step saturated (a score-like result
    /// that saturated must be reported, never hidden: spec/determinism.md).
    pub fn eval_reporting<S: VariableSource + ?Sized>(
        &self,
        context: &S,
    ) -> Result<Saturated<Value>, EvalError> {
        let result = self.run(context)?;
        Ok(Saturated {
            value: Value::from_cell(self.ty, result.value),
            saturated: result.saturated,
        })
    }
}

impl fmt::Display for Formula {
    /// The source text, unchanged.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

impl Serialize for Formula {
    /// The source text, as a string. There is no `Deserialize`: compiling needs a schema,
    /// which serde cannot pass; deserialize a [`crate::FormulaText`] and compile it.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.source)
    }
}
