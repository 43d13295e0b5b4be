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
    Bytes { offsets: Vec<u32>, data: Vec<u8> },
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

    /// Builds fixed-width values from back-to-back little-endian bytes
    /// (`bytes.len()` a multiple of the width; the caller checked it).
    pub(crate) fn from_le_bytes(ty: ColumnType, bytes: &[u8]) -> Result<Values> {
        macro_rules! conv {
            ($variant:ident, $t:ty) => {{
                const W: usize = core::mem::size_of::<$t>();
                let mut v = try_vec::<$t>(bytes.len() / W, "column values")?;
                v.extend(bytes.chunks_exact(W).map(|c| <$t>::from_le_bytes(c.try_into().unwrap_or([0; W]))));
                Values::$variant(v)
            }};
        }
        Ok(match ty {
            ColumnType::Bool => {
                if let Some(i) = bytes.iter().position(|&b| b > 1) {
                    return Err(crate::error::corrupt_chunk(format!("bool value {} at index {i} is neither 0 nor 1", bytes[i])));
                }
                Values::Bool(bytes.to_vec())
            }
            ColumnType::Int8 => conv!(Int8, i8),
            ColumnType::Int16 => conv!(Int16, i16),
            ColumnType::Int32 => conv!(Int32, i32),
            ColumnType::Int64 => conv!(Int64, i64),
            ColumnType::Uint8 => Values::Uint8(bytes.to_vec()),
            ColumnType::Uint16 => conv!(Uint16, u16),
            ColumnType::Uint32 => conv!(Uint32, u32),
            ColumnType::Uint64 => conv!(Uint64, u64),
            ColumnType::Float32 => conv!(Float32, f32),
            ColumnType::Float64 => conv!(Float64, f64),
            ColumnType::Bytes | ColumnType::String => {
                return Err(Error::new(ErrorKind::CorruptChunk, "variable-length type given fixed-width bytes"))
            }
        })
    }

    /// Spreads `n` dense values over `rows` rows in place, leaving null
    /// rows zero (fixed width) or empty (bytes). `nulls` is the file's null
    /// bitmap (bit set = null), already checked to cover `rows` and to
    /// hold exactly `rows - n` nulls.
    pub(crate) fn spread(self, rows: usize, nulls: &[u8]) -> Result<Values> {
        let is_null = |i: usize| nulls[i / 8] >> (i % 8) & 1 == 1;
        // Walking back from the last row, the dense value a row takes is
        // never to its right, so moving values in place is safe.
        fn spread_vec<T: Copy + Default>(mut v: Vec<T>, rows: usize, is_null: impl Fn(usize) -> bool) -> Result<Vec<T>> {
            let mut k = v.len();
            grow(&mut v, rows)?;
            for i in (0..rows).rev() {
                if is_null(i) || k == 0 {
                    v[i] = T::default();
                } else {
                    k -= 1;
                    v[i] = v[k];
                }
            }
            Ok(v)
        }
        Ok(map_fixed!(self, v => spread_vec(v, rows, is_null)?, offsets, data => {
            // offsets[i + 1] becomes the end of row i: the end of the dense
            // value count among rows 0..=i.
            let mut o = offsets;
            let mut k = o.len() - 1;
            grow(&mut o, rows + 1)?;
            for i in (0..rows).rev() {
                o[i + 1] = o[k];
                if !is_null(i) && k > 0 {
                    k -= 1;
                }
            }
            Values::Bytes { offsets: o, data }
        }))
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

/// Maps every fixed-width variant to the same variant around `$body` (a
/// `Vec` of the same element type), and the bytes variant through `$bytes`.
macro_rules! map_fixed {
    ($values:expr, $v:ident => $body:expr, $offsets:ident, $data:ident => $bytes:expr) => {
        match $values {
            Values::Bool($v) => Values::Bool($body),
            Values::Int8($v) => Values::Int8($body),
            Values::Int16($v) => Values::Int16($body),
            Values::Int32($v) => Values::Int32($body),
            Values::Int64($v) => Values::Int64($body),
            Values::Uint8($v) => Values::Uint8($body),
            Values::Uint16($v) => Values::Uint16($body),
            Values::Uint32($v) => Values::Uint32($body),
            Values::Uint64($v) => Values::Uint64($body),
            Values::Float32($v) => Values::Float32($body),
            Values::Float64($v) => Values::Float64($body),
            Values::Bytes { offsets: $offsets, data: $data } => $bytes,
        }
    };
}
pub(crate) use map_fixed;

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
