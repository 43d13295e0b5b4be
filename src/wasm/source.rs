//! Where a file's bytes come from: the caller's own bytes (`fromBytes`,
//! viewed in place, never copied whole), a Blob/File, or any
//! `{ byteLength, slice(start, end) }` object (HTTP ranges, ...).
//!
//! Everything JS hands back is distrusted: every call into a source is
//! caught, every result is re-viewed through a `Uint8Array` made here and
//! checked to be exactly the range asked for, and every copy into wasm
//! memory is fallible. Fetched bytes are copied once, straight from the
//! source's buffer into the `Vec` of the range that needs them.
//!
//! Several ranges are fetched by [`Fetch`], which follows `crate::plan`:
//! neighbouring ranges merge into requests of at most 32 MiB (a single
//! larger range is fetched alone), at most 64 MiB and 8 requests are in
//! flight at once, and each request's bytes are released as soon as its
//! ranges have been handed out.

use core::cell::Cell;
use core::ops::Range;

use js_sys::{Function, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use super::convert::{describe, usage_error, with_cause};
use super::now;
use crate::plan::{self, Request, Window};

#[wasm_bindgen(module = "/js/column.js")]
extern "C" {
    /// A genuine promise for whatever a source returned, rejecting as soon
    /// as `signal` (an AbortSignal, or undefined) aborts. Never throws.
    fn settle(value: &JsValue, signal: &JsValue) -> Promise;
    /// The kind of a source's failure: `bad_source`, unless the source
    /// failed with a ColumnsError saying it was aborted (its own signal) or
    /// is over its limit (`aborted`, `too_large`: columns-wasm/http's),
    /// which is kept. Never throws.
    #[wasm_bindgen(js_name = failedKind)]
    fn failed_kind(e: &JsValue) -> String;
}

#[wasm_bindgen]
extern "C" {
    /// A `Uint8Array` made here, so that what a caller hands over is never
    /// trusted beyond the constructor. The constructors `catch`: a detached
    /// buffer or a lying byteOffset makes them throw.
    #[wasm_bindgen(extends = Uint8Array, js_name = Uint8Array)]
    #[derive(Clone)]
    pub(crate) type View;
    #[wasm_bindgen(catch, constructor, js_class = "Uint8Array")]
    fn new_view(buffer: &JsValue) -> Result<View, JsValue>;
    #[wasm_bindgen(catch, constructor, js_class = "Uint8Array")]
    fn new_view_range(buffer: &JsValue, offset: &JsValue, length: &JsValue) -> Result<View, JsValue>;
    /// The length as a number: a view of more than 4 GiB is possible.
    #[wasm_bindgen(method, getter, js_name = length)]
    fn length_f64(this: &View) -> f64;
    #[wasm_bindgen(method, js_name = subarray)]
    fn subarray_f64(this: &View, begin: f64, end: f64) -> View;
}

/// A `Uint8Array` made here over the bytes of an `ArrayBuffer`,
/// `SharedArrayBuffer` or any `ArrayBufferView`; `None` for anything else,
/// `Err` with what JS threw when the buffer cannot be viewed (detached).
pub(crate) fn byte_view(v: &JsValue) -> Result<Option<View>, JsValue> {
    if v.is_instance_of::<js_sys::ArrayBuffer>() || v.is_instance_of::<js_sys::SharedArrayBuffer>() {
        return View::new_view(v).map(Some);
    }
    if js_sys::ArrayBuffer::is_view(v) {
        let get = |k: &str| Reflect::get(v, &JsValue::from_str(k));
        return View::new_view_range(&get("buffer")?, &get("byteOffset")?, &get("byteLength")?).map(Some);
    }
    Ok(None)
}

/// The length of a view made by `byte_view` (0 once its buffer is detached).
pub(crate) fn view_len(view: &View) -> u64 {
    view.length_f64() as u64
}

/// Copies `len` bytes at `at` of a view made here into a new `Vec`,
/// reserving fallibly: a size wasm memory cannot hold is `too_large`.
pub(crate) fn copy_out(view: &View, at: u64, len: u64) -> Result<Vec<u8>, JsValue> {
    let mut out = Vec::new();
    copy_into(view, at, len, &mut out)?;
    Ok(out)
}

/// [`copy_out`] into `out`, replacing what it held: allocates only when
/// `out` has room for fewer than `len` bytes.
pub(crate) fn copy_into(view: &View, at: u64, len: u64, out: &mut Vec<u8>) -> Result<(), JsValue> {
    let too_large = || usage_error("too_large", &format!("{len} bytes do not fit in wasm memory"));
    let n = usize::try_from(len).map_err(|_| too_large())?;
    // Every view copied from was checked to hold its range; one that no
    // longer does lost its buffer since (detached, or shrunk).
    if at.checked_add(len).is_none_or(|end| end > view_len(view)) {
        return Err(usage_error(
            "bad_source",
            &format!("{len} bytes at {at} are outside the {} bytes given (detached?)", view_len(view)),
        ));
    }
    out.clear();
    out.try_reserve_exact(n).map_err(|_| too_large())?;
    if n > 0 {
        view.subarray_f64(at as f64, (at + len) as f64).copy_to_uninit(&mut out.spare_capacity_mut()[..n]);
        // SAFETY: copy_to_uninit initialized exactly the first n bytes.
        unsafe { out.set_len(n) };
    }
    Ok(())
}

pub(crate) enum Kind {
    /// `fromBytes`: a view of the caller's bytes. Kept on the JS side so
    /// wasm memory holds one chunk per read, not the file, and the garbage
    /// collector sees the file's size.
    Memory(View),
    /// A `Blob` or `File`.
    Blob(web_sys::Blob),
    /// Anything else with `slice(start, end)` returning a Blob-like object
    /// (a Blob from another realm or a polyfill).
    BlobLike(JsValue),
    /// `{ byteLength, slice(start, end) }`.
    Async(JsValue),
    /// What a Blob or AsyncBuffer became once its open read it whole (a
    /// short file: `plan::open_head`): a copy of its bytes, of our own, which
    /// its reads take their chunks from instead of asking the source again.
    Held(View),
}

/// A byte source and what has been fetched from it so far.
pub(crate) struct Source {
    pub kind: Kind,
    pub len: u64,
    pub bytes_read: Cell<f64>,
    pub requests: Cell<u32>,
}

fn call(target: &JsValue, method: &str, args: &[JsValue]) -> Result<JsValue, JsValue> {
    // `target` is the source, or what its slice() gave (a Blob-like's part).
    let what = if method == "arrayBuffer" { "the source's slice() result" } else { "the source" };
    // (Reflect.get throws on a primitive: it has no such method either. A
    // function is an object too: a callable source has its methods.)
    let f = if target.is_object() || target.is_function() {
        Reflect::get(target, &method.into())
            .map_err(|e| with_cause("bad_source", &format!("reading {what}'s {method} threw"), e))?
    } else {
        JsValue::UNDEFINED
    };
    let f: Function = f.dyn_into().map_err(|v| {
        usage_error("bad_source", &format!("{what} has no {method}() method ({method} is {})", describe(&v)))
    })?;
    match args {
        [a, b] => f.call2(target, a, b),
        [a, b, c] => f.call3(target, a, b, c),
        _ => f.call0(target),
    }
    .map_err(|e| with_cause(&failed_kind(&e), &format!("the source's {method}() threw"), e))
}

/// A read the source failed, as a `bad_source` error (or its own kind, by
/// `failed_kind`) whose `cause` is what the source threw or rejected with.
fn source_failed(range: &Range<u64>, e: JsValue) -> JsValue {
    with_cause(&failed_kind(&e), &format!("reading bytes {}..{} from the source failed", range.start, range.end), e)
}

/// A source's failure located at the first byte it was asked for (its
/// `offset`), as a chunk's errors are located in the file.
/// A source's failure, located at the chunk it was fetching.
pub(crate) fn located(e: JsValue, g: usize, c: usize) -> JsValue {
    let _ = Reflect::set(&e, &"rowGroup".into(), &(g as f64).into());
    let _ = Reflect::set(&e, &"column".into(), &(c as f64).into());
    e
}

fn at(offset: u64, e: JsValue) -> JsValue {
    let _ = Reflect::set(&e, &"offset".into(), &(offset as f64).into());
    e
}

/// The `aborted` error of a read whose signal fired; `cause` is the signal's reason.
pub(crate) fn aborted(signal: &JsValue) -> JsValue {
    with_cause("aborted", "the read was aborted", Reflect::get(signal, &"reason".into()).unwrap_or_default())
}

pub(crate) fn is_aborted(signal: &JsValue) -> bool {
    !signal.is_undefined() && Reflect::get(signal, &"aborted".into()).is_ok_and(|a| a.is_truthy())
}

/// A request in flight: JS starts the read when `slice()` is called.
pub(crate) enum Pending {
    Ready(View),
    Waiting(JsFuture, Range<u64>),
}

impl Source {
    pub fn new(kind: Kind, len: u64) -> Source {
        Source { kind, len, bytes_read: Cell::new(0.0), requests: Cell::new(0) }
    }

    pub fn is_memory(&self) -> bool {
        matches!(self.kind, Kind::Memory(_))
    }

    /// The caller's bytes of a `fromBytes` file, checked to be still whole.
    pub fn memory(&self) -> Result<Option<&View>, JsValue> {
        let Kind::Memory(view) = &self.kind else { return Ok(None) };
        if view_len(view) != self.len {
            return Err(usage_error(
                "bad_source",
                &format!(
                    "the {} bytes given to fromBytes are now {} (their ArrayBuffer was detached or resized)",
                    self.len,
                    view_len(view)
                ),
            ));
        }
        Ok(Some(view))
    }

    /// A range of a `fromBytes` file, copied into wasm memory.
    pub fn copy(&self, range: Range<u64>) -> Result<Vec<u8>, JsValue> {
        match self.memory()? {
            Some(view) => copy_out(view, range.start, range.end - range.start),
            None => Err(usage_error(
                "not_in_memory",
                "this file was opened from a Blob or AsyncBuffer; use the Async methods",
            )),
        }
    }

    /// Starts reading `range` now; await it with `Pending::bytes`.
    pub fn begin(&self, range: Range<u64>, signal: &JsValue) -> Result<Pending, JsValue> {
        if is_aborted(signal) {
            return Err(aborted(signal));
        }
        let (start, end) = (range.start as f64, range.end as f64);
        let count = || {
            self.requests.set(self.requests.get() + 1);
            self.bytes_read.set(self.bytes_read.get() + (end - start));
        };
        let value = match &self.kind {
            Kind::Memory(view) | Kind::Held(view) => {
                self.memory()?;
                return Ok(Pending::Ready(view.subarray_f64(start, end)));
            }
            Kind::Blob(blob) => {
                count();
                let part = blob
                    .slice_with_f64_and_f64(start, end)
                    .map_err(|e| with_cause("bad_source", "the Blob's slice() threw", e))?;
                // Checked as a Blob-like's is: a subclass's slice() may give
                // anything, and that is what a failure here names.
                call(&part, "arrayBuffer", &[])?
            }
            Kind::BlobLike(blob) => {
                count();
                call(&call(blob, "slice", &[start.into(), end.into()])?, "arrayBuffer", &[])?
            }
            Kind::Async(src) => {
                count();
                // The read's signal goes along, as slice(start, end, { signal })
                // ({} without one): a source that takes it (columns-wasm/http)
                // can stop what it started for the read; others ignore it.
                let options = js_sys::Object::new();
                if !signal.is_undefined() {
                    let _ = Reflect::set(&options, &"signal".into(), signal);
                }
                call(src, "slice", &[start.into(), end.into(), options.into()])?
            }
        };
        Ok(Pending::Waiting(JsFuture::from(settle(&value, signal)), range))
    }

    /// One range's bytes, in wasm memory.
    pub async fn read(&self, range: Range<u64>, signal: &JsValue) -> Result<Vec<u8>, JsValue> {
        let (start, len) = (range.start, range.end - range.start);
        let view = match self.begin(range, signal) {
            Ok(pending) => pending.bytes(signal).await,
            Err(e) => Err(e),
        }
        .map_err(|e| at(start, e))?;
        copy_out(&view, 0, len)
    }

    /// Several ranges' bytes, in the order given (for the few small ranges
    /// of an open).
    pub async fn read_all(&self, ranges: &[Range<u64>], signal: &JsValue) -> Result<Vec<Vec<u8>>, JsValue> {
        let mut out: Vec<Vec<u8>> = ranges.iter().map(|_| Vec::new()).collect();
        let mut fetch = Fetch::new(self, ranges, signal.clone());
        while let Some(part) = fetch.next().await? {
            out[part.index] = part.bytes;
        }
        Ok(out)
    }
}

impl Pending {
    /// The bytes, as a view made here, checked to be exactly the range asked for.
    pub async fn bytes(self, signal: &JsValue) -> Result<View, JsValue> {
        let (future, range) = match self {
            Pending::Ready(view) => return Ok(view),
            Pending::Waiting(f, r) => (f, r),
        };
        let value = match future.await {
            Ok(v) => v,
            Err(_) if is_aborted(signal) => return Err(aborted(signal)),
            Err(e) => return Err(source_failed(&range, e)),
        };
        let view = byte_view(&value)
            .map_err(|e| {
                with_cause(
                    "bad_source",
                    &format!(
                        "bytes {}..{} came back in a buffer that cannot be read (detached?)",
                        range.start, range.end
                    ),
                    e,
                )
            })?
            .ok_or_else(|| {
                usage_error(
                    "bad_source",
                    &format!("slice() must give an ArrayBuffer or a typed array; it gave {}", describe(&value)),
                )
            })?;
        let got = view_len(&view);
        let want = range.end - range.start;
        if got != want {
            // Fewer bytes: the source ends early (the file is cut short);
            // more: the source broke slice()'s contract.
            return Err(usage_error(
                if got < want { "truncated" } else { "bad_source" },
                &format!("asked the source for bytes {}..{} and got {got} bytes", range.start, range.end),
            ));
        }
        Ok(view)
    }
}

/// One wanted range's bytes, handed out by [`Fetch`].
pub(crate) struct Part {
    /// Its index in the ranges given to [`Fetch::new`].
    pub index: usize,
    pub bytes: Vec<u8>,
    /// Its share of the request's wall time, in ms.
    pub read_ms: f64,
}

/// [`Part`] with the bytes still where the source put them, not yet in
/// wasm memory: `len` bytes at `at` of the view of its request's buffer
/// (which it keeps alive). No view of them is made here: a stream keeps
/// parts while its loop body runs, which may detach or shrink that buffer,
/// and `subarray` would then throw through the module; [`copy_into`]
/// refuses them with a `bad_source` instead.
pub(crate) struct PartView {
    pub index: usize,
    pub view: View,
    pub at: u64,
    pub len: u64,
    pub read_ms: f64,
}

/// Fetches ranges by the plan, handing each range's bytes out as its
/// request arrives (in request order), so a caller can decode and drop
/// them before the next ones arrive. Holds the requests in flight (at most
/// `plan::MAX_REQUESTS_IN_FLIGHT`) and nothing sized by the number of ranges.
pub(crate) struct Fetch<'s> {
    source: &'s Source,
    ranges: &'s [Range<u64>],
    signal: JsValue,
    plan: core::iter::Peekable<plan::Requests<'s>>,
    window: Window,
    in_flight: Vec<(Request, Pending, f64)>,
    /// The request whose ranges are being handed out, its bytes, and ms per range.
    current: Option<(Request, View, f64)>,
    next_part: usize,
    /// After a failed request that held one range: that range's index, for
    /// [`Fetch::locate`] (the error has the request's offset).
    failed: Option<usize>,
}

