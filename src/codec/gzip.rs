//! Gzip (RFC 1952): one complete member per block. The header's optional
//! fields are parsed and skipped, its CRC-16 checked when present, and the
//! trailer's CRC-32 and size must match the decompressed bytes.

use super::flate::Inflater;
use crate::bytes::Reader;
use crate::error::{corrupt_chunk, ErrorKind, Result};

const FTEXT: u8 = 1;
const FHCRC: u8 = 2;
const FEXTRA: u8 = 4;
const FNAME: u8 = 8;
const FCOMMENT: u8 = 16;

pub(super) fn decompress(inflater: &mut Inflater, block: &[u8], out: &mut [u8]) -> Result<()> {
    let body = header_len(block)?;
    if block.len() < body + 8 {
        return Err(corrupt_chunk("gzip member ends before its 8-byte trailer"));
    }
    let end = block.len() - 8;
    inflater.raw_exact(&block[body..end], out)?;
    let t = &block[end..];
    let want_crc = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
    let want_size = u32::from_le_bytes([t[4], t[5], t[6], t[7]]);
    if want_size != out.len() as u32 {
        return Err(corrupt_chunk(format!(
            "gzip trailer size {want_size} differs from the {} bytes decompressed",
            out.len()
        )));
    }
    let got = crc32(out);
    if got != want_crc {
        return Err(corrupt_chunk(format!("gzip CRC-32 mismatch: stored {want_crc:08x}, computed {got:08x}")));
    }
    Ok(())
}

/// Length of the member header, after checking it.
fn header_len(block: &[u8]) -> Result<usize> {
    let mut r = Reader::new(block, ErrorKind::CorruptChunk, "gzip header");
    let fixed = r.take(10, "fixed header")?;
    if fixed[0] != 0x1f || fixed[1] != 0x8b {
        return Err(corrupt_chunk(format!(
            "gzip magic is {:04x}, not 1f8b",
            u32::from(fixed[0]) << 8 | u32::from(fixed[1])
        )));
    }
    if fixed[2] != 8 {
        return Err(corrupt_chunk(format!("gzip compression method {} is not DEFLATE (8)", fixed[2])));
    }
    let flags = fixed[3];
    if flags & !(FTEXT | FHCRC | FEXTRA | FNAME | FCOMMENT) != 0 {
        return Err(corrupt_chunk(format!("gzip header sets reserved flag bits ({:#04x})", u32::from(flags))));
    }
    if flags & FEXTRA != 0 {
        let n = r.u16("FEXTRA length")? as usize;
        r.take(n, "FEXTRA field")?;
    }
    for (flag, what) in [(FNAME, "file name"), (FCOMMENT, "comment")] {
        if flags & flag != 0 {
            let rest = r.rest();
            let nul =
                rest.iter().position(|&b| b == 0).ok_or_else(|| r.error(format!("gzip {what} is not terminated")))?;
            r.take(nul + 1, what)?;
        }
    }
    if flags & FHCRC != 0 {
        let covered = r.pos();
        // As u32s: the hex below then shares one formatter with the CRC-32's.
        let want = u32::from(r.u16("header CRC-16")?);
        let got = crc32(&block[..covered]) & 0xffff;
        if want != got {
            return Err(corrupt_chunk(format!("gzip header CRC-16 mismatch: stored {want:04x}, computed {got:04x}")));
        }
    }
    Ok(r.pos())
}

/// CRC-32 (IEEE, reflected, polynomial 0xEDB88320), slicing by eight.
pub(crate) fn crc32(data: &[u8]) -> u32 {
    let t = crc_tables();
    let mut crc = !0u32;
    let mut chunks = data.chunks_exact(8);
    for c in &mut chunks {
        let lo = crc ^ u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        crc = t[7][(lo & 0xff) as usize]
            ^ t[6][((lo >> 8) & 0xff) as usize]
            ^ t[5][((lo >> 16) & 0xff) as usize]
            ^ t[4][(lo >> 24) as usize]
            ^ t[3][c[4] as usize]
            ^ t[2][c[5] as usize]
            ^ t[1][c[6] as usize]
            ^ t[0][c[7] as usize];
    }
    for &b in chunks.remainder() {
        crc = t[0][((crc ^ b as u32) & 0xff) as usize] ^ (crc >> 8);
    }
    !crc
}

/// Built on first use rather than stored: 8 KB of table data would ride in
/// every download for a codec few files use.
fn crc_tables() -> &'static [[u32; 256]; 8] {
    static TABLES: std::sync::OnceLock<Box<[[u32; 256]; 8]>> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| Box::new(build_crc_tables()))
}

fn build_crc_tables() -> [[u32; 256]; 8] {
    let mut t = [[0u32; 256]; 8];
    // Opaque to the optimizer, so it does not fold the first table into a
    // 1 KB constant in the .wasm (it would, the loop having no inputs); it
    // is built here, once, in microseconds.
    let poly = core::hint::black_box(0xEDB8_8320u32);
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 { poly ^ (c >> 1) } else { c >> 1 };
            k += 1;
        }
        t[0][i] = c;
        i += 1;
    }
    let mut s = 1;
    while s < 8 {
        let mut i = 0;
        while i < 256 {
            let prev = t[s - 1][i];
            t[s][i] = (prev >> 8) ^ t[0][(prev & 0xff) as usize];
            i += 1;
        }
        s += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::{crc32, header_len};

    fn message(header: &[u8]) -> String {
        header_len(header).unwrap_err().to_string()
    }

    #[test]
    fn header_errors_show_the_bytes_in_hex() {
        // The fixed header: magic 1f 8b, method 8, flags, mtime, xfl, os.
        let ok = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3];
        assert_eq!(header_len(&ok).unwrap(), 10);
        let mut bad = ok;
        bad[1] = 0x0c;
        assert!(message(&bad).contains("gzip magic is 1f0c, not 1f8b"), "{}", message(&bad));
        let mut bad = ok;
        bad[3] = 0x20;
        assert!(message(&bad).contains("reserved flag bits (0x20)"), "{}", message(&bad));
        // FHCRC: the low 16 bits of the CRC-32 of the 10 bytes before it.
        let mut h = ok.to_vec();
        h[3] = 2;
        let crc = crc32(&h) & 0xffff;
        assert_eq!(header_len(&[&h[..], &(crc as u16).to_le_bytes()].concat()).unwrap(), 12);
        h.extend_from_slice(&[0x0a, 0x00]);
        let want = format!("stored 000a, computed {crc:04x}");
        assert!(message(&h).contains(&want), "{} lacks {want}", message(&h));
    }

    #[test]
    fn crc32_matches_the_standard_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
        assert_eq!(crc32(b"The quick brown fox jumps over the lazy dog"), 0x414F_A339);
    }
}
