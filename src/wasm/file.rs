//! `ColumnsFile`: an opened file. Opening reads the tail, header and footer
//! only; each column read fetches just that chunk's bytes.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use super::convert::{self, js_error, obj, opt_num, scalar, usage_error, JsColumn};
use super::now;
use super::registry::{self, RegistryArg, Shared};
use super::source::{Kind, Source};
use crate::codec::Decompressor;
use crate::error::Error;
use crate::file::{decode_footer, head_probe_range, read_prelude, tail_range, FileMeta};
use crate::inspect::{inspect_chunk, ChunkReport, EncodingDetail};
use crate::read::prepare;

/// Facts from a chunk's own 18-byte header, known once it has been read.
#[derive(Clone, Copy)]
struct ChunkHeader {
    raw_length: u32,
    block_count: u32,
}

struct Inner {
    meta: FileMeta,
    source: Source,
    registry: Shared,
    headers: RefCell<Vec<Vec<Option<ChunkHeader>>>>,
}

/// A `columns` file opened for reading.
#[wasm_bindgen]
pub struct ColumnsFile {
    inner: Rc<Inner>,
}

type JsResult<T> = Result<T, JsValue>;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** Any random-access byte source: an HTTP resource, a file handle, ... */
export interface AsyncBuffer {
  byteLength: number;
  slice(start: number, end: number): Promise<ArrayBuffer | Uint8Array> | ArrayBuffer | Uint8Array;
}
/** Thrown by every call that fails: `kind` is one of the core error kinds.
 *  `toJSON()` gives a plain object (errors cross postMessage that way). */
export interface ColumnsError extends Error {
  name: "ColumnsError";
  toJSON(): { name: string; message: string; kind: string; rowGroup: number | null; column: number | null; offset: number | null };
  kind: "truncated" | "bad_magic" | "unsupported_version" | "corrupt_footer" | "corrupt_chunk"
      | "unsupported_codec" | "unsupported_encoding" | "unknown_tokenizer" | "out_of_range"
      | "invalid_tokenizer" | "too_large" | "not_in_memory" | "bad_source" | "bad_argument";
  rowGroup: number | null;
  column: number | null;
  offset: number | null;
}
export type ColumnType = "bool" | "int8" | "int16" | "int32" | "int64" | "uint8" | "uint16" | "uint32"
  | "uint64" | "float32" | "float64" | "bytes" | "string";
/** A value as `Column.toArray()` gives it. */
export type Value = number | bigint | boolean | string | Uint8Array | null;
export interface SchemaColumn { name: string; type: ColumnType; nullable: boolean; }
export interface TokenizerRef { digest: string; resolved: boolean; }
export interface ChunkMeta {
  encoding: string; codec: string; encodingTag: number; codecTag: number;
  byteOffset: number; byteLength: number;
  /** From the chunk's own header: null until that chunk has been read (Blob and AsyncBuffer files). */
  rawLength: number | null; blockCount: number | null;
  nullCount: number; min: Value; max: Value; minRaw: Uint8Array; maxRaw: Uint8Array;
  minLen: number; maxLen: number; tokenizer: number; tokenizerDigest: string | null;
}
export interface RowGroupMeta { numRows: number; byteOffset: number; columns: ChunkMeta[]; }
export interface Region { kind: "header" | "chunk" | "footer" | "tail"; start: number; end: number; rowGroup?: number; column?: number; }
export interface Timings { readMs?: number; decompressMs: number; decodeMs: number; copyMs: number; totalMs: number; fromMemory: boolean; }
/** `reuse`: columns you are done with. The read refills their buffers
 *  instead of allocating new memory, and empties them (their `values`
 *  become null), so keep no reference to their arrays. */
