//! Dict: uint32 n, uint32 dictionary size D, uint32 bit width W; n indices
//! of W bits, MSB first, zero padded; then the D entries in OffsetBytes
//! layout (Plain bytes for fixed-width types, raw bytes otherwise).

use super::bits::MsbBits;
use super::offset_bytes::OffsetBytes;
use super::{count_mismatch, stream_reader, BytesBuilder};
use crate::column::Values;
use crate::error::{corrupt_chunk, try_vec, Result};
use crate::types::ColumnType;

/// The dictionary header of a chunk, for inspection and decoding.
pub struct DictHeader {
    pub count: usize,
    pub size: usize,
    pub width: u32,
}

pub(crate) fn header(stream: &[u8]) -> Result<DictHeader> {
    let mut r = stream_reader(stream);
    Ok(DictHeader {
        count: r.len32("Dict value count")?,
        size: r.len32("dictionary size")?,
        width: r.u32("index bit width")?,
    })
}

pub(super) fn decode(ty: ColumnType, n: usize, stream: &[u8]) -> Result<Values> {
    let h = header(stream)?;
    if h.count != n {
        return Err(count_mismatch("Dict stream", h.count, n));
    }
    if h.width > 32 {
        return Err(corrupt_chunk(format!("Dict index width {} is more than 32 bits", h.width)));
    }
    let mut r = stream_reader(stream);
    r.take(12, "Dict header")?;
    let index_len = MsbBits::byte_len(n, h.width).ok_or_else(|| corrupt_chunk("Dict index stream size overflows"))?;
    let indices = MsbBits::new(r.take(index_len, "Dict indices")?, n, h.width)?;
    let entries = OffsetBytes::parse(r.rest())?;
    if entries.count != h.size {
        return Err(corrupt_chunk(format!("Dict declares {} entries but stores {}", h.size, entries.count)));
    }
    // Indices are checked once, up front, so the gathers below cannot fail.
    let mut bad = None;
    indices.for_each(|i| {
        if i as usize >= h.size && bad.is_none() {
            bad = Some(i);
        }
    });
    if let Some(i) = bad {
        return Err(corrupt_chunk(format!("Dict index {i} is outside the {}-entry dictionary", h.size)));
    }
    match ty.width() {
        Some(w) => {
            let mut flat = try_vec::<u8>(h.size * w, "dictionary")?;
            for e in 0..h.size {
                let v = entries.get(e);
                if v.len() != w {
                    return Err(corrupt_chunk(format!("Dict entry {e} has {} bytes; {ty} values have {w}", v.len())));
                }
                flat.extend_from_slice(v);
            }
            let Some(mut out) = Values::zeroed(ty, n)? else {
                return Err(corrupt_chunk(format!("Dict of {ty} has no fixed width")));
            };
            let bytes = out.fixed_bytes_mut().unwrap_or_default();
            match w {
                1 => gather::<1>(&flat, &indices, bytes),
                2 => gather::<2>(&flat, &indices, bytes),
                4 => gather::<4>(&flat, &indices, bytes),
                _ => gather::<8>(&flat, &indices, bytes),
            }
            out.finish_le(w)
        }
        None => {
            let mut total = 0u64;
            indices.for_each(|i| total += entries.span(i as usize).1 as u64);
            let mut out = BytesBuilder::with_capacity(n, total)?;
            indices.for_each(|i| {
                let (start, len) = entries.span(i as usize);
                out.append(entries.data, start, len);
                out.end_value();
            });
            out.finish()
        }
    }
}

/// Copies each index's `W`-byte entry to the output, in order. Indices
/// were checked against the dictionary size.
fn gather<const W: usize>(flat: &[u8], indices: &MsbBits<'_>, out: &mut [u8]) {
    let mut at = 0;
    indices.for_each(|i| {
        let e = i as usize * W;
        if let (Some(src), Some(dst)) = (flat.get(e..e + W), out.get_mut(at..at + W)) {
            dst.copy_from_slice(src);
        }
        at += W;
    });
}
