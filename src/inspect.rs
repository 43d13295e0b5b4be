//! What a chunk's encoding did, and whether the footer's statistics agree
//! with the decoded values. This is for inspectors: reading a column never
//! needs it.

use crate::chunk::Block;
use crate::codec::{Codec, Decompressor};
use crate::column::{Column, Values};
use crate::encoding::{bits::MsbBits, tokenized::TokenizedLayout, Encoding};
use crate::error::{Error, Result};
use crate::file::FileMeta;
use crate::read::{locate, prepare};
use crate::tokenizer::Registry;
use crate::types::ColumnType;

/// Encoding-specific facts about one chunk's encoded stream.
#[derive(Clone, Debug, PartialEq)]
pub enum EncodingDetail {
    Plain,
    RleBitpack {
        trues: usize,
    },
    Delta {
        first: Option<i64>,
        min_delta: Option<i64>,
        max_delta: Option<i64>,
    },
    Dict {
        size: usize,
        index_width: u32,
        index_bytes: usize,
        entry_bytes: usize,
    },
    OffsetBytes {
        data_bytes: usize,
    },
    Affix {
        prefix: Vec<u8>,
        suffix: Vec<u8>,
        middle_bytes: usize,
    },
    Tokenized {
        representation: &'static str,
        boundaries: &'static str,
        values: usize,
        tokens: usize,
        escapes: usize,
        table_len: usize,
        bits_width: Option<u32>,
        id_bytes: usize,
    },
}

/// Statistics computed from decoded values the way the reference writer
/// computes them, in the footer's raw form so the two compare bytewise.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct DecodedStats {
    pub null_count: usize,
    pub min_raw: Vec<u8>,
    pub max_raw: Vec<u8>,
    pub min_len: u32,
    pub max_len: u32,
}

/// One footer statistic against the decoded data.
#[derive(Clone, Debug, PartialEq)]
pub struct StatCheck {
    pub field: &'static str,
    pub agrees: bool,
}

#[derive(Clone, Debug)]
pub struct ChunkReport {
    pub encoding: Encoding,
    pub codec: Codec,
    pub null_bitmap_len: usize,
    pub raw_length: u32,
    pub data_length: u32,
    pub blocks: Vec<Block>,
    /// `None` when the stream could not be parsed (see `error`).
    pub detail: Option<EncodingDetail>,
    pub decoded: Option<DecodedStats>,
    pub checks: Vec<StatCheck>,
    /// Why decoding failed, if it did; the header facts above still hold.
    pub error: Option<Error>,
}

/// Parses, decompresses and decodes a chunk, describing each stage. Fails
/// only when the chunk header itself is unreadable.
pub fn inspect_chunk(
    meta: &FileMeta,
    row_group: usize,
    column: usize,
    bytes: &[u8],
    registry: &Registry,
) -> Result<ChunkReport> {
    // The header is readable even when the tokenizer is missing.
    let cm = meta.chunk(row_group, column)?;
    let rows = meta.row_groups[row_group].num_rows;
    let header = crate::chunk::Chunk::parse(bytes, rows, meta.schema[column].nullable)
        .map_err(|e| locate(e, row_group, column, cm.offset))?;
    let mut report = ChunkReport {
        encoding: header.encoding,
        codec: header.codec,
        null_bitmap_len: header.null_bitmap.len(),
        raw_length: header.raw_length,
        data_length: header.data_length,
        blocks: header.blocks.clone(),
        detail: None,
        decoded: None,
        checks: Vec::new(),
        error: None,
    };
    let result = (|| {
        let stream = header.decompress(&mut Decompressor::new())?;
        report.detail = Some(detail(header.encoding, &stream)?);
        let p = prepare(meta, row_group, column, bytes, registry)?;
        p.decode(crate::read::Stream::Bytes(stream))
    })();
    match result {
        Ok(col) => {
            let d = decoded_stats(&col);
            report.checks = vec![
                StatCheck { field: "nullCount", agrees: d.null_count == cm.null_count as usize },
                StatCheck { field: "min", agrees: d.min_raw == cm.min_raw },
                StatCheck { field: "max", agrees: d.max_raw == cm.max_raw },
                StatCheck { field: "minLen", agrees: d.min_len == cm.min_len },
                StatCheck { field: "maxLen", agrees: d.max_len == cm.max_len },
            ];
            report.decoded = Some(d);
        }
        // Offsets in the file, as a read reports them (decompress's are the chunk's own).
        Err(e) => report.error = Some(locate(e, row_group, column, cm.offset)),
    }
    Ok(report)
}

