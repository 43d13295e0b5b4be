//! Reading chunks into buffers kept from the previous read of the same
//! column, for a reader that lends out views of decoded values instead of
//! copies (the scoped read).
//!
//! A chunk's block table, its decompressed stream (or Plain and Delta
//! values decompressed straight into their storage), every decoder's
//! output and its own buffers (Dict's indices and entry table, Tokenized's
//! boundaries and ids), values spread over null rows and the validity
//! bitmap all go into buffers kept here: they grow to the largest chunk
//! seen and are then reused, so reading the same chunks again allocates
//! nothing (`tests/reuse_alloc.rs` counts it for every corpus chunk).

use std::borrow::Cow;

use crate::chunk::Block;
use crate::codec::{Codec, Decompressor};
use crate::column::{Column, Values};
use crate::encoding::{fixed_storage, Work};
use crate::error::{try_room, Result};
use crate::file::FileMeta;
use crate::read::{prepare_reusing, PreparedChunk, Stream};
use crate::tokenizer::Registry;

/// What every column read shares: decompression state, the stream of the
/// chunk being decoded, its block table, the decoders' own buffers.
#[derive(Default)]
pub struct Scratch {
    dec: Decompressor,
    stream: Vec<u8>,
    blocks: Vec<Block>,
    work: Work,
}

/// One column's kept buffers: its last decoded chunk, and spare storage
/// for the next one.
#[derive(Default)]
pub struct ColumnBuffers {
    column: Option<Column>,
    /// Dense fixed-width values of a chunk with nulls, before they are
    /// spread over the rows.
    dense: Option<Values>,
    /// The validity bitmap of an earlier chunk, while the last had no nulls.
    validity: Option<Vec<u8>>,
}

impl ColumnBuffers {
    /// The last chunk read into these buffers (`None` before the first, or
    /// after a read failed).
    pub fn column(&self) -> Option<&Column> {
        self.column.as_ref()
    }
}

impl Scratch {
    pub fn new() -> Self {
        Self::default()
    }

    /// Checks a chunk's bytes (exactly its range, as for
    /// [`crate::read::prepare`]) and decodes them into `out`, replacing the
    /// column it held.
    pub fn read(
        &mut self,
        meta: &FileMeta,
        row_group: usize,
        column: usize,
        bytes: &[u8],
        registry: &Registry,
        out: &mut ColumnBuffers,
    ) -> Result<()> {
        let blocks = core::mem::take(&mut self.blocks);
        let p = prepare_reusing(meta, row_group, column, bytes, registry, blocks)?;
        let done = self.decode(&p, out);
        self.blocks = p.chunk.blocks;
        done
    }

    fn decode(&mut self, p: &PreparedChunk<'_>, out: &mut ColumnBuffers) -> Result<()> {
        let (kept, validity) = match out.column.take() {
            Some(c) => (Some(c.values), c.validity.or(out.validity.take())),
            None => (None, out.validity.take()),
        };
        let (ty, rows) = (p.ty, p.rows as usize);
        let n = rows - p.null_count;
        let nulls = p.null_count > 0;
        // Fixed-width values with nulls are decoded into the kept dense
        // values, then spread into the kept column's; anything else is
        // decoded into the kept column's values (strings spread in place).
        let spread_fixed = nulls && !ty.is_variable();
        let (storage, into) = if spread_fixed { (out.dense.take(), kept) } else { (kept, None) };
        let dense = if p.stream_is_typed() {
            let mut v = fixed_storage(ty, n, storage)?;
            if let Some(b) = v.fixed_bytes_mut() {
                p.chunk.decompress_into(&mut self.dec, b).map_err(|e| p.locate(e))?;
            }
            p.decode_dense(Stream::Typed(v))?
        } else {
            let stream = match p.chunk.codec {
                // Borrowed as it is.
                Codec::None => p.chunk.decompress(&mut self.dec).map_err(|e| p.locate(e))?,
                _ => {
                    let raw = p.chunk.raw_length as usize;
                    // Every byte is written by the blocks (they tile the stream).
                    self.stream.truncate(raw);
                    let more = raw - self.stream.len();
                    try_room(&mut self.stream, more, "decompressed stream")?;
                    self.stream.resize(raw, 0);
                    p.chunk.decompress_into(&mut self.dec, &mut self.stream).map_err(|e| p.locate(e))?;
                    Cow::Borrowed(&self.stream[..])
                }
            };
            p.decode_dense_into(Stream::Bytes(stream), storage, &mut self.work)?
        };
        let column = if nulls {
            let (values, dense) = dense.spread_reusing(ty, rows, p.chunk.null_bitmap, into)?;
            if spread_fixed {
                out.dense = dense;
            }
            let mut bitmap = validity.unwrap_or_default();
            p.validity_into(&mut bitmap)?;
            Column { ty, values, validity: Some(bitmap), null_count: p.null_count }
        } else {
            out.validity = validity;
            Column { ty, values: dense, validity: None, null_count: 0 }
        };
        out.column = Some(column);
        Ok(())
    }
}
