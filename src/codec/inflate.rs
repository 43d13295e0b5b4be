//! A raw DEFLATE (RFC 1951) decoder that writes straight into a caller's
//! slice of exactly the expected length. Written for this crate; safe Rust
//! but for the fast loop's match copies (`copy_match_fast`), which its loop
//! condition and distance check prove in bounds.
//!
//! Design:
//! - Bits come from a 64-bit buffer, least significant bit first. While at
//!   least 8 input bytes remain it is refilled with one little-endian word
//!   load (afterwards it holds 56..=63 counted bits, and all 64 of its bits
//!   are input bits); near the end of the input it is refilled byte by
//!   byte, with zero bytes past the end, and every symbol checks that it did
//!   not consume bits beyond the input.
//! - Huffman codes decode through tables indexed by the next bits: a 12-bit
//!   primary table for literals/lengths (11 bits when less than
//!   `SMALL_BLOCK` input is left: less to build for fewer symbols; the
//!   decode loop is compiled for each), 8 bits for distances, with
//!   subtables for longer codes. One `u32` entry says what the code means and
//!   how many bits to consume, extra bits included. A length code whose
//!   extra bits also fit the primary table is expanded there, so its entry
//!   holds the final length. Where two literal codes fit the primary bits
//!   together, their entries hold both bytes (a literal entry always writes
//!   two bytes and advances by one or two: no branch on it); building them
//!   visits only those entries, so blocks with few literals pay little.
//!   Likewise, where a length code (extra bits included) and a whole
//!   distance code fit the 12 primary bits together, their entries hold
//!   both (`combine_matches`): most matches of the real files (Go's
//!   compress/flate: short matches) then cost one dependent table lookup,
//!   not two. Tables are built a length at a time by doubling (no per-code
//!   strided fill) and kept across blocks and calls.
//! - A fast loop runs while at least `FAST_IN` input bytes and `FAST_OUT`
//!   output bytes remain: one refill per iteration, which decodes either up
//!   to four literal entries (up to eight literals) or one length/distance
//!   pair; the next entry is looked up before a match is copied; copies go
//!   in 16-byte stores (distances >= 16: chunks copied from d back, two at
//!   least, so no loop up to 32 bytes; shorter ones: the first d bytes held
//!   in registers, stored at every multiple of d, but for matches of at most
//!   16 bytes at distances 8-15: 8-byte chunks from d back) and may
//!   overshoot the match into the slack. The copies are
//!   unchecked (proved by the loop condition and the distance check): four
//!   checks per chunk, and the output's length kept in a register for them,
//!   cost V8 measurably in this loop. The tail of either buffer goes through
//!   a one-symbol step with every check.
//!
//! Validation follows zlib: over-subscribed code lengths are errors;
//! incomplete ones are errors except a literal/length or distance code whose
//! only code has length 1 (or a distance code with no codes at all, which
//! fails only if a distance is used); symbols 286/287 and distance codes
//! 30/31 are errors when they occur; HLIT > 286 or HDIST > 30 are errors.

use super::copy_chunk;
use crate::error::{corrupt_chunk, Error, Result};

// ---------------------------------------------------------------------------
// Table entries.
//
// Literal/length entry (u32):
//   bit 31 LIT: one literal, byte in bits 8..16, or two, the second in bits
//               16..24 (both codes in the primary bits); bits 24..26 the
//               literals' count (ONE or PAIR: the output's advance)
//   bit 30 EXC: exceptional: subtable pointer (SUB), end of block (EOB), or
//               an invalid symbol (neither)
//   bit 27 LEN_EXTRA (lengths only): extra bits follow the codeword
//   bits 16..28: length (base) / subtable start, counted from the end of
//               the (12-bit) primary table
//   bits 8..16: length: the codeword's bits (before the extra bits);
//               subtable pointer: the subtable's index bits
//   bits 0..8: bits to consume: codeword(s) (+ extra bits for a length)
//   With LD (bit 26; see `combine_matches`): a length code (with its extra
//   bits) followed by a distance code: bits 17..26 the length, bits 9..17
//   the distance code's index in the distance table, bits 5..9 the length
//   code's bits, bits 0..5 all the bits to consume (both codes and the
//   distance's extra bits).
// Distance entry (u32):
//   bits 16..32: distance base (0 marks an invalid code) / subtable start
//   bit 15 DSUB: subtable pointer
//   bits 8..15: codeword bits (before the extra bits) / subtable index bits
//   bits 0..8: bits to consume
// Code length code entry: symbol in bits 16.., bits to consume in 0..8.
// ---------------------------------------------------------------------------

const LIT: u32 = 1 << 31;
const EXC: u32 = 1 << 30;
const SUB: u32 = 1 << 29;
const EOB: u32 = 1 << 28;
/// A length entry whose extra bits still follow (bits 8..16 hold the
/// codeword length to skip before them); without it the length is final.
const LEN_EXTRA: u32 = 1 << 27;
/// With LIT, bits 24..26 count its literals (one shift and a mask give the
/// output's advance): one, or two (bits 24..26 of a length are its base).
const ONE: u32 = 1 << 24;
const PAIR: u32 = 2 << 24;
/// Without LIT and EXC: a length and a distance code in one entry (a
/// subtable pointer's start may have this bit set, so test it with EXC).
const LD: u32 = 1 << 26;
const DSUB: u32 = 1 << 15;

/// The literal/length table's index bits. A block with less than
/// `SMALL_BLOCK` input bytes left gets a primary table of
/// `LITLEN_SMALL_BITS`, less to build (measured on birdstrikes.optimized,
/// whose blocks are small: the 12-bit table cost 3% there, and so did
/// repeating an 11-bit one to 12 bits).
const LITLEN_BITS: u32 = 12;
const LITLEN_SMALL_BITS: u32 = 11;
const SMALL_BLOCK: usize = 8 << 10;
const DIST_BITS: u32 = 8;
const PRECODE_BITS: u32 = 7;
const LITLEN_MASK: usize = (1 << LITLEN_BITS) - 1;
const DIST_MASK: usize = (1 << DIST_BITS) - 1;
const PRECODE_MASK: usize = (1 << PRECODE_BITS) - 1;

// Table sizes: the primary table plus room for subtables. A subtable of s
// index bits exists only under a complete subtree of depth s, which holds at
// least s + 1 codes, so subtables take at most 2^s / (s + 1) entries per
// long code: 16/5 per code for 288 literal/length symbols (s <= 4, with
// the 11-bit primary table), 128/8 for 32 distance symbols (s <= 7). The
// builder checks anyway. Literal/length subtables always start after the
// 12-bit primary table, whose size the lookups add.
const LITLEN_SIZE: usize = (1 << LITLEN_BITS) + 1024;
const DIST_SIZE: usize = (1 << DIST_BITS) + 512;

/// Input bytes that must remain for one fast-loop iteration: one word load.
const FAST_IN: usize = 8;
/// Output bytes that must remain for one fast-loop iteration: four
/// literals (8 bytes stored), or a 258-byte match with up to 15 bytes of
/// chunked overshoot (`copy_match_fast`).
const FAST_OUT: usize = 258 + 16;

