//! `ColumnsFile`: an opened file. Opening reads the tail, header and footer
//! only; each column read fetches just that chunk's bytes.

use core::ops::Range;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Array, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::convert::{self, describe, js_error, usage_error, with_cause, JsColumn};
use super::objects::{self, ChunkHeader, Seq};
use super::registry::{self, RegistryArg, Shared};
use super::scoped::RowGroupBuffers;
use super::source::{self, Fetch, Kind, Source};
use super::{now, promise};
use crate::codec::Decompressor;
use crate::error::{Error, ErrorKind};
use crate::file::{decode_footer, head_probe_range, read_prelude, tail_range, FileMeta, Prelude};
use crate::inspect::inspect_chunk;
use crate::plan;
use crate::read::prepare;

pub(super) struct Inner {
    pub(super) meta: FileMeta,
    pub(super) source: Source,
    pub(super) registry: Shared,
    /// Chunk headers seen so far, by chunk (row group * columns + column).
    headers: RefCell<Vec<Option<ChunkHeader>>>,
    /// The scoped read's buffers (made by the first), and whether a
    /// callback holds views of them now.
    pub(super) scoped: RefCell<Option<RowGroupBuffers>>,
    pub(super) scope_open: Cell<bool>,
    /// Inflate and LZW state kept from chunk to chunk, as the native reader
    /// keeps it: a new one per chunk zeroed 24 KB of tables each time.
    dec: RefCell<Decompressor>,
}

/// A `columns` file opened for reading.
#[wasm_bindgen]
pub struct ColumnsFile {
    pub(super) inner: Rc<Inner>,
}

pub(super) type JsResult<T> = Result<T, JsValue>;

