//! Reading into kept buffers (`columns_wasm::reuse`, behind the scoped
//! read) gives, chunk for chunk, what a fresh read gives. A test file, not a
//! unit test in src/: the core holds no file I/O.

mod common;

use columns_wasm::reuse::{ColumnBuffers, Scratch};
use columns_wasm::{read_column, Column, FileMeta, Values};
use common::conformance::load_tokenizers;

/// Every chunk of every corpus file, read into kept buffers in an order
/// that makes them grow, shrink and change between nulls and none (and,
/// on the last pass, into one set of buffers shared by every column),
/// gives what a fresh read gives (values, validity and errors alike).
#[test]
fn reading_into_kept_buffers_gives_what_a_fresh_read_gives() {
    let root = common::corpus();
    let registry = load_tokenizers(&root.join("tokenizers"));
    let mut checked = 0;
    for dir in ["valid", "real", "invalid"] {
        for path in common::cols_in(&[root.join(dir)]) {
            let bytes = std::fs::read(&path).unwrap();
            let Ok(meta) = FileMeta::from_bytes(&bytes) else { continue };
            let mut scratch = Scratch::new();
            let mut kept: Vec<ColumnBuffers> = meta.schema.iter().map(|_| ColumnBuffers::default()).collect();
            // On the last pass, one set of buffers for every column in
            // turn: each read finds another type, encoding or size there.
            let mut shared = ColumnBuffers::default();
            let groups = meta.row_groups.len();
            // Forward, backward, then forward again: each buffer is
            // reused by chunks both larger and smaller than its last.
            let order = (0..groups).chain((0..groups).rev()).chain(0..groups);
            for (pass, g) in order.enumerate() {
                for (c, own) in kept.iter_mut().enumerate() {
                    let out = if pass < 2 * groups { own } else { &mut shared };
                    let chunk = meta.chunk_bytes(&bytes, g, c).unwrap();
                    let fresh = read_column(&meta, g, c, chunk, &registry);
                    let got = scratch.read(&meta, g, c, chunk, &registry, out);
                    match (fresh, got) {
                        (Ok(want), Ok(())) => {
                            assert!(out.column().is_some_and(|got| same(got, &want)), "{}: {g}/{c}", path.display())
                        }
                        (Err(want), Err(got)) => assert_eq!(got, want, "{}: {g}/{c}", path.display()),
                        (want, got) => panic!("{}: {g}/{c}: fresh {want:?}, kept {got:?}", path.display()),
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1000, "only {checked} chunk reads checked");
}

/// Equal to the bit (NaN included).
fn same(a: &Column, b: &Column) -> bool {
    let bytes = |v: &Values| match v {
        Values::Bytes { offsets, data } => (offsets.clone(), data.clone()),
        v => (Vec::new(), v.fixed_bytes().unwrap_or_default().to_vec()),
    };
    a.ty == b.ty && a.null_count == b.null_count && a.validity == b.validity && bytes(&a.values) == bytes(&b.values)
}
