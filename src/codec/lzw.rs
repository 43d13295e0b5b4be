//! LZW as Go's compress/lzw writes it (FORMAT.md section 4): codes packed
//! least-significant bit first, 8-bit literals, clear code 256, end code
//! 257, widths from 9 to 12 bits with no early change (the GIF flavour),
//! and a full table frozen until the writer's next clear code.
//!
//! Written here rather than taken from a crate: a general LZW crate
//! compiles all its bit orders and modes into the wasm, and this one
//! flavour is a page of code that decodes straight into the output slice.
//!
//! Every string a code stands for has already been written once, in one
//! piece: a new entry is the previous code's string plus the first byte of
//! the next, and the next string is written right after it. So the table
//! holds, per code, where its string starts and how long it is, and
//! decoding a code is a forward copy from earlier output, 16 bytes at a
//! time (one move for most strings). Output goes to a buffer that starts
//! with the 256 literal bytes, so literals are strings like any other (no
//! branch on which kind a code is), and ends with slack for the 16-byte
//! moves; the block is then copied out of it once.

use super::copy_chunk;
use crate::error::{corrupt_chunk, try_room, Error, ErrorKind, Result};

const CLEAR: usize = 256;
const END: usize = 257;
const MAX_WIDTH: u32 = 12;
const TABLE: usize = 1 << MAX_WIDTH;
/// Strings are copied in moves of this many bytes; the buffer has this
/// much slack past the output for the last move's excess.
const MOVE: usize = 16;
/// Where the output starts in the buffer: after the literal bytes.
const BASE: usize = 256;

/// The code table and output buffer, kept between blocks so they are
/// allocated once per read (and only when a block is LZW).
#[derive(Default)]
pub(super) struct LzwState {
    /// Per code: where its string starts in the buffer (low 32 bits) and
    /// its length (high 32), so a lookup is one load. Slot `TABLE` takes
    /// the writes made while the table is full, which no code reads.
    table: Vec<u64>,
    buf: Vec<u8>,
}

impl LzwState {
    /// Decompresses one block into exactly `out.len()` bytes; the input must
    /// end with the end code plus padding bits to a byte boundary.
    pub fn decompress(&mut self, input: &[u8], out: &mut [u8]) -> Result<()> {
        if self.table.is_empty() {
            self.table = (0..=TABLE as u64).map(|c| c | 1 << 32).collect();
        }
        let Some(table) = self.table.first_chunk_mut::<{ TABLE + 1 }>() else {
            return Err(broken());
        };
        // Buffer positions are u32 in the table.
        let size = BASE + out.len() + MOVE;
        if size > u32::MAX as usize {
            return Err(Error::new(ErrorKind::TooLarge, format!("an LZW block of {} bytes", out.len())));
        }
        let buf = &mut self.buf;
        if buf.len() < size {
            try_room(buf, size - buf.len(), "LZW")?;
            // Literal c is the one byte at c (no later write reaches below BASE).
            buf.extend((buf.len()..BASE).map(|i| i as u8));
            buf.resize(size, 0);
        }
        let end = BASE + out.len();
        let (o, consumed) = decode(table, &mut buf[..size], input)?;
        if o != end {
            return Err(corrupt_chunk(format!("LZW data gives {} bytes, the block records {}", o - BASE, out.len())));
        }
        if consumed != input.len() {
            return Err(corrupt_chunk(format!("LZW end code after {consumed} of the block's {} bytes", input.len())));
        }
        out.copy_from_slice(&buf[BASE..end]);
        Ok(())
    }
}

