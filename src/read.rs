//! Reading one column chunk: chunk bytes -> chunk header -> decompressed
//! blocks -> decoded values -> nulls spread back over the rows.
//!
//! The stages are public so callers can time them separately (the page
//! shows the split); `read_column` runs them all and stamps errors with the
//! chunk's row group, column and absolute file offset.

use std::borrow::Cow;
use std::sync::Arc;

use crate::chunk::{Block, Chunk};
use crate::codec::Decompressor;
use crate::column::{Column, Values};
use crate::encoding::{self, Encoding};
use crate::error::{corrupt_chunk, try_room, Error, ErrorKind, Result};
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
pub fn prepare<'a>(
    meta: &'a FileMeta,
    row_group: usize,
    column: usize,
    bytes: &'a [u8],
    registry: &Registry,
) -> Result<PreparedChunk<'a>> {
    prepare_reusing(meta, row_group, column, bytes, registry, Vec::new())
}

/// [`prepare`], with the chunk's block table written into `blocks` (see
/// [`Chunk::parse_reusing`]; `chunk.blocks` can be taken back afterwards).
#[inline(never)]
pub fn prepare_reusing<'a>(
    meta: &'a FileMeta,
    row_group: usize,
    column: usize,
    bytes: &'a [u8],
    registry: &Registry,
    blocks: Vec<Block>,
) -> Result<PreparedChunk<'a>> {
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
    let chunk = Chunk::parse_reusing(bytes, rows, schema.nullable, blocks).map_err(locate)?;
    let tokenizer = if chunk.encoding == Encoding::Tokenized {
        let digest = meta
            .chunk_digest(cm)
            .ok_or_else(|| locate(corrupt_chunk("Tokenized chunk of a column that names no tokenizer")))?;
        Some(registry.resolve(digest).map_err(locate)?.clone())
    } else {
        None
    };
    let null_count = chunk.null_count(rows);
    Ok(PreparedChunk { chunk, meta: cm, ty: schema.ty, rows, null_count, tokenizer, row_group, column })
}

/// A chunk's decompressed stream.
pub enum Stream<'a> {
    /// The encoded bytes (borrowed when the chunk is uncompressed).
    Bytes(Cow<'a, [u8]>),
    /// Plain values, or Delta differences, decompressed straight into their
    /// final typed buffer: no second copy of the column.
    Typed(Values),
}

impl Stream<'_> {
    /// Bytes of encoded stream it holds.
    pub fn byte_len(&self) -> usize {
        match self {
            Stream::Bytes(b) => b.len(),
            Stream::Typed(v) => {
                crate::column::match_values!(v, x => core::mem::size_of_val(&x[..]), o, d => o.len() * 4 + d.len())
            }
        }
    }
}

