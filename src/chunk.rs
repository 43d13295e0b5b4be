//! A column chunk's own header (FORMAT.md section 3): tags, lengths, the
//! block table and the null bitmap, checked against each other and against
//! the chunk's bytes before any of them sizes anything.
//!
//! ```text
//! 0 encoding u8 | 1 codec u8 | 2 bitmap len u32 | 6 raw len u32
//! 10 data len u32 | 14 block count u32 | 18 B x (raw u32, stored u32)
//! null bitmap | stored blocks
//! ```

use std::borrow::Cow;

use crate::bytes::{le_u32, Reader};
use crate::codec::{Codec, Decompressor};
use crate::encoding::Encoding;
use crate::error::{corrupt_chunk, try_room, try_vec, ErrorKind, Result};

pub const CHUNK_HEADER_LEN: usize = 18;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    pub raw_len: u32,
    pub stored_len: u32,
    /// Where the stored bytes start, relative to the chunk.
    pub offset: usize,
    /// Where the decompressed bytes go in the encoded stream.
    pub raw_offset: usize,
}

#[derive(Clone, Debug)]
pub struct Chunk<'a> {
    pub encoding: Encoding,
    pub codec: Codec,
    pub raw_length: u32,
    pub data_length: u32,
    pub blocks: Vec<Block>,
    /// `ceil(rows / 8)` bytes, bit set = null; empty for non-nullable columns.
    pub null_bitmap: &'a [u8],
    bytes: &'a [u8],
}