/// The code loop: decodes `input` into `buf` (the literal bytes, then the
/// output, then `MOVE` bytes of slack) and returns where the output ends
/// and how many input bytes the codes took. Kept out of line, by LLVM and
/// by wasm-opt (Cargo.toml): inlined by LLVM, with the clear code's reset
/// values hidden from it to save size, the loop measured 10% slower in
/// Chromium; inlined by wasm-opt into `decompress_into`, 8-10% slower
/// (movielens' timestamps 1.36-1.42 ms a read against 1.48-1.61), and 80 B
/// larger gzipped.
#[inline(never)]
fn decode(t: &mut [u64; TABLE + 1], buf: &mut [u8], input: &[u8]) -> Result<(usize, usize)> {
    let Some(end) = buf.len().checked_sub(MOVE).filter(|&e| e >= BASE) else {
        return Err(broken());
    };
    // The control codes' entries are longer than any output, so that the
    // length check below, needed anyway, takes them out of the common path.
    t[CLEAR] = CONTROL;
    t[END] = CONTROL;
    let (mut bits, mut nbits, mut pos) = (0u64, 0u32, 0usize);
    // The code width is the number of ones in `mask`; `hi` is the last code
    // defined (it stays at TABLE once the table is full, so codes up to
    // 4095 are all defined and the writes go to the spare slot).
    let (mut mask, mut hi) = (511usize, END);
    let mut o = BASE;
    loop {
        if nbits < MAX_WIDTH {
            // Four bytes at a time while they last, then what is left.
            if let Some(b) = input.get(pos..pos + 4) {
                bits |= (u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64) << nbits;
                nbits += 32;
                pos += 4;
            } else {
                // (No memcpy here: a call in the loop makes V8 keep the
                // loop's values on the stack.)
                for &b in input.get(pos..).unwrap_or_default() {
                    bits |= (b as u64) << nbits;
                    nbits += 8;
                    pos += 1;
                }
                if nbits < mask.trailing_ones() {
                    return Err(no_end_code(o - BASE));
                }
            }
        }
        let width = mask.trailing_ones();
        let code = bits as usize & mask;
        bits >>= width;
        nbits -= width;
        // A code is a literal, a known string, or (the KwKwK case) the last
        // code defined, whose final byte, at `o`, is the first byte of its
        // own string and not yet written: it is written here, before the
        // moves read it.
        // (`code` is below 4096: the mask makes the index check moot.)
        let e = t[code & (TABLE - 1)];
        let (from, n) = (e as u32 as usize, (e >> 32) as usize);
        if code >= hi {
            if code > hi {
                return Err(bad_code(code, hi, pos));
            }
            // (Not so for the end code right after a clear code; the checks
            // below judge the entry. The test on the entry also measured
            // faster in Chromium than none.)
            if from < o && n <= end - o {
                if let (Some(&b), true) = (buf.get(from), o < buf.len()) {
                    buf[o] = b;
                }
            }
        }
        if n > end - o {
            if code == END {
                break;
            }
            if code == CLEAR {
                (mask, hi) = (511, END);
                continue;
            }
            return Err(too_long(end - BASE));
        }
        // Every entry's string lies before the output position (an entry
        // is written only for a string already placed); checked, as the
        // moves rely on it.
        if from > o {
            return Err(broken());
        }
        // Forward 16-byte moves, one for most strings. Bytes past the
        // string come from earlier output or from bytes not yet written,
        // and land where later codes write (or in the slack). A move that
        // reads bytes an earlier move of the same string wrote reads them
        // already written, as the string's own bytes lie before `o` (or
        // at `o`, written above).
        // SAFETY (both moves): the checks above give from <= o and
        // o + n <= end, and buf.len() = end + MOVE. A move at offset k (0,
        // or below n) reads from + k .. from + k + MOVE and writes
        // o + k .. o + k + MOVE, both ending at or before
        // o + n + MOVE - 1 <= buf.len() - 1 when k < n, and at or before
        // o + MOVE <= buf.len() when k = 0; no sum wraps, as each is at
        // most buf.len().
        debug_assert!(from <= o && o + n + MOVE <= buf.len());
        unsafe { copy_chunk::<MOVE>(buf, from, o) };
        if n > MOVE {
            let mut k = MOVE;
            while k < n {
                unsafe { copy_chunk::<MOVE>(buf, from + k, o + k) };
                k += MOVE;
            }
        }
        // The next entry: this string plus the first byte of the next one,
        // which lands right after it. Defined now rather than when the next
        // code is read, so that the KwKwK case is an ordinary lookup.
        hi += 1;
        if hi > mask {
            if mask == TABLE - 1 {
                hi = TABLE;
            } else {
                mask = mask << 1 | 1;
            }
        }
        t[hi] = o as u64 | (n as u64 + 1) << 32;
        o += n;
    }
    // Whole bytes still in the bit buffer were read ahead, not consumed.
    Ok((o, pos - (nbits / 8) as usize))
}

/// The control codes' table entry: at 0, and too long for any block.
const CONTROL: u64 = (u32::MAX as u64) << 32;

// The loop's errors, out of line: built inline, their arguments were
// stored to memory on every code (4-5% in wasm).
#[cold]
#[inline(never)]
fn bad_code(code: usize, hi: usize, pos: usize) -> Error {
    corrupt_chunk(format!("invalid LZW code {code} (next free code {hi}) near input byte {pos}"))
}

#[cold]
#[inline(never)]
fn too_long(len: usize) -> Error {
    corrupt_chunk(format!("LZW data decompresses to more than the recorded {len} bytes"))
}

#[cold]
#[inline(never)]
fn no_end_code(written: usize) -> Error {
    corrupt_chunk(format!("LZW data ends without an end code after {written} bytes"))
}

