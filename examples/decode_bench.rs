//! Decode speed per encoding x type, on real columns, natively and (the
//! same code built for wasm32) in Node: ns per value, GB/s of output, the
//! decode time beside the time to inflate the same chunk, null spreading per
//! row, and LZW beside weezl on the same blocks. Prints Markdown; `--json
//! FILE` also writes every figure as JSON.
//!
//!   cargo run --release --example decode_bench [-- --budget-ms 3 --json out.json FILE...]
//!   node examples/decode_bench.mjs [--budget-ms 3 --json out.json FILE...]   (wasm32 in Node)
//!
//! Files default to every `.cols` of ../shared/bench/real (or, without it,
//! corpus/real) and corpus/valid, with corpus/tokenizers registered. Three
//! kinds of rows:
//! - `real`: chunks of ../shared/bench/real as the reference writer wrote them;
//! - `real, re-encoded`: values of real chunks written here in an encoding
//!   the real files lack at scale (OffsetBytes and Affix from their strings,
//!   RLEBitpack from a derived bool, Tokenized movielens titles in all nine
//!   layouts), compressed with miniz_oxide so inflate has a time beside them;
//!   each re-encoded stream is decoded once and checked against its values;
//! - `corpus`: the conformance corpus, shown only for encoding x type pairs
//!   the rows above lack (its chunks hold a few hundred values, so fixed
//!   costs dominate their per-value figures).
//!
//! Each operation on a chunk (inflate, decode, spread nulls) is timed on a
//! fresh copy of its input made untimed, repeated (batched when short)
//! until `--budget-ms` of its own time and at least 7 samples; the figure
//! is the median. Operations on the same chunk alternate, so background
//! load hits them alike. Natively, freed memory is kept for reuse, as
//! wasm's allocator keeps it (`common::recycle_freed_memory`).

#[cfg(not(target_arch = "wasm32"))]
#[path = "../tests/common/mod.rs"]
mod common;

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::hint::black_box;

use columns_wasm::codec::{Codec, Decompressor};
use columns_wasm::encoding::{self, Encoding};
use columns_wasm::read::{prepare, PreparedChunk, Stream};
use columns_wasm::{ColumnType, FileMeta, Registry, Tokenizer, Values};

// ---------------------------------------------------------------- clock

#[cfg(not(target_arch = "wasm32"))]
fn now() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1e3
}

#[cfg(target_arch = "wasm32")]
fn now() -> f64 {
    // SAFETY: an imported JS function taking nothing and returning a number.
    unsafe { wasm_entry::bench_now() }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Times operations on fresh inputs: each `Timer` is one operation; `sample`
/// adds one sample (a batch of calls when a call is short, so the clock's
/// own cost stays small), and callers alternate samples of several timers.
struct Timer {
    samples: Vec<f64>,
    spent: f64,
    batch: usize,
}

/// `--budget-ms 0`: exactly this many samples of one call each, so a run
/// under callgrind makes the same calls every time.
const FIXED_SAMPLES: usize = 3;

impl Timer {
    fn new() -> Self {
        Timer { samples: Vec::new(), spent: 0.0, batch: 0 }
    }

    fn done(&self, budget_ms: f64) -> bool {
        if budget_ms <= 0.0 {
            return self.samples.len() >= FIXED_SAMPLES;
        }
        self.samples.len() >= 7 && (self.spent >= budget_ms || self.samples.len() >= 400)
    }

    fn sample<S, R>(&mut self, mut setup: impl FnMut() -> S, mut op: impl FnMut(S) -> R) {
        if self.spent.is_nan() {
            self.batch = 1; // fixed samples (see FIXED_SAMPLES)
        }
        if self.batch == 0 {
            // Calibration call, not kept: sets the batch to about 50 us.
            let s = setup();
            let t0 = now();
            let r = op(s);
            let d = now() - t0;
            black_box(&r);
            self.batch = ((0.05 / d.max(1e-6)) as usize).clamp(1, 32);
        }
        let inputs: Vec<S> = (0..self.batch).map(|_| setup()).collect();
        let mut outs = Vec::with_capacity(self.batch);
        let t0 = now();
        for s in inputs {
            outs.push(op(s));
        }
        let d = now() - t0;
        black_box(&outs);
        drop(outs);
        self.samples.push(d / self.batch as f64);
        self.spent += d;
    }

    fn median(&self) -> f64 {
        median(self.samples.clone())
    }
}

/// A timer and how to take one sample of it.
type Timed<'a> = (&'a mut Timer, &'a mut dyn FnMut(&mut Timer));

/// Alternates samples of the timers until each has spent its budget.
fn run_timers(budget_ms: f64, timers: &mut [Timed<'_>]) {
    if budget_ms <= 0.0 {
        for (t, _) in timers.iter_mut() {
            if t.samples.is_empty() {
                t.spent = f64::NAN; // one call per sample, no calibration
            }
        }
    }
    loop {
        let mut all = true;
        for (t, f) in timers.iter_mut() {
            if !t.done(budget_ms) {
                all = false;
                f(t);
            }
        }
        if all {
            return;
        }
    }
}

// ---------------------------------------------------------------- samples

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Source {
    Real,
    ReEncoded,
    Corpus,
}

impl Source {
    fn name(self) -> &'static str {
        match self {
            Source::Real => "real",
            Source::ReEncoded => "real, re-encoded",
            Source::Corpus => "corpus",
        }
    }
}

/// One timed chunk.
struct Sample {
    file: String,
    what: String,
    source: Source,
    label: String,
    ty: ColumnType,
    codec: &'static str,
    rows: usize,
    values: usize,
    /// Value bytes out (string data only, for strings).
    text_bytes: usize,
    /// Every output byte: values, plus offsets for strings.
    out_bytes: usize,
    inflate_ms: Option<f64>,
    decode_ms: f64,
    spread_ms: Option<f64>,
}

fn out_sizes(v: &Values) -> (usize, usize) {
    match v {
        Values::Bytes { offsets, data } => (data.len(), data.len() + offsets.len() * 4),
        other => {
            let w = match other {
                Values::Bool(_) | Values::Int8(_) | Values::Uint8(_) => 1,
                Values::Int16(_) | Values::Uint16(_) => 2,
                Values::Int32(_) | Values::Uint32(_) | Values::Float32(_) => 4,
                _ => 8,
            };
            (other.len() * w, other.len() * w)
        }
    }
}

/// A copy of decoded values as a decoder returns them: string offsets with
/// room for every row (`Vec::clone` would drop that capacity, and the
/// spread would then reallocate).
fn clone_with_room(v: &Values, rows: usize) -> Values {
    match v {
        Values::Bytes { offsets, data } => {
            let mut o = Vec::with_capacity(rows + 1);
            o.extend_from_slice(offsets);
            Values::Bytes { offsets: o, data: data.clone() }
        }
        other => other.clone(),
    }
}

fn clone_stream<'a>(s: &Stream<'a>) -> Stream<'a> {
    match s {
        Stream::Bytes(Cow::Borrowed(b)) => Stream::Bytes(Cow::Borrowed(b)),
        Stream::Bytes(Cow::Owned(v)) => Stream::Bytes(Cow::Owned(v.clone())),
        Stream::Typed(v) => Stream::Typed(v.clone()),
    }
}

