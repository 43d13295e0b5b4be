//! Affix: a shared prefix and suffix, then per value a uint32 length and
//! the middle. Value = prefix + middle + suffix.

use core::mem::MaybeUninit;
use std::borrow::Cow;

use super::{
    check_filled, copy_value, initialized, offsets_for, offsets_in, plain, prefixed_payload, put, refill,
    stream_reader, string_storage, Prefixed, SLACK, SLACK_32,
};
use crate::column::Values;
use crate::error::Result;

/// The affixes of a chunk, for inspection.
pub struct Affixes<'a> {
    pub prefix: &'a [u8],
    pub suffix: &'a [u8],
}

pub(crate) fn affixes(stream: &[u8]) -> Result<Affixes<'_>> {
    let mut r = stream_reader(stream);
    let p = r.len32("prefix length")?;
    let prefix = r.take(p, "prefix")?;
    let s = r.len32("suffix length")?;
    let suffix = r.take(s, "suffix")?;
    Ok(Affixes { prefix, suffix })
}

/// Decodes `n` values into `kept`'s storage (see `encoding::decode_into`).
/// Without affixes the body is Plain's string layout, each value exactly
/// its middle: it is decoded as Plain strings are (in place when the
/// stream is owned: no zeroed output buffer, no second pass over the
/// data), with the same checks and the same errors.
pub(super) fn decode(n: usize, rows: usize, stream: Cow<'_, [u8]>, kept: Option<Values>) -> Result<Values> {
    let Affixes { prefix, suffix } = affixes(&stream)?;
    if prefix.is_empty() && suffix.is_empty() {
        // After the two zero affix lengths.
        return plain::prefixed(stream, 8, n, rows, kept, "Affix body");
    }
    let (p, s) = (prefix.len(), suffix.len());
    let body = &stream[8 + p + s..];
    // Lengths take 4 bytes each and the rest is middles, so the output size
    // is known before the one checking pass.
    let middles = prefixed_payload(body, n, "Affix body")?;
    let total = offsets_for(middles as u64 + n as u64 * (p + s) as u64)?;
    let glue = glue(prefix, suffix);
    let (offsets, mut data) = string_storage(kept);
    refill(&mut data, total + SLACK_32, "string data")?;
    let mut offsets = offsets_in(offsets, n, rows)?;
    let (pre, suf) = (Piece::new(prefix), Piece::new(suffix));
    // Written where the room lies unfilled (no zeroing pass first): the
    // values are kept only once every byte before `total` is written.
    let out = data.spare_capacity_mut().get_mut(..total + SLACK_32).unwrap_or_default();
    // The bulk of the values, then the rest (and any value the bulk loop
    // would not take: its error is found by the walk below).
    let (first, pos, mut w) = match (glue, n) {
        (Some(g), 1..) => {
            // Value ends written in place, into the room `offsets_in` made
            // for them after the 0.
            let ends = offsets.spare_capacity_mut().get_mut(..n).unwrap_or_default();
            let done = bulk(body, out, ends, p, s, g);
            // SAFETY: `bulk` wrote the first `done.0` ends (see there),
            // within the capacity.
            unsafe { offsets.set_len(done.0 + 1) };
            done
        }
        _ => (0, 0, 0),
    };
    let mut walk = Prefixed::at("Affix body", pos);
    let mut whole = true;
    for i in first..n {
        let (start, len) = walk.next(body, i)?;
        whole &= pre.put(out, w) & copy_value(out, w + p, body, start, len) & suf.put(out, w + p + len);
        w += p + len + s;
        offsets.push(w as u32);
    }
    walk.finish(body)?;
    // A value that did not fit its room counts as bytes not filled.
    check_filled(if whole { w } else { 0 }, total)?;
    // SAFETY: bytes 0..w are written, w = total <= the capacity: `bulk`
    // wrote every byte up to where it stopped (see there), and every value
    // after it was written whole, back to back (`whole`).
    unsafe { data.set_len(total) };
    Ok(Values::Bytes { offsets, data })
}

