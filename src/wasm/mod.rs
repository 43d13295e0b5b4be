//! The JavaScript API (wasm32 only): a thin layer that converts between the
//! core's Rust values and JS values, and nothing else. See the package
//! README for the API; `ColumnsFile` and `TokenizerRegistry` are its roots.

mod convert;
mod file;
mod objects;
mod registry;
mod scoped;
mod source;

pub use file::ColumnsFile;
pub use registry::TokenizerRegistry;

use wasm_bindgen::prelude::*;

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

/// A promise of an async entry point's result. Every entry's future goes
/// through this one boxed type, so `future_to_promise`'s polling and
/// settling code is in the module once, not once per entry point.
pub(crate) fn promise(f: impl core::future::Future<Output = Result<JsValue, JsValue>> + 'static) -> js_sys::Promise {
    spawn(Box::pin(f))
}

#[inline(never)]
fn spawn(f: core::pin::Pin<Box<dyn core::future::Future<Output = Result<JsValue, JsValue>>>>) -> js_sys::Promise {
    wasm_bindgen_futures::future_to_promise(f)
}

/// The module's WebAssembly.Memory, to watch its size (it should not keep
/// growing across repeated reads).
#[wasm_bindgen(js_name = wasmMemory)]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}

// No panic hook: a panic aborts the instance, so every input path returns
// errors instead (fuzzed, and the hostile calls of tests/node). A hook that
// printed where a bug panicked cost 447 B gzip of formatting, more than the
// budget had; the same input read natively (examples/conformance) says
// where.