/// The label of a chunk's encoding: Tokenized names its layout.
fn label(enc: Encoding, stream: &[u8]) -> String {
    if enc == Encoding::Tokenized {
        if let Ok(l) = encoding::TokenizedLayout::parse(stream) {
            return format!("Tokenized {}/{}", l.representation.name(), l.boundaries.name());
        }
    }
    enc.name().to_string()
}

fn time_file(
    name: &str,
    bytes: &[u8],
    source: Source,
    registry: &Registry,
    budget: f64,
    only: &str,
    out: &mut Vec<Sample>,
) {
    let Ok(meta) = FileMeta::from_bytes(bytes) else { return };
    let mut dec = Decompressor::new();
    for g in 0..meta.row_groups.len() {
        for c in 0..meta.schema.len() {
            let Ok(chunk) = meta.chunk_bytes(bytes, g, c) else { continue };
            let Ok(p) = prepare(&meta, g, c, chunk, registry) else { continue };
            let Ok(stream) = p.decompress(&mut dec) else { continue };
            let lab = match &stream {
                Stream::Bytes(b) => label(p.chunk.encoding, b),
                Stream::Typed(_) => p.chunk.encoding.name().to_string(),
            };
            if !lab.starts_with(only) {
                continue;
            }
            let Ok(dense) = p.decode_dense(clone_stream(&stream)) else { continue };
            let (text_bytes, out_bytes) = out_sizes(&dense);
            let sample = time_chunk(&p, &stream, &dense, &mut dec, budget);
            out.push(Sample {
                file: name.to_string(),
                what: format!("rg {g} {}", meta.schema[c].name_lossy()),
                source,
                label: lab,
                ty: p.ty,
                codec: p.chunk.codec.name(),
                rows: p.rows as usize,
                values: p.rows as usize - p.null_count,
                text_bytes,
                out_bytes,
                inflate_ms: sample.0,
                decode_ms: sample.1,
                spread_ms: sample.2,
            });
        }
    }
}

/// (inflate, decode, spread) medians for one chunk.
fn time_chunk(
    p: &PreparedChunk<'_>,
    stream: &Stream<'_>,
    dense: &Values,
    dec: &mut Decompressor,
    budget: f64,
) -> (Option<f64>, f64, Option<f64>) {
    let compressed = p.chunk.codec != Codec::None;
    let nulls = p.null_count > 0;
    let (mut ti, mut td, mut ts) = (Timer::new(), Timer::new(), Timer::new());
    // Timers that do not apply start out done.
    if !compressed {
        ti.samples = vec![0.0; 7];
        ti.spent = f64::INFINITY;
    }
    if !nulls {
        ts.samples = vec![0.0; 7];
        ts.spent = f64::INFINITY;
    }
    let mut fi = |t: &mut Timer| t.sample(|| (), |()| p.decompress(dec).expect("inflates"));
    let mut fd = |t: &mut Timer| t.sample(|| clone_stream(stream), |s| p.decode_dense(s).expect("decodes"));
    let rows = p.rows as usize;
    let mut fs = |t: &mut Timer| t.sample(|| clone_with_room(dense, rows), |v| p.spread_nulls(v).expect("spreads"));
    run_timers(budget, &mut [(&mut ti, &mut fi), (&mut td, &mut fd), (&mut ts, &mut fs)]);
    (compressed.then(|| ti.median()), td.median(), nulls.then(|| ts.median()))
}

// ---------------------------------------------------------------- re-encoding

/// Raw DEFLATE blocks of at most 256 KiB of stream each, as the writer cuts them.
fn deflate_blocks(stream: &[u8]) -> Vec<(Vec<u8>, usize)> {
    stream.chunks(256 * 1024).map(|b| (miniz_oxide::deflate::compress_to_vec(b, 6), b.len())).collect()
}