impl<'a> Chunk<'a> {
    /// Parses and checks a chunk. `rows` and `nullable` come from the footer
    /// and schema; they fix the bitmap's size.
    pub fn parse(bytes: &'a [u8], rows: u32, nullable: bool) -> Result<Chunk<'a>> {
        Chunk::parse_reusing(bytes, rows, nullable, Vec::new())
    }

    /// [`parse`](Self::parse), with the block table written into `blocks`
    /// (a table kept from an earlier chunk), so that a reader going from
    /// chunk to chunk does not allocate one per chunk.
    pub fn parse_reusing(bytes: &'a [u8], rows: u32, nullable: bool, mut blocks: Vec<Block>) -> Result<Chunk<'a>> {
        let mut r = Reader::new(bytes, ErrorKind::CorruptChunk, "chunk header");
        let encoding_tag = r.u8("encoding")?;
        let codec_tag = r.u8("codec")?;
        // Tags first: an unknown codec is a clearer answer than whatever
        // lengths a future codec might imply.
        let codec = Codec::supported(codec_tag).map_err(|e| e.at_offset(1))?;
        let encoding = Encoding::supported(encoding_tag).map_err(|e| e.at_offset(0))?;
        let bitmap_len = r.len32("null bitmap length")?;
        let raw_length = r.u32("raw length")?;
        let data_length = r.u32("data length")?;
        let block_count = r.len32("block count")?;
        if block_count == 0 {
            return Err(corrupt_chunk("block count is 0; an empty column is one 0-byte block").at_offset(14));
        }
        let table = r.take_array(block_count, 8, "block table").map_err(|e| e.at_offset(14))?;
        let want_bitmap = if nullable { (rows as usize).div_ceil(8) } else { 0 };
        if bitmap_len != want_bitmap {
            return Err(corrupt_chunk(format!(
                "null bitmap is {bitmap_len} bytes; a {} column of {rows} rows has {want_bitmap}",
                if nullable { "nullable" } else { "non-nullable" }
            ))
            .at_offset(2));
        }
        let null_bitmap = r.take(bitmap_len, "null bitmap")?;
        let data_start = r.pos();
        if r.remaining() as u64 != data_length as u64 {
            return Err(corrupt_chunk(format!(
                "data length is {data_length} but {} bytes follow the chunk header",
                r.remaining()
            ))
            .at_offset(10));
        }
        blocks.clear();
        try_room(&mut blocks, block_count, "block table")?;
        let (mut offset, mut raw_offset) = (data_start as u64, 0u64);
        for i in 0..block_count {
            let raw_len = le_u32(table, 8 * i);
            let stored_len = le_u32(table, 8 * i + 4);
            let at = (CHUNK_HEADER_LEN + 8 * i) as u64;
            if raw_len as u64 > codec.max_raw_len(stored_len as u64) {
                return Err(corrupt_chunk(format!(
                    "block {i} claims {raw_len} raw bytes from {stored_len} stored bytes, more than {} can produce",
                    codec.name()
                ))
                .at_offset(at));
            }
            blocks.push(Block { raw_len, stored_len, offset: offset as usize, raw_offset: raw_offset as usize });
            offset += stored_len as u64;
            raw_offset += raw_len as u64;
        }
        if offset != bytes.len() as u64 {
            return Err(corrupt_chunk(format!(
                "blocks store {} bytes but the data length is {data_length}",
                offset - data_start as u64
            ))
            .at_offset(10));
        }
        if raw_offset != raw_length as u64 {
            return Err(corrupt_chunk(format!(
                "blocks hold {raw_offset} raw bytes but the raw length is {raw_length}"
            ))
            .at_offset(6));
        }
        Ok(Chunk { encoding, codec, raw_length, data_length, blocks, null_bitmap, bytes })
    }

    pub fn stored(&self, b: &Block) -> &'a [u8] {
        &self.bytes[b.offset..b.offset + b.stored_len as usize]
    }

    /// Number of null rows among the first `rows` bits of the bitmap.
    pub fn null_count(&self, rows: u32) -> usize {
        let rows = rows as usize;
        let full = rows / 8;
        let mut n: usize =
            self.null_bitmap[..full.min(self.null_bitmap.len())].iter().map(|b| b.count_ones() as usize).sum();
        if !rows.is_multiple_of(8) {
            if let Some(last) = self.null_bitmap.get(full) {
                n += (last & ((1u8 << (rows % 8)) - 1)).count_ones() as usize;
            }
        }
        n
    }

    /// The encoded stream: the blocks decompressed back to back. An
    /// uncompressed chunk is borrowed as it is.
    pub fn decompress(&self, dec: &mut Decompressor) -> Result<Cow<'a, [u8]>> {
        if self.codec == Codec::None {
            // Each block's raw length equals its stored length (checked in
            // parse via max_raw_len, and here for the shorter side).
            if self.raw_length != self.data_length {
                return Err(corrupt_chunk(format!(
                    "uncompressed chunk stores {} bytes but its raw length is {}",
                    self.data_length, self.raw_length
                )));
            }
            let start = self.blocks.first().map_or(self.bytes.len(), |b| b.offset);
            return Ok(Cow::Borrowed(&self.bytes[start..]));
        }
        let mut out = try_vec::<u8>(self.raw_length as usize, "decompressed stream")?;
        out.resize(self.raw_length as usize, 0);
        self.decompress_into(dec, &mut out)?;
        Ok(Cow::Owned(out))
    }

    /// Decompresses every block into its slot of `out`, which must be
    /// exactly `raw_length` bytes: blocks are byte ranges of one stream.
    pub fn decompress_into(&self, dec: &mut Decompressor, out: &mut [u8]) -> Result<()> {
        if out.len() != self.raw_length as usize {
            return Err(corrupt_chunk(format!(
                "internal: a {}-byte buffer for a {}-byte stream",
                out.len(),
                self.raw_length
            )));
        }
        for (i, b) in self.blocks.iter().enumerate() {
            let slot = &mut out[b.raw_offset..b.raw_offset + b.raw_len as usize];
            dec.block(self.codec, self.stored(b), slot).map_err(|e| {
                crate::error::Error { message: format!("block {i}: {}", e.message), ..e }.at_offset(b.offset as u64)
            })?;
        }
        Ok(())
    }
}