const LEN_BASE: [u16; 29] =
    [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LEN_EXTRA_BITS: [u8; 29] =
    [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE: [u16; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
    8193, 12289, 16385, 24577,
];
const DIST_EXTRA: [u8; 30] =
    [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
/// The order in which the code length code's lengths are stored.
const PRECODE_ORDER: [usize; 19] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/// Per-symbol entries without the codeword length, which the builder adds
/// (the literal/length ones from `litlen_entry`).
static DIST_ENTRY: [u32; 32] = dist_entries();
static PRECODE_ENTRY: [u32; 19] = precode_entries();

/// Built once at run time: as a `static`, its 1152 bytes of steps cost
/// about 590 bytes of the gzipped .wasm. `LIT` goes in opaque, or the
/// optimizer folds the loop back into that constant.
fn litlen_entry() -> &'static [u32; 288] {
    static T: std::sync::OnceLock<[u32; 288]> = std::sync::OnceLock::new();
    T.get_or_init(|| litlen_entries(core::hint::black_box(LIT)))
}

fn litlen_entries(lit: u32) -> [u32; 288] {
    let mut t = [0u32; 288];
    let mut s = 0;
    while s < 256 {
        t[s] = lit | ONE | (s as u32) << 8;
        s += 1;
    }
    t[256] = EXC | EOB;
    let mut i = 0;
    while i < 29 {
        t[257 + i] = (LEN_BASE[i] as u32) << 16 | LEN_EXTRA_BITS[i] as u32;
        if LEN_EXTRA_BITS[i] != 0 {
            t[257 + i] |= LEN_EXTRA;
        }
        i += 1;
    }
    // 286 and 287 take part in the fixed code but must never occur.
    t[286] = EXC;
    t[287] = EXC;
    t
}

const fn dist_entries() -> [u32; 32] {
    let mut t = [0u32; 32];
    let mut i = 0;
    while i < 30 {
        t[i] = (DIST_BASE[i] as u32) << 16 | DIST_EXTRA[i] as u32;
        i += 1;
    }
    // 30 and 31 keep base 0: decoding one yields distance 0, an error.
    t
}

const fn precode_entries() -> [u32; 19] {
    let mut t = [0u32; 19];
    let mut i = 0;
    while i < 19 {
        t[i] = (i as u32) << 16;
        i += 1;
    }
    t
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Precode,
    Litlen,
    Dist,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Precode => "code length code",
            Kind::Litlen => "literal/length code",
            Kind::Dist => "distance code",
        }
    }
}

/// Why a set of code lengths does not form a usable prefix code.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum BuildError {
    OverSubscribed,
    Incomplete,
    Empty,
    /// Subtables would not fit the table (unreachable by the size bound above).
    TooBig,
}

impl BuildError {
    fn describe(self) -> &'static str {
        match self {
            BuildError::OverSubscribed => "over-subscribed (more codes than its lengths allow)",
            BuildError::Incomplete => "incomplete (its lengths leave codes unused)",
            BuildError::Empty => "empty (every length is 0)",
            BuildError::TooBig => "too large for the decoding table",
        }
    }
}

/// Fills `table` (primary part `1 << root` entries, subtables after it) for
/// the canonical Huffman code of `lens`. `base[sym]` is the symbol's entry
/// without its codeword length.
fn build(
    table: &mut [u32],
    root: u32,
    lens: &[u8],
    base: &[u32],
    kind: Kind,
    sorted: &mut [u16; 288],
    codes: &mut [u32],
) -> core::result::Result<usize, BuildError> {
    // Two interleaved histograms: one counter bumped by consecutive
    // symbols would serialize on its own store.
    let mut hist = [[0u16; 16]; 2];
    let mut pairs = lens.chunks_exact(2);
    for p in &mut pairs {
        hist[0][(p[0] & 15) as usize] += 1;
        hist[1][(p[1] & 15) as usize] += 1;
    }
    for &l in pairs.remainder() {
        hist[0][(l & 15) as usize] += 1;
    }
    let mut count = [0u16; 16];
    let mut left: i32 = 1;
    let mut max = 0u32;
    for len in 1..16 {
        count[len] = hist[0][len] + hist[1][len];
        left <<= 1;
        left -= count[len] as i32;
        if left < 0 {
            return Err(BuildError::OverSubscribed);
        }
        if count[len] != 0 {
            max = len as u32;
        }
    }
    let size = 1usize << root;
    if left > 0 {
        // zlib accepts an incomplete code only when it is a single code of
        // length 1 (or, for distances, no code at all); unused entries
        // decode to an error.
        match (kind, max) {
            (Kind::Precode, 0) => return Err(BuildError::Empty),
            (Kind::Precode, _) => return Err(BuildError::Incomplete),
            (Kind::Litlen, 0) => return Err(BuildError::Empty),
            (_, 0) | (_, 1) => {}
            _ => return Err(BuildError::Incomplete),
        }
        let invalid = if kind == Kind::Litlen { EXC } else { 0 };
        table[..size].fill(invalid);
        if max == 0 {
            return Ok(0);
        }
    }

    // Symbols sorted by codeword length, then by value: canonical order.
    let mut offs = [0u16; 16];
    for len in 1..15 {
        offs[len + 1] = offs[len] + count[len];
    }
    for (sym, &l) in lens.iter().enumerate() {
        if l != 0 {
            let o = &mut offs[(l & 15) as usize];
            sorted[*o as usize] = sym as u16;
            *o += 1;
        }
    }

    // Codes that fit the primary table, one length at a time: the table
    // for `len` bits is the one for `len - 1` bits twice over (a shorter
    // code ignores the new bit) plus one entry per code of length `len`,
    // at its bit-reversed codeword. Entries left stale by a previous table
    // are all overwritten: a complete code covers every index.
    let mut code: u32 = 0;
    // `code` bit-reversed in `len` bits, kept alongside: wasm has no
    // bit-reverse instruction (nor has x86).
    let mut rev: u32 = 0;
    let mut i = 0usize;
    let top = max.min(root);
    // Length codes whose extra bits also fit the primary table, to expand.
    let mut direct = [(0u32, 0u32, 0u32); 29];
    let mut n_direct = 0;
    // Codes for `combine_matches`: lengths (expanded) that leave room in the
    // primary bits, distances that fit their primary table.
    let mut n_codes = 0;
    for len in 1..=top {
        let half = 1usize << (len - 1);
        table.copy_within(0..half, half);
        for _ in 0..count[len as usize] {
            let entry = with_len(base[sorted[i] as usize], len);
            i += 1;
            table[rev as usize] = entry;
            if kind == Kind::Litlen && entry & (LIT | EXC | LEN_EXTRA) == LEN_EXTRA && entry & 0xff <= root {
                if let Some(slot) = direct.get_mut(n_direct) {
                    *slot = (rev, len, entry);
                    n_direct += 1;
                }
            } else if kind == Kind::Litlen && entry & (LIT | EXC | LEN_EXTRA) == 0 && len < root {
                if let Some(slot) = codes.get_mut(n_codes) {
                    *slot = rev | len << 12 | (entry >> 16) << 16;
                    n_codes += 1;
                }
            } else if kind == Kind::Dist && entry >> 16 != 0 {
                if let Some(slot) = codes.get_mut(n_codes) {
                    *slot = rev | len << 8 | (entry & 0xff) << 16;
                    n_codes += 1;
                }
            }
            code += 1;
            rev = next_reversed(rev, len);
        }
        // A codeword one bit longer reverses to the same value.
        code <<= 1;
    }
    let mut filled = 1usize << top;
    while filled < size {
        table.copy_within(0..filled, filled);
        filled *= 2;
    }
    // Each such length becomes 2^extra entries that hold the final length
    // and consume code and extra bits at once.
    let primary = &mut table[..size];
    for &(rev, len, entry) in &direct[..n_direct] {
        let total = entry & 0xff;
        let step = 1usize << total;
        for v in 0..1u32 << (total - len) {
            let e = ((entry >> 16 & 0x1ff) + v) << 16 | total | total << 8;
            let mut j = (rev | v << len) as usize;
            if total < root {
                if let Some(slot) = codes.get_mut(n_codes) {
                    *slot = j as u32 | total << 12 | (e >> 16) << 16;
                    n_codes += 1;
                }
            }
            while j < size {
                primary[j] = e;
                j += step;
            }
        }
    }
    if kind == Kind::Litlen {
        pair_literals(table, root, &count, &sorted[..i], base);
    }
    if max <= root {
        return Ok(n_codes);
    }

    // Longer codes: codes sharing their first `root` bits go to one
    // subtable, indexed by the bits after those. Codes are complete here.
    let mut remaining = count;
    let mut next_free = if kind == Kind::Litlen { LITLEN_MASK + 1 } else { size };
    let mut prefix = u32::MAX;
    let (mut sub_start, mut sub_bits) = (0usize, 0u32);
    for len in root + 1..=max {
        let extra_len = len - root;
        for _ in 0..count[len as usize] {
            let p = code >> extra_len;
            if p != prefix {
                prefix = p;
                // Smallest subtable that the codes under this prefix fill.
                let mut bits = extra_len;
                let mut room: i32 = 1 << bits;
                while root + bits < max {
                    room -= remaining[(root + bits) as usize] as i32;
                    if room <= 0 {
                        break;
                    }
                    bits += 1;
                    room <<= 1;
                }
                sub_start = next_free;
                sub_bits = bits;
                next_free += 1 << bits;
                if next_free > table.len() || sub_start > 0xffff {
                    return Err(BuildError::TooBig);
                }
                let rev = (p.reverse_bits() >> (32 - root)) as usize;
                table[rev] = match kind {
                    Kind::Dist => (sub_start as u32) << 16 | DSUB | bits << 8 | root,
                    _ => EXC | SUB | ((sub_start - (LITLEN_MASK + 1)) as u32) << 16 | bits << 8 | root,
                };
            }
            let entry = with_len(base[sorted[i] as usize], extra_len);
            i += 1;
            let sub_size = 1usize << sub_bits;
            let step = 1usize << extra_len;
            let mut j = (code.reverse_bits() >> (32 - len) >> root) as usize;
            while j < sub_size {
                table[sub_start + j] = entry;
                j += step;
            }
            remaining[len as usize] -= 1;
            code += 1;
        }
        code <<= 1;
    }
    Ok(n_codes)
}

