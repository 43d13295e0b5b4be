//! Reading one column chunk: chunk bytes -> chunk header -> decompressed
//! blocks -> decoded values -> nulls spread back over the rows.
//!
//! The stages are public so callers can time them separately (the page
//! shows the split); `read_column` runs them all and stamps errors with the
//! chunk's row group, column and absolute file offset.

use std::borrow::Cow;
use std::sync::Arc;

use crate::chunk::Chunk;
use crate::codec::Decompressor;
use crate::column::Column;
use crate::encoding::{self, Encoding};
use crate::error::{corrupt_chunk, try_vec, Error, ErrorKind, Result};
use crate::file::{ChunkMeta, FileMeta};
use crate::tokenizer::{Registry, Tokenizer};
use crate::types::ColumnType;

/// A chunk whose header is checked and whose tokenizer (if any) is resolved.
pub struct PreparedChunk<'a> {
    pub chunk: Chunk<'a>,
    pub meta: &'a ChunkMeta,
    pub ty: ColumnType,
    pub rows: u32,
    pub null_count: usize,
    pub tokenizer: Option<Arc<Tokenizer>>,
    pub row_group: usize,
    pub column: usize,
}

/// Checks a chunk's bytes and resolves what decoding it will need.
/// `bytes` must be exactly the chunk's range (`FileMeta::chunk`).
pub fn prepare<'a>(meta: &'a FileMeta, row_group: usize, column: usize, bytes: &'a [u8], registry: &Registry) -> Result<PreparedChunk<'a>> {
    let cm = meta.chunk(row_group, column)?;
    let locate = |e: Error| locate(e, row_group, column, cm.offset);
    if bytes.len() as u64 != cm.byte_length {
        return Err(locate(Error::new(
            ErrorKind::OutOfRange,
            format!("given {} bytes for a chunk of {}", bytes.len(), cm.byte_length),
        )));
    }
    let schema = &meta.schema[column];
    let rows = meta.row_groups[row_group].num_rows;
    let chunk = Chunk::parse(bytes, rows, schema.nullable).map_err(locate)?;
    let tokenizer = if chunk.encoding == Encoding::Tokenized {
        let digest = meta.chunk_digest(cm).ok_or_else(|| locate(corrupt_chunk("Tokenized chunk of a column that names no tokenizer")))?;
        Some(registry.resolve(digest).map_err(locate)?.clone())
    } else {
        None
    };
    let null_count = chunk.null_count(rows);
    Ok(PreparedChunk { chunk, meta: cm, ty: schema.ty, rows, null_count, tokenizer, row_group, column })
}

impl<'a> PreparedChunk<'a> {
    /// The encoded stream (borrowed when the chunk is uncompressed).
    pub fn decompress(&self, dec: &mut Decompressor) -> Result<Cow<'a, [u8]>> {
        self.chunk.decompress(dec).map_err(|e| self.locate(e))
    }

    /// Decodes the encoded stream into a column of `rows` rows.
    pub fn decode(&self, stream: &[u8]) -> Result<Column> {
        let rows = self.rows as usize;
        let n = rows - self.null_count;
        let dense = encoding::decode(self.chunk.encoding, self.ty, n, stream, self.tokenizer.as_deref()).map_err(|e| self.locate(e))?;
        if self.null_count == 0 {
            return Ok(Column { ty: self.ty, values: dense, validity: None, null_count: 0 });
        }
        let bitmap = self.chunk.null_bitmap;
        let values = dense.spread(rows, bitmap)?;
        // Arrow's validity is the file's null bitmap inverted, with the
        // padding bits past the last row left clear.
        let mut validity = try_vec::<u8>(bitmap.len(), "validity bitmap")?;
        validity.extend(bitmap.iter().map(|b| !b));
        if rows % 8 != 0 {
            if let Some(last) = validity.last_mut() {
                *last &= (1u8 << (rows % 8)) - 1;
            }
        }
        Ok(Column { ty: self.ty, values, validity: Some(validity), null_count: self.null_count })
    }

    fn locate(&self, e: Error) -> Error {
        locate(e, self.row_group, self.column, self.meta.offset)
    }
}

/// Adds the chunk's coordinates; offsets set by lower layers are relative
/// to the chunk and become absolute here.
fn locate(mut e: Error, row_group: usize, column: usize, chunk_offset: u64) -> Error {
    if e.location.row_group.is_none() {
        e.location.offset = Some(chunk_offset + e.location.offset.unwrap_or(0));
    }
    e.in_chunk(row_group, column)
}

/// Reads and decodes one column chunk from exactly its bytes.
pub fn read_column(meta: &FileMeta, row_group: usize, column: usize, bytes: &[u8], registry: &Registry) -> Result<Column> {
    let p = prepare(meta, row_group, column, bytes, registry)?;
    let stream = p.decompress(&mut Decompressor::new())?;
    p.decode(&stream)
}

impl FileMeta {
    /// A chunk's bytes within a whole file held in memory.
    pub fn chunk_bytes<'b>(&self, file: &'b [u8], row_group: usize, column: usize) -> Result<&'b [u8]> {
        let r = self.chunk(row_group, column)?.range();
        file.get(r.start as usize..r.end as usize).ok_or_else(|| {
            Error::new(ErrorKind::OutOfRange, format!("chunk range {r:?} is outside the {} bytes given", file.len()))
                .in_chunk(row_group, column)
        })
    }
}
