//! The corpus (`corpus/`) through the JavaScript-facing API inside headless
//! Chromium (wasm-bindgen-test), with the same checker as the Node suites
//! (`tests/js/check.mjs`, loaded as a wasm-bindgen snippet).
//!
//! The corpus is too large to embed and the test runner serves only its own
//! files, so `tests/run-js.sh` starts `tools/serve.mjs` (which serves the
//! project root, so the corpus at `/corpus/`) and passes, at compile time:
//! - `COLUMNS_CORPUS_URL`: the corpus base URL, e.g. `http://127.0.0.1:P/corpus/`;
//! - `COLUMNS_CORPUS_FILES`: every `NAME` (relative, no extension) that has
//!   both `NAME.cols` and `NAME.json.gz` (or `NAME.json`, the expected
//!   values, which `fetchExpected` unpacks), comma-separated, listed from the
//!   file system by that same run, so the list cannot go stale;
//! - `COLUMNS_CORPUS_TOKENIZERS`: the tokenizer files, relative to the corpus.
//!
//! A missing variable fails every test here with a message naming it: the
//! suite never skips silently.
//!
//! Run: `tests/run-js.sh` (or, with the server up and the variables set,
//! `wasm-pack test --release --headless --chrome --chromedriver /usr/bin/chromedriver --mode no-install -- --test web`).

#![cfg(target_arch = "wasm32")]

use columns_wasm::wasm::{ColumnsFile, TokenizerRegistry};
use js_sys::{Array, Object, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

// option_env! rather than env!, so that building every wasm32 test target
// (clippy, `wasm-pack test --node`) still compiles; every test here fails at
// run time, naming the variable, when one is missing.
const CORPUS_URL: Option<&str> = option_env!("COLUMNS_CORPUS_URL");
const CORPUS_FILES: Option<&str> = option_env!("COLUMNS_CORPUS_FILES");
const CORPUS_TOKENIZERS: Option<&str> = option_env!("COLUMNS_CORPUS_TOKENIZERS");

fn setting(value: Option<&'static str>, name: &str, what: &str) -> Result<&'static str, String> {
    match value {
        Some(v) if !v.trim().is_empty() => Ok(v),
        _ => Err(format!("{name} was not set when this test was compiled: it must hold {what}. Run tests/run-js.sh, which starts the corpus server and sets it.")),
    }
}

fn base_url() -> Result<&'static str, String> {
    setting(CORPUS_URL, "COLUMNS_CORPUS_URL", "the served corpus URL (http://127.0.0.1:PORT/corpus/)")
}

fn corpus_names() -> Result<Vec<&'static str>, String> {
    let list =
        setting(CORPUS_FILES, "COLUMNS_CORPUS_FILES", "the comma-separated corpus names (valid/all_types_small,...)")?;
    Ok(list.split(',').map(str::trim).filter(|s| !s.is_empty()).collect())
}

fn tokenizer_files() -> Result<Vec<&'static str>, String> {
    let list = setting(
        CORPUS_TOKENIZERS,
        "COLUMNS_CORPUS_TOKENIZERS",
        "the comma-separated tokenizer files (tokenizers/x.json,...)",
    )?;
    Ok(list.split(',').map(str::trim).filter(|s| !s.is_empty()).collect())
}

#[wasm_bindgen(module = "/tests/web/support.js")]
extern "C" {
    #[wasm_bindgen(js_name = loadChecker)]
    fn load_checker(url: &str) -> Promise;
    #[wasm_bindgen(js_name = fetchBytes)]
    fn fetch_bytes(url: &str) -> Promise;
    #[wasm_bindgen(js_name = fetchExpected)]
    fn fetch_expected(stem: &str) -> Promise;
    #[wasm_bindgen(js_name = httpAsyncBuffer)]
    fn http_async_buffer(url: &str, log: &Array) -> Promise;
    #[wasm_bindgen(js_name = logText)]
    fn log_text(log: &Array) -> String;
    #[wasm_bindgen(js_name = scopedDetachFailures)]
    fn scoped_detach_failures(package_url: &str, file_url: &str, string_column: u32) -> Promise;
}

type TestResult = Result<(), String>;

