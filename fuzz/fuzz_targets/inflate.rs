//! Our inflater against miniz_oxide in the three framings (raw DEFLATE,
//! zlib, gzip), through the codec API with the block contract; the
//! reference is tests/oracle/inflate.rs. Any difference panics: the same
//! bytes, or both refuse.
//!
//! Input: byte 0 picks the framing (low two bits) and whether the rest is
//! taken as a block (bit 2 clear) or as data to compress with miniz first
//! (bit 2 set; bits 3-6 the level, byte 1 and 2 a bit to flip, 0xFFFF none),
//! so deep, valid streams are reached as well as garbage. Bytes 1-2 (LE)
//! are also the raw length to claim when the stream does not decode.
//!
//! Strictness: our zlib checks equal miniz's (RFC 1950: method 8, window at
//! most 32 KiB, check bits, no preset dictionary, Adler-32), so no case is
//! excused; gzip's header and trailer rules come from RFC 1952 in the oracle.
#![no_main]

#[path = "../../tests/oracle/inflate.rs"]
mod oracle;

use columns_wasm::codec::{Codec, Decompressor};
use libfuzzer_sys::fuzz_target;
use miniz_oxide::deflate::{compress_to_vec, compress_to_vec_zlib};
use oracle::Framing;

fn ours(framing: Framing, block: &[u8], n: usize) -> Result<Vec<u8>, ()> {
    let codec = match framing {
        Framing::Raw => Codec::Flate,
        Framing::Zlib => Codec::Zlib,
        Framing::Gzip => Codec::Gzip,
    };
    let mut out = vec![0x5a; n];
    Decompressor::new().block(codec, block, &mut out).map(|()| out).map_err(drop)
}

fn gzip(data: &[u8], level: u8) -> Vec<u8> {
    let mut g = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255];
    g.extend_from_slice(&compress_to_vec(data, level));
    g.extend_from_slice(&oracle::crc32(data).to_le_bytes());
    g.extend_from_slice(&(data.len() as u32).to_le_bytes());
    g
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let framing = [Framing::Raw, Framing::Zlib, Framing::Gzip, Framing::Raw][(data[0] & 3) as usize];
    let hint = u16::from_le_bytes([data[1], data[2]]) as usize;
    let rest = &data[3..];
    let block = if data[0] & 4 == 0 {
        rest.to_vec()
    } else {
        let level = (data[0] >> 3) & 15;
        let mut b = match framing {
            Framing::Raw => compress_to_vec(rest, level.min(10)),
            Framing::Zlib => compress_to_vec_zlib(rest, level.min(10)),
            Framing::Gzip => gzip(rest, level.min(10)),
        };
        if hint != 0xFFFF && !b.is_empty() {
            let bit = hint % (b.len() * 8);
            b[bit / 8] ^= 1 << (bit % 8);
        }
        b
    };
    let natural = oracle::natural_len(framing, &block, 1 << 22);
    let mut lengths = vec![hint];
    if let Some(n) = natural {
        lengths.extend([n, n + 1, n.saturating_sub(1)]);
    }
    for n in lengths {
        let want = oracle::expected(framing, &block, n);
        let got = ours(framing, &block, n);
        assert!(got == want, "{framing:?} n={n}: ours {:?}, reference {:?} on {block:02x?}", got.as_ref().map(Vec::len), want.as_ref().map(Vec::len));
    }
});
