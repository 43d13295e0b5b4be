//! The conformance check: reads a `NAME.cols` with the core, renders
//! everything it read in the corpus JSON's own form, and compares that with
//! `NAME.json` (or `NAME.json.gz`, gunzipped) key by key. A JSON with `"error"` expects that error kind, at
//! open or (with `"at": "read"`) from at least one column read.
//!
//! Shared by `examples/conformance.rs` (the runner for any directory) and
//! the test suite (the project's `corpus/`).

#![allow(dead_code)]

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use columns_wasm::{read_column, Column, ColumnType, FileMeta, Registry, Scalar, Values};
use serde_json::{json, Value};

pub struct Outcome {
    pub name: String,
    /// `None` = passed; otherwise what differed.
    pub failure: Option<String>,
}

/// Registers every `*.json` in `dir` that parses as a tokenizer.
pub fn load_tokenizers(dir: &Path) -> Registry {
    let mut reg = Registry::new();
    if let Ok(entries) = fs::read_dir(dir) {
        let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            if p.extension().is_some_and(|e| e == "json") {
                if let Ok(bytes) = fs::read(&p) {
                    let _ = reg.register(&bytes);
                }
            }
        }
    }
    reg
}

/// The expected JSON beside `NAME.cols`: `NAME.json`, else `NAME.json.gz`.
pub fn expected_path(cols: &Path) -> Option<PathBuf> {
    let plain = cols.with_extension("json");
    let gz = cols.with_extension("json.gz");
    [plain, gz].into_iter().find(|p| p.is_file())
}

/// The text of a `.json`, or of a `.json.gz` unpacked.
pub fn read_json_text(path: &Path) -> Result<String, String> {
    let bytes = fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if path.extension().is_some_and(|e| e == "gz") {
        let mut text = String::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot gunzip {}: {e}", path.display()))?;
        return Ok(text);
    }
    String::from_utf8(bytes).map_err(|e| format!("{}: not UTF-8: {e}", path.display()))
}

/// Every `NAME.cols` under `dir` (recursively) that has a `NAME.json` or
/// `NAME.json.gz`, sorted. `.cols` files without one are returned separately.
pub fn find_pairs(dir: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let (mut pairs, mut orphans) = (Vec::new(), Vec::new());
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "cols") {
                if expected_path(&p).is_some() {
                    pairs.push(p);
                } else {
                    orphans.push(p);
                }
            }
        }
    }
    pairs.sort();
    orphans.sort();
    (pairs, orphans)
}

pub fn check_dir(dir: &Path, registry: &Registry) -> (Vec<Outcome>, Vec<PathBuf>) {
    let (pairs, orphans) = find_pairs(dir);
    let outcomes = pairs
        .iter()
        .map(|p| {
            let name = p.strip_prefix(dir).unwrap_or(p).display().to_string();
            Outcome { name, failure: check_file(p, registry).err() }
        })
        .collect();
    (outcomes, orphans)
}

pub fn check_file(cols: &Path, registry: &Registry) -> Result<(), String> {
    let bytes = fs::read(cols).map_err(|e| format!("cannot read: {e}"))?;
    let json = expected_path(cols).ok_or("no NAME.json or NAME.json.gz beside it")?;
    let text = read_json_text(&json)?;
    let expected: Value = serde_json::from_str(&text).map_err(|e| format!("bad JSON: {e}"))?;
    match expected.get("error").and_then(Value::as_str) {
        Some(kind) => check_error(&bytes, kind, expected.get("at").and_then(Value::as_str) == Some("read"), registry),
        None => check_valid(&bytes, cols, &expected, registry),
    }
}

fn check_error(bytes: &[u8], kind: &str, at_read: bool, registry: &Registry) -> Result<(), String> {
    let opened = FileMeta::from_bytes(bytes);
    if !at_read {
        return match opened {
            Ok(_) => Err(format!("opened, expected {kind}")),
            Err(e) if e.kind.as_str() == kind => Ok(()),
            Err(e) => Err(format!("expected {kind}, got {e}")),
        };
    }
    let meta = opened.map_err(|e| format!("expected to open (then fail reading with {kind}), got {e}"))?;
    let mut failures = 0;
    for g in 0..meta.row_groups.len() {
        for c in 0..meta.schema.len() {
            let chunk = meta.chunk_bytes(bytes, g, c).map_err(|e| e.to_string())?;
            match read_column(&meta, g, c, chunk, registry) {
                Ok(_) => {}
                Err(e) if e.kind.as_str() == kind => failures += 1,
                Err(e) => return Err(format!("expected {kind}, got {e}")),
            }
        }
    }
    if failures == 0 {
        return Err(format!("every column read, expected {kind}"));
    }
    Ok(())
}

