//! The fixed parts at both ends of a file (FORMAT.md section 1): leading
//! magic, version, the v2 tokenizer digest table, and the tail (footer length
//! and trailing magic). Opening checks run here, in the order the format
//! fixes, so the same damaged file always gives the same error kind.

use core::ops::Range;

use crate::error::{corrupt_footer, Error, ErrorKind, Result};
use crate::tokenizer::Digest;

pub const MAGIC: &[u8; 4] = b"ABCD";
/// Footer length (uint32) plus trailing magic.
pub const TAIL_LEN: u64 = 8;
/// Magic, version and (v2) the digest count: all a reader needs to learn the
/// header's full length.
pub const HEAD_PROBE_LEN: u64 = 9;
const DIGEST_LEN: u64 = 32;
/// The largest footer this reader will fetch: room for about a million
/// column chunks. A larger length is almost always damage, and trusting it
/// would ask a Blob or HTTP source for gigabytes.
pub const MAX_FOOTER_LEN: u32 = 256 << 20;

/// What the first bytes and the last eight bytes of a file say: enough to
/// know every other range the file's metadata occupies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prelude {
    pub file_len: u64,
    pub version: u8,
    pub tokenizer_count: u32,
    /// Bytes before the first row group: 5 for v1, 9 + 32 N for v2.
    pub header_len: u64,
    pub footer_offset: u64,
    pub footer_len: u32,
}

/// The first bytes a reader must look at (clipped to short files).
pub fn head_probe_range(file_len: u64) -> Range<u64> {
    0..file_len.min(HEAD_PROBE_LEN)
}

/// The last eight bytes (clipped to short files).
pub fn tail_range(file_len: u64) -> Range<u64> {
    file_len.saturating_sub(TAIL_LEN)..file_len
}

/// Checks a file's two ends in FORMAT.md's order: length, leading magic,
/// version, declared header length, trailing magic, footer length.
/// `head` is the bytes of `head_probe_range`, `tail` those of `tail_range`.
pub fn read_prelude(file_len: u64, head: &[u8], tail: &[u8]) -> Result<Prelude> {
    if file_len < TAIL_LEN {
        return Err(Error::new(
            ErrorKind::Truncated,
            format!("file is {file_len} bytes; a columns file has at least 13 bytes"),
        ));
    }
    if (head.len() as u64) < head_probe_range(file_len).end || tail.len() as u64 != TAIL_LEN {
        return Err(Error::new(ErrorKind::OutOfRange, "read_prelude was given the wrong byte ranges"));
    }
    if &head[..4] != MAGIC {
        return Err(Error::new(
            ErrorKind::BadMagic,
            format!("leading magic is {}, not ABCD{}", show_magic(&head[..4]), older_writer(&head[..4])),
        )
        .at_offset(0));
    }
    let version = head[4];
    if version != 1 && version != 2 {
        return Err(Error::new(
            ErrorKind::UnsupportedVersion,
            format!("format version {version}; this reader knows versions 1 and 2"),
        )
        .at_offset(4));
    }
    let (tokenizer_count, header_len) = if version == 2 {
        if head.len() < 9 {
            return Err(Error::new(ErrorKind::Truncated, "file ends inside the version 2 tokenizer count").at_offset(5));
        }
        let n = u32::from_le_bytes([head[5], head[6], head[7], head[8]]);
        (n, 9 + DIGEST_LEN * n as u64)
    } else {
        (0, 5)
    };
    if file_len < header_len + TAIL_LEN {
        return Err(Error::new(
            ErrorKind::Truncated,
            format!(
                "file is {file_len} bytes but its header ({tokenizer_count} tokenizer digests) and tail need {}",
                header_len + TAIL_LEN
            ),
        ));
    }
    if &tail[4..8] != MAGIC {
        return Err(Error::new(
            ErrorKind::Truncated,
            format!("file does not end with ABCD (found {}): cut short or damaged", show_magic(&tail[4..8])),
        )
        .at_offset(file_len - 4));
    }
    let footer_len = u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
    let room = file_len - TAIL_LEN - header_len;
    if footer_len as u64 > room {
        return Err(corrupt_footer(format!(
            "footer length {footer_len} is larger than the {room} bytes between header and tail"
        ))
        .at_offset(file_len - TAIL_LEN));
    }
    if footer_len > MAX_FOOTER_LEN {
        return Err(Error::new(
            ErrorKind::TooLarge,
            format!("footer length {footer_len} exceeds the {MAX_FOOTER_LEN} bytes this reader accepts"),
        )
        .at_offset(file_len - TAIL_LEN));
    }
    Ok(Prelude {
        file_len,
        version,
        tokenizer_count,
        header_len,
        footer_offset: file_len - TAIL_LEN - footer_len as u64,
        footer_len,
    })
}

