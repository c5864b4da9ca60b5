//! Property tests: the parser and compiler never panic on any text; printing a tree and
//! parsing it again gives the same tree; any compiled formula evaluates without panicking
//! over any context; integer division and modulo satisfy their floor definition.

mod common;

use common::{schema, DECLARATIONS};
use proptest::prelude::*;
use turnstile_determinism::Fixed;
use turnstile_formula::{parse, BinaryOp, Expr, ExprKind, Formula, Type, UnaryOp, Value};

/// Token soup: texts made of the language's own pieces, far more likely than random
/// characters to get deep into the parser.
fn token_soup() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "(",
        ")",
        "+",
        "-",
        "*",
        "/",
        "%",
        "<",
        "<=",
        ">",
        ">=",
        "==",
        "!=",
        "=",
        "!",
        "and",
        "or",
        "not",
        "true",
        "false",
        "round",
        "turn",
        "source.hp",
        "source.mult",
        "tag_spell",
        "b",
        "f",
        "i",
        "0",
        "1",
        "7",
        "9223372036854775807",
        "9223372036854775808",
        "1.5",
        "0.0001",
        "1.23456",
        "1.",
        ".",
        "..",
        "é",
        "\n",
        " ",
        "1e5",
    ]);
    prop::collection::vec(pieces, 0..40).prop_map(|pieces| pieces.join(" "))
}

fn leaf() -> impl Strategy<Value = Expr> {
    prop_oneof![
        (0..=i64::MAX).prop_map(ExprKind::Int),
        prop_oneof![Just(0_i64), Just(1), Just(7), Just(10_000)].prop_map(ExprKind::Int),
        (0..=i64::MAX).prop_map(|raw| ExprKind::Fixed(Fixed::from_raw(raw))),
        (0_i64..100_000).prop_map(|raw| ExprKind::Fixed(Fixed::from_raw(raw))),
        any::<bool>().prop_map(ExprKind::Bool),
        prop::sample::select(DECLARATIONS.map(|(name, _)| name).to_vec())
            .prop_map(|name| ExprKind::Variable(name.to_owned())),
    ]
    .prop_map(Expr::new)
}

fn binary_op() -> impl Strategy<Value = BinaryOp> {
    prop::sample::select(vec![
        BinaryOp::Mul,
        BinaryOp::Div,
        BinaryOp::Rem,
        BinaryOp::Add,
        BinaryOp::Sub,
        BinaryOp::Lt,
        BinaryOp::Le,
        BinaryOp::Gt,
        BinaryOp::Ge,
        BinaryOp::Eq,
        BinaryOp::Ne,
        BinaryOp::And,
        BinaryOp::Or,
    ])
}

/// Random trees of any shape (not necessarily well typed), with the non-negative literals
/// the parser produces.
fn tree() -> impl Strategy<Value = Expr> {
    leaf().prop_recursive(8, 64, 2, |inner| {
        prop_oneof![
            (
                prop_oneof![Just(UnaryOp::Neg), Just(UnaryOp::Not)],
                inner.clone()
            )
                .prop_map(|(op, operand)| Expr::new(ExprKind::Unary {
                    op,
                    operand: Box::new(operand)
                })),
            (binary_op(), inner.clone(), inner).prop_map(|(op, lhs, rhs)| Expr::new(
                ExprKind::Binary {
                    op,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs)
                }
            )),
        ]
    })
}

/// A value of each type, biased to the edges.
fn value_of(ty: Type) -> BoxedStrategy<Value> {
    match ty {
        Type::Int => prop_oneof![
            any::<i64>(),
            Just(i64::MIN),
            Just(i64::MAX),
            Just(0_i64),
            -3_i64..=3
        ]
        .prop_map(Value::Int)
        .boxed(),
        Type::Fixed => prop_oneof![
            any::<i64>(),
            Just(i64::MIN),
            Just(i64::MAX),
            Just(0_i64),
            -30_000_i64..=30_000
        ]
        .prop_map(|raw| Value::Fixed(Fixed::from_raw(raw)))
        .boxed(),
        Type::Bool => any::<bool>().prop_map(Value::Bool).boxed(),
    }
}

fn context() -> impl Strategy<Value = Vec<Value>> {
    DECLARATIONS
        .iter()
        .map(|(_, ty)| value_of(*ty))
        .collect::<Vec<_>>()
}