fn offset_bytes(values: &[&[u8]]) -> Vec<u8> {
    let mut s = (values.len() as u32).to_le_bytes().to_vec();
    let mut at = 0u32;
    for v in values {
        s.extend_from_slice(&at.to_le_bytes());
        at += v.len() as u32;
    }
    values.iter().for_each(|v| s.extend_from_slice(v));
    s
}

/// Affix with the longest prefix, then the longest suffix of what remains,
/// shared by every value.
fn affix(values: &[&[u8]]) -> (Vec<u8>, usize) {
    let first: &[u8] = values.first().copied().unwrap_or_default();
    let mut p = first.len();
    for v in values {
        p = p.min(v.iter().zip(first).take_while(|(a, b)| a == b).count());
    }
    let mut s = first.len() - p;
    for v in values {
        let rest = &v[p..];
        s = s.min(rest.iter().rev().zip(first[p..].iter().rev()).take_while(|(a, b)| a == b).count());
    }
    let mut out = Vec::new();
    out.extend_from_slice(&(p as u32).to_le_bytes());
    out.extend_from_slice(&first[..p]);
    out.extend_from_slice(&(s as u32).to_le_bytes());
    out.extend_from_slice(&first[first.len() - s..]);
    for v in values {
        let mid = &v[p..v.len() - s];
        out.extend_from_slice(&(mid.len() as u32).to_le_bytes());
        out.extend_from_slice(mid);
    }
    (out, p + s)
}

fn rle_bitpack(bools: &[bool]) -> Vec<u8> {
    let mut out = vec![0u8; bools.len().div_ceil(8)];
    for (i, &b) in bools.iter().enumerate() {
        if b {
            out[i / 8] |= 0x80 >> (i % 8);
        }
    }
    out
}

/// A tokenized payload read back into per-value ids and the escape bytes
/// (written here from FORMAT.md section 6, independently of the decoder).
struct TokenValues {
    ids: Vec<Vec<u16>>,
    escapes: Vec<u8>,
}

fn read_tokenized(s: &[u8]) -> TokenValues {
    let u32_at = |p: usize| u32::from_le_bytes(s[p..p + 4].try_into().unwrap()) as usize;
    let (rep, bounds) = (s[0], s[1]);
    let (v, t, e, l) = (u32_at(2), u32_at(6), u32_at(10), u32_at(14));
    let table: Vec<u16> = (0..l).map(|i| u16::from_le_bytes([s[18 + 2 * i], s[19 + 2 * i]])).collect();
    let b0 = 18 + 2 * l;
    let bnd: Vec<u32> = (0..v).map(|i| u32_at(b0 + 4 * i) as u32).collect();
    let id_stream = &s[b0 + 4 * v..s.len() - e];
    let flat: Vec<u16> = match rep {
        0 => id_stream.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect(),
        1 => {
            let (mut out, mut x, mut sh) = (Vec::new(), 0usize, 0);
            for &b in id_stream {
                x |= ((b & 0x7f) as usize) << sh;
                sh += 7;
                if b & 0x80 == 0 {
                    out.push(table[x]);
                    (x, sh) = (0, 0);
                }
            }
            out
        }
        _ => {
            let w = 32 - (table[0] as u32).leading_zeros();
            (0..t)
                .map(|k| {
                    (0..w).fold(0u16, |acc, j| {
                        let bit = k * w as usize + j as usize;
                        acc << 1 | ((id_stream[bit / 8] >> (7 - bit % 8)) & 1) as u16
                    })
                })
                .collect()
        }
    };
    assert_eq!(flat.len(), t, "token count");
    let mut counts = Vec::new();
    let mut prev = 0i64;
    for (i, &b) in bnd.iter().enumerate() {
        counts.push(match bounds {
            0 => b as usize,
            1 => (if i + 1 < v { bnd[i + 1] as usize } else { t }) - b as usize,
            _ => {
                prev += ((b >> 1) as i64) ^ -((b & 1) as i64);
                prev as usize
            }
        });
    }
    let mut ids = Vec::new();
    let mut at = 0;
    for c in counts {
        ids.push(flat[at..at + c].to_vec());
        at += c;
    }
    TokenValues { ids, escapes: s[s.len() - e..].to_vec() }
}

