//! Most-significant-bit-first bit unpacking, shared by RLEBitpack, Dict
//! indices and Tokenized Bits ids.

use crate::error::{corrupt_chunk, Result};

/// Runs `$body` with `$W` a constant equal to `$w` when that is 1 to 16
/// (every Dict index and Tokenized Bits width of the real files); else
/// nothing.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
macro_rules! by_width {
    ($w:expr, $W:ident => $body:expr) => {
        by_width!(@ $w, $W, $body, 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16)
    };
    (@ $w:expr, $W:ident, $body:expr, $($n:literal)*) => {
        match $w {
            $($n => {
                const $W: usize = $n;
                $body
            })*
            _ => {}
        }
    };
}

/// Values unpacked at a time by [`MsbBits::for_each_block`].
pub(crate) const BLOCK: usize = 1024;

/// `count` values of `width` bits (at most 32), MSB first.
pub(crate) struct MsbBits<'a> {
    data: &'a [u8],
    width: u32,
    count: usize,
}

impl<'a> MsbBits<'a> {
    /// Bytes `count` values of `width` bits occupy, zero padded to a byte.
    pub fn byte_len(count: usize, width: u32) -> Option<usize> {
        (count as u64).checked_mul(width as u64).map(|b| b.div_ceil(8)).and_then(|b| usize::try_from(b).ok())
    }

    /// Checks that `data` is exactly the packed size.
    pub fn new(data: &'a [u8], count: usize, width: u32) -> Result<Self> {
        if width > 32 {
            return Err(corrupt_chunk(format!("bit width {width} is more than 32")));
        }
        match Self::byte_len(count, width) {
            Some(n) if n == data.len() => Ok(MsbBits { data, width, count }),
            _ => Err(corrupt_chunk(format!(
                "{count} values of {width} bits need {} bytes, found {}",
                Self::byte_len(count, width).unwrap_or(usize::MAX),
                data.len()
            ))),
        }
    }

    pub fn count(&self) -> usize {
        self.count
    }

    /// Unpacks every value into `out`, which must hold exactly `count`.
    pub fn unpack(&self, out: &mut [u32]) {
        self.unpack_from(0, out);
    }