/// Well-typed trees of type `ty`, at most `depth` operators deep: formulas that compile.
fn typed(ty: Type, depth: u32) -> BoxedStrategy<Expr> {
    let variables: Vec<&'static str> = DECLARATIONS
        .iter()
        .filter(|(_, t)| *t == ty)
        .map(|(name, _)| *name)
        .collect();
    let variable = prop::sample::select(variables)
        .prop_map(|name| Expr::new(ExprKind::Variable(name.to_owned())));
    let literal = match ty {
        Type::Int => prop_oneof![0..=i64::MAX, 0_i64..10]
            .prop_map(ExprKind::Int)
            .boxed(),
        Type::Fixed => prop_oneof![0..=i64::MAX, 0_i64..100_000]
            .prop_map(|raw| ExprKind::Fixed(Fixed::from_raw(raw)))
            .boxed(),
        Type::Bool => any::<bool>().prop_map(ExprKind::Bool).boxed(),
    }
    .prop_map(Expr::new);
    let leaf = prop_oneof![literal, variable];
    if depth == 0 {
        return leaf.boxed();
    }
    let unary = |op, operand: BoxedStrategy<Expr>| {
        operand.prop_map(move |operand| {
            Expr::new(ExprKind::Unary {
                op,
                operand: Box::new(operand),
            })
        })
    };
    let binary = |ops: Vec<BinaryOp>, lhs: BoxedStrategy<Expr>, rhs: BoxedStrategy<Expr>| {
        (prop::sample::select(ops), lhs, rhs).prop_map(|(op, lhs, rhs)| {
            Expr::new(ExprKind::Binary {
                op,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            })
        })
    };
    let arith = vec![
        BinaryOp::Add,
        BinaryOp::Sub,
        BinaryOp::Mul,
        BinaryOp::Div,
        BinaryOp::Rem,
    ];
    let comparisons = vec![
        BinaryOp::Lt,
        BinaryOp::Le,
        BinaryOp::Gt,
        BinaryOp::Ge,
        BinaryOp::Eq,
        BinaryOp::Ne,
    ];
    let sub = |t| typed(t, depth - 1);
    match ty {
        Type::Int => prop_oneof![
            2 => leaf,
            1 => unary(UnaryOp::Neg, sub(Type::Int)),
            3 => binary(arith, sub(Type::Int), sub(Type::Int)),
        ]
        .boxed(),
        Type::Fixed => prop_oneof![
            2 => leaf,
            1 => unary(UnaryOp::Neg, sub(Type::Fixed)),
            1 => binary(arith.clone(), sub(Type::Fixed), sub(Type::Fixed)),
            1 => binary(arith.clone(), sub(Type::Int), sub(Type::Fixed)),
            1 => binary(arith, sub(Type::Fixed), sub(Type::Int)),
        ]
        .boxed(),
        Type::Bool => {
            let number = || prop_oneof![sub(Type::Int), sub(Type::Fixed)].boxed();
            prop_oneof![
                2 => leaf,
                1 => unary(UnaryOp::Not, sub(Type::Bool)),
                2 => binary(vec![BinaryOp::And, BinaryOp::Or], sub(Type::Bool), sub(Type::Bool)),
                3 => binary(comparisons, number(), number()),
                1 => binary(vec![BinaryOp::Eq, BinaryOp::Ne], sub(Type::Bool), sub(Type::Bool)),
            ]
            .boxed()
        }
    }
}

fn compare(op: BinaryOp, x: i128, y: i128) -> bool {
    match op {
        BinaryOp::Lt => x < y,
        BinaryOp::Le => x <= y,
        BinaryOp::Gt => x > y,
        BinaryOp::Ge => x >= y,
        BinaryOp::Eq => x == y,
        _ => x != y,
    }
}

