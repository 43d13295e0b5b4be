//! What reading into kept buffers (`columns_wasm::reuse`, behind the scoped
//! read) allocates, counted by a global allocator: every corpus file
//! (corpus/valid, corpus/real, and flights-3m from ../shared when it is
//! there) is read whole three times. On the second pass, whose buffers are
//! already as large as any chunk needs, no chunk of any encoding or codec
//! may allocate (decoders write into the kept values and their own kept
//! buffers), and the third must leave exactly as many bytes live as the
//! second (nothing grows). The counts per encoding and per codec are
//! printed (`--nocapture`).

// Native only: its counting global allocator would clash with the wasm32
// build's own (talc, src/wasm/mod.rs).
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::BTreeMap;
use std::path::PathBuf;

use columns_wasm::read::prepare;
use columns_wasm::reuse::{ColumnBuffers, Scratch};
use columns_wasm::FileMeta;
use common::conformance::load_tokenizers;

/// Counts this thread's allocations (a reallocation counts as one) and its
/// live bytes.
struct Counting;
thread_local! {
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
    static LIVE: Cell<isize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = System.alloc(l);
        if !p.is_null() {
            let _ = ALLOCS.try_with(|a| a.set(a.get() + 1));
            let _ = LIVE.try_with(|b| b.set(b.get() + l.size() as isize));
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l);
        let _ = LIVE.try_with(|b| b.set(b.get() - l.size() as isize));
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, size: usize) -> *mut u8 {
        let q = System.realloc(p, l, size);
        if !q.is_null() {
            let _ = ALLOCS.try_with(|a| a.set(a.get() + 1));
            let _ = LIVE.try_with(|b| b.set(b.get() + size as isize - l.size() as isize));
        }
        q
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

fn allocs() -> usize {
    ALLOCS.with(Cell::get)
}
fn live() -> isize {
    LIVE.with(Cell::get)
}

fn files() -> Vec<PathBuf> {
    let corpus = common::corpus();
    let mut files = Vec::new();
    for dir in ["valid", "real"] {
        let mut d: Vec<PathBuf> = std::fs::read_dir(corpus.join(dir)).unwrap().flatten().map(|e| e.path()).collect();
        d.retain(|p| p.extension().is_some_and(|e| e == "cols"));
        d.sort();
        files.extend(d);
    }
    // flights-3m (46 row groups of 65,536 rows) when ../shared is there.
    if let Some(real) = common::shared_bench().map(|b| b.join("real")) {
        files.extend(
            ["flights-3m.default.cols", "flights-3m.optimized.cols"]
                .map(|f| real.join(f))
                .into_iter()
                .filter(|p| p.is_file()),
        );
    }
    files
}

#[test]
fn a_second_pass_over_kept_buffers_allocates_nothing() {
    let registry = load_tokenizers(&common::corpus().join("tokenizers"));
    // Per encoding, then per codec: chunks read on the second pass, and
    // what they allocated.
    let mut by_encoding: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut by_codec: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    for path in files() {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(meta) = FileMeta::from_bytes(&bytes) else { continue };
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let cols = meta.schema.len();
        // Which chunks read at all, and their encoding and codec.
        let mut kind = vec![None; meta.row_groups.len() * cols];
        for g in 0..meta.row_groups.len() {
            for c in 0..cols {
                let chunk = meta.chunk_bytes(&bytes, g, c).unwrap();
                if let Ok(p) = prepare(&meta, g, c, chunk, &registry) {
                    if columns_wasm::read_column(&meta, g, c, chunk, &registry).is_ok() {
                        let (e, k) = (p.chunk.encoding.name(), p.chunk.codec.name());
                        let values = if p.ty.is_variable() { "strings" } else { "fixed-width" };
                        kind[g * cols + c] = Some((format!("{e} {values}"), k.to_string()));
                    }
                }
            }
        }
        let mut scratch = Scratch::new();
        let mut kept: Vec<ColumnBuffers> = (0..cols).map(|_| ColumnBuffers::default()).collect();
        let mut pass = |count: &mut dyn FnMut(usize, usize, usize)| {
            for g in 0..meta.row_groups.len() {
                for (c, out) in kept.iter_mut().enumerate() {
                    if kind[g * cols + c].is_none() {
                        continue;
                    }
                    let chunk = meta.chunk_bytes(&bytes, g, c).unwrap();
                    let before = allocs();
                    scratch.read(&meta, g, c, chunk, &registry, out).unwrap();
                    count(g, c, allocs() - before);
                }
            }
        };
        pass(&mut |_, _, _| {});
        pass(&mut |g, c, n| {
            let Some((enc, codec)) = &kind[g * cols + c] else { return };
            for (map, key) in [(&mut by_encoding, enc), (&mut by_codec, codec)] {
                let e = map.entry(key.clone()).or_default();
                e.0 += 1;
                e.1 += n;
            }
            if n > 0 {
                failures.push(format!("{name}: row group {g} column {c} ({enc}, {codec}) allocated {n} times"));
            }
        });
        let live_after_second = live();
        pass(&mut |_, _, _| {});
        assert_eq!(live(), live_after_second, "{name}: the third pass left a different number of bytes live");
    }
    eprintln!("second pass over kept buffers, per encoding: chunks, allocations");
    for (k, (chunks, n)) in &by_encoding {
        eprintln!("  {k:<28} {chunks:>5} {n:>6}");
    }
    eprintln!("per codec:");
    for (k, (chunks, n)) in &by_codec {
        eprintln!("  {k:<28} {chunks:>5} {n:>6}");
    }
    let chunks: usize = by_encoding.values().map(|v| v.0).sum();
    assert!(chunks > 1500, "only {chunks} chunks were read");
    // Every encoding and codec the format has is among them.
    for e in ["Plain", "RLEBitpack", "Delta", "Dict", "OffsetBytes", "Affix", "Tokenized"] {
        assert!(by_encoding.keys().any(|k| k.starts_with(&format!("{e} "))), "no {e} chunk was read");
    }
    for k in ["None", "Flate", "Gzip", "Zlib", "Lzw"] {
        assert!(by_codec.contains_key(k), "no {k} chunk was read");
    }
    assert!(failures.is_empty(), "{} chunks allocated on the second pass:\n{}", failures.len(), failures.join("\n"));
}
