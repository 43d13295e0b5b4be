//! The reference for our tokenizer.json reader: serde_json reads the part of
//! the document a decoder needs, and the rules FORMAT.md section 6 and
//! src/tokenizer state are applied to what it read. Shared by the tests and
//! the fuzz target (`#[path]`), so both hold our reader to the same oracle.
//!
//! What serde_json is asked to read: a UTF-8 document (`from_str`) that is
//! one object with one `model` key; `model` an object with one `type`
//! (a string) and one `vocab` (an object of string keys to u32 values, no
//! key twice); every other value is skipped as `IgnoredAny`, which checks
//! its syntax but not its surrogate pairs or its nesting depth.

#![allow(dead_code)]

use std::collections::BTreeSet;
use std::fmt;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};

/// The largest token id a columns file can store (ids are uint16).
pub const MAX_ID: u32 = 65535;

/// The largest id a vocab of `n` tokens may use (src/tokenizer: the id
/// table stays proportional to the vocab).
pub fn max_id_for(n: usize) -> u32 {
    (2 * n as u32 + 255).min(MAX_ID)
}
/// Deepest nesting our reader takes, counting the document's own object.
pub const MAX_DEPTH: usize = 128;

#[derive(Debug, PartialEq, Eq)]
pub struct Model {
    pub model_type: String,
    pub vocab: Vec<(String, u32)>,
}

struct Doc(Model);
struct ModelV;
struct VocabV;

impl<'de> de::Deserialize<'de> for Doc {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Doc;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a tokenizer.json object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Doc, A::Error> {
                let mut model = None;
                while let Some(k) = m.next_key::<String>()? {
                    if k == "model" {
                        if model.is_some() {
                            return Err(de::Error::custom("second model key"));
                        }
                        model = Some(m.next_value_seed(ModelV)?);
                    } else {
                        m.next_value::<IgnoredAny>()?;
                    }
                }
                model.map(Doc).ok_or_else(|| de::Error::custom("no model"))
            }
        }
        d.deserialize_map(V)
    }
}

