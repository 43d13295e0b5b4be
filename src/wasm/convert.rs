//! Rust values to JS values: errors and decoded columns (metadata objects
//! are in `objects.rs`). Column buffers cross with one bulk copy each into
//! JS-owned typed arrays (fresh, or recycled from columns handed back), so
//! no view can be detached by memory growth.

use js_sys::Reflect;
use wasm_bindgen::prelude::*;

use crate::column::{Column, Values};
use crate::error::Error;

#[wasm_bindgen(module = "/js/column.js")]
extern "C" {
    #[wasm_bindgen(typescript_type = "Column")]
    pub type JsColumn;
    // `catch`: JS may fail to allocate the copy. The buffers go as places
    // in wasm memory (see `places`), which JS views and copies: one view
    // maker in JS for every type, where js-sys' typed views took a glue
    // function and a cached array each.
    #[wasm_bindgen(catch, static_method_of = JsColumn, js_class = "Column", js_name = fromWasm)]
    #[allow(clippy::too_many_arguments)]
    fn from_wasm(
        ty: &str,
        length: f64,
        null_count: f64,
        memory: &JsValue,
        values: f64,
        count: f64,
        offsets: f64,
        offsets_len: f64,
        validity: f64,
        validity_len: f64,
        recycler: &JsValue,
        row_group: f64,
        column: f64,
    ) -> Result<JsColumn, JsValue>;
    /// Buffers to refill, from a read's `{ reuse }` option (null if none).
    /// `catch`: it walks what the caller handed over.
    #[wasm_bindgen(catch)]
    fn recycler(options: &JsValue) -> Result<JsValue, JsValue>;
    /// What a value is, for a message ("the number 5", "a string", "an
    /// Array"): the package's one description, which never throws.
    pub(crate) fn describe(v: &JsValue) -> String;
    /// Sets `timings` (made in JS: one call, where building the object
    /// from here took one per property).
    #[wasm_bindgen(method, js_name = setTimings)]
    pub fn set_timings(
        this: &JsColumn,
        read_ms: Option<f64>,
        decompress_ms: f64,
        decode_ms: f64,
        copy_ms: f64,
        total_ms: f64,
        from_memory: bool,
    );

    #[wasm_bindgen(js_name = ColumnsError)]
    type JsError;
    #[wasm_bindgen(constructor, js_class = "ColumnsError")]
    fn new_error(message: &str, kind: &str, row_group: JsValue, column: JsValue, offset: JsValue) -> JsError;
}

fn opt_num(v: Option<impl Into<f64>>) -> JsValue {
    v.map_or(JsValue::NULL, |x| JsValue::from_f64(x.into()))
}

/// A JS `Error` carrying the core error's kind and location.
pub(crate) fn js_error(e: &Error) -> JsValue {
    // The kind travels as `.kind`; the message is the sentence plus where.
    let text = e.to_string();
    let message = text.strip_prefix(&format!("{}: ", e.kind)).unwrap_or(&text);
    let loc = e.location;
    JsError::new_error(
        message,
        e.kind.as_str(),
        opt_num(loc.row_group),
        opt_num(loc.column),
        opt_num(loc.offset.map(|o| o as f64)),
    )
    .into()
}

/// An index argument's `out_of_range`: `rowGroup` and `column` are the
/// indexes asked for (when whole numbers); the message is the sentence
/// alone, which names the index that does not exist (a place after it, as
/// `js_error` writes one, repeated it: "(row group 9, column 0)").
pub(crate) fn out_of_range(message: &str, row_group: Option<u32>, column: Option<u32>) -> JsValue {
    JsError::new_error(message, "out_of_range", opt_num(row_group), opt_num(column), JsValue::NULL).into()
}

/// An API-usage error (not about a file), with a kind of its own.
pub(crate) fn usage_error(kind: &str, message: &str) -> JsValue {
    JsError::new_error(message, kind, JsValue::NULL, JsValue::NULL, JsValue::NULL).into()
}

/// A usage error caused by what JS threw: its message is appended and the
/// thrown value kept as `cause`.
pub(crate) fn with_cause(kind: &str, message: &str, cause: JsValue) -> JsValue {
    let detail = Reflect::get(&cause, &"message".into()).ok().and_then(|m| text(&m)).or_else(|| text(&cause));
    let err = usage_error(kind, &detail.map_or_else(|| message.to_string(), |d| format!("{message}: {d}")));
    let _ = Reflect::set(&err, &"cause".into(), &cause);
    err
}

/// A JS string, whole up to 1,500 characters (a message naming a long
/// URL keeps it), else its first 1,500 and "…": what JS hands back is
/// never copied whole into wasm memory, and a message stays under 2,000.
fn text(v: &JsValue) -> Option<String> {
    let s = v.dyn_ref::<js_sys::JsString>()?;
    Some(s.slice(0, 1500).concat(&JsValue::from_str(if s.length() > 1500 { "…" } else { "" })).into())
}

/// A number as JavaScript writes it (no float formatting code in the wasm).
pub(crate) fn number(n: f64) -> String {
    js_sys::Number::from(n).to_string_with_radix(10).map(String::from).unwrap_or_default()
}

/// The buffers a read may refill, from its options (see `recycler` in column.js).
pub(crate) fn reuse_of(options: &JsValue) -> Result<JsValue, JsValue> {
    recycler(options).map_err(|e| with_cause("bad_argument", "bad options", e))
}

/// Where a column's buffers lie in wasm memory, as JS makes its views of
/// them (`views` in js/column.js): the values' address and count (elements
/// of its type; bytes for strings), the offsets' address and count, the
/// validity bitmap's address and length (zeros for what is absent).
pub(crate) fn places(col: &Column) -> [f64; 6] {
    fn at<T>(v: &[T]) -> f64 {
        v.as_ptr() as usize as f64
    }
    let (values, count, offsets, offsets_len) = match &col.values {
        Values::Bytes { offsets, data } => (at(data), data.len(), at(offsets), offsets.len()),
        v => (at(v.fixed_bytes().unwrap_or_default()), v.len(), 0.0, 0),
    };
    let (validity, validity_len) = col.validity.as_deref().map_or((0.0, 0), |b| (at(b), b.len()));
    [values, count as f64, offsets, offsets_len as f64, validity, validity_len as f64]
}

/// Moves a decoded column into JS: one copy per buffer, made by JS from
/// views of wasm memory into fresh or recycled arrays. `g`, `c`: where it
/// was read (for the errors of its `toArray()`).
pub(crate) fn column(col: Column, recycler: &JsValue, g: usize, c: usize) -> Result<JsColumn, JsValue> {
    // `fromWasm` copies every buffer before it returns, and calls nothing
    // in wasm meanwhile; `col` holds them until then.
    let [values, count, offsets, offsets_len, validity, validity_len] = places(&col);
    JsColumn::from_wasm(
        col.ty.name(),
        col.len() as f64,
        col.null_count as f64,
        &wasm_bindgen::memory(),
        values,
        count,
        offsets,
        offsets_len,
        validity,
        validity_len,
        recycler,
        g as f64,
        c as f64,
    )
    .map_err(|e| with_cause("too_large", "the column could not be copied into JavaScript memory", e))
}
