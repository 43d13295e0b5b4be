//! The metadata and report objects handed to JavaScript, as serde structs
//! turned into plain JS objects by serde-wasm-bindgen. They mirror the
//! TypeScript interfaces in `file.rs` field for field; the core's own types
//! stay free of serde.
//!
//! Shapes the tests and the page rely on: `None` is `null` (not
//! `undefined`), byte strings are `Uint8Array`s, 64-bit statistics and
//! Delta values are `BigInt`s, every other number is a JS number.

use serde::ser::{Serialize, Serializer};
use serde::Serialize as Derive;
use wasm_bindgen::prelude::*;

use crate::file::{FileMeta, RowGroup};
use crate::inspect::{ChunkReport, EncodingDetail};
use crate::stats::Scalar;
use crate::types::ColumnType;

/// How every object here is serialized (see the module docs).
const SERIALIZER: serde_wasm_bindgen::Serializer =
    serde_wasm_bindgen::Serializer::new().serialize_missing_as_null(true);

pub(crate) fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value.serialize(&SERIALIZER).map_err(JsValue::from)
}

/// Bytes as a `Uint8Array` (a copy).
pub(crate) struct Bytes<'a>(pub &'a [u8]);

impl Serialize for Bytes<'_> {
    #[inline(never)]
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

/// A sequence serialized straight from an iterator: no `Vec` sized by the
/// file in between.
pub(crate) struct Seq<F>(pub F);

impl<F, I> Serialize for Seq<F>
where
    F: Fn() -> I,
    I: Iterator,
    I::Item: Serialize,
{
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq((self.0)())
    }
}

/// A 64-bit integer as a `BigInt` (serde-wasm-bindgen makes every 128-bit
/// integer one), or `null`.
struct Big(Option<i64>);

impl Serialize for Big {
    #[inline(never)]
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Some(v) => s.serialize_i128(v as i128),
            None => s.serialize_none(),
        }
    }
}

/// A statistic in the same JS form as `Column.toArray()` gives its type.
struct Stat(ColumnType, Option<Scalar>);

impl Serialize for Stat {
    #[inline(never)]
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let ty = self.0;
        match &self.1 {
            None => s.serialize_none(),
            Some(Scalar::Bool(b)) => s.serialize_bool(*b),
            Some(Scalar::Int(i)) if ty == ColumnType::Int64 => s.serialize_i128(*i as i128),
            Some(Scalar::Int(i)) => s.serialize_f64(*i as f64),
            Some(Scalar::Uint(u)) if ty == ColumnType::Uint64 => s.serialize_u128(*u as u128),
            Some(Scalar::Uint(u)) => s.serialize_f64(*u as f64),
            Some(Scalar::Float32(f)) => s.serialize_f64(*f as f64),
            Some(Scalar::Float64(f)) => s.serialize_f64(*f),
            Some(Scalar::Bytes(b)) if ty == ColumnType::String => s.serialize_str(&String::from_utf8_lossy(b)),
            Some(Scalar::Bytes(b)) => s.serialize_bytes(b),
        }
    }
}

#[derive(Derive)]
pub(crate) struct SchemaColumn {
    pub name: String,
    #[serde(rename = "type")]
    pub ty: &'static str,
    pub nullable: bool,
}

#[derive(Derive)]
pub(crate) struct TokenizerRef {
    pub digest: String,
    pub resolved: bool,
}

/// Facts from a chunk's own 18-byte header, known once it has been read.
#[derive(Clone, Copy)]
pub(crate) struct ChunkHeader {
    pub raw_length: u32,
    pub block_count: u32,
}

#[derive(Derive)]
#[serde(rename_all = "camelCase")]
struct ChunkMeta<'a> {
    encoding: String,
    codec: String,
    encoding_tag: u8,
    codec_tag: u8,
    byte_offset: f64,
    byte_length: f64,
    raw_length: Option<u32>,
    block_count: Option<u32>,
    null_count: u32,
    min: Stat,
    max: Stat,
    min_raw: Bytes<'a>,
    max_raw: Bytes<'a>,
    min_len: u32,
    max_len: u32,
    tokenizer: u32,
    tokenizer_digest: Option<String>,
}

