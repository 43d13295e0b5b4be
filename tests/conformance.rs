//! The whole corpus (`corpus/`) through the core: every value, every metadata
//! field, every error kind (see tests/common/conformance.rs).

mod common;

use common::conformance::{check_dir, load_tokenizers};

#[test]
fn every_corpus_file_matches_its_json() {
    let corpus = common::corpus();
    let registry = load_tokenizers(&corpus.join("tokenizers"));
    assert_eq!(registry.len(), 2, "both corpus tokenizers load");
    let (outcomes, _) = check_dir(&corpus, &registry);
    let failures: Vec<String> =
        outcomes.iter().filter_map(|o| o.failure.as_ref().map(|f| format!("{}: {f}", o.name))).collect();
    assert!(
        failures.is_empty(),
        "{} of {} corpus files failed:\n{}",
        failures.len(),
        outcomes.len(),
        failures.join("\n")
    );
    // valid + invalid + real; a corpus that silently shrank would pass vacuously.
    assert!(outcomes.len() >= 79, "only {} corpus files were checked", outcomes.len());
    for dir in ["valid/", "invalid/", "real/"] {
        assert!(outcomes.iter().any(|o| o.name.starts_with(dir)), "no files checked under {dir}");
    }
    for set in ["diamonds", "birdstrikes", "zipcodes", "movielens"] {
        let n = outcomes.iter().filter(|o| o.name.starts_with(&format!("real/{set}."))).count();
        assert!(n >= 2, "only {n} files of real/{set} checked");
    }
}