#[wasm_bindgen]
impl ColumnsFile {
    /// Opens a file held entirely in memory. The bytes stay where they are,
    /// on the JavaScript side (a reference, not a copy): each read copies
    /// one chunk into wasm memory. Do not change them while the file is
    /// open; if their buffer is detached, reads fail with `bad_source`.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(
        #[wasm_bindgen(unchecked_param_type = "Bytes")] bytes: JsValue,
        registry: Option<RegistryArg>,
    ) -> JsResult<ColumnsFile> {
        let registry = registry::from_arg(registry)?;
        let view = bytes_arg(&bytes, "fromBytes", "a file's bytes")?;
        let source = Source::new(Kind::Memory(view.clone()), source::view_len(&view));
        let len = source.len;
        let (head, tail) = if len < 8 {
            (Vec::new(), Vec::new()) // read_prelude reports the truncation
        } else {
            (source.copy(head_probe_range(len))?, source.copy(tail_range(len))?)
        };
        let prelude = read_prelude(len, &head, &tail).map_err(|e| js_error(&e))?;
        let (header, footer) = metadata_ranges(&prelude, head.len())?;
        let header = match header {
            Some(_) => source.copy(prelude.header_range())?,
            None => head,
        };
        let meta = assemble(prelude, &header, &source.copy(footer)?)?;
        ColumnsFile::new(meta, source, registry)
    }

    /// Opens a `Blob` or `File`, reading only its tail, header and footer.
    #[wasm_bindgen(js_name = fromBlob, unchecked_return_type = "Promise<ColumnsFile>")]
    pub fn from_blob(
        #[wasm_bindgen(unchecked_param_type = "Blob")] blob: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "TokenizerRegistry | null")] registry: Option<RegistryArg>,
        #[wasm_bindgen(unchecked_optional_param_type = "AbortOptions")] options: Option<JsValue>,
    ) -> Promise {
        // Not an `async fn`: wasm-bindgen would give each its own promise glue.
        promise(async move {
            let registry = registry::from_arg(registry)?;
            let signal = signal_of(&options.unwrap_or_default())?;
            let len = source_len(&blob, "size", "fromBlob needs a Blob or File")?;
            let kind = match blob.dyn_into::<web_sys::Blob>() {
                Ok(blob) => Kind::Blob(blob),
                Err(like) => Kind::BlobLike(like),
            };
            open(Source::new(kind, len), registry, signal).await.map(JsValue::from)
        })
    }

    /// Opens any `{ byteLength, slice(start, end) }` source, reading only
    /// its tail, header and footer.
    #[wasm_bindgen(js_name = fromAsyncBuffer, unchecked_return_type = "Promise<ColumnsFile>")]
    pub fn from_async_buffer(
        #[wasm_bindgen(unchecked_param_type = "AsyncBuffer")] source: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "TokenizerRegistry | null")] registry: Option<RegistryArg>,
        #[wasm_bindgen(unchecked_optional_param_type = "AbortOptions")] options: Option<JsValue>,
    ) -> Promise {
        promise(async move {
            let registry = registry::from_arg(registry)?;
            let signal = signal_of(&options.unwrap_or_default())?;
            let len =
                source_len(&source, "byteLength", "fromAsyncBuffer needs a { byteLength, slice(start, end) } object")?;
            open(Source::new(Kind::Async(source), len), registry, signal).await.map(JsValue::from)
        })
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

    /// Whether the file was opened from bytes in memory (`fromBytes`), so
    /// the synchronous reads work.
    #[wasm_bindgen(getter, js_name = inMemory)]
    pub fn in_memory(&self) -> bool {
        self.inner.source.is_memory()
    }

    /// The header's tokenizer digests, in order, and whether each is registered.
    #[wasm_bindgen(getter, unchecked_return_type = "TokenizerRef[]")]
    pub fn tokenizers(&self) -> JsResult<JsValue> {
        let reg = self.inner.registry.borrow();
        objects::to_js(&Seq(|| {
            self.inner
                .meta
                .tokenizers
                .iter()
                .map(|d| objects::TokenizerRef { digest: d.to_hex(), resolved: reg.has(d) })
        }))
    }

    #[wasm_bindgen(getter, unchecked_return_type = "SchemaColumn[]")]
    pub fn schema(&self) -> JsResult<JsValue> {
        objects::to_js(&Seq(|| {
            self.inner.meta.schema.iter().map(|s| objects::SchemaColumn {
                name: s.name_lossy(),
                ty: s.ty.name(),
                nullable: s.nullable,
            })
        }))
    }

    #[wasm_bindgen(getter, js_name = rowGroups, unchecked_return_type = "RowGroupMeta[]")]
    pub fn row_groups(&self) -> JsResult<Array> {
        let inner = &self.inner;
        // From memory the chunk headers cost nothing: learn the missing ones now.
        if inner.source.memory().ok().flatten().is_some() {
            for (g, rg) in inner.meta.row_groups.iter().enumerate() {
                for (c, cm) in rg.chunks.iter().enumerate() {
                    if inner.header(g, c).is_none() {
                        if let Ok(h) = inner.source.copy(cm.offset..cm.offset + cm.byte_length.min(18)) {
                            inner.note_header(g, c, &h);
                        }
                    }
                }
            }
        }
        let out = Array::new();
        for (g, rg) in inner.meta.row_groups.iter().enumerate() {
            out.push(&objects::row_group(&inner.meta, rg, |c| inner.header(g, c))?);
        }
        Ok(out)
    }

    /// The file's regions in order: header, every chunk, footer, tail.
    #[wasm_bindgen(getter, unchecked_return_type = "Region[]")]
    pub fn layout(&self) -> JsResult<JsValue> {
        objects::layout(&self.inner.meta)
    }

    /// Reads one column chunk. Synchronous: needs a `fromBytes` file.
    /// `options.reuse`: columns the caller is done with, whose buffers this
    /// read may refill instead of allocating.
    #[wasm_bindgen(js_name = readColumn)]
    pub fn read_column(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] row_group: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] column: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "ReadOptions")] options: Option<JsValue>,
    ) -> JsResult<JsColumn> {
        let (g, c) = self.inner.coords(&row_group, &column)?;
        let recycler = read_options(&options.unwrap_or_default())?.0;
        self.inner.read_memory(g, c, &recycler)
    }

    /// Reads several chunks (all row groups / all columns when omitted),
    /// in row-group-major order. Synchronous: needs a `fromBytes` file.
    /// Each list holds at most as many indexes as the file has row groups
    /// (columns); an index may repeat.
    #[wasm_bindgen(js_name = readColumns, unchecked_return_type = "Column[]")]
    pub fn read_columns(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "number[] | null")] row_groups: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "number[] | null")] columns: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "ReadOptions")] options: Option<JsValue>,
    ) -> JsResult<Array> {
        let picks = self.inner.selection(&row_groups.unwrap_or_default(), &columns.unwrap_or_default())?;
        let recycler = read_options(&options.unwrap_or_default())?.0;
        self.inner.source.copy(0..0)?; // not_in_memory before anything else
        let out = Array::new();
        for (g, c) in picks {
            out.push(&self.inner.read_memory(g, c, &recycler)?.into());
        }
        Ok(out)
    }

    /// Reads one column chunk from any file, fetching only its byte range.
    #[wasm_bindgen(js_name = readColumnAsync, unchecked_return_type = "Promise<Column>")]
    pub fn read_column_async(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] row_group: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] column: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "ReadOptions")] options: Option<JsValue>,
    ) -> Promise {
        let inner = self.inner.clone();
        // Taken now, so the columns handed back are released synchronously.
        let opts = read_options(&options.unwrap_or_default());
        let coords = inner.coords(&row_group, &column);
        promise(async move {
            let (recycler, signal) = opts?;
            let (g, c) = coords?;
            let t0 = now();
            let bytes = inner.fetch_chunk(g, c, &signal).await?;
            let read_ms = now() - t0;
            inner.decode(g, c, &bytes, Some(read_ms), &recycler).map(JsValue::from)
        })
    }

    /// Reads several chunks from any file; resolves to columns in
    /// row-group-major order. Index lists as for `readColumns`.
    ///
    /// Chunks are fetched in file order by `crate::plan`: neighbours merge
    /// into requests of at most 32 MiB (a larger chunk alone), at most
    /// 64 MiB (8 requests) are in flight, and each chunk is decoded and
    /// handed to JS as its request arrives, then dropped. So besides the
    /// columns it returns, the read holds at most max(64 MiB, the largest
    /// chunk) of fetched bytes, and wasm memory one chunk and its column.
    #[wasm_bindgen(js_name = readColumnsAsync, unchecked_return_type = "Promise<Column[]>")]
    pub fn read_columns_async(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "number[] | null")] row_groups: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "number[] | null")] columns: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "ReadOptions")] options: Option<JsValue>,
    ) -> Promise {
        let inner = self.inner.clone();
        // Checked now (the columns handed back are released synchronously);
        // a failure rejects the promise, as every async method's does.
        let picks = inner.selection(&row_groups.unwrap_or_default(), &columns.unwrap_or_default());
        let opts = read_options(&options.unwrap_or_default());
        promise(async move {
            let (picks, (recycler, signal)) = (picks?, opts?);
            inner.read_picks(&picks, &recycler, &signal).await.map(JsValue::from)
        })
    }

    /// The pool's argument checks (js/pool.js), so that they are this
    /// file's: `readColumnsAsync(rowGroups, columns, options)`'s, in its
    /// order. Returns the options' signal (`undefined` or an AbortSignal).
    #[wasm_bindgen(js_name = __check, skip_typescript)]
    pub fn check(&self, row_groups: JsValue, columns: JsValue, options: JsValue) -> JsResult<JsValue> {
        self.inner.selection(&row_groups, &columns)?;
        signal_of(&options)
    }

    /// Describes one chunk: its blocks, what its encoding did, and whether
    /// the footer's statistics agree with the decoded values.
    #[wasm_bindgen(js_name = inspectChunk, unchecked_return_type = "ChunkReport")]
    pub fn inspect_chunk(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] row_group: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] column: JsValue,
    ) -> JsResult<JsValue> {
        let (g, c) = self.inner.coords(&row_group, &column)?;
        let bytes = self.inner.memory_chunk(g, c)?;
        self.inner.report(g, c, &bytes)
    }

    /// `inspectChunk` for any file, fetching the chunk's bytes.
    #[wasm_bindgen(js_name = inspectChunkAsync, unchecked_return_type = "Promise<ChunkReport>")]
    pub fn inspect_chunk_async(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] row_group: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] column: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "AbortOptions")] options: Option<JsValue>,
    ) -> Promise {
        let inner = self.inner.clone();
        let signal = signal_of(&options.unwrap_or_default());
        let coords = inner.coords(&row_group, &column);
        promise(async move {
            let signal = signal?;
            let (g, c) = coords?;
            let bytes = inner.fetch_chunk(g, c, &signal).await?;
            inner.report(g, c, &bytes)
        })
    }

    /// Fetches the 18-byte header of every chunk not yet read, so
    /// `rowGroups` can report raw lengths and block counts.
    #[wasm_bindgen(js_name = loadChunkHeaders, unchecked_return_type = "Promise<void>")]
    pub fn load_chunk_headers(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "AbortOptions")] options: Option<JsValue>,
    ) -> Promise {
        let inner = self.inner.clone();
        let signal = signal_of(&options.unwrap_or_default());
        promise(async move {
            let signal = signal?;
            let cols = inner.meta.schema.len();
            let mut picks = try_vec::<usize>(inner.meta.row_groups.len() * cols)?;
            let mut ranges = try_vec(picks.capacity())?;
            for (g, rg) in inner.meta.row_groups.iter().enumerate() {
                for (c, cm) in rg.chunks.iter().enumerate() {
                    if inner.header(g, c).is_none() {
                        picks.push(g * cols + c);
                        ranges.push(cm.offset..cm.offset + cm.byte_length.min(18));
                    }
                }
            }
            let mut fetch = Fetch::new(&inner.source, &ranges, signal);
            while let Some(part) =
                fetch.next().await.map_err(|e| fetch.locate(e, |i| (picks[i] / cols, picks[i] % cols)))?
            {
                let k = picks[part.index];
                inner.note_header(k / cols, k % cols, &part.bytes);
            }
            Ok(JsValue::UNDEFINED)
        })
    }
}

