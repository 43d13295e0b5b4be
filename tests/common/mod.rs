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

/// The `*.cols` files in `dirs` (missing ones skipped), sorted by path; a
/// name already found in an earlier dir is left out (corpus/real holds
/// copies of `../shared/bench/real`'s small files).
pub fn cols_in(dirs: &[PathBuf]) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in dirs {
        let Ok(rd) = std::fs::read_dir(dir) else { continue };
        let mut here: Vec<PathBuf> =
            rd.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "cols")).collect();
        here.sort();
        here.retain(|p| !files.iter().any(|f| f.file_name() == p.file_name()));
        files.extend(here);
    }
    files.sort();
    files
}

/// The benchmark files that are present: every file of `../shared/bench/real`
/// and `../shared/bench/comparison.cols` when `../shared` is there, and
/// corpus/real's files (diamonds, and the small real files when `../shared`
/// is not there). Says on stderr what is missing; never panics.
pub fn bench_files() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    let mut files = Vec::new();
    match shared_bench() {
        Some(b) => {
            dirs.push(b.join("real"));
            let comparison = b.join("comparison.cols");
            if comparison.is_file() {
                files.push(comparison);
            }
        }
        None => eprintln!(
            "note: ../shared/bench is not there (the large benchmark files sit beside the project, not in it): \
             flights-3m and comparison.cols skipped"
        ),
    }
    dirs.push(corpus().join("real"));
    files.extend(cols_in(&dirs));
    files
}

/// The benchmark examples' command line: `--runs N`, `--warmup N`, `--json`
/// and file paths (`bench_files()` when none); `other` is offered every
/// other argument with the rest of them and says whether it took it.
pub struct BenchArgs {
    pub runs: usize,
    pub warmup: usize,
    pub json: bool,
    pub files: Vec<PathBuf>,
}

impl BenchArgs {
    pub fn parse(mut other: impl FnMut(&str, &mut dyn Iterator<Item = String>) -> bool) -> BenchArgs {
        let mut args = std::env::args().skip(1);
        let mut out = BenchArgs { runs: 15, warmup: 3, json: false, files: Vec::new() };
        while let Some(a) = args.next() {
            match a.as_str() {
                "--runs" => out.runs = args.next().and_then(|v| v.parse().ok()).expect("--runs N"),
                "--warmup" => out.warmup = args.next().and_then(|v| v.parse().ok()).expect("--warmup N"),
                "--json" => out.json = true,
                _ if other(&a, &mut args) => {}
                _ => out.files.push(PathBuf::from(a)),
            }
        }
        if out.files.is_empty() {
            out.files = bench_files();
        }
        out
    }
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
