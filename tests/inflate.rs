//! The raw DEFLATE decoder (src/codec/inflate.rs, reached through
//! `Decompressor::block` with `Codec::Flate`), checked against miniz_oxide:
//! every DEFLATE block of the corpus (and of ../shared/bench's files when present), random data
//! compressed at every level and strategy, hand-built streams for each error
//! class, and damaged streams (no panic; any Ok equals miniz's output).

mod common;

use std::path::PathBuf;

use columns_wasm::chunk::Chunk;
use columns_wasm::codec::{Codec, Decompressor};
use columns_wasm::FileMeta;
use common::{gzip_payload, Rng};
use miniz_oxide::deflate::core::{
    compress_to_output, create_comp_flags_from_zip_params, CompressionStrategy, CompressorOxide, TDEFLFlush,
    TDEFLStatus,
};
use miniz_oxide::inflate::core::{decompress, inflate_flags, DecompressorOxide};
use miniz_oxide::inflate::TINFLStatus;

fn ours(dec: &mut Decompressor, input: &[u8], n: usize) -> Result<Vec<u8>, String> {
    let mut out = vec![0xAA; n];
    dec.block(Codec::Flate, input, &mut out).map(|()| out).map_err(|e| e.message)
}

/// miniz with the same contract: one complete stream, all input consumed,
/// exactly `n` bytes out.
fn miniz(input: &[u8], n: usize) -> Option<Vec<u8>> {
    let mut state = Box::<DecompressorOxide>::default();
    let mut out = vec![0u8; n];
    let flags = inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
    let (status, consumed, written) = decompress(&mut state, input, &mut out, 0, flags);
    (status == TINFLStatus::Done && consumed == input.len() && written == n).then_some(out)
}

fn deflate(data: &[u8], level: u8, strategy: CompressionStrategy, sync_every: usize) -> Vec<u8> {
    let flags = create_comp_flags_from_zip_params(level as i32, -15, strategy as i32);
    let mut c = CompressorOxide::new(flags);
    let mut out = Vec::new();
    let pieces: Vec<&[u8]> =
        if sync_every == 0 || data.is_empty() { vec![data] } else { data.chunks(sync_every).collect() };
    for (i, piece) in pieces.iter().enumerate() {
        let flush = if i + 1 == pieces.len() { TDEFLFlush::Finish } else { TDEFLFlush::Sync };
        let (status, _) = compress_to_output(&mut c, piece, flush, |b| {
            out.extend_from_slice(b);
            true
        });
        assert!(matches!(status, TDEFLStatus::Okay | TDEFLStatus::Done), "{status:?}");
    }
    out
}

// ---------------------------------------------------------------------------
// Data generators
// ---------------------------------------------------------------------------

fn gen(kind: usize, n: usize, rng: &mut Rng) -> Vec<u8> {
    let mut v = Vec::with_capacity(n);
    match kind {
        // uniform random bytes
        0 => v.extend((0..n).map(|_| rng.next() as u8)),
        // small alphabets: 2, 4, 16 symbols, skewed
        1 => v.extend((0..n).map(|_| (rng.next() % 2) as u8 + b'a')),
        2 => v.extend((0..n).map(|_| (rng.next() % 4) as u8 * 60)),
        3 => v.extend((0..n).map(|_| {
            let r = rng.next();
            ((r % 16) & ((r >> 8) % 16)) as u8
        })),
        // long runs of one byte (distance-1 matches)
        4 => {
            while v.len() < n {
                let b = rng.next() as u8;
                let cap = if rng.below(4) == 0 { 2000 } else { 20 };
                let run = 1 + rng.below(cap);
                v.extend(std::iter::repeat_n(b, run.min(n - v.len())));
            }
        }
        // short periods 2..40 (overlapping copies: every match copy path
        // below 32), with occasional breaks
        5 => {
            while v.len() < n {
                let period = 2 + rng.below(39);
                let pat: Vec<u8> = (0..period).map(|_| rng.next() as u8).collect();
                let reps = 1 + rng.below(100);
                for i in 0..period * reps {
                    if v.len() == n {
                        break;
                    }
                    v.push(pat[i % period]);
                }
            }
        }
        // words from a small dictionary (text-like, many matches)
        6 => {
            let words: Vec<Vec<u8>> =
                (0..50).map(|_| (0..1 + rng.below(10)).map(|_| b'a' + rng.below(26) as u8).collect()).collect();
            while v.len() < n {
                let w = &words[rng.below(words.len())];
                for &b in w.iter().chain(b" ") {
                    if v.len() < n {
                        v.push(b);
                    }
                }
            }
        }
        // float64 columns: slowly varying values, repeated values
        7 => {
            let mut x = 100.0f64;
            while v.len() < n {
                if rng.below(3) != 0 {
                    x += (rng.below(100) as f64 - 50.0) * 0.01;
                }
                for b in x.to_le_bytes() {
                    if v.len() < n {
                        v.push(b);
                    }
                }
            }
        }
        // copies of earlier random stretches far back (long distances)
        _ => {
            let base: Vec<u8> = (0..40_000.min(n.max(1))).map(|_| rng.next() as u8).collect();
            while v.len() < n {
                let start = rng.below(base.len());
                let len = 3 + rng.below(300);
                for &b in base[start..(start + len).min(base.len())].iter() {
                    if v.len() < n {
                        v.push(b);
                    }
                }
                if rng.below(2) == 0 && v.len() < n {
                    v.push(rng.next() as u8);
                }
            }
        }
    }
    v
}

const KINDS: usize = 9;

