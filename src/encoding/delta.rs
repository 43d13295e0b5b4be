//! Delta: n int64s, the first value then wrapping differences. Every
//! integer width was widened to int64 on write and is narrowed back here.

use core::mem::MaybeUninit;

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
    let out = super::fixed_filled(ty, n, kept, |room| match ty.width() {
        Some(1) => narrow::<1>(stream, room),
        Some(2) => narrow::<2>(stream, room),
        Some(4) => narrow::<4>(stream, room),
        _ => narrow::<8>(stream, room),
    })?;
    out.finish_le(ty.width().unwrap_or(8))
}

/// Sums int64 differences and keeps each value's low `W` bytes: wrapping
/// arithmetic then truncation is exactly Go's narrowing conversion. Whether
/// it wrote all of `out` (one value per difference).
fn narrow<const W: usize>(stream: &[u8], out: &mut [MaybeUninit<u8>]) -> bool {
    let out = super::uninit_values::<W>(out);
    let mut acc = 0i64;
    for (c, o) in stream.chunks_exact(8).zip(out.iter_mut()) {
        acc = acc.wrapping_add(i64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]));
        let b = acc.to_le_bytes();
        o.write(core::array::from_fn(|i| b[i]));
    }
    stream.len() / 8 == out.len()
}

/// Turns little-endian int64 differences into values in place.
pub(super) fn prefix_sum_in_place(bytes: &mut [u8]) {
    let mut acc = 0i64;
    for c in bytes.chunks_exact_mut(8) {
        acc = acc.wrapping_add(i64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]));
        c.copy_from_slice(&acc.to_le_bytes());
    }
}
