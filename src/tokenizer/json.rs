//! A strict reader (RFC 8259) for the part of a `tokenizer.json` decoding
//! needs: `model.type` and `model.vocab`. Every other value is checked for
//! syntax and skipped without being built, so no general JSON library rides
//! along in the wasm (serde_json would add about 40 KB); tests/tokenizer.rs
//! and the `tokenizer_json` fuzz target hold it to serde_json.
//!
//! A UTF-8 byte order mark before the document is ignored (RFC 8259
//! section 8.1 allows either). What it refuses, each as `invalid_tokenizer`
//! at a byte offset: text that is not UTF-8; anything outside the JSON grammar (numbers such as `-`,
//! `007`, `1.`, `.5`, `+1`, `1-+e`; bad escapes; control characters in
//! strings; trailing characters); unpaired surrogate escapes in the strings
//! it reads (skipped strings may hold them, as RFC 8259 section 8.2 allows);
//! nesting deeper than [`MAX_DEPTH`]; a second `model`, `type` or `vocab`
//! key; a vocab key twice; a token id that is not an integer, is above
//! [`MAX_ID`], or appears twice. Memory: the vocab list holds at most
//! `MAX_ID + 1` entries; nothing else it allocates depends on the input.

use crate::error::{Error, ErrorKind, Result};

/// The largest token id a columns file can store: the tokenized payload
/// writes ids as uint16 (FORMAT.md section 6), so a vocab with larger ids
/// could not be used by any file.
pub(super) const MAX_ID: u32 = u16::MAX as u32;

/// The deepest nesting accepted, counting the document's own object. Real
/// tokenizer.json files nest about 6 deep.
pub(super) const MAX_DEPTH: usize = 128;

/// The vocab as read: entries in document order, with each key's string
/// left in the document (decode it with [`chars`]).
pub(super) struct Model<'a> {
    pub text: &'a str,
    pub vocab: Vec<Entry>,
}

#[derive(Clone, Copy)]
pub(super) struct Entry {
    pub id: u32,
    /// The key's contents: just after its opening quote, up to its closing quote.
    pub key: (usize, usize),
}

pub(super) fn read_model(bytes: &[u8]) -> Result<Model<'_>> {
    let text = core::str::from_utf8(bytes).map_err(|e| err_at(e.valid_up_to(), "text is not UTF-8"))?;
    // A leading byte order mark is passed over, as RFC 8259 section 8.1
    // lets a parser do (offsets stay those of the bytes given, and the
    // digest is of those bytes, mark and all).
    let mut p = Parser { s: bytes, pos: 3 * bytes.starts_with(b"\xEF\xBB\xBF") as usize };
    let mut vocab: Option<Vec<Entry>> = None;
    let mut model_type: Option<(usize, usize)> = None;
    let mut seen_model = false;
    p.ws();
    p.object_start("the document")?;
    p.members(&mut |p, key| {
        if !key_is(text, key, "model") {
            return p.skip_value(1);
        }
        if seen_model {
            return Err(err_at(key.0 - 1, "a second \"model\" key"));
        }
        seen_model = true;
        p.object_start("\"model\"")?;
        p.members(&mut |p, key| {
            if key_is(text, key, "type") {
                if model_type.is_some() {
                    return Err(err_at(key.0 - 1, "a second \"type\" key in \"model\""));
                }
                if p.peek() != Some(b'"') {
                    return Err(p.err("\"model.type\" is not a string"));
                }
                model_type = Some(p.string(true)?);
                Ok(())
            } else if key_is(text, key, "vocab") {
                if vocab.is_some() {
                    return Err(err_at(key.0 - 1, "a second \"vocab\" key in \"model\""));
                }
                vocab = Some(p.vocab()?);
                Ok(())
            } else {
                p.skip_value(2)
            }
        })
    })?;
    p.ws();
    if p.pos != bytes.len() {
        return Err(p.err("characters after the JSON document"));
    }
    if !seen_model {
        return Err(err_at(0, "no \"model\" key"));
    }
    let (Some(ty), Some(vocab)) = (model_type, vocab) else {
        return Err(err_at(0, "\"model\" lacks \"type\" or \"vocab\""));
    };
    if !key_is(text, ty, "BPE") {
        let shown: String = chars(text, ty.0).take(40).collect();
        return Err(err_fmt(ty.0 - 1, format_args!("model type is \"{shown}\"; only BPE tokenizers are supported")));
    }
    check_unique_keys(text, &vocab)?;
    Ok(Model { text, vocab })
}