/// Gives each primary literal/length entry that starts with a length code
/// (its extra bits included) followed by a whole distance code the decode
/// of both (LD): the bits to consume come from this one entry, so the next
/// code's lookup does not wait for the distance table's. `lengths` are
/// index | bits << 12 | length << 16 (bits < `root`), `dists` (in canonical
/// order, so by codeword length) index | codeword bits << 8 | bits with the
/// extra bits << 16, both from `build`. Visits only the entries it fills.
fn combine_matches(table: &mut [u32], root: u32, lengths: &[u32], dists: &[u32]) {
    let size = 1usize << root;
    // Sliced to the primary part: `j < size` then bounds every store.
    let table = &mut table[..size];
    for &l in lengths {
        let (c1, t1) = (l & 0xfff, l >> 12 & 0xf);
        for &d in dists {
            let l2 = d >> 8 & 0xff;
            if t1 + l2 > root {
                break;
            }
            let c2 = d & 0xff;
            let e = LD | (l >> 16) << 17 | c2 << 9 | t1 << 5 | (t1 + (d >> 16));
            let step = 1usize << (t1 + l2);
            let mut j = (c1 | c2 << t1) as usize;
            while j < size {
                table[j] = e;
                j += step;
            }
        }
    }
}

/// The codeword after `rev` (a `len`-bit codeword, bit-reversed), bit-reversed:
/// adding 1 to a codeword clears its trailing ones and sets the zero above
/// them, so reversed it clears the leading ones below bit `len` and sets
/// the highest zero. After the last codeword (all ones), 0.
#[inline(always)]
fn next_reversed(rev: u32, len: u32) -> u32 {
    let zeros = rev ^ ((1u32 << len) - 1);
    match zeros.checked_ilog2() {
        Some(top) => rev & ((1u32 << top) - 1) | 1u32 << top,
        None => 0,
    }
}

/// Gives two literals whose codes fit the primary table together its
/// entries that start with both codewords: one lookup yields both. Visits
/// only those entries and the literals short enough to pair (none when
/// literals are rare, which gives them long codes). Runs after the primary
/// table is filled; its subtable pointers go at indices that start with a
/// long code, never at these.
fn pair_literals(table: &mut [u32], root: u32, count: &[u16; 16], sorted: &[u16], base: &[u32]) {
    // Literals of at most `limit` bits in canonical order (so by length),
    // as reversed codeword | length << 16 | byte << 24; `limit` leaves room
    // for the shortest literal after them.
    let mut short = [0u32; 256];
    let mut n = 0;
    let mut limit = root - 1;
    // The codeword bit-reversed, as `build` walks it.
    let (mut rev, mut i) = (0u32, 0usize);
    let mut len = 1;
    while len <= limit {
        for _ in 0..count[len as usize] {
            let Some(&sym) = sorted.get(i) else { return };
            i += 1;
            let e = base[sym as usize];
            if e & LIT != 0 {
                if n == 0 {
                    limit = root - len;
                }
                if let Some(slot) = short.get_mut(n) {
                    *slot = rev | len << 16 | (e >> 8 & 0xff) << 24;
                    n += 1;
                }
            }
            rev = next_reversed(rev, len);
        }
        len += 1;
    }
    let short = &short[..n];
    let size = 1usize << root;
    // Sliced to the primary part: `j < size` then bounds every store.
    let table = &mut table[..size];
    for &first in short {
        let len1 = first >> 16 & 0xff;
        for &second in short {
            let len2 = second >> 16 & 0xff;
            let len = len1 + len2;
            if len > root {
                break;
            }
            let e = LIT | PAIR | (second >> 24) << 16 | (first >> 24) << 8 | len;
            let step = 1usize << len;
            let mut j = (first & 0xffff | (second & 0xffff) << len1) as usize;
            while j < size {
                table[j] = e;
                j += step;
            }
        }
    }
}