impl<'s> Fetch<'s> {
    pub fn new(source: &'s Source, ranges: &'s [Range<u64>], signal: JsValue) -> Self {
        Self::with_limits(source, ranges, signal, plan::MAX_REQUEST, Window::default())
    }

    /// A fetch whose requests are at most `max_request` bytes (unless one
    /// range is longer) and whose requests in flight stay within `window`.
    pub fn with_limits(
        source: &'s Source,
        ranges: &'s [Range<u64>],
        signal: JsValue,
        max_request: u64,
        window: Window,
    ) -> Self {
        Fetch {
            source,
            ranges,
            signal,
            plan: plan::requests(ranges, max_request).peekable(),
            window,
            in_flight: Vec::new(),
            current: None,
            next_part: 0,
            failed: None,
        }
    }

    /// A failure of this fetch, located at its chunk when the failed
    /// request held one range: `chunk` gives range i's (row group, column).
    pub fn locate(&self, e: JsValue, chunk: impl Fn(usize) -> (usize, usize)) -> JsValue {
        match self.failed {
            Some(i) => {
                let (g, c) = chunk(i);
                located(e, g, c)
            }
            None => e,
        }
    }

    fn fail(&mut self, request: &Request, e: JsValue) -> JsValue {
        if request.parts.len() == 1 {
            self.failed = Some(request.parts.start);
        }
        at(request.range.start, e)
    }

