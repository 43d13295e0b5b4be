//! LZW as Go's compress/lzw writes it (FORMAT.md section 4): codes packed
//! least-significant bit first, 8-bit literals, clear code 256, end code
//! 257, widths from 9 to 12 bits with no early change (the GIF flavour),
//! and a full table frozen until the writer's next clear code.
//!
//! Written here rather than taken from a crate: a general LZW crate
//! compiles all its bit orders and modes into the wasm, and this one
//! flavour is a page of code that decodes straight into the output slice.

use crate::error::{corrupt_chunk, Result};

const CLEAR: u16 = 256;
const END: u16 = 257;
const NONE: u16 = u16::MAX;
const MAX_WIDTH: u32 = 12;
const TABLE: usize = 1 << MAX_WIDTH;

/// The code table, kept between blocks so it is allocated once per read.
pub(super) struct LzwState {
    /// For code c: the code of its string minus the last byte.
    prefix: Box<[u16; TABLE]>,
    /// The last byte of c's string, its first byte, and its length.
    last: Box<[u8; TABLE]>,
    first: Box<[u8; TABLE]>,
    len: Box<[u16; TABLE]>,
}

impl Default for LzwState {
    fn default() -> Self {
        let mut s = LzwState {
            prefix: Box::new([NONE; TABLE]),
            last: Box::new([0; TABLE]),
            first: Box::new([0; TABLE]),
            len: Box::new([0; TABLE]),
        };
        for b in 0..256 {
            s.last[b] = b as u8;
            s.first[b] = b as u8;
            s.len[b] = 1;
        }
        s
    }
}

impl LzwState {
    /// Decompresses one block into exactly `out.len()` bytes; the input must
    /// end with the end code plus padding bits to a byte boundary.
    pub fn decompress(&mut self, input: &[u8], out: &mut [u8]) -> Result<()> {
        let (mut bits, mut nbits, mut pos) = (0u32, 0u32, 0usize);
        let (mut width, mut hi, mut last) = (9u32, END, NONE);
        let mut o = 0usize;
        loop {
            while nbits < width {
                let Some(&b) = input.get(pos) else {
                    return Err(corrupt_chunk(format!("LZW data ends without an end code after {o} bytes")));
                };
                bits |= (b as u32) << nbits;
                nbits += 8;
                pos += 1;
            }
            let code = (bits & ((1 << width) - 1)) as u16;
            bits >>= width;
            nbits -= width;

            if code == CLEAR {
                (width, hi, last) = (9, END, NONE);
                continue;
            }
            if code == END {
                break;
            }
            // A code is a literal, a known string, or (the KwKwK case) the
            // entry about to be defined: the last string plus its own first byte.
            if code > hi {
                return Err(corrupt_chunk(format!(
                    "invalid LZW code {code} (next free code {hi}) near input byte {pos}"
                )));
            }
            // With a full table (last = NONE) entry `hi` is already defined.
            let kwkwk = code == hi && last != NONE;
            let (n, head) = if kwkwk {
                (self.len[last as usize] as usize + 1, self.first[last as usize])
            } else {
                (self.len[code as usize] as usize, self.first[code as usize])
            };
            if n > out.len() - o {
                return Err(corrupt_chunk(format!(
                    "LZW data decompresses to more than the recorded {} bytes",
                    out.len()
                )));
            }
            // Write the string back to front by walking its prefix chain.
            let dst = &mut out[o..o + n];
            let mut c = code;
            let mut i = n;
            if kwkwk {
                i -= 1;
                dst[i] = head;
                c = last;
            }
            while i > 0 {
                i -= 1;
                dst[i] = self.last[c as usize];
                c = self.prefix[c as usize];
                if c == NONE {
                    break;
                }
            }
            o += n;
            if last != NONE && hi < TABLE as u16 {
                let h = hi as usize;
                self.prefix[h] = last;
                self.last[h] = head;
                self.first[h] = self.first[last as usize];
                self.len[h] = self.len[last as usize] + 1;
            }
            last = code;
            hi += 1;
            if hi >= 1 << width {
                if width == MAX_WIDTH {
                    // Table full: keep decoding with it until a clear code.
                    last = NONE;
                    hi -= 1;
                } else {
                    width += 1;
                }
            }
        }
        if o != out.len() {
            return Err(corrupt_chunk(format!("LZW data gives {o} bytes, the block records {}", out.len())));
        }
        if pos != input.len() {
            return Err(corrupt_chunk(format!("LZW end code after {pos} of the block's {} bytes", input.len())));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Packs codes LSB first at the widths a Go writer would use.
    fn pack(codes: &[(u16, u32)]) -> Vec<u8> {
        let (mut out, mut acc, mut n) = (Vec::new(), 0u64, 0u32);
        for &(c, w) in codes {
            acc |= (c as u64) << n;
            n += w;
            while n >= 8 {
                out.push(acc as u8);
                acc >>= 8;
                n -= 8;
            }
        }
        if n > 0 {
            out.push(acc as u8);
        }
        out
    }

    #[test]
    fn decodes_literals_strings_and_the_kwkwk_case() {
        // "aaaa": a, then code 258 ("aa", defined as it is used), then a.
        let data = pack(&[(CLEAR, 9), (97, 9), (258, 9), (97, 9), (END, 9)]);
        let mut out = [0u8; 4];
        LzwState::default().decompress(&data, &mut out).unwrap();
        assert_eq!(&out, b"aaaa");
        // "abab": a, b, then 258 = "ab".
        let data = pack(&[(CLEAR, 9), (97, 9), (98, 9), (258, 9), (END, 9)]);
        let mut out = [0u8; 4];
        LzwState::default().decompress(&data, &mut out).unwrap();
        assert_eq!(&out, b"abab");
    }

    #[test]
    fn refuses_bad_streams() {
        let mut out = [0u8; 2];
        let st = &mut LzwState::default();
        // A code beyond the next free one.
        assert!(st.decompress(&pack(&[(CLEAR, 9), (97, 9), (300, 9), (END, 9)]), &mut out).is_err());
        // No end code.
        assert!(st.decompress(&pack(&[(CLEAR, 9), (97, 9), (98, 9)]), &mut out).is_err());
        // More output than recorded.
        assert!(st.decompress(&pack(&[(CLEAR, 9), (97, 9), (98, 9), (99, 9), (END, 9)]), &mut out).is_err());
        // A whole byte after the end code.
        let mut data = pack(&[(CLEAR, 9), (97, 9), (98, 9), (END, 9)]);
        data.push(0);
        assert!(st.decompress(&data, &mut out).is_err());
    }
}
