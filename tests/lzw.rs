//! Our LZW decoder (src/codec/lzw.rs, through `Decompressor::block` with
//! `Codec::Lzw`) against weezl (tests/oracle/lzw.rs): every Lzw block of the
//! corpus (with its real data sets) and of ../shared/bench when it is there,
//! data weezl encodes, random code
//! streams, and damaged streams; plus the clear-clear streams weezl cannot
//! judge, checked by hand against FORMAT.md section 4 and Go's reader.

mod common;

#[path = "oracle/lzw.rs"]
mod oracle;

use std::path::PathBuf;

use columns_wasm::chunk::Chunk;
use columns_wasm::codec::{Codec, Decompressor};
use columns_wasm::FileMeta;
use common::Rng;
use oracle::{expected, pack, weezl, Weezl, CLEAR, END};
use weezl::{encode::Encoder, BitOrder};

fn ours(dec: &mut Decompressor, input: &[u8], n: usize) -> Result<Vec<u8>, ()> {
    let mut out = vec![0xAA; n];
    dec.block(Codec::Lzw, input, &mut out).map(|()| out).map_err(drop)
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

fn sample(seed: u64, len: usize, alphabet: u8) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Mix runs, repeats and noise so strings of every length occur.
            if (x >> 40).is_multiple_of(5) {
                (i % 7) as u8
            } else {
                (x % alphabet as u64) as u8
            }
        })
        .collect()
}

