//! Tokenizers for Tokenized columns (FORMAT.md section 6): a Hugging Face
//! `tokenizer.json` reduced to what decoding needs (the BPE vocab as id ->
//! bytes), identified by the SHA-256 of its exact bytes, and kept in a
//! registry the reader resolves a column's digest against.

mod byte_level;
mod json;

use std::sync::Arc;

use sha2::{Digest as _, Sha256};

use crate::error::{try_vec, Error, ErrorKind, Result};

/// SHA-256 of a `tokenizer.json`'s exact bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Digest(pub [u8; 32]);

impl Digest {
    pub fn of(bytes: &[u8]) -> Digest {
        Digest(Sha256::digest(bytes).into())
    }

    pub fn to_hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    pub fn from_hex(s: &str) -> Option<Digest> {
        if s.len() != 64 || !s.is_ascii() {
            return None;
        }
        let mut d = [0u8; 32];
        for (i, out) in d.iter_mut().enumerate() {
            *out = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok()?;
        }
        Some(Digest(d))
    }
}

impl core::fmt::Debug for Digest {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Digest({})", self.to_hex())
    }
}

impl core::fmt::Display for Digest {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.to_hex())
    }
}

/// A tokenizer's vocabulary as bytes: id -> the bytes the token stands for.
pub struct Tokenizer {
    digest: Digest,
    /// Token `id` is `bytes[starts[id]..starts[id + 1]]`; an empty range is
    /// an id the vocab does not define.
    starts: Vec<u32>,
    bytes: Vec<u8>,
    /// One past the largest id: each occurrence stands for one escape byte.
    escape_id: u32,
    model_type: String,
}

impl Tokenizer {
    /// Parses a `tokenizer.json`, keeping only `model.vocab`.
    pub fn from_json(json_bytes: &[u8]) -> Result<Tokenizer> {
        let model = json::read_model(json_bytes)?;
        if model.model_type != "BPE" {
            return Err(invalid(format!("model type is \"{}\"; only BPE tokenizers are supported", model.model_type)));
        }
        let max_id = model.vocab.iter().map(|(_, id)| *id).max().ok_or_else(|| invalid("model.vocab is empty"))?;
        // A vocab is dense in practice; bound the id space by its size so a
        // tiny file cannot ask for a huge table.
        let limit = (model.vocab.len() as u64 * 2).max(1 << 16);
        if max_id as u64 >= limit {
            return Err(invalid(format!("token id {max_id} is far beyond the {} vocab entries", model.vocab.len())));
        }
        let ids = max_id as usize + 1;
        let mut tokens: Vec<Option<&str>> = vec![None; ids];
        for (tok, id) in &model.vocab {
            if tokens[*id as usize].replace(tok.as_str()).is_some() {
                return Err(invalid(format!("token id {id} appears twice in model.vocab")));
            }
        }
        let mut starts = try_vec::<u32>(ids + 1, "tokenizer vocab")?;
        let mut bytes = Vec::new();
        starts.push(0);
        for t in &tokens {
            if let Some(t) = t {
                byte_level::decode_token(t, &mut bytes);
            }
            starts.push(bytes.len() as u32);
        }
        // Slack after the last token lets short tokens be copied as one
        // fixed-size move (see BytesBuilder).
        bytes.extend_from_slice(&[0; 16]);
        Ok(Tokenizer {
            digest: Digest::of(json_bytes),
            starts,
            bytes,
            escape_id: max_id + 1,
            model_type: model.model_type,
        })
    }

    pub fn digest(&self) -> Digest {
        self.digest
    }

    pub fn escape_id(&self) -> u32 {
        self.escape_id
    }

    pub fn vocab_size(&self) -> usize {
        self.starts.len() - 1
    }

    /// Token `id` as (all token bytes, start, length), for copying with
    /// slack; (_, 0, 0) for ids the vocab does not define.
    #[inline]
    pub(crate) fn token_span(&self, id: u32) -> (&[u8], usize, usize) {
        let i = id as usize;
        match (self.starts.get(i), self.starts.get(i + 1)) {
            (Some(&a), Some(&b)) => (&self.bytes, a as usize, (b - a) as usize),
            _ => (&self.bytes, 0, 0),
        }
    }

    pub fn model_type(&self) -> &str {
        &self.model_type
    }

    /// The bytes of token `id`; `None` for the escape id, ids past it, and
    /// ids the vocab leaves undefined.
    #[inline]
    pub fn token(&self, id: u32) -> Option<&[u8]> {
        let i = id as usize;
        let (a, b) = (*self.starts.get(i)? as usize, *self.starts.get(i + 1)? as usize);
        if a == b {
            None
        } else {
            Some(&self.bytes[a..b])
        }
    }
}

impl core::fmt::Debug for Tokenizer {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Tokenizer").field("digest", &self.digest).field("vocab_size", &self.vocab_size()).finish()
    }
}

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidTokenizer, message)
}

/// Tokenizers by digest. Registering the same bytes twice is harmless.
/// A file names a few tokenizers at most, so a list is all this needs.
#[derive(Default, Clone, Debug)]
pub struct Registry {
    tokenizers: Vec<Arc<Tokenizer>>,
}

impl Registry {
    pub fn new() -> Self {
        Self::default()
    }

    /// Parses and registers a `tokenizer.json`, returning its digest.
    pub fn register(&mut self, json_bytes: &[u8]) -> Result<Digest> {
        let digest = Digest::of(json_bytes);
        if !self.has(&digest) {
            self.tokenizers.push(Arc::new(Tokenizer::from_json(json_bytes)?));
        }
        Ok(digest)
    }

    pub fn has(&self, digest: &Digest) -> bool {
        self.get(digest).is_some()
    }

    pub fn get(&self, digest: &Digest) -> Option<&Arc<Tokenizer>> {
        self.tokenizers.iter().find(|t| t.digest == *digest)
    }

    /// The tokenizer for `digest`, or `unknown_tokenizer` naming it.
    pub fn resolve(&self, digest: &Digest) -> Result<&Arc<Tokenizer>> {
        self.get(digest).ok_or_else(|| {
            Error::new(
                ErrorKind::UnknownTokenizer,
                format!("tokenizer {digest} is not registered; supply the tokenizer.json whose SHA-256 is {digest}"),
            )
        })
    }

    /// Digests in the order they were registered.
    pub fn digests(&self) -> Vec<Digest> {
        self.tokenizers.iter().map(|t| t.digest).collect()
    }

    pub fn len(&self) -> usize {
        self.tokenizers.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tokenizers.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::Digest;

    /// The SHA-256 examples of FIPS 180-2 (appendix B) and NIST's CAVP short-message file.
    #[test]
    fn digests_match_the_nist_vectors() {
        let cases: [(&[u8], &str); 4] = [
            (b"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            (b"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
            ),
            (&[0xbd], "68325720aabd7c82f30f554b313d0570c95accbb7dc4b5aae11204c08ffe732b"),
        ];
        for (msg, hex) in cases {
            assert_eq!(Digest::of(msg).to_hex(), hex, "{msg:02x?}");
            assert_eq!(Digest::from_hex(hex), Some(Digest::of(msg)));
        }
        assert_eq!(
            Digest::of(&vec![b'a'; 1_000_000]).to_hex(),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        );
    }
}
