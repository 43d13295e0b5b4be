//! Plain: fixed-width values back to back; string and bytes as a uint32
//! length then the bytes, per value.

use super::{count_mismatch, BytesBuilder};
use crate::column::Values;
use crate::error::{corrupt_chunk, Result};
use crate::types::ColumnType;

pub(super) fn decode(ty: ColumnType, n: usize, stream: &[u8]) -> Result<Values> {
    match ty.width() {
        Some(w) => {
            if stream.len() % w != 0 {
                return Err(corrupt_chunk(format!("Plain {ty} stream of {} bytes is not a multiple of {w}", stream.len())));
            }
            if stream.len() / w != n {
                return Err(count_mismatch("Plain stream", stream.len() / w, n));
            }
            Values::from_le_bytes(ty, stream)
        }
        None => {
            // Lengths take 4 bytes each; whatever else the stream holds is
            // value bytes, so the output is sized exactly before one pass.
            let total = n.checked_mul(4).and_then(|l| stream.len().checked_sub(l)).ok_or_else(|| {
                corrupt_chunk(format!("Plain stream of {} bytes cannot hold {n} length prefixes", stream.len()))
            })?;
            let mut out = BytesBuilder::with_capacity(n, total as u64)?;
            let mut pos = 0usize;
            for i in 0..n {
                let len = match stream.get(pos..pos + 4) {
                    Some(b) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize,
                    None => return Err(corrupt_chunk(format!("Plain stream ends inside the length of value {i} at byte {pos}"))),
                };
                pos += 4;
                if len > stream.len() - pos {
                    return Err(corrupt_chunk(format!("Plain value {i} of {len} bytes at byte {pos} runs past the stream")));
                }
                out.append(stream, pos, len);
                out.end_value();
                pos += len;
            }
            if pos != stream.len() {
                return Err(corrupt_chunk(format!("{} unexpected bytes after the last Plain value", stream.len() - pos)));
            }
            out.finish()
        }
    }
}