export interface ReadOptions {
  reuse?: Column | Column[] | null;
  /** Bool columns come bit-packed (Arrow's layout, `Column.boolBits` true)
   *  instead of one byte per value. */
  boolBits?: boolean;
}
export interface Column {
  type: ColumnType; length: number; nullCount: number;
  values: Int8Array | Int16Array | Int32Array | BigInt64Array | Uint8Array | Uint16Array | Uint32Array
    | BigUint64Array | Float32Array | Float64Array | { offsets: Uint32Array; data: Uint8Array };
  validity: Uint8Array | null;
  /** true when a bool column's `values` are bit-packed (read with `{ boolBits: true }`). */
  boolBits: boolean;
  timings: Timings | null;
  isValid(row: number): boolean;
  toArray(): Value[];
  /** A bool column's values bit-packed (LSB first): `values` itself when
   *  `boolBits`, else a packed copy. */
  boolBitmap(): Uint8Array;
  /** Keeps this column's buffers out of `{ reuse }` for good (views on them stay valid). */
  pin(): this;
}
export interface ChunkReport {
  encoding: string; codec: string; nullBitmapLength: number; rawLength: number; dataLength: number;
  blocks: { rawLength: number; storedLength: number; offset: number }[];
  detail: Record<string, unknown> | null;
  decoded: { nullCount: number; min: Value; max: Value; minRaw: Uint8Array; maxRaw: Uint8Array; minLen: number; maxLen: number } | null;
  checks: { field: string; agrees: boolean }[];
  knownWriterBug: boolean;
  error: ColumnsError | null;
}
"#;

#[wasm_bindgen]
impl ColumnsFile {
    /// Opens a file held entirely in memory (copied into wasm memory once).
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(bytes: Vec<u8>, registry: Option<RegistryArg>) -> JsResult<ColumnsFile> {
        let registry = registry::from_arg(registry)?;
        let meta = FileMeta::from_bytes(&bytes).map_err(|e| js_error(&e))?;
        let file = ColumnsFile::new(meta, Source::new(Kind::Memory(bytes)), registry);
        // In memory the chunk headers cost nothing: learn them all now.
        let inner = file.inner.clone();
        for (g, rg) in inner.meta.row_groups.iter().enumerate() {
            for (c, cm) in rg.chunks.iter().enumerate() {
                if let Kind::Memory(b) = &inner.source.kind {
                    inner.note_header(g, c, &b[cm.offset as usize..(cm.offset + cm.byte_length) as usize]);
                }
            }
        }
        Ok(file)
    }

    /// Opens a `Blob` or `File`, reading only its tail, header and footer.
    #[wasm_bindgen(js_name = fromBlob, unchecked_return_type = "ColumnsFile")]
    pub async fn from_blob(
        #[wasm_bindgen(unchecked_param_type = "Blob")] blob: JsValue,
        registry: Option<RegistryArg>,
    ) -> JsResult<ColumnsFile> {
        let len = js_sys::Reflect::get(&blob, &"size".into())?
            .as_f64()
            .ok_or_else(|| usage_error("bad_source", "fromBlob needs a Blob or File"))?;
        open(Source::new(Kind::Blob(blob)), len, registry::from_arg(registry)?).await
    }

    /// Opens any `{ byteLength, slice(start, end) }` source, reading only
    /// its tail, header and footer.
    #[wasm_bindgen(js_name = fromAsyncBuffer, unchecked_return_type = "ColumnsFile")]
    pub async fn from_async_buffer(
        #[wasm_bindgen(unchecked_param_type = "AsyncBuffer")] source: JsValue,
        registry: Option<RegistryArg>,
    ) -> JsResult<ColumnsFile> {
        let len = js_sys::Reflect::get(&source, &"byteLength".into())?
            .as_f64()
            .ok_or_else(|| usage_error("bad_source", "the source needs a numeric byteLength"))?;
        open(Source::new(Kind::Async(source)), len, registry::from_arg(registry)?).await
    }

    /// Format version: 1 or 2.
    #[wasm_bindgen(getter)]
    pub fn version(&self) -> u8 {
        self.inner.meta.version()
    }

