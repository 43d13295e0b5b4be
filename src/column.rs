//! A decoded column: typed values for every row plus a validity bitmap,
//! laid out the way Arrow does it. Fixed-width types are native vectors;
//! string and bytes are one offsets array and one data buffer. Nothing is
//! boxed per value, and strings stay exact bytes.

use core::mem::MaybeUninit;

use crate::error::{try_room, try_vec, Error, ErrorKind, Result};
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
        Values::reusing(ty, n, None, true)
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

    /// Whether these values' storage can take `n` values of `ty`.
    fn fits(&self, ty: ColumnType, n: usize) -> bool {
        self.holds(ty) && match_values!(self, x => x.capacity() >= n, _o, _d => false)
    }

    /// `n` values of a fixed-width type (`None` for string/bytes) written by
    /// `fill` straight into storage: `old`'s when it [fits](Self::fits),
    /// else new. Nothing is zeroed first (that pass cost Delta int32 a fifth
    /// of its decode natively): `fill` gets the bytes of the `n` values as
    /// room and says whether every byte now holds a value, written by it or
    /// (when `old` fits) left there from `old`'s values; only then are they
    /// values (else an internal error). Not generic: one copy serves every
    /// decoder (each a copy of the whole match, generic, cost 1.3 KB gzip in
    /// wasm).
    pub(crate) fn filled(
        ty: ColumnType,
        n: usize,
        old: Option<Values>,
        fill: &mut dyn FnMut(&mut [MaybeUninit<u8>]) -> bool,
    ) -> Result<Option<Values>> {
        fn room<T: Pod>(v: &mut Vec<T>) -> &mut [MaybeUninit<u8>] {
            // Clearing leaves the bytes as they were (these are Copy).
            v.clear();
            let r = v.spare_capacity_mut();
            // SAFETY: the spare capacity's bytes, as bytes that may be
            // unfilled; T is Pod, so any bytes written there form values.
            unsafe { core::slice::from_raw_parts_mut(r.as_mut_ptr().cast(), core::mem::size_of_val(r)) }
        }
        fn new<T>(n: usize) -> Result<Vec<T>> {
            try_vec::<T>(n, "column values")
        }
        let Some(w) = ty.width() else { return Ok(None) };
        let mut v = match old.filter(|v| v.fits(ty, n)) {
            Some(v) => v,
            None => match ty {
                ColumnType::Bool => Values::Bool(new(n)?),
                ColumnType::Int8 => Values::Int8(new(n)?),
                ColumnType::Int16 => Values::Int16(new(n)?),
                ColumnType::Int32 => Values::Int32(new(n)?),
                ColumnType::Int64 => Values::Int64(new(n)?),
                ColumnType::Uint8 => Values::Uint8(new(n)?),
                ColumnType::Uint16 => Values::Uint16(new(n)?),
                ColumnType::Uint32 => Values::Uint32(new(n)?),
                ColumnType::Uint64 => Values::Uint64(new(n)?),
                ColumnType::Float32 => Values::Float32(new(n)?),
                ColumnType::Float64 => Values::Float64(new(n)?),
                ColumnType::Bytes | ColumnType::String => return Ok(None),
            },
        };
        // Room for n values of w bytes was checked or reserved above.
        let bytes = match_values!(&mut v, x => room(x), _o, _d => return Ok(None));
        if !bytes.get_mut(..n * w).is_some_and(fill) {
            return Err(Error::new(ErrorKind::CorruptChunk, "internal: a decoder left values unwritten"));
        }
        // SAFETY: capacity for n was checked or reserved, and `fill` says
        // every byte of the n values holds a value.
        match_values!(&mut v, x => unsafe { x.set_len(n) }, _o, _d => {});
        Ok(Some(v))
    }

    /// `n` values of a fixed-width type in `old`'s storage when it fits
    /// them, else fresh (`None` for string/bytes). `zero`: every value
    /// zero; otherwise only values past `old`'s length are, and the rest
    /// keep what they held (for a caller that overwrites them all).
    pub(crate) fn reusing(ty: ColumnType, n: usize, old: Option<Values>, zero: bool) -> Result<Option<Values>> {
        let keep = match &old {
            Some(v) if !zero && v.fits(ty, n) => v.len().min(n) * ty.width().unwrap_or(0),
            _ => 0,
        };
        // The first `keep` bytes are old values, left as they were.
        Values::filled(ty, n, old, &mut |room| {
            room.get_mut(keep..).is_some_and(|r| {
                r.fill(MaybeUninit::new(0));
                true
            })
        })
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
    pub fn fixed_bytes(&self) -> Option<&[u8]> {
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
            // One OR over every byte (vectorized; a byte above 1 sets a
            // bit above bit 0), and the search only on failure: a search
            // alone stops at the first bad byte, so it runs a byte a step
            // (Plain bool 1.05 ns a value against int8's 0.06).
            if v.iter().fold(0u8, |a, &b| a | b) > 1 {
                let i = v.iter().position(|&b| b > 1).unwrap_or(0);
                return Err(crate::error::corrupt_chunk(format!(
                    "bool value {} at index {i} is neither 0 nor 1",
                    v.get(i).copied().unwrap_or(0)
                )));
            }
        }
        Ok(self)
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
        if let Values::Bytes { offsets, data } = self {
            let mut o = offsets;
            let n = o.len() - 1;
            grow(&mut o, rows.saturating_add(1))?; // (see `offsets_in`)
            spread_offsets(&mut o, n, rows, nulls);
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
            1 => spread_width::<1>(src, dst, nulls),
            2 => spread_width::<2>(src, dst, nulls),
            4 => spread_width::<4>(src, dst, nulls),
            _ => spread_width::<8>(src, dst, nulls),
        }
        Ok((out, Some(dense)))
    }
}