/// The suffix, then the prefix, zero-padded to SLACK bytes, when both fit:
/// what goes between one value's middle and the next one's.
fn glue(prefix: &[u8], suffix: &[u8]) -> Option<[u8; SLACK]> {
    let (p, s) = (prefix.len(), suffix.len());
    (p + s <= SLACK).then(|| {
        let mut g = [0u8; SLACK];
        g[..s].copy_from_slice(suffix);
        g[s..s + p].copy_from_slice(prefix);
        g
    })
}

/// Decodes values from the start of `body` while each one's length and
/// 32 bytes after it lie in `body` and its output ends by `out`'s last
/// SLACK_32 bytes: per value one 32-byte move of the middle (and a sized
/// copy of the rest of a longer one) and one 16-byte move of `glue`,
/// the value's suffix and the next one's prefix. Returns the values done,
/// the position of the next value's length and the output bytes written;
/// `ends[..done]` are written, in order.
/// A value it does not take (near the end of `body`, or one the checks
/// refuse) is left to the checked walk that follows, which reports the
/// error of a bad one. Out of line, over slices advanced per value, its
/// state stays in registers (inlined into `decode_into`, the loop spilled
/// it: about 89 -> 37 instructions a value natively, by callgrind).
#[inline(never)]
fn bulk(
    body: &[u8],
    out: &mut [MaybeUninit<u8>],
    ends: &mut [MaybeUninit<u32>],
    p: usize,
    s: usize,
    glue: [u8; SLACK],
) -> (usize, usize, usize) {
    let step = p + s;
    // The first prefix; later ones come with the glue.
    let (Some(first), Some(prefix)) = (out.get_mut(..p), glue.get(s..s + p)) else {
        return (0, 0, 0);
    };
    first.copy_from_slice(initialized(prefix));
    // `rest` starts at the next value's length, `dst` at its middle's
    // place in `out`: each value's checks are on them, and advancing them
    // needs none. Every byte before `dst` is written.
    let mut rest = body;
    let Some(mut dst) = out.get_mut(p..) else {
        return (0, 0, 0);
    };
    let (mut done, mut w) = (0usize, 0usize);
    for end in ends.iter_mut() {
        let Some(head) = rest.first_chunk::<{ 4 + SLACK_32 }>() else { break };
        let len = u32::from_le_bytes([head[0], head[1], head[2], head[3]]) as usize;
        if len > rest.len() - 4 {
            break;
        }
        let Some(d) = dst.get_mut(..len + SLACK_32) else { break };
        d[..SLACK_32].copy_from_slice(initialized(&head[4..]));
        if len > SLACK_32 {
            d[SLACK_32..len].copy_from_slice(initialized(&rest[4 + SLACK_32..4 + len]));
        }
        // The middle is written; the glue writes the suffix and the next
        // prefix (p + s <= SLACK).
        d[len..len + SLACK].copy_from_slice(initialized(&glue));
        let Some(next) = std::mem::take(&mut dst).get_mut(len + step..) else { break };
        dst = next;
        rest = &rest[4 + len..];
        w += len + step;
        end.write(w as u32);
        done += 1;
    }
    (done, body.len() - rest.len(), w)
}

/// A prefix or suffix, kept zero-padded to SLACK bytes when it is that
/// short so that each copy of it is one fixed-size move.
struct Piece<'a> {
    bytes: &'a [u8],
    padded: Option<[u8; SLACK]>,
}