/// Writes token values in one of the nine layouts (representation 0-2,
/// boundaries 0-2).
fn write_tokenized(tv: &TokenValues, rep: u8, bounds: u8) -> Vec<u8> {
    let flat: Vec<u16> = tv.ids.iter().flatten().copied().collect();
    let mut table: Vec<u16> = Vec::new();
    let mut ids = Vec::new();
    match rep {
        0 => flat.iter().for_each(|i| ids.extend_from_slice(&i.to_le_bytes())),
        1 => {
            let mut freq: BTreeMap<u16, usize> = BTreeMap::new();
            flat.iter().for_each(|&i| *freq.entry(i).or_default() += 1);
            let mut by: Vec<(u16, usize)> = freq.into_iter().collect();
            by.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            table = by.iter().map(|x| x.0).collect();
            let index: BTreeMap<u16, usize> = table.iter().enumerate().map(|(k, &i)| (i, k)).collect();
            for i in &flat {
                let mut x = index[i];
                loop {
                    let b = (x & 0x7f) as u8;
                    x >>= 7;
                    if x == 0 {
                        ids.push(b);
                        break;
                    }
                    ids.push(b | 0x80);
                }
            }
        }
        _ => {
            let max = flat.iter().copied().max().unwrap_or(0);
            table = vec![max];
            let w = 32 - (max as u32).leading_zeros();
            let mut bits = vec![false; 0];
            for &i in &flat {
                (0..w).rev().for_each(|j| bits.push((i >> j) & 1 == 1));
            }
            ids = rle_bitpack(&bits);
        }
    }
    let mut s = vec![rep, bounds];
    for x in [tv.ids.len(), flat.len(), tv.escapes.len(), table.len()] {
        s.extend_from_slice(&(x as u32).to_le_bytes());
    }
    table.iter().for_each(|t| s.extend_from_slice(&t.to_le_bytes()));
    let (mut at, mut prev) = (0u32, 0i64);
    for v in &tv.ids {
        let b = match bounds {
            0 => v.len() as u32,
            1 => at,
            _ => {
                let d = v.len() as i64 - prev;
                prev = v.len() as i64;
                ((d << 1) ^ (d >> 63)) as u32
            }
        };
        at += v.len() as u32;
        s.extend_from_slice(&b.to_le_bytes());
    }
    s.extend_from_slice(&ids);
    s.extend_from_slice(&tv.escapes);
    s
}

/// A stream written here, with what decoding it must give.
struct ReEncoded {
    file: String,
    what: String,
    label: String,
    enc: Encoding,
    ty: ColumnType,
    n: usize,
    stream: Vec<u8>,
    want: Values,
    tokenizer: Option<std::sync::Arc<Tokenizer>>,
}

fn bytes_values(values: &[&[u8]]) -> Values {
    let mut offsets = vec![0u32];
    let mut data = Vec::new();
    for v in values {
        data.extend_from_slice(v);
        offsets.push(data.len() as u32);
    }
    Values::Bytes { offsets, data }
}

/// Streams re-encoded from a real file's chunks (at most `max_groups` row
/// groups of it, to keep the run short).
fn re_encode(name: &str, bytes: &[u8], registry: &Registry, max_groups: usize, out: &mut Vec<ReEncoded>) {
    let Ok(meta) = FileMeta::from_bytes(bytes) else { return };
    let mut dec = Decompressor::new();
    for g in 0..meta.row_groups.len().min(max_groups) {
        for c in 0..meta.schema.len() {
            let chunk = meta.chunk_bytes(bytes, g, c).expect("chunk");
            let p = prepare(&meta, g, c, chunk, registry).expect("prepares");
            let stream = p.decompress(&mut dec).expect("inflates");
            let what = format!("rg {g} {}", meta.schema[c].name_lossy());
            if p.chunk.encoding == Encoding::Tokenized {
                let Stream::Bytes(s) = &stream else { continue };
                let dense = p.decode_dense(clone_stream(&stream)).expect("decodes");
                let tv = read_tokenized(s);
                for rep in 0..3u8 {
                    for bounds in 0..3u8 {
                        let st = write_tokenized(&tv, rep, bounds);
                        out.push(ReEncoded {
                            file: name.into(),
                            what: what.clone(),
                            label: label(Encoding::Tokenized, &st),
                            enc: Encoding::Tokenized,
                            ty: p.ty,
                            n: tv.ids.len(),
                            stream: st,
                            want: dense.clone(),
                            tokenizer: p.tokenizer.clone(),
                        });
                    }
                }
                continue;
            }
            let dense = p.decode_dense(stream).expect("decodes");
            match &dense {
                Values::Bytes { offsets, data } => {
                    let vals: Vec<&[u8]> = offsets.windows(2).map(|w| &data[w[0] as usize..w[1] as usize]).collect();
                    let (ab, affix_len) = affix(&vals);
                    // The same values inside a shared prefix and suffix (as
                    // ids and URLs have), so that Affix's general path has
                    // real chunks too: the real strings share almost none.
                    let wrapped: Vec<Vec<u8>> = vals.iter().map(|v| [&b"id:"[..], v, b".v1"].concat()).collect();
                    let wrapped: Vec<&[u8]> = wrapped.iter().map(|v| &v[..]).collect();
                    let (aw, wrapped_len) = affix(&wrapped);
                    for (enc, st, lab, vals) in [
                        (Encoding::OffsetBytes, offset_bytes(&vals), "OffsetBytes".to_string(), &vals),
                        (Encoding::Affix, ab, format!("Affix ({affix_len} affix bytes)"), &vals),
                        (Encoding::Affix, aw, format!("Affix ({wrapped_len} affix bytes, added)"), &wrapped),
                    ] {
                        out.push(ReEncoded {
                            file: name.into(),
                            what: what.clone(),
                            label: lab,
                            enc,
                            ty: p.ty,
                            n: vals.len(),
                            stream: st,
                            want: bytes_values(vals),
                            tokenizer: None,
                        });
                    }
                }
                Values::Int16(v) => {
                    // A derived bool: the value is positive (e.g. a delay).
                    let bools: Vec<bool> = v.iter().map(|&x| x > 0).collect();
                    out.push(ReEncoded {
                        file: name.into(),
                        what: format!("{what} > 0"),
                        label: "RLEBitpack".into(),
                        enc: Encoding::RleBitpack,
                        ty: ColumnType::Bool,
                        n: bools.len(),
                        stream: rle_bitpack(&bools),
                        want: Values::Bool(bools.iter().map(|&b| b as u8).collect()),
                        tokenizer: None,
                    });
                }
                _ => {}
            }
        }
    }
}

