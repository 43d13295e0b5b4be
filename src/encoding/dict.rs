//! Dict: uint32 n, uint32 dictionary size D, uint32 bit width W; n indices
//! of W bits, MSB first, zero padded; then the D entries in OffsetBytes
//! layout (Plain bytes for fixed-width types, raw bytes otherwise).

use core::mem::MaybeUninit;

use super::bits::MsbBits;
use super::offset_bytes::OffsetBytes;
use super::{count_mismatch, offsets_for, offsets_in, refill, stream_reader, string_storage, Work, SLACK_32};
use crate::column::Values;
use crate::error::{corrupt_chunk, Result};
use crate::types::ColumnType;

/// The dictionary header of a chunk, for inspection and decoding.
pub struct DictHeader {
    pub count: usize,
    pub size: usize,
    pub width: u32,
}

pub(crate) fn header(stream: &[u8]) -> Result<DictHeader> {
    let mut r = stream_reader(stream);
    Ok(DictHeader {
        count: r.len32("Dict value count")?,
        size: r.len32("dictionary size")?,
        width: r.u32("index bit width")?,
    })
}

// Out of line, and kept so by wasm-opt (Cargo.toml): V8 optimizes it on
// its own, sooner than the whole decoder.
#[inline(never)]
pub(super) fn decode(
    ty: ColumnType,
    n: usize,
    rows: usize,
    stream: &[u8],
    kept: Option<Values>,
    work: &mut Work,
) -> Result<Values> {
    let h = header(stream)?;
    if h.count != n {
        return Err(count_mismatch("Dict stream", h.count, n));
    }
    if h.width > 32 {
        return Err(corrupt_chunk(format!("Dict index width {} is more than 32 bits", h.width)));
    }
    let mut r = stream_reader(stream);
    r.take(12, "Dict header")?;
    let index_len = MsbBits::byte_len(n, h.width).ok_or_else(|| corrupt_chunk("Dict index stream size overflows"))?;
    let indices = MsbBits::new(r.take(index_len, "Dict indices")?, n, h.width)?;
    let entries = OffsetBytes::parse(r.rest())?;
    if entries.count != h.size {
        return Err(corrupt_chunk(format!("Dict declares {} entries but stores {}", h.size, entries.count)));
    }
    match ty.width() {
        Some(w) => {
            for e in 0..h.size {
                let v = entries.get(e);
                if v.len() != w {
                    return Err(corrupt_chunk(format!("Dict entry {e} has {} bytes; {ty} values have {w}", v.len())));
                }
            }
            // Every entry is w bytes, so the entries lie back to back. The
            // table is a copy of them in kept storage (see `gather`).
            refill(&mut work.bytes, entries.data.len(), "dictionary")?;
            work.bytes.extend_from_slice(entries.data);
            let table = &work.bytes[..];
            let mut outside = false;
            let out = super::fixed_filled(ty, n, kept, |room| match w {
                1 => gather::<1>(table, &indices, room, &mut outside),
                2 => gather::<2>(table, &indices, room, &mut outside),
                4 => gather::<4>(table, &indices, room, &mut outside),
                _ => gather::<8>(table, &indices, room, &mut outside),
            })?;
            if outside {
                return Err(bad_index(&indices, h.size));
            }
            out.finish_le(w)
        }
        None => strings(&entries, &indices, rows, kept, work),
    }
}

fn bad_index(indices: &MsbBits<'_>, size: usize) -> crate::error::Error {
    let i = indices.first_at_least(size.min(u32::MAX as usize) as u32).unwrap_or(u32::MAX);
    corrupt_chunk(format!("Dict index {i} is outside the {size}-entry dictionary"))
}

