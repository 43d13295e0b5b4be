//! Native benchmark of raw DEFLATE decoding on the benchmark files' blocks:
//! this crate's decoder vs miniz_oxide vs zune-inflate, interleaved.
//!
//!   cargo run --release --example inflate_bench [-- --runs 15 --warmup 3 --only ours|miniz|zune --json FILE...]
//!
//! Files default to the real set (`../shared/bench/real`) and
//! `../shared/bench/comparison.cols` when ../shared is there (a note says so
//! when not), and corpus/real's files.
//! With --json, one JSON array on stdout (bench/native.mjs reads it):
//! per file {file, bytes, blocks, stored, raw, runs, warmup, decoders:
//! [{name, medianMs, minMs, maxMs}]}.
//!
//! Every Flate block (and the DEFLATE payload of every Gzip/Zlib block) of
//! each file is collected once, untimed. A run decodes all of a file's
//! blocks with one decoder; the decoders take turns within each run (the
//! order rotating), so background load hits them alike. Ours and miniz
//! write into preallocated slices; zune allocates its output per block.

use std::time::Instant;

#[path = "../tests/common/mod.rs"]
mod common;

use columns_wasm::chunk::Chunk;
use columns_wasm::codec::{Codec, Decompressor};
use columns_wasm::FileMeta;
use common::{gzip_payload, BenchArgs};
use miniz_oxide::inflate::core::{decompress, inflate_flags, DecompressorOxide};
use miniz_oxide::inflate::TINFLStatus;
use zune_inflate::{DeflateDecoder, DeflateOptions};

struct Blocks {
    inputs: Vec<Vec<u8>>,
    outs: Vec<Vec<u8>>,
}

fn collect(bytes: &[u8]) -> Blocks {
    let meta = FileMeta::from_bytes(bytes).expect("benchmark file opens");
    let (mut inputs, mut outs) = (Vec::new(), Vec::new());
    for g in 0..meta.row_groups.len() {
        for c in 0..meta.schema.len() {
            let chunk = meta.chunk_bytes(bytes, g, c).unwrap();
            let ch = Chunk::parse(chunk, meta.row_groups[g].num_rows, meta.schema[c].nullable).unwrap();
            for b in &ch.blocks {
                let s = ch.stored(b);
                let raw = match ch.codec {
                    Codec::Flate => s,
                    Codec::Gzip => gzip_payload(s),
                    Codec::Zlib => &s[2..s.len() - 4],
                    _ => continue,
                };
                inputs.push(raw.to_vec());
                outs.push(vec![0u8; b.raw_len as usize]);
            }
        }
    }
    Blocks { inputs, outs }
}

/// (median, min, max)
fn stats(mut v: Vec<f64>) -> (f64, f64, f64) {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    let median = if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 };
    (median, v[0], v[n - 1])
}

const NAMES: [&str; 3] = ["ours", "miniz_oxide 0.9.1", "zune-inflate 0.2.54"];

fn run(which: usize, blocks: &mut Blocks, dec: &mut Decompressor, mz: &mut DecompressorOxide) -> f64 {
    let t = Instant::now();
    match which {
        0 => {
            for (inp, out) in blocks.inputs.iter().zip(blocks.outs.iter_mut()) {
                dec.block(Codec::Flate, inp, out).expect("ours decodes");
            }
        }
        1 => {
            let flags = inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
            for (inp, out) in blocks.inputs.iter().zip(blocks.outs.iter_mut()) {
                mz.init();
                let (st, _, n) = decompress(mz, inp, out, 0, flags);
                assert!(st == TINFLStatus::Done && n == out.len(), "miniz decodes");
            }
        }
        _ => {
            for (inp, out) in blocks.inputs.iter().zip(blocks.outs.iter()) {
                let opts = DeflateOptions::default().set_size_hint(out.len()).set_limit(out.len());
                let v = DeflateDecoder::new_with_options(inp, opts).decode_deflate().expect("zune decodes");
                assert_eq!(v.len(), out.len());
                std::hint::black_box(v);
            }
        }
    }
    t.elapsed().as_secs_f64() * 1e3
}

fn main() {
    common::recycle_freed_memory();
    let mut only: Option<usize> = None;
    let BenchArgs { runs, warmup, json, files } = BenchArgs::parse(|a, rest| {
        let take = a == "--only";
        if take {
            only = rest.next().and_then(|v| NAMES.iter().position(|n| n.starts_with(&v)));
        }
        take
    });
    let mut out_json = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut blocks = collect(&bytes);
        let raw: usize = blocks.outs.iter().map(Vec::len).sum();
        let stored: usize = blocks.inputs.iter().map(Vec::len).sum();
        // Correctness first: ours equals miniz on every block.
        let mut dec = Decompressor::new();
        let mut mz = DecompressorOxide::default();
        run(1, &mut blocks, &mut dec, &mut mz);
        let want = blocks.outs.clone();
        run(0, &mut blocks, &mut dec, &mut mz);
        assert!(blocks.outs == want, "ours differs from miniz");

        let mut times = vec![Vec::new(); 3];
        for r in 0..warmup + runs {
            for k in 0..3 {
                let which = (r + k) % 3;
                if only.is_some_and(|o| o != which) {
                    continue;
                }
                let ms = run(which, &mut blocks, &mut dec, &mut mz);
                if r >= warmup {
                    times[which].push(ms);
                }
            }
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if json {
            let decoders: Vec<String> = times
                .into_iter()
                .enumerate()
                .filter(|(_, t)| !t.is_empty())
                .map(|(k, t)| {
                    let (med, min, max) = stats(t);
                    format!("{{\"name\":\"{}\",\"medianMs\":{med:.4},\"minMs\":{min:.4},\"maxMs\":{max:.4}}}", NAMES[k])
                })
                .collect();
            out_json.push(format!(
                "{{\"file\":\"{name}\",\"bytes\":{},\"blocks\":{},\"stored\":{stored},\"raw\":{raw},\"runs\":{runs},\"warmup\":{warmup},\"decoders\":[{}]}}",
                bytes.len(),
                blocks.inputs.len(),
                decoders.join(",")
            ));
            continue;
        }
        println!(
            "{name}: {} DEFLATE blocks, {:.2} MB -> {:.2} MB; {runs} interleaved runs after {warmup} warm-ups",
            blocks.inputs.len(),
            stored as f64 / 1e6,
            raw as f64 / 1e6
        );
        println!("  {:<22} {:>10} {:>10} {:>12}", "decoder", "median ms", "min ms", "GB/s (med)");
        for (k, t) in times.into_iter().enumerate() {
            if t.is_empty() {
                continue;
            }
            let (med, min, _) = stats(t);
            println!("  {:<22} {:>10.3} {:>10.3} {:>12.2}", NAMES[k], med, min, raw as f64 / med / 1e6);
        }
    }
    if json {
        println!("[{}]", out_json.join(","));
    }
}
