//! Affix: a shared prefix and suffix, then per value a uint32 length and
//! the middle. Value = prefix + middle + suffix.

use super::{stream_reader, BytesBuilder};
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

pub(super) fn decode(n: usize, stream: &[u8]) -> Result<Values> {
    let Affixes { prefix, suffix } = affixes(stream)?;
    let body_start = 8 + prefix.len() + suffix.len();
    // First pass: check the middles and size the output exactly.
    let mut r = stream_reader(&stream[body_start..]);
    let mut total = 0u64;
    for _ in 0..n {
        let len = r.len32("middle length")?;
        r.take(len, "middle")?;
        total += len as u64;
    }
    r.finish("the last Affix value")?;
    total += n as u64 * (prefix.len() + suffix.len()) as u64;
    let mut out = BytesBuilder::with_capacity(n, total)?;
    let mut r = stream_reader(&stream[body_start..]);
    for _ in 0..n {
        let len = r.len32("middle length")?;
        out.push(&[prefix, r.take(len, "middle")?, suffix]);
    }
    Ok(out.finish())
}
