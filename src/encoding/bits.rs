//! Most-significant-bit-first bit unpacking, shared by RLEBitpack, Dict
//! indices and Tokenized Bits ids.

use crate::error::{corrupt_chunk, Result};

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

    /// Calls `f` with each value in order.
    #[inline]
    pub fn for_each(&self, mut f: impl FnMut(u32)) {
        let w = self.width;
        if w == 0 {
            for _ in 0..self.count {
                f(0);
            }
            return;
        }
        let mask = if w == 32 { u32::MAX as u64 } else { (1u64 << w) - 1 };
        let d = self.data;
        let mut bit = 0u64;
        for _ in 0..self.count {
            let byte = (bit / 8) as usize;
            // An 8-byte big-endian window always holds the value: at most
            // 7 leading bits plus 32 value bits.
            let window = if byte + 8 <= d.len() {
                u64::from_be_bytes([
                    d[byte],
                    d[byte + 1],
                    d[byte + 2],
                    d[byte + 3],
                    d[byte + 4],
                    d[byte + 5],
                    d[byte + 6],
                    d[byte + 7],
                ])
            } else {
                let mut tmp = [0u8; 8];
                let tail = &d[byte..];
                tmp[..tail.len()].copy_from_slice(tail);
                u64::from_be_bytes(tmp)
            };
            let shift = 64 - (bit % 8) as u32 - w;
            f(((window >> shift) & mask) as u32);
            bit += w as u64;
        }
    }
}