#[test]
fn random_data_at_every_level_and_strategy() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let mut dec = Decompressor::new();
    let sizes = [
        0usize, 1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 31, 100, 255, 256, 257, 258, 259, 1000, 4095, 4096, 30_000, 65_535,
        65_536, 100_000, 262_144,
    ];
    let strategies = [
        CompressionStrategy::Default,
        CompressionStrategy::Fixed,
        CompressionStrategy::RLE,
        CompressionStrategy::Filtered,
        CompressionStrategy::HuffmanOnly,
    ];
    let mut streams = 0;
    for &n in &sizes {
        for kind in 0..KINDS {
            let data = gen(kind, n, &mut rng);
            for level in 0..=10u8 {
                // Big inputs: fewer combinations, to keep the test quick.
                if n > 30_000 && level % 3 != 1 {
                    continue;
                }
                let strategy = strategies[(level as usize + kind) % strategies.len()];
                let sync = if (level as usize + kind).is_multiple_of(4) { 1 + rng.below(n.max(1)) } else { 0 };
                for s in [CompressionStrategy::Default, strategy] {
                    let z = deflate(&data, level, s, sync);
                    let got = ours(&mut dec, &z, n);
                    assert_eq!(got.as_deref(), Ok(&data[..]), "kind {kind} size {n} level {level} {s:?} sync {sync}");
                    assert_eq!(miniz(&z, n).as_deref(), Some(&data[..]));
                    // One byte short or long: a clean error.
                    if n > 0 {
                        assert!(ours(&mut dec, &z, n - 1).is_err());
                    }
                    assert!(ours(&mut dec, &z, n + 1).is_err());
                    streams += 1;
                }
            }
        }
    }
    eprintln!("{streams} random streams decoded");
}

// ---------------------------------------------------------------------------
// Every DEFLATE block of the corpus and benchmark files
// ---------------------------------------------------------------------------

/// corpus/valid and corpus/real, and `../shared/bench`'s files when it is
/// there (its diamonds file is corpus/real's, read once).
fn cols_files() -> Vec<PathBuf> {
    let corpus = common::corpus();
    let mut dirs = vec![corpus.join("valid"), corpus.join("real")];
    match common::shared_bench() {
        Some(b) => dirs.push(b),
        None => eprintln!("note: ../shared/bench is not there: its blocks are not checked here"),
    }
    common::cols_in(&dirs)
}

#[test]
fn every_corpus_and_bench_block_matches_miniz() {
    let files = cols_files();
    assert!(files.len() > 40, "corpus not found: {files:?}");
    let mut dec = Decompressor::new();
    let (mut blocks, mut bytes_out) = (0usize, 0usize);
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let Ok(meta) = FileMeta::from_bytes(&bytes) else { continue };
        for g in 0..meta.row_groups.len() {
            for c in 0..meta.schema.len() {
                let chunk = meta.chunk_bytes(&bytes, g, c).unwrap();
                let ch = Chunk::parse(chunk, meta.row_groups[g].num_rows, meta.schema[c].nullable).unwrap();
                if !matches!(ch.codec, Codec::Flate | Codec::Gzip | Codec::Zlib) {
                    continue;
                }
                for b in &ch.blocks {
                    let stored = ch.stored(b);
                    let n = b.raw_len as usize;
                    let raw = match ch.codec {
                        Codec::Flate => stored,
                        Codec::Gzip => gzip_payload(stored),
                        _ => &stored[2..stored.len() - 4],
                    };
                    let want = miniz(raw, n).unwrap_or_else(|| panic!("{}: miniz fails", path.display()));
                    assert_eq!(ours(&mut dec, raw, n).as_deref(), Ok(&want[..]), "{} rg {g} col {c}", path.display());
                    // And through the codec, with its checksum.
                    let mut out = vec![0; n];
                    dec.block(ch.codec, stored, &mut out).unwrap();
                    assert_eq!(out, want);
                    blocks += 1;
                    bytes_out += n;
                }
            }
        }
    }
    eprintln!("{blocks} corpus blocks ({bytes_out} bytes) match miniz");
    assert!(blocks > 100);
}

// ---------------------------------------------------------------------------
// Hand-built streams
// ---------------------------------------------------------------------------

#[derive(Default)]
struct BitWriter {
    out: Vec<u8>,
    acc: u64,
    n: u32,
}

impl BitWriter {
    fn bits(&mut self, v: u32, n: u32) {
        self.acc |= (v as u64) << self.n;
        self.n += n;
        while self.n >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
    }
    /// A Huffman codeword, most significant bit first.
    fn code(&mut self, code: u32, len: u32) {
        for i in (0..len).rev() {
            self.bits(code >> i & 1, 1);
        }
    }
    fn finish(mut self) -> Vec<u8> {
        if self.n > 0 {
            self.out.push(self.acc as u8);
        }
        self.out
    }
}

/// Canonical codewords for `lens` (RFC 1951 3.2.2).
fn canonical(lens: &[u8]) -> Vec<u32> {
    let mut count = [0u32; 16];
    for &l in lens {
        count[l as usize] += 1;
    }
    count[0] = 0;
    let mut next = [0u32; 16];
    let mut code = 0;
    for len in 1..16 {
        code = (code + count[len - 1]) << 1;
        next[len] = code;
    }
    lens.iter()
        .map(|&l| {
            if l == 0 {
                0
            } else {
                let c = next[l as usize];
                next[l as usize] += 1;
                c
            }
        })
        .collect()
}

/// Writes a dynamic block header: code length code = symbols 0..15 with
/// length 4 (16, 17, 18 unused), lengths written one by one. `precode`
/// overrides the 19 code length code lengths (in symbol order) when given.
fn dynamic_header(w: &mut BitWriter, last: bool, lit: &[u8], dist: &[u8], precode: Option<[u8; 19]>) {
    w.bits(last as u32, 1);
    w.bits(2, 2);
    w.bits(lit.len() as u32 - 257, 5);
    w.bits(dist.len() as u32 - 1, 5);
    w.bits(19 - 4, 4);
    let pre = precode.unwrap_or([4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0]);
    for sym in [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15] {
        w.bits(pre[sym] as u32, 3);
    }
    let codes = canonical(&pre);
    for &l in lit.iter().chain(dist) {
        w.code(codes[l as usize], pre[l as usize] as u32);
    }
}

fn fixed_lit(w: &mut BitWriter, sym: u32) {
    match sym {
        0..=143 => w.code(0x30 + sym, 8),
        144..=255 => w.code(0x190 + sym - 144, 9),
        256..=279 => w.code(sym - 256, 7),
        _ => w.code(0xC0 + sym - 280, 8),
    }
}