/// A symbol's entry with its codeword length: bits to consume, and for
/// all but literals (whose bits 8..16 are the byte) also in bits 8..16.
#[inline(always)]
fn with_len(base: u32, len: u32) -> u32 {
    if base & LIT != 0 {
        base + len
    } else {
        base + (len | len << 8)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Loaded {
    Nothing,
    Fixed,
    Dynamic,
}

/// Decoding tables and scratch space, kept across blocks and calls.
pub(crate) struct Tables {
    litlen: [u32; LITLEN_SIZE],
    dist: [u32; DIST_SIZE],
    precode: [u32; 1 << PRECODE_BITS],
    lens: [u8; 288 + 32],
    sorted: [u16; 288],
    /// `build`'s length and distance codes for `combine_matches`.
    len_codes: [u32; 288],
    dist_codes: [u32; 32],
    loaded: Loaded,
}

impl Tables {
    pub(crate) fn new_boxed() -> Box<Tables> {
        Box::new(Tables {
            litlen: [0; LITLEN_SIZE],
            dist: [0; DIST_SIZE],
            precode: [0; 1 << PRECODE_BITS],
            lens: [0; 288 + 32],
            sorted: [0; 288],
            len_codes: [0; 288],
            dist_codes: [0; 32],
            loaded: Loaded::Nothing,
        })
    }

    fn load_fixed(&mut self) {
        if self.loaded == Loaded::Fixed {
            return;
        }
        let lens = &mut self.lens;
        lens[..144].fill(8);
        lens[144..256].fill(9);
        lens[256..280].fill(7);
        lens[280..288].fill(8);
        lens[288..].fill(5);
        let built = self.build_codes(288, 320, LITLEN_BITS);
        debug_assert!(built.is_ok(), "the fixed codes are complete");
        self.loaded = Loaded::Fixed;
    }

    /// Reads a dynamic block's code lengths and builds its tables; returns
    /// the literal/length table's primary bits.
    fn load_dynamic(&mut self, b: &mut Bits<'_>) -> Result<u32> {
        self.loaded = Loaded::Dynamic;
        b.refill();
        let start = b.byte_pos();
        let hlit = (b.buf & 31) as usize + 257;
        let hdist = (b.buf >> 5 & 31) as usize + 1;
        let hclen = (b.buf >> 10 & 15) as usize + 4;
        b.consume(14);
        if hlit > 286 || hdist > 30 {
            return Err(corrupt_chunk(format!(
                "DEFLATE dynamic block header at input byte {start} declares {hlit} literal/length and {hdist} distance codes (at most 286 and 30)"
            )));
        }
        let mut pre = [0u8; 19];
        for &sym in &PRECODE_ORDER[..hclen] {
            if b.left < 3 {
                b.refill();
            }
            pre[sym] = (b.buf & 7) as u8;
            b.consume(3);
        }
        build(&mut self.precode, PRECODE_BITS, &pre, &PRECODE_ENTRY, Kind::Precode, &mut self.sorted, &mut [])
            .map_err(|e| table_error(Kind::Precode, e, start))?;

        let total = hlit + hdist;
        let lens = &mut self.lens;
        let mut i = 0usize;
        while i < total {
            b.refill();
            let e = self.precode[b.buf as usize & PRECODE_MASK];
            b.consume(e & 0xff);
            let sym = e >> 16;
            if sym < 16 {
                lens[i] = sym as u8;
                i += 1;
                continue;
            }
            let (value, run) = match sym {
                16 => {
                    if i == 0 {
                        return Err(corrupt_chunk(format!(
                            "DEFLATE code lengths start with a repeat of the previous length at input byte {}",
                            b.byte_pos()
                        )));
                    }
                    let run = 3 + (b.buf & 3) as usize;
                    b.consume(2);
                    (lens[i - 1], run)
                }
                17 => {
                    let run = 3 + (b.buf & 7) as usize;
                    b.consume(3);
                    (0, run)
                }
                _ => {
                    let run = 11 + (b.buf & 127) as usize;
                    b.consume(7);
                    (0, run)
                }
            };
            if run > total - i {
                return Err(corrupt_chunk(format!(
                    "DEFLATE code length repeat runs past the {total} code lengths at input byte {}",
                    b.byte_pos()
                )));
            }
            lens[i..i + run].fill(value);
            i += run;
        }
        if b.overrun() {
            return Err(ends_early(b.input.len()));
        }
        if lens[256] == 0 {
            return Err(corrupt_chunk(format!("DEFLATE dynamic block at input byte {start} has no end-of-block code")));
        }
        // The primary table for fewer bits where the block is small: less
        // to build for fewer symbols (the input left is this block's and
        // any after it in the stream).
        let root = if b.input.len() - b.byte_pos() < SMALL_BLOCK { LITLEN_SMALL_BITS } else { LITLEN_BITS };
        self.build_codes(hlit, total, root).map_err(|(kind, e)| table_error(kind, e, start))?;
        Ok(root)
    }

    /// Builds the literal/length table from `lens[..hlit]`, its primary part
    /// for `root` bits (its subtables after `LITLEN_BITS` bits), and the distance
    /// table from `lens[hlit..total]`. Joins length and distance codes
    /// (`combine_matches`) only in a table of all `LITLEN_BITS`: for a small
    /// block the joining measured costlier than what it saves.
    fn build_codes(&mut self, hlit: usize, total: usize, root: u32) -> core::result::Result<(), (Kind, BuildError)> {
        let lens = &self.lens;
        let nl = build(
            &mut self.litlen,
            root,
            &lens[..hlit],
            litlen_entry(),
            Kind::Litlen,
            &mut self.sorted,
            &mut self.len_codes,
        )
        .map_err(|e| (Kind::Litlen, e))?;
        let nd = build(
            &mut self.dist,
            DIST_BITS,
            &lens[hlit..total],
            &DIST_ENTRY,
            Kind::Dist,
            &mut self.sorted,
            &mut self.dist_codes,
        )
        .map_err(|e| (Kind::Dist, e))?;
        if root == LITLEN_BITS {
            combine_matches(&mut self.litlen, root, &self.len_codes[..nl], &self.dist_codes[..nd]);
        }
        Ok(())
    }
}

#[cold]
fn table_error(kind: Kind, e: BuildError, at: usize) -> Error {
    corrupt_chunk(format!("DEFLATE dynamic block at input byte {at}: its {} is {}", kind.name(), e.describe()))
}

#[cold]
fn ends_early(in_len: usize) -> Error {
    corrupt_chunk(format!("DEFLATE data ends early: the stream needs more than the block's {in_len} input bytes"))
}

#[cold]
fn too_much(out_len: usize) -> Error {
    corrupt_chunk(format!("DEFLATE data decompresses to more than the recorded {out_len} bytes"))
}

#[cold]
fn bad_litlen(at: usize) -> Error {
    corrupt_chunk(format!("invalid DEFLATE literal/length code (symbol 286, 287 or unused) at input byte {at}"))
}

#[cold]
fn bad_distance(d: usize, written: usize, at: usize) -> Error {
    if d == 0 {
        corrupt_chunk(format!("invalid DEFLATE distance code (30, 31 or unused) at input byte {at}"))
    } else {
        corrupt_chunk(format!(
            "DEFLATE distance {d} at input byte {at} reaches before the start of the output ({written} bytes written)"
        ))
    }
}

/// The bit reader. `pos` counts bytes loaded into `buf`, including zero
/// bytes loaded past the end of the input; `left` is the number of valid
/// bits in `buf` (always < 64). Bits above `left` are either zero or the
/// input's next bits, so loading those bytes again (OR) is harmless.
#[derive(Clone, Copy)]
struct Bits<'a> {
    input: &'a [u8],
    pos: usize,
    buf: u64,
    left: u32,
}

#[inline(always)]
fn load_u64(s: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&s[at..at + 8]);
    u64::from_le_bytes(w)
}

/// Byte-by-byte refill near the end of the input, with zero bytes past it.
/// Takes and returns the state by value so callers keep it in registers.
#[inline(never)]
fn refill_slow(input: &[u8], mut pos: usize, mut buf: u64, mut left: u32) -> (usize, u64, u32) {
    while left < 56 {
        let byte = input.get(pos).copied().unwrap_or(0);
        buf |= u64::from(byte) << left;
        pos += 1;
        left += 8;
    }
    (pos, buf, left)
}

#[inline(always)]
fn low_bits(n: u32) -> u64 {
    (1u64 << n) - 1
}

impl<'a> Bits<'a> {
    fn new(input: &'a [u8]) -> Self {
        Bits { input, pos: 0, buf: 0, left: 0 }
    }

    /// Tops the buffer up to at least 56 bits.
    #[inline(always)]
    fn refill(&mut self) {
        if self.pos + 8 <= self.input.len() {
            self.buf |= load_u64(self.input, self.pos) << self.left;
            self.pos += ((!self.left >> 3) & 7) as usize;
            self.left |= 56;
        } else {
            (self.pos, self.buf, self.left) = refill_slow(self.input, self.pos, self.buf, self.left);
        }
    }

    #[inline(always)]
    fn consume(&mut self, n: u32) {
        self.buf >>= n;
        self.left -= n;
    }

    /// Whether more bits were consumed than the input holds.
    #[inline(always)]
    fn overrun(&self) -> bool {
        self.pos > self.input.len() && (self.pos - self.input.len()) * 8 > self.left as usize
    }

    /// The input byte holding the next unconsumed bit.
    fn byte_pos(&self) -> usize {
        self.pos - (self.left as usize).div_ceil(8)
    }
}

