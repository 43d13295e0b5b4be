//! Tokenizers: digests against the corpus, the JSON reader against serde_json.

mod common;

use std::collections::BTreeSet;

use columns_wasm::Digest;

fn corpus_tokenizers() -> Vec<(String, Vec<u8>)> {
    let dir = common::corpus().join("tokenizers");
    ["gpt2-tokenizer.json", "small-tokenizer.json"]
        .iter()
        .map(|name| (name.to_string(), std::fs::read(dir.join(name)).unwrap()))
        .collect()
}

/// The digests the corpus's own JSON files name in their `tokenizers` lists.
fn digests_named_by_the_corpus() -> BTreeSet<String> {
    let mut named = BTreeSet::new();
    for dir in ["valid", "real"] {
        for e in std::fs::read_dir(common::corpus().join(dir)).unwrap().flatten() {
            let p = e.path();
            let name = p.file_name().unwrap().to_string_lossy();
            if !name.ends_with(".json") && !name.ends_with(".json.gz") {
                continue;
            }
            let v: serde_json::Value = serde_json::from_str(&common::conformance::read_json_text(&p).unwrap()).unwrap();
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

#[path = "oracle/tokenizer_json.rs"]
mod oracle;

use columns_wasm::Tokenizer;
use common::Rng;

#[test]
fn corpus_tokenizers_read_as_serde_json_reads_them() {
    for (name, bytes) in corpus_tokenizers() {
        assert!(oracle::check(&bytes), "{name} is refused");
        let t = Tokenizer::from_json(&bytes).unwrap();
        eprintln!("{name}: {} tokens, escape id {}", t.vocab_size(), t.escape_id());
    }
}

const MODEL: &str = r#""model":{"type":"BPE","vocab":{"a":0,"Ġb":1}}"#;

/// `{"x": VALUE, "model": ...}`: VALUE sits where the reader only checks syntax.
fn skipped(value: &str) -> String {
    format!(r#"{{"x":{value},{MODEL}}}"#)
}

/// A document whose vocab is `{VOCAB}`.
fn with_vocab(vocab: &str) -> String {
    format!(r#"{{"model":{{"type":"BPE","vocab":{{{vocab}}}}}}}"#)
}

/// Each case is a document and whether RFC 8259 plus our rules accept it,
/// stated by hand. The oracle must agree with the statement, and our reader
/// with the oracle.
#[test]
fn strictness_cases() {
    let nest = |n: usize| skipped(&format!("{}{}", "[".repeat(n), "]".repeat(n)));
    let cases: Vec<(String, bool, &str)> = vec![
        // Numbers where values are skipped.
        (skipped("1-+e"), false, "1-+e"),
        (skipped("-"), false, "a lone minus"),
        (skipped("007"), false, "leading zeros"),
        (skipped("-01"), false, "a leading zero after minus"),
        (skipped("1."), false, "no digit after the point"),
        (skipped(".5"), false, "no digit before the point"),
        (skipped("+1"), false, "a plus sign"),
        (skipped("1e"), false, "an empty exponent"),
        (skipped("1e+"), false, "an exponent sign without digits"),
        (skipped("1.5e"), false, "a fraction with an empty exponent"),
        (skipped("1..2"), false, "two points"),
        (skipped("1ee2"), false, "two exponent marks"),
        (skipped("--1"), false, "two minus signs"),
        (skipped("0x10"), false, "hexadecimal"),
        (skipped("NaN"), false, "NaN"),
        (skipped("Infinity"), false, "Infinity"),
        (skipped("-Infinity"), false, "-Infinity"),
        (skipped("0"), true, "zero"),
        (skipped("-0"), true, "minus zero"),
        (skipped("-1.5e+10"), true, "a full number"),
        (skipped("1E-2"), true, "a capital exponent"),
        (skipped("0.0e0"), true, "zeros everywhere"),
        (skipped("123456789012345678901234567890"), true, "an integer beyond 64 bits, skipped"),
        (skipped("1e999"), true, "an exponent beyond f64, skipped"),
        // Literals and strings where values are skipped.
        (skipped("true"), true, "true"),
        (skipped("nul"), false, "a cut literal"),
        (skipped("True"), false, "a capital literal"),
        (skipped("nullx"), false, "a literal with a tail"),
        (skipped(r#""\x""#), false, "an unknown escape"),
        (skipped(r#""\'""#), false, "an escaped single quote"),
        (skipped(r#""\u12""#), false, "a short \\u escape"),
        (skipped(r#""\u12G4""#), false, "a non-hex \\u escape"),
        (skipped(r#""\U0041""#), false, "a capital U escape"),
        (skipped("\"a\tb\""), false, "a raw tab in a string"),
        (skipped("\"a\nb\""), false, "a raw newline in a string"),
        (skipped("\"a\u{1}b\""), false, "a raw U+0001 in a string"),
        (skipped("\"a\u{7f}b\""), true, "a raw DEL in a string (not a control character to JSON)"),
        (skipped(r#""abc"#), false, "an unterminated string"),
        (skipped(r#""\ud800""#), true, "a lone leading surrogate in a skipped string"),
        (skipped(r#""\udc00\ud800""#), true, "reversed surrogates in a skipped string"),
        (skipped(r#"{"\ud800":1}"#), true, "a lone surrogate in a skipped key"),
        (skipped(r#""\ud83d\ude00\/\b\f\n\r\t\"\\""#), true, "every escape"),
        (skipped("'a'"), false, "single quotes"),
        // Structure.
        (skipped("[1,]"), false, "a trailing comma in an array"),
        (skipped(r#"{"a":1,}"#), false, "a trailing comma in an object"),
        (skipped("[,1]"), false, "a leading comma"),
        (skipped(r#"{"a" 1}"#), false, "a missing colon"),
        (skipped("{a:1}"), false, "an unquoted key"),
        (skipped("{1:1}"), false, "a number key"),
        (skipped("[1 2]"), false, "a missing comma"),
        (skipped("[}"), false, "mismatched brackets"),
        (skipped("[1]]"), false, "an extra bracket"),
        (skipped("[] // c"), false, "a comment"),
        (skipped("\u{c}1"), false, "form feed is not JSON whitespace"),
        (skipped("\u{a0}1"), false, "no-break space is not JSON whitespace"),
        (skipped(" \t\r\n1 \t\r\n"), true, "the four whitespace characters"),
        (skipped(r#"{"a":[{},[],{"b":[null]}]}"#), true, "nested empty containers"),
        (format!("{{{MODEL}}} x"), false, "trailing characters"),
        (format!("{{{MODEL}}}{{}}"), false, "a second document"),
        (format!("{{{MODEL}}}\n\t "), true, "trailing whitespace"),
        (format!("\u{feff}{{{MODEL}}}"), true, "a byte order mark before the document (ignored, as RFC 8259 allows)"),
        (format!("\u{feff} \n{{{MODEL}}}"), true, "a byte order mark, then whitespace"),
        (format!("\u{feff}\u{feff}{{{MODEL}}}"), false, "two byte order marks"),
        (format!(" \u{feff}{{{MODEL}}}"), false, "a byte order mark after whitespace"),
        (format!("{{{MODEL}}}\u{feff}"), false, "a byte order mark after the document"),
        (skipped("\u{feff}1"), false, "a byte order mark before a value"),
        ("\u{feff}".into(), false, "a byte order mark alone"),
        (String::new(), false, "an empty document"),
        ("   ".into(), false, "only whitespace"),
        ("[]".into(), false, "an array document"),
        (r#""model""#.into(), false, "a string document"),
        (format!("[{{{MODEL}}}]"), false, "the object inside an array"),
        (format!("{{{MODEL}"), false, "an unclosed document"),
        (nest(127), true, "128 levels in all"),
        (nest(128), false, "129 levels in all"),
        (nest(100_000), false, "100,000 levels (no stack overflow)"),
        (skipped(&format!("{}1{}", "{\"a\":".repeat(127), "}".repeat(127))), true, "128 levels of objects"),
        (skipped(&format!("{}1{}", "{\"a\":".repeat(128), "}".repeat(128))), false, "129 levels of objects"),
        // Keys and strings the reader reads.
        (format!(r#"{{"\ud800":1,{MODEL}}}"#), false, "a lone surrogate in a top-level key"),
        (r#"{"mod\u0065l":{"type":"BPE","vocab":{"a":0}}}"#.into(), true, "an escaped \"model\" key"),
        (r#"{"model":{"type":"B\u0050E","vocab":{"a":0}}}"#.into(), true, "an escaped type"),
        (r#"{"model":{"type":"BPE\ud800","vocab":{"a":0}}}"#.into(), false, "a lone surrogate in the type"),
        (with_vocab(r#""\ud83d\ude00":0"#), true, "a surrogate pair in a token"),
        (with_vocab(r#""\ud800":0"#), false, "a lone leading surrogate in a token"),
        (with_vocab(r#""\udc00":0"#), false, "a lone trailing surrogate in a token"),
        (with_vocab(r#""\ud800\u0041":0"#), false, "a leading surrogate before a non-surrogate"),
        (with_vocab(r#""\ud800\ud800":0"#), false, "two leading surrogates"),
        (with_vocab(r#""\udc00\ud800":0"#), false, "reversed surrogates in a token"),
        (with_vocab(r#""":0"#), true, "an empty token (read as undefined)"),
        // The model's shape.
        (format!(r#"{{{MODEL},{MODEL}}}"#), false, "a second model key"),
        (format!(r#"{{{MODEL},"model":null}}"#), false, "a second model key after the first"),
        (r#"{"model":{"type":"BPE","type":"BPE","vocab":{"a":0}}}"#.into(), false, "a second type key"),
        (r#"{"model":{"type":"BPE","vocab":{"a":0},"vocab":{"b":1}}}"#.into(), false, "a second vocab key"),
        (r#"{"model":null}"#.into(), false, "model is null"),
        (r#"{"model":[]}"#.into(), false, "model is an array"),
        (r#"{"model":{"type":"BPE"}}"#.into(), false, "no vocab"),
        (r#"{"model":{"vocab":{"a":0}}}"#.into(), false, "no type"),
        (r#"{"model":{"type":1,"vocab":{"a":0}}}"#.into(), false, "a number type"),
        (r#"{"model":{"type":"WordPiece","vocab":{"a":0}}}"#.into(), false, "a WordPiece model"),
        (r#"{"model":{"type":"BPE","vocab":[]}}"#.into(), false, "vocab is an array"),
        (with_vocab(""), false, "an empty vocab"),
        (
            r#"{"added_tokens":[],"model":{"type":"BPE","merges":[["a","b"]],"vocab":{"a":0}},"post_processor":null}"#
                .into(),
            true,
            "other keys around",
        ),
        // Vocab keys and ids.
        (with_vocab(r#""a":0,"a":1"#), false, "a duplicate vocab key"),
        (with_vocab(r#""a":0,"\u0061":1"#), false, "a duplicate vocab key spelled with an escape"),
        (with_vocab(r#""Ġ":0," ":1"#), true, "two keys that decode to the same byte"),
        (with_vocab(r#""a":0,"b":0"#), false, "a duplicate id"),
        (with_vocab(r#""a":1.0"#), false, "a fractional id"),
        (with_vocab(r#""a":1e2"#), false, "an exponent id"),
        (with_vocab(r#""a":-1"#), false, "a negative id"),
        (with_vocab(r#""a":-0"#), false, "minus zero as an id"),
        (with_vocab(r#""a":"1""#), false, "a string id"),
        (with_vocab(r#""a":01"#), false, "an id with a leading zero"),
        (with_vocab(r#""a":257"#), true, "one token with id 2 x 1 + 255"),
        (with_vocab(r#""a":258"#), false, "one token with id 2 x 1 + 256: too sparse"),
        (with_vocab(r#""a":0,"b":259"#), true, "two tokens, the largest id 2 x 2 + 255"),
        (with_vocab(r#""a":0,"b":260"#), false, "two tokens, the largest id 2 x 2 + 256"),
        (with_vocab(r#""a":0,"b":65535"#), false, "two tokens, ids 0 and 65535: too sparse"),
        (
            with_vocab(&(0..32_768).map(|i| format!(r#""t{i}":{}"#, 2 * i + 1)).collect::<Vec<_>>().join(",")),
            true,
            "32,768 odd ids up to 65535",
        ),
        (
            with_vocab(&(0..65_536).map(|i| format!(r#""t{i}":{i}"#)).collect::<Vec<_>>().join(",")),
            true,
            "ids 0 to 65535",
        ),
        (
            with_vocab(&(0..65_537).map(|i| format!(r#""t{i}":{i}"#)).collect::<Vec<_>>().join(",")),
            false,
            "ids 0 to 65536",
        ),
        (with_vocab(r#""a":65536"#), false, "an id above 65535"),
        (with_vocab(r#""a":4294967296"#), false, "an id beyond 32 bits"),
    ];
    // Text that is not UTF-8, as RFC 8259 section 8.1 requires it to be.
    let mut bad_utf8 = Vec::new();
    for bytes in [&b"\xff"[..], b"\xc3", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80"] {
        let mut d = skipped("\"").into_bytes();
        d.splice(6..6, bytes.iter().copied());
        bad_utf8.push(d);
    }
    let mut failures = Vec::new();
    for (doc, accept, what) in &cases {
        let want = oracle::expected(doc.as_bytes());
        if want.is_ok() != *accept {
            failures.push(format!("oracle disagrees with the statement on {what}: {want:?}"));
            continue;
        }
        let got = std::panic::catch_unwind(|| oracle::check(doc.as_bytes()));
        match got {
            Ok(a) if a == *accept => {}
            _ => failures.push(format!("our reader on {what}: {:?}", Tokenizer::from_json(doc.as_bytes()).err())),
        }
        if !accept {
            let e = Tokenizer::from_json(doc.as_bytes()).unwrap_err();
            if e.location.offset.is_none() {
                failures.push(format!("{what}: no byte offset in {e}"));
            }
        }
    }
    for d in &bad_utf8 {
        assert!(oracle::expected(d).is_err());
        assert!(!oracle::check(d));
        assert_eq!(Tokenizer::from_json(d).unwrap_err().location.offset, Some(6), "{d:02x?}");
    }
    assert!(failures.is_empty(), "{} of {} cases fail:\n{}", failures.len(), cases.len(), failures.join("\n"));
    eprintln!(
        "{} stated cases and {} non-UTF-8 documents: our reader agrees with serde_json and the statement",
        cases.len(),
        bad_utf8.len()
    );
    assert!(cases.len() > 100);
}

/// Pieces that make or break JSON, for mutations and generated documents.
const SNIPPETS: &[&str] = &[
    "\"",
    "\\",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "-",
    "+",
    ".",
    "e",
    "E",
    "0",
    "00",
    "7",
    " ",
    "\t",
    "\n",
    "\u{c}",
    "\\u",
    "\\ud800",
    "\\udc00",
    "\\ud83d\\ude00",
    "\\u0061",
    "\\u00",
    "\\x",
    "\\/",
    "\u{1}",
    "\u{7f}",
    "é",
    "Ġ",
    "null",
    "true",
    "nul",
    "1e999",
    "-0",
    ".5",
    "1.",
    "1-+e",
    "\"a\":1,",
    "\"a\":0,",
    "\"b\":65535,",
    "\"c\":65536,",
    "\"model\":{\"type\":\"BPE\",\"vocab\":{\"z\":3}},",
    "\"vocab\":{\"b\":2},",
    "\"type\":\"BPE\",",
    "[[[[",
    "]]]]",
    "{\"k\":",
    "\"model\"",
    "\"vocab\"",
    "\"type\"",
];
const BAD_BYTES: &[u8] = &[0x00, 0x1f, 0x80, 0xbf, 0xc0, 0xc3, 0xed, 0xf4, 0xff];

fn mutate(doc: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut m = doc.to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(m.len() + 1);
        match rng.below(6) {
            0 if !m.is_empty() => {
                let i = at.min(m.len() - 1);
                m[i] ^= 1 << rng.below(8);
            }
            1 if !m.is_empty() => {
                let i = at.min(m.len() - 1);
                m[i] = BAD_BYTES[rng.below(BAD_BYTES.len())];
            }
            2 => {
                let end = (at + 1 + rng.below(8)).min(m.len());
                m.drain(at..end);
            }
            3 if at < m.len() => {
                let end = (at + 1 + rng.below(16)).min(m.len());
                let span = m[at..end].to_vec();
                m.splice(at..at, span);
            }
            _ => {
                let s = SNIPPETS[rng.below(SNIPPETS.len())];
                m.splice(at..at, s.bytes());
            }
        }
    }
    m
}

/// A random value of the grammar, sometimes with a broken lexeme.
fn gen_value(rng: &mut Rng, depth: usize, out: &mut String) {
    const NUMBERS: &[&str] =
        &["0", "-0", "7", "65535", "1.5", "-2e10", "1E-3", "007", "1.", ".5", "+1", "-", "1e", "0x1"];
    const STRINGS: &[&str] = &["a", "", "\\n", "\\u0041", "\\ud800", "\\ud83d\\ude00", "\\x", "Ġb", "\u{1}"];
    // Broken lexemes one time in eight.
    let lexemes = |rng: &mut Rng, all: usize, good: usize| {
        let n = if rng.below(8) == 0 { all } else { good };
        rng.below(n)
    };
    match rng.below(if depth > 4 { 4 } else { 7 }) {
        0 => out.push_str(NUMBERS[lexemes(rng, NUMBERS.len(), 7)]),
        1 => out.push_str(["true", "false", "null", "nul"][lexemes(rng, 4, 3)]),
        2 | 3 => {
            out.push('"');
            out.push_str(STRINGS[lexemes(rng, STRINGS.len(), 6)]);
            out.push('"');
        }
        4 => {
            out.push('[');
            for i in 0..rng.below(4) {
                if i > 0 {
                    out.push(',');
                }
                gen_value(rng, depth + 1, out);
            }
            out.push(']');
        }
        _ => gen_object(rng, depth + 1, out, &["x", "a", "model", "type", "vocab", "\\u0061", "\\ud800"]),
    }
}

fn gen_object(rng: &mut Rng, depth: usize, out: &mut String, keys: &[&str]) {
    out.push('{');
    for i in 0..rng.below(4) {
        if i > 0 {
            out.push(',');
        }
        out.push('"');
        out.push_str(keys[rng.below(keys.len())]);
        out.push_str("\":");
        gen_value(rng, depth, out);
    }
    out.push('}');
}

/// A tokenizer.json-shaped document with random parts.
fn gen_doc(rng: &mut Rng) -> String {
    let mut d = String::from("{");
    if rng.below(2) == 0 {
        d.push_str("\"pre\":");
        gen_value(rng, 1, &mut d);
        d.push(',');
    }
    d.push_str("\"model\":{");
    if rng.below(3) == 0 {
        d.push_str("\"merges\":");
        gen_value(rng, 2, &mut d);
        d.push(',');
    }
    d.push_str(["\"type\":\"BPE\",", "\"type\":\"B\\u0050E\",", "\"type\":\"Unigram\",", ""][rng.below(4)]);
    d.push_str("\"vocab\":{");
    let keys = ["a", "b", "Ġ", " ", "\\u0061", "\\ud83d\\ude00", "é", "<|endoftext|>", "", "\\n"];
    let ids = ["0", "1", "2", "3", "50256", "65535", "65536", "1.0", "-1", "01"];
    for i in 0..rng.below(6) {
        if i > 0 {
            d.push(',');
        }
        let id = if rng.below(5) == 0 { ids[rng.below(ids.len())].to_string() } else { (i * 7).to_string() };
        d.push_str(&format!("\"{}{}\":{id}", keys[rng.below(keys.len())], i));
    }
    d.push_str("}}");
    if rng.below(4) == 0 {
        d.push_str(",\"post\":");
        gen_value(rng, 1, &mut d);
    }
    d.push('}');
    d
}

#[test]
fn mutated_and_generated_documents_read_as_serde_json_reads_them() {
    let mut rng = Rng(0x7e57_1a7e_0000_0001);
    let (mut accepted, mut refused) = (0usize, 0usize);
    let mut tally = |ok: bool| if ok { accepted += 1 } else { refused += 1 };
    let seeds: Vec<String> = vec![
        format!("{{{MODEL}}}"),
        skipped(r#"[1,-2.5e+3,{"y":null,"z":[true,false]},"\u00e9\ud83d\ude00\n"]"#),
        with_vocab(r#""h\u00e9":0,"\"q":7,"Ġthe":2,"<|endoftext|>":262"#),
        r#"{"version":"1.0","added_tokens":[{"id":0,"content":"<unk>","special":true}],"normalizer":null,"model":{"type":"BPE","dropout":null,"unk_token":null,"vocab":{"a":0,"b":1,"ab":2},"merges":["a b"]}}"#.into(),
    ];
    for seed in &seeds {
        assert!(oracle::check(seed.as_bytes()), "{seed}");
        for _ in 0..30_000 {
            tally(oracle::check(&mutate(seed.as_bytes(), &mut rng)));
        }
    }
    for _ in 0..60_000 {
        let d = gen_doc(&mut rng);
        tally(oracle::check(d.as_bytes()));
        tally(oracle::check(&mutate(d.as_bytes(), &mut rng)));
    }
    // The small corpus tokenizer, mutated (73 KB each).
    let small = corpus_tokenizers().into_iter().find(|(n, _)| n.starts_with("small")).unwrap().1;
    for _ in 0..400 {
        tally(oracle::check(&mutate(&small, &mut rng)));
    }
    eprintln!("{accepted} documents accepted by both readers, {refused} refused by both");
    assert!(accepted > 20_000 && refused > 20_000, "{accepted} accepted, {refused} refused");
}