    /// File size in bytes.
    #[wasm_bindgen(getter, js_name = byteLength)]
    pub fn byte_length(&self) -> f64 {
        self.inner.meta.prelude.file_len as f64
    }

    /// Total rows over all row groups.
    #[wasm_bindgen(getter, js_name = numRows)]
    pub fn num_rows(&self) -> f64 {
        self.inner.meta.num_rows() as f64
    }

    #[wasm_bindgen(getter, js_name = headerLength)]
    pub fn header_length(&self) -> f64 {
        self.inner.meta.prelude.header_len as f64
    }

    #[wasm_bindgen(getter, js_name = footerOffset)]
    pub fn footer_offset(&self) -> f64 {
        self.inner.meta.prelude.footer_offset as f64
    }

    #[wasm_bindgen(getter, js_name = footerLength)]
    pub fn footer_length(&self) -> f64 {
        self.inner.meta.prelude.footer_len as f64
    }

    /// Bytes fetched from the source so far (0 for in-memory files).
    #[wasm_bindgen(getter, js_name = bytesRead)]
    pub fn bytes_read(&self) -> f64 {
        self.inner.source.bytes_read.get()
    }

    /// Range requests made to the source so far.
    #[wasm_bindgen(getter)]
    pub fn requests(&self) -> u32 {
        self.inner.source.requests.get()
    }

    /// Whether the whole file is in wasm memory (`fromBytes`).
    #[wasm_bindgen(getter, js_name = inMemory)]
    pub fn in_memory(&self) -> bool {
        self.inner.source.is_memory()
    }

    /// The header's tokenizer digests, in order, and whether each is registered.
    #[wasm_bindgen(getter, unchecked_return_type = "TokenizerRef[]")]
    pub fn tokenizers(&self) -> Array {
        let reg = self.inner.registry.borrow();
        convert::array(
            self.inner
                .meta
                .tokenizers
                .iter()
                .map(|d| obj(&[("digest", d.to_hex().into()), ("resolved", reg.has(d).into())])),
        )
    }

    #[wasm_bindgen(getter, unchecked_return_type = "SchemaColumn[]")]
    pub fn schema(&self) -> Array {
        convert::array(self.inner.meta.schema.iter().map(|s| {
            obj(&[("name", s.name_lossy().into()), ("type", s.ty.name().into()), ("nullable", s.nullable.into())])
        }))
    }

    #[wasm_bindgen(getter, js_name = rowGroups, unchecked_return_type = "RowGroupMeta[]")]
    pub fn row_groups(&self) -> Array {
        let inner = &self.inner;
        let headers = inner.headers.borrow();
        convert::array(inner.meta.row_groups.iter().enumerate().map(|(g, rg)| {
            let columns = convert::array(rg.chunks.iter().enumerate().map(|(c, cm)| {
                let ty = inner.meta.schema[c].ty;
                let (min, max) = inner.meta.chunk_stats(c, cm);
                let h = headers[g][c];
                obj(&[
                    (
                        "encoding",
                        cm.encoding()
                            .map_or_else(|| format!("unknown({})", cm.encoding_tag), |e| e.name().into())
                            .into(),
                    ),
                    (
                        "codec",
                        cm.codec().map_or_else(|| format!("unknown({})", cm.codec_tag), |c| c.name().into()).into(),
                    ),
                    ("encodingTag", cm.encoding_tag.into()),
                    ("codecTag", cm.codec_tag.into()),
                    ("byteOffset", (cm.offset as f64).into()),
                    ("byteLength", (cm.byte_length as f64).into()),
                    ("rawLength", opt_num(h.map(|h| h.raw_length))),
                    ("blockCount", opt_num(h.map(|h| h.block_count))),
                    ("nullCount", cm.null_count.into()),
                    ("min", scalar(ty, min)),
                    ("max", scalar(ty, max)),
                    ("minRaw", convert::bytes(&cm.min_raw)),
                    ("maxRaw", convert::bytes(&cm.max_raw)),
                    ("minLen", cm.min_len.into()),
                    ("maxLen", cm.max_len.into()),
                    ("tokenizer", cm.tokenizer.into()),
                    ("tokenizerDigest", inner.meta.chunk_digest(cm).map_or(JsValue::NULL, |d| d.to_hex().into())),
                ])
            }));
            obj(&[
                ("numRows", rg.num_rows.into()),
                ("byteOffset", (rg.byte_offset as f64).into()),
                ("columns", columns.into()),
            ])
        }))
    }