/// Inflates one complete raw DEFLATE stream that must consume all of
/// `input` and produce exactly `out.len()` bytes.
pub(crate) fn inflate(t: &mut Tables, input: &[u8], out: &mut [u8]) -> Result<()> {
    let mut b = Bits::new(input);
    let mut op = 0usize;
    loop {
        b.refill();
        let at = b.byte_pos();
        let header = b.buf as u32 & 7;
        b.consume(3);
        if b.overrun() {
            return Err(ends_early(input.len()));
        }
        match header >> 1 {
            0 => stored(&mut b, out, &mut op)?,
            // An empty fixed block (seven zero bits: end of block) ends
            // every stream Go's compress/flate writes, most often after a
            // dynamic block: read it without rebuilding the fixed tables.
            1 if b.buf & 0x7f == 0 => b.consume(7),
            1 => {
                t.load_fixed();
                huffman::<LITLEN_BITS>(t, &mut b, out, &mut op)?;
            }
            2 => {
                if t.load_dynamic(&mut b)? == LITLEN_BITS {
                    huffman::<LITLEN_BITS>(t, &mut b, out, &mut op)?;
                } else {
                    huffman::<LITLEN_SMALL_BITS>(t, &mut b, out, &mut op)?;
                }
            }
            _ => return Err(corrupt_chunk(format!("DEFLATE block at input byte {at} has the reserved block type 3"))),
        }
        if b.overrun() {
            return Err(ends_early(input.len()));
        }
        if header & 1 != 0 {
            break;
        }
    }
    if op != out.len() {
        return Err(corrupt_chunk(format!("DEFLATE data gives {op} bytes, the block records {}", out.len())));
    }
    // Only the final byte's padding bits may remain unconsumed.
    let used = b.pos - b.left as usize / 8;
    if used != input.len() {
        return Err(corrupt_chunk(format!("DEFLATE stream ends after {used} of the block's {} bytes", input.len())));
    }
    Ok(())
}

fn stored(b: &mut Bits<'_>, out: &mut [u8], op: &mut usize) -> Result<()> {
    // Drop the bits up to the byte boundary and give back the whole bytes
    // still in the buffer.
    b.consume(b.left & 7);
    b.pos -= (b.left / 8) as usize;
    b.buf = 0;
    b.left = 0;
    let input = b.input;
    let at = b.pos;
    let header = input.get(at..at + 4).ok_or_else(|| ends_early(input.len()))?;
    // u32s, not u16s: the message below then needs no u16 formatter.
    let len = u32::from(u16::from_le_bytes([header[0], header[1]]));
    let nlen = u32::from(u16::from_le_bytes([header[2], header[3]]));
    if nlen != !len & 0xffff {
        return Err(corrupt_chunk(format!(
            "DEFLATE stored block at input byte {at}: length {len} does not match its complement {nlen}"
        )));
    }
    let len = len as usize;
    let data = input.get(at + 4..at + 4 + len).ok_or_else(|| ends_early(input.len()))?;
    let out_len = out.len();
    let dst = out.get_mut(*op..*op + len).ok_or_else(|| too_much(out_len))?;
    dst.copy_from_slice(data);
    *op += len;
    b.pos = at + 4 + len;
    Ok(())
}

/// Stores a literal entry's byte and the byte after it (the second
/// literal of a pair, else one the next symbol overwrites), unconditionally.
/// Two byte stores: one 16-bit store measured slower in wasm on files with
/// few literals. The caller guarantees the slack. Checked: unchecked stores
/// measured 1-2% slower in Chromium on files with many literals (faster in
/// Node 20's older V8).
#[inline(always)]
fn put_literals(out: &mut [u8], op: usize, e: u32) {
    out[op] = (e >> 8) as u8;
    out[op + 1] = (e >> 16) as u8;
}

/// Copies a match of `len` bytes from `d` bytes back, with LZ77 semantics
/// (the source may overlap what is being written), in 16- or 8-byte chunks
/// that may write past `op + len`: up to `op + max(len + 15, 32)`.
/// Unchecked: a checked chunk costs four compares and branches, and keeps
/// the output's length live in the decode loop, where V8 runs short of
/// registers. The two-chunk start for d >= 16 (no loop for matches up to 32
/// bytes) was measured in V8 too.
///
/// # Safety
/// `1 <= d <= op` and `op + max(len + 15, 32) <= out.len()`.
#[inline(always)]
unsafe fn copy_match_fast(out: &mut [u8], op: usize, d: usize, len: usize) {
    debug_assert!(d >= 1 && d <= op && op + (len + 15).max(32) <= out.len());
    // Every chunk below starts at or after op - d >= 0 and ends at most at
    // op + max(len + 15, 32): within `out` by the contract. The proofs of
    // the `unsafe` blocks below.
    let end = op + len;
    let mut o = op;
    if d >= 16 {
        // Chunks at o < max(end, op + 32) read [o - d, o - d + 16), which
        // lies before o: written already, as LZ77 requires.
        // SAFETY: see above.
        unsafe {
            copy_chunk::<16>(out, o - d, o);
            copy_chunk::<16>(out, o + 16 - d, o + 16);
        }
        o += 32;
        while o < end {
            // SAFETY: see above; o < end, so o + 16 <= end + 15.
            unsafe { copy_chunk::<16>(out, o - d, o) };
            o += 16;
        }
    } else if d >= 8 && len <= 16 {
        // A short match: at most two 8-byte chunks, each read from d >= 8
        // back (written already). Only the second can wait on the first's
        // store, and the register stores below cost V8 more than that on
        // matches this short (flights-3m.default's blocks 5-6% faster in
        // Chromium, the same natively).
        loop {
            // SAFETY: see above; o < end, so o + 8 <= end + 7.
            unsafe { copy_chunk::<8>(out, o - d, o) };
            o += 8;
            if o >= end {
                break;
            }
        }
    } else if d >= 8 {
        // The match is its first d bytes over and over: one 16-byte load
        // of them (the 16 - d bytes after them are stale and get
        // overwritten), stored at every multiple of d. Chunks copied from d
        // back each read, in part, the chunk stored just before, which the
        // CPU cannot forward from its store buffer: each waited for that
        // store (on birdstrikes' dates, d = 14 by 258, a third of the
        // inflate time natively).
        // SAFETY: the load reads [op - d, op - d + 16), within
        // [op - d, op + 8); each store at o < end writes [o, o + 16), and
        // o + 16 <= end + 15.
        let v = unsafe { out.as_ptr().add(op - d).cast::<[u8; 16]>().read_unaligned() };
        // SAFETY: see above.
        unsafe { store_every(out, o, end, d, v) };
    } else if d == 1 {
        // SAFETY: see above; each store at o < end writes [o, o + 16), and
        // o + 16 <= end + 15.
        unsafe { store_every(out, o, end, 16, [out[op - 1]; 16]) };
    } else {
        // 2 <= d < 8: the match is its first d bytes over and over. Those
        // (read before op: written already) are repeated to 16 bytes in
        // registers and stored every s bytes, s the largest multiple of d
        // up to 16: no load of bytes this match wrote (which stalled as
        // above for d = 3, 5, 6, 7).
        // SAFETY: the load reads [op - d, op - d + 8), within [op - d,
        // op + 8); each store at o < end writes [o, o + 16), o + 16 <=
        // end + 15.
        let w = unsafe { out.as_ptr().add(op - d).cast::<[u8; 8]>().read_unaligned() };
        // `lo`: the bytes 0..8 of the repetition, doubled from d of them
        // (the bytes past those doubled are zero at each step).
        let mut lo = u64::from_le_bytes(w) & (u64::MAX >> (64 - 8 * d));
        let mut have = d;
        while have < 8 {
            lo |= lo << (8 * have);
            have *= 2;
        }
        // `hi`: bytes 8..16, which start r = 8 % d bytes into the pattern:
        // lo's 8 - r bytes from r on (8 - r is a multiple of d), twice.
        let r = 8 % d;
        let hi = if r == 0 {
            lo
        } else {
            let y = lo >> (8 * r);
            y | y << (8 * (8 - r))
        };
        let v = (u128::from(hi) << 64 | u128::from(lo)).to_le_bytes();
        // SAFETY: see above.
        unsafe { store_every(out, o, end, 16 - 16 % d, v) };
    }
}

/// Why `huffman` stopped: its errors become `Error`s only after its loops,
/// as a call inside them (even one never taken) makes V8 keep every value
/// live across it on the stack, on the common path too.
#[derive(Clone, Copy)]
enum Stop {
    End,
    /// An invalid literal/length code at this input byte.
    Litlen(usize),
    /// A distance (0: an invalid code), the bytes written, the input byte.
    Distance(usize, usize, usize),
    EndsEarly,
    TooMuch,
}