/// corpus/valid and corpus/real (which holds bench/real's small files), and
/// `../shared/bench` with its `real/` (flights-3m) when it is there.
fn cols_files() -> Vec<PathBuf> {
    let corpus = common::corpus();
    let mut dirs = vec![corpus.join("valid"), corpus.join("real")];
    match common::shared_bench() {
        Some(b) => dirs.extend([b.join("real"), b]),
        None => eprintln!("note: ../shared/bench is not there: its blocks are not checked here"),
    }
    let mut files = Vec::new();
    for dir in dirs {
        let Ok(rd) = std::fs::read_dir(dir) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            // bench/real's small files are in corpus/real already.
            if p.extension().is_some_and(|x| x == "cols")
                && !files.iter().any(|f: &PathBuf| f.file_name() == p.file_name())
            {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_corpus_and_real_lzw_block_matches_weezl() {
    let files = cols_files();
    assert!(
        files.iter().any(|f| f.ends_with("corpus/real/movielens.optimized.cols")),
        "real files not found: {files:?}"
    );
    let mut dec = Decompressor::new();
    let (mut blocks, mut bytes_out, mut with_lzw) = (0usize, 0usize, 0usize);
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let Ok(meta) = FileMeta::from_bytes(&bytes) else { continue };
        let before = blocks;
        for g in 0..meta.row_groups.len() {
            for c in 0..meta.schema.len() {
                let chunk = meta.chunk_bytes(&bytes, g, c).unwrap();
                let ch = Chunk::parse(chunk, meta.row_groups[g].num_rows, meta.schema[c].nullable).unwrap();
                if ch.codec != Codec::Lzw {
                    continue;
                }
                for b in &ch.blocks {
                    let stored = ch.stored(b);
                    let n = b.raw_len as usize;
                    let Weezl::Done(want) = weezl(stored, n) else {
                        panic!("{}: weezl fails on rg {g} col {c}", path.display())
                    };
                    assert_eq!(want.len(), n, "{} rg {g} col {c}: weezl's length", path.display());
                    assert_eq!(
                        ours(&mut dec, stored, n).as_deref(),
                        Ok(&want[..]),
                        "{} rg {g} col {c}",
                        path.display()
                    );
                    blocks += 1;
                    bytes_out += n;
                }
            }
        }
        with_lzw += usize::from(blocks > before);
    }
    eprintln!("{blocks} Lzw blocks ({bytes_out} bytes) in {with_lzw} files match weezl");
    assert!(with_lzw >= 5 && blocks > 50, "{blocks} blocks in {with_lzw} files");
}

#[test]
fn decodes_what_weezl_encodes() {
    let mut dec = Decompressor::new();
    let mut cases = 0;
    for (seed, len, alphabet) in
        [(1, 0, 2), (2, 1, 2), (3, 100, 2), (4, 5000, 4), (5, 70_000, 16), (6, 262_144, 255), (7, 300_000, 3)]
    {
        let data = sample(seed, len, alphabet);
        let packed = Encoder::new(BitOrder::Lsb, 8).encode(&data).unwrap();
        assert_eq!(ours(&mut dec, &packed, data.len()), Ok(data.clone()), "seed {seed}");
        assert_eq!(expected(&packed, data.len()), Ok(data.clone()), "seed {seed}: weezl reads it back");
        // One byte short or long of the recorded size is corruption.
        if !data.is_empty() {
            assert_eq!(ours(&mut dec, &packed, data.len() - 1), Err(()));
        }
        assert_eq!(ours(&mut dec, &packed, data.len() + 1), Err(()));
        cases += 1;
    }
    assert_eq!(cases, 7);
    // Many small random inputs, every alphabet size.
    let mut rng = Rng(0x1a2b_3c4d);
    for i in 0..3000 {
        let data = sample(rng.next(), rng.below(if i % 10 == 0 { 20_000 } else { 300 }), 1 + rng.below(255) as u8);
        let packed = Encoder::new(BitOrder::Lsb, 8).encode(&data).unwrap();
        assert_eq!(ours(&mut dec, &packed, data.len()), Ok(data), "case {i}");
    }
}

/// weezl stalls (no output, no error) on a clear code right after another.
/// FORMAT.md section 4: a clear code resets the table to the 256 literals
/// plus clear and end, and the width to 9 bits; nothing forbids a second
/// one, which then resets a table already reset. Go's compress/lzw reader
/// does exactly that (on a clear: width 9, next code 258 after the end
/// code, no previous code; then continue). So CLEAR CLEAR END is an empty
/// block, and CLEAR CLEAR 'a' END is "a".
#[test]
fn back_to_back_clear_codes() {
    let mut dec = Decompressor::new();
    let cases: [(&str, &[u16], &[u8]); 5] = [
        ("00010604", &[CLEAR, CLEAR, END], b""),
        ("0001860908", &[CLEAR, CLEAR, 97, END], b"a"),
        ("0001020c1310", &[CLEAR, CLEAR, CLEAR, 97, END], b"a"),
        ("00c30004282620", &[CLEAR, 97, CLEAR, CLEAR, 98, END], b"ab"),
        ("6100020c08", &[97, CLEAR, CLEAR, END], b"a"),
    ];
    for (hex_bytes, codes, want) in cases {
        let block = hex(hex_bytes);
        assert_eq!(pack(codes), block, "{codes:?} packs to {hex_bytes}");
        assert_eq!(ours(&mut dec, &block, want.len()), Ok(want.to_vec()), "{hex_bytes}");
        assert_eq!(ours(&mut dec, &block, want.len() + 1), Err(()), "{hex_bytes}: one byte more than it holds");
        assert_eq!(
            expected(&block, want.len()),
            Ok(want.to_vec()),
            "{hex_bytes}: weezl on the same codes with one clear"
        );
        // The reason for the special case: weezl does not finish these.
        assert!(!matches!(weezl(&block, want.len() + 1), Weezl::Done(_)), "{hex_bytes}: weezl now decodes it");
    }
}

/// A random code stream: mostly codes the decoder knows (literals, strings
/// it has defined, the entry about to be defined), with clear codes (never
/// two in a row, unless `clear_runs`), sometimes an invalid code, long runs
/// that fill the 4096-entry table, and an end code unless cut.
fn random_codes(rng: &mut Rng, clear_runs: bool) -> Vec<u16> {
    let len = [3, 20, 300, 5000][rng.below(4)];
    let mut codes = Vec::with_capacity(len + 2);
    let mut hi = END as usize; // next free code, as the decoder counts it
    if rng.below(4) != 0 {
        codes.push(CLEAR);
    }
    while codes.len() < len {
        let r = rng.below(1000);
        let c = if r < 3 && (clear_runs || codes.last() != Some(&CLEAR)) {
            hi = END as usize;
            CLEAR
        } else if r < 5 {
            // Invalid: beyond the next free code (or END mid-stream).
            (hi + 1 + rng.below(20)).min(4095) as u16
        } else if r < 400 || hi == END as usize {
            rng.below(256) as u16
        } else {
            (258 + rng.below(hi + 1 - 258)) as u16
        };
        codes.push(c);
        if c != CLEAR {
            hi = (hi + 1).min(4095);
        }
    }
    if rng.below(20) != 0 {
        codes.push(END);
    }
    codes
}

#[test]
fn random_code_streams_agree_with_weezl() {
    let mut rng = Rng(0xC0DE_5EED);
    let mut dec = Decompressor::new();
    let (mut ok, mut err) = (0usize, 0usize);
    for i in 0..20_000 {
        let codes = random_codes(&mut rng, i % 10 == 0);
        let mut block = pack(&codes);
        if rng.below(30) == 0 {
            block.push(rng.next() as u8);
        }
        // The length weezl finds (or a guess), and its neighbours.
        let n = match weezl(&block, 1 << 16) {
            Weezl::Done(v) => v.len(),
            Weezl::TooLong => match weezl(&block, 1 << 24) {
                Weezl::Done(v) => v.len(),
                _ => rng.below(5000),
            },
            _ => rng.below(5000),
        };
        for n in [n, n.saturating_sub(1), n + 1] {
            let want = expected(&block, n);
            assert_eq!(ours(&mut dec, &block, n), want, "case {i}, n {n}, codes {codes:?}");
            if want.is_ok() {
                ok += 1;
            } else {
                err += 1;
            }
        }
    }
    eprintln!("random code streams: {ok} decoded as weezl decodes them, {err} refused by both");
    assert!(ok > 10_000 && err > 10_000, "{ok} ok, {err} errors");
}

#[test]
fn damaged_streams_decode_as_weezl_decodes_them_or_fail() {
    let data = sample(9, 20_000, 8);
    let packed = Encoder::new(BitOrder::Lsb, 8).encode(&data).unwrap();
    let mut dec = Decompressor::new();
    let mut rng = Rng(0x1234_5678);
    let (mut same, mut refused) = (0usize, 0usize);
    for _ in 0..3000 {
        let mut m = packed.clone();
        let at = rng.below(m.len());
        m[at] ^= 1 << rng.below(8);
        let cut = rng.below(m.len());
        for (input, n) in [(&m[..], data.len()), (&m[..], rng.below(data.len() + 10)), (&packed[..cut], data.len())] {
            let got = ours(&mut dec, input, n);
            // A damaged block either fails or gives exactly what weezl reads
            // from the same bytes.
            assert_eq!(got, expected(input, n), "flip at {at}, cut {cut}, n {n}");
            if got.is_ok() {
                same += 1;
            } else {
                refused += 1;
            }
        }
    }
    eprintln!("damaged streams: {same} decoded as weezl decodes them, {refused} refused by both");
    assert!(refused > 5000 && same > 0, "{same} decoded, {refused} refused");
}