fn js_text(v: &JsValue) -> String {
    if let Some(s) = v.as_string() {
        return s;
    }
    let message = Reflect::get(v, &"message".into()).ok().and_then(|m| m.as_string());
    let kind = Reflect::get(v, &"kind".into()).ok().and_then(|k| k.as_string());
    match (kind, message) {
        (Some(k), Some(m)) => format!("[{k}] {m}"),
        (None, Some(m)) => m,
        _ => format!("{v:?}"),
    }
}

async fn wait(p: Promise) -> Result<JsValue, String> {
    JsFuture::from(p).await.map_err(|e| js_text(&e))
}

fn get(target: &JsValue, key: &str) -> Result<JsValue, String> {
    Reflect::get(target, &key.into()).map_err(|e| js_text(&e))
}

fn corpus_url(rel: &str) -> String {
    let base = base_url().unwrap_or("").trim_end_matches('/');
    format!("{base}/{rel}")
}

/// The JS classes of the API as this test's wasm-bindgen glue defines them,
/// taken from live instances created through the Rust exports.
struct Api {
    /// tests/js/check.mjs's module namespace.
    checker: JsValue,
    columns_file: JsValue,
    tokenizer_registry: JsValue,
    tokenizers: Array,
}

/// tools/serve.mjs serves the project root at `/`, the corpus at
/// `/corpus/`: the checker is `tests/js/check.mjs` beside the corpus URL.
fn checker_url() -> Result<String, String> {
    Ok(format!("{}/tests/js/check.mjs", root_url()?))
}

/// The project root on the test server (the corpus URL without `/corpus/`).
fn root_url() -> Result<&'static str, String> {
    let base = base_url()?;
    base.trim_end_matches('/')
        .strip_suffix("/corpus")
        .ok_or_else(|| format!("COLUMNS_CORPUS_URL {base} does not end in /corpus/ (tools/serve.mjs layout)"))
}

/// Calls an exported function of the checker module.
fn checker_call(api: &Api, name: &str, args: &[&JsValue]) -> Result<JsValue, String> {
    let f: js_sys::Function =
        get(&api.checker, name)?.dyn_into().map_err(|_| format!("check.mjs exports no function {name}"))?;
    match args {
        [a] => f.call1(&JsValue::NULL, a),
        [a, b, c] => f.call3(&JsValue::NULL, a, b, c),
        _ => return Err("checker_call: unsupported arity".into()),
    }
    .map_err(|e| js_text(&e))
}

async fn api() -> Result<Api, String> {
    let url = checker_url()?;
    let checker = wait(load_checker(&url)).await.map_err(|e| format!("importing {url}: {e}"))?;
    let registry: JsValue = TokenizerRegistry::new().into();
    let tokenizer_registry = get(&registry, "constructor")?;
    // Any valid corpus file gives a ColumnsFile instance, hence its class.
    let first = corpus_names()?
        .into_iter()
        .find(|n| n.starts_with("valid/"))
        .ok_or("no valid/ file in COLUMNS_CORPUS_FILES")?;
    let bytes: Uint8Array = wait(fetch_bytes(&corpus_url(&format!("{first}.cols"))))
        .await?
        .dyn_into()
        .map_err(|_| "fetchBytes gave no Uint8Array")?;
    let file: JsValue = ColumnsFile::from_bytes(bytes.into(), None).map_err(|e| js_text(&e))?.into();
    let columns_file = get(&file, "constructor")?;
    for (class, method) in
        [(&columns_file, "fromBytes"), (&columns_file, "fromBlob"), (&columns_file, "fromAsyncBuffer")]
    {
        if !get(class, method)?.is_function() {
            return Err(format!("ColumnsFile.{method} is not a function"));
        }
    }
    let free: js_sys::Function = get(&file, "free")?.unchecked_into();
    free.call0(&file).map_err(|e| js_text(&e))?;
    let tokenizers = Array::new();
    for rel in tokenizer_files()? {
        tokenizers.push(&wait(fetch_bytes(&corpus_url(rel))).await?);
    }
    if tokenizers.length() == 0 {
        return Err("COLUMNS_CORPUS_TOKENIZERS names no tokenizer".into());
    }
    Ok(Api { checker, columns_file, tokenizer_registry, tokenizers })
}