fn time_re_encoded(r: &ReEncoded, budget: f64, dec: &mut Decompressor) -> Sample {
    let tok = r.tokenizer.as_deref();
    let got = encoding::decode_owned(r.enc, r.ty, r.n, r.n, r.stream.clone(), tok)
        .unwrap_or_else(|e| panic!("{} {} {}: {e}", r.file, r.what, r.label));
    assert!(got == r.want, "{} {} {}: the decoder disagrees with the values re-encoded", r.file, r.what, r.label);
    let (text_bytes, out_bytes) = out_sizes(&got);
    let blocks = deflate_blocks(&r.stream);
    let raw = r.stream.len();
    let (mut ti, mut td) = (Timer::new(), Timer::new());
    let mut fi = |t: &mut Timer| {
        t.sample(
            || (),
            |()| {
                let mut out = vec![0u8; raw];
                let mut at = 0;
                for (b, len) in &blocks {
                    dec.block(Codec::Flate, b, &mut out[at..at + len]).expect("inflates");
                    at += len;
                }
                out
            },
        )
    };
    let mut fd = |t: &mut Timer| {
        t.sample(|| r.stream.clone(), |s| encoding::decode_owned(r.enc, r.ty, r.n, r.n, s, tok).expect("decodes"))
    };
    run_timers(budget, &mut [(&mut ti, &mut fi), (&mut td, &mut fd)]);
    Sample {
        file: r.file.clone(),
        what: r.what.clone(),
        source: Source::ReEncoded,
        label: r.label.clone(),
        ty: r.ty,
        codec: "Flate",
        rows: r.n,
        values: r.n,
        text_bytes,
        out_bytes,
        inflate_ms: Some(ti.median()),
        decode_ms: td.median(),
        spread_ms: None,
    }
}

// ---------------------------------------------------------------- LZW

struct LzwRow {
    file: String,
    blocks: usize,
    raw: usize,
    ours_ms: f64,
    weezl_ms: f64,
}

fn time_lzw(name: &str, bytes: &[u8], registry: &Registry, budget: f64) -> Option<LzwRow> {
    let meta = FileMeta::from_bytes(bytes).ok()?;
    let mut blocks: Vec<(Vec<u8>, usize)> = Vec::new();
    for g in 0..meta.row_groups.len() {
        for c in 0..meta.schema.len() {
            let Ok(chunk) = meta.chunk_bytes(bytes, g, c) else { continue };
            let Ok(p) = prepare(&meta, g, c, chunk, registry) else { continue };
            if p.chunk.codec == Codec::Lzw {
                for b in &p.chunk.blocks {
                    blocks.push((p.chunk.stored(b).to_vec(), b.raw_len as usize));
                }
            }
        }
    }
    if blocks.is_empty() {
        return None;
    }
    let raw: usize = blocks.iter().map(|b| b.1).sum();
    let mut ours_out: Vec<Vec<u8>> = blocks.iter().map(|b| vec![0u8; b.1]).collect();
    let mut weezl_out = ours_out.clone();
    let mut dec = Decompressor::new();
    let mut wz = weezl::decode::Decoder::new(weezl::BitOrder::Lsb, 8);
    let mut ours = |outs: &mut Vec<Vec<u8>>| {
        for ((s, _), o) in blocks.iter().zip(outs.iter_mut()) {
            dec.block(Codec::Lzw, s, o).expect("ours decodes");
        }
    };
    let mut theirs = |outs: &mut Vec<Vec<u8>>| {
        for ((s, _), o) in blocks.iter().zip(outs.iter_mut()) {
            wz.reset();
            // weezl returns after partial progress; call until the block is out.
            let (mut i, mut o_at) = (0, 0);
            while o_at < o.len() {
                let r = wz.decode_bytes(&s[i..], &mut o[o_at..]);
                assert!(r.status.is_ok() && r.consumed_in + r.consumed_out > 0, "weezl decodes: {:?}", r.status);
                (i, o_at) = (i + r.consumed_in, o_at + r.consumed_out);
            }
        }
    };
    ours(&mut ours_out);
    theirs(&mut weezl_out);
    assert!(ours_out == weezl_out, "{name}: ours and weezl differ");
    let (mut to, mut tw) = (Timer::new(), Timer::new());
    let mut fo = |t: &mut Timer| t.sample(|| (), |()| ours(&mut ours_out));
    let mut fw = |t: &mut Timer| t.sample(|| (), |()| theirs(&mut weezl_out));
    run_timers(budget, &mut [(&mut to, &mut fo), (&mut tw, &mut fw)]);
    Some(LzwRow { file: name.into(), blocks: blocks.len(), raw, ours_ms: to.median(), weezl_ms: tw.median() })
}

// ---------------------------------------------------------------- report

/// What the issue asks of a row, in ns per value (strings: plus the output
/// copy at `copy_gbs`), or in MB/s of text for Tokenized.
fn goal(label: &str, ty: ColumnType, bytes_per_value: f64, copy_gbs: f64) -> Option<(String, f64, bool)> {
    let copy = bytes_per_value / copy_gbs;
    let enc = label.split(' ').next().unwrap_or("");
    match (enc, ty.is_variable()) {
        ("Dict", false) => Some(("<= 1 ns/value".into(), 1.0, false)),
        ("Dict" | "Affix" | "OffsetBytes", true) => {
            Some((format!("<= {:.2} ns/value (2 + copy)", 2.0 + copy), 2.0 + copy, false))
        }
        ("Delta" | "RLEBitpack", _) => Some(("<= 0.5 ns/value".into(), 0.5, false)),
        ("Tokenized", _) => Some((">= 500 MB/s text".into(), 500.0, true)),
        _ => None,
    }
}