/// Copies each index's `W`-byte entry to the output, in order, through a
/// table of entries as `[u8; W]`, looked up as the indices are unpacked (no
/// buffer of indices between: on flights-3m's int16 columns 0.81 -> 0.53 ns
/// a value natively, 1.10 -> 0.74 in wasm32). Every index is checked
/// against the table as it is used; `outside` is set if one was outside
/// it. The table is a copy of the entries (kept storage, so a reader that
/// keeps it allocates nothing): looked up where they lie in the stream,
/// flights-3m's int16 columns ran a third slower in wasm32. Whether it
/// wrote all of `out` (one value per index).
fn gather<const W: usize>(
    table: &[u8],
    indices: &MsbBits<'_>,
    out: &mut [MaybeUninit<u8>],
    outside: &mut bool,
) -> bool {
    let (table, _) = table.as_chunks::<W>();
    let out = super::uninit_values::<W>(out);
    indices.map_all(out, |i| {
        let e = table.get(i as usize);
        *outside |= e.is_none();
        MaybeUninit::new(e.copied().unwrap_or([0; W]))
    });
    // map_all writes every value when there is one per index, else none.
    out.len() == indices.count()
}

/// String and bytes entries: the output is sized exactly from the entries'
/// lengths, then each value is copied as one fixed SLACK-byte move when it
/// is that short (the bytes past it land in the slack and are overwritten
/// by the next value), else as a sized copy.
fn strings(
    entries: &OffsetBytes<'_>,
    indices: &MsbBits<'_>,
    rows: usize,
    kept: Option<Values>,
    work: &mut Work,
) -> Result<Values> {
    let Work { u32s: idx, spans, bytes: src, words: table, .. } = work;
    refill(spans, entries.count, "dictionary")?;
    spans.extend((0..entries.count).map(|e| {
        let (start, len) = entries.span(e);
        (start as u32, len as u32)
    }));
    let uniform = spans.first().map(|f| f.1).filter(|&l| spans.iter().all(|s| s.1 == l));
    let (offsets, mut data) = string_storage(kept);
    if let Some(l @ 0..=8) = uniform {
        return uniform_strings(entries, spans, indices, l as usize, rows, (offsets, data), table, idx);
    }
    // Unpacked once for both passes: unpacking twice in blocks cost more.
    refill(idx, indices.count(), "Dict indices")?;
    idx.resize(indices.count(), 0);
    indices.unpack(idx);
    // Room for the output: n times the longest entry when every entry has
    // that length or that is at most `BOUND_AT_MOST` bytes, else exactly
    // the sum over the indices (a pass that was a seventh of birdstrikes'
    // decode in wasm, where the bound is 1.6-4x the output). Indices are
    // checked in the copy loop either way.
    let longest = spans.iter().map(|s| s.1).max().unwrap_or(0) as u64;
    let bound = longest * idx.len() as u64;
    let room = if bound <= BOUND_AT_MOST || uniform.is_some() {
        bound
    } else {
        idx.iter().map(|&i| spans.get(i as usize).map_or(0, |s| s.1) as u64).sum()
    };
    let room = offsets_for(room)?;
    refill(&mut data, room + SLACK_32, "string data")?;
    let mut offsets = offsets_in(offsets, idx.len(), rows)?;
    // The entries with zero padding after them, so that every value,
    // those near the end of a small dictionary too, is one fixed 32-byte
    // move (a sized copy per value is a memcpy call natively and a
    // memory.copy in wasm: birdstrikes' "Time of day", five short entries,
    // 3.7 -> 1.7 ns a value natively, 9.2 -> 2.6 in wasm).
    refill(src, entries.data.len() + SLACK_32, "dictionary")?;
    src.extend_from_slice(entries.data);
    src.resize(entries.data.len() + SLACK_32, 0);
    // Written where the room lies unfilled: `copy_values` writes every
    // byte up to the end it returns and every offset, or fails and nothing
    // is kept. A zeroing pass over the room first cost Chromium 15% of the
    // movielens titles' and genres' decode and 5% of birdstrikes' (A/B in
    // one page; an older measurement said the opposite). Not done for
    // `uniform_strings`: there it gained 5% in Chromium but cost 15-25%
    // natively.
    let n = idx.len();
    let room_data = data.spare_capacity_mut().get_mut(..room + SLACK_32).unwrap_or_default();
    let room_offsets = offsets.spare_capacity_mut().get_mut(..n).unwrap_or_default();
    let w = match copy_values(idx, spans, src, room_data, room_offsets) {
        Ok(w) => w,
        Err(Stop::Outside) => return Err(bad_index(indices, entries.count)),
        Err(Stop::Overrun) => return Err(overrun()),
    };
    // SAFETY: `copy_values` returned Ok, so it wrote bytes 0..w of the
    // data's spare room (each value's moves cover it, back to back) and
    // all n offsets after the 0 already pushed; both are within capacity.
    unsafe {
        data.set_len(w);
        offsets.set_len(n + 1);
    }
    Ok(Values::Bytes { offsets, data })
}

