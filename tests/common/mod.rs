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

/// Makes the benchmark examples keep freed memory, as wasm's allocator
/// does: glibc's malloc hands large freed blocks back to the OS (mapped
/// afresh above a threshold that only grows once the process has freed
/// one, the heap's top trimmed), so the decoders' buffers cost page faults
/// on some runs and not on others, by what the process happened to free
/// before: Affix with affixes took 3.45 or 4.16 ns a value in runs of one
/// binary, movielens.tokenized's read 8.5 or 11.8 ms. On glibc, the first
/// call runs the example again with malloc's thresholds set (mapping
/// only blocks over 32 MiB, a value every 64-bit glibc accepts; trimming
/// past 1 GiB)
/// and exits with its status; elsewhere, or with either threshold (or
/// GLIBC_TUNABLES) already set, it does nothing.
pub fn recycle_freed_memory() {
    const KEEP: [(&str, &str); 2] = [("MALLOC_MMAP_THRESHOLD_", "33554432"), ("MALLOC_TRIM_THRESHOLD_", "1073741824")];
    // Set already (by this function in the parent, or by hand): left as is.
    let set = |k: &str| std::env::var_os(k).is_some();
    if !cfg!(all(target_os = "linux", target_env = "gnu")) || KEEP.iter().any(|(k, _)| set(k)) || set("GLIBC_TUNABLES")
    {
        return;
    }
    let exe = std::env::current_exe().expect("the example's own path");
    let status = std::process::Command::new(exe)
        .args(std::env::args_os().skip(1))
        .envs(KEEP)
        .status()
        .expect("the example runs again");
    std::process::exit(status.code().unwrap_or(1));
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
