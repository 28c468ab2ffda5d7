//! A small JSON parser over one line's bytes.
//!
//! Values borrow from the input (strings without escapes are not copied) and numbers keep
//! their text, so decimals and 64-bit integers convert exactly.

use std::borrow::Cow;

/// Deepest nesting accepted (arrays and objects).
const MAX_DEPTH: usize = 128;

/// A parsed JSON value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Json<'a> {
    Null,
    Bool(bool),
    /// The number's text, validated against the JSON grammar.
    Number(&'a str),
    Str(Cow<'a, str>),
    Array(Vec<Json<'a>>),
    /// Members in input order (duplicates kept).
    Object(Vec<(Cow<'a, str>, Json<'a>)>),
}

impl Json<'_> {
    /// The kind's name for messages.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "boolean",
            Json::Number(_) => "number",
            Json::Str(_) => "string",
            Json::Array(_) => "array",
            Json::Object(_) => "object",
        }
    }
}

/// Parses one complete JSON value (surrounding whitespace allowed). The error names the
/// 1-based character column.
pub(crate) fn parse(input: &[u8]) -> Result<Json<'_>, String> {
    let mut p = Parser { s: input, pos: 0 };
    let v = p.value(0)?;
    p.ws();
    if p.pos < p.s.len() {
        return Err(p.error("unexpected text after the value"));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
}