#[derive(Derive)]
#[serde(rename_all = "camelCase")]
struct RowGroupMeta<C> {
    num_rows: u32,
    byte_offset: f64,
    columns: C,
}

/// One row group's metadata; `header(c)` gives what is known of chunk c's header.
pub(crate) fn row_group(
    meta: &FileMeta,
    rg: &RowGroup,
    header: impl Fn(usize) -> Option<ChunkHeader>,
) -> Result<JsValue, JsValue> {
    let columns = Seq(|| {
        rg.chunks.iter().enumerate().map(|(c, cm)| {
            let ty = meta.schema[c].ty;
            let (min, max) = meta.chunk_stats(c, cm);
            let h = header(c);
            ChunkMeta {
                encoding: cm.encoding().map_or_else(|| format!("unknown({})", cm.encoding_tag), |e| e.name().into()),
                codec: cm.codec().map_or_else(|| format!("unknown({})", cm.codec_tag), |c| c.name().into()),
                encoding_tag: cm.encoding_tag,
                codec_tag: cm.codec_tag,
                byte_offset: cm.offset as f64,
                byte_length: cm.byte_length as f64,
                raw_length: h.map(|h| h.raw_length),
                block_count: h.map(|h| h.block_count),
                null_count: cm.null_count,
                min: Stat(ty, min),
                max: Stat(ty, max),
                min_raw: Bytes(&cm.min_raw),
                max_raw: Bytes(&cm.max_raw),
                min_len: cm.min_len,
                max_len: cm.max_len,
                tokenizer: cm.tokenizer,
                tokenizer_digest: meta.chunk_digest(cm).map(|d| d.to_hex()),
            }
        })
    });
    to_js(&RowGroupMeta { num_rows: rg.num_rows, byte_offset: rg.byte_offset as f64, columns })
}

#[derive(Derive)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Region {
    pub kind: &'static str,
    pub start: f64,
    pub end: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row_group: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
}

/// The file's regions in order: header, every chunk, footer, tail.
pub(crate) fn layout(m: &FileMeta) -> Result<JsValue, JsValue> {
    let region = |kind, start: u64, end: u64| Region {
        kind,
        start: start as f64,
        end: end as f64,
        row_group: None,
        column: None,
    };
    let f = m.prelude.footer_range();
    to_js(&Seq(|| {
        let chunks = m.row_groups.iter().enumerate().flat_map(move |(g, rg)| {
            rg.chunks.iter().enumerate().map(move |(c, cm)| Region {
                row_group: Some(g as u32),
                column: Some(c as u32),
                ..region("chunk", cm.offset, cm.offset + cm.byte_length)
            })
        });
        core::iter::once(region("header", 0, m.prelude.header_len))
            .chain(chunks)
            .chain([region("footer", f.start, f.end), region("tail", f.end, m.prelude.file_len)])
    }))
}

#[derive(Derive)]
#[serde(rename_all = "camelCase")]
struct BlockReport {
    raw_length: u32,
    stored_length: u32,
    offset: f64,
}

#[derive(Derive)]
#[serde(tag = "kind")]
enum Detail<'a> {
    Plain,
    #[serde(rename = "RLEBitpack")]
    RleBitpack {
        trues: f64,
    },
    #[serde(rename_all = "camelCase")]
    Delta {
        first: Big,
        min_delta: Big,
        max_delta: Big,
    },
    #[serde(rename_all = "camelCase")]
    Dict {
        size: f64,
        index_width: u32,
        index_bytes: f64,
        entry_bytes: f64,
    },
    #[serde(rename_all = "camelCase")]
    OffsetBytes {
        data_bytes: f64,
    },
    #[serde(rename_all = "camelCase")]
    Affix {
        prefix: Bytes<'a>,
        suffix: Bytes<'a>,
        middle_bytes: f64,
    },
    #[serde(rename_all = "camelCase")]
    Tokenized {
        representation: &'static str,
        boundaries: &'static str,
        values: f64,
        tokens: f64,
        escapes: f64,
        table_length: f64,
        bits_width: Option<u32>,
        id_bytes: f64,
    },
}

