//! Where a file's bytes come from: wasm memory (fromBytes), a Blob/File,
//! or any `{ byteLength, slice(start, end) }` object (HTTP ranges, ...).
//! Ranges are requested exactly; adjacent ones are merged into one request.

use core::cell::Cell;
use core::ops::Range;

use js_sys::{Function, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use super::convert::usage_error;

pub(crate) enum Kind {
    Memory(Vec<u8>),
    Blob(JsValue),
    Async(JsValue),
}

/// A byte source and what has been fetched from it so far.
pub(crate) struct Source {
    pub kind: Kind,
    pub bytes_read: Cell<f64>,
    pub requests: Cell<u32>,
}

fn call(target: &JsValue, method: &str, args: &[JsValue]) -> Result<JsValue, JsValue> {
    let f: Function = Reflect::get(target, &method.into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or_else(|| usage_error("bad_source", &format!("the source has no {method}() method")))?;
    let called = match args {
        [] => f.call0(target),
        [a, b] => f.call2(target, a, b),
        _ => return Err(usage_error("bad_source", "internal: unexpected arity")),
    };
    called.map_err(|e| wrap("bad_source", &format!("the source's {method}() threw"), e))
}

/// A read the source failed, as a `bad_source` error whose `cause` is what
/// the source threw or rejected with.
fn source_failed(range: &Range<u64>, e: JsValue) -> JsValue {
    wrap("bad_source", &format!("reading bytes {}..{} from the source failed", range.start, range.end), e)
}

fn wrap(kind: &str, message: &str, cause: JsValue) -> JsValue {
    let detail =
        js_sys::Reflect::get(&cause, &"message".into()).ok().and_then(|m| m.as_string()).or_else(|| cause.as_string());
    let text = match detail {
        Some(d) => format!("{message}: {d}"),
        None => message.to_string(),
    };
    let err = usage_error(kind, &text);
    let _ = Reflect::set(&err, &"cause".into(), &cause);
    err
}

/// A request in flight: JS starts the read when `slice()` is called.
pub(crate) enum Pending {
    Ready(Vec<u8>),
    Waiting(JsFuture, Range<u64>),
}

impl Source {
    pub fn new(kind: Kind) -> Source {
        Source { kind, bytes_read: Cell::new(0.0), requests: Cell::new(0) }
    }

    /// Starts reading `range` now; await it with `Pending::bytes`.
    pub fn begin(&self, range: Range<u64>) -> Result<Pending, JsValue> {
        let (start, end) = (range.start as f64, range.end as f64);
        let value = match &self.kind {
            Kind::Memory(b) => return Ok(Pending::Ready(b[range.start as usize..range.end as usize].to_vec())),
            Kind::Blob(blob) => {
                let part = call(blob, "slice", &[start.into(), end.into()])?;
                call(&part, "arrayBuffer", &[])?
            }
            Kind::Async(src) => call(src, "slice", &[start.into(), end.into()])?,
        };
        Ok(Pending::Waiting(JsFuture::from(Promise::resolve(&value)), range))
    }

    /// Reads several ranges concurrently, one request per run of adjacent
    /// or overlapping ranges. Returns each input range's bytes, in order.
    pub async fn read_many(&self, ranges: &[Range<u64>]) -> Result<Vec<Vec<u8>>, JsValue> {
        // Callers ask in file order (row group, then column), so touching
        // neighbours merge without sorting.
        let mut merged: Vec<Range<u64>> = Vec::new();
        for r in ranges.iter().cloned() {
            match merged.last_mut() {
                Some(m) if r.start >= m.start && r.start <= m.end => m.end = m.end.max(r.end),
                _ => merged.push(r),
            }
        }
        if !self.is_memory() {
            self.requests.set(self.requests.get() + merged.len() as u32);
            self.bytes_read.set(self.bytes_read.get() + merged.iter().map(|m| (m.end - m.start) as f64).sum::<f64>());
        }
        // Every request is started before any is awaited.
        let pending = merged.iter().map(|m| self.begin(m.clone())).collect::<Result<Vec<_>, _>>()?;
        let mut fetched = Vec::with_capacity(pending.len());
        for p in pending {
            fetched.push(p.bytes().await?);
        }
        let mut out = Vec::with_capacity(ranges.len());
        for r in ranges {
            // Every range lies inside exactly one merged run.
            if let Some(k) = merged.iter().position(|m| m.start <= r.start && r.end <= m.end) {
                let base = merged[k].start;
                out.push(fetched[k][(r.start - base) as usize..(r.end - base) as usize].to_vec());
            }
        }
        Ok(out)
    }

    pub fn is_memory(&self) -> bool {
        matches!(self.kind, Kind::Memory(_))
    }
}

impl Pending {
    /// The bytes, checked to be exactly the range asked for.
    pub async fn bytes(self) -> Result<Vec<u8>, JsValue> {
        let (future, range) = match self {
            Pending::Ready(b) => return Ok(b),
            Pending::Waiting(f, r) => (f, r),
        };
        let value = future.await.map_err(|e| source_failed(&range, e))?;
        let bytes = if let Some(buf) = value.dyn_ref::<js_sys::ArrayBuffer>() {
            Uint8Array::new(buf)
        } else if js_sys::ArrayBuffer::is_view(&value) {
            let buffer = Reflect::get(&value, &"buffer".into())?;
            let offset = Reflect::get(&value, &"byteOffset".into())?.as_f64().unwrap_or(0.0);
            let len = Reflect::get(&value, &"byteLength".into())?.as_f64().unwrap_or(0.0);
            Uint8Array::new_with_byte_offset_and_length(&buffer, offset as u32, len as u32)
        } else {
            return Err(usage_error("bad_source", "slice() must resolve to an ArrayBuffer or a typed array"));
        };
        if bytes.length() as u64 != range.end - range.start {
            return Err(usage_error(
                "truncated",
                &format!("asked the source for bytes {}..{} and got {} bytes", range.start, range.end, bytes.length()),
            ));
        }
        Ok(bytes.to_vec())
    }
}
