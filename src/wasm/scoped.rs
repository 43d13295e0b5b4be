//! Reads that lend views instead of copies, and streaming over row groups.
//!
//! A scoped read decodes a row group's columns into buffers the file keeps
//! (`crate::reuse`) and tells JS where they are; `js/scoped.js` wraps them
//! in views for one callback and takes them back when it returns. Only one
//! scope per file is open at a time: a second is refused (`busy`), since
//! it would overwrite what the first callback is reading.
//!
//! Streaming runs as one future per iteration: it fetches the chunks of the
//! row groups asked for through [`Fetch`] (so at most the read-ahead window
//! of bytes is requested and not yet consumed), decodes one row group at a
//! time, hands it to the iterator (`deliver`) and waits until the iterator
//! asks for the next one. Its buffers live in the future and go when it
//! ends, early or not.

use std::rc::Rc;

use js_sys::{Array, Function, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::convert::{self, describe, js_error, places, usage_error, with_cause};
use super::file::{indices_into, located_index, signal_of, try_vec, ColumnsFile, Inner, JsResult};
use super::source::{aborted, copy_into, is_aborted, Fetch, PartView, View};
use crate::column::Column;
use crate::plan::{self, Window};
use crate::reuse::{ColumnBuffers, Scratch};

/// The buffers one row group's columns are decoded into, kept from read to
/// read, and the lists that say which columns a read wants (kept too, so a
/// read allocates nothing once the buffers have grown).
#[derive(Default)]
pub(crate) struct RowGroupBuffers {
    scratch: Scratch,
    /// The bytes of the chunk being decoded.
    chunk: Vec<u8>,
    /// One per schema column.
    columns: Vec<ColumnBuffers>,
    /// The columns asked for, in the caller's order (repeats allowed).
    picks: Vec<usize>,
    /// Per schema column: whether it was asked for.
    wanted: Vec<bool>,
    /// The distinct columns asked for, in file order.
    order: Vec<usize>,
}

impl RowGroupBuffers {
    fn new(columns: usize) -> JsResult<Self> {
        let mut kept = try_vec(columns)?;
        kept.extend((0..columns).map(|_| ColumnBuffers::default()));
        let mut wanted = try_vec(columns)?;
        wanted.resize(columns, false);
        Ok(RowGroupBuffers {
            scratch: Scratch::new(),
            chunk: Vec::new(),
            columns: kept,
            picks: Vec::new(),
            wanted,
            order: try_vec(columns)?,
        })
    }

    /// Takes the `columns` argument (an index list, or null for all).
    fn choose(&mut self, columns: &JsValue) -> JsResult<()> {
        let count = self.columns.len();
        indices_into(columns, count, "column", &mut self.picks)?;
        self.wanted.iter_mut().for_each(|w| *w = false);
        for &c in &self.picks {
            self.wanted[c] = true;
        }
        self.order.clear();
        self.order.extend((0..count).filter(|&c| self.wanted[c]));
        Ok(())
    }

    /// Decodes the chunk of column `c` in row group `g` (its bytes: `len`
    /// bytes at `at` of `view`) into that column's buffers.
    fn read(&mut self, inner: &Inner, g: usize, c: usize, view: &View, at: u64) -> JsResult<()> {
        let len = inner.meta.row_groups[g].chunks[c].byte_length;
        copy_into(view, at, len, &mut self.chunk)?;
        inner.note_header(g, c, &self.chunk);
        let registry = inner.registry.borrow();
        let out = &mut self.columns[c];
        self.scratch.read(&inner.meta, g, c, &self.chunk, &registry, out).map_err(|e| js_error(&e))
    }

    /// Decodes the chunks `parts` (of columns `order`) of row group `g`
    /// into these buffers, and describes them.
    #[inline(never)]
    fn read_all(&mut self, inner: &Inner, g: usize, order: &[usize], parts: &[PartView]) -> JsResult<JsValue> {
        for (&c, p) in order.iter().zip(parts) {
            self.read(inner, g, c, &p.view, p.at)?;
        }
        Ok(self.describe(inner.meta.row_groups[g].num_rows)?.into())
    }

    /// Where the picked columns' buffers are, for `js/scoped.js`: the row
    /// count, then per column its type, length, null count, and (pointer,
    /// length) of its values (elements; the data bytes for strings), its
    /// offsets (0, 0 for fixed width) and its validity (0, 0 without nulls),
    /// and its index.
    fn describe(&self, rows: u32) -> JsResult<Array> {
        let out = Array::of1(&JsValue::from_f64(rows as f64));
        for &c in &self.picks {
            let col = self.columns[c].column().ok_or_else(|| usage_error("internal", "a column was not decoded"))?;
            for v in parts(col, c) {
                out.push(&v);
            }
        }
        Ok(out)
    }
}

/// A column's entry of [`RowGroupBuffers::describe`]: its type, length,
/// null count, [`places`] and its index `c`.
fn parts(col: &Column, c: usize) -> [JsValue; 10] {
    let n = |x: f64| JsValue::from_f64(x);
    let [values, count, offsets, offsets_len, validity, validity_len] = places(col);
    [
        JsValue::from_str(col.ty.name()),
        n(col.len() as f64),
        n(col.null_count as f64),
        n(values),
        n(count),
        n(offsets),
        n(offsets_len),
        n(validity),
        n(validity_len),
        n(c as f64),
    ]
}

#[cold]
fn busy() -> JsValue {
    usage_error(
        "busy",
        "a scoped read of this file is still open (its callback has not returned): one at a time per file",
    )
}

impl Inner {
    /// Decodes row group `g`'s chosen columns into the file's scoped
    /// buffers (`chunk_at(c)`: where column `c`'s bytes are) and opens the
    /// scope; JS closes it with `__endScope`.
    #[inline(never)]
    fn open_scope(
        &self,
        g: usize,
        columns: &JsValue,
        chunk_at: impl Fn(usize) -> Option<(View, u64)>,
    ) -> JsResult<Array> {
        if self.scope_open.get() {
            return Err(busy());
        }
        // try_borrow: reading `columns` runs JS (a getter could call back in).
        let mut slot = self.scoped.try_borrow_mut().map_err(|_| busy())?;
        let bufs = match &mut *slot {
            Some(b) => b,
            none => none.insert(RowGroupBuffers::new(self.meta.schema.len())?),
        };
        bufs.choose(columns)?;
        for i in 0..bufs.order.len() {
            let c = bufs.order[i];
            // (None: `columns` read differently the second time.)
            let (view, at) = chunk_at(c).ok_or_else(|| usage_error("bad_argument", "the column list changed"))?;
            bufs.read(self, g, c, &view, at)?;
        }
        let out = bufs.describe(self.meta.row_groups[g].num_rows)?;
        self.scope_open.set(true);
        Ok(out)
    }
}

#[wasm_bindgen]
impl ColumnsFile {
    /// `readRowGroupScoped` (js/api.js) from Rust's side: decodes row group
    /// `rowGroup` of a `fromBytes` file into the file's buffers and says
    /// where they are.
    #[wasm_bindgen(js_name = __scopedRead, skip_typescript)]
    pub fn scoped_read(&self, row_group: JsValue, columns: JsValue) -> JsResult<Array> {
        let inner = &self.inner;
        let g = row_group_index(inner, &row_group)?;
        let Some(memory) = inner.source.memory()? else {
            return Err(usage_error(
                "not_in_memory",
                "this file was opened from a Blob or AsyncBuffer: use readRowGroupScopedAsync",
            ));
        };
        inner.open_scope(g, &columns, |c| Some((memory.clone(), inner.meta.row_groups[g].chunks[c].offset)))
    }

    /// Closes the scope `__scopedRead(Async)` opened: the views JS made of
    /// its buffers are gone, so the next read may overwrite them.
    #[wasm_bindgen(js_name = __endScope, skip_typescript)]
    pub fn end_scope(&self) {
        self.inner.scope_open.set(false);
    }

    /// `rowGroupsAsync` (js/api.js) from Rust's side: reads the chosen
    /// columns of each chosen row group in turn and calls
    /// `deliver(rowGroup, numRows, columns)`, which returns a promise of
    /// whether to go on. `mode` 0: `columns` are `Column`s; 1: the
    /// description of buffers this stream keeps (as `__scopedRead`'s); 2:
    /// the same in the file's own scoped buffers, the scope open until the
    /// stream ends (`readRowGroupScopedAsync`, `rowGroups` one index).
    #[wasm_bindgen(js_name = __rowGroups, skip_typescript)]
    pub fn row_groups_stream(
        &self,
        row_groups: JsValue,
        columns: JsValue,
        mode: u32,
        options: JsValue,
        deliver: Function,
    ) -> JsResult<Promise> {
        let inner = self.inner.clone();
        let signal = signal_of(&options)?;
        let (max_request, window) = read_ahead(&options)?;
        let scoped = mode > 0;
        let recycler = if scoped { JsValue::NULL } else { convert::reuse_of(&options)? };
        let mut groups = Vec::new();
        if mode == 2 {
            groups.push(row_group_index(&inner, &row_groups)?);
        } else {
            indices_into(&row_groups, inner.meta.row_groups.len(), "row group", &mut groups)?;
        }
        let mut bufs = StreamBuffers::new(&inner, mode == 2)?;
        bufs.choose(&columns)?;
        let mut st = Stream::new(&inner, groups, bufs, scoped, recycler, deliver)?;
        // The chunks of every row group asked for, row group by row group.
        let mut ranges = try_vec(st.groups.len() * st.order.len())?;
        for &g in &st.groups {
            ranges.extend(st.order.iter().map(|&c| inner.meta.row_groups[g].chunks[c].range()));
        }
        Ok(super::promise(async move {
            let mut fetch = Fetch::with_limits(&inner.source, &ranges, signal.clone(), max_request, window);
            let mut parts: Vec<PartView> = try_vec(st.order.len())?;
            for i in 0..st.groups.len() {
                parts.clear();
                for _ in 0..st.order.len() {
                    let per = st.order.len();
                    let next = fetch
                        .next_view()
                        .await
                        .map_err(|e| fetch.locate(e, |k| (st.groups[k / per], st.order[k % per])));
                    if let Some(p) = next? {
                        parts.push(p);
                    }
                }
                if !st.hand_out(&inner, i, &mut parts)?.await?.is_truthy() {
                    break; // the loop ended early
                }
                if is_aborted(&signal) {
                    return Err(aborted(&signal));
                }
            }
            Ok(JsValue::UNDEFINED)
        }))
    }
}

/// What a stream keeps between row groups (apart from its fetch).
struct Stream {
    groups: Vec<usize>,
    /// The distinct columns read, in file order.
    order: Vec<usize>,
    bufs: StreamBuffers,
    /// Copied columns of the row group being decoded, by schema column.
    decoded: Vec<JsValue>,
    scoped: bool,
    recycler: JsValue,
    deliver: Function,
}

impl Stream {
    fn new(
        inner: &Inner,
        groups: Vec<usize>,
        mut bufs: StreamBuffers,
        scoped: bool,
        recycler: JsValue,
        deliver: Function,
    ) -> JsResult<Self> {
        let order = core::mem::take(&mut bufs.order);
        let mut decoded = try_vec(inner.meta.schema.len())?;
        decoded.resize(inner.meta.schema.len(), JsValue::NULL);
        Ok(Stream { groups, order, bufs, decoded, scoped, recycler, deliver })
    }

    /// Decodes the `i`th row group from `parts` (its chunks, fetched),
    /// releases them and hands the row group to the iterator; resolves to
    /// whether to go on.
    #[inline(never)]
    fn hand_out(&mut self, inner: &Inner, i: usize, parts: &mut Vec<PartView>) -> JsResult<JsFuture> {
        let (g, n) = (self.groups[i], self.order.len());
        if parts.len() != n || parts.iter().enumerate().any(|(k, p)| p.index != i * n + k) {
            return Err(usage_error("internal", "the fetch handed out chunks out of order"));
        }
        let batch = if self.scoped {
            self.bufs.read_all(inner, g, &self.order, parts)?
        } else {
            copy_all(inner, g, &self.order, parts, &mut self.bufs, &mut self.decoded, &self.recycler)?
        };
        parts.clear(); // the fetched bytes can go
        let rows = JsValue::from_f64(inner.meta.row_groups[g].num_rows as f64);
        let ack = self
            .deliver
            .call3(&JsValue::NULL, &JsValue::from_f64(g as f64), &rows, &batch)
            .map_err(|e| with_cause("internal", "the row group iterator failed", e))?;
        Ok(JsFuture::from(Promise::resolve(&ack)))
    }
}

/// Decodes the chunks `parts` (of columns `order`) of row group `g` into
/// `Column`s (copies in JS memory), in the order `bufs` was asked for.
#[inline(never)]
fn copy_all(
    inner: &Inner,
    g: usize,
    order: &[usize],
    parts: &[PartView],
    bufs: &mut RowGroupBuffers,
    decoded: &mut [JsValue],
    recycler: &JsValue,
) -> JsResult<JsValue> {
    for (&c, p) in order.iter().zip(parts) {
        copy_into(&p.view, p.at, p.len, &mut bufs.chunk)?;
        decoded[c] = inner.decode(g, c, &bufs.chunk, Some(p.read_ms), recycler)?.into();
    }
    let out = Array::new_with_length(bufs.picks.len() as u32);
    for (j, &c) in bufs.picks.iter().enumerate() {
        out.set(j as u32, decoded[c].clone());
    }
    decoded.iter_mut().for_each(|d| *d = JsValue::NULL);
    Ok(out.into())
}

/// A stream's buffers: its own, or the file's scoped buffers, which it
/// holds with the file's scope open and gives back when it ends.
struct StreamBuffers {
    bufs: RowGroupBuffers,
    file: Option<Rc<Inner>>,
}

impl StreamBuffers {
    fn new(inner: &Rc<Inner>, the_files: bool) -> JsResult<Self> {
        if !the_files {
            return Ok(StreamBuffers { bufs: RowGroupBuffers::new(inner.meta.schema.len())?, file: None });
        }
        let mut slot = inner.scoped.try_borrow_mut().map_err(|_| busy())?;
        if inner.scope_open.get() {
            return Err(busy());
        }
        let bufs = match slot.take() {
            Some(b) => b,
            None => RowGroupBuffers::new(inner.meta.schema.len())?,
        };
        inner.scope_open.set(true);
        Ok(StreamBuffers { bufs, file: Some(inner.clone()) })
    }
}

impl core::ops::Deref for StreamBuffers {
    type Target = RowGroupBuffers;
    fn deref(&self) -> &RowGroupBuffers {
        &self.bufs
    }
}

impl core::ops::DerefMut for StreamBuffers {
    fn deref_mut(&mut self) -> &mut RowGroupBuffers {
        &mut self.bufs
    }
}

impl Drop for StreamBuffers {
    fn drop(&mut self) {
        if let Some(inner) = self.file.take() {
            if let Ok(mut slot) = inner.scoped.try_borrow_mut() {
                *slot = Some(core::mem::take(&mut self.bufs));
            }
            inner.scope_open.set(false);
        }
    }
}

/// A row group index argument, checked.
fn row_group_index(inner: &Inner, v: &JsValue) -> JsResult<usize> {
    located_index(v, "row group", inner.meta.row_groups.len(), "")
}

/// `options.readAhead`: how many bytes a stream may have requested and not
/// yet handed out (the plan's window, 64 MiB by default; one request is
/// always allowed, however large its chunk). Requests are capped at half
/// of it, so one can arrive while the one before is handed out (capped at
/// the window itself, requests merged into one window's worth at a time).
fn read_ahead(options: &JsValue) -> JsResult<(u64, Window)> {
    let v = if options.is_object() {
        Reflect::get(options, &"readAhead".into())
            .map_err(|e| with_cause("bad_argument", "reading options.readAhead threw", e))?
    } else {
        JsValue::UNDEFINED
    };
    if v.is_undefined() || v.is_null() {
        return Ok((plan::MAX_REQUEST, Window::default()));
    }
    match v.as_f64() {
        Some(n) if n >= 1.0 && n.is_finite() => {
            let n = n as u64;
            Ok((plan::MAX_REQUEST.min(n / 2), Window::new(n, plan::MAX_REQUESTS_IN_FLIGHT)))
        }
        _ => Err(usage_error(
            "bad_argument",
            &format!("options.readAhead must be a number of bytes (at least 1); got {}", describe(&v)),
        )),
    }
}
