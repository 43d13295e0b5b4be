//! Tokenized (FORMAT.md section 6): values as token ids of a BPE
//! tokenizer, with bytes the vocab cannot express carried as escapes.
//!
//! ```text
//! representation u8, boundaries u8, V u32, T u32, E u32, L u32,
//! L x u16 table, V x u32 boundaries, id stream, E escape bytes
//! ```

use super::bits::MsbBits;
use super::{count_mismatch, offsets_for, offsets_in, put, refill, stream_reader, string_storage, Work, SLACK};
use crate::bytes::{bits_needed, le_u32s};
use crate::column::Values;
use crate::error::{corrupt_chunk, try_room, Result};
use crate::tokenizer::Tokenizer;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdRepresentation {
    /// T x uint16.
    Raw,
    /// LEB128 indices into a table of distinct ids, most frequent first.
    Remap,
    /// Ids packed at the width of the largest id, MSB first.
    Bits,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Boundaries {
    Counts,
    Offsets,
    Deltas,
}

impl IdRepresentation {
    pub fn name(self) -> &'static str {
        match self {
            IdRepresentation::Raw => "Raw",
            IdRepresentation::Remap => "Remap",
            IdRepresentation::Bits => "Bits",
        }
    }
}

impl Boundaries {
    pub fn name(self) -> &'static str {
        match self {
            Boundaries::Counts => "Counts",
            Boundaries::Offsets => "Offsets",
            Boundaries::Deltas => "Deltas",
        }
    }
}

/// The parsed layout of a tokenized stream, borrowed from it.
pub struct TokenizedLayout<'a> {
    pub representation: IdRepresentation,
    pub boundaries: Boundaries,
    pub values: usize,
    pub tokens: usize,
    pub escapes: usize,
    table: &'a [u8],
    boundary_stream: &'a [u8],
    pub id_stream: &'a [u8],
    pub escape_bytes: &'a [u8],
}

impl<'a> TokenizedLayout<'a> {
    pub fn parse(stream: &'a [u8]) -> Result<Self> {
        let mut r = stream_reader(stream);
        let representation = match r.u8("id representation")? {
            0 => IdRepresentation::Raw,
            1 => IdRepresentation::Remap,
            2 => IdRepresentation::Bits,
            t => return Err(corrupt_chunk(format!("unknown tokenized id representation {t}"))),
        };
        let boundaries = match r.u8("boundary layout")? {
            0 => Boundaries::Counts,
            1 => Boundaries::Offsets,
            2 => Boundaries::Deltas,
            t => return Err(corrupt_chunk(format!("unknown tokenized boundary layout {t}"))),
        };
        let values = r.len32("value count")?;
        let tokens = r.len32("token count")?;
        let escapes = r.len32("escape count")?;
        let table_len = r.len32("table length")?;
        let table = r.take_array(table_len, 2, "id table")?;
        let boundary_stream = r.take_array(values, 4, "boundary stream")?;
        let rest = r.rest();
        if escapes > rest.len() {
            return Err(corrupt_chunk(format!(
                "{escapes} escape bytes declared but only {} bytes follow the boundaries",
                rest.len()
            )));
        }
        let (id_stream, escape_bytes) = rest.split_at(rest.len() - escapes);
        Ok(TokenizedLayout {
            representation,
            boundaries,
            values,
            tokens,
            escapes,
            table,
            boundary_stream,
            id_stream,
            escape_bytes,
        })
    }

    pub fn table_len(&self) -> usize {
        self.table.len() / 2
    }

    fn table_entry(&self, i: usize) -> u16 {
        u16::from_le_bytes([self.table[2 * i], self.table[2 * i + 1]])
    }

    /// The Bits layout's id width.
    pub fn bits_width(&self) -> Option<u32> {
        (self.representation == IdRepresentation::Bits && self.table_len() == 1)
            .then(|| bits_needed(self.table_entry(0) as u64))
    }

    /// Token index where each value starts, plus T at the end: V + 1 entries,
    /// checked never to decrease and to end exactly at T.
    pub fn value_starts(&self) -> Result<Vec<u32>> {
        let mut starts = Vec::new();
        self.value_starts_into(&mut starts)?;
        Ok(starts)
    }

    /// [`value_starts`](Self::value_starts) into `starts`' storage.
    pub(crate) fn value_starts_into(&self, starts: &mut Vec<u32>) -> Result<()> {
        let (v, t) = (self.values, self.tokens as u64);
        refill(starts, v + 1, "token boundaries")?;
        // Into entries made first, from the words as an iterator: pushed,
        // each word read through a checked index, the pass took 23
        // instructions a value natively, now 10 (callgrind); the movielens
        // titles' decode 1.15 -> 1.02 ms (fastest of 15 alternating runs).
        starts.resize(v, 0);
        let words = le_u32s(self.boundary_stream).map(u64::from);
        let mut pos = 0u64;
        let mut count = 0i64;
        for (i, (s, u)) in starts.iter_mut().zip(words).enumerate() {
            *s = pos as u32;
            match self.boundaries {
                Boundaries::Counts => pos += u,
                Boundaries::Offsets => {
                    if (i == 0 && u != 0) || u < pos || u > t {
                        return Err(corrupt_chunk(format!(
                            "token offset {u} of value {i} is out of order or past {t} tokens"
                        )));
                    }
                    *s = u as u32;
                    pos = u;
                }
                Boundaries::Deltas => {
                    count += (u >> 1) as i64 ^ -((u & 1) as i64);
                    if count < 0 {
                        return Err(corrupt_chunk(format!("token count of value {i} decodes below zero")));
                    }
                    pos += count as u64;
                }
            }
            if pos > t {
                return Err(corrupt_chunk(format!("value {i} ends at token {pos}, past the {t} tokens")));
            }
        }
        if self.boundaries != Boundaries::Offsets && pos != t {
            return Err(corrupt_chunk(format!("token counts sum to {pos}, the chunk holds {t} tokens")));
        }
        if v == 0 && t != 0 {
            return Err(corrupt_chunk(format!("{t} tokens but no values")));
        }
        starts.push(t as u32);
        Ok(())
    }

