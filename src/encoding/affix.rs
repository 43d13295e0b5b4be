//! Affix: a shared prefix and suffix, then per value a uint32 length and
//! the middle. Value = prefix + middle + suffix.

use super::{stream_reader, BytesBuilder};
use crate::column::Values;
use crate::error::{corrupt_chunk, Result};

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

pub(super) fn decode(n: usize, stream: &[u8]) -> Result<Values> {
    let Affixes { prefix, suffix } = affixes(stream)?;
    let body = &stream[8 + prefix.len() + suffix.len()..];
    // Lengths take 4 bytes each and the rest is middles, so the output size
    // is known before the single pass that checks each length.
    let middles = n.checked_mul(4).and_then(|l| body.len().checked_sub(l)).ok_or_else(|| {
        corrupt_chunk(format!("Affix body of {} bytes cannot hold {n} length prefixes", body.len()))
    })?;
    let total = middles as u64 + n as u64 * (prefix.len() + suffix.len()) as u64;
    let mut out = BytesBuilder::with_capacity(n, total)?;
    let mut pos = 0usize;
    for i in 0..n {
        let len = match body.get(pos..pos + 4) {
            Some(b) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize,
            None => return Err(corrupt_chunk(format!("Affix stream ends inside the length of value {i}"))),
        };
        pos += 4;
        if len > body.len() - pos {
            return Err(corrupt_chunk(format!("Affix middle {i} of {len} bytes runs past the stream")));
        }
        out.append_slice(prefix);
        out.append(body, pos, len);
        out.append_slice(suffix);
        out.end_value();
        pos += len;
    }
    if pos != body.len() {
        return Err(corrupt_chunk(format!("{} unexpected bytes after the last Affix value", body.len() - pos)));
    }
    out.finish()
}
