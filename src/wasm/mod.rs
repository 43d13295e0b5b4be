//! The JavaScript API (wasm32 only): a thin layer that converts between the
//! core's Rust values and JS values, and nothing else. See the package
//! README for the API; `ColumnsFile` and `TokenizerRegistry` are its roots.

mod convert;
mod file;
mod objects;
mod registry;
mod source;

pub use file::ColumnsFile;
pub use registry::TokenizerRegistry;

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(s: &str);
}

#[wasm_bindgen]
extern "C" {
    // The global `performance`: a page's, a Worker's and Node's alike.
    #[wasm_bindgen(thread_local_v2, js_name = performance)]
    static PERFORMANCE: Option<web_sys::Performance>;
}

/// Milliseconds from `performance.now()` (0 where there is none).
pub(crate) fn now() -> f64 {
    PERFORMANCE.with(|p| p.as_ref().map_or(0.0, web_sys::Performance::now))
}

/// Wraps buffers a worker decoded (and transferred) in a `Column`, so
/// columns read through the worker pool behave like any other.
#[wasm_bindgen(js_name = columnFromParts, skip_typescript)]
pub fn column_from_parts(
    ty: &str,
    length: f64,
    null_count: f64,
    values: JsValue,
    validity: JsValue,
) -> convert::JsColumn {
    convert::adopt(convert::JsColumn::new(ty, length, null_count, values, validity))
}

/// Takes back the buffers of columns a caller is done with (emptying the
/// columns), for the worker pool to send to the worker that refills them.
#[wasm_bindgen(js_name = handBack, skip_typescript)]
pub fn hand_back(reuse: &JsValue) -> Result<js_sys::Array, JsValue> {
    convert::take_back(reuse)
}

/// The module's WebAssembly.Memory, to watch its size (it should not keep
/// growing across repeated reads).
#[wasm_bindgen(js_name = wasmMemory)]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}

/// Runs when the module loads. A panic aborts the instance, so every input
/// path returns errors instead; this hook only makes a bug that slips
/// through say where it happened.
#[wasm_bindgen(start)]
fn start() {
    std::panic::set_hook(Box::new(|info| console_error(&format!("columns-wasm: internal error (a bug): {info}"))));
}