fn err(input: &[u8], n: usize) -> String {
    let mut dec = Decompressor::new();
    let e = ours(&mut dec, input, n).expect_err("must be an error");
    assert!(e.contains("DEFLATE"), "{e}");
    e
}

fn ok(input: &[u8], n: usize) -> Vec<u8> {
    let mut dec = Decompressor::new();
    let got = ours(&mut dec, input, n).expect("must decode");
    assert_eq!(miniz(input, n).as_deref(), Some(&got[..]), "miniz agrees");
    got
}

/// A dynamic block coding `lit_syms` (then end of block) with the given
/// literal/length lengths.
/// A literal/length symbol, and for a length: distance symbol, extra value, extra bits.
type Sym = (u32, Option<(u32, u32, u32)>);

fn dynamic_stream(lit: &[u8], dist: &[u8], body: &[Sym]) -> Vec<u8> {
    let mut w = BitWriter::default();
    dynamic_header(&mut w, true, lit, dist, None);
    let lc = canonical(lit);
    let dc = canonical(dist);
    for &(sym, d) in body {
        w.code(lc[sym as usize], lit[sym as usize] as u32);
        if let Some((dsym, extra, extra_bits)) = d {
            w.code(dc[dsym as usize], dist[dsym as usize] as u32);
            w.bits(extra, extra_bits);
        }
    }
    w.code(lc[256], lit[256] as u32);
    w.finish()
}

#[test]
fn stored_blocks() {
    assert_eq!(ok(&[1, 3, 0, 0xfc, 0xff, b'a', b'b', b'c'], 3), b"abc");
    assert_eq!(ok(&[1, 0, 0, 0xff, 0xff], 0), b"");
    // Two stored blocks, the first not final.
    assert_eq!(ok(&[0, 1, 0, 0xfe, 0xff, b'x', 1, 1, 0, 0xfe, 0xff, b'y'], 2), b"xy");
    let e = err(&[1, 5, 0, 0, 0, 1, 2, 3, 4, 5], 5);
    assert!(e.contains("length 5 does not match its complement 0"), "{e}");
    // Truncated stored data, truncated stored header.
    assert!(err(&[1, 3, 0, 0xfc, 0xff, b'a', b'b'], 3).contains("ends early"));
    assert!(err(&[1, 3, 0, 0xfc], 3).contains("ends early"));
    // More stored bytes than recorded.
    assert!(err(&[1, 3, 0, 0xfc, 0xff, b'a', b'b', b'c'], 2).contains("more than the recorded"));
    // Fewer.
    assert!(err(&[1, 3, 0, 0xfc, 0xff, b'a', b'b', b'c'], 4).contains("gives 3 bytes"));
    // A trailing byte after the final block.
    assert!(err(&[1, 3, 0, 0xfc, 0xff, b'a', b'b', b'c', 0], 3).contains("ends after 8"));
}

#[test]
fn basic_error_classes() {
    // Empty input.
    assert!(err(&[], 0).contains("ends early"));
    // Reserved block type 3.
    assert!(err(&[0x07], 0).contains("reserved block type"));
    // A non-final block and then nothing.
    assert!(err(&[0x02, 0x00], 0).contains("ends early") || err(&[0x02, 0x00], 0).contains("DEFLATE"));

    // Fixed block: 'a', then symbol 286.
    let mut w = BitWriter::default();
    w.bits(1, 1);
    w.bits(1, 2);
    fixed_lit(&mut w, b'a' as u32);
    fixed_lit(&mut w, 286);
    fixed_lit(&mut w, 256);
    assert!(err(&w.finish(), 1).contains("literal/length code"));
    // Symbol 287.
    let mut w = BitWriter::default();
    w.bits(1, 1);
    w.bits(1, 2);
    fixed_lit(&mut w, 287);
    assert!(err(&w.finish(), 0).contains("literal/length code"));

    // Fixed block: 'a' 'b', length 3 with distance code 30 and 31.
    for dcode in [30, 31] {
        let mut w = BitWriter::default();
        w.bits(1, 1);
        w.bits(1, 2);
        fixed_lit(&mut w, b'a' as u32);
        fixed_lit(&mut w, b'b' as u32);
        fixed_lit(&mut w, 257);
        w.code(dcode, 5);
        w.bits(0, 13);
        fixed_lit(&mut w, 256);
        assert!(err(&w.finish(), 5).contains("invalid DEFLATE distance code"));
    }

    // Distance beyond the output: 'a' then distance 2 (code 1).
    let mut w = BitWriter::default();
    w.bits(1, 1);
    w.bits(1, 2);
    fixed_lit(&mut w, b'a' as u32);
    fixed_lit(&mut w, 257);
    w.code(1, 5);
    fixed_lit(&mut w, 256);
    let s = w.finish();
    assert!(err(&s, 4).contains("reaches before the start"));
    // Distance at the very start.
    let mut w = BitWriter::default();
    w.bits(1, 1);
    w.bits(1, 2);
    fixed_lit(&mut w, 257);
    w.code(0, 5);
    fixed_lit(&mut w, 256);
    assert!(err(&w.finish(), 3).contains("reaches before the start"));

    // Valid: 'a' then length 258 distance 1, decoded; plus the size checks.
    let mut w = BitWriter::default();
    w.bits(1, 1);
    w.bits(1, 2);
    fixed_lit(&mut w, b'a' as u32);
    fixed_lit(&mut w, 285);
    w.code(0, 5);
    fixed_lit(&mut w, 256);
    let s = w.finish();
    assert_eq!(ok(&s, 259), vec![b'a'; 259]);
    assert!(err(&s, 258).contains("more than the recorded 258"));
    assert!(err(&s, 300).contains("gives 259 bytes"));
    // Truncations of it: errors, never panics.
    for cut in 0..s.len() {
        err(&s[..cut], 259);
    }
    let mut long = s.clone();
    long.push(0);
    assert!(err(&long, 259).contains("ends after"));
}

fn lit_lens(f: impl Fn(usize) -> u8, n: usize) -> Vec<u8> {
    (0..n).map(f).collect()
}

