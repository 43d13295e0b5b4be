//! Plain: fixed-width values back to back; string and bytes as a uint32
//! length then the bytes, per value.

use super::{count_mismatch, each_prefixed, prefixed_payload, BytesBuilder};
use crate::column::Values;
use crate::error::{corrupt_chunk, Result};
use crate::types::ColumnType;

pub(super) fn decode(ty: ColumnType, n: usize, stream: &[u8]) -> Result<Values> {
    match ty.width() {
        Some(w) => {
            if stream.len() % w != 0 {
                return Err(corrupt_chunk(format!(
                    "Plain {ty} stream of {} bytes is not a multiple of {w}",
                    stream.len()
                )));
            }
            if stream.len() / w != n {
                return Err(count_mismatch("Plain stream", stream.len() / w, n));
            }
            Values::from_le_bytes(ty, stream)
        }
        None => {
            // Lengths take 4 bytes each and the rest is value bytes, so the
            // output is sized exactly before the one checking pass.
            let total = prefixed_payload(stream, n, "Plain stream")?;
            let mut out = BytesBuilder::with_capacity(n, total as u64)?;
            each_prefixed(stream, n, "Plain stream", |start, len| {
                out.append(stream, start, len);
                out.end_value();
            })?;
            out.finish()
        }
    }
}