    /// The id stream resolved to ids, checked against its representation,
    /// into `ids`' storage (`table`: storage for a Remap table).
    fn ids_into(&self, ids: &mut Vec<u16>, table: &mut Vec<u16>) -> Result<()> {
        let t = self.tokens;
        match self.representation {
            IdRepresentation::Raw => {
                if self.table_len() != 0 {
                    return Err(corrupt_chunk("Raw ids with a non-empty table"));
                }
                if self.id_stream.len() as u64 != 2 * t as u64 {
                    return Err(corrupt_chunk(format!(
                        "{t} Raw ids need {} bytes, found {}",
                        2 * t as u64,
                        self.id_stream.len()
                    )));
                }
                refill(ids, t, "token ids")?;
                ids.extend(self.id_stream.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])));
                Ok(())
            }
            IdRepresentation::Remap => {
                // Every varint takes at least a byte, which bounds T here.
                if t > self.id_stream.len() {
                    return Err(corrupt_chunk(format!("{t} Remap ids cannot fit in {} bytes", self.id_stream.len())));
                }
                refill(table, self.table_len(), "id table")?;
                table.extend(self.table.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])));
                let s = self.id_stream;
                // Tables of at most 2^14 entries (every one the titles make)
                // need no varint over two bytes: those streams go eight
                // bytes a step with no chain from one varint to the next,
                // then through the table. Anything else, a malformed stream
                // among them, takes the general path below, which finds
                // its error as it always did.
                if table.len() <= 1 << 14 {
                    refill(ids, t.saturating_add(8), "token ids")?;
                    ids.resize(t.saturating_add(8), 0);
                    if two_byte_indices(s, t, ids) {
                        ids.truncate(t);
                        // One pass: a flag, not an early return, keeps the
                        // loop free of exits (3% faster than a separate
                        // pass for the largest index).
                        let mut outside = false;
                        for id in ids.iter_mut() {
                            match table.get(*id as usize) {
                                Some(&x) => *id = x,
                                None => outside = true,
                            }
                        }
                        if !outside {
                            return Ok(());
                        }
                    }
                }
                refill(ids, t, "token ids")?;
                ids.resize(t, 0);
                let mut p = 0usize;
                let mut k = 0usize;
                while k < t {
                    if let Some(&b) = s.get(p..).and_then(|s| s.first_chunk::<8>()) {
                        // As one 8-byte array: from separate bytes, LLVM kept
                        // byte loads that wasm does one by one.
                        let x = u64::from_le_bytes(b);
                        // Each varint's end (the bit after its terminator;
                        // 65 past the word's last) from the terminator bits:
                        // four varints of up to three bytes from one load, no
                        // chain from one length to the next load but one per
                        // four (one at a time, that chain bound the loop).
                        let m = !x & 0x8080_8080_8080_8080;
                        let next = |m: u64| m & m.wrapping_sub(1);
                        let (m1, m2) = (next(m), next(next(m)));
                        let ends = [m, m1, m2, next(m2)].map(|m| m.trailing_zeros() + 1);
                        if let Some(out) = ids.get_mut(k..k + 4) {
                            let (mut start, mut long) = (0, ends[3] > 64);
                            let mut idx = [0u64; 4];
                            for (i, &end) in idx.iter_mut().zip(&ends) {
                                long |= end - start > 24;
                                *i = short_varint(x.wrapping_shr(start));
                                start = end;
                            }
                            if !long {
                                for (j, (slot, &i)) in out.iter_mut().zip(&idx).enumerate() {
                                    *slot = remap(table, i, k + j)?;
                                }
                                k += 4;
                                p += (start / 8) as usize;
                                continue;
                            }
                        }
                    }
                    // Near the end, or a varint of four bytes or more.
                    let (i, end) = varint(s, p, k)?;
                    p = end;
                    if let Some(slot) = ids.get_mut(k) {
                        *slot = remap(table, i, k)?;
                    }
                    k += 1;
                }
                if p != s.len() {
                    return Err(corrupt_chunk(format!(
                        "Remap varints end at byte {p} of a {}-byte id stream",
                        s.len()
                    )));
                }
                Ok(())
            }
            IdRepresentation::Bits => {
                let w = self.bits_width().ok_or_else(|| {
                    corrupt_chunk(format!("Bits ids need a 1-entry table, found {}", self.table_len()))
                })?;
                let bits = MsbBits::new(self.id_stream, t, w)?;
                // (A u32: a u16 in the message below would bring its own formatter.)
                let max = u32::from(self.table_entry(0));
                refill(ids, t, "token ids")?;
                if w == 16 {
                    // A vocab over 2^15 ids (GPT-2's and most others): the
                    // ids lie as big-endian u16s (`new` checked the length),
                    // read as Raw's are.
                    ids.extend(self.id_stream.chunks_exact(2).map(|c| u16::from_be_bytes([c[0], c[1]])));
                } else {
                    // Unpacked straight into the ids (no buffer between; the
                    // width is that of a u16, so nothing is cut off), then the
                    // largest checked once, in a pass of its own: a running
                    // largest in the unpacker's closure lived in memory in wasm.
                    ids.resize(t, 0);
                    bits.map_all(ids, |id| id as u16);
                }
                let largest = ids.iter().copied().max().unwrap_or(0) as u32;
                if largest > max {
                    return Err(corrupt_chunk(format!("Bits id {largest} exceeds the declared largest id {max}")));
                }
                Ok(())
            }
        }
    }
}

/// How far the output's first reservation may pass one byte a token (see
/// `decode`): 32 MiB, over 9 million tokens of text at 4 bytes a token,
/// more than the real files' chunks hold.
const GUESS_OVER: usize = 32 << 20;

// Out of line, and kept so by wasm-opt (Cargo.toml): V8 optimizes it on
// its own, sooner than the whole decoder.
#[inline(never)]
pub(super) fn decode(
    n: usize,
    rows: usize,
    stream: &[u8],
    tok: &Tokenizer,
    kept: Option<Values>,
    work: &mut Work,
) -> Result<Values> {
    let layout = TokenizedLayout::parse(stream)?;
    if layout.values != n {
        return Err(count_mismatch("Tokenized stream", layout.values, n));
    }
    let Work { u32s: starts, u32s_b: at, u16s: ids, u16s_b: id_table, .. } = work;
    layout.value_starts_into(starts)?;
    layout.ids_into(ids, id_table)?;
    let (starts, ids) = (&starts[..], &ids[..]);
    let escape = tok.escape_id();
    let (table, bytes) = tok.spans();

    // One pass over the tokens: each token's bytes as one fixed SLACK-byte
    // move when short (the tokenizer's bytes carry SLACK bytes of padding
    // too), and where each token's bytes begin (T + 1 entries), so that the
    // values' ends are read off them (no loop over each value's tokens,
    // whose varying count cost a mispredicted branch per value). The
    // output starts at a guess (4 bytes a token; the titles take 3.4) and,
    // when a token would pass its end, grows to the exact size of the rest
    // (a pass over the tokens left, then only). Anything else (an escape, a
    // long token, an undefined id, no room) goes through `odd_token`. One
    // pass instead of a sizing pass then a copy pass: the span of each
    // token is looked up once.
    //
    // Both outputs are written where their room lies unfilled (no zeroing
    // pass first): `data` keeps length 0 and its capacity is the room,
    // every byte before `w` written; `at` gets its length once all T + 1
    // entries are.
    refill(at, ids.len() + 1, "token boundaries")?;
    let at_room = at.spare_capacity_mut().get_mut(..ids.len() + 1).unwrap_or_default();
    if at_room.len() != ids.len() + 1 {
        return Err(corrupt_chunk("internal: no room for the token boundaries"));
    }
    let (offsets, mut data) = string_storage(kept);
    let mut offsets = offsets_in(offsets, n, rows)?;
    // Never past u32::MAX bytes, so no token's end passes it either. Every
    // token is at least one byte, so the guess is at most GUESS_OVER bytes
    // more than one a token: 4 bytes a token reserved up to 3 GB more than
    // the 1-byte tokens a 33 KB file can declare (0-bit ids); real text
    // that passes it grows once, to its exact size.
    let t = ids.len();
    let guess = t.saturating_mul(4).min(t.saturating_add(GUESS_OVER)).saturating_add(SLACK).min(u32::MAX as usize);
    refill(&mut data, guess, "string data")?;
    let mut odd = Odd { esc: layout.escape_bytes.iter(), short: false };
    let (mut k, mut w) = (0usize, 0usize);
    loop {
        (k, w) = copy_short(ids, at_room, table, bytes, data.spare_capacity_mut(), k, w);
        let (Some(&id), Some(a)) = (ids.get(k), at_room.get_mut(k)) else { break };
        a.write(w as u32);
        let (s, l) = token_span(table, id);
        let rest = Tokens { ids: ids.get(k..).unwrap_or_default(), table };
        match odd_token(&mut data, w, id, s, l, bytes, escape, &mut odd, rest) {
            Ok(end) => w = end,
            Err(Some(e)) => return Err(e),
            Err(None) => return Err(sizing_error(ids, table, escape, layout.escapes)),
        }
        k += 1;
    }
    if odd.short || odd.esc.next().is_some() {
        return Err(sizing_error(ids, table, escape, layout.escapes));
    }
    if let Some(last) = at_room.last_mut() {
        last.write(w as u32);
    }
    // SAFETY: the loop ends only at k = T (`at_room` holds T + 1 entries),
    // every token before having had its entry written (by `copy_short` or
    // just above), and entry T was written now; T + 1 <= capacity.
    unsafe { at.set_len(ids.len() + 1) };
    // `value_starts` checked every start to be at most T.
    for &s in starts.get(1..).unwrap_or_default() {
        offsets.push(at.get(s as usize).copied().unwrap_or(0));
    }
    // SAFETY: every byte before `w` is written (`copy_short`'s moves and
    // `odd_token`'s writes, back to back from 0), and w <= capacity.
    unsafe { data.set_len(w) };
    Ok(Values::Bytes { offsets, data })
}