    /// The file's regions in order: header, every chunk, footer, tail.
    #[wasm_bindgen(getter, unchecked_return_type = "Region[]")]
    pub fn layout(&self) -> Array {
        let m = &self.inner.meta;
        let region = |kind: &str, start: u64, end: u64| {
            obj(&[("kind", kind.into()), ("start", (start as f64).into()), ("end", (end as f64).into())])
        };
        let mut out = vec![region("header", 0, m.prelude.header_len)];
        for (g, rg) in m.row_groups.iter().enumerate() {
            for (c, cm) in rg.chunks.iter().enumerate() {
                let r = region("chunk", cm.offset, cm.offset + cm.byte_length);
                let _ = js_sys::Reflect::set(&r, &"rowGroup".into(), &(g as u32).into());
                let _ = js_sys::Reflect::set(&r, &"column".into(), &(c as u32).into());
                out.push(r);
            }
        }
        let f = m.prelude.footer_range();
        out.push(region("footer", f.start, f.end));
        out.push(region("tail", f.end, m.prelude.file_len));
        convert::array(out)
    }

    /// Reads one column chunk. Synchronous: needs a `fromBytes` file.
    /// `options.reuse`: columns the caller is done with, whose buffers this
    /// read may refill instead of allocating.
    #[wasm_bindgen(js_name = readColumn)]
    pub fn read_column(
        &self,
        row_group: f64,
        column: f64,
        #[wasm_bindgen(unchecked_optional_param_type = "ReadOptions")] options: Option<JsValue>,
    ) -> JsResult<JsColumn> {
        let recycler = convert::recycler(&options.unwrap_or_default());
        self.read_one(row_group, column, &recycler)
    }