struct Row {
    source: Source,
    label: String,
    ty: ColumnType,
    chunks: usize,
    values: u64,
    text: u64,
    out: u64,
    decode_ms: f64,
    inflate_ms: f64,
    /// Decode time over inflate time, per chunk: the worst.
    worst_ratio: f64,
    files: Vec<String>,
    codecs: Vec<&'static str>,
}

fn rows(samples: &[Sample]) -> Vec<Row> {
    let mut map: BTreeMap<(Source, String, u8), Row> = BTreeMap::new();
    for s in samples {
        let r = map.entry((s.source, s.label.clone(), s.ty.tag())).or_insert_with(|| Row {
            source: s.source,
            label: s.label.clone(),
            ty: s.ty,
            chunks: 0,
            values: 0,
            text: 0,
            out: 0,
            decode_ms: 0.0,
            inflate_ms: 0.0,
            worst_ratio: 0.0,
            files: Vec::new(),
            codecs: Vec::new(),
        });
        r.chunks += 1;
        r.values += s.values as u64;
        r.text += s.text_bytes as u64;
        r.out += s.out_bytes as u64;
        r.decode_ms += s.decode_ms;
        if let Some(i) = s.inflate_ms {
            r.inflate_ms += i;
            if i > 0.0 {
                r.worst_ratio = r.worst_ratio.max(s.decode_ms / i);
            }
        }
        let short = s.file.trim_end_matches(".cols").to_string();
        if !r.files.contains(&short) {
            r.files.push(short);
        }
        if !r.codecs.contains(&s.codec) {
            r.codecs.push(s.codec);
        }
    }
    map.into_values().collect()
}

fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for ch in s.chars() {
        match ch {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn num(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.6}")
    } else {
        "null".into()
    }
}

/// GB/s of a memory copy of `len` bytes (past the caches, into memory
/// already mapped): the output copy the string goals allow on top of their
/// 2 ns a value.
fn copy_speed(len: usize, budget: f64) -> f64 {
    let src: Vec<u8> = (0..len).map(|i| i as u8).collect();
    let mut dst = vec![0u8; len];
    let mut t = Timer::new();
    while !t.done(budget) {
        t.sample(|| (), |()| black_box(&mut dst[..]).copy_from_slice(black_box(&src)));
    }
    len as f64 / t.median() / 1e6
}

struct Report {
    target: &'static str,
    copy_gbs: f64,
    samples: Vec<Sample>,
    lzw: Vec<LzwRow>,
}

fn markdown(r: &Report) -> String {
    let mut o = String::new();
    let all = rows(&r.samples);
    // Corpus rows only where the real data (as is or re-encoded) lacks the pair.
    let covered: Vec<(String, u8)> = all
        .iter()
        .filter(|x| x.source != Source::Corpus)
        .map(|x| (x.label.split(' ').next().unwrap_or("").to_string(), x.ty.tag()))
        .collect();
    let _ = writeln!(
        o,
        "Decode per encoding x type ({}; output copy floor {:.1} GB/s; medians per chunk, summed):\n",
        r.target, r.copy_gbs
    );
    let _ = writeln!(
        o,
        "| encoding | type | source | chunks | values | B/value | decode ns/value | GB/s out | text MB/s | inflate ns/value | decode/inflate (all; worst chunk) | goal | met |"
    );
    let _ = writeln!(o, "|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|---|---|");
    for x in &all {
        if x.source == Source::Corpus
            && covered.contains(&(x.label.split(' ').next().unwrap_or("").to_string(), x.ty.tag()))
        {
            continue;
        }
        let v = x.values.max(1) as f64;
        let ns = x.decode_ms * 1e6 / v;
        let bpv = x.text as f64 / v;
        let (goal_s, met) = match goal(&x.label, x.ty, bpv, r.copy_gbs) {
            Some((s, g, true)) => {
                let mbs = x.text as f64 / x.decode_ms / 1e3;
                (s, if mbs >= g { "yes" } else { "**no**" })
            }
            Some((s, g, false)) => (s, if ns <= g { "yes" } else { "**no**" }),
            None => ("".into(), ""),
        };
        let inflate = if x.inflate_ms > 0.0 { format!("{:.2}", x.inflate_ms * 1e6 / v) } else { "-".into() };
        let ratio = if x.inflate_ms > 0.0 {
            format!("{:.2}; {:.2}", x.decode_ms / x.inflate_ms, x.worst_ratio)
        } else {
            "-".into()
        };
        let text = if x.ty.is_variable() { format!("{:.0}", x.text as f64 / x.decode_ms / 1e3) } else { "".into() };
        let _ = writeln!(
            o,
            "| {} | {} | {} | {} | {} | {:.1} | {:.2} | {:.2} | {} | {} | {} | {} | {} |",
            x.label,
            x.ty.name(),
            x.source.name(),
            x.chunks,
            x.values,
            if x.ty.is_variable() { bpv } else { x.out as f64 / v },
            ns,
            x.out as f64 / x.decode_ms / 1e6,
            text,
            inflate,
            ratio,
            goal_s,
            met
        );
    }
    // Null spreading.
    let mut spread: BTreeMap<u8, (usize, u64, f64, u64)> = BTreeMap::new();
    for s in &r.samples {
        if let Some(t) = s.spread_ms {
            let e = spread.entry(s.ty.tag()).or_default();
            e.0 += 1;
            e.1 += s.rows as u64;
            e.2 += t;
            e.3 += (s.rows - s.values) as u64;
        }
    }
    let _ = writeln!(o, "\nNull spreading (every chunk with nulls, all sources; goal <= 0.5 ns/row):\n");
    let _ = writeln!(o, "| type | chunks | rows | nulls | ns/row | met |");
    let _ = writeln!(o, "|---|--:|--:|--:|--:|---|");
    for (tag, (chunks, rows, ms, nulls)) in &spread {
        let ty = ColumnType::from_tag(*tag).unwrap_or(ColumnType::Int64);
        let ns = ms * 1e6 / (*rows).max(1) as f64;
        let _ = writeln!(
            o,
            "| {} | {chunks} | {rows} | {nulls} | {ns:.2} | {} |",
            ty.name(),
            if ns <= 0.5 { "yes" } else { "**no**" }
        );
    }
    let _ = writeln!(o, "\nLZW blocks, ours beside weezl 0.2.1 (goal >= 300 MB/s out):\n");
    let _ = writeln!(o, "| file | blocks | MB out | ours MB/s | weezl MB/s | met |");
    let _ = writeln!(o, "|---|--:|--:|--:|--:|---|");
    for l in &r.lzw {
        let ours = l.raw as f64 / l.ours_ms / 1e3;
        let _ = writeln!(
            o,
            "| {} | {} | {:.3} | {:.0} | {:.0} | {} |",
            l.file.trim_end_matches(".cols"),
            l.blocks,
            l.raw as f64 / 1e6,
            ours,
            l.raw as f64 / l.weezl_ms / 1e3,
            if ours >= 300.0 { "yes" } else { "**no**" }
        );
    }
    o
}