#[test]
fn literal_pairs_in_the_fast_loop_and_at_the_ends() {
    // Literals of 2 to 13 bits (two of 2 bits pair with every literal of up
    // to 9; 'n' of 11 bits straddles the primary bits after any; 'o'..'q'
    // take subtables), end of block and length 3 of 6 bits.
    let mut lit = vec![0u8; 258];
    for (c, l) in b"abcdefghijklmnopq".iter().zip([2, 2, 3, 4, 5, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 13]) {
        lit[*c as usize] = l;
    }
    lit[256] = 6;
    lit[257] = 6;
    let dist = vec![1u8, 1];
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let letters = b"aaaaaabbbbbcccdefghijklmnopq";
    let mut body: Vec<Sym> = Vec::new();
    let mut want = Vec::new();
    for _ in 0..3000 {
        if rng.next().is_multiple_of(16) && !want.is_empty() {
            body.push((257, Some((0, 0, 0))));
            let b = *want.last().unwrap();
            want.extend_from_slice(&[b, b, b]);
        } else {
            let c = letters[(rng.next() % letters.len() as u64) as usize];
            body.push((c as u32, None));
            want.push(c);
        }
    }
    // The last symbols before end of block: a pair, then 'n' after 'a'.
    for c in *b"aban" {
        body.push((c as u32, None));
        want.push(c);
    }
    let stream = dynamic_stream(&lit, &dist, &body);
    assert_eq!(ok(&stream, want.len()), want);
    // Claiming one byte less or more: clean errors, also when the pair
    // would be the bytes that overflow.
    for end in [&b"ab"[..], b"aa", b"a"] {
        let mut body: Vec<Sym> = end.iter().map(|&c| (c as u32, None)).collect();
        body.insert(0, (b'c' as u32, None));
        let stream = dynamic_stream(&lit, &dist, &body);
        let n = body.len();
        assert_eq!(ok(&stream, n)[1..], *end);
        assert!(err(&stream, n - 1).contains("more than the recorded"), "{end:?}");
        assert!(err(&stream, n + 1).contains("DEFLATE data gives"), "{end:?}");
        // Cut before the end of block: the stream ends early.
        let e = err(&stream[..stream.len() - 1], n);
        assert!(e.contains("ends early") || e.contains("literal/length"), "{end:?}: {e}");
    }
}

#[test]
fn dynamic_block_validation() {
    // A complete literal/length code: 'a', 'b', end of block and length 3
    // (symbol 257), each of length 2.
    let mut lit = vec![0u8; 258];
    lit[b'a' as usize] = 2;
    lit[b'b' as usize] = 2;
    lit[256] = 2;
    lit[257] = 2;
    let dist = vec![1u8, 1];
    let body = [(b'a' as u32, None), (b'b' as u32, None), (257, Some((1, 0, 0)))];
    assert_eq!(ok(&dynamic_stream(&lit, &dist, &body), 5), b"ababa");

    // One distance code of length 1: accepted (as zlib does), and usable.
    let dist1 = vec![1u8];
    let body = [(b'a' as u32, None), (257, Some((0, 0, 0)))];
    let mut dec = Decompressor::new();
    assert_eq!(ours(&mut dec, &dynamic_stream(&lit, &dist1, &body), 4).unwrap(), b"aaaa");
    // ... but its unused code (bit 1) is an error.
    let mut w = BitWriter::default();
    dynamic_header(&mut w, true, &lit, &dist1, None);
    let lc = canonical(&lit);
    w.code(lc[b'a' as usize], 2);
    w.code(lc[257], 2);
    w.bits(1, 1);
    w.code(lc[256], 2);
    assert!(err(&w.finish(), 4).contains("invalid DEFLATE distance code"));

    // One distance code of length 2: incomplete, refused.
    let e = err(&dynamic_stream(&lit, &[2], &[(b'a' as u32, None)]), 1);
    assert!(e.contains("distance code is incomplete"), "{e}");
    // No distance codes: fine while no match is used; an error when one is.
    let zero = vec![0u8; 1];
    assert_eq!(ok(&dynamic_stream(&lit, &zero, &[(b'a' as u32, None), (b'b' as u32, None)]), 2), b"ab");
    let mut w = BitWriter::default();
    dynamic_header(&mut w, true, &lit, &zero, None);
    w.code(lc[b'a' as usize], 2);
    w.code(lc[257], 2);
    w.bits(0, 8);
    w.code(lc[256], 2);
    assert!(err(&w.finish(), 4).contains("invalid DEFLATE distance code"));
    // Distance codes 30/31 may have lengths; using them is the error.
    let mut d32 = vec![0u8; 30];
    d32[0] = 1;
    d32[29] = 1;
    assert_eq!(
        ours(&mut dec, &dynamic_stream(&lit, &d32, &[(b'a' as u32, None), (257, Some((0, 0, 0)))]), 4).unwrap(),
        b"aaaa"
    );

    // Over-subscribed literal/length code.
    let mut over = lit.clone();
    over[b'c' as usize] = 2;
    assert!(err(&dynamic_stream(&over, &dist, &[]), 0).contains("literal/length code is over-subscribed"));
    // Incomplete literal/length code (three codes of length 2).
    let mut inc = lit.clone();
    inc[257] = 0;
    assert!(err(&dynamic_stream(&inc, &dist, &[]), 0).contains("literal/length code is incomplete"));
    // Only end of block, length 1: accepted (zlib does).
    let mut only_eob = vec![0u8; 257];
    only_eob[256] = 1;
    assert_eq!(ok(&dynamic_stream(&only_eob, &dist, &[]), 0), b"");
    // ... and its unused code is an error.
    let mut w = BitWriter::default();
    dynamic_header(&mut w, true, &only_eob, &dist, None);
    w.bits(1, 1);
    assert!(err(&w.finish(), 0).contains("literal/length code"));
    // No end-of-block code.
    let mut no_eob = lit.clone();
    no_eob[256] = 0;
    no_eob[b'c' as usize] = 2;
    assert!(err(&dynamic_stream(&no_eob, &dist, &[]), 0).contains("no end-of-block"));
    // Over-subscribed distance code.
    assert!(err(&dynamic_stream(&lit, &[1, 1, 1], &[]), 0).contains("distance code is over-subscribed"));
    // Codes longer than the primary tables (lengths up to 15), all complete.
    let long = lit_lens(
        |i| {
            if i < 14 {
                i as u8 + 1
            } else if i == 14 {
                15
            } else {
                0
            }
        },
        258,
    );
    let mut long = long;
    long[256] = 15; // symbols 0..=13 lengths 1..=14, 14 and 256 length 15
    long[257] = 0;
    let body: Vec<Sym> = (0..15).rev().map(|s| (s, None)).collect();
    let want: Vec<u8> = (0..15u8).rev().collect();
    assert_eq!(ok(&dynamic_stream(&long, &dist, &body), 15), want);
    // Long distance codes too.
    let dlong = lit_lens(
        |i| {
            if i < 14 {
                i as u8 + 1
            } else if i < 16 {
                15
            } else {
                0
            }
        },
        16,
    );
    // Literal/length: symbols 0..=12 lengths 1..=13, 13: 14, 256 and 257: 15.
    let mut lit2 = vec![0u8; 258];
    for (i, l) in lit2.iter_mut().enumerate().take(13) {
        *l = i as u8 + 1;
    }
    lit2[13] = 14;
    lit2[256] = 15;
    lit2[257] = 15;
    let body = [(0, None), (0, None), (0, None), (0, None), (0, None), (257, Some((1, 0, 0)))];
    let s = dynamic_stream(&lit2, &dlong, &body);
    assert_eq!(ok(&s, 8), vec![0u8; 8]);
    // Distance code 15 (base 193, 6 extra bits): distance too far here.
    let body = [(0, None), (257, Some((15, 5, 6)))];
    assert!(err(&dynamic_stream(&lit2, &dlong, &body), 4).contains("reaches before the start"));
}

