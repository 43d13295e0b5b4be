//! Our LZW decoder against an independent encoder (weezl, GIF flavour,
//! LSB first, 8-bit literals), on data that fills and resets the table.

use columns_wasm::codec::{Codec, Decompressor};
use weezl::{encode::Encoder, BitOrder};

fn sample(seed: u64, len: usize, alphabet: u8) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Mix runs, repeats and noise so strings of every length occur.
            if (x >> 40).is_multiple_of(5) {
                (i % 7) as u8
            } else {
                (x % alphabet as u64) as u8
            }
        })
        .collect()
}

#[test]
fn decodes_what_an_independent_encoder_writes() {
    let mut dec = Decompressor::new();
    let mut cases = 0;
    for (seed, len, alphabet) in
        [(1, 0, 2), (2, 1, 2), (3, 100, 2), (4, 5000, 4), (5, 70_000, 16), (6, 262_144, 255), (7, 300_000, 3)]
    {
        let data = sample(seed, len, alphabet);
        let packed = Encoder::new(BitOrder::Lsb, 8).encode(&data).unwrap();
        let mut out = vec![0u8; data.len()];
        dec.block(Codec::Lzw, &packed, &mut out).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(out, data, "seed {seed}");
        // One byte short or long of the recorded size is corruption.
        if !data.is_empty() {
            let mut short = vec![0u8; data.len() - 1];
            assert!(dec.block(Codec::Lzw, &packed, &mut short).is_err());
        }
        let mut long = vec![0u8; data.len() + 1];
        assert!(dec.block(Codec::Lzw, &packed, &mut long).is_err());
        cases += 1;
    }
    assert_eq!(cases, 7);
}

#[test]
fn damaged_streams_never_panic() {
    let data = sample(9, 20_000, 8);
    let packed = Encoder::new(BitOrder::Lsb, 8).encode(&data).unwrap();
    let mut dec = Decompressor::new();
    let mut out = vec![0u8; data.len()];
    let mut x = 0x1234_5678u64;
    for _ in 0..3000 {
        let mut m = packed.clone();
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let at = (x >> 33) as usize % m.len();
        m[at] ^= 1 << ((x >> 20) % 8);
        if let Ok(()) = dec.block(Codec::Lzw, &m, &mut out) {
            // A flip that still decodes must at least produce the recorded size.
            assert_eq!(out.len(), data.len());
        }
        let cut = (x >> 13) as usize % m.len();
        assert!(dec.block(Codec::Lzw, &m[..cut], &mut out).is_err() || cut == m.len());
    }
}
