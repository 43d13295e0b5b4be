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
        // By table, not `format!`: no formatting code in the wasm for this.
        const HEX: &[u8; 16] = b"0123456789abcdef";
        self.0.iter().flat_map(|b| [HEX[(b >> 4) as usize] as char, HEX[(b & 15) as usize] as char]).collect()
    }

    /// A digest from 64 hex digits (either case); `None` for anything else.
    pub fn from_hex(s: &str) -> Option<Digest> {
        let s = s.as_bytes();
        if s.len() != 64 {
            return None;
        }
        // Byte by byte, not `&str` slices: no char-boundary panic path.
        let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
        let mut d = [0u8; 32];
        for (out, pair) in d.iter_mut().zip(s.chunks_exact(2)) {
            *out = digit(pair[0])? << 4 | digit(pair[1])?;
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
///
/// Token `id` is `bytes[starts[id]..starts[id + 1]]`; an empty range is an
/// id the vocab does not define (so a token whose string is empty counts as
/// undefined; BPE never emits one). One table entry per id up to the
/// largest keeps the lookup the tokenized decoder makes per token at two
/// loads; the table stays proportional to the vocab because the largest id
/// must be below [`max_id_for`] the token count.
pub struct Tokenizer {
    digest: Digest,
    starts: Vec<u32>,
    bytes: Vec<u8>,
    /// One past the largest id: each occurrence stands for one escape byte.
    escape_id: u32,
    tokens: usize,
}

/// The largest token id a vocab of `tokens` tokens may use: below twice
/// the token count plus 256 (real vocabs are dense: ids 0 to n - 1), and
/// never above 65,535, the largest id a file can store. So a tokenizer's id
/// table costs at most 8 bytes per token plus 1 KB.
pub fn max_id_for(tokens: usize) -> u32 {
    (2 * tokens as u64 + 255).min(json::MAX_ID as u64) as u32
}

impl Tokenizer {
    /// Parses a `tokenizer.json`, keeping only `model.vocab`. Every
    /// allocation is fallible and bounded by the vocab's size and the
    /// input's length.
    pub fn from_json(json_bytes: &[u8]) -> Result<Tokenizer> {
        Self::parse(json_bytes, Digest::of(json_bytes))
    }

    fn parse(json_bytes: &[u8], digest: Digest) -> Result<Tokenizer> {
        let model = json::read_model(json_bytes)?;
        let vocab = &model.vocab;
        let largest = vocab.iter().max_by_key(|e| e.id).copied().unwrap_or(json::Entry { id: 0, key: (1, 1) });
        let max_id = largest.id;
        if max_id > max_id_for(vocab.len()) {
            return Err(Error::new(
                ErrorKind::InvalidTokenizer,
                format!(
                    "tokenizer.json: token id {max_id} is too sparse for a vocab of {} tokens (ids must stay at or below {})",
                    vocab.len(),
                    max_id_for(vocab.len())
                ),
            )
            .at_offset(largest.key.0 as u64 - 1));
        }
        // Which vocab entry each id is (u32::MAX: none), so token bytes are
        // laid out in id order.
        let ids = max_id as usize + 1;
        let mut entry = try_vec::<u32>(ids, "tokenizer id order")?;
        entry.resize(ids, u32::MAX);
        for (i, e) in vocab.iter().enumerate() {
            entry[e.id as usize] = i as u32;
        }
        // A token decodes to at most as many bytes as its JSON string spans;
        // the 16 bytes of slack let short tokens be copied as one fixed-size
        // move (see encoding::tokenized).
        let bound = vocab.iter().map(|e| (e.key.1 - e.key.0) as u64).sum::<u64>() + 16;
        if bound > u32::MAX as u64 {
            return Err(Error::new(ErrorKind::TooLarge, "tokenizer vocab holds more than 4 GiB of token text"));
        }
        let mut bytes = try_vec::<u8>(bound as usize, "tokenizer token bytes")?;
        let mut starts = try_vec::<u32>(ids + 1, "tokenizer token starts")?;
        starts.push(0);
        for &i in &entry {
            if let Some(e) = vocab.get(i as usize) {
                byte_level::decode_token(json::chars(model.text, e.key.0), &mut bytes);
            }
            starts.push(bytes.len() as u32);
        }
        bytes.extend_from_slice(&[0; 16]);
        Ok(Tokenizer { digest, starts, bytes, escape_id: max_id + 1, tokens: vocab.len() })
    }

    pub fn digest(&self) -> Digest {
        self.digest
    }

    pub fn escape_id(&self) -> u32 {
        self.escape_id
    }

    /// How many tokens the vocab defines.
    pub fn vocab_size(&self) -> usize {
        self.tokens
    }

    /// Only BPE tokenizers are accepted.
    pub fn model_type(&self) -> &str {
        "BPE"
    }

    /// The id -> bytes table as it is kept: token `id` is
    /// `bytes[starts[id]..starts[id + 1]]` (empty for ids the vocab does
    /// not define), and `bytes` ends with 16 bytes of padding, so a short
    /// token can be copied as one fixed 16-byte move.
    #[inline]
    pub(crate) fn spans(&self) -> (&[u32], &[u8]) {
        (&self.starts, &self.bytes)
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
            let t = Tokenizer::parse(json_bytes, digest)?;
            self.tokenizers.try_reserve(1).map_err(|_| Error::new(ErrorKind::TooLarge, "no memory for a tokenizer"))?;
            self.tokenizers.push(Arc::new(t));
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

    #[test]
    fn hex_digests_are_64_digits_of_either_case() {
        let d = Digest::of(b"abc");
        let hex = d.to_hex();
        assert_eq!(Digest::from_hex(&hex.to_ascii_uppercase()), Some(d));
        assert_eq!(Digest::from_hex(&hex[..62]), None);
        assert_eq!(Digest::from_hex(&format!("{hex}00")), None);
        // A sign or a non-digit in any pair, or a multi-byte character, is not hex.
        for bad in ["+a", "-1", "0g", " 1", "é"] {
            let s = format!("{}{bad}", &hex[..64 - bad.len()]);
            assert_eq!(s.len(), 64);
            assert_eq!(Digest::from_hex(&s), None, "{s}");
        }
    }
}