#[test]
fn dynamic_header_errors() {
    let mut lit = vec![0u8; 258];
    lit[b'a' as usize] = 2;
    lit[b'b' as usize] = 2;
    lit[256] = 2;
    lit[257] = 2;
    // HLIT 287 and 288; HDIST 31 and 32.
    for (nlit, ndist) in [(287, 1), (288, 1), (257, 31), (257, 32)] {
        let mut w = BitWriter::default();
        w.bits(1, 1);
        w.bits(2, 2);
        w.bits(nlit - 257, 5);
        w.bits(ndist - 1, 5);
        w.bits(15, 4);
        w.bits(0, 32);
        w.bits(0, 32);
        let e = err(&w.finish(), 0);
        assert!(e.contains("at most 286 and 30"), "{e}");
    }
    // Over-subscribed and incomplete code length codes; an empty one.
    let mut over = [4u8; 19];
    over[16] = 0;
    over[17] = 0;
    over[18] = 4;
    let mut w = BitWriter::default();
    dynamic_header(&mut w, true, &lit, &[1, 1], Some(over));
    assert!(err(&w.finish(), 0).contains("code length code is over-subscribed"));
    let mut inc = [4u8; 19];
    inc[16] = 0;
    inc[17] = 0;
    inc[18] = 0;
    inc[15] = 0;
    let mut w = BitWriter::default();
    dynamic_header(&mut w, true, &lit, &[1, 1], Some(inc));
    assert!(err(&w.finish(), 0).contains("code length code is incomplete"));
    let mut w = BitWriter::default();
    w.bits(1, 1);
    w.bits(2, 2);
    w.bits(0, 14);
    w.bits(0, 19 * 3);
    w.bits(0, 32);
    assert!(err(&w.finish(), 0).contains("code length code is empty"));

    // A code length code using the repeat symbols, complete: 16 and 0 of
    // length 2, 1 and 2 of length 3, 17 and 18 of length 4, 3..=6 of length 5.
    let mut pre = [0u8; 19];
    pre[16] = 2;
    pre[0] = 2;
    pre[1] = 3;
    pre[2] = 3;
    pre[17] = 4;
    pre[18] = 4;
    for p in pre.iter_mut().take(7).skip(3) {
        *p = 5;
    }
    let pc = canonical(&pre);
    let header = |w: &mut BitWriter| {
        w.bits(1, 1);
        w.bits(2, 2);
        w.bits(0, 5); // 257 lit/len
        w.bits(0, 5); // 1 dist
        w.bits(15, 4);
        for sym in [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15] {
            w.bits(pre[sym] as u32, 3);
        }
    };
    // Repeat-previous as the very first length.
    let mut w = BitWriter::default();
    header(&mut w);
    w.code(pc[16], 2);
    w.bits(0, 2);
    w.bits(0, 32);
    assert!(err(&w.finish(), 0).contains("start with a repeat"));
    // A zero run past the 258 lengths: 18 with 138, twice = 276 > 258.
    let mut w = BitWriter::default();
    header(&mut w);
    w.code(pc[18], 4);
    w.bits(127, 7);
    w.code(pc[18], 4);
    w.bits(127, 7);
    w.bits(0, 32);
    assert!(err(&w.finish(), 0).contains("runs past"));
    // A valid header using all three repeat codes: 'a'=1, EOB=1 via runs.
    let mut w = BitWriter::default();
    header(&mut w);
    // lengths 0..96 zero: 18 x 86 (11+75), 17 x 10 (3+7)... 97 = 86 + 11
    w.code(pc[18], 4);
    w.bits(75, 7); // 86 zeros
    w.code(pc[18], 4);
    w.bits(0, 7); // 11 zeros -> 97
    w.code(pc[1], 3); // 'a' (97) length 1
    w.code(pc[0], 2); // 98 zero
    w.code(pc[16], 2);
    w.bits(0, 2); // 99..101 zero (repeat previous 0 x3)
    w.code(pc[18], 4);
    w.bits(127, 7); // 102..239
    w.code(pc[17], 4);
    w.bits(7, 3); // 240..249
    w.code(pc[17], 4);
    w.bits(3, 3); // 250..255
    w.code(pc[1], 3); // 256 EOB length 1
    w.code(pc[1], 3); // distance 0 length 1
                      // body: 'a' = 0, EOB = 1
    w.code(0, 1);
    w.code(0, 1);
    w.code(1, 1);
    assert_eq!(ok(&w.finish(), 2), b"aa");
}