/// The tokens from `ids[k..]` on, while each has 1 to SLACK bytes and
/// `data` has room for a SLACK-byte move at `w`: each token's bytes as one
/// fixed move, where they begin in `at`. Where it stopped (the first token
/// not taken, or the end) and the byte after the last taken. A loop of its
/// own over a slice: in the loop that also grows `data`, wasm32 loaded the
/// Vec's pointer and length from memory on every token. Two tokens a step,
/// by a `move` closure (captured by reference, its values were loaded from
/// the shadow stack): V8's code went from about 45 to 29 instructions a
/// token, the movielens.tokenized decode stage in Node 2.83 -> 2.48 ms.
#[inline(always)]
fn copy_short(
    ids: &[u16],
    at: &mut [core::mem::MaybeUninit<u32>],
    table: &[u32],
    bytes: &[u8],
    data: &mut [core::mem::MaybeUninit<u8>],
    k: usize,
    mut w: usize,
) -> (usize, usize) {
    // A move from `s` stays inside `bytes` when `s < s_end` (s + SLACK <=
    // len, written so that no sum can wrap), one to `w` inside `data` when
    // `w < w_end`.
    let s_end = bytes.len().checked_sub(SLACK).map_or(0, |x| x + 1);
    let w_end = data.len().checked_sub(SLACK).map_or(0, |x| x + 1);
    let (sp, dp) = (bytes.as_ptr(), data.as_mut_ptr().cast::<u8>());
    let (ids, at) = (ids.get(k..).unwrap_or_default(), at.get_mut(k..).unwrap_or_default());
    // One token at `w`: the byte after it, or None when it is not taken.
    let take = move |id: u16, a: &mut core::mem::MaybeUninit<u32>, w: usize| {
        let (s, l) = token_span(table, id);
        if l.wrapping_sub(1) >= SLACK || s >= s_end || w >= w_end {
            return None;
        }
        // `data` is at most u32::MAX bytes (`decode`, `odd_token`), so `w`
        // is too.
        a.write(w as u32);
        // SAFETY: `bytes` and `data` are distinct buffers (one borrowed
        // shared, one mutably); s + SLACK <= bytes.len() and w + SLACK <=
        // data.len(), checked just now.
        unsafe { core::ptr::copy_nonoverlapping(sp.add(s), dp.add(w), SLACK) };
        Some(w + l)
    };
    // Two tokens a step: V8 checks for interrupts, and reloads what it
    // keeps on the stack, once per iteration of a loop.
    let mut i = 0;
    for (&[x, y], [ax, ay]) in ids.as_chunks::<2>().0.iter().zip(at.as_chunks_mut::<2>().0) {
        match take(x, ax, w) {
            Some(end) => w = end,
            None => return (k + i, w),
        }
        match take(y, ay, w) {
            Some(end) => w = end,
            None => return (k + i + 1, w),
        }
        i += 2;
    }
    if let (Some(&id), Some(a)) = (ids.get(i), at.get_mut(i)) {
        match take(id, a, w) {
            Some(end) => (w, i) = (end, i + 1),
            None => return (k + i, w),
        }
    }
    (k + i, w)
}

/// The tokens from the one being written on, and the tokenizer's table.
#[derive(Clone, Copy)]
struct Tokens<'a> {
    ids: &'a [u16],
    table: &'a [u32],
}

/// The escape bytes left to take, and whether the ids asked for more.
struct Odd<'a> {
    esc: core::slice::Iter<'a, u8>,
    short: bool,
}

/// A token the copy loop's fixed move does not take (`s`, `l`: its span):
/// an escape takes its byte, a long token a sized copy, and `data` grows
/// when the token would pass its end, to what `rest` (this token on) needs,
/// exactly (SLACK bytes more): one allocation, however short the guess
/// fell, and a size refused before anything is allocated for it. `data` has length 0, its capacity is the room, and its bytes before
/// `w` are written. The byte after the token; `Err(None)` for an id the tokenizer
/// does not define or an output past the 4 GiB that 32-bit offsets
/// address, `Err(Some)` when the output cannot grow.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn odd_token(
    data: &mut Vec<u8>,
    w: usize,
    id: u16,
    s: usize,
    l: usize,
    bytes: &[u8],
    escape: u32,
    odd: &mut Odd,
    rest: Tokens,
) -> core::result::Result<usize, Option<crate::error::Error>> {
    if l == 0 && id as u32 != escape {
        return Err(None);
    }
    let len = l.max(1);
    let end = w.checked_add(len).filter(|&e| e <= u32::MAX as usize).ok_or(None)?;
    if end + SLACK > data.capacity() {
        // An escape or an undefined id counts one byte (the latter fails
        // later); past u32::MAX bytes, `sizing_error` says too_large. u64:
        // no sum wraps.
        let need = rest.ids.iter().fold(w as u64, |t, &id| t + token_len(rest.table, id).max(1) as u64);
        if need > u32::MAX as u64 {
            return Err(None);
        }
        let grown = usize::try_from(need + SLACK as u64).map_err(|_| None)?;
        // The bytes before `w` move with the buffer only as its length.
        // SAFETY: they are written (the caller's invariant), w <= capacity.
        unsafe { data.set_len(w) };
        let grew = try_room(data, grown - w, "string data");
        data.clear();
        grew.map_err(Some)?;
    }
    let room = data.spare_capacity_mut();
    if l == 0 {
        let b = odd.esc.next().copied();
        odd.short |= b.is_none();
        room.get_mut(w).ok_or(None)?.write(b.unwrap_or(0));
    } else if !bytes.get(s..s + l).is_some_and(|b| put(room, w, b)) {
        return Err(None);
    }
    Ok(end)
}

