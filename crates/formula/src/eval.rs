//! The evaluator: runs a compiled program over a context, on a small fixed-size stack,
//! allocating nothing.
//!
//! Every operation's arithmetic is here, exactly as docs/formula.md states it: integer
//! overflow saturates, division and modulo floor for every sign (through the determinism
//! kit's `floor_div_i128`), `Fixed` products and quotients are the kit's own, an `Int` meeting
//! a `Fixed` is promoted exactly, and dividing by zero is an error value.

use core::cmp::Ordering;

use turnstile_determinism::fixed::floor_div_i128;
use turnstile_determinism::{Fixed, Saturated};

use crate::compile::{Arith, Compare, Mix, Op, Program, UsedVariable};
use crate::error::{EvalError, Position};
use crate::value::{Type, Value};

/// Where a formula's variables get their values at evaluation time.
///
/// `get` is called with the slot the [`crate::VariableSchema`] gave each variable; it
/// returns `None` when the context has no value there (an [`EvalError::MissingVariable`]).
/// A value of another type than declared is an [`EvalError::VariableType`].
///
/// A slice (or array, or `Vec`) of [`Value`]s in slot order is a source.
pub trait VariableSource {
    /// The value of the variable at `slot`.
    fn get(&self, slot: u16) -> Option<Value>;
}

impl VariableSource for [Value] {
    fn get(&self, slot: u16) -> Option<Value> {
        <[Value]>::get(self, usize::from(slot)).copied()
    }
}

impl<const N: usize> VariableSource for [Value; N] {
    fn get(&self, slot: u16) -> Option<Value> {
        self.as_slice().get(usize::from(slot)).copied()
    }
}

impl VariableSource for Vec<Value> {
    fn get(&self, slot: u16) -> Option<Value> {
        self.as_slice().get(usize::from(slot)).copied()
    }
}

impl<S: VariableSource + ?Sized> VariableSource for &S {
    fn get(&self, slot: u16) -> Option<Value> {
        (**self).get(slot)
    }
}

/// Ten-thousandths per unit, widened.
const SCALE: i128 = Fixed::SCALE as i128;

/// Clamps to `i64`, reporting whether it had to.
fn clamp(v: i128) -> Saturated<i64> {
    match i64::try_from(v) {
        Ok(v) => Saturated::exact(v),
        Err(_) => Saturated {
            value: if v < 0 { i64::MIN } else { i64::MAX },
            saturated: true,
        },
    }
}

/// A division by zero, positioned by the caller.
struct DivisionByZero;

/// `a - b * floor(a / b)`: the floor modulo, with the divisor's sign.
fn floor_rem(a: i128, b: i128) -> Result<i128, DivisionByZero> {
    let q = floor_div_i128(a, b).ok_or(DivisionByZero)?;
    Ok(a - q * b)
}

/// An integer cell promoted to a `Fixed` raw count, exactly (in `i128`).
fn promote(n: i64) -> i128 {
    i128::from(n) * SCALE
}

fn int_arith(op: Arith, a: i64, b: i64) -> Result<Saturated<i64>, DivisionByZero> {
    let (a, b) = (i128::from(a), i128::from(b));
    Ok(match op {
        Arith::Add => clamp(a + b),
        Arith::Sub => clamp(a - b),
        Arith::Mul => clamp(a * b),
        // Within i64 operands, only b == 0 makes the kit's helper refuse.
        Arith::Div => clamp(floor_div_i128(a, b).ok_or(DivisionByZero)?),
        Arith::Rem => clamp(floor_rem(a, b)?),
    })
}

fn fixed_arith(op: Arith, a: i64, b: i64) -> Result<Saturated<i64>, DivisionByZero> {
    let (x, y) = (Fixed::from_raw(a), Fixed::from_raw(b));
    let result = match op {
        Arith::Add => match x.checked_add(y) {
            Some(sum) => Saturated::exact(sum),
            None => Saturated {
                value: x.saturating_add(y),
                saturated: true,
            },
        },
        Arith::Sub => match x.checked_sub(y) {
            Some(difference) => Saturated::exact(difference),
            None => Saturated {
                value: x.saturating_sub(y),
                saturated: true,
            },
        },
        Arith::Mul => x.mul(y),
        Arith::Div => x.div(y).map_err(|_| DivisionByZero)?,
        Arith::Rem => {
            return Ok(clamp(floor_rem(i128::from(a), i128::from(b))?));
        }
    };
    Ok(Saturated {
        value: result.value.raw(),
        saturated: result.saturated,
    })
}

/// `n op x` for an integer `n` and a `Fixed` raw count `x`, as if `n` were the `Fixed`
/// `n.0000` — computed exactly in `i128` and saturated once (so an integer too large to be a
/// `Fixed` still combines exactly: `922337203685478 * 0.5` is `461168601842739`).
fn int_fixed_arith(op: Arith, n: i64, x: i64) -> Result<Saturated<i64>, DivisionByZero> {
    let (wide_n, wide_x) = (promote(n), i128::from(x));
    Ok(clamp(match op {
        Arith::Add => wide_n + wide_x,
        Arith::Sub => wide_n - wide_x,
        // floor(n*10000 * x / 10000) = n * x exactly.
        Arith::Mul => i128::from(n) * wide_x,
        // floor(n*10000 * 10000 / x)
        Arith::Div => floor_div_i128(wide_n * SCALE, wide_x).ok_or(DivisionByZero)?,
        Arith::Rem => floor_rem(wide_n, wide_x)?,
    }))
}