fn detail(encoding: Encoding, stream: &[u8]) -> Result<EncodingDetail> {
    Ok(match encoding {
        Encoding::Plain => EncodingDetail::Plain,
        Encoding::RleBitpack => {
            EncodingDetail::RleBitpack { trues: stream.iter().map(|b| b.count_ones() as usize).sum() }
        }
        Encoding::Delta => {
            let deltas: Vec<i64> =
                stream.chunks_exact(8).map(|c| i64::from_le_bytes(c.try_into().unwrap_or([0; 8]))).collect();
            EncodingDetail::Delta {
                first: deltas.first().copied(),
                min_delta: deltas.iter().skip(1).min().copied(),
                max_delta: deltas.iter().skip(1).max().copied(),
            }
        }
        Encoding::Dict => {
            let h = crate::encoding::dict::header(stream)?;
            let index_bytes = MsbBits::byte_len(h.count, h.width).unwrap_or(usize::MAX);
            EncodingDetail::Dict {
                size: h.size,
                index_width: h.width,
                index_bytes,
                // (On wasm32 an index size past usize is usize::MAX: no sum.)
                entry_bytes: stream.len().saturating_sub(index_bytes).saturating_sub(12),
            }
        }
        Encoding::OffsetBytes => {
            let k = stream.get(..4).map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize);
            EncodingDetail::OffsetBytes {
                data_bytes: stream.len().saturating_sub(4).saturating_sub(k.saturating_mul(4)),
            }
        }
        Encoding::Affix => {
            let a = crate::encoding::affix::affixes(stream)?;
            let middle_bytes = stream.len() - 8 - a.prefix.len() - a.suffix.len();
            EncodingDetail::Affix { prefix: a.prefix.to_vec(), suffix: a.suffix.to_vec(), middle_bytes }
        }
        Encoding::Tokenized => {
            let l = TokenizedLayout::parse(stream)?;
            EncodingDetail::Tokenized {
                representation: l.representation.name(),
                boundaries: l.boundaries.name(),
                values: l.values,
                tokens: l.tokens,
                escapes: l.escapes,
                table_len: l.table_len(),
                bits_width: l.bits_width(),
                id_bytes: l.id_stream.len(),
            }
        }
    })
}

/// Min/max/lengths over the non-null values, as the reference writer
/// computes them: the first value, replaced only on a strict `<` or `>`
/// (so NaN first stays NaN); strings and bytes compared bytewise.
pub fn decoded_stats(col: &Column) -> DecodedStats {
    let mut s = DecodedStats { null_count: col.null_count, ..Default::default() };
    let valid = |i: usize| col.is_valid(i);
    if let Values::Bytes { .. } = col.values {
        let mut first = true;
        let (mut lo, mut hi): (&[u8], &[u8]) = (&[], &[]);
        for i in (0..col.len()).filter(|i| valid(*i)) {
            let b = col.values.bytes_at(i).unwrap_or_default();
            let len = b.len() as u32;
            if first {
                (lo, hi, s.min_len, s.max_len, first) = (b, b, len, len, false);
                continue;
            }
            lo = lo.min(b);
            hi = hi.max(b);
            s.min_len = s.min_len.min(len);
            s.max_len = s.max_len.max(len);
        }
        s.min_raw = lo.to_vec();
        s.max_raw = hi.to_vec();
        return s;
    }
    // Fixed width: compare by a key of the value's kind, then report the
    // winning rows' own little-endian bytes.
    let Some(w) = col.ty.width() else { return s };
    let bytes: &[u8] = col.values.fixed_bytes().unwrap_or_default();
    let at = |i: usize| {
        let mut b = [0u8; 8];
        b[..w].copy_from_slice(&bytes[i * w..i * w + w]);
        u64::from_le_bytes(b)
    };
    let shift = 64 - 8 * w as u32;
    let rows = bytes.len() / w;
    let found = match col.ty {
        ColumnType::Float32 => extremes(rows, &valid, &|i| f32::from_bits(at(i) as u32)),
        ColumnType::Float64 => extremes(rows, &valid, &|i| f64::from_bits(at(i))),
        ColumnType::Int8 | ColumnType::Int16 | ColumnType::Int32 | ColumnType::Int64 => {
            extremes(rows, &valid, &|i| ((at(i) << shift) as i64) >> shift)
        }
        _ => extremes(rows, &valid, &at),
    };
    if let Some((lo, hi)) = found {
        s.min_raw = bytes[lo * w..lo * w + w].to_vec();
        s.max_raw = bytes[hi * w..hi * w + w].to_vec();
        (s.min_len, s.max_len) = (w as u32, w as u32);
    }
    s
}

/// Rows of the smallest and largest valid keys: the first valid row, then
/// replaced only on a strict `<` or `>` (the reference writer's rule).
/// Dynamic calls on purpose: this runs once per inspected chunk, and
/// monomorphized, unrolled copies per type cost kilobytes of wasm.
fn extremes<K: PartialOrd>(
    rows: usize,
    valid: &dyn Fn(usize) -> bool,
    key: &dyn Fn(usize) -> K,
) -> Option<(usize, usize)> {
    let mut it = (0..rows).filter(|&i| valid(i));
    let first = it.next()?;
    let (mut lo, mut hi) = (first, first);
    let (mut lo_k, mut hi_k) = (key(first), key(first));
    for i in it {
        let k = key(i);
        if k < lo_k {
            (lo, lo_k) = (i, key(i));
        } else if k > hi_k {
            (hi, hi_k) = (i, k);
        }
    }
    Some((lo, hi))
}

impl ColumnType {
    /// Whether footer statistics of this type may legitimately disagree
    /// with the data because of the reference writer's known bytes bug.
    pub fn has_known_stats_bug(self) -> bool {
        self == ColumnType::Bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    // In wasm32 too, where a usize sum of a header's counts wraps.
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn le(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    #[test]
    fn counts_that_claim_more_than_the_stream_leave_nothing_for_the_rest() {
        // Dict: 2^32 - 1 byte-wide indices claimed (that many bytes), 14 bytes there.
        let mut s = le(&[u32::MAX, 1, 8]);
        s.extend([0; 14]);
        assert_eq!(
            detail(Encoding::Dict, &s).unwrap(),
            EncodingDetail::Dict { size: 1, index_width: 8, index_bytes: u32::MAX as usize, entry_bytes: 0 }
        );
        // OffsetBytes: 2^30 + 1 offsets claimed (4 bytes each), 5 bytes there.
        let mut s = le(&[(1 << 30) + 1]);
        s.extend([0; 5]);
        assert_eq!(detail(Encoding::OffsetBytes, &s).unwrap(), EncodingDetail::OffsetBytes { data_bytes: 0 });
    }
}
