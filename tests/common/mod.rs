#![allow(dead_code)]

pub mod conformance;

use std::path::PathBuf;

/// `../shared`, beside the project root, on every machine and in CI.
pub fn shared() -> PathBuf {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared");
    assert!(p.join("corpus").is_dir(), "the shared corpus is missing at {}", p.display());
    p
}

/// The benchmark files: `../shared/bench`'s two, and the flights-like file
/// when `bench/run` has made it.
pub fn bench_files() -> Vec<PathBuf> {
    let bench = shared().join("bench");
    let mut files = vec![bench.join("comparison.cols"), bench.join("diamonds.default.cols")];
    let flights = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bench/data/flights-like.cols");
    if flights.exists() {
        files.push(flights);
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