/// Header length beyond which a file is refused before its header is
/// fetched: two million tokenizer digests. (Footers have their own cap,
/// `MAX_FOOTER_LEN`.)
const MAX_HEADER_LEN: u64 = 64 << 20;

/// An empty `Vec` with room for `n`, or `too_large`.
pub(super) fn try_vec<T>(n: usize) -> JsResult<Vec<T>> {
    let mut v = Vec::new();
    match v.try_reserve_exact(n) {
        Ok(()) => Ok(v),
        Err(_) => Err(no_room()),
    }
}

#[inline(never)]
fn no_room() -> JsValue {
    usage_error("too_large", "the list of chunks to read does not fit in wasm memory")
}

/// The bytes a caller passed, viewed (not copied), or `bad_argument`.
pub(crate) fn bytes_arg(v: &JsValue, method: &str, what: &str) -> JsResult<source::View> {
    source::byte_view(v)
        .map_err(|e| {
            with_cause("bad_argument", &format!("{method} cannot read the buffer it was given (detached?)"), e)
        })?
        .ok_or_else(|| {
            usage_error(
                "bad_argument",
                &format!(
                    "{method} takes {what} as a Uint8Array, ArrayBuffer or other ArrayBufferView; got {}",
                    describe(v)
                ),
            )
        })
}