impl<'a> Parser<'a> {
    fn error(&self, what: &str) -> String {
        let column = String::from_utf8_lossy(&self.s[..self.pos.min(self.s.len())])
            .chars()
            .count()
            + 1;
        format!("invalid JSON at column {column}: {what}")
    }
    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.s.get(self.pos) {
            self.pos += 1;
        }
    }
    fn literal(&mut self, word: &[u8], v: Json<'a>) -> Result<Json<'a>, String> {
        if self.s[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(v)
        } else {
            Err(self.error("expected a value"))
        }
    }
    fn value(&mut self, depth: usize) -> Result<Json<'a>, String> {
        self.ws();
        match self.s.get(self.pos) {
            None => Err(self.error("expected a value, found the end")),
            Some(b'{') => self.object(depth + 1),
            Some(b'[') => self.array(depth + 1),
            Some(b'"') => Ok(Json::Str(self.string()?)),
            Some(b't') => self.literal(b"true", Json::Bool(true)),
            Some(b'f') => self.literal(b"false", Json::Bool(false)),
            Some(b'n') => self.literal(b"null", Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.error("expected a value")),
        }
    }
    fn check_depth(&self, depth: usize) -> Result<(), String> {
        if depth > MAX_DEPTH {
            return Err(self.error(&format!("nesting deeper than {MAX_DEPTH}")));
        }
        Ok(())
    }
    fn array(&mut self, depth: usize) -> Result<Json<'a>, String> {
        self.check_depth(depth)?;
        self.pos += 1;
        let mut items = Vec::new();
        self.ws();
        if self.s.get(self.pos) == Some(&b']') {
            self.pos += 1;
            return Ok(Json::Array(items));
        }
        loop {
            items.push(self.value(depth)?);
            self.ws();
            match self.s.get(self.pos) {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(Json::Array(items));
                }
                _ => return Err(self.error("expected ',' or ']'")),
            }
        }
    }
    fn object(&mut self, depth: usize) -> Result<Json<'a>, String> {
        self.check_depth(depth)?;
        self.pos += 1;
        let mut members = Vec::new();
        self.ws();
        if self.s.get(self.pos) == Some(&b'}') {
            self.pos += 1;
            return Ok(Json::Object(members));
        }
        loop {
            self.ws();
            if self.s.get(self.pos) != Some(&b'"') {
                return Err(self.error("expected a string key"));
            }
            let key = self.string()?;
            self.ws();
            if self.s.get(self.pos) != Some(&b':') {
                return Err(self.error("expected ':'"));
            }
            self.pos += 1;
            members.push((key, self.value(depth)?));
            self.ws();
            match self.s.get(self.pos) {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Json::Object(members));
                }
                _ => return Err(self.error("expected ',' or '}'")),
            }
        }
    }
    fn number(&mut self) -> Result<Json<'a>, String> {
        let start = self.pos;
        let digits = |p: &mut Self| {
            let n = p.s[p.pos..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            p.pos += n;
            n
        };
        if self.s[self.pos] == b'-' {
            self.pos += 1;
        }
        match self.s.get(self.pos) {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                digits(self);
            }
            _ => return Err(self.error("expected digits")),
        }
        if self.s.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            if digits(self) == 0 {
                return Err(self.error("expected digits after '.'"));
            }
        }
        if let Some(b'e' | b'E') = self.s.get(self.pos) {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.s.get(self.pos) {
                self.pos += 1;
            }
            if digits(self) == 0 {
                return Err(self.error("expected exponent digits"));
            }
        }
        // Only ASCII was consumed.
        let text = std::str::from_utf8(&self.s[start..self.pos]).unwrap_or("0");
        Ok(Json::Number(text))
    }
    /// A string starting at the opening quote.
    fn string(&mut self) -> Result<Cow<'a, str>, String> {
        self.pos += 1;
        let start = self.pos;
        let rest = &self.s[start..];
        let n = rest
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
            .unwrap_or(rest.len());
        self.pos += n;
        match self.s.get(self.pos) {
            Some(b'"') => {
                self.pos += 1;
                let text = std::str::from_utf8(&rest[..n]).map_err(|e| {
                    self.error(&format!(
                        "invalid UTF-8 in a string at byte {}",
                        start + e.valid_up_to()
                    ))
                })?;
                Ok(Cow::Borrowed(text))
            }
            _ => self.escaped_string(start).map(Cow::Owned),
        }
    }
    /// The slow path: a string with escapes, from `start` (just after the quote).
    fn escaped_string(&mut self, start: usize) -> Result<String, String> {
        let mut out = Vec::with_capacity(self.pos - start + 16);
        self.pos = start;
        loop {
            let Some(&b) = self.s.get(self.pos) else {
                return Err(self.error("unterminated string"));
            };
            self.pos += 1;
            match b {
                b'"' => break,
                b'\\' => self.escape(&mut out)?,
                0..=0x1f => {
                    self.pos -= 1;
                    return Err(self.error("control character in a string"));
                }
                _ => out.push(b),
            }
        }
        String::from_utf8(out).map_err(|e| {
            let at = start + e.utf8_error().valid_up_to();
            self.error(&format!("invalid UTF-8 in a string at byte {at}"))
        })
    }
    fn escape(&mut self, out: &mut Vec<u8>) -> Result<(), String> {
        let Some(&e) = self.s.get(self.pos) else {
            return Err(self.error("unterminated escape"));
        };
        self.pos += 1;
        let simple = match e {
            b'"' => b'"',
            b'\\' => b'\\',
            b'/' => b'/',
            b'b' => 8,
            b'f' => 12,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => {
                let c = self.unicode()?;
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                return Ok(());
            }
            _ => return Err(self.error("invalid escape")),
        };
        out.push(simple);
        Ok(())
    }
    fn hex4(&mut self) -> Result<u32, String> {
        let digits = self
            .s
            .get(self.pos..self.pos + 4)
            .ok_or_else(|| self.error("expected 4 hex digits"))?;
        let text = std::str::from_utf8(digits).map_err(|_| self.error("expected 4 hex digits"))?;
        let v = u32::from_str_radix(text, 16).map_err(|_| self.error("expected 4 hex digits"))?;
        self.pos += 4;
        Ok(v)
    }
    /// `XXXX` after `\u`, combining a surrogate pair.
    fn unicode(&mut self) -> Result<char, String> {
        let hi = self.hex4()?;
        let code = if (0xD800..0xDC00).contains(&hi) {
            if !self.s[self.pos..].starts_with(b"\\u") {
                return Err(self.error("unpaired surrogate"));
            }
            self.pos += 2;
            let lo = self.hex4()?;
            if !(0xDC00..0xE000).contains(&lo) {
                return Err(self.error("invalid low surrogate"));
            }
            0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
        } else {
            hi
        };
        char::from_u32(code).ok_or_else(|| self.error("invalid \\u escape"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values() {
        assert_eq!(parse(b" null ").unwrap(), Json::Null);
        assert_eq!(parse(b"-1.5e+3").unwrap(), Json::Number("-1.5e+3"));
        assert_eq!(
            parse(br#""a\n\u00e9\ud83d\ude00""#).unwrap(),
            Json::Str("a\né😀".into())
        );
        let v = parse(br#"{"a": [1, {"b": null}], "c": true}"#).unwrap();
        let Json::Object(m) = v else { panic!() };
        assert_eq!(m.len(), 2);
        assert_eq!(m[1], ("c".into(), Json::Bool(true)));
    }

    #[test]
    fn errors() {
        for (text, want) in [
            ("{\"a\" 1}", "column 6: expected ':'"),
            ("[1,]", "column 4: expected a value"),
            ("01", "column 2: unexpected text"),
            ("\"abc", "unterminated string"),
            ("{\"a\":1} x", "column 9: unexpected text"),
            ("-", "expected digits"),
            ("1.", "digits after '.'"),
            ("\"\\ud800\"", "unpaired surrogate"),
            ("\"\t\"", "control character"),
            ("", "found the end"),
        ] {
            let e = parse(text.as_bytes()).unwrap_err();
            assert!(e.contains(want), "{text}: {e}");
        }
        assert!(parse(b"\"\xff\"").unwrap_err().contains("invalid UTF-8"));
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert!(parse(deep.as_bytes()).unwrap_err().contains("nesting"));
    }
}
