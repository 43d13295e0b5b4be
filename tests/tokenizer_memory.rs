//! What a tokenizer costs in memory, measured by a counting allocator: the
//! id table is sized by the ids present, and reading a tokenizer.json never
//! allocates much more than the text of its vocab, however large or hostile
//! the document (a 1.2 GB tokenizer.json used to end in `capacity overflow`
//! in wasm, where 16 bytes per vocab entry plus a String each outgrew 2 GiB).
//! One test in its own binary, so no other test's allocations are counted.
//! (The tokenized decoder's lookup stays one table entry per id: a rank or
//! page table for sparse vocabs cost it 12% to 17% more instructions,
//! measured with callgrind on the corpus's tokenized files; so the largest
//! id is capped relative to the token count instead.)

// Native only: its counting global allocator would clash with the wasm32
// build's own (talc, src/wasm/mod.rs).
#![cfg(not(target_arch = "wasm32"))]

mod common;

use columns_wasm::{ErrorKind, Registry, Tokenizer};
use common::alloc::measure;

#[global_allocator]
static ALLOC: common::alloc::Counting = common::alloc::Counting;

fn doc(vocab: &str) -> Vec<u8> {
    format!(r#"{{"model":{{"type":"BPE","vocab":{{{vocab}}}}}}}"#).into_bytes()
}

#[test]
fn tokenizer_memory_is_bounded_by_what_the_tokenizer_holds() {
    // 1,000 small tokenizers: each used to hold a 65,536-entry table (256 KB).
    let mut reg = Registry::new();
    let ((), live, _) = measure(|| {
        for i in 0..1000 {
            reg.register(&doc(&format!(r#""tok{i}":0,"x":1"#))).unwrap();
        }
    });
    eprintln!("1,000 two-token tokenizers: {live} bytes live");
    assert_eq!(reg.len(), 1000);
    assert!(live < 400 * 1000, "{live} bytes for 1,000 two-token tokenizers");

    // 1,000 as sparse as allowed: two tokens, ids 0 and 259.
    let mut reg = Registry::new();
    let ((), live, _) = measure(|| {
        for i in 0..1000 {
            reg.register(&doc(&format!(r#""tok{i}":0,"x":259"#))).unwrap();
        }
    });
    eprintln!("1,000 tokenizers with ids 0 and 259: {live} bytes live");
    assert!(live < 1500 * 1000, "{live} bytes for 1,000 sparse tokenizers");
    let t = reg.get(&reg.digests()[7]).unwrap();
    assert_eq!((t.token(0), t.token(259), t.token(1), t.token(258)), (Some(&b"tok7"[..]), Some(&b"x"[..]), None, None));
    assert_eq!(t.escape_id(), 260);
    // Sparser is refused before any table is built.
    let e = reg.register(&doc(r#""a":0,"b":65535"#)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidTokenizer);
    drop(reg);

    // A vocab of two million entries (the shape of a huge tokenizer.json):
    // refused at the first id above 65,535, having held at most 65,536 entries.
    let big: String = (0..2_000_000).map(|i| format!(r#""t{i}":{i},"#)).collect();
    let big = doc(big.trim_end_matches(','));
    let (r, _, peak) = measure(|| Tokenizer::from_json(&big));
    let e = r.unwrap_err();
    eprintln!("{} MB vocab of 2,000,000 ids: {e}; peak {peak} bytes", big.len() >> 20);
    assert_eq!(e.kind, ErrorKind::InvalidTokenizer);
    assert!(e.message.contains("65536"), "{e}");
    assert!(peak < 4 << 20, "peak {peak} bytes");

    // Two million entries repeating one id: refused at the second.
    let dup: String = (0..2_000_000).map(|i| format!(r#""t{i}":5,"#)).collect();
    let dup = doc(dup.trim_end_matches(','));
    let (r, _, peak) = measure(|| Tokenizer::from_json(&dup));
    assert_eq!(r.unwrap_err().kind, ErrorKind::InvalidTokenizer);
    assert!(peak < 64 << 10, "peak {peak} bytes");

    // 65,536 tokens, one of them 64 MB long, and 16 MB of skipped merges:
    // the tokenizer holds about the token text, and reading it needs little more.
    let mut vocab: String = (1..65536).map(|i| format!(r#""t{i}":{i},"#)).collect();
    vocab.push_str(&format!(r#""{}":0"#, "a".repeat(64 << 20)));
    let mut text = doc(&vocab);
    let merges = format!(r#","merges":[{}"x y"]}}"#, r#""a b","#.repeat((16 << 20) / 6));
    text.truncate(text.len() - 2);
    text.extend_from_slice(merges.as_bytes());
    text.push(b'}');
    let vocab_text = vocab.len();
    let (r, live, peak) = measure(|| Tokenizer::from_json(&text));
    let t = r.unwrap();
    eprintln!(
        "{} MB tokenizer.json with {} MB of vocab text: {live} bytes held, peak {peak}",
        text.len() >> 20,
        vocab_text >> 20
    );
    assert_eq!(t.vocab_size(), 65536);
    assert_eq!(t.token(0).map(<[u8]>::len), Some(64 << 20));
    assert_eq!(t.token(65535), Some(&b"t65535"[..]));
    assert!(peak < vocab_text + (2 << 20), "peak {peak} bytes for {vocab_text} bytes of vocab text");
}