/// Copies dense `W`-byte values to the non-null rows of a zeroed output,
/// eight rows (one bitmap byte) at a time. With 128-bit shuffles (SSSE3,
/// wasm SIMD128) [`lanes::spread`] does every byte whose values can be
/// loaded whole, without a branch per byte or row; the few bytes it leaves
/// at the end go row by row, and so does every byte without the shuffles
/// (natively: [`spread_bytes`]). Out of line: inlined into
/// `spread_reusing`, it slowed the offsets' spreading there in V8.
#[inline(never)]
fn spread_width<const W: usize>(src: &[u8], dst: &mut [u8], nulls: &[u8]) {
    let (done, k) = lanes::spread::<W>(src, dst, nulls);
    let src = src.get(k..).unwrap_or_default();
    let dst = dst.get_mut(done * 8 * W..).unwrap_or_default();
    let nulls = nulls.get(done..).unwrap_or_default();
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        let mut k = 0;
        for (d, &b) in dst.chunks_mut(8 * W).zip(nulls) {
            k += spread_rows(src.get(k..).unwrap_or_default(), d, b, W);
        }
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    spread_bytes::<W>(src, dst, nulls);
}

/// [`spread_width`] without the shuffles: a byte without nulls is one
/// copy, and a mixed byte visits its valid rows only (lowest set bit of the
/// valid mask, then clear it). Its exit is mispredicted on most mixed
/// bytes: at a quarter nulls, 0.59 ns/row natively against 0.35 with the
/// shuffles (4-byte values). A table of each byte's rows, eight copies
/// and a zero store per byte without a branch, measured 0.56.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn spread_bytes<const W: usize>(src: &[u8], dst: &mut [u8], nulls: &[u8]) {
    let mut k = 0;
    let mut full = dst.chunks_exact_mut(8 * W);
    for (d, &b) in (&mut full).zip(nulls) {
        if b == 0 {
            if let Some(s) = src.get(k..k + 8 * W) {
                d.copy_from_slice(s);
            }
            k += 8 * W;
            continue;
        }
        let mut valid = !b;
        while valid != 0 {
            let j = valid.trailing_zeros() as usize;
            if let (Some(s), Some(d)) = (src.get(k..k + W), d.get_mut(j * W..j * W + W)) {
                d.copy_from_slice(s);
            }
            k += W;
            valid &= valid - 1;
        }
    }
    spread_rows(src.get(k..).unwrap_or_default(), full.into_remainder(), nulls.last().copied().unwrap_or(0), W);
}

