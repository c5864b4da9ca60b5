//! Splits a formula's text into tokens, each with its 1-based line and column.
//!
//! Numbers are read exactly here: integers as `i64`, decimals through `Fixed`'s own parser
//! (at most four decimals), so no value ever passes through a float.

use turnstile_determinism::{Fixed, FixedError};

use crate::error::{FormulaError, Position};

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum TokenKind {
    Int(i64),
    Fixed(Fixed),
    True,
    False,
    /// A variable name; the text is the token's span.
    Name,
    LParen,
    RParen,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Lt,
    Le,
    Gt,
    Ge,
    EqEq,
    Ne,
    And,
    Or,
    Not,
    /// After the last token.
    End,
}

/// A token: its kind, its byte span in the text and where it starts.
#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub(crate) kind: TokenKind,
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) at: Position,
}

/// The reserved words; none can be a variable name.
pub(crate) const RESERVED: [&str; 5] = ["and", "or", "not", "true", "false"];

fn is_name_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_name_continue(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Whether `name` is spelled as a variable name: parts of `[A-Za-z_][A-Za-z0-9_]*` joined by
/// single dots (reserved words are checked separately).
pub(crate) fn is_valid_name(name: &str) -> bool {
    name.split('.').all(|part| {
        let mut chars = part.chars();
        chars.next().is_some_and(is_name_start) && chars.all(is_name_continue)
    })
}

struct Lexer<'a> {
    text: &'a str,
    /// Byte offset of the next character.
    offset: usize,
    line: u32,
    column: u32,
}

impl Lexer<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.offset..].chars().next()
    }

    fn peek_second(&self) -> Option<char> {
        let mut chars = self.text[self.offset..].chars();
        chars.next();
        chars.next()
    }

    fn position(&self) -> Position {
        Position::new(self.line, self.column)
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.offset += c.len_utf8();
        if c == '\n' {
            self.line = self.line.saturating_add(1);
            self.column = 1;
        } else {
            self.column = self.column.saturating_add(1);
        }
        Some(c)
    }

    fn bump_while(&mut self, keep: impl Fn(char) -> bool) {
        while self.peek().is_some_and(&keep) {
            self.bump();
        }
    }

    fn number(&mut self, start: usize, at: Position) -> Result<TokenKind, FormulaError> {
        self.bump_while(|c| c.is_ascii_digit());
        let mut decimal = false;
        if self.peek() == Some('.') && self.peek_second().is_some_and(|c| c.is_ascii_digit()) {
            decimal = true;
            self.bump();
            self.bump_while(|c| c.is_ascii_digit());
        }
        // Letters, digits, `_` or `.` glued to a number make it malformed (`1e5`, `1.`, `3x`,
        // `1.5.2`): take them all, to show the whole offending text.
        if self.peek().is_some_and(|c| is_name_continue(c) || c == '.') {
            self.bump_while(|c| is_name_continue(c) || c == '.');
            return Err(FormulaError::BadNumber {
                at,
                text: self.text[start..self.offset].to_owned(),
                reason: "a number is digits with an optional `.` and one to four decimals, \
                         not followed by a letter, `_` or `.`",
            });
        }
        let text = &self.text[start..self.offset];
        if decimal {
            text.parse::<Fixed>()
                .map(TokenKind::Fixed)
                .map_err(|e| match e {
                    FixedError::TooManyDecimals { .. } => FormulaError::TooManyDecimals {
                        at,
                        text: text.to_owned(),
                    },
                    _ => FormulaError::BadNumber {
                        at,
                        text: text.to_owned(),
                        reason: "out of range for a Fixed number \
                                 (-922337203685477.5808 to 922337203685477.5807)",
                    },
                })
        } else {
            text.parse::<i64>()
                .map(TokenKind::Int)
                .map_err(|_| FormulaError::BadNumber {
                    at,
                    text: text.to_owned(),
                    reason: "out of range for an integer (at most 9223372036854775807)",
                })
        }
    }

    fn name(&mut self, start: usize) -> Result<TokenKind, FormulaError> {
        loop {
            self.bump_while(is_name_continue);
            if self.peek() != Some('.') {
                break;
            }
            if !self.peek_second().is_some_and(is_name_start) {
                let dot = self.position();
                return Err(FormulaError::UnexpectedCharacter {
                    at: dot,
                    found: '.',
                    hint: ": the parts of a name are joined by single dots, and each part \
                           starts with a letter or `_`",
                });
            }
            self.bump();
        }
        Ok(match &self.text[start..self.offset] {
            "true" => TokenKind::True,
            "false" => TokenKind::False,
            "and" => TokenKind::And,
            "or" => TokenKind::Or,
            "not" => TokenKind::Not,
            _ => TokenKind::Name,
        })
    }

    fn next_token(&mut self) -> Result<Token, FormulaError> {
        self.bump_while(|c| matches!(c, ' ' | '\t' | '\n' | '\r'));
        let start = self.offset;
        let at = self.position();
        let Some(c) = self.bump() else {
            return Ok(Token {
                kind: TokenKind::End,
                start,
                end: start,
                at,
            });
        };
        let followed_by_eq = |lexer: &mut Lexer<'_>| {
            if lexer.peek() == Some('=') {
                lexer.bump();
                true
            } else {
                false
            }
        };
        let kind = match c {
            '0'..='9' => self.number(start, at)?,
            c if is_name_start(c) => self.name(start)?,
            '(' => TokenKind::LParen,
            ')' => TokenKind::RParen,
            '+' => TokenKind::Plus,
            '-' => TokenKind::Minus,
            '*' => TokenKind::Star,
            '/' => TokenKind::Slash,
            '%' => TokenKind::Percent,
            '<' if followed_by_eq(self) => TokenKind::Le,
            '<' => TokenKind::Lt,
            '>' if followed_by_eq(self) => TokenKind::Ge,
            '>' => TokenKind::Gt,
            '=' if followed_by_eq(self) => TokenKind::EqEq,
            '!' if followed_by_eq(self) => TokenKind::Ne,
            other => {
                let hint = match other {
                    '=' => ": compare with `==`",
                    '!' => ": write `not`",
                    '&' => ": write `and`",
                    '|' => ": write `or`",
                    '.' => ": a decimal needs digits before its point (`0.5`)",
                    _ => "",
                };
                return Err(FormulaError::UnexpectedCharacter {
                    at,
                    found: other,
                    hint,
                });
            }
        };
        Ok(Token {
            kind,
            start,
            end: self.offset,
            at,
        })
    }
}

/// The tokens of `text`, ending with one [`TokenKind::End`], or the first lexical error.
pub(crate) fn tokenize(text: &str) -> Result<Vec<Token>, FormulaError> {
    let mut lexer = Lexer {
        text,
        offset: 0,
        line: 1,
        column: 1,
    };
    let mut tokens = Vec::new();
    loop {
        let token = lexer.next_token()?;
        let end = token.kind == TokenKind::End;
        tokens.push(token);
        if end {
            return Ok(tokens);
        }
    }
}
