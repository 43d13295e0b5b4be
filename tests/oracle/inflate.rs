//! miniz_oxide as the reference for our inflater, in the three framings the
//! format uses (FORMAT.md section 4), with the block contract around it: one
//! complete stream, nothing after it, exactly the recorded raw length out.
//! Shared by tests/inflate.rs and the `inflate` fuzz target (`#[path]`).
//!
//! Raw DEFLATE and zlib are miniz's own (zlib: its header checks match RFC
//! 1950 as ours do: method 8, window at most 32 KiB, check bits, no preset
//! dictionary; the Adler-32 is checked here too, because miniz skips it when
//! built with cfg(fuzzing)). miniz has no gzip framing, so the member
//! header and trailer are checked here, written from RFC 1952 alone:
//! magic, method 8, reserved flag bits zero, the optional fields, the
//! header CRC-16 when flagged, the CRC-32 and the size mod 2^32.

#![allow(dead_code)]

use miniz_oxide::inflate::core::{decompress, inflate_flags, DecompressorOxide};
use miniz_oxide::inflate::TINFLStatus;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    Raw,
    Zlib,
    Gzip,
}

/// What our decoder must make of `block` in `framing` with raw length `n`.
pub fn expected(framing: Framing, block: &[u8], n: usize) -> Result<Vec<u8>, ()> {
    match framing {
        Framing::Raw => miniz(block, n, 0),
        Framing::Zlib => {
            let out = miniz(
                block,
                n,
                inflate_flags::TINFL_FLAG_PARSE_ZLIB_HEADER | inflate_flags::TINFL_FLAG_COMPUTE_ADLER32,
            )?;
            // miniz skips this check when built with cfg(fuzzing), as the
            // fuzz targets are, so it is made here too.
            let t = &block[block.len() - 4..];
            if u32::from_be_bytes([t[0], t[1], t[2], t[3]]) != adler32(&out) {
                return Err(());
            }
            Ok(out)
        }
        Framing::Gzip => {
            let body = gzip_header_len(block).ok_or(())?;
            if block.len() < body + 8 {
                return Err(());
            }
            let end = block.len() - 8;
            let out = miniz(&block[body..end], n, 0)?;
            let t = &block[end..];
            let crc = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
            let size = u32::from_le_bytes([t[4], t[5], t[6], t[7]]);
            if crc != crc32(&out) || size != n as u32 {
                return Err(());
            }
            Ok(out)
        }
    }
}

/// How many bytes miniz inflates from the DEFLATE stream of `block` (up to
/// `cap`), whatever the framing's checks say: a good guess at the raw length.
pub fn natural_len(framing: Framing, block: &[u8], cap: usize) -> Option<usize> {
    let (body, flags) = match framing {
        Framing::Raw => (block, 0),
        Framing::Zlib => (block, inflate_flags::TINFL_FLAG_PARSE_ZLIB_HEADER),
        Framing::Gzip => (block.get(gzip_header_len(block)?..)?, 0),
    };
    // Small first: most inputs inflate to little.
    for cap in [cap.min(1 << 16), cap] {
        let mut state = Box::<DecompressorOxide>::default();
        let mut out = vec![0u8; cap];
        let flags = flags | inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
        match decompress(&mut state, body, &mut out, 0, flags) {
            (TINFLStatus::Done, _, written) => return Some(written),
            (TINFLStatus::HasMoreOutput, _, _) => continue,
            _ => return None,
        }
    }
    None
}

/// miniz with our contract: one complete stream, all input consumed,
/// exactly `n` bytes out.
fn miniz(input: &[u8], n: usize, flags: u32) -> Result<Vec<u8>, ()> {
    let mut state = Box::<DecompressorOxide>::default();
    let mut out = vec![0u8; n];
    let flags = flags | inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
    let (status, consumed, written) = decompress(&mut state, input, &mut out, 0, flags);
    if status == TINFLStatus::Done && consumed == input.len() && written == n {
        Ok(out)
    } else {
        Err(())
    }
}

/// The length of a gzip member header (RFC 1952 section 2.3), or `None`.
pub fn gzip_header_len(b: &[u8]) -> Option<usize> {
    if b.len() < 10 || b[0] != 0x1f || b[1] != 0x8b || b[2] != 8 || b[3] & 0xe0 != 0 {
        return None;
    }
    let flg = b[3];
    let mut p = 10;
    if flg & 0x04 != 0 {
        let xlen = u16::from_le_bytes([*b.get(p)?, *b.get(p + 1)?]) as usize;
        p += 2 + xlen;
    }
    for bit in [0x08, 0x10] {
        if flg & bit != 0 {
            p += b.get(p..)?.iter().position(|&c| c == 0)? + 1;
        }
    }
    if flg & 0x02 != 0 {
        let stored = u16::from_le_bytes([*b.get(p)?, *b.get(p + 1)?]);
        if stored != crc32(b.get(..p)?) as u16 {
            return None;
        }
        p += 2;
    }
    (p <= b.len()).then_some(p)
}

/// Adler-32 (RFC 1950 section 8.2), one byte at a time.
pub fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in data {
        a = (a + byte as u32) % 65521;
        b = (b + a) % 65521;
    }
    b << 16 | a
}

/// CRC-32 (ISO 3309, as RFC 1952 gives it), one bit at a time.
pub fn crc32(data: &[u8]) -> u32 {
    let mut c = !0u32;
    for &byte in data {
        c ^= byte as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 { (c >> 1) ^ 0xedb8_8320 } else { c >> 1 };
        }
    }
    !c
}
