//! Test helpers for the decoders' differential tests: a seeded generator,
//! an MSB-first bit writer and reader that work one bit at a time (the
//! obviously-correct reading the fast paths are checked against), damage
//! to apply to streams, and decoded values flattened for comparison.

use crate::column::Values;

/// xorshift64: every run tries the same cases.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform-ish in `0..n` (0 when n is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// `values` packed at `width` bits each, most significant bit first, zero
/// padded to a byte: one bit at a time.
pub fn pack_msb(values: &[u32], width: u32) -> Vec<u8> {
    let mut out = vec![0u8; (values.len() * width as usize).div_ceil(8)];
    let mut bit = 0;
    for &v in values {
        for j in (0..width).rev() {
            if v >> j & 1 == 1 {
                out[bit / 8] |= 0x80 >> (bit % 8);
            }
            bit += 1;
        }
    }
    out
}

/// `count` values of `width` bits, MSB first, one bit at a time; `None`
/// unless `data` is exactly the packed size.
pub fn read_msb(data: &[u8], count: usize, width: u32) -> Option<Vec<u32>> {
    if width > 32 || data.len() != (count * width as usize).div_ceil(8) {
        return None;
    }
    let mut bit = 0;
    Some(
        (0..count)
            .map(|_| {
                let mut v = 0u32;
                for _ in 0..width {
                    v = v << 1 | (data[bit / 8] >> (7 - bit % 8) & 1) as u32;
                    bit += 1;
                }
                v
            })
            .collect(),
    )
}

/// Damages a stream in one of a few ways (or not at all, about a third of
/// the time): a random byte changed, a byte set to 0 or 0xFF, cut short, or
/// one byte longer.
pub fn damage(rng: &mut Rng, mut s: Vec<u8>) -> Vec<u8> {
    match rng.below(9) {
        0 | 1 if !s.is_empty() => {
            let at = rng.below(s.len());
            s[at] = rng.next() as u8;
        }
        2 if !s.is_empty() => {
            let at = rng.below(s.len());
            s[at] = if rng.below(2) == 0 { 0 } else { 0xFF };
        }
        3 => {
            let keep = rng.below(s.len() + 1);
            s.truncate(keep);
        }
        4 => s.push(rng.next() as u8),
        5 if !s.is_empty() => {
            // A length or count field near the front.
            let at = rng.below(s.len().min(24));
            s[at] = s[at].wrapping_add(1 + rng.below(3) as u8);
        }
        _ => {}
    }
    s
}

/// Decoded values as one byte string per value: fixed-width values as their
/// little-endian bytes, strings and bytes as themselves.
pub fn flatten(v: &Values) -> Vec<Vec<u8>> {
    match v {
        Values::Bytes { offsets, data } => {
            assert_eq!(offsets.first().copied().unwrap_or(0), 0, "offsets start at 0");
            assert_eq!(*offsets.last().unwrap_or(&0) as usize, data.len(), "offsets end at the data's end");
            offsets.windows(2).map(|w| data[w[0] as usize..w[1] as usize].to_vec()).collect()
        }
        other => {
            let w = match other {
                Values::Bool(_) | Values::Int8(_) | Values::Uint8(_) => 1,
                Values::Int16(_) | Values::Uint16(_) => 2,
                Values::Int32(_) | Values::Uint32(_) | Values::Float32(_) => 4,
                _ => 8,
            };
            let mut copy = other.clone();
            let bytes = copy.fixed_bytes_mut().map(|b| b.to_vec()).unwrap_or_default();
            let mut out: Vec<Vec<u8>> = bytes.chunks_exact(w).map(<[u8]>::to_vec).collect();
            if cfg!(target_endian = "big") {
                out.iter_mut().for_each(|v| v.reverse());
            }
            out
        }
    }
}

/// Panics naming the first value where `got` and `want` differ (the whole
/// vectors are too long to print).
pub fn assert_same(got: &[Vec<u8>], want: &[Vec<u8>], what: &str) {
    if let Some(i) = (0..got.len().min(want.len())).find(|&i| got[i] != want[i]) {
        panic!("{what}: value {i} of {} is {:?}, expected {:?}", want.len(), got[i], want[i]);
    }
    assert_eq!(got.len(), want.len(), "{what}: value count");
}

/// A differential test's tally: how many cases decoded and how many were
/// refused, each in agreement with the reference.
#[derive(Default)]
pub struct Verdicts {
    pub decoded: usize,
    pub refused: usize,
}

impl Verdicts {
    /// Panics unless the decoder agrees with the reference on one case:
    /// the same values, or both refuse (the decoder with `CorruptChunk`).
    pub fn check(&mut self, want: Option<Vec<Vec<u8>>>, got: crate::error::Result<Values>, what: &str) {
        match (want, got) {
            (Some(want), Ok(got)) => {
                assert_same(&flatten(&got), &want, what);
                self.decoded += 1;
            }
            (None, Err(e)) => {
                assert_eq!(e.kind, crate::error::ErrorKind::CorruptChunk, "{what}: {e}");
                self.refused += 1;
            }
            (want, got) => panic!(
                "{what}: reference {}, decoder {:?}",
                if want.is_some() { "decodes" } else { "refuses" },
                got.map(|v| v.len())
            ),
        }
    }
}
