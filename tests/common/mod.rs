#![allow(dead_code)]

pub mod alloc;
pub mod conformance;

use std::path::PathBuf;

/// The conformance corpus, in the project (`corpus/`, see its README).
pub fn corpus() -> PathBuf {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus");
    assert!(p.join("valid").is_dir(), "the corpus is missing at {}", p.display());
    p
}

/// `../shared/bench` beside the project, when it is there: the large
/// benchmark files, which the repository does not hold.
pub fn shared_bench() -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/bench");
    p.is_dir().then_some(p)
}

/// The benchmark files that are present: `../shared/bench/comparison.cols`
/// when `../shared` is there, diamonds (the corpus copy, the same bytes as
/// `../shared/bench/diamonds.default.cols`), and the flights-like file when
/// `bench/run` has made it. Says on stderr which are missing; never panics.
pub fn bench_files() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    match shared_bench().map(|b| b.join("comparison.cols")).filter(|p| p.is_file()) {
        Some(p) => files.push(p),
        None => eprintln!(
            "note: ../shared/bench/comparison.cols is not there (the large benchmark files sit beside the project, \
             not in it): skipped"
        ),
    }
    files.push(root.join("corpus/real/diamonds.default.cols"));
    let flights = root.join("bench/data/flights-like.cols");
    if flights.exists() {
        files.push(flights);
    } else {
        eprintln!("note: bench/data/flights-like.cols is not there (bench/run generates it): skipped");
    }
    files
}

/// xorshift64*: a small deterministic PRNG, so every run tries the same cases.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform-ish in `0..n` (0 when n is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The raw DEFLATE payload of a gzip member (header per RFC 1952), for
/// feeding the same blocks to other inflaters.
pub fn gzip_payload(b: &[u8]) -> &[u8] {
    let flags = b[3];
    let mut p = 10;
    if flags & 4 != 0 {
        p += 2 + u16::from_le_bytes([b[p], b[p + 1]]) as usize;
    }
    for f in [8u8, 16] {
        if flags & f != 0 {
            p += b[p..].iter().position(|&x| x == 0).unwrap() + 1;
        }
    }
    if flags & 2 != 0 {
        p += 2;
    }
    &b[p..b.len() - 8]
}