fn json(r: &Report) -> String {
    let mut o = format!("{{\"target\":{},\"copyGBs\":{},\"rows\":[", json_str(r.target), num(r.copy_gbs));
    for (i, x) in rows(&r.samples).iter().enumerate() {
        let v = x.values.max(1) as f64;
        let _ = write!(
            o,
            "{}{{\"encoding\":{},\"type\":\"{}\",\"source\":\"{}\",\"chunks\":{},\"values\":{},\"textBytes\":{},\"outBytes\":{},\"decodeMs\":{},\"inflateMs\":{},\"decodeNsPerValue\":{},\"outGBs\":{},\"worstDecodeOverInflate\":{},\"files\":[{}],\"codecs\":[{}]}}",
            if i > 0 { "," } else { "" },
            json_str(&x.label),
            x.ty.name(),
            x.source.name(),
            x.chunks,
            x.values,
            x.text,
            x.out,
            num(x.decode_ms),
            num(x.inflate_ms),
            num(x.decode_ms * 1e6 / v),
            num(x.out as f64 / x.decode_ms / 1e6),
            num(x.worst_ratio),
            x.files.iter().map(|f| json_str(f)).collect::<Vec<_>>().join(","),
            x.codecs.iter().map(|c| json_str(c)).collect::<Vec<_>>().join(","),
        );
    }
    o.push_str("],\"chunks\":[");
    for (i, s) in r.samples.iter().enumerate() {
        let _ = write!(
            o,
            "{}{{\"file\":{},\"chunk\":{},\"source\":\"{}\",\"encoding\":{},\"type\":\"{}\",\"codec\":\"{}\",\"rows\":{},\"values\":{},\"textBytes\":{},\"outBytes\":{},\"inflateMs\":{},\"decodeMs\":{},\"spreadMs\":{}}}",
            if i > 0 { "," } else { "" },
            json_str(&s.file),
            json_str(&s.what),
            s.source.name(),
            json_str(&s.label),
            s.ty.name(),
            s.codec,
            s.rows,
            s.values,
            s.text_bytes,
            s.out_bytes,
            s.inflate_ms.map_or("null".into(), num),
            num(s.decode_ms),
            s.spread_ms.map_or("null".into(), num),
        );
    }
    o.push_str("],\"lzw\":[");
    for (i, l) in r.lzw.iter().enumerate() {
        let _ = write!(
            o,
            "{}{{\"file\":{},\"blocks\":{},\"rawBytes\":{},\"oursMs\":{},\"weezlMs\":{}}}",
            if i > 0 { "," } else { "" },
            json_str(&l.file),
            l.blocks,
            l.raw,
            num(l.ours_ms),
            num(l.weezl_ms)
        );
    }
    o.push_str("]}");
    o
}

/// Inputs: `(name, bytes, is_corpus)`; tokenizers as `tokenizer.json` bytes.
/// `only`, when not empty, keeps the chunks whose encoding label starts
/// with it (and LZW when it is "Lzw").
fn run(
    files: &[(String, Vec<u8>, bool)],
    tokenizers: &[Vec<u8>],
    budget: f64,
    target: &'static str,
    only: &str,
) -> Report {
    let mut registry = Registry::new();
    for t in tokenizers {
        let _ = registry.register(t);
    }
    let copy_gbs = copy_speed(64 << 20, budget * 30.0);
    let mut samples = Vec::new();
    let mut lzw = Vec::new();
    let mut dec = Decompressor::new();
    for (name, bytes, corpus) in files {
        let source = if *corpus { Source::Corpus } else { Source::Real };
        if only.is_empty() || only != "Lzw" {
            time_file(name, bytes, source, &registry, budget, only, &mut samples);
        }
        if only.is_empty() || only == "Lzw" {
            if let Some(l) = time_lzw(name, bytes, &registry, budget * 4.0) {
                lzw.push(l);
            }
        }
        // Re-encode the real set's default and tokenized files (the
        // optimized ones hold the same values).
        if !*corpus && (name.contains(".default") || name.contains(".tokenized")) && only != "Lzw" {
            let mut re = Vec::new();
            re_encode(name, bytes, &registry, 4, &mut re);
            for r in re.iter().filter(|r| r.label.starts_with(only)) {
                samples.push(time_re_encoded(r, budget, &mut dec));
            }
        }
    }
    Report { target, copy_gbs, samples, lzw }
}

