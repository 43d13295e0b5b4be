//! OffsetBytes: uint32 count k, k uint32 start offsets into the data
//! region (the first 0, never decreasing), then the values back to back.
//! The last value ends at the end of the stream.

use super::{count_mismatch, stream_reader};
use crate::bytes::{le_u32, le_u32s};
use crate::column::Values;
use crate::error::{corrupt_chunk, Result};

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
        if count == 0 && !data.is_empty() {
            return Err(corrupt_chunk(format!("OffsetBytes has no values but {} data bytes", data.len())));
        }
        let mut prev = 0u32;
        for (i, s) in le_u32s(starts).enumerate() {
            if (i == 0 && s != 0) || s < prev || s as usize > data.len() {
                return Err(corrupt_chunk(format!(
                    "OffsetBytes offset {i} is {s}: the first must be 0, and each at least {prev} and within {} data bytes",
                    data.len()
                )));
            }
            prev = s;
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

pub(super) fn decode(n: usize, rows: usize, stream: &[u8], kept: Option<Values>) -> Result<Values> {
    let ob = OffsetBytes::parse(stream)?;
    if ob.count != n {
        return Err(count_mismatch("OffsetBytes stream", ob.count, n));
    }
    let (offsets, mut data) = super::string_storage(kept);
    // The starts, checked by parse, are the offsets.
    let mut offsets = super::offsets_in(offsets, n, rows)?;
    let later = ob.starts.get(4..).unwrap_or_default();
    offsets.extend(le_u32s(later));
    if n > 0 {
        offsets.push(ob.data.len() as u32);
    }
    super::refill(&mut data, ob.data.len(), "string data")?;
    data.extend_from_slice(ob.data);
    Ok(Values::Bytes { offsets, data })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::testkit::{damage, Rng, Verdicts};

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
        let mut verdicts = Verdicts::default();
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
            verdicts.check(
                reference(&s, count),
                decode(count, count, &s, None),
                &format!("case {case}: {count} values"),
            );
        }
        assert!(
            verdicts.decoded > 2000 && verdicts.refused > 1000,
            "both outcomes are exercised ({} decoded, {} refused)",
            verdicts.decoded,
            verdicts.refused
        );
    }
}
