//! A small, strict JSON (RFC 8259) reader that feeds a [`CanonicalWriter`] directly, so
//! integer literals of any size keep their exact digits (no float or `Value` round trip).

use super::{write_str, CanonicalError, CanonicalWriter, MAX_DEPTH};

type Result<T> = core::result::Result<T, CanonicalError>;

struct Reader<'a> {
    text: &'a str,
    pos: usize,
    depth: u32,
    /// The decoded text of the last string read.
    buf: String,
}

/// Canonicalizes `text` into `w`.
pub(super) fn canonicalize(w: &mut CanonicalWriter, text: &str) -> Result<()> {
    let mut r = Reader {
        text,
        pos: 0,
        depth: 0,
        buf: String::new(),
    };
    r.whitespace();
    r.value(w)?;
    r.whitespace();
    if r.pos < text.len() {
        return Err(r.error("unexpected characters after the JSON value"));
    }
    Ok(())
}

impl Reader<'_> {
    fn bytes(&self) -> &[u8] {
        self.text.as_bytes()
    }

    fn peek(&self) -> Option<u8> {
        self.bytes().get(self.pos).copied()
    }

    fn error(&self, message: &'static str) -> CanonicalError {
        CanonicalError::Syntax {
            offset: self.pos,
            message,
        }
    }

    fn whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn expect(&mut self, byte: u8, message: &'static str) -> Result<()> {
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error(message))
        }
    }

    fn value(&mut self, w: &mut CanonicalWriter) -> Result<()> {
        match self.peek() {
            Some(b'{') => self.object(w),
            Some(b'[') => self.array(w),
            Some(b'"') => {
                self.string()?;
                write_str(w.out(), &self.buf);
                Ok(())
            }
            Some(b't') => self.literal("true", w),
            Some(b'f') => self.literal("false", w),
            Some(b'n') => self.literal("null", w),
            Some(b'-' | b'0'..=b'9') => self.number(w),
            Some(_) => Err(self.error("expected a JSON value")),
            None => Err(self.error("unexpected end of text")),
        }
    }

    fn literal(&mut self, word: &'static str, w: &mut CanonicalWriter) -> Result<()> {
        if self.text[self.pos..].starts_with(word) {
            self.pos += word.len();
            w.out().extend_from_slice(word.as_bytes());
            Ok(())
        } else {
            Err(self.error("expected a JSON value"))
        }
    }

    fn enter(&mut self) -> Result<()> {
        if self.depth >= MAX_DEPTH {
            return Err(CanonicalError::TooDeep { offset: self.pos });
        }
        self.depth += 1;
        self.pos += 1;
        Ok(())
    }

    fn object(&mut self, w: &mut CanonicalWriter) -> Result<()> {
        self.enter()?;
        let mut frame = w.begin_object();
        self.whitespace();
        if self.peek() == Some(b'}') {
            self.pos += 1;
        } else {
            loop {
                self.whitespace();
                if self.peek() != Some(b'"') {
                    return Err(self.error("expected a string key"));
                }
                self.string()?;
                w.key(&mut frame, &self.buf);
                self.whitespace();
                self.expect(b':', "expected ':' after a key")?;
                self.whitespace();
                self.value(w)?;
                w.end_value(&mut frame);
                self.whitespace();
                match self.peek() {
                    Some(b',') => self.pos += 1,
                    Some(b'}') => {
                        self.pos += 1;
                        break;
                    }
                    _ => return Err(self.error("expected ',' or '}'")),
                }
            }
        }
        w.end_object(frame)?;
        self.depth -= 1;
        Ok(())
    }

    fn array(&mut self, w: &mut CanonicalWriter) -> Result<()> {
        self.enter()?;
        w.out().push(b'[');
        self.whitespace();
        if self.peek() == Some(b']') {
            self.pos += 1;
        } else {
            loop {
                self.whitespace();
                self.value(w)?;
                self.whitespace();
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        w.out().push(b',');
                    }
                    Some(b']') => {
                        self.pos += 1;
                        break;
                    }
                    _ => return Err(self.error("expected ',' or ']'")),
                }
            }
        }
        w.out().push(b']');
        self.depth -= 1;
        Ok(())
    }

    fn number(&mut self, w: &mut CanonicalWriter) -> Result<()> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => {
                self.pos += 1;
                if let Some(b'0'..=b'9') = self.peek() {
                    return Err(self.error("leading zeros are not allowed"));
                }
            }
            Some(b'1'..=b'9') => {
                while let Some(b'0'..=b'9') = self.peek() {
                    self.pos += 1;
                }
            }
            _ => return Err(self.error("expected a digit")),
        }
        if let Some(b'.' | b'e' | b'E') = self.peek() {
            return Err(CanonicalError::FloatLiteral { offset: start });
        }
        let digits = &self.text[start..self.pos];
        let digits = if digits == "-0" { "0" } else { digits };
        w.out().extend_from_slice(digits.as_bytes());
        Ok(())
    }

    fn hex4(&mut self) -> Result<u32> {
        let hex = self
            .text
            .get(self.pos..self.pos + 4)
            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| self.error("expected four hex digits after \\u"))?;
        let v = u32::from_str_radix(hex, 16).map_err(|_| self.error("bad \\u escape"))?;
        self.pos += 4;
        Ok(v)
    }

    /// Reads a string (at the opening quote) into `self.buf`.
    fn string(&mut self) -> Result<()> {
        self.buf.clear();
        self.pos += 1;
        loop {
            let rest = &self.bytes()[self.pos..];
            let run = rest
                .iter()
                .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
                .ok_or_else(|| self.error("unterminated string"))?;
            // The run ends before an ASCII byte, so it is whole UTF-8.
            let end = self.pos + run;
            self.buf.push_str(&self.text[self.pos..end]);
            self.pos = end;
            match self.bytes()[end] {
                b'"' => {
                    self.pos += 1;
                    return Ok(());
                }
                b'\\' => {
                    self.pos += 1;
                    let escaped = self
                        .peek()
                        .ok_or_else(|| self.error("unterminated string"))?;
                    self.pos += 1;
                    let c = match escaped {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => self.unicode_escape()?,
                        _ => {
                            self.pos -= 1;
                            return Err(self.error("invalid escape"));
                        }
                    };
                    self.buf.push(c);
                }
                _ => return Err(self.error("control characters must be escaped in strings")),
            }
        }
    }

    /// After `\u`: one character, joining a surrogate pair.
    fn unicode_escape(&mut self) -> Result<char> {
        let first = self.hex4()?;
        let code = match first {
            0xD800..=0xDBFF => {
                if !self.text[self.pos..].starts_with("\\u") {
                    return Err(self.error("lone high surrogate"));
                }
                self.pos += 2;
                let second = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&second) {
                    return Err(self.error("high surrogate not followed by a low surrogate"));
                }
                0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            }
            0xDC00..=0xDFFF => return Err(self.error("lone low surrogate")),
            _ => first,
        };
        char::from_u32(code).ok_or_else(|| self.error("invalid \\u escape"))
    }
}