    /// Reads several chunks (all row groups / all columns when omitted),
    /// in row-group-major order. Synchronous: needs a `fromBytes` file.
    #[wasm_bindgen(js_name = readColumns, unchecked_return_type = "Column[]")]
    pub fn read_columns(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number[] | null | undefined")] row_groups: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number[] | null | undefined")] columns: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "ReadOptions")] options: Option<JsValue>,
    ) -> JsResult<Array> {
        let recycler = convert::recycler(&options.unwrap_or_default());
        let out = Array::new();
        for (g, c) in self.inner.selection(&row_groups, &columns)? {
            out.push(&self.read_one(g as f64, c as f64, &recycler)?.into());
        }
        Ok(out)
    }

    /// Reads one column chunk from any file, fetching only its byte range.
    #[wasm_bindgen(js_name = readColumnAsync, unchecked_return_type = "Promise<Column>")]
    pub fn read_column_async(
        &self,
        row_group: f64,
        column: f64,
        #[wasm_bindgen(unchecked_optional_param_type = "ReadOptions")] options: Option<JsValue>,
    ) -> Promise {
        let inner = self.inner.clone();
        // Taken now, so the columns handed back are released synchronously.
        let recycler = convert::recycler(&options.unwrap_or_default());
        future_to_promise(async move {
            let (g, c) = inner.coords(row_group, column)?;
            let t0 = now();
            let bytes = inner.fetch_chunk(g, c).await?;
            let read_ms = now() - t0;
            inner.decode(g, c, &bytes, Some(read_ms), &recycler).map(JsValue::from)
        })
    }

    /// Reads several chunks from any file, merging adjacent byte ranges
    /// into single requests. Resolves to columns in row-group-major order.
    #[wasm_bindgen(js_name = readColumnsAsync, unchecked_return_type = "Promise<Column[]>")]
    pub fn read_columns_async(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number[] | null | undefined")] row_groups: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number[] | null | undefined")] columns: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "ReadOptions")] options: Option<JsValue>,
    ) -> JsResult<Promise> {
        let inner = self.inner.clone();
        let picks = inner.selection(&row_groups, &columns)?;
        let recycler = convert::recycler(&options.unwrap_or_default());
        Ok(future_to_promise(async move {
            // Fetch each chunk once, in file order, so neighbours merge into
            // one request whatever order the caller asked in.
            let cols = inner.meta.schema.len();
            let mut wanted = vec![false; inner.meta.row_groups.len() * cols];
            for &(g, c) in &picks {
                wanted[g * cols + c] = true;
            }
            let order: Vec<usize> = (0..wanted.len()).filter(|&k| wanted[k]).collect();
            let ranges: Vec<_> =
                order.iter().map(|&k| inner.meta.row_groups[k / cols].chunks[k % cols].range()).collect();
            let t0 = now();
            let mut fetched: Vec<Option<Vec<u8>>> = vec![None; wanted.len()];
            for (k, bytes) in order.iter().zip(inner.fetch(&ranges).await?) {
                fetched[*k] = Some(bytes);
            }
            // One request may serve many columns: share its time evenly.
            let read_ms = (now() - t0) / order.len().max(1) as f64;
            let out = Array::new();
            for &(g, c) in &picks {
                let bytes = fetched[g * cols + c].as_deref().unwrap_or_default();
                out.push(&inner.decode(g, c, bytes, Some(read_ms), &recycler)?.into());
            }
            Ok(out.into())
        }))
    }

    /// Describes one chunk: its blocks, what its encoding did, and whether
    /// the footer's statistics agree with the decoded values.
    #[wasm_bindgen(js_name = inspectChunk, unchecked_return_type = "ChunkReport")]
    pub fn inspect_chunk(&self, row_group: f64, column: f64) -> JsResult<JsValue> {
        let (g, c) = self.inner.coords(row_group, column)?;
        let bytes = self.inner.memory_chunk(g, c)?;
        self.inner.report(g, c, bytes)
    }

    /// `inspectChunk` for any file, fetching the chunk's bytes.
    #[wasm_bindgen(js_name = inspectChunkAsync, unchecked_return_type = "Promise<ChunkReport>")]
    pub fn inspect_chunk_async(&self, row_group: f64, column: f64) -> Promise {
        let inner = self.inner.clone();
        future_to_promise(async move {
            let (g, c) = inner.coords(row_group, column)?;
            let bytes = inner.fetch_chunk(g, c).await?;
            inner.report(g, c, &bytes)
        })
    }

    /// Fetches the 18-byte header of every chunk not yet read, so
    /// `rowGroups` can report raw lengths and block counts.
    #[wasm_bindgen(js_name = loadChunkHeaders, unchecked_return_type = "Promise<void>")]
    pub fn load_chunk_headers(&self) -> Promise {
        let inner = self.inner.clone();
        future_to_promise(async move {
            let mut picks = Vec::new();
            for (g, rg) in inner.meta.row_groups.iter().enumerate() {
                for (c, cm) in rg.chunks.iter().enumerate() {
                    if inner.headers.borrow()[g][c].is_none() {
                        picks.push((g, c, cm.offset..cm.offset + cm.byte_length.min(18)));
                    }
                }
            }
            let ranges: Vec<_> = picks.iter().map(|p| p.2.clone()).collect();
            let heads = inner.fetch(&ranges).await?;
            for ((g, c, _), h) in picks.iter().zip(&heads) {
                inner.note_header(*g, *c, h);
            }
            Ok(JsValue::UNDEFINED)
        })
    }
}

