//! Rust values to JS values: errors, metadata objects, statistics and
//! decoded columns. Column buffers cross with one bulk copy each into
//! JS-owned typed arrays, so no view can be detached by memory growth.

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
    JsError::new_error(message, e.kind.as_str(), opt_num(loc.row_group), opt_num(loc.column), opt_num(loc.offset.map(|o| o as f64)))
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

/// Moves a decoded column into JS: one copy per buffer.
pub(crate) fn column(col: Column) -> JsColumn {
    let values: JsValue = match &col.values {
        Values::Bool(v) | Values::Uint8(v) => Uint8Array::from(&v[..]).into(),
        Values::Int8(v) => js_sys::Int8Array::from(&v[..]).into(),
        Values::Int16(v) => js_sys::Int16Array::from(&v[..]).into(),
        Values::Int32(v) => js_sys::Int32Array::from(&v[..]).into(),
        Values::Int64(v) => js_sys::BigInt64Array::from(&v[..]).into(),
        Values::Uint16(v) => js_sys::Uint16Array::from(&v[..]).into(),
        Values::Uint32(v) => js_sys::Uint32Array::from(&v[..]).into(),
        Values::Uint64(v) => js_sys::BigUint64Array::from(&v[..]).into(),
        Values::Float32(v) => js_sys::Float32Array::from(&v[..]).into(),
        Values::Float64(v) => js_sys::Float64Array::from(&v[..]).into(),
        Values::Bytes { offsets, data } => obj(&[
            ("offsets", js_sys::Uint32Array::from(&offsets[..]).into()),
            ("data", Uint8Array::from(&data[..]).into()),
        ]),
    };
    let validity = col.validity.as_deref().map_or(JsValue::NULL, bytes);
    JsColumn::new(col.ty.name(), col.len() as f64, col.null_count as f64, values, validity)
}

pub(crate) fn array(items: impl IntoIterator<Item = JsValue>) -> Array {
    items.into_iter().collect()
}