/// The error the token ids give, found as a sizing pass would: the first
/// undefined id, else escapes that do not match the escape bytes, else an
/// output past 4 GiB. Called only once the copy loop met one of them.
#[cold]
#[inline(never)]
fn sizing_error(ids: &[u16], table: &[u32], escape: u32, declared: usize) -> crate::error::Error {
    let (mut total, mut escapes) = (0u64, 0usize);
    for &id in ids {
        let len = token_len(table, id);
        if len == 0 {
            if id as u32 != escape {
                return undefined_id(ids, table, escape);
            }
            escapes += 1;
            total += 1;
        }
        total += len as u64;
    }
    if escapes == declared {
        if let Err(e) = offsets_for(total) {
            return e;
        }
    }
    // The counts differ here: the copy stops only for one of the three.
    corrupt_chunk(format!("ids use {escapes} escapes but the stream carries {declared} escape bytes"))
}

/// The error for the first token whose id has no bytes and is not the
/// escape id.
#[cold]
#[inline(never)]
fn undefined_id(ids: &[u16], table: &[u32], escape: u32) -> crate::error::Error {
    // The caller saw one, so the search finds it.
    let (k, id) =
        ids.iter().enumerate().find(|&(_, &id)| token_len(table, id) == 0 && id as u32 != escape).unwrap_or((0, &0));
    let id = u32::from(*id);
    corrupt_chunk(format!("token {k} has id {id}, which the tokenizer does not define (escape id {escape})"))
}

/// Exactly `t` LEB128 varints of at most two bytes each, written to
/// `ids[..t]` as they are (not through the table); false for any other
/// stream. `ids` must hold `t + 8` (each step writes 8 slots).
///
/// Eight stream bytes a step, and nothing carried from one step to the
/// next but the output position and the word's last byte: each byte's lane
/// holds the value of the varint it would end (its own 7 bits, above those
/// of the byte before when that one continues into it), stored at the slot
/// of its rank among the word's terminators. A continuation byte writes its
/// varint's slot first and the terminator after it overwrites that, in
/// this word or the next. (In wasm32, the SIMD128 form below; on x86_64
/// with SSSE3, its form there.)
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn two_byte_indices(s: &[u8], t: usize, ids: &mut [u16]) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        let ssse3 = std::is_x86_feature_detected!("ssse3");
        #[cfg(test)]
        let ssse3 = ssse3 && !tests::SCALAR.get();
        if ssse3 {
            // SAFETY: the CPU has SSSE3 (checked just now).
            return unsafe { two_byte_indices_ssse3(s, t, ids) };
        }
    }
    two_byte_indices_scalar(s, t, ids)
}

/// [`two_byte_indices`] eight bytes a step in a u64, for any CPU.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn two_byte_indices_scalar(s: &[u8], t: usize, ids: &mut [u16]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const EVEN: u64 = 0x00ff_00ff_00ff_00ff;
    let (mut k, mut prev, mut long) = (0usize, 0u64, 0u64);
    let words = s.chunks_exact(8);
    let tail = words.remainder();
    // `real`: the word's bytes from the stream (the rest, zeros, count no
    // terminators).
    let mut step = |x: u64, real: u32, k: &mut usize| -> bool {
        let Some(out) = ids.get_mut(*k..).and_then(|o| o.first_chunk_mut::<8>()) else { return false };
        // 0xff in the lanes that continue, and in those the lane before
        // continues into.
        let cont = (x >> 7 & ONES) * 0xff;
        let into = (cont << 8) | ((prev >> 7) * 0xff);
        long |= cont & into;
        let bits = x & 0x7f7f_7f7f_7f7f_7f7f;
        let low = (bits << 8 | (prev & 0x7f)) & into | bits & !into;
        let high = bits & into;
        let even = (low & EVEN) | (high & EVEN) << 7;
        let odd = (low >> 8 & EVEN) | (high >> 8 & EVEN) << 7;
        let ends = !x >> 7 & ONES;
        // Byte i of `rank`: the terminators before lane i (at most 7).
        let rank = ends.wrapping_mul(ONES) << 8;
        for i in 0..4 {
            out[(rank >> (16 * i) & 7) as usize] = (even >> (16 * i)) as u16;
            out[(rank >> (16 * i + 8) & 7) as usize] = (odd >> (16 * i)) as u16;
        }
        let ends = ends & u64::MAX >> (64 - 8 * real);
        *k += (ends.wrapping_mul(ONES) >> 56) as usize;
        prev = x >> 56;
        true
    };
    for w in words {
        if !step(u64::from_le_bytes(w.try_into().unwrap_or_default()), 8, &mut k) {
            return false;
        }
    }
    if !tail.is_empty() {
        let mut b = [0u8; 8];
        b[..tail.len()].copy_from_slice(tail);
        if !step(u64::from_le_bytes(b), tail.len() as u32, &mut k) {
            return false;
        }
    }
    long == 0 && s.last().is_none_or(|&b| b < 0x80) && k == t
}

/// For the SIMD forms of [`two_byte_indices`]: table[m] holds the byte
/// indices that bring the u16 lanes set in `m` to the front, in order (the
/// rest zeros: those slots are overwritten later or lie past T). Natively
/// a static ([`PACK`]); in wasm32 built per call instead (as a static, 4
/// KB more in the .wasm, against 2,048 small steps per chunk).
#[cfg(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128")))]
const fn pack_table() -> [[u8; 16]; 256] {
    let mut pack = [[0u8; 16]; 256];
    let mut m = 0;
    while m < 256 {
        let (mut i, mut j) = (0u8, 0);
        while i < 8 {
            if m >> i & 1 == 1 {
                pack[m][2 * j] = 2 * i;
                pack[m][2 * j + 1] = 2 * i + 1;
                j += 1;
            }
            i += 1;
        }
        m += 1;
    }
    pack
}

#[cfg(target_arch = "x86_64")]
static PACK: [[u8; 16]; 256] = pack_table();

