//! Plain: fixed-width values back to back; string and bytes as a uint32
//! length then the bytes, per value.

use super::{count_mismatch, stream_reader, BytesBuilder};
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
            // First pass checks every length, so the output is sized once.
            let mut r = stream_reader(stream);
            let mut total = 0u64;
            for _ in 0..n {
                let len = r.len32("value length")?;
                r.take(len, "value bytes")?;
                total += len as u64;
            }
            r.finish("the last Plain value")?;
            let mut out = BytesBuilder::with_capacity(n, total)?;
            let mut r = stream_reader(stream);
            for _ in 0..n {
                let len = r.len32("value length")?;
                out.push(&[r.take(len, "value bytes")?]);
            }
            Ok(out.finish())
        }
    }
}