    /// The next range's bytes, or `None` when every range was handed out.
    pub async fn next(&mut self) -> Result<Option<Part>, JsValue> {
        let Some(part) = self.next_view().await? else { return Ok(None) };
        let bytes = copy_out(&part.view, part.at, part.len)?;
        Ok(Some(Part { index: part.index, bytes, read_ms: part.read_ms }))
    }

    /// The next range's bytes as a view of its request's buffer, or `None`
    /// when every range was handed out.
    pub async fn next_view(&mut self) -> Result<Option<PartView>, JsValue> {
        loop {
            if let Some((request, view, read_ms)) = &self.current {
                if self.next_part < request.parts.end {
                    let index = self.next_part;
                    self.next_part += 1;
                    let range = &self.ranges[index];
                    let (at, len) = (range.start - request.range.start, range.end - range.start);
                    return Ok(Some(PartView { index, view: view.clone(), at, len, read_ms: *read_ms }));
                }
                self.window.done(request.len());
                self.current = None;
            }
            while let Some(request) = self.plan.next_if(|q| self.window.admit(q.len())) {
                match self.source.begin(request.range.clone(), &self.signal) {
                    Ok(pending) => self.in_flight.push((request, pending, now())),
                    Err(e) => return Err(self.fail(&request, e)),
                }
            }
            if self.in_flight.is_empty() {
                return Ok(None);
            }
            let (request, pending, t0) = self.in_flight.remove(0);
            let view = match pending.bytes(&self.signal).await {
                Ok(view) => view,
                Err(e) => return Err(self.fail(&request, e)),
            };
            let read_ms = (now() - t0) / request.parts.len().max(1) as f64;
            self.next_part = request.parts.start;
            self.current = Some((request, view, read_ms));
        }
    }
}
