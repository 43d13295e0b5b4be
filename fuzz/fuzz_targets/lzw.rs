//! Our LZW decoder against weezl (tests/oracle/lzw.rs), through the codec
//! API with the block contract: the same bytes, or both refuse. Streams with
//! back-to-back clear codes, where weezl stalls, are read by weezl with each
//! run of clears cut to one (the oracle says why that is the same stream).
//!
//! Input: byte 0 picks how the rest is taken: 0 as a block; 1 as data for
//! weezl to encode (bytes 1-2, LE, a bit to flip, 0xFFFF none); 2 as codes
//! (two bytes each, mod 4096) packed at the widths a decoder expects.
//! Bytes 1-2 are also the raw length to claim when weezl finds none.
#![no_main]

#[path = "../../tests/oracle/lzw.rs"]
mod oracle;

use columns_wasm::codec::{Codec, Decompressor};
use libfuzzer_sys::fuzz_target;
use oracle::Weezl;
use weezl::{encode::Encoder, BitOrder};

fn ours(block: &[u8], n: usize) -> Result<Vec<u8>, ()> {
    let mut out = vec![0x5a; n];
    Decompressor::new().block(Codec::Lzw, block, &mut out).map(|()| out).map_err(drop)
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let hint = u16::from_le_bytes([data[1], data[2]]) as usize;
    let rest = &data[3..];
    let block = match data[0] % 3 {
        0 => rest.to_vec(),
        1 => {
            let Ok(mut b) = Encoder::new(BitOrder::Lsb, 8).encode(rest) else { return };
            if hint != 0xFFFF && !b.is_empty() {
                let bit = hint % (b.len() * 8);
                b[bit / 8] ^= 1 << (bit % 8);
            }
            b
        }
        _ => {
            let codes: Vec<u16> = rest.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]]) % 4096).collect();
            oracle::pack(&codes)
        }
    };
    let mut lengths = vec![hint];
    // Small first: most inputs decode to little.
    let found = match oracle::weezl(&block, 1 << 16) {
        Weezl::TooLong => oracle::weezl(&block, 1 << 22),
        other => other,
    };
    if let Weezl::Done(v) = found {
        lengths.extend([v.len(), v.len() + 1, v.len().saturating_sub(1)]);
    }
    for n in lengths {
        let want = oracle::expected(&block, n);
        let got = ours(&block, n);
        assert!(got == want, "n={n}: ours {:?}, weezl {:?}", got.as_ref().map(Vec::len), want.as_ref().map(Vec::len));
    }
});