/// A source's length property, checked to be a whole number of bytes.
fn source_len(source: &JsValue, property: &str, usage: &str) -> JsResult<u64> {
    if source.is_null() || source.is_undefined() || !(source.is_object() || source.is_function()) {
        return Err(usage_error("bad_source", &format!("{usage}; got {}", describe(source))));
    }
    let len = Reflect::get(source, &property.into())
        .map_err(|e| with_cause("bad_source", &format!("reading the source's {property} threw"), e))?;
    match len.as_f64() {
        Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= MAX_SAFE_INTEGER => Ok(n as u64),
        _ => Err(usage_error(
            "bad_source",
            &format!("the source's {property} must be a whole number of bytes; it is {}", describe(&len)),
        )),
    }
}

const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// The `signal` of an options object: undefined, or an AbortSignal.
pub(super) fn signal_of(options: &JsValue) -> JsResult<JsValue> {
    if options.is_undefined() || options.is_null() {
        return Ok(JsValue::UNDEFINED);
    }
    if !options.is_object() {
        return Err(usage_error("bad_argument", &format!("options must be an object; got {}", describe(options))));
    }
    let signal = Reflect::get(options, &"signal".into())
        .map_err(|e| with_cause("bad_argument", "reading options.signal threw", e))?;
    if signal.is_undefined() || signal.is_null() {
        return Ok(JsValue::UNDEFINED);
    }
    if !signal.is_instance_of::<web_sys::AbortSignal>() {
        return Err(usage_error(
            "bad_argument",
            &format!("options.signal must be an AbortSignal; got {}", describe(&signal)),
        ));
    }
    Ok(signal)
}