#[test]
fn empty_and_tiny_streams() {
    let mut dec = Decompressor::new();
    for level in 0..=10 {
        let z = deflate(&[], level, CompressionStrategy::Default, 0);
        assert_eq!(ours(&mut dec, &z, 0).unwrap(), b"");
        assert!(ours(&mut dec, &z, 1).is_err());
    }
    // Fixed-code end of block only: 0b011 then seven 0 bits.
    assert_eq!(ok(&[0x03, 0x00], 0), b"");
    // The same with the end-of-block code cut off: its zero bits are past the input.
    assert!(err(&[0x03], 0).contains("ends"));
}

/// Go's compress/flate ends every stream with an empty fixed block, read
/// without building the fixed tables: the tables of the block before stay
/// in place, and a later fixed block with symbols still builds its own.
#[test]
fn an_empty_fixed_block_after_a_dynamic_one() {
    // A complete code: bytes 0..254 in 8 bits, 254 and 255 in 9, end of block in 8.
    let lit = lit_lens(|s| if s == 254 || s == 255 { 9 } else { 8 }, 257);
    let mut w = BitWriter::default();
    dynamic_header(&mut w, false, &lit, &[1, 1], None);
    let lc = canonical(&lit);
    for &sym in b"dynamic" {
        w.code(lc[sym as usize], lit[sym as usize] as u32);
    }
    w.code(lc[256], lit[256] as u32);
    w.bits(1, 1);
    w.bits(1, 2);
    fixed_lit(&mut w, 256);
    let first = w.finish();

    let mut w = BitWriter::default();
    w.bits(1, 1);
    w.bits(1, 2);
    for &sym in b"fixed \xff" {
        fixed_lit(&mut w, sym as u32);
    }
    fixed_lit(&mut w, 256);
    let second = w.finish();

    let mut dec = Decompressor::new();
    for _ in 0..2 {
        assert_eq!(ours(&mut dec, &first, 7).unwrap(), b"dynamic");
        assert_eq!(miniz(&first, 7).as_deref(), Some(&b"dynamic"[..]));
        assert_eq!(ours(&mut dec, &second, 7).unwrap(), b"fixed \xff");
        assert_eq!(miniz(&second, 7).as_deref(), Some(&b"fixed \xff"[..]));
    }
    // The empty block's end code cut short.
    assert!(ours(&mut dec, &first[..first.len() - 1], 7).is_err());
}

// ---------------------------------------------------------------------------
// Damaged streams
// ---------------------------------------------------------------------------

struct Tally {
    cases: usize,
    ok: usize,
    stricter: Vec<String>,
}

fn check(dec: &mut Decompressor, input: &[u8], n: usize, t: &mut Tally) {
    t.cases += 1;
    let got = ours(dec, input, n);
    let reference = miniz(input, n);
    match (&got, &reference) {
        (Ok(a), Some(b)) => {
            assert_eq!(a, b, "output differs from miniz on {input:02x?}");
            t.ok += 1;
        }
        (Ok(_), None) => panic!("ours accepts what miniz refuses: {input:02x?} n={n}"),
        (Err(e), Some(_)) => {
            if t.stricter.len() < 20 {
                t.stricter.push(e.clone());
            }
        }
        (Err(_), None) => {}
    }
}

#[test]
fn damaged_streams_never_panic_and_agree_with_miniz() {
    // INFLATE_FUZZ=<seed>:<scale> runs a longer, differently seeded pass.
    let (seed, scale) = std::env::var("INFLATE_FUZZ")
        .ok()
        .and_then(|v| {
            let (a, b) = v.split_once(':')?;
            Some((a.parse().ok()?, b.parse().ok()?))
        })
        .unwrap_or((0xDEAD_BEEF_CAFE_F00Du64, 1usize));
    let mut rng = Rng(seed | 1);
    let mut dec = Decompressor::new();
    let mut t = Tally { cases: 0, ok: 0, stricter: Vec::new() };
    let strategies = [CompressionStrategy::Default, CompressionStrategy::Fixed, CompressionStrategy::RLE];
    for round in 0..240 * scale {
        let n = [0, 1, 5, 40, 300, 1000, 5000, 20_000][round % 8];
        let data = gen(round % KINDS, n, &mut rng);
        let level = (round % 11) as u8;
        let z = deflate(&data, level, strategies[round % 3], if round % 5 == 0 { 1 + rng.below(n + 1) } else { 0 });
        // Every truncation (sampled for big streams).
        let step = (z.len() / 150).max(1);
        for cut in (0..z.len()).step_by(step) {
            check(&mut dec, &z[..cut], n, &mut t);
        }
        // Single and multiple bit flips.
        for k in 0..200 {
            let mut m = z.clone();
            if m.is_empty() {
                break;
            }
            for _ in 0..1 + k % 3 {
                let i = rng.below(m.len());
                m[i] ^= 1 << rng.below(8);
            }
            let n2 = if k % 7 == 0 { rng.below(n + 10) } else { n };
            check(&mut dec, &m, n2, &mut t);
        }
        // Random byte overwrites, insertions, deletions.
        for _ in 0..50 {
            let mut m = z.clone();
            match rng.below(3) {
                0 if !m.is_empty() => {
                    let i = rng.below(m.len());
                    m[i] = rng.next() as u8;
                }
                1 => {
                    let i = rng.below(m.len() + 1);
                    m.insert(i, rng.next() as u8);
                }
                _ if !m.is_empty() => {
                    let i = rng.below(m.len());
                    m.remove(i);
                }
                _ => {}
            }
            check(&mut dec, &m, n, &mut t);
        }
    }
    // Pure garbage, with the block type bits steered to each type.
    for i in 0..30_000 * scale {
        let len = rng.below(if i % 10 == 0 { 2000 } else { 64 });
        let mut g: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        if let Some(b) = g.first_mut() {
            *b = (*b & !6) | ((i % 3) as u8) << 1;
        }
        let n = rng.below(if i % 2 == 0 { 64 } else { 5000 });
        check(&mut dec, &g, n, &mut t);
    }
    eprintln!(
        "{} damaged/garbage cases: {} decoded identically to miniz, {} refused by us but accepted by miniz",
        t.cases,
        t.ok,
        t.stricter.len()
    );
    for s in &t.stricter {
        eprintln!("  stricter: {s}");
    }
    assert!(t.cases > 50_000);
}

