//! Rust values to JS values: errors, metadata objects, statistics and
//! decoded columns. Column buffers cross with one bulk copy each into
//! JS-owned typed arrays (fresh, or recycled from columns handed back), so
//! no view can be detached by memory growth.

use js_sys::{Array, Object, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;

use crate::column::{Column, Values};
use crate::error::Error;
use crate::stats::Scalar;
use crate::types::ColumnType;

#[wasm_bindgen(module = "/js/column.js")]
extern "C" {
    #[wasm_bindgen(typescript_type = "Column")]
    pub type JsColumn;
    #[wasm_bindgen(constructor, js_class = "Column")]
    pub(crate) fn new(ty: &str, length: f64, null_count: f64, values: JsValue, validity: JsValue) -> JsColumn;
    #[wasm_bindgen(static_method_of = JsColumn, js_class = "Column", js_name = fromWasm)]
    fn from_wasm(
        ty: &str,
        length: f64,
        null_count: f64,
        values: JsValue,
        offsets: JsValue,
        validity: JsValue,
        recycler: &JsValue,
    ) -> JsColumn;
    /// Buffers to refill, from a read's `{ reuse }` option (null if none).
    pub(crate) fn recycler(options: &JsValue) -> JsValue;
    pub(crate) fn adopt(column: JsColumn) -> JsColumn;
    #[wasm_bindgen(js_name = handBack)]
    pub(crate) fn hand_back(reuse: &JsValue) -> Array;
    #[wasm_bindgen(method, setter)]
    pub fn set_timings(this: &JsColumn, t: JsValue);

    #[wasm_bindgen(js_name = ColumnsError)]
    type JsError;
    #[wasm_bindgen(constructor, js_class = "ColumnsError")]
    fn new_error(message: &str, kind: &str, row_group: JsValue, column: JsValue, offset: JsValue) -> JsError;
}

/// A plain object from (key, value) pairs.
pub(crate) fn obj(pairs: &[(&str, JsValue)]) -> JsValue {
    let o = Object::new();
    for (k, v) in pairs {
        let _ = Reflect::set(&o, &JsValue::from_str(k), v);
    }
    o.into()
}

pub(crate) fn opt_num(v: Option<impl Into<f64>>) -> JsValue {
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

/// An API-usage error (not about a file), with a kind of its own.
pub(crate) fn usage_error(kind: &str, message: &str) -> JsValue {
    JsError::new_error(message, kind, JsValue::NULL, JsValue::NULL, JsValue::NULL).into()
}

/// A statistic in the same JS form as `Column.toArray()`.
pub(crate) fn scalar(ty: ColumnType, s: Option<Scalar>) -> JsValue {
    match s {
        None => JsValue::NULL,
        Some(Scalar::Bool(b)) => b.into(),
        Some(Scalar::Int(i)) if ty == ColumnType::Int64 => js_sys::BigInt::from(i).into(),
        Some(Scalar::Int(i)) => (i as f64).into(),
        Some(Scalar::Uint(u)) if ty == ColumnType::Uint64 => js_sys::BigInt::from(u).into(),
        Some(Scalar::Uint(u)) => (u as f64).into(),
        Some(Scalar::Float32(f)) => (f as f64).into(),
        Some(Scalar::Float64(f)) => f.into(),
        Some(Scalar::Bytes(b)) if ty == ColumnType::String => String::from_utf8_lossy(&b).as_ref().into(),
        Some(Scalar::Bytes(b)) => Uint8Array::from(&b[..]).into(),
    }
}

pub(crate) fn bytes(b: &[u8]) -> JsValue {
    Uint8Array::from(b).into()
}

/// Moves a decoded column into JS: one copy per buffer, made by JS from
/// views of wasm memory into fresh or recycled arrays.
pub(crate) fn column(col: Column, recycler: &JsValue) -> JsColumn {
    // SAFETY: the views are only read by `fromWasm`, which copies them
    // before returning, and nothing allocates in wasm memory between their
    // creation and that call (creating a view does not).
    unsafe {
        let (values, offsets): (JsValue, JsValue) = match &col.values {
            Values::Bool(v) | Values::Uint8(v) => (Uint8Array::view(v).into(), JsValue::NULL),
            Values::Int8(v) => (js_sys::Int8Array::view(v).into(), JsValue::NULL),
            Values::Int16(v) => (js_sys::Int16Array::view(v).into(), JsValue::NULL),
            Values::Int32(v) => (js_sys::Int32Array::view(v).into(), JsValue::NULL),
            Values::Int64(v) => (js_sys::BigInt64Array::view(v).into(), JsValue::NULL),
            Values::Uint16(v) => (js_sys::Uint16Array::view(v).into(), JsValue::NULL),
            Values::Uint32(v) => (js_sys::Uint32Array::view(v).into(), JsValue::NULL),
            Values::Uint64(v) => (js_sys::BigUint64Array::view(v).into(), JsValue::NULL),
            Values::Float32(v) => (js_sys::Float32Array::view(v).into(), JsValue::NULL),
            Values::Float64(v) => (js_sys::Float64Array::view(v).into(), JsValue::NULL),
            Values::Bytes { offsets, data } => {
                (Uint8Array::view(data).into(), js_sys::Uint32Array::view(offsets).into())
            }
        };
        let validity = col.validity.as_deref().map_or(JsValue::NULL, |v| Uint8Array::view(v).into());
        JsColumn::from_wasm(col.ty.name(), col.len() as f64, col.null_count as f64, values, offsets, validity, recycler)
    }
}

pub(crate) fn array(items: impl IntoIterator<Item = JsValue>) -> Array {
    items.into_iter().collect()
}