/// A read's options: the buffers it may refill, and its abort signal.
pub(super) fn read_options(options: &JsValue) -> JsResult<(JsValue, JsValue)> {
    let signal = signal_of(options)?;
    Ok((convert::reuse_of(options)?, signal))
}

/// The ranges an open fetches once it knows the prelude: the rest of the
/// header (if the head probe did not hold it all) and the footer.
fn metadata_ranges(prelude: &Prelude, have: usize) -> JsResult<(Option<Range<u64>>, Range<u64>)> {
    if prelude.header_len > MAX_HEADER_LEN {
        return Err(js_error(&Error::new(
            ErrorKind::TooLarge,
            format!(
                "a header of {} bytes ({} tokenizer digests) exceeds the {MAX_HEADER_LEN} bytes this reader accepts",
                prelude.header_len, prelude.tokenizer_count
            ),
        )));
    }
    let header = (prelude.header_len > have as u64).then_some(have as u64..prelude.header_len);
    Ok((header, prelude.footer_range()))
}

fn assemble(prelude: Prelude, header: &[u8], footer: &[u8]) -> JsResult<FileMeta> {
    let digests = prelude.read_digests(header).map_err(|e| js_error(&e))?;
    let footer = decode_footer(footer).map_err(|e| js_error(&e.at_offset(prelude.footer_offset)))?;
    FileMeta::assemble(prelude, digests, footer).map_err(|e| js_error(&e))
}

/// Opens a file piecewise: head probe and tail together, then the rest of
/// the header and the footer together. Reads nothing else. A short file is
/// read whole as its head, footer included (`plan::open_head`), and kept:
/// its reads take their chunks from a copy of it (`Kind::Held`).
async fn open(mut source: Source, registry: Shared, signal: JsValue) -> JsResult<ColumnsFile> {
    let len = source.len;
    let (head, tail) = if len < 8 {
        (Vec::new(), Vec::new()) // read_prelude reports the truncation
    } else {
        let mut got = source.read_all(&[plan::open_head(len), tail_range(len)], &signal).await?;
        let tail = got.pop().unwrap_or_default();
        (got.pop().unwrap_or_default(), tail)
    };
    let prelude = read_prelude(len, &head, &tail).map_err(|e| js_error(&e))?;
    let (header, footer) = metadata_ranges(&prelude, head.len())?;
    let (header, footer) = match header {
        Some(rest) => {
            let mut got = source.read_all(&[rest, footer], &signal).await?;
            let footer = got.pop().unwrap_or_default();
            let mut header = head;
            header
                .try_reserve_exact(got[0].len())
                .map_err(|_| usage_error("too_large", "the header does not fit in wasm memory"))?;
            header.extend_from_slice(&got[0]);
            (header, footer)
        }
        None => {
            // (Only a short file, read whole, holds its footer in its head: its offsets fit in usize.)
            let footer = match head.get(footer.start as usize..footer.end as usize) {
                Some(within) if head.len() as u64 == len => within.to_vec(),
                _ => source.read(footer, &signal).await?,
            };
            (head, footer)
        }
    };
    let meta = assemble(prelude, &header, &footer)?;
    if header.len() as u64 == len {
        // Read whole: its chunks are here too (at most 8 KiB and 17 bytes),
        // and the source need not be asked again (nor kept).
        source.kind = Kind::Held(js_sys::Uint8Array::from(&header[..]).unchecked_into());
    }
    ColumnsFile::new(meta, source, registry)
}

