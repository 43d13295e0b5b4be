//! Encodings (FORMAT.md section 5): each turns a chunk's decompressed
//! stream into the dense values of its non-null rows. Every decoder is told
//! how many values to expect and fails unless the stream holds exactly that.

pub(crate) mod affix;
pub(crate) mod bits;
mod delta;
pub(crate) mod dict;
mod offset_bytes;
mod plain;
mod rle_bitpack;
#[cfg(test)]
mod testkit;
pub(crate) mod tokenized;

use core::mem::MaybeUninit;
use std::borrow::Cow;

use crate::bytes::Reader;
use crate::column::Values;
use crate::error::{corrupt_chunk, try_room, Error, ErrorKind, Result};
use crate::tokenizer::Tokenizer;
use crate::types::ColumnType;

pub use tokenized::{Boundaries, IdRepresentation, TokenizedLayout};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    Plain,
    RleBitpack,
    Delta,
    Dict,
    OffsetBytes,
    Affix,
    Tokenized,
}

impl Encoding {
    pub fn from_tag(tag: u8) -> Option<Encoding> {
        Some(match tag {
            1 => Encoding::Plain,
            2 => Encoding::RleBitpack,
            3 => Encoding::Delta,
            4 => Encoding::Dict,
            5 => Encoding::OffsetBytes,
            6 => Encoding::Affix,
            7 => Encoding::Tokenized,
            _ => return None,
        })
    }

    pub fn tag(self) -> u8 {
        match self {
            Encoding::Plain => 1,
            Encoding::RleBitpack => 2,
            Encoding::Delta => 3,
            Encoding::Dict => 4,
            Encoding::OffsetBytes => 5,
            Encoding::Affix => 6,
            Encoding::Tokenized => 7,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Encoding::Plain => "Plain",
            Encoding::RleBitpack => "RLEBitpack",
            Encoding::Delta => "Delta",
            Encoding::Dict => "Dict",
            Encoding::OffsetBytes => "OffsetBytes",
            Encoding::Affix => "Affix",
            Encoding::Tokenized => "Tokenized",
        }
    }

    /// The encoding for a chunk header's tag, or `unsupported_encoding`.
    pub fn supported(tag: u8) -> Result<Encoding> {
        Encoding::from_tag(tag).ok_or_else(|| {
            Error::new(ErrorKind::UnsupportedEncoding, format!("unknown encoding tag {tag} (known: 1 to 7)"))
        })
    }

    /// Whether the format lets this encoding hold values of `ty`.
    pub fn serves(self, ty: ColumnType) -> bool {
        match self {
            Encoding::Plain | Encoding::Dict => true,
            Encoding::RleBitpack => ty == ColumnType::Bool,
            Encoding::Delta => ty.is_integer(),
            Encoding::OffsetBytes | Encoding::Affix | Encoding::Tokenized => ty.is_variable(),
        }
    }
}

/// Decodes `n` values of type `ty` from an encoded stream.
/// `tokenizer` is required for (and only used by) Tokenized. `rows` is the
/// chunk's row count (at least `n`): string offsets get room for `rows + 1`
/// entries, so spreading them over null rows needs no reallocation.
pub fn decode(
    encoding: Encoding,
    ty: ColumnType,
    n: usize,
    rows: usize,
    stream: &[u8],
    tokenizer: Option<&Tokenizer>,
) -> Result<Values> {
    decode_into(encoding, ty, n, rows, Cow::Borrowed(stream), tokenizer, None, &mut Work::default())
}

/// Like [`decode`], for a stream the caller owns: Plain strings and bytes,
/// and Affix ones without affixes, then decode in place, the stream's
/// buffer becoming the data buffer.
pub fn decode_owned(
    encoding: Encoding,
    ty: ColumnType,
    n: usize,
    rows: usize,
    stream: Vec<u8>,
    tokenizer: Option<&Tokenizer>,
) -> Result<Values> {
    decode_into(encoding, ty, n, rows, Cow::Owned(stream), tokenizer, None, &mut Work::default())
}