/// Spreading by 128-bit byte shuffles: each 16 output bytes are one
/// shuffle of 16 source bytes, by lanes looked up from their rows' null
/// bits; a null row's lanes are >= 0x80, which both SSSE3's `pshufb` and
/// wasm's `i8x16.swizzle` turn into zero bytes. Measured against the loop
/// over valid rows on the corpus's 600-row chunks with a quarter nulls
/// (examples/decode_bench.md): natively 0.59 -> 0.35 ns/row for 4-byte
/// values, 0.62 -> 0.46 for 8-byte ones.
mod lanes {
    /// The lanes of `rows` rows of `w` bytes for each pattern of their null
    /// bits `n` (bit set = null), as the low `rows * w` bytes of a u128:
    /// lane `w * j + e` is byte `e` of the `c`-th valid value, `c` the valid
    /// rows before row `j`, or 0x80 for a null row.
    const fn lanes(w: usize, rows: usize, n: usize) -> u128 {
        let (mut t, mut c, mut j) = (0u128, 0, 0);
        while j < rows {
            let mut e = 0;
            while e < w {
                let lane = if n >> j & 1 == 0 { w * c + e } else { 0x80 };
                t |= (lane as u128) << (8 * (w * j + e));
                e += 1;
            }
            c += 1 - (n >> j & 1);
            j += 1;
        }
        t
    }

    /// Four rows of 1, 2 or 4 bytes, or two of 8, per pattern of null bits.
    const T1: [u32; 16] = {
        let mut t = [0; 16];
        let mut n = 0;
        while n < 16 {
            t[n] = lanes(1, 4, n) as u32;
            n += 1;
        }
        t
    };
    const T2: [u64; 16] = {
        let mut t = [0; 16];
        let mut n = 0;
        while n < 16 {
            t[n] = lanes(2, 4, n) as u64;
            n += 1;
        }
        t
    };
    const T4: [[u8; 16]; 16] = {
        let mut t = [[0; 16]; 16];
        let mut n = 0;
        while n < 16 {
            t[n] = lanes(4, 4, n).to_le_bytes();
            n += 1;
        }
        t
    };
    const T8: [[u8; 16]; 4] = [
        lanes(8, 2, 0).to_le_bytes(),
        lanes(8, 2, 1).to_le_bytes(),
        lanes(8, 2, 2).to_le_bytes(),
        lanes(8, 2, 3).to_le_bytes(),
    ];

    /// Valid rows among four with null bits `n` (4 minus the bits set).
    fn valid4(n: u8) -> usize {
        (0x0112_1223_1223_2334u64 >> (4 * (n & 15))) as usize & 15
    }

    /// Valid rows among two with null bits `n`: 2, 1, 1, 0.
    #[cfg(not(target_arch = "x86_64"))]
    fn valid2(n: u8) -> usize {
        (0x16 >> (2 * (n & 3))) & 3
    }

    /// For 8-byte values natively, per bitmap byte: the source offsets of
    /// its four pairs of rows (bytes from the byte's first value), then
    /// their null bits. Looked up rather than computed: 0.45 -> 0.40 ns/row
    /// natively (not in wasm, where its 2 KB count).
    #[cfg(target_arch = "x86_64")]
    const PAIRS: [[u8; 8]; 256] = {
        let mut t = [[0u8; 8]; 256];
        let mut b = 0;
        while b < 256 {
            let (mut q, mut at) = (0, 0);
            while q < 4 {
                let n = (b >> (2 * q)) & 3;
                t[b][q] = at;
                t[b][q + 4] = n as u8;
                at += 8 * [2, 1, 1, 0][n];
                q += 1;
            }
            b += 1;
        }
        t
    };