impl<'de> de::DeserializeSeed<'de> for ModelV {
    type Value = Model;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Model, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ModelV {
    type Value = Model;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a model object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Model, A::Error> {
        let (mut ty, mut vocab) = (None, None);
        while let Some(k) = m.next_key::<String>()? {
            match k.as_str() {
                "type" if ty.is_some() => return Err(de::Error::custom("second type")),
                "type" => ty = Some(m.next_value::<String>()?),
                "vocab" if vocab.is_some() => return Err(de::Error::custom("second vocab")),
                "vocab" => vocab = Some(m.next_value_seed(VocabV)?),
                _ => {
                    m.next_value::<IgnoredAny>()?;
                }
            }
        }
        match (ty, vocab) {
            (Some(model_type), Some(vocab)) => Ok(Model { model_type, vocab }),
            _ => Err(de::Error::custom("model lacks type or vocab")),
        }
    }
}

impl<'de> de::DeserializeSeed<'de> for VocabV {
    type Value = Vec<(String, u32)>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for VocabV {
    type Value = Vec<(String, u32)>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a vocab object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
        let mut v = Vec::new();
        let mut keys = BTreeSet::new();
        while let Some(k) = m.next_key::<String>()? {
            if !keys.insert(k.clone()) {
                return Err(de::Error::custom("vocab key twice"));
            }
            let id = m.next_value::<u32>()?;
            v.push((k, id));
        }
        Ok(v)
    }
}

/// How deep a syntactically valid document nests (its own object is 1).
pub fn nesting_depth(doc: &[u8]) -> usize {
    let (mut depth, mut max, mut in_str, mut esc) = (0usize, 0usize, false, false);
    for &b in doc {
        if in_str {
            match (esc, b) {
                (true, _) => esc = false,
                (false, b'\\') => esc = true,
                (false, b'"') => in_str = false,
                _ => {}
            }
        } else {
            match b {
                b'"' => in_str = true,
                b'[' | b'{' => {
                    depth += 1;
                    max = max.max(depth);
                }
                b']' | b'}' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
    }
    max
}

/// What our reader must make of `doc`: the model, or why it is refused.
pub fn expected(doc: &[u8]) -> Result<Model, String> {
    let text = std::str::from_utf8(doc).map_err(|e| format!("not UTF-8: {e}"))?;
    // One leading byte order mark is ignored, as RFC 8259 section 8.1 allows
    // (serde_json itself refuses it).
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Doc(m) = serde_json::from_str::<Doc>(text).map_err(|e| format!("serde_json: {e}"))?;
    if nesting_depth(doc) > MAX_DEPTH {
        return Err(format!("nests deeper than {MAX_DEPTH}"));
    }
    if m.model_type != "BPE" {
        return Err("not BPE".into());
    }
    if m.vocab.is_empty() {
        return Err("empty vocab".into());
    }
    let mut ids = BTreeSet::new();
    let limit = max_id_for(m.vocab.len());
    for (_, id) in &m.vocab {
        if *id > limit && *id <= MAX_ID {
            return Err(format!("id {id} too sparse for {} tokens", m.vocab.len()));
        }
        if *id > MAX_ID {
            return Err(format!("id {id} above {MAX_ID}"));
        }
        if !ids.insert(*id) {
            return Err(format!("id {id} twice"));
        }
    }
    Ok(m)
}

/// GPT-2's byte-level table as FORMAT.md section 6 describes it, built
/// here independently of src/tokenizer/byte_level.rs.
pub fn token_bytes(token: &str) -> Vec<u8> {
    static TABLE: std::sync::OnceLock<std::collections::BTreeMap<char, u8>> = std::sync::OnceLock::new();
    let to_byte = TABLE.get_or_init(byte_level_table);
    let mut out = Vec::new();
    for c in token.chars() {
        match to_byte.get(&c) {
            Some(&b) => out.push(b),
            None => out.extend_from_slice(c.to_string().as_bytes()),
        }
    }
    out
}

fn byte_level_table() -> std::collections::BTreeMap<char, u8> {
    let mut to_byte = std::collections::BTreeMap::new();
    let mut next = 0x100u32;
    for b in 0..=255u8 {
        let same = matches!(b, 0x21..=0x7e | 0xa1..=0xac | 0xae..=0xff);
        let c = if same {
            b as u32
        } else {
            next += 1;
            next - 1
        };
        to_byte.insert(char::from_u32(c).unwrap(), b);
    }
    to_byte
}

/// Reads `doc` with our reader and with the oracle and panics unless they
/// agree: both refuse (ours with `invalid_tokenizer`), or both accept with
/// the same bytes for every id, the same absent ids and the same escape id.
/// Returns whether the document was accepted.
pub fn check(doc: &[u8]) -> bool {
    use columns_wasm::{ErrorKind, Tokenizer};
    let ours = Tokenizer::from_json(doc);
    let want = expected(doc);
    let show = || String::from_utf8_lossy(&doc[..doc.len().min(600)]).into_owned();
    match (ours, want) {
        (Err(e), Err(_)) => {
            assert_eq!(e.kind, ErrorKind::InvalidTokenizer, "{e} on {}", show());
            false
        }
        (Ok(t), Ok(m)) => {
            let max = m.vocab.iter().map(|(_, id)| *id).max().unwrap();
            assert_eq!(t.escape_id(), max + 1, "escape id on {}", show());
            assert_eq!(t.vocab_size(), m.vocab.len(), "vocab size on {}", show());
            let mut by_id = vec![None; max as usize + 2];
            // An empty token counts as undefined (src/tokenizer says why).
            for (k, id) in m.vocab.iter().filter(|(k, _)| !k.is_empty()) {
                by_id[*id as usize] = Some(token_bytes(k));
            }
            for (id, want) in by_id.iter().enumerate() {
                assert_eq!(t.token(id as u32), want.as_deref(), "token {id} on {}", show());
            }
            assert_eq!(t.token(u32::MAX), None);
            true
        }
        (Ok(_), Err(why)) => panic!("ours accepts what the oracle refuses ({why}): {}", show()),
        (Err(e), Ok(_)) => panic!("ours refuses ({e}) what the oracle accepts: {}", show()),
    }
}