    /// Unpacks values `first..first + out.len()` into `out` (zeros if that
    /// range is not inside the `count` values).
    ///
    /// Values are taken in runs: one 8-byte big-endian load, shifted past
    /// the bits already used, holds at least 57 unread bits, so the next
    /// `57 / width` values come out of one register with a shift each (no
    /// per-value load, bounds check or branch). The last runs, where 8
    /// bytes would reach past the data, read from a zero-padded copy.
    pub fn unpack_from(&self, first: usize, out: &mut [u32]) {
        let w = self.width as usize;
        if w == 0 || first.checked_add(out.len()).is_none_or(|end| end > self.count) {
            out.fill(0);
            return;
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        let (first, out) = {
            let done = lanes::unpack(self.data, w, first, out);
            if done == out.len() {
                return;
            }
            (first + done, &mut out[done..])
        };
        let run = 57 / w;
        let span = (run * w) as u64;
        // Bit positions in u64: a stream over 512 MiB has more bits than a
        // 32-bit usize counts.
        let start = first as u64 * w as u64;
        let d = &self.data[(start / 8) as usize..];
        let bit0 = start % 8;
        // Runs whose 8-byte load ends inside the data: run g loads from
        // byte (bit0 + g * span) / 8.
        let fast = match d.len().checked_sub(8) {
            Some(last) => ((last as u64 * 8 + 7 - bit0) / span + 1).min((out.len() / run) as u64) as usize,
            None => 0,
        };
        let (head, tail) = out.split_at_mut(fast * run);
        unpack_runs(d, bit0, w, run, head);
        let bit = bit0 + fast as u64 * span;
        // What is left needs at most 8 bytes: either the next run's load
        // would pass the end, or fewer than `run` values (57 bits) remain.
        let rest = &d[(bit / 8) as usize..];
        let mut pad = [0u8; 24];
        let k = rest.len().min(16);
        pad[..k].copy_from_slice(&rest[..k]);
        unpack_runs(&pad, bit % 8, w, run, tail);
    }

    /// Stores `f(value)` for every value in `out`, which must hold exactly
    /// `count` (else nothing is stored).
    pub fn map_all<T>(&self, out: &mut [T], f: impl FnMut(u32) -> T) {
        if out.len() != self.count {
            return;
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        self.map_blocks(out, f);
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        self.map_fused(out, f);
    }

    /// [`map_all`](Self::map_all) in wasm: blocks unpacked by the lanes,
    /// then looked up. Faster there than the lookup fused with the runs:
    /// flights-3m's Dict int16 columns 0.78 -> 0.51 ns a value in Node.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    fn map_blocks<T>(&self, out: &mut [T], mut f: impl FnMut(u32) -> T) {
        let mut at = out.iter_mut();
        self.for_each_block(|b| at.by_ref().zip(b).for_each(|(o, &v)| *o = f(v)));
    }

    /// [`map_all`](Self::map_all) natively: a lookup fused with the
    /// unpacking, with no buffer of values between. The same runs as
    /// [`unpack_from`](Self::unpack_from); kept apart from it so that its
    /// callers' code stays as it was (sharing one generic body slowed
    /// Tokenized Bits ids by a tenth natively).
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    fn map_fused<T>(&self, out: &mut [T], mut f: impl FnMut(u32) -> T) {
        let w = self.width as usize;
        if w == 0 {
            out.iter_mut().for_each(|o| *o = f(0));
            return;
        }
        let run = 57 / w;
        let span = (run * w) as u64;
        let fast = match self.data.len().checked_sub(8) {
            Some(last) => ((last as u64 * 8 + 7) / span + 1).min((out.len() / run) as u64) as usize,
            None => 0,
        };
        let (head, tail) = out.split_at_mut(fast * run);
        map_runs(self.data, 0, w, run, head, &mut f);
        let bit = fast as u64 * span;
        let rest = &self.data[(bit / 8) as usize..];
        let mut pad = [0u8; 24];
        let k = rest.len().min(16);
        pad[..k].copy_from_slice(&rest[..k]);
        map_runs(&pad, bit % 8, w, run, tail, &mut f);
    }

    /// The values as they lie when each is a byte (width 8): no unpacking
    /// needed (flights-3m's airport codes).
    pub fn bytes(&self) -> Option<&'a [u8]> {
        // `new` checked that the data is exactly `count` bytes.
        (self.width == 8).then_some(self.data)
    }

    /// Calls `f` with each block of up to `BLOCK` values in order, unpacked
    /// into a buffer small enough to stay in the L1 cache.
    #[inline]
    pub fn for_each_block(&self, mut f: impl FnMut(&[u32])) {
        let mut buf = [0u32; BLOCK];
        let mut first = 0;
        while first < self.count {
            let len = (self.count - first).min(BLOCK);
            self.unpack_from(first, &mut buf[..len]);
            f(&buf[..len]);
            first += len;
        }
    }

    /// The first value that is `limit` or more, if any.
    pub fn first_at_least(&self, limit: u32) -> Option<u32> {
        let mut found = None;
        self.for_each_block(|b| {
            if found.is_none() {
                found = b.iter().copied().find(|&v| v >= limit);
            }
        });
        found
    }
}

/// Unpacks `out.len()` values of `w` bits starting at bit `bit` of `d`, in
/// runs of `run` values per 8-byte load; `d` holds 8 bytes from the first
/// byte of every run (the callers' sizes ensure it; a load that did not fit
/// would give zeros, never a panic).
#[inline(never)]
fn unpack_runs(d: &[u8], bit: u64, w: usize, run: usize, out: &mut [u32]) {
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    by_width!(w, W => return runs_of::<u32, W>(d, bit, out, &mut |v| v));
    let mut bit = bit;
    for values in out.chunks_mut(run) {
        let at = (bit / 8) as usize;
        let mut window = match d.get(at..at + 8) {
            Some(b) => be_u64([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]) << (bit % 8),
            None => 0,
        };
        for v in values.iter_mut() {
            *v = (window >> (64 - w)) as u32;
            window <<= w;
        }
        bit += (run * w) as u64;
    }
}

