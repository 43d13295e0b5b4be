//! OffsetBytes: uint32 count k, k uint32 start offsets into the data
//! region (the first 0, never decreasing), then the values back to back.
//! The last value ends at the end of the stream.

use super::{count_mismatch, stream_reader};
use crate::bytes::le_u32;
use crate::column::Values;
use crate::error::{corrupt_chunk, try_vec, Result};

/// The parsed layout, borrowed: Dict reuses it for its entries.
pub(crate) struct OffsetBytes<'a> {
    starts: &'a [u8],
    pub data: &'a [u8],
    pub count: usize,
}

impl<'a> OffsetBytes<'a> {
    pub fn parse(stream: &'a [u8]) -> Result<Self> {
        let mut r = stream_reader(stream);
        let count = r.len32("OffsetBytes count")?;
        let starts = r.take_array(count, 4, "OffsetBytes offsets")?;
        let data = r.rest();
        let ob = OffsetBytes { starts, data, count };
        let mut prev = 0u32;
        for i in 0..count {
            let s = ob.start(i);
            if i == 0 && s != 0 {
                return Err(corrupt_chunk(format!("OffsetBytes first offset is {s}, not 0")));
            }
            if s < prev || s as usize > data.len() {
                return Err(corrupt_chunk(format!(
                    "OffsetBytes offset {i} is {s}: after {prev} and within {} data bytes required",
                    data.len()
                )));
            }
            prev = s;
        }
        if count == 0 && !data.is_empty() {
            return Err(corrupt_chunk(format!("OffsetBytes has no values but {} data bytes", data.len())));
        }
        Ok(ob)
    }

    #[inline]
    fn start(&self, i: usize) -> u32 {
        le_u32(self.starts, i * 4)
    }

    /// Value `i` (checked in `parse`).
    #[inline]
    pub fn get(&self, i: usize) -> &'a [u8] {
        let (start, len) = self.span(i);
        &self.data[start..start + len]
    }

    /// Where value `i` lies in `data`: (start, length).
    #[inline]
    pub fn span(&self, i: usize) -> (usize, usize) {
        let a = self.start(i) as usize;
        let b = if i + 1 < self.count { self.start(i + 1) as usize } else { self.data.len() };
        (a, b - a)
    }
}

pub(super) fn decode(n: usize, rows: usize, stream: &[u8]) -> Result<Values> {
    let mut r = stream_reader(stream);
    let count = r.len32("OffsetBytes count")?;
    if count != n {
        return Err(count_mismatch("OffsetBytes stream", count, n));
    }
    let starts = r.take_array(count, 4, "OffsetBytes offsets")?;
    let data = r.rest();
    if count == 0 && !data.is_empty() {
        return Err(corrupt_chunk(format!("OffsetBytes has no values but {} data bytes", data.len())));
    }
    // The starts are the offsets: copied in one pass, then checked in one
    // branch-free pass (first 0, never decreasing, within the data).
    let mut offsets = super::offsets_vec(n, rows)?;
    offsets.pop();
    offsets.extend(starts.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])));
    if n > 0 {
        offsets.push(data.len() as u32);
    }
    let ordered = offsets.windows(2).fold(true, |ok, w| ok & (w[0] <= w[1]));
    if offsets.first().is_some_and(|&f| f != 0) || !ordered || data.len() > u32::MAX as usize {
        // Re-check the slow way for a message that names the offset.
        return Err(OffsetBytes::parse(stream)
            .err()
            .unwrap_or_else(|| corrupt_chunk("OffsetBytes offsets are out of order or past the data")));
    }
    let mut out = try_vec::<u8>(data.len(), "string data")?;
    out.extend_from_slice(data);
    Ok(Values::Bytes { offsets, data: out })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::testkit::{assert_same, damage, flatten, Rng};
    use crate::error::ErrorKind;

    /// The values a plain reading of the OffsetBytes layout gives, or None.
    fn reference(s: &[u8], n: usize) -> Option<Vec<Vec<u8>>> {
        let u = |p: usize| Some(u32::from_le_bytes(s.get(p..p + 4)?.try_into().ok()?) as usize);
        let k = u(0)?;
        if k != n {
            return None;
        }
        let starts: Vec<usize> = (0..k).map(|i| u(4 + 4 * i)).collect::<Option<_>>()?;
        let data = &s[4 + 4 * k..];
        if k == 0 {
            return data.is_empty().then(Vec::new);
        }
        if starts[0] != 0 {
            return None;
        }
        (0..k)
            .map(|i| {
                let end = if i + 1 < k { starts[i + 1] } else { data.len() };
                data.get(starts[i]..end).map(<[u8]>::to_vec)
            })
            .collect()
    }

    #[test]
    fn decodes_as_a_plain_reading_does() {
        let mut rng = Rng(0xbb67_ae85_84ca_a73b);
        let (mut ok, mut errors) = (0, 0);
        for case in 0..5000 {
            let n = if rng.below(4) == 0 { rng.below(2000) } else { rng.below(30) };
            let values: Vec<Vec<u8>> = (0..n)
                .map(|_| {
                    let len = rng.below(20);
                    rng.bytes(len)
                })
                .collect();
            let mut s = (n as u32).to_le_bytes().to_vec();
            let mut at = 0u32;
            for v in &values {
                s.extend_from_slice(&at.to_le_bytes());
                at += v.len() as u32;
            }
            values.iter().for_each(|v| s.extend_from_slice(v));
            let s = damage(&mut rng, s);
            let count = if rng.below(12) == 0 { n ^ 1 } else { n };
            match (reference(&s, count), decode(count, count, &s)) {
                (Some(want), Ok(got)) => {
                    assert_same(&flatten(&got), &want, &format!("case {case}: {count} values"));
                    ok += 1;
                }
                (None, Err(e)) => {
                    assert_eq!(e.kind, ErrorKind::CorruptChunk, "case {case}: {e}");
                    errors += 1;
                }
                (want, got) => panic!(
                    "case {case}: reference {}, decoder {:?}",
                    if want.is_some() { "decodes" } else { "refuses" },
                    got.map(|v| v.len())
                ),
            }
        }
        assert!(ok > 2000 && errors > 1000, "both outcomes are exercised ({ok} decoded, {errors} refused)");
    }
}
