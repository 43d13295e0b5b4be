//! weezl as the reference for our LZW decoder (Go's compress/lzw flavour:
//! LSB-first codes, 8-bit literals, no early change), with the block
//! contract of FORMAT.md section 4 around it. Shared by tests/lzw.rs and the
//! `lzw` fuzz target (`#[path]`).

#![allow(dead_code)]

use weezl::{decode::Decoder, BitOrder, LzwStatus};

pub const CLEAR: u16 = 256;
pub const END: u16 = 257;

#[derive(Debug, PartialEq, Eq)]
pub enum Weezl {
    /// Decoded up to the end code.
    Done(Vec<u8>),
    /// More than `cap` bytes of output.
    TooLong,
    /// An invalid code, or the data ends before an end code.
    Error,
    /// No output, no input taken, no error: weezl's known stall on a clear
    /// code right after another.
    Stalled,
}

/// weezl's reading of `input`, with at most `cap` bytes of output.
pub fn weezl(input: &[u8], cap: usize) -> Weezl {
    match run(input, cap) {
        // Out of room: one more byte of it says whether weezl was done.
        Run::Full => match run(input, cap + 1) {
            Run::Done(v) if v.len() == cap => Weezl::Done(v),
            Run::Stalled => Weezl::Stalled,
            Run::Error => Weezl::Error,
            _ => Weezl::TooLong,
        },
        Run::Done(v) => Weezl::Done(v),
        Run::Stalled => Weezl::Stalled,
        Run::Error => Weezl::Error,
    }
}

enum Run {
    Done(Vec<u8>),
    Full,
    Stalled,
    Error,
}

fn run(input: &[u8], cap: usize) -> Run {
    let mut d = Decoder::new(BitOrder::Lsb, 8);
    let mut out = vec![0u8; cap];
    let (mut i, mut o) = (0, 0);
    loop {
        let r = d.decode_bytes(&input[i..], &mut out[o..]);
        i += r.consumed_in;
        o += r.consumed_out;
        match r.status {
            Err(_) => return Run::Error,
            Ok(LzwStatus::Done) => {
                out.truncate(o);
                return Run::Done(out);
            }
            Ok(_) if r.consumed_in == 0 && r.consumed_out == 0 => {
                return if o == cap {
                    Run::Full
                } else if i == input.len() {
                    // Out of input before an end code.
                    Run::Error
                } else {
                    Run::Stalled
                };
            }
            Ok(_) => {}
        }
    }
}

/// What our decoder must make of `input` as a block of raw length `n`:
/// weezl's bytes when weezl reaches the end code in the block's last byte
/// (the block contract: nothing after the end code) with exactly `n` bytes
/// out; an error otherwise.
///
/// weezl stalls on a clear code right after another, which Go's reader (a
/// clear resets the table, so a second one changes nothing) and ours decode.
/// For those streams weezl reads the same codes with each run of clear codes
/// cut to one, and `split` says where the original's end code ends.
pub fn expected(input: &[u8], n: usize) -> Result<Vec<u8>, ()> {
    let (codes, end_bit) = split(input);
    if codes.windows(2).any(|w| w == [CLEAR, CLEAR]) {
        let Some(end_bit) = end_bit else { return Err(()) };
        if end_bit.div_ceil(8) != input.len() {
            return Err(());
        }
        let mut once = codes.clone();
        once.dedup_by(|a, b| *a == CLEAR && *b == CLEAR);
        once.push(END);
        return match weezl(&pack(&once), n) {
            Weezl::Done(v) if v.len() == n => Ok(v),
            _ => Err(()),
        };
    }
    match weezl(input, n) {
        Weezl::Done(v) if v.len() == n => {
            // weezl must not reach the end code without the last byte.
            let early = !input.is_empty() && matches!(weezl(&input[..input.len() - 1], n), Weezl::Done(_));
            if early {
                Err(())
            } else {
                Ok(v)
            }
        }
        Weezl::Stalled => panic!("weezl stalls outside the clear-clear case on {input:02x?}"),
        _ => Err(()),
    }
}

/// The codes before the end code, cut at each code's width (which depends
/// only on how many codes came since the last clear), and the bit where the
/// end code ends (`None` when the data ends first).
pub fn split(input: &[u8]) -> (Vec<u16>, Option<usize>) {
    let (mut codes, mut bit) = (Vec::new(), 0usize);
    let (mut width, mut hi) = (9u32, END as u32);
    loop {
        if bit + width as usize > input.len() * 8 {
            return (codes, None);
        }
        let mut c = 0u16;
        for k in 0..width as usize {
            let b = bit + k;
            c |= ((input[b / 8] >> (b % 8) & 1) as u16) << k;
        }
        bit += width as usize;
        if c == END {
            return (codes, Some(bit));
        }
        codes.push(c);
        (width, hi) = next_width(c, width, hi);
    }
}

/// The code width and highest code after code `c` (Go's reader: 9 bits
/// after a clear; every other code advances the next free code, and the
/// width grows when that reaches the next power of two, up to 12 bits,
/// where the table stays full).
fn next_width(c: u16, width: u32, hi: u32) -> (u32, u32) {
    if c == CLEAR {
        return (9, END as u32);
    }
    let hi = hi + 1;
    match (hi >= 1 << width, width == 12) {
        (false, _) => (width, hi),
        (true, true) => (width, hi - 1),
        (true, false) => (width + 1, hi),
    }
}

/// Packs codes LSB first, each at the width a decoder expects after the
/// codes before it ([`next_width`]).
pub fn pack(codes: &[u16]) -> Vec<u8> {
    let (mut out, mut acc, mut n) = (Vec::new(), 0u64, 0u32);
    let (mut width, mut hi) = (9u32, END as u32);
    for &c in codes {
        acc |= (c as u64) << n;
        n += width;
        while n >= 8 {
            out.push(acc as u8);
            acc >>= 8;
            n -= 8;
        }
        (width, hi) = next_width(c, width, hi);
    }
    if n > 0 {
        out.push(acc as u8);
    }
    out
}
