//! Native benchmark of the core: decodes every column of the benchmark
//! files and reports, per column, where the time goes (decompressing the
//! blocks vs decoding the stream) with its encoding and codec.
//!
//!   cargo run --release --example bench [-- --runs 15 --warmup 3 --json --cold --tokenizer JSON FILE...]
//!
//! Files default to the real set (`../shared/bench/real`) and
//! `../shared/bench/comparison.cols` when ../shared is there (a note says so
//! when not), and corpus/real's files. The corpus's tokenizers
//! (corpus/tokenizers) are registered, and any given with --tokenizer, so
//! tokenized files read too.
//! Each file is read into memory once, untimed; warm-ups are excluded.

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::Instant;

use columns_wasm::codec::Decompressor;
use columns_wasm::read::prepare;
use columns_wasm::{Column, FileMeta, Values};
use common::BenchArgs;

struct Stats {
    min: f64,
    median: f64,
    max: f64,
}

fn stats(mut v: Vec<f64>) -> Stats {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    let median = if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 };
    Stats { min: v[0], median, max: v[n - 1] }
}

/// More than the last-level cache of any machine this runs on.
const EVICT: usize = 64 << 20;

/// With `--cold`, every run starts as the browser benchmark's runs do (other
/// readers ran in between, in shuffled order): nothing of this file or its
/// output left in the caches. Writing a buffer larger than the caches does it.
fn evict_caches(buf: &mut [u8], run: usize) {
    for (i, b) in buf.iter_mut().enumerate().step_by(64) {
        *b = (i ^ run) as u8;
    }
    std::hint::black_box(&buf);
}

fn decoded_bytes(c: &Column) -> usize {
    let v = match &c.values {
        Values::Bool(v) | Values::Uint8(v) => v.len(),
        Values::Int8(v) => v.len(),
        Values::Int16(v) => v.len() * 2,
        Values::Int32(v) => v.len() * 4,
        Values::Uint16(v) => v.len() * 2,
        Values::Uint32(v) => v.len() * 4,
        Values::Float32(v) => v.len() * 4,
        Values::Int64(v) => v.len() * 8,
        Values::Uint64(v) => v.len() * 8,
        Values::Float64(v) => v.len() * 8,
        Values::Bytes { offsets, data } => offsets.len() * 4 + data.len(),
    };
    v + c.validity.as_ref().map_or(0, Vec::len)
}