#[cold]
fn err_at(pos: usize, what: &str) -> Error {
    err_fmt(pos, format_args!("{what}"))
}

#[cold]
fn err_fmt(pos: usize, what: core::fmt::Arguments) -> Error {
    Error::new(ErrorKind::InvalidTokenizer, format!("tokenizer.json: {what}")).at_offset(pos as u64)
}

fn key_is(text: &str, key: (usize, usize), want: &str) -> bool {
    // Most keys have no escapes: compare the raw bytes first.
    &text.as_bytes()[key.0..key.1] == want.as_bytes() || chars(text, key.0).eq(want.chars())
}

/// The characters of a string `read_model` has validated, from just after
/// its opening quote.
pub(super) fn chars(text: &str, start: usize) -> Chars<'_> {
    Chars { text, pos: start }
}

pub(super) struct Chars<'a> {
    text: &'a str,
    pos: usize,
}

impl Iterator for Chars<'_> {
    type Item = char;

    #[inline(never)]
    fn next(&mut self) -> Option<char> {
        let s = self.text.as_bytes();
        let b = *s.get(self.pos)?;
        if b == b'"' {
            return None;
        }
        if b < 0x80 && b != b'\\' {
            self.pos += 1;
            return Some(b as char);
        }
        if b != b'\\' {
            let c = self.text.get(self.pos..)?.chars().next()?;
            self.pos += c.len_utf8();
            return Some(c);
        }
        let e = *s.get(self.pos + 1)?;
        self.pos += 2;
        Some(match e {
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let hi = hex4(s, self.pos)?;
                self.pos += 4;
                if (0xD800..0xDC00).contains(&hi) {
                    let lo = hex4(s, self.pos + 2)?;
                    self.pos += 6;
                    char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo.wrapping_sub(0xDC00) & 0x3ff))?
                } else {
                    char::from_u32(hi)?
                }
            }
            other => other as char, // '"', '\\', '/'
        })
    }
}

fn hex4(s: &[u8], at: usize) -> Option<u32> {
    let h = s.get(at..at + 4)?;
    h.iter().try_fold(0u32, |v, &c| Some(v << 4 | (c as char).to_digit(16)?))
}

/// Refuses a vocab that names the same token twice (serde_json's maps would
/// keep the last; a tokenizer meaning two ids for one string is broken).
/// Open addressing over a hash of each key's characters: no sorting or
/// hash-map machinery in the wasm.
fn check_unique_keys(text: &str, vocab: &[Entry]) -> Result<()> {
    let size = (vocab.len() * 2).next_power_of_two().max(2);
    let mut slots = crate::error::try_vec::<u32>(size, "vocab key check")?;
    slots.resize(size, u32::MAX);
    for (i, e) in vocab.iter().enumerate() {
        let mut h =
            chars(text, e.key.0).fold(0xcbf2_9ce4_8422_2325u64, |h, c| (h ^ c as u64).wrapping_mul(0x100_0000_01b3));
        loop {
            let slot = &mut slots[(h as usize) & (size - 1)];
            if *slot == u32::MAX {
                *slot = i as u32;
                break;
            }
            if chars(text, vocab[*slot as usize].key.0).eq(chars(text, e.key.0)) {
                return Err(err_at(e.key.0 - 1, "a vocab key appears twice"));
            }
            h = h.wrapping_add(1);
        }
    }
    Ok(())
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
}