/// Runs the checker on one corpus file in one mode: None = pass.
async fn check(
    api: &Api,
    name: &str,
    bytes: &JsValue,
    expected: &JsValue,
    tokenizers: &Array,
    mode: &str,
) -> Result<Option<String>, String> {
    let opts = Object::new();
    for (k, v) in [
        ("ColumnsFile", api.columns_file.clone()),
        ("TokenizerRegistry", api.tokenizer_registry.clone()),
        ("bytes", bytes.clone()),
        ("expected", expected.clone()),
        ("tokenizers", tokenizers.clone().into()),
        ("name", format!("{}.cols", name.rsplit('/').next().unwrap_or(name)).into()),
        ("mode", mode.into()),
    ] {
        Reflect::set(&opts, &k.into(), &v).map_err(|e| js_text(&e))?;
    }
    let outcome = wait(Promise::resolve(&checker_call(api, "checkFile", &[&opts])?)).await?;
    Ok(if outcome.is_null() { None } else { Some(js_text(&outcome)) })
}

/// Every corpus file under `dir`, checked via fromBytes, fromAsyncBuffer and
/// fromBlob (a Blob built in the browser). Fails naming every failing file.
async fn check_dir(dir: &str) -> TestResult {
    let api = api().await?;
    let names: Vec<_> = corpus_names()?.into_iter().filter(|n| n.starts_with(&format!("{dir}/"))).collect();
    if names.is_empty() {
        return Err(format!("COLUMNS_CORPUS_FILES lists nothing under {dir}/"));
    }
    let mut failures = Vec::new();
    for name in &names {
        let bytes = wait(fetch_bytes(&corpus_url(&format!("{name}.cols")))).await?;
        let expected = wait(fetch_expected(&corpus_url(name))).await?;
        for mode in ["bytes", "async", "blob"] {
            match check(&api, name, &bytes, &expected, &api.tokenizers, mode).await? {
                None => console_log!("pass {name} ({mode})"),
                Some(why) => {
                    console_log!("FAIL {name} ({mode}): {why}");
                    failures.push(format!("{name}.cols ({mode}): {why}"));
                }
            }
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!("{} of {} checks under {dir}/ failed:\n{}", failures.len(), names.len() * 3, failures.join("\n")))
    }
}

#[wasm_bindgen_test]
async fn corpus_list_covers_every_part() -> TestResult {
    base_url()?;
    let names = corpus_names()?;
    for dir in ["valid/", "invalid/", "real/"] {
        if !names.iter().any(|n| n.starts_with(dir)) {
            return Err(format!("COLUMNS_CORPUS_FILES has nothing under {dir}: {names:?}"));
        }
    }
    if names.len() < 50 {
        return Err(format!("only {} corpus files listed", names.len()));
    }
    Ok(())
}

#[wasm_bindgen_test]
async fn valid_corpus() -> TestResult {
    check_dir("valid").await
}

#[wasm_bindgen_test]
async fn invalid_corpus() -> TestResult {
    check_dir("invalid").await
}

#[wasm_bindgen_test]
async fn real_corpus() -> TestResult {
    check_dir("real").await
}

/// Tokenized files need their tokenizers: without any, the checker must
/// report unknown_tokenizer (checkFile itself also verifies, with the
/// tokenizers given, that a registry-less open refuses exactly the
/// tokenized chunks and names their digests).
#[wasm_bindgen_test]
async fn tokenized_files_without_tokenizers_fail() -> TestResult {
    let api = api().await?;
    let mut tokenized = 0;
    for name in corpus_names()?.into_iter().filter(|n| n.starts_with("valid/tokenized_")) {
        let bytes = wait(fetch_bytes(&corpus_url(&format!("{name}.cols")))).await?;
        let expected = wait(fetch_expected(&corpus_url(name))).await?;
        tokenized += 1;
        for mode in ["bytes", "blob"] {
            match check(&api, name, &bytes, &expected, &Array::new(), mode).await? {
                Some(why) if why.contains("unknown_tokenizer") => {}
                Some(why) => {
                    return Err(format!("{name} ({mode}) without tokenizers failed for another reason: {why}"))
                }
                None => return Err(format!("{name} ({mode}) passed without its tokenizers")),
            }
        }
    }
    if tokenized == 0 {
        return Err("no valid/tokenized_* file in the corpus list".into());
    }
    Ok(())
}