fn main() {
    common::recycle_freed_memory();
    let mut registry = common::conformance::load_tokenizers(&common::corpus().join("tokenizers"));
    let mut cold = false;
    let BenchArgs { runs, warmup, json, files } = BenchArgs::parse(|a, rest| {
        if a == "--cold" {
            cold = true;
            return true;
        }
        if a != "--tokenizer" {
            return false;
        }
        let path = rest.next().expect("--tokenizer JSON");
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        registry.register(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"));
        true
    });
    let mut out_json = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let meta = FileMeta::from_bytes(&bytes).expect("benchmark file opens");
        let chunks: Vec<(usize, usize)> =
            (0..meta.row_groups.len()).flat_map(|g| (0..meta.schema.len()).map(move |c| (g, c))).collect();
        // Per chunk: decompress times, decode times; and whole-file times.
        let mut dec_t = vec![Vec::new(); chunks.len()];
        let mut decode_t = vec![Vec::new(); chunks.len()];
        let mut file_t = Vec::new();
        let mut sizes = vec![(0usize, 0usize, 0usize); chunks.len()];
        let mut dec = Decompressor::new();
        let mut evict = if cold { vec![0u8; EVICT] } else { Vec::new() };
        for run in 0..warmup + runs {
            evict_caches(&mut evict, run);
            let t_file = Instant::now();
            for (k, &(g, c)) in chunks.iter().enumerate() {
                let chunk = meta.chunk_bytes(&bytes, g, c).unwrap();
                let t0 = Instant::now();
                let p = prepare(&meta, g, c, chunk, &registry).unwrap();
                let stream = p.decompress(&mut dec).unwrap();
                let t1 = Instant::now();
                let raw = stream.byte_len();
                let col = p.decode(stream).unwrap();
                let t2 = Instant::now();
                assert_eq!(col.len(), meta.row_groups[g].num_rows as usize, "every row decoded");
                if run >= warmup {
                    dec_t[k].push((t1 - t0).as_secs_f64() * 1e3);
                    decode_t[k].push((t2 - t1).as_secs_f64() * 1e3);
                }
                sizes[k] = (chunk.len(), raw, decoded_bytes(&col));
                std::hint::black_box(&col);
            }
            if run >= warmup {
                file_t.push(t_file.elapsed().as_secs_f64() * 1e3);
            }
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let whole = stats(file_t);
        let total_decoded: usize = sizes.iter().map(|s| s.2).sum();
        if !json {
            println!(
                "\n{name}: {} rows, {} columns, {} bytes; every column: median {:.2} ms (min {:.2}, max {:.2}), {:.0} MB/s decoded",
                meta.num_rows(),
                meta.schema.len(),
                bytes.len(),
                whole.median,
                whole.min,
                whole.max,
                total_decoded as f64 / whole.median / 1e3
            );
            println!(
                "{:<4} {:<12} {:<9} {:<11} {:<6} {:>9} {:>9} {:>10} {:>9} {:>9} {:>9} {:>8}",
                "rg",
                "column",
                "type",
                "encoding",
                "codec",
                "stored",
                "raw",
                "decoded",
                "inflate",
                "decode",
                "total",
                "MB/s"
            );
        }
        let mut cols_json = Vec::new();
        for (k, &(g, c)) in chunks.iter().enumerate() {
            let (d, e) = (stats(dec_t[k].clone()), stats(decode_t[k].clone()));
            let total = stats(dec_t[k].iter().zip(&decode_t[k]).map(|(a, b)| a + b).collect());
            let cm = &meta.row_groups[g].chunks[c];
            let s = &meta.schema[c];
            let enc = cm.encoding().map_or("?", |e| e.name());
            let codec = cm.codec().map_or("?", |c| c.name());
            if json {
                cols_json.push(format!(
                    "{{\"rowGroup\":{g},\"column\":\"{}\",\"type\":\"{}\",\"encoding\":\"{enc}\",\"codec\":\"{codec}\",\"stored\":{},\"raw\":{},\"decoded\":{},\"decompressMs\":{:.4},\"decodeMs\":{:.4},\"totalMs\":{:.4}}}",
                    s.name_lossy(), s.ty, sizes[k].0, sizes[k].1, sizes[k].2, d.median, e.median, total.median
                ));
            } else {
                println!(
                    "{:<4} {:<12} {:<9} {:<11} {:<6} {:>9} {:>9} {:>10} {:>7.3}ms {:>7.3}ms {:>7.3}ms {:>8.0}",
                    g,
                    s.name_lossy(),
                    s.ty.name(),
                    enc,
                    codec,
                    sizes[k].0,
                    sizes[k].1,
                    sizes[k].2,
                    d.median,
                    e.median,
                    total.median,
                    sizes[k].2 as f64 / total.median / 1e3
                );
            }
        }
        if json {
            out_json.push(format!(
                "{{\"file\":\"{name}\",\"rows\":{},\"bytes\":{},\"runs\":{runs},\"warmup\":{warmup},\"medianMs\":{:.4},\"minMs\":{:.4},\"maxMs\":{:.4},\"columns\":[{}]}}",
                meta.num_rows(),
                bytes.len(),
                whole.median,
                whole.min,
                whole.max,
                cols_json.join(",")
            ));
        } else {
            let inflate: f64 = dec_t.iter().map(|v| stats(v.clone()).median).sum();
            let decode: f64 = decode_t.iter().map(|v| stats(v.clone()).median).sum();
            println!("sum of medians: decompress {inflate:.2} ms, decode {decode:.2} ms");
        }
    }
    if json {
        println!("[{}]", out_json.join(","));
    }
}