/// The one entry to every decoder: [`decode`] (a borrowed stream) or
/// [`decode_owned`] (an owned one, decoded in place where the layout
/// allows), writing into `kept`'s storage when it holds values of this
/// kind (grown only when it has less room than the chunk needs) and using
/// `work` for what a decoder needs besides its output. A reader that keeps
/// both from chunk to chunk allocates nothing once they have grown; one
/// that passes `None` and a fresh `Work` allocates exactly what it keeps.
#[allow(clippy::too_many_arguments)]
pub fn decode_into(
    encoding: Encoding,
    ty: ColumnType,
    n: usize,
    rows: usize,
    stream: Cow<'_, [u8]>,
    tokenizer: Option<&Tokenizer>,
    kept: Option<Values>,
    work: &mut Work,
) -> Result<Values> {
    if !encoding.serves(ty) {
        return Err(corrupt_chunk(format!("{} encoding cannot hold {ty} values", encoding.name())));
    }
    match encoding {
        Encoding::Plain => plain::decode(ty, n, rows, stream, kept),
        Encoding::RleBitpack => rle_bitpack::decode(n, &stream, kept),
        Encoding::Delta => delta::decode(ty, n, &stream, kept),
        Encoding::Dict => dict::decode(ty, n, rows, &stream, kept, work),
        Encoding::OffsetBytes => offset_bytes::decode(n, rows, &stream, kept),
        Encoding::Affix => affix::decode(n, rows, stream, kept),
        Encoding::Tokenized => match tokenizer {
            Some(t) => tokenized::decode(n, rows, &stream, t, kept, work),
            None => Err(corrupt_chunk("a Tokenized chunk needs a tokenizer")),
        },
    }
}

/// What decoders need besides their output (Dict's unpacked indices and
/// entry table, Tokenized's value starts, token ids and token ends), kept by a reader
/// from chunk to chunk so that decoding again allocates nothing.
#[derive(Default)]
pub struct Work {
    pub(crate) u32s: Vec<u32>,
    pub(crate) u32s_b: Vec<u32>,
    pub(crate) u16s: Vec<u16>,
    pub(crate) u16s_b: Vec<u16>,
    pub(crate) spans: Vec<(u32, u32)>,
    pub(crate) bytes: Vec<u8>,
    pub(crate) words: Vec<[u8; 8]>,
}

/// Empties `v` and makes room in it for `n` elements: its own storage
/// when that is large enough, else grown. `too_large` where it cannot be had.
pub(crate) fn refill<T>(v: &mut Vec<T>, n: usize, what: &str) -> Result<()> {
    v.clear();
    try_room(v, n, what)
}

/// The offsets and data buffers of kept string values, emptied (new ones
/// when `kept` holds none).
pub(crate) fn string_storage(kept: Option<Values>) -> (Vec<u32>, Vec<u8>) {
    match kept {
        Some(Values::Bytes { mut offsets, mut data }) => {
            offsets.clear();
            data.clear();
            (offsets, data)
        }
        _ => (Vec::new(), Vec::new()),
    }
}

/// `n` fixed-width values of `ty` in `kept`'s storage when it can hold
/// them (their contents left for the decoder to overwrite), else zeroed.
pub(crate) fn fixed_storage(ty: ColumnType, n: usize, kept: Option<Values>) -> Result<Values> {
    Values::reusing(ty, n, kept, false)?.ok_or_else(|| corrupt_chunk("internal: fixed-width storage for strings"))
}

/// `n` fixed-width values of `ty` written by a decoder's `fill` into
/// unfilled room, `kept`'s when it can hold them (see [`Values::filled`]).
pub(crate) fn fixed_filled(
    ty: ColumnType,
    n: usize,
    kept: Option<Values>,
    mut fill: impl FnMut(&mut [MaybeUninit<u8>]) -> bool,
) -> Result<Values> {
    Values::filled(ty, n, kept, &mut fill)?.ok_or_else(|| corrupt_chunk("internal: fixed-width storage for strings"))
}

/// Unfilled room as whole values of `W` bytes (the same bytes; a tail
/// shorter than `W` is left out).
pub(crate) fn uninit_values<const W: usize>(room: &mut [MaybeUninit<u8>]) -> &mut [MaybeUninit<[u8; W]>] {
    // SAFETY: a MaybeUninit<[u8; W]> is W bytes with alignment 1 and may
    // hold any bytes, so len / W of them lie within the room.
    unsafe { core::slice::from_raw_parts_mut(room.as_mut_ptr().cast(), room.len() / W) }
}