impl Prelude {
    /// The whole header, digests included.
    pub fn header_range(&self) -> Range<u64> {
        0..self.header_len
    }

    pub fn footer_range(&self) -> Range<u64> {
        self.footer_offset..self.footer_offset + self.footer_len as u64
    }

    /// Where row groups may live: between the header and the footer.
    pub fn data_range(&self) -> Range<u64> {
        self.header_len..self.footer_offset
    }

    /// Reads the digest table from the header bytes (`header_range`).
    pub fn read_digests(&self, header: &[u8]) -> Result<Vec<Digest>> {
        if (header.len() as u64) < self.header_len {
            return Err(Error::new(ErrorKind::OutOfRange, "read_digests was given fewer bytes than the header"));
        }
        if self.version == 1 {
            return Ok(Vec::new());
        }
        Ok(header[9..self.header_len as usize]
            .chunks_exact(DIGEST_LEN as usize)
            .map(|c| {
                let mut d = [0u8; 32];
                d.copy_from_slice(c);
                Digest(d)
            })
            .collect())
    }
}

fn show_magic(m: &[u8]) -> String {
    if m.iter().all(|b| b.is_ascii_graphic()) {
        format!("\"{}\"", String::from_utf8_lossy(m))
    } else {
        // Hex of u32s only: each integer type formatted as hex brings its own
        // formatter into the wasm.
        format!("0x{}", m.iter().map(|&b| format!("{:02x}", u32::from(b))).collect::<String>())
    }
}

fn older_writer(m: &[u8]) -> &'static str {
    match m {
        b"COLS" => " (written by v0.3.0-v0.3.1 of the reference writer, not readable here)",
        b"KEIN" => " (written by v0.1.0 of the reference writer, not readable here)",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file_with_footer_len(f: u32, len: u64) -> (Vec<u8>, Vec<u8>) {
        let mut tail = f.to_le_bytes().to_vec();
        tail.extend_from_slice(MAGIC);
        let _ = len;
        (b"ABCD\x01\0\0\0\0".to_vec(), tail)
    }

    #[test]
    fn checks_run_in_the_documented_order() {
        let (head, tail) = file_with_footer_len(10, 100);
        assert_eq!(read_prelude(7, &head[..7], &[]).unwrap_err().kind, ErrorKind::Truncated);
        assert_eq!(read_prelude(100, b"COLS\x01\0\0\0\0", &tail).unwrap_err().kind, ErrorKind::BadMagic);
        // A magic that is not printable is shown as hex, two digits a byte.
        let e = read_prelude(100, b"\x01\xabC\x0a\x01\0\0\0\0", &tail).unwrap_err();
        assert!(e.to_string().contains("leading magic is 0x01ab430a,"), "{e}");
        assert_eq!(
            read_prelude(100, b"ABCD\x03\0\0\0\0", b"xxxxxxxx").unwrap_err().kind,
            ErrorKind::UnsupportedVersion
        );
        assert_eq!(read_prelude(100, &head, b"\0\0\0\0ABCE").unwrap_err().kind, ErrorKind::Truncated);
        let p = read_prelude(100, &head, &tail).unwrap();
        assert_eq!((p.header_len, p.footer_offset, p.footer_len), (5, 82, 10));
        // A v2 header claiming more digests than the file holds is truncation.
        assert_eq!(read_prelude(100, b"ABCD\x02\xff\0\0\0", &tail).unwrap_err().kind, ErrorKind::Truncated);
    }

    #[test]
    fn footer_lengths_are_bounded_by_the_file_and_by_the_reader() {
        let (head, tail) = file_with_footer_len(88, 100);
        assert_eq!(read_prelude(100, &head, &tail).unwrap_err().kind, ErrorKind::CorruptFooter);
        let (head, tail) = file_with_footer_len(MAX_FOOTER_LEN + 1, 1 << 40);
        assert_eq!(read_prelude(1 << 40, &head, &tail).unwrap_err().kind, ErrorKind::TooLarge);
        let (head, tail) = file_with_footer_len(MAX_FOOTER_LEN, 1 << 40);
        assert!(read_prelude(1 << 40, &head, &tail).is_ok());
    }
}