fn check_valid(bytes: &[u8], path: &Path, expected: &Value, registry: &Registry) -> Result<(), String> {
    let meta = FileMeta::from_bytes(bytes).map_err(|e| format!("failed to open: {e}"))?;
    let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let actual = render(bytes, &meta, &file, registry)?;
    compare("", expected, &actual)?;
    check_missing_tokenizers(bytes, &meta)
}

/// Opened with no tokenizers, every tokenized chunk must be refused with
/// `unknown_tokenizer` naming its digest; every other chunk must still read.
fn check_missing_tokenizers(bytes: &[u8], meta: &FileMeta) -> Result<(), String> {
    if meta.tokenizers.is_empty() {
        return Ok(());
    }
    let empty = Registry::new();
    for (g, rg) in meta.row_groups.iter().enumerate() {
        for (c, cm) in rg.chunks.iter().enumerate() {
            let chunk = meta.chunk_bytes(bytes, g, c).map_err(|e| e.to_string())?;
            let result = read_column(meta, g, c, chunk, &empty);
            let tokenized = chunk[0] == columns_wasm::Encoding::Tokenized.tag();
            match (tokenized, result) {
                (true, Err(e)) => {
                    let digest = meta.chunk_digest(cm).map(|d| d.to_hex()).unwrap_or_default();
                    if e.kind.as_str() != "unknown_tokenizer" || !e.message.contains(&digest) {
                        return Err(format!(
                            "rg {g} col {c} without tokenizers: expected unknown_tokenizer naming {digest}, got {e}"
                        ));
                    }
                }
                (true, Ok(_)) => return Err(format!("rg {g} col {c} is tokenized but read without its tokenizer")),
                (false, Err(e)) => {
                    return Err(format!("rg {g} col {c} is not tokenized but failed without tokenizers: {e}"))
                }
                (false, Ok(_)) => {}
            }
        }
    }
    Ok(())
}

/// Everything the reader knows about a file, in the corpus JSON's form.
fn render(bytes: &[u8], meta: &FileMeta, file: &str, registry: &Registry) -> Result<Value, String> {
    let schema: Vec<Value> = meta
        .schema
        .iter()
        .map(|s| json!({"name": s.name_lossy(), "type": s.ty.name(), "type_tag": s.ty.tag(), "nullable": s.nullable}))
        .collect();
    let mut groups = Vec::new();
    for (g, rg) in meta.row_groups.iter().enumerate() {
        let mut columns = Vec::new();
        let mut values = Vec::new();
        for (c, cm) in rg.chunks.iter().enumerate() {
            let chunk_bytes = meta.chunk_bytes(bytes, g, c).map_err(|e| e.to_string())?;
            let chunk = columns_wasm::chunk::Chunk::parse(chunk_bytes, rg.num_rows, meta.schema[c].nullable)
                .map_err(|e| format!("rg {g} col {c}: {e}"))?;
            if chunk.encoding.tag() != cm.encoding_tag || chunk.codec.tag() != cm.codec_tag {
                return Err(format!("rg {g} col {c}: footer tags differ from the chunk header"));
            }
            let ty = meta.schema[c].ty;
            let (min, max) = meta.chunk_stats(c, cm);
            columns.push(json!({
                "block_count": chunk.blocks.len(),
                "byte_length": cm.byte_length,
                "chunk_offset": cm.offset,
                "codec": chunk.codec.name(),
                "codec_tag": chunk.codec.tag(),
                "encoding": chunk.encoding.name(),
                "encoding_tag": chunk.encoding.tag(),
                "max": scalar_json(ty, max),
                "max_hex": hex(&cm.max_raw),
                "max_len": cm.max_len,
                "min": scalar_json(ty, min),
                "min_hex": hex(&cm.min_raw),
                "min_len": cm.min_len,
                "null_count": cm.null_count,
                "raw_length": chunk.raw_length,
                "tokenizer": cm.tokenizer,
            }));
            let col = read_column(meta, g, c, chunk_bytes, registry).map_err(|e| format!("read failed: {e}"))?;
            values.push(column_json(&col));
        }
        groups.push(
            json!({"num_rows": rg.num_rows, "byte_offset": rg.byte_offset, "columns": columns, "values": values}),
        );
    }
    let tokenizers = if meta.version() == 1 {
        Value::Null
    } else {
        Value::Array(meta.tokenizers.iter().map(|d| Value::String(d.to_hex())).collect())
    };
    Ok(json!({
        "file": file,
        "size": bytes.len(),
        "version": meta.version(),
        "footer_length": meta.prelude.footer_len,
        "tokenizers": tokenizers,
        "schema": schema,
        "row_groups": if groups.is_empty() { Value::Null } else { Value::Array(groups) },
    }))
}