impl ColumnsFile {
    fn new(meta: FileMeta, source: Source, registry: Shared) -> JsResult<Self> {
        let chunks = meta.row_groups.len() * meta.schema.len();
        let mut headers = try_vec(chunks)?;
        headers.resize(chunks, None);
        let (scoped, scope_open) = (RefCell::new(None), Cell::new(false));
        Ok(ColumnsFile {
            inner: Rc::new(Inner {
                meta,
                source,
                registry,
                headers: RefCell::new(headers),
                scoped,
                scope_open,
                dec: RefCell::default(),
            }),
        })
    }
}

impl Inner {
    /// One chunk's bytes, fetched from the source; a source's failure is
    /// located at the chunk too.
    async fn fetch_chunk(&self, g: usize, c: usize, signal: &JsValue) -> JsResult<Vec<u8>> {
        self.source.read(self.meta.row_groups[g].chunks[c].range(), signal).await.map_err(|e| source::located(e, g, c))
    }

    /// One chunk's bytes from a `fromBytes` file, copied into wasm memory.
    pub(super) fn memory_chunk(&self, g: usize, c: usize) -> JsResult<Vec<u8>> {
        self.source.copy(self.meta.row_groups[g].chunks[c].range())
    }

    fn read_memory(&self, g: usize, c: usize, recycler: &JsValue) -> JsResult<JsColumn> {
        let bytes = self.memory_chunk(g, c)?;
        self.decode(g, c, &bytes, None, recycler)
    }

    /// Reads the chunks `picks` names (in that order; repeats allowed):
    /// fetched once each in file order, each decoded as it arrives.
    async fn read_picks(&self, picks: &[(usize, usize)], recycler: &JsValue, signal: &JsValue) -> JsResult<Array> {
        // Output slots grouped by chunk (a counting sort on the chunk's
        // file-order number), so each chunk is fetched once.
        let cols = self.meta.schema.len();
        let chunks = self.meta.row_groups.len() * cols;
        let mut first = try_vec::<u32>(chunks + 1)?;
        first.resize(chunks + 1, 0);
        for &(g, c) in picks {
            first[g * cols + c + 1] += 1;
        }
        for k in 0..chunks {
            first[k + 1] += first[k];
        }
        let mut slots = try_vec::<u32>(picks.len())?;
        slots.resize(picks.len(), 0);
        let mut fill = try_vec::<u32>(chunks)?;
        fill.extend_from_slice(&first[..chunks]);
        for (i, &(g, c)) in picks.iter().enumerate() {
            let k = g * cols + c;
            slots[fill[k] as usize] = i as u32;
            fill[k] += 1;
        }
        drop(fill);
        let wanted = (0..chunks).filter(|&k| first[k + 1] > first[k]);
        let mut order = try_vec::<usize>(wanted.clone().count())?;
        order.extend(wanted);
        let mut ranges = try_vec(order.len())?;
        ranges.extend(order.iter().map(|&k| self.meta.row_groups[k / cols].chunks[k % cols].range()));

        let out = Array::new_with_length(picks.len() as u32);
        let mut fetch = Fetch::new(&self.source, &ranges, signal.clone());
        while let Some(part) =
            fetch.next().await.map_err(|e| fetch.locate(e, |i| (order[i] / cols, order[i] % cols)))?
        {
            let k = order[part.index];
            for &slot in &slots[first[k] as usize..first[k + 1] as usize] {
                let col = self.decode(k / cols, k % cols, &part.bytes, Some(part.read_ms), recycler)?;
                out.set(slot, col.into());
            }
        }
        Ok(out)
    }

