//! Affix: a shared prefix and suffix, then per value a uint32 length and
//! the middle. Value = prefix + middle + suffix.

use super::{each_prefixed, prefixed_payload, stream_reader, BytesBuilder};
use crate::column::Values;
use crate::error::Result;

/// The affixes of a chunk, for inspection.
pub struct Affixes<'a> {
    pub prefix: &'a [u8],
    pub suffix: &'a [u8],
}

pub(crate) fn affixes(stream: &[u8]) -> Result<Affixes<'_>> {
    let mut r = stream_reader(stream);
    let p = r.len32("prefix length")?;
    let prefix = r.take(p, "prefix")?;
    let s = r.len32("suffix length")?;
    let suffix = r.take(s, "suffix")?;
    Ok(Affixes { prefix, suffix })
}

pub(super) fn decode(n: usize, rows: usize, stream: &[u8]) -> Result<Values> {
    let Affixes { prefix, suffix } = affixes(stream)?;
    let body = &stream[8 + prefix.len() + suffix.len()..];
    // Lengths take 4 bytes each and the rest is middles, so the output size
    // is known before the one checking pass.
    let middles = prefixed_payload(body, n, "Affix body")?;
    let total = middles as u64 + n as u64 * (prefix.len() + suffix.len()) as u64;
    let mut out = BytesBuilder::with_capacity(n, rows, total)?;
    each_prefixed(body, n, "Affix body", |start, len| {
        out.append_slice(prefix);
        out.append(body, start, len);
        out.append_slice(suffix);
        out.end_value();
    })?;
    out.finish()
}