#[test]
fn length_extra_bits_in_every_table_position() {
    // Literal/length codes of lengths 1..=15 (and a second 15): length
    // symbols whose extra bits fit the primary table (expanded there),
    // exceed it (9 + 4 bits), or sit in a subtable (12 + 5 bits).
    let order = [97u32, 284, 270, 265, 256, 257, 258, 259, 280, 260, 261, 283, 262, 263, 285, 264];
    let mut lit = vec![0u8; 286];
    for (i, &sym) in order.iter().enumerate() {
        lit[sym as usize] = (i + 1).min(15) as u8;
    }
    let dist = [1u8, 0, 0, 1];
    let len_base = |sym: u32| {
        [
            3u32, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195,
            227, 258,
        ][sym as usize - 257]
    };
    let len_extra = |sym: u32| {
        [0u32, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0][sym as usize - 257]
    };
    let mut body: Vec<Sym> = vec![(97, None)];
    let mut n = 1usize;
    let mut rng = Rng(7);
    for _ in 0..300 {
        let sym = order[1 + rng.below(order.len() - 1)];
        if sym == 256 {
            continue;
        }
        let eb = len_extra(sym);
        let v = if eb == 0 { 0 } else { rng.below(1 << eb) as u32 };
        // Distance 1 (code 0) or 4 (code 3, once 4 bytes exist).
        let dcode = if n >= 4 && rng.below(2) == 0 { 3 } else { 0 };
        // Here the tuple holds the length's extra bits (value, count).
        body.push((sym, Some((dcode, v, eb))));
        n += (len_base(sym) + v) as usize;
    }
    // Symbol, length extra bits, distance code (distance codes 0 and 3
    // have no extra bits).
    let mut w = BitWriter::default();
    dynamic_header(&mut w, true, &lit, &dist, None);
    let lc = canonical(&lit);
    let dc = canonical(&dist);
    for &(sym, d) in &body {
        w.code(lc[sym as usize], lit[sym as usize] as u32);
        if let Some((dcode, v, eb)) = d {
            w.bits(v, eb);
            w.code(dc[dcode as usize], 1);
        }
    }
    w.code(lc[256], lit[256] as u32);
    let s = w.finish();
    assert_eq!(ok(&s, n), vec![b'a'; n]);
}

/// Lengths of a random complete prefix code over `n` symbols (at most 15
/// bits), grown by splitting random leaves: short and long codes mixed.
fn random_complete(n: usize, rng: &mut Rng) -> Vec<u8> {
    let mut leaves = vec![0u8];
    while leaves.len() < n {
        let i = rng.below(leaves.len());
        if leaves[i] < 15 {
            leaves[i] += 1;
            leaves.push(leaves[i]);
        }
    }
    for i in (1..leaves.len()).rev() {
        leaves.swap(i, rng.below(i + 1));
    }
    leaves
}

