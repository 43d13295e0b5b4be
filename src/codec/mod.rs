//! Block codecs (FORMAT.md section 4). Every block decompresses on its own
//! into a slice of exactly its recorded raw length; producing fewer or more
//! bytes, leaving input unconsumed, or failing a checksum is corruption.

mod flate;
mod gzip;
mod inflate;
mod lzw;
mod zlib;

use crate::error::{corrupt_chunk, Error, ErrorKind, Result};

/// Copies `N` bytes from `out[from..]` to `out[to..]` (read, then written)
/// as one unaligned load and one store, so the ranges may overlap: the
/// inflater's match copies and LZW's string moves.
///
/// # Safety
/// `from + N <= out.len()` and `to + N <= out.len()`.
#[inline(always)]
unsafe fn copy_chunk<const N: usize>(out: &mut [u8], from: usize, to: usize) {
    debug_assert!(from + N <= out.len() && to + N <= out.len());
    let p = out.as_mut_ptr();
    // SAFETY: both ranges lie in `out` (the caller's contract); an unaligned
    // read and write of a byte array, the read first.
    unsafe {
        let w = p.add(from).cast::<[u8; N]>().read_unaligned();
        p.add(to).cast::<[u8; N]>().write_unaligned(w);
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Codec {
    None,
    Zstd,
    Flate,
    Gzip,
    Zlib,
    Lzw,
}

impl Codec {
    pub fn from_tag(tag: u8) -> Option<Codec> {
        Some(match tag {
            0 => Codec::None,
            1 => Codec::Zstd,
            2 => Codec::Flate,
            3 => Codec::Gzip,
            4 => Codec::Zlib,
            5 => Codec::Lzw,
            _ => return None,
        })
    }

    pub fn tag(self) -> u8 {
        match self {
            Codec::None => 0,
            Codec::Zstd => 1,
            Codec::Flate => 2,
            Codec::Gzip => 3,
            Codec::Zlib => 4,
            Codec::Lzw => 5,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Codec::None => "None",
            Codec::Zstd => "Zstd",
            Codec::Flate => "Flate",
            Codec::Gzip => "Gzip",
            Codec::Zlib => "Zlib",
            Codec::Lzw => "Lzw",
        }
    }

    /// The codec for a chunk header's tag, or `unsupported_codec` naming it.
    pub fn supported(tag: u8) -> Result<Codec> {
        match Codec::from_tag(tag) {
            Some(Codec::Zstd) => Err(Error::new(
                ErrorKind::UnsupportedCodec,
                "codec 1 (Zstd) is reserved by the format and never written; this reader does not decode it",
            )),
            Some(c) => Ok(c),
            None => Err(Error::new(
                ErrorKind::UnsupportedCodec,
                format!("unknown codec tag {tag} (known: 0 None, 2 Flate, 3 Gzip, 4 Zlib, 5 Lzw)"),
            )),
        }
    }

    /// The largest raw length `stored` bytes of this codec can honestly
    /// produce. A block claiming more is refused before any allocation.
    /// DEFLATE peaks near 1032:1 (258 bytes from a 2-bit length/distance
    /// pair); 12-bit LZW codes name strings of at most 4096 bytes.
    pub fn max_raw_len(self, stored: u64) -> u64 {
        match self {
            Codec::None => stored,
            Codec::Flate | Codec::Gzip | Codec::Zlib => stored.saturating_mul(1032).saturating_add(258),
            Codec::Lzw => stored.saturating_mul(2731).saturating_add(4096),
            Codec::Zstd => 0,
        }
    }
}

/// Reusable decompression state: one per column read, reset per block, so a
/// chunk of many blocks allocates its tables once.
#[derive(Default)]
pub struct Decompressor {
    inflate: flate::Inflater,
    lzw: lzw::LzwState,
}

impl Decompressor {
    pub fn new() -> Self {
        Self::default()
    }

    /// Decompresses one block into `out`, which has exactly the block's
    /// recorded raw length.
    pub fn block(&mut self, codec: Codec, stored: &[u8], out: &mut [u8]) -> Result<()> {
        match codec {
            Codec::None => {
                if stored.len() != out.len() {
                    return Err(corrupt_chunk(format!(
                        "uncompressed block stores {} bytes but its raw length is {}",
                        stored.len(),
                        out.len()
                    )));
                }
                out.copy_from_slice(stored);
                Ok(())
            }
            Codec::Flate => self.inflate.raw_exact(stored, out),
            Codec::Gzip => gzip::decompress(&mut self.inflate, stored, out),
            Codec::Zlib => zlib::decompress(&mut self.inflate, stored, out),
            Codec::Lzw => self.lzw.decompress(stored, out),
            Codec::Zstd => Err(Codec::supported(1).err().unwrap_or_else(|| corrupt_chunk("zstd"))),
        }
    }
}
