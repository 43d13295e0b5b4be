#![allow(dead_code)]

pub mod conformance;

use std::path::PathBuf;

/// `../shared`, beside the project root, on every machine and in CI.
pub fn shared() -> PathBuf {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared");
    assert!(p.join("corpus").is_dir(), "the shared corpus is missing at {}", p.display());
    p
}