/// [`two_byte_indices`] with SSSE3, sixteen stream bytes a step, as the
/// SIMD128 form below: each byte's u16 lane holds the value of the varint
/// it would end (the byte before from `palignr` with the previous block),
/// the terminators' lanes are packed to the front of each half by a
/// `pshufb` through [`PACK`], stored eight slots at a time, and the
/// position moves on by their count. On the titles' Remap chunks 17 M
/// instructions (callgrind) where the scalar form took 43 M.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "ssse3")]
fn two_byte_indices_ssse3(s: &[u8], t: usize, ids: &mut [u16]) -> bool {
    use core::arch::x86_64::{
        __m128i, _mm_alignr_epi8, _mm_and_si128, _mm_andnot_si128, _mm_cmplt_epi8, _mm_loadu_si128, _mm_movemask_epi8,
        _mm_or_si128, _mm_set1_epi8, _mm_setzero_si128, _mm_shuffle_epi8, _mm_slli_epi16, _mm_srli_epi16,
        _mm_storeu_si128, _mm_unpackhi_epi8, _mm_unpacklo_epi8,
    };
    let (mut k, mut long, mut prev) = (0usize, 0u32, _mm_setzero_si128());
    let (seven, six, top, zero) = (_mm_set1_epi8(0x7f), _mm_set1_epi8(0x3f), _mm_set1_epi8(-0x80), _mm_setzero_si128());
    let mut pad = [0u8; 16];
    for c in s.chunks(16) {
        let b = if c.len() == 16 {
            c
        } else {
            pad[..c.len()].copy_from_slice(c);
            &pad[..]
        };
        // SAFETY: `b` is 16 bytes; `loadu` needs no alignment.
        let v = unsafe { _mm_loadu_si128(b.as_ptr().cast::<__m128i>()) };
        // Lane i: the byte before byte i (the previous block's last for 0).
        let before = _mm_alignr_epi8::<15>(v, prev);
        prev = v;
        let cont = _mm_movemask_epi8(v) as u32;
        long |= cont & _mm_movemask_epi8(before) as u32;
        // Terminators among the bytes from the stream (the padding, zeros,
        // counts none).
        let ends = !cont & ((1u32 << c.len()) - 1);
        // 0xff in the lanes the byte before continues into. There a lane's
        // low byte is the byte before's 7 bits under this byte's lowest
        // bit, its high byte this byte's other six bits; elsewhere the low
        // byte is this byte's 7 bits, the high byte zero. (16-bit shifts:
        // the bits they move across bytes are masked off.)
        let into = _mm_cmplt_epi8(before, zero);
        let joined = _mm_or_si128(_mm_and_si128(before, seven), _mm_and_si128(_mm_slli_epi16::<7>(v), top));
        let low = _mm_or_si128(_mm_and_si128(into, joined), _mm_andnot_si128(into, _mm_and_si128(v, seven)));
        let high = _mm_and_si128(into, _mm_and_si128(_mm_srli_epi16::<1>(v), six));
        for (value, m) in [(_mm_unpacklo_epi8(low, high), ends & 0xff), (_mm_unpackhi_epi8(low, high), ends >> 8)] {
            // Past `ids`: more varints than T.
            let Some(out) = ids.get_mut(k..).and_then(|o| o.first_chunk_mut::<8>()) else { return false };
            let p = &PACK[m as usize & 0xff];
            // SAFETY: `p` is 16 bytes and `out` eight u16s, 16 bytes;
            // `loadu` and `storeu` need no alignment.
            unsafe {
                let p = _mm_loadu_si128(p.as_ptr().cast::<__m128i>());
                _mm_storeu_si128(out.as_mut_ptr().cast::<__m128i>(), _mm_shuffle_epi8(value, p));
            }
            k += m.count_ones() as usize;
        }
    }
    long == 0 && s.last().is_none_or(|&b| b < 0x80) && k == t
}

/// [`two_byte_indices`] in wasm32 with SIMD128: sixteen stream bytes a
/// step. Each byte's 16-bit lane holds the value of the varint it would
/// end (its 7 bits, over those of the byte before when that one continues
/// into it: the byte before from a shuffle with the previous block); the
/// lanes of the terminators are then packed to the front of each half
/// with one swizzle from a table of the 256 masks of eight lanes, stored
/// eight slots at a time, and the position moves on by their count. The
/// scalar form's rank-scatter stores (eight a word) and its closure's
/// state in memory cost wasm ~1.4 ns a token.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn two_byte_indices(s: &[u8], t: usize, ids: &mut [u16]) -> bool {
    use core::arch::wasm32::{
        i16x8_extend_high_i8x16, i16x8_extend_low_i8x16, i16x8_shl, i8x16_bitmask, i8x16_shr, i8x16_shuffle,
        i8x16_splat, i8x16_swizzle, u16x8_extend_high_u8x16, u16x8_extend_low_u8x16, v128, v128_and, v128_bitselect,
        v128_load, v128_or, v128_store,
    };
    // Built here, once per chunk (see `pack_table`).
    let pack = pack_table();
    let (mut k, mut long, mut prev) = (0usize, 0u32, i8x16_splat(0));
    // One loop for the whole blocks and the last, zero-padded one (one
    // copy of the step: the package is near its size budget).
    let mut pad = [0u8; 16];
    for c in s.chunks(16) {
        let b = if c.len() == 16 {
            c
        } else {
            pad[..c.len()].copy_from_slice(c);
            &pad[..]
        };
        // SAFETY: `b` is 16 bytes; wasm loads need no alignment.
        let v = unsafe { v128_load(b.as_ptr().cast::<v128>()) };
        // Lane i: the byte before byte i (the previous block's last for 0).
        let before = i8x16_shuffle::<15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30>(prev, v);
        prev = v;
        let cont = i8x16_bitmask(v) as u32;
        long |= cont & i8x16_bitmask(before) as u32;
        // Terminators among the bytes from the stream (the padding, zeros,
        // counts none).
        let ends = !cont & ((1u32 << c.len()) - 1);
        let seven = i8x16_splat(0x7f);
        let (cur, bef) = (v128_and(v, seven), v128_and(before, seven));
        // 0xff in the lanes the byte before continues into.
        let into = i8x16_shr(before, 7);
        let halves = [
            (u16x8_extend_low_u8x16(cur), u16x8_extend_low_u8x16(bef), i16x8_extend_low_i8x16(into), ends & 0xff),
            (u16x8_extend_high_u8x16(cur), u16x8_extend_high_u8x16(bef), i16x8_extend_high_i8x16(into), ends >> 8),
        ];
        for (c, b, i, m) in halves {
            let value = v128_bitselect(v128_or(i16x8_shl(c, 7), b), c, i);
            // Past `ids`: more varints than T.
            let Some(out) = ids.get_mut(k..).and_then(|o| o.first_chunk_mut::<8>()) else { return false };
            // SAFETY: `pack[m]` is 16 bytes (m < 256: eight bits) and `out`
            // eight u16s, 16 bytes; wasm loads and stores need no alignment.
            unsafe {
                let p = v128_load(pack[m as usize & 0xff].as_ptr().cast::<v128>());
                v128_store(out.as_mut_ptr().cast::<v128>(), i8x16_swizzle(value, p));
            }
            k += m.count_ones() as usize;
        }
    }
    long == 0 && s.last().is_none_or(|&b| b < 0x80) && k == t
}

/// The varint of at most three bytes at the bottom of `x` (little-endian),
/// continuation bits taken as they are: bytes past the terminator drop out.
#[inline(always)]
fn short_varint(x: u64) -> u64 {
    let c0 = x >> 7 & 1;
    let c1 = x >> 15 & c0;
    (x & 0x7f) | ((x >> 1 & 0x3f80) * c0) | ((x >> 2 & 0x1f_c000) * c1)
}

