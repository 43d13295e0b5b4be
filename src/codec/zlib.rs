//! Zlib (RFC 1950): a two-byte header, raw DEFLATE, a big-endian Adler-32
//! of the decompressed bytes.

use super::flate::Inflater;
use crate::error::{corrupt_chunk, Result};

pub(super) fn decompress(inflater: &mut Inflater, block: &[u8], out: &mut [u8]) -> Result<()> {
    if block.len() < 6 {
        return Err(corrupt_chunk(format!("zlib block of {} bytes is shorter than header and checksum", block.len())));
    }
    let (cmf, flg) = (block[0], block[1]);
    if cmf & 0x0f != 8 || cmf >> 4 > 7 {
        return Err(corrupt_chunk(format!(
            "zlib header {:#04x}: not DEFLATE with a window of at most 32 KiB",
            u32::from(cmf)
        )));
    }
    if (u16::from(cmf) << 8 | u16::from(flg)) % 31 != 0 {
        return Err(corrupt_chunk("zlib header check bits are wrong"));
    }
    if flg & 0x20 != 0 {
        return Err(corrupt_chunk("zlib stream needs a preset dictionary, which the format never uses"));
    }
    let end = block.len() - 4;
    inflater.raw_exact(&block[2..end], out)?;
    let want = u32::from_be_bytes([block[end], block[end + 1], block[end + 2], block[end + 3]]);
    let got = adler2::adler32_slice(out);
    if want != got {
        return Err(corrupt_chunk(format!("zlib Adler-32 mismatch: stored {want:08x}, computed {got:08x}")));
    }
    Ok(())
}
