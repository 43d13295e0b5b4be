//! Deterministic mutation test: thousands of damaged variants of corpus
//! files (bit flips, truncations at every structural offset, length fields
//! set to 0, 1 and 0xFFFFFFFF) must each give a clean error or a read, never
//! a panic, and never allocate more than the input can justify. A chunk
//! whose bytes and metadata were untouched must still decode to the
//! original values.

// Native only: its counting global allocator would clash with the wasm32
// build's own (talc, src/wasm/mod.rs).
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::panic::{catch_unwind, AssertUnwindSafe};

use columns_wasm::inspect::inspect_chunk;
// Renders floats by their bits, so NaN compares equal to itself.
use columns_wasm::{read_column, Column, FileMeta, Registry};
use common::alloc::measure;
use common::conformance::column_json;
use common::Rng;

#[global_allocator]
static ALLOC: common::alloc::Counting = common::alloc::Counting;

/// Offsets where structure lives: header, tail, footer start, and every
/// chunk's header fields and block table entries.
fn structural_offsets(bytes: &[u8], meta: &FileMeta) -> Vec<usize> {
    let len = bytes.len();
    let mut v: Vec<usize> = (0..9.min(len)).collect();
    v.extend(len.saturating_sub(8)..len);
    let f = meta.prelude.footer_offset as usize;
    v.extend(f..(f + 16).min(len));
    for rg in &meta.row_groups {
        for cm in &rg.chunks {
            let o = cm.offset as usize;
            v.extend([o, o + 1, o + 2, o + 6, o + 10, o + 14]);
            let blocks = bytes.get(o + 14..o + 18).map_or(0, |b| u32::from_le_bytes(b.try_into().unwrap()) as usize);
            for i in 0..blocks.min(64) {
                v.extend([o + 18 + 8 * i, o + 22 + 8 * i]);
            }
            // The start of the encoded stream's own header (after the tables).
            let data = o + 18 + 8 * blocks.min(64);
            v.extend(data..(data + 16).min(o + cm.byte_length as usize));
        }
    }
    v.retain(|&o| o < len);
    v.sort_unstable();
    v.dedup();
    v
}

/// Opens and reads everything; returns the columns that read.
fn exercise(bytes: &[u8], registry: &Registry) -> Vec<((usize, usize), Column)> {
    let Ok(meta) = FileMeta::from_bytes(bytes) else { return Vec::new() };
    let mut out = Vec::new();
    for g in 0..meta.row_groups.len() {
        for c in 0..meta.schema.len() {
            let Ok(chunk) = meta.chunk_bytes(bytes, g, c) else { continue };
            let _ = inspect_chunk(&meta, g, c, chunk, registry);
            if let Ok(col) = read_column(&meta, g, c, chunk, registry) {
                out.push(((g, c), col));
            }
        }
    }
    out
}

#[test]
fn damaged_files_give_clean_errors_and_bounded_memory() {
    let corpus = common::corpus();
    let registry = common::conformance::load_tokenizers(&corpus.join("tokenizers"));
    let files = [
        "valid/all_types_small.cols",
        "valid/enc_dict_lzw.cols",
        "valid/enc_affix_gzip.cols",
        "valid/enc_offsetbytes_zlib.cols",
        "valid/blocks_flate.cols",
        "valid/nulls.cols",
        "valid/tokenized_remap_deltas.cols",
        "valid/tokenized_bits_offsets.cols",
        "valid/tokenized_raw_counts.cols",
        "valid/tokenized_special_tokens.cols",
        "valid/footer_reordered_extra_fields.cols",
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut variants = 0usize;
    let mut failures = Vec::new();
    for name in files {
        let original = std::fs::read(corpus.join(name)).unwrap();
        let meta = FileMeta::from_bytes(&original).unwrap();
        let reference: std::collections::HashMap<_, _> = exercise(&original, &registry).into_iter().collect();
        let offsets = structural_offsets(&original, &meta);
        let mut mutants: Vec<(String, Vec<u8>)> = Vec::new();
        for &o in &offsets {
            mutants.push((format!("truncate at {o}"), original[..o].to_vec()));
            for bit in [0, 3, 7] {
                let mut m = original.clone();
                m[o] ^= 1 << bit;
                mutants.push((format!("flip bit {bit} at {o}"), m));
            }
            for value in [0u32, 1, 0xFFFF_FFFF] {
                if o + 4 <= original.len() {
                    let mut m = original.clone();
                    m[o..o + 4].copy_from_slice(&value.to_le_bytes());
                    mutants.push((format!("u32 {value:#x} at {o}"), m));
                }
            }
        }
        for _ in 0..400 {
            let mut m = original.clone();
            let k = 1 + rng.below(4);
            let mut what = String::from("random bytes at");
            for _ in 0..k {
                let o = rng.below(m.len());
                m[o] = rng.next() as u8;
                what += &format!(" {o}");
            }
            mutants.push((what, m));
        }
        // The reference writer's footer length field, set past the file.
        let mut m = original.clone();
        let n = m.len();
        m[n - 8..n - 4].copy_from_slice(&u32::MAX.to_le_bytes());
        mutants.push(("footer length 0xFFFFFFFF".into(), m));

        for (what, bytes) in mutants {
            variants += 1;
            let (result, _, peak) = measure(|| catch_unwind(AssertUnwindSafe(|| exercise(&bytes, &registry))));
            // The largest honest expansion is LZW's, about 2731x the stored bytes.
            let limit = 3000 * bytes.len() + (16 << 20);
            match result {
                Err(_) => failures.push(format!("{name}, {what}: panicked")),
                Ok(cols) => {
                    if peak > limit {
                        failures.push(format!(
                            "{name}, {what}: peak allocation {peak} bytes for a {}-byte input",
                            bytes.len()
                        ));
                    }
                    // Untouched chunks read as before.
                    if bytes.len() == original.len() {
                        if let Ok(m) = FileMeta::from_bytes(&bytes) {
                            for ((g, c), col) in cols {
                                let same_meta = m.row_groups.get(g).map(|r| &r.chunks[c])
                                    == meta.row_groups.get(g).map(|r| &r.chunks[c])
                                    && m.schema == meta.schema
                                    && m.row_groups[g].num_rows == meta.row_groups[g].num_rows;
                                let range = meta.row_groups[g].chunks[c].range();
                                let same_bytes = bytes[range.start as usize..range.end as usize]
                                    == original[range.start as usize..range.end as usize];
                                let same_values = |r: &Column| r == &col || column_json(r) == column_json(&col);
                                if same_meta && same_bytes && !reference.get(&(g, c)).is_some_and(same_values) {
                                    failures
                                        .push(format!("{name}, {what}: untouched chunk {g}/{c} decoded differently"));
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(variants > 3000, "only {variants} variants tried");
    assert!(failures.is_empty(), "{} of {variants} variants misbehaved:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn a_raw_length_bomb_is_refused_before_allocating() {
    let bytes = std::fs::read(common::corpus().join("invalid/chunk_raw_length_bomb.cols")).unwrap();
    let meta = FileMeta::from_bytes(&bytes).unwrap();
    let chunk = meta.chunk_bytes(&bytes, 0, 0).unwrap();
    let (result, _, peak) = measure(|| read_column(&meta, 0, 0, chunk, &Registry::new()));
    let err = result.unwrap_err();
    assert_eq!(err.kind.as_str(), "corrupt_chunk");
    assert_eq!(err.location.row_group, Some(0));
    assert!(peak < 1 << 20, "the bomb allocated {peak} bytes");
}
