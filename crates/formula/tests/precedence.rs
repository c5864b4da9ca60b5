//! Precedence, associativity and the shape of parse errors, table-driven: every row is a text
//! and the fully parenthesized tree it must parse to (or the error code it must fail with).

use turnstile_formula::{parse, Expr, ExprKind, UnaryOp};

/// The tree as an S-expression, every node explicit: `(+ 1 (* 2 3))`.
fn sexpr(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int(n) => n.to_string(),
        ExprKind::Fixed(x) => format!("{x}f"),
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::Variable(name) => name.clone(),
        ExprKind::Unary {
            op: UnaryOp::Neg,
            operand,
        } => format!("(neg {})", sexpr(operand)),
        ExprKind::Unary {
            op: UnaryOp::Not,
            operand,
        } => format!("(not {})", sexpr(operand)),
        ExprKind::Binary { op, lhs, rhs } => format!("({op} {} {})", sexpr(lhs), sexpr(rhs)),
    }
}

/// `expected` is an S-expression, or `!code` for a parse error with that code.
fn check(input: &str, expected: &str) {
    let got = match parse(input) {
        Ok(tree) => sexpr(&tree),
        Err(e) => format!("!{}", e.code()),
    };
    assert_eq!(got, expected, "parsing {input:?}");
}

#[test]
fn precedence_and_associativity() {
    let fixtures = [
        // multiplicative over additive
        ("1 + 2 * 3", "(+ 1 (* 2 3))"),
        ("1 * 2 + 3", "(+ (* 1 2) 3)"),
        ("1 + 2 % 3", "(+ 1 (% 2 3))"),
        ("1 - 6 / 3", "(- 1 (/ 6 3))"),
        // left associativity
        ("1 - 2 - 3", "(- (- 1 2) 3)"),
        ("1 - 2 + 3", "(+ (- 1 2) 3)"),
        ("8 / 4 / 2", "(/ (/ 8 4) 2)"),
        ("7 % 4 * 2", "(* (% 7 4) 2)"),
        ("a or b or c", "(or (or a b) c)"),
        ("a and b and c", "(and (and a b) c)"),
        // parentheses override, and leave no trace
        ("1 - (2 - 3)", "(- 1 (- 2 3))"),
        ("(1 + 2) * 3", "(* (+ 1 2) 3)"),
        ("((1))", "1"),
        ("(a or b) and c", "(and (or a b) c)"),
        // unary minus binds tightest
        ("-2 * 3", "(* (neg 2) 3)"),
        ("2 * -3", "(* 2 (neg 3))"),
        ("1 - -1", "(- 1 (neg 1))"),
        ("--2", "(neg (neg 2))"),
        ("-(1 + 2)", "(neg (+ 1 2))"),
        ("-a % 3", "(% (neg a) 3)"),
        // comparisons below arithmetic, above logic
        ("a + 1 < b * 2", "(< (+ a 1) (* b 2))"),
        ("a < b and c > d", "(and (< a b) (> c d))"),
        ("a <= b or c >= d", "(or (<= a b) (>= c d))"),
        ("a == b and c != d", "(and (== a b) (!= c d))"),
        // and over or
        ("a or b and c", "(or a (and b c))"),
        ("a and b or c", "(or (and a b) c)"),
        // not: below comparisons, above and
        ("not a and b", "(and (not a) b)"),
        ("not a < b", "(not (< a b))"),
        ("not a + 1 == b", "(not (== (+ a 1) b))"),
        ("not not a", "(not (not a))"),
        ("a and not b or c", "(or (and a (not b)) c)"),
        ("a or not b", "(or a (not b))"),
        // comparisons of comparisons need parentheses
        ("a == (b < c)", "(== a (< b c))"),
        ("(a < b) == c", "(== (< a b) c)"),
        ("a == (not b)", "(== a (not b))"),
        // literals and names
        ("1.5 * 2", "(* 1.5f 2)"),
        ("2.0", "2f"),
        ("source.hp >= 0", "(>= source.hp 0)"),
        ("tag_spell", "tag_spell"),
        ("true or false", "(or true false)"),
        ("  round\n>=\t3 ", "(>= round 3)"),
        ("007", "7"),
        ("9223372036854775807", "9223372036854775807"),
        ("922337203685477.5807", "922337203685477.5807f"),
        ("notx and x_or", "(and notx x_or)"),
        // errors
        ("a < b < c", "!chained_comparison"),
        ("a == b != c", "!chained_comparison"),
        ("1 + 1 < 2 <= 3", "!chained_comparison"),
        ("not a < b < c", "!chained_comparison"),
        ("a == not b", "!unexpected_token"),
        ("1 + not b", "!unexpected_token"),
        ("-not b", "!unexpected_token"),
        ("1 +", "!unexpected_end"),
        ("(1", "!unexpected_end"),
        ("", "!unexpected_end"),
        ("   ", "!unexpected_end"),
        ("1)", "!unexpected_token"),
        ("1 2", "!unexpected_token"),
        ("()", "!unexpected_token"),
        ("* 2", "!unexpected_token"),
        ("a and", "!unexpected_end"),
        ("and", "!unexpected_token"),
        ("1 = 1", "!unexpected_character"),
        ("a && b", "!unexpected_character"),
        ("!a", "!unexpected_character"),
        ("a..b", "!unexpected_character"),
        ("source.", "!unexpected_character"),
        (".5", "!unexpected_character"),
        ("1.", "!bad_number"),
        ("1e5", "!bad_number"),
        ("3x", "!bad_number"),
        ("1.5.2", "!bad_number"),
        ("9223372036854775808", "!bad_number"),
        ("922337203685477.5808", "!bad_number"),
        ("0.00001", "!too_many_decimals"),
        ("1.23456", "!too_many_decimals"),
    ];
    for (input, expected) in fixtures {
        check(input, expected);
    }
}