/// Finishes values that were decompressed straight into typed storage:
/// Plain values are checked (bools must be 0 or 1), Delta differences are
/// summed in place.
pub(crate) fn finish_typed(encoding: Encoding, values: Values) -> Result<Values> {
    Ok(match (encoding, values) {
        (Encoding::Delta, mut v) => {
            if let Some(b) = v.fixed_bytes_mut() {
                delta::prefix_sum_in_place(b);
            }
            v
        }
        (Encoding::Plain, v) => {
            let w = match &v {
                Values::Bool(_) | Values::Int8(_) | Values::Uint8(_) => 1,
                Values::Int16(_) | Values::Uint16(_) => 2,
                Values::Int32(_) | Values::Uint32(_) | Values::Float32(_) => 4,
                _ => 8,
            };
            v.finish_le(w)?
        }
        (e, _) => return Err(corrupt_chunk(format!("internal: {} has no typed fast path", e.name()))),
    })
}

/// Bytes left for values once `n` uint32 length prefixes are taken out of
/// `body`: the exact output size of Plain strings and of Affix middles.
pub(crate) fn prefixed_payload(body: &[u8], n: usize, what: &str) -> Result<usize> {
    n.checked_mul(4)
        .and_then(|l| body.len().checked_sub(l))
        .ok_or_else(|| corrupt_chunk(format!("{what} of {} bytes cannot hold {n} length prefixes", body.len())))
}

/// A walk over `n` length-prefixed values (uint32 length, then the bytes)
/// that must fill the body exactly: `next` for each value, then `finish`.
/// Each decoder drives it from a loop of its own, so that its state stays
/// in registers (behind a closure's references it did not: Affix with
/// affixes 4.3 -> 3.4 ns a value in wasm, 3.0 -> 2.8 natively). `next`
/// takes the body afresh each time, so an in-place decoder may write
/// behind the walk: lengths are read only at or after the value visited.
pub(crate) struct Prefixed<'w> {
    pos: usize,
    what: &'w str,
}

impl<'w> Prefixed<'w> {
    pub(crate) fn new(what: &'w str) -> Self {
        Prefixed { pos: 0, what }
    }

    /// A walk that goes on from byte `pos`, where the value it is next
    /// given starts (values before it were read by other code).
    pub(crate) fn at(what: &'w str, pos: usize) -> Self {
        Prefixed { pos, what }
    }

    /// The span of value `i`, the next one of `b`, or an error when its
    /// length or bytes run past the end.
    #[inline(always)]
    pub(crate) fn next(&mut self, b: &[u8], i: usize) -> Result<(usize, usize)> {
        let pos = self.pos;
        let len = match b.get(pos..pos + 4) {
            Some(b) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize,
            None => return Err(short_length(self.what, i, pos)),
        };
        let start = pos + 4;
        if len > b.len() - start {
            return Err(past_end(self.what, i, len, start));
        }
        self.pos = start + len;
        Ok((start, len))
    }

    /// After the last value: the values must fill `body` exactly.
    pub(crate) fn finish(&self, b: &[u8]) -> Result<()> {
        if self.pos != b.len() {
            let what = self.what;
            return Err(corrupt_chunk(format!(
                "{} unexpected bytes after the last value of the {what}",
                b.len() - self.pos
            )));
        }
        Ok(())
    }
}

// [`Prefixed::next`]'s errors, built out of line and from values: built
// inline, their format arguments (the value index, the position, `what`)
// were stored to the shadow stack on every value in wasm32.
#[cold]
#[inline(never)]
fn short_length(what: &str, i: usize, pos: usize) -> Error {
    corrupt_chunk(format!("{what} ends inside the length of value {i} at byte {pos}"))
}

#[cold]
#[inline(never)]
fn past_end(what: &str, i: usize, len: usize, start: usize) -> Error {
    corrupt_chunk(format!("{what} value {i} of {len} bytes at byte {start} runs past the stream"))
}

/// String offsets for `n` values in `offsets`' storage (see [`refill`]),
/// starting with the 0 before the first, with room for `rows + 1` entries
/// (see [`decode`]).
pub(crate) fn offsets_in(mut offsets: Vec<u32>, n: usize, rows: usize) -> Result<Vec<u32>> {
    // Saturating: on wasm32 rows + 1 may wrap (u32::MAX rows), and a
    // usize::MAX reservation fails as too_large.
    refill(&mut offsets, rows.max(n).saturating_add(1), "string offsets")?;
    offsets.push(0);
    Ok(offsets)
}

/// Offsets of `n` values of `l` bytes each, after the 0 `offsets` starts
/// with (`offsets_in`): `l, 2l, ..., nl`. The caller checked that `nl`
/// fits in u32. One copy for every decoder of one-length values.
#[inline(never)]
pub(crate) fn push_multiples(offsets: &mut Vec<u32>, n: usize, l: usize) {
    offsets.extend((1..n + 1).map(|k| (k * l) as u32));
}