impl ColumnsFile {
    fn new(meta: FileMeta, source: Source, registry: Shared) -> Self {
        let headers = meta.row_groups.iter().map(|rg| vec![None; rg.chunks.len()]).collect();
        ColumnsFile { inner: Rc::new(Inner { meta, source, registry, headers: RefCell::new(headers) }) }
    }

    /// One synchronous chunk read, from JS numbers.
    fn read_one(&self, row_group: f64, column: f64, recycler: &JsValue) -> JsResult<JsColumn> {
        let (g, c) = self.inner.coords(row_group, column)?;
        let bytes = self.inner.memory_chunk(g, c)?;
        self.inner.decode(g, c, bytes, None, recycler)
    }
}

/// Opens a file piecewise: head probe and tail together, then the rest of
/// the header and the footer together. Reads nothing else.
async fn open(source: Source, len: f64, registry: Shared) -> JsResult<ColumnsFile> {
    if !(len >= 0.0 && len.fract() == 0.0 && len < 9.0e15) {
        return Err(usage_error("bad_source", "byteLength must be a whole number of bytes"));
    }
    let len = len as u64;
    let (head, tail) = if len < 8 {
        (Vec::new(), Vec::new()) // read_prelude reports the truncation
    } else {
        let mut got = source.read_many(&[head_probe_range(len), tail_range(len)]).await?;
        let tail = got.pop().unwrap_or_default();
        (got.pop().unwrap_or_default(), tail)
    };
    let prelude = read_prelude(len, &head, &tail).map_err(|e| js_error(&e))?;
    let mut ranges = vec![prelude.footer_range()];
    if prelude.header_len > head.len() as u64 {
        ranges.push(head.len() as u64..prelude.header_len);
    }
    let mut got = source.read_many(&ranges).await?;
    let mut header = head;
    if got.len() == 2 {
        header.extend_from_slice(&got.pop().unwrap_or_default());
    }
    let footer_bytes = got.pop().unwrap_or_default();
    let digests = prelude.read_digests(&header).map_err(|e| js_error(&e))?;
    let footer = decode_footer(&footer_bytes).map_err(|e| js_error(&e.at_offset(prelude.footer_offset)))?;
    let meta = FileMeta::assemble(prelude, digests, footer).map_err(|e| js_error(&e))?;
    Ok(ColumnsFile::new(meta, source, registry))
}

impl Inner {
    async fn fetch(&self, ranges: &[core::ops::Range<u64>]) -> JsResult<Vec<Vec<u8>>> {
        self.source.read_many(ranges).await
    }

    /// One chunk's bytes, fetched from the source.
    async fn fetch_chunk(&self, g: usize, c: usize) -> JsResult<Vec<u8>> {
        let range = self.meta.chunk(g, c).map_err(|e| js_error(&e))?.range();
        Ok(self.fetch(&[range]).await?.pop().unwrap_or_default())
    }

    fn memory_chunk(&self, g: usize, c: usize) -> JsResult<&[u8]> {
        let Kind::Memory(file) = &self.source.kind else {
            return Err(usage_error(
                "not_in_memory",
                "this file was opened from a Blob or AsyncBuffer; use the Async methods",
            ));
        };
        self.meta.chunk_bytes(file, g, c).map_err(|e| js_error(&e))
    }

    fn note_header(&self, g: usize, c: usize, bytes: &[u8]) {
        if bytes.len() >= 18 {
            let u = |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
            self.headers.borrow_mut()[g][c] = Some(ChunkHeader { raw_length: u(6), block_count: u(14) });
        }
    }

