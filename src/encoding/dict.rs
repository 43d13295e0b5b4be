//! Dict: uint32 n, uint32 dictionary size D, uint32 bit width W; n indices
//! of W bits, MSB first, zero padded; then the D entries in OffsetBytes
//! layout (Plain bytes for fixed-width types, raw bytes otherwise).

use super::bits::MsbBits;
use super::offset_bytes::OffsetBytes;
use super::{count_mismatch, stream_reader, BytesBuilder};
use crate::column::{map_fixed, Values};
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
    Ok(DictHeader { count: r.len32("Dict value count")?, size: r.len32("dictionary size")?, width: r.u32("index bit width")? })
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
            let dict = Values::from_le_bytes(ty, &flat)?;
            Ok(map_fixed!(dict, d => gather(&d, &indices, n)?, _o, _d => unreachable_bytes()))
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

fn gather<T: Copy>(dict: &[T], indices: &MsbBits<'_>, n: usize) -> Result<Vec<T>> {
    let mut out = try_vec::<T>(n, "Dict values")?;
    indices.for_each(|i| out.push(dict[i as usize]));
    Ok(out)
}

#[cold]
fn unreachable_bytes() -> Values {
    // from_le_bytes never returns the bytes variant.
    Values::Bool(Vec::new())
}