const LEN_BASE: [u32; 29] =
    [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LEN_EXTRA: [u32; 29] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE: [u32; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
    8193, 12289, 16385, 24577,
];
const DIST_EXTRA: [u32; 30] =
    [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];

#[test]
fn length_and_distance_codes_in_every_combination() {
    // The decoder's primary table joins a length code (with its extra bits)
    // and a whole distance code into one entry where both fit, in blocks of
    // more than 8 KiB of input (smaller ones get a smaller table); random
    // complete codes put every length and distance code, with and without
    // extra bits, at every codeword length, in streams small and large that
    // end in matches (the tail's one-symbol step) as well as literals.
    let mut rng = Rng(0xC0DE_5EED_0000_0001);
    let (mut matches, mut large) = (0, 0);
    for round in 0..400 {
        // Literals 'a'..='h', end of block, all 29 length symbols.
        let syms: Vec<usize> = (97..105).chain(256..286).collect();
        let code = random_complete(syms.len(), &mut rng);
        let mut lit = vec![0u8; 286];
        for (&s, &l) in syms.iter().zip(&code) {
            lit[s] = l;
        }
        // All 30 distance codes, or a few short ones (a single code of
        // length 1 in some rounds).
        let nd = [30, 30, 5, 2, 1][round % 5];
        let mut dist = vec![0u8; 30];
        let mut dsyms: Vec<usize> = (0..30).collect();
        for i in (1..30).rev() {
            dsyms.swap(i, rng.below(i + 1));
        }
        let dcode = if nd == 1 { vec![1] } else { random_complete(nd, &mut rng) };
        for (&s, &l) in dsyms.iter().zip(&dcode) {
            dist[s] = l;
        }
        let lc = canonical(&lit);
        let dc = canonical(&dist);
        let mut w = BitWriter::default();
        dynamic_header(&mut w, true, &lit, &dist, None);
        let mut n = 0usize;
        let steps = if round % 4 == 0 { 6000 + rng.below(6000) } else { 1 + rng.below(600) };
        for step in 0..steps {
            // Those distance codes whose shortest distance is in reach.
            let usable: Vec<usize> = dsyms[..nd].iter().copied().filter(|&s| DIST_BASE[s] as usize <= n).collect();
            if usable.is_empty() || (rng.below(3) == 0 && step + 1 < steps) {
                let b = 97 + rng.below(8);
                w.code(lc[b], lit[b] as u32);
                n += 1;
                continue;
            }
            let ls = rng.below(29);
            let lv = rng.below(1 << LEN_EXTRA[ls]) as u32;
            w.code(lc[257 + ls], lit[257 + ls] as u32);
            w.bits(lv, LEN_EXTRA[ls]);
            let ds = usable[rng.below(usable.len())];
            let room = (n - DIST_BASE[ds] as usize).min((1 << DIST_EXTRA[ds]) - 1);
            let dv = rng.below(room + 1) as u32;
            w.code(dc[ds], dist[ds] as u32);
            w.bits(dv, DIST_EXTRA[ds]);
            n += (LEN_BASE[ls] + lv) as usize;
            matches += 1;
        }
        w.code(lc[256], lit[256] as u32);
        let s = w.finish();
        ok(&s, n);
        large += (s.len() > 8 << 10) as usize;
    }
    assert!(matches > 200_000 && large > 60, "{matches} matches, {large} large streams");
}

// ---------------------------------------------------------------------------
// Zlib and gzip framing against the reference (tests/oracle/inflate.rs)
// ---------------------------------------------------------------------------

#[path = "oracle/inflate.rs"]
mod oracle;

use oracle::Framing;

fn framed(dec: &mut Decompressor, framing: Framing, block: &[u8], n: usize) -> Result<Vec<u8>, ()> {
    let codec = match framing {
        Framing::Raw => Codec::Flate,
        Framing::Zlib => Codec::Zlib,
        Framing::Gzip => Codec::Gzip,
    };
    let mut out = vec![0x55; n];
    dec.block(codec, block, &mut out).map(|()| out).map_err(drop)
}

/// A zlib stream around `deflated` (RFC 1950), header bytes as given.
fn zlib_wrap(cmf: u8, flg: u8, deflated: &[u8], data: &[u8]) -> Vec<u8> {
    let mut z = vec![cmf, flg];
    z.extend_from_slice(deflated);
    z.extend_from_slice(&adler2::adler32_slice(data).to_be_bytes());
    z
}

/// A gzip member around `deflated` (RFC 1952) with the optional fields `flg` asks for.
fn gzip_wrap(flg: u8, deflated: &[u8], data: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut g = vec![0x1f, 0x8b, 8, flg, 1, 2, 3, 4, 0, 3];
    if flg & 4 != 0 {
        let n = rng.below(20);
        g.extend_from_slice(&(n as u16).to_le_bytes());
        g.extend((0..n).map(|_| rng.next() as u8));
    }
    for bit in [8u8, 16] {
        if flg & bit != 0 {
            g.extend((0..rng.below(12)).map(|_| 1 + rng.below(255) as u8));
            g.push(0);
        }
    }
    if flg & 2 != 0 {
        let crc = oracle::crc32(&g) as u16;
        g.extend_from_slice(&crc.to_le_bytes());
    }
    g.extend_from_slice(deflated);
    g.extend_from_slice(&oracle::crc32(data).to_le_bytes());
    g.extend_from_slice(&(data.len() as u32).to_le_bytes());
    g
}

#[test]
fn zlib_and_gzip_framing_agree_with_the_reference() {
    let mut rng = Rng(0xF8A3_11E5);
    let mut dec = Decompressor::new();
    let (mut same, mut refused) = (0usize, 0usize);
    let mut check = |dec: &mut Decompressor, f: Framing, block: &[u8], n: usize| {
        let want = oracle::expected(f, block, n);
        assert_eq!(framed(dec, f, block, n), want, "{f:?} n={n} {block:02x?}");
        if want.is_ok() {
            same += 1;
        } else {
            refused += 1;
        }
    };
    for round in 0..1500 {
        let n = [0, 1, 7, 100, 3000][round % 5];
        let data = gen(round % KINDS, n, &mut rng);
        let d = deflate(&data, (round % 10) as u8, CompressionStrategy::Default, 0);
        // Every header the two bytes can hold now and then, else a good one.
        let (cmf, flg) = if round % 4 == 0 {
            (rng.next() as u8, rng.next() as u8)
        } else {
            let cmf = 0x08 | (rng.below(8) as u8) << 4;
            let flg = (rng.below(4) as u8) << 6;
            (cmf, flg + (31 - ((cmf as u16) << 8 | flg as u16) % 31) as u8 % 31)
        };
        let z = zlib_wrap(cmf, flg, &d, &data);
        let g = gzip_wrap(if round % 3 == 0 { rng.next() as u8 } else { rng.below(32) as u8 }, &d, &data, &mut rng);
        for (f, block) in [(Framing::Zlib, z), (Framing::Gzip, g)] {
            check(&mut dec, f, &block, n);
            check(&mut dec, f, &block, n + 1);
            if n > 0 {
                check(&mut dec, f, &block, n - 1);
            }
            for _ in 0..20 {
                let mut m = block.clone();
                match rng.below(4) {
                    0 => {
                        // A flip, mostly in the framing.
                        let i = if rng.below(2) == 0 {
                            rng.below(m.len().min(24))
                        } else {
                            m.len() - 1 - rng.below(8.min(m.len()))
                        };
                        m[i] ^= 1 << rng.below(8);
                    }
                    1 => {
                        let i = rng.below(m.len());
                        m[i] ^= 1 << rng.below(8);
                    }
                    2 => m.truncate(rng.below(m.len())),
                    _ => m.push(rng.next() as u8),
                }
                check(&mut dec, f, &m, n);
            }
        }
    }
    eprintln!("framing: {same} blocks decoded as the reference decodes them, {refused} refused by both");
    assert!(same > 3000 && refused > 30_000, "{same} same, {refused} refused");
}

/// Fuzz finding crash-2960a0a7 (inflate target): miniz_oxide skips the
/// Adler-32 check when built with cfg(fuzzing), so its reference accepted a
/// zlib block with a wrong checksum that ours refuses. The reference now
/// checks it itself; this block must be refused by both.
#[test]
fn fuzz_crash_2960a0a7_zlib_adler_mismatch_is_refused_by_both() {
    let mut block = miniz_oxide::deflate::compress_to_vec_zlib(&[0x60], 7);
    assert_eq!(block, [0x78, 0x9c, 0x4b, 0x00, 0x00, 0x00, 0x61, 0x00, 0x61]);
    assert_eq!(oracle::expected(Framing::Zlib, &block, 1), Ok(vec![0x60]));
    block[8] ^= 1;
    assert_eq!(oracle::expected(Framing::Zlib, &block, 1), Err(()));
    assert_eq!(framed(&mut Decompressor::new(), Framing::Zlib, &block, 1), Err(()));
    for data in [&b""[..], b"a", b"Wikipedia", &[0xff; 6000]] {
        assert_eq!(oracle::adler32(data), adler2::adler32_slice(data));
    }
    assert_eq!(oracle::adler32(b"Wikipedia"), 0x11E6_0398);
}
