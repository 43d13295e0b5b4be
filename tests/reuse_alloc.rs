//! What reading into kept buffers (`columns_wasm::reuse`, behind the scoped
//! read) allocates, counted by a global allocator: every file is read
//! whole three times. The second pass, whose buffers are already as large
//! as any chunk needs, must allocate nothing for a chunk whose stream is
//! its values (Plain fixed-width, Delta 64-bit: decompressed straight into
//! the kept storage, nulls spread into kept storage), and the third must
//! leave exactly as many bytes live as the second (nothing grows). Other
//! encodings' decoders allocate their output; the count per read is
//! printed (`--nocapture`) and bounded.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
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
fn a_second_pass_over_kept_buffers_allocates_only_in_other_decoders() {
    let registry = load_tokenizers(&common::corpus().join("tokenizers"));
    let (mut typed_chunks, mut other_chunks, mut other_allocs) = (0usize, 0usize, 0usize);
    let mut worst = (0usize, String::new());
    for path in files() {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(meta) = FileMeta::from_bytes(&bytes) else { continue };
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let cols = meta.schema.len();
        // Which chunks decode straight into kept storage, and which read at all.
        let mut typed = vec![false; meta.row_groups.len() * cols];
        let mut ok = vec![false; typed.len()];
        for g in 0..meta.row_groups.len() {
            for c in 0..cols {
                let chunk = meta.chunk_bytes(&bytes, g, c).unwrap();
                if let Ok(p) = prepare(&meta, g, c, chunk, &registry) {
                    typed[g * cols + c] = p.stream_is_typed();
                    ok[g * cols + c] = columns_wasm::read_column(&meta, g, c, chunk, &registry).is_ok();
                }
            }
        }
        let mut scratch = Scratch::new();
        let mut kept: Vec<ColumnBuffers> = (0..cols).map(|_| ColumnBuffers::default()).collect();
        let mut pass = |count: &mut dyn FnMut(usize, usize, usize)| {
            for g in 0..meta.row_groups.len() {
                for (c, out) in kept.iter_mut().enumerate() {
                    if !ok[g * cols + c] {
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
        let mut file_other = 0;
        pass(&mut |g, c, n| {
            if typed[g * cols + c] {
                assert_eq!(n, 0, "{name}: row group {g} column {c} (decoded into kept storage) allocated {n} times");
                typed_chunks += 1;
            } else {
                other_chunks += 1;
                other_allocs += n;
                file_other += n;
                if n > worst.0 {
                    worst = (n, format!("{name} {g}/{c}"));
                }
            }
        });
        let live_after_second = live();
        pass(&mut |_, _, _| {});
        assert_eq!(live(), live_after_second, "{name}: the third pass left a different number of bytes live");
        eprintln!("{name}: second pass, {file_other} allocations in other encodings' decoders");
    }
    eprintln!(
        "second pass: {typed_chunks} chunks decoded into kept storage, 0 allocations; {other_chunks} others, \
         {other_allocs} allocations (at most {} in one read: {})",
        worst.0, worst.1
    );
    assert!(typed_chunks > 100, "only {typed_chunks} chunks decode into kept storage");
    // The decoders' outputs: values, or offsets and data (plus a dictionary,
    // a table); never growing with the row count.
    assert!(worst.0 <= 8, "a read allocated {} times ({})", worst.0, worst.1);
}