    /// Spreads whole bitmap bytes while every load of a byte's values lies
    /// inside `src`; returns the bytes done and the source bytes used.
    #[inline(always)]
    fn spread_with<const W: usize>(
        src: &[u8],
        dst: &mut [u8],
        nulls: &[u8],
        shuffle: impl Fn([u8; 16], [u8; 16]) -> [u8; 16],
    ) -> (usize, usize) {
        // A byte's loads end at most 8 * W bytes on (at least 16).
        let window = (8 * W).max(16);
        let (mut k, mut done) = (0, 0);
        for (d, &b) in dst.chunks_exact_mut(8 * W).zip(nulls) {
            let Some(s) = src.get(k..k + window) else { break };
            done += 1;
            // Eight valid rows: one copy (most bytes of real chunks).
            if b == 0 {
                if let Some(s) = s.get(..8 * W) {
                    d.copy_from_slice(s);
                }
                k += 8 * W;
                continue;
            }
            // Every load lies inside `s` (the window); the fallback is never taken.
            let load = |at: usize| s.get(at..).and_then(|s| s.first_chunk::<16>()).copied().unwrap_or([0; 16]);
            let (lo, hi) = (b & 15, b >> 4);
            match W {
                // One vector per byte: the high four rows' lanes start after
                // the low four's values (added to a null lane, 0x80 stays
                // >= 0x80).
                1 | 2 => {
                    let c = valid4(lo) as u64;
                    let (a, z) = if W == 1 {
                        (T1[lo as usize] as u64 | (T1[hi as usize] as u64 + c * 0x0101_0101) << 32, 0)
                    } else {
                        (T2[lo as usize], T2[hi as usize] + 2 * c * 0x0101_0101_0101_0101)
                    };
                    let mut mask = [0; 16];
                    mask[..8].copy_from_slice(&a.to_le_bytes());
                    mask[8..].copy_from_slice(&z.to_le_bytes());
                    let v = shuffle(load(0), mask);
                    d.copy_from_slice(v.get(..8 * W).unwrap_or_default());
                }
                4 => {
                    if let Some((a, z)) = d.split_first_chunk_mut::<16>() {
                        *a = shuffle(load(0), T4[lo as usize]);
                        if let Some(z) = z.first_chunk_mut::<16>() {
                            *z = shuffle(load(4 * valid4(lo)), T4[hi as usize]);
                        }
                    }
                }
                _ => {
                    #[cfg(target_arch = "x86_64")]
                    let (at, n) = {
                        let e = &PAIRS[b as usize];
                        ([e[0], e[1], e[2], e[3]].map(usize::from), [e[4], e[5], e[6], e[7]])
                    };
                    #[cfg(not(target_arch = "x86_64"))]
                    let (at, n) = {
                        let at = [0, valid2(lo), valid4(lo), valid4(lo) + valid2(hi)].map(|c| 8 * c);
                        (at, [lo, lo >> 2, hi, hi >> 2])
                    };
                    for ((d, at), n) in d.chunks_exact_mut(16).zip(at).zip(n) {
                        if let Some(d) = d.first_chunk_mut::<16>() {
                            *d = shuffle(load(at), T8[n as usize & 3]);
                        }
                    }
                }
            }
            k += W * (valid4(lo) + valid4(hi));
        }
        (done, k)
    }

    #[cfg(target_arch = "x86_64")]
    pub(super) fn spread<const W: usize>(src: &[u8], dst: &mut [u8], nulls: &[u8]) -> (usize, usize) {
        if !std::is_x86_feature_detected!("ssse3") {
            return (0, 0);
        }
        // SAFETY: the CPU has SSSE3 (checked above).
        unsafe { spread_ssse3::<W>(src, dst, nulls) }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "ssse3")]
    fn spread_ssse3<const W: usize>(src: &[u8], dst: &mut [u8], nulls: &[u8]) -> (usize, usize) {
        use core::arch::x86_64::{__m128i, _mm_shuffle_epi8};
        use core::mem::transmute;
        spread_with::<W>(src, dst, nulls, |v, m| {
            // SAFETY: [u8; 16] and __m128i have the same size, and any bits
            // are a valid value of either.
            unsafe {
                let (v, m) = (transmute::<[u8; 16], __m128i>(v), transmute::<[u8; 16], __m128i>(m));
                transmute::<__m128i, [u8; 16]>(_mm_shuffle_epi8(v, m))
            }
        })
    }

    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    pub(super) fn spread<const W: usize>(src: &[u8], dst: &mut [u8], nulls: &[u8]) -> (usize, usize) {
        use core::arch::wasm32::{i8x16_swizzle, v128};
        use core::mem::transmute;
        spread_with::<W>(src, dst, nulls, |v, m| {
            // SAFETY: [u8; 16] and v128 have the same size, and any bits are
            // a valid value of either.
            unsafe {
                let (v, m) = (transmute::<[u8; 16], v128>(v), transmute::<[u8; 16], v128>(m));
                transmute::<v128, [u8; 16]>(i8x16_swizzle(v, m))
            }
        })
    }

    /// Elsewhere every byte goes to the loop over valid rows.
    #[cfg(not(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128"))))]
    pub(super) fn spread<const W: usize>(_src: &[u8], _dst: &mut [u8], _nulls: &[u8]) -> (usize, usize) {
        (0, 0)
    }
}

/// The rows of `dst` (at most eight, null bits `b`) one by one, their width
/// known at run time: the last, partial bitmap byte, and the bytes the
/// shuffles leave. Returns the source bytes used.
fn spread_rows(src: &[u8], dst: &mut [u8], b: u8, w: usize) -> usize {
    let mut k = 0;
    for (j, d) in dst.chunks_exact_mut(w).enumerate() {
        if b >> j & 1 == 0 {
            if let Some(s) = src.get(k..k + w) {
                d.copy_from_slice(s);
            }
            k += w;
        }
    }
    k
}