#[cfg(test)]
mod tests {
    use super::super::from_json_text;

    fn canon(text: &str) -> String {
        String::from_utf8(from_json_text(text).unwrap()).unwrap()
    }

    fn code(text: &str) -> &'static str {
        from_json_text(text).unwrap_err().code()
    }

    #[test]
    fn basics() {
        assert_eq!(
            canon(" { \"b\" : [ 1 , -0 , true , false , null ] , \"a\" : { } } "),
            r#"{"a":{},"b":[1,0,true,false,null]}"#
        );
        assert_eq!(
            canon("123456789012345678901234567890"),
            "123456789012345678901234567890"
        );
        assert_eq!(
            canon("-123456789012345678901234567890"),
            "-123456789012345678901234567890"
        );
        assert_eq!(canon(r#""\ud83d\ude00\/""#), "\"😀/\"");
        assert_eq!(canon("[]"), "[]");
    }

    #[test]
    fn rejections() {
        assert_eq!(code("1.0"), "canonical.float_literal");
        assert_eq!(code("1e3"), "canonical.float_literal");
        assert_eq!(code("[-0.5]"), "canonical.float_literal");
        assert_eq!(code("01"), "canonical.syntax");
        assert_eq!(code(""), "canonical.syntax");
        assert_eq!(code("[1,]"), "canonical.syntax");
        assert_eq!(code("{\"a\":1,}"), "canonical.syntax");
        assert_eq!(code("{\"a\" 1}"), "canonical.syntax");
        assert_eq!(code("{1:1}"), "canonical.syntax");
        assert_eq!(code("\"\\ud800\""), "canonical.syntax");
        assert_eq!(code("\"\\udc00\""), "canonical.syntax");
        assert_eq!(code("\"\\ud800\\u0041\""), "canonical.syntax");
        assert_eq!(code("\"\\x\""), "canonical.syntax");
        assert_eq!(code("\"a\nb\""), "canonical.syntax");
        assert_eq!(code("\"abc"), "canonical.syntax");
        assert_eq!(code("tru"), "canonical.syntax");
        assert_eq!(code("1 2"), "canonical.syntax");
        assert_eq!(code("+1"), "canonical.syntax");
        assert_eq!(code("NaN"), "canonical.syntax");
        assert_eq!(code("{\"a\":1,\"a\":2}"), "canonical.duplicate_key");
        assert_eq!(
            code("{\"a\":1,\"b\":{\"c\":1,\"c\":1}}"),
            "canonical.duplicate_key"
        );
        let deep = "[".repeat(129) + &"]".repeat(129);
        assert_eq!(code(&deep), "canonical.too_deep");
        let ok = "[".repeat(128) + &"]".repeat(128);
        assert_eq!(canon(&ok), ok);
    }
}