/// [`unpack_runs`] storing `f` of each value. Not inlined: one copy per
/// entry width serves both calls (0.7 KB gzip less than two, no slower).
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(never)]
fn map_runs<T>(d: &[u8], bit: u64, w: usize, run: usize, out: &mut [T], f: &mut impl FnMut(u32) -> T) {
    by_width!(w, W => return runs_of::<T, W>(d, bit, out, f));
    let mut bit = bit;
    for values in out.chunks_mut(run) {
        let at = (bit / 8) as usize;
        let mut window = match d.get(at..at + 8) {
            Some(b) => be_u64([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]) << (bit % 8),
            None => 0,
        };
        for v in values.iter_mut() {
            *v = f((window >> (64 - w)) as u32);
            window <<= w;
        }
        bit += (run * w) as u64;
    }
}

/// The runs of [`unpack_runs`] and [`map_runs`] natively, with the width a
/// constant: each run's shifts are immediates and its loop unrolled (one
/// load, then `57 / W` shift-and-store steps). Natively, Dict int16 on
/// flights-3m 0.61-0.73 -> 0.40-0.43 ns a value, float32 0.58 -> 0.37.
/// The wasm32 build unpacks by SIMD128 lanes instead and keeps one body.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
fn runs_of<T, const W: usize>(d: &[u8], mut bit: u64, out: &mut [T], f: &mut impl FnMut(u32) -> T) {
    let run = 57 / W;
    let window_at = |bit: u64| {
        let at = (bit / 8) as usize;
        match d.get(at..at + 8) {
            Some(b) => be_u64([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]) << (bit % 8),
            None => 0,
        }
    };
    let mut runs = out.chunks_exact_mut(run);
    for values in &mut runs {
        let mut window = window_at(bit);
        for v in values.iter_mut() {
            *v = f((window >> (64 - W)) as u32);
            window <<= W;
        }
        bit += (run * W) as u64;
    }
    let mut window = window_at(bit);
    for v in runs.into_remainder() {
        *v = f((window >> (64 - W)) as u32);
        window <<= W;
    }
}

/// Unpacking eight values at a time with SIMD128, for widths up to 16: the
/// eight take exactly `w` bytes, so every group starts on a byte and its
/// values lie at the same places in it, and one 16-byte load holds them
/// all. A swizzle puts the (up to) three bytes each value touches into its
/// own 32-bit lane, most significant first; a multiply shifts each lane
/// left by its value's offset in its first byte, and one shift right by
/// `32 - w` leaves the value. No per-value shift amount (Chromium's code
/// for the runs reloaded the variable one for every value), no per-value
/// load or branch: unpacking 65,536 values in Node, 0.12 ns a value at
/// every width from 2 to 13, against 0.34-0.87 for the runs.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod lanes {
    use core::arch::wasm32::{i32x4_mul, i8x16_swizzle, u32x4, u32x4_shr, v128, v128_load, v128_store};

    /// The widest values the lanes unpack: three bytes hold a value of 16
    /// bits at any offset in its first byte, and eight of them 16 bytes.
    pub const MAX_WIDTH: usize = 16;

    /// Unpacks values `first..` into `out` in groups of eight, while a
    /// group's 16-byte load lies inside `data` (the packed values; `first +
    /// out.len()` of them, checked by the caller): the values unpacked, a
    /// multiple of 8 (none when `first` is not, or `w` is not 1..=16).
    pub fn unpack(data: &[u8], w: usize, first: usize, out: &mut [u32]) -> usize {
        if !(1..=MAX_WIDTH).contains(&w) || !first.is_multiple_of(8) {
            return 0;
        }
        let [pick_lo, pick_hi, scale_lo, scale_hi] = vectors(w);
        let shift = (32 - w) as u32;
        // first / 8 groups of w bytes before (no overflow: first <= the
        // count, so they lie inside `data`).
        let mut at = first / 8 * w;
        let mut done = 0;
        for group in out.chunks_exact_mut(8) {
            let Some(bytes) = data.get(at..at + 16) else { break };
            // SAFETY (the load and both stores): `bytes` is 16 bytes and
            // `group` 8 u32s; wasm loads and stores need no alignment.
            let v = unsafe { v128_load(bytes.as_ptr().cast::<v128>()) };
            let lo = u32x4_shr(i32x4_mul(i8x16_swizzle(v, pick_lo), scale_lo), shift);
            let hi = u32x4_shr(i32x4_mul(i8x16_swizzle(v, pick_hi), scale_hi), shift);
            unsafe {
                v128_store(group.as_mut_ptr().cast::<v128>(), lo);
                v128_store(group.as_mut_ptr().add(4).cast::<v128>(), hi);
            }
            at += w;
            done += 8;
        }
        done
    }

    /// The swizzles and multipliers for width `w`: lane k of the two halves
    /// is value k of a group, at bit k * w. Out of line on purpose: built
    /// inline, V8 (TurboFan) rebuilt the four vectors inside the loop on
    /// every group, which made the lanes slower than the runs; loaded
    /// from memory after the call they stay in registers.
    #[inline(never)]
    fn vectors(w: usize) -> [v128; 4] {
        let bit = |k: usize| (k * w) as u32;
        // The bytes from the value's first one on, the first in the top
        // byte (indices past 15 give zeros; those bytes are shifted out).
        let pick = |k: usize| (bit(k) / 8) * 0x0101_0101 + 0x0001_0203;
        let scale = |k: usize| 1u32 << (bit(k) % 8);
        [
            u32x4(pick(0), pick(1), pick(2), pick(3)),
            u32x4(pick(4), pick(5), pick(6), pick(7)),
            u32x4(scale(0), scale(1), scale(2), scale(3)),
            u32x4(scale(4), scale(5), scale(6), scale(7)),
        ]
    }
}

