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
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(s: &str);
}

// talc in place of Rust's default wasm allocator (dlmalloc): 2,058 bytes
// less gzip for reads as fast (bench/run, Chromium and Node). A failed
// allocation still returns null (memory.grow's failure), so `try_reserve`
// fails cleanly; freed memory is coalesced and reused, and grown memory
// extends the heap, so repeated reads do not grow wasm memory.
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

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

/// Runs when the module loads. A panic aborts the instance, so every input
/// path returns errors instead; this hook only makes a bug that slips
/// through say where it happened.
#[wasm_bindgen(start)]
fn start() {
    std::panic::set_hook(Box::new(|info| console_error(&format!("columns-wasm: internal error (a bug): {info}"))));
}