    /// Decodes a chunk's bytes and hands the column to JS, timing each stage.
    fn decode(&self, g: usize, c: usize, bytes: &[u8], read_ms: Option<f64>, recycler: &JsValue) -> JsResult<JsColumn> {
        let t0 = now();
        self.note_header(g, c, bytes);
        let reg = self.registry.borrow();
        let p = prepare(&self.meta, g, c, bytes, &reg).map_err(|e| js_error(&e))?;
        let stream = p.decompress(&mut Decompressor::new()).map_err(|e| js_error(&e))?;
        let t1 = now();
        let col = p.decode(stream).map_err(|e| js_error(&e))?;
        let t2 = now();
        let js = convert::column(col, recycler);
        let t3 = now();
        let mut timings = vec![
            ("decompressMs", JsValue::from_f64(t1 - t0)),
            ("decodeMs", JsValue::from_f64(t2 - t1)),
            ("copyMs", JsValue::from_f64(t3 - t2)),
            ("totalMs", JsValue::from_f64(t3 - t0 + read_ms.unwrap_or(0.0))),
            ("fromMemory", self.source.is_memory().into()),
        ];
        if let Some(r) = read_ms {
            timings.push(("readMs", JsValue::from_f64(r)));
        }
        js.set_timings(obj(&timings));
        Ok(js)
    }

    fn report(&self, g: usize, c: usize, bytes: &[u8]) -> JsResult<JsValue> {
        self.note_header(g, c, bytes);
        let reg = self.registry.borrow();
        let r = inspect_chunk(&self.meta, g, c, bytes, &reg).map_err(|e| js_error(&e))?;
        let cm = &self.meta.row_groups[g].chunks[c];
        Ok(report_js(&r, self.meta.schema[c].ty, cm.offset))
    }

    /// A (row group, column) pair from JS numbers, checked.
    fn coords(&self, row_group: f64, column: f64) -> JsResult<(usize, usize)> {
        let whole = |v: f64| (v >= 0.0 && v.fract() == 0.0 && v <= u32::MAX as f64).then_some(v as u32);
        let index = |v: f64, what: &str, count: usize| {
            if let Some(i) = whole(v).filter(|&i| (i as usize) < count) {
                return Ok(i as usize);
            }
            let shown = String::from(js_sys::JSON::stringify(&JsValue::from_f64(v)).unwrap_or_default());
            let mut e = Error::new(
                crate::error::ErrorKind::OutOfRange,
                format!("{what} {shown} does not exist; the file has {count}"),
            );
            // Say where, when "where" is a place at all.
            (e.location.row_group, e.location.column) = (whole(row_group), whole(column));
            Err(js_error(&e))
        };
        Ok((
            index(row_group, "row group", self.meta.row_groups.len())?,
            index(column, "column", self.meta.schema.len())?,
        ))
    }

    /// (row group, column) pairs from optional index lists, checked.
    fn selection(&self, row_groups: &JsValue, columns: &JsValue) -> JsResult<Vec<(usize, usize)>> {
        let gs = indices(row_groups, self.meta.row_groups.len(), "row group")?;
        let cs = indices(columns, self.meta.schema.len(), "column")?;
        Ok(gs.iter().flat_map(|&g| cs.iter().map(move |&c| (g, c))).collect())
    }
}

fn indices(v: &JsValue, count: usize, what: &str) -> JsResult<Vec<usize>> {
    if v.is_undefined() || v.is_null() {
        return Ok((0..count).collect());
    }
    let arr = Array::from(v);
    let mut out = Vec::with_capacity(arr.length() as usize);
    for x in arr.iter() {
        match x.as_f64() {
            Some(i) if i >= 0.0 && i.fract() == 0.0 && (i as usize) < count => out.push(i as usize),
            _ => {
                return Err(js_error(&Error::new(
                    crate::error::ErrorKind::OutOfRange,
                    format!(
                        "{what} {} does not exist; the file has {count}",
                        String::from(js_sys::JSON::stringify(&x).unwrap_or_default())
                    ),
                )))
            }
        }
    }
    Ok(out)
}