    fn header(&self, g: usize, c: usize) -> Option<ChunkHeader> {
        self.headers.borrow().get(g * self.meta.schema.len() + c).copied().flatten()
    }

    pub(super) fn note_header(&self, g: usize, c: usize, bytes: &[u8]) {
        if bytes.len() >= 18 {
            let u = |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
            if let Some(h) = self.headers.borrow_mut().get_mut(g * self.meta.schema.len() + c) {
                *h = Some(ChunkHeader { raw_length: u(6), block_count: u(14) });
            }
        }
    }

    /// Decodes a chunk's bytes and hands the column to JS, timing each stage.
    /// (Out of line: three readers call it.)
    #[inline(never)]
    pub(super) fn decode(
        &self,
        g: usize,
        c: usize,
        bytes: &[u8],
        read_ms: Option<f64>,
        recycler: &JsValue,
    ) -> JsResult<JsColumn> {
        let t0 = now();
        self.note_header(g, c, bytes);
        let reg = self.registry.borrow();
        let p = prepare(&self.meta, g, c, bytes, &reg).map_err(|e| js_error(&e))?;
        // A read that is already decompressing (none can be: nothing in
        // between calls JS) would get a state of its own, never a panic.
        let stream = match self.dec.try_borrow_mut() {
            Ok(mut dec) => p.decompress(&mut dec),
            Err(_) => p.decompress(&mut Decompressor::new()),
        }
        .map_err(|e| js_error(&e))?;
        let t1 = now();
        let col = p.decode(stream).map_err(|e| js_error(&e))?;
        let t2 = now();
        let js = convert::column(col, recycler, g, c)?;
        let t3 = now();
        js.set_timings(read_ms, t1 - t0, t2 - t1, t3 - t2, t3 - t0 + read_ms.unwrap_or(0.0), self.source.is_memory());
        Ok(js)
    }

    fn report(&self, g: usize, c: usize, bytes: &[u8]) -> JsResult<JsValue> {
        self.note_header(g, c, bytes);
        let reg = self.registry.borrow();
        let r = inspect_chunk(&self.meta, g, c, bytes, &reg).map_err(|e| js_error(&e))?;
        let cm = &self.meta.row_groups[g].chunks[c];
        let error = r.error.as_ref().map_or(JsValue::NULL, js_error);
        objects::report(&r, self.meta.schema[c].ty, cm.offset, error)
    }

    /// A (row group, column) pair from JS values, checked.
    pub(super) fn coords(&self, row_group: &JsValue, column: &JsValue) -> JsResult<(usize, usize)> {
        let g = index(row_group, "row group", self.meta.row_groups.len(), "")?;
        let c = index(column, "column", self.meta.schema.len(), "")?;
        match (g, c) {
            (Ok(g), Ok(c)) => Ok((g, c)),
            (g, c) => {
                // (Both out of range: the row group's is said.)
                let e = g.and(c).err().map(|e| e.message).unwrap_or_default();
                Err(convert::out_of_range(&e, whole(row_group), whole(column)))
            }
        }
    }

