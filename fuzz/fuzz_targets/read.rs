//! Opens arbitrary bytes as a columns file, then inspects and reads every
//! column chunk with both corpus tokenizers registered. Any panic, hang or
//! oversized allocation is a bug: every outcome must be a value or an Error.
//! Every chunk is read into kept buffers too (`columns_wasm::reuse`, the
//! scoped read), twice over, and must give what a fresh read gives.
#![no_main]

use std::sync::OnceLock;

use columns_wasm::inspect::inspect_chunk;
use columns_wasm::reuse::{ColumnBuffers, Scratch};
use columns_wasm::{read_column, Column, FileMeta, Registry, Values};
use libfuzzer_sys::fuzz_target;

fn registry() -> &'static Registry {
    static REG: OnceLock<Registry> = OnceLock::new();
    REG.get_or_init(|| {
        let mut reg = Registry::new();
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/tokenizers/");
        for name in ["gpt2-tokenizer.json", "small-tokenizer.json"] {
            if let Ok(bytes) = std::fs::read(format!("{dir}{name}")) {
                let _ = reg.register(&bytes);
            }
        }
        reg
    })
}

/// Equal to the bit (NaN included).
fn same(a: &Column, b: &Column) -> bool {
    let bytes = |v: &Values| match v {
        Values::Bytes { offsets, data } => (offsets.clone(), data.clone()),
        v => (Vec::new(), v.fixed_bytes().unwrap_or_default().to_vec()),
    };
    a.ty == b.ty && a.null_count == b.null_count && a.validity == b.validity && bytes(&a.values) == bytes(&b.values)
}

fuzz_target!(|data: &[u8]| {
    let Ok(meta) = FileMeta::from_bytes(data) else { return };
    let mut scratch = Scratch::new();
    let mut kept: Vec<ColumnBuffers> = meta.schema.iter().map(|_| ColumnBuffers::default()).collect();
    for pass in 0..2 {
        for g in 0..meta.row_groups.len() {
            for (c, out) in kept.iter_mut().enumerate() {
                let Ok(chunk) = meta.chunk_bytes(data, g, c) else { continue };
                if pass == 0 {
                    let _ = inspect_chunk(&meta, g, c, chunk, registry());
                }
                let fresh = read_column(&meta, g, c, chunk, registry());
                match (fresh, scratch.read(&meta, g, c, chunk, registry(), out)) {
                    (Ok(want), Ok(())) => assert!(out.column().is_some_and(|got| same(got, &want)), "{g}/{c}"),
                    (Err(want), Err(got)) => assert_eq!(got, want, "{g}/{c}"),
                    (want, got) => panic!("{g}/{c}: fresh {want:?}, kept {got:?}"),
                }
            }
        }
    }
});