/// The id at Remap index `idx` of token `k`.
#[inline(always)]
fn remap(table: &[u16], idx: u64, k: usize) -> Result<u16> {
    // Through try_from: on wasm32 a 35-bit index must not wrap into range.
    match usize::try_from(idx).ok().and_then(|i| table.get(i)) {
        Some(&id) => Ok(id),
        None => Err(remap_range(idx, k, table.len())),
    }
}

#[cold]
#[inline(never)]
fn remap_range(idx: u64, k: usize, len: usize) -> crate::error::Error {
    corrupt_chunk(format!("Remap index {idx} of token {k} is outside the {len}-entry table"))
}

/// The LEB128 varint at `s[p..]`, at most 5 bytes, and the byte after it
/// (returned, not written through a reference: a position whose address
/// is taken lives in memory in wasm).
fn varint(s: &[u8], mut p: usize, k: usize) -> Result<(u64, usize)> {
    let mut idx = 0u64;
    let mut shift = 0;
    loop {
        let b = *s.get(p).ok_or_else(|| corrupt_chunk(format!("Remap id stream ends inside token {k}")))?;
        p += 1;
        idx |= ((b & 0x7f) as u64) << shift;
        if b & 0x80 == 0 {
            return Ok((idx, p));
        }
        shift += 7;
        if shift > 28 {
            return Err(corrupt_chunk(format!("Remap varint of token {k} is longer than 5 bytes")));
        }
    }
}

/// Token `id`'s (start, length) in the tokenizer's bytes; length 0 for an
/// id the vocab does not define (the escape id among them).
#[inline(always)]
fn token_span(starts: &[u32], id: u16) -> (usize, usize) {
    // One bounds check for both ends.
    match starts.get(id as usize..id as usize + 2) {
        Some(&[a, b]) => (a as usize, b.wrapping_sub(a) as usize),
        _ => (0, 0),
    }
}