/// A big-endian u64. Wasm has no byte swap instruction, so there it is one
/// SIMD shuffle (3 instructions in V8) rather than the ~20 scalar ones the
/// compiler would emit.
#[inline(always)]
fn be_u64(b: [u8; 8]) -> u64 {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        use core::arch::wasm32::{i8x16_swizzle, u64x2_extract_lane, u64x2_splat, u8x16};
        let v = u64x2_splat(u64::from_le_bytes(b));
        let reversed = i8x16_swizzle(v, u8x16(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8));
        u64x2_extract_lane::<0>(reversed)
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    u64::from_be_bytes(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::testkit::{read_msb, Rng};
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// Every width 0 to 32, counts across runs, lane groups and the padded
    /// tail, ranges starting anywhere (on and off a group of eight): the
    /// same values as a bit-at-a-time reading, from `unpack_from`,
    /// `map_all` and `first_at_least`. Runs in wasm32 too (the SIMD lanes
    /// exist only there): `wasm-bindgen-test-runner`, see scripts/test.
    #[test]
    fn unpacks_as_a_plain_reading_does() {
        let mut rng = Rng(0x6a09_e667_f3bc_c908);
        for case in 0..3000 {
            let w = rng.below(33) as u32;
            let n = if rng.below(4) == 0 { rng.below(3000) } else { rng.below(100) };
            let data = rng.bytes(MsbBits::byte_len(n, w).unwrap());
            let want = read_msb(&data, n, w).unwrap();
            let bits = MsbBits::new(&data, n, w).unwrap();
            let first = if rng.below(2) == 0 { rng.below(n + 1) & !7 } else { rng.below(n + 1) };
            let len = rng.below(n - first + 1);
            let mut got = vec![u32::MAX; len];
            bits.unpack_from(first, &mut got);
            assert_eq!(got, want[first..first + len], "case {case}: {n} values of {w} bits, {first}..+{len}");
            let mut mapped = vec![0u64; n];
            bits.map_all(&mut mapped, |v| v as u64 + 1);
            assert!(mapped.iter().zip(&want).all(|(&m, &v)| m == v as u64 + 1), "case {case}: map_all");
            let limit = rng.below(1 << w.min(20)) as u32;
            assert_eq!(bits.first_at_least(limit), want.iter().copied().find(|&v| v >= limit), "case {case}");
        }
    }
}