    /// (row group, column) pairs from optional index lists, checked before
    /// anything is read: each list is an array of at most as many indexes
    /// as the file has row groups (columns), so the product is at most the
    /// file's chunk count.
    fn selection(&self, row_groups: &JsValue, columns: &JsValue) -> JsResult<Vec<(usize, usize)>> {
        let gs = indices(row_groups, self.meta.row_groups.len(), "row group")?;
        let cs = indices(columns, self.meta.schema.len(), "column")?;
        let mut out = try_vec(gs.len() * cs.len())?;
        out.extend(gs.iter().flat_map(|&g| cs.iter().map(move |&c| (g, c))));
        Ok(out)
    }
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn is_array(v: &JsValue) -> Result<bool, JsValue>;
}

/// A whole number that fits in u32, as a JS number.
pub(super) fn whole(v: &JsValue) -> Option<u32> {
    v.as_f64().filter(|&v| v >= 0.0 && v.fract() == 0.0 && v <= u32::MAX as f64).map(|v| v as u32)
}

/// An index argument: `bad_argument` when it is not a number at all, else
/// an `out_of_range` core error (the inner result) when no such item exists.
pub(super) fn index(v: &JsValue, what: &str, count: usize, place: &str) -> JsResult<Result<usize, Error>> {
    let Some(n) = v.as_f64() else {
        return Err(usage_error("bad_argument", &format!("{what}{place} must be a number; got {}", describe(v))));
    };
    if let Some(i) = whole(v).filter(|&i| (i as usize) < count) {
        return Ok(Ok(i as usize));
    }
    let n = convert::number(n);
    Ok(Err(Error::new(ErrorKind::OutOfRange, format!("{what} {n}{place} does not exist; the file has {count}"))))
}

/// [`index`] with its `out_of_range` as a JS error located where the index
/// points (its `rowGroup` or `column`: `what` says which), when it is a
/// place at all, as `readColumn`'s are.
pub(super) fn located_index(v: &JsValue, what: &str, count: usize, place: &str) -> JsResult<usize> {
    // (Its message names the index already: no place after it.)
    index(v, what, count, place)?.map_err(|e| {
        let at = whole(v);
        let (g, c) = if what == "column" { (None, at) } else { (at, None) };
        convert::out_of_range(&e.message, g, c)
    })
}

/// An optional list of indexes, checked: `undefined`/`null` for all `count`.
pub(super) fn indices(v: &JsValue, count: usize, what: &str) -> JsResult<Vec<usize>> {
    let mut out = Vec::new();
    indices_into(v, count, what, &mut out)?;
    Ok(out)
}

/// [`indices`] into `out`, replacing what it held (allocating only when it
/// has room for fewer).
pub(super) fn indices_into(v: &JsValue, count: usize, what: &str, out: &mut Vec<usize>) -> JsResult<()> {
    out.clear();
    if v.is_undefined() || v.is_null() {
        out.try_reserve_exact(count).map_err(|_| no_room())?;
        out.extend(0..count);
        return Ok(());
    }
    let bad = |m: String| usage_error("bad_argument", &m);
    if !is_array(v).map_err(|e| with_cause("bad_argument", &format!("the {what} list cannot be read"), e))? {
        return Err(bad(format!(
            "the {what}s to read must be an array of indexes, null or undefined; got {}",
            describe(v)
        )));
    }
    let len = Reflect::get(v, &"length".into())
        .map_err(|e| with_cause("bad_argument", &format!("the {what} list cannot be read"), e))?
        .as_f64()
        .unwrap_or(f64::NAN);
    if !(len >= 0.0 && len <= count as f64) {
        return Err(bad(format!(
            "{} {what}s asked for, but the file has {count}: a list may repeat an index, not be longer than that",
            convert::number(len)
        )));
    }
    out.try_reserve_exact(len as usize).map_err(|_| no_room())?;
    for i in 0..len as u32 {
        let x = Reflect::get_u32(v, i)
            .map_err(|e| with_cause("bad_argument", &format!("the {what} list cannot be read at {i}"), e))?;
        out.push(located_index(&x, what, count, &format!(" (position {i} of the list)"))?);
    }
    Ok(())
}