/// A reader over an encoded stream: short reads are corrupt chunks.
pub(crate) fn stream_reader(stream: &[u8]) -> Reader<'_> {
    Reader::new(stream, ErrorKind::CorruptChunk, "encoded stream")
}

pub(crate) fn count_mismatch(what: &str, found: usize, expected: usize) -> Error {
    corrupt_chunk(format!("{what} holds {found} values but the chunk has {expected} non-null rows"))
}

/// Slack after string data so a short value can be written as one fixed
/// 16-byte move (most strings are short; a fixed-size copy beats a sized
/// memcpy call); the bytes past the value are overwritten by the next one.
pub(crate) const SLACK: usize = 16;

/// Slack after string data for [`copy_value`]'s 32-byte moves.
pub(crate) const SLACK_32: usize = 32;

/// Copies `src[s..s + len]` to `dst[w..]`, unfilled room: one fixed 32-byte
/// move when both have room for it (the bytes past the value land in
/// `dst`'s slack or where the next value goes), and a sized copy of the
/// rest of a longer value. Whether all `len` bytes were written (false
/// when the span is outside either). A sized memcpy per value costs
/// several times the move (movielens titles: Dict 10.8 against 6.5 ns a
/// value natively), and a test for values of 16 bytes or less, to move
/// only 16, measured slower overall.
#[inline(always)]
pub(crate) fn copy_value(dst: &mut [MaybeUninit<u8>], w: usize, src: &[u8], s: usize, len: usize) -> bool {
    let Some(v) = src.get(s..s + len) else { return false };
    if let (Some(d), Some(v32)) = (dst.get_mut(w..w + SLACK_32), src.get(s..s + SLACK_32)) {
        d.copy_from_slice(initialized(v32));
        if len > SLACK_32 {
            return put(dst, w + SLACK_32, &v[SLACK_32..]);
        }
        return true;
    }
    put(dst, w, v)
}

/// Writes `src` at `dst[w..]`, unfilled room; false when it does not fit.
#[inline(always)]
pub(crate) fn put(dst: &mut [MaybeUninit<u8>], w: usize, src: &[u8]) -> bool {
    match dst.get_mut(w..w + src.len()) {
        Some(d) => {
            d.copy_from_slice(initialized(src));
            true
        }
        None => false,
    }
}

/// Bytes as the initialized values of unfilled room's type, to copy there.
#[inline(always)]
pub(crate) fn initialized(src: &[u8]) -> &[MaybeUninit<u8>] {
    // SAFETY: MaybeUninit<u8> has the layout of u8, and the bytes are only
    // read, through the shared borrow.
    unsafe { core::slice::from_raw_parts(src.as_ptr().cast(), src.len()) }
}

/// A string decoder wrote `w` bytes where it computed `total` in advance:
/// a logic error, reported rather than returned as wrong values.
pub(crate) fn check_filled(w: usize, total: usize) -> Result<()> {
    if w != total {
        return Err(corrupt_chunk(format!("internal: values filled {w} of {total} computed bytes")));
    }
    Ok(())
}

/// `total` value bytes as a length, when 32-bit offsets can address them,
/// with room for the decoders' slack after them (at most 64 bytes), so
/// that on wasm32 `total + SLACK_32` cannot wrap. The same limit natively.
pub(crate) fn offsets_for(total: u64) -> Result<usize> {
    if total > u32::MAX as u64 - 64 {
        return Err(Error::new(
            ErrorKind::TooLarge,
            format!("{total} bytes of values: over the 4 GiB (less 64 B) that 32-bit offsets address"),
        ));
    }
    Ok(total as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    // In wasm32 too, where a usize of a 4 GiB size plus anything wraps.
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn sizes_near_4_gib_leave_room_for_the_slack_or_are_too_large() {
        assert_eq!(offsets_for(u32::MAX as u64 - 64).unwrap(), u32::MAX as usize - 64);
        for total in [u32::MAX as u64 - 63, u32::MAX as u64, 1 << 32] {
            assert_eq!(offsets_for(total).unwrap_err().kind, ErrorKind::TooLarge, "{total}");
        }
        // usize::MAX rows (u32::MAX in wasm32): room for one offset more
        // cannot be made, and says so, rather than wrapping to none.
        assert_eq!(offsets_in(Vec::new(), 0, usize::MAX).unwrap_err().kind, ErrorKind::TooLarge);
    }
}
