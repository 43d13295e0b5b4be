//! A decoded column: typed values for every row plus a validity bitmap,
//! laid out the way Arrow does it. Fixed-width types are native vectors;
//! string and bytes are one offsets array and one data buffer. Nothing is
//! boxed per value, and strings stay exact bytes.

use crate::error::{try_vec, Error, ErrorKind, Result};
use crate::types::ColumnType;

#[derive(Clone, Debug, PartialEq)]
pub enum Values {
    /// One byte per row, 0 or 1.
    Bool(Vec<u8>),
    Int8(Vec<i8>),
    Int16(Vec<i16>),
    Int32(Vec<i32>),
    Int64(Vec<i64>),
    Uint8(Vec<u8>),
    Uint16(Vec<u16>),
    Uint32(Vec<u32>),
    Uint64(Vec<u64>),
    Float32(Vec<f32>),
    Float64(Vec<f64>),
    /// Row i is `data[offsets[i]..offsets[i+1]]`; `offsets.len() == rows + 1`.
    /// Used for both `string` and `bytes`: strings are bytes that are
    /// usually, not always, UTF-8.
    Bytes {
        offsets: Vec<u32>,
        data: Vec<u8>,
    },
}

/// Runs `$body` with `$v` bound to the typed vector of any fixed-width
/// variant; `$bytes` handles the variable-length one.
macro_rules! match_values {
    ($values:expr, $v:ident => $body:expr, $offsets:ident, $data:ident => $bytes:expr) => {
        match $values {
            Values::Bool($v) => $body,
            Values::Int8($v) => $body,
            Values::Int16($v) => $body,
            Values::Int32($v) => $body,
            Values::Int64($v) => $body,
            Values::Uint8($v) => $body,
            Values::Uint16($v) => $body,
            Values::Uint32($v) => $body,
            Values::Uint64($v) => $body,
            Values::Float32($v) => $body,
            Values::Float64($v) => $body,
            Values::Bytes { offsets: $offsets, data: $data } => $bytes,
        }
    };
}
pub(crate) use match_values;

