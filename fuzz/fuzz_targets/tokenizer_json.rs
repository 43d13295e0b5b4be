//! Our tokenizer.json reader against serde_json (tests/oracle/tokenizer_json.rs):
//! both refuse, or both accept with the same bytes for every token id.
//!
//! Input: byte 0 even: the rest is the whole document; odd: the rest is
//! placed inside `{"model":{"type":"BPE","vocab":{` ... `}}}`, so the fuzzer
//! spends its time where the reader builds things. fuzz/json.dict helps.
#![no_main]

#[path = "../../tests/oracle/tokenizer_json.rs"]
mod oracle;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    if mode % 2 == 0 {
        oracle::check(rest);
    } else {
        let mut doc = br#"{"model":{"type":"BPE","vocab":{"#.to_vec();
        doc.extend_from_slice(rest);
        doc.extend_from_slice(b"}}}");
        oracle::check(&doc);
    }
});