#[wasm_bindgen_test]
async fn registry_digests_match_the_corpus() -> TestResult {
    let api = api().await?;
    let registry =
        Reflect::construct(&api.tokenizer_registry.clone().into(), &Array::new()).map_err(|e| js_text(&e))?;
    let register: js_sys::Function = get(&registry, "register")?.into();
    let has: js_sys::Function = get(&registry, "has")?.into();
    let mut digests = Vec::new();
    for t in api.tokenizers.iter() {
        let d = register.call1(&registry, &t).map_err(|e| js_text(&e))?;
        // Registering the same bytes twice gives the same digest.
        let again = register.call1(&registry, &t).map_err(|e| js_text(&e))?;
        if d != again {
            return Err("registering twice gave another digest".into());
        }
        digests.push(d.as_string().ok_or("register() did not return a string")?);
    }
    if get(&registry, "size")?.as_f64() != Some(digests.len() as f64) {
        return Err("registry size counts duplicates".into());
    }
    let expected = wait(fetch_expected(&corpus_url("valid/tokenized_two_tokenizers"))).await?;
    let header: Array = get(&expected, "tokenizers")?.into();
    for d in header.iter() {
        let d = d.as_string().unwrap_or_default();
        if !digests.contains(&d) {
            return Err(format!("no registered tokenizer has the header digest {d}"));
        }
        if has.call1(&registry, &d.clone().into()).map_err(|e| js_text(&e))?.as_bool() != Some(true) {
            return Err(format!("has({d}) is not true"));
        }
    }
    if has.call1(&registry, &"00".repeat(32).into()).map_err(|e| js_text(&e))?.as_bool() != Some(false) {
        return Err("has() of an unknown digest is not false".into());
    }
    Ok(())
}

/// A real HTTP source: the test server answers Range requests. Opening
/// fetches only the ends of the file and each column one range.
#[wasm_bindgen_test]
async fn http_range_reads() -> TestResult {
    let api = api().await?;
    let name = "real/diamonds.optimized";
    let expected = wait(fetch_expected(&corpus_url(name))).await?;
    let log = Array::new();
    let source = wait(http_async_buffer(&corpus_url(&format!("{name}.cols")), &log)).await?;
    let from_async: js_sys::Function = get(&api.columns_file, "fromAsyncBuffer")?.into();
    let file = wait(Promise::resolve(&from_async.call1(&api.columns_file, &source).map_err(|e| js_text(&e))?)).await?;
    let footer = get(&expected, "footer_length")?.as_f64().ok_or("footer_length")?;
    let opened = log.length();
    let open_bytes = get(&file, "bytesRead")?.as_f64().unwrap_or(f64::NAN);
    // NaN (bytesRead missing) fails too.
    if opened > 4 || open_bytes.is_nan() || open_bytes > footer + 8.0 + 9.0 + 5.0 {
        return Err(format!("open made {opened} requests for {open_bytes} bytes: {}", log_text(&log)));
    }
    let schema: Array = get(&expected, "schema")?.into();
    let group = get(&get(&expected, "row_groups")?, "0")?;
    let values: Array = get(&group, "values")?.into();
    let columns: Array = get(&group, "columns")?.into();
    let read_one: js_sys::Function = get(&file, "readColumnAsync")?.into();
    let mut chunk_bytes = 0.0;
    for c in 0..schema.length() {
        let before = log.length();
        let col =
            wait(Promise::resolve(&read_one.call2(&file, &0.into(), &c.into()).map_err(|e| js_text(&e))?)).await?;
        let ty = get(&schema.get(c), "type")?.as_string().unwrap_or_default();
        let json = checker_call(&api, "columnJson", &[&col, &ty.into(), &format!("col {c}").into()])?;
        let diff = checker_call(&api, "compare", &[&format!("values[{c}]").into(), &values.get(c), &json])?;
        if !diff.is_null() {
            return Err(format!("{name} over HTTP: {}", js_text(&diff)));
        }
        let chunk = columns.get(c);
        let start = get(&chunk, "chunk_offset")?.as_f64().unwrap_or(-1.0);
        let length = get(&chunk, "byte_length")?.as_f64().unwrap_or(-1.0);
        chunk_bytes += length;
        let fetched = log.slice(before, log.length());
        if log_text(&fetched) != format!("{start}-{}", start + length) {
            return Err(format!(
                "column {c} fetched {} instead of the chunk {start}-{}",
                log_text(&fetched),
                start + length
            ));
        }
    }
    // Exactly the ends once, then every chunk once.
    let total = get(&file, "bytesRead")?.as_f64().unwrap_or(f64::NAN);
    if total != open_bytes + chunk_bytes || get(&file, "requests")?.as_f64() != Some(log.length() as f64) {
        return Err(format!(
            "bytesRead {total} (open {open_bytes} + chunks {chunk_bytes}), requests vs log: {}",
            log_text(&log)
        ));
    }
    Ok(())
}

