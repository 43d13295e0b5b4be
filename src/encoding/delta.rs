//! Delta: n int64s, the first value then wrapping differences. Every
//! integer width was widened to int64 on write and is narrowed back here.

use super::count_mismatch;
use crate::bytes::le_u32;
use crate::column::Values;
use crate::error::{corrupt_chunk, try_vec, Result};
use crate::types::ColumnType;

pub(super) fn decode(ty: ColumnType, n: usize, stream: &[u8]) -> Result<Values> {
    if stream.len() % 8 != 0 {
        return Err(corrupt_chunk(format!("Delta stream of {} bytes is not a multiple of 8", stream.len())));
    }
    if stream.len() / 8 != n {
        return Err(count_mismatch("Delta stream", stream.len() / 8, n));
    }
    macro_rules! run {
        ($variant:ident, $t:ty) => {{
            let mut out = try_vec::<$t>(n, "Delta values")?;
            let mut acc = 0i64;
            for c in stream.chunks_exact(8) {
                let d = (le_u32(c, 0) as u64 | (le_u32(c, 4) as u64) << 32) as i64;
                acc = acc.wrapping_add(d);
                out.push(acc as $t);
            }
            Values::$variant(out)
        }};
    }
    Ok(match ty {
        ColumnType::Int8 => run!(Int8, i8),
        ColumnType::Int16 => run!(Int16, i16),
        ColumnType::Int32 => run!(Int32, i32),
        ColumnType::Int64 => run!(Int64, i64),
        ColumnType::Uint8 => run!(Uint8, u8),
        ColumnType::Uint16 => run!(Uint16, u16),
        ColumnType::Uint32 => run!(Uint32, u32),
        ColumnType::Uint64 => run!(Uint64, u64),
        _ => return Err(corrupt_chunk(format!("Delta encoding cannot hold {ty} values"))),
    })
}

/// Turns int64 differences into values in place (wrapping, like the writer).
pub(super) fn prefix_sum_in_place(mut v: Vec<i64>) -> Vec<i64> {
    let mut acc = 0i64;
    for x in &mut v {
        acc = acc.wrapping_add(*x);
        *x = acc;
    }
    v
}