/// Outputs whose bound (n times the longest entry) is at most this many
/// bytes get that room: so what they hold unused is at most this.
const BOUND_AT_MOST: u64 = 1 << 20;

/// Copies the entry of each index in `idx` into `data` back to back and
/// stores where each value ends in `offsets` (as long as `idx`): the bytes
/// written. Both are unfilled room: on success every byte before the end
/// returned and every offset has been written. `src` is the entries'
/// bytes with `SLACK_32` zero bytes after them, and `data` has `SLACK_32`
/// bytes past the values, so every value is whole 32-byte moves (the
/// bytes past it land where the next value goes, or in the slack) with no
/// sized copy, and one check per value guards them all (the entries and
/// the indices are checked once, before the loop). Safe
/// slicing checked each move's both ends again: birdstrikes' Dict strings
/// 1.61 -> 1.49 ns a value natively, 2.61 -> 2.07 in wasm32 (Node), and
/// its every-column read in Chromium 0.67 -> 0.64 ms. Out of line:
/// inlined into `strings`, natively 1.49 -> 1.69 ns a value. The loop
/// takes two values a step, with the indices checked by their largest
/// first: V8's code for it went from 31 to 23.5 instructions a value (its
/// interrupt check and its reloads of spilled values come once a step),
/// and the decode stage in Node from 0.51 to 0.39 ms on birdstrikes and
/// 1.66 to 1.44 on movielens.optimized; natively the same instructions.
#[inline(never)]
fn copy_values(
    idx: &[u32],
    spans: &[(u32, u32)],
    src: &[u8],
    data: &mut [core::mem::MaybeUninit<u8>],
    offsets: &mut [core::mem::MaybeUninit<u32>],
) -> core::result::Result<usize, Stop> {
    // Every entry and the 32 bytes after it lie inside `src` (u64: no sum
    // wraps).
    if spans.iter().any(|&(s, l)| s as u64 + l as u64 + SLACK_32 as u64 > src.len() as u64)
        || offsets.len() != idx.len()
    {
        return Err(Stop::Overrun);
    }
    // Every index inside the table, checked by the largest in one pass
    // (SIMD) rather than one by one in the loop.
    if idx.iter().copied().max().is_some_and(|m| m as usize >= spans.len()) {
        return Err(Stop::Outside);
    }
    let mut w = 0usize;
    let (dp, sp, room) = (data.as_mut_ptr().cast::<u8>(), src.as_ptr(), data.len());
    // One value (a closure named apart from `encoding::put`, the checked copy).
    let mut copy_one = |i: u32, o: &mut core::mem::MaybeUninit<u32>| {
        // SAFETY: every index is below `spans.len()` (checked above).
        let &(s, l) = unsafe { spans.get_unchecked(i as usize) };
        let (s, l) = (s as usize, l as usize);
        // No sum wraps: w <= data.len() and l < src.len(), two buffers in
        // one address space beside the module's own memory (on wasm32, 4
        // GiB in all), so w + l + 32 stays below usize::MAX.
        if w + l + SLACK_32 > room {
            return false;
        }
        // SAFETY (both moves): `data` and `src` are distinct buffers; each
        // move starts at a multiple of 32 below max(l, 1) into the value,
        // so it ends at most 31 bytes past the value's end: inside `src`
        // (checked above for every entry) and inside `data` (checked just
        // now).
        unsafe { core::ptr::copy_nonoverlapping(sp.add(s), dp.add(w), SLACK_32) };
        // Longer values (rare) move on in 32-byte steps. Not one loop from
        // k = 0: LLVM turns that into a memcpy call per value.
        let mut k = SLACK_32;
        while k < l {
            unsafe { core::ptr::copy_nonoverlapping(sp.add(s + k), dp.add(w + k), SLACK_32) };
            k += SLACK_32;
        }
        w += l;
        o.write(w as u32);
        true
    };
    // Two values an iteration: V8 checks for interrupts, and reloads what
    // it keeps on the stack, once per iteration of a loop.
    let (pairs, last) = idx.as_chunks::<2>();
    let (opairs, olast) = offsets.as_chunks_mut::<2>();
    for (&[a, b], [oa, ob]) in pairs.iter().zip(opairs) {
        if !(copy_one(a, oa) && copy_one(b, ob)) {
            return Err(Stop::Overrun);
        }
    }
    if let (Some(&i), Some(o)) = (last.first(), olast.first_mut()) {
        if !copy_one(i, o) {
            return Err(Stop::Overrun);
        }
    }
    Ok(w)
}