impl Values {
    pub fn len(&self) -> usize {
        match_values!(self, v => v.len(), offsets, _d => offsets.len().saturating_sub(1))
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value bytes of row `i` for string/bytes columns.
    pub fn bytes_at(&self, i: usize) -> Option<&[u8]> {
        match self {
            Values::Bytes { offsets, data } => {
                let (a, b) = (*offsets.get(i)? as usize, *offsets.get(i + 1)? as usize);
                data.get(a..b)
            }
            _ => None,
        }
    }

    /// `n` zero values of a fixed-width type (`None` for string/bytes).
    pub(crate) fn zeroed(ty: ColumnType, n: usize) -> Result<Option<Values>> {
        fn z<T: Pod>(n: usize) -> Result<Vec<T>> {
            let mut v = try_vec::<T>(n, "column values")?;
            v.resize(n, T::default());
            Ok(v)
        }
        Ok(Some(match ty {
            ColumnType::Bool => Values::Bool(z(n)?),
            ColumnType::Int8 => Values::Int8(z(n)?),
            ColumnType::Int16 => Values::Int16(z(n)?),
            ColumnType::Int32 => Values::Int32(z(n)?),
            ColumnType::Int64 => Values::Int64(z(n)?),
            ColumnType::Uint8 => Values::Uint8(z(n)?),
            ColumnType::Uint16 => Values::Uint16(z(n)?),
            ColumnType::Uint32 => Values::Uint32(z(n)?),
            ColumnType::Uint64 => Values::Uint64(z(n)?),
            ColumnType::Float32 => Values::Float32(z(n)?),
            ColumnType::Float64 => Values::Float64(z(n)?),
            ColumnType::Bytes | ColumnType::String => return Ok(None),
        }))
    }

    /// Whether these are values of type `ty`.
    pub fn holds(&self, ty: ColumnType) -> bool {
        use ColumnType as T;
        matches!(
            (self, ty),
            (Values::Bool(_), T::Bool)
                | (Values::Int8(_), T::Int8)
                | (Values::Int16(_), T::Int16)
                | (Values::Int32(_), T::Int32)
                | (Values::Int64(_), T::Int64)
                | (Values::Uint8(_), T::Uint8)
                | (Values::Uint16(_), T::Uint16)
                | (Values::Uint32(_), T::Uint32)
                | (Values::Uint64(_), T::Uint64)
                | (Values::Float32(_), T::Float32)
                | (Values::Float64(_), T::Float64)
                | (Values::Bytes { .. }, T::Bytes | T::String)
        )
    }

    /// `n` values of a fixed-width type in `old`'s storage when it holds that
    /// type and has room for them, else fresh (`None` for string/bytes).
    /// `zero`: every value zero; otherwise only values past `old`'s length
    /// are, and the rest keep what they held (for a caller that overwrites
    /// them all).
    pub(crate) fn reusing(ty: ColumnType, n: usize, old: Option<Values>, zero: bool) -> Result<Option<Values>> {
        let room = |v: &Values| match_values!(v, x => x.capacity() >= n, _o, _d => false);
        let Some(mut v) = old.filter(|v| v.holds(ty) && room(v)) else { return Values::zeroed(ty, n) };
        // SAFETY: capacity for `n` was checked; every value past the part
        // kept is zeroed before the length covers it, and any bytes are a
        // valid value of these types (Pod).
        match_values!(&mut v, x => unsafe {
            let keep = if zero { 0 } else { x.len().min(n) };
            x.as_mut_ptr().add(keep).write_bytes(0, n - keep);
            x.set_len(n);
        }, _o, _d => return Ok(None));
        Ok(Some(v))
    }

    /// The storage of fixed-width values as bytes, in the values' native
    /// layout (little-endian on every target this ships to). Working on
    /// bytes by width keeps one copy of each loop per width, not per type.
    pub(crate) fn fixed_bytes_mut(&mut self) -> Option<&mut [u8]> {
        Some(match self {
            Values::Bool(v) | Values::Uint8(v) => &mut v[..],
            Values::Int8(v) => bytes_of_mut(v),
            Values::Int16(v) => bytes_of_mut(v),
            Values::Int32(v) => bytes_of_mut(v),
            Values::Int64(v) => bytes_of_mut(v),
            Values::Uint16(v) => bytes_of_mut(v),
            Values::Uint32(v) => bytes_of_mut(v),
            Values::Uint64(v) => bytes_of_mut(v),
            Values::Float32(v) => bytes_of_mut(v),
            Values::Float64(v) => bytes_of_mut(v),
            Values::Bytes { .. } => return None,
        })
    }

    /// Read-only view of `fixed_bytes_mut`.
    pub(crate) fn fixed_bytes(&self) -> Option<&[u8]> {
        fn b<T: Pod>(v: &[T]) -> &[u8] {
            // SAFETY: as in `bytes_of_mut`; reading any Pod's bytes is sound.
            unsafe { core::slice::from_raw_parts(v.as_ptr().cast::<u8>(), core::mem::size_of_val(v)) }
        }
        Some(match self {
            Values::Bool(v) | Values::Uint8(v) => &v[..],
            Values::Int8(v) => b(v),
            Values::Int16(v) => b(v),
            Values::Int32(v) => b(v),
            Values::Int64(v) => b(v),
            Values::Uint16(v) => b(v),
            Values::Uint32(v) => b(v),
            Values::Uint64(v) => b(v),
            Values::Float32(v) => b(v),
            Values::Float64(v) => b(v),
            Values::Bytes { .. } => return None,
        })
    }

    /// After little-endian bytes were written into fixed-width storage:
    /// puts them in native order (nothing to do on little-endian targets)
    /// and checks that bools are 0 or 1.
    pub(crate) fn finish_le(mut self, width: usize) -> Result<Values> {
        if cfg!(target_endian = "big") && width > 1 {
            if let Some(b) = self.fixed_bytes_mut() {
                b.chunks_exact_mut(width).for_each(<[u8]>::reverse);
            }
        }
        if let Values::Bool(v) = &self {
            if let Some(i) = v.iter().position(|&b| b > 1) {
                return Err(crate::error::corrupt_chunk(format!(
                    "bool value {} at index {i} is neither 0 nor 1",
                    v[i]
                )));
            }
        }
        Ok(self)
    }

    /// Builds fixed-width values from back-to-back little-endian bytes
    /// (`bytes.len()` a multiple of the width; the caller checked it).
    pub(crate) fn from_le_bytes(ty: ColumnType, bytes: &[u8]) -> Result<Values> {
        let w = ty
            .width()
            .ok_or_else(|| Error::new(ErrorKind::CorruptChunk, "variable-length type given fixed-width bytes"))?;
        let mut v = Values::zeroed(ty, bytes.len() / w)?
            .ok_or_else(|| Error::new(ErrorKind::CorruptChunk, "no fixed width"))?;
        if let Some(out) = v.fixed_bytes_mut() {
            out.copy_from_slice(&bytes[..out.len()]);
        }
        v.finish_le(w)
    }

    /// Spreads `n` dense values over `rows` rows, leaving null rows zero
    /// (fixed width) or empty (bytes). `nulls` is the file's null bitmap
    /// (bit set = null), already checked to cover `rows` and to hold
    /// exactly `rows - n` nulls.
    pub(crate) fn spread(self, ty: ColumnType, rows: usize, nulls: &[u8]) -> Result<Values> {
        self.spread_reusing(ty, rows, nulls, None).map(|(v, _)| v)
    }

    /// [`spread`](Self::spread) into `into`'s storage when it holds values
    /// of this type (see [`Values::reusing`]); gives back the dense values
    /// too, when they are not part of the result, for reuse.
    pub(crate) fn spread_reusing(
        self,
        ty: ColumnType,
        rows: usize,
        nulls: &[u8],
        into: Option<Values>,
    ) -> Result<(Values, Option<Values>)> {
        let is_null = |i: usize| nulls[i / 8] >> (i % 8) & 1 == 1;
        if let Values::Bytes { offsets, data } = self {
            // offsets[i + 1] becomes the end of row i: the end of the dense
            // value count among rows 0..=i. Walking back from the last row,
            // the entry read is never to the right of the one written.
            let mut o = offsets;
            let mut k = o.len() - 1;
            grow(&mut o, rows + 1)?;
            for i in (0..rows).rev() {
                o[i + 1] = o[k];
                if !is_null(i) && k > 0 {
                    k -= 1;
                }
            }
            return Ok((Values::Bytes { offsets: o, data }, None));
        }
        let mut dense = self;
        let (Some(w), Some(mut out)) = (ty.width(), Values::reusing(ty, rows, into, true)?) else {
            return Err(Error::new(ErrorKind::CorruptChunk, "internal: spread of mismatched values"));
        };
        let (Some(src), Some(dst)) = (dense.fixed_bytes_mut(), out.fixed_bytes_mut()) else {
            return Err(Error::new(ErrorKind::CorruptChunk, "internal: spread of mismatched values"));
        };
        match w {
            1 => spread_width::<1>(src, dst, rows, is_null),
            2 => spread_width::<2>(src, dst, rows, is_null),
            4 => spread_width::<4>(src, dst, rows, is_null),
            _ => spread_width::<8>(src, dst, rows, is_null),
        }
        Ok((out, Some(dense)))
    }
}

/// Copies dense `W`-byte values to the non-null rows of a zeroed output.
fn spread_width<const W: usize>(src: &[u8], dst: &mut [u8], rows: usize, is_null: impl Fn(usize) -> bool) {
    let mut k = 0;
    for i in 0..rows {
        if !is_null(i) {
            if let (Some(s), Some(d)) = (src.get(k..k + W), dst.get_mut(i * W..i * W + W)) {
                d.copy_from_slice(s);
            }
            k += W;
        }
    }
}

/// Resizes to `len` with defaults, reporting failure instead of aborting.
fn grow<T: Copy + Default>(v: &mut Vec<T>, len: usize) -> Result<()> {
    v.try_reserve_exact(len.saturating_sub(v.len()))
        .map_err(|_| Error::new(ErrorKind::TooLarge, format!("cannot allocate {len} values")))?;
    v.resize(len, T::default());
    Ok(())
}

/// Numbers whose every bit pattern is a valid value and which have no
/// padding, so their storage can be written as bytes.
///
/// # Safety
/// Implement only for primitive integers and floats.
pub(crate) unsafe trait Pod: Copy + Default {}
// SAFETY: primitive integers and floats: no padding, no invalid bit patterns.
unsafe impl Pod for u8 {}
unsafe impl Pod for i8 {}
unsafe impl Pod for u16 {}
unsafe impl Pod for i16 {}
unsafe impl Pod for u32 {}
unsafe impl Pod for i32 {}
unsafe impl Pod for u64 {}
unsafe impl Pod for i64 {}
unsafe impl Pod for f32 {}
unsafe impl Pod for f64 {}

/// The bytes of a slice of numbers, for decompressing straight into typed
/// storage (on little-endian targets that is the values' own encoding).
pub(crate) fn bytes_of_mut<T: Pod>(v: &mut [T]) -> &mut [u8] {
    // SAFETY: T is Pod (no padding; any bytes written form valid values),
    // u8 has alignment 1, and the length is exactly the slice's size.
    unsafe { core::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<u8>(), core::mem::size_of_val(v)) }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    pub ty: ColumnType,
    /// One entry per row (nulls hold zero / empty).
    pub values: Values,
    /// Arrow convention: bit i (LSB first) set = row i is valid. `None` when
    /// the chunk has no nulls.
    pub validity: Option<Vec<u8>>,
    pub null_count: usize,
}

impl Column {
    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn is_valid(&self, row: usize) -> bool {
        match &self.validity {
            None => row < self.len(),
            Some(v) => v.get(row / 8).is_some_and(|b| b >> (row % 8) & 1 == 1),
        }
    }
}
