//! Just enough JSON to pull `model.type` and `model.vocab` out of a
//! `tokenizer.json`. Everything else is skipped without being built, so a
//! general JSON library does not have to ride along in the wasm.

use crate::error::{Error, ErrorKind, Result};

pub(super) struct Model {
    pub model_type: String,
    pub vocab: Vec<(String, u32)>,
}

const MAX_DEPTH: usize = 128;

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
}

pub(super) fn read_model(bytes: &[u8]) -> Result<Model> {
    let mut p = Parser { s: bytes, pos: 0 };
    let mut model = None;
    p.ws();
    p.object(0, |p, key| {
        if key == "model" {
            let mut m = Model { model_type: String::new(), vocab: Vec::new() };
            p.object(1, |p, key| {
                match key.as_str() {
                    "type" => m.model_type = p.string()?,
                    "vocab" => p.object(2, |p, token| {
                        let id = p.uint()?;
                        m.vocab.push((token, id));
                        Ok(())
                    })?,
                    _ => p.skip(2)?,
                }
                Ok(())
            })?;
            model = Some(m);
        } else {
            p.skip(1)?;
        }
        Ok(())
    })?;
    p.ws();
    if p.pos != bytes.len() {
        return Err(p.err("trailing characters after the JSON document"));
    }
    model.ok_or_else(|| Error::new(ErrorKind::InvalidTokenizer, "tokenizer.json has no \"model\""))
}

impl Parser<'_> {
    fn err(&self, what: &str) -> Error {
        Error::new(ErrorKind::InvalidTokenizer, format!("tokenizer.json: {what} at byte {}", self.pos))
    }

    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.s.get(self.pos) {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    fn expect(&mut self, c: u8) -> Result<()> {
        self.ws();
        if self.peek() == Some(c) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.err(&format!("expected '{}'", c as char)))
        }
    }

    /// Walks an object, calling `f` with each key; `f` must consume the value.
    fn object(&mut self, depth: usize, mut f: impl FnMut(&mut Self, String) -> Result<()>) -> Result<()> {
        if depth > MAX_DEPTH {
            return Err(self.err("nesting too deep"));
        }
        self.expect(b'{')?;
        self.ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(());
        }
        loop {
            self.ws();
            let key = self.string()?;
            self.expect(b':')?;
            self.ws();
            f(self, key)?;
            self.ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(());
                }
                _ => return Err(self.err("expected ',' or '}' in an object")),
            }
        }
    }

    fn string(&mut self) -> Result<String> {
        self.ws();
        if self.peek() != Some(b'"') {
            return Err(self.err("expected a string"));
        }
        self.pos += 1;
        let mut out = Vec::new();
        loop {
            let b = self.peek().ok_or_else(|| self.err("unterminated string"))?;
            self.pos += 1;
            match b {
                b'"' => break,
                b'\\' => {
                    let e = self.peek().ok_or_else(|| self.err("unterminated escape"))?;
                    self.pos += 1;
                    let c = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4()?;
                            let cp = if (0xD800..0xDC00).contains(&hi) {
                                if self.s.get(self.pos..self.pos + 2) != Some(b"\\u") {
                                    return Err(self.err("unpaired surrogate"));
                                }
                                self.pos += 2;
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return Err(self.err("unpaired surrogate"));
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else {
                                hi
                            };
                            char::from_u32(cp).ok_or_else(|| self.err("invalid \\u escape"))?
                        }
                        _ => return Err(self.err("invalid escape")),
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                0x00..=0x1f => return Err(self.err("control character in a string")),
                _ => out.push(b),
            }
        }
        String::from_utf8(out).map_err(|_| self.err("string is not UTF-8"))
    }

    fn hex4(&mut self) -> Result<u32> {
        let h = self.s.get(self.pos..self.pos + 4).ok_or_else(|| self.err("short \\u escape"))?;
        let s = core::str::from_utf8(h).map_err(|_| self.err("bad \\u escape"))?;
        let v = u32::from_str_radix(s, 16).map_err(|_| self.err("bad \\u escape"))?;
        self.pos += 4;
        Ok(v)
    }

    fn uint(&mut self) -> Result<u32> {
        self.ws();
        let start = self.pos;
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
        let digits = &self.s[start..self.pos];
        if digits.is_empty() || matches!(self.peek(), Some(b'.' | b'e' | b'E')) {
            return Err(self.err("expected a non-negative integer token id"));
        }
        core::str::from_utf8(digits).ok().and_then(|d| d.parse().ok()).ok_or_else(|| self.err("token id out of range"))
    }

    /// Skips any value.
    fn skip(&mut self, depth: usize) -> Result<()> {
        if depth > MAX_DEPTH {
            return Err(self.err("nesting too deep"));
        }
        self.ws();
        match self.peek() {
            Some(b'{') => self.object(depth + 1, |p, _| p.skip(depth + 1)),
            Some(b'[') => {
                self.pos += 1;
                self.ws();
                if self.peek() == Some(b']') {
                    self.pos += 1;
                    return Ok(());
                }
                loop {
                    self.skip(depth + 1)?;
                    self.ws();
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b']') => {
                            self.pos += 1;
                            return Ok(());
                        }
                        _ => return Err(self.err("expected ',' or ']' in an array")),
                    }
                }
            }
            Some(b'"') => self.string().map(drop),
            Some(b't') => self.literal(b"true"),
            Some(b'f') => self.literal(b"false"),
            Some(b'n') => self.literal(b"null"),
            Some(b'-' | b'0'..=b'9') => {
                while let Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') = self.peek() {
                    self.pos += 1;
                }
                Ok(())
            }
            _ => Err(self.err("expected a value")),
        }
    }

    fn literal(&mut self, lit: &[u8]) -> Result<()> {
        if self.s.get(self.pos..self.pos + lit.len()) == Some(lit) {
            self.pos += lit.len();
            Ok(())
        } else {
            Err(self.err("invalid literal"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_model_and_skips_the_rest() {
        let j = br#"{"a":[1,2.5e3,{"x":null}],"model":{"merges":["a b"],"type":"BPE","vocab":{"h\u00e9":0,"\"q":7}},"z":true}"#;
        let m = read_model(j).unwrap();
        assert_eq!(m.model_type, "BPE");
        assert_eq!(m.vocab, vec![("h\u{e9}".to_string(), 0), ("\"q".to_string(), 7)]);
    }

    #[test]
    fn rejects_broken_documents() {
        assert!(read_model(b"{\"model\":{\"vocab\":{\"a\":-1}}}").is_err());
        assert!(read_model(b"{\"model\":{\"vocab\":{\"a\":1}}").is_err());
        assert!(read_model(b"[]").is_err());
        assert!(read_model(b"{}").is_err());
        assert!(read_model(b"{\"model\":{}} x").is_err());
    }
}
