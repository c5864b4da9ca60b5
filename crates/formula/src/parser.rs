//! The hand-written Pratt parser: text to [`Expr`], with positions, limits, and no panics.
//!
//! Each infix operator has a left binding power; an operand is parsed with a minimum power,
//! and the loop in [`Parser::expr`] keeps taking operators that bind at least that tightly.
//! Left associativity comes from parsing a right operand one step tighter than the
//! operator; comparisons refuse a second comparison at the same level (`a < b < c`).
//!
//! Binding powers (the precedence table of docs/formula.md, loosest first):
//!
//! | operators | left power | right operand parsed at |
//! |---|---|---|
//! | `or` | 1 | 2 |
//! | `and` | 3 | 4 |
//! | `not` (prefix, allowed where the minimum is at most 5) | — | 5 |
//! | `< <= > >= == !=` (non-associative) | 5 | 6 |
//! | `+ -` | 7 | 8 |
//! | `* / %` | 9 | 10 |
//! | `-` (prefix) | — | 11 |

use crate::ast::{BinaryOp, Expr, ExprKind, UnaryOp};
use crate::error::{FormulaError, Position};
use crate::lexer::{tokenize, Token, TokenKind};
use crate::{MAX_DEPTH, MAX_NESTING, MAX_SOURCE_BYTES};

/// `not` may start an operand only where the minimum binding power is at most this: at the
/// top, inside parentheses, after `and`/`or`/`not`. Elsewhere (`a == not b`, `1 + not b`) it
/// must be parenthesized.
const NOT_ALLOWED_UP_TO: u8 = 5;
/// The minimum binding power of `not`'s operand: comparisons and tighter.
const NOT_OPERAND: u8 = 5;
/// The minimum binding power of unary `-`'s operand: atoms and other negations only.
const NEG_OPERAND: u8 = 11;

/// The infix operator a token stands for, with its (left, right) binding powers.
fn infix(kind: &TokenKind) -> Option<(BinaryOp, u8, u8)> {
    Some(match kind {
        TokenKind::Or => (BinaryOp::Or, 1, 2),
        TokenKind::And => (BinaryOp::And, 3, 4),
        TokenKind::Lt => (BinaryOp::Lt, 5, 6),
        TokenKind::Le => (BinaryOp::Le, 5, 6),
        TokenKind::Gt => (BinaryOp::Gt, 5, 6),
        TokenKind::Ge => (BinaryOp::Ge, 5, 6),
        TokenKind::EqEq => (BinaryOp::Eq, 5, 6),
        TokenKind::Ne => (BinaryOp::Ne, 5, 6),
        TokenKind::Plus => (BinaryOp::Add, 7, 8),
        TokenKind::Minus => (BinaryOp::Sub, 7, 8),
        TokenKind::Star => (BinaryOp::Mul, 9, 10),
        TokenKind::Slash => (BinaryOp::Div, 9, 10),
        TokenKind::Percent => (BinaryOp::Rem, 9, 10),
        _ => return None,
    })
}

struct Parser<'a> {
    text: &'a str,
    tokens: Vec<Token>,
    next: usize,
}

/// A parsed subtree and its height (nodes on its longest path), tracked as it is built so
/// that the height limit costs nothing extra.
struct Parsed {
    expr: Expr,
    height: u32,
}

