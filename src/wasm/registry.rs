//! `TokenizerRegistry`: tokenizer.json files by SHA-256 digest, shared by
//! every file opened with it (a tokenizer registered later is seen by
//! files opened earlier, so the page can re-read a column once supplied).

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;

use wasm_bindgen::JsCast;

use super::convert::{describe, js_error, usage_error};
use super::source::{copy_out, view_len};
use crate::tokenizer::{Digest, Registry};

/// The largest tokenizer.json accepted: about four times the largest in
/// common use (tens of MB); parsing one takes a few times its size.
const MAX_TOKENIZER_JSON: u64 = 128 << 20;

pub(crate) type Shared = Rc<RefCell<Registry>>;

thread_local! {
    // wasm-bindgen cannot take an optional reference to an exported class,
    // so files find the registry they were given through this handle table.
    static LIVE: RefCell<(u32, Vec<(u32, Shared)>)> = const { RefCell::new((0, Vec::new())) };
}

#[wasm_bindgen]
pub struct TokenizerRegistry {
    handle: u32,
    inner: Shared,
}

#[wasm_bindgen]
impl TokenizerRegistry {
    #[wasm_bindgen(constructor)]
    pub fn new() -> TokenizerRegistry {
        let inner: Shared = Rc::default();
        let handle = LIVE.with(|l| {
            let mut l = l.borrow_mut();
            l.0 += 1;
            let h = l.0;
            l.1.push((h, inner.clone()));
            h
        });
        TokenizerRegistry { handle, inner }
    }

    /// Registers a tokenizer.json (its exact bytes, as a Uint8Array,
    /// ArrayBuffer or any ArrayBufferView) and returns its lowercase hex
    /// SHA-256 digest. Registering the same bytes twice is harmless. Files
    /// over 128 MiB are refused (`too_large`) before they are copied.
    pub fn register(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Bytes")] tokenizer_json: JsValue,
    ) -> Result<String, JsValue> {
        let view = super::file::bytes_arg(&tokenizer_json, "register", "a tokenizer.json's bytes")?;
        let len = view_len(&view);
        if len > MAX_TOKENIZER_JSON {
            return Err(usage_error(
                "too_large",
                &format!("a tokenizer.json of {len} bytes exceeds the {MAX_TOKENIZER_JSON} bytes this reader accepts"),
            ));
        }
        let bytes = copy_out(&view, 0, len)?;
        self.inner.borrow_mut().register(&bytes).map(|d| d.to_hex()).map_err(|e| js_error(&e))
    }

    /// Whether a tokenizer with this hex digest is registered.
    pub fn has(&self, #[wasm_bindgen(unchecked_param_type = "string")] digest: JsValue) -> Result<bool, JsValue> {
        let Some(s) = digest.dyn_ref::<js_sys::JsString>() else {
            return Err(usage_error(
                "bad_argument",
                &format!("has() takes a hex digest string; got {}", describe(&digest)),
            ));
        };
        // A digest is 64 hex digits: anything longer is not one (and is not copied).
        Ok(s.length() == 64 && Digest::from_hex(&String::from(s)).is_some_and(|d| self.inner.borrow().has(&d)))
    }

    /// Hex digests of every registered tokenizer, in registration order.
    pub fn digests(&self) -> Vec<String> {
        self.inner.borrow().digests().iter().map(Digest::to_hex).collect()
    }

    /// Number of registered tokenizers.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> usize {
        self.inner.borrow().len()
    }

    #[wasm_bindgen(getter, js_name = "__handle", skip_typescript)]
    pub fn handle(&self) -> u32 {
        self.handle
    }
}

impl Default for TokenizerRegistry {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for TokenizerRegistry {
    fn drop(&mut self) {
        // Files opened with it keep their own reference.
        LIVE.with(|l| l.borrow_mut().1.retain(|(h, _)| *h != self.handle));
    }
}

#[wasm_bindgen]
extern "C" {
    /// An optional registry argument, as JS passes it.
    #[wasm_bindgen(typescript_type = "TokenizerRegistry")]
    pub type RegistryArg;
}

pub(crate) fn from_arg(arg: Option<RegistryArg>) -> Result<Shared, JsValue> {
    from_js(&arg.map_or(JsValue::UNDEFINED, JsValue::from))
}

/// The registry a JS argument names: a `TokenizerRegistry`, or
/// `undefined`/`null` for a private empty one.
pub(crate) fn from_js(v: &JsValue) -> Result<Shared, JsValue> {
    if v.is_undefined() || v.is_null() {
        return Ok(Rc::default());
    }
    let handle = match js_sys::Reflect::get(v, &JsValue::from_str("__handle")) {
        Ok(h) => h.as_f64(),
        // A freed registry's guarded getter throws `freed`: that error, not "not a registry".
        Err(e)
            if js_sys::Reflect::get(&e, &"kind".into()).ok().and_then(|k| k.as_string()).as_deref()
                == Some("freed") =>
        {
            return Err(e)
        }
        Err(_) => None,
    };
    handle
        .and_then(|h| LIVE.with(|l| l.borrow().1.iter().find(|(k, _)| *k as f64 == h).map(|(_, r)| r.clone())))
        .ok_or_else(|| {
            super::convert::usage_error("bad_argument", "registry must be a live TokenizerRegistry (or undefined)")
        })
}
