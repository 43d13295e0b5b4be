//! A file's metadata: header, tail and footer, cross-checked into a
//! `FileMeta` that knows every chunk's byte range and has read nothing else.
//!
//! Opening is three pure steps, so any byte source works (a slice, a Blob,
//! HTTP ranges): `read_prelude` on the head probe and tail, then
//! `Prelude::read_digests` on the header and `decode_footer` on the footer,
//! then `FileMeta::assemble`. `FileMeta::from_bytes` runs them on a slice.

pub mod footer;
pub(crate) mod gob;
pub mod header;

use core::ops::Range;

use crate::codec::Codec;
use crate::encoding::Encoding;
use crate::error::{corrupt_footer, Error, ErrorKind, Result};
use crate::stats::Scalar;
use crate::tokenizer::Digest;
use crate::types::ColumnType;

pub use footer::{decode_footer, Footer};
pub use header::{head_probe_range, read_prelude, tail_range, Prelude, HEAD_PROBE_LEN, TAIL_LEN};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnSchema {
    /// Go strings are bytes; names are shown lossily, kept exactly here.
    pub name: Vec<u8>,
    pub ty: ColumnType,
    pub nullable: bool,
}

impl ColumnSchema {
    pub fn name_lossy(&self) -> String {
        String::from_utf8_lossy(&self.name).into_owned()
    }
}

/// One column chunk as the footer describes it, with its absolute range.
#[derive(Clone, Debug, PartialEq)]
pub struct ChunkMeta {
    pub offset: u64,
    pub byte_length: u64,
    pub null_count: u32,
    /// Statistics exactly as stored (FORMAT.md: reported, never recomputed).
    pub min_raw: Vec<u8>,
    pub max_raw: Vec<u8>,
    pub min_len: u32,
    pub max_len: u32,
    /// The footer's echo of the chunk header's tags; the chunk is authoritative.
    pub encoding_tag: u8,
    pub codec_tag: u8,
    /// 1-based position in the digest table; 0 = none.
    pub tokenizer: u32,
}

