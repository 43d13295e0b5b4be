//! Opens arbitrary bytes as a columns file, then inspects and reads every
//! column chunk with both corpus tokenizers registered. Any panic, hang or
//! oversized allocation is a bug: every outcome must be a value or an Error.
#![no_main]

use std::sync::OnceLock;

use columns_wasm::inspect::inspect_chunk;
use columns_wasm::{read_column, FileMeta, Registry};
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

fuzz_target!(|data: &[u8]| {
    let Ok(meta) = FileMeta::from_bytes(data) else { return };
    for g in 0..meta.row_groups.len() {
        for c in 0..meta.schema.len() {
            let Ok(chunk) = meta.chunk_bytes(data, g, c) else { continue };
            let _ = inspect_chunk(&meta, g, c, chunk, registry());
            let _ = read_column(&meta, g, c, chunk, registry());
        }
    }
});