/// A Dict value that would pass the end of its buffer: a logic error,
/// since every output is sized for its values first.
fn overrun() -> crate::error::Error {
    corrupt_chunk("internal: a Dict value would pass the end of its buffer")
}

/// Why [`copy_values`] stopped early.
enum Stop {
    /// An index outside the dictionary.
    Outside,
    /// A move would pass the end of a buffer, or the offsets' room is not
    /// as long as the indices: a logic error, since the caller gives room
    /// for the sum over the same indices and the entries lie inside the
    /// dictionary.
    Overrun,
}

/// Entries that all have the same length `l <= 8` (codes of a fixed width
/// are common: airports, states): each value is one fixed 8-byte store of
/// its entry, zero padded in a table, `l` bytes past the last (the bytes
/// past the value are overwritten by the next one, or land in the slack),
/// and the offsets are multiples of `l`: no sized copy, no pass to size the
/// output. Indices are checked against the table as they are used (byte
/// indices by their largest, before). On
/// flights-3m's airport codes: 1.64 -> 1.10 ns a value natively; the Dict
/// decode stage of the file in Chromium 22.7 -> 16.4 ms. The indices are
/// read where they lie when each is a byte (no unpacking, no buffer of
/// indices): 0.99 -> 0.59 natively, 1.51 -> 0.91 in wasm32. Other widths
/// are unpacked into `idx` first: unpacking them in this loop (an inlined
/// run walk) gained about a tenth in wasm but cost 0.5 KB gzip.
#[allow(clippy::too_many_arguments)]
fn uniform_strings(
    entries: &OffsetBytes<'_>,
    spans: &[(u32, u32)],
    indices: &MsbBits<'_>,
    l: usize,
    rows: usize,
    (offsets, mut data): (Vec<u32>, Vec<u8>),
    table: &mut Vec<[u8; 8]>,
    idx: &mut Vec<u32>,
) -> Result<Values> {
    const W: usize = 8;
    let n = indices.count();
    let total = offsets_for(l as u64 * n as u64)?;
    refill(table, spans.len(), "dictionary")?;
    table.extend(spans.iter().map(|&(s, _)| {
        let mut e = [0u8; W];
        if let Some(v) = entries.data.get(s as usize..s as usize + l) {
            e[..l].copy_from_slice(v);
        }
        e
    }));
    refill(&mut data, total + W, "string data")?;
    data.resize(total + W, 0);
    // Each of the n values is one W-byte store at k * l, k < n: all inside
    // n * l + W bytes (checked here, for the stores below; `offsets_for`
    // left room for W, so on wasm32 neither sum wraps).
    if data.len() < n * l + W {
        return Err(overrun());
    }
    let dp = data.as_mut_ptr();
    let mut outside = false;
    if let Some(bytes) = indices.bytes().filter(|b| b.len() == n) {
        // Byte indices: checked by their largest (one pass), then looked
        // up in the table padded to 256 entries with no check per value
        // (with the stores unchecked too: flights-3m's airport codes
        // 0.84 -> 0.56 ns a value natively, the real Dict strings
        // 2.4-2.7 -> 0.85-1.0 in wasm; a flag per value instead of the
        // pass, 0.65 and 1.1-1.35).
        outside = bytes.iter().copied().max().unwrap_or(0) as usize >= spans.len();
        table.resize(256, [0; W]);
        let t = table.first_chunk::<256>().ok_or_else(overrun)?;
        for (k, &i) in bytes.iter().enumerate() {
            // SAFETY: k < n (checked above).
            unsafe { dp.add(k * l).cast::<[u8; W]>().write_unaligned(t[i as usize]) };
        }
    } else {
        refill(idx, n, "Dict indices")?;
        idx.resize(n, 0);
        indices.unpack(idx);
        for (k, &i) in idx.iter().enumerate().take(n) {
            let e = table.get(i as usize);
            outside |= e.is_none();
            // SAFETY: k < n (`take`).
            unsafe { dp.add(k * l).cast::<[u8; W]>().write_unaligned(e.copied().unwrap_or([0; W])) };
        }
    }
    if outside {
        return Err(bad_index(indices, entries.count));
    }
    data.truncate(total);
    let mut offsets = offsets_in(offsets, n, rows)?;
    // n * l fits in u32 (offsets_for above), so every k * l does.
    super::push_multiples(&mut offsets, n, l);
    Ok(Values::Bytes { offsets, data })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::testkit::{damage, pack_msb, read_msb, Rng, Verdicts};
    // Runs in wasm32 too, where the indices are unpacked by SIMD lanes.
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    const TYPES: [ColumnType; 6] = [
        ColumnType::Bool,
        ColumnType::Uint8,
        ColumnType::Int16,
        ColumnType::Float32,
        ColumnType::Int64,
        ColumnType::String,
    ];

    /// The values a plain reading of the Dict layout gives, or None where
    /// the stream breaks a rule of FORMAT.md section 5.
    fn reference(ty: ColumnType, n: usize, s: &[u8]) -> Option<Vec<Vec<u8>>> {
        let u32_at = |p: usize| Some(u32::from_le_bytes(s.get(p..p + 4)?.try_into().ok()?) as usize);
        let (count, size, width) = (u32_at(0)?, u32_at(4)?, u32_at(8)?);
        if count != n || width > 32 {
            return None;
        }
        let index_len = (n * width).div_ceil(8);
        let indices = read_msb(s.get(12..12 + index_len)?, n, width as u32)?;
        let ob = &s[12 + index_len..];
        let k = u32::from_le_bytes(ob.get(..4)?.try_into().ok()?) as usize;
        if k != size {
            return None;
        }
        let starts: Vec<usize> = (0..k)
            .map(|i| Some(u32::from_le_bytes(ob.get(4 + 4 * i..8 + 4 * i)?.try_into().ok()?) as usize))
            .collect::<Option<_>>()?;
        let data = &ob[4 + 4 * k..];
        if (k == 0 && !data.is_empty()) || starts.first().is_some_and(|&f| f != 0) {
            return None;
        }
        let mut entries = Vec::new();
        for i in 0..k {
            let end = if i + 1 < k { starts[i + 1] } else { data.len() };
            if starts[i] > end || end > data.len() {
                return None;
            }
            let e = &data[starts[i]..end];
            if ty.width().is_some_and(|w| w != e.len()) {
                return None;
            }
            entries.push(e.to_vec());
        }
        // A bool entry that is not 0 or 1 fails only when some value uses it.
        let bad_bool = |e: &Vec<u8>| ty == ColumnType::Bool && e[0] > 1;
        indices.iter().map(|&i| entries.get(i as usize).filter(|e| !bad_bool(e)).cloned()).collect()
    }

    /// A Dict stream of `n` values over `d` random entries.
    fn stream(rng: &mut Rng, ty: ColumnType, n: usize, d: usize) -> Vec<u8> {
        // A third of the string dictionaries have entries of one length.
        let uniform = (rng.below(3) == 0).then(|| rng.below(40));
        let entries: Vec<Vec<u8>> = (0..d)
            .map(|_| match ty.width() {
                Some(_) if ty == ColumnType::Bool => vec![rng.below(2) as u8],
                Some(w) => rng.bytes(w),
                // Around the 16- and 32-byte moves, and some long ones.
                None => {
                    let len = if rng.below(8) == 0 { rng.below(80) } else { rng.below(20) };
                    rng.bytes(uniform.unwrap_or(len))
                }
            })
            .collect();
        // The narrowest width, 3 bits wider, or 8 (indices that are bytes).
        let narrowest = if d <= 1 { 0 } else { 32 - (d as u32 - 1).leading_zeros() };
        let width = [narrowest, narrowest + 3, narrowest.max(8)][rng.below(3)];
        let idx: Vec<u32> = (0..n).map(|_| rng.below(d) as u32).collect();
        let mut s = Vec::new();
        for x in [n as u32, d as u32, width] {
            s.extend_from_slice(&x.to_le_bytes());
        }
        s.extend(pack_msb(&idx, width));
        s.extend_from_slice(&(d as u32).to_le_bytes());
        let mut at = 0u32;
        for e in &entries {
            s.extend_from_slice(&at.to_le_bytes());
            at += e.len() as u32;
        }
        entries.iter().for_each(|e| s.extend_from_slice(e));
        s
    }

    /// A Dict stream of the given entries and indices, `width`-bit indices.
    fn stream_of(entries: &[Vec<u8>], idx: &[u32], width: u32) -> Vec<u8> {
        let mut s = Vec::new();
        for x in [idx.len() as u32, entries.len() as u32, width] {
            s.extend_from_slice(&x.to_le_bytes());
        }
        s.extend(pack_msb(idx, width));
        s.extend_from_slice(&(entries.len() as u32).to_le_bytes());
        let mut at = 0u32;
        for e in entries {
            s.extend_from_slice(&at.to_le_bytes());
            at += e.len() as u32;
        }
        entries.iter().for_each(|e| s.extend_from_slice(e));
        s
    }

    /// Strings given room for n times the longest entry, far more than
    /// they fill (most name a short entry), or too many for that (sized by
    /// the exact sum), decode as the plain reading does, into kept storage
    /// too, and hold exactly their bytes.
    #[test]
    fn outputs_sized_by_bound_or_by_sum_decode_whole() {
        let entries = vec![Vec::new(), (0..100u8).collect::<Vec<u8>>(), b"short".to_vec()];
        let mut work = Work::default();
        let idx: Vec<u32> = (0..4096u32)
            .map(|k| {
                if k % 4 == 0 {
                    0
                } else if k % 9 == 1 {
                    1
                } else {
                    2
                }
            })
            .collect();
        // 60,000 values of up to 100 bytes: a bound above BOUND_AT_MOST.
        let big: Vec<u32> = (0..60_000u32).map(|k| 1 + (k % 7 == 0) as u32).collect();
        let mut kept = None;
        for idx in [&idx, &big, &idx] {
            let s = stream_of(&entries, idx, 2);
            let want = reference(ColumnType::String, idx.len(), &s).unwrap();
            let got = decode(ColumnType::String, idx.len(), idx.len(), &s, kept.take(), &mut work).unwrap();
            let Values::Bytes { offsets, data } = &got else { panic!("not strings") };
            assert_eq!(offsets.len(), idx.len() + 1);
            for (k, w) in want.iter().enumerate() {
                assert_eq!(&data[offsets[k] as usize..offsets[k + 1] as usize], &w[..], "value {k}");
            }
            assert_eq!(data.len(), *offsets.last().unwrap() as usize);
            kept = Some(got);
        }
    }

    /// Random dictionaries of every width class, index widths 0 to 20 bits,
    /// counts across the unpacker's runs and its padded tail, then damaged:
    /// the decoder gives exactly the reference's values, or a corrupt-chunk
    /// error where the reference has none.
    #[test]
    fn decodes_as_a_plain_reading_does() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut verdicts = Verdicts::default();
        for case in 0..6000 {
            let ty = TYPES[rng.below(TYPES.len())];
            let n = if rng.below(4) == 0 { rng.below(3000) } else { rng.below(70) };
            let d = match rng.below(4) {
                0 => rng.below(3),
                1 => {
                    let bits = 1 + rng.below(20);
                    1 + rng.below(1 << bits)
                }
                _ => 1 + rng.below(300),
            }
            .min(n.max(1) * 2);
            let clean = stream(&mut rng, ty, n, d);
            let s = damage(&mut rng, clean);
            let count = if rng.below(12) == 0 { n ^ 1 } else { n };
            verdicts.check(
                reference(ty, count, &s),
                decode(ty, count, count, &s, None, &mut Work::default()),
                &format!("case {case}: {ty} n {count} d {d}"),
            );
        }
        assert!(
            verdicts.decoded > 2500 && verdicts.refused > 1500,
            "both outcomes are exercised ({} decoded, {} refused)",
            verdicts.decoded,
            verdicts.refused
        );
    }
}