impl<'a> PreparedChunk<'a> {
    /// Decompresses the blocks: into typed storage where the encoded bytes
    /// already are the values' own little-endian layout, else into bytes.
    pub fn decompress(&self, dec: &mut Decompressor) -> Result<Stream<'a>> {
        self.typed_decompress(dec)
            .transpose()
            .unwrap_or_else(|| self.chunk.decompress(dec).map(Stream::Bytes))
            .map_err(|e| self.locate(e))
    }

    /// Whether the encoded stream is the values' own little-endian layout
    /// (Plain fixed-width values, Delta differences of 64-bit integers), so
    /// it can be decompressed straight into their typed storage. A length
    /// that does not fit the values is not: the byte path names the mismatch.
    pub fn stream_is_typed(&self) -> bool {
        let (enc, ty) = (self.chunk.encoding, self.ty);
        let plain = enc == Encoding::Plain && !ty.is_variable();
        let delta = enc == Encoding::Delta && matches!(ty, ColumnType::Int64 | ColumnType::Uint64);
        let n = self.rows as usize - self.null_count;
        let width = if delta { 8 } else { ty.width().unwrap_or(0) };
        (plain || delta) && !cfg!(target_endian = "big") && n.checked_mul(width) == Some(self.chunk.raw_length as usize)
    }

    fn typed_decompress(&self, dec: &mut Decompressor) -> Result<Option<Stream<'a>>> {
        // Uncompressed chunks are borrowed as they are.
        if !self.stream_is_typed() || self.chunk.codec == crate::codec::Codec::None {
            return Ok(None);
        }
        let n = self.rows as usize - self.null_count;
        let Some(mut values) = Values::zeroed(self.ty, n)? else { return Ok(None) };
        if let Some(bytes) = values.fixed_bytes_mut() {
            self.chunk.decompress_into(dec, bytes)?;
        }
        Ok(Some(Stream::Typed(values)))
    }

    /// Decodes the stream into a column of `rows` rows.
    pub fn decode(&self, stream: Stream<'_>) -> Result<Column> {
        let dense = self.decode_dense(stream)?;
        self.spread_nulls(dense)
    }

    /// The stream's values for the non-null rows only (the first half of
    /// [`decode`](Self::decode), public so benchmarks can time it alone).
    pub fn decode_dense(&self, stream: Stream<'_>) -> Result<Values> {
        self.decode_dense_into(stream, None, &mut encoding::Work::default())
    }

    /// [`decode_dense`](Self::decode_dense) into `kept`'s storage, with
    /// `work` for the decoder's own buffers (see [`encoding::decode_into`]).
    /// Out of line: every reader of chunks calls the decoders through here
    /// (src/reuse.rs too), so they exist once in the wasm module.
    #[inline(never)]
    pub fn decode_dense_into(
        &self,
        stream: Stream<'_>,
        kept: Option<Values>,
        work: &mut encoding::Work,
    ) -> Result<Values> {
        let rows = self.rows as usize;
        let n = rows - self.null_count;
        let tok = self.tokenizer.as_deref();
        match stream {
            Stream::Bytes(bytes) => {
                encoding::decode_into(self.chunk.encoding, self.ty, n, rows, bytes, tok, kept, work)
            }
            Stream::Typed(values) => encoding::finish_typed(self.chunk.encoding, values),
        }
        .map_err(|e| self.locate(e))
    }

    /// Spreads dense values over every row of the chunk, nulls included
    /// (the second half of [`decode`](Self::decode)).
    pub fn spread_nulls(&self, dense: Values) -> Result<Column> {
        let rows = self.rows as usize;
        if self.null_count == 0 {
            return Ok(Column { ty: self.ty, values: dense, validity: None, null_count: 0 });
        }
        let bitmap = self.chunk.null_bitmap;
        let values = dense.spread(self.ty, rows, bitmap)?;
        let mut validity = Vec::new();
        self.validity_into(&mut validity)?;
        Ok(Column { ty: self.ty, values, validity: Some(validity), null_count: self.null_count })
    }

    /// Writes the chunk's validity into `out` (replacing what it held):
    /// Arrow's validity is the file's null bitmap inverted, with the
    /// padding bits past the last row left clear.
    pub(crate) fn validity_into(&self, out: &mut Vec<u8>) -> Result<()> {
        let (bitmap, rows) = (self.chunk.null_bitmap, self.rows as usize);
        out.clear();
        try_room(out, bitmap.len(), "validity bitmap")?;
        out.extend(bitmap.iter().map(|b| !b));
        if !rows.is_multiple_of(8) {
            if let Some(last) = out.last_mut() {
                *last &= (1u8 << (rows % 8)) - 1;
            }
        }
        Ok(())
    }

    pub(crate) fn locate(&self, e: Error) -> Error {
        locate(e, self.row_group, self.column, self.meta.offset)
    }
}

/// Adds the chunk's coordinates; offsets set by lower layers are relative
/// to the chunk and become absolute here.
pub(crate) fn locate(mut e: Error, row_group: usize, column: usize, chunk_offset: u64) -> Error {
    if e.location.row_group.is_none() {
        e.location.offset = Some(chunk_offset + e.location.offset.unwrap_or(0));
    }
    e.in_chunk(row_group, column)
}

/// Reads and decodes one column chunk from exactly its bytes.
pub fn read_column(
    meta: &FileMeta,
    row_group: usize,
    column: usize,
    bytes: &[u8],
    registry: &Registry,
) -> Result<Column> {
    let p = prepare(meta, row_group, column, bytes, registry)?;
    let stream = p.decompress(&mut Decompressor::new())?;
    p.decode(stream)
}

impl FileMeta {
    /// A chunk's bytes within a whole file held in memory.
    pub fn chunk_bytes<'b>(&self, file: &'b [u8], row_group: usize, column: usize) -> Result<&'b [u8]> {
        let r = self.chunk(row_group, column)?.range();
        file.get(r.start as usize..r.end as usize).ok_or_else(|| {
            Error::new(
                ErrorKind::OutOfRange,
                format!("chunk range {}..{} is outside the {} bytes given", r.start, r.end, file.len()),
            )
            .in_chunk(row_group, column)
        })
    }
}
