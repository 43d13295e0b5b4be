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
///
/// Sized by the ids present, not by the largest: token `id` is present when
/// bit `id % 64` of `words[id / 64].0` is set, and is then the `rank`-th
/// present id, where rank = `words[id / 64].1` (present ids below the word)
/// plus the set bits below it in the word. Its bytes are
/// `bytes[starts[rank]..starts[rank + 1]]`. Memory: 4 bytes per token,
/// 16 bytes per 64 ids up to the largest (at most 16 KB), and the bytes.
pub struct Tokenizer {
    digest: Digest,
    words: Vec<(u64, u32)>,
    starts: Vec<u32>,
    bytes: Vec<u8>,
    /// One past the largest id: each occurrence stands for one escape byte.
    escape_id: u32,
}

impl Tokenizer {
    /// Parses a `tokenizer.json`, keeping only `model.vocab`. Ids are at
    /// most 65,535 (a file stores them as uint16); every allocation is
    /// fallible and bounded by the vocab's size and the input's length.
    pub fn from_json(json_bytes: &[u8]) -> Result<Tokenizer> {
        Self::parse(json_bytes, Digest::of(json_bytes))
    }

    fn parse(json_bytes: &[u8], digest: Digest) -> Result<Tokenizer> {
        let model = json::read_model(json_bytes)?;
        let vocab = &model.vocab;
        let max_id = vocab.iter().map(|e| e.id).max().unwrap_or(0);

        let mut words = try_vec::<(u64, u32)>(max_id as usize / 64 + 1, "tokenizer id table")?;
        words.resize(max_id as usize / 64 + 1, (0, 0));
        for e in vocab {
            words[e.id as usize / 64].0 |= 1 << (e.id % 64);
        }
        let mut below = 0u32;
        for w in &mut words {
            w.1 = below;
            below += w.0.count_ones();
        }
        let rank = |id: u32| {
            let (bits, before) = words[id as usize / 64];
            before as usize + (bits & ((1u64 << (id % 64)) - 1)).count_ones() as usize
        };
        // Entries in id order, so each token's bytes follow the previous one's.
        let mut order = try_vec::<u32>(vocab.len(), "tokenizer id order")?;
        order.resize(vocab.len(), 0);
        for (i, e) in vocab.iter().enumerate() {
            order[rank(e.id)] = i as u32;
        }
        // A token decodes to at most as many bytes as its JSON string spans;
        // the 16 bytes of slack let short tokens be copied as one fixed-size
        // move (see BytesBuilder).
        let bound = vocab.iter().map(|e| (e.key.1 - e.key.0) as u64).sum::<u64>() + 16;
        if bound > u32::MAX as u64 {
            return Err(Error::new(ErrorKind::TooLarge, "tokenizer vocab holds more than 4 GiB of token text"));
        }
        let mut bytes = try_vec::<u8>(bound as usize, "tokenizer token bytes")?;
        let mut starts = try_vec::<u32>(vocab.len() + 1, "tokenizer token starts")?;
        starts.push(0);
        for &i in &order {
            byte_level::decode_token(json::chars(model.text, vocab[i as usize].key.0), &mut bytes);
            starts.push(bytes.len() as u32);
        }
        bytes.extend_from_slice(&[0; 16]);
        Ok(Tokenizer { digest, words, starts, bytes, escape_id: max_id + 1 })
    }

    pub fn digest(&self) -> Digest {
        self.digest
    }

    pub fn escape_id(&self) -> u32 {
        self.escape_id
    }

    /// How many tokens the vocab defines.
    pub fn vocab_size(&self) -> usize {
        self.starts.len() - 1
    }

    /// Only BPE tokenizers are accepted.
    pub fn model_type(&self) -> &str {
        "BPE"
    }

    /// The rank of `id` among the ids present; `None` when it is absent.
    #[inline]
    fn slot(&self, id: u32) -> Option<usize> {
        let (bits, before) = *self.words.get((id / 64) as usize)?;
        let bit = 1u64 << (id % 64);
        if bits & bit == 0 {
            return None;
        }
        Some(before as usize + (bits & (bit - 1)).count_ones() as usize)
    }

    /// Token `id` as (all token bytes, start, length), for copying with
    /// slack; (_, 0, 0) for ids the vocab does not define.
    #[inline]
    pub(crate) fn token_span(&self, id: u32) -> (&[u8], usize, usize) {
        match self.slot(id) {
            Some(s) => {
                let (a, b) = (self.starts[s] as usize, self.starts[s + 1] as usize);
                (&self.bytes, a, b - a)
            }
            None => (&self.bytes, 0, 0),
        }
    }

    /// The bytes of token `id`; `None` for the escape id, ids past it, and
    /// ids the vocab leaves undefined.
    #[inline]
    pub fn token(&self, id: u32) -> Option<&[u8]> {
        let s = self.slot(id)?;
        Some(&self.bytes[self.starts[s] as usize..self.starts[s + 1] as usize])
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
}