#[test]
fn display_uses_minimal_safe_parentheses() {
    let fixtures = [
        ("(a + b) * c", "(a + b) * c"),
        ("((a))", "a"),
        ("(1 + 2) + 3", "1 + 2 + 3"),
        ("1 + (2 + 3)", "1 + (2 + 3)"),
        ("a - (b - c)", "a - (b - c)"),
        ("a * (b / c)", "a * (b / c)"),
        ("not (a and b)", "not (a and b)"),
        ("(not a) and b", "not a and b"),
        ("not (a < b)", "not a < b"),
        ("(a < b) == c", "(a < b) == c"),
        ("a == (b < c)", "a == (b < c)"),
        ("a == (not b)", "a == (not b)"),
        ("-(1 + 2)", "-(1 + 2)"),
        ("(-a) * b", "-a * b"),
        ("- (-2)", "--2"),
        ("a or (b and c)", "a or b and c"),
        ("(a or b) and c", "(a or b) and c"),
        ("2.0 * 1.5000", "2.0 * 1.5"),
        (
            "round >= 3 and source.hp > 0",
            "round >= 3 and source.hp > 0",
        ),
    ];
    for (input, expected) in fixtures {
        let tree = parse(input).unwrap();
        let shown = tree.to_string();
        assert_eq!(shown, expected, "displaying {input:?}");
        assert_eq!(parse(&shown).unwrap(), tree, "re-parsing {shown:?}");
    }
}

#[test]
fn equality_of_trees_ignores_positions() {
    let a = parse("round<3").unwrap();
    let b = parse("\n  ( round  <  3 )").unwrap();
    assert_ne!(a.at, b.at);
    assert_eq!(a, b);
    assert_ne!(parse("round < 3").unwrap(), parse("round < 3.0").unwrap());
    assert_ne!(parse("round < 3").unwrap(), parse("3 > round").unwrap());
}