/// What no input can cause: a table or buffer of the wrong size, or a table
/// entry past the output. Checked all the same, as the moves rely on them.
#[cold]
#[inline(never)]
fn broken() -> Error {
    corrupt_chunk("LZW decoder state out of bounds")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Packs codes LSB first at the given widths.
    fn pack(codes: &[(usize, u32)]) -> Vec<u8> {
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

    /// LZW the plain way: a table of byte strings. `None` for anything the
    /// format does not allow (a code past the next free one, no end code,
    /// output longer or shorter than `len`, whole bytes after the end code).
    fn reference(input: &[u8], len: usize) -> Option<Vec<u8>> {
        plain(input).filter(|o| o.len() == len)
    }

    fn plain(input: &[u8]) -> Option<Vec<u8>> {
        let mut table: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).chain([vec![], vec![]]).collect();
        let (mut width, mut bit) = (9, 0usize);
        let mut last: Option<Vec<u8>> = None;
        let mut out = Vec::new();
        loop {
            let mut code = 0usize;
            for j in 0..width {
                let b = *input.get(bit / 8)? >> (bit % 8) & 1;
                code |= (b as usize) << j;
                bit += 1;
            }
            if code == 256 {
                table.truncate(258);
                (width, last) = (9, None);
                continue;
            }
            if code == 257 {
                break;
            }
            let s = match (table.get(code), &last) {
                (Some(s), _) if code != 256 && code != 257 => s.clone(),
                (None, Some(l)) if code == table.len() && table.len() < 4096 => [&l[..], &l[..1]].concat(),
                _ => return None,
            };
            if let Some(l) = &last {
                if table.len() < 4096 {
                    table.push([&l[..], &s[..1]].concat());
                }
            }
            out.extend_from_slice(&s);
            last = Some(s);
            if table.len() >= 1 << width && width < 12 {
                width += 1;
            }
        }
        (bit.div_ceil(8) == input.len()).then_some(out)
    }

    /// A random stream the way a writer could make one: literals, known
    /// codes, the code being defined (KwKwK), clear codes now and then or
    /// never (so the table fills and freezes), then the end code.
    fn random_stream(x: &mut u64, codes: usize) -> Vec<u8> {
        let mut next = |m: usize| {
            *x ^= *x << 13;
            *x ^= *x >> 7;
            *x ^= *x << 17;
            (*x % m.max(1) as u64) as usize
        };
        let clears = next(3) > 0;
        let (mut out, mut width, mut hi, mut have_last) = (vec![(CLEAR, 9)], 9u32, 258usize, false);
        for _ in 0..codes {
            if clears && next(2000) == 0 {
                out.push((CLEAR, width));
                (width, hi, have_last) = (9, 258, false);
                continue;
            }
            let code = match next(4) {
                0 | 1 if have_last && hi > 258 => 258 + next(hi - 258),
                2 if have_last && hi < TABLE => hi,
                _ => next(256),
            };
            out.push((code, width));
            if have_last && hi < TABLE {
                hi += 1;
            }
            have_last = true;
            if hi >= 1 << width && width < 12 {
                width += 1;
            }
        }
        out.push((END, width));
        pack(&out)
    }

    /// Random code streams (long enough to fill the table), weezl-encoded
    /// data, and both damaged: ours gives exactly the reference's bytes, or
    /// an error where the reference has none.
    #[test]
    fn decodes_as_a_plain_table_does() {
        let mut x = 0x510e_527f_ade6_82d1u64;
        let mut st = LzwState::default();
        let (mut ok, mut errors) = (0, 0);
        for case in 0..1500 {
            let codes = [3, 40, 400, 5000, 9000][case % 5];
            let mut s = if case % 3 == 0 {
                // What a real encoder writes for text with repeats.
                let data: Vec<u8> = (0..codes * 2).map(|i| b"abcab aab"[(i * 7 + i / 13) % 9]).collect();
                weezl::encode::Encoder::new(weezl::BitOrder::Lsb, 8).encode(&data).unwrap()
            } else {
                random_stream(&mut x, codes)
            };
            let len = plain(&s).map_or(0, |v| v.len());
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            match x % 6 {
                0 if !s.is_empty() => {
                    let at = (x >> 8) as usize % s.len();
                    s[at] ^= 1 << ((x >> 40) % 8);
                }
                1 => {
                    let keep = (x >> 8) as usize % (s.len() + 1);
                    s.truncate(keep);
                }
                2 => s.push((x >> 8) as u8),
                _ => {}
            }
            let len = if x.is_multiple_of(11) { len + 1 } else { len };
            let mut out = vec![0u8; len];
            match (reference(&s, len), st.decompress(&s, &mut out)) {
                (Some(want), Ok(())) => {
                    assert!(out == want, "case {case}: output differs");
                    ok += 1;
                }
                (None, Err(_)) => errors += 1,
                (want, got) => panic!("case {case}: reference {:?}, ours {got:?}", want.map(|w| w.len())),
            }
        }
        assert!(ok > 500 && errors > 400, "both outcomes are exercised ({ok} decoded, {errors} refused)");
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
