//! OffsetBytes: uint32 count k, k uint32 start offsets into the data
//! region (the first 0, never decreasing), then the values back to back.
//! The last value ends at the end of the stream.

use super::{count_mismatch, stream_reader};
use crate::bytes::le_u32;
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
    let ob = OffsetBytes::parse(stream)?;
    if ob.count != n {
        return Err(count_mismatch("OffsetBytes stream", ob.count, n));
    }
    let mut offsets = super::offsets_vec(n, rows)?;
    offsets.extend((1..n).map(|i| ob.start(i)));
    if n > 0 {
        offsets.push(ob.data.len() as u32);
    }
    Ok(Values::Bytes { offsets, data: ob.data.to_vec() })
}