impl Parser<'_> {
    fn peek(&self) -> &Token {
        // `tokenize` always ends the list with `End`, and `advance` never moves past it.
        &self.tokens[self.next.min(self.tokens.len() - 1)]
    }

    fn advance(&mut self) -> Token {
        let token = self.peek().clone();
        if token.kind != TokenKind::End {
            self.next += 1;
        }
        token
    }

    fn text_of(&self, token: &Token) -> &str {
        &self.text[token.start..token.end]
    }

    fn unexpected(&self, token: &Token, expected: &'static str) -> FormulaError {
        if token.kind == TokenKind::End {
            FormulaError::UnexpectedEnd {
                at: token.at,
                expected,
            }
        } else {
            FormulaError::UnexpectedToken {
                at: token.at,
                found: self.text_of(token).to_owned(),
                expected,
            }
        }
    }

    fn node(kind: ExprKind, at: Position, height: u32) -> Result<Parsed, FormulaError> {
        if height > MAX_DEPTH {
            return Err(FormulaError::TooDeep {
                at,
                limit: MAX_DEPTH,
            });
        }
        Ok(Parsed {
            expr: Expr { kind, at },
            height,
        })
    }

    /// An operand that starts here: a literal, a name, a parenthesized expression or a
    /// prefix operator and its operand.
    fn prefix(&mut self, min_power: u8, nesting: u32) -> Result<Parsed, FormulaError> {
        let token = self.advance();
        let at = token.at;
        let leaf = |kind| Parser::node(kind, at, 1);
        match token.kind {
            TokenKind::Int(n) => leaf(ExprKind::Int(n)),
            TokenKind::Fixed(x) => leaf(ExprKind::Fixed(x)),
            TokenKind::True => leaf(ExprKind::Bool(true)),
            TokenKind::False => leaf(ExprKind::Bool(false)),
            TokenKind::Name => leaf(ExprKind::Variable(self.text_of(&token).to_owned())),
            TokenKind::LParen => {
                let inner = self.expr(0, nesting + 1)?;
                let close = self.advance();
                if close.kind != TokenKind::RParen {
                    return Err(self.unexpected(&close, "`)` or an operator"));
                }
                Ok(inner)
            }
            TokenKind::Minus => {
                let operand = self.expr(NEG_OPERAND, nesting + 1)?;
                let kind = ExprKind::Unary {
                    op: UnaryOp::Neg,
                    operand: Box::new(operand.expr),
                };
                Parser::node(kind, at, operand.height + 1)
            }
            TokenKind::Not if min_power <= NOT_ALLOWED_UP_TO => {
                let operand = self.expr(NOT_OPERAND, nesting + 1)?;
                let kind = ExprKind::Unary {
                    op: UnaryOp::Not,
                    operand: Box::new(operand.expr),
                };
                Parser::node(kind, at, operand.height + 1)
            }
            TokenKind::Not => Err(FormulaError::UnexpectedToken {
                at,
                found: "not".to_owned(),
                expected: "a number or a parenthesized `not` (`a == (not b)`)",
            }),
            _ => Err(self.unexpected(
                &token,
                "a number, `true`, `false`, a variable, `(`, `-` or `not`",
            )),
        }
    }

    /// An expression whose infix operators all bind at least as tightly as `min_power`.
    fn expr(&mut self, min_power: u8, nesting: u32) -> Result<Parsed, FormulaError> {
        if nesting > MAX_NESTING {
            return Err(FormulaError::TooDeep {
                at: self.peek().at,
                limit: MAX_NESTING,
            });
        }
        let mut lhs = self.prefix(min_power, nesting)?;
        // Whether `lhs` is a comparison built in this loop: a second one would chain.
        let mut after_comparison = false;
        loop {
            let token = self.peek();
            let Some((op, left_power, right_power)) = infix(&token.kind) else {
                break;
            };
            if left_power < min_power {
                break;
            }
            let at = token.at;
            if op.is_comparison() && after_comparison {
                return Err(FormulaError::ChainedComparison { at });
            }
            self.advance();
            let rhs = self.expr(right_power, nesting + 1)?;
            let height = 1 + lhs.height.max(rhs.height);
            let kind = ExprKind::Binary {
                op,
                lhs: Box::new(lhs.expr),
                rhs: Box::new(rhs.expr),
            };
            lhs = Parser::node(kind, at, height)?;
            after_comparison = op.is_comparison();
        }
        Ok(lhs)
    }
}

/// Parses a formula's text into its syntax tree, without resolving variables or checking
/// types (that is [`crate::Formula::compile`]'s job).
///
/// Never panics, whatever the text; every refusal is a [`FormulaError`] with a position.
///
/// ```
/// use turnstile_formula::parse;
/// let tree = parse("round >= 3 and not (source.hp <= 0)").unwrap();
/// assert_eq!(tree.to_string(), "round >= 3 and not source.hp <= 0");
/// assert_eq!(parse("a < b < c").unwrap_err().code(), "chained_comparison");
/// ```
pub fn parse(text: &str) -> Result<Expr, FormulaError> {
    if text.len() > MAX_SOURCE_BYTES {
        return Err(FormulaError::TooLong {
            at: Position::START,
            length: text.len(),
            limit: MAX_SOURCE_BYTES,
        });
    }
    let tokens = tokenize(text)?;
    let mut parser = Parser {
        text,
        tokens,
        next: 0,
    };
    let parsed = parser.expr(0, 0)?;
    let rest = parser.advance();
    if rest.kind != TokenKind::End {
        return Err(parser.unexpected(&rest, "an operator or the end of the formula"));
    }
    Ok(parsed.expr)
}