/// The scoped read's views fail loudly in Chromium too: after the callback
/// (or loop step) they were lent for, they are detached (length 0, methods
/// throw) and the columns throw `released`, through the built package
/// (pkg/, served by tools/serve.mjs; its own module instance).
#[wasm_bindgen_test]
async fn scoped_views_are_detached_when_their_scope_ends() -> TestResult {
    let package = format!("{}/pkg/columns_wasm.js", root_url()?);
    // movielens.default: two row groups; column 3 holds strings.
    let file = corpus_url("real/movielens.default.cols");
    let failures = wait(scoped_detach_failures(&package, &file, 3)).await.map_err(|e| format!("{package}: {e}"))?;
    let failures: Array = failures.dyn_into().map_err(|_| "scopedDetachFailures gave no array")?;
    if failures.length() == 0 {
        Ok(())
    } else {
        Err(failures.iter().map(|f| js_text(&f)).collect::<Vec<_>>().join("\n"))
    }
}

/// Remap indices are 5-byte LEB128 varints, so up to 35 bits: on wasm32,
/// where `usize` is 32 bits, an index of 2^32 + 1 must be refused as
/// natively, not wrap to entry 1 of the table (the native unit tests cannot
/// see this; it only happens with a 32-bit `usize`).
#[wasm_bindgen_test]
fn remap_index_beyond_32_bits_is_refused() -> TestResult {
    use columns_wasm::{encoding, ColumnType, Encoding, ErrorKind, Tokenizer};
    let tok = Tokenizer::from_json(br#"{"model":{"type":"BPE","vocab":{"a":0,"b":1}}}"#).map_err(|e| e.to_string())?;
    // Remap ids, Counts boundaries; 1 value of 1 token, no escapes, a
    // 2-entry table [0, 1].
    let mut s = vec![1u8, 0];
    for x in [1u32, 1, 0, 2] {
        s.extend_from_slice(&x.to_le_bytes());
    }
    s.extend_from_slice(&[0, 0, 1, 0]); // table: ids 0 and 1
    s.extend_from_slice(&1u32.to_le_bytes()); // the value's token count
    let good = encoding::decode(Encoding::Tokenized, ColumnType::String, 1, 1, &[&s[..], &[0x01]].concat(), Some(&tok));
    match good {
        Ok(columns_wasm::Values::Bytes { data, .. }) if data == b"b" => {}
        Ok(_) => return Err("index 1 should read \"b\", and read other values".into()),
        Err(e) => return Err(format!("index 1 should read \"b\", got {e}")),
    }
    // 2^32 + 1 as a 5-byte varint.
    let bad = [&s[..], &[0x81, 0x80, 0x80, 0x80, 0x10]].concat();
    match encoding::decode(Encoding::Tokenized, ColumnType::String, 1, 1, &bad, Some(&tok)) {
        Err(e) if e.kind == ErrorKind::CorruptChunk => Ok(()),
        Err(e) => Err(format!("expected corrupt_chunk, got {e}")),
        Ok(_) => Err("a 35-bit Remap index was read as a value (it wrapped into the table's range)".into()),
    }
}