// ---------------------------------------------------------------- entry points

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    common::recycle_freed_memory();
    use std::path::{Path, PathBuf};
    let mut args = std::env::args().skip(1);
    let (mut budget, mut json_out, mut files) = (3.0f64, None::<PathBuf>, Vec::<PathBuf>::new());
    let mut only = String::new();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--budget-ms" => budget = args.next().and_then(|v| v.parse().ok()).expect("--budget-ms N"),
            "--json" => json_out = Some(PathBuf::from(args.next().expect("--json FILE"))),
            "--only" => only = args.next().expect("--only ENCODING"),
            _ => files.push(PathBuf::from(a)),
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let list = |dir: &Path| -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|d| d.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "cols")).collect())
            .unwrap_or_default();
        v.sort();
        v
    };
    // The real set: ../shared/bench/real beside the project (flights-3m is
    // too large for the repository), else the smaller sets in corpus/real.
    let real = list(&root.join("../shared/bench/real"));
    let real = if real.is_empty() { list(&root.join("corpus/real")) } else { real };
    if files.is_empty() {
        files = real.clone();
        files.extend(list(&root.join("corpus/valid")));
    }
    let inputs: Vec<(String, Vec<u8>, bool)> = files
        .iter()
        .map(|p| {
            let bytes = std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let corpus = !real.contains(p) && p.components().any(|c| c.as_os_str() == "corpus");
            (p.file_name().unwrap().to_string_lossy().into_owned(), bytes, corpus)
        })
        .collect();
    let tokenizers: Vec<Vec<u8>> = list_json(&root.join("corpus/tokenizers"));
    let report = run(&inputs, &tokenizers, budget, "native", &only);
    print!("{}", markdown(&report));
    if let Some(p) = json_out {
        std::fs::write(&p, json(&report)).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn list_json(dir: &std::path::Path) -> Vec<Vec<u8>> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "json")).collect())
        .unwrap_or_default();
    v.sort();
    v.iter().filter_map(|p| std::fs::read(p).ok()).collect()
}

#[cfg(target_arch = "wasm32")]
fn main() {}

/// The wasm32 build's interface to examples/decode_bench.mjs: JS stages
/// each input's bytes in a buffer this module owns, adds it, then runs.
#[cfg(target_arch = "wasm32")]
mod wasm_entry {
    use std::cell::RefCell;

    unsafe extern "C" {
        pub fn bench_now() -> f64;
        fn bench_emit(ptr: *const u8, len: usize, kind: u32);
    }

    thread_local! {
        static STAGE: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
        static FILES: RefCell<Vec<(String, Vec<u8>, bool)>> = const { RefCell::new(Vec::new()) };
        static TOKENIZERS: RefCell<Vec<Vec<u8>>> = const { RefCell::new(Vec::new()) };
    }

    /// A buffer of `len` bytes for JS to fill; valid until the next call.
    #[no_mangle]
    pub extern "C" fn bench_stage(len: usize) -> *mut u8 {
        STAGE.with(|s| {
            let mut s = s.borrow_mut();
            s.clear();
            s.resize(len, 0);
            s.as_mut_ptr()
        })
    }

    /// Takes the staged bytes: kind 0 a tokenizer.json, 1 a real file,
    /// 2 a corpus file; the name was staged first (`name_len` bytes) and the
    /// file follows it in the same buffer.
    #[no_mangle]
    pub extern "C" fn bench_add(kind: u32, name_len: usize) {
        let staged = STAGE.with(|s| std::mem::take(&mut *s.borrow_mut()));
        let (name, bytes) = staged.split_at(name_len.min(staged.len()));
        if kind == 0 {
            TOKENIZERS.with(|t| t.borrow_mut().push(bytes.to_vec()));
        } else {
            let name = String::from_utf8_lossy(name).into_owned();
            FILES.with(|f| f.borrow_mut().push((name, bytes.to_vec(), kind == 2)));
        }
    }

    /// Runs everything added, keeping the encodings that start with the
    /// staged text (all when empty); emits the Markdown (kind 0) and JSON
    /// (kind 1).
    #[no_mangle]
    pub extern "C" fn bench_run(budget_ms: f64) {
        let only = STAGE.with(|s| String::from_utf8_lossy(&std::mem::take(&mut *s.borrow_mut())).into_owned());
        let files = FILES.with(|f| std::mem::take(&mut *f.borrow_mut()));
        let toks = TOKENIZERS.with(|t| std::mem::take(&mut *t.borrow_mut()));
        let report = super::run(&files, &toks, budget_ms, "wasm32 in Node", &only);
        for (kind, text) in [(0, super::markdown(&report)), (1, super::json(&report))] {
            // SAFETY: an imported JS function reading `len` bytes at `ptr`,
            // which stay valid (and unchanged) for the call.
            unsafe { bench_emit(text.as_ptr(), text.len(), kind) };
        }
    }
}
