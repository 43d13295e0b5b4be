//! Delta: n int64s, the first value then wrapping differences. Every
//! integer width was widened to int64 on write and is narrowed back here.

use super::count_mismatch;
use crate::column::Values;
use crate::error::{corrupt_chunk, Result};
use crate::types::ColumnType;

pub(super) fn decode(ty: ColumnType, n: usize, stream: &[u8], kept: Option<Values>) -> Result<Values> {
    if !stream.len().is_multiple_of(8) {
        return Err(corrupt_chunk(format!("Delta stream of {} bytes is not a multiple of 8", stream.len())));
    }
    if stream.len() / 8 != n {
        return Err(count_mismatch("Delta stream", stream.len() / 8, n));
    }
    let mut out = super::fixed_storage(ty, n, kept)?;
    let bytes = out.fixed_bytes_mut().unwrap_or_default();
    match ty.width() {
        Some(1) => narrow::<1>(stream, bytes),
        Some(2) => narrow::<2>(stream, bytes),
        Some(4) => narrow::<4>(stream, bytes),
        _ => narrow::<8>(stream, bytes),
    }
    out.finish_le(ty.width().unwrap_or(8))
}

/// Sums int64 differences and keeps each value's low `W` bytes: wrapping
/// arithmetic then truncation is exactly Go's narrowing conversion.
fn narrow<const W: usize>(stream: &[u8], out: &mut [u8]) {
    let mut acc = 0i64;
    for (c, o) in stream.chunks_exact(8).zip(out.chunks_exact_mut(W)) {
        acc = acc.wrapping_add(i64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]));
        o.copy_from_slice(&acc.to_le_bytes()[..W]);
    }
}

/// Turns little-endian int64 differences into values in place.
pub(super) fn prefix_sum_in_place(bytes: &mut [u8]) {
    let mut acc = 0i64;
    for c in bytes.chunks_exact_mut(8) {
        acc = acc.wrapping_add(i64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]));
        c.copy_from_slice(&acc.to_le_bytes());
    }
}