impl<'a> From<&'a EncodingDetail> for Detail<'a> {
    fn from(d: &'a EncodingDetail) -> Self {
        match d {
            EncodingDetail::Plain => Detail::Plain,
            EncodingDetail::RleBitpack { trues } => Detail::RleBitpack { trues: *trues as f64 },
            EncodingDetail::Delta { first, min_delta, max_delta } => {
                Detail::Delta { first: Big(*first), min_delta: Big(*min_delta), max_delta: Big(*max_delta) }
            }
            EncodingDetail::Dict { size, index_width, index_bytes, entry_bytes } => Detail::Dict {
                size: *size as f64,
                index_width: *index_width,
                index_bytes: *index_bytes as f64,
                entry_bytes: *entry_bytes as f64,
            },
            EncodingDetail::OffsetBytes { data_bytes } => Detail::OffsetBytes { data_bytes: *data_bytes as f64 },
            EncodingDetail::Affix { prefix, suffix, middle_bytes } => {
                Detail::Affix { prefix: Bytes(prefix), suffix: Bytes(suffix), middle_bytes: *middle_bytes as f64 }
            }
            EncodingDetail::Tokenized {
                representation,
                boundaries,
                values,
                tokens,
                escapes,
                table_len,
                bits_width,
                id_bytes,
            } => Detail::Tokenized {
                representation,
                boundaries,
                values: *values as f64,
                tokens: *tokens as f64,
                escapes: *escapes as f64,
                table_length: *table_len as f64,
                bits_width: *bits_width,
                id_bytes: *id_bytes as f64,
            },
        }
    }
}

#[derive(Derive)]
#[serde(rename_all = "camelCase")]
struct Decoded<'a> {
    null_count: f64,
    min: Stat,
    max: Stat,
    min_raw: Bytes<'a>,
    max_raw: Bytes<'a>,
    min_len: u32,
    max_len: u32,
}

#[derive(Derive)]
struct Check {
    field: &'static str,
    agrees: bool,
}

#[derive(Derive)]
#[serde(rename_all = "camelCase")]
struct Report<'a, B, C> {
    encoding: &'static str,
    codec: &'static str,
    null_bitmap_length: f64,
    raw_length: u32,
    data_length: u32,
    blocks: B,
    detail: Option<Detail<'a>>,
    decoded: Option<Decoded<'a>>,
    checks: C,
    known_writer_bug: bool,
    #[serde(with = "serde_wasm_bindgen::preserve")]
    error: JsValue,
}

/// A chunk report; `error` is the `ColumnsError` (or null) already made for it.
pub(crate) fn report(r: &ChunkReport, ty: ColumnType, chunk_offset: u64, error: JsValue) -> Result<JsValue, JsValue> {
    to_js(&Report {
        encoding: r.encoding.name(),
        codec: r.codec.name(),
        null_bitmap_length: r.null_bitmap_len as f64,
        raw_length: r.raw_length,
        data_length: r.data_length,
        blocks: Seq(|| {
            r.blocks.iter().map(|b| BlockReport {
                raw_length: b.raw_len,
                stored_length: b.stored_len,
                offset: (chunk_offset + b.offset as u64) as f64,
            })
        }),
        detail: r.detail.as_ref().map(Detail::from),
        decoded: r.decoded.as_ref().map(|d| Decoded {
            null_count: d.null_count as f64,
            min: Stat(ty, Scalar::decode(ty, &d.min_raw)),
            max: Stat(ty, Scalar::decode(ty, &d.max_raw)),
            min_raw: Bytes(&d.min_raw),
            max_raw: Bytes(&d.max_raw),
            min_len: d.min_len,
            max_len: d.max_len,
        }),
        checks: Seq(|| r.checks.iter().map(|k| Check { field: k.field, agrees: k.agrees })),
        known_writer_bug: ty.has_known_stats_bug(),
        error,
    })
}