/// `x op n` for a `Fixed` raw count `x` and an integer `n` (see [`int_fixed_arith`]).
fn fixed_int_arith(op: Arith, x: i64, n: i64) -> Result<Saturated<i64>, DivisionByZero> {
    let (wide_x, wide_n) = (i128::from(x), promote(n));
    Ok(clamp(match op {
        Arith::Add => wide_x + wide_n,
        Arith::Sub => wide_x - wide_n,
        Arith::Mul => wide_x * i128::from(n),
        // floor(x * 10000 / (n*10000)) = floor(x / n)
        Arith::Div => floor_div_i128(wide_x, i128::from(n)).ok_or(DivisionByZero)?,
        Arith::Rem => floor_rem(wide_x, wide_n)?,
    }))
}

fn arith(op: Arith, mix: Mix, a: i64, b: i64) -> Result<Saturated<i64>, DivisionByZero> {
    match mix {
        Mix::IntInt => int_arith(op, a, b),
        Mix::FixedFixed => fixed_arith(op, a, b),
        Mix::IntFixed => int_fixed_arith(op, a, b),
        Mix::FixedInt => fixed_int_arith(op, a, b),
    }
}

/// Exact comparison of two cells of the given types.
fn compare(op: Compare, mix: Mix, a: i64, b: i64) -> bool {
    let ordering = match mix {
        Mix::IntInt | Mix::FixedFixed => a.cmp(&b),
        Mix::IntFixed => promote(a).cmp(&i128::from(b)),
        Mix::FixedInt => i128::from(a).cmp(&promote(b)),
    };
    match op {
        Compare::Lt => ordering == Ordering::Less,
        Compare::Le => ordering != Ordering::Greater,
        Compare::Gt => ordering == Ordering::Greater,
        Compare::Ge => ordering != Ordering::Less,
        Compare::Eq => ordering == Ordering::Equal,
        Compare::Ne => ordering != Ordering::Equal,
    }
}

impl Program {
    /// Runs the program; returns the result cell and whether any step saturated.
    ///
    /// The stack is an array of `N` cells on the machine stack; the caller picks `N` at least
    /// [`Program::max_stack`], which the compiler computed.
    pub(crate) fn run<const N: usize, S: VariableSource + ?Sized>(
        &self,
        variables: &[UsedVariable],
        context: &S,
    ) -> Result<Saturated<i64>, EvalError> {
        let mut stack = [0_i64; N];
        // The number of cells in use; the top is `stack[len - 1]`. The compiler guarantees
        // that no instruction pops an empty stack and that `len` never exceeds `max_stack`.
        let mut len = 0;
        let mut saturated = false;
        let mut pc = 0;
        while let Some(op) = self.ops.get(pc) {
            pc += 1;
            match *op {
                Op::Push(cell) => {
                    stack[len] = cell;
                    len += 1;
                }
                Op::Load { slot, variable, ty } => {
                    stack[len] = match context.get(slot) {
                        Some(value) if value.ty() == ty => value.to_cell(),
                        found => return Err(variable_error(variables, variable, slot, ty, found)),
                    };
                    len += 1;
                }
                Op::Neg => {
                    let negated = clamp(-i128::from(stack[len - 1]));
                    saturated |= negated.saturated;
                    stack[len - 1] = negated.value;
                }
                Op::Not => stack[len - 1] ^= 1,
                Op::Arith { op, mix } => {
                    len -= 1;
                    let (a, b) = (stack[len - 1], stack[len]);
                    let result = arith(op, mix, a, b).map_err(|DivisionByZero| {
                        EvalError::DivisionByZero {
                            at: self.at.get(pc - 1).copied().unwrap_or(Position::START),
                        }
                    })?;
                    saturated |= result.saturated;
                    stack[len - 1] = result.value;
                }
                Op::Compare { op, mix } => {
                    len -= 1;
                    let (a, b) = (stack[len - 1], stack[len]);
                    stack[len - 1] = i64::from(compare(op, mix, a, b));
                }
                Op::JumpIfFalse(target) => {
                    if stack[len - 1] == 0 {
                        pc = target as usize;
                    } else {
                        len -= 1;
                    }
                }
                Op::JumpIfTrue(target) => {
                    if stack[len - 1] != 0 {
                        pc = target as usize;
                    } else {
                        len -= 1;
                    }
                }
            }
        }
        Ok(Saturated {
            value: stack[0],
            saturated,
        })
    }
}

#[cold]
fn variable_error(
    variables: &[UsedVariable],
    variable: u16,
    slot: u16,
    expected: Type,
    found: Option<Value>,
) -> EvalError {
    let name = variables
        .get(usize::from(variable))
        .map_or_else(String::new, |v| v.name.clone());
    match found {
        None => EvalError::MissingVariable { name, slot },
        Some(value) => EvalError::VariableType {
            name,
            slot,
            expected,
            found: value.ty(),
        },
    }
}