#[inline(always)]
fn token_len(starts: &[u32], id: u16) -> usize {
    token_span(starts, id).1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::testkit::{damage, flatten, pack_msb, read_msb, Rng, Verdicts};
    use crate::error::ErrorKind;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[cfg(target_arch = "x86_64")]
    thread_local! {
        /// Set by a test to run `two_byte_indices`' scalar form on a CPU
        /// with SSSE3, in this thread.
        pub(super) static SCALAR: core::cell::Cell<bool> = const { core::cell::Cell::new(false) };
    }

    type TwoByte = fn(&[u8], usize, &mut [u16]) -> bool;

    /// The forms of `two_byte_indices` this build and CPU have, named:
    /// natively the scalar one and, with SSSE3, that one; in wasm32 the
    /// SIMD128 one.
    fn two_byte_forms() -> Vec<(&'static str, TwoByte)> {
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        let forms: Vec<(&str, TwoByte)> = vec![("simd128", two_byte_indices)];
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        #[allow(unused_mut)]
        let mut forms: Vec<(&str, TwoByte)> = vec![("scalar", two_byte_indices_scalar)];
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("ssse3") {
            // SAFETY: the CPU has SSSE3 (checked just now).
            forms.push(("ssse3", |s, t, ids| unsafe { two_byte_indices_ssse3(s, t, ids) }));
        }
        forms
    }

    /// Runs `f` once per form of `two_byte_indices`, `decode` taking that
    /// form (natively, on a CPU with SSSE3, scalar then SSSE3).
    fn each_two_byte_form(mut f: impl FnMut(&str)) {
        #[cfg(target_arch = "x86_64")]
        for (name, scalar) in [("scalar", true), ("ssse3", false)] {
            if !scalar && !std::is_x86_feature_detected!("ssse3") {
                continue;
            }
            SCALAR.set(scalar);
            f(name);
            SCALAR.set(false);
        }
        #[cfg(not(target_arch = "x86_64"))]
        f("the only form");
    }

    /// A BPE tokenizer.json of ASCII tokens (each character is its own
    /// byte in the byte-level alphabet), with ids left undefined here and
    /// there, and the bytes of each id.
    fn tokenizer(rng: &mut Rng, size: usize) -> (Tokenizer, Vec<Option<Vec<u8>>>) {
        let mut vocab = vec![None; size];
        let mut json = String::from(r#"{"model":{"type":"BPE","vocab":{"#);
        let mut first = true;
        for (id, slot) in vocab.iter_mut().enumerate() {
            if id + 1 < size && rng.below(10) == 0 {
                continue; // undefined (the largest id is always defined)
            }
            let len = if rng.below(6) == 0 { 14 + rng.below(30) } else { 1 + rng.below(6) };
            // Unique: the id in letters, then random letters.
            let mut t: Vec<u8> = format!("{id}").bytes().map(|b| b'g' + (b - b'0')).collect();
            t.push(b'.');
            t.extend((0..len).map(|_| b'a' + rng.below(26) as u8));
            if !first {
                json.push(',');
            }
            first = false;
            json.push_str(&format!("\"{}\":{id}", String::from_utf8(t.clone()).unwrap()));
            *slot = Some(t);
        }
        json.push_str("}}}");
        (Tokenizer::from_json(json.as_bytes()).unwrap(), vocab)
    }

    /// A payload in layout (`rep`, `bounds`) for per-value ids and escapes
    /// (`overlong`: Remap varints now and then longer than they need be).
    fn write(rep: u8, bounds: u8, values: &[Vec<u16>], escapes: &[u8], overlong: bool) -> Vec<u8> {
        let flat: Vec<u16> = values.iter().flatten().copied().collect();
        let (mut table, mut ids) = (Vec::<u16>::new(), Vec::new());
        match rep {
            0 => flat.iter().for_each(|i| ids.extend_from_slice(&i.to_le_bytes())),
            1 => {
                let mut count = std::collections::BTreeMap::<u16, usize>::new();
                flat.iter().for_each(|&i| *count.entry(i).or_default() += 1);
                let mut distinct: Vec<u16> = count.keys().copied().collect();
                distinct.sort_by_key(|x| std::cmp::Reverse(count[x]));
                let index: std::collections::BTreeMap<u16, u32> =
                    distinct.iter().enumerate().map(|(k, &i)| (i, k as u32)).collect();
                for (k, i) in flat.iter().enumerate() {
                    let mut x = index[i];
                    // Now and then a longer encoding than needed (1 to 5
                    // bytes in all): readers take any LEB128 of 5 bytes or less.
                    let mut pad: u32 =
                        if overlong { [0, 0, 0, 0, 0, 0, 1, 2, 3, 4][(k * 7 + flat.len()) % 10] } else { 0 };
                    while x >= 0x80 || pad > 0 {
                        ids.push(x as u8 | 0x80);
                        x >>= 7;
                        pad = pad.saturating_sub(1);
                        if x == 0 && pad == 0 {
                            break;
                        }
                    }
                    ids.push(x as u8);
                }
                table = distinct;
            }
            _ => {
                let max = flat.iter().copied().max().unwrap_or(0);
                let w = 32 - (max as u32).leading_zeros();
                ids = pack_msb(&flat.iter().map(|&i| i as u32).collect::<Vec<_>>(), w);
                table = vec![max];
            }
        }
        let mut s = vec![rep, bounds];
        for x in [values.len(), flat.len(), escapes.len(), table.len()] {
            s.extend_from_slice(&(x as u32).to_le_bytes());
        }
        table.iter().for_each(|t| s.extend_from_slice(&t.to_le_bytes()));
        let (mut at, mut prev) = (0u32, 0i64);
        for v in values {
            let b = match bounds {
                0 => v.len() as u32,
                1 => at,
                _ => {
                    let d = v.len() as i64 - prev;
                    prev = v.len() as i64;
                    ((d << 1) ^ (d >> 63)) as u32
                }
            };
            at += v.len() as u32;
            s.extend_from_slice(&b.to_le_bytes());
        }
        s.extend(ids);
        s.extend_from_slice(escapes);
        s
    }

    /// The values a plain reading of FORMAT.md section 6 gives, or None
    /// where the payload breaks one of its rules.
    fn reference(s: &[u8], n: usize, vocab: &[Option<Vec<u8>>]) -> Option<Vec<Vec<u8>>> {
        let u32_at = |p: usize| Some(u32::from_le_bytes(s.get(p..p + 4)?.try_into().ok()?) as usize);
        let (rep, bounds) = (*s.first()?, *s.get(1)?);
        let (v, t, e, l) = (u32_at(2)?, u32_at(6)?, u32_at(10)?, u32_at(14)?);
        if rep > 2 || bounds > 2 || v != n {
            return None;
        }
        let table: Vec<u16> = (0..l)
            .map(|i| Some(u16::from_le_bytes(s.get(18 + 2 * i..20 + 2 * i)?.try_into().ok()?)))
            .collect::<Option<_>>()?;
        let b0 = 18 + 2 * l;
        let bnd: Vec<usize> = (0..v).map(|i| u32_at(b0 + 4 * i)).collect::<Option<_>>()?;
        let rest = s.get(b0 + 4 * v..)?;
        let id_stream = rest.get(..rest.len().checked_sub(e)?)?;
        let mut escapes = rest[id_stream.len()..].iter();
        // Token counts per value.
        let mut counts = Vec::new();
        let mut prev = 0i64;
        for (i, &b) in bnd.iter().enumerate() {
            counts.push(match bounds {
                0 => b,
                1 => {
                    let end = if i + 1 < v { bnd[i + 1] } else { t };
                    if (i == 0 && b != 0) || end < b || end > t {
                        return None;
                    }
                    end - b
                }
                _ => {
                    let u = b as i64;
                    prev += (u >> 1) ^ -(u & 1);
                    if prev < 0 {
                        return None;
                    }
                    prev as usize
                }
            });
            if counts.iter().sum::<usize>() > t {
                return None;
            }
        }
        if counts.iter().sum::<usize>() != t {
            return None;
        }
        let ids: Vec<u16> = match rep {
            0 => {
                if l != 0 || id_stream.len() != 2 * t {
                    return None;
                }
                id_stream.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect()
            }
            1 => {
                let (mut out, mut p) = (Vec::new(), 0);
                for _ in 0..t {
                    let (mut x, mut shift) = (0u64, 0);
                    loop {
                        let b = *id_stream.get(p)?;
                        p += 1;
                        x |= ((b & 0x7f) as u64) << shift;
                        if b & 0x80 == 0 {
                            break;
                        }
                        shift += 7;
                        if shift > 28 {
                            return None;
                        }
                    }
                    out.push(*table.get(x as usize)?);
                }
                if p != id_stream.len() {
                    return None;
                }
                out
            }
            _ => {
                if l != 1 {
                    return None;
                }
                let w = 32 - (table[0] as u32).leading_zeros();
                let raw = read_msb(id_stream, t, w)?;
                if raw.iter().any(|&i| i > table[0] as u32) {
                    return None;
                }
                raw.iter().map(|&i| i as u16).collect()
            }
        };
        let escape = vocab.len();
        let mut at = 0;
        let mut out = Vec::new();
        for c in counts {
            let mut value = Vec::new();
            for &id in &ids[at..at + c] {
                if id as usize == escape {
                    value.push(*escapes.next()?);
                } else {
                    value.extend_from_slice(vocab.get(id as usize)?.as_ref()?);
                }
            }
            out.push(value);
            at += c;
        }
        if escapes.next().is_some() {
            return None;
        }
        Some(out)
    }

    /// Random tokenizers and values in all nine layouts, escapes and long
    /// tokens included, then damaged: the decoder gives exactly the
    /// reference's values, or a corrupt-chunk error where it has none.
    #[test]
    fn decodes_as_a_plain_reading_does() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut verdicts = Verdicts::default();
        let mut layouts = [0usize; 9];
        for case in 0..3000 {
            // Now and then a vocab and values with over 16,384 distinct
            // ids, so Remap indices take three varint bytes; or ids over
            // 2^15, so Bits ids take 16 bits.
            let big = case % 150 == 0;
            let wide = big && case % 300 == 0;
            let size = if wide {
                40_000
            } else if big {
                20_000
            } else {
                1 + rng.below(600)
            };
            let (tok, vocab) = tokenizer(&mut rng, size);
            let defined: Vec<u16> = (0..vocab.len()).filter(|&i| vocab[i].is_some()).map(|i| i as u16).collect();
            let escape = vocab.len() as u16;
            let v = if big {
                2600
            } else if rng.below(5) == 0 {
                rng.below(800)
            } else {
                rng.below(30)
            };
            let mut escapes = Vec::new();
            let mut next_id = 0;
            let values: Vec<Vec<u16>> = (0..v)
                .map(|_| {
                    (0..if big { 8 } else { rng.below(9) })
                        .map(|_| {
                            if big {
                                next_id += 1;
                                defined[next_id * 7 % defined.len()]
                            } else if rng.below(15) == 0 {
                                escapes.push(rng.next() as u8);
                                escape
                            } else if rng.below(300) == 0 {
                                rng.below(vocab.len() + 3) as u16 // maybe undefined
                            } else {
                                defined[rng.below(defined.len())]
                            }
                        })
                        .collect()
                })
                .collect();
            let rep = if wide {
                2
            } else if big {
                1
            } else {
                rng.below(3) as u8
            };
            let bounds = rng.below(3) as u8;
            layouts[rep as usize * 3 + bounds as usize] += 1;
            // Half the streams as a writer makes them (Remap varints of at
            // most two bytes below 2^14 table entries: the eight-byte path),
            // half with over-long varints (the general path).
            let overlong = rng.below(2) == 0;
            let s = damage(&mut rng, write(rep, bounds, &values, &escapes, overlong));
            let count = if rng.below(15) == 0 { v ^ 1 } else { v };
            verdicts.check(
                reference(&s, count, &vocab),
                decode(count, count, &s, &tok, None, &mut Work::default()),
                &format!("case {case}: layout {rep}/{bounds}, {v} values"),
            );
        }
        assert!(
            verdicts.decoded > 900 && verdicts.refused > 900,
            "both outcomes are exercised ({} decoded, {} refused)",
            verdicts.decoded,
            verdicts.refused
        );
        assert!(layouts.iter().all(|&n| n > 200), "every layout is tried: {layouts:?}");
    }

    /// The eight-byte path takes exactly the streams of `t` varints of at
    /// most two bytes, and reads them as a varint at a time does: each
    /// form of it (natively the scalar one and, with SSSE3, that one).
    #[test]
    fn two_byte_indices_read_as_one_at_a_time() {
        let forms = two_byte_forms();
        #[cfg(target_arch = "x86_64")]
        assert_eq!(forms.len(), 1 + std::is_x86_feature_detected!("ssse3") as usize);
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut taken, mut left) = (0, 0);
        for case in 0..20_000 {
            let t = rng.below(40);
            let mut s = Vec::new();
            for _ in 0..t {
                let x = if rng.below(2) == 0 { rng.below(128) } else { rng.below(1 << 14) };
                if x >= 0x80 {
                    s.push(x as u8 | 0x80);
                }
                s.push((x >> (7 * (x >= 0x80) as u32)) as u8 & 0x7f);
            }
            for _ in 0..rng.below(3) {
                if !s.is_empty() {
                    let i = rng.below(s.len());
                    s[i] = rng.next() as u8;
                }
            }
            let count = if rng.below(10) == 0 { t ^ 1 } else { t };
            // One varint at a time: `count` of them, of at most two bytes,
            // ending where the stream does.
            let (mut want, mut p) = (Vec::new(), 0);
            while p < s.len() && want.len() <= count {
                match s[p..].iter().position(|&b| b < 0x80) {
                    Some(n) if n <= 1 => {
                        want.push(s[p..=p + n].iter().rev().fold(0u16, |v, &b| v << 7 | (b & 0x7f) as u16));
                        p += n + 1;
                    }
                    _ => break,
                }
            }
            let want = (p == s.len() && want.len() == count).then_some(want);
            for &(name, form) in &forms {
                let mut ids = vec![0u16; count + 8];
                let got = form(&s, count, &mut ids).then(|| ids[..count].to_vec());
                assert_eq!(got, want, "case {case}, {name} form: {s:02x?}");
            }
            if want.is_some() {
                taken += 1
            } else {
                left += 1
            }
        }
        assert!(taken > 5000 && left > 5000, "{taken} taken, {left} left");
    }

    /// Output past the guess (4 bytes a token) grows once, to the exact
    /// size (the old doubling left up to twice the output allocated, three
    /// times while it copied); output past 4 GiB is refused as too_large
    /// before anything is allocated for it.
    #[test]
    fn output_past_the_guess_grows_once_to_its_size() {
        let long = "a".repeat(10_000);
        let json = format!(r#"{{"model":{{"type":"BPE","vocab":{{"{long}":0,"b":1}}}}}}"#);
        let tok = Tokenizer::from_json(json.as_bytes()).unwrap();
        let ids: Vec<u16> = (0..1000).map(|k| (k % 7 == 3) as u16).collect();
        let expected: Vec<u8> =
            ids.iter().flat_map(|&i| if i == 0 { long.as_bytes() } else { b"b" }).copied().collect();
        let got = decode(1, 1, &write(0, 0, &[ids], &[], false), &tok, None, &mut Work::default()).unwrap();
        let Values::Bytes { ref data, .. } = got else { panic!("not bytes") };
        assert!(data.capacity() - data.len() <= SLACK, "{} bytes allocated for {}", data.capacity(), data.len());
        assert_eq!(flatten(&got), vec![expected]);
        // 430,000 tokens of 10,000 bytes: 4.3 GB.
        let e = decode(1, 1, &write(0, 0, &[vec![0u16; 430_000]], &[], false), &tok, None, &mut Work::default())
            .unwrap_err();
        assert_eq!(e.kind, ErrorKind::TooLarge, "{e}");
    }

    /// Many 1-byte tokens (0-bit Bits ids: a small file can declare
    /// millions) reserve at most GUESS_OVER bytes more than their output,
    /// not 4 bytes a token: QA's 33 KB file of 500 million reserved 2 GB.
    #[test]
    fn one_byte_tokens_reserve_at_most_guess_over_more() {
        let tok = Tokenizer::from_json(br#"{"model":{"type":"BPE","vocab":{"a":0,"b":1}}}"#).unwrap();
        let t = 20_000_000;
        let stream = write(2, 0, &[vec![0u16; t]], &[], false);
        assert!(stream.len() < 100, "{} bytes: 0-bit ids", stream.len());
        let got = decode(1, 1, &stream, &tok, None, &mut Work::default()).unwrap();
        let Values::Bytes { ref offsets, ref data } = got else { panic!("not bytes") };
        assert_eq!((data.len(), &offsets[..]), (t, &[0, t as u32][..]));
        assert!(data.iter().all(|&b| b == b'a'));
        assert!(data.capacity() <= t + GUESS_OVER + SLACK, "{} bytes reserved for {t}", data.capacity());
    }

    /// A Remap index one past the table is refused on the eight-byte path
    /// as on the general one, whether its varint takes one byte or two; a
    /// stream of in-range indices over several blocks (all but the first as
    /// two-byte varints, some across the blocks' ends) decodes through every
    /// form of that path.
    #[test]
    fn remap_index_past_the_table_is_refused() {
        let tok = Tokenizer::from_json(br#"{"model":{"type":"BPE","vocab":{"a":0,"b":1}}}"#).unwrap();
        let stream = |ids: &[u8], tokens: u32| {
            let mut s = vec![1u8, 0];
            for x in [1u32, tokens, 0, 2] {
                s.extend_from_slice(&x.to_le_bytes());
            }
            s.extend_from_slice(&[0, 0, 1, 0]); // table: ids 0 and 1
            s.extend_from_slice(&tokens.to_le_bytes()); // the value's token count
            s.extend_from_slice(ids);
            s
        };
        let indices = [1u8, 0, 1, 1, 0, 1, 1, 0, 0, 1].repeat(4);
        let mut long = Vec::new();
        for (k, &i) in indices.iter().enumerate() {
            if k > 0 {
                long.extend_from_slice(&[i | 0x80, 0]);
            } else {
                long.push(i);
            }
        }
        for (name, form) in two_byte_forms() {
            let mut ids = vec![0u16; indices.len() + 8];
            assert!(form(&long, indices.len(), &mut ids), "{name} form");
            assert!(ids.iter().zip(&indices).all(|(&a, &b)| a == b as u16), "{name} form: {ids:?}");
        }
        each_two_byte_form(|form| {
            let good = decode(1, 1, &stream(&long, 40), &tok, None, &mut Work::default());
            assert_eq!(flatten(&good.unwrap()), vec![b"babbabbaab".repeat(4)], "{form} form");
            for ids in [&[1, 0, 1, 2, 0, 1, 1, 0, 0, 1][..], &[1, 0, 1, 0x80, 0x01, 0, 1, 1, 0, 0, 1]] {
                match decode(1, 1, &stream(ids, 10), &tok, None, &mut Work::default()) {
                    Err(e) => {
                        assert_eq!(e.kind, ErrorKind::CorruptChunk);
                        assert!(e.to_string().contains("of token 3 is outside the 2-entry table"), "{form} form: {e}");
                    }
                    Ok(v) => panic!("{form} form: {ids:?} decoded as {:?}", flatten(&v)),
                }
            }
        });
    }
}
