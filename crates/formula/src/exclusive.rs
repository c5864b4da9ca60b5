//! Provable exclusivity of two conditions, for the phase-graph validator: two edges with the
//! same trigger and priority are ambiguous unless their conditions can never both hold.
//!
//! Only the two forms of spec/phases.md are recognized, deliberately: a condition against its
//! negation (`X` and `not X`), and one variable compared with constants whose ranges do not
//! meet (`round < 3` and `round >= 3`). Anything else answers `false` — "not provably
//! exclusive" — even when a cleverer prover could show it; a validator must be predictable.

use turnstile_determinism::fixed::floor_div_i128;
use turnstile_determinism::Fixed;

use crate::ast::{BinaryOp, Expr, ExprKind, UnaryOp};
use crate::formula::Formula;
use crate::value::Type;

/// Whether `negation` is `not X` with `X` structurally equal to `other`.
fn is_negation_of(negation: &Expr, other: &Expr) -> bool {
    matches!(
        &negation.kind,
        ExprKind::Unary { op: UnaryOp::Not, operand } if **operand == *other
    )
}

/// A constant's value in raw units (ten-thousandths for numbers, 0/1 for truth values).
fn constant(e: &Expr) -> Option<i128> {
    match &e.kind {
        ExprKind::Int(n) => Some(i128::from(*n) * i128::from(Fixed::SCALE)),
        ExprKind::Fixed(x) => Some(i128::from(x.raw())),
        ExprKind::Bool(b) => Some(i128::from(*b)),
        ExprKind::Unary {
            op: UnaryOp::Neg,
            operand,
        } => match &operand.kind {
            // Only a negated numeric literal, not `-(-(...))` towers or `-true` (which does
            // not type-check anyway).
            ExprKind::Int(_) | ExprKind::Fixed(_) => constant(operand).map(|c| -c),
            _ => None,
        },
        _ => None,
    }
}

/// `variable op constant`, the constant on either side, normalized to the variable first.
fn comparison(e: &Expr) -> Option<(&str, BinaryOp, i128)> {
    let ExprKind::Binary { op, lhs, rhs } = &e.kind else {
        return None;
    };
    if !op.is_comparison() {
        return None;
    }
    match (&lhs.kind, &rhs.kind) {
        (ExprKind::Variable(name), _) => Some((name, *op, constant(rhs)?)),
        (_, ExprKind::Variable(name)) => Some((name, op.flipped(), constant(lhs)?)),
        _ => None,
    }
}

/// The values a variable of a type can take, in raw units: every multiple of `step` in
/// `lo..=hi`.
#[derive(Clone, Copy)]
struct Domain {
    step: i128,
    lo: i128,
    hi: i128,
}

impl Domain {
    fn of(ty: Type) -> Domain {
        let scale = i128::from(Fixed::SCALE);
        match ty {
            Type::Int => Domain {
                step: scale,
                lo: i128::from(i64::MIN) * scale,
                hi: i128::from(i64::MAX) * scale,
            },
            Type::Fixed => Domain {
                step: 1,
                lo: i128::from(i64::MIN),
                hi: i128::from(i64::MAX),
            },
            Type::Bool => Domain {
                step: 1,
                lo: 0,
                hi: 1,
            },
        }
    }

    /// The first and last values of the domain in `lo..=hi`, or `None` when there is none.
    fn span(self, lo: i128, hi: i128) -> Option<(i128, i128)> {
        let (lo, hi) = (lo.max(self.lo), hi.min(self.hi));
        // ceil(lo / step) * step and floor(hi / step) * step, with the kit's floor division.
        let first = -floor_div_i128(-lo, self.step)? * self.step;
        let last = floor_div_i128(hi, self.step)? * self.step;
        (first <= last).then_some((first, last))
    }
}

/// The values a comparison lets through: an interval, or everything but one value.
#[derive(Clone, Copy)]
enum Allowed {
    Range(i128, i128),
    AllBut(i128),
}

fn allowed(op: BinaryOp, c: i128) -> Allowed {
    match op {
        BinaryOp::Lt => Allowed::Range(i128::MIN, c - 1),
        BinaryOp::Le => Allowed::Range(i128::MIN, c),
        BinaryOp::Gt => Allowed::Range(c + 1, i128::MAX),
        BinaryOp::Ge => Allowed::Range(c, i128::MAX),
        BinaryOp::Eq => Allowed::Range(c, c),
        _ => Allowed::AllBut(c),
    }
}

/// Whether no value of `domain` is let through by both.
fn disjoint(domain: Domain, a: Allowed, b: Allowed) -> bool {
    match (a, b) {
        (Allowed::Range(lo_a, hi_a), Allowed::Range(lo_b, hi_b)) => {
            domain.span(lo_a.max(lo_b), hi_a.min(hi_b)).is_none()
        }
        (Allowed::Range(lo, hi), Allowed::AllBut(c))
        | (Allowed::AllBut(c), Allowed::Range(lo, hi)) => match domain.span(lo, hi) {
            None => true,
            Some((first, last)) => first == c && last == c,
        },
        (Allowed::AllBut(c), Allowed::AllBut(d)) => match domain.span(domain.lo, domain.hi) {
            // Only a domain of at most two values (a truth value) can be emptied by two
            // exclusions.
            Some((first, last)) if last - first <= domain.step => {
                (first == c || first == d) && (last == c || last == d)
            }
            _ => false,
        },
    }
}

impl Formula {
    /// Whether `self` and `other` provably never hold together, by one of the two forms of
    /// spec/phases.md:
    ///
    /// 1. one is `not X` and the other is `X` (structurally equal after parsing:
    ///    `not (round < 3)` against `(round < 3)`);
    /// 2. both compare the same variable with a constant (on either side, `3 > round` is
    ///    `round < 3`; a constant is a literal, possibly negated) and no value of the
    ///    variable's type satisfies both: `round < 3` against `round >= 3`, `x == 1` against
    ///    `x == 2` or `x != 1`, `hp > 2` against `hp < 2.5` for an integer `hp`.
    ///
    /// Anything else is `false` ("not provably exclusive"), including formulas whose shared
    /// variables have different types (compiled against different schemas).
    ///
    /// ```
    /// use turnstile_formula::{Formula, Type, VariableSchema};
    /// let schema = VariableSchema::from_declarations([("round", Type::Int)]).unwrap();
    /// let c = |text| Formula::compile_condition(text, &schema).unwrap();
    /// assert!(c("round < 3").exclusive_with(&c("round >= 3")));
    /// assert!(c("round < 3").exclusive_with(&c("not (round < 3)")));
    /// assert!(!c("round < 3").exclusive_with(&c("round > 1")));
    /// ```
    pub fn exclusive_with(&self, other: &Formula) -> bool {
        let same_types = self.used_variables().iter().all(|mine| {
            other
                .used_variables()
                .iter()
                .all(|theirs| theirs.name != mine.name || theirs.ty == mine.ty)
        });
        if !same_types {
            return false;
        }
        let (a, b) = (self.tree(), other.tree());
        if is_negation_of(a, b) || is_negation_of(b, a) {
            return true;
        }
        let (Some((name_a, op_a, c_a)), Some((name_b, op_b, c_b))) = (comparison(a), comparison(b))
        else {
            return false;
        };
        if name_a != name_b {
            return false;
        }
        let Some(variable) = self.used_variables().iter().find(|v| v.name == name_a) else {
            return false;
        };
        disjoint(
            Domain::of(variable.ty),
            allowed(op_a, c_a),
            allowed(op_b, c_b),
        )
    }
}