/// An independent tree-walking evaluator over exact `i128` arithmetic: the oracle the
/// compiled program must agree with. `None` stands for a division by zero.
fn oracle(e: &Expr, values: &[Value]) -> Option<Value> {
    use turnstile_determinism::fixed::floor_div_i128;
    const SCALE: i128 = 10_000;
    let clamp = |v: i128| v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
    Some(match &e.kind {
        ExprKind::Int(n) => Value::Int(*n),
        ExprKind::Fixed(x) => Value::Fixed(*x),
        ExprKind::Bool(b) => Value::Bool(*b),
        ExprKind::Variable(name) => {
            let slot = DECLARATIONS.iter().position(|(n, _)| n == name)?;
            values[slot]
        }
        ExprKind::Unary {
            op: UnaryOp::Neg,
            operand,
        } => match oracle(operand, values)? {
            Value::Int(n) => Value::Int(clamp(-i128::from(n))),
            Value::Fixed(x) => Value::Fixed(Fixed::from_raw(clamp(-i128::from(x.raw())))),
            Value::Bool(_) => unreachable!("typed"),
        },
        ExprKind::Unary {
            op: UnaryOp::Not,
            operand,
        } => match oracle(operand, values)? {
            Value::Bool(b) => Value::Bool(!b),
            _ => unreachable!("typed"),
        },
        ExprKind::Binary {
            op: BinaryOp::And,
            lhs,
            rhs,
        } => match oracle(lhs, values)? {
            Value::Bool(false) => Value::Bool(false),
            _ => oracle(rhs, values)?,
        },
        ExprKind::Binary {
            op: BinaryOp::Or,
            lhs,
            rhs,
        } => match oracle(lhs, values)? {
            Value::Bool(true) => Value::Bool(true),
            _ => oracle(rhs, values)?,
        },
        ExprKind::Binary { op, lhs, rhs } => {
            let (a, b) = (oracle(lhs, values)?, oracle(rhs, values)?);
            if let (Value::Bool(a), Value::Bool(b)) = (a, b) {
                return Some(Value::Bool(if *op == BinaryOp::Eq {
                    a == b
                } else {
                    a != b
                }));
            }
            if let (Value::Int(n), Value::Int(m)) = (a, b) {
                let (n, m) = (i128::from(n), i128::from(m));
                let result = match op {
                    BinaryOp::Add => n + m,
                    BinaryOp::Sub => n - m,
                    BinaryOp::Mul => n * m,
                    BinaryOp::Div => floor_div_i128(n, m)?,
                    BinaryOp::Rem => n - m * floor_div_i128(n, m)?,
                    comparison => return Some(Value::Bool(compare(*comparison, n, m))),
                };
                return Some(Value::Int(clamp(result)));
            }
            // Exact rationals with denominator 10000 (an Int n is n*10000 / 10000).
            let wide = |v: Value| match v {
                Value::Int(n) => i128::from(n) * SCALE,
                Value::Fixed(x) => i128::from(x.raw()),
                Value::Bool(_) => unreachable!("typed"),
            };
            let (x, y) = (wide(a), wide(b));
            // Results in ten-thousandths.
            let result = match op {
                BinaryOp::Add => x + y,
                BinaryOp::Sub => x - y,
                // x*y can overflow i128 when one side is a promoted integer; multiply by the
                // integer itself instead, which is exact.
                BinaryOp::Mul => match (a, b) {
                    (Value::Int(n), _) => i128::from(n) * y,
                    (_, Value::Int(n)) => x * i128::from(n),
                    _ => floor_div_i128(x * y, SCALE)?,
                },
                BinaryOp::Div => floor_div_i128(x * SCALE, y)?,
                BinaryOp::Rem => x - y * floor_div_i128(x, y)?,
                comparison => return Some(Value::Bool(compare(*comparison, x, y))),
            };
            Value::Fixed(Fixed::from_raw(clamp(result)))
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        let _ = parse(&text);
        let _ = Formula::compile(&text, &schema());
    }

    #[test]
    fn token_soup_never_panics(text in token_soup(), values in context()) {
        if let Ok(formula) = Formula::compile(&text, &schema()) {
            let _ = formula.eval(&values);
        }
    }

    #[test]
    fn printed_trees_parse_back_to_the_same_tree(tree in tree()) {
        let text = tree.to_string();
        let parsed = parse(&text);
        prop_assert_eq!(parsed.as_ref().ok(), Some(&tree), "printed as {:?}: {:?}", text, parsed);
        // and printing is stable
        prop_assert_eq!(parsed.unwrap().to_string(), text);
    }

    #[test]
    fn any_compiled_formula_evaluates_without_panicking(tree in tree(), values in context()) {
        if let Ok(formula) = Formula::compile(&tree.to_string(), &schema()) {
            prop_assert!(formula.max_stack() as u64 <= u64::from(tree.height()));
            match formula.eval(&values) {
                Ok(value) => prop_assert_eq!(value.ty(), formula.ty()),
                Err(error) => prop_assert_eq!(error.code(), "division_by_zero"),
            }
        }
    }

    #[test]
    fn compiled_programs_agree_with_a_tree_walking_oracle(
        tree in prop_oneof![typed(Type::Bool, 5), typed(Type::Int, 5), typed(Type::Fixed, 5)],
        values in context(),
    ) {
        let text = tree.to_string();
        let formula = Formula::compile(&text, &schema());
        prop_assert!(formula.is_ok(), "{:?}: {:?}", text, formula);
        let got = formula.unwrap().eval(&values).ok();
        prop_assert_eq!(got, oracle(&tree, &values), "{}", text);
    }

    #[test]
    fn integer_division_and_modulo_floor(a in any::<i64>(), b in any::<i64>()) {
        prop_assume!(b != 0 && !(a == i64::MIN && b == -1));
        let values = [Value::Int(a), Value::Int(b)];
        let schema = turnstile_formula::VariableSchema::from_declarations([
            ("a", Type::Int),
            ("b", Type::Int),
        ]).unwrap();
        let eval = |text: &str| match Formula::compile(text, &schema).unwrap().eval(&values) {
            Ok(Value::Int(n)) => n,
            other => panic!("{text}: {other:?}"),
        };
        let (q, r) = (eval("a / b"), eval("a % b"));
        // a = q*b + r exactly, with r of b's sign (or zero) and |r| < |b|: the floor pair.
        prop_assert_eq!(i128::from(q) * i128::from(b) + i128::from(r), i128::from(a));
        prop_assert!(r == 0 || (r < 0) == (b < 0));
        prop_assert!(r.unsigned_abs() < b.unsigned_abs());
    }
}
