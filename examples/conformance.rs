//! Conformance runner for any directory of `columns` files with expected
//! JSON (`NAME.cols` beside `NAME.json` or `NAME.json.gz`):
//! `cargo run --release --example conformance -- [corpus dir [tokenizer dir]]`.
//! Without arguments: the project's `corpus/` and `corpus/tokenizers/`; with
//! only a corpus dir, the project's tokenizers.
//! One line per file, then `N passed, M failed`; exits non-zero on failure.

#[path = "../tests/common/conformance.rs"]
mod conformance;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let (dir, tokenizers) = match args.as_slice() {
        [] => (corpus.clone(), corpus.join("tokenizers")),
        [dir] => (PathBuf::from(dir), corpus.join("tokenizers")),
        [dir, tokenizers] => (PathBuf::from(dir), PathBuf::from(tokenizers)),
        _ => {
            eprintln!("usage: conformance [<corpus dir> [<tokenizer dir>]]");
            return ExitCode::from(2);
        }
    };
    let (passed, failed) = conformance::run_and_print(Path::new(&dir), Path::new(&tokenizers));
    if failed > 0 || passed == 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