impl ChunkMeta {
    pub fn range(&self) -> Range<u64> {
        self.offset..self.offset + self.byte_length
    }
    pub fn encoding(&self) -> Option<Encoding> {
        Encoding::from_tag(self.encoding_tag)
    }
    pub fn codec(&self) -> Option<Codec> {
        Codec::from_tag(self.codec_tag)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct RowGroup {
    pub num_rows: u32,
    pub byte_offset: u64,
    pub chunks: Vec<ChunkMeta>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FileMeta {
    pub prelude: Prelude,
    /// Header order; a column's `tokenizer` indexes this from 1.
    pub tokenizers: Vec<Digest>,
    pub schema: Vec<ColumnSchema>,
    pub row_groups: Vec<RowGroup>,
}

impl FileMeta {
    /// Opens a file that is entirely in memory.
    pub fn from_bytes(bytes: &[u8]) -> Result<FileMeta> {
        let len = bytes.len() as u64;
        let slice = |r: Range<u64>| &bytes[r.start as usize..r.end as usize];
        let prelude = read_prelude(len, slice(head_probe_range(len)), slice(tail_range(len)))?;
        let digests = prelude.read_digests(slice(prelude.header_range()))?;
        let footer = decode_footer(slice(prelude.footer_range())).map_err(|e| e.at_offset(prelude.footer_offset))?;
        FileMeta::assemble(prelude, digests, footer)
    }

    /// Cross-checks the footer against the header and the file's extent.
    pub fn assemble(prelude: Prelude, tokenizers: Vec<Digest>, footer: Footer) -> Result<FileMeta> {
        let at = prelude.footer_offset;
        // A loop rather than `collect::<Result<Vec<_>>>()`: smaller in the `.wasm`.
        let mut schema = Vec::with_capacity(footer.schema.len());
        for (i, s) in footer.schema.into_iter().enumerate() {
            let ty = ColumnType::from_tag(s.type_tag).ok_or_else(|| {
                corrupt_footer(format!("column {i} has unknown type tag {}", s.type_tag)).at_offset(at)
            })?;
            schema.push(ColumnSchema { name: s.name, ty, nullable: s.nullable });
        }
        let data = prelude.data_range();
        let mut row_groups = Vec::with_capacity(footer.row_groups.len());
        for (g, rg) in footer.row_groups.into_iter().enumerate() {
            let bad = |msg: String| corrupt_footer(msg).in_chunk(g, 0).at_offset(at);
            if rg.columns.len() != schema.len() {
                return Err(bad(format!(
                    "row group {g} has {} column chunks for {} schema columns",
                    rg.columns.len(),
                    schema.len()
                )));
            }
            let byte_offset =
                u64::try_from(rg.byte_offset).ok().filter(|o| *o >= data.start && *o <= data.end).ok_or_else(|| {
                    bad(format!(
                        "row group {g} starts at {}, outside the data region {}..{}",
                        rg.byte_offset, data.start, data.end
                    ))
                })?;
            let mut offset = byte_offset;
            let mut chunks = Vec::with_capacity(rg.columns.len());
            for (c, m) in rg.columns.into_iter().enumerate() {
                let bad = |msg: String| corrupt_footer(msg).in_chunk(g, c).at_offset(at);
                let byte_length = u64::try_from(m.byte_length)
                    .map_err(|_| bad(format!("negative chunk length {}", m.byte_length)))?;
                let end = offset.checked_add(byte_length).filter(|e| *e <= data.end).ok_or_else(|| {
                    bad(format!("chunk of {byte_length} bytes at {offset} runs past the footer at {}", data.end))
                })?;
                let tokenizer =
                    u32::try_from(m.tokenizer).ok().filter(|t| *t as usize <= tokenizers.len()).ok_or_else(|| {
                        bad(format!("tokenizer number {} but the header lists {}", m.tokenizer, tokenizers.len()))
                    })?;
                if m.null_count > rg.num_rows {
                    return Err(bad(format!(
                        "null count {} exceeds the row group's {} rows",
                        m.null_count, rg.num_rows
                    )));
                }
                chunks.push(ChunkMeta {
                    offset,
                    byte_length,
                    null_count: m.null_count,
                    min_raw: m.min_val,
                    max_raw: m.max_val,
                    min_len: m.min_len,
                    max_len: m.max_len,
                    encoding_tag: m.encoding,
                    codec_tag: m.compress,
                    tokenizer,
                });
                offset = end;
            }
            row_groups.push(RowGroup { num_rows: rg.num_rows, byte_offset, chunks });
        }
        Ok(FileMeta { prelude, tokenizers, schema, row_groups })
    }

    pub fn version(&self) -> u8 {
        self.prelude.version
    }

    pub fn num_rows(&self) -> u64 {
        self.row_groups.iter().map(|r| r.num_rows as u64).sum()
    }

    /// The chunk at (row group, column), or `out_of_range`.
    pub fn chunk(&self, row_group: usize, column: usize) -> Result<&ChunkMeta> {
        let rg = self.row_groups.get(row_group).ok_or_else(|| {
            Error::new(
                ErrorKind::OutOfRange,
                format!("row group {row_group} does not exist; the file has {}", self.row_groups.len()),
            )
            .in_chunk(row_group, column)
        })?;
        rg.chunks.get(column).ok_or_else(|| {
            Error::new(
                ErrorKind::OutOfRange,
                format!("column {column} does not exist; the file has {}", self.schema.len()),
            )
            .in_chunk(row_group, column)
        })
    }

    /// The digest a chunk's column names, if any.
    pub fn chunk_digest(&self, chunk: &ChunkMeta) -> Option<&Digest> {
        (chunk.tokenizer as usize).checked_sub(1).and_then(|i| self.tokenizers.get(i))
    }

    /// Decoded min/max statistics of a chunk in its column's type.
    pub fn chunk_stats(&self, column: usize, chunk: &ChunkMeta) -> (Option<Scalar>, Option<Scalar>) {
        match self.schema.get(column) {
            Some(s) => (Scalar::decode(s.ty, &chunk.min_raw), Scalar::decode(s.ty, &chunk.max_raw)),
            None => (None, None),
        }
    }
}