/// Stores `v` at `o`, `o + step`, ... while below `end` (at least once):
/// a match whose bytes repeat with period `step` (or a divisor of it), held
/// in `v`, so no store reads bytes the match itself wrote.
///
/// # Safety
/// `o < end`, `1 <= step <= 16` and `end + 15 <= out.len()`.
#[inline(always)]
unsafe fn store_every(out: &mut [u8], mut o: usize, end: usize, step: usize, v: [u8; 16]) {
    loop {
        debug_assert!(o + 16 <= out.len());
        // SAFETY: o < end, so o + 16 <= end + 15 <= out.len().
        unsafe { out.as_mut_ptr().add(o).cast::<[u8; 16]>().write_unaligned(v) };
        o += step;
        if o >= end {
            break;
        }
    }
}

/// Decodes one fixed or dynamic Huffman block's symbols up to and including
/// its end-of-block code, through a literal/length table of `ROOT` primary
/// bits (a constant: a mask in a register costs V8 more than a second copy
/// of this function costs the package).
///
/// The bit reader's state lives in plain locals here (never behind a
/// reference) so that it stays in registers.
fn huffman<const ROOT: u32>(t: &Tables, bits: &mut Bits<'_>, out: &mut [u8], out_pos: &mut usize) -> Result<()> {
    let mask: usize = (1 << ROOT) - 1;
    let litlen = &t.litlen;
    let dist = &t.dist;
    let input = bits.input;
    let in_len = input.len();
    let out_len = out.len();
    let (mut pos, mut buf, mut left) = (bits.pos, bits.buf, bits.left);
    let mut op = *out_pos;

    macro_rules! consume {
        ($n:expr) => {{
            let n = $n;
            buf >>= n;
            // Wrapping: in the fast loop `left` is exact in its low byte only.
            left = left.wrapping_sub(n);
        }};
    }
    // The fast loop's consume, by a whole literal/length entry whose low
    // byte is the count (< 64, bits 6..8 clear): the shift masks its amount
    // to six bits, and `left` keeps its true value in its low byte (a
    // subtraction's low byte depends only on the operands' low bytes),
    // garbage above. One mask less per symbol; `left` is masked where the
    // loop stops.
    macro_rules! eat {
        ($e:expr) => {{
            let e = $e;
            buf >>= e & 63;
            left = left.wrapping_sub(e);
        }};
    }
    // Whole-word refill; the caller guarantees 8 readable bytes at `pos`.
    macro_rules! refill_word {
        ($word:expr) => {{
            buf |= $word << (left & 63);
            pos += ((!left >> 3) & 7) as usize;
            left |= 56;
        }};
    }
    macro_rules! refill {
        () => {{
            if pos + 8 <= in_len {
                refill_word!(load_u64(input, pos));
            } else {
                (pos, buf, left) = refill_slow(input, pos, buf, left);
            }
        }};
    }
    macro_rules! overrun {
        () => {
            pos > in_len && (pos - in_len) * 8 > left as usize
        };
    }
    macro_rules! at {
        () => {
            pos - ((left & 0xff) as usize).div_ceil(8)
        };
    }
    // The decoding steps both loops share (the fast loop's lookahead and
    // checks differ, these do not).
    // A literal/length subtable entry, from the primary entry `$e` whose
    // bits were consumed.
    macro_rules! litlen_sub {
        ($e:expr) => {
            litlen[LITLEN_MASK + 1 + ($e >> 16 & 0xfff) as usize + (buf & low_bits($e >> 8 & 0xff)) as usize]
        };
    }
    // (length, distance) of a combined entry (`LD`): at most 24 bits.
    macro_rules! combined_match {
        ($e:expr) => {{
            let e = $e;
            let saved = buf >> (e >> 5 & 15);
            consume!(e & 31);
            let len = (e >> 17 & 0x1ff) as usize;
            let de = dist[(e >> 9 & 0xff) as usize];
            (len, (de >> 16) as usize + ((saved & low_bits(de & 0xff)) >> (de >> 8 & 0xff)) as usize)
        }};
    }
    // A distance code and its extra bits (<= 15 + 13 bits), from `buf`.
    macro_rules! distance {
        () => {{
            let mut de = dist[buf as usize & DIST_MASK];
            if de & DSUB != 0 {
                consume!(de & 0xff);
                de = dist[(de >> 16) as usize + (buf & low_bits(de >> 8 & 0x7f)) as usize];
            }
            let saved = buf;
            consume!(de & 0xff);
            (de >> 16) as usize + ((saved & low_bits(de & 0xff)) >> (de >> 8 & 0xff)) as usize
        }};
    }
    // An exceptional literal/length entry: the end of the block, else a
    // code no table assigns. Leaves the block either way.
    macro_rules! end_or_invalid {
        ($block:lifetime, $e:expr) => {{
            if $e & EOB != 0 {
                consume!($e & 0xff);
                break $block Stop::End;
            }
            break $block Stop::Litlen(at!());
        }};
    }
    // The end of both match paths of the fast loop: the distance checked,
    // the next code looked up (into `$e`) before the copy, the copy. The
    // loop's label and `e` are named by the caller (declared after this).
    macro_rules! copy_match {
        ($block:lifetime, $e:ident, $d:expr, $len:expr) => {{
            let (d, len) = ($d, $len);
            if d.wrapping_sub(1) >= op {
                break $block Stop::Distance(d, op, at!());
            }
            $e = litlen[buf as usize & mask];
            debug_assert!(len <= 258);
            // SAFETY: 1 <= d <= op (checked above); len <= 258 (the tables
            // hold no longer length), so op + max(len + 15, 32) <= op +
            // FAST_OUT <= out_len.
            unsafe { copy_match_fast(out, op, d, len) };
            op += len;
        }};
    }

    let stop = 'block: {
        // Fast loop: FAST_IN input bytes cover the word load, FAST_OUT
        // output bytes cover every write of one iteration. `e` is always the
        // entry for the next code, looked up ahead (from >= 12 input bits)
        // so the lookup overlaps the previous match copy. Once it stops,
        // the input or output is near its end for the rest of the block.
        let mut e = 0;
        if pos + FAST_IN <= in_len {
            refill_word!(load_u64(input, pos));
            e = litlen[buf as usize & mask];
        }
        while pos + FAST_IN <= in_len && op + FAST_OUT <= out_len {
            // One refill per iteration. Right after it all 64 bits of `buf`
            // are input bits (56..=63 of them counted in `left`), so after
            // consuming c <= 48 bits at least 16 real bits remain: enough
            // to look up the next entry even where `left` is smaller.
            refill_word!(load_u64(input, pos));
            if e & LIT != 0 {
                // Up to four primary-table entries (<= 12 bits each) of one
                // or two literals; two bytes are stored either way.
                eat!(e);
                put_literals(out, op, e);
                op += (e >> 24 & 3) as usize;
                e = litlen[buf as usize & mask];
                if e & LIT != 0 {
                    eat!(e);
                    put_literals(out, op, e);
                    op += (e >> 24 & 3) as usize;
                    e = litlen[buf as usize & mask];
                    if e & LIT != 0 {
                        eat!(e);
                        put_literals(out, op, e);
                        op += (e >> 24 & 3) as usize;
                        e = litlen[buf as usize & mask];
                        if e & LIT != 0 {
                            eat!(e);
                            put_literals(out, op, e);
                            op += (e >> 24 & 3) as usize;
                            e = litlen[buf as usize & mask];
                        }
                    }
                }
                continue;
            }
            if e & (LD | EXC) == LD {
                // A length and a distance in one entry: the next lookup
                // waits only for this entry; the distance's for the copy.
                let (len, d) = combined_match!(e);
                copy_match!('block, e, d, len);
                continue;
            }
            if e & EXC != 0 {
                if e & SUB != 0 {
                    eat!(e);
                    e = litlen_sub!(e);
                    if e & LIT != 0 {
                        eat!(e);
                        put_literals(out, op, e);
                        op += (e >> 24 & 3) as usize;
                        e = litlen[buf as usize & mask];
                        continue;
                    }
                }
                if e & EXC != 0 {
                    end_or_invalid!('block, e);
                }
            }
            // A length (<= 15 + 5 bits) and a distance (<= 15 + 13 bits):
            // both fit the 56 bits of this iteration's refill.
            let saved = buf;
            eat!(e);
            let mut len = (e >> 16 & 0x1ff) as usize;
            if e & LEN_EXTRA != 0 {
                len += ((saved & low_bits(e & 0xff)) >> (e >> 8 & 0xff)) as usize;
            }
            let d = distance!();
            copy_match!('block, e, d, len);
        }

        left &= 0xff;
        // One symbol at a time with every check: near the end of the input
        // or output.
        loop {
            refill!();
            let mut e = litlen[buf as usize & mask];
            if e & SUB != 0 {
                consume!(e & 0xff);
                e = litlen_sub!(e);
            }
            if e & LIT != 0 {
                consume!(e & 0xff);
                if overrun!() {
                    break 'block Stop::EndsEarly;
                }
                let n = (e >> 24 & 3) as usize;
                if n > out_len - op {
                    break 'block Stop::TooMuch;
                }
                out[op] = (e >> 8) as u8;
                if n == 2 {
                    out[op + 1] = (e >> 16) as u8;
                }
                op += n;
                continue;
            }
            if e & EXC != 0 {
                end_or_invalid!('block, e);
            }
            let (len, d);
            if e & LD != 0 {
                // At most 24 bits, in the refilled 56.
                (len, d) = combined_match!(e);
            } else {
                let saved = buf;
                consume!(e & 0xff);
                len = (e >> 16 & 0x1ff) as usize + ((saved & low_bits(e & 0xff)) >> (e >> 8 & 0xff)) as usize;
                refill!();
                d = distance!();
            }
            if overrun!() {
                break 'block Stop::EndsEarly;
            }
            if d.wrapping_sub(1) >= op {
                break 'block Stop::Distance(d, op, at!());
            }
            if len > out_len - op {
                break 'block Stop::TooMuch;
            }
            if op + len + 32 <= out_len {
                // SAFETY: 1 <= d <= op (checked above), and op + max(len + 15,
                // 32) <= op + len + 32 <= out_len.
                unsafe { copy_match_fast(out, op, d, len) };
            } else {
                for k in op..op + len {
                    out[k] = out[k - d];
                }
            }
            op += len;
        }
    };
    bits.pos = pos;
    bits.buf = buf;
    bits.left = left & 0xff;
    *out_pos = op;
    match stop {
        Stop::End => Ok(()),
        Stop::Litlen(at) => Err(bad_litlen(at)),
        Stop::Distance(d, written, at) => Err(bad_distance(d, written, at)),
        Stop::EndsEarly => Err(ends_early(in_len)),
        Stop::TooMuch => Err(too_much(out_len)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_reversed_is_the_next_codeword_reversed() {
        for len in 1..=15u32 {
            let mut rev = 0;
            for code in 0..1u32 << len {
                assert_eq!(rev, code.reverse_bits() >> (32 - len), "codeword {code} of {len} bits");
                rev = next_reversed(rev, len);
            }
            assert_eq!(rev, 0, "after the last codeword of {len} bits");
        }
    }

    fn table_for(lens: &[u8], kind: Kind) -> core::result::Result<Vec<u32>, BuildError> {
        let mut sorted = [0u16; 288];
        let (mut t, root, base): (Vec<u32>, u32, &[u32]) = match kind {
            Kind::Litlen => (vec![0; LITLEN_SIZE], LITLEN_BITS, litlen_entry()),
            Kind::Dist => (vec![0; DIST_SIZE], DIST_BITS, &DIST_ENTRY),
            Kind::Precode => (vec![0; 1 << PRECODE_BITS], PRECODE_BITS, &PRECODE_ENTRY),
        };
        build(&mut t, root, lens, base, kind, &mut sorted, &mut [0; 288]).map(|_| t)
    }

    #[test]
    fn fixed_tables_are_complete() {
        let mut t = Tables::new_boxed();
        t.load_fixed();
        assert_eq!(t.loaded, Loaded::Fixed);
        // Code 0000000 (7 bits) is end of block; 00110000 (8 bits) is literal 0.
        let e = t.litlen[0];
        assert_eq!(e & (EXC | EOB), EXC | EOB);
        assert_eq!(e & 0xff, 7);
        let rev = (0b0011_0000u32.reverse_bits() >> 24) as usize;
        assert_eq!(t.litlen[rev], LIT | ONE | 8);
    }

    #[test]
    fn oversubscribed_and_incomplete_codes_are_refused() {
        assert_eq!(table_for(&[1, 1, 1], Kind::Dist), Err(BuildError::OverSubscribed));
        assert_eq!(table_for(&[1, 2], Kind::Dist), Err(BuildError::Incomplete));
        assert_eq!(table_for(&[2], Kind::Dist), Err(BuildError::Incomplete));
        assert_eq!(table_for(&[0; 19], Kind::Precode), Err(BuildError::Empty));
        assert_eq!(table_for(&[1], Kind::Precode), Err(BuildError::Incomplete));
        // zlib's exceptions: one distance code of length 1, no distance code,
        // a literal/length code whose only code has length 1.
        let t = table_for(&[1], Kind::Dist).unwrap();
        assert_eq!(t[0] >> 16, 1);
        assert_eq!(t[1] >> 16, 0, "the unused code decodes to the invalid distance 0");
        assert!(table_for(&[0; 30], Kind::Dist).is_ok());
        let mut lens = [0u8; 257];
        lens[256] = 1;
        let t = table_for(&lens, Kind::Litlen).unwrap();
        assert_eq!(t[0] & (EXC | EOB), EXC | EOB);
        assert_eq!(t[1], EXC);
    }

    #[test]
    fn long_codes_go_to_subtables() {
        // A complete code with lengths up to 15: 1, 2, ..., 14, 15, 15.
        let mut lens = [0u8; 288];
        for (i, l) in lens.iter_mut().enumerate().take(15) {
            *l = (i + 1) as u8;
        }
        lens[15] = 15;
        let t = table_for(&lens[..257], Kind::Litlen);
        // Symbol 256 (end of block) has no length here: still a valid table.
        assert!(t.is_ok());
        let t = t.unwrap();
        // Codeword of symbol 14 (length 15) is 111111111111110.
        let code = 0b111_1111_1111_1110u32;
        let rev = code.reverse_bits() >> 17;
        let p = t[rev as usize & LITLEN_MASK];
        assert_eq!(p & (EXC | SUB), EXC | SUB);
        let sub = LITLEN_MASK + 1 + (p >> 16 & 0xfff) as usize + (rev >> LITLEN_BITS) as usize;
        assert_eq!(t[sub], LIT | ONE | 14 << 8 | (15 - LITLEN_BITS));
    }

    /// A complete code of `n` symbols with lengths <= 15, grown by splitting
    /// random leaves (deep ones preferred, to make many long codes).
    fn random_complete(n: usize, seed: &mut u64) -> Vec<u8> {
        let mut next = || {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed
        };
        let mut leaves = vec![0u8];
        while leaves.len() < n {
            let candidates: Vec<usize> = (0..leaves.len()).filter(|&i| leaves[i] < 15).collect();
            let deepest = candidates.iter().map(|&i| leaves[i]).max().unwrap();
            let pick = if next() % 4 != 0 {
                let deep: Vec<usize> = candidates.iter().copied().filter(|&i| leaves[i] + 2 >= deepest).collect();
                deep[(next() % deep.len() as u64) as usize]
            } else {
                candidates[(next() % candidates.len() as u64) as usize]
            };
            leaves[pick] += 1;
            let d = leaves[pick];
            leaves.push(d);
        }
        // Shuffle which symbol gets which length.
        for i in (1..leaves.len()).rev() {
            let j = (next() % (i as u64 + 1)) as usize;
            leaves.swap(i, j);
        }
        leaves
    }

    /// The symbol a table index starts with, by the canonical code itself
    /// (bit by bit, not through the table): (symbol, codeword length).
    fn first_symbol(lens: &[u8], bits: u32) -> Option<(usize, u32)> {
        let mut next = [0u32; 17];
        let mut count = [0u32; 16];
        for &l in lens {
            count[l as usize] += 1;
        }
        count[0] = 0;
        for len in 1..16 {
            next[len + 1] = (next[len] + count[len]) << 1;
        }
        let mut code = 0u32;
        for len in 1..16u32 {
            code = code << 1 | (bits >> (len - 1) & 1);
            // Symbols of this length, in order, have codes next[len]...
            let mut c = next[len as usize];
            for (sym, &l) in lens.iter().enumerate() {
                if l as u32 == len {
                    if c == code {
                        return Some((sym, len));
                    }
                    c += 1;
                }
            }
        }
        None
    }

    /// Every primary entry of a literal/length table against the code:
    /// an index whose bits start with two literals of at most `root` bits in
    /// all holds both (PAIR), one that starts with a literal followed by
    /// anything else (a length, end of block, a longer code, a pair that
    /// straddles the `root` bits) holds that literal alone, and the others no
    /// literal at all.
    fn check_primary(lens: &[u8], t: &[u32], root: u32) -> usize {
        let mut pairs = 0;
        for i in 0..1u32 << root {
            let e = t[i as usize];
            // Bits past the index are unknown: try zeros and ones.
            for high in [0u32, !0 << root] {
                let bits = i | high;
                let Some((s1, l1)) = first_symbol(lens, bits) else { panic!("{lens:?}: index {i} decodes to nothing") };
                if s1 >= 256 || l1 > root {
                    assert_eq!(e & LIT, 0, "{lens:?}: index {i} starts with symbol {s1} ({l1} bits): {e:#x}");
                    continue;
                }
                let second = first_symbol(lens, bits >> l1);
                match second {
                    Some((s2, l2)) if s2 < 256 && l1 + l2 <= root => {
                        assert_eq!(
                            e,
                            LIT | PAIR | (s2 as u32) << 16 | (s1 as u32) << 8 | (l1 + l2),
                            "{lens:?}: index {i}"
                        );
                    }
                    _ => assert_eq!(e, LIT | ONE | (s1 as u32) << 8 | l1, "{lens:?}: index {i}"),
                }
            }
            pairs += (e & (LIT | PAIR) == LIT | PAIR) as usize;
        }
        pairs
    }

    #[test]
    fn literal_pairs_fill_exactly_the_indices_that_start_with_two_literals() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut pairs = 0;
        for round in 0..300 {
            // Few codes (short ones, so many pairs) to many (long ones,
            // subtables); the lengths spread over literals, end of block and
            // lengths so that a second symbol is often not a literal.
            let n = 2 + (round * 7) % 120;
            let code = random_complete(n, &mut seed);
            let mut lens = [0u8; 288];
            let mut syms: Vec<usize> = (0..286).collect();
            for (k, &l) in code.iter().enumerate() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let j = k + (seed % (syms.len() - k) as u64) as usize;
                syms.swap(k, j);
                lens[syms[k]] = l;
            }
            // Both primary table sizes, with one distance code.
            let mut t = Tables::new_boxed();
            t.lens[..286].copy_from_slice(&lens[..286]);
            t.lens[286] = 1;
            for root in [LITLEN_SMALL_BITS, LITLEN_BITS] {
                t.build_codes(286, 287, root).unwrap();
                pairs += check_primary(&lens[..286], &t.litlen, root);
            }
        }
        assert!(pairs > 10_000, "too few pairs to test: {pairs}");
        // The fixed code: literals of 8 and 9 bits never pair.
        let mut t = Tables::new_boxed();
        t.load_fixed();
        let mut lens = [0u8; 288];
        lens[..144].fill(8);
        lens[144..256].fill(9);
        lens[256..280].fill(7);
        lens[280..].fill(8);
        assert_eq!(check_primary(&lens, &t.litlen, LITLEN_BITS), 0);
    }

    /// Every primary entry of a literal/length table after
    /// `combine_matches`, against the codes: an index that starts with a
    /// length code, its extra bits, and a whole distance code of a valid
    /// symbol, all within the primary bits (the distance code within its
    /// table's primary bits too), holds both (LD), with the distance code's
    /// table index; no other index does.
    fn check_combined(lit: &[u8], dist: &[u8], t: &[u32], d: &[u32], root: u32) -> usize {
        let mut combined = 0;
        for i in 0..1u32 << root {
            let e = t[i as usize];
            let is_ld = e & (LD | EXC) == LD;
            for high in [0u32, !0 << root] {
                let bits = i | high;
                let (s1, l1) = first_symbol(lit, bits).unwrap();
                let want = (257..286).contains(&s1).then(|| {
                    let t1 = l1 + LEN_EXTRA_BITS[s1 - 257] as u32;
                    let len = LEN_BASE[s1 - 257] as u32 + (bits >> l1 & ((1 << (t1 - l1)) - 1));
                    (t1, len)
                });
                let want = want.and_then(|(t1, len)| {
                    let (s2, l2) = first_symbol(dist, bits >> t1)?;
                    (root == LITLEN_BITS && t1 + l2 <= root && l2 <= DIST_BITS && s2 < 30).then_some((t1, len, s2, l2))
                });
                match want {
                    Some((t1, len, s2, l2)) => {
                        let idx = bits >> t1 & ((1 << l2) - 1);
                        let total = t1 + l2 + DIST_EXTRA[s2] as u32;
                        assert_eq!(e, LD | len << 17 | idx << 9 | t1 << 5 | total, "index {i}");
                        assert_eq!(d[idx as usize] >> 16, DIST_BASE[s2] as u32, "index {i}");
                    }
                    None => assert!(!is_ld, "index {i}: {e:#x}"),
                }
            }
            combined += is_ld as usize;
        }
        combined
    }

    #[test]
    fn combined_entries_hold_exactly_a_length_and_a_distance_code() {
        let mut seed = 0x0DDB_1A5E_5BAD_5EEDu64;
        let mut combined = 0;
        for round in 0..200 {
            let n = 2 + (round * 13) % 120;
            let code = random_complete(n.max(30), &mut seed);
            let mut lit = [0u8; 286];
            // The first codes go to end of block and the length symbols.
            for (k, &l) in code.iter().enumerate() {
                lit[if k < 30 { 256 + k } else { k - 30 }] = l;
            }
            let nd = 1 + round % 32;
            let mut dist = vec![0u8; 32];
            if nd == 1 {
                dist[(round * 7) % 32] = 1;
            } else {
                for (k, &l) in random_complete(nd, &mut seed).iter().enumerate() {
                    dist[(k * 7 + round) % 32] = l;
                }
            }
            // Distance symbols 30 and 31 (of the fixed code) take part but
            // never combine. Both primary table sizes (the smaller never
            // combines).
            let mut t = Tables::new_boxed();
            t.lens[..286].copy_from_slice(&lit);
            t.lens[286..318].copy_from_slice(&dist);
            for root in [LITLEN_SMALL_BITS, LITLEN_BITS] {
                t.build_codes(286, 318, root).unwrap();
                combined += check_combined(&lit, &dist, &t.litlen, &t.dist, root);
            }
        }
        assert!(combined > 10_000, "too few combined entries to test: {combined}");
    }

    #[test]
    fn random_complete_codes_fit_their_tables() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for round in 0..3000 {
            let n = 2 + round % 287;
            let lens = random_complete(n, &mut seed);
            let r = table_for(&lens, Kind::Litlen);
            assert!(r.is_ok(), "{lens:?}: {r:?}");
            let lens = random_complete(2 + round % 31, &mut seed);
            let r = table_for(&lens, Kind::Dist);
            assert!(r.is_ok(), "{lens:?}: {r:?}");
        }
    }
}