/// Called with each key of an object, the parser at the key's value.
type OnMember<'f, 'a> = dyn FnMut(&mut Parser<'a>, (usize, usize)) -> Result<()> + 'f;

impl<'a> Parser<'a> {
    fn err(&self, what: &str) -> Error {
        err_at(self.pos, what)
    }

    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.s.get(self.pos) {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    fn object_start(&mut self, what: &str) -> Result<()> {
        if self.peek() != Some(b'{') {
            return Err(err_fmt(self.pos, format_args!("{what} is not an object")));
        }
        self.pos += 1;
        Ok(())
    }

    /// The members of an object whose `{` was just read: `f` gets each key
    /// (validated) with the parser at its value, and must consume the value.
    /// (One copy for the three objects read: `f` is dynamic.)
    fn members(&mut self, f: &mut OnMember<'_, 'a>) -> Result<()> {
        self.ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(());
        }
        loop {
            let key = self.key(true)?;
            f(self, key)?;
            self.ws();
            match self.peek() {
                Some(b',') => {
                    self.pos += 1;
                    self.ws();
                }
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(());
                }
                _ => return Err(self.err("expected ',' or '}' in an object")),
            }
        }
    }

    /// A member's key and its colon; leaves the parser at the value.
    fn key(&mut self, read: bool) -> Result<(usize, usize)> {
        if self.peek() != Some(b'"') {
            return Err(self.err("expected a string key"));
        }
        let key = self.string(read)?;
        self.ws();
        if self.peek() != Some(b':') {
            return Err(self.err("expected ':' after a key"));
        }
        self.pos += 1;
        self.ws();
        Ok(key)
    }

    /// `model.vocab`: token string -> id.
    fn vocab(&mut self) -> Result<Vec<Entry>> {
        let start = self.pos;
        self.object_start("\"model.vocab\"")?;
        let mut seen = [0u64; (MAX_ID as usize + 1) / 64];
        let mut vocab: Vec<Entry> = Vec::new();
        self.members(&mut |p, key| {
            let at = p.pos;
            let id = p.token_id()?;
            if id > MAX_ID {
                return Err(err_fmt(
                    at,
                    format_args!("token id {id} is above {MAX_ID}, the largest a columns file can store"),
                ));
            }
            let (w, bit) = (id as usize / 64, 1u64 << (id % 64));
            if seen[w] & bit != 0 {
                return Err(err_fmt(at, format_args!("token id {id} appears twice in \"model.vocab\"")));
            }
            seen[w] |= bit;
            // At most MAX_ID + 1 entries reach here (ids are distinct).
            vocab.try_reserve(1).map_err(|_| Error::new(ErrorKind::TooLarge, "no memory for the tokenizer vocab"))?;
            vocab.push(Entry { id, key });
            Ok(())
        })?;
        if vocab.is_empty() {
            return Err(err_at(start, "\"model.vocab\" is empty"));
        }
        Ok(vocab)
    }

    /// A token id: a JSON number that is a non-negative integer fitting u32
    /// (no fraction or exponent, as serde_json reads a u32).
    fn token_id(&mut self) -> Result<u32> {
        let start = self.pos;
        self.number()?;
        let digits = &self.s[start..self.pos];
        if digits.iter().any(|b| !b.is_ascii_digit()) {
            return Err(err_at(start, "a token id is not a non-negative integer"));
        }
        digits
            .iter()
            .try_fold(0u32, |v, &d| v.checked_mul(10)?.checked_add((d - b'0') as u32))
            .ok_or_else(|| err_at(start, "a token id does not fit 32 bits"))
    }

    /// A number per RFC 8259: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    fn number(&mut self) -> Result<()> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(err_at(start, "invalid number")),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if !self.peek().is_some_and(|b| b.is_ascii_digit()) {
                return Err(err_at(start, "invalid number: no digit after '.'"));
            }
            self.digits();
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if !self.peek().is_some_and(|b| b.is_ascii_digit()) {
                return Err(err_at(start, "invalid number: no digit in the exponent"));
            }
            self.digits();
        }
        Ok(())
    }

    fn digits(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.pos += 1;
        }
    }

    /// A string, from its opening quote; returns its contents' range. A
    /// string that is `read` must have paired surrogates; a skipped one
    /// need not.
    fn string(&mut self, read: bool) -> Result<(usize, usize)> {
        self.pos += 1;
        let start = self.pos;
        loop {
            let Some(&b) = self.s.get(self.pos) else {
                return Err(err_at(start - 1, "unterminated string"));
            };
            match b {
                b'"' => {
                    self.pos += 1;
                    return Ok((start, self.pos - 1));
                }
                b'\\' => self.escape(read)?,
                0x00..=0x1f => return Err(self.err("control character in a string")),
                _ => self.pos += 1,
            }
        }
    }

    fn escape(&mut self, read: bool) -> Result<()> {
        let at = self.pos;
        match self.s.get(self.pos + 1) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => self.pos += 2,
            Some(b'u') => {
                let hi = hex4(self.s, at + 2).ok_or_else(|| err_at(at, "invalid \\u escape"))?;
                self.pos += 6;
                if read && (0xDC00..0xE000).contains(&hi) {
                    return Err(err_at(at, "unpaired surrogate escape"));
                }
                if read && (0xD800..0xDC00).contains(&hi) {
                    let lo = match self.s.get(self.pos..self.pos + 2) {
                        Some(b"\\u") => hex4(self.s, self.pos + 2),
                        _ => None,
                    };
                    if !lo.is_some_and(|lo| (0xDC00..0xE000).contains(&lo)) {
                        return Err(err_at(at, "unpaired surrogate escape"));
                    }
                    self.pos += 6;
                }
            }
            _ => return Err(err_at(at, "invalid escape")),
        }
        Ok(())
    }

    fn literal(&mut self, lit: &[u8]) -> Result<()> {
        if self.s.get(self.pos..self.pos + lit.len()) == Some(lit) {
            self.pos += lit.len();
            Ok(())
        } else {
            Err(self.err("invalid literal"))
        }
    }

    /// Checks and skips one value, without recursion: `depth` containers
    /// are already open around it. Bit i of `stack` says whether the i-th
    /// container opened here is an object.
    fn skip_value(&mut self, depth: usize) -> Result<()> {
        let mut stack = [0u64; MAX_DEPTH.div_ceil(64)];
        let mut open = 0usize;
        loop {
            // At a value.
            match self.peek() {
                Some(c @ (b'{' | b'[')) => {
                    if depth + open >= MAX_DEPTH {
                        return Err(err_fmt(self.pos, format_args!("nesting deeper than {MAX_DEPTH} levels")));
                    }
                    let object = c == b'{';
                    let (w, bit) = (open / 64, 1u64 << (open % 64));
                    stack[w] = if object { stack[w] | bit } else { stack[w] & !bit };
                    open += 1;
                    self.pos += 1;
                    self.ws();
                    match self.peek() {
                        Some(b'}') if object => {}
                        Some(b']') if !object => {}
                        _ => {
                            if object {
                                self.key(false)?;
                            }
                            continue;
                        }
                    }
                    // An empty container: closed below.
                }
                Some(b'"') => {
                    self.string(false)?;
                }
                Some(b't') => self.literal(b"true")?,
                Some(b'f') => self.literal(b"false")?,
                Some(b'n') => self.literal(b"null")?,
                Some(b'-' | b'0'..=b'9') => self.number()?,
                _ => return Err(self.err("expected a value")),
            }
            // After a value (or at an empty container's closing bracket):
            // close containers until one continues with a comma.
            loop {
                if open == 0 {
                    return Ok(());
                }
                self.ws();
                let object = stack[(open - 1) / 64] >> ((open - 1) % 64) & 1 == 1;
                match self.peek() {
                    Some(b'}') if object => open -= 1,
                    Some(b']') if !object => open -= 1,
                    Some(b',') => {
                        self.pos += 1;
                        self.ws();
                        if object {
                            self.key(false)?;
                        }
                        break;
                    }
                    _ if object => return Err(self.err("expected ',' or '}' in an object")),
                    _ => return Err(self.err("expected ',' or ']' in an array")),
                }
                self.pos += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocab(doc: &str) -> Result<Vec<(String, u32)>> {
        let m = read_model(doc.as_bytes())?;
        Ok(m.vocab.iter().map(|e| (chars(m.text, e.key.0).collect(), e.id)).collect())
    }

    #[test]
    fn reads_the_model_and_skips_the_rest() {
        let j = r#"{"a":[1,2.5e3,{"x":null},-0.0e-0,"\ud800"],"model":{"merges":["a b"],"type":"B\u0050E","vocab":{"h\u00e9":0,"\"q":7,"\ud83d\ude00":9}},"z":true}"#;
        assert_eq!(vocab(j).unwrap(), [("h\u{e9}".into(), 0), ("\"q".into(), 7), ("\u{1f600}".into(), 9)]);
    }
}