/// Spreads the offsets of `n` dense values over `rows` rows in place:
/// `o` holds the dense offsets in its first `n + 1` entries and has room
/// for `rows + 1` (the decoders allocate it so, see `encoding::decode`).
/// Walking back from the last row, entry `i + 1` becomes the end of the
/// dense values among rows `0..=i`, which is `o[k]` for `k` their count:
/// never to the right of the entry written, so never one already
/// overwritten. Eight rows (a bitmap byte) without nulls move as one
/// fixed-size block; otherwise `k` steps down by each row's valid bit,
/// without a branch.
fn spread_offsets(o: &mut [u32], n: usize, rows: usize, nulls: &[u8]) {
    let mut k = n;
    fn row(o: &mut [u32], k: &mut usize, i: usize, valid: u8) {
        if let (Some(&v), true) = (o.get(*k), i + 1 < o.len()) {
            o[i + 1] = v;
        }
        *k = k.saturating_sub(valid as usize);
    }
    let full = rows / 8;
    for i in (full * 8..rows).rev() {
        row(o, &mut k, i, !nulls.get(i / 8).copied().unwrap_or(0xFF) >> (i % 8) & 1);
    }
    for b in (0..full).rev() {
        let at = 8 * b;
        match nulls.get(b).copied().unwrap_or(0xFF) {
            // Eight rows without nulls: one fixed-size move (the ranges may
            // overlap).
            0 if k >= 8 && k < o.len() && at + 9 <= o.len() => {
                let mut t = [0u32; 8];
                t.copy_from_slice(&o[k - 7..k + 1]);
                o[at + 1..at + 9].copy_from_slice(&t);
                k -= 8;
            }
            byte => (0..8).rev().for_each(|j| row(o, &mut k, at + j, !byte >> j & 1)),
        }
    }
}

