//! Tokenizers: digests against the corpus, the JSON reader against serde_json.

mod common;

use std::collections::BTreeSet;

use columns_wasm::Digest;

fn corpus_tokenizers() -> Vec<(String, Vec<u8>)> {
    let dir = common::shared().join("corpus/tokenizers");
    ["gpt2-tokenizer.json", "small-tokenizer.json"]
        .iter()
        .map(|name| (name.to_string(), std::fs::read(dir.join(name)).unwrap()))
        .collect()
}

/// The digests the corpus's own JSON files name in their `tokenizers` lists.
fn digests_named_by_the_corpus() -> BTreeSet<String> {
    let mut named = BTreeSet::new();
    for dir in ["corpus/valid", "corpus/real"] {
        for e in std::fs::read_dir(common::shared().join(dir)).unwrap().flatten() {
            let p = e.path();
            if p.extension().is_none_or(|x| x != "json") {
                continue;
            }
            let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
            for d in v["tokenizers"].as_array().into_iter().flatten() {
                named.insert(d.as_str().unwrap().to_string());
            }
        }
    }
    named
}

#[test]
fn corpus_tokenizer_digests_are_the_ones_the_corpus_names() {
    let named = digests_named_by_the_corpus();
    let ours: BTreeSet<String> = corpus_tokenizers().iter().map(|(_, b)| Digest::of(b).to_hex()).collect();
    assert_eq!(ours.len(), 2);
    assert_eq!(ours, named, "the corpus names exactly the digests of its two tokenizers");
}
