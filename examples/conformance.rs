//! Conformance runner for any directory of `columns` files with expected
//! JSON: `cargo run --release --example conformance -- <corpus dir> <tokenizer dir>`.
//! One line per file, then `N passed, M failed`; exits non-zero on failure.

#[path = "../tests/common/conformance.rs"]
mod conformance;

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [corpus, tokenizers] = args.as_slice() else {
        eprintln!("usage: conformance <corpus dir> <tokenizer dir>");
        return ExitCode::from(2);
    };
    let (passed, failed) = conformance::run_and_print(Path::new(corpus), Path::new(tokenizers));
    if failed > 0 || passed == 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