/// Resizes to `len` with defaults, reporting failure instead of aborting.
fn grow<T: Copy + Default>(v: &mut Vec<T>, len: usize) -> Result<()> {
    try_room(v, len.saturating_sub(v.len()), "values")?;
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

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// Random dense values spread over random null bitmaps (sparse, dense,
    /// runs of whole null or valid bytes, any row count): every row holds
    /// what a row-by-row reading gives: zero or empty for a null row, else
    /// the next dense value. Runs in wasm32 too (its shuffles are SIMD128's).
    #[test]
    fn spread_matches_a_row_by_row_reading() {
        let mut x = 0x853c_49e6_748f_ea9bu64;
        let mut next = |m: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % m.max(1) as u64) as usize
        };
        // Every width: 1, 2, 4, 8 bytes and offsets.
        let types = [ColumnType::Uint8, ColumnType::Int16, ColumnType::Float32, ColumnType::Int64, ColumnType::String];
        let mut kept: Option<Values> = None;
        for case in 0..4000 {
            let ty = types[next(types.len())];
            let rows = if next(4) == 0 { next(2000) } else { next(40) };
            let density = [0, 1, 5, 50, 95, 100][next(6)];
            let mut nulls = vec![0u8; rows.div_ceil(8)];
            let mut run_null = false;
            for i in 0..rows {
                if i % 8 == 0 && next(3) == 0 {
                    run_null = next(2) == 0; // a whole byte alike
                }
                let null = if i % 8 != 0 && next(3) == 0 { run_null } else { next(100) < density };
                if null {
                    nulls[i / 8] |= 1 << (i % 8);
                }
            }
            // Padding bits past the last row are noise the spread ignores.
            if rows % 8 != 0 {
                nulls[rows / 8] |= (next(256) as u8) & !((1u8 << (rows % 8)) - 1);
            }
            let is_null = |i: usize| nulls[i / 8] >> (i % 8) & 1 == 1;
            let n = (0..rows).filter(|&i| !is_null(i)).count();
            let values: Vec<Vec<u8>> =
                (0..n).map(|_| (0..ty.width().unwrap_or(next(20))).map(|_| next(256) as u8).collect()).collect();
            let dense = match ty.width() {
                Some(_) => {
                    let mut v = crate::encoding::fixed_storage(ty, n, None).unwrap();
                    v.fixed_bytes_mut().unwrap().copy_from_slice(&values.concat());
                    v
                }
                None => {
                    let mut offsets = vec![0u32];
                    let mut data = Vec::new();
                    for v in &values {
                        data.extend_from_slice(v);
                        offsets.push(data.len() as u32);
                    }
                    Values::Bytes { offsets, data }
                }
            };
            // Half the cases spread into the storage of an earlier result
            // (any type), its bytes made garbage first: null rows must
            // still come out zero.
            let got = if next(2) == 0 {
                dense.spread(ty, rows, &nulls).unwrap()
            } else {
                let mut into = kept.take();
                if let Some(b) = into.as_mut().and_then(Values::fixed_bytes_mut) {
                    b.fill(0xA5);
                }
                let (got, back) = dense.spread_reusing(ty, rows, &nulls, into).unwrap();
                if let Some(back) = back {
                    assert_eq!(back.len(), n, "case {case}: the dense values given back");
                }
                got
            };
            let mut k = 0;
            for i in 0..rows {
                let want: Vec<u8> = if is_null(i) {
                    vec![0; ty.width().unwrap_or(0)]
                } else {
                    k += 1;
                    values[k - 1].clone()
                };
                let row = match &got {
                    Values::Bytes { .. } => got.bytes_at(i).unwrap().to_vec(),
                    v => {
                        let w = ty.width().unwrap();
                        v.fixed_bytes().unwrap()[i * w..i * w + w].to_vec()
                    }
                };
                assert_eq!(row, want, "case {case}: {ty} row {i} of {rows}");
            }
            assert_eq!(got.len(), rows, "case {case}");
            kept = Some(got);
        }
    }

    /// Bools are 0 or 1: any other byte, wherever it lies and whichever of
    /// its bits is set, is refused with its index and value.
    #[test]
    fn bools_other_than_0_or_1_are_refused_where_they_are() {
        assert!(Values::Bool(vec![0, 1, 1, 0]).finish_le(1).is_ok());
        assert!(Values::Bool(vec![]).finish_le(1).is_ok());
        for (at, bad) in [(0, 2u8), (5, 0x80), (37, 3), (63, 0xff)] {
            let mut v: Vec<u8> = (0..64).map(|i| (i % 3 == 0) as u8).collect();
            v[at] = bad;
            let e = Values::Bool(v).finish_le(1).unwrap_err();
            assert_eq!(e.kind, ErrorKind::CorruptChunk);
            assert!(e.to_string().contains(&format!("bool value {bad} at index {at} ")), "{e}");
        }
        // Other types take any byte.
        assert!(Values::Uint8(vec![0, 2, 255]).finish_le(1).is_ok());
    }

    /// Storage handed to decoders: a fill that says it did not write every
    /// value is an internal error, never values; `reusing` keeps the old
    /// values it may keep and zeroes the rest; storage of another type or
    /// too small is not reused.
    #[test]
    fn filled_storage_holds_only_what_was_written_or_kept() {
        let e = Values::filled(ColumnType::Int32, 4, None, &mut |_| false).unwrap_err();
        assert!(e.message.contains("internal"), "{e}");
        let mut seen = 0;
        let v = Values::filled(ColumnType::Int16, 3, None, &mut |room| {
            seen = room.len();
            room.iter_mut().enumerate().for_each(|(i, b)| _ = b.write(i as u8));
            true
        });
        assert_eq!(seen, 6);
        assert_eq!(v.unwrap(), Some(Values::Int16(vec![0x0100, 0x0302, 0x0504])));
        assert_eq!(Values::filled(ColumnType::String, 3, None, &mut |_| true).unwrap(), None);

        let old = || Some(Values::Int32(vec![7, 8, 9]));
        let kept = Values::reusing(ColumnType::Int32, 2, old(), false).unwrap();
        assert_eq!(kept, Some(Values::Int32(vec![7, 8])));
        let zero = Values::reusing(ColumnType::Int32, 3, old(), true).unwrap();
        assert_eq!(zero, Some(Values::Int32(vec![0, 0, 0])));
        let mut roomy = Vec::with_capacity(5);
        roomy.extend([7, 8]);
        let grown = Values::reusing(ColumnType::Int32, 4, Some(Values::Int32(roomy)), false).unwrap();
        assert_eq!(grown, Some(Values::Int32(vec![7, 8, 0, 0])));
        let other = Values::reusing(ColumnType::Uint32, 2, old(), false).unwrap();
        assert_eq!(other, Some(Values::Uint32(vec![0, 0])));
        let small = Values::reusing(ColumnType::Int32, 9, old(), false).unwrap();
        assert_eq!(small, Some(Values::Int32(vec![0; 9])));
    }
}