impl<'a> Piece<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        let padded = (bytes.len() <= SLACK).then(|| {
            let mut p = [0u8; SLACK];
            p[..bytes.len()].copy_from_slice(bytes);
            p
        });
        Piece { bytes, padded }
    }

    /// Writes the piece at `data[w..]`, unfilled room; whether it fit.
    #[inline(always)]
    fn put(&self, data: &mut [MaybeUninit<u8>], w: usize) -> bool {
        if self.bytes.is_empty() {
            return true;
        }
        match (&self.padded, data.get_mut(w..w + SLACK)) {
            (Some(p), Some(d)) => {
                d.copy_from_slice(initialized(p));
                true
            }
            _ => put(data, w, self.bytes),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::testkit::{assert_same, damage, flatten, Rng, Verdicts};

    /// The values a plain reading of the Affix layout gives, or None.
    fn reference(s: &[u8], n: usize) -> Option<Vec<Vec<u8>>> {
        let mut pos = 0usize;
        let mut take = |len: usize| {
            let b = s.get(pos..pos.checked_add(len)?)?;
            pos += len;
            Some(b)
        };
        let len = |b: &[u8]| u32::from_le_bytes(b.try_into().unwrap()) as usize;
        let plen = len(take(4)?);
        let prefix = take(plen)?.to_vec();
        let slen = len(take(4)?);
        let suffix = take(slen)?.to_vec();
        let mut out = Vec::new();
        for _ in 0..n {
            let m = len(take(4)?);
            out.push([&prefix[..], take(m)?, &suffix[..]].concat());
        }
        (pos == s.len()).then_some(out)
    }

    /// Random affixes (empty, short, past 16 bytes) and middles around the
    /// 16-byte move, then damaged: the decoder gives exactly the
    /// reference's values, or a corrupt-chunk error where it has none.
    #[test]
    fn decodes_as_a_plain_reading_does() {
        let mut rng = Rng(0x6a09_e667_f3bc_c908);
        let mut verdicts = Verdicts::default();
        for case in 0..5000 {
            let affix = |rng: &mut Rng| {
                let len = [0, 0, 1, 3, 16, 17, 40][rng.below(7)];
                rng.bytes(len)
            };
            let (prefix, suffix) = (affix(&mut rng), affix(&mut rng));
            let n = if rng.below(4) == 0 { rng.below(2000) } else { rng.below(40) };
            let mut s = Vec::new();
            for a in [&prefix, &suffix] {
                s.extend_from_slice(&(a.len() as u32).to_le_bytes());
                s.extend_from_slice(a);
            }
            let mut length_at = Vec::new();
            for _ in 0..n {
                let len = if rng.below(10) == 0 { rng.below(60) } else { rng.below(18) };
                length_at.push(s.len());
                s.extend_from_slice(&(len as u32).to_le_bytes());
                s.extend(rng.bytes(len));
            }
            // A length at the edge of the bytes after it: from just inside
            // to a few bytes past (a check off by a few lets these through).
            if n > 0 && rng.below(6) == 0 {
                let at = length_at[rng.below(n)];
                let room = s.len() - (at + 4);
                let len = (room + rng.below(6)).saturating_sub(1) as u32;
                s[at..at + 4].copy_from_slice(&len.to_le_bytes());
            }
            let s = damage(&mut rng, s);
            let count = if rng.below(12) == 0 { n ^ 1 } else { n };
            let got = decode(count, count, Cow::Borrowed(&s), None);
            // The owned stream's path (in place without affixes) agrees
            // with the borrowed one, errors included.
            match (&got, decode(count, count, Cow::Owned(s.clone()), None)) {
                (Ok(a), Ok(b)) => assert_same(&flatten(&b), &flatten(a), &format!("case {case}: owned")),
                (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "case {case}: owned"),
                _ => panic!("case {case}: the owned stream's decode disagrees"),
            }
            // Kept storage large enough to be reused, its bytes stale: a
            // byte the decoder left unwritten would show through.
            let stale = Values::Bytes { offsets: vec![u32::MAX; 8], data: vec![0xee; s.len() + 100 * count + 64] };
            match (&got, decode(count, count, Cow::Borrowed(&s), Some(stale))) {
                (Ok(a), Ok(b)) => assert_same(&flatten(&b), &flatten(a), &format!("case {case}: kept")),
                (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "case {case}: kept"),
                _ => panic!("case {case}: the kept storage's decode disagrees"),
            }
            verdicts.check(reference(&s, count), got, &format!("case {case}: {count} values"));
        }
        assert!(
            verdicts.decoded > 2000 && verdicts.refused > 1000,
            "both outcomes are exercised ({} decoded, {} refused)",
            verdicts.decoded,
            verdicts.refused
        );
    }
}