fn report_js(r: &ChunkReport, ty: crate::types::ColumnType, chunk_offset: u64) -> JsValue {
    use crate::stats::Scalar;
    let blocks = convert::array(r.blocks.iter().map(|b| {
        obj(&[
            ("rawLength", b.raw_len.into()),
            ("storedLength", b.stored_len.into()),
            ("offset", ((chunk_offset + b.offset as u64) as f64).into()),
        ])
    }));
    let detail = r.detail.as_ref().map_or(JsValue::NULL, |d| match d {
        EncodingDetail::Plain => obj(&[("kind", "Plain".into())]),
        EncodingDetail::RleBitpack { trues } => {
            obj(&[("kind", "RLEBitpack".into()), ("trues", (*trues as f64).into())])
        }
        EncodingDetail::Delta { first, min_delta, max_delta } => obj(&[
            ("kind", "Delta".into()),
            ("first", first.map_or(JsValue::NULL, |v| js_sys::BigInt::from(v).into())),
            ("minDelta", min_delta.map_or(JsValue::NULL, |v| js_sys::BigInt::from(v).into())),
            ("maxDelta", max_delta.map_or(JsValue::NULL, |v| js_sys::BigInt::from(v).into())),
        ]),
        EncodingDetail::Dict { size, index_width, index_bytes, entry_bytes } => obj(&[
            ("kind", "Dict".into()),
            ("size", (*size as f64).into()),
            ("indexWidth", (*index_width).into()),
            ("indexBytes", (*index_bytes as f64).into()),
            ("entryBytes", (*entry_bytes as f64).into()),
        ]),
        EncodingDetail::OffsetBytes { data_bytes } => {
            obj(&[("kind", "OffsetBytes".into()), ("dataBytes", (*data_bytes as f64).into())])
        }
        EncodingDetail::Affix { prefix, suffix, middle_bytes } => obj(&[
            ("kind", "Affix".into()),
            ("prefix", convert::bytes(prefix)),
            ("suffix", convert::bytes(suffix)),
            ("middleBytes", (*middle_bytes as f64).into()),
        ]),
        EncodingDetail::Tokenized {
            representation,
            boundaries,
            values,
            tokens,
            escapes,
            table_len,
            bits_width,
            id_bytes,
        } => obj(&[
            ("kind", "Tokenized".into()),
            ("representation", (*representation).into()),
            ("boundaries", (*boundaries).into()),
            ("values", (*values as f64).into()),
            ("tokens", (*tokens as f64).into()),
            ("escapes", (*escapes as f64).into()),
            ("tableLength", (*table_len as f64).into()),
            ("bitsWidth", opt_num(*bits_width)),
            ("idBytes", (*id_bytes as f64).into()),
        ]),
    });
    let decoded = r.decoded.as_ref().map_or(JsValue::NULL, |d| {
        obj(&[
            ("nullCount", (d.null_count as f64).into()),
            ("min", scalar(ty, Scalar::decode(ty, &d.min_raw))),
            ("max", scalar(ty, Scalar::decode(ty, &d.max_raw))),
            ("minRaw", convert::bytes(&d.min_raw)),
            ("maxRaw", convert::bytes(&d.max_raw)),
            ("minLen", d.min_len.into()),
            ("maxLen", d.max_len.into()),
        ])
    });
    let checks =
        convert::array(r.checks.iter().map(|k| obj(&[("field", k.field.into()), ("agrees", k.agrees.into())])));
    obj(&[
        ("encoding", r.encoding.name().into()),
        ("codec", r.codec.name().into()),
        ("nullBitmapLength", (r.null_bitmap_len as f64).into()),
        ("rawLength", r.raw_length.into()),
        ("dataLength", r.data_length.into()),
        ("blocks", blocks.into()),
        ("detail", detail),
        ("decoded", decoded),
        ("checks", checks.into()),
        ("knownWriterBug", ty.has_known_stats_bug().into()),
        ("error", r.error.as_ref().map_or(JsValue::NULL, js_error)),
    ])
}