/// Compares every key of `expected` (except the free-text `note`) with
/// `actual`; reports the first difference by its path.
fn compare(path: &str, expected: &Value, actual: &Value) -> Result<(), String> {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            for (k, ev) in e {
                if path.is_empty() && k == "note" {
                    continue;
                }
                let p = format!("{path}.{k}");
                let av = a.get(k).ok_or_else(|| format!("{p}: the reader reports nothing for this key"))?;
                compare(&p, ev, av)?;
            }
            Ok(())
        }
        (Value::Array(e), Value::Array(a)) => {
            if e.len() != a.len() {
                return Err(format!("{path}: expected {} items, read {}", e.len(), a.len()));
            }
            for (i, (ev, av)) in e.iter().zip(a).enumerate() {
                compare(&format!("{path}[{i}]"), ev, av)?;
            }
            Ok(())
        }
        _ if expected == actual => Ok(()),
        _ => Err(format!("{path}: expected {}, read {}", short(expected), short(actual))),
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 120 {
        format!("{}...", &s[..120])
    } else {
        s
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn text_json(b: &[u8]) -> Value {
    match std::str::from_utf8(b) {
        Ok(s) => Value::String(s.to_string()),
        Err(_) => json!({"hex": hex(b)}),
    }
}

fn scalar_json(ty: ColumnType, s: Option<Scalar>) -> Value {
    match s {
        None => Value::Null,
        Some(Scalar::Bool(b)) => Value::Bool(b),
        Some(Scalar::Int(i)) if ty == ColumnType::Int64 => Value::String(i.to_string()),
        Some(Scalar::Int(i)) => json!(i),
        Some(Scalar::Uint(u)) if ty == ColumnType::Uint64 => Value::String(u.to_string()),
        Some(Scalar::Uint(u)) => json!(u),
        Some(Scalar::Float32(f)) => Value::String(format!("0x{:08x}", f.to_bits())),
        Some(Scalar::Float64(f)) => Value::String(format!("0x{:016x}", f.to_bits())),
        Some(Scalar::Bytes(b)) if ty == ColumnType::String => text_json(&b),
        Some(Scalar::Bytes(b)) => Value::String(hex(&b)),
    }
}

/// A decoded column in the corpus's value form, nulls as `null`.
pub fn column_json(col: &Column) -> Value {
    let n = col.len();
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        if !col.is_valid(i) {
            out.push(Value::Null);
            continue;
        }
        out.push(match &col.values {
            Values::Bool(v) => Value::Bool(v[i] != 0),
            Values::Int8(v) => json!(v[i]),
            Values::Int16(v) => json!(v[i]),
            Values::Int32(v) => json!(v[i]),
            Values::Int64(v) => Value::String(v[i].to_string()),
            Values::Uint8(v) => json!(v[i]),
            Values::Uint16(v) => json!(v[i]),
            Values::Uint32(v) => json!(v[i]),
            Values::Uint64(v) => Value::String(v[i].to_string()),
            Values::Float32(v) => Value::String(format!("0x{:08x}", v[i].to_bits())),
            Values::Float64(v) => Value::String(format!("0x{:016x}", v[i].to_bits())),
            Values::Bytes { .. } => {
                let b = col.values.bytes_at(i).unwrap_or_default();
                if col.ty == ColumnType::String {
                    text_json(b)
                } else {
                    Value::String(hex(b))
                }
            }
        });
    }
    Value::Array(out)
}

/// Prints one line per file and the summary; returns (passed, failed).
pub fn run_and_print(dir: &Path, tokenizer_dir: &Path) -> (usize, usize) {
    let registry = load_tokenizers(tokenizer_dir);
    let (outcomes, orphans) = check_dir(dir, &registry);
    for o in &orphans {
        println!("skip {} (no expected JSON beside it; not counted)", o.display());
    }
    let mut failed = 0;
    for o in &outcomes {
        match &o.failure {
            None => println!("pass {}", o.name),
            Some(why) => {
                failed += 1;
                println!("FAIL {}: {why}", o.name);
            }
        }
    }
    let passed = outcomes.len() - failed;
    println!("{passed} passed, {failed} failed");
    (passed, failed)
}
